//! Win/draw/loss tables: one komi's result of every state of a board, for
//! either colour to move, with only the depth that turns a win into a
//! finished game. A full table (`probe`) serves every komi with margins
//! and depths; a win/draw/loss table (`RxC.wdl`, `smallgo export --wdl`)
//! serves one komi at a small fraction of its size, and the engine plays
//! from it, a win always won and a draw never lost.
//!
//! What a state stores. Its result for the mover, `Wdl`, is read for
//! Black to move and for White to move (a state's colours are the mover's
//! and the opponent's, so the komi favours one or the other). A state with
//! an even number of stones may store any result below its own (loss
//! below draw below win) when its own follows from its children with an
//! odd number of stones and the end of the game; every other state stores
//! its result, except that the end of the game (a pass after a pass) may
//! give it. The prober takes the best of what is stored and what those
//! children give (`WdlTable::value`), one ply and never more: a child with
//! an odd number of stones is always exact. The exporter picks, among the
//! results a state may store, the one that continues the longest run
//! (`export`), and stores runs, deflated per block.
//!
//! The depth. A won state's rank is one more than the least rank among
//! its losing children that store one (0 for ending the game with the
//! win). A losing state that a winner follows stores a rank above every
//! child's; any other losing state stores 0, "never followed", and the
//! ranks skip it. Following the least rank therefore ends the game with
//! the win, and the verifier (`check`) checks both ranks and results
//! against the rules alone. The stored ranks are the least such numbers,
//! the plies to the end of the game at this komi, and only the losing
//! states that some won state's least child is store one (`ranks`); a
//! state whose stored result is a loss only below a better result stores
//! 0 too.
//!
//! States are numbered as in a full table: the position directory (64
//! codes a count) ranks a position, and a block's ko states are counted
//! from the board's positions when a ko state of it is first asked for.
//! Bytes that do not decode are a `Fault`, never a panic (`format`).

// A probe-only build (no feature `solver`) has no engine to play from these tables.
#![cfg_attr(not(feature = "cli"), allow(dead_code))]

pub mod format;

#[cfg(feature = "solver")]
pub mod check;
#[cfg(feature = "solver")]
pub mod export;
#[cfg(feature = "solver")]
pub mod ranks;
#[cfg(all(test, feature = "solver"))]
mod tests;

use std::path::Path;
use std::sync::{Arc, OnceLock};

use self::format::Layout;
use super::format::Fault;
use super::probe::{check_directory, BlockCache, Directory};
use super::{Origin, TableError};
use crate::index::code::{Codec, PositionCode};
use crate::rules::board::Board;
use crate::rules::moves::Move;
use crate::rules::state::{Child, State};

/// The file name extension of win/draw/loss tables.
pub const EXTENSION: &str = "wdl";

/// Decoded blocks kept per table.
const CACHED_BLOCKS: usize = 16;

/// The largest win/draw/loss file read.
const MAX_FILE_BYTES: u64 = 16 << 30;

/// A result for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    Loss = 0,
    Draw = 1,
    Win = 2,
}

impl Wdl {
    pub fn from_symbol(symbol: u8) -> Wdl {
        match symbol {
            0 => Wdl::Loss,
            1 => Wdl::Draw,
            _ => Wdl::Win,
        }
    }

    /// The same result seen by the other side.
    pub fn flipped(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }

    /// The result of a game ended with area margin `margin` for the player
    /// who ended it, Black when `black`, at twice the komi `komi2`.
    pub fn of_margin(margin: i32, black: bool, komi2: i32) -> Wdl {
        let mover_komi2 = if black { komi2 } else { -komi2 };
        match (2 * margin).cmp(&mover_komi2) {
            std::cmp::Ordering::Greater => Wdl::Win,
            std::cmp::Ordering::Equal => Wdl::Draw,
            std::cmp::Ordering::Less => Wdl::Loss,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        }
    }
}

/// Whether `state` may store less than its result: an even number of
/// stones. Its children with an odd number of stones are exact.
pub fn may_derive(state: &State) -> bool {
    let position = state.position();
    (position.us().len() + position.them().len()).is_multiple_of(2)
}

/// The result of ending the game from `state` (a pass after a pass), if
/// that is a move of it.
pub fn ending(board: &Board, state: &State, black: bool, komi2: i32) -> Option<Wdl> {
    if !state.passed() {
        return None;
    }
    match state.pass(board) {
        Child::End { margin } => Some(Wdl::of_margin(margin, black, komi2)),
        Child::State(_) => None,
    }
}

/// The komi a table's twice-the-stand-in-komi `komi2` stands for, as
/// people read it: `7`, or `6.5` for every komi between 6 and 7.
pub fn komi_text(komi2: i32) -> String {
    if komi2 % 2 == 0 {
        format!("{}", komi2 / 2)
    } else {
        format!("{}", komi2 as f64 / 2.0)
    }
}

