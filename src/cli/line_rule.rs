//! `smallgo analyze rule-1xn N...`: checks White's move rules on 1xN boards
//! against their tables (`crate::analyses::line_rule` does the work), and prints per
//! board and rule whether White keeps at least a draw against every Black
//! play, with a counterexample where not. Values come from where the engine
//! takes them (a table, or a solve on the spot for a small board); boards
//! with none are listed in the report, the others checked.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use super::json::{self, Json};
use super::{existing_folder, finish_analysis, looked_in, parse_komi};
use crate::analyses::line_rule::{
    check, Check, Counterexample, Extent, FirstBlack, LineRule, Memory, Orientation, Rule, StepTwo,
    Thesis,
};
use crate::analyses::seki::DenseValues;
use crate::game::diagram;
use crate::rules::board::Board;
use crate::rules::colour::Colour;
use crate::rules::moves::Move;
use crate::rules::state::State;
use crate::rules::value::{points_text, score_text, Outcome};
use crate::table::library::Tablebase;
use crate::table::values::Values;
use crate::table::TableError;

#[derive(Args, Debug)]
pub struct LineRuleArguments {
    /// The lengths N of the boards 1xN: numbers, or ranges such as 6-20.
    #[arg(required = true, value_name = "N", value_parser = parse_lengths)]
    lengths: Vec<Vec<usize>>,

    /// The rules to check (repeat the option for several): mirror (answer
    /// at the point facing Black's stone), adjacent (next to Black's stone),
    /// jump (two points from it), pass (always), table (the engine's move, a
    /// control), thesis (the reference work's Algorithm 8 in every reading
    /// of its text), or one or several readings of it:
    /// thesis-ORIENTATION-STEP1-STEP2 with ORIENTATION kept, again or fresh,
    /// STEP1 from4 or min, STEP2 empty or legal; a part left out stands
    /// for all (thesis-kept is four readings).
    #[arg(long = "rule", value_name = "RULE", value_parser = parse_rule, default_values = ["mirror", "adjacent", "jump"])]
    rules: Vec<Vec<Chosen>>,

    /// Komi, given to White.
    #[arg(long, value_name = "K", default_value_t = 0.0, value_parser = parse_komi, allow_negative_numbers = true)]
    komi: f64,

    /// Walk every reachable turn and count the losing ones, instead of
    /// stopping at the first.
    #[arg(long)]
    all: bool,

    /// Check the circular boards 1xNc instead.
    #[arg(long)]
    circular: bool,

    /// Print one JSON object instead of the report.
    #[arg(long)]
    json: bool,

    /// Folder of tables, preferred to the built-in ones, as the engine's
    /// --tables.
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
}

/// A rule picked on the command line: a built-in one or a reading of the
/// reference work's (`crate::analyses::line_rule` tells what each does).
#[derive(Clone, Debug, PartialEq)]
enum Chosen {
    Rule(Rule),
    Thesis(Thesis),
}

impl LineRule for Chosen {
    fn name(&self) -> &str {
        match self {
            Chosen::Rule(rule) => rule.name(),
            Chosen::Thesis(thesis) => thesis.name(),
        }
    }

    fn white_move(
        &self,
        values: &dyn Values,
        state: &State,
        last: Move,
        komi: f64,
        memory: Memory,
    ) -> Result<(Move, Memory), TableError> {
        match self {
            Chosen::Rule(rule) => rule.white_move(values, state, last, komi, memory),
            Chosen::Thesis(thesis) => thesis.white_move(values, state, last, komi, memory),
        }
    }
}

