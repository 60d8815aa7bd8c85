//! The `u64` lanes' batch (`tally.rs`: decks past 32 cards) played with the kinds queue of
//! `engine/kinds64.rs`: a hand keeps its face cards' kinds as two-bit fields in one vector where
//! the planes' loop (`engine/avx512_moves.rs`) keeps two planes (`lo`, `hi`), so a move carries
//! three fewer state vectors and about ten fewer operations. The tree walk queues its games in
//! planes; [`convert`] turns each game's planes into kinds once, before the lanes start. A batch
//! with a game of more than [`MAX_FACES`] face cards (no census deck: they have eight) takes the
//! planes' loop instead. The references are that loop and the general lanes: `tally.rs`'s tests
//! hold all of them to the same counts, in AVX-512 and in the portable lanes.

use super::{Batch, REFILL64, Soa, Special};
use crate::engine::kinds64::{Consts, Group, MAX_FACES};
use crate::engine::vec64::Vec64;

/// The face planes and kinds of the queued games' hands and piles, in `kinds64.rs`'s form
/// (`Group`'s `fa`, `fb` and `pf`, reversed: card `i` at bit `63 - i`; `va`, `vb`, `pv` and
/// `pr`), converted from their planes by [`convert`].
pub(super) struct KindsSoa {
    fa: Vec<u64>,
    fb: Vec<u64>,
    pf: Vec<u64>,
    va: Vec<u64>,
    vb: Vec<u64>,
    pv: Vec<u64>,
    pr: Vec<u64>,
}

impl KindsSoa {
    pub(super) fn new(len: usize) -> KindsSoa {
        let v = || vec![0; len];
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

/// Fills `batch`'s kinds from the planes of its games (`v` vouches for the processor's
/// features); false, and the kinds not to be used, when a game holds more than [`MAX_FACES`]
/// face cards.
#[inline(always)]
pub(super) fn convert<V: Vec64>(v: V, batch: &mut Batch<u64>) -> bool {
    let len = batch.len;
    let s = &batch.soa;
    let k = &mut batch.kinds;
    let mut most = 0;
    for i in 0..len {
        let (fa, fb, pf) = (s.fa[i], s.fb[i], s.pf[i]);
        most = most.max(fa.count_ones() + fb.count_ones() + pf.count_ones());
        k.fa[i] = fa.reverse_bits();
        k.fb[i] = fb.reverse_bits();
        k.pf[i] = pf.reverse_bits();
        k.va[i] = v.face_kinds(fa, s.la[i], s.ha[i]);
        k.vb[i] = v.face_kinds(fb, s.lb[i], s.hb[i]);
        // The pile's form (see `Group::pv`): the hand form with bit 0 flipped, rotated right by
        // one; the next kind goes to `2 * faces - 1` modulo 64.
        k.pv[i] = (v.face_kinds(pf, s.pl[i], s.ph[i]) ^ 1).rotate_right(1);
        k.pr[i] = u64::from((2 * pf.count_ones() + 63) % 64);
    }
    most <= MAX_FACES
}

/// Plays `batch`'s games as the planes' loop does (`report: tally`: the winners of the plain
/// games counted, the special ones left in `batch.out`), in `G` groups of the kinds lanes `V`, with
/// `batch.out` already reset. [`convert`] must have returned true for the batch.
///
/// # Safety
/// The processor has `V`'s features.
#[inline(always)]
pub(super) unsafe fn play<V: Vec64, const G: usize>(batch: &mut Batch<u64>, limit: u32) {
    let total = batch.len;
    let (soa, kinds, out) = (&batch.soa, &batch.kinds, &mut batch.out);
    // The cards of a lane's finished tricks, those before the lanes included, stay below 2^32
    // (`Group::tc`): a push has fewer than 2^32 and a trick at most 52.
    assert!(limit < 1 << 26, "a trick limit below 2^26");
    // SAFETY: the caller's contract.
    let k = unsafe { Consts::<V>::new(limit) };
    let all = (1u32 << V::LANES) - 1;
    let mut next = 0;
    // `G` groups stepped side by side (two in the search), so that their chains of dependent
    // operations overlap (measured on the Zen 5; the Zen 4 and the Intel Xeon gained nothing).
    // Each lane's game is kept beside its group rather than in it: an array indexed at run time
    // inside the group would keep the whole group in memory, its vectors stored and reloaded
    // every move.
    // SAFETY: the caller's contract.
    let mut groups: [Group<V>; G] = std::array::from_fn(|_| unsafe { Group::<V>::new() });
    let mut slots = [[0usize; 8]; G];
    for (g, s) in groups.iter_mut().zip(slots.iter_mut()) {
        refill(g, s, soa, kinds, &mut next, total, all);
    }
    loop {
        // Whether each group refills after this move, decided from the lanes idle before it
        // (those that stopped in earlier moves): a branch on this move's stops would wait for
        // its whole chain, and is mispredicted often.
        let want: [bool; G] = std::array::from_fn(|i| {
            next < total && (all & !groups[i].active).count_ones() as usize >= REFILL64
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
fn report<V: Vec64>(g: &Group<V>, slots: &[usize; 8], stopped: u32, out: &mut Special<u64>) {
    // Made here, not held across the moves: the move needs every register it can get.
    // SAFETY: `g` vouches for the processor's features.
    let (bar, low) = unsafe { (V::splat(u64::from(out.bar)), V::splat(u64::from(u32::MAX))) };
    let cards_all = g.tc.and(low).add(g.last);
    let short = V::bits(cards_all.lt(bar));
    let special = stopped & (!g.ended | !short);
    out.wins[1] += u64::from((stopped & !special & g.winner).count_ones());
    if special != 0 {
        let [mut tc, mut last, mut cards] = [[0u64; 8]; 3];
        g.tc.store(&mut tc);
        g.last.store(&mut last);
        cards_all.store(&mut cards);
        let mut m = special;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let j = out.special;
            out.slot[j] = slots[i] as u64;
            out.winner[j] = u64::from(g.winner >> i & 1);
            out.tricks[j] = (tc[i] >> 32) + u64::from(last[i] > 0);
            out.cards[j] = cards[i];
            out.ended[j] = u64::from(g.ended >> i & 1);
            out.special = j + 1;
        }
    }
}

/// Loads the next games (from `*next`, of `total`) into the lowest `idle` lanes of `g`, as many
/// as are left, one expand-load a variable; `slots` gets their places in the batch.
#[inline(always)]
fn refill<V: Vec64>(
    g: &mut Group<V>,
    slots: &mut [usize; 8],
    soa: &Soa<u64>,
    kinds: &KindsSoa,
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
    let ld = |x: V, v: &Vec<u64>| unsafe { x.expand_load(lanes, v.as_ptr().add(at)) };
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
        g.who = g.who & !(1 << i) | ((soa.who[j] & 1) as u32) << i;
        j += 1;
    }
    g.active |= lanes;
    *next = at + fresh;
}
