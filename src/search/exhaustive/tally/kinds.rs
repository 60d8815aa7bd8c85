//! The batch of `tally.rs` played with the kinds queue of `engine/kinds64.rs`, in either width:
//! sixteen `u32` lanes for decks of up to 32 cards, eight `u64` lanes past them. A hand keeps its
//! face cards' kinds as two-bit fields in one vector where the planes' loop
//! (`engine/avx512_moves.rs`) keeps two planes (`lo`, `hi`), so a move carries three fewer state
//! vectors and about ten fewer operations. The tree walk queues its games in planes; [`convert`]
//! turns each game's planes into kinds once, before the lanes start. A batch with a game of more
//! face cards than the lanes' kinds hold (`kinds64::max_faces`: 15 in `u32` lanes, 31 in `u64`;
//! no census deck: they have eight) takes the planes' loop instead. The references are that loop
//! and the general lanes: `tally.rs`'s tests hold all of them to the same counts, in AVX-512 and
//! in the portable lanes.

use super::{Batch, Soa, Special, TallyPlane};
use crate::engine::kinds64::{Consts, Group, max_faces};
use crate::engine::vec64::Vec64;

/// The face planes and kinds of the queued games' hands and piles, in `kinds64.rs`'s form
/// (`Group`'s `fa`, `fb` and `pf`, reversed: card `i` at bit `BITS - 1 - i`; `va`, `vb`, `pv`
/// and `pr`), converted from their planes by [`convert`].
pub(super) struct KindsSoa<E> {
    fa: Vec<E>,
    fb: Vec<E>,
    pf: Vec<E>,
    va: Vec<E>,
    vb: Vec<E>,
    pv: Vec<E>,
    pr: Vec<E>,
}

impl<E: TallyPlane> KindsSoa<E> {
    pub(super) fn new(len: usize) -> KindsSoa<E> {
        let v = || vec![E::ZERO; len];
        KindsSoa {
            fa: v(),
            fb: v(),
            pf: v(),
            va: v(),
            vb: v(),
            pv: v(),
            pr: v(),
        }
    }
}

/// Fills `batch`'s kinds from the planes of its games, for the lanes `V` of its width (`v`
/// vouches for the processor's features); false, and the kinds not to be used, when a game holds
/// more face cards than the lanes' kinds hold, or when its cards might not fit the lanes' count
/// within `limit` tricks (see `Group::tc`: the cards count in the low half of a lane).
#[inline(always)]
pub(super) fn convert<E: TallyPlane, V: Vec64<Elem = E>>(
    v: V,
    batch: &mut Batch<E>,
    limit: u32,
) -> bool {
    let w = V::BITS;
    debug_assert_eq!(w, E::BITS);
    let len = batch.len;
    let s = &batch.soa;
    let k = &mut batch.kinds;
    let u = |x: E| -> u64 { x.into() };
    // Card `i` to bit `w - 1 - i`.
    let rev = |x: E| E::of_u64(u(x).reverse_bits() >> (64 - w));
    let (mut most, mut before) = (0, 0);
    for i in 0..len {
        let (fa, fb, pf) = (u(s.fa[i]), u(s.fb[i]), u(s.pf[i]));
        most = most.max(fa.count_ones() + fb.count_ones() + pf.count_ones());
        before = before.max(u(s.cards[i]));
        k.fa[i] = rev(s.fa[i]);
        k.fb[i] = rev(s.fb[i]);
        k.pf[i] = rev(s.pf[i]);
        k.va[i] = E::of_u64(v.face_kinds(fa, u(s.la[i]), u(s.ha[i])));
        k.vb[i] = E::of_u64(v.face_kinds(fb, u(s.lb[i]), u(s.hb[i])));
        // The pile's form (see `Group::pv`): the hand form with bit 0 flipped, rotated right by
        // one within the lane; the next kind goes to `2 * faces - 1` modulo the lane's bits.
        let pv = v.face_kinds(pf, u(s.pl[i]), u(s.ph[i])) ^ 1;
        k.pv[i] = E::of_u64(pv >> 1 | (pv & 1) << (w - 1));
        k.pr[i] = E::of_u64(u64::from((2 * pf.count_ones() + w - 1) % w));
    }
    // At most `w` cards a trick, so fewer than `w * limit` cards in the lanes.
    most <= max_faces(w) && before + u64::from(w) * u64::from(limit) < 1 << (w / 2)
}

