//! The lanes of [`super::lanes`] written out in AVX-512: the whole state of 16 games (`u32`
//! lanes) lives in vector registers from the first move to the last, finished lanes are refilled
//! (a few at a time) with one expand-load per variable, and their results leave compressed in a
//! register and stored whole, one store each. The portable
//! [`super::lanes::Lanes`] is the specification; `tests` hold this one to it game by game. The
//! move loop itself is `avx512_moves.rs`.

use super::avx512_moves::{group_move, group_refill, move_loop, refill_cards, report_stopped};
use super::lanes::{Finish, Game, Plane};

/// The games of a batch, structure of arrays, the hand of the player to act first (`a`).
#[derive(Default)]
struct Soa<T> {
    fa: Vec<T>,
    fb: Vec<T>,
    la: Vec<T>,
    lb: Vec<T>,
    ha: Vec<T>,
    hb: Vec<T>,
    na: Vec<T>,
    nb: Vec<T>,
    pf: Vec<T>,
    pl: Vec<T>,
    ph: Vec<T>,
    n: Vec<T>,
    debt: Vec<T>,
    who: Vec<T>,
    slot: Vec<T>,
}

impl<T: Plane + From<u32>> Soa<T> {
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
                v.resize(len + 16, T::ZERO);
            }
        }
    }

    /// Puts the games of `games` that have a move to make into the arrays (the others are
    /// reported at once); returns how many. The transpose is a hot loop (every fully fixed game
    /// of the exhaustive search passes through it): the arrays' pointers are taken once, so
    /// each field is one load and one store, with no bounds check or reload of a `Vec`'s pointer
    /// between the stores (which the compiler must otherwise assume alias).
    fn fill(&mut self, games: &[Game<T>], done: &mut impl FnMut(usize, Finish)) -> usize {
        self.reset(games.len());
        let dst = [
            self.fa.as_mut_ptr(),
            self.fb.as_mut_ptr(),
            self.la.as_mut_ptr(),
            self.lb.as_mut_ptr(),
            self.ha.as_mut_ptr(),
            self.hb.as_mut_ptr(),
            self.na.as_mut_ptr(),
            self.nb.as_mut_ptr(),
            self.pf.as_mut_ptr(),
            self.pl.as_mut_ptr(),
            self.ph.as_mut_ptr(),
            self.n.as_mut_ptr(),
            self.debt.as_mut_ptr(),
            self.who.as_mut_ptr(),
            self.slot.as_mut_ptr(),
        ];
        let mut total = 0;
        for (i, g) in games.iter().enumerate() {
            if let Some(finish) = g.over_at_start() {
                done(i, finish);
                continue;
            }
            let a = g.next as usize & 1;
            let b = a ^ 1;
            let values = [
                g.faces[a],
                g.faces[b],
                g.lo[a],
                g.lo[b],
                g.hi[a],
                g.hi[b],
                T::from(g.len[a]),
                T::from(g.len[b]),
                g.pile_faces,
                g.pile_lo,
                g.pile_hi,
                T::from(g.n),
                T::from(g.debt),
                T::from(a as u32),
                T::from(i as u32),
            ];
            for (d, v) in dst.iter().zip(values) {
                // SAFETY: `total < games.len()`, and `reset` made every array that long (and
                // more); the 15 arrays are distinct allocations.
                unsafe { d.add(total).write(v) };
            }
            total += 1;
        }
        total
    }
}

/// Results of stopped lanes, in the order they stopped.
#[derive(Default)]
struct Out<T> {
    slot: Vec<T>,
    winner: Vec<T>,
    tricks: Vec<T>,
    cards: Vec<T>,
    last: Vec<T>,
    ended: Vec<T>,
}

impl<T: Plane + Into<u64>> Out<T> {
    /// Makes room for `total` results and the 16 of padding that whole-vector stores write.
    fn reset(&mut self, total: usize) {
        for v in [
            &mut self.slot,
            &mut self.winner,
            &mut self.tricks,
            &mut self.cards,
            &mut self.last,
            &mut self.ended,
        ] {
            if v.len() < total + 16 {
                v.resize(total + 16, T::ZERO);
            }
        }
    }

    /// Reports the first `total` results.
    fn report(&self, total: usize, done: &mut impl FnMut(usize, Finish)) {
        let u = |v: &Vec<T>, i: usize| -> u32 { v[i].into() as u32 };
        for i in 0..total {
            let finish = Finish::of_lane(
                u(&self.ended, i) == 1,
                u(&self.winner, i),
                u(&self.tricks, i),
                u(&self.cards, i),
                u(&self.last, i),
            );
            done(u(&self.slot, i) as usize, finish);
        }
    }
}

/// Scratch of the AVX-512 lanes, reused between batches.
#[derive(Default)]
pub struct Avx512Lanes {
    soa: Soa<u32>,
    out: Out<u32>,
}

/// Idle lanes of a group of 16 that trigger its refill.
const REFILL: usize = 4;

mod narrow {
    use std::arch::x86_64::{
        __m512i, __mmask16, _mm512_add_epi32 as add, _mm512_and_si512, _mm512_andnot_si512,
        _mm512_cmpeq_epi32_mask as cmpeq, _mm512_cmpge_epu32_mask as cmpge,
        _mm512_cmplt_epu32_mask as cmplt, _mm512_lzcnt_epi32 as lzcnt,
        _mm512_mask_add_epi32 as mask_add, _mm512_mask_blend_epi32 as blend,
        _mm512_mask_expandloadu_epi32 as expandload, _mm512_mask_or_epi32 as mask_or,
        _mm512_mask_xor_epi32 as mask_xor, _mm512_maskz_add_epi32 as maskz_add,
        _mm512_maskz_compress_epi32 as maskz_compress, _mm512_maskz_mov_epi32 as maskz_mov,
        _mm512_maskz_sllv_epi32 as maskz_sllv, _mm512_min_epu32 as min, _mm512_or_si512,
        _mm512_set1_epi32 as set1, _mm512_setzero_si512, _mm512_sllv_epi32 as sllv,
        _mm512_srli_epi32 as srli, _mm512_srlv_epi32 as srlv, _mm512_storeu_si512 as storeu,
        _mm512_sub_epi32 as sub,
    };

    use super::*;

    impl Avx512Lanes {
        /// As [`super::super::lanes::Lanes::run`].
        ///
        /// # Safety
        /// The processor must have AVX-512 F, CD, VL, BW and DQ.
        #[target_feature(
            enable = "avx512f,avx512cd,avx512vl,avx512bw,avx512dq,bmi1,bmi2,lzcnt,popcnt"
        )]
        pub unsafe fn run(
            &mut self,
            games: &[Game],
            limit: u32,
            mut done: impl FnMut(usize, Finish),
        ) {
            let soa = &mut self.soa;
            let total = soa.fill(games, &mut done);
            let out = &mut self.out;
            out.reset(total);
            // SAFETY: every array is padded with 16 values past `total` (the resets above), as
            // the move loop's loads and stores need.
            let stopped = unsafe {
                move_loop!(soa: soa, out: out, total: total, limit: limit,
                    lanes: 16, mask: __mmask16, elem: u32, int: i32, refill: REFILL, mid_trick: true,
                    report: full, groups: 1)
            };
            debug_assert_eq!(stopped, total);
            self.out.report(total, &mut done);
        }
    }
}
