//! The bytes of a table file (one file per board: a header naming the format's
//! version, the board, the rules, the counts and a checksum, then deflated
//! blocks of values), and nothing else: how they are laid out, written and
//! checked. The probe API (`probe`) and the verifier (`verify`) read files
//! through this module only. This file has the layout, the header and its
//! faults; `records` a block's records, `deflate` their compression,
//! `table_writer` a file written front to back and `reader` a file read back
//! part by part. Win/draw/loss tables (`wdl::format`) check their front,
//! checksum and parts with the same helpers (`check_front`,
//! `checksum_releasing`, `inflate`, `u32_at`, `u64_at`).
//!
//! ```text
//! header (128 bytes, little-endian)
//!     0  magic "SMALLGO\0"            8  format version (u32)
//!    12  header size (u32)            16  rows, columns (u8 each)
//!    18  topology (u8: 0 plain, 1 circular), 1 zero
//!    20  value encoding (u32)         24  rules name (32 bytes ASCII, zero padded)
//!    56  positions (u64)              64  ko states (u64)
//!    72  states (u64)                 80  edges (u64)
//!    88  positions per block (u32)    92  block count (u32)
//!    96  directory offset (u64)      104  directory length (u64)
//!   112  block table offset (u64)    120  CRC-32 of the file, these 4 bytes as zero
//!   124  4 zero bytes (version 3: the shape's length, u32)
//! shape       (version 3 only) the shape's diagram in ASCII, as smallgo
//!             names it (`#.#/.../#.#`, canonical)
//! directory   deflate of one byte per 64 codes: how many canonical legal
//!             positions have a code in those 64 (the prober ranks positions
//!             with it)
//! block table block count + 1 absolute offsets (u64); the last is the file size
//! blocks      deflate of the records of `positions per block` consecutive
//!             positions: a ko-state count byte, then 2 + that many states
//!             (slot order), each `A code, B code[, dA][, dB]`; a code is 0
//!             for "none" or margin + N + 1, a depth follows only a known
//!             margin and is one byte below 255, else 255 and a u16
//! ```
//!
//! The topology byte came with format version 2. A plain board's table is
//! still written as version 1 (its byte 18 zero, as it always was), so that
//! its bytes do not change; a circular board's is version 2, which readers
//! of version 1 alone refuse by its version instead of taking it for the
//! plain board of its shape. A board of any shape is version 3, topology
//! 2: its grid's rows and columns in bytes 16 and 17, its diagram right
//! after the header (its length in bytes 124 to 128), the directory after
//! that.
//!
//! Every check on file data returns `Fault`, never panics: lengths, offsets,
//! codes and sizes are all bounded before use.

// A probe-only build (no feature `solver`) leaves the writing half unused.
#![cfg_attr(not(feature = "solver"), allow(dead_code, unused_imports))]

mod deflate;
mod reader;
mod records;
mod table_writer;

use std::fmt;

use crc32fast::Hasher as Crc;

use crate::rules::board::{Board, Topology};
pub(crate) use deflate::inflate;

pub use reader::TableBytes;
pub use records::{compress_block, Block};
pub use table_writer::{directory_counts, Description, TableWriter};

pub const MAGIC: [u8; 8] = *b"SMALLGO\0";
/// The format version of plain boards' tables.
pub const FORMAT_VERSION: u32 = Topology::Plain.format_version();
/// The format version of tables of other topologies: version 1 with the
/// topology in byte 18.
pub const TOPOLOGY_FORMAT_VERSION: u32 = Topology::Circular.format_version();
/// The format version of shapes' tables: version 2 with the shape's
/// diagram after the header.
pub const SHAPE_FORMAT_VERSION: u32 = Topology::Shape.format_version();
/// Where the topology sits in the header.
const TOPOLOGY_OFFSET: usize = 18;
/// Where a version 3 header holds the length of the shape's diagram.
const SHAPE_LENGTH_OFFSET: usize = 124;
/// The longest diagram a shape's table holds.
pub const MAX_SHAPE_LENGTH: usize = crate::rules::board::MAX_DIAGRAM;
/// The bytes that name a table's board: the header and a shape's diagram.
pub const PEEK_SIZE: usize = HEADER_SIZE + MAX_SHAPE_LENGTH;
pub const HEADER_SIZE: usize = 128;
/// The rules every table solves (`docs/rules.md#the-game`).
pub const RULES: &str = "area/basic-ko/no-suicide";
const _: () = assert!(RULES.len() < 32, "the rules name must fit its header field");
/// Blocks of position records, values as described above.
pub const VALUE_ENCODING: u32 = 1;
/// The file name extension of tables.
pub const EXTENSION: &str = "sgtb";

