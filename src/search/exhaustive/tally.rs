//! The fully fixed games of the narrow exhaustive search (decks of up to 32 cards) in the 16 `u32`
//! AVX-512 lanes, counted in the lanes: each game is written straight into the lanes' arrays
//! when the tree walk queues it (no array of games to transpose later), and a game that ends
//! shorter than the longest so far leaves the lanes as one count of its winner (no per-game
//! results to store and read back). Only the rare others (as long as the longest so far, or past
//! the trick limit) come back one by one, for `flush.rs` to record as the general path does.
//!
//! The move loop is the lanes' own (`engine/avx512_moves.rs`, `report: tally`). The reference is
//! the general path (`Lanes::run` of every game, then `Tally::count`), which decks of more than
//! 32 cards and processors without AVX-512 take; `tests` hold the two to the same counts.

use crate::engine::lanes::{Game, Isa};

use super::{AbGame, BATCH};

/// Values of padding past a batch that the lanes' whole-vector loads and stores touch.
const PAD: usize = 16;

/// Idle lanes that trigger a refill (as the general lanes: refilling at once was measured faster
/// than waiting for more idle lanes).
const REFILL: usize = 4;

/// Queued games, structure of arrays as the lanes load them (`a` the player to act first), and
/// the cards each played before the lanes.
struct Soa {
    fa: Vec<u32>,
    fb: Vec<u32>,
    la: Vec<u32>,
    lb: Vec<u32>,
    ha: Vec<u32>,
    hb: Vec<u32>,
    na: Vec<u32>,
    nb: Vec<u32>,
    pf: Vec<u32>,
    pl: Vec<u32>,
    ph: Vec<u32>,
    n: Vec<u32>,
    debt: Vec<u32>,
    who: Vec<u32>,
    slot: Vec<u32>,
    cards: Vec<u32>,
}

impl Soa {
    fn new(len: usize) -> Soa {
        let v = || vec![0u32; len];
        Soa {
            fa: v(),
            fb: v(),
            la: v(),
            lb: v(),
            ha: v(),
            hb: v(),
            na: v(),
            nb: v(),
            pf: v(),
            pl: v(),
            ph: v(),
            n: v(),
            debt: v(),
            who: v(),
            slot: v(),
            cards: v(),
        }
    }
}

/// What the lanes report: the winners' counts, and the games that need a closer look.
pub(super) struct Special {
    pub slot: Vec<u32>,
    pub winner: Vec<u32>,
    /// The tricks the game played in the lanes (the last one included).
    pub tricks: Vec<u32>,
    /// Every card the game played, before the lanes too.
    pub cards: Vec<u32>,
    /// 1 when the game ended, 0 when it reached the trick limit.
    pub ended: Vec<u32>,
    /// Games won by each player and not special.
    pub wins: [u64; 2],
    /// How many special games.
    pub special: usize,
    /// A game that ends with at least this many cards is special.
    pub bar: u32,
}

/// Stand-in for the spill arrays of the move loop, which `report: tally` never spills to.
struct NoSpill {
    state: Soa,
    tricks: Vec<u32>,
    cards: Vec<u32>,
}

/// A batch of at most [`BATCH`] fully fixed games for the lanes.
pub(super) struct NarrowBatch {
    soa: Soa,
    len: usize,
    pub out: Special,
    no_spill: NoSpill,
}

impl Default for NarrowBatch {
    fn default() -> Self {
        Self::with_room(BATCH + PAD)
    }
}

impl NarrowBatch {
    /// A batch with no room, for processors that do not run it ([`NarrowBatch::available`]).
    pub fn empty() -> Self {
        Self::with_room(0)
    }

    fn with_room(len: usize) -> Self {
        let v = || vec![0u32; len];
        NarrowBatch {
            soa: Soa::new(len),
            len: 0,
            out: Special {
                slot: v(),
                winner: v(),
                tricks: v(),
                cards: v(),
                ended: v(),
                wins: [0; 2],
                special: 0,
                bar: 0,
            },
            no_spill: NoSpill {
                state: Soa::new(0),
                tricks: Vec::new(),
                cards: Vec::new(),
            },
        }
    }

