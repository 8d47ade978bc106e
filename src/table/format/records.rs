//! The records of a block: each position's ko-state count and its states'
//! values, written into a buffer the thread keeps and compressed
//! (`compress_block`), and parsed back into a `Block`.

// A probe-only build (no feature `solver`) leaves the encoder, which only writing uses unused.
#![cfg_attr(not(feature = "solver"), allow(dead_code, unused_imports))]

use std::cell::Cell;

use super::deflate::deflate;
use super::DEPTH_ESCAPE;
use crate::rules::board::Board;
use crate::rules::value::Value;

/// The most bytes one state's record takes: two codes and two escaped
/// depths.
const MAX_STATE_BYTES: usize = 8;

/// Writes the record of a state with value `value` at `bytes[at..]`;
/// returns where the next goes. Its bytes are gathered in a word,
/// little-endian, and the whole word is written: the bytes past the record
/// are overwritten by the next.
#[inline(always)]
pub(super) fn write_state(bytes: &mut [u8], at: usize, value: Value, points: i32) -> usize {
    // The code of a margin, `margin + N + 1`, as a byte's wrapping sum.
    let bias = (points + 1) as u8;
    let code = |margin: Option<i8>| margin.map_or(0, |m| (m as u8).wrapping_add(bias)) as u64;
    let mut word = code(value.mover_margin) | code(value.opponent_margin) << 8;
    let mut length = 2;
    let short = |depth: u16| depth < DEPTH_ESCAPE as u16;
    match (value.mover_margin, value.opponent_margin) {
        // The usual record: both margins known, both depths short.
        (Some(_), Some(_)) if short(value.mover_depth) && short(value.opponent_depth) => {
            word |= (value.mover_depth as u64) << 16 | (value.opponent_depth as u64) << 24;
            length = 4;
        }
        (mover_margin, opponent_margin) => {
            // A depth follows a known margin only.
            let mut depth = |margin: Option<i8>, depth: u16| {
                if margin.is_none() {
                    return;
                }
                let (bytes, count) = if short(depth) {
                    (depth as u64, 1)
                } else {
                    (DEPTH_ESCAPE as u64 | (depth as u64) << 8, 3)
                };
                word |= bytes << (8 * length);
                length += count;
            };
            depth(mover_margin, value.mover_depth);
            depth(opponent_margin, value.opponent_depth);
        }
    }
    bytes[at..at + MAX_STATE_BYTES].copy_from_slice(&word.to_le_bytes());
    at + length
}

/// Writes the raw (uncompressed) records of a block's positions into
/// `bytes`, which it grows as needed; returns their length. See
/// `compress_block` for the arguments.
pub(super) fn write_records(
    points: i32,
    plain_and_passed: &[Value],
    ko: &[Value],
    mut ko_counts: impl Iterator<Item = u32>,
    bytes: &mut Vec<u8>,
) -> usize {
    // A count byte a position, at most `MAX_STATE_BYTES` a state, and room
    // for the last state's whole word.
    let states = plain_and_passed.len() + ko.len();
    let most = plain_and_passed.len() / 2 + (states + 1) * MAX_STATE_BYTES;
    if bytes.len() < most {
        bytes.resize(most, 0);
    }
    let (mut at, mut ko_at) = (0, 0);
    for pair in plain_and_passed.chunks_exact(2) {
        let count = ko_counts
            .next()
            .expect("a ko state count for every position");
        bytes[at] = count as u8;
        at += 1;
        at = write_state(bytes, at, pair[0], points);
        at = write_state(bytes, at, pair[1], points);
        let end = ko_at + count as usize;
        for &value in &ko[ko_at..end] {
            at = write_state(bytes, at, value, points);
        }
        ko_at = end;
    }
    assert!(
        plain_and_passed.len().is_multiple_of(2) && ko_counts.next().is_none() && ko_at == ko.len(),
        "two states and a ko state count for every position, and ko states as counted"
    );
    at
}

thread_local! {
    /// A thread's buffer for the records of the block it compresses.
    static RECORD_BYTES: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

/// Compresses the records of a block of positions of `board`, from the
/// values of their states in slot order: `plain_and_passed` holds each
/// position's first two (no pass, after a pass), `ko` the ko states of one
/// position after another, and `ko_counts` how many each position has. The
/// records are built in a buffer the thread keeps from block to block.
pub fn compress_block(
    board: &Board,
    plain_and_passed: &[Value],
    ko: &[Value],
    ko_counts: impl Iterator<Item = u32>,
) -> Vec<u8> {
    let mut bytes = RECORD_BYTES.take();
    let length = write_records(
        board.points() as i32,
        plain_and_passed,
        ko,
        ko_counts,
        &mut bytes,
    );
    let compressed = deflate(&bytes[..length]);
    RECORD_BYTES.set(bytes);
    compressed
}

/// The decoded records of one block.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Block {
    /// Index into `values` of each position's slot 0, and the end.
    pub starts: Vec<u32>,
    pub values: Vec<Value>,
}

impl Block {
    /// The value in slot `slot` of the block's position `position`.
    pub fn value(&self, position: usize, slot: u32) -> Option<Value> {
        let start = *self.starts.get(position)?;
        let end = *self.starts.get(position + 1)?;
        let at = start.checked_add(slot)?;
        (at < end).then(|| self.values[at as usize])
    }
}

/// Parses the records of `count` positions.
pub(super) fn decode_records(raw: &[u8], count: usize, points: i32) -> Result<Block, String> {
    let mut at = 0usize;
    let mut next = || -> Result<u8, String> {
        let byte = *raw.get(at).ok_or("records end early")?;
        at += 1;
        Ok(byte)
    };
    let mut starts = Vec::with_capacity(count + 1);
    let mut values = Vec::with_capacity(count * 2);
    let margin = |code: u8| -> Result<Option<i8>, String> {
        match code {
            0 => Ok(None),
            c if (c as i32) <= 2 * points + 1 => Ok(Some((c as i32 - points - 1) as i8)),
            c => Err(format!("margin code {c} out of range")),
        }
    };
    for _ in 0..count {
        starts.push(values.len() as u32);
        let ko = next()? as i32;
        if ko > points {
            return Err(format!("{ko} ko states for one position"));
        }
        for _ in 0..2 + ko {
            let mover_margin = margin(next()?)?;
            let opponent_margin = margin(next()?)?;
            let mut depth = |known: bool| -> Result<u16, String> {
                if !known {
                    return Ok(0);
                }
                let first = next()?;
                if first != DEPTH_ESCAPE {
                    return Ok(first as u16);
                }
                let low = next()?;
                let high = next()?;
                Ok(u16::from_le_bytes([low, high]))
            };
            let mover_depth = depth(mover_margin.is_some())?;
            let opponent_depth = depth(opponent_margin.is_some())?;
            values.push(Value {
                mover_margin,
                opponent_margin,
                mover_depth,
                opponent_depth,
            });
        }
    }
    starts.push(values.len() as u32);
    if at != raw.len() {
        return Err("bytes left after the last record".to_string());
    }
    Ok(Block { starts, values })
}
