//! Board geometry: the shape `RxC`, its points, and sets of points.
//!
//! A `Board` knows only its shape (rows, columns) and how points touch; the
//! stones on it are a `Position` (see `position`). Points are numbered row by
//! row from the lower-left corner, `A1 = 0, B1 = 1, ...`, which is also the
//! tie-break order of the engine (SPEC section 4). A `PointSet` is a bit set of
//! points (bit `p` for point `p`), so the rules can work on whole strings and
//! regions at once with shifts and masks.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Sub};
use std::str::FromStr;

/// The most points a board may have: one bit each in a `u64`.
pub const MAX_POINTS: usize = 64;
/// GTP column letters skip `I`, leaving 25 letters for columns (and rows).
pub const MAX_SIDE: usize = 25;
const COLUMN_LETTERS: &[u8; MAX_SIDE] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// One point of a board, numbered `row * columns + column`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u8);

impl Point {
    pub const fn new(index: usize) -> Point {
        Point(index as u8)
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A set of points of one board, as a bit set.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PointSet(pub u64);

impl PointSet {
    pub const EMPTY: PointSet = PointSet(0);

    pub const fn single(point: Point) -> PointSet {
        PointSet(1 << point.0)
    }

    pub const fn bits(self) -> u64 {
        self.0
    }

    pub const fn contains(self, point: Point) -> bool {
        self.0 >> point.0 & 1 != 0
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn insert(&mut self, point: Point) {
        self.0 |= 1 << point.0;
    }

    pub fn remove(&mut self, point: Point) {
        self.0 &= !(1 << point.0);
    }

    /// The lowest-numbered point, if any.
    pub fn first(self) -> Option<Point> {
        (self.0 != 0).then(|| Point(self.0.trailing_zeros() as u8))
    }

    /// The only point of a one-point set.
    pub fn single_point(self) -> Option<Point> {
        (self.0.count_ones() == 1).then(|| Point(self.0.trailing_zeros() as u8))
    }

    pub fn is_subset_of(self, other: PointSet) -> bool {
        self.0 & !other.0 == 0
    }

    pub fn iter(self) -> PointSetIter {
        PointSetIter(self.0)
    }
}

impl BitAnd for PointSet {
    type Output = PointSet;
    fn bitand(self, rhs: PointSet) -> PointSet {
        PointSet(self.0 & rhs.0)
    }
}

impl BitOr for PointSet {
    type Output = PointSet;
    fn bitor(self, rhs: PointSet) -> PointSet {
        PointSet(self.0 | rhs.0)
    }
}

/// Set difference: the points of `self` that are not in `rhs`.
impl Sub for PointSet {
    type Output = PointSet;
    fn sub(self, rhs: PointSet) -> PointSet {
        PointSet(self.0 & !rhs.0)
    }
}

impl BitAndAssign for PointSet {
    fn bitand_assign(&mut self, rhs: PointSet) {
        self.0 &= rhs.0;
    }
}

impl BitOrAssign for PointSet {
    fn bitor_assign(&mut self, rhs: PointSet) {
        self.0 |= rhs.0;
    }
}

impl fmt::Debug for PointSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(|p| p.0)).finish()
    }
}

/// The points of a set, lowest first.
pub struct PointSetIter(u64);

impl Iterator for PointSetIter {
    type Item = Point;
    fn next(&mut self) -> Option<Point> {
        if self.0 == 0 {
            return None;
        }
        let point = Point(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        Some(point)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for PointSetIter {}

/// Why a board name or size was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardError {
    /// Not of the form `RxC`.
    Syntax(String),
    /// A side of zero, or a side or area over the limits.
    Size { rows: usize, columns: usize },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Syntax(text) => write!(
                f,
                "'{text}' is not a board: expected ROWSxCOLUMNS, for example 3x4"
            ),
            BoardError::Size { rows, columns } => write!(
                f,
                "board {rows}x{columns} is not allowed: each side must be 1 to {MAX_SIDE} \
                 and the board at most {MAX_POINTS} points"
            ),
        }
    }
}

impl std::error::Error for BoardError {}

/// The shape of a board: `rows x columns`, orthogonal adjacency, walls at the
/// edges. Boards order by rows, then columns.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    rows: u8,
    columns: u8,
    all: PointSet,
    /// Points that may receive a neighbour shifted one column right (not in
    /// column A).
    not_first_column: PointSet,
    /// Points that may receive a neighbour shifted one column left (not in the
    /// last column).
    not_last_column: PointSet,
}

