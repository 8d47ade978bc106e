//! The GTP commands and what they do to the game.
//!
//! Moves are chosen by SPEC section 4 from the values of the children, read
//! for the current komi, with one addition from the live game: a move that
//! would repeat a full state ends the game as a draw, so it is rated a draw.
//! That keeps a winning side from repeating (it always has a win that does
//! not), and lets any side take a draw that the history offers.
//!
//! The engine keeps a topology setting besides the game: `plain` (walls at
//! every edge) or `circular` (the first and last columns of each row are
//! neighbours, board `RxCc`). `smallgo-topology` changes only the setting;
//! the next `boardsize`, `rectangular_boardsize` or `clear_board` makes a
//! board of that topology, and fails like any size without values, the
//! game unchanged, when there are none. `loadsgf` takes the topology of the
//! file's board (plain unless the file says circular) and sets the setting
//! to it, so that `clear_board` afterwards restarts the same board.

use std::time::Duration;

use crate::analysis::{preference_order, Rating, Values};
use crate::board::{Board, Topology};
use crate::colour::Colour;
use crate::moves::Move;
use crate::position::Position;
use crate::sgf;
use crate::value::{score_text, Outcome};

use super::game::{Ending, Game};
use super::library::{Library, Oracle};
use super::parse::{colour, finite_number, move_text, whole_number, MoveText};
use super::perfect;

/// The board used until a controller sets one.
const DEFAULT_BOARD: (usize, usize) = (4, 4);

/// Every command the engine knows, as `list_commands` gives them.
pub const COMMANDS: &[&str] = &[
    "boardsize",
    "clear_board",
    "cputime",
    "final_score",
    "final_status_list",
    "genmove",
    "gogui-analyze_commands",
    "kata-analyze",
    "known_command",
    "komi",
    "list_commands",
    "loadsgf",
    "name",
    "play",
    "printsgf",
    "protocol_version",
    "quit",
    "rectangular_boardsize",
    "reg_genmove",
    "showboard",
    "smallgo-best-moves",
    "smallgo-move-labels",
    "smallgo-move-values",
    "smallgo-pv",
    "smallgo-topology",
    "smallgo-value",
    "time_left",
    "time_settings",
    "undo",
    "version",
];

/// The analysis commands GoGui offers in its menu.
/// They name no colour, so they follow the side to move when GoGui runs
/// them automatically after each move. The last three set and show the
/// topology of the next game (GoGui's New Game sends `boardsize` and
/// `clear_board`), so that circular boards need no GTP shell.
const GOGUI_ANALYZE_COMMANDS: &str = "gfx/Perfect move values/smallgo-move-values\n\
    pspairs/Perfect move values (labels)/smallgo-move-labels\n\
    plist/Perfect best moves/smallgo-best-moves\n\
    var/Perfect principal variation/smallgo-pv\n\
    string/Perfect result/smallgo-value\n\
    none/Circular board from the next game/smallgo-topology circular\n\
    none/Plain board from the next game/smallgo-topology plain\n\
    string/Topology of the next game/smallgo-topology";

/// What the engine answers.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    Success(String),
    Failure(String),
    /// `quit`: answer, then stop.
    Quit,
    /// `kata-analyze`: a stream of analysis lines until any input arrives.
    Analyze(AnalyzeRequest),
}

/// What `kata-analyze` asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalyzeRequest {
    /// The side whose moves are analysed.
    pub colour: Colour,
    /// How often to repeat the line; `None` for once.
    pub interval: Option<Duration>,
    /// At most this many moves (`maxmoves`).
    pub max_moves: Option<usize>,
    /// Add the final ownership of every point (`ownership true`).
    pub ownership: bool,
}

fn success(text: impl Into<String>) -> Reply {
    Reply::Success(text.into())
}

fn failure(text: impl Into<String>) -> Reply {
    Reply::Failure(text.into())
}

const SYNTAX_ERROR: &str = "syntax error";
/// GNU Go's answer to a vertex that is malformed or off the board.
const INVALID_COORDINATE: &str = "invalid coordinate";

