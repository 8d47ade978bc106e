//! The manifest of a table folder (`manifest.tsv`): one line per board with
//! its states, result at komi 0, best first moves, file size, checksum and
//! build time. `--build` adds or replaces its board's line, atomically.
//!
//! Builds of several boards into one folder update it in turn: each reads
//! it, changes its line and writes it whole under a lock on the folder
//! itself (`flock(2)` on the folder's descriptor, which the system drops
//! when the process ends), so that no build's line is lost to another's
//! write. A manifest that is not a regular file (a FIFO, which would block
//! the read) is never read nor replaced: the update fails, naming it.

use std::fs::File;
use std::io::Read;
use std::os::fd::AsRawFd;
use std::path::Path;

use crate::rules::board::Board;
use crate::table::writer::write_atomically;
use crate::table::TableError;

pub const FILE_NAME: &str = "manifest.tsv";
const COLUMNS: &str =
    "board\tstates\troot_result_komi_0\tbest_first_moves\tfile_bytes\tcrc32\tbuild_seconds";

/// One board's line.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub board: Board,
    pub states: u64,
    pub root_result: String,
    pub best_first_moves: Vec<String>,
    pub file_bytes: u64,
    pub checksum: u32,
    pub build_seconds: f64,
}

impl Entry {
    fn line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{:08x}\t{:.2}",
            self.board,
            self.states,
            self.root_result,
            self.best_first_moves.join(" "),
            self.file_bytes,
            self.checksum,
            self.build_seconds
        )
    }

    fn parse(line: &str) -> Option<Entry> {
        let fields: Vec<&str> = line.split('\t').collect();
        let [board, states, result, moves, bytes, checksum, seconds] = fields[..] else {
            return None;
        };
        Some(Entry {
            board: board.parse().ok()?,
            states: states.parse().ok()?,
            root_result: result.to_string(),
            best_first_moves: moves.split_whitespace().map(str::to_string).collect(),
            file_bytes: bytes.parse().ok()?,
            checksum: u32::from_str_radix(checksum, 16).ok()?,
            build_seconds: seconds.parse().ok()?,
        })
    }
}

/// The entries of a folder's manifest; lines that do not parse are skipped.
/// No manifest is an empty one; one that is not a regular file, or cannot
/// be read, is an error naming it.
pub fn read(folder: &Path) -> Result<Vec<Entry>, TableError> {
    let path = folder.join(FILE_NAME);
    if path
        .symlink_metadata()
        .is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
    {
        return Ok(Vec::new());
    }
    // Opened without blocking and looked at before it is read.
    let mut text = String::new();
    crate::table::open_regular(&path)?
        .read_to_string(&mut text)
        .map_err(|error| TableError::io(&path, error))?;
    Ok(text
        .lines()
        .filter(|line| {
            !line.starts_with('#') && !line.starts_with("board\t") && !line.trim().is_empty()
        })
        .filter_map(|line| {
            let entry = Entry::parse(line);
            if entry.is_none() {
                log::warn!("{}: skipping a line that does not parse: {line}", FILE_NAME);
            }
            entry
        })
        .collect())
}

/// The folder locked for updating its manifest: the lock goes with the
/// descriptor, when this is dropped or the process ends.
struct FolderLock {
    _descriptor: File,
}

/// Waits until no other process updates `folder`'s manifest, and locks it.
fn lock_folder(folder: &Path) -> Result<FolderLock, TableError> {
    let opened = File::open(folder).map_err(|error| TableError::io(folder, error))?;
    loop {
        // SAFETY: `flock` only reads the descriptor, which `opened` keeps
        // open for the call.
        if unsafe { libc::flock(opened.as_raw_fd(), libc::LOCK_EX) } == 0 {
            return Ok(FolderLock {
                _descriptor: opened,
            });
        }
        let error = std::io::Error::last_os_error();
        if error.kind() != std::io::ErrorKind::Interrupted {
            return Err(TableError::io(folder, error));
        }
    }
}

/// Adds or replaces `entry`'s board in the folder's manifest, under the
/// folder's lock.
pub fn update(folder: &Path, entry: Entry) -> Result<(), TableError> {
    let _locked = lock_folder(folder)?;
    let mut entries = read(folder)?;
    entries.retain(|e| e.board != entry.board);
    entries.push(entry);
    entries.sort_by_key(|e| e.board);
    let mut text = String::from(
        "# smallgo tables: one line per board, written by `smallgo --build`.\n\
         # root_result_komi_0 and best_first_moves are read from the table; build_seconds is wall time.\n",
    );
    text.push_str(COLUMNS);
    text.push('\n');
    for e in &entries {
        text.push_str(&e.line());
        text.push('\n');
    }
    write_atomically(&folder.join(FILE_NAME), text.as_bytes())
}
