//! Random search: seeded deals `(seed, index)` played in fixed chunks of indices, so the statistics
//! are identical for any thread count, and a run can stop after any chunk and resume.

use rayon::prelude::*;
use thiserror::Error;

use super::stats::{FoundCycle, GameStats};
use crate::card::{Card, DeckSpec, KINDS};
use crate::deal::CHUNK;
use crate::deal::{padded, shuffle_cards};
use crate::engine::Finish;
use crate::engine::Outcome;
use crate::engine::cycle::play_state;
use crate::engine::game::Game;
use crate::engine::lanes::Batch;
use crate::engine::multi::{self, MultiOutcome, MultiPosition};
use crate::rng::SplitMix64;

/// What to deal and how many.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RandomConfig {
    #[serde(with = "super::checkpoint::deck_text")]
    pub deck: DeckSpec,
    /// Number of players, 2 or more (default 2).
    pub players: usize,
    /// Deal each player the same number of each face card.
    pub balanced_faces: bool,
    pub seed: u64,
    /// Deals `0..games` are played.
    pub games: u64,
    /// How many longest games to keep (default 10).
    pub top: usize,
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum ConfigError {
    #[error("--players {players}: a game needs at least 2 players")]
    TooFewPlayers { players: usize },
    #[error(
        "--players {players}: deck {deck} holds {cards} card{s}, too few to deal one to each player",
        s = if *cards == 1 { "" } else { "s" }
    )]
    Players {
        players: usize,
        cards: usize,
        deck: String,
    },
    #[error(
        "--balanced-faces needs every face count of deck {deck} to divide among {players} players"
    )]
    FacesIndivisible { deck: String, players: usize },
    #[error("--balanced-faces: deck {deck} has too few number cards to fill {players} equal hands")]
    FacesTooMany { deck: String, players: usize },
}

impl RandomConfig {
    /// Checks that the deal can be made.
    pub fn validate(&self) -> Result<(), ConfigError> {
        check_players(&self.deck, self.players)?;
        if self.balanced_faces {
            let deck = self.deck.to_string();
            let p = self.players as u32;
            if self.deck.counts[1..].iter().any(|&c| c % p != 0) {
                return Err(ConfigError::FacesIndivisible {
                    deck,
                    players: self.players,
                });
            }
            let faces: usize = self.deck.counts[1..]
                .iter()
                .map(|&c| (c / p) as usize)
                .sum();
            if hand_sizes(self.deck.total(), self.players).any(|s| s < faces) {
                return Err(ConfigError::FacesTooMany {
                    deck,
                    players: self.players,
                });
            }
        }
        Ok(())
    }

    /// Deal `index` in deal order (hands one after another, player 1's first) into `cards`.
    pub fn deal(&self, index: u64, cards: &mut Vec<Card>) {
        cards.clear();
        if !self.balanced_faces {
            for (kind, &n) in self.deck.counts.iter().enumerate() {
                cards.extend(std::iter::repeat_n(kind as Card, n as usize));
            }
            shuffle_cards(cards, self.seed, index);
            return;
        }
        // Each hand holds its share of every face and number cards to fill it, shuffled within the
        // hand: uniform over the deals with balanced faces. One stream per deal, hands in order.
        let mut rng = SplitMix64::for_index(self.seed, index);
        let p = self.players as u32;
        for size in hand_sizes(self.deck.total(), self.players) {
            let start = cards.len();
            for kind in 1..KINDS {
                cards.extend(std::iter::repeat_n(
                    kind as Card,
                    (self.deck.counts[kind] / p) as usize,
                ));
            }
            let numbers = size - (cards.len() - start);
            cards.extend(std::iter::repeat_n(0, numbers));
            rng.shuffle(&mut cards[start..]);
        }
    }

    /// The starting position of deal `index`, as text.
    pub fn position(&self, index: u64) -> MultiPosition {
        let mut cards = Vec::new();
        self.deal(index, &mut cards);
        MultiPosition::deal(&cards, self.players)
    }
}

/// Checks a player count against a deck: at least 2, at most one card each.
pub fn check_players(deck: &DeckSpec, players: usize) -> Result<(), ConfigError> {
    if players < 2 {
        return Err(ConfigError::TooFewPlayers { players });
    }
    if players > deck.total() {
        return Err(ConfigError::Players {
            players,
            cards: deck.total(),
            deck: deck.to_string(),
        });
    }
    Ok(())
}

