//! `smallgo analysis [--tables DIR] [KATAGO-ARGUMENTS...]`: KataGo's JSON
//! analysis engine (`crate::game::katago`) on standard input and output,
//! one answer line per analyzed turn, each written as soon as it is made.
//! The arguments a KataGo client passes (`-model`, `-config`, ...) are
//! accepted and ignored: the values are exact and need neither.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::game::katago::Analyzer;
use crate::table::library::Tablebase;

use super::EXIT_FAILURE;

#[derive(Args, Debug)]
pub(super) struct AnalysisArguments {
    /// Folder of tables, preferred to the built-in ones, as the engine's
    /// --tables.
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,

    /// KataGo's own arguments (-model FILE, -config FILE, ...), ignored.
    #[arg(
        value_name = "KATAGO-ARGUMENTS",
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    katago: Vec<String>,
}

/// `smallgo analysis`.
pub(super) fn run(arguments: &AnalysisArguments) -> ExitCode {
    if let Some(folder) = &arguments.tables {
        if let Err(message) = super::existing_folder(folder) {
            eprintln!("smallgo: analysis: {message}");
            return ExitCode::from(EXIT_FAILURE);
        }
    }
    let mut analyzer = Analyzer::new(Tablebase::with_sources(arguments.tables.as_deref(), false));
    let stdin = io::stdin();
    let mut stdout = io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(line) => line,
            Err(error) => {
                eprintln!("smallgo: analysis: reading standard input: {error}");
                return ExitCode::from(EXIT_FAILURE);
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        for answer in analyzer.answer(&line) {
            if writeln!(stdout, "{answer}")
                .and_then(|()| stdout.flush())
                .is_err()
            {
                return ExitCode::SUCCESS;
            }
        }
    }
    ExitCode::SUCCESS
}
