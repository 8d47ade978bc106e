//! `smallgo verify`: checks a table without the builder.
//!
//! It shares the decoder (`format`) with the prober and the rules and state
//! numbering (`position`, `state`, `index`) with everything else, but nothing
//! of the solver: no un-moves, no counting, no levels. It checks the header
//! and checksum, that the file numbers exactly the canonical legal states a
//! plain enumeration finds, and then that every state's stored (A, B, dA, dB)
//! follows from its children's stored values by one step of minimax:
//!
//! - A(s) = the best of: B(c) over children c, and the margin of a second
//!   pass; dA(s) = 1 + the fewest plies among the choices that reach A(s).
//! - B(s) = the least of: A(c) over children c (none if any child has none),
//!   and minus the margin of a second pass; dB(s) = 1 + the most plies among
//!   the choices that reach B(s).
//!
//! Depths strictly fall along the choices that justify a value, so a table
//! that passes cannot hold a value supported only by a cycle.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::format::{Fault, TableBytes};
use super::mapped::Mapped;
use super::{Origin, TableError};
use crate::common::prefetch::prefetch_element;
use crate::index::code::Canonical;
use crate::index::{StateIndex, StateNumber, SLOT_FIRST_KO, SLOT_PASSED, SLOT_PLAIN};
use crate::rules::board::{Point, PointSet};
use crate::rules::position::Position;
use crate::rules::state::{Child, State};
use crate::rules::value::Value;
use crate::solver::plan::{self, VerifyHold};

/// What a successful verification checked.
#[derive(Clone, Copy, Debug)]
pub struct VerifyReport {
    pub states: u64,
    pub edges: u64,
    /// Passes over the table: one when both halves of every value fit in
    /// memory at once, else two.
    pub passes: u32,
    pub seconds: f64,
}

/// A state whose stored value does not follow from its children.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub number: StateNumber,
    pub state: State,
    pub stored: Value,
    pub expected: Value,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "state {} ({:?}) stores {} but its children give {}",
            self.number, self.state, self.stored, self.expected
        )
    }
}

/// The value a state must have, given its children's values: one step of
/// minimax with depths.
pub fn expected_value(
    index: &StateIndex,
    state: &State,
    values: &(dyn Fn(StateNumber) -> Value + Sync),
) -> (Value, u64) {
    let board = index.board();
    let mut ends = Vec::new();
    let mut children: Vec<StateNumber> = Vec::new();
    for mv in state.legal_moves(board) {
        match state.play(board, mv).expect("legal moves are legal") {
            Child::End { margin } => ends.push(margin),
            Child::State(child) => children.push(
                index
                    .rank(&child)
                    .expect("children of legal states are legal"),
            ),
        }
    }
    // Symmetric moves may reach one canonical child: count it once.
    children.sort_unstable();
    children.dedup();
    minimax(&ends, children.iter().map(|&number| values(number)))
}

/// One step of minimax with depths: the value of a state whose moves end
/// the game with `ends` (margins for the mover) or reach children with
/// these values, and the number of edges that makes.
pub fn minimax(ends: &[i32], children: impl Iterator<Item = Value>) -> (Value, u64) {
    // (margin, plies) choices for the mover and the opponent.
    let mut mover: Option<(i8, u16)> = None;
    let mut opponent: Option<(i8, u16)> = None;
    let mut opponent_blocked = false;
    let mut edges = 0u64;
    let mut consider = |mover_choice: Option<(i8, u16)>, opponent_choice: Option<(i8, u16)>| {
        edges += 1;
        if let Some((margin, plies)) = mover_choice {
            mover = Some(match mover {
                Some((best, fewest)) if best > margin || (best == margin && fewest <= plies) => {
                    (best, fewest)
                }
                _ => (margin, plies),
            });
        }
        match opponent_choice {
            None => opponent_blocked = true,
            Some((margin, plies)) => {
                opponent = Some(match opponent {
                    Some((least, most)) if least < margin || (least == margin && most >= plies) => {
                        (least, most)
                    }
                    _ => (margin, plies),
                });
            }
        }
    };
    for &margin in ends {
        consider(Some((margin as i8, 1)), Some((-margin as i8, 1)));
    }
    for value in children {
        consider(
            value
                .opponent_margin
                .map(|b| (b, value.opponent_depth.saturating_add(1))),
            value
                .mover_margin
                .map(|a| (a, value.mover_depth.saturating_add(1))),
        );
    }
    if opponent_blocked {
        opponent = None;
    }
    let value = Value {
        mover_margin: mover.map(|(m, _)| m),
        opponent_margin: opponent.map(|(m, _)| m),
        mover_depth: mover.map_or(0, |(_, d)| d),
        opponent_depth: opponent.map_or(0, |(_, d)| d),
    };
    (value, edges)
}

/// Checks every state's value against its children's. Returns the number of
/// edges checked, or the first mismatch in state order.
#[cfg(test)]
pub fn check_values(
    index: &StateIndex,
    values: &(dyn Fn(StateNumber) -> Value + Sync),
) -> Result<u64, Mismatch> {
    let positions = index.counts().positions;
    let chunk = 4096u64;
    let results: Vec<Result<u64, Mismatch>> = (0..positions.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let first = c * chunk;
            let last = (first + chunk).min(positions);
            let mut edges = 0;
            for entry in index.positions(first).take((last - first) as usize) {
                for slot in 0..entry.slots() {
                    let state = index.state_at(entry.code, slot);
                    let (expected, checked) = expected_value(index, &state, values);
                    edges += checked;
                    let number = entry.state(slot);
                    let stored = values(number);
                    if stored != expected {
                        return Err(Mismatch {
                            number,
                            state,
                            stored,
                            expected,
                        });
                    }
                }
            }
            Ok(edges)
        })
        .collect();
    let mut edges = 0;
    for result in results {
        edges += result?;
    }
    Ok(edges)
}

/// One side's half of a value, A(s) and dA(s) or B(s) and dB(s), held as
/// one number: the margin plus 64 in the low 7 bits (0 for none), the depth
/// above them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    /// A(s) and dA(s).
    Mover,
    /// B(s) and dB(s).
    Opponent,
}

impl Half {
    fn of(self, value: &Value) -> u32 {
        let (margin, depth) = match self {
            Half::Mover => (value.mover_margin, value.mover_depth),
            Half::Opponent => (value.opponent_margin, value.opponent_depth),
        };
        // Margins are within the board's points, far inside -63..=63.
        margin.map_or(0, |m| (m as i32 + 64) as u32 & 0x7f) | (depth as u32) << 7
    }

    /// The half `half` (`Half::of`) in its place in a pair (`pair_of`).
    fn in_pair(self, half: u32) -> u64 {
        match self {
            Half::Mover => (half as u64) << PAIR_SHIFT,
            Half::Opponent => half as u64,
        }
    }

    /// This half of a pair (`pair_of`).
    fn of_pair(self, pair: u64) -> u32 {
        match self {
            Half::Mover => (pair >> PAIR_SHIFT) as u32,
            Half::Opponent => (pair & PAIR_MASK) as u32,
        }
    }

    fn set(self, value: &mut Value, half: u32) {
        let code = half & 0x7f;
        let margin = (code != 0).then(|| (code as i32 - 64) as i8);
        let depth = (half >> 7) as u16;
        match self {
            Half::Mover => (value.mover_margin, value.mover_depth) = (margin, depth),
            Half::Opponent => (value.opponent_margin, value.opponent_depth) = (margin, depth),
        }
    }

    /// The half of the children's values this half of a state follows
    /// from: A(s) from the children's B, B(s) from their A.
    fn of_children(self) -> Half {
        match self {
            Half::Mover => Half::Opponent,
            Half::Opponent => Half::Mover,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Half::Mover => "A, dA",
            Half::Opponent => "B, dB",
        }
    }

    /// Only this half of `value`, the other left empty.
    fn only(self, value: &Value) -> Value {
        let mut out = Value::default();
        self.set(&mut out, self.of(value));
        out
    }
}

/// How `verify` may use memory.
#[derive(Clone, Copy, Debug)]
pub struct VerifyOptions {
    /// Use at most this many bytes (`--memory`); by default, the memory
    /// available.
    pub memory: Option<u64>,
    /// How many of the most common halves get a code of their own (at most
    /// 255); fewer only to test the others' path.
    #[doc(hidden)]
    pub common_halves: usize,
    /// Code both halves in pairs whenever both are not held in two bytes a
    /// state, whatever the memory and the share kept beside; only to test
    /// the pairs' path.
    #[doc(hidden)]
    pub force_pairs: bool,
}

impl Default for VerifyOptions {
    fn default() -> VerifyOptions {
        VerifyOptions {
            memory: None,
            common_halves: 255,
            force_pairs: false,
        }
    }
}

