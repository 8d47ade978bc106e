//! The match runner of `tests/matches.rs`, in four parts: `child` runs one
//! process with piped standard streams (also used on its own by
//! `tests/gtp_regress.rs` and `tests/gtp_protocol.rs`), `gtp_engine` talks
//! to one engine process with a deadline on every reply, `go_board` follows
//! the game with plain rules (to see repetitions and to count the final
//! board independently of the referee), and `twogtp` plays one game between
//! two engines with a third as referee.

pub mod child;
pub mod go_board;
pub mod gtp_engine;
pub mod twogtp;
