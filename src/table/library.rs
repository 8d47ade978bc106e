//! The tables per board: which boards have perfect values (for the engine,
//! the analyses and the command line), and the source of them for each: a
//! table from `--tables DIR` (preferred), a table built into the binary,
//! the table of the transposed board (a 7x2 board is a 2x7 board turned),
//! or, for a board small enough, a solve done on the spot (with the feature
//! `solver`; without it, a board with no table has no values, and the log
//! says why).
//!
//! A circular board has no turned board (turning a cylinder makes its
//! columns wrap). One of one or two columns has no seam of its own either:
//! its rows' ends already touch, so it has the plain board's adjacency and
//! plays from the plain board's values (2x2c from 2x2, 8x2c from 2x8
//! turned) when it has no table of its own. Its states are the plain
//! board's, point for point.
//!
//! A table that fails its checks is refused with a message naming the file
//! and the fault; the engine goes on with the other sources and boards.
//! Several files may hold one board (`4x4.sgtb`, `4x4.v2.sgtb`): each is
//! tried in turn, `RxC.sgtb` first, until one is sound, and the log says
//! which serves and why the others were refused. A file is filed under the
//! board its name gives, and refused at once if its header names another;
//! anything but a regular file is refused without being read.

// A probe-only build (no feature `solver`) leaves the solve on the spot unused.
#![cfg_attr(not(feature = "solver"), allow(dead_code, unused_imports))]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::board::{Board, Point, PointSet};
#[cfg(feature = "solver")]
use crate::plan::estimate;
use crate::position::Position;
#[cfg(feature = "solver")]
use crate::solver::{solve, Silent, Solution};
use crate::state::State;
use crate::table::values::Values;
use crate::table::{board_of_name, built_in, check_name, file_name, format, TableError, Tablebase};
use crate::value::Value;

/// Boards with about this many states or fewer are solved on the spot when
/// no table has them: about a second on this machine.
pub const SOLVE_ON_THE_SPOT_STATES: f64 = 1.5e6;

/// The sources of values the engine knows of.
pub struct Library {
    /// The candidate files of each board, in the order they are tried.
    files: BTreeMap<Board, Vec<PathBuf>>,
    built_in: BTreeMap<Board, &'static [u8]>,
}

/// A source `Library::scan` refused, and why.
#[derive(Debug)]
pub enum LibraryFault {
    /// A built-in table whose header is not sound.
    BuiltIn(TableError),
    /// The tables folder cannot be read.
    Folder {
        folder: PathBuf,
        error: std::io::Error,
    },
    /// A file of the folder that is not a table of the board its name
    /// gives.
    File(TableError),
}

impl std::fmt::Display for LibraryFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LibraryFault::BuiltIn(error) => write!(f, "{error}"),
            LibraryFault::Folder { folder, error } => {
                write!(f, "--tables {}: {error}", folder.display())
            }
            LibraryFault::File(error) => write!(f, "skipping {error}"),
        }
    }
}

impl std::error::Error for LibraryFault {}

/// Values for one board, however they are obtained.
#[derive(Clone)]
pub struct Oracle {
    board: Board,
    source: Arc<dyn Values + Send + Sync>,
    /// The source holds the transposed board: states are turned first.
    transposed: bool,
    description: String,
}

impl Library {
    /// The built-in tables (unless `without_built_in`) and the tables found
    /// in `folder`. What it refuses is logged as an error and skipped
    /// (`scan` returns it instead).
    pub fn new(folder: Option<&Path>, without_built_in: bool) -> Library {
        let (library, faults) = Library::scan(folder, without_built_in);
        for fault in faults {
            log::error!("{fault}");
        }
        library
    }

