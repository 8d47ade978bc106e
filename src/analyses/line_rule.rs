//! White's move rules on a line of points (1xN boards), and their check
//! against a table: does a rule that answers every Black move by itself
//! keep White at least the table's draw, whatever Black plays?
//!
//! A rule sees the position, the ko point, Black's last move and the komi,
//! and gives White's move; it may not look at values (except `Rule::Table`,
//! the engine's own choice, kept as the control that must pass).
//!
//! The check walks every state reachable from the empty board when Black
//! may play any legal move and White plays the rule's move. At each White
//! turn it rates the rule's move from the table. The rule guarantees White
//! at least a draw exactly when no White turn reached has a rule move
//! rated a loss: Black's moves can
//! never raise Black's value above the table's, so the table's bound
//! carries from turn to turn and to the final count; and where the rule's
//! move is rated below, Black wins from there against any White, the rule
//! included. The first such turn found (the walk goes breadth first, so it
//! is one of the fewest moves from the start) is the counterexample.

use std::collections::HashSet;
use std::fmt;

use crate::analysis::{compare_outcomes, preference_order, rate_move, rate_moves, Values};
use crate::board::{Board, Point, PointSet};
use crate::moves::Move;
use crate::state::{Child, State};
use crate::table::TableError;
use crate::value::Outcome;

/// A move rule for White on a line: what `check` checks. `Rule` has the
/// built-in ones; a rule of one's own implements this.
pub trait LineRule {
    /// The rule's name, as reports print it.
    fn name(&self) -> &str;

    /// White's move in `state` (seen from White: `us` are White's stones),
    /// after Black's `last` move. A move that is not legal there counts as
    /// a loss for White.
    fn white_move(
        &self,
        values: &dyn Values,
        state: &State,
        last: Move,
        komi: f64,
    ) -> Result<Move, TableError>;
}

/// The built-in rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Answer Black's stone at the point facing it across the middle of the
    /// line; where that point is Black's own, taken or illegal, play as
    /// `Adjacent`. After a pass, as `Adjacent`.
    Mirror,
    /// Play next to Black's last stone, on the side with the longer run of
    /// empty points; where neither side is legal, pass. After Black passes,
    /// pass when White is not behind on the board (komi included), else play
    /// next to a Black stone.
    Adjacent,
    /// Jump: answer two points away from Black's stone, leaving the point
    /// between empty, on the side with the longer run of empty points;
    /// where neither is legal, play as `Adjacent`.
    Jump,
    /// Always pass: the rule that must fail on every board that Black wins
    /// once White stops playing.
    Pass,
    /// The engine's move: the table's most preferred (SPEC section 4). It
    /// looks at values, so it is no rule a person could follow; it is the
    /// control that must always hold.
    Table,
}

impl Rule {
    #[cfg(test)]
    pub const ALL: [Rule; 5] = [
        Rule::Mirror,
        Rule::Adjacent,
        Rule::Jump,
        Rule::Pass,
        Rule::Table,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Rule::Mirror => "mirror",
            Rule::Adjacent => "adjacent",
            Rule::Jump => "jump",
            Rule::Pass => "pass",
            Rule::Table => "table",
        }
    }
}

impl LineRule for Rule {
    fn name(&self) -> &str {
        self.as_str()
    }

