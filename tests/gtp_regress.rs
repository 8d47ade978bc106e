//! The GTP regression suites: every `gtp-tests/*.tst` file run against the
//! real `smallgo` binary with the semantics of GoGui's `gogui-regress`, so
//! the suites stay valid gogui-regress files while `cargo test` enforces
//! them. This file owns the whole runner: the `.tst` format (commands and
//! their `#?` response patterns), the verdict on each response, and the
//! engine's run (a fresh one per file, started in the file's folder, with
//! a time limit on every response and `quit` at the end). The parsing and
//! judging parts are pure functions, unit-tested at the bottom; the engine
//! process and the reading of its replies are `support::gtp_engine`'s.
//!
//! As in GoGui's `Regress.java`: lines are trimmed; blank lines and `#`
//! comments are skipped; any other line is a command, sent whole (tabs
//! turned into spaces), and it is a test when its first word is an integer
//! id. A `#? [pattern]` line right after a command (no blank or comment line
//! between) is that command's expected response: the pattern must match the
//! whole response text (the response after its first space, trimmed), with
//! `.` matching newlines and `^`/`$` matching at line ends; `[!pattern]`
//! negates it, a trailing `*` marks an expected failure. A test fails when
//! the engine answers with an error (`?`) or the pattern does not match; a
//! test without a pattern fails only on an error; an unnumbered command
//! answered with an error is an "other error".
//!
//! Stricter than gogui-regress:
//! 1. A `*` test asserts that the command fails: any successful reply to it
//!    fails the run as an unexpected PASS. (gogui-regress counts a success
//!    that the pattern rejects as an expected fail, and only reports an
//!    unexpected pass.)
//! 2. When a `*` test is answered with an error, the error message must
//!    match the pattern (negated for `!`), so `#? [illegal move]*` asserts
//!    the exact error text. gogui-regress ignores the pattern on errors, so
//!    such files stay valid for it.
//!
//! Also failures of the run: other errors, a file without any test command,
//! a missing or empty `gtp-tests` folder, a malformed `#?` line, and any line
//! the engine writes to standard output outside a response (gogui-regress
//! skips those with a warning; GTP forbids them).

use std::fmt;
use std::path::{Path, PathBuf};

use regex::Regex;

use crate::support::gtp_engine::{EngineCommand, Fault, GtpEngine, Reply, REPLY_TIMEOUT};

// ---------------------------------------------------------------------------
// The .tst format
// ---------------------------------------------------------------------------

/// Java's `String.trim()`: removes every character up to and including the
/// space (all ASCII control characters), and nothing else.
fn java_trim(text: &str) -> &str {
    text.trim_matches(|character: char| character <= ' ')
}

/// A `#?` line's pattern: `[regex]`, `[!regex]`, either followed by `*`.
#[derive(Debug)]
struct ResponsePattern {
    /// What follows `#?`, trimmed, as written in the file (for reports).
    written: String,
    negated: bool,
    expected_fail: bool,
    /// The regex anchored at both ends, so that it must match everything.
    whole_match: Regex,
}

impl ResponsePattern {
    /// Parses the text after `#?`. `Ok(None)` for an empty pattern, which
    /// only closes the previous command.
    fn parse(text_after_marker: &str) -> Result<Option<ResponsePattern>, String> {
        let written = java_trim(text_after_marker);
        if written.is_empty() {
            return Ok(None);
        }
        let (bracketed, expected_fail) = match written.strip_suffix('*') {
            Some(rest) => (rest, true),
            None => (written, false),
        };
        if !bracketed.starts_with('[') {
            return Err(format!("pattern `{written}` has no opening bracket"));
        }
        if !bracketed.ends_with(']') || bracketed.len() < 2 {
            return Err(format!(
                "pattern `{written}` has no closing bracket (a `*` must follow it directly)"
            ));
        }
        let inside = java_trim(&bracketed[1..bracketed.len() - 1]);
        // As in gogui-regress, the text after `!` is not trimmed again.
        let (source, negated) = match inside.strip_prefix('!') {
            Some(rest) => (rest, true),
            None => (inside, false),
        };
        // Checked on its own first, so that a source such as `a)|(b` cannot
        // escape the anchoring group below.
        if let Err(error) = Regex::new(&format!("(?ms){source}")) {
            return Err(format!("pattern `{written}` is not a valid regex: {error}"));
        }
        let whole_match = Regex::new(&format!(r"(?ms)\A(?:{source})\z"))
            .map_err(|error| format!("pattern `{written}` is not a valid regex: {error}"))?;
        Ok(Some(ResponsePattern {
            written: written.to_string(),
            negated,
            expected_fail,
            whole_match,
        }))
    }

