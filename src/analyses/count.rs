//! Exact counts of a board's state space without an index, for boards far
//! too big to build here, and an estimate of its edges by sampling. This
//! module owns the counting (`count_codes`, `run`), the cutting of the code
//! space into chunks (`Chunks`), the saved progress of a count (`Progress`,
//! a small text file), and the edge estimate (`estimate_edges`);
//! `cli::count` is the command around them.
//!
//! The counts are those `StateIndex::build` makes in its streaming pass
//! over the codes, summed instead of stored: every code of `0..3^N` is
//! visited in runs of 64, the canonical legal positions found
//! (`Codec::canonical_legal_positions`), and for each one its class size
//! (the legal positions it stands for: the group's size divided by the
//! number of symmetries that fix it) and its canonical ko points are added
//! up. Memory stays at the codec's tables, whatever the board.
//!
//! The code space is cut into chunks (`Chunks::of`, a function of the
//! board alone) that threads take in order; a count's progress is the set
//! of chunks done and the sums over them, saved atomically as it goes, so
//! that a count stopped at any moment resumes and gives the same totals.
//!
//! From a finished count, `classes` gives the positions' classes as Bouzy
//! counts his board pieces' patterns (with and without the capture rule,
//! under the symmetries with and without the exchange of colours).

use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::common::random::SplitMix;
use crate::index::code::{Codec, PositionCode, MAX_CODE_POINTS};
use crate::rules::board::{Board, Point, PointSet};
use crate::rules::position::Position;
use crate::rules::state::{Child, State};
use crate::symmetry::symmetries;

/// The program that writes progress files; a file of another one is
/// refused, so that counts of two versions never mix.
pub const PROGRAM: &str = concat!("smallgo ", env!("CARGO_PKG_VERSION"));
/// The progress file's format, and the chunk layout it implies.
const FORMAT: u32 = 1;
/// The first line of a progress file.
const FILE_MAGIC: &str = "smallgo count progress";
/// The most bytes a progress file may have: the largest board's
/// 3^14 chunks listed as ranges take under 40 MB.
const MAX_PROGRESS_BYTES: u64 = 64 << 20;

/// The codes between two looks at the stop flag (and two progress reports)
/// inside a chunk: a multiple of 64, a fraction of a millisecond.
const CODES_PER_STEP: u64 = 1 << 16;

/// Sums over some canonical legal positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Legal positions with no symmetry applied, no side to move and no ko
    /// (Tromp's count): each canonical position weighs its class's size.
    pub legal_positions: u64,
    /// Canonical legal positions.
    pub positions: u64,
    /// Canonical states with a ko point.
    pub ko_states: u64,
}

impl Tally {
    /// All canonical states: two per position (with and without a pending
    /// pass) and the ko states.
    pub fn states(&self) -> u64 {
        2 * self.positions + self.ko_states
    }

    fn add(&mut self, other: &Tally) {
        self.legal_positions += other.legal_positions;
        self.positions += other.positions;
        self.ko_states += other.ko_states;
    }
}

/// How a board's code space `0..3^N` is cut: `count` chunks of `size`
/// codes, the last one possibly shorter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunks {
    pub codes: u64,
    pub size: u64,
    pub count: u64,
}

impl Chunks {
    /// The chunks of a board of at most `MAX_CODE_POINTS` points: one for
    /// boards of up to 10 points, else chunks of `3^e` codes with `e` from
    /// 10 to 18, about 2,187 of them (`3^7`) from 17 to 25 points. A chunk
    /// of 5x5 (`3^18` codes) takes a core a few seconds, so that a stop
    /// loses little; one of a small board is big enough that the threads'
    /// hand-over costs nothing.
    pub fn of(board: &Board) -> Chunks {
        let points = board.points() as u32;
        let exponent = if points <= 10 {
            points
        } else {
            points.saturating_sub(7).clamp(10, 18)
        };
        let codes = 3u64.pow(points);
        let size = 3u64.pow(exponent);
        Chunks {
            codes,
            size,
            count: codes.div_ceil(size),
        }
    }

