//! The kinds step: the move loop of the lanes for games of few face cards (at most 31 in `u64`
//! lanes, every standard deal), written once over the lane vector [`Vector`]: the moves of the
//! planes step (`planes.rs`) with fewer operations.
//!
//! A hand keeps its face cards' positions as a plane (`f`), as before, but their kinds as a queue
//! of two-bit fields (`v`: the first face card's `penalty - 1` in the low bits, a 1 above the
//! last), where the planes step keeps two more planes. The face card a move puts on the pile is
//! always the first of its hand, so its kind is the low two bits of `v` (no shift by its
//! position), a hand's kinds shift by two only when it plays a face card, and a swap of the two
//! hands moves three vectors instead of four. The pile keeps its kinds the same way; the player
//! who takes it appends them above its own, at its marker (the highest set bit), or, where the
//! kinds are [`Counted`] (a [`Queue`] type), at twice its face cards, kept beside them: then
//! the kinds of a game's face cards need two bits each, no more, so a standard deal's 16 fit
//! 32 bits.
//!
//! The face planes run from the top: a hand's card `i` is bit `63 - i` (where `Game<u64>` and the
//! tree walk have bit `i`; a refill reverses them), so a hand's first face card is its leading
//! zeros, one operation where the trailing zeros took four, and a hand gives up cards by a left
//! shift.
//!
//! The step is written for either lane width of [`Vector`] (the module's numbers are for 64-bit
//! lanes): [`run`] plays random deals in 64-bit lanes, and the exhaustive search's batch
//! (`tally.rs`) plays its fixed games in 64-bit lanes past 32 cards and in 32-bit lanes up to
//! 32, where a hand's card `i` is bit `31 - i` and the kinds of every face card and the marker
//! fit up to 15 face cards ([`max_faces`]). The face planes are a [`Faces`] type: the lane word
//! itself, or [`Split`], two 32-bit words for games of up to 60 cards. [`run_split`] plays random
//! deals of up to 60 cards and 16 face cards (every standard deal) in such lanes with [`Counted`]
//! kinds, twice the lanes of the `u64` form.

use super::drive::{self, Book, Feed, LaneGroup, MoveEnd, Sink, Stopped};
use super::source::Most;
use crate::engine::game::Game;
use crate::engine::vector::{Funnel, Vector};

mod consts;
mod faces;
mod queue;
pub(crate) use consts::KindsConsts;
pub(crate) use faces::{Faces, SPLIT_MAX_CARDS, Split};
pub(crate) use queue::{Counted, Marker, Queue, counted_max_faces};

/// The most face cards a game may hold in lanes of `bits` bits: the kinds of them all and the
/// marker fit in `bits - 1` bits (see `KindsGroup::pv`).
pub(crate) const fn max_faces(bits: u32) -> u32 {
    bits / 2 - 1
}

/// The most face cards a game may hold in 64-bit lanes.
pub(crate) const MAX_FACES: u32 = max_faces(64);

/// Whether games of `most` fit the 64-bit lanes of [`run`] (at most [`MAX_FACES`] face cards).
pub(crate) fn fits(most: Most) -> bool {
    most.faces <= MAX_FACES
}