/// Where the checksum sits in the header.
pub const CHECKSUM_OFFSET: usize = 120;
pub(super) const DEPTH_ESCAPE: u8 = 255;
/// A bound on block size, so a damaged header cannot ask for huge buffers.
const MAX_POSITIONS_PER_BLOCK: u32 = 1 << 20;

/// What is wrong with table bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fault {
    /// The file does not begin as a smallgo table.
    BadMagic,
    /// A format version this smallgo does not read.
    UnsupportedVersion(u32),
    /// A value encoding this smallgo does not read.
    UnsupportedEncoding(u32),
    /// Rules other than smallgo's (`docs/rules.md#the-game`), by the name
    /// stored.
    UnknownRules(String),
    /// The file ends before its data does.
    Truncated {
        /// The file's bytes.
        length: u64,
        /// The bytes its header and blocks need.
        needed: u64,
    },
    /// The bytes are not the ones the stored checksum was taken of.
    ChecksumMismatch {
        /// The CRC-32 the file stores.
        stored: u32,
        /// The CRC-32 of its bytes.
        computed: u32,
    },
    /// A table of another board than the one wanted.
    WrongBoard {
        /// The board wanted.
        expected: Box<Board>,
        /// The board the header names.
        found: String,
    },
    /// The file goes on past the end its block table gives.
    Oversized {
        /// The file's bytes.
        length: u64,
        /// The bytes its block table accounts for.
        expected: u64,
    },
    /// The data contradicts itself: a bad offset, count, code or block.
    Inconsistent(String),
    /// The position directory is not that of the board the header names:
    /// the table holds another board's data under this board's name.
    NotTheBoard {
        /// The board the header names.
        board: Box<Board>,
        /// What the board has and the table does not.
        what: String,
    },
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::BadMagic => write!(f, "not a smallgo table (wrong magic bytes)"),
            Fault::UnsupportedVersion(v) => write!(
                f,
                "format version {v} is not supported (this smallgo reads versions \
                 {FORMAT_VERSION} to {SHAPE_FORMAT_VERSION}): rebuild the table with this smallgo"
            ),
            Fault::UnsupportedEncoding(e) => write!(f, "value encoding {e} is not supported"),
            Fault::UnknownRules(r) => {
                write!(f, "rules '{r}' are not the rules smallgo solves ({RULES})")
            }
            Fault::Truncated { length, needed } => {
                write!(
                    f,
                    "truncated: {length} bytes where at least {needed} are needed"
                )
            }
            Fault::ChecksumMismatch { stored, computed } => write!(
                f,
                "checksum mismatch: the header says {stored:08x}, the data gives {computed:08x}"
            ),
            Fault::WrongBoard { expected, found } => {
                write!(f, "holds board {found}, not {expected}")
            }
            Fault::Oversized { length, expected } => write!(
                f,
                "{length} bytes where the header describes {expected}: extra bytes at the end"
            ),
            Fault::Inconsistent(what) => write!(f, "corrupted table: {what}"),
            Fault::NotTheBoard { board, what } => write!(
                f,
                "not a table of board {board}, though its header says so: {what}"
            ),
        }
    }
}