    /// The codes of chunk `chunk`.
    pub fn range(&self, chunk: u64) -> Range<PositionCode> {
        let first = chunk * self.size;
        first..(first + self.size).min(self.codes)
    }
}

/// Counts the canonical legal positions among `codes`, or `None` if
/// `stop()` says so on the way (checked every `CODES_PER_STEP` codes, when
/// `advanced` is told how many codes were counted since).
pub fn count_codes(
    codec: &Codec,
    codes: Range<PositionCode>,
    stop: &dyn Fn() -> bool,
    advanced: &dyn Fn(u64),
) -> Option<Tally> {
    let board = *codec.board();
    let group = codec.symmetries().len() as u64;
    let mut tally = Tally::default();
    let mut first = codes.start;
    while first < codes.end {
        if stop() {
            return None;
        }
        let step_end = (first + CODES_PER_STEP).min(codes.end);
        let mut run = first;
        while run < step_end {
            let count = (step_end - run).min(64) as u32;
            codec.canonical_legal_positions(run, count, |position, canonical| {
                // The symmetries that reach the canonical code from a
                // canonical position are those that fix it: its
                // stabiliser, whose size divides the group's.
                let stabiliser = canonical.reaching.count_ones() as u64;
                debug_assert_eq!(group % stabiliser, 0);
                tally.legal_positions += group / stabiliser;
                tally.positions += 1;
                tally.ko_states += codec
                    .canonical_ko_points(&canonical, position.ko_points(&board))
                    .len() as u64;
            });
            run += count as u64;
        }
        advanced(step_end - first);
        first = step_end;
    }
    Some(tally)
}

/// A count's progress: the chunks done, as sorted disjoint ranges, and the
/// sums over them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    board: Board,
    chunks: Chunks,
    done: Vec<Range<u64>>,
    tally: Tally,
}

impl Progress {
    /// A count not yet begun. The board must have at most
    /// `MAX_CODE_POINTS` points.
    pub fn new(board: Board) -> Progress {
        assert!(board.points() <= MAX_CODE_POINTS);
        Progress {
            board,
            chunks: Chunks::of(&board),
            done: Vec::new(),
            tally: Tally::default(),
        }
    }

    pub fn chunks(&self) -> Chunks {
        self.chunks
    }

    /// The sums over the chunks done: the board's counts once `finished`.
    pub fn tally(&self) -> Tally {
        self.tally
    }

    pub fn is_done(&self, chunk: u64) -> bool {
        let at = self.done.partition_point(|range| range.end <= chunk);
        at < self.done.len() && self.done[at].start <= chunk
    }

    pub fn chunks_done(&self) -> u64 {
        self.done.iter().map(|range| range.end - range.start).sum()
    }

    /// The codes of the chunks done.
    pub fn codes_done(&self) -> u64 {
        self.done
            .iter()
            .flat_map(|range| range.clone())
            .map(|chunk| {
                let codes = self.chunks.range(chunk);
                codes.end - codes.start
            })
            .sum()
    }

    pub fn finished(&self) -> bool {
        self.chunks_done() == self.chunks.count
    }

    /// The chunks not yet done, in order.
    pub fn pending(&self) -> Vec<u64> {
        (0..self.chunks.count)
            .filter(|&chunk| !self.is_done(chunk))
            .collect()
    }

    /// Records chunk `chunk`, not yet done, with its sums.
    pub fn add(&mut self, chunk: u64, tally: &Tally) {
        assert!(chunk < self.chunks.count && !self.is_done(chunk));
        let at = self.done.partition_point(|range| range.end < chunk);
        // `at` is the first range that ends at or after `chunk`: the one it
        // extends at its end, else the one it may extend at its start.
        if at < self.done.len() && self.done[at].end == chunk {
            self.done[at].end += 1;
            if at + 1 < self.done.len() && self.done[at + 1].start == chunk + 1 {
                self.done[at].end = self.done[at + 1].end;
                self.done.remove(at + 1);
            }
        } else if at < self.done.len() && self.done[at].start == chunk + 1 {
            self.done[at].start = chunk;
        } else {
            self.done.insert(at, chunk..chunk + 1);
        }
        self.tally.add(tally);
    }

