//! Search tests: exhaustive known answers (Paulhus 1999), prefix sharing == every deal, the
//! multi-player engine against the two-player oracle, thread-count independence, resume, bad input.

use ansatz::card::DeckSpec;
use ansatz::engine::multi::{self, MultiOutcome, MultiPosition};
use ansatz::engine::{Outcome, reference};
use ansatz::notation::Notation;
use ansatz::position::Position;
use ansatz::search::checkpoint;
use ansatz::search::exhaustive::run::{self, ExhaustiveConfig};
use ansatz::search::exhaustive::{
    self, Extra, Options, Plan, deal_count, naive, naive_split, prefix_sharing,
};
use ansatz::search::random::{self, RandomConfig};
use ansatz::search::stats::GameStats;
use proptest::prelude::*;

use super::common::{ansatz, isas_here, json_ran_in, json_with_isa, stdout};

fn deck(s: &str) -> DeckSpec {
    s.parse().unwrap()
}

// Source: Paulhus, "Beggar My Neighbour", Amer. Math. Monthly 106 (1999), Table 1
// (tests/data/known-answers.txt): 7,567,560 deals, 1260 never end.
#[test]
fn paulhus_6_2j2q2k2a_has_1260_cycles() {
    let s = prefix_sharing(&deck("6-2J2Q2K2A"));
    assert_eq!(s.deals, 7_567_560);
    assert_eq!(s.cycles, 1260);
    assert_eq!(s.wins.iter().sum::<u64>() + s.cycles, s.deals);
    assert_eq!(
        s.distinct_cycles.values().map(|c| c.deals).sum::<u64>(),
        1260
    );
}

// Source: Paulhus 1999 (tests/data/known-answers.txt): with no number cards the second player
// always wins.
#[test]
fn paulhus_no_number_cards_second_player_wins() {
    let s = prefix_sharing(&deck("0-2J2Q2K2A"));
    assert_eq!((s.deals, s.cycles, s.wins[1]), (2520, 0, 2520));
}

/// A small deck: at most 9 cards, so every deal can be played one by one.
fn small_deck() -> impl Strategy<Value = DeckSpec> {
    prop::array::uniform5(0u32..4)
        .prop_filter("1 to 9 cards", |c| (1..=9).contains(&c.iter().sum::<u32>()))
        .prop_map(|counts| DeckSpec { counts })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The prefix-sharing search and playing every deal agree on every statistic.
    #[test]
    fn prefix_sharing_equals_every_deal(d in small_deck()) {
        let all = deal_count(&d).unwrap();
        prop_assert_eq!(prefix_sharing(&d), naive(&d, 2, 0..all));
    }

    /// With player 2 holding the extra card of an odd deck, both paths (lanes or not) still agree.
    #[test]
    fn the_second_player_holding_the_extra_card_agrees(
        // A filter, not `prop_assume!`: its rejects are local and do not stop a run of many
        // cases (PROPTEST_CASES=3000 ran out of global rejects).
        d in small_deck().prop_filter("an odd deck", |d| d.total() % 2 == 1),
        lanes: bool,
    ) {
        let all = deal_count(&d).unwrap();
        let plan = Plan::new(&d, Options::new(64).lanes(lanes).extra(Extra::Second));
        let mut fast = plan.head.clone();
        for i in 0..plan.tasks() {
            fast.merge(plan.run_task(i));
        }
        prop_assert_eq!(fast, naive_split(&d, 2, Extra::Second, 0..all));
    }

    /// Rank ranges cut anywhere add up to the whole.
    #[test]
    fn rank_ranges_add_up(d in small_deck(), cut in 0.0f64..1.0) {
        let all = deal_count(&d).unwrap();
        let mid = (all as f64 * cut) as u128;
        let mut parts = naive(&d, 2, 0..mid);
        parts.merge(naive(&d, 2, mid..all));
        prop_assert_eq!(parts, naive(&d, 2, 0..all));
    }

    /// With two players the multi-player rules are the two-player rules.
    #[test]
    fn multi_with_two_players_is_the_reference(cards in prop::collection::vec(0u8..5, 2..30), to_move in 0u8..2) {
        let h1 = cards.len() / 2;
        let pos = Position::new(cards[..h1].to_vec(), cards[h1..].to_vec(), to_move);
        let mp = MultiPosition { hands: pos.hands.to_vec(), to_move };
        let want = reference::play(&pos);
        let got = multi::reference_play(&mp);
        match (&want, &got) {
            (Outcome::Terminates { winner, tricks, cards }, MultiOutcome::Terminates { winner: w, tricks: t, cards: c }) => {
                prop_assert_eq!((winner, tricks, cards), (w, t, c));
            }
            (Outcome::Cycle(a), MultiOutcome::Cycle { preperiod, period, tricks, cards, cycle_cards, cycle_id }) => {
                prop_assert_eq!((a.preperiod, a.period, a.tricks, a.cards, a.cycle_cards), (*preperiod, *period, *tricks, *cards, *cycle_cards));
                prop_assert_eq!(&a.cycle_id.hands.to_vec(), &cycle_id.hands);
            }
            _ => prop_assert!(false, "{want:?} vs {got:?}"),
        }
    }

    /// The Brent player agrees with the HashMap reference for 2 to 5 players.
    #[test]
    fn multi_play_equals_reference(cards in prop::collection::vec(0u8..5, 4..40), players in 2usize..6) {
        prop_assume!(cards.len() >= players);
        let pos = MultiPosition::deal(&cards, players);
        prop_assert_eq!(multi::play(&pos, &mut multi::Scratch::default()), multi::reference_play(&pos));
    }
}

