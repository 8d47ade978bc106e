//! One GTP engine as a child process: commands go in on its stdin, replies
//! come back on its stdout. Every reply is awaited with a deadline, and an
//! engine that exits, hangs or answers out of protocol gives an error that
//! names the engine, the command and the tail of its stderr, so a broken
//! engine fails a test with a message instead of hanging it.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How much of an engine's stderr is kept for error messages (the end).
const STDERR_KEPT: usize = 3000;

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

/// A running engine. Dropping it kills the process.
pub struct GtpEngine {
    /// The engine and its role, e.g. `smallgo (White)`.
    label: String,
    child: Child,
    stdin: ChildStdin,
    /// Lines of stdout, read by a thread so that waits can time out.
    stdout_lines: Receiver<String>,
    /// The end of stderr, read by a thread so the engine never blocks on it.
    stderr_tail: Arc<Mutex<String>>,
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
        let mut child = Command::new(&command.program)
            .args(&command.arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| {
                format!(
                    "{label}: cannot start {}: {error}",
                    command.program.display()
                )
            })?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut stderr = child.stderr.take().expect("stderr is piped");

        let (sender, stdout_lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr_tail = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&stderr_tail);
        thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(count @ 1..) = stderr.read(&mut buffer) {
                let mut tail = sink.lock().unwrap_or_else(|poison| poison.into_inner());
                tail.push_str(&String::from_utf8_lossy(&buffer[..count]));
                if tail.len() > 2 * STDERR_KEPT {
                    let mut cut = tail.len() - STDERR_KEPT;
                    while !tail.is_char_boundary(cut) {
                        cut += 1;
                    }
                    tail.drain(..cut);
                }
            }
        });
        Ok(GtpEngine {
            label,
            child,
            stdin,
            stdout_lines,
            stderr_tail,
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
        let written = writeln!(self.stdin, "{command}").and_then(|()| self.stdin.flush());
        if let Err(error) = written {
            return Err(self.fault(command, &format!("could not be sent ({error})")));
        }
        let deadline = Instant::now() + self.reply_timeout;
        let mut lines: Vec<String> = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.stdout_lines.recv_timeout(left) {
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
        let grace_end = Instant::now() + EXIT_GRACE;
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break format!("exited with {status}"),
                Ok(None) if Instant::now() < grace_end => thread::sleep(Duration::from_millis(20)),
                Ok(None) => break "is still running (it will be killed)".to_string(),
                Err(error) => break format!("status unknown ({error})"),
            }
        };
        let stderr = self
            .stderr_tail
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
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

impl Drop for GtpEngine {
    fn drop(&mut self) {
        // The runner sends no `quit`: killing is immediate and cannot hang.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
