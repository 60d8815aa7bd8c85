//! Fuzz target `library`: see `ansatz_fuzz::checks::library` for what it reads and what must hold.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ansatz_fuzz::checks::library(data));
