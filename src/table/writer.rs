//! Turning a solved board into table bytes, and writing them so that a crash
//! or Ctrl-C never leaves a half-written file under the table's name: the
//! bytes go to a temporary file in the same folder, are flushed to disk, and
//! only then renamed (`crate::common::files`).

use std::fs::File;
#[cfg(test)]
use std::io::Cursor;
use std::io::{BufWriter, Seek, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::format::{self, Description, TableWriter};
use super::{file_name, TableError};
use crate::common::files::{replace_atomically, temporary_path};
use crate::index::{PositionNumber, StateIndex, StateNumber};
use crate::rules::board::Board;
use crate::rules::value::Value;
#[cfg(test)]
use crate::solver::Silent;
use crate::solver::{Observer, Phase, Solution, ValueRun};

/// Positions per block: about 8,000 states, a few tens of kilobytes to
/// inflate per probe.
pub const POSITIONS_PER_BLOCK: u32 = 4096;

/// A table written to disk.
#[derive(Clone, Debug)]
pub struct Written {
    pub path: PathBuf,
    pub bytes: u64,
    pub checksum: u32,
}

/// The values of a board's states as the writer reads them: a batch of
/// positions at a time, so that a solution turns each partition of its
/// values back into cells once.
pub trait StateValues: Sync {
    /// The values of the states of positions `positions`, or why they
    /// cannot be read.
    fn batch(&self, positions: Range<PositionNumber>) -> std::io::Result<impl ValueBatch + '_>;
}

/// The values of the states of a batch of positions.
pub trait ValueBatch: Send + Sync {
    /// Appends the values of states `numbers` to `out`: a run of the
    /// batch's plain and passed states, or of its ko states.
    fn values(&self, numbers: Range<StateNumber>, out: &mut Vec<Value>);
}

impl<F: Fn(StateNumber) -> Value + Sync> StateValues for F {
    fn batch(&self, _: Range<PositionNumber>) -> std::io::Result<impl ValueBatch + '_> {
        Ok(self)
    }
}

impl<F: Fn(StateNumber) -> Value + Sync> ValueBatch for &F {
    fn values(&self, numbers: Range<StateNumber>, out: &mut Vec<Value>) {
        out.extend(numbers.map(self));
    }
}

impl StateValues for Solution {
    fn batch(&self, positions: Range<PositionNumber>) -> std::io::Result<impl ValueBatch + '_> {
        self.values_of(positions)
    }
}

impl ValueBatch for ValueRun {
    fn values(&self, numbers: Range<StateNumber>, out: &mut Vec<Value>) {
        ValueRun::values(self, numbers, out)
    }
}

/// Blocks compressed at once before they are written. Blocks take
/// unequal times, and a batch ends when its slowest block does: eight left
/// the two cores 80 to 90% busy, thirty-two keep them busier while the
/// batch's compressed blocks stay a fraction of a MiB.
pub const BLOCKS_PER_BATCH: u64 = 32;

/// The blocks of batch `batch_start`: the batch of `BLOCKS_PER_BATCH`
/// blocks that starts there, cut at the table's `blocks`.
pub fn batch_blocks(batch_start: u64, blocks: u64) -> Range<u64> {
    batch_start..(batch_start + BLOCKS_PER_BATCH).min(blocks)
}

/// The positions of blocks `blocks` of a board of `positions` positions.
pub fn block_positions(blocks: Range<u64>, positions: u64) -> Range<PositionNumber> {
    let per = POSITIONS_PER_BLOCK as u64;
    (blocks.start * per).min(positions)..(blocks.end * per).min(positions)
}

