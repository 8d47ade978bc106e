//! The analysis commands: perfect-play values of the moves for GoGui
//! (`smallgo-move-values`, `smallgo-move-labels`, `smallgo-best-moves`),
//! the principal variation (`smallgo-pv`), the perfect result
//! (`smallgo-value`), the exact ownership (`smallgo-ownership`, and
//! `final_status_list` read from it: `crate::game::ownership`), KataGo's
//! `kata-analyze` with scores and the ownership, Leela Zero's
//! `lz-analyze`, and the menu GoGui reads from `gogui-analyze_commands`.
//! They read the game and never change it.

use std::time::Duration;

use crate::rules::colour::Colour;
use crate::rules::moves::Move;
use crate::rules::value::Outcome;
use crate::table::values::rating::{preference_order, Rating};
use crate::table::values::Values;

use crate::game::ownership::{self, Ownership};
use crate::game::perfect;
use crate::game::Game;
use crate::gtp::parse::whole_number;

use super::{failure, reply, success, Engine, Reply, SYNTAX_ERROR};

/// The analysis commands GoGui offers in its menu.
/// They name no colour, so they follow the side to move when GoGui runs
/// them automatically after each move. Three set and show the
/// topology of the next game (GoGui's New Game sends `boardsize` and
/// `clear_board`), so that circular boards need no GTP shell; four show
/// and switch the rules (`smallgo-rules`: loop-draw or a superko rule);
/// the last three read and leave a life-and-death problem.
pub(super) const GOGUI_ANALYZE_COMMANDS: &str = "gfx/Perfect move values/smallgo-move-values\n\
    pspairs/Perfect move values (labels)/smallgo-move-labels\n\
    plist/Perfect best moves/smallgo-best-moves\n\
    var/Perfect principal variation/smallgo-pv\n\
    gfx/Perfect ownership/smallgo-ownership\n\
    gfx/Pieces: values and best local moves (Bouzy)/smallgo-pieces\n\
    string/Perfect result/smallgo-value\n\
    none/Circular board from the next game/smallgo-topology circular\n\
    none/Plain board from the next game/smallgo-topology plain\n\
    string/Topology of the next game/smallgo-topology\n\
    string/Rules in force/smallgo-rules\n\
    none/Rules: loop-draw (the tables)/smallgo-rules loop-draw\n\
    none/Rules: positional superko/smallgo-rules positional-superko\n\
    none/Rules: situational superko/smallgo-rules situational-superko\n\
    gfx/Problem: result of each move/smallgo-problem-results\n\
    string/Problem: status/smallgo-problem-status\n\
    none/Problem: back to normal play/smallgo-problem-clear\n\
    none/Problem: start here/smallgo-problem-here\n\
    none/Problem: start here, black to play/smallgo-problem-here black\n\
    none/Problem: start here, white to play/smallgo-problem-here white";

/// Which analysis command's lines to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalyzeFormat {
    /// KataGo's `kata-analyze`: winrates in 0..1, scores, ownership.
    Kata,
    /// Leela Zero's `lz-analyze`: winrates and priors in 0..10000.
    Lz,
}

impl AnalyzeFormat {
    fn command(self) -> &'static str {
        match self {
            AnalyzeFormat::Kata => "kata-analyze",
            AnalyzeFormat::Lz => "lz-analyze",
        }
    }
}

/// What `kata-analyze` or `lz-analyze` asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalyzeRequest {
    /// The command's format.
    pub format: AnalyzeFormat,
    /// The side whose moves are analysed.
    pub colour: Colour,
    /// How often to repeat the line; `None` for once.
    pub interval: Option<Duration>,
    /// At most this many moves (`maxmoves`).
    pub max_moves: Option<usize>,
    /// Add the final ownership of every point (`ownership true`).
    pub ownership: bool,
}

/// Formats a float so that it always has a decimal point: `1.0`, `0.5`.
fn float_text(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.1}")
    } else {
        format!("{value}")
    }
}

/// A number as KataGo writes its floats, always with a decimal point:
/// `9.0`, `-0.0000001`.
fn decimal_point(number: String) -> String {
    if number.contains('.') {
        number
    } else {
        number + ".0"
    }
}

impl Engine {
    /// A move's label from `side`'s view, its margin exact: `+9`, `=0`,
    /// `-0.0000001`.
    fn label(&self, rating: &Rating, side: Colour) -> String {
        self.komi.label(
            rating.outcome.black_margin(side.is_black()),
            side.is_black(),
        )
    }

    /// The perfect-play result of the game as it stands, as `final_score`
    /// writes it.
    pub(super) fn value_text(&mut self) -> Result<String, String> {
        if self.game.is_over() {
            return Ok(self.final_score());
        }
        let oracle = self.oracle()?;
        let side = self.game.to_move();
        let value = oracle
            .value_of(&self.game.state_for(side))
            .map_err(|e| e.to_string())?;
        Ok(self.komi.score_text(
            value
                .outcome(self.komi.proxy(), side.is_black())
                .black_margin(side.is_black()),
        ))
    }

