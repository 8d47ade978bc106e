//! A dense numbering of a board's canonical legal states: rank and unrank.
//!
//! Positions first: a bit per ternary code marks the canonical legal
//! positions, and a count per 64-bit word ranks them, so a position's number
//! is one table read and one popcount. States then: position `p`'s state with
//! no pass and no ko is number `2p`, its state after a pass `2p + 1` (one cache
//! line for both, and no table to read), and the states with a ko point, rare
//! by comparison, come after all of those, grouped by position, one per
//! canonical ko point in point order. The ko directory (`ko`) finds those:
//! each position's count and first ko state, in one read.
//!
//! Each state has a slot within its position: `SLOT_PLAIN`, `SLOT_PASSED`,
//! then `SLOT_FIRST_KO + j` for the `j`-th ko state. Table files store states
//! by (position, slot), so this numbering is internal to a solve.
//!
//! An index may hold a run of the codes only (`build_part`: one process's
//! share of a board that several solve together). It numbers the
//! positions and states of its run as the whole board's index does, once
//! it is told the board's counts (`with_board_counts`), and knows nothing
//! of the codes outside it: they rank as `None`.

// A probe-only build (no feature `solver`) leaves the numbering that only the solver uses unused.
#![cfg_attr(not(feature = "solver"), allow(dead_code, unused_imports))]

pub mod code;
#[cfg(feature = "solver")]
pub mod ko;
#[cfg(feature = "solver")]
pub mod presence;

#[cfg(feature = "solver")]
use std::ops::Range;

#[cfg(feature = "solver")]
use crate::rules::board::{Board, PointSet};
#[cfg(feature = "solver")]
use crate::rules::position::Position;
#[cfg(feature = "solver")]
use crate::rules::state::State;
#[cfg(feature = "solver")]
use code::{Canonical, Codec, PositionCode};
#[cfg(feature = "solver")]
use ko::KoDirectory;
#[cfg(feature = "solver")]
use presence::{Presence, PresenceWalker};

/// Visits canonical position codes in order.
#[cfg(feature = "solver")]
pub type PositionWalker<'a> = PresenceWalker<'a>;

/// A state's number in the index: 64 bits, since boards from 2x11 on have
/// more than 2^32 states.
pub type StateNumber = u64;

/// A canonical position's number in the index.
pub type PositionNumber = u64;

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
#[cfg(feature = "solver")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionEntry {
    pub canonical: Canonical,
    /// The position's number among canonical legal positions.
    pub number: PositionNumber,
}

#[cfg(feature = "solver")]
impl PositionEntry {
    /// The number of the position's state with no pass and no ko.
    #[inline]
    pub fn plain(&self) -> StateNumber {
        2 * self.number
    }

    /// The number of the position's state after a pass.
    #[inline]
    pub fn passed(&self) -> StateNumber {
        2 * self.number + 1
    }
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
#[cfg(feature = "solver")]
pub struct StateIndex {
    codec: Codec,
    /// The canonical legal position codes, with rank and select.
    presence: Presence,
    /// How many ko states each position has, and where they start.
    ko: KoDirectory,
    /// The board's counts (all of them, even for a part).
    counts: StateCounts,
    /// What a part holds of them: its positions' counts.
    #[cfg_attr(not(any(test, feature = "mpi")), allow(dead_code))]
    held: StateCounts,
}

#[cfg(feature = "solver")]
impl StateIndex {
    /// Enumerates every code of the board (in parallel) and numbers the
    /// canonical legal states. `None` if a position has more ko states than
    /// the ko directory holds (`ko::MAX_KO_STATES`), or the board is over
    /// `MAX_INDEX_POINTS`.
    pub fn build(board: Board) -> Option<StateIndex> {
        let codes = Codec::new(board).code_count();
        StateIndex::build_part(board, 0..codes, 0, 0)
    }

