//! Table files: identical bytes from every build, values read back equal to
//! the solver's, the verifier rejecting any altered value, and damaged files
//! refused with a fault, never a panic.

use std::collections::HashSet;
use std::io::Cursor;

use crate::index::StateNumber;
use crate::rules::board::Board;
use crate::rules::value::Value;
use crate::solver::{solve, Silent, Solution};
use crate::table::format::{file_checksum, Fault, TableBytes, CHECKSUM_OFFSET};
use crate::table::verify::{
    check_values, spot_check, verify_bytes, verify_file, verify_with, Quiet, VerifyObserver,
    VerifyOptions,
};
use crate::table::writer::{encode, encode_values, write};
use crate::table::{Origin, Table, TableError};

fn solved(name: &str) -> Solution {
    solve(name.parse::<Board>().unwrap(), &Silent).unwrap()
}

fn solved_with_threads(name: &str, threads: usize) -> Solution {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| solved(name))
}

/// Rewrites the checksum so that a deliberate change is not caught by it.
fn reseal(bytes: &mut [u8]) {
    let checksum = file_checksum(bytes);
    bytes[CHECKSUM_OFFSET..CHECKSUM_OFFSET + 4].copy_from_slice(&checksum.to_le_bytes());
}

fn origin() -> Origin {
    Origin::BuiltIn("test".into())
}

#[test]
fn builds_give_identical_bytes_whatever_the_thread_count() {
    for name in ["2x4", "3x4"] {
        let (one, _) = encode(&solved_with_threads(name, 1));
        let (two, _) = encode(&solved_with_threads(name, 2));
        let (again, _) = encode(&solved_with_threads(name, 2));
        assert!(one == two && two == again, "{name}: builds differ");
    }
}

#[test]
fn written_tables_verify_and_probe_back_every_state() {
    let folder = tempfile::tempdir().unwrap();
    for name in [
        "1x5", "2x3", "3x3", "2x5", "3x4", "1x5c", "2x4c", "3x3c", "2x5c",
    ] {
        let solution = solved(name);
        let written = write(&solution, folder.path(), &Silent, &|_| Ok(()))
            .unwrap()
            .unwrap();
        assert_eq!(
            written.path.file_name().unwrap().to_string_lossy(),
            format!("{name}.sgtb")
        );
        let report = verify_file(&written.path).unwrap();
        assert_eq!(report.states, solution.index().counts().states);
        let table = Table::open(&written.path).unwrap();
        let index = solution.index();
        for number in 0..index.counts().states as StateNumber {
            let state = index.unrank(number);
            assert_eq!(
                table.probe(&state).unwrap(),
                solution.value(number).unwrap(),
                "{name}: state {number}"
            );
        }
        // Symmetric images of a state read the same value.
        let codec = index.codec();
        for number in (0..index.counts().states as StateNumber).step_by(7) {
            let state = index.unrank(number);
            for g in codec.symmetries() {
                let position = state.position();
                let image = crate::rules::state::State::from_parts(
                    crate::rules::position::Position::new(
                        g.apply_set(position.us()),
                        g.apply_set(position.them()),
                    ),
                    state.ko().map(|k| g.apply(k)),
                    state.passed(),
                );
                assert_eq!(
                    table.probe(&image).unwrap(),
                    solution.value(number).unwrap()
                );
            }
        }
    }
    // No temporary files are left behind.
    let names: HashSet<String> = std::fs::read_dir(folder.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.starts_with('.')), "{names:?}");
}

