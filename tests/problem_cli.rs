//! `smallgo solve` as a user meets it: corner, edge and centre problems
//! from SGF files, the region and targets inferred, marked in the file and
//! given as options, a diagram on the command line, the problem set of
//! gtp-tests/problems solved to its committed output, the JSON document's
//! keys, the solution tree written with -o read back and replayed move by
//! move on a plain board, and bad input refused with a message naming the
//! file or option, exit code 1 and no output file.

use std::path::{Path, PathBuf};

use crate::support::command::{smallgo, Smallgo};
use crate::support::go_board::{AfterMove, Color, GoBoard, Move, Shape};

fn problems() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-tests/problems")
}

fn problem(name: &str) -> String {
    problems().join(format!("{name}.sgf")).display().to_string()
}

/// Runs `smallgo solve` and returns its standard output, checking success.
fn solve(arguments: &[&str]) -> String {
    let mut all = vec!["solve"];
    all.extend_from_slice(arguments);
    let outcome = smallgo(&all);
    assert!(
        outcome.status.success(),
        "{arguments:?}: {}{}",
        outcome.stdout,
        outcome.stderr
    );
    outcome.stdout
}

#[test]
fn corner_edge_and_centre_problems_are_solved() {
    // Bulky five in the corner: the vital point B1 kills or lives.
    let text = solve(&[&problem("bulky-five")]);
    assert!(text.contains("inferred in the frame A1-E4"), "{text}");
    assert!(text.contains("Black (attacker) first: dead"), "{text}");
    assert!(text.contains("White (defender) first: alive"), "{text}");
    assert!(text.contains("    B1    dead"), "{text}");
    assert!(text.contains("  3 @ @ @ x x"), "{text}");
    // A bent three on the lower edge, White to play first (PL).
    let text = solve(&[&problem("bent-three-edge")]);
    let white = text.find("White (defender) first: alive").expect(&text);
    let black = text.find("Black (attacker) first: dead").expect(&text);
    assert!(white < black, "the file's player comes first: {text}");
    // Two eyes in the centre live whoever plays.
    let text = solve(&[&problem("centre-two-eyes")]);
    assert!(text.contains("J9-N9,J10-N10,J11-N11"), "{text}");
    assert_eq!(text.matches("first: alive").count(), 2, "{text}");
    // A seki in the corner, and a bent four that is a ko.
    let text = solve(&[&problem("seki-corner")]);
    assert_eq!(text.matches("first: seki").count(), 2, "{text}");
    let text = solve(&[&problem("bent-four-corner")]);
    assert!(
        text.contains("Black (attacker) first: ko, the defender must win it to live"),
        "{text}"
    );
}

/// The problems of gtp-tests/problems, in name order (at least ten).
fn problem_files() -> Vec<PathBuf> {
    let files = sgf_files(&problems());
    assert!(files.len() >= 10, "{files:?}");
    files
}

/// The SGF files of `folder` (not of its subfolders), in name order.
fn sgf_files(folder: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .collect();
    files.sort();
    files
}

/// Every problem of gtp-tests/problems solves to the JSON committed
/// beside it.
#[test]
fn the_problem_set_solves_to_its_committed_output() {
    let files = problem_files();
    for file in files {
        let name = file.file_name().unwrap().to_str().unwrap();
        let outcome = Smallgo::new(&["solve", name, "--json"])
            .folder(&problems())
            .run();
        assert!(outcome.status.success(), "{name}: {}", outcome.stderr);
        let expected = std::fs::read_to_string(file.with_extension("json")).unwrap();
        assert_eq!(outcome.stdout.trim(), expected.trim(), "{name}");
    }
}

/// The main line plays perfectly under basic ko: when the attacker
/// captures the targets with no threats, the line is as long as the
/// basic-ko solution counts (the attacker's shortest capture against the
/// defender's longest resistance), for every problem of
/// gtp-tests/problems and both sides to play first.
#[test]
fn the_main_line_is_as_long_as_the_basic_ko_capture() {
    let mut captured = 0;
    for file in sgf_files(&problems()) {
        let json = parse_json(&solve(&[file.to_str().unwrap(), "--json"]));
        for side in json.at("sides").list() {
            let basic = side.at("ko_assumptions").at("basic");
            if basic.at("captured") != &Json::Bool(true) {
                continue;
            }
            assert_eq!(
                side.at("main_line").list().len() as f64,
                basic.at("plies").number(),
                "{}: {side:?}",
                file.display()
            );
            captured += 1;
        }
    }
    assert!(captured >= 5, "{captured}");
}

/// A corner problem with extra stones far away, so that the region and
/// the targets can be given several ways.
const MARKED: &str = "(;GM[1]FF[4]SZ[19]C[a corner]AB[ao][bo][co][do][dp][dq][dr][ds][pd]\
    AW[ap][bp][cp][cq][cr][cs][dd]PL[B]SQ[aq:cs]MA[cs])";

