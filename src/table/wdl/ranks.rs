//! The ranks a win/draw/loss table stores (`super` module doc), worked
//! out from every state's result at the komi, for either colour to move,
//! in about three bytes a state.
//!
//! `Codes`: a byte a state, packed eight to a word: bits 0-1 Black's
//! result, 2-3 White's, 4-5 whether a winner follows the state (Black to
//! move, White to move), 6-7 the state's mark in the retrograde's odd and
//! even layers.
//!
//! `Distances`: a byte a state and colour. A loss not yet placed holds
//! its children not yet placed; a placed state holds its distance, the
//! plies to the end of the game with the winner hurrying and the loser
//! resisting, the least ranks that finish a win; a distance beyond what
//! a byte holds is kept in a map beside it.
//!
//! `distances`: one retrograde pass over predecessors (the solver's
//! un-moves, `solver::gather_origins`), layer by layer: layer 1 holds the
//! wins a pass ends and the losses whose every move ends the game; a state
//! of layer `k` makes each won predecessor not yet placed one of layer
//! `k + 1`, and counts down each lost predecessor's children not yet
//! placed (`solver::count_position`), placing it in layer `k + 1` when
//! none is left. A layer is the states marked with its parity's bit,
//! found by a sweep over the codes of the pieces the layer touched. Each
//! state is placed once and sends its predecessors one update each, so
//! the pass visits every edge about once per colour; the layers are
//! worked in parallel.
//!
//! `designate`: the losing states a winner follows. Each won state that
//! no pass ends designates its first losing child, in move order, of the
//! least distance; only those store their distance, the others 0.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;

use super::Wdl;
use crate::index::StateIndex;
use crate::rules::state::Child;
use crate::solver::{count_position, gather_origins, predecessor_numbers, CountScratch};

/// The largest distance kept.
pub const MAX_DISTANCE: u32 = u16::MAX as u32 - 1;
/// States per piece of work of the sweeps over every state, and per piece
/// of the codes a layer marks as touched.
const CHUNK: usize = 1 << 14;
/// Positions per piece of work when counting children.
const POSITIONS_PER_TASK: u64 = 4096;
/// Bits of a code: whether a winner follows the state, Black to move.
const FOLLOWED: u8 = 1 << 4;
/// Eight bytes' copies of one bit.
const EVERY_BYTE: u64 = 0x0101_0101_0101_0101;

/// The bit that marks a state of layer `depth`.
fn layer_bit(depth: u32) -> u8 {
    if depth % 2 == 1 {
        1 << 6
    } else {
        1 << 7
    }
}

/// A byte a state, eight to a word, changed bit by bit from any thread.
pub struct Codes {
    words: Vec<AtomicU64>,
    states: usize,
}

impl Codes {
    /// `states` codes, all 0.
    pub fn new(states: usize) -> Codes {
        Codes {
            words: (0..states.div_ceil(8)).map(|_| AtomicU64::new(0)).collect(),
            states,
        }
    }

    /// Codes holding each state's results (Black's in bits 0-1, White's in
    /// bits 2-3).
    #[cfg(test)]
    pub fn of_results(results: &[u8]) -> Codes {
        let codes = Codes::new(results.len());
        codes.put(0, results);
        codes
    }

    pub fn states(&self) -> usize {
        self.states
    }

    /// The bytes held in memory.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    #[inline]
    fn get(&self, number: usize) -> u8 {
        (self.words[number / 8].load(Ordering::Relaxed) >> (8 * (number % 8))) as u8
    }

    #[inline]
    fn set(&self, number: usize, bits: u8) {
        self.words[number / 8].fetch_or((bits as u64) << (8 * (number % 8)), Ordering::Relaxed);
    }

    #[inline]
    fn clear(&self, number: usize, bits: u8) {
        self.words[number / 8].fetch_and(!((bits as u64) << (8 * (number % 8))), Ordering::Relaxed);
    }

