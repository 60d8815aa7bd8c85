//! Pieces: the prefix-sharing enumeration against the naive checker, templates, classes, the
//! library format, checkpoints and resume, mutate, and the commands' exit codes.

use std::path::{Path, PathBuf};

use proptest::prelude::*;

use ansatz::ansatz::enumerate::{Enumerator, Params, naive_pieces};
use ansatz::ansatz::find::{FindConfig, Method, Search, face_assignments};
use ansatz::ansatz::mutate::{MutateConfig, mutate};
use ansatz::ansatz::piece::classes;
use ansatz::ansatz::template::Template;
use ansatz::card::Card;
use ansatz::engine::{self, Game, cycle, reference};
use ansatz::library::{self, LibraryError};
use ansatz::notation::{Notation, parse_hand};
use ansatz::position::Position;

use super::common::{ansatz as run, stdout};

fn cards(s: &str) -> Vec<Card> {
    parse_hand(s, Notation::Dash).unwrap()
}

fn params(min_len: usize, max_len: usize, max_faces: usize) -> Params {
    Params {
        min_len,
        max_len,
        max_faces,
        max_per_kind: 4,
        kinds: vec![2, 3, 4],
        exact: None,
    }
}

/// Every piece of `e`, sorted. Each range gives the same pieces in the same order whether its
/// candidates' games run in the 64-card lanes (with AVX-512) or one by one.
fn all_ranges(e: &Enumerator) -> Vec<Vec<Card>> {
    let mut v: Vec<Vec<Card>> = (0..e.ranges())
        .flat_map(|i| {
            let lanes = e.run_range_with(i, true);
            assert_eq!(lanes, e.run_range_with(i, false), "range {i}");
            lanes
        })
        .collect();
    v.sort();
    v
}

/// A fresh scratch directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("pieces-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn prefix_sharing_equals_naive_len_10_faces_3() {
    let t = Template::jack();
    let p = params(0, 10, 3);
    let mut naive = naive_pieces(&t, &p);
    naive.sort();
    for depth in [1, 7, 300, 1_000_000] {
        let e = Enumerator::new(&t, &p, depth).unwrap();
        assert_eq!(all_ranges(&e), naive, "depth {depth}");
        let mut per_range: Vec<Vec<Card>> =
            (0..e.ranges()).flat_map(|i| e.run_range_naive(i)).collect();
        per_range.sort();
        assert_eq!(per_range, naive, "naive ranges, depth {depth}");
    }
    // Source: arXiv:2403.13855 (2024), Appendix C: `--` and `--Q-Q` are pieces of the jack template.
    assert!(naive.contains(&cards("--")));
    assert!(naive.contains(&cards("--Q-Q")));
}

#[test]
fn prefix_sharing_equals_naive_with_tight_kind_limits() {
    let t = Template::jack();
    let p = Params {
        min_len: 3,
        max_len: 12,
        max_faces: 4,
        max_per_kind: 2,
        kinds: vec![2, 3, 4],
        exact: None,
    };
    let mut naive = naive_pieces(&t, &p);
    naive.sort();
    assert_eq!(all_ranges(&Enumerator::new(&t, &p, 4).unwrap()), naive);
    assert!(naive.iter().all(|s| s.len() >= 3));
}

