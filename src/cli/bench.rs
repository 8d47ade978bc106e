//! `smallgo bench`: the figures behind the performance goals, printed, so
//! that they can be reproduced with one command.
//!
//! - `bench build [BOARD...]` builds boards one after another, each in a
//!   fresh process of this program (`bench row`), and prints, per board:
//!   states, edges, wall and CPU time, peak memory, bytes per state in
//!   memory and on disk, states/s, edges/s and the result at komi 0; with
//!   `--json`, each board's `build` object (`docs/json.md`).
//! - `bench engine` runs this binary as a GTP engine, as a controller would,
//!   and measures the first reply, `genmove` on 4x4, and resident memory
//!   after every shipped board has been played on; with `--json`, as one
//!   `bench-engine` object.
//! - `bench problems` solves a fixed set of life-and-death problems of
//!   growing size (`PROBLEMS`) under a memory limit and prints, per
//!   problem: empty points, states, edges, pruned states, wall time, peak
//!   memory (measured and counted), bytes per state and the status; a
//!   problem past the limit prints the figures it reached when refused;
//!   the full solver runs only up to `FULL_MAX_EMPTY` empty points. Then
//!   the proof search (`problem::search`) on the same problem: states
//!   expanded, table entries, wall time, peak memory and the status.
//!   `--baseline` runs the first solver alongside. With `--json`, one
//!   `bench-problem` object a problem and ko assumption. `--solve` runs
//!   instead `smallgo solve`'s whole work on each problem, set on a 19x19
//!   board (`solve::bench`), then on the classic kills and kos of
//!   `gtp-tests/problems/large` (`CLASSICS`, built in), and prints its wall
//!   and CPU time, peak memory and the status with each side first; with
//!   `--json`, one `bench-solve` object a problem.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::time::Instant;

use super::build::{build_checked, check_folder, summary_json};
use super::json::Json;
use super::solve;
use super::EXIT_FAILURE;
use crate::build::BuildOptions;
use crate::common::units::human_bytes;
use crate::problem::baseline::Baseline;
use crate::problem::input::{self, InputOptions};
use crate::problem::search::{Options, Order, Repetitions, Search, SearchLimits};
use crate::problem::solve::{Limits, Solution, Status, TooLarge};
use crate::problem::{KoAssumption, Problem};
use crate::rules::board::Board;
use crate::rules::colour::Colour;
use crate::solver::plan::{check_build, Room};
use crate::table::built_in;

/// The boards `bench build` builds when none are named: the goals of the
/// database issue.
pub const DEFAULT_BOARDS: &[&str] = &["4x4", "3x5", "2x8"];

const HEADER: &str = "board         states          edges   wall s    cpu s       peak      index  mem B/st disk B/st   states/s    edges/s  result";

/// `smallgo bench build`: each board is built by a fresh process of this
/// program (`bench row`), so that each peak memory figure is its own.
pub fn build(
    boards: &[Board],
    folder: Option<PathBuf>,
    options: BuildOptions,
    as_json: bool,
) -> ExitCode {
    let (folder, scratch) = match folder {
        Some(folder) => (folder, false),
        None => (
            std::env::temp_dir().join(format!("smallgo-bench-{}", std::process::id())),
            true,
        ),
    };
    if let Err(message) = check_folder(&folder) {
        eprintln!("smallgo: {message}");
        return ExitCode::from(EXIT_FAILURE);
    }
    for board in boards {
        if let Err(message) = check_build(board, &folder, Room::for_build(&folder, options.memory))
        {
            eprintln!("smallgo: {message}");
            return ExitCode::from(EXIT_FAILURE);
        }
    }
    let program = match std::env::current_exe() {
        Ok(program) => program,
        Err(error) => {
            eprintln!("smallgo: cannot find this program to run the builds: {error}");
            return ExitCode::from(EXIT_FAILURE);
        }
    };
    let mut status = ExitCode::SUCCESS;
    let mut written = if as_json { Ok(()) } else { outln!("{HEADER}") };
    for board in boards {
        if written.is_err() {
            break;
        }
        let output = Command::new(&program)
            .args(["bench", "row", &board.name(), "--tables"])
            .arg(&folder)
            .args([
                "--checkpoint-interval",
                &options.checkpoint_interval.as_secs().to_string(),
            ])
            .args(
                options
                    .memory
                    .map(|bytes| vec!["--memory".to_string(), bytes.to_string()])
                    .unwrap_or_default(),
            )
            .args(options.verify.then_some("--verify"))
            .args(as_json.then_some("--json"))
            .stdin(Stdio::null())
            .stderr(Stdio::inherit())
            .output();
        match output {
            Ok(output) if output.status.success() => {
                written =
                    super::write_out(format_args!("{}", String::from_utf8_lossy(&output.stdout)));
            }
            Ok(output) => {
                eprintln!(
                    "smallgo: bench: building {board} failed ({})",
                    output.status
                );
                status = ExitCode::from(output.status.code().map_or(EXIT_FAILURE, |c| c as u8));
                break;
            }
            Err(error) => {
                eprintln!("smallgo: bench: cannot run {}: {error}", program.display());
                status = ExitCode::from(EXIT_FAILURE);
                break;
            }
        }
    }
    let written = written.and_then(|()| {
        if as_json {
            return Ok(());
        }
        outln!(
            "mem B/st: peak resident memory beyond the start-up memory and the index, per state; \
             edges/s: edges of the state graph over wall time"
        )
    });
    if scratch {
        let _ = std::fs::remove_dir_all(&folder);
    }
    match written {
        Err(error) => super::output_failed(&error),
        Ok(()) => status,
    }
}

