//! Reading GTP input: cleaning a raw line (GTP v2 section 2.3), splitting it
//! into id, command and arguments, and reading moves and numbers. Command
//! names are case-sensitive; colours (`Colour::parse`), vertices
//! (`Board::parse_vertex`) and `pass` are not.

use nom::bytes::complete::take_till1;
use nom::character::complete::{digit1, space0, space1};
use nom::combinator::{all_consuming, map_res, opt};
use nom::multi::many0;
use nom::number::complete::double;
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

use crate::rules::board::Board;
use crate::rules::moves::Move;

/// A command as sent: optional numeric id, name, arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandLine<'a> {
    pub id: Option<u64>,
    pub name: &'a str,
    pub arguments: Vec<&'a str>,
}

/// Cleans a raw input line: drops control characters other than tab and
/// newline, turns tabs into spaces, cuts `#` comments, trims. `None` for a
/// line that is empty once cleaned (it gets no reply).
pub fn clean(raw: &str) -> Option<String> {
    let mut line: String = raw
        .chars()
        .filter(|&c| !c.is_control() || c == '\t' || c == '\n')
        .map(|c| if c == '\t' || c == '\n' { ' ' } else { c })
        .collect();
    if let Some(at) = line.find('#') {
        line.truncate(at);
    }
    let line = line.trim();
    (!line.is_empty()).then(|| line.to_string())
}

fn word(input: &str) -> IResult<&str, &str> {
    take_till1(|c: char| c == ' ').parse(input)
}

fn command_line_parser(input: &str) -> IResult<&str, CommandLine<'_>> {
    let id = opt(terminated(map_res(digit1, str::parse::<u64>), space1));
    all_consuming((space0, id, word, many0(preceded(space1, word)), space0))
        .map(|(_, id, name, arguments, _)| CommandLine {
            id,
            name,
            arguments,
        })
        .parse(input)
}

/// Splits a cleaned line into id, command name and arguments. A line whose
/// first word is a number is an id, so a number alone (`1`, or `1 #name`
/// once cleaned) is an id without a command: `None`, and `leading_id`
/// gives the id the error reply keeps.
pub fn command_line(line: &str) -> Option<CommandLine<'_>> {
    command_line_parser(line)
        .ok()
        .map(|(_, parsed)| parsed)
        .filter(|parsed| !parsed.name.bytes().all(|b| b.is_ascii_digit()))
}

fn leading_id_parser(input: &str) -> IResult<&str, u64> {
    terminated(map_res(digit1, str::parse::<u64>), space0).parse(input)
}

/// The id of a line that does not parse as a command, if it starts with one.
pub fn leading_id(line: &str) -> Option<u64> {
    leading_id_parser(line).ok().map(|(_, id)| id)
}

/// What a move argument says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveText {
    /// A move on this board.
    Move(Move),
    /// A well-formed vertex that is not on this board.
    OffBoard,
}

/// A vertex (`C3`, `c3`, as `Board::parse_vertex` reads it) or `pass`
/// (any case). `None` if it is neither.
pub fn move_text(board: &Board, text: &str) -> Option<MoveText> {
    if text.eq_ignore_ascii_case("pass") {
        return Some(MoveText::Move(Move::Pass));
    }
    Some(match board.parse_vertex(text)? {
        Some(point) => MoveText::Move(Move::Place(point)),
        None => MoveText::OffBoard,
    })
}

fn number_parser(input: &str) -> IResult<&str, f64> {
    all_consuming(double).parse(input)
}

fn whole_number_parser(input: &str) -> IResult<&str, u32> {
    all_consuming(map_res(digit1, str::parse::<u32>)).parse(input)
}

/// A finite number (komi, times).
pub fn finite_number(text: &str) -> Option<f64> {
    number_parser(text)
        .ok()
        .map(|(_, number)| number)
        .filter(|number| number.is_finite())
}

/// A whole number that fits `u32`.
pub fn whole_number(text: &str) -> Option<u32> {
    whole_number_parser(text).ok().map(|(_, number)| number)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_cleaned_as_gtp_says() {
        assert_eq!(
            clean("  genmove\tb  # a comment\n"),
            Some("genmove b".to_string())
        );
        assert_eq!(clean("# only a comment"), None);
        assert_eq!(clean("   \t \r\n"), None);
        assert_eq!(clean("pl\u{7}ay b a1\r\n"), Some("play b a1".to_string()));
    }

    #[test]
    fn command_lines_split_into_id_name_arguments() {
        assert_eq!(
            command_line("12 play b C3"),
            Some(CommandLine {
                id: Some(12),
                name: "play",
                arguments: vec!["b", "C3"]
            })
        );
        assert_eq!(
            command_line("list_commands"),
            Some(CommandLine {
                id: None,
                name: "list_commands",
                arguments: vec![]
            })
        );
        assert_eq!(command_line("komi   6.5").unwrap().arguments, vec!["6.5"]);
        assert_eq!(leading_id("7"), Some(7));
        assert_eq!(command_line("7"), None);
        assert_eq!(clean("1 #name").as_deref().map(leading_id), Some(Some(1)));
    }

    #[test]
    fn moves_and_numbers() {
        let board: Board = "3x3".parse().unwrap();
        assert_eq!(move_text(&board, "PaSs"), Some(MoveText::Move(Move::Pass)));
        assert_eq!(
            move_text(&board, "c3"),
            Some(MoveText::Move(Move::Place(
                board.parse_point("C3").unwrap()
            )))
        );
        assert_eq!(move_text(&board, "D1"), Some(MoveText::OffBoard));
        assert_eq!(move_text(&board, "A4"), Some(MoveText::OffBoard));
        assert_eq!(move_text(&board, "I1"), None);
        assert_eq!(move_text(&board, "A"), None);
        assert_eq!(move_text(&board, "11"), None);
        assert_eq!(finite_number("6.5"), Some(6.5));
        assert_eq!(finite_number("-2"), Some(-2.0));
        assert_eq!(finite_number("inf"), None);
        assert_eq!(finite_number("NaN"), None);
        assert_eq!(finite_number("6.5x"), None);
        assert_eq!(whole_number("19"), Some(19));
        assert_eq!(whole_number("-1"), None);
    }
}
