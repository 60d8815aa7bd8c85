//! `read_library`: the records of a bincode piece library, each as the dict `ansatz inspect
//! --json` lists it (the library's own reader and the same accumulation).

use std::path::PathBuf;

use ansatz::ansatz::piece::accumulation;
use ansatz::ansatz::template::Template;
use ansatz::library::{self, PieceRecord};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;

use crate::call::{Error, short};

/// The records of a piece library (``pieces/*.bin``), each as ``ansatz inspect --json`` lists
/// its pieces: ``sequence`` (dash notation, top first), ``class``, ``length``, ``faces``
/// (``{"J", "Q", "K", "A"}`` counts), ``numbers``, ``preperiod``, ``period`` (of the template
/// game with the piece as TEST) and ``accumulation`` (the most cards the other hand holds on
/// that game's cycle; None if it ends). A file that is not a library: ValueError with the CLI's
/// message.
///
/// >>> pieces = ansatz.read_library("pieces/paper-2024.bin")
/// >>> len(pieces), max(p["accumulation"] for p in pieces)
/// (26, 24)
#[pyfunction]
pub fn read_library(py: Python<'_>, path: PathBuf) -> PyResult<Vec<Bound<'_, PyDict>>> {
    let (pieces, acc) = short(py, || {
        let lib = library::read(&path).map_err(Error::input)?;
        let template = Template::from_info(&lib.header.template).map_err(|e| {
            Error::Input(format!(
                "{}: the library's template does not parse: {e}",
                path.display()
            ))
        })?;
        // One template game per piece, in parallel, as `inspect` plays them.
        let acc: Vec<Option<u8>> = lib
            .pieces
            .par_iter()
            .map(|p| accumulation(&template, &p.sequence))
            .collect();
        Ok((lib.pieces, acc))
    })?;
    pieces
        .iter()
        .zip(acc)
        .map(|(p, a)| record(py, p, a))
        .collect()
}

/// One piece as a dict, with `inspect --json`'s keys.
fn record<'py>(py: Python<'py>, p: &PieceRecord, acc: Option<u8>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("sequence", p.dash())?;
    d.set_item("class", p.class)?;
    d.set_item("length", p.length)?;
    let faces = PyDict::new(py);
    for (k, name) in ["J", "Q", "K", "A"].iter().enumerate() {
        faces.set_item(*name, p.counts[k + 1])?;
    }
    d.set_item("faces", faces)?;
    d.set_item("numbers", p.counts[0])?;
    d.set_item("preperiod", p.preperiod)?;
    d.set_item("period", p.period)?;
    d.set_item("accumulation", acc)?;
    Ok(d)
}
