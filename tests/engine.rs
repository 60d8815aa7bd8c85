//! Engine tests: known answers (tests/data), fast == reference property tests, notation round trips,
//! and the exit codes of `ansatz play`.

use ansatz::card::{Card, DeckSpec};
use ansatz::deal::random_deal;
use ansatz::engine::{Game, Outcome, cycle, reference};
use ansatz::notation::Notation;
use ansatz::position::Position;
use proptest::prelude::*;

use super::common::{ansatz, data_lines, stdout};

fn pos(s: &str) -> Position {
    Position::parse(s, Notation::Auto).unwrap()
}

/// Every engine path on one position must give the reference engine's answer: the scalar form in
/// each plane that holds the position (`u32` up to 32 cards, `u64` up to 64, `u128` up to 128),
/// and `engine::play`, which picks the plane by size (past 128 cards it is the reference engine,
/// so there is nothing to compare).
fn all_engines_agree(p: &Position) -> Outcome {
    let r = reference::play(p);
    let n = p.total();
    if n <= 32 {
        let g = Game::<u32>::from_position(p);
        assert_eq!(cycle::play_state(&g), r, "u32 planes on {p}");
    }
    if n <= 64 {
        let g = Game::<u64>::from_position(p);
        assert_eq!(cycle::play_state(&g), r, "u64 planes on {p}");
        assert_eq!(cycle::terminates(&g), !r.is_cycle());
    }
    if n <= 128 {
        let g = Game::<u128>::from_position(p);
        assert_eq!(cycle::play_state(&g), r, "u128 planes on {p}");
        assert_eq!(ansatz::engine::play(p), r, "engine::play on {p}");
    }
    r
}

// Source: arXiv:2403.13855 (2024), Appendix C (tests/data/games-2024.txt).
#[test]
fn all_16_constructed_games_never_end() {
    let games = data_lines("games-2024.txt");
    assert_eq!(games.len(), 16);
    for g in &games {
        let p = pos(g);
        p.check_deck(&DeckSpec::STANDARD).unwrap();
        assert!(all_engines_agree(&p).is_cycle(), "{g} should cycle");
    }
}

/// Parses `key=value` fields after the position of a known-answers line.
fn field(fields: &str, key: &str) -> Option<u64> {
    fields
        .split_whitespace()
        .find_map(|f| f.strip_prefix(&format!("{key}=")))
        .map(|v| v.parse().unwrap())
}

// Source: tests/data/known-answers.txt (each group names its source: arXiv:2403.13855 Appendix D,
// Paulhus 1999, and hand-worked games from rules.md).
#[test]
fn known_answers_file() {
    let mut checked = 0;
    for line in data_lines("known-answers.txt") {
        let (kind, rest) = line.split_once(char::is_whitespace).unwrap();
        let rest = rest.trim();
        if kind == "exhaustive" {
            continue; // exhaustive counts belong to `search exhaustive`'s tests
        }
        // The position runs up to its `(n)` suffix; fields follow.
        let end = rest.find(')').map(|i| i + 1).unwrap();
        let (text, fields) = rest.split_at(end);
        let p = pos(text);
        match kind {
            "cycle" => {
                let Outcome::Cycle(c) = all_engines_agree(&p) else {
                    panic!("{text} should cycle")
                };
                if let Some(v) = field(fields, "preperiod") {
                    assert_eq!(c.preperiod, v, "{line}");
                }
                if let Some(v) = field(fields, "period") {
                    assert_eq!(c.period, v, "{line}");
                }
                if let Some(v) = field(fields, "cards_until_repeat") {
                    assert_eq!(c.cards, v, "{line}");
                }
                if let Some(v) = field(fields, "tricks_until_repeat") {
                    assert_eq!(c.tricks, v, "{line}");
                }
            }
            "trick" => {
                let next = fields.trim().strip_prefix("next=").unwrap();
                match reference::trick(&p) {
                    reference::Trick::Next { next: n, .. } => assert_eq!(n, pos(next), "{line}"),
                    t => panic!("{line}: {t:?}"),
                }
                let mut s = Game::<u64>::from_position(&p);
                s.trick();
                assert_eq!(s.to_position(), pos(next), "{line} (scalar form)");
            }
            "terminates" => {
                let Outcome::Terminates {
                    winner,
                    tricks,
                    cards,
                } = all_engines_agree(&p)
                else {
                    panic!("{text} should terminate")
                };
                assert_eq!(cards, field(fields, "cards").unwrap(), "{line}");
                assert_eq!(tricks, field(fields, "tricks").unwrap(), "{line}");
                assert_eq!(
                    winner as u64 + 1,
                    field(fields, "winner").unwrap(),
                    "{line}"
                );
            }
            other => panic!("unknown known-answer kind {other}"),
        }
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} known answers checked");
}

