//! Fully fixed games of the exhaustive search played in bulk: the batch handed to the lanes
//! (`u32` up to 34 cards, `u64` past that) and the counting of what they report.

use super::*;

/// Queues a fully fixed game of the narrow form (at most 32 cards, or 34: `narrow_walk`):
/// straight into the lanes' arrays with AVX-512 ([`NarrowBatch`]), else into `scratch.games`;
/// plays the batch when it is full.
#[inline(always)]
pub(super) fn push_narrow(
    ctx: &Ctx,
    stats: &mut ExhaustiveStats,
    scratch: &mut Scratch<u32>,
    leaf: Leaf<u32>,
    game: AbGame<u32>,
) {
    if scratch.lanes.tally {
        // A game of 33 or 34 cards must count within the kinds lanes' 16 bits: when it might
        // not (never in practice: a leaf is made within the first few hundred cards), it is
        // played on here.
        let limit = IN_PLACE_TRICKS as u32;
        if ctx.n > NARROW_CARDS && !Batch::<u32>::counts_fit(leaf.cards, ctx.n as u32, limit) {
            return play_fixed(ctx, &mut leaf.node(game.game()), stats);
        }
        if !queue(ctx, stats, &mut scratch.lanes.batch, leaf, &game) {
            return;
        }
    } else {
        scratch.games.push(game.game());
    }
    scratch.leaves.push(leaf);
    if scratch.leaves.len() == BATCH {
        flush(ctx, stats, scratch);
    }
}

/// Queues a fully fixed game of a deck of more than 32 cards: straight into the `u64` lanes'
/// arrays with AVX-512 ([`WideBatch`]), else into `scratch.games`; plays the batch when it is
/// full.
#[inline(always)]
pub(super) fn push_wide(
    ctx: &Ctx,
    stats: &mut ExhaustiveStats,
    scratch: &mut Scratch<u64>,
    leaf: Leaf<u64>,
    game: AbGame<u64>,
) {
    if scratch.lanes.tally {
        if !queue(ctx, stats, &mut scratch.lanes.batch, leaf, &game) {
            return;
        }
    } else {
        scratch.games.push(game.game());
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
fn queue<W: Width + TallyPlane>(
    ctx: &Ctx,
    stats: &mut ExhaustiveStats,
    batch: &mut Batch<W>,
    leaf: Leaf<W>,
    game: &AbGame<W>,
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
pub(super) fn flush<W: Width<Bulk = Bulk<W>> + TallyPlane>(
    ctx: &Ctx,
    stats: &mut ExhaustiveStats,
    scratch: &mut Scratch<W>,
) {
    let Scratch {
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
fn flush_batch<W: Width + TallyPlane>(
    ctx: &Ctx,
    stats: &mut ExhaustiveStats,
    leaves: &mut Vec<Leaf<W>>,
    batch: &mut Batch<W>,
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
    wins: [u64; 2],
    bar: Option<(u64, u64)>,
}

impl Tally {
    fn new(stats: &ExhaustiveStats) -> Tally {
        Tally {
            wins: [0; 2],
            bar: stats.longest.as_ref().map(|l| (l.cards, l.tricks)),
        }
    }

    fn add(self, stats: &mut ExhaustiveStats) {
        stats.deals += self.wins[0] + self.wins[1];
        stats.wins[0] += self.wins[0];
        stats.wins[1] += self.wins[1];
    }
}

/// A single fully fixed deal (weight 0: counted once) won by `winner`: counted in `wins`, and
/// recorded as the longest game when it reaches `bar` (the longest so far, kept in step).
#[allow(clippy::too_many_arguments)]
#[inline]
fn won<D: Packed>(
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