/// Blocks `blocks` of `index`'s table compressed, in parallel, from the
/// values of their states in `batch`.
pub fn compress_blocks(
    index: &StateIndex,
    batch: &impl ValueBatch,
    blocks: Range<u64>,
) -> Vec<Vec<u8>> {
    let positions = index.counts().positions;
    blocks
        .into_par_iter()
        .map(|block| {
            let range = block_positions(block..block + 1, positions);
            // The values of the block's states, in number order: its plain
            // and passed states, two a position, then its ko states,
            // position by position.
            let (plain, ko) = index.state_runs(range.clone());
            let mut plain_values = Vec::with_capacity((plain.end - plain.start) as usize);
            batch.values(plain, &mut plain_values);
            let mut ko_values = Vec::with_capacity((ko.end - ko.start) as usize);
            batch.values(ko, &mut ko_values);
            format::compress_block(
                index.board(),
                &plain_values,
                &ko_values,
                range.map(|position| index.ko_state_count(position)),
            )
        })
        .collect()
}

/// Writes the table of `index`'s states with values `values` to `out`;
/// returns the checksum, or `None` if `observer` said stop. The same values
/// always give the same bytes. Blocks are compressed in parallel, a batch at
/// a time, so memory stays small. `observer` sees a `Phase::Write` of the
/// table's blocks advance batch by batch, and is asked between batches
/// whether to stop.
pub fn encode_values<W: Write + Seek>(
    index: &StateIndex,
    edges: u64,
    values: &impl StateValues,
    out: W,
    observer: &dyn Observer,
) -> std::io::Result<Option<(W, u32)>> {
    let positions = index.counts().positions;
    let blocks = positions.div_ceil(POSITIONS_PER_BLOCK as u64);
    let read = |batch_start: u64| {
        values.batch(block_positions(
            batch_blocks(batch_start, blocks),
            positions,
        ))
    };
    let mut next = (blocks > 0).then(|| read(0)).transpose()?;
    let directory = format::directory_counts(index.presence_words());
    encode_blocks(index, directory, edges, out, observer, |batch| {
        let values = next.take().expect("each batch's values are read before it");
        // The next batch's values are read while this one is compressed:
        // for a lean solve, that is when its partitions are turned back.
        let (compressed, upcoming) = rayon::join(
            || compress_blocks(index, &values, batch.clone()),
            || (batch.end < blocks).then(|| read(batch.end)).transpose(),
        );
        next = upcoming?;
        Ok(compressed)
    })
}

/// Writes the table of `index`'s states to `out`, with the board's
/// `directory` (`format::directory_counts`), its blocks compressed by
/// `compressed`, asked for the blocks of each batch (`batch_blocks`) in
/// order; as `encode_values` otherwise.
pub fn encode_blocks<W: Write + Seek>(
    index: &StateIndex,
    directory: impl Iterator<Item = u8>,
    edges: u64,
    out: W,
    observer: &dyn Observer,
    mut compressed: impl FnMut(Range<u64>) -> std::io::Result<Vec<Vec<u8>>>,
) -> std::io::Result<Option<(W, u32)>> {
    let counts = index.counts();
    let description = Description {
        board: *index.board(),
        positions: counts.positions,
        ko_states: counts.ko_states,
        edges,
        positions_per_block: POSITIONS_PER_BLOCK,
    };
    let mut writer = TableWriter::new(out, description, directory)?;
    let blocks = writer.blocks() as u64;
    observer.phase_started(Phase::Write, blocks);
    for batch_start in (0..blocks).step_by(BLOCKS_PER_BATCH as usize) {
        if observer.cancelled() {
            return Ok(None);
        }
        let batch = batch_blocks(batch_start, blocks);
        for block in &compressed(batch.clone())? {
            writer.add_block(block)?;
        }
        observer.advanced(batch.end - batch.start);
    }
    writer.finish().map(Some)
}

/// Writes a solved board's table to `out`; returns the checksum, or `None`
/// if `observer` said stop.
pub fn encode_into<W: Write + Seek>(
    solution: &Solution,
    out: W,
    observer: &dyn Observer,
) -> std::io::Result<Option<(W, u32)>> {
    encode_values(
        solution.index(),
        solution.stats().edges,
        solution,
        out,
        observer,
    )
}

