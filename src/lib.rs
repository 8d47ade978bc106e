//! smallgo: perfect play for Go on small boards.
//!
//! The crate is layered so that dependencies flow one way:
//!
//! - `rules`: `board` (shape, points), `position` (stones, capture,
//!   suicide, ko, score), `moves`, `state` (a validated state and its
//!   children), `unmove` (predecessors), `colour`, `value`;
//! - `symmetry`: the board's own symmetries;
//! - `index`: canonical form and a dense numbering of states;
//! - `solver`: the retrograde solve of every state;
//! - `table`: the file format, the prober and the verifier;
//! - `analysis`: rating moves from values;
//! - `gtp` and `cli`: the engine and the command line.
//!
//! `reference` is a deliberately plain solver used only to check the real
//! one; `solver::plan` estimates sizes and reads memory figures; `count` counts a
//! board's states without an index, for boards too big to build.

pub mod analysis;
pub mod cli;
pub mod count;
pub mod cycles;
pub mod gtp;
pub mod huge_pages;
pub mod index;
pub mod line_rule;
pub mod prefetch;
pub mod reference;
pub mod rules;
pub mod seki;
pub mod sgf;
pub mod solver;
pub mod symmetry;
pub mod table;
#[doc(hidden)]
pub mod testing;

// The rules' modules keep their paths at the crate's root (`crate::board`,
// `smallgo::state`), where the rest of the crate and its users name them.
pub use rules::{board, colour, moves, position, state, unmove, value};
// Likewise the solver's plan (sizes, memory) and checkpoints.
pub use solver::{checkpoint, plan};
