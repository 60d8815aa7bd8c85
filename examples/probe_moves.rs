use ansatz::backward::closure::Config;
use ansatz::backward::family::family;
use ansatz::engine::{Outcome, play};
use ansatz::notation::Notation;
use ansatz::position::Position;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

fn main() {
    let seeds: Vec<String> = std::env::args().skip(1).collect();
    let mut known: BTreeSet<u128> = BTreeSet::new();
    let mut frontier: Vec<Position> = seeds
        .iter()
        .map(|s| Position::parse(s, Notation::Auto).unwrap())
        .collect();
    for p in &frontier {
        if let Outcome::Cycle(c) = play(p) {
            known.insert(c.cycle_id.pack().unwrap());
        }
    }
    let cfg = Config {
        max_positions: 2_000_000,
        ..Default::default()
    };
    let mut balanced_cycles: BTreeMap<u128, (u64, usize, String)> = BTreeMap::new();
    for round in 0..2 {
        // every "move one card" variant of hand 1 (remove at i, insert same card at j)
        let variants: Vec<Position> = frontier
            .iter()
            .flat_map(|p| {
                let h = p.hands[0].clone();
                let mut out = vec![];
                for i in 0..h.len() {
                    for j in 0..h.len() {
                        if i == j {
                            continue;
                        }
                        let mut v = h.clone();
                        let c = v.remove(i);
                        v.insert(j, c);
                        out.push(Position::new(v, p.hands[1].clone(), p.to_move));
                    }
                }
                out
            })
            .collect();
        let found: Vec<(u128, u64, Position)> = variants
            .par_iter()
            .filter_map(|p| match play(p) {
                Outcome::Cycle(c) => Some((c.cycle_id.pack().unwrap(), c.period, p.clone())),
                _ => None,
            })
            .collect();
        let mut new: BTreeMap<u128, (u64, Position)> = BTreeMap::new();
        for (k, per, p) in found {
            if !known.contains(&k) {
                new.entry(k).or_insert((per, p));
            }
        }
        println!(
            "round {round}: {} variants, {} new cycles",
            variants.len(),
            new.len()
        );
        let fams: Vec<(u128, u64, usize, Position)> = new
            .par_iter()
            .map(|(k, (per, p))| {
                let f = family(p, &cfg, &|_| {}).unwrap();
                (*k, *per, f.balanced.len(), p.clone())
            })
            .collect();
        frontier.clear();
        for (k, per, nb, p) in fams {
            known.insert(k);
            if nb > 0 {
                balanced_cycles.insert(k, (per, nb, p.to_string()));
                frontier.push(p);
            }
        }
        println!("balanced cycles so far: {}", balanced_cycles.len());
        for (k, v) in &balanced_cycles {
            println!("  {:032x} period {} balanced {} deck {}", k, v.0, v.1, v.2);
        }
        if frontier.is_empty() {
            break;
        }
    }
}
