//! The node of the tree walk: a game of the one scalar form with the original cards not read
//! yet marked, the deal fixed so far, and the fixed data of one search ([`Ctx`]); the two widths
//! it plays in ([`Width`]).

use super::super::multiset::multinomial_u64;
use super::packed::{Packed, UNKNOWN};
use super::stats::Extra;
use crate::card::{Card, DeckSpec, KINDS};
use crate::engine::game::{Game, Plane};
use crate::engine::lanes::tally::{NarrowBatch, TallyPlane};
use crate::engine::trick::Step;

/// The most cards the fast (prefix-sharing) path takes: every deck of a standard pack. Decks of up
/// to [`NARROW_CARDS`] (and some of 33 and 34: `narrow_walk`) play in `u32` hands with the deal
/// in one `u128` (three bits a card); larger ones in `u64` hands with the deal in two `u128`s
/// (see `Width`).
pub const MAX_CARDS: usize = 52;

/// The most cards of a hand in a `u32`: every deck up to this size plays in the narrow form.
pub const NARROW_CARDS: usize = 32;

/// Whether the search of `deck` (fully fixed games to the lanes if `lanes`) plays in the narrow
/// form: every deck of at most [`NARROW_CARDS`] cards, and decks of 33 or 34 cards with at most
/// 15 face cards whose fully fixed games go to the `u32` kinds lanes (AVX-512 or AVX2).
///
/// Why a hand of 33 cards fits 32-bit planes there: it holds all but one card of a 34-card deck,
/// so the other hand holds one card. A hand grows only by taking the pile after a finished
/// payment, whose last card (a number card: a payment is finished when its debt is paid without
/// a face card) goes to its bottom; so a 33rd card is always a number card when it arrives, and
/// a plane that drops it (the shifts of [`Plane`] drop bits past the width) reads it back as the
/// number card it is, when the hand gives up cards and it moves up. (A hand of 34 cards ends the
/// game.) So the tree walk, the one-by-one trick and the kinds lanes all play such a deck exactly
/// in `u32` planes; the kinds lanes also keep each trick's count in 16 bits, which the leaves
/// are checked for (`flush::push_narrow`). A deck of 35 cards could put a face card 34th, and
/// more than 15 face cards do not fit the `u32` kinds lanes: both stay wide.
/// Without vector lanes or with `lanes` off the deck plays wide, which the tests compare.
pub(super) fn narrow_walk(deck: &DeckSpec, lanes: bool) -> bool {
    let n = deck.total();
    let faces: u32 = deck.counts[1..].iter().sum();
    n <= NARROW_CARDS
        || (lanes
            && n <= 34
            && NarrowBatch::available()
            && faces <= crate::engine::lanes::max_faces(32))
}

/// The two forms of the search: the hand plane and the deal's packing (`u32` with one `u128` up
/// to 34 cards, `u64` with two up to 64); each has a counting batch in the lanes.
pub trait Width: Plane + TallyPlane {
    type Deal: Packed;
}

impl Width for u32 {
    type Deal = u128;
}

impl Width for u64 {
    type Deal = [u128; 2];
}

/// A node of the prefix-sharing search: the game (in the lanes' compact form), possibly in the
/// middle of a trick, with the original cards not read yet. Unread cards are always the top of a
/// hand's original cards, so they sit together near the top of the hand (cards won go below),
/// below at most one card fixed but not played yet; `unknown[p]` marks them. They count as
/// penalty cards in `faces`, so every scan stops at them; their `kinds` bits are 0. A node that needs an unread card stops *at* it, with every
/// card before it played: the unread card is then the top of the hand of `game.next`, and the
/// children go on from there without replaying the start of the trick.
#[derive(Clone, Copy)]
pub struct Node<W: Width> {
    pub(super) game: Game<W>,
    /// The deal in deal order; [`UNKNOWN`] where not fixed.
    pub(super) deal: W::Deal,
    /// Unread cards of each hand (bit `i`: card `i` from the top).
    pub(super) unknown: [W; 2],
    /// How many they are.
    pub(super) unread: [u32; 2],
    /// Kinds with cards not fixed yet, a bit each.
    pub(super) present: u8,
    /// Cards of each kind not fixed yet.
    pub(super) remaining: [u8; KINDS],
    /// Index of `remaining` in `Ctx::weight` (mixed radix).
    pub(super) weight_index: u32,
    pub(super) tricks: u64,
    pub(super) cards: u64,
}

impl<W: Width> Node<W> {
    /// Plays on to the end of the current trick with the one trick of the scalar form
    /// (`engine/trick.rs`), stopping before the first unread card ([`Step::Unread`]: the unread
    /// card is then the top of the hand of `game.next`). `FIXED`: the node has no unread card,
    /// and the checks are compiled out.
    #[inline(always)]
    pub(super) fn trick<const FIXED: bool>(&mut self) -> Step {
        let step = if FIXED {
            self.game.trick()
        } else {
            self.game.trick_with(&mut self.unknown)
        };
        if let Step::Next { cards } = step {
            self.tricks += 1;
            self.cards += u64::from(cards);
        }
        step
    }

