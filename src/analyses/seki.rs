//! The seki census (`smallgo analyze seki RxC`): which states of a solved
//! board are seki, by the reference work's criteria (Lin 2018, section
//! 5.5.1) read from the stored values, and by a stricter test of the board
//! itself; and the counts in the units the reference work may have used.
//!
//! This module owns the criteria and the counting. Values come from a table
//! read whole into memory (`DenseValues`), moves are rated by the engine's
//! own rater (`table::values::rating`), and states come from the
//! index, so nothing here generates moves or solves anything.
//!
//! The reference work's criteria, for a state `s` and the colour of its
//! mover, at a komi:
//!
//! 1. no pass before it: `s` is not a state right after a pass;
//! 2. pass is the only best move, or the position is lost (then every move
//!    is as bad as pass, which must still be among the best);
//! 3. the mover has more than one legal move (a placement besides pass);
//! 4. after the pass, 2 and 3 hold for the opponent.
//!
//! "Best" compares what moves lead to at the komi by result and margin,
//! plies aside, as the engine does (`Best::Score`), or by result alone,
//! win, draw or loss (`Best::Result`). Under `Best::Result` a lost
//! position's moves are all best, so 2 reads as the reference work wrote it.
//!
//! That is `Reading::Ours`. `Reading::Written` keeps the exception where
//! the reference work writes it, in 2 ("the only best move (or it is
//! defeated)"), and not in 4 ("pass is the only best move"): after the
//! pass, pass must be the opponent's only best move even when the opponent
//! is lost. `Reading::LostEnough` reads 2's exception more loosely still:
//! a lost mover passes 2 whatever pass is worth.
//!
//! The stricter test (`seki_shape`) looks at the stones: some empty point
//! touches strings of both colours (a shared liberty), and at every shared
//! liberty, for both players, a stone there is suicide or captures nothing
//! and leaves its own string with one liberty, to be taken at once.
//! A strict seki state meets the criteria and has that shape.

use std::collections::HashSet;

use rayon::prelude::*;

use crate::index::StateIndex;
use crate::rules::board::{Board, PointSet};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::state::{Child, State};
use crate::rules::value::{Outcome, Value};
use crate::symmetry::symmetries;
use crate::table::format::Fault;
use crate::table::probe::Table;
use crate::table::values::rating::{rate_move, rate_moves, same_result};
use crate::table::values::Values;
use crate::table::verify::visit_block;
use crate::table::{Origin, TableError};

/// Every state's value of one board, held in memory by state number, so
/// that a census probes each child with one ranking and one read.
pub struct DenseValues {
    index: StateIndex,
    values: Vec<Value>,
    origin: Origin,
}

impl DenseValues {
    /// Reads every value of a table (8 bytes a state, plus the index).
    pub fn from_table(table: &Table) -> Result<DenseValues, String> {
        let board = table.board();
        let origin = table.origin().clone();
        let index = StateIndex::build(board)
            .ok_or_else(|| format!("{origin}: board {board} is over the index's limits"))?;
        let view = table.view();
        let states = index.counts().states;
        if view.header().states != states {
            return Err(format!(
                "{origin}: the header counts {} states, the board has {states}",
                view.header().states
            ));
        }
        // Blocks are decoded in parallel a batch at a time, so that the
        // decoded pairs waiting to be stored stay a small part of the
        // values themselves.
        let mut values = vec![Value::default(); states as usize];
        let blocks = view.header().blocks;
        let batch = (rayon::current_num_threads() as u32 * 8).max(1);
        let mut first = 0;
        while first < blocks {
            let last = (first + batch).min(blocks);
            let read: Vec<Vec<(u64, Value)>> = (first..last)
                .into_par_iter()
                .map(|b| {
                    let mut found = Vec::new();
                    visit_block(&view, &index, b, |_, _, number, value| {
                        found.push((number, value));
                        Ok::<(), Fault>(())
                    })
                    .map(|()| found)
                })
                .collect::<Result<_, Fault>>()
                .map_err(|fault| format!("{origin}: {fault}"))?;
            for (number, value) in read.into_iter().flatten() {
                values[number as usize] = value;
            }
            first = last;
        }
        Ok(DenseValues {
            index,
            values,
            origin,
        })
    }

    pub fn index(&self) -> &StateIndex {
        &self.index
    }

    /// The value of state number `number`.
    pub fn value(&self, number: u64) -> Value {
        self.values[number as usize]
    }
}

impl Values for DenseValues {
    fn board(&self) -> Board {
        *self.index.board()
    }