    /// Whether the response text satisfies the pattern: a full match, or
    /// no full match for a negated pattern.
    fn accepts(&self, response_text: &str) -> bool {
        self.whole_match.is_match(response_text) != self.negated
    }
}

/// One command line of a `.tst` file with the `#?` line that follows it.
#[derive(Debug)]
struct SuiteCommand {
    line_number: usize,
    /// The line as sent to the engine: trimmed, tabs turned into spaces.
    line: String,
    /// The leading integer id, if any (negative ids count as none, as in
    /// gogui-regress).
    id: Option<i32>,
    pattern: Option<ResponsePattern>,
}

impl SuiteCommand {
    /// gogui-regress counts a command as a test when it has an id, or when
    /// a pattern follows it even without an id.
    fn is_test(&self) -> bool {
        self.id.is_some() || self.pattern.is_some()
    }
}

/// A mistake in a `.tst` file; `line_number` is `None` for the whole file.
#[derive(Debug, PartialEq)]
struct SuiteError {
    line_number: Option<usize>,
    message: String,
}

/// The id of a command line: its first word (up to the first space) if that
/// is a non-negative integer, as Java's `Integer.parseInt` reads it.
fn command_id(line: &str) -> Option<i32> {
    let (first_word, _) = line.split_once(' ')?;
    first_word.parse::<i32>().ok().filter(|id| *id >= 0)
}

/// Reads a `.tst` file into its commands, or every mistake in it.
fn parse_suite(text: &str) -> Result<Vec<SuiteCommand>, Vec<SuiteError>> {
    let mut commands: Vec<SuiteCommand> = Vec::new();
    let mut errors = Vec::new();
    // True while the previous line was a command that can take a `#?`.
    let mut last_command_open = false;
    for (index, raw_line) in text.lines().enumerate() {
        let line_number = index + 1;
        let line = java_trim(raw_line);
        if let Some(after_marker) = line.strip_prefix("#?") {
            let command = match commands.last_mut() {
                Some(command) if last_command_open => command,
                _ => {
                    errors.push(SuiteError {
                        line_number: Some(line_number),
                        message: format!(
                            "response pattern `{line}` does not directly follow a command"
                        ),
                    });
                    continue;
                }
            };
            last_command_open = false;
            match ResponsePattern::parse(after_marker) {
                Ok(pattern) => command.pattern = pattern,
                Err(message) => errors.push(SuiteError {
                    line_number: Some(line_number),
                    message,
                }),
            }
            continue;
        }
        last_command_open = false;
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line = line.replace('\t', " ");
        commands.push(SuiteCommand {
            line_number,
            id: command_id(&line),
            line,
            pattern: None,
        });
        last_command_open = true;
    }
    if errors.is_empty() && !commands.iter().any(SuiteCommand::is_test) {
        errors.push(SuiteError {
            line_number: None,
            message: "the file has no test command (a command line starting with an id)"
                .to_string(),
        });
    }
    if errors.is_empty() {
        Ok(commands)
    } else {
        Err(errors)
    }
}

// ---------------------------------------------------------------------------
// Responses and verdicts
// ---------------------------------------------------------------------------

/// A complete GTP response as gogui-regress keeps it: every line from the
/// status line to the closing empty line, each followed by a newline.
#[derive(Debug, Clone)]
struct EngineResponse {
    is_error: bool,
    full: String,
}

impl EngineResponse {
    /// The response as gogui-regress keeps a reply's lines.
    fn from_reply(reply: &Reply) -> EngineResponse {
        EngineResponse {
            is_error: !reply.success(),
            full: format!("{}\n\n", reply.lines.join("\n")),
        }
    }

    /// The response without status character and id: everything after the
    /// first space, trimmed; empty when there is no space.
    fn text(&self) -> &str {
        response_text(&self.full)
    }
}

