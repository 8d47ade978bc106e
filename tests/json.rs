//! Every command's `--json` output as a script reads it (`docs/json.md`):
//! JSON Lines (each line one object, parsed here by serde_json), each
//! object naming its `kind`, numbers as numbers, the same names for the
//! same things across commands, and the figures the same as the text
//! reports and the GTP engine give. `analyze position` is driven from a
//! diagram, a game and a batch as well as from moves.

use serde_json::Value as Json;

use crate::support::command::{smallgo, Outcome, Smallgo};

/// The objects of a `--json` output: every line one JSON object with a
/// `kind`, nothing else on standard output.
pub(crate) fn objects(output: &str) -> Vec<Json> {
    assert!(!output.is_empty(), "no output");
    output
        .lines()
        .map(|line| {
            let object: Json = serde_json::from_str(line)
                .unwrap_or_else(|error| panic!("not one JSON object a line: {error}\n{line}"));
            assert!(object["kind"].is_string(), "no kind: {line}");
            object
        })
        .collect()
}

/// The one object of a run that succeeded, of kind `kind`.
pub(crate) fn object(outcome: &Outcome, kind: &str) -> Json {
    assert!(outcome.status.success(), "{}", outcome.stderr);
    let mut all = objects(&outcome.stdout);
    assert_eq!(all.len(), 1, "{}", outcome.stdout);
    let object = all.remove(0);
    assert_eq!(object["kind"], kind, "{object}");
    object
}

fn number(value: &Json) -> f64 {
    value
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {value}"))
}

fn text(value: &Json) -> &str {
    value
        .as_str()
        .unwrap_or_else(|| panic!("not a string: {value}"))
}

/// The answer of the GTP engine to `commands`, the last one's.
fn gtp_last(commands: &[&str]) -> String {
    let mut input = commands.join("\n");
    input.push_str("\nquit\n");
    let output = Smallgo::new(&[]).input(&input).run().stdout;
    let answers: Vec<&str> = output.split("\n\n").collect();
    answers[commands.len() - 1]
        .trim_start_matches(['=', '?'])
        .trim()
        .to_string()
}

/// A `result` or `outcome` object is consistent: a winner and plies or a
/// draw, a margin that is a number, and the score GTP writes for it.
fn check_result(result: &Json) {
    let margin = number(&result["margin"]);
    let score = text(&result["score"]);
    match result["winner"].as_str() {
        Some(winner) => {
            assert!(margin > 0.0, "{result}");
            assert!(result["plies"].is_u64(), "{result}");
            let letter = if winner == "black" { "B" } else { "W" };
            assert_eq!(score, format!("{letter}+{margin}"), "{result}");
        }
        None => {
            assert!(result["winner"].is_null(), "{result}");
            assert_eq!((margin, score), (0.0, "0"), "{result}");
            assert!(result["plies"].is_null(), "{result}");
        }
    }
}

#[test]
fn analyze_position_is_one_line_of_numbers_that_agrees_with_the_text_and_genmove() {
    let json = object(
        &smallgo(&[
            "analyze", "position", "3x3", "B2", "--json", "--komi", "0.5",
        ]),
        "position",
    );
    let report = smallgo(&["analyze", "position", "3x3", "B2", "--komi", "0.5"]).stdout;
    assert_eq!(json["board"], "3x3");
    assert_eq!(number(&json["komi"]), 0.5);
    assert_eq!(json["to_move"], "white");
    assert_eq!(json["played"], serde_json::json!(["B2"]));
    assert_eq!(json["black"], serde_json::json!(["B2"]));
    assert_eq!(json["diagram"], ".../.X./...");
    assert!(json["ko"].is_null() && json["ended"].is_null());
    assert!(text(&json["source"]).contains("3x3"));
    // The value, as the report words it: what each side can force.
    let value = &json["value"];
    let black = &value["black_can_force"];
    let white = &value["white_can_force"];
    let words = format!(
        "White (to move) can force {:+} in {} plies; Black can force {:+} in {} plies",
        number(&white["margin"]),
        number(&white["plies"]),
        number(&black["margin"]),
        number(&black["plies"])
    );
    assert!(report.contains(&words), "{words}\n{report}");
    // The result at the komi, as the report and the engine give it.
    let result = &json["result"];
    check_result(result);
    let score = text(&result["score"]);
    assert!(report.contains(&format!("result    {score} at komi 0.5")));
    assert_eq!(
        score,
        gtp_last(&["boardsize 3", "komi 0.5", "play b B2", "smallgo-value"])
    );
    // Every move, in the report's order, the engine's choice first.
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 9);
    let listed: Vec<&str> = report
        .lines()
        .skip_while(|line| !line.starts_with("moves for"))
        .skip(1)
        .map(|line| line.split_whitespace().next().unwrap())
        .collect();
    let points: Vec<&str> = moves.iter().map(|m| text(&m["point"])).collect();
    assert_eq!(points, listed);
    assert_eq!(
        points[0],
        gtp_last(&["boardsize 3", "komi 0.5", "play b B2", "genmove w"])
    );
    let best: Vec<&str> = moves
        .iter()
        .filter(|m| m["best"] == true)
        .map(|m| text(&m["point"]))
        .collect();
    let engine_best = gtp_last(&[
        "boardsize 3",
        "komi 0.5",
        "play b B2",
        "smallgo-best-moves w",
    ]);
    let mut engine_best: Vec<&str> = engine_best.split_whitespace().collect();
    let mut sorted = best.clone();
    sorted.sort();
    engine_best.sort();
    assert_eq!(sorted, engine_best);
    for mv in moves {
        check_result(&mv["outcome"]);
    }
}

