//! Random deals: a seeded shuffle of a deck, split between the players, as a pure function of
//! `(seed, index)` so that any split of the work gives the same deals.

use crate::card::{Card, DeckSpec};
use crate::engine::fast::Small;
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

/// Shuffles `cards` with the stream of deal `index` under `seed`.
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
    let mut cards = [0 as Card; 52];
    let mut i = 0;
    for (kind, &n) in DeckSpec::STANDARD.counts.iter().enumerate() {
        for _ in 0..n {
            cards[i] = kind as Card;
            i += 1;
        }
    }
    shuffle_cards(&mut cards, seed, index);
    cards
}
