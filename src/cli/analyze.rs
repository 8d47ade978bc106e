//! `smallgo analyze position RxC [MOVE...] [--komi K] [--tables DIR]`: plays
//! the moves on an empty board, Black first, and prints what the tables say
//! of the position reached: its exact value, its result at the komi, and
//! every legal move with its outcome for the side to move, most preferred
//! first.
//!
//! The values come from where the engine takes them (`table::library`: the
//! tables of `--tables DIR`, the built-in ones, the turned board's, or a
//! solve on the spot for a small board), and moves are rated and ordered as
//! the engine rates and orders them (`game::perfect`): the value of each
//! child for the komi, except that a move that brings back a full state
//! that has stood in the game ends it as a draw (`crate::game`), and ordered
//! by `table::values::rating::preference_order`, so that the first move
//! listed is the one `genmove` plays.

use std::path::Path;
use std::process::ExitCode;

use super::{existing_folder, output_failed, turned_too, EXIT_FAILURE};
use crate::game::{Ending, Game};
use crate::gtp::parse::{move_text, MoveText};
use crate::rules::board::Board;
use crate::rules::colour::Colour;
use crate::rules::value::{points_text, score_text, Value};
use crate::table::library::{BoardValues, Tablebase};
use crate::table::values::rating::{preference_order, Rating};
use crate::table::values::Values;

/// What the position reached is, as printed.
struct Analysis {
    board: Board,
    /// The moves played, as the arguments gave them.
    moves: Vec<String>,
    game: Game,
    komi: f64,
    /// Where the values come from.
    source: String,
    /// The position's value for the side to move; `None` once the game is
    /// over.
    value: Option<Value>,
    /// The result at the komi, as GTP `final_score` writes it.
    result: String,
    /// The legal moves of the side to move, most preferred first; none once
    /// the game is over.
    ratings: Vec<Rating>,
}

fn colour_name(colour: Colour) -> &'static str {
    if colour.is_black() {
        "Black"
    } else {
        "White"
    }
}

/// Plays `moves` on an empty `board`, Black first; an error names the
/// argument at fault.
fn play(board: Board, moves: &[String]) -> Result<Game, String> {
    let mut game = Game::new(board);
    let mut colour = Colour::Black;
    for (number, text) in moves.iter().enumerate() {
        let argument = format!("move {} '{text}'", number + 1);
        let mv = match move_text(&board, text) {
            Some(MoveText::Move(mv)) => mv,
            Some(MoveText::OffBoard) => {
                return Err(format!("{argument} is not on board {board}"));
            }
            None => {
                return Err(format!(
                    "{argument} is not a move: expected a vertex such as B2, or pass"
                ));
            }
        };
        if let Some(ending) = game.ending() {
            let how = match ending {
                Ending::Drawn => "a repetition drew it",
                Ending::Scored { .. } => "two passes ended it",
            };
            return Err(format!(
                "{argument} comes after the end of the game: {how} at move {number}"
            ));
        }
        game.play(colour, mv)
            .map_err(|_| format!("{argument} is not legal for {} here", colour_name(colour)))?;
        colour = colour.opposite();
    }
    Ok(game)
}

/// The legal moves of the side to move in `game`, rated as the engine
/// rates them, most preferred first.
fn ordered_ratings(oracle: &BoardValues, komi: f64, game: &Game) -> Result<Vec<Rating>, String> {
    let ratings = crate::game::perfect::rate(oracle, komi, game, game.to_move())?;
    Ok(preference_order(&ratings)
        .into_iter()
        .map(|i| ratings[i])
        .collect())
}

fn analyze(
    board: Board,
    moves: &[String],
    komi: f64,
    tables: Option<&Path>,
) -> Result<Analysis, String> {
    if let Some(folder) = tables {
        existing_folder(folder)?;
    }
    let game = play(board, moves)?;
    let library = Tablebase::with_sources(tables, false);
    let oracle = library.open(board).ok_or_else(|| {
        let looked = match tables {
            Some(folder) => format!("in {} nor built in", folder.display()),
            None => "built in".to_string(),
        };
        format!(
            "no table of board {board}{}, {looked}, and it is too large to solve here",
            turned_too(board),
        )
    })?;
    let side = game.to_move();
    let (value, result, ratings) = match game.ending() {
        Some(Ending::Drawn) => (None, "0".to_string(), Vec::new()),
        Some(Ending::Scored { black_margin }) => {
            (None, score_text(black_margin as f64 - komi), Vec::new())
        }
        None => {
            let value = oracle
                .value_of(&game.state_for(side))
                .map_err(|e| e.to_string())?;
            let result = score_text(
                value
                    .outcome(komi, side.is_black())
                    .black_margin(side.is_black()),
            );
            let ratings = ordered_ratings(&oracle, komi, &game)?;
            (Some(value), result, ratings)
        }
    };
    Ok(Analysis {
        board,
        moves: moves.to_vec(),
        game,
        komi,
        source: oracle.description().to_string(),
        value,
        result,
        ratings,
    })
}

