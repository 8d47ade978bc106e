//! `smallgo count RxC [--json] [--samples N] [--seed S] [--state FILE]`:
//! the exact counts of a board's state space (legal positions, canonical
//! positions, ko states, states) in small memory, with progress shown and
//! saved, the positions' classes as Bouzy counts a board piece's patterns
//! (with and without the capture rule and the exchange of colours), then
//! an estimate of its edges from sampled positions (the
//! solver's edges, a pass that ends the game included; `crate::analyses::count` does
//! the work).
//!
//! The progress goes to `--state FILE`, or by default to `RxC.count` in the
//! current folder, as the count starts, at most once a second as chunks
//! end, and once more when it stops; the same command run again resumes from it. The
//! default file is removed once the report is printed (and kept if it
//! could not be: standard output full or closed); a file given with
//! `--state` is kept, and a later run with it prints its counts at once.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::Args;

use super::json::Json;
use super::progress::{catch_interrupts, interrupted, BuildProgress};
use super::{output_failed, parse_board, EXIT_FAILURE, EXIT_INTERRUPTED};
use crate::analyses::count::{
    classes, estimate_edges, run as count, Classes, CountObserver, EdgeEstimate, Outcome, Progress,
    Tally,
};
use crate::index::code::{Codec, MAX_CODE_POINTS};
use crate::rules::board::Board;
use crate::solver::Observer;

/// How often the progress file is written while chunks end.
const SAVE_INTERVAL: Duration = Duration::from_secs(1);
/// How often a log line tells the progress when standard error is not a
/// terminal.
const LOG_INTERVAL: Duration = Duration::from_secs(30);

#[derive(Args, Debug)]
pub struct CountArguments {
    /// The board: rows x columns, for example 5x5 (at most 32 points), a
    /// piece (3x3-open, 3x3-edge, 3x3-corner) or a shape's diagram.
    #[arg(value_name = "RxC", value_parser = parse_board)]
    board: Board,

    /// Print one JSON object instead of the report.
    #[arg(long)]
    json: bool,

    /// Positions to sample for the edge estimate (0: no estimate).
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    samples: u64,

    /// The seed of the sample: the same seed gives the same estimate.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,

    /// Save the count's progress in FILE, and resume from it (default:
    /// RxC.count in the current folder, removed once the count is
    /// printed; FILE is kept).
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,

    /// Stop as Ctrl-C does once this many chunks have ended (for tests).
    #[arg(long, value_name = "K", hide = true)]
    stop_after: Option<u64>,
}

/// What the report prints.
struct Report {
    board: Board,
    tally: Tally,
    /// The positions' classes as Bouzy counts them.
    classes: Classes,
    codes: u64,
    chunks: u64,
    estimate: Option<EdgeEstimate>,
    /// Seconds of this run.
    seconds: f64,
    /// Whether the counts were resumed from a progress file.
    resumed: bool,
}

/// Shows a count's progress and stops it on Ctrl-C or after `stop_after`
/// chunks.
struct Watch<'a> {
    bar: &'a BuildProgress,
    terminal: bool,
    stop_after: Option<u64>,
    chunks_this_run: AtomicU64,
    codes_this_run: AtomicU64,
    /// Codes left when this run began, for the log lines' percentage.
    codes_left: u64,
    started: Instant,
    last_log: Mutex<Instant>,
    board: Board,
}

impl CountObserver for Watch<'_> {
    fn advanced(&self, codes: u64) {
        Observer::advanced(self.bar, codes);
        self.codes_this_run.fetch_add(codes, Ordering::Relaxed);
    }

    fn chunk_done(&self, progress: &Progress) {
        self.chunks_this_run.fetch_add(1, Ordering::Relaxed);
        if self.terminal {
            return;
        }
        let mut last = self.last_log.lock().unwrap_or_else(|e| e.into_inner());
        if last.elapsed() < LOG_INTERVAL {
            return;
        }
        *last = Instant::now();
        let seconds = self.started.elapsed().as_secs_f64();
        let counted = self
            .codes_this_run
            .load(Ordering::Relaxed)
            .min(self.codes_left);
        let rate = counted as f64 / seconds.max(1e-9);
        let left = (self.codes_left - counted) as f64 / rate.max(1.0);
        log::info!(
            "{}: {} of {} chunks counted, {:.1}% of this run in {seconds:.0} s, about {left:.0} s left",
            self.board,
            progress.chunks_done(),
            progress.chunks().count,
            100.0 * counted as f64 / self.codes_left.max(1) as f64,
        );
    }

    fn cancelled(&self) -> bool {
        interrupted()
            || self
                .stop_after
                .is_some_and(|k| self.chunks_this_run.load(Ordering::Relaxed) >= k)
    }
}

