//! Checkpoints of a long build: the solver's cells saved between levels in
//! `RxC.sgtb.checkpoint` beside the table, so that a build killed on the way
//! (even by `kill -9`) goes on from the last saved level when `--build` is
//! run again, and writes the same table.
//!
//! ```text
//! header (64 bytes, little-endian)
//!    0  magic "SMALLGOC"              8  version (u32)
//!   12  rows, columns (u8 each)       14  2 zero bytes
//!   16  states (u64)                  24  edges (u64)
//!   32  next level (i32)              36  largest depth (u32)
//!   40  largest layer (u64)           48  flips (u64)
//!   56  CRC-32 of the cells (u32)     60  4 zero bytes
//! cells   one u32 per state
//! ```
//!
//! The file holds the cells themselves whatever form the solve keeps them
//! in, so a build may resume in either form.
//!
//! A checkpoint is written to a temporary name, flushed and renamed, at most
//! once per interval (a build shorter than the interval writes none), and no
//! sooner than twenty times the last save's duration after it, so that
//! saving costs about 5% of a long build. An interval of zero saves before
//! every level, whatever it costs. A
//! checkpoint that does not match the board or fails its checks is set aside
//! with a warning and the build starts afresh; once the table is written the
//! checkpoint is removed.

use std::fs::{self, File};
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crc32fast::Hasher as Crc;

use crate::board::Board;
use crate::solver::store::{CellBuilder, CellForm, CellStore};
use crate::solver::{CheckpointStore, SolveProgress};
use crate::table::writer::replace_atomically;

const MAGIC: [u8; 8] = *b"SMALLGOC";
const VERSION: u32 = 1;
const HEADER_SIZE: usize = 64;
/// Cells converted to bytes at a time.
const CHUNK_CELLS: usize = 1 << 18;

/// A save waits at least this many times as long as the last save took, so
/// that checkpoints cost about 5% of a build.
const SAVE_COST_RATIO: u32 = 20;

/// The checkpoint file of one board's build.
pub struct CheckpointFile {
    path: PathBuf,
    interval: Duration,
    /// When the last save ended, and how long it took.
    last_saved: Mutex<(Instant, Duration)>,
}

/// The checkpoint's name for a table file: the table's name and
/// `.checkpoint`.
pub fn checkpoint_path(table: &Path) -> PathBuf {
    let mut name = table.as_os_str().to_owned();
    name.push(".checkpoint");
    PathBuf::from(name)
}

