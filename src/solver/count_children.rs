//! Phase 2 of the lean solve, counting children: every state's tally (its
//! count of distinct children) and the seeds of every margin (the states
//! after a pass, by the margin a second pass ends the game with).

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::share::Share;
use super::spool::{encode, Spool};
use super::{count_position, CountScratch, Observer, SolveError};
use crate::index::{StateIndex, StateNumber};

use super::tally;
use super::{spool_error, SeedRun, POSITIONS_PER_TASK};

/// Phase 2 of the lean solve: the tally of every state of `share`, and the
/// seeds of every margin, in local numbers; returns the edges of its
/// states.
pub(super) fn count_children(
    index: &StateIndex,
    share: &impl Share,
    tallies: &[AtomicU64],
    seeds: &mut [Spool],
    observer: &dyn Observer,
) -> Result<u64, SolveError> {
    let points = index.board().points() as i32;
    let positions = share.positions();
    let tasks = (positions.end - positions.start).div_ceil(POSITIONS_PER_TASK);
    let batch = 64 * rayon::current_num_threads() as u64;
    let mut last: Vec<StateNumber> = vec![0; seeds.len()];
    let mut edges = 0u64;
    for first_task in (0..tasks).step_by(batch as usize) {
        let counted: Vec<Result<(SeedRun, u64), SolveError>> = (first_task
            ..(first_task + batch).min(tasks))
            .into_par_iter()
            .map_init(CountScratch::default, |scratch, task| {
                let first = positions.start + task * POSITIONS_PER_TASK;
                let last = (first + POSITIONS_PER_TASK).min(positions.end);
                let mut run: SeedRun = vec![None; (2 * points + 1) as usize];
                let mut edges = 0u64;
                let mut too_many = None;
                for entry in index.positions(first).take((last - first) as usize) {
                    edges += count_position(index, &entry, scratch, |number, children, margin| {
                        if children > tally::MAX_CHILDREN {
                            too_many = Some(children);
                            return;
                        }
                        let number = share
                            .local(number)
                            .expect("a share holds every state of its positions");
                        let (word, shift) = (number / 8, 8 * (number % 8));
                        tallies[word as usize]
                            .fetch_or((tally::fresh(children) as u64) << shift, Ordering::Relaxed);
                        if let Some(margin) = margin {
                            match &mut run[(margin + points) as usize] {
                                Some((_, previous, gaps)) => {
                                    encode(gaps, number - *previous);
                                    *previous = number;
                                }
                                slot => *slot = Some((number, number, Vec::new())),
                            }
                        }
                    });
                }
                observer.advanced(last - first);
                match too_many {
                    Some(_) => Err(SolveError::TooLarge {
                        points: points as usize,
                    }),
                    None => Ok((run, edges)),
                }
            })
            .collect();
        for result in counted {
            let (run, run_edges) = result?;
            edges += run_edges;
            for (margin, seeds_of) in run.into_iter().enumerate() {
                if let Some((first, previous, gaps)) = seeds_of {
                    let spool = &mut seeds[margin];
                    spool.push(first - last[margin]).map_err(spool_error)?;
                    spool.push_bytes(&gaps).map_err(spool_error)?;
                    last[margin] = previous;
                }
            }
        }
    }
    Ok(edges)
}
