//! The working folder of a build, `RxC.sgtb.work` beside the table: the
//! solve's spools (seeds and values) and its checkpoint, so that a build
//! killed on the way (even by `kill -9`) goes on from the last saved level
//! or layer when it is run again, and writes the same table.
//!
//! ```text
//! checkpoint (little-endian)
//!    0  magic "SMALLGOW"              8  version (u32)
//!   12  rows, columns (u8 each)       14  topology (u8: 0 plain, 1 circular), 1 zero
//!   16  states (u64)                  24  edges (u64)
//!   32  next level (i32)              36  largest depth (u32)
//!   40  largest layer (u64)           48  flips (u64)
//!   56  partition shift (u32)         60  spools (u32)
//!   64  value partitions (u32)        68  table format version (u32)
//!   72  the program's name and version (32 bytes ASCII, zero padded)
//!  104  next depth (u32: 0 at a level's start)      108  4 zero bytes
//!  112  flips of the next level so far (u64)
//!  120  per spool: length (u64), CRC-32 (u32), 4 zero bytes
//!       per value partition: its last layer's level (i32) and depth (u32,
//!       0 for none), its last state (u64)
//!       the tallies, a byte per state, eight to a word
//!       CRC-32 of every byte before it (u32)
//! ```
//!
//! A checkpoint is trusted only if all of it checks: the checksum of the
//! whole file, the program and format versions, the board and its counts,
//! and each spool's length and checksum (`Spool::reopen`). Anything else
//! is set aside with a message and the build starts afresh. A checkpoint is
//! written to a temporary name, flushed and renamed, after the spools are
//! flushed to disk; at most once per interval, and no sooner than twenty
//! times the last save's duration after it, so that saving costs about 5%
//! of a long build. An interval of zero saves at every boundary. The
//! folder holds a lock while a build uses it, so two builds of one board
//! in one folder cannot mix their files; the system drops the lock when the
//! process ends, however it ends. Before it makes or touches the folder, a
//! build holds its table's build lock (`BuildLock`, `.RxC.sgtb.lock`
//! beside the table), which a second build of the board cannot take, and
//! which the clean-up of abandoned folders respects.

use std::fs::{self, File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Write};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crc32fast::Hasher as Crc;

use crate::common::files::replace_atomically;
use crate::rules::board::{Board, Topology};
use crate::solver::spool::{SpoolFolder, SpoolMark};
use crate::solver::SolveProgress;

const MAGIC: [u8; 8] = *b"SMALLGOW";
const VERSION: u32 = 3;
/// The bytes of a checkpoint before its spools' marks.
pub const HEADER_SIZE: usize = 120;
const PROGRAM: &str = concat!("smallgo ", env!("CARGO_PKG_VERSION"));
const _: () = assert!(PROGRAM.len() <= 32, "the program's name must fit its field");
/// Tally words converted to bytes at a time.
const CHUNK_WORDS: usize = 1 << 17;

/// A save waits at least this many times as long as the last save took, so
/// that checkpoints cost about 5% of a build.
const SAVE_COST_RATIO: u32 = 20;

/// The working folder's name for a table file: the table's name and
/// `.work`.
pub fn work_path(table: &Path) -> PathBuf {
    let mut name = table.as_os_str().to_owned();
    name.push(".work");
    PathBuf::from(name)
}

/// The lock file of the build of `table`: `.RxC.sgtb.lock` beside it.
pub fn build_lock_path(table: &Path) -> PathBuf {
    let folder = table.parent().unwrap_or(Path::new(""));
    let name = table
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    folder.join(format!(".{name}.lock"))
}

/// The table whose build lock `name` is (`.RxC.sgtb.lock`), if it is one.
fn locked_table(name: &str) -> Option<&str> {
    name.strip_prefix('.')?
        .strip_suffix(".lock")
        .filter(|table| table.ends_with(".sgtb"))
}