/// The halves held of every state's value: for each, a byte a state that
/// stands for the half (`HalfTable`), or one byte a state for both halves
/// (`PairTable`). The bytes of one state lie side by side, so that the
/// check finds all of a child's halves in one cache line.
struct Held {
    /// `lanes` bytes a state, in state order.
    codes: Vec<u8>,
    lanes: usize,
    tables: Vec<HalfTable>,
    /// Both halves in one byte a state (`lanes` is 1, `tables` empty).
    pairs: Option<PairTable>,
}

impl Held {
    /// Whether it holds the halves `halves` of every state's value.
    fn holds(&self, halves: &[Half]) -> bool {
        self.pairs.is_some()
            || halves
                .iter()
                .all(|&half| self.tables.iter().any(|table| table.half == half))
    }

    /// Asks for the cache line of state `number`'s bytes.
    #[inline]
    fn prefetch(&self, number: StateNumber) {
        prefetch_element(&self.codes, number as usize * self.lanes);
    }

    /// The halves held of state `number`'s value as a pair (`pair_of`),
    /// a half not held 0 (no margin, no depth); `context` is the state's
    /// (`context`).
    #[inline]
    fn pair(&self, number: StateNumber, context: usize) -> u64 {
        if let Some(pairs) = &self.pairs {
            return pairs.get(&self.codes, number, context);
        }
        let first = number as usize * self.lanes;
        let mut pair = 0;
        for (lane, table) in self.tables.iter().enumerate() {
            pair |= table
                .half
                .in_pair(table.get(self.codes[first + lane], number));
        }
        pair
    }
}

/// The codes written while a sweep reads the blocks on both cores: read
/// only from then on, as plain bytes.
fn settled(codes: Vec<AtomicU8>) -> Vec<u8> {
    codes.into_iter().map(AtomicU8::into_inner).collect()
}

/// Both halves of a value as one number: A and dA above, B and dB in the
/// low `PAIR_SHIFT` bits (a half is a 7-bit margin and a 16-bit depth).
const PAIR_SHIFT: u32 = 23;
const PAIR_MASK: u64 = (1 << PAIR_SHIFT) - 1;

fn pair_of(value: &Value) -> u64 {
    Half::Mover.in_pair(Half::Mover.of(value)) | Half::Opponent.in_pair(Half::Opponent.of(value))
}

/// The value a pair (`pair_of`) stands for.
fn value_of_pair(pair: u64) -> Value {
    let mut value = Value::default();
    for half in [Half::Mover, Half::Opponent] {
        half.set(&mut value, half.of_pair(pair));
    }
    value
}

/// `minimax` on pairs of halves (`pair_of`): the pair of the value a state
/// must have whose moves reach children with the pairs `children`, with
/// one more move that ends the game with margin `end` for the mover, if
/// any; and the number of edges that makes. A half is ranked by one
/// number (`choice`), so that each child costs a maximum and a minimum.
#[inline]
fn minimax_pairs(end: Option<i32>, children: impl Iterator<Item = u64>) -> (u64, u64) {
    // The mover's best choice: the largest rank among the children's
    // B and dB. The opponent's: the smallest among their A and dA, where a
    // child with no A ranks lowest and leaves the opponent none.
    let mut best = 0u32;
    let mut least = u32::MAX;
    let mut edges = 0u64;
    let mut consider = |pair: u64| {
        edges += 1;
        best = best.max(choice(pair & PAIR_MASK));
        least = least.min(choice(pair >> PAIR_SHIFT));
    };
    if let Some(margin) = end {
        // The end is the mover's margin, and its opposite the opponent's,
        // in one ply: a child of depth 0 with those margins.
        let code = |margin: i32| ((margin + 64) as u64) & 0x7f;
        consider(code(-margin) << PAIR_SHIFT | code(margin));
    }
    for pair in children {
        consider(pair);
    }
    let opponent = if least == u32::MAX { 0 } else { chosen(least) };
    (chosen(best) << PAIR_SHIFT | opponent, edges)
}

/// A half (`Half::of`) as a choice's rank: its margin's code above, and
/// below the depth subtracted from 2^16 - 1, so that of two choices of
/// one margin the shorter ranks higher; a half with no margin ranks below
/// every half with one.
#[inline]
fn choice(half: u64) -> u32 {
    let half = half as u32;
    (half & 0x7f) << 16 | (0xffff - (half >> 7))
}

/// The half a choice of rank `rank` gives the state: its margin, one ply
/// more; no margin (0) if the rank has none.
#[inline]
fn chosen(rank: u32) -> u64 {
    if rank >> 16 == 0 {
        return 0;
    }
    let plies = (0xffff - (rank & 0xffff) + 1).min(0xffff);
    ((rank >> 16) | plies << 7) as u64
}

/// The kinds of state a context tells apart: plain, after a pass, with a
/// ko point.
const KINDS: usize = 3;

/// A state's context: its kind and its stones, the mover's and the
/// other's. States of one context share their most common values far more
/// than the states of the board do, so a byte names the value of more of
/// them; the check knows each child's context before it looks it up.
#[inline]
fn context(points: usize, kind: usize, position: &Position) -> usize {
    (kind * (points + 1) + position.us().len()) * (points + 1) + position.them().len()
}

/// The context of a state (`context`).
#[inline]
fn state_context(points: usize, state: &State) -> usize {
    let kind = if state.ko().is_some() {
        2
    } else {
        state.passed() as usize
    };
    context(points, kind, &state.position())
}

fn contexts(points: usize) -> usize {
    KINDS * (points + 1) * (points + 1)
}

/// How a byte stands for both halves of a value: within the state's
/// context, one of the context's most common pairs of halves (at most 255,
/// by a sample of the table), or `OTHER`, whose pair is kept beside, found
/// by state number (`Beside`): as two more bytes, one for each half, each one of the
/// halves most common (at most 255) among the pairs kept beside of the
/// contexts of the same kind and number of stones, or, when either half is
/// not among those, as the pair itself.
struct PairTable {
    /// Each context's most common pairs (`pair_of`), sorted.
    first: Levels<u64>,
    /// Each group's (`group`) most common A and dA, and B and dB, among
    /// the pairs kept beside, sorted.
    movers: Levels<u32>,
    opponents: Levels<u32>,
    /// Each context's group (`group`).
    groups: Vec<u16>,
    /// The first ko state's number: the pairs kept beside are in two
    /// lists each, for the states before it and for the ko states.
    ko_start: StateNumber,
    /// The bytes of the halves.
    plain: Beside,
    ko: Beside,
    /// The pairs whose halves are not both among their group's.
    plain_rare: Others<u64>,
    ko_rare: Others<u64>,
}

/// Each context's (or group's) list, one after another.
struct Levels<T> {
    /// Where each one's list starts in `items`, and where the last's end.
    starts: Vec<u32>,
    items: Vec<T>,
}

impl<T: Copy + Ord> Levels<T> {
    fn new(lists: &[Vec<T>]) -> Levels<T> {
        let mut starts = Vec::with_capacity(lists.len() + 1);
        starts.push(0u32);
        for list in lists {
            starts.push(starts.last().copied().unwrap_or(0) + list.len() as u32);
        }
        Levels {
            starts,
            items: lists.concat(),
        }
    }

    #[inline]
    fn of(&self, at: usize) -> &[T] {
        &self.items[self.starts[at] as usize..self.starts[at + 1] as usize]
    }

    /// The code of `item` in list `at` (sorted): its place, or `OTHER`.
    #[inline]
    fn code(&self, at: usize, item: T) -> u8 {
        self.of(at).binary_search(&item).map_or(OTHER, |i| i as u8)
    }
}

/// The group of a context: its kind and its number of stones, `side`
/// being the board's points plus one.
#[inline]
fn group(side: usize, context: usize) -> usize {
    let kind = context / (side * side);
    let stones = (context / side) % side + context % side;
    kind * (2 * side - 1) + stones
}

fn groups(points: usize) -> usize {
    KINDS * (2 * points + 1)
}

impl PairTable {
    /// Asks for the lines `get` reads for state `number` beside its byte,
    /// when the byte (in `codes`, arrived or on its way) says its pair is
    /// kept beside: the start of its stretch and the codes before it in
    /// the stretch.
    #[inline]
    fn prefetch_beside(&self, codes: &[u8], number: StateNumber, context: usize) {
        let code = codes[number as usize];
        if (code as usize) < self.first.of(context).len() {
            return;
        }
        let (beside, at) = match number.checked_sub(self.ko_start) {
            None => (&self.plain, number),
            Some(ko) => (&self.ko, ko),
        };
        prefetch_element(&beside.stretches, (at >> STRETCH_SHIFT) as usize);
        let start = number & !((1 << STRETCH_SHIFT) - 1);
        for line in (start..number).step_by(64) {
            prefetch_element(codes, line as usize);
        }
    }

