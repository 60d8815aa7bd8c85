//! The lanes' deal layout: games in the scalar form's `u64` planes made from 64 slots of cards
//! at once (the face planes of all 64 slots by a few byte compares, then each hand cut out with
//! a mask and a shift), for the deals of random search and the hands of the piece enumeration.

use crate::card::Card;
use crate::engine::game::Game;
use crate::engine::isa::{self, Forms, Isa, Kernel};

/// The face planes of 64 slots, bit `j` for slot `j`, in the forms chosen.
struct Planes<'a>(&'a [Card; 64]);

impl Kernel for Planes<'_> {
    type Out = (u64, u64, u64);
    #[inline(always)]
    unsafe fn run<F: Forms>(self) -> (u64, u64, u64) {
        // SAFETY: the caller's contract.
        unsafe { F::planes(self.0) }
    }
}

/// The face planes of 64 slots (`isa::Forms::planes`) with the best forms the processor has.
#[inline]
pub(crate) fn planes(buf: &[Card; 64]) -> (u64, u64, u64) {
    isa::dispatch(Planes(buf))
}

/// The deal of the first `n` slots whose planes are `planes` (the rest number cards): player 1
/// holds the first half (rounded up) and moves first.
#[inline(always)]
pub(crate) fn cut((faces, lo, hi): (u64, u64, u64), n: usize) -> Game<u64> {
    let h1 = n.div_ceil(2);
    let keep = u64::MAX.checked_shr(64 - h1 as u32).unwrap_or(0);
    let rest = |x: u64| x.checked_shr(h1 as u32).unwrap_or(0);
    Game {
        faces: [faces & keep, rest(faces)],
        lo: [lo & keep, rest(lo)],
        hi: [hi & keep, rest(hi)],
        len: [h1 as u32, (n - h1) as u32],
        ..Game::default()
    }
}

impl Game<u64> {
    /// A two-player deal in deal order: player 1 holds the first half (rounded up) and moves first.
    pub fn deal(cards: &[Card]) -> Game<u64> {
        assert!(cards.len() <= 64, "a lane deal holds at most 64 cards");
        let mut buf = [0; 64];
        buf[..cards.len()].copy_from_slice(cards);
        Game::from_deal_order(&buf, cards.len())
    }

    /// [`Game::deal`] of the first `n` cards of `buf` (the rest must be number cards, 0).
    #[inline]
    pub fn from_deal_order(buf: &[Card; 64], n: usize) -> Game<u64> {
        assert!(n <= 64, "a lane deal holds at most 64 cards");
        debug_assert!(
            buf[n..].iter().all(|&c| c == 0),
            "slots past the deal are empty"
        );
        cut(planes(buf), n)
    }

    /// Sets hand `p` to the `len` cards `card(0)`, `card(1)`, ... (top first).
    #[inline]
    pub fn set_hand(&mut self, p: usize, len: usize, card: impl Fn(usize) -> Card) {
        assert!(len <= 64, "a lane hand holds at most 64 cards");
        let (mut faces, mut lo, mut hi) = (0u64, 0u64, 0u64);
        for i in 0..len {
            let c = u64::from(card(i));
            let face = u64::from(c != 0);
            let k = c.wrapping_sub(1) & face.wrapping_neg();
            faces |= face << i;
            lo |= (k & 1) << i;
            hi |= (k >> 1 & 1) << i;
        }
        self.faces[p] = faces;
        self.lo[p] = lo;
        self.hi[p] = hi;
        self.len[p] = len as u32;
    }

    /// Sets hand `p` to the `len` cards of the 64-slot ring `buf` from slot `head` on (wrapping
    /// past slot 63). With vector units the planes of all 64 slots come from a few byte compares
    /// and are then rotated into place, instead of a loop over the cards (it was half of the
    /// piece enumeration's walk, by `perf annotate`).
    #[inline]
    pub fn set_hand_ring(&mut self, p: usize, buf: &[Card; 64], head: u8, len: u8) {
        if Isa::get() == Isa::Portable {
            return self.set_hand(p, len as usize, |i| buf[(head as usize + i) & 63]);
        }
        let (faces, lo, hi) = planes(buf);
        let keep = u64::MAX.checked_shr(64 - u32::from(len)).unwrap_or(0);
        let r = u32::from(head & 63);
        self.faces[p] = faces.rotate_right(r) & keep;
        self.lo[p] = lo.rotate_right(r) & keep;
        self.hi[p] = hi.rotate_right(r) & keep;
        self.len[p] = u32::from(len);
    }

    /// Sets hand `p` to `cards` (top first, at most 64).
    #[inline]
    pub fn set_hand_slice(&mut self, p: usize, cards: &[Card]) {
        assert!(cards.len() <= 64, "a lane hand holds at most 64 cards");
        let mut buf = [0; 64];
        buf[..cards.len()].copy_from_slice(cards);
        self.set_hand_ring(p, &buf, 0, cards.len() as u8);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand read from a ring (any head, any length, wrapping) equals the same cards set one
    /// by one.
    #[test]
    fn ring_hands_equal_card_by_card_hands() {
        let mut rng = crate::rng::SplitMix64::new(9);
        for _ in 0..20_000 {
            let buf: [Card; 64] = std::array::from_fn(|_| rng.below(5) as Card);
            let head = rng.below(256) as u8;
            let len = rng.below(65) as u8;
            let mut fast = Game::<u64>::default();
            fast.set_hand_ring(1, &buf, head, len);
            let mut slow = Game::<u64>::default();
            slow.set_hand(1, len as usize, |i| buf[(head as usize + i) & 63]);
            assert_eq!(fast, slow, "head {head} len {len}");
        }
    }

    /// A deal cut from 64 slots equals the same deal set hand by hand, for every length.
    #[test]
    fn deals_from_deal_order_equal_hand_by_hand_deals() {
        let mut rng = crate::rng::SplitMix64::new(10);
        for _ in 0..20_000 {
            let n = rng.below(65) as usize;
            let mut buf = [0 as Card; 64];
            for c in &mut buf[..n] {
                *c = rng.below(5) as Card;
            }
            let h1 = n.div_ceil(2);
            let want = Game::<u64>::from_hands(&buf[..h1], &buf[h1..n], 0);
            assert_eq!(Game::from_deal_order(&buf, n), want, "n {n}");
            assert_eq!(Game::deal(&buf[..n]), want, "n {n}");
        }
    }
}
