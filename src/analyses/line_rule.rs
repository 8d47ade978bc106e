//! White's move rules on a line of points (1xN boards), and their check
//! against a table: does a rule that answers every Black move by itself
//! keep White at least the table's draw, whatever Black plays?
//!
//! A rule sees the position, the ko point, Black's last move, the komi and
//! a small memory of its own (`Memory`), and gives White's move and what it
//! remembers next; it may not look at values (except `Rule::Table`, the
//! engine's own choice, kept as the control that must pass). `Thesis` is
//! the reference work's rule (Lin 2018, section 5.6, Algorithm 8) in each
//! reading its text allows.
//!
//! The check walks every state reachable from the empty board when Black
//! may play any legal move and White plays the rule's move; a state reached
//! with two different rule memories is walked once with each. At each White
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

use crate::rules::board::{Board, Point, PointSet};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::state::{Child, State};
use crate::rules::value::Outcome;
use crate::table::values::rating::{compare_outcomes, preference_order, rate_move, rate_moves};
use crate::table::values::Values;
use crate::table::{Origin, TableError};

/// What a rule carries from one of its turns to the next: 0 before its
/// first move. A rule that remembers nothing keeps it 0, so that the check
/// walks each state once.
pub type Memory = u8;

/// A move rule for White on a line: what `check` checks. `Rule` has the
/// built-in ones, `Thesis` the reference work's; a rule of one's own
/// implements this.
pub trait LineRule {
    /// The rule's name, as reports print it.
    fn name(&self) -> &str;

    /// White's move in `state` (seen from White: `us` are White's stones),
    /// after Black's `last` move, with what the rule remembered from its
    /// previous turn; and what it remembers for its next. A move that is
    /// not legal there counts as a loss for White.
    fn white_move(
        &self,
        values: &dyn Values,
        state: &State,
        last: Move,
        komi: f64,
        memory: Memory,
    ) -> Result<(Move, Memory), TableError>;
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
    /// The engine's move: the table's most preferred
    /// (`docs/rules.md#how-the-engine-picks-a-move`). It looks at values, so it
    /// is no rule a person could follow; it is the control that must always
    /// hold.
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

    /// The built-in rules' moves are legal, or pass; they remember nothing.
    fn white_move(
        &self,
        values: &dyn Values,
        state: &State,
        last: Move,
        komi: f64,
        memory: Memory,
    ) -> Result<(Move, Memory), TableError> {
        let board = values.board();
        let last = Some(last);
        let mv = match self {
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
        };
        Ok((mv, memory))
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

/// When the reference work's rule decides which end of the line is
/// position 1. Its prose fixes the numbering on White's first move, so
/// that positions 2 and 3 hold no Black stone; its Algorithm 8 opens every
/// call with the test "board[2] = white, or board[2] and board[3] not
/// black". Where both ends pass the test, the one in use is kept (A1 is
/// position 1 before White's first move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Orientation {
    /// Chosen on White's first move, kept for the rest of the game.
    Kept,
    /// Tested again on every White move: the numbering in use is kept if it
    /// passes, else the other end is taken if that passes, else it is kept.
    Again,
    /// Chosen afresh on every White move from the board alone: A1 is
    /// position 1 if that numbering passes the test, else the other end if
    /// that passes, else A1. The rule then remembers nothing.
    Fresh,
}

/// Where step 1 looks for the first Black stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstBlack {
    /// The prose: the first Black stone from position 4 to n (n + 1 if
    /// none); Black stones on positions 1 to 3 are not looked at.
    From4,
    /// Algorithm 8: the first Black stone anywhere (n + 1 if none), and
    /// step 1 applies only if it is beyond position 3.
    Minimum,
}

/// Which point step 2 plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepTwo {
    /// The prose: the first empty point from position 2 to n, legal or not
    /// (Theorem 3 says it is legal).
    FirstEmpty,
    /// Algorithm 8: the first empty point from position 2 to n that is
    /// legal.
    FirstLegal,
}

/// White's move-generating rule of the reference work (Lin 2018, section
/// 5.6, Algorithm 8), in one reading of its text. With positions 1 to n
/// along the line (position 0 and n + 1 are the edges):
///
/// 1. if the first Black stone is at w > 3 (w = n + 1 if there is none),
///    White holds w - 1 and w - 2 is empty, play w - 2;
/// 2. else play the first empty point from position 2 to n;
/// 3. else pass.
///
/// On a circular line the same numbering is used, A1 to the last point,
/// with the ends taken as edges by the rule (not by the board).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thesis {
    pub orientation: Orientation,
    pub first_black: FirstBlack,
    pub step_two: StepTwo,
    name: String,
}

/// What a position holds, as the rule sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Black,
    White,
    Empty,
    Edge,
}