pub(super) fn inconsistent(what: impl Into<String>) -> Fault {
    Fault::Inconsistent(what.into())
}

/// Checks that a file opens with `magic` and holds a whole header of
/// `header_size` bytes (a full table's, or a win/draw/loss table's).
pub(crate) fn check_front(bytes: &[u8], magic: &[u8; 8], header_size: usize) -> Result<(), Fault> {
    if bytes.len() < 8 || bytes[0..8] != *magic {
        return Err(Fault::BadMagic);
    }
    if bytes.len() < header_size {
        return Err(Fault::Truncated {
            length: bytes.len() as u64,
            needed: header_size as u64,
        });
    }
    Ok(())
}

/// The format version a board's table is written in: 1 for a plain board,
/// 2 for a circular one, 3 for a shape.
pub fn format_version(board: &Board) -> u32 {
    board.topology().format_version()
}

/// The topology byte of a board.
fn topology_code(topology: Topology) -> u8 {
    match topology {
        Topology::Plain => 0,
        Topology::Circular => 1,
        Topology::Shape => 2,
    }
}

/// The bytes of a board's shape section: a shape's diagram, nothing for
/// other boards.
fn shape_section(board: &Board) -> &'static [u8] {
    board
        .shape_geometry()
        .map_or(&[][..], |shape| shape.diagram().as_bytes())
}

/// The board of a version 3 header's prefix: the diagram after the header,
/// which must be a shape's canonical one on the grid bytes 16 and 17 give.
fn shape_of_header(prefix: &[u8]) -> Result<Board, Fault> {
    if prefix.len() < HEADER_SIZE {
        return Err(Fault::Truncated {
            length: prefix.len() as u64,
            needed: HEADER_SIZE as u64,
        });
    }
    let length = u32_at(prefix, SHAPE_LENGTH_OFFSET) as usize;
    if length == 0 || length > MAX_SHAPE_LENGTH {
        return Err(inconsistent(format!("a shape of {length} bytes")));
    }
    let Some(text) = prefix.get(HEADER_SIZE..HEADER_SIZE + length) else {
        return Err(Fault::Truncated {
            length: prefix.len() as u64,
            needed: (HEADER_SIZE + length) as u64,
        });
    };
    let text = std::str::from_utf8(text).map_err(|_| inconsistent("a shape that is not text"))?;
    let board = Board::shape(text)
        .map_err(|error| inconsistent(format!("shape '{}': {error}", text.escape_debug())))?;
    if board.topology() != Topology::Shape || board.name() != text {
        return Err(inconsistent(format!(
            "shape '{}' is not written as smallgo writes it ({board})",
            text.escape_debug()
        )));
    }
    if (board.rows(), board.columns()) != (prefix[16] as usize, prefix[17] as usize) {
        return Err(inconsistent(format!(
            "shape {board} on a grid of {}x{}",
            prefix[16], prefix[17]
        )));
    }
    Ok(board)
}

/// The board of a header's prefix (at least 19 bytes, magic checked; a
/// shape's also needs its diagram after the header): version, shape and
/// topology, which must agree.
fn board_of_header(prefix: &[u8]) -> Result<Board, Fault> {
    let version = u32_at(prefix, 8);
    let topology = match (version, prefix[TOPOLOGY_OFFSET]) {
        (FORMAT_VERSION, 0) => Topology::Plain,
        (FORMAT_VERSION, code) => {
            return Err(inconsistent(format!(
                "topology {code} in a version {FORMAT_VERSION} header, which has none"
            )))
        }
        (TOPOLOGY_FORMAT_VERSION, 1) => Topology::Circular,
        (TOPOLOGY_FORMAT_VERSION, code) => {
            return Err(inconsistent(format!(
                "topology {code} in a version {TOPOLOGY_FORMAT_VERSION} header"
            )))
        }
        (SHAPE_FORMAT_VERSION, 2) => return shape_of_header(prefix),
        (SHAPE_FORMAT_VERSION, code) => {
            return Err(inconsistent(format!(
                "topology {code} in a version {SHAPE_FORMAT_VERSION} header"
            )))
        }
        (version, _) => return Err(Fault::UnsupportedVersion(version)),
    };
    let (rows, columns) = (prefix[16] as usize, prefix[17] as usize);
    Board::with_topology(rows, columns, topology)
        .map_err(|_| inconsistent(format!("board {rows}x{columns}{}", topology.suffix())))
}

