//! The one way the tests run the `smallgo` binary from a command line:
//! `smallgo(arguments)` runs it to its end; `Smallgo` sets a run up first
//! (the folder it runs in, its log level, text for its standard input,
//! where its output goes, a program such as `nohup` to run it under) and
//! then runs it, or starts it as a `Running` process to signal, watch and
//! wait for, with a time limit if need be. Either way its exit status and
//! its standard output and error come back as an `Outcome`, the two
//! streams as text. Unless told otherwise it runs with `RUST_LOG=warn`, so
//! that info logs stay out of what a test reads, and with its standard
//! input empty. A GTP conversation is `gtp_engine`'s.

use std::ffi::{OsStr, OsString};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Runs `smallgo ARGUMENTS` to its end.
pub(crate) fn smallgo(arguments: &[&str]) -> Outcome {
    Smallgo::new(arguments).run()
}

/// The answers of the GTP engine (`smallgo` with no arguments) to
/// `commands`, sent in one go: one string a command, its `=` or `?` and
/// the spaces around it left off.
pub(crate) fn gtp_answers(commands: &[String]) -> Vec<String> {
    let mut input = commands.join("\n");
    input.push_str("\nquit\n");
    let text = Smallgo::new(&[]).input(&input).run().stdout;
    let mut answers: Vec<String> = text
        .split("\n\n")
        .map(|a| a.trim_start_matches(['=', '?']).trim().to_string())
        .collect();
    answers.truncate(commands.len());
    answers
}

/// How a run ended and what it wrote.
#[derive(Debug)]
pub(crate) struct Outcome {
    pub(crate) status: ExitStatus,
    /// The standard output, which must be UTF-8 (empty if it went
    /// elsewhere).
    pub(crate) stdout: String,
    /// The standard error, any bytes that are not UTF-8 replaced (empty if
    /// it went elsewhere).
    pub(crate) stderr: String,
}

/// A run of smallgo being set up.
pub(crate) struct Smallgo {
    arguments: Vec<OsString>,
    /// A program that runs smallgo, as `nohup smallgo ...` does.
    wrapper: Option<String>,
    folder: Option<PathBuf>,
    log: String,
    input: Option<Vec<u8>>,
    stdout: Option<Stdio>,
    stderr: Option<Stdio>,
}

impl Smallgo {
    pub(crate) fn new(arguments: &[&str]) -> Smallgo {
        Smallgo {
            arguments: arguments.iter().map(OsString::from).collect(),
            wrapper: None,
            folder: None,
            log: "warn".to_string(),
            input: None,
            stdout: None,
            stderr: None,
        }
    }

    /// One more argument, which need not be UTF-8 (a path).
    pub(crate) fn arg(mut self, argument: impl AsRef<OsStr>) -> Smallgo {
        self.arguments.push(argument.as_ref().to_os_string());
        self
    }

    /// Runs it as `wrapper smallgo ARGUMENTS`; `wrapper` may have
    /// arguments of its own, separated by spaces (`mpirun -np 2`).
    pub(crate) fn under(mut self, wrapper: &str) -> Smallgo {
        self.wrapper = Some(wrapper.to_string());
        self
    }

    /// Runs it in `folder` rather than in the test's folder.
    pub(crate) fn folder(mut self, folder: &Path) -> Smallgo {
        self.folder = Some(folder.to_path_buf());
        self
    }

    /// Runs it with `RUST_LOG=level`.
    pub(crate) fn log(mut self, level: &str) -> Smallgo {
        self.log = level.to_string();
        self
    }

    /// Gives it `text` on its standard input, then the input's end.
    pub(crate) fn input(mut self, text: &str) -> Smallgo {
        self.input = Some(text.as_bytes().to_vec());
        self
    }

    /// Sends its standard output to `to` instead of the `Outcome`.
    pub(crate) fn stdout(mut self, to: impl Into<Stdio>) -> Smallgo {
        self.stdout = Some(to.into());
        self
    }

    /// Sends its standard error to `to` instead of the `Outcome`.
    pub(crate) fn stderr(mut self, to: impl Into<Stdio>) -> Smallgo {
        self.stderr = Some(to.into());
        self
    }

