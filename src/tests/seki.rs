//! `smallgo analyze seki` as a user meets it: its counts on 2x3 and 3x3
//! against a brute force that reads no table (the reference solver's own
//! game graph and fixpoint values, with the criteria applied to them
//! directly), the report and its examples, `--tables DIR`, and bad
//! arguments.

mod support;

use std::collections::HashSet;

use regex::Regex;
use smallgo::board::Board;
use smallgo::reference::{ColouredState, ReferenceGame, ReferenceValue, Successor};
use smallgo::seki::seki_shape;
use smallgo::symmetry::symmetries;
use support::command::smallgo;

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

/// Criteria 2 and 3 for the mover of state `s`, straight from the graph.
fn pass_is_best(
    game: &ReferenceGame,
    values: &[ReferenceValue],
    s: usize,
    komi_halves: i32,
    order: Order,
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
    keys.len() > 1 && pass == best && (equal == 1 || best.0 == 0)
}

fn brute_seki(
    game: &ReferenceGame,
    values: &[ReferenceValue],
    s: usize,
    komi_halves: i32,
    order: Order,
) -> bool {
    if game.states[s].passed || !pass_is_best(game, values, s, komi_halves, order) {
        return false;
    }
    match *game.successors[s].last().unwrap() {
        Successor::State(after) => pass_is_best(game, values, after, komi_halves, order),
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

/// Brute-force figures in the units of the census's JSON: canonical
/// states and images with Black, then White, to move; coloured boards.
#[derive(Debug, Default, PartialEq, Eq)]
struct Figures {
    black_to_move: u64,
    white_to_move: u64,
    black_to_move_images: u64,
    white_to_move_images: u64,
    boards: u64,
}

fn brute_force(board: &Board, komi_halves: i32, order: Order, strict: bool) -> Figures {
    let game = ReferenceGame::explore(board);
    let values = game.solve(komi_halves);
    let mut classes = [HashSet::new(), HashSet::new()];
    let mut images = [0u64; 2];
    let mut boards = HashSet::new();
    for (s, state) in game.states.iter().enumerate() {
        if !brute_seki(&game, &values, s, komi_halves, order) {
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

fn json_figures(json: &str, which: &str) -> Figures {
    let pattern = Regex::new(&format!(
        r#""{which}": \{{"black_to_move": (\d+), "white_to_move": (\d+), "black_to_move_images": (\d+), "white_to_move_images": (\d+), "coloured_states": \d+, "coloured_images": \d+, "boards": (\d+)"#
    ))
    .unwrap();
    let found = pattern
        .captures(json)
        .unwrap_or_else(|| panic!("no {which} tally in {json}"));
    let number = |i: usize| found[i].parse::<u64>().unwrap();
    Figures {
        black_to_move: number(1),
        white_to_move: number(2),
        black_to_move_images: number(3),
        white_to_move_images: number(4),
        boards: number(5),
    }
}

#[test]
fn counts_on_2x3_and_3x3_match_a_brute_force() {
    for name in ["2x3", "3x3"] {
        let board: Board = name.parse().unwrap();
        for (komi, komi_halves) in [("0", 0), ("0.5", 1), ("-2", -4)] {
            for (order, best) in [(Order::Score, "score"), (Order::Result, "result")] {
                let output = smallgo(&[
                    "analyze", "seki", name, "--json", "--komi", komi, "--best", best,
                ]);
                assert!(output.status.success(), "{}", output.stderr);
                let json = output.stdout;
                let what = format!("{name} komi {komi} by {best}");
                let thesis = brute_force(&board, komi_halves, order, false);
                assert_eq!(json_figures(&json, "thesis"), thesis, "{what}");
                assert!(thesis.black_to_move > 0, "{what}: some seki");
                let strict = brute_force(&board, komi_halves, order, true);
                assert_eq!(json_figures(&json, "strict"), strict, "{what}");
            }
        }
    }
}

#[test]
fn the_report_shows_the_2x3_seki() {
    let output = smallgo(&["analyze", "seki", "2x3"]);
    assert!(output.status.success(), "{}", output.stderr);
    let report = output.stdout;
    assert!(report.contains("board     2x3"), "{report}");
    assert!(
        report.contains("1 with Black to move, 1 with White to move"),
        "{report}"
    );
    // The one seki of 2x3: two columns sharing the middle two liberties,
    // drawn as showboard draws it.
    assert!(
        report.contains("   A B C\n2 O . X 2\n1 O . X 1\n   A B C"),
        "{report}"
    );
}

#[test]
fn tables_from_a_folder_are_read_and_turned_boards_served() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().to_str().unwrap();
    let built = smallgo(&["build", "3x3", "--tables", path]);
    assert!(built.status.success(), "{}", built.stderr);
    let from_folder = smallgo(&["analyze", "seki", "3x3", "--json", "--tables", path]);
    assert!(from_folder.status.success(), "{}", from_folder.stderr);
    let built_in = smallgo(&["analyze", "seki", "3x3", "--json"]);
    let (a, b) = (from_folder.stdout, built_in.stdout);
    assert!(a.contains("3x3.sgtb"), "{a}");
    assert_eq!(
        json_figures(&a, "thesis"),
        json_figures(&b, "thesis"),
        "the file and the built-in table agree"
    );
    // 3x2 is 2x3 turned: the same counts.
    let turned = smallgo(&["analyze", "seki", "3x2", "--json"]).stdout;
    let plain = smallgo(&["analyze", "seki", "2x3", "--json"]).stdout;
    assert_eq!(
        json_figures(&turned, "thesis"),
        json_figures(&plain, "thesis")
    );
    assert!(turned.contains(r#""board": "3x2", "table_board": "2x3""#));
}

#[test]
fn bad_arguments_are_refused_with_a_message() {
    let missing = tempfile::tempdir().unwrap().path().join("missing");
    let missing = missing.to_str().unwrap().to_string();
    for (arguments, code, said) in [
        (vec!["5x5"], 1, "no table of board 5x5"),
        (vec!["2x9"], 1, "build it with `smallgo build 2x9`"),
        (vec!["0x3"], 2, "board 0x3 is not allowed"),
        (vec!["foo"], 2, "'foo' is not a board"),
        (vec![], 2, "RxC"),
        (vec!["3x3", "--komi", "x"], 2, "'x' is not a finite number"),
        (vec!["3x3", "--komi", "inf"], 2, "not a finite number"),
        (vec!["3x3", "--best", "fast"], 2, "invalid value 'fast'"),
        (vec!["3x3", "--examples=-1"], 2, "--examples"),
        (vec!["3x3", "--tables", &missing], 1, "does not exist"),
    ] {
        let mut full = vec!["analyze", "seki"];
        full.extend(arguments.iter().copied());
        let output = smallgo(&full);
        let message = output.stderr;
        assert_eq!(output.status.code(), Some(code), "{arguments:?}: {message}");
        assert!(message.contains(said), "{arguments:?}: {message}");
        assert!(!message.contains("panicked"), "{message}");
        assert!(output.stdout.is_empty(), "{arguments:?}");
    }
}
