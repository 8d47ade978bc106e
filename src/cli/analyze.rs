//! `smallgo analyze position`: what the tables say of a position: its
//! exact value, its result at the komi, and every legal move with its
//! outcome for the side to move, most preferred first; as a report, or with
//! `--json` as one JSON line (`docs/json.md`).
//!
//! A position starts from the empty board of `RxC`, from a diagram of the
//! stones on it (`--diagram`, rows from the top separated by `/`), or from a
//! game (`--sgf FILE`, before move `--move N` or at its end), and the moves
//! given after the board are played on from there, colours alternating.
//! With `--batch FILE` (`-` for standard input) each line of FILE holds
//! such a position as the arguments of the command would, and gets its own
//! report or JSON line; a bad line gets an error naming its number (an
//! error object with `--json`), the batch goes on, and the command fails at
//! its end.
//!
//! The values come from where the engine takes them (`table::library`: the
//! tables of `--tables DIR`, the built-in ones, the turned board's, or a
//! solve on the spot for a small board), and moves are rated and ordered as
//! the engine rates and orders them (`game::perfect`): the value of each
//! child for the komi, except that a move that brings back a full state
//! that has stood in the game ends it as a draw (`crate::game`), and ordered
//! by `table::values::rating::preference_order`, so that the first move
//! listed is the one `genmove` plays.

use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, ValueEnum};

use super::json::{self, Json};
use super::{existing_folder, no_table, output_failed, parse_komi, EXIT_FAILURE};
use crate::game::{Ending, Game};
use crate::gtp::parse::{move_text, MoveText};
use crate::rules::board::Board;
use crate::rules::colour::Colour;
use crate::rules::position::Position;
use crate::rules::value::{points_text, score_text, Value};
use crate::sgf;
use crate::table::library::{BoardValues, Tablebase};
use crate::table::values::rating::{keeping_best, preference_order, Rating};
use crate::table::values::Values;

/// The exit code of a command line that does not parse, as clap's.
const EXIT_USAGE: u8 = 2;

/// The longest line of a batch: past it the line is an error, read past.
const MAX_LINE: u64 = 64 << 10;

/// `smallgo analyze position`'s command line.
#[derive(Args, Debug)]
pub struct PositionArguments {
    #[command(flatten)]
    position: PositionSpec,

    /// Analyze the positions of FILE, one a line, each written as this
    /// command's arguments would be (`3x3 B2 C3`, `3x3 --diagram
    /// X../.O./... --to-move white`, `--sgf GAME.sgf --move 5`); `-` reads
    /// standard input. Empty lines and lines starting with `#` are skipped;
    /// --komi, --tables and --json apply to every line.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["words", "diagram", "sgf", "move_number", "to_move"])]
    batch: Option<PathBuf>,

    /// Print one JSON object a position, each on one line (docs/json.md).
    #[arg(long)]
    json: bool,

    /// Also draw the position to this SVG file: every legal move's value,
    /// the perfect line numbered, the ownership at its end shaded
    /// (docs/pictures.md).
    #[arg(long, value_name = "FILE", conflicts_with = "batch")]
    svg: Option<PathBuf>,

    /// Folder of tables, preferred to the built-in ones, as the engine's
    /// --tables.
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
}

/// One position: on the command line, or a line of a batch.
#[derive(Args, Debug)]
struct PositionSpec {
    /// The board (rows x columns, for example 3x4; left out with --sgf,
    /// whose game gives it), then the moves played from the start
    /// position, colours alternating: vertices such as B2, or pass.
    #[arg(value_name = "RxC MOVE")]
    words: Vec<String>,

    /// The stones of the start position on the board: rows from the top,
    /// separated by `/`, `X` a black stone, `O` a white one, `.` an empty
    /// point (`#` and `+` for a shape's cells that are no points).
    #[arg(long, value_name = "DIAGRAM", conflicts_with = "sgf")]
    diagram: Option<String>,

    /// Who moves first in the --diagram's position (default black).
    #[arg(long, value_enum, value_name = "COLOUR", requires = "diagram")]
    to_move: Option<ColourArgument>,

