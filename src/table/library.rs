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
//! The sources of a board are tried in order (its files, its built-in
//! table, the turned board's, a solve), and the values a board is given
//! (`BoardValues`) keep the ones not yet used: a table found damaged while
//! it serves (a block that does not decode) is dropped, with an error line
//! naming it and the fault, and the next source that opens serves instead,
//! the probe answered from it.
//! Several files may hold one board (`4x4.sgtb`, `4x4.v2.sgtb`): each is
//! tried in turn, `RxC.sgtb` first, until one is sound, and the log says
//! which serves and why the others were refused. A file is filed under the
//! board its name gives, and refused at once if its header names another;
//! anything but a regular file is refused without being read.
//!
//! The folder's win/draw/loss tables (`RxC.wdl`, `RxC.` and any suffix
//! `.wdl`: `table::wdl`) are kept apart, by board: they serve one komi
//! and no analysis, and the engine plays from them when the game's komi is
//! theirs (`wdl_tables`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use crate::rules::board::{Board, Point, PointSet};
use crate::rules::colour::Colour;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::state::{Child, MoveError, State, StateError};
use crate::rules::value::{Outcome, Value};
#[cfg(feature = "solver")]
use crate::solver::plan::estimate;
#[cfg(feature = "solver")]
use crate::solver::{solve, Silent, Solution};
use crate::table::values::rating::{preference_order, rate_moves};
use crate::table::values::Values;
use crate::table::wdl::{self, WdlTable};
use crate::table::{
    board_of_name, built_in, check_name, error_chain, file_name, format, Table, TableError,
};

/// Boards with about this many states or fewer are solved on the spot when
/// no table has them: about a second on this machine.
#[cfg(feature = "solver")]
pub const SOLVE_ON_THE_SPOT_STATES: f64 = 1.5e6;

/// The sources of values the engine knows of.
pub struct Tablebase {
    /// The candidate files of each board, in the order they are tried.
    files: BTreeMap<Board, Vec<PathBuf>>,
    built_in: BTreeMap<Board, &'static [u8]>,
    /// The win/draw/loss tables of each board (`RxC.wdl`, `RxC.*.wdl`),
    /// in name order: one komi each.
    wdl_files: BTreeMap<Board, Vec<PathBuf>>,
}

/// A source `Tablebase::scan` refused, and why. The message says what was
/// refused, the source why: print the chain (`e`, `e.source()`, ...) to
/// tell both.
#[derive(Debug)]
#[non_exhaustive]
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
            SourceError::BuiltIn(_) => write!(f, "a built-in table is not sound"),
            SourceError::Folder { folder, .. } => write!(f, "--tables {}", folder.display()),
            SourceError::File(_) => write!(f, "skipping a file of the tables folder"),
        }
    }
}

impl std::error::Error for SourceError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SourceError::BuiltIn(error) | SourceError::File(error) => Some(error),
            SourceError::Folder { error, .. } => Some(error),
        }
    }
}

/// Values for one board, however they are obtained.
#[derive(Clone)]
pub struct BoardValues {
    board: Board,
    served: Arc<Served>,
}

/// A board's sources in the order they are tried, and the one serving.
struct Served {
    sources: Vec<Source>,
    current: RwLock<Current>,
}

/// The source serving a board's values.
#[derive(Clone)]
struct Current {
    /// Its place in `Served::sources`.
    at: usize,
    values: Arc<dyn Values + Send + Sync>,
}

/// One source of a board's values.
#[derive(Clone)]
struct Source {
    kind: SourceKind,
    /// The source holds the transposed board: states are turned first.
    transposed: bool,
    /// The board of one or two columns whose plain board's source this is.
    as_plain: Option<Board>,
}

#[derive(Clone)]
enum SourceKind {
    /// A file of the tables folder, holding `board`.
    File { path: PathBuf, board: Board },
    /// A table built in, holding `board`.
    BuiltIn { board: Board, bytes: &'static [u8] },
    /// A solve of `board` done now.
    #[cfg(feature = "solver")]
    Solve { board: Board },
}

/// Why a source did not open.
enum NotOpened {
    /// A table refused, and why.
    Refused(TableError),
    /// A solve that failed, and why.
    #[cfg_attr(not(feature = "solver"), allow(dead_code))]
    Unsolved(String),
}

impl Source {
    fn table(kind: SourceKind, transposed: bool) -> Source {
        Source {
            kind,
            transposed,
            as_plain: None,
        }
    }