#[test]
fn regions_and_targets_given_by_marks_and_options() {
    let folder = tempfile::tempdir().unwrap();
    let file = folder.path().join("marked.sgf");
    std::fs::write(&file, MARKED).unwrap();
    let file = file.to_str().unwrap();
    let text = solve(&[file]);
    assert!(text.contains("marked in the file (SQ)"), "{text}");
    assert!(
        text.contains("targets C1 (marked in the file (MA/TR))"),
        "{text}"
    );
    // The whole string of C1 is in the region: C1-C4, A4, B4.
    assert!(text.contains("A1-C1,A2-C2,A3-C3,A4-C4"), "{text}");
    let json = parse_json(&solve(&[file, "--json"]));
    assert_eq!(json.at("region").at("from").text(), "marked");
    assert_eq!(json.at("targets_from").text(), "marked");
    // Options replace the marks.
    let text = solve(&[file, "--region", "A1-B3", "--targets", "A4,B4"]);
    assert!(text.contains("given by --region"), "{text}");
    assert!(
        text.contains("targets A4 B4 (given by --targets)"),
        "{text}"
    );
    // Without marks the region is inferred: the same corner.
    let unmarked = MARKED.replace("SQ[aq:cs]MA[cs]", "");
    let plain = folder.path().join("plain.sgf");
    std::fs::write(&plain, unmarked).unwrap();
    let text = solve(&[plain.to_str().unwrap()]);
    assert!(text.contains("inferred in the frame A1-Q16"), "{text}");
    assert!(text.contains("A1-C1,A2-C2,A3-C3,A4-C4"), "{text}");
    assert!(
        text.contains("targets C1 C2 C3 A4 B4 C4 (inferred"),
        "{text}"
    );
}

#[test]
fn a_diagram_on_the_command_line_is_a_whole_board() {
    let text = solve(&["--diagram", "XXXXX./OOOOX./...OX.", "--player", "W"]);
    assert!(text.contains("White (defender) first: alive"), "{text}");
    assert!(text.contains("Black (attacker) first: dead"), "{text}");
    assert!(text.contains("    B1    alive"), "{text}");
}

#[test]
fn bad_input_fails_with_a_clear_message_and_no_output() {
    let folder = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = folder.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let corner = problem("bulky-five");
    let unclosed = write("unclosed.sgf", "(;SZ[19]AB[aa]");
    let off = write("off.sgf", "(;SZ[9]AB[jj])");
    let open = write("open.sgf", "(;SZ[19]AB[jj]AW[kk])");
    let missing = folder.path().join("missing.sgf");
    let missing = missing.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec![missing], "missing.sgf"),
        (vec![&unclosed], "unclosed.sgf: not a readable SGF file"),
        (vec![&off], "AB \"jj\": not a point of the 9x9 board"),
        (vec![&open], "region: none found"),
        (vec![&corner, "--region", "A1-Z9"], "--region \"A1-Z9\""),
        (vec![&corner, "--region", "A1-T19"], "361 points"),
        (
            vec![&corner, "--targets", "A1"],
            "A1: a target (--targets) holds no stone",
        ),
        (
            vec![&corner, "--memory", "40K"],
            "bulky-five.sgf: with Black first, basic ko: the problem needs more than 40.0 KiB \
             of memory, the limit: stopped after",
        ),
        (
            vec![&corner, "--memory", "40K"],
            "6 solutions are held together within the 40.0 KiB of --memory",
        ),
        (
            vec![&corner, "--region", "A1-G5", "--solver", "full"],
            "the region has 35 points (29 outside the target strings): up to 1.0e16 states, \
             more than the 2^40",
        ),
        (
            vec![
                &corner,
                "--region",
                "A1-G5",
                "--solver",
                "search",
                "--max-nodes",
                "1000",
            ],
            "with Black first, attacker ignores ko: the search expanded 1001 states, its limit",
        ),
    ];
    for (arguments, message) in cases {
        let output = folder.path().join("out.sgf");
        let mut all = vec!["solve"];
        all.extend_from_slice(&arguments);
        all.extend_from_slice(&["-o", output.to_str().unwrap()]);
        let outcome = smallgo(&all);
        assert_eq!(outcome.status.code(), Some(1), "{arguments:?}");
        assert!(
            outcome.stderr.starts_with("smallgo: solve: ") && outcome.stderr.contains(message),
            "{arguments:?}: {}",
            outcome.stderr
        );
        assert!(!outcome.stderr.contains("panicked"), "{}", outcome.stderr);
        assert!(!output.exists(), "{arguments:?} left {}", output.display());
        assert!(outcome.stdout.is_empty(), "{arguments:?}");
    }
    // Neither a file nor a diagram: clap's usage error.
    let outcome = smallgo(&["solve"]);
    assert_eq!(outcome.status.code(), Some(2));
}

