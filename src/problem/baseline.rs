//! The first exact solver of a problem, kept for the benchmark's
//! side-by-side figures (`smallgo bench problems --baseline`): every state
//! reachable from the problem is enumerated forward into a hash map of
//! full state keys with its children stored, then one retrograde pass
//! over the transposed edges finds the states the attacker wins and in
//! how many plies. `solve` holds the solver in use; this one gives the
//! same values on every state (the tests compare them).

use std::collections::{HashMap, VecDeque};

use crate::problem::solve::{successors, StateKey, Status};
use crate::problem::Problem;

/// The child of a pass that ends the game: the defender has won.
const GAME_OVER: u32 = u32::MAX;

/// Every state reachable from a problem, with its value, by the first
/// solver.
pub(crate) struct Baseline {
    states: Vec<StateKey>,
    /// Where each state's children start, as the first solver kept them
    /// (counted in its memory figures).
    #[allow(dead_code)]
    offsets: Vec<u32>,
    children: Vec<u32>,
    /// Each edge's move, stored as the first solver stored them (counted
    /// in its memory figures, read by nothing here).
    #[allow(dead_code)]
    moves: Vec<u8>,
    /// The depth of each state the attacker wins; `u32::MAX` for the others.
    depth: Vec<u32>,
    peak_bytes: usize,
}

impl Baseline {
    /// Enumerates and solves every state reachable from `problem`.
    pub(crate) fn new(problem: &Problem) -> Baseline {
        let board = *problem.board();
        let start = StateKey::start(problem);
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
                successors(&board, ko, problem.objective(), &key, &mut found);
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
        Baseline {
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
