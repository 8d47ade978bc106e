//! Arbitrary text as GTP input (`smallgo::fuzzing::gtp_lines`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| smallgo::fuzzing::gtp_lines(data));
