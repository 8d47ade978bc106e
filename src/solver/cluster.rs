//! The processes of an MPI job, as the solver and the table writer need
//! them: the collectives of a shared solve (`Exchange`), the check that
//! every process runs the same build of the same board, the split of the
//! board's codes among the processes with each one's index of its own
//! (`split_index`), and what the process that writes the file needs of
//! the others: the table's compressed blocks, its directory, a sample of
//! states to check.
//!
//! Only the calling thread talks to MPI (the solve's worker threads never
//! do); every process makes the same collective calls in the same order.
//! MPI's default error handler ends the whole job on a failed call, and
//! `mpirun` ends it when a process dies, naming that process.

use std::sync::atomic::{AtomicU64, Ordering};

use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::environment::Universe;
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::traits::*;
use mpi::Count;

use crate::index::code::Codec;
use crate::index::{StateCounts, StateIndex};
use crate::rules::board::Board;
use crate::solver::exchange::Exchange;
use crate::solver::share::Part;
use crate::solver::SolveError;

/// Elements of one message at most: MPI counts are 32-bit.
const MESSAGE_LIMIT: usize = 1 << 30;

/// Elements one process sends in one all-to-all at most, over `processes`
/// receivers: each receives at most 2^30 in all, within MPI's counts and
/// displacements of 2^31 - 1.
fn send_limit(processes: usize) -> u64 {
    (1u64 << 30) / processes as u64
}

/// This process of an MPI job.
pub struct Cluster {
    // Finalizes MPI when dropped, after `world`.
    world: SimpleCommunicator,
    _universe: Universe,
    /// Bytes this process sent to the others in all-to-all exchanges.
    sent: AtomicU64,
}

impl Cluster {
    /// Joins the job `mpirun` started; `None` if MPI cannot start.
    pub fn start() -> Option<Cluster> {
        let (universe, _) = mpi::initialize_with_threading(mpi::Threading::Funneled)?;
        Some(Cluster {
            world: universe.world(),
            _universe: universe,
            sent: AtomicU64::new(0),
        })
    }

    /// This process's rank, from 0.
    pub fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    /// Bytes this process has sent to the others in exchanges.
    pub fn bytes_sent(&self) -> u64 {
        self.sent.load(Ordering::Relaxed)
    }

    /// Ends every process of the job with `code`.
    pub fn abort(&self, code: i32) -> ! {
        self.world.abort(code)
    }

    /// Every process's `values`, rank by rank.
    pub fn gather_all(&self, values: &[u64]) -> Vec<Vec<u64>> {
        let mut all = vec![0u64; values.len() * self.processes()];
        self.world.all_gather_into(values, &mut all[..]);
        all.chunks(values.len().max(1))
            .map(<[u64]>::to_vec)
            .collect()
    }

    /// Checks that every process has the same `facts` (named values: the
    /// board, the binary, ...) as process 0; if not, says which process
    /// differs in what.
    pub fn agree(&self, facts: &[(&str, String)]) -> Result<(), String> {
        let hashes: Vec<u64> = facts
            .iter()
            .map(|(_, value)| crc32fast::hash(value.as_bytes()) as u64)
            .collect();
        let all = self.gather_all(&hashes);
        for (rank, theirs) in all.iter().enumerate().skip(1) {
            let differ: Vec<&str> = facts
                .iter()
                .zip(theirs.iter().zip(&all[0]))
                .filter(|(_, (a, b))| a != b)
                .map(|((name, _), _)| *name)
                .collect();
            if !differ.is_empty() {
                return Err(format!(
                    "process {rank} differs from process 0 in {}; every process must run the same smallgo on the same board",
                    differ.join(", ")
                ));
            }
        }
        Ok(())
    }

    /// Sends `values` to process 0, in messages within MPI's counts.
    pub fn send_to_root<T: Equivalence>(&self, values: &[T]) {
        let root = self.world.process_at_rank(0);
        root.send(&(values.len() as u64));
        for chunk in values.chunks(MESSAGE_LIMIT) {
            root.send(chunk);
        }
    }

    /// What process `rank` sends with `send_to_root`.
    pub fn receive_from<T: Equivalence + Clone>(&self, rank: usize) -> Vec<T> {
        let from = self.world.process_at_rank(rank as i32);
        let (length, _) = from.receive::<u64>();
        let mut values = Vec::with_capacity(length as usize);
        while (values.len() as u64) < length {
            let (chunk, _) = from.receive_vec::<T>();
            if chunk.is_empty() {
                break;
            }
            values.extend_from_slice(&chunk);
        }
        values
    }

    /// Sends `blocks` (compressed table blocks) to process 0.
    pub fn send_blocks(&self, blocks: &[Vec<u8>]) {
        let lengths: Vec<u64> = blocks.iter().map(|b| b.len() as u64).collect();
        let root = self.world.process_at_rank(0);
        root.send(&lengths[..]);
        root.send(&blocks.concat()[..]);
    }

