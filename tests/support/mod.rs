//! What the integration tests share to drive the `smallgo` binary, each
//! test file taking it in with `mod support;`: `command` runs the binary
//! from a command line, once, `gtp_engine` talks GTP to an engine process
//! (smallgo, GNU Go or another), `files` lays out the shipped tables
//! and FIFOs it meets, and `published` reads the published figures of
//! `tests/published.csv`. The match runner of
//! `tests/matches.rs` adds two parts: `go_board` follows a game with plain
//! rules (to see repetitions and to count the final board independently of
//! the referee), and `twogtp` plays one game between two engines with a
//! third as referee. Each test file uses only some of this, so what one of
//! them leaves unused is not dead code.
#![allow(dead_code)]

pub mod command;
pub mod files;
pub mod go_board;
pub mod gtp_engine;
pub mod published;
pub mod sgf;
pub mod twogtp;
