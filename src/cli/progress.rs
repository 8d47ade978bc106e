//! What a build or a verification shows while it runs: on a terminal a
//! progress bar per step (the solve's phases, writing the table, the
//! verifier's sweeps) with what it counts, its rate and ETA, or a spinner
//! for a step of unknown length; otherwise a log line per step, per margin
//! level of the retrograde phase and every 30 s, with the time left. Rates
//! and times left count the work of this run alone (not what a checkpoint
//! resumed from holds); the whole build's time left scales a model of the
//! phases' relative times by the times of the phases seen so far. Also the
//! Ctrl-C (and SIGTERM) flag the solve and the writer poll.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::common::files::remove_live_temporaries;
use crate::solver::{Observer, Phase};
use crate::table::verify::VerifyObserver;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The signals the handler takes that were ignored when smallgo started
/// (`nohup` ignores SIGHUP; a shell ignores SIGINT in background jobs of a
/// script).
#[cfg(unix)]
fn ignored_signals() -> Vec<libc::c_int> {
    [libc::SIGINT, libc::SIGTERM, libc::SIGHUP]
        .into_iter()
        .filter(|&signal| {
            // SAFETY: a query only: no new action is given.
            unsafe {
                let mut current: libc::sigaction = std::mem::zeroed();
                libc::sigaction(signal, std::ptr::null(), &mut current) == 0
                    && current.sa_sigaction == libc::SIG_IGN
            }
        })
        .collect()
}

/// Installs the handler of Ctrl-C, SIGTERM and SIGHUP: the first asks the
/// build to stop cleanly (no table is written), a second one removes this
/// process's temporary files and exits at once. A signal that was ignored
/// when smallgo started stays ignored, so that `nohup smallgo --build`
/// outlives its terminal.
pub fn catch_interrupts() {
    #[cfg(unix)]
    let ignored = ignored_signals();
    let _ = ctrlc::set_handler(|| {
        // Written without eprintln!, which would panic on a closed stderr.
        let mut stderr = std::io::stderr();
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            // Held until the exit, so that no new temporary file appears.
            let _no_new_temporaries = remove_live_temporaries();
            let _ = writeln!(stderr, "smallgo: interrupted again: stopping at once");
            std::process::exit(130);
        }
        let _ = writeln!(
            stderr,
            "smallgo: interrupted: stopping (once more to stop at once)"
        );
    });
    #[cfg(unix)]
    for signal in ignored {
        // SAFETY: restores the disposition the process started with.
        unsafe {
            libc::signal(signal, libc::SIG_IGN);
        }
    }
}

/// The bar being drawn, if any: log lines are written above it.
static DRAWN: Mutex<Option<ProgressBar>> = Mutex::new(None);

fn drawn() -> std::sync::MutexGuard<'static, Option<ProgressBar>> {
    DRAWN.lock().unwrap_or_else(|e| e.into_inner())
}

/// Standard error for log lines: while a bar is drawn, a line is written
/// above it (the bar is cleared, the line written, the bar redrawn), not
/// onto the bar's line.
pub struct LogOutput;