fn response_text(full_response: &str) -> &str {
    match full_response.find(' ') {
        Some(index) => java_trim(&full_response[index..]),
        None => "",
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Passed,
    ExpectedFail,
    UnexpectedFail,
    UnexpectedPass,
    /// Extension 2: a `*` test answered with an error whose message does
    /// not match the pattern.
    WrongErrorMessage,
    /// An unnumbered command without pattern answered with an error.
    OtherError,
    /// An unnumbered command without pattern answered with success.
    CommandDone,
}

fn judge(command: &SuiteCommand, response: &EngineResponse) -> Verdict {
    if !command.is_test() {
        return if response.is_error {
            Verdict::OtherError
        } else {
            Verdict::CommandDone
        };
    }
    let Some(pattern) = &command.pattern else {
        return if response.is_error {
            Verdict::UnexpectedFail
        } else {
            Verdict::Passed
        };
    };
    let accepted = pattern.accepts(response.text());
    match (pattern.expected_fail, response.is_error) {
        // Extension 1: a `*` test asserts that the command fails, so any
        // success is an unexpected pass, whether or not it matches.
        (true, false) => Verdict::UnexpectedPass,
        (true, true) if accepted => Verdict::ExpectedFail,
        (true, true) => Verdict::WrongErrorMessage,
        (false, true) => Verdict::UnexpectedFail,
        (false, false) if accepted => Verdict::Passed,
        (false, false) => Verdict::UnexpectedFail,
    }
}

// ---------------------------------------------------------------------------
// Running suites and reporting
// ---------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ProblemKind {
    UnexpectedFail,
    UnexpectedPass,
    WrongErrorMessage,
    OtherError,
    ProtocolError,
    EngineFailure,
    FileError,
}

impl fmt::Display for ProblemKind {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(match self {
            ProblemKind::UnexpectedFail => "unexpected FAIL",
            ProblemKind::UnexpectedPass => "unexpected PASS",
            ProblemKind::WrongErrorMessage => "expected fail, but with the wrong error message",
            ProblemKind::OtherError => "other error",
            ProblemKind::ProtocolError => "protocol error",
            ProblemKind::EngineFailure => "engine failure",
            ProblemKind::FileError => "file error",
        })
    }
}

/// One thing that makes the run fail.
#[derive(Debug)]
struct Problem {
    /// The `.tst` file (or the folder) as shown in reports.
    place: String,
    line_number: Option<usize>,
    kind: ProblemKind,
    id: Option<i32>,
    message: Option<String>,
    /// Labelled lines: the command, expected pattern, actual response.
    details: Vec<(&'static str, String)>,
}

impl Problem {
    fn about_file(
        place: &str,
        line_number: Option<usize>,
        kind: ProblemKind,
        message: String,
    ) -> Self {
        Problem {
            place: place.to_string(),
            line_number,
            kind,
            id: None,
            message: Some(message),
            details: Vec::new(),
        }
    }

    fn about_engine(
        place: &str,
        line_number: Option<usize>,
        failure: &Fault,
        consequence: &str,
    ) -> Self {
        let mut message = failure.message.clone();
        if !consequence.is_empty() {
            message = format!("{message}; {consequence}");
        }
        let mut problem =
            Problem::about_file(place, line_number, ProblemKind::EngineFailure, message);
        let stderr = if failure.stderr_tail.is_empty() {
            "(nothing)".to_string()
        } else {
            failure.stderr_tail.clone()
        };
        problem.details.push(("stderr", stderr));
        problem
    }

