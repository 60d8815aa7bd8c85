//! Beat It or Eat It: Taylor's sample game, the fast solvers held to the plain reference, the
//! census, the command line (bad input, JSON, node limit) and `play` with scripted input.

use std::io::Write;
use std::process::Stdio;
use std::sync::OnceLock;

use ansatz::beatit::cards::GameSetup;
use ansatz::beatit::census::census_from;
use ansatz::beatit::dense::Dense;
use ansatz::beatit::graph::{Graph, GraphError};
use ansatz::beatit::line::{best_move, move_outcome, principal_line};
use ansatz::beatit::reference::Reference;
use ansatz::beatit::state::NO_TOP;
use ansatz::beatit::{NotationError, State, Step, Value, Values};
use proptest::prelude::*;

use super::common::{ansatz, data_lines, stdout};

/// The dense tables of suit lengths 1..=4, solved once.
fn dense(n: usize) -> &'static Dense {
    static TABLES: OnceLock<Vec<Dense>> = OnceLock::new();
    &TABLES.get_or_init(|| {
        (1..=4)
            .map(|n| Dense::solve(n, &mut |_, _| {}).unwrap())
            .collect()
    })[n - 1]
}

#[test]
fn taylors_sample_game_replays() {
    let mut g: Option<GameSetup> = None;
    let mut winner = None;
    let mut checked = 0;
    for line in data_lines("beat-it-sample.txt") {
        let (kind, rest) = line.split_once(' ').unwrap();
        match kind {
            "start" => g = Some(GameSetup::parse_layout(rest).unwrap()),
            "moves" => {
                let g = g.as_mut().unwrap();
                for name in rest.split_whitespace() {
                    assert!(winner.is_none(), "a move after the end: {name}");
                    let s = State::from_setup(g);
                    let m = s
                        .parse_move(name)
                        .unwrap_or_else(|| panic!("{name} is not legal in {g:?}"));
                    winner = g.play(m).unwrap();
                }
            }
            "hands" => {
                let g = g.as_ref().unwrap();
                assert!(g.table.is_empty(), "{g:?}");
                assert_eq!(g.position_string(), rest);
                checked += 1;
            }
            "winner" => assert_eq!(winner, Some(rest.parse::<u8>().unwrap())),
            "solve" => {
                let f: Vec<&str> = rest.split('|').map(str::trim).collect();
                let g = GameSetup::parse(f[0], f[1]).unwrap();
                let mut s = State::from_setup(&g);
                let graph = Graph::solve(s, 10_000_000).unwrap();
                let solved = graph.solved(&s).unwrap();
                assert_eq!(solved.value.as_str(), f[2]);
                // Taylor's line keeps the win for LEFT and gives RIGHT nothing but eating.
                let mut left_to_move = true;
                for name in f[3].split_whitespace() {
                    let m = s.parse_move(name).unwrap();
                    let o = move_outcome(&graph, s, m).unwrap();
                    let want = if left_to_move {
                        Value::Win
                    } else {
                        Value::Loss
                    };
                    assert_eq!(o.value, want, "{name}");
                    if !left_to_move {
                        assert_eq!(s.moves().count(), 1, "RIGHT must eat at {name}");
                    }
                    match s.step(m) {
                        Step::Win => assert!(left_to_move),
                        Step::Next { state, flip } => {
                            s = state;
                            left_to_move ^= flip;
                        }
                    }
                }
                checked += 1;
            }
            _ => panic!("unknown line {line}"),
        }
    }
    assert_eq!(checked, 3);
}

#[test]
fn notation_round_trips_and_rejects() {
    let g = GameSetup::parse("AQT98.KJ/KJ.AQT98 (1)", "").unwrap();
    assert_eq!(g.n, 7);
    assert_eq!(g.position_string(), "AQT98.KJ/KJ.AQT98 (1)");
    let g = GameSetup::parse("AQT.K/.AQT (1)", "8h Jh 8s Js 9h Kh 9s").unwrap();
    assert_eq!(g.table_string(), "8h Jh 8s Js 9h Kh 9s");
    assert_eq!(g.card_to_beat().unwrap().to_string(), "9s");
    let err = |p: &str, t: &str| GameSetup::parse(p, t).unwrap_err();
    assert!(matches!(
        err("AK.A/K.K (1)", ""),
        NotationError::Duplicate(_)
    ));
    assert!(matches!(err("AK.A/.KQ (1)", ""), NotationError::Missing(_)));
    assert!(matches!(
        err("AK2.A/Q.KQ (1)", ""),
        NotationError::OutsideSuit { .. }
    ));
    assert!(matches!(
        err("AK.AK/. (1)", ""),
        NotationError::EmptyHand(2)
    ));
    assert!(matches!(err("AK.A/Q.KQ (3)", ""), NotationError::Syntax(_)));
    assert!(matches!(
        GameSetup::parse_layout("AK.A/Q.KQ").unwrap_err(),
        NotationError::Unbalanced(_)
    ));
}

