//! The one driver of the lane loops: `G` groups of lanes stepped side by side, each lane's game
//! reported as it stops and the lane given the next game. Random games and the exhaustive
//! search's counting batch both run here; they differ in where their games come from
//! ([`Feed`]) and where the results go ([`Sink`]).
//!
//! A loop brings its group ([`LaneGroup`]): its move, how a lane starts a game, and the results
//! its move leaves in the lanes that stopped. What both steps' groups keep besides the games
//! (who acts first in each lane, which lanes play, the stopped lanes' results) is a [`Book`],
//! and the end of a move, written once, is [`Book::end`].
//!
//! Everything here is `#[inline(always)]`, so each loop compiles to one function per instruction
//! set, as if written out. Each lane's game number is kept beside its group rather than in it:
//! an array indexed at run time inside the group would keep the whole group in memory, its
//! vectors stored and reloaded every move.

use crate::engine::game::Game;
use crate::engine::vector::Vector;

/// What the results of a stopped lane are made of, as a group's move leaves them.
pub(crate) struct Stopped<V> {
    /// Finished tricks times `2^(BITS / 2)` plus their cards (those before the lanes too).
    pub tc: V,
    /// Cards of an unfinished last trick.
    pub last: V,
    /// Bit `i`: player 2 won lane `i`'s game.
    pub winner: u32,
    /// Bit `i`: lane `i`'s game ended (else it reached the trick limit).
    pub ended: u32,
}

/// What a group keeps of its lanes besides their games, the same in both steps: which player
/// is `a` in each lane, which lanes play, and the results of the lanes that the last move
/// stopped.
#[derive(Clone, Copy)]
pub(crate) struct Book<V> {
    /// Bit `i`: the player `a` is in lane `i` (0 or 1). A swap flips it: one scalar xor of
    /// the swap mask, where a vector of players cost a load, a store and three operations.
    pub who: u32,
    /// Bit `i` while lane `i` plays a game.
    pub active: u32,
    /// The results of the lanes the last move stopped (see [`Stopped`]).
    pub winner: u32,
    pub last: V,
    pub ended: u32,
}

/// How a move went in each lane, as the step's masks tell it: all [`Book::end`] needs.
pub(crate) struct MoveEnd<M> {
    /// The move was a lead phase, and it ran its player out (`lead_end`), `b`'s card first
    /// (`b_first`: so `b` ran out).
    pub lead: M,
    pub lead_end: M,
    pub b_first: M,
    /// A payer was short of the debt.
    pub pay_end: M,
    /// A finished trick left its payer no card.
    pub over: M,
    /// The players swap (`b` acts next).
    pub swap: M,
}

impl<V: Vector> Book<V> {
    /// No lane plays.
    ///
    /// # Safety
    /// The processor has `V`'s features.
    #[inline(always)]
    pub(crate) unsafe fn new() -> Self {
        Book {
            who: 0,
            active: 0,
            winner: 0,
            // SAFETY: the caller's contract.
            last: unsafe { V::splat(0) },
            ended: 0,
        }
    }

    /// The end of a move `e` whose count of tricks and cards is now `tc` (against `limit`):
    /// the players swapped, and the active lanes that stopped (ended, or reached the limit),
    /// their results kept where some lane stopped or `ALWAYS`. `last` gives the cards of an
    /// unfinished last trick, for a lead phase and for a short payment.
    #[inline(always)]
    pub(crate) fn end<const ALWAYS: bool>(
        &mut self,
        e: MoveEnd<V::Mask>,
        tc: V,
        limit: V,
        last: impl FnOnce() -> (V, V),
    ) -> u32 {
        let who = self.who;
        self.who = who ^ V::bits(e.swap);
        // A lead player without a card loses, so does a payer short of the debt, and a trick
        // that empties its payer ends the game.
        let ended = (e.lead & e.lead_end) | e.pay_end | e.over;
        let long = !tc.lt(limit);
        let stopped = V::bits(ended | long) & self.active;
        if ALWAYS || stopped != 0 {
            // a wins when b runs out in the lead; else b does.
            let a_wins = V::bits(e.lead & e.lead_end & e.b_first);
            self.winner = who ^ !a_wins;
            let (lead_last, pay_last) = last();
            self.last = V::select(e.lead, lead_last, V::keep(e.pay_end, pay_last));
            self.ended = V::bits(ended);
        }
        stopped
    }

    /// The results of the last move, its count `tc`.
    #[inline(always)]
    pub(crate) fn stopped(&self, tc: V) -> Stopped<V> {
        Stopped {
            tc,
            last: self.last,
            winner: self.winner,
            ended: self.ended,
        }
    }

