//! The lean solve: the phases of SPEC section 3 in one byte per state.
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

use std::io;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rayon::prelude::*;

use super::spool::{encode, Spool, SpoolFolder};
use super::{
    bits_of, cell, count_position, push_updates, CountScratch, LayerFlags, Observer, Phase,
    PredecessorScratch, SolveError, SolveProgress, SolveStats, ValueRun, CHILD_WON,
    STATES_PER_FLAG, STATES_PER_FLAG_WORD, UPDATE_BATCH,
};
use crate::board::Board;
use crate::checkpoint::{PartitionMark, Saved, WorkFolder};
use crate::index::{PositionNumber, StateIndex, StateNumber};
use crate::prefetch::prefetch_element;
use crate::value::Value;

use super::tally;

/// Flag words (4,096 states each) one task reads in a layer: a task's
/// states all lie in one partition of the values' spools.
const FLAG_WORDS_PER_TASK: usize = 16;
/// Positions one task counts children of.
const POSITIONS_PER_TASK: u64 = 4096;

/// A spool's write failed.
fn spool_error(error: io::Error) -> SolveError {
    SolveError::Spool(error.to_string())
}

/// The fewest states of a partition of the values' spools, as a power of
/// two: a task's flag words, so that a task's states lie in one partition.
pub const MIN_PARTITION_SHIFT: u32 =
    (FLAG_WORDS_PER_TASK as u64 * STATES_PER_FLAG_WORD).trailing_zeros();

/// The states of a partition of the values' spools by default: a power of
/// two, about one 256th of the states (at least `MIN_PARTITION_SHIFT`), so
/// that the few partitions the writer holds turned back into 4-byte cells
/// take about a tenth of a byte per state, and the spools are a few hundred
/// files at most.
fn partition_shift(states: u64) -> u32 {
    (states / 256)
        .max(1)
        .next_power_of_two()
        .trailing_zeros()
        .max(MIN_PARTITION_SHIFT)
}

/// The seeds of one run of positions: for each margin (offset by `N`), the
/// passed states a second pass ends with it, as (first number, last
/// number, the gaps after the first as varints).
type SeedRun = Vec<Option<(StateNumber, StateNumber, Vec<u8>)>>;

/// Phase 2 of the lean solve: every state's tally, and the seeds of every
/// margin; returns the edges.
fn count_children(
    index: &StateIndex,
    tallies: &[AtomicU64],
    seeds: &mut [Spool],
    observer: &dyn Observer,
) -> Result<u64, SolveError> {
    let points = index.board().points() as i32;
    let positions = index.counts().positions;
    let tasks = positions.div_ceil(POSITIONS_PER_TASK);
    let batch = 64 * rayon::current_num_threads() as u64;
    let mut last: Vec<StateNumber> = vec![0; seeds.len()];
    let mut edges = 0u64;
    for first_task in (0..tasks).step_by(batch as usize) {
        let counted: Vec<Result<(SeedRun, u64), SolveError>> = (first_task
            ..(first_task + batch).min(tasks))
            .into_par_iter()
            .map_init(CountScratch::default, |scratch, task| {
                let first = task * POSITIONS_PER_TASK;
                let last = (first + POSITIONS_PER_TASK).min(positions);
                let mut run: SeedRun = vec![None; (2 * points + 1) as usize];
                let mut edges = 0u64;
                let mut too_many = None;
                for entry in index.positions(first).take((last - first) as usize) {
                    edges += count_position(index, &entry, scratch, |number, children, margin| {
                        if children > tally::MAX_CHILDREN {
                            too_many = Some(children);
                            return;
                        }
                        let (word, shift) = (number / 8, 8 * (number % 8));
                        tallies[word as usize]
                            .fetch_or((tally::fresh(children) as u64) << shift, Ordering::Relaxed);
                        if let Some(margin) = margin {
                            match &mut run[(margin + points) as usize] {
                                Some((_, previous, gaps)) => {
                                    encode(gaps, number - *previous);
                                    *previous = number;
                                }
                                slot => *slot = Some((number, number, Vec::new())),
                            }
                        }
                    });
                }
                observer.advanced(last - first);
                match too_many {
                    Some(_) => Err(SolveError::TooLarge {
                        points: points as usize,
                    }),
                    None => Ok((run, edges)),
                }
            })
            .collect();
        for result in counted {
            let (run, run_edges) = result?;
            edges += run_edges;
            for (margin, seeds_of) in run.into_iter().enumerate() {
                if let Some((first, previous, gaps)) = seeds_of {
                    let spool = &mut seeds[margin];
                    spool.push(first - last[margin]).map_err(spool_error)?;
                    spool.push_bytes(&gaps).map_err(spool_error)?;
                    last[margin] = previous;
                }
            }
        }
    }
    Ok(edges)
}

