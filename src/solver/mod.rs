//! The retrograde solver (`docs/rules.md#how-one-pass-computes-all-of-this`):
//! A, B, dA and dB for every canonical state of a board, by unknown-children
//! counting over un-moves.
//!
//! The solve is a fixed sequence of named phases:
//!
//! 1. `Enumerate`: number the canonical legal states (`index`).
//! 2. `CountChildren`: give every state its count of distinct children (a
//!    pass, or the end of the game after a second pass, counts as one), and
//!    every state after a pass the margin a second pass ends the game with.
//! 3. `Retrograde`: for each threshold `m` from `N` down to `-N`, seed the
//!    states whose second pass ends the game with margin exactly `m` (won) or
//!    `-m` (one more child won for the opponent), then propagate layer by
//!    layer: a state that becomes Lose_m makes every predecessor Win_m, a state
//!    that becomes Win_m counts down every predecessor, and a count reaching
//!    zero makes it Lose_m. The layer number is the depth.
//!
//! Each state becomes Win once and Lose once, so the whole solve visits every
//! edge about twice. Layers are processed in parallel; within a layer the
//! order does not matter, so results do not depend on the thread count.
//!
//! The solve keeps a byte per state (`tally`) beside the index; the seeds of
//! each threshold and every value decided are written to spools (`spool`),
//! in memory or in a build's working folder, where checkpoints let a killed
//! build resume (`lean`, `checkpoint`); `plan` sizes a solve before it
//! starts. This module holds what the phases share: counting a position's
//! children, finding a state's predecessors, and the layers' flags.

pub mod cell;
pub mod checkpoint;
#[cfg(feature = "mpi")]
pub(crate) mod cluster;
mod count_children;
pub mod exchange;
pub mod lean;
mod logged_values;
pub mod plan;
mod retrograde;
pub mod share;
pub mod spool;
pub mod tally;

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::index::code::{Canonical, PositionCode};
use crate::index::{
    PositionNumber, PositionStates, StateCursor, StateIndex, StateNumber, SLOT_FIRST_KO,
    SLOT_PASSED, SLOT_PLAIN,
};
use crate::rules::board::{Board, Point, PointSet};
use crate::rules::position::{Placement, Position};
use crate::rules::state::State;
use crate::rules::unmove::{self, LastMove};
use crate::rules::value::Value;
pub use lean::Workspace;

/// The phases of a build, in order: the solve's three, then writing the
/// table (`table::writer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Numbering the states; no total.
    Enumerate,
    /// Counting each state's children; work in positions.
    CountChildren,
    /// Deciding states, each twice (won, lost); work in decisions.
    Retrograde,
    /// Compressing and writing the table; work in blocks.
    Write,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Enumerate => "enumerate",
            Phase::CountChildren => "count children",
            Phase::Retrograde => "retrograde",
            Phase::Write => "write the table",
        }
    }

    /// What the phase's work counts (`Observer::advanced`).
    pub fn unit(self) -> &'static str {
        match self {
            Phase::Enumerate | Phase::CountChildren => "positions",
            Phase::Retrograde => "decisions",
            Phase::Write => "blocks",
        }
    }
}

/// Watches a solve, and the writing of its table: progress and
/// cancellation.
pub trait Observer: Sync {
    /// A phase begins; `total` is its amount of work in the units of
    /// `advanced` (0 when unknown).
    fn phase_started(&self, _phase: Phase, _total: u64) {}
    /// Some work of the current phase is done.
    fn advanced(&self, _work: u64) {}
    /// The current phase resumes from a checkpoint holding `work` of it,
    /// done by an earlier run: done, but not at this run's rate.
    fn resumed(&self, work: u64) {
        self.advanced(work)
    }
    /// The retrograde phase starts threshold `level`.
    fn level_started(&self, _level: i32) {}
    /// The retrograde phase finished threshold `level`.
    fn level_finished(&self, _level: i32, _layers: u32, _flips: u64) {}
    /// Whether the solve, or the writing, should stop.
    fn cancelled(&self) -> bool {
        false
    }
}

