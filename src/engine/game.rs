//! The one scalar form of a two-player game: both hands and the pile as bit planes, at a trick
//! boundary or in the middle of a trick. Every engine that plays one game at a time plays this
//! form with the one trick of `trick.rs` (single games and cycle detection, the forward checks of
//! backward play, the exhaustive search's tree walk, the piece enumeration), and the lanes load
//! their games from it; `reference.rs` is the plain oracle it is held to.
//!
//! A hand is three planes `H`, bit `i` for its card `i` (top first): `faces` is set for face
//! cards, `lo` and `hi` hold the penalty less one (0 for number cards and past the hand's end),
//! so every position has exactly one form and equality is a comparison of words. `H` is `u32`
//! (hands of up to 32 cards: the exhaustive search of small decks), `u64` (up to 64: every
//! standard deal) or `u128` (up to 128: two packs); `engine::play` takes the reference engine past
//! that.

use std::cmp::Ordering;

use crate::card::Card;
use crate::position::Position;

/// A hand's bit plane: `u32`, `u64` or `u128`. Shifts by a count past the width give 0 (the
/// scans and the pile need it); [`Plane::shr_in`] and [`Plane::shl_in`] are the plain shifts of
/// counts below the width, which the trick's moves are.
pub trait Plane:
    Copy
    + Default
    + Eq
    + std::fmt::Debug
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitXor<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::BitAndAssign
    + std::ops::BitOrAssign
    + Send
    + Sync
    + 'static
{
    /// Cards a hand of this plane holds.
    const BITS: u32;
    /// Whether every card of a game in this plane fits it (see [`Plane::shl_hand`]).
    const EXACT: bool;
    const ZERO: Self;
    const ONE: Self;
    /// `x >> s`, 0 once every bit is shifted out.
    fn shr(self, s: u32) -> Self;
    /// `x << s`, 0 once every bit is shifted out.
    fn shl(self, s: u32) -> Self;
    /// `x >> s` for `s < BITS`.
    fn shr_in(self, s: u32) -> Self;
    /// `x << s` for `s < BITS`.
    fn shl_in(self, s: u32) -> Self;
    /// A taken pile's planes moved below a hand of `s` cards. Every card of a game of up to
    /// `BITS` cards fits, so `s < BITS` and the shift is plain; only `u32` planes also play games
    /// of 33 and 34 cards (the exhaustive search's narrow walk), where a 33rd card, always a
    /// number card when it arrives, drops off the plane and reads back as the number card it is
    /// (`search::exhaustive` says why): their shift gives 0 past the width.
    #[inline(always)]
    fn shl_hand(self, s: u32) -> Self {
        if Self::EXACT {
            self.shl_in(s)
        } else {
            self.shl(s)
        }
    }
    /// Trailing zeros (`BITS` for 0).
    fn tz(self) -> u32;
    /// Bit `i` (0 past the width).
    fn bit(self, i: u32) -> u32;
    /// Every bit when `b` is 1, none when 0.
    fn fill(b: u32) -> Self;
    /// The number of set bits.
    fn ones_count(self) -> u32;
    /// The low `k` bits.
    #[inline(always)]
    fn ones(k: u32) -> Self {
        if k >= Self::BITS {
            !Self::ZERO
        } else {
            !(!Self::ZERO).shl(k)
        }
    }
    /// The low 64 bits (a `u32` plane widened).
    fn low64(self) -> u64;
}

