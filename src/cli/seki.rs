//! `smallgo analyze seki RxC`: the seki census of one board's table
//! (`crate::analyses::seki`), printed as a plain report or, with `--json`, as one
//! JSON object; with `--svg-dir DIR`, each example drawn as
//! `DIR/seki-BOARD-N.svg` (`crate::game::drawing`), N its place in the
//! JSON's list of examples from 1 and BOARD the board it is drawn on.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::json::{self, Json};
use super::{existing_folder, finish_analysis, looked_in, parse_board, parse_komi, turned_too};
use crate::analyses::seki::{census, Best, Census, Criteria, DenseValues, Example, Reading, Tally};
use crate::game::diagram;
use crate::rules::board::Board;
use crate::rules::colour::Colour;
use crate::rules::value::points_text;
use crate::table::library::Tablebase;

#[derive(Args, Debug)]
pub struct SekiArguments {
    /// The board: rows x columns, for example 4x4.
    #[arg(value_name = "RxC", value_parser = parse_board)]
    board: Board,

    /// Komi, given to White: which moves are best depends on it.
    #[arg(long, value_name = "K", default_value_t = 0.0, value_parser = parse_komi, allow_negative_numbers = true)]
    komi: f64,

    /// How moves are compared: by result and margin, as the engine does
    /// (score), or by win, draw or loss alone (result).
    #[arg(long, value_enum, default_value_t = BestArgument::Score)]
    best: BestArgument,

    /// How the reference work's criteria are read: ours (a lost position
    /// needs pass among its best moves, before and after the pass), written
    /// (the same before the pass; after it pass must be the opponent's only
    /// best move, lost or not), or lost-enough (as written, but before the
    /// pass a lost position is enough, whatever pass is worth).
    #[arg(long, value_enum, default_value_t = ReadingArgument::Ours)]
    reading: ReadingArgument,

    /// How many example boards of each kind to show.
    #[arg(long, value_name = "N", default_value_t = 3)]
    examples: usize,

    /// Print one JSON object instead of the report.
    #[arg(long)]
    json: bool,

    /// Draw each example into this folder (made if missing) as an SVG
    /// picture, seki-BOARD-N.svg: its move values, perfect play and
    /// ownership (docs/pictures.md).
    #[arg(long, value_name = "DIR")]
    svg_dir: Option<PathBuf>,

