//! The backward closure: a level-synchronous parallel BFS (rayon) over predecessors.
//!
//! No visited set is needed. Forward play is a function, so a position that is not a seed has
//! exactly one successor and is found exactly once, as a predecessor of that successor. Seeds are
//! either a cycle or the path of one game: each seed's own predecessor among the seeds is known and
//! given as [`Seed::skip`], so the search never re-enters the seed set. The BFS therefore only
//! counts, never hashes; `reference::closure` (a visited set of whole positions) checks it, and
//! [`closure_with_visited_set`] runs the same search with a `DashMap` keyed by the packed `u128` to
//! confirm, on large closures, that no position ever comes twice.
//!
//! Work is cut into batches of the frontier in a fixed order, so the result, the deepest example
//! and the point where `max_positions` stops the search do not depend on the thread count.

use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use dashmap::DashMap;
use rayon::prelude::*;

use super::compact::Compact;
use super::predecessors::for_each_predecessor;
use crate::position::PACK_MAX_CARDS;

/// A closure search between two levels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelState {
    /// Positions found so far, the frontier included.
    pub size: u64,
    /// The depth of the frontier (tricks before the cycle).
    pub max_depth: u32,
    /// The reach so far ([`Closure::reach`]).
    pub reach: u8,
    /// Balanced positions found so far, in BFS order.
    pub balanced: Vec<Node>,
    /// The level to expand next, in BFS order (never empty: a search with nothing left is over).
    pub frontier: Vec<Node>,
}

/// A position of the closure with the length of its game to the target (the cycle, or the end of
/// the game for `extend`): `tricks` and `cards` from this position until the target is reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    pub pos: Compact,
    pub tricks: u32,
    pub cards: u32,
}

/// A starting position and its predecessor among the seeds, which the search must not re-enter.
#[derive(Clone, Copy, Debug)]
pub struct Seed {
    pub node: Node,
    pub skip: Option<Compact>,
}

/// Limits of a closure search; `Default` gives the defaults documented on each field.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Stop after this many positions (seeds included); the search stops at the end of the batch
    /// that crosses the limit. Default 50 million (at most about 4 GB of frontier: a position of
    /// the BFS takes 76 bytes).
    pub max_positions: u64,
    /// Whether balanced seeds are reported with the balanced positions. Default true.
    pub seeds_balanced: bool,
    /// Run with a shared visited set keyed by the packed `u128` (at most 52 cards), as a check
    /// that no position comes twice; about half the speed. Default false.
    pub visited_set: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_positions: 50_000_000,
            seeds_balanced: true,
            visited_set: false,
        }
    }
}

/// What a closure search found.
#[derive(Clone, Debug)]
pub struct Closure {
    /// Distinct positions found, seeds included.
    pub size: u64,
    /// The deepest BFS level reached (0: only the seeds).
    pub max_depth: u32,
    /// The smallest position (cycle-id order) of the deepest level.
    pub deepest: Option<Node>,
    /// Every balanced position found, in BFS order.
    pub balanced: Vec<Node>,
    /// The *reach*: the most cards the smaller hand holds in any position found, seeds included.
    /// A search whose reach comes to half the deck has found a balanced position; below that it
    /// says how close to balance the positions come.
    pub reach: u8,
    /// False when `max_positions` stopped the search.
    pub complete: bool,
    /// Positions met a second time (only counted with the visited set; always 0 unless the
    /// predecessors are wrong).
    pub duplicates: u64,
}

/// Positions handed to the worker pool at once; the limit is checked between batches.
const BATCH: usize = 1 << 16;
/// Positions one rayon task expands.
const CHUNK: usize = 256;

/// Something whose predecessors make the next level.
trait Expand: Sync {
    fn expand(&self, emit: impl FnMut(Node));
}

impl Expand for Node {
    #[inline]
    fn expand(&self, mut emit: impl FnMut(Node)) {
        for_each_predecessor(&self.pos, |p, pile| {
            emit(Node {
                pos: *p,
                tricks: self.tricks + 1,
                cards: self.cards + pile,
            })
        });
    }
}

impl Expand for Seed {
    fn expand(&self, mut emit: impl FnMut(Node)) {
        self.node.expand(|n| {
            if self.skip != Some(n.pos) {
                emit(n)
            }
        });
    }
}

/// One task's share of a level.
#[derive(Default)]
struct Part {
    next: Vec<Node>,
    balanced: Vec<Node>,
    reach: u8,
}

/// The reach of the seeds alone: every closure counts its seeds.
pub fn seeds_reach(seeds: &[Seed]) -> u8 {
    seeds
        .iter()
        .map(|s| s.node.pos.smaller_hand())
        .max()
        .unwrap_or(0)
}

