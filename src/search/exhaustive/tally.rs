//! The fully fixed games of the exhaustive search in the vector lanes, counted in the lanes:
//! each game is written straight into the lanes' arrays when the tree walk queues it (no array of
//! games to transpose later), and a game that ends shorter than the longest so far leaves the
//! lanes as one count of its winner (no per-game results to store and read back). Only the rare
//! others (as long as the longest so far, or past the trick limit) come back one by one, for
//! `flush.rs` to record as the general path does.
//!
//! One batch, generic over the lane element: `u32` lanes for decks of up to 34 cards (33 and
//! 34 with at most 15 face cards: `exhaustive::narrow_walk`), `u64` lanes for the larger decks.
//! The lanes play with the kinds queue of `engine/kinds64.rs` (`kinds.rs`) when the batch's
//! games have at most 15 face cards (`u32`) or 31 (`u64`): sixteen or eight lanes with AVX-512,
//! eight or four with AVX2. A deck with more face cards never comes here: the tree walk plays
//! its games one by one (`exhaustive::root`), which was measured faster than a planes loop in
//! the lanes for such decks. With AVX-512 VBMI2 a `u64` batch whose games have at most 60 cards and 15 face cards
//! plays in sixteen `u32` lanes instead, each face plane in two words (`split.rs`). The
//! reference is the one-by-one play of every game (`lanes::Game::finish`): `tests` hold every
//! loop, in every instruction set the processor has, to it.

#![cfg_attr(
    not(target_arch = "x86_64"),
    allow(dead_code, unused_imports, unused_variables)
)]
// Elsewhere (ARM) the batch plays one by one: the vector loops are reached only from the
// tests of their portable form, so their x86-only callers leave parts unused there.

use crate::engine::lanes::{Game, Isa, Plane};
use crate::engine::vec64::Vec64;

use super::{AbGame, BATCH};

mod kinds;
#[cfg(target_arch = "x86_64")]
mod split;

/// Values of padding past a batch that the lanes' whole-vector loads and stores touch.
const PAD: usize = 16;

/// A lane element the batch plays in: `u32` or `u64`.
pub(super) trait TallyPlane: Plane + From<u32> + Into<u64> {
    /// `x`, which fits (a card count).
    fn of_u64(x: u64) -> Self;
    /// Plays the batch's games ([`Batch::run`]) in the lanes of the instruction set `isa`;
    /// false, and nothing played, when `isa` has no vector lanes (the portable path plays the
    /// games one by one: faster than plain `u64` lanes) or a game has more face cards than the
    /// kinds queue holds (never from the search: see `exhaustive::root`).
    ///
    /// # Safety
    /// The processor has `isa`'s features, and every array of the batch holds `BATCH + PAD`
    /// values.
    unsafe fn play(batch: &mut Batch<Self>, limit: u32, isa: Isa) -> bool;
}

impl TallyPlane for u32 {
    #[inline(always)]
    fn of_u64(x: u64) -> u32 {
        x as u32
    }
    unsafe fn play(batch: &mut Batch<u32>, limit: u32, isa: Isa) -> bool {
        let _ = (&batch, limit);
        match isa {
            // SAFETY: the caller's contract.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => unsafe { play_u32(batch, limit) },
            // SAFETY: the caller's contract.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { play_avx2_u32(batch, limit) },
            _ => false,
        }
    }
}

impl TallyPlane for u64 {
    #[inline(always)]
    fn of_u64(x: u64) -> u64 {
        x
    }
    unsafe fn play(batch: &mut Batch<u64>, limit: u32, isa: Isa) -> bool {
        let _ = (&batch, limit);
        match isa {
            // SAFETY: the caller's contract.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => unsafe { play_u64(batch, limit) },
            // SAFETY: the caller's contract.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { play_avx2_u64(batch, limit) },
            _ => false,
        }
    }
}

/// Queued games, structure of arrays as the lanes load them (`a` the player to act first), and
/// the cards each played before the lanes.
struct Soa<E> {
    fa: Vec<E>,
    fb: Vec<E>,
    la: Vec<E>,
    lb: Vec<E>,
    ha: Vec<E>,
    hb: Vec<E>,
    na: Vec<E>,
    nb: Vec<E>,
    pf: Vec<E>,
    pl: Vec<E>,
    ph: Vec<E>,
    n: Vec<E>,
    debt: Vec<E>,
    who: Vec<E>,
    slot: Vec<E>,
    cards: Vec<E>,
}

impl<E: TallyPlane> Soa<E> {
    fn new(len: usize) -> Soa<E> {
        let v = || vec![E::ZERO; len];
        Soa {
            fa: v(),
            fb: v(),
            la: v(),
            lb: v(),
            ha: v(),
            hb: v(),
            na: v(),
            nb: v(),
            pf: v(),
            pl: v(),
            ph: v(),
            n: v(),
            debt: v(),
            who: v(),
            slot: v(),
            cards: v(),
        }
    }
}

