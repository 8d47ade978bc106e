//! The entry points of the cargo-fuzz targets in `fuzz/`, compiled only
//! when cargo-fuzz builds the crate (`--cfg fuzzing`): the table reader,
//! the prober and the GTP front end fed arbitrary input. They are here, not in `fuzz/`,
//! because what they drive is private to the crate.

use crate::gtp::engine::{Engine, Reply, Settings};
use crate::gtp::parse;
use crate::table::format::{file_checksum, Header, CHECKSUM_OFFSET};
use crate::table::library::Tablebase;
use crate::table::probe::Table;
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

/// Arbitrary bytes, their checksum made right, opened as a table and
/// probed: a table that opens (its header, directory and identity checks
/// passed) answers every state of its board with a value or a fault, never
/// a panic. Boards of at most 12 points are probed state by state (at most
/// 20,000 states), through the block decoder the verifier shares.
pub fn table_probe(data: &[u8]) {
    if data.len() < CHECKSUM_OFFSET + 4 {
        return;
    }
    let mut bytes = data.to_vec();
    let checksum = file_checksum(&bytes);
    bytes[CHECKSUM_OFFSET..CHECKSUM_OFFSET + 4].copy_from_slice(&checksum.to_le_bytes());
    let Ok(table) = Table::from_vec(Origin::BuiltIn("fuzz".to_string()), bytes) else {
        return;
    };
    let board = table.board();
    if board.points() > 12 {
        return;
    }
    let Some(index) = crate::index::StateIndex::build(board) else {
        return;
    };
    let states = index.counts().states.min(20_000);
    for number in 0..states {
        let _ = table.probe(&index.unrank(number));
    }
}

/// Arbitrary text as GTP input, line by line, through the engine's own
/// parsing and commands: every line gets a reply or is skipped, never a
/// panic. Small boards are solved on the spot (no built-in tables, so each
/// run starts alike). The commands that read or write files a line names
/// (`loadsgf`, `smallgo-problem`, `printsgf FILE`) are skipped: a fuzzer must not write files
/// anywhere.
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
        let names_a_file = command.name.eq_ignore_ascii_case("loadsgf")
            || command.name == "smallgo-problem"
            || (command.name.eq_ignore_ascii_case("printsgf") && !command.arguments.is_empty());
        if names_a_file {
            continue;
        }
        match engine.execute(command.name, &command.arguments) {
            Reply::Quit => break,
            Reply::Analyze(request) => {
                let _ = engine.analyze_line(&request);
            }
            Reply::Success(_) | Reply::Failure(_) => {}
        }
    }
}
