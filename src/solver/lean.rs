//! The lean solve: the phases of the retrograde analysis
//! (`docs/rules.md#how-one-pass-computes-all-of-this`) in one byte per state.
//!
//! While threshold `m` is solved, a state needs only whether it is won,
//! whether it is lost and how many children are not yet won (`tally`). The
//! rest is written out, never read back during the solve:
//!
//! - **Seeds.** Counting children puts each state after a pass, by the
//!   margin a second pass ends the game with, in one of `2N + 1` spools;
//!   threshold `m` reads the spools of margins `m` (won at depth 1) and `-m`
//!   (one more child won).
//! - **Values.** A layer is read in state order, so the states it holds
//!   leave in ascending runs: each one's number and whether it became won,
//!   lost or both, filed by range of state numbers in one spool per
//!   partition, under a mark naming the threshold and depth. Those marks and
//!   runs are A, dA, B and dB. Once the solve is done, a partition at a time
//!   is turned back into values (`LoggedValues`) for the table writer.
//!
//! The spools live in a folder of their own on disk (or in memory for small
//! boards); the solve's memory is the index, a byte per state and a bit per
//! 64 states for the layers.
//!
//! Each phase has a file of its own: `count_children` (phase 2),
//! `retrograde` (phase 3, a threshold's seeds and layers) and
//! `logged_values` (the values turned back for the writer). This file runs
//! them in order (`solve`), resuming from a checkpoint where one was saved
//! (`resume`) and saving them between thresholds (`offer`).

use std::io;
use std::ops::Range;
use std::sync::atomic::AtomicU64;
use std::sync::Mutex;
use std::time::Instant;

use super::spool::{Spool, SpoolFolder};
use super::{
    cell, spool_error, LayerFlags, Observer, Phase, SolveError, SolveProgress, SolveStats,
    FLAG_WORDS_PER_TASK, MIN_PARTITION_SHIFT, STATES_PER_FLAG,
};
use crate::index::StateIndex;
use crate::rules::board::Board;
use crate::solver::checkpoint::{PartitionMark, Saved, WorkFolder};

use super::count_children::count_children;
use super::exchange::{Alone, Exchange};
pub use super::logged_values::LoggedValues;
use super::retrograde::*;
use super::share::{Share, Whole};

/// States of a layer one process works between two exchanges of updates
/// when processes share a board: 2^20 at most, so that the updates a
/// round holds, sent and received, stay a fixed cost of some tens of MiB
/// (8 bytes an update, about 8 updates a state) whatever the board.
pub(super) const STATES_PER_ROUND: u64 = 1 << 20;

/// The states of a partition of the values' spools by default: a power of
/// two, about one 256th of the states (at least `MIN_PARTITION_SHIFT`), so
/// that the few partitions the writer holds turned back into 4-byte cells
/// take about a tenth of a byte per state, and the spools are a few hundred
/// files at most.
pub(super) fn partition_shift(states: u64) -> u32 {
    (states / 256)
        .max(1)
        .next_power_of_two()
        .trailing_zeros()
        .max(MIN_PARTITION_SHIFT)
}

/// Where a lean solve keeps its spools: in memory, or in a build's
/// working folder, which also holds its checkpoints.
#[derive(Clone, Copy)]
pub enum Workspace<'a> {
    Memory,
    Folder(&'a WorkFolder),
    /// One process's working folder in a solve shared by several: every
    /// process saves at the same levels, and all resume from the last
    /// checkpoint every one of them completed.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    Shared(&'a WorkFolder),
}

/// The spools' names: seeds by margin, values by partition.
fn seed_name(margin: i32) -> String {
    format!("seeds.{margin}")
}

fn value_name(partition: usize) -> String {
    format!("values.{partition}")
}

/// A solve taken up from a checkpoint: its tallies, spools and progress.
type Resumed = (Vec<AtomicU64>, Vec<Spool>, ValueLog, SolveProgress);

/// A solve taken up from a checkpoint.
fn resume(folder: &SpoolFolder, saved: Saved, points: i32, states: u64) -> Result<Resumed, String> {
    let margins = (2 * points + 1) as usize;
    let partitions = (states >> saved.shift) as usize + 1;
    if saved.spools.len() != margins + partitions || saved.partitions.len() != partitions {
        return Err("its spools do not fit the board".into());
    }
    let reopen = |name: String, mark| folder.reopen(&name, mark).map_err(|e| e.to_string());
    let seeds = (0..margins)
        .map(|m| reopen(seed_name(m as i32 - points), saved.spools[m]))
        .collect::<Result<Vec<_>, _>>()?;
    let spools = (0..partitions)
        .map(|p| reopen(value_name(p), saved.spools[margins + p]))
        .collect::<Result<Vec<_>, _>>()?;
    let log = ValueLog {
        shift: saved.shift,
        spools,
        layer: saved.partitions.iter().map(|p| p.layer).collect(),
        last: saved.partitions.iter().map(|p| p.last).collect(),
    };
    Ok((saved.tallies, seeds, log, saved.progress))
}

