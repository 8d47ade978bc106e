//! `smallgo verify`: checks a table without the builder.
//!
//! It shares the decoder (`format`) with the prober and the rules and state
//! numbering (`position`, `state`, `index`) with everything else, but nothing
//! of the solver: no un-moves, no counting, no levels. It checks the header
//! and checksum, that the file numbers exactly the canonical legal states a
//! plain enumeration finds, and then that every state's stored (A, B, dA, dB)
//! follows from its children's stored values by one step of minimax:
//!
//! - A(s) = the best of: B(c) over children c, and the margin of a second
//!   pass; dA(s) = 1 + the fewest plies among the choices that reach A(s).
//! - B(s) = the least of: A(c) over children c (none if any child has none),
//!   and minus the margin of a second pass; dB(s) = 1 + the most plies among
//!   the choices that reach B(s).
//!
//! Depths strictly fall along the choices that justify a value, so a table
//! that passes cannot hold a value supported only by a cycle.

use std::time::Instant;

use rayon::prelude::*;

use super::format::{Fault, TableBytes};
use super::{Origin, TableError};
use crate::index::{StateIndex, StateNumber, SLOT_FIRST_KO};
use crate::state::{Child, State};
use crate::value::Value;

/// What a successful verification checked.
#[derive(Clone, Copy, Debug)]
pub struct VerifyReport {
    pub states: u64,
    pub edges: u64,
    pub seconds: f64,
}

/// A state whose stored value does not follow from its children.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub number: StateNumber,
    pub state: State,
    pub stored: Value,
    pub expected: Value,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "state {} ({:?}) stores {} but its children give {}",
            self.number, self.state, self.stored, self.expected
        )
    }
}

/// The value a state must have, given its children's values: one step of
/// minimax with depths.
pub fn expected_value(
    index: &StateIndex,
    state: &State,
    values: &(dyn Fn(StateNumber) -> Value + Sync),
) -> (Value, u64) {
    let board = index.board();
    // (margin, plies) choices for the mover and the opponent.
    let mut mover: Option<(i8, u16)> = None;
    let mut opponent: Option<(i8, u16)> = None;
    let mut opponent_blocked = false;
    let mut edges = 0u64;
    let mut consider = |mover_choice: Option<(i8, u16)>, opponent_choice: Option<(i8, u16)>| {
        edges += 1;
        if let Some((margin, plies)) = mover_choice {
            mover = Some(match mover {
                Some((best, fewest)) if best > margin || (best == margin && fewest <= plies) => {
                    (best, fewest)
                }
                _ => (margin, plies),
            });
        }
        match opponent_choice {
            None => opponent_blocked = true,
            Some((margin, plies)) => {
                opponent = Some(match opponent {
                    Some((least, most)) if least < margin || (least == margin && most >= plies) => {
                        (least, most)
                    }
                    _ => (margin, plies),
                });
            }
        }
    };
    // Symmetric moves may reach one canonical child: count it once.
    let mut children: Vec<StateNumber> = Vec::new();
    for mv in state.legal_moves(board) {
        match state.play(board, mv).expect("legal moves are legal") {
            Child::End { margin } => consider(Some((margin as i8, 1)), Some((-margin as i8, 1))),
            Child::State(child) => {
                children.push(
                    index
                        .rank(&child)
                        .expect("children of legal states are legal"),
                );
            }
        }
    }
    children.sort_unstable();
    children.dedup();
    for number in children {
        let value = values(number);
        consider(
            value
                .opponent_margin
                .map(|b| (b, value.opponent_depth.saturating_add(1))),
            value
                .mover_margin
                .map(|a| (a, value.mover_depth.saturating_add(1))),
        );
    }
    if opponent_blocked {
        opponent = None;
    }
    let value = Value {
        mover_margin: mover.map(|(m, _)| m),
        opponent_margin: opponent.map(|(m, _)| m),
        mover_depth: mover.map_or(0, |(_, d)| d),
        opponent_depth: opponent.map_or(0, |(_, d)| d),
    };
    (value, edges)
}

/// Checks every state's value against its children's. Returns the number of
/// edges checked, or the first mismatch in state order.
pub fn check_values(
    index: &StateIndex,
    values: &(dyn Fn(StateNumber) -> Value + Sync),
) -> Result<u64, Mismatch> {
    let positions = index.counts().positions;
    let chunk = 4096u64;
    let results: Vec<Result<u64, Mismatch>> = (0..positions.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let first = c * chunk;
            let last = (first + chunk).min(positions);
            let mut edges = 0;
            for entry in index.positions(first).take((last - first) as usize) {
                for slot in 0..entry.slots() {
                    let state = index.state_at(entry.code, slot);
                    let (expected, checked) = expected_value(index, &state, values);
                    edges += checked;
                    let number = entry.state(slot);
                    let stored = values(number);
                    if stored != expected {
                        return Err(Mismatch {
                            number,
                            state,
                            stored,
                            expected,
                        });
                    }
                }
            }
            Ok(edges)
        })
        .collect();
    let mut edges = 0;
    for result in results {
        edges += result?;
    }
    Ok(edges)
}

