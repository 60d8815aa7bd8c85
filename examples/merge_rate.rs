//! How often the games of an exhaustive census run into each other (issue 25, "say why"): would
//! remembering trick-start positions, and the rest of the game from each, save the census work?
//!
//! Every deal of a small deck (player 1 to move, hands of equal size) is played trick by trick
//! with the reference engine. Two counts come out:
//! - *merged*: with every trick-start position ever met remembered, the tricks a census would
//!   still play (each game until it first meets a position seen before), against all the tricks;
//! - *cached*: the same with a table of `2^b` places (one position a place, the last written
//!   wins), as a census with bounded memory would keep: each game's positions are written when it
//!   stops, and a game stops at the first position found in the table.
//!
//! The ratio `tricks / tricks still played` is the most such a memory could save, before the
//! cost of a lookup at every trick (a hash and a likely cache miss, where the lanes spend about
//! 100 ns on a whole game of 44 cards: docs/performance.md). The positions are packed with
//! `Position::pack`, so decks of up to 52 cards; the unbounded set makes it practical only to
//! about 16 cards.
//!
//! ```text
//! cargo run --release --example merge_rate -- --deck 8-2J2Q2K2A --table-bits 16,20,24
//! ```

use std::collections::HashSet;

use ansatz::card::DeckSpec;
use ansatz::engine::reference::{Trick, trick};
use ansatz::position::Position;
use ansatz::search::multiset::next_arrangement;
use clap::Parser;

#[derive(Parser)]
#[command(about = "How often the games of every deal of a small deck meet positions seen before")]
struct Args {
    /// The deck (an even number of cards).
    #[arg(long, default_value = "6-2J2Q2K2A")]
    deck: DeckSpec,
    /// Sizes of the bounded tables, as powers of two.
    #[arg(long, value_delimiter = ',', default_value = "16,20")]
    table_bits: Vec<u32>,
    /// A game longer than this many tricks is cut off (only cycles get there).
    #[arg(long, default_value_t = 2000)]
    max_tricks: u64,
}

/// A table of `2^bits` places for packed positions (0: empty; a packed position is never 0,
/// its split point being at least 1).
struct Table {
    places: Vec<u128>,
    mask: usize,
}

impl Table {
    fn new(bits: u32) -> Table {
        Table {
            places: vec![0; 1 << bits],
            mask: (1 << bits) - 1,
        }
    }

    fn place(&self, key: u128) -> usize {
        // A multiplicative hash of both halves: the low digits alone repeat across positions.
        let x = (key as u64) ^ ((key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (x.wrapping_mul(0xD6E8_FEB8_6659_FD93) >> 17) as usize & self.mask
    }
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let mut cards = args.deck.cards();
    anyhow::ensure!(
        cards.len() % 2 == 0 && cards.len() >= 2,
        "the deck needs an even number of cards, at least 2"
    );
    let half = cards.len() / 2;
    cards.sort_unstable();
    let mut seen: HashSet<u128> = HashSet::new();
    let mut tables: Vec<Table> = args.table_bits.iter().map(|&b| Table::new(b)).collect();
    let mut still_cached = vec![0u64; tables.len()];
    let (mut keys, mut path): (Vec<u128>, Vec<u128>) = (Vec::new(), Vec::new());
    let (mut deals, mut tricks, mut still_merged) = (0u64, 0u64, 0u64);
    loop {
        deals += 1;
        let mut pos = Position::new(cards[..half].to_vec(), cards[half..].to_vec(), 0);
        keys.clear();
        let mut played = 0u64;
        loop {
            keys.push(pos.pack().expect("a deck of at most 52 cards"));
            played += 1;
            match trick(&pos) {
                Trick::Next { next, .. } if played < args.max_tricks => pos = next,
                _ => break,
            }
        }
        tricks += played;
        // The unbounded memory: the game is played up to the first position seen before.
        let first_seen = keys.iter().position(|k| !seen.insert(*k));
        still_merged += first_seen.unwrap_or(keys.len()) as u64;
        seen.extend(keys.iter().copied());
        // Each bounded table: the same with what the table still holds.
        for (table, still) in tables.iter_mut().zip(still_cached.iter_mut()) {
            path.clear();
            for &k in &keys {
                if table.places[table.place(k)] == k {
                    break;
                }
                path.push(k);
            }
            *still += path.len() as u64;
            for &k in &path {
                let i = table.place(k);
                table.places[i] = k;
            }
        }
        if !next_arrangement(&mut cards) {
            break;
        }
    }
    println!(
        "{}: {deals} deals, {tricks} tricks ({:.2} a deal), {} distinct trick-start positions",
        args.deck,
        tricks as f64 / deals as f64,
        seen.len()
    );
    println!(
        "every position remembered: {still_merged} tricks still played, {:.2}x fewer",
        tricks as f64 / still_merged as f64
    );
    for (bits, still) in args.table_bits.iter().zip(&still_cached) {
        println!(
            "table of 2^{bits} positions: {still} tricks still played, {:.2}x fewer",
            tricks as f64 / *still as f64
        );
    }
    Ok(())
}
