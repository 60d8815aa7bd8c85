//! The move loop of the 64-card lanes for games of at most 31 face cards (every standard deal),
//! written once over the lane vector [`Vec64`]: the moves of `moves64.rs` with fewer operations.
//!
//! A hand keeps its face cards' positions as a plane (`f`), as before, but their kinds as a queue
//! of two-bit fields (`v`: the first face card's `penalty - 1` in the low bits, a 1 above the
//! last), where `moves64.rs` keeps two more planes. The face card a move puts on the pile is
//! always the first of its hand, so its kind is the low two bits of `v` (no shift by its
//! position), a hand's kinds shift by two only when it plays a face card, and a swap of the two
//! hands moves three vectors instead of four. The pile keeps its kinds the same way; the player
//! who takes it appends them above its own, at its marker (the highest set bit).
//!
//! The face planes run from the top: a hand's card `i` is bit `63 - i` (where `Deal64` and the
//! tree walk have bit `i`; a refill reverses them), so a hand's first face card is its leading
//! zeros, one operation where the trailing zeros took four, and a hand gives up cards by a left
//! shift.
//!
//! The step is written for either lane width of [`Vec64`] (the module's numbers are for 64-bit
//! lanes): [`run`] plays random deals in 64-bit lanes, and the exhaustive search's batch
//! (`search/exhaustive/tally/kinds.rs`) plays its fixed games in 64-bit lanes past 32 cards and
//! in sixteen 32-bit lanes up to 32, where a hand's card `i` is bit `31 - i` and the kinds of
//! every face card and the marker fit up to 15 face cards ([`max_faces`]). The face planes are
//! a [`Planes`] type: the lane word itself, or [`Split`], two 32-bit words of sixteen lanes for
//! games of up to 60 cards (the batch's games past 34 cards, where the processor has VBMI2).

#![cfg_attr(
    not(target_arch = "x86_64"),
    allow(dead_code, unused_imports, unused_variables)
)]
// Elsewhere (ARM) the batch plays one by one: the vector loops are reached only from the
// tests of their portable form, so their x86-only callers leave parts unused there.

use crate::engine::drive64::{self, LaneGroup, Stopped};
use crate::engine::lanes::Finish;
use crate::engine::lanes64::Deal64;
use crate::engine::source64::Games;
#[cfg(target_arch = "x86_64")]
use crate::engine::vec64::Avx512x16;
use crate::engine::vec64::Vec64;

/// The most face cards a game may hold in lanes of `bits` bits: the kinds of them all and the
/// marker fit in `bits - 1` bits (see `Group::pv`).
pub(crate) const fn max_faces(bits: u32) -> u32 {
    bits / 2 - 1
}

/// The most face cards a game may hold in 64-bit lanes.
pub(crate) const MAX_FACES: u32 = max_faces(64);

/// Whether every game of `games` fits these lanes (at most [`MAX_FACES`] face cards).
pub(crate) fn fits(games: &[Deal64]) -> bool {
    games
        .iter()
        .all(|g| g.faces[0].count_ones() + g.faces[1].count_ones() <= MAX_FACES)
}

/// The face planes of a group's hands and pile (card `i` from the top at bit `BITS - 1 - i`):
/// one lane word ([`Vec64`] itself), or two (`Split`: 64 cards in two `u32` words, so that
/// sixteen lanes hold decks of up to 60 cards). The operations are the step's, no more.
pub(crate) trait Planes<V: Vec64>: Copy {
    /// Empty planes.
    ///
    /// # Safety
    /// The processor has `V`'s features (and the form's own).
    unsafe fn zero() -> Self;
    /// The leading zeros: the first face card's position, or at least the plane's cards when
    /// there is none.
    fn first(self, k: &Consts<V>) -> V;
    /// The planes less their first `p` cards (`p` the cards a move gives up: see `Split`).
    fn drop_top(self, p: V) -> Self;
    /// With a face card at position `n2 - 1` where `m` (a pile of `n2` cards after the move).
    fn put(self, m: V::Mask, n2: V, k: &Consts<V>) -> Self;
    /// With `pile`'s cards below the first `at` where `m` (nothing wraps: the hand and the pile
    /// hold at most the deck).
    fn append(self, m: V::Mask, pile: Self, at: V, k: &Consts<V>) -> Self;
    fn pick(m: V::Mask, t: Self, f: Self) -> Self;
    fn only(m: V::Mask, x: Self) -> Self;
}