    /// The blocks process `rank` sends with `send_blocks`.
    pub fn receive_blocks(&self, rank: usize) -> Vec<Vec<u8>> {
        let from = self.world.process_at_rank(rank as i32);
        let (lengths, _) = from.receive_vec::<u64>();
        let (bytes, _) = from.receive_vec::<u8>();
        let mut rest = &bytes[..];
        lengths
            .iter()
            .map(|&n| {
                let (block, after) = rest.split_at((n as usize).min(rest.len()));
                rest = after;
                block.to_vec()
            })
            .collect()
    }

    fn reduce(&self, values: &mut [u64], op: SystemOperation) {
        let mine = values.to_vec();
        self.world.all_reduce_into(&mine[..], values, op);
    }
}

/// Offsets of runs of `counts` laid end to end.
fn displacements(counts: &[Count]) -> Vec<Count> {
    counts
        .iter()
        .scan(0, |at, &n| {
            let here = *at;
            *at += n;
            Some(here)
        })
        .collect()
}

impl Exchange for Cluster {
    fn processes(&self) -> usize {
        self.world.size() as usize
    }

    fn all_to_all(&self, outgoing: &mut [Vec<u64>]) -> Result<Vec<u64>, SolveError> {
        // As many rounds in every process: enough for the one that sends
        // the most.
        let mut most = [outgoing.iter().map(|l| l.len() as u64).sum::<u64>()];
        self.max(&mut most)?;
        let rounds = most[0].div_ceil(send_limit(self.processes())).max(1);
        let mut received = Vec::new();
        let mut sending = Vec::new();
        for round in 0..rounds {
            sending.clear();
            let mut counts: Vec<Count> = Vec::with_capacity(outgoing.len());
            for list in outgoing.iter() {
                let per = (list.len() as u64).div_ceil(rounds);
                let start = (round * per).min(list.len() as u64) as usize;
                let end = ((round + 1) * per).min(list.len() as u64) as usize;
                sending.extend_from_slice(&list[start..end]);
                counts.push((end - start) as Count);
            }
            let mut incoming: Vec<Count> = vec![0; outgoing.len()];
            self.world.all_to_all_into(&counts[..], &mut incoming[..]);
            let start = received.len();
            received.resize(
                start + incoming.iter().map(|&n| n as usize).sum::<usize>(),
                0u64,
            );
            let (send_at, receive_at) = (displacements(&counts), displacements(&incoming));
            let send = Partition::new(&sending[..], &counts[..], &send_at[..]);
            let mut receive =
                PartitionMut::new(&mut received[start..], &incoming[..], &receive_at[..]);
            self.world.all_to_all_varcount_into(&send, &mut receive);
            self.sent
                .fetch_add(8 * sending.len() as u64, Ordering::Relaxed);
        }
        for list in outgoing.iter_mut() {
            list.clear();
        }
        Ok(received)
    }

    fn sum(&self, values: &mut [u64]) -> Result<(), SolveError> {
        self.reduce(values, SystemOperation::sum());
        Ok(())
    }

    fn max(&self, values: &mut [u64]) -> Result<(), SolveError> {
        self.reduce(values, SystemOperation::max());
        Ok(())
    }
}

/// The memory a process needs for positions `0..position` and codes
/// `0..code` of a board with `states_per_position` states a position:
/// their states' working memory and index, and the index lines of the
/// codes (`plan`'s model).
fn memory_before(position: u64, code: u64, states_per_position: f64) -> f64 {
    use crate::solver::plan::{INDEX_BYTES_PER_CODE, INDEX_BYTES_PER_STATE, STATE_BYTES};
    (STATE_BYTES + INDEX_BYTES_PER_STATE) * states_per_position * position as f64
        + INDEX_BYTES_PER_CODE * code as f64
}