/// Every value of a table in 32 bits each, so that the largest boards fit:
/// margin codes of 6 bits (0 for none, else margin + 32), dA in 9 bits and
/// dB in 11, the most smallgo ever writes.
pub struct PackedValues(Vec<u32>);

const PACKED_MAX_MOVER_DEPTH: u16 = (1 << 9) - 1;
const PACKED_MAX_OPPONENT_DEPTH: u16 = (1 << 11) - 1;

impl PackedValues {
    fn pack(value: &Value) -> Option<u32> {
        if value.mover_depth > PACKED_MAX_MOVER_DEPTH
            || value.opponent_depth > PACKED_MAX_OPPONENT_DEPTH
        {
            return None;
        }
        let code = |margin: Option<i8>| margin.map_or(0, |m| (m as i32 + 32) as u32);
        Some(
            code(value.mover_margin)
                | code(value.opponent_margin) << 6
                | (value.mover_depth as u32) << 12
                | (value.opponent_depth as u32) << 21,
        )
    }

    /// The value of state `number`.
    pub fn get(&self, number: StateNumber) -> Value {
        let packed = self.0[number as usize];
        let margin = |code: u32| (code != 0).then(|| (code as i32 - 32) as i8);
        Value {
            mover_margin: margin(packed & 0x3f),
            opponent_margin: margin(packed >> 6 & 0x3f),
            mover_depth: (packed >> 12 & 0x1ff) as u16,
            opponent_depth: (packed >> 21) as u16,
        }
    }
}

/// Decodes every value of a table, in state order, checking that the file
/// numbers the same states as `index`.
pub fn decode_all(table: &TableBytes<'_>, index: &StateIndex) -> Result<PackedValues, Fault> {
    let header = table.header();
    let counts = index.counts();
    if (header.positions, header.ko_states, header.states)
        != (counts.positions, counts.ko_states, counts.states)
    {
        return Err(Fault::Inconsistent(format!(
            "the header counts {} positions, {} ko states, {} states; the board has {}, {}, {}",
            header.positions,
            header.ko_states,
            header.states,
            counts.positions,
            counts.ko_states,
            counts.states
        )));
    }
    let directory = table.directory()?;
    if !directory
        .iter()
        .copied()
        .eq(super::format::directory_counts(index.presence_words()))
    {
        return Err(Fault::Inconsistent(
            "the directory does not match the board's positions".into(),
        ));
    }
    let mut values = vec![0u32; counts.states as usize];
    // Blocks decode in parallel, a batch at a time, so that only a batch of
    // decoded blocks is held besides the values.
    let blocks = header.blocks;
    for batch in (0..blocks).step_by(64) {
        let decoded: Vec<Result<Vec<(StateNumber, u32)>, Fault>> = (batch
            ..(batch + 64).min(blocks))
            .into_par_iter()
            .map(|b| {
                let block = table.block(b)?;
                let (first, last) = table.block_positions(b);
                let mut numbered = Vec::with_capacity(block.values.len());
                for (i, entry) in index
                    .positions(first)
                    .take((last - first) as usize)
                    .enumerate()
                {
                    let stored = block.starts[i + 1] - block.starts[i];
                    if stored != entry.slots() {
                        return Err(Fault::Inconsistent(format!(
                            "position {} has {} ko states in the file, {} on the board",
                            entry.number,
                            stored as i64 - SLOT_FIRST_KO as i64,
                            entry.ko_states
                        )));
                    }
                    for slot in 0..entry.slots() {
                        let value = block.value(i, slot).expect("slot counted above");
                        let packed = PackedValues::pack(&value).ok_or_else(|| {
                            Fault::Inconsistent(format!(
                                "position {} slot {slot}: a depth beyond what smallgo writes",
                                entry.number
                            ))
                        })?;
                        numbered.push((entry.state(slot), packed));
                    }
                }
                Ok(numbered)
            })
            .collect();
        for block in decoded {
            for (number, value) in block? {
                values[number as usize] = value;
            }
        }
    }
    Ok(PackedValues(values))
}

