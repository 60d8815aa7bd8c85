//! Lockstep lanes for whole decks (up to 64 cards): many games at a time, one `u64` lane each,
//! from a trick boundary to their end or a trick limit; and the one dispatch point that picks
//! the lanes' instruction set at run time.
//!
//! A hand can hold every card of a standard deck. A hand is three bit planes, bit `i` for its card `i` (top
//! first): `faces` is set for penalty cards, `lo` and `hi` hold the penalty less one. The move
//! loops are written once (`moves64.rs`, and `kinds64.rs` for games of fewer face cards) over a
//! lane vector (`vec64/`) and instantiated here for AVX-512 (eight lanes), AVX2 (eight `u32`
//! lanes for standard deals, else four `u64`s) and portable code (four plain `u64`s);
//! [`Lanes64::run`] picks the best the processor has (`ANSATZ_ISA` overrides it). Random search, `ansatz bench`
//! and the piece enumeration hand their games here in batches (`batch64.rs`); games still going
//! at the limit (the cycling ones, and very long terminating ones) go back to the exact cycle
//! engine. The tests hold every form to the reference engine game by game.

#![cfg_attr(
    not(target_arch = "x86_64"),
    allow(dead_code, unused_imports, unused_variables)
)]
// Elsewhere (ARM) only the portable form exists: what the x86 forms and their checks use is
// unused there.

use crate::card::Card;
use crate::engine::lanes::{Finish, Isa};
use crate::engine::source64::{Games, Slice};
use crate::engine::{kinds64, moves64, vec64};

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
        assert!(cards.len() <= 64, "a lane deal holds at most 64 cards");
        let mut buf = [0; 64];
        buf[..cards.len()].copy_from_slice(cards);
        Deal64::from_deal_order(&buf, cards.len())
    }

    /// [`Deal64::deal`] of the first `n` cards of `buf` (the rest must be number cards, 0):
    /// the planes of all 64 slots at once (three byte compares with AVX-512, two byte masks
    /// per plane with AVX2), then each hand cut out with a mask and a shift.
    #[inline]
    pub fn from_deal_order(buf: &[Card; 64], n: usize) -> Deal64 {
        assert!(n <= 64, "a lane deal holds at most 64 cards");
        debug_assert!(
            buf[n..].iter().all(|&c| c == 0),
            "slots past the deal are empty"
        );
        let (faces, lo, hi) = planes(buf);
        let h1 = n.div_ceil(2);
        let keep = u64::MAX.checked_shr(64 - h1 as u32).unwrap_or(0);
        let rest = |x: u64| x.checked_shr(h1 as u32).unwrap_or(0);
        Deal64 {
            faces: [faces & keep, rest(faces)],
            lo: [lo & keep, rest(lo)],
            hi: [hi & keep, rest(hi)],
            len: [h1 as u32, (n - h1) as u32],
            next: 0,
        }
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
        if Isa::get() == Isa::Avx512 {
            // SAFETY: the processor has AVX-512 F and BW (checked by `Isa::get`).
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
    pub(crate) fn over_at_start(&self) -> Option<Finish> {
        (self.len[0] == 0 || self.len[1] == 0).then(|| Finish::Won {
            winner: u8::from(self.len[1] > 0),
            tricks: 0,
            cards: 0,
        })
    }
}

/// The three planes of 64 slots, bit `j` for slot `j` (as [`ring_planes`]), with the best
/// instruction set the processor has.
#[inline]
fn planes(buf: &[Card; 64]) -> (u64, u64, u64) {
    #[cfg(target_arch = "x86_64")]
    match Isa::get() {
        // SAFETY: the processor has AVX-512 F and BW (checked by `Isa::get`).
        Isa::Avx512 => return unsafe { ring_planes(buf) },
        // SAFETY: the processor has AVX2 (checked by `Isa::get`).
        Isa::Avx2 => return unsafe { ring_planes_avx2(buf) },
        Isa::Portable => {}
    }
    planes_portable(buf)
}

/// [`planes`] one card at a time, for any processor (and the tests' reference).
fn planes_portable(buf: &[Card; 64]) -> (u64, u64, u64) {
    let mut d = Deal64::default();
    d.set_hand(0, 64, |i| buf[i]);
    (d.faces[0], d.lo[0], d.hi[0])
}

/// [`ring_planes`] with AVX2: each half of 32 slots compared bytewise, its signs gathered by
/// `movemask`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn ring_planes_avx2(buf: &[Card; 64]) -> (u64, u64, u64) {
    use std::arch::x86_64::*;
    let half = |h: usize| {
        // SAFETY: `buf` holds 64 readable bytes, so 32 from slot 0 or 32; the load is unaligned.
        let v = unsafe { _mm256_loadu_si256(buf.as_ptr().add(32 * h) as *const __m256i) };
        let is = |k: i8| _mm256_cmpeq_epi8(v, _mm256_set1_epi8(k));
        let bits = |m: __m256i| u64::from(_mm256_movemask_epi8(m) as u32) << (32 * h);
        let number = bits(is(0));
        let lo = bits(_mm256_or_si256(is(2), is(4)));
        let hi = bits(_mm256_or_si256(is(3), is(4)));
        (!number & (u64::from(u32::MAX) << (32 * h)), lo, hi)
    };
    let (f0, l0, h0) = half(0);
    let (f1, l1, h1) = half(1);
    (f0 | f1, l0 | l1, h0 | h1)
}

