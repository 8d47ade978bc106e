//! A plain Go board that follows each game beside the referee, written
//! independently of smallgo with the rules of `docs/rules.md#the-game`:
//! captures, no suicide, basic ko (cleared by a pass), area scoring. It sees
//! the first repetition of a full state (board, side to move, ko point,
//! passes), which ends the game as a draw, and counts the final board so that
//! the referee's `final_score` is checked rather than trusted.

use std::collections::HashSet;
use std::fmt;

/// Column letters of GTP vertices: `I` is skipped.
const COLUMN_LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRST";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Color {
    Black,
    White,
}

impl Color {
    pub(crate) fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The GTP colour argument.
    pub(crate) fn gtp(self) -> &'static str {
        match self {
            Color::Black => "b",
            Color::White => "w",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "Black",
            Color::White => "White",
        })
    }
}

/// A board's shape, named `RxC` (rows first) as in `docs/rules.md#the-game`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    pub(crate) rows: usize,
    pub(crate) columns: usize,
}

impl Shape {
    pub(crate) const fn new(rows: usize, columns: usize) -> Shape {
        Shape { rows, columns }
    }

    pub(crate) fn points(self) -> usize {
        self.rows * self.columns
    }

    /// The GTP command that sets this size: `boardsize N` when square, else
    /// `rectangular_boardsize W H` (width = columns, height = rows).
    pub(crate) fn size_command(self) -> String {
        if self.rows == self.columns {
            format!("boardsize {}", self.rows)
        } else {
            format!("rectangular_boardsize {} {}", self.columns, self.rows)
        }
    }

    fn vertex(self, point: usize) -> String {
        let column = COLUMN_LETTERS[point % self.columns] as char;
        format!("{column}{}", point / self.columns + 1)
    }

    /// Reads a GTP vertex or `pass` (any case); `None` if it is neither or
    /// lies off this board.
    pub(crate) fn parse_move(self, text: &str) -> Option<Move> {
        let text = text.trim().to_ascii_uppercase();
        if text == "PASS" {
            return Some(Move::Pass);
        }
        let mut characters = text.chars();
        let letter = characters.next()?;
        let column = COLUMN_LETTERS.iter().position(|&c| c as char == letter)?;
        let row: usize = characters.as_str().parse().ok()?;
        (column < self.columns && (1..=self.rows).contains(&row))
            .then(|| Move::Place((row - 1) * self.columns + column))
    }

    fn neighbours(self, point: usize) -> impl Iterator<Item = usize> {
        let (row, column) = (point / self.columns, point % self.columns);
        let columns = self.columns;
        [
            (row > 0).then(|| point - columns),
            (row + 1 < self.rows).then(|| point + columns),
            (column > 0).then(|| point - 1),
            (column + 1 < columns).then(|| point + 1),
        ]
        .into_iter()
        .flatten()
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.columns)
    }
}

/// A move on a board: a point index (row-major from A1) or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Move {
    Place(usize),
    Pass,
}

/// Where the game stands after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AfterMove {
    Continues,
    /// The second pass in a row: the game is over and scored.
    TwoPasses,
    /// A full state seen before: the game is over as a draw.
    Repetition,
}

/// Board, side to move, ko point, consecutive passes: what must not repeat.
type FullState = (Vec<Option<Color>>, Color, Option<usize>, u8);

pub(crate) struct GoBoard {
    shape: Shape,
    stones: Vec<Option<Color>>,
    to_move: Color,
    /// The point the side to move may not play at (basic ko).
    ko: Option<usize>,
    passes: u8,
    seen: HashSet<FullState>,
}

impl GoBoard {
    /// The empty board, Black to move.
    pub(crate) fn new(shape: Shape) -> GoBoard {
        let mut board = GoBoard {
            shape,
            stones: vec![None; shape.points()],
            to_move: Color::Black,
            ko: None,
            passes: 0,
            seen: HashSet::new(),
        };
        board.seen.insert(board.full_state());
        board
    }

    fn full_state(&self) -> FullState {
        (self.stones.clone(), self.to_move, self.ko, self.passes)
    }