/// The header's fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub board: Board,
    pub positions: u64,
    pub ko_states: u64,
    pub states: u64,
    pub edges: u64,
    pub positions_per_block: u32,
    pub blocks: u32,
    pub directory_offset: u64,
    pub directory_length: u64,
    pub block_table_offset: u64,
    pub checksum: u32,
}

/// The little-endian u32 at `at` (the caller has checked the length).
pub(crate) fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

/// The little-endian u64 at `at` (the caller has checked the length).
pub(crate) fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

/// CRC-32 of the file with the checksum field read as zero.
#[cfg(any(test, fuzzing))]
pub fn file_checksum(bytes: &[u8]) -> u32 {
    file_checksum_releasing(bytes, &|_| {})
}

/// `file_checksum`, telling `release` of each stretch of bytes once it is
/// summed, so that a mapped file's pages can be let go as the sum goes
/// instead of all staying resident.
pub fn file_checksum_releasing(bytes: &[u8], release: &dyn Fn(std::ops::Range<usize>)) -> u32 {
    checksum_releasing(bytes, CHECKSUM_OFFSET, release)
}

/// CRC-32 of a file whose own checksum is the u32 at `field`, read as
/// zero (a full table's, or a win/draw/loss table's), telling `release`
/// of each stretch summed (see `file_checksum_releasing`).
pub(crate) fn checksum_releasing(
    bytes: &[u8],
    field: usize,
    release: &dyn Fn(std::ops::Range<usize>),
) -> u32 {
    const STRETCH: usize = 16 << 20;
    let mut crc = Crc::new();
    let split = field.min(bytes.len());
    crc.update(&bytes[..split]);
    if bytes.len() >= field + 4 {
        crc.update(&[0; 4]);
        let mut at = field + 4;
        while at < bytes.len() {
            let end = (at + STRETCH).min(bytes.len());
            crc.update(&bytes[at..end]);
            release(at..end);
            at = end;
        }
    }
    crc.finalize()
}

impl Header {
    /// The bytes before the directory: the header, and a shape's diagram.
    fn encode(&self) -> Vec<u8> {
        let mut out = vec![0u8; HEADER_SIZE];
        out[0..8].copy_from_slice(&MAGIC);
        out[8..12].copy_from_slice(&format_version(&self.board).to_le_bytes());
        out[12..16].copy_from_slice(&(HEADER_SIZE as u32).to_le_bytes());
        out[16] = self.board.rows() as u8;
        out[17] = self.board.columns() as u8;
        out[TOPOLOGY_OFFSET] = topology_code(self.board.topology());
        out[20..24].copy_from_slice(&VALUE_ENCODING.to_le_bytes());
        out[24..24 + RULES.len()].copy_from_slice(RULES.as_bytes());
        out[56..64].copy_from_slice(&self.positions.to_le_bytes());
        out[64..72].copy_from_slice(&self.ko_states.to_le_bytes());
        out[72..80].copy_from_slice(&self.states.to_le_bytes());
        out[80..88].copy_from_slice(&self.edges.to_le_bytes());
        out[88..92].copy_from_slice(&self.positions_per_block.to_le_bytes());
        out[92..96].copy_from_slice(&self.blocks.to_le_bytes());
        out[96..104].copy_from_slice(&self.directory_offset.to_le_bytes());
        out[104..112].copy_from_slice(&self.directory_length.to_le_bytes());
        out[112..120].copy_from_slice(&self.block_table_offset.to_le_bytes());
        out[120..124].copy_from_slice(&self.checksum.to_le_bytes());
        let shape = shape_section(&self.board);
        if !shape.is_empty() {
            out[SHAPE_LENGTH_OFFSET..HEADER_SIZE]
                .copy_from_slice(&(shape.len() as u32).to_le_bytes());
            out.extend_from_slice(shape);
        }
        out
    }

