//! The lean solve (a byte per state, values in spools) against the solve
//! with full cells: the same table, byte for byte, on every board small
//! enough to solve both ways in a test, with spools in memory and in files,
//! in one partition and in many.

use smallgo::board::Board;
use smallgo::solver::spool::SpoolFolder;
use smallgo::solver::{solve, solve_lean_in_partitions, Silent};
use smallgo::table::writer::encode;

fn board(name: &str) -> Board {
    name.parse().unwrap()
}

#[test]
fn lean_tables_match_full_cell_tables() {
    let folder = tempfile::tempdir().unwrap();
    for name in [
        "1x1", "1x2", "1x3", "1x5", "1x8", "2x2", "2x3", "2x4", "2x5", "3x3", "3x4", "2x6", "1x12",
    ] {
        let (expected, _) = encode(&solve(board(name), &Silent).unwrap());
        let full = solve(board(name), &Silent).unwrap();
        let in_memory =
            solve_lean_in_partitions(board(name), SpoolFolder::memory(), &Silent, None).unwrap();
        assert_eq!(encode(&in_memory).0, expected, "{name}, spools in memory");
        assert_eq!(in_memory.stats().edges, full.stats().edges, "{name}: edges");
        assert_eq!(in_memory.stats().flips, full.stats().flips, "{name}: flips");
        assert_eq!(
            in_memory.stats().largest_depth,
            full.stats().largest_depth,
            "{name}: depth"
        );
        let spools = SpoolFolder::at(&folder.path().join(name)).unwrap();
        // The smallest partitions: many of them on the bigger boards.
        let in_files = solve_lean_in_partitions(board(name), spools, &Silent, Some(0)).unwrap();
        assert_eq!(encode(&in_files).0, expected, "{name}, spools in files");
        drop(in_files);
        assert!(!folder.path().join(name).exists(), "{name}: spools left");
    }
}

#[test]
fn lean_values_match_full_cells_state_by_state() {
    for name in ["3x3", "2x5", "1x9"] {
        let full = solve(board(name), &Silent).unwrap();
        let lean =
            solve_lean_in_partitions(board(name), SpoolFolder::memory(), &Silent, Some(0)).unwrap();
        for number in 0..full.index().counts().states {
            assert_eq!(
                lean.value(number),
                full.value(number),
                "{name}: state {number}"
            );
        }
    }
}
