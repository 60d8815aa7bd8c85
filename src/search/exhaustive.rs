//! Exhaustive search of a small deck: every distinct deal (arrangement of the multiset, hands split
//! as equally as possible, player 1 first), counted by outcome.
//!
//! The fast path shares prefixes. A game reads each player's original cards in order, and until it
//! has read one its course cannot depend on it. So the search plays one game per *set of deals that
//! agree on every card read so far*: when a player must play an original card not yet fixed, it
//! branches over the kinds still left in the multiset; when the game ends first, the whole subtree
//! (every arrangement of the unfixed cards: a multinomial) shares its winner, tricks and cards. When
//! every card is fixed the subtree is one deal: it is played on in place and, if it has not ended
//! after `IN_PLACE_TRICKS` tricks, by the exact cycle engine (cycles are only ever reported from
//! such fully fixed deals). [`naive`] plays every deal separately (rank/unrank + engine) and is the
//! checker; `tests/search.rs` demands equal statistics from both on random small decks.
//!
//! Work split: [`Plan`] cuts the tree into subtrees of bounded weight, in a fixed order, so task `i`
//! is the same for any thread count. A task is named by the cards fixed on its path, in the order
//! they were first played; that is a different order from the deal's, so these tasks are not rank
//! ranges of the deal multiset. Rank ranges ([`naive`]) split the deal-by-deal path.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::multiset::{multinomial, multinomial_u64, next_arrangement, unrank};
use crate::card::{Card, DeckSpec, KINDS};
use crate::engine::Outcome;
use crate::engine::cycle::play_state;
use crate::engine::fast::{SMALL_CAP, Small};
use crate::engine::lanes::{Game, Plane};
use crate::engine::multi::{self, MultiOutcome, MultiPosition};

mod flush;
mod tally;
use flush::{flush, push_narrow, push_wide};
use tally::{Batch, NarrowBatch, TallyPlane};

/// The most cards the fast (prefix-sharing) path takes: every deck of a standard pack. Decks of up
/// to [`NARROW_CARDS`] (and some of 33 and 34: `narrow_walk`) play in `u32` hands with the deal
/// in one `u128` (three bits a card); larger ones in `u64` hands with the deal in two `u128`s
/// (see [`Width`]).
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
fn narrow_walk(deck: &DeckSpec, lanes: bool) -> bool {
    let n = deck.total();
    let faces: u32 = deck.counts[1..].iter().sum();
    n <= NARROW_CARDS
        || (lanes
            && n <= 34
            && NarrowBatch::available()
            && faces <= crate::engine::kinds64::max_faces(32))
}

/// Which player holds the extra card of a two-player deal of an odd number of cards. Paulhus's
/// Table 1 deals the first player the extra card; the census counts both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Extra {
    /// Player 1 (who leads) holds the extra card.
    #[default]
    First,
    /// Player 2 holds it.
    Second,
}

impl Extra {
    /// The cards player 1 is dealt from `n`: the first cards of the deal, the rest to player 2.
    pub fn first_hand(self, n: usize) -> usize {
        match self {
            Extra::First => n.div_ceil(2),
            Extra::Second => n / 2,
        }
    }

    /// The deal's position: `cards` dealt in order, player 1 first and to move.
    pub fn position(self, cards: &[Card], players: usize) -> MultiPosition {
        if players == 2 {
            let h1 = self.first_hand(cards.len());
            MultiPosition {
                hands: vec![cards[..h1].to_vec(), cards[h1..].to_vec()],
                to_move: 0,
            }
        } else {
            MultiPosition::deal(cards, players)
        }
    }
}

/// A class of non-terminating deals: those that reach one cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CycleClass {
    pub period: u64,
    pub deals: u64,
}

/// The longest terminating game: most cards, then most tricks, then the smallest deal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Longest {
    pub deal: Vec<Card>,
    pub cards: u64,
    pub tricks: u64,
}

impl Longest {
    fn beats(&self, o: &Longest) -> bool {
        (self.cards, self.tricks, std::cmp::Reverse(&self.deal))
            > (o.cards, o.tricks, std::cmp::Reverse(&o.deal))
    }
}

/// Totals over a set of deals. Merging is commutative, so any split of the work gives one answer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExhaustiveStats {
    pub deals: u64,
    /// Deals that never end.
    pub cycles: u64,
    /// Terminating deals won by each seat.
    pub wins: Vec<u64>,
    /// Cycle id (position text) -> its period and how many deals reach it.
    pub distinct_cycles: BTreeMap<String, CycleClass>,
    pub longest: Option<Longest>,
}

impl ExhaustiveStats {
    pub fn new(players: usize) -> Self {
        ExhaustiveStats {
            wins: vec![0; players],
            ..Default::default()
        }
    }

    pub fn merge(&mut self, o: ExhaustiveStats) {
        self.deals += o.deals;
        self.cycles += o.cycles;
        for (a, b) in self.wins.iter_mut().zip(&o.wins) {
            *a += b;
        }
        for (id, c) in o.distinct_cycles {
            let e = self.distinct_cycles.entry(id).or_default();
            e.period = c.period;
            e.deals += c.deals;
        }
        if let Some(l) = o.longest {
            self.offer_longest(l);
        }
    }

    fn offer_longest(&mut self, l: Longest) {
        if self.longest.as_ref().is_none_or(|b| l.beats(b)) {
            self.longest = Some(l);
        }
    }

