//! The one trick of the scalar form ([`Game`]): from any move boundary to the end of the trick,
//! whole runs of cards at a time. Every engine that plays one game at a time plays it; the
//! reference engine (`reference.rs`) states the same rules plainly and the tests hold this to it.
//!
//! Before the first face card only number cards are played, alternately, so the lead phase ends
//! at the earlier of the two hands' first face cards; a payment is a run of one hand that ends at
//! its first face card or when the debt is paid: each is one trailing-zeros count. The hands are
//! played in registers as `a`, the player to act, and `b`, swapped when the roles swap, and
//! written back once at the end: indexing the game's hands by a player known only at run time
//! keeps them in memory, a store and a reload at every move (measured: this form plays standard
//! deals as fast as a 64-slot ring with a face mask, the bitboard form it replaced).
//!
//! An [`Unread`] hook marks cards not known yet (the exhaustive search's unread cards): the trick
//! stops before playing one and returns [`Step::Unread`], the game at that move. With [`Known`]
//! the checks compile away.

use super::game::{Game, Plane, pile_bits};

/// What one trick did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A pile of `cards` cards was taken; the game goes on.
    Next { cards: u32 },
    /// The game ended during (or, for a position with an empty hand, before) this trick, `cards`
    /// the cards of its pile (0 when it was over before the trick). The game is left as it was
    /// and must not be played on.
    End { winner: u8, cards: u32 },
    /// The player to act must play an unread card: the game stops at that move.
    Unread,
}

/// Cards of the hands not known yet, as the trick sees them. The marks stay in memory, as they
/// were when the trick started: the trick reads them only where a scan stops (at a face card or
/// an unread card), counting the cards the hand has given up since, and shifts them once at its
/// end. (Carried in registers beside the hands, they took two registers more than x86-64 has
/// free in the tree walk's loop, which then spilled.)
pub trait Unread<H: Plane> {
    /// Where the trick keeps the pile: in registers ([`Pile`]) when every card is known, in the
    /// game ([`PileInGame`]) beside unread cards, where the registers are short (the tree walk's
    /// loop holds its node, context and batch besides), and a face card's write to memory costs
    /// less than the spills.
    type Pile: PileAt<H>;
    /// Whether card `i` of hand `p`, counted from its top when the trick started, is unread.
    fn at(&self, p: usize, i: u32) -> bool;
    /// Hand `p` gave up its top `k` cards.
    fn pop(&mut self, p: usize, k: u32);
}

/// Every card is known.
pub struct Known;

impl<H: Plane> Unread<H> for Known {
    type Pile = Pile<H>;
    #[inline(always)]
    fn at(&self, _: usize, _: u32) -> bool {
        false
    }
    #[inline(always)]
    fn pop(&mut self, _: usize, _: u32) {}
}

/// A plane a hand (bit `i`: card `i` is unread).
impl<H: Plane> Unread<H> for [H; 2] {
    type Pile = PileInGame;
    #[inline(always)]
    fn at(&self, p: usize, i: u32) -> bool {
        self[p].bit(i) == 1
    }
    #[inline(always)]
    fn pop(&mut self, p: usize, k: u32) {
        self[p] = self[p].shr(k);
    }
}

/// A hand in registers.
#[derive(Clone, Copy)]
struct Hand<H> {
    f: H,
    l: H,
    h: H,
    n: u32,
}

impl<H: Plane> Hand<H> {
    #[inline(always)]
    fn load(g: &Game<H>, p: usize) -> Self {
        Hand {
            f: g.faces[p],
            l: g.lo[p],
            h: g.hi[p],
            n: g.len[p],
        }
    }

    /// Shifts `u`'s marks of hand `p` by the cards this hand gave up: before [`Hand::store`]
    /// (`g.len[p]` is still its length when the trick started) and before it takes a pile.
    #[inline(always)]
    fn unmark<U: Unread<H>>(&self, g: &Game<H>, u: &mut U, p: usize) {
        u.pop(p, g.len[p] - self.n);
    }

    /// Writes the hand back as hand `p`.
    #[inline(always)]
    fn store(self, g: &mut Game<H>, p: usize) {
        g.faces[p] = self.f;
        g.lo[p] = self.l;
        g.hi[p] = self.h;
        g.len[p] = self.n;
    }

