//! `smallgo analyze rules RxC` and `smallgo bench superko RxC...`: the two
//! rule sets side by side, and the superko solver's figures.
//!
//! `analyze rules` gives the value of the empty board and of every first
//! placement (one per class under the board's symmetries) under loop-draw
//! (the tables' rules, basic ko, a never-ending game a draw: read from the
//! table library as `analyze position` reads them) and under superko
//! (`crate::superko`, solved here), each as Black's area margin at komi 0,
//! and marks the openings whose result differs, with the superko main line
//! on boards of at most `LINE_POINTS` points. Loop-draw values are a pair:
//! what Black can force and what White can force; when they do not meet,
//! the gap is decided by never-ending play, a draw.
//!
//! `bench superko` solves every opening of each board and prints time,
//! states searched, states per second, table use; with `--pruning`, the
//! states searched with each pruning or aid switched off in turn. Each
//! opening's value and states go to standard error as it is solved, so that
//! a long run shows its progress.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, ValueEnum};

use super::json::{self, Json};
use super::{existing_folder, finish_analysis, output_failed, parse_board};
use crate::rules::board::{Board, Point};
use crate::rules::moves::Move;
use crate::superko::solve::{
    empty_board_value, solve_openings, with_deep_stack, Options, Progress as SolverProgress,
    Reporter, Solver, Stats, SLOT_BYTES,
};
use crate::superko::{Game, Superko};
use crate::table::library::{Next, Tablebase};
use crate::table::values::Values;

/// Boards up to this many points get the superko main line of each
/// opening whose result differs.
const LINE_POINTS: usize = 6;

/// The superko rule named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RulesArgument {
    /// A placement may not recreate any position seen before.
    PositionalSuperko,
    /// A placement may not recreate a position seen before with the same
    /// player to move.
    SituationalSuperko,
}

impl RulesArgument {
    fn rule(self) -> Superko {
        match self {
            RulesArgument::PositionalSuperko => Superko::Positional,
            RulesArgument::SituationalSuperko => Superko::Situational,
        }
    }
}

#[derive(Args, Debug)]
pub struct RulesArguments {
    /// The board: rows x columns, at most 25 points, for example 1x7.
    #[arg(value_name = "RxC", value_parser = parse_board)]
    board: Board,

    /// The superko rule compared with loop-draw.
    #[arg(long, value_enum, default_value = "positional-superko")]
    rules: RulesArgument,

    /// Print one JSON object.
    #[arg(long)]
    json: bool,