#[test]
fn candidate_counts_match_brute_force() {
    fn brute(p: &Params, path: &mut Vec<Card>, n: &mut u64) {
        if path.len() >= p.min_len {
            *n += 1;
        }
        if path.len() == p.max_len {
            return;
        }
        for c in [0, 2, 3, 4] {
            let faces = path.iter().filter(|&&x| x != 0).count();
            let same = path.iter().filter(|&&x| x == c).count();
            if c != 0 && (faces >= p.max_faces || same >= p.max_per_kind) {
                continue;
            }
            path.push(c);
            brute(p, path, n);
            path.pop();
        }
    }
    let t = Template::jack();
    for p in [
        params(0, 9, 3),
        params(2, 11, 6),
        Params {
            max_per_kind: 1,
            ..params(1, 8, 3)
        },
    ] {
        let mut n = 0;
        brute(&p, &mut Vec::new(), &mut n);
        for depth in [1, 2, 50, 100_000] {
            assert_eq!(
                Enumerator::new(&t, &p, depth).unwrap().total_candidates(),
                n,
                "{p:?} depth {depth}"
            );
        }
    }
    // The figure: lengths up to 24 with at most 5 faces is 47 M candidates.
    let e = Enumerator::new(&t, &params(1, 24, 5), 6).unwrap();
    assert_eq!(e.total_candidates(), 47_170_704);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    /// The lazy game of the enumeration agrees with the fast and the reference engines.
    #[test]
    fn lazy_verdict_equals_engines(test in prop::collection::vec(prop::sample::select(vec![0u8, 0, 0, 2, 3, 4]), 0..34)) {
        let t = Template::jack();
        let e = Enumerator::new(&t, &params(0, 40, 40), 0).unwrap();
        let pos = t.fill(&test);
        let fast = !cycle::terminates(&Game::<u64>::from_position(&pos));
        prop_assert_eq!(e.is_piece(&test), fast);
        prop_assert_eq!(reference::play(&pos).is_cycle(), fast);
    }

    /// A library survives a write and a read.
    #[test]
    fn library_round_trips(seqs in prop::collection::vec(prop::collection::vec(0u8..5, 0..30), 0..20)) {
        let t = Template::jack();
        let (lib, _) = ansatz::ansatz::find::build_library(&t, enumeration("exact"), seqs, "ansatz test".into());
        let bytes = library::encode(&lib);
        prop_assert_eq!(library::decode(&bytes, Path::new("x")).unwrap(), lib);
    }
}

fn enumeration(method: &str) -> library::Enumeration {
    library::Enumeration {
        method: method.into(),
        min_len: 0,
        max_len: 30,
        max_faces: 5,
        max_per_kind: 4,
        candidates: 7,
    }
}

#[test]
fn paper_pieces_within_limits_are_found() {
    // Source: arXiv:2403.13855 (2024), Appendix C (tests/data/pieces-2024.txt).
    let t = Template::jack();
    let p = params(1, 15, 4);
    let found = all_ranges(&Enumerator::new(&t, &p, 6).unwrap());
    let mut checked = 0;
    for line in super::common::data_lines("pieces-2024.txt") {
        let seq = cards(&line);
        let faces = seq.iter().filter(|&&c| c != 0).count();
        let most = (2..5)
            .map(|k| seq.iter().filter(|&&c| c == k).count())
            .max()
            .unwrap();
        if seq.len() <= 15 && faces <= 4 && most <= 4 {
            assert!(found.binary_search(&seq).is_ok(), "{line} not found");
            checked += 1;
        }
    }
    // The exact enumeration also finds the two pieces the single-kind heuristic (`--faces-as`) misses.
    assert!(checked >= 10, "{checked}");
    assert!(found.binary_search(&cards("--K---A----AA")).is_ok());
    assert!(found.binary_search(&cards("--------A-KAA")).is_ok());
}

#[test]
fn faces_as_is_a_subset_of_exact() {
    let t = Template::jack();
    let p = params(1, 13, 4);
    let exact = all_ranges(&Enumerator::new(&t, &p, 5).unwrap());
    let search = Search::new(FindConfig {
        template: t.clone(),
        params: p.clone(),
        method: Method::FacesAs(3),
        ranges: 100,
    })
    .unwrap();
    let mut heur: Vec<Vec<Card>> = (0..search.ranges())
        .flat_map(|i| search.run_range(i).pieces)
        .collect();
    heur.sort();
    assert!(!heur.is_empty());
    assert!(heur.iter().all(|h| exact.binary_search(h).is_ok()));
    // Source: the project's own exploratory runs (docs/ansatz.md): the heuristic misses this piece.
    assert!(heur.binary_search(&cards("--K---A----AA")).is_err());
    assert_eq!(face_assignments(&cards("-K-K"), &p).len(), 9);
}

#[test]
fn jack_template_and_other_face_templates() {
    let t = Template::jack();
    assert_eq!(t.display(), "--J--K---A----AAJ{TEST}J-/J- (1)");
    assert_eq!(
        t.fill(&cards("--")).to_string(),
        "--J--K---A----AAJ--J-/J- (1)"
    );
    let q = Template::parse(
        "name = queen\nposition = --Q{FILTER}Q{TEST}Q-/Q- (1)\nfilter = --K\nfaces = JKA\n",
        "queen.txt",
    )
    .unwrap();
    assert_eq!(q.display(), "--Q--KQ{TEST}Q-/Q- (1)");
    assert_eq!(q.alphabet(), vec![0, 1, 3, 4]);
    let p = Params {
        min_len: 0,
        max_len: 9,
        max_faces: 3,
        max_per_kind: 4,
        kinds: q.faces.clone(),
        exact: None,
    };
    let mut naive = naive_pieces(&q, &p);
    naive.sort();
    assert_eq!(all_ranges(&Enumerator::new(&q, &p, 3).unwrap()), naive);
    // TEST in player 2's hand, player 2 to move.
    let two = Template::parse("position = J-/-{TEST}J- (2)", "two.txt").unwrap();
    assert_eq!(two.fill(&cards("QA")).to_string(), "J-/-QAJ- (2)");
    let mut naive = naive_pieces(&two, &params(0, 9, 3));
    naive.sort();
    assert_eq!(
        all_ranges(&Enumerator::new(&two, &params(0, 9, 3), 2).unwrap()),
        naive
    );
}

