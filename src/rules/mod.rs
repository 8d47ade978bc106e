//! The rules of the game (`docs/rules.md#the-game`, `#states`), the bottom
//! layer: the board and its points (`board`), colours (`colour`), moves
//! (`moves`), stones with capture, suicide, the basic-ko point and area score
//! (`position`), a validated state and what each move leads to (`state`), the
//! moves that lead to a state (`unmove`), and stored values with their outcome
//! at a komi (`value`), and Benson's fixed point over strings and regions
//! (`benson`, for the solvers only: the probe-only build leaves it out).
//!
//! Outside their tests, nothing here imports from any other module of the
//! crate: every layer above builds on these.

#[cfg(feature = "solver")]
pub mod benson;
pub mod board;
pub mod colour;
pub mod moves;
pub mod position;
pub mod state;
pub mod unmove;
pub mod value;
