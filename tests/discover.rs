//! `ansatz discover`: small decks end to end, the head route on a small deck, the same answer for
//! any thread count, resume after an interruption, bad input, and (ignored: minutes) the standard
//! deck's quick scope against the committed catalogue.

use std::collections::BTreeSet;
use std::path::PathBuf;

use ansatz::card::DeckSpec;
use ansatz::discover::heads::HeadScope;
use ansatz::discover::{Config, DiscoverError, Discovery, Route, Scope, Silent, run};
use serde_json::Value;

use crate::common::ansatz;

fn dir(name: &str) -> PathBuf {
    let d = crate::common::scratch_root()
        .join(format!("ansatz-discover-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// A scope small enough for tests that goes through the head route (never the whole frame).
const SMALL_HEADS: Scope = Scope {
    name: "test",
    heads: HeadScope {
        max_around: 3,
        max_len: 7,
        max_faces: 4,
        filter_len: 8,
        filter_faces: 3,
        bare_len: 0,
        bare_faces: 0,
        bare_census_limit: 0,
    },
    accumulation_margin: 4,
    whole_frame_limit: 0,
    insertion: None,
    ansatz: true,
    frame_sweep: 0,
    frame_sweep_limit: 0,
    whole_deck_limit: 0,
    split: None,
};

fn config(deck: &str, scope: Scope) -> Config {
    Config {
        deck: deck.parse::<DeckSpec>().unwrap(),
        scope,
        separator: None,
        ends: None,
        lateral: 0,
        fill_limit: scope.fill_limit(),
        census_limit: None,
        max_positions: 1_000_000,
        stop_after_censuses: None,
        filter: None,
    }
}

fn discover(c: &Config, threads: usize, name: &str) -> Discovery {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let mut d = pool.install(|| run(c, &dir(name), false, &Silent)).unwrap();
    for s in &mut d.stages {
        s.seconds = 0.0;
    }
    d
}

/// `ansatz discover ARGS --json`, which must exit with `code`; its JSON.
fn discover_json(args: &[&str], code: i32) -> Value {
    let o = ansatz(&[&["discover", "--json"][..], args].concat());
    assert_eq!(
        o.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

/// Every deal listed is a balanced deal of `deck` whose game reaches its cycle (checked here again
/// with the reference engine, independently of the stage that replayed it).
fn assert_deals_reach_their_cycles(cycles: &[Value], deck: &str) {
    for c in cycles {
        let id = c["cycle_id"].as_str().unwrap();
        let deals = c["balanced"].as_array().unwrap();
        assert!(!deals.is_empty(), "{id}");
        for deal in deals {
            let p = ansatz::position::Position::parse(
                deal.as_str().unwrap(),
                ansatz::notation::Notation::Dash,
            )
            .unwrap();
            assert!(p.is_balanced());
            assert_eq!(p.deck(), deck.parse::<DeckSpec>().unwrap());
            match ansatz::engine::reference::play(&p) {
                ansatz::engine::Outcome::Cycle(info) => assert_eq!(info.cycle_id.to_string(), id),
                other => panic!("{deal} ends: {other:?}"),
            }
        }
    }
}

#[test]
fn a_small_deck_end_to_end_in_seconds() {
    let out = dir("small-cli");
    let v = discover_json(
        &[
            "--deck",
            "8-2J2Q2K2A",
            "--whole-deck-limit",
            "0",
            "--out",
            out.to_str().unwrap(),
        ],
        0,
    );
    let cycles = v["balanced_cycles"].as_array().unwrap();
    assert!(!cycles.is_empty());
    let names: Vec<&str> = v["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["frame", "census", "frames", "insertion", "split", "balance"]
    );
    for c in cycles {
        let by = c["found_by"].as_str().unwrap();
        assert!(["ansatz", "frames", "insertion", "split"].contains(&by));
        assert_eq!(c["reach"], 8);
    }
    assert_deals_reach_their_cycles(cycles, "8-2J2Q2K2A");
    for f in v["files"].as_array().unwrap() {
        assert!(PathBuf::from(f.as_str().unwrap()).exists());
    }
    let _ = std::fs::remove_dir_all(out);
}

// Source: results/census/table1.jsonl: every deal of 2J2Q2K2A + 8 played, 168 classes of cycles
// (11,928 deals). A deck of 3.2e7 deals is played whole: every class, and nothing else.
#[test]
fn a_deck_small_enough_is_played_whole_and_every_class_found() {
    let d = discover(&config("8-2J2Q2K2A", Scope::QUICK), 2, "whole-deck");
    let names: Vec<&str> = d.stages.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["frame", "deck", "balance"]);
    assert!(d.balanced_cycles.iter().all(|c| c.found_by == "deck"));
    // The census deals player 1 first; a deal listed with player 2 to move is the census's deal
    // with the hands exchanged.
    let deals: BTreeSet<String> = d
        .balanced_cycles
        .iter()
        .flat_map(|c| &c.balanced)
        .map(|deal| match deal.strip_suffix(" (2)") {
            Some(h) => {
                let (a, b) = h.split_once('/').unwrap();
                format!("{b}/{a}")
            }
            None => deal.strip_suffix(" (1)").unwrap().to_string(),
        })
        .collect();
    assert_eq!(deals.len(), 11928);
    let cycles = serde_json::to_value(&d.balanced_cycles).unwrap();
    assert_deals_reach_their_cycles(cycles.as_array().unwrap(), "8-2J2Q2K2A");
    let k = known("8-2J2Q2K2A");
    assert_eq!(k.classes.len(), 168);
    let all: BTreeSet<String> = k.classes.iter().map(|c| c.cycle_id.clone()).collect();
    assert_eq!(found_classes(&k, &d), all);
}

#[test]
fn the_head_route_on_a_small_deck_is_the_same_for_any_thread_count() {
    let c = config("12-4J2Q2K2A", SMALL_HEADS);
    let one = discover(&c, 1, "heads-1");
    let two = discover(&c, 3, "heads-3");
    assert_eq!(one, two);
    let names: Vec<&str> = one.stages.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        ["frame", "filter", "heads", "census", "balance", "fill"]
    );
    assert!(one.filter.is_some());
    // (This scope finds 4 accumulator shapes on this deck, and 48 cycles around them.)
    assert!(!one.accumulators.is_empty());
    assert!(one.censuses.iter().map(|c| c.cycles).sum::<u64>() > 0);
    // Every census is around an accumulator shape, and every balanced cycle comes from one.
    let shapes: BTreeSet<&str> = one.accumulators.iter().map(|a| a.shape.as_str()).collect();
    assert_eq!(one.censuses.len(), shapes.len());
    for b in &one.balanced_cycles {
        assert!(shapes.contains(b.census.as_str()) || b.census.starts_with("fill "));
    }
    // (No balanced cycle here, so no fill.)
    assert!(one.fills.is_empty());

    // --filter: the filter the stage picks, given by hand, gives the same answer (but for the
    // filter stage's summary); another filter gives its own head sweep.
    let strip = |mut d: Discovery| {
        d.stages.retain(|s| s.name != "filter");
        d
    };
    let chosen = one.filter.clone().unwrap();
    let given = Config {
        filter: Some(chosen.clone()),
        ..c.clone()
    };
    let again = discover(&given, 2, "heads-given");
    assert!(again.stages[1].summary.contains("given by --filter"));
    assert_eq!(strip(again), strip(one.clone()));
    let other = Config {
        filter: Some("--Q-".into()),
        ..c.clone()
    };
    let d = discover(&other, 2, "heads-other");
    assert_eq!(d.filter.as_deref(), Some("--Q-"));
    assert_ne!(d.stages[2].summary, one.stages[2].summary);
}

#[test]
fn fills_around_balanced_cycles_match_the_naive_checker() {
    // 2J2Q2K2A + 10 with a third Jack: two pieces, Δ1 J Δ2 J-/J-. The head route's 15 censuses
    // reach 48 cycles, all balanced; the fill around each balanced deck's first piece runs its
    // second piece's place whole (18 fills), the same for any thread count.
    let c = config("11-3J2Q2K2A", SMALL_HEADS);
    let one = discover(&c, 1, "fills-1");
    assert_eq!(one, discover(&c, 3, "fills-3"), "threads");
    assert!(one.stages.iter().any(|s| s.name == "fill"));
    fills_match_the_naive_checker(&c, &one);
    // Without fills the balanced cycles are the same here (every fill's cycles were known), and
    // the stage is left out.
    let none = discover(
        &Config {
            fill_limit: 0,
            ..c.clone()
        },
        2,
        "fills-0",
    );
    assert!(none.fills.is_empty() && none.stages.iter().all(|s| s.name != "fill"));
    assert_eq!(none.balanced_cycles, one.balanced_cycles);
    // A limit below the smallest fill skips them all, and says so.
    let small = discover(
        &Config {
            fill_limit: 10,
            ..c.clone()
        },
        2,
        "fills-10",
    );
    assert_eq!(small.fills.len(), one.fills.len());
    assert!(
        small
            .fills
            .iter()
            .all(|f| f.skipped.is_some() && f.decks == 0)
    );
    // A census limit skips the censuses above it, says so, and leaves the others as they were.
    let mut sizes: Vec<u64> = one.censuses.iter().map(|c| c.decks).collect();
    sizes.sort();
    let limit = sizes[sizes.len() / 2];
    let capped = discover(
        &Config {
            census_limit: Some(limit),
            fill_limit: 0,
            ..c.clone()
        },
        2,
        "census-capped",
    );
    assert_eq!(capped.censuses.len(), one.censuses.len());
    let mut skipped = 0;
    for (got, want) in capped.censuses.iter().zip(&one.censuses) {
        if want.decks > limit {
            skipped += 1;
            assert_eq!((got.decks, got.cycles), (0, 0), "{}", got.shape);
            assert!(got.skipped.as_deref().unwrap().contains("census limit"));
        } else {
            assert_eq!(got, want);
        }
    }
    assert!(skipped > 0 && skipped < one.censuses.len(), "{sizes:?}");
}

/// Every fill that ran tested every arrangement of the cards its template leaves, and its decks
/// that never end are those the per-candidate checker (`naive_pieces`: each deck played from
/// scratch) finds; one fill per balanced deck's pieces.
fn fills_match_the_naive_checker(c: &Config, d: &Discovery) {
    use ansatz::ansatz::enumerate::naive_pieces;
    use ansatz::ansatz::import::fill_params;
    use ansatz::discover::fill;
    use ansatz::notation::{Notation, parse_hand};
    let df = ansatz::discover::frame::derive(c.deck, None, None).unwrap();
    assert!(!d.fills.is_empty(), "the census balanced cycles give fills");
    for f in &d.fills {
        let before =
            parse_hand(&f.shape[..f.shape.find("{TEST}").unwrap()], Notation::Dash).unwrap();
        let t = fill::template(&df, &before);
        assert_eq!(t.display(), f.shape);
        let params = fill_params(&t, c.deck).unwrap();
        let naive = naive_pieces(&t, &params);
        assert_eq!(f.skipped, None, "{}", f.shape);
        assert_eq!(f.non_terminating, naive.len() as u64, "{}", f.shape);
        // The deck that gave the fill is one of its arrangements, and never ends.
        assert!(f.non_terminating > 0 && f.cycles > 0, "{}", f.shape);
        // Every arrangement: the multinomial of the cards left.
        let (mut n, mut ways) = (0u64, 1u64);
        for &k in &params.exact.unwrap() {
            for i in 1..=u64::from(k) {
                n += 1;
                ways = ways * n / i;
            }
        }
        assert_eq!(f.decks, ways, "{}", f.shape);
    }
}

#[test]
fn the_insertion_route_grows_balanced_cycles_the_frame_misses() {
    // 2J2Q2K2A + 10: the seeds are every cycle of 2J2Q2K2A + 0..8 (all their deals), grown one
    // card at a time to 18 cards. The frame's census (every deck of J-/J-) finds 42 balanced
    // cycles; the insertion route finds cycles outside the frame too.
    let deck = "10-2J2Q2K2A";
    let with = |route: Route, threads: usize, name: &str| {
        discover(
            &config(
                deck,
                // The split route left out: this test is the frame's and insertion's.
                Scope {
                    whole_deck_limit: 0,
                    split: None,
                    ..Scope::DEFAULT
                }
                .with(route, Some(16)),
            ),
            threads,
            name,
        )
    };
    let ins = with(Route::Insertion, 1, "ins-1");
    assert_eq!(ins, with(Route::Insertion, 3, "ins-3"), "threads");
    let names: Vec<&str> = ins.stages.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["frame", "insertion", "balance"]);
    assert!(!ins.balanced_cycles.is_empty());
    let spec: DeckSpec = deck.parse().unwrap();
    for b in &ins.balanced_cycles {
        assert_eq!(b.found_by, "insertion");
        for deal in &b.balanced {
            let p =
                ansatz::position::Position::parse(deal, ansatz::notation::Notation::Dash).unwrap();
            assert!(p.is_balanced() && p.deck() == spec, "{deal}");
            match ansatz::engine::reference::play(&p) {
                ansatz::engine::Outcome::Cycle(c) => assert_eq!(c.cycle_id.to_string(), b.cycle_id),
                other => panic!("{deal} ends: {other:?}"),
            }
        }
    }
    // Both routes: every cycle of either, each credited to the first route that met it.
    let frame = with(Route::Ansatz, 2, "ans");
    let both = with(Route::Both, 2, "both");
    let pair = |b: &ansatz::discover::balance::BalancedCycle| {
        let (x, y) = (b.cycle_id.clone(), b.mirror_cycle_id.clone());
        (x.clone().min(y.clone()), x.max(y))
    };
    let a: BTreeSet<_> = frame.balanced_cycles.iter().map(pair).collect();
    let i: BTreeSet<_> = ins.balanced_cycles.iter().map(pair).collect();
    let all: BTreeSet<_> = both.balanced_cycles.iter().map(pair).collect();
    assert_eq!(all, a.union(&i).cloned().collect());
    assert!(
        all.len() > a.len(),
        "the insertion route adds cycles the frame misses"
    );
    for b in &both.balanced_cycles {
        assert_eq!(
            b.found_by == "ansatz",
            a.contains(&pair(b)),
            "{}",
            b.cycle_id
        );
    }
}

#[test]
fn resume_after_an_interruption_gives_the_same_answer() {
    let c = config("12-4J2Q2K2A", SMALL_HEADS);
    let whole = discover(&c, 2, "resume-whole");
    let work = dir("resume");
    let stop = Config {
        stop_after_censuses: Some(1),
        filter: None,
        ..c.clone()
    };
    match run(&stop, &work, false, &Silent) {
        Err(DiscoverError::Stopped(1)) => {}
        other => panic!("expected a stop after one census, got {other:?}"),
    }
    assert!(matches!(
        run(&c, &dir("no-checkpoint"), true, &Silent),
        Err(DiscoverError::NoCheckpoint(_))
    ));
    // The stopped run logged its time in the folder; one more earlier run of 1000 s (400 of
    // them in the census), and the resumed run counts them all with its own.
    use ansatz::discover::clock::RunTime;
    let logged = std::fs::read_dir(&work)
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            name.to_string_lossy().starts_with("clock-")
        })
        .count();
    assert_eq!(logged, 1, "the stopped run's clock");
    let before = RunTime {
        seconds: 1000.0,
        stages: [("census".to_string(), 400.0)].into(),
    };
    std::fs::write(
        work.join("clock-1.json"),
        serde_json::to_vec(&before).unwrap(),
    )
    .unwrap();
    let (mut resumed, earlier) = ansatz::discover::run_timed(&c, &work, true, &Silent).unwrap();
    assert!((1000.0..1100.0).contains(&earlier), "{earlier}");
    let census = resumed.stages.iter().find(|s| s.name == "census").unwrap();
    assert!(census.seconds >= 400.0, "{}", census.seconds);
    for s in &mut resumed.stages {
        s.seconds = 0.0;
    }
    assert_eq!(resumed, whole);
    assert!(!work.exists(), "a finished run removes its folder");
}

