//! How big a solve will be, before it starts: states and memory, so that a
//! board too large for the machine is refused with figures instead of
//! running out of memory hours later. The room is the least of the memory
//! available, `--memory`, and what this process's limits (`ulimit -v`,
//! `ulimit -d`) leave once the program and its threads have their part.
//!
//! Legal positions come from Tromp's asymptotic formula
//! `L(m, n) ~ A * B^(m+n) * L^(m*n)` (exact enough above 3x3; it
//! overestimates thin boards), divided by the symmetry group; states are
//! about 2.1 per canonical position (with and without a pending pass, plus
//! ko states), as measured on the boards solved so far.

use std::path::Path;

use crate::index::MAX_INDEX_POINTS;
use crate::rules::board::Board;
use crate::symmetry::symmetries;

/// Bytes of working memory per state: the tally, and the partitions of
/// values the table writer holds (four of about a 256th of the states, at
/// 4 bytes a state).
pub const STATE_BYTES: f64 = 1.07;
/// Bytes beyond those: the spools' buffers, the update batches, and a
/// partition on boards of under 4 M states.
const FIXED_BYTES: f64 = 96.0 * (1u64 << 20) as f64;
/// Index bytes per ternary code: a 64-byte line of presence bits and rank
/// covers 448 codes.
pub const INDEX_BYTES_PER_CODE: f64 = 64.0 / 448.0;
/// Index bytes per state for the ko states' directory (0.17 to 0.35
/// measured on 3x6, 2x10 and 4x5).
pub const INDEX_BYTES_PER_STATE: f64 = 0.4;

/// The expected size of a solve.
#[derive(Clone, Copy, Debug)]
pub struct Estimate {
    pub legal_positions: f64,
    pub states: f64,
    /// Bytes for the index and the solve's working memory.
    pub memory_bytes: f64,
}

/// Estimates the size of solving `board`.
pub fn estimate(board: &Board) -> Estimate {
    // A shape's count follows its points, not its grid's cells: the
    // rectangle's fit with its area for `m * n` and the sides of a square
    // of that area for `m + n`.
    let (area, sides) = match board.shape_geometry() {
        Some(_) => {
            let points = board.points() as f64;
            (points, 2.0 * points.sqrt())
        }
        None => {
            let (m, n) = (board.rows() as f64, board.columns() as f64);
            (m * n, m + n)
        }
    };
    let legal = 0.850_639_925_845_7
        * 0.965_535_059_338_37_f64.powf(sides)
        * 2.975_734_192_043_357_f64.powf(area);
    let canonical = legal / symmetries(board).len() as f64;
    let states = canonical * 2.1;
    let index_bytes = index_bytes(board, states);
    Estimate {
        legal_positions: legal,
        states,
        memory_bytes: index_bytes + states * STATE_BYTES + FIXED_BYTES,
    }
}

/// Bytes of disk per state a build needs at its peak: the working folder's
/// spools (seeds and values, 3.5), its checkpoint and the checkpoint's
/// next copy (1 each), and the table (0.8).
pub const DISK_BYTES: f64 = 6.5;
/// Bytes of memory per state for each half of a value verify holds: a
/// byte, and room for the rare halves kept beside it (6 bytes each; 1% of
/// 2x11's states, under 0.4% of smaller boards').
pub const VERIFY_BYTES_PER_HALF: f64 = 1.1;
/// Bytes beyond those: the decoded blocks in flight and the code map.
const VERIFY_FIXED_BYTES: f64 = 64.0 * (1u64 << 20) as f64;

/// What a build may use: memory (the machine's available memory, or less if
/// capped) and disk (free in the tables folder); `None` where unknown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Room {
    pub memory: Option<u64>,
    /// The cap given with `--memory`, if any.
    pub cap: Option<u64>,
    /// The memory this process's limits leave (`limit_room`), if it has any.
    pub limit: Option<u64>,
    pub disk: Option<u64>,
}

impl Room {
    /// The room for a build writing into `folder`, its memory capped at
    /// `cap` bytes.
    pub fn for_build(folder: &Path, cap: Option<u64>) -> Room {
        let limit = limit_room();
        Room {
            memory: usable_memory(cap, limit),
            cap,
            limit,
            disk: free_disk(folder),
        }
    }