    /// The pair that state `number`'s byte in `codes` stands for.
    #[inline]
    fn get(&self, codes: &[u8], number: StateNumber, context: usize) -> u64 {
        let code = codes[number as usize];
        if let Some(&pair) = self.first.of(context).get(code as usize) {
            return pair;
        }
        let ko = number.checked_sub(self.ko_start);
        let halves = match ko {
            None => self.plain.get(number, codes),
            Some(ko) => self.ko.get(ko, &codes[self.ko_start as usize..]),
        };
        let [mover, opponent] = halves.expect("every state coded OTHER has its halves' bytes");
        let at = self.groups[context] as usize;
        let mover = self.movers.of(at).get(mover as usize);
        let opponent = self.opponents.of(at).get(opponent as usize);
        if let (Some(&mover), Some(&opponent)) = (mover, opponent) {
            return (mover as u64) << PAIR_SHIFT | opponent as u64;
        }
        let found = match ko {
            None => self.plain_rare.get(number),
            Some(ko) => self.ko_rare.get(ko),
        };
        found.expect("every state whose halves are not both coded has its pair kept beside")
    }

    /// The pairs kept beside: with two bytes, and whole.
    fn others(&self) -> (usize, usize) {
        (
            self.plain.entries.len() + self.ko.entries.len(),
            self.plain_rare.numbers.len() + self.ko_rare.numbers.len(),
        )
    }
}

/// States per stretch of `Beside`.
const STRETCH_SHIFT: u32 = 8;

/// Two bytes for each of the states coded `OTHER`, in the order of their
/// numbers (counted from the list's first state): 2 bytes each, found
/// through the run of 2^16 states a number lies in, then the stretch of
/// 256 states within the run (2 bytes for every 256 states), then the
/// states coded `OTHER` before it in the stretch, counted in the codes.
#[derive(Default)]
struct Beside {
    /// Where each run's entries start in `entries`, and where the last
    /// run's end.
    runs: Vec<u64>,
    /// Where each stretch's entries start, counted from its run's first.
    stretches: Vec<u16>,
    entries: Vec<[u8; 2]>,
}

impl Beside {
    /// Room for `states` states, `expected` of them coded `OTHER`:
    /// reserved at once, so that the list is not copied as it grows.
    fn with_room(states: u64, expected: u64) -> Beside {
        let runs = (states >> RUN_SHIFT) as usize + 1;
        let stretches = (states >> STRETCH_SHIFT) as usize + 1;
        Beside {
            runs: vec![0; runs + 1],
            stretches: vec![0; stretches],
            entries: Vec::with_capacity(expected as usize),
        }
    }

    /// Keeps `bytes` for state `number`, coded `OTHER`, numbers given in
    /// rising order. `runs` and `stretches` count each one's entries until
    /// `finish` sums them.
    fn push(&mut self, number: StateNumber, bytes: [u8; 2]) {
        self.runs[(number >> RUN_SHIFT) as usize + 1] += 1;
        self.stretches[(number >> STRETCH_SHIFT) as usize] += 1;
        self.entries.push(bytes);
    }

    fn finish(&mut self) {
        for run in 1..self.runs.len() {
            self.runs[run] += self.runs[run - 1];
        }
        // A run's stretches: at most 255 before the last, of at most 256
        // entries each, so a start fits in 16 bits.
        for run in self.stretches.chunks_mut(1 << (RUN_SHIFT - STRETCH_SHIFT)) {
            let mut before = 0u16;
            for stretch in run {
                let count = *stretch;
                *stretch = before;
                before = before.wrapping_add(count);
            }
        }
        self.entries.shrink_to_fit();
    }

    /// The bytes of state `number`, coded `OTHER` in `codes` (the list's
    /// states' codes, from its first).
    #[inline]
    fn get(&self, number: StateNumber, codes: &[u8]) -> Option<[u8; 2]> {
        let run = (number >> RUN_SHIFT) as usize;
        let stretch = (number >> STRETCH_SHIFT) as usize;
        let first = *self.runs.get(run)? as usize + *self.stretches.get(stretch)? as usize;
        let start = (number & !((1 << STRETCH_SHIFT) - 1)) as usize;
        let before = codes
            .get(start..number as usize)?
            .iter()
            .filter(|&&code| code == OTHER)
            .count();
        self.entries.get(first + before).copied()
    }
}

/// How a byte stands for one half of a value: one of the 255 halves most
/// common in a sample of the table, or `OTHER`, whose half is kept beside,
/// found by state number.
struct HalfTable {
    half: Half,
    common: Vec<u32>,
    /// The first ko state's number: the halves kept beside are in two
    /// lists, for the states before it and for the ko states.
    ko_start: StateNumber,
    plain: Others,
    ko: Others,
}

const OTHER: u8 = 255;
const RUN_SHIFT: u32 = 16;

impl HalfTable {
    /// The half that `code`, state `number`'s byte, stands for.
    fn get(&self, code: u8, number: StateNumber) -> u32 {
        if let Some(&half) = self.common.get(code as usize) {
            return half;
        }
        let found = match number.checked_sub(self.ko_start) {
            None => self.plain.get(number),
            Some(ko) => self.ko.get(ko),
        };
        found.expect("every state coded OTHER has its half kept beside")
    }

    /// The halves kept beside.
    fn others(&self) -> usize {
        self.plain.numbers.len() + self.ko.numbers.len()
    }
}

/// Halves kept beside the codes, in the order of their states' numbers
/// (counted from the list's first state): 6 bytes each, found through the
/// run of 2^16 states a number lies in, then its low 16 bits.
#[derive(Default)]
struct Others<T = u32> {
    /// Where each run's halves start in `numbers` and `halves`, and where
    /// the last run's end.
    starts: Vec<u64>,
    numbers: Vec<u16>,
    halves: Vec<T>,
}

impl<T: Copy> Others<T> {
    /// Room for `states` states, `expected` of them kept beside: reserved
    /// at once, so that the lists are not copied as they grow.
    fn with_room(states: u64, expected: u64) -> Others<T> {
        let runs = (states >> RUN_SHIFT) as usize + 1;
        Others {
            starts: vec![0; runs + 1],
            numbers: Vec::with_capacity(expected as usize),
            halves: Vec::with_capacity(expected as usize),
        }
    }

    /// Keeps `half` for state `number`, numbers given in rising order.
    /// `starts` counts each run's halves until `finish` sums them.
    fn push(&mut self, number: StateNumber, half: T) {
        self.starts[(number >> RUN_SHIFT) as usize + 1] += 1;
        self.numbers.push(number as u16);
        self.halves.push(half);
    }

    fn finish(&mut self) {
        for run in 1..self.starts.len() {
            self.starts[run] += self.starts[run - 1];
        }
        self.numbers.shrink_to_fit();
        self.halves.shrink_to_fit();
    }

    fn get(&self, number: StateNumber) -> Option<T> {
        let run = (number >> RUN_SHIFT) as usize;
        let first = *self.starts.get(run)? as usize;
        let last = *self.starts.get(run + 1)? as usize;
        let at = self.numbers[first..last]
            .binary_search(&(number as u16))
            .ok()?;
        Some(self.halves[first + at])
    }
}

/// Blocks decoded at once: enough to keep both cores busy, few enough that
/// their values and the file bytes they came from stay small.
const BATCH: u32 = 64;

/// The blocks in batches, with the bytes each batch took in the file.
fn batches(table: &TableBytes<'_>) -> impl Iterator<Item = std::ops::Range<u32>> {
    let blocks = table.header().blocks;
    (0..blocks)
        .step_by(BATCH as usize)
        .map(move |first| first..(first + BATCH).min(blocks))
}

/// Counts over a sample of about a sixteenth of the blocks (every block of
/// a small table), `count` adding one block's to a thread's map, summed.
/// The sampled pages are let go as each stride is read, and all of them
/// at the end (the kernel maps pages around each block read).
fn sample_blocks<K, F>(
    table: &TableBytes<'_>,
    sweep: &Sweep<'_>,
    count: F,
) -> Result<HashMap<K, u64>, Fault>
where
    K: std::hash::Hash + Eq + Send,
    F: Fn(u32, &mut HashMap<K, u64>) -> Result<(), Fault> + Sync,
{
    let blocks = table.header().blocks;
    let stride = if blocks < 1024 { 1 } else { 16 };
    let counts = (0..blocks)
        .step_by(stride)
        .collect::<Vec<u32>>()
        .into_par_iter()
        .map(|b| {
            let mut counts = HashMap::new();
            count(b, &mut counts)?;
            if let Some(span) = table.blocks_span(b, (b + stride as u32).min(blocks)) {
                (sweep.release)(span);
            }
            Ok(counts)
        })
        .try_reduce(HashMap::new, |mut all, counts| {
            for (key, n) in counts {
                *all.entry(key).or_default() += n;
            }
            Ok(all)
        })?;
    if let Some(span) = table.blocks_span(0, blocks) {
        (sweep.release)(span);
    }
    Ok(counts)
}

