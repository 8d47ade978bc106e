//! `smallgo analyze cycles RxC [--tables DIR] [--json]`: the strongly
//! connected components of the board's state graph, the share of states on
//! a cycle, the states whose value depends on never-ending play being a draw
//! (read from the board's table), and example cycles drawn as moves
//! (`crate::analyses::cycles` does the work; docs/analyses.md tells what it means).
//! With `--svg-dir DIR` each example is drawn as `DIR/cycles-BOARD-N.svg`
//! (`crate::game::drawing`, N its place in the list of examples from 1):
//! its start's move values, perfect play and ownership at komi 0, and the
//! cycle's moves numbered.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::json::{self, Json};
use super::{existing_folder, finish_analysis, no_table};
use crate::analyses::cycles::{
    cycle_dependent, example_cycle, size_buckets, state_kinds, strongly_connected, value_counts,
    Components, ExampleCycle, SizeBucket, StateGraph, ValueCounts, BYTES_PER_EDGE, BYTES_PER_STATE,
};
use crate::game::Game;
use crate::index::StateIndex;
use crate::rules::board::Board;
use crate::rules::colour::Colour;
use crate::rules::state::State;
use crate::rules::value::Value;
use crate::table::library::Tablebase;
use crate::table::values::Values;

/// States tried as the start of the example cycle of a component.
const EXAMPLE_TRIES: usize = 64;

/// Edges per state the memory check assumes (7.5 or fewer on the boards
/// measured).
const EDGES_PER_STATE: f64 = 9.0;

/// An example cycle as printed.
struct Example {
    what: &'static str,
    component_states: u32,
    cycle: ExampleCycle,
}

/// Everything the report prints.
struct Report {
    board: Board,
    /// Whether the passes are edges of the graph.
    passes: bool,
    /// The empty board's value, whether it is cycle-dependent, and whether
    /// it lies on a cycle.
    start_value: Value,
    start_dependent: bool,
    start_on_cycle: bool,
    source: String,
    states: u64,
    edges: u64,
    components: usize,
    nontrivial: u64,
    self_loops: u64,
    on_cycle: u64,
    reaching: u64,
    largest: u32,
    /// Plain, after a pass, with a ko.
    largest_kinds: [u64; 3],
    buckets: Vec<SizeBucket>,
    values: ValueCounts,
    examples: Vec<Example>,
    /// The pictures written with --svg-dir.
    drawn: Vec<PathBuf>,
}