/// Offers the solve at a level boundary, or between two layers of a
/// level, to the working folder's checkpoints. In a shared solve the
/// processes save together, when any of them is due, each setting its last
/// checkpoint aside until every one has saved the new one; they save at
/// level boundaries only.
fn offer(
    work: Workspace<'_>,
    exchange: &dyn Exchange,
    (board, states): (Board, u64),
    progress: SolveProgress,
    tallies: &[AtomicU64],
    seeds: &mut [Spool],
    log: &mut ValueLog,
) -> Result<(), SolveError> {
    let shift = log.shift;
    let mark_spools = || {
        let mut marks = Vec::with_capacity(seeds.len() + log.spools.len());
        for spool in seeds.iter_mut().chain(log.spools.iter_mut()) {
            spool.sync()?;
            marks.push(spool.mark()?);
        }
        let partitions = log
            .layer
            .iter()
            .zip(&log.last)
            .map(|(&layer, &last)| PartitionMark { layer, last })
            .collect();
        Ok((marks, partitions))
    };
    match work {
        Workspace::Memory => {}
        Workspace::Folder(work) => work.offer(board, states, progress, shift, mark_spools, tallies),
        // The processes of a shared solve save at level boundaries only.
        Workspace::Shared(_) if progress.next_depth > 0 => {}
        Workspace::Shared(work) => {
            let mut due = [work.due() as u64];
            exchange.max(&mut due)?;
            if due[0] > 0 {
                let saved = work.keep_previous().is_ok()
                    && work.save(board, states, progress, shift, mark_spools, tallies);
                let mut failed = [!saved as u64];
                exchange.sum(&mut failed)?;
                if failed[0] == 0 {
                    work.drop_previous();
                }
            }
        }
    }
    Ok(())
}

/// Where a shared solve resumes: the latest level every process has a
/// checkpoint of (its last, or the one before), if each one's checks in
/// full; otherwise every process starts afresh.
fn resume_shared(
    work: &WorkFolder,
    folder: &SpoolFolder,
    exchange: &dyn Exchange,
    (board, states): (Board, u64),
    points: i32,
) -> Result<Option<Resumed>, SolveError> {
    // Levels run from N down to -N - 1: bit `N - level` for each.
    let mut have = [0u64; 64];
    for level in work.saved_levels() {
        if (-points - 1..=points).contains(&level) {
            have[(points - level) as usize] = 1;
        }
    }
    exchange.sum(&mut have)?;
    let everyone = exchange.processes() as u64;
    // The most advanced: the lowest level.
    let level = (0..=2 * points + 1)
        .rev()
        .find(|&bit| have[bit as usize] == everyone)
        .map(|bit| points - bit);
    let resumed = level.map(|level| {
        work.load_level(board, states, level)
            .and_then(|saved| resume(folder, saved, points, states))
    });
    let mut failed = [matches!(resumed, Some(Err(_))) as u64];
    exchange.sum(&mut failed)?;
    match resumed {
        Some(Ok(resumed)) if failed[0] == 0 => Ok(Some(resumed)),
        other => {
            match other {
                Some(Err(reason)) => {
                    log::warn!("{board}: ignoring the checkpoint: {reason}; starting afresh")
                }
                _ if level.is_some() => log::warn!(
                    "{board}: another process cannot resume from its checkpoint; starting afresh"
                ),
                _ if have.iter().any(|&n| n > 0) => log::warn!(
                    "{board}: the processes have no checkpoint in common; starting afresh"
                ),
                _ => {}
            }
            work.clear();
            Ok(None)
        }
    }
}

