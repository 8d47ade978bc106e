//! Board geometry: the shape `RxC`, its topology, its points, and sets of
//! points.
//!
//! A `Board` knows only its shape (rows, columns), its topology and how points
//! touch; the stones on it are a `Position` (see `position`). A plain board has
//! walls at every edge; a circular one (the reference work's section 5.4, named
//! `RxCc`) joins the first and last columns of each row, so that its rows are
//! rings and the board a cylinder. Points are numbered row by row from the
//! lower-left corner, `A1 = 0, B1 = 1, ...`, which is also the tie-break order
//! of the engine (`docs/rules.md#how-the-engine-picks-a-move`). A `PointSet` is
//! a bit set of points (bit `p` for point `p`), so the rules can work on whole
//! strings and regions at once with shifts and masks.
//!
//! A board of any shape (`Topology::Shape`, see `shape` and docs/shapes.md)
//! is a set of cells of a grid of up to 25 a side, each a point, a wall or
//! an open cell, named by its diagram (`..#/...`); its points are numbered
//! the same way over the cells that are points, and its adjacency comes
//! from a table of neighbours per point instead of shifts. A point's side
//! towards an open cell is a liberty that can never be filled
//! (`Board::open`).

// A probe-only build (no feature `solver`) leaves what only the solver and the engine use unused.
#![cfg_attr(not(feature = "solver"), allow(dead_code))]

use std::fmt;
use std::hash::{Hash, Hasher};
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
    pub(crate) const fn new(index: usize) -> Point {
        Point(index as u8)
    }

    /// The point's number: `row * columns + column`, rows counted from the
    /// top and columns from the left, from 0.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A set of points of one board, as a bit set.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PointSet(pub u64);

impl PointSet {
    pub const EMPTY: PointSet = PointSet(0);

    pub(crate) const fn single(point: Point) -> PointSet {
        PointSet(1 << point.0)
    }

    pub(crate) const fn bits(self) -> u64 {
        self.0
    }

    pub(crate) const fn contains(self, point: Point) -> bool {
        self.0 >> point.0 & 1 != 0
    }

    pub(crate) const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub(crate) const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub(crate) fn insert(&mut self, point: Point) {
        self.0 |= 1 << point.0;
    }

    pub(crate) fn remove(&mut self, point: Point) {
        self.0 &= !(1 << point.0);
    }

    /// The lowest-numbered point, if any.
    pub(crate) fn first(self) -> Option<Point> {
        (self.0 != 0).then(|| Point(self.0.trailing_zeros() as u8))
    }

    /// The only point of a one-point set.
    pub(crate) fn single_point(self) -> Option<Point> {
        (self.0.count_ones() == 1).then(|| Point(self.0.trailing_zeros() as u8))
    }

    pub(crate) fn is_subset_of(self, other: PointSet) -> bool {
        self.0 & !other.0 == 0
    }

    pub(crate) fn iter(self) -> PointSetIter {
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

/// How the edges of a board meet. Plain comes first in the order of boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Topology {
    /// Walls at every edge.
    Plain,
    /// The first column of each row neighbours the last column of the same
    /// row (a cylinder); rows do not wrap.
    Circular,
    /// Any set of points of a grid, with walls and open sides (`Shape`).
    Shape,
}

impl Topology {
    /// The letter after `RxC` in a board's name: none, or `c`.
    pub(crate) fn suffix(self) -> &'static str {
        match self {
            Topology::Plain => "",
            Topology::Circular => "c",
            Topology::Shape => "s",
        }
    }

    /// The word for it: `plain` or `circular`.
    pub(crate) fn word(self) -> &'static str {
        match self {
            Topology::Plain => "plain",
            Topology::Circular => "circular",
            Topology::Shape => "shape",
        }
    }

    /// The version of smallgo's file formats that holds a board of this
    /// topology: 1 for a plain board, as the first formats were written,
    /// 2 for a circular one, whose files name their topology, and 3 for a
    /// shape, whose files hold its diagram. Table headers and a build's
    /// checkpoints both record it.
    pub(crate) const fn format_version(self) -> u32 {
        match self {
            Topology::Plain => 1,
            Topology::Circular => 2,
            Topology::Shape => 3,
        }
    }
}

/// Why a board name or size was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BoardError {
    /// Not of the form `RxC` or `RxCc`.
    Syntax(String),
    /// A side of zero, or a side or area over the limits.
    Size {
        /// The rows asked for.
        rows: usize,
        /// The columns asked for.
        columns: usize,
    },
    /// A diagram of a shape that is not one: what is wrong with it.
    Shape(String),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Syntax(text) => write!(
                f,
                "'{text}' is not a board: expected ROWSxCOLUMNS, for example 3x4, \
                 ROWSxCOLUMNSc for a circular one, for example 2x7c, or the diagram \
                 of a shape, rows from the top separated by /, . a point, # a wall, \
                 + an open cell, for example ..#/..., or a board piece, \
                 ROWSxCOLUMNS-open, -edge, -corner or -closed, for example 3x3-edge"
            ),
            BoardError::Size { rows, columns } => write!(
                f,
                "board {rows}x{columns} is not allowed: each side must be 1 to {MAX_SIDE} \
                 and the board at most {MAX_POINTS} points"
            ),
            BoardError::Shape(why) => write!(f, "not a board shape: {why}"),
        }
    }
}

impl std::error::Error for BoardError {}

