//! The integration tests, in one test binary (`integration`): each file of
//! `tests/` is a module of it, and `support` is what they share to drive the
//! `smallgo` binary. One binary links the crate once, runs every file's
//! tests side by side and lets the compiler see which helper nobody uses.
//! A test's name starts with its file's (`cli::`, `faults_build::`), so
//! `cargo test --release --test integration faults_build::` runs one file.
//!
//! A new file `tests/NAME.rs` joins with a `mod NAME;` line here; it takes
//! the helpers in as `use crate::support::...`.

mod support;

mod cli;
mod count;
mod cycles;
mod faults;
mod faults_build;
mod faults_gtp;
mod faults_tables;
mod gtp_protocol;
mod gtp_regress;
mod layers;
mod line_rule;
mod matches;
mod mpi;
mod review;
mod seki;
