//! Deflate for the parts of a table: one compression level for every part,
//! a compressor each thread keeps from block to block, and an inflate
//! bounded by the size the header allows.

// A probe-only build (no feature `solver`) leaves compression, which only writing uses unused.
#![cfg_attr(not(feature = "solver"), allow(dead_code, unused_imports))]

use std::cell::RefCell;
use std::io::Read;

use flate2::read::DeflateDecoder;
use flate2::Compression;
use flate2::{Compress, FlushCompress, Status};

use super::{inconsistent, Fault};

/// The deflate level of every part of a table: zlib's default. Levels 7 to
/// 9 make files under 0.6% smaller and take 1.5 to 2 times as long to write.
pub(super) const LEVEL: u32 = 6;

/// A thread's deflate state and output buffer, reused from block to block:
/// a new compressor allocates and clears its window and tables, which for
/// a block costs a seventh as much as compressing it; a reset one clears
/// only its hash table, and writes the same bytes as a new one.
struct BlockCompressor {
    deflate: Compress,
    compressed: Vec<u8>,
}

thread_local! {
    static BLOCK_COMPRESSOR: RefCell<Option<BlockCompressor>> = const { RefCell::new(None) };
}

/// Raw deflate of `bytes` at `LEVEL`, with the thread's compressor.
pub(super) fn deflate(bytes: &[u8]) -> Vec<u8> {
    BLOCK_COMPRESSOR.with(|slot| {
        let mut slot = slot.borrow_mut();
        let compressor = slot.get_or_insert_with(|| BlockCompressor {
            deflate: Compress::new(Compression::new(LEVEL), false),
            compressed: Vec::new(),
        });
        compressor.deflate.reset();
        compressor.compressed.clear();
        loop {
            compressor.compressed.reserve(bytes.len() / 2 + 1024);
            let read = compressor.deflate.total_in() as usize;
            let status = compressor
                .deflate
                .compress_vec(
                    &bytes[read..],
                    &mut compressor.compressed,
                    FlushCompress::Finish,
                )
                .expect("compressing in memory");
            if status == Status::StreamEnd {
                return compressor.compressed.to_vec();
            }
        }
    })
}

/// Inflates at most `limit` bytes; more is a fault (`what` names the
/// part in it). Win/draw/loss tables read their parts with it too.
pub(crate) fn inflate(bytes: &[u8], limit: usize, what: &str) -> Result<Vec<u8>, Fault> {
    let mut out = Vec::new();
    let mut decoder = DeflateDecoder::new(bytes).take(limit as u64 + 1);
    decoder
        .read_to_end(&mut out)
        .map_err(|e| inconsistent(format!("{what} does not inflate: {e}")))?;
    if out.len() > limit {
        return Err(inconsistent(format!("{what} inflates beyond its size")));
    }
    Ok(out)
}