/// Reads a seed spool back: the numbers of its states, a batch at a time.
fn read_seeds(
    spool: &mut Spool,
    mut apply: impl FnMut(&[StateNumber]) -> u64,
) -> Result<u64, SolveError> {
    const BATCH: usize = 1 << 20;
    let mut reader = spool.reader().map_err(spool_error)?;
    let mut numbers = Vec::with_capacity(BATCH);
    let mut number = 0;
    let mut decided = 0;
    while let Some(gap) = reader.next_value().map_err(spool_error)? {
        number += gap;
        numbers.push(number);
        if numbers.len() == BATCH {
            decided += apply(&numbers);
            numbers.clear();
        }
    }
    decided += apply(&numbers);
    Ok(decided)
}

/// Phase 3, first step of a level: the seeds of margin `level` are won at
/// depth 1, those of margin `-level` have one more child won (and are lost
/// at depth 1 if it was the last). Returns the flips.
fn seed_level(
    tallies: &[AtomicU64],
    flags: &LayerFlags,
    seeds: &mut [Spool],
    level: i32,
    points: i32,
) -> Result<u64, SolveError> {
    const PARITY: u32 = 1;
    // A batch of seeds changed by `decide`, those it decides marked in the
    // next layer (the first, at depth 1).
    let apply = |decide: fn(&[AtomicU64], u64, u32) -> bool| {
        move |numbers: &[StateNumber]| {
            numbers
                .par_iter()
                .filter(|&&n| {
                    let decided = decide(tallies, n, PARITY);
                    if decided {
                        flags.mark_next(n);
                    }
                    decided
                })
                .count() as u64
        }
    };
    let won = read_seeds(&mut seeds[(level + points) as usize], apply(tally::set_won))?;
    let lost = read_seeds(
        &mut seeds[(points - level) as usize],
        apply(tally::child_won),
    )?;
    Ok(won + lost)
}

/// What one task of a layer found: the layer's states it read, those it
/// decided for the next layer, and its states' record for the values'
/// spools (the first state and its kind, the last state, and the rest as
/// varints of `gap << 2 | kind`).
struct TaskRecord {
    here: u64,
    decided: u64,
    first: Option<(StateNumber, u64)>,
    last: StateNumber,
    rest: Vec<u8>,
}

/// Kinds of a recorded state: won, lost, or both, in the layer.
const KIND_WON: u64 = 1;
const KIND_LOST: u64 = 2;

/// The values' spools: one per partition of the state numbers.
struct ValueLog {
    shift: u32,
    spools: Vec<Spool>,
    /// The layer each partition last recorded a state of, and that state.
    layer: Vec<Option<(i32, u32)>>,
    last: Vec<StateNumber>,
}

impl ValueLog {
    fn new(states: u64, shift: u32, folder: &SpoolFolder) -> Result<ValueLog, SolveError> {
        let partitions = (states >> shift) as usize + 1;
        Ok(ValueLog {
            shift,
            spools: (0..partitions)
                .map(|p| folder.spool(&format!("values.{p}")))
                .collect::<io::Result<_>>()
                .map_err(spool_error)?,
            layer: vec![None; partitions],
            last: vec![0; partitions],
        })
    }

