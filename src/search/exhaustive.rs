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
use crate::engine::lanes::{Finish, Game, Isa, Lanes, shr};
use crate::engine::multi::{self, MultiOutcome, MultiPosition};

/// The most cards the fast (prefix-sharing) path takes: a hand packs into a `u128`. (Larger decks
/// have far too many deals to exhaust anyway.)
pub const MAX_CARDS: usize = 32;

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

/// The deal as the search fixes it: four bits a card in deal order, [`UNKNOWN`] where not fixed.
type Packed = u128;

/// A card of the deal not fixed yet.
const UNKNOWN: Card = 0xF;

#[inline(always)]
fn nibble(h: Packed, i: u32) -> Card {
    ((h >> (4 * i)) & 0xF) as Card
}

/// A node of the prefix-sharing search: the game (in the lanes' compact form), possibly in the
/// middle of a trick, with the original cards not read yet. Unread cards are always the top of a
/// hand's original cards, so they sit together near the top of the hand (cards won go below),
/// below at most one card fixed but not played yet; `unknown[p]` marks them. They count as
/// penalty cards in `faces`, so every scan stops at them; their `kinds` bits are 0. A node that needs an unread card stops *at* it, with every
/// card before it played: the unread card is then the top of the hand of `game.next`, and the
/// children go on from there without replaying the start of the trick.
#[derive(Clone, Copy)]
pub struct Node {
    game: Game,
    /// The deal in deal order; [`UNKNOWN`] where not fixed.
    deal: Packed,
    /// Unread cards of each hand (bit `i`: card `i` from the top).
    unknown: [u32; 2],
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

impl Node {
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
            let zp = g.faces[p].trailing_zeros().min(g.len[p]);
            let zq = g.faces[q].trailing_zeros().min(g.len[q]);
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
            if !FIXED && shr(self.unknown[x], idx) & 1 == 1 {
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
            let z = self.game.faces[payer].trailing_zeros();
            if z < debt.min(l) {
                if !FIXED && shr(self.unknown[payer], z) & 1 == 1 {
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
            self.unknown[p] = shr(self.unknown[p], k);
        }
    }

    /// A copy for a child, the fields [`Node::trick`] writes read one by one (see
    /// [`Game::fresh_copy`]).
    #[inline(always)]
    fn fork(&self) -> Node {
        // SAFETY: each pointer comes from a reference to an initialised, aligned field.
        let v = |x: &u32| unsafe { std::ptr::read_volatile(x) };
        let v64 = |x: &u64| unsafe { std::ptr::read_volatile(x) };
        Node {
            game: self.game.fresh_copy(),
            unknown: [v(&self.unknown[0]), v(&self.unknown[1])],
            tricks: v64(&self.tricks),
            cards: v64(&self.cards),
            ..*self
        }
    }

    /// Hand `p` as penalties (unread cards, if any, as [`UNKNOWN`]).
    fn hand(&self, p: usize) -> Vec<Card> {
        (0..self.game.len[p])
            .map(|i| {
                if self.unknown[p] >> i & 1 == 1 {
                    UNKNOWN
                } else {
                    self.game.card(p, i)
                }
            })
            .collect()
    }
}

/// The fixed data of one search.
struct Ctx {
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
fn root(deck: &DeckSpec, lanes: bool, extra: Extra) -> (Ctx, Node) {
    let n = deck.total();
    assert!(
        n <= MAX_CARDS,
        "the fast path holds at most {MAX_CARDS} cards"
    );
    let h1 = extra.first_hand(n);
    let dealt = [h1 as u32, (n - h1) as u32];
    let mut stride = [0u32; KINDS];
    let mut size = 1u32;
    for (s, &c) in stride.iter_mut().zip(&deck.counts) {
        *s = size;
        size *= c + 1;
    }
    let all = |k: u32| if k >= 32 { u32::MAX } else { (1u32 << k) - 1 };
    let node = Node {
        game: Game {
            faces: dealt.map(all),
            len: dealt,
            ..Game::default()
        },
        deal: if n == 0 {
            0
        } else {
            Packed::MAX >> (128 - 4 * n)
        },
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
struct Leaf {
    deal: Packed,
    tricks: u64,
    cards: u64,
}

impl Leaf {
    fn node(&self, game: Game) -> Node {
        Node {
            game,
            deal: self.deal,
            unknown: [0; 2],
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
pub struct Scratch {
    leaves: Vec<Leaf>,
    games: Vec<Game>,
    lanes: Lanes,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            leaves: Vec::with_capacity(BATCH),
            games: Vec::with_capacity(BATCH),
            lanes: Lanes::default(),
        }
    }
}

/// Plays `node` forward until it needs an unread card (true: the caller branches on it) or its
/// whole subtree is counted into `stats` (false), perhaps later: fully fixed games wait in
/// `scratch` for [`flush`].
#[inline]
fn advance(ctx: &Ctx, node: &mut Node, stats: &mut ExhaustiveStats, scratch: &mut Scratch) -> bool {
    if node.present & node.present.wrapping_sub(1) == 0 {
        if node.present != 0 {
            // Every unread card is now determined: fix them all.
            fill_unknowns(node);
        }
        if ctx.lanes {
            scratch.leaves.push(Leaf {
                deal: node.deal,
                tricks: node.tricks,
                cards: node.cards,
            });
            scratch.games.push(node.game.fresh_copy());
            if scratch.leaves.len() == BATCH {
                flush(ctx, stats, scratch);
            }
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

/// Plays the fully fixed games waiting in `scratch` in the lanes and counts them.
fn flush(ctx: &Ctx, stats: &mut ExhaustiveStats, scratch: &mut Scratch) {
    let Scratch {
        leaves,
        games,
        lanes,
    } = scratch;
    // Wins are counted here and added once; only a game at least as long as the longest so far
    // (rare) goes through `record` for its deal.
    let mut wins = [0u64; 2];
    let mut bar = stats.longest.as_ref().map(|l| (l.cards, l.tricks));
    lanes.run(games, IN_PLACE_TRICKS as u32, |i, finish| match finish {
        Finish::Won {
            winner,
            tricks,
            cards,
        } => {
            let leaf = &leaves[i];
            let (tricks, played) = (leaf.tricks + tricks, leaf.cards + cards);
            if bar.is_none_or(|b| (played, tricks) >= b) {
                record(
                    ctx,
                    leaf.deal,
                    &[0; KINDS],
                    stats,
                    0,
                    winner,
                    tricks,
                    played,
                );
                bar = stats.longest.as_ref().map(|l| (l.cards, l.tricks));
            }
            wins[winner as usize & 1] += 1;
        }
        // Rare: play it again, one by one, on to the cycle engine.
        Finish::TooLong => play_fixed(ctx, &mut leaves[i].node(games[i]), stats),
    });
    stats.deals += wins[0] + wins[1];
    stats.wins[0] += wins[0];
    stats.wins[1] += wins[1];
    leaves.clear();
    games.clear();
}

/// Counts a game that ended after `tricks` tricks and `played` cards, for the `weight` deals of
/// its subtree.
#[inline]
fn record_end(
    ctx: &Ctx,
    node: &Node,
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
fn record(
    ctx: &Ctx,
    deal: Packed,
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
fn play_fixed(ctx: &Ctx, node: &mut Node, stats: &mut ExhaustiveStats) {
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
fn child(ctx: &Ctx, node: &Node, kind: usize) -> Node {
    let mut c = *node;
    fix(ctx, &mut c, kind);
    c
}

/// Fixes the unread card on top of `node.game.next`'s hand to `kind`: `node` becomes that child.
#[inline(always)]
fn fix(ctx: &Ctx, c: &mut Node, kind: usize) {
    let p = c.game.next as usize;
    // The unread card counts as a penalty card of kind 1.
    c.game.set(p, 0, kind as Card);
    c.unknown[p] &= !1;
    c.remaining[kind] -= 1;
    c.present &= !(u8::from(c.remaining[kind] == 0) << kind);
    c.weight_index -= ctx.stride[kind];
    let at = ctx.offset[p] + ctx.dealt[p] - c.unread[p];
    c.deal ^= ((UNKNOWN as Packed) ^ kind as Packed) << (4 * at);
    c.unread[p] -= 1;
}

/// Fixes every unread card to the one kind left.
fn fill_unknowns(node: &mut Node) {
    let kind = node.present.trailing_zeros() as usize;
    for p in 0..2 {
        node.game.set_all(p, node.unknown[p], kind as Card);
        node.unknown[p] = 0;
        node.unread[p] = 0;
    }
    // One bit at the bottom of every all-ones nibble of the deal; times (UNKNOWN ^ kind) flips
    // each to `kind` without carries.
    let d = node.deal;
    let unknown = d & (d >> 1) & (d >> 2) & (d >> 3) & (Packed::MAX / 0xF);
    node.deal = d ^ (unknown * (UNKNOWN ^ kind as Card) as Packed);
    node.remaining = [0; KINDS];
    node.present = 0;
    node.weight_index = 0;
}

/// The smallest deal of the subtree: the unfixed places filled with the remaining cards in order.
fn smallest_completion(ctx: &Ctx, deal: Packed, remaining: &[u8; KINDS]) -> Vec<Card> {
    let mut rest = *remaining;
    let mut kind = 0;
    (0..ctx.n as u32)
        .map(|i| {
            let d = nibble(deal, i);
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
    debug_assert!(
        node.game.n == 0 && node.game.debt == 0,
        "at a trick boundary"
    );
    let state = Small::from_hands(&node.hand(0), &node.hand(1), node.game.next as u8);
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

/// Counts the whole subtree of `node` into `stats` (fully fixed games may wait in `scratch`);
/// `node` is used up as scratch. The children of a branch are independent and counted in any
/// order: the other kinds branch off in copies, and the node itself goes on as its number-card
/// child (the largest subtree), with no copy and no recursion.
///
/// The node goes by reference and each copy is fixed where it will be explored: a child built
/// and then passed by value was copied twice, and the second copy's wide loads of fields just
/// written narrowly by [`fix`] missed store forwarding (a quarter of this function's time).
fn explore(ctx: &Ctx, node: &mut Node, stats: &mut ExhaustiveStats, scratch: &mut Scratch) {
    while advance(ctx, node, stats, scratch) {
        let present = node.present;
        let keep = present.trailing_zeros() as usize;
        let mut kinds = present & (present - 1);
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
fn split(
    ctx: &Ctx,
    mut node: Node,
    max_deals: u64,
    tasks: &mut Vec<Node>,
    stats: &mut ExhaustiveStats,
    scratch: &mut Scratch,
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
    /// Fully fixed games go to the [`Lanes`] when the processor has AVX-512 (see [`Isa`]);
    /// without it they are played one by one, which is faster than lanes without vector units.
    pub fn new(deck: &DeckSpec, max_deals: u64) -> Plan {
        Plan::new_split(deck, max_deals, Extra::First)
    }

    /// [`Plan::new`] with the extra card of an odd deck where `extra` says.
    pub fn new_split(deck: &DeckSpec, max_deals: u64, extra: Extra) -> Plan {
        Plan::with_split(deck, max_deals, Isa::get() == Isa::Avx512, extra)
    }

    /// [`Plan::new`] with the choice of engine for fully fixed games made by the caller (the
    /// answer is the same either way; tests and benchmarks compare them).
    pub fn with_lanes(deck: &DeckSpec, max_deals: u64, lanes: bool) -> Plan {
        Plan::with_split(deck, max_deals, lanes, Extra::First)
    }

    /// [`Plan::with_lanes`] with the extra card of an odd deck where `extra` says.
    pub fn with_split(deck: &DeckSpec, max_deals: u64, lanes: bool, extra: Extra) -> Plan {
        let (ctx, node) = root(deck, lanes, extra);
        let mut head = ExhaustiveStats::new(2);
        let mut tasks = Vec::new();
        let mut scratch = Scratch::default();
        split(&ctx, node, max_deals, &mut tasks, &mut head, &mut scratch);
        flush(&ctx, &mut head, &mut scratch);
        Plan { ctx, head, tasks }
    }

    pub fn tasks(&self) -> usize {
        self.tasks.len()
    }

    /// Counts the subtree of task `i`.
    pub fn run_task(&self, i: usize) -> ExhaustiveStats {
        let mut stats = ExhaustiveStats::new(2);
        let mut scratch = Scratch::default();
        let mut node = self.tasks[i];
        explore(&self.ctx, &mut node, &mut stats, &mut scratch);
        flush(&self.ctx, &mut stats, &mut scratch);
        stats
    }
}

/// Single-threaded prefix-sharing search of a whole deck (tests and small decks).
pub fn prefix_sharing(deck: &DeckSpec) -> ExhaustiveStats {
    prefix_sharing_with(deck, Isa::get() == Isa::Avx512)
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

    /// The one-by-one trick against the reference engine's trick, on random positions.
    #[test]
    fn node_trick_equals_reference_trick() {
        use crate::engine::reference::{Trick, trick};
        for pos in crate::engine::lanes::random_positions(5, 200_000, 32) {
            let to_move = pos.to_move;
            let mut node = Node {
                game: Game::from_hands(&pos.hands[0], &pos.hands[1], to_move as u32),
                deal: 0,
                unknown: [0; 2],
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
