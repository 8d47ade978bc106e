//! Faults a build meets, through the real binary: a turned board's table
//! that the engine would refuse, a manifest that is no regular file, builds
//! of one board (and of several boards) into one folder at once, a write of
//! the solve that fails, a checkpoint edited with its checksum made right,
//! and a memory limit too small for the board. Each must end with a clear
//! message or a right table, never a wrong table, a lost checkpoint or a
//! hang.

use std::os::unix::fs::FileTypeExt;
use std::path::Path;
use std::time::Duration;

use crate::support::builds::{holding_its_lock, saving_every_level, wait_for_log};
use crate::support::command::{smallgo, Smallgo};
use crate::support::files::{files_in, make_fifo, shipped_table};

/// A turned board's table that does not pass the engine's checks (here a
/// 2x3 table whose header names 1x17, so that only its start looks right)
/// does not serve: the build goes on as if it were absent, and says why.
/// The memory cap makes the build stop right after that, where it refuses
/// the board with its figures.
#[test]
fn a_turned_table_the_engine_refuses_does_not_serve() {
    let folder = tempfile::tempdir().unwrap();
    let dir = folder.path().to_str().unwrap();
    let mut bytes = std::fs::read(shipped_table("2x3.sgtb")).unwrap();
    (bytes[16], bytes[17]) = (1, 17);
    std::fs::write(folder.path().join("1x17.sgtb"), &bytes).unwrap();
    let output = smallgo(&["build", "17x1", "--tables", dir, "--memory", "1M"]);
    assert!(
        !output.stdout.contains("nothing to build"),
        "{}",
        output.stdout
    );
    assert_eq!(output.status.code(), Some(1), "{}", output.stderr);
    let message = &output.stderr;
    assert!(
        message.contains("17x1: the table of 1x17 does not serve 17x1 turned")
            && message.contains("1x17.sgtb"),
        "{message}"
    );
    assert!(
        message.contains("board 17x1 is too large for this machine"),
        "{message}"
    );
    assert_eq!(files_in(folder.path()), ["1x17.sgtb"]);
}

/// A FIFO named `manifest.tsv` is never opened for reading (which would
/// block until a writer came): the table is written, and the build says
/// that the manifest is not, and why.
#[test]
fn a_manifest_that_is_a_fifo_does_not_block_the_build() {
    let folder = tempfile::tempdir().unwrap();
    let manifest = folder.path().join("manifest.tsv");
    make_fifo(&manifest);
    let output = Smallgo::new(&["build", "2x3", "--tables"])
        .arg(folder.path())
        .run_within(Duration::from_secs(30))
        .expect("the build ends");
    assert!(output.status.success(), "{}", output.stderr);
    let message = &output.stderr;
    assert!(
        message.contains("the table is written, but the manifest is not")
            && message.contains("manifest.tsv")
            && message.contains("a FIFO, not a regular file"),
        "{message}"
    );
    assert_eq!(
        std::fs::read(folder.path().join("2x3.sgtb")).unwrap(),
        std::fs::read(shipped_table("2x3.sgtb")).unwrap()
    );
    assert!(std::fs::symlink_metadata(&manifest)
        .unwrap()
        .file_type()
        .is_fifo());
}

/// The boards of a manifest's lines.
fn manifest_boards(folder: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(folder.join("manifest.tsv")).unwrap_or_default();
    let mut boards: Vec<String> = text
        .lines()
        .filter(|line| !line.starts_with('#') && !line.starts_with("board\t"))
        .filter_map(|line| line.split('\t').next().map(str::to_string))
        .collect();
    boards.sort();
    boards
}

/// Six boards built at once into one folder: each build's line reaches the
/// manifest, however their updates meet.
#[test]
fn builds_of_several_boards_at_once_each_keep_their_manifest_line() {
    let boards = ["1x5", "1x6", "2x2", "2x3", "2x4", "3x3"];
    for round in 0..8 {
        let folder = tempfile::tempdir().unwrap();
        let running: Vec<_> = boards
            .iter()
            .map(|board| {
                Smallgo::new(&["build", board, "--tables"])
                    .arg(folder.path())
                    .start()
            })
            .collect();
        for (board, build) in boards.iter().zip(running) {
            let output = build.finish();
            assert!(output.status.success(), "{board}: {}", output.stderr);
        }
        assert_eq!(manifest_boards(folder.path()), boards, "round {round}");
    }
}

