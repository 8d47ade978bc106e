//! Tablebase files: the bytes (`format`), writing a solved board to disk
//! atomically (`writer`), probing values (`probe`), and checking a file
//! independently of the builder (`verify`).
//!
//! The layers above (GTP, command line) use `Tablebase` and `Value` only;
//! they never see table bytes or index arithmetic.

pub mod built_in;
pub mod format;
pub mod probe;
pub mod verify;
pub mod writer;

use std::fmt;
use std::path::{Path, PathBuf};

pub use format::Fault;
pub use probe::Tablebase;

/// Where table bytes came from: a file, or a table built into the binary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    File(PathBuf),
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
pub enum TableError {
    /// The file could not be read or written.
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// The bytes are not a sound table.
    Corrupt { origin: Origin, fault: Fault },
    /// A probe asked for a state the table does not hold.
    NoSuchState { origin: Origin, state: String },
}

impl TableError {
    pub fn io(path: &Path, error: std::io::Error) -> TableError {
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
        }
    }
}

impl std::error::Error for TableError {}

/// The file name of a board's table: `RxC.sgtb`.
pub fn file_name(board: &crate::board::Board) -> String {
    format!("{}.{}", board.name(), format::EXTENSION)
}