macro_rules! plane {
    ($t:ty, $exact:expr) => {
        impl Plane for $t {
            const BITS: u32 = <$t>::BITS;
            const EXACT: bool = $exact;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline(always)]
            fn shr(self, s: u32) -> Self {
                self.checked_shr(s).unwrap_or(0)
            }
            #[inline(always)]
            fn shl(self, s: u32) -> Self {
                self.checked_shl(s).unwrap_or(0)
            }
            #[inline(always)]
            fn shr_in(self, s: u32) -> Self {
                debug_assert!(s < Self::BITS, "a shift of {s} cards");
                self >> s
            }
            #[inline(always)]
            fn shl_in(self, s: u32) -> Self {
                debug_assert!(s < Self::BITS, "a shift of {s} cards");
                self << s
            }
            #[inline(always)]
            fn tz(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn bit(self, i: u32) -> u32 {
                (self.checked_shr(i).unwrap_or(0) & 1) as u32
            }
            #[inline(always)]
            fn fill(b: u32) -> Self {
                (b as $t).wrapping_neg()
            }
            #[inline(always)]
            fn ones_count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn low64(self) -> u64 {
                self as u64
            }
        }
    };
}
plane!(u32, false);
plane!(u64, true);
plane!(u128, true);

/// A two-player game at a move boundary: hands and pile as bit planes `H`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Game<H = u64> {
    pub faces: [H; 2],
    pub lo: [H; 2],
    pub hi: [H; 2],
    pub len: [u32; 2],
    /// The cards of the trick in progress, planes like a hand's (first card played lowest).
    pub pile_faces: H,
    pub pile_lo: H,
    pub pile_hi: H,
    /// Cards on the pile.
    pub n: u32,
    /// The player to play next (0 or 1).
    pub next: u32,
    /// What `next` owes; 0 in the lead phase.
    pub debt: u32,
}

/// Whole-position equality (the planes are exact: see the module head), the cheap fields first.
impl<H: Plane> PartialEq for Game<H> {
    #[inline]
    fn eq(&self, o: &Self) -> bool {
        self.next == o.next
            && self.len == o.len
            && self.faces == o.faces
            && self.lo == o.lo
            && self.hi == o.hi
            && self.n == o.n
            && self.debt == o.debt
            && self.pile_faces == o.pile_faces
            && self.pile_lo == o.pile_lo
            && self.pile_hi == o.pile_hi
    }
}

impl<H: Plane> Eq for Game<H> {}

impl<H: Plane> Game<H> {
    /// A game at a trick boundary from two hands of penalties (0 number card, 1..=4 J Q K A).
    ///
    /// # Panics
    /// If the position holds more than `H::BITS` cards (or a hand more, for the `u32` planes of
    /// the narrow walk: [`Plane::shl_hand`]): callers pick the plane by size.
    pub fn from_hands(h0: &[Card], h1: &[Card], next: u8) -> Game<H> {
        let most = H::BITS as usize;
        assert!(
            h0.len().max(h1.len()) <= most && (!H::EXACT || h0.len() + h1.len() <= most),
            "a game in this plane holds at most {most} cards"
        );
        let mut g = Game {
            next: u32::from(next),
            ..Game::default()
        };
        for (p, h) in [h0, h1].into_iter().enumerate() {
            // Branch-free: a deal's cards are a coin toss each.
            let (mut faces, mut lo, mut hi) = (H::ZERO, H::ZERO, H::ZERO);
            for (i, &c) in h.iter().enumerate() {
                let bit = H::ONE.shl(i as u32);
                let face = u32::from(c != 0);
                let k = u32::from(c).wrapping_sub(1) & face.wrapping_neg();
                faces |= bit & H::fill(face);
                lo |= bit & H::fill(k & 1);
                hi |= bit & H::fill(k >> 1 & 1);
            }
            (g.faces[p], g.lo[p], g.hi[p], g.len[p]) = (faces, lo, hi, h.len() as u32);
        }
        g
    }

    /// [`Game::from_hands`] of a position.
    pub fn from_position(pos: &Position) -> Game<H> {
        Game::from_hands(&pos.hands[0], &pos.hands[1], pos.to_move)
    }

    /// The position at a trick boundary.
    pub fn to_position(&self) -> Position {
        debug_assert!(self.n == 0 && self.debt == 0, "at a trick boundary");
        Position::new(self.hand(0), self.hand(1), self.next as u8)
    }

    /// Hand `p` as penalties, top first.
    pub fn hand(&self, p: usize) -> Vec<Card> {
        (0..self.len[p]).map(|i| self.card(p, i)).collect()
    }

