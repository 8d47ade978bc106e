//! `mpirun -np K smallgo build RxC [--tables DIR]`: one board built by the
//! K processes of an MPI job (the `mpi` feature), through the pipeline of
//! `crate::build` with its MPI solver (`build::mpi::Job`).
//!
//! Every process first checks that all run the same smallgo on the same
//! board and folder, and that no turned board's table serves the board.
//! Process 0 shows the progress (not the verifier's sweeps) and prints the
//! summary, with each process's memory and index and the bytes they
//! exchanged. Ctrl-C (which `mpirun` passes to every process) stops them
//! all at the same layer; the working folders `RxC.sgtb.mpi/rank-R` stay
//! when a process holds a checkpoint, so that the same `mpirun` resumes.
//! A process that fails on the way ends the job, and `mpirun` names it; a
//! table that fails its check removes the working folders, so that the
//! next job starts afresh.

use std::path::PathBuf;
use std::process::ExitCode;

use super::build::{message, Shown};
use super::{EXIT_FAILURE, EXIT_INTERRUPTED};
use crate::build::mpi::Job;
use crate::build::{absolute, build, turned_table, BuildError, BuildOptions, BuildReport};
use crate::common::units::human_bytes;
use crate::rules::board::Board;
use crate::solver::cluster::Cluster;
use crate::solver::exchange::Exchange;

/// A digest of the running binary, so that processes of different builds
/// refuse to work together.
fn binary_digest() -> String {
    std::env::current_exe()
        .and_then(std::fs::read)
        .map(|bytes| format!("{:08x}", crc32fast::hash(&bytes)))
        .unwrap_or_else(|error| format!("unreadable: {error}"))
}

/// `smallgo build` under `mpirun`.
pub fn run(board: Board, folder: PathBuf, options: BuildOptions) -> ExitCode {
    let Some(cluster) = Cluster::start() else {
        eprintln!("smallgo: MPI could not start");
        return ExitCode::from(EXIT_FAILURE);
    };
    let root = cluster.rank() == 0;
    let fail = |message: String| {
        if root {
            eprintln!("smallgo: {message}");
        }
        ExitCode::from(EXIT_FAILURE)
    };
    let facts = [
        ("smallgo version", env!("CARGO_PKG_VERSION").to_string()),
        ("binary", binary_digest()),
        ("board", board.name()),
        ("tables folder", absolute(&folder).display().to_string()),
    ];
    if let Err(message) = cluster.agree(&facts) {
        return fail(message);
    }
    if let Some((turned, _)) = turned_table(board, &folder) {
        return fail(format!(
            "{board}: nothing to build: the table of {turned} serves {board} turned"
        ));
    }
    let shown = Shown::new(board, root, false);
    let built = build(board, &folder, options, &Job::new(&cluster), &shown);
    shown.finish();
    match built {
        Ok(Some(report)) => {
            if let Err(error) = &report.manifest {
                eprintln!("smallgo: the table is written, but the manifest is not: {error}");
            }
            match print_summary(board, cluster.processes(), &report) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => super::output_failed(&error),
            }
        }
        Ok(None) => ExitCode::SUCCESS,
        Err(BuildError::Stopped { kept }) => {
            match (root, kept) {
                (true, Some(works)) => eprintln!(
                    "smallgo: interrupted; no table written; the work so far and its checkpoints stay in {}, and the same mpirun resumes from them",
                    works.display()
                ),
                (true, None) => eprintln!("smallgo: interrupted; no table written"),
                (false, _) => {}
            }
            ExitCode::from(EXIT_INTERRUPTED)
        }
        // Refused before the work began: process 0 says why.
        Err(
            error @ (BuildError::NotAFolder { .. }
            | BuildError::FolderNotMade { .. }
            | BuildError::FolderNotWritable { .. }
            | BuildError::Locked { .. }
            | BuildError::Lock { .. }
            | BuildError::OtherProcess),
        ) => fail(message(&error)),
        Err(error) => {
            eprintln!("smallgo: process {}: {}", cluster.rank(), message(&error));
            if let BuildError::Refused { work, .. } = &error {
                // What the solve held was wrong: no process resumes from it.
                eprintln!(
                    "smallgo: the working folders {} are removed, and the next build starts afresh",
                    work.display()
                );
            }
            cluster.abort(EXIT_FAILURE as i32);
        }
    }
}

/// The summary of a finished job, on standard output.
fn print_summary(board: Board, processes: usize, report: &BuildReport) -> std::io::Result<()> {
    let (counts, stats, seconds) = (report.counts, report.stats, report.seconds);
    let edges = stats.edges;
    let sent: u64 = report.processes.iter().map(|p| p.sent_bytes).sum();
    let by_process = |figure: fn(&crate::build::ProcessFigures) -> u64| -> String {
        let each: Vec<String> = report
            .processes
            .iter()
            .map(|p| human_bytes(figure(p) as f64))
            .collect();
        each.join(", ")
    };
    let lines = [
        format!("board               {board}"),
        format!("processes           {processes}"),
        format!("states              {}", counts.states),
        format!("edges               {edges}"),
        format!("result at komi 0    {}", report.result),
        format!("best first moves    {}", report.best_first_moves.join(" ")),
        format!(
            "wall time           {seconds:.2} s (enumerate {:.2}, count children {:.2}, retrograde {:.2}, write {:.2})",
            stats.enumerate_seconds,
            stats.count_seconds,
            stats.retrograde_seconds,
            seconds - stats.enumerate_seconds - stats.count_seconds - stats.retrograde_seconds
        ),
        format!(
            "exchanged           {} ({:.2} bytes/edge)",
            human_bytes(sent as f64),
            sent as f64 / edges.max(1) as f64
        ),
        format!(
            "peak memory         {} (by process)",
            by_process(|p| p.peak_bytes.unwrap_or(0))
        ),
        format!("index               {} (by process)", by_process(|p| p.index_bytes)),
        format!(
            "table               {} ({}, crc32 {:08x})",
            report.written.path.display(),
            human_bytes(report.written.bytes as f64),
            report.written.checksum
        ),
    ];
    for line in lines {
        outln!("{line}")?;
    }
    Ok(())
}