    /// Runs it to its end.
    pub(crate) fn run(self) -> Outcome {
        self.start().finish()
    }

    /// Runs it to its end if that comes within `timeout`; past that, kills
    /// it and gives `None`.
    pub(crate) fn run_within(self, timeout: Duration) -> Option<Outcome> {
        self.start().finish_within(timeout)
    }

    /// Starts it. Its output is read as it comes, so that it never waits on
    /// a full pipe.
    pub(crate) fn start(self) -> Running {
        let binary = env!("CARGO_BIN_EXE_smallgo");
        let mut command = match &self.wrapper {
            Some(wrapper) => {
                let mut words = wrapper.split_whitespace();
                let mut command = Command::new(words.next().expect("a wrapper program"));
                command.args(words).arg(binary);
                command
            }
            None => Command::new(binary),
        };
        command.args(&self.arguments).env("RUST_LOG", &self.log);
        if let Some(folder) = &self.folder {
            command.current_dir(folder);
        }
        command.stdin(match self.input {
            Some(_) => Stdio::piped(),
            None => Stdio::null(),
        });
        let captured_stdout = self.stdout.is_none();
        let captured_stderr = self.stderr.is_none();
        command.stdout(self.stdout.unwrap_or_else(Stdio::piped));
        command.stderr(self.stderr.unwrap_or_else(Stdio::piped));
        let what = format!("{command:?}");
        let mut child = command
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {what}: {error}"));
        if let Some(input) = self.input {
            let mut stdin = child.stdin.take().expect("stdin is piped");
            // A broken pipe is the process's business: it ended first.
            thread::spawn(move || stdin.write_all(&input));
        }
        let stdout = captured_stdout.then(|| read_all(child.stdout.take().expect("piped")));
        let stderr = captured_stderr.then(|| read_all(child.stderr.take().expect("piped")));
        Running {
            what,
            child,
            stdout,
            stderr,
        }
    }
}

/// A started run. Dropping it kills the process if it still runs.
pub(crate) struct Running {
    /// The command, for messages.
    what: String,
    child: Child,
    stdout: Option<JoinHandle<Vec<u8>>>,
    stderr: Option<JoinHandle<Vec<u8>>>,
}

impl Running {
    /// Sends signal `number` (`libc::SIGINT`...) to the process; false if
    /// it could not be sent.
    pub(crate) fn signal(&self, number: i32) -> bool {
        let id = i32::try_from(self.child.id()).expect("a process id");
        unsafe { libc::kill(id, number) == 0 }
    }

    /// Whether the process has ended.
    pub(crate) fn has_exited(&mut self) -> bool {
        self.child
            .try_wait()
            .expect("the process's status")
            .is_some()
    }

    /// Waits for the process to end.
    pub(crate) fn finish(mut self) -> Outcome {
        let status = self.child.wait().expect("the process's status");
        self.outcome(status)
    }

    /// Waits at most `timeout` for the process to end; past that, kills it
    /// and gives `None`.
    pub(crate) fn finish_within(mut self, timeout: Duration) -> Option<Outcome> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait().expect("the process's status") {
                Some(status) => return Some(self.outcome(status)),
                None if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                None => return None,
            }
        }
    }

    /// Kills the process (if it still runs) and reaps it.
    pub(crate) fn kill(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    fn outcome(&mut self, status: ExitStatus) -> Outcome {
        let text = |reader: Option<JoinHandle<Vec<u8>>>| {
            reader.map_or_else(Vec::new, |reader| reader.join().expect("the output"))
        };
        let stdout = String::from_utf8(text(self.stdout.take()))
            .unwrap_or_else(|error| panic!("{}: standard output not UTF-8: {error}", self.what));
        let stderr = String::from_utf8_lossy(&text(self.stderr.take())).into_owned();
        Outcome {
            status,
            stdout,
            stderr,
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A thread that reads `stream` to its end.
fn read_all(mut stream: impl Read + Send + 'static) -> JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stream.read_to_end(&mut bytes);
        bytes
    })
}
