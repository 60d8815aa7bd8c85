//! The move loop of the 32-card AVX-512 lanes (sixteen `u32` lanes, `lanes_avx512.rs`), written
//! as a macro over the width's intrinsics: the caller brings them into scope under the short names
//! the loop uses (`add`, `blend`, `srlv`, ...: see its `use` list) and its batch arrays. (The
//! 64-card lanes have their own loop, generic over a lane vector: `moves64.rs`.)
//!
//! Every lane computes every case of a move (a lead phase, one payment, or the end of a payment
//! and the taking of the pile) and selects its own, so the only branch left is "did some lane
//! stop". The state of all lanes stays in registers from the first move to the last; stopped lanes
//! leave with one in-register compress and store per result and are refilled, in lane order, with one expand-load
//! per variable once `refill` of them are idle.

/// Plays the games of `$soa` (`$total` of them, structure of arrays with `$lanes` values of
/// padding; with `mid_trick` false every game starts at a trick boundary and the pile arrays are
/// not read)
/// until each ends or has played `$limit` tricks; the results go to `$out` in the order the lanes
/// stopped. Evaluates to how many stopped (all of them). Must be expanded inside an `unsafe`
/// block of a function with AVX-512 F, CD, BW, DQ and VL enabled, whose arrays are padded as the
/// comments at `ld` and `cs` say.
macro_rules! move_loop {
    (
        soa: $soa:ident, out: $out:ident, total: $total:expr, limit: $limit:expr,
        lanes: $lanes:expr, mask: $mask:ty, elem: $elem:ty, int: $int:ty, refill: $refill:expr,
        mid_trick: $mid:expr
    ) => {{
        let total: usize = $total;
        let zero = _mm512_setzero_si512();
        let one = set1(1);
        let width = set1((8 * std::mem::size_of::<$int>()) as $int);
        let vlimit = set1($limit as $int);
        // `width - lzcnt(!x & (x - 1))`: the trailing zeros of each lane, `width` for 0.
        let tz = |x: __m512i| sub(width, lzcnt(_mm512_andnot_si512(x, sub(x, one))));
        // Reads at most $lanes values from `at <= total`: the caller pads every array with
        // $lanes values past `total`.
        let ld = |v: &Vec<$elem>, at: usize, m: $mask, old: __m512i| {
            expandload(old, m, v.as_ptr().add(at) as *const $int)
        };
        let first = total.min($lanes);
        let mut active: $mask = if first == $lanes {
            <$mask>::MAX
        } else {
            ((1u32 << first) - 1) as $mask
        };
        let m = active;
        let (mut fa, mut fb) = (ld(&$soa.fa, 0, m, zero), ld(&$soa.fb, 0, m, zero));
        let (mut la, mut lb) = (ld(&$soa.la, 0, m, zero), ld(&$soa.lb, 0, m, zero));
        let (mut ha, mut hb) = (ld(&$soa.ha, 0, m, zero), ld(&$soa.hb, 0, m, zero));
        let (mut na, mut nb) = (ld(&$soa.na, 0, m, zero), ld(&$soa.nb, 0, m, zero));
        // Games that all start at a trick boundary (`mid_trick` false) have nothing to load here.
        let (mut pf, mut pl, mut ph, mut n, mut debt) = (zero, zero, zero, zero, zero);
        if $mid {
            (pf, pl) = (ld(&$soa.pf, 0, m, zero), ld(&$soa.pl, 0, m, zero));
            ph = ld(&$soa.ph, 0, m, zero);
            (n, debt) = (ld(&$soa.n, 0, m, zero), ld(&$soa.debt, 0, m, zero));
        }
        let (mut who, mut slot) = (ld(&$soa.who, 0, m, zero), ld(&$soa.slot, 0, m, zero));
        let mut tricks = zero;
        let mut cards = zero;
        let mut next = first;
        let mut stopped_count = 0usize;
        while active != 0 {
            let na_old = na;
            let lead = cmpeq(debt, zero);
            let tza = tz(fa);
            let za = min(tza, na);
            let zb = min(tz(fb), nb);
            let sa = add(za, za);
            let sb = add(add(zb, zb), one);
            let b_first = cmplt(sb, sa);
            let step = min(sa, sb);
            let idx = srli::<1>(step);
            let lx = blend(b_first, na, nb);
            let lead_end = cmpge(idx, lx);
            let face = cmplt(tza, min(debt, na));
            let from_b = lead & b_first;
            let j = blend(lead, tza, idx);
            let lo = blend(from_b, la, lb);
            let hi = blend(from_b, ha, hb);
            let klo = _mm512_and_si512(srlv(lo, j), one);
            let khi = _mm512_and_si512(srlv(hi, j), one);
            let c = add(add(klo, add(khi, khi)), one);
            let short = cmplt(na, debt);
            let pay_end = !lead & !face & short;
            let face = !lead & face;
            let complete = !lead & !face & !pay_end;
            let lead_face = lead & !lead_end;
            let put = lead_face | face;
            let at = add(n, blend(lead, tza, step));
            // Cards a and b give up: the lead phase's alternate runs (the stopping card to its
            // player), a payment up to its penalty card, or the whole debt.
            let half_up = srli::<1>(add(step, one));
            let pop_a_lead = mask_add(half_up, !b_first, half_up, one);
            let pop_a_pay = blend(face, debt, add(tza, one));
            let pop_a = blend(lead, pop_a_pay, pop_a_lead);
            let pop_b_lead = mask_add(idx, b_first, idx, one);
            let pop_b = maskz_mov(lead, pop_b_lead);
            let fa2 = srlv(fa, pop_a);
            let la2 = srlv(la, pop_a);
            let ha2 = srlv(ha, pop_a);
            let na2 = sub(na, pop_a);
            let fb2 = srlv(fb, pop_b);
            let lb2 = srlv(lb, pop_b);
            let hb2 = srlv(hb, pop_b);
            let nb2 = sub(nb, pop_b);
            let bit = maskz_sllv(put, one, at);
            let pf2 = _mm512_or_si512(pf, bit);
            let klo_m = cmpeq(klo, one);
            let khi_m = cmpeq(khi, one);
            let pl2 = mask_or(pl, klo_m, pl, bit);
            let ph2 = mask_or(ph, khi_m, ph, bit);
            let n2 = blend(put, add(n, debt), add(at, one));
            // A finished payment: b takes the pile and leads.
            let fb3 = mask_or(fb2, complete, fb2, sllv(pf2, nb2));
            let lb3 = mask_or(lb2, complete, lb2, sllv(pl2, nb2));
            let hb3 = mask_or(hb2, complete, hb2, sllv(ph2, nb2));
            let nb3 = mask_add(nb2, complete, nb2, n2);
            tricks = mask_add(tricks, complete, tricks, one);
            cards = mask_add(cards, complete, cards, n2);
            pf = maskz_mov(!complete, pf2);
            pl = maskz_mov(!complete, pl2);
            ph = maskz_mov(!complete, ph2);
            let n_old = n;
            n = maskz_mov(!complete, n2);
            debt = maskz_mov(!complete, c);
            let swap = (lead_face & !b_first) | face | complete;
            fa = blend(swap, fa2, fb3);
            fb = blend(swap, fb3, fa2);
            la = blend(swap, la2, lb3);
            lb = blend(swap, lb3, la2);
            ha = blend(swap, ha2, hb3);
            hb = blend(swap, hb3, ha2);
            na = blend(swap, na2, nb3);
            nb = blend(swap, nb3, na2);
            let who_old = who;
            who = mask_xor(who, swap, who, one);
            let over = complete & cmpeq(na2, zero);
            let ended = (lead & lead_end) | pay_end | over;
            let long = cmpge(tricks, vlimit);
            let stopped = (ended | long) & active;
            if stopped == 0 {
                continue;
            }
            // Results of the stopped lanes, in lane order.
            let winner_is_a = lead & lead_end & b_first;
            let winner = mask_xor(who_old, !winner_is_a, who_old, one);
            let last_lead = add(n_old, step);
            let last_pay = maskz_add(pay_end, n_old, na_old);
            let last = blend(lead, last_pay, last_lead);
            let ended_v = maskz_mov(ended, one);
            let at_out = stopped_count;
            // Writes $lanes values at `stopped_count < total`, the stopped lanes' first and
            // garbage after them that later stores overwrite: the caller sizes every output array
            // to total + $lanes. (Compressed in a register and stored whole: a compress-store to
            // memory is microcoded on AMD Zen 4, and its six here took half of the whole search.)
            let cs = |v: &mut Vec<$elem>, x: __m512i| {
                storeu(
                    v.as_mut_ptr().add(at_out) as *mut _,
                    maskz_compress(stopped, x),
                )
            };
            cs(&mut $out.slot, slot);
            cs(&mut $out.winner, winner);
            cs(&mut $out.tricks, tricks);
            cs(&mut $out.cards, cards);
            cs(&mut $out.last, last);
            cs(&mut $out.ended, ended_v);
            stopped_count += stopped.count_ones() as usize;
            active &= !stopped;
            // Refill idle lanes with the next games, in lane order, once `refill` of them wait
            // (or none is left playing).
            let idle = !active;
            let k = idle.count_ones() as usize;
            if next == total || (k < $refill && active != 0) {
                continue;
            }
            let fresh = k.min(total - next);
            let r = if fresh == k {
                idle
            } else {
                // The lowest `fresh` idle lanes.
                let mut m = idle;
                let mut keep: $mask = 0;
                for _ in 0..fresh {
                    keep |= m & m.wrapping_neg();
                    m &= m - 1;
                }
                keep
            };
            active |= r;
            fa = ld(&$soa.fa, next, r, fa);
            fb = ld(&$soa.fb, next, r, fb);
            la = ld(&$soa.la, next, r, la);
            lb = ld(&$soa.lb, next, r, lb);
            ha = ld(&$soa.ha, next, r, ha);
            hb = ld(&$soa.hb, next, r, hb);
            na = ld(&$soa.na, next, r, na);
            nb = ld(&$soa.nb, next, r, nb);
            if $mid {
                pf = ld(&$soa.pf, next, r, pf);
                pl = ld(&$soa.pl, next, r, pl);
                ph = ld(&$soa.ph, next, r, ph);
                n = ld(&$soa.n, next, r, n);
                debt = ld(&$soa.debt, next, r, debt);
            } else {
                // A stopped lane's pile and debt are garbage: clear them for the fresh game.
                pf = maskz_mov(!r, pf);
                pl = maskz_mov(!r, pl);
                ph = maskz_mov(!r, ph);
                n = maskz_mov(!r, n);
                debt = maskz_mov(!r, debt);
            }
            who = ld(&$soa.who, next, r, who);
            slot = ld(&$soa.slot, next, r, slot);
            tricks = maskz_mov(!r, tricks);
            cards = maskz_mov(!r, cards);
            next += fresh;
        }
        stopped_count
    }};
}

pub(crate) use move_loop;
