//! One GTP engine as a child process: commands go in on its stdin, replies
//! come back on its stdout. Every reply is awaited with a deadline, and an
//! engine that exits, hangs or answers out of protocol gives an error that
//! names the engine, the command and the tail of its stderr, so a broken
//! engine fails a test with a message instead of hanging it. The process
//! and its pipes are a `child::ChildProcess`; this module owns the strict
//! reading of replies and the messages.

use std::path::PathBuf;
use std::process::Command;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use super::child::ChildProcess;

/// How much of an engine's stderr is shown in error messages (the end).
const STDERR_SHOWN_BYTES: usize = 3000;

/// How long to wait for an engine that closed its output to exit, so that
/// its exit status and last stderr lines can be reported.
const EXIT_GRACE: Duration = Duration::from_secs(1);

/// How to start an engine.
#[derive(Clone, Debug)]
pub struct EngineCommand {
    /// A short name for messages: `smallgo`, `gnugo`.
    pub name: String,
    pub program: PathBuf,
    pub arguments: Vec<String>,
}

/// A GTP reply: success (`=`) or failure (`?`), and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub success: bool,
    pub text: String,
}

/// A running engine. Dropping it kills the process (the runner sends no
/// `quit`: killing is immediate and cannot hang).
pub struct GtpEngine {
    /// The engine and its role, e.g. `smallgo (White)`.
    label: String,
    process: ChildProcess,
    reply_timeout: Duration,
}

impl GtpEngine {
    /// Starts `command` in the role `role` (for messages).
    pub fn start(
        command: &EngineCommand,
        role: &str,
        reply_timeout: Duration,
    ) -> Result<GtpEngine, String> {
        let label = format!("{} ({role})", command.name);
        let process = ChildProcess::start(Command::new(&command.program).args(&command.arguments))
            .map_err(|error| {
                format!(
                    "{label}: cannot start {}: {error}",
                    command.program.display()
                )
            })?;
        Ok(GtpEngine {
            label,
            process,
            reply_timeout,
        })
    }

    /// The engine and its role, for messages.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Sends one command and waits for its whole reply (up to the blank line
    /// that ends it). An error means the engine is unusable: it exited, hung,
    /// or answered something that is not a GTP reply.
    pub fn send(&mut self, command: &str) -> Result<Reply, String> {
        if let Err(error) = self.process.write_line(command) {
            return Err(self.fault(command, &format!("could not be sent ({error})")));
        }
        let deadline = Instant::now() + self.reply_timeout;
        let mut lines: Vec<String> = Vec::new();
        loop {
            match self.process.read_line(deadline) {
                Ok(line) => {
                    let line = line.trim_end_matches('\r');
                    if line.trim().is_empty() {
                        if lines.is_empty() {
                            continue;
                        }
                        break;
                    }
                    lines.push(line.to_string());
                }
                Err(RecvTimeoutError::Timeout) => {
                    let waited = self.reply_timeout.as_secs_f64();
                    return Err(self.fault(
                        command,
                        &format!(
                            "got no complete reply within {waited} s (reply so far: {lines:?})"
                        ),
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.fault(
                        command,
                        &format!("got no complete reply: the engine closed its output (reply so far: {lines:?})"),
                    ));
                }
            }
        }
        let first = &lines[0];
        let success = match first.chars().next() {
            Some('=') => true,
            Some('?') => false,
            _ => {
                return Err(self.fault(command, &format!("got a reply that is not GTP: {lines:?}")))
            }
        };
        // Drop the status character and the (unused) command id.
        let first = first[1..].trim_start_matches(|c: char| c.is_ascii_digit());
        let mut text = first.trim().to_string();
        for line in &lines[1..] {
            text.push('\n');
            text.push_str(line);
        }
        Ok(Reply { success, text })
    }

    /// Sends a command that must succeed and gives the reply's text.
    pub fn expect_success(&mut self, command: &str) -> Result<String, String> {
        let reply = self.send(command)?;
        if reply.success {
            Ok(reply.text)
        } else {
            Err(format!(
                "{} answered `{command}` with `? {}`",
                self.label, reply.text
            ))
        }
    }

    /// Describes a fault while running `command`, with the exit status (if
    /// the engine ended) and the end of its stderr.
    fn fault(&mut self, command: &str, what: &str) -> String {
        let status = match self.process.exit_status_within(EXIT_GRACE) {
            Ok(Some(status)) => format!("exited with {status}"),
            Ok(None) => "is still running (it will be killed)".to_string(),
            Err(error) => format!("status unknown ({error})"),
        };
        let stderr = self
            .process
            .stderr_tail(STDERR_SHOWN_BYTES)
            .trim()
            .to_string();
        let stderr = if stderr.is_empty() {
            "(empty)".to_string()
        } else {
            stderr
        };
        format!(
            "{}: `{command}` {what}; the engine {status}; its stderr ends with:\n{stderr}",
            self.label
        )
    }
}