    /// Adds `bytes` to the codes of the states from `first` on, eight at a
    /// time.
    pub fn put(&self, first: usize, bytes: &[u8]) {
        let mut at = 0;
        while at < bytes.len() {
            let number = first + at;
            let shift = number % 8;
            let take = (8 - shift).min(bytes.len() - at);
            let mut word = 0u64;
            for (i, &byte) in bytes[at..at + take].iter().enumerate() {
                word |= (byte as u64) << (8 * (shift + i));
            }
            self.words[number / 8].fetch_or(word, Ordering::Relaxed);
            at += take;
        }
    }

    /// The result of state `number` for colour `c` (0 Black) to move.
    #[inline]
    pub fn result(&self, number: usize, c: usize) -> Wdl {
        Wdl::from_symbol((self.get(number) >> (2 * c)) & 3)
    }

    /// Whether a winner follows state `number`, colour `c` to move.
    #[inline]
    pub fn followed(&self, number: usize, c: usize) -> bool {
        self.get(number) & (FOLLOWED << c) != 0
    }
}

/// Each state's distance for either colour to move (slot `2 * number +
/// colour`, Black 0), a byte a slot.
pub struct Distances {
    cells: Vec<AtomicU8>,
    /// The distances above `near`, by slot.
    far: Mutex<HashMap<usize, u32>>,
    /// The greatest distance a cell holds.
    near: u32,
}

/// Cells: 0 nothing placed; 1 to `PENDING` the children not yet placed
/// of a loss not yet placed; `PENDING + d` a placed distance `d` up to
/// `NEAR`; `FAR` a distance in the map.
const PENDING: u8 = 63;
const FAR: u8 = u8::MAX;
/// The greatest distance a cell can hold.
pub const NEAR: u32 = (FAR - PENDING - 1) as u32;

impl Distances {
    /// `slots` cells, distances above `near` (at most `NEAR`) kept in the
    /// map.
    pub fn new(slots: usize, near: u32) -> Distances {
        Distances {
            cells: (0..slots).map(|_| AtomicU8::new(0)).collect(),
            far: Mutex::new(HashMap::new()),
            near: near.min(NEAR),
        }
    }

    /// The bytes held in memory, the map's entries at about 32 bytes.
    pub fn bytes(&self) -> usize {
        self.cells.len() + 32 * self.far_count()
    }

    /// How many distances the map holds.
    pub fn far_count(&self) -> usize {
        self.far.lock().map_or(0, |far| far.len())
    }

    /// The distance of slot `slot`, 0 if it has none (a draw, or not
    /// placed yet).
    #[inline]
    pub fn get(&self, slot: usize) -> u32 {
        match self.cells[slot].load(Ordering::Relaxed) {
            cell if cell <= PENDING => 0,
            FAR => self
                .far
                .lock()
                .map_or(0, |far| far.get(&slot).copied().unwrap_or(0)),
            cell => (cell - PENDING) as u32,
        }
    }

    fn place(&self, slot: usize, distance: u32) {
        if distance <= self.near {
            self.cells[slot].store(PENDING + distance as u8, Ordering::Relaxed);
        } else {
            self.cells[slot].store(FAR, Ordering::Relaxed);
            self.keep_far(slot, distance);
        }
    }

    fn keep_far(&self, slot: usize, distance: u32) {
        if let Ok(mut far) = self.far.lock() {
            far.insert(slot, distance);
        }
    }

