//! The one JSON shape of the commands' `--json` output (`docs/json.md`):
//! JSON Lines, one object a line, each opening with `"kind"` (what the
//! object is), numbers written as numbers, and the parts every command
//! shares built here once: a stored value (`value`, what Black and White
//! can each force), a result at a komi (`outcome`), moves and points by
//! their GTP names.
//!
//! The objects are built as `Json` values and written compactly, keys in
//! the order given; a string is escaped as JSON requires, and a number that
//! is not finite is written `null`.

use std::fmt;

use crate::rules::board::{Board, PointSet};
use crate::rules::colour::Colour;
use crate::rules::moves::Move;
use crate::rules::value::{score_text, Outcome, Value};

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    /// A number, already written as JSON writes it.
    Number(String),
    Text(String),
    List(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// An object of kind `kind`: `{"kind": KIND, ...}`, fields added with
    /// `with`.
    pub(crate) fn kind(kind: &str) -> Json {
        Json::Object(vec![("kind".to_string(), Json::from(kind))])
    }

    /// An object without a kind, for the parts of one.
    pub(crate) fn object() -> Json {
        Json::Object(Vec::new())
    }

    /// This object with the field `key` added at its end.
    pub(crate) fn with(mut self, key: &str, value: impl Into<Json>) -> Json {
        if let Json::Object(fields) = &mut self {
            fields.push((key.to_string(), value.into()));
        }
        self
    }

    /// A list of the items, each made a `Json`.
    pub(crate) fn list<T: Into<Json>>(items: impl IntoIterator<Item = T>) -> Json {
        Json::List(items.into_iter().map(Into::into).collect())
    }

    /// A number given as exact decimal text (a komi, an exact margin):
    /// `-0.0000001`, `9`. Text that is not a JSON number is written as a
    /// string instead.
    pub(crate) fn decimal(text: &str) -> Json {
        if is_json_number(text) {
            Json::Number(text.to_string())
        } else {
            Json::Text(text.to_string())
        }
    }
}

/// Whether `text` is a number as JSON writes one: `-?(0|[1-9][0-9]*)(\.[0-9]+)?`
/// (the exponent, which nothing here writes, aside).
fn is_json_number(text: &str) -> bool {
    let body = text.strip_prefix('-').unwrap_or(text);
    let (integer, fraction) = match body.split_once('.') {
        Some((integer, fraction)) => (integer, Some(fraction)),
        None => (body, None),
    };
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    digits(integer) && (integer == "0" || !integer.starts_with('0')) && fraction.is_none_or(digits)
}

impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Json::Null => f.write_str("null"),
            Json::Bool(b) => write!(f, "{b}"),
            Json::Number(n) => f.write_str(n),
            Json::Text(text) => f.write_str(&quoted(text)),
            Json::List(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
            Json::Object(fields) => {
                f.write_str("{")?;
                for (i, (key, value)) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}:{value}", quoted(key))?;
                }
                f.write_str("}")
            }
        }
    }
}

/// `text` as a JSON string.
pub(crate) fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl From<bool> for Json {
    fn from(b: bool) -> Json {
        Json::Bool(b)
    }
}

macro_rules! integers {
    ($($t:ty),*) => {$(
        impl From<$t> for Json {
            fn from(n: $t) -> Json {
                Json::Number(n.to_string())
            }
        }
    )*};
}
integers!(i8, i16, i32, i64, u8, u16, u32, u64, usize);

impl From<f64> for Json {
    /// The shortest decimal that reads back as the same number, never an
    /// exponent (`8.5`, `0.0000001`); minus zero is `0`; not finite, `null`.
    fn from(x: f64) -> Json {
        if !x.is_finite() {
            Json::Null
        } else if x == 0.0 {
            Json::Number("0".to_string())
        } else {
            Json::Number(format!("{x}"))
        }
    }
}

impl From<&str> for Json {
    fn from(text: &str) -> Json {
        Json::Text(text.to_string())
    }
}

impl From<String> for Json {
    fn from(text: String) -> Json {
        Json::Text(text)
    }
}

impl From<&String> for Json {
    fn from(text: &String) -> Json {
        Json::Text(text.clone())
    }
}

impl<T: Into<Json>> From<Option<T>> for Json {
    fn from(option: Option<T>) -> Json {
        option.map_or(Json::Null, Into::into)
    }
}

impl From<Vec<Json>> for Json {
    fn from(items: Vec<Json>) -> Json {
        Json::List(items)
    }
}

/// `"black"` or `"white"`.
pub(crate) fn colour(colour: Colour) -> Json {
    Json::from(if colour.is_black() { "black" } else { "white" })
}

/// A move by its GTP name: `"B2"`, `"pass"`.
pub(crate) fn point(board: &Board, mv: Move) -> Json {
    Json::from(mv.name(board))
}

/// Moves by their GTP names.
pub(crate) fn moves(board: &Board, moves: &[Move]) -> Json {
    Json::list(moves.iter().map(|&mv| point(board, mv)))
}

/// The points of a set by their GTP names, in point order.
pub(crate) fn points(board: &Board, set: PointSet) -> Json {
    Json::list(set.iter().map(|p| board.point_name(p)))
}

