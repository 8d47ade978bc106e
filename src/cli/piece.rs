//! `smallgo analyze piece RxC-KIND [--scoring area|bouzy] [--json]`: a
//! board piece's pattern base as Bouzy gives it (docs/pieces.md): the
//! empty piece's `{l|r}` first, then one line per class of legal positions
//! under the piece's symmetries, fewest stones first, with its `{l|r}`
//! (Black to move first, White to move first), its temperature and the
//! moves that keep each side's result. `crate::analyses::piece` solves.
//!
//! Under area scoring the values are read from the piece's table when one
//! is found where `analyze position` looks (`--tables DIR`, then the
//! built-in tables): the table of `smallgo build RxC-KIND`, read whole in
//! one walk of its blocks when every class is asked for and its states fit
//! `--memory` (two bytes a state), else probed state by state. Without a
//! table, or under Bouzy's evaluation (the tables hold area scoring's
//! values only), a piece of at most 12 points is solved in memory, a
//! larger one over the tables' numbering of its states
//! (`analyses::piece::solve_indexed`) within `--memory`, else refused with
//! the figures.
//!
//! Each line is written as soon as it is made, the classes enumerated one
//! at a time (`for_each_class`), so that a large piece's lines stream;
//! with `--json` every line is one JSON object, the first the piece's,
//! then one a position.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::json::{self, Json};
use super::{existing_folder, looked_in, output_failed, parse_board, EXIT_FAILURE};
use crate::analyses::piece::{
    diagram, for_each_class, load_table, piece_value, solve, solve_indexed, IndexedMargins,
    PieceMargins, PieceValue, Range, Scoring, TableMargins, MAX_PIECE_POINTS,
};
use crate::rules::board::{Board, PointSet};
use crate::rules::moves::Move;
use crate::table::library::Tablebase;
use crate::table::Table;

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
    /// any board.
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

    /// Folder of tables, looked in before the built-in ones, as
    /// `analyze position`'s: the piece's table there is read instead of
    /// solving it (area scoring).
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,

    /// Use at most this much memory (for example 8G or 512M) to solve a
    /// piece past 12 points or to read a table whole: a solve that needs
    /// more is refused, a table is then probed state by state. By default,
    /// the memory available.
    #[arg(long, value_name = "SIZE", value_parser = crate::common::units::parse_size)]
    memory: Option<u64>,
}

/// Where a piece's values come from.
enum Source {
    /// Its table, read through the prober.
    Table(Box<Table>),
    /// Its table's values, read whole.
    Loaded(IndexedMargins, String),
    /// Solved here, in memory.
    Memory(crate::analyses::piece::Solved),
    /// Solved here over the numbering of its states, with its figures.
    Indexed(IndexedMargins, String),
}

impl Source {
    /// The source as the header says it.
    fn description(&self) -> String {
        match self {
            Source::Table(table) => format!("table {}", table.origin()),
            Source::Loaded(_, origin) => format!("table {origin}, read whole"),
            Source::Memory(_) => "solved in memory".to_string(),
            Source::Indexed(_, figures) => format!("solved over the state index ({figures})"),
        }
    }
}