fn analyze(
    board: Board,
    tables: Option<&Path>,
    passes: bool,
    svg_dir: Option<&Path>,
) -> Result<Report, String> {
    if let Some(folder) = tables {
        existing_folder(folder)?;
    }
    if !crate::solver::plan::within_index_limit(&board) {
        return Err(format!(
            "board {board} has {} points, more than the index numbers ({})",
            board.points(),
            crate::index::MAX_INDEX_POINTS
        ));
    }
    let estimate = crate::solver::plan::estimate(&board);
    let needed = estimate.memory_bytes
        + estimate.states * (BYTES_PER_STATE + EDGES_PER_STATE * BYTES_PER_EDGE);
    if let Some(available) = crate::common::host::available_memory() {
        if needed > available as f64 {
            return Err(format!(
                "board {board} needs about {} of memory for its {} states, and {} is available",
                crate::common::units::human_bytes(needed),
                crate::common::units::human(estimate.states),
                crate::common::units::human_bytes(available as f64)
            ));
        }
    }
    let library = Tablebase::with_sources(tables, false);
    let oracle = library.open(board).ok_or_else(|| no_table(board, tables))?;
    let started = std::time::Instant::now();
    let lap = |what: &str| {
        log::info!(
            "{board}: {what} after {:.1} s",
            started.elapsed().as_secs_f64()
        )
    };
    let index = StateIndex::build(board)
        .ok_or_else(|| format!("board {board} is over the index's limits"))?;
    let graph = StateGraph::build(&index, passes)
        .ok_or_else(|| format!("board {board} has too many states for 32-bit numbers"))?;
    lap("state graph");
    let components = strongly_connected(&graph);
    lap("components");
    let values = value_counts(&index, &components, &oracle)?;
    lap("values");
    let on_cycle = (0..graph.states() as u32)
        .filter(|&v| components.on_cycle(v))
        .count() as u64;
    let reaching = (0..graph.states() as u32)
        .filter(|&v| components.reaches_cycle(v))
        .count() as u64;
    let nontrivial = components.sizes.iter().filter(|&&s| s > 1).count() as u64;
    let largest_id = largest_component(&components);
    let largest = largest_id.map_or(1, |c| components.sizes[c as usize]);
    let largest_kinds = largest_id.map_or([0; 3], |c| state_kinds(&index, &components, c));
    let mut examples = Vec::new();
    if let Some(c) = largest_id {
        if let Some(cycle) = example_cycle(&index, &graph, &components, c, EXAMPLE_TRIES) {
            examples.push(Example {
                what: "in the largest component",
                component_states: components.sizes[c as usize],
                cycle,
            });
        }
    }
    if let Some(c) = smallest_cyclic_component(&components) {
        if Some(c) != largest_id {
            if let Some(cycle) = example_cycle(&index, &graph, &components, c, EXAMPLE_TRIES) {
                examples.push(Example {
                    what: "in a smallest component with a cycle",
                    component_states: components.sizes[c as usize],
                    cycle,
                });
            }
        }
    }
    lap("examples");
    let start = State::start();
    let start_value = oracle.value_of(&start).map_err(|e| e.to_string())?;
    let start_number = index.rank(&start).expect("the empty board is a state") as u32;
    let drawn = match svg_dir {
        Some(folder) => {
            let pictures = pictures(board, &oracle, &examples)?;
            super::pictures::write_all(folder, &pictures)?
        }
        None => Vec::new(),
    };
    Ok(Report {
        board,
        passes,
        start_value,
        start_dependent: cycle_dependent(&start_value, board.points() as i32),
        start_on_cycle: components.on_cycle(start_number),
        source: oracle.description().to_string(),
        states: graph.states(),
        edges: graph.edges(),
        components: components.count(),
        nontrivial,
        self_loops: components.self_loops,
        on_cycle,
        reaching,
        largest,
        largest_kinds,
        buckets: size_buckets(&components),
        values,
        examples,
        drawn,
    })
}

/// Each example drawn, with its file's name: the position at its start
/// (Black to move) at komi 0, and the cycle as a line of its own.
fn pictures(
    board: Board,
    oracle: &crate::table::library::BoardValues,
    examples: &[Example],
) -> Result<Vec<(String, String)>, String> {
    let mut pictures = Vec::new();
    for (number, example) in examples.iter().enumerate() {
        let number = number + 1;
        let cycle = &example.cycle;
        let (black, white) = cycle.stones();
        let state = crate::game::FullState {
            black,
            white,
            to_move: Colour::Black,
            ko: cycle.start.ko(),
            passes: u8::from(cycle.start.passed()),
        };
        let game = Game::from_state(board, state)
            .ok_or_else(|| format!("example {number} is not a legal position"))?;
        let title = format!(
            "{board}, example cycle {number} ({}, of {} states)",
            example.what, example.component_states
        );
        let caption = format!("the cycle: {} moves", cycle.moves.len());
        let line = crate::game::drawing::Line {
            caption: &caption,
            first: Colour::Black,
            moves: &cycle.moves,
        };
        let svg = crate::game::drawing::position_svg(oracle, 0.0, &game, &title, Some(line))?;
        pictures.push((format!("cycles-{}-{number}.svg", board.file_stem()), svg));
    }
    Ok(pictures)
}

/// The largest component with a cycle, the lowest numbered among equals.
fn largest_component(components: &Components) -> Option<u32> {
    (0..components.count() as u32)
        .filter(|&c| components.cyclic[c as usize])
        .max_by_key(|&c| (components.sizes[c as usize], std::cmp::Reverse(c)))
}