/// The stones as `analyze position --diagram` reads them: rows from the
/// top separated by `/`, `X` black, `O` white, `.` empty, and a shape's
/// cells that are no points as its diagram writes them (`#` a wall, `+`
/// an open side).
pub(crate) fn diagram(board: &Board, black: PointSet, white: PointSet) -> String {
    let rows: Vec<String> = (0..board.rows())
        .rev()
        .map(|row| {
            (0..board.columns())
                .map(|column| match board.point_at(row, column) {
                    Some(point) if black.contains(point) => 'X',
                    Some(point) if white.contains(point) => 'O',
                    Some(_) => '.',
                    None => match board.shape_geometry().map(|s| s.cell(row, column)) {
                        Some(crate::rules::board::Cell::Open) => '+',
                        _ => '#',
                    },
                })
                .collect()
        })
        .collect();
    rows.join("/")
}

/// A stored value, whoever is to move: `{"black_can_force": SIDE,
/// "white_can_force": SIDE}`, each SIDE `{"margin": M, "plies": N}` (the
/// largest area margin that side can force the game to end with, from its
/// own view and komi aside, and the plies that takes) or `null` when that
/// side cannot force the game to end.
pub(crate) fn value(value: &Value, mover: Colour) -> Json {
    let side = |margin: Option<i8>, depth: u16| {
        margin.map(|m| Json::object().with("margin", m).with("plies", depth))
    };
    let mover_side = side(value.mover_margin, value.mover_depth);
    let opponent_side = side(value.opponent_margin, value.opponent_depth);
    let (black, white) = if mover.is_black() {
        (mover_side, opponent_side)
    } else {
        (opponent_side, mover_side)
    };
    Json::object()
        .with("black_can_force", black)
        .with("white_can_force", white)
}

/// A result at a komi, read from the view of `mover`: `{"winner":
/// "black"|"white"|null, "margin": M, "plies": N|null, "score": "B+9"}`,
/// the margin the winner's (komi included, 0 for a draw), the plies to the
/// end with perfect play (`null` for a draw), and the score as GTP
/// `final_score` writes it.
pub(crate) fn outcome(outcome: &Outcome, mover: Colour) -> Json {
    let black_margin = outcome.black_margin(mover.is_black());
    let (winner, plies) = match *outcome {
        Outcome::MoverWins { plies, .. } => (Some(mover), Some(plies)),
        Outcome::OpponentWins { plies, .. } => (Some(mover.opposite()), Some(plies)),
        Outcome::Draw => (None, None),
    };
    result(winner, black_margin.abs(), plies, score_text(black_margin))
}

/// A result from its parts, as `outcome` writes one.
pub(crate) fn result(
    winner: Option<Colour>,
    margin: impl Into<Json>,
    plies: Option<u16>,
    score: String,
) -> Json {
    Json::object()
        .with("winner", winner.map(colour))
        .with("margin", margin)
        .with("plies", plies)
        .with("score", score)
}

/// A result given as GTP `final_score` writes it (`B+9`, `W+2.5`, `0`, or
/// `draw`), its plies unknown.
pub(crate) fn result_of_score(score: &str) -> Json {
    let parsed = |letter: &str, colour: Colour| {
        let margin = score.strip_prefix(letter)?;
        is_json_number(margin).then(|| (Some(colour), Json::decimal(margin)))
    };
    let (winner, margin) = parsed("B+", Colour::Black)
        .or_else(|| parsed("W+", Colour::White))
        .unwrap_or((None, Json::from(0u8)));
    let score = if winner.is_none() { "0" } else { score };
    result(winner, margin, None, score.to_string())
}

/// `{"kind": "error", "error": MESSAGE}` with the fields given after it.
pub(crate) fn error(message: &str) -> Json {
    Json::kind("error").with("error", message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_are_written_on_one_line_and_strings_escaped() {
        let object = Json::kind("test")
            .with("text", "a\"b\\c\nd\u{1}")
            .with("n", -3i32)
            .with("x", 8.5)
            .with("small", 0.0000001)
            .with("zero", -0.0)
            .with("none", None::<u8>)
            .with("list", Json::list([1u8, 2]))
            .with("inf", f64::INFINITY);
        assert_eq!(
            object.to_string(),
            r#"{"kind":"test","text":"a\"b\\c\nd\u0001","n":-3,"x":8.5,"small":0.0000001,"zero":0,"none":null,"list":[1,2],"inf":null}"#
        );
    }

    #[test]
    fn scores_read_as_results() {
        assert_eq!(
            result_of_score("B+9").to_string(),
            r#"{"winner":"black","margin":9,"plies":null,"score":"B+9"}"#
        );
        assert_eq!(
            result_of_score("W+0.5").to_string(),
            r#"{"winner":"white","margin":0.5,"plies":null,"score":"W+0.5"}"#
        );
        assert_eq!(
            result_of_score("draw").to_string(),
            r#"{"winner":null,"margin":0,"plies":null,"score":"0"}"#
        );
    }

    #[test]
    fn decimals_are_numbers_only_when_json_reads_them_so() {
        for number in ["0", "-2", "6.5", "0.0000001", "-0.5", "120"] {
            assert_eq!(Json::decimal(number), Json::Number(number.to_string()));
        }
        for text in ["", "-", "01", ".5", "5.", "1e5", "+1", "1.2.3"] {
            assert_eq!(Json::decimal(text), Json::Text(text.to_string()));
        }
    }
}
