//! Building a board's table: one pipeline for every build, whoever asks
//! for it (`smallgo build`, the processes of an MPI job, `build_table`),
//! in a fixed sequence of stages (`Stage`):
//!
//! 1. **Check**: a board this process holds whole must fit the solver, the
//!    memory (the machine's, `BuildOptions::memory`, or what the process's
//!    limits leave) and the folder's free disk, checked before anything is
//!    made; the folder is made if missing and must take files; the board's
//!    build lock (`solver::checkpoint::BuildLock`, `.RxC.sgtb.lock`) is
//!    taken, or the build refused at once, naming the process that holds
//!    it, and held until the table and its manifest line are written;
//!    what builds now gone left in the folder (their temporaries, their
//!    working folders without a checkpoint) is removed.
//! 2. **Solve**: in a working folder beside the table (`RxC.sgtb.work`),
//!    resuming from its checkpoint if there is one and saving one at most
//!    once per `BuildOptions::checkpoint_interval`. Who solves is the
//!    `Solver`'s: this process alone (`alone::Alone`), or the processes of
//!    an MPI job, each its share (`mpi::Job`).
//! 3. **Write**: the table's bytes to a temporary file, flushed, checked
//!    (a sample of states against their children's values, read from the
//!    file; every state with `BuildOptions::verify` and after a resumed
//!    solve, since a checkpoint edited with its checksum made right passes
//!    its own checks), and only then renamed into place
//!    (`table::writer::write_encoded`). A table that fails is not put in
//!    place, and the working folder is removed: what the solve holds is
//!    wrong.
//! 4. **Record**: the working folder removed, the board's line of the
//!    folder's manifest written (`manifest`).
//!
//! A build stopped on the way (its observer says so: Ctrl-C on the
//! command line) writes no table, removes its temporary files and keeps
//! its working folder if it holds a checkpoint, so that the same build
//! resumes from it; so does a build that fails on the way (a full disk, a
//! folder turned read-only). What a build shows on the way is its
//! observer's (`BuildObserver`): the command line's bars and log lines, or
//! nothing.

pub mod alone;
pub mod manifest;
#[cfg(feature = "mpi")]
pub mod mpi;

use std::cell::Cell;
use std::fs::{self, File};
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::host::{cpu_seconds, peak_memory, reset_peak_memory};
use crate::index::StateCounts;
use crate::rules::board::Board;
use crate::solver::checkpoint::{
    remove_abandoned, work_path, BuildLock, BuildLockError, WorkFolder,
};
use crate::solver::plan::{check_build, estimate, verify_halves, Room};
use crate::solver::{Observer, Phase, SolveError, SolveStats};
use crate::table::verify::{verify_file_with, VerifyObserver, VerifyOptions};
use crate::table::writer::{write_encoded, Written};
use crate::table::{built_in, file_name, Table, TableError};

/// How to build.
#[derive(Clone, Copy, Debug)]
pub struct BuildOptions {
    /// Save a checkpoint at most this often (zero: at every level and layer).
    pub checkpoint_interval: Duration,
    /// Use at most this many bytes of memory.
    pub memory: Option<u64>,
    /// Check every state of the table before it is put in place.
    pub verify: bool,
}

impl Default for BuildOptions {
    /// A checkpoint at most once a minute, the memory there is, a sample
    /// of the states checked.
    fn default() -> BuildOptions {
        BuildOptions {
            checkpoint_interval: Duration::from_secs(60),
            memory: None,
            verify: false,
        }
    }
}

/// The stages of a build, in order (see the module's text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The board fits, the folder takes files, the lock is held.
    Check,
    /// The solve (its phases are the observer's `phase_started`).
    Solve,
    /// The table written to a temporary file, checked, renamed.
    Write,
    /// The working folder removed, the manifest's line written.
    Record,
}

/// Watches a build: its stages, the solve's and the writer's progress and
/// whether to stop (`Observer`), and the verifier's sweeps when every
/// state is checked (`VerifyObserver`).
pub trait BuildObserver: Observer + VerifyObserver {
    /// A stage begins.
    fn stage_started(&self, _stage: Stage) {}
}

/// An observer that shows nothing and never says stop.
#[derive(Debug)]
pub struct Unwatched;