    /// Appends a task's record of layer (`level`, `depth`).
    fn append(&mut self, level: i32, depth: u32, points: i32, task: TaskRecord) -> io::Result<()> {
        let Some((first, kind)) = task.first else {
            return Ok(());
        };
        let p = (first >> self.shift) as usize;
        let spool = &mut self.spools[p];
        if self.layer[p] != Some((level, depth)) {
            // A mark: 0, then the level (offset by N) and the depth.
            spool.push(0)?;
            spool.push((level + points) as u64)?;
            spool.push(depth as u64)?;
            self.layer[p] = Some((level, depth));
            self.last[p] = (p as u64) << self.shift;
        }
        spool.push((first - self.last[p]) << 2 | kind)?;
        spool.push_bytes(&task.rest)?;
        self.last[p] = task.last;
        Ok(())
    }
}

/// Phase 3, one layer: every state decided at threshold `level` and depth
/// `depth` updates its predecessors, marking those decided at `depth + 1`
/// in the next layer, and is recorded in the values' spools. Returns
/// (states of this layer, states of the next).
fn propagate_layer(
    index: &StateIndex,
    tallies: &[AtomicU64],
    flags: &LayerFlags,
    log: &mut ValueLog,
    level: i32,
    depth: u32,
) -> Result<(u64, u64), SolveError> {
    let points = index.board().points() as i32;
    let parity = depth & 1;
    let next_parity = parity ^ 1;
    let states = index.counts().states;
    let words = flags.current.len();
    let tasks = words.div_ceil(FLAG_WORDS_PER_TASK);
    let batch = 16 * rayon::current_num_threads();
    let (mut here, mut decided) = (0, 0);
    let apply = |updates: &mut Vec<u64>, count: usize| {
        let mut decided = 0;
        for &update in &updates[..count] {
            let number = update & !CHILD_WON;
            let now = if update & CHILD_WON != 0 {
                tally::child_won(tallies, number, next_parity)
            } else {
                tally::set_won(tallies, number, next_parity)
            };
            if now {
                flags.mark_next(number);
                decided += 1;
            }
        }
        updates.drain(..count);
        decided
    };
    for first_task in (0..tasks).step_by(batch) {
        let records: Vec<TaskRecord> = (first_task..(first_task + batch).min(tasks))
            .into_par_iter()
            .filter(|&task| {
                let w = task * FLAG_WORDS_PER_TASK;
                flags.current[w..(w + FLAG_WORDS_PER_TASK).min(words)]
                    .iter()
                    .any(|word| word.load(Ordering::Relaxed) != 0)
            })
            .map_init(
                || {
                    (
                        PredecessorScratch::default(),
                        Vec::<u64>::with_capacity(2 * UPDATE_BATCH),
                        index.state_cursor(),
                    )
                },
                |(scratch, updates, cursor), task| {
                    let (mut here, mut decided) = (0, 0);
                    let mut first = None;
                    let mut last = 0;
                    let mut rest = Vec::new();
                    let w0 = task * FLAG_WORDS_PER_TASK;
                    for w in w0..(w0 + FLAG_WORDS_PER_TASK).min(words) {
                        let mut bits = flags.current[w].load(Ordering::Relaxed);
                        let group_first = |bits: u64| {
                            w as StateNumber * STATES_PER_FLAG_WORD
                                + bits.trailing_zeros() as StateNumber * STATES_PER_FLAG
                        };
                        while bits != 0 {
                            let block = group_first(bits);
                            bits &= bits - 1;
                            // The next group's tallies are read after this
                            // group's work: ask for them now.
                            if bits != 0 {
                                let next = group_first(bits);
                                prefetch_element(tallies, (next / 8) as usize);
                                index.prefetch_state(next);
                            }
                            let end = (block + STATES_PER_FLAG).min(states);
                            let run = &tallies[(block / 8) as usize..end.div_ceil(8) as usize];
                            let mut hits = tally::pending(run, parity);
                            if end - block < STATES_PER_FLAG {
                                hits &= (1u64 << (end - block)) - 1;
                            }
                            let group = bits_of(hits).map(|i| {
                                let number = block + i as StateNumber;
                                let t = tally::get(tallies, number);
                                let (won, lost) =
                                    (tally::won_in(t, parity), tally::lost_in(t, parity));
                                let kind = if won { KIND_WON } else { 0 }
                                    | if lost { KIND_LOST } else { 0 };
                                match first {
                                    None => first = Some((number, kind)),
                                    Some(_) => encode(&mut rest, (number - last) << 2 | kind),
                                }
                                last = number;
                                tally::settle(tallies, number, won, lost);
                                (number, won, lost)
                            });
                            let waiting = updates.len();
                            here += push_updates(index, cursor, group, scratch, updates, |p| {
                                prefetch_element(tallies, (p / 8) as usize)
                            });
                            // The updates asked for before this group have
                            // had its work to arrive.
                            if waiting >= UPDATE_BATCH {
                                decided += apply(updates, waiting);
                            }
                        }
                    }
                    let waiting = updates.len();
                    decided += apply(updates, waiting);
                    TaskRecord {
                        here,
                        decided,
                        first,
                        last,
                        rest,
                    }
                },
            )
            .collect();
        for record in records {
            here += record.here;
            decided += record.decided;
            log.append(level, depth, points, record)
                .map_err(spool_error)?;
        }
    }
    Ok((here, decided))
}

