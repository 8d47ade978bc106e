//! Tests that check the crate's layers against each other from inside, as
//! unit tests of the whole crate: the solver against the reference solver
//! and the published results, the tables (written, read, damaged and
//! verified) and the shipped ones, the analysis commands against `genmove`,
//! and the studies of whole boards against brute forces. Tests that drive
//! the `smallgo` binary as a user does are in `tests/`; each module's own
//! unit tests sit beside it.
//!
//! `support` serves every unit test of the crate, those beside each module
//! too (so it is built whatever the features; the tests of this folder need
//! the command line's feature): random positions and states, and the plain
//! reference solver that the real one is checked against.
//!
//! `published` and `files` are the integration tests' own readers of
//! `tests/published.csv` and of the shipped tables' paths, shared by path
//! so that there is one of each. These tests use only part of each (the
//! figures of one kind, a shipped table's path), so what the integration
//! tests alone use is not dead code here.

pub(crate) mod support;

#[cfg(feature = "cli")]
#[path = "../../tests/support/files.rs"]
#[allow(dead_code)]
mod files;
#[cfg(feature = "cli")]
#[path = "../../tests/support/published.rs"]
#[allow(dead_code)]
mod published;

#[cfg(feature = "cli")]
mod analysis;
#[cfg(feature = "cli")]
mod circular;
#[cfg(feature = "cli")]
mod count;
#[cfg(feature = "cli")]
mod cycles;
#[cfg(feature = "cli")]
mod ko_definitions;
#[cfg(feature = "cli")]
mod line_rule;
#[cfg(feature = "cli")]
mod pieces;
#[cfg(feature = "cli")]
mod seki;
#[cfg(feature = "cli")]
mod shapes;
#[cfg(feature = "cli")]
mod shipped_tables;
#[cfg(feature = "cli")]
mod solver;
#[cfg(feature = "cli")]
mod solver_against_reference;
#[cfg(feature = "cli")]
mod tables;