impl Write for LogOutput {
    fn write(&mut self, text: &[u8]) -> std::io::Result<usize> {
        let bar = drawn().clone();
        match bar {
            Some(bar) => bar.suspend(|| std::io::stderr().write_all(text))?,
            None => std::io::stderr().write_all(text)?,
        }
        Ok(text.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

/// Whether Ctrl-C was pressed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Shows a build's or a verification's progress.
pub struct BuildProgress {
    board: String,
    /// Whether stderr is a terminal, to draw bars on.
    terminal: bool,
    /// The bar of the current step; each step gets a new one, so that no
    /// line mixes two steps.
    bar: Mutex<Option<ProgressBar>>,
    started: Instant,
    phase_started: Mutex<Instant>,
    done: AtomicU64,
    total: AtomicU64,
    /// The part of `done` an earlier run did (a checkpoint resumed from),
    /// left out of the rate and the time left; shared with the bar's style.
    resumed: Arc<AtomicU64>,
    /// The phases' times, for the whole build's time left; shared with the
    /// bar's style.
    timing: Arc<Mutex<Timing>>,
    /// The current step's name and unit, for its log lines.
    step: Mutex<(String, String)>,
    /// When the last log line of the current step was written.
    last_log: Mutex<Instant>,
}

/// How often, at most, a log line tells a step's progress between its
/// margin levels.
const LOG_INTERVAL: Duration = Duration::from_secs(30);

/// The build's phases in order, with their relative times: seconds on
/// 3x6c (23 M states; 3.1, 1.8, 9.6 and 1.9 s measured), the model the
/// whole build's time left is scaled from.
const PHASE_WEIGHTS: [(Phase, f64); 4] = [
    (Phase::Enumerate, 3.1),
    (Phase::CountChildren, 1.8),
    (Phase::Retrograde, 9.6),
    (Phase::Write, 1.9),
];

fn weight(phase: Phase) -> f64 {
    PHASE_WEIGHTS
        .iter()
        .find(|(p, _)| *p == phase)
        .map_or(0.0, |(_, weight)| *weight)
}

/// The times of a build's phases so far: those finished, and the current
/// one (none during a step that is no phase, as the verifier's).
struct Timing {
    finished: Vec<(Phase, f64)>,
    current: Option<(Phase, Instant)>,
}

impl Timing {
    fn lock(timing: &Mutex<Timing>) -> std::sync::MutexGuard<'_, Timing> {
        timing.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The current step is `phase` (or a step that is no phase), from now.
    fn start(&mut self, phase: Option<Phase>) {
        if let Some((done, started)) = self.current.take() {
            self.finished.push((done, started.elapsed().as_secs_f64()));
        }
        self.current = phase.map(|phase| (phase, Instant::now()));
    }

    /// Seconds left in the whole build: the current phase's `left` (if
    /// its rate gives it), and the phases after it, scaled from the
    /// phases' model by the times of those seen so far (the current one's
    /// taken as its time so far and `left`). `None` before any phase has a
    /// time to scale by.
    fn build_left(&self, left: Option<f64>) -> Option<f64> {
        let (mut seconds, mut weights) = self
            .finished
            .iter()
            .fold((0.0, 0.0), |(s, w), (phase, time)| {
                (s + time, w + weight(*phase))
            });
        let current = self
            .current
            .map(|(phase, started)| (phase, started.elapsed().as_secs_f64()));
        if let (Some((phase, elapsed)), Some(left)) = (current, left) {
            seconds += elapsed + left;
            weights += weight(phase);
        }
        if weights <= 0.0 {
            return None;
        }
        let scale = seconds / weights;
        let Some((phase, elapsed)) = current else {
            return left;
        };
        let here = left.unwrap_or((weight(phase) * scale - elapsed).max(0.0));
        let later: f64 = PHASE_WEIGHTS
            .iter()
            .skip_while(|(p, _)| *p != phase)
            .skip(1)
            .map(|(_, weight)| weight * scale)
            .sum();
        Some(here + later)
    }
}

/// The style of a step whose length is unknown: a spinner and the time.
fn spinner_style() -> ProgressStyle {
    ProgressStyle::with_template("{prefix} {spinner} [{elapsed_precise}]{msg}")
        .expect("a valid template")
}

/// Units per second of this run: the work done since it started
/// (`done` less what an earlier run did, `resumed`) over the time since.
fn rate(done: u64, resumed: u64, seconds: f64) -> f64 {
    done.saturating_sub(resumed) as f64 / seconds.max(1e-3)
}

/// Seconds left at `rate` for the work from `done` to `total`; `None`
/// before any work of this run is done.
fn seconds_left(done: u64, total: u64, rate: f64) -> Option<f64> {
    (rate > 0.0).then(|| total.saturating_sub(done) as f64 / rate)
}

/// A duration in whole seconds, as `42s`, `3m05s`, `2h07m`.
fn duration_text(seconds: f64) -> String {
    let seconds = seconds.round() as u64;
    match seconds {
        0..60 => format!("{seconds}s"),
        60..3600 => format!("{}m{:02}s", seconds / 60, seconds % 60),
        _ => format!("{}h{:02}m", seconds / 3600, seconds % 3600 / 60),
    }
}

/// The style of a step of `unit`s: a bar, the count, the rate and the ETA,
/// both of this run's work alone (the part `resumed` holds left out).
fn bar_style(resumed: Arc<AtomicU64>, timing: Arc<Mutex<Timing>>) -> ProgressStyle {
    // At most 66 characters besides the bar (`2x10c retrograde margin -13
    // [] 37% 1.73 M/s ETA 59m59s, build 1h02m`), so that the bar keeps some
    // width in 80 columns; the unit is the phase's, named in its log line.
    let template = "{prefix}{msg} [{wide_bar}] {percent}% {rate} ETA {eta}";
    let resumed_too = Arc::clone(&resumed);
    ProgressStyle::with_template(template)
        .expect("a valid template")
        .with_key(
            "rate",
            move |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                let per_second = rate(
                    state.pos(),
                    resumed.load(Ordering::Relaxed),
                    state.elapsed().as_secs_f64(),
                );
                let _ = write!(out, "{}/s", rate_number(per_second));
            },
        )
        .with_key(
            "eta",
            move |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                let per_second = rate(
                    state.pos(),
                    resumed_too.load(Ordering::Relaxed),
                    state.elapsed().as_secs_f64(),
                );
                let left = seconds_left(state.pos(), state.len().unwrap_or(0), per_second);
                let _ = match left {
                    Some(left) => write!(out, "{}", duration_text(left)),
                    None => write!(out, "?"),
                };
                if let Some(all) = Timing::lock(&timing).build_left(left) {
                    let _ = write!(out, ", build {}", duration_text(all));
                }
            },
        )
}

/// A number with a metric prefix: `3.42 M`, `812`.
fn rate_number(per_second: f64) -> String {
    if per_second >= 1e6 {
        format!("{:.2} M", per_second / 1e6)
    } else if per_second >= 1e3 {
        format!("{:.1} k", per_second / 1e3)
    } else {
        format!("{per_second:.0}")
    }
}

/// A bar on stderr, styled before it is first drawn; it is drawn once it
/// ticks (`show`).
fn new_bar(total: Option<u64>, style: ProgressStyle, prefix: String) -> ProgressBar {
    ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr())
        .with_style(style)
        .with_prefix(prefix)
}