impl Observer for Unwatched {}
impl VerifyObserver for Unwatched {}
impl BuildObserver for Unwatched {}

/// One process's figures of a build (which only the summary of an MPI
/// job's build shows).
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub struct ProcessFigures {
    /// Peak resident memory, if known.
    pub peak_bytes: Option<u64>,
    /// Bytes sent to the other processes.
    pub sent_bytes: u64,
    /// The process's index of the board's states.
    pub index_bytes: u64,
}

/// What a build did, with its figures.
#[derive(Debug)]
pub struct BuildReport {
    pub counts: StateCounts,
    pub stats: SolveStats,
    pub written: Written,
    /// Wall seconds for the solve and the writing, and for the solve
    /// alone.
    pub seconds: f64,
    pub solve_seconds: f64,
    /// User and system CPU seconds of this process.
    pub cpu_seconds: f64,
    /// Resident memory when the solve began, and at its peak.
    pub start_up_bytes: Option<u64>,
    pub peak_bytes: Option<u64>,
    /// This process's index.
    pub index_bytes: u64,
    /// The start position's result at komi 0, and its best first moves.
    pub result: String,
    pub best_first_moves: Vec<String>,
    /// Every process's figures, in rank order (one for a build by one
    /// process).
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    pub processes: Vec<ProcessFigures>,
    /// Whether the manifest's line was written: the table is in place
    /// either way.
    pub manifest: Result<(), TableError>,
}

impl BuildReport {
    /// Peak memory beyond the start-up memory and the index, per state.
    pub fn rest_per_state(&self) -> Option<f64> {
        let (peak, start_up) = (self.peak_bytes?, self.start_up_bytes?);
        Some((peak as f64 - start_up as f64 - self.index_bytes as f64) / self.counts.states as f64)
    }
}

/// Why a build wrote no table.
#[derive(Debug)]
#[non_exhaustive]
pub enum BuildError {
    /// The board does not fit here: the solver's limits, the memory or the
    /// disk, with the figures.
    DoesNotFit(String),
    /// The table folder names something that is not a folder.
    NotAFolder {
        /// The folder.
        folder: PathBuf,
    },
    /// The table folder could not be made.
    FolderNotMade {
        /// The folder.
        folder: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Nothing can be written in the table folder.
    FolderNotWritable {
        /// The folder.
        folder: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Another build of the board is writing its table.
    Locked {
        /// The board, by name (`"4x4"`: [`Board`]'s `Display`, which its
        /// `FromStr` reads back).
        board: String,
        /// The table, from the root.
        table: PathBuf,
        /// The process that holds the build's lock, if it could be read.
        process: Option<u32>,
    },
    /// The build's lock could not be taken.
    Lock {
        /// The table, from the root.
        table: PathBuf,
        /// Why.
        reason: String,
    },
    /// The threads to work on could not be started.
    Threads {
        /// The board, by name (`"4x4"`: [`Board`]'s `Display`, which its
        /// `FromStr` reads back).
        board: String,
        /// Why.
        source: std::io::Error,
    },
    /// The working folder could not be made or used.
    WorkFolder(String),
    /// The solve failed.
    Solve {
        /// The board, by name (`"4x4"`: [`Board`]'s `Display`, which its
        /// `FromStr` reads back).
        board: String,
        /// Why.
        source: SolveError,
        /// The working folder, kept when it holds a checkpoint that the
        /// same build resumes from.
        kept: Option<PathBuf>,
    },
    /// The table could not be written.
    Write {
        /// The board, by name (`"4x4"`: [`Board`]'s `Display`, which its
        /// `FromStr` reads back).
        board: String,
        /// Why.
        source: TableError,
        /// The working folder, kept when it holds a checkpoint that the
        /// same build resumes from.
        kept: Option<PathBuf>,
    },
    /// The written table failed its check: it is not put in place, and the
    /// working folder is removed, so that the next build starts afresh.
    Refused {
        /// The board, by name (`"4x4"`: [`Board`]'s `Display`, which its
        /// `FromStr` reads back).
        board: String,
        /// What the check found.
        source: TableError,
        /// The working folder removed.
        work: PathBuf,
    },
    /// The observer said stop.
    Stopped {
        /// The working folder, kept when it holds a checkpoint that the
        /// same build resumes from.
        kept: Option<PathBuf>,
    },
    /// Another process of the build (an MPI job) failed, and says why.
    OtherProcess,
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::DoesNotFit(message) | BuildError::WorkFolder(message) => {
                write!(f, "{message}")
            }
            BuildError::NotAFolder { folder } => write!(
                f,
                "cannot use {} as the table folder: it is not a folder",
                folder.display()
            ),
            BuildError::FolderNotMade { folder, .. } => {
                write!(f, "cannot create the table folder {}", folder.display())
            }
            BuildError::FolderNotWritable { folder, .. } => {
                write!(f, "cannot write in the table folder {}", folder.display())
            }
            BuildError::Locked {
                board,
                table,
                process,
            } => {
                let who = process.map_or(String::new(), |id| format!(" (process {id})"));
                write!(
                    f,
                    "another build of {board}{who} is writing {}; wait for it to end, or stop it",
                    table.display()
                )
            }
            BuildError::Lock { table, reason } => {
                write!(f, "cannot lock the build of {}: {reason}", table.display())
            }
            BuildError::Threads { board, .. } => {
                write!(f, "{board}: cannot start the threads to work on")
            }
            BuildError::Solve { board, .. } => write!(f, "cannot build {board}"),
            BuildError::Write { board, .. } | BuildError::Refused { board, .. } => {
                write!(f, "cannot write the table of {board}")
            }
            BuildError::Stopped { .. } => write!(f, "the build was stopped; no table written"),
            BuildError::OtherProcess => write!(f, "another process of the build failed"),
        }
    }
}