/// An observer that watches nothing.
pub struct Silent;
impl Observer for Silent {}

/// Why a solve stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SolveError {
    /// The observer asked to stop.
    Cancelled,
    /// A board too large for the index (see `index::MAX_INDEX_POINTS`).
    TooLarge {
        /// The board's points.
        points: usize,
    },
    /// A forced line longer than a cell can record.
    DepthOverflow {
        /// The level (stones on the board) where it was met.
        level: i32,
        /// The plies of the line.
        depth: u32,
    },
    /// A spool of the lean solve could not be written or read.
    Spool(String),
    /// The processes sharing a solve could not exchange their updates.
    Exchange(String),
    /// The memory for one of the solve's large arrays could not be had.
    OutOfMemory {
        /// What the array is for.
        what: &'static str,
        /// Its bytes.
        bytes: u64,
    },
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::Cancelled => write!(f, "the solve was interrupted"),
            SolveError::TooLarge { points } => write!(
                f,
                "a board of {points} points is over the solver's limits ({} points, {} ko states a position)",
                crate::index::MAX_INDEX_POINTS,
                crate::index::ko::MAX_KO_STATES
            ),
            SolveError::DepthOverflow { level, depth } => write!(
                f,
                "at margin {level} a forced line reached {depth} plies, more than the solver records ({})",
                cell::MAX_MOVER_DEPTH
            ),
            SolveError::Spool(error) => write!(f, "the solve's working files failed: {error}"),
            SolveError::Exchange(error) => {
                write!(f, "the processes sharing the solve failed: {error}")
            }
            SolveError::OutOfMemory { what, bytes } => write!(
                f,
                "cannot have {} of memory for {what}",
                crate::common::units::human_bytes(*bytes as f64)
            ),
        }
    }
}

impl std::error::Error for SolveError {}

/// Figures of a finished solve.
#[derive(Clone, Copy, Debug, Default)]
pub struct SolveStats {
    /// Edges of the canonical state graph: distinct children summed over all
    /// states (a pass counts, so does the end after a second pass).
    pub edges: u64,
    /// The deepest layer reached: the longest dA or dB.
    pub largest_depth: u32,
    /// States that became Win or Lose at some threshold.
    pub flips: u64,
    /// The most states in one layer.
    pub largest_layer: u64,
    /// Seconds spent in each phase.
    pub enumerate_seconds: f64,
    pub count_seconds: f64,
    pub retrograde_seconds: f64,
}

/// A solved board: the index and every state's value.
pub struct Solution {
    index: StateIndex,
    values: lean::LoggedValues,
    stats: SolveStats,
}

/// The value a finished cell records.
fn cell_value(c: u32, points: i32) -> Value {
    let a = cell::mover_margin(c, points);
    let b = cell::opponent_margin(c, points);
    Value {
        mover_margin: a.map(|m| m as i8),
        opponent_margin: b.map(|m| m as i8),
        mover_depth: if a.is_some() {
            cell::mover_depth(c) as u16
        } else {
            0
        },
        opponent_depth: if b.is_some() {
            cell::opponent_depth(c) as u16
        } else {
            0
        },
    }
}

/// The values of the states of a run of positions, ready to be read a run
/// of state numbers at a time (see `Solution::values_of`): the cells of
/// their plain and passed states from the first one's number, and of their
/// ko states from the first one's.
pub struct ValueRun {
    points: i32,
    plain_start: StateNumber,
    plain: Vec<u32>,
    ko_start: StateNumber,
    ko: Vec<u32>,
}

impl ValueRun {
    /// Appends the values of states `numbers` to `out`: a run of the run's
    /// plain and passed states, or of its ko states.
    pub fn values(&self, numbers: std::ops::Range<StateNumber>, out: &mut Vec<Value>) {
        // Ko states are numbered after every plain and passed state.
        let (cells, start) = if numbers.start >= self.ko_start {
            (&self.ko, self.ko_start)
        } else {
            (&self.plain, self.plain_start)
        };
        let cells = &cells[(numbers.start - start) as usize..(numbers.end - start) as usize];
        out.extend(cells.iter().map(|&c| cell_value(c, self.points)));
    }
}

