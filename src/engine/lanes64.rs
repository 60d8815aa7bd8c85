//! Lockstep lanes for whole decks (up to 64 cards): eight games at a time in AVX-512 registers,
//! one `u64` lane each, from a trick boundary to their end or a trick limit.
//!
//! The same moves as the 16-lane `u32` engine of `lanes_avx512.rs`, widened so that a
//! hand can hold every card of a standard deck: both expand the one move loop of
//! `avx512_moves.rs` over their width's intrinsics. A hand is three
//! bit planes, bit `i` for its card `i` (top first): `faces` is set for penalty cards, `lo` and
//! `hi` hold the penalty less one. Every lane computes every case of a move (a lead phase, one
//! payment, or the end of a payment and the taking of the pile) and selects its own, so a coin
//! toss costs no mispredicted branch. The piece enumeration (`ansatz/enumerate.rs`) hands its
//! fully chosen candidates here in batches; games still going at the limit (the cycling ones, and
//! very long terminating ones) go back to the exact cycle engine. `tests` hold the lanes to the
//! reference engine game by game.

use crate::card::Card;
use crate::engine::lanes::Finish;

/// A position at a trick boundary in the lanes' form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Deal64 {
    pub faces: [u64; 2],
    pub lo: [u64; 2],
    pub hi: [u64; 2],
    pub len: [u32; 2],
    /// The player to move (0 or 1).
    pub next: u32,
}

impl Deal64 {
    /// From two hands of penalties (0 number card, 1..=4 J Q K A), top first; at most 64 cards
    /// each.
    pub fn from_hands(h0: &[Card], h1: &[Card], next: u8) -> Deal64 {
        let mut d = Deal64 {
            next: u32::from(next),
            ..Deal64::default()
        };
        for (p, h) in [h0, h1].into_iter().enumerate() {
            d.set_hand(p, h.len(), |i| h[i]);
        }
        d
    }

    /// A two-player deal in deal order: player 1 holds the first half (rounded up) and moves first.
    pub fn deal(cards: &[Card]) -> Deal64 {
        let h1 = cards.len().div_ceil(2);
        let mut d = Deal64::default();
        d.set_hand_slice(0, &cards[..h1]);
        d.set_hand_slice(1, &cards[h1..]);
        d
    }

    /// Sets hand `p` to the `len` cards `card(0)`, `card(1)`, ... (top first).
    #[inline]
    pub fn set_hand(&mut self, p: usize, len: usize, card: impl Fn(usize) -> Card) {
        assert!(len <= 64, "a lane hand holds at most 64 cards");
        let (mut faces, mut lo, mut hi) = (0u64, 0u64, 0u64);
        for i in 0..len {
            let c = u64::from(card(i));
            let face = u64::from(c != 0);
            let k = c.wrapping_sub(1) & face.wrapping_neg();
            faces |= face << i;
            lo |= (k & 1) << i;
            hi |= (k >> 1 & 1) << i;
        }
        self.faces[p] = faces;
        self.lo[p] = lo;
        self.hi[p] = hi;
        self.len[p] = len as u32;
    }

    /// Sets hand `p` to the `len` cards of the 64-slot ring `buf` from slot `head` on (wrapping
    /// past slot 63). With AVX-512 the planes of all 64 slots come from three byte compares and
    /// are then rotated into place, instead of a loop over the cards (it was half of the piece
    /// enumeration's walk, by `perf annotate`).
    #[inline]
    pub fn set_hand_ring(&mut self, p: usize, buf: &[Card; 64], head: u8, len: u8) {
        #[cfg(target_arch = "x86_64")]
        if available() {
            // SAFETY: the processor has AVX-512 F and BW (checked by `available`).
            let (faces, lo, hi) = unsafe { ring_planes(buf) };
            let keep = u64::MAX.checked_shr(64 - u32::from(len)).unwrap_or(0);
            let r = u32::from(head & 63);
            self.faces[p] = faces.rotate_right(r) & keep;
            self.lo[p] = lo.rotate_right(r) & keep;
            self.hi[p] = hi.rotate_right(r) & keep;
            self.len[p] = u32::from(len);
            return;
        }
        self.set_hand(p, len as usize, |i| buf[(head as usize + i) & 63]);
    }

