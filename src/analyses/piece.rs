//! Board pieces' values as Bouzy writes them (docs/pieces.md): every legal
//! position of a small board (a piece, or any board) solved with both
//! players to move, and given as the pair `{l|r}`, the result with Black
//! to move first and with White to move first, with the temperature and
//! the moves that keep each result.
//!
//! The solve here is a plain one, apart from the tables': every state
//! (position from the mover's view, ko point, pass pending) is listed, its
//! moves found by the rules, and for each threshold `m` the states where
//! the mover, or the opponent, can force the end with a margin of at least
//! `m` are found by retrograde propagation from the game's ends, as
//! `docs/rules.md` defines A(s) and B(s) (without the depths). What ends a
//! game is scored by `Scoring`: our area scoring with open sides, or
//! Bouzy's evaluation, in which an empty point counts for a colour only
//! when it has no open side and all its neighbours are that colour's
//! stones. The rules of play are ours (basic ko, endless play a draw),
//! not the paper's superko.
//!
//! The pairs are read from any source of margins (`PieceMargins`): this
//! solve, or a board's values as the tables give them (`TableMargins`,
//! area scoring only), or margins held per state over the tables'
//! numbering of the states (`indexed`: a piece past this solve's size
//! solved there with either scoring, in a few bytes a state, or a table's
//! values read whole in one walk).
//! The classes are enumerated one at a time (`for_each_class`), so that a
//! large piece's are written as they come without being listed first.

mod indexed;

use std::collections::HashMap;

use crate::rules::board::{Board, Cell, Point, PointSet};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::state::{Child, State};
use crate::symmetry::symmetries;
use crate::table::values::Values;

#[cfg(any(test, feature = "cli"))]
pub use indexed::{load_table, solve_indexed, IndexedMargins};

/// The most points a piece solved here may have: its states are listed
/// one by one in memory.
pub const MAX_PIECE_POINTS: usize = 12;

/// How the end of a game is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// Area scoring (`docs/rules.md`): stones, and empty regions that touch
    /// one colour only and no open side.
    Area,
    /// Bouzy's evaluation: stones, and empty points without an open side
    /// whose neighbours are all stones of one colour.
    Bouzy,
}

impl Scoring {
    /// The margin of `position` from its mover's view.
    pub fn margin(self, board: &Board, position: &Position) -> i32 {
        match self {
            Scoring::Area => position.area_score(board),
            Scoring::Bouzy => {
                let empty = position.empty_points(board);
                let (mut ours, mut theirs) = (position.us().len(), position.them().len());
                for point in (empty - board.open()).iter() {
                    let around = board.neighbours(point);
                    if around.is_empty() {
                        continue;
                    }
                    if around.is_subset_of(position.us()) {
                        ours += 1;
                    } else if around.is_subset_of(position.them()) {
                        theirs += 1;
                    }
                }
                ours as i32 - theirs as i32
            }
        }
    }
}

/// The result of a state for its mover: the margins each side can force
/// (`None`: cannot force the end at all), as `Value` holds them without
/// the depths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Margins {
    /// A(s): the most the mover can force.
    pub mover: Option<i32>,
    /// B(s): the most the opponent can force.
    pub opponent: Option<i32>,
}

/// Every state of a board, solved.
pub struct Solved {
    index: HashMap<State, u32>,
    margins: Vec<Margins>,
}

/// What one move of a state leads to: the end (with the mover's margin)
/// or another state (whose parents list the move's state).
#[derive(Clone, Copy)]
enum Edge {
    End(i32),
    State,
}

/// Every legal state of `board`: each legal position with no ko point or
/// one of its possible ko points, with and without a pass pending.
fn all_states(board: &Board) -> Vec<State> {
    let points: Vec<Point> = board.all().iter().collect();
    let mut states = Vec::new();
    for code in 0..3u64.pow(points.len() as u32) {
        let (mut us, mut them) = (PointSet::EMPTY, PointSet::EMPTY);
        let mut digits = code;
        for &point in &points {
            match digits % 3 {
                1 => us.insert(point),
                2 => them.insert(point),
                _ => {}
            }
            digits /= 3;
        }
        let position = Position::new(us, them);
        if !position.is_legal(board) {
            continue;
        }
        for passed in [false, true] {
            states.push(State::from_parts(position, None, passed));
        }
        for ko in position.ko_points(board).iter() {
            states.push(State::from_parts(position, Some(ko), false));
        }
    }
    states
}

