//! The GTP engine: the protocol's own commands and the game commands, and
//! what they do to the game. The analysis commands, which only read the
//! game, are in `analyze`; Bouzy's pieces read on the setup board in
//! `pieces`.
//!
//! Moves are chosen as `docs/rules.md#how-the-engine-picks-a-move` says, from
//! the values of the children read for the current komi, with one addition from
//! the live game: a move that would repeat a full state ends the game as a
//! draw, so it is rated a draw. That keeps a winning side from repeating (it
//! always has a win that does not), and lets any side take a draw that the
//! history offers.
//!
//! The engine keeps a topology setting besides the game: `plain` (walls at
//! every edge) or `circular` (the first and last columns of each row are
//! neighbours, board `RxCc`). `smallgo-topology` changes only the setting;
//! the next `boardsize`, `rectangular_boardsize` or `clear_board` makes a
//! board of that topology, and fails like any size without values, the
//! game unchanged, when there are none. `loadsgf` takes the topology of the
//! file's board (plain unless the file says circular) and sets the setting
//! to it, so that `clear_board` afterwards restarts the same board.
//!
//! A life-and-death problem (`smallgo-problem FILE`, or `loadsgf` of a file
//! that marks one) replaces the game until `smallgo-problem-clear`, a board
//! size, `clear_board` or a `loadsgf` of a game: the game commands then
//! play the problem on its whole board (`problem`).
//!
//! The rules are loop-draw, the tables', unless `smallgo-rules` sets
//! positional or situational superko: the game commands then play under
//! it and solve the game's state by search (`superko`).
//!
//! A board size without a table, at least 7 and at most 25 points a side
//! (plain topology), makes a setup board instead of a game (`setup`): the
//! engine keeps the stones `play` puts there, as GoGui and Sabaki send a
//! problem file's stones, until `smallgo-problem-here` makes a problem of
//! them; the game commands that need values are refused there.

use std::path::Path;

use crate::rules::board::{Board, Topology};
use crate::rules::colour::Colour;
use crate::rules::moves::Move;
use crate::rules::value::Outcome;
use crate::sgf;

use super::komi::Komi;
use super::parse::{finite_number, move_text, whole_number, MoveText};
use crate::game::perfect;
use crate::game::problem::ProblemGame;
use crate::game::{Ending, Game};
use crate::table::library::{BoardValues, Tablebase};

mod analyze;
mod pieces;
mod problem;
mod setup;
mod superko;
mod wdl;

use analyze::GOGUI_ANALYZE_COMMANDS;
pub use analyze::{AnalyzeFormat, AnalyzeRequest};

/// The board used until a controller sets one.
const DEFAULT_BOARD: (usize, usize) = (4, 4);

/// A GTP command the engine knows. Command names are case-sensitive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Command {
    Boardsize,
    ClearBoard,
    Cputime,
    FinalScore,
    FinalStatusList,
    Genmove,
    GoguiAnalyzeCommands,
    KataAnalyze,
    Known,
    Komi,
    ListCommands,
    Loadsgf,
    LzAnalyze,
    Name,
    Play,
    Printsgf,
    ProtocolVersion,
    Quit,
    RectangularBoardsize,
    RegGenmove,
    Showboard,
    SmallgoBestMoves,
    SmallgoMoveLabels,
    SmallgoMoveValues,
    SmallgoOwnership,
    SmallgoPieces,
    SmallgoProblem,
    SmallgoProblemClear,
    SmallgoProblemHere,
    SmallgoProblemKo,
    SmallgoProblemResults,
    SmallgoProblemStatus,
    SmallgoPv,
    SmallgoRules,
    SmallgoTableInfo,
    SmallgoTopology,
    SmallgoValue,
    TimeLeft,
    TimeSettings,
    Undo,
    Version,
}

