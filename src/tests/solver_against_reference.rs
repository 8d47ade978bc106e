//! The solver against the plain reference (`support::reference`): every
//! state of every small board, plain, circular and of small shapes (walls,
//! holes, open sides), at komi -2, 0, 0.5 and 6.5, must
//! get the same forced scores and plies for both sides, and the same result.

use std::collections::HashSet;

use crate::rules::board::Board;
use crate::rules::value::Outcome;
use crate::solver::{solve, Silent};
use crate::tests::support::reference::{Forced, ReferenceGame};

const KOMI_HALVES: [i32; 4] = [-4, 0, 1, 13];

fn check_board(name: &str) {
    let board: Board = name.parse().unwrap();
    let solution = solve(board, &Silent).unwrap();
    let game = ReferenceGame::explore(&board);
    // The reference reaches every canonical state and no other.
    let mut numbers = HashSet::new();
    for state in &game.states {
        let number = solution
            .index()
            .rank(&state.mover_view())
            .unwrap_or_else(|| panic!("{name}: {state:?} is not in the index"));
        numbers.insert(number);
    }
    assert_eq!(
        numbers.len() as u64,
        solution.index().counts().states,
        "{name}: state count"
    );

    for komi_halves in KOMI_HALVES {
        let komi = komi_halves as f64 / 2.0;
        let reference = game.solve(komi_halves);
        for (state, expected) in game.states.iter().zip(&reference) {
            let value = solution.probe(&state.mover_view()).unwrap().unwrap();
            let mover = Forced {
                half_points: 0,
                plies: value.mover_depth as u32,
            };
            let opponent = Forced {
                half_points: 0,
                plies: value.opponent_depth as u32,
            };
            // A and B in half points, komi applied for each side's colour.
            let black_komi = if state.black_to_move {
                -komi_halves
            } else {
                komi_halves
            };
            let mover_forced = value.mover_margin.map(|a| Forced {
                half_points: 2 * a as i32 + black_komi,
                ..mover
            });
            let opponent_forced = value.opponent_margin.map(|b| Forced {
                half_points: 2 * b as i32 - black_komi,
                ..opponent
            });
            let (black, white) = if state.black_to_move {
                (mover_forced, opponent_forced)
            } else {
                (opponent_forced, mover_forced)
            };
            assert_eq!(
                (black, white),
                (expected.black, expected.white),
                "{name} komi {komi}: {state:?} has {value}"
            );
            // The result read through `Value::outcome` agrees too.
            let expected_outcome = match (expected.black, expected.white) {
                (Some(b), _) if b.half_points > 0 => Some(true),
                (_, Some(w)) if w.half_points > 0 => Some(false),
                _ => None,
            };
            let outcome = value.outcome(komi, state.black_to_move);
            let black_won = match outcome {
                Outcome::MoverWins { .. } => Some(state.black_to_move),
                Outcome::OpponentWins { .. } => Some(!state.black_to_move),
                Outcome::Draw => None,
            };
            assert_eq!(black_won, expected_outcome, "{name} komi {komi}: {state:?}");
            let margin = outcome.black_margin(state.black_to_move);
            let expected_margin = match (expected_outcome, expected.black, expected.white) {
                (Some(true), Some(b), _) => b.half_points as f64 / 2.0,
                (Some(false), _, Some(w)) => -(w.half_points as f64) / 2.0,
                _ => 0.0,
            };
            assert_eq!(margin, expected_margin, "{name} komi {komi}: {state:?}");
        }
    }
}

#[test]
fn lines_1x1_to_1x6() {
    for name in ["1x1", "1x2", "1x3", "1x4", "1x5", "1x6"] {
        check_board(name);
    }
}

#[test]
fn board_2x2_and_2x3() {
    check_board("2x2");
    check_board("2x3");
}

#[test]
fn board_2x4() {
    check_board("2x4");
}

#[test]
fn board_3x3() {
    check_board("3x3");
}

#[test]
fn circular_lines_1x1c_to_1x6c() {
    for name in ["1x1c", "1x2c", "1x3c", "1x4c", "1x5c", "1x6c"] {
        check_board(name);
    }
}

#[test]
fn circular_2x2c_to_2x4c() {
    for name in ["2x2c", "2x3c", "2x4c"] {
        check_board(name);
    }
}

#[test]
fn circular_3x3c() {
    check_board("3x3c");
}

/// Shapes without open sides: an L, a longer one, a plus, two rings around
/// holes and two pieces apart on one row.
#[test]
fn shapes_with_walls() {
    for name in [
        ".##/.##/...",
        "..#/..#/...",
        "#.#/.../#.#",
        ".../.#./...",
        "..../.##./....",
        "..#..",
    ] {
        check_board(name);
    }
}

/// Shapes with open sides: at a corner, at both ends, at the edge and in
/// the hole of a ring, beside single points, and one whose open cell alone
/// breaks the flip its points have.
#[test]
fn shapes_with_open_sides() {
    for name in [
        "..+/...",
        "+..+/....",
        ".+./.../...",
        ".../.+./...",
        "+.#/..+",
        "+.+",
        "+../#..",
    ] {
        check_board(name);
    }
}
