//! `smallgo analyze cycles`: the components against a brute force, the
//! cycle-dependent values against the reference solver at every
//! half-integer komi, the example cycles against a live game's repetition
//! rule, and the command line.

use std::collections::HashSet;

use crate::analyses::cycles::{
    cycle_dependent, cycle_dependent_at_komi_zero, example_cycle, strongly_connected, StateGraph,
};
use crate::game::{Ending, Game};
use crate::index::StateIndex;
use crate::rules::board::Board;
use crate::rules::colour::Colour;
use crate::rules::moves::Move;
use crate::rules::state::Child;
use crate::solver::{solve, Silent};
use crate::tests::support::reference::ReferenceGame;

/// The graph again, the plain way: every legal move of `legal_moves`, each
/// child ranked, kept in a set.
fn plain_children(index: &StateIndex, number: u32, passes: bool) -> Vec<u32> {
    let board = index.board();
    let state = index.unrank(number as u64);
    let children: HashSet<u32> = state
        .legal_moves(board)
        .into_iter()
        .filter(|&mv| passes || mv != Move::Pass)
        .filter_map(|mv| match state.play(board, mv).unwrap() {
            Child::State(child) => Some(index.rank(&child).unwrap() as u32),
            Child::End { .. } => None,
        })
        .collect();
    let mut children: Vec<u32> = children.into_iter().collect();
    children.sort_unstable();
    children
}

/// Which states each state reaches in one or more moves, as bit rows.
fn reachability(lists: &[Vec<u32>]) -> Vec<Vec<u64>> {
    let n = lists.len();
    let words = n.div_ceil(64);
    (0..n)
        .map(|start| {
            let mut seen = vec![0u64; words];
            let mut stack: Vec<u32> = lists[start].clone();
            while let Some(v) = stack.pop() {
                let (w, bit) = (v as usize / 64, 1u64 << (v % 64));
                if seen[w] & bit == 0 {
                    seen[w] |= bit;
                    stack.extend_from_slice(&lists[v as usize]);
                }
            }
            seen
        })
        .collect()
}

fn reaches(rows: &[Vec<u64>], from: usize, to: usize) -> bool {
    rows[from][to / 64] >> (to % 64) & 1 == 1
}

#[test]
fn components_are_the_classes_of_mutual_reachability() {
    for (name, passes) in [
        ("2x2", true),
        ("2x3", true),
        ("3x3", true),
        ("1x5", true),
        ("2x3", false),
        ("3x3", false),
    ] {
        let board: Board = name.parse().unwrap();
        let index = StateIndex::build(board).unwrap();
        let graph = StateGraph::build(&index, passes).unwrap();
        let n = graph.states() as usize;
        let lists: Vec<Vec<u32>> = (0..n as u32)
            .map(|v| plain_children(&index, v, passes))
            .collect();
        for (v, list) in lists.iter().enumerate() {
            assert_eq!(graph.children(v as u32), &list[..], "{name}: state {v}");
        }
        let components = strongly_connected(&graph);
        let rows = reachability(&lists);
        let component = &components.component;
        for a in 0..n {
            for b in 0..n {
                let mutual = a == b || (reaches(&rows, a, b) && reaches(&rows, b, a));
                assert_eq!(component[a] == component[b], mutual, "{name}: {a} {b}");
            }
            // On a cycle: the state reaches itself.
            assert_eq!(
                components.on_cycle(a as u32),
                reaches(&rows, a, a),
                "{name}: {a}"
            );
            // Reaching a cycle: itself or something it reaches is on one.
            let reaching = components.on_cycle(a as u32)
                || (0..n).any(|b| reaches(&rows, a, b) && reaches(&rows, b, b));
            assert_eq!(components.reaches_cycle(a as u32), reaching, "{name}: {a}");
            // Edges between components go to lower numbers.
            for &b in &lists[a] {
                assert!(component[b as usize] <= component[a], "{name}: {a} -> {b}");
            }
        }
        let sizes: u64 = components.sizes.iter().map(|&s| s as u64).sum();
        assert_eq!(sizes, n as u64);
        for (c, &size) in components.sizes.iter().enumerate() {
            let members = component.iter().filter(|&&x| x as usize == c).count();
            assert_eq!(members, size as usize, "{name}: component {c}");
        }
    }
}