/// A rule's name as the rules it stands for (several for a partly named
/// reading of the reference work's rule).
fn parse_rule(text: &str) -> Result<Vec<Chosen>, String> {
    let built_in = [
        Rule::Mirror,
        Rule::Adjacent,
        Rule::Jump,
        Rule::Pass,
        Rule::Table,
    ];
    if let Some(&rule) = built_in.iter().find(|rule| rule.as_str() == text) {
        return Ok(vec![Chosen::Rule(rule)]);
    }
    let unknown = || {
        format!(
            "'{text}' is not a rule: mirror, adjacent, jump, pass, table, thesis, \
             or thesis-ORIENTATION-STEP1-STEP2 (kept|again|fresh, from4|min, empty|legal)"
        )
    };
    let mut parts = text.split('-');
    if parts.next() != Some("thesis") {
        return Err(unknown());
    }
    let parts: Vec<&str> = parts.collect();
    if parts.len() > 3 {
        return Err(unknown());
    }
    let orientation = match parts.first() {
        None => None,
        Some(&"kept") => Some(Orientation::Kept),
        Some(&"again") => Some(Orientation::Again),
        Some(&"fresh") => Some(Orientation::Fresh),
        Some(_) => return Err(unknown()),
    };
    let first_black = match parts.get(1) {
        None => None,
        Some(&"from4") => Some(FirstBlack::From4),
        Some(&"min") => Some(FirstBlack::Minimum),
        Some(_) => return Err(unknown()),
    };
    let step_two = match parts.get(2) {
        None => None,
        Some(&"empty") => Some(StepTwo::FirstEmpty),
        Some(&"legal") => Some(StepTwo::FirstLegal),
        Some(_) => return Err(unknown()),
    };
    Ok(Thesis::readings()
        .into_iter()
        .filter(|reading| {
            orientation.is_none_or(|o| reading.orientation == o)
                && first_black.is_none_or(|f| reading.first_black == f)
                && step_two.is_none_or(|t| reading.step_two == t)
        })
        .map(Chosen::Thesis)
        .collect())
}

/// The longest line checked: the index's limit.
const MAX_LENGTH: usize = crate::index::MAX_INDEX_POINTS;

/// `N` or `A-B` as the lengths it names.
fn parse_lengths(text: &str) -> Result<Vec<usize>, String> {
    let number = |part: &str| -> Result<usize, String> {
        match part.trim().parse::<usize>() {
            Ok(n) if (1..=MAX_LENGTH).contains(&n) => Ok(n),
            _ => Err(format!(
                "'{part}' is not a board length from 1 to {MAX_LENGTH}"
            )),
        }
    };
    match text.split_once('-') {
        Some((low, high)) => {
            let (low, high) = (number(low)?, number(high)?);
            if low > high {
                return Err(format!("'{text}': the range runs backwards"));
            }
            Ok((low..=high).collect())
        }
        None => Ok(vec![number(text)?]),
    }
}

/// Every check, in board then rule order, and the boards left unchecked.
struct Report {
    komi: f64,
    checks: Vec<(Check, String)>,
    /// Boards with no values (no table, too large to solve on the spot),
    /// each with what to do about it.
    missing: Vec<(Board, String)>,
}

