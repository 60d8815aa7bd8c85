//! The lanes of [`super::lanes`] written out in AVX-512: the whole state of 16 games lives in
//! vector registers from the first move to the last, finished lanes are refilled (a few at a
//! time) with one expand-load per variable, and their results leave with one compress-store each.
//! The portable [`super::lanes::Lanes`] is the specification; `tests` hold this one to it game by
//! game.

use std::arch::x86_64::*;

use super::lanes::{Finish, Game};

/// The games of a batch, structure of arrays, the hand of the player to act first (`a`).
#[derive(Default)]
struct Soa {
    fa: Vec<u32>,
    fb: Vec<u32>,
    la: Vec<u32>,
    lb: Vec<u32>,
    ha: Vec<u32>,
    hb: Vec<u32>,
    na: Vec<u32>,
    nb: Vec<u32>,
    pf: Vec<u32>,
    pl: Vec<u32>,
    ph: Vec<u32>,
    n: Vec<u32>,
    debt: Vec<u32>,
    who: Vec<u32>,
    slot: Vec<u32>,
}

impl Soa {
    /// Makes room for `len` games and the 16 of padding that expand-loads past the end read.
    fn reset(&mut self, len: usize) {
        for v in [
            &mut self.fa,
            &mut self.fb,
            &mut self.la,
            &mut self.lb,
            &mut self.ha,
            &mut self.hb,
            &mut self.na,
            &mut self.nb,
            &mut self.pf,
            &mut self.pl,
            &mut self.ph,
            &mut self.n,
            &mut self.debt,
            &mut self.who,
            &mut self.slot,
        ] {
            // Only grown: every place read is written first (expand-loads read only the games
            // set), so old values need no clearing (a memset of the whole batch cost 1.5%).
            if v.len() < len + 16 {
                v.resize(len + 16, 0);
            }
        }
    }

    #[inline(always)]
    fn set(&mut self, i: usize, g: &Game, slot: usize) {
        let a = g.next as usize & 1;
        let b = a ^ 1;
        self.fa[i] = g.faces[a];
        self.fb[i] = g.faces[b];
        self.la[i] = g.lo[a];
        self.lb[i] = g.lo[b];
        self.ha[i] = g.hi[a];
        self.hb[i] = g.hi[b];
        self.na[i] = g.len[a];
        self.nb[i] = g.len[b];
        self.pf[i] = g.pile_faces;
        self.pl[i] = g.pile_lo;
        self.ph[i] = g.pile_hi;
        self.n[i] = g.n;
        self.debt[i] = g.debt;
        self.who[i] = a as u32;
        self.slot[i] = slot as u32;
    }
}

/// Results of stopped lanes, in the order they stopped.
#[derive(Default)]
struct Out {
    slot: Vec<u32>,
    winner: Vec<u32>,
    tricks: Vec<u32>,
    cards: Vec<u32>,
    last: Vec<u32>,
    ended: Vec<u32>,
}

/// Scratch of the AVX-512 lanes, reused between batches.
#[derive(Default)]
pub struct Avx512Lanes {
    soa: Soa,
    out: Out,
}

/// Idle lanes that trigger a refill.
const REFILL: usize = 4;

/// `32 - lzcnt(!x & (x - 1))`: the trailing zeros of each lane, 32 for 0.
#[inline]
#[target_feature(enable = "avx512f,avx512cd")]
fn tz(x: __m512i, one: __m512i, c32: __m512i) -> __m512i {
    let below = _mm512_andnot_si512(x, _mm512_sub_epi32(x, one));
    _mm512_sub_epi32(c32, _mm512_lzcnt_epi32(below))
}