/// The backward closure of `seeds`. `progress` receives the number of new positions after each
/// batch.
///
/// The seeds must be distinct and be the positions of one cycle or one game path, each with its
/// predecessor among them as `skip` (see [`super::family::cycle_seeds`] and
/// [`super::extend::path_seeds`]): then no position is found twice. For any other set of seeds
/// use the visited set (`cfg.visited_set`).
pub fn closure(seeds: &[Seed], cfg: &Config, progress: &(dyn Fn(u64) + Sync)) -> Closure {
    if cfg.visited_set {
        return closure_with_visited_set(seeds, cfg, progress);
    }
    run(seeds, cfg, progress, &|_| true, None, &mut |_, _| true).expect("never stopped")
}

/// [`closure`] (without the visited set) that can be saved and continued at level boundaries:
/// it starts from `from` (a state saved by an earlier run of the same seeds and config) when
/// given, and calls `on_level` with the totals and the next level to expand after each level
/// (only while the search is complete and has a next level). `on_level` returning false stops
/// the search: the result is then `None`. A search continued from any saved level gives exactly
/// the answer of an uninterrupted one.
pub fn closure_resumable(
    seeds: &[Seed],
    cfg: &Config,
    progress: &(dyn Fn(u64) + Sync),
    from: Option<LevelState>,
    on_level: &mut dyn FnMut(&Closure, &[Node]) -> bool,
) -> Option<Closure> {
    run(seeds, cfg, progress, &|_| true, from, on_level)
}

/// [`closure`] with a shared visited set keyed by the packed `u128` (positions of at most 52
/// cards; panics on larger ones): slower, and it must find exactly what [`closure`] finds. A
/// position met twice is counted in [`Closure::duplicates`] and not expanded again; a non-zero
/// count would mean a bug in the predecessors.
pub fn closure_with_visited_set(
    seeds: &[Seed],
    cfg: &Config,
    progress: &(dyn Fn(u64) + Sync),
) -> Closure {
    assert!(seeds.iter().all(|s| s.node.pos.total() <= PACK_MAX_CARDS));
    let visited: DashMap<u128, (), BuildHasherDefault<KeyHasher>> = DashMap::default();
    for s in seeds {
        visited.insert(s.node.pos.pack(), ());
    }
    let duplicates = AtomicU64::new(0);
    let first_time = |n: &Node| {
        let fresh = visited.insert(n.pos.pack(), ()).is_none();
        if !fresh {
            duplicates.fetch_add(1, Relaxed);
        }
        fresh
    };
    let mut out =
        run(seeds, cfg, progress, &first_time, None, &mut |_, _| true).expect("never stopped");
    out.duplicates = duplicates.into_inner();
    out
}

fn run(
    seeds: &[Seed],
    cfg: &Config,
    progress: &(dyn Fn(u64) + Sync),
    keep: &(dyn Fn(&Node) -> bool + Sync),
    from: Option<LevelState>,
    on_level: &mut dyn FnMut(&Closure, &[Node]) -> bool,
) -> Option<Closure> {
    let (mut out, mut frontier) = match from {
        Some(saved) => {
            let out = Closure {
                size: saved.size,
                max_depth: saved.max_depth,
                // Replaced below from the last level: a saved state always has a next level.
                deepest: saved.frontier.iter().copied().min_by_key(|n| n.pos),
                balanced: saved.balanced,
                reach: saved.reach,
                complete: true,
                duplicates: 0,
            };
            progress(out.size);
            (out, saved.frontier)
        }
        None => {
            let mut out = Closure {
                size: seeds.len() as u64,
                max_depth: 0,
                deepest: seeds.iter().map(|s| s.node).min_by_key(|n| n.pos),
                balanced: if cfg.seeds_balanced {
                    seeds
                        .iter()
                        .map(|s| s.node)
                        .filter(|n| n.pos.is_balanced())
                        .collect()
                } else {
                    Vec::new()
                },
                reach: seeds_reach(seeds),
                complete: true,
                duplicates: 0,
            };
            progress(out.size);
            let frontier = next_level(seeds, cfg, progress, keep, &mut out);
            (out, frontier)
        }
    };
    // The deepest example is taken from the last non-empty level once the search is over, rather
    // than tracked per level: one comparison per position saved on every level but the last.
    let mut last: Vec<Node> = Vec::new();
    while !frontier.is_empty() {
        if !out.complete {
            last = frontier;
            break;
        }
        if !on_level(&out, &frontier) {
            return None;
        }
        let next = next_level(&frontier, cfg, progress, keep, &mut out);
        last = std::mem::replace(&mut frontier, next);
    }
    if let Some(n) = last.iter().min_by_key(|n| n.pos) {
        out.deepest = Some(*n);
    }
    Some(out)
}

