//! Backward play: predecessors (fast == replay == brute force, forward(p') == p), closures (parallel
//! BFS == visited-set BFS), families, extension, and the commands' exit codes.

use std::collections::BTreeSet;

use ansatz::backward::closure::{self, Config, Node, Seed};
use ansatz::backward::{Compact, extend, family, predecessors, reference};
use ansatz::card::Card;
use ansatz::engine::reference::{Trick, trick};
use ansatz::engine::{Outcome, play};
use ansatz::notation::Notation;
use ansatz::position::Position;
use proptest::prelude::*;

use super::common::{ansatz, stdout};

const PAPER_DEAL: &str = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)";

fn pos(s: &str) -> Position {
    Position::parse(s, Notation::Auto).unwrap()
}

fn fast_preds(p: &Position) -> Vec<Position> {
    let c = Compact::from_position(p).unwrap();
    predecessors::predecessors(&c)
        .iter()
        .map(Compact::to_position)
        .collect()
}

/// Brute force: every split of every suffix of the winner's hand between the two players, both
/// leaders; keep what one forward trick takes back to `p`.
fn brute_force(p: &Position) -> BTreeSet<String> {
    let w = p.to_move as usize;
    let hw = &p.hands[w];
    let mut out = BTreeSet::new();
    for len in 1..=hw.len() {
        let split = hw.len() - len;
        let pile = &hw[split..];
        for mask in 0u32..(1 << len) {
            let mut hands: [Vec<Card>; 2] = [Vec::new(), Vec::new()];
            for (i, &c) in pile.iter().enumerate() {
                let owner = if mask >> i & 1 == 1 { w } else { w ^ 1 };
                hands[owner].push(c);
            }
            hands[w].extend_from_slice(&hw[..split]);
            hands[w ^ 1].extend_from_slice(&p.hands[w ^ 1]);
            for leader in 0..2 {
                let cand = Position {
                    hands: hands.clone(),
                    to_move: leader,
                };
                if matches!(trick(&cand), Trick::Next { ref next, .. } if next == p) {
                    out.insert(cand.to_string());
                }
            }
        }
    }
    out
}

fn strings(v: &[Position]) -> BTreeSet<String> {
    v.iter().map(Position::to_string).collect()
}

/// Cards weighted towards number cards, as in real decks, so that tricks are long enough.
fn card() -> impl Strategy<Value = Card> {
    prop_oneof![6 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8), 1 => Just(3u8), 1 => Just(4u8)]
}

fn position(max: usize) -> impl Strategy<Value = Position> {
    (
        prop::collection::vec(card(), 0..=max),
        prop::collection::vec(card(), 0..=max),
        0u8..2,
    )
        .prop_filter("some card", |(a, b, _)| !a.is_empty() || !b.is_empty())
        .prop_map(|(a, b, m)| Position::new(a, b, m))
}

