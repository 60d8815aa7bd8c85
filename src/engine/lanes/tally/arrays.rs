//! The counting batch's games as the kinds step takes them (`lanes/kinds.rs`), in either width:
//! `u32` lanes for decks of up to 34 cards, `u64` lanes past them. A hand keeps its face cards'
//! kinds as two-bit fields in one vector where the planes step keeps two planes (`lo`, `hi`), so
//! a move carries three fewer state vectors and about ten fewer operations. The tree walk queues
//! its games in planes; [`convert`] turns each game's planes into kinds once, before the lanes
//! start. A batch with a game of more face cards than the lanes' kinds hold (`kinds::max_faces`:
//! 15 in `u32` lanes, 31 in `u64`; no census deck: they have eight) is refused, and the search
//! never makes one. The driver's feed ([`ArrayFeed`]) loads the games from any [`ArraySource`]: the
//! batch's own arrays here, or the two-word planes of `split.rs`.

use super::batch::TallyBatch;
use super::soa::{KindsSoa, Lane, Soa};
use crate::engine::lanes::drive::{Feed, Sink};
use crate::engine::lanes::kinds::{self, Faces, KindsGroup, Marker, max_faces};
use crate::engine::vector::Vector;

/// Fills `batch`'s kinds from the planes of its games, for the lanes `V` of its width (`v`
/// vouches for the processor's features); false, and the kinds not to be used, when a game holds
/// more face cards than the lanes' kinds hold, or when its cards might not fit the lanes' count
/// within `limit` tricks (see `KindsGroup::tc`: the cards count in the low half of a lane).
///
/// `V::LANES` games at a time, in the lanes' registers (one game at a time, with `pext`/`pdep`
/// and scalar bit reversals, it took an eighth of a 32-card search): `convert_one` is the
/// reference the tests hold it to.
#[inline(always)]
pub(super) fn convert<E: Lane, V: Vector<Elem = E>>(
    v: V,
    batch: &mut TallyBatch<E>,
    limit: u32,
) -> bool {
    let _ = v;
    let w = V::BITS;
    debug_assert_eq!(w, E::BITS);
    let len = batch.len;
    let s = &batch.soa;
    let k = &mut batch.kinds;
    // SAFETY: `v` vouches for the processor's features.
    let [zero, one, two] = [0, 1, 2].map(|x| unsafe { V::splat(x) });
    // A game's face cards, and the cards before the lanes, must stay below these.
    // SAFETY: as above.
    let most = unsafe { V::splat(u64::from(max_faces(w)) + 1) };
    // At most `w` cards a trick, so fewer than `w * limit` cards in the lanes.
    let room = (1u64 << (w / 2)).saturating_sub(u64::from(w) * u64::from(limit));
    // SAFETY: as above.
    let room = unsafe { V::splat(room) };
    let mut bad = 0;
    let mut i = 0;
    while i < len {
        // The games of this step; past `len` the arrays' padding (`PAD >= LANES`), ignored.
        let live = if len - i >= V::LANES {
            (1u32 << V::LANES) - 1
        } else {
            (1u32 << (len - i)) - 1
        };
        // SAFETY: every array holds `BATCH + PAD` values, `i < len <= BATCH` and
        // `PAD >= V::LANES`.
        let ld = |a: &Vec<E>| unsafe { V::load(a.as_ptr().add(i)) };
        let (fa, fb, pf) = (ld(&s.fa), ld(&s.fb), ld(&s.pf));
        let (va, na) = face_kinds(fa, ld(&s.la), ld(&s.ha), zero, one, two);
        let (vb, nb) = face_kinds(fb, ld(&s.lb), ld(&s.hb), zero, one, two);
        let (pk, np) = face_kinds(pf, ld(&s.pl), ld(&s.ph), zero, one, two);
        // The pile's form (see `KindsGroup::pv`): the hand form with bit 0 flipped; the next kind
        // goes to `2 * faces`.
        let pv = pk.xor(one);
        let pr = np.add(np);
        let faces = na.add(nb).add(np);
        bad |= live & !V::bits(faces.lt(most) & ld(&s.cards).lt(room));
        // SAFETY: as for `ld`, the kinds arrays holding `BATCH + PAD` values too.
        let st = |a: &mut Vec<E>, x: V| unsafe { x.store_to(a.as_mut_ptr().add(i)) };
        st(&mut k.fa, fa.reverse());
        st(&mut k.fb, fb.reverse());
        st(&mut k.pf, pf.reverse());
        st(&mut k.va, va);
        st(&mut k.vb, vb);
        st(&mut k.pv, pv);
        st(&mut k.pr, pr);
        i += V::LANES;
    }
    bad == 0
}