/// `smallgo bench row RxC --tables DIR`: builds one board and prints its
/// line of the `bench build` table, or with `as_json` its `build` object.
pub fn row(board: Board, folder: PathBuf, options: BuildOptions, as_json: bool) -> ExitCode {
    match build_checked(board, &folder, options) {
        Ok(report) if as_json => match outln!("{}", summary_json(board, &report)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => super::output_failed(&error),
        },
        Ok(report) => {
            let states = report.counts.states as f64;
            let written = outln!(
                "{:<6} {:>13} {:>14} {:>8.2} {:>8.2} {:>10} {:>10} {:>9} {:>9.3} {:>9.2}M {:>9.2}M {:>7}",
                board.name(),
                report.counts.states,
                report.stats.edges,
                report.seconds,
                report.cpu_seconds,
                report.peak_bytes.map_or("?".to_string(), |b| human_bytes(b as f64)),
                human_bytes(report.index_bytes as f64),
                report.rest_per_state().map_or("?".to_string(), |b| format!("{b:.2}")),
                report.written.bytes as f64 / states,
                states / report.seconds / 1e6,
                report.stats.edges as f64 / report.seconds / 1e6,
                report.result
            );
            match written {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => super::output_failed(&error),
            }
        }
        Err(code) => code,
    }
}

/// A GTP engine process this benchmark talks to.
struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Engine {
    fn start(program: &Path) -> std::io::Result<Engine> {
        let mut child = Command::new(program)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let input = child.stdin.take().expect("piped");
        let output = BufReader::new(child.stdout.take().expect("piped"));
        Ok(Engine {
            child,
            input,
            output,
        })
    }

    fn ask(&mut self, command: &str) -> std::io::Result<String> {
        writeln!(self.input, "{command}")?;
        self.input.flush()?;
        let mut reply = String::new();
        loop {
            let mut line = String::new();
            if self.output.read_line(&mut line)? == 0 {
                return Err(std::io::Error::other(format!(
                    "the engine stopped after `{command}`"
                )));
            }
            if line.trim_end().is_empty() {
                break;
            }
            reply.push_str(&line);
        }
        if !reply.starts_with('=') {
            return Err(std::io::Error::other(format!(
                "`{command}` failed: {}",
                reply.trim()
            )));
        }
        Ok(reply[1..].trim().to_string())
    }

    /// Resident memory now and at its peak, from /proc (Linux).
    fn memory(&self) -> (Option<u64>, Option<u64>) {
        let Ok(status) = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
        else {
            return (None, None);
        };
        let field = |key: &str| -> Option<u64> {
            let line = status.lines().find(|l| l.starts_with(key))?;
            Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? * 1024)
        };
        (field("VmRSS:"), field("VmHWM:"))
    }

    fn quit(mut self) {
        let _ = self.ask("quit");
        let _ = self.child.wait();
    }
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    values[values.len() / 2]
}

fn percentile(values: &mut [f64], fraction: f64) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    values[((values.len() - 1) as f64 * fraction).round() as usize]
}

/// What `bench engine` measures, in milliseconds and bytes.
struct EngineFigures {
    /// Process start to the answer to `protocol_version`, one a start.
    first_reply: Vec<f64>,
    /// `genmove` on 4x4, one a move.
    genmove: Vec<f64>,
    /// The built-in boards played on before memory is read.
    boards: usize,
    /// Resident memory then, and at its peak.
    resident: Option<u64>,
    peak: Option<u64>,
}

fn engine_figures(program: &Path) -> Result<EngineFigures, std::io::Error> {
    // First reply: process start to the answer to protocol_version.
    let mut first = Vec::new();
    for _ in 0..20 {
        let started = Instant::now();
        let mut engine = Engine::start(program)?;
        engine.ask("protocol_version")?;
        first.push(started.elapsed().as_secs_f64() * 1e3);
        engine.quit();
    }

    // genmove on 4x4, once the table is open: self-play at several komis.
    let mut engine = Engine::start(program)?;
    engine.ask("boardsize 4")?;
    engine.ask("smallgo-value")?;
    let mut times = Vec::new();
    for komi in ["0", "0.5", "1", "-3", "2", "6.5", "-0.5", "3"] {
        engine.ask("clear_board")?;
        engine.ask(&format!("komi {komi}"))?;
        let mut passes = 0;
        for ply in 0..200 {
            let colour = if ply % 2 == 0 { "b" } else { "w" };
            let started = Instant::now();
            let mv = engine.ask(&format!("genmove {colour}"))?;
            times.push(started.elapsed().as_secs_f64() * 1e3);
            passes = if mv == "pass" { passes + 1 } else { 0 };
            if passes == 2 {
                break;
            }
        }
    }
    engine.quit();

    // Memory after playing on every built-in board.
    let mut engine = Engine::start(program)?;
    let mut boards: Vec<Board> = built_in::tables()
        .filter_map(|(name, _)| name.parse().ok())
        .collect();
    boards.sort();
    for board in &boards {
        engine.ask(&format!("smallgo-topology {}", board.topology().word()))?;
        engine.ask(&format!(
            "rectangular_boardsize {} {}",
            board.columns(),
            board.rows()
        ))?;
        engine.ask("genmove b")?;
        engine.ask("genmove w")?;
        engine.ask("smallgo-value")?;
    }
    let (resident, peak) = engine.memory();
    engine.quit();
    Ok(EngineFigures {
        first_reply: first,
        genmove: times,
        boards: boards.len(),
        resident,
        peak,
    })
}

/// The figures as the report's lines.
fn print_engine(figures: &mut EngineFigures) -> std::io::Result<()> {
    let first = &mut figures.first_reply;
    outln!(
        "first reply (start to protocol_version): median {:.2} ms, max {:.2} ms over {} starts",
        median(first),
        first.iter().cloned().fold(0.0, f64::max),
        first.len()
    )?;
    let times = &mut figures.genmove;
    let count = times.len();
    outln!(
        "genmove on 4x4 (round trip through the pipe): median {:.3} ms, 90th percentile {:.3} ms, max {:.3} ms over {count} moves",
        median(times),
        percentile(times, 0.9),
        times.iter().cloned().fold(0.0, f64::max)
    )?;
    outln!(
        "resident memory after playing on all {} built-in boards: {} now, {} at the peak",
        figures.boards,
        figures
            .resident
            .map_or("?".to_string(), |b| human_bytes(b as f64)),
        figures
            .peak
            .map_or("?".to_string(), |b| human_bytes(b as f64)),
    )
}

