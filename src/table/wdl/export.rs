//! A win/draw/loss table made from a full table, for one komi
//! (`smallgo export --wdl`).
//!
//! The full table gives every state's result for either colour to move
//! at the komi, decoded block by block into four bits a state (its
//! blocks' mapped pages let go as they are read). From those results
//! alone (`ranks`, four bits a state and colour), a retrograde pass gives
//! each won or lost state its distance (the plies to the end of the game,
//! the winner hurrying and the loser resisting) and marks the losing
//! states a winner follows (each won state's first losing child of least
//! distance), keeping only their distances. Then, block by block on every
//! core, the exporter works out for each state and colour which results
//! it may store (its own, or any below it when the children the prober
//! looks at give its result: `super`), picks them so that runs are
//! longest (at each run's start, the symbol every following state allows
//! the longest), and writes the rank of each state that stores a loss:
//! its distance if a winner follows it, else 0. Every move from a
//! followed losing state reaches a won state of smaller distance, so the
//! ranks only fall along a won game. The export holds about one and a
//! half bytes a state besides the state index, and a byte or two per
//! followed loss (`ranks`); the per-state arrays are let go before the
//! file is put together.

use rayon::prelude::*;

use std::ops::Range;

use super::format::{self, EncodedBlock, Header};
#[cfg(test)]
use super::ranks::NEAR;
use super::ranks::{distances, Codes, Retrograde};
use super::{ending, may_derive, Wdl};
use crate::index::StateIndex;
use crate::rules::board::Topology;
use crate::rules::state::Child;
use crate::rules::value::{Outcome, Value};
use crate::table::format::TableBytes;
#[cfg(test)]
use crate::table::Table;

/// Positions per block: the full table's blocks, joined until a block has
/// at least this many.
const TARGET_POSITIONS_PER_BLOCK: u32 = 1 << 16;

/// What an export made.
#[derive(Clone, Debug, Default)]
pub struct ExportReport {
    pub states: u64,
    /// States for which a colour may store less than its result.
    pub derived: u64,
    pub file_bytes: u64,
    /// The win/draw/loss part's bytes.
    pub wdl_bytes: u64,
    /// The depth part's bytes.
    pub depth_bytes: u64,
    /// The header, directory and block table.
    pub index_bytes: u64,
    pub blocks: u32,
    pub results: [[u64; 3]; 2],
    /// The greatest distance, the longest forced line at the komi.
    pub longest: u32,
    /// The distances too long for their byte, kept beside it.
    pub far: u64,
    /// The losses a winner follows, whose distances are kept.
    pub followed: u64,
    /// The bytes of the per-state arrays (results and distances).
    pub held_bytes: u64,
    /// The bytes of the state index.
    pub index_memory: u64,
}

/// The result at `komi2` of a state of value `value`, its mover Black
/// when `black`.
pub(super) fn result_of(value: &Value, black: bool, komi2: i32) -> Wdl {
    match value.outcome(komi2 as f64 / 2.0, black) {
        Outcome::MoverWins { .. } => Wdl::Win,
        Outcome::Draw => Wdl::Draw,
        Outcome::OpponentWins { .. } => Wdl::Loss,
    }
}

/// Makes the win/draw/loss table of `table`'s board at twice the stand-in
/// komi `komi2`: the file's bytes and what they hold.
#[cfg(test)]
pub fn export(table: &Table, komi2: i32) -> Result<(Vec<u8>, ExportReport), String> {
    export_from(
        &table.view(),
        &table.origin().to_string(),
        &|_| {},
        &|_| {},
        komi2,
        NEAR,
    )
}

