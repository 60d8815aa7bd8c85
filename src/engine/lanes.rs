//! The game form every lane engine plays: a fully known two-player game at a move boundary (in
//! the middle of a trick too), its hands and pile as bit planes, and how a lane's game finishes.
//!
//! A hand is three bit planes, bit `i` for its card `i` (top first): `faces` is set for penalty
//! cards, and `lo` and `hi` hold the penalty less one (0 for number cards). [`Game`] is generic
//! over the plane ([`Plane`]): `u32` for hands of up to 32 cards, `u64` for up to 64. The
//! exhaustive search walks its tree in this form and queues its fully fixed games, in this form,
//! for the vector lanes of `search/exhaustive/tally.rs` (which play them with the kinds queue of
//! `kinds64.rs`); [`Game::finish`] plays one the plain
//! way, one card at a time, and is the oracle the tests hold every lane engine to.

pub use super::isa::Isa;

/// A hand's bit plane: a `u32` (hands of up to 32 cards: the lanes) or a `u64` (up to 64: the
/// exhaustive search of larger decks plays its games one by one in this form). Shifts past the
/// width give 0, as the hands' scans need.
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
    const ZERO: Self;
    const ONE: Self;
    /// `x >> s`, 0 once every bit is shifted out.
    fn shr(self, s: u32) -> Self;
    /// `x << s`, 0 once every bit is shifted out.
    fn shl(self, s: u32) -> Self;
    /// Trailing zeros (`BITS` for 0).
    fn tz(self) -> u32;
    /// Bit `i` (0 past the width).
    #[inline(always)]
    fn bit(self, i: u32) -> u32 {
        u32::from(self.shr(i) & Self::ONE == Self::ONE)
    }
    /// Every bit when `b` is 1, none when 0.
    fn fill(b: u32) -> Self;
    /// The low `k` bits.
    #[inline(always)]
    fn ones(k: u32) -> Self {
        if k >= Self::BITS {
            !Self::ZERO
        } else {
            !(!Self::ZERO).shl(k)
        }
    }
}

macro_rules! plane {
    ($t:ty) => {
        impl Plane for $t {
            const BITS: u32 = <$t>::BITS;
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
        }
    };
}
plane!(u32);
plane!(u64);

/// A game at a move boundary, in the lanes' compact form (hands and pile as bit planes `H`: the
/// lanes take `u32`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Game<H = u32> {
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

