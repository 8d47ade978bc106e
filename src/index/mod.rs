//! A dense numbering of a board's canonical legal states: rank and unrank.
//!
//! Positions first: a bit per ternary code marks the canonical legal
//! positions, and a count per 64-bit word ranks them, so a position's number
//! is one table read and one popcount. Each position then owns a run of
//! consecutive state numbers ("slots"): slot 0 is the state with no pass and
//! no ko, slot 1 the state after a pass, and slots 2.. the states with a ko
//! point, one per canonical ko point in point order. A per-position base gives
//! the first number of each run.
//!
//! States of one position sit next to each other, so the solver's updates to a
//! predecessor position and its ko and pass variants touch one cache line.

pub mod code;

use rayon::prelude::*;

use crate::board::{Board, Point, PointSet};
use crate::position::Position;
use crate::state::State;
use code::{Canonical, Codec, PositionCode};

/// A state's number in the index.
pub type StateNumber = u32;

/// The slot of the state with no pass and no ko.
pub const SLOT_PLAIN: u32 = 0;
/// The slot of the state after a pass.
pub const SLOT_PASSED: u32 = 1;
/// The slot of the first ko state.
pub const SLOT_FIRST_KO: u32 = 2;

/// The largest board the index serves: the solver packs a child count of at
/// most 31 and margins of at most 63 values into its cells.
pub const MAX_INDEX_POINTS: usize = 30;

/// Where a position stands in the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionEntry {
    pub canonical: Canonical,
    /// The position's number among canonical legal positions.
    pub number: u32,
    /// The number of its first state (slot 0).
    pub base: StateNumber,
}

/// Counts that describe a board's state space.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StateCounts {
    /// Legal positions with no symmetry applied (no side to move, no ko):
    /// the canonical positions weighted by the size of their class.
    pub legal_positions: u64,
    /// Canonical legal positions.
    pub positions: u64,
    /// Canonical states with a ko point.
    pub ko_states: u64,
    /// All canonical states: two per position (with and without a pending
    /// pass) plus the ko states.
    pub states: u64,
}

/// The numbering of one board's canonical legal states.
pub struct StateIndex {
    codec: Codec,
    /// Bit `c` set when code `c` is a canonical legal position.
    present: Vec<u64>,
    /// Canonical legal positions before each word of `present`.
    word_rank: Vec<u32>,
    /// First state number of each position, and the total at the end.
    base: Vec<StateNumber>,
    counts: StateCounts,
}