    /// Gives up the top `k` cards (fewer than the plane holds: a move gives up at most one
    /// card more than the shorter hand holds, or a payment's four).
    #[inline(always)]
    fn pop(&mut self, k: u32) {
        self.f = self.f.shr_in(k);
        self.l = self.l.shr_in(k);
        self.h = self.h.shr_in(k);
        self.n -= k;
    }

    /// The penalty of card `i`, a face card.
    #[inline(always)]
    fn penalty(&self, i: u32) -> u32 {
        let bit = |x: H| u32::from(x.shr_in(i) & H::ONE == H::ONE);
        1 + bit(self.l) + 2 * bit(self.h)
    }
}

/// The pile as the trick keeps it (see [`Unread::Pile`]).
pub trait PileAt<H: Plane>: Copy {
    /// The pile of `g`.
    fn load(g: &Game<H>) -> Self;
    /// Face card `c` at place `at`.
    fn put(&mut self, g: &mut Game<H>, at: u32, c: u32);
    /// Its faces, low and high planes.
    fn planes(&self, g: &Game<H>) -> (H, H, H);
    /// Writes it back to `g`.
    fn store(self, g: &mut Game<H>);
}

/// The pile's planes in registers.
#[derive(Clone, Copy)]
pub struct Pile<H> {
    f: H,
    l: H,
    h: H,
}

impl<H: Plane> PileAt<H> for Pile<H> {
    #[inline(always)]
    fn load(g: &Game<H>) -> Self {
        Pile {
            f: g.pile_faces,
            l: g.pile_lo,
            h: g.pile_hi,
        }
    }
    #[inline(always)]
    fn put(&mut self, _: &mut Game<H>, at: u32, c: u32) {
        let (f, l, h) = pile_bits::<H>(at, c);
        self.f |= f;
        self.l |= l;
        self.h |= h;
    }
    #[inline(always)]
    fn planes(&self, _: &Game<H>) -> (H, H, H) {
        (self.f, self.l, self.h)
    }
    #[inline(always)]
    fn store(self, g: &mut Game<H>) {
        g.pile_faces = self.f;
        g.pile_lo = self.l;
        g.pile_hi = self.h;
    }
}

/// The pile left in the game's own fields.
#[derive(Clone, Copy)]
pub struct PileInGame;

impl<H: Plane> PileAt<H> for PileInGame {
    #[inline(always)]
    fn load(_: &Game<H>) -> Self {
        PileInGame
    }
    #[inline(always)]
    fn put(&mut self, g: &mut Game<H>, at: u32, c: u32) {
        g.pile_face(at, c);
    }
    #[inline(always)]
    fn planes(&self, g: &Game<H>) -> (H, H, H) {
        (g.pile_faces, g.pile_lo, g.pile_hi)
    }
    #[inline(always)]
    fn store(self, _: &mut Game<H>) {}
}

impl<H: Plane> Game<H> {
    /// Plays on to the end of the trick (every card known).
    #[inline(always)]
    pub fn trick(&mut self) -> Step {
        self.trick_with(&mut Known)
    }