    fn about_response(
        place: &str,
        kind: ProblemKind,
        command: &SuiteCommand,
        response: &EngineResponse,
    ) -> Self {
        let mut details = vec![("command", command.line.clone())];
        if let Some(pattern) = &command.pattern {
            details.push(("expected", format!("#? {}", pattern.written)));
        }
        details.push(("actual", java_trim(&response.full).to_string()));
        Problem {
            place: place.to_string(),
            line_number: Some(command.line_number),
            kind,
            id: command.id,
            message: None,
            details,
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{}", self.place)?;
        if let Some(line_number) = self.line_number {
            write!(formatter, ":{line_number}")?;
        }
        write!(formatter, ": {}", self.kind)?;
        if let Some(id) = self.id {
            write!(formatter, " (id {id})")?;
        }
        if let Some(message) = &self.message {
            write!(formatter, ": {}", indent_continuation(message, "    "))?;
        }
        for (label, text) in &self.details {
            let label = format!("{label}:");
            write!(
                formatter,
                "\n    {label:<9} {}",
                indent_continuation(text, "              ")
            )?;
        }
        Ok(())
    }
}

fn indent_continuation(text: &str, indent: &str) -> String {
    text.replace('\n', &format!("\n{indent}"))
}

#[derive(Debug, Default)]
struct Counts {
    tests: usize,
    passed: usize,
    expected_fails: usize,
    unexpected_fails: usize,
    unexpected_passes: usize,
    wrong_error_messages: usize,
    other_errors: usize,
}

impl Counts {
    fn count(&mut self, verdict: Verdict) {
        match verdict {
            Verdict::Passed => self.passed += 1,
            Verdict::ExpectedFail => self.expected_fails += 1,
            Verdict::UnexpectedFail => self.unexpected_fails += 1,
            Verdict::UnexpectedPass => self.unexpected_passes += 1,
            Verdict::WrongErrorMessage => self.wrong_error_messages += 1,
            Verdict::OtherError => self.other_errors += 1,
            Verdict::CommandDone => {}
        }
        if !matches!(verdict, Verdict::OtherError | Verdict::CommandDone) {
            self.tests += 1;
        }
    }
}

struct SuiteReport {
    place: String,
    /// `None` when the file could not be read or parsed, so nothing ran.
    counts: Option<Counts>,
    problems: Vec<Problem>,
}

impl SuiteReport {
    fn summary(&self) -> String {
        let Some(counts) = &self.counts else {
            return format!(
                "{}: not run ({} problems in the file)",
                self.place,
                self.problems.len()
            );
        };
        let mut summary = format!(
            "{}: {} tests, {} passed, {} expected fails, {} unexpected FAILs, \
             {} unexpected PASSes, {} wrong error messages, {} other errors",
            self.place,
            counts.tests,
            counts.passed,
            counts.expected_fails,
            counts.unexpected_fails,
            counts.unexpected_passes,
            counts.wrong_error_messages,
            counts.other_errors,
        );
        let run_problems = self
            .problems
            .iter()
            .filter(|problem| {
                matches!(
                    problem.kind,
                    ProblemKind::ProtocolError | ProblemKind::EngineFailure
                )
            })
            .count();
        if run_problems > 0 {
            summary.push_str(&format!(", {run_problems} protocol or engine failures"));
        }
        summary
    }
}

/// A protocol error for each line the engine wrote before its response.
fn stray_line_problems(
    place: &str,
    line_number: Option<usize>,
    command_line: &str,
    reply: &Reply,
) -> Vec<Problem> {
    reply
        .stray_lines
        .iter()
        .map(|stray_line| {
            Problem::about_file(
                place,
                line_number,
                ProblemKind::ProtocolError,
                format!(
                    "before answering `{command_line}` the engine wrote a line that is not \
                     part of a response: `{stray_line}`"
                ),
            )
        })
        .collect()
}

/// Runs one `.tst` file in a fresh engine started in the file's folder.
fn run_suite(engine_command: &EngineCommand, path: &Path, place: &str) -> SuiteReport {
    let not_run = |problems| SuiteReport {
        place: place.to_string(),
        counts: None,
        problems,
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) => {
            return not_run(vec![Problem::about_file(
                place,
                None,
                ProblemKind::FileError,
                format!("cannot read the file as UTF-8 text: {error}"),
            )])
        }
    };
    let commands = match parse_suite(&text) {
        Ok(commands) => commands,
        Err(errors) => {
            return not_run(
                errors
                    .into_iter()
                    .map(|error| {
                        Problem::about_file(
                            place,
                            error.line_number,
                            ProblemKind::FileError,
                            error.message,
                        )
                    })
                    .collect(),
            )
        }
    };
    let working_directory = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };

    let mut counts = Counts::default();
    let mut problems = Vec::new();
    let label = format!("`{engine_command}`");
    let mut engine = match GtpEngine::start(engine_command, &label, Some(working_directory)) {
        Ok(engine) => engine,
        Err(message) => {
            problems.push(Problem::about_file(
                place,
                None,
                ProblemKind::EngineFailure,
                message,
            ));
            return SuiteReport {
                place: place.to_string(),
                counts: Some(counts),
                problems,
            };
        }
    };

