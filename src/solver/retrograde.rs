//! Phase 3 of the lean solve, the retrograde: for a threshold, the seeds
//! read back and set (`read_seeds`, `seed_level`), then layer after layer
//! the states just decided update their predecessors (`propagate_layer`),
//! each decision logged to the values' spools (`ValueLog`).

use std::io;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::spool::{encode, Spool, SpoolFolder};
use super::{
    bits_of, code_and_slot, push_updates, LayerFlags, PredecessorScratch, SolveError, CHILD_WON,
    PAIR, STATES_PER_FLAG, STATES_PER_FLAG_WORD, UPDATE_BATCH,
};
use crate::common::prefetch::prefetch_element;
use crate::index::{StateIndex, StateNumber, SLOT_FIRST_KO};

use super::share::Share;
use super::tally;
use super::{spool_error, FLAG_WORDS_PER_TASK};

/// Reads a seed spool back: the numbers of its states, a batch at a time.
pub(super) fn read_seeds(
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
pub(super) fn seed_level(
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
pub(super) struct TaskRecord {
    here: u64,
    decided: u64,
    first: Option<(StateNumber, u64)>,
    last: StateNumber,
    rest: Vec<u8>,
    /// Updates for other processes' states, one list per process (empty
    /// if there are none).
    remote: Vec<Vec<u64>>,
}

/// Kinds of a recorded state: won, lost, or both, in the layer.
pub(super) const KIND_WON: u64 = 1;
pub(super) const KIND_LOST: u64 = 2;

/// The values' spools: one per partition of the state numbers.
pub(super) struct ValueLog {
    pub(super) shift: u32,
    pub(super) spools: Vec<Spool>,
    /// The layer each partition last recorded a state of, and that state.
    pub(super) layer: Vec<Option<(i32, u32)>>,
    pub(super) last: Vec<StateNumber>,
}

impl ValueLog {
    pub(super) fn new(
        states: u64,
        shift: u32,
        folder: &SpoolFolder,
    ) -> Result<ValueLog, SolveError> {
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

/// Applies updates to local states: "a child won" (`CHILD_WON`) or "won",
/// marking the states they decide in the next layer (parity
/// `next_parity`). Returns how many they decide.
#[inline]
fn apply_local(
    tallies: &[AtomicU64],
    flags: &LayerFlags,
    next_parity: u32,
    local: u64,
    update: u64,
) -> bool {
    let now = if update & CHILD_WON != 0 {
        tally::child_won(tallies, local, next_parity)
    } else {
        tally::set_won(tallies, local, next_parity)
    };
    if now {
        flags.mark_next(local);
    }
    now
}

/// `apply_local` for an update marked `PAIR`: for local states `local`
/// (even) and `local + 1`, one flag group. Returns how many it decides.
#[inline]
fn apply_local_pair(
    tallies: &[AtomicU64],
    flags: &LayerFlags,
    next_parity: u32,
    local: u64,
    update: u64,
) -> u64 {
    let now = if update & CHILD_WON != 0 {
        tally::child_won_pair(tallies, local, next_parity)
    } else {
        tally::set_won_pair(tallies, local, next_parity)
    };
    if now > 0 {
        flags.mark_next(local);
    }
    now as u64
}

/// The local number of the state an update received from another process
/// is for: by number, or by code and slot, ranked here.
#[inline]
fn received_target(index: &StateIndex, share: &impl Share, update: u64) -> Option<u64> {
    let target = update & !CHILD_WON;
    let number = match code_and_slot(target) {
        None => target,
        Some((code, slot)) => {
            let position = index.position_number(code)?;
            if slot >= SLOT_FIRST_KO + index.ko_state_count(position) {
                return None;
            }
            index.number(position, slot)
        }
    };
    share.local(number)
}

/// Applies the updates other processes sent for this share's states during
/// layer `depth` (see `propagate_layer`); returns the states they decide
/// for the next layer.
pub(super) fn apply_received(
    index: &StateIndex,
    share: &impl Share,
    tallies: &[AtomicU64],
    flags: &LayerFlags,
    depth: u32,
    updates: &[u64],
) -> Result<u64, SolveError> {
    let next_parity = (depth & 1) ^ 1;
    updates
        .par_chunks(1 << 16)
        .map(|chunk| {
            let mut decided = 0;
            for &update in chunk {
                let local = received_target(index, share, update).ok_or_else(|| {
                    SolveError::Exchange(format!(
                        "an update arrived for a state this process does not hold ({update:#x})"
                    ))
                })?;
                decided += apply_local(tallies, flags, next_parity, local, update) as u64;
            }
            Ok(decided)
        })
        .sum()
}

/// The flag words of task `task`.
#[inline]
fn task_flags(flags: &LayerFlags, task: usize) -> &[AtomicU64] {
    let words = flags.current.len();
    let w = task * FLAG_WORDS_PER_TASK;
    &flags.current[w.min(words)..(w + FLAG_WORDS_PER_TASK).min(words)]
}

/// Whether task `task` holds states of the current layer.
#[inline]
fn task_in_layer(flags: &LayerFlags, task: usize) -> bool {
    task_flags(flags, task)
        .iter()
        .any(|word| word.load(Ordering::Relaxed) != 0)
}

/// How many groups of the layer flags (`STATES_PER_FLAG` states each)
/// task `task` has states of the current layer in.
pub(super) fn task_groups(flags: &LayerFlags, task: usize) -> u64 {
    task_flags(flags, task)
        .iter()
        .map(|word| word.load(Ordering::Relaxed).count_ones() as u64)
        .sum()
}

/// Phase 3, one layer, or tasks `tasks` of it: every state of `share`
/// decided at threshold `level` and depth `depth` updates its
/// predecessors, marking those of `share` decided at `depth + 1` in the
/// next layer, and is recorded in the values' spools; the updates for
/// other processes' states are appended to `outgoing`, one list per
/// process. Returns (states of this layer, states of the next) in `share`,
/// so far.
#[allow(clippy::too_many_arguments)]
pub(super) fn propagate_layer(
    index: &StateIndex,
    share: &impl Share,
    tallies: &[AtomicU64],
    flags: &LayerFlags,
    log: &mut ValueLog,
    (level, depth): (i32, u32),
    tasks: Range<usize>,
    outgoing: &mut [Vec<u64>],
) -> Result<(u64, u64), SolveError> {
    let points = index.board().points() as i32;
    let parity = depth & 1;
    let next_parity = parity ^ 1;
    let states = share.states();
    let words = flags.current.len();
    let tasks = tasks.start..tasks.end.min(words.div_ceil(FLAG_WORDS_PER_TASK));
    let batch = 16 * rayon::current_num_threads();
    let (mut here, mut decided) = (0, 0);
    // Updates for this share's states are applied at once; the others'
    // are kept for their processes.
    let apply = |updates: &mut Vec<u64>, count: usize, remote: &mut Vec<Vec<u64>>| {
        let mut decided = 0;
        for &update in &updates[..count] {
            let number = update & !(CHILD_WON | PAIR);
            let local = match code_and_slot(number) {
                Some(_) => None,
                None => share.local(number),
            };
            match local {
                Some(local) if update & PAIR != 0 => {
                    decided += apply_local_pair(tallies, flags, next_parity, local, update)
                }
                Some(local) => {
                    decided += apply_local(tallies, flags, next_parity, local, update) as u64
                }
                None => {
                    if remote.is_empty() {
                        remote.resize_with(share.processes(), Vec::new);
                    }
                    let owner = match code_and_slot(number) {
                        Some((code, _)) => share.code_owner(code),
                        None => share.owner(number),
                    };
                    // Another process's pair goes as its two states (both
                    // of one position, so of one process).
                    if update & PAIR != 0 {
                        let single = update & !PAIR;
                        remote[owner].extend([single, single + 1]);
                    } else {
                        remote[owner].push(update);
                    }
                }
            }
        }
        updates.drain(..count);
        decided
    };
    for first_task in tasks.clone().step_by(batch) {
        let records: Vec<TaskRecord> = (first_task..(first_task + batch).min(tasks.end))
            .into_par_iter()
            .filter(|&task| task_in_layer(flags, task))
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
                    let mut remote = Vec::new();
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
                                index.prefetch_state(share.global(next));
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
                                (share.global(number), won, lost)
                            });
                            let waiting = updates.len();
                            here += push_updates(index, cursor, group, scratch, updates, |p| {
                                if let Some(local) = share.local(p) {
                                    prefetch_element(tallies, (local / 8) as usize)
                                }
                            });
                            // The updates asked for before this group have
                            // had its work to arrive.
                            if waiting >= UPDATE_BATCH {
                                decided += apply(updates, waiting, &mut remote);
                            }
                        }
                    }
                    let waiting = updates.len();
                    decided += apply(updates, waiting, &mut remote);
                    TaskRecord {
                        here,
                        decided,
                        first,
                        last,
                        rest,
                        remote,
                    }
                },
            )
            .collect();
        for mut record in records {
            here += record.here;
            decided += record.decided;
            for (list, updates) in outgoing.iter_mut().zip(&record.remote) {
                list.extend_from_slice(updates);
            }
            record.remote = Vec::new();
            log.append(level, depth, points, record)
                .map_err(spool_error)?;
        }
    }
    Ok((here, decided))
}