/// Solves every state of `board` (at most `MAX_PIECE_POINTS` points) with
/// the ends scored by `scoring`.
pub fn solve(board: Board, scoring: Scoring) -> Result<Solved, String> {
    if board.points() > MAX_PIECE_POINTS {
        return Err(format!(
            "board {} has {} points: pieces are solved here up to {MAX_PIECE_POINTS} points",
            board.piece_name(),
            board.points()
        ));
    }
    let states = all_states(&board);
    let index: HashMap<State, u32> = states
        .iter()
        .enumerate()
        .map(|(at, state)| (*state, at as u32))
        .collect();
    let mut edges: Vec<Vec<Edge>> = Vec::with_capacity(states.len());
    let mut parents: Vec<Vec<u32>> = vec![Vec::new(); states.len()];
    for (at, state) in states.iter().enumerate() {
        let mut out = Vec::new();
        for mv in state.legal_moves(&board) {
            let edge = match state.play(&board, mv).expect("a legal move") {
                Child::End { .. } => Edge::End(scoring.margin(&board, &state.position())),
                Child::State(child) => {
                    let Some(&child) = index.get(&child) else {
                        return Err(format!(
                            "a move of a state of {} leads to a state not listed: {child:?}",
                            board.piece_name()
                        ));
                    };
                    parents[child as usize].push(at as u32);
                    Edge::State
                }
            };
            out.push(edge);
        }
        edges.push(out);
    }
    let points = board.points() as i32;
    let mut margins = vec![
        Margins {
            mover: None,
            opponent: None
        };
        states.len()
    ];
    for m in (-points..=points).rev() {
        let (win, lose) = forced(&edges, &parents, m);
        for (at, margin) in margins.iter_mut().enumerate() {
            if win[at] && margin.mover.is_none() {
                margin.mover = Some(m);
            }
            if lose[at] && margin.opponent.is_none() {
                margin.opponent = Some(m);
            }
        }
    }
    Ok(Solved { index, margins })
}

/// For threshold `m`: the states whose mover can force the end with a
/// margin of at least `m` (Win), and those whose opponent can (Lose), by
/// propagation from the ends: a state with a move to a Lose state, or to
/// an end worth at least `m`, is Win; a state all of whose moves go to Win
/// states or to ends worth at most `-m` is Lose.
fn forced(edges: &[Vec<Edge>], parents: &[Vec<u32>], m: i32) -> (Vec<bool>, Vec<bool>) {
    let count = edges.len();
    let (mut win, mut lose) = (vec![false; count], vec![false; count]);
    let mut open: Vec<u32> = vec![0; count];
    let mut queue: Vec<(u32, bool)> = Vec::new();
    for (at, out) in edges.iter().enumerate() {
        for edge in out {
            match *edge {
                Edge::End(margin) => {
                    win[at] |= margin >= m;
                    // An end worth at most -m is the opponent's already.
                    open[at] += u32::from(margin > -m);
                }
                Edge::State => open[at] += 1,
            }
        }
        if win[at] {
            queue.push((at as u32, true));
        }
        if open[at] == 0 {
            lose[at] = true;
            queue.push((at as u32, false));
        }
    }
    while let Some((at, is_win)) = queue.pop() {
        for &parent in &parents[at as usize] {
            let parent = parent as usize;
            if is_win {
                open[parent] -= 1;
                if open[parent] == 0 && !lose[parent] {
                    lose[parent] = true;
                    queue.push((parent as u32, false));
                }
            } else if !win[parent] {
                win[parent] = true;
                queue.push((parent as u32, true));
            }
        }
    }
    (win, lose)
}

/// A result from Black's view: the least Black can force and the most
/// White lets Black have (`None`: that side cannot force the end). Equal,
/// they are the exact value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    pub low: Option<i32>,
    pub high: Option<i32>,
}

