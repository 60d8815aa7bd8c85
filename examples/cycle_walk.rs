//! The neighbourhood of full-size cycles (issue 18, "what was searched without result"): from
//! the cycles given, every cycle a few moves away, and the reach of each new full-size cycle's
//! family by backward play. A move acts on any trick-start position of a cycle: one card removed,
//! one card of a kind the deck has to spare inserted at any place of either hand, and with
//! `--lateral` two cards of different kinds exchanged or one card moved to the other hand (the
//! moves of `ansatz mutate` and of `discover --lateral`). A position whose game never ends is
//! known by the cycle it reaches.
//!
//! Two ways to walk:
//! - without `--beam`, breadth first over every cycle of `DECK - depth` to `DECK` cards until no
//!   new one turns up (or `--max-cycles` are known), then the families of the new full-size ones;
//! - with `--beam B`, a beam over full-size cycles steered by family reach: each step takes the
//!   lateral moves and the remove-then-insert moves of the beam, scores the new full-size cycles
//!   by their family's reach, and keeps the best B (ties spread by a hash of the cycle's id).
//!
//! Cycles are read one a line from stdin (any position on the cycle, `ansatz` notation); lines
//! that are not positions of a part of the deck, of at least its size less `--depth` cards, are
//! skipped (so cycles of a smaller deck can be grown into the deck's). Writes `reach period closure balanced
//! cycle` lines, tab-separated, for every new full-size cycle (with `--beam`, those of reach 22 or
//! more), and a reach histogram to stderr. A cycle of reach half the deck is balanced.
//!
//! ```text
//! grep -rhoE '"cycle_id":"[^"]*"' results/ | sed 's/.*:"//; s/"$//' | sort -u \
//!   | cargo run --release --example cycle_walk -- --depth 3 --lateral --max-cycles 20000
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::io::BufRead;

use ansatz::backward::closure::Config;
use ansatz::backward::family::family;
use ansatz::card::{Card, DeckSpec, KINDS};
use ansatz::discover::insertion::{Grown, cycle_positions, insertions, laterals};
use ansatz::notation::Notation;
use ansatz::position::Position;
use clap::Parser;
use rayon::prelude::*;

#[derive(Parser)]
#[command(about = "The cycles a few moves from the given ones, and their families' reach")]
struct Args {
    /// The deck the cycles are of.
    #[arg(long, default_value = "standard")]
    deck: String,
    /// Cycles of down to this many cards fewer than the deck are walked through.
    #[arg(long, default_value_t = 1)]
    depth: usize,
    /// Also exchange two cards or move one to the other hand.
    #[arg(long)]
    lateral: bool,
    /// Also insert two cards at once (each pair of places once), to cross a size at which no
    /// position one card away cycles; the kinds follow `discover`'s share rule.
    #[arg(long)]
    pairs: bool,
    /// Stop the breadth-first walk once this many cycles are known.
    #[arg(long, default_value_t = 1_000_000)]
    max_cycles: usize,
    /// Walk as a beam of this many full-size cycles, steered by family reach.
    #[arg(long)]
    beam: Option<usize>,
    /// Steps of the beam.
    #[arg(long, default_value_t = 10)]
    steps: usize,
}

/// A full-size cycle scored by its family: the reach, the closure's size, the balanced positions.
#[derive(Clone, Copy)]
struct Scored {
    g: Grown,
    reach: u8,
    size: u64,
    balanced: usize,
}

fn score(g: Grown) -> Scored {
    let f = family(&g.position(), &Config::default(), &|_| {})
        .expect("a cycle position plays into its cycle");
    Scored {
        g,
        reach: f.reach,
        size: f.closure_size,
        balanced: f.balanced.len(),
    }
}

/// Every cycle one move from `g`: removals while it holds more than `min` cards, insertions of
/// kinds `deck` has to spare, and the lateral moves when asked.
fn moves(deck: &DeckSpec, g: &Grown, min: usize, lateral: bool, pairs: bool) -> Vec<Grown> {
    let mut out = BTreeMap::new();
    let mut keep = |c: &Position| {
        if let Some(k) = Grown::of(c) {
            out.entry(k.key).or_insert(k);
        }
    };
    for p in cycle_positions(g) {
        let have = p.deck();
        if p.total() > min {
            for h in 0..2 {
                for i in 0..p.hands[h].len() {
                    let mut c = p.clone();
                    c.hands[h].remove(i);
                    if !c.hands[h].is_empty() {
                        keep(&c);
                    }
                }
            }
        }
        for k in 0..KINDS as Card {
            if have.counts[k as usize] < deck.counts[k as usize] {
                for h in 0..2 {
                    for at in 0..=p.hands[h].len() {
                        let mut c = p.clone();
                        c.hands[h].insert(at, k);
                        keep(&c);
                    }
                }
            }
        }
        if lateral {
            laterals(&p, &mut keep);
        }
        if pairs && p.total() + 2 <= deck.total() {
            insertions(deck, &p, 2, (0, 0), &mut keep);
        }
    }
    out.into_values().collect()
}