/// The figures as a `bench-engine` object (`docs/json.md`).
fn engine_json(figures: &mut EngineFigures) -> Json {
    let first = &mut figures.first_reply;
    let first_reply = Json::object()
        .with("median_ms", median(first))
        .with("max_ms", first.iter().cloned().fold(0.0, f64::max))
        .with("starts", first.len());
    let times = &mut figures.genmove;
    let genmove = Json::object()
        .with("board", "4x4")
        .with("median_ms", median(times))
        .with("p90_ms", percentile(times, 0.9))
        .with("max_ms", times.iter().cloned().fold(0.0, f64::max))
        .with("moves", times.len());
    let memory = Json::object()
        .with("boards", figures.boards)
        .with("resident_bytes", figures.resident)
        .with("peak_bytes", figures.peak);
    Json::kind("bench-engine")
        .with("first_reply", first_reply)
        .with("genmove", genmove)
        .with("memory", memory)
}

/// `smallgo bench engine`.
pub fn engine(as_json: bool) -> ExitCode {
    let program = match std::env::current_exe() {
        Ok(program) => program,
        Err(error) => {
            eprintln!("smallgo: cannot find this program to run it as an engine: {error}");
            return ExitCode::from(EXIT_FAILURE);
        }
    };
    let mut figures = match engine_figures(&program) {
        Ok(figures) => figures,
        Err(error) => {
            eprintln!("smallgo: bench engine: {error}");
            return ExitCode::from(EXIT_FAILURE);
        }
    };
    let written = if as_json {
        outln!("{}", engine_json(&mut figures))
    } else {
        print_engine(&mut figures)
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => super::output_failed(&error),
    }
}

/// A problem of `bench problems`: Black attacks the white string at
/// `target`; walls (`#`) are the board's edge or Black's safe stones.
struct BenchProblem {
    name: &'static str,
    diagram: &'static str,
    target: &'static str,
}

/// The problems of `bench problems`, by family and growing number of
/// empty points: a white group along the lower edge from the corner
/// (`corner N`: an eye space on the first line, with a black stone in it
/// from 7 points on, and two rows of outside liberties), white groups in
/// the corner with a straight three (`three N`) or a bent eye space
/// (`bent N`) and open rows above them, and white rings in the centre
/// with liberties all around (`centre N`). Black to move first.
const PROBLEMS: &[BenchProblem] = &[
    BenchProblem {
        name: "corner 5",
        diagram: "#..##/OOOOO/.X..O",
        target: "A2",
    },
    BenchProblem {
        name: "corner 7",
        diagram: "..###/..###/OOOOO/.X..O",
        target: "A2",
    },
    BenchProblem {
        name: "corner 8",
        diagram: "..###/..###/OOOOO/....O",
        target: "A2",
    },
    BenchProblem {
        name: "corner 10",
        diagram: "...###/...###/OOOOOO/.X...O",
        target: "A2",
    },
    BenchProblem {
        name: "corner 11",
        diagram: "...####/...####/OOOOOOO/.X....O",
        target: "A2",
    },
    BenchProblem {
        name: "corner 13",
        diagram: "....###/....###/OOOOOOO/.X....O",
        target: "A2",
    },
    BenchProblem {
        name: "corner 14",
        diagram: "....####/....####/OOOOOOOO/.X.....O",
        target: "A2",
    },
    BenchProblem {
        name: "corner 16",
        diagram: ".....###/.....###/OOOOOOOO/.X.....O",
        target: "A2",
    },
    BenchProblem {
        name: "centre 17",
        diagram: "...../.OOO./.O.O./.OOO./.....",
        target: "B2",
    },
    BenchProblem {
        name: "corner 20",
        diagram: "......####/......####/OOOOOOOOOO/.X.......O",
        target: "A2",
    },
    BenchProblem {
        name: "centre 20",
        diagram: "....../.OOOO./.O..O./.OOOO./......",
        target: "B2",
    },
    BenchProblem {
        name: "corner 23",
        diagram: ".......####/.......####/OOOOOOOOOOO/.X........O",
        target: "A2",
    },
    BenchProblem {
        name: "corner 26",
        diagram: "........####/........####/OOOOOOOOOOOO/.X.........O",
        target: "A2",
    },
    BenchProblem {
        name: "corner 28",
        diagram: ".........###/.........###/OOOOOOOOOOOO/.X.........O",
        target: "A2",
    },
    BenchProblem {
        name: "corner 30",
        diagram: "..........##/..........##/OOOOOOOOOOOO/.X.........O",
        target: "A2",
    },
    BenchProblem {
        name: "three 15",
        diagram: "......#/......#/OOOOOO#/...OOO#",
        target: "A2",
    },
    BenchProblem {
        name: "three 17",
        diagram: ".......#/.......#/OOOOOOO#/...OOOO#",
        target: "A2",
    },
    BenchProblem {
        name: "three 21",
        diagram: ".........#/.........#/OOOOOOOOO#/...OOOOOO#",
        target: "A2",
    },
    BenchProblem {
        name: "three 24",
        diagram: ".......#/.......#/.......#/OOOOOOO#/...OOOO#",
        target: "A2",
    },
    BenchProblem {
        name: "bent 16",
        diagram: "......#/......#/OOOOOO#/.OOOOO#/...OOO#",
        target: "A3",
    },
    BenchProblem {
        name: "bent 20",
        diagram: "........#/........#/OOOOOOOO#/.OOOOOOO#/...OOOOO#",
        target: "A3",
    },
    BenchProblem {
        name: "bent 26",
        diagram: "...........#/...........#/OOOOOOOOOOO#/.OOOOOOOOOO#/...OOOOOOOO#",
        target: "A3",
    },
    BenchProblem {
        name: "centre 23",
        diagram: "......./.OOOOO./.O...O./.OOOOO./.......",
        target: "B2",
    },
    BenchProblem {
        name: "centre 26",
        diagram: "......../.OOOOOO./.O....O./.OOOOOO./........",
        target: "B2",
    },
    BenchProblem {
        name: "centre 29",
        diagram: "........./.OOOOOOO./.O.....O./.OOOOOOO./.........",
        target: "B2",
    },
];