    /// The file's text: a line per field, the last a CRC-32 of the others.
    pub fn to_text(&self) -> String {
        let done: Vec<String> = self
            .done
            .iter()
            .map(|range| {
                if range.end == range.start + 1 {
                    range.start.to_string()
                } else {
                    format!("{}-{}", range.start, range.end - 1)
                }
            })
            .collect();
        let body = format!(
            "{FILE_MAGIC} {FORMAT}\n\
             program {PROGRAM}\n\
             board {}\n\
             codes {}\n\
             chunk size {}\n\
             chunks {}\n\
             done {}\n\
             legal positions {}\n\
             canonical positions {}\n\
             ko states {}\n",
            self.board,
            self.chunks.codes,
            self.chunks.size,
            self.chunks.count,
            done.join(" "),
            self.tally.legal_positions,
            self.tally.positions,
            self.tally.ko_states,
        );
        format!("{body}crc32 {:08x}\n", crc32fast::hash(body.as_bytes()))
    }

    /// Reads a progress file's text for board `board`; an error says what
    /// is wrong with it.
    pub fn from_text(text: &str, board: Board) -> Result<Progress, String> {
        let (body, check) = text
            .trim_end_matches('\n')
            .rsplit_once('\n')
            .ok_or("it is not a count's progress file")?;
        let body = format!("{body}\n");
        let mut lines = body.lines();
        let mut field = |name: &str| -> Result<&str, String> {
            lines
                .next()
                .and_then(|line| line.strip_prefix(name))
                .and_then(|rest| rest.strip_prefix(' '))
                .ok_or_else(|| format!("it is not a count's progress file (no '{name}' line)"))
        };
        let format = field(FILE_MAGIC)?;
        if format != FORMAT.to_string() {
            return Err(format!(
                "it is in format {format} of count's progress files, not {FORMAT}"
            ));
        }
        let program = field("program")?;
        if program != PROGRAM {
            return Err(format!(
                "it was written by {program}, and this is {PROGRAM}: remove it to count afresh"
            ));
        }
        let named = field("board")?;
        if named != board.to_string() {
            return Err(format!(
                "it holds a count of board {named}, not {board}: give another --state file, or remove it"
            ));
        }
        let number = |text: &str, what: &str| -> Result<u64, String> {
            text.parse()
                .map_err(|_| format!("its {what} '{text}' is not a number"))
        };
        let codes = number(field("codes")?, "codes")?;
        let size = number(field("chunk size")?, "chunk size")?;
        let count = number(field("chunks")?, "chunks")?;
        let expected = Chunks::of(&board);
        if (codes, size, count) != (expected.codes, expected.size, expected.count) {
            return Err(format!(
                "its chunks ({count} of {size} codes, {codes} codes) are not those of board {board}"
            ));
        }
        let done_text = field("done")?;
        let legal_positions = number(field("legal positions")?, "legal positions")?;
        let positions = number(field("canonical positions")?, "canonical positions")?;
        let ko_states = number(field("ko states")?, "ko states")?;
        let expected_check = format!("crc32 {:08x}", crc32fast::hash(body.as_bytes()));
        if check != expected_check {
            return Err("its checksum does not match: it was changed or damaged".to_string());
        }
        let mut done: Vec<Range<u64>> = Vec::new();
        for item in done_text.split_whitespace() {
            let (start, last) = match item.split_once('-') {
                Some((start, last)) => (number(start, "chunk")?, number(last, "chunk")?),
                None => {
                    let chunk = number(item, "chunk")?;
                    (chunk, chunk)
                }
            };
            if start > last
                || last >= count
                || done.last().is_some_and(|previous| previous.end >= start)
            {
                return Err(format!("its chunks done ({done_text}) are out of order"));
            }
            done.push(start..last + 1);
        }
        Ok(Progress {
            board,
            chunks: expected,
            done,
            tally: Tally {
                legal_positions,
                positions,
                ko_states,
            },
        })
    }

