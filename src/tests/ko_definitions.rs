//! Samples legal positions of a board and counts their ko points by two
//! definitions, to estimate each one's total number of ko states:
//!
//! - smallgo's (`Position::ko_points`, `docs/rules.md#states`): the opponent's last
//!   move captured one of our stones there from a legal position, so exactly
//!   one lone capturer touches the point and every other string around it
//!   had a liberty elsewhere before the capture;
//! - a permissive one: an empty point with only the opponent's stones
//!   around, one of them a lone stone whose only liberty is the point,
//!   whether or not a legal position could have come before.
//!
//! `SMALLGO_KO_DEFINITIONS="5x5 4000000 414295148741" cargo test --release
//! --lib ko_definitions -- --ignored --nocapture` (board, samples, the
//! board's legal positions) prints both estimates of the canonical ko
//! states (legal positions x ko points a position / the symmetries), to
//! compare with exact counts (`smallgo count`) and with figures from
//! elsewhere (docs/count.md). It is a measurement, not a check, so it runs
//! only when asked for.

use crate::rules::board::{Board, Point, PointSet};
use crate::rules::position::Position;
use crate::symmetry::symmetries;
use crate::tests::support::Rng;

/// The permissive definition's ko points of `position`.
fn permissive_ko_points(board: &Board, position: &Position) -> PointSet {
    let (them, empty) = (position.them(), position.empty_points(board));
    let lone = |stone: Point, point: Point| {
        let around = board.neighbours(stone);
        (around & them).is_empty() && (around & empty) == PointSet::single(point)
    };
    empty
        .iter()
        .filter(|&point| {
            let around = board.neighbours(point);
            around.is_subset_of(them) && around.iter().any(|stone| lone(stone, point))
        })
        .fold(PointSet::EMPTY, |set, point| set | PointSet::single(point))
}

#[test]
#[ignore = "a measurement: SMALLGO_KO_DEFINITIONS=\"RxC SAMPLES LEGAL_POSITIONS\""]
fn ko_definitions() {
    let arguments = std::env::var("SMALLGO_KO_DEFINITIONS").unwrap_or_default();
    let arguments: Vec<&str> = arguments.split_whitespace().collect();
    let fail = |what: &str| -> ! {
        panic!("SMALLGO_KO_DEFINITIONS: {what}; give \"RxC SAMPLES LEGAL_POSITIONS\"");
    };
    let [board, samples, legal] = arguments[..] else {
        fail("three words wanted");
    };
    let board: Board = board
        .parse()
        .unwrap_or_else(|e| fail(&format!("board '{board}': {e}")));
    let samples: u64 = samples
        .parse()
        .unwrap_or_else(|_| fail(&format!("'{samples}' is not a number of samples")));
    let legal: f64 = legal
        .parse()
        .unwrap_or_else(|_| fail(&format!("'{legal}' is not a count of legal positions")));
    let symmetries = symmetries(&board).len() as f64;
    let mut rng = Rng::new(7);
    let (mut drawn, mut ours, mut permissive) = (0u64, 0u64, 0u64);
    let mut squares = [0f64; 2];
    while drawn < samples {
        let (mut us, mut them) = (PointSet::EMPTY, PointSet::EMPTY);
        for point in 0..board.points() {
            match rng.below(3) {
                1 => us.insert(Point::new(point)),
                2 => them.insert(Point::new(point)),
                _ => {}
            }
        }
        let position = Position::new(us, them);
        if !position.is_legal(&board) {
            continue;
        }
        drawn += 1;
        let counts = [
            position.ko_points(&board).len() as u64,
            permissive_ko_points(&board, &position).len() as u64,
        ];
        ours += counts[0];
        permissive += counts[1];
        for (square, count) in squares.iter_mut().zip(counts) {
            *square += (count * count) as f64;
        }
    }
    let n = drawn as f64;
    for (name, total, square) in [
        ("smallgo's", ours, squares[0]),
        ("permissive", permissive, squares[1]),
    ] {
        let mean = total as f64 / n;
        let error = ((square / n - mean * mean) / n).sqrt();
        let scale = legal / symmetries;
        println!(
            "{name:<10} ko points a legal position {mean:.6}; ko states about {:.4e} (standard error {:.2e})",
            mean * scale,
            error * scale
        );
    }
    println!(
        "permissive / smallgo's: {:.4}",
        permissive as f64 / ours as f64
    );
}