/// Starts drawing a bar, and redrawing it five times a second.
fn show(bar: &ProgressBar) {
    bar.enable_steady_tick(Duration::from_millis(200));
}

impl BuildProgress {
    pub fn new(board: String) -> BuildProgress {
        let terminal = std::io::stderr().is_terminal();
        // Until the first step: a spinner.
        let bar = terminal.then(|| {
            let bar = new_bar(None, spinner_style(), board.clone());
            show(&bar);
            *drawn() = Some(bar.clone());
            bar
        });
        BuildProgress {
            board,
            terminal,
            bar: Mutex::new(bar),
            started: Instant::now(),
            phase_started: Mutex::new(Instant::now()),
            done: AtomicU64::new(0),
            total: AtomicU64::new(0),
            resumed: Arc::new(AtomicU64::new(0)),
            timing: Arc::new(Mutex::new(Timing {
                finished: Vec::new(),
                current: None,
            })),
            step: Mutex::new((String::new(), String::new())),
            last_log: Mutex::new(Instant::now()),
        }
    }

    /// Removes the bar before the summary is printed.
    pub fn finish(&self) {
        if let Some(bar) = self.bar().take() {
            *drawn() = None;
            bar.finish_and_clear();
        }
    }

    fn bar(&self) -> std::sync::MutexGuard<'_, Option<ProgressBar>> {
        self.bar.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A step begins: `total` units of `unit`, or work of unknown length
    /// when `total` is 0 (a spinner on a terminal). Off a terminal, one log
    /// line.
    pub(crate) fn start_step(&self, step: &str, total: u64, unit: &str) {
        self.start(None, step, total, unit);
    }