    /// Folder of tables, preferred to the built-in ones, as the engine's
    /// --tables.
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct BenchSuperkoArguments {
    /// The boards (default: 1x7 1x8 1x9).
    #[arg(value_name = "RxC", value_parser = parse_board)]
    boards: Vec<Board>,

    /// The superko rule.
    #[arg(long, value_enum, default_value = "positional-superko")]
    rules: RulesArgument,

    /// Also solve with each pruning or aid switched off in turn, and print
    /// the states searched each time.
    #[arg(long)]
    pruning: bool,

    /// With --pruning, give up a run after this many states.
    #[arg(long, value_name = "N", default_value_t = 2_000_000_000)]
    budget: u64,

    /// The memory of the transposition table and of its long footprints
    /// together, in MiB: the table a power of two of 64-byte entries within
    /// a sixteenth of it (and a tag of 8 bytes each), the footprints within
    /// the rest; with --threads,
    /// split evenly between the threads' tables.
    #[arg(long, value_name = "MIB", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=4096))]
    tt_memory: u64,

    /// Log2 of each transposition table's entries instead of a sixteenth of
    /// --tt-memory (64 bytes each; the footprints keep the rest); 0 for
    /// no table.
    #[arg(long, value_name = "BITS", value_parser = clap::value_parser!(u32).range(0..=26))]
    table_bits: Option<u32>,

    /// With bounds from the points each side keeps whatever the history
    /// (unconditionally alive strings and their one-point eyes).
    #[arg(long)]
    alive_bounds: bool,

    /// Without enhanced transposition cut-offs (a child whose entry proves
    /// the cut-off searched first).
    #[arg(long)]
    no_etc: bool,

    /// One `bench-superko` object a board, on one line (docs/json.md).
    #[arg(long)]
    json: bool,

    /// Also print, to standard error, each iteration of the deepening as it
    /// ends (its window, horizon, result and states), and at the end each
    /// search from the root and the states, table hits, stores and
    /// footprint lengths by depth; the run gives up after --budget states.
    #[arg(long)]
    profile: bool,

    /// Threads: the openings are shared out between them, each thread with
    /// a solver and a table of its own (--tt-memory is split evenly
    /// between them); the values are the same, the states can differ from
    /// run to run.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    threads: u64,

    /// Iterative deepening: each search from the root first with a horizon
    /// of N turns, doubled until its bound is proven; 0 for none.
    #[arg(long, value_name = "N", default_value_t = Options::default().deepening)]
    deepening: u32,

    /// The horizon grows by N turns from one iteration to the next; 0
    /// doubles it.
    #[arg(long, value_name = "N", default_value_t = Options::default().deepening_step)]
    deepening_step: u32,

    /// Without recalling unknown results: a state met again in the same
    /// iteration of the deepening, with the same window and no more turns
    /// left, is searched again although it proved nothing the first time.
    #[arg(long)]
    no_recall_unknown: bool,

    /// Decide a null window still unproven once the deepening's horizon
    /// reaches N turns by a proof-number search (df-pn over the states with
    /// their whole history, no horizon; at once with --deepening 0); 0 for
    /// never.
    #[arg(long, value_name = "N", default_value_t = Options::default().proof_numbers)]
    proof_numbers: u32,
}

/// A value under loop-draw, Black's view: what Black can force, what White
/// can force (each its own margin; `None`: cannot force an end).
#[derive(Clone, Copy, Debug, PartialEq)]
struct LoopDraw {
    black: Option<i32>,
    white: Option<i32>,
}

impl LoopDraw {
    /// The result at komi 0: Black's margin, or 0 for a draw.
    fn result(self) -> i32 {
        match (self.black, self.white) {
            (Some(b), _) if b >= 1 => b,
            (_, Some(w)) if w >= 1 => -w,
            _ => 0,
        }
    }

    /// Whether both sides force the same finished margin.
    fn exact(self) -> Option<i32> {
        match (self.black, self.white) {
            (Some(b), Some(w)) if b == -w => Some(b),
            _ => None,
        }
    }

    fn text(self) -> String {
        match self.exact() {
            Some(v) => format!("{v:+}"),
            None => {
                let side = |m: Option<i32>| m.map_or("none".to_string(), |m| format!("{m:+}"));
                format!(
                    "draw (B forces {}, W forces {})",
                    side(self.black),
                    side(self.white)
                )
            }
        }
    }

