//! Casella's Ansatz: templates, the enumeration of pieces, piece classes and mutation.
//!
//! - [`template`]: template files (`templates/*.txt`) and the games they make.
//! - [`enumerate`]: the exact prefix-sharing enumeration of candidates, its ranges, and the naive checker.
//! - `lazy`: the template game that stops when its next TEST card is needed.
//! - [`find`]: ranges in parallel, checkpoint hooks, `--faces-as` expansion, the resulting library.
//! - [`piece`]: classes of pieces and what a library records about each.
//! - [`mutate`]: add / remove / swap operators and the search around a position.

pub mod enumerate;
pub mod find;
pub mod import;
mod lazy;
pub mod mutate;
pub mod piece;
pub mod template;
