//! `smallgo build RxC [--tables DIR]` (or `smallgo --build RxC`): solve one
//! board, write its table atomically, record it in the folder's manifest,
//! and print a summary.
//!
//! A board whose turned board's table is in the folder or built in is not
//! built: that table serves it (the engine turns the states), and the
//! command says so. Otherwise the build first says where its table goes,
//! and checks everything that can be checked before a long solve: the board
//! fits the solver and the machine's memory, and the folder can be written.
//! Temporary files that builds now gone left in the folder are removed
//! first, and so are their working folders that hold no checkpoint.
//!
//! One board is built by one build at a time in a folder: a build holds
//! the board's lock (`checkpoint::BuildLock`, `.RxC.sgtb.lock`) from before
//! it looks at the folder until its table and manifest line are written,
//! and a second build of the board (one process or an MPI job) is refused
//! at once, naming the process that holds it. Builds of different boards
//! into one folder run side by side, and update the manifest in turn.
//!
//! Ctrl-C or SIGTERM (or SIGHUP) stops a build cleanly: no table is written,
//! this build's temporary files are removed, and its working folder
//! `RxC.sgtb.work` stays if it holds a checkpoint, so that the same
//! build resumes from it. A second signal exits at once, removing the
//! temporary files first. A build that fails on the way (a full disk, a
//! folder that turned read-only) keeps its working folder the same way if
//! it holds a checkpoint, and says so.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use super::progress::{catch_interrupts, BuildProgress};
use super::{EXIT_FAILURE, EXIT_INTERRUPTED};
use crate::build::manifest;
use crate::host::{cpu_seconds, peak_memory, reset_peak_memory};
use crate::index::StateCounts;
use crate::rules::board::Board;
use crate::rules::state::State;
use crate::solver::checkpoint::{BuildLock, BuildLockError, WorkFolder};
use crate::solver::plan::{check_build, Room};
use crate::solver::{solve_in, SolveError, SolveStats, Workspace};
use crate::table::values::rating::{best_moves, root_result};
use crate::table::verify::{spot_check, spot_sample, verify_file_with, VerifyOptions};
use crate::table::writer::{self, Written};
use crate::table::{built_in, file_name, Table};
use crate::units::human_bytes;