/// The engine's settings from the command line.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Answer `resign` in lost positions (never, otherwise).
    pub resign: bool,
}

/// A GTP engine over a library of values.
pub struct Engine {
    library: Library,
    settings: Settings,
    game: Game,
    /// Values for the game's board, opened on first use.
    oracle: Option<Oracle>,
    komi: f64,
    /// The topology of the board the next `boardsize`,
    /// `rectangular_boardsize` or `clear_board` makes.
    topology: Topology,
}

/// Formats a float so that it always has a decimal point: `1.0`, `0.5`.
fn float_text(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.1}")
    } else {
        format!("{value}")
    }
}

impl Engine {
    pub fn new(library: Library, settings: Settings) -> Engine {
        let board =
            Board::new(DEFAULT_BOARD.0, DEFAULT_BOARD.1).expect("the default board is valid");
        Engine {
            library,
            settings,
            game: Game::new(board),
            oracle: None,
            komi: 0.0,
            topology: Topology::Plain,
        }
    }

    fn board(&self) -> Board {
        *self.game.board()
    }

    /// Opens the values of `board`, saying where they come from.
    fn open_oracle(&self, board: Board) -> Option<Oracle> {
        let oracle = self.library.open(board)?;
        log::info!(
            "board {board} ({} wide, {} high): {}",
            board.columns(),
            board.rows(),
            oracle.description()
        );
        Some(oracle)
    }

    /// The values of the current board, opening them on first use.
    fn oracle(&mut self) -> Result<Oracle, String> {
        if self.oracle.is_none() {
            let board = self.board();
            let oracle = self
                .open_oracle(board)
                .ok_or_else(|| format!("no table for board {board}"))?;
            self.oracle = Some(oracle);
        }
        Ok(self.oracle.clone().expect("opened above"))
    }

