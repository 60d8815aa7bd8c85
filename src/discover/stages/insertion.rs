//! The insertion route's stage (the moves are in [`insertion`]): the seeds, then one size a card,
//! each in parts, two cards at once where one fails, and lateral moves where both fail.

use std::collections::{BTreeMap, BTreeSet};

use crate::card::DeckSpec;
use crate::discover::balance::Found;
use crate::discover::error::DiscoverError;
use crate::discover::insertion::{self, Grown, InsertScope};
use crate::discover::stage::{Context, Done, Log, add_new};
use crate::discover::steps;

/// How many parts each level of the insertion is cut into.
const INSERT_PARTS: usize = 16;

/// One size of the insertion route.
struct Level {
    cards: u8,
    /// Cycles kept (0: the beam died out at this size).
    kept: usize,
    /// Grown by two cards from the size two below (the size between died out).
    two_cards: bool,
    /// Grown by one card from cycles found by lateral moves at the size below (one and two cards
    /// died out there).
    lateral: bool,
}

/// Grows the insertion beam of the stage `run` is in, size by size, in steps; counts the games.
struct Grower<'c, 'a> {
    cx: &'c Context<'a>,
    deck: DeckSpec,
    ins: InsertScope,
    seeds: Vec<Grown>,
    games: u64,
    levels: Vec<Level>,
}

/// Whether the insertion route says where it goes (`ANSATZ_TRACE_INSERTION`).
fn tracing() -> bool {
    std::env::var_os("ANSATZ_TRACE_INSERTION").is_some()
}

impl Grower<'_, '_> {
    /// The seeds of `l` cards.
    fn at(&self, l: u8) -> impl Iterator<Item = Grown> + '_ {
        self.seeds.iter().filter(move |g| g.cards == l).copied()
    }

    /// The beam of `l` cards grown by `cards` cards from `parents` (found by lateral moves when
    /// `sideways`), with the seeds of that size.
    fn grow(
        &mut self,
        l: u8,
        cards: usize,
        parents: &[Grown],
        sideways: bool,
    ) -> Result<Vec<Grown>, DiscoverError> {
        let prefix = match (cards, sideways) {
            (1, false) => "insert",
            (_, false) => "insert2",
            _ => "insertL",
        };
        let names: Vec<String> = (0..INSERT_PARTS)
            .map(|p| format!("{prefix}-{l}-{p}"))
            .collect();
        let (deck, beam) = (self.deck, self.ins.beam);
        let parts: Vec<insertion::Part> = steps::run(
            self.cx.steps,
            &names,
            |p| {
                Ok(insertion::grow_part(
                    &deck,
                    parents,
                    p,
                    INSERT_PARTS,
                    beam,
                    cards,
                ))
            },
            &|_| {},
        )?;
        self.games += parts.iter().map(|p| p.games).sum::<u64>();
        let next = insertion::best(
            parts.into_iter().flat_map(|p| p.cycles).chain(self.at(l)),
            beam,
        );
        self.cx.obs.advance(1);
        let reach = next.first().map_or(0, |g| g.reach);
        self.levels.push(Level {
            cards: l,
            kept: next.len(),
            two_cards: cards == 2,
            lateral: sideways,
        });
        if tracing() {
            eprintln!(
                "insertion {l} cards (by {cards}{}): {} cycles, best reach {reach}, first {}",
                if sideways { " after lateral moves" } else { "" },
                next.len(),
                next.first()
                    .map_or(String::new(), |g| g.position().to_string())
            );
        }
        Ok(next)
    }

    /// The new cycles of the lateral moves of the best `lateral` cycles of `beam` (of `l` cards).
    fn sideways(
        &mut self,
        beam: &[Grown],
        l: u8,
        lateral: usize,
    ) -> Result<Vec<Grown>, DiscoverError> {
        let parents = &beam[..beam.len().min(lateral)];
        let known: BTreeSet<u128> = beam.iter().map(|g| g.key).collect();
        let names: Vec<String> = (0..INSERT_PARTS)
            .map(|p| format!("lateral-{l}-{p}"))
            .collect();
        let width = self.ins.beam;
        let parts: Vec<insertion::Part> = steps::run(
            self.cx.steps,
            &names,
            |p| {
                Ok(insertion::lateral_part(
                    parents,
                    &known,
                    p,
                    INSERT_PARTS,
                    width,
                ))
            },
            &|_| {},
        )?;
        self.games += parts.iter().map(|p| p.games).sum::<u64>();
        let side = insertion::shortest(parts.into_iter().flat_map(|p| p.cycles), width);
        if tracing() {
            eprintln!(
                "insertion: lateral moves of {} cycles of {l} cards: {} new cycles",
                parents.len(),
                side.len()
            );
        }
        Ok(side)
    }

    /// One level by one card, then, if its beam died out, the level after it by two cards from
    /// the best of the last beam; if that dies too (and `lateral` allows), the level by one card
    /// from the new cycles of lateral moves of the best of the last beam. The beam at the deck's
    /// size.
    fn grow_all(&mut self, from: u8, lateral: usize) -> Result<Vec<Grown>, DiscoverError> {
        let total = self.deck.total() as u8;
        let mut beam = insertion::best(self.at(from), self.ins.beam);
        let mut l = from + 1;
        while l <= total {
            let mut next = self.grow(l, 1, &beam, false)?;
            if next.is_empty() && !beam.is_empty() && l < total {
                let best = &beam[..beam.len().min(insertion::TWO_CARD_PARENTS)];
                next = self.grow(l + 1, 2, best, false)?;
                if !next.is_empty() || lateral == 0 {
                    l += 1;
                } else {
                    let side = self.sideways(&beam, l - 1, lateral)?;
                    next = self.grow(l, 1, &side, true)?;
                }
            }
            beam = next;
            l += 1;
        }
        Ok(beam)
    }
}

