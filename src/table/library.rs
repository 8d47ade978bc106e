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

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::board::{Board, Point, PointSet};
use crate::moves::Move;
#[cfg(feature = "solver")]
use crate::plan::estimate;
use crate::position::Position;
#[cfg(feature = "solver")]
use crate::solver::{solve, Silent, Solution};
use crate::state::State;
use crate::table::values::Values;
use crate::table::{board_of_name, built_in, check_name, file_name, format, Table, TableError};
use crate::value::{Outcome, Value};

/// Boards with about this many states or fewer are solved on the spot when
/// no table has them: about a second on this machine.
#[cfg(feature = "solver")]
pub const SOLVE_ON_THE_SPOT_STATES: f64 = 1.5e6;

/// The sources of values the engine knows of.
pub struct Tablebase {
    /// The candidate files of each board, in the order they are tried.
    files: BTreeMap<Board, Vec<PathBuf>>,
    built_in: BTreeMap<Board, &'static [u8]>,
}

/// A source `Tablebase::scan` refused, and why.
#[derive(Debug)]
pub enum SourceError {
    /// A built-in table whose header is not sound.
    BuiltIn(TableError),
    /// The tables folder cannot be read.
    Folder {
        /// The folder.
        folder: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// A file of the folder that is not a table of the board its name
    /// gives.
    File(TableError),
}

impl std::fmt::Display for SourceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SourceError::BuiltIn(error) => write!(f, "{error}"),
            SourceError::Folder { folder, error } => {
                write!(f, "--tables {}: {error}", folder.display())
            }
            SourceError::File(error) => write!(f, "skipping {error}"),
        }
    }
}

impl std::error::Error for SourceError {}

/// Values for one board, however they are obtained.
#[derive(Clone)]
pub struct BoardValues {
    board: Board,
    source: Arc<dyn Values + Send + Sync>,
    /// The source holds the transposed board: states are turned first.
    transposed: bool,
    description: String,
}

impl Default for Tablebase {
    fn default() -> Tablebase {
        Tablebase::new()
    }
}

impl Tablebase {
    /// The tables built into smallgo: every board of at most 16 points.
    /// Add folders of your own with `add_directory`.
    pub fn new() -> Tablebase {
        Tablebase::with_sources(None, false)
    }

    /// Adds the tables in `folder` (files named `RxC.sgtb`, from `smallgo
    /// build`), preferred to the built-in ones. Returns the files it
    /// refused, each with why (not a table, or a table of another board
    /// than its name gives); an error if the folder cannot be read.
    ///
    /// A table is opened when its board's values are first asked for: a
    /// file under 64 MiB is then read into memory, a larger one mapped.
    /// While a mapped table is open, no other program may truncate it or
    /// rewrite it in place: the process would stop with a bus error
    /// (SIGBUS) at its next probe of the table. Replace a table by renaming
    /// a new file over it, as `smallgo build` does; the open table keeps
    /// the old file.
    pub fn add_directory(&mut self, folder: &Path) -> Result<Vec<SourceError>, SourceError> {
        let mut faults = Vec::new();
        self.scan_folder(folder, &mut faults);
        match faults
            .iter()
            .position(|f| matches!(f, SourceError::Folder { .. }))
        {
            Some(at) => Err(faults.swap_remove(at)),
            None => Ok(faults),
        }
    }

    /// The built-in tables (unless `without_built_in`) and the tables found
    /// in `folder`. What it refuses is logged as an error and skipped
    /// (`scan` returns it instead).
    pub(crate) fn with_sources(folder: Option<&Path>, without_built_in: bool) -> Tablebase {
        let (library, faults) = Tablebase::scan(folder, without_built_in);
        for fault in faults {
            log::error!("{fault}");
        }
        library
    }

    /// `new`, returning what it refused instead of logging it: built-in
    /// tables that fail their header checks, a folder that cannot be read,
    /// and files of the folder that are not tables of the board their name
    /// gives. The library holds every other source.
    pub(crate) fn scan(
        folder: Option<&Path>,
        without_built_in: bool,
    ) -> (Tablebase, Vec<SourceError>) {
        let mut faults = Vec::new();
        let mut built_in = BTreeMap::new();
        if !without_built_in {
            for (name, bytes) in built_in::tables() {
                match Table::peek_built_in(name, bytes) {
                    Ok(board) => {
                        built_in.insert(board, bytes);
                    }
                    Err(error) => faults.push(SourceError::BuiltIn(error)),
                }
            }
        }
        let mut tablebase = Tablebase {
            files: BTreeMap::new(),
            built_in,
        };
        if let Some(folder) = folder {
            tablebase.scan_folder(folder, &mut faults);
        }
        (tablebase, faults)
    }

    /// Files the tables of `folder` under their boards, adding what it
    /// refuses to `faults`.
    fn scan_folder(&mut self, folder: &Path, faults: &mut Vec<SourceError>) {
        match std::fs::read_dir(folder) {
            Err(error) => faults.push(SourceError::Folder {
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
                        Ok(board) => self.files.entry(board).or_default().push(path),
                        Err(error) => faults.push(SourceError::File(error)),
                    }
                }
            }
        }
        // The standard name first, then the others in name order.
        for (board, paths) in self.files.iter_mut() {
            let standard = file_name(board);
            paths.sort_by_key(|p| p.file_name().is_none_or(|n| *n != *standard));
        }
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
        let board = Table::peek_board(path)?;
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

