//! `smallgo analyze rule-1xn N...`: checks White's move rules on 1xN boards
//! against their tables (`crate::line_rule` does the work), and prints per
//! board and rule whether White keeps at least a draw against every Black
//! play, with a counterexample where not.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::{existing_folder, finish_analysis, json_string, parse_komi};
use crate::analysis::Values;
use crate::board::Board;
use crate::gtp::game::diagram;
use crate::line_rule::{check, Check, Counterexample, Extent, Rule};
use crate::moves::Move;
use crate::seki::DenseValues;
use crate::table::library::Tablebase;
use crate::value::{points_text, score_text, Outcome};

#[derive(Args, Debug)]
pub struct LineRuleArguments {
    /// The lengths N of the boards 1xN: numbers, or ranges such as 6-20.
    #[arg(required = true, value_name = "N", value_parser = parse_lengths)]
    lengths: Vec<Vec<usize>>,

    /// The rules to check (repeat the option for several).
    #[arg(long = "rule", value_enum, value_name = "RULE", default_values_t = [RuleArgument::Mirror, RuleArgument::Adjacent, RuleArgument::Jump])]
    rules: Vec<RuleArgument>,

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

/// The rules by name (`crate::line_rule::Rule` tells what each does).
#[derive(Clone, Copy, Debug, ValueEnum)]
enum RuleArgument {
    /// Answer at the point facing Black's stone; else as adjacent.
    Mirror,
    /// Play next to Black's last stone, toward the longer empty run.
    Adjacent,
    /// Answer two points from Black's stone, toward the longer empty run.
    Jump,
    /// Always pass (a rule that must fail).
    Pass,
    /// The engine's own move from the table (a control that must hold).
    Table,
}

impl From<RuleArgument> for Rule {
    fn from(rule: RuleArgument) -> Rule {
        match rule {
            RuleArgument::Mirror => Rule::Mirror,
            RuleArgument::Adjacent => Rule::Adjacent,
            RuleArgument::Jump => Rule::Jump,
            RuleArgument::Pass => Rule::Pass,
            RuleArgument::Table => Rule::Table,
        }
    }
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

/// Every check, in board then rule order.
struct Report {
    komi: f64,
    checks: Vec<(Check, String)>,
}

fn analyze(arguments: &LineRuleArguments) -> Result<Report, String> {
    if let Some(folder) = &arguments.tables {
        existing_folder(folder)?;
    }
    let library = Tablebase::with_sources(arguments.tables.as_deref(), false);
    let mut lengths: Vec<usize> = arguments.lengths.iter().flatten().copied().collect();
    lengths.sort_unstable();
    lengths.dedup();
    let mut rules: Vec<Rule> = Vec::new();
    for rule in arguments.rules.iter().map(|&r| Rule::from(r)) {
        if !rules.contains(&rule) {
            rules.push(rule);
        }
    }
    let extent = if arguments.all {
        Extent::Whole
    } else {
        Extent::FirstLoss
    };
    let mut checks = Vec::new();
    for length in lengths {
        let board = if arguments.circular {
            Board::circular(1, length)
        } else {
            Board::new(1, length)
        }
        .map_err(|e| e.to_string())?;
        // A whole walk probes every turn's children: the table read whole
        // into memory serves them far faster than block by block. Otherwise
        // the values come from where the engine takes them.
        let whole = extent == Extent::Whole || rules.contains(&Rule::Table);
        let (values, source): (Box<dyn Values>, String) =
            match library.table(board).filter(|_| whole) {
                Some(table) => (
                    Box::new(DenseValues::from_table(&table)?),
                    table.origin().to_string(),
                ),
                None => {
                    let oracle = library
                        .open(board)
                        .ok_or_else(|| no_table(board, arguments.tables.as_deref()))?;
                    let description = oracle.description().to_string();
                    (Box::new(oracle), description)
                }
            };
        for &rule in &rules {
            let started = std::time::Instant::now();
            let found =
                check(values.as_ref(), &rule, arguments.komi, extent).map_err(|e| e.to_string())?;
            log::info!(
                "{board}, rule {rule}: {} turns in {:.1} s",
                found.black_turns + found.white_turns,
                started.elapsed().as_secs_f64()
            );
            checks.push((found, source.clone()));
        }
    }
    Ok(Report {
        komi: arguments.komi,
        checks,
    })
}

fn no_table(board: Board, tables: Option<&Path>) -> String {
    let looked = match tables {
        Some(folder) => format!("in {} nor built in", folder.display()),
        None => "built in".to_string(),
    };
    format!("no table of board {board}, {looked}: build it with `smallgo build {board}`")
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
    outln!(
        "{:<7} {:<6} {:<9} {:<6} {:>13} {:>13} {:>13}",
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
            "{:<7} {:<6} {:<9} {:<6} {:>13} {:>13} {:>13}",
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
    Ok(())
}

fn json(report: &Report) -> String {
    let checks: Vec<String> = report
        .checks
        .iter()
        .map(|(found, source)| {
            let board = &found.board;
            let names = |moves: &[Move]| {
                moves
                    .iter()
                    .map(|mv| json_string(&mv.name(board)))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let counterexample = found.counterexample.as_ref().map_or(
                "null".to_string(),
                |example| {
                    format!(
                        "{{\"moves\": [{}], \"ko\": {}, \"rule_move\": {}, \"rule_result\": {}, \"best_moves\": [{}], \"best_result\": {}, \"diagram\": {}}}",
                        names(&example.moves),
                        example
                            .ko
                            .map_or("null".to_string(), |p| json_string(&board.point_name(p))),
                        json_string(&example.rule_move.name(board)),
                        example
                            .rule_outcome
                            .map_or("null".to_string(), |o| json_string(&white_result(&o))),
                        names(&example.best_moves),
                        json_string(&white_result(&example.best_outcome)),
                        json_string(&diagram(board, example.black, example.white)),
                    )
                },
            );
            format!(
                "{{\"board\": {}, \"source\": {}, \"rule\": {}, \"start\": {}, \"holds\": {}, \"complete\": {}, \"black_turns\": {}, \"white_turns\": {}, \"losing_turns\": {}, \"counterexample\": {}}}",
                json_string(&board.name()),
                json_string(source),
                json_string(&found.rule),
                json_string(&score_text(found.start.black_margin(true))),
                found.holds(),
                found.complete,
                found.black_turns,
                found.white_turns,
                found.losing_turns,
                counterexample
            )
        })
        .collect();
    format!(
        "{{\"komi\": {}, \"checks\": [{}]}}",
        report.komi,
        checks.join(", ")
    )
}

/// `smallgo analyze rule-1xn`.
pub fn run(arguments: &LineRuleArguments) -> ExitCode {
    finish_analysis("rule-1xn", analyze(arguments), arguments.json, json, print)
}

#[cfg(test)]
mod tests {
    use super::*;

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