#[test]
fn analyze_position_reads_a_diagram_and_a_game_as_it_reads_moves() {
    let position = |arguments: &[&str]| {
        let mut all = vec!["analyze", "position", "--json"];
        all.extend_from_slice(arguments);
        object(&smallgo(&all), "position")
    };
    let same = |a: &Json, b: &Json| {
        for key in [
            "board", "black", "white", "to_move", "value", "result", "moves",
        ] {
            assert_eq!(a[key], b[key], "{key}\n{a}\n{b}");
        }
    };
    // Black C3, White B2: Black to move.
    let moved = position(&["3x3", "C3", "B2"]);
    let drawn = position(&["3x3", "--diagram", "..X/.O./..."]);
    same(&moved, &drawn);
    assert_eq!(drawn["start"]["from"], "diagram");
    // The diagram written out reads back as the same position.
    let again = position(&["3x3", "--diagram", text(&moved["diagram"])]);
    same(&moved, &again);
    // White to move after the diagram, then a move played on from it.
    let white = position(&[
        "3x3",
        "--diagram",
        "..X/.O./...",
        "--to-move",
        "white",
        "A1",
    ]);
    same(&white, &position(&["3x3", "C3", "B2", "pass", "A1"]));
    // A game before its move 4: its first three moves, and its komi.
    let game = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/gtp-tests/sgf/gnugo-selfplay-4x4.sgf"
    );
    let from_game = position(&["--sgf", game, "--move", "4"]);
    assert_eq!(from_game["start"]["from"], "sgf");
    assert_eq!(number(&from_game["start"]["before_move"]), 4.0);
    let sgf = std::fs::read_to_string(game).unwrap();
    let komi: String = sgf
        .split("KM[")
        .nth(1)
        .unwrap()
        .split(']')
        .next()
        .unwrap()
        .into();
    assert_eq!(number(&from_game["komi"]), komi.parse::<f64>().unwrap());
    let first: Vec<String> = crate::support::sgf::main_line(&sgf)
        .unwrap()
        .iter()
        .filter_map(|node| node.get("B").or(node.get("W")))
        .take(3)
        .map(|values| {
            // SGF `cb`: column c, row b from the top of the 4x4 board.
            let bytes = values[0].as_bytes();
            let column = (b'A' + bytes[0] - b'a') as char;
            format!("{column}{}", 4 - (bytes[1] - b'a'))
        })
        .collect();
    let mut arguments = vec!["4x4", "--komi", &komi];
    arguments.extend(first.iter().map(String::as_str));
    same(&from_game, &position(&arguments));
}