impl StateIndex {
    /// Enumerates every code of the board (in parallel) and numbers the
    /// canonical legal states.
    pub fn build(board: Board) -> StateIndex {
        assert!(board.points() <= MAX_INDEX_POINTS);
        let codec = Codec::new(board);
        let code_count = codec.code_count();
        let words = code_count.div_ceil(64) as usize;
        let mut present = vec![0u64; words];
        present
            .par_chunks_mut(1024)
            .enumerate()
            .for_each(|(chunk, slice)| {
                for (offset, word) in slice.iter_mut().enumerate() {
                    let first = ((chunk * 1024 + offset) as u64) * 64;
                    let last = (first + 64).min(code_count);
                    let mut bits = 0u64;
                    for code in first..last {
                        if codec.is_canonical_legal(code) {
                            bits |= 1 << (code - first);
                        }
                    }
                    *word = bits;
                }
            });
        let mut word_rank = Vec::with_capacity(words);
        let mut running = 0u64;
        for word in &present {
            word_rank.push(running as u32);
            running += word.count_ones() as u64;
        }
        let positions = running;
        assert!(
            positions < u32::MAX as u64,
            "too many positions for 32-bit numbers"
        );

        // Count the ko states of each position, then turn counts into bases.
        let mut base = vec![0 as StateNumber; positions as usize + 1];
        let chunk_positions = 1 << 14;
        let group = codec.symmetries().len() as u64;
        let (ko_total, legal_positions): (u64, u64) = base[..positions as usize]
            .par_chunks_mut(chunk_positions)
            .enumerate()
            .map(|(chunk, slice)| {
                let mut total = 0u64;
                let mut legal = 0u64;
                let first = (chunk * chunk_positions) as u64;
                let mut walker = PositionWalker::starting_at(&present, &word_rank, first);
                for slot in slice.iter_mut() {
                    let code = walker.next_code().expect("walker covers every position");
                    let position = codec.decode(code);
                    let canonical = codec.canonical(&position);
                    legal += group / canonical.reaching.count_ones() as u64;
                    let ko = codec
                        .canonical_ko_points(&canonical, position.ko_points(&board))
                        .len() as u32;
                    *slot = ko;
                    total += ko as u64;
                }
                (total, legal)
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        let states = 2 * positions + ko_total;
        assert!(
            states < u32::MAX as u64,
            "too many states for 32-bit numbers"
        );
        let mut running: StateNumber = 0;
        for entry in base.iter_mut() {
            let ko = *entry;
            *entry = running;
            running += SLOT_FIRST_KO + ko;
        }
        debug_assert_eq!(base[positions as usize] as u64, states);
        StateIndex {
            codec,
            present,
            word_rank,
            base,
            counts: StateCounts {
                legal_positions,
                positions,
                ko_states: ko_total,
                states,
            },
        }
    }

    pub fn board(&self) -> &Board {
        self.codec.board()
    }

    pub fn codec(&self) -> &Codec {
        &self.codec
    }

    pub fn counts(&self) -> StateCounts {
        self.counts
    }

    /// Bytes held by the index's tables.
    pub fn memory_bytes(&self) -> usize {
        self.present.len() * 8 + self.word_rank.len() * 4 + self.base.len() * 4
    }

    /// The canonical positions bit set, one word per 64 codes.
    pub fn present_words(&self) -> &[u64] {
        &self.present
    }

    /// The number of a canonical code, if it is a legal position.
    #[inline]
    pub fn position_number(&self, code: PositionCode) -> Option<u32> {
        let word = (code >> 6) as usize;
        let bit = code & 63;
        let bits = *self.present.get(word)?;
        if bits >> bit & 1 == 0 {
            return None;
        }
        Some(self.word_rank[word] + (bits & ((1u64 << bit) - 1)).count_ones())
    }

    /// Finds a position (in any orientation) in the index.
    #[inline]
    pub fn locate(&self, position: &Position) -> Option<PositionEntry> {
        let canonical = self.codec.canonical(position);
        let number = self.position_number(canonical.code)?;
        Some(PositionEntry {
            canonical,
            number,
            base: self.base[number as usize],
        })
    }

    /// The first state number of a position, and one past its last.
    #[inline]
    pub fn state_range(&self, position_number: u32) -> (StateNumber, StateNumber) {
        let i = position_number as usize;
        (self.base[i], self.base[i + 1])
    }

    /// The number of a ko state: `ko_points` are the legal ko points of the
    /// position in the orientation `entry` was located from, `ko` one of them.
    #[inline]
    pub fn ko_number(&self, entry: &PositionEntry, ko_points: PointSet, ko: Point) -> StateNumber {
        entry.base + SLOT_FIRST_KO + self.codec.ko_rank(&entry.canonical, ko_points, ko)
    }

    /// The number of any legal state (in any orientation).
    pub fn rank(&self, state: &State) -> Option<StateNumber> {
        let board = self.board();
        let entry = self.locate(&state.position())?;
        match (state.ko(), state.passed()) {
            (None, false) => Some(entry.base + SLOT_PLAIN),
            (None, true) => Some(entry.base + SLOT_PASSED),
            (Some(ko), false) => {
                let ko_points = state.position().ko_points(board);
                if !ko_points.contains(ko) {
                    return None;
                }
                Some(self.ko_number(&entry, ko_points, ko))
            }
            (Some(_), true) => None,
        }
    }

    /// The number of the position a state belongs to.
    #[inline]
    pub fn position_of_state(&self, number: StateNumber) -> u32 {
        (self.base.partition_point(|&b| b <= number) - 1) as u32
    }

    /// The code of the position with the given number.
    pub fn position_code(&self, number: u32) -> PositionCode {
        // The last word whose rank is at most `number`.
        let word = self.word_rank.partition_point(|&r| r <= number) - 1;
        let mut bits = self.present[word];
        for _ in 0..(number - self.word_rank[word]) {
            bits &= bits - 1;
        }
        word as u64 * 64 + bits.trailing_zeros() as u64
    }

    /// The canonical state with the given number.
    pub fn unrank(&self, number: StateNumber) -> State {
        let position_number = self.position_of_state(number);
        let code = self.position_code(position_number);
        self.state_at(code, number - self.base[position_number as usize])
    }

    /// The canonical state in slot `slot` of the canonical position `code`.
    pub fn state_at(&self, code: PositionCode, slot: u32) -> State {
        let position = self.codec.decode(code);
        match slot {
            SLOT_PLAIN => State::from_parts(position, None, false),
            SLOT_PASSED => State::from_parts(position, None, true),
            _ => {
                let ko = self
                    .canonical_ko_points(&position)
                    .iter()
                    .nth((slot - SLOT_FIRST_KO) as usize);
                State::from_parts(
                    position,
                    Some(ko.expect("slot within the position's ko states")),
                    false,
                )
            }
        }
    }

    /// The canonical ko points of a canonical position, in slot order.
    pub fn canonical_ko_points(&self, position: &Position) -> PointSet {
        let canonical = self.codec.canonical(position);
        self.codec
            .canonical_ko_points(&canonical, position.ko_points(self.board()))
    }

    /// Walks the canonical positions from number `first` on.
    pub fn positions_from(&self, first: u64) -> PositionWalker<'_> {
        PositionWalker::starting_at(&self.present, &self.word_rank, first)
    }
}

/// Visits canonical position codes in order, from a given position number.
pub struct PositionWalker<'a> {
    present: &'a [u64],
    word: usize,
    bits: u64,
}