/// The `limit` halves most common in a sample of about a sixteenth of the
/// blocks, most common first, and the share of the sample's states whose
/// half is not among them.
fn common_halves(
    table: &TableBytes<'_>,
    half: Half,
    limit: usize,
    sweep: &Sweep<'_>,
) -> Result<(Vec<u32>, f64), Fault> {
    let counts = sample_blocks(table, sweep, |b, counts: &mut HashMap<u32, u64>| {
        for value in table.block(b)?.values {
            *counts.entry(half.of(&value)).or_default() += 1;
        }
        Ok(())
    })?;
    let mut ranked: Vec<(u32, u64)> = counts.into_iter().collect();
    ranked.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let limit = limit.min(OTHER as usize);
    let sampled: u64 = ranked.iter().map(|&(_, count)| count).sum();
    let beside: u64 = ranked.iter().skip(limit).map(|&(_, count)| count).sum();
    let share = beside as f64 / sampled.max(1) as f64;
    let common = ranked.into_iter().take(limit).map(|(half, _)| half);
    Ok((common.collect(), share))
}

/// Checks that the file numbers the same states as `index`: counts and
/// directory.
fn check_numbering(table: &TableBytes<'_>, index: &StateIndex) -> Result<(), Fault> {
    let header = table.header();
    let counts = index.counts();
    if (header.positions, header.ko_states, header.states)
        != (counts.positions, counts.ko_states, counts.states)
    {
        return Err(Fault::Inconsistent(format!(
            "the header counts {} positions, {} ko states, {} states; the board has {}, {}, {}",
            header.positions,
            header.ko_states,
            header.states,
            counts.positions,
            counts.ko_states,
            counts.states
        )));
    }
    let directory = table.directory()?;
    if !directory
        .iter()
        .copied()
        .eq(super::format::directory_counts(index.presence_words()))
    {
        return Err(Fault::Inconsistent(
            "the directory does not match the board's positions".into(),
        ));
    }
    Ok(())
}

/// Decodes block `b` and hands each of its states to `visit` with its
/// position's code, its slot, its number and its stored value, after checking that each position has the ko
/// states the board gives it.
pub(crate) fn visit_block<E: From<Fault>>(
    table: &TableBytes<'_>,
    index: &StateIndex,
    b: u32,
    mut visit: impl FnMut(u64, u32, StateNumber, Value) -> Result<(), E>,
) -> Result<(), E> {
    let block = table.block(b)?;
    let (first, last) = table.block_positions(b);
    for (i, entry) in index
        .positions(first)
        .take((last - first) as usize)
        .enumerate()
    {
        let stored = block.starts[i + 1] - block.starts[i];
        if stored != entry.slots() {
            return Err(Fault::Inconsistent(format!(
                "position {} has {} ko states in the file, {} on the board",
                entry.number,
                stored as i64 - SLOT_FIRST_KO as i64,
                entry.ko_states
            ))
            .into());
        }
        for slot in 0..entry.slots() {
            let value = block.value(i, slot).expect("slot counted above");
            visit(entry.code, slot, entry.state(slot), value)?;
        }
    }
    Ok(())
}

/// Reads `halves` of every state's value, a byte a state for each, in
/// one sweep over the blocks.
fn read_halves(
    table: &TableBytes<'_>,
    index: &StateIndex,
    halves: &[Half],
    limit: usize,
    sweep: &Sweep<'_>,
) -> Result<Held, Fault> {
    let lanes = halves.len();
    let counts = index.counts();
    let states = counts.states;
    let ko_start = 2 * counts.positions;
    let mut tables = Vec::with_capacity(lanes);
    let mut encodes = Vec::with_capacity(lanes);
    for &half in halves {
        let (common, share) = common_halves(table, half, limit, sweep)?;
        // Up to the largest common half: any half above it is `OTHER`.
        let mut encode = vec![OTHER; common.iter().max().map_or(0, |&h| h as usize + 1)];
        for (code, &h) in common.iter().enumerate() {
            encode[h as usize] = code as u8;
        }
        encodes.push(encode);
        // The sample's share, with a margin for the blocks it left out.
        let expected = |states: u64| (states as f64 * share * 1.2) as u64 + 1024;
        tables.push(HalfTable {
            half,
            common,
            ko_start,
            plain: Others::with_room(ko_start, expected(ko_start)),
            ko: Others::with_room(states - ko_start, expected(states - ko_start)),
        });
    }
    // Read at random places in the check: 2 MiB pages spare most of those
    // reads a miss in the address-translation cache as well.
    let bytes = states as usize * lanes;
    let mut codes: Vec<AtomicU8> = Vec::with_capacity(bytes);
    crate::common::huge_pages::advise(codes.spare_capacity_mut());
    codes.resize_with(bytes, || AtomicU8::new(OTHER));
    for batch in batches(table) {
        // Within each list, a block's states follow the block before's.
        type Found = Vec<[Vec<(StateNumber, u32)>; 2]>;
        let found: Vec<Found> = batch
            .clone()
            .into_par_iter()
            .map(|b| {
                let mut others: Found = (0..lanes).map(|_| [Vec::new(), Vec::new()]).collect();
                visit_block(table, index, b, |_, _, number, value| {
                    for (lane, half) in halves.iter().enumerate() {
                        let h = half.of(&value);
                        let code = encodes[lane].get(h as usize).copied().unwrap_or(OTHER);
                        codes[number as usize * lanes + lane].store(code, Ordering::Relaxed);
                        if code == OTHER {
                            others[lane][(number >= ko_start) as usize].push((number, h));
                        }
                    }
                    Ok::<(), Fault>(())
                })?;
                for list in others.iter_mut().flatten() {
                    list.sort_unstable_by_key(|&(number, _)| number);
                }
                Ok(others)
            })
            .collect::<Result<_, Fault>>()?;
        for others in found {
            for (table, [in_plain, in_ko]) in tables.iter_mut().zip(others) {
                for (number, h) in in_plain {
                    table.plain.push(number, h);
                }
                for (number, h) in in_ko {
                    table.ko.push(number - ko_start, h);
                }
            }
        }
        sweep.done(table, batch);
    }
    for table in &mut tables {
        table.plain.finish();
        table.ko.finish();
    }
    Ok(Held {
        codes: settled(codes),
        lanes,
        tables,
        pairs: None,
    })
}

/// Gives the memory the allocator holds free back to the system: the
/// sample's counts and the read's maps of pairs kept beside, let go, would
/// otherwise stay resident under the codes.
fn return_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only hands free memory of the allocator's own
    // arenas back to the system; no live allocation is touched.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Fixes the allocator's thresholds for the sweeps: allocations of 1 MiB
/// and more (a decoded block, a grown list) are mapped on their own and
/// unmapped when let go, and an arena keeps at most 1 MiB free at its top.
/// Left to itself, glibc raises both thresholds after a large mapped
/// allocation is let go (the index's build, the sample's counts), up to
/// 32 and 64 MiB, and the decoded blocks' and lists' memory then stays
/// resident beside the codes until `return_free_memory`.
fn hold_allocator_thresholds() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes when the allocator maps and trims
    // memory; no live allocation is touched.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 20);
    }
}

/// What a sample of the blocks says of the pairs (`PairTable`): each
/// context's `limit` pairs most common, and each group's `limit` halves
/// of each side most common among the rest, each list sorted.
struct CommonPairs {
    first: Vec<Vec<u64>>,
    movers: Vec<Vec<u32>>,
    opponents: Vec<Vec<u32>>,
    /// The share of the sample's states whose pair is not among its
    /// context's first, and the share of those whose halves are not both
    /// among their group's.
    beside: f64,
    rare: f64,
}

