//! The stones on a board and the rules that act on them: placement, capture,
//! suicide, the basic-ko point a capture leaves, legality, and area score.
//!
//! A `Position` is seen from the side to move: `us` are the mover's stones,
//! `them` the opponent's (`docs/rules.md#states`). Colours appear only at the
//! edges of the program (GTP, tests); the tables never need them. Everything
//! here works on whole strings and regions as bit sets, so the solver's inner
//! loops stay free of per-point searches.
//!
//! On a shape with open sides (`Board::open`) a string with a stone on an
//! open side always has a liberty: it is never captured, a stone placed
//! there is never suicide nor takes a ko, and an empty region with a point
//! on an open side belongs to neither side. Elsewhere `open` is empty and
//! these rules are the plain ones.

// A probe-only build (no feature `solver`) leaves what only the solver and the engine use unused.
#![cfg_attr(not(feature = "solver"), allow(dead_code))]

use crate::rules::board::{Board, Point, PointSet};

/// The stones of a position, from the view of the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    us: PointSet,
    them: PointSet,
}

/// What a placement did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The stones after the move, still from the view of the player who
    /// moved (`us` holds the new stone).
    pub position: Position,
    /// The opponent's stones removed.
    pub captured: PointSet,
    /// The basic-ko point the move leaves for the opponent: set when the move
    /// captured exactly one stone and the new stone is now a one-stone string
    /// whose only liberty is that point.
    pub ko: Option<Point>,
}

/// The empty points of a position and each side's strings in atari: what
/// every placement's legality and captures follow from.
#[derive(Clone, Copy)]
struct StringsInAtari {
    empty: PointSet,
    theirs: PointSet,
    ours: PointSet,
}

impl Position {
    /// Stones for each side; the caller keeps them disjoint and on the board.
    pub(crate) const fn new(us: PointSet, them: PointSet) -> Position {
        Position { us, them }
    }

    pub(crate) const fn us(&self) -> PointSet {
        self.us
    }

    pub(crate) const fn them(&self) -> PointSet {
        self.them
    }

    pub(crate) fn empty_points(&self, board: &Board) -> PointSet {
        board.all() - self.us - self.them
    }

    /// The side to move's stones (`X` in a diagram), in point order.
    ///
    /// ```
    /// use smallgo::{Board, Position};
    /// let board: Board = "2x2".parse().unwrap();
    /// let position = Position::from_diagram(&board, "X.\n.O").unwrap();
    /// let name = |points: Vec<smallgo::Point>| -> Vec<String> {
    ///     points.iter().map(|p| board.point_name(*p)).collect()
    /// };
    /// assert_eq!(name(position.mover_stones()), ["A2"]);
    /// assert_eq!(name(position.other_stones()), ["B1"]);
    /// assert_eq!(name(position.empty(&board)), ["A1", "B2"]);
    /// ```
    pub fn mover_stones(&self) -> Vec<Point> {
        self.us.iter().collect()
    }

    /// The other side's stones (`O` in a diagram), in point order.
    pub fn other_stones(&self) -> Vec<Point> {
        self.them.iter().collect()
    }

    /// The empty points of `board`, in point order.
    pub fn empty(&self, board: &Board) -> Vec<Point> {
        self.empty_points(board).iter().collect()
    }

    /// The same stones seen from the other side.
    pub const fn swapped(&self) -> Position {
        Position {
            us: self.them,
            them: self.us,
        }
    }

    /// Every string of both colours has a liberty, and the sides do not
    /// overlap.
    pub(crate) fn is_legal(&self, board: &Board) -> bool {
        if !(self.us & self.them).is_empty() || !(self.us | self.them).is_subset_of(board.all()) {
            return false;
        }
        let empty = self.empty_points(board);
        let breathing = board.adjacent(empty) | board.open();
        board.floods_all(self.us & breathing, self.us)
            && board.floods_all(self.them & breathing, self.them)
    }

    /// The liberties of a string (or of any set of stones) on the board:
    /// its empty neighbours (open sides, which are no points, not counted).
    pub(crate) fn liberties(&self, board: &Board, string: PointSet) -> PointSet {
        board.adjacent(string) & self.empty_points(board)
    }

    /// Whether the mover can fill `point` without losing the stone at once:
    /// the placement is legal, and it captures or leaves its string two
    /// liberties or more.
    pub(crate) fn fills_safely(&self, board: &Board, point: Point) -> bool {
        match self.place(board, point) {
            None => false,
            Some(placed) => {
                if !placed.captured.is_empty() {
                    return true;
                }
                let string = board.flood(PointSet::single(point), placed.position.us());
                placed.position.liberties(board, string).len() >= 2
            }
        }
    }