    /// Runs one command.
    pub fn execute(&mut self, name: &str, arguments: &[&str]) -> Reply {
        match name {
            "protocol_version" => success("2"),
            "name" => success("smallgo"),
            "version" => success(env!("CARGO_PKG_VERSION")),
            "known_command" => match arguments {
                [command] => success(if COMMANDS.contains(command) {
                    "true"
                } else {
                    "false"
                }),
                _ => failure(SYNTAX_ERROR),
            },
            "list_commands" => success(COMMANDS.join("\n")),
            "quit" => Reply::Quit,
            "boardsize" => match arguments {
                [size] => match whole_number(size) {
                    Some(size) => self.set_board(size as usize, size as usize, "unacceptable size"),
                    None => failure(SYNTAX_ERROR),
                },
                _ => failure(SYNTAX_ERROR),
            },
            "rectangular_boardsize" => match arguments {
                [width, height] => match (whole_number(width), whole_number(height)) {
                    (Some(width), Some(height)) => {
                        self.set_board(height as usize, width as usize, "unacceptable size")
                    }
                    _ => failure(SYNTAX_ERROR),
                },
                _ => failure(SYNTAX_ERROR),
            },
            "clear_board" if arguments.is_empty() => {
                let board = self.board();
                if board.topology() == self.topology {
                    self.game = Game::new(board);
                    return success("");
                }
                // The topology setting changed since the board was set.
                let refusal =
                    match Board::with_topology(board.rows(), board.columns(), self.topology) {
                        Ok(next) => format!("no table for board {next}"),
                        Err(error) => error.to_string(),
                    };
                self.set_board(board.rows(), board.columns(), &refusal)
            }
            "smallgo-topology" => match arguments {
                [] => success(self.topology.word()),
                [word] => match word.to_ascii_lowercase().as_str() {
                    "plain" => {
                        self.topology = Topology::Plain;
                        success("")
                    }
                    "circular" => {
                        self.topology = Topology::Circular;
                        success("")
                    }
                    _ => failure(format!("unknown topology '{word}': plain or circular")),
                },
                _ => failure(SYNTAX_ERROR),
            },
            "komi" => match arguments {
                [komi] => match finite_number(komi) {
                    Some(komi) => {
                        self.komi = komi;
                        success("")
                    }
                    None => failure(SYNTAX_ERROR),
                },
                _ => failure(SYNTAX_ERROR),
            },
            "play" => self.play(arguments),
            "loadsgf" => self.load_sgf(arguments),
            "printsgf" => self.print_sgf(arguments),
            "genmove" => self.generate(arguments, true),
            "reg_genmove" => self.generate(arguments, false),
            "undo" if arguments.is_empty() => {
                if self.game.undo() {
                    success("")
                } else {
                    failure("cannot undo")
                }
            }
            "showboard" if arguments.is_empty() => success(format!("\n{}", self.game.diagram())),
            "final_score" if arguments.is_empty() => success(self.final_score()),
            "final_status_list" => self.final_status_list(arguments),
            "time_settings" => match arguments {
                [main, byo_yomi, stones]
                    if finite_number(main).is_some()
                        && finite_number(byo_yomi).is_some()
                        && whole_number(stones).is_some() =>
                {
                    success("")
                }
                _ => failure(SYNTAX_ERROR),
            },
            "time_left" => match arguments {
                [side, time, stones]
                    if colour(side).is_some()
                        && finite_number(time).is_some()
                        && whole_number(stones).is_some() =>
                {
                    success("")
                }
                _ => failure(SYNTAX_ERROR),
            },
            "cputime" if arguments.is_empty() => {
                success(format!("{:.3}", crate::plan::cpu_seconds()))
            }
            "smallgo-value" if arguments.is_empty() => match self.value_text() {
                Ok(text) => success(text),
                Err(message) => failure(message),
            },
            "smallgo-move-values" | "smallgo-move-labels" | "smallgo-best-moves" | "smallgo-pv" => {
                let side = match arguments {
                    [] => self.game.to_move(),
                    [side] => match colour(side) {
                        Some(side) => side,
                        None => return failure(SYNTAX_ERROR),
                    },
                    _ => return failure(SYNTAX_ERROR),
                };
                let result = match name {
                    "smallgo-move-values" => self.move_values_gfx(side),
                    "smallgo-move-labels" => self.move_labels(side),
                    "smallgo-best-moves" => self.best_moves(side),
                    _ => self.principal_variation_text(side),
                };
                match result {
                    Ok(text) => success(text),
                    Err(message) => failure(message),
                }
            }
            "gogui-analyze_commands" if arguments.is_empty() => success(GOGUI_ANALYZE_COMMANDS),
            "kata-analyze" => self.kata_analyze_request(arguments),
            _ if COMMANDS.contains(&name) => failure(SYNTAX_ERROR),
            _ => failure("unknown command"),
        }
    }

    /// Changes the board to `rows` x `columns` of the topology setting and
    /// clears it, if its values can be had; otherwise answers `refusal` and
    /// leaves the game as it was.
    fn set_board(&mut self, rows: usize, columns: usize, refusal: &str) -> Reply {
        let board = match Board::with_topology(rows, columns, self.topology) {
            Ok(board) => board,
            Err(error) => {
                log::warn!("{error}");
                return failure(refusal);
            }
        };
        if board != self.board() || self.oracle.is_none() {
            let Some(oracle) = self.open_oracle(board) else {
                self.log_missing_table(board);
                return failure(refusal);
            };
            self.oracle = Some(oracle);
        }
        self.game = Game::new(board);
        success("")
    }