/// Plays `batch`'s games as the planes' loop does (`report: tally`: the winners of the plain
/// games counted, the special ones left in `batch.out`), in `G` groups of the kinds lanes `V`, with
/// `batch.out` already reset. [`convert`] must have returned true for the batch and `limit`
/// (which keeps each lane's cards within the low half of its count, `Group::tc`).
///
/// # Safety
/// The processor has `V`'s features.
#[inline(always)]
pub(super) unsafe fn play<E: TallyPlane, V: Vec64<Elem = E>, const G: usize>(
    batch: &mut Batch<E>,
    limit: u32,
) {
    let total = batch.len;
    let (soa, kinds, out) = (&batch.soa, &batch.kinds, &mut batch.out);
    // The trick count stays below `2^(BITS / 2)` too.
    assert!(
        limit < 1 << (V::BITS / 2 - 6),
        "a trick limit within the lanes' count"
    );
    // SAFETY: the caller's contract.
    let k = unsafe { Consts::<V>::new(limit) };
    let all = (1u32 << V::LANES) - 1;
    // Idle lanes that trigger a refill: a quarter of the group (as the general lanes).
    let refill_at = V::LANES / 4;
    let mut next = 0;
    // `G` groups stepped side by side, so that their chains of dependent operations overlap: two
    // of eight `u64` lanes (faster on the Zen 5; the Zen 4 and the Intel Xeon gained nothing),
    // one of sixteen `u32` lanes (two, their state past the 32 registers, were no faster).
    // Each lane's game is kept beside its group rather than in it: an array indexed at run time
    // inside the group would keep the whole group in memory, its vectors stored and reloaded
    // every move.
    // SAFETY: the caller's contract.
    let mut groups: [Group<V>; G] = std::array::from_fn(|_| unsafe { Group::<V>::new() });
    let mut slots = [[0usize; 16]; G];
    for (g, s) in groups.iter_mut().zip(slots.iter_mut()) {
        refill(g, s, soa, kinds, &mut next, total, all);
    }
    loop {
        // Whether each group refills after this move, decided from the lanes idle before it
        // (those that stopped in earlier moves): a branch on this move's stops would wait for
        // its whole chain, and is mispredicted often.
        let want: [bool; G] = std::array::from_fn(|i| {
            next < total && (all & !groups[i].active).count_ones() as usize >= refill_at
        });
        let mut stops = [0u32; G];
        for (g, s) in groups.iter_mut().zip(stops.iter_mut()) {
            *s = g.step_results::<true>(&k);
        }
        let mut active = 0;
        for (((g, s), &stopped), &want) in groups
            .iter_mut()
            .zip(slots.iter_mut())
            .zip(stops.iter())
            .zip(want.iter())
        {
            report(g, s, stopped, out);
            g.active &= !stopped;
            if want {
                refill(g, s, soa, kinds, &mut next, total, all & !g.active);
            }
            active |= g.active;
        }
        if active == 0 {
            if next == total {
                break;
            }
            for (g, s) in groups.iter_mut().zip(slots.iter_mut()) {
                refill(g, s, soa, kinds, &mut next, total, all & !g.active);
            }
        }
    }
}

/// Counts the `stopped` lanes of `g` (their results as `Group::step` left them; lane `i` plays
/// game `slots[i]`): a game that
/// ended shorter than `bar` cards (those before the lanes included) as a win of its winner,
/// player 2's counted in `out.wins[1]`; the others, rare, one by one in `out`'s arrays.
#[inline(always)]
fn report<E: TallyPlane, V: Vec64<Elem = E>>(
    g: &Group<V>,
    slots: &[usize; 16],
    stopped: u32,
    out: &mut Special<E>,
) {
    let half = V::BITS / 2;
    // Made here, not held across the moves: the move needs every register it can get. (A bar
    // past the lanes' card count is one no game reaches.)
    // SAFETY: `g` vouches for the processor's features.
    let (bar, low) = unsafe {
        (
            V::splat(u64::from(out.bar).min((1 << half) - 1)),
            V::splat((1 << half) - 1),
        )
    };
    let cards_all = g.tc.and(low).add(g.last);
    let short = V::bits(cards_all.lt(bar));
    let special = stopped & (!g.ended | !short);
    out.wins[1] += u64::from((stopped & !special & g.winner).count_ones());
    if special != 0 {
        let [mut tc, mut last, mut cards] = [[0u64; 16]; 3];
        g.tc.store(&mut tc);
        g.last.store(&mut last);
        cards_all.store(&mut cards);
        let mut m = special;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let j = out.special;
            out.slot[j] = E::of_u64(slots[i] as u64);
            out.winner[j] = E::of_u64(u64::from(g.winner >> i & 1));
            out.tricks[j] = E::of_u64((tc[i] >> half) + u64::from(last[i] > 0));
            out.cards[j] = E::of_u64(cards[i]);
            out.ended[j] = E::of_u64(u64::from(g.ended >> i & 1));
            out.special = j + 1;
        }
    }
}

/// Loads the next games (from `*next`, of `total`) into the lowest `idle` lanes of `g`, as many
/// as are left, one expand-load a variable; `slots` gets their places in the batch.
#[inline(always)]
fn refill<E: TallyPlane, V: Vec64<Elem = E>>(
    g: &mut Group<V>,
    slots: &mut [usize; 16],
    soa: &Soa<E>,
    kinds: &KindsSoa<E>,
    next: &mut usize,
    total: usize,
    idle: u32,
) {
    let at = *next;
    let fresh = (idle.count_ones() as usize).min(total - at);
    let mut lanes = 0;
    let mut m = idle;
    for _ in 0..fresh {
        lanes |= m & m.wrapping_neg();
        m &= m - 1;
    }
    // SAFETY: every array holds at least `total >= at + fresh` values, and the load reads
    // `fresh` of them from `at`.
    let ld = |x: V, v: &Vec<E>| unsafe { x.expand_load(lanes, v.as_ptr().add(at)) };
    g.fa = ld(g.fa, &kinds.fa);
    g.fb = ld(g.fb, &kinds.fb);
    g.va = ld(g.va, &kinds.va);
    g.vb = ld(g.vb, &kinds.vb);
    g.na = ld(g.na, &soa.na);
    g.nb = ld(g.nb, &soa.nb);
    g.pf = ld(g.pf, &kinds.pf);
    g.pv = ld(g.pv, &kinds.pv);
    g.pr = ld(g.pr, &kinds.pr);
    g.n = ld(g.n, &soa.n);
    g.debt = ld(g.debt, &soa.debt);
    // No tricks yet; the cards played before the lanes.
    g.tc = ld(g.tc, &soa.cards);
    let mut m = lanes;
    let mut j = at;
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        slots[i] = j;
        g.who = g.who & !(1 << i) | ((soa.who[j].into() & 1) as u32) << i;
        j += 1;
    }
    g.active |= lanes;
    *next = at + fresh;
}
