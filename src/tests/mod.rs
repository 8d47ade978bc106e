//! Tests that check the crate's layers against each other from inside, as
//! unit tests of the whole crate: the solver against the reference solver
//! and the published results, the tables (written, read, damaged and
//! verified) and the shipped ones, the analysis commands against `genmove`,
//! and the studies of whole boards against brute forces. Tests that drive
//! the `smallgo` binary as a user does are in `tests/`; each module's own
//! unit tests sit beside it.
//!
//! `published` and `files` are the integration tests' own readers of
//! `tests/published.csv` and of the shipped tables' paths, shared by path
//! so that there is one of each. These tests use only part of each (the
//! figures of one kind, a shipped table's path), so what the integration
//! tests alone use is not dead code here.

#[path = "../../tests/support/files.rs"]
#[allow(dead_code)]
mod files;
#[path = "../../tests/support/published.rs"]
#[allow(dead_code)]
mod published;

mod analysis;
mod circular;
mod count;
mod cycles;
mod ko_definitions;
mod line_rule;
mod seki;
mod shapes;
mod shipped_tables;
mod solver;
mod solver_against_reference;
mod tables;