/// The insertion stage: grows the seeds to the deck's size; the new cycles of the beam there join
/// `list` (`found_by: insertion`).
pub fn run(
    cx: &Context,
    log: &mut Log,
    ins: &InsertScope,
    list: &mut Vec<Found>,
) -> Result<(), DiscoverError> {
    let deck = cx.config.deck;
    log.stage("insertion", |start| {
        let decks = insertion::seed_decks(deck, ins.seed_deals);
        let seed_decks = format!(
            "{} to {}",
            decks.first().map_or("none".into(), |d| d.to_string()),
            decks.last().map_or("none".into(), |d| d.to_string())
        );
        let seeds: Vec<Grown> =
            cx.one_step("insert-seeds", || Ok(insertion::seeds(deck, ins.seed_deals)))?;
        let total = deck.total() as u8;
        let from = seeds.iter().map(|g| g.cards).min().unwrap_or(total);
        start(u64::from(total - from), "levels");
        let n_seeds = seeds.len();
        let mut g = Grower {
            cx,
            deck,
            ins: *ins,
            seeds,
            games: 0,
            levels: Vec::new(),
        };
        let finalists = g.grow_all(from, cx.config.lateral)?;
        let new = add_new(
            list,
            finalists.iter().map(|g| {
                let start = g.position();
                Found {
                    key: g.key,
                    period: g.period,
                    deck: start.to_string(),
                    start,
                    found_by: "insertion",
                    source: "insertion".into(),
                }
            }),
        );
        let mut hist: BTreeMap<u8, u64> = BTreeMap::new();
        for g in &finalists {
            *hist.entry(g.reach).or_default() += 1;
        }
        let summary = format!(
            "{n_seeds} seed cycles ({seed_decks}); grown {from} to {total} cards, beam {}{}; {} cycles of the deck's size ({new} new), by reach on the cycle {hist:?}",
            ins.beam,
            path(&g.levels),
            finalists.len(),
        );
        Ok(((), Done::new(g.games, "games", summary).cycles(list.len())))
    })
}

/// What the insertion route's levels say beside their sizes: where two cards were inserted at
/// once, and where the beam died out for good.
fn path(levels: &[Level]) -> String {
    let jumps: Vec<String> = levels
        .iter()
        .filter(|l| l.two_cards && l.kept > 0)
        .map(|l| format!("{} to {}", l.cards - 2, l.cards))
        .collect();
    let mut out = String::new();
    if !jumps.is_empty() {
        out += &format!(" (by two cards at once: {})", jumps.join(", "));
    }
    let sideways: Vec<String> = levels
        .iter()
        .filter(|l| l.lateral && l.kept > 0)
        .map(|l| format!("{} to {}", l.cards - 1, l.cards))
        .collect();
    if !sideways.is_empty() {
        out += &format!(" (after lateral moves: {})", sideways.join(", "));
    }
    let dead = levels.iter().rposition(|l| l.kept > 0).map_or(0, |i| i + 1);
    if let Some(l) = levels.get(dead) {
        let mut also = match levels.get(dead + 1) {
            Some(n) if n.two_cards => format!(", nor of {} by two cards", n.cards),
            _ => String::new(),
        };
        if let Some(n) = levels.get(dead + 2).filter(|n| n.lateral) {
            also += &format!(", nor of {} after lateral moves", n.cards);
        }
        out += &format!(" (no cycle of {} cards{also}: the beam died out)", l.cards);
    }
    out
}