impl std::error::Error for BuildError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BuildError::FolderNotMade { source, .. }
            | BuildError::FolderNotWritable { source, .. }
            | BuildError::Threads { source, .. } => Some(source),
            BuildError::Solve { source, .. } => Some(source),
            BuildError::Write { source, .. } | BuildError::Refused { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Who solves a build's board, and how the table's bytes reach its file:
/// what differs between a build by this process alone and one by the
/// processes of an MPI job. The pipeline (`build`) does the rest.
pub trait Solver {
    /// Whether this process checks the folder, holds the lock, writes the
    /// table and records it: the one process, or process 0 of a job.
    fn writes(&self) -> bool {
        true
    }
    /// Whether this process holds every state of the board, so that the
    /// board must fit the solver, the memory and the disk here.
    fn whole_board(&self) -> bool {
        true
    }
    /// Whether any process of the build says `flag`; every process
    /// learns the same.
    fn any(&self, flag: bool) -> bool {
        flag
    }
    /// Who builds, for the line that says where the table goes: nothing,
    /// or `, built by K processes`.
    fn builders(&self) -> String {
        String::new()
    }
    /// What a resumed solve resumed from: `a checkpoint`, `checkpoints`.
    fn checkpoints(&self) -> &'static str {
        "a checkpoint"
    }
    /// Made ready to solve `board`, once the checks have passed.
    fn prepare(&self, _board: Board) -> Result<(), BuildError> {
        Ok(())
    }
    /// Runs `work` on the build's threads.
    fn install<R: Send>(&self, work: impl FnOnce() -> R + Send) -> R {
        work()
    }
    /// This process's working folder for the table `table`, and the
    /// folder named when the work is kept and removed when it is let go:
    /// the working folder itself, or the folder of every process's.
    fn open_work(&self, table: &Path, interval: Duration) -> Result<(WorkFolder, PathBuf), String>;
    /// Solves `board` in `work` and hands the solve to `then`, returning
    /// what it returns; the solve's values are let go before this returns.
    fn solve_then<R>(
        &self,
        board: Board,
        work: &WorkFolder,
        observer: &dyn Observer,
        then: impl FnOnce(&dyn Solved) -> R,
    ) -> Result<R, SolveError>;
    /// Every process's figures, for the process that writes (a collective
    /// call: every process makes it).
    fn gather(&self, own: ProcessFigures) -> Vec<ProcessFigures> {
        vec![own]
    }
}

