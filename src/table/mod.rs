//! Table files: the bytes (`format`), writing a solved board to disk
//! atomically (`writer`), probing values (`probe`), checking a file
//! independently of the builder (`verify`), the tables built into the
//! binary (`built_in`), what serves values and how moves are rated from
//! them (`values`), the one-komi win/draw/loss tables made from full ones
//! (`wdl`), and the collection
//! of tables per board the engine and the commands open (`library`).
//! `writer` and `verify` come with the feature `solver`; the rest reads
//! and probes tables without it.
//!
//! The layers above (GTP, command line) use `Tablebase`, `Table`,
//! `Values` and `Value` only; they never see table bytes or index
//! arithmetic.
//!
//! Only regular files are opened as tables (a FIFO or a device would block
//! or never end), and a file's name must agree with the board its header
//! names: `3x4.sgtb`, or `3x4.` and any suffix such as `3x4.v2.sgtb`.

pub mod built_in;
pub mod format;
pub mod library;
pub mod mapped;
pub mod probe;
pub mod values;
#[cfg(feature = "solver")]
pub mod verify;
pub mod wdl;
#[cfg(feature = "solver")]
pub mod writer;

use std::fmt;
use std::fs::File;
use std::path::{Path, PathBuf};

use crate::rules::board::Board;

pub use format::Fault;
pub use probe::Table;

/// Where table bytes came from: a file, or a table built into the binary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A file, at this path.
    File(PathBuf),
    /// A table built into smallgo (or made in memory), by name.
    BuiltIn(String),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::File(path) => write!(f, "{}", path.display()),
            Origin::BuiltIn(name) => write!(f, "built-in table {name}"),
        }
    }
}

/// A table that cannot be used, and why.
#[derive(Debug)]
#[non_exhaustive]
pub enum TableError {
    /// The file could not be read or written. The message says the path
    /// and what the system said; the source is what lies below the
    /// system's error, if anything.
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// The bytes are not a sound table.
    Corrupt {
        /// The table.
        origin: Origin,
        /// What is wrong with it.
        fault: Fault,
    },
    /// A probe asked for a state the table does not hold.
    NoSuchState {
        /// The table.
        origin: Origin,
        /// The state asked for.
        state: String,
    },
    /// The table may be sound, but this machine cannot check it (too little
    /// memory, a board past the index's limits).
    CannotVerify {
        /// The table.
        origin: Origin,
        /// Why not.
        reason: String,
    },
}

impl TableError {
    pub(crate) fn io(path: &Path, error: std::io::Error) -> TableError {
        TableError::Io {
            path: path.to_path_buf(),
            error,
        }
    }
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            TableError::Corrupt { origin, fault } => write!(f, "{origin}: {fault}"),
            TableError::NoSuchState { origin, state } => {
                write!(f, "{origin}: no such state: {state}")
            }
            TableError::CannotVerify { origin, reason } => {
                write!(f, "{origin}: cannot verify it here: {reason}")
            }
        }
    }
}

/// An `Io` error's message already says the system's error, so the chain
/// goes on below it.
impl std::error::Error for TableError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TableError::Io { error, .. } => error.source(),
            _ => None,
        }
    }
}

/// An error and its sources, each said once, joined by `": "`: how an
/// error that wraps another (its message then says only what it adds) is
/// printed.
pub(crate) fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// The file name of a board's table: `RxC.sgtb`, a shape's
/// `shape-HASH.sgtb` (`Board::file_stem`).
pub fn file_name(board: &Board) -> String {
    format!("{}.{}", board.file_stem(), format::EXTENSION)
}

/// The board a table file's name gives: the part before the first dot
/// (`3x4.sgtb`, `3x4.v2.sgtb`), spelled as smallgo spells boards; `None`
/// if the name does not start with a board.
pub fn board_of_name(path: &Path) -> Option<Board> {
    let name = path.file_name()?.to_str()?;
    let (stem, _) = name.split_once('.')?;
    let board: Board = stem.parse().ok()?;
    (board.file_stem() == stem).then_some(board)
}

/// Opens a file for reading if it is a regular file (symbolic links
/// followed), and refuses anything else by name: reading a FIFO or a
/// device as a table would block or never end (`files::open_for_reading`,
/// the one way smallgo opens what it reads).
pub fn open_regular(path: &Path) -> Result<File, TableError> {
    crate::common::files::open_for_reading(path).map_err(|e| TableError::io(path, e))
}

/// The first bytes of a table file, as many as its header may take
/// (`format::PEEK_SIZE`), read without mapping it; the file is opened by
/// `open_regular`.
pub fn read_prefix(path: &Path) -> Result<Vec<u8>, TableError> {
    use std::io::Read;
    let mut prefix = Vec::with_capacity(format::PEEK_SIZE);
    open_regular(path)?
        .take(format::PEEK_SIZE as u64)
        .read_to_end(&mut prefix)
        .map_err(|e| TableError::io(path, e))?;
    Ok(prefix)
}

/// Checks that a table file's name and the board its header names agree.
pub fn check_name(path: &Path, board: Board) -> Result<(), TableError> {
    match board_of_name(path) {
        Some(named) if named != board => Err(TableError::Corrupt {
            origin: Origin::File(path.to_path_buf()),
            fault: Fault::WrongBoard {
                expected: Box::new(named),
                found: board.name(),
            },
        }),
        _ => Ok(()),
    }
}
