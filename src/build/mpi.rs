//! The build by the K processes of an MPI job (the `mpi` feature), each
//! solving its share of the board, through the same pipeline as a build by
//! one process.
//!
//! Every process indexes a run of the board's codes (`cluster::split_index`)
//! and solves the states of those positions (`solver::share::Part`:
//! consecutive whole table blocks), sending the updates for the others'
//! states to them after each round of a layer (`cluster::Cluster`), in its
//! own working folder `RxC.sgtb.mpi/rank-R` beside the table. Process 0
//! then writes the table: the directory the processes' indexes make
//! together, its own blocks, and the others' as they send them,
//! compressed, in order; the file is byte for byte the one a single
//! process writes. Before it is put in place, it checks a sample of states
//! that every process picks from its own (every state when the job resumed
//! from checkpoints). Process 0 alone checks the folder, holds the board's
//! lock and writes the table and the manifest; the board need not fit one
//! process, so no process checks that it does.

use std::cell::RefCell;
use std::fs::File;
use std::io::BufWriter;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::{ProcessFigures, Solved, Solver};
use crate::common::host::peak_memory;
use crate::index::{StateCounts, StateIndex};
use crate::rules::board::Board;
use crate::rules::state::{Child, State};
use crate::solver::checkpoint::WorkFolder;
use crate::solver::cluster::{split_index, Cluster};
use crate::solver::exchange::Exchange;
use crate::solver::lean::solve_share;
use crate::solver::share::{Share, Whole};
use crate::solver::{Observer, Phase, SolveError, SolveStats, Workspace};
use crate::table::format::directory_counts;
use crate::table::values::rating::{best_moves, root_result};
use crate::table::verify::{minimax, spot_check, spot_sample};
use crate::table::writer::{
    batch_blocks, block_positions, compress_blocks, encode_blocks, BLOCKS_PER_BATCH,
    POSITIONS_PER_BLOCK,
};
use crate::table::Table;

/// This process of an MPI job, building with the others.
pub struct Job<'a> {
    cluster: &'a Cluster,
}

impl Job<'_> {
    pub fn new(cluster: &Cluster) -> Job<'_> {
        Job { cluster }
    }
}

/// Whether any process says `flag`; every process learns the same.
fn any(cluster: &Cluster, flag: bool) -> bool {
    let mut flags = [flag as u64];
    cluster.sum(&mut flags).is_err() || flags[0] > 0
}

impl Solver for Job<'_> {
    fn writes(&self) -> bool {
        self.cluster.rank() == 0
    }

    fn whole_board(&self) -> bool {
        false
    }

    fn any(&self, flag: bool) -> bool {
        any(self.cluster, flag)
    }

    fn builders(&self) -> String {
        format!(", built by {} processes", self.cluster.processes())
    }

    fn checkpoints(&self) -> &'static str {
        "checkpoints"
    }

    fn open_work(&self, table: &Path, interval: Duration) -> Result<(WorkFolder, PathBuf), String> {
        let folder = table.parent().unwrap_or(Path::new(""));
        let name = table.file_name().unwrap_or_default().to_string_lossy();
        let works = folder.join(format!("{name}.mpi"));
        let work = WorkFolder::open_at(
            works.join(format!("rank-{}", self.cluster.rank())),
            interval,
        )?;
        Ok((work, works))
    }

    fn solve_then<R>(
        &self,
        board: Board,
        work: &WorkFolder,
        observer: &dyn Observer,
        then: impl FnOnce(&dyn Solved) -> R,
    ) -> Result<R, SolveError> {
        let started = Instant::now();
        observer.phase_started(Phase::Enumerate, 0);
        // One process holds every state under the index's own numbers.
        match self.cluster.processes() {
            1 => {
                let index = StateIndex::build(board).ok_or(SolveError::TooLarge {
                    points: board.points(),
                })?;
                let enumerated = started.elapsed().as_secs_f64();
                let share = Whole::new(&index);
                self.solve_share(&index, &share, work, observer, enumerated, then)
            }
            _ => {
                let (index, part) = split_index(self.cluster, board, POSITIONS_PER_BLOCK as u64)?;
                let enumerated = started.elapsed().as_secs_f64();
                self.solve_share(&index, &part, work, observer, enumerated, then)
            }
        }
    }

    fn gather(&self, own: ProcessFigures) -> Vec<ProcessFigures> {
        let figures = self.cluster.gather_all(&[
            own.peak_bytes.or_else(peak_memory).unwrap_or(0),
            self.cluster.bytes_sent(),
            own.index_bytes,
        ]);
        figures
            .iter()
            .map(|f| ProcessFigures {
                peak_bytes: Some(f[0]),
                sent_bytes: f[1],
                index_bytes: f[2],
            })
            .collect()
    }
}

