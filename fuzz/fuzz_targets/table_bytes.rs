//! Arbitrary bytes as a table file: the header, directory, block table and
//! records must be refused with a fault or verified, never panic. The
//! verifier shares its decoder with the prober. Each input is tried as it
//! is and with its checksum made right, so that mutations reach past the
//! checksum into the directory and the blocks.
#![no_main]

use libfuzzer_sys::fuzz_target;
use smallgo::table::format::{file_checksum, Header, CHECKSUM_OFFSET};
use smallgo::table::verify::verify_bytes;
use smallgo::table::Origin;

fuzz_target!(|data: &[u8]| {
    let origin = Origin::BuiltIn("fuzz".to_string());
    let _ = Header::read(data);
    let _ = verify_bytes(&origin, data);
    if data.len() >= CHECKSUM_OFFSET + 4 {
        let mut fixed = data.to_vec();
        let checksum = file_checksum(&fixed);
        fixed[CHECKSUM_OFFSET..CHECKSUM_OFFSET + 4].copy_from_slice(&checksum.to_le_bytes());
        let _ = verify_bytes(&origin, &fixed);
    }
});
