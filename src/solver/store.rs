//! Where the solver keeps its cells (one `u32` per state, see `cell`): a
//! flat array when it fits in memory, or blocks of cells kept compressed
//! with zstd and decompressed on demand, for boards whose flat cells do not
//! fit (the memory plan in the README).
//!
//! Both forms hold the same cells and a solve gives the same values in
//! either; only speed and memory differ. This module owns the blocks and
//! their codec; the solver's phases decide what to do with a block's cells.

use std::cell::RefCell;
use std::ops::Range;

use rayon::prelude::*;

/// How a solve keeps its cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellForm {
    /// One flat array: 4 bytes per state, the fastest.
    Flat,
    /// Blocks of `block_cells` cells, each compressed on its own.
    Compressed { block_cells: usize },
}

impl CellForm {
    /// Cells per compressed block by default: 64 KiB of cells.
    pub const BLOCK_CELLS: usize = 16_384;

    /// Compressed blocks of the default size.
    pub fn compressed() -> CellForm {
        CellForm::Compressed {
            block_cells: Self::BLOCK_CELLS,
        }
    }

    /// The most cells a block holds: the solver files updates by their
    /// offset within a block in 15 bits.
    pub const MAX_BLOCK_CELLS: usize = 1 << 15;

    /// Compressed blocks of about `block_cells` cells (rounded up to a
    /// multiple of 64, the states of one layer flag, and at most
    /// `MAX_BLOCK_CELLS`).
    pub fn compressed_blocks(block_cells: usize) -> CellForm {
        CellForm::Compressed {
            block_cells: block_cells.clamp(1, Self::MAX_BLOCK_CELLS).div_ceil(64) * 64,
        }
    }
}

/// The zstd level of the blocks: measured on the cells of a 3x7 build, level
/// 3 is smaller than level 1 and decompresses faster (README, memory plan).
const ZSTD_LEVEL: i32 = 3;

/// A thread's zstd contexts and byte buffers, reused from block to block so
/// that the steady churn of blocks allocates nothing but each block's exact
/// compressed bytes (freed memory of varying sizes otherwise piles up in
/// the allocator: measured on 3x5, 79 MB peak before, 46 MB after).
struct Codec {
    compressor: zstd::bulk::Compressor<'static>,
    decompressor: zstd::bulk::Decompressor<'static>,
    raw: Vec<u8>,
    packed: Vec<u8>,
}

thread_local! {
    static CODEC: RefCell<Option<Codec>> = const { RefCell::new(None) };
}

fn with_codec<T>(work: impl FnOnce(&mut Codec) -> T) -> T {
    CODEC.with(|slot| {
        let mut slot = slot.borrow_mut();
        let codec = slot.get_or_insert_with(|| Codec {
            compressor: zstd::bulk::Compressor::new(ZSTD_LEVEL)
                .expect("a zstd context for cell blocks"),
            decompressor: zstd::bulk::Decompressor::new().expect("a zstd context for cell blocks"),
            raw: Vec::new(),
            packed: Vec::new(),
        });
        work(codec)
    })
}

/// Compresses a run of cells.
fn compress(cells: &[u32]) -> Vec<u8> {
    with_codec(|codec| {
        codec.raw.clear();
        codec.raw.extend(cells.iter().flat_map(|c| c.to_le_bytes()));
        codec.packed.clear();
        codec
            .packed
            .reserve(zstd::zstd_safe::compress_bound(codec.raw.len()));
        codec
            .compressor
            .compress_to_buffer(&codec.raw, &mut codec.packed)
            .expect("compressing cells in memory");
        codec.packed.as_slice().to_vec()
    })
}