/// The three planes of a ring's 64 slots, bit `j` for slot `j`: face, `(penalty - 1) & 1` and
/// `(penalty - 1) >> 1`, i.e. penalty in {J..A} = {1..4}, in {2, 4} and in {3, 4}.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512cd,avx512vl,avx512bw,avx512dq,bmi1,bmi2,lzcnt,popcnt")]
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

/// Whether the lanes are the fastest exact path on this processor: with AVX-512 or AVX2. The
/// portable lanes (four plain `u64`s) are correct but slower than the bitboard engine, so without
/// those extensions callers play games one by one.
pub fn available() -> bool {
    matches!(Isa::get(), Isa::Avx512 | Isa::Avx2)
}

/// The lanes (kept as a type so callers hold one between batches; the move loop needs no
/// scratch beyond its registers).
#[derive(Default)]
pub struct Lanes64;

impl Lanes64 {
    /// Plays every game of `games` until it ends or has played `limit` tricks, and reports each
    /// with `done(index in games, finish)`, in no particular order. The one dispatch point: the
    /// lanes of the best instruction set the processor has (or that `ANSATZ_ISA` names) play;
    /// the answers are the same whichever.
    pub fn run(&mut self, games: &[Deal64], limit: u32, done: impl FnMut(usize, Finish)) {
        self.run_games(&mut Slice::new(games), limit, done);
    }

    /// [`Lanes64::run`] of the games of a source (numbered as it numbers them).
    pub(crate) fn run_games(
        &mut self,
        games: &mut impl Games,
        limit: u32,
        mut done: impl FnMut(usize, Finish),
    ) {
        #[cfg(target_arch = "x86_64")]
        {
            match Isa::get() {
                // SAFETY: the processor has the features (checked by `Isa::get`).
                Isa::Avx512 => return unsafe { run_avx512(games, limit, &mut done) },
                // SAFETY: as above.
                Isa::Avx2 => return unsafe { run_avx2(games, limit, &mut done) },
                Isa::Portable => {}
            }
        }
        run_portable(games, limit, &mut done);
    }
}

/// The portable lanes, whatever the processor: four `u64` lanes, one group (two are slower:
/// plain `u64`s have no spare registers to overlap with).
pub(crate) fn run_portable(
    games: &mut impl Games,
    limit: u32,
    done: &mut impl FnMut(usize, Finish),
) {
    // SAFETY: the portable form needs no processor feature.
    unsafe { moves64::run::<vec64::Portable, 1>(games, limit, done) }
}