    /// The mover places a stone at `point`. `None` if the point is occupied or
    /// the move is suicide. Ko is not checked here: that is the state's rule.
    ///
    /// Most placements need no flood: a string of theirs next to the stone
    /// keeps a liberty when the stone next to it has an empty neighbour (or
    /// lies on an open side), and the new stone's string has one when the
    /// stone has an empty neighbour once the captures are taken off.
    #[inline]
    pub(crate) fn place(&self, board: &Board, point: Point) -> Option<Placement> {
        self.place_inlined(board, point)
    }

    /// `place`, inlined where it is called: for a loop that reads each
    /// placement as soon as it is made (the verifier's), where a call's
    /// result, written to memory in parts and read back whole, waits for
    /// the parts to reach the cache.
    #[inline(always)]
    pub(crate) fn place_inlined(&self, board: &Board, point: Point) -> Option<Placement> {
        let stone = PointSet::single(point);
        if !((self.us | self.them) & stone).is_empty() {
            return None;
        }
        let us = self.us | stone;
        let around = board.neighbours(point);
        let empty_after = board.all() - us - self.them;
        let mut captured = PointSet::EMPTY;
        // The stones of theirs next to the new one with no liberty of their
        // own: only their strings can be captured.
        let mut touched = (around & self.them) - board.adjacent(empty_after) - board.open();
        while let Some(neighbour) = touched.first() {
            let string = board.flood(PointSet::single(neighbour), self.them);
            touched = touched - string;
            if (board.adjacent(string) & empty_after).is_empty()
                && (string & board.open()).is_empty()
            {
                captured |= string;
            }
        }
        let them = self.them - captured;
        // The stone's own liberties: its empty neighbours, the captured
        // stones' points among them.
        let breathing = around - us - them;
        let on_open = board.open().contains(point);
        if (around & self.us).is_empty() {
            // A string of one stone.
            if breathing.is_empty() && !on_open {
                return None;
            }
            let ko = if !on_open && captured.len() == 1 && breathing == captured {
                captured.single_point()
            } else {
                None
            };
            return Some(Placement {
                position: Position { us, them },
                captured,
                ko,
            });
        }
        if breathing.is_empty() && !on_open {
            // Joined to strings of ours: they must bring a liberty.
            let own = board.flood(stone, us);
            if (board.adjacent(own) - us - them).is_empty() && (own & board.open()).is_empty() {
                return None;
            }
        }
        Some(Placement {
            position: Position { us, them },
            captured,
            ko: None,
        })
    }

    /// Calls `visit(point, placement)` for every legal placement of the
    /// mover, in point order: the same as `place` at every empty point, with
    /// the strings worked out once for all of them instead of once a point.
    /// A string in atari next to an empty point has that point as its one
    /// liberty, so a stone there captures the opponent's strings in atari
    /// next to it, and is suicide when it has no empty neighbour, captures
    /// nothing and touches only strings of ours in atari.
    #[inline]
    pub(crate) fn placements(&self, board: &Board, visit: impl FnMut(Point, Placement)) {
        let strings = self.strings_in_atari(board);
        self.placements_at(board, strings.empty, &strings, visit);
    }

    /// The legal placements that capture nothing, as a set; `visit` is
    /// called for each one that captures, in point order, as `placements`
    /// would. The first are most moves, and need no `Placement`: an empty
    /// point captures exactly when it is the liberty of a string of theirs
    /// in atari, and otherwise is legal when it has an empty neighbour or
    /// touches a string of ours with another liberty.
    #[inline]
    pub(crate) fn quiet_placements(
        &self,
        board: &Board,
        visit_capturing: impl FnMut(Point, Placement),
    ) -> PointSet {
        let strings = self.strings_in_atari(board);
        let empty = strings.empty;
        let capturing = board.adjacent(strings.theirs) & empty;
        self.placements_at(board, capturing, &strings, visit_capturing);
        (empty - capturing)
            & (board.adjacent(empty) | board.adjacent(self.us - strings.ours) | board.open())
    }