    fn value_of(&self, state: &State) -> Result<Value, TableError> {
        match self.index.rank(state) {
            Some(number) => Ok(self.values[number as usize]),
            None => Err(TableError::NoSuchState {
                origin: self.origin.clone(),
                state: format!("{state:?}"),
            }),
        }
    }
}

/// How moves are compared to find the best ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Best {
    /// By result and margin at the komi, plies aside: the engine's order.
    Score,
    /// By result alone: win, draw or loss.
    Result,
}

impl Best {
    pub fn name(self) -> &'static str {
        match self {
            Best::Score => "score",
            Best::Result => "result",
        }
    }

    /// Whether two outcomes are equally good under this comparison.
    fn same(self, a: &Outcome, b: &Outcome) -> bool {
        match self {
            Best::Score => same_result(a, b),
            Best::Result => std::mem::discriminant(a) == std::mem::discriminant(b),
        }
    }
}

/// How the criteria's words are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// A lost position needs pass among its best moves, in 2 and in 4.
    Ours,
    /// As written: in 2 a lost position needs pass among its best moves;
    /// in 4 pass must be the only best move.
    Written,
    /// In 2 a lost position is enough; in 4 pass must be the only best
    /// move.
    LostEnough,
}

impl Reading {
    pub fn name(self) -> &'static str {
        match self {
            Reading::Ours => "ours",
            Reading::Written => "written",
            Reading::LostEnough => "lost-enough",
        }
    }
}

/// What the criteria are read with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Criteria {
    /// Komi, given to White.
    pub komi: f64,
    pub best: Best,
    pub reading: Reading,
}

/// What a lost position needs in `pass_is_best`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhenLost {
    /// Pass among the best moves.
    PassAmongBest,
    /// Nothing: being lost is enough.
    Nothing,
    /// The same as any other position: pass the only best move.
    NoException,
}

/// Criteria 2 and 3 for the mover of `state` (Black when `mover_is_black`):
/// pass is the only best move, or the position is lost and `when_lost`
/// holds; and the mover has a placement besides pass.
pub fn pass_is_best(
    values: &dyn Values,
    state: &State,
    criteria: Criteria,
    mover_is_black: bool,
    when_lost: WhenLost,
) -> Result<bool, TableError> {
    let board = values.board();
    let (komi, best) = (criteria.komi, criteria.best);
    if state.legal_points(&board).is_empty() {
        return Ok(false);
    }
    // The state's own value is its best move's (one step of minimax): pass
    // must match it before the other moves are worth rating.
    let own = values.value_of(state)?.outcome(komi, mover_is_black);
    let lost = matches!(own, Outcome::OpponentWins { .. });
    if lost && when_lost == WhenLost::Nothing {
        return Ok(true);
    }
    let pass = rate_move(values, state, Move::Pass, komi, mover_is_black)?;
    if !best.same(&pass, &own) {
        return Ok(false);
    }
    if lost && when_lost == WhenLost::PassAmongBest {
        return Ok(true);
    }
    let ratings = rate_moves(values, state, komi, mover_is_black)?;
    Ok(ratings
        .iter()
        .filter(|r| best.same(&r.outcome, &own))
        .count()
        == 1)
}

/// Whether `state` is seki by the reference work's four criteria, in the
/// reading `criteria.reading`, with its mover Black when `mover_is_black`.
pub fn thesis_seki(
    values: &dyn Values,
    state: &State,
    criteria: Criteria,
    mover_is_black: bool,
) -> Result<bool, TableError> {
    let (own, after_pass) = match criteria.reading {
        Reading::Ours => (WhenLost::PassAmongBest, WhenLost::PassAmongBest),
        Reading::Written => (WhenLost::PassAmongBest, WhenLost::NoException),
        Reading::LostEnough => (WhenLost::Nothing, WhenLost::NoException),
    };
    if state.passed() || !pass_is_best(values, state, criteria, mover_is_black, own)? {
        return Ok(false);
    }
    match state.pass(&values.board()) {
        Child::State(after) => pass_is_best(values, &after, criteria, !mover_is_black, after_pass),
        Child::End { .. } => Ok(false),
    }
}

/// The empty points that touch stones of both sides.
pub fn shared_liberties(board: &Board, position: &Position) -> PointSet {
    position
        .empty_points(board)
        .iter()
        .filter(|&point| {
            let around = board.neighbours(point);
            !(around & position.us()).is_empty() && !(around & position.them()).is_empty()
        })
        .fold(PointSet::EMPTY, |set, point| set | PointSet::single(point))
}

/// The stricter test, on the stones alone (ko and side to move aside):
/// there is a shared liberty, and neither player can fill any shared
/// liberty safely.
pub fn seki_shape(board: &Board, position: &Position) -> bool {
    let shared = shared_liberties(board, position);
    !shared.is_empty()
        && shared.iter().all(|point| {
            !position.fills_safely(board, point) && !position.swapped().fills_safely(board, point)
        })
}

