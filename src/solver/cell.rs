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

/// A test of a cell by two of its fields: whether `cell & mask == want` for
/// either of two (mask, want) pairs. A level's seeds and a layer's states are
/// both found this way, by scans over runs of cells (`matching`), so the
/// test is kept to two masked comparisons that run eight cells at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellTest {
    masks: [u32; 2],
    wants: [u32; 2],
}

/// The largest run `CellTest::matching` takes: one bit per cell of a word.
pub const RUN: usize = 64;

impl CellTest {
    /// The cells seeding threshold `level` can change (see `seeded`): A
    /// unknown and a second pass ending the game with margin `level`, or B
    /// unknown and a second pass giving the opponent `level`. Most cells of
    /// a level are not seeded; the test passes them by with no store.
    #[inline]
    pub fn seeds(level: i32, points: i32) -> CellTest {
        let for_a = margin_code(level, points);
        let for_b = margin_code(-level, points);
        CellTest {
            // A code zero and the margin in A's payload; B code zero and the
            // margin in B's top bits.
            masks: [A_MASK | A_PAYLOAD_MASK, B_MASK | CODE_MASK << B_SCORE_SHIFT],
            wants: [for_a << A_PAYLOAD_SHIFT, for_b << B_SCORE_SHIFT],
        }
    }

    /// The cells that became Win or Lose at the threshold with code `code`,
    /// at depth `depth` (`decided_won` or `decided_lost`).
    #[inline]
    pub fn decided(code: u32, depth: u32) -> CellTest {
        CellTest {
            masks: [A_MASK | A_PAYLOAD_MASK, B_MASK | B_PAYLOAD_MASK],
            wants: [
                code << A_SHIFT | depth << A_PAYLOAD_SHIFT,
                code << B_SHIFT | depth << B_PAYLOAD_SHIFT,
            ],
        }
    }

    /// Whether `cell` passes.
    #[inline(always)]
    pub fn matches(&self, cell: u32) -> bool {
        // `|` and not `||`: no branches.
        (cell & self.masks[0] == self.wants[0]) | (cell & self.masks[1] == self.wants[1])
    }

    /// Which of `cells` (at most `RUN`) pass: bit `i` for `cells[i]`.
    #[inline]
    pub fn matching(&self, cells: &[u32]) -> u64 {
        self.matching_by(cells.len(), |i| cells[i])
    }

    /// Which of `len` cells (at most `RUN`) pass, cell `i` read by
    /// `cell(i)`: bit `i` for cell `i`. Reading through a function lets the
    /// solver's layers pass atomic loads.
    #[inline(always)]
    pub fn matching_by(&self, len: usize, cell: impl Fn(usize) -> u32) -> u64 {
        debug_assert!(len <= RUN);
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        if len == RUN {
            // SAFETY: the build enables AVX2 for every function (the `cfg`
            // above), so the CPU that runs this code has it.
            return unsafe { vector::matching(self, cell) };
        }
        (0..len).fold(0, |bits, i| bits | (self.matches(cell(i)) as u64) << i)
    }
}

/// `CellTest::matching_by` on a full run, eight cells to a vector.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod vector {
    use super::{CellTest, RUN};
    use std::arch::x86_64::*;

    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn matching(test: &CellTest, cell: impl Fn(usize) -> u32) -> u64 {
        let splat = |x: u32| _mm256_set1_epi32(x as i32);
        let (mask_a, mask_b) = (splat(test.masks[0]), splat(test.masks[1]));
        let (want_a, want_b) = (splat(test.wants[0]), splat(test.wants[1]));
        let mut bits = 0u64;
        for k in 0..RUN / 8 {
            let c = |i: usize| cell(8 * k + i) as i32;
            let v = _mm256_setr_epi32(c(0), c(1), c(2), c(3), c(4), c(5), c(6), c(7));
            let a = _mm256_cmpeq_epi32(_mm256_and_si256(v, mask_a), want_a);
            let b = _mm256_cmpeq_epi32(_mm256_and_si256(v, mask_b), want_b);
            let hits = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_or_si256(a, b)));
            bits |= (hits as u8 as u64) << (8 * k);
        }
        bits
    }
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
                let seeds = |cell| CellTest::seeds(level, n).matches(cell);
                let changed = seeded(cell, level, n) != (cell, 0);
                assert!(
                    !changed || seeds(cell),
                    "{cell:#x} at {level} on {n} points"
                );
                if !seeds(cell) {
                    assert_eq!(seeded(cell, level, n), (cell, 0));
                }
            }
        }
    }

    /// The two-field tests against the field accessors, and the runs
    /// (eight cells to a vector) against one cell at a time.
    #[test]
    fn cell_tests_agree_with_the_fields() {
        let mut rng = crate::testing::Rng::new(0xce11_7e57);
        let n = 21;
        for _ in 0..2_000 {
            let level = rng.below(2 * n as u64 + 1) as i32 - n;
            let code = margin_code(level, n);
            let depth = rng.below(8) as u32;
            let tests = [CellTest::seeds(level, n), CellTest::decided(code, depth)];
            // Cells built to pass, and arbitrary words.
            let cells: Vec<u32> = (0..RUN)
                .map(|_| match rng.below(4) {
                    0 => fresh(1, Some(level), n),
                    1 => with_mover(0, code, depth).expect("A unknown"),
                    2 => with_opponent(0, code, depth),
                    _ => rng.below(1 << 32) as u32,
                })
                .collect();
            for &cell in &cells {
                let a_unknown = mover_margin(cell, n).is_none();
                let b_unknown = opponent_margin(cell, n).is_none();
                let seeds_a = a_unknown && mover_depth(cell) == margin_code(level, n);
                let seeds_b = b_unknown && cell >> B_SCORE_SHIFT == margin_code(-level, n);
                assert_eq!(tests[0].matches(cell), seeds_a || seeds_b, "{cell:#x}");
                assert_eq!(
                    tests[1].matches(cell),
                    decided_won(cell, code, depth) || decided_lost(cell, code, depth),
                    "{cell:#x}"
                );
            }
            for test in tests {
                for len in [RUN, RUN - 1, 9, 0] {
                    let run = &cells[..len];
                    let bits = test.matching(run);
                    for (i, &cell) in run.iter().enumerate() {
                        assert_eq!(bits >> i & 1 == 1, test.matches(cell), "cell {i} of {len}");
                    }
                    if len < RUN {
                        assert_eq!(bits >> len, 0, "no bits past the run");
                    }
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