    /// Whether a game of `cards`/`tricks` could replace the longest (ties need the deal).
    #[inline]
    fn may_be_longest(&self, cards: u64, tricks: u64) -> bool {
        self.longest
            .as_ref()
            .is_none_or(|b| (cards, tricks) >= (b.cards, b.tricks))
    }

    fn add_cycle(&mut self, id: String, period: u64, deals: u64) {
        self.deals += deals;
        self.cycles += deals;
        let e = self.distinct_cycles.entry(id).or_default();
        e.period = period;
        e.deals += deals;
    }
}

/// Every distinct deal of `deck` for `players` players, or `None` past `u128`.
pub fn deal_count(deck: &DeckSpec) -> Option<u128> {
    multinomial(&deck.counts)
}

/// Plays one deal (cards in deal order) and adds it to `stats`: the shared per-deal path of
/// [`naive`] for any number of players.
pub fn play_deal(
    cards: &[Card],
    players: usize,
    extra: Extra,
    stats: &mut ExhaustiveStats,
    scratch: &mut multi::Scratch,
) {
    let (winner, tricks, played) = if players == 2 && cards.len() <= SMALL_CAP {
        let h1 = extra.first_hand(cards.len());
        match play_state(&Small::from_hands(&cards[..h1], &cards[h1..], 0)) {
            Outcome::Terminates {
                winner,
                tricks,
                cards,
            } => (winner, tricks, cards),
            Outcome::Cycle(c) => {
                stats.add_cycle(c.cycle_id.to_string(), c.period, 1);
                return;
            }
        }
    } else {
        match multi::play(&extra.position(cards, players), scratch) {
            MultiOutcome::Terminates {
                winner,
                tricks,
                cards,
            } => (winner, tricks, cards),
            MultiOutcome::Cycle {
                period, cycle_id, ..
            } => {
                stats.add_cycle(cycle_id.to_string(), period, 1);
                return;
            }
        }
    };
    stats.deals += 1;
    stats.wins[winner as usize] += 1;
    if stats.may_be_longest(played, tricks) {
        stats.offer_longest(Longest {
            deal: cards.to_vec(),
            cards: played,
            tricks,
        });
    }
}

/// The checker: plays every deal of rank in `ranks` one by one.
pub fn naive(deck: &DeckSpec, players: usize, ranks: Range<u128>) -> ExhaustiveStats {
    naive_split(deck, players, Extra::First, ranks)
}

/// [`naive`] with the extra card of an odd two-player deal where `extra` says.
pub fn naive_split(
    deck: &DeckSpec,
    players: usize,
    extra: Extra,
    ranks: Range<u128>,
) -> ExhaustiveStats {
    let mut stats = ExhaustiveStats::new(players);
    let mut scratch = multi::Scratch::default();
    if ranks.is_empty() {
        return stats;
    }
    let Some(mut cards) = unrank(&deck.counts, ranks.start) else {
        return stats;
    };
    for _ in ranks {
        play_deal(&cards, players, extra, &mut stats, &mut scratch);
        next_arrangement(&mut cards);
    }
    stats
}

/// A card of the deal not fixed yet.
const UNKNOWN: Card = 0xF;

/// The deal as the search fixes it, in deal order, `UNKNOWN` where not fixed. One `u128` holds
/// [`PACKED_CARDS`] cards (three bits a card: the five kinds and `UNKNOWN`), two hold 64.
pub trait Packed: Copy + Send + Sync + 'static {
    /// `n` cards, none fixed.
    fn unknown(n: usize) -> Self;
    /// Card `i`.
    fn nibble(self, i: u32) -> Card;
    /// Fixes card `at` (unknown) to `kind`.
    fn fix(&mut self, at: u32, kind: Card);
    /// Fixes every unknown card to `kind`.
    fn fill(self, kind: Card) -> Self;
    /// `*x`, read a `u64` at a time: the deal is written that way (by [`Packed::fix`]), and a wider
    /// load of it right after the narrow stores misses store forwarding (a stall of a dozen
    /// cycles or more, once a node).
    fn fresh(x: &Self) -> Self;
}

/// Bits a card of a packed deal.
const CARD_BITS: u32 = 3;

/// An unknown card in its field.
const UNKNOWN_FIELD: u128 = (1 << CARD_BITS) - 1;

/// The cards one `u128` holds: the `u32` form's decks (up to 34 cards) in one word.
pub const PACKED_CARDS: usize = (128 / CARD_BITS) as usize;

/// Bit 0 of every card's field.
const FIELD_LOW: u128 = {
    let mut m = 0u128;
    let mut i = 0;
    while i < PACKED_CARDS {
        m |= 1 << (CARD_BITS as usize * i);
        i += 1;
    }
    m
};

impl Packed for u128 {
    #[inline(always)]
    fn unknown(n: usize) -> u128 {
        debug_assert!(n <= PACKED_CARDS);
        if n == 0 {
            0
        } else {
            u128::MAX >> (128 - CARD_BITS as usize * n)
        }
    }
    #[inline(always)]
    fn nibble(self, i: u32) -> Card {
        let f = (self >> (CARD_BITS * i)) & UNKNOWN_FIELD;
        if f == UNKNOWN_FIELD {
            UNKNOWN
        } else {
            f as Card
        }
    }
    #[inline(always)]
    fn fix(&mut self, at: u32, kind: Card) {
        *self ^= (UNKNOWN_FIELD ^ kind as u128) << (CARD_BITS * at);
    }
    #[inline(always)]
    fn fill(self, kind: Card) -> u128 {
        // One bit at the bottom of every all-ones field of the deal; times (UNKNOWN_FIELD ^ kind)
        // flips each to `kind` without carries.
        let d = self;
        let unknown = d & (d >> 1) & (d >> 2) & FIELD_LOW;
        d ^ (unknown * (UNKNOWN_FIELD ^ kind as u128))
    }
    #[inline(always)]
    fn fresh(x: &u128) -> u128 {
        // SAFETY: `x` is a reference to an initialised, aligned `u128`; a volatile `u128` load
        // is two `u64` loads in general registers.
        unsafe { std::ptr::read_volatile(x) }
    }
}