#[test]
fn bad_decks_exit_2() {
    for (deck, says) in [
        ("bogus", "deck spec"),
        ("20-", "no penalty cards"),
        ("10-4J", "no frame"),
        ("40-4J4Q4K4A", "at most 52"),
    ] {
        let o = ansatz(&["discover", "--deck", deck, "-q"]);
        assert_eq!(o.status.code(), Some(2), "{deck}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{deck}: {err}");
    }
    let o = ansatz(&[
        "discover",
        "--deck",
        "8-2J2Q2K2A",
        "--resume",
        "--out",
        dir("none").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    for (args, says) in [
        (&["--separator", "X"][..], "give a face kind"),
        (&["--separator", "-"][..], "give a face kind"),
        (&["--deck", "camicia", "--separator", "A"][..], "holds no A"),
        (
            &["--deck", "11-2J2Q2K1A", "--separator", "A"][..],
            "no frame",
        ),
        (&["--filter=--------"][..], "at least one face card"),
        (&["--filter=--J-"][..], "not a kind of this frame's pieces"),
        (&["--filter=QQQQQ"][..], "more Q cards"),
        (&["--filter=-x-"][..], "unknown character"),
        (
            &["--deck", "8-2J2Q2K2A", "--filter=-Q"][..],
            "searched whole",
        ),
        (
            &["--route", "insertion", "--filter=--Q-"][..],
            "insertion route alone",
        ),
    ] {
        let o = ansatz(&[&["discover", "-q"][..], args].concat());
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn another_separator_gives_its_own_frame_and_name() {
    let out = dir("separator");
    // Exit 1: this frame of the small deck has no balanced cycle, but the run is whole.
    let v = discover_json(
        &[
            "--deck",
            "16-2J2Q2K2A",
            "--separator",
            "q",
            "--route",
            "ansatz",
            "--out",
            out.to_str().unwrap(),
        ],
        1,
    );
    assert_eq!(v["frame"], "Δ1 Q--/Q-- (1)");
    assert!(out.join("discover-16-2J2Q2K2A-sepQ-ansatz.jsonl").exists());
    // The deck's own lowest face kind named is the default run, under the default name.
    let o = ansatz(&[
        "discover",
        "--deck",
        "8-2J2Q2K2A",
        "--separator",
        "J",
        "--route",
        "ansatz",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let jsonl = std::fs::read_to_string(out.join("discover-8-2J2Q2K2A-ansatz.jsonl")).unwrap();
    // Each stage's seconds go with the run line (timing), not among the stage lines (facts).
    let run: Value = serde_json::from_str(jsonl.lines().last().unwrap()).unwrap();
    let timed: Vec<&str> = run["run"]["stage_seconds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["stage"].as_str().unwrap())
        .collect();
    let stages: Vec<Value> = jsonl
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| v.get("stage").cloned())
        .collect();
    assert!(!timed.is_empty());
    assert_eq!(timed.len(), stages.len());
    assert!(stages.iter().all(|s| s.get("seconds").is_none()));
    let _ = std::fs::remove_dir_all(out);
}

/// `--lateral`: where one card and two both leave no cycle, lateral moves of the beam's best
/// cycles find new ones that grow on. On 2J2Q2K2A + 12 with beam 16 the beam dies at 19 cards
/// without them (and at 20 by two); with them it passes 19 and dies at 20 (the census of small
/// decks has no deal of 2J2Q2K2A + 12 that never ends either). The run has its own name; the
/// unit tests of `insertion.rs` check that lateral cycles never end and are new.
#[test]
fn lateral_moves_take_the_insertion_beam_past_a_dead_size() {
    let out = dir("lateral");
    let o = out.to_str().unwrap();
    let run = |lateral: &str| {
        let args = [
            "--deck",
            "12-2J2Q2K2A",
            "--route",
            "insertion",
            "--beam",
            "16",
            "--lateral",
            lateral,
            "--out",
            o,
        ];
        let v = discover_json(&args, 1);
        let stage = v["stages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == "insertion")
            .unwrap()
            .clone();
        stage["summary"].as_str().unwrap().to_string()
    };
    let without = run("0");
    assert!(
        without.contains("no cycle of 19 cards, nor of 20 by two cards"),
        "{without}"
    );
    assert!(!without.contains("lateral"), "{without}");
    assert!(
        out.join("discover-12-2J2Q2K2A-insertion-beam16.jsonl")
            .exists()
    );
    let with = run("16");
    assert!(with.contains("after lateral moves: 18 to 19"), "{with}");
    assert!(with.contains("no cycle of 20 cards"), "{with}");
    assert!(
        out.join("discover-12-2J2Q2K2A-insertion-beam16-lateral16.jsonl")
            .exists()
    );
    let _ = std::fs::remove_dir_all(out);
}

/// `--frame` gives other ends (`templates/census/frame-tail2.txt` on a small deck): its own frame,
/// name and census; the 2024 ends named are the default run; ends that do not fit exit 2.
#[test]
fn other_frame_ends_give_their_own_frame_and_name() {
    let out = dir("frame-ends");
    let o = out.to_str().unwrap();
    let run = |frame: &str, code| {
        let f = format!("--frame={frame}");
        let args = [
            "--deck",
            "8-2J2Q2K2A",
            "--route",
            "ansatz",
            f.as_str(),
            "--out",
            o,
        ];
        discover_json(&args, code)
    };
    // TEST J -- / J - (1): TEST holds the other 11 cards (5 number cards and two each of Q, K,
    // A), 11!/(5! 2! 2! 2!) = 41,580 decks; none never ends (also by a separate simulation), so
    // exit 1.
    let v = run("--/J-", 1);
    assert_eq!(v["frame"], "Δ1 J--/J- (1)");
    assert_eq!(v["censuses"][0]["decks"], 41_580);
    assert_eq!(v["censuses"][0]["non_terminating"], 0);
    assert!(
        out.join("discover-8-2J2Q2K2A-frameT00-OJ0-ansatz.jsonl")
            .exists()
    );
    // Player 2 first: its own name.
    let v = run("-/J- (2)", 1);
    assert_eq!(v["frame"], "Δ1 J-/J- (2)");
    assert!(
        out.join("discover-8-2J2Q2K2A-frameT0-OJ0-p2-ansatz.jsonl")
            .exists()
    );
    // The 2024 ends named: the default run, its name and its cycles.
    let v = run("-/J- (1)", 0);
    assert_eq!(v["frame"], "Δ1 J-/J- (1)");
    assert!(!v["balanced_cycles"].as_array().unwrap().is_empty());
    assert!(out.join("discover-8-2J2Q2K2A-ansatz.jsonl").exists());
    for (frame, says) in [
        ("x", "write TAIL/OTHER"),
        ("Q-/J-", "number cards and the separator"),
        ("JJ/JJ-", "needs a separator"),
        ("-/J- (3)", "(1) or (2)"),
        ("-/", "at least one card"),
    ] {
        let o = ansatz(&["discover", "-q", &format!("--frame={frame}")]);
        assert_eq!(o.status.code(), Some(2), "{frame}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{frame}: {err}");
    }
    let _ = std::fs::remove_dir_all(out);
}

/// With `--out` in the results tree, a discovery on the standard deck rebuilds the catalogue
/// from every result file there, its own included; its checkpoint stays out of `results/`.
#[test]
fn a_discovery_into_results_rebuilds_the_catalogue() {
    let root = dir("results-tree");
    let assembled = root.join("results/assemble");
    std::fs::create_dir_all(&assembled).unwrap();
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        repo.join("results/assemble/paper-2024-k3.jsonl"),
        assembled.join("paper-2024-k3.jsonl"),
    )
    .unwrap();
    let o = super::common::ansatz_command()
        .args([
            "discover",
            "--quick",
            "--route",
            "insertion",
            "--beam",
            "2",
            "--json",
            "--out",
            "results/discover",
        ])
        .current_dir(&root)
        .output()
        .unwrap();
    // The insertion route alone finds no balanced cycle of the standard deck (exit 1).
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let files: Vec<&str> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert!(
        files.contains(&"results/balanced/balanced-cycles.jsonl"),
        "{files:?}"
    );
    let cat = std::fs::read_to_string(root.join("results/balanced/balanced-cycles.jsonl")).unwrap();
    let summary: Value = serde_json::from_str(cat.lines().next().unwrap()).unwrap();
    // The two result files (the assemble run and this discovery) and the 2024 pieces' 4 cycles.
    assert_eq!(summary["summary"]["files"], 2, "{cat}");
    assert_eq!(summary["summary"]["balanced_cycles"], 4);
    let run: Value = serde_json::from_str(cat.lines().last().unwrap()).unwrap();
    assert_eq!(
        run["run"]["command"],
        "ansatz catalogue --out results/balanced"
    );
    assert!(!root.join("results/discover/work").exists());
    let _ = std::fs::remove_dir_all(root);
}

/// The quick scope on the standard deck against the committed catalogue (a few minutes on 2
/// cores: `cargo test --release discover -- --ignored`).
#[test]
#[ignore]
fn the_quick_scope_finds_known_cycles_of_the_standard_deck() {
    let d = discover(&config("standard", Scope::QUICK), 2, "quick");
    let catalogue = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("results/balanced/balanced-cycles.jsonl"),
    )
    .unwrap();
    let mut known = BTreeSet::new();
    for line in catalogue.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if let Some(c) = v.get("cycle") {
            let pair = [
                c["cycle_id"].as_str().unwrap(),
                c["mirror_cycle_id"].as_str().unwrap(),
            ];
            known.insert((
                pair[0].min(pair[1]).to_string(),
                pair[0].max(pair[1]).to_string(),
            ));
        }
    }
    let found: BTreeSet<(String, String)> = d
        .balanced_cycles
        .iter()
        .map(|b| {
            let (a, m) = (b.cycle_id.clone(), b.mirror_cycle_id.clone());
            (a.clone().min(m.clone()), a.max(m))
        })
        .collect();
    let hits = found.intersection(&known).count();
    assert!(hits >= 8, "{hits} of the catalogue's cycles");
    assert!(d.balanced_cycles.iter().any(|b| b.period == 31 && known.iter().any(|k| k.0 == b.cycle_id || k.1 == b.cycle_id)));
}

#[test]
fn insertion_crosses_a_dead_size_by_two_cards() {
    // On 3J3Q3K3A + 14 the beam of 16 finds no cycle of 25 cards, one card from its 24-card
    // cycles; two cards at once reach the deck's 26 and its balanced cycles (none without them).
    let out = dir("two-cards");
    let v = discover_json(
        &[
            "--deck",
            "14-3J3Q3K3A",
            "--route",
            "insertion",
            "--beam",
            "16",
            "--out",
            out.to_str().unwrap(),
        ],
        0,
    );
    let stage = v["stages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "insertion")
        .unwrap();
    let summary = stage["summary"].as_str().unwrap();
    assert!(
        summary.contains("by two cards at once: 24 to 26"),
        "{summary}"
    );
    let cycles = v["balanced_cycles"].as_array().unwrap();
    assert!(!cycles.is_empty());
    assert!(cycles.iter().all(|c| c["found_by"] == "insertion"));
    assert_deals_reach_their_cycles(cycles, "14-3J3Q3K3A");
    let _ = std::fs::remove_dir_all(out);
}

#[test]
fn the_committed_k_separator_steps_stay_resumable_and_old_insertion_checkpoints_do_not() {
    // The step folder of shards/discover-sepK/ (an ansatz-route run) is resumed only while its
    // fingerprint is the one this version computes for the same command.
    let saved = std::fs::read_to_string(
        "shards/discover-sepK/work/discover-standard-quick-sepK-ansatz.checkpoint/fingerprint.txt",
    )
    .unwrap();
    let mut c = config("standard", Scope::QUICK.with(Route::Ansatz, None));
    c.separator = Some(3);
    c.max_positions = 20_000_000;
    assert_eq!(saved.trim(), c.fingerprint());
    // A run with the insertion route names the two-card growth, so that a checkpoint written
    // before it (its steps past a dead size are empty) is refused.
    let both = config("standard", Scope::QUICK);
    assert!(both.fingerprint().contains(" growth=two-card"));
    assert!(!c.fingerprint().contains("growth"));
}

// Source: results/census/table1.jsonl (Table 1, every deal played), tests/data/
// camicia-never-ending.txt (N1k06/cudacamicia: 162 deals, 15 cycles) and the catalogue
// (results/balanced: 16 balanced cycles of the standard deck).
#[test]
fn recall_knows_every_deck_whose_every_deal_was_played() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let decks = ansatz::run::recall::known_decks(&root).unwrap();
    let get = |d: &str| decks.iter().find(|k| k.deck == d).unwrap();
    // The decks of Table 1 with a deal that never ends (16 even, 15 odd), Camicia, the standard
    // deck.
    assert_eq!(decks.len(), 33);
    // An odd deck is its two rows: 55 and 53 deals of one cycle (period 54) for 2J2Q2K2A + 23.
    let c23 = get("23-2J2Q2K2A");
    assert_eq!(
        (c23.cards, c23.classes.len(), c23.classes[0].deals),
        (31, 1, 108)
    );
    assert_eq!(c23.classes[0].period, 54);
    let (c30, c36) = (get("30-2J2Q2K2A"), get("36-2J2Q2K2A"));
    assert_eq!(
        (
            c30.classes.len(),
            c30.classes[0].deals,
            c30.classes[0].period
        ),
        (1, 59, 24)
    );
    assert_eq!(
        (
            c36.classes.len(),
            c36.classes[0].deals,
            c36.classes[0].period
        ),
        (1, 52, 20)
    );
    let cam = get("camicia");
    assert_eq!(cam.classes.len(), 9);
    assert_eq!(cam.classes.iter().map(|c| c.deals).sum::<u64>(), 162);
    let mut deals: Vec<u64> = cam.classes.iter().map(|c| c.deals).collect();
    deals.sort();
    assert_eq!(deals, [2, 2, 2, 4, 4, 4, 26, 28, 90]);
    let std = get("standard");
    assert!(!std.census);
    assert_eq!(std.classes.len(), 16);
    // A class is a cycle and its mirror image: the two ids differ unless the cycle is its own.
    assert_eq!(
        cam.classes
            .iter()
            .filter(|c| c.cycle_id == c.mirror_cycle_id)
            .count(),
        3
    );
}

#[test]
fn recall_table_of_a_small_deck_and_bad_input() {
    let out = dir("recall");
    let run_recall = || {
        ansatz(&[
            "recall",
            "--scope",
            "quick",
            "--deck",
            "6-2J2Q2K2A",
            "--deck",
            "7-2J2Q2K",
            "--json",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let o = run_recall();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(out.join("recall.jsonl")).unwrap();
    let recall: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter_map(|v| v.get("recall").cloned())
        .collect();
    assert_eq!(recall.len(), 2);
    let deck = |d: &str| recall.iter().find(|r| r["deck"] == d).unwrap();
    // Table 1: 36 cycles of 6-2J2Q2K2A, 18 classes; the deck is played whole.
    let even = deck("6-2J2Q2K2A");
    assert_eq!(even["known"], 18);
    assert_eq!(even["found"].as_array().unwrap().len(), 18);
    assert_eq!(even["whole_deck"], true);
    // An odd deck, both splits played whole: 2J2Q2K + 7's 6 cycles, 4 classes (Table 1's two
    // rows, 84 and 108 deals).
    let odd = deck("7-2J2Q2K");
    assert_eq!(odd["known"], 4);
    assert_eq!(odd["found"].as_array().unwrap().len(), 4);
    assert_eq!(odd["whole_deck"], true);
    assert!(
        std::fs::read_to_string(out.join("recall.md"))
            .unwrap()
            .contains("| 6-2J2Q2K2A | 14 | 18 (1260) | census | 18/18 (whole deck) |")
    );
    // Run again, every discovery is read back from its step file; the table's run line still
    // records what its discoveries cost (so `reproduce --max-seconds` does not take it for cheap).
    assert!(run_recall().status.success());
    let text = std::fs::read_to_string(out.join("recall.jsonl")).unwrap();
    let run: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    let stages: f64 = run["run"]["stage_seconds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["seconds"].as_f64().unwrap())
        .sum();
    assert!(stages > 0.0);
    let seconds = run["run"]["seconds"].as_f64().unwrap();
    assert!(seconds >= stages - 0.01, "{seconds} < {stages}");
    let bad = ansatz(&[
        "recall",
        "--deck",
        "5-2J2Q2K2A",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no known answer"));
    // One deck again: the other's row stays, read back from its step file.
    let one = |extra: &[&str]| {
        let mut args = vec!["recall", "--scope", "quick", "--deck", "6-2J2Q2K2A", "-q"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", out.to_str().unwrap()]);
        ansatz(&args)
    };
    let rows = || {
        std::fs::read_to_string(out.join("recall.jsonl"))
            .unwrap()
            .lines()
            .filter(|l| l.starts_with("{\"recall\""))
            .count()
    };
    assert!(one(&[]).status.success());
    assert_eq!(rows(), 2);
    // Without that step file (a fresh clone's case), the run would drop the row: refused, and
    // the table left as it was; --replace writes the one row.
    std::fs::remove_file(out.join("work/recall/discover-7-2J2Q2K-quick.json")).unwrap();
    let refused = one(&[]);
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("7-2J2Q2K (quick)") && err.contains("--replace"),
        "{err}"
    );
    assert_eq!(rows(), 2);
    assert!(one(&["--replace"]).status.success());
    assert_eq!(rows(), 1);
}

/// The class keys (the smaller id of a cycle and its mirror image) a discovery found, as
/// `ansatz recall` keys the census's.
fn found_classes(known: &ansatz::run::recall::KnownDeck, d: &Discovery) -> BTreeSet<String> {
    let r = ansatz::run::recall::judge(known, "test", Some(d), None);
    assert!(
        r.new.is_empty(),
        "balanced classes the census lacks: {:?}",
        r.new
    );
    r.found.into_iter().map(|f| f.cycle_id).collect()
}

fn known(deck: &str) -> ansatz::run::recall::KnownDeck {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    ansatz::run::recall::known_decks(&root)
        .unwrap()
        .into_iter()
        .find(|k| k.deck == deck)
        .unwrap()
}

// Source: results/census/table1.jsonl: the 7,832,424,600 deals of 2J2Q2K2A + 20 (28 cards)
// reach one class of cycles (46 deals). Discovery finds it from its frame alone, under 1/500 of
// the deals, with neither the frame sweep nor insertion.
#[test]
fn discover_finds_every_class_of_a_28_card_deck_without_its_census() {
    let k = known("20-2J2Q2K2A");
    let scope = Scope {
        insertion: None,
        frame_sweep: 0,
        ..Scope::QUICK
    };
    let d = discover(&config("20-2J2Q2K2A", scope), 2, "recall-28");
    let decks: u64 = d.censuses.iter().map(|c| c.decks).sum();
    assert!(decks < 7_832_424_600 / 500, "{decks} decks");
    let all: BTreeSet<String> = k.classes.iter().map(|c| c.cycle_id.clone()).collect();
    assert_eq!(found_classes(&k, &d), all);
}

// Source: tests/data/camicia-never-ending.txt (N1k06/cudacamicia's census of every Camicia deal:
// 9 classes). The six classes of period 33 pass through the 2024 frame with a last piece of six
// faces that cycles in the bare frame; their censuses are small. With the heads swept no further
// than one card, the bare frame's pieces alone reach those six, and nothing the census lacks.
#[test]
fn bare_frame_pieces_reach_six_camicia_classes() {
    let k = known("camicia");
    let mut scope = Scope {
        insertion: None,
        frame_sweep: 0,
        ..Scope::QUICK
    };
    scope.heads.max_around = 0;
    scope.heads.max_len = 1;
    let mut c = config("camicia", scope);
    c.fill_limit = 0;
    let d = discover(&c, 2, "recall-camicia");
    let found = found_classes(&k, &d);
    let period_33: BTreeSet<String> = k
        .classes
        .iter()
        .filter(|c| c.period == 33)
        .map(|c| c.cycle_id.clone())
        .collect();
    assert_eq!(period_33.len(), 6);
    assert_eq!(found, period_33);
}

// Source: results/census/table1.jsonl: every deal of 2J2Q2K2A + 30 (38 cards) reaches one class
// (period 24, 59 deals), and every deal of 2J2Q2K2A + 36 (44 cards) one class (period 20, 52
// deals); results/discover/recall.md: the default scope finds them through the King frames
// `Δ1 K Δ2 K---/-J- (1)` and `Δ1 K Δ2 K---/-J-- (1)`, and `--quick` found neither. Smallest
// first, those frames come 42nd and 33rd, past the quick sweep's budget; in the sweep's order
// (`frame::sweep_rank`: player 2 holding the deck's lowest face kind, beside another separator)
// the quick sweep runs them. The 38-card deck's frame, searched alone (1.3·10^8 decks), holds
// its class and nothing the census lacks.
#[test]
fn the_quick_sweep_runs_the_late_frames_that_hold_a_class() {
    use ansatz::discover::frame::{sweep, whole_frame_decks};
    use ansatz::discover::stages::frames::plan;
    for (deck, held) in [
        ("30-2J2Q2K2A", "Δ1 K Δ2 K---/-J- (1)"),
        ("36-2J2Q2K2A", "Δ1 K Δ2 K---/-J-- (1)"),
    ] {
        let spec: DeckSpec = deck.parse().unwrap();
        let (ranked, _) = plan(spec, &Scope::QUICK);
        assert!(ranked.iter().any(|f| f.1 == held), "{deck}: {held} not run");
        // Smallest first, the same budget would not reach it.
        let mut by_size: Vec<(u64, String)> = sweep(spec)
            .iter()
            .map(|d| (whole_frame_decks(d), d.display()))
            .filter(|(n, _)| *n > 0 && *n <= Scope::QUICK.frame_sweep_limit)
            .collect();
        by_size.sort();
        let at = by_size.iter().position(|f| f.1 == held).unwrap();
        let before: u64 = by_size[..=at].iter().map(|f| f.0).sum();
        assert!(before > Scope::QUICK.frame_sweep, "{deck}: {before}");
    }
    let k = known("30-2J2Q2K2A");
    let mut c = config("30-2J2Q2K2A", Scope::QUICK.with(Route::Ansatz, None));
    c.separator = Some(ansatz::card::KING);
    c.ends = Some("---/-J-".parse().unwrap());
    let d = discover(&c, 2, "quick-late-frame");
    assert_eq!(d.frame, "Δ1 K Δ2 K---/-J- (1)");
    let all: BTreeSet<String> = k.classes.iter().map(|c| c.cycle_id.clone()).collect();
    assert_eq!(all.len(), 1);
    assert_eq!(found_classes(&k, &d), all);
}

// Source: results/census/table1.jsonl: every deal of 2J2Q2K + 24 (30 cards, 53,439,750 deals)
// reaches three classes, of periods 24, 8 and 4 (results/README.md: through the routes alone
// the frame sweep finds only the first; the period-4 class has no short hand at all). The split
// route alone, with no frame, no piece and no deck played whole, plays the deck's smallest
// compositions (10^7 positions of player 1 to move) and reaches the classes of periods 8 and 4,
// and nothing the census lacks.
#[test]
fn the_split_route_reaches_the_classes_no_frame_holds() {
    use ansatz::discover::split::SplitScope;
    let k = known("24-2J2Q2K");
    let scope = Scope {
        split: Some(SplitScope {
            positions: 10_000_000,
        }),
        ansatz: false,
        ..SMALL_HEADS
    };
    let d = discover(&config("24-2J2Q2K", scope), 2, "split-24");
    let stage = d.stages.iter().find(|s| s.name == "split").unwrap();
    assert!(stage.work <= 10_000_000, "{} positions", stage.work);
    assert!(
        d.stages.iter().all(|s| s.name != "deck"),
        "no deck played whole"
    );
    let found = found_classes(&k, &d);
    let no_frame: BTreeSet<String> = k
        .classes
        .iter()
        .filter(|c| c.period == 8 || c.period == 4)
        .map(|c| c.cycle_id.clone())
        .collect();
    assert_eq!(no_frame.len(), 2);
    assert!(found.is_superset(&no_frame), "found {found:?}");
    assert!(d.balanced_cycles.iter().all(|b| b.found_by == "split"));
}