    /// Reads the progress file at `path` for board `board`: `None` if there
    /// is none.
    pub fn load(path: &Path, board: Board) -> Result<Option<Progress>, String> {
        let text = match crate::common::files::read_bounded(path, MAX_PROGRESS_BYTES) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(format!("{}: {error}", path.display())),
        };
        let text = String::from_utf8(text)
            .map_err(|_| format!("{}: it is not a count's progress file", path.display()))?;
        Progress::from_text(&text, board)
            .map(Some)
            .map_err(|message| format!("{}: {message}", path.display()))
    }

    /// Writes the progress file at `path` atomically: a temporary file in
    /// the same folder, flushed, then renamed over it; a symbolic link
    /// stays a link, its target written (`files::replaced_path`).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let text = self.to_text();
        let save = |target: &Path| {
            crate::common::files::replace_atomically(
                target,
                |out| {
                    use std::io::Write;
                    out.write_all(text.as_bytes()).map(Some)
                },
                &|| false,
            )
        };
        crate::common::files::replaced_path(path)
            .and_then(|target| save(&target))
            .map(|_| ())
            .map_err(|error| {
                format!(
                    "cannot save the count's progress in {}: {error}",
                    path.display()
                )
            })
    }
}

/// Watches a count: progress and cancellation.
pub trait CountObserver: Sync {
    /// Some codes were counted.
    fn advanced(&self, _codes: u64) {}
    /// A chunk was counted and recorded.
    fn chunk_done(&self, _progress: &Progress) {}
    /// Whether the count should stop (the chunks in flight are dropped).
    fn cancelled(&self) -> bool {
        false
    }
}

/// Watches nothing.
#[cfg(test)]
pub struct Unobserved;

#[cfg(test)]
impl CountObserver for Unobserved {}

/// How `run` ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Finished,
    /// The observer asked to stop; the chunks done so far are in the
    /// progress.
    Stopped,
}

/// Counts the chunks `progress` has not done on `threads` threads, each
/// taking the next chunk in order, and records each one as it ends.
/// `save(progress)` is called after a chunk ends, at most once per
/// `save_interval`, and always once at the end if anything is unsaved;
/// its error stops the count and is returned.
pub fn run(
    codec: &Codec,
    progress: &mut Progress,
    threads: usize,
    observer: &dyn CountObserver,
    save_interval: Duration,
    save: &(dyn Fn(&Progress) -> Result<(), String> + Sync),
) -> Result<Outcome, String> {
    assert_eq!(*codec.board(), progress.board);
    let pending = progress.pending();
    let chunks = progress.chunks;
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    struct Shared<'a> {
        progress: &'a mut Progress,
        last_save: Instant,
        unsaved: bool,
        error: Option<String>,
    }
    let shared = Mutex::new(Shared {
        progress,
        last_save: Instant::now(),
        unsaved: false,
        error: None,
    });
    let stop = || observer.cancelled() || failed.load(Ordering::Relaxed);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                if stop() {
                    return;
                }
                let Some(&chunk) = pending.get(next.fetch_add(1, Ordering::Relaxed)) else {
                    return;
                };
                let codes = chunks.range(chunk);
                let Some(tally) = count_codes(codec, codes, &stop, &|n| observer.advanced(n))
                else {
                    return;
                };
                let mut shared = shared.lock().unwrap_or_else(|e| e.into_inner());
                shared.progress.add(chunk, &tally);
                shared.unsaved = true;
                observer.chunk_done(&*shared.progress);
                if shared.last_save.elapsed() >= save_interval {
                    match save(&*shared.progress) {
                        Ok(()) => {
                            shared.last_save = Instant::now();
                            shared.unsaved = false;
                        }
                        Err(message) => {
                            shared.error = Some(message);
                            failed.store(true, Ordering::Relaxed);
                        }
                    }
                }
            });
        }
    });
    let shared = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(message) = shared.error {
        return Err(message);
    }
    if shared.unsaved {
        save(shared.progress)?;
    }
    Ok(if shared.progress.finished() {
        Outcome::Finished
    } else {
        Outcome::Stopped
    })
}

