//! The bytes of a win/draw/loss table: its header, its block table and the
//! coding of its blocks, written and read back with every length, offset
//! and code checked (`Fault`, never a panic).
//!
//! ```text
//! header (64 bytes, little-endian)
//!     0  magic "SGWDL\0\0\0"          8  format version (u32, 2; 1 read too)
//!    12  rows, columns (u8 each), 2 zero bytes (plain boards only)
//!    16  twice the stand-in komi (i32)   20  derivation rule (u32, 1)
//!    24  positions (u64)              32  ko states (u64)
//!    40  positions per block (u32)    44  block count (u32)
//!    48  directory length (u64)       56  CRC-32 of the file, these 4 bytes as zero
//!    60  4 zero bytes
//! directory   deflate of one byte per 64 codes (as in a full table)
//! block table per block 24 bytes: its first position's 64-code word (u64),
//!             its ko states (u32), its win/draw/loss part's length (u32), its
//!             depth part's length (u32), 4 zero bytes
//! wdl part    per block, deflate of its runs: each run one varint,
//!             (length - 1) * 4 + symbol (0 loss, 1 draw, 2 win)
//! depth part  per block, deflate of one varint per symbol 0 (loss) of its
//!             runs, in order: a followed loss's rank, else 0
//! ```
//!
//! Version 2 stores a rank only for the losses a winner follows, 0 for
//! the others, which readers skip; version 1 stored one for every loss,
//! and reads the same way (none of its ranks is 0). A reader of version 1
//! alone would take a 0 for the fastest loss, so it refuses version 2 by
//! its version.
//!
//! A block's symbols are those of its positions' states for Black to
//! move, then for White to move; each colour's are the plain states, then
//! the states after a pass, then the ko states, each in position order.

// A probe-only build (no feature `solver`) writes no tables.
#![cfg_attr(not(feature = "solver"), allow(dead_code))]

use flate2::write::DeflateEncoder;
use flate2::Compression;

use crate::rules::board::Board;
use crate::table::format::{check_front, inflate, u32_at, u64_at, Fault};

pub const MAGIC: [u8; 8] = *b"SGWDL\0\0\0";
pub const VERSION: u32 = 2;
/// The versions read: every loss ranked (1), or only the followed ones.
const READ_VERSIONS: [u32; 2] = [1, 2];
pub const HEADER_SIZE: usize = 64;
/// The one derivation rule: a state with an even number of stones may
/// store less than its value when its children with an odd number of
/// stones, or the end of the game, give its value (`super`).
pub const RULE_STONE_PARITY: u32 = 1;
const CHECKSUM_OFFSET: usize = 56;
const ENTRY_SIZE: usize = 24;
/// A bound on block size, so that a damaged header cannot ask for huge
/// buffers.
pub const MAX_POSITIONS_PER_BLOCK: u32 = 1 << 20;
/// The deflate level of every part: the parts are small, the best level
/// costs little.
const LEVEL: u32 = 9;

fn inconsistent(what: impl Into<String>) -> Fault {
    Fault::Inconsistent(what.into())
}

/// The header's fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub board: Board,
    pub komi2: i32,
    pub positions: u64,
    pub ko_states: u64,
    pub positions_per_block: u32,
    pub blocks: u32,
    pub directory_length: u64,
}

/// One block's entry of the block table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The 64-code word of the block's first position.
    pub first_word: u64,
    pub ko_states: u32,
    pub wdl_length: u32,
    pub depth_length: u32,
}

/// A block as written: its entry's counts and its two parts.
pub struct EncodedBlock {
    pub first_word: u64,
    pub ko_states: u32,
    pub wdl: Vec<u8>,
    pub depth: Vec<u8>,
}

/// A file's parts, checked: where each block's parts lie.
pub struct Layout {
    pub header: Header,
    pub directory: std::ops::Range<usize>,
    pub entries: Vec<Entry>,
    /// Each block's win/draw/loss and depth parts.
    pub wdl: Vec<std::ops::Range<usize>>,
    pub depth: Vec<std::ops::Range<usize>>,
}

/// CRC-32 of the file with the checksum field read as zero.
fn checksum(bytes: &[u8]) -> u32 {
    crate::table::format::checksum_releasing(bytes, CHECKSUM_OFFSET, &|_| {})
}

