//! The planes step: the general move loop of the lanes (any number of face cards), written once
//! over the lane vector [`Vector`] in `u64` lanes, each game from a trick boundary to its end or
//! a trick limit.
//!
//! Every lane computes every case of a move (a lead phase, one payment, or the end of a payment
//! and the taking of the pile) and selects its own, so the only branch left is "did some lane
//! stop". One move is a long chain of dependent operations, so a single group waits on latency;
//! two groups stepped side by side give the processor independent work. The groups are run by
//! `drive.rs`: a stopped lane reports its game at once and takes the next one.
//!
//! It plays the random games that have more face cards than the kinds step takes (`kinds.rs`:
//! at most 31 in `u64` lanes, every standard deal), in every form.

use super::drive::{self, Book, Feed, LaneGroup, MoveEnd, Sink, Stopped};
use crate::engine::game::Game;
use crate::engine::vector::Vector;

/// One group of lanes: the state of its games, the hand of the player to act first as `a`.
#[derive(Clone, Copy)]
pub(crate) struct PlanesGroup<V: Vector> {
    fa: V,
    fb: V,
    la: V,
    lb: V,
    ha: V,
    hb: V,
    na: V,
    nb: V,
    /// The pile (three planes, `n` cards) and the debt of the player to act.
    pf: V,
    pl: V,
    ph: V,
    n: V,
    debt: V,
    /// Finished tricks times 2^32 plus their cards: one add counts both, and the trick limit
    /// is one compare (the cards stay below 2^32: at most 64 a trick, under 2^26 tricks).
    tc: V,
    /// Who is `a`, which lanes play, and the results of those that stopped.
    book: Book<V>,
}

impl<V: Vector> PlanesGroup<V> {
    /// A group with no game.
    ///
    /// # Safety
    /// The processor has `V`'s features.
    #[inline(always)]
    unsafe fn new() -> Self {
        // SAFETY: the caller's contract.
        let z = unsafe { V::splat(0) };
        PlanesGroup {
            fa: z,
            fb: z,
            la: z,
            lb: z,
            ha: z,
            hb: z,
            na: z,
            nb: z,
            pf: z,
            pl: z,
            ph: z,
            n: z,
            debt: z,
            tc: z,
            // SAFETY: the caller's contract.
            book: unsafe { Book::new() },
        }
    }

    /// One move of every lane; the lanes that stopped (ended, or `tricks >= limit`) among the
    /// active ones, their results in the group's [`Book`] (`ALWAYS`: at every move).
    /// `trick` is `1 << 32` and `limit` the trick limit times `1 << 32`, in every lane.
    #[inline(always)]
    fn step<const ALWAYS: bool>(&mut self, zero: V, one: V, trick: V, limit: V) -> u32 {
        let PlanesGroup {
            fa,
            fb,
            la,
            lb,
            ha,
            hb,
            na,
            nb,
            pf,
            pl,
            ph,
            n,
            debt,
            tc,
            ..
        } = *self;
        let lead = debt.eq(zero);
        // `min(tz(fa), na)` stands for `tz(fa)` below: where they differ (no face card in a's
        // hand) the lane takes no branch that reads it.
        let za = fa.tz_min(na);
        let zb = fb.tz_min(nb);
        let sa = za.add(za);
        let sb = zb.add(zb).add(one);
        let b_first = sb.lt(sa);
        let step = sa.min(sb);
        let idx = step.shr1();
        let lx = V::select(b_first, nb, na);
        let lead_end = !idx.lt(lx);
        let face = za.lt(debt.min(na));
        let from_b = lead & b_first;
        let j = V::select(lead, idx, za);
        let lo = V::select(from_b, lb, la);
        let hi = V::select(from_b, hb, ha);
        let klo = lo.shr(j).and(one);
        let khi = hi.shr(j).and(one);
        let c = klo.add(khi.add(khi)).add(one);
        let short = na.lt(debt);
        let pay_end = !lead & !face & short;
        let face = !lead & face;
        let complete = !lead & !face & !pay_end;
        let lead_face = lead & !lead_end;
        let put = lead_face | face;
        let at = n.add(V::select(lead, step, za));
        // Cards a and b give up: the lead phase's alternate runs (the stopping card to its
        // player), a payment up to its penalty card, or the whole debt.
        let half_up = step.add(one).shr1();
        let pop_a_lead = V::select(b_first, half_up, half_up.add(one));
        let pop_a_pay = V::select(face, za.add(one), debt);
        let pop_a = V::select(lead, pop_a_lead, pop_a_pay);
        let pop_b = V::keep(lead, V::select(b_first, idx.add(one), idx));
        let fa2 = fa.shr(pop_a);
        let la2 = la.shr(pop_a);
        let ha2 = ha.shr(pop_a);
        let na2 = na.sub(pop_a);
        let fb2 = fb.shr(pop_b);
        let lb2 = lb.shr(pop_b);
        let hb2 = hb.shr(pop_b);
        let nb2 = nb.sub(pop_b);
        let bit = V::keep(put, one.shl(at));
        let pf2 = pf.or(bit);
        let pl2 = pl.or(bit.and(zero.sub(klo)));
        let ph2 = ph.or(bit.and(zero.sub(khi)));
        let n2 = V::select(put, at.add(one), n.add(debt));
        // A finished payment: b takes the pile and leads.
        let fb3 = fb2.or(V::keep(complete, pf2.shl(nb2)));
        let lb3 = lb2.or(V::keep(complete, pl2.shl(nb2)));
        let hb3 = hb2.or(V::keep(complete, ph2.shl(nb2)));
        let nb3 = nb2.add(V::keep(complete, n2));
        let tc = tc.add(V::keep(complete, n2.add(trick)));
        self.tc = tc;
        let more = !complete;
        self.pf = V::keep(more, pf2);
        self.pl = V::keep(more, pl2);
        self.ph = V::keep(more, ph2);
        self.n = V::keep(more, n2);
        self.debt = V::keep(more, c);
        let swap = (lead_face & !b_first) | face | complete;
        self.fa = V::select(swap, fb3, fa2);
        self.fb = V::select(swap, fa2, fb3);
        self.la = V::select(swap, lb3, la2);
        self.lb = V::select(swap, la2, lb3);
        self.ha = V::select(swap, hb3, ha2);
        self.hb = V::select(swap, ha2, hb3);
        self.na = V::select(swap, nb3, na2);
        self.nb = V::select(swap, na2, nb3);
        let over = complete & na2.eq(zero);
        let end = MoveEnd {
            lead,
            lead_end,
            b_first,
            pay_end,
            over,
            swap,
        };
        self.book
            .end::<ALWAYS>(end, tc, limit, || (n.add(step), n.add(na)))
    }
}

