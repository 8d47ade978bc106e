//! `smallgo count` as a user meets it: a count stopped and resumed (by
//! `--stop-after` and by a kill), its progress file, and bad boards and
//! files. The counts themselves are checked against the index, a plain
//! enumeration and the published figures in `src/tests/count.rs`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::support::command::Smallgo;

/// The value of a line `name   value` of the report.
fn field(report: &str, name: &str) -> String {
    report
        .lines()
        .find_map(|line| line.strip_prefix(name))
        .unwrap_or_else(|| panic!("no {name} in {report}"))
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

/// The chunks done and the chunks of the count whose progress file is at
/// `path`, from its `chunks N` and `done A-B C ...` lines; `None` if there
/// is no such file.
fn progress(path: &Path) -> Option<(u64, u64)> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = |name: &str| {
        text.lines()
            .find_map(|line| match line.strip_prefix(name) {
                Some(rest) if rest.is_empty() || rest.starts_with(' ') => Some(rest.trim()),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no '{name}' line in {text}"))
            .to_string()
    };
    let chunks = line("chunks").parse().unwrap();
    let done = line("done")
        .split_whitespace()
        .map(|run| match run.split_once('-') {
            Some((first, last)) => last.parse::<u64>().unwrap() - first.parse::<u64>().unwrap() + 1,
            None => 1,
        })
        .sum();
    Some((done, chunks))
}

#[test]
fn the_command_counts_stops_and_resumes() {
    let folder = tempfile::tempdir().unwrap();
    let state = folder.path().join("progress");
    let state_text = state.to_str().unwrap();
    // The figures of a count that ran through.
    let whole = Smallgo::new(&["count", "3x5", "--state", "whole", "--samples", "0"])
        .folder(folder.path())
        .run();
    assert!(whole.status.success(), "{}", whole.stderr);
    let whole = whole.stdout;
    // Stopped after 20 of 729 chunks: exit 130, the progress saved.
    let output = Smallgo::new(&["count", "3x5", "--state", state_text, "--stop-after", "20"])
        .folder(folder.path())
        .run();
    assert_eq!(output.status.code(), Some(130), "{}", output.stderr);
    assert!(output.stderr.contains("run the same command to go on"));
    let (done, chunks) = progress(&state).unwrap();
    assert!((20..chunks).contains(&done), "{done} of {chunks}");
    // Another board's count refuses the file, and leaves it alone.
    let output = Smallgo::new(&["count", "5x3", "--state", state_text])
        .folder(folder.path())
        .run();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        output
            .stderr
            .contains("holds a count of board 3x5, not 5x3"),
        "{}",
        output.stderr
    );
    assert!(!output.stderr.contains("panicked"));
    // Resumed: the same counts as the count that ran through (which
    // src/tests/count.rs checks against the index).
    let output = Smallgo::new(&["count", "3x5", "--state", state_text, "--samples", "1000"])
        .folder(folder.path())
        .run();
    assert!(output.status.success(), "{}", output.stderr);
    let report = output.stdout;
    assert!(report.contains("resumed"), "{report}");
    for name in [
        "legal positions",
        "canonical positions",
        "ko states",
        "states",
    ] {
        assert_eq!(field(&report, name), field(&whole, name), "{name}");
    }
    assert!(report.contains("edges (estimate)"), "{report}");
    // The file given is kept, finished: a rerun prints the same counts.
    let (done, chunks) = progress(&state).unwrap();
    assert_eq!(done, chunks);
    let again = Smallgo::new(&[
        "count",
        "3x5",
        "--state",
        state_text,
        "--json",
        "--samples",
        "0",
    ])
    .folder(folder.path())
    .run();
    let json = crate::json::object(&again, "count");
    assert_eq!(
        json["states"].to_string(),
        field(&whole, "states").to_string(),
        "{json}"
    );
    assert!(json["solver_edges"].is_null(), "{json}");
    assert_eq!(json["resumed"], true, "{json}");
}

#[test]
fn the_default_progress_file_is_removed_when_done() {
    let folder = tempfile::tempdir().unwrap();
    let output = Smallgo::new(&["count", "3x4", "--stop-after", "2"])
        .folder(folder.path())
        .run();
    assert_eq!(output.status.code(), Some(130));
    assert!(folder.path().join("3x4.count").exists());
    let output = Smallgo::new(&["count", "3x4", "--samples", "100"])
        .folder(folder.path())
        .run();
    assert!(output.status.success(), "{}", output.stderr);
    assert!(output.stdout.contains("resumed"));
    assert_eq!(field(&output.stdout, "states"), "166358");
    let left: Vec<PathBuf> = std::fs::read_dir(folder.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Killed with SIGKILL while it counts, then run again: the same totals
/// as a count that ran through.
#[test]
fn a_killed_count_resumes() {
    let folder = tempfile::tempdir().unwrap();
    let state = folder.path().join("3x6.count");
    let mut child = Smallgo::new(&["count", "3x6", "--samples", "0"])
        .folder(folder.path())
        .start();
    // Killed once some chunks are saved.
    let saved = || progress(&state).is_some_and(|(done, _)| done > 0);
    let started = Instant::now();
    while !saved() && started.elapsed() < Duration::from_secs(60) {
        if child.has_exited() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill();
    // Unless it ended first (and removed the file), it left its progress.
    let left_progress = saved();
    let resumed = Smallgo::new(&["count", "3x6", "--samples", "0"])
        .folder(folder.path())
        .run();
    assert!(resumed.status.success(), "{}", resumed.stderr);
    assert_eq!(resumed.stdout.contains("resumed"), left_progress);
    let fresh = Smallgo::new(&["count", "3x6", "--samples", "0", "--state", "fresh"])
        .folder(folder.path())
        .run();
    assert!(fresh.status.success());
    for name in [
        "legal positions",
        "canonical positions",
        "ko states",
        "states",
    ] {
        assert_eq!(
            field(&resumed.stdout, name),
            field(&fresh.stdout, name),
            "{name}"
        );
    }
    // 3x6's states, as docs/performance.md gives them.
    assert_eq!(field(&fresh.stdout, "states"), "106590386");
}

#[test]
fn bad_boards_and_files_are_refused() {
    let folder = tempfile::tempdir().unwrap();
    for (argument, code, expected) in [
        ("foo", 2, "'foo' is not a board"),
        ("0x3", 2, "board 0x3 is not allowed"),
        ("5x7", 1, "board 5x7 has 35 points"),
        ("6x6", 1, "at most 32 points"),
    ] {
        let output = Smallgo::new(&["count", argument])
            .folder(folder.path())
            .run();
        assert_eq!(output.status.code(), Some(code), "{argument}");
        let message = output.stderr;
        assert!(message.contains(expected), "{argument}: {message}");
        assert!(!message.contains("panicked"), "{message}");
    }
    let nowhere = folder.path().join("missing").join("progress");
    let output = Smallgo::new(&["count", "2x3", "--state", nowhere.to_str().unwrap()])
        .folder(folder.path())
        .run();
    assert_eq!(output.status.code(), Some(1));
    let message = output.stderr;
    assert!(
        message.contains("cannot save the count's progress in"),
        "{message}"
    );
    assert!(message.contains("missing"), "{message}");
    let damaged = folder.path().join("damaged");
    std::fs::write(&damaged, "smallgo count progress 1\nnonsense\n").unwrap();
    let output = Smallgo::new(&["count", "2x3", "--state", damaged.to_str().unwrap()])
        .folder(folder.path())
        .run();
    assert_eq!(output.status.code(), Some(1));
    let message = output.stderr;
    assert!(
        message.contains("damaged") && message.contains("not a count's progress file"),
        "{message}"
    );
}
