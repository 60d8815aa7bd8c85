//! Random deals: a seeded shuffle of a deck, split between the players, as a pure function of
//! `(seed, index)` so that any split of the work gives the same deals.

#![cfg_attr(
    not(target_arch = "x86_64"),
    allow(dead_code, unused_imports, unused_variables)
)]
// Elsewhere (ARM) only the portable form exists: what the x86 forms and their checks use is
// unused there.

use crate::card::{Card, DeckSpec};
use crate::engine::fast::Small;
#[cfg(target_arch = "x86_64")]
use crate::engine::lanes::Isa;
use crate::engine::lanes64::Deal64;
use crate::position::Position;
use crate::rng::SplitMix64;
#[cfg(any(test, target_arch = "x86_64"))]
use crate::rng::batch_draws;

/// Deal number `index` under `seed`: `deck` shuffled uniformly, hands split as equally as possible
/// (player 1 gets the extra card), player 1 to move.
/// Deals per unit of parallel work in every search of numbered random deals. Fixed, so the set
/// of deals a unit plays never depends on the thread count.
pub const CHUNK: u64 = 4096;

pub fn random_deal(deck: &DeckSpec, seed: u64, index: u64) -> Position {
    let mut cards = deck.cards();
    shuffle_cards(&mut cards, seed, index);
    split_deal(cards)
}

/// Shuffles `cards` with the stream of deal `index` under `seed` (the plain loop: the games
/// played one by one spend little of their time here, and [`shuffle64`] is the fast form).
pub fn shuffle_cards(cards: &mut [Card], seed: u64, index: u64) {
    SplitMix64::for_index(seed, index).shuffle(cards);
}

/// Splits a dealt sequence into two hands, the first holding the extra card when the count is odd.
pub fn split_deal(mut cards: Vec<Card>) -> Position {
    let h2 = cards.split_off(cards.len().div_ceil(2));
    Position::new(cards, h2, 0)
}

/// A standard 26/26 deal straight into the fast layout, without allocating.
pub fn random_standard_small(seed: u64, index: u64) -> Small {
    let cards = random_standard_cards(seed, index);
    Small::from_hands(&cards[..26], &cards[26..], 0)
}

/// The cards of [`random_standard_small`]'s deal `index`, in deal order (player 1 holds the first
/// 26).
pub fn random_standard_cards(seed: u64, index: u64) -> [Card; 52] {
    let mut cards: [Card; 52] = STANDARD64[..52].try_into().expect("52 cards");
    shuffle_cards(&mut cards, seed, index);
    cards
}

/// [`random_standard_cards`]'s deal `index` straight into the 64-card lanes' form: the same deal,
/// without the byte copies (the reference of the dealer that `ansatz bench` and random search play,
/// `engine::source64::Dealer`).
#[inline]
pub fn random_standard_deal64(seed: u64, index: u64) -> Deal64 {
    let mut cards = STANDARD64;
    shuffle64(&mut cards, 52, seed, index);
    Deal64::from_deal_order(&cards, 52)
}

/// The standard deck in the order [`DeckSpec::cards`] lists it, padded to 64 slots with number
/// cards (which the lanes' planes read as empty slots).
pub const STANDARD64: [Card; 64] = padded(&DeckSpec::STANDARD);

/// `deck`'s cards in the order [`DeckSpec::cards`] lists them (kind by kind), in 64 slots, the
/// rest number cards; at most 64 cards.
pub const fn padded(deck: &DeckSpec) -> [Card; 64] {
    let mut cards = [0 as Card; 64];
    let mut i = 0;
    let mut kind = 0;
    while kind < deck.counts.len() {
        let mut k = 0u32;
        while k < deck.counts[kind] {
            assert!(i < 64, "at most 64 cards");
            cards[i] = kind as Card;
            i += 1;
            k += 1;
        }
        kind += 1;
    }
    cards
}