/// A random valid state of suit length `n`: each card in a hand or on the table, maybe a top.
fn state(n: usize, seed: u64) -> Option<State> {
    let mut x = seed;
    let (mut mine, mut theirs) = (0u32, 0u32);
    for c in 0..2 * n {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        match x >> 62 {
            0 | 1 => mine |= 1 << c,
            2 => theirs |= 1 << c,
            _ => {}
        }
    }
    let table = ((1u32 << (2 * n)) - 1) & !mine & !theirs;
    let top = if table != 0 && x >> 40 & 1 == 1 {
        let k = (x >> 20) as u32 % table.count_ones();
        (0..32)
            .filter(|i| table >> i & 1 == 1)
            .nth(k as usize)
            .unwrap() as u8
    } else {
        NO_TOP
    };
    (mine != 0 && theirs != 0).then_some(State {
        n: n as u8,
        mine,
        theirs,
        top,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The dense table and the reachable-graph solver agree with the plain fixpoint solver on
    /// every position reachable from a random one (value and plies).
    #[test]
    fn fast_solvers_match_reference(n in 1usize..=4, seed in any::<u64>()) {
        let Some(root) = state(n, seed) else { return Ok(()) };
        let reference = Reference::solve(root);
        let graph = Graph::solve(root, u64::MAX).unwrap();
        prop_assert_eq!(graph.positions(), reference.positions());
        for (s, want) in reference.iter() {
            prop_assert_eq!(dense(n).solved(s), Some(*want), "dense {:?}", s);
            prop_assert_eq!(graph.solved(s), Some(*want), "graph {:?}", s);
        }
    }

    /// A principal line keeps the value: each move's outcome is the position's value, the plies
    /// count down by one, and a decided line ends with the winner's last card.
    #[test]
    fn principal_lines_are_consistent(n in 2usize..=4, seed in any::<u64>()) {
        let Some(root) = state(n, seed) else { return Ok(()) };
        let t = dense(n);
        let line = principal_line(t, root, 500);
        let mut s = root;
        for (i, &m) in line.iter().enumerate() {
            let here = t.solved(&s).unwrap();
            let (bm, o) = best_move(t, s).unwrap();
            prop_assert_eq!(bm, m);
            prop_assert_eq!(o, here);
            match s.step(m) {
                Step::Win => {
                    prop_assert_eq!(here.plies, Some(1));
                    prop_assert_eq!(i + 1, line.len());
                }
                Step::Next { state, .. } => {
                    if let Some(p) = here.plies {
                        prop_assert_eq!(t.solved(&state).unwrap().plies, Some(p - 1));
                    }
                    s = state;
                }
            }
        }
        if let Some(p) = t.solved(&root).unwrap().plies {
            prop_assert_eq!(line.len() as u32, p);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// At suit length 5 (beyond the reference's reach in a test) the dense table and the graph
    /// solver, which share no code but the rules, agree on random roots.
    #[test]
    fn dense_matches_graph_at_five(seed in any::<u64>()) {
        static FIVE: OnceLock<Dense> = OnceLock::new();
        let t = FIVE.get_or_init(|| Dense::solve(5, &mut |_, _| {}).unwrap());
        let Some(root) = state(5, seed) else { return Ok(()) };
        let graph = Graph::solve(root, u64::MAX).unwrap();
        prop_assert_eq!(t.solved(&root), graph.solved(&root));
    }
}

#[test]
fn census_matches_reference_per_layout() {
    for n in 1..=4 {
        let c = census_from(dense(n));
        assert_eq!(c.games.len(), 2 << n);
        assert_eq!(
            c.leader_wins + c.follower_wins + c.draws,
            c.games.len() as u64
        );
        for g in &c.games {
            let s = State::from_setup(&GameSetup::parse_layout(&g.position).unwrap());
            let r = Reference::solve(s).solved(&s).unwrap();
            let winner = match r.value {
                Value::Win => Some(g.leader),
                Value::Loss => Some(3 - g.leader),
                Value::Draw => None,
            };
            assert_eq!((g.winner, g.plies), (winner, r.plies), "{}", g.position);
        }
    }
}

#[test]
fn node_limit_says_unknown() {
    let s = State::from_setup(&GameSetup::layout(13, 0x1555, 1));
    assert_eq!(
        Graph::solve(s, 1000).err(),
        Some(GraphError::NodeLimit { limit: 1000 })
    );
    let o = ansatz(&[
        "beat-it",
        "solve",
        "AKQJT98765432./.AKQJT98765432 (1)",
        "--node-limit",
        "1000",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["value"], "unknown");
    assert_eq!(v["exact"], false);
}

#[test]
fn cli_solve_and_census_json() {
    let o = ansatz(&[
        "beat-it",
        "solve",
        "AQT.K/.AQT (1)",
        "--table",
        "8h Jh 8s Js 9h Kh 9s",
        "--json",
    ]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["value"], "win");
    assert_eq!(v["to_move"], 1);
    assert_eq!(v["winner"], 1);
    assert_eq!(v["best"], "Ks");
    assert_eq!(v["plies"], 6);
    assert_eq!(v["line"].as_array().unwrap().len(), 6);

    let o = ansatz(&["beat-it", "census", "--suit", "3", "--json", "-q"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["suit"], 3);
    assert_eq!(v["layouts"], 8);
    assert_eq!(v["games"], 16);
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 16);
    let sum = ["leader_wins", "follower_wins", "draws"]
        .iter()
        .map(|k| v[k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(sum, 16);
    assert!(results.iter().any(|r| r["position"] == "AKQ./.AKQ (1)"));
}

#[test]
fn cli_bad_input_exits_2() {
    for args in [
        &["beat-it", "solve", "AK.A/K.K (1)"][..],
        &["beat-it", "solve", "AK.A/.KQ (1)"],
        &["beat-it", "solve", "AK2.A/Q.KQ (1)"],
        &["beat-it", "solve", "AK.A/Q.K (1)", "--table", "Qx"],
        &["beat-it", "census", "--suit", "0"],
        &["beat-it", "census", "--suit", "10"],
        &["beat-it", "play", "--layout", "AK.A/Q.KQ"],
    ] {
        let o = ansatz(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!o.stderr.is_empty(), "{args:?}");
    }
}

/// Plays `play` with scripted stdin and returns its output.
fn play(args: &[&str], input: &str) -> String {
    let mut child = super::common::ansatz_command()
        .args(["beat-it", "play"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    stdout(&o)
}

#[test]
fn play_with_scripted_input() {
    // KQ.A/A.KQ with player 1 leading: the solver says who wins; the human (player 2) answers
    // with a bad word first, then always the first listed move; perfect play must win.
    let layout = "KQ.A/A.KQ";
    let g = GameSetup::parse_layout(layout).unwrap();
    let want = Reference::solve(State::from_setup(&g))
        .solved(&State::from_setup(&g))
        .unwrap();
    let text = play(
        &["--layout", layout, "--human", "2"],
        &format!("zz\n{}", "1\n".repeat(40)),
    );
    assert!(text.contains("player 1: KQ.A"), "{text}");
    assert!(text.contains("player 2: A.KQ"), "{text}");
    assert!(text.contains("not a legal move: \"zz\""), "{text}");
    assert!(text.contains("your moves: 1) "), "{text}");
    let verdict = match want.value {
        Value::Win => format!(
            "player 1 wins with perfect play in {} plies",
            want.plies.unwrap()
        ),
        Value::Loss => format!(
            "player 2 wins with perfect play in {} plies",
            want.plies.unwrap()
        ),
        Value::Draw => "a draw with perfect play".to_string(),
    };
    assert!(text.contains(&format!("solver: {verdict}")), "{text}");
    if want.value == Value::Win {
        assert!(
            text.ends_with("player 1 played their last card and wins.\n"),
            "{text}"
        );
    }
    // Quitting at once leaves the game.
    let text = play(&["--suit", "3", "--seed", "5"], "quit\n");
    assert!(text.ends_with("game abandoned.\n"), "{text}");
}
