//! Play under superko (`crate::superko`, [superko.md](../../../docs/superko.md)):
//! `smallgo-rules loop-draw|positional-superko|situational-superko
//! [SECONDS]` switches the engine's rules, and under either superko rule
//! the game commands play the superko game beside the engine's own game,
//! which keeps the stones and moves for `showboard`, `printsgf` and
//! `final_score`:
//! - `play` refuses a placement that recreates a position seen before
//!   (under situational superko: with the same player to move), naming
//!   it, and leaves the game as it was; the turns alternate, and two
//!   passes end the game;
//! - `genmove` (and `reg_genmove`, `smallgo-value`) solve the state the
//!   game's real history has reached with the exact solver, within the
//!   time limit SECONDS (10 unless set): the move played is one with the
//!   best margin for the side to move, proven; when the search does not
//!   finish in time the command fails, says so, and plays nothing;
//! - the analysis commands, which read the loop-draw tables, are refused;
//!   `final_status_list` answers as Tromp-Taylor scoring counts, every
//!   stone alive.
//!
//! Superko plays plain boards of at most `superko::MAX_POINTS` points,
//! with or without a table. Switching to a superko rule replays the
//! game's moves under it, and is refused (nothing changed) when the game
//! began from setup stones or a move of it is not allowed under the rule;
//! switching back to loop-draw keeps the game, whose moves are legal
//! there too (a superko game never repeats a full state).

use std::time::{Duration, Instant};

use crate::game::Game;
use crate::rules::board::{Board, Topology};
use crate::rules::colour::Colour;
use crate::rules::moves::Move;
use crate::superko::solve::{with_deep_stack, Options, Solver};
use crate::superko::{self, Refusal, Superko};

use super::{failure, success, Command, Engine, Reply, INVALID_COORDINATE, SYNTAX_ERROR};
use crate::gtp::parse::{finite_number, move_text, whole_number, MoveText};

/// The time limit of a search when none is given.
pub(super) const DEFAULT_SECONDS: f64 = 10.0;
/// The longest time limit accepted: a day.
const MAX_SECONDS: f64 = 86_400.0;

/// The superko game being played and its solver.
pub(super) struct SuperkoPlay {
    rule: Superko,
    game: superko::Game,
    /// Kept from one search to the next (its table is sound for every
    /// history: the solver's module paragraph), taken out while a search
    /// runs on its own thread.
    solver: Option<Solver>,
    limit: Duration,
}

impl SuperkoPlay {
    /// The superko game of `game`'s moves under `rule`, or why not.
    fn replay(game: &Game, rule: Superko, limit: Duration) -> Result<SuperkoPlay, String> {
        let board = *game.board();
        let mut played = new_game(board, rule)?;
        let start = game.start();
        if !start.black.is_empty() || !start.white.is_empty() || !start.to_move.is_black() {
            return Err(format!(
                "the game began from setup stones or with White to play; {rule} plays games \
                 from the empty board, Black first: clear_board first"
            ));
        }
        for (number, (colour, mv)) in game.moves().enumerate() {
            let refusal = if colour.is_black() != played.node().black_to_move {
                Some("it is played out of turn".to_string())
            } else {
                played.play(mv).err().map(|refusal| refusal.to_string())
            };
            if let Some(refusal) = refusal {
                return Err(format!(
                    "move {} of the game ({} {}) is not allowed under {rule}: {refusal}; \
                     clear_board first",
                    number + 1,
                    colour_word(colour),
                    mv.name(&board)
                ));
            }
        }
        Ok(SuperkoPlay {
            rule,
            game: played,
            solver: None,
            limit,
        })
    }
}

/// A superko game of `board` under `rule`, or why none can be played.
fn new_game(board: Board, rule: Superko) -> Result<superko::Game, String> {
    superko::Game::new(board, rule).map_err(|_| {
        format!(
            "{rule} plays plain boards of at most {} points, not {board}",
            superko::MAX_POINTS
        )
    })
}

fn colour_word(colour: Colour) -> &'static str {
    if colour.is_black() {
        "black"
    } else {
        "white"
    }
}

/// The rules named `word`: `None` for loop-draw.
fn parse_rules(word: &str) -> Result<Option<Superko>, String> {
    match word.to_ascii_lowercase().as_str() {
        "loop-draw" => Ok(None),
        "positional-superko" => Ok(Some(Superko::Positional)),
        "situational-superko" => Ok(Some(Superko::Situational)),
        _ => Err(format!(
            "unknown rules '{word}': loop-draw, positional-superko or situational-superko"
        )),
    }
}