    /// Sets hand `p` to `cards` (top first, at most 64).
    #[inline]
    pub fn set_hand_slice(&mut self, p: usize, cards: &[Card]) {
        assert!(cards.len() <= 64, "a lane hand holds at most 64 cards");
        let mut buf = [0; 64];
        buf[..cards.len()].copy_from_slice(cards);
        self.set_hand_ring(p, &buf, 0, cards.len() as u8);
    }

    /// Hand `p` as penalties, top first.
    pub fn hand(&self, p: usize) -> Vec<Card> {
        (0..self.len[p])
            .map(|i| {
                if self.faces[p] >> i & 1 == 1 {
                    (1 + (self.lo[p] >> i & 1) + 2 * (self.hi[p] >> i & 1)) as Card
                } else {
                    0
                }
            })
            .collect()
    }

    /// Whether the game is over before its first move (a hand is empty), and its winner.
    fn over_at_start(&self) -> Option<Finish> {
        (self.len[0] == 0 || self.len[1] == 0).then(|| Finish::Won {
            winner: u8::from(self.len[1] > 0),
            tricks: 0,
            cards: 0,
        })
    }
}

/// The three planes of a ring's 64 slots, bit `j` for slot `j`: face, `(penalty - 1) & 1` and
/// `(penalty - 1) >> 1`, i.e. penalty in {J..A} = {1..4}, in {2, 4} and in {3, 4}.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn ring_planes(buf: &[Card; 64]) -> (u64, u64, u64) {
    use std::arch::x86_64::*;
    // SAFETY: `buf` is 64 readable bytes; the load is unaligned.
    let v = unsafe { _mm512_loadu_si512(buf.as_ptr() as *const __m512i) };
    let faces = _mm512_test_epi8_mask(v, v);
    let lo = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(2))
        | _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(4));
    let hi = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(3));
    (faces, lo, hi)
}

/// Whether this processor runs the lanes (AVX-512; elsewhere callers play games one by one).
pub fn available() -> bool {
    crate::engine::lanes::Isa::get() == crate::engine::lanes::Isa::Avx512
}

/// Scratch of the lanes, reused between batches.
#[derive(Default)]
pub struct Lanes64 {
    #[cfg(target_arch = "x86_64")]
    soa: Soa,
    #[cfg(target_arch = "x86_64")]
    out: Out,
}

impl Lanes64 {
    /// Plays every game of `games` until it ends or has played `limit` tricks, and reports each
    /// with `done(index in games, finish)`, in no particular order.
    ///
    /// # Panics
    /// When the processor lacks AVX-512 ([`available`] is false).
    pub fn run(&mut self, games: &[Deal64], limit: u32, done: impl FnMut(usize, Finish)) {
        assert!(available(), "the 64-card lanes need AVX-512");
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the processor has the features (checked by `available`, i.e. `Isa::get`).
        unsafe {
            self.run_avx512(games, limit, done)
        }
    }
}

/// The games of a batch, structure of arrays, the hand of the player to act first (`a`).
#[cfg(target_arch = "x86_64")]
#[derive(Default)]
struct Soa {
    fa: Vec<u64>,
    fb: Vec<u64>,
    la: Vec<u64>,
    lb: Vec<u64>,
    ha: Vec<u64>,
    hb: Vec<u64>,
    na: Vec<u64>,
    nb: Vec<u64>,
    /// The pile and debt: always empty, as every game starts at a trick boundary (the move loop,
    /// shared with the 16-lane engine, names them but reads them only for games that start
    /// mid-trick).
    pf: Vec<u64>,
    pl: Vec<u64>,
    ph: Vec<u64>,
    n: Vec<u64>,
    debt: Vec<u64>,
    who: Vec<u64>,
    slot: Vec<u64>,
}

