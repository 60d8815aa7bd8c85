//! The backward closure of a cycle spread over a cluster: a level-synchronous BFS whose positions
//! live on owner workers chosen by the fixed hash of their packed key ([`super::owner`]).
//!
//! Each level, every worker expands the positions it owns and sends each predecessor to its
//! owner; a second round tells every worker the level's size, so all of them stop together. As in
//! `backward::closure`, forward play is a function: a non-seed position is found exactly once, as
//! the predecessor of its successor, so no visited set is needed. A complete closure gives exactly
//! the single-process result (size, depth, deepest position, balanced positions). Where
//! `max_positions` stops the search differs: here at the end of the level that crosses it.
//! [`family_on_cluster`] is the whole `family` command's run on a cluster.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use thiserror::Error;
use timely::worker::Worker;

use super::cluster::{Cluster, ClusterError, position, round, round_collect};
use super::owner::owner;
use crate::backward::closure::{Closure, Config, Node, Seed, seeds_reach};
use crate::backward::compact::Compact;
use crate::backward::family::{
    Family, FamilyError, cycle_positions, cycle_seeds, family_from_closure,
};
use crate::backward::level_checkpoint::LevelState;
use crate::backward::predecessors::for_each_predecessor;
use crate::engine::CycleInfo;
use crate::library::fnv1a;
use crate::position::{PACK_MAX_CARDS, Position};

/// A node on the wire: packed position, tricks, cards.
type Wire = (u128, u32, u32);

fn to_wire(n: &Node) -> Wire {
    (n.pos.pack(), n.tricks, n.cards)
}

fn from_wire(w: Wire, cards: usize) -> Node {
    Node {
        pos: Compact::from_position(&Position::unpack(w.0, cards)).expect("at most 52 cards"),
        tricks: w.1,
        cards: w.2,
    }
}

/// The closure of `seeds` (the same on every worker; at most 52 cards), computed by all workers
/// together. Returns the result on worker 0, `None` on the others. `progress` sees the number of
/// positions each level adds (on worker 0).
pub fn closure(
    worker: &mut Worker,
    seeds: &[Seed],
    cfg: &Config,
    progress: &dyn Fn(u64),
) -> Option<Closure> {
    closure_resumable(worker, seeds, cfg, progress, &Levels::default())
        .map(|r| r.expect("never stopped"))
}

/// Saves a cluster closure at level boundaries (asked at worker 0 only).
pub trait LevelHook: Send {
    /// Whether to save the state after the level `out` ends with.
    fn due(&mut self, out: &Closure) -> bool;
    /// Saves the state; false stops the search.
    fn save(&mut self, state: &LevelState) -> bool;
}

/// How a cluster closure starts and is saved. `hook` must be `Some` on every process or on none
/// (every worker takes part in a save); `resuming` must be the same on every process, and `from`
/// (the saved state) is read by worker 0 alone.
#[derive(Default)]
pub struct Levels<'a> {
    pub resuming: bool,
    pub from: Option<&'a LevelState>,
    pub hook: Option<&'a Mutex<dyn LevelHook>>,
}

/// The search was stopped by its [`LevelHook`].
#[derive(Debug)]
pub struct Stopped;

/// Sends worker 0's `value` to every worker.
fn broadcast(worker: &mut Worker, value: u64) -> u64 {
    let (me, peers) = position(worker);
    let items: Vec<(u64, u64)> = if me == 0 {
        (0..peers as u64).map(|t| (t, value)).collect()
    } else {
        Vec::new()
    };
    round_collect(worker, items, |x| x.0)[0].1
}

