#![no_main]
//! See `pocketfen_fuzz::archive` for what this target checks.

libfuzzer_sys::fuzz_target!(|data: &[u8]| pocketfen_fuzz::archive(data));
