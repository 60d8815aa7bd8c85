//! The Python module `ansatz` (built as `ansatz._ansatz`, re-exported by `ansatz/__init__.py`):
//! the library's exact engine, backward play and searches from Python. Nothing is reimplemented
//! here: each function validates its arguments as the CLI does and calls the library entry the
//! CLI calls, so its answers are the CLI's.
//!
//! ```text
//! call.rs      errors to exceptions, panics caught, long calls off the GIL with Ctrl-C
//! game.rs      play, trace, predecessors, deal
//! random.rs    random_games: every game of seeded random deals as NumPy arrays
//! family.rs    family and the Family it gives
//! search.rs    exhaustive, assemble, discover (the run layer's jobs)
//! library.rs   read_library
//! ```

mod call;
mod family;
mod game;
mod library;
mod random;
mod search;

use pyo3::prelude::*;

/// Beggar-My-Neighbour games: exact play, backward play and searches (the ansatz library).
#[pymodule]
fn _ansatz(m: &Bound<'_, PyModule>) -> PyResult<()> {
    call::install_hook();
    m.add("PAPER_DEAL", game::PAPER_DEAL)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<game::Game>()?;
    m.add_class::<family::Family>()?;
    m.add_function(wrap_pyfunction!(game::play, m)?)?;
    m.add_function(wrap_pyfunction!(game::trace, m)?)?;
    m.add_function(wrap_pyfunction!(game::predecessors, m)?)?;
    m.add_function(wrap_pyfunction!(game::deal, m)?)?;
    m.add_function(wrap_pyfunction!(random::random_games, m)?)?;
    m.add_function(wrap_pyfunction!(family::family, m)?)?;
    m.add_function(wrap_pyfunction!(search::exhaustive, m)?)?;
    m.add_function(wrap_pyfunction!(search::assemble, m)?)?;
    m.add_function(wrap_pyfunction!(search::discover, m)?)?;
    m.add_function(wrap_pyfunction!(library::read_library, m)?)?;
    m.add_function(wrap_pyfunction!(running_calls, m)?)?;
    Ok(())
}

/// Worker threads of long calls still running: 0 soon after Ctrl-C stops one (for the tests).
#[pyfunction]
#[pyo3(name = "_running_calls")]
fn running_calls() -> usize {
    call::RUNNING.load(std::sync::atomic::Ordering::SeqCst)
}
