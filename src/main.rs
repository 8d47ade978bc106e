//! The `smallgo` binary: a thin shell around `smallgo::cli::run`.

use std::process::ExitCode;

fn main() -> ExitCode {
    smallgo::cli::run(std::env::args_os())
}
