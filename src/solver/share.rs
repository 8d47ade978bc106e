//! Which of a board's states one process solves, and how it numbers them.
//!
//! A single process solves every state under the index's own numbers
//! (`Whole`). Several processes (an MPI job, `crate::solver::cluster`) split the
//! positions into consecutive ranges, whole table blocks each, and each
//! process holds the states of its own positions only (`Part`): their plain
//! and passed states (one run of the index's numbers) and their ko states
//! (another run), numbered locally one run after the other, so that its
//! tallies and flags are its share of the board's and no more.
//!
//! The solve's phases work in local numbers; they turn to the index's
//! numbers only to find a state's position or predecessors (`global`), and
//! an update for a predecessor goes to the process that owns it (`local`
//! is `None` for the others' states, `owner` names the process). Each
//! process's positions are a run of canonical codes too, so that it needs
//! the index of its own codes only (`StateIndex::build_part`): a
//! predecessor outside them is sent by its code, to the process that holds
//! that code (`code_owner`), which ranks it.

use std::ops::Range;

use crate::index::code::PositionCode;
use crate::index::{PositionNumber, StateIndex, StateNumber};

/// The states one process solves.
pub trait Share: Sync {
    /// How many states it holds: its local numbers are `0..states()`.
    fn states(&self) -> u64;
    /// The positions whose states it holds.
    fn positions(&self) -> Range<PositionNumber>;
    /// The local number of state `number` (the index's), or `None` if
    /// another process holds it.
    fn local(&self, number: StateNumber) -> Option<u64>;
    /// The index's number of local state `local`.
    fn global(&self, local: u64) -> StateNumber;
    /// The process that holds state `number`.
    fn owner(&self, number: StateNumber) -> usize;
    /// The process that holds position `position`'s states.
    #[cfg_attr(not(test), allow(dead_code))]
    fn position_owner(&self, position: PositionNumber) -> usize;
    /// The process that holds the position with canonical code `code`.
    fn code_owner(&self, code: PositionCode) -> usize;
    /// How many processes share the board.
    fn processes(&self) -> usize;
}

/// Every state, under the index's numbers: the solve of one process.
pub struct Whole {
    states: u64,
    positions: u64,
}

impl Whole {
    pub fn new(index: &StateIndex) -> Whole {
        let counts = index.counts();
        Whole {
            states: counts.states,
            positions: counts.positions,
        }
    }
}

impl Share for Whole {
    #[inline(always)]
    fn states(&self) -> u64 {
        self.states
    }
    fn positions(&self) -> Range<PositionNumber> {
        0..self.positions
    }
    #[inline(always)]
    fn local(&self, number: StateNumber) -> Option<u64> {
        Some(number)
    }
    #[inline(always)]
    fn global(&self, local: u64) -> StateNumber {
        local
    }
    #[inline(always)]
    fn owner(&self, _: StateNumber) -> usize {
        0
    }
    fn position_owner(&self, _: PositionNumber) -> usize {
        0
    }
    fn code_owner(&self, _: PositionCode) -> usize {
        0
    }
    fn processes(&self) -> usize {
        1
    }
}

/// One process's part of a board split among `processes`.
#[derive(Clone, Debug)]
#[cfg(any(test, feature = "mpi"))]
pub struct Part {
    /// Where each process's positions start, and the end of the last.
    position_bounds: Vec<PositionNumber>,
    /// Where each process's ko states start (the index's numbers), and the
    /// end of the last.
    ko_bounds: Vec<StateNumber>,
    /// Where each process's codes start, and the end of the last: the
    /// codes of its positions' run.
    code_bounds: Vec<PositionCode>,
    /// This process.
    process: usize,
    /// The first plain state past every process's plain states: `2P`.
    plain_end: StateNumber,
}

#[cfg(any(test, feature = "mpi"))]
impl Part {
    /// Where a board of `positions` positions is split among `processes`:
    /// as equal runs as whole table blocks of `block` positions allow (a
    /// run may be empty), the bounds of each run and the end of the last.
    #[cfg(test)]
    pub fn position_bounds(positions: u64, processes: usize, block: u64) -> Vec<PositionNumber> {
        assert!(processes > 0 && block > 0);
        let blocks = positions.div_ceil(block);
        (0..=processes as u64)
            .map(|r| (blocks * r / processes as u64 * block).min(positions))
            .collect()
    }

    /// Process `process`'s part of the whole `index`'s states split among
    /// `processes` (`position_bounds`).
    #[cfg(test)]
    pub fn new(index: &StateIndex, processes: usize, process: usize, block: u64) -> Part {
        assert!(process < processes);
        let counts = index.counts();
        let position_bounds = Part::position_bounds(counts.positions, processes, block);
        let ko_bounds = position_bounds
            .iter()
            .map(|&p| index.state_runs(p..p).1.start)
            .collect();
        let code_bounds = position_bounds
            .iter()
            .map(|&p| {
                if p < counts.positions {
                    index.position_code(p)
                } else {
                    index.codec().code_count()
                }
            })
            .collect();
        Part::from_bounds(
            position_bounds,
            ko_bounds,
            code_bounds,
            process,
            counts.positions,
        )
    }

