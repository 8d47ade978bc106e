//! The tables in `tablebases/`, as built into the binary: every board of at
//! most 16 points is there, plain and circular, every table verifies, its
//! result at komi 0 is the published one (SPEC section 7, the reference
//! work's Tables 5.2 and 5.8; our own for the circular boards the reference
//! work did not solve), and the manifest describes it truly. Circular
//! boards of one or two columns have no table of their own: the engine
//! plays them from their plain boards' (`gtp::library`), checked here too.

use std::collections::BTreeMap;
use std::path::Path;

use smallgo::analysis::Values;
use smallgo::analysis::{best_moves, root_result};
use smallgo::board::Board;
use smallgo::gtp::library::Library;
use smallgo::state::State;
use smallgo::table::built_in;
use smallgo::table::format::Header;
use smallgo::table::verify::verify_bytes;
use smallgo::table::{Origin, Tablebase};

/// SPEC section 7, komi 0: the boards of at most 16 points.
const PUBLISHED: &[(&str, &str)] = &[
    ("1x1", "draw"),
    ("1x2", "draw"),
    ("1x3", "B+3"),
    ("1x4", "B+4"),
    ("1x5", "draw"),
    ("1x6", "draw"),
    ("1x7", "draw"),
    ("1x8", "draw"),
    ("1x9", "draw"),
    ("1x10", "draw"),
    ("1x11", "draw"),
    ("1x12", "draw"),
    ("1x13", "draw"),
    ("1x14", "draw"),
    ("1x15", "draw"),
    ("1x16", "draw"),
    ("2x2", "draw"),
    ("2x3", "draw"),
    ("2x4", "B+8"),
    ("2x5", "B+10"),
    ("2x6", "B+12"),
    ("2x7", "B+14"),
    ("2x8", "B+16"),
    ("3x3", "B+9"),
    ("3x4", "B+4"),
    ("3x5", "B+15"),
    ("4x4", "B+1"),
];

/// The circular boards of at most 16 points with a seam (three columns or
/// more), at komi 0: the reference work's Table 5.8 for one and two rows;
/// for the others (which it did not solve) the result of our solve when the
/// tables were first shipped, so that a change shows.
const CIRCULAR: &[(&str, &str)] = &[
    ("1x3c", "draw"),
    ("1x4c", "draw"),
    ("1x5c", "draw"),
    ("1x6c", "draw"),
    ("1x7c", "B+1"),
    ("1x8c", "draw"),
    ("1x9c", "draw"),
    ("1x10c", "draw"),
    ("1x11c", "draw"),
    ("1x12c", "draw"),
    ("1x13c", "draw"),
    ("1x14c", "draw"),
    ("1x15c", "draw"),
    ("1x16c", "draw"),
    ("2x3c", "draw"),
    ("2x4c", "draw"),
    ("2x5c", "draw"),
    ("2x6c", "B+1"),
    ("2x7c", "B+14"),
    ("2x8c", "B+2"),
    // Not in the reference work: our own results.
    ("3x3c", "B+9"),
    ("3x4c", "draw"),
    ("3x5c", "B+3"),
    ("4x3c", "B+12"),
    ("4x4c", "draw"),
    ("5x3c", "B+15"),
];

/// Every shipped board with its result at komi 0.
fn shipped() -> impl Iterator<Item = (&'static str, &'static str)> {
    PUBLISHED.iter().chain(CIRCULAR).copied()
}

fn tables_folder() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tablebases"))
}

#[test]
fn every_small_board_is_shipped_and_built_in() {
    let built_in: Vec<&str> = built_in::tables().map(|(name, _)| name).collect();
    for (board, _) in shipped() {
        assert!(built_in.contains(&board), "{board} is not built in");
        assert!(
            tables_folder().join(format!("{board}.sgtb")).is_file(),
            "{board} is not in tablebases/"
        );
    }
    assert_eq!(
        built_in.len(),
        PUBLISHED.len() + CIRCULAR.len(),
        "{built_in:?}"
    );
}

/// The lists above hold every board of at most 16 points that needs a
/// table of its own: a plain board with no more rows than columns (the
/// others play turned), and a circular board of three columns or more.
#[test]
fn the_lists_hold_every_board_of_16_points() {
    let listed: Vec<&str> = shipped().map(|(name, _)| name).collect();
    for rows in 1..=16 {
        for columns in 1..=16 / rows {
            let plain = Board::new(rows, columns).unwrap();
            assert_eq!(
                listed.contains(&plain.name().as_str()),
                rows <= columns,
                "{plain}"
            );
            let circular = Board::circular(rows, columns).unwrap();
            assert_eq!(
                listed.contains(&circular.name().as_str()),
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
    let library = Library::new(None, false);
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
    let published: BTreeMap<&str, &str> = shipped().collect();
    for (name, bytes) in built_in::tables() {
        let report = verify_bytes(&Origin::BuiltIn(name.to_string()), bytes)
            .unwrap_or_else(|e| panic!("{name} does not verify: {e}"));
        let table = Tablebase::from_static(name, bytes).unwrap();
        assert_eq!(table.board(), name.parse::<Board>().unwrap());
        assert_eq!(report.states, table.header().states);
        let result = root_result(&table).unwrap();
        assert_eq!(
            Some(&result.as_str()),
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
        let table = Tablebase::open(&path).unwrap();
        assert_eq!(root_result(&table).unwrap(), result, "{board}");
        let best: Vec<String> = best_moves(&table, &State::start(), 0.0, true)
            .unwrap()
            .iter()
            .map(|m| m.name(&table.board()))
            .collect();
        assert_eq!(best.join(" "), moves, "{board}");
        seen += 1;
    }
    assert_eq!(seen, PUBLISHED.len() + CIRCULAR.len());
}