/// The pairs and halves most common in a sample of about a sixteenth of
/// the blocks (`CommonPairs`).
fn common_pairs(
    table: &TableBytes<'_>,
    index: &StateIndex,
    limit: usize,
    sweep: &Sweep<'_>,
) -> Result<CommonPairs, Fault> {
    let points = index.board().points();
    let side = points + 1;
    // Keyed by context above the pair.
    let counts = sample_blocks(table, sweep, |b, counts: &mut HashMap<u64, u64>| {
        let mut last = None;
        visit_block(table, index, b, |code, slot, _, value| {
            let position = match last {
                Some((c, p)) if c == code => p,
                _ => index.codec().decode(code),
            };
            last = Some((code, position));
            let kind = slot.min(SLOT_FIRST_KO) as usize;
            let key = (context(points, kind, &position) as u64) << (2 * PAIR_SHIFT);
            *counts.entry(key | pair_of(&value)).or_default() += 1;
            Ok::<(), Fault>(())
        })
    })?;
    let mut ranked: Vec<Vec<(u64, u64)>> = vec![Vec::new(); contexts(points)];
    for (key, count) in counts {
        ranked[(key >> (2 * PAIR_SHIFT)) as usize]
            .push((key & ((1 << (2 * PAIR_SHIFT)) - 1), count));
    }
    let limit = limit.min(OTHER as usize);
    let (mut sampled, mut beside) = (0u64, 0u64);
    // The pairs kept beside, by group: (pair, count).
    let mut kept: Vec<Vec<(u64, u64)>> = vec![Vec::new(); groups(points)];
    let mut first = Vec::with_capacity(ranked.len());
    for (context, mut pairs) in ranked.into_iter().enumerate() {
        pairs.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        sampled += pairs.iter().map(|&(_, n)| n).sum::<u64>();
        beside += pairs.iter().skip(limit).map(|&(_, n)| n).sum::<u64>();
        kept[group(side, context)].extend(pairs.iter().skip(limit));
        let mut common: Vec<u64> = pairs.iter().take(limit).map(|&(pair, _)| pair).collect();
        common.sort_unstable();
        first.push(common);
    }
    // Each group's most common halves of each side among its pairs kept
    // beside.
    let most_common = |pairs: &[(u64, u64)], half: fn(u64) -> u32| {
        let mut counts: HashMap<u32, u64> = HashMap::new();
        for &(pair, n) in pairs {
            *counts.entry(half(pair)).or_default() += n;
        }
        let mut ranked: Vec<(u32, u64)> = counts.into_iter().collect();
        ranked.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut common: Vec<u32> = ranked.into_iter().take(limit).map(|(h, _)| h).collect();
        common.sort_unstable();
        common
    };
    let mover = |pair: u64| (pair >> PAIR_SHIFT) as u32;
    let opponent = |pair: u64| (pair & PAIR_MASK) as u32;
    let movers: Vec<Vec<u32>> = kept.iter().map(|pairs| most_common(pairs, mover)).collect();
    let opponents: Vec<Vec<u32>> = kept
        .iter()
        .map(|pairs| most_common(pairs, opponent))
        .collect();
    let mut rare = 0u64;
    for (at, pairs) in kept.iter().enumerate() {
        for &(pair, n) in pairs {
            let coded = movers[at].binary_search(&mover(pair)).is_ok()
                && opponents[at].binary_search(&opponent(pair)).is_ok();
            rare += if coded { 0 } else { n };
        }
    }
    let share = |n: u64| n as f64 / sampled.max(1) as f64;
    Ok(CommonPairs {
        first,
        movers,
        opponents,
        beside: share(beside),
        rare: share(rare),
    })
}

/// Reads both halves of every state's value, a byte a state, in one sweep
/// over the blocks, coded by `common` (`common_pairs`).
fn read_pairs(
    table: &TableBytes<'_>,
    index: &StateIndex,
    common: CommonPairs,
    sweep: &Sweep<'_>,
) -> Result<Held, Fault> {
    let points = index.board().points();
    let side = points + 1;
    let counts = index.counts();
    let states = counts.states;
    let ko_start = 2 * counts.positions;
    // The sample's shares, with a margin for the blocks it left out.
    let expected = |states: u64, share: f64| (states as f64 * share * 1.2) as u64 + 1024;
    let kos = states - ko_start;
    let mut pairs = PairTable {
        first: Levels::new(&common.first),
        movers: Levels::new(&common.movers),
        opponents: Levels::new(&common.opponents),
        groups: (0..contexts(points))
            .map(|context| group(side, context) as u16)
            .collect(),
        ko_start,
        plain: Beside::with_room(ko_start, expected(ko_start, common.beside)),
        ko: Beside::with_room(kos, expected(kos, common.beside)),
        plain_rare: Others::with_room(ko_start, expected(ko_start, common.rare)),
        ko_rare: Others::with_room(kos, expected(kos, common.rare)),
    };
    drop(common);
    let mut codes: Vec<AtomicU8> = Vec::with_capacity(states as usize);
    crate::common::huge_pages::advise(codes.spare_capacity_mut());
    codes.resize_with(states as usize, || AtomicU8::new(OTHER));
    for batch in batches(table) {
        // Within each list, a block's states follow the block before's:
        // (number, the halves' bytes, pair).
        type Found = [Vec<(StateNumber, [u8; 2], u64)>; 2];
        let found: Vec<Found> = batch
            .clone()
            .into_par_iter()
            .map(|b| {
                let mut others: Found = [Vec::new(), Vec::new()];
                let mut last = None;
                visit_block(table, index, b, |code, slot, number, value| {
                    let position = match last {
                        Some((c, p)) if c == code => p,
                        _ => index.codec().decode(code),
                    };
                    last = Some((code, position));
                    let kind = slot.min(SLOT_FIRST_KO) as usize;
                    let at = context(points, kind, &position);
                    let pair = pair_of(&value);
                    let code = pairs.first.code(at, pair);
                    codes[number as usize].store(code, Ordering::Relaxed);
                    if code == OTHER {
                        let at = group(side, at);
                        let bytes = [
                            pairs.movers.code(at, (pair >> PAIR_SHIFT) as u32),
                            pairs.opponents.code(at, (pair & PAIR_MASK) as u32),
                        ];
                        others[(number >= ko_start) as usize].push((number, bytes, pair));
                    }
                    Ok::<(), Fault>(())
                })?;
                for list in others.iter_mut() {
                    list.sort_unstable_by_key(|&(number, _, _)| number);
                }
                Ok(others)
            })
            .collect::<Result<_, Fault>>()?;
        for [in_plain, in_ko] in found {
            for (list, offset, found) in [(false, 0, in_plain), (true, ko_start, in_ko)] {
                let (beside, rare) = if list {
                    (&mut pairs.ko, &mut pairs.ko_rare)
                } else {
                    (&mut pairs.plain, &mut pairs.plain_rare)
                };
                for (number, bytes, pair) in found {
                    beside.push(number - offset, bytes);
                    if bytes.contains(&OTHER) {
                        rare.push(number - offset, pair);
                    }
                }
            }
        }
        sweep.done(table, batch);
        // The batch's decoded blocks and lists, let go on both cores,
        // go back to the system before the next batch grows the lists.
        return_free_memory();
    }
    pairs.plain.finish();
    pairs.ko.finish();
    pairs.plain_rare.finish();
    pairs.ko_rare.finish();
    Ok(Held {
        codes: settled(codes),
        lanes: 1,
        tables: Vec::new(),
        pairs: Some(pairs),
    })
}

/// Positions checked together: their children's index lines, then their
/// children's halves, are asked for before any is read, so that the reads
/// from arrays far larger than the cache overlap.
const GROUP: usize = 32;

/// What a block's check works in, kept between blocks.
#[derive(Default)]
struct CheckScratch {
    /// The block's states: position code, slot, number, and the stored
    /// value, if it was read from the file (else it is the one held).
    states: Vec<(u64, u32, StateNumber, Option<Value>)>,
    /// The group's positions: the plain state, and where its states are
    /// in `states`.
    positions: Vec<(State, std::ops::Range<usize>)>,
    /// The group's children, their index lines asked for: the position in
    /// the group, the point played (none for a pass), the child.
    pending: Vec<(usize, Option<Point>, State, Canonical)>,
    /// The group's children's numbers and contexts, their halves asked
    /// for.
    children: Vec<(usize, Option<Point>, StateNumber, usize)>,
    /// One position's distinct children after a placement: number, pair
    /// of halves (`pair_of`), and the points whose placement reaches it.
    distinct: Vec<(StateNumber, u64, PointSet)>,
}