/// The kinds queue of each lane's face cards (their `penalty - 1` from the planes `lo` and `hi`,
/// two bits each, the first lowest, a 1 above the last) and their count: the `k`-th face card of
/// every lane at once, so as many rounds as the most face cards of a lane.
#[inline(always)]
fn face_kinds<V: Vector>(faces: V, lo: V, hi: V, zero: V, one: V, two: V) -> (V, V) {
    let (mut f, mut kinds, mut count) = (faces, zero, zero);
    // Where the `k`-th face card's kind goes: bit `2k` and bit `2k + 1`.
    let (mut bit_lo, mut bit_hi) = (one, two);
    loop {
        let left = !f.eq(zero);
        if V::bits(left) == 0 {
            break;
        }
        let first = f.and(zero.sub(f));
        kinds = kinds
            .or(V::keep(!lo.and(first).eq(zero), bit_lo))
            .or(V::keep(!hi.and(first).eq(zero), bit_hi));
        count = count.add(V::keep(left, one));
        f = f.and(f.sub(one));
        bit_lo = bit_lo.shl(two);
        bit_hi = bit_hi.shl(two);
    }
    (kinds.or(one.shl(count.add(count))), count)
}

/// [`convert`] of game `i` alone, as the kinds were first made (the reference of the tests):
/// its hands' and pile's face planes reversed and their kinds, and whether it fits the lanes.
#[cfg(test)]
pub(super) fn convert_one<E: Lane>(batch: &TallyBatch<E>, i: usize, limit: u32) -> ([E; 7], bool) {
    let w = E::BITS;
    let s = &batch.soa;
    let u = |x: E| -> u64 { x.into() };
    let rev = |x: E| E::of_u64(u(x).reverse_bits() >> (64 - w));
    // The plain one-by-one form (`Vector::face_kinds` of the portable lanes).
    use crate::engine::vector::Plain64x4;
    // SAFETY: the portable lanes need no feature.
    let portable = unsafe { Plain64x4::splat(0) };
    let kinds = |f: E, lo: E, hi: E| portable.face_kinds(u(f), u(lo), u(hi));
    let pf = u(s.pf[i]);
    let pv = kinds(s.pf[i], s.pl[i], s.ph[i]) ^ 1;
    let faces_pile = pf.count_ones();
    let faces = u(s.fa[i]).count_ones() + u(s.fb[i]).count_ones() + pf.count_ones();
    let fits =
        faces <= max_faces(w) && u(s.cards[i]) + u64::from(w) * u64::from(limit) < 1 << (w / 2);
    let of = E::of_u64;
    (
        [
            rev(s.fa[i]),
            rev(s.fb[i]),
            rev(s.pf[i]),
            of(kinds(s.fa[i], s.la[i], s.ha[i])),
            of(kinds(s.fb[i], s.lb[i], s.hb[i])),
            of(pv),
            of(u64::from(2 * faces_pile)),
        ],
        fits,
    )
}

/// Game `i`'s converted kinds as [`convert`] left them, in [`convert_one`]'s order.
#[cfg(test)]
pub(super) fn converted<E: Lane>(batch: &TallyBatch<E>, i: usize) -> [E; 7] {
    let k = &batch.kinds;
    [
        k.fa[i], k.fb[i], k.pf[i], k.va[i], k.vb[i], k.pv[i], k.pr[i],
    ]
}

/// Plays `batch`'s games (the winners of the plain games counted, the special ones left in
/// `batch.out`: see `Special`'s sink), in `G` groups of the kinds lanes `V`, with `batch.out`
/// already reset. [`convert`] must have returned true for the batch and `limit` (which keeps
/// each lane's cards within the low half of its count, `KindsGroup::tc`).
///
/// # Safety
/// The processor has `V`'s features.
#[inline(always)]
pub(super) unsafe fn play<E: Lane, V: Vector<Elem = E>, const G: usize>(
    batch: &mut TallyBatch<E>,
    limit: u32,
) {
    let src = Arrays {
        soa: &batch.soa,
        kinds: &batch.kinds,
    };
    let feed = &mut ArrayFeed::new(&src, batch.len);
    // SAFETY: the caller's contract; every array holds the batch's games.
    unsafe { kinds::play::<V, V, Marker, G>(feed, limit, &mut batch.out) }
}

/// Where a group's games come from: arrays of the lanes' element, one value a game.
pub(super) trait ArraySource<V: Vector, P: Faces<V>> {
    /// Loads games `at`, `at + 1`, ... into the set `lanes` of `g`, one expand-load a variable,
    /// the player to act first included.
    ///
    /// # Safety
    /// Every array holds at least `at + lanes.count_ones()` values; the processor has `V`'s and
    /// `P`'s features.
    unsafe fn load(&self, g: &mut KindsGroup<V, P>, lanes: u32, at: usize);
}

/// The batch's own arrays, for lanes of its element.
struct Arrays<'a, E> {
    soa: &'a Soa<E>,
    kinds: &'a KindsSoa<E>,
}

