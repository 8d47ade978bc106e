//! A child process with piped standard streams, the part the test drivers
//! of the engine share (`gtp_engine` for the matches, and the drivers of
//! `tests/gtp_regress.rs` and `tests/gtp_protocol.rs`). It owns starting the
//! process, a thread that forwards its standard output line by line (so that
//! every read can have a deadline), a thread that keeps the end of its
//! standard error, writing to its standard input, waiting for its exit, and
//! killing it when dropped. It knows nothing of GTP: what a reply is, and
//! what a failure means, belongs to each driver.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

/// How much of the standard error is kept (the end).
const STDERR_KEPT_BYTES: usize = 64 * 1024;

/// How long `stderr_tail` waits for the standard error to close, so that a
/// dying process's last words are in the report.
const STDERR_SETTLE: Duration = Duration::from_millis(500);

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

/// A running child process. Dropping it kills the process: no driver has
/// to send anything for it to end, and the kill cannot hang.
pub struct ChildProcess {
    child: Child,
    /// `None` once closed.
    stdin: Option<ChildStdin>,
    /// The lines of standard output, without their line ending.
    stdout_lines: Receiver<String>,
    stderr: Arc<Mutex<StderrCapture>>,
}

impl ChildProcess {
    /// Starts `command` with its three standard streams piped.
    pub fn start(command: &mut Command) -> io::Result<ChildProcess> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut stderr_pipe = child.stderr.take().expect("stderr is piped");

        let (line_sender, stdout_lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                match reader.read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let mut line = String::from_utf8_lossy(&bytes).into_owned();
                        if line.ends_with('\n') {
                            line.pop();
                        }
                        if line.ends_with('\r') {
                            line.pop();
                        }
                        if line_sender.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });

        let stderr = Arc::new(Mutex::new(StderrCapture::default()));
        let sink = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            loop {
                let read = stderr_pipe.read(&mut buffer).unwrap_or(0);
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

        Ok(ChildProcess {
            child,
            stdin: Some(stdin),
            stdout_lines,
            stderr,
        })
    }

    /// Writes `line` and a newline to the standard input, flushed.
    pub fn write_line(&mut self, line: &str) -> io::Result<()> {
        self.write_bytes(format!("{line}\n").as_bytes())
    }

    /// Writes `bytes` as they are to the standard input, flushed.
    pub fn write_bytes(&mut self, bytes: &[u8]) -> io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "standard input closed"))?;
        stdin.write_all(bytes)?;
        stdin.flush()
    }

    /// Closes the standard input: the process reads its end.
    #[allow(dead_code)] // not used by the matches
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line of standard output, if one comes before `deadline`;
    /// `Disconnected` once the output is closed and every line read.
    pub fn read_line(&self, deadline: Instant) -> Result<String, RecvTimeoutError> {
        self.stdout_lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
    }

    /// The exit status, if the process ends within `timeout`.
    pub fn exit_status_within(&mut self, timeout: Duration) -> io::Result<Option<ExitStatus>> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait()? {
                Some(status) => return Ok(Some(status)),
                None if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                None => return Ok(None),
            }
        }
    }

    /// Kills the process (if it still runs) and reaps it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The last `max_bytes` (at most 64 KiB) of the standard error, for a
    /// report: it first waits a moment for the stream to close, so that a
    /// dying process's last lines are there.
    #[allow(dead_code)] // not used by tests/gtp_protocol.rs
    pub fn stderr_tail(&self, max_bytes: usize) -> String {
        let settled = Instant::now() + STDERR_SETTLE;
        while !lock(&self.stderr).closed && Instant::now() < settled {
            thread::sleep(Duration::from_millis(10));
        }
        let capture = lock(&self.stderr);
        let mut tail = capture.from(capture.total.saturating_sub(max_bytes));
        // Start on a character, not inside one.
        while tail.first().is_some_and(|byte| byte & 0xC0 == 0x80) {
            tail = &tail[1..];
        }
        String::from_utf8_lossy(tail).into_owned()
    }

    /// The whole lines of standard error written from the byte position
    /// `from` on (as far as they are kept), and the position after them:
    /// give it back to get only what comes next.
    #[allow(dead_code)] // used by tests/gtp_protocol.rs only
    pub fn stderr_since(&self, from: usize) -> (String, usize) {
        let capture = lock(&self.stderr);
        let text = capture.from(from);
        let whole_lines = text
            .iter()
            .rposition(|&byte| byte == b'\n')
            .map_or(0, |at| at + 1);
        let end = capture.total - (text.len() - whole_lines);
        (
            String::from_utf8_lossy(&text[..whole_lines]).into_owned(),
            end,
        )
    }
}

impl Drop for ChildProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Locks the stderr capture, even after a panic in its thread.
fn lock(capture: &Mutex<StderrCapture>) -> MutexGuard<'_, StderrCapture> {
    capture
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