/// Makes sure the folder exists and takes new files; if not, says why,
/// naming the folder and giving the system's error.
pub fn check_folder(folder: &Path) -> Result<(), String> {
    if folder.exists() && !folder.is_dir() {
        return Err(format!(
            "cannot use {} as the table folder: it is not a folder",
            folder.display()
        ));
    }
    fs::create_dir_all(folder)
        .map_err(|e| format!("cannot create the table folder {}: {e}", folder.display()))?;
    let probe = crate::files::write_test_path(folder);
    fs::write(&probe, b"")
        .map_err(|e| format!("cannot write in the table folder {}: {e}", folder.display()))?;
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
/// holds one or one is built in. A file serves only if it passes the checks
/// the engine makes before it serves from it (`Table::open_for`: a regular
/// file, its header, its checksum over the whole file, its board); one that
/// fails them is as good as absent, and the build goes on, saying why. A
/// square board and a circular board have none (`Board::turned`).
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

/// What a build did, with its figures.
pub struct BuildReport {
    pub counts: StateCounts,
    pub stats: SolveStats,
    pub written: Written,
    /// Wall seconds for the whole build, and for the solve alone.
    pub seconds: f64,
    pub solve_seconds: f64,
    /// User and system CPU seconds.
    pub cpu_seconds: f64,
    /// Resident memory when the build began, and at its peak.
    pub start_up_bytes: Option<u64>,
    pub peak_bytes: Option<u64>,
    pub index_bytes: usize,
    pub result: String,
    pub best_first_moves: Vec<String>,
}

impl BuildReport {
    /// Peak memory beyond the start-up memory and the index, per state.
    pub fn rest_per_state(&self) -> Option<f64> {
        let (peak, start_up) = (self.peak_bytes?, self.start_up_bytes?);
        Some((peak as f64 - start_up as f64 - self.index_bytes as f64) / self.counts.states as f64)
    }
}

/// How to build.
#[derive(Clone, Copy, Debug)]
pub struct BuildOptions {
    /// Save a checkpoint at most this often (zero: before every level).
    pub checkpoint_interval: Duration,
    /// Use at most this many bytes of memory.
    pub memory: Option<u64>,
    /// Run the full verifier on the table before it is renamed into place.
    pub verify: bool,
}

/// Why a build did not finish.
pub enum BuildFailure {
    /// Stopped by Ctrl-C; the working folder is kept if it holds a
    /// checkpoint to resume from.
    Interrupted {
        kept: Option<PathBuf>,
    },
    Failed(String),
}

/// Solves `board`, writes its table into `folder` and records it in the
/// folder's manifest. The caller has checked the board and the folder. The
/// solve works in `RxC.sgtb.work` beside the table: it resumes from the
/// checkpoint there if there is one, saves one at most once per
/// `checkpoint_interval`, and the folder is removed once the table is
/// written.
pub fn build_board(
    board: Board,
    folder: &Path,
    progress: &BuildProgress,
    options: BuildOptions,
) -> Result<BuildReport, BuildFailure> {
    let checkpoint_interval = options.checkpoint_interval;
    let work = WorkFolder::open(&folder.join(file_name(&board)), checkpoint_interval)
        .map_err(BuildFailure::Failed)?;
    reset_peak_memory();
    let start_up_bytes = peak_memory();
    let cpu_before = cpu_seconds();
    let started = Instant::now();
    let stopped = |work: WorkFolder| {
        if work.has_checkpoint() {
            BuildFailure::Interrupted {
                kept: Some(work.path().to_path_buf()),
            }
        } else {
            work.remove();
            BuildFailure::Interrupted { kept: None }
        }
    };
    // A failure (a full disk, a folder that turned read-only) keeps the
    // last checkpoint and what it needs: the files the solve was writing
    // are appended to after the checkpoint's marks, and a resumed solve
    // cuts them back to those marks.
    let failed = |work: WorkFolder, message: String| {
        if work.has_checkpoint() {
            BuildFailure::Failed(format!(
                "{message}; the work so far and its checkpoint stay in {}, and the same build resumes from it",
                work.path().display()
            ))
        } else {
            work.remove();
            BuildFailure::Failed(message)
        }
    };
    let solution = match solve_in(board, Workspace::Folder(&work), progress) {
        Ok(solution) => solution,
        Err(SolveError::Cancelled) => return Err(stopped(work)),
        Err(error) => return Err(failed(work, format!("cannot build {board}: {error}"))),
    };
    let solve_seconds = started.elapsed().as_secs_f64();
    // Before the table replaces anything: a spot check of what it holds
    // against the verifier's rule, or all of it with --verify and after a
    // resumed solve. A checkpoint passes its checks if it is as it was
    // written, but one edited with its checksum made right passes too, and
    // a single wrong state in it can make a wrong table that a sample
    // would likely miss; the full verifier costs about as much as the
    // build (3x5, 4x4, 3x6), too much for every build.
    let verify_all = options.verify || work.resumed();
    if verify_all && !options.verify {
        log::info!(
            "{board}: the solve resumed from a checkpoint, so every state of the table is checked before it is put in place"
        );
    }
    let refused = std::cell::Cell::new(false);
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
            let report = verify_file_with(path, verify_options, progress)
                .map_err(|error| refuse(error.to_string()))?;
            log::info!(
                "{board}: every state of the table checked in {:.1} s",
                report.seconds
            );
        }
        let index = solution.index();
        let sample = spot_sample(index.counts().states);
        let checked = spot_check(path, index, solution.stats().edges, sample).map_err(refuse)?;
        log::info!(
            "{board}: {checked} states of the table checked against their children in {:.2} s",
            started.elapsed().as_secs_f64()
        );
        Ok(())
    };
    let written = match writer::write(&solution, folder, progress, &check) {
        Ok(Some(written)) => written,
        Ok(None) => {
            drop(solution);
            return Err(stopped(work));
        }
        Err(error) if refused.get() => {
            // What the solve holds is wrong: nothing of it is kept.
            drop(solution);
            work.remove();
            return Err(BuildFailure::Failed(format!(
                "cannot write the table of {board}: {error}; its working folder is removed, and the next build starts afresh"
            )));
        }
        Err(error) => {
            drop(solution);
            return Err(failed(
                work,
                format!("cannot write the table of {board}: {error}"),
            ));
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    let cpu_seconds = cpu_seconds() - cpu_before;
    let peak_bytes = peak_memory();

    let result = root_result(&solution).unwrap_or_else(|e| e.to_string());
    let best_first_moves: Vec<String> = best_moves(&solution, &State::start(), 0.0, true)
        .map(|moves| moves.iter().map(|m| m.name(&board)).collect())
        .unwrap_or_default();
    let (counts, stats, index_bytes) = (
        solution.index().counts(),
        *solution.stats(),
        solution.index().memory_bytes(),
    );
    // The values are read from the working folder until here.
    drop(solution);
    work.remove();
    let entry = manifest::Entry {
        board,
        states: counts.states,
        root_result: result.clone(),
        best_first_moves: best_first_moves.clone(),
        file_bytes: written.bytes,
        checksum: written.checksum,
        build_seconds: seconds,
    };
    if let Err(error) = manifest::update(folder, entry) {
        eprintln!("smallgo: the table is written, but the manifest is not: {error}");
    }
    Ok(BuildReport {
        counts,
        stats,
        written,
        seconds,
        solve_seconds,
        cpu_seconds,
        start_up_bytes,
        peak_bytes,
        index_bytes,
        result,
        best_first_moves,
    })
}

/// The threads a build or a verification works on, one a core: made
/// before the work starts, so that threads the system refuses (a memory
/// limit) are an error with the reason, not a panic in the middle of it.
pub(super) fn thread_pool() -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .build()
        .map_err(|error| format!("cannot start the threads to work on: {error}"))
}