impl Job<'_> {
    /// The solve of `share`; then process 0 gathers every process's states
    /// to check and part of the directory, which the others send it.
    fn solve_share<R>(
        &self,
        index: &StateIndex,
        share: &impl Share,
        work: &WorkFolder,
        observer: &dyn Observer,
        enumerate_seconds: f64,
        then: impl FnOnce(&dyn Solved) -> R,
    ) -> Result<R, SolveError> {
        let cluster = self.cluster;
        // A checkpoint is this process's share's only if the job is split as
        // before.
        let split = format!(
            "process {} of {}: positions {:?}\n",
            cluster.rank(),
            cluster.processes(),
            share.positions()
        );
        work.claim(&split).map_err(|e| {
            SolveError::Spool(format!("cannot write in {}: {e}", work.path().display()))
        })?;
        let (values, mut stats) = solve_share(
            index,
            share,
            cluster,
            Workspace::Shared(work),
            observer,
            None,
        )?;
        stats.enumerate_seconds = enumerate_seconds;
        // A checkpoint's checksums do not show that what it holds is right
        // (see `WorkFolder::resumed`): after a resumed solve, process 0
        // checks every state of the table before it is put in place.
        let resumed = any(cluster, work.resumed());
        let sample = match cluster.processes() {
            1 => Vec::new(),
            _ => own_sample(index, share),
        };
        let first_word = index.first_presence_word();
        let positions = index.counts().positions;
        let compress = |batch: Range<u64>| -> std::io::Result<Vec<Vec<u8>>> {
            let run = values.values_of(index, share, block_positions(batch.clone(), positions))?;
            Ok(compress_blocks(index, &run, batch))
        };
        let mut shared = Shared {
            cluster,
            index,
            share,
            compress: &compress,
            stats,
            resumed,
            samples: Vec::new(),
            directory: RefCell::new(Vec::new()),
        };
        if cluster.rank() != 0 {
            cluster.send_to_root(&sample);
            cluster.send_to_root(&[first_word]);
            let own_directory: Vec<u8> = directory_counts(index.presence_words()).collect();
            cluster.send_to_root(&own_directory);
            return Ok(then(&shared));
        }
        // The board's directory, and the states to check, from every process:
        // a word two processes share the codes of counts the positions of both.
        let mut samples = vec![sample];
        let mut directory = vec![0u8; index.codec().code_count().div_ceil(64) as usize];
        let mut add = |first: u64, counts: &mut dyn Iterator<Item = u8>| {
            let words = directory.get_mut(first as usize..).unwrap_or_default();
            for (at, n) in words.iter_mut().zip(counts) {
                *at += n;
            }
        };
        add(first_word, &mut directory_counts(index.presence_words()));
        for rank in 1..cluster.processes() {
            samples.push(cluster.receive_from::<u64>(rank));
            let first: Vec<u64> = cluster.receive_from(rank);
            let counts: Vec<u8> = cluster.receive_from(rank);
            add(first.first().copied().unwrap_or(0), &mut counts.into_iter());
        }
        shared.samples = samples;
        shared.directory = RefCell::new(directory);
        Ok(then(&shared))
    }
}

/// This process's share of a board solved by the processes of a job.
struct Shared<'a, S: Share> {
    cluster: &'a Cluster,
    index: &'a StateIndex,
    share: &'a S,
    /// Blocks of this process's share, compressed.
    compress: &'a dyn Fn(Range<u64>) -> std::io::Result<Vec<Vec<u8>>>,
    stats: SolveStats,
    resumed: bool,
    /// On process 0: every process's states to check, as `own_sample`
    /// gives them.
    samples: Vec<Vec<u64>>,
    /// On process 0: the board's directory, let go once written.
    directory: RefCell<Vec<u8>>,
}

impl<S: Share> Shared<'_, S> {
    fn blocks(&self) -> u64 {
        self.index
            .counts()
            .positions
            .div_ceil(POSITIONS_PER_BLOCK as u64)
    }
}