    /// Where the directory may start: after the header and a shape's
    /// diagram.
    pub fn front_size(board: &Board) -> u64 {
        (HEADER_SIZE + shape_section(board).len()) as u64
    }

    /// The board a file holds, from the first bytes of its header only
    /// (magic, version, board); the rest is checked when the file is opened.
    pub fn peek_board(prefix: &[u8]) -> Result<Board, Fault> {
        if prefix.len() < 8 || prefix[0..8] != MAGIC {
            return Err(Fault::BadMagic);
        }
        if prefix.len() <= TOPOLOGY_OFFSET {
            return Err(Fault::Truncated {
                length: prefix.len() as u64,
                needed: HEADER_SIZE as u64,
            });
        }
        board_of_header(prefix)
    }

    /// The board and the count of states a file holds, from the first bytes
    /// of its header only (as `peek_board`; nothing else is checked).
    pub fn peek_states(prefix: &[u8]) -> Result<(Board, u64), Fault> {
        let board = Header::peek_board(prefix)?;
        if prefix.len() < HEADER_SIZE {
            return Err(Fault::Truncated {
                length: prefix.len() as u64,
                needed: HEADER_SIZE as u64,
            });
        }
        Ok((board, u64_at(prefix, 72)))
    }

    /// Reads and checks the header and checksum of a whole file.
    pub fn read(bytes: &[u8]) -> Result<Header, Fault> {
        Header::read_releasing(bytes, &|_| {})
    }

    /// `read`, telling `release` of the bytes the checksum has summed (see
    /// `file_checksum_releasing`).
    pub fn read_releasing(
        bytes: &[u8],
        release: &dyn Fn(std::ops::Range<usize>),
    ) -> Result<Header, Fault> {
        check_front(bytes, &MAGIC, HEADER_SIZE)?;
        let version = u32_at(bytes, 8);
        if ![
            FORMAT_VERSION,
            TOPOLOGY_FORMAT_VERSION,
            SHAPE_FORMAT_VERSION,
        ]
        .contains(&version)
        {
            return Err(Fault::UnsupportedVersion(version));
        }
        if u32_at(bytes, 12) as usize != HEADER_SIZE {
            return Err(inconsistent("header size"));
        }
        let encoding = u32_at(bytes, 20);
        if encoding != VALUE_ENCODING {
            return Err(Fault::UnsupportedEncoding(encoding));
        }
        let rules_field = &bytes[24..56];
        let rules_end = rules_field.iter().position(|&b| b == 0).unwrap_or(32);
        let rules = String::from_utf8_lossy(&rules_field[..rules_end]).into_owned();
        if rules != RULES {
            return Err(Fault::UnknownRules(rules));
        }
        // The reserved bytes are written as zero, and read so: a header with
        // anything else there was not written by smallgo.
        if rules_field[rules_end..].iter().any(|&b| b != 0) {
            return Err(inconsistent("the rules name's padding is not zero"));
        }
        if bytes[TOPOLOGY_OFFSET + 1] != 0 {
            return Err(inconsistent(format!(
                "reserved byte {} is not zero",
                TOPOLOGY_OFFSET + 1
            )));
        }
        // Version 3 holds the shape's length there (`shape_of_header`).
        if version != SHAPE_FORMAT_VERSION
            && bytes[CHECKSUM_OFFSET + 4..HEADER_SIZE]
                .iter()
                .any(|&b| b != 0)
        {
            return Err(inconsistent(format!(
                "reserved bytes {}..{HEADER_SIZE} are not zero",
                CHECKSUM_OFFSET + 4
            )));
        }
        let board = board_of_header(bytes)?;
        if board.points() > crate::index::MAX_INDEX_POINTS {
            return Err(inconsistent(format!(
                "board {board} is larger than any table"
            )));
        }
        let header = Header {
            board,
            positions: u64_at(bytes, 56),
            ko_states: u64_at(bytes, 64),
            states: u64_at(bytes, 72),
            edges: u64_at(bytes, 80),
            positions_per_block: u32_at(bytes, 88),
            blocks: u32_at(bytes, 92),
            directory_offset: u64_at(bytes, 96),
            directory_length: u64_at(bytes, 104),
            block_table_offset: u64_at(bytes, 112),
            checksum: u32_at(bytes, 120),
        };
        let table_end = header
            .block_table_offset
            .checked_add((header.blocks as u64 + 1) * 8)
            .ok_or_else(|| inconsistent("block table offset"))?;
        if table_end > bytes.len() as u64 {
            return Err(Fault::Truncated {
                length: bytes.len() as u64,
                needed: table_end,
            });
        }
        let last_offset = u64_at(
            bytes,
            header.block_table_offset as usize + header.blocks as usize * 8,
        );
        if last_offset > bytes.len() as u64 {
            return Err(Fault::Truncated {
                length: bytes.len() as u64,
                needed: last_offset,
            });
        }
        if last_offset < bytes.len() as u64 {
            return Err(Fault::Oversized {
                length: bytes.len() as u64,
                expected: last_offset,
            });
        }
        let computed = file_checksum_releasing(bytes, release);
        if computed != header.checksum {
            return Err(Fault::ChecksumMismatch {
                stored: header.checksum,
                computed,
            });
        }
        // The blocks start right after the block table.
        if u64_at(bytes, header.block_table_offset as usize) != table_end {
            return Err(inconsistent("the first block's offset"));
        }
        header.check_counts()?;
        Ok(header)
    }

