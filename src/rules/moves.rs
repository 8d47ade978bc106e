//! A move: a placement on a point, or a pass.

use crate::board::{Board, Point};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    Place(Point),
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
