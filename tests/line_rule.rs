//! `smallgo analyze rule-1xn` as a user meets it: the report per board and
//! rule, `--json`, and bad lengths and missing tables. The check itself is
//! tested against a brute force in `src/tests/line_rule.rs`.

mod support;

use support::command::smallgo;

#[test]
fn the_command_reports_per_board_and_rule() {
    let output = smallgo(&[
        "analyze", "rule-1xn", "6-7", "--rule", "pass", "--rule", "table", "--json",
    ]);
    assert!(output.status.success(), "{output:?}");
    let text = output.stdout;
    let checks: Vec<&str> = text.split("{\"board\": ").skip(1).collect();
    assert_eq!(checks.len(), 4, "{text}");
    for (check, (board, rule, holds)) in checks.iter().zip([
        ("1x6", "pass", false),
        ("1x6", "table", true),
        ("1x7", "pass", false),
        ("1x7", "table", true),
    ]) {
        assert!(check.starts_with(&format!("\"{board}\"")), "{check}");
        assert!(check.contains(&format!("\"rule\": \"{rule}\"")), "{check}");
        assert!(check.contains(&format!("\"holds\": {holds}")), "{check}");
        assert_eq!(check.contains("\"counterexample\": null"), holds, "{check}");
    }

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
fn bad_lengths_and_missing_tables_are_refused() {
    for (arguments, message) in [
        (vec!["analyze", "rule-1xn", "0"], "not a board length"),
        (vec!["analyze", "rule-1xn", "9-6"], "runs backwards"),
        (vec!["analyze", "rule-1xn", "40"], "not a board length"),
        (
            vec!["analyze", "rule-1xn", "22"],
            "no table of board 1x22, built in: build it with `smallgo build 1x22`",
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