/// What a search gave: the best move and the mover's margin, or the
/// figures of a search that did not finish in time.
enum Searched {
    Solved { mv: Move, value: i32 },
    Over,
    OutOfTime,
}

impl Engine {
    /// `smallgo-rules [RULES [SECONDS]]`: without arguments, the rules in
    /// force; otherwise switches to RULES, with SECONDS as the time limit of
    /// each search under superko.
    pub(super) fn set_rules(&mut self, arguments: &[&str]) -> Reply {
        let (word, seconds) = match arguments {
            [] => {
                return success(match &self.superko {
                    Some(play) => play.rule.name(),
                    None => "loop-draw",
                })
            }
            [word] => (*word, None),
            [word, seconds] => (*word, Some(*seconds)),
            _ => return failure(SYNTAX_ERROR),
        };
        let rule = match parse_rules(word) {
            Ok(rule) => rule,
            Err(message) => return failure(message),
        };
        let Some(rule) = rule else {
            if seconds.is_some() {
                return failure("loop-draw takes no time limit: its values are read from tables");
            }
            self.superko = None;
            return success("");
        };
        let limit = match seconds {
            None => self
                .superko
                .as_ref()
                .map_or(Duration::from_secs_f64(DEFAULT_SECONDS), |play| play.limit),
            Some(text) => match finite_number(text) {
                Some(seconds) if seconds > 0.0 && seconds <= MAX_SECONDS => {
                    Duration::from_secs_f64(seconds)
                }
                _ => {
                    return failure(format!(
                        "'{text}' is not a time limit: a number of seconds above 0, at most \
                         {MAX_SECONDS}"
                    ))
                }
            },
        };
        if self.problem.is_some() {
            return failure("a problem is being played: smallgo-problem-clear first");
        }
        if self.setup.is_some() {
            return failure(format!(
                "this is a setup board, without a game; {rule} plays plain boards of at most {} \
                 points",
                superko::MAX_POINTS
            ));
        }
        match &mut self.superko {
            Some(play) if play.rule == rule => {
                play.limit = limit;
                success("")
            }
            _ => match SuperkoPlay::replay(&self.game, rule, limit) {
                Ok(play) => {
                    self.superko = Some(play);
                    success("")
                }
                Err(message) => failure(message),
            },
        }
    }

    /// Runs a command under superko, if the rules are a superko rule and
    /// the command plays or reads the game in its own way there; `None` for
    /// the commands that act as under loop-draw.
    pub(super) fn run_under_superko(
        &mut self,
        command: Command,
        arguments: &[&str],
    ) -> Option<Reply> {
        let rule = self.superko.as_ref()?.rule;
        Some(match command {
            Command::Play => self.superko_play(arguments),
            Command::Genmove => self.superko_generate(arguments, true),
            Command::RegGenmove => self.superko_generate(arguments, false),
            Command::Undo if arguments.is_empty() => {
                let play = self.superko.as_mut().expect("checked above");
                if play.game.undo() && self.game.undo() {
                    success("")
                } else {
                    failure("cannot undo")
                }
            }
            Command::Boardsize => match arguments {
                [size] => match whole_number(size) {
                    Some(size) => self.superko_board(size as usize, size as usize),
                    None => failure(SYNTAX_ERROR),
                },
                _ => failure(SYNTAX_ERROR),
            },
            Command::RectangularBoardsize => match arguments {
                [width, height] => match (whole_number(width), whole_number(height)) {
                    (Some(width), Some(height)) => {
                        self.superko_board(height as usize, width as usize)
                    }
                    _ => failure(SYNTAX_ERROR),
                },
                _ => failure(SYNTAX_ERROR),
            },
            Command::ClearBoard if arguments.is_empty() => {
                let board = self.board();
                self.superko_board(board.rows(), board.columns())
            }
            Command::Loadsgf => self.superko_load_sgf(arguments),
            Command::SmallgoValue if arguments.is_empty() => {
                match self.superko_search(self.game.to_move()) {
                    Ok(Searched::Solved { value, .. }) => {
                        let black = if self.game.to_move().is_black() {
                            value
                        } else {
                            -value
                        };
                        success(self.komi.area_score_text(i64::from(black)))
                    }
                    Ok(Searched::Over) => success(self.final_score()),
                    Ok(Searched::OutOfTime) => failure(self.out_of_time()),
                    Err(message) => failure(message),
                }
            }
            Command::FinalStatusList => match arguments {
                [status] => match status.to_ascii_lowercase().as_str() {
                    "alive" => success(self.every_stone()),
                    "dead" | "seki" => success(""),
                    _ => failure(SYNTAX_ERROR),
                },
                _ => failure(SYNTAX_ERROR),
            },
            Command::SmallgoMoveValues
            | Command::SmallgoMoveLabels
            | Command::SmallgoBestMoves
            | Command::SmallgoPv
            | Command::SmallgoOwnership
            | Command::KataAnalyze
            | Command::LzAnalyze => failure(format!(
                "{} reads the loop-draw tables, and the rules are {rule}: smallgo-rules \
                 loop-draw first",
                command.name()
            )),
            Command::SmallgoProblem | Command::SmallgoProblemHere => failure(format!(
                "problems are solved under loop-draw, and the rules are {rule}: smallgo-rules \
                 loop-draw first"
            )),
            _ => return None,
        })
    }

