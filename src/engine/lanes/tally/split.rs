//! The wide batch (decks of 35 to 60 cards) played in `u32` lanes instead of `u64` ones: each
//! face plane (the hands' and the pile's) in two words (`kinds::Split`), the kinds and counts in
//! one, so twice the games share a vector for about a fifth more operations a move: sixteen with
//! AVX-512 VBMI2 (its funnel shifts), eight with AVX2 (two shifts a funnel). Only for games of at
//! most 60 cards and 15 face cards (every census deck: they have eight) whose cards fit the
//! lanes' 16-bit count; other batches keep the `u64` lanes of `arrays.rs`.

use super::arrays::{ArrayFeed, ArraySource, load_words};
use super::batch::TallyBatch;
use super::soa::SplitSoa;
use crate::engine::lanes::kinds::{self, KindsGroup, Marker, SPLIT_MAX_CARDS, Split, max_faces};
use crate::engine::vector::Funnel;

/// The most cards a game of these lanes may hold: with at most 60, a move gives up fewer than
/// 32 cards (see `Split`).
pub(super) const MAX_CARDS: u32 = SPLIT_MAX_CARDS;

/// The first `len` values of `v`.
#[inline(always)]
fn cut(v: &[u64], len: usize) -> &[u64] {
    &v[..len]
}

/// Fills `batch.split` from the batch's games and their `u64` kinds (`kinds::convert` must have
/// returned true for `limit`); false, and the words not to be used, when a game holds more than
/// [`MAX_CARDS`] cards or 15 face cards, or its cards might pass the lanes' 16-bit count within
/// `limit` tricks (at most its own cards a trick).
#[inline(always)]
pub(super) fn convert(batch: &mut TallyBatch<u64>, limit: u32) -> bool {
    let len = batch.len;
    let room = batch.soa.slot.len();
    let (s, k, t) = (&batch.soa, &batch.kinds, &mut batch.split);
    if t.fah.len() < room {
        let v = || vec![0u32; room];
        *t = SplitSoa {
            fah: v(),
            fal: v(),
            fbh: v(),
            fbl: v(),
            pfh: v(),
            pfl: v(),
            va: v(),
            vb: v(),
            pv: v(),
            pr: v(),
            na: v(),
            nb: v(),
            n: v(),
            debt: v(),
            cards: v(),
            who: v(),
        };
    }
    let most = max_faces(32);
    let lim = u64::from(limit);
    // Every array cut to the batch, so that the loop has no bounds to check and vectorises.
    let (fa, fb, pf, va, vb, pv, pr) = (
        cut(&k.fa, len),
        cut(&k.fb, len),
        cut(&k.pf, len),
        cut(&k.va, len),
        cut(&k.vb, len),
        cut(&k.pv, len),
        cut(&k.pr, len),
    );
    let (na, nb, n, debt, before, who) = (
        cut(&s.na, len),
        cut(&s.nb, len),
        cut(&s.n, len),
        cut(&s.debt, len),
        cut(&s.cards, len),
        cut(&s.who, len),
    );
    let mut bad = 0u32;
    for i in 0..len {
        let faces = fa[i].count_ones() + fb[i].count_ones() + pf[i].count_ones();
        let cards = na[i] + nb[i] + n[i];
        bad |= u32::from(faces > most)
            | u32::from(cards > u64::from(MAX_CARDS))
            | u32::from(before[i] + cards * lim >= 1 << 16);
    }
    let split = |x: &[u64], hi: &mut Vec<u32>, lo: &mut Vec<u32>| {
        for ((x, h), l) in x.iter().zip(&mut hi[..len]).zip(&mut lo[..len]) {
            (*h, *l) = ((x >> 32) as u32, *x as u32);
        }
    };
    split(fa, &mut t.fah, &mut t.fal);
    split(fb, &mut t.fbh, &mut t.fbl);
    split(pf, &mut t.pfh, &mut t.pfl);
    let narrow = |x: &[u64], to: &mut Vec<u32>| {
        for (x, y) in x.iter().zip(&mut to[..len]) {
            *y = *x as u32;
        }
    };
    narrow(va, &mut t.va);
    narrow(vb, &mut t.vb);
    narrow(na, &mut t.na);
    narrow(nb, &mut t.nb);
    narrow(n, &mut t.n);
    narrow(debt, &mut t.debt);
    narrow(before, &mut t.cards);
    narrow(who, &mut t.who);
    narrow(pv, &mut t.pv);
    narrow(pr, &mut t.pr);
    bad == 0
}

impl<V: Funnel<Elem = u32>> ArraySource<V, Split<V>> for SplitSoa {
    #[inline(always)]
    unsafe fn load(&self, g: &mut KindsGroup<V, Split<V>>, lanes: u32, at: usize) {
        // SAFETY: the caller's contract.
        let ld = |x: V, v: &Vec<u32>| unsafe { x.expand_load(lanes, v.as_ptr().add(at)) };
        g.fa = Split {
            hi: ld(g.fa.hi, &self.fah),
            lo: ld(g.fa.lo, &self.fal),
        };
        g.fb = Split {
            hi: ld(g.fb.hi, &self.fbh),
            lo: ld(g.fb.lo, &self.fbl),
        };
        g.pf = Split {
            hi: ld(g.pf.hi, &self.pfh),
            lo: ld(g.pf.lo, &self.pfl),
        };
        let t = self;
        // SAFETY: the caller's contract.
        unsafe {
            load_words(
                g,
                lanes,
                at,
                [
                    &t.va, &t.vb, &t.na, &t.nb, &t.pv, &t.pr, &t.n, &t.debt, &t.cards, &t.who,
                ],
            )
        }
    }
}

/// Plays `batch`'s games in the lanes `V` (`u32`s), with `batch.out` already reset; [`convert`]
/// must have returned true for the batch and `limit`.
///
/// # Safety
/// The processor has `V`'s features and its funnel shifts' (VBMI2 for `Avx512U32x16`).
#[inline(always)]
pub(super) unsafe fn play<V: Funnel<Elem = u32>, const G: usize>(
    batch: &mut TallyBatch<u64>,
    limit: u32,
) {
    let feed = &mut ArrayFeed::new(&batch.split, batch.len);
    // SAFETY: the caller's contract; the arrays hold `BATCH + PAD` values (`convert`).
    unsafe { kinds::play::<V, Split<V>, Marker, G>(feed, limit, &mut batch.out) }
}
