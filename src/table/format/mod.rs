//! The bytes of a table file (SPEC section 5), and nothing else: how they are
//! laid out, written and checked. The probe API (`probe`) and the verifier
//! (`verify`) read files through this module only.
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
//!   124  4 zero bytes
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
//! plain board of its shape.
//!
//! Every check on file data returns `Fault`, never panics: lengths, offsets,
//! codes and sizes are all bounded before use.

use std::cell::{Cell, RefCell};
use std::fmt;
use std::io::{Read, Seek, SeekFrom, Write};

use crc32fast::Hasher as Crc;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use flate2::Compression;
use flate2::{Compress, FlushCompress, Status};

use crate::board::{Board, Topology};
use crate::value::Value;

pub const MAGIC: [u8; 8] = *b"SMALLGO\0";
/// The format version of plain boards' tables.
pub const FORMAT_VERSION: u32 = 1;
/// The format version of tables of other topologies: version 1 with the
/// topology in byte 18.
pub const TOPOLOGY_FORMAT_VERSION: u32 = 2;
/// Where the topology sits in the header.
const TOPOLOGY_OFFSET: usize = 18;
pub const HEADER_SIZE: usize = 128;
/// The rules every table solves (SPEC section 1).
pub const RULES: &str = "area/basic-ko/no-suicide";
const _: () = assert!(RULES.len() < 32, "the rules name must fit its header field");
/// Blocks of position records, values as described above.
pub const VALUE_ENCODING: u32 = 1;
/// The file name extension of tables.
pub const EXTENSION: &str = "sgtb";

/// Where the checksum sits in the header.
pub const CHECKSUM_OFFSET: usize = 120;
const DEPTH_ESCAPE: u8 = 255;
/// A bound on block size, so a damaged header cannot ask for huge buffers.
const MAX_POSITIONS_PER_BLOCK: u32 = 1 << 20;

/// What is wrong with table bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    BadMagic,
    UnsupportedVersion(u32),
    UnsupportedEncoding(u32),
    UnknownRules(String),
    Truncated {
        length: u64,
        needed: u64,
    },
    ChecksumMismatch {
        stored: u32,
        computed: u32,
    },
    WrongBoard {
        expected: Board,
        found: String,
    },
    /// The file goes on past the end its block table gives.
    Oversized {
        length: u64,
        expected: u64,
    },
    /// The data contradicts itself: a bad offset, count, code or block.
    Inconsistent(String),
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::BadMagic => write!(f, "not a smallgo table (wrong magic bytes)"),
            Fault::UnsupportedVersion(v) => write!(
                f,
                "format version {v} is not supported (this smallgo reads versions \
                 {FORMAT_VERSION} and {TOPOLOGY_FORMAT_VERSION}): rebuild the table with this smallgo"
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
        }
    }
}

fn inconsistent(what: impl Into<String>) -> Fault {
    Fault::Inconsistent(what.into())
}

/// The format version a board's table is written in: 1 for a plain board,
/// 2 for the others.
pub fn format_version(board: &Board) -> u32 {
    match board.topology() {
        Topology::Plain => FORMAT_VERSION,
        Topology::Circular => TOPOLOGY_FORMAT_VERSION,
    }
}

/// The topology byte of a board.
fn topology_code(topology: Topology) -> u8 {
    match topology {
        Topology::Plain => 0,
        Topology::Circular => 1,
    }
}

/// The board of a header's prefix (at least 19 bytes, magic checked):
/// version, shape and topology, which must agree.
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

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

/// CRC-32 of the file with the checksum field read as zero.
pub fn file_checksum(bytes: &[u8]) -> u32 {
    file_checksum_releasing(bytes, &|_| {})
}

