//! A move: a placement on a point, or a pass.

use crate::rules::board::{Board, Point};

/// A move: a stone placed on a point, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// A stone on this point.
    Place(Point),
    /// A pass.
    Pass,
}

impl Move {
    /// The GTP name: `C3` or `pass`.
    pub fn name(self, board: &Board) -> String {
        match self {
            Move::Place(point) => board.point_name(point),
            Move::Pass => "pass".to_string(),
        }
    }
}