    /// Runs `analysis` for the side named by the one optional argument
    /// (`smallgo-move-values [COLOR]` and its kind), the side to move when
    /// none is named.
    pub(super) fn analyze_moves(
        &mut self,
        arguments: &[&str],
        analysis: fn(&mut Engine, Colour) -> Result<String, String>,
    ) -> Reply {
        let side = match arguments {
            [] => self.game.to_move(),
            [side] => match Colour::parse(side) {
                Some(side) => side,
                None => return failure(SYNTAX_ERROR),
            },
            _ => return failure(SYNTAX_ERROR),
        };
        reply(analysis(self, side))
    }

    /// The rated moves of `side`, most preferred first.
    fn ordered_ratings(&mut self, side: Colour) -> Result<Vec<Rating>, String> {
        let oracle = self.oracle()?;
        let ratings = perfect::rate(&oracle, self.komi.proxy(), &self.game, side)?;
        Ok(preference_order(&ratings)
            .into_iter()
            .map(|i| ratings[i])
            .collect())
    }

    pub(super) fn move_values_gfx(&mut self, side: Colour) -> Result<String, String> {
        let board = self.board();
        let ratings = self.ordered_ratings(side)?;
        let mut labels = Vec::new();
        let mut wins = Vec::new();
        let mut draws = Vec::new();
        let mut losses = Vec::new();
        let mut pass = None;
        for rating in &ratings {
            match rating.mv {
                Move::Pass => pass = Some(self.label(rating, side)),
                Move::Place(point) => {
                    let name = board.point_name(point);
                    labels.push(format!("{name} {}", self.label(rating, side)));
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
                self.label(best, side),
                pass.unwrap_or_else(|| "-".to_string())
            ));
        }
        Ok(lines.join("\n"))
    }

    pub(super) fn move_labels(&mut self, side: Colour) -> Result<String, String> {
        let board = self.board();
        let mut ratings = self.ordered_ratings(side)?;
        ratings.sort_by_key(|r| r.mv);
        let pairs: Vec<String> = ratings
            .iter()
            .filter_map(|r| match r.mv {
                Move::Place(point) => Some(format!(
                    "{} {}",
                    board.point_name(point),
                    self.label(r, side)
                )),
                Move::Pass => None,
            })
            .collect();
        Ok(pairs.join(" "))
    }

