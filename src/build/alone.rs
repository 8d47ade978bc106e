//! The build by this process alone: every state of the board solved here
//! (`solver::solve_in`), its values kept in the working folder, and the
//! table written from them (`table::writer::encode_into`). The work runs on
//! threads made once the checks have passed, one a core, so that threads
//! the system refuses (a memory limit) are an error with the reason, not a
//! panic in the middle of the build.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use super::{BuildError, Solved, Solver};
use crate::index::StateCounts;
use crate::rules::board::Board;
use crate::rules::state::State;
use crate::solver::checkpoint::WorkFolder;
use crate::solver::{solve_in, Observer, Solution, SolveError, SolveStats, Workspace};
use crate::table::values::rating::{best_moves, root_result};
use crate::table::verify::{spot_check, spot_sample};
use crate::table::writer::encode_into;

/// This process, building alone.
#[derive(Debug, Default)]
pub struct Alone {
    /// The threads to work on, made by `prepare`.
    threads: OnceLock<rayon::ThreadPool>,
}

impl Alone {
    pub fn new() -> Alone {
        Alone::default()
    }
}

impl Solver for Alone {
    fn prepare(&self, board: Board) -> Result<(), BuildError> {
        let pool =
            rayon::ThreadPoolBuilder::new()
                .build()
                .map_err(|error| BuildError::Threads {
                    board: board.to_string(),
                    source: std::io::Error::other(error),
                })?;
        let _ = self.threads.set(pool);
        Ok(())
    }

    fn install<R: Send>(&self, work: impl FnOnce() -> R + Send) -> R {
        match self.threads.get() {
            Some(pool) => pool.install(work),
            None => work(),
        }
    }

    fn open_work(&self, table: &Path, interval: Duration) -> Result<(WorkFolder, PathBuf), String> {
        let work = WorkFolder::open(table, interval)?;
        let path = work.path().to_path_buf();
        Ok((work, path))
    }

    fn solve_then<R>(
        &self,
        board: Board,
        work: &WorkFolder,
        observer: &dyn Observer,
        then: impl FnOnce(&dyn Solved) -> R,
    ) -> Result<R, SolveError> {
        let solution = self.install(|| solve_in(board, Workspace::Folder(work), observer))?;
        // The values are read from the working folder until `then` returns.
        Ok(then(&Solo {
            solution,
            resumed: work.resumed(),
            alone: self,
        }))
    }
}

/// A board solved by this process alone.
struct Solo<'a> {
    solution: Solution,
    resumed: bool,
    alone: &'a Alone,
}

impl Solved for Solo<'_> {
    fn counts(&self) -> StateCounts {
        self.solution.index().counts()
    }

    fn stats(&self) -> SolveStats {
        *self.solution.stats()
    }

    fn index_bytes(&self) -> u64 {
        self.solution.index().memory_bytes() as u64
    }

    fn resumed(&self) -> bool {
        self.resumed
    }

    fn encode(
        &self,
        out: &mut BufWriter<File>,
        observer: &dyn Observer,
    ) -> std::io::Result<Option<u32>> {
        let encoded = self
            .alone
            .install(|| encode_into(&self.solution, out, observer))?;
        Ok(encoded.map(|(_, checksum)| checksum))
    }

    fn spot_check(&self, path: &Path) -> Result<u64, String> {
        let index = self.solution.index();
        let sample = spot_sample(index.counts().states);
        let edges = self.solution.stats().edges;
        self.alone
            .install(|| spot_check(path, index, edges, sample))
    }

    fn start_result(&self, _path: &Path) -> (String, Vec<String>) {
        let board = *self.solution.board();
        self.alone.install(|| {
            let result = root_result(&self.solution).unwrap_or_else(|e| e.to_string());
            let moves = best_moves(&self.solution, &State::start(), 0.0, true)
                .map(|moves| moves.iter().map(|m| m.name(&board)).collect())
                .unwrap_or_default();
            (result, moves)
        })
    }
}