/// The whole table file of a solved board, in memory, and its checksum.
#[cfg(test)]
pub fn encode(solution: &Solution) -> (Vec<u8>, u32) {
    let (cursor, checksum) = encode_into(solution, Cursor::new(Vec::new()), &Silent)
        .expect("writing to memory")
        .expect("not cancelled");
    (cursor.into_inner(), checksum)
}

/// Writes `bytes` to `path` atomically: a temporary file in the same folder,
/// flushed, then renamed over `path`.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), TableError> {
    replace_atomically(path, |out| out.write_all(bytes).map(Some), &|| false)
        .map(|_| ())
        .map_err(|error| TableError::io(path, error))
}

/// Writes a solved board's table into `folder` under its standard name,
/// through a temporary file that is flushed, then handed to `check`, and
/// only then renamed. `observer` sees the writing as a `Phase::Write` (see
/// `encode_values`); `Ok(None)` if it said stop before the file was in
/// place; an error, and nothing renamed, if `check` refuses the file.
#[cfg(test)]
pub fn write(
    solution: &Solution,
    folder: &Path,
    observer: &dyn Observer,
    check: &dyn Fn(&Path) -> Result<(), String>,
) -> Result<Option<Written>, TableError> {
    write_encoded(*solution.board(), folder, observer, check, |out| {
        Ok(encode_into(solution, out, observer)?.map(|(_, checksum)| checksum))
    })
}

/// `write` for a table whose bytes `encode` writes to the file it is
/// given, returning the checksum (`None` if it stopped).
pub fn write_encoded(
    board: Board,
    folder: &Path,
    observer: &dyn Observer,
    check: &dyn Fn(&Path) -> Result<(), String>,
    encode: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<Option<u32>>,
) -> Result<Option<Written>, TableError> {
    let path = folder.join(file_name(&board));
    let temporary = temporary_path(&path);
    let result = replace_atomically(
        &path,
        |out| {
            let Some(checksum) = encode(out)? else {
                return Ok(None);
            };
            out.flush()?;
            check(&temporary).map_err(|refused| {
                std::io::Error::other(format!("the table failed its check: {refused}"))
            })?;
            Ok(Some((out.get_ref().metadata()?.len(), checksum)))
        },
        &|| observer.cancelled(),
    );
    match result {
        Ok(Some((bytes, checksum))) => Ok(Some(Written {
            path,
            bytes,
            checksum,
        })),
        Ok(None) => Ok(None),
        Err(error) => Err(TableError::io(&path, error)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::sync::Mutex;

    /// Records the phases and work it is shown; says stop when asked to.
    #[derive(Default)]
    struct Watch {
        phases: Mutex<Vec<(Phase, u64)>>,
        done: AtomicU64,
        stop: AtomicBool,
    }

    impl Observer for Watch {
        fn phase_started(&self, phase: Phase, total: u64) {
            self.phases.lock().unwrap().push((phase, total));
        }
        fn advanced(&self, work: u64) {
            self.done.fetch_add(work, Ordering::Relaxed);
        }
        fn cancelled(&self) -> bool {
            self.stop.load(Ordering::Relaxed)
        }
    }

    #[test]
    fn writing_reports_its_blocks_and_stops_when_asked() {
        // 3x4 fills several blocks.
        let solution = crate::solver::solve("3x4".parse().unwrap(), &Silent).unwrap();
        let watch = Watch::default();
        let (cursor, _) = encode_into(&solution, Cursor::new(Vec::new()), &watch)
            .unwrap()
            .unwrap();
        let bytes = cursor.into_inner();
        let blocks = format::TableBytes::new(&bytes).unwrap().header().blocks as u64;
        assert!(blocks > 1);
        assert_eq!(*watch.phases.lock().unwrap(), [(Phase::Write, blocks)]);
        assert_eq!(watch.done.load(Ordering::Relaxed), blocks);
        assert_eq!(bytes, encode(&solution).0);

        let stopped = Watch::default();
        stopped.stop.store(true, Ordering::Relaxed);
        assert!(encode_into(&solution, Cursor::new(Vec::new()), &stopped)
            .unwrap()
            .is_none());
    }
}
