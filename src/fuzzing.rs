//! The entry points of the cargo-fuzz targets in `fuzz/`, compiled only
//! when cargo-fuzz builds the crate (`--cfg fuzzing`): the table reader and
//! the GTP front end fed arbitrary input. They are here, not in `fuzz/`,
//! because what they drive is private to the crate.

use crate::gtp::engine::{Engine, Reply, Settings};
use crate::gtp::parse;
use crate::table::format::{file_checksum, Header, CHECKSUM_OFFSET};
use crate::table::library::Tablebase;
use crate::table::verify::verify_bytes;
use crate::table::Origin;

/// Arbitrary bytes as a table file: the header, directory, block table and
/// records must be refused with a fault or verified, never panic. The
/// verifier shares its decoder with the prober. Each input is tried as it
/// is and with its checksum made right, so that mutations reach past the
/// checksum into the directory and the blocks.
pub fn table_bytes(data: &[u8]) {
    let origin = Origin::BuiltIn("fuzz".to_string());
    let _ = Header::read(data);
    let _ = verify_bytes(&origin, data);
    if data.len() >= CHECKSUM_OFFSET + 4 {
        let mut fixed = data.to_vec();
        let checksum = file_checksum(&fixed);
        fixed[CHECKSUM_OFFSET..CHECKSUM_OFFSET + 4].copy_from_slice(&checksum.to_le_bytes());
        let _ = verify_bytes(&origin, &fixed);
    }
}

/// Arbitrary text as GTP input, line by line, through the engine's own
/// parsing and commands: every line gets a reply or is skipped, never a
/// panic. Small boards are solved on the spot (no built-in tables, so each
/// run starts alike).
pub fn gtp_lines(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut engine = Engine::new(
        Tablebase::with_sources(None, true),
        Settings {
            resign: false,
            random_seed: None,
        },
    );
    for raw in text.lines().take(64) {
        let Some(line) = parse::clean(raw) else {
            continue;
        };
        let Some(command) = parse::command_line(&line) else {
            continue;
        };
        match engine.execute(command.name, &command.arguments) {
            Reply::Quit => break,
            Reply::Analyze(request) => {
                let _ = engine.kata_analyze_line(&request);
            }
            Reply::Success(_) | Reply::Failure(_) => {}
        }
    }
}
