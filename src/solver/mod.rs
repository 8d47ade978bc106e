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
use crate::index::code::PositionCode;
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
                "a board of {points} points is over the solver's limit of {} points",
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

/// A state in a layer, with how it just changed: its canonical code, ko
/// point, pass flag, and whether it became won (else lost).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Entry(u64);

const ENTRY_CODE_BITS: u32 = 48;
const ENTRY_KO_SHIFT: u32 = 48;
const ENTRY_PASSED: u64 = 1 << 54;
const ENTRY_WON: u64 = 1 << 55;

impl Entry {
    #[inline]
    fn new(code: PositionCode, ko: Option<Point>, passed: bool) -> Entry {
        debug_assert!(code < 1 << ENTRY_CODE_BITS);
        let ko = ko.map_or(0, |k| k.index() as u64 + 1);
        Entry(code | ko << ENTRY_KO_SHIFT | if passed { ENTRY_PASSED } else { 0 })
    }

    #[inline]
    fn marked(self, won: bool) -> Entry {
        Entry(if won { self.0 | ENTRY_WON } else { self.0 })
    }

    #[inline]
    fn won(self) -> bool {
        self.0 & ENTRY_WON != 0
    }

    #[inline]
    fn state(self, index: &StateIndex) -> State {
        let code = self.0 & ((1 << ENTRY_CODE_BITS) - 1);
        let ko = (self.0 >> ENTRY_KO_SHIFT) & 0x3f;
        let position: Position = index.codec().decode(code);
        let ko = (ko != 0).then(|| Point::new(ko as usize - 1));
        State::from_parts(position, ko, self.0 & ENTRY_PASSED != 0)
    }
}

