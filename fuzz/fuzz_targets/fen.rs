#![no_main]
//! See `pocketfen_fuzz::fen` for what this target checks.

libfuzzer_sys::fuzz_target!(|data: &[u8]| pocketfen_fuzz::fen(data));
