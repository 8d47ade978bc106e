//! The cycles that basic ko allows: the strongly connected components of a
//! board's state graph, and which states' values depend on never-ending play
//! being a draw (`smallgo analyze cycles`, docs/analyses.md "Cycles").
//!
//! The graph's nodes are the states the index numbers (canonical, mover's
//! view: symmetric and colour-swapped states are one node); its edges are the
//! legal moves, pass included, from a state to its child state, the end of
//! the game after a second pass left out and the moves to one child counted
//! once. Children come from `State::legal_points`, `State::place` and
//! `State::pass`, the rules every other part uses, ranked by the index. The
//! graph is held as arrays indexed by state number (`u64` offsets, `u32`
//! targets), and its components are found by an iterative Tarjan whose call
//! stack is a vector, so that no board overflows the thread's stack.
//!
//! A state's value is *cycle-dependent* when A(s) + B(s) < 0 or either is
//! none (a side cannot force the game to end): then some komi, a half-integer
//! one, gives a draw, which no finished game can give, so perfect play there
//! never ends. Any rule that makes every game end with a score (a ban on
//! repeating a full state, or a repetition scored as a loss for the side that
//! repeats) gives each state one margin v, A = v and B = -v, so these states'
//! values change. The others keep theirs under any such rule that leaves the
//! non-repeating moves legal: each side's forcing strategy ends the game
//! within dA (dB) plies and never repeats a state. `cycle_dependent` is the
//! test; `analyze` counts the states and checks that every one of them can
//! reach a cycle, as never-ending play needs.

use std::collections::VecDeque;

use rayon::prelude::*;

use crate::index::{StateIndex, StateNumber, SLOT_PASSED, SLOT_PLAIN};
use crate::rules::board::PointSet;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::state::{Child, State};
use crate::rules::value::Value;
use crate::symmetry::Symmetry;
use crate::table::values::Values;

/// States per piece of work when the graph is built and values are read.
const CHUNK: u64 = 1 << 14;

/// Bytes per state and per edge the analysis holds at most, beside the
/// index: offsets (8), Tarjan's order and lowlink (8), its stacks (16 at
/// worst), component and flag arrays (about 8); 4 per edge, twice while the
/// pieces are joined.
pub const BYTES_PER_STATE: f64 = 48.0;
pub const BYTES_PER_EDGE: f64 = 8.0;

/// The state graph of a board, as adjacency arrays.
pub struct StateGraph {
    /// Where each state's children start in `targets`; one more entry than
    /// states.
    offsets: Vec<u64>,
    /// The children, each state's sorted and without repeats.
    targets: Vec<u32>,
}

impl StateGraph {
    /// The graph of every state `index` numbers, with the passes as edges
    /// unless `passes` is false (then only placements are). `None` if the
    /// board has `u32::MAX` states or more.
    pub fn build(index: &StateIndex, passes: bool) -> Option<StateGraph> {
        let states = index.counts().states;
        if states >= u32::MAX as u64 {
            return None;
        }
        let chunks: Vec<(Vec<u32>, Vec<u32>)> = (0..states.div_ceil(CHUNK))
            .into_par_iter()
            .map(|chunk| {
                let first = chunk * CHUNK;
                let last = (first + CHUNK).min(states);
                let mut cursor = index.state_cursor();
                let mut counts = Vec::with_capacity((last - first) as usize);
                let mut targets = Vec::new();
                let mut children = Vec::new();
                for number in first..last {
                    children_of(index, &cursor.state(number), passes, &mut children);
                    counts.push(children.len() as u32);
                    targets.extend_from_slice(&children);
                }
                (counts, targets)
            })
            .collect();
        let edges: usize = chunks.iter().map(|(_, t)| t.len()).sum();
        let mut offsets = Vec::with_capacity(states as usize + 1);
        let mut targets = Vec::with_capacity(edges);
        offsets.push(0u64);
        for (counts, chunk_targets) in chunks {
            for count in counts {
                offsets.push(offsets.last().unwrap() + count as u64);
            }
            targets.extend_from_slice(&chunk_targets);
        }
        Some(StateGraph { offsets, targets })
    }