    /// `loadsgf FILE [MOVE_NUMBER | VERTEX]`, as GNU Go has it: the game of
    /// the file's main line, up to (not including) move MOVE_NUMBER or the
    /// first move at VERTEX; its board, komi (if given), setup stones and
    /// moves. Answers the colour to play. Anything wrong leaves the current
    /// game as it was.
    fn load_sgf(&mut self, arguments: &[&str]) -> Reply {
        let (file, until) = match arguments {
            [] => return failure("missing filename"),
            [file] => (*file, None),
            [file, until] => (*file, Some(*until)),
            _ => return failure(SYNTAX_ERROR),
        };
        let bytes = match std::fs::read(file) {
            Ok(bytes) => bytes,
            Err(error) => return failure(format!("cannot open '{file}': {error}")),
        };
        let text = String::from_utf8_lossy(&bytes);
        let record = match sgf::main_line(&text).and_then(|line| sgf::record(&line)) {
            Ok(record) => record,
            Err(error) => return failure(format!("cannot load '{file}': {error}")),
        };
        let board = record.board;
        enum Until {
            Number(usize),
            Vertex(Move),
        }
        let until = match until {
            None => None,
            Some(text) => match (whole_number(text), move_text(&board, text)) {
                (Some(number), _) if number > 0 => Some(Until::Number(number as usize)),
                (_, Some(MoveText::Move(mv @ Move::Place(_)))) => Some(Until::Vertex(mv)),
                _ => return failure(format!("'{text}' is neither a move number nor a vertex")),
            },
        };
        let oracle = if board == self.board() && self.oracle.is_some() {
            None
        } else {
            match self.open_oracle(board) {
                Some(oracle) => Some(oracle),
                None => {
                    return failure(format!(
                        "cannot load '{file}': no table serves its {} board",
                        board.name()
                    ))
                }
            }
        };
        let to_move = record.first_to_play();
        let Some(mut game) = Game::from_setup(board, record.black, record.white, to_move) else {
            return failure(format!(
                "cannot load '{file}': its setup stones leave a string without liberty"
            ));
        };
        let mut to_play = None;
        let mut number = 0;
        for (colour, mv, node) in record.moves() {
            number += 1;
            let reached = match until {
                Some(Until::Number(last)) => number == last,
                Some(Until::Vertex(vertex)) => mv == vertex,
                None => false,
            };
            if reached {
                to_play = Some(colour);
                break;
            }
            if game.play(colour, mv).is_err() {
                return failure(format!(
                    "cannot load '{file}': move {number} (node {node}, {} {}) is illegal",
                    if colour.is_black() { "B" } else { "W" },
                    mv.name(&board)
                ));
            }
        }
        if let Some(oracle) = oracle {
            self.oracle = Some(oracle);
        }
        if let Some(komi) = record.komi {
            self.komi = komi;
        }
        self.topology = board.topology();
        let to_play = to_play.unwrap_or(game.to_move());
        self.game = game;
        success(if to_play.is_black() { "black" } else { "white" })
    }

    /// `printsgf [FILE]`: the game so far as SGF, written to FILE, or
    /// answered when no file is named.
    fn print_sgf(&self, arguments: &[&str]) -> Reply {
        let board = self.board();
        let start = self.game.start();
        let moves: Vec<(Colour, Move)> = self.game.moves().collect();
        let result = match self.game.ending() {
            Some(_) => format!("RE[{}]", self.final_score()),
            None => String::new(),
        };
        let text = sgf::write_game(
            &board,
            self.komi,
            start.black,
            start.white,
            start.to_move,
            &moves,
            &result,
        );
        match arguments {
            [] => success(text.trim_end()),
            [file] => match sgf::write_file(std::path::Path::new(file), &text) {
                Ok(()) => success(""),
                Err(error) => failure(format!("cannot write '{file}': {error}")),
            },
            _ => failure(SYNTAX_ERROR),
        }
    }

    /// Tells on standard error which boards have tables, and how to build
    /// the one asked for.
    fn log_missing_table(&self, board: Board) {
        let boards: Vec<String> = self.library.boards().iter().map(Board::name).collect();
        let topology = match board.topology() {
            Topology::Plain => "plain board".to_string(),
            Topology::Circular => format!(
                "circular board, the ends of each row are neighbours (`smallgo-topology plain` \
                 for the plain {})",
                board.plain()
            ),
        };
        log::warn!(
            "no table for board {board} ({} wide, {} high, {topology}); tables (each plain one \
             also serves its turned board, circular boards of 1 or 2 columns play from their \
             plain boards): {}. Build one with `smallgo --build {board} --tables DIR` and start \
             the engine with `--tables DIR`",
            board.columns(),
            board.rows(),
            boards.join(" ")
        );
    }

