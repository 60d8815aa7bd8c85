//! The exhaustive search cut into independent tasks: [`Plan`], made once by [`Plan::new`] with
//! [`Options`], and the single-threaded whole search.

use super::bulk::{Batched, Waiting};
use super::node::{Ctx, MAX_CARDS, Node, narrow_walk, root};
use super::stats::{ExhaustiveStats, Extra};
use super::walk::{explore, split};
use crate::card::DeckSpec;
use crate::engine::lanes::Shape;
use crate::engine::lanes::tally::TallyBatch;

/// The tasks of one search, in the form its deck needs.
enum Tasks {
    Narrow(Vec<Node<u32>>),
    Wide(Vec<Node<u64>>),
}

/// How a search is planned ([`Plan::new`]): subtrees of at most `max_deals` deals, the extra
/// card of an odd deck where `extra` says, and the fully fixed games in the lanes if `lanes`
/// (the answer is the same either way; tests and benchmarks compare them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub max_deals: u64,
    pub extra: Extra,
    pub lanes: bool,
}

impl Options {
    /// Subtrees of at most `max_deals` deals, the extra card with player 1, and the lanes where
    /// the processor has them (AVX-512 or AVX2: `tally::TallyBatch::available`; without them the
    /// games are played one by one, faster than lanes without vector units).
    pub fn new(max_deals: u64) -> Options {
        Options {
            max_deals,
            extra: Extra::First,
            lanes: TallyBatch::<u32>::available(),
        }
    }

    /// The extra card of an odd deck where `extra` says.
    pub fn extra(self, extra: Extra) -> Options {
        Options { extra, ..self }
    }

    /// Fully fixed games in the lanes (if the processor has them) or one by one.
    pub fn lanes(self, lanes: bool) -> Options {
        Options { lanes, ..self }
    }
}

/// The exhaustive search cut into independent tasks.
pub struct Plan {
    ctx: Ctx,
    /// Subtrees counted while planning.
    pub head: ExhaustiveStats,
    tasks: Tasks,
    /// The loop the fully fixed games play in, or `None`: one by one.
    shape: Option<Shape>,
}

impl Plan {
    /// Plans the prefix-sharing search of a two-player deck of at most [`MAX_CARDS`] cards (and at
    /// most `u64::MAX` deals) as `options` say. Lanes need AVX-512 or AVX2; without them
    /// `options.lanes` is ignored.
    ///
    /// # Panics
    /// On a deck of more than [`MAX_CARDS`] cards (callers check: see `run.rs`).
    pub fn new(deck: &DeckSpec, options: Options) -> Plan {
        assert!(
            deck.total() <= MAX_CARDS,
            "the fast path holds at most {MAX_CARDS} cards"
        );
        let Options {
            max_deals,
            extra,
            lanes,
        } = options;
        let faces: u32 = deck.counts[1..].iter().sum();
        let cards = deck.total() as u32;
        if narrow_walk(deck, lanes) {
            let (ctx, head, tasks) = plan::<u32>(deck, max_deals, lanes, extra);
            let shape = ctx
                .lanes
                .then(|| TallyBatch::<u32>::shape(faces, cards))
                .flatten();
            Plan {
                ctx,
                head,
                tasks: Tasks::Narrow(tasks),
                shape,
            }
        } else {
            let lanes = lanes && TallyBatch::<u64>::available();
            let (ctx, head, tasks) = plan::<u64>(deck, max_deals, lanes, extra);
            let shape = ctx
                .lanes
                .then(|| TallyBatch::<u64>::shape(faces, cards))
                .flatten();
            Plan {
                ctx,
                head,
                tasks: Tasks::Wide(tasks),
                shape,
            }
        }
    }

    /// The loop the lanes play the fully fixed games in (what `search exhaustive --json`
    /// reports), or `None`: they are played one by one.
    pub fn shape(&self) -> Option<Shape> {
        self.shape
    }

    pub fn tasks(&self) -> usize {
        match &self.tasks {
            Tasks::Narrow(t) => t.len(),
            Tasks::Wide(t) => t.len(),
        }
    }