/// A problem too large for the full solver is refused with its figures:
/// one whose bound of states passes 2^40 at once, with that bound (no
/// enumeration begun); one below it that passes `--memory` mid-run (its
/// first solve counting the five solutions to come), with the states and
/// moves it reached and the memory they need. Either way exit 1, nothing
/// on standard output and no output file.
#[test]
fn a_problem_too_large_is_refused_with_its_figures() {
    let folder = tempfile::tempdir().unwrap();
    let output = folder.path().join("out.sgf");
    let out = output.to_str().unwrap();
    let connected = problems()
        .join("large/unsolved/j-group-connected.sgf")
        .display()
        .to_string();
    let corner_14 = [
        "--diagram",
        "......../....XXXX/....XXXX/OOOOOOOO/.X.....O",
        "--region",
        "A1-H2,A3-D4",
    ];
    let refused = |arguments: &[&str]| {
        let mut all = vec!["solve"];
        all.extend_from_slice(arguments);
        all.extend_from_slice(&["--solver", "full", "-o", out]);
        let outcome = smallgo(&all);
        assert_eq!(outcome.status.code(), Some(1), "{arguments:?}");
        assert!(outcome.stdout.is_empty(), "{arguments:?}");
        assert!(!output.exists(), "{arguments:?}");
        assert!(!outcome.stderr.contains("panicked"), "{}", outcome.stderr);
        outcome.stderr
    };
    let before = refused(&[&connected]);
    assert!(
        before.contains("up to 1.1e15 states, more than the 2^40")
            && !before.contains("stopped after"),
        "{before}"
    );
    let mut arguments = corner_14.to_vec();
    arguments.extend_from_slice(&["--memory", "36M"]);
    let stopped = refused(&arguments);
    let figures = stopped
        .split("the problem needs more than 36.0 MiB of memory, the limit: stopped after ")
        .nth(1)
        .unwrap_or_else(|| panic!("{stopped}"));
    let words: Vec<&str> = figures.split_whitespace().collect();
    let states: u64 = words[0].parse().unwrap();
    let moves: u64 = words[3].parse().unwrap();
    let needing: f64 = words[6].parse().unwrap();
    assert_eq!(
        (words[1], words[2], words[4], words[5], words[7]),
        ("states", "and", "moves", "(needing", "MiB:"),
        "{stopped}"
    );
    // The corner has 8.5 M states a solution; 36 MiB holds some hundred
    // thousand of them six times.
    assert!((10_000..1_000_000).contains(&states), "{stopped}");
    assert!(
        moves > states && (36.0..40.0).contains(&needing),
        "{stopped}"
    );
}

/// A size as `human_bytes` writes it (`5.8 MiB`, `0 B`), in bytes.
fn size_of_words(number: &str, unit: &str) -> f64 {
    let scale = match unit {
        "B" => 1.0,
        "KiB" => 1024.0,
        "MiB" => 1024.0 * 1024.0,
        "GiB" => 1024.0 * 1024.0 * 1024.0,
        _ => panic!("no unit {unit}"),
    };
    number.parse::<f64>().unwrap() * scale
}