/// Resident memory now (Linux), in bytes.
fn resident_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = text.lines().find(|l| l.starts_with("VmRSS:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? * 1024)
}

/// Runs `solve`, returning its result, its wall time and the peak resident
/// memory it added.
fn measured<T>(solve: impl FnOnce() -> T) -> (T, f64, Option<u64>) {
    crate::common::host::reset_peak_memory();
    let before = resident_memory();
    let started = Instant::now();
    let result = solve();
    let seconds = started.elapsed().as_secs_f64();
    let peak = crate::common::host::peak_memory()
        .zip(before)
        .map(|(peak, before)| peak.saturating_sub(before));
    (result, seconds, peak)
}

fn status_word(status: Status) -> String {
    match status.0 {
        Some(plies) => format!("killed in {plies}"),
        None => "lives".to_string(),
    }
}

/// The most empty points of a problem the full solver is run on (16
/// take it about 100 s and 4 GiB).
const FULL_MAX_EMPTY: usize = 16;

/// The proof searches of `bench problems`: the default (proof numbers,
/// with the closure), then (`--compare`) the earlier treatment of
/// repetitions.
const SEARCHES: [Options; 2] = [
    Options {
        repetitions: Repetitions::Closure,
        order: Order::ProofNumbers,
    },
    Options {
        repetitions: Repetitions::OnPath,
        order: Order::DepthFirst,
    },
];

/// Which problems `bench problems` runs, and how.
pub struct ProblemChoice {
    /// Only the problems of these names (all if empty).
    pub only: Vec<String>,
    /// The most states each proof search expands before it stops with its
    /// figures.
    pub max_nodes: u64,
    /// Also the search with `Repetitions::OnPath`.
    pub compare: bool,
    /// No full solver.
    pub search_only: bool,
    /// Instead of the solvers' single proofs, `smallgo solve`'s whole
    /// work on each problem (`solve_problems`).
    pub solve: bool,
}

/// What one proof search of a problem gave: whether it proved the capture
/// (or why it stopped), the states it expanded, the entries its table
/// kept, its rounds and the provisional losses its closures checked, its
/// wall time, the resident memory it added and its table's peak.
struct SearchFigures {
    repetitions: Repetitions,
    result: Result<bool, String>,
    nodes: u64,
    entries: usize,
    counted: usize,
    rounds: u64,
    closed: u64,
    seconds: f64,
    peak: Option<u64>,
}

fn search_figures(
    problem: &Problem,
    memory: u64,
    max_nodes: u64,
    options: Options,
) -> SearchFigures {
    let limits = SearchLimits {
        max_bytes: memory,
        max_nodes,
    };
    let ((result, nodes, entries, counted, rounds, closed), seconds, peak) =
        measured(|| match Search::with_options(problem, limits, options) {
            Ok(mut search) => {
                let start = search.start();
                let result = search.wins(&start).map_err(|e| e.to_string());
                (
                    result,
                    search.nodes(),
                    search.entries(),
                    search.peak_bytes(),
                    search.rounds(),
                    search.closed(),
                )
            }
            Err(error) => (Err(error.to_string()), 0, 0, 0, 0, 0),
        });
    SearchFigures {
        repetitions: options.repetitions,
        result,
        nodes,
        entries,
        counted,
        rounds,
        closed,
        seconds,
        peak,
    }
}

/// The proof search's line of a problem.
fn search_line(name: &str, ko_word: &str, figures: &SearchFigures) -> std::io::Result<()> {
    let method = match figures.repetitions {
        Repetitions::Closure => "search",
        Repetitions::OnPath => "on-path",
    };
    let SearchFigures {
        nodes,
        entries,
        rounds,
        closed,
        seconds,
        ..
    } = figures;
    let peak_text = figures
        .peak
        .map_or("?".to_string(), |b| human_bytes(b as f64));
    match &figures.result {
        Ok(won) => outln!(
            "{name:<11} {ko_word:<6}   {method:<7} {nodes:>11} expanded {entries:>11} kept {rounds:>3} rounds {closed:>10} closed {seconds:>8.2} s {peak_text:>10} {:>10}  {}",
            human_bytes(figures.counted as f64),
            if *won { "killed" } else { "lives" }
        ),
        Err(error) => outln!(
            "{name:<11} {ko_word:<6}   {method:<7} stopped after {seconds:.2} s ({peak_text} resident, {rounds} rounds): {error}"
        ),
    }
}

/// A proof search as a part of a `bench-problem` object.
fn search_json(figures: &SearchFigures) -> Json {
    let (finished, captured, error) = match &figures.result {
        Ok(won) => (true, Some(*won), None),
        Err(error) => (false, None, Some(error.as_str())),
    };
    Json::object()
        .with(
            "repetitions",
            match figures.repetitions {
                Repetitions::Closure => "closure",
                Repetitions::OnPath => "on-path",
            },
        )
        .with("finished", finished)
        .with("captured", captured)
        .with("expanded", figures.nodes)
        .with("entries", figures.entries)
        .with("rounds", figures.rounds)
        .with("closed", figures.closed)
        .with("seconds", figures.seconds)
        .with("peak_bytes", figures.peak)
        .with("counted_bytes", figures.counted)
        .with("error", error)
}

/// What the full solver gave on a problem, or why it was not run.
enum FullFigures {
    /// Not run: `--search-only`.
    SearchOnly,
    /// Not run: more than `FULL_MAX_EMPTY` empty points.
    TooManyEmpty,
    Solved {
        states: usize,
        edges: usize,
        pruned: usize,
        counted: usize,
        start: Status,
        seconds: f64,
        peak: Option<u64>,
    },
    Refused {
        error: TooLarge,
        seconds: f64,
        peak: Option<u64>,
    },
}

/// The full solver as a part of a `bench-problem` object.
fn full_json(figures: &FullFigures) -> Json {
    let object = Json::object();
    let skipped = match figures {
        FullFigures::SearchOnly => Some("search only".to_string()),
        FullFigures::TooManyEmpty => Some(format!("more than {FULL_MAX_EMPTY} empty points")),
        _ => None,
    };
    match figures {
        FullFigures::SearchOnly | FullFigures::TooManyEmpty => object
            .with("skipped", skipped)
            .with("finished", false)
            .with("captured", None::<bool>)
            .with("plies", None::<u32>)
            .with("states", None::<usize>)
            .with("edges", None::<usize>)
            .with("pruned", None::<usize>)
            .with("seconds", None::<f64>)
            .with("peak_bytes", None::<u64>)
            .with("counted_bytes", None::<usize>)
            .with("error", None::<String>),
        FullFigures::Solved {
            states,
            edges,
            pruned,
            counted,
            start,
            seconds,
            peak,
        } => object
            .with("skipped", None::<String>)
            .with("finished", true)
            .with("captured", start.attacker_wins())
            .with("plies", start.0)
            .with("states", *states)
            .with("edges", *edges)
            .with("pruned", *pruned)
            .with("seconds", *seconds)
            .with("peak_bytes", *peak)
            .with("counted_bytes", *counted)
            .with("error", None::<String>),
        FullFigures::Refused {
            error,
            seconds,
            peak,
        } => {
            let (states, edges) = match error {
                TooLarge::Memory { states, edges, .. } => (Some(*states), Some(*edges)),
                _ => (None, None),
            };
            object
                .with("skipped", None::<String>)
                .with("finished", false)
                .with("captured", None::<bool>)
                .with("plies", None::<u32>)
                .with("states", states)
                .with("edges", edges)
                .with("pruned", None::<usize>)
                .with("seconds", *seconds)
                .with("peak_bytes", *peak)
                .with("counted_bytes", None::<usize>)
                .with("error", error.to_string())
        }
    }
}

/// What the first solver gave on a problem, or why it was not run.
enum BaselineFigures {
    /// Its states would not fit the memory limit.
    Skipped,
    Ran {
        states: usize,
        edges: usize,
        counted: usize,
        start: Status,
        seconds: f64,
        peak: Option<u64>,
        /// Whether its start's value is the full solver's.
        agrees: bool,
        /// The states and counted bytes of the full solver without pruning.
        unpruned_states: usize,
        unpruned_counted: usize,
    },
}

/// The first solver as a part of a `bench-problem` object.
fn baseline_json(figures: &BaselineFigures) -> Json {
    match figures {
        BaselineFigures::Skipped => Json::object()
            .with("skipped", "past the limit")
            .with("captured", None::<bool>)
            .with("plies", None::<u32>)
            .with("states", None::<usize>)
            .with("edges", None::<usize>)
            .with("seconds", None::<f64>)
            .with("peak_bytes", None::<u64>)
            .with("counted_bytes", None::<usize>)
            .with("agrees", None::<bool>)
            .with("unpruned_states", None::<usize>)
            .with("unpruned_counted_bytes", None::<usize>),
        BaselineFigures::Ran {
            states,
            edges,
            counted,
            start,
            seconds,
            peak,
            agrees,
            unpruned_states,
            unpruned_counted,
        } => Json::object()
            .with("skipped", None::<String>)
            .with("captured", start.attacker_wins())
            .with("plies", start.0)
            .with("states", *states)
            .with("edges", *edges)
            .with("seconds", *seconds)
            .with("peak_bytes", *peak)
            .with("counted_bytes", *counted)
            .with("agrees", *agrees)
            .with("unpruned_states", *unpruned_states)
            .with("unpruned_counted_bytes", *unpruned_counted),
    }
}

/// The name of a ko assumption in `bench-problem` objects, as `solve
/// --json` names it.
fn ko_key(ko: KoAssumption) -> &'static str {
    match ko {
        KoAssumption::Basic => "basic",
        KoAssumption::AttackerIgnoresKo => "attacker_ignores_ko",
        KoAssumption::DefenderIgnoresKo => "defender_ignores_ko",
    }
}