/// This process's index and part of `board` split among the job's
/// processes in runs of whole blocks of `block` positions, each process
/// holding the index of its own codes only. Canonical positions are dense
/// among the low codes and sparse among the high ones, so equal runs of
/// positions would leave the last process most of the index (64% of it
/// on 3x6 with three processes): the runs are cut where the memory of the
/// states and codes before them (`memory_before`) is an equal share. Where
/// that is, and the runs' first codes, are not known before the positions
/// are counted, so the codes are first split evenly and counted, each
/// process its slice; the process whose slice holds a cut finds it, the
/// process whose slice holds a run's first position its code, and each
/// then indexes its run.
pub fn split_index(
    cluster: &Cluster,
    board: Board,
    block: u64,
) -> Result<(StateIndex, Part), SolveError> {
    let processes = cluster.processes();
    let rank = cluster.rank();
    let too_large = SolveError::TooLarge {
        points: board.points(),
    };
    let codes = Codec::new(board).code_count();
    let slice_start = |r: usize| (codes as u128 * r as u128 / processes as u128) as u64;
    let slice = StateIndex::build_part(board, slice_start(rank)..slice_start(rank + 1), 0, 0);
    let held = slice.as_ref().map(StateIndex::held_counts);
    let counted = cluster.gather_all(&match held {
        Some(held) => [held.positions, held.ko_states, held.legal_positions, 0],
        None => [0, 0, 0, 1],
    });
    if counted.iter().any(|c| c[3] != 0) {
        return Err(too_large);
    }
    let slice = slice.ok_or(too_large)?;
    let positions: u64 = counted.iter().map(|c| c[0]).sum();
    let ko_states: u64 = counted.iter().map(|c| c[1]).sum();
    let board_counts = StateCounts {
        legal_positions: counted.iter().map(|c| c[2]).sum(),
        positions,
        ko_states,
        states: 2 * positions + ko_states,
    };
    // Each slice's first position and ko state.
    let (mut first_position, mut first_ko) = (Vec::new(), Vec::new());
    let (mut p, mut k) = (0, 0);
    for c in &counted {
        first_position.push(p);
        first_ko.push(k);
        p += c[0];
        k += c[1];
    }
    // Where the runs start: the first position (whole blocks) at which
    // the memory before reaches each process's share, found by the
    // process whose slice holds that point and summed.
    let per_position = board_counts.states as f64 / positions.max(1) as f64;
    let total = memory_before(positions, codes, per_position);
    let mut cuts = vec![0u64; processes + 1];
    let (start, end) = (slice_start(rank), slice_start(rank + 1));
    let held = counted[rank][0];
    let code_of = |local: u64| {
        if local < held {
            slice.position_code(local)
        } else {
            end
        }
    };
    for (r, cut) in cuts.iter_mut().enumerate().take(processes).skip(1) {
        let target = total * r as f64 / processes as f64;
        let before =
            |local: u64| memory_before(first_position[rank] + local, code_of(local), per_position);
        // This slice holds the cut if its start is below the target and
        // its end is not.
        let at_start = memory_before(first_position[rank], start, per_position);
        if at_start >= target || (rank + 1 < processes && before(held) < target) {
            continue;
        }
        // The first position of the slice whose memory before reaches the
        // target, rounded to the nearest block.
        let (mut low, mut high) = (0, held);
        while low < high {
            let middle = low + (high - low) / 2;
            if before(middle) < target {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        let position = first_position[rank] + low;
        *cut = ((position + block / 2) / block * block).min(positions);
    }
    cluster.sum(&mut cuts)?;
    cuts[processes] = positions;
    let mut position_bounds = cuts;
    for r in 1..=processes {
        position_bounds[r] = position_bounds[r].max(position_bounds[r - 1]);
    }
    // Every run's first code and the ko states before it, each found by
    // one process and summed: `found[i]` and `found[processes + 1 + i]`.
    let mut found = vec![0u64; 2 * (processes + 1)];
    for (i, &bound) in position_bounds.iter().enumerate() {
        let holder = (0..processes)
            .find(|&s| bound >= first_position[s] && bound < first_position[s] + counted[s][0]);
        match holder {
            Some(s) if s == rank => {
                let local = bound - first_position[s];
                found[i] = slice.position_code(local);
                found[processes + 1 + i] = first_ko[s] + slice.ko_states_before(local);
            }
            None if rank == 0 => {
                found[i] = codes;
                found[processes + 1 + i] = ko_states;
            }
            _ => {}
        }
    }
    drop(slice);
    cluster.sum(&mut found)?;
    let code_bounds = found[..=processes].to_vec();
    let ko_before = &found[processes + 1..];
    let index = StateIndex::build_part(
        board,
        code_bounds[rank]..code_bounds[rank + 1],
        position_bounds[rank],
        ko_before[rank],
    )
    .map(|index| index.with_board_counts(board_counts));
    let expected = (
        position_bounds[rank + 1] - position_bounds[rank],
        ko_before[rank + 1] - ko_before[rank],
    );
    let fits = index.as_ref().map(|index| {
        let held = index.held_counts();
        (held.positions, held.ko_states) == expected
    });
    let mut failed = [(fits != Some(true)) as u64];
    cluster.sum(&mut failed)?;
    match index {
        Some(index) if failed[0] == 0 => {
            let ko_bounds = ko_before.iter().map(|k| 2 * positions + k).collect();
            let part = Part::from_bounds(position_bounds, ko_bounds, code_bounds, rank, positions);
            Ok((index, part))
        }
        _ => Err(SolveError::Exchange(
            "the processes' runs of codes do not hold the positions counted for them".into(),
        )),
    }
}