impl Range {
    /// The exact value, when both sides can force it.
    pub fn exact(&self) -> Option<i32> {
        match (self.low, self.high) {
            (Some(low), Some(high)) if low == high => Some(low),
            _ => None,
        }
    }

    /// `+1`, `0`, `-9`; or `LOW..HIGH` when play that never ends lies
    /// between (`..` for a side that cannot force the end).
    pub fn text(&self) -> String {
        let signed = |v: i32| {
            if v > 0 {
                format!("+{v}")
            } else {
                v.to_string()
            }
        };
        match self.exact() {
            Some(value) => signed(value),
            None => format!(
                "{}..{}",
                self.low.map(signed).unwrap_or_default(),
                self.high.map(signed).unwrap_or_default()
            ),
        }
    }
}

/// One position of a piece, solved with each side to move first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceValue {
    pub black: PointSet,
    pub white: PointSet,
    /// `l`: Black to move first.
    pub black_first: Range,
    /// `r`: White to move first.
    pub white_first: Range,
    /// The moves that keep `l` for Black, in point order, pass last.
    pub black_moves: Vec<Move>,
    /// The moves that keep `r` for White.
    pub white_moves: Vec<Move>,
}

impl PieceValue {
    /// `{l|r}`.
    pub fn pair(&self) -> String {
        format!(
            "{{{}|{}}}",
            self.black_first.text(),
            self.white_first.text()
        )
    }

    /// How much moving first is worth: `(l - r) / 2`, when both are exact.
    pub fn temperature(&self) -> Option<f64> {
        Some((self.black_first.exact()? - self.white_first.exact()?) as f64 / 2.0)
    }
}

/// Whatever gives the margins of a piece's states: the solve here
/// (`Solved`), or the tables' values (`TableMargins`).
pub trait PieceMargins {
    /// The margins of a legal state; `Ok(None)` if the source does not
    /// hold it, `Err` if it fails to read it.
    fn margins_of(&self, state: &State) -> Result<Option<Margins>, String>;
}

impl PieceMargins for Solved {
    fn margins_of(&self, state: &State) -> Result<Option<Margins>, String> {
        Ok(self.margins(state))
    }
}

/// A board's values (a table, or whatever `table::library` serves) read
/// as margins: A(s) and B(s) without their plies. The tables score the
/// end by area, so these are `Scoring::Area`'s margins.
pub struct TableMargins<'a>(pub &'a dyn Values);

impl PieceMargins for TableMargins<'_> {
    fn margins_of(&self, state: &State) -> Result<Option<Margins>, String> {
        let value = self.0.value_of(state).map_err(|error| {
            let mut message = error.to_string();
            let mut source = std::error::Error::source(&error);
            while let Some(cause) = source {
                message.push_str(&format!(": {cause}"));
                source = cause.source();
            }
            message
        })?;
        Ok(Some(Margins {
            mover: value.mover_margin.map(i32::from),
            opponent: value.opponent_margin.map(i32::from),
        }))
    }
}

/// The value of the position of `board` with these stones, no ko and no
/// pass pending, each side to move first, from `source`, the ends scored
/// by `scoring` (the scoring `source` was solved with); `Ok(None)` if it
/// is not a legal position.
pub fn piece_value(
    board: &Board,
    scoring: Scoring,
    source: &dyn PieceMargins,
    black: PointSet,
    white: PointSet,
) -> Result<Option<PieceValue>, String> {
    let black_position = Position::new(black, white);
    if !black_position.is_legal(board) {
        return Ok(None);
    }
    let black_state = State::from_parts(black_position, None, false);
    let white_state = State::from_parts(Position::new(white, black), None, false);
    let (Some(black_margins), Some(white_margins)) = (
        source.margins_of(&black_state)?,
        source.margins_of(&white_state)?,
    ) else {
        return Ok(None);
    };
    Ok(Some(PieceValue {
        black,
        white,
        black_first: Range {
            low: black_margins.mover,
            high: black_margins.opponent.map(|b| -b),
        },
        white_first: Range {
            low: white_margins.opponent,
            high: white_margins.mover.map(|a| -a),
        },
        black_moves: best_moves(board, scoring, source, &black_state, black_margins)?,
        white_moves: best_moves(board, scoring, source, &white_state, white_margins)?,
    }))
}