/// A board solved by the lean solve: the index, and the values in spools.
pub struct LoggedValues {
    points: i32,
    shift: u32,
    spools: Vec<Mutex<Spool>>,
    /// Partitions turned back into cells lately, the latest last.
    cache: Mutex<Vec<(usize, Arc<Vec<u32>>)>>,
}

/// Partitions kept turned back into cells: a batch of the writer's reads
/// the plain states of one or two and the ko states of one or two.
const CACHED_PARTITIONS: usize = 4;

/// Varints a partition's decoding reads at once.
const DECODE_BATCH: usize = 1024;

impl LoggedValues {
    /// The cells (see `cell`) of partition `p`: A, dA, B and dB of each of
    /// its states, from its spool. A partition not yet turned back is
    /// decoded together with the next one, one on each core: the writer
    /// asks for them in order.
    fn partition(&self, p: usize) -> io::Result<Arc<Vec<u32>>> {
        let cached = |q: usize| {
            let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            cache
                .iter()
                .find(|(r, _)| *r == q)
                .map(|(_, cells)| cells.clone())
        };
        if let Some(cells) = cached(p) {
            return Ok(cells);
        }
        let next = p + 1;
        let ahead = next < self.spools.len() && cached(next).is_none();
        let (cells, next_cells) = rayon::join(
            || self.decode(p),
            || ahead.then(|| self.decode(next)).transpose(),
        );
        let cells = Arc::new(cells?);
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        for (q, decoded) in [(p, Some(cells.clone())), (next, next_cells?.map(Arc::new))] {
            if let Some(decoded) = decoded {
                if cache.len() >= CACHED_PARTITIONS {
                    cache.remove(0);
                }
                cache.push((q, decoded));
            }
        }
        Ok(cells)
    }