    let mut engine_alive = true;
    for command in &commands {
        let reply = match engine.ask(&command.line) {
            Ok(reply) => reply,
            Err(failure) => {
                problems.push(Problem::about_engine(
                    place,
                    Some(command.line_number),
                    &failure,
                    "the rest of the file was not run",
                ));
                engine_alive = false;
                break;
            }
        };
        problems.extend(stray_line_problems(
            place,
            Some(command.line_number),
            &command.line,
            &reply,
        ));
        let response = EngineResponse::from_reply(&reply);
        let verdict = judge(command, &response);
        counts.count(verdict);
        let kind = match verdict {
            Verdict::Passed | Verdict::ExpectedFail | Verdict::CommandDone => continue,
            Verdict::UnexpectedFail => ProblemKind::UnexpectedFail,
            Verdict::UnexpectedPass => ProblemKind::UnexpectedPass,
            Verdict::WrongErrorMessage => ProblemKind::WrongErrorMessage,
            Verdict::OtherError => ProblemKind::OtherError,
        };
        problems.push(Problem::about_response(place, kind, command, &response));
    }

    if engine_alive {
        match engine.ask("quit") {
            Ok(reply) => {
                problems.extend(stray_line_problems(place, None, "quit", &reply));
                let response = EngineResponse::from_reply(&reply);
                if response.is_error {
                    problems.push(Problem::about_file(
                        place,
                        None,
                        ProblemKind::ProtocolError,
                        format!("`quit` failed: {}", java_trim(&response.full)),
                    ));
                }
            }
            // An engine that exits without answering `quit` is tolerated.
            Err(failure) if failure.exited => {}
            Err(failure) => problems.push(Problem::about_engine(place, None, &failure, "")),
        }
        engine.close_input();
        if engine.exit_status().is_none() {
            problems.push(Problem::about_file(
                place,
                None,
                ProblemKind::EngineFailure,
                format!(
                    "`{engine_command}` did not exit within {} s of `quit`; it was killed",
                    REPLY_TIMEOUT.as_secs()
                ),
            ));
        }
    }
    SuiteReport {
        place: place.to_string(),
        counts: Some(counts),
        problems,
    }
}

/// The `.tst` files directly in `folder`, sorted by name.
fn suite_files(folder: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = std::fs::read_dir(folder)
        .map_err(|error| format!("cannot list the folder {}: {error}", folder.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.is_file() && path.extension().is_some_and(|extension| extension == "tst")
        })
        .collect();
    files.sort_by(|left, right| left.file_name().cmp(&right.file_name()));
    if files.is_empty() {
        return Err(format!("no .tst file in {}", folder.display()));
    }
    Ok(files)
}

/// Runs every suite of `folder`; prints a summary line per file and panics
/// with every problem found.
fn check_suites(engine_command: &EngineCommand, folder: &Path) {
    let folder_name = folder
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| folder.display().to_string());
    let mut problems = Vec::new();
    match suite_files(folder) {
        Err(message) => problems.push(Problem::about_file(
            &folder_name,
            None,
            ProblemKind::FileError,
            message,
        )),
        Ok(files) => {
            println!(
                "GTP regression suites in {} against `{engine_command}`:",
                folder.display()
            );
            for path in files {
                let file_name = path
                    .file_name()
                    .map(|name| name.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let place = format!("{folder_name}/{file_name}");
                let report = run_suite(engine_command, &path, &place);
                println!("{}", report.summary());
                problems.extend(report.problems);
            }
        }
    }
    if !problems.is_empty() {
        let listing: Vec<String> = problems.iter().map(Problem::to_string).collect();
        panic!(
            "{} problem(s) in the GTP regression suites against `{engine_command}`:\n\n{}\n",
            problems.len(),
            listing.join("\n\n")
        );
    }
}

#[test]
fn gtp_regression_suites() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-tests");
    check_suites(&EngineCommand::smallgo(&[]), &folder);
}