/// Why the build lock of a table was not taken.
#[derive(Debug)]
pub enum BuildLockError {
    /// Another process holds it: the one named in the lock file, if it
    /// could be read.
    Held { process: Option<u32> },
    /// The lock file could not be made or locked.
    Failed(String),
}

/// The right to build one table in its folder, held from before the build
/// looks at the folder until its table and manifest line are written: a
/// second build of that table (in this process or another, one process or
/// an MPI job) is refused while it is held. It is an exclusive `flock(2)`
/// on the lock file `.RxC.sgtb.lock` beside the table, which the system
/// drops when the process ends, however it ends. The file holds the
/// holder's process id, for the message of a build that is refused. The
/// holder removes the file when it lets go; one left by a process that
/// died is taken over (and removed by `remove_abandoned`).
pub struct BuildLock {
    path: PathBuf,
    file: File,
}

impl BuildLock {
    /// Takes the build lock of `table`, or says who holds it; never waits.
    pub fn take(table: &Path) -> Result<BuildLock, BuildLockError> {
        BuildLock::take_at(build_lock_path(table))
    }

    fn take_at(path: PathBuf) -> Result<BuildLock, BuildLockError> {
        use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
        let failed =
            |error: std::io::Error| BuildLockError::Failed(format!("{}: {error}", path.display()));
        loop {
            // Not through a symbolic link, and without blocking on a FIFO.
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
                .open(&path)
                .map_err(failed)?;
            let opened = file.metadata().map_err(failed)?;
            if !opened.file_type().is_file() {
                return Err(BuildLockError::Failed(format!(
                    "{}: {}, not a regular file",
                    path.display(),
                    crate::common::files::kind_of(opened.file_type())
                )));
            }
            // SAFETY: `flock` only reads the descriptor, which `file` keeps
            // open for the call.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
                let error = std::io::Error::last_os_error();
                if error.kind() != std::io::ErrorKind::WouldBlock {
                    return Err(failed(error));
                }
                let mut text = String::new();
                let _ = file.read_to_string(&mut text);
                return Err(BuildLockError::Held {
                    process: text.trim().parse().ok(),
                });
            }
            // The holder before may have removed the file between the open
            // and the lock: then this lock is on a file no one else sees,
            // and the lock is taken again on the one under the name.
            let same = fs::symlink_metadata(&path)
                .is_ok_and(|now| (now.dev(), now.ino()) == (opened.dev(), opened.ino()));
            if !same {
                continue;
            }
            file.set_len(0).map_err(failed)?;
            (&file)
                .write_all(format!("{}\n", std::process::id()).as_bytes())
                .map_err(failed)?;
            return Ok(BuildLock { path, file });
        }
    }
}

impl Drop for BuildLock {
    fn drop(&mut self) {
        // Removed while still locked, then let go: a build that opened the
        // file before it went sees, once it has the lock, that the name
        // is no longer its file, and tries again.
        let _ = fs::remove_file(&self.path);
        // SAFETY: as in `take_at`.
        unsafe {
            libc::flock(self.file.as_raw_fd(), libc::LOCK_UN);
        }
    }
}

/// Removes what builds now gone left of their working folders in `folder`:
/// in each `*.sgtb.work` whose table no build holds (`BuildLock`) and that
/// no process uses, the temporaries of gone processes, and the whole folder
/// if it holds no checkpoint to resume from; and the lock files of builds
/// that are gone. Logs each; returns the folders removed.
pub fn remove_abandoned(folder: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_str().unwrap_or_default();
        if locked_table(name).is_some() && entry.file_type().is_ok_and(|t| t.is_file()) {
            // Taken and let go: removed, unless a build holds it.
            let _ = BuildLock::take_at(path);
            continue;
        }
        let Some(table) = name.strip_suffix(".work").filter(|t| t.ends_with(".sgtb")) else {
            continue;
        };
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        // A build holds its table's lock before it makes its working
        // folder: one that just made it is left alone.
        let Ok(_build) = BuildLock::take(&folder.join(table)) else {
            continue;
        };
        let Ok(lock) = try_lock(&path) else {
            continue;
        };
        crate::common::files::remove_stale_temporaries(&path);
        if !path.join("checkpoint").exists() {
            drop(lock);
            match fs::remove_dir_all(&path) {
                Ok(()) => {
                    log::warn!(
                        "removed abandoned working folder {} (no build holds it, and it has no checkpoint)",
                        path.display()
                    );
                    removed.push(path);
                }
                Err(error) => log::warn!("cannot remove {}: {error}", path.display()),
            }
        }
    }
    removed
}

