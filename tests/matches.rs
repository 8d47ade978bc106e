//! Whole games played over GTP: smallgo against GNU Go on 3x3 and 4x4 (with
//! each colour, at komi 0 and one other komi), and smallgo against itself on
//! several boards, one of them non-square. This file owns the end-to-end
//! promise of the engine: a perfect player never finishes below the table's
//! value for its side, whatever the opponent does, and two perfect players
//! finish exactly on it. Each game runs through `support::twogtp` with a
//! separate smallgo process as referee, which judges legality and gives the
//! final score; the runner checks that score against its own count of the
//! board. The value each game is measured against is the referee's
//! `smallgo-value` before the first move, itself checked against the published
//! results (`docs/rules.md#results-the-tables-reproduce`) where those determine
//! it.
//!
//! GNU Go (Debian package `gnugo`, which CI installs) runs with area-scoring
//! options and `--never-resign`, so that it plays every game out; the tests
//! that need it fail if it is missing. Every game prints its moves and result
//! (`cargo test --release --test integration matches:: -- --nocapture`).

use crate::support::go_board::{Color, Shape};
use crate::support::gtp_engine::EngineCommand;
use crate::support::published;
use crate::support::twogtp::{score_text, Ending, Game, GameRecord, GameSetup};

/// The value the published results (`tests/published.csv`) fix for `shape` at
/// `komi`, if they fix one. At komi 0 it is the published result. A published
/// Black win by `x` means Black can force a margin of exactly `x` and no more,
/// so at any komi below `x` Black wins by `x - komi`; other komis depend on
/// what White can force, which is not published.
fn published_value(shape: Shape, komi: f64) -> Option<f64> {
    let name = format!("{}x{}", shape.rows, shape.columns);
    let at_komi_0 = published::black_margin(published::result(&name)?);
    if komi == 0.0 {
        Some(at_komi_0)
    } else if at_komi_0 > 0.0 && komi < at_komi_0 {
        Some(at_komi_0 - komi)
    } else {
        None
    }
}

fn smallgo() -> EngineCommand {
    EngineCommand::smallgo(&[])
}

/// GNU Go with area scoring, playing every game out, the same way each
/// time; the test fails if it is missing.
fn gnugo() -> EngineCommand {
    EngineCommand::gnugo(&[
        "--mode",
        "gtp",
        // Area scoring, and capture dead stones before passing, since
        // the referee removes nothing as dead.
        "--chinese-rules",
        "--capture-all-dead",
        // Play every game out: GNU Go resigns as White on 3x3 at once.
        "--never-resign",
        // Its default seed comes from the clock; fix it so games repeat.
        "--seed",
        "1",
    ])
}

/// Plays one game and prints it. Panics only if the match itself broke (an
/// engine died or hung); the result is checked by the caller.
fn play(setup: &GameSetup) -> (f64, GameRecord) {
    let mut game = Game::start(setup).unwrap_or_else(|error| panic!("setting up: {error}"));
    let value = game
        .referee_value()
        .unwrap_or_else(|error| panic!("asking the value: {error}"));
    let record = game
        .play()
        .unwrap_or_else(|error| panic!("playing {} komi {}: {error}", setup.shape, setup.komi));
    println!("{record}   table value {}\n", score_text(value));
    (value, record)
}

/// The checks every game must pass, whoever plays: it ended on the board or
/// by a resignation or forfeit, within the move limit, and after passes or a
/// repetition the referee's score is the runner's own count. The published
/// result, where it fixes the value, must be the referee's value.
fn check_game(value: f64, record: &GameRecord, shape: Shape) -> Vec<String> {
    let mut faults = Vec::new();
    if record.ending == Ending::MoveLimit {
        faults.push("the move limit was reached".to_string());
    }
    if record.referee_score.is_some()
        && record.counted_score.is_some()
        && record.referee_score != record.counted_score
    {
        faults.push(format!(
            "the referee's final_score {:?} is not the runner's count {:?} of the final board",
            record.referee_score, record.counted_score
        ));
    }
    if let Some(published) = published_value(shape, record.komi) {
        if value != published {
            faults.push(format!(
                "the referee's smallgo-value {} is not the published {}",
                score_text(value),
                score_text(published)
            ));
        }
    }
    faults
}

