//! The 64-card lanes in every instruction-set form (AVX-512, AVX2, portable) against the portable
//! form and the reference engine, game by game; and `ansatz bench`'s engines against each other
//! and the reference engine on the same deals.

use ansatz::bench::{self, Engine};
use ansatz::card::Card;
use ansatz::engine::lanes;
use ansatz::engine::{Finish, Game, Isa, Outcome, reference};
use ansatz::position::Position;
use proptest::prelude::*;

/// Every game's finish under `isa` (None, and a line saying so: the processor lacks it).
fn finishes(isa: Isa, games: &[Game<u64>], limit: u32) -> Option<Vec<Finish>> {
    let mut out = vec![None; games.len()];
    let ran = lanes::run_with_isa(isa, games, limit, |i, f| {
        assert!(out[i].is_none(), "game {i} reported twice");
        out[i] = Some(f);
    })
    .is_some();
    if !ran {
        eprintln!("{}: skipped, this processor lacks it", isa.name());
    }
    ran.then(|| {
        out.into_iter()
            .enumerate()
            .map(|(i, f)| f.unwrap_or_else(|| panic!("game {i} not reported")))
            .collect()
    })
}

/// The finish the lanes owe a game played to `limit` tricks, from the reference engine.
fn expected(p: &Position, limit: u32) -> Finish {
    match reference::play(p) {
        Outcome::Terminates {
            winner,
            tricks,
            cards,
        } if tricks <= u64::from(limit) => Finish::Won {
            winner,
            tricks,
            cards,
        },
        _ => Finish::TooLong,
    }
}

/// Positions from cards (0 number card, 1..=4 J Q K A), a cut and the player to move.
fn positions(decks: &[(Vec<Card>, usize, u8)]) -> (Vec<Position>, Vec<Game<u64>>) {
    decks
        .iter()
        .map(|(cards, cut, mover)| {
            let cut = (*cut).min(cards.len());
            let p = Position::new(cards[..cut].to_vec(), cards[cut..].to_vec(), *mover);
            let d = Game::<u64>::from_hands(&p.hands[0], &p.hands[1], *mover);
            (p, d)
        })
        .unzip()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A batch of random positions (up to 64 cards, any split, either player to move) under a
    /// random trick limit: every form gives every game the reference engine's finish, where a
    /// game ends within the limit, and TooLong otherwise. Near limits hit the trick counter.
    #[test]
    fn every_form_agrees_with_the_reference_engine(
        decks in prop::collection::vec(
            (prop::collection::vec(prop::sample::select(vec![0u8, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4]), 1..=64),
             0usize..=64, 0u8..2),
            1..80),
        limit in prop::sample::select(vec![1u32, 2, 5, 30, 2000]),
    ) {
        let (pos, games) = positions(&decks);
        let want: Vec<Finish> = pos.iter().map(|p| expected(p, limit)).collect();
        for isa in [Isa::Portable, Isa::Avx2, Isa::Avx512] {
            if let Some(got) = finishes(isa, &games, limit) {
                for (i, (w, g)) in want.iter().zip(&got).enumerate() {
                    prop_assert_eq!(w, g, "{:?}: {}", isa, pos[i]);
                }
            }
        }
    }
}

/// Whole random standard deals (the load of `ansatz bench`), in a batch long enough for many
/// refills: every form and the dispatched run give the same finish, game by game.
#[test]
fn forms_agree_on_standard_deals() {
    let games: Vec<Game<u64>> = (0..20_000)
        .map(|i| Game::deal(&ansatz::deal::random_standard_cards(5, i)))
        .collect();
    let portable = finishes(Isa::Portable, &games, 256).expect("portable runs anywhere");
    for isa in [Isa::Avx2, Isa::Avx512] {
        if let Some(got) = finishes(isa, &games, 256) {
            assert!(got == portable, "{isa:?} differs from the portable lanes");
        }
    }
    let mut dispatched = vec![None; games.len()];
    lanes::run(&games, 256, |i, f| dispatched[i] = Some(f));
    assert!(dispatched.into_iter().map(Option::unwrap).eq(portable));
}

/// `ansatz bench`'s engines report the same totals on the same deals: the scalar engine as the
/// reference engine, and the lanes (where the processor has them; else the test says so) as the
/// scalar engine.
#[test]
fn bench_engines_agree_with_the_reference_engine() {
    let quiet = |_: u64| {};
    let bits = bench::run(4_000, 3, Engine::Bits, &quiet);
    assert_eq!(
        bench::run(4_000, 3, Engine::Reference, &quiet).totals,
        bits.totals
    );
    assert_eq!(bits.totals.games, 4_000);
    if !lanes::available() {
        eprintln!("bench_engines_agree_with_the_reference_engine: no lanes on this processor");
        return;
    }
    let lanes = bench::run(30_000, 3, Engine::Lanes, &quiet);
    assert_eq!(
        lanes.totals,
        bench::run(30_000, 3, Engine::Bits, &quiet).totals
    );
    assert_eq!(lanes.totals.games, 30_000);
}