/// Small changes to one value.
fn alterations(value: Value, points: i8) -> Vec<Value> {
    let mut out = Vec::new();
    let shift = |m: Option<i8>, d: i8| m.map(|m| m + d).filter(|m| (-points..=points).contains(m));
    for d in [-1, 1] {
        if let Some(a) = shift(value.mover_margin, d) {
            out.push(Value {
                mover_margin: Some(a),
                ..value
            });
        }
        if let Some(b) = shift(value.opponent_margin, d) {
            out.push(Value {
                opponent_margin: Some(b),
                ..value
            });
        }
    }
    if value.mover_margin.is_some() {
        out.push(Value {
            mover_depth: value.mover_depth + 1,
            ..value
        });
        out.push(Value {
            mover_depth: value.mover_depth - 1,
            ..value
        });
        out.push(Value {
            mover_margin: None,
            mover_depth: 0,
            ..value
        });
    }
    if value.opponent_margin.is_some() {
        out.push(Value {
            opponent_depth: value.opponent_depth + 1,
            ..value
        });
        out.push(Value {
            opponent_depth: value.opponent_depth - 1,
            ..value
        });
    }
    out
}

#[test]
fn the_verifier_rejects_every_single_altered_value() {
    for name in ["1x4", "2x3", "2x2", "1x4c", "2x3c"] {
        let solution = solved(name);
        let index = solution.index();
        let points = index.board().points() as i8;
        let states = index.counts().states as StateNumber;
        let honest = |n: StateNumber| solution.value(n).unwrap();
        assert!(
            check_values(index, &honest).is_ok(),
            "{name}: the true values pass"
        );
        let mut altered_count = 0;
        for target in 0..states {
            for altered in alterations(solution.value(target).unwrap(), points) {
                let values = |n: StateNumber| {
                    if n == target {
                        altered
                    } else {
                        solution.value(n).unwrap()
                    }
                };
                assert!(
                    check_values(index, &values).is_err(),
                    "{name}: state {target} altered to {altered} passed"
                );
                altered_count += 1;
            }
        }
        assert!(
            altered_count > states as usize,
            "{name}: alterations were tried"
        );
    }
}

/// The table file of `solution` with state `target`'s value replaced by
/// `altered`.
fn altered_table(solution: &Solution, target: StateNumber, altered: Value) -> Vec<u8> {
    let values = |n: StateNumber| {
        if n == target {
            altered
        } else {
            solution.value(n).unwrap()
        }
    };
    let (cursor, _) = encode_values(
        solution.index(),
        solution.stats().edges,
        &values,
        Cursor::new(Vec::new()),
        &Silent,
    )
    .unwrap()
    .unwrap();
    cursor.into_inner()
}

/// The ways verify can hold values: both halves in one pass, one half in
/// each of two passes (memory capped between the two needs), or both
/// halves coded in pairs in one pass (pairs forced: on boards this small
/// the pairs' tables outweigh a second byte a state), with the usual 255
/// common halves or pairs coded in a byte, or with few or none, so that
/// most are kept beside.
fn verifier_settings(board: &Board, states: u64) -> Vec<(&'static str, VerifyOptions, u32)> {
    let one_half = crate::solver::plan::verify_memory(board, states, 1) as u64 + 1;
    let capped = |memory, common_halves, force_pairs| VerifyOptions {
        memory: Some(memory),
        common_halves,
        force_pairs,
    };
    let one_pass = |common_halves| VerifyOptions {
        memory: None,
        common_halves,
        force_pairs: false,
    };
    vec![
        ("one pass", one_pass(255), 1),
        ("one pass, 3 common halves", one_pass(3), 1),
        ("two passes", capped(one_half, 255, false), 2),
        ("two passes, no common half", capped(one_half, 0, false), 2),
        ("pairs", capped(one_half, 255, true), 1),
        ("pairs, 3 common pairs", capped(one_half, 3, true), 1),
        ("pairs, no common pair", capped(one_half, 0, true), 1),
    ]
}

#[test]
fn the_verifier_rejects_altered_values_in_files() {
    let solution = solved("3x3");
    let index = solution.index();
    let (honest, _) = encode(&solution);
    let states = index.counts().states as StateNumber;
    let points = index.board().points() as i8;
    for (setting, options, passes) in verifier_settings(index.board(), states) {
        let verify = |bytes: &[u8]| verify_with(&origin(), bytes, options, &Quiet, &|_| {});
        let report = verify(&honest).unwrap();
        assert_eq!(report.passes, passes, "{setting}");
        assert_eq!(report.states, states, "{setting}");
        for target in (0..states).step_by(97) {
            for altered in alterations(solution.value(target).unwrap(), points)
                .into_iter()
                .take(3)
            {
                let bytes = altered_table(&solution, target, altered);
                match verify(&bytes) {
                    Err(TableError::Corrupt {
                        fault: Fault::Inconsistent(_),
                        ..
                    }) => {}
                    other => panic!("{setting}: state {target} altered to {altered}: {other:?}"),
                }
            }
        }
    }
}

