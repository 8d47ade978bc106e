//! The solver's working record of one state, packed in 32 bits.
//!
//! ```text
//!  bits  0..6   A code: 0 while unknown, else A + N + 1
//!  bits  6..12  B code: 0 while unknown, else B + N + 1
//!  bits 12..21  A payload: dA once A is known; before that, for a state
//!               after a pass, the code of the margin a second pass ends with
//!  bits 21..32  B payload: dB once B is known; before that, the count of
//!               children not yet won (bits 21..26) and, for a state after a
//!               pass, the same margin code (bits 26..32)
//! ```
//!
//! Each field is written by whichever thread decides it, with compare-and-swap
//! on the whole word, so two threads may work on one state at once.

use std::sync::atomic::{AtomicU32, Ordering};

const A_SHIFT: u32 = 0;
const B_SHIFT: u32 = 6;
const A_PAYLOAD_SHIFT: u32 = 12;
const B_PAYLOAD_SHIFT: u32 = 21;
const COUNT_SHIFT: u32 = 21;
const B_SCORE_SHIFT: u32 = 26;

const CODE_MASK: u32 = 0x3f;
const A_MASK: u32 = CODE_MASK << A_SHIFT;
const B_MASK: u32 = CODE_MASK << B_SHIFT;
const A_PAYLOAD_MASK: u32 = 0x1ff << A_PAYLOAD_SHIFT;
const B_PAYLOAD_MASK: u32 = 0x7ff << B_PAYLOAD_SHIFT;
const COUNT_MASK: u32 = 0x1f;

/// The largest dA a cell holds.
pub const MAX_MOVER_DEPTH: u32 = 0x1ff;
/// The largest dB a cell holds.
pub const MAX_OPPONENT_DEPTH: u32 = 0x7ff;
/// The most children a cell counts.
pub const MAX_CHILDREN: u32 = COUNT_MASK;

/// A margin `m` in `-N..=N` as a code in `1..=2N+1`.
#[inline]
pub fn margin_code(margin: i32, points: i32) -> u32 {
    (margin + points + 1) as u32
}

#[inline]
fn code_margin(code: u32, points: i32) -> i32 {
    code as i32 - points - 1
}

/// A fresh cell: nothing known, `children` children to win, and for a state
/// after a pass the margin a second pass ends the game with.
pub fn fresh(children: u32, pass_margin: Option<i32>, points: i32) -> u32 {
    debug_assert!((1..=MAX_CHILDREN).contains(&children));
    let mut cell = children << COUNT_SHIFT;
    if let Some(margin) = pass_margin {
        let code = margin_code(margin, points);
        cell |= code << A_PAYLOAD_SHIFT | code << B_SCORE_SHIFT;
    }
    cell
}

/// A, if known.
#[inline]
pub fn mover_margin(cell: u32, points: i32) -> Option<i32> {
    let code = (cell & A_MASK) >> A_SHIFT;
    (code != 0).then(|| code_margin(code, points))
}

/// B, if known.
#[inline]
pub fn opponent_margin(cell: u32, points: i32) -> Option<i32> {
    let code = (cell & B_MASK) >> B_SHIFT;
    (code != 0).then(|| code_margin(code, points))
}

/// dA (meaningful once A is known).
#[inline]
pub fn mover_depth(cell: u32) -> u32 {
    (cell & A_PAYLOAD_MASK) >> A_PAYLOAD_SHIFT
}

/// dB (meaningful once B is known).
#[inline]
pub fn opponent_depth(cell: u32) -> u32 {
    (cell & B_PAYLOAD_MASK) >> B_PAYLOAD_SHIFT
}

/// The margin a second pass ends the game with, while A is unknown.
#[inline]
pub fn pass_margin_before_a(cell: u32, points: i32) -> Option<i32> {
    let code = (cell & A_PAYLOAD_MASK) >> A_PAYLOAD_SHIFT;
    (cell & A_MASK == 0 && code != 0).then(|| code_margin(code, points))
}

/// The margin a second pass ends the game with, while B is unknown.
#[inline]
pub fn pass_margin_before_b(cell: u32, points: i32) -> Option<i32> {
    let code = cell >> B_SCORE_SHIFT;
    (cell & B_MASK == 0 && code != 0).then(|| code_margin(code, points))
}