    /// `play COLOR VERTEX` under superko.
    fn superko_play(&mut self, arguments: &[&str]) -> Reply {
        let [side, vertex] = arguments else {
            return failure(SYNTAX_ERROR);
        };
        let Some(side) = Colour::parse(side) else {
            return failure(SYNTAX_ERROR);
        };
        let board = self.board();
        let mv = match move_text(&board, vertex) {
            None | Some(MoveText::OffBoard) => return failure(INVALID_COORDINATE),
            Some(MoveText::Move(mv)) => mv,
        };
        if let Some(refusal) = self.out_of_turn(side) {
            return failure(refusal);
        }
        let play = self.superko.as_mut().expect("under superko");
        match play.game.play(mv) {
            Ok(()) => {}
            Err(Refusal::Superko) => {
                return failure(format!(
                    "illegal move: {} would recreate a position seen before ({})",
                    mv.name(&board),
                    play.rule
                ))
            }
            Err(Refusal::Illegal) => return failure("illegal move"),
            Err(Refusal::Over) => return failure("illegal move: two passes have ended the game"),
        }
        if self.game.play(side, mv).is_err() {
            play.game.undo();
            return failure("illegal move");
        }
        success("")
    }

    /// Why `side` may not move now under superko, if it may not.
    fn out_of_turn(&self, side: Colour) -> Option<String> {
        let play = self.superko.as_ref().expect("under superko");
        if play.game.is_over() {
            return None;
        }
        let to_move = if play.game.node().black_to_move {
            Colour::Black
        } else {
            Colour::White
        };
        (side != to_move).then(|| {
            format!(
                "under {} the turns alternate: {} is to play",
                play.rule,
                colour_word(to_move)
            )
        })
    }

    /// `genmove COLOR` (or `reg_genmove`, which plays nothing) under
    /// superko: the exact best move within the time limit.
    fn superko_generate(&mut self, arguments: &[&str], play: bool) -> Reply {
        let [side] = arguments else {
            return failure(SYNTAX_ERROR);
        };
        let Some(side) = Colour::parse(side) else {
            return failure(SYNTAX_ERROR);
        };
        let (mv, value) = match self.superko_search(side) {
            Ok(Searched::Solved { mv, value }) => (mv, value),
            Ok(Searched::Over) => return success("pass"),
            Ok(Searched::OutOfTime) => return failure(self.out_of_time()),
            Err(message) => return failure(message),
        };
        if self.settings.resign {
            let black = if side.is_black() { value } else { -value };
            let black_result = f64::from(black) - self.komi.proxy();
            if (side.is_black() && black_result < 0.0) || (!side.is_black() && black_result > 0.0) {
                return success("resign");
            }
        }
        let board = self.board();
        if play {
            let superko = self.superko.as_mut().expect("under superko");
            if superko.game.play(mv).is_err() || self.game.play(side, mv).is_err() {
                return failure(format!("cannot play {}", mv.name(&board)));
            }
        }
        success(mv.name(&board))
    }

    /// Solves the superko game's current state for `side` (who must be to
    /// move) within the time limit, on a thread with a deep stack.
    fn superko_search(&mut self, side: Colour) -> Result<Searched, String> {
        if let Some(refusal) = self.out_of_turn(side) {
            return Err(refusal);
        }
        let superko = self.superko.as_mut().expect("under superko");
        if superko.game.is_over() {
            return Ok(Searched::Over);
        }
        let board = *superko.game.board();
        let rule = superko.rule;
        let limit = superko.limit;
        let mut solver = superko
            .solver
            .take()
            .unwrap_or_else(|| Solver::new(board, rule, Options::default()));
        let mut game = superko.game.clone();
        let started = Instant::now();
        let (solver, best) = with_deep_stack(move || {
            solver.set_deadline(Some(started + limit));
            let best = solver.best_move(&mut game);
            (solver, best)
        });
        let elapsed = started.elapsed().as_secs_f64();
        let stopped = solver.stopped();
        let states = solver.stats().nodes;
        superko.solver = Some(solver);
        match best {
            Some((mv, value)) if !stopped => {
                log::info!(
                    "{rule}: {} {} is best, {} margin {value:+} with perfect play, exact \
                     (solved in {elapsed:.2} s of a {:.0} s limit; {states} states searched \
                     since the board was set)",
                    colour_word(side),
                    mv.name(&board),
                    colour_word(side),
                    limit.as_secs_f64()
                );
                Ok(Searched::Solved { mv, value })
            }
            _ => Ok(Searched::OutOfTime),
        }
    }

