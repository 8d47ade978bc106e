//! How big a solve will be, before it starts: states and memory, so that a
//! board too large for the machine is refused with figures instead of
//! running out of memory hours later. The room is the least of the memory
//! available, `--memory`, and what this process's limits (`ulimit -v`,
//! `ulimit -d`) leave once the program and its threads have their part;
//! those facts come from `host`, and the figures in messages from `units`.
//!
//! Legal positions come from Tromp's asymptotic formula
//! `L(m, n) ~ A * B^(m+n) * L^(m*n)` (exact enough above 3x3; it
//! overestimates thin boards), divided by the symmetry group; states are
//! about 2.1 per canonical position (with and without a pending pass, plus
//! ko states), as measured on the boards solved so far.

use std::path::Path;

use crate::common::host::{available_memory, free_disk, limit_room};
use crate::common::units::{human, human_bytes};
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
/// With both halves coded in pairs, a byte a state: the bytes of a state
/// whose pair is kept beside (a byte for each half), of one whose pair is
/// kept whole (its number's low 16 bits and the pair), and those of every
/// state for finding the first (2 for every 256 states).
pub const VERIFY_PAIR_BESIDE_BYTES: f64 = 2.0;
pub const VERIFY_PAIR_RARE_BYTES: f64 = 10.0;
const VERIFY_PAIR_STRETCH_BYTES: f64 = 2.0 / 256.0;
/// The shares of the states whose pairs verify expects to keep beside
/// and whole, before it has sampled the table: 3x6 keeps 2.27% beside and
/// 0.15% whole.
pub const VERIFY_PAIR_SHARES: (f64, f64) = (0.03, 0.002);

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

/// How verify holds the values of a table as it checks them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerifyHold {
    /// Both halves of every value, a byte each: one pass over the table.
    Both,
    /// Both halves coded in pairs, a byte a state: one pass, if the
    /// table's sample keeps few enough pairs beside (`verify_pairs_memory`),
    /// else two passes of one half if those fit.
    Pairs,
    /// One half of every value: two passes.
    OneHalf,
}

/// How verify can hold the values of a table of `board` with `states`
/// states within `memory` bytes, the most it can hold first: `None` if
/// not even one half of every value fits.
pub fn verify_hold(board: &Board, states: u64, memory: u64) -> Option<VerifyHold> {
    let memory = memory as f64;
    let (beside, rare) = VERIFY_PAIR_SHARES;
    if verify_memory(board, states, 2) <= memory {
        Some(VerifyHold::Both)
    } else if verify_pairs_memory(board, states, beside, rare) <= memory {
        Some(VerifyHold::Pairs)
    } else if verify_memory(board, states, 1) <= memory {
        Some(VerifyHold::OneHalf)
    } else {
        None
    }
}

/// How many of the two halves of every value (A with dA, B with dB)
/// verify can hold at once for a table of `board` with `states` states,
/// within `cap` bytes or the memory available: 2 (one pass over the table),
/// 1 (both coded in pairs in one pass, or one half in each of two passes:
/// `verify_hold`), or an error with the figures.
pub fn verify_halves(board: &Board, states: u64, cap: Option<u64>) -> Result<u32, String> {
    let limit = limit_room();
    let Some(memory) = usable_memory(cap, limit) else {
        return Ok(2);
    };
    if let Some(hold) = verify_hold(board, states, memory) {
        return Ok(if hold == VerifyHold::Both { 2 } else { 1 });
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
        human_bytes(verify_least_memory(board, states)),
        human(states as f64),
    ))
}

/// The memory verify may use: the least of the memory available, `cap`
/// and the room this process's limits leave; `None` if none is known.
pub fn room_for(cap: Option<u64>) -> Option<u64> {
    usable_memory(cap, limit_room())
}