impl Solution {
    pub fn index(&self) -> &StateIndex {
        &self.index
    }

    pub fn board(&self) -> &Board {
        self.index.board()
    }

    pub fn stats(&self) -> &SolveStats {
        &self.stats
    }

    /// The value of state `number`. This turns a partition of the values
    /// back into cells: for many values use `values_of`. Fails only if the
    /// solve's spools in its working folder cannot be read.
    pub fn value(&self, number: StateNumber) -> std::io::Result<Value> {
        self.values.value(number)
    }

    /// The values of the states of positions `positions`, read at once.
    pub fn values_of(
        &self,
        positions: std::ops::Range<PositionNumber>,
    ) -> std::io::Result<ValueRun> {
        let whole = share::Whole::new(&self.index);
        self.values.values_of(&self.index, &whole, positions)
    }

    /// The value of any legal state (in any orientation); `None` for a
    /// state that is not legal.
    pub fn probe(&self, state: &State) -> std::io::Result<Option<Value>> {
        self.index
            .rank(state)
            .map(|number| self.value(number))
            .transpose()
    }
}

/// An earlier position of a state, with the move that left it and its
/// canonical form.
pub(crate) type Origin = (Position, LastMove, Canonical);

/// Gathers the earlier positions of `state`, with their canonical forms,
/// into `origins`, asking for each one's index line on the way. Returns
/// whether two of them may be one position: false only when their codes
/// all differ (told by a bit per code hash, so a false alarm is possible,
/// a miss is not).
#[inline]
pub(crate) fn gather_origins(index: &StateIndex, state: &State, origins: &mut Vec<Origin>) -> bool {
    let codec = index.codec();
    let position = state.position();
    let weights = codec.weights(&position);
    let mut hashes = 0u64;
    let mut maybe_shared = false;
    unmove::origins(index.board(), state, |earlier, last_move| {
        // The earlier position's mover took back a stone and restored what
        // it captured: the code follows from the state's.
        let canonical = match last_move {
            LastMove::Place(stone) => codec.canonical_turned(
                &weights,
                PointSet::single(stone),
                earlier.them() - position.us(),
            ),
            LastMove::Pass => codec.canonical_turned(&weights, PointSet::EMPTY, PointSet::EMPTY),
        };
        index.prefetch(canonical.code);
        let hash = 1u64 << (canonical.code.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 58);
        maybe_shared |= hashes & hash != 0;
        hashes |= hash;
        origins.push((earlier, last_move, canonical));
    });
    maybe_shared
}

/// Calls `visit(number)` for every canonical state of an earlier position
/// from which its last move leads on: without a pass, after a pass (when the
/// last move was a placement, which a pending pass allows), and with each
/// ko point but the one the move took. A position the index does not hold
/// (another process's, see `share`) gives its states by code and slot
/// (`by_code`) instead of numbers. Returns whether two of those may be one
/// state: two ko points of a symmetric position can be images of each
/// other.
///
/// With `PAIRS`, the plain and passed states of an earlier position (its
/// numbers `2p` and `2p + 1`, in one tally word) are visited once, as the
/// plain one's number marked `PAIR`.
#[inline(always)]
fn expand_origin<const PAIRS: bool>(
    index: &StateIndex,
    (earlier, last_move, canonical): &Origin,
    mut visit: impl FnMut(u64),
) -> bool {
    // The ko point the move took cannot be the earlier state's.
    let taken = match last_move {
        LastMove::Place(point) => PointSet::single(*point),
        LastMove::Pass => PointSet::EMPTY,
    };
    let ko_points = earlier.ko_points(index.board());
    let allowed = ko_points - taken;
    if index.holds_code(canonical.code) {
        let entry = index
            .entry_of(*canonical)
            .expect("un-moves yield legal positions, and the index holds them all");
        if PAIRS && !taken.is_empty() {
            debug_assert_eq!(entry.passed(), entry.plain() + 1);
            visit(entry.plain() | PAIR);
        } else {
            visit(entry.plain());
            if !taken.is_empty() {
                visit(entry.passed());
            }
        }
        for number in index.ko_numbers(&entry, ko_points, allowed) {
            visit(number);
        }
    } else {
        visit(by_code(canonical.code, SLOT_PLAIN));
        if !taken.is_empty() {
            visit(by_code(canonical.code, SLOT_PASSED));
        }
        for ko in allowed.iter() {
            let j = index.codec().ko_rank(canonical, ko_points, ko);
            visit(by_code(canonical.code, SLOT_FIRST_KO + j));
        }
    }
    allowed.len() > 1 && canonical.reaching != 1
}