const PROBLEMS_HEADER: &str = "problem     ko      empty points      states         edges    pruned   wall s       peak    counted  B/st  start";

/// `smallgo bench problems`: as text, a header, then each problem's lines;
/// with `as_json`, one `bench-problem` object a problem and ko assumption
/// (`docs/json.md`).
pub fn problems(
    memory: u64,
    baseline: bool,
    all_ko: bool,
    max_empty: Option<usize>,
    choice: ProblemChoice,
    as_json: bool,
) -> ExitCode {
    let assumptions: &[KoAssumption] = if all_ko {
        &KoAssumption::ALL
    } else {
        &[KoAssumption::Basic]
    };
    let known = |name: &str| {
        PROBLEMS.iter().any(|p| p.name == name)
            || (choice.solve && CLASSICS.iter().any(|c| c.0 == name))
    };
    if let Some(name) = choice.only.iter().find(|name| !known(name.as_str())) {
        let mut names: Vec<&str> = PROBLEMS.iter().map(|p| p.name).collect();
        if choice.solve {
            names.extend(CLASSICS.iter().map(|c| c.0));
        }
        eprintln!(
            "smallgo: bench problems: --only {name:?}: no such problem (the problems: {})",
            names.join(", ")
        );
        return ExitCode::from(EXIT_FAILURE);
    }
    if choice.solve {
        return solve_problems(memory, max_empty, &choice, as_json);
    }
    let mut written = if as_json {
        Ok(())
    } else {
        outln!(
            "memory limit {}, {} thread(s); peak: resident memory the solve added (measured), \
             counted: the solver's own count of its arrays; B/st: measured peak per state",
            human_bytes(memory as f64),
            rayon::current_num_threads()
        )
        .and_then(|()| outln!("{PROBLEMS_HEADER}"))
    };
    for bench in PROBLEMS {
        if !choice.only.is_empty() && !choice.only.iter().any(|n| n == bench.name) {
            continue;
        }
        let diagram = bench.diagram.replace('/', "\n");
        let problem = match Problem::from_diagram(
            &diagram,
            Colour::Black,
            &[bench.target],
            KoAssumption::Basic,
        ) {
            Ok(problem) => problem,
            Err(error) => {
                eprintln!("smallgo: bench problems: {}: {error}", bench.name);
                return ExitCode::from(EXIT_FAILURE);
            }
        };
        let stones = problem.stones(Colour::Black).len() + problem.stones(Colour::White).len();
        let points = problem.board().points();
        let empty = points - stones;
        if max_empty.is_some_and(|most| empty > most) {
            continue;
        }
        for &ko in assumptions {
            if written.is_err() {
                break;
            }
            let problem = problem.with_ko(ko);
            let ko_word = match ko {
                KoAssumption::Basic => "basic",
                KoAssumption::AttackerIgnoresKo => "att-ko",
                KoAssumption::DefenderIgnoresKo => "def-ko",
            };
            let mut searches = Vec::new();
            for options in SEARCHES {
                if options.repetitions == Repetitions::OnPath && !choice.compare {
                    continue;
                }
                let figures = search_figures(&problem, memory, choice.max_nodes, options);
                if !as_json {
                    written = written.and_then(|()| search_line(bench.name, ko_word, &figures));
                }
                searches.push(figures);
            }
            let full = if choice.search_only {
                FullFigures::SearchOnly
            } else if empty > FULL_MAX_EMPTY {
                FullFigures::TooManyEmpty
            } else {
                let (result, seconds, peak) =
                    measured(|| Solution::with_limit(&problem, Limits::new(memory)));
                match result {
                    Ok(solution) => FullFigures::Solved {
                        states: solution.len(),
                        edges: solution.edges(),
                        pruned: solution.settled(),
                        counted: solution.peak_bytes(),
                        start: solution.start(),
                        seconds,
                        peak,
                    },
                    Err(error) => FullFigures::Refused {
                        error,
                        seconds,
                        peak,
                    },
                }
            };
            if !as_json {
                written =
                    written.and_then(|()| full_line(bench.name, ko_word, empty, points, &full));
            }
            let first = match &full {
                FullFigures::Solved { start, .. } if baseline && written.is_ok() => {
                    Some(baseline_figures(&problem, memory, Some(*start)))
                }
                FullFigures::Refused { .. } if baseline && written.is_ok() => {
                    Some(baseline_figures(&problem, memory, None))
                }
                _ => None,
            };
            if let (Some(first), false) = (&first, as_json) {
                written = written.and_then(|()| baseline_line(first));
            }
            if as_json {
                let object = Json::kind("bench-problem")
                    .with("problem", bench.name)
                    .with(
                        "diagram",
                        super::json::diagram(
                            problem.board(),
                            problem.stones(Colour::Black),
                            problem.stones(Colour::White),
                        ),
                    )
                    .with(
                        "targets",
                        super::json::points(problem.board(), problem.targets()),
                    )
                    .with("to_move", super::json::colour(problem.to_move()))
                    .with("ko_assumption", ko_key(ko))
                    .with("points", points)
                    .with("empty_points", empty)
                    .with("memory_limit_bytes", memory)
                    .with("threads", rayon::current_num_threads())
                    .with("searches", Json::list(searches.iter().map(search_json)))
                    .with("full_solver", full_json(&full))
                    .with("baseline", first.as_ref().map(baseline_json));
                written = written.and_then(|()| outln!("{object}"));
            }
        }
    }
    match written {
        Err(error) => super::output_failed(&error),
        Ok(()) => ExitCode::SUCCESS,
    }
}