/// A solved board, as the pipeline writes and checks its table.
pub trait Solved {
    /// The board's positions and states.
    fn counts(&self) -> StateCounts;
    /// The solve's figures.
    fn stats(&self) -> SolveStats;
    /// This process's index, in bytes.
    fn index_bytes(&self) -> u64;
    /// Whether the solve resumed from a checkpoint (of any process).
    fn resumed(&self) -> bool;
    /// Whether the writing may stop when the observer says so: not when
    /// other processes wait for the table to be finished.
    fn stoppable(&self) -> bool {
        true
    }
    /// Writes the table's bytes to `out` (the process that writes);
    /// returns their checksum, or `None` if `observer` said stop.
    fn encode(
        &self,
        out: &mut BufWriter<File>,
        observer: &dyn Observer,
    ) -> std::io::Result<Option<u32>>;
    /// Sends this process's part of the table to the process that writes
    /// it (every other process).
    fn send(&self) -> std::io::Result<()> {
        Ok(())
    }
    /// Checks the written table at `path`: its counts, and a sample of
    /// states, the start position and its children against their
    /// children's values. Returns the states checked, or why it fails.
    fn spot_check(&self, path: &Path) -> Result<u64, String>;
    /// The start position's result at komi 0 and its best first moves, of
    /// the table written at `path`.
    fn start_result(&self, path: &Path) -> (String, Vec<String>);
}

/// An observer that never says stop: once the solve is done, the
/// processes of a job finish the table together (one that stopped alone
/// would leave the others waiting).
struct Finishing<'a>(&'a dyn Observer);

impl Observer for Finishing<'_> {
    fn phase_started(&self, phase: Phase, total: u64) {
        self.0.phase_started(phase, total)
    }
    fn advanced(&self, work: u64) {
        self.0.advanced(work)
    }
}

/// `path` from the root, as given otherwise (no links resolved), for
/// messages.
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Makes sure the folder exists and takes new files; if not, says why.
pub fn check_folder(folder: &Path) -> Result<(), BuildError> {
    if folder.exists() && !folder.is_dir() {
        return Err(BuildError::NotAFolder {
            folder: folder.to_path_buf(),
        });
    }
    fs::create_dir_all(folder).map_err(|source| BuildError::FolderNotMade {
        folder: folder.to_path_buf(),
        source,
    })?;
    let probe = crate::common::files::write_test_path(folder);
    fs::write(&probe, b"").map_err(|source| BuildError::FolderNotWritable {
        folder: folder.to_path_buf(),
        source,
    })?;
    let _ = fs::remove_file(&probe);
    Ok(())
}

/// Where the table that serves `board` turned is, when there is one: the
/// turned board's file in `folder`, or its built-in table.
pub enum TurnedTable {
    File(PathBuf),
    BuiltIn,
}

/// The table of `board`'s turned board that would serve it, if `folder`
/// holds one or one is built in: then `board` needs no build. A file
/// serves only if it passes the checks the engine makes before it serves
/// from it (`Table::open_for`: a regular file, its header, its checksum
/// over the whole file, its board); one that fails them is as good as
/// absent, and the build goes on, saying why. A square board and a
/// circular board have none (`Board::turned`).
pub fn turned_table(board: Board, folder: &Path) -> Option<(Board, TurnedTable)> {
    let turned = board.turned()?;
    let path = folder.join(file_name(&turned));
    if path.symlink_metadata().is_ok() {
        match Table::open_for(&path, turned) {
            Ok(_) => return Some((turned, TurnedTable::File(path))),
            Err(error) => log::warn!(
                "{board}: the table of {turned} does not serve {board} turned, as the engine would refuse it: {error}"
            ),
        }
    }
    built_in::tables()
        .any(|(name, _)| name == turned.name())
        .then_some((turned, TurnedTable::BuiltIn))
}

