//! The one way the tests talk GTP to an engine process (smallgo, GNU Go or
//! any other): the regression runner of `tests/gtp_regress.rs`, the
//! byte-for-byte checks of `tests/gtp_protocol.rs`, the engines of
//! `tests/faults.rs` and the players and referee of `twogtp` all go through
//! `GtpEngine`. It owns starting the engine with its standard streams
//! piped, a thread that forwards its standard output line by line (so that
//! every read has a deadline) and one that keeps the end of its standard
//! error, reading a reply (with any lines before its status line, which GTP
//! does not allow, kept apart), and the `Fault` of an engine that exits,
//! hangs or cannot be written to: it names the engine, the command, how
//! the engine ended and the end of its standard error, so that a broken
//! engine fails a test with a message instead of hanging it. What a reply
//! means is each caller's business. Dropping an engine kills it.

use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

/// The longest an engine may take to answer one command completely, or to
/// exit when asked to.
pub(crate) const REPLY_TIMEOUT: Duration = Duration::from_secs(30);

/// How long to wait for the exit status of an engine that stopped talking,
/// so that a fault can say how it ended.
const EXIT_GRACE: Duration = Duration::from_secs(2);

/// How much of the standard error is kept (the end).
const STDERR_KEPT_BYTES: usize = 64 * 1024;

/// How long reading the standard error waits for it to close, so that a
/// dying engine's last words are there.
const STDERR_SETTLE: Duration = Duration::from_millis(500);

/// How much of the standard error a fault shows: its last lines, and at
/// most this many bytes of them.
const STDERR_SHOWN_LINES: usize = 15;
const STDERR_SHOWN_BYTES: usize = 3000;

/// How to start an engine.
#[derive(Clone, Debug)]
pub(crate) struct EngineCommand {
    /// A short name for messages: `smallgo`, `gnugo`.
    pub(crate) name: String,
    pub(crate) program: PathBuf,
    pub(crate) arguments: Vec<String>,
}

impl EngineCommand {
    /// The smallgo binary under test.
    pub(crate) fn smallgo(arguments: &[&str]) -> EngineCommand {
        EngineCommand {
            name: "smallgo".to_string(),
            program: PathBuf::from(env!("CARGO_BIN_EXE_smallgo")),
            arguments: arguments.iter().map(|&argument| argument.into()).collect(),
        }
    }

    /// GNU Go, found on PATH or where Debian puts it (`/usr/games` is often
    /// not on PATH). Panics with instructions if it is missing: CI installs
    /// it, so a missing GNU Go must not pass as a skipped test.
    pub(crate) fn gnugo(arguments: &[&str]) -> EngineCommand {
        let on_path = std::env::var_os("PATH")
            .map(|path| {
                std::env::split_paths(&path)
                    .map(|folder| folder.join("gnugo"))
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        let program = on_path
            .into_iter()
            .chain([PathBuf::from("/usr/games/gnugo")])
            .find(|candidate| candidate.is_file())
            .unwrap_or_else(|| {
                panic!(
                    "GNU Go is needed but was found neither on PATH nor at /usr/games/gnugo; \
                     install it (Debian/Ubuntu: apt-get install gnugo)"
                )
            });
        EngineCommand {
            name: "gnugo".to_string(),
            program,
            arguments: arguments.iter().map(|&argument| argument.into()).collect(),
        }
    }

    /// A command line split at whitespace (no quoting), named after its
    /// program, for manual runs against another engine.
    pub(crate) fn from_command_line(command_line: &str) -> Option<EngineCommand> {
        let mut words = command_line.split_whitespace();
        let program = PathBuf::from(words.next()?);
        let name = program.file_name()?.to_string_lossy().into_owned();
        Some(EngineCommand {
            name,
            program,
            arguments: words.map(str::to_string).collect(),
        })
    }
}

/// The command line.
impl fmt::Display for EngineCommand {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{}", self.program.display())?;
        for argument in &self.arguments {
            write!(formatter, " {argument}")?;
        }
        Ok(())
    }
}

/// One reply as it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Reply {
    /// The lines read before the status line, which belong to no reply.
    pub(crate) stray_lines: Vec<String>,
    /// The status line (`=` or `?`, an optional id, the text) and the lines
    /// after it, without the empty line that ends the reply.
    pub(crate) lines: Vec<String>,
}