/// Whether `p` holds no more of any kind than `deck`, and at least the deck's size less `depth`.
fn within(p: &Position, deck: &DeckSpec, depth: usize) -> bool {
    let have = p.deck();
    p.total() + depth >= deck.total() && (0..KINDS).all(|k| have.counts[k] <= deck.counts[k])
}

/// A fixed spread of cycle ids, to break ties in the beam without favouring small ids.
fn spread(key: u128) -> u64 {
    ((key as u64) ^ ((key >> 64) as u64))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .rotate_left(29)
}

fn print(s: &Scored, hist: &mut BTreeMap<u8, u64>, least: u8) {
    *hist.entry(s.reach).or_default() += 1;
    if s.reach >= least {
        println!(
            "{}\t{}\t{}\t{}\t{}",
            s.reach,
            s.g.period,
            s.size,
            s.balanced,
            s.g.position()
        );
    }
}

fn main() {
    let args = Args::parse();
    let deck: DeckSpec = match args.deck.parse() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let full = deck.total();
    let mut start: Vec<Grown> = Vec::new();
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        match Position::parse(line.trim(), Notation::Auto) {
            Ok(p) if within(&p, &deck, args.depth) => start.extend(Grown::of(&p)),
            _ => {}
        }
    }
    eprintln!("{} cycles of {} given", start.len(), args.deck);
    let mut seen: BTreeSet<u128> = start.iter().map(|g| g.key).collect();
    let mut hist = BTreeMap::new();
    if let Some(beam) = args.beam {
        // The beam moves among full-size cycles only.
        let mut frontier: Vec<Grown> = start
            .into_iter()
            .filter(|g| g.cards as usize == full)
            .collect();
        for step in 1..=args.steps {
            let kids: Vec<Grown> = frontier
                .par_iter()
                .flat_map(|g| {
                    // Laterals at full size, and one card out then one of its kind back.
                    let mut v = moves(&deck, g, full - 1, args.lateral, false);
                    let downs: Vec<Grown> = v
                        .iter()
                        .filter(|k| k.cards as usize == full - 1)
                        .copied()
                        .collect();
                    v.extend(
                        downs
                            .iter()
                            .flat_map(|d| moves(&deck, d, full, false, false)),
                    );
                    v
                })
                .filter(|k| k.cards as usize == full)
                .collect();
            let new: BTreeMap<u128, Grown> = kids
                .into_iter()
                .filter(|k| !seen.contains(&k.key))
                .map(|k| (k.key, k))
                .collect();
            seen.extend(new.keys());
            let mut scored: Vec<Scored> = new
                .into_values()
                .collect::<Vec<_>>()
                .into_par_iter()
                .map(score)
                .collect();
            let mut level = BTreeMap::new();
            for s in &scored {
                print(s, &mut level, 22);
            }
            for (r, n) in &level {
                *hist.entry(*r).or_default() += n;
            }
            scored.sort_by_key(|s| (std::cmp::Reverse(s.reach), spread(s.g.key)));
            scored.truncate(beam);
            eprintln!(
                "step {step}: new cycles by reach {level:?}, {} known",
                seen.len()
            );
            frontier = scored.into_iter().map(|s| s.g).collect();
        }
    } else {
        let min = full.saturating_sub(args.depth);
        let mut frontier = start;
        let mut found = Vec::new();
        let mut step = 0;
        while !frontier.is_empty() && seen.len() < args.max_cycles {
            step += 1;
            let kids: Vec<Grown> = frontier
                .par_iter()
                .flat_map(|g| moves(&deck, g, min, args.lateral, args.pairs))
                .collect();
            frontier = kids.into_iter().filter(|k| seen.insert(k.key)).collect();
            let mut sizes = BTreeMap::new();
            for k in &frontier {
                *sizes.entry(k.cards).or_insert(0) += 1;
            }
            eprintln!(
                "step {step}: new cycles by size {sizes:?}, {} known",
                seen.len()
            );
            found.extend(frontier.iter().filter(|k| k.cards as usize == full));
        }
        for s in found.into_par_iter().map(score).collect::<Vec<_>>() {
            print(&s, &mut hist, 0);
        }
    }
    eprintln!("new full-size cycles by family reach: {hist:?}");
}
