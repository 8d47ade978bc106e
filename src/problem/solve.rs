//! The exact solver of a problem: every state reachable from the problem
//! is enumerated forward, then one retrograde pass finds the states the
//! attacker wins and in how many plies.
//!
//! Enumeration numbers the states in the order a breadth-first search
//! meets them (the problem's start is state 0) and stores each state's
//! children compactly: the children of state `i` are
//! `children[offsets[i]..offsets[i + 1]]`, its placements in point order,
//! then its pass. A state whose targets are all captured is terminal and
//! has no children; a pass that ends the game (the second in a row) leads
//! to `GAME_OVER`, which is no state and is never won.
//!
//! The retrograde pass builds the reverse edges (the transposed arrays),
//! then works through a queue from the terminal states, in order of
//! depth: a state where the attacker moves is won as soon as one child is,
//! a state where the defender moves once all its children are (each keeps
//! a count of its children not yet won). A state left unmarked is the
//! defender's: alive, seki, or an endless game. Since the queue holds
//! states in order of depth, the attacker's first winning child is a
//! shortest one and the defender's last is a longest one.

use std::collections::{HashMap, VecDeque};

use crate::problem::{KoAssumption, Problem};
use crate::rules::board::{Board, Point, PointSet};
use crate::rules::moves::Move;
use crate::rules::position::Position;

/// The child of a pass that ends the game: the defender has won.
pub(crate) const GAME_OVER: u32 = u32::MAX;

/// The edge's move: a point's number, or `PASS`.
const PASS: u8 = u8::MAX;

/// No ko point.
const NO_KO: u8 = u8::MAX;

/// A state of a problem's game, by the roles of the players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct StateKey {
    /// The attacker's stones.
    pub(crate) attacker: u64,
    /// The defender's stones.
    pub(crate) defender: u64,
    /// The target stones still on the board (a subset of `defender`).
    pub(crate) targets: u64,
    /// Whether the attacker moves.
    pub(crate) attacker_to_move: bool,
    /// The point the mover may not take back at once (a point's number),
    /// or `u8::MAX`.
    pub(crate) ko: u8,
    /// Consecutive passes before this state, 0 or 1.
    pub(crate) passes: u8,
}

impl StateKey {
    /// Whether every target has been captured: the attacker has won.
    pub(crate) fn is_capture(&self) -> bool {
        self.targets == 0
    }
}

/// The value of a state: `Some(plies)` when the attacker can force the
/// capture of every target (in that many plies, the attacker playing
/// shortest and the defender longest), `None` when the defender lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Status(pub(crate) Option<u32>);

impl Status {
    pub(crate) fn attacker_wins(self) -> bool {
        self.0.is_some()
    }
}

/// Every state reachable from a problem, with its value.
pub(crate) struct Solution {
    states: Vec<StateKey>,
    offsets: Vec<u32>,
    children: Vec<u32>,
    moves: Vec<u8>,
    /// The depth of each state the attacker wins; `u32::MAX` for the others.
    depth: Vec<u32>,
    peak_bytes: usize,
}

impl Solution {
    /// Enumerates and solves every state reachable from `problem`.
    pub(crate) fn new(problem: &Problem) -> Solution {
        let board = *problem.board();
        let attacker_colour = problem.defender().opposite();
        let start = StateKey {
            attacker: problem.stones(attacker_colour).bits(),
            defender: problem.stones(problem.defender()).bits(),
            targets: problem.targets().bits(),
            attacker_to_move: problem.to_move() == attacker_colour,
            ko: NO_KO,
            passes: 0,
        };
        let ko = problem.ko();
        let mut states = vec![start];
        let mut index: HashMap<StateKey, u32> = HashMap::from([(start, 0)]);
        let mut offsets = vec![0u32];
        let mut children = Vec::new();
        let mut moves = Vec::new();
        let mut found = Vec::new();
        let mut next = 0;
        while next < states.len() {
            let key = states[next];
            next += 1;
            if !key.is_capture() {
                found.clear();
                successors(&board, ko, &key, &mut found);
                for &(mv, child) in &found {
                    let child_index = match child {
                        None => GAME_OVER,
                        Some(child) => *index.entry(child).or_insert_with(|| {
                            states.push(child);
                            (states.len() - 1) as u32
                        }),
                    };
                    children.push(child_index);
                    moves.push(mv);
                }
            }
            offsets.push(children.len() as u32);
        }
        // The arrays kept, then the numbering (dropped before the
        // retrograde pass), counted by capacity; a hash map's entry is its
        // key, its value and a control byte.
        let kept_bytes = states.capacity() * size_of::<StateKey>()
            + (offsets.capacity() + children.capacity()) * size_of::<u32>()
            + moves.capacity();
        let index_bytes = index.capacity() * (size_of::<StateKey>() + size_of::<u32>() + 1);
        drop(index);
        let (depth, retrograde_bytes) = retrograde(&states, &offsets, &children);
        Solution {
            states,
            offsets,
            children,
            moves,
            depth,
            peak_bytes: kept_bytes + index_bytes.max(retrograde_bytes),
        }
    }