/// Hand sizes as equal as possible, the first players holding the extra cards.
fn hand_sizes(n: usize, players: usize) -> impl Iterator<Item = usize> {
    (0..players).map(move |p| n / players + usize::from(p < n % players))
}

/// Reusable buffers of one worker: cleared before use, capacity kept.
#[derive(Default)]
pub struct Scratch {
    cards: Vec<Card>,
    multi: multi::Scratch,
    /// Two-player deals of at most 64 cards wait here for the 64-card lanes (AVX-512 only).
    batch: Option<Batch>,
}

/// The loop the lanes play `cfg`'s deals in (two-player deals of at most 64 cards, where the
/// processor has the lanes: as [`play_range`] chooses), or `None`: one by one.
pub fn lanes_shape(cfg: &RandomConfig) -> Option<crate::engine::lanes::Shape> {
    let n = cfg.deck.total();
    let faces: u32 = cfg.deck.counts[1..].iter().sum();
    (cfg.players == 2 && n <= 64 && crate::engine::lanes::available())
        .then(|| crate::engine::lanes::random_games_shape(faces, n as u32))
}

/// Plays deals `lo..hi` into `stats`.
pub fn play_range(cfg: &RandomConfig, lo: u64, hi: u64, stats: &mut GameStats, s: &mut Scratch) {
    let n = cfg.deck.total();
    if cfg.players == 2 && n <= 64 {
        if s.batch.is_none() {
            s.batch = Batch::new();
        }
        if let Some(batch) = &mut s.batch {
            return play_range_lanes(cfg, lo, hi, stats, &mut s.cards, batch);
        }
    }
    for index in lo..hi {
        cfg.deal(index, &mut s.cards);
        if cfg.players == 2 {
            play_two(index, &s.cards, stats);
        } else {
            match multi::play(&MultiPosition::deal(&s.cards, cfg.players), &mut s.multi) {
                MultiOutcome::Terminates {
                    winner,
                    tricks,
                    cards,
                } => stats.add_game(index, winner, cards, tricks),
                MultiOutcome::Cycle {
                    preperiod,
                    period,
                    tricks,
                    cards,
                    cycle_cards,
                    cycle_id,
                } => stats.add_cycle(FoundCycle {
                    index,
                    preperiod,
                    period,
                    cards,
                    tricks,
                    cycle_cards,
                    cycle_id: cycle_id.to_string(),
                }),
            }
        }
    }
}

/// [`play_range`] of two-player deals in the 64-card lanes; a game the lanes leave going is dealt
/// again and played by the cycle engine. The statistics do not depend on the order games are
/// added in.
fn play_range_lanes(
    cfg: &RandomConfig,
    lo: u64,
    hi: u64,
    stats: &mut GameStats,
    cards: &mut Vec<Card>,
    batch: &mut Batch,
) {
    let long = lanes_range(cfg, lo, hi, cards, batch, |index, winner, tricks, cards| {
        stats.add_game(index, winner, cards, tricks)
    });
    // Rare: games past the lanes' limit.
    for index in long {
        cfg.deal(index, cards);
        play_two(index, cards, stats);
    }
}

/// Plays two-player deals `lo..hi` of `cfg` (at most 64 cards) in the 64-card lanes of `batch`,
/// each game that ends reported with `won(index, winner, tricks, cards)`, in no particular
/// order; returns the indices of the games the lanes leave going (past their trick limit), for
/// the cycle engine ([`play_dealt`]). `cards` is scratch.
pub(crate) fn lanes_range(
    cfg: &RandomConfig,
    lo: u64,
    hi: u64,
    cards: &mut Vec<Card>,
    batch: &mut Batch,
    mut won: impl FnMut(u64, u8, u64, u64),
) -> Vec<u64> {
    let mut long = Vec::new();
    // Unbalanced deals are shuffled in place in 64 slots (the same shuffle as `cfg.deal`'s,
    // its draws computed together) and cut into hands without copies.
    let n = cfg.deck.total();
    let deck = padded(&cfg.deck);
    let mut each = |index, f| match f {
        Finish::Won {
            winner,
            tricks,
            cards,
        } => won(index, winner, tricks, cards),
        Finish::TooLong => long.push(index),
    };
    if cfg.balanced_faces {
        batch.play_deals(
            lo..hi,
            |index| {
                cfg.deal(index, cards);
                Game::deal(cards)
            },
            each,
        );
    } else {
        batch.play_shuffled(&deck, n, cfg.seed, lo..hi, &mut each);
    }
    long
}

