//! Circular boards (the reference work's section 5.4): the solver's results
//! at komi 0 for the small ones against the reference work's Table 5.8, and
//! what the symmetry of a cylinder gives a table.

use crate::rules::board::Board;
use crate::solver::{solve, Silent};
use crate::table::values::rating::root_result;

/// The reference work's Table 5.8 at komi 0 (`tests/published.csv`), for
/// the boards of at most 12 points: small enough to solve in a test.
#[test]
fn small_circular_boards_have_the_published_results() {
    let mut checked = 0;
    for (name, published) in super::published::figures("result") {
        let board: Board = name.parse().unwrap();
        if !board.is_circular() || board.points() > 12 {
            continue;
        }
        let solution = solve(board, &Silent).unwrap();
        let result = root_result(&solution).unwrap();
        assert_eq!(result, published, "{name}: solved {result}");
        checked += 1;
    }
    assert_eq!(checked, 16, "1x2c to 1x12c, 2x2c to 2x6c");
}

/// Boards of one or two columns have the plain board's adjacency, so the
/// same game: the same result, and the same legal positions, counted
/// through another symmetry group (2x2c has no transpositions).
#[test]
fn narrow_circular_boards_play_as_plain_ones() {
    for (circular, plain) in [
        ("1x1c", "1x1"),
        ("1x2c", "1x2"),
        ("2x2c", "2x2"),
        ("3x2c", "3x2"),
    ] {
        let circular = solve(circular.parse().unwrap(), &Silent).unwrap();
        let plain = solve(plain.parse().unwrap(), &Silent).unwrap();
        assert_eq!(
            circular.index().counts().legal_positions,
            plain.index().counts().legal_positions
        );
        assert_eq!(
            root_result(&circular).unwrap(),
            root_result(&plain).unwrap()
        );
    }
}
