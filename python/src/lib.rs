//! `smallgo._smallgo`, the native part of the Python module `smallgo`
//! (docs/python.md): the crate's tables probed through its public API
//! (`Tablebase`, `BoardValues::outcome` and `rated_moves`, `BoardState`),
//! and tables built (`build_table`). A position is a board, setup stones,
//! the player to move and the moves played from there, kept as a game
//! with its full states, so that a move that brings one back is a draw and
//! ends the game, as in the engine (docs/rules.md, the game). Every fault
//! of the input is a Python exception naming the argument at fault; none
//! panics.
//!
//! The Python package (python/smallgo/) wraps these: it reads its
//! arguments in more forms (a string of moves, sgfmill's boards and games)
//! and hands them here as plain lists.

use std::collections::HashMap;
use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use pyo3::create_exception;
use pyo3::exceptions::{
    PyFileNotFoundError, PyKeyError, PyNotADirectoryError, PyOSError, PyPermissionError,
    PyRuntimeError, PyUserWarning, PyValueError,
};
use pyo3::prelude::*;

use smallgo::{
    build_table, Board, BoardState, Colour, Move, Next, Outcome, Point, Position, ProbeError,
    SourceError,
};

create_exception!(
    smallgo,
    MissingTableError,
    PyKeyError,
    "No values for the board: no table of it (in the folder or built in), \
     and too large to solve on the spot."
);
create_exception!(
    smallgo,
    TableError,
    PyOSError,
    "A table could not answer: found damaged while probing, with no other \
     source of the board's values left."
);
create_exception!(
    smallgo,
    BuildError,
    PyRuntimeError,
    "A table could not be built."
);
create_exception!(
    smallgo,
    DoesNotFitError,
    BuildError,
    "The board does not fit here: the solver's limits, the memory or the \
     disk (the message gives the figures)."
);
create_exception!(
    smallgo,
    TableWarning,
    PyUserWarning,
    "A file of the tables folder that was refused (not a table, or not of \
     the board its name gives); the others are used."
);

/// How many moves a mainline follows at most, as the engine's `smallgo-pv`
/// and the JSON API's mainline.
const MAINLINE_LIMIT: usize = 60;

/// The column letters of GTP vertices (`I` skipped).
const COLUMN_LETTERS: &str = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// An error, then what caused it, and so on: the crate's errors that wrap
/// another say only what they add, and give the other as `source()`.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    text
}

fn colour_word(colour: Colour) -> &'static str {
    if colour.is_black() {
        "black"
    } else {
        "white"
    }
}

/// At most 40 characters of the caller's text, for messages.
fn shortened(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(40).collect();
    if chars.next().is_some() {
        format!("{head}...")
    } else {
        head
    }
}

/// A number of points as the engine writes it: `9`, `8.5`, `0.0000001`.
fn points_text(points: f64) -> String {
    if points == 0.0 {
        "0".to_string()
    } else {
        format!("{points}")
    }
}

/// A result at a komi: who wins, by how much, in how many plies.
#[pyclass(module = "smallgo", name = "Outcome", frozen, eq, get_all)]
#[derive(Clone, Debug, PartialEq)]
struct PyOutcome {
    /// `"black"`, `"white"`, or `None` for a draw.
    winner: Option<String>,
    /// The winner's margin, komi included; 0 for a draw.
    margin: f64,
    /// The plies to the end with perfect play (the winner hurrying, the
    /// loser resisting), passes included; `None` for a draw and for a game
    /// already over.
    plies: Option<u32>,
    /// The result as GTP `final_score` writes it: `B+9`, `W+0.5`, `0`.
    score: String,
}

#[pymethods]
impl PyOutcome {
    fn __repr__(&self) -> String {
        let plies = match self.plies {
            Some(plies) => format!(" in {plies} plies"),
            None => String::new(),
        };
        format!("<Outcome {}{plies}>", self.score)
    }
}

impl PyOutcome {
    /// The result `outcome` says, `mover` being the player it is seen from.
    fn new(outcome: Outcome, mover: Colour) -> PyOutcome {
        let (winner, margin, plies) = match outcome {
            Outcome::MoverWins { margin, plies } => (Some(mover), margin, Some(plies)),
            Outcome::OpponentWins { margin, plies } => {
                (Some(mover.opposite()), margin, Some(plies))
            }
            Outcome::Draw => (None, 0.0, None),
        };
        PyOutcome::of(winner, margin, plies.map(u32::from))
    }