/// The shape of a board: `rows x columns` and its topology, orthogonal
/// adjacency. Boards order by rows, then columns, then topology (plain
/// first), then (shapes) by their diagrams.
///
/// Adjacency is a set: on a circular board of at least three columns the
/// first and last points of each row are neighbours; with one or two
/// columns they already are (or are one point), so such a board has the
/// plain board's adjacency. A shape's rows and columns are its grid's.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    rows: u8,
    columns: u8,
    topology: Topology,
    all: PointSet,
    /// Points that may receive a neighbour shifted one column right (not in
    /// column A).
    not_first_column: PointSet,
    /// Points that may receive a neighbour shifted one column left (not in the
    /// last column).
    not_last_column: PointSet,
    /// Points that receive the neighbour across the seam from the last
    /// column: column A on a circular board of at least three columns,
    /// none on other rectangles. On a shape, every point: its one test
    /// then sends both circular boards and shapes off the plain boards'
    /// path (see `adjacent`).
    wrap_first_column: PointSet,
    /// Points that receive the neighbour across the seam from column A: the
    /// last column on a circular board of at least three columns,
    /// none otherwise.
    wrap_last_column: PointSet,
    /// The points with an open side (a liberty nothing fills): none but on
    /// a shape with open cells.
    open: PointSet,
    /// A shape's geometry (its neighbours come from it instead of shifts);
    /// `None` on plain and circular boards.
    shape: Option<Shape>,
}

impl Board {
    /// A plain board: walls at every edge.
    pub fn new(rows: usize, columns: usize) -> Result<Board, BoardError> {
        Board::with_topology(rows, columns, Topology::Plain)
    }

    /// A circular board: the rows are rings.
    pub fn circular(rows: usize, columns: usize) -> Result<Board, BoardError> {
        Board::with_topology(rows, columns, Topology::Circular)
    }

    /// A plain or circular board; a shape needs its diagram (`Board::shape`).
    pub(crate) fn with_topology(
        rows: usize,
        columns: usize,
        topology: Topology,
    ) -> Result<Board, BoardError> {
        if topology == Topology::Shape {
            return Err(BoardError::Shape(
                "a shape is named by its diagram, not by its size".to_string(),
            ));
        }
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
        let wraps = topology == Topology::Circular && columns >= 3;
        let seam = |column: u64| if wraps { column } else { 0 };
        Ok(Board {
            rows: rows as u8,
            columns: columns as u8,
            topology,
            all: PointSet(all),
            not_first_column: PointSet(all & !first_column),
            not_last_column: PointSet(all & !last_column),
            wrap_first_column: PointSet(seam(first_column)),
            wrap_last_column: PointSet(seam(last_column)),
            open: PointSet::EMPTY,
            shape: None,
        })
    }

    /// The board a shape's diagram describes (see `shape`): rows from the
    /// top separated by `/`, `.` a point, `#` a wall, `+` an open cell. A
    /// diagram that is a whole rectangle of points is that plain board.
    pub fn shape(diagram: &str) -> Result<Board, BoardError> {
        let geometry = match ShapeGeometry::parse(diagram)? {
            Parsed::Rectangle { rows, columns } => return Board::new(rows, columns),
            Parsed::Shape(geometry) => geometry,
        };
        let shape = Shape::intern(geometry);
        let geometry = shape.0;
        Ok(Board {
            rows: geometry.rows as u8,
            columns: geometry.columns as u8,
            topology: Topology::Shape,
            all: geometry.all,
            not_first_column: PointSet::EMPTY,
            not_last_column: PointSet::EMPTY,
            wrap_first_column: geometry.all,
            wrap_last_column: PointSet::EMPTY,
            open: geometry.open,
            shape: Some(shape),
        })
    }

    /// The piece of `rows` by `columns` points of kind `kind`
    /// (`PieceKind`, docs/pieces.md): a shape with open cells along its
    /// open sides, or the plain board when every side is closed.
    pub(crate) fn piece(rows: usize, columns: usize, kind: PieceKind) -> Result<Board, BoardError> {
        if rows == 0 || columns == 0 || rows * columns > MAX_POINTS {
            return Err(BoardError::Size { rows, columns });
        }
        if kind == PieceKind::Closed {
            return Board::new(rows, columns);
        }
        if rows + 2 > MAX_SIDE || columns + 2 > MAX_SIDE {
            return Err(BoardError::Size { rows, columns });
        }
        Board::shape(&kind.diagram(rows, columns))
    }

    /// The piece this board is, if it is one: its rows, columns and kind.
    /// A plain board is the closed piece of its size; a shape is a piece
    /// when its diagram is one's.
    pub(crate) fn as_piece(&self) -> Option<(usize, usize, PieceKind)> {
        let shape = match self.shape {
            None if self.topology == Topology::Plain => {
                return Some((self.rows(), self.columns(), PieceKind::Closed))
            }
            None => return None,
            Some(shape) => shape.0,
        };
        let (rows, columns) = (shape.rows, shape.columns);
        [
            (PieceKind::Open, 2, 2),
            (PieceKind::Edge, 1, 2),
            (PieceKind::Corner, 1, 1),
        ]
        .into_iter()
        .filter(|&(_, less_rows, less_columns)| rows > less_rows && columns > less_columns)
        .map(|(kind, less_rows, less_columns)| (rows - less_rows, columns - less_columns, kind))
        .find(|&(rows, columns, kind)| {
            Board::piece(rows, columns, kind).is_ok_and(|piece| piece == *self)
        })
    }

    /// The piece's name `RxC-KIND` if the board is a piece (see
    /// `as_piece`), else the board's own name.
    pub(crate) fn piece_name(&self) -> String {
        match self.as_piece() {
            Some((rows, columns, kind)) => format!("{rows}x{columns}-{}", kind.word()),
            None => self.name(),
        }
    }

