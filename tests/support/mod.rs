//! What the integration tests share to drive the `smallgo` binary, each
//! test module taking it in as `crate::support`: `command` runs the binary
//! from a command line, once, `gtp_engine` talks GTP to an engine process
//! (smallgo, GNU Go or another), `builds` sets up the builds a test stops
//! or races (one that saves a checkpoint before every level, one that
//! holds its board's lock), `files` lays out the shipped tables and FIFOs
//! it meets, `published` reads the published figures of
//! `tests/published.csv`, and `sgf` reads the main line of an SGF file the
//! binary wrote. The match runner of `tests/matches.rs` adds two parts:
//! `go_board` follows a game with plain rules (to see repetitions and to
//! count the final board independently of the referee), and `twogtp` plays
//! one game between two engines with a third as referee.

pub(crate) mod builds;
pub(crate) mod command;
pub(crate) mod files;
pub(crate) mod go_board;
pub(crate) mod gtp_engine;
pub(crate) mod published;
pub(crate) mod sgf;
pub(crate) mod twogtp;