    /// A graph given by its adjacency lists (for tests).
    #[cfg(test)]
    pub fn from_lists(lists: &[Vec<u32>]) -> StateGraph {
        let mut offsets = vec![0u64];
        let mut targets = Vec::new();
        for list in lists {
            targets.extend_from_slice(list);
            offsets.push(targets.len() as u64);
        }
        StateGraph { offsets, targets }
    }

    pub fn states(&self) -> u64 {
        self.offsets.len() as u64 - 1
    }

    pub fn edges(&self) -> u64 {
        self.targets.len() as u64
    }

    /// The children of state `state`.
    #[inline]
    pub fn children(&self, state: u32) -> &[u32] {
        let start = self.offsets[state as usize] as usize;
        let end = self.offsets[state as usize + 1] as usize;
        &self.targets[start..end]
    }
}

/// The numbers of the distinct child states of `state` (the end of the game
/// left out; the pass too unless `passes`), sorted, into `out`.
pub fn children_of(index: &StateIndex, state: &State, passes: bool, out: &mut Vec<u32>) {
    out.clear();
    let board = index.board();
    for point in state.legal_points(board).iter() {
        let child = state
            .place(board, point)
            .expect("legal_points are legal placements");
        out.push(rank(index, &child));
    }
    if passes {
        if let Child::State(child) = state.pass(board) {
            out.push(rank(index, &child));
        }
    }
    out.sort_unstable();
    out.dedup();
}

fn rank(index: &StateIndex, state: &State) -> u32 {
    index
        .rank(state)
        .expect("the index numbers every legal state") as u32
}

/// The strongly connected components of a graph.
pub struct Components {
    /// Each state's component. Components are numbered in the order Tarjan
    /// closes them: an edge between two components goes to a lower number.
    pub component: Vec<u32>,
    /// Each component's size.
    pub sizes: Vec<u32>,
    /// Components that hold a cycle: more than one state, or a state that is
    /// its own child.
    pub cyclic: Vec<bool>,
    /// Components from which a cyclic component can be reached (cyclic ones
    /// included).
    pub reaches_cycle: Vec<bool>,
    /// States that are their own child.
    pub self_loops: u64,
}

impl Components {
    pub fn count(&self) -> usize {
        self.sizes.len()
    }

    /// Whether state `state` lies on a cycle.
    pub fn on_cycle(&self, state: u32) -> bool {
        self.cyclic[self.component[state as usize] as usize]
    }

    /// Whether a cycle can be reached from state `state`.
    pub fn reaches_cycle(&self, state: u32) -> bool {
        self.reaches_cycle[self.component[state as usize] as usize]
    }
}