#[test]
fn analyze_position_names_the_argument_at_fault() {
    let game = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/gtp-tests/sgf/gnugo-selfplay-4x4.sgf"
    );
    for (arguments, said) in [
        (
            &["3x3", "--diagram", "..X/.O."][..],
            "--diagram '..X/.O.': the diagram has 2 rows",
        ),
        (
            &["3x3", "--diagram", "XO./O../..."][..],
            "--diagram 'XO./O../...'",
        ),
        (&["--sgf", game, "--move", "999"][..], "--move 999"),
        (&["--sgf", "/nonexistent.sgf"][..], "--sgf /nonexistent.sgf"),
        (
            &["3x3", "--diagram", ".../.../...", "Z9"][..],
            "move 1 'Z9'",
        ),
        (&["--json"][..], "no board"),
    ] {
        let mut all = vec!["analyze", "position"];
        all.extend_from_slice(arguments);
        let outcome = smallgo(&all);
        assert_eq!(outcome.status.code(), Some(1), "{arguments:?}");
        assert!(
            outcome.stdout.is_empty(),
            "{arguments:?}: {}",
            outcome.stdout
        );
        assert!(
            outcome.stderr.contains(said),
            "{arguments:?}: {}",
            outcome.stderr
        );
    } // A board that does not parse is a usage error, as for every command.
    let outcome = smallgo(&["analyze", "position", "3y3", "B2"]);
    assert_eq!(outcome.status.code(), Some(2));
    assert!(outcome.stderr.contains("board '3y3'"), "{}", outcome.stderr);
}

#[test]
fn a_batch_answers_each_line_and_goes_on_past_a_bad_one() {
    let input =
        "3x3 B2\n\n# a comment\n3x3 B2 B2\n3x3 --diagram ..X/.O./... --komi 9\nnot a line\n2x3\n";
    let outcome = Smallgo::new(&["analyze", "position", "--batch", "-", "--json"])
        .input(input)
        .run();
    assert_eq!(outcome.status.code(), Some(1), "{}", outcome.stderr);
    let all = objects(&outcome.stdout);
    let kinds: Vec<&str> = all.iter().map(|o| text(&o["kind"])).collect();
    assert_eq!(
        kinds,
        ["position", "error", "position", "error", "position"]
    );
    let lines: Vec<f64> = all.iter().map(|o| number(&o["line"])).collect();
    assert_eq!(lines, [1.0, 4.0, 5.0, 6.0, 7.0]);
    assert!(text(&all[1]["error"]).contains("move 2 'B2' is not legal"));
    assert!(
        outcome.stderr.contains("line 4: move 2 'B2'"),
        "{}",
        outcome.stderr
    );
    assert!(
        outcome.stderr.contains("line 6: board 'not'"),
        "{}",
        outcome.stderr
    );
    // Each answer is the single command's, and a line's komi its own.
    let alone = |arguments: &[&str]| {
        let mut all = vec!["analyze", "position", "--json"];
        all.extend_from_slice(arguments);
        object(&smallgo(&all), "position")
    };
    let mut first = all[0].clone();
    first.as_object_mut().unwrap().remove("line");
    assert_eq!(first, alone(&["3x3", "B2"]));
    assert_eq!(number(&all[2]["komi"]), 9.0);
    assert_eq!(
        all[2]["moves"],
        alone(&["3x3", "--diagram", "..X/.O./...", "--komi", "9"])["moves"]
    );
    // The command line's komi is every line's that gives none.
    let komi = Smallgo::new(&[
        "analyze", "position", "--batch", "-", "--json", "--komi", "2",
    ])
    .input("2x3\n2x3 --komi 0\n")
    .run();
    assert!(komi.status.success(), "{}", komi.stderr);
    let komis: Vec<f64> = objects(&komi.stdout)
        .iter()
        .map(|o| number(&o["komi"]))
        .collect();
    assert_eq!(komis, [2.0, 0.0]);
    // As text, a report a line, and the errors on standard error.
    let report = Smallgo::new(&["analyze", "position", "--batch", "-"])
        .input(input)
        .run();
    assert_eq!(report.status.code(), Some(1));
    assert_eq!(report.stdout.matches("board     ").count(), 3);
    assert!(report.stdout.contains("line      5"), "{}", report.stdout);
    // A batch file that does not exist is named.
    let missing = smallgo(&["analyze", "position", "--batch", "/nonexistent/batch"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(missing.stderr.contains("--batch /nonexistent/batch"));
}

#[test]
fn review_is_one_line_with_each_move_and_its_results_as_numbers() {
    let game = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/gtp-tests/sgf/gnugo-selfplay-4x4.sgf"
    );
    let json = object(&smallgo(&["review", game, "--json"]), "review");
    let report = smallgo(&["review", game]).stdout;
    assert_eq!(json["board"], "4x4");
    assert!(json["komi"].is_number(), "{json}");
    let moves = json["moves"].as_array().unwrap();
    let lines: Vec<&str> = report
        .lines()
        .skip(1)
        .filter(|l| l.starts_with(' '))
        .collect();
    assert_eq!(moves.len(), lines.len());
    let mut changed = 0;
    for (mv, line) in moves.iter().zip(&lines) {
        // `  2 W B3          0 -> B+10.5  mistake: ...`
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(number(&mv["number"]), words[0].parse::<f64>().unwrap());
        assert_eq!(text_of_colour(&mv["colour"]), words[1]);
        assert_eq!(mv["point"], words[2]);
        if mv["verdict"] == "after the end" {
            assert!(mv["before"].is_null() && mv["after"].is_null());
            continue;
        }
        check_result(&mv["before"]);
        check_result(&mv["after"]);
        assert_eq!(mv["before"]["score"], words[3], "{line}");
        assert_eq!(mv["after"]["score"], words[5], "{line}");
        let verdict = text(&mv["verdict"]);
        if verdict == "mistake" || verdict == "gives up points" {
            changed += 1;
            assert!(line.contains(verdict), "{line}");
            assert!(!mv["perfect_line"].as_array().unwrap().is_empty());
        }
        assert!(mv["best_moves"]
            .as_array()
            .unwrap()
            .iter()
            .all(Json::is_string));
    }
    assert_eq!(number(&json["changed"]), changed as f64);
    assert!(report.contains(&format!("{changed} moves changed the result")));
}

fn text_of_colour(colour: &Json) -> &'static str {
    match colour.as_str() {
        Some("black") => "B",
        Some("white") => "W",
        _ => panic!("not a colour: {colour}"),
    }
}

