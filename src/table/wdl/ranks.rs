//! The ranks a win/draw/loss table stores (`super` module doc), worked
//! out from every state's result at the komi, for either colour to move.
//!
//! `distances`: each won or lost state's distance, the plies to the end of
//! the game with the winner hurrying and the loser resisting, the least
//! ranks that finish a win. One retrograde pass over predecessors (the
//! solver's un-moves, `solver::gather_origins`), layer by layer: layer 1
//! holds the wins a pass ends and the losses whose every move ends the
//! game; a state of layer `k` makes each won predecessor not yet placed
//! one of layer `k + 1`, and counts down each lost predecessor's children
//! not yet placed (`solver::count_position`), placing it in layer `k + 1`
//! when none is left. Each state is placed once and sends its
//! predecessors one update each, so the pass visits every edge about once
//! per colour; the layers are worked in parallel.
//!
//! `designate`: the losing states a winner follows. Each won state that
//! no pass ends designates its first losing child, in move order, of the
//! least distance; only those store their distance, the others 0.

use std::sync::atomic::{AtomicU16, AtomicU8, Ordering};

use rayon::prelude::*;

use super::Wdl;
use crate::index::StateIndex;
use crate::rules::state::Child;
use crate::solver::{count_position, gather_origins, predecessor_numbers, CountScratch};

/// The largest distance kept.
pub const MAX_DISTANCE: u16 = u16::MAX - 1;
/// States per piece of work of the sweeps over every state.
const CHUNK: usize = 1 << 14;
/// Entries of a layer per piece of work.
const LAYER_CHUNK: usize = 1 << 12;
/// Positions per piece of work when counting children.
const POSITIONS_PER_TASK: u64 = 4096;

/// The result of state `number` for colour `c` (0 Black) to move, from
/// codes holding Black's in bits 0-1 and White's in bits 2-3.
#[inline]
pub fn result_in(results: &[u8], number: usize, c: usize) -> Wdl {
    Wdl::from_symbol((results[number] >> (2 * c)) & 3)
}