/// What the lanes report: the winners' counts, and the games that need a closer look.
pub(super) struct Special<E> {
    slot: Vec<E>,
    winner: Vec<E>,
    /// The tricks the game played in the lanes (the last one included).
    tricks: Vec<E>,
    /// Every card the game played, before the lanes too.
    cards: Vec<E>,
    /// 1 when the game ended, 0 when it reached the trick limit.
    ended: Vec<E>,
    /// Games won by each player and not special.
    pub wins: [u64; 2],
    /// How many special games.
    pub special: usize,
    /// A game that ends with at least this many cards is special.
    bar: u32,
}

/// A special game as the lanes left it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct SpecialGame {
    /// Its place in the batch.
    pub slot: usize,
    /// `Some((winner, tricks in the lanes, every card of the game))` when it ended, `None` when
    /// the trick limit stopped it.
    pub ended: Option<(u8, u64, u64)>,
}

impl<E: TallyPlane> Special<E> {
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
pub(super) struct Batch<E> {
    soa: Soa<E>,
    /// The kinds of the games, for the lanes' kinds queue (`kinds.rs`).
    kinds: kinds::KindsSoa<E>,
    /// The games in sixteen `u32` lanes' words (`split.rs`; made on first use, by wide batches).
    #[cfg(target_arch = "x86_64")]
    split: split::SplitSoa,
    len: usize,
    pub out: Special<E>,
}

/// The batch of the 16 `u32` lanes (decks of up to 34 cards).
pub(super) type NarrowBatch = Batch<u32>;

/// The batch of the eight `u64` lanes.
#[cfg(test)]
pub(super) type WideBatch = Batch<u64>;

impl<E: TallyPlane> Default for Batch<E> {
    fn default() -> Self {
        Self::with_room(BATCH + PAD)
    }
}

impl<E: TallyPlane> Batch<E> {
    /// A batch with no room, for processors that do not run it ([`Batch::available`]).
    pub fn empty() -> Self {
        Self::with_room(0)
    }

