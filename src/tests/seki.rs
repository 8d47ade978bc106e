//! The seki census (`analyze seki`): its counts on 2x3 and 3x3 against a
//! brute force that reads no table (the reference solver's own game graph
//! and fixpoint values, with the criteria applied to them directly), for
//! both orders of moves, both readings of the criteria and three komis.

use std::collections::HashSet;

use crate::analyses::seki::{census, seki_shape, Best, Criteria, DenseValues, Reading, Tally};
use crate::rules::board::Board;
use crate::symmetry::symmetries;
use crate::table::library::Tablebase;
use crate::tests::support::reference::{ColouredState, ReferenceGame, ReferenceValue, Successor};

#[derive(Clone, Copy, Debug)]
enum Order {
    Score,
    Result,
}

/// What a move leads to for `black` (Black when true): (2 win, 1 draw,
/// 0 loss; margin in half points, komi included, negative for a loss).
fn rate(
    values: &[ReferenceValue],
    successor: Successor,
    black: bool,
    komi_halves: i32,
) -> (i32, i32) {
    match successor {
        Successor::End { black_margin } => {
            let for_black = 2 * black_margin - komi_halves;
            let mine = if black { for_black } else { -for_black };
            (mine.signum() + 1, mine)
        }
        Successor::State(c) => {
            let value = values[c];
            let (mine, theirs) = if black {
                (value.black, value.white)
            } else {
                (value.white, value.black)
            };
            match (mine, theirs) {
                (Some(m), _) if m.half_points > 0 => (2, m.half_points),
                (_, Some(t)) if t.half_points > 0 => (0, -t.half_points),
                _ => (1, 0),
            }
        }
    }
}

/// What a lost mover needs: pass among the best moves (`Some(true)`),
/// nothing (`None`), or pass the only best move as anyone (`Some(false)`).
type Lost = Option<bool>;

/// Criteria 2 and 3 for the mover of state `s`, straight from the graph.
fn pass_is_best(
    game: &ReferenceGame,
    values: &[ReferenceValue],
    s: usize,
    komi_halves: i32,
    order: Order,
    lost: Lost,
) -> bool {
    let black = game.states[s].black_to_move;
    let keys: Vec<(i32, i32)> = game.successors[s]
        .iter()
        .map(|&successor| {
            let (class, margin) = rate(values, successor, black, komi_halves);
            match order {
                Order::Score => (class, margin),
                Order::Result => (class, 0),
            }
        })
        .collect();
    let best = *keys.iter().max().unwrap();
    // Pass is the last move listed.
    let pass = *keys.last().unwrap();
    let equal = keys.iter().filter(|&&k| k == best).count();
    if keys.len() < 2 {
        return false;
    }
    match (best.0 == 0, lost) {
        (true, None) => true,
        (true, Some(true)) => pass == best,
        _ => pass == best && equal == 1,
    }
}

fn brute_seki(
    game: &ReferenceGame,
    values: &[ReferenceValue],
    s: usize,
    komi_halves: i32,
    order: Order,
    reading: Reading,
) -> bool {
    let (own, after_pass) = match reading {
        Reading::Ours => (Some(true), Some(true)),
        Reading::Written => (Some(true), Some(false)),
        Reading::LostEnough => (None, Some(false)),
    };
    if game.states[s].passed || !pass_is_best(game, values, s, komi_halves, order, own) {
        return false;
    }
    match *game.successors[s].last().unwrap() {
        Successor::State(after) => {
            pass_is_best(game, values, after, komi_halves, order, after_pass)
        }
        Successor::End { .. } => false,
    }
}

/// A state's class under the board's symmetries, from the mover's view.
fn canonical(board: &Board, state: &ColouredState) -> (u64, u64, Option<usize>) {
    let mover = state.mover_view();
    symmetries(board)
        .iter()
        .map(|symmetry| {
            (
                symmetry.apply_set(mover.position().us()).0,
                symmetry.apply_set(mover.position().them()).0,
                mover.ko().map(|k| symmetry.apply(k).index()),
            )
        })
        .min()
        .unwrap()
}

/// Brute-force figures in the units of the census's tally: canonical
/// states and images with Black, then White, to move; coloured boards.
#[derive(Debug, Default, PartialEq, Eq)]
struct Figures {
    black_to_move: u64,
    white_to_move: u64,
    black_to_move_images: u64,
    white_to_move_images: u64,
    boards: u64,
}

fn brute_force(
    board: &Board,
    komi_halves: i32,
    order: Order,
    reading: Reading,
    strict: bool,
) -> Figures {
    let game = ReferenceGame::explore(board);
    let values = game.solve(komi_halves);
    let mut classes = [HashSet::new(), HashSet::new()];
    let mut images = [0u64; 2];
    let mut boards = HashSet::new();
    for (s, state) in game.states.iter().enumerate() {
        if !brute_seki(&game, &values, s, komi_halves, order, reading) {
            continue;
        }
        if strict && !seki_shape(board, &state.mover_view().position()) {
            continue;
        }
        let colour = usize::from(!state.black_to_move);
        images[colour] += 1;
        classes[colour].insert(canonical(board, state));
        for symmetry in symmetries(board) {
            boards.insert((
                symmetry.apply_set(state.black).0,
                symmetry.apply_set(state.white).0,
            ));
        }
    }
    Figures {
        black_to_move: classes[0].len() as u64,
        white_to_move: classes[1].len() as u64,
        black_to_move_images: images[0],
        white_to_move_images: images[1],
        boards: boards.len() as u64,
    }
}

/// The census's tally in the brute force's units.
fn census_figures(tally: &Tally) -> Figures {
    Figures {
        black_to_move: tally.states[0],
        white_to_move: tally.states[1],
        black_to_move_images: tally.images[0],
        white_to_move_images: tally.images[1],
        boards: tally.boards,
    }
}

#[test]
fn counts_on_2x3_and_3x3_match_a_brute_force() {
    let mut written_found = 0;
    for name in ["2x3", "3x3"] {
        let board: Board = name.parse().unwrap();
        for (komi, komi_halves) in [("0", 0), ("0.5", 1), ("-2", -4)] {
            for (order, best) in [(Order::Score, Best::Score), (Order::Result, Best::Result)] {
                for reading in [Reading::Ours, Reading::Written, Reading::LostEnough] {
                    let table = Tablebase::with_sources(None, false).table(board).unwrap();
                    let values = DenseValues::from_table(&table).unwrap();
                    let komi: f64 = komi.parse().unwrap();
                    let criteria = Criteria {
                        komi,
                        best,
                        reading,
                    };
                    let census = census(&values, criteria, 0).unwrap();
                    let what = format!(
                        "{name} komi {komi} by {}, read {}",
                        best.name(),
                        reading.name()
                    );
                    let thesis = brute_force(&board, komi_halves, order, reading, false);
                    assert_eq!(census_figures(&census.thesis), thesis, "{what}");
                    // Read word for word, a seki whose opponent loses after
                    // the pass is none, so a komi may leave none on 2x3.
                    match reading {
                        Reading::Ours => assert!(thesis.black_to_move > 0, "{what}: some seki"),
                        Reading::Written | Reading::LostEnough => {
                            written_found += thesis.black_to_move + thesis.white_to_move
                        }
                    }
                    let strict = brute_force(&board, komi_halves, order, reading, true);
                    assert_eq!(census_figures(&census.strict), strict, "{what}");
                }
            }
        }
    }
    assert!(written_found > 0, "the written reading finds seki");
}
