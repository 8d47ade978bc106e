//! `smallgo serve [--port P] [--bind ADDR] [--tables DIR]`: the tables over
//! HTTP as a JSON API (`crate::serve`, docs/serve.md), on the loopback
//! address unless told otherwise. Without the feature `serve` the command
//! says how to build a smallgo that has it.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::EXIT_FAILURE;

#[derive(Args, Debug)]
pub(super) struct ServeArguments {
    /// The port to listen on; 0 lets the system choose one (the line
    /// `listening on http://ADDRESS:PORT/` on standard output names it).
    #[arg(long, value_name = "P", default_value_t = 8080)]
    port: u16,

    /// The address to listen on: the loopback address by default, so that
    /// only this machine reaches the server.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    bind: String,

    /// Folder of tables, preferred to the built-in ones, as the engine's
    /// --tables.
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
}

/// `smallgo serve`.
#[cfg(feature = "serve")]
pub(super) fn run(arguments: &ServeArguments) -> ExitCode {
    if let Some(folder) = &arguments.tables {
        if let Err(message) = super::existing_folder(folder) {
            eprintln!("smallgo: serve: {message}");
            return ExitCode::from(EXIT_FAILURE);
        }
    }
    let options = crate::serve::Options {
        bind: arguments.bind.clone(),
        port: arguments.port,
        tables: arguments.tables.clone(),
    };
    match crate::serve::run(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("smallgo: serve: {message}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// `smallgo serve` in a build without the feature: an error saying how to
/// get it.
#[cfg(not(feature = "serve"))]
pub(super) fn run(arguments: &ServeArguments) -> ExitCode {
    let _ = (&arguments.port, &arguments.bind, &arguments.tables);
    eprintln!(
        "smallgo: serve: this smallgo is built without the HTTP server; build it with \
         `cargo build --release --features serve`"
    );
    ExitCode::from(EXIT_FAILURE)
}
