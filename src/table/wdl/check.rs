//! Verifying a win/draw/loss table against the rules alone: it shares
//! the decoder (`format`) and the prober's reading of stored results
//! (`super::may_derive`, `super::ending`) with the engine, and nothing with
//! the full table or the exporter.
//!
//! Three passes over every state, for either colour to move. The first
//! works out each result as the prober does (what is stored, raised by the
//! exact children). The second checks that each result is the best of its
//! children's and that only losses store a rank, and gives each won state
//! its rank (one more than the least rank among its losing children that
//! store one, 0 for the end of the game; a won state with neither fails).
//! The third checks that every move from a losing state that stores a
//! rank reaches a won state of smaller rank; a losing state that stores 0
//! is never followed, and is not checked. Then a win, following the least
//! rank, is forced in at most its rank's plies, so every win and loss is
//! true; a draw, with no losing child and a drawn one, is one neither side
//! can leave to its gain, so it is true too.
//!
//! It holds two bytes a state besides the state index and the file: a
//! byte a state and colour with its result (the stored one, then in pass 1
//! the one the prober reads, in place) and its rank (a rank above
//! `NEAR` kept in a map beside it). Pass 1 may work in place because a
//! state with an odd number of stones reads as what it stores raised by
//! the end of the game, which it gives again when read after the change,
//! and a state with an even number of stones reads only such children.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;

use super::{ending, may_derive, Wdl, WdlTable};
use crate::index::StateIndex;
use crate::rules::state::{Child, State};
use crate::table::format::Fault;
use crate::table::TableError;

/// States per piece of work.
const CHUNK: usize = 1 << 16;

/// The result bits of a cell.
const RESULT: u8 = 0b11;
/// The rank field of a cell whose rank the map holds.
const FAR: u8 = u8::MAX >> 2;
/// The greatest rank a cell holds.
pub const NEAR: u32 = FAR as u32 - 1;

/// A byte a state and colour (slot `2 * number + colour`, Black 0): bits
/// 0-1 the result, bits 2-7 the rank, `FAR` for one kept in the map.
/// Each cell is written by the one piece of work that owns its state.
struct Slots {
    cells: Vec<AtomicU8>,
    far: Mutex<HashMap<usize, u32>>,
}

impl Slots {
    fn new(slots: usize) -> Slots {
        Slots {
            cells: (0..slots).map(|_| AtomicU8::new(0)).collect(),
            far: Mutex::new(HashMap::new()),
        }
    }

    /// The bytes held, a map entry at about 32 bytes.
    fn bytes(&self) -> u64 {
        let far = self.far.lock().map_or(0, |far| far.len());
        (self.cells.len() + 32 * far) as u64
    }

    #[inline]
    fn result(&self, slot: usize) -> Wdl {
        Wdl::from_symbol(self.cells[slot].load(Ordering::Relaxed) & RESULT)
    }

    #[inline]
    fn rank(&self, slot: usize) -> u32 {
        match self.cells[slot].load(Ordering::Relaxed) >> 2 {
            FAR => self
                .far
                .lock()
                .map_or(u32::MAX, |far| far.get(&slot).copied().unwrap_or(u32::MAX)),
            near => near as u32,
        }
    }

    /// Sets slot `slot`'s result and rank.
    fn put(&self, slot: usize, result: Wdl, rank: u32) {
        let field = if rank <= NEAR {
            rank as u8
        } else {
            if let Ok(mut far) = self.far.lock() {
                far.insert(slot, rank);
            }
            FAR
        };
        self.cells[slot].store(field << 2 | result as u8, Ordering::Relaxed);
    }

    /// Sets slot `slot`'s result, keeping its rank.
    fn put_result(&self, slot: usize, result: Wdl) {
        let cell = &self.cells[slot];
        cell.store(
            cell.load(Ordering::Relaxed) & !RESULT | result as u8,
            Ordering::Relaxed,
        );
    }

    /// Sets slot `slot`'s rank, keeping its result.
    fn put_rank(&self, slot: usize, rank: u32) {
        self.put(slot, self.result(slot), rank);
    }
}