/// The suites in GNU Go's style (`loadsgf FILE N` then `reg_genmove`) run
/// unchanged against smallgo and against GNU Go itself, which CI installs:
/// the files are valid for GNU Go, and smallgo reads them as it does.
#[test]
fn gnugo_style_suites_run_unchanged_on_smallgo_and_on_gnugo() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-tests/gnugo-style");
    check_suites(&EngineCommand::smallgo(&[]), &folder);
    check_suites(&EngineCommand::gnugo(&["--mode", "gtp"]), &folder);
}

/// The same runner against any GTP engine and folder, to check the runner
/// or a suite by hand, e.g.
/// `GTP_REGRESS_ENGINE="/usr/games/gnugo --mode gtp" GTP_REGRESS_FOLDER=/tmp/suites
/// cargo test --release --test integration gtp_regress:: -- --ignored`.
#[test]
#[ignore = "manual: runs GTP_REGRESS_FOLDER's suites against GTP_REGRESS_ENGINE"]
fn gtp_regression_suites_against_another_engine() {
    let engine = std::env::var("GTP_REGRESS_ENGINE")
        .ok()
        .and_then(|command_line| EngineCommand::from_command_line(&command_line));
    let folder = std::env::var_os("GTP_REGRESS_FOLDER").map(PathBuf::from);
    let (Some(mut engine), Some(folder)) = (engine, folder) else {
        println!("set GTP_REGRESS_ENGINE (a command line) and GTP_REGRESS_FOLDER to run this");
        return;
    };
    // The engine starts in each file's folder, so relative paths are
    // resolved here, against the folder the test was started in.
    if engine.program.components().count() > 1 {
        if let Ok(absolute) = std::fs::canonicalize(&engine.program) {
            engine.program = absolute;
        }
    }
    let folder = std::fs::canonicalize(&folder).unwrap_or(folder);
    check_suites(&engine, &folder);
}

// ---------------------------------------------------------------------------
// Unit tests of the pure parts
// ---------------------------------------------------------------------------

fn pattern(text_after_marker: &str) -> ResponsePattern {
    match ResponsePattern::parse(text_after_marker) {
        Ok(Some(pattern)) => pattern,
        other => panic!("`{text_after_marker}` should be a pattern, got {other:?}"),
    }
}

fn success(full: &str) -> EngineResponse {
    EngineResponse {
        is_error: false,
        full: full.to_string(),
    }
}

fn error(full: &str) -> EngineResponse {
    EngineResponse {
        is_error: true,
        full: full.to_string(),
    }
}

fn test_command(pattern_text: &str) -> SuiteCommand {
    SuiteCommand {
        line_number: 1,
        line: "10 genmove b".to_string(),
        id: Some(10),
        pattern: ResponsePattern::parse(pattern_text).unwrap_or_else(|message| panic!("{message}")),
    }
}

#[test]
fn java_trim_removes_control_characters_and_spaces_only() {
    assert_eq!(java_trim(" \t B2 \r\n"), "B2");
    assert_eq!(java_trim("\u{0}x\u{1f}"), "x");
    assert_eq!(java_trim("\u{a0}x"), "\u{a0}x");
    assert_eq!(java_trim("   "), "");
}

#[test]
fn patterns_read_brackets_negation_and_expected_failure() {
    let plain = pattern(" [B2] ");
    assert!(!plain.negated && !plain.expected_fail);
    assert_eq!(plain.written, "[B2]");

    let negated = pattern("[!B2]");
    assert!(negated.negated && !negated.expected_fail);

    let expected_fail = pattern("[B2]*");
    assert!(!expected_fail.negated && expected_fail.expected_fail);

    let both = pattern("[!B2]*");
    assert!(both.negated && both.expected_fail);
    assert_eq!(both.written, "[!B2]*");

    let padded = pattern("[  B2  ]");
    assert!(padded.accepts("B2"));
}

#[test]
fn malformed_patterns_are_refused() {
    for (text, expected) in [
        ("B2]", "no opening bracket"),
        ("B2", "no opening bracket"),
        ("*", "no opening bracket"),
        ("[B2", "no closing bracket"),
        ("[B2] *", "no closing bracket"),
        ("[B2]**", "no closing bracket"),
        ("[", "no closing bracket"),
        ("[(B2]", "not a valid regex"),
        ("[a)|(b]", "not a valid regex"),
    ] {
        match ResponsePattern::parse(text) {
            Err(message) => assert!(message.contains(expected), "`{text}`: {message}"),
            Ok(parsed) => panic!("`{text}` should be refused, got {parsed:?}"),
        }
    }
}