    /// The refusal of a search that ran out of time.
    fn out_of_time(&self) -> String {
        let superko = self.superko.as_ref().expect("under superko");
        format!(
            "not solved within the time limit of {} s: the {} search of {} did not finish, and \
             its moves are exact only when it does; smallgo-rules {} SECONDS sets a longer limit \
             (docs/superko.md has the times of each board)",
            superko.limit.as_secs_f64(),
            superko.rule,
            superko.game.board(),
            superko.rule
        )
    }

    /// A new game under superko on `rows` x `columns`, of the plain
    /// topology, with or without a table; the game is unchanged when the
    /// board cannot be played.
    fn superko_board(&mut self, rows: usize, columns: usize) -> Reply {
        let superko = self.superko.as_ref().expect("under superko");
        let (rule, limit) = (superko.rule, superko.limit);
        if self.topology != Topology::Plain {
            return failure(format!(
                "{rule} plays plain boards: smallgo-topology plain first"
            ));
        }
        let Ok(board) = Board::new(rows, columns) else {
            return failure("unacceptable size");
        };
        let game = match new_game(board, rule) {
            Ok(game) => game,
            Err(message) => {
                log::warn!("{message}");
                return failure("unacceptable size");
            }
        };
        if board != self.board() {
            // Loop-draw values are opened when loop-draw asks for them.
            self.oracle = None;
        }
        let solver = self
            .superko
            .as_mut()
            .and_then(|play| play.solver.take())
            .filter(|_| board == self.board());
        self.game = Game::new(board);
        self.problem = None;
        self.setup = None;
        self.superko = Some(SuperkoPlay {
            rule,
            game,
            solver,
            limit,
        });
        success("")
    }

    /// `loadsgf` under superko: the game is loaded as under loop-draw (a
    /// board with a table), then replayed under the superko rule; anything
    /// refused leaves every setting and the game as they were.
    fn superko_load_sgf(&mut self, arguments: &[&str]) -> Reply {
        let superko = self.superko.take().expect("under superko");
        let rule = superko.rule;
        let kept = (
            self.game.clone(),
            self.oracle.clone(),
            self.komi.clone(),
            self.topology,
        );
        let reply = self.load_sgf(arguments);
        let restore = |engine: &mut Engine, superko: SuperkoPlay| {
            (engine.game, engine.oracle, engine.komi, engine.topology) = kept;
            engine.problem = None;
            engine.superko = Some(superko);
        };
        if !matches!(reply, Reply::Success(_)) {
            self.superko = Some(superko);
            return reply;
        }
        if self.problem.is_some() {
            restore(self, superko);
            return failure(format!(
                "problems are solved under loop-draw, and the rules are {rule}: smallgo-rules \
                 loop-draw first"
            ));
        }
        match SuperkoPlay::replay(&self.game, rule, superko.limit) {
            Ok(play) => {
                self.superko = Some(play);
                reply
            }
            Err(message) => {
                restore(self, superko);
                failure(format!("cannot load under superko: {message}"))
            }
        }
    }

    /// Every stone on the board, as `final_status_list alive` lists them.
    fn every_stone(&self) -> String {
        let board = self.board();
        let current = self.game.current();
        (0..board.points())
            .map(crate::rules::board::Point::new)
            .filter(|&point| current.black.contains(point) || current.white.contains(point))
            .map(|point| Move::Place(point).name(&board))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_read_back_in_any_case() {
        assert_eq!(parse_rules("loop-draw"), Ok(None));
        assert_eq!(
            parse_rules("Positional-Superko"),
            Ok(Some(Superko::Positional))
        );
        assert_eq!(
            parse_rules("situational-superko"),
            Ok(Some(Superko::Situational))
        );
        assert!(parse_rules("chinese").unwrap_err().contains("loop-draw"));
    }
}
