//! The solve as a whole: it writes the shipped tables byte for byte, in
//! memory and with its spools in files, and a solve stopped at any level
//! resumes from its checkpoint to the same bytes; a checkpoint or spool with
//! any bit changed is refused and the solve starts afresh, to the same
//! bytes again.

use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use crate::rules::board::Board;
use crate::solver::checkpoint::{WorkFolder, HEADER_SIZE};
use crate::solver::{solve, solve_in, solve_in_partitions, Observer, Silent, Workspace};
use crate::table::writer::encode;

fn board(name: &str) -> Board {
    name.parse().unwrap()
}

fn shipped(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tablebases")
        .join(format!("{name}.sgtb"));
    std::fs::read(path).unwrap()
}

/// The tables in `tablebases/` were built and verified before: solving
/// their boards again gives the same bytes.
#[test]
fn solves_give_the_shipped_tables() {
    for name in [
        "1x1", "1x2", "1x3", "1x4", "1x5", "1x7", "1x9", "1x12", "2x2", "2x3", "2x4", "2x5", "2x6",
        "2x7", "3x3", "3x4", "3x5", "4x4", "1x7c", "1x12c", "2x4c", "2x7c", "3x3c", "3x4c", "4x3c",
    ] {
        let (bytes, _) = encode(&solve(board(name), &Silent).unwrap());
        assert!(
            bytes == shipped(name),
            "{name}: other bytes than the shipped table"
        );
    }
}

/// Spools in files, in partitions as small as they go (many on the bigger
/// boards), give the same table as spools in memory.
#[test]
fn spools_in_files_and_in_many_partitions_give_the_same_table() {
    let folder = tempfile::tempdir().unwrap();
    for name in ["2x3", "3x3", "3x4", "2x6", "1x12"] {
        let table = folder.path().join(format!("{name}.sgtb"));
        let work = WorkFolder::open(&table, Duration::from_secs(3600)).unwrap();
        let solution =
            solve_in_partitions(board(name), Workspace::Folder(&work), &Silent, Some(0)).unwrap();
        assert!(encode(&solution).0 == shipped(name), "{name}");
        drop(solution);
        work.remove();
    }
}

/// Stops a solve once `levels` levels are done.
struct StopAfter {
    levels: u32,
    done: AtomicU32,
}

impl Observer for StopAfter {
    fn level_finished(&self, _level: i32, _layers: u32, _flips: u64) {
        self.done.fetch_add(1, Ordering::Relaxed);
    }

    fn cancelled(&self) -> bool {
        self.done.load(Ordering::Relaxed) >= self.levels
    }
}

/// Solves `name` in a working folder saving before every level, stopped
/// after `levels` levels; returns the folder's table path.
fn stop_after(folder: &Path, name: &str, levels: u32) -> std::path::PathBuf {
    let table = folder.join(format!("{name}.sgtb"));
    let work = WorkFolder::open(&table, Duration::ZERO).unwrap();
    let stop = StopAfter {
        levels,
        done: AtomicU32::new(0),
    };
    assert!(solve_in(board(name), Workspace::Folder(&work), &stop).is_err());
    assert!(work.has_checkpoint());
    table
}

/// Resumes the solve of `name` from the working folder beside `table`.
fn resume(table: &Path, name: &str) -> Vec<u8> {
    let work = WorkFolder::open(table, Duration::from_secs(3600)).unwrap();
    let solution = solve_in(board(name), Workspace::Folder(&work), &Silent).unwrap();
    let (bytes, _) = encode(&solution);
    drop(solution);
    work.remove();
    bytes
}

#[test]
fn a_stopped_solve_resumes_to_the_same_table() {
    let folder = tempfile::tempdir().unwrap();
    for (name, levels) in [("2x4", 1), ("2x4", 9), ("3x3", 18), ("3x4", 5), ("3x4", 24)] {
        let table = stop_after(folder.path(), name, levels);
        assert!(
            resume(&table, name) == shipped(name),
            "{name} after {levels}"
        );
    }
}

/// Stops a solve once it has done `layers` layers (of any levels).
struct StopAfterLayers {
    layers: u32,
    done: AtomicU32,
    /// Whether the retrograde has begun (`advanced` also counts the work
    /// of the phases before it).
    started: std::sync::atomic::AtomicBool,
}

impl Observer for StopAfterLayers {
    fn level_started(&self, _level: i32) {
        self.started.store(true, Ordering::Relaxed);
    }