/// Builds `board`'s table into `folder` through the stages of the
/// module's text, solved by `solver`, watched by `observer`. Returns what
/// it did, or `None` on a process that does not write the table.
pub fn build<S: Solver, O: BuildObserver>(
    board: Board,
    folder: &Path,
    options: BuildOptions,
    solver: &S,
    observer: &O,
) -> Result<Option<BuildReport>, BuildError> {
    let table = folder.join(file_name(&board));
    observer.stage_started(Stage::Check);
    // Held until the table and its manifest line are written.
    let _lock = check(board, folder, &table, options, solver)?;
    solver.prepare(board)?;

    observer.stage_started(Stage::Solve);
    let (work, work_named) = solver
        .open_work(&table, options.checkpoint_interval)
        .map_err(BuildError::WorkFolder)?;
    reset_peak_memory();
    let start_up_bytes = peak_memory();
    let cpu_before = cpu_seconds();
    let started = Instant::now();
    let solved = solver.solve_then(board, &work, observer, |solved| {
        let solve_seconds = started.elapsed().as_secs_f64();
        let written = if solver.writes() {
            Some(write(board, folder, options, solver, solved, observer)?)
        } else {
            solved.send().map_err(Ended::NotSent)?;
            None
        };
        let seconds = started.elapsed().as_secs_f64();
        let cpu_seconds = cpu_seconds() - cpu_before;
        let peak_bytes = peak_memory();
        let start = written
            .as_ref()
            .map(|written: &Written| solved.start_result(&written.path));
        Ok(Finished {
            written,
            start,
            counts: solved.counts(),
            stats: solved.stats(),
            index_bytes: solved.index_bytes(),
            solve_seconds,
            seconds,
            cpu_seconds,
            peak_bytes,
        })
    });
    // What is kept of the work when the build fails: all of it if it
    // holds a checkpoint. The files the solve was writing are appended to
    // after the checkpoint's marks, and a resumed solve cuts them back to
    // those marks.
    let keep = |work: WorkFolder| {
        if work.has_checkpoint() {
            Some(work_named.clone())
        } else {
            work.remove();
            None
        }
    };
    let finished = match solved {
        Ok(Ok(finished)) => finished,
        Err(SolveError::Cancelled) | Ok(Err(Ended::Stopped)) => {
            let kept = solver.any(work.has_checkpoint());
            if !kept {
                work.remove();
                let _ = fs::remove_dir(&work_named);
            }
            return Err(BuildError::Stopped {
                kept: kept.then_some(work_named),
            });
        }
        Err(source) => {
            return Err(BuildError::Solve {
                board: board.to_string(),
                source,
                kept: keep(work),
            })
        }
        Ok(Err(Ended::Refused(source))) => {
            // What the solve holds is wrong: nothing of it is kept.
            work.remove();
            let _ = fs::remove_dir_all(&work_named);
            return Err(BuildError::Refused {
                board: board.to_string(),
                source,
                work: work_named,
            });
        }
        Ok(Err(Ended::Failed(source))) => {
            return Err(BuildError::Write {
                board: board.to_string(),
                source,
                kept: keep(work),
            })
        }
        Ok(Err(Ended::NotSent(error))) => {
            return Err(BuildError::Solve {
                board: board.to_string(),
                source: SolveError::Spool(error.to_string()),
                kept: keep(work),
            })
        }
    };

    observer.stage_started(Stage::Record);
    work.remove();
    let processes = solver.gather(ProcessFigures {
        peak_bytes: finished.peak_bytes,
        sent_bytes: 0,
        index_bytes: finished.index_bytes,
    });
    let (Some(written), Some((result, best_first_moves))) = (finished.written, finished.start)
    else {
        return Ok(None);
    };
    let _ = fs::remove_dir(&work_named);
    let entry = manifest::Entry {
        board,
        states: finished.counts.states,
        root_result: result.clone(),
        best_first_moves: best_first_moves.clone(),
        file_bytes: written.bytes,
        checksum: written.checksum,
        build_seconds: finished.seconds,
    };
    let manifest = manifest::update(folder, entry);
    Ok(Some(BuildReport {
        counts: finished.counts,
        stats: finished.stats,
        written,
        seconds: finished.seconds,
        solve_seconds: finished.solve_seconds,
        cpu_seconds: finished.cpu_seconds,
        start_up_bytes,
        peak_bytes: finished.peak_bytes,
        index_bytes: finished.index_bytes,
        result,
        best_first_moves,
        processes,
        manifest,
    }))
}