    /// Where the values come from, as `BoardValues::description` says it.
    fn description(&self) -> String {
        let mut text = match &self.kind {
            SourceKind::File { path, .. } => path.display().to_string(),
            SourceKind::BuiltIn { board, .. } => super::Origin::BuiltIn(board.name()).to_string(),
            #[cfg(feature = "solver")]
            SourceKind::Solve { .. } => "solved on the spot".to_string(),
        };
        if self.transposed {
            text.push_str(", turned");
        }
        if let Some(plain) = self.as_plain {
            text.push_str(&format!(", as board {plain} (the same neighbours)"));
        }
        text
    }

    /// Opens the source, logging a solve.
    fn open(&self) -> Result<Arc<dyn Values + Send + Sync>, NotOpened> {
        match &self.kind {
            SourceKind::File { path, board } => Table::open_for(path, *board)
                .map(|table| Arc::new(table) as Arc<dyn Values + Send + Sync>)
                .map_err(NotOpened::Refused),
            SourceKind::BuiltIn { board, bytes } => Table::from_static(&board.name(), bytes)
                .map(|table| Arc::new(table) as Arc<dyn Values + Send + Sync>)
                .map_err(NotOpened::Refused),
            #[cfg(feature = "solver")]
            SourceKind::Solve { board } => {
                log::info!("no table for {board}: solving it now");
                let started = std::time::Instant::now();
                let solution: Solution = solve(*board, &Silent)
                    .map_err(|error| NotOpened::Unsolved(format!("the solve failed: {error}")))?;
                log::info!("solved {board} in {:.2} s", started.elapsed().as_secs_f64());
                Ok(Arc::new(solution))
            }
        }
    }
}

impl std::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebase")
            .field("files", &self.files)
            .field("built_in", &self.built_in.keys().collect::<Vec<_>>())
            .field("wdl_files", &self.wdl_files)
            .finish()
    }
}