    /// Process `process`'s part, from every process's first position, ko
    /// state (the index's number) and code, each list ending with the
    /// board's end; `positions` is the board's.
    pub fn from_bounds(
        position_bounds: Vec<PositionNumber>,
        ko_bounds: Vec<StateNumber>,
        code_bounds: Vec<PositionCode>,
        process: usize,
        positions: u64,
    ) -> Part {
        assert!(
            process + 1 < position_bounds.len()
                && ko_bounds.len() == position_bounds.len()
                && code_bounds.len() == position_bounds.len()
        );
        Part {
            position_bounds,
            ko_bounds,
            code_bounds,
            process,
            plain_end: 2 * positions,
        }
    }

    fn plain_states(&self) -> u64 {
        let r = self.process;
        2 * (self.position_bounds[r + 1] - self.position_bounds[r])
    }
}

#[cfg(any(test, feature = "mpi"))]
impl Share for Part {
    fn states(&self) -> u64 {
        let r = self.process;
        self.plain_states() + self.ko_bounds[r + 1] - self.ko_bounds[r]
    }

    fn positions(&self) -> Range<PositionNumber> {
        self.position_bounds[self.process]..self.position_bounds[self.process + 1]
    }

    #[inline]
    fn local(&self, number: StateNumber) -> Option<u64> {
        let r = self.process;
        if number < self.plain_end {
            let first = 2 * self.position_bounds[r];
            (first..2 * self.position_bounds[r + 1])
                .contains(&number)
                .then(|| number - first)
        } else {
            (self.ko_bounds[r]..self.ko_bounds[r + 1])
                .contains(&number)
                .then(|| self.plain_states() + number - self.ko_bounds[r])
        }
    }

    #[inline]
    fn global(&self, local: u64) -> StateNumber {
        let plain = self.plain_states();
        if local < plain {
            2 * self.position_bounds[self.process] + local
        } else {
            self.ko_bounds[self.process] + local - plain
        }
    }

    #[inline]
    fn owner(&self, number: StateNumber) -> usize {
        if number < self.plain_end {
            self.position_owner(number / 2)
        } else {
            // The last process whose ko states start at or before `number`
            // (empty ranges share their start with the next).
            self.ko_bounds[1..].partition_point(|&end| end <= number)
        }
    }

    fn position_owner(&self, position: PositionNumber) -> usize {
        self.position_bounds[1..].partition_point(|&end| end <= position)
    }

    #[inline]
    fn code_owner(&self, code: PositionCode) -> usize {
        self.code_bounds[1..].partition_point(|&end| end <= code)
    }

    fn processes(&self) -> usize {
        self.position_bounds.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::Board;

    /// Every state has one owner, whose local number turns back into it,
    /// and the parts' local numbers cover each part's states once.
    #[test]
    fn parts_cover_every_state_once() {
        for name in ["2x5", "3x4", "3x3", "1x6c"] {
            let board: Board = name.parse().unwrap();
            let index = StateIndex::build(board).unwrap();
            let states = index.counts().states;
            for processes in 1..=5 {
                for block in [1, 7, 4096] {
                    let parts: Vec<Part> = (0..processes)
                        .map(|r| Part::new(&index, processes, r, block))
                        .collect();
                    let total: u64 = parts.iter().map(Share::states).sum();
                    assert_eq!(total, states, "{name} {processes} {block}");
                    let mut seen = vec![false; states as usize];
                    for (r, part) in parts.iter().enumerate() {
                        for local in 0..part.states() {
                            let number = part.global(local);
                            assert!(!seen[number as usize], "{name}: {number} twice");
                            seen[number as usize] = true;
                            assert_eq!(part.local(number), Some(local));
                            assert_eq!(part.owner(number), r, "{name}: owner of {number}");
                            let (position, _) = index.slot_of(number);
                            assert!(part.positions().contains(&position));
                            let code = index.position_code(position);
                            assert_eq!(part.code_owner(code), r, "{name}: owner of {code}");
                        }
                        for other in &parts {
                            if other.process != r {
                                assert!((0..other.states())
                                    .all(|l| part.local(other.global(l)).is_none()));
                            }
                        }
                    }
                    assert!(seen.iter().all(|&s| s));
                }
            }
        }
    }

    /// One part of one process is the whole board under the index's
    /// numbers.
    #[test]
    fn a_single_part_is_the_whole() {
        let board: Board = "3x3".parse().unwrap();
        let index = StateIndex::build(board).unwrap();
        let part = Part::new(&index, 1, 0, 4096);
        let whole = Whole::new(&index);
        assert_eq!(part.states(), whole.states());
        assert!((0..whole.states()).all(|n| part.local(n) == Some(n) && part.global(n) == n));
    }
}