/// The progress bar's total for `mutate` bounds the games it plays, and is not far above them:
/// from one and two operations, with and without re-splits, on a small position.
#[test]
fn mutate_games_bound_bounds_the_games_played() {
    use std::sync::atomic::{AtomicU64, Ordering};
    let start = Position::parse("J--Q-/-K-- (1)", Notation::Dash).unwrap();
    for ops in [1, 2] {
        for split_points in [false, true] {
            let cfg = MutateConfig { ops, split_points };
            let played = AtomicU64::new(0);
            mutate(&start, &cfg, &|n| {
                played.fetch_add(n, Ordering::Relaxed);
            });
            let played = played.into_inner();
            let bound = ansatz::ansatz::mutate::games_bound(&start, &cfg);
            assert!(
                played > 0 && played <= bound,
                "{cfg:?}: {played} games, bound {bound}"
            );
            assert!(
                bound <= 40 * played,
                "{cfg:?}: {played} games, bound {bound}"
            );
        }
    }
}

/// An import records the limits its pieces reach: lengths, face cards (not number cards) and
/// the most of one kind.
#[test]
fn an_import_records_the_limits_its_pieces_reach() {
    let t = Template::jack();
    let (pieces, e) =
        ansatz::ansatz::import::import_pieces(&t, "--\n--Q-Q # two Queens\n", "list.txt").unwrap();
    assert_eq!(pieces, vec![cards("--"), cards("--Q-Q")]);
    assert_eq!(e.method, "import list.txt");
    assert_eq!(
        (
            e.min_len,
            e.max_len,
            e.max_faces,
            e.max_per_kind,
            e.candidates
        ),
        (2, 5, 2, 2, 2)
    );
}

/// `{TEST}` may close its hand: nothing after it, every card of the hand before it.
#[test]
fn a_test_slot_may_end_its_hand() {
    let t = Template::parse("position = --J-J{TEST}/J- (1)", "end.txt").unwrap();
    assert_eq!(t.before, cards("--J-J"));
    assert!(t.after.is_empty());
    assert_eq!(t.fill(&cards("Q-")).to_string(), "--J-JQ-/J- (1)");
}

#[test]
fn malformed_templates_name_line_and_reason() {
    let cases = [
        ("position = --J{TEST}/J-\nfoo = 1\n", 2, "unknown key"),
        ("name = x\n", 0, "no `position"),
        ("position = --J/J- (1)\n", 1, "exactly one {TEST}"),
        ("position = {TEST}{TEST}/J-\n", 1, "exactly one {TEST}"),
        ("position = --J{FILTER}{TEST}/J-\n", 1, "no `filter"),
        (
            "position = --J{TEST}/J-\nfilter = --\n",
            2,
            "no {FILTER} slot",
        ),
        ("position = --X{TEST}/J-\n", 1, "bad position"),
        (
            "\n\nposition = --J{TEST}/J-\nfaces = QZ\n",
            4,
            "unknown face kind",
        ),
        (
            "position = --J{TEST}/J-\nthis line has no equals\n",
            2,
            "key = value",
        ),
        ("position = --J{TEST}/J-/J-\n", 1, "bad position"),
    ];
    for (text, line, reason) in cases {
        let e = Template::parse(text, "t.txt").unwrap_err();
        assert_eq!(e.line, line, "{text:?}: {e}");
        assert!(e.to_string().contains(reason), "{text:?}: {e}");
    }
}