/// Whether one half of every value fits within `cap` bytes or the memory
/// available (two passes, when both halves coded in pairs keep too many
/// beside): an error with the figures if not.
pub fn verify_one_half_fits(board: &Board, states: u64, cap: Option<u64>) -> Result<(), String> {
    let need = verify_memory(board, states, 1);
    match room_for(cap) {
        Some(room) if need > room as f64 => Err(format!(
            "verifying {board} keeps too many pairs of halves beside to hold both in {}, and two passes need about {}",
            human_bytes(room as f64),
            human_bytes(need)
        )),
        _ => Ok(()),
    }
}

/// The least memory verify needs: one half of every value held, or both
/// coded in pairs, whichever is less.
fn verify_least_memory(board: &Board, states: u64) -> f64 {
    let (beside, rare) = VERIFY_PAIR_SHARES;
    verify_memory(board, states, 1).min(verify_pairs_memory(board, states, beside, rare))
}

/// Whether both halves of every value, coded in pairs with `beside` and
/// `rare` of the states kept beside (the shares a sample of the table
/// found, with a margin), fit within `cap` bytes or the memory available.
pub fn verify_pairs_fit(
    board: &Board,
    states: u64,
    cap: Option<u64>,
    beside: f64,
    rare: f64,
) -> bool {
    room_for(cap)
        .is_none_or(|memory| verify_pairs_memory(board, states, beside, rare) <= memory as f64)
}

/// The memory verify needs holding `halves` halves of every value.
pub fn verify_memory(board: &Board, states: u64, halves: u32) -> f64 {
    let states = states as f64;
    verify_index_bytes(board, states)
        + states * halves as f64 * VERIFY_BYTES_PER_HALF
        + VERIFY_FIXED_BYTES
}

/// The memory verify needs holding both halves of every value coded in
/// pairs, a byte a state, with `beside` of the states kept beside and
/// `rare` kept whole (`VERIFY_PAIR_BESIDE_BYTES`), and
/// each context's two lists of pairs (at most 255 each, 8 bytes a pair).
pub fn verify_pairs_memory(board: &Board, states: u64, beside: f64, rare: f64) -> f64 {
    let points = board.points() as f64;
    let contexts = 3.0 * (points + 1.0) * (points + 1.0);
    let states = states as f64;
    let per_state = 1.0
        + VERIFY_PAIR_STRETCH_BYTES
        + beside * VERIFY_PAIR_BESIDE_BYTES
        + rare * VERIFY_PAIR_RARE_BYTES;
    verify_index_bytes(board, states)
        + states * per_state
        + contexts * 2.0 * 255.0 * 8.0
        + VERIFY_FIXED_BYTES
}

/// The index verify builds for a table of `board` with `states` states:
/// a 64-byte line per 448 codes, and per position 8 bytes per 128 for
/// the lines' samples and 32 bytes per 64 for the ko directory, with at
/// most half as many positions as states.
fn verify_index_bytes(board: &Board, states: f64) -> f64 {
    let lines = (3f64.powi(board.points() as i32) / 448.0).ceil() + 1.0;
    let positions = states / 2.0;
    lines * 64.0 + positions * (8.0 / 128.0 + 32.0 / 64.0) + 64.0
}

/// The index's bytes for `board` with `states` states.
fn index_bytes(board: &Board, states: f64) -> f64 {
    3f64.powi(board.points() as i32) * INDEX_BYTES_PER_CODE + states * INDEX_BYTES_PER_STATE
}

/// Whether the solver can number this board at all.
pub fn within_index_limit(board: &Board) -> bool {
    board.points() <= MAX_INDEX_POINTS
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
    fn estimates_are_close_on_square_boards() {
        let board: Board = "4x4".parse().unwrap();
        let e = estimate(&board);
        // 24,318,165 legal positions (Tromp's count, docs/count.md).
        assert!((e.legal_positions / 24_318_165.0 - 1.0).abs() < 0.01);
        let board: Board = "5x5".parse().unwrap();
        assert!((estimate(&board).legal_positions / 414_295_148_741.0 - 1.0).abs() < 0.01);
    }
}
