//! The command line: `smallgo` (the GTP engine), `smallgo build RxC` (and its
//! synonym `smallgo --build RxC`), `smallgo verify TABLE...`,
//! `smallgo analyze position RxC [MOVE...]` (and its batches),
//! `smallgo count RxC`,
//! `smallgo solve PROBLEM.sgf` and `smallgo bench`.
//!
//! Parsing, dispatch and exit codes live here; each command is its own
//! module, and `json` writes every command's `--json` output in one shape
//! (`docs/json.md`). Every command's options are its own, so that its `--help` lists
//! what it takes and nothing else; the build options are one struct,
//! flattened into `build`, `bench build` and the top level (for `--build`).
//! Errors are printed once, as `smallgo: ...` naming the file or argument at
//! fault, and give a non-zero exit code: `EXIT_FAILURE`, or clap's own for
//! usage errors. Standard output whose reader has gone (a broken pipe, as
//! with `| head`) is not an error: the command stops writing and exits
//! quietly, as ripgrep does; a table being built is complete by the time
//! anything is printed.

/// `println!` that returns the write's error instead of panicking: use with
/// `?` and end through `output_failed`.
macro_rules! outln {
    ($($arguments:tt)*) => {
        $crate::cli::write_out(format_args!("{}\n", format_args!($($arguments)*)))
    };
}

mod analysis;
mod analyze;
mod bench;
mod build;
#[cfg(feature = "mpi")]
mod build_mpi;
mod count;
mod cycles;
mod export;
#[cfg(fuzzing)]
#[doc(hidden)]
pub mod fuzzing;
mod json;
mod katrain;
mod line_rule;
mod pictures;
mod piece;
mod progress;
mod review;
mod rules;
mod seki;
mod serve;
mod solve;
mod verify;

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::rules::board::Board;

/// Exit code for bad input (files, arguments).
const EXIT_FAILURE: u8 = 1;
/// Exit code after Ctrl-C, as shells report it.
const EXIT_INTERRUPTED: u8 = 130;

#[derive(Parser, Debug)]
#[command(
    name = "smallgo",
    version,
    about = "Perfect play for Go on small boards.",
    long_about = "Perfect play for Go on small boards.\n\n\
        With no command smallgo speaks GTP on standard input and output, playing \
        from the tables built into it and those of --tables DIR. The commands build, \
        verify and analyze tables; `smallgo --build RxC` is `smallgo build RxC`.",
    args_conflicts_with_subcommands = true
)]
struct Arguments {
    #[command(flatten)]
    engine: EngineArguments,

    #[command(
        flatten,
        next_help_heading = "Build (--build RxC is the same as `smallgo build RxC`)"
    )]
    build: BuildSynonym,

    #[command(subcommand)]
    command: Option<Command>,
}

/// The GTP engine's options.
#[derive(Args, Debug)]
struct EngineArguments {
    /// Folder of tables: the engine adds the tables it finds there to its
    /// built-in ones, and prefers them; with --build, the folder the table
    /// is written to (default: the current folder).
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,

    /// Answer `resign` in lost positions (by default smallgo plays every
    /// game out, resisting as long as it can).
    #[arg(long, conflicts_with = "build")]
    resign: bool,

    /// Leave out the tables built into the binary.
    #[arg(long, conflicts_with = "build")]
    without_built_in_tables: bool,

    /// genmove picks at random, from seed N, among the moves that keep the
    /// best result (a win only among the shortest at its margin); by
    /// default it plays the first in point order, so games repeat.
    #[arg(long, value_name = "N", conflicts_with = "build")]
    random_seed: Option<u64>,
}

/// `--build RxC` and its options, at the top level.
#[derive(Args, Debug)]
struct BuildSynonym {
    /// Solve board RxC (rows x columns, for example 3x4) and write its
    /// table into --tables DIR, as `smallgo build RxC` does.
    #[arg(long, value_name = "RxC", value_parser = parse_board)]
    build: Option<Board>,

    #[command(flatten)]
    options: BuildOptionsArguments,
}

/// How to build: the options of `build`, `bench build` and `--build`.
#[derive(Args, Debug, Clone, Copy)]
struct BuildOptionsArguments {
    /// Save a checkpoint at most this often (seconds), so that a build
    /// killed on the way resumes when run again; 0 saves before every
    /// level. Checkpoints are saved only between margin levels of the
    /// retrograde, so one comes at the first level boundary after the
    /// interval, and a long level can keep the next one much later.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    checkpoint_interval: u64,

