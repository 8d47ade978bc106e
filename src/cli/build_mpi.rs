//! `mpirun -np K smallgo build RxC [--tables DIR]`: one board built by the
//! K processes of an MPI job (the `mpi` feature).
//!
//! Every process indexes a run of the board's codes (`cluster::split_index`)
//! and solves the states of those positions (`solver::share::Part`:
//! consecutive whole table blocks), sending the updates for the others'
//! states to them after each round of a layer (`cluster::Cluster`).
//! Process 0 then writes the table: the directory the processes' indexes
//! make together, its own blocks, and the others' as they send them,
//! compressed, in order; the file is byte for byte the one a single
//! process writes. Before it is put in place, it checks a sample of states
//! that every process picks from its own, and every state when the job
//! resumed from checkpoints; a table that fails removes the working
//! folders, so that the next job starts afresh. Process 0 alone checks the
//! folder, holds the board's build lock (as a build by one process does:
//! a second build of the board is refused), removes the temporaries of
//! builds now gone, shows progress and prints the summary; every process
//! first checks that all run the same smallgo on the same board and folder.
//!
//! Each process keeps its spools in `RxC.sgtb.mpi/rank-R` beside the
//! table, removed at the end. Ctrl-C (which `mpirun` passes to every
//! process) stops them all at the same layer; a process that fails ends the
//! job, and `mpirun` names it.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use rayon::prelude::*;

use super::build::{absolute, check_folder, lock_refused, turned_table, BuildOptions};
use super::progress::{catch_interrupts, BuildProgress};
use super::{EXIT_FAILURE, EXIT_INTERRUPTED};
use crate::build::manifest;
use crate::cluster::{split_index, Cluster};
use crate::host::{peak_memory, reset_peak_memory};
use crate::index::{StateCounts, StateIndex};
use crate::rules::board::Board;
use crate::rules::state::{Child, State};
use crate::solver::checkpoint::{BuildLock, WorkFolder};
use crate::solver::exchange::Exchange;
use crate::solver::lean::solve_share;
use crate::solver::share::{Share, Whole};
use crate::solver::{Observer, Silent, SolveError, SolveStats, Workspace};
use crate::table::format::directory_counts;
use crate::table::values::rating::{best_moves, root_result};
use crate::table::verify::{
    minimax, spot_check, spot_sample, verify_file_with, VerifyObserver, VerifyOptions,
};
use crate::table::writer::{
    batch_blocks, block_positions, compress_blocks, encode_blocks, write_encoded, BLOCKS_PER_BATCH,
    POSITIONS_PER_BLOCK,
};
use crate::table::{file_name, Table};
use crate::units::human_bytes;

/// An observer that never asks to stop: once the solve is done, the
/// processes finish the table together (one that stopped alone would leave
/// the others waiting).
struct Finishing<'a>(&'a dyn Observer);

impl Observer for Finishing<'_> {
    fn phase_started(&self, phase: crate::solver::Phase, total: u64) {
        self.0.phase_started(phase, total)
    }
    fn advanced(&self, work: u64) {
        self.0.advanced(work)
    }
}

/// A verification that shows nothing: process 0's progress display shows
/// the solve and the writing, not the check.
struct Unwatched;

impl VerifyObserver for Unwatched {}

/// A digest of the running binary, so that processes of different builds
/// refuse to work together.
fn binary_digest() -> String {
    std::env::current_exe()
        .and_then(std::fs::read)
        .map(|bytes| format!("{:08x}", crc32fast::hash(&bytes)))
        .unwrap_or_else(|error| format!("unreadable: {error}"))
}

/// Whether any process says `failed`; every process learns the same.
fn any(cluster: &Cluster, failed: bool) -> bool {
    let mut flag = [failed as u64];
    cluster.sum(&mut flag).is_err() || flag[0] > 0
}