impl Thesis {
    pub fn new(orientation: Orientation, first_black: FirstBlack, step_two: StepTwo) -> Thesis {
        let name = format!(
            "thesis-{}-{}-{}",
            match orientation {
                Orientation::Kept => "kept",
                Orientation::Again => "again",
                Orientation::Fresh => "fresh",
            },
            match first_black {
                FirstBlack::From4 => "from4",
                FirstBlack::Minimum => "min",
            },
            match step_two {
                StepTwo::FirstEmpty => "empty",
                StepTwo::FirstLegal => "legal",
            }
        );
        Thesis {
            orientation,
            first_black,
            step_two,
            name,
        }
    }

    /// Every reading, in the order reports list them.
    pub fn readings() -> Vec<Thesis> {
        let mut all = Vec::new();
        for orientation in [Orientation::Kept, Orientation::Again, Orientation::Fresh] {
            for first_black in [FirstBlack::From4, FirstBlack::Minimum] {
                for step_two in [StepTwo::FirstEmpty, StepTwo::FirstLegal] {
                    all.push(Thesis::new(orientation, first_black, step_two));
                }
            }
        }
        all
    }
}

/// The memory of `Thesis` under `Orientation::Kept` and `Again`: which
/// numbering is in use once White has moved.
const FROM_A1: Memory = 1;
const FROM_THE_END: Memory = 2;

impl LineRule for Thesis {
    fn name(&self) -> &str {
        &self.name
    }

    fn white_move(
        &self,
        values: &dyn Values,
        state: &State,
        _last: Move,
        _komi: f64,
        memory: Memory,
    ) -> Result<(Move, Memory), TableError> {
        let board = values.board();
        let n = board.columns();
        let position = state.position();
        // Position `i` (1 to n) as a point, numbered from A1 or from the
        // other end.
        let point = |reversed: bool, i: usize| board.point(0, if reversed { n - i } else { i - 1 });
        let cell = |reversed: bool, i: usize| {
            if i == 0 || i > n {
                Cell::Edge
            } else if position.us().contains(point(reversed, i)) {
                Cell::White
            } else if position.them().contains(point(reversed, i)) {
                Cell::Black
            } else {
                Cell::Empty
            }
        };
        let passes = |reversed: bool| {
            cell(reversed, 2) == Cell::White
                || (cell(reversed, 2) != Cell::Black && cell(reversed, 3) != Cell::Black)
        };
        let choose = |current: bool| {
            if passes(current) || !passes(!current) {
                current
            } else {
                !current
            }
        };
        let in_use = memory == FROM_THE_END;
        let reversed = match self.orientation {
            Orientation::Kept if memory != 0 => in_use,
            Orientation::Kept | Orientation::Again => choose(in_use),
            Orientation::Fresh => choose(false),
        };
        let memory = match self.orientation {
            Orientation::Fresh => 0,
            _ if reversed => FROM_THE_END,
            _ => FROM_A1,
        };
        let black_from = match self.first_black {
            FirstBlack::From4 => 4,
            FirstBlack::Minimum => 1,
        };
        let first_black = (black_from..=n)
            .find(|&i| cell(reversed, i) == Cell::Black)
            .unwrap_or(n + 1);
        // Step 1.
        if first_black > 3
            && cell(reversed, first_black - 1) == Cell::White
            && cell(reversed, first_black - 2) == Cell::Empty
        {
            return Ok((Move::Place(point(reversed, first_black - 2)), memory));
        }
        // Step 2, else step 3.
        let mut empty = (2..=n).filter(|&i| cell(reversed, i) == Cell::Empty);
        let found = match self.step_two {
            StepTwo::FirstEmpty => empty.next(),
            StepTwo::FirstLegal => {
                empty.find(|&i| state.place(&board, point(reversed, i)).is_some())
            }
        };
        Ok((
            found.map_or(Move::Pass, |i| Move::Place(point(reversed, i))),
            memory,
        ))
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
    /// States reached with Black to move (once per rule memory), and White
    /// turns rated.
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
    if !Walk::fits(&board) {
        return Err(TableError::CannotVerify {
            origin: Origin::BuiltIn(board.to_string()),
            reason: format!(
                "the walk of White's rules holds boards of at most {PACKED_POINTS} points"
            ),
        });
    }
    let start = State::start();
    let mut check = Check {
        board,
        rule: rule.name().to_string(),
        komi,
        start: crate::table::values::rating::outcome(values, &start, komi, true)?,
        black_turns: 0,
        white_turns: 0,
        losing_turns: 0,
        complete: true,
        counterexample: None,
    };
    let mut walk = Walk::new((start, 0));
    let mut next = 0;
    while next < walk.len() {
        let (black, memory) = walk.state(next);
        let here = next as u32;
        next += 1;
        check.black_turns += 1;
        for black_move in black.legal_moves(&board) {
            let Some(Child::State(white)) = black.play(&board, black_move) else {
                continue;
            };
            check.white_turns += 1;
            let (mv, remembered) = rule.white_move(values, &white, black_move, komi, memory)?;
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
                        best_moves: crate::table::values::rating::keeping_best(&ratings),
                    });
                }
                if extent == Extent::FirstLoss {
                    check.complete = false;
                    return Ok(check);
                }
            }
            if let Some(Child::State(after)) = child {
                walk.visit(here, black_move, mv, (after, remembered));
            }
        }
    }
    Ok(check)
}

