//! `mpirun -np K smallgo build RxC [--tables DIR]`: one board built by the
//! K processes of an MPI job (the `mpi` feature), through the pipeline of
//! `crate::build` with its MPI solver (`build::mpi::Job`).
//!
//! Every process first checks that all run the same smallgo on the same
//! board and folder, and that no turned board's table serves the board.
//! Process 0 shows the progress (not the verifier's sweeps) and prints the
//! summary, the plain build's lines (`build::summary`) with each process's
//! memory and index and the bytes they exchanged, or with `--json` the
//! plain build's `build` object with those figures in `by_process`. Ctrl-C (which `mpirun` passes to every process) stops them
//! all at the same layer; the working folders `RxC.sgtb.mpi/rank-R` stay
//! when a process holds a checkpoint, so that the same `mpirun` resumes.
//! A process that fails on the way ends the job, and `mpirun` names it; a
//! table that fails its check removes the working folders, so that the
//! next job starts afresh.

use std::path::PathBuf;
use std::process::ExitCode;

use super::build::{message, summary, summary_json, Shown};
use super::{EXIT_FAILURE, EXIT_INTERRUPTED};
use crate::build::mpi::Job;
use crate::build::{absolute, build, turned_table, BuildError, BuildOptions};
use crate::rules::board::Board;
use crate::solver::cluster::Cluster;

/// A digest of the running binary, so that processes of different builds
/// refuse to work together.
fn binary_digest() -> String {
    std::env::current_exe()
        .and_then(std::fs::read)
        .map(|bytes| format!("{:08x}", crc32fast::hash(&bytes)))
        .unwrap_or_else(|error| format!("unreadable: {error}"))
}

/// `smallgo build` under `mpirun`.
pub fn run(board: Board, folder: PathBuf, options: BuildOptions, as_json: bool) -> ExitCode {
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
            let printed = if as_json {
                outln!("{}", summary_json(board, &report))
            } else {
                summary(board, &report, true)
                    .into_iter()
                    .try_for_each(|line| outln!("{line}"))
            };
            match printed {
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
