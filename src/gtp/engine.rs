//! The GTP engine: the protocol's own commands and the game commands, and
//! what they do to the game. The analysis commands, which only read the
//! game, are in `analyze`.
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

use crate::board::{Board, Topology};
use crate::colour::Colour;
use crate::moves::Move;
use crate::sgf;
use crate::value::{score_text, Outcome};

use super::game::{Ending, Game};
use super::library::{Library, Oracle};
use super::parse::{colour, finite_number, move_text, whole_number, MoveText};
use super::perfect;

mod analyze;

pub use analyze::AnalyzeRequest;
use analyze::GOGUI_ANALYZE_COMMANDS;

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
}