    fn with_room(len: usize) -> Self {
        let v = || vec![E::ZERO; len];
        Batch {
            soa: Soa::new(len),
            kinds: kinds::KindsSoa::new(len),
            #[cfg(target_arch = "x86_64")]
            split: split::SplitSoa::default(),
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

    /// Whether this processor has vector lanes for the batch (AVX-512 or AVX2; else the games
    /// are played one by one, faster than lanes without vector units).
    pub fn available() -> bool {
        Isa::get() != Isa::Portable
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Queues `g` (with a move to make: see [`Game::over_at_start`]), which played `cards` cards
    /// before; it is game `self.len()` of the batch.
    #[inline(always)]
    pub fn push(&mut self, g: &AbGame<E>, cards: u64) {
        let i = self.len;
        assert!(
            i < BATCH && self.soa.slot.len() == BATCH + PAD,
            "a batch holds at most BATCH games"
        );
        debug_assert!(g.over_at_start().is_none() && cards <= u64::from(u32::MAX));
        let [pf, pl, ph] = g.pile;
        let s = &mut self.soa;
        // SAFETY: `i < BATCH` and every array holds `BATCH + PAD` values (`with_room`).
        unsafe {
            let w = |v: &mut Vec<E>, x: E| *v.as_mut_ptr().add(i) = x;
            w(&mut s.fa, g.faces[0]);
            w(&mut s.fb, g.faces[1]);
            w(&mut s.la, g.lo[0]);
            w(&mut s.lb, g.lo[1]);
            w(&mut s.ha, g.hi[0]);
            w(&mut s.hb, g.hi[1]);
            w(&mut s.na, E::from(g.len[0]));
            w(&mut s.nb, E::from(g.len[1]));
            w(&mut s.pf, pf);
            w(&mut s.pl, pl);
            w(&mut s.ph, ph);
            w(&mut s.n, E::from(g.n));
            w(&mut s.debt, E::from(g.debt));
            w(&mut s.who, E::from(g.who));
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

    /// Plays the batch, each game until it ends or has played `limit` tricks in the lanes:
    /// `self.out` then holds the counts and the special games (those ending with at least `bar`
    /// cards, and those stopped by the limit). False, and nothing played, when the lanes of this
    /// processor cannot take the batch (see [`TallyPlane::play`]): the caller plays its games
    /// one by one.
    pub fn run(&mut self, limit: u32, bar: u32) -> bool {
        self.run_with_isa(limit, bar, Isa::get())
    }

    /// [`Batch::run`] in the lanes of `isa`, which the processor must have (tests compare them).
    fn run_with_isa(&mut self, limit: u32, bar: u32, isa: Isa) -> bool {
        assert!(isa.supported(), "the processor has {isa:?}");
        assert_eq!(self.soa.slot.len(), BATCH + PAD, "a batch with room");
        let mut played = false;
        // SAFETY: the processor has `isa` and the arrays have room (both checked above).
        self.run_by(limit, bar, |b, l| played = unsafe { E::play(b, l, isa) });
        played
    }

    /// [`Batch::run`] with the loop `play` (the lanes' own, or in tests another to compare).
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

impl Batch<u32> {
    /// Whether a game of a deck of `cards` cards, after `before` cards, counts its cards within
    /// the `u32` kinds lanes' 16 bits for `limit` tricks (at most `cards` cards a trick): checked
    /// for the games of 33 and 34 cards (why their hands fit 32-bit planes:
    /// `exhaustive::narrow_walk`).
    pub fn counts_fit(before: u64, cards: u32, limit: u32) -> bool {
        before + u64::from(cards) * u64::from(limit) < 1 << 16
    }
}

/// [`TallyPlane::play`] in 16 `u32` lanes with the kinds queue (`kinds.rs`); false when a game
/// of the batch has more than `kinds64::max_faces(32)` face cards.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512cd,avx512vl,avx512bw,avx512dq,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn play_u32(batch: &mut Batch<u32>, limit: u32) -> bool {
    use crate::engine::vec64::{Avx512x16, Vec64};
    // SAFETY: the processor has AVX-512 (the caller's contract) and BMI2 (`Isa::get` checks
    // them together).
    let v = unsafe { Avx512x16::splat(0) };
    if !kinds::convert(v, batch, limit) {
        return false;
    }
    // SAFETY: as above. (One group: see `kinds::play`.)
    unsafe { kinds::play::<u32, Avx512x16, 1>(batch, limit) };
    true
}

/// [`TallyPlane::play`] in eight `u32` AVX2 lanes with the kinds queue; false when a game of
/// the batch has more than `kinds64::max_faces(32)` face cards.
///
/// # Safety
/// The processor has AVX2 and its companions (`Isa::Avx2`); the batch's arrays have room.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn play_avx2_u32(batch: &mut Batch<u32>, limit: u32) -> bool {
    use crate::engine::vec64::Avx2x8;
    // SAFETY: the caller's contract.
    let v = unsafe { Avx2x8::splat(0) };
    if !kinds::convert(v, batch, limit) {
        return false;
    }
    // SAFETY: as above.
    unsafe { kinds::play::<u32, Avx2x8, AVX2_GROUPS>(batch, limit) };
    true
}

/// [`TallyPlane::play`] with AVX2 for the wide batch: in the split lanes (eight `u32`s, each
/// face plane in two words: `split.rs`) when the games fit them, else in four `u64` lanes with
/// the kinds queue; false when a game of the batch has more than `kinds64::MAX_FACES` face
/// cards.
///
/// # Safety
/// As [`play_avx2_u32`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn play_avx2_u64(batch: &mut Batch<u64>, limit: u32) -> bool {
    use crate::engine::vec64::{Avx2, Avx2x8};
    // SAFETY: the caller's contract.
    let v = unsafe { Avx2::splat(0) };
    if !kinds::convert(v, batch, limit) {
        return false;
    }
    if split::convert(batch, limit) {
        // SAFETY: as above (AVX2's funnel shifts are two shifts).
        unsafe { split::play::<Avx2x8, AVX2_GROUPS>(batch, limit) }
    } else {
        // SAFETY: as above.
        unsafe { kinds::play::<u64, Avx2, AVX2_GROUPS>(batch, limit) }
    }
    true
}

/// Groups of AVX2 lanes stepped side by side (sixteen vector registers: more groups spill).
const AVX2_GROUPS: usize = 1;

/// [`TallyPlane::play`] in eight `u64` lanes with the kinds queue (`kinds.rs`), or in the split
/// lanes when the games fit them; false when a game of the batch has more than
/// `kinds64::MAX_FACES` face cards.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512cd,avx512vl,avx512bw,avx512dq,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn play_u64(batch: &mut Batch<u64>, limit: u32) -> bool {
    use crate::engine::vec64::{Avx512, Vec64};
    // SAFETY: the processor has AVX-512 (the caller's contract) and BMI2 (`Isa::get` checks
    // them together).
    let v = unsafe { Avx512::splat(0) };
    if !kinds::convert(v, batch, limit) {
        return false;
    }
    if split::available() && split::convert(batch, limit) {
        // SAFETY: as above, and the processor has VBMI2 (`split::available`).
        unsafe { play_split(batch, limit) }
    } else {
        // SAFETY: as above.
        unsafe { kinds::play::<u64, Avx512, 2>(batch, limit) }
    }
    true
}

/// The wide batch in sixteen `u32` lanes (`split.rs`), its words made by `split::convert`.
#[cfg(target_arch = "x86_64")]
#[target_feature(
    enable = "avx512f,avx512cd,avx512vl,avx512bw,avx512dq,avx512vbmi2,bmi1,bmi2,lzcnt,popcnt"
)]
unsafe fn play_split(batch: &mut Batch<u64>, limit: u32) {
    // SAFETY: the caller's contract.
    unsafe { split::play::<crate::engine::vec64::Avx512x16, 2>(batch, limit) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::lanes::{Finish, random_positions};
    use crate::rng::SplitMix64;

    /// `g` in `u64` planes.
    fn widen(g: Game<u32>) -> Game<u64> {
        let w = u64::from;
        Game {
            faces: g.faces.map(w),
            lo: g.lo.map(w),
            hi: g.hi.map(w),
            len: g.len,
            pile_faces: w(g.pile_faces),
            pile_lo: w(g.pile_lo),
            pile_hi: w(g.pile_hi),
            n: g.n,
            next: g.next,
            debt: g.debt,
        }
    }

    /// Random games from any move boundary: random hands of up to `max_cards` cards, and a
    /// random pile of up to 8 cards and a debt on top (hands and pile within the plane).
    fn random_games<E: Plane>(seed: u64, count: usize, max_cards: u64) -> Vec<(Game<E>, u64)> {
        let mut rng = SplitMix64::new(seed);
        random_positions(seed, count, max_cards)
            .iter()
            .map(|p| {
                let mut g = Game::<E>::from_hands(&p.hands[0], &p.hands[1], u32::from(p.to_move));
                let n = rng.below(9) as u32;
                for i in 0..n {
                    let c = [0u8, 0, 0, 1, 2, 3, 4][rng.below(7) as usize];
                    if c > 0 {
                        let k = u32::from(c - 1);
                        let bit = E::ONE.shl(i);
                        g.pile_faces |= bit;
                        g.pile_lo |= bit & E::fill(k & 1);
                        g.pile_hi |= bit & E::fill(k >> 1);
                    }
                }
                g.n = n;
                g.debt = if n > 0 { rng.below(5) as u32 } else { 0 };
                (g, rng.below(500))
            })
            .filter(|(g, _)| g.over_at_start().is_none())
            .collect()
    }

    /// The batch counts every game of `all` as the general lanes (`general`) finish it: a game
    /// that ends with fewer than `bar` cards (those before the lanes included) only in the
    /// winners' counts, every other one (ended at least that long, or stopped by the trick
    /// limit) as a special game with its own result.
    fn counts_what_the_general_lanes_finish<E: TallyPlane>(
        mut batch: Batch<E>,
        all: &[(Game<E>, u64)],
        mut general: impl FnMut(&[Game<E>], u32) -> Vec<(usize, Finish)>,
        mut run: impl FnMut(&mut Batch<E>, u32, u32) -> bool,
    ) {
        for chunk in all.chunks(BATCH) {
            let games: Vec<Game<E>> = chunk.iter().map(|&(g, _)| g).collect();
            for limit in [1000u32, 3] {
                let want = general(&games, limit);
                for bar in [0u32, 40, 200, u32::MAX] {
                    batch.clear();
                    for &(g, before) in chunk {
                        batch.push(&AbGame::of(&g), before);
                    }
                    if !run(&mut batch, limit, bar) {
                        // Only a batch with a game past the kinds queue may be refused (the
                        // search never makes one: `exhaustive::root`).
                        let most = crate::engine::kinds64::max_faces(E::BITS);
                        assert!(chunk.iter().any(|(g, _)| faces(g) > most), "refused");
                        continue;
                    }
                    let out = &batch.out;
                    let mut wins = [0u64; 2];
                    let mut special = Vec::new();
                    for &(i, f) in &want {
                        let before = chunk[i].1;
                        let ended = match f {
                            Finish::Won { winner, cards, .. }
                                if before + cards < u64::from(bar) =>
                            {
                                wins[winner as usize] += 1;
                                continue;
                            }
                            Finish::Won {
                                winner,
                                tricks,
                                cards,
                            } => Some((winner, tricks, before + cards)),
                            Finish::TooLong => None,
                        };
                        special.push(SpecialGame { slot: i, ended });
                    }
                    let mut got: Vec<_> = (0..out.special).map(|j| out.get(j)).collect();
                    got.sort_unstable();
                    special.sort_unstable();
                    assert_eq!((out.wins, got), (wins, special), "limit {limit}, bar {bar}");
                    for (j, &(g, _)) in chunk.iter().enumerate() {
                        assert_eq!(batch.game(j), g);
                        assert_eq!(AbGame::of(&g).game(), g);
                    }
                }
            }
        }
    }

    /// The batch's vector forms this processor has (the portable path plays one by one: its
    /// kinds loop is held to the reference by `portable_kinds_count_what_the_general_lanes_finish`);
    /// says which it skips.
    fn vector_isas() -> Vec<Isa> {
        let (have, lack): (Vec<Isa>, Vec<Isa>) = [Isa::Avx512, Isa::Avx2]
            .into_iter()
            .partition(|i| i.supported());
        for isa in lack {
            eprintln!("{}: skipped, this processor lacks it", isa.name());
        }
        have
    }

    /// Whether the processor has AVX-512, for the test `name` of an AVX-512 loop (which says it
    /// is skipped when not).
    #[cfg(target_arch = "x86_64")]
    fn avx512(name: &str) -> bool {
        let ok = Isa::Avx512.supported();
        if !ok {
            eprintln!("{name}: skipped, this processor lacks AVX-512");
        }
        ok
    }

    /// The face cards of a game, its pile's included.
    fn faces<E: Plane + Into<u64>>(g: &Game<E>) -> u32 {
        [g.faces[0], g.faces[1], g.pile_faces]
            .map(|x| x.into().count_ones())
            .iter()
            .sum()
    }

    /// The finishes of `games` by the one-by-one reference ([`Game::finish`]), on any processor.
    fn general32(games: &[Game<u32>], limit: u32) -> Vec<(usize, Finish)> {
        games.iter().map(|g| g.finish(limit)).enumerate().collect()
    }

    /// Random games for the `u32` lanes (hands of up to 24 cards, a pile of up to 8) with at
    /// most `most` face cards.
    fn narrow_games(seed: u64, most: u32) -> Vec<(Game<u32>, u64)> {
        random_games::<u32>(seed, 3 * BATCH + 100, 24)
            .into_iter()
            .filter(|(g, _)| faces(g) <= most)
            .collect()
    }

    /// The `u32` lanes as the search runs them, against the one-by-one reference ([`Game::finish`]): with the kinds queue (every
    /// game of at most `max_faces(32)` face cards), and in planes (some batches holding a game
    /// of more: four in seven of the random cards are face cards).
    #[test]
    fn narrow_batch_counts_what_the_general_lanes_finish() {
        let most = crate::engine::kinds64::max_faces(32);
        let many = narrow_games(21, u32::MAX);
        assert!(
            many.chunks(BATCH)
                .all(|c| c.iter().any(|(g, _)| faces(g) > most))
        );
        for (isa, games) in vector_isas()
            .into_iter()
            .flat_map(|isa| [narrow_games(26, most), many.clone()].map(|g| (isa, g)))
        {
            counts_what_the_general_lanes_finish(
                Batch::default(),
                &games,
                general32,
                |b, l, bar| b.run_with_isa(l, bar, isa),
            );
        }
    }

    /// `kinds::convert`, some games at a time in the lanes, writes each game's kinds as
    /// `kinds::convert_one` does and refuses exactly the batches it refuses: random games of
    /// both widths (partial last steps included), in every lane form the machine has.
    #[test]
    fn convert_equals_the_one_by_one_conversion() {
        use crate::engine::vec64::{Portable, Vec64};
        fn check<E: TallyPlane, V: Vec64<Elem = E>>(v: V, games: &[(Game<E>, u64)]) {
            let mut batch = Batch::<E>::default();
            for (n, chunk) in games.chunks(BATCH).enumerate() {
                // Short batches too: every length modulo the lanes.
                let chunk = &chunk[..chunk.len() - n % 17];
                for limit in [1000u32, 1 << 9] {
                    batch.clear();
                    for &(g, before) in chunk {
                        batch.push(&AbGame::of(&g), before);
                    }
                    let fits = kinds::convert(v, &mut batch, limit);
                    let mut all = true;
                    for i in 0..chunk.len() {
                        let (want, ok) = kinds::convert_one(&batch, i, limit);
                        all &= ok;
                        if ok {
                            assert_eq!(kinds::converted(&batch, i), want, "game {i}");
                        }
                    }
                    assert_eq!(fits, all);
                }
            }
        }
        // Cards before the lanes up to 2^16 (`random_games` draws fewer than 500).
        let far = |mut games: Vec<(Game<u32>, u64)>| {
            for (j, g) in games.iter_mut().enumerate() {
                g.1 = (j as u64 * 7919) % 40_000;
            }
            games
        };
        let most = crate::engine::kinds64::max_faces(32);
        // SAFETY: the portable lanes need no feature.
        let portable = unsafe { Portable::splat(0) };
        check(portable, &wide_games(28, u32::MAX));
        check(portable, &wide_games(29, crate::engine::kinds64::MAX_FACES));
        #[cfg(target_arch = "x86_64")]
        if Isa::Avx2.supported() {
            use crate::engine::vec64::{Avx2, Avx2x8};
            // SAFETY: the processor has AVX2 (checked above).
            let (v4, v8) = unsafe { (Avx2::splat(0), Avx2x8::splat(0)) };
            check(v4, &wide_games(30, u32::MAX));
            check(v4, &wide_games(31, crate::engine::kinds64::MAX_FACES));
            check(v8, &narrow_games(32, u32::MAX));
            check(v8, &narrow_games(33, most));
            check(v8, &far(narrow_games(34, most)));
        }
        #[cfg(target_arch = "x86_64")]
        if avx512("convert_equals_the_one_by_one_conversion (AVX-512 forms)") {
            use crate::engine::vec64::{Avx512, Avx512x16};
            // SAFETY: the processor has AVX-512 (checked above).
            let (v8, v16) = unsafe { (Avx512::splat(0), Avx512x16::splat(0)) };
            check(v8, &wide_games(30, u32::MAX));
            check(v8, &wide_games(31, crate::engine::kinds64::MAX_FACES));
            check(v16, &narrow_games(32, u32::MAX));
            check(v16, &narrow_games(33, most));
            check(v16, &far(narrow_games(34, most)));
        }
    }

    /// Puts `pile` (kinds: 0 a number card, else the penalty) under `g`'s hands as its pile,
    /// with a random debt on top of a pile that has cards.
    fn put_pile<E: Plane>(g: &mut Game<E>, pile: &[u8], rng: &mut SplitMix64) {
        for (i, &c) in pile.iter().enumerate() {
            if c > 0 {
                let k = u32::from(c - 1);
                let bit = E::ONE.shl(i as u32);
                g.pile_faces |= bit;
                g.pile_lo |= bit & E::fill(k & 1);
                g.pile_hi |= bit & E::fill(k >> 1);
            }
        }
        g.n = pile.len() as u32;
        g.debt = if pile.is_empty() {
            0
        } else {
            rng.below(5) as u32
        };
    }

    /// Random games of 35 to 60 cards with at most 15 face cards (about a fifth of the cards)
    /// and a pile of up to 8 cards, in `u64` planes: the games the sixteen split lanes take
    /// (`split.rs`). The hands are cut anywhere, so either may hold past 32 cards.
    fn games_past_34_cards(seed: u64, count: usize) -> Vec<(Game<u64>, u64)> {
        let mut rng = SplitMix64::new(seed);
        let mut games = Vec::new();
        while games.len() < count {
            let total = 35 + rng.below(26) as usize;
            let cards: Vec<u8> = (0..total)
                .map(|_| {
                    if rng.below(5) == 0 {
                        1 + rng.below(4) as u8
                    } else {
                        0
                    }
                })
                .collect();
            if cards.iter().filter(|&&c| c > 0).count() > 15 {
                continue;
            }
            let pile = rng.below(9) as usize;
            let split = pile + rng.below((total - pile + 1) as u64) as usize;
            let mut g =
                Game::<u64>::from_hands(&cards[pile..split], &cards[split..], rng.below(2) as u32);
            put_pile(&mut g, &cards[..pile], &mut rng);
            if g.over_at_start().is_none() {
                games.push((g, rng.below(500)));
            }
        }
        games
    }

    /// The wide batch in the split lanes (`split.rs`: sixteen with AVX-512 VBMI2, eight with
    /// AVX2), against the one-by-one reference ([`Game::finish`]): random games of 35 to 60
    /// cards, and the games of random deals of `36-2J2Q2K2A` (44 cards) and of three of each
    /// face card and 40 number cards (52) from their first move.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn split_lanes_count_what_the_general_lanes_finish() {
        use crate::engine::vec64::{Avx2, Avx2x8, Portable, Vec64};
        /// The AVX2 form, its batch made as `play_avx2_u64` makes it, the split lanes asserted.
        #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
        unsafe fn play_avx2_split(batch: &mut WideBatch, limit: u32) {
            // SAFETY: the caller's contract.
            let v = unsafe { Avx2::splat(0) };
            assert!(kinds::convert(v, batch, limit) && split::convert(batch, limit));
            // SAFETY: as above.
            unsafe { split::play::<Avx2x8, AVX2_GROUPS>(batch, limit) }
        }
        let avx512 = split::available();
        let avx2 = Isa::Avx2.supported();
        for (form, has) in [("AVX-512 VBMI2", avx512), ("AVX2", avx2)] {
            if !has {
                eprintln!(
                    "split_lanes_count_what_the_general_lanes_finish: {form} skipped (not on this processor, or below ANSATZ_ISA)"
                );
            }
        }
        // SAFETY: the portable form needs no feature (its kinds convert the batch).
        let v = unsafe { Portable::splat(0) };
        let mut rng = SplitMix64::new(37);
        let mut deals = |deck: &[u8], count: usize| -> Vec<(Game<u64>, u64)> {
            (0..count)
                .map(|_| {
                    let mut d = deck.to_vec();
                    for i in (1..d.len()).rev() {
                        d.swap(i, rng.below(i as u64 + 1) as usize);
                    }
                    let half = d.len() / 2;
                    (
                        Game::<u64>::from_hands(&d[..half], &d[half..], 0),
                        rng.below(500),
                    )
                })
                .filter(|(g, _)| g.over_at_start().is_none())
                .collect()
        };
        let census: Vec<u8> = [1u8, 1, 2, 2, 3, 3, 4, 4]
            .into_iter()
            .chain([0; 36])
            .collect();
        let threes: Vec<u8> = (1..=4u8).flat_map(|c| [c; 3]).chain([0; 40]).collect();
        for games in [
            games_past_34_cards(36, 3 * BATCH + 100),
            deals(&census, BATCH + 50),
            deals(&threes, BATCH + 50),
        ] {
            if avx512 {
                counts_what_the_general_lanes_finish(
                    WideBatch::default(),
                    &games,
                    general64,
                    |b, l, bar| {
                        b.run_by(l, bar, |b, l| {
                            assert!(kinds::convert(v, b, l) && split::convert(b, l));
                            // SAFETY: the processor has AVX-512 and VBMI2 (checked above).
                            unsafe { play_split(b, l) }
                        });
                        true
                    },
                );
            }
            if avx2 {
                counts_what_the_general_lanes_finish(
                    WideBatch::default(),
                    &games,
                    general64,
                    // SAFETY: the processor has AVX2 (checked above).
                    |b, l, bar| {
                        b.run_by(l, bar, |b, l| unsafe { play_avx2_split(b, l) });
                        true
                    },
                );
            }
        }
    }

    /// The `u64` kinds lanes alone (eight with AVX-512, four with AVX2), on games the split
    /// lanes take where the processor has them (so that these lanes stay tested there too).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn wide_kinds_count_what_the_general_lanes_finish() {
        use crate::engine::vec64::{Avx2, Avx512, Vec64};
        #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
        unsafe fn play_avx2(batch: &mut WideBatch, limit: u32) {
            // SAFETY: the caller's contract.
            let v = unsafe { Avx2::splat(0) };
            assert!(kinds::convert(v, batch, limit));
            // SAFETY: as above.
            unsafe { kinds::play::<u64, Avx2, AVX2_GROUPS>(batch, limit) }
        }
        if Isa::Avx2.supported() {
            counts_what_the_general_lanes_finish(
                WideBatch::default(),
                &games_past_34_cards(38, 3 * BATCH + 100),
                general64,
                // SAFETY: the processor has AVX2 (checked above) and the batch has room.
                |b, l, bar| {
                    b.run_by(l, bar, |b, l| unsafe { play_avx2(b, l) });
                    true
                },
            );
        } else {
            eprintln!(
                "wide_kinds_count_what_the_general_lanes_finish: AVX2 skipped (not on this processor)"
            );
        }
        if !avx512("wide_kinds_count_what_the_general_lanes_finish") {
            return;
        }
        #[target_feature(
            enable = "avx512f,avx512cd,avx512vl,avx512bw,avx512dq,bmi1,bmi2,lzcnt,popcnt"
        )]
        unsafe fn play_kinds(batch: &mut WideBatch, limit: u32) {
            // SAFETY: the caller's contract.
            let v = unsafe { Avx512::splat(0) };
            assert!(kinds::convert(v, batch, limit));
            // SAFETY: as above.
            unsafe { kinds::play::<u64, Avx512, 2>(batch, limit) }
        }
        counts_what_the_general_lanes_finish(
            WideBatch::default(),
            &games_past_34_cards(38, 3 * BATCH + 100),
            general64,
            // SAFETY: the processor has AVX-512 (checked above) and the batch has room.
            |b, l, bar| {
                b.run_by(l, bar, |b, l| unsafe { play_kinds(b, l) });
                true
            },
        );
    }

    /// The split lanes refuse a batch with a game of more than 60 cards or 15 face cards, or
    /// whose cards could pass the low half of a lane within the trick limit (at most the
    /// game's own cards a trick).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn split_lanes_refuse_what_does_not_fit() {
        use crate::engine::vec64::{Portable, Vec64};
        // SAFETY: the portable form needs no feature (its kinds convert the batch).
        let v = unsafe { Portable::splat(0) };
        let mut batch = WideBatch::default();
        let mut fits = |g: &Game<u64>, before: u64, limit: u32| {
            batch.clear();
            batch.push(&AbGame::of(g), before);
            kinds::convert(v, &mut batch, limit) && split::convert(&mut batch, limit)
        };
        let hand = |faces: usize, cards: usize| -> Vec<u8> {
            (0..cards).map(|i| u8::from(i < faces)).collect()
        };
        let g60 = Game::<u64>::from_hands(&hand(8, 30), &hand(7, 30), 0);
        assert!(fits(&g60, 0, 1000));
        assert!(fits(&g60, 65535 - 60 * 1000, 1000));
        assert!(!fits(&g60, 65536 - 60 * 1000, 1000));
        assert!(!fits(&g60, 0, 1100));
        let g61 = Game::<u64>::from_hands(&hand(8, 31), &hand(7, 30), 0);
        assert!(!fits(&g61, 0, 1000));
        let many = Game::<u64>::from_hands(&hand(8, 20), &hand(8, 20), 0);
        assert!(!fits(&many, 0, 1000));
    }

    /// Random games of 33 and 34 cards (a pile of up to 5, a hand of at most 6, at most 15 face
    /// cards, about a quarter of the cards) whose count fits ([`Batch::counts_fit`]), in `u32`
    /// planes.
    fn games_of_34_cards(seed: u64, count: usize) -> Vec<(Game<u32>, u64)> {
        let mut rng = SplitMix64::new(seed);
        let mut games = Vec::new();
        while games.len() < count {
            let total = 33 + rng.below(2) as usize;
            let cards: Vec<u8> = (0..total)
                .map(|_| {
                    if rng.below(4) == 0 {
                        1 + rng.below(4) as u8
                    } else {
                        0
                    }
                })
                .collect();
            if cards.iter().filter(|&&c| c > 0).count() > 15 {
                continue;
            }
            let pile = rng.below(6) as usize;
            // One hand of one to six cards, as in the end of a game, where the lanes hand
            // 34-card games on.
            let short = 1 + rng.below(6) as usize;
            let split = if rng.below(2) == 0 {
                pile + short
            } else {
                total - short
            };
            let (h0, h1) = (&cards[pile..split], &cards[split..]);
            if h0.len() > 32 || h1.len() > 32 {
                continue;
            }
            let mut g = Game::<u32>::from_hands(h0, h1, rng.below(2) as u32);
            put_pile(&mut g, &cards[..pile], &mut rng);
            let before = rng.below(500);
            if g.over_at_start().is_none() && Batch::<u32>::counts_fit(before, total as u32, 1000) {
                games.push((g, before));
            }
        }
        games
    }

    /// 33- and 34-card games in the `u32` kinds lanes (where a 34-card game's hands may reach
    /// 33 cards: `exhaustive::narrow_walk`), against the one-by-one reference ([`Game::finish`]) on the same games. Many start near
    /// their end (a hand of one to six cards), where those hands arise.
    #[test]
    fn games_of_34_cards_in_u32_lanes_count_what_the_general_lanes_finish() {
        for (isa, cards) in vector_isas()
            .into_iter()
            .flat_map(|isa| [33u32, 34].map(|c| (isa, c)))
        {
            let games: Vec<_> = games_of_34_cards(35 + u64::from(cards), 3 * BATCH + 100)
                .into_iter()
                .filter(|(g, _)| g.len[0] + g.len[1] + g.n == cards)
                .collect();
            assert!(games.len() > BATCH, "{cards} cards: {} games", games.len());
            counts_what_the_general_lanes_finish(
                NarrowBatch::default(),
                &games,
                |g, l| {
                    let wide: Vec<Game<u64>> = g.iter().map(|&g| widen(g)).collect();
                    general64(&wide, l)
                },
                |b, l, bar| b.run_with_isa(l, bar, isa),
            );
        }
    }

    /// The `u32` kinds lanes refuse a batch with a game of 16 face cards, or one whose cards
    /// could pass the low half of a lane within the trick limit (at most 32 cards a trick).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn narrow_kinds_refuse_what_does_not_fit() {
        if !avx512("narrow_kinds_refuse_what_does_not_fit") {
            return;
        }
        use crate::engine::vec64::{Avx512x16, Vec64};
        // SAFETY: the processor has AVX-512 (checked above).
        let v = unsafe { Avx512x16::splat(0) };
        let mut batch = NarrowBatch::default();
        let fits = |batch: &mut NarrowBatch, g: &Game<u32>, before: u64, limit: u32| {
            batch.clear();
            batch.push(&AbGame::of(g), before);
            kinds::convert(v, batch, limit)
        };
        let many = Game::<u32>::from_hands(&[1; 10], &[2; 6], 0);
        assert!(!fits(&mut batch, &many, 0, 1000));
        let g = Game::<u32>::from_hands(&[1; 9], &[2, 0, 0, 0, 3, 4], 0);
        assert!(fits(&mut batch, &g, 0, 1000));
        assert!(fits(&mut batch, &g, 65535 - 32 * 1000, 1000));
        assert!(!fits(&mut batch, &g, 65536 - 32 * 1000, 1000));
        assert!(!fits(&mut batch, &g, 0, 2048));
    }

    /// The finishes of `games` by the one-by-one reference ([`Game::finish`]), on any processor.
    fn general64(games: &[Game<u64>], limit: u32) -> Vec<(usize, Finish)> {
        games.iter().map(|g| g.finish(limit)).enumerate().collect()
    }

    /// Random games for the `u64` lanes (hands of up to 52 cards, a pile of up to 8) with at
    /// most `most` face cards.
    fn wide_games(seed: u64, most: u32) -> Vec<(Game<u64>, u64)> {
        random_games::<u64>(seed, 3 * BATCH + 100, 52)
            .into_iter()
            .filter(|(g, _)| faces(g) <= most)
            .collect()
    }

    /// The `u64` lanes as the search runs them, against the one-by-one reference ([`Game::finish`]): with the kinds queue
    /// (every game of at most `MAX_FACES` face cards), and in planes (some batches holding a
    /// game of more: random hands of up to 52 cards, four in seven of them face cards).
    #[test]
    fn wide_batch_counts_what_the_general_lanes_finish() {
        use crate::engine::kinds64::MAX_FACES;
        let many = wide_games(22, u32::MAX);
        assert!(many.chunks(BATCH).all(|c| {
            c.iter()
                .any(|(g, _)| g.faces[0].count_ones() + g.faces[1].count_ones() > MAX_FACES)
        }));
        for (isa, games) in vector_isas()
            .into_iter()
            .flat_map(|isa| [wide_games(23, MAX_FACES), many.clone()].map(|g| (isa, g)))
        {
            counts_what_the_general_lanes_finish(
                Batch::default(),
                &games,
                general64,
                |b, l, bar| b.run_with_isa(l, bar, isa),
            );
        }
    }

    /// The kinds queue's loop in the portable lanes (any processor), against the one-by-one reference ([`Game::finish`]);
    /// a batch with a game of more than `MAX_FACES` face cards is refused.
    #[test]
    fn portable_kinds_count_what_the_general_lanes_finish() {
        use crate::engine::kinds64::MAX_FACES;
        use crate::engine::vec64::{Portable, Vec64};
        // SAFETY: the portable lanes need no feature.
        let v = unsafe { Portable::splat(0) };
        counts_what_the_general_lanes_finish(
            Batch::default(),
            &wide_games(25, MAX_FACES),
            general64,
            |b, l, bar| {
                b.run_by(l, bar, |b, l| {
                    assert!(kinds::convert(v, b, l));
                    // SAFETY: as above.
                    unsafe { kinds::play::<u64, Portable, 2>(b, l) }
                });
                true
            },
        );
        let mut batch = WideBatch::default();
        let mut g = Game::<u64>::from_hands(&[1; 20], &[2; 12], 0);
        assert_eq!(g.faces[0].count_ones() + g.faces[1].count_ones(), 32);
        batch.push(&AbGame::of(&g), 0);
        assert!(!kinds::convert(v, &mut batch, 1000));
        g = Game::<u64>::from_hands(&[1; 19], &[2; 12], 0);
        batch.clear();
        batch.push(&AbGame::of(&g), 0);
        assert!(kinds::convert(v, &mut batch, 1000));
    }
}
