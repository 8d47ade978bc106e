//! How big a solve will be, before it starts: states and memory, so that a
//! board too large for the machine is refused with figures instead of
//! running out of memory hours later.
//!
//! Legal positions come from Tromp's asymptotic formula
//! `L(m, n) ~ A * B^(m+n) * L^(m*n)` (exact enough above 3x3; it
//! overestimates thin boards), divided by the symmetry group; states are
//! about 2.1 per canonical position (with and without a pending pass, plus
//! ko states), as measured on the boards solved so far.

use crate::board::Board;
use crate::index::MAX_INDEX_POINTS;
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
const INDEX_BYTES_PER_CODE: f64 = 64.0 / 448.0;
/// Index bytes per state for the ko states' directory (0.17 to 0.35
/// measured on 3x6, 2x10 and 4x5).
const INDEX_BYTES_PER_STATE: f64 = 0.4;

/// The expected size of a solve.
#[derive(Clone, Copy, Debug)]
pub struct Estimate {
    pub legal_positions: f64,
    pub canonical_positions: f64,
    pub states: f64,
    /// Bytes for the index and the solve's working memory.
    pub memory_bytes: f64,
}

/// Estimates the size of solving `board`.
pub fn estimate(board: &Board) -> Estimate {
    let (m, n) = (board.rows() as f64, board.columns() as f64);
    let legal = 0.850_639_925_845_7
        * 0.965_535_059_338_37_f64.powf(m + n)
        * 2.975_734_192_043_357_f64.powf(m * n);
    let canonical = legal / symmetries(board).len() as f64;
    let states = canonical * 2.1;
    let codes = 3f64.powi(board.points() as i32);
    let index_bytes = codes * INDEX_BYTES_PER_CODE + states * INDEX_BYTES_PER_STATE;
    Estimate {
        legal_positions: legal,
        canonical_positions: canonical,
        states,
        memory_bytes: index_bytes + states * STATE_BYTES + FIXED_BYTES,
    }
}

/// Refuses a board the solver cannot number or this machine cannot hold,
/// with the figures.
pub fn check_fits(board: &Board) -> Result<(), String> {
    check_fits_within(board, available_memory())
}

/// As `check_fits`, with `available` bytes of memory (unknown: `None`).
fn check_fits_within(board: &Board, available: Option<u64>) -> Result<(), String> {
    let estimate = estimate(board);
    let figures = format!(
        "about {} legal positions, {} states after symmetry, needing about {} of memory",
        human(estimate.legal_positions),
        human(estimate.states),
        human_bytes(estimate.memory_bytes),
    );
    if !within_index_limit(board) {
        return Err(format!(
            "board {board} is too large: {figures}; smallgo numbers boards of at most {MAX_INDEX_POINTS} points"
        ));
    }
    match available {
        Some(available) if estimate.memory_bytes > available as f64 => Err(format!(
            "board {board} is too large for this machine: {figures}, and {} is available",
            human_bytes(available as f64)
        )),
        _ => Ok(()),
    }
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

    /// Boards past 2^32 states are numbered; what refuses them is memory.
    #[test]
    fn boards_of_more_than_2_to_the_32_states_are_judged_by_memory() {
        let board: Board = "2x11".parse().unwrap();
        assert!(estimate(&board).states > u32::MAX as f64);
        let gib = 1u64 << 30;
        let message = check_fits_within(&board, Some(8 * gib)).unwrap_err();
        assert!(message.contains("too large for this machine"), "{message}");
        assert!(message.contains("8.0 GiB is available"), "{message}");
        // It fits this project's machine of 24 GiB.
        assert_eq!(check_fits_within(&board, Some(22 * gib)), Ok(()));
        assert_eq!(
            check_fits_within(&"3x3".parse().unwrap(), Some(gib)),
            Ok(())
        );
    }

    #[test]
    fn estimates_are_close_on_square_boards() {
        let board: Board = "4x4".parse().unwrap();
        let e = estimate(&board);
        // 24,318,165 legal positions (SPEC section 2).
        assert!((e.legal_positions / 24_318_165.0 - 1.0).abs() < 0.01);
        let board: Board = "5x5".parse().unwrap();
        assert!((estimate(&board).legal_positions / 414_295_148_741.0 - 1.0).abs() < 0.01);
    }
}
