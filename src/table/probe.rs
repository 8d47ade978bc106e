//! Probing a table: the value of any legal state of its board.
//!
//! A `Table` holds a file read into memory (below `READ_WHOLE_BYTES`) or
//! mapped into it (larger), or a table built into the binary, checks its
//! header and checksum when opened, and reads its
//! position directory then too, checking that it is the directory of the
//! board the header names (every 64-code group recounted on small boards, a
//! fixed sample of them on larger ones), so that another board's data under
//! a forged header is refused before any value is served. Blocks are
//! decoded lazily, one per probe, with a few recent blocks kept. Ranking a
//! position uses the directory's count per 64 codes and checks the codes
//! before it within those 64, so no per-position index is held in memory.

// A probe-only build (no feature `solver`) leaves what only the builds use unused.
#![cfg_attr(not(feature = "solver"), allow(dead_code))]

use std::path::Path;
use std::sync::{Arc, Mutex};

use super::format::{Block, Fault, Header, TableBytes};
use super::mapped::{read_or_map, FileBytes, Mapped};
use super::{Origin, TableError};
use crate::index::code::{Codec, PositionCode};
use crate::index::{SLOT_FIRST_KO, SLOT_PASSED, SLOT_PLAIN};
use crate::rules::board::Board;
use crate::rules::state::State;
use crate::rules::value::Value;

/// Decoded blocks kept per table.
const CACHED_BLOCKS: usize = 64;

/// Boards with at most this many position codes (3^13: boards of up to 13
/// points) have every 64-code group of their directory recounted when the
/// table is opened; larger boards have `SAMPLED_GROUPS` of them recounted.
const RECOUNT_ALL_CODES: u64 = 1_594_323;

/// The groups recounted on a larger board, besides its first and last:
/// picked at random, the same ones on every open.
const SAMPLED_GROUPS: usize = 1024;

/// The seed of the sample of groups.
const SAMPLE_SEED: u64 = 0x736d_616c_6c67_6f21;

/// Tables of at most this many states have every value checked against a
/// solve when opened (with the feature `solver`): boards of a handful of
/// points, solved in well under a millisecond.
#[cfg(feature = "solver")]
const SOLVED_AT_OPEN_STATES: u64 = 1000;

/// Table files smaller than this are read into memory when opened; larger
/// ones are mapped. A file read whole cannot be changed under the engine;
/// a mapped one must not be truncated while open (see `Table::open`).
pub const READ_WHOLE_BYTES: u64 = 64 << 20;

enum Bytes {
    Mapped(Mapped),
    Read(Vec<u8>),
    Static(&'static [u8]),
}

impl Bytes {
    fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Mapped(map) => map.bytes(),
            Bytes::Read(bytes) => bytes,
            Bytes::Static(bytes) => bytes,
        }
    }
}

/// One board's table, open for probing.
pub struct Table {
    origin: Origin,
    bytes: Bytes,
    header: Header,
    codec: Codec,
    /// Canonical legal positions before each 64-code word.
    directory: Directory,
    /// Recently decoded blocks, most recent last.
    cache: BlockCache<Block>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({}, {})", self.header.board, self.origin)
    }
}

impl Table {
    /// Opens a table file and checks its header and checksum, and that it
    /// holds the board its header names.
    ///
    /// A file smaller than `READ_WHOLE_BYTES` (64 MiB) is read into memory,
    /// and what happens to the file afterwards does not matter. A larger
    /// one is memory-mapped, not read: while the table is open, no other
    /// program may truncate it or rewrite it in place (replacing it by a
    /// rename, as smallgo does, is safe). A mapped file truncated under it
    /// stops the process with a bus error (SIGBUS) at the next probe that
    /// reads past the new end; that is the contract of mapping.
    pub fn open(path: &Path) -> Result<Table, TableError> {
        let origin = Origin::File(path.to_path_buf());
        let map = match read_or_map(path, READ_WHOLE_BYTES)? {
            FileBytes::Read(bytes) => return Table::from_bytes(origin, Bytes::Read(bytes)),
            FileBytes::Mapped(map) => map,
        };
        // The checksum reads the whole file; its pages are let go as it
        // goes, so that opening a large table does not make it resident.
        let header = match Header::read_releasing(map.bytes(), &|span| map.release(span)) {
            Ok(header) => header,
            Err(fault) => return Err(TableError::Corrupt { origin, fault }),
        };
        Table::with_header(origin, Bytes::Mapped(map), header)
    }

