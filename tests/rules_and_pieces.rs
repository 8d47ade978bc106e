//! `analyze piece` and `analyze rules` driven as a script drives them:
//! their `--json` lines held against `analyze position`, which reads the
//! same boards' values its own way (a diagram on a piece, moves on a line).

use serde_json::Value as Json;

use crate::json::{object, objects};
use crate::support::command::{smallgo, Smallgo};

/// Black's margin of a `result` object: positive when Black wins.
fn black_margin(result: &Json) -> i64 {
    let margin = result["margin"].as_i64().unwrap();
    match result["winner"].as_str() {
        Some("black") => margin,
        Some("white") => -margin,
        _ => 0,
    }
}

/// Every class of the 2x2 open and edge pieces: its `{l|r}` pair is the
/// result of `analyze position` on the class's diagram with Black, then
/// White, to move, where the pair says the game ends.
#[test]
fn a_pieces_pairs_are_the_results_of_its_positions() {
    for piece in ["2x2-open", "2x2-edge"] {
        let output = smallgo(&["analyze", "piece", piece, "--json"]);
        assert!(output.status.success(), "{}", output.stderr);
        let lines = objects(&output.stdout);
        assert_eq!(lines[0]["kind"], "piece");
        let classes = &lines[1..];
        assert_eq!(classes.len() as u64, lines[0]["classes"].as_u64().unwrap());
        let mut batch = String::new();
        for class in classes {
            assert_eq!(class["kind"], "piece-class");
            let diagram = class["diagram"].as_str().unwrap();
            for colour in ["black", "white"] {
                batch.push_str(&format!("{piece} --diagram {diagram} --to-move {colour}\n"));
            }
        }
        let positions = Smallgo::new(&["analyze", "position", "--batch", "-", "--json"])
            .input(&batch)
            .run();
        assert!(positions.status.success(), "{}", positions.stderr);
        let positions = objects(&positions.stdout);
        assert_eq!(positions.len(), 2 * classes.len());
        let mut compared = 0;
        for (class, pair) in classes.iter().zip(positions.chunks(2)) {
            for (key, position) in [("l", &pair[0]), ("r", &pair[1])] {
                assert_eq!(position["kind"], "position", "{position}");
                if let Some(value) = class[key].as_i64() {
                    // A pair's value is komi 0's result, and a draw by
                    // endless play is no value of the pair.
                    assert_eq!(
                        value,
                        black_margin(&position["result"]),
                        "{piece} {key}: {class}\n{position}"
                    );
                    compared += 1;
                }
            }
        }
        assert!(
            compared >= classes.len(),
            "{piece}: {compared} values compared"
        );
    }
}

/// Every row of `analyze rules 1x4`: its loop-draw result is what
/// `analyze position` gives for the same opening, and under superko the
/// empty board is worth the best opening or 0, whichever is more.
#[test]
fn the_rule_sets_rows_agree_with_analyze_position() {
    let rules = object(&smallgo(&["analyze", "rules", "1x4", "--json"]), "rules");
    let rows = rules["rows"].as_array().unwrap();
    // The empty board, then the openings up to the line's mirror: A1, B1.
    assert_eq!(rows.len(), 1 + 2);
    assert!(rows[0]["point"].is_null());
    for row in rows {
        let mut arguments = vec!["analyze", "position", "1x4", "--json"];
        if let Some(point) = row["point"].as_str() {
            arguments.push(point);
        }
        let position = object(&smallgo(&arguments), "position");
        let loop_draw = &row["loop_draw"];
        assert_eq!(
            loop_draw["black_can_force"]["margin"], position["value"]["black_can_force"]["margin"],
            "{row}"
        );
        assert_eq!(
            loop_draw["result"].as_i64().unwrap(),
            black_margin(&position["result"]),
            "{row}"
        );
    }
    let best_opening = rows[1..]
        .iter()
        .map(|r| r["superko"].as_i64().unwrap())
        .max()
        .unwrap();
    assert_eq!(rows[0]["superko"].as_i64().unwrap(), best_opening.max(0));
}