/// The edges of one state as the solver counts them (`table::verify`'s
/// `minimax`): one per distinct canonical child (a placement's, or the
/// pass's), and one for a pass that ends the game. Symmetric moves that
/// reach the same canonical child make one edge.
pub fn state_edges(codec: &Codec, state: &State) -> u64 {
    let board = codec.board();
    let mut ends = 0u64;
    let mut children: Vec<u64> = Vec::with_capacity(board.points() + 1);
    for mv in state.legal_moves(board) {
        match state.play(board, mv).expect("legal moves are legal") {
            Child::End { .. } => ends += 1,
            Child::State(child) => {
                let canonical = codec.canonical(&child.position());
                // Code below 3^32 < 2^51, ko point (or none) in 6 bits, the
                // pass flag in one.
                let ko = child.ko().map_or(0, |k| {
                    codec.canonical_point(&canonical, k).index() as u64 + 1
                });
                children.push(canonical.code << 7 | ko << 1 | child.passed() as u64);
            }
        }
    }
    children.sort_unstable();
    children.dedup();
    ends + children.len() as u64
}

/// The canonical ko points of a canonical position: one ko state each.
pub fn canonical_ko_points(codec: &Codec, position: &Position) -> Vec<Point> {
    let canonical = codec.canonical(position);
    codec
        .canonical_ko_points(&canonical, position.ko_points(codec.board()))
        .iter()
        .collect()
}

/// The edges of all the states of a canonical legal position: its plain
/// state, its state after a pass, and one state per canonical ko point.
pub fn position_edges(codec: &Codec, position: &Position) -> u64 {
    let mut edges = state_edges(codec, &State::from_parts(*position, None, false))
        + state_edges(codec, &State::from_parts(*position, None, true));
    for ko in canonical_ko_points(codec, position) {
        edges += state_edges(codec, &State::from_parts(*position, Some(ko), false));
    }
    edges
}

/// An estimate of a board's edges from sampled positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EdgeEstimate {
    pub samples: u64,
    pub seed: u64,
    /// The mean edges of a sampled position's states, all of them.
    pub mean_per_position: f64,
    /// Canonical positions times the mean.
    pub edges: f64,
    pub standard_error: f64,
    /// The 95% interval: `edges` within 1.96 standard errors.
    pub low: f64,
    pub high: f64,
}

/// The normal distribution's two-sided 95% quantile.
const Z_95: f64 = 1.959_963_984_540_054;