/// Takes the lock of the working folder `path`, if no build holds it.
fn try_lock(path: &Path) -> Result<File, String> {
    let lock_path = path.join("lock");
    let lock = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&lock_path)
        .map_err(|e| format!("cannot open {}: {e}", lock_path.display()))?;
    // SAFETY: `flock` only reads the descriptor, which `lock` keeps open
    // for the call.
    if unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        return Err(format!(
            "another build is using {}; wait for it to end",
            path.display()
        ));
    }
    Ok(lock)
}

/// Where one value partition's spool stands: the layer it last recorded
/// states of, and the last of those states.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartitionMark {
    pub layer: Option<(i32, u32)>,
    pub last: u64,
}

/// A solve between levels or layers, as a checkpoint holds it.
pub struct Saved {
    pub progress: SolveProgress,
    pub shift: u32,
    /// The seeds' spools, then the values'.
    pub spools: Vec<SpoolMark>,
    pub partitions: Vec<PartitionMark>,
    pub tallies: Vec<AtomicU64>,
}

/// A build's working folder, locked for this process.
pub struct WorkFolder {
    path: PathBuf,
    /// Held open: the lock lasts as long as the file.
    _lock: File,
    interval: Duration,
    /// When the last save ended, and how long it took.
    last_saved: Mutex<(Instant, Duration)>,
    /// Whether the solve took up a saved checkpoint.
    resumed: AtomicBool,
}

impl WorkFolder {
    /// The working folder beside `table`, made if need be, and locked;
    /// checkpoints saved at most once per `interval`.
    pub fn open(table: &Path, interval: Duration) -> Result<WorkFolder, String> {
        WorkFolder::open_at(work_path(table), interval)
    }