/// Steps and blocks a verification reported.
#[derive(Default)]
struct Steps(std::sync::Mutex<Vec<(String, u64, u64)>>);

impl VerifyObserver for Steps {
    fn step_started(&self, step: &str, blocks: u64) {
        self.0.lock().unwrap().push((step.to_string(), blocks, 0));
    }
    fn advanced(&self, blocks: u64) {
        self.0.lock().unwrap().last_mut().unwrap().2 += blocks;
    }
}

/// Verify releases each stretch of file bytes it has read: the whole file
/// as the checksum goes, the blocks in each sweep, and only bytes within the
/// file; it reports each sweep as
/// a step whose blocks all get done.
#[test]
fn the_verifier_releases_every_byte_of_the_blocks_it_read() {
    let (bytes, _) = encode(&solved("3x4"));
    let table = TableBytes::new(&bytes).unwrap();
    let blocks = table.blocks_span(0, table.header().blocks).unwrap();
    let states = table.header().states;
    for (setting, options, passes) in verifier_settings(&table.header().board, states) {
        let released = std::sync::Mutex::new(Vec::new());
        let steps = Steps::default();
        verify_with(&origin(), &bytes, options, &steps, &|span| {
            released.lock().unwrap().push(span)
        })
        .unwrap();
        let steps = steps.0.into_inner().unwrap();
        let sweeps = if passes == 1 { 2 } else { 4 };
        assert_eq!(steps.len(), 1 + sweeps, "{setting}: {steps:?}");
        for (step, total, done) in &steps[1..] {
            assert_eq!(*total, table.header().blocks as u64, "{setting}: {step}");
            assert_eq!(done, total, "{setting}: {step}");
        }
        let mut released = released.into_inner().unwrap();
        assert!(
            released
                .iter()
                .all(|s| s.start < s.end && s.end <= bytes.len()),
            "{setting}: a span outside the file"
        );
        released.sort_by_key(|s| (s.start, s.end));
        let mut covered = released[0].start.min(blocks.start);
        for span in &released {
            assert!(
                span.start <= covered,
                "{setting}: bytes {covered}.. never released"
            );
            covered = covered.max(span.end);
        }
        assert_eq!(covered, bytes.len(), "{setting}");
        // The checksum sweeps the file once; each half held is one sweep
        // over the blocks, and each check one.
        let total: usize = released.iter().map(|s| s.len()).sum();
        assert!(
            total >= blocks.len() * sweeps,
            "{setting}: {total} bytes released"
        );
    }
}

#[test]
fn damaged_files_are_refused_without_panic() {
    let (bytes, _) = encode(&solved("2x4"));
    let folder = tempfile::tempdir().unwrap();
    let check = |damaged: &[u8]| -> Result<(), String> {
        let path = folder.path().join("2x4.sgtb");
        std::fs::write(&path, damaged).unwrap();
        let opened = Table::open(&path).map_err(|e| e.to_string())?;
        verify_bytes(&origin(), damaged).map_err(|e| e.to_string())?;
        let _ = opened;
        Ok(())
    };
    assert!(check(&bytes).is_ok());
    // Truncations at every length are refused, naming the file.
    for length in (0..bytes.len()).step_by(13).chain([bytes.len() - 1]) {
        let message = check(&bytes[..length]).expect_err("a truncated table was accepted");
        assert!(message.contains("2x4.sgtb"), "{message}");
    }
    // Any changed byte is caught by the checksum.
    for at in (0..bytes.len()).step_by(7) {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x20;
        let message = check(&damaged).expect_err("a changed byte was accepted");
        assert!(message.contains("2x4.sgtb"), "{message}");
    }
    // Wrong magic, version and board.
    let mut damaged = bytes.clone();
    damaged[0] = b'X';
    assert!(check(&damaged).unwrap_err().contains("magic"));
    let mut damaged = bytes.clone();
    damaged[8] = 9;
    reseal(&mut damaged);
    assert!(check(&damaged).unwrap_err().contains("version 9"));
    let path = folder.path().join("2x4.sgtb");
    std::fs::write(&path, &bytes).unwrap();
    let wrong = Table::open_for(&path, "4x2".parse().unwrap())
        .unwrap_err()
        .to_string();
    assert!(wrong.contains("holds board 2x4, not 4x2"), "{wrong}");
}