/// `--memory` counts the six solutions as they are held: while the first
/// solve runs, itself at its peak and five more of its size kept, not a
/// sixth of the memory each. A corner refused with 24 MiB is refused with
/// those figures (they add up, the peak a state above what a solution
/// keeps); the same corner with 40 MiB is solved, six solutions of its
/// states, which those figures a state fit in 40 MiB while six solves at
/// their peak, a sixth each, would not.
#[test]
fn memory_counts_the_solutions_as_they_are_held() {
    let corner = [
        "--diagram",
        "....../...XXX/...XXX/OOOOOO/.X...O",
        "--region",
        "A1-F2,A3-C4",
        "--solver",
        "full",
    ];
    let mut arguments = vec!["solve"];
    arguments.extend_from_slice(&corner);
    arguments.extend_from_slice(&["--memory", "24M"]);
    let refused = smallgo(&arguments);
    assert_eq!(refused.status.code(), Some(1), "{}", refused.stderr);
    let message = refused.stderr;
    let figures = message
        .split(
            "with Black first, basic ko: the problem needs more than 24.0 MiB of memory, \
             the limit: stopped after ",
        )
        .nth(1)
        .unwrap_or_else(|| panic!("{message}"));
    let part = |text: &'static str, after: &str| -> (String, String) {
        let (before, rest) = after
            .split_once(text)
            .unwrap_or_else(|| panic!("no \"{text}\" in {message}"));
        (before.to_string(), rest.to_string())
    };
    let (states, rest) = part(" states and ", figures);
    let (moves, rest) = part(" moves (needing ", &rest);
    let (needing, rest) = part(": ", &rest);
    let (peak, rest) = part(" at the peak of a solve of this size, ", &rest);
    let (held, rest) = part(" held by the solutions made before, ", &rest);
    let (later, _) = part(
        " for 5 more solutions of this size kept), the whole not yet found",
        &rest,
    );
    let states: f64 = states.parse().unwrap();
    let moves: f64 = moves.parse().unwrap();
    assert!(moves > states, "{message}");
    let [needing, peak, held, later] = [needing, peak, held, later].map(|words| {
        let (number, unit) = words.split_once(' ').unwrap();
        size_of_words(number, unit)
    });
    let mib = 1024.0 * 1024.0;
    assert_eq!(held, 0.0, "{message}");
    assert!(needing >= 24.0 * mib, "{message}");
    assert!(
        (peak + held + later - needing).abs() < 0.2 * mib,
        "{message}"
    );
    let (peak_a_state, kept_a_state) = (peak / states, later / 5.0 / states);
    assert!((30.0..80.0).contains(&peak_a_state), "{message}");
    assert!((15.0..40.0).contains(&kept_a_state), "{message}");
    assert!(peak_a_state > kept_a_state, "{message}");

    let mut arguments = corner.to_vec();
    arguments.extend_from_slice(&["--memory", "40M", "--json"]);
    let json = parse_json(&solve(&arguments));
    let mut counts = Vec::new();
    for side in json.at("sides").list() {
        for ko in ["basic", "attacker_ignores_ko", "defender_ignores_ko"] {
            counts.push(side.at("ko_assumptions").at(ko).at("states").number());
        }
    }
    assert_eq!(counts.len(), 6);
    let most = counts.iter().cloned().fold(0.0, f64::max);
    assert!(most > states, "{counts:?}");
    let held_together = most * (peak_a_state + 5.0 * kept_a_state);
    let a_sixth_each = 6.0 * most * peak_a_state;
    assert!(
        held_together < 40.0 * mib && a_sixth_each > 40.0 * mib,
        "{counts:?}, {held_together}, {a_sixth_each}: {message}"
    );
}

#[test]
fn the_json_document_has_the_documented_keys() {
    let json = parse_json(&solve(&[&problem("bent-four-corner"), "--json"]));
    assert_eq!(json.at("kind").text(), "solve");
    for key in [
        "problem",
        "board",
        "region",
        "attacker",
        "defender",
        "targets",
        "targets_from",
        "safe_stones",
        "seki_untested",
        "sides",
    ] {
        json.at(key);
    }
    assert_eq!(json.at("board").text(), "19x19");
    assert_eq!(json.at("region").at("size").number(), 10.0);
    assert_eq!(json.at("region").at("empty").number(), 4.0);
    assert_eq!(json.at("region").at("frame").text(), "A1-E4");
    assert_eq!(json.at("attacker").text(), "black");
    assert_eq!(json.at("safe_stones").at("white").list().len(), 0);
    let sides = json.at("sides").list();
    assert_eq!(sides.len(), 2);
    let black = &sides[0];
    assert_eq!(black.at("to_move").text(), "black");
    assert_eq!(black.at("role").text(), "attacker");
    assert_eq!(black.at("status").text(), "ko_defender_must_win");
    let ko = black.at("ko_assumptions");
    assert_eq!(ko.at("basic").at("captured"), &Json::Bool(true));
    assert_eq!(
        ko.at("defender_ignores_ko").at("captured"),
        &Json::Bool(false)
    );
    assert_eq!(ko.at("defender_ignores_ko").at("plies"), &Json::Null);
    assert!(ko.at("attacker_ignores_ko").at("states").number() > 0.0);
    let moves = black.at("moves").list();
    let b1 = moves.iter().find(|m| m.at("point").text() == "B1").unwrap();
    assert_eq!(b1.at("correct"), &Json::Bool(true));
    assert_eq!(b1.at("captured").list().len(), 3);
    assert!(!black.at("main_line").list().is_empty());
    assert_eq!(sides[1].at("status").text(), "alive");
}

