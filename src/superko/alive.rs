//! Points a side keeps whatever the history: its unconditionally alive
//! strings (Benson's algorithm) and their one-point eyes, on a plain board.
//! They give proven bounds on a state's value under superko for every seen
//! set (`safe_points`), which the solver uses wherever the bound settles a
//! search window (`super::solve::Options::alive`).
//!
//! The regions are the maximal connected sets of points that hold no stone
//! of the side (empty points and the opponent's stones). A region is
//! healthy for a string it touches when every empty point of the region is
//! a liberty of that string. Starting from every string and every region
//! that touches one, strings with fewer than two healthy regions are
//! dropped, then every region that touches a dropped string, until nothing
//! changes. The strings left are unconditionally alive: while the side
//! only passes, no sequence of the opponent's placements captures one, for
//! to capture it the opponent would have to fill the last empty point of
//! each of its two healthy regions, and the first such stone touches only
//! the alive strings (each with a liberty in another healthy region) and
//! its own stones of that region, which have no other liberty: suicide.
//! The same argument keeps a *one-point eye* (an empty point all of whose
//! neighbours are alive stones) empty: a stone there captures nothing and
//! has no liberty. Superko only takes placements away from the opponent, and
//! a pass is always legal, so all of it holds under any history.
//!
//! The bound: if the side passes at every turn the game still ends (every
//! game does), its alive stones and one-point eyes are then its area, so
//! with A such points on a board of n its final margin is at least
//! A - (n - A) = 2A - n, whoever is to move and whatever was seen. The
//! mover's value is therefore at least 2A_us - n and at most n - 2A_them.

use crate::rules::benson;
use crate::rules::board::{Board, PointSet};

/// At most this many strings or regions are tracked (a board of at most 25
/// points has at most 13 strings of one side and 13 regions between them).
const MAX_PARTS: usize = 32;

/// The points `side` keeps whatever either side plays, `side` passing at
/// every turn: its unconditionally alive stones and their one-point eyes.
/// `other` is the opponent's stones.
pub fn safe_points(board: &Board, side: PointSet, other: PointSet) -> PointSet {
    if side.is_empty() {
        return PointSet::EMPTY;
    }
    let all = board.all();
    let empty = all - side - other;
    let mut strings = [PointSet::EMPTY; MAX_PARTS];
    let mut liberties = [PointSet::EMPTY; MAX_PARTS];
    let mut string_count = 0;
    let mut pending = side;
    while let Some(point) = pending.first() {
        if string_count == MAX_PARTS {
            return PointSet::EMPTY;
        }
        let string = board.flood(PointSet::single(point), side);
        strings[string_count] = string;
        liberties[string_count] = board.adjacent(string) & empty;
        string_count += 1;
        pending = pending - string;
    }

    // healthy[r]: the strings (a bit mask of string numbers) for which
    // region r is healthy; borders[r]: the strings it touches.
    let mut healthy = [0u64; MAX_PARTS];
    let mut borders = [0u64; MAX_PARTS];
    let mut region_count = 0;
    let mut pending = all - side;
    while let Some(point) = pending.first() {
        let region = board.flood(PointSet::single(point), all - side);
        pending = pending - region;
        let around = board.adjacent(region);
        if (around & side).is_empty() {
            continue;
        }
        if region_count == MAX_PARTS {
            return PointSet::EMPTY;
        }
        let region_empty = region & empty;
        for s in 0..string_count {
            if !(around & strings[s]).is_empty() {
                borders[region_count] |= 1 << s;
                if region_empty.is_subset_of(liberties[s]) {
                    healthy[region_count] |= 1 << s;
                }
            }
        }
        region_count += 1;
    }

    let alive = benson::alive_strings(string_count, region_count, &healthy, &borders);
    let mut stones = PointSet::EMPTY;
    let mut left = alive;
    while left != 0 {
        let s = left.trailing_zeros() as usize;
        left &= left - 1;
        stones |= strings[s];
    }
    if stones.is_empty() {
        return stones;
    }
    // One-point eyes: empty points with every neighbour an alive stone.
    let not_alive = all - stones;
    let eyes = empty - board.adjacent(not_alive);
    stones | eyes
}