/// Plays `games` as [`Lanes64::run`] does, but with the lanes of `isa` whatever `ANSATZ_ISA`
/// says; false (and nothing played) when the processor lacks `isa`. For tests that hold every
/// form to the reference engine on one machine.
pub fn run_with_isa(
    isa: Isa,
    games: &[Deal64],
    limit: u32,
    mut done: impl FnMut(usize, Finish),
) -> bool {
    let games = &mut Slice::new(games);
    match isa {
        Isa::Portable => {
            run_portable(games, limit, &mut done);
            true
        }
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => {
            let ok = isa.supported();
            if ok {
                // SAFETY: just checked.
                unsafe { run_avx512(games, limit, &mut done) };
            }
            ok
        }
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => {
            let ok = isa.supported();
            if ok {
                // SAFETY: just checked.
                unsafe { run_avx2(games, limit, &mut done) };
            }
            ok
        }
        #[cfg(not(target_arch = "x86_64"))]
        _ => false,
    }
}

/// AVX-512: with VBMI2, games of up to 60 cards and 16 face cards (every standard deal) in
/// sixteen `u32` split lanes; else eight `u64` lanes, two groups side by side (faster than
/// one: their chains overlap), games of at most 31 face cards (a batch of them) in the leaner
/// loop of `kinds64.rs`.
///
/// # Safety
/// The processor has the features enabled here.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512cd,avx512vl,avx512bw,avx512dq,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn run_avx512(games: &mut impl Games, limit: u32, done: &mut impl FnMut(usize, Finish)) {
    let most = games.most();
    if Isa::vbmi2() && kinds64::fits_split(most) && limit < 1 << 10 {
        // SAFETY: the caller's contract, and VBMI2 just checked.
        return unsafe { run_avx512_split(games, limit, done) };
    }
    // SAFETY (both): the caller's contract.
    if kinds64::fits(most) {
        unsafe { kinds64::run::<vec64::Avx512, 2>(games, limit, done) }
    } else {
        unsafe { moves64::run::<vec64::Avx512, 2>(games, limit, done) }
    }
}

/// Sixteen `u32` lanes of split planes (`kinds64::run_split`) with VBMI2's funnel shifts: twice
/// the lanes of `u64`s a register, in one group (two are no faster).
///
/// # Safety
/// The processor has the features enabled here.
#[cfg(target_arch = "x86_64")]
#[target_feature(
    enable = "avx512f,avx512cd,avx512vl,avx512bw,avx512dq,avx512vbmi2,bmi1,bmi2,lzcnt,popcnt"
)]
unsafe fn run_avx512_split(
    games: &mut impl Games,
    limit: u32,
    done: &mut impl FnMut(usize, Finish),
) {
    // SAFETY: the caller's contract.
    unsafe { kinds64::run_split::<vec64::Avx512x16, 1>(games, limit, done) }
}

/// AVX2: games of up to 60 cards and 16 face cards (every standard deal) in eight `u32` lanes
/// (`kinds64::run_split`), else four `u64` lanes, two groups side by side (faster than one:
/// their chains overlap, spills and all).
///
/// # Safety
/// The processor has the features enabled here.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn run_avx2(games: &mut impl Games, limit: u32, done: &mut impl FnMut(usize, Finish)) {
    let most = games.most();
    // SAFETY (all three): the caller's contract.
    if kinds64::fits_split(most) && limit < 1 << 10 {
        unsafe { kinds64::run_split::<vec64::Avx2x8, AVX2_SPLIT_GROUPS>(games, limit, done) }
    } else if kinds64::fits(most) {
        unsafe { kinds64::run::<vec64::Avx2, AVX2_KINDS_GROUPS>(games, limit, done) }
    } else {
        unsafe { moves64::run::<vec64::Avx2, 2>(games, limit, done) }
    }
}

