//! Builds that a test stops, races or runs beside, set up one way:
//! `saving_every_level` is a build that saves a checkpoint before every
//! level and logs each save to a file, `wait_for_log` waits until such a
//! log holds a line, and `holding_its_lock` starts a build and returns once
//! it has saved its first checkpoint, so that it holds its board's lock for
//! the rest of its solve (a few seconds for 3x5) while the test starts
//! another build of the same board.

use std::path::Path;
use std::time::{Duration, Instant};

use super::command::{Running, Smallgo};

/// `smallgo build BOARD --checkpoint-interval 0 --tables FOLDER`, logging at
/// level info (each checkpoint saved: `checkpoint before margin N`) to the
/// file `log`.
pub(crate) fn saving_every_level(board: &str, folder: &Path, log: &Path) -> Smallgo {
    Smallgo::new(&["build", board, "--checkpoint-interval", "0", "--tables"])
        .arg(folder)
        .log("info")
        .stderr(std::fs::File::create(log).unwrap())
}

/// Waits until `log` (a file a run writes its log to) holds `text`; false
/// if it does not within 60 s.
pub(crate) fn wait_for_log(log: &Path, text: &str) -> bool {
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        if std::fs::read_to_string(log).is_ok_and(|l| l.contains(text)) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// A build of `board` into `folder` (`saving_every_level`, its log in
/// `log`), started and past its first checkpoint: it holds the lock of
/// `board` in `folder` until it ends.
pub(crate) fn holding_its_lock(board: &str, folder: &Path, log: &Path) -> Running {
    let build = saving_every_level(board, folder, log).start();
    assert!(
        wait_for_log(log, "checkpoint before margin"),
        "no checkpoint of {board} in 60 s"
    );
    build
}
