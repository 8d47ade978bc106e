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

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use crate::board::{Board, Point};
use crate::index::code::Canonical;
use crate::index::{StateIndex, StateNumber, SLOT_FIRST_KO, SLOT_PASSED, SLOT_PLAIN};
use crate::position::Position;
use crate::state::State;
use crate::unmove::{origins, LastMove};
use crate::value::Value;

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
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::Cancelled => write!(f, "the solve was interrupted"),
            SolveError::TooLarge { points } => write!(
                f,
                "a board of {points} points is over the solver's limits ({} points, 2^32 states)",
                crate::index::MAX_INDEX_POINTS
            ),
            SolveError::DepthOverflow { level, depth } => write!(
                f,
                "at margin {level} a forced line reached {depth} plies, more than the solver records ({})",
                cell::MAX_MOVER_DEPTH
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
    cells: Vec<u32>,
    stats: SolveStats,
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

    pub fn value(&self, number: StateNumber) -> Value {
        let points = self.board().points() as i32;
        let c = self.cells[number as usize];
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

    /// The value of any legal state (in any orientation).
    pub fn probe(&self, state: &State) -> Option<Value> {
        self.index.rank(state).map(|number| self.value(number))
    }

    /// Bytes held: the index and the cells.
    pub fn memory_bytes(&self) -> usize {
        self.index.memory_bytes() + self.cells.len() * 4
    }
}

/// An earlier position of a state, with the move that left it and its
/// canonical form.
type Origin = (Position, LastMove, Canonical);

/// Calls `visit(number)` for every canonical predecessor of `state`,
/// possibly more than once for one predecessor. The earlier positions are
/// gathered and their index lines touched before any is ranked, so that
/// their cache misses overlap. `scratch` is reused between calls.
#[inline]
fn for_each_predecessor(
    index: &StateIndex,
    state: &State,
    scratch: &mut Vec<Origin>,
    mut visit: impl FnMut(StateNumber),
) {
    let board = index.board();
    let codec = index.codec();
    scratch.clear();
    origins(board, state, |earlier, last_move| {
        scratch.push((earlier, last_move, codec.canonical(&earlier)));
    });
    let warm = scratch.iter().fold(0u64, |acc, (_, _, canonical)| {
        acc ^ index.touch(canonical.code)
    });
    std::hint::black_box(warm);
    for (earlier, last_move, canonical) in scratch.iter() {
        let entry = index
            .entry_of(*canonical)
            .expect("un-moves yield legal positions, and the index holds them all");
        visit(entry.plain());
        let forbidden = match last_move {
            LastMove::Place(point) => {
                visit(entry.passed());
                Some(*point)
            }
            LastMove::Pass => None,
        };
        let ko_points = earlier.ko_points(board);
        for ko in ko_points.iter() {
            if Some(ko) != forbidden {
                visit(index.ko_number(&entry, ko_points, ko));
            }
        }
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

const STATES_PER_FLAG: u32 = 64;
const STATES_PER_FLAG_WORD: u32 = 64 * STATES_PER_FLAG;

impl LayerFlags {
    fn new(states: u64) -> LayerFlags {
        let words = states.div_ceil(STATES_PER_FLAG_WORD as u64) as usize;
        let zeros = || (0..words).map(|_| AtomicU64::new(0)).collect();
        LayerFlags {
            current: zeros(),
            next: zeros(),
        }
    }

    /// Marks a state of the next layer.
    #[inline]
    fn mark_next(&self, number: StateNumber) {
        let word = (number / STATES_PER_FLAG_WORD) as usize;
        let bit = (number / STATES_PER_FLAG) % 64;
        self.next[word].fetch_or(1 << bit, Ordering::Relaxed);
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

/// Phase 2: every state's count of distinct children, and the pass margin of
/// every state after a pass.
fn count_children(index: &StateIndex, cells: &mut [u32], observer: &dyn Observer) -> u64 {
    let board = *index.board();
    let codec = index.codec();
    let points = board.points() as i32;
    let positions = index.counts().positions;
    let chunk = 4096u64;
    let cells = atomic_cells(cells);
    let chunks = positions.div_ceil(chunk);
    (0..chunks)
        .into_par_iter()
        .map(|c| {
            let first = c * chunk;
            let last = (first + chunk).min(positions);
            let mut edges = 0u64;
            let mut moves: Vec<(Point, u64)> = Vec::with_capacity(32);
            let mut keys: Vec<u64> = Vec::with_capacity(32);
            for entry in index.positions(first as u32).take((last - first) as usize) {
                let position = codec.decode(entry.code);
                moves.clear();
                for point in position.empty_points(&board).iter() {
                    if let Some(placed) = position.place(&board, point) {
                        let child = placed.position.swapped();
                        let canonical = codec.canonical(&child);
                        let ko = placed.ko.map_or(0, |k| {
                            codec.canonical_point(&canonical, k).index() as u64 + 1
                        });
                        moves.push((point, canonical.code << 6 | ko));
                    }
                }
                keys.clear();
                keys.extend(moves.iter().map(|&(_, key)| key));
                keys.sort_unstable();
                keys.dedup();
                let plain = keys.len() as u32 + 1;
                let margin = position.area_score(&board);
                cells[entry.state(SLOT_PLAIN) as usize]
                    .store(cell::fresh(plain, None, points), Ordering::Relaxed);
                cells[entry.state(SLOT_PASSED) as usize]
                    .store(cell::fresh(plain, Some(margin), points), Ordering::Relaxed);
                edges += 2 * plain as u64;
                if entry.ko_states > 0 {
                    let ko_points = index.canonical_ko_points(&position);
                    for (slot, ko) in ko_points.iter().enumerate() {
                        // Without the retake at the ko point, one child
                        // fewer, unless another move reaches the same one.
                        let retake = moves.iter().find(|&&(p, _)| p == ko).map(|&(_, key)| key);
                        let shared =
                            |key: u64| moves.iter().filter(|&&(_, k)| k == key).count() > 1;
                        let children = match retake {
                            Some(key) if !shared(key) => plain - 1,
                            _ => plain,
                        };
                        let number = entry.state(SLOT_FIRST_KO + slot as u32);
                        cells[number as usize]
                            .store(cell::fresh(children, None, points), Ordering::Relaxed);
                        edges += children as u64;
                    }
                }
            }
            observer.advanced(last - first);
            edges
        })
        .sum()
}

/// Phase 3, first step of a level: the states whose second pass ends the game
/// with margin `level` are won at depth 1; those whose second pass gives the
/// opponent `level` have one more child won for the opponent. Marks the
/// states decided in the next layer of `flags`; returns how many.
fn seed_level(index: &StateIndex, cells: &[AtomicU32], flags: &LayerFlags, level: i32) -> u64 {
    let points = index.board().points() as i32;
    let positions = index.counts().positions;
    let code = cell::margin_code(level, points);
    let chunk = 1u64 << 16;
    (0..positions.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let mut decided = 0;
            for number in c * chunk..((c + 1) * chunk).min(positions) {
                let passed_number = 2 * number as StateNumber + SLOT_PASSED;
                let passed = &cells[passed_number as usize];
                let current = passed.load(Ordering::Relaxed);
                let mut marked = false;
                if cell::pass_margin_before_a(current, points) == Some(level)
                    && cell::set_mover(passed, code, 1)
                {
                    marked = true;
                }
                if cell::pass_margin_before_b(current, points) == Some(-level)
                    && cell::child_won(passed)
                {
                    cell::set_opponent(passed, code, 1);
                    marked = true;
                }
                if marked {
                    flags.mark_next(passed_number);
                    decided += 1;
                }
            }
            decided
        })
        .sum()
}

/// Marks an update for a predecessor of a state that became won (else lost);
/// above every state number.
const CHILD_WON: u64 = 1 << 32;
/// Updates gathered before they are applied together.
const UPDATE_BATCH: usize = 128;

/// Applies a batch of updates to predecessors: `p | CHILD_WON` counts down
/// `p`'s children (and makes it lost at zero), `p` alone makes it won.
/// Returns how many states this decided; empties the batch.
fn apply_updates(
    cells: &[AtomicU32],
    flags: &LayerFlags,
    updates: &mut Vec<u64>,
    code: u32,
    depth: u32,
) -> u64 {
    // Plain loads first: their cache misses overlap, where each locked
    // update below would otherwise wait for its line in turn.
    let warm = updates.iter().fold(0u32, |acc, &u| {
        acc ^ cells[(u & !CHILD_WON) as usize].load(Ordering::Relaxed)
    });
    std::hint::black_box(warm);
    let mut decided = 0;
    for &update in updates.iter() {
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
    updates.clear();
    decided
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
    (0..flags.current.len())
        .into_par_iter()
        .filter(|&w| flags.current[w].load(Ordering::Relaxed) != 0)
        .map_init(
            || {
                (
                    Vec::<StateNumber>::with_capacity(64),
                    Vec::<u64>::with_capacity(2 * UPDATE_BATCH),
                    Vec::<Origin>::with_capacity(32),
                )
            },
            |(predecessors, updates, origins_scratch), w| {
                let mut bits = flags.current[w].load(Ordering::Relaxed);
                let mut cursor = index.state_cursor();
                let (mut here, mut decided) = (0u64, 0u64);
                while bits != 0 {
                    let block = w as StateNumber * STATES_PER_FLAG_WORD
                        + bits.trailing_zeros() * STATES_PER_FLAG;
                    bits &= bits - 1;
                    for number in block..(block + STATES_PER_FLAG).min(states) {
                        let current = cells[number as usize].load(Ordering::Relaxed);
                        let won = cell::decided_won(current, code, depth);
                        let lost = cell::decided_lost(current, code, depth);
                        if !won && !lost {
                            continue;
                        }
                        let state = cursor.state(number);
                        predecessors.clear();
                        for_each_predecessor(index, &state, origins_scratch, |p| {
                            predecessors.push(p)
                        });
                        predecessors.sort_unstable();
                        predecessors.dedup();
                        if won {
                            here += 1;
                            updates.extend(predecessors.iter().map(|&p| p as u64 | CHILD_WON));
                        }
                        if lost {
                            here += 1;
                            updates.extend(predecessors.iter().map(|&p| p as u64));
                        }
                        if updates.len() >= UPDATE_BATCH {
                            decided += apply_updates(cells, flags, updates, code, next_depth);
                        }
                    }
                }
                decided += apply_updates(cells, flags, updates, code, next_depth);
                (here, decided)
            },
        )
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
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
    /// A saved solve of `board` with `states` states, if there is one.
    fn load(&self, board: Board, states: u64) -> Option<(SolveProgress, Vec<u32>)>;
    /// The solve reached a level boundary; the store may save it.
    fn offer(&self, board: Board, progress: SolveProgress, cells: &[u32]);
}

/// No checkpoints: every solve starts from the beginning.
pub struct NoCheckpoints;

impl CheckpointStore for NoCheckpoints {
    fn load(&self, _: Board, _: u64) -> Option<(SolveProgress, Vec<u32>)> {
        None
    }

    fn offer(&self, _: Board, _: SolveProgress, _: &[u32]) {}
}

/// Solves every state of `board`.
pub fn solve(board: Board, observer: &dyn Observer) -> Result<Solution, SolveError> {
    solve_with_checkpoints(board, observer, &NoCheckpoints)
}

/// Solves every state of `board`, resuming from `store` if it holds a saved
/// solve and offering it the cells after counting children and after each
/// level. The cells at a level boundary determine the rest of the solve, so
/// a resumed solve ends exactly as an uninterrupted one.
pub fn solve_with_checkpoints(
    board: Board,
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
    let (mut cells, mut progress) = match store.load(board, counts.states) {
        Some((progress, cells)) if cells.len() as u64 == counts.states => (cells, progress),
        _ => {
            let started = Instant::now();
            observer.phase_started(Phase::CountChildren, counts.positions);
            let mut cells = vec![0u32; counts.states as usize];
            let edges = count_children(&index, &mut cells, observer);
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
    for level in (-points..=progress.next_level).rev() {
        let atomic = atomic_cells(&mut cells);
        observer.level_started(level);
        let mut waiting = seed_level(&index, atomic, &flags, level);
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
            let (here, next) = propagate_layer(&index, atomic, &flags, level, depth);
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
        store.offer(board, progress, &cells);
    }
    stats.edges = progress.edges;
    stats.flips = progress.flips;
    stats.largest_layer = progress.largest_layer;
    stats.largest_depth = progress.largest_depth;
    stats.retrograde_seconds = started.elapsed().as_secs_f64();
    Ok(Solution {
        index,
        cells,
        stats,
    })
}