/// Checks `checked` halves of the values of block `b`'s states against
/// their children's halves in `held`. Returns the edges checked.
///
/// The states of a position share their children: a placement leads to the
/// same state whether the state is plain, after a pass, or has a ko point
/// (where only the placement on the ko point is missing), and a pass leads
/// to the same state from all but the state after a pass, where it ends the
/// game. So each position's placements are played, ranked and looked up
/// once, and each of its states takes the children its moves reach.
fn check_block(
    table: &TableBytes<'_>,
    index: &StateIndex,
    b: u32,
    checked: &[Half],
    held: &Held,
    scratch: &mut CheckScratch,
) -> Result<u64, Fault> {
    let board = index.board();
    let codec = index.codec();
    let CheckScratch {
        states,
        positions,
        pending,
        children,
        distinct,
    } = scratch;
    states.clear();
    if held.holds(checked) {
        // The values held are the file's: the block need not be decoded
        // again.
        let (first, last) = table.block_positions(b);
        for entry in index.positions(first).take((last - first) as usize) {
            for slot in 0..entry.slots() {
                states.push((entry.code, slot, entry.state(slot), None));
            }
        }
    } else {
        visit_block(table, index, b, |code, slot, number, stored| {
            states.push((code, slot, number, Some(stored)));
            Ok::<(), Fault>(())
        })?;
    }
    let pair_of_state = |number: StateNumber, context: usize| held.pair(number, context);
    let points = board.points();
    let mut edges = 0;
    let mut next = 0;
    while next < states.len() {
        positions.clear();
        pending.clear();
        children.clear();
        // The next `GROUP` positions, each one's states together.
        while next < states.len() && positions.len() < GROUP {
            let code = states[next].0;
            let first = next;
            while next < states.len() && states[next].0 == code {
                next += 1;
            }
            let plain = index.state_at(code, SLOT_PLAIN);
            let i = positions.len();
            let played = pending.len();
            // The children's canonical forms are found together once they
            // are all played.
            let unknown = Canonical {
                code: 0,
                reaching: 0,
            };
            for point in plain.position().empty_points(board).iter() {
                if let Some(child) = plain.place_inlined(board, point) {
                    pending.push((i, Some(point), child, unknown));
                }
            }
            if let Child::State(child) = plain.pass(board) {
                pending.push((i, None, child, unknown));
            }
            codec.canonical_each(
                &mut pending[played..],
                |(_, _, child, _)| child.position(),
                |(_, _, _, found), canonical| {
                    index.prefetch(canonical.code);
                    *found = canonical;
                },
            );
            positions.push((plain, first..next));
        }
        for &(i, point, ref child, canonical) in pending.iter() {
            let number = index
                .rank_canonical(child, canonical)
                .expect("children of legal states are legal");
            held.prefetch(number);
            children.push((i, point, number, state_context(points, child)));
        }
        // The children whose pairs are kept beside: the lines that find
        // them asked for, once their bytes are in.
        if let Some(pairs) = &held.pairs {
            for &(_, _, number, context) in children.iter() {
                pairs.prefetch_beside(&held.codes, number, context);
            }
        }
        let mut at_child = 0;
        for (i, (plain, range)) in positions.iter().enumerate() {
            let first_child = at_child;
            while at_child < children.len() && children[at_child].0 == i {
                at_child += 1;
            }
            let mine = &mut children[first_child..at_child];
            // The pass is pushed last; symmetric placements may reach one
            // canonical child: it is counted once.
            let (passed_to, placed) = match mine.split_last_mut() {
                Some((&mut (_, None, number, context), placed)) => {
                    (pair_of_state(number, context), placed)
                }
                _ => unreachable!("a plain state's pass leads to a state"),
            };
            placed.sort_unstable_by_key(|&(_, _, n, _)| n);
            distinct.clear();
            for &(_, point, number, context) in placed.iter() {
                let point = PointSet::single(point.expect("placements name their point"));
                match distinct.last_mut() {
                    Some((last, _, points)) if *last == number => *points |= point,
                    _ => distinct.push((number, pair_of_state(number, context), point)),
                }
            }
            let ko_points = (range.len() > SLOT_FIRST_KO as usize)
                .then(|| index.canonical_ko_points(&plain.position()));
            for &(code, slot, number, stored) in &states[range.clone()] {
                let kind = slot.min(SLOT_FIRST_KO) as usize;
                let stored = match stored {
                    Some(value) => pair_of(&value),
                    None => pair_of_state(number, context(points, kind, &plain.position())),
                };
                let placements = distinct.iter();
                let (expected, counted) = match slot {
                    SLOT_PLAIN => minimax_pairs(
                        None,
                        placements
                            .map(|&(_, pair, _)| pair)
                            .chain(std::iter::once(passed_to)),
                    ),
                    SLOT_PASSED => minimax_pairs(
                        Some(plain.position().area_score(board)),
                        placements.map(|&(_, pair, _)| pair),
                    ),
                    _ => {
                        let ko = ko_points
                            .and_then(|points| points.iter().nth((slot - SLOT_FIRST_KO) as usize))
                            .expect("slot within the position's ko states");
                        // Every child but one only the ko point's
                        // placement reaches.
                        let ko = PointSet::single(ko);
                        minimax_pairs(
                            None,
                            placements
                                .filter(|&&(_, _, points)| !(points - ko).is_empty())
                                .map(|&(_, pair, _)| pair)
                                .chain(std::iter::once(passed_to)),
                        )
                    }
                };
                edges += counted;
                for &half in checked {
                    if half.of_pair(stored) != half.of_pair(expected) {
                        return Err(Fault::Inconsistent(
                            Mismatch {
                                number,
                                state: index.state_at(code, slot),
                                stored: half.only(&value_of_pair(stored)),
                                expected: half.only(&value_of_pair(expected)),
                            }
                            .to_string(),
                        ));
                    }
                }
            }
        }
    }
    Ok(edges)
}

/// Checks `checked` halves of every state's value against its children's
/// halves in `held`. Returns the edges checked.
fn check_halves(
    table: &TableBytes<'_>,
    index: &StateIndex,
    checked: &[Half],
    held: &Held,
    sweep: &Sweep<'_>,
) -> Result<u64, Fault> {
    let mut edges = 0;
    for batch in batches(table) {
        let counted: Vec<u64> = batch
            .clone()
            .into_par_iter()
            .map_init(CheckScratch::default, |scratch, b| {
                check_block(table, index, b, checked, held, scratch)
            })
            .collect::<Result<_, Fault>>()?;
        edges += counted.iter().sum::<u64>();
        sweep.done(table, batch);
    }
    Ok(edges)
}

/// Watches a verification as it goes.
pub trait VerifyObserver: Sync {
    /// A step begins: a sweep over the table's `blocks` blocks, or, when
    /// `blocks` is 0, work of unknown length.
    fn step_started(&self, _step: &str, _blocks: u64) {}
    /// `blocks` more blocks of the step are done.
    fn advanced(&self, _blocks: u64) {}
}

/// An observer that watches nothing.
#[cfg(any(test, fuzzing))]
pub struct Quiet;
#[cfg(any(test, fuzzing))]
impl VerifyObserver for Quiet {}

/// How a sweep over the blocks reports each batch done: to the observer,
/// and to `release` with the file bytes the batch took.
pub struct Sweep<'a> {
    release: &'a (dyn Fn(std::ops::Range<usize>) + Sync),
    observer: &'a dyn VerifyObserver,
}

impl Sweep<'_> {
    /// Batch `batch` is done: its blocks' bytes, and the batch's before it,
    /// can go. The kernel maps a few pages around each page read
    /// (fault-around), so reading the first blocks of a batch maps again
    /// the last pages of the batch before, let go already.
    fn done(&self, table: &TableBytes<'_>, batch: std::ops::Range<u32>) {
        self.observer.advanced(batch.len() as u64);
        let before = batch.start.saturating_sub(BATCH);
        if let Some(span) = table.blocks_span(before, batch.end) {
            (self.release)(span);
        }
    }
}