/// `file_checksum`, telling `release` of each stretch of bytes once it is
/// summed, so that a mapped file's pages can be let go as the sum goes
/// instead of all staying resident.
pub fn file_checksum_releasing(bytes: &[u8], release: &dyn Fn(std::ops::Range<usize>)) -> u32 {
    const STRETCH: usize = 16 << 20;
    let mut crc = Crc::new();
    let split = CHECKSUM_OFFSET.min(bytes.len());
    crc.update(&bytes[..split]);
    if bytes.len() >= CHECKSUM_OFFSET + 4 {
        crc.update(&[0; 4]);
        let mut at = CHECKSUM_OFFSET + 4;
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
    fn encode(&self) -> [u8; HEADER_SIZE] {
        let mut out = [0u8; HEADER_SIZE];
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
        out
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
        if bytes.len() < 8 || bytes[0..8] != MAGIC {
            return Err(Fault::BadMagic);
        }
        if bytes.len() < HEADER_SIZE {
            return Err(Fault::Truncated {
                length: bytes.len() as u64,
                needed: HEADER_SIZE as u64,
            });
        }
        let version = u32_at(bytes, 8);
        if version != FORMAT_VERSION && version != TOPOLOGY_FORMAT_VERSION {
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
        let directory_end = self.directory_offset.checked_add(self.directory_length);
        if self.directory_offset < HEADER_SIZE as u64
            || directory_end.is_none_or(|end| end > self.block_table_offset)
        {
            return Err(inconsistent("directory offsets"));
        }
        Ok(())
    }

    /// The number of 64-code words the directory covers.
    pub fn directory_words(&self) -> u64 {
        3u64.pow(self.board.points() as u32).div_ceil(64)
    }
}

/// The deflate level of every part of a table: zlib's default. Levels 7 to
/// 9 make files under 0.6% smaller and take 1.5 to 2 times as long to write.
const LEVEL: u32 = 6;

/// A thread's deflate state and output buffer, reused from block to block:
/// a new compressor allocates and clears its window and tables, which for
/// a block costs a seventh as much as compressing it; a reset one clears
/// only its hash table, and writes the same bytes as a new one.
struct BlockCompressor {
    deflate: Compress,
    compressed: Vec<u8>,
}

thread_local! {
    static BLOCK_COMPRESSOR: RefCell<Option<BlockCompressor>> = const { RefCell::new(None) };
}

/// Raw deflate of `bytes` at `LEVEL`, with the thread's compressor.
fn deflate(bytes: &[u8]) -> Vec<u8> {
    BLOCK_COMPRESSOR.with(|slot| {
        let mut slot = slot.borrow_mut();
        let compressor = slot.get_or_insert_with(|| BlockCompressor {
            deflate: Compress::new(Compression::new(LEVEL), false),
            compressed: Vec::new(),
        });
        compressor.deflate.reset();
        compressor.compressed.clear();
        loop {
            compressor.compressed.reserve(bytes.len() / 2 + 1024);
            let read = compressor.deflate.total_in() as usize;
            let status = compressor
                .deflate
                .compress_vec(
                    &bytes[read..],
                    &mut compressor.compressed,
                    FlushCompress::Finish,
                )
                .expect("compressing in memory");
            if status == Status::StreamEnd {
                return compressor.compressed.to_vec();
            }
        }
    })
}

/// Inflates at most `limit` bytes; more is a fault.
fn inflate(bytes: &[u8], limit: usize, what: &str) -> Result<Vec<u8>, Fault> {
    let mut out = Vec::new();
    let mut decoder = DeflateDecoder::new(bytes).take(limit as u64 + 1);
    decoder
        .read_to_end(&mut out)
        .map_err(|e| inconsistent(format!("{what} does not inflate: {e}")))?;
    if out.len() > limit {
        return Err(inconsistent(format!("{what} inflates beyond its size")));
    }
    Ok(out)
}

/// The most bytes one state's record takes: two codes and two escaped
/// depths.
const MAX_STATE_BYTES: usize = 8;

/// Writes the record of a state with value `value` at `bytes[at..]`;
/// returns where the next goes. Its bytes are gathered in a word,
/// little-endian, and the whole word is written: the bytes past the record
/// are overwritten by the next.
#[inline(always)]
fn write_state(bytes: &mut [u8], at: usize, value: Value, points: i32) -> usize {
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
fn write_records(
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

/// The directory's raw bytes, from the presence bits of the canonical legal
/// positions, 64 codes a word: how many each word has.
pub fn directory_counts(presence_words: impl Iterator<Item = u64>) -> impl Iterator<Item = u8> {
    presence_words.map(|w| w.count_ones() as u8)
}

/// Passes bytes on, counting them and keeping their CRC-32.
struct Tally<'a, W: Write> {
    out: &'a mut W,
    crc: Crc,
    bytes: u64,
}

impl<W: Write> Write for Tally<'_, W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let written = self.out.write(bytes)?;
        self.crc.update(&bytes[..written]);
        self.bytes += written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// What the header says about a table, apart from offsets and checksum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Description {
    pub board: Board,
    pub positions: u64,
    pub ko_states: u64,
    pub edges: u64,
    pub positions_per_block: u32,
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

/// Writes a table file front to back: the directory and the blocks stream
/// out as they are compressed, then the block table and header (with the
/// checksum, combined from the parts' checksums) are filled in.
pub struct TableWriter<W: Write + Seek> {
    out: W,
    header: Header,
    directory_crc: Crc,
    offsets: Vec<u64>,
    blocks_crc: Crc,
    at: u64,
}

impl<W: Write + Seek> TableWriter<W> {
    /// Starts a table; `directory` gives the raw directory bytes
    /// (`directory_counts`), which are compressed into the file at once.
    pub fn new(
        mut out: W,
        description: Description,
        directory: impl Iterator<Item = u8>,
    ) -> std::io::Result<TableWriter<W>> {
        out.seek(SeekFrom::Start(HEADER_SIZE as u64))?;
        let mut encoder = DeflateEncoder::new(
            Tally {
                out: &mut out,
                crc: Crc::new(),
                bytes: 0,
            },
            Compression::new(LEVEL),
        );
        let mut chunk = Vec::with_capacity(1 << 16);
        for byte in directory {
            chunk.push(byte);
            if chunk.len() == chunk.capacity() {
                encoder.write_all(&chunk)?;
                chunk.clear();
            }
        }
        encoder.write_all(&chunk)?;
        let tally = encoder.finish()?;
        let (directory_crc, directory_length) = (tally.crc, tally.bytes);
        let blocks = description
            .positions
            .div_ceil(description.positions_per_block as u64) as u32;
        let directory_offset = HEADER_SIZE as u64;
        let block_table_offset = directory_offset + directory_length;
        let first_block = block_table_offset + (blocks as u64 + 1) * 8;
        let header = Header {
            board: description.board,
            positions: description.positions,
            ko_states: description.ko_states,
            states: 2 * description.positions + description.ko_states,
            edges: description.edges,
            positions_per_block: description.positions_per_block,
            blocks,
            directory_offset,
            directory_length,
            block_table_offset,
            checksum: 0,
        };
        out.seek(SeekFrom::Start(first_block))?;
        Ok(TableWriter {
            out,
            header,
            directory_crc,
            offsets: Vec::with_capacity(blocks as usize + 1),
            blocks_crc: Crc::new(),
            at: first_block,
        })
    }

    /// The number of blocks the table needs.
    pub fn blocks(&self) -> u32 {
        self.header.blocks
    }

    /// Appends the next compressed block.
    pub fn add_block(&mut self, compressed: &[u8]) -> std::io::Result<()> {
        assert!(
            self.offsets.len() < self.header.blocks as usize,
            "more blocks than positions"
        );
        self.out.write_all(compressed)?;
        self.blocks_crc.update(compressed);
        self.offsets.push(self.at);
        self.at += compressed.len() as u64;
        Ok(())
    }

    /// Writes the front of the file; returns the output and the checksum.
    pub fn finish(mut self) -> std::io::Result<(W, u32)> {
        assert_eq!(
            self.offsets.len(),
            self.header.blocks as usize,
            "every block written"
        );
        self.offsets.push(self.at);
        let mut header = self.header.encode();
        let table: Vec<u8> = self.offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
        // The file's CRC, in file order: header, directory, table, blocks.
        let mut crc = Crc::new();
        crc.update(&header);
        crc.combine(&self.directory_crc);
        let mut table_crc = Crc::new();
        table_crc.update(&table);
        crc.combine(&table_crc);
        crc.combine(&self.blocks_crc);
        let checksum = crc.finalize();
        header[CHECKSUM_OFFSET..CHECKSUM_OFFSET + 4].copy_from_slice(&checksum.to_le_bytes());
        self.out.seek(SeekFrom::Start(0))?;
        self.out.write_all(&header)?;
        self.out
            .seek(SeekFrom::Start(self.header.block_table_offset))?;
        self.out.write_all(&table)?;
        self.out.flush()?;
        Ok((self.out, checksum))
    }
}

/// A table's bytes with a checked header.
pub struct TableBytes<'a> {
    bytes: &'a [u8],
    header: Header,
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

impl<'a> TableBytes<'a> {
    /// Checks the header and checksum.
    pub fn new(bytes: &'a [u8]) -> Result<TableBytes<'a>, Fault> {
        let header = Header::read(bytes)?;
        Ok(TableBytes { bytes, header })
    }

    /// `new`, telling `release` of the bytes the checksum has summed.
    pub fn new_releasing(
        bytes: &'a [u8],
        release: &dyn Fn(std::ops::Range<usize>),
    ) -> Result<TableBytes<'a>, Fault> {
        let header = Header::read_releasing(bytes, release)?;
        Ok(TableBytes { bytes, header })
    }

    /// Bytes whose header was already read and checked by `Header::read`.
    pub fn with_header(bytes: &'a [u8], header: Header) -> TableBytes<'a> {
        TableBytes { bytes, header }
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The directory: canonical legal positions per 64-code word.
    pub fn directory(&self) -> Result<Vec<u8>, Fault> {
        let header = &self.header;
        let words = header.directory_words();
        let start = header.directory_offset as usize;
        let end = start.saturating_add(header.directory_length as usize);
        let Some(compressed) = self.bytes.get(start..end) else {
            return Err(inconsistent("directory offsets"));
        };
        let raw = inflate(compressed, words as usize, "the directory")?;
        if raw.len() as u64 != words {
            return Err(inconsistent("the directory has the wrong length"));
        }
        if raw.iter().any(|&count| count > 64) {
            return Err(inconsistent("a directory count above 64"));
        }
        let total: u64 = raw.iter().map(|&c| c as u64).sum();
        if total != header.positions {
            return Err(inconsistent("the directory does not count the positions"));
        }
        Ok(raw)
    }

    /// The positions `first..last` that block `block` covers.
    pub fn block_positions(&self, block: u32) -> (u64, u64) {
        let per = self.header.positions_per_block as u64;
        let first = block as u64 * per;
        (first, (first + per).min(self.header.positions))
    }

    /// The bytes the directory takes in the file, if within it.
    pub fn directory_span(&self) -> Option<std::ops::Range<usize>> {
        let start = self.header.directory_offset;
        let end = start.checked_add(self.header.directory_length)?;
        (end <= self.bytes.len() as u64).then_some(start as usize..end as usize)
    }

    /// The bytes blocks `first..last` take in the file, if their offsets
    /// are in order and within it.
    pub fn blocks_span(&self, first: u32, last: u32) -> Option<std::ops::Range<usize>> {
        let header = &self.header;
        if first >= last || last > header.blocks {
            return None;
        }
        let table = header.block_table_offset as usize;
        let start = u64_at(self.bytes, table + first as usize * 8);
        let end = u64_at(self.bytes, table + last as usize * 8);
        (start <= end && end <= self.bytes.len() as u64).then_some(start as usize..end as usize)
    }

    /// Decodes block `block`.
    pub fn block(&self, block: u32) -> Result<Block, Fault> {
        let header = &self.header;
        if block >= header.blocks {
            return Err(inconsistent(format!("block {block} of {}", header.blocks)));
        }
        let entry = header.block_table_offset as usize + block as usize * 8;
        let start = u64_at(self.bytes, entry);
        let end = u64_at(self.bytes, entry + 8);
        if start < header.block_table_offset || end < start || end > self.bytes.len() as u64 {
            return Err(inconsistent(format!("block {block} offsets")));
        }
        let (first, last) = self.block_positions(block);
        let count = (last - first) as usize;
        let points = header.board.points();
        // Per position: a count byte, then at most 2 + N states of at most
        // 2 codes and 2 escaped depths.
        let limit = count * (1 + (2 + points) * 8);
        let raw = inflate(&self.bytes[start as usize..end as usize], limit, "a block")?;
        decode_records(&raw, count, points as i32)
            .map_err(|what| inconsistent(format!("block {block}: {what}")))
    }
}

/// Parses the records of `count` positions.
fn decode_records(raw: &[u8], count: usize, points: i32) -> Result<Block, String> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut rng = crate::testing::Rng::new(7);
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
        let mut rng = crate::testing::Rng::new(8);
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
        let mut rng = crate::testing::Rng::new(9);
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
        let mut rng = crate::testing::Rng::new(5);
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