impl Board {
    pub fn new(rows: usize, columns: usize) -> Result<Board, BoardError> {
        if rows == 0
            || columns == 0
            || rows > MAX_SIDE
            || columns > MAX_SIDE
            || rows * columns > MAX_POINTS
        {
            return Err(BoardError::Size { rows, columns });
        }
        let points = rows * columns;
        let all = if points == 64 {
            u64::MAX
        } else {
            (1u64 << points) - 1
        };
        let mut first_column = 0u64;
        let mut last_column = 0u64;
        for row in 0..rows {
            first_column |= 1 << (row * columns);
            last_column |= 1 << (row * columns + columns - 1);
        }
        Ok(Board {
            rows: rows as u8,
            columns: columns as u8,
            all: PointSet(all),
            not_first_column: PointSet(all & !first_column),
            not_last_column: PointSet(all & !last_column),
        })
    }

    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    pub fn columns(&self) -> usize {
        self.columns as usize
    }

    /// The number of points, `N = R * C`.
    pub fn points(&self) -> usize {
        self.rows as usize * self.columns as usize
    }

    /// Every point of the board.
    pub fn all(&self) -> PointSet {
        self.all
    }

    pub fn point(&self, row: usize, column: usize) -> Point {
        debug_assert!(row < self.rows() && column < self.columns());
        Point::new(row * self.columns() + column)
    }

    pub fn row(&self, point: Point) -> usize {
        point.index() / self.columns()
    }

    pub fn column(&self, point: Point) -> usize {
        point.index() % self.columns()
    }

    /// The points next to some point of `set` (on the board), not counting
    /// `set` itself unless a point of `set` touches another.
    #[inline]
    pub fn adjacent(&self, set: PointSet) -> PointSet {
        let [from_left, from_right, from_below, from_above] = self.shifted(set);
        PointSet(from_left | from_right | from_below | from_above)
    }

    /// `set` moved one step in each of the four directions (right, left,
    /// up, down), what falls off the board dropped: bit `p` of each is set
    /// when `p`'s neighbour on the left, right, below or above is in `set`.
    /// `set` lies on the board.
    #[inline(always)]
    fn shifted(&self, set: PointSet) -> [u64; 4] {
        debug_assert!(set.is_subset_of(self.all), "a set off the board");
        let bits = set.0;
        let columns = self.columns as u32;
        [
            (bits << 1) & self.not_first_column.0,
            (bits >> 1) & self.not_last_column.0,
            (bits << columns) & self.all.0,
            bits >> columns,
        ]
    }

    /// The points with exactly one neighbour in `set` (whether or not they
    /// are in `set` themselves). Counts the four directions at once with a
    /// bitwise adder, so rules code can test "one liberty" or "one stone of
    /// that kind next to it" for the whole board without a loop over points.
    /// `set` lies on the board.
    #[inline]
    pub fn touching_exactly_one(&self, set: PointSet) -> PointSet {
        let [from_left, from_right, from_below, from_above] = self.shifted(set);
        let horizontal = from_left | from_right;
        let vertical = from_below | from_above;
        let at_least_two =
            (from_left & from_right) | (from_below & from_above) | (horizontal & vertical);
        PointSet((horizontal | vertical) & !at_least_two)
    }

    /// The neighbours of one point.
    #[inline]
    pub fn neighbours(&self, point: Point) -> PointSet {
        self.adjacent(PointSet::single(point))
    }

    /// The points of `within` connected to `seed` through `within`.
    #[inline]
    pub fn flood(&self, seed: PointSet, within: PointSet) -> PointSet {
        let mut filled = seed & within;
        loop {
            let grown = (filled | self.adjacent(filled)) & within;
            if grown == filled {
                return filled;
            }
            filled = grown;
        }
    }

    /// Whether every point of `within` is connected to `seed` through
    /// `within`: `flood(seed, within) == within`, stopping as soon as the
    /// last point is reached.
    #[inline]
    pub fn floods_all(&self, seed: PointSet, within: PointSet) -> bool {
        let mut filled = seed & within;
        loop {
            if filled == within {
                return true;
            }
            let grown = (filled | self.adjacent(filled)) & within;
            if grown == filled {
                return false;
            }
            filled = grown;
        }
    }

    /// The GTP name of a point: column letter (skipping I) and row number.
    pub fn point_name(&self, point: Point) -> String {
        let letter = COLUMN_LETTERS[self.column(point)] as char;
        format!("{letter}{}", self.row(point) + 1)
    }

    /// Reads a GTP vertex such as `c3` or `C3`; `None` if it is not a point of
    /// this board.
    pub fn parse_point(&self, text: &str) -> Option<Point> {
        let text = text.trim();
        let mut chars = text.chars();
        let letter = chars.next()?.to_ascii_uppercase();
        let column = COLUMN_LETTERS.iter().position(|&c| c as char == letter)?;
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let row: usize = digits.parse().ok()?;
        if row == 0 || row > self.rows() || column >= self.columns() {
            return None;
        }
        Some(self.point(row - 1, column))
    }