    /// The shape's geometry, if the board is a shape.
    pub(crate) fn shape_geometry(&self) -> Option<&'static ShapeGeometry> {
        self.shape.map(|shape| shape.0)
    }

    /// The points with an open side: a liberty that no stone can fill, so
    /// that a string with such a stone is never captured, and an empty
    /// region with such a point belongs to neither side. Empty but on a
    /// shape with open cells.
    #[inline(always)]
    pub(crate) fn open(&self) -> PointSet {
        self.open
    }

    /// The same board with an open side given to each of `points` (points
    /// of the board; others are ignored) besides those it has. A
    /// life-and-death problem marks so the safe stones it takes into its
    /// board beside its region: a string holding one is never captured.
    /// The board's name and diagram do not show these open sides, so such
    /// a board is for problems only and has no table.
    pub(crate) fn with_open_points(mut self, points: PointSet) -> Board {
        self.open |= points & self.all;
        self
    }

    /// The name of the board's table file before its extension: the name
    /// (`2x7`, `2x7c`), or for a shape `shape-` and a stable hash of its
    /// diagram, which holds `/` and may be long.
    pub fn file_stem(&self) -> String {
        match self.shape {
            Some(shape) => shape.0.stem.clone(),
            None => self.name(),
        }
    }

    pub(crate) fn topology(&self) -> Topology {
        self.topology
    }

    /// Whether the columns wrap: the first and last columns are neighbours.
    pub fn is_circular(&self) -> bool {
        self.topology == Topology::Circular
    }

    /// Whether the seam adds neighbours: a circular board of at least three
    /// columns. A circular board of one or two columns has the adjacency of
    /// its plain board, and plays as it.
    pub(crate) fn wraps(&self) -> bool {
        self.shape.is_none() && !self.wrap_first_column.is_empty()
    }

    /// The plain board of the same shape (of a shape: of its grid).
    pub(crate) fn plain(&self) -> Board {
        Board::new(self.rows(), self.columns()).unwrap_or(*self)
    }

    /// The board with rows and columns exchanged, whose table serves this
    /// one with every state turned: `None` for a square board (it is its
    /// own), for a circular board (turning a cylinder would make its
    /// columns wrap instead of its rows: another board) and for a shape
    /// (its table serves it alone).
    pub(crate) fn turned(&self) -> Option<Board> {
        if self.rows == self.columns || self.topology != Topology::Plain {
            return None;
        }
        Board::new(self.columns(), self.rows()).ok()
    }

    /// The number of rows.
    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    /// The number of columns.
    pub fn columns(&self) -> usize {
        self.columns as usize
    }

    /// The number of points, `N = R * C` (of a shape, its points).
    #[inline]
    pub fn points(&self) -> usize {
        self.all.len()
    }

    /// Every point of the board.
    pub(crate) fn all(&self) -> PointSet {
        self.all
    }

    /// The point at `row` (from the top) and `column` (from the left), from 0.
    /// On a shape the cell must be a point (see `point_at`).
    pub fn point(&self, row: usize, column: usize) -> Point {
        debug_assert!(row < self.rows() && column < self.columns());
        match self.shape {
            Some(_) => self
                .point_at(row, column)
                .expect("a cell of the shape that is a point"),
            None => Point::new(row * self.columns() + column),
        }
    }

    /// The point at `row` and `column` of the grid, if that cell is one.
    pub(crate) fn point_at(&self, row: usize, column: usize) -> Option<Point> {
        if row >= self.rows() || column >= self.columns() {
            return None;
        }
        match self.shape {
            Some(shape) => shape.0.cell_points[row * self.columns() + column],
            None => Some(Point::new(row * self.columns() + column)),
        }
    }

    /// The row of `point`, from the top, from 0.
    pub fn row(&self, point: Point) -> usize {
        match self.shape {
            Some(shape) => shape.0.cells_of_points[point.index()] as usize / self.columns(),
            None => point.index() / self.columns(),
        }
    }

    /// The column of `point`, from the left, from 0.
    pub fn column(&self, point: Point) -> usize {
        match self.shape {
            Some(shape) => shape.0.cells_of_points[point.index()] as usize % self.columns(),
            None => point.index() % self.columns(),
        }
    }

    /// The points next to some point of `set` (on the board), not counting
    /// `set` itself unless a point of `set` touches another.
    #[inline]
    pub(crate) fn adjacent(&self, set: PointSet) -> PointSet {
        // A branch the same way for the whole of a board's work, on the
        // mask the seam's branch tests (see `shifted`): plain boards take
        // their shifts past one test, as they always did.
        if self.wrap_first_column.0 != 0 {
            if let Some(shape) = self.shape {
                return shape.0.adjacent(set);
            }
        }
        let [from_left, from_right, from_below, from_above] = self.shifted(set);
        PointSet(from_left | from_right | from_below | from_above)
    }

    /// `set` moved one step in each of the four directions (right, left,
    /// up, down), what falls off the board dropped: bit `p` of each is set
    /// when `p`'s neighbour on the left, right, below or above is in `set`.
    /// Across the seam of a circular board, the last column is on the left
    /// of column A and column A on the right of the last column (the wrap
    /// masks are empty on other boards, so that no neighbour counts twice).
    /// `set` lies on the board.
    #[inline(always)]
    fn shifted(&self, set: PointSet) -> [u64; 4] {
        debug_assert!(set.is_subset_of(self.all), "a set off the board");
        let bits = set.0;
        let columns = self.columns as u32;
        let mut shifted = [
            (bits << 1) & self.not_first_column.0,
            (bits >> 1) & self.not_last_column.0,
            (bits << columns) & self.all.0,
            bits >> columns,
        ];
        // A branch the same way for the whole of a board's work, which
        // compilers can take out of loops: plain boards pay nothing for
        // the seam.
        if self.wrap_first_column.0 != 0 {
            let seam = columns - 1;
            shifted[0] |= (bits >> seam) & self.wrap_first_column.0;
            shifted[1] |= (bits << seam) & self.wrap_last_column.0;
        }
        shifted
    }

    /// The points with exactly one neighbour in `set` (whether or not they
    /// are in `set` themselves). Counts the four directions at once with a
    /// bitwise adder, so rules code can test "one liberty" or "one stone of
    /// that kind next to it" for the whole board without a loop over points.
    /// `set` lies on the board.
    #[inline]
    pub(crate) fn touching_exactly_one(&self, set: PointSet) -> PointSet {
        if self.wrap_first_column.0 != 0 {
            if let Some(shape) = self.shape {
                return shape.0.touching_exactly_one(set);
            }
        }
        let [from_left, from_right, from_below, from_above] = self.shifted(set);
        let horizontal = from_left | from_right;
        let vertical = from_below | from_above;
        let at_least_two =
            (from_left & from_right) | (from_below & from_above) | (horizontal & vertical);
        PointSet((horizontal | vertical) & !at_least_two)
    }

    /// The neighbours of one point.
    #[inline]
    pub(crate) fn neighbours(&self, point: Point) -> PointSet {
        self.adjacent(PointSet::single(point))
    }

    /// The points of `within` connected to `seed` through `within`.
    #[inline]
    pub(crate) fn flood(&self, seed: PointSet, within: PointSet) -> PointSet {
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
    pub(crate) fn floods_all(&self, seed: PointSet, within: PointSet) -> bool {
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

    /// The letter of a column, as GTP writes it (`I` skipped).
    pub(crate) fn column_letter(column: usize) -> char {
        COLUMN_LETTERS[column] as char
    }

    /// Reads a GTP vertex: a column letter in either case (I skipped) and a
    /// row number, such as `c3` or `C3`. `None` if the text is not written
    /// so (a row number past `u32` included); `Some(None)` if it is but
    /// names no point of this board (row 0, or past an edge).
    pub(crate) fn parse_vertex(&self, text: &str) -> Option<Option<Point>> {
        let mut chars = text.chars();
        let letter = chars.next()?.to_ascii_uppercase();
        let column = COLUMN_LETTERS.iter().position(|&c| c as char == letter)?;
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let row = digits.parse::<u32>().ok()? as usize;
        Some(
            row.checked_sub(1)
                .and_then(|row| self.point_at(row, column)),
        )
    }

    /// The point a GTP vertex such as `c3` or `C3` names on this board;
    /// `None` if the text is not a vertex or the point is off the board.
    pub fn parse_point(&self, text: &str) -> Option<Point> {
        self.parse_vertex(text).flatten()
    }

    /// The name `RxC`, rows first, with `c` after it for a circular board
    /// (`2x7c`); a shape's diagram (`..#/...`).
    pub fn name(&self) -> String {
        self.to_string()
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({self})")
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(shape) = self.shape {
            return f.write_str(shape.0.diagram());
        }
        write!(
            f,
            "{}x{}{}",
            self.rows,
            self.columns,
            self.topology.suffix()
        )
    }
}

impl FromStr for Board {
    type Err = BoardError;

    /// Reads `RxC` (rows first), for example `2x7`, `RxCc` for a
    /// circular board, for example `2x7c`, or a shape's diagram, for
    /// example `..#/...` (see `Board::shape`), or a board piece
    /// `RxC-open`, `RxC-edge`, `RxC-corner` or `RxC-closed` (see
    /// `Board::piece`), or the file stem of a shape already named in this
    /// process (`shape-3f9a1c2e`).
    fn from_str(text: &str) -> Result<Board, BoardError> {
        let syntax = || BoardError::Syntax(text.to_string());
        let text = text.trim();
        if !text.is_empty() && text.bytes().all(|b| SHAPE_ALPHABET.contains(&b)) {
            return Board::shape(text);
        }
        if let Some(board) = Shape::named(text) {
            return Ok(board);
        }
        if let Some((size, kind)) = text.rsplit_once('-') {
            let kind = PieceKind::parse(kind).ok_or_else(syntax)?;
            let board: Board = size.parse().map_err(|_| syntax())?;
            if board.topology() != Topology::Plain {
                return Err(syntax());
            }
            return Board::piece(board.rows(), board.columns(), kind);
        }
        let (rows, columns) = text.trim().split_once(['x', 'X']).ok_or_else(syntax)?;
        let (columns, topology) = match columns.strip_suffix(['c', 'C']) {
            Some(columns) => (columns, Topology::Circular),
            None => (columns, Topology::Plain),
        };
        let number = |s: &str| -> Result<usize, BoardError> {
            if s.is_empty() || s.len() > 4 || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            s.parse().map_err(|_| syntax())
        };
        Board::with_topology(number(rows)?, number(columns)?, topology)
    }
}

/// The kinds of board pieces (after Bouzy, *Go patterns generated by
/// retrograde analysis*): a rectangle cut out of a larger board, whose
/// sides are either the larger board's edge (closed, walls) or lead on
/// into it (open cells). Named `RxC-KIND` (docs/pieces.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum PieceKind {
    /// Every side open: a piece from the middle of the board.
    Open,
    /// The bottom side (row 1) closed, the three others open.
    Edge,
    /// The bottom and left sides (row 1 and column A) closed, meeting at
    /// A1, the top and right sides open.
    Corner,
    /// Every side closed: the plain board `RxC`.
    Closed,
}