impl<V: Vec64> Planes<V> for V {
    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: the caller's contract.
        unsafe { V::splat(0) }
    }
    #[inline(always)]
    fn first(self, _: &Consts<V>) -> V {
        self.lzcnt_loose()
    }
    #[inline(always)]
    fn drop_top(self, p: V) -> Self {
        self.shl(p)
    }
    /// The pile's card `n2 - 1` from the top is bit `BITS - n2`. A pile past `BITS` cards
    /// (the `u32` lanes' decks of 33 and 34 cards) leaves its player's opponent at most one
    /// card, and the game ends before the plane is read again; so [`Vec64::top_bit`]'s "any
    /// value" there is harmless.
    #[inline(always)]
    fn put(self, m: V::Mask, n2: V, _: &Consts<V>) -> Self {
        self.or(V::keep(m, V::top_bit(n2)))
    }
    /// A shift, as nothing passes the plane's last bit in a game that goes on: the taker's
    /// cards and the pile's face cards (all but its last card, the payment that completes
    /// the trick) fill at most `BITS` cards, or the opponent is left with none.
    #[inline(always)]
    fn append(self, m: V::Mask, pile: Self, at: V, _: &Consts<V>) -> Self {
        self.or(V::keep(m, pile.shr(at)))
    }
    #[inline(always)]
    fn pick(m: V::Mask, t: Self, f: Self) -> Self {
        V::select(m, t, f)
    }
    #[inline(always)]
    fn only(m: V::Mask, x: Self) -> Self {
        V::keep(m, x)
    }
}

/// A face plane of up to 64 cards in two words of sixteen `u32` lanes: cards 0 to 31 from the
/// top in `hi` (card `i` at bit `31 - i`), cards 32 to 63 in `lo` (card `i` at bit `63 - i`).
/// For games of at most 60 cards (with at most 15 face cards, as the `u32` kinds hold), where a
/// move gives up fewer than 32 cards, so one funnel shift (AVX-512 VBMI2) drops them: a lead
/// phase gives up at most one card more than the shorter hand holds (at most 30 of 60), a
/// payment at most four. The tests that hold these lanes to the general ones
/// (`search/exhaustive/tally.rs`) play random games of 35 to 60 cards.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(crate) struct Split {
    pub(crate) hi: Avx512x16,
    pub(crate) lo: Avx512x16,
}

#[cfg(target_arch = "x86_64")]
impl Planes<Avx512x16> for Split {
    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: the caller's contract.
        let z = unsafe { <Avx512x16 as Vec64>::splat(0) };
        Split { hi: z, lo: z }
    }
    /// `hi`'s leading zeros alone: 32 where the first face card is in `lo`, which the step
    /// never tells from its true place. Such a hand holds at least 33 cards, so the other at
    /// most 27 (60 in all): in a lead phase the other hand's first face card or last card comes
    /// first either way, and a payment only asks whether the first face card is among the
    /// first four.
    #[inline(always)]
    fn first(self, _: &Consts<Avx512x16>) -> Avx512x16 {
        self.hi.lzcnt()
    }
    #[inline(always)]
    fn drop_top(self, p: Avx512x16) -> Self {
        Split {
            hi: self.hi.funnel_shl(self.lo, p),
            lo: self.lo.shl(p),
        }
    }
    /// The card's bit is bit 0 rotated right by `n2` in either word: `hi`'s card `n2 - 1` up
    /// to 32 cards, `lo`'s past them.
    #[inline(always)]
    fn put(self, m: u16, n2: Avx512x16, k: &Consts<Avx512x16>) -> Self {
        let bit = k.one.rotr(n2);
        let high = n2.lt(k.edge);
        Split {
            hi: self.hi.or(<Avx512x16 as Vec64>::keep(m & high, bit)),
            lo: self.lo.or(<Avx512x16 as Vec64>::keep(m & !high, bit)),
        }
    }
    /// The 64-bit shift right by `at` of `hi:lo`. Below 32, `lo` gets the funnel shift's low
    /// word, and the shift by the wrapped `at - 32` gives 0. From 32 on, `lo` gets `hi` shifted
    /// by `at - 32`, and the funnel shift (by `at - 32` too) gives 0: the pile then holds at
    /// most `60 - at` cards, none in its `lo`, and the left shift of its `hi` by `64 - at`
    /// pushes every one of them out.
    #[inline(always)]
    fn append(self, m: u16, pile: Self, at: Avx512x16, k: &Consts<Avx512x16>) -> Self {
        let low = pile
            .lo
            .funnel_shr(pile.hi, at)
            .or(pile.hi.shr(at.sub(k.word)));
        Split {
            hi: self.hi.or(<Avx512x16 as Vec64>::keep(m, pile.hi.shr(at))),
            lo: self.lo.or(<Avx512x16 as Vec64>::keep(m, low)),
        }
    }
    #[inline(always)]
    fn pick(m: u16, t: Self, f: Self) -> Self {
        Split {
            hi: <Avx512x16 as Vec64>::select(m, t.hi, f.hi),
            lo: <Avx512x16 as Vec64>::select(m, t.lo, f.lo),
        }
    }
    #[inline(always)]
    fn only(m: u16, x: Self) -> Self {
        Split {
            hi: <Avx512x16 as Vec64>::keep(m, x.hi),
            lo: <Avx512x16 as Vec64>::keep(m, x.lo),
        }
    }
}

