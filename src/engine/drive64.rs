//! The driver of the 64-card move loops, written once for both (`moves64.rs`, in planes;
//! `kinds64.rs`, with the kinds queue): `G` groups of lanes stepped side by side, each lane's
//! game reported as soon as it stops, and the lane given the next game of the source.
//!
//! A loop brings its group ([`LaneGroup`]): its move, how a lane starts a game, and the results
//! its move leaves in the lanes that stopped. Everything here is `#[inline(always)]`, so each
//! loop compiles to one function per instruction set, as if written out.

use crate::engine::lanes::Finish;
use crate::engine::lanes64::Deal64;
use crate::engine::source64::Games;
use crate::engine::vec64::Vec64;

/// What the results of a stopped lane are made of, as a group's move leaves them.
pub(crate) struct Stopped<V> {
    /// Finished tricks times `2^(BITS / 2)` plus their cards.
    pub tc: V,
    /// Cards of an unfinished last trick.
    pub last: V,
    /// Bit `i`: player 2 won lane `i`'s game.
    pub winner: u32,
    /// Bit `i`: lane `i`'s game ended (else it reached the trick limit).
    pub ended: u32,
}

/// One group of lanes of a move loop, in the lane vector `V`.
pub(crate) trait LaneGroup<V: Vec64>: Copy {
    /// The constants of a move.
    type Consts;
    /// One move of every lane; the active lanes that stopped (their results in
    /// [`LaneGroup::stopped`]).
    fn step(&mut self, k: &Self::Consts) -> u32;
    /// The results the last move left.
    fn stopped(&self) -> Stopped<V>;
    /// Empties the pile, the debt and the counts of the `lanes` (bits).
    fn clear(&mut self, lanes: u32);
    /// Writes the hands of `g` (which has a move to make) into lane `i`, and its player to act.
    fn load(&mut self, i: usize, g: &Deal64);
    /// The index in the source of each lane's game, and the lanes playing one (bits).
    fn lanes(&mut self) -> (&mut [usize; 16], &mut u32);
}

/// Plays every game of `games` in the groups `groups` (idle) until it ends or has played the
/// trick limit of `k`, and reports each with `done(its number, finish)`, in no particular order.
#[inline(always)]
pub(crate) fn run<V: Vec64, L: LaneGroup<V>, S: Games, const G: usize>(
    mut groups: [L; G],
    k: &L::Consts,
    games: &mut S,
    done: &mut impl FnMut(usize, Finish),
) {
    let all = (1u32 << V::LANES) - 1;
    for g in groups.iter_mut() {
        refill(g, all, games, done);
    }
    loop {
        games.work();
        let mut stops = [0u32; G];
        for (g, s) in groups.iter_mut().zip(stops.iter_mut()) {
            *s = g.step(k);
        }
        let mut active = 0;
        for (g, &s) in groups.iter_mut().zip(stops.iter()) {
            if s != 0 {
                finish(g, s, games, done);
            }
            active |= *g.lanes().1;
        }
        if active == 0 {
            break;
        }
    }
}

/// Reports the games of the `stopped` lanes of `g` and loads the next games into them.
#[inline(always)]
fn finish<V: Vec64, L: LaneGroup<V>, S: Games>(
    g: &mut L,
    stopped: u32,
    games: &mut S,
    done: &mut impl FnMut(usize, Finish),
) {
    let r = g.stopped();
    let [mut tc, mut last] = [[0u64; 16]; 2];
    r.tc.store(&mut tc);
    r.last.store(&mut last);
    let (slot, active) = g.lanes();
    // Tricks in the high half of a lane, cards in the low half.
    let half = V::BITS / 2;
    let mut s = stopped;
    while s != 0 {
        let i = s.trailing_zeros() as usize;
        s &= s - 1;
        let finish = Finish::of_lane(
            r.ended >> i & 1 == 1,
            r.winner >> i & 1,
            (tc[i] >> half) as u32,
            (tc[i] & ((1 << half) - 1)) as u32,
            last[i] as u32,
        );
        done(slot[i], finish);
    }
    *active &= !stopped;
    refill(g, stopped, games, done);
}

/// Loads the next games into the `lanes` (bits) of `g`, as many as are left; a game over before
/// its first move is reported at once. The lanes start with an empty pile, no debt and no
/// tricks ([`LaneGroup::clear`]); each game is written into its lane in the registers.
#[inline(always)]
fn refill<V: Vec64, L: LaneGroup<V>, S: Games>(
    g: &mut L,
    lanes: u32,
    games: &mut S,
    done: &mut impl FnMut(usize, Finish),
) {
    g.clear(lanes);
    let mut s = lanes;
    'lanes: while s != 0 {
        let i = s.trailing_zeros() as usize;
        s &= s - 1;
        while let Some((number, game)) = games.next() {
            if let Some(finish) = game.over_at_start() {
                done(number, finish);
                continue;
            }
            g.load(i, &game);
            let (slot, active) = g.lanes();
            slot[i] = number;
            *active |= 1 << i;
            continue 'lanes;
        }
        break;
    }
}