    /// The board a table file holds, reading only the start of it: its
    /// header, and a shape's diagram after it.
    pub fn peek_board(path: &Path) -> Result<Board, TableError> {
        let prefix = super::read_prefix(path)?;
        Header::peek_board(&prefix).map_err(|fault| TableError::Corrupt {
            origin: Origin::File(path.to_path_buf()),
            fault,
        })
    }

    /// The board a built-in table holds, reading only the start of its
    /// header.
    pub fn peek_built_in(name: &str, bytes: &[u8]) -> Result<Board, TableError> {
        Header::peek_board(bytes).map_err(|fault| TableError::Corrupt {
            origin: Origin::BuiltIn(name.to_string()),
            fault,
        })
    }

    /// Opens a table built into the binary.
    pub fn from_static(name: &str, bytes: &'static [u8]) -> Result<Table, TableError> {
        Table::from_bytes(Origin::BuiltIn(name.to_string()), Bytes::Static(bytes))
    }

    /// Opens a table held in memory, as a file's bytes would be read: the
    /// fuzz target for probing feeds it arbitrary bytes.
    #[cfg(fuzzing)]
    pub(crate) fn from_vec(origin: Origin, bytes: Vec<u8>) -> Result<Table, TableError> {
        Table::from_bytes(origin, Bytes::Read(bytes))
    }

    fn from_bytes(origin: Origin, bytes: Bytes) -> Result<Table, TableError> {
        match Header::read(bytes.as_slice()) {
            Ok(header) => Table::with_header(origin, bytes, header),
            Err(fault) => Err(TableError::Corrupt { origin, fault }),
        }
    }

    /// A table whose header `Header::read` has checked, once its directory
    /// is read and found to be that of the header's board.
    fn with_header(origin: Origin, bytes: Bytes, header: Header) -> Result<Table, TableError> {
        let codec = Codec::new(header.board);
        let view = TableBytes::with_header(bytes.as_slice(), header.clone());
        let checked = view.directory().and_then(|counts| {
            let groups = check_directory(&codec, &counts)?;
            let directory = Directory::new(&counts);
            let blocks = check_ko_counts(&codec, &view, &directory, &groups)?;
            Ok((directory, blocks))
        });
        let (directory, blocks) = match checked {
            Ok(checked) => checked,
            Err(fault) => return Err(TableError::Corrupt { origin, fault }),
        };
        let table = Table {
            origin,
            bytes,
            header,
            codec,
            directory,
            cache: BlockCache::new(blocks, CACHED_BLOCKS),
        };
        #[cfg(feature = "solver")]
        table.check_against_a_solve()?;
        Ok(table)
    }

    /// On a board of at most `SOLVED_AT_OPEN_STATES` states, checks every
    /// value against a solve done now: the directory and the ko states of
    /// so few codes cannot tell every pair of boards apart (a ring of 4
    /// points and the 2x2 square agree on both).
    #[cfg(feature = "solver")]
    fn check_against_a_solve(&self) -> Result<(), TableError> {
        if self.header.states > SOLVED_AT_OPEN_STATES {
            return Ok(());
        }
        let board = self.header.board;
        let Ok(solution) = crate::solver::solve(board, &crate::solver::Silent) else {
            return Ok(());
        };
        let index = solution.index();
        for number in 0..index.counts().states {
            let state = index.unrank(number as _);
            let Ok(solved) = solution.value(number as _) else {
                return Ok(());
            };
            match self.probe(&state) {
                Ok(stored) if stored == solved => {}
                Ok(stored) => {
                    return Err(self.corrupt(Fault::NotTheBoard {
                        board: Box::new(board),
                        what: format!(
                            "state {number} is worth {solved} on {board}, the table says {stored}"
                        ),
                    }))
                }
                Err(TableError::NoSuchState { .. }) => {
                    return Err(self.corrupt(Fault::NotTheBoard {
                        board: Box::new(board),
                        what: format!("state {number} of {board} is missing"),
                    }))
                }
                Err(error) => return Err(error),
            }
        }
        Ok(())
    }