    /// Start from the main line of this SGF game: its board, setup stones
    /// and moves, and its komi (KM) unless --komi is given.
    #[arg(long, value_name = "GAME.sgf")]
    sgf: Option<PathBuf>,

    /// With --sgf, the position before move N of the game (1 is the
    /// start); by default the position after its last move.
    #[arg(long = "move", value_name = "N", requires = "sgf")]
    move_number: Option<usize>,

    /// Komi, given to White (default: the game's KM with --sgf, else 0).
    #[arg(long, value_name = "K", value_parser = parse_komi, allow_negative_numbers = true)]
    komi: Option<f64>,
}

/// A line of a batch, read as the command's arguments.
#[derive(Parser, Debug)]
#[command(name = "line", no_binary_name = true, disable_help_flag = true)]
struct BatchLine {
    #[command(flatten)]
    position: PositionSpec,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ColourArgument {
    Black,
    White,
}

/// Where the moves start from, as the report names it.
enum Start {
    Empty,
    Diagram(String),
    Game { file: String, before: Option<usize> },
}

/// What the position reached is, as printed.
struct Analysis {
    board: Board,
    start: Start,
    /// The moves played from the start, as given.
    moves: Vec<String>,
    game: Game,
    komi: f64,
    /// Where the values come from.
    source: String,
    /// The position's value for the side to move; `None` once the game is
    /// over.
    value: Option<Value>,
    /// Black's margin at the komi, 0 for a draw.
    black_margin: f64,
    /// The plies to the end with perfect play; `None` for a draw or once
    /// the game is over.
    plies: Option<u16>,
    /// The legal moves of the side to move, most preferred first; none once
    /// the game is over.
    ratings: Vec<Rating>,
    /// Those of them that keep the best result.
    best: Vec<crate::rules::moves::Move>,
}

impl Analysis {
    /// The result at the komi, as GTP `final_score` writes it.
    fn result(&self) -> String {
        score_text(self.black_margin)
    }
}

fn colour_name(colour: Colour) -> &'static str {
    if colour.is_black() {
        "Black"
    } else {
        "White"
    }
}

/// The tables, and each board's values once opened.
struct Oracles {
    library: Tablebase,
    tables: Option<PathBuf>,
    opened: HashMap<Board, BoardValues>,
}

impl Oracles {
    fn new(tables: Option<&Path>) -> Result<Oracles, String> {
        if let Some(folder) = tables {
            existing_folder(folder)?;
        }
        Ok(Oracles {
            library: Tablebase::with_sources(tables, false),
            tables: tables.map(Path::to_path_buf),
            opened: HashMap::new(),
        })
    }

    fn open(&mut self, board: Board) -> Result<BoardValues, String> {
        if let Some(values) = self.opened.get(&board) {
            return Ok(values.clone());
        }
        let values = self
            .library
            .open(board)
            .ok_or_else(|| no_table(board, self.tables.as_deref()))?;
        self.opened.insert(board, values.clone());
        Ok(values)
    }
}

/// Plays `moves` on in `game`, from its side to move; an error names the
/// argument at fault.
fn play_on(mut game: Game, moves: &[String]) -> Result<Game, String> {
    let board = *game.board();
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
        let colour = game.to_move();
        game.play(colour, mv)
            .map_err(|_| format!("{argument} is not legal for {} here", colour_name(colour)))?;
    }
    Ok(game)
}

/// Plays `moves` on an empty `board`, Black first.
#[cfg(test)]
fn play(board: Board, moves: &[String]) -> Result<Game, String> {
    play_on(Game::new(board), moves)
}

/// The game a diagram on `board` sets up, `to_move` to play.
fn from_diagram(board: Board, diagram: &str, to_move: Colour) -> Result<Game, String> {
    let position = Position::from_diagram(&board, &diagram.replace('/', "\n"))
        .map_err(|error| format!("--diagram '{diagram}': {error} (board {board})"))?;
    let (black, white) = (position.us(), position.them());
    Game::from_setup(board, black, white, to_move)
        .ok_or_else(|| format!("--diagram '{diagram}': a string of stones has no liberty"))
}