/// One group of lanes: the state of its games, the hand of the player to act first as `a`.
#[derive(Clone, Copy)]
pub(crate) struct KindsGroup<V: Vector, P: Faces<V> = V, Q: Queue<V> = Marker> {
    /// The face cards of each hand, card `i` at bit `63 - i` (see the module head and
    /// [`Faces`]).
    pub(crate) fa: P,
    pub(crate) fb: P,
    /// The kinds of each hand's face cards (see the module head).
    pub(crate) va: V,
    pub(crate) vb: V,
    pub(crate) na: V,
    pub(crate) nb: V,
    /// The pile: its face cards' plane; their kinds, as a hand's with bit 0 flipped (so an
    /// empty pile is 0), so that the taker puts them above its own kinds with one shift to its
    /// marker and a xor (bit 0 lands on the marker, which leaves the first kind's low bit;
    /// the pile's marker becomes the taker's; the kinds of all faces and the marker fill at
    /// most `BITS - 1` bits), or, with [`Counted`] kinds, as a hand's without a marker (the
    /// xor an or); where the next kind goes (twice its face cards); its cards; and the debt
    /// of the player to act.
    pub(crate) pf: P,
    pub(crate) pv: V,
    pub(crate) pr: V,
    pub(crate) n: V,
    pub(crate) debt: V,
    /// Finished tricks times `2^(BITS / 2)` plus their cards (as the planes step, which has 2^32).
    pub(crate) tc: V,
    /// Who is `a`, which lanes play, and the results of those that stopped.
    pub(crate) book: Book<V>,
    /// Where the hands' kinds end, when not at a marker.
    pub(crate) q: Q,
}

impl<V: Vector, P: Faces<V>, Q: Queue<V>> KindsGroup<V, P, Q> {
    /// A group with no game.
    ///
    /// # Safety
    /// The processor has `V`'s and `P`'s features.
    #[inline(always)]
    pub(crate) unsafe fn new() -> Self {
        // SAFETY: the caller's contract.
        let (z, zp, zq) = unsafe { (V::splat(0), P::zero(), Q::zero()) };
        KindsGroup {
            fa: zp,
            fb: zp,
            va: z,
            vb: z,
            na: z,
            nb: z,
            pf: zp,
            pv: z,
            pr: z,
            n: z,
            debt: z,
            tc: z,
            // SAFETY: the caller's contract.
            book: unsafe { Book::new() },
            q: zq,
        }
    }