#[test]
fn an_empty_pattern_is_no_pattern() {
    assert!(matches!(ResponsePattern::parse(""), Ok(None)));
    assert!(matches!(ResponsePattern::parse("   "), Ok(None)));
}

#[test]
fn response_text_drops_status_and_id() {
    assert_eq!(response_text("=10 B2\n\n"), "B2");
    assert_eq!(response_text("= B2\n\n"), "B2");
    assert_eq!(response_text("?12 illegal move\n\n"), "illegal move");
    assert_eq!(response_text("=10\n\n"), "");
    assert_eq!(response_text("=\n\n"), "");
    assert_eq!(
        response_text("= \nline one\nline two\n\n"),
        "line one\nline two"
    );
    assert_eq!(response_text("=3 a b  \n\n"), "a b");
}

#[test]
fn patterns_must_match_the_whole_response() {
    let b2 = pattern("[B2]");
    assert!(b2.accepts("B2"));
    assert!(!b2.accepts("B22"));
    assert!(!b2.accepts("AB2"));
    assert!(!b2.accepts(""));

    let either = pattern("[B2|C2]");
    assert!(either.accepts("C2"));
    assert!(either.accepts("B2"));
    assert!(!either.accepts("B2C2"));
    assert!(!either.accepts("C22"));

    let not_b2 = pattern("[!B2]");
    assert!(not_b2.accepts("C2"));
    assert!(not_b2.accepts("B22"));
    assert!(!not_b2.accepts("B2"));

    assert!(pattern("[]").accepts(""));
    assert!(!pattern("[]").accepts("B2"));
    assert!(pattern("[(?i)pass]").accepts("PASS"));
}

#[test]
fn multi_line_responses_match_with_dotall_and_multiline() {
    let board = "A B C\n3 . . .\n2 . X .\nwhite wins";
    assert!(pattern("[.*X.*]").accepts(board));
    assert!(pattern("[.*^white wins$]").accepts(board));
    assert!(pattern(r"[A B C\n.*]").accepts(board));
    assert!(!pattern("[A B C]").accepts(board));
    assert!(pattern(r"[first\nsecond]").accepts("first\nsecond"));
}

#[test]
fn verdicts_follow_gogui_regress() {
    let ok = success("=10 B2\n\n");
    let other_move = success("=10 C3\n\n");
    let failure = error("?10 illegal move\n\n");

    assert_eq!(judge(&test_command("[B2]"), &ok), Verdict::Passed);
    assert_eq!(
        judge(&test_command("[B2]"), &other_move),
        Verdict::UnexpectedFail
    );
    assert_eq!(
        judge(&test_command("[B2]"), &failure),
        Verdict::UnexpectedFail
    );
    assert_eq!(judge(&test_command("[!B2]"), &other_move), Verdict::Passed);
    assert_eq!(judge(&test_command("[!B2]"), &ok), Verdict::UnexpectedFail);
    // An error fails even a pattern that would accept its text.
    assert_eq!(
        judge(&test_command("[.*]"), &failure),
        Verdict::UnexpectedFail
    );
    assert_eq!(
        judge(&test_command("[!B2]"), &failure),
        Verdict::UnexpectedFail
    );

    // Extension 1: any success of a `*` test is an unexpected pass, even one
    // the pattern rejects (gogui-regress counts that as an expected fail).
    assert_eq!(
        judge(&test_command("[B2]*"), &other_move),
        Verdict::UnexpectedPass
    );
    assert_eq!(judge(&test_command("[B2]*"), &ok), Verdict::UnexpectedPass);
    assert_eq!(
        judge(&test_command("[!C3]*"), &other_move),
        Verdict::UnexpectedPass
    );

    // Extension 2: an expected failure answered with an error must have the
    // error text of the pattern.
    assert_eq!(
        judge(&test_command("[illegal move]*"), &failure),
        Verdict::ExpectedFail
    );
    assert_eq!(
        judge(&test_command("[illegal.*]*"), &failure),
        Verdict::ExpectedFail
    );
    assert_eq!(
        judge(&test_command("[B2]*"), &failure),
        Verdict::WrongErrorMessage
    );
    assert_eq!(
        judge(&test_command("[illegal]*"), &failure),
        Verdict::WrongErrorMessage
    );
    assert_eq!(
        judge(&test_command("[!illegal move]*"), &failure),
        Verdict::WrongErrorMessage
    );
    assert_eq!(
        judge(&test_command("[!B2]*"), &failure),
        Verdict::ExpectedFail
    );

    // A test without pattern fails only on an error.
    assert_eq!(judge(&test_command(""), &other_move), Verdict::Passed);
    assert_eq!(judge(&test_command(""), &failure), Verdict::UnexpectedFail);

    // Plain commands: an error is an "other error".
    let mut plain = test_command("");
    plain.id = None;
    plain.line = "boardsize 3".to_string();
    assert_eq!(judge(&plain, &success("=\n\n")), Verdict::CommandDone);
    assert_eq!(
        judge(&plain, &error("? unacceptable size\n\n")),
        Verdict::OtherError
    );
    // With a pattern, gogui-regress makes a test of it (without id).
    plain.pattern = Some(pattern("[]"));
    assert_eq!(judge(&plain, &success("=\n\n")), Verdict::Passed);
    assert_eq!(judge(&plain, &error("?\n\n")), Verdict::UnexpectedFail);
}

