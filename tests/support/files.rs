//! The files the tests lay out for the binary to meet: the shipped tables
//! in `tablebases/` (`shipped_table`), to copy, damage or compare with, and
//! FIFOs (`make_fifo`), which a reader that does not look first would block
//! on; and what a folder holds after a command (`files_in`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The shipped table file `name`, e.g. `3x4.sgtb`.
pub(crate) fn shipped_table(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tablebases")
        .join(name)
}

/// Makes a FIFO at `path`.
pub(crate) fn make_fifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status();
    assert!(
        made.as_ref().is_ok_and(|status| status.success()),
        "mkfifo {}: {made:?}",
        path.display()
    );
}

/// The names in `folder`, sorted; none if it does not exist.
pub(crate) fn files_in(folder: &Path) -> Vec<String> {
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
