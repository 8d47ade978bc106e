//! A table file's bytes, read-only: read whole into memory when small, or
//! memory-mapped, with a way to let the mapped pages go once read. Every
//! `unsafe` block that touches a mapping lives here; the prober and the
//! verifier reach files through it and decode the bytes themselves.
//!
//! The contract of a mapping: while the bytes are held, no other program
//! may truncate the file or rewrite it in place (replacing it by a rename,
//! as smallgo does, is safe). A mapped file truncated under the process
//! stops it with a bus error (SIGBUS) at the next read past the new end.

use std::ops::Range;
use std::path::Path;

use memmap2::Mmap;

use super::TableError;

/// The widest window a page fault maps around the faulting page on Linux
/// (`fault_around_bytes` is at most one page table's reach: 512 pages of
/// 4 KiB; 64 KiB by default).
const FAULT_AROUND: usize = 2 << 20;

/// A regular file mapped read-only into memory.
pub struct Mapped {
    map: Mmap,
}

impl Mapped {
    /// Opens the regular file at `path` and maps it read-only.
    ///
    /// While the result is held, no other program may truncate the file
    /// or rewrite it in place: a truncated mapped file stops the process
    /// with SIGBUS at the next read past its new end (see the module).
    // Only the verifier (feature `solver`) maps a file of any size.
    #[cfg_attr(not(feature = "solver"), allow(dead_code))]
    pub fn open(path: &Path) -> Result<Mapped, TableError> {
        let file = super::open_regular(path)?;
        Mapped::of(&file, path)
    }

    /// Maps `file`, opened from `path`, read-only (the contract of `open`).
    fn of(file: &std::fs::File, path: &Path) -> Result<Mapped, TableError> {
        // SAFETY: the map is read-only and every byte read from it is checked
        // before use (bounds, codes, checksum), so unexpected contents give a
        // `Fault`, not undefined behaviour in our code. smallgo itself never
        // changes a table in place: new tables are renamed over old ones, so a
        // rebuild leaves a mapped file untouched. Another program truncating
        // the file while it is mapped could still fault the process; that is
        // the contract stated on `Mapped::open`.
        let map = unsafe { Mmap::map(file) }.map_err(|e| TableError::io(path, e))?;
        Ok(Mapped { map })
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.map
    }

    /// Lets the pages of `span` go (`MADV_DONTNEED`), and those of the
    /// aligned `FAULT_AROUND` windows it touches: a later read fetches them
    /// from the file again. The part past the end of the map is ignored.
    ///
    /// A read that faults a page in maps the pages of its window already in
    /// the page cache too (Linux's fault-around), so letting go of the read
    /// span alone leaves its neighbours mapped, counted in the resident
    /// memory: a file read in spans smaller than the window, each let go,
    /// would otherwise stay almost whole in it.
    pub fn release(&self, span: Range<usize>) {
        let end = span
            .end
            .checked_next_multiple_of(FAULT_AROUND)
            .unwrap_or(usize::MAX)
            .min(self.map.len());
        let start = (span.start / FAULT_AROUND * FAULT_AROUND).min(end);
        // SAFETY: the map is a shared, read-only map of a file, so dropping
        // its pages changes no byte: a later read fetches them from the file
        // again. The span was cut to lie within the map.
        let _ = unsafe {
            self.map
                .unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, start, end - start)
        };
    }
}

/// A file's bytes as `read_or_map` gives them.
pub enum FileBytes {
    /// Read whole: what happens to the file afterwards does not matter.
    Read(Vec<u8>),
    /// Mapped: under the contract of `Mapped::open`.
    Mapped(Mapped),
}

/// Opens the regular file at `path` read-only: read whole into memory if it
/// is smaller than `read_whole` bytes, else mapped, under the contract of
/// `Mapped::open` (no other program may truncate or rewrite it in place
/// while it is held; a truncated mapped file stops the process with
/// SIGBUS).
pub fn read_or_map(path: &Path, read_whole: u64) -> Result<FileBytes, TableError> {
    let mut file = super::open_regular(path)?;
    let length = file.metadata().map_err(|e| TableError::io(path, e))?.len();
    if length < read_whole {
        use std::io::Read;
        let mut bytes = Vec::with_capacity(length as usize);
        file.read_to_end(&mut bytes)
            .map_err(|e| TableError::io(path, e))?;
        return Ok(FileBytes::Read(bytes));
    }
    Mapped::of(&file, path).map(FileBytes::Mapped)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file reads back the same whether read whole or mapped, and a
    /// mapped file's pages let go (a span past the end included) are read
    /// again from the file.
    #[test]
    fn read_and_mapped_bytes_agree_and_survive_release() {
        let path = std::env::temp_dir().join(format!("smallgo-mapped-{}", std::process::id()));
        let contents: Vec<u8> = (0..20_000u32).map(|i| (i * 7 % 251) as u8).collect();
        std::fs::write(&path, &contents).unwrap();
        let read = read_or_map(&path, u64::MAX).unwrap();
        let mapped = read_or_map(&path, 0).unwrap();
        std::fs::remove_file(&path).unwrap();
        let FileBytes::Read(read) = read else {
            panic!("a file below the size was mapped")
        };
        let FileBytes::Mapped(mapped) = mapped else {
            panic!("a file of the size was read whole")
        };
        assert_eq!(read, contents);
        assert_eq!(mapped.bytes(), &contents[..]);
        mapped.release(0..8192);
        mapped.release(4096..usize::MAX);
        assert_eq!(mapped.bytes(), &contents[..]);
    }
}