/// The states reached with Black to move, each with the rule's memory, in
/// the order found, with the state and moves (Black's, then White's) each
/// was first reached by. A state and its memory are kept packed in one
/// `u64` (`Walk::pack`), which holds the boards of at most 25 points: the
/// walk of 1x20 reaches about 110 million of them.
struct Walk {
    states: Vec<u64>,
    parents: Vec<(u32, u8, u8)>,
    seen: HashSet<u64>,
}

/// A move packed in a byte: a point's number, or `PASS`.
const PASS: u8 = u8::MAX;

/// The most points a packed state holds.
const PACKED_POINTS: usize = 25;

impl Walk {
    fn new(start: (State, Memory)) -> Walk {
        let start = Walk::pack(start);
        Walk {
            states: vec![start],
            parents: vec![(u32::MAX, PASS, PASS)],
            seen: HashSet::from([start]),
        }
    }

    /// Whether the states of `board` can be packed.
    fn fits(board: &Board) -> bool {
        board.all().bits() >> PACKED_POINTS == 0
    }

    /// The mover's stones in bits 0 to 24, the other's in bits 25 to 49,
    /// the ko point plus one (0: none) in bits 50 to 54, the pending pass
    /// in bit 55 and the memory in bits 56 to 63.
    fn pack((state, memory): (State, Memory)) -> u64 {
        let position = state.position();
        let ko = state.ko().map_or(0, |point| point.index() as u64 + 1);
        position.us().bits()
            | position.them().bits() << PACKED_POINTS
            | ko << (2 * PACKED_POINTS)
            | u64::from(state.passed()) << (2 * PACKED_POINTS + 5)
            | u64::from(memory) << 56
    }

    fn unpack(key: u64) -> (State, Memory) {
        let mask = (1u64 << PACKED_POINTS) - 1;
        let position = Position::new(PointSet(key & mask), PointSet(key >> PACKED_POINTS & mask));
        let ko = match key >> (2 * PACKED_POINTS) & 0x1f {
            0 => None,
            point => Some(Point::new(point as usize - 1)),
        };
        let passed = key >> (2 * PACKED_POINTS + 5) & 1 != 0;
        (
            State::from_parts(position, ko, passed),
            (key >> 56) as Memory,
        )
    }

    fn pack_move(mv: Move) -> u8 {
        match mv {
            Move::Place(point) => point.index() as u8,
            Move::Pass => PASS,
        }
    }

    fn unpack_move(code: u8) -> Move {
        match code {
            PASS => Move::Pass,
            point => Move::Place(Point::new(point as usize)),
        }
    }

    /// The number of states found.
    fn len(&self) -> usize {
        self.states.len()
    }

    /// State `i` and its memory.
    fn state(&self, i: usize) -> (State, Memory) {
        Walk::unpack(self.states[i])
    }

    /// Adds `state`, reached from state `from` by `black` then `white`,
    /// unless it is known.
    fn visit(&mut self, from: u32, black: Move, white: Move, state: (State, Memory)) {
        let key = Walk::pack(state);
        if self.seen.insert(key) {
            self.states.push(key);
            self.parents
                .push((from, Walk::pack_move(black), Walk::pack_move(white)));
        }
    }

    /// The moves from the start to state `to`.
    fn path(&self, mut to: u32) -> Vec<Move> {
        let mut moves = Vec::new();
        while self.parents[to as usize].0 != u32::MAX {
            let (parent, black, white) = self.parents[to as usize];
            moves.push(Walk::unpack_move(white));
            moves.push(Walk::unpack_move(black));
            to = parent;
        }
        moves.reverse();
        moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packed_state_unpacks_to_itself() {
        for name in ["1x20", "1x25", "1x7c", "5x5"] {
            let board: Board = name.parse().unwrap();
            assert!(Walk::fits(&board), "{name}");
            let mut rng = crate::tests::support::Rng::new(0x9ac4);
            let mut state = State::start();
            for turn in 0..2_000u32 {
                let memory = (turn % 256) as Memory;
                assert_eq!(Walk::unpack(Walk::pack((state, memory))), (state, memory));
                let moves = state.legal_moves(&board);
                let mv = moves[rng.below(moves.len() as u64) as usize];
                assert_eq!(Walk::unpack_move(Walk::pack_move(mv)), mv);
                state = match state.play(&board, mv) {
                    Some(Child::State(next)) => next,
                    _ => State::start(),
                };
            }
        }
        assert!(!Walk::fits(&"2x13".parse().unwrap()));
    }
}