/// The process id in "another build of BOARD (process N)".
fn holder(message: &str, board: &str) -> Option<u32> {
    let rest = message
        .split(&format!("another build of {board} (process "))
        .nth(1)?;
    rest.split(')').next()?.parse().ok()
}

/// While a build of 3x5 runs, a second build of 3x5 into the same folder
/// is refused at once, naming the first one's process; the first one
/// ends as if alone, and leaves no lock file.
#[test]
fn a_second_build_of_a_board_is_refused_at_once_naming_the_first() {
    let folder = tempfile::tempdir().unwrap();
    let log = folder.path().join("first.log");
    let first = holding_its_lock("3x5", folder.path(), &log);
    let second = Smallgo::new(&["build", "3x5", "--tables"])
        .arg(folder.path())
        .run_within(Duration::from_secs(5))
        .expect("the second build is refused at once");
    assert_eq!(second.status.code(), Some(1), "{}", second.stderr);
    let message = &second.stderr;
    let process = holder(message, "3x5").unwrap_or_else(|| panic!("no process named: {message}"));
    let command = std::fs::read(format!("/proc/{process}/cmdline")).unwrap_or_default();
    let command = String::from_utf8_lossy(&command).replace('\0', " ");
    assert!(
        command.contains("build 3x5"),
        "process {process} is {command:?}"
    );
    assert!(
        message.contains(&format!(
            "is writing {}; wait for it to end",
            folder.path().join("3x5.sgtb").display()
        )),
        "{message}"
    );
    let first = first.finish();
    assert!(first.status.success());
    assert_eq!(
        std::fs::read(folder.path().join("3x5.sgtb")).unwrap(),
        std::fs::read(shipped_table("3x5.sgtb")).unwrap()
    );
    std::fs::remove_file(&log).unwrap();
    assert_eq!(files_in(folder.path()), ["3x5.sgtb", "manifest.tsv"]);
}

/// Three builds of one board started at once: each builds alone or is
/// refused with the message that names the other build, never anything
/// else; the table is the right one, the manifest has its line once, and
/// no lock file stays.
#[test]
fn builds_of_one_board_at_once_exclude_each_other() {
    for round in 0..8 {
        let folder = tempfile::tempdir().unwrap();
        let running: Vec<_> = (0..3)
            .map(|_| {
                Smallgo::new(&["build", "3x4", "--tables"])
                    .arg(folder.path())
                    .start()
            })
            .collect();
        let mut built = 0;
        for build in running {
            let output = build.finish();
            if output.status.success() {
                built += 1;
            } else {
                assert!(
                    output.status.code() == Some(1)
                        && output.stderr.contains("another build of 3x4"),
                    "round {round}: {}",
                    output.stderr
                );
            }
        }
        assert!(built >= 1, "round {round}: none built");
        assert_eq!(
            std::fs::read(folder.path().join("3x4.sgtb")).unwrap(),
            std::fs::read(shipped_table("3x4.sgtb")).unwrap()
        );
        assert_eq!(manifest_boards(folder.path()), ["3x4"]);
        assert_eq!(files_in(folder.path()), ["3x4.sgtb", "manifest.tsv"]);
    }
}