/// Groups of the AVX2 kinds loops stepped side by side.
#[cfg(target_arch = "x86_64")]
const AVX2_KINDS_GROUPS: usize = 2;
#[cfg(target_arch = "x86_64")]
const AVX2_SPLIT_GROUPS: usize = 1;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Outcome;
    use crate::engine::lanes::agrees;
    use crate::engine::reference;
    use crate::engine::source64::Most;

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

    /// A deal cut from 64 slots equals the same deal set hand by hand, with each instruction
    /// set's planes, for every length.
    #[test]
    fn deals_from_deal_order_equal_hand_by_hand_deals() {
        let mut rng = crate::rng::SplitMix64::new(10);
        for _ in 0..20_000 {
            let n = rng.below(65) as usize;
            let mut buf = [0 as Card; 64];
            for c in &mut buf[..n] {
                *c = rng.below(5) as Card;
            }
            let h1 = n.div_ceil(2);
            let want = Deal64::from_hands(&buf[..h1], &buf[h1..n], 0);
            assert_eq!(Deal64::from_deal_order(&buf, n), want, "n {n}");
            assert_eq!(Deal64::deal(&buf[..n]), want, "n {n}");
            let p = planes_portable(&buf);
            #[cfg(target_arch = "x86_64")]
            {
                if Isa::Avx512.supported() {
                    // SAFETY: just checked.
                    assert_eq!(unsafe { ring_planes(&buf) }, p);
                }
                if Isa::Avx2.supported() {
                    // SAFETY: just checked.
                    assert_eq!(unsafe { ring_planes_avx2(&buf) }, p);
                }
            }
        }
    }

    /// The games of `positions`, then 4,000 standard deals shuffled from `seed` (here: the
    /// dealing module sits above the engines).
    fn with_standard_deals(positions: &[crate::position::Position], seed: u64) -> Vec<Deal64> {
        let mut games: Vec<Deal64> = positions
            .iter()
            .map(|p| Deal64::from_hands(&p.hands[0], &p.hands[1], p.to_move))
            .collect();
        let mut rng = crate::rng::SplitMix64::new(seed);
        let standard = crate::card::DeckSpec::STANDARD.cards();
        games.extend((0..4_000).map(|_| {
            let mut slots = [0 as Card; 64];
            slots[..52].copy_from_slice(&standard);
            for i in (1..52).rev() {
                slots.swap(i, rng.below(i as u64 + 1) as usize);
            }
            Deal64::from_deal_order(&slots, 52)
        }));
        games
    }

    /// The leaner loop of `kinds64.rs` (games of at most 31 face cards), in its portable and
    /// AVX-512 forms, against the general loop and the reference engine, game by game: random
    /// positions of up to 64 cards (whose batches it takes) and standard deals.
    #[test]
    fn kinds_loop_agrees_with_the_general_loop() {
        let mut positions = crate::engine::lanes::random_positions(21, 4_000, 64);
        positions.retain(|p| {
            p.hands.iter().flatten().filter(|&&c| c != 0).count() <= kinds64::MAX_FACES as usize
        });
        let games = with_standard_deals(&positions, 4);
        assert!(kinds64::fits(Most::of(&games)));
        /// What a loop reports, game by game.
        type Done<'a> = dyn FnMut(usize, Finish) + 'a;
        let play = |run: &mut dyn FnMut(&mut Done)| {
            let mut out = vec![None; games.len()];
            run(&mut |i, f| {
                assert!(out[i].is_none(), "reported twice");
                out[i] = Some(f);
            });
            out.into_iter().map(Option::unwrap).collect::<Vec<_>>()
        };
        let slice = || Slice::new(&games);
        // SAFETY: the portable form needs no processor feature.
        let general = play(&mut |done| unsafe {
            moves64::run::<vec64::Portable, 1>(&mut slice(), 300, &mut |i, f| done(i, f))
        });
        // SAFETY: as above.
        let kinds = play(&mut |done| unsafe {
            kinds64::run::<vec64::Portable, 1>(&mut slice(), 300, &mut |i, f| done(i, f))
        });
        assert!(kinds == general, "portable kinds loop");
        #[cfg(target_arch = "x86_64")]
        if Isa::Avx512.supported() {
            // SAFETY: the processor has the features (checked just above).
            let avx512 =
                play(&mut |done| unsafe { run_avx512(&mut slice(), 300, &mut |i, f| done(i, f)) });
            assert!(avx512 == general, "AVX-512 kinds loop");
        }
        #[cfg(target_arch = "x86_64")]
        if Isa::Avx2.supported() {
            // SAFETY: the processor has the features (checked just above).
            let avx2 =
                play(&mut |done| unsafe { run_avx2(&mut slice(), 300, &mut |i, f| done(i, f)) });
            assert!(avx2 == general, "AVX2 kinds loop");
        }
        for (p, f) in positions.iter().zip(&general) {
            agrees(p, &reference::play(p), *f, 300);
        }
    }

    /// The split lanes of `kinds64::run_split` (the random games' loop for every standard deal:
    /// AVX2's eight `u32` lanes, and AVX-512's sixteen with VBMI2) against the general loop and
    /// the reference engine, game by game: random positions of up to 60 cards and 16 face
    /// cards, standard deals among them, under the trick limits of the random games and the
    /// largest the lanes take.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn split_loop_agrees_with_the_general_loop() {
        let mut positions = crate::engine::lanes::random_positions(23, 6_000, 60);
        positions.extend(crate::engine::lanes::random_positions(24, 2_000, 52));
        positions.retain(|p| p.hands.iter().flatten().filter(|&&c| c != 0).count() <= 16);
        let games = with_standard_deals(&positions, 5);
        assert!(kinds64::fits_split(Most::of(&games)));
        #[derive(Clone, Copy, Debug, PartialEq)]
        enum Form {
            General,
            Avx2,
            Avx512,
        }
        for limit in [256, 1023] {
            let play = |form: Form| {
                let mut out = vec![None; games.len()];
                let mut done = |i: usize, f: Finish| {
                    assert!(out[i].is_none(), "reported twice");
                    out[i] = Some(f);
                };
                let slice = &mut Slice::new(&games);
                // SAFETY: the portable form needs no feature; the callers check the
                // others'.
                unsafe {
                    match form {
                        Form::General => {
                            moves64::run::<vec64::Portable, 1>(slice, limit, &mut done)
                        }
                        Form::Avx2 => run_avx2(slice, limit, &mut done),
                        Form::Avx512 => run_avx512_split(slice, limit, &mut done),
                    }
                }
                out.into_iter().map(Option::unwrap).collect::<Vec<_>>()
            };
            let general = play(Form::General);
            for (p, f) in positions.iter().zip(&general) {
                agrees(p, &reference::play(p), *f, u64::from(limit));
            }
            let vbmi2 =
                Isa::Avx512.supported() && std::arch::is_x86_feature_detected!("avx512vbmi2");
            for (form, has) in [(Form::Avx2, Isa::Avx2.supported()), (Form::Avx512, vbmi2)] {
                if has {
                    assert!(play(form) == general, "{form:?} split loop, limit {limit}");
                } else {
                    eprintln!("{form:?}: not on this processor, its split loop's test skipped");
                }
            }
        }
    }

    /// Every lane result against the reference engine, on random positions of up to 64 cards
    /// (and of exactly 52), in batches of several sizes so that refills run short and long.
    #[test]
    fn lanes64_agree_with_the_reference_engine() {
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
        let wants: Vec<Outcome> = positions.iter().map(reference::play).collect();
        // Every form this processor has: AVX-512, AVX2 and the portable one.
        for isa in [Isa::Avx512, Isa::Avx2, Isa::Portable] {
            for batch in [1, 3, 8, 9, 100, 4096] {
                for (c, chunk) in games.chunks(batch).enumerate() {
                    let mut seen = vec![false; chunk.len()];
                    let ran = run_with_isa(isa, chunk, 2000, |i, f| {
                        assert!(!seen[i], "reported twice");
                        seen[i] = true;
                        agrees(&positions[c * batch + i], &wants[c * batch + i], f, 2000);
                    });
                    if !ran {
                        eprintln!("{isa:?}: not on this processor");
                        continue;
                    }
                    assert!(seen.iter().all(|&s| s), "every game reported");
                }
            }
        }
    }
}
