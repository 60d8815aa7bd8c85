//! The random games' loops in every form the processor has, against each other and the reference
//! engine, game by game.

use super::*;
use crate::engine::game::random_positions;
use crate::engine::reference::{self, agrees};
use crate::position::Position;

/// The games of `positions`, then 4,000 standard deals shuffled from `seed` (here: the dealing
/// module sits above the engines).
fn with_standard_deals(positions: &[Position], seed: u64) -> Vec<Game<u64>> {
    let mut games: Vec<Game<u64>> = positions.iter().map(Game::from_position).collect();
    let mut rng = crate::rng::SplitMix64::new(seed);
    let standard = crate::card::DeckSpec::STANDARD.cards();
    games.extend((0..4_000).map(|_| {
        let mut slots = [0 as Card; 64];
        slots[..52].copy_from_slice(&standard);
        for i in (1..52).rev() {
            slots.swap(i, rng.below(i as u64 + 1) as usize);
        }
        Game::from_deal_order(&slots, 52)
    }));
    games
}

/// Every game's finish by the step `step` in the forms of `form` (one group), or `None` when the
/// processor lacks them (and says so).
fn forced(form: Form, step: Loop, games: &[Game<u64>], limit: u32) -> Option<Vec<Finish>> {
    let mut out = vec![None; games.len()];
    let k = Random {
        source: games,
        limit,
        done: |i: usize, f: Finish| {
            assert!(out[i].is_none(), "reported twice");
            out[i] = Some(f);
        },
        force: Some(step),
    };
    if isa::run_in(form, k).is_err() {
        eprintln!("{form:?}: not on this processor, its {step:?} step skipped");
        return None;
    }
    Some(out.into_iter().map(|f| f.expect("reported")).collect())
}

/// The kinds step (games of at most 31 face cards), in every form, against the planes step and
/// the reference engine, game by game: random positions of up to 64 cards and standard deals.
#[test]
fn kinds_step_agrees_with_the_planes_step() {
    let mut positions = random_positions(21, 4_000, 64);
    positions.retain(|p| {
        p.hands.iter().flatten().filter(|&&c| c != 0).count() <= kinds::MAX_FACES as usize
    });
    let games = with_standard_deals(&positions, 4);
    assert!(kinds::fits(Most::of(&games)));
    let general = forced(Form::Portable, Loop::Planes, &games, 300).unwrap();
    for (p, f) in positions.iter().zip(&general) {
        agrees(p, &reference::play(p), *f, 300);
    }
    for form in Form::ALL {
        if let Some(kinds) = forced(form, Loop::Kinds, &games, 300) {
            assert!(kinds == general, "{form:?} kinds step");
        }
        if let Some(planes) = forced(form, Loop::Planes, &games, 300) {
            assert!(planes == general, "{form:?} planes step");
        }
    }
}

/// The split lanes (the random games' loop for every standard deal) in every form against the
/// planes step and the reference engine, game by game: random positions of up to 60 cards and
/// 16 face cards, standard deals among them, under the trick limits of the random games and the
/// largest the lanes take.
#[test]
fn split_lanes_agree_with_the_planes_step() {
    let mut positions = random_positions(23, 6_000, 60);
    positions.extend(random_positions(24, 2_000, 52));
    positions.retain(|p| p.hands.iter().flatten().filter(|&&c| c != 0).count() <= 16);
    let games = with_standard_deals(&positions, 5);
    assert!(kinds::fits_split(Most::of(&games)));
    for limit in [256, 1023] {
        let general = forced(Form::Portable, Loop::Planes, &games, limit).unwrap();
        for (p, f) in positions.iter().zip(&general) {
            agrees(p, &reference::play(p), *f, u64::from(limit));
        }
        for form in Form::ALL {
            if let Some(split) = forced(form, Loop::Split, &games, limit) {
                assert!(split == general, "{form:?} split lanes, limit {limit}");
            }
        }
    }
}

/// Every lane result against the reference engine, on random positions of up to 64 cards (and
/// of exactly 52), in batches of several sizes so that refills run short and long, as each
/// instruction set dispatches them, under a long trick limit and the random games' own (which
/// lets the split lanes take the games that fit them); the shape reported is the instruction set
/// asked for.
#[test]
fn lanes_agree_with_the_reference_engine() {
    for limit in [2000, LIMIT] {
        lanes_agree_under(limit);
    }
}

fn lanes_agree_under(limit: u32) {
    let mut positions = random_positions(7, 6_000, 64);
    positions.extend(random_positions(8, 3_000, 52).into_iter().map(|p| {
        let mut cards: Vec<Card> = p.hands[0].iter().chain(&p.hands[1]).copied().collect();
        cards.resize(52, 0);
        let split = p.hands[0].len().min(52);
        Position::new(cards[..split].to_vec(), cards[split..].to_vec(), p.to_move)
    }));
    let games: Vec<Game<u64>> = positions.iter().map(Game::from_position).collect();
    let wants: Vec<Outcome> = positions.iter().map(reference::play).collect();
    for isa in Isa::ALL {
        for batch in [1, 3, 8, 9, 100, 4096] {
            for (c, chunk) in games.chunks(batch).enumerate() {
                let mut seen = vec![false; chunk.len()];
                let ran = run_with_isa(isa, chunk, limit, |i, f| {
                    assert!(!seen[i], "reported twice");
                    seen[i] = true;
                    let at = c * batch + i;
                    agrees(&positions[at], &wants[at], f, u64::from(limit));
                });
                let Some(shape) = ran else {
                    eprintln!("{isa:?}: not on this processor");
                    break;
                };
                assert_eq!(shape.isa, isa);
                assert!(seen.iter().all(|&s| s), "every game reported");
            }
        }
    }
}

use crate::engine::Outcome;

/// Each form's own choice of loop for random games (what runs unless a test forces one) is a
/// loop the form runs: as many groups as the form gives that loop, at least one, and the split
/// lanes only where the form has them (AVX-512 without VBMI2 has none). The choice is a pure
/// function, so this holds every form on any processor, where the games themselves run only in
/// the best form of each instruction set the processor has.
#[test]
fn each_form_chooses_a_loop_it_runs() {
    fn check<F: Forms>() {
        let shape_of = |faces, cards| random_shape::<F>(Most { faces, cards }, LIMIT);
        for (faces, cards) in [(16, 52), (16, 60), (20, 40), (31, 64), (40, 64)] {
            let shape = shape_of(faces, cards);
            let groups = match shape.step {
                Loop::Split => F::RANDOM_SPLIT,
                Loop::Kinds => F::RANDOM_KINDS,
                Loop::Planes => F::RANDOM_PLANES,
            };
            let at = format!("{:?}, {faces} faces of {cards}: {shape}", F::FORM);
            assert!(shape.groups >= 1, "{at}");
            assert_eq!(shape.groups as usize, groups, "{at}");
            assert_eq!(shape.isa, F::FORM.isa(), "{at}");
        }
        let standard = shape_of(16, 52);
        let split = standard.step == Loop::Split;
        assert_eq!(split, F::RANDOM_SPLIT > 0, "{:?}: {standard}", F::FORM);
    }
    #[cfg(target_arch = "x86_64")]
    {
        check::<isa::Avx512Vbmi2>();
        check::<isa::Avx512>();
        check::<isa::Avx2>();
    }
    check::<isa::Portable>();
}
