//! The planes loop of the exhaustive search's AVX-512 batch (`search/exhaustive/tally.rs`, for
//! the rare batch whose games hold more face cards than the kinds queue), written as macros over
//! the width's intrinsics (sixteen `u32` lanes or eight `u64` ones): the caller brings them into scope under the short names
//! the loop uses (`add`, `blend`, `srlv`, ...: see its `use` list) and its batch arrays. (The
//! 64-card lanes have their own loop, generic over a lane vector: `moves64.rs`.)
//!
//! Every lane computes every case of a move (a lead phase, one payment, or the end of a payment
//! and the taking of the pile) and selects its own, so the only branch left is "did some lane
//! stop". The state of all lanes stays in registers from the first move to the last; stopped
//! lanes leave with one in-register compress and store per result, and the group is refilled, in
//! lane order, with one expand-load per variable once `refill` of its lanes are idle. Two groups
//! can step side by side, to overlap their chains of dependent operations: the exhaustive
//! search's counting batch does (faster on AMD Zen 5); the general lanes keep one (two measured
//! 4% slower in `u32` lanes and 1% in `u64` ones on AMD Zen 4, and 4% slower on the Zen 5 where
//! every result is stored: 17 state vectors a group, and 32 registers).

/// Plays the games of `$soa` (`$total` of them, structure of arrays with `$lanes` values of
/// padding; with `mid_trick` false every game starts at a trick boundary and the pile arrays are
/// not read) until each ends or has played `$limit` tricks; the results go to `$out` in the order
/// the lanes stopped; `$groups` (1 or 2) groups of lanes step side by side. Evaluates to how many
/// stopped (all of them). Must be expanded inside an `unsafe` block of a function with AVX-512 F,
/// CD, BW, DQ and VL enabled, whose arrays are padded as the comments at `ld` and `group_move`
/// say.
macro_rules! move_loop {
    (
        soa: $soa:ident, out: $out:ident, total: $total:expr, limit: $limit:expr,
        lanes: $lanes:expr, mask: $mask:ty, elem: $elem:ty, int: $int:ty, refill: $refill:expr,
        mid_trick: $mid:expr, report: $report:ident, groups: $groups:expr
    ) => {{
        let total: usize = $total;
        let two_groups: bool = $groups == 2;
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
        /// One group of lanes: the state of its games (`a` the player to act), and which lanes
        /// play one.
        #[derive(Clone, Copy)]
        struct Group {
            fa: __m512i,
            fb: __m512i,
            la: __m512i,
            lb: __m512i,
            ha: __m512i,
            hb: __m512i,
            na: __m512i,
            nb: __m512i,
            pf: __m512i,
            pl: __m512i,
            ph: __m512i,
            n: __m512i,
            debt: __m512i,
            who: __m512i,
            slot: __m512i,
            tricks: __m512i,
            cards: __m512i,
            active: $mask,
        }
        let idle = Group {
            fa: zero,
            fb: zero,
            la: zero,
            lb: zero,
            ha: zero,
            hb: zero,
            na: zero,
            nb: zero,
            pf: zero,
            pl: zero,
            ph: zero,
            n: zero,
            debt: zero,
            who: zero,
            slot: zero,
            tricks: zero,
            cards: zero,
            active: 0,
        };
        let mut g0 = idle;
        let mut g1 = idle;
        let mut next = 0usize;
        let mut stopped_count = 0usize;
        group_refill!(g0, $soa, ld, next, total, $mask, $mid, $report);
        if two_groups {
            group_refill!(g1, $soa, ld, next, total, $mask, $mid, $report);
        }
        while (g0.active | g1.active) != 0 {
            // The same move for each group (the loop has a constant count and is unrolled).
            for g in [&mut g0, &mut g1]
                .into_iter()
                .take(if two_groups { 2 } else { 1 })
            {
                group_move!(
                    g,
                    $soa,
                    $out,
                    ld,
                    next,
                    total,
                    stopped_count,
                    zero,
                    one,
                    vlimit,
                    tz,
                    $mask,
                    $elem,
                    $int,
                    $refill,
                    $mid,
                    $report
                );
            }
        }
        stopped_count
    }};
}