    /// One move of every lane; the lanes that stopped (ended, or `tricks >= limit`) among the
    /// active ones, their results in the group's [`Book`]. `k` holds the constants.
    /// `ALWAYS`: the results are computed at every move, not only behind a branch on "some lane
    /// stopped" (taken at about a fifth of the moves, so often mispredicted, which also stalls
    /// the next move behind this one's whole chain).
    #[inline(always)]
    pub(crate) fn step_results<const ALWAYS: bool>(&mut self, k: &KindsConsts<V>) -> u32 {
        let KindsConsts {
            zero,
            one,
            two,
            three,
            trick,
            limit,
            ..
        } = *k;
        let KindsGroup {
            fa,
            fb,
            va,
            vb,
            na,
            nb,
            pf,
            pv,
            pr,
            n,
            debt,
            tc,
            ..
        } = *self;
        let lead = debt.eq(zero);
        // The position of each hand's first face card (the planes run from the top); `min(lz(fa),
        // na)` stands for it below: where they differ (no face card in a's hand) the lane takes
        // no branch that reads it.
        let za = fa.first(k).min(na);
        // Where b's marker is (see `vb3`).
        let mb = self.q.end_b(vb, pr);
        let zb = fb.first(k).min(nb);
        // The lead phase: a plays cards 0, 1, ... and b between them; it stops at the first face
        // card, b's first when `zb < za` (its card `zb` comes before a's card `za`), or when
        // its player runs out; either way after `idx + 1` cards of a and `idx` or `idx + 1` of b.
        let b_first = zb.lt(za);
        let idx = za.min(zb);
        let lx = V::select(b_first, nb, na);
        let lead_end = !idx.lt(lx);
        let face = za.lt(debt.min(na));
        let from_b = lead & b_first;
        // The face card put on the pile is the first of its hand: its kind is the low field.
        let kind = V::select(from_b, vb, va).and(three);
        let c = kind.add(one);
        let short = na.lt(debt);
        // Where a lane's game ends in this move (a lead player runs out, or a payer is short)
        // the masks below may say anything that leaves its results alone (the tricks and cards
        // counted, and the winner from the players before the move): a stopped lane is
        // reported from those and reloaded. So a lead phase puts a card, and a swap is every
        // move but the lead phase that b stops (after which a pays b).
        let put = lead | face;
        let complete = !put & !short;
        let pay_end = !put & short;
        let swap = !from_b;
        // Cards a and b give up: the lead phase's alternate runs (the stopping card to its
        // player), a payment up to its penalty card, or the whole debt; the card put on the
        // pile lands after the cards given up before it.
        let q = V::select(lead, idx, za);
        let pop_a = V::select(put, q.add(one), debt);
        let pop_b = V::keep(lead, idx.inc_where(b_first));
        // The pile's cards after the move: the cards given up; where a card is put, it is the
        // last of them (at `n2 - 1`).
        let n2 = n.add(pop_a).add(pop_b);
        let fa2 = fa.drop_top(pop_a);
        let na2 = na.sub(pop_a);
        let fb2 = fb.drop_top(pop_b);
        let nb2 = nb.sub(pop_b);
        // The hand that put a face card loses its first kind.
        let a_put = put & !from_b;
        let va2 = va.shr2_where(a_put);
        let vb2 = vb.shr2_where(from_b);
        let pf2 = pf.put(put, n2, k);
        // The kind's field (its marker moved up past it: see `KindsGroup::pv`).
        let pv2 = pv.xor(V::keep(put, Q::field(kind, k).shl(pr)));
        let pr2 = pr.add(V::keep(put, two));
        // A finished payment: b takes the pile (its kinds go above b's, at b's marker) and leads.
        // Such a move is a payment without a face card: b gave up nothing, and the pile has
        // the same face cards and `debt` more cards. So the take reads the state from before
        // the move, not the end of the move's chain.
        let taken = n.add(debt);
        let fb3 = fb2.append(complete, pf, nb, k);
        let vb3 = vb2.xor(V::keep(complete, pv.shl(mb)));
        let nb3 = nb2.add(V::keep(complete, taken));
        let tc = tc.add(V::keep(complete, taken.add(trick)));
        self.tc = tc;
        let more = !complete;
        self.pf = P::only(more, pf2);
        self.pv = V::keep(more, pv2);
        self.pr = V::keep(more, pr2);
        self.q = self.q.next(a_put, self.pr, swap, k);
        self.n = V::keep(more, n2);
        self.debt = V::keep(more, c);
        self.fa = P::pick(swap, fb3, fa2);
        self.fb = P::pick(swap, fa2, fb3);
        self.va = V::select(swap, vb3, va2);
        self.vb = V::select(swap, va2, vb3);
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
            .end::<ALWAYS>(end, tc, limit, || (n2.sub(one), n.add(na)))
    }
}

impl<V: Vector, P: Faces<V>, Q: Queue<V>> LaneGroup<V> for KindsGroup<V, P, Q> {
    type Consts = KindsConsts<V>;

    #[inline(always)]
    fn step<const ALWAYS: bool>(&mut self, k: &KindsConsts<V>) -> u32 {
        KindsGroup::step_results::<ALWAYS>(self, k)
    }

    #[inline(always)]
    fn stopped(&self) -> Stopped<V> {
        self.book.stopped(self.tc)
    }

    /// One masked move a variable.
    #[inline(always)]
    fn clear(&mut self, lanes: u32) {
        let keep = !self.n.mask(lanes);
        self.pf = P::only(keep, self.pf);
        for v in [
            &mut self.pv,
            &mut self.pr,
            &mut self.n,
            &mut self.debt,
            &mut self.tc,
        ] {
            *v = V::keep(keep, *v);
        }
    }

