//! Win/draw/loss tables against the full tables they are made from: every
//! state's result, games played from them, and damaged bytes.

use super::check::verify;
use super::export::{export, export_from, result_of};
use super::format::{self, EncodedBlock};
use super::*;
use crate::common::random::SplitMix;
use crate::index::StateIndex;
use crate::table::built_in;
use crate::table::Table;

fn full(name: &str) -> Table {
    let (name, bytes) = built_in::tables()
        .find(|(n, _)| *n == name)
        .expect("a built-in table");
    Table::from_static(name, bytes).expect("a sound built-in table")
}

fn made(name: &str, komi2: i32) -> Vec<u8> {
    export(&full(name), komi2).expect("an export").0
}

fn open(bytes: Vec<u8>) -> Result<WdlTable, TableError> {
    WdlTable::from_bytes(Origin::BuiltIn("test".into()), bytes)
}

/// The file with each block's symbols and depths changed by `change`.
fn rewrite(bytes: &[u8], change: impl Fn(u32, &mut Vec<u8>, &mut Vec<u32>)) -> Vec<u8> {
    let layout = format::read(bytes).expect("a sound file");
    let mut blocks = Vec::new();
    for block in 0..layout.header.blocks {
        let (mut symbols, mut depths) = layout.block(bytes, block).expect("a sound block");
        change(block, &mut symbols, &mut depths);
        let mut raw = Vec::new();
        for (&symbol, &depth) in symbols.iter().zip(&depths) {
            if symbol == 0 {
                format::push_varint(&mut raw, depth as u64);
            }
        }
        let entry = layout.entries[block as usize];
        blocks.push(EncodedBlock {
            first_word: entry.first_word,
            ko_states: entry.ko_states,
            wdl: format::deflate(&format::runs(&symbols)),
            depth: format::deflate(&raw),
        });
    }
    format::write(&layout.header, &bytes[layout.directory.clone()], &blocks)
}

#[test]
fn every_result_is_the_full_tables_and_verifies() {
    for (name, komis) in [("3x3", &[0, 1, 18, -5][..]), ("2x4", &[0, 7, -16])] {
        let full = full(name);
        let index = StateIndex::build(full.board()).unwrap();
        for &komi2 in komis {
            let table = open(made(name, komi2)).unwrap();
            verify(&table).unwrap_or_else(|e| panic!("{name} komi2 {komi2}: {e}"));
            for number in 0..index.counts().states {
                let state = index.unrank(number);
                let value = full.probe(&state).unwrap();
                for black in [true, false] {
                    assert_eq!(
                        table.value(&state, black).unwrap(),
                        result_of(&value, black, komi2),
                        "{name} komi2 {komi2} state {number} black {black}"
                    );
                }
            }
        }
    }
}