/// The reference solver, at every half-integer komi from -N-0.5 to N+0.5:
/// does some komi give a draw? At such a komi no finished game is a draw,
/// so perfect play never ends. And at komi 0: a draw that is not a jigo.
#[test]
fn cycle_dependent_values_are_the_draws_at_a_half_integer_komi() {
    for name in ["1x3", "2x2", "1x5", "2x3"] {
        let board: Board = name.parse().unwrap();
        let points = board.points() as i32;
        let reference = ReferenceGame::explore(&board);
        let solution = solve(board, &Silent).unwrap();
        let mut drawn_somewhere = vec![false; reference.states.len()];
        for komi_halves in (-(2 * points + 1)..=2 * points + 1).step_by(2) {
            let values = reference.solve(komi_halves);
            for (s, value) in values.iter().enumerate() {
                let wins = |side: Option<crate::tests::support::reference::Forced>| {
                    side.is_some_and(|f| f.half_points > 0)
                };
                if !wins(value.black) && !wins(value.white) {
                    drawn_somewhere[s] = true;
                }
            }
        }
        let at_zero = reference.solve(0);
        let mut dependent = 0;
        for (s, state) in reference.states.iter().enumerate() {
            let value = solution.probe(&state.mover_view()).unwrap().unwrap();
            assert_eq!(
                cycle_dependent(&value, points),
                drawn_somewhere[s],
                "{name}: {state:?} {value}"
            );
            dependent += drawn_somewhere[s] as u32;
            let forced = |side: Option<crate::tests::support::reference::Forced>| {
                side.map(|f| f.half_points)
            };
            let (black, white) = (forced(at_zero[s].black), forced(at_zero[s].white));
            let draw = black.is_none_or(|b| b <= 0) && white.is_none_or(|w| w <= 0);
            let jigo = black == Some(0) && white == Some(0);
            assert_eq!(
                cycle_dependent_at_komi_zero(&value, points),
                draw && !jigo,
                "{name}: {state:?} {value}"
            );
        }
        // The check has something to check on boards with cycles.
        if name != "1x3" {
            assert!(dependent > 0, "{name}");
        }
    }
}

#[test]
fn example_cycles_repeat_a_full_state_in_a_live_game() {
    for (name, passes) in [
        ("2x2", true),
        ("2x3", true),
        ("3x3", true),
        ("2x4", true),
        ("3x2", true),
        ("3x3", false),
        ("2x4", false),
    ] {
        let board: Board = name.parse().unwrap();
        let index = StateIndex::build(board).unwrap();
        let graph = StateGraph::build(&index, passes).unwrap();
        let components = strongly_connected(&graph);
        let mut tried = 0;
        let mut plain_starts = 0;
        for c in 0..components.count() as u32 {
            if !components.cyclic[c as usize] {
                continue;
            }
            tried += 1;
            let cycle = example_cycle(&index, &graph, &components, c, 16)
                .unwrap_or_else(|| panic!("{name}: component {c} has a cycle"));
            assert!(cycle.moves.len() >= cycle.cycle_length);
            assert_eq!(cycle.moves.len() % cycle.cycle_length, 0);
            assert!(passes || !cycle.moves.contains(&Move::Pass), "{name}");
            // The moves, from the mover's view, bring back the start after an
            // even number of moves: the same full state.
            let mut state = cycle.start;
            for &mv in &cycle.moves {
                match state.play(&board, mv).unwrap() {
                    Child::State(child) => state = child,
                    Child::End { .. } => panic!("{name}: the game ended"),
                }
            }
            assert_eq!(state, cycle.start, "{name}");
            assert_eq!(cycle.moves.len() % 2, 0, "{name}");
            // A start with no ko and no pass pending can be set up: a live
            // game sees the repetition at the last move, not before.
            if cycle.start.ko().is_some() || cycle.start.passed() {
                continue;
            }
            plain_starts += 1;
            let (black, white) = cycle.stones();
            let mut game = Game::from_setup(board, black, white, Colour::Black).unwrap();
            let mut colour = Colour::Black;
            for (i, &mv) in cycle.moves.iter().enumerate() {
                assert_eq!(game.ending(), None, "{name}: over before move {i}");
                game.play(colour, mv).unwrap();
                colour = colour.opposite();
            }
            assert_eq!(game.ending(), Some(Ending::Drawn), "{name}");
            assert_eq!(game.current(), game.start(), "{name}");
        }
        assert!(plain_starts > 0, "{name}");
        assert!(tried > 0, "{name}");
    }
}
