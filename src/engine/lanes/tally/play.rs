//! The counting batch played: the kernels that dispatch it to the forms chosen, each lane
//! element's loops (`u32` kinds lanes; `u64` kinds lanes or split lanes), and the sink that
//! counts what the lanes report.

use super::batch::{BATCH, PAD, Special, TallyBatch};
use super::soa::Lane;
use super::{arrays, split};
use crate::engine::isa::{self, Form, Forms, Kernel};
use crate::engine::lanes::drive::{Sink, Stopped};
use crate::engine::lanes::kinds;
use crate::engine::lanes::source::Most;
use crate::engine::lanes::{Loop, Shape, with_groups};
use crate::engine::vector::Vector;

/// A lane element the batch plays in (`u32` or `u64`), with its loops.
pub(crate) trait TallyPlane: Lane {
    /// The loop the batch's games play in, in the forms `F`: `None` where the forms have no
    /// lanes for it (the portable path plays the games one by one: faster than plain lanes).
    /// `split`: the games fit the split lanes (see `split::convert`).
    fn shape<F: Forms>(split: bool) -> Option<Shape>;
    /// Plays the batch's games ([`TallyBatch::run`]) in the forms `F`; false, and nothing played,
    /// when the forms have no lanes for them or a game has more face cards than the kinds queue
    /// holds (never from the search, which plays such decks one by one).
    ///
    /// # Safety
    /// The processor has `F`'s features, and every array of the batch holds `BATCH + PAD`
    /// values.
    unsafe fn play<F: Forms>(batch: &mut TallyBatch<Self>, limit: u32) -> bool;
}

impl<E: TallyPlane> TallyBatch<E> {
    /// Whether this processor has lanes for the batch (AVX-512 or AVX2; else the games are
    /// played one by one, faster than lanes without vector units).
    pub fn available() -> bool {
        isa::dispatch(ShapeOf::<E>(false, std::marker::PhantomData)).is_some()
    }

    /// The loop the batch's games of a deck of `faces` face cards in `cards` cards play in on
    /// this processor, or `None`: one by one.
    pub fn shape(faces: u32, cards: u32) -> Option<Shape> {
        let split = kinds::fits_split(Most { faces, cards });
        isa::dispatch(ShapeOf::<E>(split, std::marker::PhantomData))
    }

    /// Plays the batch, each game until it ends or has played `limit` tricks in the lanes:
    /// `self.out` then holds the counts and the special games (those ending with at least `bar`
    /// cards, and those stopped by the limit). False, and nothing played, when the lanes of this
    /// processor cannot take the batch (see [`TallyPlane::play`]): the caller plays its games
    /// one by one.
    pub fn run(&mut self, limit: u32, bar: u32) -> bool {
        self.run_in(limit, bar, Form::get())
    }

    /// [`TallyBatch::run`] in the forms of `form`, which the processor must have (tests compare
    /// them).
    pub(crate) fn run_in(&mut self, limit: u32, bar: u32, form: Form) -> bool {
        assert!(form.detected(), "the processor has {form:?}");
        assert_eq!(self.soa.slot.len(), BATCH + PAD, "a batch with room");
        let mut played = false;
        self.run_by(limit, bar, |batch, limit| {
            played = isa::run_in(form, Play { batch, limit }).unwrap_or(false)
        });
        played
    }

    /// [`TallyBatch::run`] with the loop `play` (the lanes' own, or in tests another to compare).
    fn run_by(&mut self, limit: u32, bar: u32, play: impl FnOnce(&mut Self, u32)) {
        self.out.wins = [0; 2];
        self.out.special = 0;
        self.out.bar = bar;
        play(self, limit);
        // The lanes count player 2's wins only: every game stopped once, so player 1 won the
        // others that are not special.
        let out = &mut self.out;
        out.wins[0] = self.len as u64 - out.special as u64 - out.wins[1];
    }
}

/// The loop of a batch of `E` in the forms chosen.
struct ShapeOf<E>(bool, std::marker::PhantomData<E>);

impl<E: TallyPlane> Kernel for ShapeOf<E> {
    type Out = Option<Shape>;
    unsafe fn run<F: Forms>(self) -> Option<Shape> {
        E::shape::<F>(self.0)
    }
}

/// The counting batch's kernel: plays `batch` in the forms chosen.
struct Play<'a, E> {
    batch: &'a mut TallyBatch<E>,
    limit: u32,
}

impl<E: TallyPlane> Kernel for Play<'_, E> {
    type Out = bool;
    #[inline(always)]
    unsafe fn run<F: Forms>(self) -> bool {
        // SAFETY: the caller's contract; `run_in` checked the arrays' room.
        unsafe { E::play::<F>(self.batch, self.limit) }
    }
}