    /// What bounds the memory, for messages.
    fn memory_words(&self) -> String {
        match (self.memory, self.cap, self.limit) {
            (Some(m), _, Some(limit)) if m == limit => limit_words(m),
            (Some(m), Some(cap), _) if m == cap => {
                format!("{} of memory may be used (--memory)", human_bytes(m as f64))
            }
            (Some(m), _, _) => format!("{} of memory is available", human_bytes(m as f64)),
            (None, _, _) => "the memory available is unknown".to_string(),
        }
    }
}

/// The least of the memory available, the cap and the room the process's
/// limits leave; `None` if none is known.
fn usable_memory(cap: Option<u64>, limit: Option<u64>) -> Option<u64> {
    [available_memory(), cap, limit].into_iter().flatten().min()
}

/// How `bytes` left under the process's limits is told.
fn limit_words(bytes: u64) -> String {
    format!(
        "{} of memory is left under this process's limits (ulimit -v, ulimit -d: RLIMIT_AS, RLIMIT_DATA) once the program and its threads have their part",
        human_bytes(bytes as f64)
    )
}

/// Address space each thread of the solve may take besides the data of the
/// plan: its stack (2 MiB) and the malloc arena glibc reserves for a thread
/// (64 MiB on 64-bit machines), which count against `ulimit -v` although
/// little of them is used.
const THREAD_ADDRESS_SPACE: u64 = 66 << 20;

