//! The analysis commands: perfect-play values of the moves for GoGui
//! (`smallgo-move-values`, `smallgo-move-labels`, `smallgo-best-moves`),
//! the principal variation (`smallgo-pv`), the perfect result
//! (`smallgo-value`), KataGo's `kata-analyze` with the final ownership,
//! and the menu GoGui reads from `gogui-analyze_commands`. They read the
//! game and never change it.

use std::time::Duration;

use crate::rules::colour::Colour;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::value::Outcome;
use crate::table::values::rating::{preference_order, Rating};
use crate::table::values::Values;

use crate::game::perfect;
use crate::game::Game;
use crate::gtp::parse::whole_number;

use super::{failure, reply, Engine, Reply, SYNTAX_ERROR};

/// The analysis commands GoGui offers in its menu.
/// They name no colour, so they follow the side to move when GoGui runs
/// them automatically after each move. Three set and show the
/// topology of the next game (GoGui's New Game sends `boardsize` and
/// `clear_board`), so that circular boards need no GTP shell; the last
/// three read and leave a life-and-death problem.
pub(super) const GOGUI_ANALYZE_COMMANDS: &str = "gfx/Perfect move values/smallgo-move-values\n\
    pspairs/Perfect move values (labels)/smallgo-move-labels\n\
    plist/Perfect best moves/smallgo-best-moves\n\
    var/Perfect principal variation/smallgo-pv\n\
    string/Perfect result/smallgo-value\n\
    none/Circular board from the next game/smallgo-topology circular\n\
    none/Plain board from the next game/smallgo-topology plain\n\
    string/Topology of the next game/smallgo-topology\n\
    gfx/Problem: result of each move/smallgo-problem-results\n\
    string/Problem: status/smallgo-problem-status\n\
    none/Problem: back to normal play/smallgo-problem-clear\n\
    none/Problem: start here/smallgo-problem-here\n\
    none/Problem: start here, black to play/smallgo-problem-here black\n\
    none/Problem: start here, white to play/smallgo-problem-here white";

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
    /// syntax). Understood keys: `interval`, `minmoves` (every legal move is
    /// listed anyway), `maxmoves`, `ownership`; others are refused.
    pub(super) fn kata_analyze_request(&mut self, arguments: &[&str]) -> Reply {
        let mut rest = arguments;
        let mut request = AnalyzeRequest {
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
        if self.problem.is_none() {
            if let Err(message) = self.oracle() {
                return failure(message);
            }
        }
        Reply::Analyze(request)
    }

    /// One `kata-analyze` line: an `info` entry for every legal move, pass
    /// included as KataGo writes it (`move pass`), or the `maxmoves` best;
    /// most preferred first, so that `order 0` is the move `genmove` plays;
    /// from the side's view; and the final ownership if asked for.
    pub fn kata_analyze_line(&mut self, request: &AnalyzeRequest) -> Result<String, String> {
        if let Some(game) = &self.problem {
            return Ok(super::problem::kata_analyze_line(game, request));
        }
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
            let winrate = match rating.outcome {
                Outcome::MoverWins { .. } => 1.0,
                Outcome::Draw => 0.5,
                Outcome::OpponentWins { .. } => 0.0,
            };
            let lead = self.komi.mover_margin_text(
                rating.outcome.black_margin(side.is_black()),
                side.is_black(),
            );
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
                decimal_point(lead),
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
        let best = perfect::choose(&oracle, self.komi.proxy(), &self.game, side)?.mv;
        let (_, end) = self.principal_variation(side, best)?;
        let board = *end.board();
        let position = end.current();
        let (mine, theirs) = (position.stones(side), position.stones(side.opposite()));
        let stones = Position::new(mine, theirs);
        let (my_area, their_area) = stones.areas(&board);
        let mut values = Vec::with_capacity(board.points());
        for row in (0..board.rows()).rev() {
            for column in 0..board.columns() {
                let point = board.point_at(row, column);
                values.push(match point {
                    Some(point) if my_area.contains(point) => "1.0",
                    Some(point) if their_area.contains(point) => "-1.0",
                    _ => "0.0",
                });
            }
        }
        Ok(values.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::value::points_text;

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