    /// A step begins, `phase` of the build or none.
    fn start(&self, phase: Option<Phase>, step: &str, total: u64, unit: &str) {
        Timing::lock(&self.timing).start(phase);
        *self.step.lock().unwrap_or_else(|e| e.into_inner()) = (step.to_string(), unit.to_string());
        *self.last_log.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        *self.phase_started.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        self.done.store(0, Ordering::Relaxed);
        self.total.store(total, Ordering::Relaxed);
        self.resumed.store(0, Ordering::Relaxed);
        if self.terminal {
            let prefix = format!("{} {step}", self.board);
            let bar = if total == 0 {
                new_bar(None, spinner_style(), prefix)
            } else {
                new_bar(
                    Some(total),
                    bar_style(Arc::clone(&self.resumed), Arc::clone(&self.timing)),
                    prefix,
                )
            };
            let mut current = self.bar();
            if let Some(old) = current.replace(bar.clone()) {
                old.finish_and_clear();
            }
            show(&bar);
            *drawn() = Some(bar);
        } else {
            let size = match total {
                0 => String::new(),
                1 => format!("1 {}; ", unit.strip_suffix('s').unwrap_or(unit)),
                _ => format!("{total} {unit}; "),
            };
            let all = match Timing::lock(&self.timing).build_left(None) {
                Some(all) => format!("; the build about {} left", duration_text(all)),
                None => String::new(),
            };
            log::info!(
                "{}: {step} ({size}{:.1} s in{all})",
                self.board,
                self.started.elapsed().as_secs_f64()
            )
        }
    }

    /// Off a terminal: how far the current step is, and the time left in
    /// it and in the whole build: `45.2% done, 4.7 M decisions/s, about
    /// 12s left (the build about 20s)`.
    fn how_far(&self) -> String {
        let done = self.done.load(Ordering::Relaxed);
        let total = self.total.load(Ordering::Relaxed);
        let seconds = self
            .phase_started
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .elapsed()
            .as_secs_f64();
        let per_second = self.rate_now(done, seconds);
        let left = seconds_left(done, total, per_second);
        let unit = self
            .step
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .1
            .clone();
        let mut text = format!(
            "{:.1}% done, {} {unit}/s",
            100.0 * done as f64 / total.max(1) as f64,
            rate_number(per_second)
        );
        if let Some(left) = left {
            text += &format!(", about {} left", duration_text(left));
        }
        if let Some(all) = Timing::lock(&self.timing).build_left(left) {
            text += &format!(" (the build about {})", duration_text(all));
        }
        text
    }

    /// This run's rate in the current step, after `seconds` of it with
    /// `done` of its work done.
    fn rate_now(&self, done: u64, seconds: f64) -> f64 {
        rate(done, self.resumed.load(Ordering::Relaxed), seconds)
    }

    /// Off a terminal, a line on the current step's progress once every
    /// `LOG_INTERVAL`.
    fn log_now_and_then(&self) {
        if self.terminal || self.total.load(Ordering::Relaxed) == 0 {
            return;
        }
        let Ok(mut last) = self.last_log.try_lock() else {
            return;
        };
        if last.elapsed() < LOG_INTERVAL {
            return;
        }
        *last = Instant::now();
        drop(last);
        let step = self
            .step
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .0
            .clone();
        log::info!("{}: {step}: {}", self.board, self.how_far());
    }
}

impl Observer for BuildProgress {
    fn phase_started(&self, phase: Phase, total: u64) {
        self.start(Some(phase), phase.name(), total, phase.unit());
    }

    fn advanced(&self, work: u64) {
        self.done.fetch_add(work, Ordering::Relaxed);
        if let Some(bar) = self.bar().as_ref() {
            bar.inc(work);
        }
        self.log_now_and_then();
    }

    fn resumed(&self, work: u64) {
        self.resumed.fetch_add(work, Ordering::Relaxed);
        Observer::advanced(self, work);
    }

    fn level_started(&self, level: i32) {
        if let Some(bar) = self.bar().as_ref() {
            bar.set_message(format!(" margin {level:+}"));
        }
    }

    fn level_finished(&self, level: i32, layers: u32, flips: u64) {
        if !self.terminal {
            log::info!(
                "{}: margin {level:+}: {flips} states decided in {layers} layers; {}",
                self.board,
                self.how_far()
            );
        }
    }

    fn cancelled(&self) -> bool {
        interrupted()
    }
}

impl VerifyObserver for BuildProgress {
    fn step_started(&self, step: &str, blocks: u64) {
        self.start_step(&format!("verify: {step}"), blocks, "blocks");
    }