    /// Folder of tables, preferred to the built-in ones, as the engine's
    /// --tables.
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum BestArgument {
    Score,
    Result,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ReadingArgument {
    Ours,
    Written,
    LostEnough,
}

/// A census and where its values came from.
struct Report {
    /// The board asked for.
    asked: Board,
    source: String,
    census: Census,
    /// The pictures written with --svg-dir.
    drawn: Vec<PathBuf>,
}

/// Opens the table of `board`, or of `board` turned, and reads it whole.
fn values(board: Board, tables: Option<&Path>) -> Result<(DenseValues, String), String> {
    if let Some(folder) = tables {
        existing_folder(folder)?;
    }
    let library = Tablebase::with_sources(tables, false);
    let table = library
        .table(board)
        .or_else(|| board.turned().and_then(|t| library.table(t)))
        .ok_or_else(|| {
            format!(
                "no table of board {board}{}, {}: build it with `smallgo build {board}`",
                turned_too(board),
                looked_in(tables),
            )
        })?;
    let mut source = table.origin().to_string();
    if table.board() != board {
        source.push_str(&format!(
            " ({board} turned: the same states, drawn as {})",
            table.board()
        ));
    }
    Ok((DenseValues::from_table(&table)?, source))
}

fn analyze(arguments: &SekiArguments) -> Result<Report, String> {
    let (values, source) = values(arguments.board, arguments.tables.as_deref())?;
    let criteria = Criteria {
        komi: arguments.komi,
        best: match arguments.best {
            BestArgument::Score => Best::Score,
            BestArgument::Result => Best::Result,
        },
        reading: match arguments.reading {
            ReadingArgument::Ours => Reading::Ours,
            ReadingArgument::Written => Reading::Written,
            ReadingArgument::LostEnough => Reading::LostEnough,
        },
    };
    let census = census(&values, criteria, arguments.examples).map_err(|e| e.to_string())?;
    let mut report = Report {
        asked: arguments.board,
        source,
        census,
        drawn: Vec::new(),
    };
    if let Some(folder) = &arguments.svg_dir {
        let pictures = pictures(&report.census, arguments)?;
        report.drawn = super::pictures::write_all(folder, &pictures)?;
    }
    Ok(report)
}

/// Each example drawn, with its file's name.
fn pictures(census: &Census, arguments: &SekiArguments) -> Result<Vec<(String, String)>, String> {
    let board = census.board;
    let library = Tablebase::with_sources(arguments.tables.as_deref(), false);
    let oracle = library
        .open(board)
        .ok_or_else(|| super::no_table(board, arguments.tables.as_deref()))?;
    let mut pictures = Vec::new();
    for (number, example) in census.examples.iter().enumerate() {
        let number = number + 1;
        let (black, white) = example.stones();
        let to_move = if example.mover_is_black {
            Colour::Black
        } else {
            Colour::White
        };
        let state = crate::game::FullState {
            black,
            white,
            to_move,
            ko: example.state.ko(),
            passes: u8::from(example.state.passed()),
        };
        let game = crate::game::Game::from_state(board, state)
            .ok_or_else(|| format!("example {number} is not a legal position"))?;
        let kind = if example.strict {
            "strict seki"
        } else {
            "the criteria without the seki shape"
        };
        let title = format!("{board}, seki example {number}: {kind}");
        let svg =
            crate::game::drawing::position_svg(&oracle, census.criteria.komi, &game, &title, None)?;
        pictures.push((format!("seki-{}-{number}.svg", board.file_stem()), svg));
    }
    Ok(pictures)
}

fn tally_lines(name: &str, tally: &Tally) -> Vec<String> {
    vec![
        format!("{name}:"),
        format!(
            "  states (mover's view, symmetric ones merged)  {} with Black to move, {} with White to move",
            tally.states[0], tally.states[1]
        ),
        format!(
            "  states per colour, symmetric ones merged      {}",
            tally.coloured_states()
        ),
        format!(
            "  states per colour and orientation             {}",
            tally.coloured_images()
        ),
        format!(
            "  boards with colour and orientation, ko and side to move aside  {}",
            tally.boards
        ),
        format!(
            "  positions (mover's view, symmetric merged, ko aside)  {}",
            tally.positions
        ),
    ]
}

fn example_text(census: &Census, example: &Example) -> String {
    let (black, white) = example.stones();
    let board = census.board;
    let side = if example.mover_is_black {
        "Black"
    } else {
        "White"
    };
    let ko = example
        .state
        .ko()
        .map_or("none".to_string(), |point| board.point_name(point));
    let other = if side == "Black" { "White" } else { "Black" };
    format!(
        "{} to move, ko {ko}, value: {}\n{}",
        side,
        example.value.describe(side, other),
        diagram(&board, black, white)
    )
}

fn print(report: &Report) -> std::io::Result<()> {
    let census = &report.census;
    outln!("board     {}", report.asked)?;
    outln!("source    {}", report.source)?;
    outln!(
        "komi      {}   best moves by {}   criteria read: {}",
        points_text(census.criteria.komi),
        census.criteria.best.name(),
        census.criteria.reading.name()
    )?;
    outln!(
        "states    {} (mover's view, symmetric ones merged)",
        census.states
    )?;
    outln!("")?;
    for line in tally_lines(
        "seki by the reference work's criteria (Lin 2018, 5.5.1)",
        &census.thesis,
    ) {
        outln!("{line}")?;
    }
    outln!("")?;
    for line in tally_lines(
        "strict seki: the criteria, and no shared liberty can be filled safely",
        &census.strict,
    ) {
        outln!("{line}")?;
    }
    outln!(
        "positions with the seki shape, whatever their values: {}",
        census.shape_positions
    )?;
    for strict in [true, false] {
        let shown: Vec<&Example> = census
            .examples
            .iter()
            .filter(|e| e.strict == strict)
            .collect();
        if shown.is_empty() {
            continue;
        }
        outln!("")?;
        outln!(
            "{}",
            if strict {
                "examples of strict seki:"
            } else {
                "examples that meet the criteria without the seki shape:"
            }
        )?;
        for example in shown {
            outln!("{}\n", example_text(census, example))?;
        }
    }
    for path in &report.drawn {
        outln!("drawn     {}", path.display())?;
    }
    Ok(())
}

fn json_tally(tally: &Tally) -> Json {
    Json::object()
        .with("black_to_move", tally.states[0])
        .with("white_to_move", tally.states[1])
        .with("black_to_move_images", tally.images[0])
        .with("white_to_move_images", tally.images[1])
        .with("coloured_states", tally.coloured_states())
        .with("coloured_images", tally.coloured_images())
        .with("boards", tally.boards)
        .with("positions", tally.positions)
}

/// The report as a `seki` object (`docs/json.md`).
fn json(report: &Report) -> Json {
    let census = &report.census;
    let board = census.board;
    let examples = census.examples.iter().map(|example| {
        let (black, white) = example.stones();
        let mover = if example.mover_is_black {
            Colour::Black
        } else {
            Colour::White
        };
        Json::object()
            .with("strict", example.strict)
            .with("to_move", json::colour(mover))
            .with("ko", example.state.ko().map(|p| board.point_name(p)))
            .with("value", json::value(&example.value, mover))
            .with("black", json::points(&board, black))
            .with("white", json::points(&board, white))
            .with("diagram", json::diagram(&board, black, white))
    });
    Json::kind("seki")
        .with("board", report.asked.name())
        .with("table_board", board.name())
        .with("source", report.source.as_str())
        .with("komi", census.criteria.komi)
        .with("best", census.criteria.best.name())
        .with("reading", census.criteria.reading.name())
        .with("states", census.states)
        .with("thesis", json_tally(&census.thesis))
        .with("strict", json_tally(&census.strict))
        .with("shape_positions", census.shape_positions)
        .with("examples", Json::list(examples))
}

/// `smallgo analyze seki`.
pub fn run(arguments: &SekiArguments) -> ExitCode {
    finish_analysis("seki", analyze(arguments), arguments.json, json, print)
}