    /// The final result of a game Black ends `black_margin` ahead of on the
    /// board (komi aside).
    fn scored(black_margin: i32, komi: f64) -> PyOutcome {
        let net = black_margin as f64 - komi;
        let winner = if net > 0.0 {
            Some(Colour::Black)
        } else if net < 0.0 {
            Some(Colour::White)
        } else {
            None
        };
        PyOutcome::of(winner, net.abs(), None)
    }

    fn of(winner: Option<Colour>, margin: f64, plies: Option<u32>) -> PyOutcome {
        let score = match winner {
            Some(colour) => format!("{}+{}", colour.letter(), points_text(margin)),
            None => "0".to_string(),
        };
        PyOutcome {
            winner: winner.map(|c| colour_word(c).to_string()),
            margin: if winner.is_some() { margin } else { 0.0 },
            plies,
            score,
        }
    }

    /// The margin from `colour`'s view: positive when it wins.
    fn value_for(&self, colour: Colour) -> f64 {
        match self.winner.as_deref() {
            None => 0.0,
            Some(winner) if winner == colour_word(colour) => self.margin,
            Some(_) => -self.margin,
        }
    }

    /// The engine's label for `colour`: `+9`, `=0`, `-0.5`.
    fn label_for(&self, colour: Colour) -> String {
        let value = self.value_for(colour);
        if value > 0.0 {
            format!("+{}", points_text(value))
        } else if value < 0.0 {
            format!("-{}", points_text(-value))
        } else {
            "=0".to_string()
        }
    }
}

/// One legal move of a position, with what it leads to.
#[pyclass(module = "smallgo", name = "MoveValue", frozen, get_all)]
#[derive(Clone, Debug)]
struct MoveValue {
    /// The move: a GTP vertex (`B2`) or `pass`.
    #[pyo3(name = "move")]
    mv: String,
    /// The margin the move leads to for the player making it, komi
    /// included: positive a win, 0 a draw, negative a loss.
    value: f64,
    /// The plies to the end after the move, the move included (`None` for
    /// a draw).
    depth: Option<u32>,
    /// The result the move leads to.
    outcome: PyOutcome,
    /// The engine's label of it: `+9`, `=0`, `-0.5`.
    label: String,
    /// Whether it keeps the best result: the same winner and margin as
    /// the first move, plies aside.
    best: bool,
}

#[pymethods]
impl MoveValue {
    fn __repr__(&self) -> String {
        let depth = match self.depth {
            Some(depth) => format!(" in {depth}"),
            None => String::new(),
        };
        let best = if self.best { " best" } else { "" };
        format!("<MoveValue {} {}{depth}{best}>", self.mv, self.label)
    }
}

/// A position's answer: its value at the komi and every legal move.
#[pyclass(module = "smallgo", name = "Probe", frozen, get_all)]
#[derive(Clone, Debug)]
struct PyProbe {
    /// The board's name (`3x3`, `2x7c`, a shape's diagram).
    board: String,
    /// The komi, given to White.
    komi: f64,
    /// The moves played from the start, as the engine names them.
    played: Vec<String>,
    /// The player to move now: `"black"` or `"white"`.
    to_move: String,
    /// Black's stones now, in point order.
    black: Vec<String>,
    /// White's stones now, in point order.
    white: Vec<String>,
    /// The point the player to move may not take back at once, or `None`.
    ko: Option<String>,
    /// `None` while the game goes on; `"passes"` (two passes ended it) or
    /// `"repetition"` (a full state came back: a draw).
    ended: Option<String>,
    /// The result with perfect play from here; once over, the final result.
    result: PyOutcome,
    /// The result's margin for the player to move: positive a win, 0 a
    /// draw, negative a loss.
    value: f64,
    /// The plies to the end with perfect play (`None` for a draw, or once
    /// over).
    depth: Option<u32>,
    /// Every legal move, pass included, most preferred first in the
    /// engine's order; empty once over.
    moves: Vec<MoveValue>,
    /// Where the values come from: `built-in table 3x3`, a file's path,
    /// `solved on the spot`.
    source: String,
}

#[pymethods]
impl PyProbe {
    fn __repr__(&self) -> String {
        format!(
            "<Probe {} after {} moves, {} to move: {}>",
            self.board,
            self.played.len(),
            self.to_move,
            self.result.score
        )
    }
}