    fn advanced(&self, blocks: u64) {
        Observer::advanced(self, blocks);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_and_the_time_left_count_this_runs_work_alone() {
        // 600 of 1000 done, 500 of them by an earlier run, in 10 s here.
        let per_second = rate(600, 500, 10.0);
        assert_eq!(per_second, 10.0);
        assert_eq!(seconds_left(600, 1000, per_second), Some(40.0));
        assert_eq!(seconds_left(500, 1000, rate(500, 500, 1.0)), None);
    }

    #[test]
    fn work_resumed_from_a_checkpoint_is_done_but_not_in_the_rate() {
        let progress = BuildProgress::new("3x5".into());
        progress.phase_started(Phase::Retrograde, 2_000_000_000);
        progress.resumed(1_000_000_000);
        Observer::advanced(&progress, 10);
        assert_eq!(progress.done.load(Ordering::Relaxed), 1_000_000_010);
        // At most 10 decisions over the rate's shortest time, 1 ms.
        let done = progress.done.load(Ordering::Relaxed);
        assert!(progress.rate_now(done, 0.0) <= 10_000.0);
        assert!(progress.how_far().starts_with("50.0% done"));
    }

    #[test]
    fn the_build_left_scales_the_phases_model_by_the_phases_seen() {
        let mut timing = Timing {
            finished: vec![(Phase::Enumerate, 2.0 * weight(Phase::Enumerate))],
            current: None,
        };
        timing.start(Some(Phase::CountChildren));
        let later = weight(Phase::Retrograde) + weight(Phase::Write);
        // The count's own estimate, then the retrograde and the writing at
        // the model's times scaled as the enumeration and the count (its
        // 1 s left) take.
        let left = timing.build_left(Some(1.0)).unwrap();
        let scale = (2.0 * weight(Phase::Enumerate) + 1.0)
            / (weight(Phase::Enumerate) + weight(Phase::CountChildren));
        assert!((left - 1.0 - scale * later).abs() < 0.1, "{left}");
        // Without the count's estimate: twice the model's times, as the
        // enumeration took, for the count too.
        let later = 2.0 * later;
        let left = timing.build_left(None).unwrap();
        assert!((left - later - 2.0 * weight(Phase::CountChildren)).abs() < 0.1);
        let nothing_seen = Timing {
            finished: Vec::new(),
            current: Some((Phase::Enumerate, Instant::now())),
        };
        assert_eq!(nothing_seen.build_left(None), None);
    }

    /// A terminal of 80 columns that keeps the lines drawn on it.
    #[derive(Debug, Default, Clone)]
    struct Columns80(Arc<Mutex<Vec<String>>>);

    impl indicatif::TermLike for Columns80 {
        fn width(&self) -> u16 {
            80
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, line: &str) -> std::io::Result<()> {
            self.write_str(line)
        }
        fn write_str(&self, text: &str) -> std::io::Result<()> {
            self.0.lock().unwrap().push(text.to_string());
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_bar_fits_in_80_columns() {
        let terminal = Columns80::default();
        let timing = Arc::new(Mutex::new(Timing {
            finished: vec![(Phase::Enumerate, 3.0), (Phase::CountChildren, 2.0)],
            current: None,
        }));
        Timing::lock(&timing).start(Some(Phase::Retrograde));
        let bar = ProgressBar::with_draw_target(
            Some(46_094_968),
            ProgressDrawTarget::term_like(Box::new(terminal.clone())),
        )
        .with_style(bar_style(Arc::new(AtomicU64::new(0)), timing))
        .with_prefix("2x10c retrograde");
        bar.set_message(" margin -13");
        std::thread::sleep(Duration::from_millis(20));
        bar.set_position(17_000_000);
        bar.tick();
        let lines = terminal.0.lock().unwrap().clone();
        let line = lines.iter().rev().find(|l| l.contains("ETA")).unwrap();
        assert!(line.contains(", build "), "{line}");
        assert!(
            line.chars().count() <= 80,
            "{} columns: {line}",
            line.chars().count()
        );
        // Room for a bar of 10 here, so that one of 3 stays with the
        // longest times left (`59m59s, build 1h02m`, 7 more characters).
        let bar = line.split('[').nth(1).unwrap().split(']').next().unwrap();
        assert!(bar.chars().count() >= 10, "the bar is {bar}: {line}");
    }

    #[test]
    fn durations_are_short() {
        assert_eq!(duration_text(42.4), "42s");
        assert_eq!(duration_text(185.0), "3m05s");
        assert_eq!(duration_text(7620.0), "2h07m");
    }
}
