//! Probing smallgo's tables from Rust: a position drawn as a diagram, its
//! exact result at a komi, and the moves that keep it.
//!
//! `cargo run --release --example probe` reads a 3x3 position with Black to
//! move; `cargo run --release --example probe -- 4x4 "X...|.O..|....|...." 0.5`
//! reads the board, the rows top first (`X` the side to move, `O` the
//! other, `.` empty, rows split by `|`) and the komi from the command line.

use smallgo::analysis::{best_moves, outcome};
use smallgo::board::Board;
use smallgo::position::Position;
use smallgo::state::State;
use smallgo::table::library::Library;
use smallgo::value::Outcome;

fn main() {
    if let Err(error) = probe() {
        eprintln!("probe: {error}");
        std::process::exit(1);
    }
}

fn probe() -> Result<(), Box<dyn std::error::Error>> {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let (board, rows, komi) = match &arguments[..] {
        [] => ("3x3".to_string(), "X..|.O.|...".to_string(), 0.0),
        [board, rows, komi] => (board.clone(), rows.clone(), komi.parse()?),
        _ => return Err("usage: probe [RxC ROWS KOMI]".into()),
    };
    let board: Board = board.parse()?;
    let position = Position::from_diagram(&board, &rows.replace('|', "\n"))?;
    // A state: the stones, no ko point, no pass just played.
    let state = State::new(&board, position, None, false)?;

    // The built-in tables, and a solve on the spot for a small board
    // without one.
    let library = Library::new(None, false);
    let values = library
        .open(board)
        .ok_or_else(|| format!("no table of {board}: build it with `smallgo build {board}`"))?;

    let black_to_move = true;
    let result = outcome(&values, &state, komi, black_to_move)?;
    let text = match result {
        Outcome::MoverWins { margin, plies } => format!("Black wins by {margin} in {plies} plies"),
        Outcome::OpponentWins { margin, plies } => {
            format!("White wins by {margin} in {plies} plies")
        }
        Outcome::Draw => "a draw".to_string(),
    };
    println!("{board}, Black to move, komi {komi}: {text}");
    let best = best_moves(&values, &state, komi, black_to_move)?;
    let names: Vec<String> = best.iter().map(|mv| mv.name(&board)).collect();
    println!("moves that keep it: {}", names.join(" "));
    Ok(())
}