/// What the solve and the writing gave, before the record.
struct Finished {
    /// The table, on the process that writes it, and its start
    /// position's result and best first moves.
    written: Option<Written>,
    start: Option<(String, Vec<String>)>,
    counts: StateCounts,
    stats: SolveStats,
    index_bytes: u64,
    solve_seconds: f64,
    seconds: f64,
    cpu_seconds: f64,
    peak_bytes: Option<u64>,
}

/// Why the writing ended without a table.
enum Ended {
    /// The observer said stop.
    Stopped,
    /// The table failed its check.
    Refused(TableError),
    /// The table could not be written.
    Failed(TableError),
    /// This process's part could not be sent to the process that writes.
    NotSent(std::io::Error),
}

/// The check stage: the board fits (if this process holds it whole), the
/// folder takes files, the lock is taken (by the process that writes);
/// then the folder is cleared of what builds now gone left. Returns the
/// lock, held by the process that writes.
fn check<S: Solver>(
    board: Board,
    folder: &Path,
    table: &Path,
    options: BuildOptions,
    solver: &S,
) -> Result<Option<BuildLock>, BuildError> {
    // The memory first, so that a board too large for this machine
    // creates no folder; the disk once the folder exists.
    if solver.whole_board() {
        let memory_only = Room {
            disk: None,
            ..Room::for_build(folder, options.memory)
        };
        check_build(&board, folder, memory_only).map_err(BuildError::DoesNotFit)?;
    }
    let usable = match solver.writes() {
        true => check_folder(folder),
        false => Ok(()),
    };
    let failed = solver.any(usable.is_err());
    match usable {
        Err(error) => return Err(error),
        Ok(()) if failed => return Err(BuildError::OtherProcess),
        Ok(()) => {}
    }
    let lock = solver.writes().then(|| BuildLock::take(table)).transpose();
    let failed = solver.any(lock.is_err());
    let lock = match lock {
        Err(error) => return Err(lock_refused(board, table, error)),
        Ok(_) if failed => return Err(BuildError::OtherProcess),
        Ok(lock) => lock,
    };
    if solver.whole_board() {
        check_build(&board, folder, Room::for_build(folder, options.memory))
            .and_then(|()| {
                // A build that resumes from a checkpoint verifies its table.
                let resumes = work_path(table).join("checkpoint").exists();
                if options.verify || resumes {
                    verify_halves(&board, estimate(&board).states as u64, options.memory)
                        .map(|_| ())
                } else {
                    Ok(())
                }
            })
            .map_err(BuildError::DoesNotFit)?;
    }
    if solver.writes() {
        log::info!(
            "{board}: the table goes to {}{}",
            absolute(table).display(),
            solver.builders()
        );
        crate::common::files::remove_stale_temporaries(folder);
        remove_abandoned(folder);
    }
    Ok(lock)
}

/// The refusal of a build of `board` whose lock on `table` is not taken.
fn lock_refused(board: Board, table: &Path, error: BuildLockError) -> BuildError {
    let table = absolute(table);
    match error {
        BuildLockError::Held { process } => BuildError::Locked {
            board: board.to_string(),
            table,
            process,
        },
        BuildLockError::Failed(reason) => BuildError::Lock { table, reason },
    }
}

