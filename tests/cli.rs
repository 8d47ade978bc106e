//! The `smallgo` binary as a user meets it: `--build` and `verify`, good and
//! bad input. Every failure must exit non-zero with a message naming the
//! argument or file, and leave no table file behind.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::support::builds::wait_for_log;
use crate::support::command::{smallgo, Outcome, Running, Smallgo};
use crate::support::files::{files_in, make_fifo, shipped_table};

#[test]
fn bad_board_names_are_refused() {
    for (argument, expected) in [
        ("0x3", "board 0x3 is not allowed"),
        ("3", "'3' is not a board"),
        ("foo", "'foo' is not a board"),
        ("9x9", "board 9x9 is not allowed"),
    ] {
        let output = smallgo(&["--build", argument]);
        assert_eq!(output.status.code(), Some(2), "{argument}");
        let message = output.stderr;
        assert!(message.contains("--build"), "{argument}: {message}");
        assert!(message.contains(expected), "{argument}: {message}");
        assert!(!message.contains("panicked"), "{message}");
    }
}

#[test]
fn boards_over_the_limit_give_their_size() {
    let folder = tempfile::tempdir().unwrap();
    for board in ["5x5", "6x6"] {
        let output = smallgo(&[
            "--build",
            board,
            "--tables",
            folder.path().to_str().unwrap(),
        ]);
        assert_eq!(output.status.code(), Some(1), "{board}");
        let message = output.stderr;
        assert!(
            message.contains(&format!("board {board} is too large")),
            "{message}"
        );
        assert!(message.contains("states after symmetry"), "{message}");
        assert!(message.contains("of memory"), "{message}");
    }
    assert!(files_in(folder.path()).is_empty());
}