/// The tree written with -o: the setup and marks in the root, every first
/// move as a variation marked TE or BM as the JSON says, and every line
/// legal on a plain board, ending as its last comment says.
/// The proof search (`--solver search`) gives every problem of
/// gtp-tests/problems the full solver's results: for both sides to play
/// first, the status, each ko assumption's capture and plies, every first
/// move's status, correctness, captures and plies, and a main line as
/// long.
#[test]
fn the_proof_search_gives_the_full_solvers_results() {
    let files = problem_files();
    for file in files {
        let name = file.to_str().unwrap();
        let full = parse_json(&solve(&[name, "--json", "--solver", "full"]));
        let search = parse_json(&solve(&[name, "--json", "--solver", "search"]));
        let (a, b) = (full.at("sides").list(), search.at("sides").list());
        assert_eq!(a.len(), b.len());
        for (a, b) in a.iter().zip(b) {
            assert_eq!(a.at("status"), b.at("status"), "{name}");
            assert_eq!(a.at("moves"), b.at("moves"), "{name}");
            for ko in ["basic", "attacker_ignores_ko", "defender_ignores_ko"] {
                for key in ["captured", "plies"] {
                    assert_eq!(
                        a.at("ko_assumptions").at(ko).at(key),
                        b.at("ko_assumptions").at(ko).at(key),
                        "{name}"
                    );
                }
            }
            assert_eq!(
                a.at("main_line").list().len(),
                b.at("main_line").list().len(),
                "{name}"
            );
        }
    }
}

/// The solution tree of each solver reads back and replays.
#[test]
fn the_solution_tree_reads_back_and_replays() {
    let folder = tempfile::tempdir().unwrap();
    for (name, solver) in [
        ("bulky-five", "full"),
        ("bent-four-corner", "full"),
        ("seki-corner", "full"),
        ("bent-three-edge", "full"),
        ("bulky-five", "search"),
        ("bent-four-corner", "search"),
        ("seki-corner", "search"),
        ("bent-three-edge", "search"),
    ] {
        let output = folder.path().join(format!("{name}-{solver}.sgf"));
        let json = parse_json(&solve(&[
            &problem(name),
            "--json",
            "--solver",
            solver,
            "-o",
            output.to_str().unwrap(),
        ]));
        let text = std::fs::read_to_string(&output).unwrap();
        let root = parse_tree(&text);
        let input = parse_tree(&std::fs::read_to_string(problem(name)).unwrap());
        let sorted = |tree: &Tree, name: &str| {
            let mut points = tree.get(name).unwrap_or_default();
            points.sort();
            points
        };
        assert_eq!(sorted(&root, "AB"), sorted(&input, "AB"), "{name}");
        assert_eq!(sorted(&root, "AW"), sorted(&input, "AW"), "{name}");
        assert_eq!(root.get("SZ"), Some(vec!["19".to_string()]));
        let side = &json.at("sides").list()[0];
        let first = if side.at("to_move").text() == "black" {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(root.get("PL").unwrap()[0], &first.to_string()[..1]);
        let targets: Vec<String> = json
            .at("targets")
            .list()
            .iter()
            .map(|t| t.text().to_string())
            .collect();
        assert_eq!(root.get("MA").unwrap().len(), targets.len(), "{name}");
        let moves = side.at("moves").list();
        assert_eq!(root.children.len(), moves.len(), "{name}");
        for m in moves {
            let vertex = m.at("point").text();
            let child = root
                .children
                .iter()
                .find(|c| gtp_name(c.get(first_letter(first)).unwrap()[0].as_str()) == vertex)
                .unwrap_or_else(|| panic!("{name}: no variation for {vertex}"));
            let correct = m.at("correct") == &Json::Bool(true);
            assert_eq!(child.get("TE").is_some(), correct, "{name} {vertex}");
            assert_eq!(child.get("BM").is_some(), !correct, "{name} {vertex}");
        }
        let mut lines = 0;
        replay(&root, &input, first, &targets, &mut Vec::new(), &mut lines);
        assert!(
            (moves.len()..=moves.len() + 64).contains(&lines),
            "{name}: {lines}"
        );
    }
}

fn first_letter(colour: Color) -> &'static str {
    match colour {
        Color::Black => "B",
        Color::White => "W",
    }
}

/// The GTP name of an SGF point on a 19x19 board (`pass` for an empty
/// value).
fn gtp_name(point: &str) -> String {
    let bytes = point.as_bytes();
    if bytes.is_empty() {
        return "pass".into();
    }
    let letters = b"ABCDEFGHJKLMNOPQRST";
    let column = letters[(bytes[0] - b'a') as usize] as char;
    format!("{column}{}", 19 - (bytes[1] - b'a') as usize)
}