    /// Plays on to the end of the trick, or to the first unread card of `u` (the marks of the
    /// hands, kept in step with them).
    #[inline(always)]
    pub fn trick_with<U: Unread<H>>(&mut self, u: &mut U) -> Step {
        let mut who = self.next as usize;
        let mut a = Hand::load(self, who);
        let mut b = Hand::load(self, who ^ 1);
        let mut n = self.n;
        let mut debt = self.debt;
        let mut pile = U::Pile::load(self);
        if debt == 0 {
            if n == 0 && (a.n == 0 || b.n == 0) {
                let winner = u8::from(self.len[1] > 0);
                return Step::End { winner, cards: 0 };
            }
            // a plays cards 0, 1, ... and b between them; a's card `za` comes before b's card
            // `zb` when `za <= zb` (bits past a hand's length are clear, so a scan that finds
            // nothing gives at least its length).
            let za = a.f.tz().min(a.n);
            let zb = b.f.tz().min(b.n);
            if za <= zb {
                if za == a.n {
                    return Step::End {
                        winner: (who ^ 1) as u8,
                        cards: n + 2 * za,
                    };
                }
                if u.at(who, za) {
                    a.pop(za);
                    b.pop(za);
                    return self.stop(u, (a, b), who, n + 2 * za, 0, pile);
                }
                let c = a.penalty(za);
                a.pop(za + 1);
                b.pop(za);
                n += 2 * za;
                pile.put(self, n, c);
                n += 1;
                debt = c;
                // b pays.
                std::mem::swap(&mut a, &mut b);
                who ^= 1;
            } else {
                if zb == b.n {
                    return Step::End {
                        winner: who as u8,
                        cards: n + 2 * zb + 1,
                    };
                }
                if u.at(who ^ 1, zb) {
                    a.pop(zb + 1);
                    b.pop(zb);
                    return self.stop(u, (b, a), who ^ 1, n + 2 * zb + 1, 0, pile);
                }
                let c = b.penalty(zb);
                a.pop(zb + 1);
                b.pop(zb + 1);
                n += 2 * zb + 1;
                pile.put(self, n, c);
                n += 1;
                debt = c;
            }
        }
        // a owes `debt`; a face card hands a new debt back.
        loop {
            let z = a.f.tz();
            if z < debt.min(a.n) {
                if u.at(who, z + self.len[who] - a.n) {
                    a.pop(z);
                    return self.stop(u, (a, b), who, n + z, debt - z, pile);
                }
                let c = a.penalty(z);
                a.pop(z + 1);
                n += z;
                pile.put(self, n, c);
                n += 1;
                debt = c;
                std::mem::swap(&mut a, &mut b);
                who ^= 1;
            } else if a.n < debt {
                return Step::End {
                    winner: (who ^ 1) as u8,
                    cards: n + a.n,
                };
            } else {
                a.pop(debt);
                n += debt;
                break;
            }
        }
        // Paid in full with number cards: b takes the pile under its hand, and leads.
        let w = who ^ 1;
        a.unmark(self, u, who);
        b.unmark(self, u, w);
        let (pf, pl, ph) = pile.planes(self);
        b.f |= pf.shl_hand(b.n);
        b.l |= pl.shl_hand(b.n);
        b.h |= ph.shl_hand(b.n);
        b.n += n;
        a.store(self, who);
        b.store(self, w);
        self.pile_faces = H::ZERO;
        self.pile_lo = H::ZERO;
        self.pile_hi = H::ZERO;
        self.n = 0;
        self.debt = 0;
        self.next = w as u32;
        if a.n == 0 {
            return Step::End {
                winner: w as u8,
                cards: n,
            };
        }
        Step::Next { cards: n }
    }

