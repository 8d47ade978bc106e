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
//! It holds three bytes a state besides the state index: a byte with the
//! stored results and the results as read, and a rank byte a colour (a
//! rank above 254 kept in a map beside it).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;

use super::ranks::Codes;
use super::{ending, may_derive, Wdl, WdlTable};
use crate::index::StateIndex;
use crate::rules::state::{Child, State};
use crate::table::format::Fault;
use crate::table::TableError;

/// States per piece of work.
const CHUNK: usize = 1 << 16;

/// A rank a state and colour: a byte, and the ranks a byte cannot hold in
/// a map beside it.
struct Ranks {
    cells: Vec<AtomicU8>,
    far: Mutex<HashMap<usize, u32>>,
}

/// The cell of a rank the map holds.
const FAR: u8 = u8::MAX;

impl Ranks {
    fn new(slots: usize) -> Ranks {
        Ranks {
            cells: (0..slots).map(|_| AtomicU8::new(0)).collect(),
            far: Mutex::new(HashMap::new()),
        }
    }

    fn get(&self, slot: usize) -> u32 {
        match self.cells[slot].load(Ordering::Relaxed) {
            FAR => self
                .far
                .lock()
                .map_or(u32::MAX, |far| far.get(&slot).copied().unwrap_or(u32::MAX)),
            cell => cell as u32,
        }
    }

    fn put(&self, slot: usize, rank: u32) {
        if rank < FAR as u32 {
            self.cells[slot].store(rank as u8, Ordering::Relaxed);
        } else {
            if let Ok(mut far) = self.far.lock() {
                far.insert(slot, rank);
            }
            self.cells[slot].store(FAR, Ordering::Relaxed);
        }
    }
}

/// What a verification checked.
#[derive(Clone, Copy, Debug)]
pub struct CheckReport {
    pub states: u64,
    pub komi2: i32,
    pub seconds: f64,
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

    // Per state: the stored results (bits 0-1 Black to move, 2-3 White),
    // and from pass 1 the results as the prober reads them (bits 4-7);
    // per state and colour the rank.
    let codes = Codes::new(states);
    let ranks = Ranks::new(2 * states);
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
            let mut plain = vec![0u8; 2 * count];
            let mut ko = vec![0u8; ko_count];
            for (i, (&symbol, &depth)) in symbols.iter().zip(&depths).enumerate() {
                let (c, offset) = (i / span, i % span);
                let (code, number) = if offset < count {
                    (&mut plain[2 * offset], 2 * (first as usize + offset))
                } else if offset < 2 * count {
                    let at = 2 * (offset - count) + 1;
                    (&mut plain[at], 2 * first as usize + at)
                } else {
                    let at = offset - 2 * count;
                    (&mut ko[at], ko_run.start as usize + at)
                };
                *code |= symbol << (2 * c);
                ranks.put(2 * number + c, depth);
            }
            codes.put(2 * first as usize, &plain);
            codes.put(ko_run.start as usize, &ko);
            Ok(())
        })?;
    let stored_of = |number: usize, c: usize| codes.result(number, c);
    let child_number = |child: &State| -> Result<usize, TableError> {
        index
            .rank(child)
            .map(|n| n as usize)
            .ok_or_else(|| corrupt(format!("a child the board does not number: {child:?}")))
    };

    // Pass 1: results as the prober reads them.
    (0..states.div_ceil(CHUNK)).into_par_iter().try_for_each(
        |chunk| -> Result<(), TableError> {
            let mut cursor = index.state_cursor();
            let start = chunk * CHUNK;
            let mut out = vec![0u8; CHUNK.min(states - start)];
            for (i, slot) in out.iter_mut().enumerate() {
                let number = start + i;
                let state = cursor.state(number as u64);
                let mut best = [0usize, 1].map(|c| {
                    let end = ending(&board, &state, c == 0, komi2).unwrap_or(Wdl::Loss);
                    stored_of(number, c).max(end)
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
                                *best = (*best).max(stored_of(n, 1 - c).max(end).flipped());
                            }
                        }
                    }
                }
                *slot = (best[0] as u8) << 4 | (best[1] as u8) << 6;
            }
            codes.put(start, &out);
            Ok(())
        },
    )?;
    let value_of = |number: usize, c: usize| codes.result(number, c + 2);

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
                                let rank = ranks.get(2 * n + 1 - c);
                                // A losing child that stores 0 is never followed.
                                if result == Wdl::Win && rank > 0 {
                                    least[c] = least[c].min(rank);
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
                        let stored = ranks.get(2 * number + c);
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
                        ranks.put(2 * number + c, least[c].saturating_add(1));
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
                            && ranks.get(2 * number + c) > 0
                    })
                    .collect();
                if losing.is_empty() {
                    continue;
                }
                let state = cursor.state(number as u64);
                for &c in &losing {
                    let rank = ranks.get(2 * number + c);
                    let fault = |what: &str| {
                        corrupt(format!(
                            "state {number} ({} to move) loses with rank {rank}, but {what}: {state:?}",
                            colour_word(c)
                        ))
                    };
                    for mv in state.legal_moves(&board) {
                        if let Some(Child::State(child)) = state.play(&board, mv) {
                            let n = child_number(&child)?;
                            let next = ranks.get(2 * n + 1 - c);
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
    })
}