// Source: arXiv:2403.13855 (2024), Appendix D: the balanced deal reaches the cycle of the constructed deck.
#[test]
fn paper_deal_and_its_deck_share_a_cycle_id() {
    let a = ansatz::engine::play(&pos(
        "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)",
    ));
    let b = ansatz::engine::play(&pos(
        "--K---A----AAJ--J--------K---------Q-Q-K---Q-KAQJ-/J- (1)",
    ));
    let (Outcome::Cycle(a), Outcome::Cycle(b)) = (a, b) else {
        panic!("both cycle")
    };
    assert_eq!(a.cycle_id, b.cycle_id);
    assert_eq!((a.preperiod, a.period, a.tricks, a.cards), (4, 62, 66, 474));
    assert_eq!(b.preperiod, 0);
}

#[test]
fn empty_hand_is_already_over() {
    let o = all_engines_agree(&pos("J-/ (1)"));
    assert_eq!(
        o,
        Outcome::Terminates {
            winner: 0,
            tricks: 0,
            cards: 0
        }
    );
}

#[test]
fn sizes_stay_small() {
    assert!(std::mem::size_of::<Game<u64>>() <= 96);
    assert!(std::mem::size_of::<Game<u32>>() <= 64);
}

fn arb_cards(max: usize) -> impl Strategy<Value = Vec<Card>> {
    prop::collection::vec(
        prop_oneof![6 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8), 1 => Just(3u8), 1 => Just(4u8)],
        0..=max,
    )
}

fn arb_position(max: usize) -> impl Strategy<Value = Position> {
    (arb_cards(max), arb_cards(max), 0u8..2)
        .prop_filter("some cards", |(a, b, _)| !a.is_empty() || !b.is_empty())
        .prop_map(|(a, b, m)| Position::new(a, b, m))
}

