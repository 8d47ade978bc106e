//! `smallgo build RxC [--tables DIR]` (or `smallgo --build RxC`): one
//! board built by the pipeline of `crate::build` (check, solve, write,
//! record), with its progress shown and its summary printed.
//!
//! A board whose turned board's table is in the folder or built in is not
//! built: that table serves it (the engine turns the states), and the
//! command says so. Otherwise the build's checks, its lock and its working
//! folder are the pipeline's (`crate::build`); this command shows the
//! progress (`BuildProgress`: bars on a terminal, log lines otherwise)
//! from the solve's start, when it also starts catching Ctrl-C, SIGTERM
//! and SIGHUP: the first stops the build cleanly (no table is written, and
//! the working folder `RxC.sgtb.work` stays if it holds a checkpoint, so
//! that the same build resumes from it), a second exits at once, removing
//! the temporary files first. Each failure is told once on stderr, with
//! what was kept, and becomes the exit code.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::OnceLock;

use super::json::{self, Json};
use super::progress::{catch_interrupts, BuildProgress};
use super::{EXIT_FAILURE, EXIT_INTERRUPTED};
use crate::build::alone::Alone;
use crate::build::{
    absolute, build, turned_table, BuildError, BuildObserver, BuildOptions, BuildReport, Stage,
    TurnedTable,
};
use crate::common::units::human_bytes;
use crate::rules::board::Board;
use crate::solver::{Observer, Phase};
use crate::table::verify::VerifyObserver;

/// What a build shows: nothing during its checks (whose messages come
/// first), then, from the solve's start, its progress (`BuildProgress`),
/// if this process shows it, with the verifier's sweeps if `sweeps`; and
/// from then on it catches Ctrl-C, which it reports as `cancelled`.
pub(super) struct Shown {
    board: Board,
    show: bool,
    sweeps: bool,
    progress: OnceLock<BuildProgress>,
}

impl Shown {
    pub(super) fn new(board: Board, show: bool, sweeps: bool) -> Shown {
        Shown {
            board,
            show,
            sweeps,
            progress: OnceLock::new(),
        }
    }

    /// Removes the bar before anything else is printed.
    pub(super) fn finish(&self) {
        if let Some(progress) = self.progress.get() {
            progress.finish();
        }
    }
}

impl BuildObserver for Shown {
    fn stage_started(&self, stage: Stage) {
        if stage == Stage::Solve {
            catch_interrupts();
            if self.show {
                self.progress
                    .get_or_init(|| BuildProgress::new(self.board.name()));
            }
        }
    }
}

impl Observer for Shown {
    fn phase_started(&self, phase: Phase, total: u64) {
        if let Some(progress) = self.progress.get() {
            progress.phase_started(phase, total);
        }
    }
    fn advanced(&self, work: u64) {
        if let Some(progress) = self.progress.get() {
            Observer::advanced(progress, work);
        }
    }
    fn resumed(&self, work: u64) {
        if let Some(progress) = self.progress.get() {
            progress.resumed(work);
        }
    }
    fn level_started(&self, level: i32) {
        if let Some(progress) = self.progress.get() {
            progress.level_started(level);
        }
    }
    fn level_finished(&self, level: i32, layers: u32, flips: u64) {
        if let Some(progress) = self.progress.get() {
            progress.level_finished(level, layers, flips);
        }
    }
    fn cancelled(&self) -> bool {
        self.progress
            .get()
            .is_some_and(|progress| progress.cancelled())
    }
}

impl VerifyObserver for Shown {
    fn step_started(&self, step: &str, blocks: u64) {
        if let Some(progress) = self.progress.get().filter(|_| self.sweeps) {
            progress.step_started(step, blocks);
        }
    }
    fn advanced(&self, blocks: u64) {
        if let Some(progress) = self.progress.get().filter(|_| self.sweeps) {
            VerifyObserver::advanced(progress, blocks);
        }
    }
}

/// A build's error as the command line tells it: the error, then the one
/// it wraps.
pub(super) fn message(error: &BuildError) -> String {
    match std::error::Error::source(error) {
        Some(source) => format!("{error}: {source}"),
        None => error.to_string(),
    }
}