impl CheckpointFile {
    /// Checkpoints beside `table`, saved at most once per `interval`.
    pub fn new(table: &Path, interval: Duration) -> CheckpointFile {
        CheckpointFile {
            path: checkpoint_path(table),
            interval,
            last_saved: Mutex::new((Instant::now(), Duration::ZERO)),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Removes the checkpoint (the table is written).
    pub fn remove(&self) {
        let _ = fs::remove_file(&self.path);
    }

    fn read(
        &self,
        board: Board,
        states: u64,
        form: CellForm,
    ) -> Result<(SolveProgress, CellStore), String> {
        let file = File::open(&self.path).map_err(|e| e.to_string())?;
        let length = file.metadata().map_err(|e| e.to_string())?.len();
        let mut input = BufReader::new(file);
        let mut header = [0u8; HEADER_SIZE];
        input
            .read_exact(&mut header)
            .map_err(|_| "truncated header".to_string())?;
        let u32_at =
            |at: usize| u32::from_le_bytes(header[at..at + 4].try_into().expect("4 bytes"));
        let u64_at =
            |at: usize| u64::from_le_bytes(header[at..at + 8].try_into().expect("8 bytes"));
        if header[0..8] != MAGIC {
            return Err("not a smallgo checkpoint".into());
        }
        if u32_at(8) != VERSION {
            return Err(format!("version {} is not {VERSION}", u32_at(8)));
        }
        if (header[12] as usize, header[13] as usize) != (board.rows(), board.columns()) {
            return Err(format!("it is for board {}x{}", header[12], header[13]));
        }
        if u64_at(16) != states {
            return Err(format!("it has {} states, the board {states}", u64_at(16)));
        }
        if length != HEADER_SIZE as u64 + 4 * states {
            return Err(format!(
                "{length} bytes where {} are needed",
                HEADER_SIZE as u64 + 4 * states
            ));
        }
        let progress = SolveProgress {
            edges: u64_at(24),
            next_level: u32_at(32) as i32,
            largest_depth: u32_at(36),
            largest_layer: u64_at(40),
            flips: u64_at(48),
        };
        let points = board.points() as i32;
        if progress.next_level < -points - 1 || progress.next_level > points {
            return Err(format!(
                "next level {} is not on this board",
                progress.next_level
            ));
        }
        let mut cells = CellBuilder::new(form, states as usize);
        let mut crc = Crc::new();
        let mut buffer = vec![0u8; 4 * CHUNK_CELLS];
        let mut run = Vec::with_capacity(CHUNK_CELLS);
        let mut left = states as usize;
        while left > 0 {
            let take = left.min(CHUNK_CELLS);
            let bytes = &mut buffer[..4 * take];
            input.read_exact(bytes).map_err(|e| e.to_string())?;
            crc.update(bytes);
            run.clear();
            run.extend(
                bytes
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes"))),
            );
            cells.push(&run);
            left -= take;
        }
        if crc.finalize() != u32_at(56) {
            return Err("checksum mismatch".into());
        }
        let cells = cells
            .finish()
            .ok_or_else(|| "the cells do not fill the board's states".to_string())?;
        Ok((progress, cells))
    }

    fn write(
        &self,
        board: Board,
        progress: SolveProgress,
        cells: &CellStore,
    ) -> std::io::Result<()> {
        let fill = |out: &mut BufWriter<File>| {
            out.write_all(&[0u8; HEADER_SIZE])?;
            let mut crc = Crc::new();
            let mut buffer = Vec::with_capacity(4 * CHUNK_CELLS);
            cells.for_each_run(|run| {
                for chunk in run.chunks(CHUNK_CELLS) {
                    buffer.resize(4 * chunk.len(), 0);
                    for (bytes, cell) in buffer.chunks_exact_mut(4).zip(chunk) {
                        bytes.copy_from_slice(&cell.to_le_bytes());
                    }
                    crc.update(&buffer);
                    out.write_all(&buffer)?;
                }
                Ok::<(), std::io::Error>(())
            })?;
            let mut header = [0u8; HEADER_SIZE];
            header[0..8].copy_from_slice(&MAGIC);
            header[8..12].copy_from_slice(&VERSION.to_le_bytes());
            header[12] = board.rows() as u8;
            header[13] = board.columns() as u8;
            header[16..24].copy_from_slice(&(cells.len() as u64).to_le_bytes());
            header[24..32].copy_from_slice(&progress.edges.to_le_bytes());
            header[32..36].copy_from_slice(&progress.next_level.to_le_bytes());
            header[36..40].copy_from_slice(&progress.largest_depth.to_le_bytes());
            header[40..48].copy_from_slice(&progress.largest_layer.to_le_bytes());
            header[48..56].copy_from_slice(&progress.flips.to_le_bytes());
            header[56..60].copy_from_slice(&crc.finalize().to_le_bytes());
            out.seek(SeekFrom::Start(0))?;
            out.write_all(&header)?;
            Ok(Some(()))
        };
        replace_atomically(&self.path, fill, &|| false).map(|_| ())
    }
}

impl CheckpointStore for CheckpointFile {
    fn load(
        &self,
        board: Board,
        states: u64,
        form: CellForm,
    ) -> Option<(SolveProgress, CellStore)> {
        if !self.path.exists() {
            return None;
        }
        // A FIFO or a device would block or never end: not read, not removed.
        if let Some(reason) = crate::table::not_regular(&self.path) {
            log::warn!(
                "{board}: ignoring checkpoint {}: {reason}; starting afresh",
                self.path.display()
            );
            return None;
        }
        match self.read(board, states, form) {
            Ok((progress, cells)) => {
                log::info!(
                    "{board}: resuming at margin {:+} from {}",
                    progress.next_level,
                    self.path.display()
                );
                Some((progress, cells))
            }
            Err(reason) => {
                log::warn!(
                    "{board}: ignoring checkpoint {}: {reason}; starting afresh",
                    self.path.display()
                );
                self.remove();
                None
            }
        }
    }

    fn offer(&self, board: Board, progress: SolveProgress, cells: &CellStore) {
        let mut last_saved = self.last_saved.lock().unwrap_or_else(|e| e.into_inner());
        let (ended, took) = *last_saved;
        let wait = if self.interval.is_zero() {
            Duration::ZERO
        } else {
            self.interval.max(took * SAVE_COST_RATIO)
        };
        if ended.elapsed() < wait {
            return;
        }
        let started = Instant::now();
        match self.write(board, progress, cells) {
            Ok(()) => log::info!(
                "{board}: checkpoint before margin {:+} saved in {:.1} s",
                progress.next_level,
                started.elapsed().as_secs_f64()
            ),
            Err(error) => log::warn!(
                "{board}: cannot save checkpoint {}: {error}",
                self.path.display()
            ),
        }
        *last_saved = (Instant::now(), started.elapsed());
    }
}