    fn play(&mut self, arguments: &[&str]) -> Reply {
        let [side, vertex] = arguments else {
            return failure(SYNTAX_ERROR);
        };
        let Some(side) = colour(side) else {
            return failure(SYNTAX_ERROR);
        };
        match move_text(&self.board(), vertex) {
            None | Some(MoveText::OffBoard) => failure(INVALID_COORDINATE),
            Some(MoveText::Move(mv)) => match self.game.play(side, mv) {
                Ok(()) => success(""),
                Err(_) => failure("illegal move"),
            },
        }
    }

    fn generate(&mut self, arguments: &[&str], play: bool) -> Reply {
        let [side] = arguments else {
            return failure(SYNTAX_ERROR);
        };
        let Some(side) = colour(side) else {
            return failure(SYNTAX_ERROR);
        };
        let mv = if self.game.is_over() {
            Move::Pass
        } else {
            let oracle = match self.oracle() {
                Ok(oracle) => oracle,
                Err(message) => return failure(message),
            };
            match perfect::choose(&oracle, self.komi, &self.game, side) {
                Ok(best) => {
                    if self.settings.resign && matches!(best.outcome, Outcome::OpponentWins { .. })
                    {
                        return success("resign");
                    }
                    best.mv
                }
                Err(message) => return failure(message),
            }
        };
        if play && self.game.play(side, mv).is_err() {
            return failure(format!("cannot play {}", mv.name(&self.board())));
        }
        success(mv.name(&self.board()))
    }

    /// The result once the game is over; before, the stones as they stand
    /// scored by area.
    fn final_score(&self) -> String {
        let black_margin = match self.game.ending() {
            Some(Ending::Drawn) => return "0".to_string(),
            Some(Ending::Scored { black_margin }) => black_margin,
            None => self.game.black_area_margin(),
        };
        score_text(black_margin as f64 - self.komi)
    }

    fn final_status_list(&self, arguments: &[&str]) -> Reply {
        let [status] = arguments else {
            return failure(SYNTAX_ERROR);
        };
        match status.to_ascii_lowercase().as_str() {
            // Under area scoring nothing is removed: every stone on the
            // board is alive, seki or not.
            "dead" | "seki" => success(""),
            "alive" => {
                let board = self.board();
                let current = self.game.current();
                let stones = current.black | current.white;
                let names: Vec<String> = stones.iter().map(|p| board.point_name(p)).collect();
                success(names.join(" "))
            }
            _ => failure(SYNTAX_ERROR),
        }
    }

    /// The perfect-play result of the game as it stands, as `final_score`
    /// writes it.
    fn value_text(&mut self) -> Result<String, String> {
        if self.game.is_over() {
            return Ok(self.final_score());
        }
        let oracle = self.oracle()?;
        let side = self.game.to_move();
        let value = oracle
            .value_of(&self.game.state_for(side))
            .map_err(|e| e.to_string())?;
        Ok(score_text(
            value
                .outcome(self.komi, side.is_black())
                .black_margin(side.is_black()),
        ))
    }

    /// The rated moves of `side`, most preferred first.
    fn ordered_ratings(&mut self, side: Colour) -> Result<Vec<Rating>, String> {
        let oracle = self.oracle()?;
        let ratings = perfect::rate(&oracle, self.komi, &self.game, side)?;
        Ok(preference_order(&ratings)
            .into_iter()
            .map(|i| ratings[i])
            .collect())
    }

    fn move_values_gfx(&mut self, side: Colour) -> Result<String, String> {
        let board = self.board();
        let ratings = self.ordered_ratings(side)?;
        let mut labels = Vec::new();
        let mut wins = Vec::new();
        let mut draws = Vec::new();
        let mut losses = Vec::new();
        let mut pass = None;
        for rating in &ratings {
            match rating.mv {
                Move::Pass => pass = Some(rating.outcome.label()),
                Move::Place(point) => {
                    let name = board.point_name(point);
                    labels.push(format!("{name} {}", rating.outcome.label()));
                    match rating.outcome {
                        Outcome::MoverWins { .. } => wins.push(name),
                        Outcome::Draw => draws.push(name),
                        Outcome::OpponentWins { .. } => losses.push(name),
                    }
                }
            }
        }
        let mut lines = Vec::new();
        if !labels.is_empty() {
            lines.push(format!("LABEL {}", labels.join(" ")));
        }
        for (colour_name, points) in [("green", &wins), ("yellow", &draws), ("red", &losses)] {
            if !points.is_empty() {
                lines.push(format!("COLOR {colour_name} {}", points.join(" ")));
            }
        }
        if let Some(best) = ratings.first() {
            if let Move::Place(point) = best.mv {
                lines.push(format!("MARK {}", board.point_name(point)));
            }
            lines.push(format!(
                "TEXT {side} plays {} ({}); pass {}",
                best.mv.name(&board),
                best.outcome.label(),
                pass.unwrap_or_else(|| "-".to_string())
            ));
        }
        Ok(lines.join("\n"))
    }