/// Follows every line of the tree from the setup of `input`, checking
/// each move on a plain board and each line's end against its comment.
fn replay(
    node: &Tree,
    input: &Tree,
    first: Color,
    targets: &[String],
    path: &mut Vec<(Color, String)>,
    lines: &mut usize,
) {
    if node.children.is_empty() {
        *lines += 1;
        let shape = Shape::new(19, 19);
        let mut board = GoBoard::new(shape);
        set_up(&mut board, input, first);
        let mut end = AfterMove::Continues;
        for (colour, vertex) in path.iter() {
            let mv = shape.parse_move(vertex).unwrap();
            end = board
                .play(*colour, mv)
                .unwrap_or_else(|e| panic!("{path:?}: {e}"));
        }
        let comment = node.get("C").map(|c| c[0].clone()).unwrap_or_default();
        if comment.contains("captured the targets") {
            // Each target point is empty: a stone may be tried there (the
            // plain board says `occupied` otherwise).
            let mut to_move = path.last().map_or(first, |(colour, _)| colour.opponent());
            for target in targets {
                let tried = board.play(to_move, shape.parse_move(target).unwrap());
                if let Err(error) = &tried {
                    assert!(!error.contains("occupied"), "{path:?}: {target} {error}");
                } else {
                    to_move = to_move.opponent();
                }
            }
        } else if comment.contains("unconditionally alive") {
            // Every target stone stands: a stone tried there is refused.
            let to_move = path.last().map_or(first, |(colour, _)| colour.opponent());
            for target in targets {
                let tried = board.play(to_move, shape.parse_move(target).unwrap());
                assert!(
                    tried.as_ref().is_err_and(|e| e.contains("occupied")),
                    "{path:?}: {target} {tried:?}"
                );
            }
        } else if comment.contains("Two passes") {
            assert_eq!(end, AfterMove::TwoPasses, "{path:?}");
        } else if comment.contains("repeats") {
            assert_eq!(end, AfterMove::Repetition, "{path:?}");
        } else {
            panic!("{path:?}: a line ends without saying how: {comment:?}");
        }
        return;
    }
    for child in &node.children {
        let (colour, value) = match (child.get("B"), child.get("W")) {
            (Some(b), None) => (Color::Black, b[0].clone()),
            (None, Some(w)) => (Color::White, w[0].clone()),
            _ => panic!("a node without one move: {child:?}"),
        };
        path.push((colour, gtp_name(&value)));
        replay(child, input, first, targets, path, lines);
        path.pop();
    }
}

/// Plays the setup stones of `input` as moves (the other side passing), so
/// that `first` is to move after them with no pass pending.
fn set_up(board: &mut GoBoard, input: &Tree, first: Color) {
    let shape = Shape::new(19, 19);
    let stones = |name: &str| -> Vec<Move> {
        input
            .get(name)
            .unwrap_or_default()
            .iter()
            .map(|p| shape.parse_move(&gtp_name(p)).unwrap())
            .collect()
    };
    let (black, white) = (stones("AB"), stones("AW"));
    // The side that does not play first places its stones last.
    let order = match first {
        Color::Black => [(Color::Black, black), (Color::White, white)],
        Color::White => [(Color::White, white), (Color::Black, black)],
    };
    let mut to_move = Color::Black;
    for (colour, list) in order {
        for mv in list {
            if to_move != colour {
                board.play(to_move, Move::Pass).unwrap();
            }
            board.play(colour, mv).unwrap();
            to_move = colour.opponent();
        }
    }
    if to_move != first {
        panic!("the setup leaves {to_move} to move, not {first}");
    }
}

/// A node of an SGF game tree, its properties and its variations.
#[derive(Debug, Default)]
struct Tree {
    properties: Vec<(String, Vec<String>)>,
    children: Vec<Tree>,
}

impl Tree {
    fn get(&self, name: &str) -> Option<Vec<String>> {
        self.properties
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    }
}

/// Reads the first game tree of SGF text, whole.
fn parse_tree(text: &str) -> Tree {
    let chars: Vec<char> = text.chars().collect();
    let mut at = chars.iter().position(|&c| c == '(').expect("a game tree") + 1;
    let mut trees = game_tree(&chars, &mut at);
    assert_eq!(trees.len(), 1);
    trees.remove(0)
}

/// A sequence of nodes and its variations, after its '(' and up to its
/// ')': the first node, with the rest as its descendants.
fn game_tree(chars: &[char], at: &mut usize) -> Vec<Tree> {
    let mut sequence: Vec<Tree> = Vec::new();
    let mut variations = Vec::new();
    loop {
        while chars[*at].is_whitespace() {
            *at += 1;
        }
        match chars[*at] {
            ';' => {
                *at += 1;
                sequence.push(node(chars, at));
            }
            '(' => {
                *at += 1;
                variations.extend(game_tree(chars, at));
            }
            ')' => {
                *at += 1;
                break;
            }
            other => panic!("unexpected {other:?} at {at}"),
        }
    }
    let mut tail = variations;
    while let Some(mut last) = sequence.pop() {
        last.children = tail;
        tail = vec![last];
    }
    tail
}