/// Plays 60 games from random openings on `table`, one side or both
/// played from it, the other at random: every move the table chooses must
/// keep the full table's result (a win stays won, a draw is never lost),
/// a won game's ranks must fall until it ends, and it must end. Returns
/// the first move that does not.
fn play_out(full: &Table, table: &WdlTable, seed: u64) -> Result<[usize; 3], String> {
    let board = full.board();
    let komi2 = table.komi2();
    let truth = |state: &State, black: bool| result_of(&full.probe(state).unwrap(), black, komi2);
    let mut rng = SplitMix::new(seed);
    let mut results = [0usize; 3];
    for game in 0..60 {
        let mut state = State::start();
        let mut black = true;
        let opening = rng.below(6);
        let mut rank: [Option<u32>; 2] = [None, None];
        for ply in 0.. {
            let by_table = ply >= opening
                && match game % 3 {
                    0 => black,
                    1 => !black,
                    _ => true,
                };
            let mv = if by_table {
                let own = truth(&state, black);
                let read = table.value(&state, black).map_err(|e| e.to_string())?;
                if read != own {
                    return Err(format!("game {game} ply {ply}: reads a {}", read.word()));
                }
                let chosen = table
                    .choose(&state, black, &|_| false)
                    .map_err(|e| e.to_string())?;
                let kept = match state.play(&board, chosen.mv).unwrap() {
                    Child::End { margin } => Wdl::of_margin(margin, black, komi2),
                    Child::State(child) => truth(&child, !black).flipped(),
                };
                if (chosen.result, kept) != (own, own) {
                    return Err(format!(
                        "game {game} ply {ply}: a {} played as a {}",
                        own.word(),
                        kept.word()
                    ));
                }
                let side = black as usize;
                if own == Wdl::Win {
                    if let Some(before) = rank[side] {
                        if chosen.rank >= Some(before) {
                            return Err(format!(
                                "game {game} ply {ply}: a rank rose ({before} to {:?})",
                                chosen.rank
                            ));
                        }
                    }
                    rank[side] = chosen.rank;
                }
                chosen.mv
            } else {
                let moves = state.legal_moves(&board);
                moves[rng.below(moves.len() as u64) as usize]
            };
            match state.play(&board, mv).unwrap() {
                Child::End { margin } => {
                    results[Wdl::of_margin(margin, black, komi2) as usize] += 1;
                    break;
                }
                Child::State(child) => {
                    state = child;
                    black = !black;
                }
            }
            if ply > 500 {
                if rank != [None, None] {
                    return Err(format!("game {game}: a won game goes on"));
                }
                break;
            }
        }
    }
    Ok(results)
}

/// Games played from the table keep the full table's result, and its
/// won games end.
#[test]
fn games_from_the_table_keep_the_full_tables_result() {
    for (name, komi2) in [("3x4", 0), ("3x4", -4), ("3x4", 5), ("2x5", 0)] {
        let full = full(name);
        let table = open(made(name, komi2)).unwrap();
        let results = play_out(&full, &table, komi2 as u64 + 11)
            .unwrap_or_else(|e| panic!("{name} komi2 {komi2}: {e}"));
        assert!(
            results.iter().sum::<usize>() > 30,
            "{name}: games end: {results:?}"
        );
    }
}

/// The games above catch wrong ranks: with every stored rank but one
/// made 1, a winner following them finds a rank that does not fall.
#[test]
fn games_from_a_table_with_wrong_ranks_fail() {
    let full = full("3x4");
    let bytes = made("3x4", 0);
    assert!(play_out(&full, &open(bytes.clone()).unwrap(), 11).is_ok());
    let damaged = rewrite(&bytes, |_, _, depths| {
        for depth in depths.iter_mut().filter(|d| **d > 1) {
            *depth = 2;
        }
    });
    let table = open(damaged).unwrap();
    assert!(verify(&table).is_err());
    let error = play_out(&full, &table, 11).unwrap_err();
    assert!(
        error.contains("a rank rose") || error.contains("goes on"),
        "{error}"
    );
}

/// Ranks too large for the verifier's cell (`check::NEAR`): every stored
/// rank raised by `NEAR - 10` (the ranks then on both sides of `NEAR`) or
/// by 300 (all of them past it) keeps every loss above its children, so
/// the table still verifies; one of them then lowered below a child's
/// fails.
#[test]
fn ranks_past_a_cell_verify_and_a_wrong_one_fails() {
    let bytes = made("3x4", 0);
    for raise in [super::check::NEAR - 10, 300] {
        let raised = rewrite(&bytes, |_, _, depths| {
            for depth in depths.iter_mut().filter(|d| **d > 0) {
                *depth += raise;
            }
        });
        let layout = format::read(&raised).unwrap();
        let stored: Vec<u32> = (0..layout.header.blocks)
            .flat_map(|block| layout.block(&raised, block).unwrap().1)
            .filter(|&d| d > 0)
            .collect();
        let near = super::check::NEAR;
        assert!(
            stored.iter().any(|&d| d > near) && (raise > near || stored.iter().any(|&d| d <= near)),
            "raised by {raise}"
        );
        verify(&open(raised.clone()).unwrap()).unwrap();
        let lowered = rewrite(&raised, |block, _, depths| {
            if block == 0 {
                if let Some(depth) = depths.iter_mut().find(|d| **d > raise + 2) {
                    *depth = raise + 1;
                }
            }
        });
        let error = verify(&open(lowered).unwrap()).unwrap_err().to_string();
        assert!(
            error.contains(&format!("loses with rank {}", raise + 1)),
            "raised by {raise}: {error}"
        );
    }
}

