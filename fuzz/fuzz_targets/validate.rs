#![no_main]
//! See `pocketfen_fuzz::validate` for what this target checks.

libfuzzer_sys::fuzz_target!(|data: &[u8]| pocketfen_fuzz::validate(data));
