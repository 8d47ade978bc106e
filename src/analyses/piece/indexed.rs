//! A piece's margins held per state over the tables' numbering of the
//! canonical states (`StateIndex`: the states under the piece's
//! symmetries, two bytes a state), filled either by solving the piece here
//! with any `Scoring` (`solve_indexed`) or by reading a table's values in
//! one sequential walk of its blocks (`load_table`), and read back by
//! ranking a state (`IndexedMargins`, a `PieceMargins`).
//!
//! The solve is the retrograde of `piece::solve` (docs/rules.md's A(s) and
//! B(s) without the depths) on numbered states: the parents of each state
//! are found by generating every state's children twice, once to count
//! them and once to list them (four bytes an edge), and the thresholds `m`
//! are taken from the highest down, each one's Win and Lose sets growing
//! from the last one's (both only grow as `m` falls: they are least fixed
//! points of operators that grow as `m` falls), so that every edge is
//! followed at most once for Win and once for Lose in the whole solve. Its
//! memory is `solve_bytes`: about 12 bytes a state and 4 an edge.

use std::time::Instant;

use super::{Margins, PieceMargins, Scoring};
use crate::index::{StateIndex, StateNumber, SLOT_FIRST_KO, SLOT_PASSED};
use crate::rules::board::Board;
use crate::rules::state::State;
use crate::table::verify::visit_block;
use crate::table::{Fault, Table};

/// A margin not forced.
const NONE: i8 = i8::MIN;

/// The bytes a solve holds a state: where its parents start (4), its open
/// moves (1), its two margins (2), its place on the work stack (4), its
/// position's end margin (1, on half the states).
pub const SOLVE_BYTES_PER_STATE: u64 = 12;

/// The bytes a solve holds an edge: the parent's number.
pub const SOLVE_BYTES_PER_EDGE: u64 = 4;

/// The memory a solve of `states` states and `edges` edges (moves to
/// another state) holds besides the index.
pub fn solve_bytes(states: u64, edges: u64) -> u64 {
    states * SOLVE_BYTES_PER_STATE + edges * SOLVE_BYTES_PER_EDGE
}

/// Each canonical state's margins, by its number in the index.
pub struct IndexedMargins {
    index: StateIndex,
    /// A(s) and B(s), `NONE` where not forced.
    margins: Vec<[i8; 2]>,
}

/// What a solve did.
#[derive(Clone, Copy, Debug, Default)]
pub struct SolveFigures {
    pub states: u64,
    /// Moves to another state (the ends by a second pass aside).
    pub edges: u64,
    /// The memory `solve_bytes` gives, with the index's.
    pub bytes: u64,
    pub seconds: f64,
}

impl IndexedMargins {
    /// The states held.
    #[cfg(test)]
    pub fn states(&self) -> u64 {
        self.margins.len() as u64
    }

    /// The margins of the state numbered `number`.
    fn at(&self, number: StateNumber) -> Margins {
        let [mover, opponent] = self.margins[number as usize];
        let forced = |m: i8| (m != NONE).then_some(i32::from(m));
        Margins {
            mover: forced(mover),
            opponent: forced(opponent),
        }
    }
}

impl PieceMargins for IndexedMargins {
    fn margins_of(&self, state: &State) -> Result<Option<Margins>, String> {
        Ok(self.index.rank(state).map(|number| self.at(number)))
    }
}

/// The index of `board`, or why there is none.
fn index_of(board: Board) -> Result<StateIndex, String> {
    StateIndex::build(board).ok_or_else(|| {
        format!(
            "{} cannot be numbered (too many points or ko states for the index)",
            board.piece_name()
        )
    })
}

/// Calls `each` with every canonical state in number order: its number,
/// the state, and the number of its position.
fn for_each_state(index: &StateIndex, mut each: impl FnMut(StateNumber, State, u64)) {
    for entry in index.positions(0) {
        let position = index.codec().decode(entry.code);
        for slot in 0..2 {
            let state = State::from_parts(position, None, slot == SLOT_PASSED);
            each(entry.state(slot), state, entry.number);
        }
        if entry.ko_states > 0 {
            let kos = index.canonical_ko_points(&position);
            for (j, ko) in kos.iter().enumerate() {
                let state = State::from_parts(position, Some(ko), false);
                each(entry.state(SLOT_FIRST_KO + j as u32), state, entry.number);
            }
        }
    }
}

/// Calls `each` with the number of every state a move of `state` leads to
/// (placements in point order, then the pass unless it ends the game).
fn for_each_child(
    index: &StateIndex,
    state: &State,
    mut each: impl FnMut(StateNumber),
) -> Result<(), String> {
    let board = index.board();
    let position = state.position();
    let mut missing = None;
    position.placements(board, |point, placement| {
        if state.ko() == Some(point) {
            return;
        }
        let child = State::from_parts(placement.position.swapped(), placement.ko, false);
        match index.rank(&child) {
            Some(number) => each(number),
            None => missing = Some(child),
        }
    });
    if !state.passed() {
        let child = State::from_parts(position.swapped(), None, true);
        match index.rank(&child) {
            Some(number) => each(number),
            None => missing = Some(child),
        }
    }
    match missing {
        Some(child) => Err(format!(
            "a move of a state of {} leads to a state the index does not hold: {child:?}",
            board.piece_name()
        )),
        None => Ok(()),
    }
}

