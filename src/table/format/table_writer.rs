//! `TableWriter`: a table file written front to back, the directory and the
//! blocks streamed out as they are compressed, then the block table and the
//! header with its checksum.

// A probe-only build (no feature `solver`) leaves the writer unused.
#![cfg_attr(not(feature = "solver"), allow(dead_code, unused_imports))]

use std::io::{Seek, SeekFrom, Write};

use crc32fast::Hasher as Crc;
use flate2::write::DeflateEncoder;
use flate2::Compression;

use super::deflate::LEVEL;
use super::{Header, CHECKSUM_OFFSET};
use crate::rules::board::Board;

/// The directory's raw bytes, from the presence bits of the canonical legal
/// positions, 64 codes a word: how many each word has.
pub fn directory_counts(presence_words: impl Iterator<Item = u64>) -> impl Iterator<Item = u8> {
    presence_words.map(|w| w.count_ones() as u8)
}

/// Passes bytes on, counting them and keeping their CRC-32.
struct Tally<'a, W: Write> {
    out: &'a mut W,
    crc: Crc,
    bytes: u64,
}

impl<W: Write> Write for Tally<'_, W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let written = self.out.write(bytes)?;
        self.crc.update(&bytes[..written]);
        self.bytes += written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// What the header says about a table, apart from offsets and checksum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Description {
    pub board: Board,
    pub positions: u64,
    pub ko_states: u64,
    pub edges: u64,
    pub positions_per_block: u32,
}

/// Writes a table file front to back: the directory and the blocks stream
/// out as they are compressed, then the block table and header (with the
/// checksum, combined from the parts' checksums) are filled in.
pub struct TableWriter<W: Write + Seek> {
    out: W,
    header: Header,
    directory_crc: Crc,
    offsets: Vec<u64>,
    blocks_crc: Crc,
    at: u64,
}

impl<W: Write + Seek> TableWriter<W> {
    /// Starts a table; `directory` gives the raw directory bytes
    /// (`directory_counts`), which are compressed into the file at once.
    pub fn new(
        mut out: W,
        description: Description,
        directory: impl Iterator<Item = u8>,
    ) -> std::io::Result<TableWriter<W>> {
        let directory_offset = Header::front_size(&description.board);
        out.seek(SeekFrom::Start(directory_offset))?;
        let mut encoder = DeflateEncoder::new(
            Tally {
                out: &mut out,
                crc: Crc::new(),
                bytes: 0,
            },
            Compression::new(LEVEL),
        );
        let mut chunk = Vec::with_capacity(1 << 16);
        for byte in directory {
            chunk.push(byte);
            if chunk.len() == chunk.capacity() {
                encoder.write_all(&chunk)?;
                chunk.clear();
            }
        }
        encoder.write_all(&chunk)?;
        let tally = encoder.finish()?;
        let (directory_crc, directory_length) = (tally.crc, tally.bytes);
        let blocks = description
            .positions
            .div_ceil(description.positions_per_block as u64) as u32;
        let block_table_offset = directory_offset + directory_length;
        let first_block = block_table_offset + (blocks as u64 + 1) * 8;
        let header = Header {
            board: description.board,
            positions: description.positions,
            ko_states: description.ko_states,
            states: 2 * description.positions + description.ko_states,
            edges: description.edges,
            positions_per_block: description.positions_per_block,
            blocks,
            directory_offset,
            directory_length,
            block_table_offset,
            checksum: 0,
        };
        out.seek(SeekFrom::Start(first_block))?;
        Ok(TableWriter {
            out,
            header,
            directory_crc,
            offsets: Vec::with_capacity(blocks as usize + 1),
            blocks_crc: Crc::new(),
            at: first_block,
        })
    }

    /// The number of blocks the table needs.
    pub fn blocks(&self) -> u32 {
        self.header.blocks
    }

    /// Appends the next compressed block.
    pub fn add_block(&mut self, compressed: &[u8]) -> std::io::Result<()> {
        assert!(
            self.offsets.len() < self.header.blocks as usize,
            "more blocks than positions"
        );
        self.out.write_all(compressed)?;
        self.blocks_crc.update(compressed);
        self.offsets.push(self.at);
        self.at += compressed.len() as u64;
        Ok(())
    }

    /// Writes the front of the file; returns the output and the checksum.
    pub fn finish(mut self) -> std::io::Result<(W, u32)> {
        assert_eq!(
            self.offsets.len(),
            self.header.blocks as usize,
            "every block written"
        );
        self.offsets.push(self.at);
        let mut header = self.header.encode();
        let table: Vec<u8> = self.offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
        // The file's CRC, in file order: header (and shape), directory,
        // table, blocks.
        let mut crc = Crc::new();
        crc.update(&header);
        crc.combine(&self.directory_crc);
        let mut table_crc = Crc::new();
        table_crc.update(&table);
        crc.combine(&table_crc);
        crc.combine(&self.blocks_crc);
        let checksum = crc.finalize();
        header[CHECKSUM_OFFSET..CHECKSUM_OFFSET + 4].copy_from_slice(&checksum.to_le_bytes());
        self.out.seek(SeekFrom::Start(0))?;
        self.out.write_all(&header)?;
        self.out
            .seek(SeekFrom::Start(self.header.block_table_offset))?;
        self.out.write_all(&table)?;
        self.out.flush()?;
        Ok((self.out, checksum))
    }
}
