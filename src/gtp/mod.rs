//! The GTP engine: `smallgo` with no arguments (GTP v2 on standard input and
//! output, logs on standard error).
//!
//! `parse` reads input, `komi` keeps the komi exactly as given and works
//! out exact margins, `engine` runs the commands on the live game and its
//! perfect play (`crate::game`); the values for a board (tables or a solve
//! on the spot) come from `table::library`. This module owns the
//! conversation: one reply per command, in order, `=[id] text` or `?[id]
//! message` then an empty line, flushed at once, all written by `Replies`,
//! which lets no empty line or control character into a reply whatever a
//! command answers; standard output that fails ends the engine with a
//! message and a failure. Input is read on its own thread, so that
//! `kata-analyze` and `lz-analyze` can stream lines until the next input
//! line arrives,
//! keeping at most `MAX_LINE_BYTES` of a line: a longer one is answered `?
//! line too long`.

pub mod engine;
pub mod komi;
pub mod parse;

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
    /// Pick `genmove`'s move at random among those that keep the best
    /// result, from this seed.
    pub random_seed: Option<u64>,
}

/// The longest input line the engine reads, newline included: GTP lines
/// are short, and a longer one is read past (without being kept) and
/// answered `? line too long`, so memory stays bounded whatever the input.
pub const MAX_LINE_BYTES: usize = 16 * 1024;

/// A line of input, as the reader thread passes it on.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Input {
    Line(String),
    /// A line longer than `MAX_LINE_BYTES`: its first bytes.
    TooLong(String),
}

/// Reads one line (up to and including its newline, or to the end of the
/// input) from `input` into `line`, keeping at most `limit` bytes of it and
/// reading past the rest. `None` at the end of the input; otherwise
/// whether the line was longer than `limit`.
fn read_bounded_line(
    input: &mut impl BufRead,
    line: &mut Vec<u8>,
    limit: usize,
) -> io::Result<Option<bool>> {
    line.clear();
    let mut read = false;
    let mut too_long = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if buffer.is_empty() {
            return Ok(read.then_some(too_long));
        }
        read = true;
        let (length, ended) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (buffer.len(), false),
        };
        let room = limit.saturating_sub(line.len());
        if length > room {
            too_long = true;
        }
        line.extend_from_slice(&buffer[..length.min(room)]);
        input.consume(length);
        if ended {
            return Ok(Some(too_long));
        }
    }
}

/// Reads lines from standard input on a thread of its own.
fn spawn_reader() -> Receiver<Input> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let stdin = io::stdin();
        let mut input = stdin.lock();
        let mut line = Vec::new();
        while let Ok(Some(too_long)) = read_bounded_line(&mut input, &mut line, MAX_LINE_BYTES) {
            let text = String::from_utf8_lossy(&line).into_owned();
            let read = if too_long {
                Input::TooLong(text)
            } else {
                Input::Line(text)
            };
            if sender.send(read).is_err() {
                break;
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

/// A reply's text as it may be sent: every control character but the line
/// breaks escaped as Rust writes it (`\r`, `\u{7}`), and no empty line
/// after the first (an empty line ends a reply, so what followed it would
/// read as the next reply). The first line may be empty: it follows the
/// status (`showboard` starts its diagram on the next line).
fn reply_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (number, line) in text.split('\n').enumerate() {
        if number > 0 {
            if line.trim().is_empty() {
                continue;
            }
            out.push('\n');
        }
        for c in line.chars() {
            if c.is_control() {
                out.extend(c.escape_debug());
            } else {
                out.push(c);
            }
        }
    }
    out
}

/// Standard output as the engine answers on it: every reply, and every
/// line of a streamed one, is written here, through `reply_text`, and
/// flushed at once.
struct Replies<W: Write> {
    out: W,
}

impl<W: Write> Replies<W> {
    /// A whole reply: `=[id] text` or `?[id] text`, then an empty line.
    fn reply(&mut self, ok: bool, id: Option<u64>, text: &str) -> io::Result<()> {
        write!(self.out, "{} {}\n\n", status(ok, id), reply_text(text))?;
        self.out.flush()
    }

    /// The first line of a streamed reply: its status alone.
    fn open_stream(&mut self, id: Option<u64>) -> io::Result<()> {
        writeln!(self.out, "{}", status(true, id))
    }

    /// A line of a streamed reply (an empty one is left out).
    fn stream_line(&mut self, text: &str) -> io::Result<()> {
        let text = reply_text(text);
        if !text.trim().is_empty() {
            writeln!(self.out, "{text}")?;
        }
        self.out.flush()
    }

    /// The empty line that ends a streamed reply.
    fn close_stream(&mut self) -> io::Result<()> {
        writeln!(self.out)?;
        self.out.flush()
    }
}

/// The id that a line cut short starts with, if its first word is a
/// number followed by more.
fn id_of_long_line(start: &str) -> Option<u64> {
    let cleaned = parse::clean(start)?;
    let (first, _) = cleaned.split_once(' ')?;
    first
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| first.parse().ok())
        .flatten()
}