/// Each state's distance for either colour to move (index `2 * number +
/// colour`, Black 0; 0 for a draw): a won state's is one more than the
/// least of its children lost for the opponent (0 for ending the game
/// with the win); a lost state's is one more than the greatest of its
/// children (all won for the opponent; the end of the game 0).
pub fn distances(index: &StateIndex, results: &[u8], komi2: i32) -> Result<Vec<AtomicU16>, String> {
    let states = results.len();
    let distance: Vec<AtomicU16> = (0..2 * states).map(|_| AtomicU16::new(0)).collect();
    // Per state and colour: the children of a loss not yet placed.
    let pending: Vec<AtomicU8> = (0..2 * states).map(|_| AtomicU8::new(0)).collect();

    // Layer 1, and the losses' counts of children.
    let positions = index.counts().positions;
    let tasks = positions.div_ceil(POSITIONS_PER_TASK);
    let mut layer: Vec<u64> = (0..tasks)
        .into_par_iter()
        .map_init(CountScratch::default, |scratch, task| {
            let first = task * POSITIONS_PER_TASK;
            let last = (first + POSITIONS_PER_TASK).min(positions);
            let mut placed = Vec::new();
            for entry in index.positions(first).take((last - first) as usize) {
                count_position(index, &entry, scratch, |number, children, margin| {
                    let n = number as usize;
                    // A second pass is a child of the state after a pass,
                    // but no state.
                    let states = children - margin.is_some() as u32;
                    for c in 0..2 {
                        let first_layer = match result_in(results, n, c) {
                            Wdl::Win => margin.is_some_and(|margin| {
                                Wdl::of_margin(margin, c == 0, komi2) == Wdl::Win
                            }),
                            Wdl::Loss => {
                                pending[2 * n + c].store(states as u8, Ordering::Relaxed);
                                states == 0
                            }
                            Wdl::Draw => false,
                        };
                        if first_layer {
                            distance[2 * n + c].store(1, Ordering::Relaxed);
                            placed.push(2 * number + c as u64);
                        }
                    }
                });
            }
            placed
        })
        .flatten()
        .collect();

    let mut depth: u16 = 1;
    while !layer.is_empty() {
        if depth >= MAX_DISTANCE {
            return Err(format!(
                "a forced line longer than {MAX_DISTANCE} plies at this komi"
            ));
        }
        layer.par_sort_unstable();
        let next = depth + 1;
        // A predecessor `p` (colour `pc` to move) of a state placed in this
        // layer, whose mover's result there is `own`: the slot it is
        // placed at in the next layer, if it is.
        let update = |own: Wdl, p: usize, pc: usize| -> Result<Option<u64>, String> {
            let slot = 2 * p + pc;
            match (own, result_in(results, p, pc)) {
                (Wdl::Loss, Wdl::Win) => Ok(distance[slot]
                    .compare_exchange(0, next, Ordering::Relaxed, Ordering::Relaxed)
                    .is_ok()
                    .then_some(slot as u64)),
                (Wdl::Win, Wdl::Loss) => match pending[slot].fetch_sub(1, Ordering::Relaxed) {
                    0 => Err(format!(
                        "state {p}: a loss with more children won than it has"
                    )),
                    1 => {
                        distance[slot].store(next, Ordering::Relaxed);
                        Ok(Some(slot as u64))
                    }
                    _ => Ok(None),
                },
                _ => Ok(None),
            }
        };
        let made: Vec<Result<Vec<u64>, String>> = layer
            .par_chunks(LAYER_CHUNK)
            .map_init(
                || (Vec::new(), Vec::new()),
                |(origins, numbers), chunk| {
                    let mut cursor = index.state_cursor();
                    let mut placed = Vec::new();
                    let mut at = 0;
                    while at < chunk.len() {
                        let number = chunk[at] >> 1;
                        // The colours placed in this layer (both may be).
                        let mut colours = [false; 2];
                        while at < chunk.len() && chunk[at] >> 1 == number {
                            colours[(chunk[at] & 1) as usize] = true;
                            at += 1;
                        }
                        let state = cursor.state(number);
                        origins.clear();
                        numbers.clear();
                        let maybe_shared = gather_origins(index, &state, origins);
                        predecessor_numbers(index, origins, maybe_shared, 0, numbers, |_| {});
                        for &p in numbers.iter() {
                            for (c, _) in colours.iter().enumerate().filter(|(_, &on)| on) {
                                let own = result_in(results, number as usize, c);
                                if let Some(slot) = update(own, p as usize, 1 - c)? {
                                    placed.push(slot);
                                }
                            }
                        }
                    }
                    Ok(placed)
                },
            )
            .collect();
        let mut following = Vec::new();
        for part in made {
            following.extend(part?);
        }
        layer = following;
        depth = next;
    }
    (0..states)
        .into_par_iter()
        .try_for_each(|n| -> Result<(), String> {
            for c in 0..2 {
                let own = result_in(results, n, c);
                if own != Wdl::Draw && distance[2 * n + c].load(Ordering::Relaxed) == 0 {
                    return Err(format!(
                        "state {n}: a {} the game never reaches the end of",
                        own.word()
                    ));
                }
            }
            Ok(())
        })?;
    Ok(distance)
}

/// The losing states a winner follows (bit `c` of a state's byte for
/// colour `c` to move): each won state that no pass ends designates its
/// first losing child, in move order, whose distance is one less than its
/// own.
pub fn designate(
    index: &StateIndex,
    results: &[u8],
    distance: &[AtomicU16],
) -> Result<Vec<AtomicU8>, String> {
    let board = *index.board();
    let states = results.len();
    let needed: Vec<AtomicU8> = (0..states).map(|_| AtomicU8::new(0)).collect();
    (0..states.div_ceil(CHUNK))
        .into_par_iter()
        .try_for_each(|chunk| -> Result<(), String> {
            let mut cursor = index.state_cursor();
            for n in chunk * CHUNK..((chunk + 1) * CHUNK).min(states) {
                // Per colour: the distance its designated child has.
                let mut wanted = [None; 2];
                for (c, wanted) in wanted.iter_mut().enumerate() {
                    let d = distance[2 * n + c].load(Ordering::Relaxed);
                    if result_in(results, n, c) == Wdl::Win && d > 1 {
                        *wanted = Some(d - 1);
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
                            if result_in(results, m, 1 - c) == Wdl::Loss
                                && distance[2 * m + 1 - c].load(Ordering::Relaxed) == d
                            {
                                needed[m].fetch_or(1 << (1 - c), Ordering::Relaxed);
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
    Ok(needed)
}
