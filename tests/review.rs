//! `smallgo review` as a user meets it: the values it prints agree with
//! what the GTP engine says of the same positions (loadsgf up to each move,
//! then smallgo-value), a move is flagged exactly when the value after it
//! is worse than before, the annotated SGF reads back with the same moves
//! and one mark and one perfect-line variation per flagged move, and bad
//! input fails with a message naming the file, writing nothing.

use std::path::{Path, PathBuf};

use crate::support::command::{gtp_answers, smallgo};
use crate::support::sgf;

fn sgf_files() -> Vec<PathBuf> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-tests/sgf");
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            // Faulty files, and life-and-death problems on 19x19 boards,
            // which have no whole-board values to review.
            p.extension().is_some_and(|e| e == "sgf")
                && !name.starts_with("bad-")
                && !name.starts_with("problem-")
        })
        .collect();
    files.sort();
    files
}

/// A game's move lines: (before, after, points lost, flag) of each
/// reviewed move.
fn review_lines(text: &str) -> Vec<Option<(String, String, f64, String)>> {
    text.lines()
        .skip(1)
        .filter(|l| l.starts_with(' ') || l.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .filter(|l| !l.contains("moves changed the result"))
        .map(|line| {
            if line.contains("after the end of the game") {
                return None;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            // number, colour, move, before, "->", after, "lost", points, note...
            assert_eq!(words[4], "->", "{line}");
            assert_eq!(words[6], "lost", "{line}");
            let note = words[8..].join(" ");
            let lost = words[7].parse().unwrap();
            Some((words[3].to_string(), words[5].to_string(), lost, note))
        })
        .collect()
}

/// The result a value string stands for, from Black's view: its margin.
fn margin(value: &str) -> f64 {
    match value {
        "0" => 0.0,
        v if v.starts_with("B+") => v[2..].parse().unwrap(),
        v if v.starts_with("W+") => -v[2..].parse::<f64>().unwrap(),
        v => panic!("not a value: {v}"),
    }
}

#[test]
fn review_agrees_with_the_engine_and_writes_readable_sgf() {
    let folder = tempfile::tempdir().unwrap();
    let mut reviewed = 0;
    for file in sgf_files() {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let out = folder.path().join(format!("reviewed-{name}"));
        let output = smallgo(&[
            "review",
            file.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(output.status.success(), "{name}: {}", output.stderr);
        let text = output.stdout;
        let lines = review_lines(&text);
        // The engine's value before each move, from loadsgf up to it.
        let commands: Vec<String> = (1..=lines.len())
            .flat_map(|n| {
                [
                    format!("loadsgf {} {n}", file.display()),
                    "smallgo-value".to_string(),
                ]
            })
            .collect();
        let answers = gtp_answers(&commands);
        let mut flagged = 0;
        for (i, line) in lines.iter().enumerate() {
            let Some((before, after, shown_lost, note)) = line else {
                continue;
            };
            assert_eq!(
                &answers[2 * i + 1],
                before,
                "{name}: value before move {}",
                i + 1
            );
            let colour_sign = if answers[2 * i] == "black" { 1.0 } else { -1.0 };
            let lost = colour_sign * (margin(before) - margin(after));
            assert!(lost >= 0.0, "{name}: move {} gains on perfect play", i + 1);
            assert_eq!(*shown_lost, lost, "{name}: points lost by move {}", i + 1);
            let marked = note.starts_with("mistake") || note.starts_with("gives up points");
            assert_eq!(marked, lost > 0.0, "{name}: move {}: {note}", i + 1);
            flagged += marked as usize;
            if let Some(Some((next_before, _, _, _))) = lines.get(i + 1) {
                assert_eq!(after, next_before, "{name}: after move {}", i + 1);
            }
        }
        // The annotated game reads back: the same moves, a mark and a
        // variation per flagged move.
        let written = std::fs::read_to_string(&out).unwrap();
        let original = sgf::main_line(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let main = sgf::main_line(&written).unwrap();
        assert_eq!(sgf::moves(&main), sgf::moves(&original), "{name}");
        for setup in ["AB", "AW"] {
            assert_eq!(
                sgf::setup(&main[0], setup),
                sgf::setup(&original[0], setup),
                "{name}: {setup}"
            );
        }
        let marks = main
            .iter()
            .filter(|n| n.get("BM").is_some() || n.get("DO").is_some())
            .count();
        assert_eq!(marks, flagged, "{name}");
        assert_eq!(
            written.matches("(;").count(),
            1 + 2 * flagged,
            "{name}: variations"
        );
        for node in main.iter().skip(1) {
            assert!(node.get("C").is_some(), "{name}: a move without a comment");
        }
        // The analysis properties Sabaki and ogatak read back: Black's win
        // chance and score lead after each move, as V and GB/GW/DM say,
        // and at the root the value before the first move.
        let values: Vec<&(String, String, f64, String)> = lines.iter().flatten().collect();
        let mut analysed = 0;
        for (i, node) in main.iter().enumerate() {
            let Some(v) = node.get("V") else {
                continue;
            };
            let one = |name: &str| node.get(name).map(|values| values[0].clone());
            let expected_chance = match (one("GB"), one("GW"), one("DM")) {
                (Some(_), None, None) => "100",
                (None, Some(_), None) => "0",
                (None, None, Some(_)) => "50",
                other => panic!("{name}: node {i}: {other:?}"),
            };
            assert_eq!(
                one("SBKV").as_deref(),
                Some(expected_chance),
                "{name}: node {i}"
            );
            assert_eq!(
                one("OGSC").as_deref(),
                Some(v[0].as_str()),
                "{name}: node {i}"
            );
            analysed += 1;
        }
        assert_eq!(analysed, values.len(), "{name}: a reviewed move without V");
        if let Some(Some((first_before, _, _, _))) = lines.first() {
            let root = |key: &str| main[0].get(key).map(|values| values[0].clone());
            let ogsc: f64 = root("OGSC").expect("root OGSC").parse().unwrap();
            assert_eq!(ogsc, margin(first_before), "{name}: root OGSC");
            let chance = if ogsc > 0.0 {
                "100"
            } else if ogsc < 0.0 {
                "0"
            } else {
                "50"
            };
            assert_eq!(root("SBKV").as_deref(), Some(chance), "{name}: root SBKV");
        }
        reviewed += 1;
    }
    assert!(reviewed >= 4);
}

/// Black's margin of a `result` object of `analyze position --json`
/// (`docs/json.md`): 0 for a draw.
fn black_margin(result: &serde_json::Value) -> f64 {
    let margin = result["margin"].as_f64().unwrap();
    match result["winner"].as_str() {
        Some("black") => margin,
        Some("white") => -margin,
        None => 0.0,
        _ => panic!("not a result: {result}"),
    }
}

/// The points each move loses, as `review --json` gives them, are the
/// mover's margin before the move less its margin after it, as
/// `analyze position --json` gives them for the same positions; each
/// player's summary adds its moves up.
#[test]
fn review_points_lost_agree_with_analyze_position() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-tests/sgf");
    let mut lossy = 0;
    for (name, komi) in [
        ("gnugo-selfplay-4x4.sgf", None),
        ("gnugo-selfplay-3x3.sgf", Some("2.5")),
        ("gogui-twogtp-3x3-setup.sgf", None),
    ] {
        let file = folder.join(name);
        let file = file.to_str().unwrap();
        let komi_arguments: Vec<&str> = komi.map_or(Vec::new(), |k| vec!["--komi", k]);
        let mut arguments = vec!["review", file, "--json"];
        arguments.extend(&komi_arguments);
        let review = crate::json::object(&smallgo(&arguments), "review");
        let moves = review["moves"].as_array().unwrap();
        let mut totals = [(0usize, 0usize, 0.0f64); 2];
        for (i, mv) in moves.iter().enumerate() {
            let n = (i + 1).to_string();
            let position = |number: &str| {
                let mut arguments = vec!["analyze", "position", "--sgf", file, "--move", number];
                arguments.extend(&komi_arguments);
                arguments.push("--json");
                crate::json::object(&smallgo(&arguments), "position")
            };
            let before = position(&n);
            if mv["verdict"] == "after the end" {
                assert!(mv["points_lost"].is_null(), "{name}: {mv}");
                continue;
            }
            let mover = mv["colour"].as_str().unwrap();
            assert_eq!(before["to_move"], mover, "{name}: move {n}");
            let sign = if mover == "black" { 1.0 } else { -1.0 };
            // After the move: the next move's position, or the outcome of
            // the played move where the game has no next move.
            let after = match moves.get(i + 1) {
                Some(_) => black_margin(&position(&(i + 2).to_string())["result"]),
                None => {
                    let played = before["moves"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|m| m["point"] == mv["point"])
                        .unwrap();
                    black_margin(&played["outcome"])
                }
            };
            let lost = sign * (black_margin(&before["result"]) - after);
            assert_eq!(
                mv["points_lost"].as_f64(),
                Some(lost),
                "{name}: move {n} {mv}"
            );
            let total = &mut totals[(mover == "white") as usize];
            total.0 += 1;
            total.1 += (mv["verdict"] == "mistake") as usize;
            total.2 += lost;
            lossy += (lost > 0.0) as usize;
        }
        for (colour, (count, mistakes, lost)) in ["black", "white"].iter().zip(totals) {
            let summary = &review["players"][colour];
            assert_eq!(summary["moves"].as_u64(), Some(count as u64), "{name}");
            assert_eq!(
                summary["mistakes"].as_u64(),
                Some(mistakes as u64),
                "{name}"
            );
            assert_eq!(summary["points_lost"].as_f64(), Some(lost), "{name}");
        }
        // The text report ends with the same summaries.
        let mut arguments = vec!["review", file];
        arguments.extend(&komi_arguments);
        let text = smallgo(&arguments).stdout;
        for (colour, (count, mistakes, lost)) in ["black", "white"].iter().zip(totals) {
            let line = format!("{colour}: {count} moves, {mistakes} mistakes, {lost} points lost");
            assert!(text.contains(&line), "{name}: no {line:?} in\n{text}");
        }
    }
    assert!(lossy >= 2, "the games lose too few points to test");
}

#[test]
fn review_refuses_bad_input_naming_it_and_writes_nothing() {
    let folder = tempfile::tempdir().unwrap();
    let bad = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-tests/sgf");
    let out = folder.path().join("out.sgf");
    for (file, said) in [
        ("missing.sgf", "cannot read"),
        ("bad-unclosed.sgf", "line 2: a value is not closed"),
        ("bad-occupied.sgf", "move 2 (node 2, W B2) is illegal"),
        ("bad-5x5.sgf", "no table serves its 5x5 board"),
    ] {
        let path = bad.join(file);
        let output = smallgo(&[
            "review",
            path.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(output.status.code(), Some(1), "{file}");
        let message = output.stderr;
        assert!(
            message.contains(file) && message.contains(said),
            "{file}: {message}"
        );
        assert!(!out.exists(), "{file}: an output was written");
    }
    let good = bad.join("gnugo-selfplay-3x3.sgf");
    let nowhere = folder.path().join("no/such/folder/out.sgf");
    let output = smallgo(&[
        "review",
        good.to_str().unwrap(),
        "-o",
        nowhere.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stderr.contains("no/such/folder/out.sgf"));
    assert_eq!(
        std::fs::read_dir(folder.path()).unwrap().count(),
        0,
        "nothing left behind"
    );
}

/// The annotated game keeps the game's own root properties (players,
/// result, date, name) and its root comment, before the review's note.
#[test]
fn review_keeps_the_games_own_properties_and_comment() {
    let folder = tempfile::tempdir().unwrap();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-tests/sgf/gogui-twogtp-3x3.sgf");
    let out = folder.path().join("reviewed.sgf");
    let output = smallgo(&[
        "review",
        file.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", output.stderr);
    let original = sgf::main_line(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let written = sgf::main_line(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let mut kept = 0;
    for name in ["PB", "PW", "RE", "DT", "GN", "EV"] {
        let value = original[0].get(name);
        assert_eq!(written[0].get(name), value, "{name}");
        kept += value.is_some() as usize;
    }
    assert!(kept >= 4, "the test file has too few properties to test");
    let comment = &original[0].get("C").unwrap()[0];
    let reviewed = &written[0].get("C").unwrap()[0];
    assert!(
        reviewed.starts_with(comment.trim_end()),
        "{comment:?} not first in {reviewed:?}"
    );
    assert!(reviewed.contains("Reviewed by smallgo"), "{reviewed}");
}

/// `--plot FILE` writes the score graph as SVG: one circle a reviewed move,
/// higher on the page where Black's score lead after the move is larger.
#[cfg(feature = "plot")]
#[test]
fn review_plot_is_svg_with_one_point_per_move() {
    let folder = tempfile::tempdir().unwrap();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-tests/sgf/gnugo-selfplay-4x4.sgf");
    let plot = folder.path().join("score.svg");
    let output = smallgo(&[
        "review",
        file.to_str().unwrap(),
        "--json",
        "--plot",
        plot.to_str().unwrap(),
    ]);
    let review = crate::json::object(&output, "review");
    let leads: Vec<f64> = review["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["verdict"] != "after the end")
        .map(|m| black_margin(&m["after"]))
        .collect();
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
    let heights: Vec<f64> = svg
        .lines()
        .filter(|l| l.starts_with("<circle"))
        .map(|l| {
            let at = l.find("cy=\"").unwrap() + 4;
            l[at..].split('"').next().unwrap().parse().unwrap()
        })
        .collect();
    assert_eq!(heights.len(), leads.len(), "one point a move");
    assert!(
        leads.iter().any(|&l| l != leads[0]),
        "the game's lead never changes"
    );
    for i in 0..leads.len() {
        for j in 0..leads.len() {
            if leads[i] > leads[j] {
                assert!(heights[i] < heights[j], "moves {} and {}", i + 1, j + 1);
            }
        }
    }
}

/// Without feature `plot`, `--plot` is refused by name and nothing is
/// written.
#[cfg(not(feature = "plot"))]
#[test]
fn review_plot_without_the_feature_is_refused() {
    let folder = tempfile::tempdir().unwrap();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-tests/sgf/gnugo-selfplay-3x3.sgf");
    let plot = folder.path().join("score.svg");
    let out = folder.path().join("out.sgf");
    let output = smallgo(&[
        "review",
        file.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--plot",
        plot.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        output.stderr.contains("--plot") && output.stderr.contains("feature plot"),
        "{}",
        output.stderr
    );
    assert!(!plot.exists() && !out.exists(), "a file was written");
}