fn analyze(arguments: &LineRuleArguments) -> Result<Report, String> {
    if let Some(folder) = &arguments.tables {
        existing_folder(folder)?;
    }
    let library = Tablebase::with_sources(arguments.tables.as_deref(), false);
    let mut lengths: Vec<usize> = arguments.lengths.iter().flatten().copied().collect();
    lengths.sort_unstable();
    lengths.dedup();
    let mut rules: Vec<Chosen> = Vec::new();
    for rule in arguments.rules.iter().flatten() {
        if !rules.contains(rule) {
            rules.push(rule.clone());
        }
    }
    let extent = if arguments.all {
        Extent::Whole
    } else {
        Extent::FirstLoss
    };
    let mut checks = Vec::new();
    let mut missing = Vec::new();
    for length in lengths {
        let board = if arguments.circular {
            Board::circular(1, length)
        } else {
            Board::new(1, length)
        }
        .map_err(|e| e.to_string())?;
        // A whole walk probes every turn's children: the table read whole
        // into memory serves them far faster than block by block. Otherwise
        // the values come from where the engine takes them, a solve on the
        // spot included.
        let whole = extent == Extent::Whole || rules.contains(&Chosen::Rule(Rule::Table));
        let (values, source): (Box<dyn Values>, String) =
            match library.table(board).filter(|_| whole) {
                Some(table) => (
                    Box::new(DenseValues::from_table(&table)?),
                    table.origin().to_string(),
                ),
                None => match library.open(board) {
                    Some(oracle) => {
                        let description = oracle.description().to_string();
                        (Box::new(oracle), description)
                    }
                    None => {
                        missing.push((board, no_table(board, arguments.tables.as_deref())));
                        continue;
                    }
                },
            };
        for rule in &rules {
            let started = std::time::Instant::now();
            let found =
                check(values.as_ref(), rule, arguments.komi, extent).map_err(|e| e.to_string())?;
            log::info!(
                "{board}, rule {}: {} turns in {:.1} s",
                rule.name(),
                found.black_turns + found.white_turns,
                started.elapsed().as_secs_f64()
            );
            checks.push((found, source.clone()));
        }
    }
    if checks.is_empty() {
        let reasons: Vec<&str> = missing.iter().map(|(_, why)| why.as_str()).collect();
        return Err(reasons.join("; "));
    }
    for (_, why) in &missing {
        log::warn!("not checked: {why}");
    }
    Ok(Report {
        komi: arguments.komi,
        checks,
        missing,
    })
}

fn no_table(board: Board, tables: Option<&Path>) -> String {
    let looked = looked_in(tables);
    format!(
        "no table of board {board}, {looked}, and it is too large to solve on the spot: \
         build it with `smallgo build {board} --tables DIR` and give --tables DIR"
    )
}

/// An outcome for White as a result: `W+3`, `B+2` or `0`.
fn white_result(outcome: &Outcome) -> String {
    score_text(outcome.black_margin(false))
}

fn moves_text(board: &Board, moves: &[Move]) -> String {
    if moves.is_empty() {
        return "(none)".to_string();
    }
    moves
        .iter()
        .map(|mv| mv.name(board))
        .collect::<Vec<_>>()
        .join(" ")
}

fn counterexample_text(board: &Board, example: &Counterexample) -> String {
    format!(
        "after {} (Black first), White to move{}:\n{}\nthe rule plays {} {}; {} keeps {}",
        moves_text(board, &example.moves),
        example.ko.map_or(String::new(), |p| format!(
            ", ko at {}",
            board.point_name(p)
        )),
        diagram(board, example.black, example.white),
        example.rule_move.name(board),
        example
            .rule_outcome
            .map_or("which is not legal".to_string(), |outcome| format!(
                "and loses ({})",
                white_result(&outcome)
            )),
        moves_text(board, &example.best_moves),
        white_result(&example.best_outcome),
    )
}

fn print(report: &Report) -> std::io::Result<()> {
    outln!(
        "White's rules on a line, checked against the tables at komi {}: a rule holds",
        points_text(report.komi)
    )?;
    outln!("when White keeps at least a draw (0 or better) whatever Black plays.")?;
    outln!("")?;
    let width = report
        .checks
        .iter()
        .map(|(found, _)| found.rule.len())
        .max()
        .unwrap_or(0)
        .max(9);
    outln!(
        "{:<7} {:<6} {:<width$} {:<6} {:>13} {:>13} {:>13}",
        "board",
        "start",
        "rule",
        "holds",
        "Black turns",
        "White turns",
        "losing turns"
    )?;
    for (found, _) in &report.checks {
        outln!(
            "{:<7} {:<6} {:<width$} {:<6} {:>13} {:>13} {:>13}",
            found.board.name(),
            score_text(found.start.black_margin(true)),
            found.rule,
            if found.holds() { "yes" } else { "no" },
            found.black_turns,
            found.white_turns,
            if found.complete {
                found.losing_turns.to_string()
            } else {
                "stopped at 1".to_string()
            }
        )?;
    }
    for (found, source) in &report.checks {
        if let Some(example) = &found.counterexample {
            outln!("")?;
            outln!(
                "{}, rule {} ({source}): a counterexample with the fewest moves",
                found.board.name(),
                found.rule
            )?;
            outln!("{}", counterexample_text(&found.board, example))?;
        }
    }
    if !report.missing.is_empty() {
        outln!("")?;
        outln!("Not checked:")?;
        for (_, why) in &report.missing {
            outln!("  {why}")?;
        }
    }
    Ok(())
}

