//! The counting batch in every form the processor has, against the reference engine's play of
//! each game from its move (`reference::play_on`): the counts of its winners and its special
//! games, at several trick limits and bars; and its refusals of what does not fit.

use super::super::batch::{NarrowBatch, SpecialGame, WideBatch};
use super::*;
use crate::engine::Finish;
use crate::engine::game::random_positions;
use crate::engine::game::{Game, Plane};
use crate::engine::lanes::kinds;
use crate::rng::SplitMix64;

/// The reference engine's finish of `g` from its move boundary (`reference::play_on`).
fn finish<E: Plane>(g: &Game<E>, limit: u32) -> Finish {
    let (h0, h1) = (g.hand(0), g.hand(1));
    crate::engine::reference::play_on(
        [&h0, &h1],
        &g.pile(),
        g.next as u8,
        g.debt as u8,
        u64::from(limit),
    )
}

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
            let mut g = Game::<E>::from_hands(&p.hands[0], &p.hands[1], p.to_move);
            let n = rng.below(9) as u32;
            for i in 0..n {
                let c = [0u8, 0, 0, 1, 2, 3, 4][rng.below(7) as usize];
                if c > 0 {
                    g.pile_face(i, u32::from(c));
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
    mut batch: TallyBatch<E>,
    all: &[(Game<E>, u64)],
    mut general: impl FnMut(&[Game<E>], u32) -> Vec<(usize, Finish)>,
    mut run: impl FnMut(&mut TallyBatch<E>, u32, u32) -> bool,
) {
    for chunk in all.chunks(BATCH) {
        let games: Vec<Game<E>> = chunk.iter().map(|&(g, _)| g).collect();
        for limit in [1000u32, 3] {
            let want = general(&games, limit);
            for bar in [0u32, 40, 200, u32::MAX] {
                batch.clear();
                for &(g, before) in chunk {
                    batch.push(&g, before);
                }
                if !run(&mut batch, limit, bar) {
                    // Only a batch with a game past the kinds queue may be refused (the
                    // search never makes one: `exhaustive::root`).
                    let most = kinds::max_faces(E::BITS);
                    assert!(chunk.iter().any(|(g, _)| faces(g) > most), "refused");
                    continue;
                }
                let out = &batch.out;
                let mut wins = [0u64; 2];
                let mut special = Vec::new();
                for &(i, f) in &want {
                    let before = chunk[i].1;
                    let ended = match f {
                        Finish::Won { winner, cards, .. } if before + cards < u64::from(bar) => {
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
                }
            }
        }
    }
}

/// The forms this processor has whose lanes take the batch (the portable forms play one by one:
/// their loops are held to the reference by the tests that force them); says which it skips.
fn forms_with_lanes() -> Vec<Form> {
    let (have, lack): (Vec<Form>, Vec<Form>) = Form::ALL
        .into_iter()
        .filter(|f| *f != Form::Portable)
        .partition(|f| f.detected());
    for form in lack {
        eprintln!("{form:?}: skipped, this processor lacks it");
    }
    have
}

/// A loop of the batch forced in the forms of a kernel, one group: the `u32` kinds lanes, the
/// `u64` kinds lanes, or the split lanes. False when the conversion refuses the batch.
#[derive(Clone, Copy, Debug)]
enum Path {
    Narrow,
    Wide,
    Split,
}

struct Forced<'a, E> {
    batch: &'a mut TallyBatch<E>,
    limit: u32,
    path: Path,
}

impl Kernel for Forced<'_, u32> {
    type Out = bool;
    unsafe fn run<F: Forms>(self) -> bool {
        assert!(matches!(self.path, Path::Narrow));
        // SAFETY: the caller's contract (and the batch has room: `TallyBatch::default`).
        unsafe {
            let v = F::Narrow::splat(0);
            arrays::convert(v, self.batch, self.limit)
                && (
                    arrays::play::<u32, F::Narrow, 1>(self.batch, self.limit),
                    true,
                )
                    .1
        }
    }
}

impl Kernel for Forced<'_, u64> {
    type Out = bool;
    unsafe fn run<F: Forms>(self) -> bool {
        let (batch, limit) = (self.batch, self.limit);
        // SAFETY: as above.
        unsafe {
            if !arrays::convert(F::Wide::splat(0), batch, limit) {
                return false;
            }
            match self.path {
                Path::Split if split::convert(batch, limit) => {
                    split::play::<F::Split, 1>(batch, limit)
                }
                Path::Split => return false,
                _ => arrays::play::<u64, F::Wide, 1>(batch, limit),
            }
        }
        true
    }
}

