//! Pieces: the prefix-sharing enumeration against the naive checker, templates, classes, the
//! library format, checkpoints and resume, mutate, and the commands' exit codes.

use ansatz::ansatz::enumerate::{Enumerator, Params, count_completions, naive_pieces};
use ansatz::ansatz::template::Template;
use ansatz::card::Card;
use ansatz::notation::{Notation, parse_hand};

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
    }
}

fn all_ranges(e: &Enumerator) -> Vec<Vec<Card>> {
    let mut v: Vec<Vec<Card>> = (0..e.ranges()).flat_map(|i| e.run_range(i)).collect();
    v.sort();
    v
}

#[test]
fn prefix_sharing_equals_naive_len_10_faces_3() {
    let t = Template::jack();
    let p = params(0, 10, 3);
    let mut naive = naive_pieces(&t, &p);
    naive.sort();
    for depth in [0, 3, 6, 11] {
        let e = Enumerator::new(&t, &p, depth).unwrap();
        assert_eq!(all_ranges(&e), naive, "depth {depth}");
    }
    assert!(!naive.is_empty());
    // Source: arXiv:2403.13855 (2024), Appendix C: `--` and `--Q-Q` are pieces of the jack template.
    assert!(naive.contains(&cards("--")));
    assert!(naive.contains(&cards("--Q-Q")));
}