/// The game of an SGF file before move `before` (or at its end), with the
/// file's komi.
fn from_sgf(file: &Path, before: Option<usize>) -> Result<(Game, Option<f64>), String> {
    let name = file.display();
    let bytes = crate::common::files::read_bounded(file, sgf::MAX_FILE_BYTES)
        .map_err(|error| format!("--sgf {name}: {error}"))?;
    let text = String::from_utf8_lossy(&bytes);
    let record = sgf::main_line(&text)
        .and_then(|line| sgf::record(&line))
        .map_err(|error| format!("--sgf {name}: {error}"))?;
    let komi = match &record.komi {
        None => None,
        Some(text) => Some(
            parse_komi(text)
                .map_err(|_| format!("--sgf {name}: KM {} is not a komi", sgf::quoted(text)))?,
        ),
    };
    let board = record.board;
    let mut game = Game::from_setup(board, record.black, record.white, record.first_to_play())
        .ok_or_else(|| format!("--sgf {name}: its setup stones leave a string without liberty"))?;
    let total = record.moves().count();
    if let Some(number) = before {
        if number == 0 || number > total + 1 {
            return Err(format!(
                "--move {number}: the game has {total} moves, so N is 1 to {}",
                total + 1
            ));
        }
    }
    for (index, (colour, mv, node)) in record.moves().enumerate() {
        if before == Some(index + 1) {
            break;
        }
        game.play(colour, mv).map_err(|_| {
            format!(
                "--sgf {name}: move {} (node {node}, {} {}) is illegal",
                index + 1,
                colour.letter(),
                mv.name(&board)
            )
        })?;
    }
    Ok((game, komi))
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

/// Sets up the position `spec` names and analyzes it; `komi` is the
/// komi for a spec that gives none and whose game has none.
fn analyze_spec(
    spec: &PositionSpec,
    komi: Option<f64>,
    oracles: &mut Oracles,
) -> Result<Analysis, String> {
    let (game, start, moves, file_komi) = match &spec.sgf {
        Some(file) => {
            let (game, file_komi) = from_sgf(file, spec.move_number)?;
            let start = Start::Game {
                file: file.display().to_string(),
                before: spec.move_number,
            };
            (game, start, &spec.words[..], file_komi)
        }
        None => {
            let Some((first, moves)) = spec.words.split_first() else {
                return Err("no board: give RxC (for example 3x3), or --sgf GAME.sgf".to_string());
            };
            let board: Board = first
                .parse()
                .map_err(|error| format!("board '{first}': {error}"))?;
            match &spec.diagram {
                Some(diagram) => {
                    let to_move = match spec.to_move {
                        Some(ColourArgument::White) => Colour::White,
                        _ => Colour::Black,
                    };
                    let game = from_diagram(board, diagram, to_move)?;
                    (game, Start::Diagram(diagram.clone()), moves, None)
                }
                None => (Game::new(board), Start::Empty, moves, None),
            }
        }
    };
    let komi = spec.komi.or(komi).or(file_komi).unwrap_or(0.0);
    let game = play_on(game, moves)?;
    analyze(game, start, moves.to_vec(), komi, oracles)
}

fn analyze(
    game: Game,
    start: Start,
    moves: Vec<String>,
    komi: f64,
    oracles: &mut Oracles,
) -> Result<Analysis, String> {
    let board = *game.board();
    let oracle = oracles.open(board)?;
    let side = game.to_move();
    let (value, black_margin, plies, ratings) = match game.ending() {
        Some(Ending::Drawn) => (None, 0.0, None, Vec::new()),
        Some(Ending::Scored { black_margin }) => {
            (None, black_margin as f64 - komi, None, Vec::new())
        }
        None => {
            let value = oracle
                .value_of(&game.state_for(side))
                .map_err(|e| e.to_string())?;
            let outcome = value.outcome(komi, side.is_black());
            let plies = match outcome {
                crate::rules::value::Outcome::MoverWins { plies, .. }
                | crate::rules::value::Outcome::OpponentWins { plies, .. } => Some(plies),
                crate::rules::value::Outcome::Draw => None,
            };
            let ratings = ordered_ratings(&oracle, komi, &game)?;
            (
                Some(value),
                outcome.black_margin(side.is_black()),
                plies,
                ratings,
            )
        }
    };
    let best = keeping_best(&ratings);
    Ok(Analysis {
        board,
        start,
        moves,
        game,
        komi,
        source: oracle.description().to_string(),
        value,
        black_margin,
        plies,
        ratings,
        best,
    })
}

/// Prints an analysis on standard output.
fn print(analysis: &Analysis) -> io::Result<()> {
    let board = analysis.board;
    let game = &analysis.game;
    let side = colour_name(game.to_move());
    let moves = if analysis.moves.is_empty() {
        "none".to_string()
    } else {
        analysis.moves.join(" ")
    };
    outln!("board     {board}")?;
    match &analysis.start {
        Start::Empty => {}
        Start::Diagram(diagram) => outln!("start     {diagram}")?,
        Start::Game { file, before } => match before {
            Some(number) => outln!("start     {file}, before move {number}")?,
            None => outln!("start     {file}, after its last move")?,
        },
    }
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
                "value     {} (each its own area margin, komi aside)",
                value.describe(side, other)
            )?;
        }
        (None, None) => {}
    }
    outln!("result    {} at komi {komi}", analysis.result())?;
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