    fn check_counts(&self) -> Result<(), Fault> {
        if self.positions == 0 || self.positions_per_block == 0 {
            return Err(inconsistent("no positions"));
        }
        if self.positions_per_block > MAX_POSITIONS_PER_BLOCK {
            return Err(inconsistent("blocks too large"));
        }
        // In 128 bits: a damaged header can hold any numbers.
        if 2 * self.positions as u128 + self.ko_states as u128 != self.states as u128 {
            return Err(inconsistent("state counts do not add up"));
        }
        if self.blocks as u64 != self.positions.div_ceil(self.positions_per_block as u64) {
            return Err(inconsistent("block count does not match the positions"));
        }
        if self.ko_states > self.positions.saturating_mul(self.board.points() as u64) {
            return Err(inconsistent("too many ko states"));
        }
        // The parts follow one another: header, directory, block table.
        let directory_end = self.directory_offset.checked_add(self.directory_length);
        if self.directory_offset != Header::front_size(&self.board)
            || directory_end != Some(self.block_table_offset)
        {
            return Err(inconsistent("directory offsets"));
        }
        // A directory count is at most 64.
        if self.positions > self.directory_words().saturating_mul(64) {
            return Err(inconsistent("more positions than the board has codes"));
        }
        Ok(())
    }

    /// The number of 64-code words the directory covers.
    pub fn directory_words(&self) -> u64 {
        3u64.pow(self.board.points() as u32).div_ceil(64)
    }
}

#[cfg(test)]
mod tests {
    use super::deflate::{deflate, LEVEL};
    use super::records::write_records;
    use super::*;
    use crate::rules::value::Value;
    use flate2::write::DeflateEncoder;
    use flate2::Compression;
    use std::io::Write;

    /// What a new encoder writes, as blocks were compressed before the
    /// thread's compressor was kept.
    fn fresh_deflate(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = DeflateEncoder::new(Vec::new(), Compression::new(LEVEL));
        encoder.write_all(bytes).expect("writing to memory");
        encoder.finish().expect("writing to memory")
    }