/// Why a build of `board` into `folder` cannot take its lock, for the
/// message that refuses it.
pub(super) fn lock_refused(board: Board, folder: &Path, error: BuildLockError) -> String {
    let table = absolute(&folder.join(file_name(&board)));
    match error {
        BuildLockError::Held { process } => {
            let who = process.map_or(String::new(), |id| format!(" (process {id})"));
            format!(
                "another build of {board}{who} is writing {}; wait for it to end, or stop it",
                table.display()
            )
        }
        BuildLockError::Failed(reason) => {
            format!("cannot lock the build of {}: {reason}", table.display())
        }
    }
}

/// Checks the board's memory (before anything is created), the folder and
/// the disk, says where the table goes, then builds
/// with a progress display; a failure is told on stderr and becomes the
/// exit code.
pub fn build_checked(
    board: Board,
    folder: &Path,
    options: BuildOptions,
) -> Result<BuildReport, ExitCode> {
    // The memory first, so that a board too large for this machine
    // creates no folder; the disk once the folder exists.
    let memory_only = Room {
        disk: None,
        ..Room::for_build(folder, options.memory)
    };
    if let Err(message) =
        check_build(&board, folder, memory_only).and_then(|()| check_folder(folder))
    {
        eprintln!("smallgo: {message}");
        return Err(ExitCode::from(EXIT_FAILURE));
    }
    // Held until the table and its manifest line are written.
    let _lock = match BuildLock::take(&folder.join(file_name(&board))) {
        Ok(lock) => lock,
        Err(error) => {
            eprintln!("smallgo: {}", lock_refused(board, folder, error));
            return Err(ExitCode::from(EXIT_FAILURE));
        }
    };
    let checked =
        check_build(&board, folder, Room::for_build(folder, options.memory)).and_then(|()| {
            // A build that resumes from a checkpoint verifies its table.
            let resumes = crate::solver::checkpoint::work_path(&folder.join(file_name(&board)))
                .join("checkpoint")
                .exists();
            if options.verify || resumes {
                crate::solver::plan::verify_halves(
                    &board,
                    crate::solver::plan::estimate(&board).states as u64,
                    options.memory,
                )
                .map(|_| ())
            } else {
                Ok(())
            }
        });
    if let Err(message) = checked {
        eprintln!("smallgo: {message}");
        return Err(ExitCode::from(EXIT_FAILURE));
    }
    log::info!(
        "{board}: the table goes to {}",
        absolute(&folder.join(file_name(&board))).display()
    );
    crate::files::remove_stale_temporaries(folder);
    crate::solver::checkpoint::remove_abandoned(folder);
    let pool = match thread_pool() {
        Ok(pool) => pool,
        Err(message) => {
            eprintln!("smallgo: {board}: {message}");
            return Err(ExitCode::from(EXIT_FAILURE));
        }
    };
    catch_interrupts();
    let progress = BuildProgress::new(board.name());
    let report = pool.install(|| build_board(board, folder, &progress, options));
    progress.finish();
    match report {
        Ok(report) => Ok(report),
        Err(BuildFailure::Interrupted { kept: None }) => {
            eprintln!("smallgo: interrupted; no table written");
            Err(ExitCode::from(EXIT_INTERRUPTED))
        }
        Err(BuildFailure::Interrupted { kept: Some(work) }) => {
            eprintln!(
                "smallgo: interrupted; no table written; the work so far and its checkpoint stay in {}, and the same --build resumes from it",
                work.display()
            );
            Err(ExitCode::from(EXIT_INTERRUPTED))
        }
        Err(BuildFailure::Failed(message)) => {
            eprintln!("smallgo: {message}");
            Err(ExitCode::from(EXIT_FAILURE))
        }
    }
}

