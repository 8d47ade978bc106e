//! The retrograde solver of SPEC section 3: A, B, dA and dB for every
//! canonical state of a board, by unknown-children counting over un-moves.
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

pub mod cell;
pub mod lean;
pub mod spool;
pub mod store;
pub mod tally;

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;

use crate::board::{Board, Point, PointSet};
use crate::index::code::Canonical;
use crate::index::{
    PositionNumber, PositionStates, StateCursor, StateIndex, StateNumber, SLOT_FIRST_KO,
    SLOT_PASSED, SLOT_PLAIN,
};
use crate::position::{Placement, Position};
use crate::prefetch::{prefetch, prefetch_element};
use crate::state::State;
use crate::unmove::{self, LastMove};
use crate::value::Value;
use store::{Blocks, CellBuilder, CellForm, CellStore};

/// The phases of a solve, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Enumerate,
    CountChildren,
    Retrograde,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Enumerate => "enumerate",
            Phase::CountChildren => "count children",
            Phase::Retrograde => "retrograde",
        }
    }
}

/// Watches a solve: progress and cancellation.
pub trait Observer: Sync {
    /// A phase begins; `total` is its amount of work in the units of
    /// `advanced` (0 when unknown).
    fn phase_started(&self, _phase: Phase, _total: u64) {}
    /// Some work of the current phase is done.
    fn advanced(&self, _work: u64) {}
    /// The retrograde phase starts threshold `level`.
    fn level_started(&self, _level: i32) {}
    /// The retrograde phase finished threshold `level`.
    fn level_finished(&self, _level: i32, _layers: u32, _flips: u64) {}
    /// Whether the solve should stop.
    fn cancelled(&self) -> bool {
        false
    }
}

/// An observer that watches nothing.
pub struct Silent;
impl Observer for Silent {}

/// Why a solve stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolveError {
    Cancelled,
    /// A board too large for the index (see `index::MAX_INDEX_POINTS`).
    TooLarge {
        points: usize,
    },
    /// A forced line longer than a cell can record.
    DepthOverflow {
        level: i32,
        depth: u32,
    },
    /// A spool of the lean solve could not be written or read.
    Spool(String),
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
    values: Held,
    stats: SolveStats,
}

/// Where a solution's values are: in the solver's cells, or in the lean
/// solve's spools.
enum Held {
    Cells(CellStore),
    Logged(lean::LoggedValues),
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
/// of state numbers at a time (see `Solution::values_of`).
pub struct ValueRun<'a> {
    points: i32,
    runs: ValueRunCells<'a>,
}

enum ValueRunCells<'a> {
    Flat(&'a [u32]),
    /// The plain and passed states' cells from their first number, and the
    /// ko states' cells from theirs.
    Copied {
        plain_start: StateNumber,
        plain: Vec<u32>,
        ko_start: StateNumber,
        ko: Vec<u32>,
    },
}

