//! `smallgo verify TABLE... [--tables DIR] [--memory SIZE]`: checks tables
//! with the verifier (`table::verify`), independently of the builder.
//!
//! A TABLE is a file, or a board written `RxC` (rows x columns), which
//! stands for the table the engine would use for that board: `DIR/RxC.sgtb`
//! when `--tables DIR` has it, else the built-in one. A file whose name has
//! that form is written with a folder, as `./3x4`. Each table's result is one
//! line on standard output; each failure a message on stderr naming the file
//! or board, and the exit code is non-zero if any failed. With `--json` each
//! TABLE gets one `verify` object on standard output, a failure too
//! (`docs/json.md`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::json::Json;
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
pub fn run(
    tables: &[PathBuf],
    folder: Option<&Path>,
    memory: Option<u64>,
    as_json: bool,
) -> ExitCode {
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
        Ok(pool) => pool.install(|| verify_all(tables, folder, options, as_json)),
        Err(message) => {
            eprintln!("smallgo: verify: {message}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// A `verify` object: the TABLE argument, the table verified (a path, or
/// the board of a built-in one), and its figures or the error.
fn verify_json(
    argument: &Path,
    found: Option<(&str, &Found)>,
    report: Result<&VerifyReport, &str>,
) -> Json {
    let (table, built_in) = match found {
        Some((what, Found::File(_))) => (Some(what), false),
        Some((what, Found::BuiltIn(_))) => (Some(what), true),
        None => (None, false),
    };
    let figures = report.map(|report| Figures {
        states: report.states,
        solver_edges: Some(report.edges),
        passes: report.passes,
        seconds: report.seconds,
    });
    verify_object(argument.display().to_string(), table, built_in, figures)
}

/// What a `verify` object gives of a table that verified.
struct Figures {
    states: u64,
    /// None for a table that does not count them (win/draw/loss).
    solver_edges: Option<u64>,
    passes: u32,
    seconds: f64,
}

/// A `verify` object from its parts: the figures of a table that
/// verified, or the error (its figures null).
fn verify_object(
    argument: String,
    table: Option<&str>,
    built_in: bool,
    figures: Result<Figures, &str>,
) -> Json {
    let object = Json::kind("verify")
        .with("argument", argument)
        .with("table", table)
        .with("built_in", built_in)
        .with("ok", figures.is_ok());
    match figures {
        Ok(figures) => object
            .with("states", figures.states)
            .with("solver_edges", figures.solver_edges)
            .with("passes", figures.passes)
            .with("seconds", figures.seconds)
            .with("error", None::<String>),
        Err(message) => object
            .with("states", Json::Null)
            .with("solver_edges", Json::Null)
            .with("passes", Json::Null)
            .with("seconds", Json::Null)
            .with("error", message),
    }
}

/// Verifies a win/draw/loss table (`table::wdl::check`), printing its
/// line or its `verify` object; false if it failed.
fn verify_wdl(path: &Path, as_json: bool) -> bool {
    use crate::table::wdl::{check, komi_text, WdlTable};
    let checked = WdlTable::open(path).and_then(|table| check::verify(&table));
    let what = path.display().to_string();
    if as_json {
        let message = checked.as_ref().map_err(|error| error.to_string());
        let figures = match &message {
            Ok(report) => Ok(Figures {
                states: report.states,
                solver_edges: None,
                passes: 3,
                seconds: report.seconds,
            }),
            Err(message) => Err(message.as_str()),
        };
        let object = verify_object(what.clone(), Some(&what), false, figures);
        if let Err(message) = &message {
            eprintln!("smallgo: verify: {message}");
        }
        let _ = outln!("{object}");
        return message.is_ok();
    }
    if let Ok(report) = &checked {
        let peak = crate::common::host::peak_memory().unwrap_or(0);
        let states = report.states.max(1) as f64;
        log::info!(
            "{what}: cells held {} bytes ({:.2} bytes a state), peak memory {peak} bytes ({:.2} bytes a state)",
            report.held_bytes,
            report.held_bytes as f64 / states,
            peak as f64 / states
        );
    }
    match checked {
        Ok(report) => {
            let _ = outln!(
                "{what}: ok (win/draw/loss at komi {}, {} states, both colours, {:.2} s)",
                komi_text(report.komi2),
                report.states,
                report.seconds
            );
            true
        }
        Err(error) => {
            eprintln!("smallgo: verify: {error}");
            false
        }
    }
}

/// Verifies each of `tables` (files or boards) in turn.
fn verify_all(
    tables: &[PathBuf],
    folder: Option<&Path>,
    options: VerifyOptions,
    as_json: bool,
) -> ExitCode {
    let mut failed = false;
    let end = |error: std::io::Error, failed: bool| {
        let code = output_failed(&error);
        if failed {
            ExitCode::from(EXIT_FAILURE)
        } else {
            code
        }
    };
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
                if as_json {
                    if let Err(error) = outln!("{}", verify_json(argument, None, Err(&message))) {
                        return end(error, failed);
                    }
                }
                continue;
            }
        };
        if let Found::File(path) = &found {
            if path
                .extension()
                .is_some_and(|e| e == crate::table::wdl::EXTENSION)
            {
                failed |= !verify_wdl(path, as_json);
                continue;
            }
        }
        let shown = match found {
            Found::File(_) => what.clone(),
            Found::BuiltIn(_) => format!("{what} (built in)"),
        };
        let verified = verify_one(&found, &what, options);
        if as_json {
            let message = verified.as_ref().map_err(|error| error.to_string());
            let object = verify_json(
                argument,
                Some((&what, &found)),
                match &message {
                    Ok(report) => Ok(*report),
                    Err(message) => Err(message.as_str()),
                },
            );
            if let Err(error) = &verified {
                eprintln!("smallgo: verify: {error}");
                failed = true;
            }
            if let Err(error) = outln!("{object}") {
                return end(error, failed);
            }
            continue;
        }
        match verified {
            Ok(report) => {
                if let Err(error) = outln!(
                    "{shown}: ok ({} states, {} edges, {} {}, {:.2} s)",
                    report.states,
                    report.edges,
                    report.passes,
                    if report.passes == 1 { "pass" } else { "passes" },
                    report.seconds
                ) {
                    return end(error, failed);
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