impl Reply {
    /// True for `=`, false for `?`.
    pub(crate) fn success(&self) -> bool {
        self.lines[0].starts_with('=')
    }

    /// The text without the status character and the id, its first line
    /// trimmed.
    pub(crate) fn text(&self) -> String {
        let first = self.lines[0][1..].trim_start_matches(|c: char| c.is_ascii_digit());
        let mut text = first.trim().to_string();
        for line in &self.lines[1..] {
            text.push('\n');
            text.push_str(line);
        }
        text
    }

    /// Every line read for it, in order: the stray lines, then its own.
    pub(crate) fn all_lines(&self) -> Vec<String> {
        [&self.stray_lines[..], &self.lines[..]].concat()
    }
}

/// Why an engine gave no reply.
#[derive(Debug)]
pub(crate) struct Fault {
    /// True when the engine closed its output or input (usually: it
    /// exited); false when it gave no complete reply in time and was
    /// killed.
    pub(crate) exited: bool,
    /// The engine, what was sent, what went wrong and how the engine ended.
    pub(crate) message: String,
    /// The last lines of the engine's standard error.
    pub(crate) stderr_tail: String,
}

impl fmt::Display for Fault {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stderr = match self.stderr_tail.trim() {
            "" => "(nothing)",
            tail => tail,
        };
        write!(
            formatter,
            "{}; its standard error ends with:\n{stderr}",
            self.message
        )
    }
}

/// The standard error, filled by a thread.
#[derive(Default)]
struct StderrCapture {
    /// The last bytes written, at most `STDERR_KEPT_BYTES`.
    kept: Vec<u8>,
    /// How many bytes were written in all, kept or not.
    total: usize,
    closed: bool,
}

impl StderrCapture {
    /// The kept bytes from the absolute position `from` on (from the first
    /// kept byte if `from` is no longer kept).
    fn from(&self, from: usize) -> &[u8] {
        let first_kept = self.total - self.kept.len();
        &self.kept[from.saturating_sub(first_kept).min(self.kept.len())..]
    }
}

/// Where a read for a reply stopped short.
enum Silence {
    TimedOut,
    Closed,
}

/// A running engine. Dropping it kills the process: no caller has to send
/// anything for it to end, and the kill cannot hang.
pub(crate) struct GtpEngine {
    /// The engine as messages name it, e.g. `smallgo (White)`.
    label: String,
    child: Child,
    /// `None` once closed.
    stdin: Option<ChildStdin>,
    /// The lines of standard output, without their line ending.
    stdout_lines: Receiver<String>,
    stderr: Arc<Mutex<StderrCapture>>,
    /// Where the standard error not yet looked at by `new_stderr` begins.
    stderr_seen: usize,
    /// The last line sent, for messages.
    last_sent: String,
}