    /// In lane `i`, the hand `a` (the player to act first) is player `p` (0 or 1).
    #[inline(always)]
    pub(crate) fn seat(&mut self, i: usize, p: u32) {
        self.who = self.who & !(1 << i) | p << i;
    }
}

/// One group of lanes of a move loop, in the lane vector `V`.
pub(crate) trait LaneGroup<V: Vector>: Copy {
    /// The constants of a move.
    type Consts;
    /// One move of every lane; the active lanes that stopped (their results in
    /// [`LaneGroup::stopped`]). `ALWAYS`: the results are computed at every move, not only
    /// behind a branch on "some lane stopped".
    fn step<const ALWAYS: bool>(&mut self, k: &Self::Consts) -> u32;
    /// The results the last move left.
    fn stopped(&self) -> Stopped<V>;
    /// Empties the pile, the debt and the counts of the `lanes` (bits).
    fn clear(&mut self, lanes: u32);
    /// Writes `g` (at a trick boundary, with a move to make) into lane `i`, and its player to
    /// act.
    fn load(&mut self, i: usize, g: &Game<u64>);
    /// The lanes playing a game (bits).
    fn active(&mut self) -> &mut u32;
}

/// Where a run's games come from.
pub(crate) trait Feed<V: Vector, L: LaneGroup<V>> {
    /// Refill the lanes that stop at once (random games), or once a quarter of a group is idle,
    /// decided before the move (the counting batch: a branch on this move's stops would wait for
    /// its whole chain, and is mispredicted often).
    const EAGER: bool;
    /// Some work towards the next games, once a move.
    fn work(&mut self);
    /// Whether games are left.
    fn left(&self) -> bool;
    /// Loads the next games into the `idle` lanes of `g` (bits), as many as are left, and their
    /// numbers into `slots`; a game over before its first move goes to `sink` at once.
    fn fill(&mut self, g: &mut L, slots: &mut [usize; 16], idle: u32, sink: &mut impl Sink<V>);
}

/// Where a run's results go.
pub(crate) trait Sink<V: Vector> {
    /// Whether the groups compute their results at every move (see [`LaneGroup::step`]); then
    /// [`Sink::report`] hears of every move, stops or not.
    const ALWAYS: bool;
    /// The `stopped` lanes (bits) of a group, their results in `r`, lane `i` playing game
    /// `slots[i]`.
    fn report(&mut self, r: &Stopped<V>, stopped: u32, slots: &[usize; 16]);
    /// Game `number` was over before its first move, won by `winner`.
    fn over(&mut self, number: usize, winner: u8);
}

/// Plays every game of `feed` in the groups `groups` (idle) until it ends or has played the
/// trick limit of `k`, and reports each to `sink`, in no particular order.
#[inline(always)]
pub(crate) fn run<V, L, F, S, const G: usize>(
    mut groups: [L; G],
    k: &L::Consts,
    feed: &mut F,
    sink: &mut S,
) where
    V: Vector,
    L: LaneGroup<V>,
    F: Feed<V, L>,
    S: Sink<V>,
{
    let all = (1u32 << V::LANES) - 1;
    let refill_at = V::LANES / 4;
    let mut slots = [[0usize; 16]; G];
    for (g, s) in groups.iter_mut().zip(slots.iter_mut()) {
        feed.fill(g, s, all, sink);
    }
    loop {
        feed.work();
        let want: [bool; G] = std::array::from_fn(|i| {
            F::EAGER
                || (feed.left() && (all & !*groups[i].active()).count_ones() as usize >= refill_at)
        });
        let mut stops = [0u32; G];
        for (g, s) in groups.iter_mut().zip(stops.iter_mut()) {
            *s = if S::ALWAYS {
                g.step::<true>(k)
            } else {
                g.step::<false>(k)
            };
        }
        let mut active = 0;
        for (i, (g, s)) in groups.iter_mut().zip(slots.iter_mut()).enumerate() {
            let stopped = stops[i];
            if S::ALWAYS || stopped != 0 {
                sink.report(&g.stopped(), stopped, s);
                *g.active() &= !stopped;
            }
            if F::EAGER {
                if stopped != 0 {
                    feed.fill(g, s, stopped, sink);
                }
            } else if want[i] {
                // Not rare (every few moves), but marked cold so that the register allocator
                // puts its spills and reloads here rather than on the move: without it, AVX2's
                // 16 registers kept the hands' face planes in memory across the loop, a store
                // and a reload at the head of every move's chain.
                std::hint::cold_path();
                let idle = all & !*g.active();
                feed.fill(g, s, idle, sink);
            }
            active |= *g.active();
        }
        if active == 0 {
            if !feed.left() {
                break;
            }
            for (g, s) in groups.iter_mut().zip(slots.iter_mut()) {
                let idle = all & !*g.active();
                feed.fill(g, s, idle, sink);
            }
        }
    }
}
