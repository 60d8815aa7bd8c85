//! Engine tests: known answers (shared/data), fast == reference, notation round trips, exit codes.

use ansatz::engine::{Outcome, reference};
use ansatz::notation::Notation;
use ansatz::position::Position;

fn pos(s: &str) -> Position {
    Position::parse(s, Notation::Auto).unwrap()
}

// Source: arXiv:2403.13855 (2024), Appendix C (shared/data/games-2024.txt).
#[test]
fn all_16_constructed_games_never_end() {
    let games = super::common::data_lines("games-2024.txt");
    assert_eq!(games.len(), 16);
    for g in &games {
        let p = pos(g);
        let fast = ansatz::engine::play(&p);
        assert!(fast.is_cycle(), "{g} should cycle, got {fast:?}");
        assert_eq!(fast, reference::play(&p), "{g}");
    }
}

// Source: arXiv:2403.13855 (2024), Appendix D (shared/data/known-answers.txt).
#[test]
fn paper_deal_preperiod_4_period_62() {
    let p = pos("---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)");
    let Outcome::Cycle(c) = ansatz::engine::play(&p) else {
        panic!("the 2024 deal cycles")
    };
    assert_eq!((c.preperiod, c.period, c.tricks, c.cards), (4, 62, 66, 474));
}
