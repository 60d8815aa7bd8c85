//! Exhaustive search of a small deck: every distinct deal (arrangement of the multiset, hands split
//! as equally as possible, player 1 first), counted by outcome.
//!
//! The fast path shares prefixes. A game reads each player's original cards in order, and until it
//! has read one its course cannot depend on it. So the search plays one game per *set of deals that
//! agree on every card read so far*: when a player must play an original card not yet fixed, it
//! branches over the kinds still left in the multiset; when the game ends first, the whole subtree
//! (every arrangement of the unfixed cards: a multinomial) shares its winner, tricks and cards. When
//! every card is fixed the rest of the game is played by the exact cycle engine. [`naive`] plays
//! every deal separately (rank/unrank + engine) and is the checker.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::multiset::{multinomial, multinomial_u64, next_arrangement, unrank};
use crate::card::{Card, DeckSpec, KINDS};
use crate::engine::Outcome;
use crate::engine::cycle::play_state;
use crate::engine::fast::Small;
use crate::engine::multi::{self, MultiOutcome, MultiPosition};

/// The most cards the fast (prefix-sharing) path takes: the stack layout's capacity.
pub const MAX_CARDS: usize = 64;

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
pub fn play_deal(cards: &[Card], players: usize, stats: &mut ExhaustiveStats, scratch: &mut multi::Scratch) {
    let (winner, tricks, played) = if players == 2 && cards.len() <= MAX_CARDS {
        let h1 = cards.len().div_ceil(2);
        match play_state(&Small::from_hands(&cards[..h1], &cards[h1..], 0)) {
            Outcome::Terminates { winner, tricks, cards } => (winner, tricks, cards),
            Outcome::Cycle(c) => {
                stats.add_cycle(c.cycle_id.to_string(), c.period, 1);
                return;
            }
        }
    } else {
        match multi::play(&MultiPosition::deal(cards, players), scratch) {
            MultiOutcome::Terminates { winner, tricks, cards } => (winner, tricks, cards),
            MultiOutcome::Cycle { period, cycle_id, .. } => {
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
const UNKNOWN: Card = 0xFF;
const MASK: u8 = MAX_CARDS as u8 - 1;

/// A node of the prefix-sharing search: the game at a trick boundary, with the original cards not
/// read yet marked [`UNKNOWN`]. Unread cards are always the top of a hand's original cards, so
/// they sit together at the top of the hand, and cards won are appended below them.
#[derive(Clone, Copy)]
pub struct Node {
    buf: [[Card; MAX_CARDS]; 2],
    head: [u8; 2],
    len: [u8; 2],
    to_move: u8,
    /// Cards of each kind not fixed yet.
    remaining: [u8; KINDS],
    /// Original cards of each player fixed so far (read in order).
    read: [u8; 2],
    tricks: u64,
    cards: u64,
    /// Index of `remaining` in `Ctx::weight` (mixed radix).
    weight_index: u32,
    /// The deal, in deal order; [`UNKNOWN`] where not fixed.
    deal: [Card; MAX_CARDS],
}

/// What one trick of a node did.
enum Sim {
    /// `player` must play the unread card at ring slot `slot`.
    Unknown { player: usize, slot: usize },
    Next { cards: u32 },
    End { winner: u8, cards: u32 },
}

impl Node {
    #[inline(always)]
    fn pop(&mut self, p: usize) -> Option<Result<Card, usize>> {
        if self.len[p] == 0 {
            return None;
        }
        let slot = (self.head[p] & MASK) as usize;
        let c = self.buf[p][slot];
        if c == UNKNOWN {
            return Some(Err(slot));
        }
        self.head[p] = self.head[p].wrapping_add(1) & MASK;
        self.len[p] -= 1;
        Some(Ok(c))
    }

    /// One trick, the rules of `engine::fast` with a stop at the first unread card.
    #[inline]
    fn trick(&mut self, pile: &mut [Card; MAX_CARDS]) -> Sim {
        if self.len[0] == 0 || self.len[1] == 0 {
            let winner = u8::from(self.len[1] > 0);
            return Sim::End { winner, cards: 0 };
        }
        let mut p = self.to_move as usize;
        let mut n = 0usize;
        let mut debt;
        macro_rules! play {
            () => {
                match self.pop(p) {
                    None => {
                        return Sim::End {
                            winner: (p ^ 1) as u8,
                            cards: n as u32,
                        };
                    }
                    Some(Err(slot)) => return Sim::Unknown { player: p, slot },
                    Some(Ok(c)) => {
                        pile[n] = c;
                        n += 1;
                        c
                    }
                }
            };
        }
        loop {
            let c = play!();
            p ^= 1;
            if c != 0 {
                debt = c;
                break;
            }
        }
        'pay: loop {
            for _ in 0..debt {
                let c = play!();
                if c != 0 {
                    debt = c;
                    p ^= 1;
                    continue 'pay;
                }
            }
            break;
        }
        let w = p ^ 1;
        let mut tail = self.head[w].wrapping_add(self.len[w]);
        for &c in &pile[..n] {
            self.buf[w][(tail & MASK) as usize] = c;
            tail = tail.wrapping_add(1);
        }
        self.len[w] += n as u8;
        self.to_move = w as u8;
        if self.len[p] == 0 {
            return Sim::End {
                winner: w as u8,
                cards: n as u32,
            };
        }
        Sim::Next { cards: n as u32 }
    }

    fn hand(&self, p: usize) -> impl Iterator<Item = Card> + '_ {
        (0..self.len[p]).map(move |i| self.buf[p][(self.head[p].wrapping_add(i) & MASK) as usize])
    }
}

/// The fixed data of one search.
struct Ctx {
    /// Where each player's original cards start in the deal.
    offset: [usize; 2],
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
    assert!(n <= MAX_CARDS, "the fast path holds at most {MAX_CARDS} cards");
    let h1 = n.div_ceil(2);
    let mut node = Node {
        buf: [[UNKNOWN; MAX_CARDS]; 2],
        head: [0; 2],
        len: [h1 as u8, (n - h1) as u8],
        to_move: 0,
        remaining: deck.counts.map(|c| c as u8),
        read: [0; 2],
        tricks: 0,
        cards: 0,
        weight_index: 0,
        deal: [UNKNOWN; MAX_CARDS],
    };
    if n == h1 {
        // One card: player 2 has none and has already lost.
        node.len[1] = 0;
    }
    let mut stride = [0u32; KINDS];
    let mut size = 1u32;
    for k in 0..KINDS {
        stride[k] = size;
        size *= deck.counts[k] + 1;
    }
    node.weight_index = (0..KINDS).map(|k| deck.counts[k] * stride[k]).sum();
    let weight = (0..size)
        .map(|i| {
            let counts: [u8; KINDS] = std::array::from_fn(|k| ((i / stride[k]) % (deck.counts[k] + 1)) as u8);
            multinomial_u64(&counts)
        })
        .collect();
    let ctx = Ctx {
        offset: [0, h1],
        n,
        stride,
        weight,
    };
    (ctx, node)
}

/// What [`advance`] left to do.
enum Advance {
    /// The subtree is counted.
    Done,
    /// The game needs the unread card of `player` at `slot`.
    Branch { player: usize, slot: usize },
}

/// Tricks a fully fixed game plays in place before the exact cycle engine takes over: more than
/// almost every terminating game of a small deck needs, so Brent's bookkeeping is rarely paid.
const IN_PLACE_TRICKS: u64 = 1000;

/// Plays `node` forward until it must branch or its whole subtree is counted into `stats`.
fn advance(ctx: &Ctx, node: &mut Node, stats: &mut ExhaustiveStats, pile: &mut [Card; MAX_CARDS]) -> Advance {
    let kinds_left = node.remaining.iter().filter(|&&c| c > 0).count();
    if kinds_left == 1 {
        // Every unread card is now determined: fix them all.
        fill_unknowns(ctx, node);
    }
    let fixed = kinds_left <= 1;
    let limit = node.tricks + IN_PLACE_TRICKS;
    loop {
        if fixed && node.tricks >= limit {
            finish(ctx, node, stats);
            return Advance::Done;
        }
        // A trick that stops at an unread card has only popped cards (pushes come at its end), so
        // restoring the heads, lengths and mover undoes it without copying the node.
        let saved = (node.head, node.len, node.to_move);
        match node.trick(pile) {
            Sim::Unknown { player, slot } => {
                (node.head, node.len, node.to_move) = saved;
                return Advance::Branch { player, slot };
            }
            Sim::Next { cards } => {
                node.tricks += 1;
                node.cards += cards as u64;
            }
            Sim::End { winner, cards } => {
                let weight = if fixed { 1 } else { ctx.weight[node.weight_index as usize] };
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
                return Advance::Done;
            }
        }
    }
}

/// The child of `node` in which the unread card at `slot` of `player` is `kind`.
#[inline]
fn child(ctx: &Ctx, node: &Node, player: usize, slot: usize, kind: usize) -> Node {
    let mut c = *node;
    c.buf[player][slot] = kind as Card;
    c.remaining[kind] -= 1;
    c.weight_index -= ctx.stride[kind];
    c.deal[ctx.offset[player] + c.read[player] as usize] = kind as Card;
    c.read[player] += 1;
    c
}

/// Fixes every unread card to the one kind left.
fn fill_unknowns(ctx: &Ctx, node: &mut Node) {
    let kind = node.remaining.iter().position(|&c| c > 0).unwrap() as Card;
    for p in 0..2 {
        for i in 0..node.len[p] {
            let slot = (node.head[p].wrapping_add(i) & MASK) as usize;
            if node.buf[p][slot] == UNKNOWN {
                node.buf[p][slot] = kind;
            }
        }
    }
    for d in &mut node.deal[..ctx.n] {
        if *d == UNKNOWN {
            *d = kind;
        }
    }
    node.remaining = [0; KINDS];
    node.weight_index = 0;
}

/// The smallest deal of the subtree: the unfixed places filled with the remaining cards in order.
fn smallest_completion(ctx: &Ctx, node: &Node) -> Vec<Card> {
    let mut rest = node.remaining;
    let mut kind = 0;
    node.deal[..ctx.n]
        .iter()
        .map(|&d| {
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
    let mut h = [[0 as Card; MAX_CARDS]; 2];
    for p in 0..2 {
        for (i, c) in node.hand(p).enumerate() {
            h[p][i] = c;
        }
    }
    let state = Small::from_hands(&h[0][..node.len[0] as usize], &h[1][..node.len[1] as usize], node.to_move);
    match play_state(&state) {
        Outcome::Terminates { winner, tricks, cards } => {
            let tricks = node.tricks + tricks;
            let played = node.cards + cards;
            stats.deals += 1;
            stats.wins[winner as usize] += 1;
            if stats.may_be_longest(played, tricks) {
                stats.offer_longest(Longest {
                    deal: node.deal[..ctx.n].to_vec(),
                    cards: played,
                    tricks,
                });
            }
        }
        Outcome::Cycle(_) => {
            // Rare: replay the whole deal for the cycle's id and period.
            let deal = &node.deal[..ctx.n];
            let h1 = ctx.offset[1];
            let Outcome::Cycle(c) = play_state(&Small::from_hands(&deal[..h1], &deal[h1..], 0)) else {
                unreachable!("the same deal cycles from its start")
            };
            stats.add_cycle(c.cycle_id.to_string(), c.period, 1);
        }
    }
}

/// Counts the whole subtree of `node` into `stats`.
fn explore(ctx: &Ctx, mut node: Node, stats: &mut ExhaustiveStats, pile: &mut [Card; MAX_CARDS]) {
    if let Advance::Branch { player, slot } = advance(ctx, &mut node, stats, pile) {
        for kind in 0..KINDS {
            if node.remaining[kind] > 0 {
                explore(ctx, child(ctx, &node, player, slot, kind), stats, pile);
            }
        }
    }
}

/// Expands the tree until `depth` cards are fixed: subtrees that finish sooner are counted into
/// `stats`, the others become `tasks`, in a fixed order.
fn split(ctx: &Ctx, mut node: Node, depth: usize, tasks: &mut Vec<Node>, stats: &mut ExhaustiveStats, pile: &mut [Card; MAX_CARDS]) {
    if (node.read[0] + node.read[1]) as usize >= depth {
        tasks.push(node);
        return;
    }
    if let Advance::Branch { player, slot } = advance(ctx, &mut node, stats, pile) {
        for kind in 0..KINDS {
            if node.remaining[kind] > 0 {
                split(ctx, child(ctx, &node, player, slot, kind), depth, tasks, stats, pile);
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
    /// Plans the prefix-sharing search of a two-player deck of at most [`MAX_CARDS`] cards: the
    /// tree is cut where `depth` cards are fixed.
    pub fn new(deck: &DeckSpec, depth: usize) -> Plan {
        let (ctx, node) = root(deck);
        let mut head = ExhaustiveStats::new(2);
        let mut tasks = Vec::new();
        let mut pile = [0; MAX_CARDS];
        split(&ctx, node, depth, &mut tasks, &mut head, &mut pile);
        Plan { ctx, head, tasks }
    }

    pub fn tasks(&self) -> usize {
        self.tasks.len()
    }

    /// Counts the subtree of task `i`.
    pub fn run_task(&self, i: usize) -> ExhaustiveStats {
        let mut stats = ExhaustiveStats::new(2);
        let mut pile = [0; MAX_CARDS];
        explore(&self.ctx, self.tasks[i], &mut stats, &mut pile);
        stats
    }
}

/// Single-threaded prefix-sharing search of a whole deck (tests and small decks).
pub fn prefix_sharing(deck: &DeckSpec) -> ExhaustiveStats {
    let plan = Plan::new(deck, 0);
    let mut stats = plan.head.clone();
    for i in 0..plan.tasks() {
        stats.merge(plan.run_task(i));
    }
    stats
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_sharing_agrees_with_naive_on_a_small_deck() {
        let deck: DeckSpec = "3-1J1Q1K".parse().unwrap();
        let all = deal_count(&deck).unwrap();
        assert_eq!(prefix_sharing(&deck), naive(&deck, 2, 0..all));
    }
}