/// Estimates a board's edges from `samples` canonical legal positions
/// drawn uniformly (random codes, kept when canonical and legal), each
/// with the edges of all its states; `positions` is the board's exact
/// count of canonical positions. Sample `i` draws from its own stream of
/// `seed`, so the estimate does not depend on the threads. `None` if
/// `cancelled` stops it, or with fewer than two samples.
pub fn estimate_edges(
    codec: &Codec,
    positions: u64,
    samples: u64,
    seed: u64,
    observer: &dyn CountObserver,
) -> Option<EdgeEstimate> {
    if samples < 2 || positions == 0 {
        return None;
    }
    let board = *codec.board();
    let sums = (0..samples)
        .into_par_iter()
        .map(|i| {
            if observer.cancelled() {
                return None;
            }
            let mut rng = SplitMix::new(seed ^ i.wrapping_mul(0xd134_2543_de82_ef95));
            let edges = loop {
                let code = rng.below(codec.code_count());
                let position = codec.decode(code);
                if codec.is_canonical(code, &position) && position.is_legal(&board) {
                    break position_edges(codec, &position);
                }
            };
            if i % 1024 == 1023 {
                observer.advanced(1024);
            }
            Some((edges as u128, (edges as u128) * (edges as u128)))
        })
        .try_reduce(|| (0, 0), |a, b| Some((a.0 + b.0, a.1 + b.1)))?;
    let n = samples as f64;
    let mean = sums.0 as f64 / n;
    // The sample variance, from exact integer sums.
    let squares = sums.1 as f64 - (sums.0 as f64) * mean;
    let variance = (squares / (n - 1.0)).max(0.0);
    let edges = positions as f64 * mean;
    let standard_error = positions as f64 * (variance / n).sqrt();
    Some(EdgeEstimate {
        samples,
        seed,
        mean_per_position: mean,
        edges,
        standard_error,
        low: edges - Z_95 * standard_error,
        high: edges + Z_95 * standard_error,
    })
}

/// A board's positions counted as Bouzy counts his pieces' patterns
/// (docs/pieces.md): every placement of stones (3^N), with and without the
/// capture rule (with it, only positions in which every string has a
/// liberty, an open side being one), and the classes of each under the
/// board's symmetries, and under the symmetries and the exchange of the
/// colours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Classes {
    /// The board's symmetries.
    pub symmetries: u64,
    /// Every placement of stones: 3^N.
    pub positions: u64,
    /// Its classes under the symmetries.
    pub classes: u64,
    /// Its classes under the symmetries and the exchange of the colours.
    pub classes_inverted: u64,
    /// The positions in which every string has a liberty (Tromp's count).
    pub legal_positions: u64,
    /// Their classes under the symmetries (canonical legal positions).
    pub legal_classes: u64,
    /// Their classes under the symmetries and the exchange of the colours.
    pub legal_classes_inverted: u64,
}

/// The classes of a board's positions (`Classes`), from its count: the
/// legal ones without inversion are the canonical legal positions the
/// count found; the rest follows from Burnside's lemma (the classes of a
/// group are the mean, over its elements, of the positions each one
/// fixes). A symmetry `g` fixes 3^(its cycles) placements; `g` followed
/// by the exchange of colours fixes those that alternate colours along
/// each cycle: every odd cycle empty, each even one empty or alternating
/// from either colour, which are enumerated to keep the legal ones.
pub fn classes(codec: &Codec, tally: &Tally) -> Classes {
    let board = codec.board();
    let group = symmetries(board);
    let order = group.len() as u64;
    let (mut fixed, mut fixed_inverted, mut fixed_inverted_legal) = (0u64, 0u64, 0u64);
    for symmetry in &group {
        let mut seen = PointSet::EMPTY;
        let mut even_cycles = Vec::new();
        let mut cycles = 0u32;
        for start in board.all().iter() {
            if seen.contains(start) {
                continue;
            }
            let mut cycle = Vec::new();
            let mut point = start;
            while !seen.contains(point) {
                seen.insert(point);
                cycle.push(point);
                point = symmetry.apply(point);
            }
            cycles += 1;
            if cycle.len() % 2 == 0 {
                even_cycles.push(cycle);
            }
        }
        fixed += 3u64.pow(cycles);
        fixed_inverted += 3u64.pow(even_cycles.len() as u32);
        for choice in 0..3u64.pow(even_cycles.len() as u32) {
            let (mut black, mut white) = (PointSet::EMPTY, PointSet::EMPTY);
            let mut digits = choice;
            for cycle in &even_cycles {
                let digit = digits % 3;
                digits /= 3;
                if digit == 0 {
                    continue;
                }
                for (step, &point) in cycle.iter().enumerate() {
                    if (step % 2 == 0) == (digit == 1) {
                        black.insert(point);
                    } else {
                        white.insert(point);
                    }
                }
            }
            if Position::new(black, white).is_legal(board) {
                fixed_inverted_legal += 1;
            }
        }
    }
    Classes {
        symmetries: order,
        positions: 3u64.pow(board.points() as u32),
        classes: fixed / order,
        classes_inverted: (fixed + fixed_inverted) / (2 * order),
        legal_positions: tally.legal_positions,
        legal_classes: tally.positions,
        legal_classes_inverted: (order * tally.positions + fixed_inverted_legal) / (2 * order),
    }
}