/// Tarjan's algorithm, with an explicit call stack: memory grows with the
/// depth of the search, the thread's stack does not.
pub fn strongly_connected(graph: &StateGraph) -> Components {
    const UNVISITED: u32 = u32::MAX;
    const DONE: u32 = u32::MAX - 1;
    let n = graph.states() as usize;
    assert!(n < DONE as usize, "too many states for 32-bit numbers");
    // `order`: discovery number, or UNVISITED, or DONE once the state's
    // component is closed; `low`: the lowlink, then the component.
    let mut order = vec![UNVISITED; n];
    let mut low = vec![0u32; n];
    let mut next_order = 0u32;
    let mut stack: Vec<u32> = Vec::new();
    let mut calls: Vec<(u32, u64)> = Vec::new();
    let mut sizes = Vec::new();
    let mut cyclic = Vec::new();
    let mut reaches_cycle = Vec::new();
    let mut self_loops = 0u64;
    for root in 0..n as u32 {
        if order[root as usize] != UNVISITED {
            continue;
        }
        order[root as usize] = next_order;
        low[root as usize] = next_order;
        next_order += 1;
        stack.push(root);
        calls.push((root, graph.offsets[root as usize]));
        while let Some(&mut (v, ref mut at)) = calls.last_mut() {
            if *at < graph.offsets[v as usize + 1] {
                let w = graph.targets[*at as usize];
                *at += 1;
                match order[w as usize] {
                    UNVISITED => {
                        order[w as usize] = next_order;
                        low[w as usize] = next_order;
                        next_order += 1;
                        stack.push(w);
                        calls.push((w, graph.offsets[w as usize]));
                    }
                    DONE => {}
                    seen => low[v as usize] = low[v as usize].min(seen),
                }
                continue;
            }
            calls.pop();
            let v_low = low[v as usize];
            if let Some(&(parent, _)) = calls.last() {
                low[parent as usize] = low[parent as usize].min(v_low);
            }
            if v_low != order[v as usize] {
                continue;
            }
            // v roots a component: the states above it on the stack.
            let id = sizes.len() as u32;
            let mut size = 0u32;
            loop {
                let w = stack.pop().expect("the root is on the stack");
                order[w as usize] = DONE;
                low[w as usize] = id;
                size += 1;
                if w == v {
                    break;
                }
            }
            // A state alone in its component is on a cycle only through a
            // self-loop; its other children are in closed components.
            let mut has_cycle = size > 1;
            let mut reaches = has_cycle;
            if size == 1 {
                for &w in graph.children(v) {
                    if w == v {
                        has_cycle = true;
                        self_loops += 1;
                    } else {
                        reaches |= reaches_cycle[low[w as usize] as usize];
                    }
                }
            }
            sizes.push(size);
            cyclic.push(has_cycle);
            reaches_cycle.push(reaches || has_cycle);
        }
    }
    // Self-loops of members that do not root their component.
    for v in 0..n as u32 {
        let c = low[v as usize] as usize;
        if sizes[c] > 1 && graph.children(v).binary_search(&v).is_ok() {
            self_loops += 1;
        }
    }
    Components {
        component: low,
        sizes,
        cyclic,
        reaches_cycle,
        self_loops,
    }
}

/// A value's A or B with none as below every margin.
fn margin_or_below(margin: Option<i8>, points: i32) -> i32 {
    margin.map_or(-points - 1, i32::from)
}

/// Whether a value depends on never-ending play being a draw: A + B < 0, or
/// a side cannot force the game to end (see the module's documentation).
/// Equivalently, some half-integer komi gives a draw.
pub fn cycle_dependent(value: &Value, points: i32) -> bool {
    margin_or_below(value.mover_margin, points) + margin_or_below(value.opponent_margin, points) < 0
}

/// Whether the result at komi 0 (the reference work's) depends on
/// never-ending play being a draw: a draw, and not a jigo (A = B = 0).
pub fn cycle_dependent_at_komi_zero(value: &Value, points: i32) -> bool {
    let a = margin_or_below(value.mover_margin, points);
    let b = margin_or_below(value.opponent_margin, points);
    a <= 0 && b <= 0 && !(a == 0 && b == 0)
}

/// What the values say about cycles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ValueCounts {
    /// States whose value is cycle-dependent.
    pub dependent: u64,
    /// Of those, states on a cycle.
    pub dependent_on_cycle: u64,
    /// Of those, states that cannot reach a cycle: none, if the values and
    /// the graph agree.
    pub dependent_without_cycle: u64,
    /// States whose komi-0 result is a draw that is not a jigo.
    pub dependent_at_komi_zero: u64,
    /// States on a cycle whose value is not cycle-dependent.
    pub on_cycle_independent: u64,
}

