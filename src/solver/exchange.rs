//! What the processes that share a solve say to each other: the updates a
//! layer sends to states another process holds, and the sums that keep
//! every process on the same layer (how many states the layer decided,
//! whether to stop).
//!
//! A single process has no one to talk to (`Alone`). An MPI job's
//! processes talk through MPI's collectives (`crate::solver::cluster`); every
//! process makes the same calls in the same order, so each call is also a
//! barrier.

use super::SolveError;

/// The collectives of a shared solve.
pub trait Exchange {
    /// How many processes share the solve.
    fn processes(&self) -> usize;
    /// Sends `outgoing[p]` to process `p` (this process's own list stays
    /// empty) and empties the lists; returns what the others sent this one.
    fn all_to_all(&self, outgoing: &mut [Vec<u64>]) -> Result<Vec<u64>, SolveError>;
    /// Replaces each of `values` with its sum over the processes.
    fn sum(&self, values: &mut [u64]) -> Result<(), SolveError>;
    /// Replaces each of `values` with its largest over the processes.
    fn max(&self, values: &mut [u64]) -> Result<(), SolveError>;
}

/// The solve of a single process: nothing to send, sums of one.
pub struct Alone;

impl Exchange for Alone {
    fn processes(&self) -> usize {
        1
    }

    fn all_to_all(&self, outgoing: &mut [Vec<u64>]) -> Result<Vec<u64>, SolveError> {
        debug_assert!(outgoing.iter().all(Vec::is_empty));
        Ok(Vec::new())
    }

    fn sum(&self, _: &mut [u64]) -> Result<(), SolveError> {
        Ok(())
    }

    fn max(&self, _: &mut [u64]) -> Result<(), SolveError> {
        Ok(())
    }
}