/// A problem's diagram on a 19x19 board, as `smallgo solve --diagram`
/// reads it: in the lower left corner, its walls (`#`) Black's stones, and
/// closed by a row of Black's stones above it and a column to its right
/// where it does not reach the board's edge. Black's stones around the
/// region are safe there (docs/life-and-death.md), so a black stone played
/// beside them joins them, which a wall of the bench's own board does not.
fn whole_board(diagram: &str) -> String {
    const SIDE: usize = 19;
    let rows: Vec<Vec<char>> = diagram.split('/').map(|r| r.chars().collect()).collect();
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut board = vec![vec!['.'; SIDE]; SIDE];
    let top = SIDE - rows.len();
    for (i, row) in rows.iter().enumerate() {
        for (j, &c) in row.iter().enumerate() {
            board[top + i][j] = if c == '#' { 'X' } else { c };
        }
    }
    if top > 0 {
        for cell in board[top - 1].iter_mut().take((width + 1).min(SIDE)) {
            *cell = 'X';
        }
    }
    if width < SIDE {
        for row in board.iter_mut().skip(top.saturating_sub(1)) {
            row[width] = 'X';
        }
    }
    board
        .iter()
        .map(|row| row.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("/")
}

/// The classic kills and kos of `gtp-tests/problems/large` (12 to 15
/// empty points, each as its SGF file gives it: region, targets and the
/// stones around), which `bench problems --solve` runs after `PROBLEMS`:
/// name, file, text (built in).
const CLASSICS: &[(&str, &str, &str)] = &[
    (
        "l-group-connected",
        "gtp-tests/problems/large/search/l-group-connected.sgf",
        include_str!("../../gtp-tests/problems/large/search/l-group-connected.sgf"),
    ),
    (
        "l-group",
        "gtp-tests/problems/large/l-group.sgf",
        include_str!("../../gtp-tests/problems/large/l-group.sgf"),
    ),
    (
        "j-group",
        "gtp-tests/problems/large/search/j-group.sgf",
        include_str!("../../gtp-tests/problems/large/search/j-group.sgf"),
    ),
    (
        "ten-thousand-year-ko",
        "gtp-tests/problems/large/search/ten-thousand-year-ko.sgf",
        include_str!("../../gtp-tests/problems/large/search/ten-thousand-year-ko.sgf"),
    ),
    (
        "d-three-open",
        "gtp-tests/problems/large/search/d-three-open.sgf",
        include_str!("../../gtp-tests/problems/large/search/d-three-open.sgf"),
    ),
];

const SOLVE_HEADER: &str = "problem     empty  solver   wall s    cpu s       peak  Black first                        White first";

/// `smallgo bench problems --solve`: each problem (on a 19x19 board,
/// `whole_board`) through `smallgo solve`'s whole work (`solve::bench`):
/// both sides first, the three ko assumptions, every first move, the
/// plies, the main line, the seki tests and the solution tree; printed
/// with its wall time, CPU time, peak resident memory and the status with
/// each side first, or with `as_json` one `bench-solve` object a problem
/// (`docs/json.md`). A problem past the limits prints why.
fn solve_problems(
    memory: u64,
    max_empty: Option<usize>,
    choice: &ProblemChoice,
    as_json: bool,
) -> ExitCode {
    let mut written = if as_json {
        Ok(())
    } else {
        outln!(
            "memory limit {}, {} thread(s); each problem as `smallgo solve --memory {} -o`; \
             peak: resident memory the solve added",
            human_bytes(memory as f64),
            rayon::current_num_threads(),
            human_bytes(memory as f64)
        )
        .and_then(|()| outln!("{SOLVE_HEADER}"))
    };
    // Each problem: its name, its diagram (a classic's: its file), its
    // empty points and the problem located on its board.
    let diagrams = PROBLEMS.iter().map(|bench| {
        // The diagram's empty points are the region's: its walls and the
        // stones closing it are outside.
        let empty = bench.diagram.chars().filter(|&c| c == '.').count();
        let diagram = whole_board(bench.diagram);
        let options = InputOptions {
            region: None,
            targets: Some(bench.target.to_string()),
            player: Some(Colour::Black),
        };
        let located = input::from_diagram(&diagram, &options);
        (bench.name, diagram, empty, located)
    });
    let classics = CLASSICS.iter().map(|&(name, path, sgf)| {
        let options = InputOptions {
            region: None,
            targets: None,
            player: None,
        };
        let located = input::from_sgf(sgf, &options);
        let empty = located.as_ref().map_or(0, |located| {
            located
                .region()
                .iter()
                .filter(|&&v| located.setup().stone(v).is_none())
                .count()
        });
        (name, path.to_string(), empty, located)
    });
    for (name, diagram, empty, located) in diagrams.chain(classics) {
        if written.is_err() {
            break;
        }
        if !choice.only.is_empty() && !choice.only.iter().any(|n| n == name) {
            continue;
        }
        if max_empty.is_some_and(|most| empty > most) {
            continue;
        }
        let located = match located {
            Ok(located) => located,
            Err(error) => {
                let result = Err(error.to_string());
                written = written.and_then(|()| {
                    if as_json {
                        outln!(
                            "{}",
                            solve_json(name, &diagram, empty, memory, &result, 0.0, 0.0, None)
                        )
                    } else {
                        solve_line(name, empty, &result, 0.0, 0.0, None)
                    }
                });
                continue;
            }
        };
        let cpu_before = crate::common::host::cpu_seconds();
        let (result, seconds, peak) =
            measured(|| solve::bench(located, name.to_string(), memory, choice.max_nodes));
        // The kernel counts CPU time in hundredths of a second.
        let cpu = ((crate::common::host::cpu_seconds() - cpu_before) * 100.0).round() / 100.0;
        written = written.and_then(|()| {
            if as_json {
                outln!(
                    "{}",
                    solve_json(name, &diagram, empty, memory, &result, seconds, cpu, peak)
                )
            } else {
                solve_line(name, empty, &result, seconds, cpu, peak)
            }
        });
    }
    match written {
        Err(error) => super::output_failed(&error),
        Ok(()) => ExitCode::SUCCESS,
    }
}

/// A side's status in words: the JSON word, the plies of the capture and
/// the correct first moves.
fn side_words(side: &solve::BenchSide) -> String {
    let mut words = side.status.to_string();
    if let Some(plies) = side.plies {
        words.push_str(&format!(" {plies}"));
    }
    if !side.correct.is_empty() {
        words.push_str(&format!(" ({})", side.correct.join(" ")));
    }
    words
}

/// The line of a problem of `bench problems --solve`.
fn solve_line(
    name: &str,
    empty: usize,
    result: &Result<solve::BenchSolve, String>,
    seconds: f64,
    cpu: f64,
    peak: Option<u64>,
) -> std::io::Result<()> {
    let peak_text = peak.map_or("?".to_string(), |b| human_bytes(b as f64));
    match result {
        Ok(solved) => {
            let sides: Vec<String> = solved.sides.iter().map(side_words).collect();
            outln!(
                "{name:<11} {empty:>5}  {:<6} {seconds:>8.2} {cpu:>8.2} {peak_text:>10}  {:<34} {}",
                if solved.search { "search" } else { "full" },
                sides.first().map_or("", String::as_str),
                sides.get(1).map_or("", String::as_str),
            )
        }
        Err(error) => outln!(
            "{name:<11} {empty:>5}  refused after {seconds:.2} s ({cpu:.2} s CPU, {peak_text} resident): {error}"
        ),
    }
}

/// A problem of `bench problems --solve` as a `bench-solve` object.
#[allow(clippy::too_many_arguments)]
fn solve_json(
    name: &str,
    diagram: &str,
    empty: usize,
    memory: u64,
    result: &Result<solve::BenchSolve, String>,
    seconds: f64,
    cpu: f64,
    peak: Option<u64>,
) -> Json {
    let object = Json::kind("bench-solve")
        .with("problem", name)
        .with("diagram", diagram)
        .with("empty_points", empty)
        .with("memory_limit_bytes", memory)
        .with("threads", rayon::current_num_threads())
        .with("seconds", seconds)
        .with("cpu_seconds", cpu)
        .with("peak_bytes", peak);
    match result {
        Ok(solved) => {
            let sides = solved.sides.iter().map(|side| {
                Json::object()
                    .with("to_move", super::json::colour(side.first))
                    .with("status", side.status)
                    .with("plies", side.plies)
                    .with(
                        "correct",
                        Json::list(side.correct.iter().map(String::as_str)),
                    )
                    .with("main_line_plies", side.main_line)
            });
            object
                .with("finished", true)
                .with("solver", if solved.search { "search" } else { "full" })
                .with("sides", Json::list(sides))
                .with("seki_untested", solved.seki_untested)
                .with("tree_bytes", solved.tree_bytes)
                .with("error", None::<String>)
        }
        Err(error) => object
            .with("finished", false)
            .with("solver", None::<String>)
            .with("sides", Json::list(std::iter::empty::<Json>()))
            .with("seki_untested", None::<usize>)
            .with("tree_bytes", None::<usize>)
            .with("error", error.as_str()),
    }
}

/// The full solver's line of a problem.
fn full_line(
    name: &str,
    ko_word: &str,
    empty: usize,
    points: usize,
    figures: &FullFigures,
) -> std::io::Result<()> {
    match figures {
        FullFigures::SearchOnly => Ok(()),
        FullFigures::TooManyEmpty => outln!(
            "{:<11} {:<6}   full solver: skipped (more than {FULL_MAX_EMPTY} empty points)",
            "",
            ""
        ),
        FullFigures::Solved {
            states,
            edges,
            pruned,
            counted,
            start,
            seconds,
            peak,
        } => outln!(
            "{:<11} {:<6} {:>6} {:>6} {:>11} {:>13} {:>9} {:>8.2} {:>10} {:>10} {:>5} {}",
            name,
            ko_word,
            empty,
            points,
            states,
            edges,
            pruned,
            seconds,
            peak.map_or("?".to_string(), |b| human_bytes(b as f64)),
            human_bytes(*counted as f64),
            peak.map_or("?".to_string(), |b| format!(
                "{:.0}",
                b as f64 / *states as f64
            )),
            status_word(*start)
        ),
        FullFigures::Refused {
            error,
            seconds,
            peak,
        } => {
            let peak_text = peak.map_or("?".to_string(), |b| human_bytes(b as f64));
            outln!(
                "{name:<11} {ko_word:<6} {empty:>6} {points:>6} refused after {seconds:.2} s ({peak_text} resident): {error}"
            )
        }
    }
}

/// Runs the first solver on `problem` where it fits: it holds about 150
/// bytes a state, with no limit of its own, so it runs only where the new
/// solver's states at that rate fit the limit. `new_start`: the full
/// solver's value of the start, if it finished.
fn baseline_figures(problem: &Problem, memory: u64, new_start: Option<Status>) -> BaselineFigures {
    let fits = Solution::with_limit(problem, Limits::new(memory).with_prune(false))
        .ok()
        .filter(|full| (full.len() as u64).saturating_mul(160) <= memory);
    match fits {
        None => BaselineFigures::Skipped,
        Some(full) => {
            let (unpruned_states, unpruned_counted) = (full.len(), full.peak_bytes());
            drop(full);
            let (old, seconds, peak) = measured(|| Baseline::new(problem));
            BaselineFigures::Ran {
                states: old.len(),
                edges: old.edges(),
                counted: old.peak_bytes(),
                start: old.start(),
                seconds,
                peak,
                agrees: new_start.is_none_or(|start| start == old.start()),
                unpruned_states,
                unpruned_counted,
            }
        }
    }
}

/// The first solver's line of a problem.
fn baseline_line(figures: &BaselineFigures) -> std::io::Result<()> {
    match figures {
        BaselineFigures::Skipped => {
            outln!("{:<11} {:<6}   baseline: skipped (past the limit)", "", "")
        }
        BaselineFigures::Ran {
            states,
            edges,
            counted,
            start,
            seconds,
            peak,
            agrees,
            unpruned_states,
            unpruned_counted,
        } => outln!(
            "{:<11} {:<6}   baseline {:>11} {:>13} {:>9} {:>8.2} {:>10} {:>10} {:>5} {}{}; unpruned new solver: {} states, {} counted",
            "",
            "",
            states,
            edges,
            0,
            seconds,
            peak.map_or("?".to_string(), |b| human_bytes(b as f64)),
            human_bytes(*counted as f64),
            peak.map_or("?".to_string(), |b| format!("{:.0}", b as f64 / *states as f64)),
            status_word(*start),
            if *agrees { "" } else { " DIFFERS" },
            unpruned_states,
            human_bytes(*unpruned_counted as f64)
        ),
    }
}
