//! Un-moves: the states a move could have come from
//! (`docs/rules.md#how-one-pass-computes-all-of-this`).
//!
//! A state's last move was made by the opponent (`them`). Un-placing removes
//! one of their stones, at `p`, and restores any set of the strings that move
//! may have captured: each must be a whole empty region next to `p` whose
//! border is all their colour. The earlier position must be legal, and the
//! move must have left exactly this state's ko point (a ko state has exactly
//! one un-move; a state without ko excludes the un-moves that would have made
//! one). The earlier state may have had any ko point other than `p` and, for a
//! placement, a pending pass. Un-passing swaps the colours back and allows any
//! ko point.
//!
//! `origins` yields the earlier positions; `predecessors` expands them into
//! states. Tests check both ways against `State::place` and `State::pass`.

// A probe-only build (no feature `solver`) leaves un-moves, which only the solver uses unused.
#![cfg_attr(not(feature = "solver"), allow(dead_code, unused_imports))]

use crate::rules::board::{Board, Point, PointSet, MAX_POINTS};
use crate::rules::position::Position;
#[cfg(test)]
use crate::rules::state::Child;
use crate::rules::state::State;

/// The most empty regions a board has: no two touch, so at most one per
/// point of a checkerboard colouring, half the points rounded up.
const MAX_CAPTURABLE: usize = MAX_POINTS.div_ceil(2);

/// The move that led to a state, as seen from the earlier position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LastMove {
    Place(Point),
    Pass,
}

/// Calls `visit(earlier, last_move)` for each earlier position (seen from its
/// own mover) from which `last_move` leads to `state`.
#[inline]
pub fn origins(board: &Board, state: &State, mut visit: impl FnMut(Position, LastMove)) {
    let position = state.position();
    if state.passed() {
        visit(position.swapped(), LastMove::Pass);
        return;
    }
    let us = position.us();
    let them = position.them();
    if let Some(ko) = state.ko() {
        if let Some(capturer) = position.ko_capturer(board, ko) {
            let earlier =
                Position::new(them - PointSet::single(capturer), us | PointSet::single(ko));
            if earlier.is_legal(board) {
                visit(earlier, LastMove::Place(capturer));
            }
        }
        return;
    }
    let empty = position.empty_points(board);
    // The empty regions that only their stones border: what a move of
    // theirs could have captured. Found once, not once per stone. Such a
    // region lies within the empty points next to none of ours, so the
    // floods stay there (and not in the big regions we touch): a piece of
    // those is a whole region when no other empty point is next to it.
    // The regions come in the order of their lowest point next to their
    // stones.
    // A region with a point on an open side was never a captured string:
    // without that point, what is left of it is no whole region.
    let away_from_us = empty - board.adjacent(us) - board.open();
    let mut capturable = [PointSet::EMPTY; MAX_CAPTURABLE];
    let mut capturable_points = PointSet::EMPTY;
    let mut regions = 0;
    let mut pending = away_from_us & board.adjacent(them);
    while let Some(point) = pending.first() {
        let region = board.flood(PointSet::single(point), away_from_us);
        pending = pending - region;
        if (board.adjacent(region) & empty).is_subset_of(region) {
            capturable[regions] = region;
            capturable_points |= region;
            regions += 1;
        }
    }
    // Most stones touch no capturable region: they need no neighbours, and
    // get a loop of their own, with no test per stone. Nothing to restore:
    // taking a stone away only adds liberties, so the earlier position is
    // legal as it stands.
    let next_to_capturable = board.adjacent(capturable_points);
    for stone in (them - next_to_capturable).iter() {
        visit(
            Position::new(them - PointSet::single(stone), us),
            LastMove::Place(stone),
        );
    }
    for stone in (them & next_to_capturable).iter() {
        let remaining = them - PointSet::single(stone);
        let around = board.neighbours(stone);
        // The capturable regions next to the stone (at most four).
        let mut next_to = [PointSet::EMPTY; 4];
        let mut count = 0;
        for region in &capturable[..regions] {
            if !(*region & around).is_empty() {
                next_to[count] = *region;
                count += 1;
            }
        }
        // A lone stone with one liberty that took exactly that one point
        // would have left a ko: not an origin of a state without one.
        let liberties = around & empty;
        let ko_shape =
            (around & them).is_empty() && liberties.len() == 1 && !board.open().contains(stone);
        for subset in 0u32..(1 << count) {
            let mut restored = PointSet::EMPTY;
            for (i, region) in next_to.iter().enumerate().take(count) {
                if subset >> i & 1 == 1 {
                    restored |= *region;
                }
            }
            if ko_shape && restored == liberties {
                continue;
            }
            // With nothing restored the earlier position is legal as it
            // stands (see above).
            if restored.is_empty() || restoring_is_legal(board, &position, stone, restored) {
                visit(
                    Position::new(remaining, us | restored),
                    LastMove::Place(stone),
                );
            }
        }
    }
}

