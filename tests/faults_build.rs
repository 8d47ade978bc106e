//! Faults a build meets, through the real binary: a turned board's table
//! that the engine would refuse, a manifest that is no regular file, builds
//! of one board (and of several boards) into one folder at once, a write of
//! the solve that fails, a checkpoint edited with its checksum made right,
//! and a memory limit too small for the board. Each must end with a clear
//! message or a right table, never a wrong table, a lost checkpoint or a
//! hang.

mod support;

use std::path::Path;

use support::command::smallgo;
use support::files::shipped_table;

/// The names in `folder`, sorted.
fn files_in(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

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