    /// Use at most this much memory (for example 8G or 512M): a build that
    /// needs more is refused before it starts. By default, the memory
    /// available.
    #[arg(long, value_name = "SIZE", value_parser = crate::common::units::parse_size)]
    memory: Option<u64>,

    /// Run the full verifier on the table before it is put in place
    /// (every build checks a sample of its states anyway).
    #[arg(long)]
    verify: bool,
}

impl From<BuildOptionsArguments> for crate::build::BuildOptions {
    fn from(options: BuildOptionsArguments) -> crate::build::BuildOptions {
        crate::build::BuildOptions {
            checkpoint_interval: Duration::from_secs(options.checkpoint_interval),
            memory: options.memory,
            verify: options.verify,
        }
    }
}

/// The build options' ids, which at the top level need `--build`.
const BUILD_OPTION_IDS: [&str; 3] = ["checkpoint_interval", "memory", "verify"];

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve one board and write its table, RxC.sgtb, unless the table of
    /// the turned board (CxR.sgtb) is there or built in to serve it.
    Build(BuildArguments),
    /// Check tables, files or the tables of boards: header, checksum, and
    /// that every stored value follows from its children's.
    Verify(VerifyArguments),
    /// Make a smaller table from a full one: with --wdl, win, draw or loss
    /// at one komi and the depth that finishes a won game (docs/wdl.md).
    Export(export::ExportArguments),
    /// Look at positions with their perfect values.
    #[command(subcommand)]
    Analyze(Analyze),
    /// Measure: build boards and print their figures, or time the engine.
    #[command(subcommand)]
    Bench(Bench),
    /// Review a game: the exact value before and after every move, the
    /// moves that change the result, and the perfect line at each.
    Review(ReviewArguments),
    /// Count a board's legal positions, canonical positions, ko states and
    /// states exactly, in small memory, and estimate its edges by sampling.
    Count(count::CountArguments),
    /// Solve a life-and-death problem (an SGF file or a diagram) exactly:
    /// its status under three ko assumptions, every first move, the main
    /// line, and with -o its solution tree as SGF.
    Solve(solve::SolveArguments),
    /// Serve the tables over HTTP as a JSON API (feature `serve`): every
    /// move's value, the perfect line, the boards (docs/serve.md).
    Serve(serve::ServeArguments),
    /// KataGo's JSON analysis engine on standard input and output, for
    /// KaTrain and scripts (docs/gtp.md#katagos-analysis-engine).
    Analysis(analysis::AnalysisArguments),
}

#[derive(Args, Debug)]
struct BuildArguments {
    /// The board: rows x columns, for example 3x4.
    #[arg(value_name = "RxC", value_parser = parse_board)]
    board: Board,

    /// Write the table into this folder, made if missing (default: the
    /// current folder).
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,

    #[command(flatten)]
    options: BuildOptionsArguments,

    /// Print the summary as one JSON object on one line (docs/json.md).
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct VerifyArguments {
    /// Table files, or boards (RxC, for example 4x4): a board's table is
    /// DIR/RxC.sgtb with --tables DIR, else the built-in one.
    #[arg(required = true, value_name = "TABLE")]
    tables: Vec<PathBuf>,

    /// Look for the tables of boards named in this folder first.
    #[arg(long = "tables", value_name = "DIR")]
    folder: Option<PathBuf>,

    /// Use at most this much memory (for example 8G or 512M): a table whose
    /// values do not all fit is read twice, half of each value at a time.
    /// By default, the memory available.
    #[arg(long, value_name = "SIZE", value_parser = crate::common::units::parse_size)]
    memory: Option<u64>,

    /// Print one JSON object a table, each on one line (docs/json.md).
    #[arg(long)]
    json: bool,
}

#[derive(Subcommand, Debug)]
enum Analyze {
    /// Play moves on an empty board, a diagram's position or a game's, then
    /// print the position's exact value, its result at the komi, and every
    /// legal move with its outcome, most preferred first (the engine's
    /// choice at the top); or do so for every line of a batch.
    Position(analyze::PositionArguments),
    /// Count the seki states of a board's table, by the reference work's
    /// criteria and by a stricter test of the stones, with examples.
    Seki(seki::SekiArguments),
    /// The cycles basic ko allows: the strongly connected components of the
    /// state graph, the states on a cycle, the states whose value depends on
    /// never-ending play being a draw, and example cycles as moves.
    Cycles(CyclesArguments),
    /// Check White's move rules on 1xN boards against their tables: does
    /// White keep at least a draw whatever Black plays? A counterexample
    /// where not.
    #[command(name = "rule-1xn")]
    Rule1xn(line_rule::LineRuleArguments),
    /// A board piece's values as Bouzy gives them: {l|r}, temperature and
    /// best moves of every class of positions (docs/pieces.md).
    Piece(piece::PieceArguments),
    /// The empty board and every opening under loop-draw (the tables) and
    /// under superko (solved here) side by side, with the openings whose
    /// result differs.
    Rules(rules::RulesArguments),
}

#[derive(Args, Debug)]
struct CyclesArguments {
    /// The board: rows x columns, for example 3x4.
    #[arg(value_name = "RxC", value_parser = parse_board)]
    board: Board,

