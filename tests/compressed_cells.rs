//! The memory plan: a solve with its cells in compressed blocks gives the
//! same values, and the same table bytes, as one with flat cells, whatever
//! the block size and thread count, and resumes from a checkpoint taken in
//! the other form.

use std::sync::Mutex;

use smallgo::board::Board;
use smallgo::solver::store::{CellBuilder, CellForm, CellStore};
use smallgo::solver::{
    solve, solve_with_checkpoints, CheckpointStore, NoCheckpoints, Silent, SolveProgress,
};
use smallgo::table::writer::encode;

fn board(name: &str) -> Board {
    name.parse().unwrap()
}

#[test]
fn compressed_cells_solve_to_the_same_table_as_flat_cells() {
    for name in ["1x7", "2x4", "3x3", "2x5", "3x4"] {
        let flat = solve(board(name), &Silent).unwrap();
        let (flat_bytes, _) = encode(&flat);
        // Blocks of one flag's states, of a size that cuts positions'
        // states apart, and the default.
        for block_cells in [64, 1000, CellForm::BLOCK_CELLS] {
            let form = CellForm::compressed_blocks(block_cells);
            let compressed =
                solve_with_checkpoints(board(name), form, &Silent, &NoCheckpoints).unwrap();
            assert_eq!(compressed.cell_form(), Some(form));
            let states = flat.index().counts().states;
            for number in (0..states).step_by(97) {
                assert_eq!(
                    compressed.value(number),
                    flat.value(number),
                    "{name}, blocks of {block_cells}: state {number}"
                );
            }
            let (bytes, _) = encode(&compressed);
            assert!(
                bytes == flat_bytes,
                "{name}, blocks of {block_cells}: other table bytes"
            );
            assert_eq!(compressed.stats().edges, flat.stats().edges);
        }
    }
}

#[test]
fn compressed_solves_do_not_depend_on_the_thread_count() {
    let solve_with = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                let form = CellForm::compressed_blocks(256);
                encode(
                    &solve_with_checkpoints(board("3x4"), form, &Silent, &NoCheckpoints).unwrap(),
                )
                .0
            })
    };
    assert!(solve_with(1) == solve_with(2));
}

/// Keeps the cells offered at one chosen level boundary, in memory.
struct KeepAt {
    next_level: i32,
    kept: Mutex<Option<(SolveProgress, Vec<u32>)>>,
}

impl CheckpointStore for KeepAt {
    fn load(&self, _: Board, states: u64, form: CellForm) -> Option<(SolveProgress, CellStore)> {
        let kept = self.kept.lock().unwrap();
        let (progress, cells) = kept.as_ref()?;
        let mut builder = CellBuilder::new(form, states as usize);
        builder.push(cells);
        Some((*progress, builder.finish().unwrap()))
    }

    fn offer(&self, _: Board, progress: SolveProgress, cells: &CellStore) {
        if progress.next_level == self.next_level {
            *self.kept.lock().unwrap() = Some((progress, cells.range(0..cells.len())));
        }
    }
}

#[test]
fn a_solve_resumes_in_the_other_form_to_the_same_table() {
    let name = "2x5";
    let (expected, _) = encode(&solve(board(name), &Silent).unwrap());
    let compressed = CellForm::compressed_blocks(512);
    for (first, second) in [(CellForm::Flat, compressed), (compressed, CellForm::Flat)] {
        let store = KeepAt {
            next_level: 3,
            kept: Mutex::new(None),
        };
        solve_with_checkpoints(board(name), first, &Silent, &store).unwrap();
        assert!(store.kept.lock().unwrap().is_some(), "level +3 was offered");
        let resumed = solve_with_checkpoints(board(name), second, &Silent, &store).unwrap();
        assert_eq!(resumed.cell_form(), Some(second));
        assert!(
            encode(&resumed).0 == expected,
            "{first:?} then {second:?}: other table bytes"
        );
    }
}
