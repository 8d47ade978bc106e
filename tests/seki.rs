//! `smallgo analyze seki` as a user meets it: the report and its example,
//! `--json`, `--tables DIR` and turned boards, and bad arguments. The counts
//! are checked against a brute force in `src/tests/seki.rs`.

use crate::support::command::smallgo;

#[test]
fn the_report_shows_the_2x3_seki() {
    let output = smallgo(&["analyze", "seki", "2x3"]);
    assert!(output.status.success(), "{}", output.stderr);
    let report = output.stdout;
    assert!(report.contains("board     2x3"), "{report}");
    assert!(
        report.contains("1 with Black to move, 1 with White to move"),
        "{report}"
    );
    // The one seki of 2x3: two columns sharing the middle two liberties,
    // drawn as showboard draws it.
    assert!(
        report.contains("   A B C\n2 O . X 2\n1 O . X 1\n   A B C"),
        "{report}"
    );
}

#[test]
fn the_criteria_read_word_for_word_are_a_variant() {
    let ours = smallgo(&["analyze", "seki", "2x4", "--json"]).stdout;
    let written = smallgo(&["analyze", "seki", "2x4", "--reading", "written", "--json"]);
    assert!(written.status.success(), "{}", written.stderr);
    let written = written.stdout;
    let reading = |json: &str| crate::json::objects(json)[0]["reading"].clone();
    assert_eq!(reading(&ours), "ours", "{ours}");
    assert_eq!(reading(&written), "written", "{written}");
    // The readings differ on 2x4 (the brute force in src/tests/seki.rs
    // checks each count).
    assert_ne!(
        json_figures(&ours, "thesis"),
        json_figures(&written, "thesis")
    );
    let report = smallgo(&["analyze", "seki", "2x4", "--reading", "written"]).stdout;
    assert!(report.contains("criteria read: written"), "{report}");
    let loose = smallgo(&[
        "analyze",
        "seki",
        "2x6",
        "--reading",
        "lost-enough",
        "--json",
    ])
    .stdout;
    let written = smallgo(&["analyze", "seki", "2x6", "--reading", "written", "--json"]).stdout;
    assert_eq!(reading(&loose), "lost-enough", "{loose}");
    assert_ne!(
        json_figures(&loose, "thesis"),
        json_figures(&written, "thesis")
    );
}

#[test]
fn tables_from_a_folder_are_read_and_turned_boards_served() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().to_str().unwrap();
    let built = smallgo(&["build", "3x3", "--tables", path]);
    assert!(built.status.success(), "{}", built.stderr);
    let from_folder = smallgo(&["analyze", "seki", "3x3", "--json", "--tables", path]);
    assert!(from_folder.status.success(), "{}", from_folder.stderr);
    let built_in = smallgo(&["analyze", "seki", "3x3", "--json"]);
    let (a, b) = (from_folder.stdout, built_in.stdout);
    assert!(a.contains("3x3.sgtb"), "{a}");
    assert_eq!(
        json_figures(&a, "thesis"),
        json_figures(&b, "thesis"),
        "the file and the built-in table agree"
    );
    // 3x2 is 2x3 turned: the same counts.
    let turned = smallgo(&["analyze", "seki", "3x2", "--json"]).stdout;
    let plain = smallgo(&["analyze", "seki", "2x3", "--json"]).stdout;
    assert_eq!(
        json_figures(&turned, "thesis"),
        json_figures(&plain, "thesis")
    );
    let turned = &crate::json::objects(&turned)[0];
    assert_eq!(
        (&turned["board"], &turned["table_board"]),
        (&"3x2".into(), &"2x3".into()),
        "{turned}"
    );
}

#[test]
fn bad_arguments_are_refused_with_a_message() {
    let missing = tempfile::tempdir().unwrap().path().join("missing");
    let missing = missing.to_str().unwrap().to_string();
    for (arguments, code, said) in [
        (vec!["5x5"], 1, "no table of board 5x5"),
        (vec!["2x9"], 1, "build it with `smallgo build 2x9`"),
        (vec!["0x3"], 2, "board 0x3 is not allowed"),
        (vec!["foo"], 2, "'foo' is not a board"),
        (vec![], 2, "RxC"),
        (vec!["3x3", "--komi", "x"], 2, "'x' is not a finite number"),
        (vec!["3x3", "--komi", "inf"], 2, "not a finite number"),
        (vec!["3x3", "--best", "fast"], 2, "invalid value 'fast'"),
        (
            vec!["3x3", "--reading", "loose"],
            2,
            "invalid value 'loose'",
        ),
        (vec!["3x3", "--examples=-1"], 2, "--examples"),
        (vec!["3x3", "--tables", &missing], 1, "does not exist"),
    ] {
        let mut full = vec!["analyze", "seki"];
        full.extend(arguments.iter().copied());
        let output = smallgo(&full);
        let message = output.stderr;
        assert_eq!(output.status.code(), Some(code), "{arguments:?}: {message}");
        assert!(message.contains(said), "{arguments:?}: {message}");
        assert!(!message.contains("panicked"), "{message}");
        assert!(output.stdout.is_empty(), "{arguments:?}");
    }
}

/// A tally of `analyze seki --json`: canonical states and images with
/// Black, then White, to move; coloured boards.
fn json_figures(json: &str, which: &str) -> [u64; 5] {
    let objects = crate::json::objects(json);
    let tally = &objects[0][which];
    [
        "black_to_move",
        "white_to_move",
        "black_to_move_images",
        "white_to_move_images",
        "boards",
    ]
    .map(|key| {
        tally[key]
            .as_u64()
            .unwrap_or_else(|| panic!("no {which}.{key} in {json}"))
    })
}