    /// The table of `board` itself, if one is sound; the files and built-in
    /// table it refuses are logged and added to `refused`.
    fn open_table(&self, board: Board, refused: &mut Vec<TableError>) -> Option<Table> {
        let candidates = self.files.get(&board).map_or(&[][..], Vec::as_slice);
        for (tried, path) in candidates.iter().enumerate() {
            match Table::open_for(path, board) {
                Ok(table) => {
                    log::info!("{board}: serving from {}", path.display());
                    for other in &candidates[tried + 1..] {
                        log::info!("{board}: also found, not tried: {}", other.display());
                    }
                    return Some(table);
                }
                Err(error) => {
                    log::error!("refusing {error}");
                    refused.push(error);
                }
            }
        }
        let bytes = self.built_in.get(&board)?;
        match Table::from_static(&board.name(), bytes) {
            Ok(table) => {
                if !candidates.is_empty() {
                    log::info!("{board}: serving from the built-in table");
                }
                Some(table)
            }
            Err(error) => {
                log::error!("refusing {error}");
                refused.push(error);
                None
            }
        }
    }

    /// The table of `board` itself (a file of the folder, else built in),
    /// as `open` would serve it; no turned table, no solve.
    #[cfg_attr(not(feature = "solver"), allow(dead_code))]
    pub(crate) fn table(&self, board: Board) -> Option<Table> {
        self.open_table(board, &mut Vec::new())
    }

    /// The values of `board`, if any source has them; what was refused on
    /// the way is logged.
    #[cfg_attr(not(feature = "solver"), allow(dead_code))]
    pub(crate) fn open(&self, board: Board) -> Option<BoardValues> {
        self.values(board).ok()
    }

    /// The values of `board`: its table (a file of an added folder first,
    /// else built in), else the table of the board turned (a 7x2 board is a
    /// 2x7 board turned), else, for a board of about a million states or
    /// fewer and with the feature `solver`, a solve done now. The error
    /// says which tables were refused on the way.
    pub fn values(&self, board: Board) -> Result<BoardValues, NoValues> {
        let mut refused = Vec::new();
        let found = self.find_values(board, &mut refused);
        found.ok_or(NoValues { board, refused })
    }

    fn find_values(&self, board: Board, refused: &mut Vec<TableError>) -> Option<BoardValues> {
        if let Some(table) = self.open_table(board, refused) {
            let description = format!("{}", table.origin());
            return Some(BoardValues::new(board, Arc::new(table), false, description));
        }
        if board.is_circular() && !board.wraps() {
            let plain = board.plain();
            let oracle = self.find_values(plain, refused)?;
            let description = format!(
                "{}, as board {plain} (the same neighbours)",
                oracle.description
            );
            return Some(BoardValues {
                board,
                description,
                ..oracle
            });
        }
        if let Some(turned) = board.turned() {
            if let Some(table) = self.open_table(turned, refused) {
                let description = format!("{}, turned", table.origin());
                return Some(BoardValues::new(board, Arc::new(table), true, description));
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
            return Some(BoardValues::new(
                board,
                Arc::new(solution),
                false,
                "solved on the spot".to_string(),
            ));
        }
        None
    }
}

/// No source has the values of a board.
#[derive(Debug)]
pub struct NoValues {
    /// The board asked for.
    pub board: Board,
    /// The tables refused on the way, each with why.
    pub refused: Vec<TableError>,
}

impl std::fmt::Display for NoValues {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no table of board {}", self.board)?;
        for error in &self.refused {
            write!(f, "; refused {error}")?;
        }
        Ok(())
    }
}

impl std::error::Error for NoValues {}

impl BoardValues {
    fn new(
        board: Board,
        source: Arc<dyn Values + Send + Sync>,
        transposed: bool,
        description: String,
    ) -> BoardValues {
        BoardValues {
            board,
            source,
            transposed,
            description,
        }
    }

    /// Where the values come from: a file's path, `built in`, `turned`, or
    /// `solved on the spot`.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The board these values are of.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The exact outcome of `state` for the side to move with perfect play
    /// on both sides, at komi `komi` (given to White), the mover Black if
    /// `mover_is_black`.
    pub fn outcome(
        &self,
        state: &State,
        komi: f64,
        mover_is_black: bool,
    ) -> Result<Outcome, TableError> {
        crate::analysis::outcome(self, state, komi, mover_is_black)
    }

    /// The legal moves of `state` that keep the best result and margin
    /// (plies aside), in point order, then pass.
    pub fn best_moves(
        &self,
        state: &State,
        komi: f64,
        mover_is_black: bool,
    ) -> Result<Vec<Move>, TableError> {
        crate::analysis::best_moves(self, state, komi, mover_is_black)
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

impl Values for BoardValues {
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
        let (library, faults) = Tablebase::scan(Some(&folder), true);
        assert_eq!(library.boards(), vec!["2x3".parse::<Board>().unwrap()]);
        assert_eq!(faults.len(), 2, "{faults:?}");
        assert!(faults
            .iter()
            .all(|f| matches!(f, SourceError::File(_)) && f.to_string().starts_with("skipping ")));
        std::fs::remove_dir_all(&folder).unwrap();

        let (library, faults) = Tablebase::scan(Some(&folder), true);
        assert!(library.boards().is_empty());
        assert!(
            matches!(&faults[..], [SourceError::Folder { .. }]),
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
        assert!(Tablebase::with_sources(None, true).open(board).is_none());
        assert!(Tablebase::with_sources(None, false).open(board).is_some());
    }
}
