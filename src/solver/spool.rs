//! Append-only streams of ascending numbers, kept in memory or in a file:
//! where the lean solve keeps what it writes once and reads back in order
//! (each level's seeds, and every state's value as it is decided), so that
//! those leave memory.
//!
//! Numbers are written as LEB128 varints of their gaps: a run of ascending
//! state numbers costs a byte or two each. A spool knows nothing of what
//! the numbers mean; its writer and reader agree on that. It keeps the
//! CRC-32 of what it holds, so that a checkpoint can record a spool's
//! length and checksum and a resumed solve can trust it (`reopen`).

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crc32fast::Hasher as Crc;

/// Where a spool's bytes are.
enum Backing {
    Memory(Vec<u8>),
    File { out: BufWriter<File>, path: PathBuf },
}

/// One append-only byte stream of varints.
pub struct Spool {
    backing: Backing,
    /// Bytes appended so far.
    len: u64,
    /// Their CRC-32.
    crc: Crc,
}

/// A spool's length and the CRC-32 of its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpoolMark {
    pub len: u64,
    pub crc: u32,
}

/// Bytes of a spool file's write buffer: a few hundred spools are open at
/// once on the largest boards.
const WRITE_BUFFER: usize = 16 << 10;

impl Spool {
    /// A spool in memory.
    pub fn in_memory() -> Spool {
        Spool {
            backing: Backing::Memory(Vec::new()),
            len: 0,
            crc: Crc::new(),
        }
    }

    /// A spool in a new file at `path` (replacing any file there).
    pub fn create(path: PathBuf) -> io::Result<Spool> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)?;
        Ok(Spool {
            backing: Backing::File {
                out: BufWriter::with_capacity(WRITE_BUFFER, file),
                path,
            },
            len: 0,
            crc: Crc::new(),
        })
    }

    /// The spool in file `path` as it was at `mark`: its first `mark.len`
    /// bytes must have checksum `mark.crc`, and anything after them is cut
    /// off. Appending goes on from there.
    pub fn reopen(path: PathBuf, mark: SpoolMark) -> io::Result<Spool> {
        let file = OpenOptions::new().read(true).write(true).open(&path)?;
        if file.metadata()?.len() < mark.len {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!("{} is shorter than its checkpoint says", path.display()),
            ));
        }
        let mut crc = Crc::new();
        let mut reader = BufReader::with_capacity(1 << 20, (&file).take(mark.len));
        loop {
            let buffer = reader.fill_buf()?;
            if buffer.is_empty() {
                break;
            }
            crc.update(buffer);
            let n = buffer.len();
            reader.consume(n);
        }
        if crc.clone().finalize() != mark.crc {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{} does not match its checkpoint's checksum",
                    path.display()
                ),
            ));
        }
        file.set_len(mark.len)?;
        let mut file = file;
        file.seek(SeekFrom::Start(mark.len))?;
        Ok(Spool {
            backing: Backing::File {
                out: BufWriter::with_capacity(WRITE_BUFFER, file),
                path,
            },
            len: mark.len,
            crc,
        })
    }

    /// Where the spool stands: its length and checksum so far. For a spool
    /// in a file, its bytes are flushed to the file first.
    pub fn mark(&mut self) -> io::Result<SpoolMark> {
        if let Backing::File { out, .. } = &mut self.backing {
            out.flush()?;
        }
        Ok(SpoolMark {
            len: self.len,
            crc: self.crc.clone().finalize(),
        })
    }

    /// Flushes the spool's file to disk.
    pub fn sync(&mut self) -> io::Result<()> {
        if let Backing::File { out, .. } = &mut self.backing {
            out.flush()?;
            out.get_ref().sync_data()?;
        }
        Ok(())
    }

    /// Bytes appended so far.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Appends one varint.
    #[inline]
    pub fn push(&mut self, mut value: u64) -> io::Result<()> {
        let mut bytes = [0u8; 10];
        let mut n = 0;
        while value >= 0x80 {
            bytes[n] = value as u8 | 0x80;
            value >>= 7;
            n += 1;
        }
        bytes[n] = value as u8;
        self.push_bytes(&bytes[..=n])
    }

    /// Appends bytes already encoded as varints (see `encode`).
    pub fn push_bytes(&mut self, bytes: &[u8]) -> io::Result<()> {
        match &mut self.backing {
            Backing::Memory(data) => data.extend_from_slice(bytes),
            Backing::File { out, .. } => out.write_all(bytes)?,
        }
        self.crc.update(bytes);
        self.len += bytes.len() as u64;
        Ok(())
    }

    /// Reads the spool from the start; appending may go on afterwards.
    pub fn reader(&mut self) -> io::Result<SpoolReader<'_>> {
        let source: Box<dyn BufRead + '_> = match &mut self.backing {
            Backing::Memory(data) => Box::new(&data[..]),
            Backing::File { out, path } => {
                out.flush()?;
                let mut file = File::open(&*path)?;
                file.seek(SeekFrom::Start(0))?;
                Box::new(BufReader::with_capacity(1 << 20, file.take(self.len)))
            }
        };
        Ok(SpoolReader { source })
    }
}

