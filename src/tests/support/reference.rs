//! A plain solver, slow on purpose, to check the real one against.
//!
//! It shares only the rules (`position`, `state`) with the solver: no
//! mover's view, no symmetry, no index, no un-moves, no counting. States carry
//! colours; the graph is built by forward search from every legal position
//! with either side to move, with and without a pending pass; and each komi is
//! solved on its own by plain fixpoint iteration:
//!
//! - Black's forced score `f(s)`: start from "cannot force an end" everywhere
//!   and repeat `f(s) = max` (Black to move) or `min` (White to move) over the
//!   successors, a finished game being worth its score minus komi, until
//!   nothing changes. White's forced score likewise.
//! - Plies: with the scores fixed, a state forcing score `v` needs `1 + min`
//!   (forcing side to move) or `1 + max` (other side to move) of the plies of
//!   the successors that keep exactly `v`, computed in rounds.

use std::collections::HashMap;

use crate::rules::board::{Board, Point, PointSet};
use crate::rules::position::Position;
use crate::rules::state::{Child, State};

/// A state with colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ColouredState {
    pub black: PointSet,
    pub white: PointSet,
    pub black_to_move: bool,
    pub ko: Option<Point>,
    pub passed: bool,
}

impl ColouredState {
    /// The same state from the mover's view, as the tables see it.
    pub fn mover_view(&self) -> State {
        let position = if self.black_to_move {
            Position::new(self.black, self.white)
        } else {
            Position::new(self.white, self.black)
        };
        State::from_parts(position, self.ko, self.passed)
    }

    fn from_mover_view(state: &State, black_to_move: bool) -> ColouredState {
        let position = state.position();
        let (black, white) = if black_to_move {
            (position.us(), position.them())
        } else {
            (position.them(), position.us())
        };
        ColouredState {
            black,
            white,
            black_to_move,
            ko: state.ko(),
            passed: state.passed(),
        }
    }
}

/// Where a move leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Successor {
    State(usize),
    /// The game ends with this area margin for Black.
    End {
        black_margin: i32,
    },
}

/// One side's forced result at one komi: the score in half points (komi
/// included, from that side's view) and the plies it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Forced {
    pub half_points: i32,
    pub plies: u32,
}

/// A state's results at one komi.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReferenceValue {
    pub black: Option<Forced>,
    pub white: Option<Forced>,
}

/// Every way to put stones on the board, legal or not: each point empty,
/// ours or theirs, counted in base 3 (the first point the lowest digit).
fn every_position(board: &Board) -> impl Iterator<Item = Position> {
    let points = board.points() as u32;
    (0..3u64.pow(points)).map(move |mut number| {
        let (mut us, mut them) = (PointSet::EMPTY, PointSet::EMPTY);
        for point in 0..points as usize {
            match number % 3 {
                1 => us.insert(Point::new(point)),
                2 => them.insert(Point::new(point)),
                _ => {}
            }
            number /= 3;
        }
        Position::new(us, them)
    })
}

/// The explicit game graph of a board.
pub struct ReferenceGame {
    pub states: Vec<ColouredState>,
    pub successors: Vec<Vec<Successor>>,
}

impl ReferenceGame {
    /// Builds the graph by forward search from every legal position, either
    /// side to move, with and without a pending pass.
    pub fn explore(board: &Board) -> ReferenceGame {
        let mut numbers: HashMap<ColouredState, usize> = HashMap::new();
        let mut states = Vec::new();
        for position in every_position(board) {
            if !position.is_legal(board) {
                continue;
            }
            for black_to_move in [true, false] {
                for passed in [false, true] {
                    let state = State::from_parts(position, None, passed);
                    let coloured = ColouredState::from_mover_view(&state, black_to_move);
                    numbers.insert(coloured, states.len());
                    states.push(coloured);
                }
            }
        }
        let mut successors = Vec::new();
        let mut next = 0;
        while next < states.len() {
            let coloured = states[next];
            let state = coloured.mover_view();
            let mut list = Vec::new();
            for mv in state.legal_moves(board) {
                match state
                    .play(board, mv)
                    .expect("legal_moves lists legal moves")
                {
                    Child::End { margin } => list.push(Successor::End {
                        black_margin: if coloured.black_to_move {
                            margin
                        } else {
                            -margin
                        },
                    }),
                    Child::State(child) => {
                        let child = ColouredState::from_mover_view(&child, !coloured.black_to_move);
                        let number = *numbers.entry(child).or_insert_with(|| {
                            states.push(child);
                            states.len() - 1
                        });
                        list.push(Successor::State(number));
                    }
                }
            }
            successors.push(list);
            next += 1;
        }
        ReferenceGame { states, successors }
    }