/// The verifier holds a byte a state and colour, with no rank in the map
/// beside the cells when every rank fits in them.
#[test]
fn the_verifier_holds_two_bytes_a_state() {
    for (name, komi2) in [("3x4", 0), ("2x5", 3)] {
        let report = verify(&open(made(name, komi2)).unwrap()).unwrap();
        assert_eq!(report.held_bytes, 2 * report.states, "{name}");
    }
}

/// The codes, four bits a state and sixteen to a word, read back what a
/// byte a state holds: results put in runs from every offset of a word at
/// once, then losses marked followed from many threads, some twice.
#[test]
fn packed_codes_read_back_a_byte_a_state() {
    use rayon::prelude::*;
    for states in [1usize, 15, 16, 17, 1000, 4099] {
        let mut rng = SplitMix::new(states as u64);
        let plain: Vec<u8> = (0..states)
            .map(|_| rng.below(3) as u8 | (rng.below(3) as u8) << 2)
            .collect();
        let mut runs = Vec::new();
        let mut at = 0;
        while at < states {
            let end = (at + 1 + rng.below(40) as usize).min(states);
            runs.push(at..end);
            at = end;
        }
        let codes = ranks::Codes::new(states);
        runs.par_iter()
            .for_each(|run| codes.put(run.start, &plain[run.clone()]));
        let own = |slot: usize| Wdl::from_symbol(plain[slot / 2] >> (2 * (slot % 2)) & 3);
        let follow: Vec<bool> = (0..2 * states)
            .map(|slot| own(slot) == Wdl::Loss && rng.below(3) == 0)
            .collect();
        (0..2 * states)
            .into_par_iter()
            .filter(|&slot| follow[slot])
            .for_each(|slot| {
                assert!(codes.follow(slot / 2, slot % 2), "slot {slot}");
                if slot % 3 == 0 {
                    assert!(!codes.follow(slot / 2, slot % 2), "slot {slot}");
                }
            });
        for (slot, &followed) in follow.iter().enumerate() {
            let (n, c) = (slot / 2, slot % 2);
            assert_eq!(
                codes.result(n, c),
                own(slot),
                "{states} states, slot {slot}"
            );
            assert_eq!(
                codes.followed(n, c),
                followed,
                "{states} states, slot {slot}"
            );
        }
        assert!(follow.iter().any(|&f| f) || states < 16);
        assert_eq!(codes.bytes(), states.div_ceil(16) * 8);
    }
}