/// Reads every state's value and counts as `ValueCounts` says.
pub fn value_counts(
    index: &StateIndex,
    components: &Components,
    values: &(dyn Values + Sync),
) -> Result<ValueCounts, String> {
    let states = index.counts().states;
    let points = index.board().points() as i32;
    let parts: Vec<Result<ValueCounts, String>> = (0..states.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            let first = chunk * CHUNK;
            let last = (first + CHUNK).min(states);
            let mut cursor = index.state_cursor();
            let mut counts = ValueCounts::default();
            for number in first..last {
                let state = cursor.state(number);
                let value = values.value_of(&state).map_err(|e| e.to_string())?;
                let on_cycle = components.on_cycle(number as u32);
                if cycle_dependent(&value, points) {
                    counts.dependent += 1;
                    counts.dependent_on_cycle += on_cycle as u64;
                    counts.dependent_without_cycle +=
                        !components.reaches_cycle(number as u32) as u64;
                } else {
                    counts.on_cycle_independent += on_cycle as u64;
                }
                counts.dependent_at_komi_zero +=
                    cycle_dependent_at_komi_zero(&value, points) as u64;
            }
            Ok(counts)
        })
        .collect();
    let mut total = ValueCounts::default();
    for part in parts {
        let part = part?;
        total.dependent += part.dependent;
        total.dependent_on_cycle += part.dependent_on_cycle;
        total.dependent_without_cycle += part.dependent_without_cycle;
        total.dependent_at_komi_zero += part.dependent_at_komi_zero;
        total.on_cycle_independent += part.on_cycle_independent;
    }
    Ok(total)
}

/// A run of component sizes: `low..=high` states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeBucket {
    pub low: u32,
    pub high: u32,
    pub components: u64,
    pub states: u64,
}

/// The sizes of the components of more than one state, in buckets 2, 3-4,
/// 5-8, 9-16, ...; empty buckets left out.
pub fn size_buckets(components: &Components) -> Vec<SizeBucket> {
    let mut buckets: Vec<SizeBucket> = Vec::new();
    for bit in 1..32 {
        let low = (1u32 << (bit - 1)) + 1;
        let high = if bit == 31 { u32::MAX } else { 1u32 << bit };
        buckets.push(SizeBucket {
            low,
            high,
            components: 0,
            states: 0,
        });
    }
    for &size in components.sizes.iter().filter(|&&s| s > 1) {
        let bucket = (32 - (size - 1).leading_zeros()) as usize - 1;
        buckets[bucket].components += 1;
        buckets[bucket].states += size as u64;
    }
    buckets.retain(|b| b.components > 0);
    buckets
}

/// A cycle drawn as moves: from a start state, with Black to move, the moves
/// that come back to it. The shortest cycle through the start in the
/// canonical graph may come back to a turned or colour-swapped image of the
/// start; the moves are then repeated, turned as the image is, until the very
/// same full state (stones, colours, side to move, ko, passes) stands again:
/// a draw by repetition in a live game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExampleCycle {
    /// The component it lies in.
    pub component: u32,
    /// The start state's number.
    pub start_number: u32,
    /// The start state, Black being the side to move.
    pub start: State,
    /// Moves around the canonical cycle.
    pub cycle_length: usize,
    /// Every move until the start's full state repeats, Black first.
    pub moves: Vec<Move>,
}

impl ExampleCycle {
    /// The start position's Black and White stones.
    pub fn stones(&self) -> (PointSet, PointSet) {
        (self.start.position().us(), self.start.position().them())
    }
}

/// The state a symmetry makes of another.
fn turned(g: &Symmetry, state: &State) -> State {
    let position = state.position();
    State::from_parts(
        Position::new(g.apply_set(position.us()), g.apply_set(position.them())),
        state.ko().map(|k| g.apply(k)),
        state.passed(),
    )
}

/// States a search for a cycle through one start may visit: a component of
/// millions of states may hold none short through a given state.
const SEARCH_VISITS: usize = 1 << 18;