#[test]
fn command_ids_are_leading_integers() {
    assert_eq!(command_id("10 genmove b"), Some(10));
    assert_eq!(command_id("0 name"), Some(0));
    assert_eq!(command_id("genmove b"), None);
    assert_eq!(command_id("10"), None);
    assert_eq!(command_id("-3 name"), None);
    assert_eq!(command_id("10b name"), None);
    assert_eq!(command_id("99999999999 name"), None);
}

#[test]
fn suites_are_read_into_commands_and_patterns() {
    let text = "\
# A comment, then a blank line

boardsize 3
\tclear_board\t
10 genmove b
#? [B2]
20\tplay\tw A1
#?  [!illegal move]*
30 showboard
#?
name
#? [smallgo]
40 quit
";
    let commands = parse_suite(text).unwrap_or_else(|errors| panic!("{errors:?}"));
    let lines: Vec<(usize, &str, Option<i32>)> = commands
        .iter()
        .map(|command| (command.line_number, command.line.as_str(), command.id))
        .collect();
    assert_eq!(
        lines,
        [
            (3, "boardsize 3", None),
            (4, "clear_board", None),
            (5, "10 genmove b", Some(10)),
            (7, "20 play w A1", Some(20)),
            (9, "30 showboard", Some(30)),
            (11, "name", None),
            (13, "40 quit", Some(40)),
        ]
    );
    let written: Vec<Option<&str>> = commands
        .iter()
        .map(|command| {
            command
                .pattern
                .as_ref()
                .map(|pattern| pattern.written.as_str())
        })
        .collect();
    assert_eq!(
        written,
        [
            None,
            None,
            Some("[B2]"),
            Some("[!illegal move]*"),
            None,
            Some("[smallgo]"),
            None
        ]
    );
    let tests: Vec<bool> = commands.iter().map(SuiteCommand::is_test).collect();
    assert_eq!(tests, [false, false, true, true, true, true, true]);
}

#[test]
fn misplaced_and_malformed_patterns_are_file_errors() {
    let text = "\
#? [B2]
10 genmove b

#? [B2]
20 genmove w
# comment
#? [B2]
30 genmove b
#? [B2]
#? [C2]
40 genmove b
#? B2]
50 genmove b
#? [B2
";
    let errors = parse_suite(text).expect_err("the file has mistakes");
    let lines: Vec<Option<usize>> = errors.iter().map(|error| error.line_number).collect();
    assert_eq!(
        lines,
        [Some(1), Some(4), Some(7), Some(10), Some(12), Some(14)]
    );
    assert!(errors[0]
        .message
        .contains("does not directly follow a command"));
    assert!(errors[4].message.contains("no opening bracket"));
    assert!(errors[5].message.contains("no closing bracket"));
}

#[test]
fn a_suite_without_tests_is_an_error() {
    let errors = parse_suite("# nothing\nboardsize 3\nclear_board\n").expect_err("no tests");
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].line_number, None);
    assert!(errors[0].message.contains("no test command"));
    assert!(parse_suite("").is_err());
}