    /// The number of states.
    pub(crate) fn len(&self) -> usize {
        self.states.len()
    }

    /// The number of edges (moves), game-ending passes included.
    pub(crate) fn edges(&self) -> usize {
        self.children.len()
    }

    /// The most memory the solve held at once, in bytes: the states and
    /// their edges, with either the numbering of the states (while they
    /// are enumerated) or the reverse edges, counts and queue (during the
    /// retrograde pass).
    pub(crate) fn peak_bytes(&self) -> usize {
        self.peak_bytes
    }

    /// State `i`'s key.
    pub(crate) fn key(&self, i: usize) -> StateKey {
        self.states[i]
    }

    /// State `i`'s value.
    pub(crate) fn status(&self, i: usize) -> Status {
        Status((self.depth[i] != u32::MAX).then_some(self.depth[i]))
    }

    /// The problem's value.
    pub(crate) fn start(&self) -> Status {
        self.status(0)
    }

    /// The moves of state `i` with the value of the state each leads to,
    /// placements in point order, then the pass.
    pub(crate) fn moves_of(&self, i: usize) -> Vec<(Move, Status)> {
        let range = self.offsets[i] as usize..self.offsets[i + 1] as usize;
        range
            .map(|edge| {
                let mv = match self.moves[edge] {
                    PASS => Move::Pass,
                    point => Move::Place(Point::new(point as usize)),
                };
                let status = match self.children[edge] {
                    GAME_OVER => Status(None),
                    child => self.status(child as usize),
                };
                (mv, status)
            })
            .collect()
    }

    /// The best moves of state `i` for its mover, in the order of
    /// `moves_of`: the attacker's shortest win, else any move (none wins);
    /// the defender's moves that live, else the longest resistance.
    pub(crate) fn best_moves(&self, i: usize) -> Vec<Move> {
        let moves = self.moves_of(i);
        let keep: Box<dyn Fn(Status) -> bool> = match (self.key(i).attacker_to_move, self.status(i))
        {
            (_, Status(Some(0))) => return Vec::new(),
            (true, Status(Some(d))) | (false, Status(Some(d))) => {
                Box::new(move |s: Status| s == Status(Some(d - 1)))
            }
            (true, Status(None)) => Box::new(|_| true),
            (false, Status(None)) => Box::new(|s: Status| !s.attacker_wins()),
        };
        moves
            .into_iter()
            .filter(|&(_, status)| keep(status))
            .map(|(mv, _)| mv)
            .collect()
    }

    /// The problem's first moves, each with its value.
    pub(crate) fn first_moves(&self) -> Vec<(Move, Status)> {
        self.moves_of(0)
    }

    /// A line of best play from the start: each side plays its first best
    /// move, until every target is captured, two passes end the game, or a
    /// state comes again (an endless game, the defender's).
    pub(crate) fn principal_line(&self) -> Vec<Move> {
        let mut line = Vec::new();
        let mut seen = vec![false; self.len()];
        let mut state = 0usize;
        loop {
            if self.key(state).is_capture() || seen[state] {
                return line;
            }
            seen[state] = true;
            let Some(&mv) = self.best_moves(state).first() else {
                return line;
            };
            line.push(mv);
            let range = self.offsets[state] as usize..self.offsets[state + 1] as usize;
            let code = match mv {
                Move::Pass => PASS,
                Move::Place(point) => point.index() as u8,
            };
            let edge = range
                .into_iter()
                .find(|&edge| self.moves[edge] == code)
                .expect("a best move is a move of the state");
            match self.children[edge] {
                GAME_OVER => return line,
                child => state = child as usize,
            }
        }
    }

    /// The number of the state with this key, if the problem reaches it.
    pub(crate) fn find(&self, key: &StateKey) -> Option<usize> {
        self.states.iter().position(|state| state == key)
    }