/// The smallest component with a cycle, the lowest numbered among equals.
fn smallest_cyclic_component(components: &Components) -> Option<u32> {
    (0..components.count() as u32)
        .filter(|&c| components.cyclic[c as usize])
        .min_by_key(|&c| (components.sizes[c as usize], c))
}

fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// `1234567` as `1,234,567`.
fn grouped(number: u64) -> String {
    let digits = number.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// The start of a cycle drawn as `showboard` draws a board.
fn diagram(board: Board, cycle: &ExampleCycle) -> String {
    let (black, white) = cycle.stones();
    Game::from_setup(board, black, white, Colour::Black)
        .expect("a legal state's stones")
        .diagram()
}

fn bucket_name(bucket: &SizeBucket) -> String {
    if bucket.low == bucket.high {
        bucket.low.to_string()
    } else {
        format!("{}-{}", bucket.low, bucket.high)
    }
}

fn print_text(report: &Report) -> std::io::Result<()> {
    let board = report.board;
    let states = report.states;
    outln!("board       {board}")?;
    outln!("values      {}", report.source)?;
    outln!(
        "graph       {}",
        if report.passes {
            "every legal move is an edge, pass included"
        } else {
            "placements only (--placements-only: passes are not edges)"
        }
    )?;
    outln!(
        "states      {} (canonical: symmetric and colour-swapped states are one)",
        grouped(states)
    )?;
    outln!(
        "edges       {} (graph edges: moves to a distinct child state; a pass that ends the game is none, so the solver's edges (`count`, a table's header) are more by one per state after a pass)",
        grouped(report.edges)
    )?;
    outln!(
        "components  {} strongly connected; {} with more than one state",
        grouped(report.components as u64),
        grouped(report.nontrivial)
    )?;
    if report.self_loops > 0 {
        outln!(
            "self-loops  {} states are their own child",
            grouped(report.self_loops)
        )?;
    }
    outln!(
        "on a cycle  {} states ({:.2}%)",
        grouped(report.on_cycle),
        share(report.on_cycle, states)
    )?;
    outln!(
        "reach one   {} states ({:.2}%) can reach a cycle",
        grouped(report.reaching),
        share(report.reaching, states)
    )?;
    let [plain, passed, ko] = report.largest_kinds;
    outln!(
        "largest     {} states ({} plain, {} after a pass, {} with a ko point)",
        grouped(report.largest as u64),
        grouped(plain),
        grouped(passed),
        grouped(ko)
    )?;
    if !report.buckets.is_empty() {
        outln!("sizes of the components with more than one state:")?;
        outln!(
            "  {:>13}  {:>12}  {:>12}",
            "states each",
            "components",
            "states"
        )?;
        for bucket in &report.buckets {
            outln!(
                "  {:>13}  {:>12}  {:>12}",
                bucket_name(bucket),
                grouped(bucket.components),
                grouped(bucket.states)
            )?;
        }
    }
    let values = &report.values;
    outln!(
        "values that depend on never-ending play being a draw (the margins the two sides can force do not meet, or a side cannot force an end):"
    )?;
    outln!(
        "  {} states ({:.2}%): {} on a cycle, {} off any cycle but reaching one, {} reaching none",
        grouped(values.dependent),
        share(values.dependent, states),
        grouped(values.dependent_on_cycle),
        grouped(values.dependent - values.dependent_on_cycle - values.dependent_without_cycle),
        grouped(values.dependent_without_cycle)
    )?;
    outln!(
        "  at komi 0: {} states ({:.2}%) whose result is a draw that is not a jigo",
        grouped(values.dependent_at_komi_zero),
        share(values.dependent_at_komi_zero, states)
    )?;
    outln!(
        "  on a cycle but not dependent: {}",
        grouped(values.on_cycle_independent)
    )?;
    if values.dependent_without_cycle > 0 && report.passes {
        outln!("  WARNING: never-ending play needs a cycle: the table and the graph disagree")?;
    }
    outln!(
        "  the empty board: {} ({}cycle-dependent, {}on a cycle)",
        report.start_value.describe("Black", "White"),
        if report.start_dependent { "" } else { "not " },
        if report.start_on_cycle { "" } else { "not " }
    )?;
    for (number, example) in report.examples.iter().enumerate() {
        let cycle = &example.cycle;
        outln!(
            "example cycle {} ({}, of {} states): {} moves around the canonical cycle, {} until the same full state repeats",
            number + 1,
            example.what,
            grouped(example.component_states as u64),
            cycle.cycle_length,
            cycle.moves.len()
        )?;
        outln!("{}", diagram(board, cycle))?;
        let mut notes = vec!["Black to move".to_string()];
        if let Some(ko) = cycle.start.ko() {
            notes.push(format!("ko at {}", board.point_name(ko)));
        }
        if cycle.start.passed() {
            notes.push("White has just passed".to_string());
        }
        outln!("{}", notes.join(", "))?;
        let moves: Vec<String> = cycle
            .moves
            .iter()
            .enumerate()
            .map(|(i, mv)| {
                let colour = if i % 2 == 0 { "B" } else { "W" };
                format!("{colour} {}", mv.name(&board))
            })
            .collect();
        for line in moves.chunks(8) {
            outln!("  {}", line.join(", "))?;
        }
    }
    for path in &report.drawn {
        outln!("drawn       {}", path.display())?;
    }
    Ok(())
}

/// The report as a `cycles` object (`docs/json.md`).
fn json(report: &Report) -> Json {
    let board = report.board;
    let values = &report.values;
    let buckets = report.buckets.iter().map(|b| {
        Json::object()
            .with("low", b.low)
            .with("high", b.high)
            .with("components", b.components)
            .with("states", b.states)
    });
    let examples = report.examples.iter().map(|example| {
        let cycle = &example.cycle;
        let (black, white) = cycle.stones();
        Json::object()
            .with("component_states", example.component_states)
            .with("black", json::points(&board, black))
            .with("white", json::points(&board, white))
            .with("to_move", "black")
            .with("ko", cycle.start.ko().map(|k| board.point_name(k)))
            .with("passed", cycle.start.passed())
            .with("cycle_length", cycle.cycle_length)
            .with("cycle", json::moves(&board, &cycle.moves))
    });
    let [plain, passed, ko] = report.largest_kinds;
    Json::kind("cycles")
        .with("board", board.name())
        .with(
            "graph",
            if report.passes {
                "every move"
            } else {
                "placements only"
            },
        )
        .with("source", report.source.as_str())
        .with("states", report.states)
        .with("graph_edges", report.edges)
        .with("components", report.components)
        .with("components_with_more_than_one_state", report.nontrivial)
        .with("self_loops", report.self_loops)
        .with("states_on_a_cycle", report.on_cycle)
        .with(
            "share_on_a_cycle",
            share(report.on_cycle, report.states) / 100.0,
        )
        .with("states_reaching_a_cycle", report.reaching)
        .with(
            "largest_component",
            Json::object()
                .with("states", report.largest)
                .with("plain", plain)
                .with("passed", passed)
                .with("ko", ko),
        )
        .with("size_distribution", Json::list(buckets))
        .with(
            "cycle_dependent",
            Json::object()
                .with("states", values.dependent)
                .with("on_a_cycle", values.dependent_on_cycle)
                .with(
                    "off_cycles_reaching_one",
                    values.dependent - values.dependent_on_cycle - values.dependent_without_cycle,
                )
                .with("unable_to_reach_a_cycle", values.dependent_without_cycle)
                .with("at_komi_0", values.dependent_at_komi_zero)
                .with("on_a_cycle_not_dependent", values.on_cycle_independent)
                .with("empty_board", report.start_dependent),
        )
        .with("examples", Json::list(examples))
}

/// `smallgo analyze cycles`.
pub fn run(
    board: Board,
    tables: Option<&Path>,
    as_json: bool,
    passes: bool,
    svg_dir: Option<&Path>,
) -> ExitCode {
    finish_analysis(
        "cycles",
        analyze(board, tables, passes, svg_dir),
        as_json,
        json,
        print_text,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(6228223), "6,228,223");
    }
}