    /// Print the figures as JSON.
    #[arg(long)]
    json: bool,

    /// Leave the passes out of the graph: the cycles made of placements
    /// alone (ko fights and capture sequences).
    #[arg(long)]
    placements_only: bool,

    /// Draw each example cycle into this folder (made if missing) as an
    /// SVG picture, cycles-BOARD-N.svg: its start's move values, perfect
    /// play and ownership at komi 0, and the cycle's moves numbered
    /// (docs/pictures.md).
    #[arg(long, value_name = "DIR")]
    svg_dir: Option<PathBuf>,

    /// Folder of tables, preferred to the built-in ones, as the engine's
    /// --tables.
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct ReviewArguments {
    /// The game, an SGF file (its main line is reviewed).
    #[arg(value_name = "GAME.sgf")]
    game: PathBuf,

    /// Komi, given to White (default: the file's KM, else 0).
    #[arg(long, value_name = "K", value_parser = parse_exact_komi, allow_negative_numbers = true)]
    komi: Option<crate::gtp::komi::Komi>,

    /// Write the game with the review in it (comments, BM/DO/TE, GB/GW/DM,
    /// V, and the perfect line at each flagged move) to this SGF file.
    #[arg(short = 'o', long = "output", value_name = "OUT.sgf")]
    output: Option<PathBuf>,

    /// Print the review as one JSON object on one line (docs/json.md).
    #[arg(long)]
    json: bool,

    /// Write the game's score graph, Black's exact score lead after each
    /// move, to this SVG file (a build with feature `plot`).
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,

    /// Folder of tables, preferred to the built-in ones, as the engine's
    /// --tables.
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
enum Bench {
    /// Build boards one after another and print states, edges, time, CPU,
    /// memory and size per board (default: 4x4 3x5 2x8).
    Build(BenchBuildArguments),
    /// Time the GTP engine: first reply, genmove on 4x4, resident memory.
    Engine(BenchEngineArguments),
    /// Solve a fixed set of life-and-death problems of growing size and
    /// print states, edges, time and memory for each.
    Problems(BenchProblemsArguments),
    /// Solve every opening of boards under superko and print time, states,
    /// states per second and table use (default: 1x7 1x8 1x9).
    Superko(rules::BenchSuperkoArguments),
    /// Build one board and print its line of the `bench build` table
    /// (`bench build` runs this for each board).
    #[command(hide = true)]
    Row(BuildArguments),
}

#[derive(Args, Debug)]
struct BenchProblemsArguments {
    /// Refuse a problem whose solve would need more memory than this
    /// (for example 1G or 8G).
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = crate::common::units::parse_size)]
    memory: u64,

    /// Also run the first solver (no pruning, a hash map of full keys,
    /// stored edges) on the problems whose solve it can hold in the same
    /// memory, and print its figures alongside.
    #[arg(long)]
    baseline: bool,

    /// Solve under the three ko assumptions instead of basic ko alone.
    #[arg(long)]
    all_ko: bool,

    /// Only the problems with at most this many empty points.
    #[arg(long, value_name = "N")]
    max_empty: Option<usize>,

    /// Only the problems of these names (for example "centre 17"; may be
    /// given more than once).
    #[arg(long, value_name = "NAME")]
    only: Vec<String>,

    /// The most states each proof search may expand.
    #[arg(long, value_name = "N", default_value_t = 100_000_000)]
    max_nodes: u64,

    /// Also run the proof search with its earlier treatment of
    /// repetitions (losses resting on one kept with the repeated states,
    /// used only while they are on the path), for its figures alongside.
    #[arg(long)]
    compare: bool,

    /// Skip the full solver (the proof search alone).
    #[arg(long)]
    search_only: bool,