/// Appends `value` as a varint to `out`, for a batch handed to
/// `Spool::push_bytes` later.
#[inline]
pub fn encode(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Reads a spool's varints in order.
pub struct SpoolReader<'a> {
    source: Box<dyn BufRead + 'a>,
}

fn cut_short() -> io::Error {
    io::Error::new(io::ErrorKind::UnexpectedEof, "a spool ends inside a number")
}

impl SpoolReader<'_> {
    /// The next varint; `None` at the end.
    #[inline]
    pub fn next_value(&mut self) -> io::Result<Option<u64>> {
        let buffer = self.source.fill_buf()?;
        if buffer.is_empty() {
            return Ok(None);
        }
        // A whole varint in the buffer: decoded in place.
        let mut value = 0u64;
        for (i, &byte) in buffer.iter().take(10).enumerate() {
            value |= ((byte & 0x7f) as u64) << (7 * i);
            if byte & 0x80 == 0 {
                self.source.consume(i + 1);
                return Ok(Some(value));
            }
        }
        if buffer.len() >= 10 {
            return Err(past_64_bits());
        }
        // One that runs past the buffer's end: a byte at a time.
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let mut byte = [0u8];
            if self.source.read(&mut byte)? == 0 {
                return Err(cut_short());
            }
            value |= ((byte[0] & 0x7f) as u64) << shift;
            if byte[0] & 0x80 == 0 {
                return Ok(Some(value));
            }
        }
        Err(past_64_bits())
    }

    /// Appends the next varints to `out`, at most `max` and at least one
    /// unless the spool is at its end: those whole in the read buffer are
    /// decoded in one sweep over it.
    pub fn next_values(&mut self, out: &mut Vec<u64>, max: usize) -> io::Result<()> {
        let buffer = self.source.fill_buf()?;
        let mut used = 0;
        let mut value = 0u64;
        let mut shift = 0;
        let mut taken = 0;
        for (i, &byte) in buffer.iter().enumerate() {
            if taken == max {
                break;
            }
            if shift == 63 && byte > 1 {
                return Err(past_64_bits());
            }
            value |= ((byte & 0x7f) as u64) << shift;
            if byte & 0x80 == 0 {
                out.push(value);
                taken += 1;
                used = i + 1;
                value = 0;
                shift = 0;
            } else {
                shift += 7;
                if shift > 63 {
                    return Err(past_64_bits());
                }
            }
        }
        self.source.consume(used);
        if taken == 0 {
            // The buffer is empty, or ends inside a varint.
            if let Some(value) = self.next_value()? {
                out.push(value);
            }
        }
        Ok(())
    }
}

fn past_64_bits() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        "a spool holds a number past 64 bits",
    )
}

/// Where spools are made: a folder for their files (a build's working
/// folder, which outlives them), or none, for spools in memory.
pub struct SpoolFolder {
    path: Option<PathBuf>,
}