/// Counts of seki states in several units.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Canonical states (mover's view, symmetric states merged) that are
    /// seki with Black to move, and with White to move.
    pub states: [u64; 2],
    /// The same, each state counted once per symmetric image.
    pub images: [u64; 2],
    /// Distinct boards with colours (black stones, white stones), in every
    /// orientation, ko and side to move aside.
    pub boards: u64,
    /// Canonical positions (mover's view), ko aside.
    pub positions: u64,
}

impl Tally {
    /// Canonical states counted once per colour they stand for.
    pub fn coloured_states(&self) -> u64 {
        self.states[0] + self.states[1]
    }

    /// States with colour and orientation: the reference work's units, if
    /// it counted states without merging symmetric or colour-swapped ones.
    pub fn coloured_images(&self) -> u64 {
        self.images[0] + self.images[1]
    }
}

/// A seki state to show.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Example {
    pub state: State,
    pub mover_is_black: bool,
    /// Whether it also has the seki shape.
    pub strict: bool,
    pub value: Value,
}

impl Example {
    /// The stones as (black, white).
    pub fn stones(&self) -> (PointSet, PointSet) {
        let position = self.state.position();
        if self.mover_is_black {
            (position.us(), position.them())
        } else {
            (position.them(), position.us())
        }
    }
}

/// The census of one board.
#[derive(Clone, Debug)]
pub struct Census {
    pub board: Board,
    pub criteria: Criteria,
    /// Canonical states of the board.
    pub states: u64,
    /// States that meet the reference work's criteria.
    pub thesis: Tally,
    /// States that meet them and have the seki shape.
    pub strict: Tally,
    /// Canonical positions with the seki shape, whatever their values.
    pub shape_positions: u64,
    /// Up to the number asked for of strict seki states, then as many that
    /// meet the criteria without the shape, in state order.
    pub examples: Vec<Example>,
}

/// One seki state found: its number, and with which mover colour it is
/// seki (Black, White).
#[derive(Clone, Copy, Debug)]
struct Hit {
    number: u64,
    state: State,
    colours: [bool; 2],
    shape: bool,
}

/// Positions handed to one task at a time.
const CHUNK: u64 = 4096;

/// Applies the criteria to every state of the board of `values`, keeping
/// up to `examples` examples of each kind.
pub fn census(
    values: &DenseValues,
    criteria: Criteria,
    examples: usize,
) -> Result<Census, TableError> {
    let index = values.index();
    let board = *index.board();
    let positions = index.counts().positions;
    let found: Vec<(Vec<Hit>, u64)> = (0..positions.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let first = c * CHUNK;
            let last = (first + CHUNK).min(positions);
            let mut hits = Vec::new();
            let mut shapes = 0;
            for entry in index.positions(first).take((last - first) as usize) {
                let position = index.state_at(entry.code, 0).position();
                let shape = seki_shape(&board, &position);
                shapes += shape as u64;
                for slot in 0..entry.slots() {
                    let state = index.state_at(entry.code, slot);
                    let black = thesis_seki(values, &state, criteria, true)?;
                    // At komi 0 both colours read a value alike.
                    let white = if criteria.komi == 0.0 {
                        black
                    } else {
                        thesis_seki(values, &state, criteria, false)?
                    };
                    if black || white {
                        hits.push(Hit {
                            number: entry.state(slot),
                            state,
                            colours: [black, white],
                            shape,
                        });
                    }
                }
            }
            Ok((hits, shapes))
        })
        .collect::<Result<_, TableError>>()?;
    let mut hits = Vec::new();
    let mut shape_positions = 0;
    for (chunk, shapes) in found {
        hits.extend(chunk);
        shape_positions += shapes;
    }
    hits.sort_by_key(|hit| hit.number);
    let thesis = tally(index, hits.iter());
    let strict = tally(index, hits.iter().filter(|hit| hit.shape));
    let mut chosen = Vec::new();
    for strict in [true, false] {
        for hit in hits.iter().filter(|hit| hit.shape == strict).take(examples) {
            chosen.push(Example {
                state: hit.state,
                mover_is_black: hit.colours[0],
                strict,
                value: values.value(hit.number),
            });
        }
    }
    Ok(Census {
        board,
        criteria,
        states: index.counts().states,
        thesis,
        strict,
        shape_positions,
        examples: chosen,
    })
}