    /// The working folder `path` itself, made if need be, and locked: one
    /// process's folder in an MPI build.
    pub fn open_at(path: PathBuf, interval: Duration) -> Result<WorkFolder, String> {
        fs::create_dir_all(&path)
            .map_err(|e| format!("cannot make working folder {}: {e}", path.display()))?;
        let lock = try_lock(&path)?;
        // Temporaries of a build that is gone.
        crate::common::files::remove_stale_temporaries(&path);
        Ok(WorkFolder {
            path,
            _lock: lock,
            interval,
            last_saved: Mutex::new((Instant::now(), Duration::ZERO)),
            resumed: AtomicBool::new(false),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn checkpoint_path(&self) -> PathBuf {
        self.path.join("checkpoint")
    }

    /// Whether a checkpoint is saved.
    pub fn has_checkpoint(&self) -> bool {
        self.checkpoint_path().exists()
    }

    /// Whether the solve went on from a saved checkpoint (`load`,
    /// `load_level`). The checkpoint's checksum shows that it is as it was
    /// written, not that what it holds is right: a file edited with its
    /// checksum made right passes, so a resumed build's table is checked in
    /// full before it is put in place.
    pub fn resumed(&self) -> bool {
        self.resumed.load(Ordering::Relaxed)
    }

    /// The folder for the solve's spools.
    pub fn spools(&self) -> SpoolFolder {
        SpoolFolder::within(&self.path)
    }

    /// Removes the folder and everything in it (the table is written, or
    /// the build stopped before any checkpoint).
    pub fn remove(self) {
        let _ = fs::remove_dir_all(&self.path);
    }

    /// The saved solve of `board` with `states` states, if there is one and
    /// all of it checks; otherwise the folder is emptied, with a warning
    /// that says why, and the build starts afresh.
    pub fn load(&self, board: Board, states: u64) -> Option<Saved> {
        let path = self.checkpoint_path();
        if !path.exists() {
            self.clear();
            return None;
        }
        // A FIFO or a device would block or never end: not read.
        if let Some(reason) = crate::common::files::not_regular(&path) {
            log::warn!(
                "{board}: ignoring checkpoint {}: {reason}; starting afresh",
                path.display()
            );
            self.clear();
            return None;
        }
        match read(&path, board, states) {
            Ok(saved) => {
                self.resumed.store(true, Ordering::Relaxed);
                log::info!(
                    "{board}: resuming at {} from {}",
                    resume_place(&saved.progress),
                    path.display()
                );
                Some(saved)
            }
            Err(reason) => {
                log::warn!(
                    "{board}: ignoring checkpoint {}: {reason}; starting afresh",
                    path.display()
                );
                self.clear();
                None
            }
        }
    }

    /// Empties the folder but for its lock and its claim: what it holds
    /// cannot be resumed from, and the solve starts afresh.
    pub fn clear(&self) {
        self.resumed.store(false, Ordering::Relaxed);
        if let Ok(entries) = fs::read_dir(&self.path) {
            for entry in entries.flatten() {
                if entry.file_name() != "lock" && entry.file_name() != "claim" {
                    let _ = fs::remove_file(entry.path());
                }
            }
        }
    }

    /// Says what the folder's work is for (an MPI process's share of the
    /// states): if the folder was for anything else, it is emptied first,
    /// so that no checkpoint of another share is resumed from.
    #[cfg(any(test, feature = "mpi"))]
    pub fn claim(&self, what: &str) -> std::io::Result<()> {
        let path = self.path.join("claim");
        if fs::read_to_string(&path).ok().as_deref() != Some(what) {
            self.clear();
            fs::write(&path, what)?;
        }
        Ok(())
    }

    /// The solve reached a boundary (a level's, or a layer's): saves it if one is due.
    /// `mark_spools` flushes the spools to disk and gives where they stand.
    pub fn offer(
        &self,
        board: Board,
        states: u64,
        progress: SolveProgress,
        shift: u32,
        mark_spools: impl FnOnce() -> std::io::Result<(Vec<SpoolMark>, Vec<PartitionMark>)>,
        tallies: &[AtomicU64],
    ) {
        if self.due() {
            self.save(board, states, progress, shift, mark_spools, tallies);
        }
    }

    /// Whether a save is due: at most once per interval, and no sooner than
    /// `SAVE_COST_RATIO` times the last save's duration after it.
    pub fn due(&self) -> bool {
        let (ended, took) = *self.last_saved.lock().unwrap_or_else(|e| e.into_inner());
        let wait = if self.interval.is_zero() {
            Duration::ZERO
        } else {
            self.interval.max(took * SAVE_COST_RATIO)
        };
        ended.elapsed() >= wait
    }

    /// Saves the solve at a boundary now; whether it was saved.
    pub fn save(
        &self,
        board: Board,
        states: u64,
        progress: SolveProgress,
        shift: u32,
        mark_spools: impl FnOnce() -> std::io::Result<(Vec<SpoolMark>, Vec<PartitionMark>)>,
        tallies: &[AtomicU64],
    ) -> bool {
        let mut last_saved = self.last_saved.lock().unwrap_or_else(|e| e.into_inner());
        let started = Instant::now();
        let saved = mark_spools().and_then(|(spools, partitions)| {
            write(
                &self.checkpoint_path(),
                (board, states),
                progress,
                shift,
                &spools,
                &partitions,
                tallies,
            )
        });
        *last_saved = (Instant::now(), started.elapsed());
        match saved {
            Ok(()) => {
                log::info!(
                    "{board}: checkpoint {} saved in {:.1} s",
                    place(&progress),
                    started.elapsed().as_secs_f64()
                );
                true
            }
            Err(error) => {
                log::warn!(
                    "{board}: cannot save a checkpoint in {}: {error}",
                    self.path.display()
                );
                false
            }
        }
    }

    /// The checkpoint before the last, kept while the processes of an MPI
    /// build save the next one, until every one of them has.
    fn previous_path(&self) -> PathBuf {
        self.path.join("checkpoint.previous")
    }

    /// Sets the checkpoint aside as the previous one, before a new one is
    /// saved.
    pub fn keep_previous(&self) -> std::io::Result<()> {
        match fs::rename(self.checkpoint_path(), self.previous_path()) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(error),
            _ => Ok(()),
        }
    }

    /// Removes the previous checkpoint: every process has saved the new one.
    pub fn drop_previous(&self) {
        let _ = fs::remove_file(self.previous_path());
    }

    /// The levels the checkpoint and the previous one would resume at, as
    /// their headers say (checked in full only by `load_level`).
    pub fn saved_levels(&self) -> Vec<i32> {
        [self.checkpoint_path(), self.previous_path()]
            .iter()
            .filter_map(|path| header_level(path))
            .collect()
    }

    /// The saved solve that resumes at `level`, the checkpoint or the
    /// previous one, if all of it checks; it becomes the checkpoint, and
    /// the other one is removed.
    pub fn load_level(&self, board: Board, states: u64, level: i32) -> Result<Saved, String> {
        let (current, previous) = (self.checkpoint_path(), self.previous_path());
        if header_level(&current) != Some(level) {
            if header_level(&previous) != Some(level) {
                return Err(format!("no checkpoint resumes at margin {level:+}"));
            }
            fs::rename(&previous, &current).map_err(|e| e.to_string())?;
        }
        self.drop_previous();
        let saved = read(&current, board, states)?;
        self.resumed.store(true, Ordering::Relaxed);
        log::info!(
            "{board}: resuming at {} from {}",
            resume_place(&saved.progress),
            current.display()
        );
        Ok(saved)
    }
}

/// Where a checkpoint stands, for the log: `before margin +3`, or `in
/// margin +3, before layer 12,`.
fn place(progress: &SolveProgress) -> String {
    match progress.next_depth {
        0 => format!("before margin {:+}", progress.next_level),
        depth => format!("in margin {:+}, before layer {depth},", progress.next_level),
    }
}

/// Where a resumed solve goes on, for the log: `margin +3`, or `margin +3,
/// layer 12,`.
fn resume_place(progress: &SolveProgress) -> String {
    match progress.next_depth {
        0 => format!("margin {:+}", progress.next_level),
        depth => format!("margin {:+}, layer {depth},", progress.next_level),
    }
}

/// The level a checkpoint resumes at, read from its header alone.
fn header_level(path: &Path) -> Option<i32> {
    if crate::common::files::not_regular(path).is_some() {
        return None;
    }
    let mut header = [0u8; HEADER_SIZE];
    File::open(path).ok()?.read_exact(&mut header).ok()?;
    (header[0..8] == MAGIC).then(|| i32::from_le_bytes(header[32..36].try_into().unwrap_or([0; 4])))
}

fn put_u32(out: &mut Vec<u8>, value: u32) {
    out.extend_from_slice(&value.to_le_bytes());
}

/// The topology byte of a board: 0 plain (as checkpoints from before
/// circular boards have it), 1 circular, 2 a shape (whose work folder is
/// named by its diagram's hash, as its table).
fn topology_code(topology: Topology) -> u8 {
    match topology {
        Topology::Plain => 0,
        Topology::Circular => 1,
        Topology::Shape => 2,
    }
}

fn put_u64(out: &mut Vec<u8>, value: u64) {
    out.extend_from_slice(&value.to_le_bytes());
}

/// The checkpoint's bytes before the tallies.
fn header_bytes(
    (board, states): (Board, u64),
    progress: SolveProgress,
    shift: u32,
    spools: &[SpoolMark],
    partitions: &[PartitionMark],
) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_SIZE + 16 * spools.len() + 16 * partitions.len());
    out.extend_from_slice(&MAGIC);
    put_u32(&mut out, VERSION);
    out.extend_from_slice(&[
        board.rows() as u8,
        board.columns() as u8,
        topology_code(board.topology()),
        0,
    ]);
    put_u64(&mut out, states);
    put_u64(&mut out, progress.edges);
    put_u32(&mut out, progress.next_level as u32);
    put_u32(&mut out, progress.largest_depth);
    put_u64(&mut out, progress.largest_layer);
    put_u64(&mut out, progress.flips);
    put_u32(&mut out, shift);
    put_u32(&mut out, spools.len() as u32);
    put_u32(&mut out, partitions.len() as u32);
    put_u32(&mut out, board.topology().format_version());
    let mut program = [0u8; 32];
    program[..PROGRAM.len()].copy_from_slice(PROGRAM.as_bytes());
    out.extend_from_slice(&program);
    put_u32(&mut out, progress.next_depth);
    put_u32(&mut out, 0);
    put_u64(&mut out, progress.level_flips);
    debug_assert_eq!(out.len(), HEADER_SIZE);
    for spool in spools {
        put_u64(&mut out, spool.len);
        put_u32(&mut out, spool.crc);
        put_u32(&mut out, 0);
    }
    for partition in partitions {
        let (level, depth) = partition.layer.unwrap_or((0, 0));
        put_u32(&mut out, level as u32);
        put_u32(&mut out, depth);
        put_u64(&mut out, partition.last);
    }
    out
}