/// A circular board's table records its topology (format version 2, byte
/// 18), a plain board's stays version 1 with a zero there, and a header
/// whose version and topology disagree, or a file named for the other
/// topology, is refused.
#[test]
fn tables_record_their_topology() {
    let folder = tempfile::tempdir().unwrap();
    let (circular, _) = encode(&solved("2x4c"));
    let (plain, _) = encode(&solved("2x4"));
    assert_eq!(circular[8..12], 2u32.to_le_bytes());
    assert_eq!(circular[18], 1);
    assert_eq!(plain[8..12], 1u32.to_le_bytes());
    assert_eq!(plain[18], 0);
    let check = |name: &str, bytes: &[u8]| -> Result<Board, String> {
        let path = folder.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let table = Table::open(&path).map_err(|e| e.to_string())?;
        verify_file(&path).map_err(|e| e.to_string())?;
        Ok(table.board())
    };
    assert_eq!(check("2x4c.sgtb", &circular), Ok("2x4c".parse().unwrap()));
    assert_eq!(check("2x4.sgtb", &plain), Ok("2x4".parse().unwrap()));
    // Named for the other topology: the verifier refuses it by name.
    let message = check("2x4.sgtb", &circular).unwrap_err();
    assert!(message.contains("holds board 2x4c, not 2x4"), "{message}");
    let message = check("2x4c.sgtb", &plain).unwrap_err();
    assert!(message.contains("holds board 2x4, not 2x4c"), "{message}");
    // Version and topology must agree.
    for (bytes, at, byte, fault) in [
        (&plain, 18, 1, "topology 1 in a version 1 header"),
        (&circular, 18, 0, "topology 0 in a version 2 header"),
        (&circular, 18, 7, "topology 7 in a version 2 header"),
        (&circular, 8, 1, "topology 1 in a version 1 header"),
    ] {
        let mut damaged = bytes.clone();
        damaged[at] = byte;
        reseal(&mut damaged);
        let message = check("table.sgtb", &damaged).unwrap_err();
        assert!(message.contains(fault), "{message}");
    }
    // A version past those this smallgo reads says so.
    let mut damaged = circular.clone();
    damaged[8] = 4;
    reseal(&mut damaged);
    let message = check("2x4c.sgtb", &damaged).unwrap_err();
    assert!(message.contains("version 4 is not supported"), "{message}");
}

#[test]
fn resealed_garbage_never_panics_the_decoder() {
    let (bytes, _) = encode(&solved("2x3"));
    let mut rng = crate::tests::support::Rng::new(7);
    for round in 0..3000 {
        let mut damaged = bytes.clone();
        for _ in 0..1 + round % 4 {
            let at = rng.below(damaged.len() as u64) as usize;
            damaged[at] = rng.next_u64() as u8;
        }
        reseal(&mut damaged);
        if let Ok(table) = TableBytes::new(&damaged) {
            let _ = table.directory();
            for block in 0..table.header().blocks {
                let _ = table.block(block);
            }
            let _ = verify_bytes(&origin(), &damaged);
        }
    }
}