impl Packed for [u128; 2] {
    #[inline(always)]
    fn unknown(n: usize) -> Self {
        [
            u128::unknown(n.min(32)),
            u128::unknown(n.saturating_sub(32)),
        ]
    }
    #[inline(always)]
    fn nibble(self, i: u32) -> Card {
        self[(i / 32) as usize].nibble(i % 32)
    }
    #[inline(always)]
    fn fix(&mut self, at: u32, kind: Card) {
        self[(at / 32) as usize].fix(at % 32, kind);
    }
    #[inline(always)]
    fn fill(self, kind: Card) -> Self {
        [self[0].fill(kind), self[1].fill(kind)]
    }
    #[inline(always)]
    fn fresh(x: &Self) -> Self {
        [u128::fresh(&x[0]), u128::fresh(&x[1])]
    }
}

/// The two forms of the search: the hand plane and the deal's packing (`u32` with one `u128` up
/// to 32 cards, `u64` with two up to 64), and how fully fixed games are played in bulk.
pub trait Width: Plane {
    type Deal: Packed;
    /// Scratch of the bulk engine.
    type Bulk: Default + Send;
    /// Plays the fully fixed games waiting in `scratch` and counts them.
    fn flush(ctx: &Ctx, stats: &mut ExhaustiveStats, scratch: &mut Scratch<Self>);
    /// Queues a fully fixed game (`game`, from `leaf`) for the bulk engine, and plays the batch
    /// when it is full.
    fn push(
        ctx: &Ctx,
        stats: &mut ExhaustiveStats,
        scratch: &mut Scratch<Self>,
        leaf: Leaf<Self>,
        game: AbGame<Self>,
    );
}

impl Width for u32 {
    type Deal = u128;
    type Bulk = Bulk<u32>;
    fn flush(ctx: &Ctx, stats: &mut ExhaustiveStats, scratch: &mut Scratch<u32>) {
        flush(ctx, stats, scratch)
    }
    #[inline(always)]
    fn push(
        ctx: &Ctx,
        stats: &mut ExhaustiveStats,
        scratch: &mut Scratch<u32>,
        leaf: Leaf<u32>,
        game: AbGame<u32>,
    ) {
        push_narrow(ctx, stats, scratch, leaf, game)
    }
}

impl Width for u64 {
    type Deal = [u128; 2];
    type Bulk = Bulk<u64>;
    fn flush(ctx: &Ctx, stats: &mut ExhaustiveStats, scratch: &mut Scratch<u64>) {
        flush(ctx, stats, scratch)
    }
    #[inline(always)]
    fn push(
        ctx: &Ctx,
        stats: &mut ExhaustiveStats,
        scratch: &mut Scratch<u64>,
        leaf: Leaf<u64>,
        game: AbGame<u64>,
    ) {
        push_wide(ctx, stats, scratch, leaf, game)
    }
}

/// A fully fixed game as the lanes load it: the hand of the player to act (`a`, index 0) first.
/// Built field by field from a node, it stays in registers: a [`Game`] indexed by a player only
/// known at run time lives in memory, and copying one just written (narrow stores read back by
/// wide loads) missed store forwarding.
#[derive(Clone, Copy)]
pub struct AbGame<W> {
    faces: [W; 2],
    lo: [W; 2],
    hi: [W; 2],
    len: [u32; 2],
    pile: [W; 3],
    n: u32,
    debt: u32,
    /// The player to act (`a`).
    who: u32,
}

impl<W: Plane> AbGame<W> {
    #[inline(always)]
    fn of(g: &Game<W>) -> AbGame<W> {
        let a = g.next as usize & 1;
        let b = a ^ 1;
        AbGame {
            faces: [g.faces[a], g.faces[b]],
            lo: [g.lo[a], g.lo[b]],
            hi: [g.hi[a], g.hi[b]],
            len: [g.len[a], g.len[b]],
            pile: [g.pile_faces, g.pile_lo, g.pile_hi],
            n: g.n,
            debt: g.debt,
            who: a as u32,
        }
    }

    /// The game in the usual form.
    fn game(&self) -> Game<W> {
        let a = self.who as usize & 1;
        let two = |x: [W; 2]| if a == 0 { x } else { [x[1], x[0]] };
        Game {
            faces: two(self.faces),
            lo: two(self.lo),
            hi: two(self.hi),
            len: if a == 0 {
                self.len
            } else {
                [self.len[1], self.len[0]]
            },
            pile_faces: self.pile[0],
            pile_lo: self.pile[1],
            pile_hi: self.pile[2],
            n: self.n,
            next: a as u32,
            debt: self.debt,
        }
    }

    /// Whether the game is over before its first move (see [`Game::over_at_start`]).
    #[inline(always)]
    fn over_at_start(&self) -> Option<u8> {
        let over = self.n == 0 && self.debt == 0 && (self.len[0] == 0 || self.len[1] == 0);
        // As `Game::over_at_start`: player 1 wins if they hold cards (`a` is player `who`).
        let len1 = self.len[(self.who as usize & 1) ^ 1];
        over.then(|| u8::from(len1 > 0))
    }

