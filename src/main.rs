//! The `smallgo` binary: a thin shell around `smallgo::run`.

use std::process::ExitCode;

fn main() -> ExitCode {
    smallgo::run(std::env::args_os())
}