#[test]
fn an_unwritable_folder_is_named() {
    let folder = tempfile::tempdir().unwrap();
    let blocker = folder.path().join("not-a-folder");
    std::fs::write(&blocker, b"a file").unwrap();
    let inside = blocker.join("tables");
    let output = smallgo(&["--build", "2x2", "--tables", inside.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let message = output.stderr;
    assert!(message.contains(&inside.display().to_string()), "{message}");
}

#[test]
fn build_then_verify() {
    let folder = tempfile::tempdir().unwrap();
    let dir = folder.path().to_str().unwrap();
    let output = smallgo(&["--build", "2x3", "--tables", dir]);
    assert!(output.status.success(), "{}", output.stderr);
    let summary = &output.stdout;
    for line in [
        "board               2x3",
        "legal positions     489",
        "result at komi 0    draw",
        "best first moves    B1 B2 pass",
        "peak memory",
        "states/s",
    ] {
        assert!(summary.contains(line), "missing '{line}' in:\n{summary}");
    }
    assert_eq!(files_in(folder.path()), ["2x3.sgtb", "manifest.tsv"]);
    let manifest = std::fs::read_to_string(folder.path().join("manifest.tsv")).unwrap();
    assert!(
        manifest.contains("2x3\t293\tdraw\tB1 B2 pass\t"),
        "{manifest}"
    );
    let table = folder.path().join("2x3.sgtb");
    let output = smallgo(&["verify", table.to_str().unwrap()]);
    assert!(output.status.success(), "{}", output.stderr);
    assert!(output.stdout.contains("ok (293 states"));

    // A second build of the same board gives the same file.
    let first = std::fs::read(&table).unwrap();
    assert!(smallgo(&["--build", "2x3", "--tables", dir])
        .status
        .success());
    assert_eq!(std::fs::read(&table).unwrap(), first);
}

/// `verify --memory`: a cap that holds one half of every value gives two
/// passes, one that holds both a single pass, and one below either a
/// refusal with the figures. The two thresholds are found by bisection
/// over the binary's answers (the crate's unit tests check them against
/// the memory model); between them every cap gives two passes.
#[test]
fn verify_within_a_memory_cap() {
    let table = shipped_table("3x4.sgtb");
    let table = table.to_str().unwrap();
    let verify = |memory: u64| smallgo(&["verify", "--memory", &memory.to_string(), table]);
    // The least cap at which `accepts` holds, between `low` (refused) and
    // `high` (accepted).
    let least = |accepts: &dyn Fn(u64) -> bool, mut low: u64, mut high: u64| {
        assert!(!accepts(low) && accepts(high), "{low}..{high}");
        while high - low > 1 {
            let middle = low + (high - low) / 2;
            if accepts(middle) {
                high = middle;
            } else {
                low = middle;
            }
        }
        high
    };
    let one_half = least(&|memory| verify(memory).status.success(), 1, 1 << 40);
    let both = least(
        &|memory| verify(memory).stdout.contains("1 pass,"),
        one_half,
        1 << 40,
    );
    assert!(one_half < both, "{one_half} {both}");
    for (memory, said) in [
        (one_half, "2 passes"),
        (both - 1, "2 passes"),
        (both, "1 pass,"),
    ] {
        let output = verify(memory);
        assert!(output.status.success(), "{}", output.stderr);
        let out = &output.stdout;
        assert!(out.contains(said), "--memory {memory}: {out}");
    }
    let output = verify(one_half - 1);
    assert_eq!(output.status.code(), Some(1));
    let message = output.stderr;
    assert!(
        message.contains("3x4.sgtb")
            && message.contains("verifying 3x4 needs about")
            && message.contains("may be used (--memory)"),
        "{message}"
    );
}

#[test]
fn damaged_tables_are_refused_by_name() {
    let folder = tempfile::tempdir().unwrap();
    let dir = folder.path().to_str().unwrap();
    assert!(smallgo(&["--build", "2x4", "--tables", dir])
        .status
        .success());
    let table = folder.path().join("2x4.sgtb");
    let bytes = std::fs::read(&table).unwrap();

    let truncated = folder.path().join("truncated.sgtb");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let output = smallgo(&["verify", truncated.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let message = output.stderr;
    assert!(
        message.contains("truncated.sgtb") && message.contains("truncated"),
        "{message}"
    );

    let mut altered = bytes.clone();
    let middle = altered.len() / 2;
    altered[middle] ^= 1;
    let changed = folder.path().join("altered.sgtb");
    std::fs::write(&changed, &altered).unwrap();
    let output = smallgo(&["verify", changed.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let message = output.stderr;
    assert!(
        message.contains("altered.sgtb") && message.contains("checksum mismatch"),
        "{message}"
    );

    let missing = folder.path().join("missing.sgtb");
    let output = smallgo(&["verify", missing.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stderr.contains("missing.sgtb"));

    let not_a_table = folder.path().join("manifest.tsv");
    let output = smallgo(&["verify", not_a_table.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stderr.contains("not a smallgo table"));
}

#[test]
fn ctrl_c_leaves_no_partial_file() {
    let folder = tempfile::tempdir().unwrap();
    let child = Smallgo::new(&[
        "--build",
        "4x4",
        "--tables",
        folder.path().to_str().unwrap(),
    ])
    .log("info")
    .start();
    // Wait until the retrograde phase has started, then interrupt.
    std::thread::sleep(Duration::from_millis(1500));
    let started = Instant::now();
    assert!(child.signal(libc::SIGINT));
    let output = child.finish();
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(output.status.code(), Some(130), "{}", output.stderr);
    assert!(output.stderr.contains("interrupted; no table written"));
    assert!(
        files_in(folder.path()).is_empty(),
        "{:?}",
        files_in(folder.path())
    );
}

/// `smallgo --build 3x5` into `dir`, saving a checkpoint before every level.
fn build_3x5_saving_every_level(dir: &str) -> Smallgo {
    Smallgo::new(&[
        "--build",
        "3x5",
        "--tables",
        dir,
        "--checkpoint-interval",
        "0",
    ])
    .log("info")
}

/// The shares of the build done (`..., 37.5% done, ...`) on the margin
/// levels' log lines, in order.
fn shares_done(log: &str) -> Vec<f64> {
    log.lines()
        .filter(|line| line.contains("states decided in"))
        .filter_map(|line| {
            let before = line.split("% done").next()?;
            before.rsplit(' ').next()?.parse().ok()
        })
        .collect()
}

fn last_share_done(log: &str) -> f64 {
    *shares_done(log).last().expect("a margin's log line")
}

fn first_share_done(log: &str) -> f64 {
    *shares_done(log).first().expect("a margin's log line")
}

#[test]
fn a_killed_build_resumes_from_its_checkpoint_to_the_same_table() {
    let folder = tempfile::tempdir().unwrap();
    let dir = folder.path().to_str().unwrap();
    let log = folder.path().join("first.log");
    let child = build_3x5_saving_every_level(dir)
        .stderr(std::fs::File::create(&log).unwrap())
        .start();
    // Kill it (no chance to clean up) after a few levels were saved.
    assert!(wait_for_log(&log, "checkpoint before margin +10"));
    assert!(child.signal(libc::SIGKILL));
    let _ = child.finish();
    let work = folder.path().join("3x5.sgtb.work");
    assert!(work.join("checkpoint").exists());
    assert!(!folder.path().join("3x5.sgtb").exists());

    let output = build_3x5_saving_every_level(dir).run();
    assert!(output.status.success());
    let message = output.stderr;
    assert!(message.contains("resuming at margin"), "{message}");
    // The work resumed from counts as done: the resumed run's first margin
    // shows at least the share of the build the killed run reached (the
    // rate leaves it out: solver and progress unit tests).
    let first = std::fs::read_to_string(&log).unwrap();
    let (before, after) = (last_share_done(&first), first_share_done(&message));
    assert!(
        after >= before,
        "{after}% done after resuming, {before}% before:\n{message}"
    );
    assert!(
        !work.exists(),
        "the working folder is removed once the table is written"
    );
    let shipped = shipped_table("3x5.sgtb");
    assert!(
        std::fs::read(folder.path().join("3x5.sgtb")).unwrap() == std::fs::read(shipped).unwrap(),
        "the resumed build wrote other bytes than an uninterrupted one"
    );
}

#[test]
fn a_damaged_checkpoint_is_set_aside() {
    let folder = tempfile::tempdir().unwrap();
    let dir = folder.path().to_str().unwrap();
    std::fs::create_dir(folder.path().join("2x4.sgtb.work")).unwrap();
    std::fs::write(
        folder.path().join("2x4.sgtb.work/checkpoint"),
        b"SMALLGOW but cut short",
    )
    .unwrap();
    let output = smallgo(&["--build", "2x4", "--tables", dir]);
    assert!(output.status.success());
    let message = output.stderr;
    assert!(
        message.contains("ignoring checkpoint") && message.contains("2x4.sgtb.work/checkpoint"),
        "{message}"
    );
    let shipped = shipped_table("2x4.sgtb");
    assert!(
        std::fs::read(folder.path().join("2x4.sgtb")).unwrap() == std::fs::read(shipped).unwrap()
    );
    assert_eq!(files_in(folder.path()), ["2x4.sgtb", "manifest.tsv"]);
}

/// Runs smallgo with its standard output a pipe whose reader is already
/// gone, as in `smallgo ... | true`.
fn smallgo_into_closed_pipe(arguments: &[&str]) -> Outcome {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    Smallgo::new(arguments).stdout(writer).run()
}

#[test]
fn a_closed_standard_output_ends_quietly() {
    let folder = tempfile::tempdir().unwrap();
    let dir = folder.path().to_str().unwrap();
    let output = smallgo_into_closed_pipe(&["--build", "3x4", "--tables", dir]);
    let message = output.stderr;
    assert_eq!(output.status.code(), Some(0), "{message}");
    assert!(!message.contains("panicked"), "{message}");
    assert!(!message.contains("Broken pipe"), "{message}");
    // The table is complete: it verifies, and the folder holds nothing else.
    assert_eq!(files_in(folder.path()), ["3x4.sgtb", "manifest.tsv"]);
    let table = folder.path().join("3x4.sgtb");
    assert!(smallgo(&["verify", table.to_str().unwrap()])
        .status
        .success());

    let files: Vec<String> = (1..=6)
        .map(|n| shipped_table(&format!("1x{n}.sgtb")).display().to_string())
        .collect();
    let mut arguments = vec!["verify"];
    arguments.extend(files.iter().map(String::as_str));
    let output = smallgo_into_closed_pipe(&arguments);
    let message = output.stderr;
    assert_eq!(output.status.code(), Some(0), "{message}");
    assert!(message.is_empty(), "{message}");

    // A table that fails still fails, whatever became of standard output.
    let bad = folder.path().join("bad.sgtb");
    std::fs::write(&bad, b"not a table").unwrap();
    let output = smallgo_into_closed_pipe(&["verify", bad.to_str().unwrap(), &files[0]]);
    assert_eq!(output.status.code(), Some(1), "{}", output.stderr);
    assert!(output.stderr.contains("bad.sgtb"));
}

#[test]
fn verify_refuses_odd_files_at_once() {
    let folder = tempfile::tempdir().unwrap();
    let fifo = folder.path().join("3x3.sgtb");
    make_fifo(&fifo);
    // An 8 GiB sparse file: a sound table with a hole after it, and a hole
    // alone.
    let long_table = folder.path().join("long.sgtb");
    let table_bytes = std::fs::copy(shipped_table("2x4.sgtb"), &long_table).unwrap();
    let extra = format!("bytes where the header describes {table_bytes}: extra bytes at the end");
    std::fs::OpenOptions::new()
        .write(true)
        .open(&long_table)
        .unwrap()
        .set_len(8 << 30)
        .unwrap();
    let hole = folder.path().join("hole.sgtb");
    std::fs::File::create(&hole)
        .unwrap()
        .set_len(8 << 30)
        .unwrap();
    let mut renamed = std::fs::read(shipped_table("3x4.sgtb")).unwrap();
    renamed[17] ^= 1;
    let renamed_path = folder.path().join("3x4.sgtb");
    std::fs::write(&renamed_path, &renamed).unwrap();
    for (file, fault) in [
        (fifo.as_path(), "a FIFO, not a regular file"),
        (
            Path::new("/dev/zero"),
            "a character device, not a regular file",
        ),
        (
            Path::new("/dev/urandom"),
            "a character device, not a regular file",
        ),
        (folder.path(), "a folder, not a regular file"),
        (long_table.as_path(), extra.as_str()),
        (hole.as_path(), "not a smallgo table"),
        (renamed_path.as_path(), "holds board 3x5, not 3x4"),
    ] {
        let started = Instant::now();
        let output = Smallgo::new(&["verify", file.to_str().unwrap()])
            .run_within(Duration::from_secs(10))
            .unwrap_or_else(|| panic!("verify {} hangs", file.display()));
        let message = output.stderr;
        assert_eq!(
            output.status.code(),
            Some(1),
            "{}: {message}",
            file.display()
        );
        assert!(
            message.contains(&file.display().to_string()) && message.contains(fault),
            "{}: {message}",
            file.display()
        );
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "verify {} took {:?}",
            file.display(),
            started.elapsed()
        );
    }
}

/// The id of a process that has ended.
fn a_dead_process_id() -> u32 {
    let mut child = Command::new("true").spawn().unwrap();
    let id = child.id();
    child.wait().unwrap();
    id
}

/// The temporary files in `folder` and in its builds' working folders
/// (hidden names with `.tmp.`).
fn temporaries_in(folder: &Path) -> Vec<String> {
    let mut names = Vec::new();
    for name in files_in(folder) {
        if name.ends_with(".sgtb.work") {
            names.extend(
                files_in(&folder.join(&name))
                    .into_iter()
                    .map(|inner| format!("{name}/{inner}")),
            );
        } else {
            names.push(name);
        }
    }
    names
        .into_iter()
        .filter(|name| name.rsplit('/').next().unwrap().starts_with('.') && name.contains(".tmp."))
        .collect()
}

#[test]
fn a_build_removes_the_temporaries_of_dead_processes_only() {
    let folder = tempfile::tempdir().unwrap();
    let dead = a_dead_process_id();
    let live = std::process::id();
    // A working folder with a checkpoint to resume from, which stays, and
    // one without, which goes.
    std::fs::create_dir(folder.path().join("2x4.sgtb.work")).unwrap();
    std::fs::write(folder.path().join("2x4.sgtb.work/checkpoint"), b"saved").unwrap();
    std::fs::create_dir(folder.path().join("3x4.sgtb.work")).unwrap();
    std::fs::write(folder.path().join("3x4.sgtb.work/values.0"), b"partial").unwrap();
    let stale = [
        format!(".3x4.sgtb.tmp.{dead}"),
        format!("2x4.sgtb.work/.checkpoint.tmp.{dead}"),
        format!(".manifest.tsv.tmp.{dead}"),
        format!(".smallgo-write-test.{dead}"),
    ];
    let kept = [
        // A live process's: a build going on beside this one.
        format!(".2x4.sgtb.tmp.{live}"),
        format!("2x4.sgtb.work/.checkpoint.tmp.{live}"),
        "2x4.sgtb.work/checkpoint".to_string(),
        // Not smallgo's.
        format!(".notes.txt.tmp.{dead}"),
        format!("3x4.sgtb.tmp.{dead}"),
    ];
    for name in stale.iter().chain(&kept) {
        std::fs::write(folder.path().join(name), b"partial").unwrap();
    }
    let output = smallgo(&[
        "--build",
        "2x3",
        "--tables",
        folder.path().to_str().unwrap(),
    ]);
    let message = output.stderr;
    assert!(output.status.success(), "{message}");
    for name in &stale {
        assert!(!folder.path().join(name).exists(), "{name} stays");
        assert!(
            message.contains(&format!(
                "removed stale temporary {} (process {dead} is gone)",
                folder.path().join(name).display()
            )),
            "{name}: {message}"
        );
    }
    for name in &kept {
        assert!(folder.path().join(name).exists(), "{name} was removed");
    }
    assert!(!folder.path().join("3x4.sgtb.work").exists());
    assert!(
        message.contains("removed abandoned working folder"),
        "{message}"
    );
}

/// Starts a build of 3x5 (about a second here) with a checkpoint before
/// every level, and waits until it is writing one (the one write that a
/// first Ctrl-C lets finish).
fn build_until_a_temporary(folder: &Path) -> Option<Running> {
    let mut child = Smallgo::new(&["--build", "3x5", "--checkpoint-interval", "0", "--tables"])
        .arg(folder)
        .start();
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(60) {
        if temporaries_in(folder)
            .iter()
            .any(|name| name.contains(".checkpoint.tmp."))
        {
            return Some(child);
        }
        if child.has_exited() {
            return None;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    child.kill();
    panic!("no checkpoint being written in 60 s");
}

#[test]
fn sigterm_and_a_second_ctrl_c_leave_no_temporaries() {
    let clean = tempfile::tempdir().unwrap();
    assert!(
        smallgo(&["--build", "3x5", "--tables", clean.path().to_str().unwrap()])
            .status
            .success()
    );
    let expected = std::fs::read(clean.path().join("3x5.sgtb")).unwrap();
    for signals in [&[libc::SIGTERM][..], &[libc::SIGINT, libc::SIGINT]] {
        let folder = tempfile::tempdir().unwrap();
        // The build may end before a signal lands: try a few times.
        let mut caught = false;
        for _ in 0..5 {
            let Some(child) = build_until_a_temporary(folder.path()) else {
                let _ = std::fs::remove_file(folder.path().join("3x5.sgtb"));
                continue;
            };
            for &number in signals {
                assert!(child.signal(number));
                // Two signals sent at once may arrive as one.
                std::thread::sleep(Duration::from_millis(2));
            }
            let output = child.finish();
            let message = output.stderr;
            if output.status.success() {
                let _ = std::fs::remove_file(folder.path().join("3x5.sgtb"));
                continue;
            }
            assert_eq!(output.status.code(), Some(130), "{signals:?}: {message}");
            assert!(message.contains("interrupted"), "{message}");
            assert!(!message.contains("panicked"), "{message}");
            assert_eq!(
                temporaries_in(folder.path()),
                Vec::<String>::new(),
                "{signals:?}"
            );
            assert!(!folder.path().join("3x5.sgtb").exists());
            // A first signal lets the checkpoint being written finish, and
            // the working folder stays with it for the next build.
            let work = folder.path().join("3x5.sgtb.work");
            if signals.len() == 1 {
                assert!(work.join("checkpoint").exists());
                assert!(
                    message.contains(&format!(
                        "its checkpoint stay in {}, and the same --build resumes from it",
                        work.display()
                    )),
                    "{message}"
                );
            }
            caught = true;
            break;
        }
        assert!(caught, "{signals:?}: every build ended before its signal");
        // What stays is at most the checkpoint, and a rerun finishes from it
        // with the same table as a clean build.
        let output = smallgo(&[
            "--build",
            "3x5",
            "--tables",
            folder.path().to_str().unwrap(),
        ]);
        assert!(output.status.success(), "{}", output.stderr);
        assert_eq!(
            std::fs::read(folder.path().join("3x5.sgtb")).unwrap(),
            expected
        );
        assert_eq!(files_in(folder.path()), ["3x5.sgtb", "manifest.tsv"]);
    }
}

#[test]
fn a_build_under_nohup_ignores_sighup() {
    let folder = tempfile::tempdir().unwrap();
    let child = Smallgo::new(&["--build", "3x5", "--checkpoint-interval", "0", "--tables"])
        .arg(folder.path())
        .under("nohup")
        .start();
    // Once the build is under way (its handler installed), hang up.
    let started = Instant::now();
    while !folder.path().join("3x5.sgtb.work/checkpoint").exists() {
        assert!(started.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(child.signal(libc::SIGHUP));
    let output = child.finish();
    assert!(output.status.success(), "{}", output.stderr);
    assert_eq!(files_in(folder.path()), ["3x5.sgtb", "manifest.tsv"]);
}

#[test]
fn a_checkpoint_that_is_no_regular_file_is_ignored() {
    let folder = tempfile::tempdir().unwrap();
    std::fs::create_dir(folder.path().join("2x4.sgtb.work")).unwrap();
    let checkpoint = folder.path().join("2x4.sgtb.work/checkpoint");
    make_fifo(&checkpoint);
    let output = Smallgo::new(&["--build", "2x4", "--tables"])
        .arg(folder.path())
        .run_within(Duration::from_secs(20))
        .unwrap_or_else(|| panic!("the build hangs on a FIFO checkpoint"));
    let message = output.stderr;
    assert!(output.status.success(), "{message}");
    assert!(
        message.contains(&format!(
            "ignoring checkpoint {}: a FIFO, not a regular file",
            checkpoint.display()
        )),
        "{message}"
    );
    let shipped = shipped_table("2x4.sgtb");
    assert!(
        std::fs::read(folder.path().join("2x4.sgtb")).unwrap() == std::fs::read(shipped).unwrap()
    );
}

#[test]
fn a_memory_cap_refuses_a_board_that_needs_more() {
    let folder = tempfile::tempdir().unwrap();
    let dir = folder.path().to_str().unwrap();
    let output = smallgo(&["--build", "4x4", "--tables", dir, "--memory", "1M"]);
    assert_eq!(output.status.code(), Some(1));
    let message = output.stderr;
    assert!(
        message.contains("board 4x4 is too large for this machine")
            && message.contains("1.0 MiB of memory may be used (--memory)")
            && message.contains(&format!("free on the disk of {dir}")),
        "{message}"
    );
    assert!(files_in(folder.path()).is_empty());
    // Within the cap, the build goes on.
    let output = smallgo(&["--build", "2x3", "--tables", dir, "--memory", "512M"]);
    assert!(output.status.success(), "{}", output.stderr);
    let output = smallgo(&["--build", "2x3", "--tables", dir, "--memory", "8X"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stderr.contains("--memory"), "{}", output.stderr);
}

#[test]
fn a_build_checks_its_table_before_putting_it_in_place() {
    let folder = tempfile::tempdir().unwrap();
    let dir = folder.path().to_str().unwrap();
    let output = Smallgo::new(&["--build", "2x4", "--tables", dir, "--verify"])
        .log("info")
        .run();
    let message = output.stderr;
    assert!(output.status.success(), "{message}");
    assert!(
        message.contains("every state of the table checked"),
        "{message}"
    );
    assert!(
        message.contains("states of the table checked against their children"),
        "{message}"
    );
}

/// The lines of a `--help` text that name an option or an argument but
/// give no description, on the line or indented on the next one.
fn undescribed(help: &str) -> Vec<String> {
    let lines: Vec<&str> = help.lines().collect();
    let indent = |line: &str| line.len() - line.trim_start().len();
    let mut bare = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        let entry = line.trim_start();
        let names = entry.starts_with(['-', '<'])
            || (entry.starts_with('[')
                && !entry.starts_with("[default")
                && !entry.starts_with("[possible"));
        if indent(line) == 0 || !names {
            continue;
        }
        let on_the_line = entry
            .split_once("  ")
            .is_some_and(|(_, rest)| !rest.trim().is_empty());
        let below = lines.get(at + 1).is_some_and(|next| {
            !next.trim().is_empty()
                && indent(next) > indent(line)
                && !next.trim_start().starts_with('-')
        });
        if !on_the_line && !below {
            bare.push(line.to_string());
        }
    }
    bare
}

fn help(arguments: &[&str]) -> String {
    let output = smallgo(arguments);
    assert!(output.status.success(), "{arguments:?}: {}", output.stderr);
    output.stdout
}

#[test]
fn each_help_lists_its_own_options_each_described() {
    let top = help(&["--help"]);
    for option in [
        "--tables",
        "--resign",
        "--without-built-in-tables",
        "--build <RxC>",
        "--checkpoint-interval",
        "--memory",
        "--verify",
    ] {
        assert!(
            top.contains(option),
            "smallgo --help lacks {option}:\n{top}"
        );
    }
    let build = help(&["build", "--help"]);
    for option in ["--tables", "--checkpoint-interval", "--memory", "--verify"] {
        assert!(
            build.contains(option),
            "build --help lacks {option}:\n{build}"
        );
    }
    for option in ["--resign", "--without-built-in-tables", "--build", "--komi"] {
        assert!(
            !build.contains(option),
            "build --help lists {option}:\n{build}"
        );
    }
    let verify = help(&["verify", "--help"]);
    assert!(verify.contains("--memory") && verify.contains("--tables"));
    for option in ["--checkpoint-interval", "--verify", "--resign", "--build"] {
        assert!(
            !verify.contains(option),
            "verify --help lists {option}:\n{verify}"
        );
    }
    let analyze = help(&["analyze", "position", "--help"]);
    assert!(analyze.contains("--komi") && analyze.contains("--tables"));
    assert!(!analyze.contains("--memory"), "{analyze}");

    let helps = [
        &["--help"][..],
        &["-h"],
        &["build", "--help"],
        &["verify", "--help"],
        &["analyze", "--help"],
        &["analyze", "position", "--help"],
        &["review", "--help"],
        &["bench", "--help"],
        &["bench", "build", "--help"],
        &["bench", "engine", "--help"],
    ];
    for arguments in helps {
        let text = help(arguments);
        assert_eq!(
            undescribed(&text),
            Vec::<String>::new(),
            "{arguments:?}:\n{text}"
        );
    }
    // The check finds a bare option, in either layout.
    assert_eq!(
        undescribed("Options:\n      --bare <X>\n  -h, --help  Print help\n"),
        ["      --bare <X>"]
    );
    assert_eq!(
        undescribed("Options:\n      --bare\n\n      --told\n          What it does\n"),
        ["      --bare"]
    );
}

#[test]
fn build_is_a_command_and_build_options_need_a_build() {
    let folder = tempfile::tempdir().unwrap();
    let dir = folder.path().to_str().unwrap();
    let output = smallgo(&["build", "2x3", "--tables", dir]);
    assert!(output.status.success(), "{}", output.stderr);
    let summary = &output.stdout;
    assert!(summary.contains("board               2x3"), "{summary}");
    assert!(summary.contains("result at komi 0    draw"), "{summary}");
    assert_eq!(files_in(folder.path()), ["2x3.sgtb", "manifest.tsv"]);
    let built = std::fs::read(folder.path().join("2x3.sgtb")).unwrap();

    // `--build` is the same build, with every build option.
    let synonym = tempfile::tempdir().unwrap();
    let output = smallgo(&[
        "--build",
        "2x3",
        "--tables",
        synonym.path().to_str().unwrap(),
        "--memory",
        "512M",
        "--verify",
        "--checkpoint-interval",
        "5",
    ]);
    assert!(output.status.success(), "{}", output.stderr);
    assert_eq!(
        std::fs::read(synonym.path().join("2x3.sgtb")).unwrap(),
        built
    );

    // Bad boards name the argument; build options alone, or with the
    // engine's, are usage errors.
    let output = smallgo(&["build", "9x9"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        output.stderr.contains("<RxC>") && output.stderr.contains("board 9x9 is not allowed"),
        "{}",
        output.stderr
    );
    for arguments in [
        &["--memory", "1G"][..],
        &["--verify"],
        &["--checkpoint-interval", "0"],
        &["--build", "2x2", "--resign"],
        &["--tables", dir, "build", "2x2"],
        &["build", "2x2", "--resign"],
    ] {
        let output = smallgo(arguments);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{arguments:?}: {}",
            output.stderr
        );
    }
}

#[test]
fn a_build_says_where_its_table_goes_and_shows_each_phase() {
    let folder = tempfile::tempdir().unwrap();
    let output = Smallgo::new(&["build", "2x3"])
        .folder(folder.path())
        .log("info")
        .run();
    let message = output.stderr;
    assert!(output.status.success(), "{message}");
    assert_eq!(files_in(folder.path()), ["2x3.sgtb", "manifest.tsv"]);
    let table = folder.path().canonicalize().unwrap().join("2x3.sgtb");
    assert!(
        message.contains(&format!("2x3: the table goes to {}\n", table.display())),
        "{message}"
    );
    // Off a terminal: a line per phase, with what it counts; writing the
    // table is one.
    for phase in [
        "2x3: enumerate (",
        "2x3: count children (145 positions; ",
        "2x3: retrograde (586 decisions; ",
        "2x3: write the table (1 block; ",
    ] {
        assert_eq!(message.matches(phase).count(), 1, "{phase}: {message}");
    }
}

#[test]
fn off_a_terminal_a_build_says_how_long_is_left() {
    let folder = tempfile::tempdir().unwrap();
    let output = Smallgo::new(&["--build", "3x5", "--tables"])
        .arg(folder.path())
        .log("info")
        .run();
    assert!(output.status.success());
    let log = output.stderr;
    let margins: Vec<&str> = log.lines().filter(|l| l.contains(": margin ")).collect();
    assert!(!margins.is_empty(), "{log}");
    for line in &margins {
        assert!(
            line.contains(" left (the build about "),
            "no time left in: {line}"
        );
    }
    let write = log
        .lines()
        .find(|l| l.contains(": write the table ("))
        .unwrap();
    assert!(write.contains("; the build about "), "{write}");
}

#[test]
fn a_board_served_turned_is_not_built() {
    let folder = tempfile::tempdir().unwrap();
    let dir = folder.path().to_str().unwrap();
    let output = smallgo(&["build", "3x2", "--tables", dir]);
    assert!(output.status.success(), "{}", output.stderr);
    let said = &output.stdout;
    assert!(
        said.contains("3x2: nothing to build: the table of 2x3 (built in) serves 3x2 turned"),
        "{said}"
    );
    assert!(files_in(folder.path()).is_empty());

    // A turned table in the folder serves too, before the built-in one,
    // if it passes the engine's checks (tests/faults_build.rs has one that
    // does not).
    let turned = folder.path().join("2x3.sgtb");
    std::fs::copy(shipped_table("2x3.sgtb"), &turned).unwrap();
    let output = smallgo(&["--build", "3x2", "--tables", dir]);
    assert!(output.status.success(), "{}", output.stderr);
    let said = &output.stdout;
    assert!(
        said.contains(&format!(
            "3x2: nothing to build: the table of 2x3 ({}) serves 3x2 turned",
            turned.display()
        )),
        "{said}"
    );
    assert_eq!(files_in(folder.path()), ["2x3.sgtb"]);
}

/// A circular board builds through the same commands, into `RxCc.sgtb`,
/// verifies by file and by name, and is never served from a turned table:
/// with the 2x3 table built in, 3x2 is served turned but 3x2c is built.
#[test]
fn circular_boards_build_and_verify() {
    let folder = tempfile::tempdir().unwrap();
    let dir = folder.path().to_str().unwrap();
    let output = smallgo(&["build", "2x4c", "--tables", dir]);
    assert!(output.status.success(), "{}", output.stderr);
    let summary = &output.stdout;
    for line in ["board               2x4c", "result at komi 0    "] {
        assert!(summary.contains(line), "missing '{line}' in:\n{summary}");
    }
    let output = smallgo(&["--build", "3x2c", "--tables", dir]);
    assert!(output.status.success(), "{}", output.stderr);
    assert!(output.stdout.contains("board               3x2c"));
    assert_eq!(
        files_in(folder.path()),
        ["2x4c.sgtb", "3x2c.sgtb", "manifest.tsv"]
    );
    let manifest = std::fs::read_to_string(folder.path().join("manifest.tsv")).unwrap();
    assert!(manifest.contains("\n2x4c\t"), "{manifest}");
    let table = folder.path().join("2x4c.sgtb");
    let output = smallgo(&["verify", table.to_str().unwrap()]);
    assert!(output.status.success(), "{}", output.stderr);
    assert!(output.stdout.contains(": ok ("));
    let output = smallgo(&["verify", "2x4c", "3x2c", "--tables", dir]);
    assert!(output.status.success(), "{}", output.stderr);
    // The plain board of the same shape has no table there.
    let output = smallgo(&["verify", "2x4", "--tables", dir]);
    assert!(
        output.stdout.contains("2x4 (built in): ok"),
        "{}",
        output.stdout
    );
    // No circular table is built in: no table of 4x2c anywhere, and no
    // word of 2x4c serving it turned.
    let output = smallgo(&["verify", "4x2c", "--tables", dir]);
    assert_eq!(output.status.code(), Some(1));
    let message = output.stderr;
    assert!(message.contains("no table of 4x2c"), "{message}");
    assert!(!message.contains("turned"), "{message}");
    // The same build again gives the same bytes.
    let first = std::fs::read(&table).unwrap();
    assert!(smallgo(&["--build", "2x4c", "--tables", dir])
        .status
        .success());
    assert_eq!(std::fs::read(&table).unwrap(), first);
}

#[test]
fn verify_takes_boards_as_well_as_files() {
    let output = smallgo(&["verify", "2x3"]);
    assert!(output.status.success(), "{}", output.stderr);
    assert!(
        output.stdout.contains("2x3 (built in): ok (293 states"),
        "{}",
        output.stdout
    );

    // In --tables DIR, the board's file comes first: a damaged one fails.
    let folder = tempfile::tempdir().unwrap();
    let dir = folder.path().to_str().unwrap();
    let table = folder.path().join("2x3.sgtb");
    std::fs::copy(shipped_table("2x3.sgtb"), &table).unwrap();
    let output = smallgo(&["verify", "2x3", "--tables", dir]);
    assert!(output.status.success(), "{}", output.stderr);
    assert!(output
        .stdout
        .contains(&format!("{}: ok (293 states", table.display())));
    let mut bytes = std::fs::read(&table).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&table, &bytes).unwrap();
    let output = smallgo(&["verify", "--tables", dir, "2x3"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        output.stderr.contains(&table.display().to_string())
            && output.stderr.contains("checksum mismatch"),
        "{}",
        output.stderr
    );

    // A board without a table says where it looked, and fails; the others
    // are still verified.
    let output = smallgo(&["verify", "5x5", "1x3"]);
    assert_eq!(output.status.code(), Some(1));
    let message = output.stderr;
    assert!(
        message.contains("no table of 5x5") && message.contains("none built in"),
        "{message}"
    );
    assert!(output.stdout.contains("1x3 (built in): ok"));
    let output = smallgo(&["verify", "5x5", "--tables", dir]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        output
            .stderr
            .contains(&folder.path().join("5x5.sgtb").display().to_string()),
        "{}",
        output.stderr
    );
    let output = smallgo(&["verify", "2x3", "--tables", "/nonexistent/tables"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        output
            .stderr
            .contains("--tables /nonexistent/tables: does not exist"),
        "{}",
        output.stderr
    );
}

#[test]
fn table_folders_that_cannot_serve_say_why() {
    let output = smallgo(&["--tables", "/nonexistent/tables"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        output
            .stderr
            .contains("smallgo: --tables /nonexistent/tables: does not exist"),
        "{}",
        output.stderr
    );
    let file = tempfile::NamedTempFile::new().unwrap();
    let output = smallgo(&["--tables", file.path().to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stderr.contains("not a folder"), "{}", output.stderr);
    for (folder, said) in [
        ("/proc/x", "cannot create the table folder /proc/x: "),
        ("/proc", "cannot write in the table folder /proc: "),
    ] {
        let output = smallgo(&["build", "2x2", "--tables", folder]);
        assert_eq!(output.status.code(), Some(1), "{folder}");
        let message = output.stderr;
        assert!(
            message.contains(said) && message.contains("(os error"),
            "{message}"
        );
    }
}

#[test]
fn analyze_gives_the_value_and_every_move() {
    let output = smallgo(&["analyze", "position", "3x3", "B2"]);
    assert!(output.status.success(), "{}", output.stderr);
    let out = &output.stdout;
    assert!(out.contains("to move   White"), "{out}");
    assert!(
        out.contains("value     White (to move) can force -9 in "),
        "{out}"
    );
    assert!(out.contains("; Black can force +9 in "), "{out}");
    assert!(out.contains("result    B+9 at komi 0"), "{out}");
    let moves: Vec<&str> = out
        .lines()
        .skip_while(|line| !line.starts_with("moves for White"))
        .skip(1)
        .collect();
    assert_eq!(moves.len(), 9, "{out}");
    assert!(moves.iter().all(|line| line.ends_with("  -9")), "{out}");
    assert!(
        moves
            .iter()
            .any(|line| line.trim_start().starts_with("pass")),
        "{out}"
    );

    // At komi 9 White draws, passing first, as genmove would.
    let output = smallgo(&["analyze", "position", "3x3", "B2", "--komi", "9"]);
    let out = &output.stdout;
    assert!(out.contains("result    0 at komi 9"), "{out}");
    let first = out
        .lines()
        .skip_while(|l| !l.starts_with("moves for"))
        .nth(1);
    assert_eq!(first, Some("  pass  =0"), "{out}");
    let output = smallgo(&["analyze", "position", "2x2", "--komi", "-0.5"]);
    assert!(output.status.success(), "{}", output.stderr);

    for (arguments, said) in [
        (&["3x3", "B2", "Q7"][..], "move 2 'Q7' is not on board 3x3"),
        (&["3x3", "B2", "B2"], "move 2 'B2' is not legal for White"),
        (&["3x3", "xyz"], "move 1 'xyz' is not a move"),
    ] {
        let mut command = vec!["analyze", "position"];
        command.extend(arguments);
        let output = smallgo(&command);
        assert_eq!(output.status.code(), Some(1), "{arguments:?}");
        assert!(output.stderr.contains(said), "{}", output.stderr);
    }
    let output = smallgo(&["analyze", "position", "3x3x", "B2"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        output.stderr.contains("'3x3x' is not a board"),
        "{}",
        output.stderr
    );
}

/// A shape's table is named by a hash of its diagram; a folder holding one
/// is read by a new process, which has never seen the shape, without
/// refusing the file.
#[test]
fn a_folder_with_a_shape_table_is_read_without_refusal() {
    let folder = tempfile::tempdir().unwrap();
    let tables = folder.path().to_str().unwrap();
    let built = smallgo(&["build", ".../.+./...", "--tables", tables]);
    assert!(built.status.success(), "{}", built.stderr);
    let files: Vec<String> = std::fs::read_dir(folder.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".sgtb"))
        .collect();
    assert!(
        files.len() == 1 && files[0].starts_with("shape-"),
        "{files:?}"
    );
    let engine = Smallgo::new(&["--tables", tables])
        .log("info")
        .input("quit\n")
        .run();
    assert!(engine.status.success(), "{}", engine.stderr);
    assert!(
        !engine.stderr.contains(&files[0]),
        "the shape's table was refused: {}",
        engine.stderr
    );
}

/// A build too large for this machine is refused before anything is
/// created: a tables folder that did not exist still does not.
#[test]
fn a_build_too_large_creates_no_folder() {
    let parent = tempfile::tempdir().unwrap();
    let folder = parent.path().join("new").join("tables");
    for arguments in [&["--build", "5x5"][..], &["build", "5x5"]] {
        let mut command = arguments.to_vec();
        command.extend(["--tables", folder.to_str().unwrap()]);
        let output = smallgo(&command);
        assert_eq!(output.status.code(), Some(1), "{arguments:?}");
        assert!(
            output.stderr.contains("board 5x5 is too large"),
            "{}",
            output.stderr
        );
        assert!(files_in(parent.path()).is_empty(), "{arguments:?}");
    }
}

/// The number at `key` in a JSON line.
fn json_number(text: &str, key: &str) -> u64 {
    let object: serde_json::Value = serde_json::from_str(text.trim()).expect(text);
    object[key]
        .as_u64()
        .unwrap_or_else(|| panic!("no number {key} in {text}"))
}

/// `count`'s edges are the solver's (a build's), `analyze cycles`' are the
/// graph's: the pass that ends the game is one of the first and none of the
/// second, so they differ by one per state after a pass (one per canonical
/// position), and each output names its kind.
#[test]
fn count_and_cycles_name_the_edges_they_count() {
    let folder = tempfile::tempdir().unwrap();
    let dir = folder.path().to_str().unwrap();
    let build = smallgo(&["build", "2x3", "--tables", dir]);
    assert!(build.status.success(), "{}", build.stderr);
    let solver_edges: u64 = build
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("edges "))
        .expect("a build prints its edges")
        .trim()
        .parse()
        .unwrap();
    let count = smallgo(&["count", "2x3", "--json", "--state", &format!("{dir}/c")]);
    assert!(count.status.success(), "{}", count.stderr);
    let positions = json_number(&count.stdout, "canonical_positions");
    let cycles = smallgo(&["analyze", "cycles", "2x3", "--json"]);
    assert!(cycles.status.success(), "{}", cycles.stderr);
    let graph_edges = json_number(&cycles.stdout, "graph_edges");
    assert_eq!(solver_edges, graph_edges + positions);

    let text = smallgo(&["count", "2x3", "--state", &format!("{dir}/d")]).stdout;
    assert!(text.contains("edges counted       the solver's"), "{text}");
    let text = smallgo(&["analyze", "cycles", "2x3"]).stdout;
    assert!(text.contains("(graph edges: "), "{text}");
}

/// `analyze position` on a shape draws its cells that are not points as its
/// diagram writes them and rates its moves, on the empty board and after a
/// move.
#[test]
fn analyze_draws_and_rates_a_shape() {
    for moves in [&[][..], &["A1"][..]] {
        let mut arguments = vec!["analyze", "position", "##./.+./..."];
        arguments.extend_from_slice(moves);
        let output = smallgo(&arguments);
        assert!(output.status.success(), "{}", output.stderr);
        let text = output.stdout;
        assert!(text.contains("3 # # . 3"), "{text}");
        assert!(text.contains("2 . + . 2"), "{text}");
        assert!(text.contains("moves for"), "{text}");
    }
    let output = smallgo(&["analyze", "position", "##./.+./...", "A3"]);
    assert_eq!(output.status.code(), Some(1), "{}", output.stdout);
    assert!(!output.stderr.contains("panicked"), "{}", output.stderr);
}

/// `count` on a shape saves its progress under the shape's file stem (its
/// name holds `/`), and counts the same positions as a build.
#[test]
fn count_takes_a_shape() {
    let folder = tempfile::tempdir().unwrap();
    let output = Smallgo::new(&["count", "##./.+./...", "--json"])
        .folder(folder.path())
        .run();
    assert!(output.status.success(), "{}", output.stderr);
    let counted = json_number(&output.stdout, "states");
    let tables = folder.path().join("tables");
    let built = smallgo(&["build", "##./.+./...", "--tables", tables.to_str().unwrap()]);
    assert!(built.status.success(), "{}", built.stderr);
    let line = built
        .stdout
        .lines()
        .find(|line| line.starts_with("states "))
        .unwrap_or_else(|| panic!("no states line: {}", built.stdout));
    let states: u64 = line["states".len()..].trim().parse().unwrap();
    assert_eq!(counted, states);
}