/// Shuffles the first `n` of `cards` with the stream of deal `index` under `seed`: the same
/// permutation as [`shuffle_cards`], with the draws computed together
/// ([`SplitMix64::shuffle64`]).
#[inline]
pub fn shuffle64(cards: &mut [Card; 64], n: usize, seed: u64, index: u64) {
    SplitMix64::for_index(seed, index).shuffle64(cards, n, draws);
}

/// The draws of a shuffle ([`batch_draws`]) with the widest vectors the processor has (or
/// `ANSATZ_ISA` allows): true when `js` holds them, false to shuffle with the plain loop.
#[inline]
pub(crate) fn draws(state: u64, n: usize, js: &mut [u8; 64]) -> bool {
    #[cfg(target_arch = "x86_64")]
    match Isa::get() {
        // SAFETY: the processor has the features (checked by `Isa::get`).
        Isa::Avx512 => return !unsafe { draws_avx512(state, n, js) },
        // SAFETY: as above.
        Isa::Avx2 => return !unsafe { draws_avx2(state, n, js) },
        Isa::Portable => {}
    }
    let _ = (state, n, js);
    false
}

/// [`batch_draws`] compiled for AVX-512 (`vpmullq` and `vpmuludq` eight draws at a time).
///
/// # Safety
/// The processor has the features enabled here.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512cd,avx512vl,avx512bw,avx512dq,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn draws_avx512(state: u64, n: usize, js: &mut [u8; 64]) -> bool {
    batch_draws(state, n, js)
}