    /// Reads partition `p`'s spool into cells. Its varints are read a
    /// batch at a time; the cells a batch sets are asked for before any is
    /// set, since a partition's cells are more than the caches hold.
    fn decode(&self, p: usize) -> io::Result<Vec<u32>> {
        let mut cells = vec![0u32; 1 << self.shift];
        let mut spool = self.spools[p].lock().unwrap_or_else(|e| e.into_inner());
        let mut reader = spool.reader()?;
        let damaged = |what: &str| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("the values' spool {p} is damaged: {what}"),
            )
        };
        // The layer's code and depth, and the last state read, relative to
        // the partition's first.
        let (mut code, mut depth, mut offset) = (0, 0, 0u64);
        // Varints of a mark still to come: 2 after its 0, 1 after its level.
        let mut mark_left = 0;
        let mut varints = Vec::with_capacity(DECODE_BATCH);
        let mut updates: Vec<(usize, u32, u32, u64)> = Vec::with_capacity(DECODE_BATCH);
        loop {
            varints.clear();
            reader.next_values(&mut varints, DECODE_BATCH)?;
            if varints.is_empty() {
                break;
            }
            updates.clear();
            for &value in &varints {
                match mark_left {
                    2 => {
                        let level = value as i64 - self.points as i64;
                        if level.unsigned_abs() > self.points as u64 {
                            return Err(damaged("a level off the board"));
                        }
                        code = cell::margin_code(level as i32, self.points);
                        mark_left = 1;
                    }
                    1 => {
                        if value == 0 || value > cell::MAX_MOVER_DEPTH as u64 {
                            return Err(damaged("a depth out of range"));
                        }
                        depth = value as u32;
                        offset = 0;
                        mark_left = 0;
                    }
                    _ if value == 0 => mark_left = 2,
                    _ => {
                        offset = offset
                            .checked_add(value >> 2)
                            .filter(|&n| n < cells.len() as u64)
                            .ok_or_else(|| damaged("a state past its partition"))?;
                        prefetch_element(&cells, offset as usize);
                        updates.push((offset as usize, code, depth, value & 3));
                    }
                }
            }
            for &(i, code, depth, kind) in &updates {
                let c = &mut cells[i];
                if kind & KIND_WON != 0 {
                    *c = cell::with_mover(*c, code, depth).unwrap_or(*c);
                }
                if kind & KIND_LOST != 0 {
                    *c = cell::with_opponent(*c, code, depth);
                }
            }
        }
        if mark_left != 0 {
            return Err(damaged("a mark cut short"));
        }
        Ok(cells)
    }

    /// The cells of states `numbers`.
    fn cells(&self, numbers: Range<StateNumber>) -> io::Result<Vec<u32>> {
        let mut out = Vec::with_capacity((numbers.end - numbers.start) as usize);
        let mut n = numbers.start;
        while n < numbers.end {
            let p = (n >> self.shift) as usize;
            let base = (p as u64) << self.shift;
            let end = numbers.end.min(base + (1 << self.shift));
            let cells = self.partition(p)?;
            out.extend_from_slice(&cells[(n - base) as usize..(end - base) as usize]);
            n = end;
        }
        Ok(out)
    }

    /// The value of state `number`.
    pub fn value(&self, number: StateNumber) -> io::Result<Value> {
        Ok(super::cell_value(
            self.cells(number..number + 1)?[0],
            self.points,
        ))
    }

    /// The values of the states of positions `positions`, read at once.
    pub fn values_of(
        &self,
        index: &StateIndex,
        positions: Range<PositionNumber>,
    ) -> io::Result<ValueRun> {
        let (plain, ko) = index.state_runs(positions);
        Ok(ValueRun {
            points: self.points,
            plain_start: plain.start,
            plain: self.cells(plain)?,
            ko_start: ko.start,
            ko: self.cells(ko)?,
        })
    }

    /// Bytes held in memory: the cached partitions (and the spools, if they
    /// are in memory).
    pub fn memory_bytes(&self) -> usize {
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.len() * (4 << self.shift)
    }
}

/// Where a lean solve keeps its spools: in memory, or in a build's
/// working folder, which also holds its checkpoints.
#[derive(Clone, Copy)]
pub enum Workspace<'a> {
    Memory,
    Folder(&'a WorkFolder),
}

/// The spools' names: seeds by margin, values by partition.
fn seed_name(margin: i32) -> String {
    format!("seeds.{margin}")
}

fn value_name(partition: usize) -> String {
    format!("values.{partition}")
}

