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

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::{ending, may_derive, Wdl, WdlTable};
use crate::index::StateIndex;
use crate::rules::state::{Child, State};
use crate::table::format::Fault;
use crate::table::TableError;

/// States per piece of work.
const CHUNK: usize = 1 << 16;

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

    // The stored results (bits 0-1 Black to move, 2-3 White) and ranks.
    let mut stored = vec![0u8; states];
    let ranks: Vec<[AtomicU32; 2]> = (0..states)
        .map(|_| [AtomicU32::new(0), AtomicU32::new(0)])
        .collect();
    let decoded: Vec<(Vec<u8>, Vec<u32>)> = (0..header.blocks)
        .into_par_iter()
        .map(|block| {
            layout
                .block(bytes, block)
                .map_err(|fault| TableError::Corrupt {
                    origin: table.origin().clone(),
                    fault,
                })
        })
        .collect::<Result<_, _>>()?;
    for (block, (symbols, depths)) in decoded.into_iter().enumerate() {
        let (first, last) = header.block_positions(block as u32);
        let count = (last - first) as usize;
        let (_, ko_run) = index.state_runs(first..last);
        let ko_count = (ko_run.end - ko_run.start) as usize;
        let entry = layout.entries[block];
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
        for (i, (&symbol, &depth)) in symbols.iter().zip(&depths).enumerate() {
            let (c, offset) = (i / span, i % span);
            let number = if offset < count {
                2 * (first as usize + offset)
            } else if offset < 2 * count {
                2 * (first as usize + offset - count) + 1
            } else {
                ko_run.start as usize + offset - 2 * count
            };
            stored[number] |= symbol << (2 * c);
            ranks[number][c].store(depth, Ordering::Relaxed);
        }
    }
    let stored_of = |number: usize, c: usize| Wdl::from_symbol((stored[number] >> (2 * c)) & 3);
    let child_number = |child: &State| -> Result<usize, TableError> {
        index
            .rank(child)
            .map(|n| n as usize)
            .ok_or_else(|| corrupt(format!("a child the board does not number: {child:?}")))
    };

    // Pass 1: results as the prober reads them.
    let mut values = vec![0u8; states];
    values.par_chunks_mut(CHUNK).enumerate().try_for_each(
        |(chunk, out)| -> Result<(), TableError> {
            let mut cursor = index.state_cursor();
            let start = chunk * CHUNK;
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
                *slot = best[0] as u8 | (best[1] as u8) << 2;
            }
            Ok(())
        },
    )?;
    let value_of = |number: usize, c: usize| Wdl::from_symbol((values[number] >> (2 * c)) & 3);

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
                                let rank = ranks[n][1 - c].load(Ordering::Relaxed);
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
                        let stored = ranks[number][c].load(Ordering::Relaxed);
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
                        ranks[number][c].store(least[c].saturating_add(1), Ordering::Relaxed);
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
                            && ranks[number][c].load(Ordering::Relaxed) > 0
                    })
                    .collect();
                if losing.is_empty() {
                    continue;
                }
                let state = cursor.state(number as u64);
                for &c in &losing {
                    let rank = ranks[number][c].load(Ordering::Relaxed);
                    let fault = |what: &str| {
                        corrupt(format!(
                            "state {number} ({} to move) loses with rank {rank}, but {what}: {state:?}",
                            colour_word(c)
                        ))
                    };
                    for mv in state.legal_moves(&board) {
                        if let Some(Child::State(child)) = state.play(&board, mv) {
                            let n = child_number(&child)?;
                            let next = ranks[n][1 - c].load(Ordering::Relaxed);
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