#[test]
fn exhaustive_three_players_every_deal_ends_or_cycles() {
    let cfg = ExhaustiveConfig {
        deck: deck("3-1J1Q1K1A"),
        players: 3,
        naive: false,
        extra: Default::default(),
    };
    let (deals, work) = cfg.plan().unwrap();
    assert_eq!(deals, 5040 / 6);
    let s = run::run::<()>(&cfg, &work, None, &|_| true, true, &|_| {}, &mut |_, _| {
        Ok(())
    })
    .unwrap();
    assert_eq!(s.deals, deals);
    assert_eq!(s.wins.len(), 3);
    assert_eq!(s.wins.iter().sum::<u64>() + s.cycles, deals);
}

fn config(games: u64) -> RandomConfig {
    RandomConfig {
        deck: DeckSpec::STANDARD,
        players: 2,
        balanced_faces: false,
        seed: 7,
        games,
        top: 5,
    }
}

#[test]
fn random_results_do_not_depend_on_threads() {
    let cfg = config(30_000);
    let chunks = random::chunks(cfg.games);
    let run = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| random::play_chunks(&cfg, 0, chunks, &|_| {}))
    };
    let one = run(1);
    assert_eq!(one.games, 30_000);
    assert_eq!(one, run(3));
}

#[test]
fn random_resume_after_a_stop_gives_the_same_result() {
    let cfg = config(40_000);
    let full = random::run::<()>(&cfg, None, &|_| true, &|_| {}, &mut |_, _| Ok(())).unwrap();
    let dir = crate::common::scratch_root().join(format!("ansatz-resume-{}", std::process::id()));
    let path = dir.join("ck.json");
    // Stop (as a crash would) after the second checkpoint.
    let mut saves = 0;
    let stopped = random::run(&cfg, None, &|_| true, &|_| {}, &mut |done, s| {
        checkpoint::save(&path, "random", &cfg, done, s, 0.0).unwrap();
        saves += 1;
        if saves == 2 { Err(()) } else { Ok(()) }
    });
    assert!(stopped.is_err());
    let checkpoint::Loaded { done, state, .. } =
        checkpoint::load::<_, GameStats>(&path, "random", &cfg).unwrap();
    // The second save holds a prefix of at least two chunks and not the whole run.
    assert!((2..random::chunks(cfg.games)).contains(&done), "{done}");
    assert_eq!(state.games, done * ansatz::bench::CHUNK);
    let resumed = random::run::<()>(
        &cfg,
        Some((done, state)),
        &|_| true,
        &|_| {},
        &mut |_, _| Ok(()),
    )
    .unwrap();
    assert_eq!(resumed, full);
    // Another search's checkpoint is refused.
    assert!(checkpoint::load::<_, GameStats>(&path, "random", &config(1)).is_err());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn balanced_faces_deals_share_the_faces() {
    let cfg = RandomConfig {
        balanced_faces: true,
        ..config(10)
    };
    cfg.validate().unwrap();
    for i in 0..10 {
        let p = cfg.position(i);
        for h in &p.hands {
            assert_eq!(h.len(), 26);
            for face in 1..5u8 {
                assert_eq!(h.iter().filter(|&&c| c == face).count(), 2);
            }
        }
    }
}

#[test]
fn cli_exhaustive_json_has_the_issue_fields() {
    let out = ansatz(&[
        "search",
        "exhaustive",
        "--deck",
        "4-1J1Q1K1A",
        "--json",
        "--out",
        &tmp_out("ex"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["deals"], 1680); // 8! / 4!
    for k in [
        "cycles",
        "first_player_wins",
        "second_player_wins",
        "distinct_cycles",
        "longest",
        "seconds",
    ] {
        assert!(v.get(k).is_some(), "missing {k}");
    }
}

/// A small exhaustive and a small random search, each with an output tag ending in `tag`.
fn small_searches(tag: &str) -> [(String, Vec<&'static str>); 2] {
    [
        (
            format!("ex-{tag}"),
            vec!["search", "exhaustive", "--deck", "4-1J1Q1K1A"],
        ),
        (
            format!("rnd-{tag}"),
            vec!["search", "random", "--games", "2000"],
        ),
    ]
}

/// The search checkpoint in `dir`.
fn checkpoint_in(dir: &str) -> std::path::PathBuf {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with("checkpoint.json"))
        .expect("a checkpoint")
}

// A resumed search counts the time its checkpoint holds (the runs before it), so a census slice
// interrupted and resumed reports all of its time; the same for a random search.
#[test]
fn a_resumed_search_counts_the_time_of_the_runs_before_it() {
    for (tag, args) in small_searches("time") {
        let dir = tmp_out(&tag);
        let _ = std::fs::remove_dir_all(&dir);
        let run = |more: &[&str]| {
            let all: Vec<&str> = args.iter().chain(more).copied().collect();
            let out = ansatz(&all);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            serde_json::from_str::<serde_json::Value>(&stdout(&out)).unwrap()
        };
        let first = run(&["--json", "--out", &dir]);
        assert!(first["seconds"].as_f64().unwrap() < 100.0, "{tag}");
        // The finished run's checkpoint stays; make its runs have taken 1000 s.
        let ckpt = checkpoint_in(&dir);
        let mut v: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&ckpt).unwrap()).unwrap();
        assert!(v["seconds"].as_f64().is_some(), "{tag}: {}", v["seconds"]);
        v["seconds"] = serde_json::json!(1000.0);
        std::fs::write(&ckpt, v.to_string()).unwrap();
        let again = run(&["--json", "--out", &dir, "--resume"]);
        let secs = again["seconds"].as_f64().unwrap();
        assert!((1000.0..1100.0).contains(&secs), "{tag}: {secs}");
    }
}

// A fresh run over a finished search's checkpoint replaces it; over an unfinished one of the
// same run it stops with exit 2 and says to add --resume or delete it (a forgotten --resume
// must not throw away a long run's work).
#[test]
fn a_fresh_search_refuses_an_unfinished_checkpoint_of_its_run() {
    for (tag, args) in small_searches("fresh") {
        let dir = tmp_out(&tag);
        let _ = std::fs::remove_dir_all(&dir);
        let all: Vec<&str> = args.iter().copied().chain(["--out", &dir, "-q"]).collect();
        for _ in 0..2 {
            let out = ansatz(&all);
            assert!(
                out.status.success(),
                "{tag}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let ckpt = checkpoint_in(&dir);
        let mut v: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&ckpt).unwrap()).unwrap();
        v["done"] = serde_json::json!(0);
        std::fs::write(&ckpt, v.to_string()).unwrap();
        let out = ansatz(&all);
        assert_eq!(out.status.code(), Some(2), "{tag}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("unfinished run") && err.contains("--resume"),
            "{tag}: {err}"
        );
        std::fs::remove_file(&ckpt).unwrap();
        assert!(ansatz(&all).status.success(), "{tag}");
    }
}

#[test]
fn cli_random_json_and_results_files() {
    let dir = tmp_out("rnd");
    let out = ansatz(&[
        "search",
        "random",
        "--games",
        "5000",
        "--json",
        "--threads",
        "2",
        "--out",
        &dir,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    for k in [
        "games",
        "cycles",
        "longest_by_cards",
        "longest_by_tricks",
        "mean_cards",
        "mean_tricks",
        "wins",
        "half_life_tricks",
        "games_per_second",
    ] {
        assert!(v.get(k).is_some(), "missing {k}");
    }
    assert_eq!(v["games"], 5000);
    let jsonl =
        std::fs::read_to_string(format!("{dir}/random-36-4J4Q4K4A-2p-seed1.jsonl")).unwrap();
    assert!(
        jsonl
            .lines()
            .last()
            .unwrap()
            .starts_with("{\"run\":{\"command\":\"ansatz search random")
    );
    // Resuming a finished run gives the same numbers.
    let again = ansatz(&[
        "search", "random", "--games", "5000", "--json", "--resume", "--out", &dir,
    ]);
    let w: serde_json::Value = serde_json::from_str(&stdout(&again)).unwrap();
    assert_eq!(v["longest_by_cards"], w["longest_by_cards"]);
    assert_eq!(v["mean_cards"], w["mean_cards"]);
}

#[test]
fn cli_random_plots_svg_and_png() {
    let dir = tmp_out("plot");
    for name in ["lengths.svg", "lengths.png"] {
        let plot = format!("{dir}/{name}");
        let out = ansatz(&[
            "search",
            "random",
            "--games",
            "3000",
            "--plot",
            &plot,
            "--overlay-balanced",
            "--quiet",
            "--out",
            &dir,
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let bytes = std::fs::read(&plot).unwrap();
        if name.ends_with("svg") {
            let svg = String::from_utf8(bytes).unwrap();
            assert!(svg.contains("uniform deals") && svg.contains("balanced-face deals"));
        } else {
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        }
    }
}

/// `ANSATZ_ISA` picks the engine for fully fixed games (lanes or one game at a time); the answer
/// is the same whichever runs.
#[test]
fn exhaustive_answer_does_not_depend_on_the_isa() {
    let test = "exhaustive_answer_does_not_depend_on_the_isa";
    let dir = tmp_out("isa");
    let run = |isa: &str| {
        let args = [
            "search",
            "exhaustive",
            "--deck",
            "8-2J2Q2K2A",
            "--json",
            "--quiet",
        ];
        let v = json_ran_in(isa, &[&args[..], &["--out", &dir]].concat(), &["seconds"]);
        let _ = std::fs::remove_dir_all(&dir);
        v
    };
    let isas = isas_here(test);
    let best = run(isas[0]);
    assert!(best["deals"].as_u64().unwrap() > 1_000_000);
    for isa in &isas[1..] {
        assert_eq!(run(isa), best, "ANSATZ_ISA={isa}");
    }
}

/// The exhaustive search's answer is the same for any thread count: a thread's tasks share one
/// scratch for their fully fixed games (`TaskScratch`), so which tasks share it changes with the
/// thread count, and nothing a task leaves in it may reach the next one's counts.
#[test]
fn exhaustive_answer_does_not_depend_on_the_thread_count() {
    let test = "exhaustive_answer_does_not_depend_on_the_thread_count";
    let dir = tmp_out("threads");
    let isa = isas_here(test)[0];
    let run = |threads: &str| {
        let args = [
            "search",
            "exhaustive",
            "--deck",
            "8-2J2Q2K2A",
            "--threads",
            threads,
            "--json",
            "--quiet",
            "--out",
            &dir,
        ];
        let v = json_ran_in(isa, &args, &["seconds", "threads"]);
        let _ = std::fs::remove_dir_all(&dir);
        v
    };
    let one = run("1");
    assert!(one["deals"].as_u64().unwrap() > 1_000_000);
    for threads in ["2", "3"] {
        assert_eq!(run(threads), one, "--threads {threads}");
    }
}

/// The engine module's table (`src/engine/mod.rs`) of which loop plays what on which instruction
/// set: the cell of each row tested names, in backquotes, the loop that the JSON reports as
/// `lanes` under that `ANSATZ_ISA` (or says "one by one" where `lanes` is null).
#[test]
fn the_engine_table_is_what_runs() {
    let test = "the_engine_table_is_what_runs";
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/engine/mod.rs")).unwrap();
    let rows: Vec<Vec<String>> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("//! |"))
        .map(|l| {
            l.trim_end_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect();
    let column = |isa: &str| {
        let head = match isa {
            "avx512" => "AVX-512",
            "avx2" => "AVX2",
            _ => "portable",
        };
        rows[0]
            .iter()
            .position(|c| c.starts_with(head))
            .expect("a column per instruction set")
    };
    let cell = |row: &str, isa: &str| -> String {
        let r = rows
            .iter()
            .find(|r| r[0].starts_with(row))
            .unwrap_or_else(|| panic!("no row {row:?}"));
        r[column(isa)].clone()
    };
    let dir = tmp_out("table");
    let cases: [(&str, Vec<&str>); 4] = [
        (
            "random deals of two players and up to 60",
            vec!["bench", "--games", "20000", "--threads", "1"],
        ),
        (
            "random deals of two players and up to 60",
            vec![
                "search",
                "random",
                "--deck",
                "24-4J4Q4K4A",
                "--games",
                "20000",
                "--out",
                &dir,
            ],
        ),
        (
            "exhaustive search, decks of up to 34",
            vec![
                "search",
                "exhaustive",
                "--deck",
                "8-2J2Q2K2A",
                "--out",
                &dir,
            ],
        ),
        (
            "exhaustive search, 35 to 52",
            vec![
                "search",
                "exhaustive",
                "--deck",
                "36-2J2Q2K2A",
                "--shard",
                "0/1048576",
                "--out",
                &dir,
            ],
        ),
    ];
    for isa in isas_here(test) {
        for (row, args) in &cases {
            let v = json_with_isa(isa, &[&args[..], &["--json", "--quiet"]].concat(), &[]);
            let _ = std::fs::remove_dir_all(&dir);
            assert_eq!(v["isa"], isa, "{args:?}");
            let want = cell(row, isa);
            match v["lanes"].as_str() {
                Some(lanes) => assert!(
                    want.contains(&format!("`{lanes}`")),
                    "{args:?} under ANSATZ_ISA={isa} ran in `{lanes}`; the table says {want:?}"
                ),
                None => assert_eq!(want, "one by one", "{args:?} under ANSATZ_ISA={isa}"),
            }
        }
    }
}

fn tmp_out(tag: &str) -> String {
    crate::common::scratch_root()
        .join(format!("ansatz-search-{tag}-{}", std::process::id()))
        .display()
        .to_string()
}

#[test]
fn bad_input_exits_2() {
    let dir = tmp_out("bad");
    for args in [
        vec!["search", "random", "--deck", "8-2X"],
        vec!["search", "random", "--players", "1"],
        vec!["search", "random", "--deck", "3-1J", "--players", "5"],
        vec!["search", "random", "--players", "5", "--balanced-faces"],
        vec![
            "search", "random", "--resume", "--games", "10", "--out", &dir,
        ],
        vec!["search", "exhaustive", "--deck", "standard"],
        vec!["search", "exhaustive", "--deck", "2-1J", "--players", "9"],
        vec![
            "search",
            "exhaustive",
            "--deck",
            "4-1J",
            "--resume",
            "--out",
            &dir,
        ],
        vec!["search", "random", "--threads", "0"],
        vec!["search", "exhaustive", "--deck", "4-1J", "--shard", "0/0"],
    ] {
        let out = ansatz(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("ansatz: ") && err.lines().count() == 1,
            "{args:?}: {err}"
        );
    }
    // The message names what is wrong, not a range that cannot hold.
    for (args, says) in [
        (
            vec!["search", "random", "--players", "1"],
            "at least 2 players",
        ),
        (
            vec!["search", "random", "--deck", "0-1J"],
            "deck 0-1J holds 1 card, too few",
        ),
        (
            vec!["search", "exhaustive", "--deck", "4-1J", "--shard", "0/0"],
            "the count of slices must be at least 1",
        ),
    ] {
        let err = String::from_utf8_lossy(&ansatz(&args).stderr).into_owned();
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // No deals to play is refused by the argument parser (exit 2), not reported as a run.
    for args in [
        vec!["search", "random", "--games", "0"],
        vec!["bench", "--games", "0"],
    ] {
        let out = ansatz(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// Two-player random deals are played in the 64-card lanes of the processor's widest ISA;
/// `ANSATZ_ISA=avx2` plays them in the AVX2 lanes. The statistics are the same either way, and `ansatz bench --engine lanes`
/// plays the same games as the bitboard engine.
#[test]
fn random_answer_does_not_depend_on_the_isa() {
    let test = "random_answer_does_not_depend_on_the_isa";
    let rates = [
        "seconds",
        "games_per_second",
        "games_per_second_per_thread",
        "cards_per_second",
    ];
    let run = |isa: &str, args: &[&str]| {
        json_ran_in(isa, &[args, &["--json", "--quiet"]].concat(), &rates)
    };
    let dir = tmp_out("random-isa");
    let isas = isas_here(test);
    for args in [
        vec![
            "search", "random", "--games", "300000", "--seed", "3", "--out", &dir,
        ],
        vec![
            "search",
            "random",
            "--games",
            "200000",
            "--deck",
            "24-4J4Q4K4A",
            "--out",
            &dir,
        ],
    ] {
        let best = run(isas[0], &args);
        assert!(best["games"].as_u64().unwrap() > 100_000);
        for isa in &isas[1..] {
            assert_eq!(run(isa, &args), best, "{args:?} under ANSATZ_ISA={isa}");
        }
    }
    // The lanes and the scalar engine (two engines), under every instruction set with lanes.
    for isa in isas.iter().filter(|isa| **isa != "portable") {
        let bench = |engine| {
            let mut v = run(isa, &["bench", "--games", "100000", "--engine", engine]);
            v.as_object_mut().unwrap().remove("engine");
            v
        };
        assert_eq!(bench("lanes"), bench("bits"), "ANSATZ_ISA={isa}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Prefix sharing of `d` (lanes or not, the extra card where `extra` says), cut into tasks of at
/// most `max_deals` deals.
fn planned(d: &DeckSpec, max_deals: u64, lanes: bool, extra: Extra) -> exhaustive::ExhaustiveStats {
    let plan = Plan::new(d, Options::new(max_deals).lanes(lanes).extra(extra));
    let mut fast = plan.head.clone();
    for i in 0..plan.tasks() {
        fast.merge(plan.run_task(i));
    }
    fast
}

/// Decks just past the old 32-card limit of the prefix-sharing path (issue 25), where every deal
/// can still be played: both forms of the fast path (lanes or one by one) equal the checker.
#[test]
fn prefix_sharing_past_32_cards_equals_every_deal() {
    for (name, extra) in [
        ("30-2J2Q", Extra::First),
        ("31-1J1Q1K1A", Extra::First),
        ("31-1J1Q1K1A", Extra::Second),
        // 33 cards, the smallest wide deck.
        ("29-1J1Q1K1A", Extra::Second),
        ("34-1J1Q", Extra::First),
        ("47-1J1Q1K", Extra::Second),
        ("50-1J1Q", Extra::First),
    ] {
        let d = deck(name);
        let all = deal_count(&d).unwrap();
        let want = naive_split(&d, 2, extra, 0..all);
        // Without lanes every deck past 32 cards is walked in `u64` planes; with the kinds
        // lanes (AVX-512 or AVX2) those of 33 and 34 cards in `u32` planes (`narrow_walk`), so
        // the loop below runs both forms on them.
        assert!(
            Plan::new(&d, Options::new(1).lanes(false)).wide(),
            "{name} plays wide without lanes"
        );
        let vector = ansatz::engine::Isa::get() != ansatz::engine::Isa::Portable;
        let narrow = vector && d.total() <= 34;
        assert_eq!(
            Plan::new(&d, Options::new(1)).wide(),
            !narrow,
            "{name}: the form with lanes"
        );
        for lanes in [false, true] {
            assert_eq!(
                planned(&d, all as u64 / 50 + 1, lanes, extra),
                want,
                "{name} lanes {lanes}"
            );
        }
        if name == "30-2J2Q" {
            // Issue 25's figures for this deck.
            assert_eq!((want.deals, want.cycles), (278_256, 140));
        }
    }
}

/// Decks of 33 and 34 cards with the eight face cards of Table 1, where a hand can reach 33
/// cards: walked in `u32` planes into the `u32` kinds lanes (AVX-512), some tasks of each equal
/// the same tasks walked in `u64` planes and played one by one.
#[test]
fn narrow_walk_of_33_and_34_cards_equals_the_wide_walk() {
    for (name, extra) in [
        ("26-2J2Q2K2A", Extra::First),
        ("25-2J2Q2K2A", Extra::Second),
    ] {
        let d = deck(name);
        let narrow = Plan::new(&d, Options::new(400_000).lanes(true).extra(extra));
        let wide = Plan::new(&d, Options::new(400_000).lanes(false).extra(extra));
        assert!(wide.wide());
        assert_eq!(narrow.tasks(), wide.tasks(), "{name}: the same tasks");
        assert_eq!(narrow.head, wide.head, "{name}");
        let n = wide.tasks();
        // About 30 tasks spread over the tree, some 5 million deals, and the last.
        for i in (0..n).step_by(n / 29).chain([n - 1]) {
            assert_eq!(narrow.run_task(i), wide.run_task(i), "{name} task {i}");
        }
    }
}

/// A deck of 20 to 52 cards with few deals (at most 3000): mostly number cards.
fn big_deck() -> impl Strategy<Value = DeckSpec> {
    (16u32..=52, prop::array::uniform4(0u32..3))
        .prop_map(|(n, f)| DeckSpec {
            counts: [n, f[0], f[1], f[2], f[3]],
        })
        .prop_filter("20 to 52 cards, at most 3000 deals", |d| {
            (20..=52).contains(&d.total()) && deal_count(d).is_some_and(|c| c <= 3000)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Decks of every size from 20 to 52 cards (the narrow form up to 32, the wide past it): the
    /// prefix-sharing search equals the checker, lanes or not, the extra card with either player.
    #[test]
    fn prefix_sharing_equals_every_deal_up_to_52_cards(d in big_deck(), lanes: bool, second: bool, cut in 1u64..64) {
        let extra = if second && d.total() % 2 == 1 { Extra::Second } else { Extra::First };
        let all = deal_count(&d).unwrap();
        prop_assert_eq!(planned(&d, cut, lanes, extra), naive_split(&d, 2, extra, 0..all));
    }
}

/// Every row of Paulhus's Table 1 that runs in seconds, against the search; the larger ones are
/// pinned through the census file (`census_rows_hold_paulhus_counts_and_replay`).
#[test]
fn paulhus_table_1_small_rows() {
    let rows = paulhus_rows();
    assert_eq!(rows.len(), 10);
    for (n, want) in rows.into_iter().filter(|&(n, _)| n <= 10) {
        let d = deck(&format!("{n}-2J2Q2K2A"));
        let s = prefix_sharing(&d);
        assert_eq!(s.cycles, want, "{n}-2J2Q2K2A");
    }
}

/// (n, non-terminating deals) of Paulhus 1999, Table 1 (tests/data/paulhus-table1.txt).
fn paulhus_rows() -> Vec<(u32, u64)> {
    super::common::data_lines("paulhus-table1.txt")
        .iter()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0].parse().unwrap(), f[1].parse().unwrap())
        })
        .collect()
}

/// The tracked census: its 2J2Q2K2A rows agree with Paulhus wherever he counted, and every cycle
/// it lists replays with the reference engine (period, cycle cards, and the id is the cycle's).
#[test]
fn census_rows_hold_paulhus_counts_and_replay() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/census/table1.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let rows: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(rows.len() >= 40, "{} rows", rows.len());
    for (n, want) in paulhus_rows() {
        let deck = format!("{n}-2J2Q2K2A");
        let row = rows
            .iter()
            .find(|r| r["deck"] == deck.as_str())
            .unwrap_or_else(|| panic!("{deck} is not in the census"));
        assert_eq!(row["non_terminating"], want, "{deck}");
    }
    let mut replayed = 0;
    for r in &rows {
        let mut sum = 0;
        for c in r["distinct_cycles"].as_array().unwrap() {
            let id = c["cycle_id"].as_str().unwrap();
            let pos = Position::parse(id, Notation::Dash).unwrap();
            match reference::play(&pos) {
                Outcome::Cycle(info) => {
                    assert_eq!(info.cycle_id.to_string(), id);
                    assert_eq!(info.period, c["period"].as_u64().unwrap(), "{id}");
                    assert_eq!(info.cycle_cards, c["cycle_cards"].as_u64().unwrap(), "{id}");
                }
                o => panic!("{id} ends: {o:?}"),
            }
            sum += c["deals"].as_u64().unwrap();
            replayed += 1;
        }
        assert_eq!(sum, r["non_terminating"].as_u64().unwrap(), "{}", r["deck"]);
        let wins =
            r["first_player_wins"].as_u64().unwrap() + r["second_player_wins"].as_u64().unwrap();
        assert_eq!(wins + sum, r["deals"].as_u64().unwrap(), "{}", r["deck"]);
    }
    assert!(replayed > 100, "{replayed} cycles replayed");
}

#[test]
fn the_census_table_extends_from_the_committed_table() {
    let dir = crate::common::scratch_root().join(format!("ansatz-table-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let table =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/census/table1.jsonl");
    let t = table.to_str().unwrap();
    let o = ansatz(&[
        "search",
        "exhaustive",
        "--deck",
        "2-3J3Q3K",
        "--out",
        d,
        "-q",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let new = dir.join("exhaustive-2-3J3Q3K-2p.json");
    let o = ansatz(&["search", "table", t, new.to_str().unwrap(), "--out", d]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let before = std::fs::read_to_string(&table).unwrap();
    let after = std::fs::read_to_string(dir.join("table1.jsonl")).unwrap();
    assert_eq!(after.lines().count(), before.lines().count() + 1);
    let kept: std::collections::BTreeSet<&str> = after.lines().collect();
    assert!(
        before.lines().all(|l| kept.contains(l)),
        "every committed row kept as it was"
    );
    assert!(after.contains("\"deck\":\"2-3J3Q3K\""));
    // The same deck twice (from the table and its result file) is refused.
    let o = ansatz(&[
        "search",
        "table",
        t,
        dir.join("table1.jsonl").to_str().unwrap(),
        "--out",
        d,
    ]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(dir);
}