/// A game between smallgo (as `smallgo_color`) and GNU Go: smallgo must
/// never play an illegal move and never finish below its table value.
fn check_against_gnugo(
    value: f64,
    record: &GameRecord,
    shape: Shape,
    smallgo_color: Color,
) -> Vec<String> {
    let mut faults = check_game(value, record, shape);
    if let Ending::Forfeit { by, .. } | Ending::Resignation { by } = &record.ending {
        if *by == smallgo_color {
            faults.push(format!(
                "smallgo ({smallgo_color}) lost by {:?}",
                record.ending
            ));
        }
    }
    if let Some(result) = record.black_result() {
        let holds = match smallgo_color {
            Color::Black => result >= value,
            Color::White => result <= value,
        };
        if !holds {
            faults.push(format!(
                "smallgo ({smallgo_color}) finished at {}, worse for it than the table value {}",
                score_text(result),
                score_text(value)
            ));
        }
    }
    faults
}

/// Gathers faults by game and fails once with all of them.
fn report(faults: Vec<(String, Vec<String>)>) {
    let failed: Vec<String> = faults
        .into_iter()
        .filter(|(_, faults)| !faults.is_empty())
        .map(|(game, faults)| format!("{game}:\n  - {}", faults.join("\n  - ")))
        .collect();
    assert!(
        failed.is_empty(),
        "{} game(s) failed (moves are printed above):\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// smallgo against GNU Go on `shape` at each komi, with each colour.
fn against_gnugo(shape: Shape, komis: &[f64]) {
    let gnugo = gnugo();
    let mut faults = Vec::new();
    for &komi in komis {
        for smallgo_color in [Color::Black, Color::White] {
            let (black, white) = match smallgo_color {
                Color::Black => (smallgo(), gnugo.clone()),
                Color::White => (gnugo.clone(), smallgo()),
            };
            let setup = GameSetup {
                shape,
                komi,
                black,
                white,
                referee: smallgo(),
            };
            let (value, record) = play(&setup);
            let found = check_against_gnugo(value, &record, shape, smallgo_color);
            faults.push((record.title, found));
        }
    }
    report(faults);
}

#[test]
fn smallgo_never_does_worse_than_the_table_against_gnugo_on_3x3() {
    against_gnugo(Shape::new(3, 3), &[0.0, 6.5]);
}

#[test]
fn smallgo_never_does_worse_than_the_table_against_gnugo_on_4x4() {
    against_gnugo(Shape::new(4, 4), &[0.0, 2.5]);
}

#[test]
fn smallgo_against_itself_finishes_exactly_on_the_table_value() {
    let games = [
        (Shape::new(2, 3), 0.0),
        (Shape::new(2, 4), 0.0),
        // Non-square: `rectangular_boardsize 5 2`.
        (Shape::new(2, 5), 0.0),
        (Shape::new(3, 3), 0.0),
        (Shape::new(3, 3), 6.5),
        // Above Black's 9 points: White's side of the table decides.
        (Shape::new(3, 3), 9.5),
        (Shape::new(3, 4), 0.0),
        (Shape::new(3, 4), 6.5),
        (Shape::new(4, 4), 0.0),
        (Shape::new(4, 4), 2.5),
    ];
    let mut faults = Vec::new();
    for (shape, komi) in games {
        let setup = GameSetup {
            shape,
            komi,
            black: smallgo(),
            white: smallgo(),
            referee: smallgo(),
        };
        let (value, record) = play(&setup);
        let mut found = check_game(value, &record, shape);
        if record.black_result() != Some(value) {
            found.push(format!(
                "self-play finished at {} (ending {:?}), not the table value {}",
                record
                    .black_result()
                    .map_or("no result".to_string(), score_text),
                record.ending,
                score_text(value)
            ));
        }
        faults.push((record.title, found));
    }
    report(faults);
}