    /// The cards of the trick in progress, first played first.
    pub fn pile(&self) -> Vec<Card> {
        (0..self.n)
            .map(|i| {
                if self.pile_faces.bit(i) == 1 {
                    (1 + self.pile_lo.bit(i) + 2 * self.pile_hi.bit(i)) as Card
                } else {
                    0
                }
            })
            .collect()
    }

    /// Cards in both hands.
    pub fn total(&self) -> usize {
        (self.len[0] + self.len[1]) as usize
    }

    /// The cards of both hands in order (hand 1's first).
    fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        (0..2).flat_map(move |p| (0..self.len[p]).map(move |i| self.card(p, i)))
    }

    /// The cycle-id order of `Position::key_cmp`, without building positions.
    pub fn key_cmp(&self, other: &Self) -> Ordering {
        crate::position::key_order(
            (self.cards(), self.len[0] as usize, self.next as u8),
            (other.cards(), other.len[0] as usize, other.next as u8),
        )
    }

    /// The packed `u128` key of `Position::pack` (at most 52 cards).
    pub fn pack(&self) -> u128 {
        debug_assert!(self.total() <= crate::position::PACK_MAX_CARDS);
        crate::position::pack_key(self.cards(), self.len[0] as usize, self.next as u8)
    }

    /// A copy read field by field, with volatile reads the compiler cannot merge. For a game
    /// whose fields were just stored one by one: a wide load over several fresh narrow stores
    /// misses store forwarding and waits for them to reach the cache. (The exhaustive search
    /// copies nodes and leaves straight after playing them; `perf annotate` put a sixth of its
    /// tree walk on such loads.)
    #[inline(always)]
    pub fn fresh_copy(&self) -> Game<H> {
        // SAFETY: each pointer comes from a reference to an initialised, aligned field.
        let v = |x: &u32| unsafe { std::ptr::read_volatile(x) };
        let w = |x: &H| unsafe { std::ptr::read_volatile(x) };
        let two = |a: &[u32; 2]| [v(&a[0]), v(&a[1])];
        let two_h = |a: &[H; 2]| [w(&a[0]), w(&a[1])];
        Game {
            faces: two_h(&self.faces),
            lo: two_h(&self.lo),
            hi: two_h(&self.hi),
            len: two(&self.len),
            pile_faces: w(&self.pile_faces),
            pile_lo: w(&self.pile_lo),
            pile_hi: w(&self.pile_hi),
            n: v(&self.n),
            next: v(&self.next),
            debt: v(&self.debt),
        }
    }

    /// The winner of a game over before its first move (a hand empty at a trick boundary): 0
    /// when player 1 holds the cards.
    #[inline(always)]
    pub fn over_at_start(&self) -> Option<u8> {
        let over = self.n == 0 && self.debt == 0 && (self.len[0] == 0 || self.len[1] == 0);
        over.then(|| u8::from(self.len[1] > 0))
    }

    /// Sets card `i` of hand `p` (its place clear or a face card of kind 1) to penalty `c`.
    #[inline(always)]
    pub fn set(&mut self, p: usize, i: u32, c: Card) {
        let bit = H::ONE.shl(i);
        if c == 0 {
            self.faces[p] &= !bit;
        } else {
            self.faces[p] |= bit;
            let k = u32::from(c - 1);
            self.lo[p] |= bit & H::fill(k & 1);
            self.hi[p] |= bit & H::fill(k >> 1);
        }
    }

    /// Sets every card of hand `p` marked in `mask` (face cards of kind 1) to penalty `c`.
    #[inline(always)]
    pub fn set_all(&mut self, p: usize, mask: H, c: Card) {
        if c == 0 {
            self.faces[p] &= !mask;
        } else {
            let k = u32::from(c - 1);
            self.lo[p] |= mask & H::fill(k & 1);
            self.hi[p] |= mask & H::fill(k >> 1);
        }
    }

    /// The penalty of card `i` of hand `p`, known to be a face card.
    #[inline(always)]
    pub fn penalty(&self, p: usize, i: u32) -> u32 {
        1 + self.lo[p].bit(i) + 2 * self.hi[p].bit(i)
    }

    /// Card `i` of hand `p` as a penalty (0 for a number card).
    #[inline(always)]
    pub fn card(&self, p: usize, i: u32) -> Card {
        if self.faces[p].bit(i) == 1 {
            self.penalty(p, i) as Card
        } else {
            0
        }
    }

    /// Takes the top `k` cards off hand `p` (`k` at most its length).
    #[inline(always)]
    pub fn pop(&mut self, p: usize, k: u32) {
        self.faces[p] = self.faces[p].shr(k);
        self.lo[p] = self.lo[p].shr(k);
        self.hi[p] = self.hi[p].shr(k);
        self.len[p] -= k;
    }

    /// Puts face card `c` on the pile at place `at` (number cards are just counted). As a
    /// hand's cards, a place past the plane is dropped only by `u32` planes (see
    /// [`Plane::shl_hand`]).
    #[inline(always)]
    pub fn pile_face(&mut self, at: u32, c: u32) {
        let (f, l, h) = pile_bits::<H>(at, c);
        self.pile_faces |= f;
        self.pile_lo |= l;
        self.pile_hi |= h;
    }
}