/// The memory left for a solve or a verification under this process's
/// limits on its address space (`RLIMIT_AS`, `ulimit -v`) and its data
/// (`RLIMIT_DATA`, `ulimit -d`): each limit less what the process already
/// uses of it and the room its threads take (`THREAD_ADDRESS_SPACE` for
/// each core's thread and the main one); `None` without limits.
pub fn limit_room() -> Option<u64> {
    let limit = |resource| {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: `getrlimit` fills the struct it is given.
        let read = unsafe { libc::getrlimit(resource, &mut limit) } == 0;
        (read && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur)
    };
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let used = |field: &str| -> u64 {
        status
            .lines()
            .find_map(|line| line.strip_prefix(field))
            .and_then(|rest| rest.split_whitespace().next()?.parse::<u64>().ok())
            .map_or(0, |kib| kib * 1024)
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64 + 1;
    let overhead = threads * THREAD_ADDRESS_SPACE;
    let address_space =
        limit(libc::RLIMIT_AS).map(|l| l.saturating_sub(used("VmSize:") + overhead));
    let data = limit(libc::RLIMIT_DATA).map(|l| l.saturating_sub(used("VmData:") + overhead));
    address_space.into_iter().chain(data).min()
}

/// Refuses a board the solver cannot number, or whose build does not fit
/// `room` in memory or on the disk of `folder`, with the figures.
pub fn check_build(board: &Board, folder: &Path, room: Room) -> Result<(), String> {
    let estimate = estimate(board);
    let disk = estimate.states * DISK_BYTES;
    let figures = format!(
        "about {} legal positions, {} states after symmetry, needing about {} of memory and {} of disk",
        human(estimate.legal_positions),
        human(estimate.states),
        human_bytes(estimate.memory_bytes),
        human_bytes(disk),
    );
    if !within_index_limit(board) {
        return Err(format!(
            "board {board} is too large: {figures}; smallgo numbers boards of at most {MAX_INDEX_POINTS} points"
        ));
    }
    let memory_short = room
        .memory
        .is_some_and(|m| estimate.memory_bytes > m as f64);
    let disk_short = room.disk.is_some_and(|d| disk > d as f64);
    if !memory_short && !disk_short {
        return Ok(());
    }
    let memory = room.memory_words();
    let free = room
        .disk
        .map_or("an unknown amount".to_string(), |d| human_bytes(d as f64));
    Err(format!(
        "board {board} is too large for this machine: {figures}; {memory}, and {free} is free on the disk of {}",
        folder.display()
    ))
}

/// How many of the two halves of every value (A with dA, B with dB)
/// verify can hold at once for a table of `board` with `states` states,
/// within `cap` bytes or the memory available: 2 (one pass over the table),
/// 1 (two passes), or an error with the figures.
pub fn verify_halves(board: &Board, states: u64, cap: Option<u64>) -> Result<u32, String> {
    let limit = limit_room();
    let Some(memory) = usable_memory(cap, limit) else {
        return Ok(2);
    };
    if let Some(halves) = (1..=2)
        .rev()
        .find(|&h| verify_memory(board, states, h) <= memory as f64)
    {
        return Ok(halves);
    }
    let allowed = if limit == Some(memory) {
        limit_words(memory)
    } else if cap == Some(memory) {
        format!("{} may be used (--memory)", human_bytes(memory as f64))
    } else {
        format!("{} is available", human_bytes(memory as f64))
    };
    Err(format!(
        "verifying {board} needs about {} of memory ({} states), and {allowed}",
        human_bytes(verify_memory(board, states, 1)),
        human(states as f64),
    ))
}

/// The memory verify needs holding `halves` halves of every value.
pub fn verify_memory(board: &Board, states: u64, halves: u32) -> f64 {
    let states = states as f64;
    index_bytes(board, states) + states * halves as f64 * VERIFY_BYTES_PER_HALF + VERIFY_FIXED_BYTES
}

/// The index's bytes for `board` with `states` states.
fn index_bytes(board: &Board, states: f64) -> f64 {
    3f64.powi(board.points() as i32) * INDEX_BYTES_PER_CODE + states * INDEX_BYTES_PER_STATE
}

/// Bytes free for this user on the file system of `folder` (or of its
/// nearest existing ancestor), if known.
pub fn free_disk(folder: &Path) -> Option<u64> {
    let existing = folder.ancestors().find(|p| p.exists())?;
    let path = std::ffi::CString::new(existing.as_os_str().as_encoded_bytes()).ok()?;
    let mut stats = std::mem::MaybeUninit::<libc::statvfs>::uninit();
    // SAFETY: `path` is a NUL-terminated string and `stats` a buffer of the
    // size `statvfs` fills; it is read only if the call succeeds.
    let stats = unsafe {
        if libc::statvfs(path.as_ptr(), stats.as_mut_ptr()) != 0 {
            return None;
        }
        stats.assume_init()
    };
    Some(stats.f_bavail as u64 * stats.f_frsize as u64)
}

/// Parses a size such as `8G`, `512M`, `1.5G` or `1000000` (bytes); the
/// units are binary (K, M, G, T, with an optional `i` and `B`).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let trimmed = text.trim();
    let upper = trimmed.to_ascii_uppercase();
    let number_end = upper
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(upper.len());
    let (number, unit) = upper.split_at(number_end);
    let scale: u64 = match unit.trim_end_matches('B').trim_end_matches('I') {
        "" => 1,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        _ => return Err(format!("{text:?} is not a size (for example 8G or 512M)")),
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a size (for example 8G or 512M)"))?;
    let bytes = value * scale as f64;
    if !bytes.is_finite() || bytes < 1.0 || bytes > u64::MAX as f64 {
        return Err(format!("{text:?} is not a size (for example 8G or 512M)"));
    }
    Ok(bytes as u64)
}

/// Whether the solver can number this board at all.
pub fn within_index_limit(board: &Board) -> bool {
    board.points() <= MAX_INDEX_POINTS
}

/// Bytes of memory this machine has available now (Linux), if known.
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The peak resident memory of this process so far (Linux), in bytes.
pub fn peak_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = text.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Resets the peak resident memory figure to the current one (Linux), so
/// that several measurements can run in one process.
pub fn reset_peak_memory() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// CPU seconds this process has used (user and system, Linux); 0 if
/// unknown.
pub fn cpu_seconds() -> f64 {
    let Ok(text) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // The command name (field 2) may hold spaces; fields after it are plain.
    let Some(after_name) = text.rsplit_once(')').map(|(_, rest)| rest) else {
        return 0.0;
    };
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // utime and stime are fields 14 and 15, that is 11 and 12 after the name.
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // Linux reports these in clock ticks of 1/100 s.
    (ticks(11) + ticks(12)) / 100.0
}

/// `1234567` as `1.2 M`, for messages.
pub fn human(count: f64) -> String {
    let units = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")];
    for (scale, unit) in units {
        if count >= scale {
            return format!("{:.1} {unit}", count / scale);
        }
    }
    format!("{count:.0}")
}

/// Bytes as `1.5 GiB`.
pub fn human_bytes(bytes: f64) -> String {
    let units = [
        (1u64 << 40, "TiB"),
        (1 << 30, "GiB"),
        (1 << 20, "MiB"),
        (1 << 10, "KiB"),
    ];
    for (scale, unit) in units {
        if bytes >= scale as f64 {
            return format!("{:.1} {unit}", bytes / scale as f64);
        }
    }
    format!("{bytes:.0} B")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cap of exactly the model's memory for one half of every value
    /// gives one half, for both halves two, and one byte less a refusal
    /// with the figures (the binary's `verify --memory` thresholds, which
    /// tests/cli.rs finds by bisection, are these).
    #[test]
    fn verify_holds_as_many_halves_as_the_cap_allows() {
        let board: Board = "3x4".parse().unwrap();
        let states = 200_000;
        let need = |halves| verify_memory(&board, states, halves).ceil() as u64;
        assert!(need(1) < need(2));
        assert_eq!(verify_halves(&board, states, Some(need(1))), Ok(1));
        assert_eq!(verify_halves(&board, states, Some(need(2) - 1)), Ok(1));
        assert_eq!(verify_halves(&board, states, Some(need(2))), Ok(2));
        let refused = verify_halves(&board, states, Some(need(1) - 1)).unwrap_err();
        assert!(refused.contains("verifying 3x4 needs about"), "{refused}");
        assert!(refused.contains("may be used (--memory)"), "{refused}");
    }

    /// Boards past 2^32 states are numbered; what refuses them is memory
    /// or disk, named with the figures.
    #[test]
    fn builds_are_judged_by_memory_and_disk() {
        let board: Board = "2x11".parse().unwrap();
        assert!(estimate(&board).states > u32::MAX as f64);
        let gib = 1u64 << 30;
        let folder = Path::new("/some/tables");
        let room = |memory, cap, disk| Room {
            memory: Some(memory),
            cap,
            limit: None,
            disk: Some(disk),
        };
        // This project's machine: 24 GiB, 80 GB of disk.
        assert_eq!(
            check_build(&board, folder, room(22 * gib, None, 75 * gib)),
            Ok(())
        );
        let message = check_build(&board, folder, room(8 * gib, None, 75 * gib)).unwrap_err();
        assert!(message.contains("too large for this machine"), "{message}");
        assert!(
            message.contains("8.0 GiB of memory is available"),
            "{message}"
        );
        assert!(
            message.contains("75.0 GiB is free on the disk of /some/tables"),
            "{message}"
        );
        let message =
            check_build(&board, folder, room(8 * gib, Some(8 * gib), 75 * gib)).unwrap_err();
        assert!(
            message.contains("8.0 GiB of memory may be used (--memory)"),
            "{message}"
        );
        let message = check_build(&board, folder, room(22 * gib, None, 10 * gib)).unwrap_err();
        assert!(message.contains("10.0 GiB is free"), "{message}");
        assert!(message.contains("of disk"), "{message}");
        let small: Board = "3x3".parse().unwrap();
        assert_eq!(check_build(&small, folder, room(gib, None, gib)), Ok(()));
    }

    #[test]
    fn sizes_parse_in_binary_units() {
        assert_eq!(parse_size("8G"), Ok(8 << 30));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size("1000"), Ok(1000));
        for bad in ["", "G", "8X", "-1G", "0", "1.2.3G"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn estimates_are_close_on_square_boards() {
        let board: Board = "4x4".parse().unwrap();
        let e = estimate(&board);
        // 24,318,165 legal positions (Tromp's count, docs/count.md).
        assert!((e.legal_positions / 24_318_165.0 - 1.0).abs() < 0.01);
        let board: Board = "5x5".parse().unwrap();
        assert!((estimate(&board).legal_positions / 414_295_148_741.0 - 1.0).abs() < 0.01);
    }
}