/// What a move leads to, for the player making it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rated {
    pub mv: Move,
    pub result: Wdl,
    /// The rank of the child (`module doc`), the end of the game 0: for a
    /// win, how fast it is forced (`None` when no winner follows the
    /// child); for a loss, how long it is resisted.
    pub rank: Option<u32>,
}

/// A decoded block.
struct Decoded {
    symbols: Vec<u8>,
    depths: Vec<u32>,
    /// The ko states before each of the block's positions, and the total.
    ko_before: OnceLock<Result<Vec<u32>, Fault>>,
}

/// One board's win/draw/loss table, open for probing.
pub struct WdlTable {
    origin: Origin,
    bytes: Vec<u8>,
    layout: Layout,
    codec: Codec,
    directory: Directory,
    cache: BlockCache<Decoded>,
}

impl std::fmt::Debug for WdlTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "WdlTable({}, komi {}, {})",
            self.board(),
            komi_text(self.komi2()),
            self.origin
        )
    }
}

impl WdlTable {
    /// Opens a win/draw/loss table file and checks its header, checksum,
    /// block table and position directory.
    pub fn open(path: &Path) -> Result<WdlTable, TableError> {
        use std::io::Read;
        let mut bytes = Vec::new();
        super::open_regular(path)?
            .take(MAX_FILE_BYTES)
            .read_to_end(&mut bytes)
            .map_err(|e| TableError::io(path, e))?;
        let table = WdlTable::from_bytes(Origin::File(path.to_path_buf()), bytes)?;
        super::check_name(path, table.board())?;
        Ok(table)
    }

    /// Opens a table held in memory.
    pub fn from_bytes(origin: Origin, bytes: Vec<u8>) -> Result<WdlTable, TableError> {
        let corrupt = |fault| TableError::Corrupt {
            origin: origin.clone(),
            fault,
        };
        let layout = format::read(&bytes).map_err(corrupt)?;
        let codec = Codec::new(layout.header.board);
        let counts = layout.directory_counts(&bytes).map_err(corrupt)?;
        check_directory(&codec, &counts).map_err(corrupt)?;
        let directory = Directory::new(&counts);
        for (block, entry) in layout.entries.iter().enumerate() {
            let (first, _) = layout.header.block_positions(block as u32);
            let word = entry.first_word as usize;
            let before = directory.before(word).unwrap_or(u64::MAX);
            let after = directory
                .before(word + 1)
                .unwrap_or(layout.header.positions);
            if !(before <= first && first < after) {
                return Err(corrupt(Fault::Inconsistent(format!(
                    "block {block}'s first position is not in word {word}"
                ))));
            }
        }
        Ok(WdlTable {
            origin,
            bytes,
            layout,
            codec,
            directory,
            cache: BlockCache::new(Vec::new(), CACHED_BLOCKS),
        })
    }

    /// Opens a table file and checks that it holds `board`.
    pub fn open_for(path: &Path, board: Board) -> Result<WdlTable, TableError> {
        let table = WdlTable::open(path)?;
        if table.board() != board {
            return Err(TableError::Corrupt {
                origin: table.origin,
                fault: Fault::WrongBoard {
                    expected: Box::new(board),
                    found: table.layout.header.board.name(),
                },
            });
        }
        Ok(table)
    }

    pub fn board(&self) -> Board {
        self.layout.header.board
    }

    /// Twice the stand-in komi the table was made for (`Komi::proxy`): a
    /// whole komi, or any between two whole numbers.
    pub fn komi2(&self) -> i32 {
        self.layout.header.komi2
    }

    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    /// Whether the table serves a game at stand-in komi `proxy`.
    pub fn serves_komi(&self, proxy: f64) -> bool {
        2.0 * proxy == self.komi2() as f64
    }

    /// The file's layout and bytes, for the verifier.
    pub(crate) fn parts(&self) -> (&Layout, &[u8]) {
        (&self.layout, &self.bytes)
    }

    /// What serves, in words: `win/draw/loss table for komi 7.5 (PATH)`.
    pub fn description(&self) -> String {
        format!(
            "win/draw/loss table for komi {} ({})",
            komi_text(self.komi2()),
            self.origin
        )
    }

    fn corrupt(&self, fault: Fault) -> TableError {
        TableError::Corrupt {
            origin: self.origin.clone(),
            fault,
        }
    }

    fn no_such_state(&self, state: &State) -> TableError {
        TableError::NoSuchState {
            origin: self.origin.clone(),
            state: format!("{state:?}"),
        }
    }

