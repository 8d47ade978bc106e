//! `TableBytes`: a table's bytes with a checked header, read part by part:
//! the directory, the block table and each block's records, every length
//! and offset bounded before use.

use super::deflate::inflate;
use super::records::{decode_records, Block};
use super::{inconsistent, u64_at, Fault, Header};

/// A table's bytes with a checked header.
pub struct TableBytes<'a> {
    bytes: &'a [u8],
    header: Header,
}

impl<'a> TableBytes<'a> {
    /// Checks the header and checksum.
    #[cfg(test)]
    pub fn new(bytes: &'a [u8]) -> Result<TableBytes<'a>, Fault> {
        let header = Header::read(bytes)?;
        Ok(TableBytes { bytes, header })
    }

    /// `new`, telling `release` of the bytes the checksum has summed.
    pub fn new_releasing(
        bytes: &'a [u8],
        release: &dyn Fn(std::ops::Range<usize>),
    ) -> Result<TableBytes<'a>, Fault> {
        let header = Header::read_releasing(bytes, release)?;
        Ok(TableBytes { bytes, header })
    }

    /// Bytes whose header was already read and checked by `Header::read`.
    pub fn with_header(bytes: &'a [u8], header: Header) -> TableBytes<'a> {
        TableBytes { bytes, header }
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The directory: canonical legal positions per 64-code word.
    pub fn directory(&self) -> Result<Vec<u8>, Fault> {
        let header = &self.header;
        let words = header.directory_words();
        let start = header.directory_offset as usize;
        let end = start.saturating_add(header.directory_length as usize);
        let Some(compressed) = self.bytes.get(start..end) else {
            return Err(inconsistent("directory offsets"));
        };
        let raw = inflate(compressed, words as usize, "the directory")?;
        if raw.len() as u64 != words {
            return Err(inconsistent("the directory has the wrong length"));
        }
        if raw.iter().any(|&count| count > 64) {
            return Err(inconsistent("a directory count above 64"));
        }
        let total: u64 = raw.iter().map(|&c| c as u64).sum();
        if total != header.positions {
            return Err(inconsistent("the directory does not count the positions"));
        }
        Ok(raw)
    }

    /// The positions `first..last` that block `block` covers.
    pub fn block_positions(&self, block: u32) -> (u64, u64) {
        let per = self.header.positions_per_block as u64;
        let first = block as u64 * per;
        (first, (first + per).min(self.header.positions))
    }

    /// The bytes the directory takes in the file, if within it.
    pub fn directory_span(&self) -> Option<std::ops::Range<usize>> {
        let start = self.header.directory_offset;
        let end = start.checked_add(self.header.directory_length)?;
        (end <= self.bytes.len() as u64).then_some(start as usize..end as usize)
    }

    /// The bytes blocks `first..last` take in the file, if their offsets
    /// are in order and within it.
    pub fn blocks_span(&self, first: u32, last: u32) -> Option<std::ops::Range<usize>> {
        let header = &self.header;
        if first >= last || last > header.blocks {
            return None;
        }
        let table = header.block_table_offset as usize;
        let start = u64_at(self.bytes, table + first as usize * 8);
        let end = u64_at(self.bytes, table + last as usize * 8);
        (start <= end && end <= self.bytes.len() as u64).then_some(start as usize..end as usize)
    }

    /// Decodes block `block`.
    pub fn block(&self, block: u32) -> Result<Block, Fault> {
        let header = &self.header;
        if block >= header.blocks {
            return Err(inconsistent(format!("block {block} of {}", header.blocks)));
        }
        let entry = header.block_table_offset as usize + block as usize * 8;
        let start = u64_at(self.bytes, entry);
        let end = u64_at(self.bytes, entry + 8);
        if start < header.block_table_offset || end < start || end > self.bytes.len() as u64 {
            return Err(inconsistent(format!("block {block} offsets")));
        }
        let (first, last) = self.block_positions(block);
        let count = (last - first) as usize;
        let points = header.board.points();
        // Per position: a count byte, then at most 2 + N states of at most
        // 2 codes and 2 escaped depths.
        let limit = count * (1 + (2 + points) * 8);
        let raw = inflate(&self.bytes[start as usize..end as usize], limit, "a block")?;
        decode_records(&raw, count, points as i32)
            .map_err(|what| inconsistent(format!("block {block}: {what}")))
    }
}