/// `smallgo build` under `mpirun`.
pub fn run(board: Board, folder: PathBuf, options: BuildOptions) -> ExitCode {
    let Some(cluster) = Cluster::start() else {
        eprintln!("smallgo: MPI could not start");
        return ExitCode::from(EXIT_FAILURE);
    };
    let root = cluster.rank() == 0;
    let processes = cluster.processes();
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
    let checked = if root { check_folder(&folder) } else { Ok(()) };
    if any(&cluster, checked.is_err()) {
        return fail(checked.err().unwrap_or_default());
    }
    let table = folder.join(file_name(&board));
    // Process 0 holds the board's lock, as a build by one process does,
    // until the table and its manifest line are written.
    let lock = root.then(|| BuildLock::take(&table));
    if any(&cluster, matches!(lock, Some(Err(_)))) {
        return fail(match lock {
            Some(Err(error)) => lock_refused(board, &folder, error),
            _ => String::new(),
        });
    }
    if root {
        // What builds now gone left: their temporaries (a table being
        // written when the job was killed), and working folders of
        // single-process builds without a checkpoint.
        crate::files::remove_stale_temporaries(&folder);
        crate::solver::checkpoint::remove_abandoned(&folder);
        log::info!(
            "{board}: the table goes to {}, built by {processes} processes",
            absolute(&table).display()
        );
    }
    let works = folder.join(format!("{}.mpi", file_name(&board)));
    let work = match WorkFolder::open_at(
        works.join(format!("rank-{}", cluster.rank())),
        options.checkpoint_interval,
    ) {
        Ok(work) => work,
        Err(message) => {
            eprintln!("smallgo: process {}: {message}", cluster.rank());
            cluster.abort(EXIT_FAILURE as i32);
        }
    };
    catch_interrupts();
    let progress = root.then(|| BuildProgress::new(board.name()));
    let observer: &dyn Observer = match &progress {
        Some(progress) => progress,
        None => &Silent,
    };
    reset_peak_memory();
    let started = Instant::now();
    let outcome = build(&cluster, board, &folder, &work, observer);
    if let Some(progress) = &progress {
        progress.finish();
    }
    let (written, counts, index_bytes) = match outcome {
        Ok(Some(built)) => built,
        Ok(None) => {
            let kept = any(&cluster, work.has_checkpoint());
            if root && kept {
                eprintln!(
                    "smallgo: interrupted; no table written; the work so far and its checkpoints stay in {}, and the same mpirun resumes from them",
                    works.display()
                );
            } else if root {
                eprintln!("smallgo: interrupted; no table written");
            }
            if !kept {
                work.remove();
                let _ = std::fs::remove_dir(&works);
            }
            return ExitCode::from(EXIT_INTERRUPTED);
        }
        Err(message) => {
            eprintln!("smallgo: process {}: {message}", cluster.rank());
            if root && message.contains(CHECK_FAILED) {
                // What the solve holds is wrong: no process resumes from
                // it.
                eprintln!(
                    "smallgo: the working folders {} are removed, and the next build starts afresh",
                    works.display()
                );
                let _ = std::fs::remove_dir_all(&works);
            }
            cluster.abort(EXIT_FAILURE as i32);
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    work.remove();
    // Every process's peak memory, bytes sent and index, for process 0 to
    // report.
    let figures = cluster.gather_all(&[
        peak_memory().unwrap_or(0),
        cluster.bytes_sent(),
        index_bytes,
    ]);
    if !root {
        return ExitCode::SUCCESS;
    }
    let _ = std::fs::remove_dir(&works);
    let Some((written, stats)) = written else {
        return ExitCode::SUCCESS;
    };
    let edges = stats.edges;
    let opened = Table::open(&written.path);
    let result = opened
        .as_ref()
        .map_err(|e| e.to_string())
        .and_then(|t| root_result(t).map_err(|e| e.to_string()))
        .unwrap_or_else(|e| e);
    let first_moves: Vec<String> = opened
        .ok()
        .and_then(|t| best_moves(&t, &State::start(), 0.0, true).ok())
        .map(|moves| moves.iter().map(|m| m.name(&board)).collect())
        .unwrap_or_default();
    let entry = manifest::Entry {
        board,
        states: counts.states,
        root_result: result.clone(),
        best_first_moves: first_moves.clone(),
        file_bytes: written.bytes,
        checksum: written.checksum,
        build_seconds: seconds,
    };
    if let Err(error) = manifest::update(&folder, entry) {
        eprintln!("smallgo: the table is written, but the manifest is not: {error}");
    }
    let sent: u64 = figures.iter().map(|f| f[1]).sum();
    let by_process = |i: usize| -> String {
        let each: Vec<String> = figures.iter().map(|f| human_bytes(f[i] as f64)).collect();
        each.join(", ")
    };
    let lines = [
        format!("board               {board}"),
        format!("processes           {processes}"),
        format!("states              {}", counts.states),
        format!("edges               {edges}"),
        format!("result at komi 0    {result}"),
        format!("best first moves    {}", first_moves.join(" ")),
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
        format!("peak memory         {} (by process)", by_process(0)),
        format!("index               {} (by process)", by_process(2)),
        format!(
            "table               {} ({}, crc32 {:08x})",
            written.path.display(),
            human_bytes(written.bytes as f64),
            written.checksum
        ),
    ];
    for line in lines {
        if let Err(error) = outln!("{line}") {
            return super::output_failed(&error);
        }
    }
    ExitCode::SUCCESS
}

/// What the writer says of a table that failed its check before the
/// rename (`table::writer::write_encoded`).
const CHECK_FAILED: &str = "the table failed its check";

/// A table written by process 0, with the solve's figures.
type Built = Option<(crate::table::writer::Written, SolveStats)>;

/// Solves this process's part and writes (process 0) or sends (the
/// others) its blocks. `Ok(None)` if the job was interrupted.
fn build(
    cluster: &Cluster,
    board: Board,
    folder: &Path,
    work: &WorkFolder,
    observer: &dyn Observer,
) -> Result<Option<(Built, StateCounts, u64)>, String> {
    let started = Instant::now();
    observer.phase_started(crate::solver::Phase::Enumerate, 0);
    let too_large = || {
        SolveError::TooLarge {
            points: board.points(),
        }
        .to_string()
    };
    // One process holds every state under the index's own numbers.
    let built = match cluster.processes() {
        1 => {
            let index = StateIndex::build(board).ok_or_else(too_large)?;
            let enumerated = started.elapsed().as_secs_f64();
            let share = Whole::new(&index);
            solve_and_write(cluster, &index, &share, folder, work, observer, enumerated)?
        }
        _ => {
            let (index, part) = split_index(cluster, board, POSITIONS_PER_BLOCK as u64)
                .map_err(|e| e.to_string())?;
            let enumerated = started.elapsed().as_secs_f64();
            solve_and_write(cluster, &index, &part, folder, work, observer, enumerated)?
        }
    };
    Ok(built)
}

/// The solve of `share` and the table: process 0 writes it, the others
/// send it their sample of states to check, their part of the directory
/// and their blocks.
fn solve_and_write(
    cluster: &Cluster,
    index: &StateIndex,
    share: &impl Share,
    folder: &Path,
    work: &WorkFolder,
    observer: &dyn Observer,
    enumerate_seconds: f64,
) -> Result<Option<(Built, StateCounts, u64)>, String> {
    let board = *index.board();
    // A checkpoint is this process's share's only if the job is split as
    // before.
    let split = format!(
        "process {} of {}: positions {:?}\n",
        cluster.rank(),
        cluster.processes(),
        share.positions()
    );
    work.claim(&split)
        .map_err(|e| format!("cannot write in {}: {e}", work.path().display()))?;
    let (values, mut stats) = match solve_share(
        index,
        share,
        cluster,
        Workspace::Shared(work),
        observer,
        None,
    ) {
        Ok(solved) => solved,
        Err(SolveError::Cancelled) => return Ok(None),
        Err(error) => return Err(format!("cannot build {board}: {error}")),
    };
    stats.enumerate_seconds = enumerate_seconds;
    // A checkpoint's checksums do not show that what it holds is right
    // (see `WorkFolder::resumed`): after a resumed solve, process 0 checks
    // every state of the table before it is put in place.
    let resumed = any(cluster, work.resumed());
    let counts = index.counts();
    let positions = counts.positions;
    let blocks = positions.div_ceil(POSITIONS_PER_BLOCK as u64);
    let own = share.positions();
    let own_blocks = own.start.div_ceil(POSITIONS_PER_BLOCK as u64)
        ..own.end.div_ceil(POSITIONS_PER_BLOCK as u64);
    let compress = |batch: Range<u64>| -> std::io::Result<Vec<Vec<u8>>> {
        let run = values.values_of(index, share, block_positions(batch.clone(), positions))?;
        Ok(compress_blocks(index, &run, batch))
    };
    let sample = match cluster.processes() {
        1 => Vec::new(),
        _ => own_sample(index, share),
    };
    let first_word = index.first_presence_word();
    if cluster.rank() != 0 {
        cluster.send_to_root(&sample);
        cluster.send_to_root(&[first_word]);
        let own_directory: Vec<u8> = directory_counts(index.presence_words()).collect();
        cluster.send_to_root(&own_directory);
        drop(own_directory);
        for batch_start in (0..blocks).step_by(BLOCKS_PER_BATCH as usize) {
            let batch = batch_blocks(batch_start, blocks);
            let mine = batch.start.max(own_blocks.start)..batch.end.min(own_blocks.end);
            if !mine.is_empty() {
                let compressed = compress(mine).map_err(|e| e.to_string())?;
                cluster.send_blocks(&compressed);
            }
        }
        return Ok(Some((None, counts, index.memory_bytes() as u64)));
    }
    // The board's directory, and the states to check, from every process:
    // a word two processes share the codes of counts the positions of both.
    let mut samples = vec![sample];
    let mut directory = vec![0u8; index.codec().code_count().div_ceil(64) as usize];
    let mut add = |first: u64, counts: &mut dyn Iterator<Item = u8>| {
        let words = directory.get_mut(first as usize..).unwrap_or_default();
        for (at, n) in words.iter_mut().zip(counts) {
            *at += n;
        }
    };
    add(first_word, &mut directory_counts(index.presence_words()));
    for rank in 1..cluster.processes() {
        samples.push(cluster.receive_from::<u64>(rank));
        let first: Vec<u64> = cluster.receive_from(rank);
        let counts: Vec<u8> = cluster.receive_from(rank);
        add(first.first().copied().unwrap_or(0), &mut counts.into_iter());
    }
    let check = |path: &Path| -> Result<(), String> {
        if resumed {
            log::info!(
                "{board}: the solve resumed from checkpoints, so every state of the table is checked before it is put in place"
            );
            verify_file_with(path, VerifyOptions::default(), &Unwatched)
                .map_err(|error| error.to_string())?;
        }
        if cluster.processes() == 1 {
            let sample = spot_sample(counts.states);
            return spot_check(path, index, stats.edges, sample).map(|_| ());
        }
        let states: Vec<State> = samples
            .iter()
            .flatten()
            .map(|&coded| index.state_at(coded >> 4, (coded & 15) as u32))
            .collect();
        spot_check_states(path, counts, stats.edges, &states).map(|_| ())
    };
    let owner = |block: u64| share.position_owner(block * POSITIONS_PER_BLOCK as u64);
    let written = write_table(
        cluster,
        index,
        directory,
        &owner,
        folder,
        observer,
        (stats.edges, &check),
        &compress,
    )?;
    Ok(Some((
        Some((written, stats)),
        counts,
        index.memory_bytes() as u64,
    )))
}

/// This process's share of the states the written table is checked on:
/// of the states spread evenly over the board's numbers (`spot_sample`),
/// those it holds, each as its position's code and its slot
/// (`code << 4 | slot`), which every process can turn back into the state.
fn own_sample(index: &StateIndex, share: &impl Share) -> Vec<u64> {
    let states = index.counts().states;
    let step = (states / spot_sample(states).max(1)).max(1);
    let (plain, ko) = index.state_runs(share.positions());
    let multiples =
        |run: Range<u64>| (run.start.div_ceil(step) * step..run.end).step_by(step as usize);
    multiples(plain)
        .chain(multiples(ko))
        .map(|number| {
            let (position, slot) = index.slot_of(number);
            index.position_code(position) << 4 | slot as u64
        })
        .collect()
}

/// What a written table is checked with before it is put in place.
type Check<'a> = dyn Fn(&Path) -> Result<(), String> + 'a;

/// Process 0 writes the table: the board's `directory` (let go once
/// written), then each
/// batch's blocks compressed here or received from the process that holds
/// them (`owner`), in order; then `check`, and the rename.
#[allow(clippy::too_many_arguments)]
fn write_table(
    cluster: &Cluster,
    index: &StateIndex,
    directory: Vec<u8>,
    owner: &dyn Fn(u64) -> usize,
    folder: &Path,
    observer: &dyn Observer,
    (edges, check): (u64, &Check),
    compress: &dyn Fn(Range<u64>) -> std::io::Result<Vec<Vec<u8>>>,
) -> Result<crate::table::writer::Written, String> {
    let finishing = Finishing(observer);
    let written = write_encoded(*index.board(), folder, &finishing, check, |out| {
        // Read once, into the header's stream, and let go before the check.
        let directory = directory.into_iter();
        let encoded = encode_blocks(index, directory, edges, out, &finishing, |batch| {
            // The batch's blocks, a run per process that holds them.
            let mut compressed = Vec::with_capacity((batch.end - batch.start) as usize);
            let mut block = batch.start;
            while block < batch.end {
                let holder = owner(block);
                let mut end = block + 1;
                while end < batch.end && owner(end) == holder {
                    end += 1;
                }
                if holder == 0 {
                    compressed.extend(compress(block..end)?);
                } else {
                    compressed.extend(cluster.receive_blocks(holder));
                }
                block = end;
            }
            Ok(compressed)
        })?;
        Ok(encoded.map(|(_, checksum)| checksum))
    });
    match written {
        Ok(Some(written)) => Ok(written),
        Ok(None) => Err("the table was not written".into()),
        Err(error) => Err(format!(
            "cannot write the table of {}: {error}",
            index.board()
        )),
    }
}

/// The check of the table before it is put in place, when the processes
/// each held a part of the index, so that none can number every state
/// (`verify::spot_check` numbers them with a whole index): the table at `path` holds `counts`
/// (positions and ko states) and `edges`, and each of `states` (canonical
/// states of the board; the start position and its children are added)
/// holds the value its children's values give, all read through the
/// prober. Returns the states checked.
fn spot_check_states(
    path: &std::path::Path,
    counts: StateCounts,
    edges: u64,
    states: &[State],
) -> Result<u64, String> {
    let table = Table::open(path).map_err(|e| e.to_string())?;
    let header = table.header();
    if (header.positions, header.ko_states, header.edges)
        != (counts.positions, counts.ko_states, edges)
    {
        return Err(format!(
            "it holds {} positions, {} ko states and {} edges where the solve has {}, {} and {edges}",
            header.positions, header.ko_states, header.edges, counts.positions, counts.ko_states
        ));
    }
    let board = table.board();
    let start = State::start();
    let mut checked: Vec<State> = vec![start];
    checked.extend(start.legal_moves(&board).into_iter().filter_map(|mv| {
        match start.play(&board, mv) {
            Some(Child::State(child)) => Some(child),
            _ => None,
        }
    }));
    checked.extend_from_slice(states);
    checked.par_iter().try_for_each(|state| {
        let stored = table.probe(state).map_err(|e| e.to_string())?;
        let mut ends = Vec::new();
        let mut children = Vec::new();
        for mv in state.legal_moves(&board) {
            match state.play(&board, mv) {
                Some(Child::End { margin }) => ends.push(margin),
                Some(Child::State(child)) => {
                    children.push(table.probe(&child).map_err(|e| e.to_string())?)
                }
                None => return Err(format!("a legal move of {state:?} is illegal")),
            }
        }
        // A child reached by two moves counts once in minimax's edges,
        // twice here; the value is the same.
        let (expected, _) = minimax(&ends, children.into_iter());
        if stored != expected {
            return Err(format!(
                "state {state:?} stores {stored} but its children give {expected}"
            ));
        }
        Ok(())
    })?;
    Ok(checked.len() as u64)
}
