//! What the crate's unit tests share, those of `src/tests/` and those
//! beside each module: a seeded random number generator, so that sampled
//! checks are reproducible without another dependency, a plain enumeration
//! of every legal state of a board, the legal positions that fast paths of
//! the rules are checked on, and (`reference`, for the tests of
//! `src/tests/`) a plain solver that the real one is checked against.

use crate::index::code::Codec;
use crate::rules::board::Board;
use crate::rules::position::Position;
use crate::rules::state::State;

#[cfg(feature = "cli")]
pub(crate) mod reference;

/// Calls `check` on every legal position of the small boards (1x1 to 3x3
/// and 2x4, plain and circular, and four small shapes: a plus, a ring, two
/// with open sides) and on `samples` random legal positions of
/// each of nine larger ones (4x4 to 5x5, and circular ones), drawn with
/// `seed`.
pub(crate) fn for_legal_positions(
    samples: usize,
    seed: u64,
    mut check: impl FnMut(&Board, &Position),
) {
    for name in [
        "1x1",
        "1x5",
        "2x2",
        "2x3",
        "2x4",
        "3x3",
        "1x3c",
        "1x5c",
        "2x3c",
        "2x4c",
        "3x3c",
        "#.#/.../#.#",
        ".../.#./...",
        "..+/...",
        "+.#/..+",
    ] {
        let board: Board = name.parse().expect("a board name");
        let codec = Codec::new(board);
        for code in 0..codec.code_count() {
            let position = codec.decode(code);
            if position.is_legal(&board) {
                check(&board, &position);
            }
        }
    }
    let mut rng = Rng::new(seed);
    for name in [
        "4x4", "3x5", "2x8", "4x5", "3x7", "5x5", "4x4c", "3x5c", "2x8c",
    ] {
        let board: Board = name.parse().expect("a board name");
        let codec = Codec::new(board);
        let mut checked = 0;
        while checked < samples {
            let position = codec.decode(rng.below(codec.code_count()));
            if position.is_legal(&board) {
                check(&board, &position);
                checked += 1;
            }
        }
    }
}

/// Every legal state of a board by plain enumeration, without symmetry:
/// every code, both pass flags, and every point tried as a ko point through
/// `State::new`'s checks.
pub(crate) fn plain_states(board: &Board) -> Vec<State> {
    let codec = Codec::new(*board);
    let mut states = Vec::new();
    for code in 0..codec.code_count() {
        let position = codec.decode(code);
        if !position.is_legal(board) {
            continue;
        }
        states.push(State::from_parts(position, None, false));
        states.push(State::from_parts(position, None, true));
        for point in board.all().iter() {
            if let Ok(state) = State::new(board, position, Some(point), false) {
                states.push(state);
            }
        }
    }
    states
}

/// The tests' generator: the crate's own.
pub(crate) type Rng = crate::common::random::SplitMix;