fn write(
    path: &Path,
    board: (Board, u64),
    progress: SolveProgress,
    shift: u32,
    spools: &[SpoolMark],
    partitions: &[PartitionMark],
    tallies: &[AtomicU64],
) -> std::io::Result<()> {
    let fill = |out: &mut BufWriter<File>| {
        let mut crc = Crc::new();
        let header = header_bytes(board, progress, shift, spools, partitions);
        crc.update(&header);
        out.write_all(&header)?;
        let mut buffer = Vec::with_capacity(8 * CHUNK_WORDS);
        for chunk in tallies.chunks(CHUNK_WORDS) {
            buffer.clear();
            for word in chunk {
                buffer.extend_from_slice(
                    &word
                        .load(std::sync::atomic::Ordering::Relaxed)
                        .to_le_bytes(),
                );
            }
            crc.update(&buffer);
            out.write_all(&buffer)?;
        }
        out.write_all(&crc.finalize().to_le_bytes())?;
        Ok(Some(()))
    };
    replace_atomically(path, fill, &|| false).map(|_| ())
}

/// Reads and checks a checkpoint of `board` with `states` states.
fn read(path: &Path, board: Board, states: u64) -> Result<Saved, String> {
    let file = File::open(path).map_err(|e| e.to_string())?;
    let length = file.metadata().map_err(|e| e.to_string())?.len();
    let mut input = BufReader::with_capacity(1 << 20, file);
    let mut crc = Crc::new();
    let mut take = |n: usize| -> Result<Vec<u8>, String> {
        let mut bytes = vec![0u8; n];
        input
            .read_exact(&mut bytes)
            .map_err(|_| "it is cut short".to_string())?;
        crc.update(&bytes);
        Ok(bytes)
    };
    let header = take(HEADER_SIZE)?;
    let u32_at = |at: usize| u32::from_le_bytes(header[at..at + 4].try_into().expect("4 bytes"));
    let u64_at = |at: usize| u64::from_le_bytes(header[at..at + 8].try_into().expect("8 bytes"));
    if header[0..8] != MAGIC {
        return Err("not a smallgo checkpoint".into());
    }
    if u32_at(8) != VERSION {
        return Err(format!("checkpoint version {} is not {VERSION}", u32_at(8)));
    }
    let program = String::from_utf8_lossy(&header[72..104])
        .trim_end_matches('\0')
        .to_string();
    if program != PROGRAM {
        return Err(format!("it was saved by {program}, not {PROGRAM}"));
    }
    if (header[12] as usize, header[13] as usize, header[14])
        != (
            board.rows(),
            board.columns(),
            topology_code(board.topology()),
        )
    {
        let topology = match header[14] {
            0 => "",
            1 => "c",
            _ => " of an unknown topology",
        };
        return Err(format!(
            "it is for board {}x{}{topology}",
            header[12], header[13]
        ));
    }
    if u32_at(68) != board.topology().format_version() {
        return Err(format!("it is for table format {}", u32_at(68)));
    }
    if u64_at(16) != states {
        return Err(format!("it has {} states, the board {states}", u64_at(16)));
    }
    let spool_count = u32_at(60) as u64;
    let partition_count = u32_at(64) as u64;
    let words = states.div_ceil(8);
    let expected = HEADER_SIZE as u64 + 16 * spool_count + 16 * partition_count + 8 * words + 4;
    if length != expected {
        return Err(format!("{length} bytes where {expected} are needed"));
    }
    let progress = SolveProgress {
        edges: u64_at(24),
        next_level: u32_at(32) as i32,
        next_depth: u32_at(104),
        level_flips: u64_at(112),
        largest_depth: u32_at(36),
        largest_layer: u64_at(40),
        flips: u64_at(48),
    };
    let points = board.points() as i32;
    if progress.next_level < -points - 1 || progress.next_level > points {
        return Err(format!(
            "next level {} is not on this board",
            progress.next_level
        ));
    }
    if progress.next_depth > 0
        && (progress.next_level < -points
            || progress.next_depth > crate::solver::cell::MAX_MOVER_DEPTH
            || progress.level_flips > progress.flips)
    {
        return Err(format!(
            "layer {} of level {} is not one this solve can be in",
            progress.next_depth, progress.next_level
        ));
    }
    if progress.next_depth == 0 && progress.level_flips != 0 || u32_at(108) != 0 {
        return Err("its header has bytes that should be zero".into());
    }
    let shift = u32_at(56);
    if !(crate::solver::MIN_PARTITION_SHIFT..64).contains(&shift) {
        return Err(format!(
            "partitions of 2^{shift} states are not this solver's"
        ));
    }
    let marks = take(16 * spool_count as usize)?;
    let spools = marks
        .chunks_exact(16)
        .map(|m| SpoolMark {
            len: u64::from_le_bytes(m[0..8].try_into().expect("8 bytes")),
            crc: u32::from_le_bytes(m[8..12].try_into().expect("4 bytes")),
        })
        .collect();
    let marks = take(16 * partition_count as usize)?;
    let partitions = marks
        .chunks_exact(16)
        .map(|m| {
            let level = i32::from_le_bytes(m[0..4].try_into().expect("4 bytes"));
            let depth = u32::from_le_bytes(m[4..8].try_into().expect("4 bytes"));
            PartitionMark {
                layer: (depth != 0).then_some((level, depth)),
                last: u64::from_le_bytes(m[8..16].try_into().expect("8 bytes")),
            }
        })
        .collect();
    let mut tallies = Vec::with_capacity(words as usize);
    crate::common::huge_pages::advise(tallies.spare_capacity_mut());
    let mut left = words as usize;
    while left > 0 {
        let n = left.min(CHUNK_WORDS);
        let bytes = take(8 * n)?;
        tallies.extend(
            bytes
                .chunks_exact(8)
                .map(|c| AtomicU64::new(u64::from_le_bytes(c.try_into().expect("8 bytes")))),
        );
        left -= n;
    }
    let computed = crc.finalize();
    let mut stored = [0u8; 4];
    input
        .read_exact(&mut stored)
        .map_err(|_| "it is cut short".to_string())?;
    if computed != u32::from_le_bytes(stored) {
        return Err("checksum mismatch".into());
    }
    Ok(Saved {
        progress,
        shift,
        spools,
        partitions,
        tallies,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A checkpoint names its board's topology: one saved for 2x4 is
    /// refused for 2x4c even with the same count of states, and read back
    /// for 2x4.
    #[test]
    fn a_checkpoint_is_for_one_topology() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("checkpoint");
        let progress = SolveProgress {
            next_level: 3,
            next_depth: 4,
            level_flips: 5,
            edges: 100,
            largest_depth: 7,
            largest_layer: 9,
            flips: 11,
        };
        let tallies: Vec<AtomicU64> = (0..100u64.div_ceil(8)).map(AtomicU64::new).collect();
        for (saved, other) in [("2x4", "2x4c"), ("2x4c", "2x4")] {
            let (saved, other): (Board, Board) = (saved.parse().unwrap(), other.parse().unwrap());
            let shift = crate::solver::MIN_PARTITION_SHIFT;
            write(&path, (saved, 100), progress, shift, &[], &[], &tallies).unwrap();
            let refused = read(&path, other, 100).err().expect("another topology");
            assert_eq!(refused, format!("it is for board {saved}"));
            let again = read(&path, saved, 100).unwrap();
            assert_eq!(again.progress, progress);
        }
    }

    /// A table's build lock is held by one taker at a time (two opens in one
    /// process exclude each other as two processes do), names its holder,
    /// goes with its file when let go, and is taken over from a holder
    /// that is gone; `remove_abandoned` removes the file such a holder left.
    #[test]
    fn a_build_lock_has_one_holder() {
        let folder = tempfile::tempdir().unwrap();
        let table = folder.path().join("3x4.sgtb");
        let path = build_lock_path(&table);
        assert_eq!(path, folder.path().join(".3x4.sgtb.lock"));
        let held = BuildLock::take(&table).unwrap();
        match BuildLock::take(&table) {
            Err(BuildLockError::Held { process }) => {
                assert_eq!(process, Some(std::process::id()))
            }
            _ => panic!("taken twice"),
        }
        drop(held);
        assert!(!path.exists());
        // Left by a process that is gone: no lock on it.
        fs::write(&path, "4000000\n").unwrap();
        let taken = BuildLock::take(&table).unwrap();
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            format!("{}\n", std::process::id())
        );
        drop(taken);
        fs::write(&path, "4000000\n").unwrap();
        remove_abandoned(folder.path());
        assert!(!path.exists());
    }

    /// An MPI process keeps its last checkpoint aside while it saves the
    /// next: either can be resumed from, and the one chosen becomes the
    /// checkpoint, the other removed. A folder claimed for another share
    /// is emptied.
    #[test]
    fn the_previous_checkpoint_can_be_resumed_from() {
        let root = tempfile::tempdir().unwrap();
        let board: Board = "2x4".parse().unwrap();
        let tallies: Vec<AtomicU64> = (0..100u64.div_ceil(8)).map(AtomicU64::new).collect();
        let shift = crate::solver::MIN_PARTITION_SHIFT;
        let work = WorkFolder::open_at(root.path().join("rank-0"), Duration::ZERO).unwrap();
        work.claim("process 0 of 2").unwrap();
        let save = |level: i32| {
            let progress = SolveProgress {
                next_level: level,
                ..SolveProgress::default()
            };
            work.keep_previous().unwrap();
            assert!(work.save(
                board,
                100,
                progress,
                shift,
                || Ok((vec![], vec![])),
                &tallies
            ));
        };
        save(5);
        save(4);
        assert_eq!(work.saved_levels(), [4, 5]);
        let resumed = work.load_level(board, 100, 5).unwrap();
        assert_eq!(resumed.progress.next_level, 5);
        assert_eq!(work.saved_levels(), [5]);
        assert!(work.load_level(board, 100, 4).is_err());

        // The same claim keeps the checkpoint; another empties the folder.
        work.claim("process 0 of 2").unwrap();
        assert_eq!(work.saved_levels(), [5]);
        work.claim("process 0 of 3").unwrap();
        assert!(work.saved_levels().is_empty());
    }
}