/// `build`, `verify`, `count`, `analyze cycles` and `bench build` name the
/// same figures the same way: a build's solver edges are the verifier's,
/// within the count's estimate, and the graph's plus one a canonical
/// position (the pass that ends the game).
#[test]
fn build_verify_count_and_bench_agree_by_name() {
    let folder = tempfile::tempdir().unwrap();
    let dir = folder.path().to_str().unwrap();
    let build = object(
        &smallgo(&["build", "2x3", "--tables", dir, "--json"]),
        "build",
    );
    assert_eq!(build["board"], "2x3");
    assert_eq!(build["built"], true);
    check_result(&build["result"]);
    assert_eq!(
        build["result"]["score"],
        gtp_last(&["rectangular_boardsize 3 2", "komi 0", "smallgo-value"])
    );
    let table = text(&build["table"]["path"]);
    assert!(std::path::Path::new(table).is_file(), "{build}");
    assert!(build["table"]["crc32"].is_u64());
    let verify = object(&smallgo(&["verify", table, "--json"]), "verify");
    assert_eq!(verify["ok"], true);
    assert!(verify["error"].is_null());
    for key in ["states", "solver_edges"] {
        assert_eq!(verify[key], build[key], "{key}");
    }
    let count = object(
        &smallgo(&["count", "2x3", "--json", "--state", &format!("{dir}/c")]),
        "count",
    );
    for key in [
        "legal_positions",
        "canonical_positions",
        "ko_states",
        "states",
    ] {
        assert_eq!(count[key], build[key], "{key}");
    }
    let estimate = &count["solver_edges"];
    let edges = number(&build["solver_edges"]);
    assert!(number(&estimate["low_95"]) <= edges && edges <= number(&estimate["high_95"]));
    let cycles = object(&smallgo(&["analyze", "cycles", "2x3", "--json"]), "cycles");
    assert_eq!(
        number(&cycles["graph_edges"]) + number(&build["canonical_positions"]),
        edges
    );
    // A turned board is not built: the object says which table serves it.
    let turned = object(
        &smallgo(&["build", "3x2", "--tables", dir, "--json"]),
        "build",
    );
    assert_eq!(turned["built"], false);
    assert_eq!(turned["served_by"]["board"], "2x3");
    // verify: one object a table, a failure too, and a non-zero exit.
    let both = smallgo(&["verify", table, "2x9", "--json"]);
    assert_eq!(both.status.code(), Some(1));
    let all = objects(&both.stdout);
    assert_eq!(all.len(), 2);
    assert_eq!(
        (&all[0]["ok"], &all[1]["ok"]),
        (&Json::Bool(true), &Json::Bool(false))
    );
    assert!(text(&all[1]["error"]).contains("no table of 2x9"));
    // bench build: a build object a board, nothing else on the line.
    let bench = smallgo(&["bench", "build", "2x2", "1x3", "--json"]);
    assert!(bench.status.success(), "{}", bench.stderr);
    let rows = objects(&bench.stdout);
    let boards: Vec<&str> = rows.iter().map(|r| text(&r["board"])).collect();
    assert_eq!(boards, ["2x2", "1x3"]);
    assert!(rows
        .iter()
        .all(|r| r["kind"] == "build" && r["states"].is_u64()));
}

