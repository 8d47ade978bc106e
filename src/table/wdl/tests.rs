//! Win/draw/loss tables against the full tables they are made from: every
//! state's result, games played from them, and damaged bytes.

use super::check::verify;
use super::export::{export, result_of};
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

/// Games from random openings, one side or both played from the table,
/// the other at random: every move the table chooses keeps the full
/// table's result, and a won game's ranks fall until it ends.
#[test]
fn games_from_the_table_keep_the_full_tables_result() {
    for (name, komi2) in [("3x4", 0), ("3x4", -4), ("3x4", 5), ("2x5", 0)] {
        let full = full(name);
        let board = full.board();
        let table = open(made(name, komi2)).unwrap();
        let truth =
            |state: &State, black: bool| result_of(&full.probe(state).unwrap(), black, komi2);
        let mut rng = SplitMix::new(komi2 as u64 + 11);
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
                    assert_eq!(table.value(&state, black).unwrap(), own);
                    let chosen = table.choose(&state, black, &|_| false).unwrap();
                    let kept = match state.play(&board, chosen.mv).unwrap() {
                        Child::End { margin } => Wdl::of_margin(margin, black, komi2),
                        Child::State(child) => truth(&child, !black).flipped(),
                    };
                    assert_eq!(
                        (chosen.result, kept),
                        (own, own),
                        "{name} game {game} ply {ply}"
                    );
                    let side = black as usize;
                    if own == Wdl::Win {
                        if let Some(before) = rank[side] {
                            assert!(
                                chosen.rank < Some(before),
                                "{name} game {game}: a rank rose"
                            );
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
                    assert_eq!(rank, [None, None], "{name} game {game}: a won game goes on");
                    break;
                }
            }
        }
        assert!(
            results.iter().sum::<usize>() > 30,
            "{name}: games end: {results:?}"
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
    let lost = exact(0);
    for depth in [0, 1] {
        let damaged = rewrite(&bytes, |block, _, depths| {
            if block == 0 {
                depths[lost] = depth;
            }
        });
        let error = verify(&open(damaged).unwrap()).unwrap_err().to_string();
        assert!(
            error.contains(&format!("loses with rank {depth}")),
            "{error}"
        );
    }
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