/// Verifies table bytes completely, within the memory `options` allow,
/// telling `observer` how it goes. `release` is told of file bytes read and
/// not needed again in this sweep, so that a mapped file's pages can be let
/// go.
pub fn verify_with(
    origin: &Origin,
    bytes: &[u8],
    options: VerifyOptions,
    observer: &dyn VerifyObserver,
    release: &(dyn Fn(std::ops::Range<usize>) + Sync),
) -> Result<VerifyReport, TableError> {
    let started = Instant::now();
    hold_allocator_thresholds();
    let sweep = Sweep { release, observer };
    let corrupt = |fault: Fault| TableError::Corrupt {
        origin: origin.clone(),
        fault,
    };
    let table = TableBytes::new_releasing(bytes, &|span| release(span)).map_err(corrupt)?;
    let header = table.header().clone();
    let cannot = |reason| TableError::CannotVerify {
        origin: origin.clone(),
        reason,
    };
    let halves_held =
        plan::verify_halves(&header.board, header.states, options.memory).map_err(cannot)?;
    observer.step_started("number the states", 0);
    let Some(index) = StateIndex::build(header.board) else {
        return Err(TableError::CannotVerify {
            origin: origin.clone(),
            reason: format!("board {} is over the index's limits", header.board),
        });
    };
    check_numbering(&table, &index).map_err(corrupt)?;
    // The directory is read once: its pages can go.
    if let Some(span) = table.directory_span() {
        release(span);
    }
    let limit = options.common_halves;
    let mut edges = None;
    let finish = |edges: u64, passes: u32| {
        if edges != header.edges {
            return Err(corrupt(Fault::Inconsistent(format!(
                "the header counts {} edges, the board has {edges}",
                header.edges
            ))));
        }
        Ok(VerifyReport {
            states: index.counts().states,
            edges,
            passes,
            seconds: started.elapsed().as_secs_f64(),
        })
    };
    let blocks = header.blocks as u64;
    let board = header.board;
    let both = vec![Half::Mover, Half::Opponent];
    // With room for one half of every value but not two, both halves are
    // coded in pairs if they fit, and checked in one pass.
    let force = options.force_pairs;
    let states = header.states;
    let memory = options.memory;
    let pairs_planned = || {
        let room = plan::room_for(memory);
        room.is_none_or(|room| plan::verify_hold(&board, states, room) == Some(VerifyHold::Pairs))
    };
    if halves_held < 2 && (force || pairs_planned()) {
        let common = common_pairs(&table, &index, limit, &sweep).map_err(corrupt)?;
        return_free_memory();
        // The sample's shares, with a margin for the blocks it left out.
        let (beside, rare) = (common.beside * 1.2, common.rare * 1.2);
        log::debug!(
            "{board}: the sample keeps {:.2}% of the pairs of halves beside, {:.3}% whole",
            common.beside * 100.0,
            common.rare * 100.0
        );
        if force || plan::verify_pairs_fit(&board, states, memory, beside, rare) {
            observer.step_started("read A, dA, B, dB", blocks);
            {
                let held = read_pairs(&table, &index, common, &sweep).map_err(corrupt)?;
                return_free_memory();
                if let Some(pairs) = &held.pairs {
                    let (beside, rare) = pairs.others();
                    log::debug!(
                        "{board}: {beside} of {} states' pairs of halves outside their context's most common, {rare} of them kept whole",
                        header.states,
                    );
                }
                observer.step_started("check A, dA, B, dB", blocks);
                let edges = check_halves(&table, &index, &both, &held, &sweep).map_err(corrupt)?;
                return finish(edges, 1);
            }
        }
        log::debug!("{board}: too many pairs of halves outside the most common: two passes");
        plan::verify_one_half_fits(&board, states, memory).map_err(cannot)?;
    }
    let passes: Vec<Vec<Half>> = if halves_held >= 2 {
        vec![both]
    } else {
        vec![vec![Half::Mover], vec![Half::Opponent]]
    };
    for (pass, checked) in passes.iter().enumerate() {
        let named = |what: &str| match passes.len() {
            1 => what.to_string(),
            n => format!("pass {} of {n}: {what}", pass + 1),
        };
        let halves: Vec<Half> = checked.iter().map(|half| half.of_children()).collect();
        let names: Vec<&str> = halves.iter().map(|h| h.name()).collect();
        observer.step_started(&named(&format!("read {}", names.join(", "))), blocks);
        let held = read_halves(&table, &index, &halves, limit, &sweep).map_err(corrupt)?;
        for table in &held.tables {
            log::debug!(
                "{board}: {} of {} states' {} outside the {} most common",
                table.others(),
                header.states,
                table.half.name(),
                table.common.len(),
            );
        }
        let names: Vec<&str> = checked.iter().map(|h| h.name()).collect();
        observer.step_started(&named(&format!("check {}", names.join(", "))), blocks);
        let counted = check_halves(&table, &index, checked, &held, &sweep).map_err(corrupt)?;
        edges = Some(counted);
    }
    finish(edges.unwrap_or(0), passes.len() as u32)
}

/// Verifies table bytes completely, with the memory available.
#[cfg(any(test, fuzzing))]
pub fn verify_bytes(origin: &Origin, bytes: &[u8]) -> Result<VerifyReport, TableError> {
    verify_with(origin, bytes, VerifyOptions::default(), &Quiet, &|_| {})
}

/// Verifies a table file. Only a regular file is read, mapped rather than
/// read whole: its length is checked against its header's block table
/// before any checksum or block touches the rest, so a huge or endless file
/// is refused at once. A name that starts with a board (`3x4.sgtb`) must
/// name the board the header holds.
#[cfg(test)]
pub fn verify_file(path: &std::path::Path) -> Result<VerifyReport, TableError> {
    verify_file_with(path, VerifyOptions::default(), &Quiet)
}

/// `verify_file` within the memory `options` allow, telling `observer` how
/// it goes.
///
/// The file is mapped (`Mapped::open`): no other program may truncate or
/// rewrite it in place while it is verified; a truncated mapped file stops
/// the process with SIGBUS.
pub fn verify_file_with(
    path: &std::path::Path,
    options: VerifyOptions,
    observer: &dyn VerifyObserver,
) -> Result<VerifyReport, TableError> {
    let origin = Origin::File(path.to_path_buf());
    // The memory the verification needs is judged before the file is
    // mapped, so that a tight limit gets its refusal, not a failed map.
    if let Some(refusal) = refusal_for_memory(path, &origin, options) {
        return Err(refusal);
    }
    let map = Mapped::open(path)?;
    let board =
        super::format::Header::peek_board(map.bytes()).map_err(|fault| TableError::Corrupt {
            origin: origin.clone(),
            fault,
        })?;
    super::check_name(path, board)?;
    verify_with(&origin, map.bytes(), options, observer, &|span| {
        map.release(span)
    })
}

/// The refusal for memory the verification of a table file would give
/// (`plan::verify_halves`), from the board and states its header's first
/// bytes name, read without mapping the file; `None` when memory is
/// enough, or when those bytes cannot be read or make no sense (the full
/// reading then says why). The file is read as `Table::peek_board` reads
/// it (`read_prefix`: a regular file only).
fn refusal_for_memory(
    path: &std::path::Path,
    origin: &Origin,
    options: VerifyOptions,
) -> Option<TableError> {
    let prefix = super::read_prefix(path).ok()?;
    let (board, states) = super::format::Header::peek_states(&prefix).ok()?;
    let reason = plan::verify_halves(&board, states, options.memory).err()?;
    Some(TableError::CannotVerify {
        origin: origin.clone(),
        reason,
    })
}

/// States a spot check reads: about one in 50,000, at least 64 and at most
/// 20,000, so that it costs a few percent of a build at most.
pub fn spot_sample(states: u64) -> u64 {
    (states / 50_000).clamp(64, 20_000)
}