    fn move_labels(&mut self, side: Colour) -> Result<String, String> {
        let board = self.board();
        let mut ratings = self.ordered_ratings(side)?;
        ratings.sort_by_key(|r| r.mv);
        let pairs: Vec<String> = ratings
            .iter()
            .filter_map(|r| match r.mv {
                Move::Place(point) => {
                    Some(format!("{} {}", board.point_name(point), r.outcome.label()))
                }
                Move::Pass => None,
            })
            .collect();
        Ok(pairs.join(" "))
    }

    /// Every move that keeps the best result (plies aside), pass included
    /// when it does, in point order then pass.
    fn best_moves(&mut self, side: Colour) -> Result<String, String> {
        let board = self.board();
        let oracle = self.oracle()?;
        let ratings = perfect::rate(&oracle, self.komi, &self.game, side)?;
        Ok(crate::analysis::keeping_best(&ratings)
            .iter()
            .map(|mv| mv.name(&board))
            .collect::<Vec<_>>()
            .join(" "))
    }

    /// The moves perfect play follows after `side` plays `first` in the
    /// current game, and the game at their end.
    fn principal_variation(
        &mut self,
        side: Colour,
        first: Move,
    ) -> Result<(Vec<Move>, Game), String> {
        let oracle = self.oracle()?;
        perfect::principal_variation(&oracle, self.komi, &self.game, side, first)
    }

    fn principal_variation_text(&mut self, side: Colour) -> Result<String, String> {
        if self.game.is_over() {
            return Ok(String::new());
        }
        let board = self.board();
        let oracle = self.oracle()?;
        let first = perfect::choose(&oracle, self.komi, &self.game, side)?.mv;
        let (line, _) = self.principal_variation(side, first)?;
        Ok(line
            .iter()
            .map(|m| m.name(&board))
            .collect::<Vec<_>>()
            .join(" "))
    }

    /// Reads `kata-analyze [COLOR] [INTERVAL] [KEY VALUE]...` (KataGo's
    /// syntax). Understood keys: `interval`, `minmoves` (every legal move is
    /// listed anyway), `maxmoves`, `ownership`; others are refused.
    fn kata_analyze_request(&mut self, arguments: &[&str]) -> Reply {
        let mut rest = arguments;
        let mut request = AnalyzeRequest {
            colour: self.game.to_move(),
            interval: None,
            max_moves: None,
            ownership: false,
        };
        let centiseconds =
            |value: u32| (value > 0).then(|| Duration::from_millis(10 * value as u64));
        if let Some((first, tail)) = rest.split_first() {
            if let Some(named) = colour(first) {
                request.colour = named;
                rest = tail;
            }
        }
        if let Some((first, tail)) = rest.split_first() {
            if let Some(value) = whole_number(first) {
                request.interval = centiseconds(value);
                rest = tail;
            }
        }
        for pair in rest.chunks(2) {
            let [key, value] = pair else {
                let lone = pair[0];
                return failure(match lone {
                    "interval" | "minmoves" | "maxmoves" | "ownership" => {
                        format!("kata-analyze: {lone} needs a value")
                    }
                    _ => format!(
                        "kata-analyze: '{lone}' is not a colour, an interval or an option with its value"
                    ),
                });
            };
            let number = whole_number(value);
            match (*key, number) {
                ("interval", Some(value)) => request.interval = centiseconds(value),
                ("minmoves", Some(_)) => {}
                ("maxmoves", Some(value)) => request.max_moves = Some(value as usize),
                ("ownership", _) if *value == "true" || *value == "false" => {
                    request.ownership = *value == "true"
                }
                ("interval" | "minmoves" | "maxmoves", _) => {
                    return failure(format!(
                        "kata-analyze: {key} needs a whole number, not '{value}'"
                    ))
                }
                ("ownership", _) => {
                    return failure(format!(
                        "kata-analyze: ownership is true or false, not '{value}'"
                    ))
                }
                _ => return failure(format!("unsupported kata-analyze option: {key}")),
            }
        }
        if let Err(message) = self.oracle() {
            return failure(message);
        }
        Reply::Analyze(request)
    }

