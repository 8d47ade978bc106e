//! Arbitrary bytes as a table file (`smallgo::fuzzing::table_bytes`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| smallgo::fuzzing::table_bytes(data));
