//! The analysis commands agree with `genmove` on every position reachable on
//! several small boards, at several komis, draws included: the move
//! `genmove` plays is `order 0` in `kata-analyze` (pass written `move
//! pass`), is among `smallgo-best-moves`, and is marked by
//! `smallgo-move-values`; and the best moves are exactly those that
//! `kata-analyze` rates as high as its first. Circular boards too, where
//! moves and captures cross the seam.

use std::collections::HashSet;

use crate::gtp::engine::{Engine, Reply, Settings};
use crate::table::library::Tablebase;

fn answer(engine: &mut Engine, command: &str) -> Result<String, String> {
    let words: Vec<&str> = command.split_whitespace().collect();
    match engine.execute(words[0], &words[1..]) {
        Reply::Success(text) => Ok(text),
        Reply::Failure(text) => Err(text),
        other => panic!("{command}: {other:?}"),
    }
}

/// `(move, winrate, scoreLead, order)` of each `info` entry.
fn kata_entries(engine: &mut Engine, side: &str) -> Vec<(String, String, String, usize)> {
    let request = match engine.execute("kata-analyze", &[side]) {
        Reply::Analyze(request) => request,
        other => panic!("kata-analyze {side}: {other:?}"),
    };
    let line = engine.analyze_line(&request).unwrap();
    line.split("info ")
        .filter(|entry| !entry.trim().is_empty())
        .map(|entry| {
            let words: Vec<&str> = entry.split_whitespace().collect();
            let field = |key: &str| {
                let at = words.iter().position(|w| *w == key).unwrap();
                words[at + 1].to_string()
            };
            (
                field("move"),
                field("winrate"),
                field("scoreLead"),
                field("order").parse().unwrap(),
            )
        })
        .collect()
}

/// Checks one position at every komi; returns the legal moves of the side
/// to move.
fn check_position(engine: &mut Engine, side: &str, vertices: &[String], line: &str) -> Vec<String> {
    let mut legal: Vec<String> = Vec::new();
    for vertex in vertices.iter().map(String::as_str).chain(["pass"]) {
        if answer(engine, &format!("play {side} {vertex}")).is_ok() {
            legal.push(vertex.to_string());
            answer(engine, "undo").unwrap();
        }
    }
    let colour = if side == "b" { "black" } else { "white" };
    for komi in ["0", "0.5", "-1", "2", "3.5", "-6.5"] {
        answer(engine, &format!("komi {komi}")).unwrap();
        let context = format!("after [{line}] at komi {komi}, {side} to move");
        let chosen = answer(engine, &format!("reg_genmove {side}")).unwrap();
        let entries = kata_entries(engine, side);
        assert_eq!(entries[0].0, chosen, "{context}: kata-analyze order 0");
        assert!(
            entries.iter().enumerate().all(|(i, e)| e.3 == i),
            "{context}"
        );
        let listed: HashSet<&str> = entries.iter().map(|e| e.0.as_str()).collect();
        let legal_set: HashSet<&str> = legal.iter().map(String::as_str).collect();
        assert_eq!(
            listed, legal_set,
            "{context}: kata-analyze lists every legal move"
        );
        assert_eq!(listed.len(), entries.len(), "{context}: once each");
        let best: Vec<String> = answer(engine, &format!("smallgo-best-moves {side}"))
            .unwrap()
            .split_whitespace()
            .map(str::to_string)
            .collect();
        assert!(
            best.contains(&chosen),
            "{context}: {chosen} not in {best:?}"
        );
        let as_good: HashSet<&str> = entries
            .iter()
            .filter(|e| (&e.1, &e.2) == (&entries[0].1, &entries[0].2))
            .map(|e| e.0.as_str())
            .collect();
        let best_set: HashSet<&str> = best.iter().map(String::as_str).collect();
        assert_eq!(best_set, as_good, "{context}: best moves");
        let gfx = answer(engine, &format!("smallgo-move-values {side}")).unwrap();
        let marked = if chosen == "pass" {
            gfx.contains(&format!("TEXT {colour} plays pass "))
        } else {
            gfx.lines().any(|l| l == format!("MARK {chosen}"))
        };
        assert!(marked, "{context}: {chosen} not marked in\n{gfx}");
    }
    legal
}

/// Every position reachable by play from the empty board, each visited
/// once (keyed by the board, the side to move and the last two moves, which
/// settle passes and ko), stopping where the game is over.
fn explore(
    engine: &mut Engine,
    vertices: &[String],
    line: &mut Vec<String>,
    seen: &mut HashSet<String>,
) {
    let side = if line.len().is_multiple_of(2) {
        "b"
    } else {
        "w"
    };
    let board = answer(engine, "showboard").unwrap();
    let recent: Vec<&String> = line.iter().rev().take(2).collect();
    if !seen.insert(format!("{board}|{side}|{recent:?}")) {
        return;
    }
    // A game over (two passes, a repetition) has nothing to analyse.
    if kata_entries(engine, side).is_empty() {
        return;
    }
    let legal = check_position(engine, side, vertices, &line.join(" "));
    for vertex in legal {
        answer(engine, &format!("play {side} {vertex}")).unwrap();
        line.push(vertex);
        explore(engine, vertices, line, seen);
        line.pop();
        answer(engine, "undo").unwrap();
    }
}

fn check_board(columns: u32, rows: u32, letters: &str) -> usize {
    check_board_of(columns, rows, letters, "plain")
}

/// `check_board` on a board of `topology` (`plain` or `circular`).
fn check_board_of(columns: u32, rows: u32, letters: &str, topology: &str) -> usize {
    let mut engine = Engine::new(Tablebase::with_sources(None, false), Settings::default());
    answer(&mut engine, &format!("smallgo-topology {topology}")).unwrap();
    answer(
        &mut engine,
        &format!("rectangular_boardsize {columns} {rows}"),
    )
    .unwrap();
    let vertices: Vec<String> = (1..=rows)
        .flat_map(|row| {
            letters
                .chars()
                .take(columns as usize)
                .map(move |c| format!("{c}{row}"))
        })
        .collect();
    let mut seen = HashSet::new();
    explore(&mut engine, &vertices, &mut Vec::new(), &mut seen);
    eprintln!("{columns}x{rows} {topology}: {} positions", seen.len());
    seen.len()
}

#[test]
fn analysis_agrees_with_genmove_on_every_position_of_2x2() {
    assert!(check_board(2, 2, "AB") > 10);
}

#[test]
fn analysis_agrees_with_genmove_on_every_position_of_1x5() {
    assert!(check_board(5, 1, "ABCDE") > 10);
}

#[test]
fn analysis_agrees_with_genmove_on_every_position_of_2x3() {
    assert!(check_board(3, 2, "ABC") > 10);
}

#[test]
fn analysis_agrees_with_genmove_on_every_position_of_1x5c() {
    assert!(check_board_of(5, 1, "ABCDE", "circular") > 10);
}

#[test]
fn analysis_agrees_with_genmove_on_every_position_of_2x3c() {
    assert!(check_board_of(3, 2, "ABC", "circular") > 10);
}