/// Half random positions (most have no predecessor), half positions one trick after a random one
/// (which have at least that one).
fn position_or_successor(max: usize) -> impl Strategy<Value = Position> {
    prop_oneof![
        position(max),
        position(max).prop_map(|q| match trick(&q) {
            Trick::Next { next, .. } => next,
            Trick::End { .. } => q,
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn fast_predecessors_equal_the_replay_and_lead_back(p in position_or_successor(20)) {
        let fast = fast_preds(&p);
        let slow = reference::predecessors(&p);
        prop_assert_eq!(strings(&fast), strings(&slow));
        prop_assert_eq!(strings(&fast).len(), fast.len(), "duplicates");
        for q in &fast {
            let back = trick(q);
            prop_assert!(matches!(back, Trick::Next { ref next, .. } if next == &p), "{} -> {:?}", q, back);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn predecessors_equal_brute_force(p in position_or_successor(7)) {
        prop_assert_eq!(strings(&fast_preds(&p)), brute_force(&p));
    }

    /// The parallel BFS (no visited set) against the visited-set reference, on the cycle or the
    /// path of random small games.
    #[test]
    fn closure_equals_reference(p in position_or_successor(7)) {
        let seeds = seeds_of(&p);
        let fast = closure::closure(&seeds, &Config::default(), &|_| {});
        let plain = reference::closure(&seeds.iter().map(|s| s.node.pos.to_position()).collect::<Vec<_>>());
        prop_assert!(fast.complete);
        prop_assert_eq!(fast.size, plain.size);
        let checked = closure::closure_with_visited_set(&seeds, &Config::default(), &|_| {});
        prop_assert_eq!((checked.size, checked.duplicates), (plain.size, 0));
        prop_assert_eq!(fast.max_depth as u64, plain.max_depth);
        prop_assert_eq!((fast.reach, checked.reach), (plain.reach, plain.reach));
        let mut balanced: Vec<String> = fast.balanced.iter().map(|n| n.pos.to_position().to_string()).collect();
        balanced.sort();
        prop_assert_eq!(balanced, plain.balanced);
    }
}

/// The cycle of `p` if it has one, otherwise its path, as seeds.
fn seeds_of(p: &Position) -> Vec<Seed> {
    let node = |pos: Compact| Node {
        pos,
        tricks: 0,
        cards: 0,
    };
    match play(p) {
        Outcome::Cycle(info) => {
            let cyc = family::cycle_positions(&info);
            let k = cyc.len();
            (0..k)
                .map(|i| Seed {
                    node: node(cyc[i]),
                    skip: Some(cyc[(i + k - 1) % k]),
                })
                .collect()
        }
        Outcome::Terminates { .. } => {
            let mut seeds: Vec<Seed> = Vec::new();
            let mut cur = p.clone();
            loop {
                seeds.push(Seed {
                    node: node(Compact::from_position(&cur).unwrap()),
                    skip: seeds.last().map(|s| s.node.pos),
                });
                match trick(&cur) {
                    Trick::Next { next, .. } => cur = next,
                    Trick::End { .. } => return seeds,
                }
            }
        }
    }
}

// Source: arXiv:2403.13855 (2024), Appendix D (tests/data/known-answers.txt): the first trick of the cycle.
#[test]
fn paper_trick_is_found_backwards() {
    let before = "--K---A----AAJ--J--------K---------Q-Q-K---Q-KAQJ-/J- (1)";
    let after = pos("K---A----AAJ--J--------K---------Q-Q-K---Q-KAQJ-/--J- (2)");
    let preds = ansatz::backward::predecessors(&after).unwrap();
    assert!(strings(&preds).contains(before), "{preds:?}");
}

#[test]
fn empty_hand_has_no_predecessor() {
    assert!(fast_preds(&pos("----J-/ (1)")).is_empty());
    assert!(reference::predecessors(&pos("----J-/ (1)")).is_empty());
}

// Source: arXiv:2403.13855 (2024), "Expansion": J--/-J- cycles with preperiod 1, period 2.
#[test]
fn family_of_the_six_card_game() {
    let p = pos("J--/-J- (1)");
    let f = family(&p, &Config::default(), &|_| {}).unwrap();
    assert_eq!((f.cycle.preperiod, f.cycle.period), (1, 2));
    let plain = reference::closure(
        &family::cycle_positions(&f.cycle)
            .iter()
            .map(Compact::to_position)
            .collect::<Vec<_>>(),
    );
    assert_eq!(f.closure_size, plain.size);
    assert_eq!(f.max_depth, plain.max_depth);
    assert_eq!((f.reach, plain.reach), (3, 3));
    assert_eq!(
        strings(&f.balanced).into_iter().collect::<Vec<_>>(),
        plain.balanced
    );
    assert!(strings(&f.balanced).contains("J--/-J- (1)"));
}

// Source: arXiv:2403.13855 (2024): the balanced non-terminating deal was found by playing backwards
// from its cycle, so it is a balanced deal of its own family.
#[test]
fn paper_deal_is_in_its_family() {
    let p = pos(PAPER_DEAL);
    let f = family(&p, &Config::default(), &|_| {}).unwrap();
    assert!(f.complete);
    assert_eq!((f.cycle.preperiod, f.cycle.period), (4, 62));
    assert!(strings(&f.balanced).contains(PAPER_DEAL));
    assert!(
        f.balanced
            .iter()
            .all(|b| b.hands[0].len() == 26 && b.hands[1].len() == 26)
    );
    // Every balanced deal of the family reaches the same cycle.
    for b in &f.balanced {
        let Outcome::Cycle(c) = play(b) else {
            panic!("{b} should cycle")
        };
        assert_eq!(c.cycle_id, f.cycle.cycle_id);
    }
    // The visited-set BFS finds the same closure and never meets a position twice.
    let cyc = family::cycle_positions(&f.cycle);
    let k = cyc.len();
    let seeds: Vec<Seed> = (0..k)
        .map(|i| Seed {
            node: Node {
                pos: cyc[i],
                tricks: 0,
                cards: 0,
            },
            skip: Some(cyc[(i + k - 1) % k]),
        })
        .collect();
    let checked = closure::closure_with_visited_set(&seeds, &Config::default(), &|_| {});
    assert_eq!(checked.duplicates, 0);
    assert_eq!(checked.size, f.closure_size);
    assert_eq!(checked.balanced.len(), f.balanced.len());
    // And the plain visited-set BFS over whole positions agrees on everything.
    let plain = reference::closure(&cyc.iter().map(Compact::to_position).collect::<Vec<_>>());
    assert_eq!(plain.size, f.closure_size);
    assert_eq!(plain.max_depth, f.max_depth);
    // A family with balanced deals reaches half the deck.
    assert_eq!((plain.reach, f.reach, checked.reach), (26, 26, 26));
    assert_eq!(
        plain.balanced,
        f.balanced
            .iter()
            .map(Position::to_string)
            .collect::<Vec<_>>()
    );
}

#[test]
fn max_positions_stops_the_search() {
    let p = pos(PAPER_DEAL);
    let cfg = Config {
        max_positions: 100,
        ..Config::default()
    };
    let f = family(&p, &cfg, &|_| {}).unwrap();
    assert!(!f.complete);
    assert!(f.closure_size > 100);
}

#[test]
fn terminating_game_has_no_family() {
    let e = family(&pos("Q-/--J- (1)"), &Config::default(), &|_| {}).unwrap_err();
    assert_eq!(e.to_string(), "terminates after 2 tricks: no cycle");
}

#[test]
fn extension_games_are_longer_and_verified() {
    let p = pos("--K---Q----A-----J-----A-Q/--J---K----K---J-AQ--A-- (1)");
    let cfg = extend::ExtendConfig {
        top: 5,
        max_positions: 2_000_000,
    };
    let x = extend::extend(&p, &cfg, &|_| {}).unwrap();
    assert!(x.closure_size >= x.path);
    for g in x.by_cards.iter().chain(&x.by_tricks) {
        assert!(g.position.is_balanced());
        assert_eq!(
            ansatz::engine::reference::play(&g.position),
            Outcome::Terminates {
                winner: g.winner,
                tricks: g.tricks,
                cards: g.cards
            }
        );
    }
    assert!(x.by_cards.windows(2).all(|w| w[0].cards >= w[1].cards));
    assert!(x.by_tricks.windows(2).all(|w| w[0].tricks >= w[1].tricks));
}

fn code(o: &std::process::Output) -> i32 {
    o.status.code().expect("exit code")
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn predecessors_command_prints_checked_positions() {
    let o = ansatz(&[
        "predecessors",
        "--json",
        "K---A----AAJ--J--------K---------Q-Q-K---Q-KAQJ-/--J- (2)",
    ]);
    assert_eq!(code(&o), 0);
    let v: Vec<String> = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v.contains(&"--K---A----AAJ--J--------K---------Q-Q-K---Q-KAQJ-/J- (1)".to_string()));
    let o = ansatz(&["predecessors", "J--/-J- (2)"]);
    assert_eq!(stdout(&o), "-J--/J- (2)\n--J--/J (1)\n");
    // No predecessor: an empty list, exit 1 (nothing found), as the README's exit codes say.
    let o = ansatz(&["predecessors", "--json", "--/-- (1)"]);
    assert_eq!((code(&o), stdout(&o).trim()), (1, "[]"));
    let o = ansatz(&["predecessors", "--/-- (1)"]);
    assert_eq!((code(&o), stdout(&o).as_str()), (1, ""));
}

#[test]
fn family_command_reports_the_paper_deal() {
    let o = ansatz(&["family", "--json", "--threads", "2", PAPER_DEAL]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    for key in [
        "cycle_id",
        "preperiod",
        "period",
        "closure_size",
        "balanced",
        "max_depth",
        "deepest",
        "positions_per_second",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(
        (v["preperiod"].as_u64(), v["period"].as_u64()),
        (Some(4), Some(62))
    );
    let balanced: Vec<String> = serde_json::from_value(v["balanced"].clone()).unwrap();
    assert!(balanced.iter().any(|b| b == PAPER_DEAL));
    assert!(balanced.windows(2).all(|w| w[0] < w[1]), "sorted");
    // Same answer on one thread, and with the visited set (which meets no position twice).
    let o2 = ansatz(&["family", "--json", "--visited-set", PAPER_DEAL]);
    let v2: serde_json::Value = serde_json::from_str(&stdout(&o2)).unwrap();
    assert_eq!(
        (&v2["closure_size"], &v2["balanced"], &v2["duplicates"]),
        (&v["closure_size"], &v["balanced"], &serde_json::json!(0))
    );
    let o1 = ansatz(&["family", "--json", "--threads", "1", PAPER_DEAL]);
    let v1: serde_json::Value = serde_json::from_str(&stdout(&o1)).unwrap();
    assert_eq!(
        (&v1["closure_size"], &v1["balanced"], &v1["deepest"]),
        (&v["closure_size"], &v["balanced"], &v["deepest"])
    );
}

#[test]
fn family_command_writes_its_out_file() {
    let dir = crate::common::scratch_root().join(format!("ansatz-family-{}", std::process::id()));
    let file = dir.join("family.json");
    let o = ansatz(&[
        "family",
        "--json",
        "--out",
        file.to_str().unwrap(),
        "J--/-J-",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(
        saved["closure_size"],
        serde_json::from_str::<serde_json::Value>(&stdout(&o)).unwrap()["closure_size"]
    );
    assert!(
        saved["run"]["command"]
            .as_str()
            .unwrap()
            .starts_with("ansatz family")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn family_exits_1_when_the_game_ends_or_the_limit_is_hit() {
    let o = ansatz(&["family", "Q-/--J- (1)"]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("terminates after 2 tricks: no cycle"),
        "{}",
        stderr(&o)
    );
    let o = ansatz(&["family", "--json", "--max-positions", "100", PAPER_DEAL]);
    assert_eq!(code(&o), 1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["complete"], false);
    assert!(v["closure_size"].as_u64().unwrap() > 100);
}

#[test]
fn extend_command_reports_longer_verified_games() {
    let o = ansatz(&[
        "extend",
        "--json",
        "--top",
        "3",
        "--results",
        "/nonexistent/never-written",
        "--K---Q----A-----J-----A-Q/--J---K----K---J-AQ--A-- (1)",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let games = v["by_cards"].as_array().unwrap();
    assert_eq!(games.len(), 3);
    for g in games {
        let p = pos(g["position"].as_str().unwrap());
        assert!(p.is_balanced());
        assert_eq!(play(&p).cards(), g["cards"].as_u64().unwrap());
    }
    assert!(games[0]["cards"].as_u64() > v["cards"].as_u64());
    let o = ansatz(&["extend", "J--/-J-"]);
    assert_eq!(code(&o), 1, "a cycle has nothing to extend");
}

#[test]
fn extend_writes_long_games_to_results() {
    let dir = crate::common::scratch_root().join(format!("ansatz-extend-{}", std::process::id()));
    let o = ansatz(&[
        "extend",
        "--json",
        "--top",
        "2",
        "--record-cards",
        "400",
        "--record-tricks",
        "100000",
        "--results",
        dir.to_str().unwrap(),
        "--K---Q----A-----J-----A-Q/--J---K----K---J-AQ--A-- (1)",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let written = v["written"].as_array().unwrap();
    assert!(!written.is_empty());
    for w in written {
        let saved: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(w.as_str().unwrap()).unwrap()).unwrap();
        assert!(saved["cards"].as_u64().unwrap() > 400);
        let p = pos(saved["position"].as_str().unwrap());
        assert_eq!(play(&p).cards(), saved["cards"].as_u64().unwrap());
    }
    // Only finished files: a JSON line and a text summary per game, no temporary files.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2 * written.len(), "{names:?}");
    assert!(names.iter().all(|n| !n.starts_with('.')));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_exits_2() {
    for args in [
        &["predecessors", "XYZ/--"][..],
        &["predecessors", "--deck", "standard", "J--/-J- (2)"],
        &["predecessors", "J--/-J- (3)"],
        &["family", "J--/-J-/--"],
        &["family", "--max-positions", "0"],
        &["family", "--deck", "8-2X", "J--/-J-"],
        &["family", "--threads", "0", "J--/-J-"],
        &["extend", "--top", "0", "Q-/--J- (1)"],
        &["extend", "Q-/--J- (1"],
        &["extend"],
    ] {
        let o = ansatz(args);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}");
    }
}

/// Positions past the compact layout (more than 64 cards) go through the plain replay.
#[test]
fn large_positions_use_the_replay() {
    let big = format!("{}/{}J- (2)", "-".repeat(40), "-".repeat(28));
    let p = pos(&big);
    assert!(p.total() > ansatz::backward::COMPACT_MAX_CARDS);
    let preds = ansatz::backward::predecessors(&p).unwrap();
    assert_eq!(strings(&preds), strings(&reference::predecessors(&p)));
    assert!(!preds.is_empty());
    let o = ansatz(&["family", &big]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
}

/// Cycles of random small deals, for the resume tests.
fn small_cycles(seed: u64, want: usize) -> Vec<ansatz::engine::CycleInfo> {
    let deck: ansatz::card::DeckSpec = "8-2J2Q2K2A".parse().unwrap();
    let mut out: Vec<ansatz::engine::CycleInfo> = Vec::new();
    for i in 0..1_000_000u64 {
        if let Outcome::Cycle(info) = play(&ansatz::deal::random_deal(&deck, seed, i))
            && !out.iter().any(|c| c.cycle_id == info.cycle_id)
        {
            out.push(info);
            if out.len() == want {
                break;
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    // A closure saved at any level boundary (through the checkpoint file) and continued gives
    // exactly the uninterrupted closure, partial ones (--max-positions) included.
    #[test]
    fn closure_resumed_at_any_level_equals_the_uninterrupted_one(seed in 0u64..1_000_000, limit in prop::sample::select(vec![u64::MAX, 300, 2000])) {
        use ansatz::backward::level_checkpoint::{LevelState, load, save};
        let dir = crate::common::scratch_root().join(format!("ansatz-resume-{}-{seed}", std::process::id()));
        let path = dir.join("c.checkpoint");
        for info in small_cycles(seed, 2) {
            let seeds = family::cycle_seeds(&family::cycle_positions(&info));
            let cfg = Config { max_positions: limit, ..Config::default() };
            let whole = closure::closure(&seeds, &cfg, &|_| {});
            let mut states = Vec::new();
            let again = closure::closure_resumable(&seeds, &cfg, &|_| {}, None, &mut |o, f| {
                states.push(LevelState::of(o, f));
                true
            })
            .unwrap();
            prop_assert_eq!(&again.balanced, &whole.balanced);
            for st in states {
                save(&path, "job", &st, 7.25).unwrap();
                let (back, seconds) = load(&path, "job").unwrap();
                prop_assert_eq!(&back, &st);
                prop_assert_eq!(seconds, 7.25);
                // Stop right away once more, then continue from the saved level.
                let stopped = closure::closure_resumable(&seeds, &cfg, &|_| {}, Some(back.clone()), &mut |_, _| false);
                prop_assert!(stopped.is_none());
                let r = closure::closure_resumable(&seeds, &cfg, &|_| {}, Some(back), &mut |_, _| true).unwrap();
                prop_assert_eq!(r.size, whole.size);
                prop_assert_eq!(r.max_depth, whole.max_depth);
                prop_assert_eq!(r.deepest, whole.deepest);
                prop_assert_eq!(r.complete, whole.complete);
                prop_assert_eq!(&r.balanced, &whole.balanced);
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The JSON of a family run without its timing fields.
fn untimed(o: &std::process::Output) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(&stdout(o)).unwrap();
    let m = v.as_object_mut().unwrap();
    m.remove("seconds");
    m.remove("positions_per_second");
    v
}

/// Adds `more` seconds to the time a family checkpoint holds (its fingerprint read from the file).
fn add_seconds_to_level_checkpoint(path: &str, more: f64) {
    use ansatz::backward::level_checkpoint::{load, save};
    let bytes = std::fs::read(path).unwrap();
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let fingerprint = String::from_utf8(bytes[16..16 + len].to_vec()).unwrap();
    let (state, seconds) = load(path.as_ref(), &fingerprint).unwrap();
    save(path.as_ref(), &fingerprint, &state, seconds + more).unwrap();
}

#[test]
fn family_stopped_and_resumed_gives_the_uninterrupted_answer() {
    let dir =
        crate::common::scratch_root().join(format!("ansatz-famresume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let whole = ansatz(&["family", "--json", PAPER_DEAL]);
    assert_eq!(code(&whole), 0);
    for (levels, limit) in [("1", "50000000"), ("4", "50000000"), ("2", "2000")] {
        let out = dir.join(format!("f{levels}-{limit}.json"));
        let out = out.to_str().unwrap();
        let ck = format!("{out}.checkpoint");
        let first = ansatz(&[
            "family",
            "--json",
            "--out",
            out,
            "--max-positions",
            limit,
            "--stop-after-levels",
            levels,
            PAPER_DEAL,
        ]);
        assert_eq!(code(&first), 1, "{}", stderr(&first));
        assert!(stderr(&first).contains("--resume"), "{}", stderr(&first));
        assert!(std::path::Path::new(&ck).exists());
        // Starting over an unfinished run's checkpoint is refused.
        let again = ansatz(&[
            "family",
            "--json",
            "--out",
            out,
            "--max-positions",
            limit,
            PAPER_DEAL,
        ]);
        assert_eq!(code(&again), 2);
        assert!(
            stderr(&again).contains("add --resume"),
            "{}",
            stderr(&again)
        );
        // The checkpoint holds the job's time; make it 1000 s more, as a long first run would
        // leave it: the resumed run counts it with its own.
        add_seconds_to_level_checkpoint(&ck, 1000.0);
        let resumed = ansatz(&[
            "family",
            "--json",
            "--resume",
            "--out",
            out,
            "--max-positions",
            limit,
            "--threads",
            "1",
            PAPER_DEAL,
        ]);
        let secs = serde_json::from_str::<serde_json::Value>(&stdout(&resumed)).unwrap()["seconds"]
            .as_f64()
            .unwrap();
        assert!((1000.0..1100.0).contains(&secs), "{secs}");
        let single = ansatz(&[
            "family",
            "--json",
            "--max-positions",
            limit,
            "--threads",
            "1",
            PAPER_DEAL,
        ]);
        assert_eq!(code(&resumed), code(&single), "{}", stderr(&resumed));
        assert_eq!(untimed(&resumed), untimed(&single));
        if limit == "50000000" {
            assert_eq!(
                untimed(&resumed)["closure_size"],
                untimed(&whole)["closure_size"]
            );
            // A finished run leaves no checkpoint, and its file records the command without --resume.
            assert!(!std::path::Path::new(&ck).exists());
            let saved = std::fs::read_to_string(out).unwrap();
            assert!(!saved.contains("--resume"), "{saved}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn family_resume_refuses_missing_foreign_and_damaged_checkpoints() {
    let dir =
        crate::common::scratch_root().join(format!("ansatz-famresume-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("f.json");
    let out = out.to_str().unwrap();
    let o = ansatz(&["family", "--resume", "--out", out, PAPER_DEAL]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("no checkpoint"), "{}", stderr(&o));
    let o = ansatz(&[
        "family",
        "--out",
        out,
        "--stop-after-levels",
        "2",
        PAPER_DEAL,
    ]);
    assert_eq!(code(&o), 1);
    // Another job (another cycle, or another limit) at the same place.
    for other in [
        vec!["family", "--resume", "--out", out, "J--/-J-"],
        vec![
            "family",
            "--resume",
            "--out",
            out,
            "--max-positions",
            "99999",
            PAPER_DEAL,
        ],
    ] {
        let o = ansatz(&other);
        assert_eq!(code(&o), 2);
        assert!(stderr(&o).contains("another run"), "{}", stderr(&o));
    }
    let ck = format!("{out}.checkpoint");
    let bytes = std::fs::read(&ck).unwrap();
    for damaged in [
        b"not a checkpoint".to_vec(),
        bytes[..bytes.len() / 2].to_vec(),
    ] {
        std::fs::write(&ck, damaged).unwrap();
        let o = ansatz(&["family", "--resume", "--out", out, PAPER_DEAL]);
        assert_eq!(code(&o), 2);
        assert!(stderr(&o).contains("damaged"), "{}", stderr(&o));
    }
    let o = ansatz(&["family", "--resume", "--visited-set", PAPER_DEAL]);
    assert_eq!(code(&o), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}
