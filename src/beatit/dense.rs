//! Retrograde analysis over every position of a suit length `n` (the census table): count each
//! position's moves, decide the immediate wins, then walk backwards from every decided position
//! through its predecessors in breadth-first order. What is never decided is a draw.
//!
//! A position is indexed by where each of the `2n` cards is (the mover's hand, the other hand,
//! the table: one base-3 digit each) and, when a card is to be beaten, which one (that card's
//! digit is then known and dropped): `3^(2n) + 2n·3^(2n-1)` slots. Each slot is a `u16`: 2 bits of
//! value and 14 bits holding the move count while undecided, then the depth in plies.

use std::collections::VecDeque;

use thiserror::Error;

use super::state::{NO_TOP, State, beaters};
use super::{Solved, Value, Values};

/// The longest suit the dense table accepts (n = 9 needs 5.4 GB of slots plus the queue).
pub const MAX_DENSE: usize = 9;

const UNDECIDED: u16 = 0;
const WIN: u16 = 1 << 14;
const LOSS: u16 = 2 << 14;
const INVALID: u16 = 3 << 14;
const LOW: u16 = (1 << 14) - 1;

#[derive(Debug, Error)]
pub enum DenseError {
    #[error("suit length {0} is outside 1..={MAX_DENSE} for the whole-game table")]
    SuitLength(usize),
    #[error("a game longer than {LOW} plies does not fit the table's depth field")]
    TooDeep,
}

/// The solved table of every position of a suit length.
pub struct Dense {
    n: u8,
    slots: Vec<u16>,
    pow3: [u64; 20],
    lut: [u32; 256],
}

/// Counts of the finished analysis.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DenseStats {
    pub slots: u64,
    pub positions: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub max_plies: u32,
}

impl Dense {
    /// Solves every position of suit length `n`. `progress(done, total)` is called now and then
    /// (positions counted in the first pass, then decided ones).
    pub fn solve(n: usize, progress: &mut dyn FnMut(u64, u64)) -> Result<Dense, DenseError> {
        if n == 0 || n > MAX_DENSE {
            return Err(DenseError::SuitLength(n));
        }
        let mut pow3 = [1u64; 20];
        for i in 1..20 {
            pow3[i] = pow3[i - 1] * 3;
        }
        let mut lut = [0u32; 256];
        for (b, v) in lut.iter_mut().enumerate() {
            *v = (0..8).map(|i| ((b >> i) & 1) as u32 * pow3[i] as u32).sum();
        }
        let cards = 2 * n;
        let total = pow3[cards] + cards as u64 * pow3[cards - 1];
        let mut d = Dense {
            n: n as u8,
            slots: vec![UNDECIDED; total as usize],
            pow3,
            lut,
        };
        // The queue holds indices in the order decided: a FIFO, so depths come out breadth-first.
        // Popped entries are freed, so it holds only the frontier.
        let mut queue: VecDeque<u32> = VecDeque::new();
        for idx in 0..total {
            let s = d.decode(idx);
            let slot = &mut d.slots[idx as usize];
            if s.mine == 0 || s.theirs == 0 {
                *slot = INVALID;
            } else if s.wins_now() {
                *slot = WIN | 1;
                queue.push_back(idx as u32);
            } else {
                *slot = s.degree() as u16;
            }
            if idx & 0xf_ffff == 0 {
                progress(idx, 2 * total);
            }
        }
        let mut done = 0u64;
        let mut preds = Vec::with_capacity(64);
        while let Some(idx) = queue.pop_front() {
            done += 1;
            if done & 0xf_ffff == 0 {
                progress(total + done, 2 * total);
            }
            let slot = d.slots[idx as usize];
            let depth = slot & LOW;
            if depth == LOW {
                return Err(DenseError::TooDeep);
            }
            let won = slot & !LOW == WIN;
            preds.clear();
            predecessors(d.decode(idx as u64), &mut preds);
            for &(q, flip) in &preds {
                let qi = d.index(q);
                let qs = d.slots[qi];
                if qs & !LOW != UNDECIDED {
                    continue;
                }
                // The child is good for q's mover when it is lost for the other player, or won
                // for q's mover themself (a beat keeps the turn).
                if won != flip {
                    d.slots[qi] = WIN | (depth + 1);
                    queue.push_back(qi as u32);
                } else if qs == 1 {
                    d.slots[qi] = LOSS | (depth + 1);
                    queue.push_back(qi as u32);
                } else {
                    d.slots[qi] = qs - 1;
                }
            }
        }
        progress(2 * total, 2 * total);
        Ok(d)
    }

    pub fn n(&self) -> usize {
        self.n as usize
    }

    /// Slots in the table of suit length `n` (2 bytes each; the queue of the frontier, 4 bytes
    /// an entry, comes on top).
    pub fn slots_for(n: usize) -> u64 {
        let p = 3u64.pow(2 * n as u32 - 1);
        3 * p + 2 * n as u64 * p
    }

