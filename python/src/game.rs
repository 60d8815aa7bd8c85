//! One position at a time: `play` (the `Game` it gives), `trace`, `predecessors` and `deal`, each
//! the library call the CLI's `play`, `play --trace` and `predecessors` make, with the CLI's
//! validation of the position and its messages.

use ansatz::card::DeckSpec;
use ansatz::engine::trace::trace as trace_game;
use ansatz::engine::{Outcome, reference};
use ansatz::notation::Notation;
use ansatz::position::Position;
use ansatz::search::random::RandomConfig;
use numpy::PyArray2;
use pyo3::prelude::*;

use crate::call::{Error, Result, short};

/// The first balanced non-terminating deal (arXiv:2403.13855, 2024): the default position of
/// `play` and `family`, as of the CLI's.
pub const PAPER_DEAL: &str = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)";

/// A deck specification (`standard`, `camicia`, `8-2J2Q2K2A`), with the CLI's message.
pub fn deck(spec: &str) -> Result<DeckSpec> {
    spec.parse::<DeckSpec>().map_err(Error::input)
}

/// A position in the CLI's notation (player 1 to move unless it says), checked against `deck`
/// when given: the CLI's `parse_position`, with its messages.
pub fn position(text: &str, notation: &str, deck_spec: Option<&str>) -> Result<Position> {
    let notation: Notation = notation.parse().map_err(Error::Input)?;
    let bad = |e: &dyn std::fmt::Display| Error::Input(format!("bad position {text:?}: {e}"));
    let pos = Position::parse(text, notation).map_err(|e| bad(&e))?;
    if let Some(spec) = deck_spec {
        pos.check_deck(&deck(spec)?).map_err(|e| bad(&e))?;
    }
    Ok(pos)
}

/// How a game went, as `ansatz play` reports it.
///
/// ``outcome`` is ``"terminates"`` or ``"cycle"``. A game that ends has a ``winner`` (1 or 2);
/// one that never ends has ``preperiod`` and ``period`` (tricks), ``period_cards`` (the cards of
/// one period) and ``cycle_id`` (the cycle's smallest position), the others ``None``.
/// ``tricks`` and ``cards`` count play until the end, or for a cycle until a position first
/// repeats (``tricks == preperiod + period``).
#[pyclass(frozen, module = "ansatz")]
pub struct Game {
    /// The position played, in dash notation.
    #[pyo3(get)]
    position: String,
    /// "terminates" or "cycle".
    #[pyo3(get)]
    outcome: &'static str,
    /// 1 or 2 when the game ends, else None.
    #[pyo3(get)]
    winner: Option<u8>,
    /// Tricks played (until a position repeats, for a cycle).
    #[pyo3(get)]
    tricks: u64,
    /// Cards played (until a position repeats, for a cycle).
    #[pyo3(get)]
    cards: u64,
    /// Tricks before the cycle (None when the game ends).
    #[pyo3(get)]
    preperiod: Option<u64>,
    /// Tricks of one period (None when the game ends).
    #[pyo3(get)]
    period: Option<u64>,
    /// Cards of one period (None when the game ends).
    #[pyo3(get)]
    period_cards: Option<u64>,
    /// The cycle's smallest position (None when the game ends).
    #[pyo3(get)]
    cycle_id: Option<String>,
}

impl Game {
    fn of(pos: &Position, outcome: &Outcome) -> Game {
        let (preperiod, period, period_cards, cycle_id) = match outcome {
            Outcome::Cycle(c) => (
                Some(c.preperiod),
                Some(c.period),
                Some(c.cycle_cards),
                Some(c.cycle_id.to_string()),
            ),
            Outcome::Terminates { .. } => (None, None, None, None),
        };
        Game {
            position: pos.to_string(),
            outcome: if outcome.is_cycle() {
                "cycle"
            } else {
                "terminates"
            },
            winner: match outcome {
                Outcome::Terminates { winner, .. } => Some(winner + 1),
                Outcome::Cycle(_) => None,
            },
            tricks: outcome.tricks(),
            cards: outcome.cards(),
            preperiod,
            period,
            period_cards,
            cycle_id,
        }
    }
}

#[pymethods]
impl Game {
    fn __repr__(&self) -> String {
        match (&self.cycle_id, self.winner) {
            (Some(id), _) => format!(
                "Game(outcome='cycle', preperiod={}, period={}, period_cards={}, cycle_id='{id}')",
                self.preperiod.unwrap_or(0),
                self.period.unwrap_or(0),
                self.period_cards.unwrap_or(0)
            ),
            (None, w) => format!(
                "Game(outcome='terminates', winner={}, tricks={}, cards={})",
                w.unwrap_or(0),
                self.tricks,
                self.cards
            ),
        }
    }
}