    /// Whether the deck plays in the wide form (`u64` hands: past [`NARROW_CARDS`](super::NARROW_CARDS) cards but for
    /// the decks of `narrow_walk`).
    pub fn wide(&self) -> bool {
        matches!(self.tasks, Tasks::Wide(_))
    }

    /// Counts the subtree of task `i`.
    pub fn run_task(&self, i: usize) -> ExhaustiveStats {
        self.run_task_in(i, &mut TaskScratch::default())
    }

    /// [`Plan::run_task`] in `scratch`, kept from one task to the next of a thread.
    pub fn run_task_in(&self, i: usize, scratch: &mut TaskScratch) -> ExhaustiveStats {
        match &self.tasks {
            Tasks::Narrow(t) => run_task(&self.ctx, t[i], scratch.narrow.get_or_insert_default()),
            Tasks::Wide(t) => run_task(&self.ctx, t[i], scratch.wide.get_or_insert_default()),
        }
    }
}

/// The scratch of a thread's tasks: their fully fixed games wait in the same arrays from one task
/// to the next (each task is left with none waiting), where a batch of its own would be some
/// 400 KB allocated, faulted in and zeroed again for every task.
#[derive(Default)]
pub struct TaskScratch {
    narrow: Option<Waiting<u32>>,
    wide: Option<Waiting<u64>>,
}

/// The root cut into subtrees of at most `max_deals` deals, and the counts of those finished on
/// the way.
fn plan<W: Batched>(
    deck: &DeckSpec,
    max_deals: u64,
    lanes: bool,
    extra: Extra,
) -> (Ctx, ExhaustiveStats, Vec<Node<W>>) {
    let (ctx, node) = root::<W>(deck, lanes, extra);
    let mut head = ExhaustiveStats::new(2);
    let mut tasks = Vec::new();
    let mut scratch = Waiting::default();
    split(&ctx, node, max_deals, &mut tasks, &mut head, &mut scratch);
    W::flush(&ctx, &mut head, &mut scratch);
    (ctx, head, tasks)
}

/// Counts the subtree of one task, its fully fixed games waiting in `scratch` (empty before and
/// after).
fn run_task<W: Batched>(ctx: &Ctx, mut node: Node<W>, scratch: &mut Waiting<W>) -> ExhaustiveStats {
    let mut stats = ExhaustiveStats::new(2);
    explore(ctx, &mut node, &mut stats, scratch);
    W::flush(ctx, &mut stats, scratch);
    debug_assert!(scratch.is_empty());
    stats
}

/// Single-threaded prefix-sharing search of a whole deck (tests and small decks).
pub fn prefix_sharing(deck: &DeckSpec) -> ExhaustiveStats {
    prefix_sharing_with(deck, TallyBatch::<u32>::available())
}

/// [`prefix_sharing`] with fully fixed games in the lanes or not (see [`Options::lanes`]).
pub fn prefix_sharing_with(deck: &DeckSpec, lanes: bool) -> ExhaustiveStats {
    let plan = Plan::new(deck, Options::new(u64::MAX).lanes(lanes));
    let mut stats = plan.head.clone();
    let mut scratch = TaskScratch::default();
    for i in 0..plan.tasks() {
        stats.merge(plan.run_task_in(i, &mut scratch));
    }
    stats
}

#[cfg(test)]
mod tests {
    use super::super::naive::{deal_count, naive};
    use super::*;

    #[test]
    fn prefix_sharing_agrees_with_naive_on_small_decks() {
        for deck in ["3-1J1Q1K", "4-2J1Q1A", "5-1J1Q1K1A"] {
            let deck: DeckSpec = deck.parse().unwrap();
            let all = deal_count(&deck).unwrap();
            let want = naive(&deck, 2, 0..all);
            assert!(
                want.longest.is_some(),
                "{deck}: the checker keeps the longest game"
            );
            assert_eq!(prefix_sharing_with(&deck, false), want);
            assert_eq!(prefix_sharing_with(&deck, true), want);
        }
    }
}