impl SpoolFolder {
    /// Spools in memory.
    pub fn memory() -> SpoolFolder {
        SpoolFolder { path: None }
    }

    /// Spools in the existing folder `path`.
    pub fn within(path: &Path) -> SpoolFolder {
        SpoolFolder {
            path: Some(path.to_path_buf()),
        }
    }

    /// A new spool named `name`.
    pub fn spool(&self, name: &str) -> io::Result<Spool> {
        match &self.path {
            None => Ok(Spool::in_memory()),
            Some(folder) => Spool::create(folder.join(name)),
        }
    }

    /// The spool named `name` as it was at `mark` (see `Spool::reopen`);
    /// spools in memory are not kept, so there is none to reopen.
    pub fn reopen(&self, name: &str, mark: SpoolMark) -> io::Result<Spool> {
        match &self.path {
            None => Err(io::Error::new(
                io::ErrorKind::NotFound,
                "spools in memory are not kept",
            )),
            Some(folder) => Spool::reopen(folder.join(name), mark),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(spool: &mut Spool) {
        let values: Vec<u64> = (0..3000u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (i % 64))
            .chain([0, 127, 128, u64::MAX])
            .collect();
        let mut batch = Vec::new();
        for (i, &v) in values.iter().enumerate() {
            if i % 2 == 0 {
                spool.push(v).unwrap();
            } else {
                batch.clear();
                encode(&mut batch, v);
                spool.push_bytes(&batch).unwrap();
            }
        }
        let mut reader = spool.reader().unwrap();
        for &v in &values {
            assert_eq!(reader.next_value().unwrap(), Some(v));
        }
        assert_eq!(reader.next_value().unwrap(), None);
    }

    #[test]
    fn varints_come_back_in_memory_and_in_files() {
        round_trip(&mut Spool::in_memory());
        let folder = tempfile::tempdir().unwrap();
        let spools = SpoolFolder::within(folder.path());
        let mut spool = spools.spool("a").unwrap();
        round_trip(&mut spool);
        // Appending goes on after a read.
        spool.push(5).unwrap();
        let mut last = None;
        let mut reader = spool.reader().unwrap();
        while let Some(v) = reader.next_value().unwrap() {
            last = Some(v);
        }
        drop(reader);
        assert_eq!(last, Some(5));
        drop(spool);
    }

    #[test]
    fn batches_of_varints_come_back_across_read_buffers() {
        // Over 1 MiB of varints of every length, so that some straddle the
        // end of the file reader's buffer.
        let values: Vec<u64> = (0..400_000u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (i % 64))
            .collect();
        let folder = tempfile::tempdir().unwrap();
        let mut spool = SpoolFolder::within(folder.path()).spool("b").unwrap();
        for &v in &values {
            spool.push(v).unwrap();
        }
        assert!(spool.len() > 1 << 20);
        for max in [1, 7, 1024] {
            let mut reader = spool.reader().unwrap();
            let mut read = Vec::new();
            loop {
                let before = read.len();
                reader.next_values(&mut read, max).unwrap();
                assert!(read.len() - before <= max);
                if read.len() == before {
                    break;
                }
            }
            assert_eq!(read, values);
        }
    }

    #[test]
    fn a_cut_varint_is_an_error() {
        let mut spool = Spool::in_memory();
        spool.push_bytes(&[5, 0x80]).unwrap();
        let mut reader = spool.reader().unwrap();
        let mut read = Vec::new();
        reader.next_values(&mut read, 10).unwrap();
        assert_eq!(read, [5]);
        assert!(reader.next_values(&mut read, 10).is_err());
        let mut spool = Spool::in_memory();
        spool.push_bytes(&[0xff; 10]).unwrap();
        assert!(spool.reader().unwrap().next_values(&mut read, 10).is_err());
    }

    #[test]
    fn a_cut_varint_is_an_error_one_at_a_time() {
        let mut spool = Spool::in_memory();
        spool.push_bytes(&[0x80]).unwrap();
        assert!(spool.reader().unwrap().next_value().is_err());
    }
}
