//! What a solved state is worth, for every komi at once
//! (`docs/rules.md#what-a-stored-value-means`).
//!
//! A `Value` holds A(s), B(s), dA(s) and dB(s): the largest margin each side
//! can force the game to end with, and how many plies that takes with the
//! forcing side hurrying and the other side resisting. `Value::outcome` reads
//! it for one komi.

// A probe-only build (no feature `solver`) leaves what only the engine and the analyses print unused.
#![cfg_attr(not(feature = "solver"), allow(dead_code, unused_imports))]

use std::fmt;

/// A(s), B(s), dA(s), dB(s) of one state, from the mover's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Value {
    /// A(s): the largest `m` such that the mover can force the game to end
    /// with own area margin at least `m`; `None` if the mover cannot force
    /// the game to end at all.
    pub mover_margin: Option<i8>,
    /// B(s): the same for the opponent.
    pub opponent_margin: Option<i8>,
    /// dA(s): plies to the end when A(s) is forced (0 when A(s) is `None`).
    pub mover_depth: u16,
    /// dB(s): plies to the end when B(s) is forced (0 when B(s) is `None`).
    pub opponent_depth: u16,
}

/// The result of perfect play for one komi, from the mover's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Outcome {
    /// The mover wins by `margin` (komi included) in `plies`.
    MoverWins {
        /// Points, komi included.
        margin: f64,
        /// Moves to the end, passes included.
        plies: u16,
    },
    /// The opponent wins by `margin` (komi included) in `plies`.
    OpponentWins {
        /// Points, komi included.
        margin: f64,
        /// Moves to the end, passes included.
        plies: u16,
    },
    /// Neither side can force a win: the game is drawn (a jigo, or play that
    /// never ends).
    Draw,
}

impl Value {
    /// The result for komi `komi` (White receives it), the mover being Black
    /// when `mover_is_black`.
    pub(crate) fn outcome(&self, komi: f64, mover_is_black: bool) -> Outcome {
        let mover_komi = if mover_is_black { komi } else { -komi };
        if let Some(a) = self.mover_margin {
            if a as f64 > mover_komi {
                return Outcome::MoverWins {
                    margin: a as f64 - mover_komi,
                    plies: self.mover_depth,
                };
            }
        }
        if let Some(b) = self.opponent_margin {
            if b as f64 > -mover_komi {
                return Outcome::OpponentWins {
                    margin: b as f64 + mover_komi,
                    plies: self.opponent_depth,
                };
            }
        }
        Outcome::Draw
    }
}

impl Outcome {
    /// The result as Black sees it: positive for a Black win, negative for a
    /// White win, zero for a draw.
    pub(crate) fn black_margin(&self, mover_is_black: bool) -> f64 {
        let mover = match *self {
            Outcome::MoverWins { margin, .. } => margin,
            Outcome::OpponentWins { margin, .. } => -margin,
            Outcome::Draw => 0.0,
        };
        if mover_is_black {
            mover
        } else {
            -mover
        }
    }
}

impl Value {
    /// The value in words, each side named: `Black (to move) can force +9
    /// in 15 plies; White can force -9 in 17 plies` (each its own area
    /// margin, komi aside; a side that cannot force an end says so).
    pub fn describe(&self, mover: &str, opponent: &str) -> String {
        format!(
            "{mover} (to move) {}; {opponent} {}",
            can_force(self.mover_margin, self.mover_depth),
            can_force(self.opponent_margin, self.opponent_depth)
        )
    }
}

impl fmt::Display for Value {
    /// `the side to move can force +9 in 15 plies; the other can force -9
    /// in 17 plies`, for messages that do not know the colours.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the side to move {}; the other {}",
            can_force(self.mover_margin, self.mover_depth),
            can_force(self.opponent_margin, self.opponent_depth)
        )
    }
}

/// What one side can force, from its half of a value: its area margin and
/// the plies to the end, or that it cannot force the game to end.
fn can_force(margin: Option<i8>, depth: u16) -> String {
    match margin {
        Some(margin) => format!("can force {margin:+} in {depth} plies"),
        None => "cannot force the game to end".to_string(),
    }
}

impl Outcome {
    /// A short label, from the view of the player it belongs to: `+9`
    /// (wins by 9), `=0` (a draw), `-3.5` (loses by 3.5).
    pub(crate) fn label(&self) -> String {
        match *self {
            Outcome::MoverWins { margin, .. } => format!("+{}", points_text(margin)),
            Outcome::Draw => "=0".to_string(),
            Outcome::OpponentWins { margin, .. } => format!("-{}", points_text(margin)),
        }
    }
}

/// Formats a number of points, komi included, as the shortest decimal that
/// reads back as the same number: `9`, `8.5`, `8.9999999` (after komi
/// 0.0000001). Never an exponent, never a trailing dot; minus zero is `0`.
pub fn points_text(points: f64) -> String {
    if points == 0.0 {
        return "0".to_string();
    }
    format!("{points}")
}

/// Formats a Black-positive margin as GTP `final_score` does: `B+9`, `W+5.5`,
/// or `0`; the number as `points_text` writes it.
pub fn score_text(black_margin: f64) -> String {
    let number = points_text(black_margin.abs());
    if black_margin > 0.0 {
        format!("B+{number}")
    } else if black_margin < 0.0 {
        format!("W+{number}")
    } else {
        "0".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_for_a_komi() {
        let value = Value {
            mover_margin: Some(9),
            opponent_margin: Some(-9),
            mover_depth: 5,
            opponent_depth: 7,
        };
        assert_eq!(
            value.outcome(0.0, true),
            Outcome::MoverWins {
                margin: 9.0,
                plies: 5
            }
        );
        assert_eq!(value.outcome(9.0, true), Outcome::Draw);
        assert_eq!(
            value.outcome(9.5, true),
            Outcome::OpponentWins {
                margin: 0.5,
                plies: 7
            }
        );
        // The mover is White: komi is White's, so it adds to the mover.
        assert_eq!(
            value.outcome(6.5, false),
            Outcome::MoverWins {
                margin: 15.5,
                plies: 5
            }
        );
        // A draw by endless play whatever the komi in between.
        let cycle = Value {
            mover_margin: Some(-2),
            opponent_margin: None,
            ..Value::default()
        };
        assert_eq!(cycle.outcome(0.0, true), Outcome::Draw);
        assert_eq!(
            cycle.outcome(-2.5, true),
            Outcome::MoverWins {
                margin: 0.5,
                plies: 0
            }
        );
    }

    #[test]
    fn score_texts() {
        assert_eq!(score_text(9.0), "B+9");
        assert_eq!(score_text(-5.5), "W+5.5");
        assert_eq!(score_text(0.0), "0");
        assert_eq!(score_text(-0.25), "W+0.25");
        assert_eq!(score_text(9.0 - 0.0000001), "B+8.9999999");
        assert_eq!(score_text(0.0000001), "B+0.0000001");
        assert_eq!(score_text(9.0 - 6.3), "B+2.7");
        assert_eq!(score_text(-1e20), "W+100000000000000000000");
        assert_eq!(points_text(-0.0), "0");
    }
}