fn node(chars: &[char], at: &mut usize) -> Tree {
    let mut tree = Tree::default();
    loop {
        while chars[*at].is_whitespace() {
            *at += 1;
        }
        let start = *at;
        while chars[*at].is_ascii_uppercase() {
            *at += 1;
        }
        if start == *at {
            return tree;
        }
        let name: String = chars[start..*at].iter().collect();
        let mut values = Vec::new();
        loop {
            while chars[*at].is_whitespace() {
                *at += 1;
            }
            if chars[*at] != '[' {
                break;
            }
            *at += 1;
            let mut value = String::new();
            while chars[*at] != ']' {
                if chars[*at] == '\\' {
                    *at += 1;
                }
                value.push(chars[*at]);
                *at += 1;
            }
            *at += 1;
            values.push(value);
        }
        tree.properties.push((name, values));
    }
}

/// A JSON value, read by the small parser below.
#[derive(Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Number(f64),
    Text(String),
    List(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    fn at(&self, key: &str) -> &Json {
        match self {
            Json::Object(fields) => fields
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v)
                .unwrap_or_else(|| panic!("no key {key} in {self:?}")),
            _ => panic!("{self:?} is no object"),
        }
    }

    fn text(&self) -> &str {
        match self {
            Json::Text(text) => text,
            _ => panic!("{self:?} is no string"),
        }
    }

    fn number(&self) -> f64 {
        match self {
            Json::Number(n) => *n,
            _ => panic!("{self:?} is no number"),
        }
    }

    fn list(&self) -> &[Json] {
        match self {
            Json::List(items) => items,
            _ => panic!("{self:?} is no list"),
        }
    }
}

/// Reads one JSON document, which must be all of `text` (white space
/// aside).
fn parse_json(text: &str) -> Json {
    let chars: Vec<char> = text.chars().collect();
    let mut at = 0;
    let value = json_value(&chars, &mut at);
    while at < chars.len() && chars[at].is_whitespace() {
        at += 1;
    }
    assert_eq!(at, chars.len(), "text after the document: {text}");
    value
}

fn json_value(chars: &[char], at: &mut usize) -> Json {
    while chars[*at].is_whitespace() {
        *at += 1;
    }
    let word = |at: &mut usize, w: &str, value: Json| {
        let end = *at + w.len();
        assert_eq!(chars[*at..end].iter().collect::<String>(), w);
        *at = end;
        value
    };
    match chars[*at] {
        'n' => word(at, "null", Json::Null),
        't' => word(at, "true", Json::Bool(true)),
        'f' => word(at, "false", Json::Bool(false)),
        '"' => Json::Text(json_string(chars, at)),
        '[' => {
            *at += 1;
            let mut items = Vec::new();
            loop {
                while chars[*at].is_whitespace() {
                    *at += 1;
                }
                if chars[*at] == ']' {
                    *at += 1;
                    return Json::List(items);
                }
                if !items.is_empty() {
                    assert_eq!(chars[*at], ',');
                    *at += 1;
                }
                items.push(json_value(chars, at));
            }
        }
        '{' => {
            *at += 1;
            let mut fields = Vec::new();
            loop {
                while chars[*at].is_whitespace() {
                    *at += 1;
                }
                if chars[*at] == '}' {
                    *at += 1;
                    return Json::Object(fields);
                }
                if !fields.is_empty() {
                    assert_eq!(chars[*at], ',');
                    *at += 1;
                    while chars[*at].is_whitespace() {
                        *at += 1;
                    }
                }
                let key = json_string(chars, at);
                assert!(
                    key.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                    "{key} is not snake_case"
                );
                while chars[*at].is_whitespace() {
                    *at += 1;
                }
                assert_eq!(chars[*at], ':');
                *at += 1;
                fields.push((key, json_value(chars, at)));
            }
        }
        _ => {
            let start = *at;
            while chars[*at].is_ascii_digit() || "-+.eE".contains(chars[*at]) {
                *at += 1;
            }
            let text: String = chars[start..*at].iter().collect();
            Json::Number(text.parse().unwrap_or_else(|_| panic!("{text:?}")))
        }
    }
}

fn json_string(chars: &[char], at: &mut usize) -> String {
    assert_eq!(chars[*at], '"');
    *at += 1;
    let mut out = String::new();
    while chars[*at] != '"' {
        if chars[*at] == '\\' {
            *at += 1;
            match chars[*at] {
                'u' => {
                    let hex: String = chars[*at + 1..*at + 5].iter().collect();
                    out.push(char::from_u32(u32::from_str_radix(&hex, 16).unwrap()).unwrap());
                    *at += 4;
                }
                c => out.push(c),
            }
        } else {
            out.push(chars[*at]);
        }
        *at += 1;
    }
    *at += 1;
    out
}

/// A tree's moves, comments and marks, depth first, for comparing trees.
fn outline(tree: &Tree, out: &mut Vec<String>) {
    let get = |name: &str| tree.get(name).map(|v| v.join("|")).unwrap_or_default();
    out.push(format!(
        "{}{} {} {}{} ({} children)",
        get("B"),
        get("W"),
        get("C"),
        get("TE"),
        get("BM"),
        tree.children.len()
    ));
    for child in &tree.children {
        outline(child, out);
    }
}