    /// Opens a table file and checks that it holds `board`.
    pub fn open_for(path: &Path, board: Board) -> Result<Table, TableError> {
        let table = Table::open(path)?;
        if table.board() != board {
            return Err(TableError::Corrupt {
                origin: table.origin,
                fault: Fault::WrongBoard {
                    expected: Box::new(board),
                    found: table.header.board.name(),
                },
            });
        }
        Ok(table)
    }

    pub fn board(&self) -> Board {
        self.header.board
    }

    #[cfg(any(test, feature = "mpi"))]
    pub fn header(&self) -> &Header {
        &self.header
    }

    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    /// The table's bytes, to decode blocks from (its header and checksum
    /// were checked when it was opened).
    pub fn view(&self) -> TableBytes<'_> {
        TableBytes::with_header(self.bytes.as_slice(), self.header.clone())
    }

    fn corrupt(&self, fault: Fault) -> TableError {
        TableError::Corrupt {
            origin: self.origin.clone(),
            fault,
        }
    }

    /// The number of a canonical legal position code.
    fn position_number(&self, code: PositionCode) -> Result<u64, TableError> {
        self.directory
            .number(&self.codec, self.header.positions, code)
            .map_err(|fault| self.corrupt(fault))
    }

    fn block(&self, block: u32) -> Result<Arc<Block>, TableError> {
        self.cache.get(block, || {
            self.view()
                .block(block)
                .map_err(|fault| self.corrupt(fault))
        })
    }

    /// The value of a legal state of this board, in any orientation.
    pub fn probe(&self, state: &State) -> Result<Value, TableError> {
        let board = self.header.board;
        let no_such_state = || TableError::NoSuchState {
            origin: self.origin.clone(),
            state: format!("{state:?}"),
        };
        let position = state.position();
        if !position.is_legal(&board) {
            return Err(no_such_state());
        }
        let canonical = self.codec.canonical(&position);
        let number = self.position_number(canonical.code)?;
        let slot = match (state.ko(), state.passed()) {
            (None, false) => SLOT_PLAIN,
            (None, true) => SLOT_PASSED,
            (Some(ko), false) => {
                let ko_points = position.ko_points(&board);
                if !ko_points.contains(ko) {
                    return Err(no_such_state());
                }
                SLOT_FIRST_KO + self.codec.ko_rank(&canonical, ko_points, ko)
            }
            (Some(_), true) => return Err(no_such_state()),
        };
        let per = self.header.positions_per_block as u64;
        let block = self.block((number / per) as u32)?;
        block.value((number % per) as usize, slot).ok_or_else(|| {
            self.corrupt(Fault::Inconsistent(format!(
                "position {number} lacks slot {slot}"
            )))
        })
    }
}