/// The write stage: the table of `solved` to a temporary file in
/// `folder`, checked, then renamed into place.
fn write<S: Solver, O: BuildObserver>(
    board: Board,
    folder: &Path,
    options: BuildOptions,
    solver: &S,
    solved: &dyn Solved,
    observer: &O,
) -> Result<Written, Ended> {
    // Before the table replaces anything: a spot check of what it holds
    // against the verifier's rule, or all of it when asked and after a
    // resumed solve. A checkpoint passes its checks if it is as it was
    // written, but one edited with its checksum made right passes too, and
    // a single wrong state in it can make a wrong table that a sample
    // would likely miss; the full verifier costs about as much as the
    // build (3x5, 4x4, 3x6), too much for every build.
    let verify_all = options.verify || solved.resumed();
    if verify_all && !options.verify {
        log::info!(
            "{board}: the solve resumed from {}, so every state of the table is checked before it is put in place",
            solver.checkpoints()
        );
    }
    let refused = Cell::new(false);
    let verify_options = VerifyOptions {
        memory: options.memory,
        ..VerifyOptions::default()
    };
    let check = |path: &Path| -> Result<(), String> {
        let refuse = |reason: String| {
            refused.set(true);
            reason
        };
        let started = Instant::now();
        if verify_all {
            let report = solver
                .install(|| verify_file_with(path, verify_options, observer))
                .map_err(|error| refuse(error.to_string()))?;
            log::info!(
                "{board}: every state of the table checked in {:.1} s",
                report.seconds
            );
        }
        let checked = solved.spot_check(path).map_err(refuse)?;
        log::info!(
            "{board}: {checked} states of the table checked against their children in {:.2} s",
            started.elapsed().as_secs_f64()
        );
        Ok(())
    };
    observer.stage_started(Stage::Write);
    let finishing = Finishing(observer);
    let writing: &dyn Observer = match solved.stoppable() {
        true => observer,
        false => &finishing,
    };
    match write_encoded(board, folder, writing, &check, |out| {
        solved.encode(out, writing)
    }) {
        Ok(Some(written)) => Ok(written),
        Ok(None) => Err(Ended::Stopped),
        Err(error) if refused.get() => Err(Ended::Refused(error)),
        Err(error) => Err(Ended::Failed(error)),
    }
}

/// Solves `board` and writes its table into `folder` as `RxC.sgtb`, as
/// `smallgo build` does: through a temporary file, read back and
/// spot-checked against the rules (`smallgo verify` checks every state),
/// then renamed, so that the folder never holds a partial table; the
/// board's line of the folder's `manifest.tsv` is written too. The solve
/// works in `RxC.sgtb.work` beside the table, removed once it is written,
/// and one build of the board runs at a time in a folder (another is
/// refused with [`BuildError::Locked`]). Returns the table's path. For
/// boards that fit in memory (see `smallgo build --help`; 3x5 takes
/// seconds, 4x5 minutes).
pub fn build_table(board: Board, folder: &Path) -> Result<PathBuf, BuildError> {
    let report = build(
        board,
        folder,
        BuildOptions::default(),
        &alone::Alone::new(),
        &Unwatched,
    )?;
    let report = report.ok_or(BuildError::OtherProcess)?;
    if let Err(error) = &report.manifest {
        log::warn!("the table is written, but the manifest is not: {error}");
    }
    Ok(report.written.path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error;

    #[test]
    fn an_error_gives_what_it_wraps_as_its_source_without_repeating_it() {
        let error = BuildError::Solve {
            board: "3x3".to_string(),
            source: SolveError::TooLarge { points: 99 },
            kept: None,
        };
        let source = SolveError::TooLarge { points: 99 }.to_string();
        assert_eq!(error.to_string(), "cannot build 3x3");
        assert_eq!(error.source().map(|s| s.to_string()), Some(source));
        let refused = BuildError::NotAFolder {
            folder: PathBuf::from("x"),
        };
        assert!(refused.source().is_none());
    }

    #[test]
    fn build_table_refuses_a_folder_that_is_a_file_and_a_board_being_built() {
        let scratch = tempfile::tempdir().unwrap();
        let file = scratch.path().join("file");
        fs::write(&file, b"").unwrap();
        let board: Board = "2x2".parse().unwrap();
        let refused = build_table(board, &file).unwrap_err();
        assert!(
            matches!(&refused, BuildError::NotAFolder { folder } if *folder == file),
            "{refused:?}"
        );

        let folder = scratch.path().join("tables");
        fs::create_dir(&folder).unwrap();
        let table = folder.join(file_name(&board));
        let held = BuildLock::take(&table).unwrap();
        match build_table(board, &folder) {
            Err(BuildError::Locked { process, .. }) => {
                assert_eq!(process, Some(std::process::id()))
            }
            other => panic!("{other:?}"),
        }
        assert!(!table.exists());
        drop(held);

        // Let go, the board builds, with its manifest line and no working
        // folder or lock left.
        assert_eq!(build_table(board, &folder).unwrap(), table);
        let lines = manifest::read(&folder).unwrap();
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].board, board);
        let mut left: Vec<String> = fs::read_dir(&folder)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["2x2.sgtb", "manifest.tsv"]);
    }
}