/// Makes the stored checksum that of the bytes: damage behind a right
/// checksum reaches the checks past it.
#[cfg(test)]
pub fn seal(bytes: &mut [u8]) {
    if bytes.len() >= HEADER_SIZE {
        let sum = checksum(bytes);
        bytes[CHECKSUM_OFFSET..CHECKSUM_OFFSET + 4].copy_from_slice(&sum.to_le_bytes());
    }
}

pub fn deflate(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = DeflateEncoder::new(Vec::new(), Compression::new(LEVEL));
    encoder.write_all(bytes).expect("writing to memory");
    encoder.finish().expect("writing to memory")
}

pub fn push_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Reads a varint at `*at`, moving past it.
pub fn read_varint(bytes: &[u8], at: &mut usize) -> Result<u64, String> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *bytes.get(*at).ok_or("the data ends inside a number")?;
        *at += 1;
        value |= ((byte & 0x7f) as u64) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err("a number longer than 64 bits".into())
}

/// The runs of `symbols` (each below 3), as the wdl part stores them
/// before deflate.
pub fn runs(symbols: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < symbols.len() {
        let symbol = symbols[at];
        let length = symbols[at..].iter().take_while(|&&s| s == symbol).count();
        push_varint(&mut out, ((length as u64 - 1) << 2) | symbol as u64);
        at += length;
    }
    out
}

/// The symbols of `count` states from their runs.
pub fn symbols_of_runs(raw: &[u8], count: usize) -> Result<Vec<u8>, String> {
    let mut symbols = Vec::with_capacity(count);
    let mut at = 0;
    while at < raw.len() {
        let run = read_varint(raw, &mut at)?;
        let symbol = (run & 3) as u8;
        if symbol > 2 {
            return Err(format!("symbol {symbol} is none of loss, draw, win"));
        }
        let length = (run >> 2).saturating_add(1);
        if length > (count - symbols.len()) as u64 {
            return Err(format!("runs of more than the block's {count} states"));
        }
        symbols.resize(symbols.len() + length as usize, symbol);
    }
    if symbols.len() != count {
        return Err(format!(
            "runs of {} states where the block has {count}",
            symbols.len()
        ));
    }
    Ok(symbols)
}

/// The depths of a block: `count` varints, nothing after them.
pub fn depths(raw: &[u8], count: usize) -> Result<Vec<u32>, String> {
    let mut out = Vec::with_capacity(count);
    let mut at = 0;
    while out.len() < count {
        let depth = read_varint(raw, &mut at)?;
        out.push(u32::try_from(depth).map_err(|_| format!("depth {depth} is too large"))?);
    }
    if at != raw.len() {
        return Err("bytes after the block's depths".into());
    }
    Ok(out)
}

impl Header {
    /// The number of 64-code words the directory covers.
    pub fn directory_words(&self) -> u64 {
        3u64.pow(self.board.points() as u32).div_ceil(64)
    }

    /// The positions `first..last` that block `block` covers.
    pub fn block_positions(&self, block: u32) -> (u64, u64) {
        let per = self.positions_per_block as u64;
        let first = block as u64 * per;
        (first, (first + per).min(self.positions))
    }
}

/// The whole file: header, directory (deflated counts), block table and
/// parts, with its checksum.
pub fn write(header: &Header, directory: &[u8], blocks: &[EncodedBlock]) -> Vec<u8> {
    let mut out = vec![0u8; HEADER_SIZE];
    out[0..8].copy_from_slice(&MAGIC);
    out[8..12].copy_from_slice(&VERSION.to_le_bytes());
    out[12] = header.board.rows() as u8;
    out[13] = header.board.columns() as u8;
    out[16..20].copy_from_slice(&header.komi2.to_le_bytes());
    out[20..24].copy_from_slice(&RULE_STONE_PARITY.to_le_bytes());
    out[24..32].copy_from_slice(&header.positions.to_le_bytes());
    out[32..40].copy_from_slice(&header.ko_states.to_le_bytes());
    out[40..44].copy_from_slice(&header.positions_per_block.to_le_bytes());
    out[44..48].copy_from_slice(&(blocks.len() as u32).to_le_bytes());
    out[48..56].copy_from_slice(&(directory.len() as u64).to_le_bytes());
    out.extend_from_slice(directory);
    for block in blocks {
        out.extend_from_slice(&block.first_word.to_le_bytes());
        out.extend_from_slice(&block.ko_states.to_le_bytes());
        out.extend_from_slice(&(block.wdl.len() as u32).to_le_bytes());
        out.extend_from_slice(&(block.depth.len() as u32).to_le_bytes());
        out.extend_from_slice(&[0; 4]);
    }
    for block in blocks {
        out.extend_from_slice(&block.wdl);
    }
    for block in blocks {
        out.extend_from_slice(&block.depth);
    }
    let sum = checksum(&out);
    out[CHECKSUM_OFFSET..CHECKSUM_OFFSET + 4].copy_from_slice(&sum.to_le_bytes());
    out
}