/// Whether un-placing their `stone` from the legal `position` and restoring
/// our stones on `restored`, a union of capturable regions next to the stone,
/// gives a legal earlier position: the same as `is_legal` on it, which
/// `origins` would otherwise ask for every restoration.
///
/// Only their strings next to a restored stone can have lost their last
/// liberty. Our strings keep theirs: the old ones do not touch the regions
/// (their border is all theirs) and each restored region has the removed
/// stone's point. Their strings apart from the restored stones keep the
/// liberties they had in the legal position; a string next to the removed
/// stone's point has that one.
#[inline]
fn restoring_is_legal(
    board: &Board,
    position: &Position,
    stone: Point,
    restored: PointSet,
) -> bool {
    let removed = PointSet::single(stone);
    let remaining = position.them() - removed;
    let at_risk = board.adjacent(restored) & remaining;
    let free = (position.empty_points(board) - restored) | removed;
    let breathing = (board.adjacent(free) | board.open()) & remaining;
    // Usually each stone next to a restored one has a liberty of its own.
    let mut unsure = at_risk - breathing;
    while let Some(point) = unsure.first() {
        let string = board.flood(PointSet::single(point), remaining);
        if (string & breathing).is_empty() {
            return false;
        }
        unsure = unsure - string;
    }
    true
}

/// Calls `visit` for every state that has a move leading to `state` (in the
/// orientation the un-move gives; several may be symmetric images of one
/// another).
#[cfg(test)]
pub fn for_each_predecessor(board: &Board, state: &State, mut visit: impl FnMut(State)) {
    origins(board, state, |earlier, last_move| {
        let ko_points = earlier.ko_points(board);
        visit(State::from_parts(earlier, None, false));
        let forbidden = match last_move {
            LastMove::Place(point) => {
                visit(State::from_parts(earlier, None, true));
                PointSet::single(point)
            }
            LastMove::Pass => PointSet::EMPTY,
        };
        for ko in (ko_points - forbidden).iter() {
            visit(State::from_parts(earlier, Some(ko), false));
        }
    });
}

/// Every state with a move leading to `state`.
#[cfg(test)]
pub fn predecessors(board: &Board, state: &State) -> Vec<State> {
    let mut result = Vec::new();
    for_each_predecessor(board, state, |s| result.push(s));
    result
}

