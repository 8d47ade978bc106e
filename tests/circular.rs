//! Circular boards (the reference work's section 5.4): the solver's results
//! at komi 0 for the small ones against the reference work's Table 5.8, and
//! what the symmetry of a cylinder gives a table.

use smallgo::analysis::root_result;
use smallgo::board::Board;
use smallgo::solver::{solve, Silent};

/// The reference work's Table 5.8 at komi 0, for the boards small enough to
/// solve in a test.
const PUBLISHED: &[(&str, &str)] = &[
    ("1x2c", "draw"),
    ("1x3c", "draw"),
    ("1x4c", "draw"),
    ("1x5c", "draw"),
    ("1x6c", "draw"),
    ("1x7c", "B+1"),
    ("2x2c", "draw"),
    ("2x3c", "draw"),
    ("2x4c", "draw"),
    ("2x5c", "draw"),
    ("2x6c", "B+1"),
];

#[test]
fn small_circular_boards_have_the_published_results() {
    for &(name, published) in PUBLISHED {
        let board: Board = name.parse().unwrap();
        let solution = solve(board, &Silent).unwrap();
        let result = root_result(&solution).unwrap();
        assert_eq!(result, published, "{name}: solved {result}");
    }
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
