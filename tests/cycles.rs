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
        "the empty board: Black (to move) can force -6 in 12 plies; White can force -6 in 11 plies (cycle-dependent, not on a cycle)",
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
    let json = crate::json::object(&output, "cycles");
    assert_eq!(json["graph"], "placements only", "{json}");
    assert_eq!(json["states"], 3696, "{json}");
    assert!(!json.to_string().contains("\"pass\""), "{json}");
    let every = crate::json::object(&smallgo(&["analyze", "cycles", "3x3", "--json"]), "cycles");
    let edges = |json: &serde_json::Value| json["graph_edges"].as_u64().unwrap();
    // One pass edge from every state with no pass pending.
    assert!(edges(&json) < edges(&every));
}

#[test]
fn json_gives_the_same_figures() {
    let output = smallgo(&["analyze", "cycles", "3x3", "--json"]);
    assert!(output.status.success(), "{}", output.stderr);
    let json = crate::json::object(&output, "cycles");
    assert_eq!(json["board"], "3x3");
    assert_eq!(json["states"], 3696);
    assert_eq!(json["components_with_more_than_one_state"], 1);
    assert_eq!(json["cycle_dependent"]["unable_to_reach_a_cycle"], 0);
    assert!(json["source"].as_str().unwrap().contains("3x3"), "{json}");
    let example = &json["examples"][0];
    assert!(example["cycle"][0].is_string(), "{json}");
    assert!(example["cycle_length"].as_u64().unwrap() > 0, "{json}");
    // The text report's figures are the same.
    let text = smallgo(&["analyze", "cycles", "3x3"]).stdout;
    assert!(text.contains("states      3,696"), "{text}");
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
    assert_eq!(crate::json::object(&output, "cycles")["states"], 4200206);
}