/// Runs `batch` by the forced `path` in `form`'s forms (which the processor must have).
fn run_forced<E: TallyPlane>(
    batch: &mut TallyBatch<E>,
    limit: u32,
    bar: u32,
    form: Form,
    path: Path,
) -> bool
where
    for<'a> Forced<'a, E>: Kernel<Out = bool>,
{
    let mut played = false;
    batch.run_by(limit, bar, |batch, limit| {
        played = isa::run_in(form, Forced { batch, limit, path })
            .ok()
            .expect("a form the processor has")
    });
    played
}

/// The face cards of a game, its pile's included.
fn faces<E: Plane + Into<u64>>(g: &Game<E>) -> u32 {
    [g.faces[0], g.faces[1], g.pile_faces]
        .map(|x| x.into().count_ones())
        .iter()
        .sum()
}

/// The finishes of `games` by the reference engine (`reference::play_on`, through [`finish`]),
/// on any processor.
fn general<E: Plane>(games: &[Game<E>], limit: u32) -> Vec<(usize, Finish)> {
    games.iter().map(|g| finish(g, limit)).enumerate().collect()
}

/// Random games (hands of up to `max_cards` cards, a pile of up to 8) with at most `most` face
/// cards, enough for three batches.
fn games_within<E: Plane + Into<u64>>(seed: u64, max_cards: u64, most: u32) -> Vec<(Game<E>, u64)> {
    random_games::<E>(seed, 3 * BATCH + 100, max_cards)
        .into_iter()
        .filter(|(g, _)| faces(g) <= most)
        .collect()
}

/// Random games for the `u32` lanes: hands of up to 24 cards.
fn narrow_games(seed: u64, most: u32) -> Vec<(Game<u32>, u64)> {
    games_within(seed, 24, most)
}

/// The `u32` lanes as the search runs them, against the reference: with the kinds queue (every
/// game of at most `max_faces(32)` face cards), and refused (some batches holding a game of
/// more: four in seven of the random cards are face cards).
#[test]
fn narrow_batch_counts_what_the_reference_finishes() {
    let most = kinds::max_faces(32);
    let many = narrow_games(21, u32::MAX);
    assert!(
        many.chunks(BATCH)
            .all(|c| c.iter().any(|(g, _)| faces(g) > most))
    );
    for form in forms_with_lanes() {
        for games in [narrow_games(26, most), many.clone()] {
            counts_what_the_general_lanes_finish(
                TallyBatch::default(),
                &games,
                general,
                |b, l, bar| b.run_in(l, bar, form),
            );
        }
    }
    // The portable forms' loop, forced (production plays these games one by one).
    counts_what_the_general_lanes_finish(
        TallyBatch::default(),
        &narrow_games(27, most),
        general,
        |b, l, bar| run_forced(b, l, bar, Form::Portable, Path::Narrow),
    );
}

/// `arrays::convert`, some games at a time in the lanes, writes each game's kinds as
/// `arrays::convert_one` does and refuses exactly the batches it refuses: random games of
/// both widths (partial last steps included), in every form the machine has.
#[test]
fn convert_equals_the_one_by_one_conversion() {
    fn check<E: TallyPlane, V: Vector<Elem = E>>(v: V, games: &[(Game<E>, u64)]) {
        let mut batch = TallyBatch::<E>::default();
        for (n, chunk) in games.chunks(BATCH).enumerate() {
            // Short batches too: every length modulo the lanes.
            let chunk = &chunk[..chunk.len() - n % 17];
            for limit in [1000u32, 1 << 9] {
                batch.clear();
                for &(g, before) in chunk {
                    batch.push(&g, before);
                }
                let fits = arrays::convert(v, &mut batch, limit);
                let mut all = true;
                for i in 0..chunk.len() {
                    let (want, ok) = arrays::convert_one(&batch, i, limit);
                    all &= ok;
                    if ok {
                        assert_eq!(arrays::converted(&batch, i), want, "game {i}");
                    }
                }
                assert_eq!(fits, all);
            }
        }
    }
    struct Check;
    impl Kernel for Check {
        type Out = ();
        unsafe fn run<F: Forms>(self) {
            // Cards before the lanes up to 2^16 (`random_games` draws fewer than 500).
            let far = |mut games: Vec<(Game<u32>, u64)>| {
                for (j, g) in games.iter_mut().enumerate() {
                    g.1 = (j as u64 * 7919) % 40_000;
                }
                games
            };
            let most = kinds::max_faces(32);
            // SAFETY: the caller's contract.
            let (wide, narrow) = unsafe { (F::Wide::splat(0), F::Narrow::splat(0)) };
            check(wide, &wide_games(30, u32::MAX));
            check(wide, &wide_games(31, kinds::MAX_FACES));
            check(narrow, &narrow_games(32, u32::MAX));
            check(narrow, &narrow_games(33, most));
            check(narrow, &far(narrow_games(34, most)));
        }
    }
    for form in Form::ALL {
        if isa::run_in(form, Check).is_err() {
            eprintln!("{form:?}: skipped, this processor lacks it");
        }
    }
}