/// Prints an analysis on standard output.
fn print(analysis: &Analysis) -> std::io::Result<()> {
    let board = analysis.board;
    let game = &analysis.game;
    let side = colour_name(game.to_move());
    let moves = if analysis.moves.is_empty() {
        "none".to_string()
    } else {
        analysis.moves.join(" ")
    };
    outln!("board     {board}")?;
    outln!("moves     {moves}")?;
    outln!("{}", game.diagram())?;
    outln!("source    {}", analysis.source)?;
    let komi = points_text(analysis.komi);
    match (&analysis.value, game.ending()) {
        (_, Some(Ending::Drawn)) => {
            outln!("value     the game is over: a repetition drew it")?;
        }
        (_, Some(Ending::Scored { .. })) => {
            outln!("value     the game is over: two passes ended it")?;
        }
        (Some(value), None) => {
            outln!("to move   {side}")?;
            let other = colour_name(game.to_move().opposite());
            outln!(
                "value     {side} (to move) {}; {other} {} (each its own area margin, komi aside)",
                can_force(value.mover_margin, value.mover_depth),
                can_force(value.opponent_margin, value.opponent_depth)
            )?;
        }
        (None, None) => {}
    }
    outln!("result    {} at komi {komi}", analysis.result)?;
    if !analysis.ratings.is_empty() {
        outln!("moves for {side}, most preferred first, with the outcome for {side}:")?;
        let width = analysis
            .ratings
            .iter()
            .map(|r| r.mv.name(&board).len())
            .max()
            .unwrap_or(0);
        for rating in &analysis.ratings {
            outln!(
                "  {:<width$}  {}",
                rating.mv.name(&board),
                rating.outcome.label()
            )?;
        }
    }
    Ok(())
}

/// `smallgo analyze position`.
pub fn position(board: Board, moves: &[String], komi: f64, tables: Option<&Path>) -> ExitCode {
    match analyze(board, moves, komi, tables) {
        Ok(analysis) => match print(&analysis) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => output_failed(&error),
        },
        Err(message) => {
            eprintln!("smallgo: analyze position: {message}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// What one side can force, from its half of a value: its area margin and
/// the plies to the end, or that it cannot force the game to end.
fn can_force(margin: Option<i8>, depth: u16) -> String {
    match margin {
        Some(margin) => format!("can force {margin:+} in {depth} plies"),
        None => "cannot force the game to end".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::moves::Move;

    fn moves(list: &[&str]) -> Vec<String> {
        list.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn the_first_move_listed_is_the_engines_and_pass_is_listed() {
        let board: Board = "3x3".parse().unwrap();
        let analysis = analyze(board, &moves(&["B2"]), 0.0, None).unwrap();
        assert_eq!(analysis.result, "B+9");
        assert_eq!(analysis.game.to_move(), Colour::White);
        assert!(analysis.ratings.iter().any(|r| r.mv == Move::Pass));
        assert_eq!(analysis.ratings.len(), 9, "8 points and pass");
        // Every White move loses by 9 at komi 0; a draw at komi 9.
        assert!(analysis.ratings.iter().all(|r| r.outcome.label() == "-9"));
        let drawn = analyze(board, &moves(&["B2"]), 9.0, None).unwrap();
        assert_eq!(drawn.result, "0");
        assert_eq!(drawn.ratings[0].mv, Move::Pass, "a draw passes first");
    }

    #[test]
    fn bad_moves_name_their_argument() {
        let board: Board = "3x3".parse().unwrap();
        for (list, said) in [
            (&["B2", "B2x"][..], "move 2 'B2x' is not a move"),
            (&["D1"][..], "move 1 'D1' is not on board 3x3"),
            (&["Z9"][..], "move 1 'Z9' is not on board 3x3"),
            (&["B2", "B2"][..], "move 2 'B2' is not legal for White"),
            (
                &["pass", "pass", "A1"][..],
                "move 3 'A1' comes after the end",
            ),
        ] {
            let error = play(board, &moves(list)).err().unwrap();
            assert!(error.contains(said), "{list:?}: {error}");
        }
    }

    #[test]
    fn a_finished_game_has_its_score_and_no_moves() {
        let board: Board = "3x3".parse().unwrap();
        let analysis = analyze(board, &moves(&["B2", "pass", "pass"]), 0.5, None).unwrap();
        assert_eq!(analysis.result, "B+8.5");
        assert!(analysis.value.is_none() && analysis.ratings.is_empty());
    }
}