/// Reads and checks a file's header, checksum and block table.
pub fn read(bytes: &[u8]) -> Result<Layout, Fault> {
    check_front(bytes, &MAGIC, HEADER_SIZE)?;
    let version = u32_at(bytes, 8);
    if !READ_VERSIONS.contains(&version) {
        return Err(Fault::UnsupportedVersion(version));
    }
    let stored = u32_at(bytes, CHECKSUM_OFFSET);
    let computed = checksum(bytes);
    if stored != computed {
        return Err(Fault::ChecksumMismatch { stored, computed });
    }
    if bytes[14..16].iter().chain(&bytes[60..64]).any(|&b| b != 0) {
        return Err(inconsistent("reserved header bytes are not zero"));
    }
    let rule = u32_at(bytes, 20);
    if rule != RULE_STONE_PARITY {
        return Err(Fault::UnsupportedEncoding(rule));
    }
    let (rows, columns) = (bytes[12] as usize, bytes[13] as usize);
    let board =
        Board::new(rows, columns).map_err(|_| inconsistent(format!("board {rows}x{columns}")))?;
    if board.points() > crate::index::MAX_INDEX_POINTS {
        return Err(inconsistent(format!(
            "board {board} is larger than any table"
        )));
    }
    let header = Header {
        board,
        komi2: u32_at(bytes, 16) as i32,
        positions: u64_at(bytes, 24),
        ko_states: u64_at(bytes, 32),
        positions_per_block: u32_at(bytes, 40),
        blocks: u32_at(bytes, 44),
        directory_length: u64_at(bytes, 48),
    };
    if header.komi2.unsigned_abs() > 4 * board.points() as u32 + 2 {
        return Err(inconsistent(format!(
            "komi {} is beyond every margin of {board}",
            header.komi2 as f64 / 2.0
        )));
    }
    if header.positions == 0
        || header.positions_per_block == 0
        || header.positions_per_block > MAX_POSITIONS_PER_BLOCK
    {
        return Err(inconsistent("positions or block size"));
    }
    if header.blocks as u64 != header.positions.div_ceil(header.positions_per_block as u64) {
        return Err(inconsistent("block count does not match the positions"));
    }
    if header.positions > header.directory_words().saturating_mul(64)
        || header.ko_states > header.positions.saturating_mul(board.points() as u64)
    {
        return Err(inconsistent("more states than the board has"));
    }
    let length = bytes.len() as u64;
    let directory_end = (HEADER_SIZE as u64).saturating_add(header.directory_length);
    let table_end = directory_end.saturating_add(header.blocks as u64 * ENTRY_SIZE as u64);
    if table_end > length {
        return Err(Fault::Truncated {
            length,
            needed: table_end,
        });
    }
    let mut entries = Vec::with_capacity(header.blocks as usize);
    let mut ko_total = 0u64;
    let mut parts = 0u64;
    for block in 0..header.blocks as usize {
        let at = directory_end as usize + block * ENTRY_SIZE;
        let entry = Entry {
            first_word: u64_at(bytes, at),
            ko_states: u32_at(bytes, at + 8),
            wdl_length: u32_at(bytes, at + 12),
            depth_length: u32_at(bytes, at + 16),
        };
        if u32_at(bytes, at + 20) != 0 {
            return Err(inconsistent(format!("block {block}'s reserved bytes")));
        }
        if entry.first_word >= header.directory_words()
            || entries
                .last()
                .is_some_and(|e: &Entry| e.first_word > entry.first_word)
        {
            return Err(inconsistent(format!("block {block}'s first word")));
        }
        ko_total += entry.ko_states as u64;
        parts += entry.wdl_length as u64 + entry.depth_length as u64;
        entries.push(entry);
    }
    if ko_total != header.ko_states {
        return Err(inconsistent("the blocks' ko states do not add up"));
    }
    let end = table_end + parts;
    if end > length {
        return Err(Fault::Truncated {
            length,
            needed: end,
        });
    }
    if end < length {
        return Err(Fault::Oversized {
            length,
            expected: end,
        });
    }
    let mut at = table_end as usize;
    let mut wdl = Vec::with_capacity(entries.len());
    for entry in &entries {
        wdl.push(at..at + entry.wdl_length as usize);
        at += entry.wdl_length as usize;
    }
    let mut depth = Vec::with_capacity(entries.len());
    for entry in &entries {
        depth.push(at..at + entry.depth_length as usize);
        at += entry.depth_length as usize;
    }
    Ok(Layout {
        header,
        directory: HEADER_SIZE..directory_end as usize,
        entries,
        wdl,
        depth,
    })
}

