//! `analyze rule-1xn`: the check of White's line rules against a brute
//! force that reads no table. On small lines, plain and circular, at
//! several komis, the brute force builds the game where Black plays any
//! move and White the rule's, and finds the states Black can force a win
//! from, counting the final boards itself; the rule holds exactly when the
//! empty board is not one of them. The table check must say the same, find
//! a counterexample exactly when it fails, and that counterexample must
//! replay from the empty board. The reference work's rule is checked so in
//! every reading, its memory (which end is position 1) part of the brute
//! force's states.

use std::collections::HashMap;

use crate::analyses::line_rule::{check, Extent, LineRule, Memory, Rule, Thesis};
use crate::rules::board::Board;
use crate::rules::moves::Move;
use crate::rules::state::{Child, State};
use crate::solver::{solve, Silent, Solution};
use crate::table::values::Values;

const KOMIS: [f64; 4] = [0.0, 0.5, -0.5, 2.0];

/// Whether Black can force a win against `rule` from the empty board, by a
/// least fixed point over the game the rule leaves (never-ending play is a
/// draw).
fn black_forces_a_win(values: &dyn Values, rule: &dyn LineRule, komi: f64) -> bool {
    let board = values.board();
    // For each state with Black to move: per Black move, what follows.
    enum Next {
        BlackWins,
        NotAWin,
        State(usize),
    }
    let mut numbers: HashMap<(State, Memory), usize> = HashMap::from([((State::start(), 0), 0)]);
    let mut states = vec![(State::start(), 0)];
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
        let (black, memory) = states[next];
        next += 1;
        let mut row = Vec::new();
        for black_move in black.legal_moves(&board) {
            row.push(match black.play(&board, black_move).unwrap() {
                Child::End { margin } => ended(margin as f64 - komi),
                Child::State(white) => {
                    let (mv, remembered) = rule
                        .white_move(values, &white, black_move, komi, memory)
                        .unwrap();
                    match white.play(&board, mv) {
                        None => Next::BlackWins,
                        Some(Child::End { margin }) => ended(-(margin as f64) - komi),
                        Some(Child::State(after)) => {
                            let count = numbers.len();
                            let number = *numbers.entry((after, remembered)).or_insert(count);
                            if number == states.len() {
                                states.push((after, remembered));
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

/// The rules checked: the built-in ones, or every reading of the
/// reference work's.
fn rules(thesis: bool) -> Vec<Box<dyn LineRule>> {
    if thesis {
        Thesis::readings()
            .into_iter()
            .map(|t| Box::new(t) as Box<dyn LineRule>)
            .collect()
    } else {
        Rule::ALL
            .into_iter()
            .map(|r| Box::new(r) as Box<dyn LineRule>)
            .collect()
    }
}

/// Checks every rule on board `name`; the names of those that hold at
/// komi 0.
fn check_board(name: &str, thesis: bool) -> Vec<String> {
    let board: Board = name.parse().unwrap();
    let solution: Solution = solve(board, &Silent).unwrap();
    let mut holding = Vec::new();
    for komi in KOMIS {
        for rule in rules(thesis) {
            let rule = rule.as_ref();
            let what = format!("{name}, rule {}, komi {komi}", rule.name());
            let whole = check(&solution, rule, komi, Extent::Whole).unwrap();
            let first = check(&solution, rule, komi, Extent::FirstLoss).unwrap();
            let expected = !black_forces_a_win(&solution, rule, komi);
            if expected && komi == 0.0 {
                holding.push(rule.name().to_string());
            }
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
                // The rule plays there what the counterexample says (its
                // memory replayed along the moves), and it loses, where the
                // best moves do not do worse.
                let mut memory = 0;
                let mut here = State::start();
                for pair in example.moves.chunks(2) {
                    let Some(Child::State(white)) = here.play(&board, pair[0]) else {
                        panic!("{what}: the moves replay")
                    };
                    let (mv, remembered) = rule
                        .white_move(&solution, &white, pair[0], komi, memory)
                        .unwrap();
                    memory = remembered;
                    if pair.len() == 1 {
                        assert_eq!(mv, example.rule_move, "{what}");
                        break;
                    }
                    assert_eq!(mv, pair[1], "{what}: White's moves are the rule's");
                    let Some(Child::State(next)) = white.play(&board, mv) else {
                        panic!("{what}: the moves replay")
                    };
                    here = next;
                }
                match &example.rule_outcome {
                    Some(outcome) => assert!(
                        crate::table::values::rating::compare_outcomes(
                            &example.best_outcome,
                            outcome
                        )
                        .is_ge(),
                        "{what}"
                    ),
                    None => assert!(
                        state.play(&board, example.rule_move).is_none(),
                        "{what}: a move without an outcome is not legal"
                    ),
                }
            }
        }
    }
    holding
}

#[test]
fn the_check_agrees_with_a_brute_force_on_short_lines() {
    for name in ["1x1", "1x2", "1x3", "1x4", "1x5", "1x6", "1x7", "1x8"] {
        check_board(name, false);
    }
}

#[test]
fn the_check_agrees_with_a_brute_force_on_short_circles() {
    for name in ["1x3c", "1x4c", "1x5c", "1x6c", "1x7c"] {
        check_board(name, false);
    }
}

#[test]
fn the_check_of_every_reading_of_the_thesis_agrees_with_a_brute_force() {
    for name in ["1x6", "1x7", "1x8", "1x5c", "1x6c", "1x7c"] {
        let holding = check_board(name, true);
        // The readings differ: on the lines some hold and some do not, so
        // the agreement is tested both ways.
        if !name.ends_with('c') {
            assert!(!holding.is_empty(), "{name}");
            assert!(holding.len() < Thesis::readings().len(), "{name}");
        }
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