    /// The index of the codes `codes` only, the first of its positions
    /// numbered `first_position`, after `ko_before` ko states of the
    /// positions before it. Its counts are its own until `with_board_counts`
    /// gives the board's. `None` as for `build`.
    pub fn build_part(
        board: Board,
        codes: Range<PositionCode>,
        first_position: PositionNumber,
        ko_before: u64,
    ) -> Option<StateIndex> {
        if board.points() > MAX_INDEX_POINTS {
            return None;
        }
        let codec = Codec::new(board);
        // With the codes, the ko states of each position and the legal
        // positions each canonical one stands for, noted per run of codes
        // while each position is at hand. The counts go in one large array
        // that is handed back to the system afterwards, so that this
        // transient work does not stay resident while the solver holds its
        // cells.
        let group = codec.symmetries().len() as u64;
        let mut ko_counts: Vec<u8> = Vec::new();
        let mut legal_positions = 0u64;
        let presence = Presence::build_range(
            codes,
            first_position,
            || (Vec::<u8>::new(), 0u64),
            |(ko_counts, legal), first, count| {
                codec.canonical_legal_positions(first, count, |position, canonical| {
                    // The symmetries that reach the canonical code are a
                    // coset of those that fix the position, as many: the
                    // class has the group's size over that many positions.
                    *legal += group / canonical.reaching.count_ones() as u64;
                    let ko_points =
                        codec.canonical_ko_points(&canonical, position.ko_points(&board));
                    ko_counts.push(ko_points.len() as u8);
                })
            },
            |(counts, legal)| {
                ko_counts.extend_from_slice(&counts);
                legal_positions += legal;
            },
        );
        let positions = presence.count();
        let ko = KoDirectory::build_run(&ko_counts, first_position, ko_before)?;
        drop(ko_counts);
        let ko_states = ko.total();
        let states = 2 * positions + ko_states;
        let counts = StateCounts {
            legal_positions,
            positions,
            ko_states,
            states,
        };
        Some(StateIndex {
            codec,
            presence,
            ko,
            counts,
            held: counts,
        })
    }

    /// A part's index numbered within the board whose counts are
    /// `board_counts`: its ko states follow every plain and passed state of
    /// the board.
    #[cfg(any(test, feature = "mpi"))]
    pub fn with_board_counts(mut self, board_counts: StateCounts) -> StateIndex {
        self.counts = board_counts;
        self
    }

    /// The counts of the positions it holds: the board's, unless it is a
    /// part.
    #[cfg(any(test, feature = "mpi"))]
    pub fn held_counts(&self) -> StateCounts {
        self.held
    }

    /// The codes it holds.
    #[cfg(test)]
    pub fn codes(&self) -> Range<PositionCode> {
        self.presence.codes()
    }

    /// The positions it holds.
    #[cfg(test)]
    pub fn positions_held(&self) -> Range<PositionNumber> {
        let first = self.presence.base();
        first..first + self.held.positions
    }

    /// Whether it holds a code (whether that code is a legal position or
    /// not).
    #[inline]
    pub fn holds_code(&self, code: PositionCode) -> bool {
        self.presence.codes().contains(&code)
    }

    /// The board's 64-code word that `presence_words` starts from.
    #[cfg(feature = "mpi")]
    pub fn first_presence_word(&self) -> u64 {
        self.presence.first_word()
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
        self.presence.memory_bytes() + self.ko.memory_bytes()
    }

    /// The canonical positions bit set, one word per 64 codes, in order
    /// (from the first word of its codes, for a part).
    pub fn presence_words(&self) -> impl Iterator<Item = u64> + '_ {
        self.presence.words()
    }

    /// The number of a canonical code, if it is a legal position.
    #[inline]
    pub fn position_number(&self, code: PositionCode) -> Option<PositionNumber> {
        self.presence.rank(code)
    }

    /// Asks for the index line of a code, for it to arrive before the code
    /// is ranked.
    #[inline]
    pub fn prefetch(&self, code: PositionCode) {
        self.presence.prefetch(code)
    }

    /// Asks for what a cursor reads to reach state `number` from afar (the
    /// index line of its position, for states without ko), for it to
    /// arrive before the state is asked for.
    #[inline]
    pub fn prefetch_state(&self, number: StateNumber) {
        if number < self.ko_start() {
            self.presence.prefetch_numbered(number / 2);
        }
    }

    /// Finds a canonical position in the index.
    #[inline]
    pub fn entry_of(&self, canonical: Canonical) -> Option<PositionEntry> {
        let number = self.position_number(canonical.code)?;
        Some(PositionEntry { canonical, number })
    }

    /// The first number after the plain and passed states: ko states start
    /// here.
    #[inline]
    fn ko_start(&self) -> StateNumber {
        2 * self.counts.positions
    }