    /// The name `RxC`, rows first.
    pub fn name(&self) -> String {
        format!("{}x{}", self.rows, self.columns)
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({}x{})", self.rows, self.columns)
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.columns)
    }
}

impl FromStr for Board {
    type Err = BoardError;

    /// Reads `RxC` (rows first), for example `2x7`.
    fn from_str(text: &str) -> Result<Board, BoardError> {
        let syntax = || BoardError::Syntax(text.to_string());
        let (rows, columns) = text.trim().split_once(['x', 'X']).ok_or_else(syntax)?;
        let number = |s: &str| -> Result<usize, BoardError> {
            if s.is_empty() || s.len() > 4 || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            s.parse().map_err(|_| syntax())
        };
        Board::new(number(rows)?, number(columns)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        let board: Board = "2x7".parse().unwrap();
        assert_eq!((board.rows(), board.columns()), (2, 7));
        assert_eq!(board.point_name(Point::new(0)), "A1");
        assert_eq!(board.point_name(Point::new(8)), "B2");
        for point in board.all().iter() {
            let name = board.point_name(point);
            assert_eq!(board.parse_point(&name), Some(point));
            assert_eq!(board.parse_point(&name.to_lowercase()), Some(point));
        }
        assert_eq!(board.parse_point("H1"), None);
        assert_eq!(board.parse_point("A3"), None);
        assert_eq!(board.parse_point("I1"), None);
        assert_eq!(board.parse_point("A0"), None);
    }

    #[test]
    fn bad_names_are_refused() {
        for text in [
            "0x3", "3", "foo", "3x", "x3", "9x9", "1x65", "-1x3", "3x 4x",
        ] {
            assert!(text.parse::<Board>().is_err(), "{text}");
        }
        assert!("8x8".parse::<Board>().is_ok());
        assert!("1x20".parse::<Board>().is_ok());
    }

    /// `touching_exactly_one` against counting neighbours point by point,
    /// on every set of points of small boards and random sets of larger ones.
    #[test]
    fn exactly_one_neighbour_matches_counting() {
        let check = |board: &Board, set: PointSet| {
            let counted = board
                .all()
                .iter()
                .filter(|&point| (board.neighbours(point) & set).len() == 1)
                .fold(PointSet::EMPTY, |found, point| {
                    found | PointSet::single(point)
                });
            assert_eq!(board.touching_exactly_one(set), counted, "{board}: {set:?}");
        };
        for name in ["1x1", "1x4", "2x2", "2x3", "3x3", "3x4", "4x3"] {
            let board: Board = name.parse().unwrap();
            for bits in 0..1u64 << board.points() {
                check(&board, PointSet(bits));
            }
        }
        let mut rng = crate::testing::Rng::new(0x0e_1ab0);
        for name in ["4x4", "5x5", "2x9", "7x9", "8x8", "3x21", "1x25"] {
            let board: Board = name.parse().unwrap();
            for _ in 0..10_000 {
                check(&board, PointSet(rng.next_u64() & board.all().bits()));
            }
        }
    }

    /// `floods_all`, which stops once every point is reached, against a
    /// whole `flood`: every seed and set of small boards, random ones of
    /// larger boards.
    #[test]
    fn floods_all_agrees_with_a_whole_flood() {
        let check = |board: &Board, seed: PointSet, within: PointSet| {
            assert_eq!(
                board.floods_all(seed, within),
                board.flood(seed, within) == within,
                "{board}: {seed:?} in {within:?}"
            );
        };
        for name in ["1x4", "2x2", "2x3", "3x3"] {
            let board: Board = name.parse().unwrap();
            for within in 0..1u64 << board.points() {
                for seed in 0..1u64 << board.points() {
                    check(&board, PointSet(seed), PointSet(within));
                }
            }
        }
        let mut rng = crate::testing::Rng::new(0xf1_00d5);
        for name in ["4x4", "3x7", "2x10", "5x5"] {
            let board: Board = name.parse().unwrap();
            for _ in 0..20_000 {
                let within = rng.next_u64() & board.all().bits();
                let seed = rng.next_u64() & rng.next_u64() & board.all().bits();
                check(&board, PointSet(seed), PointSet(within));
            }
        }
    }

    #[test]
    fn adjacency_respects_walls() {
        let board = Board::new(3, 3).unwrap();
        let corner = board.neighbours(board.point(0, 0));
        assert_eq!(corner, PointSet(0b1010));
        let right_edge = board.neighbours(board.point(1, 2));
        let expected = [board.point(0, 2), board.point(2, 2), board.point(1, 1)]
            .into_iter()
            .fold(PointSet::EMPTY, |s, p| s | PointSet::single(p));
        assert_eq!(right_edge, expected);
        let line = Board::new(1, 5).unwrap();
        assert_eq!(
            line.neighbours(Point::new(4)),
            PointSet::single(Point::new(3))
        );
    }
}
