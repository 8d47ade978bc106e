//! smallgo: perfect play for Go on small boards.
//!
//! Every state of a small board is solved by retrograde analysis and stored
//! in a table; a table serves the exact outcome of any position at any
//! komi, and the moves that keep it. The tables of every board of at most
//! 16 points are built into the crate.
//!
//! # Probing
//!
//! [`Board`] is parsed from `"3x4"` (rows x columns) or `"2x7c"` (circular:
//! the columns wrap). [`Position`] holds the stones from the side to move's
//! view and is read from a diagram; [`BoardState`] adds the ko point and
//! whether the last move was a pass, checks it all, and keeps the board
//! with it ([`State`] is the same without the board). [`Tablebase`] holds
//! the built-in tables and the folders you add, and gives a board's
//! [`BoardValues`], which give the [`Outcome`] of a state at a komi for
//! the [`Colour`] to move (a win, a draw or a loss, with its margin and the
//! plies to the end) and its best [`Move`]s. A state of another board is refused with
//! [`ProbeError::WrongBoard`]: the values never answer for a board they are
//! not of. A [`BoardState`] lists its legal moves, and
//! [`play`](BoardState::play) gives what a move leads to ([`Next`]: the
//! next state, or the end of the game with its margin) or why it is
//! illegal ([`MoveError`]).
//!
//! ```
//! use smallgo::{Board, BoardState, Colour, Outcome, Position, Tablebase};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let board: Board = "3x3".parse()?;
//! // Black to move (`X`) after Black C3 and White B2: White's stone is `O`.
//! let position = Position::from_diagram(&board, "..X\n.O.\n...")?;
//! let state = BoardState::new(board, position, None, false)?;
//! let values = Tablebase::new().values(board)?;
//! let (komi, mover) = (0.0, Colour::Black);
//! match values.outcome(&state, komi, mover)? {
//!     Outcome::MoverWins { margin, plies } => println!("Black wins by {margin} in {plies}"),
//!     Outcome::OpponentWins { margin, .. } => println!("White wins by {margin}"),
//!     Outcome::Draw => println!("a draw"),
//! }
//! let moves = values.best_moves(&state, komi, mover)?;
//! let names: Vec<String> = moves.iter().map(|mv| mv.name(&board)).collect();
//! assert!(!names.is_empty());
//!
//! // The same stones asked of the 4x4 values: refused.
//! let large = Tablebase::new().values("4x4".parse()?)?;
//! let refused = large.outcome(&state, komi, mover);
//! assert!(matches!(refused, Err(smallgo::ProbeError::WrongBoard { .. })));
//! # Ok(())
//! # }
//! ```
//!
//! # Building
//!
//! With the feature `solver` (on by default), [`build_table`] solves a board
//! and writes its table into a folder, which a [`Tablebase`] then reads:
//!
//! ```
//! # #[cfg(feature = "solver")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use smallgo::{build_table, Board, BoardState, Colour, Tablebase};
//!
//! let folder = std::env::temp_dir().join(format!("smallgo-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&folder)?;
//! let board: Board = "2x3".parse()?;
//! let path = build_table(board, &folder)?;
//! assert!(path.ends_with("2x3.sgtb"));
//! let mut tables = Tablebase::new();
//! let refused = tables.add_directory(&folder)?;
//! assert!(refused.is_empty());
//! let values = tables.values(board)?;
//! assert_eq!(values.description(), path.display().to_string());
//! let start = BoardState::start(board);
//! println!("{:?}", values.outcome(&start, 0.0, Colour::Black)?);
//! std::fs::remove_dir_all(&folder)?;
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "solver"))]
//! # fn main() {}
//! ```
//!
//! # Features
//!
//! - `solver` (default): building tables ([`build_table`]), and solving a
//!   small board with no table on the spot when its values are asked for.
//! - `cli` (default, with `solver`): the `smallgo` program, its commands
//!   and the GTP engine (`cli`, `game`, `gtp`).
//! - `mpi` (with `solver`): builds shared by the processes of an MPI job.
//!
//! With `default-features = false` the crate reads and probes tables only,
//! the built-in ones and files: the API above, without rayon, clap or the
//! solver in the build. The built-in tables are always there.
//!
//! # The source
//!
//! Everything else is private to the crate. Its layers, from the rules up
//! to the engine, and what each folder owns, are in `docs/architecture.md`.

#![warn(missing_docs)]
#![warn(missing_debug_implementations)]

#[cfg(feature = "solver")]
mod analyses;
#[cfg(feature = "solver")]
mod build;
#[cfg(feature = "cli")]
mod cli;
#[cfg(feature = "cli")]
#[doc(hidden)]
pub use cli::run;
mod common;
#[cfg(all(fuzzing, feature = "cli"))]
#[doc(hidden)]
pub use cli::fuzzing;
#[cfg(feature = "cli")]
mod game;
#[cfg(feature = "cli")]
mod gtp;
mod index;
#[cfg(feature = "solver")]
mod problem;
mod rules;
#[cfg(feature = "serve")]
mod serve;
#[cfg(feature = "cli")]
mod sgf;
#[cfg(feature = "solver")]
mod solver;
#[cfg(feature = "solver")]
mod superko;
mod symmetry;
mod table;
#[cfg(test)]
mod tests;

pub use rules::board::{Board, BoardError, Point};
pub use rules::colour::Colour;
pub use rules::moves::Move;
pub use rules::position::{DiagramError, Position};
pub use rules::state::{MoveError, State, StateError};
pub use rules::value::Outcome;
pub use table::format::Fault;
pub use table::library::{
    BoardState, BoardValues, Next, NoValues, ProbeError, SourceError, Tablebase,
};
pub use table::{Origin, TableError};

#[cfg(feature = "solver")]
pub use build::{build_table, BuildError};
#[cfg(feature = "solver")]
pub use solver::SolveError;

/// README's "Use from Rust" sample is the crate root's first example, its
/// hidden lines aside, which `cargo test --doc` runs.
#[cfg(test)]
#[test]
fn the_readme_sample_is_the_crate_roots_first_example() {
    let readme = include_str!("../README.md");
    let section = &readme[readme.find("## Use from Rust").unwrap()..];
    let sample = section.split("```rust\n").nth(1).unwrap();
    let sample = sample.split("```").next().unwrap();
    let doc: Vec<&str> = include_str!("lib.rs")
        .lines()
        .filter_map(|line| line.strip_prefix("//!"))
        .map(|line| line.strip_prefix(' ').unwrap_or(line))
        .filter(|line| !line.starts_with("# ") && *line != "#")
        .collect();
    let doc = doc.join("\n");
    let example = doc.split("```\n").nth(1).unwrap();
    assert_eq!(sample.trim(), example.trim());
}