impl TallyPlane for u32 {
    fn shape<F: Forms>(_: bool) -> Option<Shape> {
        let groups = F::TALLY_NARROW;
        (groups > 0).then(|| Shape::of::<F::Narrow>(Loop::Kinds, groups, F::FORM))
    }
    /// The kinds step in `u32` lanes; false when a game of the batch has more than
    /// `kinds::max_faces(32)` face cards.
    #[inline(always)]
    unsafe fn play<F: Forms>(batch: &mut TallyBatch<u32>, limit: u32) -> bool {
        if F::TALLY_NARROW == 0 {
            return false;
        }
        // SAFETY: the caller's contract.
        let v = unsafe { F::Narrow::splat(0) };
        if !arrays::convert(v, batch, limit) {
            return false;
        }
        // SAFETY: as above.
        with_groups!(F::TALLY_NARROW, G => unsafe {
            arrays::play::<u32, F::Narrow, G>(batch, limit)
        });
        true
    }
}

impl TallyPlane for u64 {
    fn shape<F: Forms>(split: bool) -> Option<Shape> {
        if F::TALLY_WIDE == 0 {
            None
        } else if split && F::TALLY_SPLIT > 0 {
            Some(Shape::of::<F::Split>(Loop::Split, F::TALLY_SPLIT, F::FORM))
        } else {
            Some(Shape::of::<F::Wide>(Loop::Kinds, F::TALLY_WIDE, F::FORM))
        }
    }
    /// The split lanes (`u32`s, each face plane in two words: `tally/split.rs`) when the forms
    /// run them and the games fit, else the kinds step in `u64` lanes; false when a game of the
    /// batch has more than `kinds::MAX_FACES` face cards.
    #[inline(always)]
    unsafe fn play<F: Forms>(batch: &mut TallyBatch<u64>, limit: u32) -> bool {
        if F::TALLY_WIDE == 0 {
            return false;
        }
        // SAFETY: the caller's contract.
        let v = unsafe { F::Wide::splat(0) };
        if !arrays::convert(v, batch, limit) {
            return false;
        }
        // SAFETY (both): as above.
        if F::TALLY_SPLIT > 0 && split::convert(batch, limit) {
            with_groups!(F::TALLY_SPLIT, G => unsafe {
                split::play::<F::Split, G>(batch, limit)
            });
        } else {
            with_groups!(F::TALLY_WIDE, G => unsafe {
                arrays::play::<u64, F::Wide, G>(batch, limit)
            });
        }
        true
    }
}

/// The counting batch's sink: a game that ended shorter than `bar` cards (those before the
/// lanes included) counts as a win of its winner, player 2's in `wins[1]`; the others, rare, one
/// by one in the arrays.
impl<E: Lane, V: Vector> Sink<V> for Special<E> {
    const ALWAYS: bool = true;
    #[inline(always)]
    fn report(&mut self, r: &Stopped<V>, stopped: u32, slots: &[usize; 16]) {
        let half = V::BITS / 2;
        // Made here, not held across the moves: the move needs every register it can get. (A
        // bar past the lanes' card count is one no game reaches.)
        // SAFETY: `r`'s vectors vouch for the processor's features.
        let (bar, low) = unsafe {
            (
                V::splat(u64::from(self.bar).min((1 << half) - 1)),
                V::splat((1 << half) - 1),
            )
        };
        let cards_all = r.tc.and(low).add(r.last);
        let short = V::bits(cards_all.lt(bar));
        let special = stopped & (!r.ended | !short);
        self.wins[1] += u64::from((stopped & !special & r.winner).count_ones());
        if special != 0 {
            let [mut tc, mut last, mut cards] = [[0u64; 16]; 3];
            r.tc.store(&mut tc);
            r.last.store(&mut last);
            cards_all.store(&mut cards);
            let mut m = special;
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                let j = self.special;
                self.slot[j] = E::of_u64(slots[i] as u64);
                self.winner[j] = E::of_u64(u64::from(r.winner >> i & 1));
                self.tricks[j] = E::of_u64((tc[i] >> half) + u64::from(last[i] > 0));
                self.cards[j] = E::of_u64(cards[i]);
                self.ended[j] = E::of_u64(u64::from(r.ended >> i & 1));
                self.special = j + 1;
            }
        }
    }
    fn over(&mut self, _: usize, _: u8) {
        unreachable!("the batch holds only games with a move to make");
    }
}

#[cfg(test)]
mod tests;
