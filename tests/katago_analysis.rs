//! `smallgo analysis`, KataGo's JSON analysis engine, driven with JSON
//! lines as a script would: its answers checked against
//! `smallgo analyze position --json` for the same positions, and bad
//! queries answered with KataGo's error shape while the engine goes on;
//! KaTrain's own code (from PyPI, in a venv) as its engine client and as
//! the reader of the analysis `smallgo review -o` saves in its `KT`
//! property.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::{json, Value as Json};

use crate::support::command::{smallgo, Smallgo};

/// The answer lines of `smallgo analysis` to `queries`, one JSON object
/// each.
fn answers(queries: &[Json]) -> Vec<Json> {
    let input: String = queries.iter().map(|q| format!("{q}\n")).collect();
    let outcome = Smallgo::new(&["analysis", "-model", "none.bin.gz", "-config", "none.cfg"])
        .input(&input)
        .run();
    assert!(outcome.status.success(), "{}", outcome.stderr);
    outcome
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

fn text(value: &Json) -> &str {
    value
        .as_str()
        .unwrap_or_else(|| panic!("not a string: {value}"))
}

/// Black's lead in an `outcome` of `analyze position --json`.
fn black_lead(outcome: &Json) -> f64 {
    let margin = outcome["margin"].as_f64().unwrap();
    match outcome["winner"].as_str() {
        Some("black") => margin,
        Some("white") => -margin,
        _ => 0.0,
    }
}

#[test]
fn every_turn_asked_is_answered_with_the_scores_analyze_position_gives() {
    let moves = [("B", "B2"), ("W", "A1"), ("B", "B1"), ("W", "pass")];
    let komi = 0.5;
    let query = json!({
        "id": "game",
        "moves": moves.iter().map(|(c, m)| json!([c, m])).collect::<Vec<_>>(),
        "rules": "chinese",
        "komi": komi,
        "boardXSize": 3,
        "boardYSize": 3,
        "analyzeTurns": [0, 1, 2, 4],
        "includeOwnership": true,
        "maxVisits": 100,
    });
    let answers = answers(&[query]);
    let turns: Vec<u64> = answers
        .iter()
        .map(|a| a["turnNumber"].as_u64().unwrap())
        .collect();
    assert_eq!(turns, [0, 1, 2, 4]);
    for answer in &answers {
        let turn = answer["turnNumber"].as_u64().unwrap() as usize;
        assert_eq!(answer["id"], "game");
        assert_eq!(answer["isDuringSearch"], false);
        let mut arguments = vec!["analyze", "position", "3x3", "--json", "--komi", "0.5"];
        arguments.extend(moves[..turn].iter().map(|(_, m)| *m));
        let position: Json = serde_json::from_str(smallgo(&arguments).stdout.trim()).unwrap();
        let expected = position["moves"].as_array().unwrap();
        let infos = answer["moveInfos"].as_array().unwrap();
        assert_eq!(infos.len(), expected.len(), "turn {turn}: {answer}");
        // The engine's order: analyze position lists its choice first.
        assert_eq!(infos[0]["move"], expected[0]["point"], "turn {turn}");
        for (order, info) in infos.iter().enumerate() {
            assert_eq!(info["order"], order);
            let mv = info["move"].as_str().unwrap();
            let listed = expected
                .iter()
                .find(|m| m["point"] == mv)
                .unwrap_or_else(|| panic!("turn {turn}: {mv} not in {position}"));
            let lead = black_lead(&listed["outcome"]);
            assert_eq!(info["scoreLead"].as_f64(), Some(lead), "turn {turn} {mv}");
            assert_eq!(info["scoreMean"].as_f64(), Some(lead), "turn {turn} {mv}");
            assert_eq!(info["scoreStdev"].as_f64(), Some(0.0));
            let winrate = if lead > 0.0 {
                1.0
            } else if lead < 0.0 {
                0.0
            } else {
                0.5
            };
            assert_eq!(info["winrate"].as_f64(), Some(winrate), "turn {turn} {mv}");
            assert_eq!(info["pv"][0], mv);
            let prior = info["prior"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&prior));
        }
        let root = &answer["rootInfo"];
        let root_lead = black_lead(&position["result"]);
        assert_eq!(root["scoreLead"].as_f64(), Some(root_lead), "turn {turn}");
        // The ownership is the end of perfect play: in a won game its
        // areas, komi taken off, are the lead.
        let ownership: Vec<f64> = answer["ownership"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(ownership.len(), 9);
        assert!(ownership.iter().all(|v| [-1.0, 0.0, 1.0].contains(v)));
        if root_lead != 0.0 {
            assert_eq!(
                ownership.iter().sum::<f64>() - komi,
                root_lead,
                "turn {turn}"
            );
        }
    }
}

#[test]
fn the_last_turn_is_analyzed_when_none_is_asked_and_the_policy_sums_to_one() {
    let query = json!({
        "id": "q", "moves": [["B", "B2"]], "rules": "chinese", "komi": 0,
        "boardXSize": 3, "boardYSize": 3, "includePolicy": true,
    });
    let answers = answers(&[query]);
    assert_eq!(answers.len(), 1);
    assert_eq!(answers[0]["turnNumber"], 1);
    assert_eq!(answers[0]["rootInfo"]["currentPlayer"], "W");
    let policy: Vec<f64> = answers[0]["policy"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(policy.len(), 10);
    // B2, the middle point, is taken.
    assert_eq!(policy[4], -1.0);
    let sum: f64 = policy.iter().filter(|&&v| v >= 0.0).sum();
    assert!((sum - 1.0).abs() < 1e-9, "{policy:?}");
}

#[test]
fn bad_queries_get_katagos_errors_and_the_engine_goes_on() {
    let good = json!({
        "id": "good", "moves": [], "rules": "chinese", "komi": 0.5,
        "boardXSize": 3, "boardYSize": 3,
    });
    let with = |id: &str, field: &str, value: Json| {
        let mut query = good.clone();
        query["id"] = json!(id);
        query[field] = value;
        query
    };
    let mut no_id = good.clone();
    no_id.as_object_mut().unwrap().remove("id");
    let queries = [
        no_id,
        with("bad-move", "moves", json!([["B", "Z9"]])),
        with("illegal", "moves", json!([["B", "B2"], ["W", "B2"]])),
        with("big", "boardXSize", json!(30)),
        with("rules", "rules", json!("japanese")),
        with(
            "superko",
            "rules",
            json!({"ko": "POSITIONAL", "scoring": "AREA"}),
        ),
        with("komi", "komi", json!(0.3)),
        with("turns", "analyzeTurns", json!([5])),
        good.clone(),
        json!({"id": "v", "action": "query_version"}),
        json!({"id": "t", "action": "terminate", "terminateId": "good"}),
    ];
    let mut input: Vec<Json> = queries.to_vec();
    input.insert(1, json!("not an object"));
    let answers = answers(&input);
    assert_eq!(answers.len(), input.len(), "{answers:?}");
    assert_eq!(answers[0]["field"], "id");
    assert!(answers[0]["error"].is_string() && answers[0].get("id").is_none());
    assert!(answers[1]["error"].is_string());
    let fields = [
        ("bad-move", "moves"),
        ("illegal", "moves"),
        ("big", "boardXSize"),
        ("rules", "rules"),
        ("superko", "rules"),
        ("komi", "komi"),
        ("turns", "analyzeTurns"),
    ];
    for (answer, (id, field)) in answers[2..9].iter().zip(fields) {
        assert_eq!(answer["id"], id, "{answer}");
        assert_eq!(answer["field"], field, "{answer}");
        assert!(!answer["error"].as_str().unwrap().is_empty(), "{answer}");
        assert!(answer.get("moveInfos").is_none(), "{answer}");
    }
    // KaTrain looks for KataGo's words to tell an illegal move.
    assert!(
        text(&answers[3]["error"]).starts_with("Illegal move 1"),
        "{}",
        answers[3]
    );
    assert_eq!(answers[9]["id"], "good");
    assert_eq!(answers[9]["turnNumber"], 0);
    assert!(!answers[9]["moveInfos"].as_array().unwrap().is_empty());
    assert_eq!(answers[10]["action"], "query_version");
    assert!(answers[10]["version"].is_string());
    assert_eq!(answers[11], queries[10]);
}

/// Runs `python -m ARGUMENTS` (or the venv's program), failing the test
/// with what it wrote if it fails.
fn run(program: &Path, arguments: &[&str]) {
    let output = std::process::Command::new(program)
        .args(arguments)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", program.display()));
    assert!(
        output.status.success(),
        "{} {arguments:?}: {}{}",
        program.display(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The Python of a venv with KaTrain from PyPI (without its GUI
/// dependencies, with Kivy and pysgf, which its engine and game modules
/// import), made once in the test build's temporary folder and kept for
/// the next run while KaTrain imports from it.
fn katrain_python() -> PathBuf {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON
        .get_or_init(|| {
            let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("katrain-venv");
            let python = venv.join("bin/python");
            let ready = std::process::Command::new(&python)
                .args(["-c", "import katrain.core.game, katrain.core.engine, pysgf"])
                .env("KIVY_NO_ARGS", "1")
                .env("KIVY_NO_CONSOLELOG", "1")
                .env("KIVY_NO_FILELOG", "1")
                .output()
                .is_ok_and(|output| output.status.success());
            if !ready {
                let _ = std::fs::remove_dir_all(&venv);
                run(
                    Path::new("python3"),
                    &["-m", "venv", venv.to_str().unwrap()],
                );
                let pip = venv.join("bin/pip");
                run(&pip, &["install", "-q", "kivy", "pysgf"]);
                run(&pip, &["install", "-q", "--no-deps", "katrain"]);
            }
            python
        })
        .clone()
}

/// KaTrain's own engine client (`katrain.core.engine.KataGoEngine`, in
/// `katrain_python`'s venv) starts smallgo as it starts
/// KataGo, sends its query for a 3x3 position, and reads back the scores,
/// the ownership and each move's points lost as analyze position gives
/// them (`tests/katrain/engine.py`).
#[test]
fn katrains_engine_client_reads_the_answers() {
    let folder = tempfile::tempdir().unwrap();
    let python = katrain_python();
    let out = folder.path().join("katrain.json");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/katrain/engine.py");
    let binary = env!("CARGO_BIN_EXE_smallgo");
    run(
        &python,
        &[script, binary, out.to_str().unwrap(), "0.5", "B2", "A1"],
    );
    let read: Json = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(read["errors"], json!([]), "{read}");
    assert_eq!(read["command"][1], "analysis", "{read}");
    assert_eq!(read["completed"], true, "{read}");
    assert_eq!(read["next_player"], "B");
    let position: Json = serde_json::from_str(
        smallgo(&[
            "analyze", "position", "3x3", "--json", "--komi", "0.5", "B2", "A1",
        ])
        .stdout
        .trim(),
    )
    .unwrap();
    let root = black_lead(&position["result"]);
    assert_eq!(read["score"].as_f64(), Some(root), "{read}");
    assert_eq!(
        read["ownership"].as_array().map(Vec::len),
        Some(9),
        "{read}"
    );
    let expected = position["moves"].as_array().unwrap();
    let candidates = read["candidates"].as_array().unwrap();
    assert_eq!(candidates.len(), expected.len(), "{read}");
    for candidate in candidates {
        let listed = expected
            .iter()
            .find(|m| m["point"] == candidate["move"])
            .unwrap_or_else(|| panic!("{candidate} not in {position}"));
        let lead = black_lead(&listed["outcome"]);
        assert_eq!(candidate["scoreLead"].as_f64(), Some(lead), "{candidate}");
        // Black to move: the points lost are the root's lead less the move's.
        assert_eq!(
            candidate["pointsLost"].as_f64(),
            Some(root - lead),
            "{candidate}"
        );
    }
}

/// `smallgo review -o` saves its analysis in KaTrain's own `KT` property:
/// KaTrain's SGF reader and analysis loader (`tests/katrain/review.py`)
/// find on every node of the reviewed game the scores the review gives,
/// the moves, scores and order `smallgo analysis` gives for the position,
/// its ownership and policy, and each move's points lost as the review
/// counts them; on a square board and a rectangular one.
#[test]
fn katrain_loads_the_analysis_review_saves() {
    let folder = tempfile::tempdir().unwrap();
    let python = katrain_python();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/katrain/review.py");
    for name in ["gnugo-selfplay-4x4.sgf", "sabaki-2x5.sgf"] {
        let game = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("gtp-tests/sgf")
            .join(name);
        let reviewed = folder.path().join(name);
        let output = smallgo(&[
            "review",
            game.to_str().unwrap(),
            "-o",
            reviewed.to_str().unwrap(),
            "--json",
        ]);
        assert!(output.status.success(), "{name}: {}", output.stderr);
        let review: Json = serde_json::from_str(output.stdout.trim()).unwrap();
        let seen_file = folder.path().join(format!("{name}.json"));
        run(
            &python,
            &[
                script,
                reviewed.to_str().unwrap(),
                seen_file.to_str().unwrap(),
            ],
        );
        let seen: Json =
            serde_json::from_str(&std::fs::read_to_string(&seen_file).unwrap()).unwrap();
        let moves = review["moves"].as_array().unwrap();
        let nodes = seen["nodes"].as_array().unwrap();
        assert_eq!(nodes.len(), moves.len() + 1, "{name}: {seen}");
        let columns = seen["board_size"][0].as_u64().unwrap();
        let rows = seen["board_size"][1].as_u64().unwrap();
        let squares = (columns * rows) as usize;
        // The analysis engine's answer for every position of the game.
        let played: Vec<Json> = moves
            .iter()
            .map(|m| json!([if m["colour"] == "black" { "B" } else { "W" }, m["point"]]))
            .collect();
        let query = json!({
            "id": name, "moves": played, "rules": "chinese", "komi": review["komi"],
            "boardXSize": columns, "boardYSize": rows,
            "analyzeTurns": (0..=moves.len()).collect::<Vec<_>>(),
            "includeOwnership": true, "includePolicy": true,
        });
        let answers = answers(&[query]);
        assert_eq!(answers.len(), nodes.len(), "{name}: {answers:?}");
        for (turn, (node, answer)) in nodes.iter().zip(&answers).enumerate() {
            let at = format!("{name} node {turn}");
            assert_eq!(
                node["loaded"], true,
                "{at}: KaTrain loads no analysis: {node}"
            );
            assert_eq!(node["complete"], true, "{at}");
            let result = match turn {
                0 => &moves[0]["before"],
                _ => &moves[turn - 1]["after"],
            };
            let lead = black_lead(result);
            assert_eq!(node["score"].as_f64(), Some(lead), "{at}: {node}");
            assert_eq!(answer["rootInfo"]["scoreLead"].as_f64(), Some(lead), "{at}");
            let winrate = answer["rootInfo"]["winrate"].as_f64();
            assert_eq!(node["winrate"].as_f64(), winrate, "{at}");
            // Ownership is -1, 0 or 1, exact in half floats.
            assert_eq!(node["ownership"], answer["ownership"], "{at}");
            assert_eq!(node["ownership"].as_array().map(Vec::len), Some(squares));
            let infos = answer["moveInfos"].as_array().unwrap();
            if infos.is_empty() {
                // The game has ended: no policy, and KaTrain shows a pass.
                assert_eq!(node["policy"], Json::Null, "{at}");
            } else {
                let policy = node["policy"].as_array().unwrap();
                let expected = answer["policy"].as_array().unwrap();
                assert_eq!(policy.len(), squares + 1, "{at}");
                for (read, wrote) in policy.iter().zip(expected) {
                    let (read, wrote) = (read.as_f64().unwrap(), wrote.as_f64().unwrap());
                    assert!((read - wrote).abs() < 1e-3, "{at}: {policy:?}");
                }
                let candidates = node["candidates"].as_array().unwrap();
                assert_eq!(candidates.len(), infos.len(), "{at}: {node}");
                for (candidate, info) in candidates.iter().zip(infos) {
                    for key in ["move", "order", "scoreLead", "winrate", "pv"] {
                        assert_eq!(candidate[key], info[key], "{at}: {key}");
                    }
                }
            }
            if turn > 0 {
                let lost = moves[turn - 1]["points_lost"].as_f64();
                assert_eq!(node["points_lost"].as_f64(), lost, "{at}: {node}");
            }
        }
    }
}