/// Checks that a directory's counts are those of `codec`'s board: every
/// group of 64 codes on a board of at most `RECOUNT_ALL_CODES` codes, else
/// the first, the last and `SAMPLED_GROUPS` picked at random (the same on
/// every open). Returns the groups checked, in the order checked.
pub(super) fn check_directory(codec: &Codec, counts: &[u8]) -> Result<Vec<u64>, Fault> {
    let board = *codec.board();
    let codes = codec.code_count();
    let groups = counts.len() as u64;
    if groups != codes.div_ceil(64) {
        return Err(Fault::Inconsistent(
            "the directory has the wrong length".into(),
        ));
    }
    let checked: Vec<u64> = if codes <= RECOUNT_ALL_CODES {
        (0..groups).collect()
    } else {
        let mut seed = SAMPLE_SEED;
        let mut random = move || {
            // splitmix64
            seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        [0, groups - 1]
            .into_iter()
            .chain((0..SAMPLED_GROUPS).map(|_| random() % groups))
            .collect()
    };
    for &group in &checked {
        let first_code = group * 64;
        let count = (codes - first_code).min(64) as u32;
        let counted = codec
            .canonical_legal_positions(first_code, count, |_, _| {})
            .count_ones();
        let stored = counts[group as usize] as u32;
        if counted != stored {
            return Err(Fault::NotTheBoard {
                board: Box::new(board),
                what: format!(
                    "codes {first_code} to {} hold {counted} canonical legal positions of \
                     {board}, its directory says {stored}",
                    first_code + count as u64 - 1
                ),
            });
        }
    }
    Ok(checked)
}

/// Blocks whose ko-state counts are checked when a table is opened,
/// besides the first: those of the first groups `check_directory` checked
/// after the first and the last.
const KO_CHECKED_BLOCKS: usize = 4;

/// Checks that the positions of a few blocks have as many ko states as
/// `codec`'s board gives them: the first block, and from each of a few of
/// the directory's checked `groups` on, the rest of its block. A ko point
/// depends on the board's neighbours, so this tells apart boards whose
/// directories agree (a ring of 4 points and the 2x2 square). Returns the
/// blocks decoded, to keep.
fn check_ko_counts(
    codec: &Codec,
    view: &TableBytes<'_>,
    directory: &Directory,
    groups: &[u64],
) -> Result<Vec<(u32, Arc<Block>)>, Fault> {
    let board = *codec.board();
    let codes = codec.code_count();
    let header = view.header();
    let per = header.positions_per_block as u64;
    let starts = std::iter::once(0).chain(groups.iter().skip(2).copied().take(KO_CHECKED_BLOCKS));
    let mut decoded: Vec<(u32, Arc<Block>)> = Vec::new();
    for start in starts {
        let Some(first_number) = directory.before(start as usize) else {
            continue;
        };
        if first_number >= header.positions {
            continue;
        }
        let block_number = (first_number / per) as u32;
        let block = match decoded.iter().find(|(b, _)| *b == block_number) {
            Some((_, block)) => block.clone(),
            None => {
                let block = Arc::new(view.block(block_number)?);
                decoded.push((block_number, block.clone()));
                block
            }
        };
        let (block_first, block_last) = view.block_positions(block_number);
        let mut number = first_number;
        let mut mismatch = None;
        let mut group = start;
        while number < block_last && mismatch.is_none() && group * 64 < codes {
            let first_code = group * 64;
            let count = (codes - first_code).min(64) as u32;
            codec.canonical_legal_positions(first_code, count, |position, canonical| {
                if number >= block_last || mismatch.is_some() {
                    return;
                }
                let ko_points = position.ko_points(&board);
                let counted = codec.canonical_ko_points(&canonical, ko_points).len();
                let at = (number - block_first) as usize;
                let stored = match (block.starts.get(at), block.starts.get(at + 1)) {
                    (Some(&from), Some(&to)) => to.saturating_sub(from).saturating_sub(2) as usize,
                    _ => usize::MAX,
                };
                if counted != stored {
                    mismatch = Some(format!(
                        "position {number} (code {}) has {counted} ko states on {board}, \
                         the table holds {stored}",
                        canonical.code
                    ));
                }
                number += 1;
            });
            group += 1;
        }
        if let Some(what) = mismatch {
            return Err(Fault::NotTheBoard {
                board: Box::new(board),
                what,
            });
        }
    }
    Ok(decoded)
}

/// The canonical legal positions before each 64-code word, from the
/// table's counts: 64-bit sums for every run of `WORDS_PER_BASE` words and
/// 32-bit ones within the run, so that boards past 2^32 positions rank
/// right at 4 bytes a word.
pub(super) struct Directory {
    bases: Vec<u64>,
    within: Vec<u32>,
}

/// Words per 64-bit sum: their counts stay far below 2^32.
const WORDS_PER_BASE: usize = 1 << 16;

impl Directory {
    pub(super) fn new(counts: &[u8]) -> Directory {
        let mut bases = Vec::with_capacity(counts.len().div_ceil(WORDS_PER_BASE));
        let mut within = Vec::with_capacity(counts.len());
        let mut running = 0u64;
        for run in counts.chunks(WORDS_PER_BASE) {
            bases.push(running);
            let mut sum = 0u32;
            for &count in run {
                within.push(sum);
                sum += count as u32;
            }
            running += sum as u64;
        }
        Directory { bases, within }
    }

    /// The positions before word `word`, if the directory has it.
    pub(super) fn before(&self, word: usize) -> Option<u64> {
        let within = *self.within.get(word)?;
        Some(self.bases[word / WORDS_PER_BASE] + within as u64)
    }

    /// The number of the canonical legal position `code` among a table's
    /// `positions`: the positions before its word, and the canonical legal
    /// codes before it in the word. A directory that does not hold the
    /// code, or counts fewer positions in its word, is a fault.
    pub(super) fn number(
        &self,
        codec: &Codec,
        positions: u64,
        code: PositionCode,
    ) -> Result<u64, Fault> {
        let word = (code / 64) as usize;
        let Some(before) = self.before(word) else {
            return Err(Fault::Inconsistent(
                "position code beyond the directory".into(),
            ));
        };
        let within = (word as u64 * 64..code)
            .filter(|&c| codec.is_canonical_legal(c))
            .count() as u64;
        let number = before + within;
        let next = self.before(word + 1).unwrap_or(positions);
        if number >= next {
            return Err(Fault::Inconsistent(
                "the directory undercounts a word".into(),
            ));
        }
        Ok(number)
    }
}

/// The blocks of a table decoded last, shared by its probes: at most
/// `capacity`, the least recently used dropped first.
pub(super) struct BlockCache<T> {
    blocks: Mutex<Vec<(u32, Arc<T>)>>,
    capacity: usize,
}

impl<T> BlockCache<T> {
    pub(super) fn new(blocks: Vec<(u32, Arc<T>)>, capacity: usize) -> BlockCache<T> {
        BlockCache {
            blocks: Mutex::new(blocks),
            capacity,
        }
    }

    /// Block `block`, from the cache or decoded by `decode` and kept.
    pub(super) fn get<E>(
        &self,
        block: u32,
        decode: impl FnOnce() -> Result<T, E>,
    ) -> Result<Arc<T>, E> {
        {
            let mut blocks = self.blocks.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(at) = blocks.iter().position(|(b, _)| *b == block) {
                let entry = blocks.remove(at);
                let decoded = entry.1.clone();
                blocks.push(entry);
                return Ok(decoded);
            }
        }
        let decoded = Arc::new(decode()?);
        let mut blocks = self.blocks.lock().unwrap_or_else(|e| e.into_inner());
        if blocks.len() >= self.capacity {
            blocks.remove(0);
        }
        blocks.push((block, decoded.clone()));
        Ok(decoded)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two-level sums against a plain running sum, across several runs.
    #[test]
    fn directory_agrees_with_a_running_sum() {
        let mut rng = crate::tests::support::Rng::new(11);
        let counts: Vec<u8> = (0..3 * WORDS_PER_BASE + 17)
            .map(|_| rng.below(65) as u8)
            .collect();
        let directory = Directory::new(&counts);
        let mut running = 0u64;
        for (word, &count) in counts.iter().enumerate() {
            assert_eq!(directory.before(word), Some(running), "word {word}");
            running += count as u64;
        }
        assert_eq!(directory.before(counts.len()), None);
    }
}