/// One move of every lane of group `*$g` (a `&mut Group`; see [`move_loop`]); the lanes that
/// stopped leave their results in `$out` and, once `$refill` lanes of the group are idle (or none
/// plays), the group takes the next games.
macro_rules! group_move {
    (
        $g:ident, $soa:ident, $out:ident, $ld:ident, $next:ident, $total:ident,
        $stopped_count:ident, $zero:ident, $one:ident, $vlimit:ident, $tz:ident, $mask:ty,
        $elem:ty, $int:ty, $refill:expr, $mid:expr, $report:ident
    ) => {{
        let (zero, one) = ($zero, $one);
        let Group {
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
            who,
            tricks,
            cards,
            ..
        } = *$g;
        let lead = cmpeq(debt, zero);
        let tza = $tz(fa);
        let za = min(tza, na);
        let zb = min($tz(fb), nb);
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
        let tricks = mask_add(tricks, complete, tricks, one);
        $g.tricks = tricks;
        $g.cards = mask_add(cards, complete, cards, n2);
        $g.pf = maskz_mov(!complete, pf2);
        $g.pl = maskz_mov(!complete, pl2);
        $g.ph = maskz_mov(!complete, ph2);
        $g.n = maskz_mov(!complete, n2);
        $g.debt = maskz_mov(!complete, c);
        let swap = (lead_face & !b_first) | face | complete;
        $g.fa = blend(swap, fa2, fb3);
        $g.fb = blend(swap, fb3, fa2);
        $g.la = blend(swap, la2, lb3);
        $g.lb = blend(swap, lb3, la2);
        $g.ha = blend(swap, ha2, hb3);
        $g.hb = blend(swap, hb3, ha2);
        $g.na = blend(swap, na2, nb3);
        $g.nb = blend(swap, nb3, na2);
        $g.who = mask_xor(who, swap, who, one);
        let over = complete & cmpeq(na2, zero);
        let ended = (lead & lead_end) | pay_end | over;
        let long = cmpge(tricks, $vlimit);
        let stopped = (ended | long) & $g.active;
        let winner_is_a = lead & lead_end & b_first;
        let winner = mask_xor(who, !winner_is_a, who, one);
        let last_lead = add(n, step);
        let last_pay = maskz_add(pay_end, n, na);
        let last = blend(lead, last_pay, last_lead);
        report_stopped!(
            $report,
            $out,
            $stopped_count,
            stopped,
            ended,
            winner,
            tricks,
            $g.cards,
            last,
            $g.slot,
            zero,
            one,
            $elem,
            $int
        );
        $g.active &= !stopped;
        // Refill idle lanes with the next games, in lane order, once `refill` of them wait (or
        // none is left playing). (Without a stop this move the test fails: every refill fills
        // all idle lanes while games are left.)
        if $next < $total && ((!$g.active).count_ones() as usize >= $refill || $g.active == 0) {
            group_refill!($g, $soa, $ld, $next, $total, $mask, $mid, $report);
        }
    }};
}