impl PieceKind {
    /// Every kind, from the most open.
    pub(crate) const ALL: [PieceKind; 4] = [
        PieceKind::Open,
        PieceKind::Edge,
        PieceKind::Corner,
        PieceKind::Closed,
    ];

    /// The kind named by the word after `RxC-`.
    pub(crate) fn parse(word: &str) -> Option<PieceKind> {
        PieceKind::ALL
            .into_iter()
            .find(|kind| kind.word().eq_ignore_ascii_case(word))
    }

    /// The word after `RxC-`: `open`, `edge`, `corner` or `closed`.
    pub(crate) fn word(self) -> &'static str {
        match self {
            PieceKind::Open => "open",
            PieceKind::Edge => "edge",
            PieceKind::Corner => "corner",
            PieceKind::Closed => "closed",
        }
    }

    /// Which sides of the piece are open: top, bottom, left, right.
    fn open_sides(self) -> [bool; 4] {
        match self {
            PieceKind::Open => [true, true, true, true],
            PieceKind::Edge => [true, false, true, true],
            PieceKind::Corner => [true, false, false, true],
            PieceKind::Closed => [false, false, false, false],
        }
    }

    /// The diagram of the piece of `rows` by `columns` points of this
    /// kind: the rectangle of points with a row or column of open cells
    /// along each open side (not canonical: `Board::shape` makes it so).
    pub(crate) fn diagram(self, rows: usize, columns: usize) -> String {
        let [top, bottom, left, right] = self.open_sides();
        let side = |open: bool| if open { '+' } else { '#' };
        let edge_row = |open: bool| {
            let mut line = String::from('#');
            line.extend(std::iter::repeat_n(side(open), columns));
            line.push('#');
            line
        };
        let mut lines = vec![edge_row(top)];
        for _ in 0..rows {
            let mut line = String::from(side(left));
            line.extend(std::iter::repeat_n('.', columns));
            line.push(side(right));
            lines.push(line);
        }
        lines.push(edge_row(bottom));
        lines.join("/")
    }
}