impl std::fmt::Debug for BoardValues {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BoardValues")
            .field("board", &self.board)
            .field("source", &self.description())
            .finish()
    }
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
            log::error!("{}", error_chain(&fault));
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
            wdl_files: BTreeMap::new(),
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
                let mut paths: Vec<PathBuf> =
                    entries.filter_map(Result::ok).map(|e| e.path()).collect();
                paths.sort();
                for path in &paths {
                    if path.extension().is_some_and(|e| e == wdl::EXTENSION) {
                        match board_of_name(path) {
                            Some(board) => {
                                self.wdl_files.entry(board).or_default().push(path.clone())
                            }
                            None => faults.push(SourceError::File(TableError::io(
                                path,
                                std::io::Error::new(
                                    std::io::ErrorKind::InvalidInput,
                                    format!(
                                        "its name does not start with a board (RxC.{})",
                                        wdl::EXTENSION
                                    ),
                                ),
                            ))),
                        }
                    }
                }
                paths.retain(|p| p.extension().is_some_and(|e| e == format::EXTENSION));
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
            // A shape's name is a hash of its diagram (`shape-HASH.sgtb`),
            // which only its header can turn back into the shape.
            if let Some(stem) = shape_stem(path) {
                let board = Table::peek_board(path)?;
                if board.file_stem() == stem {
                    return Ok(board);
                }
                return Err(TableError::Corrupt {
                    origin: crate::table::Origin::File(path.to_path_buf()),
                    fault: format::Fault::Inconsistent(format!(
                        "its header holds board {board}, whose tables are named {}.{}",
                        board.file_stem(),
                        format::EXTENSION
                    )),
                });
            }
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

    /// The win/draw/loss tables of `board` in the folder that are sound,
    /// one komi each (the first file of a komi serves it); the files
    /// refused are logged with why.
    #[cfg_attr(not(feature = "solver"), allow(dead_code))]
    pub(crate) fn wdl_tables(&self, board: Board) -> Vec<Arc<WdlTable>> {
        let mut tables: Vec<Arc<WdlTable>> = Vec::new();
        for path in self.wdl_files.get(&board).into_iter().flatten() {
            match WdlTable::open_for(path, board) {
                Ok(table) if tables.iter().any(|t| t.komi2() == table.komi2()) => {
                    log::info!(
                        "{board}: also found, not used: {} (the same komi)",
                        table.description()
                    );
                }
                Ok(table) => {
                    log::info!(
                        "{board}: genmove at its komi plays from the {}",
                        table.description()
                    );
                    tables.push(Arc::new(table));
                }
                Err(error) => log::error!("refusing {error}"),
            }
        }
        tables
    }

    /// Whether the folder has a win/draw/loss table file of `board`.
    #[cfg_attr(not(feature = "solver"), allow(dead_code))]
    pub(crate) fn has_wdl(&self, board: Board) -> bool {
        self.wdl_files.contains_key(&board)
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
    /// fewer and with the feature `solver`, a solve done now. The sources
    /// after the one that serves stay behind it: a table found damaged
    /// while it serves is dropped, with an error in the log, and the next
    /// that opens serves. The error says which tables were refused on the
    /// way, and why the board was not solved on the spot.
    pub fn values(&self, board: Board) -> Result<BoardValues, NoValues> {
        let (sources, mut not_solved) = self.sources(board);
        let mut refused = Vec::new();
        match open_from(board, &sources, 0, &mut refused, &mut not_solved) {
            Some(current) => Ok(BoardValues {
                board,
                served: Arc::new(Served {
                    sources,
                    current: RwLock::new(current),
                }),
            }),
            None => Err(NoValues {
                board,
                refused,
                not_solved,
            }),
        }
    }

    /// The sources of `board` in the order they are tried, and, when a
    /// solve is not among them, why not.
    fn sources(&self, board: Board) -> (Vec<Source>, Option<String>) {
        let mut sources = self.own_sources(board, false);
        if board.is_circular() && !board.wraps() {
            let plain = board.plain();
            let (more, not_solved) = self.sources(plain);
            sources.extend(more.into_iter().map(|source| Source {
                as_plain: Some(plain),
                ..source
            }));
            return (sources, not_solved);
        }
        if let Some(turned) = board.turned() {
            sources.extend(self.own_sources(turned, true));
        }
        let not_solved = Self::solve_source(board, &mut sources);
        (sources, not_solved)
    }

    /// The tables of `board` itself: its files, then its built-in table.
    fn own_sources(&self, board: Board, transposed: bool) -> Vec<Source> {
        let files = self.files.get(&board).into_iter().flatten();
        let mut sources: Vec<Source> = files
            .map(|path| {
                let path = path.clone();
                Source::table(SourceKind::File { path, board }, transposed)
            })
            .collect();
        if let Some(&bytes) = self.built_in.get(&board) {
            sources.push(Source::table(
                SourceKind::BuiltIn { board, bytes },
                transposed,
            ));
        }
        sources
    }

    /// Adds a solve of `board` to `sources` if it is small enough; else
    /// says why not.
    #[cfg(feature = "solver")]
    fn solve_source(board: Board, sources: &mut Vec<Source>) -> Option<String> {
        if !crate::solver::plan::within_index_limit(&board) {
            return Some(format!(
                "its {} points are more than the index takes ({})",
                board.points(),
                crate::index::MAX_INDEX_POINTS
            ));
        }
        let states = estimate(&board).states;
        if states > SOLVE_ON_THE_SPOT_STATES {
            return Some(format!(
                "it has about {states:.1e} states, more than the {SOLVE_ON_THE_SPOT_STATES:.1e} \
                 solved on the spot"
            ));
        }
        sources.push(Source::table(SourceKind::Solve { board }, false));
        None
    }

    /// Without the solver no board is solved on the spot.
    #[cfg(not(feature = "solver"))]
    fn solve_source(board: Board, _: &mut Vec<Source>) -> Option<String> {
        let why = "this smallgo is built without the solver (feature `solver`)".to_string();
        log::error!("no table for {board}, and it cannot be solved on the spot: {why}");
        Some(why)
    }
}

/// Opens the first of `sources[from..]` that opens, logging which serves
/// and why the others were refused (added to `refused`, or for a solve
/// that failed, to `not_solved`).
fn open_from(
    board: Board,
    sources: &[Source],
    from: usize,
    refused: &mut Vec<TableError>,
    not_solved: &mut Option<String>,
) -> Option<Current> {
    for (at, source) in sources.iter().enumerate().skip(from) {
        match source.open() {
            Ok(values) => {
                if at > 0 || matches!(source.kind, SourceKind::File { .. }) {
                    log::info!("{board}: serving from {}", source.description());
                }
                for other in &sources[at + 1..] {
                    if let SourceKind::File { path, .. } = &other.kind {
                        log::info!("{board}: also found, not tried: {}", path.display());
                    }
                }
                return Some(Current { at, values });
            }
            Err(NotOpened::Refused(error)) => {
                log::error!("refusing {error}");
                refused.push(error);
            }
            Err(NotOpened::Unsolved(why)) => {
                log::error!("{board}: {why}");
                *not_solved = Some(why);
            }
        }
    }
    None
}

/// No source has the values of a board. Its message says it all: the
/// board, each table refused with why, and why the board was not solved;
/// it has no source (the tables refused are in `refused`).
#[derive(Debug)]
#[non_exhaustive]
pub struct NoValues {
    /// The board asked for.
    pub board: Board,
    /// The tables refused on the way, each with why.
    pub refused: Vec<TableError>,
    /// Why the board was not solved on the spot: too large, or built
    /// without the solver, or the solve failed.
    pub not_solved: Option<String>,
}