/// Solves every state of `board` in a byte per state, keeping seeds and
/// values in spools in `work`, the values in partitions of `2^shift`
/// states (by default about a 256th of the states; at least
/// `MIN_PARTITION_SHIFT`). In a working folder the solve resumes from its
/// checkpoint if there is one, and offers it one after counting children,
/// after each layer and after each level: the tallies and spools at such a
/// boundary (with the level and layer) determine the rest of the solve, so
/// a resumed solve ends exactly as an uninterrupted one.
pub fn solve(
    board: Board,
    work: Workspace<'_>,
    observer: &dyn Observer,
    shift: Option<u32>,
) -> Result<(StateIndex, LoggedValues, SolveStats), SolveError> {
    let started = Instant::now();
    observer.phase_started(Phase::Enumerate, 0);
    let index = StateIndex::build(board).ok_or(SolveError::TooLarge {
        points: board.points(),
    })?;
    let enumerate_seconds = started.elapsed().as_secs_f64();
    if observer.cancelled() {
        return Err(SolveError::Cancelled);
    }
    let share = Whole::new(&index);
    let (values, mut stats) = solve_share(&index, &share, &Alone, work, observer, shift)?;
    stats.enumerate_seconds = enumerate_seconds;
    Ok((index, values, stats))
}

/// A layer's tasks (`0..tasks`), in rounds between exchanges: one round
/// for a single process; for several, runs of tasks that hold at most
/// `STATES_PER_ROUND` states of the layer (counted from above: 64 for
/// each group of the layer flags), so that the updates a round holds stay
/// a fixed cost, and a sparse layer costs one exchange. Every process
/// runs as many rounds as the one that needs the most, the others' last
/// ones empty.
fn rounds(
    exchange: &dyn Exchange,
    flags: &LayerFlags,
    tasks: usize,
) -> Result<Vec<Range<usize>>, SolveError> {
    if exchange.processes() == 1 {
        return Ok(std::iter::once(0..tasks).collect());
    }
    let mut starts = vec![0];
    let mut held = 0;
    for task in 0..tasks {
        let states = task_groups(flags, task) * STATES_PER_FLAG;
        if held + states > STATES_PER_ROUND {
            starts.push(task);
            held = 0;
        }
        held += states;
    }
    let mut most = [starts.len() as u64];
    exchange.max(&mut most)?;
    starts.resize(most[0] as usize, tasks);
    starts.push(tasks);
    Ok(starts.windows(2).map(|w| w[0]..w[1]).collect())
}

/// Whether any process was asked to stop: every process asks at the same
/// points of the solve, so that all stop together.
fn cancelled(exchange: &dyn Exchange, observer: &dyn Observer) -> Result<bool, SolveError> {
    let mut flag = [observer.cancelled() as u64];
    exchange.sum(&mut flag)?;
    Ok(flag[0] > 0)
}