    /// One `kata-analyze` line: an `info` entry for every legal move, pass
    /// included as KataGo writes it (`move pass`), or the `maxmoves` best;
    /// most preferred first, so that `order 0` is the move `genmove` plays;
    /// from the side's view; and the final ownership if asked for.
    pub fn kata_analyze_line(&mut self, request: &AnalyzeRequest) -> Result<String, String> {
        let board = self.board();
        let side = request.colour;
        if self.game.is_over() {
            return Ok(String::new());
        }
        let mut ratings = self.ordered_ratings(side)?;
        if let Some(limit) = request.max_moves {
            ratings.truncate(limit);
        }
        let count = ratings.len();
        let mut entries = Vec::with_capacity(count + 1);
        for (order, rating) in ratings.iter().enumerate() {
            let (winrate, lead) = match rating.outcome {
                Outcome::MoverWins { margin, .. } => (1.0, margin),
                Outcome::Draw => (0.5, 0.0),
                Outcome::OpponentWins { margin, .. } => (0.0, -margin),
            };
            let (line, _) = self.principal_variation(side, rating.mv)?;
            // The line up to the pass that ends or answers it: a pass
            // played first is shown.
            let pv: Vec<String> = line
                .iter()
                .enumerate()
                .take_while(|&(i, m)| i == 0 || *m != Move::Pass)
                .map(|(_, m)| m.name(&board))
                .collect();
            entries.push(format!(
                "info move {} visits {} winrate {} scoreLead {} order {order} pv {}",
                rating.mv.name(&board),
                10 * (count - order),
                float_text(winrate),
                float_text(lead),
                pv.join(" ")
            ));
        }
        if request.ownership {
            entries.push(format!("ownership {}", self.final_ownership(side)?));
        }
        Ok(entries.join(" "))
    }

    /// Who owns each point when perfect play from here ends, from `side`'s
    /// view: 1.0 its stones and territory, -1.0 the opponent's, 0.0 neither.
    /// Row by row from the top left, as KataGo writes ownership.
    fn final_ownership(&mut self, side: Colour) -> Result<String, String> {
        let oracle = self.oracle()?;
        let best = perfect::choose(&oracle, self.komi, &self.game, side)?.mv;
        let (_, end) = self.principal_variation(side, best)?;
        let board = *end.board();
        let position = end.current();
        let (mine, theirs) = (position.stones(side), position.stones(side.opposite()));
        let stones = Position::new(mine, theirs);
        let (my_area, their_area) = stones.areas(&board);
        let mut values = Vec::with_capacity(board.points());
        for row in (0..board.rows()).rev() {
            for column in 0..board.columns() {
                let point = board.point(row, column);
                values.push(if my_area.contains(point) {
                    "1.0"
                } else if their_area.contains(point) {
                    "-1.0"
                } else {
                    "0.0"
                });
            }
        }
        Ok(values.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::points_text;

    #[test]
    fn floats_always_have_a_decimal_point() {
        assert_eq!(float_text(1.0), "1.0");
        assert_eq!(float_text(0.5), "0.5");
        assert_eq!(float_text(-9.0), "-9.0");
        assert_eq!(float_text(2.5), "2.5");
        assert_eq!(points_text(9.0), "9");
        assert_eq!(points_text(8.5), "8.5");
    }
}