/// Why the command stopped short of a report.
enum Failure {
    /// Bad input or an error on the way.
    Error(String),
    /// Ctrl-C (or `--stop-after`): the message says where the progress is.
    Interrupted(String),
}

fn counts(arguments: &CountArguments, state: &Path) -> Result<Report, Failure> {
    let board = arguments.board;
    if board.points() > MAX_CODE_POINTS {
        return Err(Failure::Error(format!(
            "board {board} has {} points: count enumerates the 3^N codes of boards of at most {MAX_CODE_POINTS} points",
            board.points()
        )));
    }
    let started = Instant::now();
    let loaded = Progress::load(state, board).map_err(Failure::Error)?;
    let resumed = loaded.is_some();
    let mut progress = loaded.unwrap_or_else(|| Progress::new(board));
    let chunks = progress.chunks();
    catch_interrupts();
    let codec = Codec::new(board);
    let bar = BuildProgress::new(board.to_string());
    if !progress.finished() {
        let codes_left = chunks.codes - progress.codes_done();
        log::info!(
            "{board}: counting {} codes (3^{}) in {} chunk{}{}; progress saved in {}",
            chunks.codes,
            board.points(),
            chunks.count,
            if chunks.count == 1 { "" } else { "s" },
            if resumed {
                format!(", {} done before", progress.chunks_done())
            } else {
                String::new()
            },
            state.display()
        );
        // Saved at once, so that a folder that cannot take the file is
        // told now rather than after the first chunks.
        progress.save(state).map_err(|message| {
            Failure::Error(format!("{message} (--state FILE puts it elsewhere)"))
        })?;
        bar.start_step("count", codes_left, "codes");
        let watch = Watch {
            bar: &bar,
            terminal: std::io::stderr().is_terminal(),
            stop_after: arguments.stop_after,
            chunks_this_run: AtomicU64::new(0),
            codes_this_run: AtomicU64::new(0),
            codes_left,
            started: Instant::now(),
            last_log: Mutex::new(Instant::now()),
            board,
        };
        let outcome = count(
            &codec,
            &mut progress,
            rayon::current_num_threads(),
            &watch,
            SAVE_INTERVAL,
            &|progress| progress.save(state),
        )
        .map_err(Failure::Error)?;
        bar.finish();
        if outcome == Outcome::Stopped {
            return Err(Failure::Interrupted(format!(
                "{} of {} chunks of {board} counted, saved in {}: run the same command to go on",
                progress.chunks_done(),
                chunks.count,
                state.display()
            )));
        }
    }
    let tally = progress.tally();
    let estimate = if arguments.samples > 0 {
        bar.start_step("sample edges", arguments.samples, "positions");
        let watch = Watch {
            bar: &bar,
            terminal: true,
            stop_after: None,
            chunks_this_run: AtomicU64::new(0),
            codes_this_run: AtomicU64::new(0),
            codes_left: 0,
            started: Instant::now(),
            last_log: Mutex::new(Instant::now()),
            board,
        };
        let estimate = estimate_edges(
            &codec,
            tally.positions,
            arguments.samples,
            arguments.seed,
            &watch,
        );
        bar.finish();
        if interrupted() {
            return Err(Failure::Interrupted(format!(
                "the counts of {board} are saved in {}: run the same command to sample again",
                state.display()
            )));
        }
        estimate
    } else {
        bar.finish();
        None
    };
    Ok(Report {
        board,
        classes: classes(&codec, &tally),
        tally,
        codes: chunks.codes,
        chunks: chunks.count,
        estimate,
        seconds: started.elapsed().as_secs_f64(),
        resumed,
    })
}

