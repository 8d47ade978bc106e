//! Play under superko over GTP (`smallgo-rules`), held against the
//! command line's own solve: on every board here, the value `smallgo-value`
//! gives after each opening is the one `smallgo analyze rules RxC --json`
//! prints for it, and a game from that opening in which the engine plays
//! both sides with `genmove` keeps that value at every move (each move is
//! one of the mover's best) and ends, by two passes, with it as the score.
//! A refused placement leaves the game as it was (`printsgf` before and
//! after).

use serde_json::Value as Json;

use crate::support::command::smallgo;
use crate::support::gtp_engine::{EngineCommand, GtpEngine};

/// More turns than any game on these boards lasts with best play.
const TURN_LIMIT: usize = 200;

/// `final_score`'s text of Black's margin at komi 0.
fn score_text(black_margin: i64) -> String {
    match black_margin {
        0 => "0".to_string(),
        m if m > 0 => format!("B+{m}"),
        m => format!("W+{}", -m),
    }
}

/// The superko value of each opening by `analyze rules`: its point and
/// Black's margin.
fn analyzed_openings(board: &str) -> Vec<(String, i64)> {
    let outcome = smallgo(&["analyze", "rules", board, "--json"]);
    assert!(outcome.status.success(), "{}", outcome.stderr);
    let json: Json = serde_json::from_str(&outcome.stdout).expect("analyze rules' JSON");
    json["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(|row| {
            let point = row["point"].as_str()?;
            Some((point.to_string(), row["superko"].as_i64().expect("a value")))
        })
        .collect()
}

fn started(size: &str) -> GtpEngine {
    let mut engine =
        GtpEngine::start(&EngineCommand::smallgo(&[]), "smallgo", None).expect("the engine");
    for command in [size, "komi 0", "smallgo-rules positional-superko 20"] {
        engine.expect_success(command).unwrap();
    }
    engine
}

/// Every opening's value over GTP, and a game from each with `genmove`
/// on both sides: the value at every move, and the final score.
fn openings_and_games_agree(board: &str, size: &str) {
    let openings = analyzed_openings(board);
    assert!(!openings.is_empty(), "{board}: no opening");
    let mut engine = started(size);
    for (point, black_margin) in openings {
        let expected = score_text(black_margin);
        engine.expect_success("clear_board").unwrap();
        engine.expect_success(&format!("play b {point}")).unwrap();
        let mut colour = "w";
        let mut passes = 0;
        for turn in 0.. {
            let value = engine.expect_success("smallgo-value").unwrap();
            assert_eq!(
                value, expected,
                "{board} after B {point} and {turn} moves of genmove"
            );
            assert!(
                turn < TURN_LIMIT,
                "{board}: the game from {point} lasts over {TURN_LIMIT} turns"
            );
            let mv = engine.expect_success(&format!("genmove {colour}")).unwrap();
            colour = if colour == "w" { "b" } else { "w" };
            passes = if mv == "pass" { passes + 1 } else { 0 };
            if passes == 2 {
                break;
            }
        }
        // Two passes ended the game: its score is the value.
        assert_eq!(
            engine.expect_success("final_score").unwrap(),
            expected,
            "{board}: the game from {point}"
        );
        let reply = engine.reply_to(&format!("play {colour} pass")).unwrap();
        assert!(reply.text().contains("two passes have ended the game"));
    }
}

#[test]
fn values_and_games_over_gtp_agree_with_analyze_rules_on_1x6() {
    openings_and_games_agree("1x6", "rectangular_boardsize 6 1");
}

#[test]
fn values_and_games_over_gtp_agree_with_analyze_rules_on_2x3() {
    openings_and_games_agree("2x3", "rectangular_boardsize 3 2");
}

#[test]
fn a_refused_placement_leaves_the_game_as_it_was() {
    let mut engine = started("rectangular_boardsize 3 1");
    for command in ["play b A1", "play w C1", "play b B1", "play w C1"] {
        engine.expect_success(command).unwrap();
    }
    let before = engine.expect_success("printsgf").unwrap();
    let reply = engine.reply_to("play b A1").unwrap();
    assert!(!reply.success());
    assert!(
        reply
            .text()
            .contains("would recreate a position seen before"),
        "{}",
        reply.text()
    );
    assert_eq!(engine.expect_success("printsgf").unwrap(), before);
    // The same placement is legal under loop-draw, and switching back is
    // then refused, the rules unchanged.
    engine.expect_success("smallgo-rules loop-draw").unwrap();
    engine.expect_success("play b A1").unwrap();
    let after = engine.expect_success("printsgf").unwrap();
    assert!(!engine
        .reply_to("smallgo-rules positional-superko")
        .unwrap()
        .success());
    assert_eq!(engine.expect_success("smallgo-rules").unwrap(), "loop-draw");
    assert_eq!(engine.expect_success("printsgf").unwrap(), after);
}