/// How many processes the MPI job this process belongs to has, if `mpirun`
/// (Open MPI's, or a PMI launcher such as Slurm's) started it.
pub fn mpi_job_size() -> Option<usize> {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"]
        .iter()
        .find_map(|name| std::env::var(name).ok()?.parse().ok())
}

/// `smallgo build RxC`: builds `board` into `folder`, unless the table of
/// the turned board is there or built in. Under `mpirun`, the job's
/// processes build it together (`build_mpi`), or, without the `mpi`
/// feature, refuse to.
pub fn run(board: Board, folder: PathBuf, options: BuildOptions) -> ExitCode {
    if let Some(processes) = mpi_job_size() {
        #[cfg(feature = "mpi")]
        {
            let _ = processes;
            return super::build_mpi::run(board, folder, options);
        }
        #[cfg(not(feature = "mpi"))]
        if processes > 1 {
            eprintln!(
                "smallgo: started by mpirun with {processes} processes, but this smallgo has no MPI; build it with `cargo build --release --features mpi`"
            );
            return ExitCode::from(EXIT_FAILURE);
        }
    }
    if let Some((turned, table)) = turned_table(board, &folder) {
        let source = match table {
            TurnedTable::File(path) => absolute(&path).display().to_string(),
            TurnedTable::BuiltIn => "built in".to_string(),
        };
        return match outln!(
            "{board}: nothing to build: the table of {turned} ({source}) serves {board} turned"
        ) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => super::output_failed(&error),
        };
    }
    let report = match build_checked(board, &folder, options) {
        Ok(report) => report,
        Err(code) => return code,
    };
    match print_summary(board, &report) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => super::output_failed(&error),
    }
}

/// `path` from the root, as given otherwise (no links resolved), for
/// messages.
pub(super) fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The summary of a finished build, on standard output.
fn print_summary(board: Board, report: &BuildReport) -> std::io::Result<()> {
    let counts = report.counts;
    let stats = report.stats;
    let states = counts.states as f64;
    outln!("board               {board}")?;
    outln!("legal positions     {}", counts.legal_positions)?;
    outln!("canonical positions {}", counts.positions)?;
    outln!("ko states           {}", counts.ko_states)?;
    outln!("states              {}", counts.states)?;
    outln!("edges               {}", stats.edges)?;
    outln!("largest depth       {}", stats.largest_depth)?;
    outln!("result at komi 0    {}", report.result)?;
    outln!("best first moves    {}", report.best_first_moves.join(" "))?;
    outln!(
        "wall time           {:.2} s (enumerate {:.2}, count children {:.2}, retrograde {:.2}, write {:.2}); cpu {:.2} s",
        report.seconds,
        stats.enumerate_seconds,
        stats.count_seconds,
        stats.retrograde_seconds,
        report.seconds - report.solve_seconds,
        report.cpu_seconds
    )?;
    outln!(
        "rate                {:.2} M states/s, {:.2} M edges/s",
        states / report.seconds / 1e6,
        stats.edges as f64 / report.seconds / 1e6
    )?;
    match (
        report.peak_bytes,
        report.start_up_bytes,
        report.rest_per_state(),
    ) {
        (Some(peak), Some(start_up), Some(rest)) => outln!(
            "peak memory         {} (start-up {}, index {}, the rest {rest:.2} bytes/state)",
            human_bytes(peak as f64),
            human_bytes(start_up as f64),
            human_bytes(report.index_bytes as f64),
        )?,
        _ => outln!("peak memory         unknown")?,
    }
    outln!(
        "table               {} ({}, {:.3} bytes/state, crc32 {:08x})",
        report.written.path.display(),
        human_bytes(report.written.bytes as f64),
        report.written.bytes as f64 / states,
        report.written.checksum
    )?;
    Ok(())
}