#[test]
fn classes_follow_chains_of_single_operations() {
    let set: Vec<Vec<Card>> = ["AAAA", "-Q-", "---", "--", "-Q-Q", "K"]
        .iter()
        .map(|s| cards(s))
        .collect();
    let c = classes(&set, &[0, 2, 3, 4]);
    // `--` - `---` (add) - `-Q-` (swap) - `-Q-Q` (add); `K` - ... no neighbour; `AAAA` alone.
    assert_eq!(c[3], c[2]);
    assert_eq!(c[2], c[1]);
    assert_eq!(c[1], c[4]);
    assert_ne!(c[0], c[3]);
    assert_ne!(c[5], c[3]);
    // Ids follow the representatives: `K` (length 1) is class 0, `--` class 1, `AAAA` class 2.
    assert_eq!((c[5], c[3], c[0]), (0, 1, 2));
}

/// A library of two pieces of the jack template (`--` and `--Q-Q`), for the reader's tests.
fn two_piece_library() -> library::Library {
    let (lib, _) = ansatz::ansatz::find::build_library(
        &Template::jack(),
        enumeration("exact"),
        vec![cards("--"), cards("--Q-Q")],
        "ansatz test".into(),
    );
    lib
}

#[test]
fn library_rejects_foreign_newer_truncated_and_corrupt_files() {
    let lib = two_piece_library();
    let bytes = library::encode(&lib);
    let p = Path::new("x.bin");
    assert!(matches!(
        library::decode(b"hello world, not a library", p),
        Err(LibraryError::NotLibrary { .. })
    ));
    let mut newer = bytes.clone();
    newer[8..12].copy_from_slice(&99u32.to_le_bytes());
    let e = library::decode(&newer, p).unwrap_err();
    assert!(matches!(e, LibraryError::Newer { found: 99, .. }), "{e}");
    for cut in 1..bytes.len() {
        let e = library::decode(&bytes[..cut], p).unwrap_err();
        assert!(
            matches!(e, LibraryError::Truncated { .. }),
            "cut at {cut}: {e}"
        );
    }
    for at in 12..bytes.len() {
        let mut bad = bytes.clone();
        bad[at] ^= 0x40;
        assert!(library::decode(&bad, p).is_err(), "flip at {at}");
    }
}