    /// How many ko states the positions before `position` have.
    #[inline]
    #[cfg(feature = "mpi")]
    pub fn ko_states_before(&self, position: PositionNumber) -> u64 {
        self.ko.before(position)
    }

    /// How many ko states position `number` has.
    #[inline]
    pub fn ko_state_count(&self, position: PositionNumber) -> u32 {
        self.ko.count(position)
    }

    /// The number of the first ko state of `position`, which must have ko
    /// states; the others follow it.
    #[inline]
    pub fn first_ko_number(&self, position: PositionNumber) -> StateNumber {
        debug_assert!(self.ko.count(position) > 0, "the position has ko states");
        self.ko_start() + self.ko.before(position)
    }

    /// The states of positions `positions`: their plain and passed states,
    /// and their ko states, each a run of consecutive numbers.
    pub fn state_runs(
        &self,
        positions: Range<PositionNumber>,
    ) -> (Range<StateNumber>, Range<StateNumber>) {
        (
            2 * positions.start..2 * positions.end,
            self.ko_start() + self.ko.before(positions.start)
                ..self.ko_start() + self.ko.before(positions.end),
        )
    }

    /// The number of the state in slot `slot` of position `position`.
    pub fn number(&self, position: PositionNumber, slot: u32) -> StateNumber {
        match slot {
            SLOT_PLAIN | SLOT_PASSED => 2 * position + slot as StateNumber,
            _ => self.first_ko_number(position) + (slot - SLOT_FIRST_KO) as StateNumber,
        }
    }

    /// The numbers of the ko states with ko points `kos`, in point order:
    /// `ko_points` are the legal ko points of the position in the
    /// orientation `entry` was located from, `kos` some of them. The
    /// position's first ko state is looked up once, and only if `kos` has
    /// any.
    #[inline]
    pub fn ko_numbers(
        &self,
        entry: &PositionEntry,
        ko_points: PointSet,
        kos: PointSet,
    ) -> impl Iterator<Item = StateNumber> + '_ {
        let first = if kos.is_empty() {
            0
        } else {
            self.first_ko_number(entry.number)
        };
        let canonical = entry.canonical;
        kos.iter()
            .map(move |ko| first + self.codec.ko_rank(&canonical, ko_points, ko) as StateNumber)
    }

    /// The number of any legal state (in any orientation).
    pub fn rank(&self, state: &State) -> Option<StateNumber> {
        self.rank_canonical(state, self.codec.canonical(&state.position()))
    }

    /// `rank` in two steps, so that a batch of states can have their index
    /// lines asked for (`prefetch(canonical.code)`) before any is read: this
    /// is the second, given the canonical form of the state's position.
    ///
    /// Inlined where it is called, for the states without a ko point (most
    /// of them); a ko state's number is found out of line (`ko_rank`).
    #[inline(always)]
    pub fn rank_canonical(&self, state: &State, canonical: Canonical) -> Option<StateNumber> {
        let number = self.position_number(canonical.code)?;
        let entry = PositionEntry { canonical, number };
        match (state.ko(), state.passed()) {
            (None, false) => Some(entry.plain()),
            (None, true) => Some(entry.passed()),
            (Some(_), false) => self.ko_rank(state, &entry),
            (Some(_), true) => None,
        }
    }

    /// The number of a ko state (with no pass pending) of the position
    /// `entry`: `None` if its ko point is not one.
    #[inline(never)]
    fn ko_rank(&self, state: &State, entry: &PositionEntry) -> Option<StateNumber> {
        let ko = state.ko()?;
        let ko_points = state.position().ko_points(self.board());
        if !ko_points.contains(ko) {
            return None;
        }
        self.ko_numbers(entry, ko_points, PointSet::single(ko))
            .next()
    }

    /// The position and slot of a state number.
    pub fn slot_of(&self, number: StateNumber) -> (PositionNumber, u32) {
        if number < self.ko_start() {
            return (number / 2, (number % 2) as u32);
        }
        let (position, j) = self.ko.locate(number - self.ko_start());
        (position, SLOT_FIRST_KO + j)
    }

    /// The code of the position with the given number.
    pub fn position_code(&self, number: PositionNumber) -> PositionCode {
        self.presence.select(number)
    }

    /// The canonical state with the given number.
    pub fn unrank(&self, number: StateNumber) -> State {
        let (position, slot) = self.slot_of(number);
        self.state_at(self.position_code(position), slot)
    }

    /// The canonical state in slot `slot` of the canonical position `code`.
    pub fn state_at(&self, code: PositionCode, slot: u32) -> State {
        self.state_of(self.codec.decode(code), slot)
    }

    /// The canonical state in slot `slot` of a canonical position.
    #[inline]
    fn state_of(&self, position: Position, slot: u32) -> State {
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

    /// Walks the canonical position codes from number `first` on.
    pub fn positions_from(&self, first: u64) -> PositionWalker<'_> {
        self.presence.walk_from(first)
    }

    /// Walks the positions from number `first` on, with their states.
    pub fn positions(&self, first: PositionNumber) -> PositionCursor<'_> {
        PositionCursor {
            index: self,
            walker: self.positions_from(first),
            next: first,
        }
    }

    /// Reads states in ascending number order; see `StateCursor`.
    pub fn state_cursor(&self) -> StateCursor<'_> {
        StateCursor {
            index: self,
            walker: None,
            walker_position: 0,
            code: 0,
            decoded: None,
            ko_word: 0,
        }
    }
}