    /// A `value`-shaped object (docs/json.md), the plies unknown, and the
    /// result the game ends with under perfect play.
    fn json(self) -> Json {
        let side =
            |m: Option<i32>| m.map(|m| Json::object().with("margin", m).with("plies", None::<u32>));
        Json::object()
            .with("black_can_force", side(self.black))
            .with("white_can_force", side(self.white))
            .with("result", self.result())
    }
}

/// One line of the comparison: the empty board or an opening.
struct Row {
    /// `None` for the empty board.
    point: Option<Point>,
    loop_draw: Option<LoopDraw>,
    superko: i32,
    /// The superko main line from here, when worked out.
    line: Vec<Move>,
}

impl Row {
    fn differs(&self) -> bool {
        self.loop_draw.is_some_and(|ld| {
            ld.result() != self.superko || ld.exact().is_some_and(|v| v != self.superko)
        })
    }
}

struct Comparison {
    board: Board,
    rule: Superko,
    source: Option<String>,
    rows: Vec<Row>,
    stats: Stats,
    seconds: f64,
}

/// The loop-draw values of the empty board and of each opening, from the
/// library; `None` when no table serves the board.
fn loop_draw_values(
    board: Board,
    tables: Option<&std::path::Path>,
    openings: &[Point],
) -> Result<Option<(String, LoopDraw, Vec<LoopDraw>)>, String> {
    let library = Tablebase::with_sources(tables, false);
    let Some(oracle) = library.open(board) else {
        return Ok(None);
    };
    let start = crate::table::library::BoardState::start(board);
    let value = oracle.value_of(&start.state()).map_err(|e| e.to_string())?;
    let empty = LoopDraw {
        black: value.mover_margin.map(i32::from),
        white: value.opponent_margin.map(i32::from),
    };
    let mut moves = Vec::new();
    for &point in openings {
        let Ok(Next::State(after)) = start.play(Move::Place(point)) else {
            return Err(format!(
                "{} is not a legal first move",
                board.point_name(point)
            ));
        };
        let value = oracle.value_of(&after.state()).map_err(|e| e.to_string())?;
        moves.push(LoopDraw {
            black: value.opponent_margin.map(i32::from),
            white: value.mover_margin.map(i32::from),
        });
    }
    Ok(Some((oracle.description().to_string(), empty, moves)))
}

/// The superko main line from the game's state: at each turn the first
/// move in point order (pass last) whose child has the state's value, until
/// two passes or `limit` turns.
fn main_line(solver: &mut Solver, game: &mut Game, limit: usize) -> Vec<Move> {
    let mut line = Vec::new();
    let played = game.turns();
    while line.len() < limit {
        let Some(value) = solver.value(game) else {
            break;
        };
        let node = game.node();
        let chosen = game.legal_moves().into_iter().find(|&mv| {
            if mv == Move::Pass && node.passed {
                return node.position.area_score(game.board()) == value;
            }
            game.play(mv).expect("a legal move");
            let child = solver.value(game).map(|v| -v);
            game.undo();
            child == Some(value)
        });
        let Some(mv) = chosen else { break };
        game.play(mv).expect("a legal move");
        line.push(mv);
    }
    while game.turns() > played {
        game.undo();
    }
    line
}

fn compare(arguments: &RulesArguments) -> Result<Comparison, String> {
    if let Some(folder) = &arguments.tables {
        existing_folder(folder)?;
    }
    let board = arguments.board;
    let rule = arguments.rules.rule();
    Game::new(board, rule).map_err(|_| {
        format!(
            "board {board}: superko is solved on plain boards of at most {} points",
            crate::superko::MAX_POINTS
        )
    })?;
    let openings = crate::superko::solve::opening_points(&board);
    let loop_draw = loop_draw_values(board, arguments.tables.as_deref(), &openings)?;
    let started = Instant::now();
    let (values, lines, stats) = with_deep_stack(move || {
        let mut solver = Solver::new(board, rule, Options::default());
        let values = solver.opening_values();
        let mut lines = Vec::new();
        let mut game = Game::new(board, rule).expect("checked");
        if board.points() <= LINE_POINTS {
            for &(point, _) in &values {
                game.play(Move::Place(point)).expect("an opening");
                let mut line = vec![Move::Place(point)];
                line.extend(main_line(&mut solver, &mut game, 200));
                game.undo();
                lines.push(line);
            }
        }
        (values, lines, solver.stats())
    });
    let seconds = started.elapsed().as_secs_f64();
    let mut rows = vec![Row {
        point: None,
        loop_draw: loop_draw.as_ref().map(|l| l.1),
        superko: empty_board_value(&values),
        line: Vec::new(),
    }];
    for (i, &(point, value)) in values.iter().enumerate() {
        rows.push(Row {
            point: Some(point),
            loop_draw: loop_draw.as_ref().map(|l| l.2[i]),
            superko: value,
            line: lines.get(i).cloned().unwrap_or_default(),
        });
    }
    Ok(Comparison {
        board,
        rule,
        source: loop_draw.map(|l| l.0),
        rows,
        stats,
        seconds,
    })
}

fn row_name(board: &Board, row: &Row) -> String {
    row.point
        .map_or("empty board".to_string(), |p| board.point_name(p))
}

fn line_text(board: &Board, line: &[Move]) -> String {
    line.iter()
        .map(|m| m.name(board))
        .collect::<Vec<_>>()
        .join(" ")
}

fn print(comparison: &Comparison) -> std::io::Result<()> {
    let board = comparison.board;
    outln!("board     {board}")?;
    outln!(
        "values    Black's area margin at komi 0 with perfect play; an opening is Black's first stone"
    )?;
    outln!(
        "loop-draw {}",
        comparison
            .source
            .as_deref()
            .unwrap_or("no table of this board")
    )?;
    outln!(
        "{}  solved in {:.2} s, {} states",
        comparison.rule,
        comparison.seconds,
        comparison.stats.nodes
    )?;
    outln!("")?;
    outln!(
        "{:<12}  {:<34}  {:<20}",
        "",
        "loop-draw",
        comparison.rule.name()
    )?;
    for row in &comparison.rows {
        let ld = row.loop_draw.map_or("-".to_string(), |l| l.text());
        let mark = if row.differs() { "  differs" } else { "" };
        outln!(
            "{:<12}  {:<34}  {:<20}{mark}",
            row_name(&board, row),
            ld,
            format!("{:+}", row.superko)
        )?;
    }
    let differing: Vec<&Row> = comparison
        .rows
        .iter()
        .filter(|r| r.differs() && !r.line.is_empty())
        .collect();
    if !differing.is_empty() {
        outln!("")?;
        outln!("superko main lines of the openings that differ:")?;
        for row in differing {
            outln!(
                "  {}: {}",
                row_name(&board, row),
                line_text(&board, &row.line)
            )?;
        }
    }
    Ok(())
}

/// The comparison as a `rules` object (docs/json.md).
fn json(comparison: &Comparison) -> Json {
    let board = comparison.board;
    let rows = comparison.rows.iter().map(|row| {
        Json::object()
            .with("point", row.point.map(|p| board.point_name(p)))
            .with("loop_draw", row.loop_draw.map(LoopDraw::json))
            .with("superko", row.superko)
            .with("differs", row.differs())
            .with("line", json::moves(&board, &row.line))
    });
    Json::kind("rules")
        .with("board", board.to_string())
        .with("rules", comparison.rule.name())
        .with("source", comparison.source.clone())
        .with("nodes", comparison.stats.nodes)
        .with("seconds", comparison.seconds)
        .with("rows", Json::list(rows))
}

/// `smallgo analyze rules`.
pub fn run(arguments: &RulesArguments) -> ExitCode {
    finish_analysis("rules", compare(arguments), arguments.json, json, print)
}

/// One benchmark run: the openings' values (`None` when the budget ran
/// out), the states of each, the threads, the figures (every thread's
/// together), the table slots used of all, the seconds of the clock and of
/// the processor.
struct BenchRun {
    values: Option<Vec<(Point, i32)>>,
    /// The states of each opening's search.
    states: Vec<u64>,
    /// The threads that searched.
    threads: usize,
    stats: Stats,
    used: usize,
    size: usize,
    seconds: f64,
    /// The processor seconds, every thread's.
    cpu: f64,
}

/// Prints a solver's searches from the root and its figures by depth (in
/// runs of depths) to standard error.
fn print_profile(board: Board, solver: &Solver) {
    for (i, &(beta, value, states)) in solver.root_searches().iter().enumerate() {
        eprintln!(
            "{board} search {}: beta {beta:+}, returned {value:+}, {states} states",
            i + 1
        );
    }
    eprintln!("{board} depths: states, settled by the table, stores, mean footprint");
    let profile = solver.depth_profile();
    let run = (profile.len() / 24).max(1);
    for (i, chunk) in profile.chunks(run).enumerate() {
        let sum = chunk.iter().fold([0u64; 4], |mut a, r| {
            a.iter_mut().zip(r).for_each(|(a, r)| *a += r);
            a
        });
        eprintln!(
            "  {:>5}-{:<5} {:>12} {:>12} {:>12} {:>8.1}",
            i * run,
            i * run + chunk.len() - 1,
            sum[0],
            sum[1],
            sum[2],
            sum[3] as f64 / sum[2].max(1) as f64
        );
    }
}

/// The processor time of this process so far, every thread's, user and
/// system, in seconds (0 if the system does not say).
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the structure it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return 0.0;
    }
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// What a bench run prints to standard error as it goes: nothing, each
/// opening as it is solved, or also each iteration of the deepening.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Progress {
    Quiet,
    Openings,
    Iterations,
}

