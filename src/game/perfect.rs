//! Perfect play in a live game: every legal move rated from the values and the
//! game's history (a move that repeats a full state draws), the move the engine
//! chooses (`docs/rules.md#how-the-engine-picks-a-move`), and the line perfect
//! play follows (to a length, or to its end for `ownership`). The engine's
//! commands and `smallgo review` both use these.

use crate::rules::colour::Colour;
use crate::rules::moves::Move;
use crate::rules::value::Outcome;
use crate::table::values::rating::{preference_order, rate_moves, Rating};

use super::Game;
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

/// The move the engine chooses for `side` in `game`
/// (`docs/rules.md#how-the-engine-picks-a-move`).
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

/// The rated moves `choose` might as well have taken, in rating order: those
/// that keep the best result at the same margin; when winning, only those
/// that win in the fewest plies (so a won game still ends); when drawing,
/// the pass alone if it keeps the draw (so a drawn game still ends).
/// `choose`'s move is always among them.
pub fn random_candidates(ratings: &[Rating]) -> Vec<Rating> {
    let Some(&first) = preference_order(ratings).first() else {
        return Vec::new();
    };
    let best = ratings[first];
    let keeps = |r: &&Rating| match (best.outcome, r.outcome) {
        (Outcome::MoverWins { .. }, outcome) => outcome == best.outcome,
        (Outcome::Draw, Outcome::Draw) => best.mv != Move::Pass || r.mv == Move::Pass,
        (Outcome::Draw, _) => false,
        (Outcome::OpponentWins { margin, .. }, Outcome::OpponentWins { margin: m, .. }) => {
            m == margin
        }
        (Outcome::OpponentWins { .. }, _) => false,
    };
    ratings.iter().filter(keeps).copied().collect()
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
    line_within(oracle, komi, game, side, first, PRINCIPAL_VARIATION_LIMIT)
}

/// As `principal_variation`, for at most `limit` plies.
pub fn line_within(
    oracle: &BoardValues,
    komi: f64,
    game: &Game,
    side: Colour,
    first: Move,
    limit: usize,
) -> Result<(Vec<Move>, Game), String> {
    let mut game = game.clone();
    game.play(side, first)
        .map_err(|_| "illegal move".to_string())?;
    let mut line = vec![first];
    while line.len() < limit && !game.is_over() {
        let mover = game.to_move();
        let best = choose(oracle, komi, &game, mover)?;
        game.play(mover, best.mv)
            .map_err(|_| "illegal move".to_string())?;
        line.push(best.mv);
    }
    Ok((line, game))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::Point;

    fn rating(point: Option<usize>, outcome: Outcome) -> Rating {
        Rating {
            mv: point.map_or(Move::Pass, |p| Move::Place(Point::new(p))),
            outcome,
        }
    }

    fn moves(ratings: &[Rating]) -> Vec<Move> {
        random_candidates(ratings).iter().map(|r| r.mv).collect()
    }

    #[test]
    fn random_candidates_keep_the_engines_guarantees() {
        let win = |margin, plies| Outcome::MoverWins { margin, plies };
        let loss = |margin, plies| Outcome::OpponentWins { margin, plies };
        // A win: only the shortest at the best margin.
        let ratings = [
            rating(Some(0), win(3.0, 5)),
            rating(Some(1), win(3.0, 3)),
            rating(Some(2), win(5.0, 9)),
            rating(Some(3), win(5.0, 7)),
            rating(Some(4), win(5.0, 7)),
            rating(None, Outcome::Draw),
        ];
        assert_eq!(
            moves(&ratings),
            [Move::Place(Point::new(3)), Move::Place(Point::new(4))]
        );
        // A draw: the pass alone when it draws, every draw otherwise.
        let mut ratings = vec![
            rating(Some(0), Outcome::Draw),
            rating(Some(1), loss(1.0, 4)),
            rating(Some(2), Outcome::Draw),
            rating(None, Outcome::Draw),
        ];
        assert_eq!(moves(&ratings), [Move::Pass]);
        ratings[3] = rating(None, loss(2.0, 2));
        assert_eq!(
            moves(&ratings),
            [Move::Place(Point::new(0)), Move::Place(Point::new(2))]
        );
        // A loss: every move at the smallest margin, however long.
        let ratings = [
            rating(Some(0), loss(2.0, 4)),
            rating(Some(1), loss(2.0, 8)),
            rating(Some(2), loss(4.0, 9)),
        ];
        assert_eq!(moves(&ratings).len(), 2);
    }

    #[test]
    fn random_numbers_repeat_for_a_seed_and_cover_the_range() {
        let draw = |seed| {
            let mut random = crate::common::random::SplitMix::new(seed);
            (0..200).map(|_| random.below(3)).collect::<Vec<_>>()
        };
        assert_eq!(draw(7), draw(7));
        assert_ne!(draw(7), draw(8));
        assert!((0..3).all(|n| draw(7).contains(&n)));
    }
}