/// A write of the solve fails (a file-size limit lowered once the first
/// checkpoint is saved stands for a full disk: every write past it fails
/// with EFBIG, SIGXFSZ being ignored): the build fails naming the fault,
/// keeps its checkpoint, and the same build resumes from it to the right
/// table.
#[test]
fn a_failed_write_keeps_the_last_checkpoint() {
    let folder = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let wrapper = scratch.path().join("limited");
    let pid_file = scratch.path().join("pid");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\ntrap '' XFSZ\necho $$ > {}\nexec \"$@\"\n",
            pid_file.display()
        ),
    )
    .unwrap();
    let log = scratch.path().join("first.log");
    let first = saving_every_level("3x5", folder.path(), &log)
        .under(&format!("/bin/sh {}", wrapper.display()))
        .start();
    assert!(wait_for_log(&log, "checkpoint before margin"));
    let pid: i32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let limit = libc::rlimit {
        rlim_cur: 4096,
        rlim_max: libc::RLIM_INFINITY,
    };
    // SAFETY: plain system call on a process id with a valid limit.
    assert_eq!(
        unsafe { libc::prlimit(pid, libc::RLIMIT_FSIZE, &limit, std::ptr::null_mut()) },
        0
    );
    let first = first
        .finish_within(Duration::from_secs(60))
        .expect("the build ends");
    let message = std::fs::read_to_string(&log).unwrap();
    assert_eq!(first.status.code(), Some(1), "{message}");
    assert!(message.contains("File too large"), "{message}");
    let work = folder.path().join("3x5.sgtb.work");
    assert!(
        message.contains(&format!(
            "the work so far and its checkpoint stay in {}",
            work.display()
        )),
        "{message}"
    );
    assert!(work.join("checkpoint").exists());
    assert!(!folder.path().join("3x5.sgtb").exists());

    let again = Smallgo::new(&["build", "3x5", "--tables"])
        .arg(folder.path())
        .log("info")
        .run();
    assert!(again.status.success(), "{}", again.stderr);
    assert!(
        again.stderr.contains("resuming at margin"),
        "{}",
        again.stderr
    );
    assert_eq!(
        std::fs::read(folder.path().join("3x5.sgtb")).unwrap(),
        std::fs::read(shipped_table("3x5.sgtb")).unwrap()
    );
    assert_eq!(files_in(folder.path()), ["3x5.sgtb", "manifest.tsv"]);
}

/// A build of 3x5 into `folder` killed (SIGKILL) once it has saved a few
/// checkpoints; `scratch` takes its log.
fn killed_3x5_build(folder: &Path, scratch: &Path) {
    let log = scratch.join("killed.log");
    let build = saving_every_level("3x5", folder, &log).start();
    assert!(wait_for_log(&log, "checkpoint before margin +10"));
    assert!(build.signal(libc::SIGKILL));
    let _ = build.finish();
    assert!(folder.join("3x5.sgtb.work/checkpoint").exists());
}

/// Edits the checkpoint at `path` with `edit` (given every byte before its
/// checksum), and makes its checksum right again.
fn edit_checkpoint(path: &Path, edit: impl FnOnce(&mut [u8])) {
    let mut bytes = std::fs::read(path).unwrap();
    let body = bytes.len() - 4;
    edit(&mut bytes[..body]);
    let checksum = crc32fast::hash(&bytes[..body]);
    bytes[body..].copy_from_slice(&checksum.to_le_bytes());
    std::fs::write(path, bytes).unwrap();
}

/// Copies the files of folder `from` into a new folder `to`.
fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