impl Command {
    /// Every command, in the order `list_commands` gives them. A variant
    /// left out would never be made, which the compiler warns about.
    const ALL: &[Command] = &[
        Command::Boardsize,
        Command::ClearBoard,
        Command::Cputime,
        Command::FinalScore,
        Command::FinalStatusList,
        Command::Genmove,
        Command::GoguiAnalyzeCommands,
        Command::KataAnalyze,
        Command::Known,
        Command::Komi,
        Command::ListCommands,
        Command::Loadsgf,
        Command::LzAnalyze,
        Command::Name,
        Command::Play,
        Command::Printsgf,
        Command::ProtocolVersion,
        Command::Quit,
        Command::RectangularBoardsize,
        Command::RegGenmove,
        Command::Showboard,
        Command::SmallgoBestMoves,
        Command::SmallgoMoveLabels,
        Command::SmallgoMoveValues,
        Command::SmallgoOwnership,
        Command::SmallgoPieces,
        Command::SmallgoProblem,
        Command::SmallgoProblemClear,
        Command::SmallgoProblemHere,
        Command::SmallgoProblemKo,
        Command::SmallgoProblemResults,
        Command::SmallgoProblemStatus,
        Command::SmallgoPv,
        Command::SmallgoRules,
        Command::SmallgoTableInfo,
        Command::SmallgoTopology,
        Command::SmallgoValue,
        Command::TimeLeft,
        Command::TimeSettings,
        Command::Undo,
        Command::Version,
    ];

    /// The command's GTP name.
    const fn name(self) -> &'static str {
        match self {
            Command::Boardsize => "boardsize",
            Command::ClearBoard => "clear_board",
            Command::Cputime => "cputime",
            Command::FinalScore => "final_score",
            Command::FinalStatusList => "final_status_list",
            Command::Genmove => "genmove",
            Command::GoguiAnalyzeCommands => "gogui-analyze_commands",
            Command::KataAnalyze => "kata-analyze",
            Command::Known => "known_command",
            Command::Komi => "komi",
            Command::ListCommands => "list_commands",
            Command::Loadsgf => "loadsgf",
            Command::LzAnalyze => "lz-analyze",
            Command::Name => "name",
            Command::Play => "play",
            Command::Printsgf => "printsgf",
            Command::ProtocolVersion => "protocol_version",
            Command::Quit => "quit",
            Command::RectangularBoardsize => "rectangular_boardsize",
            Command::RegGenmove => "reg_genmove",
            Command::Showboard => "showboard",
            Command::SmallgoBestMoves => "smallgo-best-moves",
            Command::SmallgoMoveLabels => "smallgo-move-labels",
            Command::SmallgoMoveValues => "smallgo-move-values",
            Command::SmallgoOwnership => "smallgo-ownership",
            Command::SmallgoPieces => "smallgo-pieces",
            Command::SmallgoProblem => "smallgo-problem",
            Command::SmallgoProblemClear => "smallgo-problem-clear",
            Command::SmallgoProblemHere => "smallgo-problem-here",
            Command::SmallgoProblemKo => "smallgo-problem-ko",
            Command::SmallgoProblemResults => "smallgo-problem-results",
            Command::SmallgoProblemStatus => "smallgo-problem-status",
            Command::SmallgoPv => "smallgo-pv",
            Command::SmallgoRules => "smallgo-rules",
            Command::SmallgoTableInfo => "smallgo-table-info",
            Command::SmallgoTopology => "smallgo-topology",
            Command::SmallgoValue => "smallgo-value",
            Command::TimeLeft => "time_left",
            Command::TimeSettings => "time_settings",
            Command::Undo => "undo",
            Command::Version => "version",
        }
    }

    /// The command named `name`, if the engine knows it.
    fn parse(name: &str) -> Option<Command> {
        Command::ALL
            .iter()
            .copied()
            .find(|command| command.name() == name)
    }
}

/// Every command the engine knows, as `list_commands` gives them.
pub const COMMANDS: &[&str] = &{
    let mut names = [""; Command::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = Command::ALL[i].name();
        i += 1;
    }
    names
};