/// The distinct images of a state under the board's symmetries.
pub fn state_images(board: &Board, state: &State) -> Vec<State> {
    let position = state.position();
    let mut images: Vec<State> = symmetries(board)
        .iter()
        .map(|symmetry| {
            State::from_parts(
                Position::new(
                    symmetry.apply_set(position.us()),
                    symmetry.apply_set(position.them()),
                ),
                state.ko().map(|point| symmetry.apply(point)),
                state.passed(),
            )
        })
        .collect();
    images.sort();
    images.dedup();
    images
}

fn tally<'a>(index: &StateIndex, hits: impl Iterator<Item = &'a Hit>) -> Tally {
    let board = index.board();
    let mut tally = Tally::default();
    let mut boards: HashSet<(u64, u64)> = HashSet::new();
    let mut positions: HashSet<u64> = HashSet::new();
    for hit in hits {
        let images = state_images(board, &hit.state);
        positions.insert(index.slot_of(hit.number).0);
        for (colour, &seki) in hit.colours.iter().enumerate() {
            if !seki {
                continue;
            }
            tally.states[colour] += 1;
            tally.images[colour] += images.len() as u64;
            for image in &images {
                let (us, them) = (image.position().us().0, image.position().them().0);
                boards.insert(if colour == 0 { (us, them) } else { (them, us) });
            }
        }
    }
    tally.boards = boards.len() as u64;
    tally.positions = positions.len() as u64;
    tally
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::tests::diagram;

    fn shape(board: &str, rows: &[&str]) -> bool {
        let board: Board = board.parse().unwrap();
        seki_shape(&board, &diagram(&board, rows))
    }

    #[test]
    fn shapes_of_seki_are_found() {
        // Two eyeless strings sharing two liberties.
        assert!(shape("2x3", &["X.O", "X.O"]));
        assert!(shape("3x3", &["X.O", "XXO", "X.O"]));
        // One eye each and one shared liberty.
        assert!(shape("3x4", &[".XO.", "XXOO", "X.OO"]));
    }

    #[test]
    fn shapes_that_are_not_seki_are_rejected() {
        // Nothing shared.
        assert!(!shape("3x3", &["X..", "...", "..O"]));
        // Three shared liberties: a fill leaves two.
        assert!(!shape("3x3", &["X.O", "X.O", "X.O"]));
        // White fills B1 and captures; Black cannot play there at all.
        assert!(!shape("2x3", &["XO.", "X.O"]));
        // One eye against two: White fills the shared liberty safely.
        assert!(!shape("3x4", &[".XO.", "XXOO", "X.O."]));
    }

    fn built_in(board: Board) -> DenseValues {
        let library = crate::table::library::Tablebase::with_sources(None, false);
        DenseValues::from_table(&library.table(board).unwrap()).unwrap()
    }

    #[test]
    fn criteria_on_hand_checked_states() {
        let board: Board = "2x3".parse().unwrap();
        let values = built_in(board);
        let criteria = |best| Criteria {
            komi: 0.0,
            best,
            reading: Reading::Ours,
        };
        let seki = State::new(&board, diagram(&board, &["X.O", "X.O"]), None, false).unwrap();
        for best in [Best::Score, Best::Result] {
            for black in [true, false] {
                assert!(thesis_seki(&values, &seki, criteria(best), black).unwrap());
            }
            // Right after a pass it is not counted (criterion 1).
            let Child::State(passed) = seki.pass(&board) else {
                panic!()
            };
            assert!(!thesis_seki(&values, &passed, criteria(best), true).unwrap());
            // The empty board: B1, B2 and pass all draw.
            assert!(!thesis_seki(&values, &State::start(), criteria(best), true).unwrap());
        }
    }

    #[test]
    fn one_eye_each_is_seki_and_one_eye_against_two_is_not() {
        let board: Board = "3x4".parse().unwrap();
        let values = built_in(board);
        let state = |rows: &[&str]| State::new(&board, diagram(&board, rows), None, false).unwrap();
        // Black: eye A3, White: eye D3, shared B1. White is ahead by one
        // point, and whoever fills B1 or an own eye is taken.
        let seki = state(&[".XO.", "XXOO", "X.OO"]);
        // White has a second eye at D1: White fills B1 and takes Black.
        let dead = state(&[".XO.", "XXOO", "X.O."]);
        for komi in [0.0, 0.5, -3.0] {
            for best in [Best::Score, Best::Result] {
                let criteria = Criteria {
                    komi,
                    best,
                    reading: Reading::Ours,
                };
                for black in [true, false] {
                    assert!(thesis_seki(&values, &seki, criteria, black).unwrap());
                    assert!(!thesis_seki(&values, &dead, criteria, black).unwrap());
                }
            }
        }
        assert!(seki_shape(&board, &seki.position()));
        assert!(!seki_shape(&board, &dead.position()));
    }
}
