//! Fuzz target `beat_it`: see `ansatz_fuzz::checks::beat_it` for what it reads and what must hold.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ansatz_fuzz::checks::beat_it(data));