/// With `--tables DIR` holding the piece's table (`smallgo build
/// RxC-KIND`), `analyze piece` reads it instead of solving in memory, read
/// whole or, past `--memory`, probed, and every class gets the same line
/// from each; Bouzy's evaluation, which no table holds, is still solved.
#[test]
fn analyze_piece_reads_the_pieces_table() {
    let folder = tempfile::tempdir().unwrap();
    let tables = folder.path().to_str().unwrap();
    let piece = "3x3-corner";
    let build = smallgo(&["build", piece, "--tables", tables]);
    assert!(build.status.success(), "{}", build.stderr);
    let analyze = |extra: &[&str]| {
        let mut arguments = vec!["analyze", "piece", piece, "--json"];
        arguments.extend_from_slice(extra);
        let output = smallgo(&arguments);
        assert!(output.status.success(), "{}", output.stderr);
        objects(&output.stdout)
    };
    let memory = analyze(&[]);
    let table = analyze(&["--tables", tables]);
    let probed = analyze(&["--tables", tables, "--memory", "1K"]);
    assert_eq!(memory[0]["source"], "solved in memory");
    let source = table[0]["source"].as_str().unwrap();
    assert!(
        source.starts_with("table ") && source.contains(tables) && source.ends_with(", read whole"),
        "{source}"
    );
    let source = probed[0]["source"].as_str().unwrap();
    assert!(
        source.starts_with("table ") && !source.contains("whole"),
        "{source}"
    );
    assert_eq!(memory[0]["classes"], table[0]["classes"]);
    assert_eq!(
        memory.len() as u64,
        memory[0]["classes"].as_u64().unwrap() + 1
    );
    assert_eq!(memory[1..], table[1..]);
    assert_eq!(memory[1..], probed[1..]);

    let bouzy = analyze(&["--tables", tables, "--scoring", "bouzy", "--empty"]);
    assert_eq!(bouzy[0]["source"], "solved in memory");
}

/// A piece past the 12 points solved in memory is solved over the state
/// index, under either scoring, and under area scoring gives what its
/// table gives; past `--memory` it is refused, with the figures and the
/// command that builds its table.
#[test]
fn analyze_piece_solves_a_larger_piece_over_the_index() {
    let folder = tempfile::tempdir().unwrap();
    let tables = folder.path().to_str().unwrap();
    let piece = "2x7-edge";
    let analyze = |extra: &[&str]| {
        let mut arguments = vec!["analyze", "piece", piece, "--json", "--empty"];
        arguments.extend_from_slice(extra);
        let output = smallgo(&arguments);
        assert!(output.status.success(), "{}", output.stderr);
        objects(&output.stdout)
    };
    let indexed = analyze(&["--tables", tables]);
    let source = indexed[0]["source"].as_str().unwrap();
    assert!(
        source.starts_with("solved over the state index"),
        "{source}"
    );
    let build = smallgo(&["build", piece, "--tables", tables]);
    assert!(build.status.success(), "{}", build.stderr);
    let table = analyze(&["--tables", tables]);
    assert!(table[0]["source"].as_str().unwrap().starts_with("table "));
    assert_eq!(indexed[1..], table[1..]);
    assert_eq!(indexed.len(), 2);

    let bouzy = analyze(&["--scoring", "bouzy"]);
    let source = bouzy[0]["source"].as_str().unwrap();
    assert!(
        source.starts_with("solved over the state index"),
        "{source}"
    );

    let refused = smallgo(&["analyze", "piece", "4x4-corner", "--memory", "64M"]);
    assert_eq!(refused.status.code(), Some(1));
    for words in ["--memory", "smallgo build 4x4-corner --tables DIR"] {
        assert!(refused.stderr.contains(words), "{}", refused.stderr);
    }
    assert!(refused.stdout.is_empty(), "{}", refused.stdout);
}