/// An update's target given by its position's canonical code and its slot,
/// for the process that holds the code to rank: above every state number,
/// below `CHILD_WON`.
const BY_CODE: u64 = 1 << 62;
/// Marks an update for two states, a number (even) and the next: the plain
/// and passed states of one position, whose tallies share a word, so that
/// one atomic operation updates both (`tally::child_won_pair`). Never on
/// an update by code.
const PAIR: u64 = 1 << 61;
/// Bits of a slot in an update by code: up to `SLOT_FIRST_KO +
/// MAX_KO_STATES`.
const SLOT_BITS: u32 = 4;
const _: () = assert!(SLOT_FIRST_KO + crate::index::ko::MAX_KO_STATES <= 1 << SLOT_BITS);
const _: () = assert!(3u64.pow(crate::index::MAX_INDEX_POINTS as u32) << SLOT_BITS < PAIR);

/// The update for the state in slot `slot` of the position with canonical
/// code `code`.
#[inline]
fn by_code(code: PositionCode, slot: u32) -> u64 {
    BY_CODE | code << SLOT_BITS | slot as u64
}

/// The code and slot of an update by code (without its mark), if it is one.
#[inline]
fn code_and_slot(update: u64) -> Option<(PositionCode, u32)> {
    (update & BY_CODE != 0).then(|| {
        let bits = update & !BY_CODE;
        (bits >> SLOT_BITS, (bits & ((1 << SLOT_BITS) - 1)) as u32)
    })
}

/// Whether two of `origins` are one position (symmetric images of each
/// other): only then, or when `expand_origin` says so, can two of their
/// states be one. Asked only when `gather_origins` says it may be so: this
/// compares every pair.
#[inline]
fn shared_position(origins: &[Origin]) -> bool {
    origins
        .iter()
        .enumerate()
        .any(|(i, (_, _, canonical))| origins[..i].iter().any(|o| o.2.code == canonical.code))
}

/// Appends the numbers of the states `origins` stand for, each once and
/// marked with `mark` (`CHILD_WON` or nothing), to `out`, calling `ask` with
/// each on the way. Sorting them to drop repeats is needed only when two
/// origins are one position (possible only if `maybe_shared`) or a
/// symmetric one has several ko points. With `PAIRS`, the plain and passed
/// states of one earlier position go as one update marked `PAIR` where no
/// repeats are to be dropped (`ask` is called with the first of the two).
#[inline(always)]
pub(crate) fn predecessor_numbers<const PAIRS: bool>(
    index: &StateIndex,
    origins: &[Origin],
    maybe_shared: bool,
    mark: u64,
    out: &mut Vec<u64>,
    ask: impl Fn(StateNumber),
) {
    let first = out.len();
    let mut repeats = false;
    for origin in origins {
        repeats |= expand_origin::<PAIRS>(index, origin, |p| {
            if p & BY_CODE == 0 {
                ask(p & !PAIR);
            }
            out.push(p | mark);
        });
    }
    if repeats || (maybe_shared && shared_position(origins)) {
        if PAIRS {
            // Pairs back to their two states, to be sorted with the rest.
            for i in first..out.len() {
                if out[i] & PAIR != 0 {
                    out[i] &= !PAIR;
                    // The first is even: adding one sets its lowest bit.
                    out.push(out[i] + 1);
                }
            }
        }
        // Only the appended ones: `Vec::dedup` would also merge the first
        // of them with an equal update before them, another state's.
        let appended = &mut out[first..];
        appended.sort_unstable();
        let mut kept = 0;
        for i in 0..appended.len() {
            if i == 0 || appended[i] != appended[kept - 1] {
                appended[kept] = appended[i];
                kept += 1;
            }
        }
        out.truncate(first + kept);
    }
}