/// [`closure`] that can be saved at level boundaries and continued from a saved level
/// (`levels`): the frontier is gathered at worker 0 (sorted by key) with every balanced position
/// so far, and on resume worker 0 routes the saved frontier to its owners, so the worker count
/// may differ between the runs. `Some(Err(Stopped))` at worker 0 when the hook stopped it.
pub fn closure_resumable(
    worker: &mut Worker,
    seeds: &[Seed],
    cfg: &Config,
    progress: &dyn Fn(u64),
    levels: &Levels,
) -> Option<Result<Closure, Stopped>> {
    let (me, peers) = position(worker);
    let mut cards = seeds.first().map_or(0, |s| s.node.pos.total());
    let mut out = Closure {
        size: seeds.len() as u64,
        max_depth: 0,
        deepest: seeds.iter().map(|s| s.node).min_by_key(|n| n.pos),
        balanced: Vec::new(),
        reach: seeds_reach(seeds),
        complete: true,
        duplicates: 0,
    };
    // Balanced positions stay with their owners until the end (or a save).
    let mut balanced: Vec<Node> = Vec::new();
    let mut outgoing: Vec<Wire> = Vec::new();
    if levels.resuming {
        let saved = levels.from.filter(|_| me == 0);
        let mut routed = Vec::new();
        if let Some(st) = saved {
            out.max_depth = st.max_depth;
            out.reach = st.reach;
            out.deepest = st.frontier.iter().copied().min_by_key(|n| n.pos);
            balanced = st.balanced.clone();
            routed = st.frontier.iter().map(to_wire).collect();
            cards = st.frontier[0].pos.total();
        }
        out.size = broadcast(worker, saved.map_or(0, |st| st.size));
        out.reach = broadcast(worker, out.reach as u64) as u8;
        cards = broadcast(worker, cards as u64) as usize;
        let mut level: Vec<Node> = Vec::new();
        round(
            worker,
            routed,
            move |w: &Wire| owner(w.0, peers) as u64,
            &mut |w| level.push(from_wire(w, cards)),
        );
        for n in &level {
            for_each_predecessor(&n.pos, |p, pile| {
                outgoing.push((p.pack(), n.tricks + 1, n.cards + pile));
            });
        }
    } else {
        if cfg.seeds_balanced {
            balanced = seeds
                .iter()
                .map(|s| s.node)
                .filter(|n| n.pos.is_balanced() && owner(n.pos.pack(), peers) == me)
                .collect();
        }
        // Level 1 comes from the seeds this worker owns, skipping each seed's predecessor on the
        // cycle.
        for s in seeds
            .iter()
            .filter(|s| owner(s.node.pos.pack(), peers) == me)
        {
            for_each_predecessor(&s.node.pos, |p, pile| {
                if s.skip != Some(*p) {
                    outgoing.push((p.pack(), s.node.tricks + 1, s.node.cards + pile));
                }
            });
        }
    }
    if me == 0 {
        progress(out.size);
    }
    loop {
        let mut level: Vec<Node> = Vec::new();
        round(
            worker,
            std::mem::take(&mut outgoing),
            move |w: &Wire| owner(w.0, peers) as u64,
            &mut |w| level.push(from_wire(w, cards)),
        );
        // Every worker learns the level's size, smallest position and reach.
        let min = level.iter().map(|n| n.pos).min().map(|p| p.pack());
        let reach = level
            .iter()
            .map(|n| n.pos.smaller_hand())
            .max()
            .unwrap_or(0);
        let stats = (0..peers as u64).map(|t| (t, level.len() as u64, min, reach));
        let all = round_collect(worker, stats, |x| x.0);
        let produced: u64 = all.iter().map(|x| x.1).sum();
        if produced == 0 {
            break;
        }
        out.size += produced;
        out.max_depth += 1;
        out.reach = all.iter().map(|x| x.3).fold(out.reach, u8::max);
        // The smallest key in cycle-id order: keys of one card count compare as positions do.
        let smallest = all
            .iter()
            .filter_map(|x| x.2)
            .map(|k| Compact::from_position(&Position::unpack(k, cards)).expect("52 cards"))
            .min();
        let holder = smallest.and_then(|m| level.iter().find(|n| n.pos == m).copied());
        // The owner of the smallest position sends it (with its lengths) to worker 0.
        let deepest = round_collect(worker, holder.map(|n| to_wire(&n)), |_| 0);
        if me == 0 {
            out.deepest = deepest.first().map(|&w| from_wire(w, cards));
            progress(produced);
        }
        balanced.extend(level.iter().filter(|n| n.pos.is_balanced()));
        if out.size > cfg.max_positions {
            out.complete = false;
            break;
        }
        if let Some(hook) = levels.hook {
            let due = me == 0 && hook.lock().unwrap().due(&out);
            if broadcast(worker, due as u64) == 1 {
                // Worker 0 takes every balanced position so far and the whole level.
                let moved = if me == 0 {
                    Vec::new()
                } else {
                    std::mem::take(&mut balanced)
                };
                let got =
                    round_collect(worker, moved.iter().map(to_wire).collect::<Vec<_>>(), |_| 0);
                balanced.extend(got.into_iter().map(|w| from_wire(w, cards)));
                let mut frontier =
                    round_collect(worker, level.iter().map(to_wire).collect::<Vec<_>>(), |_| 0);
                let go = if me == 0 {
                    frontier.sort_unstable();
                    let state = LevelState {
                        size: out.size,
                        max_depth: out.max_depth,
                        reach: out.reach,
                        balanced: balanced.clone(),
                        frontier: frontier.into_iter().map(|w| from_wire(w, cards)).collect(),
                    };
                    hook.lock().unwrap().save(&state)
                } else {
                    true
                };
                if broadcast(worker, go as u64) == 0 {
                    return (me == 0).then_some(Err(Stopped));
                }
            }
        }
        for n in &level {
            for_each_predecessor(&n.pos, |p, pile| {
                outgoing.push((p.pack(), n.tricks + 1, n.cards + pile));
            });
        }
    }
    let gathered = round_collect(
        worker,
        balanced.iter().map(to_wire).collect::<Vec<_>>(),
        |_| 0,
    );
    if me != 0 {
        return None;
    }
    out.balanced = gathered.into_iter().map(|w| from_wire(w, cards)).collect();
    Some(Ok(out))
}

