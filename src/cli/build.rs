//! `smallgo --build RxC [--tables DIR]`: solve one board, write its table
//! atomically, record it in the folder's manifest, and print a summary.
//!
//! Everything that can be checked before a long solve is checked first: the
//! board fits the solver and the machine's memory, and the folder can be
//! written.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use super::manifest;
use super::progress::{catch_interrupts, interrupted, BuildProgress};
use super::{EXIT_FAILURE, EXIT_INTERRUPTED};
use crate::analysis::{best_moves, root_result};
use crate::board::Board;
use crate::plan::{check_fits, human_bytes, peak_memory};
use crate::solver::{solve, SolveError};
use crate::state::State;
use crate::table::{file_name, writer};

/// Makes sure the folder exists and takes new files.
fn check_folder(folder: &Path) -> Result<(), String> {
    fs::create_dir_all(folder)
        .map_err(|e| format!("cannot create table folder {}: {e}", folder.display()))?;
    let probe = folder.join(format!(".smallgo-write-test.{}", std::process::id()));
    fs::write(&probe, b"")
        .map_err(|e| format!("cannot write in table folder {}: {e}", folder.display()))?;
    let _ = fs::remove_file(&probe);
    Ok(())
}

pub fn run(board: Board, folder: PathBuf) -> ExitCode {
    if let Err(message) = check_fits(&board).and_then(|()| check_folder(&folder)) {
        eprintln!("smallgo: {message}");
        return ExitCode::from(EXIT_FAILURE);
    }
    catch_interrupts();
    let start_up = peak_memory();
    let started = Instant::now();
    let progress = BuildProgress::new(board.name());
    let solution = match solve(board, &progress) {
        Ok(solution) => solution,
        Err(SolveError::Cancelled) => {
            progress.finish();
            eprintln!("smallgo: interrupted; no table written");
            return ExitCode::from(EXIT_INTERRUPTED);
        }
        Err(error) => {
            progress.finish();
            eprintln!("smallgo: cannot build {board}: {error}");
            return ExitCode::from(EXIT_FAILURE);
        }
    };
    let solved_seconds = started.elapsed().as_secs_f64();
    let written = match writer::write(&solution, &folder, &interrupted) {
        Ok(Some(written)) => written,
        Ok(None) => {
            progress.finish();
            eprintln!("smallgo: interrupted; no table written");
            return ExitCode::from(EXIT_INTERRUPTED);
        }
        Err(error) => {
            progress.finish();
            eprintln!("smallgo: cannot write the table of {board}: {error}");
            return ExitCode::from(EXIT_FAILURE);
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    progress.finish();

    let start = State::start();
    let result = root_result(&solution).unwrap_or_else(|e| e.to_string());
    let best: Vec<String> = best_moves(&solution, &start, 0.0, true)
        .map(|moves| moves.iter().map(|m| m.name(&board)).collect())
        .unwrap_or_default();
    let entry = manifest::Entry {
        board,
        states: solution.index().counts().states,
        root_result: result.clone(),
        best_first_moves: best.clone(),
        file_bytes: written.bytes,
        checksum: written.checksum,
        build_seconds: seconds,
    };
    if let Err(error) = manifest::update(&folder, entry) {
        eprintln!("smallgo: the table is written, but the manifest is not: {error}");
    }

    let counts = solution.index().counts();
    let stats = solution.stats();
    let states = counts.states as f64;
    let peak = peak_memory();
    println!("board               {board}");
    println!("legal positions     {}", counts.legal_positions);
    println!("canonical positions {}", counts.positions);
    println!("ko states           {}", counts.ko_states);
    println!("states              {}", counts.states);
    println!("edges               {}", stats.edges);
    println!("largest depth       {}", stats.largest_depth);
    println!("result at komi 0    {result}");
    println!("best first moves    {}", best.join(" "));
    println!(
        "wall time           {seconds:.2} s (enumerate {:.2}, count children {:.2}, retrograde {:.2}, write {:.2})",
        stats.enumerate_seconds,
        stats.count_seconds,
        stats.retrograde_seconds,
        seconds - solved_seconds
    );
    println!(
        "rate                {:.2} M states/s, {:.2} M edges/s",
        states / solved_seconds / 1e6,
        2.0 * stats.edges as f64 / stats.retrograde_seconds.max(1e-9) / 1e6
    );
    match (peak, start_up) {
        (Some(peak), Some(start_up)) => {
            let index = solution.index().memory_bytes() as f64;
            println!(
                "peak memory         {} (start-up {}, index {}, the rest {:.2} bytes/state)",
                human_bytes(peak as f64),
                human_bytes(start_up as f64),
                human_bytes(index),
                (peak as f64 - start_up as f64 - index) / states
            )
        }
        _ => println!("peak memory         unknown"),
    }
    println!(
        "table               {} ({}, {:.3} bytes/state, crc32 {:08x})",
        written.path.display(),
        human_bytes(written.bytes as f64),
        written.bytes as f64 / states,
        written.checksum
    );
    debug_assert_eq!(
        written
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned()),
        Some(file_name(&board))
    );
    ExitCode::SUCCESS
}