/// The count of children not yet won, while B is unknown.
#[inline]
pub fn children_left(cell: u32) -> u32 {
    (cell >> COUNT_SHIFT) & COUNT_MASK
}

/// Whether the cell became Win at the threshold with code `code`, at depth
/// `depth`.
#[inline]
pub fn decided_won(cell: u32, code: u32, depth: u32) -> bool {
    cell & (A_MASK | A_PAYLOAD_MASK) == code << A_SHIFT | depth << A_PAYLOAD_SHIFT
}

/// Whether the cell became Lose at the threshold with code `code`, at depth
/// `depth`.
#[inline]
pub fn decided_lost(cell: u32, code: u32, depth: u32) -> bool {
    cell & (B_MASK | B_PAYLOAD_MASK) == code << B_SHIFT | depth << B_PAYLOAD_SHIFT
}

/// The cell with A and dA set, if A is still unknown.
#[inline]
pub fn with_mover(old: u32, code: u32, depth: u32) -> Option<u32> {
    (old & A_MASK == 0)
        .then_some((old & !(A_MASK | A_PAYLOAD_MASK)) | code << A_SHIFT | depth << A_PAYLOAD_SHIFT)
}

/// The cell with one more child won, and whether it was the last (then B
/// must be set).
#[inline]
pub fn with_child_won(old: u32) -> (u32, bool) {
    debug_assert!(old & B_MASK == 0 && children_left(old) > 0);
    (old - (1 << COUNT_SHIFT), children_left(old) == 1)
}

/// The cell with B and dB set.
#[inline]
pub fn with_opponent(old: u32, code: u32, depth: u32) -> u32 {
    (old & !(B_MASK | B_PAYLOAD_MASK)) | code << B_SHIFT | depth << B_PAYLOAD_SHIFT
}

/// Sets A and dA if A is still unknown; true if this call set it.
#[inline]
pub fn set_mover(cell: &AtomicU32, code: u32, depth: u32) -> bool {
    let mut old = cell.load(Ordering::Relaxed);
    loop {
        let Some(new) = with_mover(old, code, depth) else {
            return false;
        };
        match cell.compare_exchange_weak(old, new, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return true,
            Err(current) => old = current,
        }
    }
}

/// One more child is won; true if it was the last, in which case the caller
/// must set B.
#[inline]
pub fn child_won(cell: &AtomicU32) -> bool {
    let old = cell.fetch_sub(1 << COUNT_SHIFT, Ordering::Relaxed);
    debug_assert!(old & B_MASK == 0 && children_left(old) > 0);
    children_left(old) == 1
}

/// Sets B and dB (the caller saw the last child won).
#[inline]
pub fn set_opponent(cell: &AtomicU32, code: u32, depth: u32) {
    let mut old = cell.load(Ordering::Relaxed);
    loop {
        let new = with_opponent(old, code, depth);
        match cell.compare_exchange_weak(old, new, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return,
            Err(current) => old = current,
        }
    }
}

/// Applies one update to a cell no other thread touches: a child won
/// (`child_won`) counts the cell down and makes it Lose at zero, else the
/// cell becomes Win. Gives the new cell and whether this decided it.
#[inline]
pub fn with_update(old: u32, child_won: bool, code: u32, depth: u32) -> (u32, bool) {
    if child_won {
        let (counted, last) = with_child_won(old);
        if last {
            (with_opponent(counted, code, depth), true)
        } else {
            (counted, false)
        }
    } else {
        match with_mover(old, code, depth) {
            Some(new) => (new, true),
            None => (old, false),
        }
    }
}

/// Whether seeding threshold `level` can change `cell` (see `seeded`):
/// its A is unknown and a second pass ends the game with margin `level`,
/// or its B is unknown and a second pass gives the opponent `level`. Most
/// cells of a level are not seeded; this lets a scan pass them by with a
/// few operations and no store.
#[inline(always)]
pub fn seeds(cell: u32, level: i32, points: i32) -> bool {
    let for_a = margin_code(level, points);
    let for_b = margin_code(-level, points);
    // `&` and not `&&`: no branches, so that a scan can run in vectors.
    let a = (cell & A_MASK == 0) & ((cell & A_PAYLOAD_MASK) >> A_PAYLOAD_SHIFT == for_a);
    let b = (cell & B_MASK == 0) & (cell >> B_SCORE_SHIFT == for_b);
    a | b
}