#[test]
fn bench_engine_is_one_object_of_numbers() {
    let json = object(&smallgo(&["bench", "engine", "--json"]), "bench-engine");
    assert!(number(&json["first_reply"]["median_ms"]) > 0.0, "{json}");
    assert_eq!(json["first_reply"]["starts"], 20, "{json}");
    let genmove = &json["genmove"];
    assert_eq!(genmove["board"], "4x4");
    assert!(
        number(&genmove["median_ms"]) <= number(&genmove["max_ms"]),
        "{json}"
    );
    assert!(number(&genmove["moves"]) > 0.0, "{json}");
    assert!(number(&json["memory"]["boards"]) > 0.0, "{json}");
}

/// `bench superko --json`: one `bench-superko` object a board, its
/// openings and empty board the values `analyze rules` gives under the
/// same rule, its figures numbers, and with `--pruning` one entry per aid
/// switched off; each opening's value and states on standard error.
#[test]
fn bench_superko_is_one_object_a_board_with_the_values_of_analyze_rules() {
    let outcome = smallgo(&[
        "bench",
        "superko",
        "1x5",
        "2x3",
        "--json",
        "--pruning",
        "--budget",
        "3000000",
    ]);
    assert!(outcome.status.success(), "{}", outcome.stderr);
    let benches = objects(&outcome.stdout);
    assert_eq!(benches.len(), 2, "{}", outcome.stdout);
    for (bench, board) in benches.iter().zip(["1x5", "2x3"]) {
        assert_eq!(bench["kind"], "bench-superko", "{bench}");
        assert_eq!(bench["board"], board, "{bench}");
        assert_eq!(bench["rules"], "positional-superko", "{bench}");
        let rules = object(&smallgo(&["analyze", "rules", board, "--json"]), "rules");
        let superko = |point: &Json| {
            let row = rules["rows"]
                .as_array()
                .unwrap()
                .iter()
                .find(|row| &row["point"] == point)
                .unwrap_or_else(|| panic!("no row {point} in {rules}"));
            row["superko"].clone()
        };
        assert_eq!(bench["empty_board"], superko(&Json::Null), "{bench}");
        let openings = bench["openings"].as_array().unwrap();
        assert!(!openings.is_empty(), "{bench}");
        for opening in openings {
            assert_eq!(opening["value"], superko(&opening["point"]), "{bench}");
            // Each opening's value and states, to standard error as solved.
            let line = format!(
                "{board} opening {} {:+}: {} states;",
                text(&opening["point"]),
                opening["value"].as_i64().unwrap(),
                opening["states"]
            );
            assert!(outcome.stderr.contains(&line), "{line}: {}", outcome.stderr);
        }
        assert!(number(&bench["states"]) > 0.0, "{bench}");
        assert!(number(&bench["seconds"]) >= 0.0, "{bench}");
        let aids = bench["aids"].as_array().unwrap();
        assert_eq!(aids.len(), 12, "{bench}");
        for aid in aids {
            assert!(aid["run"].is_string(), "{aid}");
            if aid["given_up"] == true {
                assert!(aid["states"].is_null(), "{aid}");
            } else {
                assert_eq!(aid["given_up"], false, "{aid}");
                assert!(number(&aid["states"]) > 0.0, "{aid}");
            }
        }
        // 1x5 finishes every run within the budget.
        if board == "1x5" {
            assert!(aids.iter().all(|aid| aid["given_up"] == false), "{bench}");
        }
    }
}

