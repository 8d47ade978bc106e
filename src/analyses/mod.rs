//! Studies of a whole board, each behind a `smallgo` command: counting its
//! positions and states without an index (`count`, `smallgo count`), the
//! seki census (`seki`), the cycles of the state graph (`cycles`), and
//! White's move rules on a line (`line_rule`), these three from a
//! board's table (`smallgo analyze ...`), and board pieces' values as
//! Bouzy gives them, from a solve of their own (`piece`).
//!
//! They sit above the table layer and below the engine and the command
//! line: they read values through `table::values::Values` or a whole table
//! through the table layer's block reader, and the command line (`cli`)
//! opens the tables and prints what they find.

// Without the command line (the library as the Python module builds it)
// nothing calls the analyses yet.
#![cfg_attr(not(feature = "cli"), allow(dead_code))]

pub mod count;
pub mod cycles;
pub mod line_rule;
pub mod piece;
pub mod seki;