/// [`batch_draws`] written out for AVX2, which has no 64-bit multiply (what the compiler makes
/// of `batch_draws` takes twice the operations): eight draws a round in two vectors of four
/// `u64`s. The counters step by `8 * GAMMA` (no multiply); each 64-bit product by a constant is
/// three 32-bit ones (`vpmuludq`); the bounds step down by 8, floored at 1 past the last draw.
/// The rejection test is looser, never missing one: `below(b)` rejects only where the low half
/// of `x * b` is under `b < 2^32`, so its high 32 bits are 0; those bits are the low half of
/// `t = hi(x) * b + (lo(x) * b >> 32)`, whose high half is the draw. So true also where only
/// those bits are 0 (one draw in 2^32), and the plain loop shuffles: the same permutation.
///
/// # Safety
/// The processor has the features enabled here.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn draws_avx2(state: u64, n: usize, js: &mut [u8; 64]) -> bool {
    use crate::rng::{GAMMA, MIX};
    use std::arch::x86_64::*;
    let g = |k: u64| state.wrapping_add(GAMMA.wrapping_mul(k)) as i64;
    let splat = |x: u64| _mm256_set1_epi64x(x as i64);
    // `z * c` modulo 2^64: `lo(z) lo(c) + (hi(z) lo(c) + lo(z) hi(c)) << 32`.
    let mul = |z: __m256i, c: u64| {
        let (lo, hi) = (splat(c & 0xFFFF_FFFF), splat(c >> 32));
        let cross = _mm256_add_epi64(
            _mm256_mul_epu32(_mm256_srli_epi64::<32>(z), lo),
            _mm256_mul_epu32(z, hi),
        );
        _mm256_add_epi64(_mm256_mul_epu32(z, lo), _mm256_slli_epi64::<32>(cross))
    };
    let mix = |z: __m256i| {
        let z = mul(_mm256_xor_si256(z, _mm256_srli_epi64::<30>(z)), MIX[0]);
        let z = mul(_mm256_xor_si256(z, _mm256_srli_epi64::<27>(z)), MIX[1]);
        _mm256_xor_si256(z, _mm256_srli_epi64::<31>(z))
    };
    // `t = hi(x) b + (lo(x) b >> 32)` (the bounds in the low halves of `b`).
    let draw = |x: __m256i, b: __m256i| {
        let high = _mm256_mul_epu32(_mm256_srli_epi64::<32>(x), b);
        _mm256_add_epi64(high, _mm256_srli_epi64::<32>(_mm256_mul_epu32(x, b)))
    };
    let mut s = [
        _mm256_setr_epi64x(g(1), g(2), g(3), g(4)),
        _mm256_setr_epi64x(g(5), g(6), g(7), g(8)),
    ];
    let step = splat(GAMMA.wrapping_mul(8));
    let n = n as i64;
    let mut b = [
        _mm256_setr_epi64x(n, n - 1, n - 2, n - 3),
        _mm256_setr_epi64x(n - 4, n - 5, n - 6, n - 7),
    ];
    let (one, eight) = (splat(1), splat(8));
    // The draws' bytes (byte 4 of each `t`, its high half, below 64) in lane order: after the
    // blend, each 128-bit half holds draws `2h, 4 + 2h, 2h + 1, 5 + 2h`; the byte shuffle puts
    // `2h, 2h + 1` in its first word and `4 + 2h, 5 + 2h` in its second, and the unpack
    // interleaves the halves' words.
    let order = _mm256_setr_epi8(
        0, 8, 4, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 8, 4, 12, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1,
    );
    let zero = _mm256_setzero_si256();
    let mut low_zero = zero;
    for round in 0..(n as usize - 1).div_ceil(8) {
        let mut t = [zero; 2];
        for h in 0..2 {
            let bound = _mm256_max_epi32(b[h], one);
            t[h] = draw(mix(s[h]), bound);
            low_zero = _mm256_or_si256(low_zero, _mm256_cmpeq_epi32(t[h], zero));
            s[h] = _mm256_add_epi64(s[h], step);
            b[h] = _mm256_sub_epi64(b[h], eight);
        }
        let both = _mm256_blend_epi32::<0b1010_1010>(_mm256_srli_epi64::<32>(t[0]), t[1]);
        let bytes = _mm256_shuffle_epi8(both, order);
        let words = _mm_unpacklo_epi16(
            _mm256_castsi256_si128(bytes),
            _mm256_extracti128_si256::<1>(bytes),
        );
        // SAFETY: `round < 8`, so the eight bytes at `8 * round` are within `js`.
        unsafe { _mm_storel_epi64(js.as_mut_ptr().add(8 * round) as *mut __m128i, words) };
    }
    // The low halves' compares only (bits 0, 2, 4 and 6 of the mask).
    _mm256_movemask_ps(_mm256_castsi256_ps(low_zero)) & 0b0101_0101 != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dealer hands out every deal of its range once, each equal to the deal shuffled whole
    /// ([`shuffle64`]) and cut by [`Deal64::from_deal_order`], however its work is interleaved
    /// with the taking, for decks of every size (the rare deal the batched draws cannot shuffle
    /// goes through the plain loop in both).
    #[test]
    fn dealer_deals_equal_whole_shuffles() {
        let mut rng = SplitMix64::new(11);
        for n in 0..=64usize {
            let mut deck = [0 as Card; 64];
            for c in &mut deck[..n] {
                *c = rng.below(5) as Card;
            }
            let (lo, hi) = (1000 + n as u64, 1000 + n as u64 + 150);
            let mut dealer = crate::engine::source64::Dealer::new(deck, n, 7, lo..hi, draws);
            assert_eq!(
                crate::engine::source64::Games::most(&dealer),
                crate::engine::source64::Most {
                    faces: deck.iter().filter(|&&c| c != 0).count() as u32,
                    cards: n as u32
                }
            );
            let mut seen = vec![false; (hi - lo) as usize];
            let mut step = 0u64;
            loop {
                for _ in 0..rng.below(12) {
                    crate::engine::source64::Games::work(&mut dealer);
                }
                step += 1;
                let Some((i, deal)) = crate::engine::source64::Games::next(&mut dealer) else {
                    break;
                };
                assert!(!seen[i], "deal {i} twice");
                seen[i] = true;
                let mut slots = deck;
                shuffle64(&mut slots, n, 7, lo + i as u64);
                assert_eq!(deal, Deal64::from_deal_order(&slots, n), "n {n} deal {i}");
            }
            assert!(seen.iter().all(|&s| s), "n {n}: every deal, {step} steps");
        }
        // The standard deck, as `ansatz bench` deals it.
        let mut dealer = crate::engine::source64::Dealer::new(
            padded(&crate::card::DeckSpec::STANDARD),
            52,
            3,
            0..2000,
            draws,
        );
        assert!(crate::engine::kinds64::fits_split(
            crate::engine::source64::Games::most(&dealer)
        ));
        while let Some((i, deal)) = crate::engine::source64::Games::next(&mut dealer) {
            crate::engine::source64::Games::work(&mut dealer);
            assert_eq!(deal, random_standard_deal64(3, i as u64));
        }
    }

    /// Each vector form of the draws computes the scalar form's draws, and flags the deals
    /// for the plain loop that it flags (AVX2 may flag a few more: see `draws_avx2`).
    #[test]
    fn vector_draws_equal_scalar_draws() {
        for n in 2..=64usize {
            for seed in 0..300u64 {
                let state = SplitMix64::for_index(seed, n as u64).next_u64();
                let mut js = [0u8; 64];
                let rare = batch_draws(state, n, &mut js);
                #[cfg(target_arch = "x86_64")]
                {
                    let mut vs = [0u8; 64];
                    if Isa::Avx512.supported() {
                        // SAFETY: just checked.
                        assert_eq!(unsafe { draws_avx512(state, n, &mut vs) }, rare);
                        assert!(rare || vs[..n - 1] == js[..n - 1]);
                    }
                    if Isa::Avx2.supported() {
                        // SAFETY: just checked.
                        let flagged = unsafe { draws_avx2(state, n, &mut vs) };
                        assert!(flagged || !rare);
                        assert!(rare || vs[..n - 1] == js[..n - 1]);
                    }
                }
            }
        }
    }

    /// A first draw that `below` keeps but whose product has 32 high zero bits in its low
    /// half: AVX2's looser test sends the shuffle to the plain loop, and the deal is the same.
    #[test]
    fn loosely_flagged_draws_shuffle_the_same() {
        // x = 2^62 + 1, bound 52: the low half of x * 52 is 52 (kept), and 2^30 * 52 is
        // 13 * 2^32, so `t` has a low half of 0.
        let state = crate::rng::tests::unmix((1 << 62) + 1).wrapping_sub(crate::rng::GAMMA);
        assert_eq!(SplitMix64::new(state).next_u64(), (1 << 62) + 1);
        let mut js = [0u8; 64];
        assert!(!batch_draws(state, 52, &mut js), "below keeps the draw");
        #[cfg(target_arch = "x86_64")]
        if Isa::Avx2.supported() {
            let mut vs = [0u8; 64];
            // SAFETY: just checked.
            assert!(unsafe { draws_avx2(state, 52, &mut vs) }, "flagged");
        } else {
            eprintln!("AVX2: not on this processor, its draws' test skipped");
        }
        let mut plain: [Card; 64] = std::array::from_fn(|i| i as Card);
        let mut fast = plain;
        SplitMix64::new(state).shuffle(&mut plain[..52]);
        SplitMix64::new(state).shuffle64(&mut fast, 52, draws);
        assert_eq!(plain, fast);
    }

    /// The fast deals are the plain ones: the same shuffle, the same hands.
    #[test]
    fn fast_deals_equal_plain_deals() {
        let mut deck = DeckSpec::STANDARD.cards();
        assert_eq!(padded(&DeckSpec::STANDARD)[..52], deck[..]);
        for index in 0..20_000 {
            deck.sort_unstable();
            SplitMix64::for_index(3, index).shuffle(&mut deck);
            assert_eq!(random_standard_cards(3, index)[..], deck[..], "{index}");
            assert_eq!(
                random_standard_deal64(3, index),
                Deal64::from_hands(&deck[..26], &deck[26..], 0),
                "{index}"
            );
        }
    }
}