/// The moves of `state` that keep the most its mover can force: to an end
/// worth that much, or to a state where the opponent, now to move, can be
/// held to it. None when the mover cannot force the end.
fn best_moves(
    board: &Board,
    scoring: Scoring,
    source: &dyn PieceMargins,
    state: &State,
    margins: Margins,
) -> Result<Vec<Move>, String> {
    let Some(best) = margins.mover else {
        return Ok(Vec::new());
    };
    let mut moves = Vec::new();
    for mv in state.legal_moves(board) {
        let keeps = match state.play(board, mv) {
            Some(Child::End { .. }) => scoring.margin(board, &state.position()) >= best,
            Some(Child::State(child)) => source
                .margins_of(&child)?
                .and_then(|m| m.opponent)
                .is_some_and(|b| b >= best),
            None => false,
        };
        if keeps {
            moves.push(mv);
        }
    }
    Ok(moves)
}

/// Calls `each` with one position of every class of legal positions of
/// `board` under its symmetries (the one with the smallest image, as
/// `(black, white)` bits), fewest stones first, then by Black's stones'
/// bits, then White's; stops at the first error. The positions are made
/// one at a time: nothing is listed.
pub fn for_each_class<E>(
    board: &Board,
    mut each: impl FnMut(PointSet, PointSet) -> Result<(), E>,
) -> Result<(), E> {
    let group = symmetries(board);
    let all = board.all();
    let points = all.len();
    let canonical = |black: PointSet, white: PointSet| {
        group
            .iter()
            .all(|s| (black.0, white.0) <= (s.apply_set(black).0, s.apply_set(white).0))
    };
    for stones in 0..=points {
        // Black's sets in increasing order of their bits: the subsets of
        // `all`, each the next above the last.
        let mut black = 0u64;
        loop {
            let black_set = PointSet(black);
            let whites = stones.checked_sub(black_set.len());
            if let Some(whites) = whites {
                let rest: Vec<u64> = PointSet(all.0 & !black)
                    .iter()
                    .map(|p| PointSet::single(p).0)
                    .collect();
                if whites <= rest.len() {
                    // White's sets of `whites` points among `rest`, in
                    // increasing order: the `whites`-bit numbers below
                    // 2^rest.len() in order (Gosper's), each bit i standing
                    // for rest[i].
                    let limit = 1u64 << rest.len();
                    let mut pick = (1u64 << whites) - 1;
                    while pick < limit {
                        let mut white = 0;
                        let mut bits = pick;
                        while bits != 0 {
                            white |= rest[bits.trailing_zeros() as usize];
                            bits &= bits - 1;
                        }
                        let white_set = PointSet(white);
                        if canonical(black_set, white_set)
                            && Position::new(black_set, white_set).is_legal(board)
                        {
                            each(black_set, white_set)?;
                        }
                        if pick == 0 {
                            break;
                        }
                        let low = pick & pick.wrapping_neg();
                        let ripple = pick + low;
                        pick = (((ripple ^ pick) >> 2) / low) | ripple;
                    }
                }
            }
            if black == all.0 {
                break;
            }
            black = ((black | !all.0).wrapping_add(1)) & all.0;
        }
    }
    Ok(())
}

impl Solved {
    /// The margins of a state.
    pub fn margins(&self, state: &State) -> Option<Margins> {
        self.index.get(state).map(|&at| self.margins[at as usize])
    }
}

/// The position as rows from the top separated by `/`: `X` Black, `O`
/// White, `.` empty, `#` a cell of the grid that is no point, `+` an open
/// cell.
pub fn diagram(board: &Board, black: PointSet, white: PointSet) -> String {
    let shape = board.shape_geometry();
    (0..board.rows())
        .rev()
        .map(|row| {
            (0..board.columns())
                .map(|column| match board.point_at(row, column) {
                    Some(p) if black.contains(p) => 'X',
                    Some(p) if white.contains(p) => 'O',
                    Some(_) => '.',
                    None => match shape.map(|s| s.cell(row, column)) {
                        Some(Cell::Open) => '+',
                        _ => '#',
                    },
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}