/// The line perfect play follows from a position.
#[pyclass(module = "smallgo", name = "Mainline", frozen, get_all)]
#[derive(Clone, Debug)]
struct Mainline {
    /// The board's name.
    board: String,
    /// The komi, given to White.
    komi: f64,
    /// The player who plays the line's first move.
    to_move: String,
    /// The moves, colours alternating from `to_move`, until the game ends
    /// or 60 moves.
    moves: Vec<String>,
    /// How the game ends at the end of the line: `"passes"` or
    /// `"repetition"`; `None` when the line stops at 60 moves.
    ended: Option<String>,
    /// The final result at the end of the line, or `None` at the limit.
    result: Option<PyOutcome>,
}

#[pymethods]
impl Mainline {
    fn __repr__(&self) -> String {
        let result = self
            .result
            .as_ref()
            .map_or("unfinished".to_string(), |r| r.score.clone());
        format!(
            "<Mainline {} {}: {result}>",
            self.board,
            self.moves.join(" ")
        )
    }

    fn __len__(&self) -> usize {
        self.moves.len()
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug)]
enum Ending {
    /// Two passes: Black's area margin, komi aside.
    Passes { black_margin: i32 },
    /// A full state came back: a draw.
    Repetition,
}

impl Ending {
    fn word(self) -> &'static str {
        match self {
            Ending::Passes { .. } => "passes",
            Ending::Repetition => "repetition",
        }
    }

    fn result(self, komi: f64) -> PyOutcome {
        match self {
            Ending::Passes { black_margin } => PyOutcome::scored(black_margin, komi),
            Ending::Repetition => PyOutcome::of(None, 0.0, None),
        }
    }
}

/// A game on one board: the state now, the player to move, every full
/// state that has stood (a state and its player to move), the moves played.
#[derive(Clone, Debug)]
struct Game {
    board: Board,
    now: BoardState,
    to_move: Colour,
    stood: Vec<(BoardState, Colour)>,
    played: Vec<Move>,
    ended: Option<Ending>,
}

impl Game {
    /// Plays `mv` for the player to move; `Err` says why it is illegal.
    fn play(&mut self, mv: Move) -> Result<(), String> {
        if let Some(ending) = self.ended {
            let how = match ending {
                Ending::Passes { .. } => "two passes ended it",
                Ending::Repetition => "a repetition drew it",
            };
            return Err(format!(
                "comes after the end of the game: {how} at move {}",
                self.played.len()
            ));
        }
        let next = self
            .now
            .play(mv)
            .map_err(|why| format!("is not legal for {} here: {why}", colour_word(self.to_move)))?;
        let mover = self.to_move;
        self.to_move = mover.opposite();
        self.played.push(mv);
        match next {
            Next::End { margin } => {
                let black_margin = if mover.is_black() { margin } else { -margin };
                self.ended = Some(Ending::Passes { black_margin });
                // The stones stand as they were, seen from the next player.
                let turned = self.now.state().position().swapped();
                if let Ok(after) = BoardState::new(self.board, turned, None, true) {
                    self.now = after;
                }
            }
            Next::State(after) => {
                let full = (after, self.to_move);
                if self.stood.contains(&full) {
                    self.ended = Some(Ending::Repetition);
                }
                self.stood.push(full);
                self.now = after;
            }
        }
        Ok(())
    }

    /// The legal moves that bring back a full state that has stood.
    fn repeating(&self) -> Vec<Move> {
        let next_to_move = self.to_move.opposite();
        self.now
            .children()
            .into_iter()
            .filter_map(|(mv, next)| match next {
                Next::State(after) if self.stood.contains(&(after, next_to_move)) => Some(mv),
                _ => None,
            })
            .collect()
    }

    /// The stones of `colour` now, by name.
    fn stones(&self, colour: Colour) -> Vec<String> {
        let position = self.now.state().position();
        let points = if colour == self.to_move {
            position.mover_stones()
        } else {
            position.other_stones()
        };
        points.iter().map(|&p| self.board.point_name(p)).collect()
    }
}

/// Reads a board's name.
fn board_of(text: &str) -> PyResult<Board> {
    text.parse::<Board>()
        .map_err(|error| PyValueError::new_err(format!("board: {error}")))
}