/// Whether `parent` has a move leading exactly to `child` (no symmetry).
#[cfg(test)]
pub fn leads_to(board: &Board, parent: &State, child: &State) -> bool {
    let via_pass = matches!(parent.pass(board), Child::State(s) if s == *child);
    via_pass
        || parent
            .position()
            .empty_points(board)
            .iter()
            .any(|point| parent.place(board, point) == Some(*child))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::code::Codec;
    use crate::rules::moves::Move;

    fn check_both_ways(board: &Board, state: &State) {
        // Each predecessor has a move to the state.
        let preds = predecessors(board, state);
        for pred in &preds {
            assert!(
                State::new(board, pred.position(), pred.ko(), pred.passed()).is_ok(),
                "{board}: predecessor {pred:?} of {state:?} is not legal"
            );
            assert!(
                leads_to(board, pred, state),
                "{board}: {pred:?} does not lead to {state:?}"
            );
        }
        let mut sorted = preds.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(
            sorted.len(),
            preds.len(),
            "{board}: repeated predecessor of {state:?}"
        );
        // Each child lists the state among its predecessors.
        for mv in state.legal_moves(board) {
            if let Some(Child::State(child)) = state.play(board, mv) {
                assert!(
                    predecessors(board, &child).contains(state),
                    "{board}: {state:?} --{mv:?}--> {child:?} is not undone"
                );
            }
        }
    }

    #[test]
    fn unmoves_invert_moves_on_every_state_up_to_3x3() {
        for name in [
            "1x1", "1x2", "1x3", "1x4", "1x5", "1x6", "1x7", "2x2", "2x3", "2x4", "3x3", "1x1c",
            "1x2c", "1x3c", "1x4c", "1x5c", "1x6c", "1x7c", "2x2c", "2x3c", "2x4c", "3x3c",
        ] {
            let board: Board = name.parse().unwrap();
            for state in crate::tests::support::plain_states(&board) {
                check_both_ways(&board, &state);
            }
        }
    }

    #[test]
    fn unmoves_invert_moves_on_random_4x4_states() {
        for (name, samples) in [("4x4", 100_000), ("4x4c", 30_000), ("2x8c", 30_000)] {
            random_states_both_ways(name, samples);
        }
    }

    fn random_states_both_ways(name: &str, samples: usize) {
        let board: Board = name.parse().unwrap();
        let codec = Codec::new(board);
        let mut rng = crate::tests::support::Rng::new(0x5eed_4444);
        let mut checked = 0;
        while checked < samples {
            let position = codec.decode(rng.below(codec.code_count()));
            if !position.is_legal(&board) {
                continue;
            }
            let ko_points: Vec<Point> = position.ko_points(&board).iter().collect();
            let state = match rng.below(3 + ko_points.len() as u64) {
                0 | 1 => State::from_parts(position, None, false),
                2 => State::from_parts(position, None, true),
                k => State::from_parts(position, Some(ko_points[k as usize - 3]), false),
            };
            check_both_ways(&board, &state);
            checked += 1;
        }
    }

    /// `restoring_is_legal` against `is_legal` on the earlier position, for
    /// every stone of theirs and every set of capturable regions next to it
    /// (found here point by point): every legal position of the boards up to
    /// 3x3 and 2x4, and random legal positions of larger ones.
    #[test]
    fn restoring_is_legal_agrees_with_is_legal() {
        let mut illegal_seen = 0;
        let mut check = |board: &Board, position: &Position| {
            let empty = position.empty_points(board);
            for stone in position.them().iter() {
                let mut regions = Vec::new();
                for point in (board.neighbours(stone) & empty).iter() {
                    let region = board.flood(PointSet::single(point), empty);
                    let border = board.adjacent(region) - region;
                    if border.is_subset_of(position.them()) && !regions.contains(&region) {
                        regions.push(region);
                    }
                }
                for subset in 1u32..1 << regions.len() {
                    let restored = regions
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| subset >> i & 1 == 1)
                        .fold(PointSet::EMPTY, |union, (_, region)| union | *region);
                    let earlier = Position::new(
                        position.them() - PointSet::single(stone),
                        position.us() | restored,
                    );
                    let legal = earlier.is_legal(board);
                    illegal_seen += usize::from(!legal);
                    assert_eq!(
                        restoring_is_legal(board, position, stone, restored),
                        legal,
                        "{board}: {position:?}, stone {stone:?}, restored {restored:?}"
                    );
                }
            }
        };
        crate::tests::support::for_legal_positions(50_000, 0x2e5_70e, |board, position| {
            check(board, position);
        });
        assert!(illegal_seen > 1000, "{illegal_seen}");
    }

    #[test]
    fn a_pass_is_undone_to_every_ko_variant() {
        let board: Board = "3x3".parse().unwrap();
        let state = State::start();
        let Child::State(after_pass) = state.pass(&board) else {
            panic!()
        };
        assert_eq!(predecessors(&board, &after_pass), vec![state]);
        assert!(leads_to(&board, &state, &after_pass));
        assert!(state.play(&board, Move::Pass).is_some());
    }
}