/// The first step of threshold `level` for a state after a pass, which no
/// other thread touches: Win at depth 1 if a second pass ends the game with
/// margin `level`; one more child won if it gives the opponent `level`
/// (Lose at depth 1 if it was the last). Gives the new cell and how many
/// of the two it became (0, 1 or both), counted as the layers count flips.
#[inline]
pub fn seeded(old: u32, level: i32, points: i32) -> (u32, u32) {
    let code = margin_code(level, points);
    let mut cell = old;
    let mut flips = 0;
    if pass_margin_before_a(cell, points) == Some(level) {
        if let Some(new) = with_mover(cell, code, 1) {
            cell = new;
            flips += 1;
        }
    }
    if pass_margin_before_b(old, points) == Some(-level) {
        let (counted, last) = with_child_won(cell);
        cell = if last {
            with_opponent(counted, code, 1)
        } else {
            counted
        };
        flips += last as u32;
    }
    (cell, flips)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_tells_which_cells_seeding_changes() {
        let mut rng = crate::testing::Rng::new(0x5eed_5eed);
        for n in [3, 16, 21] {
            for _ in 0..200_000 {
                // Fresh cells after a pass, and arbitrary words.
                let cell = if rng.below(2) == 0 {
                    let margin = rng.below(2 * n as u64 + 1) as i32 - n;
                    fresh(1 + rng.below(MAX_CHILDREN as u64) as u32, Some(margin), n)
                } else {
                    rng.below(1 << 32) as u32
                };
                // No cell waits for its B with no child left to win: the
                // last child won sets B. Such words are not cells, and
                // counting one down trips `with_child_won`'s check.
                if cell & B_MASK == 0 && children_left(cell) == 0 {
                    continue;
                }
                let level = rng.below(2 * n as u64 + 1) as i32 - n;
                let changed = seeded(cell, level, n) != (cell, 0);
                assert!(
                    !changed || seeds(cell, level, n),
                    "{cell:#x} at {level} on {n} points"
                );
                if !seeds(cell, level, n) {
                    assert_eq!(seeded(cell, level, n), (cell, 0));
                }
            }
        }
    }

    #[test]
    fn fields_do_not_disturb_each_other() {
        let n = 21;
        let cell = AtomicU32::new(fresh(7, Some(-5), n));
        let c = cell.load(Ordering::Relaxed);
        assert_eq!(children_left(c), 7);
        assert_eq!(pass_margin_before_a(c, n), Some(-5));
        assert_eq!(pass_margin_before_b(c, n), Some(-5));
        assert_eq!(mover_margin(c, n), None);
        assert!(set_mover(&cell, margin_code(3, n), 17));
        assert!(!set_mover(&cell, margin_code(2, n), 19));
        let c = cell.load(Ordering::Relaxed);
        assert_eq!((mover_margin(c, n), mover_depth(c)), (Some(3), 17));
        assert_eq!(pass_margin_before_a(c, n), None);
        assert_eq!(pass_margin_before_b(c, n), Some(-5));
        for left in (1..7).rev() {
            assert!(!child_won(&cell));
            assert_eq!(children_left(cell.load(Ordering::Relaxed)), left);
        }
        assert!(child_won(&cell));
        set_opponent(&cell, margin_code(-n, n), MAX_OPPONENT_DEPTH);
        let c = cell.load(Ordering::Relaxed);
        assert_eq!(
            (opponent_margin(c, n), opponent_depth(c)),
            (Some(-n), MAX_OPPONENT_DEPTH)
        );
        assert_eq!((mover_margin(c, n), mover_depth(c)), (Some(3), 17));
        let fresh_cell = fresh(MAX_CHILDREN, None, 30);
        assert_eq!(pass_margin_before_a(fresh_cell, 30), None);
        assert_eq!(children_left(fresh_cell), MAX_CHILDREN);
    }
}