/// A deck shuffled by the project's own seeded dealer, split at `cut`, with `mover` to move.
fn dealt(deck: &DeckSpec, seed: u64, cut: usize, mover: u8) -> Position {
    let p = random_deal(deck, seed, 0);
    let all: Vec<Card> = p.hands[0].iter().chain(&p.hands[1]).copied().collect();
    let cut = cut % (all.len() + 1);
    Position::new(all[..cut].to_vec(), all[cut..].to_vec(), mover)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn fast_equals_reference_standard(seed in any::<u64>(), mover in 0u8..2) {
        all_engines_agree(&dealt(&DeckSpec::STANDARD, seed, 26, mover));
    }

    #[test]
    fn fast_equals_reference_unbalanced_standard(seed in any::<u64>(), cut in 0usize..53, mover in 0u8..2) {
        all_engines_agree(&dealt(&DeckSpec::STANDARD, seed, cut, mover));
    }

    #[test]
    fn fast_equals_reference_camicia(seed in any::<u64>(), mover in 0u8..2) {
        all_engines_agree(&dealt(&DeckSpec::CAMICIA, seed, 20, mover));
    }

    #[test]
    fn fast_equals_reference_small_decks(p in arb_position(12)) {
        all_engines_agree(&p);
    }

    #[test]
    fn notation_round_trips(p in arb_position(30)) {
        let text = p.to_string();
        prop_assert_eq!(Position::parse(&text, Notation::Auto).unwrap(), p.clone());
        prop_assert_eq!(Position::parse(&text, Notation::Dash).unwrap(), p.clone());
        // The same position in Paulhus digits and in playing cards.
        let digits: String = format!("{}/{} ({})",
            p.hands[0].iter().map(|c| char::from(b'0' + c)).collect::<String>(),
            p.hands[1].iter().map(|c| char::from(b'0' + c)).collect::<String>(), p.to_move + 1);
        prop_assert_eq!(Position::parse(&digits, Notation::Digits).unwrap(), p.clone());
        const RANKS: [&str; 5] = ["7♣", "JH", "Q♦", "KS", "A♠"];
        let cards = |h: &[Card]| h.iter().map(|&c| RANKS[c as usize]).collect::<Vec<_>>().join(" ");
        let text = format!("{} / {} ({})", cards(&p.hands[0]), cards(&p.hands[1]), p.to_move + 1);
        if p.hands.iter().flatten().count() > 0 {
            prop_assert_eq!(Position::parse(&text, Notation::Cards).unwrap(), p.clone());
        }
        if let Some(k) = p.pack() {
            prop_assert_eq!(Position::unpack(k, p.total()), p);
        }
    }

    /// Exchanging the players exchanges the winner and maps the cycle onto its mirror.
    #[test]
    fn mirror_plays_the_mirror_game(seed in any::<u64>(), cut in 10usize..43, mover in 0u8..2) {
        let p = dealt(&DeckSpec::STANDARD, seed, cut, mover);
        let (a, b) = (ansatz::engine::play(&p), ansatz::engine::play(&p.mirrored()));
        prop_assert_eq!(a.tricks(), b.tricks());
        prop_assert_eq!(a.cards(), b.cards());
        match (a, b) {
            (Outcome::Terminates { winner: w, .. }, Outcome::Terminates { winner: v, .. }) => {
                prop_assert_eq!(w, 1 - v)
            }
            (Outcome::Cycle(c), Outcome::Cycle(d)) => {
                let back = ansatz::engine::play(&d.cycle_id.mirrored());
                prop_assert_eq!(back.is_cycle(), true);
                if let Outcome::Cycle(e) = back {
                    prop_assert_eq!(e.cycle_id, c.cycle_id);
                }
            }
            _ => prop_assert!(false, "one game ends, its mirror does not"),
        }
        prop_assert_eq!(p.mirrored().mirrored(), p);
    }

    #[test]
    fn pack_order_is_key_order(a in arb_position(10), b in arb_position(10)) {
        if a.total() == b.total() {
            prop_assert_eq!(a.pack().cmp(&b.pack()), a.key_cmp(&b));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Two packs (104 cards) play in `u128` planes, split anywhere.
    #[test]
    fn fast_equals_reference_two_packs(seed in any::<u64>(), cut in 0usize..105, mover in 0u8..2) {
        let deck = DeckSpec { counts: DeckSpec::STANDARD.counts.map(|c| c * 2) };
        let p = dealt(&deck, seed, cut, mover);
        prop_assert_eq!(p.total(), 104);
        all_engines_agree(&p);
    }

    /// Past 128 cards (three packs and more, over 150 cards a hand) `engine::play` hands the game
    /// to the reference engine: it answers, and exchanging the players exchanges the winner.
    #[test]
    fn huge_hands_play_and_mirror(seed in any::<u64>(), decks in 6u32..9, mover in 0u8..2) {
        let deck = DeckSpec { counts: DeckSpec::STANDARD.counts.map(|c| c * decks) };
        let total = deck.total();
        let p = dealt(&deck, seed, total / 2 + (seed as usize % 7), mover);
        prop_assert!(p.hands[0].len() > 150);
        let (a, b) = (ansatz::engine::play(&p), ansatz::engine::play(&p.mirrored()));
        prop_assert_eq!((a.tricks(), a.cards()), (b.tricks(), b.cards()));
    }
}

#[test]
fn play_cli_known_answer_and_json() {
    let o = ansatz(&[
        "play",
        "--json",
        "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)",
    ]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["outcome"], "cycle");
    assert_eq!(v["preperiod"], 4);
    assert_eq!(v["period"], 62);
    assert_eq!(v["cards"], 474);
    assert_eq!(v["tricks"], 66);
    // Default position: the same deal.
    let d = ansatz(&["play", "--json"]);
    assert_eq!(stdout(&d), stdout(&o));
    let t = ansatz(&["play", "--json", "2 / 3"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&t)).unwrap();
    assert_eq!(
        (v["outcome"].as_str(), v["winner"].as_u64()),
        (Some("terminates"), Some(2))
    );
}

#[test]
fn play_cli_trace_ends_at_the_repeat() {
    let o = ansatz(&["play", "--trace", "J--/-J-"]);
    let text = stdout(&o);
    assert!(text.contains("--J-/J- (1)"));
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    // Positions at tricks 0..=3: trick 3 repeats trick 1 (preperiod 1, period 2).
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[3].ends_with("--J-/J- (1)"), "{text}");
}

#[test]
fn bad_input_exits_2_with_a_message() {
    for (args, needle) in [
        (vec!["play", "--X/J-"], "unknown character"),
        (vec!["play", "--J-"], "missing '/'"),
        (vec!["play", "--/J- (3)"], "(1) or (2)"),
        (vec!["play", ""], "empty position"),
        (vec!["play", "   "], "empty position"),
        (vec!["play", "0123/234"], "--notation digits"),
        (
            vec!["play", "--deck", "standard", "J-/J-"],
            "do not match deck",
        ),
        (vec!["play", "--deck", "8-2X", "J-/J-"], "bad deck spec"),
        (
            vec!["play", "--notation", "digits", "05/1"],
            "unknown character",
        ),
    ] {
        let o = ansatz(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_eq!(
            err.lines().count(),
            1,
            "one-line message for {args:?}: {err}"
        );
    }
}

#[test]
fn bench_is_reproducible_across_thread_counts() {
    let run = |t: &str| {
        let o = ansatz(&[
            "bench",
            "--games",
            "20000",
            "--seed",
            "7",
            "--threads",
            t,
            "--json",
        ]);
        assert!(o.status.success());
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        (
            v["games"].clone(),
            v["cycles"].clone(),
            v["mean_cards"].clone(),
            v["mean_tricks"].clone(),
        )
    };
    assert_eq!(run("1"), run("2"));
}
