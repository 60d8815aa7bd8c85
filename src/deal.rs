//! Random deals: a seeded shuffle of a deck, split between the players, as a pure function of
//! `(seed, index)` so that any split of the work gives the same deals.

use crate::card::{Card, DeckSpec};
use crate::engine::game::Game;
use crate::engine::isa::{self, Forms, Kernel};
use crate::position::Position;
use crate::rng::SplitMix64;

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

/// The cards of [`random_standard_game`]'s deal `index`, in deal order (player 1 holds the first
/// 26), by the plain shuffle.
pub fn random_standard_cards(seed: u64, index: u64) -> [Card; 52] {
    let mut cards: [Card; 52] = STANDARD64[..52].try_into().expect("52 cards");
    shuffle_cards(&mut cards, seed, index);
    cards
}

/// [`random_standard_cards`]'s deal `index` straight into the game form, without allocating: the
/// same deal by the fast shuffle ([`shuffle64`]), cut as the lanes' dealer cuts it (the reference
/// of the dealer that `ansatz bench` and random search play, `engine::lanes::source::Dealer`).
#[inline]
pub fn random_standard_game(seed: u64, index: u64) -> Game<u64> {
    let mut cards = STANDARD64;
    shuffle64(&mut cards, 52, seed, index);
    Game::from_deal_order(&cards, 52)
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

/// The draws of a shuffle (`rng::batch_draws`) with the widest vectors the processor has (or
/// `ANSATZ_ISA` allows: `isa::Forms::draws`): true when `js` holds them, false to shuffle with
/// the plain loop.
#[inline]
pub(crate) fn draws(state: u64, n: usize, js: &mut [u8; 64]) -> bool {
    isa::dispatch(Draws { state, n, js })
}

/// The draws' kernel.
struct Draws<'a> {
    state: u64,
    n: usize,
    js: &'a mut [u8; 64],
}

impl Kernel for Draws<'_> {
    type Out = bool;
    #[inline(always)]
    unsafe fn run<F: Forms>(self) -> bool {
        // SAFETY: the caller's contract.
        unsafe { F::draws(self.state, self.n, self.js) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dealer hands out every deal of its range once, each equal to the deal shuffled whole
    /// ([`shuffle64`]) and cut by [`Game::from_deal_order`], however its work is interleaved
    /// with the taking, for decks of every size (the rare deal the batched draws cannot shuffle
    /// goes through the plain loop in both), in every form the processor has.
    #[test]
    fn dealer_deals_equal_whole_shuffles() {
        use crate::engine::lanes::source::{Dealer, Games, Most};
        struct Deal;
        impl Kernel for Deal {
            type Out = ();
            unsafe fn run<F: Forms>(self) {
                let mut rng = SplitMix64::new(11);
                for n in 0..=64usize {
                    let mut deck = [0 as Card; 64];
                    for c in &mut deck[..n] {
                        *c = rng.below(5) as Card;
                    }
                    let (lo, hi) = (1000 + n as u64, 1000 + n as u64 + 150);
                    // SAFETY: the caller's contract.
                    let mut dealer = unsafe { Dealer::<F>::new(deck, n, 7, lo..hi) };
                    let faces = deck.iter().filter(|&&c| c != 0).count() as u32;
                    let most = Most {
                        faces,
                        cards: n as u32,
                    };
                    assert_eq!(dealer.most(), most);
                    let mut seen = vec![false; (hi - lo) as usize];
                    loop {
                        for _ in 0..rng.below(12) {
                            dealer.work();
                        }
                        let Some((i, deal)) = dealer.next() else {
                            break;
                        };
                        assert!(!seen[i], "deal {i} twice");
                        seen[i] = true;
                        let mut slots = deck;
                        shuffle64(&mut slots, n, 7, lo + i as u64);
                        assert_eq!(deal, Game::from_deal_order(&slots, n), "n {n} deal {i}");
                    }
                    assert!(!dealer.left());
                    assert!(seen.iter().all(|&s| s), "n {n}: every deal");
                }
                // The standard deck, as `ansatz bench` deals it.
                let standard = padded(&crate::card::DeckSpec::STANDARD);
                // SAFETY: as above.
                let mut dealer = unsafe { Dealer::<F>::new(standard, 52, 3, 0..2000) };
                while let Some((i, deal)) = dealer.next() {
                    dealer.work();
                    assert_eq!(deal, random_standard_game(3, i as u64));
                }
            }
        }
        for form in isa::Form::ALL {
            if isa::run_in(form, Deal).is_err() {
                eprintln!("{form:?}: skipped, this processor lacks it");
            }
        }
    }

    /// Each vector form of the draws computes the scalar form's draws (`rng::batch_draws`), and
    /// sends to the plain loop the deals it sends (AVX2 may send a few more: see
    /// `vector::avx2::draws`); the portable form sends every deal there.
    #[test]
    fn vector_draws_equal_scalar_draws() {
        struct Check;
        impl Kernel for Check {
            type Out = ();
            unsafe fn run<F: Forms>(self) {
                for n in 2..=64usize {
                    for seed in 0..300u64 {
                        let state = SplitMix64::for_index(seed, n as u64).next_u64();
                        let mut js = [0u8; 64];
                        let rare = crate::rng::batch_draws(state, n, &mut js);
                        let mut vs = [0u8; 64];
                        // SAFETY: the caller's contract.
                        let held = unsafe { F::draws(state, n, &mut vs) };
                        if F::FORM == isa::Form::Portable {
                            assert!(!held);
                            continue;
                        }
                        assert!(!held || !rare, "{:?}", F::FORM);
                        if F::FORM != isa::Form::Avx2 {
                            assert_eq!(held, !rare, "{:?}", F::FORM);
                        }
                        assert!(!held || vs[..n - 1] == js[..n - 1], "{:?}", F::FORM);
                    }
                }
            }
        }
        for form in isa::Form::ALL {
            if isa::run_in(form, Check).is_err() {
                eprintln!("{form:?}: skipped, this processor lacks it");
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
        assert!(
            !crate::rng::batch_draws(state, 52, &mut js),
            "below keeps the draw"
        );
        struct Held(u64);
        impl Kernel for Held {
            type Out = bool;
            unsafe fn run<F: Forms>(self) -> bool {
                // SAFETY: the caller's contract.
                unsafe { F::draws(self.0, 52, &mut [0u8; 64]) }
            }
        }
        match isa::run_in(isa::Form::Avx2, Held(state)) {
            Ok(held) => assert!(!held, "AVX2 sends it to the plain loop"),
            Err(_) => eprintln!("AVX2: not on this processor, its draws' test skipped"),
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
                random_standard_game(3, index),
                Game::<u64>::from_hands(&deck[..26], &deck[26..], 0),
                "{index}"
            );
        }
    }
}