impl<S: Share> Solved for Shared<'_, S> {
    fn counts(&self) -> StateCounts {
        self.index.counts()
    }

    fn stats(&self) -> SolveStats {
        self.stats
    }

    fn index_bytes(&self) -> u64 {
        self.index.memory_bytes() as u64
    }

    fn resumed(&self) -> bool {
        self.resumed
    }

    fn stoppable(&self) -> bool {
        false
    }

    /// Process 0 writes the table: the board's directory, then each
    /// batch's blocks compressed here or received from the process that
    /// holds them, in order.
    fn encode(
        &self,
        out: &mut BufWriter<File>,
        observer: &dyn Observer,
    ) -> std::io::Result<Option<u32>> {
        let owner = |block: u64| {
            self.share
                .position_owner(block * POSITIONS_PER_BLOCK as u64)
        };
        // Read once, into the header's stream, and let go before the check.
        let directory = self.directory.take().into_iter();
        let encoded = encode_blocks(
            self.index,
            directory,
            self.stats.edges,
            out,
            observer,
            |batch| {
                // The batch's blocks, a run per process that holds them.
                let mut compressed = Vec::with_capacity((batch.end - batch.start) as usize);
                let mut block = batch.start;
                while block < batch.end {
                    let holder = owner(block);
                    let mut end = block + 1;
                    while end < batch.end && owner(end) == holder {
                        end += 1;
                    }
                    if holder == 0 {
                        compressed.extend((self.compress)(block..end)?);
                    } else {
                        compressed.extend(self.cluster.receive_blocks(holder));
                    }
                    block = end;
                }
                Ok(compressed)
            },
        )?;
        Ok(encoded.map(|(_, checksum)| checksum))
    }

    /// The other processes send their blocks, batch by batch, as process 0
    /// writes them.
    fn send(&self) -> std::io::Result<()> {
        let blocks = self.blocks();
        let own = self.share.positions();
        let per = POSITIONS_PER_BLOCK as u64;
        let own_blocks = own.start.div_ceil(per)..own.end.div_ceil(per);
        for batch_start in (0..blocks).step_by(BLOCKS_PER_BATCH as usize) {
            let batch = batch_blocks(batch_start, blocks);
            let mine = batch.start.max(own_blocks.start)..batch.end.min(own_blocks.end);
            if !mine.is_empty() {
                let compressed = (self.compress)(mine)?;
                self.cluster.send_blocks(&compressed);
            }
        }
        Ok(())
    }

    fn spot_check(&self, path: &Path) -> Result<u64, String> {
        let counts = self.index.counts();
        if self.cluster.processes() == 1 {
            let sample = spot_sample(counts.states);
            return spot_check(path, self.index, self.stats.edges, sample);
        }
        let states: Vec<State> = self
            .samples
            .iter()
            .flatten()
            .map(|&coded| self.index.state_at(coded >> 4, (coded & 15) as u32))
            .collect();
        spot_check_states(path, counts, self.stats.edges, &states)
    }

    /// Read from the written table: no process holds every value.
    fn start_result(&self, path: &Path) -> (String, Vec<String>) {
        let board = *self.index.board();
        let opened = Table::open(path);
        let result = opened
            .as_ref()
            .map_err(|e| e.to_string())
            .and_then(|t| root_result(t).map_err(|e| e.to_string()))
            .unwrap_or_else(|e| e);
        let first_moves: Vec<String> = opened
            .ok()
            .and_then(|t| best_moves(&t, &State::start(), 0.0, true).ok())
            .map(|moves| moves.iter().map(|m| m.name(&board)).collect())
            .unwrap_or_default();
        (result, first_moves)
    }
}

/// This process's share of the states the written table is checked on:
/// of the states spread evenly over the board's numbers (`spot_sample`),
/// those it holds, each as its position's code and its slot
/// (`code << 4 | slot`), which every process can turn back into the state.
fn own_sample(index: &StateIndex, share: &impl Share) -> Vec<u64> {
    let states = index.counts().states;
    let step = (states / spot_sample(states).max(1)).max(1);
    let (plain, ko) = index.state_runs(share.positions());
    let multiples =
        |run: Range<u64>| (run.start.div_ceil(step) * step..run.end).step_by(step as usize);
    multiples(plain)
        .chain(multiples(ko))
        .map(|number| {
            let (position, slot) = index.slot_of(number);
            index.position_code(position) << 4 | slot as u64
        })
        .collect()
}

/// The check of the table before it is put in place, when the processes
/// each held a part of the index, so that none can number every state
/// (`verify::spot_check` numbers them with a whole index): the table at `path` holds `counts`
/// (positions and ko states) and `edges`, and each of `states` (canonical
/// states of the board; the start position and its children are added)
/// holds the value its children's values give, all read through the
/// prober. Returns the states checked.
fn spot_check_states(
    path: &Path,
    counts: StateCounts,
    edges: u64,
    states: &[State],
) -> Result<u64, String> {
    let table = Table::open(path).map_err(|e| e.to_string())?;
    let header = table.header();
    if (header.positions, header.ko_states, header.edges)
        != (counts.positions, counts.ko_states, edges)
    {
        return Err(format!(
            "it holds {} positions, {} ko states and {} edges where the solve has {}, {} and {edges}",
            header.positions, header.ko_states, header.edges, counts.positions, counts.ko_states
        ));
    }
    let board = table.board();
    let start = State::start();
    let mut checked: Vec<State> = vec![start];
    checked.extend(start.legal_moves(&board).into_iter().filter_map(|mv| {
        match start.play(&board, mv) {
            Some(Child::State(child)) => Some(child),
            _ => None,
        }
    }));
    checked.extend_from_slice(states);
    checked.par_iter().try_for_each(|state| {
        let stored = table.probe(state).map_err(|e| e.to_string())?;
        let mut ends = Vec::new();
        let mut children = Vec::new();
        for mv in state.legal_moves(&board) {
            match state.play(&board, mv) {
                Some(Child::End { margin }) => ends.push(margin),
                Some(Child::State(child)) => {
                    children.push(table.probe(&child).map_err(|e| e.to_string())?)
                }
                None => return Err(format!("a legal move of {state:?} is illegal")),
            }
        }
        // A child reached by two moves counts once in minimax's edges,
        // twice here; the value is the same.
        let (expected, _) = minimax(&ends, children.into_iter());
        if stored != expected {
            return Err(format!(
                "state {state:?} stores {stored} but its children give {expected}"
            ));
        }
        Ok(())
    })?;
    Ok(checked.len() as u64)
}