/// A reporter that prints each opening solved (and with `Iterations` each
/// iteration of the deepening) to standard error, with the seconds of the
/// clock and of the processor since `started` and `cpu`, so that a long
/// run shows how far it has come.
fn progress_reporter(board: Board, progress: Progress, started: Instant, cpu: f64) -> Reporter {
    let points = crate::superko::solve::opening_points(&board);
    std::sync::Arc::new(move |event| {
        let clock = started.elapsed().as_secs_f64();
        let processor = cpu_seconds() - cpu;
        match event {
            SolverProgress::Solved {
                opening,
                value,
                states,
            } => eprintln!(
                "{board} opening {} {value:+}: {states} states; {clock:.1} s, {processor:.1} s of processor since the board began",
                board.point_name(points[opening])
            ),
            SolverProgress::Iteration { opening, iteration } if progress == Progress::Iterations => {
                let horizon = iteration
                    .horizon
                    .map_or("none".to_string(), |h| h.to_string());
                let result = if iteration.proven {
                    format!("{:+}", iteration.value)
                } else {
                    "unknown".to_string()
                };
                eprintln!(
                    "{board} opening {} window ({:+}, {:+}) horizon {horizon}: {result}, {} states, {} recalled, {} stores (footprints of {:.1} items); {clock:.1} s, {processor:.1} s of processor",
                    board.point_name(points[opening]),
                    iteration.alpha,
                    iteration.beta,
                    iteration.states,
                    iteration.recalled,
                    iteration.stores,
                    iteration.footprint_keys as f64 / iteration.stores.max(1) as f64
                )
            }
            SolverProgress::Iteration { .. } => {}
        }
    })
}

