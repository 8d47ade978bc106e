//! The boards the server answers for, and their values, kept between
//! requests: a board named in a request is read from its text (bounded,
//! and shapes bounded in number, since the rules keep every shape named
//! for the life of the process), and its values are opened once from the
//! tables per board (`table::library`: the `--tables` folder's files, the
//! built-in tables, the turned board's, the plain board's for a circular
//! one of one or two columns, or a solve on the spot for a board of at
//! most `SOLVE_ON_THE_SPOT_STATES` states, about a second).
//!
//! Values are opened one board at a time, so that at most one solve runs
//! at once and requests for boards already open are never held up by it;
//! at most `MAX_SOLVED` solved boards are kept, the oldest dropped first
//! (tables are kept: they are as many as the folder and the binary hold).
//! A client never names a file: the board's name is parsed into a board,
//! and only files the folder's scan found at start are read.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Mutex, PoisonError, RwLock};

use crate::rules::board::{Board, Topology};
use crate::table::library::{BoardValues, Tablebase};

use super::api::ApiError;

/// The most boards solved on the spot kept at once.
pub const MAX_SOLVED: usize = 32;
/// The most distinct shape diagrams the server reads in its life (a few
/// may pass it when requests race; each is at most `MAX_BOARD_TEXT`).
pub const MAX_SHAPES: usize = 256;
/// The longest board name read, in bytes: a shape's diagram of 25 a side.
pub const MAX_BOARD_TEXT: usize = 700;

/// How `BoardValues::description` names a solve on the spot.
const SOLVED: &str = "solved on the spot";

/// The server's boards and their values.
pub struct Boards {
    tablebase: Tablebase,
    open: RwLock<HashMap<Board, BoardValues>>,
    /// Held while a board's values are opened.
    opening: Mutex<Solved>,
    shapes: Mutex<HashSet<String>>,
}

/// The boards solved on the spot that are kept, oldest first.
#[derive(Default)]
struct Solved(VecDeque<Board>);

impl Boards {
    pub fn new(tablebase: Tablebase) -> Boards {
        Boards {
            tablebase,
            open: RwLock::new(HashMap::new()),
            opening: Mutex::new(Solved::default()),
            shapes: Mutex::new(HashSet::new()),
        }
    }

    /// The boards with a table, in the folder or built in.
    pub fn with_tables(&self) -> Vec<Board> {
        self.tablebase.boards()
    }

    /// The board `text` names (`3x3`, `2x7c`, a shape's diagram).
    pub fn board(&self, text: &str) -> Result<Board, ApiError> {
        if text.len() > MAX_BOARD_TEXT {
            return Err(ApiError::bad_request(format!(
                "the board's name has {} bytes, more than the {MAX_BOARD_TEXT} read",
                text.len()
            )));
        }
        let known = {
            let shapes = self.shapes.lock().unwrap_or_else(PoisonError::into_inner);
            shapes.contains(text) || shapes.len() < MAX_SHAPES
        };
        let could_be_shape = text.contains('/') || text.starts_with("shape-");
        if could_be_shape && !known {
            return Err(ApiError {
                status: 503,
                message: format!(
                    "this server has read {MAX_SHAPES} shapes, the most it reads: ask for one of \
                     those, or restart it"
                ),
            });
        }
        let board = text
            .parse::<Board>()
            .map_err(|error| ApiError::bad_request(error.to_string()))?;
        if board.topology() == Topology::Shape {
            let mut shapes = self.shapes.lock().unwrap_or_else(PoisonError::into_inner);
            shapes.insert(text.to_string());
        }
        Ok(board)
    }

    /// The values of `board`, opened on first use.
    pub fn values(&self, board: Board) -> Result<BoardValues, ApiError> {
        if let Some(values) = self.read_open(board) {
            return Ok(values);
        }
        let mut solved = self.opening.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(values) = self.read_open(board) {
            return Ok(values);
        }
        let values = self.tablebase.values(board).map_err(|error| ApiError {
            status: 404,
            message: error.to_string(),
        })?;
        let mut open = self.open.write().unwrap_or_else(PoisonError::into_inner);
        if values.description().contains(SOLVED) {
            solved.0.push_back(board);
            while solved.0.len() > MAX_SOLVED {
                if let Some(oldest) = solved.0.pop_front() {
                    open.remove(&oldest);
                }
            }
        }
        open.insert(board, values.clone());
        Ok(values)
    }

    fn read_open(&self, board: Board) -> Option<BoardValues> {
        self.open
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&board)
            .cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_bounded_in_number() {
        let boards = Boards::new(Tablebase::new());
        let mut read = 0;
        'outer: for columns in 2..=25 {
            for walls in 1..columns {
                let diagram = format!(
                    "{}{}/{}",
                    "#".repeat(walls),
                    ".".repeat(columns - walls),
                    ".".repeat(columns)
                );
                if read == MAX_SHAPES {
                    let error = boards.board(&diagram).unwrap_err();
                    assert_eq!(error.status, 503, "{}", error.message);
                    break 'outer;
                }
                boards.board(&diagram).unwrap();
                read += 1;
            }
        }
        assert_eq!(read, MAX_SHAPES);
        // Those read are still answered, and boards named by their size;
        // a new diagram is not read, even of a rectangle.
        assert!(boards.board("#./..").is_ok());
        assert_eq!(boards.board("../..").unwrap_err().status, 503);
        assert_eq!(boards.board("3x3").unwrap().name(), "3x3");
        let long = ".".repeat(MAX_BOARD_TEXT + 1);
        assert_eq!(boards.board(&long).unwrap_err().status, 400);
    }
}
