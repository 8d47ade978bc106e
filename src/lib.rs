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

//!
//! # The API for embedding
//!
//! A Rust program that wants perfect values needs only these, re-exported
//! here: [`Board`] (parsed from `"3x4"` or `"2x7c"`), [`Position`] (stones
//! from the mover's view, readable from a diagram) and its validated
//! [`State`], [`Library`] (the built-in tables plus a folder of your own,
//! turned boards, small boards solved on the spot), [`Tablebase`] (one
//! table file), [`Outcome`] (win, draw or loss with margin and plies at a
//! komi), and [`outcome`] and [`best_moves`] to ask them.
//!
//! ```
//! use smallgo::{best_moves, outcome, Board, Library, Outcome, Position, State};
//!
//! let board: Board = "3x3".parse().unwrap();
//! // Black to move after Black C3 and White B2.
//! let position = Position::from_diagram(&board, "..O\n.X.\n...").unwrap();
//! let state = State::new(&board, position.swapped(), None, false).unwrap();
//! let values = Library::new(None, false).open(board).unwrap();
//! let black = true;
//! match outcome(&values, &state, 0.0, black).unwrap() {
//!     Outcome::MoverWins { margin, .. } => println!("Black wins by {margin}"),
//!     Outcome::OpponentWins { margin, .. } => println!("White wins by {margin}"),
//!     Outcome::Draw => println!("a draw"),
//! }
//! let moves = best_moves(&values, &state, 0.0, black).unwrap();
//! assert!(!moves.is_empty());
//! ```
//!
//! Building a table from code (feature `solver`): solve the board, then
//! write its bytes (or `table::writer::write` them into a folder,
//! atomically).
//!
//! ```
//! # #[cfg(feature = "solver")]
//! # fn main() {
//! use smallgo::solver::{solve, Silent};
//! use smallgo::table::writer::encode;
//! use smallgo::{Board, Tablebase};
//!
//! let board: Board = "2x3".parse().unwrap();
//! let solution = solve(board, &Silent).unwrap();
//! let (bytes, _checksum) = encode(&solution);
//! let table = Tablebase::from_static("2x3", Box::leak(bytes.into_boxed_slice())).unwrap();
//! assert_eq!(table.board(), board);
//! # }
//! # #[cfg(not(feature = "solver"))]
//! # fn main() {}
//! ```
//!
//! # Features
//!
//! - `solver` (default): building tables. The solver, the index's
//!   numbering of states, `table::writer` and `table::verify`, the
//!   analyses and the reference solver; `Library` solves small boards
//!   that have no table on the spot.
//! - `cli` (default, with `solver`): the `smallgo` program, its commands
//!   and the GTP engine (`cli`, `gtp`).
//! - `mpi` (with `solver`): builds shared by the processes of an MPI job.
//!
//! With `default-features = false` the crate reads and probes tables only,
//! the built-in ones and files: the API above, without rayon, clap or the
//! solver in the build. The built-in tables are always there.

#[cfg(feature = "solver")]
mod analyses;
mod analysis;
#[cfg(feature = "cli")]
mod cli;
#[cfg(feature = "cli")]
#[doc(hidden)]
pub use cli::run;
#[cfg(feature = "mpi")]
mod cluster;
mod files;
#[cfg(feature = "cli")]
mod gtp;
#[cfg(feature = "solver")]
mod huge_pages;
mod index;
#[cfg(feature = "solver")]
mod prefetch;
#[cfg(all(test, feature = "solver"))]
mod reference;
mod rules;
#[cfg(feature = "cli")]
mod sgf;
#[cfg(feature = "solver")]
mod solver;
mod symmetry;
mod table;
#[cfg(test)]
mod testing;
#[cfg(all(test, feature = "cli"))]
mod tests;

// The rules' modules keep their paths at the crate's root (`crate::board`,
// `smallgo::state`), where the rest of the crate and its users name them.
#[cfg_attr(not(feature = "solver"), allow(unused_imports))]
pub(crate) use rules::{board, colour, moves, position, state, unmove, value};
// Likewise the solver's plan (sizes, memory) and checkpoints, and the
// analyses.
#[cfg(feature = "solver")]
pub(crate) use analyses::{count, cycles, line_rule, seki};
#[cfg(feature = "solver")]
pub(crate) use solver::{checkpoint, plan};

pub use analysis::{best_moves, outcome};
pub use board::Board;
pub use position::Position;
pub use state::State;
pub use table::library::Library;
pub use table::Tablebase;
pub use value::Outcome;
