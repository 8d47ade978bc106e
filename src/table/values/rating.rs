//! Rating moves from solved values: what each legal move leads to for a
//! given komi, and which moves keep the best result.
//!
//! Values come from any `Values` source (`super`: a solution in memory, a
//! table on disk), so the build can list best first moves and the
//! engine can choose moves with the same code.

// A probe-only build (no feature `solver`) leaves the parts only the engine and the analyses use unused.
#![cfg_attr(not(feature = "solver"), allow(dead_code, unused_imports))]

use std::cmp::Ordering;

use super::Values;
use crate::rules::moves::Move;
use crate::rules::state::{Child, State};
use crate::rules::value::Outcome;
use crate::table::TableError;

/// What a move leads to, from the view of the player making it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub mv: Move,
    pub outcome: Outcome,
}

/// Orders outcomes for the player they belong to: bigger wins first, then
/// draws, then smaller losses; ties by fewer plies to a win and more plies
/// to a loss.
pub fn compare_outcomes(a: &Outcome, b: &Outcome) -> Ordering {
    fn key(outcome: &Outcome) -> (i32, f64, i32) {
        match *outcome {
            Outcome::MoverWins { margin, plies } => (2, margin, -(plies as i32)),
            Outcome::Draw => (1, 0.0, 0),
            Outcome::OpponentWins { margin, plies } => (0, -margin, plies as i32),
        }
    }
    let (ka, kb) = (key(a), key(b));
    ka.0.cmp(&kb.0)
        .then(ka.1.partial_cmp(&kb.1).unwrap_or(Ordering::Equal))
        .then(ka.2.cmp(&kb.2))
}

/// The engine's preference between two rated moves
/// (`docs/rules.md#how-the-engine-picks-a-move`): `Greater` when `a` is
/// preferred. Wins by more first, then fewer plies; then draws, a pass first
/// (so games end); then losses by less, then more plies. Equal moves are left
/// to point order by the caller.
pub fn prefer(a: &Rating, b: &Rating) -> Ordering {
    compare_outcomes(&a.outcome, &b.outcome).then_with(|| match (a.outcome, b.outcome) {
        (Outcome::Draw, Outcome::Draw) => (a.mv == Move::Pass).cmp(&(b.mv == Move::Pass)),
        _ => Ordering::Equal,
    })
}

/// Indices of `ratings` (in point order, then pass) from the most to the
/// least preferred; equal moves stay in point order.
pub fn preference_order(ratings: &[Rating]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..ratings.len()).collect();
    order.sort_by(|&x, &y| prefer(&ratings[y], &ratings[x]));
    order
}

/// The outcome of `state` for its mover.
pub fn outcome(
    values: &dyn Values,
    state: &State,
    komi: f64,
    mover_is_black: bool,
) -> Result<Outcome, TableError> {
    Ok(values.value_of(state)?.outcome(komi, mover_is_black))
}

/// What one legal move of `state` leads to for the mover.
pub fn rate_move(
    values: &dyn Values,
    state: &State,
    mv: Move,
    komi: f64,
    mover_is_black: bool,
) -> Result<Outcome, TableError> {
    let board = values.board();
    let mover_komi = if mover_is_black { komi } else { -komi };
    Ok(
        match state.play(&board, mv).expect("legal moves are legal") {
            Child::End { margin } => {
                let net = margin as f64 - mover_komi;
                if net > 0.0 {
                    Outcome::MoverWins {
                        margin: net,
                        plies: 1,
                    }
                } else if net < 0.0 {
                    Outcome::OpponentWins {
                        margin: -net,
                        plies: 1,
                    }
                } else {
                    Outcome::Draw
                }
            }
            Child::State(child) => match values.value_of(&child)?.outcome(komi, !mover_is_black) {
                Outcome::MoverWins { margin, plies } => Outcome::OpponentWins {
                    margin,
                    plies: plies + 1,
                },
                Outcome::OpponentWins { margin, plies } => Outcome::MoverWins {
                    margin,
                    plies: plies + 1,
                },
                Outcome::Draw => Outcome::Draw,
            },
        },
    )
}

/// Every legal move of `state` (points in order, then pass) with what it leads
/// to for the mover.
pub fn rate_moves(
    values: &dyn Values,
    state: &State,
    komi: f64,
    mover_is_black: bool,
) -> Result<Vec<Rating>, TableError> {
    let board = values.board();
    state
        .legal_moves(&board)
        .into_iter()
        .map(|mv| {
            Ok(Rating {
                mv,
                outcome: rate_move(values, state, mv, komi, mover_is_black)?,
            })
        })
        .collect()
}

/// Whether two outcomes are the same result: a win or a loss by the same
/// margin, or both draws (plies aside).
pub fn same_result(a: &Outcome, b: &Outcome) -> bool {
    match (a, b) {
        (Outcome::MoverWins { margin: x, .. }, Outcome::MoverWins { margin: y, .. }) => x == y,
        (Outcome::OpponentWins { margin: x, .. }, Outcome::OpponentWins { margin: y, .. }) => {
            x == y
        }
        (Outcome::Draw, Outcome::Draw) => true,
        _ => false,
    }
}

/// The rated moves that keep the best result (plies aside), in the order
/// given; pass among them when it does.
pub fn keeping_best(ratings: &[Rating]) -> Vec<Move> {
    let Some(best) = ratings.iter().map(|r| r.outcome).max_by(compare_outcomes) else {
        return Vec::new();
    };
    ratings
        .iter()
        .filter(|r| same_result(&r.outcome, &best))
        .map(|r| r.mv)
        .collect()
}

/// The moves that keep the best result and margin (plies aside), in point
/// order then pass.
pub fn best_moves(
    values: &dyn Values,
    state: &State,
    komi: f64,
    mover_is_black: bool,
) -> Result<Vec<Move>, TableError> {
    Ok(keeping_best(&rate_moves(
        values,
        state,
        komi,
        mover_is_black,
    )?))
}

/// The result of the start position at komi 0, as `B+9`, `W+2` or `draw`.
pub fn root_result(values: &dyn Values) -> Result<String, TableError> {
    let outcome = outcome(values, &State::start(), 0.0, true)?;
    Ok(match outcome {
        Outcome::Draw => "draw".to_string(),
        other => crate::rules::value::score_text(other.black_margin(true)),
    })
}
