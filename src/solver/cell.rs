//! A state's value packed in 32 bits: how the solve's values are held once
//! they are turned back from its spools (`lean::LoggedValues`), a partition
//! at a time, for the table writer.
//!
//! ```text
//!  bits  0..6   A code: 0 while unknown, else A + N + 1
//!  bits  6..12  B code: 0 while unknown, else B + N + 1
//!  bits 12..21  dA, once A is known
//!  bits 21..32  dB, once B is known
//! ```

const A_SHIFT: u32 = 0;
const B_SHIFT: u32 = 6;
const A_DEPTH_SHIFT: u32 = 12;
const B_DEPTH_SHIFT: u32 = 21;

const CODE_MASK: u32 = 0x3f;
const A_MASK: u32 = CODE_MASK << A_SHIFT;
const B_MASK: u32 = CODE_MASK << B_SHIFT;
const A_DEPTH_MASK: u32 = 0x1ff << A_DEPTH_SHIFT;
const B_DEPTH_MASK: u32 = 0x7ff << B_DEPTH_SHIFT;

/// The largest dA a cell holds.
pub const MAX_MOVER_DEPTH: u32 = 0x1ff;
/// The largest dB a cell holds.
pub const MAX_OPPONENT_DEPTH: u32 = 0x7ff;

/// A margin `m` in `-N..=N` as a code in `1..=2N+1`.
#[inline]
pub fn margin_code(margin: i32, points: i32) -> u32 {
    (margin + points + 1) as u32
}

#[inline]
fn code_margin(code: u32, points: i32) -> i32 {
    code as i32 - points - 1
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
    (cell & A_DEPTH_MASK) >> A_DEPTH_SHIFT
}

/// dB (meaningful once B is known).
#[inline]
pub fn opponent_depth(cell: u32) -> u32 {
    (cell & B_DEPTH_MASK) >> B_DEPTH_SHIFT
}

/// The cell with A and dA set, if A is still unknown.
#[inline]
pub fn with_mover(old: u32, code: u32, depth: u32) -> Option<u32> {
    debug_assert!(depth <= MAX_MOVER_DEPTH);
    (old & A_MASK == 0)
        .then_some((old & !(A_MASK | A_DEPTH_MASK)) | code << A_SHIFT | depth << A_DEPTH_SHIFT)
}

/// The cell with B and dB set.
#[inline]
pub fn with_opponent(old: u32, code: u32, depth: u32) -> u32 {
    debug_assert!(depth <= MAX_OPPONENT_DEPTH);
    (old & !(B_MASK | B_DEPTH_MASK)) | code << B_SHIFT | depth << B_DEPTH_SHIFT
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_do_not_disturb_each_other() {
        let n = 21;
        let cell = with_mover(0, margin_code(3, n), 17).unwrap();
        assert_eq!(with_mover(cell, margin_code(2, n), 19), None);
        let cell = with_opponent(cell, margin_code(-n, n), MAX_OPPONENT_DEPTH);
        assert_eq!((mover_margin(cell, n), mover_depth(cell)), (Some(3), 17));
        assert_eq!(
            (opponent_margin(cell, n), opponent_depth(cell)),
            (Some(-n), MAX_OPPONENT_DEPTH)
        );
        let cell = with_opponent(0, margin_code(n, n), 1);
        assert_eq!(mover_margin(cell, n), None);
        assert_eq!(opponent_margin(cell, n), Some(n));
        let cell = with_mover(0, margin_code(-n, n), MAX_MOVER_DEPTH).unwrap();
        assert_eq!(mover_margin(cell, n), Some(-n));
        assert_eq!(mover_depth(cell), MAX_MOVER_DEPTH);
    }
}