    /// The empty points and each side's strings in atari.
    #[inline]
    fn strings_in_atari(&self, board: &Board) -> StringsInAtari {
        let empty = self.empty_points(board);
        // Most strings are told without a flood of their own. A stone with
        // no neighbour of its colour is a string whose liberties are its
        // empty neighbours; a stone with two empty neighbours gives its
        // string two liberties, and one flood finds all those strings. An
        // open side counts as two: such a string is never in atari.
        let breathes_once = board.touching_exactly_one(empty) - board.open();
        let breathes_twice = (board.adjacent(empty) - breathes_once) | board.open();
        let in_atari = |side: PointSet| {
            let lone = side - board.adjacent(side);
            let mut strings = lone & breathes_once;
            let mut pending = side - lone - board.flood(side & breathes_twice, side);
            while let Some(point) = pending.first() {
                let string = board.flood(PointSet::single(point), side);
                pending = pending - string;
                if (board.adjacent(string) & empty).len() == 1 {
                    strings |= string;
                }
            }
            strings
        };
        StringsInAtari {
            empty,
            theirs: in_atari(self.them),
            ours: in_atari(self.us),
        }
    }

    /// `placements` at the empty points `points`.
    #[inline]
    fn placements_at(
        &self,
        board: &Board,
        points: PointSet,
        strings: &StringsInAtari,
        mut visit: impl FnMut(Point, Placement),
    ) {
        let StringsInAtari {
            empty,
            theirs: their_atari,
            ours: our_atari,
        } = *strings;
        for point in points.iter() {
            let around = board.neighbours(point);
            // Strings of one colour never touch, so a flood through the
            // strings in atari from the neighbours takes just theirs.
            let touched = around & their_atari;
            let captured = if touched.is_empty() {
                PointSet::EMPTY
            } else {
                board.flood(touched, their_atari)
            };
            let open = board.open().contains(point);
            let breathes = !(around & empty).is_empty()
                || !captured.is_empty()
                || !((around & self.us) - our_atari).is_empty()
                || open;
            if !breathes {
                continue;
            }
            let ko = if (around & (self.us | empty)).is_empty() && !open {
                captured.single_point()
            } else {
                None
            };
            visit(
                point,
                Placement {
                    position: Position {
                        us: self.us | PointSet::single(point),
                        them: self.them - captured,
                    },
                    captured,
                    ko,
                },
            );
        }
    }

    /// The points each side owns under area scoring: its stones and the
    /// empty regions that touch only its colour (ours, theirs). An empty
    /// region with a point on an open side belongs to neither.
    pub(crate) fn areas(&self, board: &Board) -> (PointSet, PointSet) {
        let empty = self.empty_points(board);
        let neutral = if board.open().is_empty() {
            PointSet::EMPTY
        } else {
            board.flood(board.open() & empty, empty)
        };
        let reach_us = board.flood(board.adjacent(self.us) & empty, empty) | neutral;
        let reach_them = board.flood(board.adjacent(self.them) & empty, empty) | neutral;
        (
            self.us | (reach_us - reach_them),
            self.them | (reach_them - reach_us),
        )
    }

    /// Area score from the mover's view: stones plus empty regions that touch
    /// only one colour, ours minus theirs (Tromp-Taylor).
    pub(crate) fn area_score(&self, board: &Board) -> i32 {
        let (ours, theirs) = self.areas(board);
        ours.len() as i32 - theirs.len() as i32
    }

    /// The one-stone string of `them` at `stone` whose only liberty is
    /// `point`: the stone that could just have captured at `point`.
    fn is_lone_capturer(&self, board: &Board, stone: Point, point: Point) -> bool {
        let around = board.neighbours(stone);
        !board.open().contains(stone)
            && (around & self.them).is_empty()
            && (around & self.empty_points(board)) == PointSet::single(point)
    }

    /// The points that can be this position's basic-ko point: the opponent's
    /// last move could have captured exactly one of our stones there, from a
    /// legal position, with a stone that is now a one-stone string whose only
    /// liberty is that point (`docs/rules.md#states`, legal states).
    #[inline]
    pub(crate) fn ko_points(&self, board: &Board) -> PointSet {
        let empty = self.empty_points(board);
        // Cheap filter, inlined where the solver asks: empty points with only
        // the opponent's stones around, that is, next to no empty point and
        // none of ours (and no open side: a stone there was never captured).
        let candidates = empty - board.adjacent(empty | self.us) - board.open();
        if candidates.is_empty() {
            return PointSet::EMPTY;
        }
        self.ko_points_among(board, candidates, empty)
    }

    /// The ko points among `candidates`, the empty points with only the
    /// opponent's stones around (see `ko_points`).
    #[inline(never)]
    fn ko_points_among(&self, board: &Board, candidates: PointSet, empty: PointSet) -> PointSet {
        // Few candidates survive the next test, so it is done for the whole
        // board at once: a ko point has exactly one lone capturer next to it
        // (see `is_ko_point`), a stone of theirs with none of theirs around
        // and one empty neighbour, the candidate. Next to a candidate, that
        // is a stone of theirs with exactly one neighbour not ours.
        let capturers =
            (self.them & board.touching_exactly_one(board.all() - self.us)) - board.open();
        let mut result = PointSet::EMPTY;
        for point in (candidates & board.adjacent(capturers)).iter() {
            let around = board.neighbours(point);
            let capturer = around & capturers;
            if capturer.len() == 1
                && self.others_had_liberties(board, point, around - capturer, empty)
            {
                result.insert(point);
            }
        }
        result
    }