impl std::fmt::Display for NoValues {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no table of board {}", self.board)?;
        for error in &self.refused {
            write!(f, "; refused {error}")?;
        }
        if let Some(why) = &self.not_solved {
            write!(f, "; not solved on the spot: {why}")?;
        }
        Ok(())
    }
}

impl std::error::Error for NoValues {}

/// A legal state together with the board it is on: what [`BoardValues`]
/// probes, so that a state of one board is never read from another
/// board's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardState {
    board: Board,
    state: State,
}

impl BoardState {
    /// Checks a setup on `board` (as [`State::new`] does) and keeps the
    /// board with it.
    pub fn new(
        board: Board,
        position: Position,
        ko: Option<Point>,
        passed: bool,
    ) -> Result<BoardState, StateError> {
        let state = State::new(&board, position, ko, passed)?;
        Ok(BoardState { board, state })
    }

    /// The empty `board` with Black to move.
    pub fn start(board: Board) -> BoardState {
        BoardState {
            board,
            state: State::start(),
        }
    }

    /// The board the state is on.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The state, without its board.
    pub fn state(&self) -> State {
        self.state
    }

    /// The legal moves: the points where a stone may be placed (empty, not
    /// the ko point, not suicide) in point order, then pass.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.state.legal_moves(&self.board)
    }

    /// What `mv` leads to: the next state, from the view of the other
    /// side, or the end of the game after a second pass in a row. An
    /// illegal move is refused with why; `self` is never changed.
    ///
    /// ```
    /// use smallgo::{Board, BoardState, Move, MoveError, Next};
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let board: Board = "2x2".parse()?;
    /// let a1 = Move::Place(board.parse_point("A1").ok_or("no A1")?);
    /// // Black plays A1; White may not play there too.
    /// let Next::State(white) = BoardState::start(board).play(a1)? else {
    ///     unreachable!("one move does not end the game")
    /// };
    /// assert_eq!(white.play(a1), Err(MoveError::Occupied));
    /// // White passes, then Black: Black, who passed last, holds the
    /// // board's four points, White none.
    /// let Next::State(black) = white.play(Move::Pass)? else {
    ///     unreachable!("one pass does not end the game")
    /// };
    /// assert_eq!(black.play(Move::Pass)?, Next::End { margin: 4 });
    /// # Ok(())
    /// # }
    /// ```
    pub fn play(&self, mv: Move) -> Result<Next, MoveError> {
        Ok(self.next(self.state.try_play(&self.board, mv)?))
    }

    /// Every legal move with what it leads to, in the order of
    /// [`legal_moves`](BoardState::legal_moves).
    pub fn children(&self) -> Vec<(Move, Next)> {
        self.legal_moves()
            .into_iter()
            .filter_map(|mv| Some((mv, self.next(self.state.play(&self.board, mv)?))))
            .collect()
    }

    /// A child of the rules' as the API gives it: on this board.
    fn next(&self, child: Child) -> Next {
        match child {
            Child::State(state) => Next::State(BoardState {
                board: self.board,
                state,
            }),
            Child::End { margin } => Next::End { margin },
        }
    }
}

/// What a legal move of a [`BoardState`] leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// The game goes on: the next state, from the view of the new side to
    /// move (the stones of the player who moved are its
    /// [`other_stones`](Position::other_stones)).
    State(BoardState),
    /// A second pass in a row ended the game.
    End {
        /// The area margin (stones and the empty regions each side alone
        /// surrounds, komi not counted) of the player who passed last:
        /// the side to move in the state played from.
        margin: i32,
    },
}

/// Why a probe of [`BoardValues`] gave no answer.
#[derive(Debug)]
#[non_exhaustive]
pub enum ProbeError {
    /// The state is on another board than the values.
    WrongBoard {
        /// The board of the values, by name (`"4x4"`: [`Board`]'s
        /// `Display`, which its `FromStr` reads back).
        expected: String,
        /// The board of the state, by name.
        found: String,
    },
    /// No source of the values could answer: the last one's error is the
    /// source.
    Table(TableError),
}

impl std::fmt::Display for ProbeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProbeError::WrongBoard { expected, found } => {
                write!(
                    f,
                    "a state of board {found} asked of board {expected}'s values"
                )
            }
            ProbeError::Table(_) => write!(f, "no source of the values could answer"),
        }
    }
}

impl std::error::Error for ProbeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ProbeError::WrongBoard { .. } => None,
            ProbeError::Table(error) => Some(error),
        }
    }
}