/// Puts `pile` (kinds: 0 a number card, else the penalty) under `g`'s hands as its pile,
/// with a random debt on top of a pile that has cards.
fn put_pile<E: Plane>(g: &mut Game<E>, pile: &[u8], rng: &mut SplitMix64) {
    for (i, &c) in pile.iter().enumerate() {
        if c > 0 {
            g.pile_face(i as u32, u32::from(c));
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
            Game::<u64>::from_hands(&cards[pile..split], &cards[split..], rng.below(2) as u8);
        put_pile(&mut g, &cards[..pile], &mut rng);
        if g.over_at_start().is_none() {
            games.push((g, rng.below(500)));
        }
    }
    games
}

/// The wide batch in the split lanes (`split.rs`), in every form (VBMI2's funnel shifts, AVX2's
/// two shifts, the plain ones), against the reference: random games of 35 to 60 cards, and the
/// games of random deals of `36-2J2Q2K2A` (44 cards) and of three of each face card and 40 number
/// cards (52) from their first move.
#[test]
fn split_lanes_count_what_the_reference_finishes() {
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
        for form in Form::ALL {
            if !form.detected() {
                eprintln!("{form:?}: skipped, this processor lacks it");
                continue;
            }
            counts_what_the_general_lanes_finish(
                WideBatch::default(),
                &games,
                general,
                |b, l, bar| {
                    assert!(run_forced(b, l, bar, form, Path::Split), "{form:?} refused");
                    true
                },
            );
        }
    }
}

/// The `u64` kinds lanes alone, in every form, on the games the split lanes take where the
/// forms have them (so that these lanes stay tested there too).
#[test]
fn wide_kinds_count_what_the_reference_finishes() {
    let games = games_past_34_cards(38, 3 * BATCH + 100);
    for form in Form::ALL {
        if !form.detected() {
            eprintln!("{form:?}: skipped, this processor lacks it");
            continue;
        }
        counts_what_the_general_lanes_finish(WideBatch::default(), &games, general, |b, l, bar| {
            run_forced(b, l, bar, form, Path::Wide)
        });
    }
}

/// The split lanes refuse a batch with a game of more than 60 cards or 15 face cards, or whose
/// cards could pass the low half of a lane within the trick limit (at most the game's own cards
/// a trick).
#[test]
fn split_lanes_refuse_what_does_not_fit() {
    use crate::engine::vector::Plain64x4;
    // SAFETY: the portable form needs no feature (its kinds convert the batch).
    let v = unsafe { Plain64x4::splat(0) };
    let mut batch = WideBatch::default();
    let mut fits = |g: &Game<u64>, before: u64, limit: u32| {
        batch.clear();
        batch.push(g, before);
        arrays::convert(v, &mut batch, limit) && split::convert(&mut batch, limit)
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
/// cards, about a quarter of the cards) whose count fits ([`TallyBatch::counts_fit`]), in `u32`
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
        let mut g = Game::<u32>::from_hands(h0, h1, rng.below(2) as u8);
        put_pile(&mut g, &cards[..pile], &mut rng);
        let before = rng.below(500);
        if g.over_at_start().is_none() && TallyBatch::<u32>::counts_fit(before, total as u32, 1000)
        {
            games.push((g, before));
        }
    }
    games
}

/// 33- and 34-card games in the `u32` kinds lanes (where a 34-card game's hands may reach 33
/// cards: the narrow walk of `search::exhaustive`), against the reference on the same games in
/// `u64` planes. Many start near their end (a hand of one to six cards), where those hands arise.
#[test]
fn games_of_34_cards_in_u32_lanes_count_what_the_reference_finishes() {
    for form in forms_with_lanes() {
        for cards in [33u32, 34] {
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
                    general(&wide, l)
                },
                |b, l, bar| b.run_in(l, bar, form),
            );
        }
    }
}