    /// Every state's results at komi `komi_halves / 2`.
    pub fn solve(&self, komi_halves: i32) -> Vec<ReferenceValue> {
        let black_scores = self.forced_scores(komi_halves, true);
        let white_scores = self.forced_scores(komi_halves, false);
        let black_plies = self.plies(&black_scores, komi_halves, true);
        let white_plies = self.plies(&white_scores, komi_halves, false);
        (0..self.states.len())
            .map(|s| ReferenceValue {
                black: black_scores[s].map(|half_points| Forced {
                    half_points,
                    plies: black_plies[s].expect("a forced score has a length"),
                }),
                white: white_scores[s].map(|half_points| Forced {
                    half_points,
                    plies: white_plies[s].expect("a forced score has a length"),
                }),
            })
            .collect()
    }

    /// The score of a finished game for `side` (Black when `black`), in half
    /// points, komi included.
    fn end_score(black_margin: i32, komi_halves: i32, black: bool) -> i32 {
        let for_black = 2 * black_margin - komi_halves;
        if black {
            for_black
        } else {
            -for_black
        }
    }

    /// The least fixpoint of max (the side to move is `black`) / min over
    /// successors: the best score the side can force the game to end with.
    fn forced_scores(&self, komi_halves: i32, black: bool) -> Vec<Option<i32>> {
        let mut scores: Vec<Option<i32>> = vec![None; self.states.len()];
        loop {
            let mut changed = false;
            let next: Vec<Option<i32>> = (0..self.states.len())
                .map(|s| {
                    let forcing = self.states[s].black_to_move == black;
                    let mut values = self.successors[s].iter().map(|successor| match *successor {
                        Successor::End { black_margin } => {
                            Some(Self::end_score(black_margin, komi_halves, black))
                        }
                        Successor::State(c) => scores[c],
                    });
                    if forcing {
                        values.max().flatten()
                    } else {
                        values
                            .try_fold(i32::MAX, |low, v| v.map(|v| low.min(v)))
                            .filter(|&v| v != i32::MAX)
                    }
                })
                .collect();
            for (old, new) in scores.iter_mut().zip(next) {
                if *old != new {
                    changed = true;
                    *old = new;
                }
            }
            if !changed {
                return scores;
            }
        }
    }

    /// Plies to the end while the forced score stays exactly as it is: the
    /// forcing side hurries, the other side resists.
    fn plies(&self, scores: &[Option<i32>], komi_halves: i32, black: bool) -> Vec<Option<u32>> {
        let mut plies: Vec<Option<u32>> = vec![None; self.states.len()];
        loop {
            let mut changed = false;
            let next: Vec<Option<u32>> = (0..self.states.len())
                .map(|s| {
                    if plies[s].is_some() {
                        return plies[s];
                    }
                    let target = scores[s]?;
                    let forcing = self.states[s].black_to_move == black;
                    let mut known = Vec::new();
                    let mut unknown = false;
                    for successor in &self.successors[s] {
                        let (score, length) = match *successor {
                            Successor::End { black_margin } => (
                                Some(Self::end_score(black_margin, komi_halves, black)),
                                Some(0),
                            ),
                            Successor::State(c) => (scores[c], plies[c]),
                        };
                        if score != Some(target) {
                            continue;
                        }
                        match length {
                            Some(length) => known.push(length),
                            None => unknown = true,
                        }
                    }
                    if forcing {
                        known.iter().min().map(|l| l + 1)
                    } else if unknown {
                        None
                    } else {
                        known.iter().max().map(|l| l + 1)
                    }
                })
                .collect();
            for (old, new) in plies.iter_mut().zip(next) {
                if *old != new {
                    changed = true;
                    *old = new;
                }
            }
            if !changed {
                return plies;
            }
        }
    }
}