impl From<TableError> for ProbeError {
    fn from(error: TableError) -> ProbeError {
        ProbeError::Table(error)
    }
}

impl BoardValues {
    /// Where the values come from now: a file's path, `built in`,
    /// `turned`, or `solved on the spot`. It changes when a table found
    /// damaged while serving gives way to the next source.
    pub fn description(&self) -> String {
        let at = self.current().at;
        self.served.sources[at].description()
    }

    /// The source serving now.
    fn current(&self) -> Current {
        self.served
            .current
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Drops the source at `at`, which failed with `error`, for the next
    /// that opens, unless another probe already did; false if none is
    /// left.
    fn fall_back(&self, at: usize, error: &TableError) -> bool {
        let mut current = self
            .served
            .current
            .write()
            .unwrap_or_else(|e| e.into_inner());
        if current.at != at {
            return true;
        }
        let board = self.board;
        let sources = &self.served.sources;
        log::error!(
            "{board}: dropping {}, found damaged while serving: {error}",
            sources[at].description()
        );
        match open_from(board, sources, at + 1, &mut Vec::new(), &mut None) {
            Some(next) => {
                *current = next;
                true
            }
            None => {
                log::error!("{board}: no other source of values is left");
                false
            }
        }
    }

    /// The board these values are of.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The exact outcome of `state` for the side to move, `mover`, with
    /// perfect play on both sides, at komi `komi` (given to White);
    /// [`ProbeError::WrongBoard`] if `state` is on another board.
    pub fn outcome(
        &self,
        state: &BoardState,
        komi: f64,
        mover: Colour,
    ) -> Result<Outcome, ProbeError> {
        let state = self.check_board(state)?;
        Ok(crate::table::values::rating::outcome(
            self,
            state,
            komi,
            mover.is_black(),
        )?)
    }

    /// The legal moves of `state` that keep the best result and margin
    /// (plies aside) for the side to move, `mover`, at komi `komi`, in
    /// point order, then pass; [`ProbeError::WrongBoard`] if `state` is on
    /// another board.
    pub fn best_moves(
        &self,
        state: &BoardState,
        komi: f64,
        mover: Colour,
    ) -> Result<Vec<Move>, ProbeError> {
        let state = self.check_board(state)?;
        Ok(crate::table::values::rating::best_moves(
            self,
            state,
            komi,
            mover.is_black(),
        )?)
    }

    /// Every legal move of `state`, pass included, with its outcome for
    /// the side to move, `mover`, at komi `komi`, most preferred first in
    /// the engine's order (`docs/rules.md`, how the engine picks a move:
    /// wins by more first, then in fewer plies; then draws, a pass first;
    /// then losses by less, then in more plies; ties in point order, pass
    /// last); [`ProbeError::WrongBoard`] if `state` is on another board.
    ///
    /// A move in `drawn` is rated a draw whatever the values say: a game
    /// that keeps its history names the moves that bring back a full state
    /// it has stood in, which ends the game as a draw (`docs/rules.md`,
    /// the game). With `drawn` empty the outcomes are the values', and the
    /// first move is one of [`best_moves`](BoardValues::best_moves).
    ///
    /// ```
    /// use smallgo::{Board, BoardState, Colour, Move, Outcome, Tablebase};
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let board: Board = "3x3".parse()?;
    /// let values = Tablebase::new().values(board)?;
    /// let start = BoardState::start(board);
    /// let rated = values.rated_moves(&start, 0.0, Colour::Black, &[])?;
    /// assert_eq!(rated.len(), 10, "nine points and the pass");
    /// let (first, outcome) = rated[0];
    /// assert!(values.best_moves(&start, 0.0, Colour::Black)?.contains(&first));
    /// // The first move drawn by repetition gives way to another.
    /// let drawn = values.rated_moves(&start, 0.0, Colour::Black, &[first])?;
    /// assert_ne!(drawn[0].0, first);
    /// assert!(drawn.contains(&(first, Outcome::Draw)));
    /// assert!(matches!(outcome, Outcome::MoverWins { .. }));
    /// # Ok(())
    /// # }
    /// ```
    pub fn rated_moves(
        &self,
        state: &BoardState,
        komi: f64,
        mover: Colour,
        drawn: &[Move],
    ) -> Result<Vec<(Move, Outcome)>, ProbeError> {
        let state = self.check_board(state)?;
        let mut ratings = rate_moves(self, state, komi, mover.is_black())?;
        for rating in &mut ratings {
            if drawn.contains(&rating.mv) {
                rating.outcome = Outcome::Draw;
            }
        }
        Ok(preference_order(&ratings)
            .into_iter()
            .map(|i| (ratings[i].mv, ratings[i].outcome))
            .collect())
    }

    /// The state of `state` if it is on this board.
    fn check_board<'a>(&self, state: &'a BoardState) -> Result<&'a State, ProbeError> {
        if state.board != self.board {
            return Err(ProbeError::WrongBoard {
                expected: self.board.to_string(),
                found: state.board.to_string(),
            });
        }
        Ok(&state.state)
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