impl<H: Plane> Game<H> {
    /// A game at a trick boundary from two hands of penalties (0 number card, 1..=4 J Q K A).
    pub fn from_hands(h0: &[u8], h1: &[u8], next: u32) -> Game<H> {
        let mut g = Game {
            next,
            ..Game::default()
        };
        for (p, h) in [h0, h1].into_iter().enumerate() {
            assert!(
                h.len() <= H::BITS as usize,
                "a hand of this plane holds at most {} cards",
                H::BITS
            );
            for (i, &c) in h.iter().enumerate() {
                g.set(p, i as u32, c);
            }
            g.len[p] = h.len() as u32;
        }
        g
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

    /// A game over before its first move: a hand empty at a trick boundary (the lanes take only
    /// games with a move to make).
    pub fn over_at_start(&self) -> Option<Finish> {
        let over = self.n == 0 && self.debt == 0 && (self.len[0] == 0 || self.len[1] == 0);
        over.then(|| Finish::Won {
            winner: u8::from(self.len[1] > 0),
            tricks: 0,
            cards: 0,
        })
    }

    /// Sets card `i` of hand `p` (its place clear or a penalty card of kind 1) to penalty `c`.
    #[inline(always)]
    pub fn set(&mut self, p: usize, i: u32, c: u8) {
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

    /// Sets every card of hand `p` marked in `mask` (penalty cards of kind 1) to penalty `c`.
    pub fn set_all(&mut self, p: usize, mask: H, c: u8) {
        if c == 0 {
            self.faces[p] &= !mask;
        } else {
            let k = u32::from(c - 1);
            self.lo[p] |= mask & H::fill(k & 1);
            self.hi[p] |= mask & H::fill(k >> 1);
        }
    }

    /// The penalty of card `i` of hand `p`, known to be a penalty card.
    #[inline(always)]
    pub fn penalty(&self, p: usize, i: u32) -> u32 {
        1 + self.lo[p].bit(i) + 2 * self.hi[p].bit(i)
    }

    /// Card `i` of hand `p` as a penalty (0 for a number card).
    pub fn card(&self, p: usize, i: u32) -> u8 {
        if self.faces[p].bit(i) == 1 {
            self.penalty(p, i) as u8
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

    /// Puts penalty card `c` on the pile at place `at` (number cards are just counted).
    #[inline(always)]
    pub fn pile_face(&mut self, at: u32, c: u32) {
        let bit = H::ONE.shl(at);
        self.pile_faces |= bit;
        self.pile_lo |= bit & H::fill((c - 1) & 1);
        self.pile_hi |= bit & H::fill((c - 1) >> 1);
    }

    /// Plays the game one card at a time, as the rules read, until it ends or has played `limit`
    /// tricks: the plain oracle of every lane engine for games from any move boundary (the
    /// reference engine itself starts only at trick boundaries). Runs on any processor.
    pub fn finish(mut self, limit: u32) -> Finish {
        let (mut tricks, mut cards) = (0u64, 0u64);
        loop {
            let p = self.next as usize & 1;
            let other = p ^ 1;
            if self.len[p] == 0 {
                // A player who must play and has none loses; an unfinished pile is a last trick.
                return Finish::Won {
                    winner: other as u8,
                    tricks: tricks + u64::from(self.n > 0),
                    cards: cards + u64::from(self.n),
                };
            }
            let c = self.card(p, 0);
            self.pop(p, 1);
            if c > 0 {
                self.pile_face(self.n, u32::from(c));
            }
            self.n += 1;
            if c > 0 {
                self.debt = u32::from(c);
                self.next = other as u32;
            } else if self.debt == 0 {
                self.next = other as u32;
            } else {
                self.debt -= 1;
                if self.debt == 0 {
                    // Paid in full with number cards: the other player takes the pile.
                    cards += u64::from(self.n);
                    tricks += 1;
                    self.take_pile(other, self.n);
                    if self.len[p] == 0 {
                        return Finish::Won {
                            winner: other as u8,
                            tricks,
                            cards,
                        };
                    }
                    if tricks >= u64::from(limit) {
                        return Finish::TooLong;
                    }
                }
            }
        }
    }

    /// Player `w` takes the pile of `n` cards under their hand, and leads.
    #[inline(always)]
    pub fn take_pile(&mut self, w: usize, n: u32) {
        let lw = self.len[w];
        self.faces[w] |= self.pile_faces.shl(lw);
        self.lo[w] |= self.pile_lo.shl(lw);
        self.hi[w] |= self.pile_hi.shl(lw);
        self.len[w] += n;
        self.pile_faces = H::ZERO;
        self.pile_lo = H::ZERO;
        self.pile_hi = H::ZERO;
        self.n = 0;
        self.debt = 0;
        self.next = w as u32;
    }
}

/// How a game left the lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// The game ended: `tricks` and `cards` count the tricks and cards played in the lanes (a last,
    /// unfinished trick counted as a trick).
    Won { winner: u8, tricks: u64, cards: u64 },
    /// It had played `limit` tricks without ending: the caller plays it on with the cycle engine.
    TooLong,
}

impl Finish {
    /// The finish of a lane that stopped: `ended` (else too long), its winner, the tricks and
    /// cards of its finished tricks, and `last` cards of an unfinished last trick.
    #[inline(always)]
    pub(crate) fn of_lane(ended: bool, winner: u32, tricks: u32, cards: u32, last: u32) -> Finish {
        if ended {
            Finish::Won {
                winner: winner as u8,
                tricks: u64::from(tricks) + u64::from(last > 0),
                cards: u64::from(cards) + u64::from(last),
            }
        } else {
            Finish::TooLong
        }
    }
}

/// `count` random positions of 1 to `max_cards` cards (number cards three times as likely as each
/// penalty card), any split, either player to move: inputs for the engines' agreement tests.
#[cfg(test)]
pub(crate) fn random_positions(
    seed: u64,
    count: usize,
    max_cards: u64,
) -> Vec<crate::position::Position> {
    let mut rng = crate::rng::SplitMix64::new(seed);
    (0..count)
        .map(|_| {
            let n = 1 + rng.below(max_cards) as usize;
            let cards: Vec<u8> = (0..n)
                .map(|_| [0, 0, 0, 1, 2, 3, 4][rng.below(7) as usize])
                .collect();
            let split = rng.below(n as u64 + 1) as usize;
            let to_move = rng.below(2) as u8;
            crate::position::Position::new(
                cards[..split].to_vec(),
                cards[split..].to_vec(),
                to_move,
            )
        })
        .collect()
}

/// Checks a lane's finish `f` of position `p` against the reference engine's outcome `want`:
/// the same winner, tricks and cards, or a game left going after `limit` tricks that the
/// reference engine plays that long (or forever).
#[cfg(test)]
pub(crate) fn agrees(
    p: &crate::position::Position,
    want: &crate::engine::Outcome,
    f: Finish,
    limit: u64,
) {
    use crate::engine::Outcome;
    match (want, f) {
        (
            &Outcome::Terminates {
                winner,
                tricks,
                cards,
            },
            Finish::Won {
                winner: w,
                tricks: t,
                cards: c,
            },
        ) => assert_eq!((winner, tricks, cards), (w, t, c), "{p}"),
        (&Outcome::Terminates { tricks, .. }, Finish::TooLong) => {
            assert!(tricks >= limit, "{p}")
        }
        (Outcome::Cycle(_), Finish::TooLong) => {}
        (want, got) => panic!("{p}: {want:?} vs {got:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::reference;

    /// The one-by-one oracle of the lanes ([`Game::finish`]) against the reference engine from
    /// trick boundaries, in both planes (hands of up to 32 and 64 cards).
    #[test]
    fn finish_agrees_with_the_reference_engine() {
        for (seed, most) in [(13u64, 32u64), (14, 64)] {
            for p in random_positions(seed, 5_000, most) {
                let want = reference::play(&p);
                let to = u32::from(p.to_move);
                let wide = Game::<u64>::from_hands(&p.hands[0], &p.hands[1], to);
                if let Some(over) = wide.over_at_start() {
                    // A hand empty before the first move: over, as the reference says.
                    agrees(&p, &want, over, 1000);
                    continue;
                }
                let wide = wide.finish(1000);
                agrees(&p, &want, wide, 1000);
                if most <= 32 {
                    let narrow = Game::<u32>::from_hands(&p.hands[0], &p.hands[1], to);
                    assert_eq!(narrow.finish(1000), wide, "{p}");
                }
            }
        }
    }
}
