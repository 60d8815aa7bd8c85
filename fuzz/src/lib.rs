//! The fuzz crate's library: the checks every target runs (`checks.rs`, shared with the ordinary
//! suite's replay of saved crash inputs).

pub mod checks;
