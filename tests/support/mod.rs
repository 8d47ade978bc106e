//! The match runner of `tests/matches.rs`, in three parts: `gtp_engine`
//! talks to one engine process with a deadline on every reply, `go_board`
//! follows the game with plain rules (to see repetitions and to count the
//! final board independently of the referee), and `twogtp` plays one game
//! between two engines with a third as referee.

pub mod go_board;
pub mod gtp_engine;
pub mod twogtp;
