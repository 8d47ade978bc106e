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
//! `analyses` holds the studies of whole boards (counting without an index,
//! seki, cycles, rules on a line); `reference` is a deliberately plain
//! solver used only to check the real one.

pub mod analyses;
pub mod analysis;
pub mod cli;
pub mod files;
pub mod gtp;
pub mod huge_pages;
pub mod index;
pub mod prefetch;
pub mod reference;
pub mod rules;
pub mod sgf;
pub mod solver;
pub mod symmetry;
pub mod table;
#[doc(hidden)]
pub mod testing;

// The rules' modules keep their paths at the crate's root (`crate::board`,
// `smallgo::state`), where the rest of the crate and its users name them.
pub use rules::{board, colour, moves, position, state, unmove, value};
// Likewise the solver's plan (sizes, memory) and checkpoints, and the
// analyses.
pub use analyses::{count, cycles, line_rule, seki};
pub use solver::{checkpoint, plan};