    /// The number of a canonical legal position code.
    fn position_number(&self, code: PositionCode) -> Result<u64, TableError> {
        self.directory
            .number(&self.codec, self.layout.header.positions, code)
            .map_err(|fault| self.corrupt(fault))
    }

    fn block(&self, block: u32) -> Result<Arc<Decoded>, TableError> {
        self.cache.get(block, || {
            let (symbols, depths) = self
                .layout
                .block(&self.bytes, block)
                .map_err(|fault| self.corrupt(fault))?;
            Ok(Decoded {
                symbols,
                depths,
                ko_before: OnceLock::new(),
            })
        })
    }

    /// The ko states before each position of block `block`, counted from
    /// the board's positions, the total last; it must be the block's.
    fn count_ko_states(&self, block: u32) -> Result<Vec<u32>, Fault> {
        let board = self.board();
        let (first, last) = self.layout.header.block_positions(block);
        let entry = self.layout.entries[block as usize];
        let codes = self.codec.code_count();
        let mut number = self
            .directory
            .before(entry.first_word as usize)
            .ok_or_else(|| Fault::Inconsistent(format!("block {block}'s first word")))?;
        let mut before = Vec::with_capacity((last - first) as usize + 1);
        before.push(0u32);
        let mut running = 0u32;
        let mut word = entry.first_word;
        while number < last && word * 64 < codes {
            let first_code = word * 64;
            let count = (codes - first_code).min(64) as u32;
            self.codec
                .canonical_legal_positions(first_code, count, |position, canonical| {
                    if (first..last).contains(&number) {
                        let ko_points = position.ko_points(&board);
                        running +=
                            self.codec.canonical_ko_points(&canonical, ko_points).len() as u32;
                        before.push(running);
                    }
                    number += 1;
                });
            word += 1;
        }
        if before.len() as u64 != last - first + 1 || running != entry.ko_states {
            return Err(Fault::NotTheBoard {
                board: Box::new(board),
                what: format!(
                    "block {block} holds {} ko states, its positions have {running} on {board}",
                    entry.ko_states
                ),
            });
        }
        Ok(before)
    }

    /// The stored result of `state` for its mover (Black when `black`),
    /// and the depth stored with it (meaningful for a loss only).
    pub fn stored(&self, state: &State, black: bool) -> Result<(Wdl, u32), TableError> {
        let board = self.board();
        let position = state.position();
        if !position.is_legal(&board) {
            return Err(self.no_such_state(state));
        }
        let canonical = self.codec.canonical(&position);
        let number = self.position_number(canonical.code)?;
        let per = self.layout.header.positions_per_block as u64;
        let block = (number / per) as u32;
        let at = (number % per) as usize;
        let (first, last) = self.layout.header.block_positions(block);
        let count = (last - first) as usize;
        let decoded = self.block(block)?;
        let offset = match (state.ko(), state.passed()) {
            (None, false) => at,
            (None, true) => count + at,
            (Some(ko), false) => {
                let ko_points = position.ko_points(&board);
                if !ko_points.contains(ko) {
                    return Err(self.no_such_state(state));
                }
                let rank = self.codec.ko_rank(&canonical, ko_points, ko);
                let before = decoded
                    .ko_before
                    .get_or_init(|| self.count_ko_states(block))
                    .as_ref()
                    .map_err(|fault| self.corrupt(fault.clone()))?;
                if before[at] + rank >= before[at + 1] {
                    return Err(self.no_such_state(state));
                }
                2 * count + (before[at] + rank) as usize
            }
            (Some(_), true) => return Err(self.no_such_state(state)),
        };
        let colour = if black {
            0
        } else {
            2 * count + self.layout.entries[block as usize].ko_states as usize
        };
        let index = colour + offset;
        match (decoded.symbols.get(index), decoded.depths.get(index)) {
            (Some(&symbol), Some(&depth)) => Ok((Wdl::from_symbol(symbol), depth)),
            _ => Err(self.corrupt(Fault::Inconsistent(format!(
                "block {block} lacks state {index}"
            )))),
        }
    }

    /// What `state` stores, raised by the end of the game if that is a
    /// move of it: exact for a state with an odd number of stones.
    fn bound(&self, state: &State, black: bool) -> Result<Wdl, TableError> {
        let (stored, _) = self.stored(state, black)?;
        let board = self.board();
        Ok(stored.max(ending(&board, state, black, self.komi2()).unwrap_or(Wdl::Loss)))
    }