/// A build that resumes from a checkpoint edited with its checksum made
/// right (its count of edges, or one byte of its tallies) never puts a
/// wrong table in place: it checks every state first, and either writes
/// the right table or fails, naming the check, and drops the working
/// folder, so that the next build starts afresh and writes the right one.
#[test]
fn a_checkpoint_edited_with_its_checksum_never_makes_a_wrong_table() {
    let killed = tempfile::tempdir().unwrap();
    killed_3x5_build(killed.path(), killed.path());
    let saved = killed.path().join("3x5.sgtb.work");
    let right = std::fs::read(shipped_table("3x5.sgtb")).unwrap();
    // The count of edges changed, or the k-th of five bytes spread over
    // the tallies (a byte a state).
    let edit = |bytes: &mut [u8], what: &str| {
        if let Some(change) = what.strip_prefix("edges ") {
            let edges = u64::from_le_bytes(bytes[24..32].try_into().unwrap());
            let edges = edges.wrapping_add_signed(change.parse().unwrap());
            bytes[24..32].copy_from_slice(&edges.to_le_bytes());
        } else {
            let k: usize = what.strip_prefix("tally byte ").unwrap().parse().unwrap();
            let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
            let start = 120 + 16 * (u32_at(60) + u32_at(64)) as usize;
            let at = start + (bytes.len() - start) * k / 6;
            bytes[at] ^= 0x03;
        }
    };
    let edits = [
        "edges 1",
        "edges -1000",
        "tally byte 1",
        "tally byte 2",
        "tally byte 3",
        "tally byte 4",
        "tally byte 5",
    ];
    let mut caught = 0;
    for what in edits {
        let folder = tempfile::tempdir().unwrap();
        let work = folder.path().join("3x5.sgtb.work");
        copy_folder(&saved, &work);
        edit_checkpoint(&work.join("checkpoint"), |bytes| edit(bytes, what));
        let output = Smallgo::new(&["build", "3x5", "--tables"])
            .arg(folder.path())
            .log("info")
            .run();
        let message = &output.stderr;
        assert!(message.contains("resuming at margin"), "{what}: {message}");
        assert!(
            message.contains("so every state of the table is checked"),
            "{what}: {message}"
        );
        let table = folder.path().join("3x5.sgtb");
        if output.status.success() {
            assert!(
                std::fs::read(&table).unwrap() == right,
                "{what}: a wrong table, with exit 0"
            );
            continue;
        }
        caught += 1;
        println!("{what}: caught by the check before the rename");
        assert_eq!(output.status.code(), Some(1), "{what}: {message}");
        assert!(
            message.contains("failed its check") && message.contains("starts afresh"),
            "{what}: {message}"
        );
        assert!(!table.exists(), "{what}");
        assert!(!work.exists(), "{what}: the working folder stays");
        let again = smallgo(&["build", "3x5", "--tables", folder.path().to_str().unwrap()]);
        assert!(again.status.success(), "{what}: {}", again.stderr);
        assert!(std::fs::read(&table).unwrap() == right, "{what}: rebuilt");
    }
    // The edges were wrong in the table's header.
    assert!(caught >= 2, "{caught} caught");
}

/// A program that runs the command it is given under `ulimit -v KIB`: a
/// script that `sh` reads, not one executed itself, since executing a file
/// just written fails with "text file busy" while another test's child,
/// forked meanwhile, still holds it open for writing.
fn under_memory_limit(scratch: &Path, kib: u64) -> String {
    let wrapper = scratch.join(format!("limited-{kib}"));
    std::fs::write(
        &wrapper,
        format!("#!/bin/sh\nulimit -v {kib}\nexec \"$@\"\n"),
    )
    .unwrap();
    format!("/bin/sh {}", wrapper.display())
}

/// Under an address-space limit too small for the board, build and verify
/// refuse before they start, naming the memory the plan says they need,
/// where they panicked in rayon or aborted on a failed allocation; under a
/// limit large enough, the build goes on.
#[test]
fn a_memory_limit_too_small_is_refused_with_the_memory_needed() {
    let scratch = tempfile::tempdir().unwrap();
    for kib in [50 << 10, 200 << 10, 250 << 10] {
        let folder = tempfile::tempdir().unwrap();
        let build = Smallgo::new(&["build", "3x5", "--tables"])
            .arg(folder.path())
            .under(&under_memory_limit(scratch.path(), kib))
            .run();
        let message = &build.stderr;
        assert_eq!(build.status.code(), Some(1), "{kib} KiB: {message}");
        assert!(
            message.contains("board 3x5 is too large for this machine")
                && message.contains("needing about")
                && message.contains("left under this process's limits (ulimit -v"),
            "{kib} KiB: {message}"
        );
        assert!(files_in(folder.path()).is_empty(), "{kib} KiB");

        let verify = Smallgo::new(&["verify"])
            .arg(shipped_table("3x5.sgtb"))
            .under(&under_memory_limit(scratch.path(), kib))
            .run();
        let message = &verify.stderr;
        assert_eq!(verify.status.code(), Some(1), "{kib} KiB: {message}");
        assert!(
            message.contains("verifying 3x5 needs about")
                && message.contains("left under this process's limits (ulimit -v"),
            "{kib} KiB: {message}"
        );
    }
    let folder = tempfile::tempdir().unwrap();
    let build = Smallgo::new(&["build", "3x5", "--tables"])
        .arg(folder.path())
        .under(&under_memory_limit(scratch.path(), 1 << 20))
        .run();
    assert!(build.status.success(), "{}", build.stderr);
}