/// Calls `visit(number, entry)` for every canonical predecessor of `state`,
/// possibly more than once for one predecessor.
#[inline]
fn for_each_predecessor(
    index: &StateIndex,
    state: &State,
    mut visit: impl FnMut(StateNumber, Entry),
) {
    let board = index.board();
    let codec = index.codec();
    origins(board, state, |earlier, last_move| {
        let entry = index
            .locate(&earlier)
            .expect("un-moves yield legal positions, and the index holds them all");
        let code = entry.canonical.code;
        visit(entry.base + SLOT_PLAIN, Entry::new(code, None, false));
        let forbidden = match last_move {
            LastMove::Place(point) => {
                visit(entry.base + SLOT_PASSED, Entry::new(code, None, true));
                Some(point)
            }
            LastMove::Pass => None,
        };
        let ko_points = earlier.ko_points(board);
        for ko in ko_points.iter() {
            if Some(ko) == forbidden {
                continue;
            }
            let number = index.ko_number(&entry, ko_points, ko);
            let image = codec.canonical_point(&entry.canonical, ko);
            visit(number, Entry::new(code, Some(image), false));
        }
    });
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
            let mut walker = index.positions_from(first);
            let mut edges = 0u64;
            let mut moves: Vec<(Point, u64)> = Vec::with_capacity(32);
            let mut keys: Vec<u64> = Vec::with_capacity(32);
            for number in first..last {
                let code = walker.next_code().expect("walker covers every position");
                let position = codec.decode(code);
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
                let distinct = |skip: Option<Point>, keys: &mut Vec<u64>| -> u32 {
                    keys.clear();
                    keys.extend(
                        moves
                            .iter()
                            .filter(|(p, _)| Some(*p) != skip)
                            .map(|(_, k)| *k),
                    );
                    keys.sort_unstable();
                    keys.dedup();
                    keys.len() as u32
                };
                let (base, end) = index.state_range(number as u32);
                let plain = distinct(None, &mut keys) + 1;
                let margin = position.area_score(&board);
                cells[(base + SLOT_PLAIN) as usize]
                    .store(cell::fresh(plain, None, points), Ordering::Relaxed);
                cells[(base + SLOT_PASSED) as usize]
                    .store(cell::fresh(plain, Some(margin), points), Ordering::Relaxed);
                edges += 2 * plain as u64;
                if end > base + SLOT_FIRST_KO {
                    let ko_points = index.canonical_ko_points(&position);
                    for (slot, ko) in ko_points.iter().enumerate() {
                        let children = distinct(Some(ko), &mut keys) + 1;
                        let number = base + SLOT_FIRST_KO + slot as u32;
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
/// opponent `level` have one more child won for the opponent.
fn seed_level(index: &StateIndex, cells: &[AtomicU32], level: i32) -> Vec<Entry> {
    let points = index.board().points() as i32;
    let positions = index.counts().positions;
    let code = cell::margin_code(level, points);
    let chunk = 1u64 << 16;
    let chunks = positions.div_ceil(chunk);
    let parts: Vec<Vec<Entry>> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let first = c * chunk;
            let last = (first + chunk).min(positions);
            let mut walker = index.positions_from(first);
            let mut seeds = Vec::new();
            for number in first..last {
                let position_code = walker.next_code().expect("walker covers every position");
                let (base, _) = index.state_range(number as u32);
                let passed = &cells[(base + SLOT_PASSED) as usize];
                let current = passed.load(Ordering::Relaxed);
                let entry = Entry::new(position_code, None, true);
                if cell::pass_margin_before_a(current, points) == Some(level)
                    && cell::set_mover(passed, code, 1)
                {
                    seeds.push(entry.marked(true));
                }
                if cell::pass_margin_before_b(current, points) == Some(-level)
                    && cell::child_won(passed)
                {
                    cell::set_opponent(passed, code, 1);
                    seeds.push(entry.marked(false));
                }
            }
            seeds
        })
        .collect();
    parts.concat()
}

/// Phase 3, one layer: the states of `layer` changed at depth `depth`; returns
/// the states that change at depth `depth + 1`.
fn propagate_layer(
    index: &StateIndex,
    cells: &[AtomicU32],
    layer: &[Entry],
    level: i32,
    depth: u32,
) -> Vec<Entry> {
    let points = index.board().points() as i32;
    let code = cell::margin_code(level, points);
    let next_depth = depth + 1;
    let parts: Vec<Vec<Entry>> = layer
        .par_chunks(512)
        .map_init(
            || Vec::<(StateNumber, Entry)>::with_capacity(256),
            |predecessors, chunk| {
                let mut next = Vec::new();
                for entry in chunk {
                    let state = entry.state(index);
                    predecessors.clear();
                    for_each_predecessor(index, &state, |number, key| {
                        predecessors.push((number, key))
                    });
                    predecessors.sort_unstable_by_key(|&(number, _)| number);
                    predecessors.dedup_by_key(|&mut (number, _)| number);
                    if entry.won() {
                        for &(number, key) in predecessors.iter() {
                            let target = &cells[number as usize];
                            if cell::child_won(target) {
                                cell::set_opponent(target, code, next_depth);
                                next.push(key.marked(false));
                            }
                        }
                    } else {
                        for &(number, key) in predecessors.iter() {
                            if cell::set_mover(&cells[number as usize], code, next_depth) {
                                next.push(key.marked(true));
                            }
                        }
                    }
                }
                next
            },
        )
        .collect();
    parts.concat()
}

/// Solves every state of `board`.
pub fn solve(board: Board, observer: &dyn Observer) -> Result<Solution, SolveError> {
    if board.points() > crate::index::MAX_INDEX_POINTS {
        return Err(SolveError::TooLarge {
            points: board.points(),
        });
    }
    let mut stats = SolveStats::default();

    let started = Instant::now();
    observer.phase_started(Phase::Enumerate, 0);
    let index = StateIndex::build(board);
    stats.enumerate_seconds = started.elapsed().as_secs_f64();
    if observer.cancelled() {
        return Err(SolveError::Cancelled);
    }

    let started = Instant::now();
    let counts = index.counts();
    observer.phase_started(Phase::CountChildren, counts.positions);
    let mut cells = vec![0u32; counts.states as usize];
    stats.edges = count_children(&index, &mut cells, observer);
    stats.count_seconds = started.elapsed().as_secs_f64();
    if observer.cancelled() {
        return Err(SolveError::Cancelled);
    }

    let started = Instant::now();
    let points = board.points() as i32;
    // Each state flips at most twice: a bound for progress.
    observer.phase_started(Phase::Retrograde, 2 * counts.states);
    let flips = AtomicU64::new(0);
    {
        let atomic = atomic_cells(&mut cells);
        for level in (-points..=points).rev() {
            observer.level_started(level);
            let mut layer = seed_level(&index, atomic, level);
            let mut depth = 1;
            let mut level_flips = 0u64;
            while !layer.is_empty() {
                if observer.cancelled() {
                    return Err(SolveError::Cancelled);
                }
                if depth + 1 > cell::MAX_MOVER_DEPTH {
                    return Err(SolveError::DepthOverflow {
                        level,
                        depth: depth + 1,
                    });
                }
                level_flips += layer.len() as u64;
                observer.advanced(layer.len() as u64);
                stats.largest_depth = stats.largest_depth.max(depth);
                layer = propagate_layer(&index, atomic, &layer, level, depth);
                depth += 1;
            }
            flips.fetch_add(level_flips, Ordering::Relaxed);
            observer.level_finished(level, depth - 1, level_flips);
        }
    }
    stats.flips = flips.load(Ordering::Relaxed);
    stats.retrograde_seconds = started.elapsed().as_secs_f64();
    Ok(Solution {
        index,
        cells,
        stats,
    })
}