    /// Sets the cards of hand `i` (0: `a`) marked in `mask` (penalty cards of kind 1) to
    /// penalty `c`, as [`Game::set_all`].
    #[inline(always)]
    fn set_all(&mut self, i: usize, mask: W, c: Card) {
        if c == 0 {
            self.faces[i] &= !mask;
        } else {
            let k = u32::from(c - 1);
            self.lo[i] |= mask & W::fill(k & 1);
            self.hi[i] |= mask & W::fill(k >> 1);
        }
    }
}

/// Scratch of the lanes: with vector lanes (`tally::Batch::available`) the batch is
/// written straight into the lanes' arrays and counted there; else the games wait in
/// `Scratch::games` and are played one by one.
pub struct Bulk<W> {
    batch: Batch<W>,
    /// Whether `batch` is used (`Batch::available`, looked up once).
    tally: bool,
}

impl<W: TallyPlane> Default for Bulk<W> {
    fn default() -> Self {
        let tally = Batch::<W>::available();
        Bulk {
            // Only allocated where it is used.
            batch: if tally {
                Batch::default()
            } else {
                Batch::empty()
            },
            tally,
        }
    }
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
    game: Game<W>,
    /// The deal in deal order; [`UNKNOWN`] where not fixed.
    deal: W::Deal,
    /// Unread cards of each hand (bit `i`: card `i` from the top).
    unknown: [W; 2],
    /// How many they are.
    unread: [u32; 2],
    /// Kinds with cards not fixed yet, a bit each.
    present: u8,
    /// Cards of each kind not fixed yet.
    remaining: [u8; KINDS],
    /// Index of `remaining` in `Ctx::weight` (mixed radix).
    weight_index: u32,
    tricks: u64,
    cards: u64,
}

/// What one trick of a node did.
enum Sim {
    /// `node.game.next` must play the unread card on top of their hand.
    Unknown,
    Next,
    /// The game is over; `cards` counts the last trick's cards (0 when it ended at a boundary).
    End {
        winner: u8,
        cards: u32,
    },
}

impl<W: Width> Node<W> {
    /// Plays on to the end of the current trick, the rules of `engine::fast`, stopping at the
    /// first unread card (`FIXED`: the node has none, and the check is compiled out). The same
    /// moves as [`Lanes`], one game at a time, with branches.
    ///
    /// Whole runs of cards are played at once: before the first penalty card only number cards are
    /// played, alternately, so the lead phase ends at the earlier of the two hands' first penalty
    /// cards; a payment is a contiguous run of one hand that ends at its first penalty card or
    /// when the debt is paid. Each is one `trailing_zeros`.
    #[inline(always)]
    fn trick<const FIXED: bool>(&mut self) -> Sim {
        let g = &mut self.game;
        let mut n = g.n;
        let mut payer = g.next as usize;
        let mut debt = g.debt;
        if debt == 0 {
            if n == 0 && (g.len[0] == 0 || g.len[1] == 0) {
                let winner = u8::from(g.len[1] > 0);
                return Sim::End { winner, cards: 0 };
            }
            let p = payer;
            let q = p ^ 1;
            // Lead phase: p plays at steps 0, 2, 4..., q at steps 1, 3, 5...; it stops at the
            // first penalty card, or when a player must play and has no card. (Bits past a
            // hand's length are clear, so a scan that finds nothing returns 64 > its length.)
            let zp = g.faces[p].tz().min(g.len[p]);
            let zq = g.faces[q].tz().min(g.len[q]);
            let stop_p = 2 * zp;
            let stop_q = 2 * zq + 1;
            // Which player stops is a coin toss: select, don't branch.
            let q_first = u32::from(stop_q < stop_p);
            let step = stop_p.min(stop_q);
            let x = p ^ q_first as usize;
            let idx = step / 2;
            if idx >= g.len[x] {
                return Sim::End {
                    winner: (x ^ 1) as u8,
                    cards: n + step,
                };
            }
            // p played the even steps before `step`, q the odd ones.
            let (bp, bq) = (step.div_ceil(2), step / 2);
            if !FIXED && self.unknown[x].bit(idx) == 1 {
                self.pop::<FIXED>(p, bp);
                self.pop::<FIXED>(q, bq);
                let g = &mut self.game;
                g.n = n + step;
                g.next = x as u32;
                return Sim::Unknown;
            }
            let c = g.penalty(x, idx);
            self.pop::<FIXED>(p, bp + 1 - q_first);
            self.pop::<FIXED>(q, bq + q_first);
            n += step;
            self.game.pile_face(n, c);
            n += 1;
            payer = x ^ 1;
            debt = c;
        }
        // Payment: `payer` owes `debt`; a penalty card hands a new debt back. The cards before
        // the penalty card are number cards.
        loop {
            let l = self.game.len[payer];
            let z = self.game.faces[payer].tz();
            if z < debt.min(l) {
                if !FIXED && self.unknown[payer].bit(z) == 1 {
                    self.pop::<FIXED>(payer, z);
                    let g = &mut self.game;
                    g.n = n + z;
                    g.next = payer as u32;
                    g.debt = debt - z;
                    return Sim::Unknown;
                }
                let c = self.game.penalty(payer, z);
                self.pop::<FIXED>(payer, z + 1);
                n += z;
                self.game.pile_face(n, c);
                n += 1;
                debt = c;
                payer ^= 1;
            } else if l < debt {
                return Sim::End {
                    winner: (payer ^ 1) as u8,
                    cards: n + l,
                };
            } else {
                self.pop::<FIXED>(payer, debt);
                n += debt;
                break;
            }
        }
        let w = payer ^ 1;
        self.game.take_pile(w, n);
        self.tricks += 1;
        self.cards += n as u64;
        if self.game.len[payer] == 0 {
            return Sim::End {
                winner: w as u8,
                cards: 0,
            };
        }
        Sim::Next
    }