/// The check before a table is put in place: a file with the true values
/// passes, one with a sampled state's value altered or with other counts is
/// refused, and so is a build whose check refuses: nothing is renamed.
#[test]
fn the_spot_check_refuses_altered_tables() {
    let solution = solved("3x3");
    let index = solution.index();
    let edges = solution.stats().edges;
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("3x3.sgtb");
    let (honest, _) = encode(&solution);
    std::fs::write(&path, &honest).unwrap();
    let sample = 64;
    assert!(spot_check(&path, index, edges, sample).unwrap() > sample);
    assert!(spot_check(&path, index, edges + 1, sample)
        .unwrap_err()
        .contains("edges"));
    let points = index.board().points() as i8;
    let root = index.rank(&crate::rules::state::State::start()).unwrap();
    let step = (index.counts().states / sample).max(1);
    for target in [root, 0, step, 7 * step] {
        for altered in alterations(solution.value(target).unwrap(), points)
            .into_iter()
            .take(3)
        {
            std::fs::write(&path, altered_table(&solution, target, altered)).unwrap();
            let refused = spot_check(&path, index, edges, sample).unwrap_err();
            assert!(refused.contains("children give"), "{target}: {refused}");
        }
    }
    // A refused check leaves nothing under the table's name.
    let other = tempfile::tempdir().unwrap();
    let error = write(&solution, other.path(), &Silent, &|_| Err("no".into())).unwrap_err();
    assert!(
        error.to_string().contains("failed its check: no"),
        "{error}"
    );
    assert_eq!(std::fs::read_dir(other.path()).unwrap().count(), 0);
}

/// The header's reserved bytes (byte 19, bytes 124..128, the rules name's
/// padding) are zero in every shipped table, and a header with anything
/// else there is refused, naming the bytes, even with its checksum made
/// right.
#[test]
fn junk_in_the_headers_reserved_bytes_is_refused() {
    use crate::table::built_in;
    use crate::table::format::RULES;
    for (name, bytes) in built_in::tables() {
        assert!(Table::from_static(name, bytes).is_ok(), "{name}");
    }
    let (bytes, _) = encode(&solved("2x3"));
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("2x3.sgtb");
    let rules_padding = 24 + RULES.len() + 1;
    for (at, fault) in [
        (19, "reserved byte 19 is not zero"),
        (124, "reserved bytes 124..128 are not zero"),
        (127, "reserved bytes 124..128 are not zero"),
        (rules_padding, "the rules name's padding is not zero"),
        (55, "the rules name's padding is not zero"),
    ] {
        let mut damaged = bytes.clone();
        damaged[at] = 0x5a;
        reseal(&mut damaged);
        std::fs::write(&path, &damaged).unwrap();
        let message = Table::open(&path).unwrap_err().to_string();
        assert!(
            message.contains("2x3.sgtb") && message.contains(fault),
            "byte {at}: {message}"
        );
    }
}

/// `bytes`, a table, with its header rewritten to name `board` (rows,
/// columns, and the format version and topology byte of its topology) and
/// its checksum made right: another board's data under `board`'s name.
fn relabelled(bytes: &[u8], board: Board) -> Vec<u8> {
    let mut forged = bytes.to_vec();
    let circular = board.is_circular();
    forged[8..12].copy_from_slice(&(if circular { 2u32 } else { 1 }).to_le_bytes());
    forged[16] = board.rows() as u8;
    forged[17] = board.columns() as u8;
    forged[18] = circular as u8;
    reseal(&mut forged);
    forged
}

/// Whether two boards have the same neighbours, point for point.
fn same_neighbours(a: &Board, b: &Board) -> bool {
    a.points() == b.points()
        && (0..a.points()).all(|p| {
            let p = crate::rules::board::Point::new(p);
            a.neighbours(p) == b.neighbours(p)
        })
}

