//! `smallgo analyze cycles` as a user meets it: the report, `--json`,
//! `--placements-only`, `--tables DIR` and bad arguments. The components
//! and values are checked against brute forces in `src/tests/cycles.rs`.

use crate::support::command::smallgo;

#[test]
fn the_report_gives_the_figures() {
    let output = smallgo(&["analyze", "cycles", "2x3"]);
    assert!(output.status.success(), "{}", output.stderr);
    let report = output.stdout;
    for line in [
        "board       2x3",
        "states      293 ",
        "components  55 strongly connected; 1 with more than one state",
        "on a cycle  239 states (81.57%)",
        "example cycle 1",
        "Black to move",
        "the empty board: A -6 in 12 / B -6 in 11 (cycle-dependent, not on a cycle)",
    ] {
        assert!(report.contains(line), "{line}\n{report}");
    }
    // The board is drawn as showboard draws it.
    assert!(report.contains("   A B C\n2 "), "{report}");
    // The turned board is the same graph.
    let turned = smallgo(&["analyze", "cycles", "3x2"]);
    assert!(turned.status.success(), "{}", turned.stderr);
    assert!(turned.stdout.contains("states      293 "));
    assert!(turned.stdout.contains("turned"));
}

#[test]
fn placements_only_leaves_the_passes_out() {
    let output = smallgo(&["analyze", "cycles", "3x3", "--placements-only", "--json"]);
    assert!(output.status.success(), "{}", output.stderr);
    let json = output.stdout;
    assert!(json.contains("\"graph\": \"placements only\""), "{json}");
    assert!(json.contains("\"states\": 3696,"), "{json}");
    assert!(!json.contains("\"pass\""), "{json}");
    let every = smallgo(&["analyze", "cycles", "3x3", "--json"]).stdout;
    let edges = |json: &str| -> u64 {
        let at = json.find("\"edges\": ").unwrap() + 9;
        json[at..].split(',').next().unwrap().parse().unwrap()
    };
    // One pass edge from every state with no pass pending.
    assert!(edges(&json) < edges(&every));
}

#[test]
fn json_gives_the_same_figures() {
    let output = smallgo(&["analyze", "cycles", "3x3", "--json"]);
    assert!(output.status.success(), "{}", output.stderr);
    let json = output.stdout;
    for field in [
        "\"board\": \"3x3\"",
        "\"states\": 3696,",
        "\"components_with_more_than_one_state\": 1,",
        "\"unable_to_reach_a_cycle\": 0,",
        "\"moves\": [\"",
    ] {
        assert!(json.contains(field), "{field}\n{json}");
    }
    assert!(json.trim_start().starts_with('{') && json.trim_end().ends_with('}'));
    let opens = json.matches(['{', '[']).count();
    let closes = json.matches(['}', ']']).count();
    assert_eq!(opens, closes, "{json}");
    assert!(!json.contains("example cycle"));
}

#[test]
fn tables_from_a_folder_serve() {
    let folder = tempfile::tempdir().unwrap();
    let dir = folder.path().to_str().unwrap();
    let built = smallgo(&["build", "2x2", "--tables", dir]);
    assert!(built.status.success(), "{}", built.stderr);
    let output = smallgo(&["analyze", "cycles", "2x2", "--tables", dir]);
    assert!(output.status.success(), "{}", output.stderr);
    let report = output.stdout;
    assert!(report.contains(dir), "{report}");
    assert!(report.contains("states      26 "), "{report}");
}

#[test]
fn bad_arguments_fail_with_a_message() {
    for (arguments, code, said) in [
        (&["analyze", "cycles"][..], 2, "<RxC>"),
        (
            &["analyze", "cycles", "3x3x"][..],
            2,
            "'3x3x' is not a board",
        ),
        (
            &["analyze", "cycles", "3x3", "--komi", "1"][..],
            2,
            "--komi",
        ),
        (
            &["analyze", "cycles", "3x3", "--tables", "/no/such/folder"][..],
            1,
            "--tables /no/such/folder: does not exist",
        ),
        (
            &["analyze", "cycles", "6x6"][..],
            1,
            "smallgo: analyze cycles: board 6x6",
        ),
        (
            &["analyze", "cycles", "5x5"][..],
            1,
            "smallgo: analyze cycles: ",
        ),
    ] {
        let output = smallgo(arguments);
        let message = output.stderr;
        assert_eq!(output.status.code(), Some(code), "{arguments:?}: {message}");
        assert!(message.contains(said), "{arguments:?}: {message}");
        assert!(!message.contains("panicked"), "{arguments:?}: {message}");
        assert!(output.stdout.is_empty(), "{arguments:?}");
    }
}

/// The largest board's graph, searched by the binary: the search is as deep
/// as the giant component, millions of states, on a vector, not the stack.
#[test]
fn the_largest_boards_do_not_overflow_the_stack() {
    let output = smallgo(&["analyze", "cycles", "3x5", "--json"]);
    assert!(output.status.success(), "{}", output.stderr);
    assert!(output.stdout.contains("\"states\": 4200206,"));
}