/// A solve taken up from a checkpoint: its tallies, spools and progress.
fn resume(
    folder: &SpoolFolder,
    saved: Saved,
    points: i32,
    states: u64,
) -> Result<(Vec<AtomicU64>, Vec<Spool>, ValueLog, SolveProgress), String> {
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

/// Offers the solve at a level boundary to the working folder's
/// checkpoints.
fn offer(
    work: Workspace<'_>,
    (board, states): (Board, u64),
    progress: SolveProgress,
    tallies: &[AtomicU64],
    seeds: &mut [Spool],
    log: &mut ValueLog,
) {
    let Workspace::Folder(work) = work else {
        return;
    };
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
    work.offer(board, states, progress, shift, mark_spools, tallies);
}

/// Solves every state of `board` in a byte per state, keeping seeds and
/// values in spools in `work`, the values in partitions of `2^shift`
/// states (by default about a 256th of the states; at least
/// `MIN_PARTITION_SHIFT`). In a working folder the solve resumes from its
/// checkpoint if there is one, and offers it one after counting children
/// and after each level: the tallies and spools at a level boundary
/// determine the rest of the solve, so a resumed solve ends exactly as an
/// uninterrupted one.
pub fn solve(
    board: Board,
    work: Workspace<'_>,
    observer: &dyn Observer,
    shift: Option<u32>,
) -> Result<(StateIndex, LoggedValues, SolveStats), SolveError> {
    let mut stats = SolveStats::default();
    let points = board.points() as i32;
    let folder = match work {
        Workspace::Memory => SpoolFolder::memory(),
        Workspace::Folder(work) => work.spools(),
    };

    let started = Instant::now();
    observer.phase_started(Phase::Enumerate, 0);
    let index = StateIndex::build(board).ok_or(SolveError::TooLarge {
        points: board.points(),
    })?;
    stats.enumerate_seconds = started.elapsed().as_secs_f64();
    if observer.cancelled() {
        return Err(SolveError::Cancelled);
    }
    let counts = index.counts();

    let saved = match work {
        Workspace::Folder(work) => work.load(board, counts.states),
        Workspace::Memory => None,
    };
    let resumed = saved.and_then(
        |saved| match resume(&folder, saved, points, counts.states) {
            Ok(resumed) => Some(resumed),
            Err(reason) => {
                log::warn!("{board}: ignoring the checkpoint: {reason}; starting afresh");
                if let Workspace::Folder(work) = work {
                    work.clear();
                }
                None
            }
        },
    );
    let (tallies, mut seeds, mut log, mut progress) = match resumed {
        Some(resumed) => resumed,
        None => {
            let started = Instant::now();
            observer.phase_started(Phase::CountChildren, counts.positions);
            let tallies: Vec<AtomicU64> = {
                let mut words = Vec::with_capacity(counts.states.div_ceil(8) as usize);
                crate::huge_pages::advise(words.spare_capacity_mut());
                words.resize_with(counts.states.div_ceil(8) as usize, || AtomicU64::new(0));
                words
            };
            let mut seeds: Vec<Spool> = (-points..=points)
                .map(|margin| folder.spool(&seed_name(margin)))
                .collect::<io::Result<_>>()
                .map_err(spool_error)?;
            let edges = count_children(&index, &tallies, &mut seeds, observer)?;
            stats.count_seconds = started.elapsed().as_secs_f64();
            if observer.cancelled() {
                return Err(SolveError::Cancelled);
            }
            let shift = shift
                .unwrap_or_else(|| partition_shift(counts.states))
                .max(MIN_PARTITION_SHIFT);
            let mut log = ValueLog::new(counts.states, shift, &folder)?;
            let progress = SolveProgress {
                next_level: points,
                edges,
                ..SolveProgress::default()
            };
            offer(
                work,
                (board, counts.states),
                progress,
                &tallies,
                &mut seeds,
                &mut log,
            );
            (tallies, seeds, log, progress)
        }
    };

    let started = Instant::now();
    observer.phase_started(Phase::Retrograde, 2 * counts.states);
    observer.advanced(progress.flips);
    let mut flags = LayerFlags::new(counts.states);
    for level in (-points..=progress.next_level).rev() {
        observer.level_started(level);
        let mut waiting = seed_level(&tallies, &flags, &mut seeds, level, points)?;
        flags.advance();
        let mut depth = 1;
        let mut level_flips = 0u64;
        while waiting > 0 {
            if observer.cancelled() {
                return Err(SolveError::Cancelled);
            }
            if depth + 1 > cell::MAX_MOVER_DEPTH {
                return Err(SolveError::DepthOverflow {
                    level,
                    depth: depth + 1,
                });
            }
            let (here, next) = propagate_layer(&index, &tallies, &flags, &mut log, level, depth)?;
            debug_assert_eq!(here, waiting);
            flags.advance();
            level_flips += here;
            observer.advanced(here);
            progress.largest_layer = progress.largest_layer.max(here);
            progress.largest_depth = progress.largest_depth.max(depth);
            waiting = next;
            depth += 1;
        }
        progress.flips += level_flips;
        progress.next_level = level - 1;
        observer.level_finished(level, depth - 1, level_flips);
        offer(
            work,
            (board, counts.states),
            progress,
            &tallies,
            &mut seeds,
            &mut log,
        );
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
    Ok((index, values, stats))
}