/// Makes sure the folder exists and takes new files; if not, says why,
/// naming the folder and giving the system's error.
pub(super) fn check_folder(folder: &Path) -> Result<(), String> {
    crate::build::check_folder(folder).map_err(|error| message(&error))
}

/// The threads a build or a verification works on, one a core: made
/// before the work starts, so that threads the system refuses (a memory
/// limit) are an error with the reason, not a panic in the middle of it.
pub(super) fn thread_pool() -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .build()
        .map_err(|error| format!("cannot start the threads to work on: {error}"))
}

/// Builds `board` into `folder` with its progress shown; a failure is
/// told on stderr, with what was kept of the work, and becomes the exit
/// code.
pub fn build_checked(
    board: Board,
    folder: &Path,
    options: BuildOptions,
) -> Result<BuildReport, ExitCode> {
    let shown = Shown::new(board, true, true);
    let built = build(board, folder, options, &Alone::new(), &shown);
    shown.finish();
    let failed = match built.and_then(|report| report.ok_or(BuildError::OtherProcess)) {
        Ok(report) => {
            if let Err(error) = &report.manifest {
                eprintln!("smallgo: the table is written, but the manifest is not: {error}");
            }
            return Ok(report);
        }
        Err(error) => error,
    };
    let code = match &failed {
        BuildError::Stopped { kept: None } => {
            eprintln!("smallgo: interrupted; no table written");
            EXIT_INTERRUPTED
        }
        BuildError::Stopped { kept: Some(work) } => {
            eprintln!(
                "smallgo: interrupted; no table written; the work so far and its checkpoint stay in {}, and the same --build resumes from it",
                work.display()
            );
            EXIT_INTERRUPTED
        }
        BuildError::Solve {
            kept: Some(work), ..
        }
        | BuildError::Write {
            kept: Some(work), ..
        } => {
            eprintln!(
                "smallgo: {}; the work so far and its checkpoint stay in {}, and the same build resumes from it",
                message(&failed),
                work.display()
            );
            EXIT_FAILURE
        }
        BuildError::Refused { .. } => {
            eprintln!(
                "smallgo: {}; its working folder is removed, and the next build starts afresh",
                message(&failed)
            );
            EXIT_FAILURE
        }
        _ => {
            eprintln!("smallgo: {}", message(&failed));
            EXIT_FAILURE
        }
    };
    Err(ExitCode::from(code))
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
/// feature, refuse to. With `as_json` the summary is one `build` object.
pub fn run(board: Board, folder: PathBuf, options: BuildOptions, as_json: bool) -> ExitCode {
    if let Some(processes) = mpi_job_size() {
        #[cfg(feature = "mpi")]
        {
            let _ = processes;
            return super::build_mpi::run(board, folder, options, as_json);
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
        let written = if as_json {
            outln!(
                "{}",
                Json::kind("build")
                    .with("board", board.name())
                    .with("built", false)
                    .with(
                        "served_by",
                        Json::object()
                            .with("board", turned.name())
                            .with("table", source.as_str())
                    )
            )
        } else {
            outln!(
                "{board}: nothing to build: the table of {turned} ({source}) serves {board} turned"
            )
        };
        return match written {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => super::output_failed(&error),
        };
    }
    let report = match build_checked(board, &folder, options) {
        Ok(report) => report,
        Err(code) => return code,
    };
    let written = if as_json {
        outln!("{}", summary_json(board, &report))
    } else {
        print_summary(board, &report)
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => super::output_failed(&error),
    }
}

/// The summary of a finished build as a `build` object (`docs/json.md`):
/// the figures of `summary`, as numbers.
pub(super) fn summary_json(board: Board, report: &BuildReport) -> Json {
    let counts = report.counts;
    let stats = report.stats;
    Json::kind("build")
        .with("board", board.name())
        .with("built", true)
        .with("legal_positions", counts.legal_positions)
        .with("canonical_positions", counts.positions)
        .with("ko_states", counts.ko_states)
        .with("states", counts.states)
        .with("solver_edges", stats.edges)
        .with("largest_depth", stats.largest_depth)
        .with("komi", 0u8)
        .with("result", json::result_of_score(&report.result))
        .with(
            "best_first_moves",
            Json::list(report.best_first_moves.iter()),
        )
        .with("seconds", report.seconds)
        .with(
            "phase_seconds",
            Json::object()
                .with("enumerate", stats.enumerate_seconds)
                .with("count_children", stats.count_seconds)
                .with("retrograde", stats.retrograde_seconds)
                .with("write", report.seconds - report.solve_seconds),
        )
        .with("cpu_seconds", report.cpu_seconds)
        .with("processes", report.processes.len().max(1))
        .with("peak_bytes", report.peak_bytes)
        .with("start_up_bytes", report.start_up_bytes)
        .with("index_bytes", report.index_bytes)
        .with(
            "table",
            Json::object()
                .with("path", report.written.path.display().to_string())
                .with("bytes", report.written.bytes)
                .with("crc32", report.written.checksum),
        )
        .with(
            "by_process",
            Json::list(report.processes.iter().enumerate().map(|(rank, p)| {
                Json::object()
                    .with("rank", rank)
                    .with("peak_bytes", p.peak_bytes)
                    .with("index_bytes", p.index_bytes)
                    .with("sent_bytes", p.sent_bytes)
            })),
        )
}

/// The summary of a finished build, on standard output.
fn print_summary(board: Board, report: &BuildReport) -> std::io::Result<()> {
    for line in summary(board, report, false) {
        outln!("{line}")?;
    }
    Ok(())
}

/// The summary of a finished build, by one process or (`job`) the
/// processes of an MPI job, which add how many they were, what they
/// exchanged and each one's memory and index; one line a figure.
pub(super) fn summary(board: Board, report: &BuildReport, job: bool) -> Vec<String> {
    let counts = report.counts;
    let stats = report.stats;
    let states = counts.states as f64;
    let processes = &report.processes;
    let mut lines = vec![format!("board               {board}")];
    if job {
        lines.push(format!("processes           {}", processes.len()));
    }
    lines.extend([
        format!("legal positions     {}", counts.legal_positions),
        format!("canonical positions {}", counts.positions),
        format!("ko states           {}", counts.ko_states),
        format!("states              {}", counts.states),
        format!("edges               {}", stats.edges),
        format!("largest depth       {}", stats.largest_depth),
        format!("result at komi 0    {}", report.result),
        format!("best first moves    {}", report.best_first_moves.join(" ")),
        format!(
            "wall time           {:.2} s (enumerate {:.2}, count children {:.2}, retrograde {:.2}, write {:.2}); cpu {:.2} s{}",
            report.seconds,
            stats.enumerate_seconds,
            stats.count_seconds,
            stats.retrograde_seconds,
            report.seconds - report.solve_seconds,
            report.cpu_seconds,
            if job { " (process 0)" } else { "" }
        ),
        format!(
            "rate                {:.2} M states/s, {:.2} M edges/s",
            states / report.seconds / 1e6,
            stats.edges as f64 / report.seconds / 1e6
        ),
    ]);
    if job {
        let sent: u64 = processes.iter().map(|p| p.sent_bytes).sum();
        let by_process = |figure: fn(&crate::build::ProcessFigures) -> u64| -> String {
            let each: Vec<String> = processes
                .iter()
                .map(|p| human_bytes(figure(p) as f64))
                .collect();
            each.join(", ")
        };
        lines.extend([
            format!(
                "exchanged           {} ({:.2} bytes/edge)",
                human_bytes(sent as f64),
                sent as f64 / stats.edges.max(1) as f64
            ),
            format!(
                "peak memory         {} (by process)",
                by_process(|p| p.peak_bytes.unwrap_or(0))
            ),
            format!(
                "index               {} (by process)",
                by_process(|p| p.index_bytes)
            ),
        ]);
    } else {
        lines.push(
            match (
                report.peak_bytes,
                report.start_up_bytes,
                report.rest_per_state(),
            ) {
                (Some(peak), Some(start_up), Some(rest)) => format!(
                "peak memory         {} (start-up {}, index {}, the rest {rest:.2} bytes/state)",
                human_bytes(peak as f64),
                human_bytes(start_up as f64),
                human_bytes(report.index_bytes as f64),
            ),
                _ => "peak memory         unknown".to_string(),
            },
        );
    }
    lines.push(format!(
        "table               {} ({}, {:.3} bytes/state, crc32 {:08x})",
        report.written.path.display(),
        human_bytes(report.written.bytes as f64),
        report.written.bytes as f64 / states,
        report.written.checksum
    ));
    lines
}