    fn advanced(&self, _states: u64) {
        if self.started.load(Ordering::Relaxed) {
            self.done.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn cancelled(&self) -> bool {
        self.done.load(Ordering::Relaxed) >= self.layers
    }
}

/// A solve saving at every boundary and stopped between two layers of a
/// level resumes from the checkpoint saved there (inside the level, as its
/// header says) to the table of an uninterrupted solve.
#[test]
fn a_solve_stopped_inside_a_level_resumes_to_the_same_table() {
    let folder = tempfile::tempdir().unwrap();
    let mut inside = 0;
    for (name, layers) in [("2x4", 3), ("3x3", 40), ("3x4", 7), ("3x4", 150)] {
        let table = folder.path().join(format!("{name}.sgtb"));
        let work = WorkFolder::open(&table, Duration::ZERO).unwrap();
        let stop = StopAfterLayers {
            layers,
            done: AtomicU32::new(0),
            started: Default::default(),
        };
        assert!(solve_in(board(name), Workspace::Folder(&work), &stop).is_err());
        drop(work);
        let checkpoint =
            std::fs::read(table.with_extension("sgtb.work").join("checkpoint")).unwrap();
        let next_depth = u32::from_le_bytes(checkpoint[104..108].try_into().unwrap());
        inside += (next_depth > 1) as u32;
        assert!(
            resume(&table, name) == shipped(name),
            "{name} after {layers} layers"
        );
    }
    assert!(
        inside >= 3,
        "only {inside} of the stops were inside a level"
    );
}

/// Every bit of a small checkpoint's header, and a bit of every few bytes
/// of its spool marks, its tallies and its spools: each flip is refused
/// (the solve starts afresh) and the table comes out the same.
#[test]
fn a_damaged_checkpoint_or_spool_never_gives_another_table() {
    let folder = tempfile::tempdir().unwrap();
    let name = "2x3";
    let expected = shipped(name);
    let table = stop_after(folder.path(), name, 6);
    let work = table.with_extension("sgtb.work");
    let pristine: Vec<(std::path::PathBuf, Vec<u8>)> = std::fs::read_dir(&work)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap() != "lock")
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect();
    let restore = || {
        std::fs::create_dir_all(&work).unwrap();
        for (path, bytes) in &pristine {
            std::fs::write(path, bytes).unwrap();
        }
    };
    let mut tried = 0;
    for (path, bytes) in &pristine {
        let is_checkpoint = path.file_name().unwrap() == "checkpoint";
        // The checkpoint's header bit by bit; elsewhere a bit of every few
        // bytes.
        let header = if is_checkpoint { HEADER_SIZE } else { 0 };
        let places = (0..header).chain((header..bytes.len()).step_by(5));
        for at in places {
            let bits: Vec<u8> = if at < header {
                (0..8).collect()
            } else {
                vec![(at % 8) as u8]
            };
            for bit in bits {
                restore();
                let mut damaged = bytes.clone();
                damaged[at] ^= 1 << bit;
                std::fs::write(path, &damaged).unwrap();
                assert!(
                    resume(&table, name) == expected,
                    "{} byte {at} bit {bit}",
                    path.display()
                );
                tried += 1;
            }
        }
    }
    assert!(tried > 300, "{tried} flips");
}

/// Sums the retrograde phase's work, split into what this run did
/// (`advanced`) and what a checkpoint held (`resumed`).
#[derive(Default)]
struct RetrogradeWork {
    in_retrograde: std::sync::atomic::AtomicBool,
    advanced: std::sync::atomic::AtomicU64,
    resumed: std::sync::atomic::AtomicU64,
}

impl Observer for RetrogradeWork {
    fn phase_started(&self, phase: crate::solver::Phase, _total: u64) {
        let retrograde = phase == crate::solver::Phase::Retrograde;
        self.in_retrograde.store(retrograde, Ordering::Relaxed);
    }

    fn advanced(&self, work: u64) {
        if self.in_retrograde.load(Ordering::Relaxed) {
            self.advanced.fetch_add(work, Ordering::Relaxed);
        }
    }

    fn resumed(&self, work: u64) {
        self.resumed.fetch_add(work, Ordering::Relaxed);
    }
}

/// A resumed solve reports the work its checkpoint held as resumed, not as
/// done by this run (the progress rate counts this run's work alone): the
/// two parts add up to an uninterrupted solve's work.
#[test]
fn a_resumed_solve_reports_the_checkpoints_work_apart() {
    let folder = tempfile::tempdir().unwrap();
    for (name, levels) in [("2x4", 4), ("3x4", 12)] {
        let whole = RetrogradeWork::default();
        solve(board(name), &whole).unwrap();
        let whole = whole.advanced.into_inner();
        let table = stop_after(folder.path(), name, levels);
        let work = WorkFolder::open(&table, Duration::from_secs(3600)).unwrap();
        let resumed = RetrogradeWork::default();
        solve_in(board(name), Workspace::Folder(&work), &resumed).unwrap();
        work.remove();
        let (this_run, earlier) = (resumed.advanced.into_inner(), resumed.resumed.into_inner());
        assert!(
            earlier > 0 && this_run > 0,
            "{name}: {earlier} and {this_run}"
        );
        assert_eq!(earlier + this_run, whole, "{name} after {levels} levels");
    }
}
