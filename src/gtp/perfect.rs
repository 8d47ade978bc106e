//! Perfect play in a live game: every legal move rated from the values and
//! the game's history (a move that repeats a full state draws), the move the
//! engine chooses (SPEC section 4), and the line perfect play follows. The
//! engine's commands and `smallgo review` both use these.

use crate::analysis::{preference_order, rate_moves, Rating};
use crate::colour::Colour;
use crate::moves::Move;
use crate::value::Outcome;

use super::game::Game;
use crate::table::library::BoardValues;

/// How many plies a principal variation follows at most.
pub const PRINCIPAL_VARIATION_LIMIT: usize = 60;

/// Rates every legal move of `side` in `game`: the table's value of the
/// child for `komi`, or a draw if the move repeats a state.
pub fn rate(
    oracle: &BoardValues,
    komi: f64,
    game: &Game,
    side: Colour,
) -> Result<Vec<Rating>, String> {
    let state = game.state_for(side);
    let mut ratings =
        rate_moves(oracle, &state, komi, side.is_black()).map_err(|e| e.to_string())?;
    for rating in &mut ratings {
        if let Ok(next) = game.after(side, rating.mv) {
            if game.has_stood(&next) {
                rating.outcome = Outcome::Draw;
            }
        }
    }
    Ok(ratings)
}

/// The move SPEC section 4 chooses for `side` in `game`.
pub fn choose(
    oracle: &BoardValues,
    komi: f64,
    game: &Game,
    side: Colour,
) -> Result<Rating, String> {
    let ratings = rate(oracle, komi, game, side)?;
    let best = preference_order(&ratings)[0];
    Ok(ratings[best])
}

/// The moves perfect play follows after `side` plays `first` in `game`,
/// `first` included, until the game ends, repeats, or the limit; and the
/// game at the end of them.
pub fn principal_variation(
    oracle: &BoardValues,
    komi: f64,
    game: &Game,
    side: Colour,
    first: Move,
) -> Result<(Vec<Move>, Game), String> {
    let mut game = game.clone();
    game.play(side, first)
        .map_err(|_| "illegal move".to_string())?;
    let mut line = vec![first];
    while line.len() < PRINCIPAL_VARIATION_LIMIT && !game.is_over() {
        let mover = game.to_move();
        let best = choose(oracle, komi, &game, mover)?;
        game.play(mover, best.mv)
            .map_err(|_| "illegal move".to_string())?;
        line.push(best.mv);
    }
    Ok((line, game))
}