/// `bench problems --json`: one `bench-problem` object a problem and ko
/// assumption, in the set's order, its figures numbers and the same as the
/// text's; the proof search and the full solver agree; a full solver
/// refused by the memory limit says so with the figures it reached.
#[test]
fn bench_problems_is_one_object_a_problem_with_the_texts_figures() {
    let chosen = [
        "bench", "problems", "--only", "corner 7", "--only", "corner 5",
    ];
    let run = smallgo(&[&chosen[..], &["--baseline", "--compare", "--json"]].concat());
    assert!(run.status.success(), "{}", run.stderr);
    let rows = objects(&run.stdout);
    let names: Vec<&str> = rows.iter().map(|r| text(&r["problem"])).collect();
    assert_eq!(names, ["corner 5", "corner 7"]);
    let text_run = smallgo(&[&chosen[..], &["--baseline", "--compare"]].concat());
    assert!(text_run.status.success(), "{}", text_run.stderr);
    for row in &rows {
        assert_eq!(row["kind"], "bench-problem", "{row}");
        assert_eq!(row["ko_assumption"], "basic", "{row}");
        assert_eq!(row["to_move"], "black", "{row}");
        assert_eq!(row["targets"], serde_json::json!(["A2"]), "{row}");
        let diagram = text(&row["diagram"]);
        let empty = diagram.matches('.').count() as f64;
        assert_eq!(number(&row["empty_points"]), empty, "{row}");
        let searches = row["searches"].as_array().unwrap();
        let methods: Vec<&str> = searches.iter().map(|s| text(&s["repetitions"])).collect();
        assert_eq!(methods, ["closure", "on-path"], "{row}");
        let full = &row["full_solver"];
        assert_eq!(full["finished"], true, "{row}");
        assert!(
            full["skipped"].is_null() && full["error"].is_null(),
            "{row}"
        );
        for search in searches {
            assert_eq!(search["finished"], true, "{row}");
            assert_eq!(search["captured"], full["captured"], "{row}");
            assert!(number(&search["expanded"]) >= 1.0, "{row}");
            assert!(number(&search["seconds"]) >= 0.0, "{row}");
        }
        let baseline = &row["baseline"];
        assert_eq!(baseline["agrees"], true, "{row}");
        assert_eq!(baseline["captured"], full["captured"], "{row}");
        // The text's full solver line: name, ko, empty points, points,
        // states, edges, pruned.
        let line = text_run
            .stdout
            .lines()
            .find(|l| l.starts_with(text(&row["problem"])) && !l.contains("expanded"))
            .unwrap_or_else(|| panic!("no full solver line\n{}", text_run.stdout));
        let words: Vec<f64> = line
            .split_whitespace()
            .skip(3)
            .take(5)
            .map(|w| w.parse().unwrap())
            .collect();
        let json_figures: Vec<f64> = ["empty_points", "points"]
            .iter()
            .map(|k| number(&row[*k]))
            .chain(
                ["states", "edges", "pruned"]
                    .iter()
                    .map(|k| number(&full[*k])),
            )
            .collect();
        assert_eq!(words, json_figures, "{line}\n{row}");
    }
    // Past the memory limit: the search finishes, the full solver is
    // refused with the states it reached; more than 16 empty points and
    // --search-only skip it, saying why.
    let refused = object(
        &smallgo(&[
            "bench",
            "problems",
            "--only",
            "corner 10",
            "--memory",
            "100K",
            "--json",
        ]),
        "bench-problem",
    );
    let full = &refused["full_solver"];
    assert_eq!(full["finished"], false, "{refused}");
    assert!(
        full["captured"].is_null() && full["states"].is_u64(),
        "{refused}"
    );
    assert!(text(&full["error"]).contains("memory"), "{refused}");
    let skipped = object(
        &smallgo(&[
            "bench",
            "problems",
            "--only",
            "corner 8",
            "--search-only",
            "--json",
        ]),
        "bench-problem",
    );
    assert_eq!(skipped["full_solver"]["skipped"], "search only");
    assert!(skipped["full_solver"]["states"].is_null() && skipped["baseline"].is_null());
    // A name not in the set: an error naming it, nothing on standard output.
    let wrong = smallgo(&["bench", "problems", "--only", "corner 6", "--json"]);
    assert_eq!(wrong.status.code(), Some(1));
    assert!(wrong.stdout.is_empty() && wrong.stderr.contains("corner 6"));
}