fn bench_run(
    board: Board,
    rule: Superko,
    options: Options,
    threads: usize,
    budget: u64,
    progress: Progress,
) -> BenchRun {
    let started = Instant::now();
    let cpu = cpu_seconds();
    let report =
        (progress != Progress::Quiet).then(|| progress_reporter(board, progress, started, cpu));
    let openings = solve_openings(board, rule, options, threads, budget, report);
    let seconds = started.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu;
    if progress == Progress::Iterations {
        for solver in &openings.solvers {
            print_profile(board, solver);
        }
    }
    BenchRun {
        values: (!openings.stopped()).then(|| openings.values.clone()),
        states: openings.states.clone(),
        threads: openings.solvers.len(),
        stats: openings.stats(),
        used: openings.table_used(),
        size: openings.table_size(),
        seconds,
        cpu,
    }
}

/// `smallgo bench superko`.
pub fn bench(arguments: &BenchSuperkoArguments) -> ExitCode {
    let boards: Vec<Board> = if arguments.boards.is_empty() {
        ["1x7", "1x8", "1x9"]
            .iter()
            .map(|b| b.parse().expect("valid"))
            .collect()
    } else {
        arguments.boards.clone()
    };
    let rule = arguments.rules.rule();
    for &board in &boards {
        if Game::new(board, rule).is_err() {
            eprintln!(
                "smallgo: bench superko: board {board}: superko is solved on plain boards of at most {} points",
                crate::superko::MAX_POINTS
            );
            return ExitCode::from(super::EXIT_FAILURE);
        }
    }
    let threads = arguments.threads as usize;
    let memory = (arguments.tt_memory << 20) / arguments.threads;
    let sized = Options::default().with_memory(memory);
    let full = match arguments.table_bits {
        None => sized,
        Some(table_bits) => Options {
            table_bits,
            arena_keys: (memory.saturating_sub((1u64 << table_bits) * SLOT_BYTES) / 16)
                .max(1 << 10),
            ..sized
        },
    };
    let full = Options {
        deepening: arguments.deepening,
        deepening_step: arguments.deepening_step,
        alive: arguments.alive_bounds,
        etc: !arguments.no_etc,
        recall_unknown: !arguments.no_recall_unknown,
        proof_numbers: arguments.proof_numbers,
        ..full
    };
    for &board in &boards {
        let BenchRun {
            values,
            states,
            threads,
            stats,
            used,
            size,
            seconds,
            cpu,
        } = bench_run(
            board,
            rule,
            full,
            threads,
            if arguments.profile {
                arguments.budget
            } else {
                0
            },
            if arguments.profile {
                Progress::Iterations
            } else {
                Progress::Openings
            },
        );
        let Some(values) = values else {
            eprintln!(
                "smallgo: bench superko: {board}: gave up after {} states, {seconds:.2} s",
                stats.nodes
            );
            continue;
        };
        let full_nodes = stats.nodes.max(1);
        let text: Vec<String> = values
            .iter()
            .map(|&(p, v)| format!("{} {v:+}", board.point_name(p)))
            .collect();
        let per_opening: Vec<String> = values
            .iter()
            .zip(&states)
            .map(|(&(p, _), s)| format!("{} {s}", board.point_name(p)))
            .collect();
        let mut object = Json::kind("bench-superko")
            .with("board", board.to_string())
            .with("rules", rule.name())
            .with(
                "openings",
                Json::list(values.iter().zip(&states).map(|(&(p, v), &s)| {
                    Json::object()
                        .with("point", board.point_name(p))
                        .with("value", v)
                        .with("states", s)
                })),
            )
            .with("threads", threads)
            .with("empty_board", empty_board_value(&values))
            .with("seconds", seconds)
            .with("cpu_seconds", cpu)
            .with("states", stats.nodes)
            .with("states_per_second", stats.nodes as f64 / seconds.max(1e-9))
            .with("searches", stats.searches)
            .with("table_hits", stats.table_hits)
            .with("table_settled", stats.table_cutoffs)
            .with("table_shared", stats.table_shared)
            .with("table_stores", stats.table_stores)
            .with("table_slots_used", used)
            .with("table_slots", size)
            .with(
                "footprint_mean_keys",
                stats.footprint_keys as f64 / stats.table_stores.max(1) as f64,
            )
            .with("refusals", stats.refusals)
            .with("longest_line", stats.max_depth)
            .with("alive_settled", stats.alive)
            .with("total_settled", stats.total)
            .with("etc_cutoffs", stats.etc)
            .with("table_evicted", stats.evicted)
            .with("footprints_too_long", stats.too_long)
            .with("unknown_recalled", stats.recalled);
        let written = if arguments.json {
            Ok(())
        } else {
            outln!(
            "{board} {rule}: openings {}; empty board {:+}\n  {:.2} s ({:.2} s of processor) on {threads} thread{}, {} states ({}), {:.0} states/s, {} searches, table {} hits ({} settled at once, {} from another history), {} stores (footprints of {:.1} items on average), {} of {} slots used, {} superko refusals, longest line {}\n  settled by alive points {}, by total positions {}; {} enhanced transposition cut-offs; {} entries evicted, {} footprints too long to store; {} unknown results recalled",
            text.join(", "),
            empty_board_value(&values),
            seconds,
            cpu,
            if threads == 1 { "" } else { "s" },
            stats.nodes,
            per_opening.join(", "),
            stats.nodes as f64 / seconds.max(1e-9),
            stats.searches,
            stats.table_hits,
            stats.table_cutoffs,
            stats.table_shared,
            stats.table_stores,
            stats.footprint_keys as f64 / stats.table_stores.max(1) as f64,
            used,
            size,
            stats.refusals,
            stats.max_depth,
            stats.alive,
            stats.total,
            stats.etc,
            stats.evicted,
            stats.too_long,
            stats.recalled
        )
        };
        if let Err(error) = written {
            return output_failed(&error);
        }
        let mut aids = Vec::new();
        if arguments.pruning {
            let variants = [
                if full.table_bits == 0 {
                    (
                        "with a transposition table of 2^16 entries",
                        Options {
                            table_bits: 16,
                            ..full
                        },
                    )
                } else {
                    (
                        "no transposition table",
                        Options {
                            table_bits: 0,
                            ..full
                        },
                    )
                },
                (
                    "no sharing between histories (the table keyed on the whole seen set)",
                    Options {
                        share: false,
                        ..full
                    },
                ),
                (
                    "one full-window search (no MTD(f))",
                    Options {
                        mtdf: false,
                        ..full
                    },
                ),
                (
                    "no move ordering by tables and captures",
                    Options {
                        ordering: false,
                        ..full
                    },
                ),
                (
                    "with the history heuristic",
                    Options {
                        history: true,
                        ..full
                    },
                ),
                (
                    "bounds from the points each side keeps (alive strings, their eyes) switched",
                    Options {
                        alive: !full.alive,
                        ..full
                    },
                ),
                (
                    "enhanced transposition cut-offs switched",
                    Options {
                        etc: !full.etc,
                        ..full
                    },
                ),
                (
                    "no settling of total positions (Theorem 4 as proven here)",
                    Options {
                        total: false,
                        ..full
                    },
                ),
                (
                    "recalling unknown results switched",
                    Options {
                        recall_unknown: !full.recall_unknown,
                        ..full
                    },
                ),
                (
                    "no iterative deepening",
                    Options {
                        deepening: 0,
                        ..full
                    },
                ),
                (
                    "no end by a pass first",
                    Options {
                        pass_first: false,
                        ..full
                    },
                ),
                (
                    "no ceiling cut-off",
                    Options {
                        ceiling: false,
                        ..full
                    },
                ),
            ];
            for (name, options) in variants {
                let BenchRun {
                    values: other,
                    stats,
                    seconds,
                    ..
                } = bench_run(
                    board,
                    rule,
                    options,
                    threads,
                    arguments.budget,
                    Progress::Quiet,
                );
                let given_up = other.is_none();
                let figure = match other {
                    None => format!(
                        "over {} states, given up after {seconds:.2} s",
                        arguments.budget
                    ),
                    Some(other) => {
                        if other != values {
                            eprintln!("smallgo: bench superko: {board}: {name} finds other values: {other:?}");
                            return ExitCode::from(super::EXIT_FAILURE);
                        }
                        format!(
                            "{} states ({:.2} times), {seconds:.2} s",
                            stats.nodes,
                            stats.nodes as f64 / full_nodes as f64
                        )
                    }
                };
                aids.push(
                    Json::object()
                        .with("run", name)
                        .with("given_up", given_up)
                        .with("states", (!given_up).then_some(stats.nodes))
                        .with(
                            "times_the_states",
                            (!given_up).then(|| stats.nodes as f64 / full_nodes as f64),
                        )
                        .with("seconds", seconds),
                );
                if !arguments.json {
                    if let Err(error) = outln!("  {name}: {figure}") {
                        return output_failed(&error);
                    }
                }
            }
        }
        if arguments.json {
            object = object.with("aids", arguments.pruning.then(|| Json::list(aids)));
            if let Err(error) = outln!("{object}") {
                return output_failed(&error);
            }
        }
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arguments(board: &str, rules: RulesArgument) -> RulesArguments {
        RulesArguments {
            board: board.parse().unwrap(),
            rules,
            json: false,
            tables: None,
        }
    }

    #[test]
    fn both_rule_sets_side_by_side_on_1x3() {
        let comparison = compare(&arguments("1x3", RulesArgument::PositionalSuperko)).unwrap();
        assert!(comparison.source.is_some(), "1x3 has a built-in table");
        let rows: Vec<(Option<usize>, i32)> = comparison
            .rows
            .iter()
            .map(|r| (r.point.map(|p| p.index()), r.superko))
            .collect();
        // Weninger and Hayward's table: -3 at the end, +3 in the middle.
        assert_eq!(rows, vec![(None, 3), (Some(0), -3), (Some(1), 3)]);
        // Loop-draw gives 1x3 to Black by 3 as well (SPEC section 7).
        let empty = comparison.rows[0].loop_draw.unwrap();
        assert_eq!(empty.result(), 3);
        assert!(!comparison.rows[0].differs());
        let text = json(&comparison).to_string();
        assert!(text.starts_with(r#"{"kind":"rules","board":"1x3","rules":"positional-superko""#));
        assert!(text.contains(r#"{"point":"A1","loop_draw":{"black_can_force":"#));
        assert!(text.contains(r#""superko":-3"#), "{text}");
    }

    #[test]
    fn a_board_too_large_is_refused_with_its_name() {
        let error = compare(&arguments("5x6", RulesArgument::SituationalSuperko))
            .err()
            .unwrap();
        assert!(error.contains("board 5x6"), "{error}");
    }

    #[test]
    fn loop_draw_values_read_as_results() {
        let draw = LoopDraw {
            black: Some(-2),
            white: None,
        };
        assert_eq!(draw.result(), 0);
        assert_eq!(draw.exact(), None);
        assert_eq!(draw.text(), "draw (B forces -2, W forces none)");
        let win = LoopDraw {
            black: Some(4),
            white: Some(-4),
        };
        assert_eq!(
            (win.result(), win.exact(), win.text()),
            (4, Some(4), "+4".to_string())
        );
    }
}