/// One group of lanes: the state of its games, the hand of the player to act first as `a`.
#[derive(Clone, Copy)]
pub(crate) struct Group<V: Vec64, P: Planes<V> = V> {
    /// The face cards of each hand, card `i` at bit `63 - i` (see the module head and
    /// [`Planes`]).
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
    /// most `BITS - 1` bits); where the next kind goes (twice its face cards); its cards; and
    /// the debt of the player to act.
    pub(crate) pf: P,
    pub(crate) pv: V,
    pub(crate) pr: V,
    pub(crate) n: V,
    pub(crate) debt: V,
    /// Bit `i`: the player `a` is in lane `i` (0 or 1).
    pub(crate) who: u32,
    /// Finished tricks times `2^(BITS / 2)` plus their cards (as `moves64.rs`, which has 2^32).
    pub(crate) tc: V,
    /// Results of the lanes that stopped in the last move: winner (bit `i` for lane `i`), cards
    /// of an unfinished last trick, and whether the game ended (else it reached the limit).
    pub(crate) winner: u32,
    pub(crate) last: V,
    pub(crate) ended: u32,
    /// Index in `games` of each lane's game.
    pub(crate) slot: [usize; 8],
    /// Bit `i` while lane `i` plays a game.
    pub(crate) active: u32,
}

impl<V: Vec64, P: Planes<V>> Group<V, P> {
    /// A group with no game.
    ///
    /// # Safety
    /// The processor has `V`'s and `P`'s features.
    #[inline(always)]
    pub(crate) unsafe fn new() -> Self {
        // SAFETY: the caller's contract.
        let (z, zp) = unsafe { (V::splat(0), P::zero()) };
        Group {
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
            who: 0,
            tc: z,
            winner: 0,
            last: z,
            ended: 0,
            slot: [0; 8],
            active: 0,
        }
    }

    /// One move of every lane; the lanes that stopped (ended, or `tricks >= limit`) among the
    /// active ones, their results in `winner`, `last` and `ended`. `k` holds the constants.
    #[inline(always)]
    pub(crate) fn step(&mut self, k: &Consts<V>) -> u32 {
        self.step_results::<false>(k)
    }

    /// [`Group::step`], with `ALWAYS` the results computed at every move, not only behind a
    /// branch on "some lane stopped" (taken at about a fifth of the moves, so often
    /// mispredicted, which also stalls the next move behind this one's whole chain).
    #[inline(always)]
    pub(crate) fn step_results<const ALWAYS: bool>(&mut self, k: &Consts<V>) -> u32 {
        let Consts {
            zero,
            one,
            two,
            three,
            five,
            trick,
            limit,
            ..
        } = *k;
        let Group {
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
        let mb = vb.top_index();
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
        let pop_b = V::keep(lead, V::select(b_first, idx.add(one), idx));
        // The pile's cards after the move: the cards given up; where a card is put, it is the
        // last of them (at `n2 - 1`).
        let n2 = n.add(pop_a).add(pop_b);
        let fa2 = fa.drop_top(pop_a);
        let na2 = na.sub(pop_a);
        let fb2 = fb.drop_top(pop_b);
        let nb2 = nb.sub(pop_b);
        // The hand that put a face card loses its first kind.
        let va2 = V::select(put & !from_b, va.shr2(), va);
        let vb2 = V::select(from_b, vb.shr2(), vb);
        let pf2 = pf.put(put, n2, k);
        // The kind's field, its marker moved up past it: `kind ^ 5` is the kind and a marker
        // above it, less the marker below (see `Group::pv`).
        let pv2 = pv.xor(V::keep(put, kind.xor(five).shl(pr)));
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
        self.n = V::keep(more, n2);
        self.debt = V::keep(more, c);
        self.fa = P::pick(swap, fb3, fa2);
        self.fb = P::pick(swap, fa2, fb3);
        self.va = V::select(swap, vb3, va2);
        self.vb = V::select(swap, va2, vb3);
        self.na = V::select(swap, nb3, na2);
        self.nb = V::select(swap, na2, nb3);
        let who = self.who;
        self.who = who ^ V::bits(swap);
        // The end: a lead player without a card loses, so does a payer short of the debt, and a
        // trick that empties its payer ends the game.
        let over = complete & na2.eq(zero);
        let ended = (lead & lead_end) | pay_end | over;
        let long = !tc.lt(limit);
        let stopped = V::bits(ended | long) & self.active;
        if ALWAYS || stopped != 0 {
            // a wins when b runs out in the lead; else b does.
            let a_wins = V::bits(lead & lead_end & b_first);
            self.winner = who ^ !a_wins;
            let last_pay = V::keep(pay_end, n.add(na));
            self.last = V::select(lead, n2.sub(one), last_pay);
            self.ended = V::bits(ended);
        }
        stopped
    }
}

impl<V: Vec64> LaneGroup<V> for Group<V> {
    type Consts = Consts<V>;