/// The solution trees GoGui's gogui-convert and Sabaki's @sabaki/sgf read
/// and wrote back (gtp-tests/sgf/problems, see the README there): the same
/// moves, comments and marks as the tree smallgo wrote for them (kept
/// there as smallgo-solve-NAME.sgf; the tree smallgo writes now may have
/// other lines), and as a problem file (SQ and MA in the root) they solve
/// as their problem does now.
#[test]
fn trees_written_back_by_gogui_and_sabaki_read_the_same() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-tests/sgf/problems");
    let mut read = 0;
    for reader in ["gogui-convert", "sabaki"] {
        for name in ["bulky-five", "bent-four-corner"] {
            let fixture = folder.join(format!("{reader}-solve-{name}.sgf"));
            let original = folder.join(format!("smallgo-solve-{name}.sgf"));
            let json = parse_json(&solve(&[&problem(name), "--json"]));
            let (mut theirs, mut written) = (Vec::new(), Vec::new());
            let fixture_text = std::fs::read_to_string(&fixture).unwrap();
            outline(&parse_tree(&fixture_text), &mut theirs);
            outline(
                &parse_tree(&std::fs::read_to_string(&original).unwrap()),
                &mut written,
            );
            // The roots differ in the writer's name and property order.
            assert_eq!(theirs[1..], written[1..], "{}", fixture.display());
            for file in [&fixture, &original] {
                let again = parse_json(&solve(&[file.to_str().unwrap(), "--json"]));
                assert_eq!(again.at("region").at("from").text(), "marked");
                assert_eq!(again.at("targets").list(), json.at("targets").list());
                assert_eq!(again.at("sides"), json.at("sides"), "{}", file.display());
            }
            read += 1;
        }
    }
    assert_eq!(read, 4);
}

/// The classic shapes of gtp-tests/problems/large, whose bounds of states
/// pass `--solver auto`'s (the proof search would serve them), solved by
/// the full solver to the JSON committed beside them.
#[test]
fn the_large_problems_solve_to_their_committed_output() {
    let folder = problems().join("large");
    let files = sgf_files(&folder);
    assert!(!files.is_empty());
    for file in files {
        let name = file.file_name().unwrap().to_str().unwrap();
        let outcome = Smallgo::new(&["solve", name, "--solver", "full", "--json"])
            .folder(&folder)
            .run();
        assert!(outcome.status.success(), "{name}: {}", outcome.stderr);
        let expected = std::fs::read_to_string(file.with_extension("json")).unwrap();
        assert_eq!(outcome.stdout.trim(), expected.trim(), "{name}");
    }
}

/// The classic shapes of gtp-tests/problems/large/search, too large for
/// the full solver within 4 GiB, solved by the proof search to the values
/// of the JSON committed beside them: the region, the targets, and for
/// each side to play first its status, the captures and plies under the
/// three ko assumptions and every first move. The search's figures
/// (positions expanded, memory) and its main line are not compared: they
/// follow the search's order, not the problem.
#[test]
fn the_search_problems_solve_to_their_committed_values() {
    let folder = problems().join("large").join("search");
    let files = sgf_files(&folder);
    assert!(!files.is_empty());
    for file in files {
        let name = file.file_name().unwrap().to_str().unwrap();
        let arguments = [
            "solve", name, "--solver", "search", "--memory", "4G", "--json",
        ];
        let outcome = Smallgo::new(&arguments).folder(&folder).run();
        assert!(outcome.status.success(), "{name}: {}", outcome.stderr);
        let found = parse_json(&outcome.stdout);
        let expected = parse_json(&std::fs::read_to_string(file.with_extension("json")).unwrap());
        for key in ["region", "targets", "attacker", "defender"] {
            assert_eq!(found.at(key), expected.at(key), "{name}: {key}");
        }
        let sides = found.at("sides").list();
        let expected_sides = expected.at("sides").list();
        assert_eq!(sides.len(), 2, "{name}");
        for (side, wanted) in sides.iter().zip(expected_sides) {
            for key in ["to_move", "role", "status", "moves"] {
                assert_eq!(side.at(key), wanted.at(key), "{name}: {key}");
            }
            for ko in ["basic", "attacker_ignores_ko", "defender_ignores_ko"] {
                let (a, b) = (
                    side.at("ko_assumptions").at(ko),
                    wanted.at("ko_assumptions").at(ko),
                );
                for key in ["captured", "plies"] {
                    assert_eq!(a.at(key), b.at(key), "{name}: {ko} {key}");
                }
            }
        }
    }
}
