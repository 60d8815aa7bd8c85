//! The 64-card lanes in every instruction-set form (AVX-512, AVX2, portable) against the portable
//! form and the reference engine, game by game; and `ansatz bench`'s default engine against the
//! bitboard engine on the same deals.

use ansatz::bench::{self, Engine};
use ansatz::card::Card;
use ansatz::engine::lanes::{Finish, Isa};
use ansatz::engine::lanes64::{self, Deal64, Lanes64};
use ansatz::engine::{Outcome, reference};
use ansatz::position::Position;
use proptest::prelude::*;

/// Every game's finish under `isa` (None, and a line saying so: the processor lacks it).
fn finishes(isa: Isa, games: &[Deal64], limit: u32) -> Option<Vec<Finish>> {
    let mut out = vec![None; games.len()];
    let ran = lanes64::run_with_isa(isa, games, limit, |i, f| {
        assert!(out[i].is_none(), "game {i} reported twice");
        out[i] = Some(f);
    });
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
fn positions(decks: &[(Vec<Card>, usize, u8)]) -> (Vec<Position>, Vec<Deal64>) {
    decks
        .iter()
        .map(|(cards, cut, mover)| {
            let cut = (*cut).min(cards.len());
            let p = Position::new(cards[..cut].to_vec(), cards[cut..].to_vec(), *mover);
            let d = Deal64::from_hands(&p.hands[0], &p.hands[1], *mover);
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
    let games: Vec<Deal64> = (0..20_000)
        .map(|i| Deal64::deal(&ansatz::deal::random_standard_cards(5, i)))
        .collect();
    let portable = finishes(Isa::Portable, &games, 256).expect("portable runs anywhere");
    for isa in [Isa::Avx2, Isa::Avx512] {
        if let Some(got) = finishes(isa, &games, 256) {
            assert!(got == portable, "{isa:?} differs from the portable lanes");
        }
    }
    let mut dispatched = vec![None; games.len()];
    Lanes64.run(&games, 256, |i, f| dispatched[i] = Some(f));
    assert!(dispatched.into_iter().map(Option::unwrap).eq(portable));
}

/// `ansatz bench`'s default engine (the lanes where the processor has them) reports the same
/// totals as the bitboard engine on the same deals.
#[test]
fn bench_default_equals_the_bitboard_engine() {
    let quiet = |_: u64| {};
    let engine = if lanes64::available() {
        Engine::Lanes
    } else {
        Engine::Bits
    };
    let fast = bench::run(30_000, 3, engine, &quiet);
    let bits = bench::run(30_000, 3, Engine::Bits, &quiet);
    assert_eq!(fast.totals, bits.totals);
    assert_eq!(fast.totals.games, 30_000);
}
