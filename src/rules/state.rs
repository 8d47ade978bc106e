//! A game state as the tables see it: stones from the mover's view, the
//! basic-ko point, and whether the last move was a pass
//! (`docs/rules.md#states`).
//!
//! `State::new` checks a raw setup (every string has a liberty, the ko point
//! could have been made by a legal move, a pass leaves no ko); the solver's
//! inner loops build states they know to be legal with `from_parts`. Moves
//! lead to a `Child`: another state, seen from the new mover, or the end of
//! the game after a second pass.

// A probe-only build (no feature `solver`) leaves what only the solver and the engine use unused.
#![cfg_attr(not(feature = "solver"), allow(dead_code))]

use std::fmt;

use crate::rules::board::{Board, Point, PointSet, MAX_POINTS};
use crate::rules::moves::Move;
use crate::rules::position::{Placement, Position};

/// A legal state, from the view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State {
    position: Position,
    ko: Option<Point>,
    passed: bool,
}

/// What a legal move leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Child {
    /// The next state, from the view of the new mover.
    State(State),
    /// Two passes: the game is over with this area margin for the player who
    /// made the last pass (the mover of the parent state).
    End { margin: i32 },
}

/// Why a setup is not a legal state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StateError {
    /// Some string has no liberty, or stones overlap or lie off the board.
    IllegalPosition,
    /// The ko point could not have been made by a legal capture.
    IllegalKo,
    /// A state after a pass has no ko point.
    KoAfterPass,
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StateError::IllegalPosition => "a string has no liberty",
            StateError::IllegalKo => "the ko point could not come from a legal capture",
            StateError::KoAfterPass => "a pass clears the ko point",
        })
    }
}

impl std::error::Error for StateError {}

/// Why a move is not legal in a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MoveError {
    /// The point is not one of the board's.
    OffBoard,
    /// A stone is on the point.
    Occupied,
    /// The point is the ko point: the stone just captured there may not be
    /// retaken at once.
    Ko,
    /// The stone's string would have no liberty and capture nothing.
    Suicide,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveError::OffBoard => "the point is not on the board",
            MoveError::Occupied => "the point is taken",
            MoveError::Ko => "the ko point may not be retaken at once",
            MoveError::Suicide => "the stone would have no liberty (suicide)",
        })
    }
}

impl std::error::Error for MoveError {}

impl State {
    /// Checks a setup and makes it a state.
    pub fn new(
        board: &Board,
        position: Position,
        ko: Option<Point>,
        passed: bool,
    ) -> Result<State, StateError> {
        if !position.is_legal(board) {
            return Err(StateError::IllegalPosition);
        }
        if let Some(point) = ko {
            if passed {
                return Err(StateError::KoAfterPass);
            }
            if point.index() >= board.points() || !position.is_ko_point(board, point) {
                return Err(StateError::IllegalKo);
            }
        }
        Ok(State {
            position,
            ko,
            passed,
        })
    }

    /// A state the caller knows to be legal.
    #[inline]
    pub(crate) const fn from_parts(position: Position, ko: Option<Point>, passed: bool) -> State {
        State {
            position,
            ko,
            passed,
        }
    }

    /// The empty board with Black to move.
    pub fn start() -> State {
        State::from_parts(Position::default(), None, false)
    }

    /// The stones, from the side to move's view.
    pub const fn position(&self) -> Position {
        self.position
    }

    /// The point the side to move may not take back at once (basic ko), if any.
    pub const fn ko(&self) -> Option<Point> {
        self.ko
    }

    /// Whether the last move was a pass (one pass pending).
    pub const fn passed(&self) -> bool {
        self.passed
    }

    /// What a legal `mv` leads to; `None` if it is illegal (a point taken,
    /// the ko point, suicide).
    pub(crate) fn play(&self, board: &Board, mv: Move) -> Option<Child> {
        match mv {
            Move::Pass => Some(self.pass(board)),
            Move::Place(point) => self.place(board, point).map(Child::State),
        }
    }

    /// What `mv` leads to, or why it is not legal. Any point may be asked
    /// about, one of another board too.
    pub(crate) fn try_play(&self, board: &Board, mv: Move) -> Result<Child, MoveError> {
        if let Move::Place(point) = mv {
            if point.index() >= MAX_POINTS || !board.all().contains(point) {
                return Err(MoveError::OffBoard);
            }
            let stones = self.position.us() | self.position.them();
            if stones.contains(point) {
                return Err(MoveError::Occupied);
            }
            if self.ko == Some(point) {
                return Err(MoveError::Ko);
            }
        }
        self.play(board, mv).ok_or(MoveError::Suicide)
    }