/// What a verification checked.
#[derive(Clone, Copy, Debug)]
pub struct CheckReport {
    pub states: u64,
    pub komi2: i32,
    pub seconds: f64,
    /// The bytes of the per-state cells and the map beside them.
    pub held_bytes: u64,
}

fn colour_word(c: usize) -> &'static str {
    if c == 0 {
        "Black"
    } else {
        "White"
    }
}

/// Verifies `table` against the rules.
pub fn verify(table: &WdlTable) -> Result<CheckReport, TableError> {
    let started = Instant::now();
    let (layout, bytes) = table.parts();
    let header = &layout.header;
    let board = header.board;
    let komi2 = header.komi2;
    let corrupt = |what: String| TableError::Corrupt {
        origin: table.origin().clone(),
        fault: Fault::Inconsistent(what),
    };
    let index = StateIndex::build(board).ok_or_else(|| TableError::CannotVerify {
        origin: table.origin().clone(),
        reason: format!("board {board} cannot be numbered here"),
    })?;
    let counts = index.counts();
    if (counts.positions, counts.ko_states) != (header.positions, header.ko_states) {
        return Err(corrupt(format!(
            "{} positions and {} ko states, where board {board} has {} and {}",
            header.positions, header.ko_states, counts.positions, counts.ko_states
        )));
    }
    let states = counts.states as usize;

    // Per state and colour: the stored result and rank, the result
    // becoming the one the prober reads in pass 1.
    let slots = Slots::new(2 * states);
    (0..header.blocks)
        .into_par_iter()
        .try_for_each(|block| -> Result<(), TableError> {
            let (symbols, depths) =
                layout
                    .block(bytes, block)
                    .map_err(|fault| TableError::Corrupt {
                        origin: table.origin().clone(),
                        fault,
                    })?;
            let (first, last) = header.block_positions(block);
            let count = (last - first) as usize;
            let (_, ko_run) = index.state_runs(first..last);
            let ko_count = (ko_run.end - ko_run.start) as usize;
            let entry = layout.entries[block as usize];
            if entry.ko_states as usize != ko_count {
                return Err(corrupt(format!(
                    "block {block} holds {} ko states, its positions have {ko_count}",
                    entry.ko_states
                )));
            }
            if entry.first_word != index.position_code(first) / 64 {
                return Err(corrupt(format!("block {block}'s first word")));
            }
            let span = 2 * count + ko_count;
            // The block's plain and after-a-pass states, then its ko states.
            for (i, (&symbol, &depth)) in symbols.iter().zip(&depths).enumerate() {
                let (c, offset) = (i / span, i % span);
                let number = if offset < count {
                    2 * (first as usize + offset)
                } else if offset < 2 * count {
                    2 * (first as usize + offset - count) + 1
                } else {
                    ko_run.start as usize + offset - 2 * count
                };
                slots.put(2 * number + c, Wdl::from_symbol(symbol), depth);
            }
            Ok(())
        })?;
    let child_number = |child: &State| -> Result<usize, TableError> {
        index
            .rank(child)
            .map(|n| n as usize)
            .ok_or_else(|| corrupt(format!("a child the board does not number: {child:?}")))
    };

    // Pass 1: results as the prober reads them, in place. A child read
    // here has an odd number of stones: whether it still holds what it
    // stores or already what it reads, raised by the end of the game it
    // is the same.
    (0..states.div_ceil(CHUNK)).into_par_iter().try_for_each(
        |chunk| -> Result<(), TableError> {
            let mut cursor = index.state_cursor();
            for number in chunk * CHUNK..((chunk + 1) * CHUNK).min(states) {
                let state = cursor.state(number as u64);
                let mut best = [0usize, 1].map(|c| {
                    let end = ending(&board, &state, c == 0, komi2).unwrap_or(Wdl::Loss);
                    slots.result(2 * number + c).max(end)
                });
                if may_derive(&state) {
                    for mv in state.legal_moves(&board) {
                        if let Some(Child::State(child)) = state.play(&board, mv) {
                            if may_derive(&child) {
                                continue;
                            }
                            let n = child_number(&child)?;
                            for (c, best) in best.iter_mut().enumerate() {
                                let end =
                                    ending(&board, &child, c != 0, komi2).unwrap_or(Wdl::Loss);
                                let read = slots.result(2 * n + 1 - c).max(end);
                                *best = (*best).max(read.flipped());
                            }
                        }
                    }
                }
                for (c, &best) in best.iter().enumerate() {
                    slots.put_result(2 * number + c, best);
                }
            }
            Ok(())
        },
    )?;
    let value_of = |number: usize, c: usize| slots.result(2 * number + c);

    // Pass 2: each result is its children's best; won states' ranks.
    (0..states.div_ceil(CHUNK))
        .into_par_iter()
        .try_for_each(|chunk| -> Result<(), TableError> {
            let mut cursor = index.state_cursor();
            for number in chunk * CHUNK..((chunk + 1) * CHUNK).min(states) {
                let state = cursor.state(number as u64);
                let mut best = [Wdl::Loss; 2];
                let mut least = [u32::MAX; 2];
                for mv in state.legal_moves(&board) {
                    match state.play(&board, mv) {
                        Some(Child::End { margin }) => {
                            for (c, best) in best.iter_mut().enumerate() {
                                let result = Wdl::of_margin(margin, c == 0, komi2);
                                *best = (*best).max(result);
                                if result == Wdl::Win {
                                    least[c] = 0;
                                }
                            }
                        }
                        Some(Child::State(child)) => {
                            let n = child_number(&child)?;
                            for (c, best) in best.iter_mut().enumerate() {
                                let result = value_of(n, 1 - c).flipped();
                                *best = (*best).max(result);
                                // A losing child that stores 0 is never followed.
                                if result == Wdl::Win {
                                    let rank = slots.rank(2 * n + 1 - c);
                                    if rank > 0 {
                                        least[c] = least[c].min(rank);
                                    }
                                }
                            }
                        }
                        None => {}
                    }
                }
                for c in 0..2 {
                    let own = value_of(number, c);
                    if best[c] != own {
                        return Err(corrupt(format!(
                            "state {number} ({} to move) reads as a {}, its moves give a {}: {state:?}",
                            colour_word(c),
                            own.word(),
                            best[c].word()
                        )));
                    }
                    if own != Wdl::Loss {
                        let stored = slots.rank(2 * number + c);
                        if stored != 0 {
                            return Err(corrupt(format!(
                                "state {number} ({} to move) reads as a {} but stores rank {stored}: {state:?}",
                                colour_word(c),
                                own.word()
                            )));
                        }
                    }
                    if own == Wdl::Win {
                        if least[c] == u32::MAX {
                            return Err(corrupt(format!(
                                "state {number} ({} to move) reads as a win, but no move ends the game with it or reaches a ranked loss: {state:?}",
                                colour_word(c)
                            )));
                        }
                        slots.put_rank(2 * number + c, least[c].saturating_add(1));
                    }
                }
            }
            Ok(())
        })?;

    // Pass 3: every move from a ranked losing state reaches a smaller rank.
    (0..states.div_ceil(CHUNK))
        .into_par_iter()
        .try_for_each(|chunk| -> Result<(), TableError> {
            let mut cursor = index.state_cursor();
            for number in chunk * CHUNK..((chunk + 1) * CHUNK).min(states) {
                let losing: Vec<usize> = (0..2)
                    .filter(|&c| {
                        value_of(number, c) == Wdl::Loss
                            && slots.rank(2 * number + c) > 0
                    })
                    .collect();
                if losing.is_empty() {
                    continue;
                }
                let state = cursor.state(number as u64);
                for &c in &losing {
                    let rank = slots.rank(2 * number + c);
                    let fault = |what: &str| {
                        corrupt(format!(
                            "state {number} ({} to move) loses with rank {rank}, but {what}: {state:?}",
                            colour_word(c)
                        ))
                    };
                    for mv in state.legal_moves(&board) {
                        if let Some(Child::State(child)) = state.play(&board, mv) {
                            let n = child_number(&child)?;
                            let next = slots.rank(2 * n + 1 - c);
                            if next >= rank {
                                return Err(fault(&format!(
                                    "a move reaches a win of rank {next}"
                                )));
                            }
                        }
                    }
                }
            }
            Ok(())
        })?;
    Ok(CheckReport {
        states: counts.states,
        komi2,
        seconds: started.elapsed().as_secs_f64(),
        held_bytes: slots.bytes(),
    })
}