/// A piece record that contradicts itself or the library, in a file whose lengths and checksum
/// are right (written by `encode`, which checks nothing), is refused: each of the four checks
/// alone (a card past the kinds, a length that is not the sequence's, a class past the piece
/// count, counts that are not the sequence's).
#[test]
fn library_refuses_each_inconsistent_record() {
    let lib = two_piece_library();
    assert!(library::decode(&library::encode(&lib), Path::new("x.bin")).is_ok());
    // What is broken, and how.
    type Break = (&'static str, fn(&mut library::PieceRecord));
    let breaks: [Break; 4] = [
        ("card past the kinds", |p| p.sequence[0] = 9),
        ("length", |p| p.length += 1),
        ("class", |p| p.class = 2),
        ("counts", |p| p.counts[0] += 1),
    ];
    for (what, break_it) in breaks {
        let mut bad = lib.clone();
        break_it(&mut bad.pieces[1]);
        let e = library::decode(&library::encode(&bad), Path::new("x.bin")).unwrap_err();
        assert!(
            matches!(&e, LibraryError::Corrupt { detail, .. } if detail.contains("piece record 1 is inconsistent")),
            "{what}: {e}"
        );
    }
}

/// Seals a crafted library `body` with its checksum and asserts that it reads as corrupt with a
/// detail holding `reason` (`what` names the case in a failure).
fn assert_sealed_corrupt(mut body: Vec<u8>, reason: &str, what: &str) {
    let sum = library::fnv1a(&body);
    body.extend_from_slice(&sum.to_le_bytes());
    let e = library::decode(&body, Path::new("x.bin")).unwrap_err();
    assert!(
        matches!(&e, LibraryError::Corrupt { detail, .. } if detail.contains(reason)),
        "{what}: {e}"
    );
}

/// A file too short for a header, whose length field and checksum are right (crafted: no cut
/// or flip of a real library gives one), is a corrupt library at every length from 28 bytes (the
/// magic, version, length and checksum) to 43, never a read past its end.
#[test]
fn library_too_short_for_a_header_is_corrupt() {
    for len in 28..44u64 {
        let mut body = library::MAGIC.to_vec();
        body.extend_from_slice(&library::VERSION.to_le_bytes());
        body.extend_from_slice(&len.to_le_bytes());
        body.resize(len as usize - 8, 0);
        assert_sealed_corrupt(body, "too short", &format!("{len} bytes"));
    }
}

/// A header length that runs past the records, in a file whose checksum and length are
/// otherwise right (a crafted file, not a cut or flipped one), is a corrupt library, not a slice
/// past the end: every length from one byte past the body to the body's length plus the
/// header's start.
#[test]
fn library_header_length_past_the_body_is_corrupt() {
    let lib = two_piece_library();
    let bytes = library::encode(&lib);
    let body_len = bytes.len() - 8;
    for past in 1..=28u64 {
        let mut body = bytes[..body_len].to_vec();
        let claim = (body_len as u64 - 28) + past;
        body[20..28].copy_from_slice(&claim.to_le_bytes());
        assert_sealed_corrupt(body, "header length", &format!("header length {claim}"));
    }
}

/// A header that ends fewer than 8 bytes before the checksum leaves no room for the piece count:
/// a corrupt library (crafted, with its file length and checksum right), not a read past the end,
/// for each of the 8 sizes short of a count.
#[test]
fn library_without_room_for_the_piece_count_is_corrupt() {
    let bytes = library::encode(&two_piece_library());
    let header_len = u64::from_le_bytes(bytes[20..28].try_into().unwrap()) as usize;
    for room in 0..8 {
        let mut body = bytes[..28 + header_len + room].to_vec();
        let file_len = body.len() as u64 + 8;
        body[12..20].copy_from_slice(&file_len.to_le_bytes());
        let what = format!("{room} bytes after the header");
        assert_sealed_corrupt(body, "no room for the piece count", &what);
    }
}

#[test]
fn find_pieces_resume_after_interruption_gives_the_same_library() {
    let dir = scratch("resume");
    let out = dir.join("lib.bin");
    let args = [
        "find-pieces",
        "--max-len",
        "14",
        "--max-faces",
        "4",
        "--ranges",
        "300",
        "--quiet",
        "--out",
        s(&out),
    ];
    let o = run(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let whole = std::fs::read(&out).unwrap();
    std::fs::remove_file(&out).unwrap();
    let ck = dir.join("lib.bin.checkpoint");
    let mut a = args.to_vec();
    a.extend(["--stop-after-ranges", "7", "--threads", "1"]);
    assert!(run(&a).status.success());
    assert!(ck.exists() && !out.exists());
    // A torn last record, as a kill -9 in the middle of a write leaves it.
    let mut raw = std::fs::read(&ck).unwrap();
    raw.extend_from_slice(&[40, 0, 0, 0, 1, 2, 3]);
    std::fs::write(&ck, raw).unwrap();
    // Without --resume the unfinished run is not thrown away.
    let o = run(&args);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--resume"));
    // Interrupt once more, then finish.
    let mut a = args.to_vec();
    a.extend(["--resume", "--stop-after-ranges", "5"]);
    assert!(run(&a).status.success());
    // The stopped runs logged their time; one more earlier run of 1000 s, and the resumed run
    // counts them all with its own.
    use ansatz::library::checkpoint::Elapsed;
    use ansatz::run::find_pieces::FindRecord;
    let earlier = super::common::add_to_checkpoint(
        &ck,
        FindRecord::Elapsed(Elapsed {
            segment: 1,
            seconds: 1000.0,
        }),
    );
    let ranges = earlier
        .iter()
        .filter(|r| matches!(r, FindRecord::Range(_)))
        .count();
    assert_eq!(ranges, 12, "7 ranges, then 5 more");
    assert!(matches!(earlier.last(), Some(FindRecord::Elapsed(_))));
    let mut a = args.to_vec();
    a.extend(["--resume", "--json"]);
    let o = run(&a);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let secs = v["seconds"].as_f64().unwrap();
    assert!((1000.0..1100.0).contains(&secs), "{secs}");
    assert_eq!(v["resumed"], true);
    let rate = v["candidates_per_second"].as_f64().unwrap();
    let want = v["candidates"].as_f64().unwrap() / secs;
    assert!((rate - want).abs() <= 1e-9 * want, "{rate} vs {want}");
    assert_eq!(std::fs::read(&out).unwrap(), whole);
    assert!(!ck.exists());
    // A checkpoint of other parameters is refused.
    let mut a = args.to_vec();
    a.extend(["--stop-after-ranges", "1"]);
    assert!(run(&a).status.success());
    let o = run(&[
        "find-pieces",
        "--max-len",
        "13",
        "--max-faces",
        "4",
        "--quiet",
        "--resume",
        "--out",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("another run"));
}

#[test]
fn find_pieces_json_and_inspect() {
    let dir = scratch("json");
    let out = dir.join("lib.bin");
    let o = run(&[
        "find-pieces",
        "--max-len",
        "13",
        "--max-faces",
        "3",
        "--json",
        "--out",
        s(&out),
        "--threads",
        "2",
    ]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    for key in [
        "candidates",
        "pieces",
        "classes",
        "seconds",
        "candidates_per_second",
    ] {
        assert!(!v[key].is_null(), "{key}");
    }
    let o1 = run(&[
        "find-pieces",
        "--max-len",
        "13",
        "--max-faces",
        "3",
        "--json",
        "--out",
        s(&dir.join("one.bin")),
        "--threads",
        "1",
    ]);
    let v1: serde_json::Value = serde_json::from_str(&stdout(&o1)).unwrap();
    assert_eq!(v["pieces"], v1["pieces"]);
    let lib = library::read(&out).unwrap();
    assert_eq!(
        lib.pieces,
        library::read(&dir.join("one.bin")).unwrap().pieces
    );
    assert_eq!(lib.pieces.len() as u64, v["pieces"].as_u64().unwrap());
    assert_eq!(lib.header.template.game, "--J--K---A----AAJ{TEST}J-/J- (1)");
    let o = run(&["inspect", s(&out), "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let p0 = &v["pieces"][0];
    for key in [
        "sequence",
        "class",
        "length",
        "faces",
        "numbers",
        "period",
        "accumulation",
    ] {
        assert!(!p0[key].is_null(), "{key}");
    }
    assert_eq!(p0["sequence"], "--");
    assert_eq!(v["classes"][0]["representative"], "--");
    let o = run(&["inspect", s(&out), "--contains", "Q-Q", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(
        v["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["sequence"].as_str().unwrap().contains("Q-Q"))
    );
    let o = run(&["inspect", s(&out)]);
    let text = stdout(&o);
    assert!(
        text.contains("by length") && text.contains("by class"),
        "{text}"
    );
}

#[test]
fn bad_input_exits_2() {
    let dir = scratch("bad");
    let junk = dir.join("junk.bin");
    std::fs::write(&junk, b"this is not a library at all").unwrap();
    let tpl = dir.join("bad.txt");
    std::fs::write(&tpl, "position = --J/J-\n").unwrap();
    let lib = dir.join("ok.bin");
    assert!(
        run(&["find-pieces", "--max-len", "6", "--quiet", "--out", s(&lib)])
            .status
            .success()
    );
    let bytes = std::fs::read(&lib).unwrap();
    let (a, b, c, d) = (
        dir.join("a.bin"),
        dir.join("b.bin"),
        dir.join("c.bin"),
        dir.join("d.bin"),
    );
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["inspect", s(&junk)], "not an ansatz piece library"),
        (vec!["inspect", s(&cut)], "truncated"),
        (vec!["inspect", "/nonexistent/x.bin"], "cannot read"),
        (
            vec!["find-pieces", "--template", s(&tpl), "--out", s(&a)],
            "line 1",
        ),
        (
            vec![
                "find-pieces",
                "--min-len",
                "5",
                "--max-len",
                "3",
                "--out",
                s(&b),
            ],
            "--min-len",
        ),
        (
            vec!["find-pieces", "--faces-as", "X", "--out", s(&c)],
            "--faces-as",
        ),
        (vec!["find-pieces", "--max-len", "60", "--out", s(&d)], "64"),
        (vec!["mutate", "--X/J-"], "bad position"),
        (
            vec!["find-pieces", "--fill", "--deck", "4-1J", "--out", s(&d)],
            "has only 4",
        ),
        (
            vec![
                "find-pieces",
                "--fill",
                "--deck",
                "40-5J4Q4K4A",
                "--out",
                s(&d),
            ],
            "lets TEST hold only QKA",
        ),
        (
            vec!["find-pieces", "--fill", "--deck", "x", "--out", s(&d)],
            "deck spec",
        ),
    ];
    for (args, needle) in cases {
        let o = run(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn paper_library_is_shipped_and_reads() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("pieces/paper-2024.bin");
    let lib = library::read(&path).unwrap();
    // Source: arXiv:2403.13855 (2024), Appendix C: 26 representatives.
    assert_eq!(lib.pieces.len(), 26);
    assert_eq!(lib.header.template.game, Template::jack().display());
    assert!(lib.pieces.iter().all(|p| p.period > 0));
}

#[test]
fn mutate_finds_cycling_neighbours_once_each() {
    // Source: arXiv:2403.13855 (2024), §3: the assembled deck of the 2024 cycle.
    let start = Position::parse(
        "--K---A----AAJ--J--------K---------Q-Q-K---Q-KAQJ-/J- (1)",
        Notation::Dash,
    )
    .unwrap();
    let cfg = MutateConfig {
        ops: 1,
        split_points: false,
    };
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let a = one.install(|| mutate(&start, &cfg, &|_| {}));
    let b = two.install(|| mutate(&start, &cfg, &|_| {}));
    assert_eq!(a, b);
    assert!(!a.is_empty());
    let mut seen = std::collections::HashSet::new();
    for m in &a {
        assert!(seen.insert(m.position.clone()));
        assert_eq!(m.ops.len(), 1);
        assert!(engine::play(&m.position).is_cycle());
        assert_ne!(m.position, start);
    }
    // The split-point search contains every plain result.
    let split = mutate(
        &start,
        &MutateConfig {
            ops: 1,
            split_points: true,
        },
        &|_| {},
    );
    for m in &a {
        assert!(split.iter().any(|x| x.position == m.position));
    }
    assert!(split.len() >= a.len());
}

#[test]
fn shipped_queen_template_has_pieces() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("templates/queen.txt");
    let q = Template::read(&path).unwrap();
    assert_eq!(q.name, "queen");
    assert_eq!(q.faces, vec![1, 3, 4]);
    let p = Params {
        min_len: 1,
        max_len: 14,
        max_faces: 4,
        max_per_kind: 4,
        kinds: q.faces.clone(),
        exact: None,
    };
    // The count the template file quotes.
    assert_eq!(all_ranges(&Enumerator::new(&q, &p, 6).unwrap()).len(), 40);
}

#[test]
fn mutate_one_op_equals_a_plain_rewrite_and_two_ops_add_new_positions() {
    // Source: arXiv:2403.13855 (2024): the balanced non-terminating deal.
    let start = Position::parse(
        "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)",
        Notation::Dash,
    )
    .unwrap();
    // Every one-card edit of either hand, written out directly, judged by the reference engine.
    let mut plain = std::collections::BTreeSet::new();
    for h in 0..2 {
        let hand = &start.hands[h];
        let mut edits: Vec<Vec<Card>> = Vec::new();
        for i in 0..=hand.len() {
            for c in 0..5 {
                let mut v = hand.clone();
                v.insert(i, c);
                edits.push(v);
            }
        }
        for i in 0..hand.len() {
            let mut v = hand.clone();
            v.remove(i);
            edits.push(v);
            for c in 0..5 {
                let mut v = hand.clone();
                v[i] = c;
                edits.push(v);
            }
        }
        for e in edits {
            let mut p = start.clone();
            p.hands[h] = e;
            if p != start && reference::play(&p).is_cycle() {
                plain.insert(p.to_string());
            }
        }
    }
    let one = mutate(
        &start,
        &MutateConfig {
            ops: 1,
            split_points: false,
        },
        &|_| {},
    );
    let got: std::collections::BTreeSet<String> =
        one.iter().map(|m| m.position.to_string()).collect();
    assert_eq!(got.len(), one.len());
    assert_eq!(got, plain);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let cfg = MutateConfig {
        ops: 2,
        split_points: false,
    };
    let two = mutate(&start, &cfg, &|_| {});
    assert_eq!(two, pool.install(|| mutate(&start, &cfg, &|_| {})));
    assert!(two.windows(2).all(|w| w[0].ops.len() <= w[1].ops.len()));
    for m in &two {
        assert_eq!(
            m.ops.len() == 1,
            plain.contains(&m.position.to_string()),
            "{}",
            m.position
        );
    }
    assert!(two.len() > one.len());
}

#[test]
fn find_pieces_exits_1_when_no_piece_is_found() {
    let dir = scratch("none");
    let tpl = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("templates/queen.txt");
    let out = dir.join("none.bin");
    let o = run(&[
        "find-pieces",
        "--template",
        s(&tpl),
        "--max-len",
        "2",
        "--quiet",
        "--out",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(library::read(&out).unwrap().pieces.is_empty());
}

/// A small template whose fills finish in well under a second: `--J{TEST}J-/J-` with the deck
/// 12-3J2Q2K2A leaves 8 number cards and two each of Q, K, A, 270,270 arrangements.
const SMALL_FILL_TEMPLATE: &str = "name = jack2\nposition = --J{TEST}J-/J- (1)\nfaces = QKA\n";

#[test]
fn fill_equals_every_arrangement_played_from_scratch() {
    let t = Template::parse(SMALL_FILL_TEMPLATE, "jack2").unwrap();
    let p = Params::fill([8, 0, 2, 2, 2]);
    // The oracle: every multiset permutation, in lexicographic order, each played alone.
    let mut arrangement = cards("--------QQKKAA");
    let mut brute = Vec::new();
    let mut n = 0u64;
    loop {
        n += 1;
        if !cycle::terminates(&Game::<u64>::from_position(&t.fill(&arrangement))) {
            brute.push(arrangement.clone());
        }
        if !ansatz::assemble::candidates::next_permutation(&mut arrangement) {
            break;
        }
    }
    brute.sort();
    assert_eq!(n, 270_270);
    assert!(
        !brute.is_empty(),
        "the test needs some decks that never end"
    );
    for wanted in [1, 50, 100_000] {
        let e = Enumerator::new(&t, &p, wanted).unwrap();
        assert_eq!(e.total_candidates(), n, "counted, not visited");
        assert_eq!(all_ranges(&e), brute, "prefix sharing, {wanted} ranges");
    }
    let mut naive = naive_pieces(&t, &p);
    naive.sort();
    assert_eq!(naive, brute, "the naive checker");
}

#[test]
fn find_pieces_fill_writes_every_full_deck() {
    let dir = scratch("fill");
    let tpl = dir.join("jack2.txt");
    std::fs::write(&tpl, SMALL_FILL_TEMPLATE).unwrap();
    let out = dir.join("fill.bin");
    let o = run(&[
        "find-pieces",
        "--template",
        s(&tpl),
        "--fill",
        "--deck",
        "12-3J2Q2K2A",
        "--json",
        "--quiet",
        "--out",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["candidates"], 270_270);
    assert_eq!(v["method"], "exact fill 8-2Q2K2A");
    let lib = library::read(&out).unwrap();
    assert_eq!(lib.pieces.len() as u64, v["pieces"].as_u64().unwrap());
    for piece in &lib.pieces {
        // Each piece completes the deck, and the deck never ends.
        let pos = Template::parse(SMALL_FILL_TEMPLATE, "jack2")
            .unwrap()
            .fill(&piece.sequence);
        assert_eq!(pos.deck().to_string(), "12-3J2Q2K2A");
        assert!(engine::play(&pos).is_cycle());
    }
}

/// The shipped published pieces: the 2024 long piece is the accumulator (player 2 holds 22 cards
/// in its template game's cycle; source tests/data/pieces-2024.txt and `ansatz play --trace`),
/// and the text output counts the pieces by accumulation.
#[test]
fn inspect_reports_the_accumulator() {
    let o = run(&["inspect", "pieces/paper-2024.bin", "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let acc = |seq: &str| {
        v["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["sequence"] == seq)
            .map(|p| p["accumulation"].as_u64().unwrap())
            .unwrap()
    };
    assert_eq!(acc("--------K---------Q-Q-K---Q-KKQ"), 22);
    assert!(acc("--K---A----AA") <= 13);
    let o = run(&["inspect", "pieces/paper-2024.bin"]);
    let text = stdout(&o);
    assert!(text.contains("by accumulation"), "{text}");
    assert!(text.contains("   22  1"), "{text}");
}

/// The head template of the new accumulator (results/README.md, "How the accumulator was found"):
/// after `--------K---------`, the 11-card TEST `Q-KK---AKQA` is a piece, and its template game
/// takes player 2 to 22 cards, as the 2024 long piece does.
#[test]
fn the_head_template_finds_the_new_accumulator() {
    let dir = scratch("head");
    let out = dir.join("head.bin");
    let o = run(&[
        "find-pieces",
        "--template",
        "templates/census/head-8K9.txt",
        "--max-len",
        "11",
        "--max-faces",
        "7",
        "--out",
        s(&out),
        "-q",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = run(&["inspect", s(&out), "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let pieces = v["pieces"].as_array().unwrap();
    let p = pieces
        .iter()
        .find(|p| p["sequence"] == "Q-KK---AKQA")
        .expect("the new accumulator is a piece of its head template");
    assert_eq!(p["accumulation"], 22);
    assert!(pieces.iter().all(|p| p["accumulation"] == 22));
}
