//! What a build or a verification shows while it runs: on a terminal a progress bar (phase,
//! margin level, states done, rate, ETA); otherwise plain log lines. Also the
//! Ctrl-C (and SIGTERM) flag the solve polls.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::solver::{Observer, Phase};
use crate::table::verify::VerifyObserver;
use crate::table::writer::remove_live_temporaries;

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

/// Whether Ctrl-C was pressed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Shows a build's or a verification's progress.
pub struct BuildProgress {
    board: String,
    bar: Option<ProgressBar>,
    started: Instant,
    phase_started: Mutex<Instant>,
    done: AtomicU64,
    total: AtomicU64,
}

impl BuildProgress {
    pub fn new(board: String) -> BuildProgress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        BuildProgress {
            board,
            bar,
            started: Instant::now(),
            phase_started: Mutex::new(Instant::now()),
            done: AtomicU64::new(0),
            total: AtomicU64::new(0),
        }
    }

    /// Removes the bar before the summary is printed.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl BuildProgress {
    /// A step begins: `total` units of `unit` (0 when unknown).
    fn start_step(&self, step: &str, total: u64, unit: &str) {
        *self.phase_started.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        self.done.store(0, Ordering::Relaxed);
        self.total.store(total, Ordering::Relaxed);
        match &self.bar {
            Some(bar) => {
                let template = if total == 0 {
                    "{prefix:>14} {spinner} {elapsed_precise} {msg}".to_string()
                } else {
                    format!("{{prefix:>14}} [{{elapsed_precise}}] [{{wide_bar}}] {{human_pos}}/{{human_len}} {unit} {{rate}} ETA {{eta}} {{msg}}")
                };
                let style = ProgressStyle::with_template(&template)
                    .expect("a valid template")
                    .with_key(
                        "rate",
                        |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                            let _ = write!(out, "{:.2} M/s", state.per_sec() / 1e6);
                        },
                    );
                bar.set_style(style);
                bar.set_prefix(format!("{} {step}", self.board));
                bar.set_length(total);
                bar.set_position(0);
                bar.reset_eta();
                bar.set_message("");
            }
            None => log::info!(
                "{}: {step} ({:.1} s in)",
                self.board,
                self.started.elapsed().as_secs_f64()
            ),
        }
    }
}

impl Observer for BuildProgress {
    fn phase_started(&self, phase: Phase, total: u64) {
        // The retrograde phase decides every state twice (won, lost).
        let unit = match phase {
            Phase::Retrograde => "decisions",
            _ => "positions",
        };
        self.start_step(phase.name(), total, unit);
    }

    fn advanced(&self, work: u64) {
        self.done.fetch_add(work, Ordering::Relaxed);
        if let Some(bar) = &self.bar {
            bar.inc(work);
        }
    }

    fn level_started(&self, level: i32) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!("margin {level:+}"));
        }
    }

    fn level_finished(&self, level: i32, layers: u32, flips: u64) {
        if self.bar.is_none() {
            let done = self.done.load(Ordering::Relaxed);
            let total = self.total.load(Ordering::Relaxed).max(1);
            let seconds = self
                .phase_started
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .elapsed()
                .as_secs_f64();
            log::info!(
                "{}: margin {level:+}: {flips} states decided in {layers} layers; {:.1}% done, {:.0} states/s",
                self.board,
                100.0 * done as f64 / total as f64,
                done as f64 / seconds.max(1e-9)
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