impl<E: Lane, V: Vector<Elem = E>> ArraySource<V, V> for Arrays<'_, E> {
    #[inline(always)]
    unsafe fn load(&self, g: &mut KindsGroup<V>, lanes: u32, at: usize) {
        let (soa, kinds) = (self.soa, self.kinds);
        // SAFETY: the caller's contract.
        let ld = |x: V, v: &Vec<E>| unsafe { x.expand_load(lanes, v.as_ptr().add(at)) };
        g.fa = ld(g.fa, &kinds.fa);
        g.fb = ld(g.fb, &kinds.fb);
        g.pf = ld(g.pf, &kinds.pf);
        let (k, s) = (kinds, soa);
        // SAFETY: the caller's contract.
        unsafe {
            load_words(
                g,
                lanes,
                at,
                [
                    &k.va, &k.vb, &s.na, &s.nb, &k.pv, &k.pr, &s.n, &s.debt, &s.cards, &s.who,
                ],
            )
        }
    }
}

/// Loads the one-word state of games `at`, `at + 1`, ... into the set `lanes` of `g`, one
/// expand-load a variable, from `arrays`: the kinds `va`, `vb`, the counts `na`, `nb`, the pile's
/// kinds `pv`, `pr`, its cards `n`, the debt, the cards played before the lanes (as `tc`: no
/// tricks yet), and the player to act first (bit 0: into the group's book as a mask, where
/// seating lane by lane cost a scalar load and four operations a game).
///
/// # Safety
/// As [`ArraySource::load`].
#[inline(always)]
pub(super) unsafe fn load_words<V: Vector, P: Faces<V>>(
    g: &mut KindsGroup<V, P>,
    lanes: u32,
    at: usize,
    arrays: [&Vec<V::Elem>; 10],
) {
    let [va, vb, na, nb, pv, pr, n, debt, cards, who] = arrays;
    // SAFETY: the caller's contract.
    let ld = |x: V, v: &Vec<V::Elem>| unsafe { x.expand_load(lanes, v.as_ptr().add(at)) };
    g.va = ld(g.va, va);
    g.vb = ld(g.vb, vb);
    g.na = ld(g.na, na);
    g.nb = ld(g.nb, nb);
    g.pv = ld(g.pv, pv);
    g.pr = ld(g.pr, pr);
    g.n = ld(g.n, n);
    g.debt = ld(g.debt, debt);
    g.tc = ld(g.tc, cards);
    // SAFETY: as above.
    let (zero, one) = unsafe { (V::splat(0), V::splat(1)) };
    let first = V::bits(!ld(zero, who).and(one).eq(zero));
    g.book.who = g.book.who & !lanes | first & lanes;
}

/// The driver's feed of a batch's arrays: the next games, as many as there are idle lanes,
/// loaded once a quarter of a group is idle (one expand-load a variable).
pub(super) struct ArrayFeed<'a, S> {
    src: &'a S,
    next: usize,
    total: usize,
}

impl<'a, S> ArrayFeed<'a, S> {
    /// The `total` games of `src`'s arrays, which hold `total + V::LANES` values.
    pub(super) fn new(src: &'a S, total: usize) -> Self {
        ArrayFeed {
            src,
            next: 0,
            total,
        }
    }
}

/// The lowest `n` set bits of `m`.
fn lowest(m: u32, n: usize) -> u32 {
    let (mut rest, mut out) = (m, 0);
    for _ in 0..n {
        out |= rest & rest.wrapping_neg();
        rest &= rest.wrapping_sub(1);
    }
    out
}

impl<V: Vector, P: Faces<V>, S: ArraySource<V, P>> Feed<V, KindsGroup<V, P>> for ArrayFeed<'_, S> {
    const EAGER: bool = false;
    #[inline(always)]
    fn work(&mut self) {}
    #[inline(always)]
    fn left(&self) -> bool {
        self.next < self.total
    }
    /// The lowest `idle` lanes of `g` take the next games.
    #[inline(always)]
    fn fill(
        &mut self,
        g: &mut KindsGroup<V, P>,
        slots: &mut [usize; 16],
        idle: u32,
        _: &mut impl Sink<V>,
    ) {
        let at = self.next;
        let fresh = (idle.count_ones() as usize).min(self.total - at);
        // All the idle lanes but at the batch's end (a loop there: a branch taken once a batch).
        let lanes = if fresh == idle.count_ones() as usize {
            idle
        } else {
            lowest(idle, fresh)
        };
        // SAFETY: every array holds at least `total >= at + fresh` values (and the padding of
        // a vector), and the loads read `fresh` of them from `at`; `g` vouches for the features.
        unsafe { self.src.load(g, lanes, at) };
        let mut m = lanes;
        let mut j = at;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            slots[i] = j;
            j += 1;
        }
        g.book.active |= lanes;
        self.next = at + fresh;
    }
}