    /// Places `slot` at `distance` if nothing is placed there yet.
    fn place_first(&self, slot: usize, distance: u32) -> bool {
        if self.cells[slot].load(Ordering::Relaxed) != 0 {
            return false;
        }
        let near = distance <= self.near;
        let cell = if near { PENDING + distance as u8 } else { FAR };
        let placed = self.cells[slot]
            .compare_exchange(0, cell, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok();
        if placed && !near {
            self.keep_far(slot, distance);
        }
        placed
    }
}

/// What the retrograde pass found.
pub struct Retrograde {
    pub distances: Distances,
    /// The greatest distance.
    pub longest: u32,
}

/// Marks state `number` as one of layer `depth`.
fn mark(codes: &Codes, touched: &[Vec<AtomicBool>; 2], number: usize, depth: u32) {
    codes.set(number, layer_bit(depth));
    touched[(depth % 2) as usize][number / CHUNK].store(true, Ordering::Relaxed);
}

/// Each state's distance for either colour to move (0 for a draw): a won
/// state's is one more than the least of its children lost for the
/// opponent (0 for ending the game with the win); a lost state's is one
/// more than the greatest of its children (all won for the opponent; the
/// end of the game 0). `codes` holds the results; its layer marks are
/// used on the way and left clear. Distances above `near` are kept in the
/// map.
pub fn distances(
    index: &StateIndex,
    codes: &Codes,
    komi2: i32,
    near: u32,
) -> Result<Retrograde, String> {
    let states = codes.states();
    let distance = Distances::new(2 * states, near);
    let pieces = states.div_ceil(CHUNK);
    let touched: [Vec<AtomicBool>; 2] =
        [0, 1].map(|_| (0..pieces).map(|_| AtomicBool::new(false)).collect());

    // Layer 1, and the losses' counts of children.
    let positions = index.counts().positions;
    let tasks = positions.div_ceil(POSITIONS_PER_TASK);
    (0..tasks)
        .into_par_iter()
        .try_for_each_init(CountScratch::default, |scratch, task| {
            let first = task * POSITIONS_PER_TASK;
            let last = (first + POSITIONS_PER_TASK).min(positions);
            let mut fault = None;
            for entry in index.positions(first).take((last - first) as usize) {
                count_position(index, &entry, scratch, |number, children, margin| {
                    let n = number as usize;
                    // A second pass is a child of the state after a pass,
                    // but no state.
                    let states = children - margin.is_some() as u32;
                    for c in 0..2 {
                        let first_layer = match codes.result(n, c) {
                            Wdl::Win => margin.is_some_and(|margin| {
                                Wdl::of_margin(margin, c == 0, komi2) == Wdl::Win
                            }),
                            Wdl::Loss if states > PENDING as u32 => {
                                fault = Some(format!("state {n}: more than {PENDING} children"));
                                false
                            }
                            Wdl::Loss => {
                                distance.cells[2 * n + c].store(states as u8, Ordering::Relaxed);
                                states == 0
                            }
                            Wdl::Draw => false,
                        };
                        if first_layer {
                            distance.place(2 * n + c, 1);
                            mark(codes, &touched, n, 1);
                        }
                    }
                });
            }
            fault.map_or(Ok(()), Err)
        })?;

    let mut depth: u32 = 1;
    loop {
        let this = (depth % 2) as usize;
        let layer: Vec<usize> = (0..pieces)
            .filter(|&piece| touched[this][piece].swap(false, Ordering::Relaxed))
            .collect();
        if layer.is_empty() {
            break;
        }
        if depth >= MAX_DISTANCE {
            return Err(format!(
                "a forced line longer than {MAX_DISTANCE} plies at this komi"
            ));
        }
        let next = depth + 1;
        let bit = layer_bit(depth);
        // A predecessor `p` (colour `pc` to move) of a state placed in this
        // layer, whose mover's result there is `own`.
        let update = |own: Wdl, p: usize, pc: usize| -> Result<(), String> {
            let slot = 2 * p + pc;
            match (own, codes.result(p, pc)) {
                (Wdl::Loss, Wdl::Win) if distance.place_first(slot, next) => {
                    mark(codes, &touched, p, next);
                }
                (Wdl::Win, Wdl::Loss) => {
                    match distance.cells[slot].fetch_sub(1, Ordering::Relaxed) {
                        1 => {
                            distance.place(slot, next);
                            mark(codes, &touched, p, next);
                        }
                        left if left == 0 || left > PENDING => {
                            return Err(format!(
                                "state {p}: a loss with more children won than it has"
                            ))
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
            Ok(())
        };
        layer.par_iter().try_for_each_init(
            || (Vec::new(), Vec::new()),
            |(origins, numbers), &piece| -> Result<(), String> {
                let mut cursor = index.state_cursor();
                let first = piece * CHUNK;
                let last = (first + CHUNK).min(states);
                for w in first / 8..last.div_ceil(8) {
                    let mut hits =
                        codes.words[w].load(Ordering::Relaxed) & (bit as u64 * EVERY_BYTE);
                    while hits != 0 {
                        let byte = hits.trailing_zeros() as usize / 8;
                        hits &= !(0xff << (8 * byte));
                        let number = w * 8 + byte;
                        codes.clear(number, bit);
                        // The colours placed in this layer (both may be).
                        let colours = [0, 1].map(|c| distance.get(2 * number + c) == depth);
                        let state = cursor.state(number as u64);
                        origins.clear();
                        numbers.clear();
                        let maybe_shared = gather_origins(index, &state, origins);
                        predecessor_numbers::<false>(
                            index,
                            origins,
                            maybe_shared,
                            0,
                            numbers,
                            |_| {},
                        );
                        for &p in numbers.iter() {
                            for (c, _) in colours.iter().enumerate().filter(|(_, &on)| on) {
                                update(codes.result(number, c), p as usize, 1 - c)?;
                            }
                        }
                    }
                }
                Ok(())
            },
        )?;
        depth = next;
    }
    (0..states)
        .into_par_iter()
        .try_for_each(|n| -> Result<(), String> {
            for c in 0..2 {
                let own = codes.result(n, c);
                if own != Wdl::Draw && distance.get(2 * n + c) == 0 {
                    return Err(format!(
                        "state {n}: a {} the game never reaches the end of",
                        own.word()
                    ));
                }
            }
            Ok(())
        })?;
    Ok(Retrograde {
        distances: distance,
        longest: depth - 1,
    })
}

/// Marks in `codes` the losing states a winner follows (`Codes::followed`):
/// each won state that no pass ends designates its first losing child, in
/// move order, whose distance is one less than its own.
pub fn designate(index: &StateIndex, codes: &Codes, distance: &Distances) -> Result<(), String> {
    let board = *index.board();
    let states = codes.states();
    (0..states.div_ceil(CHUNK))
        .into_par_iter()
        .try_for_each(|chunk| -> Result<(), String> {
            let mut cursor = index.state_cursor();
            for n in chunk * CHUNK..((chunk + 1) * CHUNK).min(states) {
                // Per colour: the distance its designated child has.
                let mut wanted = [None; 2];
                for (c, wanted) in wanted.iter_mut().enumerate() {
                    if codes.result(n, c) == Wdl::Win {
                        let d = distance.get(2 * n + c);
                        if d > 1 {
                            *wanted = Some(d - 1);
                        }
                    }
                }
                if wanted == [None; 2] {
                    continue;
                }
                let state = cursor.state(n as u64);
                for mv in state.legal_moves(&board) {
                    let Some(Child::State(child)) = state.play(&board, mv) else {
                        continue;
                    };
                    let m = index
                        .rank(&child)
                        .ok_or("a child the index does not number")?
                        as usize;
                    for (c, wanted) in wanted.iter_mut().enumerate() {
                        if let Some(d) = *wanted {
                            if codes.result(m, 1 - c) == Wdl::Loss
                                && distance.get(2 * m + 1 - c) == d
                            {
                                codes.set(m, FOLLOWED << (1 - c));
                                *wanted = None;
                            }
                        }
                    }
                    if wanted == [None; 2] {
                        break;
                    }
                }
                if wanted != [None; 2] {
                    return Err(format!(
                        "state {n}: a win with no losing child one ply nearer the end"
                    ));
                }
            }
            Ok(())
        })?;
    Ok(())
}