/// Solves every state of `board` with the ends scored by `scoring`, in at
/// most `memory` bytes (refused, with the figures, before the part that
/// passes it is allocated).
pub fn solve_indexed(
    board: Board,
    scoring: Scoring,
    memory: u64,
) -> Result<(IndexedMargins, SolveFigures), String> {
    let started = Instant::now();
    let name = board.piece_name();
    let index = index_of(board)?;
    let counts = index.counts();
    let states = counts.states;
    let index_bytes = index.memory_bytes() as u64;
    let refuse = |edges: Option<u64>| {
        let bytes = index_bytes + solve_bytes(states, edges.unwrap_or(0));
        format!(
            "{name}: solving its {states} states{} takes {} MiB or more, past the {} MiB given \
             (--memory)",
            edges.map_or(String::new(), |e| format!(" and {e} edges")),
            bytes >> 20,
            memory >> 20
        )
    };
    if states >= u64::from(u32::MAX) {
        return Err(format!(
            "{name} has {states} states, past the 2^32 a solve here numbers"
        ));
    }
    if index_bytes + solve_bytes(states, 0) > memory {
        return Err(refuse(None));
    }
    let n = states as usize;
    // The parents each state has (then where its list starts), and the
    // moves of each state to another state.
    let mut start: Vec<u32> = vec![0; n + 1];
    let mut open: Vec<u8> = vec![0; n];
    let mut failure = None;
    for_each_state(&index, |number, state, _| {
        let mut moves = 0u8;
        if let Err(error) = for_each_child(&index, &state, |child| {
            start[child as usize] += 1;
            moves += 1;
        }) {
            failure.get_or_insert(error);
        }
        open[number as usize] = moves;
    });
    if let Some(error) = failure {
        return Err(error);
    }
    let mut edges = 0u64;
    for slot in start.iter_mut() {
        let count = u64::from(*slot);
        *slot = edges as u32;
        edges += count;
        if edges > u64::from(u32::MAX) {
            return Err(format!(
                "{name} has more than 2^32 edges, past what a solve here lists"
            ));
        }
    }
    let bytes = index_bytes + solve_bytes(states, edges);
    if bytes > memory {
        return Err(refuse(Some(edges)));
    }
    // Each parent at its child's next free place; `start[c]` ends at the
    // start of `c + 1`'s list, and is moved back after.
    let mut parents: Vec<u32> = vec![0; edges as usize];
    let mut ends: Vec<i8> = vec![0; counts.positions as usize];
    for_each_state(&index, |number, state, position_number| {
        if state.passed() {
            ends[position_number as usize] = scoring.margin(&board, &state.position()) as i8;
        }
        for_each_child(&index, &state, |child| {
            let at = &mut start[child as usize];
            parents[*at as usize] = number as u32;
            *at += 1;
        })
        .expect("every child was ranked by the first pass");
    });
    for c in (1..n).rev() {
        start[c] = start[c - 1];
    }
    start[0] = 0;
    // The end by a second pass is one more open move of a passed state,
    // until the threshold makes it the opponent's.
    for (position, _) in ends.iter().enumerate() {
        open[2 * position + 1] += 1;
    }
    let mut margins: Vec<[i8; 2]> = vec![[NONE, NONE]; n];
    let mut stack: Vec<u32> = Vec::new();
    const LOSE: u32 = 1 << 31;
    let points = board.points() as i32;
    for m in (-points..=points).rev() {
        for (position, &end) in ends.iter().enumerate() {
            let passed = 2 * position + 1;
            let end = i32::from(end);
            if end == m && margins[passed][0] == NONE {
                margins[passed][0] = m as i8;
                stack.push(passed as u32);
            }
            if end == -m {
                open[passed] -= 1;
                if open[passed] == 0 && margins[passed][1] == NONE {
                    margins[passed][1] = m as i8;
                    stack.push(passed as u32 | LOSE);
                }
            }
        }
        while let Some(entry) = stack.pop() {
            let state = (entry & !LOSE) as usize;
            let list = &parents[start[state] as usize..start[state + 1] as usize];
            if entry & LOSE == 0 {
                // A Win state: one more move of each parent is the
                // opponent's; a parent with none left is Lose.
                for &parent in list {
                    let parent = parent as usize;
                    open[parent] -= 1;
                    if open[parent] == 0 && margins[parent][1] == NONE {
                        margins[parent][1] = m as i8;
                        stack.push(parent as u32 | LOSE);
                    }
                }
            } else {
                for &parent in list {
                    let parent = parent as usize;
                    if margins[parent][0] == NONE {
                        margins[parent][0] = m as i8;
                        stack.push(parent as u32);
                    }
                }
            }
        }
    }
    let figures = SolveFigures {
        states,
        edges,
        bytes,
        seconds: started.elapsed().as_secs_f64(),
    };
    Ok((IndexedMargins { index, margins }, figures))
}

/// Every state's margins read from `table` in one walk of its blocks, in
/// at most `memory` bytes; `None` if they would take more (the index and
/// two bytes a state).
pub fn load_table(table: &Table, memory: u64) -> Result<Option<IndexedMargins>, String> {
    let board = table.board();
    let view = table.view();
    let header = view.header().clone();
    let index = index_of(board)?;
    let counts = index.counts();
    if index.memory_bytes() as u64 + 2 * counts.states > memory {
        return Ok(None);
    }
    if header.positions != counts.positions {
        return Err(format!(
            "table {} holds {} positions, the board {}",
            table.origin(),
            header.positions,
            counts.positions
        ));
    }
    let mut margins: Vec<[i8; 2]> = vec![[NONE, NONE]; counts.states as usize];
    for block in 0..header.blocks {
        visit_block(&view, &index, block, |_, _, number, value| {
            margins[number as usize] = [
                value.mover_margin.unwrap_or(NONE),
                value.opponent_margin.unwrap_or(NONE),
            ];
            Ok::<(), Fault>(())
        })
        .map_err(|fault| format!("table {}: {fault}", table.origin()))?;
    }
    Ok(Some(IndexedMargins { index, margins }))
}