/// Verifies table bytes completely.
pub fn verify_bytes(origin: &Origin, bytes: &[u8]) -> Result<VerifyReport, TableError> {
    let started = Instant::now();
    let corrupt = |fault: Fault| TableError::Corrupt {
        origin: origin.clone(),
        fault,
    };
    let table = TableBytes::new(bytes).map_err(corrupt)?;
    let board = table.header().board;
    if let Err(reason) = crate::plan::check_verify_fits(&board) {
        return Err(TableError::CannotVerify {
            origin: origin.clone(),
            reason,
        });
    }
    let Some(index) = StateIndex::build(board) else {
        return Err(TableError::CannotVerify {
            origin: origin.clone(),
            reason: format!("board {board} is over the index's limits"),
        });
    };
    let values = decode_all(&table, &index).map_err(corrupt)?;
    let edges = check_values(&index, &|number| values.get(number))
        .map_err(|mismatch| corrupt(Fault::Inconsistent(mismatch.to_string())))?;
    if edges != table.header().edges {
        return Err(corrupt(Fault::Inconsistent(format!(
            "the header counts {} edges, the board has {edges}",
            table.header().edges
        ))));
    }
    Ok(VerifyReport {
        states: index.counts().states,
        edges,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// Verifies a table file. Only a regular file is read, mapped rather than
/// read whole: its length is checked against its header's block table
/// before any checksum or block touches the rest, so a huge or endless file
/// is refused at once. A name that starts with a board (`3x4.sgtb`) must
/// name the board the header holds.
pub fn verify_file(path: &std::path::Path) -> Result<VerifyReport, TableError> {
    let file = super::open_regular(path)?;
    // SAFETY: read-only, and every byte is checked before use; see
    // `Tablebase::open` for what another program changing the file could do.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| TableError::io(path, e))?;
    let origin = Origin::File(path.to_path_buf());
    let board = super::format::Header::peek_board(&map).map_err(|fault| TableError::Corrupt {
        origin: origin.clone(),
        fault,
    })?;
    super::check_name(path, board)?;
    verify_bytes(&origin, &map)
}

/// States a spot check reads: about one in 50,000, at least 64 and at most
/// 20,000, so that it costs a few percent of a build at most.
pub fn spot_sample(states: u64) -> u64 {
    (states / 50_000).clamp(64, 20_000)
}

/// The check a table file gets before it replaces anything (and before its
/// build calls it done): its counts are the index's and `edges`, and the
/// start position, its children, and about `sample` states spread evenly
/// over the numbers each hold the value their children's values give, all
/// read from the file through the prober. Returns the states checked.
pub fn spot_check(
    path: &std::path::Path,
    index: &StateIndex,
    edges: u64,
    sample: u64,
) -> Result<u64, String> {
    let table = super::Tablebase::open_for(path, *index.board()).map_err(|e| e.to_string())?;
    let header = table.header();
    let counts = index.counts();
    if (header.positions, header.ko_states, header.edges)
        != (counts.positions, counts.ko_states, edges)
    {
        return Err(format!(
            "it holds {} positions, {} ko states and {} edges where the solve has {}, {} and {edges}",
            header.positions, header.ko_states, header.edges, counts.positions, counts.ko_states
        ));
    }
    let board = *index.board();
    let start = State::start();
    let children =
        start
            .legal_moves(&board)
            .into_iter()
            .filter_map(|mv| match start.play(&board, mv) {
                Some(Child::State(child)) => Some(child),
                _ => None,
            });
    let mut numbers: Vec<StateNumber> = std::iter::once(start)
        .chain(children)
        .filter_map(|state| index.rank(&state))
        .collect();
    let step = (counts.states / sample.max(1)).max(1);
    numbers.extend((0..counts.states).step_by(step as usize));
    let fault = std::sync::Mutex::new(None::<String>);
    let probe = |number: StateNumber| -> Value {
        table.probe(&index.unrank(number)).unwrap_or_else(|error| {
            *fault.lock().unwrap_or_else(|e| e.into_inner()) = Some(error.to_string());
            Value::default()
        })
    };
    numbers.par_iter().try_for_each(|&number| {
        let state = index.unrank(number);
        let stored = probe(number);
        let (expected, _) = expected_value(index, &state, &probe);
        if let Some(error) = fault.lock().unwrap_or_else(|e| e.into_inner()).take() {
            return Err(error);
        }
        if stored != expected {
            return Err(Mismatch {
                number,
                state,
                stored,
                expected,
            }
            .to_string());
        }
        Ok(())
    })?;
    Ok(numbers.len() as u64)
}
