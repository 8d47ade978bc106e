//! The ranks a win/draw/loss table stores (`super` module doc), worked
//! out from every state's result at the komi, for either colour to move,
//! in two and a half bytes a state.
//!
//! `Codes`: four bits a state, sixteen to a word: bits 0-1 the result
//! with Black to move, 2-3 with White to move, a loss a winner follows
//! (`designate`) as a fourth value beside loss, draw and win.
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
//! none is left. A layer is the states with a colour placed at its
//! depth, found by a sweep over the distances of the pieces the layer
//! touched. Each
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
/// a layer marks as touched.
const CHUNK: usize = 1 << 14;
/// Positions per piece of work when counting children.
const POSITIONS_PER_TASK: u64 = 4096;
/// States a word of the codes holds.
const CODES_PER_WORD: usize = 16;
/// A colour's two bits in a code: a loss a winner follows (a loss, 0,
/// with both bits set).
const FOLLOWED_LOSS: u8 = 3;

/// Four bits a state, sixteen to a word, changed bit by bit from any
/// thread: bits 0-1 the result with Black to move, 2-3 with White to move
/// (`Wdl` as a number, or `FOLLOWED_LOSS`).
pub struct Codes {
    words: Vec<AtomicU64>,
    states: usize,
}

impl Codes {
    /// `states` codes, all 0.
    pub fn new(states: usize) -> Codes {
        Codes {
            words: (0..states.div_ceil(CODES_PER_WORD))
                .map(|_| AtomicU64::new(0))
                .collect(),
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

    /// The bit offset of state `number`'s code in its word.
    #[inline]
    fn shift(number: usize) -> usize {
        4 * (number % CODES_PER_WORD)
    }

    /// Colour `c`'s two bits of state `number`.
    #[inline]
    fn symbol(&self, number: usize, c: usize) -> u8 {
        let word = self.words[number / CODES_PER_WORD].load(Ordering::Relaxed);
        (word >> (Codes::shift(number) + 2 * c)) as u8 & 3
    }

    /// Adds the results `bytes` (each a code's four bits: Black's result
    /// in bits 0-1, White's in bits 2-3, neither above `Wdl::Win`) to the
    /// codes of the states from `first` on, a word at a time.
    pub fn put(&self, first: usize, bytes: &[u8]) {
        let mut at = 0;
        while at < bytes.len() {
            let number = first + at;
            let take = (CODES_PER_WORD - number % CODES_PER_WORD).min(bytes.len() - at);
            let mut word = 0u64;
            for (i, &byte) in bytes[at..at + take].iter().enumerate() {
                debug_assert!(byte & 3 <= Wdl::Win as u8 && byte >> 2 <= Wdl::Win as u8);
                word |= (byte as u64 & 0xf) << Codes::shift(number + i);
            }
            self.words[number / CODES_PER_WORD].fetch_or(word, Ordering::Relaxed);
            at += take;
        }
    }

    /// The result of state `number` for colour `c` (0 Black) to move.
    #[inline]
    pub fn result(&self, number: usize, c: usize) -> Wdl {
        match self.symbol(number, c) {
            FOLLOWED_LOSS => Wdl::Loss,
            symbol => Wdl::from_symbol(symbol),
        }
    }

    /// Whether a winner follows state `number`, colour `c` to move.
    #[inline]
    pub fn followed(&self, number: usize, c: usize) -> bool {
        self.symbol(number, c) == FOLLOWED_LOSS
    }

    /// Marks state `number`, a loss for colour `c` to move, as one a
    /// winner follows.
    #[inline]
    pub fn follow(&self, number: usize, c: usize) {
        debug_assert_eq!(self.result(number, c), Wdl::Loss);
        self.words[number / CODES_PER_WORD].fetch_or(
            (FOLLOWED_LOSS as u64) << (Codes::shift(number) + 2 * c),
            Ordering::Relaxed,
        );
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

    /// Whether slot `slot` is placed at `distance`, the map looked at only
    /// for a distance above `near`.
    #[inline]
    fn is(&self, slot: usize, distance: u32) -> bool {
        if distance <= self.near {
            self.cells[slot].load(Ordering::Relaxed) == PENDING + distance as u8
        } else {
            self.cells[slot].load(Ordering::Relaxed) == FAR && self.get(slot) == distance
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

/// Marks the piece of state `number` as holding a state of layer `depth`.
fn touch(touched: &[Vec<AtomicBool>; 2], number: usize, depth: u32) {
    touched[(depth % 2) as usize][number / CHUNK].store(true, Ordering::Relaxed);
}

/// Each state's distance for either colour to move (0 for a draw): a won
/// state's is one more than the least of its children lost for the
/// opponent (0 for ending the game with the win); a lost state's is one
/// more than the greatest of its children (all won for the opponent; the
/// end of the game 0). `codes` holds the results. Distances above `near`
/// are kept in the map.
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
                            touch(&touched, n, 1);
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
        // A predecessor `p` (colour `pc` to move) of a state placed in this
        // layer, whose mover's result there is `own`.
        let update = |own: Wdl, p: usize, pc: usize| -> Result<(), String> {
            let slot = 2 * p + pc;
            match (own, codes.result(p, pc)) {
                (Wdl::Loss, Wdl::Win) if distance.place_first(slot, next) => {
                    touch(&touched, p, next);
                }
                (Wdl::Win, Wdl::Loss) => {
                    match distance.cells[slot].fetch_sub(1, Ordering::Relaxed) {
                        1 => {
                            distance.place(slot, next);
                            touch(&touched, p, next);
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
                for number in first..last {
                    // The colours placed in this layer (both may be): the
                    // next layer's are placed meanwhile, never this one's.
                    let colours = [0, 1].map(|c| distance.is(2 * number + c, depth));
                    if colours == [false; 2] {
                        continue;
                    }
                    let state = cursor.state(number as u64);
                    origins.clear();
                    numbers.clear();
                    let maybe_shared = gather_origins(index, &state, origins);
                    predecessor_numbers::<false>(index, origins, maybe_shared, 0, numbers, |_| {});
                    for &p in numbers.iter() {
                        for (c, _) in colours.iter().enumerate().filter(|(_, &on)| on) {
                            update(codes.result(number, c), p as usize, 1 - c)?;
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
                                codes.follow(m, 1 - c);
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