    /// Plays a move the referee accepted. An error means these plain rules
    /// refuse it, that is, the referee accepted an illegal move.
    pub(crate) fn play(&mut self, color: Color, mv: Move) -> Result<AfterMove, String> {
        if color != self.to_move {
            return Err(format!("{color} moved, but it is {}'s turn", self.to_move));
        }
        match mv {
            Move::Pass => {
                self.ko = None;
                self.passes += 1;
            }
            Move::Place(point) => {
                let vertex = self.shape.vertex(point);
                if self.stones[point].is_some() {
                    return Err(format!("{vertex} is occupied"));
                }
                if self.ko == Some(point) {
                    return Err(format!("{vertex} retakes a ko at once"));
                }
                self.stones[point] = Some(color);
                let mut captured = Vec::new();
                let neighbours: Vec<usize> = self.shape.neighbours(point).collect();
                for neighbour in neighbours {
                    if self.stones[neighbour] == Some(color.opponent()) {
                        let (string, liberties) = self.string_and_liberties(neighbour);
                        if liberties.is_empty() {
                            for stone in string {
                                self.stones[stone] = None;
                                captured.push(stone);
                            }
                        }
                    }
                }
                let (string, liberties) = self.string_and_liberties(point);
                if liberties.is_empty() {
                    return Err(format!("{vertex} is suicide"));
                }
                // Basic ko: one stone captured by a lone stone that is now in
                // atari at the captured point.
                self.ko = (captured.len() == 1 && string.len() == 1 && liberties == captured)
                    .then(|| captured[0]);
                self.passes = 0;
            }
        }
        self.to_move = color.opponent();
        if self.passes == 2 {
            return Ok(AfterMove::TwoPasses);
        }
        if self.seen.insert(self.full_state()) {
            Ok(AfterMove::Continues)
        } else {
            Ok(AfterMove::Repetition)
        }
    }

    /// The string through `point` and its liberties, each listed once.
    fn string_and_liberties(&self, point: usize) -> (Vec<usize>, Vec<usize>) {
        let color = self.stones[point];
        let mut visited = vec![false; self.stones.len()];
        visited[point] = true;
        let mut string = vec![point];
        let mut liberties = Vec::new();
        let mut next = 0;
        while next < string.len() {
            for neighbour in self.shape.neighbours(string[next]) {
                if visited[neighbour] {
                    continue;
                }
                if self.stones[neighbour].is_none() {
                    visited[neighbour] = true;
                    liberties.push(neighbour);
                } else if self.stones[neighbour] == color {
                    visited[neighbour] = true;
                    string.push(neighbour);
                }
            }
            next += 1;
        }
        (string, liberties)
    }

    /// Black's area minus White's (Tromp-Taylor): stones, plus empty regions
    /// that touch one colour only. Nothing is removed as dead.
    pub(crate) fn area_margin(&self) -> i32 {
        let mut margin = 0;
        let mut counted = vec![false; self.stones.len()];
        for point in 0..self.stones.len() {
            match self.stones[point] {
                Some(Color::Black) => margin += 1,
                Some(Color::White) => margin -= 1,
                None if !counted[point] => {
                    let mut region = vec![point];
                    counted[point] = true;
                    let (mut touches_black, mut touches_white) = (false, false);
                    let mut next = 0;
                    while next < region.len() {
                        for neighbour in self.shape.neighbours(region[next]) {
                            match self.stones[neighbour] {
                                Some(Color::Black) => touches_black = true,
                                Some(Color::White) => touches_white = true,
                                None if !counted[neighbour] => {
                                    counted[neighbour] = true;
                                    region.push(neighbour);
                                }
                                None => {}
                            }
                        }
                        next += 1;
                    }
                    let size = region.len() as i32;
                    match (touches_black, touches_white) {
                        (true, false) => margin += size,
                        (false, true) => margin -= size,
                        _ => {}
                    }
                }
                None => {}
            }
        }
        margin
    }
}

/// The board as text, top row first: `X` Black, `O` White, `.` empty.
impl fmt::Display for GoBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let columns = self.shape.columns;
        let letters: String = COLUMN_LETTERS[..columns]
            .iter()
            .map(|&c| format!(" {}", c as char))
            .collect();
        writeln!(f, "  {letters}")?;
        for row in (0..self.shape.rows).rev() {
            write!(f, "{:>2}", row + 1)?;
            for column in 0..columns {
                let mark = match self.stones[row * columns + column] {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                write!(f, " {mark}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