/// The piece's table under area scoring, if one is found (read whole when
/// every class is asked for and it fits); else its solve in memory, if it
/// is small enough; else its solve over the index, if it fits; else why
/// not.
fn source(arguments: &PieceArguments, scoring: Scoring) -> Result<Source, String> {
    let board = arguments.board;
    let name = board.piece_name();
    if let Some(folder) = &arguments.tables {
        existing_folder(folder)?;
    }
    let memory = arguments
        .memory
        .or_else(crate::common::host::available_memory)
        .unwrap_or(u64::MAX);
    if scoring == Scoring::Area {
        let library = Tablebase::with_sources(arguments.tables.as_deref(), false);
        if let Some(table) = library.table(board) {
            if !arguments.empty {
                if let Some(loaded) = load_table(&table, memory)? {
                    return Ok(Source::Loaded(loaded, table.origin().to_string()));
                }
            }
            return Ok(Source::Table(Box::new(table)));
        }
    }
    if board.points() <= MAX_PIECE_POINTS {
        return solve(board, scoring).map(Source::Memory);
    }
    match solve_indexed(board, scoring, memory) {
        Ok((margins, figures)) => Ok(Source::Indexed(
            margins,
            format!(
                "{} states, {} edges, {} MiB, {:.1} s",
                figures.states,
                figures.edges,
                figures.bytes.div_ceil(1 << 20),
                figures.seconds
            ),
        )),
        Err(error) if scoring == Scoring::Area => Err(format!(
            "{error}; no table of {name} (board {board}) {}: build one with `smallgo build \
             {name} --tables DIR`, then give --tables DIR",
            looked_in(arguments.tables.as_deref()),
        )),
        Err(error) => Err(error),
    }
}

fn moves_text(board: &Board, moves: &[Move]) -> String {
    if moves.is_empty() {
        return "-".to_string();
    }
    moves
        .iter()
        .map(|mv| mv.name(board))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A result from Black's view as a `[low, high]` pair of numbers (`null`
/// where that side cannot force an end).
fn range_json(range: &Range) -> Json {
    Json::list([range.low, range.high])
}

fn line(board: &Board, value: &PieceValue, json: bool) -> String {
    let diagram = diagram(board, value.black, value.white);
    let temperature = value.temperature();
    if json {
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
        moves_text(board, &value.black_moves),
        moves_text(board, &value.white_moves),
    )
}

fn report(arguments: &PieceArguments) -> Result<(), Result<String, std::io::Error>> {
    let scoring = match arguments.scoring {
        ScoringName::Area => Scoring::Area,
        ScoringName::Bouzy => Scoring::Bouzy,
    };
    let board = arguments.board;
    let source = source(arguments, scoring).map_err(Ok)?;
    let table_margins;
    let margins: &dyn PieceMargins = match &source {
        Source::Table(table) => {
            table_margins = TableMargins(table.as_ref());
            &table_margins
        }
        Source::Memory(solved) => solved,
        Source::Loaded(margins, _) | Source::Indexed(margins, _) => margins,
    };
    let classes = if arguments.empty {
        1
    } else {
        let mut classes = 0usize;
        for_each_class(&board, |_, _| {
            classes += 1;
            Ok::<(), ()>(())
        })
        .expect("counting fails nowhere");
        classes
    };
    let name = board.piece_name();
    let scoring_word = match scoring {
        Scoring::Area => "area",
        Scoring::Bouzy => "bouzy",
    };
    if arguments.json {
        let header = Json::kind("piece")
            .with("piece", name.as_str())
            .with("board", board.name())
            .with("scoring", scoring_word)
            .with("classes", classes)
            .with("source", source.description());
        outln!("{header}").map_err(Err)?;
    } else {
        outln!(
            "piece {name} (board {}), {scoring_word} scoring, basic ko, endless play a draw, values {}: {classes} position{}, one per class under its symmetries; {{l|r}} is the result from Black's view with Black, then White, to move first (LOW..HIGH: each side can force only its end of it, play that never ends between)",
            board.name(),
            source.description(),
            if classes == 1 { "" } else { "s" }
        )
        .map_err(Err)?;
    }
    let write = |black: PointSet, white: PointSet| {
        let value = piece_value(&board, scoring, margins, black, white)
            .map_err(|error| Ok(format!("{name}: {error}")))?
            .ok_or_else(|| Ok(format!("a class of {name} is not solved")))?;
        outln!("{}", line(&board, &value, arguments.json)).map_err(Err)
    };
    if arguments.empty {
        write(PointSet::EMPTY, PointSet::EMPTY)
    } else {
        for_each_class(&board, write)
    }
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