    /// The built-in rules' moves are legal, or pass.
    fn white_move(
        &self,
        values: &dyn Values,
        state: &State,
        last: Move,
        komi: f64,
    ) -> Result<Move, TableError> {
        let board = values.board();
        let last = Some(last);
        Ok(match self {
            Rule::Pass => Move::Pass,
            Rule::Table => {
                let ratings = rate_moves(values, state, komi, false)?;
                let order = preference_order(&ratings);
                ratings[order[0]].mv
            }
            Rule::Adjacent => adjacent(&board, state, last, komi),
            Rule::Jump => match last {
                Some(Move::Place(point)) => jump(&board, state, point)
                    .map_or_else(|| adjacent(&board, state, last, komi), Move::Place),
                _ => adjacent(&board, state, last, komi),
            },
            Rule::Mirror => match last {
                Some(Move::Place(point)) => {
                    let facing = mirror(&board, point);
                    if facing != point && state.place(&board, facing).is_some() {
                        Move::Place(facing)
                    } else {
                        adjacent(&board, state, last, komi)
                    }
                }
                _ => adjacent(&board, state, last, komi),
            },
        })
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The point facing `point` across the middle of the line.
fn mirror(board: &Board, point: Point) -> Point {
    board.point(0, board.columns() - 1 - board.column(point))
}

/// How many empty points run from `from` onwards, stepping away from
/// `behind` (its neighbour), along the line.
fn empty_run(board: &Board, state: &State, behind: Point, from: Point) -> usize {
    let empty = state.position().empty_points(board);
    let (mut previous, mut here, mut run) = (behind, from, 0);
    while empty.contains(here) && run < board.points() {
        run += 1;
        let next = (board.neighbours(here) - PointSet::single(previous)).first();
        match next {
            Some(next) => (previous, here) = (here, next),
            None => break,
        }
    }
    run
}

/// `Rule::Jump`'s point after Black's stone at `point`, if one is legal.
fn jump(board: &Board, state: &State, point: Point) -> Option<Point> {
    let empty = state.position().empty_points(board);
    board
        .neighbours(point)
        .iter()
        .filter(|&between| empty.contains(between))
        .filter_map(|between| {
            let beyond = (board.neighbours(between) - PointSet::single(point)).first()?;
            let legal = state.place(board, beyond).is_some();
            legal.then(|| (empty_run(board, state, point, between), beyond))
        })
        .max_by_key(|&(run, beyond)| (run, std::cmp::Reverse(beyond.index())))
        .map(|(_, beyond)| beyond)
}

/// `Rule::Adjacent`'s move.
fn adjacent(board: &Board, state: &State, last: Option<Move>, komi: f64) -> Move {
    let legal = |point: Point| state.place(board, point).is_some();
    let black = state.position().them();
    match last {
        Some(Move::Place(point)) => board
            .neighbours(point)
            .iter()
            .filter(|&n| legal(n))
            .max_by_key(|&n| {
                (
                    empty_run(board, state, point, n),
                    std::cmp::Reverse(n.index()),
                )
            })
            .map_or(Move::Pass, Move::Place),
        _ => {
            if state.position().area_score(board) as f64 + komi >= 0.0 {
                Move::Pass
            } else {
                board
                    .adjacent(black)
                    .iter()
                    .find(|&n| legal(n))
                    .map_or(Move::Pass, Move::Place)
            }
        }
    }
}

/// A White turn where the rule's move is rated a loss for White.
#[derive(Clone, Debug, PartialEq)]
pub struct Counterexample {
    /// The moves from the empty board, Black first, up to Black's last move.
    pub moves: Vec<Move>,
    pub black: PointSet,
    pub white: PointSet,
    /// The basic-ko point White may not take.
    pub ko: Option<Point>,
    /// The rule's move and what it leads to for White; `None` when the
    /// move is not legal.
    pub rule_move: Move,
    pub rule_outcome: Option<Outcome>,
    /// White's best outcome there, and the moves that keep it.
    pub best_outcome: Outcome,
    pub best_moves: Vec<Move>,
}

/// How far a check goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extent {
    /// Stop at the first losing turn: enough to say the rule fails.
    FirstLoss,
    /// Walk every reachable turn and count the losing ones.
    Whole,
}

/// What the check of one rule on one board found.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    pub board: Board,
    /// The rule's name.
    pub rule: String,
    pub komi: f64,
    /// The empty board's outcome for Black, by the table.
    pub start: Outcome,
    /// States reached with Black to move, and White turns rated.
    pub black_turns: u64,
    pub white_turns: u64,
    /// White turns where the rule's move is rated a loss for White.
    pub losing_turns: u64,
    /// Whether every reachable turn was walked (not stopped at a loss).
    pub complete: bool,
    /// A losing turn with the fewest moves from the start, if any.
    pub counterexample: Option<Counterexample>,
}

