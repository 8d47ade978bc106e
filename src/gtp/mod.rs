//! The GTP engine: `smallgo` with no arguments (GTP v2 on standard input and
//! output, logs on standard error).
//!
//! `parse` reads input, `game` keeps the live game, `engine` runs the
//! commands; the values for a board (tables or a solve on the spot) come
//! from `table::library`. This module owns the conversation: one reply per command, in
//! order, `=[id] text` or `?[id] message` then an empty line, flushed at
//! once. Input is read on its own thread, so that `kata-analyze` can stream
//! lines until the next input line arrives.

pub mod engine;
pub mod game;
pub mod parse;
pub mod perfect;

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use crate::table::library::Tablebase;
use engine::{Engine, Reply, Settings};

/// How the engine is started.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// A folder of tables that add to or override the built-in ones.
    pub tables: Option<PathBuf>,
    /// Leave the built-in tables out (tests, comparisons).
    pub without_built_in_tables: bool,
    /// Resign lost positions instead of playing them out.
    pub resign: bool,
}

/// Reads lines from standard input on a thread of its own.
fn spawn_reader() -> Receiver<String> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let stdin = io::stdin();
        let mut input = stdin.lock();
        let mut line = Vec::new();
        loop {
            line.clear();
            match input.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if sender
                        .send(String::from_utf8_lossy(&line).into_owned())
                        .is_err()
                    {
                        break;
                    }
                }
            }
        }
    });
    receiver
}

fn status(ok: bool, id: Option<u64>) -> String {
    let mark = if ok { '=' } else { '?' };
    match id {
        Some(id) => format!("{mark}{id}"),
        None => mark.to_string(),
    }
}

/// Serves GTP until `quit` or the end of input.
pub fn serve(options: Options) -> ExitCode {
    let library =
        Tablebase::with_sources(options.tables.as_deref(), options.without_built_in_tables);
    let mut engine = Engine::new(
        library,
        Settings {
            resign: options.resign,
        },
    );
    let input = spawn_reader();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut pending: Option<String> = None;
    loop {
        let raw = match pending.take() {
            Some(line) => line,
            None => match input.recv() {
                Ok(line) => line,
                Err(_) => break,
            },
        };
        let Some(line) = parse::clean(&raw) else {
            continue;
        };
        let Some(command) = parse::command_line(&line) else {
            let reply = format!(
                "{} syntax error\n\n",
                status(false, parse::leading_id(&line))
            );
            if out
                .write_all(reply.as_bytes())
                .and_then(|()| out.flush())
                .is_err()
            {
                break;
            }
            continue;
        };
        let id = command.id;
        let written = match engine.execute(command.name, &command.arguments) {
            Reply::Success(text) => write!(out, "{} {text}\n\n", status(true, id)),
            Reply::Failure(message) => write!(out, "{} {message}\n\n", status(false, id)),
            Reply::Quit => {
                let _ = write!(out, "{} \n\n", status(true, id)).and_then(|()| out.flush());
                break;
            }
            Reply::Analyze(request) => match engine.kata_analyze_line(&request) {
                Err(message) => write!(out, "{} {message}\n\n", status(false, id)),
                Ok(analysis) => {
                    let header = status(true, id);
                    stream_analysis(&mut out, &input, header, &analysis, request.interval)
                        .map(|next| pending = next)
                }
            },
        };
        if written.and_then(|()| out.flush()).is_err() {
            break;
        }
    }
    ExitCode::SUCCESS
}

/// Writes `=` and the analysis line, again every `interval`, until any input
/// line arrives; then ends the reply with an empty line. Returns the line
/// that stopped it, to be run next.
fn stream_analysis(
    out: &mut impl Write,
    input: &Receiver<String>,
    header: String,
    analysis: &str,
    interval: Option<Duration>,
) -> io::Result<Option<String>> {
    writeln!(out, "{header}")?;
    loop {
        if !analysis.is_empty() {
            writeln!(out, "{analysis}")?;
        }
        out.flush()?;
        let next = match interval {
            Some(interval) => match input.recv_timeout(interval) {
                Ok(line) => Some(line),
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => None,
            },
            None => input.recv().ok(),
        };
        writeln!(out)?;
        out.flush()?;
        return Ok(next);
    }
}