    /// Instead, run `smallgo solve`'s whole work on each problem (on a
    /// 19x19 board, its walls Black's safe stones; the solver as
    /// `--solver auto` chooses, each search within --max-nodes) and print
    /// its wall time, CPU time, peak memory and statuses.
    #[arg(long, conflicts_with_all = ["baseline", "all_ko", "compare", "search_only"])]
    solve: bool,

    /// Print one JSON object a problem and ko assumption, each on one line
    /// (docs/json.md).
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct BenchEngineArguments {
    /// Print the figures as one JSON object on one line (docs/json.md).
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct BenchBuildArguments {
    /// The boards to build: rows x columns, for example 3x4.
    #[arg(value_name = "RxC", value_parser = parse_board)]
    boards: Vec<Board>,

    /// Write the tables into this folder (default: a scratch folder that is
    /// removed afterwards).
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,

    #[command(flatten)]
    options: BuildOptionsArguments,

    /// Print one JSON object a board, each on one line (docs/json.md).
    #[arg(long)]
    json: bool,
}

/// Writes `text` to standard output and flushes it.
pub(crate) fn write_out(text: std::fmt::Arguments) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_fmt(text).and_then(|()| out.flush())
}

/// How a command ends when standard output fails: a reader that has gone
/// (a broken pipe) ends it quietly with success, anything else is told and
/// fails.
pub(crate) fn output_failed(error: &io::Error) -> ExitCode {
    if error.kind() == io::ErrorKind::BrokenPipe {
        ExitCode::SUCCESS
    } else {
        eprintln!("smallgo: cannot write to standard output: {error}");
        ExitCode::from(EXIT_FAILURE)
    }
}

/// How an `analyze` command ends: its report printed (as JSON or as text)
/// and success, or `smallgo: analyze NAME: message` and failure.
fn finish_analysis<R>(
    name: &str,
    report: Result<R, String>,
    as_json: bool,
    json: impl FnOnce(&R) -> json::Json,
    text: impl FnOnce(&R) -> io::Result<()>,
) -> ExitCode {
    match report {
        Ok(report) => {
            let written = if as_json {
                outln!("{}", json(&report))
            } else {
                text(&report)
            };
            match written {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => output_failed(&error),
            }
        }
        Err(message) => {
            eprintln!("smallgo: analyze {name}: {message}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

fn parse_board(text: &str) -> Result<Board, String> {
    text.parse::<Board>().map_err(|e| e.to_string())
}

fn parse_komi(text: &str) -> Result<f64, String> {
    crate::gtp::parse::finite_number(text).ok_or_else(|| format!("'{text}' is not a finite number"))
}

/// A komi kept exactly as written, for the commands that show margins
/// with it.
fn parse_exact_komi(text: &str) -> Result<crate::gtp::komi::Komi, String> {
    crate::gtp::komi::Komi::parse(text).ok_or_else(|| format!("'{text}' is not a finite number"))
}

/// Checks that `--tables DIR`, a folder to read tables from, is one.
fn existing_folder(folder: &Path) -> Result<(), String> {
    match std::fs::metadata(folder) {
        Ok(metadata) if metadata.is_dir() => Ok(()),
        Ok(_) => Err(format!("--tables {}: not a folder", folder.display())),
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            Err(format!("--tables {}: does not exist", folder.display()))
        }
        Err(error) => Err(format!("--tables {}: {error}", folder.display())),
    }
}

/// Why no values serve `board`: no table in `tables` (or built in, or of
/// the turned board), and the board is too large to solve on the spot.
fn no_table(board: Board, tables: Option<&Path>) -> String {
    format!(
        "no table of board {board}{}, {}, and it is too large to solve here",
        turned_too(board),
        looked_in(tables),
    )
}

/// Where tables were looked for: `in DIR nor built in`, or `built in`.
fn looked_in(tables: Option<&Path>) -> String {
    match tables {
        Some(folder) => format!("in {} nor built in", folder.display()),
        None => "built in".to_string(),
    }
}

/// `, or of RxC turned` when the turned board's table would serve `board`
/// (`Board::turned`), for messages that say where a table was looked for.
fn turned_too(board: Board) -> String {
    if board.turned().is_some() {
        format!(", or of {board} turned")
    } else {
        String::new()
    }
}

/// The folder a build writes into: `--tables DIR`, or the current folder.
fn build_folder(tables: Option<PathBuf>) -> PathBuf {
    tables.unwrap_or_else(|| PathBuf::from("."))
}

/// The top-level command line: the derived one, where the build options
/// need `--build` (in `build` and `bench build` they stand alone).
fn top_level() -> clap::Command {
    BUILD_OPTION_IDS
        .iter()
        .fold(Arguments::command(), |command, id| {
            command.mut_arg(id, |arg| arg.requires("build"))
        })
}

/// Runs smallgo with these arguments (the first is the program name).
pub fn run(arguments: impl IntoIterator<Item = OsString>) -> ExitCode {
    let parsed = top_level()
        .try_get_matches_from(arguments)
        .and_then(|matches| Arguments::from_arg_matches(&matches));
    let arguments = match parsed {
        Ok(arguments) => arguments,
        Err(error) => {
            let _ = error.print();
            return ExitCode::from(error.exit_code() as u8);
        }
    };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .target(env_logger::Target::Pipe(Box::new(progress::LogOutput)))
        .format_timestamp(None)
        .init();
    match arguments.command {
        Some(Command::Build(build)) => build::run(
            build.board,
            build_folder(build.tables),
            build.options.into(),
            build.json,
        ),
        Some(Command::Count(arguments)) => count::run(&arguments),
        Some(Command::Export(arguments)) => export::run(&arguments),
        Some(Command::Solve(arguments)) => solve::run(&arguments),
        Some(Command::Serve(arguments)) => serve::run(&arguments),
        Some(Command::Analysis(arguments)) => analysis::run(&arguments),
        Some(Command::Review(review)) => review::run(
            &review.game,
            review::ReviewOptions {
                komi: review.komi,
                output: review.output,
                tables: review.tables,
                json: review.json,
                plot: review.plot,
            },
        ),
        Some(Command::Verify(verify)) => verify::run(
            &verify.tables,
            verify.folder.as_deref(),
            verify.memory,
            verify.json,
        ),
        Some(Command::Analyze(Analyze::Position(position))) => analyze::run(&position),
        Some(Command::Analyze(Analyze::Seki(seki))) => seki::run(&seki),
        Some(Command::Analyze(Analyze::Rule1xn(rule))) => line_rule::run(&rule),
        Some(Command::Analyze(Analyze::Piece(piece))) => piece::run(&piece),
        Some(Command::Analyze(Analyze::Rules(arguments))) => rules::run(&arguments),
        Some(Command::Bench(Bench::Superko(arguments))) => rules::bench(&arguments),
        Some(Command::Analyze(Analyze::Cycles(cycles))) => cycles::run(
            cycles.board,
            cycles.tables.as_deref(),
            cycles.json,
            !cycles.placements_only,
            cycles.svg_dir.as_deref(),
        ),
        Some(Command::Bench(Bench::Build(bench))) => {
            let boards = if bench.boards.is_empty() {
                bench::DEFAULT_BOARDS
                    .iter()
                    .map(|b| b.parse().expect("valid default"))
                    .collect()
            } else {
                bench.boards
            };
            bench::build(&boards, bench.tables, bench.options.into(), bench.json)
        }
        Some(Command::Bench(Bench::Engine(engine))) => bench::engine(engine.json),
        Some(Command::Bench(Bench::Problems(problems))) => bench::problems(
            problems.memory,
            problems.baseline,
            problems.all_ko,
            problems.max_empty,
            bench::ProblemChoice {
                only: problems.only,
                max_nodes: problems.max_nodes,
                compare: problems.compare,
                search_only: problems.search_only,
                solve: problems.solve,
            },
            problems.json,
        ),
        Some(Command::Bench(Bench::Row(row))) => bench::row(
            row.board,
            build_folder(row.tables),
            row.options.into(),
            row.json,
        ),
        None => match arguments.build.build {
            Some(board) => build::run(
                board,
                build_folder(arguments.engine.tables),
                arguments.build.options.into(),
                false,
            ),
            None => {
                if let Some(folder) = &arguments.engine.tables {
                    if let Err(message) = existing_folder(folder) {
                        eprintln!("smallgo: {message}");
                        return ExitCode::from(EXIT_FAILURE);
                    }
                }
                crate::gtp::serve(crate::gtp::Options {
                    tables: arguments.engine.tables,
                    without_built_in_tables: arguments.engine.without_built_in_tables,
                    resign: arguments.engine.resign,
                    random_seed: arguments.engine.random_seed,
                })
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_consistent() {
        top_level().debug_assert();
    }
}
