//! Probing a table: the value of any legal state of its board.
//!
//! A `Table` holds a file mapped into memory (or a table built into the
//! binary), checks its header and checksum when opened, and decodes lazily:
//! the position directory on the first probe, then one block per probe, with
//! a few recent blocks kept. Ranking a position uses the directory's count
//! per 64 codes and checks the codes before it within those 64, so no
//! per-position index is held in memory.

// A probe-only build (no feature `solver`) leaves what only the builds use unused.
#![cfg_attr(not(feature = "solver"), allow(dead_code))]

use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use memmap2::Mmap;

use super::format::{Block, Fault, Header, TableBytes};
use super::{Origin, TableError};
use crate::board::Board;
use crate::index::code::{Codec, PositionCode};
use crate::index::{SLOT_FIRST_KO, SLOT_PASSED, SLOT_PLAIN};
use crate::state::State;
use crate::value::Value;

/// Decoded blocks kept per table.
const CACHED_BLOCKS: usize = 64;

enum Bytes {
    Mapped(Mmap),
    Static(&'static [u8]),
}

impl Bytes {
    fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Mapped(map) => map,
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
    directory: OnceLock<Result<Directory, Fault>>,
    /// Recently decoded blocks, most recent last.
    cache: Mutex<Vec<(u32, Arc<Block>)>>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({}, {})", self.header.board, self.origin)
    }
}

impl Table {
    /// Opens a table file and checks its header and checksum.
    ///
    /// The file is memory-mapped, not read: while the table is open, no
    /// other program may truncate it or rewrite it in place (replacing it by
    /// a rename, as smallgo does, is safe). A truncated mapped file can
    /// stop the process with a bus error; that is the contract of mapping.
    pub fn open(path: &Path) -> Result<Table, TableError> {
        let file = super::open_regular(path)?;
        // SAFETY: the map is read-only and every byte read from it is checked
        // before use (bounds, codes, checksum), so unexpected contents give a
        // `Fault`, not undefined behaviour in our code. smallgo itself never
        // changes a table in place: new tables are renamed over old ones, so a
        // rebuild leaves a mapped file untouched. Another program truncating
        // the file while it is mapped could still fault the process; that is
        // the accepted cost of mapping.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| TableError::io(path, e))?;
        let origin = Origin::File(path.to_path_buf());
        let release = |span: std::ops::Range<usize>| {
            // SAFETY: the map is a shared, read-only map of a file, so
            // dropping its pages changes no byte: a later read fetches them
            // from the file again. The span lies within the map.
            let _ = unsafe {
                map.unchecked_advise_range(
                    memmap2::UncheckedAdvice::DontNeed,
                    span.start,
                    span.len(),
                )
            };
        };
        // The checksum reads the whole file; its pages are let go as it
        // goes, so that opening a large table does not make it resident.
        let header = match Header::read_releasing(&map, &release) {
            Ok(header) => header,
            Err(fault) => return Err(TableError::Corrupt { origin, fault }),
        };
        Ok(Table::with_header(origin, Bytes::Mapped(map), header))
    }

    /// The board a table file holds, reading only the start of it: its
    /// header, and a shape's diagram after it.
    pub fn peek_board(path: &Path) -> Result<Board, TableError> {
        use std::io::Read;
        let mut prefix = Vec::with_capacity(super::format::PEEK_SIZE);
        super::open_regular(path)?
            .take(super::format::PEEK_SIZE as u64)
            .read_to_end(&mut prefix)
            .map_err(|e| TableError::io(path, e))?;
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

    fn from_bytes(origin: Origin, bytes: Bytes) -> Result<Table, TableError> {
        match Header::read(bytes.as_slice()) {
            Ok(header) => Ok(Table::with_header(origin, bytes, header)),
            Err(fault) => Err(TableError::Corrupt { origin, fault }),
        }
    }

    /// A table whose header `Header::read` has checked.
    fn with_header(origin: Origin, bytes: Bytes, header: Header) -> Table {
        let codec = Codec::new(header.board);
        Table {
            origin,
            bytes,
            header,
            codec,
            directory: OnceLock::new(),
            cache: Mutex::new(Vec::new()),
        }
    }

    /// Opens a table file and checks that it holds `board`.
    pub fn open_for(path: &Path, board: Board) -> Result<Table, TableError> {
        let table = Table::open(path)?;
        if table.board() != board {
            return Err(TableError::Corrupt {
                origin: table.origin,
                fault: Fault::WrongBoard {
                    expected: board,
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

    fn directory(&self) -> Result<&Directory, TableError> {
        let directory = self
            .directory
            .get_or_init(|| Ok(Directory::new(&self.view().directory()?)));
        match directory {
            Ok(directory) => Ok(directory),
            Err(fault) => Err(self.corrupt(fault.clone())),
        }
    }

    /// The number of a canonical legal position code.
    fn position_number(&self, code: PositionCode) -> Result<u64, TableError> {
        let directory = self.directory()?;
        let word = (code / 64) as usize;
        let Some(before) = directory.before(word) else {
            return Err(self.corrupt(Fault::Inconsistent(
                "position code beyond the directory".into(),
            )));
        };
        let first = word as u64 * 64;
        let within = (first..code)
            .filter(|&c| self.codec.is_canonical_legal(c))
            .count() as u64;
        let number = before + within;
        let next = directory.before(word + 1).unwrap_or(self.header.positions);
        if number >= next {
            return Err(self.corrupt(Fault::Inconsistent(
                "the directory undercounts a word".into(),
            )));
        }
        Ok(number)
    }

    fn block(&self, block: u32) -> Result<Arc<Block>, TableError> {
        {
            let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(at) = cache.iter().position(|(b, _)| *b == block) {
                let entry = cache.remove(at);
                let decoded = entry.1.clone();
                cache.push(entry);
                return Ok(decoded);
            }
        }
        let decoded = Arc::new(
            self.view()
                .block(block)
                .map_err(|fault| self.corrupt(fault))?,
        );
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= CACHED_BLOCKS {
            cache.remove(0);
        }
        cache.push((block, decoded.clone()));
        Ok(decoded)
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

/// The canonical legal positions before each 64-code word, from the
/// table's counts: 64-bit sums for every run of `WORDS_PER_BASE` words and
/// 32-bit ones within the run, so that boards past 2^32 positions rank
/// right at 4 bytes a word.
struct Directory {
    bases: Vec<u64>,
    within: Vec<u32>,
}

/// Words per 64-bit sum: their counts stay far below 2^32.
const WORDS_PER_BASE: usize = 1 << 16;

impl Directory {
    fn new(counts: &[u8]) -> Directory {
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
    fn before(&self, word: usize) -> Option<u64> {
        let within = *self.within.get(word)?;
        Some(self.bases[word / WORDS_PER_BASE] + within as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two-level sums against a plain running sum, across several runs.
    #[test]
    fn directory_agrees_with_a_running_sum() {
        let mut rng = crate::testing::Rng::new(11);
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
