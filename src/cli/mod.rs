//! The command line: `smallgo` (GTP engine), `smallgo --build RxC`,
//! `smallgo verify FILE...`.
//!
//! Parsing, dispatch and exit codes live here; each command is its own
//! module. Errors are printed once, as `smallgo: ...` naming the file or
//! argument at fault, and give a non-zero exit code. Standard output whose
//! reader has gone (a broken pipe, as with `| head`) is not an error: the
//! command stops writing and exits quietly, as ripgrep does; a table being
//! built is complete by the time anything is printed.

/// `println!` that returns the write's error instead of panicking: use with
/// `?` and end through `output_failed`.
macro_rules! outln {
    ($($arguments:tt)*) => {
        $crate::cli::write_out(format_args!("{}\n", format_args!($($arguments)*)))
    };
}

mod bench;
mod build;
mod manifest;
mod progress;
mod review;

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

use crate::board::Board;
use crate::table::verify;

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
        With no arguments smallgo speaks GTP on standard input and output, playing \
        from the tables built into it. --build solves one board and writes its table; \
        verify checks table files independently of the builder."
)]
struct Arguments {
    /// Solve board RxC (rows x columns, for example 3x4) and write its table.
    #[arg(long, value_name = "RxC", value_parser = parse_board)]
    build: Option<Board>,

    /// Folder of tables: --build writes there (default: the current folder);
    /// the engine adds the tables it finds there to its built-in ones.
    #[arg(long, value_name = "DIR", global = true)]
    tables: Option<PathBuf>,

    /// Builds: save a checkpoint at most this often (seconds), so that a
    /// build killed on the way resumes when run again; 0 saves before every
    /// level.
    #[arg(long, value_name = "SECONDS", default_value_t = 60, global = true)]
    checkpoint_interval: u64,

    /// Builds and verify: use at most this much memory (for example 8G or
    /// 512M); a build that needs more is refused before it starts, and
    /// verify reads the table twice, holding half of each value at a time,
    /// when all of it does not fit. By default, the memory available.
    #[arg(long, value_name = "SIZE", value_parser = crate::plan::parse_size, global = true)]
    memory: Option<u64>,

    /// Builds: run the full verifier on the table before it is put in
    /// place (every build checks a sample of its states anyway).
    #[arg(long, global = true)]
    verify: bool,

    /// Engine: answer `resign` in lost positions (by default smallgo plays
    /// every game out, resisting as long as it can).
    #[arg(long)]
    resign: bool,

    /// Engine: leave out the tables built into the binary.
    #[arg(long)]
    without_built_in_tables: bool,

    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Measure: build boards and print their figures, or time the engine.
    #[command(subcommand)]
    Bench(Bench),
    /// Check table files: header, checksum, and that every stored value
    /// follows from its children's.
    Verify {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    /// Review a game: the exact value before and after every move, the
    /// moves that change the result, and the perfect line at each.
    Review {
        /// The game, an SGF file (its main line is reviewed).
        #[arg(value_name = "GAME.sgf")]
        game: PathBuf,
        /// Komi (default: the file's KM, else 0).
        #[arg(long, value_name = "K", allow_negative_numbers = true)]
        komi: Option<f64>,
        /// Write the game with the review in it (comments, BM/DO/TE,
        /// GB/GW/DM, V, and the perfect line at each mistake) to this SGF
        /// file.
        #[arg(short = 'o', long = "output", value_name = "OUT.sgf")]
        output: Option<PathBuf>,
    },
}

#[derive(Subcommand, Debug)]
enum Bench {
    /// Build boards one after another and print states, edges, time, CPU,
    /// memory and size per board (default: 4x4 3x5 2x8). Tables go to
    /// --tables DIR, or to a scratch folder that is removed afterwards.
    Build {
        #[arg(value_name = "RxC", value_parser = parse_board)]
        boards: Vec<Board>,
    },
    /// Time the GTP engine: first reply, genmove on 4x4, resident memory.
    Engine,
    /// Build one board and print its line of the `bench build` table
    /// (`bench build` runs this for each board).
    #[command(hide = true)]
    Row {
        #[arg(value_name = "RxC", value_parser = parse_board)]
        board: Board,
    },
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

fn parse_board(text: &str) -> Result<Board, String> {
    text.parse::<Board>().map_err(|e| e.to_string())
}

/// Runs smallgo with these arguments (the first is the program name).
pub fn run(arguments: impl IntoIterator<Item = OsString>) -> ExitCode {
    let arguments = match Arguments::try_parse_from(arguments) {
        Ok(arguments) => arguments,
        Err(error) => {
            let _ = error.print();
            return ExitCode::from(error.exit_code() as u8);
        }
    };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .target(env_logger::Target::Stderr)
        .format_timestamp(None)
        .init();
    let options = build::BuildOptions {
        checkpoint_interval: Duration::from_secs(arguments.checkpoint_interval),
        memory: arguments.memory,
        verify: arguments.verify,
    };
    match (arguments.build, arguments.command) {
        (Some(_), Some(_)) => {
            eprintln!("smallgo: --build cannot be used with a command");
            ExitCode::from(2)
        }
        (Some(board), None) => build::run(
            board,
            arguments.tables.unwrap_or_else(|| PathBuf::from(".")),
            options,
        ),
        (None, Some(Command::Verify { files })) => verify_files(&files, arguments.memory),
        (None, Some(Command::Review { game, komi, output })) => review::run(
            &game,
            review::ReviewOptions {
                komi,
                output,
                tables: arguments.tables,
            },
        ),
        (None, Some(Command::Bench(Bench::Build { boards }))) => {
            let boards = if boards.is_empty() {
                bench::DEFAULT_BOARDS
                    .iter()
                    .map(|b| b.parse().expect("valid default"))
                    .collect()
            } else {
                boards
            };
            bench::build(&boards, arguments.tables, options)
        }
        (None, Some(Command::Bench(Bench::Engine))) => bench::engine(),
        (None, Some(Command::Bench(Bench::Row { board }))) => bench::row(
            board,
            arguments.tables.unwrap_or_else(|| PathBuf::from(".")),
            options,
        ),
        (None, None) => {
            if let Some(folder) = &arguments.tables {
                if !folder.is_dir() {
                    eprintln!("smallgo: --tables {}: not a folder", folder.display());
                    return ExitCode::from(EXIT_FAILURE);
                }
            }
            crate::gtp::serve(crate::gtp::Options {
                tables: arguments.tables,
                without_built_in_tables: arguments.without_built_in_tables,
                resign: arguments.resign,
            })
        }
    }
}

fn verify_files(files: &[PathBuf], memory: Option<u64>) -> ExitCode {
    let mut failed = false;
    let options = verify::VerifyOptions {
        memory,
        ..verify::VerifyOptions::default()
    };
    for file in files {
        let progress = progress::BuildProgress::new(file.display().to_string());
        let report = verify::verify_file_with(file, options, &progress);
        progress.finish();
        match report {
            Ok(report) => {
                if let Err(error) = outln!(
                    "{}: ok ({} states, {} edges, {} {}, {:.2} s)",
                    file.display(),
                    report.states,
                    report.edges,
                    report.passes,
                    if report.passes == 1 { "pass" } else { "passes" },
                    report.seconds
                ) {
                    let code = output_failed(&error);
                    return if failed {
                        ExitCode::from(EXIT_FAILURE)
                    } else {
                        code
                    };
                }
            }
            Err(error) => {
                eprintln!("smallgo: verify: {error}");
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::from(EXIT_FAILURE)
    } else {
        ExitCode::SUCCESS
    }
}
