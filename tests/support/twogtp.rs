//! One game between two GTP engines, refereed by a third, like a small
//! twogtp. The referee is told every move; it decides legality (a move it
//! refuses forfeits the game) and gives the final score. A plain board
//! (`go_board`) follows along to end the game at the first repetition and to
//! count the final position itself. Every game is bounded: at most
//! `move_limit` moves, each reply awaited at most `gtp_engine`'s
//! `REPLY_TIMEOUT`.

use std::fmt;

use super::go_board::{AfterMove, Color, GoBoard, Move, Shape};
use super::gtp_engine::{EngineCommand, GtpEngine};

/// The most moves (passes included) a game may last. Perfect play ends far
/// sooner; reaching it is a failure, not a result.
pub(crate) fn move_limit(shape: Shape) -> usize {
    4 * shape.points() + 20
}

/// Who plays and what the referee is.
pub(crate) struct GameSetup {
    pub(crate) shape: Shape,
    pub(crate) komi: f64,
    pub(crate) black: EngineCommand,
    pub(crate) white: EngineCommand,
    pub(crate) referee: EngineCommand,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Ending {
    TwoPasses,
    /// A full state repeated: a draw.
    Repetition,
    Resignation {
        by: Color,
    },
    /// The referee refused a move; the side that made it loses.
    Forfeit {
        by: Color,
        vertex: String,
        referee_reply: String,
    },
    MoveLimit,
}

/// A finished game, for checking and for printing.
pub(crate) struct GameRecord {
    pub(crate) title: String,
    pub(crate) komi: f64,
    /// Each move as its player's colour and the vertex as sent (`C3`,
    /// `pass`).
    pub(crate) moves: Vec<(Color, String)>,
    pub(crate) ending: Ending,
    /// The referee's `final_score` as a Black-positive number, asked when
    /// the game ended on the board (passes, repetition, move limit).
    pub(crate) referee_score: Option<f64>,
    /// The runner's own count: area margin minus komi after two passes, 0
    /// after a repetition.
    pub(crate) counted_score: Option<f64>,
    pub(crate) final_board: String,
}

impl GameRecord {
    /// The result for Black in points: the referee's score when the game
    /// ended by passes or repetition. A resignation or forfeit is worth more
    /// than any score to the winner, so it is +/- infinity. `None` when the
    /// move limit stopped the game.
    pub(crate) fn black_result(&self) -> Option<f64> {
        let loss_for = |loser: Color| match loser {
            Color::Black => f64::NEG_INFINITY,
            Color::White => f64::INFINITY,
        };
        match &self.ending {
            Ending::TwoPasses | Ending::Repetition => self.referee_score,
            Ending::Resignation { by } | Ending::Forfeit { by, .. } => Some(loss_for(*by)),
            Ending::MoveLimit => None,
        }
    }
}

impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "== {}", self.title)?;
        write!(f, "{}", move_list(&self.moves))?;
        let ending = match &self.ending {
            Ending::TwoPasses => "two passes".to_string(),
            Ending::Repetition => "repetition of a full state (draw)".to_string(),
            Ending::Resignation { by } => format!("{by} resigned"),
            Ending::Forfeit {
                by,
                vertex,
                referee_reply,
            } => format!("{by} forfeits: the referee answered `? {referee_reply}` to {vertex}"),
            Ending::MoveLimit => format!("move limit of {} moves reached", self.moves.len()),
        };
        let show = |score: Option<f64>| score.map_or("-".to_string(), score_text);
        writeln!(
            f,
            "   ended by {ending}; referee's final_score {}, runner's count {} (komi {})",
            show(self.referee_score),
            show(self.counted_score),
            self.komi
        )?;
        write!(f, "{}", self.final_board)
    }
}

/// Writes Black-positive points in `final_score` form: `B+9`, `W+5.5`, `0`.
/// The infinities of a resignation or forfeit are `B+R` and `W+R`.
pub(crate) fn score_text(points: f64) -> String {
    if points == f64::INFINITY {
        "B+R".to_string()
    } else if points == f64::NEG_INFINITY {
        "W+R".to_string()
    } else if points > 0.0 {
        format!("B+{points}")
    } else if points < 0.0 {
        format!("W+{}", -points)
    } else {
        "0".to_string()
    }
}

/// Reads a score in `final_score` form: `B+9`, `W+5.5`, `0` (also GNU Go's
/// `B+9.0`), as Black-positive points.
pub(crate) fn parse_score(text: &str) -> Option<f64> {
    let text = text.trim();
    if text == "0" {
        return Some(0.0);
    }
    let (sign, number) = if let Some(number) = text.strip_prefix("B+") {
        (1.0, number)
    } else if let Some(number) = text.strip_prefix("W+") {
        (-1.0, number)
    } else {
        return None;
    };
    let points: f64 = number.parse().ok()?;
    points.is_finite().then_some(sign * points)
}

/// A game set up on all three engines, ready to play.
pub(crate) struct Game {
    title: String,
    shape: Shape,
    komi: f64,
    black: GtpEngine,
    white: GtpEngine,
    referee: GtpEngine,
}