impl<'a> PositionWalker<'a> {
    pub fn starting_at(present: &'a [u64], word_rank: &[u32], first: u64) -> PositionWalker<'a> {
        if present.is_empty() {
            return PositionWalker {
                present,
                word: 0,
                bits: 0,
            };
        }
        let word = word_rank.partition_point(|&r| (r as u64) <= first).max(1) - 1;
        let mut bits = present[word];
        let mut skip = first.saturating_sub(word_rank[word] as u64);
        while skip > 0 && bits != 0 {
            bits &= bits - 1;
            skip -= 1;
        }
        PositionWalker {
            present,
            word,
            bits,
        }
    }

    /// The next canonical code.
    #[inline]
    pub fn next_code(&mut self) -> Option<PositionCode> {
        while self.bits == 0 {
            self.word += 1;
            if self.word >= self.present.len() {
                return None;
            }
            self.bits = self.present[self.word];
        }
        let bit = self.bits.trailing_zeros() as u64;
        self.bits &= self.bits - 1;
        Some(self.word as u64 * 64 + bit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Every legal state of a board, by plain enumeration: every code, every
    /// ko point, both pass flags; no symmetry.
    fn plain_states(board: &Board) -> Vec<State> {
        let codec = Codec::new(*board);
        let mut states = Vec::new();
        for code in 0..codec.code_count() {
            let position = codec.decode(code);
            if !position.is_legal(board) {
                continue;
            }
            states.push(State::from_parts(position, None, false));
            states.push(State::from_parts(position, None, true));
            for point in board.all().iter() {
                if let Ok(state) = State::new(board, position, Some(point), false) {
                    states.push(state);
                }
            }
        }
        states
    }

    #[test]
    fn rank_and_unrank_agree_with_a_plain_enumeration() {
        for name in ["1x1", "1x4", "2x2", "2x3", "3x3", "1x7", "2x4"] {
            let board: Board = name.parse().unwrap();
            let index = StateIndex::build(board);
            let states = index.counts().states;
            // Every number unranks to a state that ranks back to it.
            for number in 0..states as StateNumber {
                let state = index.unrank(number);
                assert_eq!(index.rank(&state), Some(number), "{name} {number}");
                assert!(State::new(&board, state.position(), state.ko(), state.passed()).is_ok());
            }
            // Every legal state ranks, symmetric states rank alike, and every
            // number is reached.
            let mut reached = HashSet::new();
            for state in plain_states(&board) {
                let number = index
                    .rank(&state)
                    .unwrap_or_else(|| panic!("{name}: {state:?}"));
                for g in index.codec().symmetries() {
                    let image = State::from_parts(
                        Position::new(
                            g.apply_set(state.position().us()),
                            g.apply_set(state.position().them()),
                        ),
                        state.ko().map(|k| g.apply(k)),
                        state.passed(),
                    );
                    assert_eq!(index.rank(&image), Some(number));
                }
                reached.insert(number);
            }
            assert_eq!(reached.len() as u64, states, "{name}");
        }
    }

    #[test]
    fn legal_position_counts_match_a_plain_count_and_the_spec() {
        // SPEC section 2; 4x5 and 5x5 take too long for a test.
        for (name, known) in [
            ("1x3", 15),
            ("2x2", 57),
            ("2x3", 489),
            ("2x4", 4125),
            ("3x3", 12675),
            ("4x4", 24318165),
        ] {
            let board: Board = name.parse().unwrap();
            let index = StateIndex::build(board);
            assert_eq!(index.counts().legal_positions, known, "{name}");
            if board.points() <= 9 {
                let codec = Codec::new(board);
                let plain = (0..codec.code_count())
                    .filter(|&code| codec.decode(code).is_legal(&board))
                    .count() as u64;
                assert_eq!(plain, known, "{name}: plain count");
            }
        }
    }

    #[test]
    fn walkers_visit_positions_in_order() {
        let board: Board = "2x4".parse().unwrap();
        let index = StateIndex::build(board);
        let all: Vec<u64> = {
            let mut walker = index.positions_from(0);
            std::iter::from_fn(|| walker.next_code()).collect()
        };
        assert_eq!(all.len() as u64, index.counts().positions);
        for (number, &code) in all.iter().enumerate() {
            assert_eq!(index.position_code(number as u32), code);
            assert_eq!(index.position_number(code), Some(number as u32));
            let mut walker = index.positions_from(number as u64);
            assert_eq!(walker.next_code(), Some(code));
        }
    }
}