/// The shortest cycle through `start` within its component, shorter than
/// `limit` moves, as state numbers from `start` (not repeated at the end);
/// `None` if there is none or the search visits more than `SEARCH_VISITS`
/// states. `distance` is scratch of one entry per state, all `u32::MAX`,
/// and left so; `parent` is scratch of one entry per state.
fn shortest_cycle_through(
    graph: &StateGraph,
    components: &Components,
    start: u32,
    limit: usize,
    distance: &mut [u32],
    parent: &mut [u32],
) -> Option<Vec<u32>> {
    let component = components.component[start as usize];
    let mut queue = VecDeque::from([start]);
    let mut touched = vec![start];
    distance[start as usize] = 0;
    let mut found = None;
    'search: while let Some(v) = queue.pop_front() {
        // Breadth first: every later state is at least as far.
        if distance[v as usize] as usize + 1 >= limit || touched.len() > SEARCH_VISITS {
            break;
        }
        for &w in graph.children(v) {
            if w == start {
                found = Some(v);
                break 'search;
            }
            if components.component[w as usize] == component && distance[w as usize] == u32::MAX {
                distance[w as usize] = distance[v as usize] + 1;
                parent[w as usize] = v;
                touched.push(w);
                queue.push_back(w);
            }
        }
    }
    let cycle = found.map(|last| {
        let mut path = vec![last];
        let mut at = last;
        while at != start {
            at = parent[at as usize];
            path.push(at);
        }
        path.reverse();
        path
    });
    for v in touched {
        distance[v as usize] = u32::MAX;
    }
    cycle
}

/// The first move (in point order, then pass) from `state` to a state
/// numbered `target`.
fn move_to(index: &StateIndex, state: &State, target: u32) -> Option<(Move, State)> {
    let board = index.board();
    let mut moves = state.legal_moves(board).into_iter();
    moves.find_map(|mv| match state.play(board, mv)? {
        Child::State(child) if index.rank(&child) == Some(target as StateNumber) => {
            Some((mv, child))
        }
        _ => None,
    })
}

/// An example cycle of component `component`: the shortest through any of
/// up to `tries` of its states, plain states (no ko, no pass pending) first
/// so that the start can be set up on a board, ties to the lowest number.
pub fn example_cycle(
    index: &StateIndex,
    graph: &StateGraph,
    components: &Components,
    component: u32,
    tries: usize,
) -> Option<ExampleCycle> {
    if !components.cyclic[component as usize] {
        return None;
    }
    let members: Vec<u32> = (0..graph.states() as u32)
        .filter(|&v| components.component[v as usize] == component)
        .collect();
    let plain = |v: &u32| {
        let (_, slot) = index.slot_of(*v as StateNumber);
        slot == SLOT_PLAIN
    };
    let mut candidates: Vec<u32> = members.iter().copied().filter(plain).collect();
    if candidates.is_empty() {
        candidates = members.clone();
    }
    // Spread the tries evenly over the candidates.
    let step = candidates.len().div_ceil(tries.max(1)).max(1);
    let mut distance = vec![u32::MAX; graph.states() as usize];
    let mut parent = vec![0u32; graph.states() as usize];
    let mut best: Option<Vec<u32>> = None;
    for &start in candidates.iter().step_by(step) {
        let limit = best.as_ref().map_or(usize::MAX, Vec::len);
        if let Some(cycle) =
            shortest_cycle_through(graph, components, start, limit, &mut distance, &mut parent)
        {
            best = Some(cycle);
        }
    }
    let cycle = best?;
    let start_number = cycle[0];
    let start = index.unrank(start_number as StateNumber);
    // One lap, then the symmetry that maps the start to where the lap ends.
    let mut moves = Vec::new();
    let mut state = start;
    for &target in cycle[1..].iter().chain(std::iter::once(&cycle[0])) {
        let (mv, child) = move_to(index, &state, target)?;
        moves.push(mv);
        state = child;
    }
    let symmetries = index.codec().symmetries();
    let g = *symmetries.iter().find(|g| turned(g, &start) == state)?;
    // Further laps, each the last one turned by g, until the full state
    // repeats: the same mover's-view state after an even number of moves.
    let mut lap = moves.clone();
    while !(state == start && moves.len() % 2 == 0) {
        if moves.len() > cycle.len() * 2 * symmetries.len() {
            return None;
        }
        for mv in lap.iter_mut() {
            if let Move::Place(point) = *mv {
                *mv = Move::Place(g.apply(point));
            }
            match state.play(index.board(), *mv)? {
                Child::State(child) => state = child,
                Child::End { .. } => return None,
            }
            moves.push(*mv);
        }
    }
    Some(ExampleCycle {
        component,
        start_number,
        start,
        cycle_length: cycle.len(),
        moves,
    })
}

