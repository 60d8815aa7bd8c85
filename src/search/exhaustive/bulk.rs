//! Fully fixed games of the tree walk played in bulk: the counting batch handed to the lanes
//! (`u32` up to 34 cards, `u64` past that), or one by one where the processor has no vector
//! lanes, and the counting of what they report.

use super::fixed::{IN_PLACE_TRICKS, Leaf, play_fixed, record};
use super::node::{Ctx, NARROW_CARDS, Width};
use super::packed::Packed;
use super::stats::ExhaustiveStats;
use crate::card::KINDS;
use crate::engine::game::Game;
use crate::engine::lanes::tally::{BATCH, TallyBatch, TallyPlane};

/// How a width's fully fixed games are played in bulk.
pub trait Batched: Width {
    /// Plays the fully fixed games waiting in `scratch` and counts them.
    fn flush(ctx: &Ctx, stats: &mut ExhaustiveStats, scratch: &mut Waiting<Self>);
    /// Queues a fully fixed game (`game`, from `leaf`) for the bulk engine, and plays the batch
    /// when it is full.
    fn push(
        ctx: &Ctx,
        stats: &mut ExhaustiveStats,
        scratch: &mut Waiting<Self>,
        leaf: Leaf<Self>,
        game: &Game<Self>,
    );
}

impl Batched for u32 {
    fn flush(ctx: &Ctx, stats: &mut ExhaustiveStats, scratch: &mut Waiting<u32>) {
        flush(ctx, stats, scratch)
    }
    #[inline(always)]
    fn push(
        ctx: &Ctx,
        stats: &mut ExhaustiveStats,
        scratch: &mut Waiting<u32>,
        leaf: Leaf<u32>,
        game: &Game<u32>,
    ) {
        push_narrow(ctx, stats, scratch, leaf, game)
    }
}

impl Batched for u64 {
    fn flush(ctx: &Ctx, stats: &mut ExhaustiveStats, scratch: &mut Waiting<u64>) {
        flush(ctx, stats, scratch)
    }
    #[inline(always)]
    fn push(
        ctx: &Ctx,
        stats: &mut ExhaustiveStats,
        scratch: &mut Waiting<u64>,
        leaf: Leaf<u64>,
        game: &Game<u64>,
    ) {
        push_wide(ctx, stats, scratch, leaf, game)
    }
}

/// Waiting of the lanes: with vector lanes (`tally::TallyBatch::available`) the batch is
/// written straight into the lanes' arrays and counted there; else the games wait in
/// `Waiting::games` and are played one by one.
pub struct Bulk<W> {
    pub(super) batch: TallyBatch<W>,
    /// Whether `batch` is used (`TallyBatch::available`, looked up once).
    pub(super) tally: bool,
}

impl<W: TallyPlane> Default for Bulk<W> {
    fn default() -> Self {
        let tally = TallyBatch::<W>::available();
        Bulk {
            // Only allocated where it is used.
            batch: if tally {
                TallyBatch::default()
            } else {
                TallyBatch::empty()
            },
            tally,
        }
    }
}

/// The search's scratch: the fully fixed games waiting for the lanes.
pub struct Waiting<W: Width> {
    pub(super) leaves: Vec<Leaf<W>>,
    pub(super) games: Vec<Game<W>>,
    pub(super) lanes: Bulk<W>,
}

impl<W: Width> Default for Waiting<W> {
    fn default() -> Self {
        Waiting {
            leaves: Vec::with_capacity(BATCH),
            games: Vec::with_capacity(BATCH),
            lanes: Default::default(),
        }
    }
}

impl<W: Width> Waiting<W> {
    /// Whether no game waits (as after a flush).
    pub(super) fn is_empty(&self) -> bool {
        self.leaves.is_empty() && self.games.is_empty() && self.lanes.batch.len() == 0
    }
}

/// Queues a fully fixed game of the narrow form (at most 32 cards, or 34: `narrow_walk`):
/// straight into the lanes' arrays where the processor's lanes tally ([`TallyBatch`]), else into
/// `scratch.games`; plays the batch when it is full.
#[inline(always)]
pub(super) fn push_narrow(
    ctx: &Ctx,
    stats: &mut ExhaustiveStats,
    scratch: &mut Waiting<u32>,
    leaf: Leaf<u32>,
    game: &Game<u32>,
) {
    if scratch.lanes.tally {
        // A game of 33 or 34 cards must count within the kinds lanes' 16 bits: when it might
        // not (never in practice: a leaf is made within the first few hundred cards), it is
        // played on here.
        let limit = IN_PLACE_TRICKS as u32;
        if ctx.n > NARROW_CARDS && !TallyBatch::<u32>::counts_fit(leaf.cards, ctx.n as u32, limit) {
            return play_fixed(ctx, &mut leaf.node(*game), stats);
        }
    }
    enqueue(ctx, stats, scratch, leaf, game);
}

/// Queues a fully fixed game of a deck of more than 32 cards: straight into the `u64` lanes'
/// arrays where the processor's lanes tally ([`TallyBatch`]), else into `scratch.games`; plays
/// the batch when it is full.
#[inline(always)]
pub(super) fn push_wide(
    ctx: &Ctx,
    stats: &mut ExhaustiveStats,
    scratch: &mut Waiting<u64>,
    leaf: Leaf<u64>,
    game: &Game<u64>,
) {
    enqueue(ctx, stats, scratch, leaf, game);
}