/// `bench problems --solve --json`: one `bench-solve` object a problem,
/// its statuses, plies, correct first moves and main line those of
/// `smallgo solve` on the same diagram, its times and memory numbers, the
/// text's line the same statuses; a problem `solve` refuses is a line
/// saying why, not a failure of the run.
#[test]
fn bench_problems_solve_gives_solves_statuses_and_its_figures() {
    let chosen = [
        "bench", "problems", "--solve", "--only", "corner 7", "--only", "corner 5",
    ];
    let run = smallgo(&[&chosen[..], &["--json"]].concat());
    assert!(run.status.success(), "{}", run.stderr);
    let rows = objects(&run.stdout);
    let names: Vec<&str> = rows.iter().map(|r| text(&r["problem"])).collect();
    assert_eq!(names, ["corner 5", "corner 7"]);
    let text_run = smallgo(&chosen);
    assert!(text_run.status.success(), "{}", text_run.stderr);
    for row in &rows {
        assert_eq!(row["kind"], "bench-solve", "{row}");
        assert_eq!(row["finished"], true, "{row}");
        assert_eq!(row["solver"], "full", "{row}");
        for key in ["seconds", "cpu_seconds", "peak_bytes", "tree_bytes"] {
            assert!(number(&row[key]) >= 0.0, "{key}: {row}");
        }
        let diagram = text(&row["diagram"]);
        let solved = object(
            &smallgo(&["solve", "--diagram", diagram, "--targets", "A2", "--json"]),
            "solve",
        );
        assert_eq!(row["empty_points"], solved["region"]["empty"], "{row}");
        let sides = row["sides"].as_array().unwrap();
        let wanted = solved["sides"].as_array().unwrap();
        assert_eq!(sides.len(), 2, "{row}");
        let line = text_run
            .stdout
            .lines()
            .find(|l| l.starts_with(text(&row["problem"])))
            .unwrap_or_else(|| panic!("no line\n{}", text_run.stdout));
        for (side, want) in sides.iter().zip(wanted) {
            assert_eq!(side["to_move"], want["to_move"], "{row}");
            assert_eq!(side["status"], want["status"], "{row}");
            assert_eq!(
                side["plies"], want["ko_assumptions"]["basic"]["plies"],
                "{row}"
            );
            let correct: Vec<&Json> = want["moves"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["correct"] == true)
                .map(|m| &m["point"])
                .collect();
            let found: Vec<&Json> = side["correct"].as_array().unwrap().iter().collect();
            assert_eq!(found, correct, "{row}");
            assert_eq!(
                number(&side["main_line_plies"]),
                want["main_line"].as_array().unwrap().len() as f64,
                "{row}"
            );
            assert!(line.contains(text(&side["status"])), "{line}\n{row}");
        }
    }
    // Past the largest board a problem may have: refused, saying why.
    let refused = object(
        &smallgo(&[
            "bench", "problems", "--solve", "--only", "bent 26", "--json",
        ]),
        "bench-solve",
    );
    assert_eq!(refused["finished"], false, "{refused}");
    assert!(text(&refused["error"]).contains("region"), "{refused}");
    assert!(refused["sides"].as_array().unwrap().is_empty(), "{refused}");
    // --solve runs solve's work alone: not with the solvers' options.
    let both = smallgo(&["bench", "problems", "--solve", "--baseline"]);
    assert_eq!(both.status.code(), Some(2), "{}", both.stderr);
}

/// `solve --json` is one `solve` object in the shared shape: the board by
/// its name, `to_move` and `point` as elsewhere, plies and states as
/// numbers.
#[test]
fn solve_is_one_object_in_the_shared_shape() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/gtp-tests/problems/straight-three.sgf"
    );
    let json = object(&smallgo(&["solve", file, "--json"]), "solve");
    assert_eq!(json["board"], "19x19", "{json}");
    assert!(json["region"]["size"].is_u64(), "{json}");
    let sides = json["sides"].as_array().unwrap();
    let movers: Vec<&str> = sides.iter().map(|s| text(&s["to_move"])).collect();
    assert_eq!(movers, ["black", "white"], "{json}");
    for side in sides {
        for ko in ["basic", "attacker_ignores_ko", "defender_ignores_ko"] {
            let start = &side["ko_assumptions"][ko];
            assert!(start["states"].is_u64(), "{json}");
            assert_eq!(start["plies"].is_u64(), start["captured"] == true, "{json}");
        }
        for first in side["moves"].as_array().unwrap() {
            assert!(first["point"].is_string(), "{json}");
            assert!(
                first["plies"].is_u64() || first["plies"].is_null(),
                "{json}"
            );
        }
    }
}