/// Where the states of a layer are: one bit per 64 consecutive states, one
/// word per 4096. A state of the layer is recognised by its tally's marks
/// (`tally::pending`), so the layers cost no memory beyond these bits.
struct LayerFlags {
    current: Vec<AtomicU64>,
    next: Vec<AtomicU64>,
}

const STATES_PER_FLAG: StateNumber = 64;
const STATES_PER_FLAG_WORD: StateNumber = 64 * STATES_PER_FLAG;

/// Flag words (4,096 states each) one task reads in a layer: a task's
/// states all lie in one partition of the values' spools.
const FLAG_WORDS_PER_TASK: usize = 16;
/// Positions one task counts children of.
const POSITIONS_PER_TASK: u64 = 4096;

/// The fewest states of a partition of the values' spools, as a power of
/// two: a task's flag words, so that a task's states lie in one partition.
pub const MIN_PARTITION_SHIFT: u32 =
    (FLAG_WORDS_PER_TASK as u64 * STATES_PER_FLAG_WORD).trailing_zeros();

/// A spool's write failed.
fn spool_error(error: std::io::Error) -> SolveError {
    SolveError::Spool(error.to_string())
}

/// The seeds of one run of positions: for each margin (offset by `N`), the
/// passed states a second pass ends with it, as (first number, last
/// number, the gaps after the first as varints).
type SeedRun = Vec<Option<(StateNumber, StateNumber, Vec<u8>)>>;

/// The positions of the set bits of `bits`, lowest first.
#[inline]
fn bits_of(mut bits: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let i = bits.trailing_zeros() as usize;
        bits &= bits.checked_sub(1)?;
        Some(i)
    })
}

impl LayerFlags {
    fn new(states: u64) -> LayerFlags {
        let words = states.div_ceil(STATES_PER_FLAG_WORD) as usize;
        let zeros = || (0..words).map(|_| AtomicU64::new(0)).collect();
        LayerFlags {
            current: zeros(),
            next: zeros(),
        }
    }

    /// Marks a state of the next layer.
    #[inline]
    fn mark_next(&self, number: StateNumber) {
        let word = &self.next[(number / STATES_PER_FLAG_WORD) as usize];
        let bit = 1 << ((number / STATES_PER_FLAG) % 64);
        // Four marks in five find their bit set already (counted on 3x5,
        // 4x4 and 3x6: a group has 64 states). A plain load leaves the word
        // shared between the cores, where a locked `or` takes it from the
        // other core each time and waits for this core's stores.
        if word.load(Ordering::Relaxed) & bit == 0 {
            word.fetch_or(bit, Ordering::Relaxed);
        }
    }

    /// Marks for the next layer the states whose tallies are pending in
    /// the layer of parity `parity`: a layer that a checkpoint saved
    /// between two layers holds only in the tallies. Returns how many.
    fn mark_pending(&self, tallies: &[AtomicU64], parity: u32) -> StateNumber {
        const WORDS_PER_FLAG: usize = STATES_PER_FLAG as usize / tally::PER_WORD;
        self.next
            .par_iter()
            .enumerate()
            .map(|(w, word)| {
                let mut bits = 0u64;
                let mut found = 0;
                for bit in 0..64 {
                    let first = (w * 64 + bit) * WORDS_PER_FLAG;
                    if first >= tallies.len() {
                        break;
                    }
                    let last = (first + WORDS_PER_FLAG).min(tallies.len());
                    let pending = tally::pending(&tallies[first..last], parity);
                    if pending != 0 {
                        bits |= 1 << bit;
                        found += pending.count_ones() as StateNumber;
                    }
                }
                word.store(bits, Ordering::Relaxed);
                found
            })
            .sum()
    }