/// Whether `text` is written as a GTP vertex: a column letter (not `I`)
/// and a row number.
fn is_vertex(text: &str) -> bool {
    let mut chars = text.chars();
    let Some(letter) = chars.next() else {
        return false;
    };
    let digits = chars.as_str();
    COLUMN_LETTERS.contains(letter.to_ascii_uppercase())
        && !digits.is_empty()
        && digits.len() <= 9
        && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The point a vertex names on `board`; `what` names the argument in the
/// error.
fn point_of(board: &Board, what: &str, text: &str) -> PyResult<Point> {
    if !is_vertex(text) {
        return Err(PyValueError::new_err(format!(
            "{what} '{}' is not a point: expected a vertex such as B2",
            shortened(text)
        )));
    }
    board.parse_point(text).ok_or_else(|| {
        PyValueError::new_err(format!(
            "{what} '{}' is not on board {board}",
            shortened(text)
        ))
    })
}

/// The game a position names: the board, setup stones, the player to
/// move at the start, and the moves played from there.
fn game_of(
    board: &str,
    moves: &[String],
    black: &[String],
    white: &[String],
    to_move: &str,
) -> PyResult<Game> {
    let board = board_of(board)?;
    let first = Colour::parse(to_move).ok_or_else(|| {
        PyValueError::new_err(format!(
            "to_move: '{}' is not a colour: black or white",
            shortened(to_move)
        ))
    })?;
    let setup = |what: &str, names: &[String]| -> PyResult<Vec<Point>> {
        names
            .iter()
            .map(|name| point_of(&board, &format!("{what}:"), name))
            .collect()
    };
    let (black, white) = (setup("black", black)?, setup("white", white)?);
    if let Some(both) = black.iter().find(|p| white.contains(p)) {
        return Err(PyValueError::new_err(format!(
            "black and white: {} holds stones of both colours",
            board.point_name(*both)
        )));
    }
    let start = if black.is_empty() && white.is_empty() && first == Colour::Black {
        BoardState::start(board)
    } else {
        let (mine, theirs) = match first {
            Colour::Black => (&black, &white),
            Colour::White => (&white, &black),
        };
        let position = Position::from_diagram(&board, &diagram(&board, mine, theirs))
            .map_err(|error| PyValueError::new_err(format!("black and white: {error}")))?;
        BoardState::new(board, position, None, false).map_err(|error| {
            PyValueError::new_err(format!("black and white: the setup is not legal: {error}"))
        })?
    };
    let mut game = Game {
        board,
        now: start,
        to_move: first,
        stood: vec![(start, first)],
        played: Vec::new(),
        ended: None,
    };
    for (number, text) in moves.iter().enumerate() {
        let at = format!("moves: move {} '{}'", number + 1, shortened(text));
        let mv =
            if text.eq_ignore_ascii_case("pass") {
                Move::Pass
            } else if is_vertex(text) {
                Move::Place(board.parse_point(text).ok_or_else(|| {
                    PyValueError::new_err(format!("{at} is not on board {board}"))
                })?)
            } else {
                return Err(PyValueError::new_err(format!(
                    "{at} is not a move: expected a vertex such as B2, or pass"
                )));
            };
        game.play(mv)
            .map_err(|why| PyValueError::new_err(format!("{at} {why}")))?;
    }
    Ok(game)
}

/// A diagram of `board`'s cells, top row first, `X` for `mine`, `O` for
/// `theirs`, `.` for the other points, `#` for a cell of a shape's grid
/// that is no point.
fn diagram(board: &Board, mine: &[Point], theirs: &[Point]) -> String {
    let mut rows = Vec::new();
    for row in (0..board.rows()).rev() {
        let mut line = String::new();
        for letter in COLUMN_LETTERS.chars().take(board.columns()) {
            line.push(match board.parse_point(&format!("{letter}{}", row + 1)) {
                Some(point) if mine.contains(&point) => 'X',
                Some(point) if theirs.contains(&point) => 'O',
                Some(_) => '.',
                None => '#',
            });
        }
        rows.push(line);
    }
    rows.join("\n")
}

fn check_komi(komi: f64) -> PyResult<f64> {
    if komi.is_finite() {
        Ok(komi)
    } else {
        Err(PyValueError::new_err(format!(
            "komi: {komi} is not a finite number"
        )))
    }
}

fn probe_error(error: ProbeError) -> PyErr {
    TableError::new_err(chain(&error))
}

/// The tables: those built into the module, a folder's if given (preferred
/// to the built-in ones), and for a small board without a table a solve on
/// the spot. A board's values are opened on its first probe and kept.
#[pyclass(module = "smallgo._smallgo", name = "Tablebase", frozen, subclass)]
struct Tablebase {
    tables: smallgo::Tablebase,
    directory: Option<PathBuf>,
    open: Mutex<HashMap<Board, smallgo::BoardValues>>,
}

impl Tablebase {
    /// The values of `board`, opened on its first use (a solve on the
    /// spot runs with the interpreter released).
    fn values(&self, py: Python<'_>, board: Board) -> PyResult<smallgo::BoardValues> {
        if let Some(values) = self.lock().get(&board) {
            return Ok(values.clone());
        }
        let opened = py.detach(|| self.tables.values(board));
        let values = opened.map_err(|error| MissingTableError::new_err(error.to_string()))?;
        self.lock().insert(board, values.clone());
        Ok(values)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Board, smallgo::BoardValues>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The position's answer at `komi`.
    fn answer(&self, py: Python<'_>, game: &Game, komi: f64) -> PyResult<PyProbe> {
        let values = self.values(py, game.board)?;
        let board = game.board;
        let mover = game.to_move;
        let (result, depth, moves) = match game.ended {
            Some(ending) => (ending.result(komi), None, Vec::new()),
            None => {
                let outcome = values
                    .outcome(&game.now, komi, mover)
                    .map_err(probe_error)?;
                let result = PyOutcome::new(outcome, mover);
                let rated = values
                    .rated_moves(&game.now, komi, mover, &game.repeating())
                    .map_err(probe_error)?;
                let first = rated
                    .first()
                    .map(|&(_, outcome)| PyOutcome::new(outcome, mover));
                let moves = rated
                    .iter()
                    .map(|&(mv, outcome)| {
                        let outcome = PyOutcome::new(outcome, mover);
                        let best = first.as_ref().is_some_and(|first| {
                            first.winner == outcome.winner && first.margin == outcome.margin
                        });
                        MoveValue {
                            mv: mv.name(&board),
                            value: outcome.value_for(mover),
                            depth: outcome.plies,
                            label: outcome.label_for(mover),
                            outcome,
                            best,
                        }
                    })
                    .collect();
                (result.clone(), result.plies, moves)
            }
        };
        Ok(PyProbe {
            board: board.name(),
            komi,
            played: game.played.iter().map(|mv| mv.name(&board)).collect(),
            to_move: colour_word(mover).to_string(),
            black: game.stones(Colour::Black),
            white: game.stones(Colour::White),
            ko: game.now.state().ko().map(|p| board.point_name(p)),
            ended: game.ended.map(|e| e.word().to_string()),
            value: result.value_for(mover),
            result,
            depth,
            moves,
            source: values.description(),
        })
    }
}

/// A refused source of a folder, for a warning or an error.
fn folder_error(error: &SourceError, folder: &Path) -> PyErr {
    let text = format!("tables folder '{}': {}", folder.display(), chain(error));
    match error {
        SourceError::Folder { error, .. } => match error.kind() {
            std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(text),
            std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(text),
            std::io::ErrorKind::NotADirectory => PyNotADirectoryError::new_err(text),
            _ => PyOSError::new_err(text),
        },
        _ => PyOSError::new_err(text),
    }
}

#[pymethods]
impl Tablebase {
    /// Tablebase(directory=None): the built-in tables, and those of
    /// `directory` (files `RxC.sgtb` written by `smallgo build`, preferred
    /// to the built-in ones). A file of the folder that is not a sound
    /// table is skipped with a `TableWarning`; a folder that cannot be
    /// read raises `OSError` (`FileNotFoundError`, ...).
    #[new]
    #[pyo3(signature = (directory=None))]
    fn new(py: Python<'_>, directory: Option<PathBuf>) -> PyResult<Tablebase> {
        let mut tables = smallgo::Tablebase::new();
        if let Some(folder) = &directory {
            let refused = tables
                .add_directory(folder)
                .map_err(|error| folder_error(&error, folder))?;
            for error in refused {
                let text = format!("tables folder '{}': {}", folder.display(), chain(&error));
                let text = CString::new(text.replace('\0', " ")).unwrap_or_default();
                PyErr::warn(py, py.get_type::<TableWarning>().as_any(), &text, 1)?;
            }
        }
        Ok(Tablebase {
            tables,
            directory,
            open: Mutex::new(HashMap::new()),
        })
    }

    /// The boards with a table (in the folder or built in), by name.
    fn boards(&self) -> Vec<String> {
        self.tables.boards().iter().map(Board::name).collect()
    }

    /// Where `board`'s values come from: `built-in table 3x3`, a file's
    /// path, `solved on the spot`.
    fn source(&self, py: Python<'_>, board: &str) -> PyResult<String> {
        Ok(self.values(py, board_of(board)?)?.description())
    }

    /// The position's value at `komi` and every legal move, best first.
    // The arguments are the Python call's.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (board, moves, komi, black, white, to_move))]
    fn probe(
        &self,
        py: Python<'_>,
        board: &str,
        moves: Vec<String>,
        komi: f64,
        black: Vec<String>,
        white: Vec<String>,
        to_move: &str,
    ) -> PyResult<PyProbe> {
        let komi = check_komi(komi)?;
        let game = game_of(board, &moves, &black, &white, to_move)?;
        self.answer(py, &game, komi)
    }

    /// The line perfect play follows from the position.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (board, moves, komi, black, white, to_move))]
    fn mainline(
        &self,
        py: Python<'_>,
        board: &str,
        moves: Vec<String>,
        komi: f64,
        black: Vec<String>,
        white: Vec<String>,
        to_move: &str,
    ) -> PyResult<Mainline> {
        let komi = check_komi(komi)?;
        let mut game = game_of(board, &moves, &black, &white, to_move)?;
        let values = self.values(py, game.board)?;
        let first = game.to_move;
        let already = game.played.len();
        while game.ended.is_none() && game.played.len() - already < MAINLINE_LIMIT {
            let rated = values
                .rated_moves(&game.now, komi, game.to_move, &game.repeating())
                .map_err(probe_error)?;
            let &(mv, _) = rated
                .first()
                .ok_or_else(|| PyRuntimeError::new_err("a position with no legal move"))?;
            game.play(mv).map_err(PyRuntimeError::new_err)?;
        }
        let board = game.board;
        Ok(Mainline {
            board: board.name(),
            komi,
            to_move: colour_word(first).to_string(),
            moves: game.played[already..]
                .iter()
                .map(|mv| mv.name(&board))
                .collect(),
            ended: game.ended.map(|e| e.word().to_string()),
            result: game.ended.map(|e| e.result(komi)),
        })
    }

    /// The folder given, or `None`.
    #[getter]
    fn directory(&self) -> Option<PathBuf> {
        self.directory.clone()
    }

    /// Forgets the boards' values opened so far.
    fn close(&self) {
        self.lock().clear();
    }

    fn __repr__(&self) -> String {
        match &self.directory {
            Some(folder) => format!("<Tablebase built-in and '{}'>", folder.display()),
            None => "<Tablebase built-in>".to_string(),
        }
    }
}

/// build(board, directory) -> str: solves `board` and writes its table
/// into `directory` as `RxC.sgtb` (through a temporary file, so the folder
/// never holds a partial table), with the folder's `manifest.tsv`; returns
/// the table's path. A board that does not fit (the solver's limits, the
/// memory, the disk) raises `DoesNotFitError`; another failure
/// `BuildError`. The interpreter is released while it runs.
#[pyfunction]
fn build(py: Python<'_>, board: &str, directory: PathBuf) -> PyResult<String> {
    let board = board_of(board)?;
    // The error as its message, and whether the board does not fit.
    let built = py.detach(|| {
        build_table(board, &directory).map_err(|error| {
            let fits = !matches!(error, smallgo::BuildError::DoesNotFit(_));
            (fits, chain(&error))
        })
    });
    match built {
        Ok(path) => Ok(path.display().to_string()),
        Err((false, message)) => Err(DoesNotFitError::new_err(message)),
        Err((true, message)) => Err(BuildError::new_err(message)),
    }
}

/// The native part of the Python module `smallgo`.
#[pymodule]
fn _smallgo(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add_class::<Tablebase>()?;
    module.add_class::<PyProbe>()?;
    module.add_class::<MoveValue>()?;
    module.add_class::<PyOutcome>()?;
    module.add_class::<Mainline>()?;
    module.add_function(wrap_pyfunction!(build, module)?)?;
    module.add("MissingTableError", py.get_type::<MissingTableError>())?;
    module.add("TableError", py.get_type::<TableError>())?;
    module.add("BuildError", py.get_type::<BuildError>())?;
    module.add("DoesNotFitError", py.get_type::<DoesNotFitError>())?;
    module.add("TableWarning", py.get_type::<TableWarning>())?;
    Ok(())
}
