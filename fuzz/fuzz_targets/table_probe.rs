//! Arbitrary bytes, checksum made right, opened as a table and probed
//! state by state (`smallgo::fuzzing::table_probe`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| smallgo::fuzzing::table_probe(data));
