//! `smallgo verify TABLE... [--tables DIR] [--memory SIZE]`: checks tables
//! with the verifier (`table::verify`), independently of the builder.
//!
//! A TABLE is a file, or a board written `RxC` (rows x columns), which
//! stands for the table the engine would use for that board: `DIR/RxC.sgtb`
//! when `--tables DIR` has it, else the built-in one. A file whose name has
//! that form is written with a folder, as `./3x4`. Each table's result is one
//! line on standard output; each failure a message on stderr naming the file
//! or board, and the exit code is non-zero if any failed.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::progress::BuildProgress;
use super::{existing_folder, output_failed, EXIT_FAILURE};
use crate::rules::board::{Board, BoardError};
use crate::table::verify::{verify_file_with, verify_with, VerifyOptions, VerifyReport};
use crate::table::{built_in, file_name, Origin, TableError};

/// What a TABLE argument names.
enum Named {
    File(PathBuf),
    Board(Board),
}

/// Reads a TABLE argument: a board if it has the form `RxC`, else a file.
fn named(argument: &Path) -> Result<Named, String> {
    let Some(text) = argument.to_str() else {
        return Ok(Named::File(argument.to_path_buf()));
    };
    match text.parse::<Board>() {
        Ok(board) => Ok(Named::Board(board)),
        Err(BoardError::Syntax(_)) => Ok(Named::File(argument.to_path_buf())),
        Err(error) => Err(format!("verify {text}: {error}")),
    }
}

/// The built-in table of `board`, if there is one.
fn built_in_table(board: Board) -> Option<&'static [u8]> {
    built_in::tables()
        .find(|(name, _)| *name == board.name())
        .map(|(_, bytes)| bytes)
}

/// Where the table of a board named on the command line is, or why there is
/// none, naming where it looked.
enum Found {
    File(PathBuf),
    BuiltIn(&'static [u8]),
}

fn find(board: Board, folder: Option<&Path>) -> Result<Found, String> {
    let mut looked = Vec::new();
    if let Some(folder) = folder {
        let path = folder.join(file_name(&board));
        if path.symlink_metadata().is_ok() {
            return Ok(Found::File(path));
        }
        looked.push(format!("no file {}", path.display()));
    }
    if let Some(bytes) = built_in_table(board) {
        return Ok(Found::BuiltIn(bytes));
    }
    looked.push("none built in".to_string());
    if folder.is_none() {
        looked.push("no --tables DIR given".to_string());
    }
    let mut message = format!("verify {board}: no table of {board}: {}", looked.join(", "));
    if let Some(turned) = board.turned() {
        let served = folder.is_some_and(|f| f.join(file_name(&turned)).exists())
            || built_in_table(turned).is_some();
        if served {
            message.push_str(&format!(
                " (the table of {turned} serves {board} turned: `smallgo verify {turned}`)"
            ));
        }
    }
    Err(message)
}

/// Verifies one table with a progress display; `what` names it.
fn verify_one(
    found: &Found,
    what: &str,
    options: VerifyOptions,
) -> Result<VerifyReport, TableError> {
    let progress = BuildProgress::new(what.to_string());
    let report = match found {
        Found::File(path) => verify_file_with(path, options, &progress),
        Found::BuiltIn(bytes) => verify_with(
            &Origin::BuiltIn(what.to_string()),
            bytes,
            options,
            &progress,
            &|_| {},
        ),
    };
    progress.finish();
    report
}

/// `smallgo verify`.
pub fn run(tables: &[PathBuf], folder: Option<&Path>, memory: Option<u64>) -> ExitCode {
    if let Some(folder) = folder {
        if let Err(message) = existing_folder(folder) {
            eprintln!("smallgo: verify: {message}");
            return ExitCode::from(EXIT_FAILURE);
        }
    }
    let options = VerifyOptions {
        memory,
        ..VerifyOptions::default()
    };
    match super::build::thread_pool() {
        Ok(pool) => pool.install(|| verify_all(tables, folder, options)),
        Err(message) => {
            eprintln!("smallgo: verify: {message}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// Verifies each of `tables` (files or boards) in turn.
fn verify_all(tables: &[PathBuf], folder: Option<&Path>, options: VerifyOptions) -> ExitCode {
    let mut failed = false;
    for argument in tables {
        let found = named(argument).and_then(|named| match named {
            Named::File(path) => Ok((path.display().to_string(), Found::File(path))),
            Named::Board(board) => find(board, folder).map(|found| match found {
                Found::File(path) => (path.display().to_string(), Found::File(path)),
                Found::BuiltIn(bytes) => (board.name(), Found::BuiltIn(bytes)),
            }),
        });
        let (what, found) = match found {
            Ok(found) => found,
            Err(message) => {
                eprintln!("smallgo: {message}");
                failed = true;
                continue;
            }
        };
        let shown = match found {
            Found::File(_) => what.clone(),
            Found::BuiltIn(_) => format!("{what} (built in)"),
        };
        match verify_one(&found, &what, options) {
            Ok(report) => {
                if let Err(error) = outln!(
                    "{shown}: ok ({} states, {} edges, {} {}, {:.2} s)",
                    report.states,
                    report.edges,
                    report.passes,
                    if report.passes == 1 { "pass" } else { "passes" },
                    report.seconds
                ) {
                    let code = output_failed(&error);
                    return if failed {
                        ExitCode::from(EXIT_FAILURE)
                    } else {
                        code
                    };
                }
            }
            Err(error) => {
                eprintln!("smallgo: verify: {error}");
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::from(EXIT_FAILURE)
    } else {
        ExitCode::SUCCESS
    }
}