    /// Takes the top `k` cards off `p`'s hand (`k` at most its length; `FIXED`: nothing is
    /// unread).
    #[inline(always)]
    fn pop<const FIXED: bool>(&mut self, p: usize, k: u32) {
        self.game.pop(p, k);
        if !FIXED {
            self.unknown[p] = self.unknown[p].shr(k);
        }
    }

    /// A copy for a child, every field read one by one at its own width (see
    /// [`Game::fresh_copy`]): [`Node::trick`] and [`fix`] have just written them so, and a
    /// struct copy's wide loads would miss store forwarding.
    #[inline(always)]
    fn fork(&self) -> Node<W> {
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
    fn hand(&self, p: usize) -> Vec<Card> {
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
    offset: [u32; 2],
    dealt: [u32; 2],
    n: usize,
    /// Place value of each kind in a `remaining` index.
    stride: [u32; KINDS],
    /// Arrangements of every `remaining` (by index): the weight of a subtree, looked up rather than
    /// computed with divisions in the hot loop.
    weight: Vec<u64>,
    /// Whether fully fixed games go to the [`Lanes`] (when the processor has vector units for
    /// them) or are played one by one.
    lanes: bool,
}

/// The root node of `deck`: every card unread.
fn root<W: Width>(deck: &DeckSpec, lanes: bool, extra: Extra) -> (Ctx, Node<W>) {
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
    let lanes = lanes && faces <= crate::engine::kinds64::max_faces(W::BITS);
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

/// Tricks a fully fixed game plays in place before the exact cycle engine takes over: more than
/// almost every terminating game of a small deck needs, so Brent's bookkeeping is rarely paid.
const IN_PLACE_TRICKS: u64 = 1000;

/// Fully fixed games waiting for the [`Lanes`]: enough that the lanes rarely run short.
const BATCH: usize = 4096;

/// What the search keeps of a fully fixed game while it waits for the lanes.
#[derive(Clone, Copy)]
pub struct Leaf<W: Width> {
    deal: W::Deal,
    tricks: u64,
    cards: u64,
}

impl<W: Width> Leaf<W> {
    fn node(&self, game: Game<W>) -> Node<W> {
        Node {
            game,
            deal: self.deal,
            unknown: [W::ZERO; 2],
            unread: [0; 2],
            present: 0,
            remaining: [0; KINDS],
            weight_index: 0,
            tricks: self.tricks,
            cards: self.cards,
        }
    }
}

/// The search's scratch: the fully fixed games waiting for the lanes.
pub struct Scratch<W: Width> {
    leaves: Vec<Leaf<W>>,
    games: Vec<Game<W>>,
    lanes: W::Bulk,
}

impl<W: Width> Default for Scratch<W> {
    fn default() -> Self {
        Scratch {
            leaves: Vec::with_capacity(BATCH),
            games: Vec::with_capacity(BATCH),
            lanes: Default::default(),
        }
    }
}

/// Plays `node` forward until it needs an unread card (true: the caller branches on it) or its
/// whole subtree is counted into `stats` (false), perhaps later: fully fixed games wait in
/// `scratch` for [`Width::flush`].
#[inline]
fn advance<W: Width>(
    ctx: &Ctx,
    node: &mut Node<W>,
    stats: &mut ExhaustiveStats,
    scratch: &mut Scratch<W>,
) -> bool {
    if node.present & node.present.wrapping_sub(1) == 0 {
        let deal = if node.present != 0 {
            // Every unread card is now determined: fix them all.
            fill_unknowns(node)
        } else {
            W::Deal::fresh(&node.deal)
        };
        if ctx.lanes {
            let leaf = Leaf {
                deal,
                tricks: node.tricks,
                cards: node.cards,
            };
            // Read field by field (see `AbGame`).
            W::push(ctx, stats, scratch, leaf, AbGame::of(&node.game));
        } else {
            play_fixed(ctx, node, stats);
        }
        return false;
    }
    loop {
        match node.trick::<false>() {
            Sim::Unknown => return true,
            Sim::Next => {}
            Sim::End { winner, cards } => {
                let weight = ctx.weight[node.weight_index as usize];
                let tricks = node.tricks + u64::from(cards > 0);
                let played = node.cards + cards as u64;
                record_end(ctx, node, stats, weight, winner, tricks, played);
                return false;
            }
        }
    }
}

/// Queues the child of `node` in which the unread card on top of `node.game.next`'s hand is the
/// last card of `kind` and every other unread card is of the one kind `rest` left: a single deal,
/// built straight into the batch. The same leaf as [`fix`] then [`fill_unknowns`] on a copy of
/// the node, for a third of the cost: this is how most deals of a large deck reach the lanes (the
/// last penalty card read fixes the deal), so it is the tree walk's innermost step.
#[inline(always)]
fn push_last<W: Width>(
    ctx: &Ctx,
    node: &Node<W>,
    kind: usize,
    rest: usize,
    stats: &mut ExhaustiveStats,
    scratch: &mut Scratch<W>,
) {
    let p = node.game.next as usize;
    // The player to act is `p`, whose unread card is on top.
    let mut game = AbGame::of(&node.game);
    game.set_all(0, W::ONE, kind as Card);
    game.set_all(0, node.unknown[p] & !W::ONE, rest as Card);
    game.set_all(1, node.unknown[p ^ 1], rest as Card);
    let mut deal = W::Deal::fresh(&node.deal);
    deal.fix(ctx.offset[p] + ctx.dealt[p] - node.unread[p], kind as Card);
    let leaf = Leaf {
        deal: deal.fill(rest as Card),
        tricks: node.tricks,
        cards: node.cards,
    };
    W::push(ctx, stats, scratch, leaf, game);
}

/// Counts a game that ended after `tricks` tricks and `played` cards, for the `weight` deals of
/// its subtree.
#[inline]
fn record_end<W: Width>(
    ctx: &Ctx,
    node: &Node<W>,
    stats: &mut ExhaustiveStats,
    weight: u64,
    winner: u8,
    tricks: u64,
    played: u64,
) {
    let deal = node.deal;
    record(
        ctx,
        deal,
        &node.remaining,
        stats,
        weight,
        winner,
        tricks,
        played,
    );
}

/// [`record_end`] of the subtree of `deal` with the cards `remaining` not fixed.
#[inline]
#[allow(clippy::too_many_arguments)]
fn record<D: Packed>(
    ctx: &Ctx,
    deal: D,
    remaining: &[u8; KINDS],
    stats: &mut ExhaustiveStats,
    weight: u64,
    winner: u8,
    tricks: u64,
    played: u64,
) {
    stats.deals += weight;
    stats.wins[winner as usize] += weight;
    if stats.may_be_longest(played, tricks) {
        stats.offer_longest(Longest {
            deal: smallest_completion(ctx, deal, remaining),
            cards: played,
            tricks,
        });
    }
}

/// Plays a node without unread cards (one deal) to its end: in place for [`IN_PLACE_TRICKS`], then
/// with the exact cycle engine.
fn play_fixed<W: Width>(ctx: &Ctx, node: &mut Node<W>, stats: &mut ExhaustiveStats) {
    let limit = node.tricks + IN_PLACE_TRICKS;
    while node.tricks < limit {
        match node.trick::<true>() {
            Sim::Next => {}
            Sim::End { winner, cards } => {
                let tricks = node.tricks + u64::from(cards > 0);
                let played = node.cards + cards as u64;
                return record_end(ctx, node, stats, 1, winner, tricks, played);
            }
            Sim::Unknown => unreachable!("every card is fixed"),
        }
    }
    finish(ctx, node, stats);
}

/// The child of `node` in which the unread card on top of `node.game.next`'s hand is `kind`.
#[inline(always)]
fn child<W: Width>(ctx: &Ctx, node: &Node<W>, kind: usize) -> Node<W> {
    let mut c = *node;
    fix(ctx, &mut c, kind);
    c
}

/// Fixes the unread card on top of `node.game.next`'s hand to `kind`: `node` becomes that child.
#[inline(always)]
fn fix<W: Width>(ctx: &Ctx, c: &mut Node<W>, kind: usize) {
    let p = c.game.next as usize;
    // The unread card counts as a penalty card of kind 1.
    c.game.set(p, 0, kind as Card);
    c.unknown[p] &= !W::ONE;
    c.remaining[kind] -= 1;
    c.present &= !(u8::from(c.remaining[kind] == 0) << kind);
    c.weight_index -= ctx.stride[kind];
    let at = ctx.offset[p] + ctx.dealt[p] - c.unread[p];
    c.deal.fix(at, kind as Card);
    c.unread[p] -= 1;
}

/// Fixes every unread card to the one kind left; returns the deal it wrote, so that the caller
/// need not read it back from the node (see [`Packed::fresh`]).
fn fill_unknowns<W: Width>(node: &mut Node<W>) -> W::Deal {
    let kind = node.present.trailing_zeros() as usize;
    for p in 0..2 {
        node.game.set_all(p, node.unknown[p], kind as Card);
        node.unknown[p] = W::ZERO;
        node.unread[p] = 0;
    }
    let deal = W::Deal::fresh(&node.deal).fill(kind as Card);
    node.deal = deal;
    node.remaining = [0; KINDS];
    node.present = 0;
    node.weight_index = 0;
    deal
}

/// The smallest deal of the subtree: the unfixed places filled with the remaining cards in order.
fn smallest_completion<D: Packed>(ctx: &Ctx, deal: D, remaining: &[u8; KINDS]) -> Vec<Card> {
    let mut rest = *remaining;
    let mut kind = 0;
    (0..ctx.n as u32)
        .map(|i| {
            let d = deal.nibble(i);
            if d != UNKNOWN {
                return d;
            }
            while rest[kind] == 0 {
                kind += 1;
            }
            rest[kind] -= 1;
            kind as Card
        })
        .collect()
}

/// A node whose cards are all fixed and that has played [`IN_PLACE_TRICKS`] tricks without ending:
/// the rest of its one deal is played by the exact cycle engine.
fn finish<W: Width>(ctx: &Ctx, node: &Node<W>, stats: &mut ExhaustiveStats) {
    debug_assert!(
        node.game.n == 0 && node.game.debt == 0,
        "at a trick boundary"
    );
    let state = Small::from_hands(&node.hand(0), &node.hand(1), node.game.next as u8);
    let deal: Vec<Card> = (0..ctx.n as u32).map(|i| node.deal.nibble(i)).collect();
    match play_state(&state) {
        Outcome::Terminates {
            winner,
            tricks,
            cards,
        } => {
            let tricks = node.tricks + tricks;
            let played = node.cards + cards;
            stats.deals += 1;
            stats.wins[winner as usize] += 1;
            if stats.may_be_longest(played, tricks) {
                stats.offer_longest(Longest {
                    deal,
                    cards: played,
                    tricks,
                });
            }
        }
        Outcome::Cycle(_) => {
            // Rare: replay the whole deal for the cycle's id and period.
            let h1 = ctx.offset[1] as usize;
            let Outcome::Cycle(c) = play_state(&Small::from_hands(&deal[..h1], &deal[h1..], 0))
            else {
                unreachable!("the same deal cycles from its start")
            };
            stats.add_cycle(c.cycle_id.to_string(), c.period, 1);
        }
    }
}

/// Counts the whole subtree of `node` into `stats` (fully fixed games may wait in `scratch`);
/// `node` is used up as scratch. The children of a branch are independent and counted in any
/// order: the other kinds branch off in copies, and the node itself goes on as its number-card
/// child (the largest subtree), with no copy and no recursion.
///
/// The node goes by reference and each copy is fixed where it will be explored: a child built
/// and then passed by value was copied twice, and the second copy's wide loads of fields just
/// written narrowly by [`fix`] missed store forwarding (a quarter of this function's time).
fn explore<W: Width>(
    ctx: &Ctx,
    node: &mut Node<W>,
    stats: &mut ExhaustiveStats,
    scratch: &mut Scratch<W>,
) {
    while advance(ctx, node, stats, scratch) {
        // A byte load: `fix` has just stored this byte and its neighbour, and the wider load the
        // compiler otherwise makes of it misses store forwarding (the worst stall of the walk).
        // SAFETY: a reference to an initialised `u8`.
        let present = unsafe { std::ptr::read_volatile(&node.present) };
        let keep = present.trailing_zeros() as usize;
        let mut kinds = present & (present - 1);
        let last = kinds.trailing_zeros() as usize;
        if ctx.lanes && kinds & (kinds - 1) == 0 && node.remaining[last] == 1 {
            // Two kinds left and one card of the other: its child is a single deal.
            push_last(ctx, node, last, keep, stats, scratch);
            fix(ctx, node, keep);
            continue;
        }
        while kinds != 0 {
            let kind = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            let mut c = node.fork();
            fix(ctx, &mut c, kind);
            explore(ctx, &mut c, stats, scratch);
        }
        fix(ctx, node, keep);
    }
}

/// Expands the tree until subtrees hold at most `max_deals` deals: subtrees that finish sooner are
/// counted into `stats`, the others become `tasks`, in a fixed order. (Cutting by weight, not by
/// depth: the subtrees of number cards first are far heavier than the others.)
fn split<W: Width>(
    ctx: &Ctx,
    mut node: Node<W>,
    max_deals: u64,
    tasks: &mut Vec<Node<W>>,
    stats: &mut ExhaustiveStats,
    scratch: &mut Scratch<W>,
) {
    if ctx.weight[node.weight_index as usize] <= max_deals {
        tasks.push(node);
        return;
    }
    if advance(ctx, &mut node, stats, scratch) {
        for kind in 0..KINDS {
            if node.remaining[kind] > 0 {
                let c = child(ctx, &node, kind);
                split(ctx, c, max_deals, tasks, stats, scratch);
            }
        }
    }
}

/// The tasks of one search, in the form its deck needs.
enum Tasks {
    Narrow(Vec<Node<u32>>),
    Wide(Vec<Node<u64>>),
}

/// The exhaustive search cut into independent tasks.
pub struct Plan {
    ctx: Ctx,
    /// Subtrees counted while planning.
    pub head: ExhaustiveStats,
    tasks: Tasks,
}

impl Plan {
    /// Plans the prefix-sharing search of a two-player deck of at most [`MAX_CARDS`] cards (and at
    /// most `u64::MAX` deals): the tree is cut into subtrees of at most `max_deals` deals.
    /// Fully fixed games go to the vector lanes when the processor has them (AVX-512 or AVX2:
    /// `tally::Batch::available`); without them they are played one by one, which is faster than lanes
    /// without vector units.
    pub fn new(deck: &DeckSpec, max_deals: u64) -> Plan {
        Plan::new_split(deck, max_deals, Extra::First)
    }

    /// [`Plan::new`] with the extra card of an odd deck where `extra` says.
    pub fn new_split(deck: &DeckSpec, max_deals: u64, extra: Extra) -> Plan {
        Plan::with_split(deck, max_deals, Batch::<u32>::available(), extra)
    }

    /// [`Plan::new`] with the choice of engine for fully fixed games made by the caller (the
    /// answer is the same either way; tests and benchmarks compare them).
    pub fn with_lanes(deck: &DeckSpec, max_deals: u64, lanes: bool) -> Plan {
        Plan::with_split(deck, max_deals, lanes, Extra::First)
    }

    /// [`Plan::with_lanes`] with the extra card of an odd deck where `extra` says. Lanes need
    /// AVX-512 for decks of more than [`NARROW_CARDS`] cards; without it `lanes` is ignored there.
    ///
    /// # Panics
    /// On a deck of more than [`MAX_CARDS`] cards (callers check: see `exhaustive_run`).
    pub fn with_split(deck: &DeckSpec, max_deals: u64, lanes: bool, extra: Extra) -> Plan {
        assert!(
            deck.total() <= MAX_CARDS,
            "the fast path holds at most {MAX_CARDS} cards"
        );
        if narrow_walk(deck, lanes) {
            let (ctx, head, tasks) = plan::<u32>(deck, max_deals, lanes, extra);
            Plan {
                ctx,
                head,
                tasks: Tasks::Narrow(tasks),
            }
        } else {
            let lanes = lanes && crate::engine::lanes64::available();
            let (ctx, head, tasks) = plan::<u64>(deck, max_deals, lanes, extra);
            Plan {
                ctx,
                head,
                tasks: Tasks::Wide(tasks),
            }
        }
    }

    pub fn tasks(&self) -> usize {
        match &self.tasks {
            Tasks::Narrow(t) => t.len(),
            Tasks::Wide(t) => t.len(),
        }
    }

    /// Whether the deck plays in the wide form (`u64` hands: past [`NARROW_CARDS`] cards but for
    /// the decks of `narrow_walk`).
    pub fn wide(&self) -> bool {
        matches!(self.tasks, Tasks::Wide(_))
    }

    /// Counts the subtree of task `i`.
    pub fn run_task(&self, i: usize) -> ExhaustiveStats {
        match &self.tasks {
            Tasks::Narrow(t) => run_task(&self.ctx, t[i]),
            Tasks::Wide(t) => run_task(&self.ctx, t[i]),
        }
    }
}

/// The root cut into subtrees of at most `max_deals` deals, and the counts of those finished on
/// the way.
fn plan<W: Width>(
    deck: &DeckSpec,
    max_deals: u64,
    lanes: bool,
    extra: Extra,
) -> (Ctx, ExhaustiveStats, Vec<Node<W>>) {
    let (ctx, node) = root::<W>(deck, lanes, extra);
    let mut head = ExhaustiveStats::new(2);
    let mut tasks = Vec::new();
    let mut scratch = Scratch::default();
    split(&ctx, node, max_deals, &mut tasks, &mut head, &mut scratch);
    W::flush(&ctx, &mut head, &mut scratch);
    (ctx, head, tasks)
}

/// Counts the subtree of one task.
fn run_task<W: Width>(ctx: &Ctx, mut node: Node<W>) -> ExhaustiveStats {
    let mut stats = ExhaustiveStats::new(2);
    let mut scratch = Scratch::default();
    explore(ctx, &mut node, &mut stats, &mut scratch);
    W::flush(ctx, &mut stats, &mut scratch);
    stats
}

/// Single-threaded prefix-sharing search of a whole deck (tests and small decks).
pub fn prefix_sharing(deck: &DeckSpec) -> ExhaustiveStats {
    prefix_sharing_with(deck, Batch::<u32>::available())
}

/// [`prefix_sharing`] with fully fixed games in the lanes or not (see [`Plan::with_lanes`]).
pub fn prefix_sharing_with(deck: &DeckSpec, lanes: bool) -> ExhaustiveStats {
    let plan = Plan::with_lanes(deck, u64::MAX, lanes);
    let mut stats = plan.head.clone();
    for i in 0..plan.tasks() {
        stats.merge(plan.run_task(i));
    }
    stats
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-by-one trick against the reference engine's trick, on random positions: hands of
    /// up to 32 cards in `u32` planes, up to 64 in `u64`.
    #[test]
    fn node_trick_equals_reference_trick() {
        node_trick_equals_reference::<u32>(5, 32);
        node_trick_equals_reference::<u64>(6, 64);
    }

    fn node_trick_equals_reference<W: Width>(seed: u64, max_cards: u64) {
        use crate::engine::reference::{Trick, trick};
        for pos in crate::engine::lanes::random_positions(seed, 200_000, max_cards) {
            let to_move = pos.to_move;
            let mut node = Node::<W> {
                game: Game::from_hands(&pos.hands[0], &pos.hands[1], to_move as u32),
                deal: W::Deal::unknown(0),
                unknown: [W::ZERO; 2],
                unread: [0; 2],
                present: 0,
                remaining: [0; KINDS],
                weight_index: 0,
                tricks: 0,
                cards: 0,
            };
            match (trick(&pos), node.trick::<true>()) {
                (Trick::Next { next, cards }, Sim::Next) => {
                    assert_eq!((cards, node.tricks), (node.cards, 1), "{pos}");
                    assert_eq!(
                        (node.hand(0), node.hand(1), node.game.next as u8),
                        (next.hands[0].clone(), next.hands[1].clone(), next.to_move),
                        "{pos}"
                    );
                }
                (
                    Trick::End { winner, cards },
                    Sim::End {
                        winner: w,
                        cards: c,
                    },
                ) => {
                    // A trick that empties the payer ends the game with the trick counted.
                    assert_eq!((winner, cards), (w, node.cards + c as u64), "{pos}");
                }
                (a, _) => panic!("{pos}: reference {a:?}"),
            }
        }
    }

    #[test]
    fn prefix_sharing_agrees_with_naive_on_small_decks() {
        for deck in ["3-1J1Q1K", "4-2J1Q1A", "5-1J1Q1K1A"] {
            let deck: DeckSpec = deck.parse().unwrap();
            let all = deal_count(&deck).unwrap();
            let want = naive(&deck, 2, 0..all);
            assert_eq!(prefix_sharing_with(&deck, false), want);
            assert_eq!(prefix_sharing_with(&deck, true), want);
        }
    }
}