    /// The state after a placement, or `None` if it is illegal.
    #[inline]
    pub(crate) fn place(&self, board: &Board, point: Point) -> Option<State> {
        if self.ko == Some(point) {
            return None;
        }
        Some(State::after(self.position.place(board, point)?))
    }

    /// `place` with the placement inlined where it is called
    /// (`Position::place_inlined`).
    #[inline(always)]
    pub(crate) fn place_inlined(&self, board: &Board, point: Point) -> Option<State> {
        if self.ko == Some(point) {
            return None;
        }
        Some(State::after(self.position.place_inlined(board, point)?))
    }

    /// The state a placement leads to: the other side to move.
    #[inline(always)]
    fn after(placed: Placement) -> State {
        State::from_parts(placed.position.swapped(), placed.ko, false)
    }

    /// What a pass leads to: the other side to move with one pass pending, or
    /// the end of the game after a second pass.
    #[inline]
    pub(crate) fn pass(&self, board: &Board) -> Child {
        if self.passed {
            Child::End {
                margin: self.position.area_score(board),
            }
        } else {
            Child::State(State::from_parts(self.position.swapped(), None, true))
        }
    }

    /// The legal moves in the engine's tie-break order: points `A1, B1, ...`
    /// then pass.
    pub fn legal_moves(&self, board: &Board) -> Vec<Move> {
        let mut moves: Vec<Move> = self
            .position
            .empty_points(board)
            .iter()
            .filter(|&point| self.place(board, point).is_some())
            .map(Move::Place)
            .collect();
        moves.push(Move::Pass);
        moves
    }

    /// Empty points where a placement is legal.
    pub(crate) fn legal_points(&self, board: &Board) -> PointSet {
        self.position
            .empty_points(board)
            .iter()
            .filter(|&point| self.place(board, point).is_some())
            .fold(PointSet::EMPTY, |set, point| set | PointSet::single(point))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::tests::diagram;

    #[test]
    fn a_pass_clears_the_ko_and_two_passes_end_the_game() {
        let board = Board::new(3, 4).unwrap();
        let position = diagram(&board, &[".XO.", "XO.O", ".XO."]);
        let state = State::new(&board, position, None, false).unwrap();
        let point = |name| board.parse_point(name).unwrap();
        // X captures at C2: O may not retake at B2 at once.
        let after_capture = state.place(&board, point("C2")).unwrap();
        assert_eq!(after_capture.ko(), Some(point("B2")));
        assert_eq!(after_capture.place(&board, point("B2")), None);
        assert!(!after_capture
            .legal_moves(&board)
            .contains(&Move::Place(point("B2"))));
        // O passes: the ko is gone; X answers at A3; now O may retake.
        let Child::State(after_pass) = after_capture.pass(&board) else {
            panic!("one pass does not end the game");
        };
        assert_eq!(after_pass.ko(), None);
        assert!(after_pass.passed());
        let elsewhere = after_pass.place(&board, point("A3")).unwrap();
        assert!(!elsewhere.passed());
        assert_eq!(elsewhere.ko(), None);
        let retake = elsewhere.place(&board, point("B2")).unwrap();
        // The retake is itself a ko capture: now X must wait.
        assert_eq!(retake.ko(), Some(point("C2")));
        // Two passes end the game, scored from the second passer's view.
        let Child::State(one_pass) = retake.pass(&board) else {
            panic!();
        };
        let Child::End { margin } = one_pass.pass(&board) else {
            panic!("a second pass ends the game");
        };
        assert_eq!(margin, one_pass.position().area_score(&board));
    }

    #[test]
    fn setups_are_checked() {
        let board = Board::new(3, 4).unwrap();
        let position = diagram(&board, &[".XO.", "XO.O", ".XO."]);
        let b2 = board.parse_point("B2").unwrap();
        let c2 = board.parse_point("C2").unwrap();
        assert_eq!(
            State::new(&board, position, Some(b2), false),
            Err(StateError::IllegalKo)
        );
        let captured = State::new(&board, position, None, false)
            .unwrap()
            .place(&board, c2)
            .unwrap();
        let copy = State::new(&board, captured.position(), Some(b2), false).unwrap();
        assert_eq!(copy, captured);
        assert_eq!(
            State::new(&board, captured.position(), Some(b2), true),
            Err(StateError::KoAfterPass)
        );
        let dead = diagram(&board, &["XO..", "O...", "...."]);
        assert_eq!(
            State::new(&board, dead, None, false),
            Err(StateError::IllegalPosition)
        );
    }
}