/// Decompresses a block of `cells` cells into `out` (replacing its contents).
fn decompress(block: &[u8], cells: usize, out: &mut Vec<u32>) {
    with_codec(|codec| {
        codec.raw.clear();
        codec.raw.reserve(4 * cells);
        // The blocks were compressed by this process from cells of this
        // length; anything else is a bug, not bad input.
        let length = codec
            .decompressor
            .decompress_to_buffer(block, &mut codec.raw)
            .expect("a cell block this process compressed");
        assert_eq!(length, 4 * cells, "a cell block of the wrong length");
        out.clear();
        out.extend(
            codec
                .raw
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
    })
}

/// Cells kept in compressed blocks.
pub struct Blocks {
    block_cells: usize,
    states: usize,
    blocks: Vec<Vec<u8>>,
}

impl Blocks {
    /// Cells per block (the last block may hold fewer).
    pub fn block_cells(&self) -> usize {
        self.block_cells
    }

    pub fn len(&self) -> usize {
        self.blocks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// The state numbers of block `block`.
    pub fn states_of(&self, block: usize) -> Range<usize> {
        let first = block * self.block_cells;
        first..(first + self.block_cells).min(self.states)
    }

    /// The cells of block `block`, into `out`.
    pub fn read(&self, block: usize, out: &mut Vec<u32>) {
        decompress(&self.blocks[block], self.states_of(block).len(), out);
    }

    /// Calls `visit(block, cells)` for every block in parallel; `visit` may
    /// change the cells and says whether it did, and a changed block is
    /// compressed again. Returns the sum of what `visit` counted.
    pub fn update_each(
        &mut self,
        blocks: impl Fn(usize) -> bool + Sync,
        visit: impl Fn(usize, &mut [u32]) -> (bool, u64) + Sync,
    ) -> u64 {
        let block_cells = self.block_cells;
        let states = self.states;
        self.blocks
            .par_iter_mut()
            .enumerate()
            .filter(|(block, _)| blocks(*block))
            .map_init(Vec::new, |cells, (block, data)| {
                let first = block * block_cells;
                let length = (first + block_cells).min(states) - first;
                decompress(data, length, cells);
                let (changed, counted) = visit(block, cells);
                if changed {
                    *data = compress(cells);
                }
                counted
            })
            .sum()
    }

    /// Bytes held by the compressed blocks.
    pub fn memory_bytes(&self) -> usize {
        self.blocks.iter().map(|b| b.capacity()).sum::<usize>()
            + self.blocks.capacity() * std::mem::size_of::<Vec<u8>>()
    }
}

/// The cells of a solve, in either form.
pub enum CellStore {
    Flat(Vec<u32>),
    Compressed(Blocks),
}

impl CellStore {
    /// How many cells.
    pub fn len(&self) -> usize {
        match self {
            CellStore::Flat(cells) => cells.len(),
            CellStore::Compressed(blocks) => blocks.states,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn form(&self) -> CellForm {
        match self {
            CellStore::Flat(_) => CellForm::Flat,
            CellStore::Compressed(blocks) => CellForm::Compressed {
                block_cells: blocks.block_cells,
            },
        }
    }

    /// One cell (a whole block is decompressed for it: for occasional use).
    pub fn get(&self, number: usize) -> u32 {
        match self {
            CellStore::Flat(cells) => cells[number],
            CellStore::Compressed(blocks) => {
                let block = number / blocks.block_cells;
                let mut cells = Vec::new();
                blocks.read(block, &mut cells);
                cells[number - block * blocks.block_cells]
            }
        }
    }

    /// The cells `range`, copied out.
    pub fn range(&self, range: Range<usize>) -> Vec<u32> {
        match self {
            CellStore::Flat(cells) => cells[range].to_vec(),
            CellStore::Compressed(blocks) => {
                let mut out = Vec::with_capacity(range.len());
                if range.is_empty() {
                    return out;
                }
                let first = range.start / blocks.block_cells;
                let last = (range.end - 1) / blocks.block_cells;
                let mut cells = Vec::new();
                for block in first..=last {
                    blocks.read(block, &mut cells);
                    let start = block * blocks.block_cells;
                    let from = range.start.max(start) - start;
                    let to = range.end.min(start + cells.len()) - start;
                    out.extend_from_slice(&cells[from..to]);
                }
                out
            }
        }
    }

    /// Calls `visit` with every cell, in order, a run at a time; stops at
    /// the first error.
    pub fn for_each_run<E>(&self, mut visit: impl FnMut(&[u32]) -> Result<(), E>) -> Result<(), E> {
        const RUN: usize = 1 << 20;
        match self {
            CellStore::Flat(cells) => cells.chunks(RUN).try_for_each(visit),
            CellStore::Compressed(blocks) => {
                // Decompress a batch of blocks in parallel, then hand them on
                // in order.
                let batch = (RUN / blocks.block_cells).max(1) * 4;
                for first in (0..blocks.len()).step_by(batch) {
                    let runs: Vec<Vec<u32>> = (first..(first + batch).min(blocks.len()))
                        .into_par_iter()
                        .map(|block| {
                            let mut cells = Vec::new();
                            blocks.read(block, &mut cells);
                            cells
                        })
                        .collect();
                    for run in &runs {
                        visit(run)?;
                    }
                }
                Ok(())
            }
        }
    }

    /// Bytes held by the cells.
    pub fn memory_bytes(&self) -> usize {
        match self {
            CellStore::Flat(cells) => cells.capacity() * 4,
            CellStore::Compressed(blocks) => blocks.memory_bytes(),
        }
    }
}

/// Builds a store from its cells given in order, a run at a time.
pub struct CellBuilder {
    form: CellForm,
    states: usize,
    /// Flat: every cell so far. Compressed: the cells not yet in a block.
    pending: Vec<u32>,
    blocks: Vec<Vec<u8>>,
    pushed: usize,
}

impl CellBuilder {
    /// A builder of a store of `states` cells in form `form`.
    pub fn new(form: CellForm, states: usize) -> CellBuilder {
        let pending = match form {
            CellForm::Flat => {
                let mut cells = Vec::with_capacity(states);
                crate::huge_pages::advise(cells.spare_capacity_mut());
                cells
            }
            CellForm::Compressed { block_cells } => Vec::with_capacity(2 * block_cells),
        };
        CellBuilder {
            form,
            states,
            pending,
            blocks: Vec::new(),
            pushed: 0,
        }
    }

    /// Appends cells. In compressed form the full blocks are compressed in
    /// parallel once 64 blocks are waiting.
    pub fn push(&mut self, cells: &[u32]) {
        self.pushed += cells.len();
        self.pending.extend_from_slice(cells);
        if let CellForm::Compressed { block_cells } = self.form {
            if self.pending.len() >= 64 * block_cells {
                self.seal(block_cells);
            }
        }
    }

    /// Compresses the full blocks waiting.
    fn seal(&mut self, block_cells: usize) {
        let full = self.pending.len() / block_cells;
        let compressed: Vec<Vec<u8>> = self.pending[..full * block_cells]
            .par_chunks(block_cells)
            .map(compress)
            .collect();
        self.blocks.extend(compressed);
        self.pending.drain(..full * block_cells);
    }

    /// The store; `None` unless exactly `states` cells were pushed.
    pub fn finish(mut self) -> Option<CellStore> {
        if self.pushed != self.states {
            return None;
        }
        match self.form {
            CellForm::Flat => Some(CellStore::Flat(self.pending)),
            CellForm::Compressed { block_cells } => {
                self.seal(block_cells);
                if !self.pending.is_empty() {
                    self.blocks.push(compress(&self.pending));
                }
                Some(CellStore::Compressed(Blocks {
                    block_cells,
                    states: self.states,
                    blocks: self.blocks,
                }))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(count: usize) -> Vec<u32> {
        (0..count as u32)
            .map(|i| i.wrapping_mul(2_654_435_761) >> (i % 7))
            .collect()
    }

    fn compressed(values: &[u32], block_cells: usize, run: usize) -> CellStore {
        let mut builder = CellBuilder::new(CellForm::compressed_blocks(block_cells), values.len());
        for piece in values.chunks(run) {
            builder.push(piece);
        }
        builder.finish().expect("every cell pushed")
    }

    #[test]
    fn compressed_cells_read_back_as_pushed() {
        let values = cells(10_000);
        for (block_cells, run) in [(64, 1), (64, 100), (640, 333), (16_384, 4096)] {
            let store = compressed(&values, block_cells, run);
            assert_eq!(store.len(), values.len());
            for number in [0, 1, 63, 64, 65, 639, 640, 9_999] {
                assert_eq!(store.get(number), values[number]);
            }
            for range in [0..0, 0..10_000, 63..65, 100..5_000, 9_000..10_000] {
                assert_eq!(store.range(range.clone()), values[range]);
            }
            let mut streamed = Vec::new();
            store
                .for_each_run(|run| {
                    streamed.extend_from_slice(run);
                    Ok::<(), ()>(())
                })
                .unwrap();
            assert_eq!(streamed, values);
        }
    }

    #[test]
    fn updated_blocks_are_compressed_again() {
        let values = cells(1_000);
        let CellStore::Compressed(mut blocks) = compressed(&values, 128, 1_000) else {
            panic!("compressed form");
        };
        let counted = blocks.update_each(
            |block| block % 2 == 1,
            |block, cells| {
                cells[0] = block as u32;
                (true, 1)
            },
        );
        assert_eq!(counted, blocks.len() as u64 / 2);
        let store = CellStore::Compressed(blocks);
        for (number, &value) in values.iter().enumerate() {
            let block = number / 128;
            let expected = if block % 2 == 1 && number % 128 == 0 {
                block as u32
            } else {
                value
            };
            assert_eq!(store.get(number), expected, "cell {number}");
        }
    }

    #[test]
    fn a_builder_refuses_too_few_or_too_many_cells() {
        for form in [CellForm::Flat, CellForm::compressed_blocks(64)] {
            let mut short = CellBuilder::new(form, 100);
            short.push(&cells(99));
            assert!(short.finish().is_none());
            let mut long = CellBuilder::new(form, 100);
            long.push(&cells(101));
            assert!(long.finish().is_none());
        }
    }
}
