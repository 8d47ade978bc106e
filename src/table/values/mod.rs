//! `Values`: whatever knows the value of every legal state of one board,
//! a table on disk or built in (`Table`) or a solve in memory
//! (`Solution`), so that the engine, the analyses and the verifier's
//! callers rate moves with the same code whatever the source. That code is
//! `rating`: outcomes at a komi, move ratings, the engine's preference order
//! and the best moves. It sits below the collection of tables (`library`),
//! which serves outcomes and best moves through it.

pub mod rating;

use crate::rules::board::Board;
use crate::rules::state::State;
use crate::rules::value::Value;
#[cfg(feature = "solver")]
use crate::solver::Solution;
use crate::table::{Table, TableError};

/// Something that knows the value of every legal state of one board.
pub trait Values {
    fn board(&self) -> Board;
    fn value_of(&self, state: &State) -> Result<Value, TableError>;
}

#[cfg(feature = "solver")]
impl Values for Solution {
    fn board(&self) -> Board {
        *Solution::board(self)
    }

    fn value_of(&self, state: &State) -> Result<Value, TableError> {
        let origin =
            || crate::table::Origin::BuiltIn(format!("solution {}", Solution::board(self)));
        match self.probe(state) {
            Ok(Some(value)) => Ok(value),
            Ok(None) => Err(TableError::NoSuchState {
                origin: origin(),
                state: format!("{state:?}"),
            }),
            Err(error) => Err(TableError::Corrupt {
                origin: origin(),
                fault: crate::table::format::Fault::Inconsistent(error.to_string()),
            }),
        }
    }
}

impl Values for Table {
    fn board(&self) -> Board {
        Table::board(self)
    }

    fn value_of(&self, state: &State) -> Result<Value, TableError> {
        self.probe(state)
    }
}
