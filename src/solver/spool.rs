//! Append-only streams of ascending numbers, kept in memory or in a file:
//! where the lean solve keeps what it writes once and reads back in order
//! (each level's seeds, and every state's value as it is decided), so that
//! those leave memory.
//!
//! Numbers are written as LEB128 varints of their gaps: a run of ascending
//! state numbers costs a byte or two each. A spool knows nothing of what
//! the numbers mean; its writer and reader agree on that.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

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
}

/// Bytes of a spool file's write buffer: a few hundred spools are open at
/// once on the largest boards.
const WRITE_BUFFER: usize = 64 << 10;

impl Spool {
    /// A spool in memory.
    pub fn in_memory() -> Spool {
        Spool {
            backing: Backing::Memory(Vec::new()),
            len: 0,
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
        })
    }

    /// Bytes appended so far.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
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

    /// Removes the spool's file, if it has one.
    pub fn remove(self) {
        if let Backing::File { out, path } = self.backing {
            drop(out);
            let _ = fs::remove_file(path);
        }
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
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "a spool holds a number past 64 bits",
            ));
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
        Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "a spool holds a number past 64 bits",
        ))
    }

    /// The next varint, which must be there.
    pub fn expect_value(&mut self) -> io::Result<u64> {
        self.next_value()?.ok_or_else(cut_short)
    }
}

/// A folder for spool files, removed with them when dropped; or none, for
/// spools in memory.
pub struct SpoolFolder {
    path: Option<PathBuf>,
}

impl SpoolFolder {
    /// Spools in memory.
    pub fn memory() -> SpoolFolder {
        SpoolFolder { path: None }
    }

    /// Spools in a new folder `path` (emptied if it exists).
    pub fn at(path: &Path) -> io::Result<SpoolFolder> {
        if path.exists() {
            fs::remove_dir_all(path)?;
        }
        fs::create_dir_all(path)?;
        Ok(SpoolFolder {
            path: Some(path.to_path_buf()),
        })
    }

    /// A new spool named `name`.
    pub fn spool(&self, name: &str) -> io::Result<Spool> {
        match &self.path {
            None => Ok(Spool::in_memory()),
            Some(folder) => Spool::create(folder.join(name)),
        }
    }
}

impl Drop for SpoolFolder {
    fn drop(&mut self) {
        if let Some(path) = &self.path {
            let _ = fs::remove_dir_all(path);
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
        let spools = SpoolFolder::at(&folder.path().join("spools")).unwrap();
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
        drop(spools);
        assert!(!folder.path().join("spools").exists());
    }

    #[test]
    fn a_cut_varint_is_an_error() {
        let mut spool = Spool::in_memory();
        spool.push_bytes(&[0x80]).unwrap();
        assert!(spool.reader().unwrap().next_value().is_err());
    }
}