/// Queues a fully fixed game into the lanes' arrays where they tally, else into `scratch.games`;
/// plays the batch when it is full.
#[inline(always)]
fn enqueue<W: Width>(
    ctx: &Ctx,
    stats: &mut ExhaustiveStats,
    scratch: &mut Waiting<W>,
    leaf: Leaf<W>,
    game: &Game<W>,
) {
    if scratch.lanes.tally {
        if !queue(ctx, stats, &mut scratch.lanes.batch, leaf, game) {
            return;
        }
    } else {
        scratch.games.push(*game);
    }
    scratch.leaves.push(leaf);
    if scratch.leaves.len() == BATCH {
        flush(ctx, stats, scratch);
    }
}

/// Puts `game` (of `leaf`) into `batch`, or records it at once when it is over before its first
/// move (the lanes take only games with a move to make; none reaches here in practice: a leaf is
/// made when a player is about to play). Whether it was queued. `leaf` comes by value: taken by
/// reference it was built on the stack and copied into the batch by wide loads of fresh narrow
/// stores, a store-forwarding stall at every leaf.
#[inline(always)]
pub(super) fn queue<W: Width>(
    ctx: &Ctx,
    stats: &mut ExhaustiveStats,
    batch: &mut TallyBatch<W>,
    leaf: Leaf<W>,
    game: &Game<W>,
) -> bool {
    if let Some(winner) = game.over_at_start() {
        let (tricks, cards) = (leaf.tricks, leaf.cards);
        record(ctx, leaf.deal, &[0; KINDS], stats, 1, winner, tricks, cards);
        return false;
    }
    batch.push(game, leaf.cards);
    true
}

/// Plays the fully fixed games waiting in `scratch` and counts them: in the lanes' batch, or one
/// by one without vector lanes.
pub(super) fn flush<W: Width>(ctx: &Ctx, stats: &mut ExhaustiveStats, scratch: &mut Waiting<W>) {
    let Waiting {
        leaves,
        games,
        lanes,
    } = scratch;
    if !lanes.tally {
        for (leaf, game) in leaves.iter().zip(games.iter()) {
            play_fixed(ctx, &mut leaf.node(*game), stats);
        }
        leaves.clear();
        games.clear();
        return;
    }
    flush_batch(ctx, stats, leaves, &mut lanes.batch)
}

/// Plays the games of `batch` (from `leaves`) in the lanes, counting them there, and records the
/// special ones.
pub(super) fn flush_batch<W: Width>(
    ctx: &Ctx,
    stats: &mut ExhaustiveStats,
    leaves: &mut Vec<Leaf<W>>,
    batch: &mut TallyBatch<W>,
) {
    debug_assert_eq!(batch.len(), leaves.len());
    if leaves.is_empty() {
        return;
    }
    // A game at least as long as the longest so far is special: it comes back from the lanes
    // for `won` to compare (with no longest yet, every game does).
    let bar = stats
        .longest
        .as_ref()
        .map_or(0, |l| u32::try_from(l.cards).unwrap_or(u32::MAX));
    if !batch.run(IN_PLACE_TRICKS as u32, bar) {
        // Lanes that cannot take this batch (a game past their kinds queue): one by one.
        for (i, leaf) in leaves.iter().enumerate() {
            play_fixed(ctx, &mut leaf.node(batch.game(i)), stats);
        }
        batch.clear();
        leaves.clear();
        return;
    }
    let out = &batch.out;
    stats.deals += out.wins[0] + out.wins[1];
    stats.wins[0] += out.wins[0];
    stats.wins[1] += out.wins[1];
    let mut tally = Tally::new(stats);
    for j in 0..out.special {
        let special = out.get(j);
        let leaf = &leaves[special.slot];
        match special.ended {
            Some((winner, tricks, played)) => won(
                ctx,
                leaf.deal,
                stats,
                &mut tally.bar,
                &mut tally.wins,
                winner,
                leaf.tricks + tricks,
                played,
            ),
            // Rare: play it again from the leaf, one by one, on to the cycle engine.
            None => play_fixed(ctx, &mut leaf.node(batch.game(special.slot)), stats),
        }
    }
    tally.add(stats);
    batch.clear();
    leaves.clear();
}

/// Counts the games the lanes finish. Wins are counted here and added once; only a game at least
/// as long as the longest so far (rare) goes through `record` for its deal.
struct Tally {
    pub(super) wins: [u64; 2],
    pub(super) bar: Option<(u64, u64)>,
}

impl Tally {
    pub(super) fn new(stats: &ExhaustiveStats) -> Tally {
        Tally {
            wins: [0; 2],
            bar: stats.longest.as_ref().map(|l| (l.cards, l.tricks)),
        }
    }

    pub(super) fn add(self, stats: &mut ExhaustiveStats) {
        stats.deals += self.wins[0] + self.wins[1];
        stats.wins[0] += self.wins[0];
        stats.wins[1] += self.wins[1];
    }
}

/// A single fully fixed deal (weight 0: counted once) won by `winner`: counted in `wins`, and
/// recorded as the longest game when it reaches `bar` (the longest so far, kept in step).
#[allow(clippy::too_many_arguments)]
#[inline]
pub(super) fn won<D: Packed>(
    ctx: &Ctx,
    deal: D,
    stats: &mut ExhaustiveStats,
    bar: &mut Option<(u64, u64)>,
    wins: &mut [u64; 2],
    winner: u8,
    tricks: u64,
    played: u64,
) {
    if bar.is_none_or(|b| (played, tricks) >= b) {
        record(ctx, deal, &[0; KINDS], stats, 0, winner, tricks, played);
        *bar = stats.longest.as_ref().map(|l| (l.cards, l.tricks));
    }
    wins[winner as usize & 1] += 1;
}