/// A position and the numbers of its states.
#[cfg(feature = "solver")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionStates {
    pub number: PositionNumber,
    pub code: PositionCode,
    /// The number of its first ko state (meaningless without ko states).
    pub first_ko: StateNumber,
    pub ko_states: u32,
}

#[cfg(feature = "solver")]
impl PositionStates {
    /// The number of the state in `slot`.
    #[inline]
    pub fn state(&self, slot: u32) -> StateNumber {
        match slot {
            SLOT_PLAIN | SLOT_PASSED => 2 * self.number + slot as StateNumber,
            _ => self.first_ko + (slot - SLOT_FIRST_KO) as StateNumber,
        }
    }

    /// The number of slots: two plus the ko states.
    #[inline]
    pub fn slots(&self) -> u32 {
        SLOT_FIRST_KO + self.ko_states
    }
}

/// Visits positions in order with the numbers of their states.
#[cfg(feature = "solver")]
pub struct PositionCursor<'a> {
    index: &'a StateIndex,
    walker: PositionWalker<'a>,
    next: PositionNumber,
}

#[cfg(feature = "solver")]
impl Iterator for PositionCursor<'_> {
    type Item = PositionStates;

    fn next(&mut self) -> Option<PositionStates> {
        let code = self.walker.next_code()?;
        let number = self.next;
        self.next += 1;
        let index = self.index;
        Some(PositionStates {
            number,
            code,
            first_ko: index.ko_start() + index.ko.before(number),
            ko_states: index.ko.count(number),
        })
    }
}

/// Turns state numbers, given in ascending order, into states, walking the
/// positions instead of searching for each.
#[cfg(feature = "solver")]
pub struct StateCursor<'a> {
    index: &'a StateIndex,
    walker: Option<PositionWalker<'a>>,
    /// The position whose code is `code`.
    walker_position: PositionNumber,
    code: PositionCode,
    /// The position of `code`, once a state of it has been asked for: the
    /// plain and passed states of a position often come one after the other.
    decoded: Option<Position>,
    /// Where in the ko directory the last ko state was found.
    ko_word: usize,
}

/// Beyond this many positions ahead, the cursor searches instead of walking
/// (a word of codes at a time). A search costs about as much as walking two
/// lines of codes, some 60 positions: a longer walk would cost more, and
/// sparse layers jump thousands of positions.
#[cfg(feature = "solver")]
const WALK_LIMIT: PositionNumber = 64;