/// The constants of a move, in every lane: `trick` is `1 << 32` and `limit` the trick limit
/// times `1 << 32`.
#[derive(Clone, Copy)]
pub(crate) struct PlanesConsts<V> {
    zero: V,
    one: V,
    trick: V,
    limit: V,
}

impl<V: Vector> LaneGroup<V> for PlanesGroup<V> {
    type Consts = PlanesConsts<V>;

    #[inline(always)]
    fn step<const ALWAYS: bool>(&mut self, k: &PlanesConsts<V>) -> u32 {
        PlanesGroup::step::<ALWAYS>(self, k.zero, k.one, k.trick, k.limit)
    }

    #[inline(always)]
    fn stopped(&self) -> Stopped<V> {
        self.book.stopped(self.tc)
    }

    /// One masked move a variable.
    #[inline(always)]
    fn clear(&mut self, lanes: u32) {
        let keep = !self.pf.mask(lanes);
        for v in [
            &mut self.pf,
            &mut self.pl,
            &mut self.ph,
            &mut self.n,
            &mut self.debt,
            &mut self.tc,
        ] {
            *v = V::keep(keep, *v);
        }
    }

    #[inline(always)]
    fn load(&mut self, i: usize, g: &Game<u64>) {
        let a = g.next as usize & 1;
        let b = a ^ 1;
        self.fa = self.fa.with_lane(i, g.faces[a]);
        self.fb = self.fb.with_lane(i, g.faces[b]);
        self.la = self.la.with_lane(i, g.lo[a]);
        self.lb = self.lb.with_lane(i, g.lo[b]);
        self.ha = self.ha.with_lane(i, g.hi[a]);
        self.hb = self.hb.with_lane(i, g.hi[b]);
        self.na = self.na.with_lane(i, u64::from(g.len[a]));
        self.nb = self.nb.with_lane(i, u64::from(g.len[b]));
        self.book.seat(i, a as u32);
    }

    #[inline(always)]
    fn active(&mut self) -> &mut u32 {
        &mut self.book.active
    }
}

/// Plays every game of `feed` until it ends or has played `limit` tricks, in `G` groups, and
/// reports each to `sink`.
///
/// # Safety
/// The processor has `V`'s features.
#[inline(always)]
pub(crate) unsafe fn run<V: Vector, const G: usize>(
    feed: &mut impl Feed<V, PlanesGroup<V>>,
    limit: u32,
    sink: &mut impl Sink<V>,
) {
    // The cards of a lane's finished tricks stay below 2^32 (see `PlanesGroup::tc`).
    assert!(limit < 1 << 26, "a trick limit below 2^26");
    assert!(V::BITS == 64, "64-bit lanes");
    // SAFETY: the caller's contract.
    let k = unsafe {
        PlanesConsts {
            zero: V::splat(0),
            one: V::splat(1),
            trick: V::splat(1 << 32),
            limit: V::splat(u64::from(limit) << 32),
        }
    };
    // SAFETY: as above.
    let groups: [PlanesGroup<V>; G] = std::array::from_fn(|_| unsafe { PlanesGroup::new() });
    drive::run(groups, &k, feed, sink);
}
