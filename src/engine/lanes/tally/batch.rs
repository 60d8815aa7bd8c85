//! The counting batch: the fully fixed games queued by the tree walk, straight into the lanes'
//! arrays, and what the lanes report of them (the counts, and the rare special games).

use super::soa::{KindsSoa, Lane, Soa, SplitSoa};
use crate::engine::game::Game;

/// Fully fixed games a batch holds: enough that the lanes rarely run short.
pub(crate) const BATCH: usize = 4096;

/// Values of padding past a batch that the lanes' whole-vector loads and stores touch.
pub(super) const PAD: usize = 16;

/// What the lanes report: the winners' counts, and the games that need a closer look.
pub(crate) struct Special<E> {
    pub(super) slot: Vec<E>,
    pub(super) winner: Vec<E>,
    /// The tricks the game played in the lanes (the last one included).
    pub(super) tricks: Vec<E>,
    /// Every card the game played, before the lanes too.
    pub(super) cards: Vec<E>,
    /// 1 when the game ended, 0 when it reached the trick limit.
    pub(super) ended: Vec<E>,
    /// Games won by each player and not special.
    pub wins: [u64; 2],
    /// How many special games.
    pub special: usize,
    /// A game that ends with at least this many cards is special.
    pub(super) bar: u32,
}

/// A special game as the lanes left it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct SpecialGame {
    /// Its place in the batch.
    pub slot: usize,
    /// `Some((winner, tricks in the lanes, every card of the game))` when it ended, `None` when
    /// the trick limit stopped it.
    pub ended: Option<(u8, u64, u64)>,
}

impl<E: Lane> Special<E> {
    /// Special game `j` (of `self.special`).
    #[inline]
    pub fn get(&self, j: usize) -> SpecialGame {
        let u = |v: &Vec<E>| -> u64 { v[j].into() };
        SpecialGame {
            slot: u(&self.slot) as usize,
            ended: (u(&self.ended) == 1)
                .then(|| (u(&self.winner) as u8, u(&self.tricks), u(&self.cards))),
        }
    }
}

/// A batch of at most [`BATCH`] fully fixed games for the lanes.
pub(crate) struct TallyBatch<E> {
    pub(super) soa: Soa<E>,
    /// The kinds of the games, for the kinds step (`tally/arrays.rs`).
    pub(super) kinds: KindsSoa<E>,
    /// The games in `u32` lanes' words (`tally/split.rs`; made on first use, by wide batches).
    pub(super) split: SplitSoa,
    pub(super) len: usize,
    pub out: Special<E>,
}

/// The batch of the `u32` lanes (decks of up to 34 cards).
pub(crate) type NarrowBatch = TallyBatch<u32>;

/// The batch of the `u64` lanes.
#[cfg(test)]
pub(crate) type WideBatch = TallyBatch<u64>;

impl<E: Lane> Default for TallyBatch<E> {
    fn default() -> Self {
        Self::with_room(BATCH + PAD)
    }
}

impl<E: Lane> TallyBatch<E> {
    /// A batch with no room, for processors that do not run it ([`TallyBatch::available`]).
    pub fn empty() -> Self {
        Self::with_room(0)
    }

    pub(super) fn with_room(len: usize) -> Self {
        let v = || vec![E::ZERO; len];
        TallyBatch {
            soa: Soa::new(len),
            kinds: KindsSoa::new(len),
            split: SplitSoa::default(),
            len: 0,
            out: Special {
                slot: v(),
                winner: v(),
                tricks: v(),
                cards: v(),
                ended: v(),
                wins: [0; 2],
                special: 0,
                bar: 0,
            },
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Queues `g` (with a move to make: see [`Game::over_at_start`]), which played `cards` cards
    /// before; it is game `self.len()` of the batch.
    #[inline(always)]
    pub fn push(&mut self, g: &Game<E>, cards: u64) {
        let i = self.len;
        assert!(
            i < BATCH && self.soa.slot.len() == BATCH + PAD,
            "a batch holds at most BATCH games"
        );
        debug_assert!(g.over_at_start().is_none() && cards <= u64::from(u32::MAX));
        // The player to act first is `a` (field by field: the tree walk has just written them).
        let a = g.next as usize & 1;
        let b = a ^ 1;
        let s = &mut self.soa;
        // SAFETY: `i < BATCH` and every array holds `BATCH + PAD` values (`with_room`).
        unsafe {
            let w = |v: &mut Vec<E>, x: E| *v.as_mut_ptr().add(i) = x;
            w(&mut s.fa, g.faces[a]);
            w(&mut s.fb, g.faces[b]);
            w(&mut s.la, g.lo[a]);
            w(&mut s.lb, g.lo[b]);
            w(&mut s.ha, g.hi[a]);
            w(&mut s.hb, g.hi[b]);
            w(&mut s.na, E::from(g.len[a]));
            w(&mut s.nb, E::from(g.len[b]));
            w(&mut s.pf, g.pile_faces);
            w(&mut s.pl, g.pile_lo);
            w(&mut s.ph, g.pile_hi);
            w(&mut s.n, E::from(g.n));
            w(&mut s.debt, E::from(g.debt));
            w(&mut s.who, E::from(a as u32));
            w(&mut s.slot, E::from(i as u32));
            w(&mut s.cards, E::of_u64(cards));
        }
        self.len = i + 1;
    }

    /// Game `i` of the batch as it was queued.
    pub fn game(&self, i: usize) -> Game<E> {
        let s = &self.soa;
        let u = |x: E| -> u32 { x.into() as u32 };
        let a = u(s.who[i]) as usize & 1;
        let two = |x: E, y: E| {
            let mut t = [x; 2];
            t[a ^ 1] = y;
            t
        };
        let len = two(s.na[i], s.nb[i]);
        Game {
            faces: two(s.fa[i], s.fb[i]),
            lo: two(s.la[i], s.lb[i]),
            hi: two(s.ha[i], s.hb[i]),
            len: [u(len[0]), u(len[1])],
            pile_faces: s.pf[i],
            pile_lo: s.pl[i],
            pile_hi: s.ph[i],
            n: u(s.n[i]),
            next: a as u32,
            debt: u(s.debt[i]),
        }
    }

    /// Empties the batch.
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl TallyBatch<u32> {
    /// Whether a game of a deck of `cards` cards, after `before` cards, counts its cards within
    /// the `u32` kinds lanes' 16 bits for `limit` tricks (at most `cards` cards a trick): checked
    /// for the games of 33 and 34 cards (why their hands fit 32-bit planes:
    /// `exhaustive::narrow_walk`).
    pub fn counts_fit(before: u64, cards: u32, limit: u32) -> bool {
        before + u64::from(cards) * u64::from(limit) < 1 << 16
    }
}