    #[inline(always)]
    fn step(&mut self, k: &Consts<V>) -> u32 {
        Group::step(self, k)
    }

    #[inline(always)]
    fn stopped(&self) -> Stopped<V> {
        Stopped {
            tc: self.tc,
            last: self.last,
            winner: self.winner,
            ended: self.ended,
        }
    }

    /// One masked move a variable.
    #[inline(always)]
    fn clear(&mut self, lanes: u32) {
        let keep = !self.pf.mask(lanes);
        for v in [
            &mut self.pf,
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
    fn load(&mut self, i: usize, g: &Deal64) {
        let a = g.next as usize & 1;
        let b = a ^ 1;
        let kinds = |p: usize| self.fa.face_kinds(g.faces[p], g.lo[p], g.hi[p]);
        let (ka, kb) = (kinds(a), kinds(b));
        self.fa = self.fa.with_lane(i, g.faces[a].reverse_bits());
        self.fb = self.fb.with_lane(i, g.faces[b].reverse_bits());
        self.va = self.va.with_lane(i, ka);
        self.vb = self.vb.with_lane(i, kb);
        self.na = self.na.with_lane(i, u64::from(g.len[a]));
        self.nb = self.nb.with_lane(i, u64::from(g.len[b]));
        self.who = self.who & !(1 << i) | (a as u32) << i;
    }

    #[inline(always)]
    fn lanes(&mut self) -> (&mut [usize; 8], &mut u32) {
        (&mut self.slot, &mut self.active)
    }
}

/// The constants of a step, in every lane: `trick` is `1 << (BITS / 2)` and `limit` the trick
/// limit times `trick`.
#[derive(Clone, Copy)]
pub(crate) struct Consts<V> {
    zero: V,
    one: V,
    two: V,
    three: V,
    five: V,
    trick: V,
    limit: V,
    /// The lane's bits, and one more (for `Split`).
    word: V,
    edge: V,
}

impl<V: Vec64> Consts<V> {
    /// The constants for the trick limit `limit`.
    ///
    /// # Safety
    /// The processor has `V`'s features.
    #[inline(always)]
    pub(crate) unsafe fn new(limit: u32) -> Self {
        // SAFETY: the caller's contract.
        unsafe {
            Consts {
                zero: V::splat(0),
                one: V::splat(1),
                two: V::splat(2),
                three: V::splat(3),
                five: V::splat(5),
                trick: V::splat(1 << (V::BITS / 2)),
                limit: V::splat(u64::from(limit) << (V::BITS / 2)),
                word: V::splat(u64::from(V::BITS)),
                edge: V::splat(u64::from(V::BITS) + 1),
            }
        }
    }
}

/// Plays every game of `games` (each of at most [`MAX_FACES`] face cards: [`fits`]) until it
/// ends or has played `limit` tricks, and reports each with `done(index in games, finish)`, in
/// no particular order.
///
/// # Safety
/// The processor has `V`'s features.
#[inline(always)]
pub(crate) unsafe fn run<V: Vec64, const G: usize>(
    games: &mut impl Games,
    limit: u32,
    done: &mut impl FnMut(usize, Finish),
) {
    // The cards of a lane's finished tricks stay below 2^32 (see `Group::tc`); the games come
    // in 64-bit planes, as 64-bit lanes take them.
    assert!(limit < 1 << 26, "a trick limit below 2^26");
    assert!(V::BITS == 64 && V::LANES <= 8, "64-bit lanes");
    debug_assert!(games.fits(), "at most {MAX_FACES} face cards a game");
    // SAFETY: the caller's contract.
    let k = unsafe { Consts::new(limit) };
    // SAFETY: as above.
    let groups: [Group<V>; G] = std::array::from_fn(|_| unsafe { Group::new() });
    drive64::run(groups, &k, games, done);
}