    /// The value from the source serving; if it turns out damaged, from
    /// the next that opens.
    fn value_of(&self, state: &State) -> Result<Value, TableError> {
        loop {
            let current = self.current();
            let value = if self.served.sources[current.at].transposed {
                current.values.value_of(&self.turn(state))
            } else {
                current.values.value_of(state)
            };
            match value {
                Err(error @ (TableError::Corrupt { .. } | TableError::Io { .. })) => {
                    if !self.fall_back(current.at, &error) {
                        return Err(error);
                    }
                }
                value => return value,
            }
        }
    }
}

/// The stem of a file named as a shape's table (`shape-HASH.sgtb`, or
/// `shape-HASH.v2.sgtb`), if it is one.
fn shape_stem(path: &Path) -> Option<&str> {
    let name = path.file_name()?.to_str()?;
    let (stem, _) = name.split_once('.')?;
    stem.starts_with("shape-").then_some(stem)
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

    /// `rated_moves`, given the moves that repeat a state of a game, rates
    /// and orders every move as the engine does in that game
    /// (`game::perfect::rate` in preference order), along games of random
    /// moves (where repetitions come), at komi that give wins, draws and
    /// losses.
    #[cfg(feature = "cli")]
    #[test]
    fn rated_moves_are_the_engines_order_in_a_game() {
        use crate::game::perfect::rate;
        use crate::game::Game;
        let mut repetitions = 0;
        let mut random = crate::common::random::SplitMix::new(42);
        for (name, komi) in [
            ("2x2", 0.5),
            ("3x3", 0.0),
            ("3x3", 9.0),
            ("2x3", 0.5),
            ("2x3c", -1.0),
            ("1x5", 2.0),
        ] {
            let board: Board = name.parse().unwrap();
            let values = Tablebase::new().values(board).unwrap();
            for _ in 0..5 {
                let mut game = Game::new(board);
                while !game.is_over() && game.moves().count() < 60 {
                    let side = game.to_move();
                    let state = BoardState {
                        board,
                        state: game.state_for(side),
                    };
                    let drawn: Vec<Move> = state
                        .legal_moves()
                        .into_iter()
                        .filter(|&mv| game.after(side, mv).is_ok_and(|next| game.has_stood(&next)))
                        .collect();
                    let undrawn = values.rated_moves(&state, komi, side, &[]).unwrap();
                    repetitions += undrawn
                        .iter()
                        .filter(|(mv, outcome)| drawn.contains(mv) && *outcome != Outcome::Draw)
                        .count();
                    let engine = rate(&values, komi, &game, side).unwrap();
                    let expected: Vec<(Move, Outcome)> = preference_order(&engine)
                        .into_iter()
                        .map(|i| (engine[i].mv, engine[i].outcome))
                        .collect();
                    let rated = values.rated_moves(&state, komi, side, &drawn).unwrap();
                    assert_eq!(
                        rated,
                        expected,
                        "{name} after {} moves",
                        game.moves().count()
                    );
                    // Points mostly, a pass one time in ten, so that
                    // games go on long enough to repeat.
                    let points: Vec<Move> = state
                        .legal_moves()
                        .into_iter()
                        .filter(|&mv| mv != Move::Pass)
                        .collect();
                    let mv = if points.is_empty() || random.below(10) == 0 {
                        Move::Pass
                    } else {
                        points[random.below(points.len() as u64) as usize]
                    };
                    game.play(side, mv).unwrap();
                }
            }
        }
        assert!(
            repetitions > 0,
            "some move that the values do not draw repeated a state"
        );
    }

    /// A board with no table that is not solved on the spot says why: too
    /// many states, or more points than the index takes.
    #[cfg(feature = "solver")]
    #[test]
    fn no_values_says_why_the_board_was_not_solved() {
        let (library, _) = Tablebase::scan(None, true);
        for (board, why) in [
            ("5x5", "not solved on the spot: it has about"),
            (
                "6x6",
                "not solved on the spot: its 36 points are more than the index takes",
            ),
        ] {
            let board: Board = board.parse().unwrap();
            let Err(error) = library.values(board) else {
                panic!("{board} has values");
            };
            let message = error.to_string();
            assert!(
                message.starts_with(&format!("no table of board {board}; "))
                    && message.contains(why),
                "{message}"
            );
        }
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

#[cfg(test)]
mod board_check {
    use super::*;

    /// A 3x3 state asked of the 4x4 values is refused, naming both boards;
    /// on its own board it is answered.
    #[test]
    fn a_state_of_another_board_is_refused() {
        let small: Board = "3x3".parse().unwrap();
        let large: Board = "4x4".parse().unwrap();
        let position = Position::from_diagram(&small, "..X\n.O.\n...").unwrap();
        let state = BoardState::new(small, position, None, false).unwrap();
        let tables = Tablebase::new();
        let values = tables.values(large).unwrap();
        for answer in [
            values.outcome(&state, 0.0, Colour::Black).map(|_| ()),
            values.best_moves(&state, 0.0, Colour::Black).map(|_| ()),
        ] {
            match answer {
                Err(ProbeError::WrongBoard { expected, found }) => {
                    assert_eq!((&expected[..], &found[..]), ("4x4", "3x3"));
                }
                other => panic!("{other:?}"),
            }
        }
        let own = tables.values(small).unwrap();
        assert!(own.outcome(&state, 0.0, Colour::Black).is_ok());
        assert!(!own
            .best_moves(&state, 0.0, Colour::Black)
            .unwrap()
            .is_empty());
    }

    /// The colour to move decides which way the komi counts: on the empty
    /// 3x3 board, White to move (receiving the komi) wins by twice the
    /// komi more than Black to move does.
    #[test]
    fn the_colour_to_move_takes_or_gives_the_komi() {
        let board: Board = "3x3".parse().unwrap();
        let values = Tablebase::new().values(board).unwrap();
        let start = BoardState::start(board);
        let komi = 2.5;
        let margin = |mover| match values.outcome(&start, komi, mover).unwrap() {
            Outcome::MoverWins { margin, .. } => margin,
            Outcome::OpponentWins { margin, .. } => -margin,
            Outcome::Draw => 0.0,
        };
        assert_eq!(margin(Colour::White), margin(Colour::Black) + 2.0 * komi);
    }

    /// Printed as a chain (each error, then its source, and so on), every
    /// public error says each thing once and keeps every word: the
    /// system's text appears once, after what the wrapper adds. The public
    /// types print with `{:?}`.
    #[test]
    fn error_chains_say_each_thing_once() {
        let io = || std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let table = || TableError::io(Path::new("x.sgtb"), io());
        let chains: Vec<(String, &str)> = vec![
            (error_chain(&table()), "x.sgtb: gone"),
            (
                error_chain(&ProbeError::from(table())),
                "no source of the values could answer: x.sgtb: gone",
            ),
            (
                error_chain(&SourceError::File(table())),
                "skipping a file of the tables folder: x.sgtb: gone",
            ),
            (
                error_chain(&SourceError::BuiltIn(table())),
                "a built-in table is not sound: x.sgtb: gone",
            ),
            (
                error_chain(&SourceError::Folder {
                    folder: PathBuf::from("tables"),
                    error: io(),
                }),
                "--tables tables: gone",
            ),
            (
                error_chain(&NoValues {
                    board: "3x3".parse().unwrap(),
                    refused: vec![table(), table()],
                    not_solved: None,
                }),
                "no table of board 3x3; refused x.sgtb: gone; refused x.sgtb: gone",
            ),
        ];
        for (chain, said) in chains {
            assert_eq!(chain, said);
        }
        // A cause below the system's error goes on the chain once too.
        let below = TableError::io(
            Path::new("x.sgtb"),
            std::io::Error::other(SourceError::File(table())),
        );
        assert_eq!(
            error_chain(&below),
            "x.sgtb: skipping a file of the tables folder: x.sgtb: gone"
        );
        let values = Tablebase::new().values("2x3".parse().unwrap()).unwrap();
        assert!(
            format!("{values:?}").contains("built-in table 2x3"),
            "{values:?}"
        );
    }
}

#[cfg(test)]
mod moves {
    use super::*;
    use crate::common::random::SplitMix;

    /// What the rules inside the crate say of `mv` in `state`, as the API
    /// should give it.
    fn expected(board: Board, state: &State, mv: Move) -> Result<Next, MoveError> {
        let on_board = |state| BoardState { board, state };
        match mv {
            Move::Pass => Ok(match state.pass(&board) {
                Child::State(after) => Next::State(on_board(after)),
                Child::End { margin } => Next::End { margin },
            }),
            Move::Place(point) => {
                let position = state.position();
                if !board.all().contains(point) {
                    Err(MoveError::OffBoard)
                } else if (position.us() | position.them()).contains(point) {
                    Err(MoveError::Occupied)
                } else if state.ko() == Some(point) {
                    Err(MoveError::Ko)
                } else {
                    match state.place(&board, point) {
                        Some(after) => Ok(Next::State(on_board(after))),
                        None => Err(MoveError::Suicide),
                    }
                }
            }
        }
    }

    /// Seeded random games, played through `play` to their end on boards of
    /// each kind (plain, circular, a line, a shape with walls and open
    /// sides): at every ply every point of every index and the pass give
    /// what the crate's rules give, `legal_moves` holds exactly the moves
    /// `play` takes, `children` is `play` of each, a placed stone belongs
    /// to the player who moved, a capture takes only the other side's
    /// stones, and two passes end the game with the passer's area margin.
    #[test]
    fn games_played_through_the_api_follow_the_rules() {
        let mut rng = SplitMix::new(36);
        for name in ["3x3", "3x4", "2x4c", "1x5", "+.#/..+", ".../.#./..."] {
            let board: Board = name.parse().unwrap();
            for _ in 0..20 {
                let mut now = BoardState::start(board);
                let mut plies = 0;
                let margin = loop {
                    let state = now.state();
                    let legal = now.legal_moves();
                    let every = (0..crate::rules::board::MAX_POINTS)
                        .map(|index| Move::Place(Point::new(index)))
                        .chain([Move::Pass]);
                    for mv in every {
                        let played = now.play(mv);
                        assert_eq!(
                            played,
                            expected(board, &state, mv),
                            "{name} {state:?} {mv:?}"
                        );
                        assert_eq!(legal.contains(&mv), played.is_ok(), "{name} {mv:?}");
                    }
                    let children = now.children();
                    assert_eq!(children.len(), legal.len());
                    for (mv, next) in &children {
                        assert_eq!(Ok(*next), now.play(*mv));
                    }
                    // Mostly placements, now and then a pass; two passes once
                    // the game is long.
                    let placements = legal.len() - 1;
                    let mv = if placements == 0 || plies > 60 || rng.below(8) == 0 {
                        Move::Pass
                    } else {
                        legal[rng.below(placements as u64) as usize]
                    };
                    match now.play(mv).unwrap() {
                        Next::State(after) => {
                            assert_eq!(after.board(), board);
                            let before = state.position();
                            let stones = after.state().position();
                            let mut moved = before.mover_stones();
                            if let Move::Place(point) = mv {
                                moved.push(point);
                                moved.sort();
                            }
                            assert_eq!(stones.other_stones(), moved);
                            let kept = stones.mover_stones();
                            assert!(kept.iter().all(|p| before.other_stones().contains(p)));
                            if mv == Move::Pass {
                                assert!(after.state().passed());
                                assert_eq!(kept, before.other_stones());
                            }
                            now = after;
                        }
                        Next::End { margin } => {
                            assert!(mv == Move::Pass && state.passed());
                            break margin;
                        }
                    }
                    plies += 1;
                };
                assert_eq!(margin, now.state().position().area_score(&board));
            }
        }
    }

    /// Each illegal move is refused with its reason, and `play` leaves the
    /// state as it was.
    #[test]
    fn illegal_moves_say_why() {
        let board: Board = "3x4".parse().unwrap();
        let point = |name| Move::Place(board.parse_point(name).unwrap());
        let position = Position::from_diagram(&board, ".XO.\nXO.O\n.XO.").unwrap();
        let state = BoardState::new(board, position, None, false).unwrap();
        let Ok(Next::State(after_capture)) = state.play(point("C2")) else {
            panic!("X captures at C2");
        };
        let copy = after_capture;
        assert_eq!(after_capture.play(point("B2")), Err(MoveError::Ko));
        assert_eq!(after_capture.play(point("C2")), Err(MoveError::Occupied));
        assert_eq!(after_capture, copy);
        let large: Board = "4x4".parse().unwrap();
        let outside = Move::Place(large.point(3, 3));
        assert_eq!(state.play(outside), Err(MoveError::OffBoard));

        let small: Board = "3x3".parse().unwrap();
        let surrounded = Position::from_diagram(&small, ".O.\nO..\n...").unwrap();
        let state = BoardState::new(small, surrounded, None, false).unwrap();
        let corner = Move::Place(small.parse_point("A3").unwrap());
        assert_eq!(state.play(corner), Err(MoveError::Suicide));
        assert!(!state.legal_moves().contains(&corner));
        assert_eq!(
            MoveError::Ko.to_string(),
            "the ko point may not be retaken at once"
        );
    }
}