/// Loads the next games into the idle lanes of group `$g`, in lane order, as many as are left.
macro_rules! group_refill {
    (
        $g:ident, $soa:ident, $ld:ident, $next:ident, $total:ident, $mask:ty, $mid:expr,
        $report:ident
    ) => {{
        let idle = !$g.active;
        let k = idle.count_ones() as usize;
        let fresh = k.min($total - $next);
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
        let next = $next;
        $g.active |= r;
        $g.fa = $ld(&$soa.fa, next, r, $g.fa);
        $g.fb = $ld(&$soa.fb, next, r, $g.fb);
        $g.la = $ld(&$soa.la, next, r, $g.la);
        $g.lb = $ld(&$soa.lb, next, r, $g.lb);
        $g.ha = $ld(&$soa.ha, next, r, $g.ha);
        $g.hb = $ld(&$soa.hb, next, r, $g.hb);
        $g.na = $ld(&$soa.na, next, r, $g.na);
        $g.nb = $ld(&$soa.nb, next, r, $g.nb);
        if $mid {
            $g.pf = $ld(&$soa.pf, next, r, $g.pf);
            $g.pl = $ld(&$soa.pl, next, r, $g.pl);
            $g.ph = $ld(&$soa.ph, next, r, $g.ph);
            $g.n = $ld(&$soa.n, next, r, $g.n);
            $g.debt = $ld(&$soa.debt, next, r, $g.debt);
        } else {
            // A stopped lane's pile and debt are garbage: clear them for the fresh game.
            $g.pf = maskz_mov(!r, $g.pf);
            $g.pl = maskz_mov(!r, $g.pl);
            $g.ph = maskz_mov(!r, $g.ph);
            $g.n = maskz_mov(!r, $g.n);
            $g.debt = maskz_mov(!r, $g.debt);
        }
        $g.who = $ld(&$soa.who, next, r, $g.who);
        $g.slot = $ld(&$soa.slot, next, r, $g.slot);
        $g.tricks = maskz_mov(!r, $g.tricks);
        $g.cards = refill_cards!($report, $g, $soa, $ld, next, r);
        $next += fresh;
    }};
}

/// What the lanes that stopped at a move leave (see [`move_loop`]'s `report`; `tally`, the
/// one form): only counts. The lanes' card counters started from `$soa.cards` (the cards played
///   before the lanes), so a stopped lane knows its game's whole length: a game that ended
///   shorter than `$out.bar` cards is only counted (player 2's wins in `$out.wins[1]`; the
///   caller sets `$out.wins[0]` to the rest of the games that are not special); the others
///   (ended at least that long, or stopped by the trick limit) are rare and leave `slot`,
///   `winner`, `tricks` (with the last trick), `cards` (all of the game's) and `ended` in
///   `$out`'s arrays, counted by `$out.special`. (Six compressed stores per move cost more than
///   the counting.)
macro_rules! report_stopped {
    (
        tally, $out:ident, $stopped_count:ident, $stopped:ident, $ended:ident, $winner:ident,
        $tricks:ident, $cards:expr, $last:ident, $slot:expr, $zero:ident, $one:ident,
        $elem:ty, $int:ty
    ) => {{
        let stopped = $stopped;
        let cards_all = add($cards, $last);
        let special = stopped & (!$ended | cmpge(cards_all, set1($out.bar as $int)));
        let plain = stopped & !special;
        // Only player 2's wins: player 1's are the rest of the plain games, worked out once the
        // batch is done. (Two counts side by side were vectorised by the compiler into a
        // table-lookup popcount in SSE registers, about a tenth of the `u64` loop's samples.)
        let w1 = cmpeq($winner, $one);
        $out.wins[1] += (plain & w1).count_ones() as u64;
        $stopped_count += stopped.count_ones() as usize;
        if special != 0 {
            // Rare once a long game is known. At most $lanes values at `special < total`.
            let at = $out.special;
            let cs = |v: &mut Vec<$elem>, x: __m512i| {
                storeu(v.as_mut_ptr().add(at) as *mut _, maskz_compress(special, x))
            };
            let tricks_all = mask_add($tricks, cmplt($zero, $last), $tricks, $one);
            cs(&mut $out.slot, $slot);
            cs(&mut $out.winner, $winner);
            cs(&mut $out.tricks, tricks_all);
            cs(&mut $out.cards, cards_all);
            cs(&mut $out.ended, maskz_mov($ended, $one));
            $out.special += special.count_ones() as usize;
        }
    }};
}

/// A refilled group's card counters: the cards they played before the lanes (`tally`, from
/// `$soa.cards`).
macro_rules! refill_cards {
    (tally, $g:ident, $soa:ident, $ld:ident, $next:ident, $r:ident) => {
        $ld(&$soa.cards, $next, $r, $g.cards)
    };
}

pub(crate) use {group_move, group_refill, move_loop, refill_cards, report_stopped};