/// The analysis as a `position` object (`docs/json.md`).
fn to_json(analysis: &Analysis) -> Json {
    let board = &analysis.board;
    let game = &analysis.game;
    let current = game.current();
    let mover = game.to_move();
    let start = match &analysis.start {
        Start::Empty => Json::object().with("from", "empty"),
        Start::Diagram(diagram) => Json::object()
            .with("from", "diagram")
            .with("diagram", diagram.as_str()),
        Start::Game { file, before } => Json::object()
            .with("from", "sgf")
            .with("file", file.as_str())
            .with("before_move", *before),
    };
    let ended = game.ending().map(|ending| match ending {
        Ending::Drawn => "repetition",
        Ending::Scored { .. } => "passes",
    });
    let winner = if analysis.black_margin > 0.0 {
        Some(Colour::Black)
    } else if analysis.black_margin < 0.0 {
        Some(Colour::White)
    } else {
        None
    };
    let moves = analysis.ratings.iter().map(|rating| {
        Json::object()
            .with("point", json::point(board, rating.mv))
            .with("outcome", json::outcome(&rating.outcome, mover))
            .with("best", analysis.best.contains(&rating.mv))
    });
    Json::kind("position")
        .with("board", board.name())
        .with("start", start)
        .with(
            "played",
            Json::list(analysis.moves.iter().map(String::as_str)),
        )
        .with(
            "diagram",
            json::diagram(board, current.black, current.white),
        )
        .with("black", json::points(board, current.black))
        .with("white", json::points(board, current.white))
        .with("to_move", json::colour(mover))
        .with("ko", current.ko.map(|k| board.point_name(k)))
        .with("ended", ended)
        .with("komi", analysis.komi)
        .with("source", analysis.source.as_str())
        .with("value", analysis.value.map(|v| json::value(&v, mover)))
        .with(
            "result",
            json::result(
                winner,
                analysis.black_margin.abs(),
                analysis.plies,
                analysis.result(),
            ),
        )
        .with("moves", Json::list(moves))
}

/// Writes one analysis as asked.
fn write(analysis: &Analysis, as_json: bool, line: Option<usize>) -> io::Result<()> {
    if as_json {
        let mut object = to_json(analysis);
        if let Some(line) = line {
            object = insert_line(object, line);
        }
        outln!("{object}")
    } else {
        if let Some(line) = line {
            outln!("line      {line}")?;
        }
        print(analysis)
    }
}

/// `object` with `"line": N` after its kind.
fn insert_line(object: Json, line: usize) -> Json {
    match object {
        Json::Object(mut fields) => {
            fields.insert(1, ("line".to_string(), Json::from(line)));
            Json::Object(fields)
        }
        other => other,
    }
}