/// Phases 2 and 3 for the states of `share` (the whole board, or one
/// process's part of it, see `share`), with `index` built: as `solve`, the
/// updates for other processes' states sent through `exchange` after each
/// round of a layer's tasks. The values come back in `share`'s local
/// numbers; the figures are the whole board's.
pub fn solve_share(
    index: &StateIndex,
    share: &impl Share,
    exchange: &dyn Exchange,
    work: Workspace<'_>,
    observer: &dyn Observer,
    shift: Option<u32>,
) -> Result<(LoggedValues, SolveStats), SolveError> {
    let mut stats = SolveStats::default();
    let board = *index.board();
    let points = board.points() as i32;
    let folder = match work {
        Workspace::Memory => SpoolFolder::memory(),
        Workspace::Folder(work) | Workspace::Shared(work) => work.spools(),
    };
    let counts = index.counts();
    let states = share.states();

    let resumed = match work {
        Workspace::Folder(work) => work.load(board, states).and_then(|saved| {
            match resume(&folder, saved, points, states) {
                Ok(resumed) => Some(resumed),
                Err(reason) => {
                    log::warn!("{board}: ignoring the checkpoint: {reason}; starting afresh");
                    work.clear();
                    None
                }
            }
        }),
        Workspace::Shared(work) => resume_shared(work, &folder, exchange, (board, states), points)?,
        Workspace::Memory => None,
    };
    let (tallies, mut seeds, mut log, mut progress) = match resumed {
        Some(resumed) => resumed,
        None => {
            let started = Instant::now();
            let own = share.positions();
            observer.phase_started(Phase::CountChildren, own.end - own.start);
            let tallies: Vec<AtomicU64> = {
                let count = states.div_ceil(8) as usize;
                let mut words = Vec::new();
                words
                    .try_reserve_exact(count)
                    .map_err(|_| SolveError::OutOfMemory {
                        what: "the tallies (a byte a state)",
                        bytes: 8 * count as u64,
                    })?;
                crate::common::huge_pages::advise(words.spare_capacity_mut());
                words.resize_with(states.div_ceil(8) as usize, || AtomicU64::new(0));
                words
            };
            let mut seeds: Vec<Spool> = (-points..=points)
                .map(|margin| folder.spool(&seed_name(margin)))
                .collect::<io::Result<_>>()
                .map_err(spool_error)?;
            let mut edges = [count_children(
                index, share, &tallies, &mut seeds, observer,
            )?];
            exchange.sum(&mut edges)?;
            stats.count_seconds = started.elapsed().as_secs_f64();
            if cancelled(exchange, observer)? {
                return Err(SolveError::Cancelled);
            }
            let shift = shift
                .unwrap_or_else(|| partition_shift(states))
                .max(MIN_PARTITION_SHIFT);
            let mut log = ValueLog::new(states, shift, &folder)?;
            let progress = SolveProgress {
                next_level: points,
                edges: edges[0],
                ..SolveProgress::default()
            };
            offer(
                work,
                exchange,
                (board, states),
                progress,
                &tallies,
                &mut seeds,
                &mut log,
            )?;
            (tallies, seeds, log, progress)
        }
    };

    let started = Instant::now();
    observer.phase_started(Phase::Retrograde, 2 * counts.states);
    if progress.flips > 0 {
        observer.resumed(progress.flips);
    }
    let mut flags = LayerFlags::new(states);
    let tasks = flags.current.len().div_ceil(FLAG_WORDS_PER_TASK);
    let mut outgoing: Vec<Vec<u64>> = vec![Vec::new(); exchange.processes()];
    for level in (-points..=progress.next_level).rev() {
        observer.level_started(level);
        let (mut waiting, mut depth) = if progress.next_depth > 0 {
            // Resumed inside the level: its next layer is in the tallies.
            let mut waiting = [flags.mark_pending(&tallies, progress.next_depth & 1)];
            exchange.sum(&mut waiting)?;
            (waiting[0], progress.next_depth)
        } else {
            let mut waiting = [seed_level(&tallies, &flags, &mut seeds, level, points)?];
            exchange.sum(&mut waiting)?;
            (waiting[0], 1)
        };
        flags.advance();
        let mut level_flips = progress.level_flips;
        while waiting > 0 {
            if cancelled(exchange, observer)? {
                return Err(SolveError::Cancelled);
            }
            if depth + 1 > cell::MAX_MOVER_DEPTH {
                return Err(SolveError::DepthOverflow {
                    level,
                    depth: depth + 1,
                });
            }
            let mut counted = [0u64; 2];
            for round in rounds(exchange, &flags, tasks)? {
                let (here, next) = propagate_layer(
                    index,
                    share,
                    &tallies,
                    &flags,
                    &mut log,
                    (level, depth),
                    round,
                    &mut outgoing,
                )?;
                counted[0] += here;
                counted[1] += next;
                if exchange.processes() > 1 {
                    let received = exchange.all_to_all(&mut outgoing)?;
                    counted[1] += apply_received(index, share, &tallies, &flags, depth, &received)?;
                }
            }
            exchange.sum(&mut counted)?;
            let [here, next] = counted;
            debug_assert_eq!(here, waiting);
            flags.advance();
            level_flips += here;
            progress.flips += here;
            observer.advanced(here);
            progress.largest_layer = progress.largest_layer.max(here);
            progress.largest_depth = progress.largest_depth.max(depth);
            waiting = next;
            depth += 1;
            if waiting > 0 {
                progress.next_level = level;
                progress.next_depth = depth;
                progress.level_flips = level_flips;
                offer(
                    work,
                    exchange,
                    (board, states),
                    progress,
                    &tallies,
                    &mut seeds,
                    &mut log,
                )?;
            }
        }
        progress.next_level = level - 1;
        progress.next_depth = 0;
        progress.level_flips = 0;
        observer.level_finished(level, depth - 1, level_flips);
        offer(
            work,
            exchange,
            (board, states),
            progress,
            &tallies,
            &mut seeds,
            &mut log,
        )?;
    }
    drop(tallies);
    log::info!(
        "{board}: {} flips, recorded in {} bytes of values and {} bytes of seeds",
        progress.flips,
        log.spools.iter().map(Spool::len).sum::<u64>(),
        seeds.iter().map(Spool::len).sum::<u64>()
    );
    drop(seeds);
    stats.edges = progress.edges;
    stats.flips = progress.flips;
    stats.largest_layer = progress.largest_layer;
    stats.largest_depth = progress.largest_depth;
    stats.retrograde_seconds = started.elapsed().as_secs_f64();
    let values = LoggedValues {
        points,
        shift: log.shift,
        spools: log.spools.into_iter().map(Mutex::new).collect(),
        cache: Mutex::new(Vec::new()),
    };
    Ok((values, stats))
}