    /// The state move `mv` of state `i` leads to: `Some(None)` for a pass
    /// that ends the game, `None` if `mv` is no move of the state.
    pub(crate) fn child(&self, i: usize, mv: Move) -> Option<Option<usize>> {
        let code = match mv {
            Move::Pass => PASS,
            Move::Place(point) => point.index() as u8,
        };
        let range = self.offsets[i] as usize..self.offsets[i + 1] as usize;
        let edge = range.into_iter().find(|&edge| self.moves[edge] == code)?;
        Some(match self.children[edge] {
            GAME_OVER => None,
            child => Some(child as usize),
        })
    }
}

/// The moves of a state that is no capture, each with the state it leads
/// to (`None`: the game ends): placements in point order, then the pass.
fn successors(
    board: &Board,
    ko: KoAssumption,
    key: &StateKey,
    out: &mut Vec<(u8, Option<StateKey>)>,
) {
    let (mover, other) = if key.attacker_to_move {
        (key.attacker, key.defender)
    } else {
        (key.defender, key.attacker)
    };
    let ignores_ko = match ko {
        KoAssumption::Basic => false,
        KoAssumption::AttackerIgnoresKo => key.attacker_to_move,
        KoAssumption::DefenderIgnoresKo => !key.attacker_to_move,
    };
    let position = Position::new(PointSet(mover), PointSet(other));
    position.placements(board, |point, placed| {
        if point.index() as u8 == key.ko && !ignores_ko {
            return;
        }
        let mover = placed.position.us().bits();
        let other = placed.position.them().bits();
        let ko = placed.ko.map_or(NO_KO, |p| p.index() as u8);
        let child = if key.attacker_to_move {
            StateKey {
                attacker: mover,
                defender: other,
                targets: key.targets & !placed.captured.bits(),
                attacker_to_move: false,
                ko,
                passes: 0,
            }
        } else {
            StateKey {
                attacker: other,
                defender: mover,
                targets: key.targets,
                attacker_to_move: true,
                ko,
                passes: 0,
            }
        };
        out.push((point.index() as u8, Some(child)));
    });
    let pass = (key.passes == 0).then_some(StateKey {
        attacker_to_move: !key.attacker_to_move,
        ko: NO_KO,
        passes: 1,
        ..*key
    });
    out.push((PASS, pass));
}

/// The depth of every state the attacker wins (`u32::MAX` for the others),
/// and the bytes the pass held.
fn retrograde(states: &[StateKey], offsets: &[u32], children: &[u32]) -> (Vec<u32>, usize) {
    let n = states.len();
    // The reverse edges: the parents of state `c` are
    // `parents[parent_offsets[c]..parent_offsets[c + 1]]`.
    let mut parent_offsets = vec![0u32; n + 1];
    for &child in children {
        if child != GAME_OVER {
            parent_offsets[child as usize + 1] += 1;
        }
    }
    for i in 0..n {
        parent_offsets[i + 1] += parent_offsets[i];
    }
    let mut fill = parent_offsets.clone();
    let mut parents = vec![0u32; parent_offsets[n] as usize];
    for parent in 0..n {
        for &child in &children[offsets[parent] as usize..offsets[parent + 1] as usize] {
            if child != GAME_OVER {
                parents[fill[child as usize] as usize] = parent as u32;
                fill[child as usize] += 1;
            }
        }
    }
    drop(fill);
    // A defender's state's children not yet won (a game-ending pass never
    // is); unused for the attacker's states.
    let mut unresolved: Vec<u32> = (0..n).map(|i| offsets[i + 1] - offsets[i]).collect();
    let mut depth = vec![u32::MAX; n];
    let mut queue = VecDeque::new();
    for (i, key) in states.iter().enumerate() {
        if key.is_capture() {
            depth[i] = 0;
            queue.push_back(i as u32);
        }
    }
    let mut queue_peak = queue.len();
    while let Some(child) = queue.pop_front() {
        let next = depth[child as usize] + 1;
        let range =
            parent_offsets[child as usize] as usize..parent_offsets[child as usize + 1] as usize;
        for &parent in &parents[range] {
            let parent = parent as usize;
            if depth[parent] != u32::MAX {
                continue;
            }
            let won = if states[parent].attacker_to_move {
                true
            } else {
                unresolved[parent] -= 1;
                unresolved[parent] == 0
            };
            if won {
                depth[parent] = next;
                queue.push_back(parent as u32);
            }
        }
        queue_peak = queue_peak.max(queue.len());
    }
    let bytes =
        (parent_offsets.len() + parents.len() + unresolved.len() + depth.len() + queue_peak)
            * size_of::<u32>();
    (depth, bytes)
}