/// The characters of a shape's diagram: `.` a point, `#` a wall, `+` an
/// open cell, `/` between rows.
const SHAPE_ALPHABET: &[u8] = b".#+/";
/// The longest diagram read: a grid of `MAX_SIDE` a side and its row
/// separators, with room for walls around it.
pub(crate) const MAX_DIAGRAM: usize = 4096;

/// What a cell of a shape's grid is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cell {
    /// A point of the board.
    Point,
    /// No point, and no liberty to a point next to it: the board's edge, or
    /// the edge of a problem's region (stones outside the region that are
    /// safe are walls too).
    Wall,
    /// No point, but a liberty that never fills to each point next to it.
    Open,
}

impl Cell {
    fn letter(self) -> char {
        match self {
            Cell::Point => '.',
            Cell::Wall => '#',
            Cell::Open => '+',
        }
    }
}

/// The geometry of a shape, made once per distinct shape and kept for the
/// life of the process (`Shape::intern`).
pub(crate) struct ShapeGeometry {
    /// The canonical diagram: rows from the top separated by `/`, open cells
    /// next to no point written as walls, rows and columns of walls around
    /// the points removed.
    diagram: String,
    /// The table file's stem: `shape-` and the diagram's hash.
    stem: String,
    rows: usize,
    columns: usize,
    /// The cells row by row from the bottom, as points are numbered.
    cells: Vec<Cell>,
    /// The point of each cell that is one.
    cell_points: Vec<Option<Point>>,
    /// The cell (`row * columns + column`) of each point.
    cells_of_points: Vec<u16>,
    /// Each point's neighbours, bit sets.
    neighbours: [u64; MAX_POINTS],
    all: PointSet,
    open: PointSet,
}

/// A diagram read: a whole rectangle of points, or a shape.
enum Parsed {
    Rectangle { rows: usize, columns: usize },
    Shape(Box<ShapeGeometry>),
}

