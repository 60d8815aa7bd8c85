//! `random_games`: every game of a run of seeded random deals as NumPy arrays, played by the
//! library's per-game entry (`run::games`, the lanes of `ansatz bench` and `search random`) on a
//! rayon pool, each chunk of deals writing its own slice of the arrays.

use ansatz::deal::CHUNK;
use ansatz::run::games::{Scratch, play_each};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;

use crate::call::{Error, long};
use crate::game::random_config;

/// The arrays of a run: `cards` and `tricks` (uint32), `winner` (uint8: 1 or 2, 0 for a game
/// that never ends).
struct Arrays {
    cards: Vec<u32>,
    tricks: Vec<u32>,
    winner: Vec<u8>,
}

/// A count in a uint32 array: no game of a deck the lanes play comes near 2^32 cards (the
/// longest known standard game has 8,344), so saturating only guards the impossible.
fn narrow(x: u64) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX)
}

/// Plays deals `0..n` of `cfg` on `threads` workers; `None` when cancelled.
fn play_all(
    cfg: &ansatz::search::random::RandomConfig,
    n: usize,
    threads: Option<usize>,
    stop: &crate::call::Cancel,
) -> crate::call::Result<Option<Arrays>> {
    let pool = ansatz::run::pool(threads)?;
    let mut a = Arrays {
        cards: vec![0; n],
        tricks: vec![0; n],
        winner: vec![0; n],
    };
    let chunk = CHUNK as usize;
    pool.install(|| {
        a.cards
            .par_chunks_mut(chunk)
            .zip(a.tricks.par_chunks_mut(chunk))
            .zip(a.winner.par_chunks_mut(chunk))
            .enumerate()
            .for_each_init(Scratch::default, |s, (c, ((cards, tricks), winner))| {
                // A cancelled run skips the chunks left: it stops within a chunk's time.
                if stop.is_set() {
                    return;
                }
                let lo = (c * chunk) as u64;
                let hi = lo + cards.len() as u64;
                play_each(cfg, lo, hi, s, |index, g| {
                    let k = (index - lo) as usize;
                    cards[k] = narrow(g.cards);
                    tricks[k] = narrow(g.tricks);
                    winner[k] = g.winner.map_or(0, |w| w + 1);
                });
            });
    });
    Ok((!stop.is_set()).then_some(a))
}

/// Play ``n`` seeded random deals (deals ``0..n`` under ``seed``) and return every game as NumPy
/// arrays of length ``n``: ``cards`` and ``tricks`` (uint32) and ``winner`` (uint8: 1 or 2, and
/// 0 marks a game that never ends, whose ``cards`` and ``tricks`` count play until a position
/// first repeats).
///
/// The deals and engines are those of ``ansatz search random`` and ``ansatz bench`` (the
/// 64-card lanes in AVX-512 or AVX2 registers, the exact cycle engine for the rest), so game
/// ``i`` is ``play(deal(i, seed=seed, deck=deck))`` and the arrays are the same for any thread
/// count. ``deck``: ``standard``, ``camicia`` or counts like ``8-2J2Q2K2A``; two players.
/// ``balanced_faces=True`` deals each player half of each face card (``search random
/// --balanced-faces``, the other curve of the 2024 paper's Fig. 1). ``threads``: worker threads
/// (default every core). Ctrl-C stops it within a chunk of 4096
/// deals.
///
/// >>> g = ansatz.random_games(100_000, seed=1)
/// >>> g["cards"].dtype, len(g["tricks"]), int((g["winner"] == 0).sum())
/// (dtype('uint32'), 100000, 0)
#[pyfunction]
#[pyo3(signature = (n, *, seed=1, deck="standard", threads=None, balanced_faces=false))]
pub fn random_games<'py>(
    py: Python<'py>,
    n: u64,
    seed: u64,
    deck: &str,
    threads: Option<usize>,
    balanced_faces: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let len = usize::try_from(n).map_err(|_| Error::Input(format!("{n} games do not fit")))?;
    // The deals' configuration (an empty run still checks the deck).
    let cfg = random_config(deck, seed, n.max(1), balanced_faces)?;
    // No result file: nothing to record.
    let arrays = long(py, None, move |stop| {
        play_all(&cfg, len, threads, stop)?.ok_or(Error::Cancelled)
    })?;
    let d = PyDict::new(py);
    d.set_item("cards", PyArray1::from_vec(py, arrays.cards))?;
    d.set_item("tricks", PyArray1::from_vec(py, arrays.tricks))?;
    d.set_item("winner", PyArray1::from_vec(py, arrays.winner))?;
    Ok(d)
}