    /// Whether `point` can be this position's basic-ko point (see
    /// `ko_points`).
    pub(crate) fn is_ko_point(&self, board: &Board, point: Point) -> bool {
        let empty = self.empty_points(board);
        if !empty.contains(point) || board.open().contains(point) {
            return false;
        }
        let around = board.neighbours(point);
        if !around.is_subset_of(self.them) {
            return false;
        }
        let mut capturer = None;
        for stone in around.iter() {
            if self.is_lone_capturer(board, stone, point) {
                if capturer.is_some() {
                    // Two such stones: whichever came last, the other had no
                    // liberty before it, so the earlier position was illegal.
                    return false;
                }
                capturer = Some(stone);
            }
        }
        let Some(capturer) = capturer else {
            return false;
        };
        self.others_had_liberties(board, point, around - PointSet::single(capturer), empty)
    }

    /// Before a capture at ko point `point` our stone stood there: every
    /// string of theirs through `others` (the stones next to `point` but the
    /// capturer) needed a liberty elsewhere for that position to be legal.
    fn others_had_liberties(
        &self,
        board: &Board,
        point: Point,
        others: PointSet,
        empty: PointSet,
    ) -> bool {
        let mut pending = others;
        while let Some(stone) = pending.first() {
            let string = board.flood(PointSet::single(stone), self.them);
            pending = pending - string;
            if (board.adjacent(string) & empty) == PointSet::single(point)
                && (string & board.open()).is_empty()
            {
                return false;
            }
        }
        true
    }

    /// The stone that captured at ko point `point` (see `ko_points`).
    pub(crate) fn ko_capturer(&self, board: &Board, point: Point) -> Option<Point> {
        board
            .neighbours(point)
            .iter()
            .find(|&stone| self.them.contains(stone) && self.is_lone_capturer(board, stone, point))
    }
}

/// Why a diagram is not a position of its board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DiagramError {
    /// Not as many rows (lines with cells) as the board.
    Rows {
        /// The rows found.
        found: usize,
    },
    /// A row (counted from the top, from 1) without a cell per column.
    Columns {
        /// The row.
        row: usize,
        /// The cells found in it.
        found: usize,
    },
    /// A cell that is not `X`, `O` or `.` (at a point), or is one of them
    /// at a cell of a shape that is no point.
    Cell {
        /// The row.
        row: usize,
        /// The cell.
        cell: char,
    },
}

impl std::fmt::Display for DiagramError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DiagramError::Rows { found } => write!(f, "the diagram has {found} rows"),
            DiagramError::Columns { row, found } => {
                write!(f, "row {row} of the diagram has {found} cells")
            }
            DiagramError::Cell { row, cell } => {
                write!(f, "row {row} of the diagram has '{cell}', not X, O or .")
            }
        }
    }
}

impl std::error::Error for DiagramError {}