impl Check {
    /// Whether the rule keeps White at least a draw against every Black
    /// play.
    pub fn holds(&self) -> bool {
        self.losing_turns == 0
    }
}

/// Checks `rule` on the board of `values` at `komi`: every White turn
/// reachable with Black free and White on the rule (see the module's
/// note), breadth first, so that the first losing turn has the fewest
/// moves.
pub fn check(
    values: &dyn Values,
    rule: &dyn LineRule,
    komi: f64,
    extent: Extent,
) -> Result<Check, TableError> {
    let board = values.board();
    let start = State::start();
    let mut check = Check {
        board,
        rule: rule.name().to_string(),
        komi,
        start: crate::analysis::outcome(values, &start, komi, true)?,
        black_turns: 0,
        white_turns: 0,
        losing_turns: 0,
        complete: true,
        counterexample: None,
    };
    let mut walk = Walk {
        states: vec![start],
        parents: vec![(u32::MAX, Move::Pass, Move::Pass)],
        seen: HashSet::from([start]),
    };
    let mut next = 0;
    while next < walk.states.len() {
        let black = walk.states[next];
        let here = next as u32;
        next += 1;
        check.black_turns += 1;
        for black_move in black.legal_moves(&board) {
            let Some(Child::State(white)) = black.play(&board, black_move) else {
                continue;
            };
            check.white_turns += 1;
            let mv = rule.white_move(values, &white, black_move, komi)?;
            let child = white.play(&board, mv);
            let outcome = match child {
                Some(_) => Some(rate_move(values, &white, mv, komi, false)?),
                None => None,
            };
            if !matches!(outcome, Some(Outcome::Draw | Outcome::MoverWins { .. })) {
                check.losing_turns += 1;
                if check.counterexample.is_none() {
                    let ratings = rate_moves(values, &white, komi, false)?;
                    let position = white.position();
                    let mut moves = walk.path(here);
                    moves.push(black_move);
                    check.counterexample = Some(Counterexample {
                        moves,
                        black: position.them(),
                        white: position.us(),
                        ko: white.ko(),
                        rule_move: mv,
                        rule_outcome: outcome,
                        best_outcome: ratings
                            .iter()
                            .map(|r| r.outcome)
                            .max_by(compare_outcomes)
                            .unwrap_or(Outcome::Draw),
                        best_moves: crate::analysis::keeping_best(&ratings),
                    });
                }
                if extent == Extent::FirstLoss {
                    check.complete = false;
                    return Ok(check);
                }
            }
            if let Some(Child::State(after)) = child {
                walk.visit(here, black_move, mv, after);
            }
        }
    }
    Ok(check)
}

/// The states reached with Black to move, in the order found, with the
/// state and moves (Black's, then White's) each was first reached by.
struct Walk {
    states: Vec<State>,
    parents: Vec<(u32, Move, Move)>,
    seen: HashSet<State>,
}

impl Walk {
    /// Adds `state`, reached from state `from` by `black` then `white`,
    /// unless it is known.
    fn visit(&mut self, from: u32, black: Move, white: Move, state: State) {
        if self.seen.insert(state) {
            self.states.push(state);
            self.parents.push((from, black, white));
        }
    }

    /// The moves from the start to state `to`.
    fn path(&self, mut to: u32) -> Vec<Move> {
        let mut moves = Vec::new();
        while self.parents[to as usize].0 != u32::MAX {
            let (parent, black, white) = self.parents[to as usize];
            moves.push(white);
            moves.push(black);
            to = parent;
        }
        moves.reverse();
        moves
    }
}