    /// The result of `state` for its mover, Black when `black`: what it
    /// stores, raised by what its exact children give.
    pub fn value(&self, state: &State, black: bool) -> Result<Wdl, TableError> {
        let mut best = self.bound(state, black)?;
        if best == Wdl::Win || !may_derive(state) {
            return Ok(best);
        }
        let board = self.board();
        for mv in state.legal_moves(&board) {
            if let Some(Child::State(child)) = state.play(&board, mv) {
                if !may_derive(&child) {
                    best = best.max(self.bound(&child, !black)?.flipped());
                    if best == Wdl::Win {
                        break;
                    }
                }
            }
        }
        Ok(best)
    }

    /// The rank of `state` (module doc): stored for a loss, `None` when
    /// no winner follows it; one more than its ranked losing children's
    /// least for a win; `None` for a draw.
    pub fn rank(&self, state: &State, black: bool) -> Result<Option<u32>, TableError> {
        match self.value(state, black)? {
            Wdl::Draw => Ok(None),
            Wdl::Loss => {
                let (_, rank) = self.stored(state, black)?;
                Ok((rank > 0).then_some(rank))
            }
            Wdl::Win => {
                let board = self.board();
                let mut least: Option<u32> = None;
                for mv in state.legal_moves(&board) {
                    let rank = match state.play(&board, mv) {
                        Some(Child::End { margin }) => {
                            (Wdl::of_margin(margin, black, self.komi2()) == Wdl::Win).then_some(0)
                        }
                        Some(Child::State(child)) => {
                            if self.value(&child, !black)? == Wdl::Loss {
                                let (_, rank) = self.stored(&child, !black)?;
                                (rank > 0).then_some(rank)
                            } else {
                                None
                            }
                        }
                        None => None,
                    };
                    if let Some(rank) = rank {
                        least = Some(least.map_or(rank, |l| l.min(rank)));
                    }
                }
                match least {
                    Some(least) => Ok(Some(least.saturating_add(1))),
                    None => Err(self.corrupt(Fault::Inconsistent(format!(
                        "a won state without a ranked winning move: {state:?}"
                    )))),
                }
            }
        }
    }

    /// Every legal move of `state` rated for its mover (Black when
    /// `black`), in point order then pass; a move for which `repeats`
    /// says it repeats a state of the game is a draw.
    pub fn rate(
        &self,
        state: &State,
        black: bool,
        repeats: &dyn Fn(Move) -> bool,
    ) -> Result<Vec<Rated>, TableError> {
        let board = self.board();
        let mut rated = Vec::new();
        for mv in state.legal_moves(&board) {
            let (result, rank) = if repeats(mv) {
                (Wdl::Draw, None)
            } else {
                match state.play(&board, mv) {
                    Some(Child::End { margin }) => {
                        (Wdl::of_margin(margin, black, self.komi2()), Some(0))
                    }
                    Some(Child::State(child)) => {
                        let result = self.value(&child, !black)?.flipped();
                        let rank = match result {
                            Wdl::Draw => None,
                            _ => self.rank(&child, !black)?,
                        };
                        (result, rank)
                    }
                    None => continue,
                }
            };
            rated.push(Rated { mv, result, rank });
        }
        Ok(rated)
    }

    /// The move the engine plays: when winning, the win of least rank (the
    /// game ends; a win whose child stores no rank is never chosen); when drawing, a pass if it keeps the draw, else the
    /// first move that does; when losing, the loss of greatest rank. Ties
    /// go to the first in point order.
    pub fn choose(
        &self,
        state: &State,
        black: bool,
        repeats: &dyn Fn(Move) -> bool,
    ) -> Result<Rated, TableError> {
        let rated = self.rate(state, black, repeats)?;
        choose_among(&rated)
            .ok_or_else(|| self.corrupt(Fault::Inconsistent(format!("no legal move in {state:?}"))))
    }
}

/// The engine's choice among rated moves (`WdlTable::choose`).
pub fn choose_among(rated: &[Rated]) -> Option<Rated> {
    let rank = |r: &Rated| r.rank.unwrap_or(0);
    let mut wins = rated
        .iter()
        .filter(|r| r.result == Wdl::Win && r.rank.is_some());
    if let Some(first) = wins.next() {
        return Some(*wins.fold(first, |best, r| if rank(r) < rank(best) { r } else { best }));
    }
    // A sound table ranks a child of every won state; a damaged one
    // still keeps the win.
    if let Some(win) = rated.iter().find(|r| r.result == Wdl::Win) {
        return Some(*win);
    }
    let mut draws = rated.iter().filter(|r| r.result == Wdl::Draw);
    if let Some(first) = draws.next() {
        let pass = rated
            .iter()
            .find(|r| r.result == Wdl::Draw && r.mv == Move::Pass);
        return Some(*pass.unwrap_or(first));
    }
    let mut losses = rated.iter();
    let first = losses.next()?;
    Some(*losses.fold(first, |best, r| if rank(r) > rank(best) { r } else { best }))
}