fn next_level<T: Expand>(
    items: &[T],
    cfg: &Config,
    progress: &(dyn Fn(u64) + Sync),
    keep: &(dyn Fn(&Node) -> bool + Sync),
    out: &mut Closure,
) -> Vec<Node> {
    let mut next: Vec<Node> = Vec::new();
    let expand_into =
        |chunk: &[T], next: &mut Vec<Node>, balanced: &mut Vec<Node>, reach: &mut u8| {
            for item in chunk {
                item.expand(|n| {
                    if keep(&n) {
                        if n.pos.is_balanced() {
                            balanced.push(n);
                        }
                        *reach = (*reach).max(n.pos.smaller_hand());
                        next.push(n);
                    }
                });
            }
        };
    for batch in items.chunks(BATCH) {
        let before = next.len();
        if batch.len() <= CHUNK {
            // Most closures are small, with levels of a few hundred positions: those skip the
            // pool, whose hand-off would cost more than the work, and write straight to the level.
            expand_into(batch, &mut next, &mut out.balanced, &mut out.reach);
        } else {
            let parts: Vec<Part> = batch
                .par_chunks(CHUNK)
                .map(|chunk| {
                    let mut part = Part {
                        next: Vec::with_capacity(chunk.len() * 2),
                        ..Part::default()
                    };
                    expand_into(chunk, &mut part.next, &mut part.balanced, &mut part.reach);
                    part
                })
                .collect();
            for part in parts {
                next.extend_from_slice(&part.next);
                out.balanced.extend_from_slice(&part.balanced);
                out.reach = out.reach.max(part.reach);
            }
        }
        let produced = (next.len() - before) as u64;
        out.size += produced;
        progress(produced);
        if out.size > cfg.max_positions {
            out.complete = false;
            break;
        }
    }
    if !next.is_empty() {
        out.max_depth += 1;
    }
    next
}

/// A fixed, fast hasher for packed keys: the key is already a near-uniform base-5 number, so one
/// multiply-fold of its halves spreads it well; fixed so runs are reproducible.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u128(&mut self, v: u128) {
        let x = (v as u64) ^ ((v >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = (x ^ (x >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        self.0 ^= self.0 >> 32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn hash(v: u128) -> u64 {
        let mut h = KeyHasher::default();
        h.write_u128(v);
        h.finish()
    }

    /// The seeds' reach is the most cards the smaller hand holds in any of them (here the
    /// second seed's 4, by hand), and 0 without seeds.
    #[test]
    fn seeds_reach_is_the_largest_smaller_hand() {
        let seed = |s: &str| {
            let pos = Position::parse(s, crate::notation::Notation::Dash).unwrap();
            Seed {
                node: Node {
                    pos: Compact::from_position(&pos).unwrap(),
                    tricks: 0,
                    cards: 0,
                },
                skip: None,
            }
        };
        let seeds = [
            seed("J--/-Q (1)"),
            seed("--K-/-Q---J (2)"),
            seed("-/J-Q-- (1)"),
        ];
        assert_eq!(seeds_reach(&seeds), 4);
        assert_eq!(seeds_reach(&seeds[2..]), 1);
        assert_eq!(seeds_reach(&[]), 0);
    }

    /// The closure's sets hash packed keys of up to 128 bits: keys that differ only in their
    /// high half, or only in their low half, must hash apart (a hasher that dropped a half would
    /// give the same answers, every key of a family in one bucket chain, and the closure of a
    /// long cycle would crawl). The top 16 bits of the hash too, which hashbrown's control
    /// bytes read.
    #[test]
    fn keys_differing_in_either_half_hash_apart() {
        for shift in [0u32, 64] {
            let keys: Vec<u128> = (0..4096u128).map(|i| (i * 0x9_3a5f) << shift).collect();
            let full: std::collections::BTreeSet<u64> = keys.iter().map(|&k| hash(k)).collect();
            assert_eq!(full.len(), keys.len(), "half at bit {shift}");
            let top: std::collections::BTreeSet<u64> =
                keys.iter().map(|&k| hash(k) >> 48).collect();
            assert!(
                top.len() > 3500,
                "half at bit {shift}: {} top values",
                top.len()
            );
        }
    }

    /// hashbrown picks a key's bucket by the hash's low bits, so keys that differ only in high
    /// bits of either half must spread there too: 4,096 keys over 4,096 buckets fill about
    /// 2,590 at random. (Either of the two folds after the halves are joined, shifting left
    /// instead of right, leaves 290 buckets or fewer at one of these two shifts.)
    #[test]
    fn keys_differing_only_in_high_bits_spread_over_the_buckets() {
        for shift in [40u32, 104] {
            let buckets: std::collections::BTreeSet<u64> = (0..4096u128)
                .map(|i| hash((i * 0x9_3a5f) << shift) & 0xfff)
                .collect();
            assert!(
                buckets.len() > 2000,
                "bits from {shift}: {} buckets",
                buckets.len()
            );
        }
    }
}