/// `smallgo analyze position`.
pub fn run(arguments: &PositionArguments) -> ExitCode {
    let mut oracles = match Oracles::new(arguments.tables.as_deref()) {
        Ok(oracles) => oracles,
        Err(message) => {
            eprintln!("smallgo: analyze position: {message}");
            return ExitCode::from(EXIT_FAILURE);
        }
    };
    if let Some(batch) = &arguments.batch {
        return run_batch(batch, arguments, &mut oracles);
    }
    // A board that does not parse is a command line that does not, as
    // for the other commands.
    let spec = &arguments.position;
    if let (None, Some(first)) = (&spec.sgf, spec.words.first()) {
        if let Err(error) = first.parse::<Board>() {
            eprintln!("smallgo: analyze position: board '{first}': {error}");
            return ExitCode::from(EXIT_USAGE);
        }
    }
    let analysis = match analyze_spec(&arguments.position, None, &mut oracles) {
        Ok(analysis) => analysis,
        Err(message) => {
            eprintln!("smallgo: analyze position: {message}");
            return ExitCode::from(EXIT_FAILURE);
        }
    };
    if let Some(file) = &arguments.svg {
        if let Err(message) = draw(&analysis, &mut oracles, file) {
            eprintln!("smallgo: analyze position: {message}");
            return ExitCode::from(EXIT_FAILURE);
        }
    }
    match write(&analysis, arguments.json, None) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => output_failed(&error),
    }
}

/// Draws the analysis's position into the SVG file `file`, whole or not
/// at all.
fn draw(analysis: &Analysis, oracles: &mut Oracles, file: &Path) -> Result<(), String> {
    let oracle = oracles.open(analysis.board)?;
    let mut title = analysis.board.name();
    match &analysis.start {
        Start::Empty => {}
        Start::Diagram(diagram) => title.push_str(&format!(" from {diagram}")),
        Start::Game { file, before } => match before {
            Some(number) => title.push_str(&format!(", {file} before move {number}")),
            None => title.push_str(&format!(", {file}")),
        },
    }
    if !analysis.moves.is_empty() {
        title.push_str(&format!(" after {}", analysis.moves.join(" ")));
    }
    let svg =
        crate::game::drawing::position_svg(&oracle, analysis.komi, &analysis.game, &title, None)
            .map_err(|error| format!("--svg {}: {error}", file.display()))?;
    crate::common::files::write_output(file, svg.as_bytes())
        .map_err(|error| format!("cannot write {}: {error}", file.display()))
}