/// A two-player deal (its cards in deal order, player 1 holding the extra card) played by the
/// cycle engine (in the planes its size needs: see `engine::cycle::play`).
pub(crate) fn play_dealt(cards: &[Card]) -> Outcome {
    let (h1, h2) = cards.split_at(cards.len().div_ceil(2));
    match cards.len() {
        0..=64 => play_state(&Game::<u64>::from_hands(h1, h2, 0)),
        65..=128 => play_state(&Game::<u128>::from_hands(h1, h2, 0)),
        _ => crate::engine::reference::play(&crate::position::Position::new(
            h1.to_vec(),
            h2.to_vec(),
            0,
        )),
    }
}

/// Two-player deal `index` (its `cards`) played by the cycle engine.
fn play_two(index: u64, cards: &[Card], stats: &mut GameStats) {
    match play_dealt(cards) {
        Outcome::Terminates {
            winner,
            tricks,
            cards,
        } => stats.add_game(index, winner, cards, tricks),
        Outcome::Cycle(c) => stats.add_cycle(FoundCycle {
            index,
            preperiod: c.preperiod,
            period: c.period,
            cards: c.cards,
            tricks: c.tricks,
            cycle_cards: c.cycle_cards,
            cycle_id: c.cycle_id.to_string(),
        }),
    }
}

/// Chunks of [`CHUNK`] deals in a run of `games`.
pub fn chunks(games: u64) -> u64 {
    games.div_ceil(CHUNK)
}

/// Plays chunks `from..to` on the current rayon pool and returns their merged statistics.
/// `progress` is called with the games of every finished chunk.
pub fn play_chunks(
    cfg: &RandomConfig,
    from: u64,
    to: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> GameStats {
    play_chunks_where(cfg, from, to, &|_| true, progress)
}

/// Like [`play_chunks`], but only the chunks `c` with `owns(c)` (a shard's or a worker's share).
pub fn play_chunks_where(
    cfg: &RandomConfig,
    from: u64,
    to: u64,
    owns: &(dyn Fn(u64) -> bool + Sync),
    progress: &(dyn Fn(u64) + Sync),
) -> GameStats {
    (from..to)
        .into_par_iter()
        .filter(|&c| owns(c))
        .fold(
            || (GameStats::new(cfg.players, cfg.top), Scratch::default()),
            |(mut stats, mut scratch), chunk| {
                let lo = chunk * CHUNK;
                let hi = (lo + CHUNK).min(cfg.games);
                play_range(cfg, lo, hi, &mut stats, &mut scratch);
                progress(hi - lo);
                (stats, scratch)
            },
        )
        .map(|(stats, _)| stats)
        .reduce(
            || GameStats::new(cfg.players, cfg.top),
            |mut a, b| {
                a.merge(&b);
                a
            },
        )
        .trimmed()
}

/// A whole run, chunk by chunk on the current rayon pool (see [`super::ordered`]): whenever the
/// finished chunks form a longer prefix, `checkpoint(chunks_done, &stats)` may save the state (an
/// error stops the run). `start` resumes from a saved state. Only the chunks `c` with `owns(c)` are
/// played (every chunk for a whole run); `chunks_done` still counts them all.
pub fn run<E: Send>(
    cfg: &RandomConfig,
    start: Option<(u64, GameStats)>,
    owns: &(dyn Fn(u64) -> bool + Sync),
    progress: &(dyn Fn(u64) + Sync),
    checkpoint: &mut (dyn FnMut(u64, &GameStats) -> Result<(), E> + Send),
) -> Result<GameStats, E> {
    let (done, stats) =
        start.unwrap_or_else(|| (0, GameStats::new(cfg.players, cfg.top).trimmed()));
    super::ordered::run(
        done,
        chunks(cfg.games),
        stats,
        owns,
        &Scratch::default,
        &|scratch, chunk| {
            let mut stats = GameStats::new(cfg.players, cfg.top);
            let lo = chunk * CHUNK;
            let hi = (lo + CHUNK).min(cfg.games);
            play_range(cfg, lo, hi, &mut stats, scratch);
            progress(hi - lo);
            stats.trimmed()
        },
        &|total, s| total.merge(&s),
        checkpoint,
    )
}