    /// The face planes reversed (a hand's card `i` at bit `63 - i`) and the kinds queued.
    #[inline(always)]
    fn load(&mut self, i: usize, g: &Game<u64>) {
        let a = g.next as usize & 1;
        let b = a ^ 1;
        let faces = g.faces.map(u64::count_ones);
        // (No closure: see `vector::avx2::planes`.)
        let ka = Q::kinds(self.va.face_kinds(g.faces[a], g.lo[a], g.hi[a]), faces[a]);
        let kb = Q::kinds(self.va.face_kinds(g.faces[b], g.lo[b], g.hi[b]), faces[b]);
        self.q = self.q.with_lane(i, faces[a], faces[0] + faces[1]);
        self.fa = self.fa.with_lane(i, g.faces[a].reverse_bits());
        self.fb = self.fb.with_lane(i, g.faces[b].reverse_bits());
        self.va = self.va.with_lane(i, ka);
        self.vb = self.vb.with_lane(i, kb);
        self.na = self.na.with_lane(i, u64::from(g.len[a]));
        self.nb = self.nb.with_lane(i, u64::from(g.len[b]));
        self.book.seat(i, a as u32);
    }

    #[inline(always)]
    fn active(&mut self) -> &mut u32 {
        &mut self.book.active
    }
}

/// Plays every game of `feed` (each of at most [`MAX_FACES`] face cards: [`fits`]) in 64-bit
/// lanes until it ends or has played `limit` tricks, in `G` groups, and reports each to `sink`.
///
/// # Safety
/// The processor has `V`'s features.
#[inline(always)]
pub(crate) unsafe fn run<V: Vector, const G: usize>(
    feed: &mut impl Feed<V, KindsGroup<V>>,
    limit: u32,
    sink: &mut impl Sink<V>,
) {
    // The games come in 64-bit planes, as 64-bit lanes take them.
    assert!(V::BITS == 64 && V::LANES <= 8, "64-bit lanes");
    // SAFETY: the caller's contract.
    unsafe { play::<V, V, Marker, G>(feed, limit, sink) }
}

/// Whether games of `most` fit the split lanes of [`run_split`]: at most 60 cards ([`Split`])
/// and 16 face cards ([`Counted`] kinds in 32 bits), so every standard deal.
pub(crate) fn fits_split(most: Most) -> bool {
    most.cards <= SPLIT_MAX_CARDS && most.faces <= counted_max_faces(32)
}

/// [`run`] in `u32` lanes ([`fits_split`] games, trick limits below 1024): the face planes
/// [`Split`] in two words, the kinds [`Counted`]. Twice the lanes of `u64`s a register, for a
/// few operations more a move.
///
/// # Safety
/// The processor has `V`'s features (and the funnel shifts').
#[inline(always)]
pub(crate) unsafe fn run_split<V: Funnel, const G: usize>(
    feed: &mut impl Feed<V, KindsGroup<V, Split<V>, Counted<V>>>,
    limit: u32,
    sink: &mut impl Sink<V>,
) {
    assert!(V::BITS == 32 && V::LANES <= 16, "32-bit lanes");
    // SAFETY: the caller's contract.
    unsafe { play::<V, Split<V>, Counted<V>, G>(feed, limit, sink) }
}

/// `G` groups of `KindsGroup<V, P, Q>` play the games of `feed` until each ends or has played
/// `limit` tricks, and report them to `sink` (see [`run`]).
///
/// # Safety
/// The processor has `V`'s and `P`'s features.
#[inline(always)]
pub(crate) unsafe fn play<V: Vector, P: Faces<V>, Q: Queue<V>, const G: usize>(
    feed: &mut impl Feed<V, KindsGroup<V, P, Q>>,
    limit: u32,
    sink: &mut impl Sink<V>,
) {
    // A lane counts its tricks and cards in the two halves of its word (`KindsGroup::tc`): the
    // tricks stay below `2^(BITS / 2)`, and the cards too (at most 60 a trick, so `limit`
    // below a 64th of it).
    assert!(
        limit < 1 << (V::BITS / 2 - 6),
        "a trick limit within the lanes' count"
    );
    // SAFETY: the caller's contract.
    let k = unsafe { KindsConsts::new(limit) };
    // SAFETY: as above.
    let groups: [KindsGroup<V, P, Q>; G] = std::array::from_fn(|_| unsafe { KindsGroup::new() });
    drive::run(groups, &k, feed, sink);
}
