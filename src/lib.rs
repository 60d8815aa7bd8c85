//! ansatz: constructive search of Beggar-My-Neighbour games (Casella's Ansatz), as a library.
//!
//! The `ansatz` binary is a thin command-line face ([`cli`]) over these modules: arguments →
//! validated configuration → one call into [`run`] (or a pipeline) → print. Nothing else prints.
//!
//! # Where things live
//!
//! | module | what it owns |
//! |---|---|
//! | [`card`] | cards (penalty values 0–4) and deck specifications (`standard`, `16-2J2Q2K2A`) |
//! | [`notation`] | parsing and printing hands and positions: dash, playing cards, Paulhus digits |
//! | [`position`] | a validated two-player position, deck checks, the cycle-id order, packed keys |
//! | [`rng`], [`deal`] | seeded portable randomness; random deals as a function of `(seed, index)` |
//! | [`engine`] | forward play: the reference engine (the oracle), bitboard, ring, the AVX-512 lanes, cycle detection, traces, more than two players |
//! | [`backward`] | playing backwards: predecessors, backward closures, families and their balanced deals, longer games |
//! | [`ansatz`] | templates, the exact enumeration of pieces, piece classes, mutation |
//! | [`library`] | piece-library files, enumeration checkpoints, atomic writes |
//! | [`assemble`] | decks built from pieces, their cycles and balanced deals; the catalogue |
//! | [`discover`] | balanced cycles found automatically on any deck: frame, filter, head sweep, censuses, insertion, balance, fills |
//! | [`search`] | random and exhaustive search, statistics, plots, checkpoints |
//! | [`picture`] | pictures: a game's hand sizes, a family as a graph (DOT, SVG), the catalogue as an HTML page |
//! | [`run`] | the run layer: each splittable command as a [`run::Job`] (units, how a unit runs, checkpoint entries, merge), run alone, as a `--shard` of a job array, on a cluster (timely-dataflow) or resumed; `ansatz merge`; every command's result files |
//! | [`beatit`] | Beat It or Eat It (Taylor, 1993): its rules, exact retrograde solvers, the census of layouts |
//! | [`bench`](mod@bench) | the engine benchmark behind `ansatz bench` |
//! | [`provenance`], [`reproduce`] | result files' facts apart from their `run`; rerunning and comparing them |
//!
//! # Layers
//!
//! Each module imports only modules on lower rows (`tests/repo.rs` checks that the imports
//! between top-level modules form no loop):
//!
//! ```text
//! cli                                   the face: clap → validated config → one call → print
//! run                                   jobs run as asked: single, --shard + merge, cluster,
//!                                       --resume; checkpoints and shard files; result files
//! picture                               games, families and the catalogue drawn (SVG, PNG, DOT, HTML)
//! discover                              the ansatz route automated: heads → accumulators → censuses → balance → fills
//! reproduce    assemble                 rerun checks; decks from pieces → balanced cycles
//!              ansatz      search       templates, pieces, mutation; random and exhaustive search
//! bench        backward    library      benchmark; playing backwards; file formats (pieces, checkpoints)
//! deal         beatit                   random deals; Beat It or Eat It (its own game)
//! engine                                every forward engine, the lanes, cycle detection
//! position  notation  card  rng  provenance
//! ```
//!
//! The pipelines (`engine` up to `discover`) know nothing of `run`, and `run` nothing of `cli`:
//! `tests/repo.rs` checks both, and that `cli` stays a face (at most 15% of `src/`, no file over
//! 300 lines, no checkpoint or result-file writing).
//!
//! # The path of a position
//!
//! ```text
//! "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)"
//!    │ notation::parse            text → unchecked Setup
//!    │ position::Position         validated: hands, player to move, deck checks
//!    ▼
//! engine::{reference, bits, ...}  forward play → Outcome::Terminates | Outcome::Cycle(cycle id)
//!    ▼
//! backward::{predecessors, closure, family}
//!                                 every position that leads into the cycle; the balanced ones
//!    ▼
//! ansatz::{template, enumerate}   pieces: sequences that never end inside a template
//!    ▼
//! assemble                        decks from pieces → cycles → families → balanced deals
//! ```
//!
//! A rule of play lives in one place: `engine::reference` states it plainly, and every faster
//! engine is held to it by property tests (`tests/engine.rs`). The rules themselves are written
//! out in `docs/rules.md`.

pub mod ansatz;
pub mod assemble;
pub mod backward;
pub mod beatit;
pub mod bench;
pub mod card;
pub mod cli;
pub mod deal;
pub mod discover;

pub mod engine;
pub mod library;
pub mod notation;
pub mod picture;
pub mod position;
pub mod provenance;
pub mod reproduce;
pub mod rng;
pub mod run;
pub mod search;