impl ShapeGeometry {
    fn parse(text: &str) -> Result<Parsed, BoardError> {
        let fault = |why: String| BoardError::Shape(why);
        if text.len() > MAX_DIAGRAM {
            return Err(fault(format!(
                "a diagram of {} characters (at most {MAX_DIAGRAM})",
                text.len()
            )));
        }
        // Rows from the top, as written.
        let mut grid: Vec<Vec<Cell>> = Vec::new();
        for (number, line) in text.split('/').enumerate() {
            let mut row = Vec::new();
            for letter in line.chars() {
                row.push(match letter {
                    '.' => Cell::Point,
                    '#' => Cell::Wall,
                    '+' => Cell::Open,
                    other => {
                        return Err(fault(format!(
                            "row {} has '{other}', not . (point), # (wall) or + (open)",
                            number + 1
                        )))
                    }
                });
            }
            if let Some(first) = grid.first() {
                if first.len() != row.len() {
                    return Err(fault(format!(
                        "row {} has {} cells, row 1 has {}",
                        number + 1,
                        row.len(),
                        first.len()
                    )));
                }
            }
            grid.push(row);
        }
        let height = grid.len();
        let width = grid[0].len();
        let is_point = |r: isize, c: isize| {
            r >= 0
                && c >= 0
                && (r as usize) < height
                && (c as usize) < width
                && grid[r as usize][c as usize] == Cell::Point
        };
        // An open cell next to no point changes nothing: a wall.
        let mut cleaned = grid.clone();
        for (r, row) in cleaned.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                let (r, c) = (r as isize, c as isize);
                let touches = is_point(r - 1, c)
                    || is_point(r + 1, c)
                    || is_point(r, c - 1)
                    || is_point(r, c + 1);
                if *cell == Cell::Open && !touches {
                    *cell = Cell::Wall;
                }
            }
        }
        // The rows and columns that hold a point or an open cell.
        let used = |cell: &Cell| *cell != Cell::Wall;
        let used_rows: Vec<usize> = (0..height)
            .filter(|&r| cleaned[r].iter().any(used))
            .collect();
        let used_columns: Vec<usize> = (0..width)
            .filter(|&c| cleaned.iter().any(|row| used(&row[c])))
            .collect();
        let (Some(&top), Some(&bottom)) = (used_rows.first(), used_rows.last()) else {
            return Err(fault("no point".to_string()));
        };
        let (left, right) = (used_columns[0], used_columns[used_columns.len() - 1]);
        let (rows, columns) = (bottom - top + 1, right - left + 1);
        if rows > MAX_SIDE || columns > MAX_SIDE {
            return Err(fault(format!(
                "a grid of {rows}x{columns} cells (at most {MAX_SIDE} a side)"
            )));
        }
        // Row 0 is the bottom row, as points are numbered.
        let cells: Vec<Cell> = (0..rows)
            .flat_map(|row| {
                let line = &cleaned[bottom - row];
                line[left..=right].to_vec()
            })
            .collect();
        let points = cells.iter().filter(|&&cell| cell == Cell::Point).count();
        if points == 0 {
            return Err(fault("no point".to_string()));
        }
        if points > MAX_POINTS {
            return Err(fault(format!("{points} points (at most {MAX_POINTS})")));
        }
        if points == rows * columns {
            return Ok(Parsed::Rectangle { rows, columns });
        }
        Ok(Parsed::Shape(Box::new(ShapeGeometry::of_cells(
            rows, columns, cells,
        ))))
    }

    /// The geometry of a grid's cells (row by row from the bottom), at most
    /// `MAX_POINTS` of them points.
    fn of_cells(rows: usize, columns: usize, cells: Vec<Cell>) -> ShapeGeometry {
        let mut cell_points = vec![None; cells.len()];
        let mut cells_of_points = Vec::new();
        for (at, cell) in cells.iter().enumerate() {
            if *cell == Cell::Point {
                cell_points[at] = Some(Point::new(cells_of_points.len()));
                cells_of_points.push(at as u16);
            }
        }
        let mut neighbours = [0u64; MAX_POINTS];
        let mut open = PointSet::EMPTY;
        for (point, &at) in cells_of_points.iter().enumerate() {
            let (row, column) = (at as usize / columns, at as usize % columns);
            let mut sides = Vec::with_capacity(4);
            if row > 0 {
                sides.push(at as usize - columns);
            }
            if row + 1 < rows {
                sides.push(at as usize + columns);
            }
            if column > 0 {
                sides.push(at as usize - 1);
            }
            if column + 1 < columns {
                sides.push(at as usize + 1);
            }
            for side in sides {
                match cells[side] {
                    Cell::Point => {
                        let next = cell_points[side].expect("a point cell has a point");
                        neighbours[point] |= 1 << next.index();
                    }
                    Cell::Open => open.insert(Point::new(point)),
                    Cell::Wall => {}
                }
            }
        }
        let count = cells_of_points.len();
        let all = PointSet(if count == 64 {
            u64::MAX
        } else {
            (1u64 << count) - 1
        });
        let diagram = (0..rows)
            .rev()
            .map(|row| {
                cells[row * columns..(row + 1) * columns]
                    .iter()
                    .map(|cell| cell.letter())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/");
        let stem = format!("shape-{:016x}", stable_hash(diagram.as_bytes()));
        ShapeGeometry {
            diagram,
            stem,
            rows,
            columns,
            cells,
            cell_points,
            cells_of_points,
            neighbours,
            all,
            open,
        }
    }

    /// The cell at `row` (from the bottom) and `column`, from 0.
    pub(crate) fn cell(&self, row: usize, column: usize) -> Cell {
        self.cells[row * self.columns + column]
    }

    /// The canonical diagram.
    pub(crate) fn diagram(&self) -> &str {
        &self.diagram
    }

    /// The neighbours of the points of `set`, from the table.
    #[inline]
    fn adjacent(&self, set: PointSet) -> PointSet {
        let mut bits = set.0;
        let mut adjacent = 0;
        while bits != 0 {
            adjacent |= self.neighbours[bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        PointSet(adjacent)
    }

    /// The points with exactly one neighbour in `set`: those reached once
    /// and not twice.
    #[inline]
    fn touching_exactly_one(&self, set: PointSet) -> PointSet {
        let mut bits = set.0;
        let (mut once, mut twice) = (0u64, 0u64);
        while bits != 0 {
            let next = self.neighbours[bits.trailing_zeros() as usize];
            twice |= once & next;
            once |= next;
            bits &= bits - 1;
        }
        PointSet(once & !twice)
    }
}

/// FNV-1a, 64 bits: a hash that stays the same from build to build, for
/// the file names of shapes' tables.
fn stable_hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A shape of the process's registry: one geometry per distinct diagram,
/// so that two handles are the same shape exactly when they are the same
/// reference. They compare, order and hash by their diagrams.
#[derive(Clone, Copy)]
pub(crate) struct Shape(&'static ShapeGeometry);

/// Every shape made so far. A shape's geometry is leaked once, when its
/// diagram is first read, so that boards can hold a reference and stay
/// small and `Copy`; a process names few shapes.
static SHAPES: std::sync::Mutex<Vec<&'static ShapeGeometry>> = std::sync::Mutex::new(Vec::new());

impl Shape {
    /// The registry's shape of `geometry`'s diagram, added if new.
    fn intern(geometry: Box<ShapeGeometry>) -> Shape {
        let mut shapes = SHAPES
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(&known) = shapes.iter().find(|s| s.diagram == geometry.diagram) {
            return Shape(known);
        }
        let leaked: &'static ShapeGeometry = Box::leak(geometry);
        shapes.push(leaked);
        Shape(leaked)
    }

    /// The board of the shape whose file stem is `stem`, if one was named.
    fn named(stem: &str) -> Option<Board> {
        if !stem.starts_with("shape-") {
            return None;
        }
        let diagram = {
            let shapes = SHAPES
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            shapes.iter().find(|s| s.stem == stem)?.diagram.clone()
        };
        Board::shape(&diagram).ok()
    }
}

impl PartialEq for Shape {
    fn eq(&self, other: &Shape) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Shape {}

impl Hash for Shape {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.diagram.hash(state);
    }
}

impl PartialOrd for Shape {
    fn partial_cmp(&self, other: &Shape) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Shape {
    fn cmp(&self, other: &Shape) -> std::cmp::Ordering {
        self.0.diagram.cmp(&other.0.diagram)
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
        assert_eq!(board.parse_vertex("H1"), Some(None));
        assert_eq!(board.parse_vertex("A0"), Some(None));
        assert_eq!(board.parse_vertex("A99999999999"), None);
        assert_eq!(board.parse_vertex("I1"), None);
        assert_eq!(board.parse_vertex(" A1"), None);
        assert_eq!(board.parse_vertex("A"), None);
        assert_eq!(board.parse_vertex("11"), None);
    }

    #[test]
    fn circular_names_round_trip() {
        let board: Board = "2x7c".parse().unwrap();
        assert_eq!((board.rows(), board.columns()), (2, 7));
        assert_eq!(board.topology(), Topology::Circular);
        assert_eq!(board.name(), "2x7c");
        assert_eq!(board.to_string(), "2x7c");
        assert_eq!(format!("{board:?}"), "Board(2x7c)");
        assert_eq!("2X7C".parse::<Board>(), Ok(board));
        assert_eq!(Board::circular(2, 7), Ok(board));
        let plain: Board = "2x7".parse().unwrap();
        assert_eq!(plain.topology(), Topology::Plain);
        assert_eq!(plain.name(), "2x7");
        assert_ne!(plain, board);
        // Plain before circular of the same shape, shapes first.
        assert!(plain < board);
        assert!(board < "2x8".parse::<Board>().unwrap());
        assert!(board < "3x1".parse::<Board>().unwrap());
        // Only plain, non-square boards have a turned board.
        assert_eq!(plain.turned(), Some("7x2".parse().unwrap()));
        assert_eq!(board.turned(), None);
        assert_eq!("3x3".parse::<Board>().unwrap().turned(), None);
        assert_eq!("1x3c".parse::<Board>().unwrap().turned(), None);
    }

    #[test]
    fn bad_names_are_refused() {
        for text in [
            "0x3", "3", "foo", "3x", "x3", "9x9", "1x65", "-1x3", "3x 4x", "2x7cc", "2cx7", "c2x7",
            "2xc", "2x7 c", "0x3c", "1x65c",
        ] {
            assert!(text.parse::<Board>().is_err(), "{text}");
        }
        assert!("8x8".parse::<Board>().is_ok());
        assert!("1x20".parse::<Board>().is_ok());
        assert!("1x20c".parse::<Board>().is_ok());
    }

    #[test]
    fn piece_names_are_shapes_with_open_sides() {
        let open: Board = "3x3-open".parse().unwrap();
        assert_eq!(open.name(), "#+++#/+...+/+...+/+...+/#+++#");
        assert_eq!(open.points(), 9);
        // Every point but the centre has an open side.
        assert_eq!(open.open().len(), 8);
        let edge: Board = "3x3-edge".parse().unwrap();
        assert_eq!(edge.name(), "#+++#/+...+/+...+/+...+");
        assert_eq!(edge.open().len(), 7);
        let corner: Board = "3x3-corner".parse().unwrap();
        assert_eq!(corner.name(), "+++#/...+/...+/...+");
        assert_eq!(corner.open().len(), 5);
        assert!(!corner.open().contains(corner.point(1, 0)), "A1 is closed");
        assert_eq!("3x3-closed".parse::<Board>(), Ok(Board::new(3, 3).unwrap()));
        assert_eq!(
            "2X4-Edge".parse::<Board>(),
            Board::piece(2, 4, PieceKind::Edge)
        );
        for rows in 1..=5 {
            for columns in 1..=5 {
                for kind in PieceKind::ALL {
                    let piece = Board::piece(rows, columns, kind).unwrap();
                    assert_eq!(piece.points(), rows * columns);
                    assert_eq!(piece.as_piece(), Some((rows, columns, kind)), "{piece}");
                    let name = format!("{rows}x{columns}-{}", kind.word());
                    assert_eq!(piece.piece_name(), name);
                    assert_eq!(name.parse::<Board>(), Ok(piece));
                    assert_eq!(piece.name().parse::<Board>(), Ok(piece));
                }
            }
        }
        assert_eq!("..#/...".parse::<Board>().unwrap().as_piece(), None);
        assert_eq!("2x7c".parse::<Board>().unwrap().as_piece(), None);
        for text in [
            "3x3-middle",
            "3x3c-open",
            "0x3-open",
            "-open",
            "3x3-",
            "3x3-open-open",
            "9x9-open",
            "1x63-open",
            "..#/...-open",
        ] {
            assert!(text.parse::<Board>().is_err(), "{text}");
        }
        assert!("8x8-closed".parse::<Board>().is_ok());
    }

    /// A point's neighbours from the rule, one by one: up, down, left and
    /// right within the board, and across the seam of a circular board. A
    /// set, so that a point met twice (across the seam of a board of two
    /// columns) counts once, and a point is never its own neighbour.
    fn listed_neighbours(board: &Board, point: Point) -> PointSet {
        let (rows, columns) = (board.rows(), board.columns());
        let (row, column) = (board.row(point), board.column(point));
        let mut list = Vec::new();
        if row > 0 {
            list.push((row - 1, column));
        }
        if row + 1 < rows {
            list.push((row + 1, column));
        }
        if column > 0 {
            list.push((row, column - 1));
        } else if board.is_circular() {
            list.push((row, columns - 1));
        }
        if column + 1 < columns {
            list.push((row, column + 1));
        } else if board.is_circular() {
            list.push((row, 0));
        }
        list.into_iter()
            .map(|(r, c)| board.point(r, c))
            .filter(|&p| p != point)
            .fold(PointSet::EMPTY, |set, p| set | PointSet::single(p))
    }

    /// Every small board, plain and circular, for the exhaustive checks.
    const SMALL_BOARDS: [&str; 19] = [
        "1x1", "1x4", "2x2", "2x3", "3x3", "3x4", "4x3", "1x1c", "1x2c", "1x3c", "1x4c", "1x7c",
        "2x1c", "2x2c", "2x3c", "2x4c", "3x3c", "3x4c", "4x3c",
    ];

    /// Larger boards, plain and circular, for random sets.
    const LARGE_BOARDS: [&str; 14] = [
        "4x4", "5x5", "2x9", "7x9", "8x8", "3x21", "1x25", "4x4c", "5x5c", "2x9c", "7x9c", "8x8c",
        "3x21c", "1x25c",
    ];

    /// `neighbours`, `adjacent` and `touching_exactly_one` against the
    /// neighbours listed point by point, on every set of points of small
    /// boards and random sets of larger ones, plain and circular.
    #[test]
    fn exactly_one_neighbour_matches_counting() {
        let check = |board: &Board, set: PointSet| {
            let mut adjacent = PointSet::EMPTY;
            let mut exactly_one = PointSet::EMPTY;
            for point in board.all().iter() {
                let touching = (listed_neighbours(board, point) & set).len();
                if touching >= 1 {
                    adjacent.insert(point);
                }
                if touching == 1 {
                    exactly_one.insert(point);
                }
            }
            assert_eq!(board.adjacent(set), adjacent, "{board}: {set:?}");
            assert_eq!(
                board.touching_exactly_one(set),
                exactly_one,
                "{board}: {set:?}"
            );
        };
        for name in SMALL_BOARDS {
            let board: Board = name.parse().unwrap();
            for point in board.all().iter() {
                assert_eq!(
                    board.neighbours(point),
                    listed_neighbours(&board, point),
                    "{board}: {point:?}"
                );
            }
            for bits in 0..1u64 << board.points() {
                check(&board, PointSet(bits));
            }
        }
        let mut rng = crate::tests::support::Rng::new(0x0e_1ab0);
        for name in LARGE_BOARDS {
            let board: Board = name.parse().unwrap();
            for point in board.all().iter() {
                assert_eq!(
                    board.neighbours(point),
                    listed_neighbours(&board, point),
                    "{board}: {point:?}"
                );
            }
            for _ in 0..10_000 {
                check(&board, PointSet(rng.next_u64() & board.all().bits()));
            }
        }
    }

    /// The seam by hand: which points meet across it, and that boards of
    /// one or two columns meet nothing more than their plain boards do.
    #[test]
    fn the_seam_joins_the_ends_of_each_row() {
        let ring: Board = "1x5c".parse().unwrap();
        let set = |points: &[usize]| {
            points
                .iter()
                .fold(PointSet::EMPTY, |s, &p| s | PointSet::single(Point::new(p)))
        };
        assert_eq!(ring.neighbours(Point::new(0)), set(&[1, 4]));
        assert_eq!(ring.neighbours(Point::new(4)), set(&[0, 3]));
        let cylinder: Board = "2x4c".parse().unwrap();
        assert_eq!(cylinder.neighbours(Point::new(0)), set(&[1, 3, 4]));
        assert_eq!(cylinder.neighbours(Point::new(7)), set(&[3, 4, 6]));
        // The last point of row 1 and the first of row 2 stay apart.
        assert!(!cylinder.neighbours(Point::new(3)).contains(Point::new(4)));
        for (circular, plain) in [
            ("1x1c", "1x1"),
            ("1x2c", "1x2"),
            ("2x2c", "2x2"),
            ("3x2c", "3x2"),
        ] {
            let (circular, plain): (Board, Board) =
                (circular.parse().unwrap(), plain.parse().unwrap());
            assert!(!circular.wraps(), "{circular}");
            assert_eq!(circular.plain(), plain);
            for point in plain.all().iter() {
                assert_eq!(circular.neighbours(point), plain.neighbours(point));
            }
        }
        // Every point of a ring of three or more has exactly two neighbours.
        for columns in 3..=25 {
            let ring = Board::circular(1, columns).unwrap();
            assert!(ring.wraps() && !ring.plain().wraps(), "{ring}");
            for point in ring.all().iter() {
                assert_eq!(ring.neighbours(point).len(), 2, "{ring}");
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
        for name in ["1x4", "2x2", "2x3", "3x3", "1x4c", "2x3c", "3x3c"] {
            let board: Board = name.parse().unwrap();
            for within in 0..1u64 << board.points() {
                for seed in 0..1u64 << board.points() {
                    check(&board, PointSet(seed), PointSet(within));
                }
            }
        }
        let mut rng = crate::tests::support::Rng::new(0xf1_00d5);
        for name in ["4x4", "3x7", "2x10", "5x5", "4x4c", "3x7c", "2x10c"] {
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