    /// Every move that keeps the best result (plies aside), pass included
    /// when it does, in point order then pass.
    pub(super) fn best_moves(&mut self, side: Colour) -> Result<String, String> {
        let board = self.board();
        let oracle = self.oracle()?;
        let ratings = perfect::rate(&oracle, self.komi.proxy(), &self.game, side)?;
        Ok(crate::table::values::rating::keeping_best(&ratings)
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
        perfect::principal_variation(&oracle, self.komi.proxy(), &self.game, side, first)
    }

    pub(super) fn principal_variation_text(&mut self, side: Colour) -> Result<String, String> {
        if self.game.is_over() {
            return Ok(String::new());
        }
        let board = self.board();
        let oracle = self.oracle()?;
        let first = perfect::choose(&oracle, self.komi.proxy(), &self.game, side)?.mv;
        let (line, _) = self.principal_variation(side, first)?;
        Ok(line
            .iter()
            .map(|m| m.name(&board))
            .collect::<Vec<_>>()
            .join(" "))
    }

    /// Reads `kata-analyze [COLOR] [INTERVAL] [KEY VALUE]...` (KataGo's
    /// syntax), or `lz-analyze` with the same words (`format`). Understood
    /// keys: `interval`, `minmoves` (every legal move is listed anyway),
    /// `maxmoves`, and for `kata-analyze` `ownership`; others are refused.
    pub(super) fn analyze_request(&mut self, arguments: &[&str], format: AnalyzeFormat) -> Reply {
        let command = format.command();
        let mut rest = arguments;
        let mut request = AnalyzeRequest {
            format,
            colour: match &self.problem {
                Some(problem) => problem.to_move().unwrap_or(self.game.to_move()),
                None => self.game.to_move(),
            },
            interval: None,
            max_moves: None,
            ownership: false,
        };
        let centiseconds =
            |value: u32| (value > 0).then(|| Duration::from_millis(10 * value as u64));
        if let Some((first, tail)) = rest.split_first() {
            if let Some(named) = Colour::parse(first) {
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
        let kata = format == AnalyzeFormat::Kata;
        for pair in rest.chunks(2) {
            let [key, value] = pair else {
                let lone = pair[0];
                return failure(match lone {
                    "interval" | "minmoves" | "maxmoves" => {
                        format!("{command}: {lone} needs a value")
                    }
                    "ownership" if kata => format!("{command}: {lone} needs a value"),
                    _ => format!(
                        "{command}: '{lone}' is not a colour, an interval or an option with its value"
                    ),
                });
            };
            let number = whole_number(value);
            match (*key, number) {
                ("interval", Some(value)) => request.interval = centiseconds(value),
                ("minmoves", Some(_)) => {}
                ("maxmoves", Some(value)) => request.max_moves = Some(value as usize),
                ("ownership", _) if kata && (*value == "true" || *value == "false") => {
                    request.ownership = *value == "true"
                }
                ("interval" | "minmoves" | "maxmoves", _) => {
                    return failure(format!(
                        "{command}: {key} needs a whole number, not '{value}'"
                    ))
                }
                ("ownership", _) if kata => {
                    return failure(format!(
                        "{command}: ownership is true or false, not '{value}'"
                    ))
                }
                _ => return failure(format!("unsupported {command} option: {key}")),
            }
        }
        if self.problem.is_none() {
            if let Err(message) = self.oracle() {
                return failure(message);
            }
        }
        Reply::Analyze(request)
    }

    /// One line of `kata-analyze` or `lz-analyze`: an `info` entry for
    /// every legal move, pass included as KataGo writes it (`move pass`),
    /// or the `maxmoves` best; most preferred first, so that `order 0` is
    /// the move `genmove` plays; from the side's view; and the final
    /// ownership if asked for (`ownership::final_ownership`).
    ///
    /// `kata-analyze`: `winrate` 1.0, 0.5 or 0.0 (a win, a draw, a loss),
    /// `scoreLead` the exact final margin at the komi, `scoreMean` the
    /// same, `scoreStdev` 0.0. `lz-analyze`: `winrate` 10000, 5000 or 0,
    /// `prior` 10000 shared out among the moves that keep the best result
    /// (`smallgo-best-moves`), the first in the engine's order taking what
    /// the division leaves, 0 for the others, and `lcb` the winrate.
    pub fn analyze_line(&mut self, request: &AnalyzeRequest) -> Result<String, String> {
        if let Some(game) = &self.problem {
            return super::problem::analyze_line(game, request);
        }
        let board = self.board();
        let side = request.colour;
        if self.game.is_over() {
            return Ok(String::new());
        }
        let oracle = self.oracle()?;
        let all = perfect::rate(&oracle, self.komi.proxy(), &self.game, side)?;
        let keeping = crate::table::values::rating::keeping_best(&all);
        let mut ratings = self.ordered_ratings(side)?;
        if let Some(limit) = request.max_moves {
            ratings.truncate(limit);
        }
        let count = ratings.len();
        let mut entries = Vec::with_capacity(count + 1);
        for (order, rating) in ratings.iter().enumerate() {
            let (line, _) = self.principal_variation(side, rating.mv)?;
            // The line up to the pass that ends or answers it: a pass
            // played first is shown.
            let pv: Vec<String> = line
                .iter()
                .enumerate()
                .take_while(|&(i, m)| i == 0 || *m != Move::Pass)
                .map(|(_, m)| m.name(&board))
                .collect();
            let visits = 10 * (count - order);
            let name = rating.mv.name(&board);
            let pv = pv.join(" ");
            entries.push(match request.format {
                AnalyzeFormat::Kata => {
                    let winrate = match rating.outcome {
                        Outcome::MoverWins { .. } => 1.0,
                        Outcome::Draw => 0.5,
                        Outcome::OpponentWins { .. } => 0.0,
                    };
                    let lead = decimal_point(self.komi.mover_margin_text(
                        rating.outcome.black_margin(side.is_black()),
                        side.is_black(),
                    ));
                    format!(
                        "info move {name} visits {visits} winrate {} scoreMean {lead} \
                         scoreStdev 0.0 scoreLead {lead} order {order} pv {pv}",
                        float_text(winrate),
                    )
                }
                AnalyzeFormat::Lz => {
                    let winrate = match rating.outcome {
                        Outcome::MoverWins { .. } => 10000,
                        Outcome::Draw => 5000,
                        Outcome::OpponentWins { .. } => 0,
                    };
                    let prior = prior(&keeping, rating.mv, order == 0);
                    format!(
                        "info move {name} visits {visits} winrate {winrate} prior {prior} \
                         lcb {winrate} order {order} pv {pv}"
                    )
                }
            });
        }
        if request.ownership && request.format == AnalyzeFormat::Kata {
            let map = self.ownership(side)?;
            let values: Vec<&str> = map
                .values_for(side)
                .into_iter()
                .map(|v| match v {
                    1 => "1.0",
                    -1 => "-1.0",
                    _ => "0.0",
                })
                .collect();
            entries.push(format!("ownership {}", values.join(" ")));
        }
        Ok(entries.join(" "))
    }

    /// Who owns each point when perfect play ends, `side` moving first
    /// (`ownership::final_ownership`).
    pub(super) fn ownership(&mut self, side: Colour) -> Result<Ownership, String> {
        let oracle = self.oracle()?;
        ownership::final_ownership(&oracle, self.komi.proxy(), &self.game, side)
    }

    /// `smallgo-ownership [COLOR]`, gfx: every point that ends as Black's
    /// shaded black (`INFLUENCE` 1), White's white (-1), neither's left
    /// blank; points in seki marked with a square; a line of text with the
    /// counts and the end of the line.
    pub(super) fn ownership_gfx(&mut self, side: Colour) -> Result<String, String> {
        let board = self.board();
        let map = self.ownership(side)?;
        let names = |set: crate::rules::board::PointSet| -> Vec<String> {
            set.iter().map(|p| board.point_name(p)).collect()
        };
        let mut lines = Vec::new();
        let influence: Vec<String> = board
            .all()
            .iter()
            .filter_map(|p| match map.owner(p) {
                ownership::Owner::Black => Some(format!("{} 1", board.point_name(p))),
                ownership::Owner::White => Some(format!("{} -1", board.point_name(p))),
                ownership::Owner::Neither => None,
            })
            .collect();
        if !influence.is_empty() {
            lines.push(format!("INFLUENCE {}", influence.join(" ")));
        }
        let seki = names(map.seki());
        if !seki.is_empty() {
            lines.push(format!("SQUARE {}", seki.join(" ")));
        }
        let black = map.area(Colour::Black).len();
        let white = map.area(Colour::White).len();
        let neither = board.points() - black - white;
        let plies = map.line().len();
        let end = match map.end() {
            ownership::End::Scored { .. } if plies == 0 => "the game is over".to_string(),
            ownership::End::Scored { .. } => format!("two passes after {plies} plies"),
            ownership::End::Loop { positions } => {
                format!("a loop of {positions} positions after {plies} plies, a draw")
            }
        };
        lines.push(format!(
            "TEXT Black {black}, White {white}, neither {neither}, seki {}: {end}",
            seki.len()
        ));
        Ok(lines.join("\n"))
    }

    /// `final_status_list dead|alive|seki`: the stones on the board now
    /// whose status is that at the end of perfect play from here, the side
    /// to move first (`ownership`: dead when captured for good, seki when
    /// in seki at the end, alive otherwise), in point order.
    pub(super) fn final_status_list(&mut self, arguments: &[&str]) -> Reply {
        let [word] = arguments else {
            return failure(SYNTAX_ERROR);
        };
        let Some(status) = ownership::Status::parse(word) else {
            return failure(SYNTAX_ERROR);
        };
        let board = self.board();
        let side = self.game.to_move();
        let current = *self.game.current();
        match self.ownership(side) {
            Ok(map) => {
                let stones = map.stones_with(current.black, current.white, status);
                success(
                    stones
                        .iter()
                        .map(|p| board.point_name(p))
                        .collect::<Vec<_>>()
                        .join(" "),
                )
            }
            Err(message) => failure(message),
        }
    }
}

/// A move's `prior` in `lz-analyze`: 10000 shared out among the moves that
/// keep the best result, the first (`first`, in the engine's order) taking
/// the remainder of the division; 0 for a move not among them.
fn prior(keeping: &[Move], mv: Move, first: bool) -> usize {
    if !keeping.contains(&mv) {
        return 0;
    }
    let share = 10000 / keeping.len();
    if first {
        10000 - share * (keeping.len() - 1)
    } else {
        share
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::value::points_text;

    #[test]
    fn priors_share_out_ten_thousand_among_the_best_moves() {
        let moves: Vec<Move> = (0..3)
            .map(|p| Move::Place(crate::rules::board::Point::new(p)))
            .collect();
        let total: usize = moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| prior(&moves, mv, i == 0))
            .sum();
        assert_eq!(total, 10000);
        assert_eq!(prior(&moves, moves[0], true), 3334);
        assert_eq!(prior(&moves, moves[1], false), 3333);
        assert_eq!(prior(&moves[..1], moves[1], false), 0);
    }

    #[test]
    fn floats_always_have_a_decimal_point() {
        assert_eq!(float_text(1.0), "1.0");
        assert_eq!(float_text(0.5), "0.5");
        assert_eq!(float_text(-9.0), "-9.0");
        assert_eq!(float_text(2.5), "2.5");
        assert_eq!(points_text(9.0), "9");
        assert_eq!(points_text(8.5), "8.5");
        assert_eq!(decimal_point("9".to_string()), "9.0");
        assert_eq!(decimal_point("-0.0000001".to_string()), "-0.0000001");
    }
}