/// The check a table file gets before it replaces anything (and before its
/// build calls it done): its counts are the index's and `edges`, and the
/// start position, its children, and about `sample` states spread evenly
/// over the numbers each hold the value their children's values give, all
/// read from the file's blocks through the decoder, numbered with the
/// build's `index` (no second directory is built). The file's pages are let
/// go as they are read. Returns the states checked.
///
/// The file is mapped under the contract of `Mapped::open`.
pub fn spot_check(
    path: &std::path::Path,
    index: &StateIndex,
    edges: u64,
    sample: u64,
) -> Result<u64, String> {
    let map = Mapped::open(path).map_err(|e| e.to_string())?;
    let release = |span| map.release(span);
    let origin = format!("{}", path.display());
    let table = TableBytes::new_releasing(map.bytes(), &release)
        .map_err(|fault| format!("{origin}: {fault}"))?;
    let header = table.header();
    let counts = index.counts();
    if header.board != *index.board() {
        return Err(format!(
            "it holds board {}, not {}",
            header.board,
            index.board()
        ));
    }
    if (header.positions, header.ko_states, header.edges)
        != (counts.positions, counts.ko_states, edges)
    {
        return Err(format!(
            "it holds {} positions, {} ko states and {} edges where the solve has {}, {} and {edges}",
            header.positions, header.ko_states, header.edges, counts.positions, counts.ko_states
        ));
    }
    let per = header.positions_per_block as u64;
    let value_of = |number: StateNumber| -> Result<Value, String> {
        let (position, slot) = index.slot_of(number);
        let b = (position / per) as u32;
        let block = table.block(b).map_err(|fault| fault.to_string())?;
        if let Some(span) = table.blocks_span(b, b + 1) {
            release(span);
        }
        let i = (position - b as u64 * per) as usize;
        let slots = block
            .starts
            .get(i + 1)
            .zip(block.starts.get(i))
            .map(|(e, s)| e - s);
        if slots != Some(SLOT_FIRST_KO + index.ko_state_count(position)) {
            return Err(format!(
                "position {position} has other ko states in the file than on the board"
            ));
        }
        block
            .value(i, slot)
            .ok_or_else(|| format!("state {number} is missing from the file"))
    };
    let board = *index.board();
    let start = State::start();
    let children =
        start
            .legal_moves(&board)
            .into_iter()
            .filter_map(|mv| match start.play(&board, mv) {
                Some(Child::State(child)) => Some(child),
                _ => None,
            });
    let mut numbers: Vec<StateNumber> = std::iter::once(start)
        .chain(children)
        .filter_map(|state| index.rank(&state))
        .collect();
    let step = (counts.states / sample.max(1)).max(1);
    numbers.extend((0..counts.states).step_by(step as usize));
    let fault = std::sync::Mutex::new(None::<String>);
    let probe = |number: StateNumber| -> Value {
        value_of(number).unwrap_or_else(|error| {
            *fault.lock().unwrap_or_else(|e| e.into_inner()) = Some(error);
            Value::default()
        })
    };
    numbers.par_iter().try_for_each(|&number| {
        let state = index.unrank(number);
        let stored = probe(number);
        let (expected, _) = expected_value(index, &state, &probe);
        if let Some(error) = fault.lock().unwrap_or_else(|e| e.into_inner()).take() {
            return Err(error);
        }
        if stored != expected {
            return Err(Mismatch {
                number,
                state,
                stored,
                expected,
            }
            .to_string());
        }
        Ok(())
    })?;
    Ok(numbers.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One step of minimax on pairs of halves gives what `minimax` gives on
    /// values, whatever the children: without a margin on either side,
    /// with equal margins and depths, depths at 0 and at the largest, with
    /// and without a move that ends the game, and with no children.
    #[test]
    fn minimax_on_pairs_agrees_with_minimax_on_values() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |below: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % below
        };
        let margins = [
            None,
            Some(-3),
            Some(-1),
            Some(0),
            Some(1),
            Some(2),
            Some(18),
        ];
        let depths = [0, 1, 2, 3, 40, u16::MAX - 1, u16::MAX];
        let mut ended = 0;
        for round in 0..20_000 {
            let count = next(6) as usize;
            let children: Vec<Value> = (0..count)
                .map(|_| Value {
                    mover_margin: margins[next(7) as usize],
                    opponent_margin: margins[next(7) as usize],
                    mover_depth: depths[next(7) as usize],
                    opponent_depth: depths[next(7) as usize],
                })
                // A half with no margin has depth 0, as the tables hold it.
                .map(|value| Value {
                    mover_depth: value.mover_margin.map_or(0, |_| value.mover_depth),
                    opponent_depth: value.opponent_margin.map_or(0, |_| value.opponent_depth),
                    ..value
                })
                .collect();
            let end = (next(3) == 0).then(|| next(9) as i32 - 4);
            ended += end.is_some() as u32;
            let ends: Vec<i32> = end.into_iter().collect();
            let (value, edges) = minimax(&ends, children.iter().copied());
            let (pair, pair_edges) = minimax_pairs(end, children.iter().map(pair_of));
            assert_eq!(
                (value_of_pair(pair), pair_edges),
                (value, edges),
                "round {round}: end {end:?}, children {children:?}"
            );
            assert_eq!(pair, pair_of(&value));
        }
        assert!(ended > 1000);
    }

    /// The halves kept beside are found by number across runs of 2^16
    /// states, and a number not kept is not found, with or without room
    /// reserved for them.
    #[test]
    fn halves_kept_beside_are_found_by_number() {
        let states = 5 << RUN_SHIFT;
        let kept: Vec<StateNumber> = (0..states).filter(|n| n % 977 < 3).collect();
        for room in [0, kept.len() as u64] {
            let mut others = Others::with_room(states, room);
            for &n in &kept {
                others.push(n, (n * 7 % 1000) as u32);
            }
            others.finish();
            for n in 0..states {
                let expected = (n % 977 < 3).then_some((n * 7 % 1000) as u32);
                assert_eq!(others.get(n), expected, "state {n}, room {room}");
            }
            assert_eq!(others.get(states + (1 << RUN_SHIFT)), None);
        }
    }

    /// The bytes kept beside for the states coded `OTHER` are found by
    /// number through the codes, across stretches of 256 and runs of 2^16
    /// states, whether every state, every other or a few are coded
    /// `OTHER`.
    #[test]
    fn bytes_kept_beside_are_found_through_the_codes() {
        let states = (3 << RUN_SHIFT) + 1000;
        let bytes = |n: StateNumber| [(n % 251) as u8, (n / 251 % 256) as u8];
        for every in [1, 2, 7, 977] {
            let beside_at = |n: StateNumber| n.is_multiple_of(every);
            let codes: Vec<u8> = (0..states)
                .map(|n| if beside_at(n) { OTHER } else { (n % 200) as u8 })
                .collect();
            let mut beside = Beside::with_room(states, 0);
            for n in (0..states).filter(|&n| beside_at(n)) {
                beside.push(n, bytes(n));
            }
            beside.finish();
            for n in (0..states).filter(|&n| beside_at(n)) {
                assert_eq!(
                    beside.get(n, &codes),
                    Some(bytes(n)),
                    "state {n}, every {every}"
                );
            }
        }
    }

    /// One altered part of one value (A, dA, B or dB) of a plain state, a
    /// state after a pass or a state with a ko point is caught, whichever
    /// way the halves are held: both in one pass, one in each of two
    /// passes, or coded in pairs.
    #[test]
    fn every_part_of_every_kind_of_state_is_checked() {
        use crate::solver::{solve, Silent};
        use crate::table::writer::encode_values;
        let solution = solve("3x3".parse().unwrap(), &Silent).unwrap();
        let index = solution.index();
        let states = index.counts().states;
        let points = index.board().points() as i8;
        let honest = |n: StateNumber| solution.value(n).unwrap();
        let file = |target: StateNumber, altered: Value| {
            let values = |n: StateNumber| if n == target { altered } else { honest(n) };
            let written = encode_values(
                index,
                solution.stats().edges,
                &values,
                std::io::Cursor::new(Vec::new()),
                &Silent,
            );
            written.unwrap().unwrap().0.into_inner()
        };
        let one_half = plan::verify_memory(index.board(), states, 1) as u64 + 1;
        let settings = [
            ("one pass", None, false, 1),
            ("two passes", Some(one_half), false, 2),
            ("pairs", Some(one_half), true, 1),
        ];
        let verify = |bytes: &[u8], memory: Option<u64>, force_pairs: bool| {
            let options = VerifyOptions {
                memory,
                common_halves: 255,
                force_pairs,
            };
            verify_with(
                &Origin::BuiltIn("test".into()),
                bytes,
                options,
                &Quiet,
                &|_| {},
            )
        };
        let honest_file = file(states, honest(0));
        for &(setting, memory, force_pairs, passes) in &settings {
            let report = verify(&honest_file, memory, force_pairs).unwrap();
            assert_eq!(report.passes, passes, "{setting}");
        }
        let other = |margin: Option<i8>| margin.map(|m| if m < points { m + 1 } else { m - 1 });
        let kinds = [
            ("plain", SLOT_PLAIN..=SLOT_PLAIN),
            ("after a pass", SLOT_PASSED..=SLOT_PASSED),
            ("with a ko point", SLOT_FIRST_KO..=u32::MAX),
        ];
        for (kind, slots) in kinds {
            let target = (0..states)
                .find(|&n| {
                    let value = honest(n);
                    slots.contains(&index.slot_of(n).1)
                        && value.mover_margin.is_some()
                        && value.opponent_margin.is_some()
                        && value.mover_depth >= 1
                        && value.opponent_depth >= 1
                })
                .unwrap_or_else(|| panic!("3x3 has a state {kind} with both halves"));
            let value = honest(target);
            let parts = [
                (
                    "A",
                    Value {
                        mover_margin: other(value.mover_margin),
                        ..value
                    },
                ),
                (
                    "dA",
                    Value {
                        mover_depth: value.mover_depth + 1,
                        ..value
                    },
                ),
                (
                    "B",
                    Value {
                        opponent_margin: other(value.opponent_margin),
                        ..value
                    },
                ),
                (
                    "dB",
                    Value {
                        opponent_depth: value.opponent_depth - 1,
                        ..value
                    },
                ),
            ];
            for (part, altered) in parts {
                let bytes = file(target, altered);
                for &(setting, memory, force_pairs, _) in &settings {
                    match verify(&bytes, memory, force_pairs) {
                        Err(TableError::Corrupt {
                            fault: Fault::Inconsistent(_),
                            ..
                        }) => {}
                        other => panic!(
                            "{setting}: {part} of state {target} ({kind}) altered to {altered}: {other:?}"
                        ),
                    }
                }
            }
        }
    }
}
