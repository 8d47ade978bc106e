//! `analyze rule-1xn`: the check of White's line rules against a brute
//! force that reads no table. On small lines, plain and circular, at
//! several komis, the brute force builds the game where Black plays any
//! move and White the rule's, and finds the states Black can force a win
//! from, counting the final boards itself; the rule holds exactly when the
//! empty board is not one of them. The table check must say the same, find
//! a counterexample exactly when it fails, and that counterexample must
//! replay from the empty board.

use std::collections::HashMap;

use crate::analysis::Values;
use crate::board::Board;
use crate::line_rule::{check, Extent, LineRule, Rule};
use crate::moves::Move;
use crate::solver::{solve, Silent, Solution};
use crate::state::{Child, State};

const KOMIS: [f64; 4] = [0.0, 0.5, -0.5, 2.0];

/// Whether Black can force a win against `rule` from the empty board, by a
/// least fixed point over the game the rule leaves (never-ending play is a
/// draw).
fn black_forces_a_win(values: &dyn Values, rule: Rule, komi: f64) -> bool {
    let board = values.board();
    // For each state with Black to move: per Black move, what follows.
    enum Next {
        BlackWins,
        NotAWin,
        State(usize),
    }
    let mut numbers: HashMap<State, usize> = HashMap::from([(State::start(), 0)]);
    let mut states = vec![State::start()];
    let mut moves: Vec<Vec<Next>> = Vec::new();
    let ended = |black_margin: f64| {
        if black_margin > 0.0 {
            Next::BlackWins
        } else {
            Next::NotAWin
        }
    };
    let mut next = 0;
    while next < states.len() {
        let black = states[next];
        next += 1;
        let mut row = Vec::new();
        for black_move in black.legal_moves(&board) {
            row.push(match black.play(&board, black_move).unwrap() {
                Child::End { margin } => ended(margin as f64 - komi),
                Child::State(white) => {
                    let mv = rule.white_move(values, &white, black_move, komi).unwrap();
                    match white.play(&board, mv) {
                        None => Next::BlackWins,
                        Some(Child::End { margin }) => ended(-(margin as f64) - komi),
                        Some(Child::State(after)) => {
                            let count = numbers.len();
                            let number = *numbers.entry(after).or_insert(count);
                            if number == states.len() {
                                states.push(after);
                            }
                            Next::State(number)
                        }
                    }
                }
            });
        }
        moves.push(row);
    }
    let mut wins = vec![false; states.len()];
    loop {
        let mut changed = false;
        for (number, row) in moves.iter().enumerate() {
            if !wins[number]
                && row.iter().any(|next| match next {
                    Next::BlackWins => true,
                    Next::NotAWin => false,
                    Next::State(after) => wins[*after],
                })
            {
                wins[number] = true;
                changed = true;
            }
        }
        if !changed {
            return wins[0];
        }
    }
}

/// Plays `moves` from the empty board, Black first; the state reached.
fn replay(board: &Board, moves: &[Move]) -> State {
    moves.iter().fold(State::start(), |state, &mv| {
        match state
            .play(board, mv)
            .expect("the counterexample's moves are legal")
        {
            Child::State(next) => next,
            Child::End { .. } => panic!("the counterexample's moves end the game"),
        }
    })
}

fn check_board(name: &str) {
    let board: Board = name.parse().unwrap();
    let solution: Solution = solve(board, &Silent).unwrap();
    for komi in KOMIS {
        for rule in Rule::ALL {
            let what = format!("{name}, rule {rule}, komi {komi}");
            let whole = check(&solution, &rule, komi, Extent::Whole).unwrap();
            let first = check(&solution, &rule, komi, Extent::FirstLoss).unwrap();
            let expected = !black_forces_a_win(&solution, rule, komi);
            assert_eq!(whole.holds(), expected, "{what}");
            assert_eq!(first.holds(), expected, "{what}: stopping at a loss");
            assert!(whole.complete, "{what}");
            assert_eq!(first.complete, expected, "{what}");
            assert_eq!(whole.counterexample.is_some(), !expected, "{what}");
            assert_eq!(whole.counterexample, first.counterexample, "{what}");
            if let Some(example) = &whole.counterexample {
                let state = replay(&board, &example.moves);
                assert_eq!(example.moves.len() % 2, 1, "{what}: ends on Black's move");
                assert_eq!(state.position().us(), example.white, "{what}");
                assert_eq!(state.position().them(), example.black, "{what}");
                assert_eq!(state.ko(), example.ko, "{what}");
                // The rule plays there what the counterexample says, and it
                // loses, where the best moves do not do worse.
                let last = *example.moves.last().unwrap();
                let mv = rule.white_move(&solution, &state, last, komi).unwrap();
                assert_eq!(mv, example.rule_move, "{what}");
                assert!(
                    crate::analysis::compare_outcomes(
                        &example.best_outcome,
                        &example.rule_outcome.unwrap()
                    )
                    .is_ge(),
                    "{what}"
                );
            }
        }
    }
}

#[test]
fn the_check_agrees_with_a_brute_force_on_short_lines() {
    for name in ["1x1", "1x2", "1x3", "1x4", "1x5", "1x6", "1x7", "1x8"] {
        check_board(name);
    }
}

#[test]
fn the_check_agrees_with_a_brute_force_on_short_circles() {
    for name in ["1x3c", "1x4c", "1x5c", "1x6c", "1x7c"] {
        check_board(name);
    }
}

#[test]
fn the_engine_holds_on_drawn_lines_and_passing_does_not() {
    for name in ["1x5", "1x6", "1x7", "1x8", "1x9"] {
        let board: Board = name.parse().unwrap();
        let solution = solve(board, &Silent).unwrap();
        let table = check(&solution, &Rule::Table, 0.0, Extent::Whole).unwrap();
        assert!(table.holds(), "{name}: {table:?}");
        let pass = check(&solution, &Rule::Pass, 0.0, Extent::Whole).unwrap();
        assert!(!pass.holds(), "{name}");
        // Black's first stone, then White passes: one Black move.
        assert_eq!(pass.counterexample.unwrap().moves.len(), 1, "{name}");
    }
}
