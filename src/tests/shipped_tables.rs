//! The tables in `tablebases/`, as built into the binary: every board of at
//! most 16 points is there, plain and circular, every table verifies, its
//! result at komi 0 is the published one
//! (`docs/rules.md#results-the-tables-reproduce`, the reference work's Tables
//! 5.2 and 5.8; our own for the circular boards the reference work did not
//! solve), and the manifest describes it truly. Circular boards of one or two
//! columns have no table of their own: the engine plays them from their plain
//! boards' (`table::library`), checked here too.

use std::collections::BTreeMap;
use std::path::Path;

use crate::rules::board::Board;
use crate::rules::state::State;
use crate::table::built_in;
use crate::table::format::Header;
use crate::table::library::Tablebase;
use crate::table::values::rating::{best_moves, root_result};
use crate::table::values::Values;
use crate::table::verify::verify_bytes;
use crate::table::{Origin, Table};

/// The circular boards of at most 16 points the reference work did not
/// solve, at komi 0: the result of our solve when the tables were first
/// shipped, so that a change shows.
const OWN: &[(&str, &str)] = &[
    ("3x3c", "B+9"),
    ("3x4c", "draw"),
    ("3x5c", "B+3"),
    ("4x3c", "B+12"),
    ("4x4c", "draw"),
    ("5x3c", "B+15"),
];

/// Whether `board` has a shipped table of its own: at most 16 points, and
/// a plain board with no more rows than columns (the others play turned)
/// or a circular board of three columns or more.
fn has_own_table(board: &Board) -> bool {
    board.points() <= 16
        && if board.is_circular() {
            board.columns() >= 3
        } else {
            board.rows() <= board.columns()
        }
}

/// Every shipped board with its result at komi 0: the published ones
/// (`tests/published.csv`: the reference work's Tables 5.2 and 5.8,
/// `docs/rules.md#results-the-tables-reproduce`), then our own.
fn shipped() -> Vec<(String, String)> {
    let mut boards: Vec<(String, String)> = super::published::figures("result")
        .filter(|(name, _)| has_own_table(&name.parse().unwrap()))
        .map(|(name, result)| (name.to_string(), result.to_string()))
        .collect();
    boards.extend(OWN.iter().map(|&(b, r)| (b.to_string(), r.to_string())));
    boards
}

fn tables_folder() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tablebases"))
}

#[test]
fn every_small_board_is_shipped_and_built_in() {
    let built_in: Vec<&str> = built_in::tables().map(|(name, _)| name).collect();
    let shipped = shipped();
    for (board, _) in &shipped {
        assert!(
            built_in.contains(&board.as_str()),
            "{board} is not built in"
        );
        assert!(
            tables_folder().join(format!("{board}.sgtb")).is_file(),
            "{board} is not in tablebases/"
        );
    }
    assert_eq!(built_in.len(), shipped.len(), "{built_in:?}");
}

/// The published results and our own hold every board of at most 16 points that needs a
/// table of its own: a plain board with no more rows than columns (the
/// others play turned), and a circular board of three columns or more.
#[test]
fn the_lists_hold_every_board_of_16_points() {
    let listed: Vec<String> = shipped().into_iter().map(|(name, _)| name).collect();
    for rows in 1..=16 {
        for columns in 1..=16 / rows {
            let plain = Board::new(rows, columns).unwrap();
            assert_eq!(listed.contains(&plain.name()), rows <= columns, "{plain}");
            let circular = Board::circular(rows, columns).unwrap();
            assert_eq!(
                listed.contains(&circular.name()),
                columns >= 3,
                "{circular}"
            );
        }
    }
}

/// The engine's library serves every board of at most 16 points from the
/// built-in tables, a circular board of one or two columns from its plain
/// board's: the same value of the empty board, and of every position after
/// one move.
#[test]
fn the_engine_plays_every_board_of_16_points() {
    let library = Tablebase::with_sources(None, false);
    for rows in 1..=16 {
        for columns in 1..=16 / rows {
            for board in [
                Board::new(rows, columns).unwrap(),
                Board::circular(rows, columns).unwrap(),
            ] {
                let oracle = library
                    .open(board)
                    .unwrap_or_else(|| panic!("no values for {board}"));
                assert_eq!(oracle.board(), board);
                if board.is_circular() && !board.wraps() {
                    let plain = library.open(board.plain()).unwrap();
                    let start = State::start();
                    let mut states = vec![start];
                    states.extend(board.all().iter().filter_map(|p| start.place(&board, p)));
                    for state in states {
                        assert_eq!(
                            oracle.value_of(&state).unwrap(),
                            plain.value_of(&state).unwrap(),
                            "{board}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn every_shipped_table_verifies_and_has_the_published_result() {
    let published: BTreeMap<String, String> = shipped().into_iter().collect();
    for (name, bytes) in built_in::tables() {
        let report = verify_bytes(&Origin::BuiltIn(name.to_string()), bytes)
            .unwrap_or_else(|e| panic!("{name} does not verify: {e}"));
        let table = Table::from_static(name, bytes).unwrap();
        assert_eq!(table.board(), name.parse::<Board>().unwrap());
        assert_eq!(report.states, table.header().states);
        let result = root_result(&table).unwrap();
        assert_eq!(
            Some(&result),
            published.get(name),
            "{name}: solved {result}"
        );
        // The built-in bytes are the file's bytes.
        let file = std::fs::read(tables_folder().join(format!("{name}.sgtb"))).unwrap();
        assert!(
            file == bytes,
            "{name}: the binary holds other bytes than tablebases/"
        );
    }
}

#[test]
fn the_manifest_describes_the_tables() {
    let text = std::fs::read_to_string(tables_folder().join("manifest.tsv")).unwrap();
    let mut seen = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("board\t"))
    {
        let fields: Vec<&str> = line.split('\t').collect();
        let [board, states, result, moves, bytes, checksum, seconds] = fields[..] else {
            panic!("bad manifest line: {line}");
        };
        let path = tables_folder().join(format!("{board}.sgtb"));
        let file = std::fs::read(&path).unwrap();
        let header = Header::read(&file).unwrap();
        assert_eq!(states.parse::<u64>().unwrap(), header.states, "{board}");
        assert_eq!(bytes.parse::<usize>().unwrap(), file.len(), "{board}");
        assert_eq!(
            u32::from_str_radix(checksum, 16).unwrap(),
            header.checksum,
            "{board}"
        );
        assert!(seconds.parse::<f64>().unwrap() >= 0.0);
        let table = Table::open(&path).unwrap();
        assert_eq!(root_result(&table).unwrap(), result, "{board}");
        let best: Vec<String> = best_moves(&table, &State::start(), 0.0, true)
            .unwrap()
            .iter()
            .map(|m| m.name(&table.board()))
            .collect();
        assert_eq!(best.join(" "), moves, "{board}");
        seen += 1;
    }
    assert_eq!(seen, shipped().len());
}