    /// `new`, returning what it refused instead of logging it: built-in
    /// tables that fail their header checks, a folder that cannot be read,
    /// and files of the folder that are not tables of the board their name
    /// gives. The library holds every other source.
    pub fn scan(folder: Option<&Path>, without_built_in: bool) -> (Library, Vec<LibraryFault>) {
        let mut faults = Vec::new();
        let mut built_in = BTreeMap::new();
        if !without_built_in {
            for (name, bytes) in built_in::tables() {
                match Tablebase::peek_built_in(name, bytes) {
                    Ok(board) => {
                        built_in.insert(board, bytes);
                    }
                    Err(error) => faults.push(LibraryFault::BuiltIn(error)),
                }
            }
        }
        let mut files: BTreeMap<Board, Vec<PathBuf>> = BTreeMap::new();
        if let Some(folder) = folder {
            match std::fs::read_dir(folder) {
                Err(error) => faults.push(LibraryFault::Folder {
                    folder: folder.to_path_buf(),
                    error,
                }),
                Ok(entries) => {
                    let mut paths: Vec<PathBuf> = entries
                        .filter_map(Result::ok)
                        .map(|e| e.path())
                        .filter(|p| p.extension().is_some_and(|e| e == format::EXTENSION))
                        .collect();
                    paths.sort();
                    for path in paths {
                        match Self::candidate(&path) {
                            Ok(board) => files.entry(board).or_default().push(path),
                            Err(error) => faults.push(LibraryFault::File(error)),
                        }
                    }
                }
            }
        }
        // The standard name first, then the others in name order.
        for (board, paths) in files.iter_mut() {
            let standard = file_name(board);
            paths.sort_by_key(|p| p.file_name().is_none_or(|n| *n != *standard));
        }
        (Library { files, built_in }, faults)
    }

    /// The board a file in the tables folder is a candidate for: the board
    /// its name gives, which its header must hold.
    fn candidate(path: &Path) -> Result<Board, TableError> {
        let Some(named) = board_of_name(path) else {
            return Err(TableError::io(
                path,
                std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!(
                        "its name does not start with a board (RxC.{})",
                        format::EXTENSION
                    ),
                ),
            ));
        };
        let board = Tablebase::peek_board(path)?;
        check_name(path, board)?;
        Ok(named)
    }

    /// The boards with a table, from files or built in.
    pub fn boards(&self) -> Vec<Board> {
        let mut boards: Vec<Board> = self
            .files
            .keys()
            .chain(self.built_in.keys())
            .copied()
            .collect();
        boards.sort();
        boards.dedup();
        boards
    }

    fn open_table(&self, board: Board) -> Option<Tablebase> {
        let candidates = self.files.get(&board).map_or(&[][..], Vec::as_slice);
        for (tried, path) in candidates.iter().enumerate() {
            match Tablebase::open_for(path, board) {
                Ok(table) => {
                    log::info!("{board}: serving from {}", path.display());
                    for other in &candidates[tried + 1..] {
                        log::info!("{board}: also found, not tried: {}", other.display());
                    }
                    return Some(table);
                }
                Err(error) => log::error!("refusing {error}"),
            }
        }
        let bytes = self.built_in.get(&board)?;
        match Tablebase::from_static(&board.name(), bytes) {
            Ok(table) => {
                if !candidates.is_empty() {
                    log::info!("{board}: serving from the built-in table");
                }
                Some(table)
            }
            Err(error) => {
                log::error!("refusing {error}");
                None
            }
        }
    }

    /// The table of `board` itself (a file of the folder, else built in),
    /// as `open` would serve it; no turned table, no solve.
    pub fn table(&self, board: Board) -> Option<Tablebase> {
        self.open_table(board)
    }

    /// The values of `board`, if any source has them.
    pub fn open(&self, board: Board) -> Option<Oracle> {
        if let Some(table) = self.open_table(board) {
            let description = format!("{}", table.origin());
            return Some(Oracle::new(board, Arc::new(table), false, description));
        }
        if board.is_circular() && !board.wraps() {
            let plain = board.plain();
            let oracle = self.open(plain)?;
            let description = format!(
                "{}, as board {plain} (the same neighbours)",
                oracle.description
            );
            return Some(Oracle {
                board,
                description,
                ..oracle
            });
        }
        if let Some(turned) = board.turned() {
            if let Some(table) = self.open_table(turned) {
                let description = format!("{}, turned", table.origin());
                return Some(Oracle::new(board, Arc::new(table), true, description));
            }
        }
        #[cfg(not(feature = "solver"))]
        log::error!(
            "no table for {board}, and this smallgo cannot solve it on the spot: \
             it is built without the solver (feature `solver`)"
        );
        #[cfg(feature = "solver")]
        if crate::plan::within_index_limit(&board)
            && estimate(&board).states <= SOLVE_ON_THE_SPOT_STATES
        {
            log::info!("no table for {board}: solving it now");
            let started = std::time::Instant::now();
            let solution: Solution = solve(board, &Silent).ok()?;
            log::info!("solved {board} in {:.2} s", started.elapsed().as_secs_f64());
            return Some(Oracle::new(
                board,
                Arc::new(solution),
                false,
                "solved on the spot".to_string(),
            ));
        }
        None
    }
}