impl Avx512Lanes {
    /// As [`super::lanes::Lanes::run`].
    ///
    /// # Safety
    /// The processor must have AVX-512 F, CD, VL, BW and DQ.
    #[target_feature(enable = "avx512f,avx512cd,avx512vl,avx512bw,avx512dq,bmi1,bmi2,lzcnt,popcnt")]
    pub unsafe fn run(&mut self, games: &[Game], limit: u32, mut done: impl FnMut(usize, Finish)) {
        let soa = &mut self.soa;
        soa.reset(games.len());
        let mut total = 0;
        for (i, g) in games.iter().enumerate() {
            if let Some(finish) = g.over_at_start() {
                done(i, finish);
            } else {
                soa.set(total, g, i);
                total += 1;
            }
        }
        let out = &mut self.out;
        for v in [
            &mut out.slot,
            &mut out.winner,
            &mut out.tricks,
            &mut out.cards,
            &mut out.last,
            &mut out.ended,
        ] {
            if v.len() < total + 16 {
                v.resize(total + 16, 0);
            }
        }
        // SAFETY (whole block): every pointer read is inside a padded array (at most 16 past the
        // `next` index, which stays <= total), every compress-store writes at most 16 values at
        // `done_count` < total.
        unsafe {
            let zero = _mm512_setzero_si512();
            let one = _mm512_set1_epi32(1);
            let c32 = _mm512_set1_epi32(32);
            let vlimit = _mm512_set1_epi32(limit as i32);
            let ld = |v: &Vec<u32>, at: usize, m: __mmask16, old: __m512i| {
                _mm512_mask_expandloadu_epi32(old, m, v.as_ptr().add(at) as *const i32)
            };
            let first = total.min(16);
            let mut active: __mmask16 = if first == 16 {
                0xFFFF
            } else {
                ((1u32 << first) - 1) as u16
            };
            let m = active;
            let (mut fa, mut fb) = (ld(&soa.fa, 0, m, zero), ld(&soa.fb, 0, m, zero));
            let (mut la, mut lb) = (ld(&soa.la, 0, m, zero), ld(&soa.lb, 0, m, zero));
            let (mut ha, mut hb) = (ld(&soa.ha, 0, m, zero), ld(&soa.hb, 0, m, zero));
            let (mut na, mut nb) = (ld(&soa.na, 0, m, zero), ld(&soa.nb, 0, m, zero));
            let (mut pf, mut pl) = (ld(&soa.pf, 0, m, zero), ld(&soa.pl, 0, m, zero));
            let mut ph = ld(&soa.ph, 0, m, zero);
            let (mut n, mut debt) = (ld(&soa.n, 0, m, zero), ld(&soa.debt, 0, m, zero));
            let (mut who, mut slot) = (ld(&soa.who, 0, m, zero), ld(&soa.slot, 0, m, zero));
            let mut tricks = zero;
            let mut cards = zero;
            let mut next = first;
            let mut stopped_count = 0usize;
            while active != 0 {
                let na_old = na;
                let lead = _mm512_cmpeq_epi32_mask(debt, zero);
                let tza = tz(fa, one, c32);
                let za = _mm512_min_epu32(tza, na);
                let zb = _mm512_min_epu32(tz(fb, one, c32), nb);
                let sa = _mm512_add_epi32(za, za);
                let sb = _mm512_add_epi32(_mm512_add_epi32(zb, zb), one);
                let b_first = _mm512_cmplt_epu32_mask(sb, sa);
                let step = _mm512_min_epu32(sa, sb);
                let idx = _mm512_srli_epi32(step, 1);
                let lx = _mm512_mask_blend_epi32(b_first, na, nb);
                let lead_end = _mm512_cmpge_epu32_mask(idx, lx);
                let face = _mm512_cmplt_epu32_mask(tza, _mm512_min_epu32(debt, na));
                let from_b = lead & b_first;
                let j = _mm512_mask_blend_epi32(lead, tza, idx);
                let lo = _mm512_mask_blend_epi32(from_b, la, lb);
                let hi = _mm512_mask_blend_epi32(from_b, ha, hb);
                let klo = _mm512_and_si512(_mm512_srlv_epi32(lo, j), one);
                let khi = _mm512_and_si512(_mm512_srlv_epi32(hi, j), one);
                let c = _mm512_add_epi32(_mm512_add_epi32(klo, _mm512_add_epi32(khi, khi)), one);
                let short = _mm512_cmplt_epu32_mask(na, debt);
                let pay_end = !lead & !face & short;
                let face = !lead & face;
                let complete = !lead & !face & !pay_end;
                let lead_face = lead & !lead_end;
                let put = lead_face | face;
                let at = _mm512_add_epi32(n, _mm512_mask_blend_epi32(lead, tza, step));
                // Cards a and b give up: the lead phase's alternate runs (the stopping card to
                // its player), a payment up to its penalty card, or the whole debt.
                let half_up = _mm512_srli_epi32(_mm512_add_epi32(step, one), 1);
                let pop_a_lead = _mm512_mask_add_epi32(half_up, !b_first, half_up, one);
                let pop_a_pay = _mm512_mask_blend_epi32(face, debt, _mm512_add_epi32(tza, one));
                let pop_a = _mm512_mask_blend_epi32(lead, pop_a_pay, pop_a_lead);
                let pop_b_lead = _mm512_mask_add_epi32(idx, b_first, idx, one);
                let pop_b = _mm512_maskz_mov_epi32(lead, pop_b_lead);
                let fa2 = _mm512_srlv_epi32(fa, pop_a);
                let la2 = _mm512_srlv_epi32(la, pop_a);
                let ha2 = _mm512_srlv_epi32(ha, pop_a);
                let na2 = _mm512_sub_epi32(na, pop_a);
                let fb2 = _mm512_srlv_epi32(fb, pop_b);
                let lb2 = _mm512_srlv_epi32(lb, pop_b);
                let hb2 = _mm512_srlv_epi32(hb, pop_b);
                let nb2 = _mm512_sub_epi32(nb, pop_b);
                let bit = _mm512_maskz_sllv_epi32(put, one, at);
                let pf2 = _mm512_or_si512(pf, bit);
                let klo_m = _mm512_cmpeq_epi32_mask(klo, one);
                let khi_m = _mm512_cmpeq_epi32_mask(khi, one);
                let pl2 = _mm512_mask_or_epi32(pl, klo_m, pl, bit);
                let ph2 = _mm512_mask_or_epi32(ph, khi_m, ph, bit);
                let n2 = _mm512_mask_blend_epi32(
                    put,
                    _mm512_add_epi32(n, debt),
                    _mm512_add_epi32(at, one),
                );
                // A finished payment: b takes the pile and leads.
                let fb3 = _mm512_mask_or_epi32(fb2, complete, fb2, _mm512_sllv_epi32(pf2, nb2));
                let lb3 = _mm512_mask_or_epi32(lb2, complete, lb2, _mm512_sllv_epi32(pl2, nb2));
                let hb3 = _mm512_mask_or_epi32(hb2, complete, hb2, _mm512_sllv_epi32(ph2, nb2));
                let nb3 = _mm512_mask_add_epi32(nb2, complete, nb2, n2);
                tricks = _mm512_mask_add_epi32(tricks, complete, tricks, one);
                cards = _mm512_mask_add_epi32(cards, complete, cards, n2);
                pf = _mm512_maskz_mov_epi32(!complete, pf2);
                pl = _mm512_maskz_mov_epi32(!complete, pl2);
                ph = _mm512_maskz_mov_epi32(!complete, ph2);
                let n_old = n;
                n = _mm512_maskz_mov_epi32(!complete, n2);
                debt = _mm512_maskz_mov_epi32(!complete, c);
                let swap = (lead_face & !b_first) | face | complete;
                fa = _mm512_mask_blend_epi32(swap, fa2, fb3);
                fb = _mm512_mask_blend_epi32(swap, fb3, fa2);
                la = _mm512_mask_blend_epi32(swap, la2, lb3);
                lb = _mm512_mask_blend_epi32(swap, lb3, la2);
                ha = _mm512_mask_blend_epi32(swap, ha2, hb3);
                hb = _mm512_mask_blend_epi32(swap, hb3, ha2);
                na = _mm512_mask_blend_epi32(swap, na2, nb3);
                nb = _mm512_mask_blend_epi32(swap, nb3, na2);
                let who_old = who;
                who = _mm512_mask_xor_epi32(who, swap, who, one);
                let over = complete & _mm512_cmpeq_epi32_mask(na2, zero);
                let ended = (lead & lead_end) | pay_end | over;
                let long = _mm512_cmpge_epu32_mask(tricks, vlimit);
                let stopped = (ended | long) & active;
                if stopped == 0 {
                    continue;
                }
                // Results of the stopped lanes, in lane order.
                let winner_is_a = lead & lead_end & b_first;
                let winner = _mm512_mask_xor_epi32(who_old, !winner_is_a, who_old, one);
                let last_lead = _mm512_add_epi32(n_old, step);
                let last_pay = _mm512_maskz_add_epi32(pay_end, n_old, na_old);
                let last = _mm512_mask_blend_epi32(lead, last_pay, last_lead);
                let ended_v = _mm512_maskz_mov_epi32(ended, one);
                let at_out = stopped_count;
                let cs = |v: &mut Vec<u32>, x: __m512i| {
                    _mm512_mask_compressstoreu_epi32(
                        v.as_mut_ptr().add(at_out) as *mut i32,
                        stopped,
                        x,
                    )
                };
                cs(&mut out.slot, slot);
                cs(&mut out.winner, winner);
                cs(&mut out.tricks, tricks);
                cs(&mut out.cards, cards);
                cs(&mut out.last, last);
                cs(&mut out.ended, ended_v);
                stopped_count += stopped.count_ones() as usize;
                active &= !stopped;
                // Refill idle lanes with the next games, in lane order, once REFILL of them wait
                // (or none is left playing): the fifteen expand-loads of a refill cost more than
                // the moves a few idle lanes waste meanwhile (3% less time on an Intel Xeon for
                // `search exhaustive --deck 16-2J2Q2K2A --shard 0/32`; 2, 6, 8 and 12 do worse).
                let idle = !active;
                let k = idle.count_ones() as usize;
                if next == total || (k < REFILL && active != 0) {
                    continue;
                }
                let fresh = k.min(total - next);
                let refill = if fresh == k {
                    idle
                } else {
                    // The lowest `fresh` idle lanes.
                    let mut m = idle;
                    let mut keep = 0u16;
                    for _ in 0..fresh {
                        keep |= m & m.wrapping_neg();
                        m &= m - 1;
                    }
                    keep
                };
                active |= refill;
                {
                    let r = refill;
                    fa = ld(&soa.fa, next, r, fa);
                    fb = ld(&soa.fb, next, r, fb);
                    la = ld(&soa.la, next, r, la);
                    lb = ld(&soa.lb, next, r, lb);
                    ha = ld(&soa.ha, next, r, ha);
                    hb = ld(&soa.hb, next, r, hb);
                    na = ld(&soa.na, next, r, na);
                    nb = ld(&soa.nb, next, r, nb);
                    pf = ld(&soa.pf, next, r, pf);
                    pl = ld(&soa.pl, next, r, pl);
                    ph = ld(&soa.ph, next, r, ph);
                    n = ld(&soa.n, next, r, n);
                    debt = ld(&soa.debt, next, r, debt);
                    who = ld(&soa.who, next, r, who);
                    slot = ld(&soa.slot, next, r, slot);
                    tricks = _mm512_maskz_mov_epi32(!r, tricks);
                    cards = _mm512_maskz_mov_epi32(!r, cards);
                    next += fresh;
                }
            }
        }
        for i in 0..self.out.slot.len().min(total) {
            let o = &self.out;
            let finish = Finish::of_lane(
                o.ended[i] == 1,
                o.winner[i],
                o.tricks[i],
                o.cards[i],
                o.last[i],
            );
            done(o.slot[i] as usize, finish);
        }
    }
}
