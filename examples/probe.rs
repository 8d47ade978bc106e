//! Probing smallgo's tables from Rust: a position drawn as a diagram, its
//! exact result at a komi, and the moves that keep it.
//!
//! `cargo run --release --example probe` reads a 3x3 position with Black to
//! move; `cargo run --release --example probe -- 4x4 "X...|.O..|....|...." 0.5`
//! reads the board, the rows top first (`X` the side to move, `O` the
//! other, `.` empty, rows split by `|`) and the komi from the command line;
//! `-- 4x4 ROWS KOMI DIR` adds a folder of tables built by `smallgo build`.

use std::error::Error;
use std::path::Path;

use smallgo::{Board, BoardState, Colour, Outcome, Position, Tablebase};

fn main() {
    if let Err(error) = probe() {
        eprintln!("probe: {}", chain(error.as_ref()));
        std::process::exit(1);
    }
}

/// An error, then what caused it, and so on: smallgo's errors that wrap
/// another say only what they add, and give the other as `source()`.
fn chain(error: &dyn Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    text
}

fn probe() -> Result<(), Box<dyn Error>> {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let (board, rows, komi, folder) = match &arguments[..] {
        [] => ("3x3", "X..|.O.|...", 0.0, None),
        [board, rows, komi] => (&board[..], &rows[..], komi.parse()?, None),
        [board, rows, komi, folder] => (&board[..], &rows[..], komi.parse()?, Some(folder)),
        _ => return Err("usage: probe [RxC ROWS KOMI [DIR]]".into()),
    };
    let board: Board = board.parse()?;
    let position = Position::from_diagram(&board, &rows.replace('|', "\n"))?;
    // A state: the stones, no ko point, no pass just played.
    let state = BoardState::new(board, position, None, false)?;

    // The built-in tables, a folder's if given, and a solve on the spot
    // for a small board without one.
    let mut tables = Tablebase::new();
    if let Some(folder) = folder {
        for refused in tables.add_directory(Path::new(folder))? {
            eprintln!("probe: {}", chain(&refused));
        }
    }
    let values = tables.values(board)?;

    let mover = Colour::Black;
    let text = match values.outcome(&state, komi, mover)? {
        Outcome::MoverWins { margin, plies } => format!("Black wins by {margin} in {plies} plies"),
        Outcome::OpponentWins { margin, plies } => {
            format!("White wins by {margin} in {plies} plies")
        }
        Outcome::Draw => "a draw".to_string(),
    };
    println!("{board}, Black to move, komi {komi}: {text}");
    let best = values.best_moves(&state, komi, mover)?;
    let names: Vec<String> = best.iter().map(|mv| mv.name(&board)).collect();
    println!("moves that keep it: {}", names.join(" "));
    println!("values from: {}", values.description());
    Ok(())
}