    /// The records of positions given as their states' values in slot
    /// order, written a byte at a time as the layout above says.
    fn records_byte_by_byte(points: i32, positions: &[Vec<Value>]) -> Vec<u8> {
        let mut out = Vec::new();
        let depth = |out: &mut Vec<u8>, depth: u16| {
            if depth < DEPTH_ESCAPE as u16 {
                out.push(depth as u8);
            } else {
                out.push(DEPTH_ESCAPE);
                out.extend_from_slice(&depth.to_le_bytes());
            }
        };
        for states in positions {
            out.push((states.len() - 2) as u8);
            for value in states {
                let code = |margin: Option<i8>| margin.map_or(0, |m| (m as i32 + points + 1) as u8);
                out.push(code(value.mover_margin));
                out.push(code(value.opponent_margin));
                if value.mover_margin.is_some() {
                    depth(&mut out, value.mover_depth);
                }
                if value.opponent_margin.is_some() {
                    depth(&mut out, value.opponent_depth);
                }
            }
        }
        out
    }

    #[test]
    fn records_are_written_as_the_layout_says() {
        let mut rng = crate::tests::support::Rng::new(7);
        let points = 16;
        // Unknown margins, margins out of range (as the verifier's tests
        // write), short, escaped and largest depths.
        let mut margin = || match rng.below(8) {
            0 => None,
            1 => Some(rng.below(256) as u8 as i8),
            _ => Some(rng.below(2 * points as u64 + 1) as i8 - points as i8),
        };
        let mut values = Vec::new();
        for _ in 0..3000 {
            values.push((margin(), margin()));
        }
        let mut rng = crate::tests::support::Rng::new(8);
        let mut depth = || match rng.below(6) {
            0 => 254 + rng.below(3) as u16,
            1 => u16::MAX,
            2 => rng.below(2048) as u16,
            _ => rng.below(40) as u16,
        };
        let values: Vec<Value> = values
            .into_iter()
            .map(|(mover_margin, opponent_margin)| Value {
                mover_margin,
                opponent_margin,
                mover_depth: depth(),
                opponent_depth: depth(),
            })
            .collect();
        // Blocks of several sizes through one buffer, larger and smaller.
        let mut bytes = Vec::new();
        let mut rng = crate::tests::support::Rng::new(9);
        for positions in [300, 1, 0, 700, 20] {
            let mut states = values.iter().copied().cycle();
            let records: Vec<Vec<Value>> = (0..positions)
                .map(|_| {
                    let ko = if rng.below(3) == 0 {
                        rng.below(points as u64 + 1)
                    } else {
                        0
                    };
                    (&mut states).take(2 + ko as usize).collect()
                })
                .collect();
            let plain_and_passed: Vec<Value> =
                records.iter().flat_map(|r| r[..2].to_vec()).collect();
            let ko: Vec<Value> = records.iter().flat_map(|r| r[2..].to_vec()).collect();
            let counts = records.iter().map(|r| r.len() as u32 - 2);
            let length = write_records(points, &plain_and_passed, &ko, counts, &mut bytes);
            assert_eq!(
                bytes[..length],
                records_byte_by_byte(points, &records),
                "{positions} positions"
            );
        }
    }

    #[test]
    fn a_reused_compressor_writes_what_a_new_one_writes() {
        let mut rng = crate::tests::support::Rng::new(5);
        // Sizes around the output buffer's growth, repetitive and random
        // bytes, one after another on the same thread's compressor.
        for length in [0, 1, 100, 5000, 70_000, 300_000, 3, 40_000] {
            let repetitive: Vec<u8> = (0..length).map(|i| (i % 251 / 7) as u8).collect();
            let random: Vec<u8> = (0..length).map(|_| rng.below(256) as u8).collect();
            for bytes in [&repetitive, &random] {
                assert_eq!(deflate(bytes), fresh_deflate(bytes), "{length} bytes");
            }
        }
    }
}