/// Results of stopped lanes, in the order they stopped.
#[cfg(target_arch = "x86_64")]
#[derive(Default)]
struct Out {
    slot: Vec<u64>,
    winner: Vec<u64>,
    tricks: Vec<u64>,
    cards: Vec<u64>,
    last: Vec<u64>,
    ended: Vec<u64>,
}

/// Grows `v` to hold `len` values (old values need no clearing: every place read is written
/// first).
#[cfg(target_arch = "x86_64")]
fn room(v: &mut Vec<u64>, len: usize) {
    if v.len() < len {
        v.resize(len, 0);
    }
}

/// Idle lanes (of 8) that trigger a refill: at once, unlike the 16-lane engine's four (9 units of
/// `assemble --rest all`: 7.52 CPU-s with 1, 7.73 with 2, 8.3 with 4; games of whole decks are
/// long next to a refill).
#[cfg(target_arch = "x86_64")]
const REFILL: usize = 1;

#[cfg(target_arch = "x86_64")]
impl Lanes64 {
    #[target_feature(enable = "avx512f,avx512cd,avx512vl,avx512bw,avx512dq,bmi1,bmi2,lzcnt,popcnt")]
    unsafe fn run_avx512(
        &mut self,
        games: &[Deal64],
        limit: u32,
        mut done: impl FnMut(usize, Finish),
    ) {
        use crate::engine::avx512_moves::move_loop;
        use std::arch::x86_64::{
            __m512i, __mmask8, _mm512_add_epi64 as add, _mm512_and_si512, _mm512_andnot_si512,
            _mm512_cmpeq_epi64_mask as cmpeq, _mm512_cmpge_epu64_mask as cmpge,
            _mm512_cmplt_epu64_mask as cmplt, _mm512_lzcnt_epi64 as lzcnt,
            _mm512_mask_add_epi64 as mask_add, _mm512_mask_blend_epi64 as blend,
            _mm512_mask_compressstoreu_epi64 as compressstore,
            _mm512_mask_expandloadu_epi64 as expandload, _mm512_mask_or_epi64 as mask_or,
            _mm512_mask_xor_epi64 as mask_xor, _mm512_maskz_add_epi64 as maskz_add,
            _mm512_maskz_mov_epi64 as maskz_mov, _mm512_maskz_sllv_epi64 as maskz_sllv,
            _mm512_min_epu64 as min, _mm512_or_si512, _mm512_set1_epi64 as set1,
            _mm512_setzero_si512, _mm512_sllv_epi64 as sllv, _mm512_srli_epi64 as srli,
            _mm512_srlv_epi64 as srlv, _mm512_sub_epi64 as sub,
        };
        let soa = &mut self.soa;
        let pad = games.len() + 8;
        for v in [
            &mut soa.fa,
            &mut soa.fb,
            &mut soa.la,
            &mut soa.lb,
            &mut soa.ha,
            &mut soa.hb,
            &mut soa.na,
            &mut soa.nb,
            &mut soa.who,
            &mut soa.slot,
        ] {
            room(v, pad);
        }
        let mut total = 0;
        for (i, g) in games.iter().enumerate() {
            if let Some(finish) = g.over_at_start() {
                done(i, finish);
                continue;
            }
            let a = g.next as usize & 1;
            let b = a ^ 1;
            soa.fa[total] = g.faces[a];
            soa.fb[total] = g.faces[b];
            soa.la[total] = g.lo[a];
            soa.lb[total] = g.lo[b];
            soa.ha[total] = g.hi[a];
            soa.hb[total] = g.hi[b];
            soa.na[total] = u64::from(g.len[a]);
            soa.nb[total] = u64::from(g.len[b]);
            soa.who[total] = a as u64;
            soa.slot[total] = i as u64;
            total += 1;
        }
        let out = &mut self.out;
        for v in [
            &mut out.slot,
            &mut out.winner,
            &mut out.tricks,
            &mut out.cards,
            &mut out.last,
            &mut out.ended,
        ] {
            room(v, total + 8);
        }
        // SAFETY: every array is padded with 8 values past `total` (`room` above), as the move
        // loop's loads and stores need.
        let stopped_count = unsafe {
            move_loop!(soa: soa, out: out, total: total, limit: limit,
                lanes: 8, mask: __mmask8, elem: u64, int: i64, refill: REFILL, mid_trick: false)
        };
        let o = &self.out;
        for i in 0..stopped_count {
            let finish = Finish::of_lane(
                o.ended[i] == 1,
                o.winner[i] as u32,
                o.tricks[i] as u32,
                o.cards[i] as u32,
                o.last[i] as u32,
            );
            done(o.slot[i] as usize, finish);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Outcome;
    use crate::engine::reference;

    /// A hand read from a ring (any head, any length, wrapping) equals the same cards set one
    /// by one.
    #[test]
    fn ring_hands_equal_card_by_card_hands() {
        let mut rng = crate::rng::SplitMix64::new(9);
        for _ in 0..20_000 {
            let buf: [Card; 64] = std::array::from_fn(|_| rng.below(5) as Card);
            let head = rng.below(256) as u8;
            let len = rng.below(65) as u8;
            let mut fast = Deal64::default();
            fast.set_hand_ring(1, &buf, head, len);
            let mut slow = Deal64::default();
            slow.set_hand(1, len as usize, |i| buf[(head as usize + i) & 63]);
            assert_eq!(fast, slow, "head {head} len {len}");
        }
    }

    /// Every lane result against the reference engine, on random positions of up to 64 cards
    /// (and of exactly 52), in batches of several sizes so that refills run short and long.
    #[test]
    fn lanes64_agree_with_the_reference_engine() {
        if !available() {
            eprintln!("no AVX-512 here: the 64-card lanes are not used, nothing to check");
            return;
        }
        let mut positions = crate::engine::lanes::random_positions(7, 6_000, 64);
        positions.extend(
            crate::engine::lanes::random_positions(8, 3_000, 52)
                .into_iter()
                .map(|p| {
                    let mut cards: Vec<Card> =
                        p.hands[0].iter().chain(&p.hands[1]).copied().collect();
                    cards.resize(52, 0);
                    let split = p.hands[0].len().min(52);
                    crate::position::Position::new(
                        cards[..split].to_vec(),
                        cards[split..].to_vec(),
                        p.to_move,
                    )
                }),
        );
        let games: Vec<Deal64> = positions
            .iter()
            .map(|p| Deal64::from_hands(&p.hands[0], &p.hands[1], p.to_move))
            .collect();
        for (g, p) in games.iter().zip(&positions) {
            assert_eq!(
                (g.hand(0), g.hand(1)),
                (p.hands[0].clone(), p.hands[1].clone())
            );
        }
        let mut lanes = Lanes64::default();
        for batch in [1, 3, 8, 9, 100, 4096] {
            for (c, chunk) in games.chunks(batch).enumerate() {
                let mut seen = vec![false; chunk.len()];
                lanes.run(chunk, 2000, |i, f| {
                    assert!(!seen[i], "reported twice");
                    seen[i] = true;
                    let pos = &positions[c * batch + i];
                    match (reference::play(pos), f) {
                        (
                            Outcome::Terminates {
                                winner,
                                tricks,
                                cards,
                            },
                            Finish::Won {
                                winner: w,
                                tricks: t,
                                cards: k,
                            },
                        ) => assert_eq!((winner, tricks, cards), (w, t, k), "{pos}"),
                        (Outcome::Terminates { tricks, .. }, Finish::TooLong) => {
                            assert!(tricks >= 2000, "{pos}")
                        }
                        (Outcome::Cycle(_), Finish::TooLong) => {}
                        (want, got) => panic!("{pos}: {want:?} vs {got:?}"),
                    }
                });
                assert!(seen.iter().all(|&s| s), "every game reported");
            }
        }
    }
}
