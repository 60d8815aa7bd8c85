//! Fuzz target `shard`: see `ansatz_fuzz::checks::shard` for what it reads and what must hold.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ansatz_fuzz::checks::shard(data));