impl ValueRun<'_> {
    /// Appends the values of states `numbers` to `out`: a run of the run's
    /// plain and passed states, or of its ko states.
    pub fn values(&self, numbers: std::ops::Range<StateNumber>, out: &mut Vec<Value>) {
        let cells = match &self.runs {
            ValueRunCells::Flat(cells) => &cells[numbers.start as usize..numbers.end as usize],
            ValueRunCells::Copied {
                plain_start,
                plain,
                ko_start,
                ko,
            } => {
                // Ko states are numbered after every plain and passed state.
                let (cells, start) = if numbers.start >= *ko_start {
                    (ko, ko_start)
                } else {
                    (plain, plain_start)
                };
                &cells[(numbers.start - start) as usize..(numbers.end - start) as usize]
            }
        };
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

    /// The value of state `number`. With compressed cells this
    /// decompresses a block: for many values use `values_of`.
    pub fn value(&self, number: StateNumber) -> Value {
        match &self.values {
            Held::Cells(cells) => {
                cell_value(cells.get(number as usize), self.board().points() as i32)
            }
            Held::Logged(values) => values.value(number),
        }
    }

    /// The values of the states of positions `positions`, read at once.
    pub fn values_of(&self, positions: std::ops::Range<PositionNumber>) -> ValueRun<'_> {
        let points = self.board().points() as i32;
        let cells = match &self.values {
            Held::Cells(cells) => cells,
            Held::Logged(values) => return values.values_of(&self.index, positions),
        };
        let runs = match cells {
            CellStore::Flat(cells) => ValueRunCells::Flat(cells),
            CellStore::Compressed(_) => {
                let (plain, ko) = self.index.state_runs(positions);
                ValueRunCells::Copied {
                    plain_start: plain.start,
                    plain: cells.range(plain.start as usize..plain.end as usize),
                    ko_start: ko.start,
                    ko: cells.range(ko.start as usize..ko.end as usize),
                }
            }
        };
        ValueRun { points, runs }
    }

    /// How the cells were kept; `None` for the lean solve, whose values are
    /// in spools.
    pub fn cell_form(&self) -> Option<CellForm> {
        match &self.values {
            Held::Cells(cells) => Some(cells.form()),
            Held::Logged(_) => None,
        }
    }

    /// The value of any legal state (in any orientation).
    pub fn probe(&self, state: &State) -> Option<Value> {
        self.index.rank(state).map(|number| self.value(number))
    }

    /// Bytes held: the index and the cells.
    pub fn memory_bytes(&self) -> usize {
        self.index.memory_bytes()
            + match &self.values {
                Held::Cells(cells) => cells.memory_bytes(),
                Held::Logged(values) => values.memory_bytes(),
            }
    }
}

/// An earlier position of a state, with the move that left it and its
/// canonical form.
type Origin = (Position, LastMove, Canonical);