fn print(report: &Report) -> std::io::Result<()> {
    let tally = &report.tally;
    outln!("board               {}", report.board)?;
    outln!(
        "codes               {} (3^{}) in {} chunk{}{}",
        report.codes,
        report.board.points(),
        report.chunks,
        if report.chunks == 1 { "" } else { "s" },
        if report.resumed { ", resumed" } else { "" }
    )?;
    if report.board.as_piece().is_some() {
        outln!("piece               {}", report.board.piece_name())?;
    }
    outln!("legal positions     {}", tally.legal_positions)?;
    outln!("canonical positions {}", tally.positions)?;
    outln!("ko states           {}", tally.ko_states)?;
    outln!("states              {}", tally.states())?;
    let classes = &report.classes;
    outln!(
        "classes             (Bouzy's patterns) under the board's {} symmetr{}, and with the colours exchanged too:",
        classes.symmetries,
        if classes.symmetries == 1 { "y" } else { "ies" }
    )?;
    outln!(
        "  without capture   {} positions, {} classes, {} with inversion",
        classes.positions,
        classes.classes,
        classes.classes_inverted
    )?;
    outln!(
        "  with capture      {} positions, {} classes, {} with inversion",
        classes.legal_positions,
        classes.legal_classes,
        classes.legal_classes_inverted
    )?;
    if let Some(estimate) = &report.estimate {
        outln!(
            "edges (estimate)    {:.0} ± {:.0} (standard error, {:.3}%)",
            estimate.edges,
            estimate.standard_error,
            100.0 * estimate.standard_error / estimate.edges.max(1.0)
        )?;
        outln!(
            "edges, 95% interval {:.0} to {:.0}",
            estimate.low,
            estimate.high
        )?;
        outln!(
            "edges per state     {:.3} (from {} sampled positions, seed {})",
            estimate.edges / tally.states().max(1) as f64,
            estimate.samples,
            estimate.seed
        )?;
        outln!(
            "edges counted       the solver's (as a table's header): each state's moves to a distinct child, and a pass that ends the game; `analyze cycles` leaves that pass out"
        )?;
    }
    outln!("time                {:.1} s", report.seconds)
}

/// The report as a `count` object (`docs/json.md`).
fn json(report: &Report) -> Json {
    let tally = &report.tally;
    let edges = report.estimate.as_ref().map(|estimate| {
        Json::object()
            .with("estimate", estimate.edges.round())
            .with("standard_error", estimate.standard_error)
            .with("low_95", estimate.low.round())
            .with("high_95", estimate.high.round())
            .with("per_state", estimate.edges / tally.states().max(1) as f64)
            .with("samples", estimate.samples)
            .with("seed", estimate.seed)
    });
    let c = &report.classes;
    let classes = Json::object()
        .with("symmetries", c.symmetries)
        .with("positions", c.positions)
        .with("classes", c.classes)
        .with("classes_inverted", c.classes_inverted)
        .with("legal_positions", c.legal_positions)
        .with("legal_classes", c.legal_classes)
        .with("legal_classes_inverted", c.legal_classes_inverted);
    let piece = report.board.as_piece().map(|_| report.board.piece_name());
    Json::kind("count")
        .with("board", report.board.name())
        .with("piece", piece)
        .with("codes", report.codes)
        .with("chunks", report.chunks)
        .with("legal_positions", tally.legal_positions)
        .with("canonical_positions", tally.positions)
        .with("ko_states", tally.ko_states)
        .with("states", tally.states())
        .with("classes", classes)
        .with("solver_edges", edges)
        .with("seconds", report.seconds)
        .with("resumed", report.resumed)
}

/// `smallgo count`.
pub fn run(arguments: &CountArguments) -> ExitCode {
    let default = arguments.state.is_none();
    let state = arguments
        .state
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{}.count", arguments.board.file_stem())));
    match counts(arguments, &state) {
        Ok(report) => {
            let written = if arguments.json {
                outln!("{}", json(&report))
            } else {
                print(&report)
            };
            // The progress stays until the report is out: a report that
            // could not be written is had again at once from it.
            if default && written.is_ok() {
                if let Err(error) = std::fs::remove_file(&state) {
                    if error.kind() != std::io::ErrorKind::NotFound {
                        log::warn!("cannot remove {}: {error}", state.display());
                    }
                }
            }
            match written {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => output_failed(&error),
            }
        }
        Err(Failure::Error(message)) => {
            eprintln!("smallgo: count: {message}");
            ExitCode::from(EXIT_FAILURE)
        }
        Err(Failure::Interrupted(message)) => {
            eprintln!("smallgo: count: stopped: {message}");
            ExitCode::from(EXIT_INTERRUPTED)
        }
    }
}