/// Every shipped table relabelled as every other board of its number of
/// points (its header's board, version and topology rewritten, its
/// checksum made right) is refused when opened, naming the file and the
/// board its directory is not, unless the two boards are one board under
/// two names (1x5 and 5x1, 3x2 and 3x2c): then it serves every state as the
/// board's own solve does.
#[test]
fn a_table_relabelled_as_another_board_is_refused() {
    use crate::table::built_in;
    let folder = tempfile::tempdir().unwrap();
    let mut refused = 0;
    let mut accepted = Vec::new();
    for (name, bytes) in built_in::tables() {
        let own: Board = name.parse().unwrap();
        let points = own.points();
        for rows in (1..=points).filter(|r| points.is_multiple_of(*r)) {
            for circular in [false, true] {
                let board = if circular {
                    Board::circular(rows, points / rows)
                } else {
                    Board::new(rows, points / rows)
                };
                let Ok(board) = board else { continue };
                if board == own {
                    continue;
                }
                let path = folder.path().join(crate::table::file_name(&board));
                std::fs::write(&path, relabelled(bytes, board)).unwrap();
                match Table::open(&path) {
                    Ok(table) => {
                        // Accepted: it must be the same board, the same
                        // neighbours point for point, and (when quick to
                        // solve) every state worth what the board's own
                        // solve gives.
                        assert!(same_neighbours(&own, &board), "{name} served as {board}");
                        accepted.push(format!("{name} as {board}"));
                        if table.header().states > 200_000 {
                            continue;
                        }
                        let solution = solved(&board.name());
                        let index = solution.index();
                        for number in 0..index.counts().states as StateNumber {
                            let state = index.unrank(number);
                            assert_eq!(
                                table.probe(&state).ok(),
                                solution.value(number).ok(),
                                "{name} served as {board}: state {number}"
                            );
                        }
                    }
                    Err(error) => {
                        let message = error.to_string();
                        assert!(
                            message.contains(&path.display().to_string())
                                && message.contains(&format!("not a table of board {board}")),
                            "{name} as {board}: {message}"
                        );
                        refused += 1;
                    }
                }
            }
        }
    }
    assert!(refused > 100, "{refused} refused");
    eprintln!("accepted as the same board: {accepted:?}");
    // The cases, by name.
    for (data, label) in [
        ("2x4c", "2x4"),
        ("2x5", "2x5c"),
        ("2x5", "5x2"),
        ("3x4", "4x3"),
    ] {
        let bytes = built_in::tables().find(|(n, _)| *n == data).unwrap().1;
        let board: Board = label.parse().unwrap();
        let path = folder.path().join(crate::table::file_name(&board));
        std::fs::write(&path, relabelled(bytes, board)).unwrap();
        assert!(Table::open(&path).is_err(), "{data} as {label}");
    }
}

/// A measurement, run on request: how long opening each table of
/// `SMALLGO_OPEN_TABLES` (paths separated by `:`) takes, with its checks
/// (header and checksum, then the directory and ko states against the
/// board), against the header and checksum alone and with the directory
/// read (as the first probe did before opening read it).
/// `SMALLGO_OPEN_TABLES=tablebases/4x4.sgtb cargo test --release --lib
/// open_times -- --ignored --nocapture`
#[test]
#[ignore = "a measurement"]
fn open_times() {
    let paths = std::env::var("SMALLGO_OPEN_TABLES").unwrap_or_default();
    for path in paths.split(':').filter(|p| !p.is_empty()) {
        let path = std::path::Path::new(path);
        let bytes = std::fs::read(path).unwrap();
        let best = |work: &dyn Fn()| {
            (0..5)
                .map(|_| {
                    let started = std::time::Instant::now();
                    work();
                    started.elapsed().as_secs_f64()
                })
                .fold(f64::INFINITY, f64::min)
        };
        let header = best(&|| {
            crate::table::format::Header::read(&bytes).unwrap();
        });
        let directory = best(&|| {
            TableBytes::new(&bytes).unwrap().directory().unwrap();
        });
        let board = TableBytes::new(&bytes).unwrap().header().board;
        let codec = best(&|| {
            crate::index::code::Codec::new(board);
        });
        let open = best(&|| {
            Table::open(path).unwrap();
        });
        eprintln!(
            "{}: {} bytes, header and checksum {:.1} ms, with the directory read {:.1} ms, \
             the board's codec made {:.1} ms, open with every check {:.1} ms",
            path.display(),
            bytes.len(),
            header * 1e3,
            directory * 1e3,
            codec * 1e3,
            open * 1e3
        );
    }
}