    /// Whether this processor runs these lanes (else the games go back to the general path).
    pub fn available() -> bool {
        Isa::get() == Isa::Avx512
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Queues `g` (with a move to make: see [`Game::over_at_start`]), which played `cards` cards
    /// before; it is game `self.len()` of the batch.
    #[inline(always)]
    pub fn push(&mut self, g: &AbGame<u32>, cards: u64) {
        let i = self.len;
        assert!(
            i < BATCH && self.soa.slot.len() == BATCH + PAD,
            "a batch holds at most BATCH games"
        );
        debug_assert!(g.over_at_start().is_none() && cards <= u64::from(u32::MAX));
        let [pf, pl, ph] = g.pile;
        let s = &mut self.soa;
        // SAFETY: `i < BATCH` and every array holds `BATCH + PAD` values (`with_room`).
        unsafe {
            let w = |v: &mut Vec<u32>, x: u32| *v.as_mut_ptr().add(i) = x;
            w(&mut s.fa, g.faces[0]);
            w(&mut s.fb, g.faces[1]);
            w(&mut s.la, g.lo[0]);
            w(&mut s.lb, g.lo[1]);
            w(&mut s.ha, g.hi[0]);
            w(&mut s.hb, g.hi[1]);
            w(&mut s.na, g.len[0]);
            w(&mut s.nb, g.len[1]);
            w(&mut s.pf, pf);
            w(&mut s.pl, pl);
            w(&mut s.ph, ph);
            w(&mut s.n, g.n);
            w(&mut s.debt, g.debt);
            w(&mut s.who, g.who);
            w(&mut s.slot, i as u32);
            w(&mut s.cards, cards as u32);
        }
        self.len = i + 1;
    }

    /// Game `i` of the batch as it was queued.
    pub fn game(&self, i: usize) -> Game {
        let s = &self.soa;
        let a = s.who[i] as usize & 1;
        let two = |x: u32, y: u32| {
            let mut t = [0u32; 2];
            t[a] = x;
            t[a ^ 1] = y;
            t
        };
        Game {
            faces: two(s.fa[i], s.fb[i]),
            lo: two(s.la[i], s.lb[i]),
            hi: two(s.ha[i], s.hb[i]),
            len: two(s.na[i], s.nb[i]),
            pile_faces: s.pf[i],
            pile_lo: s.pl[i],
            pile_hi: s.ph[i],
            n: s.n[i],
            next: a as u32,
            debt: s.debt[i],
        }
    }

    /// Empties the batch.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Plays the batch, each game until it ends or has played `limit` tricks in the lanes:
    /// `self.out` then holds the counts and the special games (those ending with at least `bar`
    /// cards, and those stopped by the limit). Only with AVX-512 ([`NarrowBatch::available`]).
    pub fn run(&mut self, limit: u32, bar: u32) {
        assert!(Self::available(), "these lanes need AVX-512");
        assert_eq!(self.soa.slot.len(), BATCH + PAD, "a batch with room");
        self.out.wins = [0; 2];
        self.out.special = 0;
        self.out.bar = bar;
        // SAFETY: the processor has AVX-512 (checked above).
        unsafe { self.run_avx512(limit) }
    }

    #[target_feature(enable = "avx512f,avx512cd,avx512vl,avx512bw,avx512dq,bmi1,bmi2,lzcnt,popcnt")]
    unsafe fn run_avx512(&mut self, limit: u32) {
        use crate::engine::avx512_moves::{
            group_move, group_refill, move_loop, refill_cards, report_stopped,
        };
        use std::arch::x86_64::{
            __m512i, __mmask16, _mm512_add_epi32 as add, _mm512_and_si512, _mm512_andnot_si512,
            _mm512_cmpeq_epi32_mask as cmpeq, _mm512_cmpge_epu32_mask as cmpge,
            _mm512_cmplt_epu32_mask as cmplt, _mm512_lzcnt_epi32 as lzcnt,
            _mm512_mask_add_epi32 as mask_add, _mm512_mask_blend_epi32 as blend,
            _mm512_mask_expandloadu_epi32 as expandload, _mm512_mask_or_epi32 as mask_or,
            _mm512_mask_xor_epi32 as mask_xor, _mm512_maskz_add_epi32 as maskz_add,
            _mm512_maskz_compress_epi32 as maskz_compress, _mm512_maskz_mov_epi32 as maskz_mov,
            _mm512_maskz_sllv_epi32 as maskz_sllv, _mm512_min_epu32 as min, _mm512_or_si512,
            _mm512_set1_epi32 as set1, _mm512_setzero_si512, _mm512_sllv_epi32 as sllv,
            _mm512_srli_epi32 as srli, _mm512_srlv_epi32 as srlv, _mm512_storeu_si512 as storeu,
            _mm512_sub_epi32 as sub,
        };
        let soa = &mut self.soa;
        let out = &mut self.out;
        let sp = &mut self.no_spill;
        let total = self.len;
        // SAFETY: every array of `soa` and `out` holds BATCH + 16 values and `total <= BATCH`,
        // as the move loop's loads and stores need; nothing spills (`spill: false`).
        let (stopped, _) = unsafe {
            move_loop!(soa: soa, out: out, total: total, limit: limit,
                lanes: 16, mask: __mmask16, elem: u32, int: i32, refill: REFILL, mid_trick: true,
                spill: false, spilled: sp, report: tally)
        };
        debug_assert_eq!(stopped, total);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::lanes::{Finish, Lanes, random_positions};
    use crate::rng::SplitMix64;

    /// Random games from any move boundary: random hands, and a random pile and debt on top
    /// (hands and pile within 32 cards).
    fn random_games(seed: u64, count: usize) -> Vec<(Game, u64)> {
        let mut rng = SplitMix64::new(seed);
        random_positions(seed, count, 24)
            .iter()
            .map(|p| {
                let mut g = Game::from_hands(&p.hands[0], &p.hands[1], u32::from(p.to_move));
                let n = rng.below(9) as u32;
                for i in 0..n {
                    let c = [0u8, 0, 0, 1, 2, 3, 4][rng.below(7) as usize];
                    if c > 0 {
                        let k = u32::from(c - 1);
                        g.pile_faces |= 1 << i;
                        g.pile_lo |= (k & 1) << i;
                        g.pile_hi |= (k >> 1) << i;
                    }
                }
                g.n = n;
                g.debt = if n > 0 { rng.below(5) as u32 } else { 0 };
                (g, rng.below(500))
            })
            .filter(|(g, _)| g.over_at_start().is_none())
            .collect()
    }

    /// The batch counts every game as the general lanes finish it: a game that ends with fewer
    /// than `bar` cards (those before the lanes included) only in the winners' counts, every
    /// other one (ended at least that long, or stopped by the trick limit) as a special game
    /// with its own result.
    #[test]
    fn batch_counts_what_the_general_lanes_finish() {
        if !NarrowBatch::available() {
            return;
        }
        let all = random_games(21, 3 * BATCH + 100);
        let mut batch = NarrowBatch::default();
        let mut lanes = Lanes::default();
        for chunk in all.chunks(BATCH) {
            let games: Vec<Game> = chunk.iter().map(|&(g, _)| g).collect();
            for limit in [1000u32, 3] {
                let mut want = Vec::new();
                lanes.run(&games, limit, |i, f| want.push((i, f)));
                for bar in [0u32, 40, 200, u32::MAX] {
                    batch.clear();
                    for &(g, before) in chunk {
                        batch.push(&AbGame::of(&g), before);
                    }
                    batch.run(limit, bar);
                    let out = &batch.out;
                    let mut wins = [0u64; 2];
                    let mut special = Vec::new();
                    for &(i, f) in &want {
                        let before = chunk[i].1;
                        match f {
                            Finish::Won {
                                winner,
                                tricks,
                                cards,
                            } if before + cards < u64::from(bar) => {
                                let _ = tricks;
                                wins[winner as usize] += 1;
                            }
                            Finish::Won {
                                winner,
                                tricks,
                                cards,
                            } => special.push((i, 1, u32::from(winner), tricks, before + cards)),
                            Finish::TooLong => special.push((i, 0, 0, 0, 0)),
                        }
                    }
                    let mut got: Vec<_> = (0..out.special)
                        .map(|j| {
                            let ended = out.ended[j];
                            let (w, t, c) = if ended == 1 {
                                (
                                    out.winner[j],
                                    u64::from(out.tricks[j]),
                                    u64::from(out.cards[j]),
                                )
                            } else {
                                (0, 0, 0)
                            };
                            (out.slot[j] as usize, ended, w, t, c)
                        })
                        .collect();
                    got.sort_unstable();
                    special.sort_unstable();
                    assert_eq!((out.wins, got), (wins, special), "limit {limit}, bar {bar}");
                    for (j, &(g, _)) in chunk.iter().enumerate() {
                        assert_eq!(batch.game(j), g);
                        assert_eq!(AbGame::of(&g).game(), g);
                    }
                }
            }
        }
    }
}