/// The kinds of the states of a component: plain, after a pass, with a ko.
pub fn state_kinds(index: &StateIndex, components: &Components, component: u32) -> [u64; 3] {
    let mut kinds = [0u64; 3];
    for (v, &c) in components.component.iter().enumerate() {
        if c == component {
            let (_, slot) = index.slot_of(v as StateNumber);
            let kind = match slot {
                SLOT_PLAIN => 0,
                SLOT_PASSED => 1,
                _ => 2,
            };
            kinds[kind] += 1;
        }
    }
    kinds
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tarjan_finds_the_components_of_a_small_graph() {
        // 0 -> 1 -> 2 -> 0 (a cycle), 2 -> 3, 3 -> 3 (a self-loop),
        // 4 -> 0, 5 alone.
        let graph =
            StateGraph::from_lists(&[vec![1], vec![2], vec![0, 3], vec![3], vec![0], vec![]]);
        let components = strongly_connected(&graph);
        let c = &components.component;
        assert_eq!(c[0], c[1]);
        assert_eq!(c[1], c[2]);
        assert_ne!(c[2], c[3]);
        assert_eq!(components.count(), 4);
        assert_eq!(components.self_loops, 1);
        assert!(components.on_cycle(0) && components.on_cycle(3));
        assert!(!components.on_cycle(4) && !components.on_cycle(5));
        assert!(components.reaches_cycle(4) && !components.reaches_cycle(5));
        // Edges between components go to lower numbers.
        assert!(c[3] < c[0] && c[0] < c[4]);
    }

    #[test]
    fn a_long_path_and_a_long_cycle_do_not_overflow_the_stack() {
        let n = 2_000_000u32;
        let lists: Vec<Vec<u32>> = (0..n).map(|v| vec![(v + 1) % n]).collect();
        let components = strongly_connected(&StateGraph::from_lists(&lists));
        assert_eq!(components.count(), 1);
        let lists: Vec<Vec<u32>> = (0..n)
            .map(|v| if v + 1 < n { vec![v + 1] } else { vec![] })
            .collect();
        let components = strongly_connected(&StateGraph::from_lists(&lists));
        assert_eq!(components.count(), n as usize);
        assert!(components.cyclic.iter().all(|&c| !c));
    }

    #[test]
    fn cycle_dependence_reads_a_and_b() {
        let value = |a: Option<i8>, b: Option<i8>| Value {
            mover_margin: a,
            opponent_margin: b,
            ..Value::default()
        };
        assert!(!cycle_dependent(&value(Some(3), Some(-3)), 9));
        assert!(!cycle_dependent(&value(Some(0), Some(0)), 9));
        assert!(cycle_dependent(&value(Some(2), Some(-4)), 9));
        assert!(cycle_dependent(&value(None, Some(9)), 9));
        assert!(cycle_dependent(&value(None, None), 9));
        assert!(!cycle_dependent_at_komi_zero(&value(Some(0), Some(0)), 9));
        assert!(cycle_dependent_at_komi_zero(&value(Some(-1), Some(0)), 9));
        assert!(!cycle_dependent_at_komi_zero(&value(Some(2), Some(-4)), 9));
        assert!(cycle_dependent_at_komi_zero(&value(None, None), 9));
    }
}