    /// Writes the trick in progress back, stopped where the player `who` (whose hand is the
    /// first of `hands`) must play an unread card, owing `debt` (0 in the lead phase).
    #[inline(always)]
    fn stop<U: Unread<H>>(
        &mut self,
        u: &mut U,
        hands: (Hand<H>, Hand<H>),
        who: usize,
        n: u32,
        debt: u32,
        pile: U::Pile,
    ) -> Step {
        hands.0.unmark(self, u, who);
        hands.1.unmark(self, u, who ^ 1);
        hands.0.store(self, who);
        hands.1.store(self, who ^ 1);
        pile.store(self);
        self.n = n;
        self.next = who as u32;
        self.debt = debt;
        Step::Unread
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::game::random_positions;
    use crate::engine::reference::{self, Trick};
    use crate::position::Position;

    /// One trick against the reference engine's, from trick boundaries, in every plane.
    #[test]
    fn the_trick_is_the_reference_trick() {
        check::<u32>(5, 32);
        check::<u64>(6, 64);
        check::<u128>(7, 128);
    }

    /// Cards marked unread, as the exhaustive search's tree walk marks them (a run at the top of
    /// each hand, counted as face cards of kind 1 until fixed), are read one at a time when the
    /// trick stops at them: fixing each to its true card as it stops gives the reference trick.
    #[test]
    fn a_trick_stopped_at_unread_cards_is_the_reference_trick() {
        unread::<u32, [u32; 2]>(8, 32);
        unread::<u64, [u64; 2]>(9, 64);
    }

    /// The same with the pile in registers beside the marks: a trick that stops must write it
    /// back (no hook of the crate pairs them yet, which is why this one is built here).
    #[test]
    fn a_trick_stopped_with_its_pile_in_registers_is_the_reference_trick() {
        unread::<u32, PileInRegisters<u32>>(10, 32);
        unread::<u64, PileInRegisters<u64>>(11, 64);
    }

    /// Unread marks as the tests set and read them.
    trait Marks<H: Plane>: Unread<H> + Default {
        fn marks(&mut self) -> &mut [H; 2];
    }

    impl<H: Plane> Marks<H> for [H; 2] {
        fn marks(&mut self) -> &mut [H; 2] {
            self
        }
    }

    /// The marks of `[H; 2]` with the pile of [`Known`].
    #[derive(Default)]
    struct PileInRegisters<H>([H; 2]);

    impl<H: Plane> Unread<H> for PileInRegisters<H> {
        type Pile = Pile<H>;
        fn at(&self, p: usize, i: u32) -> bool {
            self.0.at(p, i)
        }
        fn pop(&mut self, p: usize, k: u32) {
            Unread::<H>::pop(&mut self.0, p, k);
        }
    }

    impl<H: Plane> Marks<H> for PileInRegisters<H> {
        fn marks(&mut self) -> &mut [H; 2] {
            &mut self.0
        }
    }

    fn unread<H: Plane, U: Marks<H>>(seed: u64, max_cards: u64) {
        let mut rng = crate::rng::SplitMix64::new(seed);
        for pos in random_positions(seed, 50_000, max_cards) {
            let mut g = Game::<H>::from_position(&pos);
            let mut hook = U::default();
            for (p, mark) in hook.marks().iter_mut().enumerate() {
                let k = rng.below(u64::from(g.len[p]) + 1) as u32;
                *mark = H::ones(k);
                // Unread cards count as face cards of kind 1 (their kinds bits 0).
                g.faces[p] |= *mark;
                g.lo[p] &= !*mark;
                g.hi[p] &= !*mark;
            }
            // The cards each hand still has to read, in order.
            let true_cards = [pos.hands[0].clone(), pos.hands[1].clone()];
            let mut read = [0usize; 2];
            let step = loop {
                match g.trick_with(&mut hook) {
                    Step::Unread => {
                        let p = g.next as usize;
                        let marks = hook.marks();
                        assert_eq!(
                            marks[p] & H::ONE,
                            H::ONE,
                            "{pos}: stopped at an unread card"
                        );
                        let c = true_cards[p][read[p]];
                        read[p] += 1;
                        g.set(p, 0, c);
                        marks[p] &= !H::ONE;
                    }
                    s => break s,
                }
            };
            // The cards still unread are a run near the top of their hands, in order (below at
            // most one card read and not played yet): give them their true cards.
            let marks = hook.marks();
            for p in 0..2 {
                let mut m = marks[p];
                let mut j = read[p];
                while m != H::ZERO {
                    let i = m.tz();
                    m &= !H::ONE.shl(i);
                    g.faces[p] &= !H::ONE.shl(i);
                    g.set(p, i, true_cards[p][j]);
                    j += 1;
                }
                assert!(
                    marks[p] == H::ZERO || marks[p].tz() <= 1,
                    "{pos}: unread cards on top"
                );
            }
            agrees(&pos, &g, step);
        }
    }

    fn check<H: Plane>(seed: u64, max_cards: u64) {
        for pos in random_positions(seed, 100_000, max_cards) {
            let mut g = Game::<H>::from_position(&pos);
            let step = g.trick();
            agrees(&pos, &g, step);
        }
    }

    /// The trick `g` played from `pos` (ending in `step`) is the reference's trick.
    fn agrees<H: Plane>(pos: &Position, g: &Game<H>, step: Step) {
        match (reference::trick(pos), step) {
            (Trick::Next { next, cards }, Step::Next { cards: c }) => {
                assert_eq!(u64::from(c), cards, "{pos}");
                assert_eq!(g.to_position(), next, "{pos}");
            }
            (
                Trick::End { winner, cards },
                Step::End {
                    winner: w,
                    cards: c,
                },
            ) => {
                assert_eq!((winner, cards), (w, u64::from(c)), "{pos}");
            }
            (r, s) => panic!("{pos}: reference {r:?}, trick {s:?}"),
        }
    }
}
