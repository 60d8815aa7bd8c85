//! A position seen from the player to move (their hand, the other hand, the card to beat), its
//! legal moves and where each leads. The only statement of the rules of play in `beatit`.

use super::cards::{Card, GameSetup};

/// No card to beat: the player to move leads.
pub const NO_TOP: u8 = u8::MAX;

/// Where every card is, relative to the player to move; the table is every other card. The
/// table's order matters only for its top card, so a set and `top` say all that decides play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State {
    pub n: u8,
    /// The hand of the player to move (bit = [`Card::index`]).
    pub mine: u32,
    /// The other player's hand.
    pub theirs: u32,
    /// The led card to beat or eat, or [`NO_TOP`] when the player to move leads.
    pub top: u8,
}

/// A move: play a card (a lead or a beat) or eat the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Play(u8),
    Eat,
}

/// Where a move leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The mover played the last card of their hand and wins.
    Win,
    /// The next position; `flip` when the other player is now to move.
    Next { state: State, flip: bool },
}

/// The cards of the same suit above card `t` (which beat it).
pub fn beaters(t: u8, n: u8) -> u32 {
    let n = n as u32;
    let suit_top = if (t as u32) < n { n } else { 2 * n };
    let above = (1u32 << suit_top) - 1;
    above & !((2u32 << t) - 1)
}

impl State {
    pub fn full(self) -> u32 {
        (1u32 << (2 * self.n as u32)) - 1
    }

    pub fn table(self) -> u32 {
        self.full() & !self.mine & !self.theirs
    }

    /// The cards the mover may play (all, when leading; the beaters of the top card otherwise).
    pub fn playable(self) -> u32 {
        if self.top == NO_TOP {
            self.mine
        } else {
            self.mine & beaters(self.top, self.n)
        }
    }

    /// Number of legal moves (eating counts when there is a card to beat).
    pub fn degree(self) -> u32 {
        self.playable().count_ones() + u32::from(self.top != NO_TOP)
    }

    /// Whether the mover can play their last card now (and so wins at once).
    pub fn wins_now(self) -> bool {
        self.mine.count_ones() == 1 && self.playable() != 0
    }

    /// The legal moves: the playable cards, low bits first, then eating.
    pub fn moves(self) -> impl Iterator<Item = Move> {
        let p = self.playable();
        (0..32u8)
            .filter(move |i| p >> i & 1 == 1)
            .map(Move::Play)
            .chain((self.top != NO_TOP).then_some(Move::Eat))
    }

    /// Plays a legal move. A lead passes the turn; a beat keeps it (the beater leads next);
    /// eating takes the whole table and passes the turn back to the leader.
    pub fn step(self, m: Move) -> Step {
        match m {
            Move::Play(c) => {
                debug_assert!(self.playable() >> c & 1 == 1, "illegal play");
                let mine = self.mine & !(1 << c);
                if mine == 0 {
                    return Step::Win;
                }
                if self.top == NO_TOP {
                    Step::Next {
                        state: State {
                            n: self.n,
                            mine: self.theirs,
                            theirs: mine,
                            top: c,
                        },
                        flip: true,
                    }
                } else {
                    Step::Next {
                        state: State {
                            n: self.n,
                            mine,
                            theirs: self.theirs,
                            top: NO_TOP,
                        },
                        flip: false,
                    }
                }
            }
            Move::Eat => {
                debug_assert!(self.top != NO_TOP, "eating with nothing to beat");
                Step::Next {
                    state: State {
                        n: self.n,
                        mine: self.theirs,
                        theirs: self.mine | self.table(),
                        top: NO_TOP,
                    },
                    flip: true,
                }
            }
        }
    }

    /// Packs the state in 64 bits (hash keys).
    pub fn key(self) -> u64 {
        self.mine as u64 | (self.theirs as u64) << 26 | (self.top as u64) << 52
    }

    pub fn from_key(k: u64, n: u8) -> State {
        State {
            n,
            mine: (k & 0x3ff_ffff) as u32,
            theirs: (k >> 26 & 0x3ff_ffff) as u32,
            top: (k >> 52) as u8,
        }
    }

    /// The state of a checked setup, seen from its player to move.
    pub fn from_setup(g: &GameSetup) -> State {
        let m = g.to_move as usize - 1;
        State {
            n: g.n as u8,
            mine: g.hands[m],
            theirs: g.hands[1 - m],
            top: g.card_to_beat().map_or(NO_TOP, |c| c.index(g.n) as u8),
        }
    }

    /// A move written as the card (`Ks`) or `eat`.
    pub fn move_name(self, m: Move) -> String {
        match m {
            Move::Play(c) => Card::from_index(c as usize, self.n as usize).to_string(),
            Move::Eat => "eat".to_string(),
        }
    }

    /// The legal move written `name` (`Ks`, `eat`), if any.
    pub fn parse_move(self, name: &str) -> Option<Move> {
        let name = name.trim();
        self.moves()
            .find(|&m| self.move_name(m).eq_ignore_ascii_case(name))
    }
}

impl GameSetup {
    /// Plays a legal move on the absolute setup (the table keeps its order); returns the winner
    /// if the move ends the game. `None` for an illegal move.
    pub fn play(&mut self, m: Move) -> Option<Option<u8>> {
        let s = State::from_setup(self);
        if !s.moves().any(|x| x == m) {
            return None;
        }
        let p = self.to_move as usize - 1;
        match m {
            Move::Play(c) => {
                self.hands[p] &= !(1 << c);
                self.table.push(Card::from_index(c as usize, self.n));
                if self.hands[p] == 0 {
                    return Some(Some(self.to_move));
                }
                if s.top == NO_TOP {
                    self.to_move = 3 - self.to_move;
                }
            }
            Move::Eat => {
                for c in self.table.drain(..) {
                    self.hands[p] |= 1 << c.index(self.n);
                }
                self.to_move = 3 - self.to_move;
            }
        }
        Some(None)
    }
}