/// The faces, low and high planes of a pile holding face card `c` alone, at place `at` (see
/// [`Game::pile_face`]; the trick's pile in registers adds them too).
#[inline(always)]
pub(crate) fn pile_bits<H: Plane>(at: u32, c: u32) -> (H, H, H) {
    let bit = H::ONE.shl_hand(at);
    (bit, bit & H::fill((c - 1) & 1), bit & H::fill((c - 1) >> 1))
}

/// `count` random positions of 1 to `max_cards` cards (number cards three times as likely as each
/// face card), any split, either player to move: inputs for the engines' agreement tests.
#[cfg(test)]
pub(crate) fn random_positions(seed: u64, count: usize, max_cards: u64) -> Vec<Position> {
    let mut rng = crate::rng::SplitMix64::new(seed);
    (0..count)
        .map(|_| {
            let n = 1 + rng.below(max_cards) as usize;
            let cards: Vec<u8> = (0..n)
                .map(|_| [0, 0, 0, 1, 2, 3, 4][rng.below(7) as usize])
                .collect();
            let split = rng.below(n as u64 + 1) as usize;
            let to_move = rng.below(2) as u8;
            Position::new(cards[..split].to_vec(), cards[split..].to_vec(), to_move)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions survive the form in every plane: hands, the player to move, the key order and
    /// the packed key are those of the position.
    #[test]
    fn games_hold_their_positions() {
        let positions = random_positions(3, 3_000, 52);
        for (p, q) in positions.iter().zip(positions.iter().skip(1)) {
            let (a, b) = (Game::<u64>::from_position(p), Game::<u64>::from_position(q));
            assert_eq!(a.to_position(), *p);
            assert_eq!(Game::<u128>::from_position(p).to_position(), *p);
            assert_eq!(a.key_cmp(&b), p.key_cmp(q), "{p} {q}");
            assert_eq!(Some(a.pack()), p.pack());
            assert_eq!(a == b, p == q);
            if p.total() <= 32 {
                assert_eq!(Game::<u32>::from_position(p).to_position(), *p);
            }
        }
    }

    /// `pile_face` puts each face card at its place on the pile, its penalty less one in the two
    /// planes, beside the cards already there: a King, a Jack, a Queen and an Ace at places 0, 2,
    /// 3 and 5.
    #[test]
    fn pile_face_puts_each_card_at_its_place() {
        let mut g = Game::<u32>::from_hands(&[], &[], 0);
        for (at, c) in [(0, 3), (2, 1), (3, 2), (5, 4)] {
            g.pile_face(at, c);
        }
        assert_eq!(g.pile_faces, 0b101101);
        assert_eq!(g.pile_lo, 0b101000);
        assert_eq!(g.pile_hi, 0b100001);
    }
}