    /// A copy for a child, every field read one by one at its own width (see
    /// [`Game::fresh_copy`]): [`Node::trick`] and [`walk::fix`](super::walk::fix) have just written them so, and a
    /// struct copy's wide loads would miss store forwarding.
    #[inline(always)]
    pub(super) fn fork(&self) -> Node<W> {
        // SAFETY: each pointer comes from a reference to an initialised, aligned field.
        let v = |x: &W| unsafe { std::ptr::read_volatile(x) };
        let v64 = |x: &u64| unsafe { std::ptr::read_volatile(x) };
        let v32 = |x: &u32| unsafe { std::ptr::read_volatile(x) };
        let v8 = |x: &u8| unsafe { std::ptr::read_volatile(x) };
        Node {
            game: self.game.fresh_copy(),
            deal: W::Deal::fresh(&self.deal),
            unknown: [v(&self.unknown[0]), v(&self.unknown[1])],
            unread: [v32(&self.unread[0]), v32(&self.unread[1])],
            present: v8(&self.present),
            remaining: std::array::from_fn(|k| v8(&self.remaining[k])),
            weight_index: v32(&self.weight_index),
            tricks: v64(&self.tricks),
            cards: v64(&self.cards),
        }
    }

    /// Hand `p` as penalties (unread cards, if any, as [`UNKNOWN`]).
    pub(super) fn hand(&self, p: usize) -> Vec<Card> {
        (0..self.game.len[p])
            .map(|i| {
                if self.unknown[p].bit(i) == 1 {
                    UNKNOWN
                } else {
                    self.game.card(p, i)
                }
            })
            .collect()
    }
}

/// The fixed data of one search.
pub struct Ctx {
    /// Where each player's original cards start in the deal, and how many they are.
    pub(super) offset: [u32; 2],
    pub(super) dealt: [u32; 2],
    pub(super) n: usize,
    /// Place value of each kind in a `remaining` index.
    pub(super) stride: [u32; KINDS],
    /// Arrangements of every `remaining` (by index): the weight of a subtree, looked up rather than
    /// computed with divisions in the hot loop.
    pub(super) weight: Vec<u64>,
    /// Whether fully fixed games go to the lanes' counting batch
    /// ([`TallyBatch`](crate::engine::lanes::tally::TallyBatch), when the processor has vector
    /// units for them) or are played one by one.
    pub(super) lanes: bool,
}

/// The root node of `deck`: every card unread.
pub(super) fn root<W: Width>(deck: &DeckSpec, lanes: bool, extra: Extra) -> (Ctx, Node<W>) {
    let n = deck.total();
    assert!(
        n <= W::BITS as usize || (W::BITS == 32 && n <= 34),
        "this form of the fast path holds at most {} cards (34: `narrow_walk`)",
        W::BITS
    );
    let h1 = extra.first_hand(n);
    let dealt = [h1 as u32, (n - h1) as u32];
    let mut stride = [0u32; KINDS];
    let mut size = 1u32;
    for (s, &c) in stride.iter_mut().zip(&deck.counts) {
        *s = size;
        size *= c + 1;
    }
    let all = W::ones;
    let node = Node {
        game: Game {
            faces: dealt.map(all),
            len: dealt,
            ..Game::default()
        },
        deal: W::Deal::unknown(n),
        unknown: dealt.map(all),
        unread: dealt,
        present: (0..KINDS)
            .filter(|&k| deck.counts[k] > 0)
            .fold(0, |m, k| m | 1 << k),
        remaining: deck.counts.map(|c| c as u8),
        weight_index: (0..KINDS).map(|k| deck.counts[k] * stride[k]).sum(),
        tricks: 0,
        cards: 0,
    };
    let weight = (0..size)
        .map(|i| {
            let counts: [u8; KINDS] =
                std::array::from_fn(|k| ((i / stride[k]) % (deck.counts[k] + 1)) as u8);
            multinomial_u64(&counts)
        })
        .collect();
    // A deck with more face cards than the lanes' kinds queue holds plays its fully fixed games
    // one by one: on such decks a planes loop in the lanes is slower than that, with every
    // instruction set (`ansatz search exhaustive --deck 6-4J4Q4K4A --shard 0/262144`).
    let faces: u32 = deck.counts[1..].iter().sum();
    let lanes = lanes && faces <= crate::engine::lanes::max_faces(W::BITS);
    let ctx = Ctx {
        offset: [0, h1 as u32],
        dealt,
        n,
        stride,
        weight,
        lanes,
    };
    (ctx, node)
}
