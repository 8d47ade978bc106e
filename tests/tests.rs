//! The integration tests, in one test binary (`integration`): each file of
//! `tests/` is a module of it, and `support` is what they share to drive the
//! `smallgo` binary. One binary links the crate once, runs every file's
//! tests side by side and lets the compiler see which helper nobody uses.
//! A test's name starts with its file's (`cli::`, `faults_build::`), so
//! `cargo test --release --test integration faults_build::` runs one file.
//!
//! A new file `tests/NAME.rs` joins with a `mod NAME;` line here; it takes
//! the helpers in as `use crate::support::...`. Until it does, the test
//! below fails, naming it.

mod support;

mod cli;
mod count;
mod cycles;
mod faults;
mod faults_build;
mod faults_gtp;
mod faults_tables;
mod gtp_analysis;
mod gtp_protocol;
mod gtp_regress;
mod json;
mod katago_analysis;
mod layers;
mod line_rule;
mod matches;
mod mpi;
mod problem_cli;
mod problem_gtp;
mod review;
mod rules_and_pieces;
mod seki;
mod serve;
mod superko_gtp;
mod svg;
mod wdl;

/// Every `.rs` file of `tests/` is a module of this binary: with
/// `autotests = false`, a file without its `mod` line here would be neither
/// built nor run, silently.
#[test]
fn every_file_of_tests_is_a_module_of_this_binary() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let declared: Vec<&str> = include_str!("tests.rs").lines().collect();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&folder).unwrap() {
        let path = entry.unwrap().path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(module) = name.strip_suffix(".rs") else {
            continue;
        };
        if module != "tests" && !declared.contains(&format!("mod {module};").as_str()) {
            missing.push(name.to_string());
        }
    }
    missing.sort();
    assert!(
        missing.is_empty(),
        "tests/tests.rs declares no module for {missing:?}: add `mod NAME;` there"
    );
}
