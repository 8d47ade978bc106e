//! The solve's values for the writer (phase 4): the values' spools turned
//! back, a partition at a time, into A, dA, B and dB for every state
//! (`LoggedValues`).

use std::io;
use std::ops::Range;
use std::sync::{Arc, Mutex};

use super::share::Share;
use super::spool::Spool;
use super::{cell, ValueRun};
use crate::common::prefetch::prefetch_element;
use crate::index::{PositionNumber, StateIndex, StateNumber};
use crate::rules::value::Value;

use super::retrograde::{KIND_LOST, KIND_WON};

/// A board solved by the lean solve: the index, and the values in spools.
pub struct LoggedValues {
    pub(super) points: i32,
    pub(super) shift: u32,
    pub(super) spools: Vec<Mutex<Spool>>,
    /// Partitions turned back into cells lately, the latest last.
    pub(super) cache: Mutex<Vec<(usize, Arc<Vec<u32>>)>>,
}

/// Partitions kept turned back into cells: a batch of the writer's reads
/// the plain states of one or two and the ko states of one or two.
pub(super) const CACHED_PARTITIONS: usize = 4;

/// Varints a partition's decoding reads at once.
pub(super) const DECODE_BATCH: usize = 1024;

impl LoggedValues {
    /// The cells (see `cell`) of partition `p`: A, dA, B and dB of each of
    /// its states, from its spool. A partition not yet turned back is
    /// decoded together with the next one, one on each core: the writer
    /// asks for them in order.
    fn partition(&self, p: usize) -> io::Result<Arc<Vec<u32>>> {
        let cached = |q: usize| {
            let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            cache
                .iter()
                .find(|(r, _)| *r == q)
                .map(|(_, cells)| cells.clone())
        };
        if let Some(cells) = cached(p) {
            return Ok(cells);
        }
        let next = p + 1;
        let ahead = next < self.spools.len() && cached(next).is_none();
        let (cells, next_cells) = rayon::join(
            || self.decode(p),
            || ahead.then(|| self.decode(next)).transpose(),
        );
        let cells = Arc::new(cells?);
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        for (q, decoded) in [(p, Some(cells.clone())), (next, next_cells?.map(Arc::new))] {
            if let Some(decoded) = decoded {
                if cache.len() >= CACHED_PARTITIONS {
                    cache.remove(0);
                }
                cache.push((q, decoded));
            }
        }
        Ok(cells)
    }

    /// Reads partition `p`'s spool into cells. Its varints are read a
    /// batch at a time; the cells a batch sets are asked for before any is
    /// set, since a partition's cells are more than the caches hold.
    fn decode(&self, p: usize) -> io::Result<Vec<u32>> {
        let mut cells = vec![0u32; 1 << self.shift];
        let mut spool = self.spools[p].lock().unwrap_or_else(|e| e.into_inner());
        let mut reader = spool.reader()?;
        let damaged = |what: &str| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("the values' spool {p} is damaged: {what}"),
            )
        };
        // The layer's code and depth, and the last state read, relative to
        // the partition's first.
        let (mut code, mut depth, mut offset) = (0, 0, 0u64);
        // Varints of a mark still to come: 2 after its 0, 1 after its level.
        let mut mark_left = 0;
        let mut varints = Vec::with_capacity(DECODE_BATCH);
        let mut updates: Vec<(usize, u32, u32, u64)> = Vec::with_capacity(DECODE_BATCH);
        loop {
            varints.clear();
            reader.next_values(&mut varints, DECODE_BATCH)?;
            if varints.is_empty() {
                break;
            }
            updates.clear();
            for &value in &varints {
                match mark_left {
                    2 => {
                        let level = value as i64 - self.points as i64;
                        if level.unsigned_abs() > self.points as u64 {
                            return Err(damaged("a level off the board"));
                        }
                        code = cell::margin_code(level as i32, self.points);
                        mark_left = 1;
                    }
                    1 => {
                        if value == 0 || value > cell::MAX_MOVER_DEPTH as u64 {
                            return Err(damaged("a depth out of range"));
                        }
                        depth = value as u32;
                        offset = 0;
                        mark_left = 0;
                    }
                    _ if value == 0 => mark_left = 2,
                    _ => {
                        offset = offset
                            .checked_add(value >> 2)
                            .filter(|&n| n < cells.len() as u64)
                            .ok_or_else(|| damaged("a state past its partition"))?;
                        prefetch_element(&cells, offset as usize);
                        updates.push((offset as usize, code, depth, value & 3));
                    }
                }
            }
            for &(i, code, depth, kind) in &updates {
                let c = &mut cells[i];
                if kind & KIND_WON != 0 {
                    *c = cell::with_mover(*c, code, depth).unwrap_or(*c);
                }
                if kind & KIND_LOST != 0 {
                    *c = cell::with_opponent(*c, code, depth);
                }
            }
        }
        if mark_left != 0 {
            return Err(damaged("a mark cut short"));
        }
        Ok(cells)
    }

    /// The cells of states `numbers`.
    fn cells(&self, numbers: Range<StateNumber>) -> io::Result<Vec<u32>> {
        let mut out = Vec::with_capacity((numbers.end - numbers.start) as usize);
        let mut n = numbers.start;
        while n < numbers.end {
            let p = (n >> self.shift) as usize;
            let base = (p as u64) << self.shift;
            let end = numbers.end.min(base + (1 << self.shift));
            let cells = self.partition(p)?;
            out.extend_from_slice(&cells[(n - base) as usize..(end - base) as usize]);
            n = end;
        }
        Ok(out)
    }

    /// The value of state `number`.
    pub fn value(&self, number: StateNumber) -> io::Result<Value> {
        Ok(super::cell_value(
            self.cells(number..number + 1)?[0],
            self.points,
        ))
    }

    /// The values of the states of positions `positions`, read at once;
    /// the values are in `share`'s local numbers, which must hold the
    /// positions.
    pub fn values_of(
        &self,
        index: &StateIndex,
        share: &impl Share,
        positions: Range<PositionNumber>,
    ) -> io::Result<ValueRun> {
        let (plain, ko) = index.state_runs(positions);
        // A run of the index's numbers in the share is one of its local
        // numbers.
        let local = |run: Range<StateNumber>| -> io::Result<Vec<u32>> {
            if run.is_empty() {
                return Ok(Vec::new());
            }
            let start = share.local(run.start).ok_or_else(|| {
                io::Error::other("the values of a state another process holds were asked for")
            })?;
            self.cells(start..start + (run.end - run.start))
        };
        Ok(ValueRun {
            points: self.points,
            plain: local(plain.clone())?,
            plain_start: plain.start,
            ko: local(ko.clone())?,
            ko_start: ko.start,
        })
    }
}