/// `export` from a full table's bytes `view`, named `origin` in errors,
/// telling `release` of the bytes each block was decoded from and `phase`
/// the name of each phase as it ends, with the distances above `near` kept
/// beside the byte a state and colour (`ranks::Distances`).
pub fn export_from(
    view: &TableBytes,
    origin: &str,
    release: &(dyn Fn(Range<usize>) + Sync),
    phase: &(dyn Fn(&str) + Sync),
    komi2: i32,
    near: u32,
) -> Result<(Vec<u8>, ExportReport), String> {
    let full = view.header().clone();
    let board = full.board;
    if board.topology() != Topology::Plain {
        return Err(format!(
            "{board}: win/draw/loss tables are made for plain boards only"
        ));
    }
    let index = StateIndex::build(board)
        .ok_or_else(|| format!("{board}: the board cannot be numbered here"))?;
    let counts = index.counts();
    if (counts.positions, counts.ko_states) != (full.positions, full.ko_states) {
        return Err(format!(
            "{origin}: its counts are not those of board {board}"
        ));
    }
    let corrupt = |fault| format!("{origin}: {fault}");
    let corrupt_text = |what: String| format!("{origin}: not a sound table: {what}");

    // Pass 1: every state's results, bits 0-1 Black to move, 2-3 White,
    // decoded block by block into the codes.
    let index_bytes = index.memory_bytes() as u64;
    let note = |what: &str| phase(what);
    note("index built");
    let codes = Codes::new(counts.states as usize);
    (0..full.blocks)
        .into_par_iter()
        .try_for_each(|block| -> Result<(), String> {
            let values = view.block(block).map_err(corrupt)?;
            if let Some(span) = view.blocks_span(block, block + 1) {
                release(span);
            }
            let (first, last) = view.block_positions(block);
            let mut plain = Vec::with_capacity(2 * (last - first) as usize);
            let mut ko = Vec::new();
            for at in 0..(last - first) as usize {
                let slots = values.starts[at + 1] - values.starts[at];
                for slot in 0..slots {
                    let value = values.value(at, slot).expect("a slot of the position");
                    let code = result_of(&value, true, komi2) as u8
                        | (result_of(&value, false, komi2) as u8) << 2;
                    if slot < 2 { &mut plain } else { &mut ko }.push(code);
                }
            }
            let (plain_run, ko_run) = index.state_runs(first..last);
            if plain.len() as u64 != plain_run.end - plain_run.start
                || ko.len() as u64 != ko_run.end - ko_run.start
            {
                return Err(corrupt(crate::table::format::Fault::NotTheBoard {
                    board: Box::new(board),
                    what: format!("block {block} holds other ko states than the board has"),
                }));
            }
            codes.put(plain_run.start as usize, &plain);
            codes.put(ko_run.start as usize, &ko);
            Ok(())
        })?;
    note("results decoded");
    let Retrograde {
        followed,
        longest,
        held_bytes,
    } = distances(&index, &codes, komi2, near).map_err(corrupt_text)?;
    note("distances found and followed losses marked");
    let held_bytes = (codes.bytes() + held_bytes) as u64;
    let far = followed.far_count() as u64;
    let followed_count = followed.count() as u64;

    // Pass 2: blocks of whole full-table blocks.
    let join = TARGET_POSITIONS_PER_BLOCK
        .div_ceil(full.positions_per_block)
        .max(1);
    let per = full.positions_per_block * join;
    let blocks = full.positions.div_ceil(per as u64) as u32;
    let header = Header {
        board,
        komi2,
        positions: full.positions,
        ko_states: full.ko_states,
        positions_per_block: per,
        blocks,
        directory_length: 0,
    };
    let result =
        |number: u64, black: bool| -> Wdl { codes.result(number as usize, !black as usize) };
    let encoded: Vec<(EncodedBlock, u64, [[u64; 3]; 2])> = (0..blocks)
        .into_par_iter()
        .map(|block| -> Result<_, String> {
            let (first, last) = header.block_positions(block);
            let count = (last - first) as usize;
            let (_, ko_run) = index.state_runs(first..last);
            let ko_count = (ko_run.end - ko_run.start) as usize;
            let colour_span = 2 * count + ko_count;
            // Per symbol: its result and whether it may store less.
            let mut truth = vec![0u8; 2 * colour_span];
            let mut free = vec![false; 2 * colour_span];
            let mut ranks = vec![0u32; 2 * colour_span];
            let mut derived = 0u64;
            let mut ko_at = 0usize;
            for position in index.positions(first).take(count) {
                let at = (position.number - first) as usize;
                for slot in 0..position.slots() {
                    let number = position.state(slot);
                    let offset = match slot {
                        0 => at,
                        1 => count + at,
                        _ => 2 * count + ko_at + (slot - 2) as usize,
                    };
                    let state = index.state_at(position.code, slot);
                    let mut given = [Wdl::Loss; 2];
                    let mut any = [false; 2];
                    for (c, black) in [true, false].into_iter().enumerate() {
                        if let Some(end) = ending(&board, &state, black, komi2) {
                            given[c] = end;
                            any[c] = true;
                        }
                    }
                    if may_derive(&state) {
                        for mv in state.legal_moves(&board) {
                            if let Some(Child::State(child)) = state.play(&board, mv) {
                                if may_derive(&child) {
                                    continue;
                                }
                                let child_number = index
                                    .rank(&child)
                                    .ok_or("a child the index does not number")?;
                                for (c, black) in [true, false].into_iter().enumerate() {
                                    given[c] = given[c].max(result(child_number, !black).flipped());
                                    any[c] = true;
                                }
                            }
                        }
                    }
                    let mut frees = false;
                    for (c, black) in [true, false].into_iter().enumerate() {
                        let own = result(number, black);
                        let at = c * colour_span + offset;
                        truth[at] = own as u8;
                        free[at] = any[c] && given[c] == own && own != Wdl::Loss;
                        frees |= free[at];
                        if own == Wdl::Loss && codes.followed(number as usize, c) {
                            ranks[at] = followed.get(&codes, 2 * number as usize + c);
                        }
                    }
                    derived += frees as u64;
                }
                ko_at += position.ko_states as usize;
            }
            // The stored symbols: at each run's start, the symbol allowed
            // the longest.
            let allows =
                |at: usize, symbol: u8| truth[at] == symbol || (free[at] && symbol < truth[at]);
            let mut stored = vec![0u8; truth.len()];
            let mut at = 0;
            while at < truth.len() {
                let (symbol, length) = (0..3u8)
                    .map(|symbol| {
                        let length = truth[at..]
                            .iter()
                            .enumerate()
                            .take_while(|&(i, _)| allows(at + i, symbol))
                            .count();
                        (symbol, length)
                    })
                    .max_by_key(|&(symbol, length)| (length, symbol == truth[at]))
                    .expect("three symbols");
                stored[at..at + length].fill(symbol);
                at += length;
            }
            let mut depth_raw = Vec::new();
            let mut tally = [[0u64; 3]; 2];
            for (i, (&symbol, &own)) in stored.iter().zip(&truth).enumerate() {
                tally[i / colour_span][own as usize] += 1;
                if symbol == 0 {
                    let rank = if own == 0 { ranks[i] } else { 0 };
                    format::push_varint(&mut depth_raw, rank as u64);
                }
            }
            Ok((
                EncodedBlock {
                    first_word: index.position_code(first) / 64,
                    ko_states: ko_count as u32,
                    wdl: format::deflate(&format::runs(&stored)),
                    depth: format::deflate(&depth_raw),
                },
                derived,
                tally,
            ))
        })
        .collect::<Result<_, String>>()?;
    note("blocks encoded");
    drop((codes, followed));
    let directory = format::deflate(&view.directory().map_err(corrupt)?);
    let header = Header {
        directory_length: directory.len() as u64,
        ..header
    };
    let mut report = ExportReport {
        states: counts.states,
        blocks,
        longest,
        far,
        followed: followed_count,
        held_bytes,
        index_memory: index_bytes,
        ..ExportReport::default()
    };
    let mut parts = Vec::with_capacity(encoded.len());
    for (block, derived, tally) in encoded {
        report.derived += derived;
        report.wdl_bytes += block.wdl.len() as u64;
        report.depth_bytes += block.depth.len() as u64;
        for (sum, part) in report.results.iter_mut().zip(tally) {
            for (sum, count) in sum.iter_mut().zip(part) {
                *sum += count;
            }
        }
        parts.push(block);
    }
    let bytes = format::write(&header, &directory, &parts);
    report.file_bytes = bytes.len() as u64;
    report.index_bytes = report.file_bytes - report.wdl_bytes - report.depth_bytes;
    Ok((bytes, report))
}