impl Oracle {
    fn new(
        board: Board,
        source: Arc<dyn Values + Send + Sync>,
        transposed: bool,
        description: String,
    ) -> Oracle {
        Oracle {
            board,
            source,
            transposed,
            description,
        }
    }

    /// Where the values come from, for logs.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// A state of this board as the source's (transposed) board sees it.
    fn turn(&self, state: &State) -> State {
        let board = self.board;
        let turn_point = |point: Point| {
            let (row, column) = (board.row(point), board.column(point));
            Point::new(column * board.rows() + row)
        };
        let turn_set = |set: PointSet| {
            set.iter().fold(PointSet::EMPTY, |acc, p| {
                acc | PointSet::single(turn_point(p))
            })
        };
        let position = state.position();
        State::from_parts(
            Position::new(turn_set(position.us()), turn_set(position.them())),
            state.ko().map(turn_point),
            state.passed(),
        )
    }
}

impl Values for Oracle {
    fn board(&self) -> Board {
        self.board
    }

    fn value_of(&self, state: &State) -> Result<Value, TableError> {
        if self.transposed {
            self.source.value_of(&self.turn(state))
        } else {
            self.source.value_of(state)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder with a sound table, a table under another board's name and
    /// a file that is no table: the scan keeps the first and returns the
    /// other two as faults; a missing folder is a fault of its own.
    #[test]
    fn the_scan_returns_what_it_refuses() {
        let folder =
            std::env::temp_dir().join(format!("smallgo-library-scan-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let bytes = built_in::tables()
            .find(|(name, _)| *name == "2x3")
            .unwrap()
            .1;
        std::fs::write(folder.join("2x3.sgtb"), bytes).unwrap();
        std::fs::write(folder.join("2x4.sgtb"), bytes).unwrap();
        std::fs::write(folder.join("3x3.sgtb"), b"not a table").unwrap();
        let (library, faults) = Library::scan(Some(&folder), true);
        assert_eq!(library.boards(), vec!["2x3".parse::<Board>().unwrap()]);
        assert_eq!(faults.len(), 2, "{faults:?}");
        assert!(faults
            .iter()
            .all(|f| matches!(f, LibraryFault::File(_)) && f.to_string().starts_with("skipping ")));
        std::fs::remove_dir_all(&folder).unwrap();

        let (library, faults) = Library::scan(Some(&folder), true);
        assert!(library.boards().is_empty());
        assert!(
            matches!(&faults[..], [LibraryFault::Folder { .. }]),
            "{faults:?}"
        );
        assert!(faults[0].to_string().starts_with("--tables "));
    }

    /// Without the solver a board with no table has no values: `open` gives
    /// `None` (and logs why) rather than solving it.
    #[cfg(not(feature = "solver"))]
    #[test]
    fn without_the_solver_a_board_with_no_table_has_no_values() {
        let board: Board = "2x2".parse().unwrap();
        assert!(Library::new(None, true).open(board).is_none());
        assert!(Library::new(None, false).open(board).is_some());
    }
}