/// Why a family on a cluster failed.
#[derive(Debug, Error)]
pub enum ClusterFamilyError {
    #[error(transparent)]
    Family(#[from] FamilyError),
    #[error("a cluster closure handles at most {PACK_MAX_CARDS} cards, not {0}")]
    TooManyCards(usize),
    #[error(transparent)]
    Cluster(#[from] ClusterError),
}

/// The family of `pos` on a cluster: every process plays the position to its cycle (a game that
/// ends is an error on every process, before any connection); then the closure's positions are
/// spread over all workers by the fixed hash of their packed key ([`closure`]). Returns the family
/// at process 0, `None` elsewhere; `progress` sees the positions each level adds, at process 0.
pub fn family_on_cluster(
    cluster: &Cluster,
    pos: &Position,
    cfg: &Config,
    progress: impl Fn(u64) + Send + Sync + 'static,
) -> Result<Option<Family>, ClusterFamilyError> {
    let r = family_on_cluster_resumable(cluster, pos, cfg, progress, false, None, None)?;
    Ok(r.map(|f| f.expect("never stopped")))
}

/// The cycle `family_on_cluster` takes the family of: checked before any connection.
pub fn cluster_cycle(pos: &Position) -> Result<CycleInfo, ClusterFamilyError> {
    if pos.total() > PACK_MAX_CARDS {
        return Err(ClusterFamilyError::TooManyCards(pos.total()));
    }
    Ok(crate::backward::family::play_to_cycle(pos)?)
}

/// [`family_on_cluster`] saved at level boundaries by `hook` and continued from `from` (see
/// [`closure_resumable`]; `resuming` the same on every process, `from` read at process 0).
/// `Some(Err(Stopped))` at process 0 when the hook stopped it.
pub fn family_on_cluster_resumable(
    cluster: &Cluster,
    pos: &Position,
    cfg: &Config,
    progress: impl Fn(u64) + Send + Sync + 'static,
    resuming: bool,
    from: Option<LevelState>,
    hook: Option<Arc<Mutex<dyn LevelHook>>>,
) -> Result<Option<Result<Family, Stopped>>, ClusterFamilyError> {
    let info = cluster_cycle(pos)?;
    let seeds = cycle_seeds(&cycle_positions(&info));
    let fingerprint = fnv1a(
        format!(
            "family {} max_positions={} workers={} resume={resuming} save={}",
            info.cycle_id,
            cfg.max_positions,
            cluster.workers,
            hook.is_some()
        )
        .as_bytes(),
    );
    let connection = cluster.connect()?;
    let cfg = *cfg;
    let start = Instant::now();
    let found = cluster.run_job(connection, fingerprint, move |w| {
        let levels = Levels {
            resuming,
            from: from.as_ref(),
            hook: hook.as_deref(),
        };
        closure_resumable(w, &seeds, &cfg, &progress, &levels)
    })?;
    let seconds = start.elapsed().as_secs_f64();
    Ok(found.map(|r| r.map(|c| family_from_closure(info, c, seconds))))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// Cycles of random small deals (the deck `--deck 8-2J2Q2K2A` style: numbers and faces).
    fn cycles(want: usize) -> Vec<crate::engine::CycleInfo> {
        let decks: Vec<crate::card::DeckSpec> = ["8-2J2Q2K2A", "6-1J1Q1K1A", "12-4J4Q"]
            .iter()
            .map(|d| d.parse().unwrap())
            .collect();
        let mut out = Vec::new();
        for i in 0..300_000u64 {
            let p = crate::deal::random_deal(&decks[i as usize % decks.len()], 7, i);
            if let crate::engine::Outcome::Cycle(info) = crate::engine::play(&p)
                && !out
                    .iter()
                    .any(|c: &crate::engine::CycleInfo| c.cycle_id == info.cycle_id)
            {
                out.push(info);
                if out.len() == want {
                    break;
                }
            }
        }
        out
    }

    // The cluster closure (3 workers) against the single-process BFS: same size, depth, deepest
    // position and balanced positions, for every cycle met.
    #[test]
    fn cluster_closure_equals_the_single_process_closure() {
        let found = cycles(12);
        assert!(found.len() >= 3, "only {} cycles", found.len());
        let c = Cluster::new(vec!["localhost:1".into()], 0, 3, Duration::from_secs(1)).unwrap();
        for info in found {
            let seeds = cycle_seeds(&cycle_positions(&info));
            let cfg = Config::default();
            let single = crate::backward::closure::closure(&seeds, &cfg, &|_| {});
            let s2 = seeds.clone();
            let got = c
                .execute(c.connect().unwrap(), move |w| {
                    closure(w, &s2, &Config::default(), &|_| {})
                })
                .unwrap();
            let dist = got.into_iter().flatten().next().unwrap();
            assert_eq!(dist.size, single.size, "{}", info.cycle_id);
            assert_eq!(dist.max_depth, single.max_depth);
            assert_eq!(dist.reach, single.reach);
            assert_eq!(dist.deepest, single.deepest);
            assert!(dist.complete && single.complete);
            let mut a: Vec<Compact> = dist.balanced.iter().map(|n| n.pos).collect();
            let mut b: Vec<Compact> = single.balanced.iter().map(|n| n.pos).collect();
            a.sort();
            b.sort();
            assert_eq!(a, b);
        }
    }
}