/// The report as a `rule-1xn` object (`docs/json.md`).
fn json(report: &Report) -> Json {
    let checks = report.checks.iter().map(|(found, source)| {
        let board = &found.board;
        let counterexample = found.counterexample.as_ref().map(|example| {
            Json::object()
                .with("played", json::moves(board, &example.moves))
                .with(
                    "diagram",
                    json::diagram(board, example.black, example.white),
                )
                .with("black", json::points(board, example.black))
                .with("white", json::points(board, example.white))
                .with("to_move", "white")
                .with("ko", example.ko.map(|p| board.point_name(p)))
                .with("rule_move", json::point(board, example.rule_move))
                .with(
                    "rule_outcome",
                    example
                        .rule_outcome
                        .map(|o| json::outcome(&o, Colour::White)),
                )
                .with("best_moves", json::moves(board, &example.best_moves))
                .with(
                    "best_outcome",
                    json::outcome(&example.best_outcome, Colour::White),
                )
        });
        Json::object()
            .with("board", board.name())
            .with("source", source.as_str())
            .with("rule", found.rule.as_str())
            .with("start", json::outcome(&found.start, Colour::Black))
            .with("holds", found.holds())
            .with("complete", found.complete)
            .with("black_turns", found.black_turns)
            .with("white_turns", found.white_turns)
            .with("losing_turns", found.losing_turns)
            .with("counterexample", counterexample)
    });
    let missing = report.missing.iter().map(|(board, why)| {
        Json::object()
            .with("board", board.name())
            .with("reason", why.as_str())
    });
    Json::kind("rule-1xn")
        .with("komi", report.komi)
        .with("checks", Json::list(checks))
        .with("missing", Json::list(missing))
}

/// `smallgo analyze rule-1xn`.
pub fn run(arguments: &LineRuleArguments) -> ExitCode {
    finish_analysis("rule-1xn", analyze(arguments), arguments.json, json, print)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_are_named_alone_or_as_readings_of_the_thesis() {
        let names = |text: &str| -> Vec<String> {
            parse_rule(text)
                .unwrap()
                .iter()
                .map(|rule| rule.name().to_string())
                .collect()
        };
        assert_eq!(names("jump"), ["jump"]);
        assert_eq!(names("thesis").len(), 12);
        assert_eq!(
            names("thesis-kept"),
            [
                "thesis-kept-from4-empty",
                "thesis-kept-from4-legal",
                "thesis-kept-min-empty",
                "thesis-kept-min-legal"
            ]
        );
        assert_eq!(names("thesis-fresh-min-legal"), ["thesis-fresh-min-legal"]);
        for bad in [
            "thesis-",
            "thesis-kept-x",
            "thesis-a-b-c-d",
            "thesisx",
            "walk",
        ] {
            assert!(parse_rule(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn lengths_are_numbers_or_ranges() {
        assert_eq!(parse_lengths("7"), Ok(vec![7]));
        assert_eq!(parse_lengths("6-9"), Ok(vec![6, 7, 8, 9]));
        assert!(parse_lengths("0").is_err());
        assert!(parse_lengths("9-6").is_err());
        assert!(parse_lengths("x").is_err());
        assert!(parse_lengths("1-99").is_err());
    }
}