/// The distances of the retrograde pass are those a plain fixed point
/// gives: sweeps over every state, each lowering what its children allow,
/// until a sweep changes nothing.
#[test]
fn the_retrograde_distances_are_the_sweeps_fixed_point() {
    for (name, komi2) in [("3x3", 0), ("3x3", 5), ("2x4", -3), ("2x5", 0)] {
        let full = full(name);
        let board = full.board();
        let index = StateIndex::build(board).unwrap();
        let states = index.counts().states as usize;
        let results: Vec<u8> = (0..states)
            .map(|n| {
                let value = full.probe(&index.unrank(n as u64)).unwrap();
                result_of(&value, true, komi2) as u8 | (result_of(&value, false, komi2) as u8) << 2
            })
            .collect();
        let codes = ranks::Codes::of_results(&results);
        // The distances the rules give, u32::MAX for none.
        const NONE: u32 = u32::MAX;
        let mut slow = vec![NONE; 2 * states];
        loop {
            let mut changed = false;
            for n in 0..states {
                let state = index.unrank(n as u64);
                for c in 0..2 {
                    let own = codes.result(n, c);
                    let mut least = NONE;
                    let mut greatest = 0;
                    let mut complete = true;
                    for mv in state.legal_moves(&board) {
                        match state.play(&board, mv) {
                            Some(Child::End { margin })
                                if Wdl::of_margin(margin, c == 0, komi2) == Wdl::Win =>
                            {
                                least = 0;
                            }
                            Some(Child::State(child)) => {
                                let m = index.rank(&child).unwrap() as usize;
                                let d = slow[2 * m + 1 - c];
                                if codes.result(m, 1 - c) == Wdl::Loss {
                                    least = least.min(d);
                                }
                                if d == NONE {
                                    complete = false;
                                } else {
                                    greatest = greatest.max(d);
                                }
                            }
                            _ => {}
                        }
                    }
                    let new = match own {
                        Wdl::Win if least != NONE => least + 1,
                        Wdl::Loss if complete => greatest + 1,
                        _ => NONE,
                    };
                    if new < slow[2 * n + c] {
                        slow[2 * n + c] = new;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        // The followed losses: each won state's first losing child, in
        // move order, one ply nearer the end, unless a pass ends the game.
        let mut follow = vec![false; 2 * states];
        for n in 0..states {
            let state = index.unrank(n as u64);
            for c in 0..2 {
                let d = slow[2 * n + c];
                if codes.result(n, c) != Wdl::Win || d == 1 {
                    continue;
                }
                let designated = state.legal_moves(&board).into_iter().find_map(|mv| {
                    let Some(Child::State(child)) = state.play(&board, mv) else {
                        return None;
                    };
                    let m = index.rank(&child).unwrap() as usize;
                    let slot = 2 * m + 1 - c;
                    (codes.result(m, 1 - c) == Wdl::Loss && slow[slot] == d - 1).then_some(slot)
                });
                follow[designated.expect("a followed child")] = true;
            }
        }
        // Every followed distance in its byte, and every one above 2 in the
        // map; and with a loss's children counted in its cell only up to 1
        // or 2, so that nearly every loss is counted again from its
        // children's cells at the end of a layer.
        for (near, cap) in [(ranks::NEAR, 9), (2, 9), (ranks::NEAR, 1), (2, 2)] {
            let codes = ranks::Codes::of_results(&results);
            let fast = match cap {
                1 => ranks::distances_counting::<1>(&index, &codes, komi2, near),
                2 => ranks::distances_counting::<2>(&index, &codes, komi2, near),
                _ => ranks::distances(&index, &codes, komi2, near),
            }
            .unwrap_or_else(|e| panic!("{name} komi2 {komi2} near {near} cap {cap}: {e}"));
            let mut far = 0;
            for (slot, &slow) in slow.iter().enumerate() {
                let (n, c) = (slot / 2, slot % 2);
                let at = format!("{name} komi2 {komi2} near {near} cap {cap} state {n} colour {c}");
                assert_eq!(codes.followed(n, c), follow[slot], "{at}");
                assert_eq!(codes.result(n, c) == Wdl::Draw, slow == NONE, "{at}");
                if follow[slot] {
                    assert_eq!(fast.followed.get(&codes, slot), slow, "{at}");
                    far += (slow > near) as usize;
                }
            }
            assert_eq!(fast.followed.count(), follow.iter().filter(|&&f| f).count());
            assert!(fast.followed.count() > 0);
            assert_eq!(
                fast.longest,
                slow.iter().filter(|&&d| d != NONE).max().copied().unwrap()
            );
            assert_eq!(fast.followed.far_count(), far, "{name} komi2 {komi2}");
            assert_eq!(far > 0, near == 2, "{name} komi2 {komi2}");
        }
    }
}

/// The export holds a byte and a half a state (each state's results in
/// four bits, and four bits a colour for the retrograde) and two bytes
/// a followed loss (its distance, and its slot in its layer's list); distances too long for their byte,
/// kept beside it, give the same file byte for byte; and every block of
/// the full table is let go once decoded.
#[test]
fn an_export_holds_a_byte_and_a_half_a_state_and_far_distances_change_nothing() {
    for (name, komi2) in [("3x4", 0), ("2x5", -3), ("3x3", 5)] {
        let table = full(name);
        let (bytes, report) = export(&table, komi2).unwrap();
        let released = std::sync::Mutex::new(Vec::new());
        let (far_bytes, far_report) = export_from(
            &table.view(),
            name,
            &|span| released.lock().unwrap().push(span),
            &|_| {},
            komi2,
            2,
        )
        .unwrap();
        assert!(report.states > 0 && report.followed > 0);
        assert!(
            report.held_bytes <= report.states * 3 / 2 + 2 * report.followed + 4096,
            "{name} komi2 {komi2}: {report:?}"
        );
        assert_eq!(report.far, 0, "{name} komi2 {komi2}");
        assert!(far_report.far > 0, "{name} komi2 {komi2}");
        assert_eq!(far_report.longest, report.longest);
        assert!(far_bytes == bytes, "{name} komi2 {komi2}: the files differ");
        let view = table.view();
        let mut released = released.into_inner().unwrap();
        released.sort_by_key(|span| span.start);
        let blocks: Vec<_> = (0..view.header().blocks)
            .map(|b| view.blocks_span(b, b + 1).unwrap())
            .collect();
        assert_eq!(released, blocks, "{name} komi2 {komi2}");
    }
}

/// Each losing state that stores a rank has the least a followed loss may
/// have: one more than the greatest rank of its children (all won for
/// the opponent, the end of the game 0); only some losses store one, and
/// every won state has a ranked losing child or a pass that ends the game.
#[test]
fn the_ranks_are_the_least_that_finish_a_win_and_only_where_followed() {
    for (name, komi2) in [("3x3", 0), ("3x3", 5), ("2x4", -3), ("3x4", 0)] {
        let table = open(made(name, komi2)).unwrap();
        let board = table.board();
        let index = StateIndex::build(board).unwrap();
        let (mut ranked, mut unranked) = (0, 0);
        for number in 0..index.counts().states {
            let state = index.unrank(number);
            for black in [true, false] {
                match table.value(&state, black).unwrap() {
                    Wdl::Win => assert!(table.rank(&state, black).unwrap().is_some()),
                    Wdl::Draw => {}
                    Wdl::Loss => {
                        let Some(rank) = table.rank(&state, black).unwrap() else {
                            unranked += 1;
                            continue;
                        };
                        ranked += 1;
                        let mut greatest = 0;
                        for mv in state.legal_moves(&board) {
                            if let Some(Child::State(child)) = state.play(&board, mv) {
                                let rank =
                                    table.rank(&child, !black).unwrap().expect("a won child");
                                greatest = greatest.max(rank);
                            }
                        }
                        assert_eq!(
                            rank,
                            greatest + 1,
                            "{name} komi2 {komi2} state {number} black {black}"
                        );
                    }
                }
            }
        }
        assert!(
            ranked > 0 && unranked > 0,
            "{name} komi2 {komi2}: {ranked} ranked, {unranked} not"
        );
    }
}

#[test]
fn a_wrong_result_or_rank_fails_verification() {
    let bytes = made("3x4", 0);
    let board = Board::new(3, 4).unwrap();
    let index = StateIndex::build(board).unwrap();
    let layout = format::read(&bytes).unwrap();
    let (symbols, _) = layout.block(&bytes, 0).unwrap();
    // Plain states of block 0 with an odd number of stones store their
    // result as it is, Black to move first.
    let exact = |wanted: u8| {
        (0..layout.header.positions_per_block as usize)
            .find(|&at| {
                let state = index.state_at(index.position_code(at as u64), 0);
                !may_derive(&state) && symbols[at] == wanted
            })
            .expect("such a state")
    };
    assert!(verify(&open(bytes.clone()).unwrap()).is_ok());
    let won = exact(2);
    let damaged = rewrite(&bytes, |block, symbols, depths| {
        if block == 0 {
            symbols[won] = 0;
            depths[won] = 1000;
        }
    });
    let error = verify(&open(damaged).unwrap()).unwrap_err().to_string();
    assert!(error.contains("reads as a loss"), "{error}");
    // A followed loss whose rank is one less than its least: a move
    // reaches a win of that rank.
    let (_, depths) = layout.block(&bytes, 0).unwrap();
    let lost = (0..layout.header.positions_per_block as usize)
        .find(|&at| {
            let state = index.state_at(index.position_code(at as u64), 0);
            !may_derive(&state) && symbols[at] == 0 && depths[at] > 1
        })
        .expect("such a state");
    let depth = depths[lost] - 1;
    let damaged = rewrite(&bytes, |block, _, depths| {
        if block == 0 {
            depths[lost] = depth;
        }
    });
    let error = verify(&open(damaged).unwrap()).unwrap_err().to_string();
    assert!(
        error.contains(&format!("loses with rank {depth}")) && error.contains("reaches a win"),
        "{error}"
    );
    // No loss followed: the won states have no way to finish.
    let damaged = rewrite(&bytes, |_, _, depths| depths.fill(0));
    let error = verify(&open(damaged).unwrap()).unwrap_err().to_string();
    assert!(
        error.contains("no move ends the game with it or reaches a ranked loss"),
        "{error}"
    );
    // A rank where the result read is no loss.
    let sound = open(bytes.clone()).unwrap();
    let lowered = (0..layout.symbol_count(0))
        .find(|&i| {
            symbols[i] == 0 && depths[i] == 0 && {
                let span = layout.symbol_count(0) / 2;
                let (c, offset) = (i / span, i % span);
                let count = layout.header.positions_per_block as usize;
                offset < count && {
                    let state = index.state_at(index.position_code(offset as u64), 0);
                    may_derive(&state) && sound.value(&state, c == 0).unwrap() != Wdl::Loss
                }
            }
        })
        .expect("a state stored as a loss below its result");
    let damaged = rewrite(&bytes, |block, _, depths| {
        if block == 0 {
            depths[lowered] = 3;
        }
    });
    let error = verify(&open(damaged).unwrap()).unwrap_err().to_string();
    assert!(error.contains("but stores rank 3"), "{error}");
}

#[test]
fn damaged_bytes_are_refused_or_fail_never_panic() {
    let bytes = made("3x3", 0);
    for length in (0..bytes.len()).step_by(7) {
        assert!(open(bytes[..length].to_vec()).is_err(), "{length} bytes");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(open(longer).is_err());
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 0x10;
    let error = open(flipped).unwrap_err().to_string();
    assert!(error.contains("checksum"), "{error}");
    // Damage behind a right checksum: refused on opening, on a probe or by
    // the verifier, or harmless; never a panic.
    let board = Board::new(3, 3).unwrap();
    let index = StateIndex::build(board).unwrap();
    let mut rng = SplitMix::new(3);
    let mut caught = 0;
    for _ in 0..300 {
        let mut damaged = bytes.clone();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(damaged.len() as u64) as usize;
            damaged[at] = rng.below(256) as u8;
        }
        format::seal(&mut damaged);
        let Ok(table) = open(damaged) else {
            caught += 1;
            continue;
        };
        let probed = (0..index.counts().states)
            .map(|n| table.value(&index.unrank(n), n % 2 == 0))
            .collect::<Result<Vec<_>, _>>();
        if probed.is_err() || verify(&table).is_err() {
            caught += 1;
        }
    }
    assert!(caught > 200, "{caught} of 300 damaged files caught");
}

/// Version 1 (every loss ranked) is read as version 2 is; a later one is
/// refused by its version.
#[test]
fn version_1_is_read_and_a_later_one_refused() {
    let bytes = made("3x3", 0);
    for (version, readable) in [(1u32, true), (2, true), (3, false)] {
        let mut changed = bytes.clone();
        changed[8..12].copy_from_slice(&version.to_le_bytes());
        format::seal(&mut changed);
        match open(changed) {
            Ok(table) => assert!(readable && verify(&table).is_ok(), "version {version}"),
            Err(error) => assert!(
                !readable && error.to_string().contains("version"),
                "version {version}: {error}"
            ),
        }
    }
}