/// What the engine answers.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    Success(String),
    Failure(String),
    /// `quit`: answer, then stop.
    Quit,
    /// `kata-analyze` or `lz-analyze`: a stream of analysis lines until any
    /// input arrives.
    Analyze(AnalyzeRequest),
}

fn success(text: impl Into<String>) -> Reply {
    Reply::Success(text.into())
}

fn failure(text: impl Into<String>) -> Reply {
    Reply::Failure(text.into())
}

/// Answers the text, or fails with the message.
fn reply(result: Result<String, String>) -> Reply {
    match result {
        Ok(text) => success(text),
        Err(message) => failure(message),
    }
}

const SYNTAX_ERROR: &str = "syntax error";
/// The reply of a problem's command with no problem set.
const NO_PROBLEM: &str = "no problem is set: smallgo-problem FILE, loadsgf a problem file, or \
     smallgo-problem-here on a setup board";
/// The reply of a command that needs values on the setup board.
const ON_SETUP_BOARD: &str = "no problem is set: this board has no table; \
     smallgo-problem-here [COLOR] [basic|attacker|defender] makes a problem of its stones";
/// The reply of a whole-board command in a problem.
const IN_PROBLEM: &str =
    "not in a problem: smallgo-problem-status and smallgo-problem-results, or smallgo-problem-clear";
/// GNU Go's answer to a vertex that is malformed or off the board.
const INVALID_COORDINATE: &str = "invalid coordinate";

/// The engine's settings from the command line.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Answer `resign` in lost positions (never, otherwise).
    pub resign: bool,
    /// `genmove` picks at random, from this seed, among the moves that
    /// keep the best result (`perfect::random_candidates`); without it,
    /// the first in the engine's order.
    pub random_seed: Option<u64>,
}

/// A GTP engine over a library of values.
pub struct Engine {
    library: Tablebase,
    settings: Settings,
    game: Game,
    /// Values for the game's board, opened on first use.
    oracle: Option<BoardValues>,
    /// Exactly as given; values are read at `komi.proxy()`.
    komi: Komi,
    /// The topology of the board the next `boardsize`,
    /// `rectangular_boardsize` or `clear_board` makes.
    topology: Topology,
    /// The generator of `genmove`'s random choice, if one was asked for.
    random: Option<crate::common::random::SplitMix>,
    /// The life-and-death problem being played, if one is set: the game
    /// commands play it instead of `game`.
    problem: Option<ProblemGame>,
    /// The setup board, when the board set has no table: the game
    /// commands set up its stones instead of playing `game`, and a problem
    /// made of them is played in `problem`, to which
    /// `smallgo-problem-clear` goes back.
    setup: Option<setup::SetupBoard>,
    /// The superko game played beside `game`, when the rules are a
    /// superko rule (`smallgo-rules`).
    superko: Option<superko::SuperkoPlay>,
    /// The win/draw/loss tables of a board, once opened (`wdl`).
    wdl: Option<(Board, Vec<std::sync::Arc<crate::table::wdl::WdlTable>>)>,
}

impl Engine {
    pub fn new(library: Tablebase, settings: Settings) -> Engine {
        let board =
            Board::new(DEFAULT_BOARD.0, DEFAULT_BOARD.1).expect("the default board is valid");
        Engine {
            library,
            game: Game::new(board),
            oracle: None,
            komi: Komi::default(),
            topology: Topology::Plain,
            random: settings
                .random_seed
                .map(crate::common::random::SplitMix::new),
            settings,
            problem: None,
            setup: None,
            superko: None,
            wdl: None,
        }
    }

    fn board(&self) -> Board {
        *self.game.board()
    }

