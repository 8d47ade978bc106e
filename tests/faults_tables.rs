//! Faults in the tables the engine serves, through the real binary: a
//! table relabelled as another board (its header's board rewritten, its
//! checksum made right), a table with a damaged block whose checksum was
//! made right, and a table truncated while the engine serves it. In each
//! case the engine must answer every probe of the board as it does from
//! its built-in tables alone, and say on standard error which file it
//! refused and why.

use std::path::Path;

use crate::support::files::shipped_table;
use crate::support::gtp_engine::{EngineCommand, GtpEngine};

/// Where the checksum sits in a table's header.
const CHECKSUM_OFFSET: usize = 120;

/// Rewrites a table's checksum (CRC-32 of the file with its own 4 bytes as
/// zero) so that a deliberate change is not caught by it.
fn reseal(bytes: &mut [u8]) {
    bytes[CHECKSUM_OFFSET..CHECKSUM_OFFSET + 4].fill(0);
    let checksum = crc32fast::hash(bytes);
    bytes[CHECKSUM_OFFSET..CHECKSUM_OFFSET + 4].copy_from_slice(&checksum.to_le_bytes());
}

/// A shipped table's bytes with its header naming board `rows`x`columns`
/// (circular or not: format version 2 and topology byte 1, else version 1
/// and 0), resealed: another board's data under that board's name, as the
/// fault run made them.
fn relabelled(shipped: &str, rows: u8, columns: u8, circular: bool) -> Vec<u8> {
    let mut bytes = std::fs::read(shipped_table(shipped)).unwrap();
    bytes[8..12].copy_from_slice(&(if circular { 2u32 } else { 1 }).to_le_bytes());
    bytes[16] = rows;
    bytes[17] = columns;
    bytes[18] = circular as u8;
    reseal(&mut bytes);
    bytes
}

/// The GTP commands that make the board `rows`x`columns`.
fn board_commands(rows: u8, columns: u8, circular: bool) -> Vec<String> {
    let topology = if circular { "circular" } else { "plain" };
    vec![
        format!("smallgo-topology {topology}"),
        format!("rectangular_boardsize {columns} {rows}"),
    ]
}

/// What an engine answers on a board: `setup`, then at each of `plies`
/// moves of perfect play the position's value and every move's label.
fn answers(engine: &mut GtpEngine, setup: &[String], plies: usize) -> Vec<String> {
    let mut said = Vec::new();
    let mut ask = |engine: &mut GtpEngine, command: &str| {
        let reply = engine
            .reply_to(command)
            .unwrap_or_else(|fault| panic!("{fault}"));
        let status = if reply.success() { "=" } else { "?" };
        said.push(format!("{command}: {status} {}", reply.text()));
    };
    for command in setup {
        ask(engine, command);
    }
    for ply in 0..plies {
        ask(engine, "smallgo-value");
        ask(engine, "smallgo-move-labels");
        ask(
            engine,
            if ply % 2 == 0 {
                "genmove b"
            } else {
                "genmove w"
            },
        );
    }
    ask(engine, "final_score");
    said
}

/// Starts smallgo with `--tables folder` (or with its built-in tables
/// alone).
fn engine(folder: Option<&Path>) -> GtpEngine {
    let arguments: Vec<&str> = match folder {
        Some(folder) => vec!["--tables", folder.to_str().unwrap()],
        None => vec![],
    };
    let label = if folder.is_some() {
        "smallgo --tables"
    } else {
        "smallgo"
    };
    GtpEngine::start(&EngineCommand::smallgo(&arguments), label, None).unwrap()
}