impl Layout {
    /// The directory's counts, checked to count the positions.
    pub fn directory_counts(&self, bytes: &[u8]) -> Result<Vec<u8>, Fault> {
        let words = self.header.directory_words();
        let raw = inflate(
            &bytes[self.directory.clone()],
            words as usize,
            "the directory",
        )?;
        if raw.len() as u64 != words {
            return Err(inconsistent("the directory has the wrong length"));
        }
        if raw.iter().any(|&count| count > 64) {
            return Err(inconsistent("a directory count above 64"));
        }
        if raw.iter().map(|&c| c as u64).sum::<u64>() != self.header.positions {
            return Err(inconsistent("the directory does not count the positions"));
        }
        Ok(raw)
    }

    /// The number of symbols of block `block`: both colours' states.
    pub fn symbol_count(&self, block: u32) -> usize {
        let (first, last) = self.header.block_positions(block);
        2 * (2 * (last - first) as usize + self.entries[block as usize].ko_states as usize)
    }

    /// Block `block`'s symbols and, for each symbol 0, its depth (0 for
    /// the others).
    pub fn block(&self, bytes: &[u8], block: u32) -> Result<(Vec<u8>, Vec<u32>), Fault> {
        let at = block as usize;
        if at >= self.entries.len() {
            return Err(inconsistent(format!(
                "block {block} of {}",
                self.entries.len()
            )));
        }
        let count = self.symbol_count(block);
        let (first, last) = self.header.block_positions(block);
        let points = self.header.board.points() as u64;
        if self.entries[at].ko_states as u64 > (last - first) * points {
            return Err(inconsistent(format!(
                "block {block} has too many ko states"
            )));
        }
        let what = format!("block {block}'s win/draw/loss part");
        // A run is at most 10 bytes; a block holds at most `count` runs.
        let raw = inflate(&bytes[self.wdl[at].clone()], count * 10, &what)?;
        let symbols =
            symbols_of_runs(&raw, count).map_err(|e| inconsistent(format!("{what}: {e}")))?;
        let losses = symbols.iter().filter(|&&s| s == 0).count();
        let what = format!("block {block}'s depth part");
        let raw = inflate(&bytes[self.depth[at].clone()], losses * 5, &what)?;
        let stored = depths(&raw, losses).map_err(|e| inconsistent(format!("{what}: {e}")))?;
        let mut depth = vec![0u32; count];
        let mut next = stored.into_iter();
        for (symbol, slot) in symbols.iter().zip(depth.iter_mut()) {
            if *symbol == 0 {
                *slot = next.next().expect("one depth per loss");
            }
        }
        Ok((symbols, depth))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_read_back_and_bad_runs_are_refused() {
        let symbols: Vec<u8> = (0..5000u32)
            .map(|i| ((i / 37 + i / 1000) % 3) as u8)
            .collect();
        let raw = runs(&symbols);
        assert_eq!(symbols_of_runs(&raw, symbols.len()).unwrap(), symbols);
        assert!(symbols_of_runs(&raw, symbols.len() - 1).is_err());
        assert!(symbols_of_runs(&raw, symbols.len() + 1).is_err());
        assert!(symbols_of_runs(&[3], 1).is_err());
        assert!(symbols_of_runs(&[0x80], 1).is_err());
        assert!(symbols_of_runs(&[0xff; 12], 1).is_err());
        let mut raw = Vec::new();
        for depth in [0u64, 5, 300, 70_000] {
            push_varint(&mut raw, depth);
        }
        assert_eq!(depths(&raw, 4).unwrap(), [0, 5, 300, 70_000]);
        assert!(depths(&raw, 3).is_err());
        assert!(depths(&raw, 5).is_err());
    }
}