    /// Opens the values of `board`, saying where they come from.
    fn open_oracle(&self, board: Board) -> Option<BoardValues> {
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
    fn oracle(&mut self) -> Result<BoardValues, String> {
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
        match Command::parse(name) {
            Some(command) => self.run(command, arguments),
            None => failure("unknown command"),
        }
    }

    /// Runs a command the engine knows; a syntax error if the arguments do
    /// not fit it.
    fn run(&mut self, command: Command, arguments: &[&str]) -> Reply {
        if let Some(reply) = self.run_under_superko(command, arguments) {
            return reply;
        }
        if let Some(reply) = self.run_in_problem(command, arguments) {
            return reply;
        }
        if let Some(reply) = self.run_on_setup_board(command, arguments) {
            return reply;
        }
        match command {
            Command::ProtocolVersion => success("2"),
            Command::Name => success("smallgo"),
            Command::Version => success(env!("CARGO_PKG_VERSION")),
            Command::Known => match arguments {
                [name] => success(if Command::parse(name).is_some() {
                    "true"
                } else {
                    "false"
                }),
                _ => failure(SYNTAX_ERROR),
            },
            Command::ListCommands => success(COMMANDS.join("\n")),
            Command::Quit => Reply::Quit,
            Command::Boardsize => match arguments {
                [size] => match whole_number(size) {
                    Some(size) => self.set_board(size as usize, size as usize, "unacceptable size"),
                    None => failure(SYNTAX_ERROR),
                },
                _ => failure(SYNTAX_ERROR),
            },
            Command::RectangularBoardsize => match arguments {
                [width, height] => match (whole_number(width), whole_number(height)) {
                    (Some(width), Some(height)) => {
                        self.set_board(height as usize, width as usize, "unacceptable size")
                    }
                    _ => failure(SYNTAX_ERROR),
                },
                _ => failure(SYNTAX_ERROR),
            },
            Command::ClearBoard if arguments.is_empty() => {
                let board = self.board();
                if board.topology() == self.topology {
                    self.game = Game::new(board);
                    self.problem = None;
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
            Command::SmallgoTopology => match arguments {
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
            Command::Komi => match arguments {
                [komi] => match Komi::parse(komi) {
                    Some(komi) => {
                        self.komi = komi;
                        success("")
                    }
                    None => failure(SYNTAX_ERROR),
                },
                _ => failure(SYNTAX_ERROR),
            },
            Command::Play => self.play(arguments),
            Command::Loadsgf => self.load_sgf(arguments),
            Command::Printsgf => self.print_sgf(arguments),
            Command::Genmove => self.generate(arguments, true),
            Command::RegGenmove => self.generate(arguments, false),
            Command::Undo if arguments.is_empty() => {
                if self.game.undo() {
                    success("")
                } else {
                    failure("cannot undo")
                }
            }
            Command::Showboard if arguments.is_empty() => {
                success(format!("\n{}", self.game.diagram()))
            }
            Command::FinalScore if arguments.is_empty() => success(self.final_score()),
            Command::FinalStatusList => self.final_status_list(arguments),
            Command::TimeSettings => match arguments {
                [main, byo_yomi, stones]
                    if finite_number(main).is_some()
                        && finite_number(byo_yomi).is_some()
                        && whole_number(stones).is_some() =>
                {
                    success("")
                }
                _ => failure(SYNTAX_ERROR),
            },
            Command::TimeLeft => match arguments {
                [side, time, stones]
                    if Colour::parse(side).is_some()
                        && finite_number(time).is_some()
                        && whole_number(stones).is_some() =>
                {
                    success("")
                }
                _ => failure(SYNTAX_ERROR),
            },
            Command::Cputime if arguments.is_empty() => {
                success(format!("{:.3}", crate::common::host::cpu_seconds()))
            }
            Command::SmallgoValue if arguments.is_empty() => reply(self.value_text()),
            Command::SmallgoMoveValues => self.analyze_moves(arguments, Engine::move_values_gfx),
            Command::SmallgoMoveLabels => self.analyze_moves(arguments, Engine::move_labels),
            Command::SmallgoBestMoves => self.analyze_moves(arguments, Engine::best_moves),
            Command::SmallgoPv => self.analyze_moves(arguments, Engine::principal_variation_text),
            Command::SmallgoOwnership => self.analyze_moves(arguments, Engine::ownership_gfx),
            Command::SmallgoPieces => self.pieces(arguments),
            Command::GoguiAnalyzeCommands if arguments.is_empty() => {
                success(GOGUI_ANALYZE_COMMANDS)
            }
            Command::KataAnalyze => self.analyze_request(arguments, AnalyzeFormat::Kata),
            Command::LzAnalyze => self.analyze_request(arguments, AnalyzeFormat::Lz),
            Command::SmallgoProblem => self.load_problem(arguments),
            Command::SmallgoRules => self.set_rules(arguments),
            Command::SmallgoTableInfo => self.table_info(arguments),
            Command::SmallgoProblemHere => failure(
                "no setup board: boardsize 7 to 25 (a size without a table), then play its stones",
            ),
            Command::SmallgoProblemClear if arguments.is_empty() => {
                self.problem = None;
                success("")
            }
            Command::SmallgoProblemKo
            | Command::SmallgoProblemResults
            | Command::SmallgoProblemStatus => failure(NO_PROBLEM),
            // The commands above that take no arguments, given some.
            Command::ClearBoard
            | Command::Undo
            | Command::Showboard
            | Command::FinalScore
            | Command::Cputime
            | Command::SmallgoValue
            | Command::SmallgoProblemClear
            | Command::GoguiAnalyzeCommands => failure(SYNTAX_ERROR),
        }
    }

    /// Runs a command on the problem, if one is set and the command plays
    /// or reads it; `None` for the commands that act as without one.
    fn run_in_problem(&mut self, command: Command, arguments: &[&str]) -> Option<Reply> {
        let format = match command {
            Command::KataAnalyze => Some(AnalyzeFormat::Kata),
            Command::LzAnalyze => Some(AnalyzeFormat::Lz),
            _ => None,
        };
        if let Some(format) = format {
            return self
                .problem
                .is_some()
                .then(|| self.analyze_request(arguments, format));
        }
        let game = self.problem.as_mut()?;
        Some(match command {
            Command::Play => problem::play(game, arguments),
            Command::Genmove => problem::generate(game, arguments, true),
            Command::RegGenmove => problem::generate(game, arguments, false),
            Command::Undo if arguments.is_empty() => {
                if game.undo() {
                    success("")
                } else {
                    failure("cannot undo")
                }
            }
            Command::Showboard if arguments.is_empty() => success(format!("\n{}", game.diagram())),
            Command::FinalStatusList => problem::final_status_list(game, arguments),
            Command::SmallgoProblemStatus if arguments.is_empty() => problem::status(game),
            Command::SmallgoProblemResults if arguments.is_empty() => problem::results_gfx(game),
            Command::SmallgoProblemKo => problem::ko(game, arguments),
            Command::Printsgf => problem::print_sgf(game, arguments),
            Command::SmallgoProblemHere => {
                failure("a problem is being played: smallgo-problem-clear first")
            }
            Command::FinalScore
            | Command::SmallgoValue
            | Command::SmallgoMoveValues
            | Command::SmallgoMoveLabels
            | Command::SmallgoBestMoves
            | Command::SmallgoOwnership
            | Command::SmallgoPv => failure(IN_PROBLEM),
            Command::SmallgoProblemStatus | Command::SmallgoProblemResults => failure(SYNTAX_ERROR),
            _ => return None,
        })
    }

    /// Changes the board to `rows` x `columns` of the topology setting and
    /// clears it, if its values can be had; otherwise answers `refusal` and
    /// leaves the game as it was.
    /// A plain board of a size that `setup::fits` and that has no values
    /// becomes a setup board instead.
    fn set_board(&mut self, rows: usize, columns: usize, refusal: &str) -> Reply {
        let setup_board = self.topology == Topology::Plain && setup::fits(rows, columns);
        let board = match Board::with_topology(rows, columns, self.topology) {
            Ok(board) => board,
            Err(_) if setup_board => return self.set_setup_board(rows, columns),
            Err(error) => {
                log::warn!("{error}");
                return failure(refusal);
            }
        };
        if board != self.board() || self.oracle.is_none() {
            let Some(oracle) = self.open_oracle(board) else {
                if self.has_wdl_table(board) {
                    log::info!("{board}: no full values, only win/draw/loss tables");
                    self.oracle = None;
                    self.game = Game::new(board);
                    self.problem = None;
                    self.setup = None;
                    return success("");
                }
                if setup_board {
                    return self.set_setup_board(rows, columns);
                }
                self.log_missing_table(board);
                return failure(refusal);
            };
            self.oracle = Some(oracle);
        }
        self.game = Game::new(board);
        self.problem = None;
        self.setup = None;
        success("")
    }

    /// Sets an empty setup board of `rows` x `columns`.
    fn set_setup_board(&mut self, rows: usize, columns: usize) -> Reply {
        log::info!(
            "board {rows}x{columns} has no table: a setup board; play its stones, then \
             smallgo-problem-here"
        );
        self.setup = Some(setup::SetupBoard::new(rows, columns));
        self.problem = None;
        success("")
    }

    /// Runs a command on the setup board, if there is one and no problem
    /// is played on it: `play`, `undo`, `showboard` and `clear_board` act
    /// on its stones, `smallgo-problem-here` makes a problem of them, and
    /// the commands that need values are refused; `None` for the commands
    /// that act as without it.
    fn run_on_setup_board(&mut self, command: Command, arguments: &[&str]) -> Option<Reply> {
        let board = self.setup.as_mut()?;
        Some(match command {
            Command::Play => match arguments {
                [side, vertex] => match Colour::parse(side) {
                    Some(side) => match board.play(side, vertex) {
                        Ok(()) => success(""),
                        Err(None) => failure(INVALID_COORDINATE),
                        Err(Some(message)) => failure(message),
                    },
                    None => failure(SYNTAX_ERROR),
                },
                _ => failure(SYNTAX_ERROR),
            },
            Command::Genmove | Command::RegGenmove => match arguments {
                [side] if Colour::parse(side).is_some() => failure(ON_SETUP_BOARD),
                _ => failure(SYNTAX_ERROR),
            },
            Command::Undo if arguments.is_empty() => {
                if board.undo() {
                    success("")
                } else {
                    failure("cannot undo")
                }
            }
            Command::Showboard if arguments.is_empty() => success(format!("\n{}", board.diagram())),
            Command::ClearBoard if arguments.is_empty() => {
                *board = board.cleared();
                self.problem = None;
                success("")
            }
            Command::SmallgoProblemHere => self.problem_here(arguments),
            Command::FinalScore
            | Command::FinalStatusList
            | Command::Printsgf
            | Command::KataAnalyze
            | Command::LzAnalyze
            | Command::SmallgoOwnership
            | Command::SmallgoValue
            | Command::SmallgoMoveValues
            | Command::SmallgoMoveLabels
            | Command::SmallgoBestMoves
            | Command::SmallgoPv => failure(ON_SETUP_BOARD),
            _ => return None,
        })
    }

    /// `smallgo-problem-here [COLOR] [basic|attacker|defender]`: the
    /// problem of the setup board's stones, its region and targets
    /// inferred as for a problem file without marks (`problem::input`),
    /// COLOR to play (the colour after the last `play` if none), played
    /// under the ko assumption given (basic if none). Answers the colour
    /// to play.
    fn problem_here(&mut self, arguments: &[&str]) -> Reply {
        let Some(board) = &self.setup else {
            return failure(SYNTAX_ERROR);
        };
        let mut colour = None;
        let mut ko = None;
        for &word in arguments {
            if let (Some(given), None) = (Colour::parse(word), colour) {
                colour = Some(given);
            } else if let (Some(given), None) = (crate::game::problem::parse_ko(word), ko) {
                ko = Some(given);
            } else {
                return failure(format!(
                    "'{word}' is neither a colour nor a ko assumption: \
                     smallgo-problem-here [COLOR] [basic|attacker|defender]"
                ));
            }
        }
        let to_move = colour.unwrap_or(board.next_colour());
        let options = crate::problem::input::InputOptions::default();
        match crate::problem::input::locate(board.setup(to_move), &options) {
            Ok(region) => {
                match ProblemGame::new(region, ko.unwrap_or(crate::problem::KoAssumption::Basic)) {
                    Ok(game) => {
                        self.problem = Some(game);
                        success(if to_move.is_black() { "black" } else { "white" })
                    }
                    Err(error) => failure(error),
                }
            }
            Err(error) => failure(format!("no problem here: {error}")),
        }
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
        let bytes = match crate::common::files::read_bounded(Path::new(file), sgf::MAX_FILE_BYTES) {
            Ok(bytes) => bytes,
            Err(error) => return failure(format!("cannot open '{file}': {error}")),
        };
        let text = String::from_utf8_lossy(&bytes);
        // A problem file, marked as one (`problem::input`'s `SQ`, `MA`, `TR`).
        if problem::is_marked(&text) {
            if until.is_some() {
                return failure(format!(
                    "cannot load '{file}': a problem file loads at its start, without a move \
                     number or vertex"
                ));
            }
            return match problem::from_text(&text, crate::problem::KoAssumption::Basic) {
                Ok(game) => self.set_problem(game),
                Err(error) => failure(format!("cannot load '{file}': {error}")),
            };
        }
        let record = match sgf::main_line(&text).and_then(|line| sgf::record(&line)) {
            Ok(record) => record,
            // A board too large for a game may hold a problem without marks.
            Err(error) => {
                let hint = if problem::from_text(&text, crate::problem::KoAssumption::Basic).is_ok()
                {
                    format!("; it reads as a problem: smallgo-problem {file}")
                } else {
                    String::new()
                };
                return failure(format!("cannot load '{file}': {error}{hint}"));
            }
        };
        let komi = match record.komi.as_deref().map(|text| (text, Komi::parse(text))) {
            None => None,
            Some((_, Some(komi))) => Some(komi),
            Some((text, None)) => {
                return failure(format!(
                    "cannot load '{file}': KM {} is not a komi",
                    sgf::quoted(text)
                ))
            }
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
        if let Some(komi) = komi {
            self.komi = komi;
        }
        self.topology = board.topology();
        let to_play = to_play.unwrap_or(game.to_move());
        self.game = game;
        self.problem = None;
        self.setup = None;
        success(if to_play.is_black() { "black" } else { "white" })
    }

    /// `printsgf [FILE]`: the game so far as SGF, written to FILE (as
    /// `files::write_output` writes a user's file: a regular file whole or
    /// not at all, `/dev/null` in place), or answered when no file is
    /// named.
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
            &self.komi.text(),
            start.black,
            start.white,
            start.to_move,
            &moves,
            &result,
        );
        match arguments {
            [] => success(text.trim_end()),
            [file] => match crate::common::files::write_output(Path::new(file), text.as_bytes()) {
                Ok(()) => success(""),
                Err(error) => failure(format!("cannot write '{file}': {error}")),
            },
            _ => failure(SYNTAX_ERROR),
        }
    }

    /// `smallgo-problem FILE [basic|attacker|defender]`: sets the problem
    /// of FILE, played under the ko assumption given (basic if none).
    fn load_problem(&mut self, arguments: &[&str]) -> Reply {
        let (file, ko) = match arguments {
            [file] => (*file, crate::problem::KoAssumption::Basic),
            [file, word] => match crate::game::problem::parse_ko(word) {
                Some(ko) => (*file, ko),
                None => {
                    return failure(format!(
                        "unknown ko assumption '{word}': basic, attacker or defender"
                    ))
                }
            },
            [] => return failure("missing filename"),
            _ => return failure(SYNTAX_ERROR),
        };
        match problem::read(Path::new(file), ko) {
            Ok(game) => self.set_problem(game),
            Err(message) => failure(message),
        }
    }

    /// Plays `game` from now on; answers the colour to play.
    fn set_problem(&mut self, game: ProblemGame) -> Reply {
        let to_move = game.to_move().unwrap_or(game.problem().to_move());
        self.problem = Some(game);
        self.setup = None;
        success(if to_move.is_black() { "black" } else { "white" })
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
            Topology::Shape => "a board of any shape".to_string(),
        };
        log::warn!(
            "no table for board {board} ({} wide, {} high, {topology}); tables (each plain one \
             also serves its turned board, circular boards of 1 or 2 columns play from their \
             plain boards): {}. {}",
            board.columns(),
            board.rows(),
            boards.join(" "),
            build_advice(board)
        );
    }

    fn play(&mut self, arguments: &[&str]) -> Reply {
        let [side, vertex] = arguments else {
            return failure(SYNTAX_ERROR);
        };
        let Some(side) = Colour::parse(side) else {
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
        let Some(side) = Colour::parse(side) else {
            return failure(SYNTAX_ERROR);
        };
        let mv = if self.game.is_over() {
            Move::Pass
        } else if let Some(chosen) = self.wdl_move(side) {
            match chosen {
                Ok(best) => {
                    if self.settings.resign && best.result == crate::table::wdl::Wdl::Loss {
                        return success("resign");
                    }
                    best.mv
                }
                Err(message) => return failure(message),
            }
        } else {
            let oracle = match self.oracle() {
                Ok(oracle) => oracle,
                Err(message) => return failure(message),
            };
            let chosen = match (&mut self.random, play) {
                (Some(random), true) => perfect::rate(&oracle, self.komi.proxy(), &self.game, side)
                    .map(|ratings| {
                        let candidates = perfect::random_candidates(&ratings);
                        candidates[random.below(candidates.len() as u64) as usize]
                    }),
                _ => perfect::choose(&oracle, self.komi.proxy(), &self.game, side),
            };
            match chosen {
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
        self.komi.area_score_text(black_margin as i64)
    }
}

/// How to get a table of `board`: the build command when the plan's
/// estimate of its memory fits the memory this machine has available (or
/// that is unknown), otherwise why it cannot be built here, with the
/// figures.
fn build_advice(board: Board) -> String {
    if !crate::solver::plan::within_index_limit(&board) {
        return format!(
            "smallgo cannot build board {board}: it numbers boards of at most {} points",
            crate::index::MAX_INDEX_POINTS
        );
    }
    let needed = crate::solver::plan::estimate(&board).memory_bytes;
    match crate::common::host::available_memory() {
        Some(available) if needed > available as f64 => format!(
            "Board {board} cannot be built on this machine: its build needs about {} of memory, \
             and {} is available",
            crate::common::units::human_bytes(needed),
            crate::common::units::human_bytes(available as f64)
        ),
        _ => format!(
            "Build one with `smallgo --build {board} --tables DIR` (about {} of memory) and \
             start the engine with `--tables DIR`",
            crate::common::units::human_bytes(needed)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_name_reads_back_as_its_command() {
        assert_eq!(COMMANDS.len(), Command::ALL.len());
        for (&command, &name) in Command::ALL.iter().zip(COMMANDS) {
            assert_eq!(name, command.name());
            assert_eq!(Command::parse(name), Some(command));
        }
        assert_eq!(Command::parse("PLAY"), None);
        assert_eq!(Command::parse("play "), None);
    }
}
