//! The lanes of [`super::lanes`] written out in AVX-512: the whole state of 16 games lives in
//! vector registers from the first move to the last, finished lanes are refilled (a few at a
//! time) with one expand-load per variable, and their results leave compressed in a register and
//! stored whole, one store each.
//! The portable [`super::lanes::Lanes`] is the specification; `tests` hold this one to it game by
//! game. The move loop itself is `avx512_moves.rs`, shared with the 64-card lanes.

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

use super::avx512_moves::move_loop;

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
        // SAFETY: every array is padded with 16 values past `total` (`reset` above), as the
        // move loop's loads and stores need.
        let stopped = unsafe {
            move_loop!(soa: soa, out: out, total: total, limit: limit,
                lanes: 16, mask: __mmask16, elem: u32, int: i32, refill: REFILL, mid_trick: true)
        };
        debug_assert_eq!(stopped, total);
        for i in 0..total {
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