/// One line of a batch, read whole (at most `MAX_LINE` bytes, its end of
/// line dropped); `None` at the end of the input.
fn next_line(reader: &mut impl BufRead) -> io::Result<Option<Result<String, String>>> {
    let mut bytes = Vec::new();
    reader
        .by_ref()
        .take(MAX_LINE + 1)
        .read_until(b'\n', &mut bytes)?;
    if bytes.is_empty() {
        return Ok(None);
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
    } else if bytes.len() as u64 > MAX_LINE {
        // Read past the rest of the line.
        loop {
            let mut rest = Vec::new();
            reader
                .by_ref()
                .take(MAX_LINE)
                .read_until(b'\n', &mut rest)?;
            if rest.is_empty() || rest.last() == Some(&b'\n') {
                break;
            }
        }
        return Ok(Some(Err(format!(
            "the line is longer than {} KiB",
            MAX_LINE >> 10
        ))));
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Ok(Some(
        String::from_utf8(bytes).map_err(|_| "the line is not UTF-8".to_string()),
    ))
}

/// The analysis of one line of a batch.
fn batch_line(text: &str, komi: Option<f64>, oracles: &mut Oracles) -> Result<Analysis, String> {
    let line = BatchLine::try_parse_from(text.split_whitespace()).map_err(|error| {
        let rendered = error.render().to_string();
        let first = rendered.lines().next().unwrap_or_default();
        first.strip_prefix("error: ").unwrap_or(first).to_string()
    })?;
    analyze_spec(&line.position, komi, oracles)
}

/// `smallgo analyze position --batch FILE`.
fn run_batch(batch: &Path, arguments: &PositionArguments, oracles: &mut Oracles) -> ExitCode {
    let stdin = io::stdin();
    let mut reader: Box<dyn BufRead> = if batch == Path::new("-") {
        Box::new(stdin.lock())
    } else {
        match crate::common::files::open_for_reading(batch) {
            Ok(file) => Box::new(BufReader::new(file)),
            Err(error) => {
                eprintln!(
                    "smallgo: analyze position: --batch {}: {error}",
                    batch.display()
                );
                return ExitCode::from(EXIT_FAILURE);
            }
        }
    };
    let komi = arguments.position.komi;
    let mut failed = 0usize;
    let mut number = 0usize;
    let mut reported = 0usize;
    loop {
        let line = match next_line(&mut reader) {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(error) => {
                eprintln!(
                    "smallgo: analyze position: --batch {}: {error}",
                    batch.display()
                );
                return ExitCode::from(EXIT_FAILURE);
            }
        };
        number += 1;
        let analysis = line.and_then(|text| {
            let trimmed = text.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                Ok(None)
            } else {
                batch_line(trimmed, komi, oracles).map(Some)
            }
        });
        let written = match analysis {
            Ok(None) => Ok(()),
            Ok(Some(analysis)) => {
                // The reports of text output are a blank line apart.
                let gap = if !arguments.json && reported > 0 {
                    outln!("")
                } else {
                    Ok(())
                };
                reported += 1;
                gap.and_then(|()| write(&analysis, arguments.json, Some(number)))
            }
            Err(message) => {
                failed += 1;
                eprintln!("smallgo: analyze position: line {number}: {message}");
                if arguments.json {
                    outln!("{}", json::error(&message).with("line", number))
                } else {
                    Ok(())
                }
            }
        };
        if let Err(error) = written {
            return output_failed(&error);
        }
    }
    if failed > 0 {
        eprintln!("smallgo: analyze position: {failed} of the batch's lines failed");
        ExitCode::from(EXIT_FAILURE)
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::moves::Move;

    fn moves(list: &[&str]) -> Vec<String> {
        list.iter().map(|m| m.to_string()).collect()
    }

    fn analyze_moves(board: Board, list: &[&str], komi: f64) -> Analysis {
        let mut oracles = Oracles::new(None).unwrap();
        let game = play(board, &moves(list)).unwrap();
        analyze(game, Start::Empty, moves(list), komi, &mut oracles).unwrap()
    }

    #[test]
    fn the_first_move_listed_is_the_engines_and_pass_is_listed() {
        let board: Board = "3x3".parse().unwrap();
        let analysis = analyze_moves(board, &["B2"], 0.0);
        assert_eq!(analysis.result(), "B+9");
        assert_eq!(analysis.game.to_move(), Colour::White);
        assert!(analysis.ratings.iter().any(|r| r.mv == Move::Pass));
        assert_eq!(analysis.ratings.len(), 9, "8 points and pass");
        // Every White move loses by 9 at komi 0; a draw at komi 9.
        assert!(analysis.ratings.iter().all(|r| r.outcome.label() == "-9"));
        let drawn = analyze_moves(board, &["B2"], 9.0);
        assert_eq!(drawn.result(), "0");
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
        let analysis = analyze_moves(board, &["B2", "pass", "pass"], 0.5);
        assert_eq!(analysis.result(), "B+8.5");
        assert!(analysis.value.is_none() && analysis.ratings.is_empty());
    }

    #[test]
    fn a_diagram_reads_back_as_it_is_written() {
        let board: Board = "3x3".parse().unwrap();
        let game = from_diagram(board, "..X/.O./...", Colour::White).unwrap();
        let current = game.current();
        assert_eq!(game.to_move(), Colour::White);
        assert_eq!(
            json::diagram(&board, current.black, current.white),
            "..X/.O./..."
        );
        for (bad, said) in [
            ("..X/.O.", "the diagram has 2 rows"),
            ("..X/.O../...", "row 2 of the diagram has 4 cells"),
            ("..X/.Z./...", "'Z'"),
            ("XO./O../...", "no liberty"),
        ] {
            let error = from_diagram(board, bad, Colour::Black).err().unwrap();
            assert!(error.contains(said), "{bad}: {error}");
        }
    }
}
