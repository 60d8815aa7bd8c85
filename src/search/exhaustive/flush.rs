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
        // A game of 33 or 34 cards must count within the kinds lanes' 16 bits (their planes
        // loop, which a batch of games near that count takes, is not for such hands): when it
        // might not (never in practice: a leaf is made within the first few hundred cards), it
        // is played on here.
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
        flush_narrow(ctx, stats, scratch);
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
        flush_wide(ctx, stats, scratch);
    }
}

/// Puts `game` (of `leaf`) into `batch`, or records it at once when it is over before its first
/// move (the lanes take only games with a move to make; none reaches here in practice: a leaf is
/// made when a player is about to play). Whether it was queued. `leaf` comes by value: taken by
/// reference it was built on the stack and copied into the batch by wide loads of fresh narrow
/// stores, a store-forwarding stall at every leaf (docs/performance.md).
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

/// Plays the fully fixed games waiting in `scratch` in the lanes and counts them.
pub(super) fn flush_narrow(ctx: &Ctx, stats: &mut ExhaustiveStats, scratch: &mut Scratch<u32>) {
    let Scratch {
        leaves,
        games,
        lanes,
    } = scratch;
    if !lanes.tally {
        return flush_lanes(ctx, stats, leaves, games, &mut lanes.lanes);
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

/// Plays `games` (from `leaves`) in `lanes` and counts them.
fn flush_lanes(
    ctx: &Ctx,
    stats: &mut ExhaustiveStats,
    leaves: &mut Vec<Leaf<u32>>,
    games: &mut Vec<Game>,
    lanes: &mut Lanes,
) {
    // Wins are counted here and added once; only a game at least as long as the longest so far
    // (rare) goes through `record` for its deal.
    let mut tally = Tally::new(stats);
    lanes.run(games, IN_PLACE_TRICKS as u32, |i, finish| {
        tally.count(ctx, stats, &leaves[i], &games[i], finish, (0, 0))
    });
    tally.add(stats);
    leaves.clear();
    games.clear();
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

    /// Counts the game of `leaf` (which the lanes started from `game`), finished after
    /// `before` tricks and cards played elsewhere since the leaf.
    #[inline(always)]
    fn count<W: Width>(
        &mut self,
        ctx: &Ctx,
        stats: &mut ExhaustiveStats,
        leaf: &Leaf<W>,
        game: &Game<W>,
        finish: Finish,
        before: (u64, u64),
    ) {
        match finish {
            Finish::Won {
                winner,
                tricks,
                cards,
            } => {
                let tricks = leaf.tricks + before.0 + tricks;
                let played = leaf.cards + before.1 + cards;
                won(
                    ctx,
                    leaf.deal,
                    stats,
                    &mut self.bar,
                    &mut self.wins,
                    winner,
                    tricks,
                    played,
                );
            }
            // Rare: play it again from the leaf, one by one, on to the cycle engine.
            Finish::TooLong => play_fixed(ctx, &mut leaf.node(*game), stats),
        }
    }

    fn add(self, stats: &mut ExhaustiveStats) {
        stats.deals += self.wins[0] + self.wins[1];
        stats.wins[0] += self.wins[0];
        stats.wins[1] += self.wins[1];
    }
}

/// [`flush_narrow`] for decks of more than 32 cards: with AVX-512 in the `u64` batch (the games
/// written into it as they were queued, [`WideBatch`]); else each game is played to the end of
/// its trick one by one (the `u64` lanes of [`Lanes64`] start at a trick boundary), then in those
/// lanes when the processor has AVX2, or on one by one.
pub(super) fn flush_wide(ctx: &Ctx, stats: &mut ExhaustiveStats, scratch: &mut Scratch<u64>) {
    let Scratch {
        leaves,
        games,
        lanes,
    } = scratch;
    if lanes.tally {
        return flush_batch(ctx, stats, leaves, &mut lanes.batch);
    }
    if !ctx.lanes {
        for (leaf, game) in leaves.iter().zip(games.iter()) {
            play_fixed(ctx, &mut leaf.node(*game), stats);
        }
        leaves.clear();
        games.clear();
        return;
    }
    let Bulk64 {
        lanes, deals, from, ..
    } = lanes;
    deals.clear();
    from.clear();
    for (i, (leaf, game)) in leaves.iter_mut().zip(games.iter_mut()).enumerate() {
        let mut node = leaf.node(*game);
        if game.n != 0 || game.debt != 0 {
            match node.trick::<true>() {
                Sim::Next => {}
                Sim::End { winner, cards } => {
                    let tricks = node.tricks + u64::from(cards > 0);
                    let played = node.cards + cards as u64;
                    record_end(ctx, &node, stats, 1, winner, tricks, played);
                    continue;
                }
                Sim::Unknown => unreachable!("every card is fixed"),
            }
        }
        // At a trick boundary: the leaf goes on from here.
        *game = node.game;
        leaf.tricks = node.tricks;
        leaf.cards = node.cards;
        let g = &node.game;
        deals.push(Deal64 {
            faces: g.faces,
            lo: g.lo,
            hi: g.hi,
            len: g.len,
            next: g.next,
        });
        from.push(i as u32);
    }
    let mut wins = [0u64; 2];
    let mut bar = stats.longest.as_ref().map(|l| (l.cards, l.tricks));
    // One trick may have been played above: the limit stays within `IN_PLACE_TRICKS` of the node.
    lanes.run(deals, IN_PLACE_TRICKS as u32 - 1, |j, finish| {
        let i = from[j] as usize;
        match finish {
            Finish::Won {
                winner,
                tricks,
                cards,
            } => {
                let leaf = &leaves[i];
                let (tricks, played) = (leaf.tricks + tricks, leaf.cards + cards);
                won(
                    ctx, leaf.deal, stats, &mut bar, &mut wins, winner, tricks, played,
                );
            }
            Finish::TooLong => play_fixed(ctx, &mut leaves[i].node(games[i]), stats),
        }
    });
    stats.deals += wins[0] + wins[1];
    stats.wins[0] += wins[0];
    stats.wins[1] += wins[1];
    leaves.clear();
    games.clear();
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