#[cfg(feature = "solver")]
impl StateCursor<'_> {
    fn move_to(&mut self, position: PositionNumber) {
        match &mut self.walker {
            Some(walker)
                if position >= self.walker_position
                    && position - self.walker_position <= WALK_LIMIT =>
            {
                if position > self.walker_position {
                    let skipped = position - self.walker_position - 1;
                    self.code = walker
                        .skip_then_next(skipped)
                        .expect("positions are in range");
                    self.walker_position = position;
                }
            }
            _ => {
                let mut walker = self.index.positions_from(position);
                self.code = walker.next_code().expect("positions are in range");
                self.walker_position = position;
                self.walker = Some(walker);
            }
        }
    }

    /// The state with number `number`. Numbers given in ascending order are
    /// found by walking; any other order still works, by searching.
    pub fn state(&mut self, number: StateNumber) -> State {
        let index = self.index;
        let (position, slot) = if number < index.ko_start() {
            (number / 2, (number % 2) as u32)
        } else {
            let (position, j) = index
                .ko
                .locate_near(&mut self.ko_word, number - index.ko_start());
            (position, SLOT_FIRST_KO + j)
        };
        if self.walker.is_none() || position != self.walker_position {
            self.move_to(position);
            self.decoded = None;
        }
        let decoded = *self
            .decoded
            .get_or_insert_with(|| index.codec.decode(self.code));
        index.state_of(decoded, slot)
    }
}