    /// The next layer becomes the current one.
    fn advance(&mut self) {
        std::mem::swap(&mut self.current, &mut self.next);
        self.next
            .par_iter()
            .for_each(|w| w.store(0, Ordering::Relaxed));
    }
}

/// Scratch space for counting children, reused from position to position.
#[derive(Default)]
pub(crate) struct CountScratch {
    /// The moves whose children need their canonical codes to be told
    /// apart, with their keys (canonical code and ko point).
    moves: Vec<(Point, u64)>,
    keys: Vec<u64>,
}

/// Phase 2 for one position: calls `store(number, children, pass_margin)`
/// for each of its states (plain, passed, then ko states in order), with
/// its count of distinct children and, for the state after a pass, the
/// margin a second pass ends the game with; returns their edges.
///
/// Two moves lead to one child when their canonical codes and ko points
/// agree. Most positions need no codes for that: two moves `a` and `b`
/// lead to one child only if a symmetry maps the position after `a` onto
/// the one after `b` (not the identity: after `a` our stone is at `a`,
/// after `b` that point is still empty). When neither captures, their
/// stones are as before, so the symmetry maps their stones onto
/// themselves; and a capture leaves fewer of their stones, so a capturing
/// move never shares a child with one that captures nothing. When no
/// symmetry but the identity fixes their stones, the moves that capture
/// nothing all lead to different children, and only the capturing ones
/// are told apart by code. The retake of a ko captures, so it is among
/// those.
pub(crate) fn count_position(
    index: &StateIndex,
    entry: &PositionStates,
    scratch: &mut CountScratch,
    mut store: impl FnMut(StateNumber, u32, Option<i32>),
) -> u64 {
    let board = *index.board();
    let codec = index.codec();
    let CountScratch { moves, keys } = scratch;
    let position = codec.decode(entry.code);
    let every_move_coded = codec.has_symmetry(position.them());
    let mut weights = None;
    moves.clear();
    let code_move = |point: Point, placed: Placement| {
        let weights = weights.get_or_insert_with(|| codec.weights(&position));
        let canonical = codec.canonical_turned(weights, placed.captured, PointSet::single(point));
        let ko = placed.ko.map_or(0, |k| {
            codec.canonical_point(&canonical, k).index() as u64 + 1
        });
        moves.push((point, canonical.code << 6 | ko));
    };
    let uncoded = if every_move_coded {
        position.placements(&board, code_move);
        0
    } else {
        position.quiet_placements(&board, code_move).len() as u32
    };
    keys.clear();
    keys.extend(moves.iter().map(|&(_, key)| key));
    keys.sort_unstable();
    keys.dedup();
    let plain = uncoded + keys.len() as u32 + 1;
    let margin = position.area_score(&board);
    store(entry.state(SLOT_PLAIN), plain, None);
    store(entry.state(SLOT_PASSED), plain, Some(margin));
    let mut edges = 2 * plain as u64;
    if entry.ko_states > 0 {
        let ko_points = index.canonical_ko_points(&position);
        for (slot, ko) in ko_points.iter().enumerate() {
            // Without the retake at the ko point, one child fewer, unless
            // another move reaches the same one.
            let retake = moves.iter().find(|&&(p, _)| p == ko).map(|&(_, key)| key);
            let shared = |key: u64| moves.iter().filter(|&&(_, k)| k == key).count() > 1;
            let children = match retake {
                Some(key) if !shared(key) => plain - 1,
                _ => plain,
            };
            store(entry.state(SLOT_FIRST_KO + slot as u32), children, None);
            edges += children as u64;
        }
    }
    edges
}

/// Marks an update for a predecessor of a state that became won (else lost);
/// above every state number.
const CHILD_WON: u64 = 1 << 63;
/// Updates waiting, their cells asked for, before they are applied
/// together (once the next group has been worked out).
const UPDATE_BATCH: usize = 128;