impl GtpEngine {
    /// Starts `command` in `folder` (the test's own folder if `None`),
    /// called `label` in messages. `RUST_LOG=info` keeps smallgo's logs,
    /// which some tests read, at their default level whatever the
    /// environment of `cargo test` says.
    pub(crate) fn start(
        command: &EngineCommand,
        label: &str,
        folder: Option<&Path>,
    ) -> Result<GtpEngine, String> {
        let mut process = Command::new(&command.program);
        process.args(&command.arguments).env("RUST_LOG", "info");
        if let Some(folder) = folder {
            process.current_dir(folder);
        }
        let mut child = process
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| {
                let place = folder.map_or(String::new(), |f| format!(" in {}", f.display()));
                format!("{label}: cannot start `{command}`{place}: {error}")
            })?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        Ok(GtpEngine {
            label: label.to_string(),
            child,
            stdin: Some(stdin),
            stdout_lines: forward_lines(stdout),
            stderr: keep_end(stderr),
            stderr_seen: 0,
            last_sent: String::new(),
        })
    }

    /// The engine as messages name it.
    pub(crate) fn label(&self) -> &str {
        &self.label
    }

    /// Sends one command line and reads its reply.
    pub(crate) fn ask(&mut self, command: &str) -> Result<Reply, Fault> {
        self.send_line(command)?;
        self.read_reply()
    }

    /// Sends `command` as a game needs it answered: the reply, or an error
    /// message when the engine is unusable (it exited, hung, or wrote
    /// anything but blank lines outside a reply).
    pub(crate) fn reply_to(&mut self, command: &str) -> Result<Reply, String> {
        let reply = self.ask(command).map_err(|fault| fault.to_string())?;
        if reply.stray_lines.iter().any(|line| !line.trim().is_empty()) {
            return Err(format!(
                "{}: `{command}` got lines that are not part of a GTP reply: {:?}",
                self.label,
                reply.all_lines()
            ));
        }
        Ok(reply)
    }

    /// Sends a command that must succeed and gives the reply's text.
    pub(crate) fn expect_success(&mut self, command: &str) -> Result<String, String> {
        let reply = self.reply_to(command)?;
        if reply.success() {
            Ok(reply.text())
        } else {
            Err(format!(
                "{} answered `{command}` with `? {}`",
                self.label,
                reply.text()
            ))
        }
    }

    /// Writes `line` and a newline to the standard input, flushed.
    pub(crate) fn send_line(&mut self, line: &str) -> Result<(), Fault> {
        self.send_raw(format!("{line}\n").as_bytes())
    }

    /// Writes `bytes` as they are to the standard input, flushed.
    pub(crate) fn send_raw(&mut self, bytes: &[u8]) -> Result<(), Fault> {
        self.last_sent = String::from_utf8_lossy(bytes).trim_end().to_string();
        let written = match self.stdin.as_mut() {
            Some(stdin) => stdin.write_all(bytes).and_then(|()| stdin.flush()),
            None => Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "standard input closed",
            )),
        };
        written.map_err(|error| self.ended(&format!("could not be sent ({error})")))
    }

    /// Reads one reply: any lines before a status line (`=` or `?`) are set
    /// aside as stray, then lines are read up to the first empty one.
    pub(crate) fn read_reply(&mut self) -> Result<Reply, Fault> {
        let deadline = Instant::now() + REPLY_TIMEOUT;
        let mut read = Vec::new();
        let mut status_line_at = None;
        loop {
            let line = match self.next_line(deadline) {
                Ok(line) => line,
                Err(silence) => return Err(self.silent(silence, &read)),
            };
            match status_line_at {
                Some(_) if line.is_empty() => break,
                None if line.starts_with(['=', '?']) => status_line_at = Some(read.len()),
                _ => {}
            }
            read.push(line);
        }
        let lines = read.split_off(status_line_at.expect("a status line was read"));
        Ok(Reply {
            stray_lines: read,
            lines,
        })
    }

    /// The next line of standard output, whatever it is.
    pub(crate) fn read_line(&mut self) -> Result<String, Fault> {
        self.next_line(Instant::now() + REPLY_TIMEOUT)
            .map_err(|silence| self.silent(silence, &[]))
    }

    /// Closes the standard input: the engine reads its end.
    pub(crate) fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The exit status, once the engine ends; `None`, and the engine
    /// killed, if it still runs after `REPLY_TIMEOUT`.
    pub(crate) fn exit_status(&mut self) -> Option<ExitStatus> {
        let status = self.exit_status_within(REPLY_TIMEOUT);
        if status.is_none() {
            self.kill();
        }
        status
    }

    /// The whole lines of standard error written since the last call,
    /// after a moment for those on their way.
    pub(crate) fn new_stderr(&mut self) -> String {
        thread::sleep(Duration::from_millis(100));
        let capture = lock(&self.stderr);
        let text = capture.from(self.stderr_seen);
        let whole_lines = text
            .iter()
            .rposition(|&byte| byte == b'\n')
            .map_or(0, |at| at + 1);
        self.stderr_seen = capture.total - (text.len() - whole_lines);
        String::from_utf8_lossy(&text[..whole_lines]).into_owned()
    }

    /// The standard error as far as it is kept (its last 64 KiB), once it
    /// closed or after a moment, so that a dying engine's last lines are
    /// there.
    pub(crate) fn stderr(&self) -> String {
        let settled = Instant::now() + STDERR_SETTLE;
        while !lock(&self.stderr).closed && Instant::now() < settled {
            thread::sleep(Duration::from_millis(10));
        }
        let capture = lock(&self.stderr);
        let mut kept = &capture.kept[..];
        // Start on a character, not inside one.
        while kept.first().is_some_and(|byte| byte & 0xC0 == 0x80) {
            kept = &kept[1..];
        }
        String::from_utf8_lossy(kept).into_owned()
    }

    fn next_line(&self, deadline: Instant) -> Result<String, Silence> {
        match self
            .stdout_lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Silence::TimedOut),
            Err(RecvTimeoutError::Disconnected) => Err(Silence::Closed),
        }
    }

    /// The fault of a read that stopped short after the lines `so_far`.
    /// An engine that is too slow is killed.
    fn silent(&mut self, silence: Silence, so_far: &[String]) -> Fault {
        match silence {
            Silence::TimedOut => {
                self.kill();
                self.fault(
                    false,
                    &format!(
                        "got no complete reply within {} s (so far: {so_far:?})",
                        REPLY_TIMEOUT.as_secs()
                    ),
                    "it was killed",
                )
            }
            Silence::Closed => self.ended(&format!(
                "got no complete reply: the engine closed its output (so far: {so_far:?})"
            )),
        }
    }

    /// The fault of an engine that stopped talking: `what` happened to the
    /// last line sent, and the engine's exit status if it has one.
    fn ended(&mut self, what: &str) -> Fault {
        let ending = match self.exit_status_within(EXIT_GRACE) {
            Some(status) => format!("it ended with {status}"),
            None => "it is still running".to_string(),
        };
        self.fault(true, what, &ending)
    }

    fn fault(&self, exited: bool, what: &str, ending: &str) -> Fault {
        let stderr = self.stderr();
        let lines: Vec<&str> = stderr.lines().collect();
        let mut tail = lines[lines.len().saturating_sub(STDERR_SHOWN_LINES)..].join("\n");
        if tail.len() > STDERR_SHOWN_BYTES {
            let mut cut = tail.len() - STDERR_SHOWN_BYTES;
            while !tail.is_char_boundary(cut) {
                cut += 1;
            }
            tail.drain(..cut);
        }
        Fault {
            exited,
            message: format!("{}: `{}` {what}; {ending}", self.label, self.last_sent),
            stderr_tail: tail,
        }
    }

    fn exit_status_within(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                _ => return None,
            }
        }
    }

    /// Kills the engine (if it still runs) and reaps it.
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for GtpEngine {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A thread that sends each line of `stdout` (without its line ending, any
/// bytes that are not UTF-8 replaced) until the output closes.
fn forward_lines(stdout: impl Read + Send + 'static) -> Receiver<String> {
    let (sender, lines) = mpsc::channel();
    thread::spawn(move || {
        for bytes in BufReader::new(stdout).split(b'\n') {
            let Ok(bytes) = bytes else { break };
            let line = String::from_utf8_lossy(&bytes);
            let line = line.strip_suffix('\r').unwrap_or(&line);
            if sender.send(line.to_string()).is_err() {
                break;
            }
        }
    });
    lines
}

/// A thread that keeps the end of `stderr` in the capture it gives.
fn keep_end(mut stderr: impl Read + Send + 'static) -> Arc<Mutex<StderrCapture>> {
    let capture = Arc::new(Mutex::new(StderrCapture::default()));
    let sink = Arc::clone(&capture);
    thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        loop {
            let read = stderr.read(&mut buffer).unwrap_or(0);
            let mut capture = lock(&sink);
            if read == 0 {
                capture.closed = true;
                break;
            }
            capture.kept.extend_from_slice(&buffer[..read]);
            capture.total += read;
            let excess = capture.kept.len().saturating_sub(STDERR_KEPT_BYTES);
            capture.kept.drain(..excess);
        }
    });
    capture
}

/// Locks the stderr capture, even after a panic in its thread.
fn lock(capture: &Mutex<StderrCapture>) -> MutexGuard<'_, StderrCapture> {
    capture
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