/// The diagram of a 3x3 corner or edge piece holding the stones of the
/// 9x9 board's rows 1 to 3, columns `first..first + 3` (the lower left
/// corner, or a window of the bottom side), from `stones` (colour, vertex).
fn region_diagram(stones: &[(&str, &str)], first: usize, edge: bool) -> String {
    let letters = ["A", "B", "C", "D", "E", "F", "G", "H", "J"];
    let mut rows = vec![if edge { "#+++#" } else { "+++#" }.to_string()];
    for row in (1..=3).rev() {
        let mut line = if edge { "+" } else { "" }.to_string();
        for letter in &letters[first..first + 3] {
            let vertex = format!("{letter}{row}");
            line.push(match stones.iter().find(|(_, v)| *v == vertex) {
                Some(("b", _)) => 'X',
                Some(_) => 'O',
                None => '.',
            });
        }
        line.push('+');
        rows.push(line);
    }
    rows.join("/")
}

/// `smallgo-pieces` on a 9x9 setup board: a region's `{l|r}` is `analyze
/// position`'s result on the piece holding the region's stones, Black then
/// White to move, the move labelled for White is one it rates best, and a
/// corner's mirror image in the opposite corner has the same pair.
#[test]
fn the_gtp_pieces_are_the_results_of_analyze_position() {
    let stones = [
        ("b", "B2"),
        ("w", "E2"),
        ("b", "D1"),
        // The lower left corner's stone turned half a turn.
        ("b", "H8"),
    ];
    let mut commands = vec!["boardsize 9".to_string()];
    commands.extend(stones.iter().map(|(c, v)| format!("play {c} {v}")));
    commands.push("smallgo-pieces white".to_string());
    let answers = crate::support::command::gtp_answers(&commands);
    let gfx = answers.last().unwrap();
    let text = gfx.lines().find(|l| l.starts_with("TEXT ")).unwrap();
    let region = |name: &str| -> Vec<String> {
        let part = text.split("; ").find(|p| p.contains(name)).unwrap();
        let words: Vec<&str> = part.split(' ').collect();
        let at = words.iter().position(|w| *w == name).unwrap();
        words[at..at + 5].iter().map(|w| w.to_string()).collect()
    };
    for (name, piece, first) in [("A1-C3", "3x3-corner", 0), ("D1-F3", "3x3-edge", 3)] {
        let words = region(name);
        assert_eq!(words[1], piece, "{text}");
        let diagram = region_diagram(&stones, first, piece.ends_with("edge"));
        let result = |colour: &str| {
            let outcome = smallgo(&[
                "analyze",
                "position",
                piece,
                "--diagram",
                &diagram,
                "--to-move",
                colour,
                "--json",
            ]);
            object(&outcome, "position")
        };
        let (black, white) = (result("black"), result("white"));
        let signed = |v: i64| {
            if v > 0 {
                format!("+{v}")
            } else {
                v.to_string()
            }
        };
        let pair = format!(
            "{{{}|{}}}",
            signed(black_margin(&black["result"])),
            signed(black_margin(&white["result"]))
        );
        assert_eq!(words[2], pair, "{name} {diagram}: {text}");
        // The move labelled, named on the board; on the piece the corner's
        // points have the board's names, the side's are one column on.
        let labelled = &words[4];
        let on_piece = if first == 0 {
            labelled.clone()
        } else {
            let column = labelled.chars().next().unwrap() as u8 - b'D' + b'B';
            format!("{}{}", column as char, &labelled[1..])
        };
        let best: Vec<&str> = white["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["best"] == true)
            .map(|m| m["point"].as_str().unwrap())
            .collect();
        assert!(
            best.contains(&on_piece.as_str()),
            "{name} {labelled}: {best:?}"
        );
        assert!(gfx.contains(&format!("{labelled} {pair}")), "{gfx}");
    }
    assert_eq!(region("G7-J9")[2], region("A1-C3")[2], "{text}");
    assert_ne!(region("A1-C3")[2], "{+1|-1}", "{text}");
}