#[cfg(all(test, feature = "solver"))]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn rank_and_unrank_agree_with_a_plain_enumeration() {
        for name in [
            "1x1", "1x4", "2x2", "2x3", "3x3", "1x7", "2x4", "1x1c", "1x2c", "1x3c", "1x4c",
            "1x5c", "1x6c", "1x7c", "1x8c", "2x2c", "2x3c", "2x4c", "2x5c", "3x3c", "3x4c",
        ] {
            let board: Board = name.parse().unwrap();
            let index = StateIndex::build(board).unwrap();
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
            for state in crate::tests::support::plain_states(&board) {
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

    /// Parts of a board's codes, split at positions, number their
    /// positions and states as the whole index does, rank nothing outside
    /// their codes, and add up to the whole.
    #[test]
    fn parts_number_their_states_as_the_whole() {
        for name in ["2x4", "3x3", "1x7", "2x4c", "3x4"] {
            let board: Board = name.parse().unwrap();
            let whole = StateIndex::build(board).unwrap();
            let counts = whole.counts();
            let codes = whole.codec().code_count();
            for processes in [1u64, 2, 3, 7] {
                let bounds: Vec<PositionNumber> = (0..=processes)
                    .map(|r| counts.positions * r / processes)
                    .collect();
                let code_at = |p: PositionNumber| {
                    if p < counts.positions {
                        whole.position_code(p)
                    } else {
                        codes
                    }
                };
                let mut held = StateCounts::default();
                for r in 0..processes as usize {
                    let (first, end) = (bounds[r], bounds[r + 1]);
                    let part = StateIndex::build_part(
                        board,
                        code_at(first)..code_at(end),
                        first,
                        whole.ko.before(first),
                    )
                    .unwrap()
                    .with_board_counts(counts);
                    let own = part.held_counts();
                    held.positions += own.positions;
                    held.ko_states += own.ko_states;
                    held.legal_positions += own.legal_positions;
                    assert_eq!(part.positions_held(), first..end, "{name} {r}/{processes}");
                    let (plain, ko) = whole.state_runs(first..end);
                    assert_eq!(part.state_runs(first..end), (plain.clone(), ko.clone()));
                    let mut cursor = part.state_cursor();
                    for number in plain.chain(ko) {
                        let state = whole.unrank(number);
                        assert_eq!(part.unrank(number), state, "{name}: {number}");
                        assert_eq!(cursor.state(number), state);
                        assert_eq!(part.rank(&state), Some(number));
                        assert_eq!(part.slot_of(number), whole.slot_of(number));
                    }
                    for (a, b) in part
                        .positions(first)
                        .zip(whole.positions(first))
                        .take((end - first) as usize)
                    {
                        assert_eq!(a, b);
                    }
                    assert_eq!(part.positions(first).count() as u64, end - first);
                    for code in (0..codes).step_by(7) {
                        let expected = whole
                            .position_number(code)
                            .filter(|p| (first..end).contains(p));
                        assert_eq!(part.position_number(code), expected, "{name}: {code}");
                        assert_eq!(part.holds_code(code), part.codes().contains(&code));
                    }
                }
                assert_eq!(
                    (held.positions, held.ko_states, held.legal_positions),
                    (counts.positions, counts.ko_states, counts.legal_positions),
                    "{name} {processes}"
                );
            }
        }
    }

    #[test]
    fn legal_position_counts_match_a_plain_count_and_the_spec() {
        // Tromp's counts (docs/count.md); 4x5 and 5x5 take too long for a test.
        for (name, known) in [
            ("1x3", 15),
            ("2x2", 57),
            ("2x3", 489),
            ("2x4", 4125),
            ("3x3", 12675),
            ("4x4", 24318165),
        ] {
            let board: Board = name.parse().unwrap();
            let index = StateIndex::build(board).unwrap();
            assert_eq!(index.counts().legal_positions, known, "{name}");
            if board.points() <= 9 {
                let codec = Codec::new(board);
                let plain = (0..codec.code_count())
                    .filter(|&code| codec.decode(code).is_legal(&board))
                    .count() as u64;
                assert_eq!(plain, known, "{name}: plain count");
            }
        }
        // Circular boards: the canonical positions weighted by the size of
        // their class against counting every code.
        for name in [
            "1x1c", "1x2c", "1x3c", "1x4c", "1x5c", "1x6c", "1x9c", "2x2c", "2x3c", "2x4c", "2x5c",
            "2x6c", "3x3c", "3x4c", "4x3c",
        ] {
            let board: Board = name.parse().unwrap();
            let index = StateIndex::build(board).unwrap();
            let codec = Codec::new(board);
            let plain = (0..codec.code_count())
                .filter(|&code| codec.decode(code).is_legal(&board))
                .count() as u64;
            assert_eq!(index.counts().legal_positions, plain, "{name}");
        }
        // By hand, a ring of three: every point touches the other two, so
        // a position is legal if and only if a point is empty: the empty
        // board, one stone (3 points, 2 colours), or two stones (3 empty
        // points, 4 colourings). The plain 1x3 has 15.
        let ring = StateIndex::build("1x3c".parse().unwrap()).unwrap();
        assert_eq!(ring.counts().legal_positions, 1 + 3 * 2 + 3 * 4);
    }

    #[test]
    fn cursors_agree_with_unrank() {
        for name in ["1x9", "3x3", "2x5"] {
            let board: Board = name.parse().unwrap();
            let index = StateIndex::build(board).unwrap();
            let states = index.counts().states as StateNumber;
            // Every position in order, with every slot's number.
            let mut seen = 0;
            for entry in index.positions(0) {
                assert_eq!(entry.code, index.position_code(entry.number));
                assert_eq!(entry.ko_states, index.ko_state_count(entry.number));
                for slot in 0..entry.slots() {
                    let number = entry.state(slot);
                    assert_eq!(index.slot_of(number), (entry.number, slot), "{name}");
                    assert_eq!(index.number(entry.number, slot), number);
                    seen += 1;
                }
            }
            assert_eq!(seen, states);
            // The ko state counts alone, from any first position.
            let positions = index.counts().positions;
            for first in [0, 1, positions / 3, positions - 1, positions] {
                let counts: Vec<u32> = (first..positions)
                    .map(|position| index.ko_state_count(position))
                    .collect();
                let expected: Vec<u32> = index.positions(first).map(|e| e.ko_states).collect();
                assert_eq!(counts, expected, "{name} from {first}");
            }
            // Ascending numbers with gaps, then any order.
            let mut rng = crate::tests::support::Rng::new(3);
            let mut cursor = index.state_cursor();
            let mut number = 0;
            while number < states {
                assert_eq!(
                    cursor.state(number),
                    index.unrank(number),
                    "{name} {number}"
                );
                let gap = if rng.below(4) == 0 { 2000 } else { 5 };
                number += 1 + rng.below(gap) as StateNumber;
            }
            for _ in 0..500 {
                let number = rng.below(states as u64) as StateNumber;
                assert_eq!(
                    cursor.state(number),
                    index.unrank(number),
                    "{name} {number}"
                );
            }
        }
    }

    #[test]
    fn walkers_visit_positions_in_order() {
        let board: Board = "2x4".parse().unwrap();
        let index = StateIndex::build(board).unwrap();
        let all: Vec<u64> = {
            let mut walker = index.positions_from(0);
            std::iter::from_fn(|| walker.next_code()).collect()
        };
        assert_eq!(all.len() as u64, index.counts().positions);
        for (number, &code) in all.iter().enumerate() {
            assert_eq!(index.position_code(number as u64), code);
            assert_eq!(index.position_number(code), Some(number as u64));
            let mut walker = index.positions_from(number as u64);
            assert_eq!(walker.next_code(), Some(code));
        }
    }
}
