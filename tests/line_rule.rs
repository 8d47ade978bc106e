//! `smallgo analyze rule-1xn` as a user meets it: the report per board and
//! rule, `--json`, the reference work's rule by name, boards without a
//! table beside those checked, and bad lengths and missing tables. The check itself is
//! tested against a brute force in `src/tests/line_rule.rs`.

use crate::support::command::smallgo;

#[test]
fn the_command_reports_per_board_and_rule() {
    let output = smallgo(&[
        "analyze", "rule-1xn", "6-7", "--rule", "pass", "--rule", "table", "--json",
    ]);
    assert!(output.status.success(), "{output:?}");
    let report = crate::json::object(&output, "rule-1xn");
    let checks = report["checks"].as_array().unwrap();
    assert_eq!(checks.len(), 4, "{report}");
    for (check, (board, rule, holds)) in checks.iter().zip([
        ("1x6", "pass", false),
        ("1x6", "table", true),
        ("1x7", "pass", false),
        ("1x7", "table", true),
    ]) {
        assert_eq!(check["board"], board, "{check}");
        assert_eq!(check["rule"], rule, "{check}");
        assert_eq!(check["holds"], holds, "{check}");
        assert_eq!(check["counterexample"].is_null(), holds, "{check}");
        // The empty board of 1x6 and 1x7 is a draw: no winner, no margin.
        assert!(check["start"]["winner"].is_null(), "{check}");
        assert_eq!(check["start"]["margin"], 0, "{check}");
    }
    // A counterexample's outcomes are White's results as numbers.
    let example = &checks[0]["counterexample"];
    assert_eq!(example["to_move"], "white", "{example}");
    assert!(example["rule_outcome"]["margin"].is_number(), "{example}");
    assert!(example["played"].is_array(), "{example}");

    let output = smallgo(&["analyze", "rule-1xn", "8", "--rule", "pass"]);
    assert!(output.status.success(), "{output:?}");
    let text = output.stdout;
    assert!(text.contains("1x8     0      pass      no"), "{text}");
    assert!(
        text.contains("after A1 (Black first), White to move"),
        "{text}"
    );
    assert!(text.contains("1 X . . . . . . . 1"), "{text}");
}

#[test]
fn boards_without_a_table_are_reported_and_the_others_checked() {
    let output = smallgo(&["analyze", "rule-1xn", "15-17", "--rule", "pass", "--json"]);
    assert!(output.status.success(), "{output:?}");
    let report = crate::json::object(&output, "rule-1xn");
    let checks = report["checks"].as_array().unwrap();
    for (check, board) in checks.iter().zip(["1x15", "1x16"]) {
        assert_eq!(check["board"], board, "{check}");
        assert_eq!(
            check["source"],
            format!("built-in table {board}"),
            "{check}"
        );
    }
    assert_eq!(
        report["missing"],
        serde_json::json!([{"board": "1x17", "reason": "no table of board 1x17, built in, \
             and it is too large to solve on the spot: build it with `smallgo build 1x17 --tables DIR` \
             and give --tables DIR"}]),
        "{report}"
    );
    assert!(output
        .stderr
        .contains("not checked: no table of board 1x17"));

    let output = smallgo(&["analyze", "rule-1xn", "16-17", "--rule", "pass"]);
    assert!(output.status.success(), "{output:?}");
    let text = output.stdout;
    assert!(text.contains("1x16    0      pass      no"), "{text}");
    assert!(
        text.contains("Not checked:\n  no table of board 1x17, built in"),
        "{text}"
    );
}

#[test]
fn the_thesis_rule_is_checked_in_every_reading() {
    let output = smallgo(&["analyze", "rule-1xn", "6", "--rule", "thesis", "--json"]);
    assert!(output.status.success(), "{output:?}");
    let report = crate::json::object(&output, "rule-1xn");
    let rules: Vec<&str> = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|check| check["rule"].as_str().unwrap())
        .collect();
    for orientation in ["kept", "again", "fresh"] {
        for first_black in ["from4", "min"] {
            for step_two in ["empty", "legal"] {
                let name = format!("thesis-{orientation}-{first_black}-{step_two}");
                assert!(rules.contains(&name.as_str()), "{name}: {rules:?}");
            }
        }
    }
    let output = smallgo(&["analyze", "rule-1xn", "6", "--rule", "thesis-kept-min"]);
    assert!(output.status.success(), "{output:?}");
    assert!(
        output.stdout.contains("thesis-kept-min-legal"),
        "{output:?}"
    );
    let output = smallgo(&["analyze", "rule-1xn", "6", "--rule", "thesis-sideways"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(
        output.stderr.contains("'thesis-sideways' is not a rule"),
        "{output:?}"
    );
}

#[test]
fn bad_lengths_and_missing_tables_are_refused() {
    for (arguments, message) in [
        (vec!["analyze", "rule-1xn", "0"], "not a board length"),
        (vec!["analyze", "rule-1xn", "9-6"], "runs backwards"),
        (vec!["analyze", "rule-1xn", "40"], "not a board length"),
        (
            vec!["analyze", "rule-1xn", "22"],
            "no table of board 1x22, built in, and it is too large to solve on the spot: \
             build it with `smallgo build 1x22 --tables DIR` and give --tables DIR",
        ),
        (
            vec!["analyze", "rule-1xn", "6", "--tables", "/nonexistent"],
            "--tables /nonexistent: does not exist",
        ),
    ] {
        let output = smallgo(&arguments);
        assert!(!output.status.success(), "{arguments:?}");
        let stderr = output.stderr;
        assert!(stderr.contains(message), "{arguments:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{arguments:?}");
    }
}