/// Gathers the earlier positions of `state`, with their canonical forms,
/// into `origins`, asking for each one's index line on the way. Returns
/// whether two of them may be one position: false only when their codes
/// all differ (told by a bit per code hash, so a false alarm is possible,
/// a miss is not).
#[inline]
fn gather_origins(index: &StateIndex, state: &State, origins: &mut Vec<Origin>) -> bool {
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
/// ko point but the one the move took. Returns whether two of those may be
/// one state: two ko points of a symmetric position can be images of each
/// other.
#[inline(always)]
fn expand_origin(
    index: &StateIndex,
    (earlier, last_move, canonical): &Origin,
    mut visit: impl FnMut(StateNumber),
) -> bool {
    let entry = index
        .entry_of(*canonical)
        .expect("un-moves yield legal positions, and the index holds them all");
    visit(entry.plain());
    // The ko point the move took cannot be the earlier state's.
    let taken = match last_move {
        LastMove::Place(point) => {
            visit(entry.passed());
            PointSet::single(*point)
        }
        LastMove::Pass => PointSet::EMPTY,
    };
    let ko_points = earlier.ko_points(index.board());
    let allowed = ko_points - taken;
    for number in index.ko_numbers(&entry, ko_points, allowed) {
        visit(number);
    }
    allowed.len() > 1 && canonical.reaching != 1
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
/// symmetric one has several ko points.
#[inline(always)]
fn predecessor_numbers(
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
        repeats |= expand_origin(index, origin, |p| {
            ask(p);
            out.push(p | mark);
        });
    }
    if repeats || (maybe_shared && shared_position(origins)) {
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
/// word per 4096. A state of the layer at threshold `m` and depth `d` is
/// recognised by its cell (A = m and dA = d, or B = m and dB = d), so the
/// layers cost no memory beyond these bits.
struct LayerFlags {
    current: Vec<AtomicU64>,
    next: Vec<AtomicU64>,
}

const STATES_PER_FLAG: StateNumber = cell::RUN as StateNumber;
const STATES_PER_FLAG_WORD: StateNumber = 64 * STATES_PER_FLAG;

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

    /// The next layer becomes the current one.
    fn advance(&mut self) {
        std::mem::swap(&mut self.current, &mut self.next);
        self.next
            .par_iter()
            .for_each(|w| w.store(0, Ordering::Relaxed));
    }
}

/// Views a cell array as atomics for the parallel phases.
fn atomic_cells(cells: &mut [u32]) -> &[AtomicU32] {
    // SAFETY: `AtomicU32` has the same size, alignment and bit validity as
    // `u32` (std documents this), and the exclusive borrow of `cells` means no
    // other access exists while the returned view lives.
    unsafe { &*(cells as *mut [u32] as *const [AtomicU32]) }
}

/// Scratch space for counting children, reused from position to position.
#[derive(Default)]
struct CountScratch {
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
fn count_position(
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

/// Phase 2: every state's count of distinct children, and the pass margin of
/// every state after a pass, in cells of form `form`; and the edges.
fn count_children(index: &StateIndex, form: CellForm, observer: &dyn Observer) -> (CellStore, u64) {
    let counts = index.counts();
    match form {
        CellForm::Flat => {
            let mut cells = vec![0u32; counts.states as usize];
            crate::huge_pages::advise(&cells);
            let edges = count_children_flat(index, &mut cells, observer);
            (CellStore::Flat(cells), edges)
        }
        CellForm::Compressed { block_cells } => {
            count_children_compressed(index, form, block_cells, observer)
        }
    }
}

fn count_children_flat(index: &StateIndex, cells: &mut [u32], observer: &dyn Observer) -> u64 {
    let positions = index.counts().positions;
    let points = index.board().points() as i32;
    let chunk = 4096u64;
    let cells = atomic_cells(cells);
    let chunks = positions.div_ceil(chunk);
    (0..chunks)
        .into_par_iter()
        .map_init(CountScratch::default, |scratch, c| {
            let first = c * chunk;
            let last = (first + chunk).min(positions);
            let mut edges = 0u64;
            for entry in index.positions(first).take((last - first) as usize) {
                edges += count_position(index, &entry, scratch, |number, children, margin| {
                    cells[number as usize]
                        .store(cell::fresh(children, margin, points), Ordering::Relaxed)
                });
            }
            observer.advanced(last - first);
            edges
        })
        .sum()
}

/// Phase 2 into compressed blocks: runs of positions are counted in
/// parallel, and their cells handed on in order (the plain and passed states
/// first, then the ko states, kept aside meanwhile).
fn count_children_compressed(
    index: &StateIndex,
    form: CellForm,
    block_cells: usize,
    observer: &dyn Observer,
) -> (CellStore, u64) {
    let counts = index.counts();
    let positions = counts.positions;
    let points = index.board().points() as i32;
    let chunk = (block_cells as u64 / 2).max(1);
    let chunks = positions.div_ceil(chunk);
    let batch = 64 * rayon::current_num_threads() as u64;
    let mut builder = CellBuilder::new(form, counts.states as usize);
    let mut ko_runs: Vec<Vec<u32>> = Vec::new();
    let mut edges = 0u64;
    for first_chunk in (0..chunks).step_by(batch as usize) {
        let counted: Vec<(Vec<u32>, Vec<u32>, u64)> = (first_chunk
            ..(first_chunk + batch).min(chunks))
            .into_par_iter()
            .map_init(CountScratch::default, |scratch, c| {
                let first = c * chunk;
                let last = (first + chunk).min(positions);
                let mut plain = vec![0u32; 2 * (last - first) as usize];
                let mut ko = Vec::new();
                let mut edges = 0u64;
                let plain_start = 2 * first as StateNumber;
                for entry in index.positions(first).take((last - first) as usize) {
                    edges += count_position(index, &entry, scratch, |number, children, margin| {
                        let cell = cell::fresh(children, margin, points);
                        if number < 2 * positions as StateNumber {
                            plain[(number - plain_start) as usize] = cell;
                        } else {
                            ko.push(cell);
                        }
                    });
                }
                observer.advanced(last - first);
                (plain, ko, edges)
            })
            .collect();
        for (plain, ko, chunk_edges) in counted {
            builder.push(&plain);
            if !ko.is_empty() {
                ko_runs.push(ko);
            }
            edges += chunk_edges;
        }
    }
    for ko in ko_runs {
        builder.push(&ko);
    }
    let cells = builder
        .finish()
        .expect("every state of every position was counted once");
    (cells, edges)
}

/// Phase 3, first step of a level: the states whose second pass ends the game
/// with margin `level` are won at depth 1; those whose second pass gives the
/// opponent `level` have one more child won for the opponent. Marks the
/// states decided in the next layer of `flags`; returns their flips (a state
/// both won and lost counts twice, as the layers count it).
fn seed_level(index: &StateIndex, cells: &mut CellStore, flags: &LayerFlags, level: i32) -> u64 {
    let points = index.board().points() as i32;
    let positions = index.counts().positions;
    match cells {
        CellStore::Flat(cells) => {
            // Plain and passed states alternate up to the ko states; only
            // the passed ones (odd numbers) are seeded, and few of those at
            // any level. A run of cells at a time: which are seeded, then
            // those few.
            let test = cell::CellTest::seeds(level, points);
            const PASSED: u64 = 0xaaaa_aaaa_aaaa_aaaa;
            cells[..2 * positions as usize]
                .par_chunks_mut(cell::RUN)
                .enumerate()
                .map(|(run, cells)| {
                    let first = (cell::RUN * run) as StateNumber;
                    let mut decided = 0;
                    for i in bits_of(test.matching(cells) & PASSED) {
                        let (new, flips) = cell::seeded(cells[i], level, points);
                        cells[i] = new;
                        if flips > 0 {
                            flags.mark_next(first + i as StateNumber);
                            decided += flips as u64;
                        }
                    }
                    decided
                })
                .sum()
        }
        CellStore::Compressed(blocks) => {
            let plain_end = 2 * positions as usize;
            let block_cells = blocks.block_cells();
            blocks.update_each(
                |block| block * block_cells < plain_end,
                |block, cells| {
                    let first = block * block_cells;
                    let passed_first = first | SLOT_PASSED as usize;
                    let passed = (passed_first..(first + cells.len()).min(plain_end)).step_by(2);
                    change_block(
                        cells,
                        first,
                        flags,
                        passed.map(|number| (number, ())),
                        |old, ()| cell::seeded(old, level, points),
                    )
                },
            )
        }
    }
}

/// Marks an update for a predecessor of a state that became won (else lost);
/// above every state number.
const CHILD_WON: u64 = 1 << 63;
/// Updates waiting, their cells asked for, before they are applied
/// together (once the next group has been worked out).
const UPDATE_BATCH: usize = 128;

/// Applies the first `count` updates to predecessors (their cells asked
/// for earlier): `p | CHILD_WON` counts down `p`'s children (and makes it
/// lost at zero), `p` alone makes it won. Returns how many states this
/// decided; removes those updates.
fn apply_updates(
    cells: &[AtomicU32],
    flags: &LayerFlags,
    updates: &mut Vec<u64>,
    count: usize,
    code: u32,
    depth: u32,
) -> u64 {
    let mut decided = 0;
    for &update in &updates[..count] {
        let number = (update & !CHILD_WON) as StateNumber;
        let target = &cells[number as usize];
        let now_decided = if update & CHILD_WON != 0 {
            let last = cell::child_won(target);
            if last {
                cell::set_opponent(target, code, depth);
            }
            last
        } else {
            cell::set_mover(target, code, depth)
        };
        if now_decided {
            flags.mark_next(number);
            decided += 1;
        }
    }
    updates.drain(..count);
    decided
}

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
/// lost (both if both). Returns how many of the two the group's states
/// became. The earlier positions of the
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
        predecessor_numbers(
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

/// Phase 3, one layer: every state decided at threshold `level` and depth
/// `depth` updates its predecessors, marking those decided at `depth + 1` in
/// the next layer. Returns (states of this layer, states of the next).
fn propagate_layer(
    index: &StateIndex,
    cells: &[AtomicU32],
    flags: &LayerFlags,
    level: i32,
    depth: u32,
) -> (u64, u64) {
    let points = index.board().points() as i32;
    let code = cell::margin_code(level, points);
    let next_depth = depth + 1;
    let states = index.counts().states as StateNumber;
    let test = cell::CellTest::decided(code, depth);
    (0..flags.current.len())
        .into_par_iter()
        .filter(|&w| flags.current[w].load(Ordering::Relaxed) != 0)
        .map_init(
            || {
                (
                    PredecessorScratch::default(),
                    Vec::<u64>::with_capacity(2 * UPDATE_BATCH),
                    // Kept from word to word: the words come in order.
                    index.state_cursor(),
                )
            },
            |(scratch, updates, cursor), w| {
                let mut bits = flags.current[w].load(Ordering::Relaxed);
                let (mut here, mut decided) = (0u64, 0u64);
                let group_first = |bits: u64| {
                    w as StateNumber * STATES_PER_FLAG_WORD
                        + bits.trailing_zeros() as StateNumber * STATES_PER_FLAG
                };
                while bits != 0 {
                    let block = group_first(bits);
                    bits &= bits - 1;
                    // The next group's cells are read after this group's
                    // work: ask for them now.
                    if bits != 0 {
                        let next = group_first(bits) as usize;
                        let last = (next + STATES_PER_FLAG as usize).min(cells.len()) - 1;
                        for number in (next..last).step_by(16).chain([last]) {
                            prefetch(&cells[number]);
                        }
                        index.prefetch_state(next as StateNumber);
                    }
                    let run =
                        &cells[block as usize..(block + STATES_PER_FLAG).min(states) as usize];
                    let hits = test.matching_by(run.len(), |i| run[i].load(Ordering::Relaxed));
                    let group = bits_of(hits).map(|i| {
                        let cell = run[i].load(Ordering::Relaxed);
                        (
                            block + i as StateNumber,
                            cell::decided_won(cell, code, depth),
                            cell::decided_lost(cell, code, depth),
                        )
                    });
                    let waiting = updates.len();
                    here += push_updates(index, cursor, group, scratch, updates, |p| {
                        prefetch_element(cells, p as usize)
                    });
                    // The updates asked for before this group have had its
                    // work to arrive.
                    if waiting >= UPDATE_BATCH {
                        decided += apply_updates(cells, flags, updates, waiting, code, next_depth);
                    }
                }
                let waiting = updates.len();
                decided += apply_updates(cells, flags, updates, waiting, code, next_depth);
                (here, decided)
            },
        )
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

/// With compressed cells, the updates waiting for each block: `offset << 1
/// | child won`, the offset within the block. Two bytes an update, so that
/// many can wait before the blocks are rewritten. Allocated once per solve.
struct Buckets {
    waiting: Vec<Mutex<Vec<u16>>>,
    count: AtomicU64,
}

impl Buckets {
    fn new(blocks: usize) -> Buckets {
        Buckets {
            waiting: (0..blocks).map(|_| Mutex::new(Vec::new())).collect(),
            count: AtomicU64::new(0),
        }
    }

    fn bucket(&self, block: usize) -> std::sync::MutexGuard<'_, Vec<u16>> {
        self.waiting[block]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// Files updates (`number | CHILD_WON` or `number`) in their blocks'
    /// buckets; sorts them on the way.
    fn file(&self, updates: &mut [u64], block_cells: usize) {
        let target = |update: &u64| (update & !CHILD_WON) as usize;
        updates.sort_unstable_by_key(target);
        for run in updates.chunk_by(|a, b| target(a) / block_cells == target(b) / block_cells) {
            let block = target(&run[0]) / block_cells;
            let first = block * block_cells;
            self.bucket(block).extend(
                run.iter()
                    .map(|u| ((target(u) - first) << 1 | (u & CHILD_WON != 0) as usize) as u16),
            );
        }
        self.count
            .fetch_add(updates.len() as u64, Ordering::Relaxed);
    }
}

/// Phase 3, one layer, with compressed cells. The layer's blocks are read a
/// few at a time in parallel, and their states' updates filed by block;
/// once about one update per 4 states of the board waits (or the layer is
/// read), every block with updates is decompressed, updated and compressed
/// once. Returns (states of this layer, states of the next).
fn propagate_layer_compressed(
    index: &StateIndex,
    blocks: &mut Blocks,
    flags: &LayerFlags,
    (level, depth): (i32, u32),
    buckets: &Buckets,
) -> (u64, u64) {
    let points = index.board().points() as i32;
    let code = cell::margin_code(level, points);
    let next_depth = depth + 1;
    let test = cell::CellTest::decided(code, depth);
    let block_cells = blocks.block_cells();
    let groups_per_block = (block_cells / STATES_PER_FLAG as usize) as u64;
    let flagged = |group: u64| {
        flags.current[(group / 64) as usize].load(Ordering::Relaxed) >> (group % 64) & 1 != 0
    };
    // The blocks holding states of this layer.
    let mut layer_blocks: Vec<usize> = Vec::new();
    for (w, word) in flags.current.iter().enumerate() {
        let mut bits = word.load(Ordering::Relaxed);
        while bits != 0 {
            let group = w as u64 * 64 + bits.trailing_zeros() as u64;
            bits &= bits - 1;
            let block = (group / groups_per_block) as usize;
            if layer_blocks.last() != Some(&block) {
                layer_blocks.push(block);
            }
        }
    }
    let budget = update_budget(index.counts().states);
    let blocks_at_once = 8 * rayon::current_num_threads();
    let rounds = layer_blocks.len().div_ceil(blocks_at_once);
    let (mut here, mut decided) = (0u64, 0u64);
    for (round, some_blocks) in layer_blocks.chunks(blocks_at_once).enumerate() {
        // Read: the updates of these blocks' states of the layer.
        let reader: &Blocks = blocks;
        here += some_blocks
            .par_iter()
            .map_init(
                || (Vec::new(), PredecessorScratch::default(), Vec::new()),
                |(cells, scratch, block_updates), &block| {
                    let mut here = 0;
                    block_updates.clear();
                    reader.read(block, cells);
                    let first = (block * block_cells) as u64;
                    let mut cursor = index.state_cursor();
                    let groups = (cells.len() as u64).div_ceil(STATES_PER_FLAG);
                    for g in 0..groups {
                        if !flagged(first / STATES_PER_FLAG + g) {
                            continue;
                        }
                        let group_first = (g * STATES_PER_FLAG) as usize;
                        let group_end = (group_first + STATES_PER_FLAG as usize).min(cells.len());
                        let run = &cells[group_first..group_end];
                        let group = bits_of(test.matching(run)).map(|offset| {
                            (
                                (first as usize + group_first + offset) as StateNumber,
                                cell::decided_won(run[offset], code, depth),
                                cell::decided_lost(run[offset], code, depth),
                            )
                        });
                        here +=
                            push_updates(index, &mut cursor, group, scratch, block_updates, |_| {});
                    }
                    buckets.file(block_updates, block_cells);
                    here
                },
            )
            .sum::<u64>();
        if buckets.count.load(Ordering::Relaxed) as usize >= budget || round + 1 == rounds {
            decided += apply_waiting(blocks, flags, buckets, code, next_depth);
        }
    }
    (here, decided)
}

/// Updates waiting before the blocks are rewritten, with compressed cells:
/// one for every 4 states of the board (half a byte per state), at least
/// 4 M.
fn update_budget(states: u64) -> usize {
    (states as usize / 4).max(1 << 22)
}

/// Applies the waiting updates to compressed cells, each touched block at
/// once. Returns how many states this decided; empties the buckets.
fn apply_waiting(
    blocks: &mut Blocks,
    flags: &LayerFlags,
    buckets: &Buckets,
    code: u32,
    depth: u32,
) -> u64 {
    let block_cells = blocks.block_cells();
    let decided = blocks.update_each(
        |block| !buckets.bucket(block).is_empty(),
        |block, cells| {
            let mut waiting = buckets.bucket(block);
            let first = block * block_cells;
            let result = change_block(
                cells,
                first,
                flags,
                waiting
                    .iter()
                    .map(|&u| (first + (u >> 1) as usize, u & 1 != 0)),
                |old, child_won| {
                    let (new, decided) = cell::with_update(old, child_won, code, depth);
                    (new, decided as u32)
                },
            );
            // Give back what a busy round took, so that the buckets hold
            // about the budget and not each bucket's largest round.
            waiting.clear();
            waiting.shrink_to(256);
            result
        },
    );
    buckets.count.store(0, Ordering::Relaxed);
    decided
}

/// Changes cells of a decompressed block whose first state is `first`: for
/// each `(number, what)`, `change(cell, what)` gives the new cell and how
/// many flips (Win, Lose) that made; a state that flipped is marked in the
/// next layer. Returns whether any cell changed, and the flips.
fn change_block<T>(
    cells: &mut [u32],
    first: usize,
    flags: &LayerFlags,
    changes: impl Iterator<Item = (usize, T)>,
    change: impl Fn(u32, T) -> (u32, u32),
) -> (bool, u64) {
    let (mut changed, mut decided) = (false, 0);
    for (number, what) in changes {
        let old = cells[number - first];
        let (new, flips) = change(old, what);
        changed |= new != old;
        cells[number - first] = new;
        if flips > 0 {
            flags.mark_next(number as StateNumber);
            decided += flips as u64;
        }
    }
    (changed, decided)
}

/// Where a solve stands between levels: enough, with the cells, to go on
/// from there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveProgress {
    /// The next threshold to solve; every threshold above it is done.
    pub next_level: i32,
    pub edges: u64,
    pub largest_depth: u32,
    pub largest_layer: u64,
    pub flips: u64,
}

/// Somewhere to save a long solve between levels and resume it from.
pub trait CheckpointStore: Sync {
    /// A saved solve of `board` with `states` states, if there is one, its
    /// cells in form `form`.
    fn load(&self, board: Board, states: u64, form: CellForm)
        -> Option<(SolveProgress, CellStore)>;
    /// The solve reached a level boundary; the store may save it.
    fn offer(&self, board: Board, progress: SolveProgress, cells: &CellStore);
}

/// No checkpoints: every solve starts from the beginning.
pub struct NoCheckpoints;

impl CheckpointStore for NoCheckpoints {
    fn load(&self, _: Board, _: u64, _: CellForm) -> Option<(SolveProgress, CellStore)> {
        None
    }

    fn offer(&self, _: Board, _: SolveProgress, _: &CellStore) {}
}

/// Solves every state of `board`, with flat cells.
pub fn solve(board: Board, observer: &dyn Observer) -> Result<Solution, SolveError> {
    solve_with_checkpoints(board, CellForm::Flat, observer, &NoCheckpoints)
}

/// Solves every state of `board`, resuming from `store` if it holds a saved
/// solve and offering it the cells after counting children and after each
/// level. The cells at a level boundary determine the rest of the solve, so
/// a resumed solve ends exactly as an uninterrupted one.
pub fn solve_with_checkpoints(
    board: Board,
    form: CellForm,
    observer: &dyn Observer,
    store: &dyn CheckpointStore,
) -> Result<Solution, SolveError> {
    let mut stats = SolveStats::default();

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
    let points = board.points() as i32;
    let (mut cells, mut progress) = match store.load(board, counts.states, form) {
        Some((progress, cells)) if cells.len() as u64 == counts.states => (cells, progress),
        _ => {
            let started = Instant::now();
            observer.phase_started(Phase::CountChildren, counts.positions);
            let (cells, edges) = count_children(&index, form, observer);
            stats.count_seconds = started.elapsed().as_secs_f64();
            if observer.cancelled() {
                return Err(SolveError::Cancelled);
            }
            let progress = SolveProgress {
                next_level: points,
                edges,
                ..SolveProgress::default()
            };
            store.offer(board, progress, &cells);
            (cells, progress)
        }
    };

    let started = Instant::now();
    // Each state flips at most twice: a bound for progress.
    observer.phase_started(Phase::Retrograde, 2 * counts.states);
    observer.advanced(progress.flips);
    let mut flags = LayerFlags::new(counts.states);
    let buckets = match &cells {
        CellStore::Compressed(blocks) => Buckets::new(blocks.len()),
        CellStore::Flat(_) => Buckets::new(0),
    };
    for level in (-points..=progress.next_level).rev() {
        observer.level_started(level);
        let mut waiting = seed_level(&index, &mut cells, &flags, level);
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
            let (here, next) = match &mut cells {
                CellStore::Flat(cells) => {
                    propagate_layer(&index, atomic_cells(cells), &flags, level, depth)
                }
                CellStore::Compressed(blocks) => {
                    propagate_layer_compressed(&index, blocks, &flags, (level, depth), &buckets)
                }
            };
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
        log::debug!(
            "{board}: after margin {level:+} the cells take {} bytes",
            cells.memory_bytes()
        );
        store.offer(board, progress, &cells);
    }
    stats.edges = progress.edges;
    stats.flips = progress.flips;
    stats.largest_layer = progress.largest_layer;
    stats.largest_depth = progress.largest_depth;
    stats.retrograde_seconds = started.elapsed().as_secs_f64();
    Ok(Solution {
        index,
        values: Held::Cells(cells),
        stats,
    })
}

/// Solves every state of `board` in the lean solve (see `lean`): a byte per
/// state beside the index, the seeds and values in spools in `folder`.
pub fn solve_lean(
    board: Board,
    folder: spool::SpoolFolder,
    observer: &dyn Observer,
) -> Result<Solution, SolveError> {
    solve_lean_in_partitions(board, folder, observer, None)
}

/// `solve_lean` with the values' spools in partitions of `2^shift` states,
/// so that tests can make many partitions on small boards.
#[doc(hidden)]
pub fn solve_lean_in_partitions(
    board: Board,
    folder: spool::SpoolFolder,
    observer: &dyn Observer,
    shift: Option<u32>,
) -> Result<Solution, SolveError> {
    let (index, values, stats) = lean::solve(board, folder, observer, shift)?;
    Ok(Solution {
        index,
        values: Held::Logged(values),
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
        for name in ["1x5", "2x3", "3x3", "2x4", "1x7", "3x4", "2x5"] {
            let board: Board = name.parse().unwrap();
            let index = StateIndex::build(board).unwrap();
            let points = board.points() as i32;
            let mut scratch = CountScratch::default();
            let (mut spared, mut total_edges) = (0, 0);
            for entry in index.positions(0) {
                let mut cells = Vec::new();
                let edges =
                    count_position(&index, &entry, &mut scratch, |number, children, margin| {
                        cells.push((number, cell::fresh(children, margin, points)))
                    });
                if !index
                    .codec()
                    .has_symmetry(index.codec().decode(entry.code).them())
                {
                    spared += 1;
                }
                let mut slow_edges = 0;
                for (number, cell) in cells {
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
                    assert_eq!(
                        cell::children_left(cell),
                        count,
                        "{name}: children of {state:?}"
                    );
                    assert_eq!(
                        cell,
                        cell::fresh(count, second_pass_margin(&state, &board), points)
                    );
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
            // The shortcut is taken, or this test would not test it.
            assert!(spared > 0, "{name}: no position counted without codes");
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
        for name in ["2x3", "3x3", "2x4", "3x4", "1x7"] {
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
                predecessor_numbers(&index, &origins, maybe_shared, CHILD_WON, &mut fast, |_| {});
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