impl Game {
    /// Starts the three engines and gives each the board size, komi and an
    /// empty board.
    pub(crate) fn start(setup: &GameSetup) -> Result<Game, String> {
        let title = format!(
            "{} komi {}: {} (Black) vs {} (White), referee {}",
            setup.shape, setup.komi, setup.black.name, setup.white.name, setup.referee.name
        );
        let mut game = Game {
            title,
            shape: setup.shape,
            komi: setup.komi,
            black: start(&setup.black, "Black")?,
            white: start(&setup.white, "White")?,
            referee: start(&setup.referee, "referee")?,
        };
        let commands = [
            setup.shape.size_command(),
            format!("komi {}", setup.komi),
            "clear_board".to_string(),
        ];
        for engine in [&mut game.black, &mut game.white, &mut game.referee] {
            for command in &commands {
                engine.expect_success(command)?;
            }
        }
        Ok(game)
    }

    /// The referee's `smallgo-value`: the perfect-play result of the current
    /// position at this komi, Black-positive.
    pub(crate) fn referee_value(&mut self) -> Result<f64, String> {
        let text = self.referee.expect_success("smallgo-value")?;
        parse_score(&text).ok_or_else(|| {
            format!(
                "{} answered `smallgo-value` with `{text}`, not a score",
                self.referee.label()
            )
        })
    }

    /// Plays the game to its end. An error means the match itself broke (an
    /// engine died, hung, or the engines disagree on what the referee
    /// accepted), and gives the moves played so far; how the game ended,
    /// forfeits included, is in the record.
    pub(crate) fn play(mut self) -> Result<GameRecord, String> {
        let mut board = GoBoard::new(self.shape);
        let mut moves: Vec<(Color, String)> = Vec::new();
        let ending = self
            .play_moves(&mut board, &mut moves)
            .map_err(|error| format!("{error}\nmoves so far:\n{}{board}", move_list(&moves)))?;
        let counted_score = match ending {
            Ending::TwoPasses => Some(board.area_margin() as f64 - self.komi),
            Ending::Repetition => Some(0.0),
            _ => None,
        };
        let referee_score = match ending {
            Ending::TwoPasses | Ending::Repetition | Ending::MoveLimit => {
                let text = self.referee.expect_success("final_score")?;
                Some(parse_score(&text).ok_or_else(|| {
                    format!(
                        "{} answered `final_score` with `{text}`, not a score",
                        self.referee.label()
                    )
                })?)
            }
            Ending::Resignation { .. } | Ending::Forfeit { .. } => None,
        };
        Ok(GameRecord {
            title: self.title,
            komi: self.komi,
            moves,
            ending,
            referee_score,
            counted_score,
            final_board: board.to_string(),
        })
    }

    /// The move loop: asks the side to move for a move, has the referee
    /// judge it, then tells the plain board and the opponent, until the
    /// game ends or the move limit is reached.
    fn play_moves(
        &mut self,
        board: &mut GoBoard,
        moves: &mut Vec<(Color, String)>,
    ) -> Result<Ending, String> {
        let mut color = Color::Black;
        for _ in 0..move_limit(self.shape) {
            let (player, opponent) = match color {
                Color::Black => (&mut self.black, &mut self.white),
                Color::White => (&mut self.white, &mut self.black),
            };
            let answer = player.expect_success(&format!("genmove {}", color.gtp()))?;
            if answer.eq_ignore_ascii_case("resign") {
                moves.push((color, "resign".to_string()));
                return Ok(Ending::Resignation { by: color });
            }
            let mv = self.shape.parse_move(&answer).ok_or_else(|| {
                format!(
                    "{} answered `genmove {}` with `{answer}`, not a move on {}",
                    player.label(),
                    color.gtp(),
                    self.shape
                )
            })?;
            let vertex = match mv {
                Move::Pass => "pass".to_string(),
                Move::Place(_) => answer.to_ascii_uppercase(),
            };
            let play = format!("play {} {vertex}", color.gtp());
            moves.push((color, vertex.clone()));
            let verdict = self.referee.reply_to(&play)?;
            if !verdict.success() {
                return Ok(Ending::Forfeit {
                    by: color,
                    vertex,
                    referee_reply: verdict.text(),
                });
            }
            let after = board.play(color, mv).map_err(|why| {
                format!("the referee accepted `{play}`, which the runner's board refuses: {why}")
            })?;
            opponent.expect_success(&play).map_err(|why| {
                format!("the referee accepted `{play}` but the opponent refused it: {why}")
            })?;
            match after {
                AfterMove::Continues => color = color.opponent(),
                AfterMove::TwoPasses => return Ok(Ending::TwoPasses),
                AfterMove::Repetition => return Ok(Ending::Repetition),
            }
        }
        Ok(Ending::MoveLimit)
    }
}

/// Starts `command` in the role `role`: `smallgo (White)` in messages.
fn start(command: &EngineCommand, role: &str) -> Result<GtpEngine, String> {
    GtpEngine::start(command, &format!("{} ({role})", command.name), None)
}

/// Moves ten to a line, numbered: `  1. B:B2 W:pass ...`.
fn move_list(moves: &[(Color, String)]) -> String {
    let mut text = String::new();
    for (number, chunk) in moves.chunks(10).enumerate() {
        let line: Vec<String> = chunk
            .iter()
            .map(|(color, vertex)| format!("{}:{vertex}", &color.to_string()[..1]))
            .collect();
        text.push_str(&format!("   {:>3}. {}\n", number * 10 + 1, line.join(" ")));
    }
    text
}