/// Scratch space for finding predecessors, reused from group to group.
#[derive(Default)]
struct PredecessorScratch {
    origins: Vec<Origin>,
    /// For each state of the group in the layer: where its origins end,
    /// whether two of them may be one position, and whether it became won,
    /// lost.
    senders: Vec<(usize, bool, bool, bool)>,
}

/// The states of one group of a layer (numbers ascending, with whether each
/// became won and whether it became lost) send their predecessors updates,
/// once each: "a child won" if the state became won, "won" if it became
/// lost (both if both); the plain and passed states of one earlier
/// position take one update between them where they can (`PAIR`). Returns
/// how many of the two the group's states became. The earlier positions of the
/// whole group are gathered, asking for their index lines, before any is
/// ranked, so that the lines' cache misses overlap with that work.
#[inline(always)]
fn push_updates(
    index: &StateIndex,
    cursor: &mut StateCursor<'_>,
    group: impl Iterator<Item = (StateNumber, bool, bool)>,
    scratch: &mut PredecessorScratch,
    updates: &mut Vec<u64>,
    ask: impl Fn(StateNumber),
) -> u64 {
    let PredecessorScratch { origins, senders } = scratch;
    origins.clear();
    senders.clear();
    let mut here = 0;
    for (number, won, lost) in group {
        if !won && !lost {
            continue;
        }
        here += won as u64 + lost as u64;
        let maybe_shared = gather_origins(index, &cursor.state(number), origins);
        senders.push((origins.len(), maybe_shared, won, lost));
    }
    let mut start = 0;
    for &(end, maybe_shared, won, lost) in senders.iter() {
        // A state both won and lost sends both updates: the "child won"
        // ones, then copies without the mark.
        let first = updates.len();
        let mark = if won { CHILD_WON } else { 0 };
        predecessor_numbers::<true>(
            index,
            &origins[start..end],
            maybe_shared,
            mark,
            updates,
            &ask,
        );
        start = end;
        if won && lost {
            let sent = updates.len();
            updates.extend_from_within(first..sent);
            for update in &mut updates[sent..] {
                *update &= !CHILD_WON;
            }
        }
    }
    here
}

/// Where a solve stands between levels, or between two layers of a level:
/// enough, with the cells, to go on from there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveProgress {
    /// The next threshold to solve; every threshold above it is done.
    pub next_level: i32,
    /// 0: `next_level` starts from its seeds. `d > 0`: `next_level` is
    /// under way, its layers before depth `d` done, and the states of
    /// layer `d` are the tallies' pending marks of parity `d & 1`.
    pub next_depth: u32,
    /// The states decided in `next_level`'s layers done so far (0 when
    /// `next_depth` is 0).
    pub level_flips: u64,
    pub edges: u64,
    pub largest_depth: u32,
    pub largest_layer: u64,
    pub flips: u64,
}

/// Solves every state of `board`, its values kept in memory.
pub fn solve(board: Board, observer: &dyn Observer) -> Result<Solution, SolveError> {
    solve_in(board, Workspace::Memory, observer)
}

/// Solves every state of `board` (see `lean`), keeping the values in
/// `work`: in memory, or in a build's working folder, where the solve
/// resumes from a checkpoint if there is one and saves checkpoints as it
/// goes.
pub fn solve_in(
    board: Board,
    work: Workspace<'_>,
    observer: &dyn Observer,
) -> Result<Solution, SolveError> {
    solve_in_partitions(board, work, observer, None)
}