/// Every code of a board counted on the calling thread, without progress
/// or stops: for tests and small boards.
#[cfg(test)]
pub fn count_board(board: Board) -> Tally {
    let codec = Codec::new(board);
    count_codes(&codec, 0..codec.code_count(), &|| false, &|_| {}).expect("nothing stops the count")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_the_codes_once() {
        for name in ["1x1", "2x5", "1x11", "3x4", "4x4", "4x5", "5x5", "4x8"] {
            let board: Board = name.parse().unwrap();
            let chunks = Chunks::of(&board);
            assert_eq!(chunks.codes, 3u64.pow(board.points() as u32));
            let mut next = 0;
            for chunk in 0..chunks.count {
                let range = chunks.range(chunk);
                assert_eq!(range.start, next, "{name}");
                assert!(range.end > range.start, "{name}");
                next = range.end;
            }
            assert_eq!(next, chunks.codes, "{name}");
            assert!(chunks.count <= 3u64.pow(14), "{name}");
        }
        assert_eq!(Chunks::of(&"5x5".parse().unwrap()).count, 2187);
        assert_eq!(Chunks::of(&"2x5".parse().unwrap()).count, 1);
    }

    #[test]
    fn progress_merges_chunks_in_any_order() {
        let board: Board = "4x4".parse().unwrap();
        let mut progress = Progress::new(board);
        let count = progress.chunks().count;
        let mut rng = SplitMix::new(7);
        let mut order: Vec<u64> = (0..count).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let one = Tally {
            legal_positions: 3,
            positions: 2,
            ko_states: 1,
        };
        for (i, &chunk) in order.iter().enumerate() {
            assert!(!progress.is_done(chunk));
            progress.add(chunk, &one);
            assert!(progress.is_done(chunk));
            assert_eq!(progress.chunks_done(), i as u64 + 1);
            // Sorted, disjoint, not touching.
            for pair in progress.done.windows(2) {
                assert!(pair[0].end < pair[1].start, "{:?}", progress.done);
            }
            // The text reads back to the same progress.
            if i % 50 == 0 {
                let text = progress.to_text();
                assert_eq!(Progress::from_text(&text, board).unwrap(), progress);
            }
        }
        assert!(progress.finished());
        assert_eq!(progress.done, vec![0..count]);
        assert_eq!(progress.codes_done(), 3u64.pow(16));
        assert_eq!(progress.tally().states(), 5 * count);
    }

    #[test]
    fn damaged_or_foreign_files_are_refused() {
        let board: Board = "3x4".parse().unwrap();
        let mut progress = Progress::new(board);
        progress.add(2, &Tally::default());
        progress.add(5, &Tally::default());
        let text = progress.to_text();
        assert!(Progress::from_text(&text, board).is_ok());
        let other = Progress::from_text(&text, "4x3".parse().unwrap()).unwrap_err();
        assert!(other.contains("board 3x4, not 4x3"), "{other}");
        let changed = text.replace("done 2 5", "done 2 6");
        let message = Progress::from_text(&changed, board).unwrap_err();
        assert!(message.contains("checksum"), "{message}");
        let version = text.replace(PROGRAM, "smallgo 0.0.0");
        let message = Progress::from_text(&version, board).unwrap_err();
        assert!(message.contains("written by smallgo 0.0.0"), "{message}");
        for junk in ["", "\n", "hello\nworld\n", &text[..text.len() / 2]] {
            assert!(Progress::from_text(junk, board).is_err(), "{junk:?}");
        }
    }
}