/// The `u32` kinds lanes refuse a batch with a game of 16 face cards, or one whose cards could
/// pass the low half of a lane within the trick limit (at most 32 cards a trick), in every form.
#[test]
fn narrow_kinds_refuse_what_does_not_fit() {
    struct Refuse;
    impl Kernel for Refuse {
        type Out = ();
        unsafe fn run<F: Forms>(self) {
            // SAFETY: the caller's contract.
            let v = unsafe { F::Narrow::splat(0) };
            let mut batch = NarrowBatch::default();
            let mut fits = |g: &Game<u32>, before: u64, limit: u32| {
                batch.clear();
                batch.push(g, before);
                arrays::convert(v, &mut batch, limit)
            };
            let many = Game::<u32>::from_hands(&[1; 10], &[2; 6], 0);
            assert!(!fits(&many, 0, 1000));
            let g = Game::<u32>::from_hands(&[1; 9], &[2, 0, 0, 0, 3, 4], 0);
            assert!(fits(&g, 0, 1000));
            assert!(fits(&g, 65535 - 32 * 1000, 1000));
            assert!(!fits(&g, 65536 - 32 * 1000, 1000));
            assert!(!fits(&g, 0, 2048));
        }
    }
    for form in Form::ALL {
        if isa::run_in(form, Refuse).is_err() {
            eprintln!("{form:?}: skipped, this processor lacks it");
        }
    }
}

/// Random games for the `u64` lanes: hands of up to 52 cards.
fn wide_games(seed: u64, most: u32) -> Vec<(Game<u64>, u64)> {
    games_within(seed, 52, most)
}

/// The `u64` lanes as the search runs them, against the reference: with the kinds queue (every
/// game of at most `MAX_FACES` face cards), and refused (some batches holding a game of more:
/// random hands of up to 52 cards, four in seven of them face cards). The portable forms' loop
/// forced too, and its refusal of 32 face cards.
#[test]
fn wide_batch_counts_what_the_reference_finishes() {
    use kinds::MAX_FACES;
    let many = wide_games(22, u32::MAX);
    assert!(many.chunks(BATCH).all(|c| {
        c.iter()
            .any(|(g, _)| g.faces[0].count_ones() + g.faces[1].count_ones() > MAX_FACES)
    }));
    for form in forms_with_lanes() {
        for games in [wide_games(23, MAX_FACES), many.clone()] {
            counts_what_the_general_lanes_finish(
                TallyBatch::default(),
                &games,
                general,
                |b, l, bar| b.run_in(l, bar, form),
            );
        }
    }
    counts_what_the_general_lanes_finish(
        TallyBatch::default(),
        &wide_games(25, MAX_FACES),
        general,
        |b, l, bar| {
            assert!(run_forced(b, l, bar, Form::Portable, Path::Wide));
            true
        },
    );
    let mut batch = WideBatch::default();
    let g = Game::<u64>::from_hands(&[1; 20], &[2; 12], 0);
    batch.push(&g, 0);
    assert!(!run_forced(&mut batch, 1000, 0, Form::Portable, Path::Wide));
    batch.clear();
    let g = Game::<u64>::from_hands(&[1; 19], &[2; 12], 0);
    batch.push(&g, 0);
    assert!(run_forced(&mut batch, 1000, 0, Form::Portable, Path::Wide));
}

/// The batch's shape under each form: the portable forms play one by one; the others name the
/// loops of their constants.
#[test]
fn the_batch_runs_in_the_shape_its_forms_name() {
    struct Shapes;
    impl Kernel for Shapes {
        type Out = [Option<Shape>; 3];
        unsafe fn run<F: Forms>(self) -> [Option<Shape>; 3] {
            [
                u32::shape::<F>(false),
                u64::shape::<F>(false),
                u64::shape::<F>(true),
            ]
        }
    }
    let portable = isa::run_in(Form::Portable, Shapes).ok().unwrap();
    assert_eq!(portable, [None; 3]);
    for form in Form::ALL {
        let Ok([narrow, wide, split]) = isa::run_in(form, Shapes) else {
            continue;
        };
        if form == Form::Portable {
            continue;
        }
        assert_eq!(narrow.unwrap().bits, 32, "{form:?}");
        assert_eq!(wide.unwrap().bits, 64, "{form:?}");
        let split = split.unwrap();
        let vbmi2_or_avx2 = matches!(form, Form::Avx512Vbmi2 | Form::Avx2);
        assert_eq!(split.step == Loop::Split, vbmi2_or_avx2, "{form:?}");
    }
}