    /// Counts over every valid position.
    pub fn stats(&self) -> DenseStats {
        let mut st = DenseStats {
            slots: self.slots.len() as u64,
            ..Default::default()
        };
        for &s in &self.slots {
            match s & !LOW {
                INVALID => continue,
                WIN => st.wins += 1,
                LOSS => st.losses += 1,
                _ => st.draws += 1,
            }
            st.positions += 1;
            if s & !LOW != UNDECIDED {
                st.max_plies = st.max_plies.max((s & LOW) as u32);
            }
        }
        st
    }

    fn base3(&self, m: u32) -> u64 {
        self.lut[(m & 255) as usize] as u64
            + self.lut[(m >> 8 & 255) as usize] as u64 * self.pow3[8]
            + self.lut[(m >> 16 & 255) as usize] as u64 * self.pow3[16]
    }

    /// The slot of a state (see the module comment).
    fn index(&self, s: State) -> usize {
        let cards = 2 * self.n as usize;
        let table = s.table();
        if s.top == NO_TOP {
            (self.base3(s.theirs) + 2 * self.base3(table)) as usize
        } else {
            let t = s.top as u32;
            let drop = |m: u32| (m & ((1 << t) - 1)) | (m >> (t + 1)) << t;
            (self.pow3[cards]
                + t as u64 * self.pow3[cards - 1]
                + self.base3(drop(s.theirs))
                + 2 * self.base3(drop(table))) as usize
        }
    }

    fn decode(&self, idx: u64) -> State {
        let n = self.n;
        let cards = 2 * n as usize;
        let (mut rest, top, digits) = if idx < self.pow3[cards] {
            (idx, NO_TOP, cards)
        } else {
            let r = idx - self.pow3[cards];
            (
                r % self.pow3[cards - 1],
                (r / self.pow3[cards - 1]) as u8,
                cards - 1,
            )
        };
        let (mut mine, mut theirs) = (0u32, 0u32);
        for i in 0..digits {
            let bit = if top != NO_TOP && i >= top as usize {
                i + 1
            } else {
                i
            };
            match rest % 3 {
                0 => mine |= 1 << bit,
                1 => theirs |= 1 << bit,
                _ => {}
            }
            rest /= 3;
        }
        State {
            n,
            mine,
            theirs,
            top,
        }
    }
}

impl Values for Dense {
    fn solved(&self, s: &State) -> Option<Solved> {
        if s.n != self.n || s.mine == 0 || s.theirs == 0 {
            return None;
        }
        let slot = self.slots[self.index(*s)];
        let plies = Some((slot & LOW) as u32);
        Some(match slot & !LOW {
            WIN => Solved {
                value: Value::Win,
                plies,
            },
            LOSS => Solved {
                value: Value::Loss,
                plies,
            },
            _ => Solved {
                value: Value::Draw,
                plies: None,
            },
        })
    }
}

/// Every valid state with a move into `p` that is not an immediate win, with whether that move
/// passes the turn. Inverts [`State::step`]:
/// - `p` has a card to beat `t`: the other player led `t` (passes the turn);
/// - `p` leads: the mover beat some table card `t` with a higher table card `c` (keeps the
///   turn), or, with an empty table, the other player ate a nonempty part `S` of their hand
///   (keeping at least one card) whose led card was some `t` in `S` (passes the turn).
pub fn predecessors(p: State, out: &mut Vec<(State, bool)>) {
    let n = p.n;
    let table = p.table();
    if p.top != NO_TOP {
        out.push((
            State {
                n,
                mine: p.theirs | 1 << p.top,
                theirs: p.mine,
                top: NO_TOP,
            },
            true,
        ));
        return;
    }
    let mut cs = table;
    while cs != 0 {
        let c = cs.trailing_zeros();
        cs &= cs - 1;
        let mut ts = table & !(1 << c);
        while ts != 0 {
            let t = ts.trailing_zeros();
            ts &= ts - 1;
            if beaters(t as u8, n) >> c & 1 == 1 {
                out.push((
                    State {
                        n,
                        mine: p.mine | 1 << c,
                        theirs: p.theirs,
                        top: t as u8,
                    },
                    false,
                ));
            }
        }
    }
    if table == 0 {
        // Every nonempty proper subset S of the other hand.
        let o = p.theirs;
        let mut s = (o.wrapping_sub(1)) & o;
        while s != 0 {
            let mut ts = s;
            while ts != 0 {
                let t = ts.trailing_zeros();
                ts &= ts - 1;
                out.push((
                    State {
                        n,
                        mine: o & !s,
                        theirs: p.mine,
                        top: t as u8,
                    },
                    true,
                ));
            }
            s = (s.wrapping_sub(1)) & o;
        }
    }
}