/// Play one game forward with exact cycle detection, as ``ansatz play`` does.
///
/// ``position`` is ``HAND1/HAND2 (n)``, top card first, in the CLI's notations (dash ``-JQKA``,
/// playing cards, or Paulhus digits with ``notation="digits"``); player 1 moves unless ``(2)``
/// says otherwise. ``deck`` checks the position against a deck (``standard``, ``camicia``,
/// ``8-2J2Q2K2A``). ``reference=True`` plays the reference engine (the slow oracle).
/// Bad input raises ValueError with the CLI's message.
///
/// >>> g = ansatz.play("---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)")
/// >>> g.outcome, g.preperiod, g.period, g.period_cards
/// ('cycle', 4, 62, 440)
/// >>> ansatz.play("Q-/--J-").winner
/// 1
#[pyfunction]
#[pyo3(signature = (position=PAPER_DEAL, *, deck=None, notation="auto", reference=false),
    text_signature = "(position=PAPER_DEAL, *, deck=None, notation='auto', reference=False)")]
pub fn play(
    py: Python<'_>,
    position: &str,
    deck: Option<&str>,
    notation: &str,
    reference: bool,
) -> PyResult<Game> {
    short(py, || {
        let pos = self::position(position, notation, deck)?;
        let outcome = if reference {
            reference::play(&pos)
        } else {
            ansatz::engine::play(&pos)
        };
        Ok(Game::of(&pos, &outcome))
    })
}

/// The hand sizes at every trick boundary, as ``ansatz play --trace`` lists the positions: one
/// ``(cards of player 1, cards of player 2)`` pair per trick from the start, until the game ends
/// or a position repeats (the repeated one included). ``numpy=True`` gives them as one NumPy
/// array of shape ``(boundaries, 2)`` and dtype uint32.
///
/// >>> ansatz.trace("J--/-J-")
/// [(3, 3), (4, 2), (2, 4), (4, 2)]
/// >>> ansatz.trace("J--/-J-", numpy=True).shape
/// (4, 2)
#[pyfunction]
#[pyo3(signature = (position=PAPER_DEAL, *, numpy=false, deck=None, notation="auto"),
    text_signature = "(position=PAPER_DEAL, *, numpy=False, deck=None, notation='auto')")]
pub fn trace<'py>(
    py: Python<'py>,
    position: &str,
    numpy: bool,
    deck: Option<&str>,
    notation: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let sizes = short(py, || {
        let pos = self::position(position, notation, deck)?;
        let mut sizes: Vec<[u32; 2]> = Vec::new();
        trace_game(&pos, |l| {
            let h = &l.position.hands;
            sizes.push([h[0].len() as u32, h[1].len() as u32]);
        });
        Ok(sizes)
    })?;
    if numpy {
        let rows: Vec<Vec<u32>> = sizes.iter().map(|s| s.to_vec()).collect();
        return Ok(PyArray2::from_vec2(py, &rows)
            .map_err(|e| Error::Failed(e.to_string()))?
            .into_any());
    }
    let pairs: Vec<(u32, u32)> = sizes.iter().map(|s| (s[0], s[1])).collect();
    Ok(pairs.into_pyobject(py)?.into_any())
}

/// Every position from which one trick leads to ``position``, each checked by playing its trick
/// forward, as ``ansatz predecessors`` lists them (an empty list where the CLI finds none).
///
/// >>> ansatz.predecessors("J--/-J- (2)")
/// ['-J--/J- (2)', '--J--/J (1)']
#[pyfunction]
#[pyo3(signature = (position, *, deck=None, notation="auto"))]
pub fn predecessors(
    py: Python<'_>,
    position: &str,
    deck: Option<&str>,
    notation: &str,
) -> PyResult<Vec<String>> {
    short(py, || {
        let pos = self::position(position, notation, deck)?;
        let preds =
            ansatz::backward::predecessors(&pos).map_err(|e| Error::Failed(e.to_string()))?;
        Ok(preds.iter().map(Position::to_string).collect())
    })
}

/// Random deal number ``index`` under ``seed``: the deal that ``random_games``, ``ansatz search
/// random`` and ``ansatz bench`` play as game ``index`` (the deck shuffled, player 1 holding the
/// first half and the extra card of an odd deck, player 1 to move). ``balanced_faces=True``: the
/// deal of ``random_games(..., balanced_faces=True)``, each player holding half of each face.
///
/// >>> g = ansatz.random_games(10, seed=1)
/// >>> ansatz.play(ansatz.deal(3, seed=1)).cards == int(g["cards"][3])
/// True
#[pyfunction]
#[pyo3(signature = (index, *, seed=1, deck="standard", balanced_faces=false))]
pub fn deal(
    py: Python<'_>,
    index: u64,
    seed: u64,
    deck: &str,
    balanced_faces: bool,
) -> PyResult<String> {
    short(py, || {
        let cfg = random_config(deck, seed, index.saturating_add(1), balanced_faces)?;
        Ok(cfg.position(index).to_string())
    })
}

/// The random search's configuration of two-player deals of `deck`, validated as the CLI does.
pub fn random_config(
    deck: &str,
    seed: u64,
    games: u64,
    balanced_faces: bool,
) -> Result<RandomConfig> {
    let cfg = RandomConfig {
        deck: self::deck(deck)?,
        players: 2,
        balanced_faces,
        seed,
        games,
        top: 10,
    };
    cfg.validate().map_err(Error::input)?;
    Ok(cfg)
}
