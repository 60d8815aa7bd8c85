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
use crate::engine::multi::{self, MultiOutcome, MultiPosition};

/// The most cards the fast (prefix-sharing) path takes: a hand packs into a `u128`. (Larger decks
/// have far too many deals to exhaust anyway.)
pub const MAX_CARDS: usize = 32;

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
    stats: &mut ExhaustiveStats,
    scratch: &mut multi::Scratch,
) {
    let (winner, tricks, played) = if players == 2 && cards.len() <= SMALL_CAP {
        let h1 = cards.len().div_ceil(2);
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
        match multi::play(&MultiPosition::deal(cards, players), scratch) {
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
    let mut stats = ExhaustiveStats::new(players);
    let mut scratch = multi::Scratch::default();
    if ranks.is_empty() {
        return stats;
    }
    let Some(mut cards) = unrank(&deck.counts, ranks.start) else {
        return stats;
    };
    for _ in ranks {
        play_deal(&cards, players, &mut stats, &mut scratch);
        next_arrangement(&mut cards);
    }
    stats
}

/// A card of the fast path's hands that the game has not read yet.
const UNKNOWN: Card = 0xF;
const NIBBLE: u128 = 0xF;

/// A hand of at most [`MAX_CARDS`] cards packed four bits a card, top card in the lowest bits: a
/// trick runs in registers (pop = shift right, taking the pile = one shift and or).
type Packed = u128;

/// The lowest bit of every nibble.
const LOW_BITS: Packed = Packed::MAX / 0xF;

/// Index of the first non-zero card of a packed hand (32 when there is none: cards past the
/// hand's length are always zero).
#[inline(always)]
fn first_nonzero(h: Packed) -> u32 {
    ((h | h >> 1 | h >> 2 | h >> 3) & LOW_BITS).trailing_zeros() / 4
}

/// The low `k` cards' bits.
#[inline(always)]
fn low_mask(k: u32) -> Packed {
    if k >= 32 {
        Packed::MAX
    } else {
        (1 << (4 * k)) - 1
    }
}

/// `h` without its top `k` cards.
#[inline(always)]
fn shr(h: Packed, k: u32) -> Packed {
    if k >= 32 { 0 } else { h >> (4 * k) }
}

#[inline(always)]
fn nibble(h: Packed, i: u32) -> Card {
    ((h >> (4 * i)) & NIBBLE) as Card
}

/// A node of the prefix-sharing search: the game, possibly in the middle of a trick, with the
/// original cards not read yet marked [`UNKNOWN`]. Unread cards are always the top of a hand's
/// original cards, so they sit together at the top of the hand, and cards won are appended below
/// them. A node that needs an unread card stops *at* it, with every card before it played: the
/// unread card is then the top of `hands[next]`, and the children go on from there without
/// replaying the start of the trick.
#[derive(Clone, Copy)]
pub struct Node {
    hands: [Packed; 2],
    /// The cards of the trick in progress, packed like a hand (first card played lowest).
    pile: Packed,
    /// The deal in deal order, packed like a hand; [`UNKNOWN`] where not fixed.
    deal: Packed,
    len: [u8; 2],
    /// Cards on the pile.
    n: u8,
    /// The player to play next: at a trick boundary, the player to move.
    next: u8,
    /// What `next` still owes; 0 in the lead phase (before the trick's first penalty card).
    debt: u8,
    /// Kinds with cards not fixed yet.
    kinds_left: u8,
    /// Cards of each kind not fixed yet.
    remaining: [u8; KINDS],
    /// Original cards of each player fixed so far (read in order).
    read: [u8; 2],
    /// Index of `remaining` in `Ctx::weight` (mixed radix).
    weight_index: u32,
    tricks: u64,
    cards: u64,
}

/// What one trick of a node did.
enum Sim {
    /// `node.next` must play the unread card on top of their hand.
    Unknown,
    Next,
    /// The game is over; `cards` counts the last trick's cards (0 when it ended at a boundary).
    End {
        winner: u8,
        cards: u32,
    },
}

impl Node {
    /// Plays on to the end of the current trick, the rules of `engine::fast`, stopping at the
    /// first unread card (`FIXED`: the node has none, and the check is compiled out).
    ///
    /// Whole runs of cards are played at once: before the first penalty card only number cards are
    /// played, alternately, so the lead phase ends at the earlier of the two hands' first non-zero
    /// cards; a payment is a contiguous run of one hand that ends at its first non-zero card or
    /// when the debt is paid. Each is found with a bit scan, so a trick costs a few unpredictable
    /// branches instead of one per card. Number cards are 0, so putting them on the pile is only
    /// a matter of counting them. An unread card is non-zero, so the scans stop at it too.
    #[inline(always)]
    fn trick<const FIXED: bool>(&mut self) -> Sim {
        let mut n = self.n as u32;
        let mut payer = self.next as usize;
        let mut debt = self.debt as u32;
        if debt == 0 {
            if n == 0 && (self.len[0] == 0 || self.len[1] == 0) {
                let winner = u8::from(self.len[1] > 0);
                return Sim::End { winner, cards: 0 };
            }
            let p = payer;
            let q = p ^ 1;
            let (lp, lq) = (self.len[p] as u32, self.len[q] as u32);
            // Lead phase: p plays at steps 0, 2, 4..., q at steps 1, 3, 5...; it stops at the
            // first non-zero card, or when a player must play and has no card.
            let zp = first_nonzero(self.hands[p]);
            let zq = first_nonzero(self.hands[q]);
            let stop_p = if zp < lp { 2 * zp } else { 2 * lp };
            let stop_q = if zq < lq { 2 * zq + 1 } else { 2 * lq + 1 };
            let step = stop_p.min(stop_q);
            let (x, idx) = if step == stop_p {
                (p, step / 2)
            } else {
                (q, step / 2)
            };
            if idx >= self.len[x] as u32 {
                return Sim::End {
                    winner: (x ^ 1) as u8,
                    cards: n + step,
                };
            }
            let c = nibble(self.hands[x], idx);
            // p played the even steps before `step`, q the odd ones.
            let (bp, bq) = (step.div_ceil(2), step / 2);
            if !FIXED && c == UNKNOWN {
                self.hands[p] = shr(self.hands[p], bp);
                self.hands[q] = shr(self.hands[q], bq);
                self.len[p] -= bp as u8;
                self.len[q] -= bq as u8;
                self.n = (n + step) as u8;
                self.next = x as u8;
                return Sim::Unknown;
            }
            let (ap, aq) = if x == p { (bp + 1, bq) } else { (bp, bq + 1) };
            self.hands[p] = shr(self.hands[p], ap);
            self.hands[q] = shr(self.hands[q], aq);
            self.len[p] -= ap as u8;
            self.len[q] -= aq as u8;
            self.pile |= (c as Packed) << (4 * (n + step));
            n += step + 1;
            payer = x ^ 1;
            debt = c as u32;
        }
        // Payment: `payer` owes `debt`; a penalty card hands a new debt back.
        loop {
            let h = self.hands[payer];
            let l = self.len[payer] as u32;
            let z = first_nonzero(h);
            if z < debt && z < l {
                let c = nibble(h, z);
                if !FIXED && c == UNKNOWN {
                    self.hands[payer] = shr(h, z);
                    self.len[payer] -= z as u8;
                    self.n = (n + z) as u8;
                    self.next = payer as u8;
                    self.debt = (debt - z) as u8;
                    return Sim::Unknown;
                }
                self.pile |= (h & low_mask(z + 1)) << (4 * n);
                n += z + 1;
                self.hands[payer] = shr(h, z + 1);
                self.len[payer] -= (z + 1) as u8;
                debt = c as u32;
                payer ^= 1;
            } else if l < debt {
                return Sim::End {
                    winner: (payer ^ 1) as u8,
                    cards: n + l,
                };
            } else {
                self.pile |= (h & low_mask(debt)) << (4 * n);
                n += debt;
                self.hands[payer] = shr(h, debt);
                self.len[payer] -= debt as u8;
                break;
            }
        }
        let w = payer ^ 1;
        // len[w] + n <= MAX_CARDS and n >= 1, so the shift stays below 128.
        self.hands[w] |= self.pile << (4 * self.len[w] as u32);
        self.len[w] += n as u8;
        self.pile = 0;
        self.n = 0;
        self.debt = 0;
        self.next = w as u8;
        self.tricks += 1;
        self.cards += n as u64;
        if self.len[payer] == 0 {
            return Sim::End {
                winner: w as u8,
                cards: 0,
            };
        }
        Sim::Next
    }

    fn hand(&self, p: usize) -> Vec<Card> {
        (0..self.len[p] as u32)
            .map(|i| nibble(self.hands[p], i))
            .collect()
    }
}

/// The fixed data of one search.
struct Ctx {
    /// Where each player's original cards start in the deal.
    offset: [u32; 2],
    n: usize,
    /// Place value of each kind in a `remaining` index.
    stride: [u32; KINDS],
    /// Arrangements of every `remaining` (by index): the weight of a subtree, looked up rather than
    /// computed with divisions in the hot loop.
    weight: Vec<u64>,
}

/// The root node of `deck`: every card unread.
fn root(deck: &DeckSpec) -> (Ctx, Node) {
    let n = deck.total();
    assert!(
        n <= MAX_CARDS,
        "the fast path holds at most {MAX_CARDS} cards"
    );
    let h1 = n.div_ceil(2);
    let all_unknown = |k: usize| {
        if k == 0 {
            0
        } else {
            Packed::MAX >> (128 - 4 * k)
        }
    };
    let mut stride = [0u32; KINDS];
    let mut size = 1u32;
    for (s, &c) in stride.iter_mut().zip(&deck.counts) {
        *s = size;
        size *= c + 1;
    }
    let node = Node {
        hands: [all_unknown(h1), all_unknown(n - h1)],
        pile: 0,
        deal: all_unknown(n),
        len: [h1 as u8, (n - h1) as u8],
        n: 0,
        next: 0,
        debt: 0,
        kinds_left: deck.counts.iter().filter(|&&c| c > 0).count() as u8,
        remaining: deck.counts.map(|c| c as u8),
        read: [0; 2],
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
    let ctx = Ctx {
        offset: [0, h1 as u32],
        n,
        stride,
        weight,
    };
    (ctx, node)
}

/// Tricks a fully fixed game plays in place before the exact cycle engine takes over: more than
/// almost every terminating game of a small deck needs, so Brent's bookkeeping is rarely paid.
const IN_PLACE_TRICKS: u64 = 1000;

/// Plays `node` forward until it needs an unread card (true: the caller branches on it) or its
/// whole subtree is counted into `stats` (false).
#[inline]
fn advance(ctx: &Ctx, node: &mut Node, stats: &mut ExhaustiveStats) -> bool {
    if node.kinds_left <= 1 {
        if node.kinds_left == 1 {
            // Every unread card is now determined: fix them all.
            fill_unknowns(ctx, node);
        }
        play_fixed(ctx, node, stats);
        return false;
    }
    loop {
        match node.trick::<false>() {
            Sim::Unknown => return true,
            Sim::Next => {}
            Sim::End { winner, cards } => {
                let weight = ctx.weight[node.weight_index as usize];
                record_end(ctx, node, stats, weight, winner, cards);
                return false;
            }
        }
    }
}

/// Counts a game that ended with a last (unfinished) trick of `cards` cards, for the `weight`
/// deals of its subtree.
#[inline]
fn record_end(
    ctx: &Ctx,
    node: &Node,
    stats: &mut ExhaustiveStats,
    weight: u64,
    winner: u8,
    cards: u32,
) {
    let tricks = node.tricks + u64::from(cards > 0);
    let played = node.cards + cards as u64;
    stats.deals += weight;
    stats.wins[winner as usize] += weight;
    if stats.may_be_longest(played, tricks) {
        stats.offer_longest(Longest {
            deal: smallest_completion(ctx, node),
            cards: played,
            tricks,
        });
    }
}

/// Plays a node without unread cards (one deal) to its end: in place for [`IN_PLACE_TRICKS`], then
/// with the exact cycle engine.
#[inline]
fn play_fixed(ctx: &Ctx, node: &mut Node, stats: &mut ExhaustiveStats) {
    let limit = node.tricks + IN_PLACE_TRICKS;
    while node.tricks < limit {
        match node.trick::<true>() {
            Sim::Next => {}
            Sim::End { winner, cards } => return record_end(ctx, node, stats, 1, winner, cards),
            Sim::Unknown => unreachable!("every card is fixed"),
        }
    }
    finish(ctx, node, stats);
}

/// The child of `node` in which the unread card on top of `node.next`'s hand is `kind`.
#[inline(always)]
fn child(ctx: &Ctx, node: &Node, kind: usize) -> Node {
    let mut c = *node;
    let player = node.next as usize;
    // The unread card is UNKNOWN (all ones): xor with UNKNOWN ^ kind writes `kind`.
    c.hands[player] ^= (UNKNOWN as Packed) ^ kind as Packed;
    c.remaining[kind] -= 1;
    c.kinds_left -= u8::from(c.remaining[kind] == 0);
    c.weight_index -= ctx.stride[kind];
    let at = ctx.offset[player] + c.read[player] as u32;
    c.deal ^= ((UNKNOWN as Packed) ^ kind as Packed) << (4 * at);
    c.read[player] += 1;
    c
}

/// `h` with every [`UNKNOWN`] among its first `len` cards replaced by `kind`.
fn fill(h: Packed, len: u32, kind: Card) -> Packed {
    // One bit at the bottom of every all-ones nibble; times (UNKNOWN ^ kind) flips each to `kind`
    // without carries. Nibbles past `len` are zero and never match.
    debug_assert!(len == 32 || h >> (4 * len) == 0);
    let unknown = h & (h >> 1) & (h >> 2) & (h >> 3) & LOW_BITS;
    h ^ (unknown * (UNKNOWN ^ kind) as Packed)
}

/// Fixes every unread card to the one kind left.
fn fill_unknowns(ctx: &Ctx, node: &mut Node) {
    let kind = node.remaining.iter().position(|&c| c > 0).unwrap() as Card;
    for p in 0..2 {
        node.hands[p] = fill(node.hands[p], node.len[p] as u32, kind);
    }
    node.deal = fill(node.deal, ctx.n as u32, kind);
    node.remaining = [0; KINDS];
    node.kinds_left = 0;
    node.weight_index = 0;
}

/// The smallest deal of the subtree: the unfixed places filled with the remaining cards in order.
fn smallest_completion(ctx: &Ctx, node: &Node) -> Vec<Card> {
    let mut rest = node.remaining;
    let mut kind = 0;
    (0..ctx.n as u32)
        .map(|i| {
            let d = nibble(node.deal, i);
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
fn finish(ctx: &Ctx, node: &Node, stats: &mut ExhaustiveStats) {
    debug_assert!(node.n == 0 && node.debt == 0, "at a trick boundary");
    let state = Small::from_hands(&node.hand(0), &node.hand(1), node.next);
    let deal: Vec<Card> = (0..ctx.n as u32).map(|i| nibble(node.deal, i)).collect();
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

/// Counts the whole subtree of `node` into `stats`.
fn explore(ctx: &Ctx, mut node: Node, stats: &mut ExhaustiveStats) {
    if advance(ctx, &mut node, stats) {
        for kind in 0..KINDS {
            if node.remaining[kind] > 0 {
                explore(ctx, child(ctx, &node, kind), stats);
            }
        }
    }
}

/// Expands the tree until subtrees hold at most `max_deals` deals: subtrees that finish sooner are
/// counted into `stats`, the others become `tasks`, in a fixed order. (Cutting by weight, not by
/// depth: the subtrees of number cards first are far heavier than the others.)
fn split(
    ctx: &Ctx,
    mut node: Node,
    max_deals: u64,
    tasks: &mut Vec<Node>,
    stats: &mut ExhaustiveStats,
) {
    if ctx.weight[node.weight_index as usize] <= max_deals {
        tasks.push(node);
        return;
    }
    if advance(ctx, &mut node, stats) {
        for kind in 0..KINDS {
            if node.remaining[kind] > 0 {
                let c = child(ctx, &node, kind);
                split(ctx, c, max_deals, tasks, stats);
            }
        }
    }
}

/// The exhaustive search cut into independent tasks.
pub struct Plan {
    ctx: Ctx,
    /// Subtrees counted while planning.
    pub head: ExhaustiveStats,
    tasks: Vec<Node>,
}

impl Plan {
    /// Plans the prefix-sharing search of a two-player deck of at most [`MAX_CARDS`] cards (and at
    /// most `u64::MAX` deals): the tree is cut into subtrees of at most `max_deals` deals.
    pub fn new(deck: &DeckSpec, max_deals: u64) -> Plan {
        let (ctx, node) = root(deck);
        let mut head = ExhaustiveStats::new(2);
        let mut tasks = Vec::new();
        split(&ctx, node, max_deals, &mut tasks, &mut head);
        Plan { ctx, head, tasks }
    }

    pub fn tasks(&self) -> usize {
        self.tasks.len()
    }

    /// Counts the subtree of task `i`.
    pub fn run_task(&self, i: usize) -> ExhaustiveStats {
        let mut stats = ExhaustiveStats::new(2);
        explore(&self.ctx, self.tasks[i], &mut stats);
        stats
    }
}

/// Single-threaded prefix-sharing search of a whole deck (tests and small decks).
pub fn prefix_sharing(deck: &DeckSpec) -> ExhaustiveStats {
    let plan = Plan::new(deck, u64::MAX);
    let mut stats = plan.head.clone();
    for i in 0..plan.tasks() {
        stats.merge(plan.run_task(i));
    }
    stats
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packed(cards: &[Card]) -> Packed {
        cards
            .iter()
            .enumerate()
            .fold(0, |h, (i, &c)| h | (c as Packed) << (4 * i))
    }

    /// The bit-scan trick against the reference engine's trick, on random positions.
    #[test]
    fn packed_trick_equals_reference_trick() {
        use crate::engine::reference::{Trick, trick};
        use crate::position::Position;
        let mut rng = crate::rng::SplitMix64::new(5);
        for _ in 0..200_000 {
            let n = 1 + rng.below(32) as usize;
            let cards: Vec<Card> = (0..n)
                .map(|_| [0, 0, 0, 1, 2, 3, 4][rng.below(7) as usize])
                .collect();
            let split = rng.below(n as u64 + 1) as usize;
            let to_move = rng.below(2) as u8;
            let pos = Position::new(cards[..split].to_vec(), cards[split..].to_vec(), to_move);
            let mut node = Node {
                hands: [packed(&pos.hands[0]), packed(&pos.hands[1])],
                pile: 0,
                deal: 0,
                len: [split as u8, (n - split) as u8],
                n: 0,
                next: to_move,
                debt: 0,
                kinds_left: 0,
                remaining: [0; KINDS],
                read: [0; 2],
                weight_index: 0,
                tricks: 0,
                cards: 0,
            };
            match (trick(&pos), node.trick::<true>()) {
                (Trick::Next { next, cards }, Sim::Next) => {
                    assert_eq!((cards, node.tricks), (node.cards, 1), "{pos}");
                    assert_eq!(
                        (node.hand(0), node.hand(1), node.next),
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
    fn prefix_sharing_agrees_with_naive_on_a_small_deck() {
        let deck: DeckSpec = "3-1J1Q1K".parse().unwrap();
        let all = deal_count(&deck).unwrap();
        assert_eq!(prefix_sharing(&deck), naive(&deck, 2, 0..all));
    }
}