/// A table whose header names another board (2x4c data as 2x4, 2x5 as
/// 2x5c and as 5x2, 3x4 as 4x3), its checksum made right, is refused with a
/// message naming the file and the fault, and the engine serves the board
/// from its next source (its built-in table, or the turned board's) with
/// the right values.
#[test]
fn a_table_of_another_board_is_refused_and_the_next_source_serves() {
    for (shipped, rows, columns, circular) in [
        ("2x4c.sgtb", 2, 4, false),
        ("2x5.sgtb", 2, 5, true),
        ("2x5.sgtb", 5, 2, false),
        ("3x4.sgtb", 4, 3, false),
    ] {
        let folder = tempfile::tempdir().unwrap();
        let name = format!("{rows}x{columns}{}", if circular { "c" } else { "" });
        let path = folder.path().join(format!("{name}.sgtb"));
        std::fs::write(&path, relabelled(shipped, rows, columns, circular)).unwrap();
        let setup = board_commands(rows, columns, circular);
        let mut forged = engine(Some(folder.path()));
        let mut built_in = engine(None);
        let served = answers(&mut forged, &setup, 6);
        let truth = answers(&mut built_in, &setup, 6);
        assert_eq!(served, truth, "{shipped} as {name}");
        let log = forged.new_stderr();
        assert!(
            log.contains(&path.display().to_string())
                && log.contains(&format!("not a table of board {name}")),
            "{shipped} as {name}: {log}"
        );
    }
}

/// A table under 64 MiB is read into memory when its board is opened:
/// truncated while the engine serves it, it goes on serving the right
/// values (a mapped file would stop the engine with SIGBUS at the next
/// probe of a block past the new end).
#[test]
fn a_table_read_into_memory_survives_being_truncated_while_served() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("4x4.sgtb");
    std::fs::copy(shipped_table("4x4.sgtb"), &path).unwrap();
    let start = ["boardsize 4".to_string(), "smallgo-value".to_string()];
    let mut served = engine(Some(folder.path()));
    for command in &start {
        served.expect_success(command).unwrap();
    }
    let log = served.new_stderr();
    assert!(
        log.contains(&format!("serving from {}", path.display())),
        "{log}"
    );
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(200)
        .unwrap();
    let said = answers(&mut served, &[], 10);
    let mut built_in = engine(None);
    for command in &start {
        built_in.expect_success(command).unwrap();
    }
    assert_eq!(said, answers(&mut built_in, &[], 10));
}

/// The file spans of a table's blocks, from its header's block count and
/// block table.
fn block_spans(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
    let blocks = u32::from_le_bytes(bytes[92..96].try_into().unwrap()) as usize;
    let table = u64_at(112);
    (0..blocks)
        .map(|block| u64_at(table + 8 * block)..u64_at(table + 8 * (block + 1)))
        .collect()
}

/// A table whose blocks after the first are damaged (bits flipped in the
/// middle of each, the checksum made right) opens, as its header, its
/// directory and its first block are sound, and serves until a probe meets
/// a damaged block: then it is dropped, with an error line naming it, and
/// the built-in table answers that probe and every later one, as an engine
/// with its built-in tables alone does.
#[test]
fn a_table_found_damaged_while_serving_gives_way_to_the_built_in_table() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("3x4.sgtb");
    let mut bytes = std::fs::read(shipped_table("3x4.sgtb")).unwrap();
    let spans = block_spans(&bytes);
    assert!(spans.len() > 4, "{} blocks", spans.len());
    for span in &spans[1..] {
        let middle = (span.start + span.end) / 2;
        for byte in &mut bytes[middle..middle + 8] {
            *byte ^= 0xa5;
        }
    }
    reseal(&mut bytes);
    std::fs::write(&path, &bytes).unwrap();
    let setup = board_commands(3, 4, false);
    let mut served = engine(Some(folder.path()));
    let said = answers(&mut served, &setup, 10);
    assert_eq!(said, answers(&mut engine(None), &setup, 10));
    let log = served.new_stderr();
    assert!(
        log.contains(&format!(
            "3x4: dropping {}, found damaged while serving: {}: corrupted table",
            path.display(),
            path.display()
        )) && log.contains("3x4: serving from built-in table 3x4"),
        "{log}"
    );
}
