//! Unconditional life (Benson's algorithm) on a problem's board: the
//! defender's strings that the attacker can never capture, whatever either
//! side plays, even if the defender passes at every turn.
//!
//! The regions are the maximal connected sets of points that hold no
//! defender stone (empty points and attacker stones); walls are no points,
//! so they bound regions and give no liberty. A region is healthy for a
//! string it touches when every empty point of the region is a liberty of
//! that string. Starting from every string and every region, strings with
//! fewer than two healthy regions are dropped, then every region that
//! touches a dropped string, until nothing changes. The strings left are
//! unconditionally alive: to capture one the attacker would have to fill
//! the last liberty in each of its two healthy regions, and the first of
//! those stones is suicide (it touches only the string, its own stones of
//! that region, already without other liberties, and walls). A region
//! holding a safe stone (a point with an open side: the attacker's, as a
//! defender's is in no region) is healthy for no string, since the
//! attacker's stones joined to it never lack a liberty. The argument
//! uses no ko rule and no pass, so it holds under every ko assumption.

use crate::rules::benson;
use crate::rules::board::{Board, PointSet};

/// At most this many strings or regions are tracked; a position with more
/// is reported as having nothing unconditionally alive (a safe answer:
/// the solver then just searches on).
const MAX_PARTS: usize = 64;

/// A board's points, its adjacency (by the board's shifts, a handful of
/// word operations a step whatever the set), and its points with an open
/// side (safe stones, whose strings are never captured).
pub(crate) struct Adjacency {
    board: Board,
    all: u64,
    open: u64,
}

impl Adjacency {
    pub(crate) fn new(board: &Board) -> Adjacency {
        Adjacency {
            board: *board,
            all: board.all().bits(),
            open: board.open().bits(),
        }
    }

    #[inline]
    fn adjacent(&self, set: u64) -> u64 {
        self.board.adjacent(PointSet(set)).bits()
    }

    /// The points of `within` connected to the points `seed` through
    /// `within`.
    #[inline]
    fn flood(&self, seed: u64, within: u64) -> u64 {
        let mut filled = seed;
        let mut frontier = seed;
        while frontier != 0 {
            frontier = self.adjacent(frontier) & within & !filled;
            filled |= frontier;
        }
        filled
    }
}

/// The defender's stones that are unconditionally alive in the position
/// (`defender` and `attacker` are stone sets on the board of `board`).
pub(crate) fn unconditionally_alive(board: &Adjacency, defender: u64, attacker: u64) -> u64 {
    let all = board.all;
    let empty = all & !defender & !attacker;
    let adjacent = |set: u64| board.adjacent(set);
    let flood = |seed: u64, within: u64| board.flood(seed, within);

    let mut strings = [0u64; MAX_PARTS];
    let mut string_count = 0;
    let mut pending = defender;
    while pending != 0 {
        if string_count == MAX_PARTS {
            return 0;
        }
        let string = flood(pending & pending.wrapping_neg(), defender);
        strings[string_count] = string;
        string_count += 1;
        pending &= !string;
    }
    if string_count == 0 {
        return 0;
    }
    let mut liberties = [0u64; MAX_PARTS];
    for i in 0..string_count {
        liberties[i] = adjacent(strings[i]) & empty;
    }

    // Regions that touch at least one defender string (the others can be
    // healthy for nobody and border nobody).
    let mut regions = [0u64; MAX_PARTS];
    let mut region_count = 0;
    let mut pending = all & !defender;
    while pending != 0 {
        let region = flood(pending & pending.wrapping_neg(), all & !defender);
        pending &= !region;
        if adjacent(region) & defender == 0 {
            continue;
        }
        if region_count == MAX_PARTS {
            return 0;
        }
        regions[region_count] = region;
        region_count += 1;
    }

    // healthy[r]: the strings (as a bit mask of string numbers) for which
    // region r is healthy; borders[r]: the strings it touches.
    let mut healthy = [0u64; MAX_PARTS];
    let mut borders = [0u64; MAX_PARTS];
    for r in 0..region_count {
        let around = adjacent(regions[r]);
        let region_empty = regions[r] & empty;
        // A region with a safe stone of the attacker's is healthy for
        // nobody: the attacker's stones joined to it never run out of
        // liberties, so they may fill its last empty point.
        let holds_safe = regions[r] & board.open != 0;
        for s in 0..string_count {
            if around & strings[s] != 0 {
                borders[r] |= 1 << s;
                if !holds_safe && region_empty & !liberties[s] == 0 {
                    healthy[r] |= 1 << s;
                }
            }
        }
    }

    let alive_strings = benson::alive_strings(string_count, region_count, &healthy, &borders);
    let mut stones = 0;
    let mut left = alive_strings;
    while left != 0 {
        let s = left.trailing_zeros() as usize;
        left &= left - 1;
        stones |= strings[s];
    }
    stones
}
