//! `smallgo analyze piece RxC-KIND [--scoring area|bouzy] [--json]`: a
//! board piece's pattern base as Bouzy gives it (docs/pieces.md): the
//! empty piece's `{l|r}` first, then one line per class of legal positions
//! under the piece's symmetries, fewest stones first, with its `{l|r}`
//! (Black to move first, White to move first), its temperature and the
//! moves that keep each side's result. `crate::analyses::piece` solves.
//!
//! Each line is written as soon as it is made; with `--json` every line is
//! one JSON object, the first the piece's, then one a position.

use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::json::{self, Json};
use super::{output_failed, parse_board, EXIT_FAILURE};
use crate::analyses::piece::{solve, PieceValue, Range, Scoring, Solved};
use crate::rules::board::{Board, PointSet};
use crate::rules::moves::Move;

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ScoringName {
    /// Area scoring: stones and empty regions that touch one colour only
    /// and no open side (docs/rules.md).
    Area,
    /// Bouzy's evaluation: stones and empty points without an open side
    /// whose neighbours are all one colour's stones.
    Bouzy,
}

#[derive(Args, Debug)]
pub struct PieceArguments {
    /// The piece: RxC-open, RxC-edge, RxC-corner or RxC-closed (RxC), or
    /// any board of at most 12 points.
    #[arg(value_name = "RxC-KIND", value_parser = parse_board)]
    board: Board,

    /// How the end of a game is scored.
    #[arg(long, value_enum, default_value = "area")]
    scoring: ScoringName,

    /// One JSON object a line instead of text.
    #[arg(long)]
    json: bool,

    /// Only the empty piece's line.
    #[arg(long)]
    empty: bool,
}

fn moves_text(solved: &Solved, moves: &[Move]) -> String {
    if moves.is_empty() {
        return "-".to_string();
    }
    moves
        .iter()
        .map(|mv| mv.name(&solved.board))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A result from Black's view as a `[low, high]` pair of numbers (`null`
/// where that side cannot force an end).
fn range_json(range: &Range) -> Json {
    Json::list([range.low, range.high])
}

fn line(solved: &Solved, value: &PieceValue, json: bool) -> String {
    let diagram = solved.diagram(value.black, value.white);
    let temperature = value.temperature();
    if json {
        let board = &solved.board;
        return Json::kind("piece-class")
            .with("diagram", diagram)
            .with("l", value.black_first.exact())
            .with("r", value.white_first.exact())
            .with("l_range", range_json(&value.black_first))
            .with("r_range", range_json(&value.white_first))
            .with("temperature", temperature)
            .with("black_best_moves", json::moves(board, &value.black_moves))
            .with("white_best_moves", json::moves(board, &value.white_moves))
            .to_string();
    }
    format!(
        "{diagram}  {}  t={}  Black: {}  White: {}",
        value.pair(),
        temperature.map_or("?".to_string(), |t| t.to_string()),
        moves_text(solved, &value.black_moves),
        moves_text(solved, &value.white_moves),
    )
}

fn report(arguments: &PieceArguments) -> Result<(), Result<String, std::io::Error>> {
    let scoring = match arguments.scoring {
        ScoringName::Area => Scoring::Area,
        ScoringName::Bouzy => Scoring::Bouzy,
    };
    let solved = solve(arguments.board, scoring).map_err(Ok)?;
    let classes = if arguments.empty {
        vec![(PointSet::EMPTY, PointSet::EMPTY)]
    } else {
        solved.classes()
    };
    let name = arguments.board.piece_name();
    let scoring_word = match scoring {
        Scoring::Area => "area",
        Scoring::Bouzy => "bouzy",
    };
    if arguments.json {
        let header = Json::kind("piece")
            .with("piece", name.as_str())
            .with("board", arguments.board.name())
            .with("scoring", scoring_word)
            .with("classes", classes.len());
        outln!("{header}").map_err(Err)?;
    } else {
        outln!(
            "piece {name} (board {}), {scoring_word} scoring, basic ko, endless play a draw: {} position{}, one per class under its symmetries; {{l|r}} is the result from Black's view with Black, then White, to move first (LOW..HIGH: each side can force only its end of it, play that never ends between)",
            arguments.board.name(),
            classes.len(),
            if classes.len() == 1 { "" } else { "s" }
        )
        .map_err(Err)?;
    }
    for (black, white) in classes {
        let value = solved
            .value(black, white)
            .ok_or_else(|| Ok(format!("a class of {name} is not solved")))?;
        outln!("{}", line(&solved, &value, arguments.json)).map_err(Err)?;
    }
    Ok(())
}

/// `smallgo analyze piece`.
pub fn run(arguments: &PieceArguments) -> ExitCode {
    match report(arguments) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Ok(message)) => {
            eprintln!("smallgo: analyze piece: {message}");
            ExitCode::from(EXIT_FAILURE)
        }
        Err(Err(error)) => output_failed(&error),
    }
}