/// Serves GTP until `quit` or the end of input. Standard output that fails
/// (full, or an error) ends the engine with a message and a failure; a
/// controller that has gone (a broken pipe) ends it quietly.
pub fn serve(options: Options) -> ExitCode {
    let library =
        Tablebase::with_sources(options.tables.as_deref(), options.without_built_in_tables);
    let mut engine = Engine::new(
        library,
        Settings {
            resign: options.resign,
            random_seed: options.random_seed,
        },
    );
    let input = spawn_reader();
    let stdout = io::stdout();
    let mut replies = Replies { out: stdout.lock() };
    match converse(&mut engine, &input, &mut replies) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("smallgo: cannot write to standard output: {error}");
            ExitCode::from(1)
        }
    }
}

/// Answers every command that arrives, until `quit` or the end of input.
fn converse<W: Write>(
    engine: &mut Engine,
    input: &Receiver<Input>,
    replies: &mut Replies<W>,
) -> io::Result<()> {
    let mut pending: Option<Input> = None;
    loop {
        let raw = match pending.take() {
            Some(read) => read,
            None => match input.recv() {
                Ok(read) => read,
                Err(_) => return Ok(()),
            },
        };
        let raw = match raw {
            Input::Line(line) => line,
            Input::TooLong(start) => {
                replies.reply(false, id_of_long_line(&start), "line too long")?;
                continue;
            }
        };
        let Some(line) = parse::clean(&raw) else {
            continue;
        };
        let Some(command) = parse::command_line(&line) else {
            replies.reply(false, parse::leading_id(&line), "syntax error")?;
            continue;
        };
        let id = command.id;
        match engine.execute(command.name, &command.arguments) {
            Reply::Success(text) => replies.reply(true, id, &text)?,
            Reply::Failure(message) => replies.reply(false, id, &message)?,
            Reply::Quit => return replies.reply(true, id, ""),
            Reply::Analyze(request) => match engine.analyze_line(&request) {
                Err(message) => replies.reply(false, id, &message)?,
                Ok(analysis) => {
                    replies.open_stream(id)?;
                    pending = stream_analysis(replies, input, &analysis, request.interval)?;
                }
            },
        }
    }
}

/// Writes the analysis line, again every `interval`, until any input line
/// arrives; then ends the reply with an empty line. Returns the line that
/// stopped it, to be run next.
fn stream_analysis<W: Write>(
    replies: &mut Replies<W>,
    input: &Receiver<Input>,
    analysis: &str,
    interval: Option<Duration>,
) -> io::Result<Option<Input>> {
    loop {
        replies.stream_line(analysis)?;
        let next = match interval {
            Some(interval) => match input.recv_timeout(interval) {
                Ok(line) => Some(line),
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => None,
            },
            None => input.recv().ok(),
        };
        replies.close_stream()?;
        return Ok(next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_carry_no_empty_line_and_no_control_character() {
        assert_eq!(reply_text("B+9"), "B+9");
        assert_eq!(reply_text("\n   A B\n1 . . 1"), "\n   A B\n1 . . 1");
        assert_eq!(reply_text("a\n\n= 5\n"), "a\n= 5");
        assert_eq!(reply_text("a\n \t\nb"), "a\nb");
        assert_eq!(reply_text("x\ry\u{7}\tz"), "x\\ry\\u{7}\\tz");
        let mut replies = Replies { out: Vec::new() };
        replies.reply(false, Some(3), "one\n\ntwo\r").unwrap();
        assert_eq!(
            String::from_utf8(replies.out).unwrap(),
            "?3 one\ntwo\\r\n\n"
        );
    }

    #[test]
    fn long_lines_are_read_past_in_bounded_memory() {
        let text = format!("1 name\n2 {}\n3 version", "x".repeat(100));
        let mut input = io::BufReader::with_capacity(7, text.as_bytes());
        let mut line = Vec::new();
        let mut read = Vec::new();
        while let Some(too_long) = read_bounded_line(&mut input, &mut line, 20).unwrap() {
            assert!(line.len() <= 20);
            read.push((String::from_utf8(line.clone()).unwrap(), too_long));
        }
        assert_eq!(
            read,
            [
                ("1 name\n".to_string(), false),
                (format!("2 {}", "x".repeat(18)), true),
                ("3 version".to_string(), false),
            ]
        );
        assert_eq!(id_of_long_line("2 xxxx"), Some(2));
        assert_eq!(id_of_long_line("xxxx"), None);
        assert_eq!(id_of_long_line("22xx yy"), None);
    }
}