/// `solve_in` with the values' spools in partitions of `2^shift` states,
/// so that tests can make many partitions on small boards.
#[doc(hidden)]
pub fn solve_in_partitions(
    board: Board,
    work: Workspace<'_>,
    observer: &dyn Observer,
    shift: Option<u32>,
) -> Result<Solution, SolveError> {
    let (index, values, stats) = lean::solve(board, work, observer, shift)?;
    Ok(Solution {
        index,
        values,
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counting children (canonical codes only where two moves can share a
    /// child) against every move played and ranked, the repeats dropped.
    #[test]
    fn child_counts_match_moves_played_and_ranked() {
        for name in [
            "1x5", "2x3", "3x3", "2x4", "1x7", "3x4", "2x5", "1x4c", "1x5c", "2x3c", "2x4c",
            "3x3c", "2x5c", "3x4c",
        ] {
            let board: Board = name.parse().unwrap();
            let index = StateIndex::build(board).unwrap();
            let mut scratch = CountScratch::default();
            let (mut spared, mut total_edges) = (0, 0);
            for entry in index.positions(0) {
                let mut counted = Vec::new();
                let edges =
                    count_position(&index, &entry, &mut scratch, |number, children, margin| {
                        counted.push((number, children, margin))
                    });
                if !index
                    .codec()
                    .has_symmetry(index.codec().decode(entry.code).them())
                {
                    spared += 1;
                }
                let mut slow_edges = 0;
                for (number, children_counted, margin) in counted {
                    let state = index.unrank(number);
                    let mut children: Vec<StateNumber> = board
                        .all()
                        .iter()
                        .filter_map(|point| state.place(&board, point))
                        .map(|child| index.rank(&child).expect("children are legal"))
                        .collect();
                    children.sort_unstable();
                    children.dedup();
                    // A pass leads on, or ends the game: one child more.
                    let count = children.len() as u32 + 1;
                    assert_eq!(children_counted, count, "{name}: children of {state:?}");
                    assert_eq!(margin, second_pass_margin(&state, &board));
                    slow_edges += count as u64;
                }
                assert_eq!(
                    edges, slow_edges,
                    "{name}: edges of position {}",
                    entry.number
                );
                total_edges += edges;
            }
            assert!(total_edges > 0);
            // The shortcut is taken, or this test would not test it; on a
            // ring of up to five points every set of points is its own
            // mirror image.
            assert!(
                spared > 0 || matches!(name, "1x4c" | "1x5c"),
                "{name}: no position counted without codes"
            );
        }
    }

    /// For a state after a pass, the margin a second pass ends the game with.
    fn second_pass_margin(state: &State, board: &Board) -> Option<i32> {
        state.passed().then(|| state.position().area_score(board))
    }

    /// The fast path (origins, canonical codes by weights, ranks, repeats
    /// dropped only when they can occur) against un-moves ranked one by one.
    #[test]
    fn predecessor_numbers_match_ranked_unmoves() {
        for name in [
            "2x3", "3x3", "2x4", "3x4", "1x7", "1x4c", "1x6c", "2x3c", "2x4c", "3x3c", "3x4c",
        ] {
            let board: Board = name.parse().unwrap();
            let index = StateIndex::build(board).unwrap();
            let mut origins = Vec::new();
            let mut fast: Vec<u64> = Vec::new();
            let mut cursor = index.state_cursor();
            for number in 0..index.counts().states as StateNumber {
                let state = cursor.state(number);
                origins.clear();
                let maybe_shared = gather_origins(&index, &state, &mut origins);
                // The hash may raise a false alarm, never miss a repeat.
                assert!(maybe_shared || !shared_position(&origins), "{name}");
                fast.clear();
                predecessor_numbers::<false>(
                    &index,
                    &origins,
                    maybe_shared,
                    CHILD_WON,
                    &mut fast,
                    |_| {},
                );
                assert!(fast.iter().all(|&p| p & CHILD_WON != 0), "{name}: marks");
                let mut slow: Vec<StateNumber> = unmove::predecessors(&board, &state)
                    .iter()
                    .map(|p| index.rank(p).expect("predecessors are legal states"))
                    .collect();
                slow.sort_unstable();
                slow.dedup();
                let mut sorted: Vec<StateNumber> = fast
                    .iter()
                    .map(|&p| (p & !CHILD_WON) as StateNumber)
                    .collect();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(sorted.len(), fast.len(), "{name}: repeats for {state:?}");
                assert_eq!(sorted, slow, "{name}: predecessors of {state:?}");
            }
        }
    }
}