impl Position {
    /// Reads a diagram: one line per row, top row first, `X` for the
    /// mover's stones, `O` for the opponent's, `.` for an empty point, and
    /// on a shape `#` or `+` for a cell of its grid that is no point;
    /// spaces and empty lines are ignored. The position is not checked for
    /// legality (`State::new` does that).
    ///
    /// ```
    /// use smallgo::{Board, Position, State};
    ///
    /// let board: Board = "2x3".parse().unwrap();
    /// let position = Position::from_diagram(&board, "X . O\n. X .").unwrap();
    /// assert!(State::new(&board, position, None, false).is_ok());
    /// // A stone with no liberty: not a legal position.
    /// let dead = Position::from_diagram(&board, "X O .\nO . .").unwrap();
    /// assert!(State::new(&board, dead, None, false).is_err());
    /// // One row short.
    /// assert!(Position::from_diagram(&board, "X . O").is_err());
    /// ```
    pub fn from_diagram(board: &Board, diagram: &str) -> Result<Position, DiagramError> {
        let rows: Vec<Vec<char>> = diagram
            .lines()
            .map(|line| line.chars().filter(|c| !c.is_whitespace()).collect())
            .filter(|cells: &Vec<char>| !cells.is_empty())
            .collect();
        if rows.len() != board.rows() {
            return Err(DiagramError::Rows { found: rows.len() });
        }
        let mut us = PointSet::EMPTY;
        let mut them = PointSet::EMPTY;
        for (i, cells) in rows.iter().enumerate() {
            let row = board.rows() - 1 - i;
            if cells.len() != board.columns() {
                return Err(DiagramError::Columns {
                    row: i + 1,
                    found: cells.len(),
                });
            }
            for (column, &cell) in cells.iter().enumerate() {
                match (board.point_at(row, column), cell) {
                    (Some(point), 'X') => us.insert(point),
                    (Some(point), 'O') => them.insert(point),
                    (Some(_), '.') | (None, '#' | '+') => {}
                    (_, cell) => return Err(DiagramError::Cell { row: i + 1, cell }),
                }
            }
        }
        Ok(Position::new(us, them))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Reads a diagram, top row first: `X` the mover's stones, `O` the
    /// opponent's, `.` empty.
    pub(crate) fn diagram(board: &Board, rows: &[&str]) -> Position {
        Position::from_diagram(board, &rows.join("\n")).unwrap()
    }

    #[test]
    fn diagrams_are_read_or_refused_with_the_reason() {
        let board = Board::new(2, 3).unwrap();
        let position = Position::from_diagram(&board, "X . O\n\n. X .\n").unwrap();
        assert_eq!(
            position,
            Position::new(points(&board, &["A2", "B1"]), points(&board, &["C2"]))
        );
        assert_eq!(
            Position::from_diagram(&board, "XO.").unwrap_err(),
            DiagramError::Rows { found: 1 }
        );
        assert_eq!(
            Position::from_diagram(&board, "XO.\nXO").unwrap_err(),
            DiagramError::Columns { row: 2, found: 2 }
        );
        assert_eq!(
            Position::from_diagram(&board, "XO.\nXOb").unwrap_err(),
            DiagramError::Cell { row: 2, cell: 'b' }
        );
        assert!(DiagramError::Cell { row: 2, cell: 'b' }
            .to_string()
            .contains("'b'"));
    }

    pub(crate) fn points(board: &Board, names: &[&str]) -> PointSet {
        names.iter().fold(PointSet::EMPTY, |set, name| {
            set | PointSet::single(board.parse_point(name).unwrap())
        })
    }

    fn at(board: &Board, name: &str) -> Point {
        board.parse_point(name).unwrap()
    }

    /// `Position::place` by floods of every string next to the stone and of
    /// the stone's own: the reference its shortcuts are tested against.
    fn place_by_floods(position: &Position, board: &Board, point: Point) -> Option<Placement> {
        let stone = PointSet::single(point);
        if !((position.us | position.them) & stone).is_empty() {
            return None;
        }
        let us = position.us | stone;
        let mut them = position.them;
        let mut captured = PointSet::EMPTY;
        let empty_after = board.all() - us - them;
        let mut touched = board.adjacent(stone) & them;
        while let Some(neighbour) = touched.first() {
            let string = board.flood(PointSet::single(neighbour), them);
            touched = touched - string;
            if (board.adjacent(string) & empty_after).is_empty()
                && (string & board.open()).is_empty()
            {
                captured |= string;
            }
        }
        them = them - captured;
        let own = board.flood(stone, us);
        let own_liberties = board.adjacent(own) - us - them;
        let open = own & board.open();
        if own_liberties.is_empty() && open.is_empty() {
            return None;
        }
        let ko = if own == stone
            && open.is_empty()
            && captured.len() == 1
            && own_liberties == captured
        {
            captured.single_point()
        } else {
            None
        };
        Some(Placement {
            position: Position { us, them },
            captured,
            ko,
        })
    }

    /// `place`, which floods only strings that may lack a liberty, against
    /// `place_by_floods` at every point: every legal position of the boards
    /// up to 3x3 and 2x4 (open sides among them), and random legal positions
    /// of larger ones.
    #[test]
    fn place_agrees_with_flooding_every_string() {
        let (mut captures, mut kos, mut suicides) = (0, 0, 0);
        crate::tests::support::for_legal_positions(20_000, 0x91_acef_100d, |board, position| {
            for point in board.all().iter() {
                let placed = position.place(board, point);
                assert_eq!(
                    placed,
                    place_by_floods(position, board, point),
                    "{board}: {position:?} at {point:?}"
                );
                match placed {
                    None if position.empty_points(board).contains(point) => suicides += 1,
                    Some(placed) if placed.ko.is_some() => kos += 1,
                    Some(placed) if !placed.captured.is_empty() => captures += 1,
                    _ => {}
                }
            }
        });
        assert!(
            captures > 1000 && kos > 1000 && suicides > 1000,
            "{captures} {kos} {suicides}"
        );
    }

    /// `placements` against `place` at every point: every legal position
    /// of the boards up to 3x3 and 2x4, and random positions of larger ones
    /// (codes drawn from every pattern, illegal ones skipped).
    #[test]
    fn placements_agree_with_placing_point_by_point() {
        let check = |board: &Board, position: &Position| {
            let mut all = Vec::new();
            position.placements(board, |point, placed| all.push((point, placed)));
            let one_by_one: Vec<(Point, Placement)> = board
                .all()
                .iter()
                .filter_map(|point| position.place(board, point).map(|placed| (point, placed)))
                .collect();
            assert_eq!(all, one_by_one, "{board}: {position:?}");
            // The split: the capturing ones visited, the others as a set.
            let mut capturing = Vec::new();
            let quiet =
                position.quiet_placements(board, |point, placed| capturing.push((point, placed)));
            let (captures, quiets): (Vec<_>, Vec<_>) = one_by_one
                .into_iter()
                .partition(|(_, placed)| !placed.captured.is_empty());
            assert_eq!(capturing, captures, "{board}: {position:?}");
            let quiet_points = quiets.iter().fold(PointSet::EMPTY, |set, &(point, _)| {
                set | PointSet::single(point)
            });
            assert_eq!(quiet, quiet_points, "{board}: {position:?}");
        };
        crate::tests::support::for_legal_positions(20_000, 0x91ace, |board, position| {
            check(board, position);
        });
    }

    /// `ko_points`, which filters for the whole board at once, against
    /// `is_ko_point` at every point: every legal position of the boards up
    /// to 3x3 and 2x4, and random legal positions of larger ones.
    #[test]
    fn ko_points_agree_with_testing_point_by_point() {
        let check = |board: &Board, position: &Position| {
            let one_by_one = board
                .all()
                .iter()
                .filter(|&point| position.is_ko_point(board, point))
                .fold(PointSet::EMPTY, |found, point| {
                    found | PointSet::single(point)
                });
            assert_eq!(
                position.ko_points(board),
                one_by_one,
                "{board}: {position:?}"
            );
            one_by_one.len()
        };
        let mut ko_points_seen = 0;
        crate::tests::support::for_legal_positions(50_000, 0x0c0_4b0, |board, position| {
            ko_points_seen += check(board, position);
        });
        assert!(ko_points_seen > 1000, "{ko_points_seen}");
    }

    #[test]
    fn captures_several_strings_at_once() {
        let board = Board::new(3, 3).unwrap();
        // Three separate O strings, each with A2 as its last liberty.
        let position = diagram(&board, &["OX.", ".OX", "OX."]);
        assert!(position.is_legal(&board));
        let placed = position.place(&board, at(&board, "A2")).unwrap();
        assert_eq!(placed.captured, points(&board, &["A3", "B2", "A1"]));
        assert_eq!(placed.ko, None);
        assert_eq!(placed.position.them(), PointSet::EMPTY);
        assert!(placed.position.is_legal(&board));
    }

    #[test]
    fn single_and_multi_stone_suicide_are_illegal() {
        let board = Board::new(3, 3).unwrap();
        let position = diagram(&board, &[".O.", "O..", "..."]);
        assert_eq!(position.place(&board, at(&board, "A3")), None);
        // X at B3 would leave {A3, B3, A2} without a liberty.
        let position = diagram(&board, &["X.O", "XO.", "O.."]);
        assert!(position.is_legal(&board));
        assert_eq!(position.place(&board, at(&board, "B3")), None);
        // The same point is legal once it captures.
        let position = diagram(&board, &["X.O", "XOX", ".X."]);
        assert!(position.is_legal(&board));
        let placed = position.place(&board, at(&board, "B3")).unwrap();
        assert_eq!(placed.captured, points(&board, &["B2", "C3"]));
        // Occupied points are refused.
        assert_eq!(position.place(&board, at(&board, "A3")), None);
        assert_eq!(position.place(&board, at(&board, "C3")), None);
    }

    #[test]
    fn snapback_captures_the_capturer() {
        let board = Board::new(3, 4).unwrap();
        let start = diagram(&board, &["OOO.", "XXO.", "..O."]);
        assert!(start.is_legal(&board));
        // O (now the mover) throws in at A1: nothing is captured.
        let throw_in = start.swapped().place(&board, at(&board, "A1")).unwrap();
        assert_eq!(throw_in.captured, PointSet::EMPTY);
        // X takes the stone at B1: one stone, but no ko, since B1 joins a
        // bigger string.
        let take = throw_in
            .position
            .swapped()
            .place(&board, at(&board, "B1"))
            .unwrap();
        assert_eq!(take.captured, points(&board, &["A1"]));
        assert_eq!(take.ko, None);
        // O plays A1 again and takes back three stones.
        let snap = take
            .position
            .swapped()
            .place(&board, at(&board, "A1"))
            .unwrap();
        assert_eq!(snap.captured, points(&board, &["A2", "B2", "B1"]));
        assert_eq!(snap.ko, None);
    }

    #[test]
    fn ko_is_set_and_is_a_legal_ko_point() {
        let board = Board::new(3, 4).unwrap();
        let position = diagram(&board, &[".XO.", "XO.O", ".XO."]);
        assert!(position.is_legal(&board));
        let placed = position.place(&board, at(&board, "C2")).unwrap();
        assert_eq!(placed.captured, points(&board, &["B2"]));
        assert_eq!(placed.ko, Some(at(&board, "B2")));
        let next = placed.position.swapped();
        assert_eq!(next.ko_points(&board), points(&board, &["B2"]));
        assert_eq!(
            next.ko_capturer(&board, at(&board, "B2")),
            Some(at(&board, "C2"))
        );
        // Retaking at once would recreate the position before the capture.
        let retake = next.place(&board, at(&board, "B2")).unwrap();
        assert_eq!(retake.position.swapped(), position);
        assert_eq!(retake.captured, points(&board, &["C2"]));
    }

    #[test]
    fn ko_points_need_a_legal_earlier_position() {
        let board = Board::new(2, 3).unwrap();
        // A1 empty, surrounded by O at A2 and B1. Both are lone stones whose
        // only liberty is A1: whichever was played last, the other had no
        // liberty before, so A1 cannot be a ko point.
        let position = diagram(&board, &["OX.", ".OX"]);
        assert!(position.is_legal(&board));
        assert_eq!(position.ko_points(&board), PointSet::EMPTY);
        // No lone stone next to A1: nothing there could have just captured.
        let position = diagram(&board, &["OO.", ".OX"]);
        assert!(position.is_legal(&board));
        assert!(!position.is_ko_point(&board, at(&board, "A1")));
        let board = Board::new(3, 3).unwrap();
        let position = diagram(&board, &["...", "OX.", ".OX"]);
        assert!(position.is_legal(&board));
        // O at A2 keeps A3 besides A1; O at B1 is a lone stone whose only
        // liberty is A1: B1 is the capturer and A1 the ko point.
        assert_eq!(position.ko_points(&board), points(&board, &["A1"]));
        assert_eq!(
            position.ko_capturer(&board, at(&board, "A1")),
            Some(at(&board, "B1"))
        );
    }

    #[test]
    fn area_score_counts_stones_and_single_colour_regions() {
        let board = Board::new(3, 3).unwrap();
        let position = diagram(&board, &[".X.", "XXO", "XO."]);
        assert!(position.is_legal(&board));
        // Ours: 4 stones and A3. C3 touches both colours. Theirs: 2 stones
        // and C1.
        assert_eq!(position.area_score(&board), 5 - 3);
        assert_eq!(position.swapped().area_score(&board), 3 - 5);
        assert_eq!(Position::default().area_score(&board), 0);
        // Seki: both strings live; the shared liberties count for no one.
        let board = Board::new(2, 4).unwrap();
        let seki = diagram(&board, &["X.OO", "X.OO"]);
        assert!(seki.is_legal(&board));
        assert_eq!(seki.area_score(&board), 2 - 4);
    }

    /// Across the seam of a ring of five, A1 and E1 are neighbours: O at
    /// A1 next to X at B1 is legal there (its liberty is E1), not on the
    /// plain line; X at E1 captures it.
    #[test]
    fn a_capture_across_the_seam() {
        let ring: Board = "1x5c".parse().unwrap();
        let line: Board = "1x5".parse().unwrap();
        let position = diagram(&ring, &["OX..."]);
        assert!(position.is_legal(&ring));
        assert!(!position.is_legal(&line));
        assert_eq!(
            position.liberties(&ring, points(&ring, &["A1"])),
            points(&ring, &["E1"])
        );
        let placed = position.place(&ring, at(&ring, "E1")).unwrap();
        assert_eq!(placed.captured, points(&ring, &["A1"]));
        // E1 keeps D1 and now A1: two liberties, no ko.
        assert_eq!(placed.ko, None);
        assert_eq!(placed.position.us(), points(&ring, &["B1", "E1"]));
        assert_eq!(placed.position.them(), PointSet::EMPTY);
        // On a cylinder a string crosses the seam: O's A1-D1 has C1 only,
        // and X at C1 takes both stones. X's A2-D2 is one string too.
        let cylinder: Board = "2x4c".parse().unwrap();
        let position = diagram(&cylinder, &["X..X", "OX.O"]);
        assert!(position.is_legal(&cylinder));
        assert!(!position.is_legal(&"2x4".parse().unwrap()));
        let strings = cylinder.flood(PointSet::single(at(&cylinder, "A2")), position.us());
        assert_eq!(strings, points(&cylinder, &["A2", "D2"]));
        let placed = position.place(&cylinder, at(&cylinder, "C1")).unwrap();
        assert_eq!(placed.captured, points(&cylinder, &["A1", "D1"]));
        assert_eq!(placed.ko, None);
    }

    /// A ko across the seam of a ring of five: X at E1 takes O at A1 (whose
    /// only liberty was E1) with a stone whose only liberty is then A1,
    /// since O holds D1. O may not take back at A1 at once.
    #[test]
    fn a_ko_across_the_seam() {
        let ring: Board = "1x5c".parse().unwrap();
        let position = diagram(&ring, &["OX.O."]);
        assert!(position.is_legal(&ring));
        let placed = position.place(&ring, at(&ring, "E1")).unwrap();
        assert_eq!(placed.captured, points(&ring, &["A1"]));
        assert_eq!(placed.ko, Some(at(&ring, "A1")));
        let next = placed.position.swapped();
        assert_eq!(next.ko_points(&ring), points(&ring, &["A1"]));
        assert_eq!(
            next.ko_capturer(&ring, at(&ring, "A1")),
            Some(at(&ring, "E1"))
        );
        let state =
            crate::rules::state::State::new(&ring, next, Some(at(&ring, "A1")), false).unwrap();
        assert!(state.place(&ring, at(&ring, "A1")).is_none());
        assert!(!state.legal_points(&ring).contains(at(&ring, "A1")));
        // After a move elsewhere the retake is legal, and takes E1 back.
        let retake = next.place(&ring, at(&ring, "A1")).unwrap();
        assert_eq!(retake.captured, points(&ring, &["E1"]));
        assert_eq!(retake.position.swapped(), position);
        // On the plain line the same stones make no ko: X at E1 has D1 (O)
        // and the wall, and A1 had B1 (X) and the wall: O there is illegal.
        let line: Board = "1x5".parse().unwrap();
        assert!(!position.is_legal(&line));
    }

    /// Area scoring across the seam: an empty region counts for a colour
    /// only if every stone it touches, across the seam too, is that
    /// colour's.
    #[test]
    fn scoring_across_the_seam() {
        // X on column A, O on column C: column D touches C and, across the
        // seam, A, so it is no one's; on the plain board it is O's.
        let cylinder: Board = "2x4c".parse().unwrap();
        let plain: Board = "2x4".parse().unwrap();
        let position = diagram(&cylinder, &["X.O.", "X.O."]);
        assert_eq!(position.area_score(&cylinder), 2 - 2);
        assert_eq!(position.area_score(&plain), 2 - 4);
        // X at B1 and F1, O at D1 on a ring of six: A1 touches B1 and, across
        // the seam, F1, both X: it is X's. C1 and E1 touch both colours.
        let ring: Board = "1x6c".parse().unwrap();
        let position = diagram(&ring, &[".X.O.X"]);
        let (ours, theirs) = position.areas(&ring);
        assert_eq!(ours, points(&ring, &["A1", "B1", "F1"]));
        assert_eq!(theirs, points(&ring, &["D1"]));
        assert_eq!(position.area_score(&ring), 3 - 1);
        // One region all round a ring of six, touching X only: X's.
        let position = diagram(&ring, &["..X..."]);
        assert_eq!(position.area_score(&ring), 6);
        let position = diagram(&ring, &["..X.O."]);
        assert_eq!(position.area_score(&ring), 1 - 1);
    }

    #[test]
    fn legality_needs_a_liberty_for_every_string() {
        let board = Board::new(2, 2).unwrap();
        assert!(diagram(&board, &["X.", ".O"]).is_legal(&board));
        assert!(diagram(&board, &["XX", "X."]).is_legal(&board));
        assert!(!diagram(&board, &["XO", "OX"]).is_legal(&board));
        assert!(!diagram(&board, &["X.", "OX"]).is_legal(&board));
        assert!(!diagram(&board, &["XO", "O."]).is_legal(&board));
    }
}
