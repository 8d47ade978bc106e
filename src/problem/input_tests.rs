//! Problems read from SGF and diagrams: the region and the targets found
//! on corner, edge and centre setups of a 19x19 board, given by marks and
//! by options, the whole board's coordinates round trip, faults refused
//! with the property, option or point named, problems read from files
//! solved as the brute force of `tests` solves them, and the seki test on
//! problems of the set.

use crate::problem::input::{
    self, comment_hint, InputError, InputOptions, RegionProblem, RegionSource, TargetSource, Vertex,
};
use crate::problem::{solve::Solution, tests::compare, KoAssumption};
use crate::rules::board::Board;
use crate::rules::colour::Colour;
use crate::rules::moves::Move;

/// SGF text of a `size` board with `rows` (a diagram, rows from the top,
/// `X`, `O`, `.`) placed with its lower left corner at (`column`, `row`)
/// of the whole board, and `extra` root properties.
fn sgf_of(size: usize, rows: &[&str], column: usize, row: usize, extra: &str) -> String {
    let mut black = String::new();
    let mut white = String::new();
    for (i, line) in rows.iter().enumerate() {
        let r = row + rows.len() - 1 - i;
        for (c, cell) in line.chars().filter(|c| !c.is_whitespace()).enumerate() {
            let name = format!("[{}]", Vertex::new(column + c, r).sgf(size));
            match cell {
                'X' => black.push_str(&name),
                'O' => white.push_str(&name),
                _ => {}
            }
        }
    }
    let mut text = format!("(;GM[1]FF[4]SZ[{size}]{extra}");
    if !black.is_empty() {
        text.push_str(&format!("AB{black}"));
    }
    if !white.is_empty() {
        text.push_str(&format!("AW{white}"));
    }
    text.push_str(";B[aa])");
    text
}

fn read(text: &str) -> RegionProblem {
    input::from_sgf(text, &InputOptions::default()).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The names of the region's points, sorted.
fn region_names(problem: &RegionProblem) -> Vec<String> {
    let mut vertices = problem.region().to_vec();
    vertices.sort_by_key(|v| (v.row, v.column));
    vertices.iter().map(|v| v.name()).collect()
}

fn target_names(problem: &RegionProblem) -> Vec<String> {
    let mut names: Vec<Vertex> = problem
        .problem()
        .targets()
        .iter()
        .map(|p| problem.vertex(p))
        .collect();
    names.sort_by_key(|v| (v.row, v.column));
    names.iter().map(|v| v.name()).collect()
}

fn names(list: &str) -> Vec<String> {
    list.split_whitespace().map(String::from).collect()
}

/// A corner problem: White's group in the lower left corner, inside a
/// black wall with liberties on the open board.
const CORNER: [&str; 5] = [
    ". . . . . .", //
    "X X X X . .",
    "O O O X . .",
    ". . O X . .",
    ". . O X . .",
];

#[test]
fn a_corner_problem_is_the_group_and_its_eye_space() {
    let problem = read(&sgf_of(19, &CORNER, 0, 0, "PL[B]"));
    assert_eq!(region_names(&problem), names("A1 B1 C1 A2 B2 C2 A3 B3 C3"));
    assert_eq!(target_names(&problem), names("C1 C2 A3 B3 C3"));
    assert_eq!(*problem.target_source(), TargetSource::Walls);
    assert!(matches!(
        problem.region_source(),
        RegionSource::Inferred { view: false, .. }
    ));
    assert_eq!(problem.problem().defender(), Colour::White);
    assert_eq!(problem.problem().to_move(), Colour::Black);
    let (black, white) = problem.safe_stones();
    assert_eq!(black.len(), 7);
    assert!(white.is_empty());
    let drawing = problem.drawing();
    assert!(drawing.contains("  3 @ @ @ x\n"), "{drawing}");
    assert!(drawing.contains("  1 . . @ x"), "{drawing}");
}

/// A corner group inside a wall drawn open, as problem collections draw
/// them: nothing is enclosed (White's liberties at E19 and A17 lead to
/// the open board), so the frame's sides close the region.
const OPEN_CORNER: [&str; 3] = [
    ". . . O . .", //
    "O O O O X .",
    ". X X X X .",
];

/// A group on the second line with the first line empty: the frame
/// reaches the board's edge below the stones, and closes the region there.
const SECOND_LINE: [&str; 2] = [
    "X X X X X", //
    "O O O O X",
];

/// `OPEN_CORNER` with a White stone outside the wall: walls of both
/// colours touch the region, and no comment says who kills.
const OPEN_CORNER_BOTH_WALLS: [&str; 4] = [
    ". . . O . .", //
    "O O O O X .",
    ". X X X X O",
    "X . X . . .",
];

/// A pocket beside the problem: Black's A18 has its one liberty enclosed
/// by White, but White's group leaks at E17 and Black's wall inside the
/// frame is left out of the enclosed region.
const POCKET: [&str; 6] = [
    ". O . . X . .",
    "X O O O X . .",
    "O O . . . . X",
    ". . O O X . .",
    "X X X X X . .",
    ". . . . . X .",
];

#[test]
fn an_open_wall_is_closed_by_the_frame() {
    let problem = read(&sgf_of(19, &OPEN_CORNER, 0, 16, "PL[B]"));
    assert_eq!(
        region_names(&problem),
        names("A17 A18 B18 C18 D18 A19 B19 C19 D19 E19")
    );
    assert_eq!(target_names(&problem), names("A18 B18 C18 D18 D19"));
    assert_eq!(*problem.target_source(), TargetSource::Walls);
    assert!(matches!(
        problem.region_source(),
        RegionSource::Inferred { closed: true, .. }
    ));
    let problem = read(&sgf_of(19, &SECOND_LINE, 0, 1, ""));
    assert_eq!(region_names(&problem), names("A1 B1 C1 D1 E1 A2 B2 C2 D2"));
    assert!(matches!(
        problem.region_source(),
        RegionSource::Inferred {
            frame: (low, _),
            closed: true,
            ..
        } if low.row == 0
    ));
    // Walls of both colours: White's are the only stones in the region.
    let problem = read(&sgf_of(19, &OPEN_CORNER_BOTH_WALLS, 0, 15, "PL[B]"));
    assert_eq!(*problem.target_source(), TargetSource::RegionStones);
    assert_eq!(target_names(&problem), names("A18 B18 C18 D18 D19"));
    let (black, white) = problem.safe_stones();
    assert!(!black.is_empty() && white.len() == 1, "{white:?}");
    // Walls and region stones of both colours: the stones on the frame's
    // open sides (the right column and the bottom row) tell, two Black
    // (G17, F14) against one White (G19); with a second White (G14),
    // nothing tells.
    let mut open = POCKET;
    open[0] = ". O . . X . O";
    let problem = read(&sgf_of(19, &open, 0, 13, ""));
    assert_eq!(*problem.target_source(), TargetSource::OpenSides);
    assert_eq!(
        target_names(&problem),
        names("C16 D16 A17 B17 B18 C18 D18 B19")
    );
    open[5] = ". . . . . X O";
    let error =
        input::from_sgf(&sgf_of(19, &open, 0, 13, ""), &InputOptions::default()).unwrap_err();
    assert!(matches!(error, InputError::Targets(_)), "{error}");
    // A pocket: Black's A18 has its one liberty enclosed by White, but
    // White's group leaks at E17 and Black's wall inside the frame is left
    // out; the pocket is not the problem, and the frame closes it.
    let problem = read(&sgf_of(19, &POCKET, 0, 13, ""));
    assert!(matches!(
        problem.region_source(),
        RegionSource::Inferred { closed: true, .. }
    ));
    assert_eq!(
        target_names(&problem),
        names("C16 D16 A17 B17 B18 C18 D18 B19")
    );
    // An enclosed group keeps its region: the frame closes nothing.
    let problem = read(&sgf_of(19, &CORNER, 0, 0, ""));
    assert!(matches!(
        problem.region_source(),
        RegionSource::Inferred { closed: false, .. }
    ));
}

/// White's group on the first line enclosed by Black's wall and a White
/// stone beside its eye space (E1, with a liberty outside the frame):
/// walls of both colours around an enclosed region.
const ENCLOSED_BOTH_WALLS: [&str; 3] = [
    "X X X X X", //
    "O O O O X",
    ". . . . O",
];

/// Around an enclosed region, walls of both colours do not tell the
/// attacker, even with one colour's stones many more on the frame's open
/// sides (they tell only for a region the frame closed). The region's own
/// stones do when they are of one colour; with a Black stone in White's
/// eye space they are not, and only the comment tells.
#[test]
fn an_enclosed_region_with_walls_of_both_colours_needs_the_attacker_told() {
    let problem = read(&sgf_of(19, &ENCLOSED_BOTH_WALLS, 0, 0, "PL[B]"));
    assert_eq!(*problem.target_source(), TargetSource::RegionStones);
    assert_eq!(target_names(&problem), names("A2 B2 C2 D2"));
    assert_eq!(region_names(&problem), names("A1 B1 C1 D1 A2 B2 C2 D2"));
    assert!(matches!(
        problem.region_source(),
        RegionSource::Inferred { closed: false, .. }
    ));
    let (black, white) = problem.safe_stones();
    assert_eq!((black.len(), white.len()), (6, 1));
    let mut inside = ENCLOSED_BOTH_WALLS;
    inside[2] = ". X . . O";
    let error = input::from_sgf(
        &sgf_of(19, &inside, 0, 0, "PL[B]"),
        &InputOptions::default(),
    )
    .unwrap_err();
    assert!(
        matches!(&error, InputError::Targets(m) if m.contains("of both colours")),
        "{error}"
    );
    let problem = read(&sgf_of(19, &inside, 0, 0, "PL[W]C[Black to kill]"));
    assert_eq!(*problem.target_source(), TargetSource::Comment);
    assert_eq!(target_names(&problem), names("A2 B2 C2 D2"));
    assert_eq!(region_names(&problem), names("A1 B1 C1 D1 A2 B2 C2 D2"));
}

/// The corner problem anywhere in the corner of the board reads the same
/// region: upper right of a 19x19, of a 13x13, and of a 25x25.
#[test]
fn the_other_corners_and_sizes_read_the_same_problem() {
    let flipped: Vec<String> = CORNER
        .iter()
        .rev()
        .map(|r| r.chars().rev().collect())
        .collect();
    let flipped: Vec<&str> = flipped.iter().map(String::as_str).collect();
    for size in [19, 13, 25, 6] {
        let problem = read(&sgf_of(size, &flipped, size - 6, size - 5, ""));
        assert_eq!(problem.region().len(), 9, "{size}");
        assert_eq!(target_names(&problem).len(), 5, "{size}");
        let top = size.to_string();
        let corner = format!("{}{top}", Board::column_letter(size - 1));
        assert!(region_names(&problem).contains(&corner), "{size}");
    }
}

#[test]
fn an_edge_problem_takes_the_eye_space_along_the_edge() {
    let edge = [
        ". . . . . . . . .",
        ". X X X X X X X .",
        "X X O O O O O X X",
        "X . . . . . . . X",
    ];
    let problem = read(&sgf_of(19, &edge, 6, 0, ""));
    assert_eq!(
        region_names(&problem),
        names("H1 J1 K1 L1 M1 N1 O1 J2 K2 L2 M2 N2")
    );
    assert_eq!(target_names(&problem), names("J2 K2 L2 M2 N2"));
}

#[test]
fn a_centre_problem_is_the_ring_and_its_eye() {
    let centre = [
        ". X X X X .",
        "X O O O O X",
        "X O . . O X",
        "X O O O O X",
        ". X X X X .",
    ];
    let problem = read(&sgf_of(19, &centre, 7, 7, ""));
    assert_eq!(problem.region().len(), 12);
    assert_eq!(target_names(&problem).len(), 10);
    assert!(region_names(&problem).contains(&"K10".to_string()));
}

/// A black stone inside White's eye space, unconnected to the wall, is in
/// the region; the wall's own hole is not.
#[test]
fn attackers_inside_are_in_the_region_and_holes_in_the_wall_are_not() {
    let rows = [
        ". . . . . . .",
        "X X X X X X .",
        "O O O X . X .",
        ". . O X X X .",
        ". X O X . . .",
    ];
    let problem = read(&sgf_of(19, &rows, 0, 0, ""));
    assert_eq!(region_names(&problem), names("A1 B1 C1 A2 B2 C2 A3 B3 C3"));
    assert_eq!(
        (problem.problem().stones(Colour::Black) - problem.problem().safe()).len(),
        1,
        "B1 is in play"
    );
    // The wall's stones beside the region are on the problem's board as
    // safe stones, and no region point is one.
    let mut safe: Vec<Vertex> = problem
        .problem()
        .safe()
        .iter()
        .map(|p| problem.vertex(p))
        .collect();
    safe.sort_by_key(|v| (v.row, v.column));
    let safe: Vec<String> = safe.iter().map(|v| v.name()).collect();
    assert_eq!(safe, names("D1 D2 D3 A4 B4 C4"));
    assert_eq!(
        problem.point(Vertex::new(3, 0)),
        None,
        "D1 is no region point"
    );
    assert_eq!(
        problem.parse_move("D1"),
        Err("D1 is outside the problem's region".to_string())
    );
    assert!(problem.drawing().contains(" X "));
}

/// Coordinates round trip: each region point's whole-board point, its
/// GTP and SGF names, and the region written as `--region` reads back
/// the same problem.
#[test]
fn coordinates_round_trip() {
    let centre = [". X X .", "X O O X", "X . O X", ". X X ."];
    for (size, rows, column, row) in [
        (19, &CORNER[..], 0, 0),
        (9, &CORNER[..], 0, 0),
        (25, &CORNER[..], 0, 0),
        (19, &centre[..], 10, 7),
        (25, &centre[..], 19, 20),
    ] {
        let text = sgf_of(size, rows, column, row, "");
        let problem = read(&text);
        let setup = problem.setup();
        let mut last = None;
        for &vertex in problem.region() {
            let point = problem.point(vertex).unwrap();
            assert!(last < Some(point.index()), "in the order of their numbers");
            last = Some(point.index());
            assert_eq!(problem.vertex(point), vertex);
            assert_eq!(setup.parse_vertex(&vertex.name()), Some(vertex));
            assert_eq!(
                problem.parse_move(&vertex.name().to_lowercase()),
                Ok(Move::Place(point))
            );
            assert_eq!(problem.move_sgf(Move::Place(point)), vertex.sgf(size));
            assert_eq!(problem.move_name(Move::Place(point)), vertex.name());
            let marked = format!("(;SZ[{size}]SQ[{}])", vertex.sgf(size));
            let read = input::setup_from_sgf(&marked).unwrap();
            assert_eq!(read.region_marks, [vertex]);
        }
        let options = InputOptions {
            region: Some(problem.region_text()),
            ..InputOptions::default()
        };
        let again = input::from_sgf(&text, &options).unwrap();
        assert_eq!(again.problem(), problem.problem(), "{size} {column} {row}");
        assert_eq!(again.region(), problem.region());
        assert_eq!(*again.region_source(), RegionSource::Option);
        assert!(problem.parse_move("T19").is_err() || size != 19);
    }
}

#[test]
fn regions_given_by_sq_and_targets_by_ma() {
    // The whole corner marked, with two of White's stones as targets.
    let text = sgf_of(19, &CORNER, 0, 0, "SQ[aq:bs]MA[cs]TR[cr]PL[W]");
    let problem = read(&text);
    assert_eq!(*problem.region_source(), RegionSource::Marked);
    assert!(problem.setup().has_problem_marks());
    assert!(!read(&sgf_of(19, &CORNER, 0, 0, ""))
        .setup()
        .has_problem_marks());
    assert_eq!(*problem.target_source(), TargetSource::Marked);
    assert_eq!(target_names(&problem), names("C1 C2"));
    assert_eq!(problem.problem().to_move(), Colour::White);
    assert_eq!(problem.region().len(), 9);
    // SQ covers A13..D19 (empty) and not the corner: an empty problem has
    // no target.
    let error = input::from_sgf(
        &sgf_of(19, &CORNER, 0, 0, "SQ[aa:dg]"),
        &InputOptions::default(),
    )
    .unwrap_err();
    assert!(matches!(error, InputError::Targets(_)), "{error}");
    // Only the eye space marked: White's string, whose liberties are all
    // marked, is in whole; the wall is not.
    let text = sgf_of(19, &CORNER, 0, 0, "SQ[as:br]");
    let problem = read(&text);
    assert_eq!(region_names(&problem), names("A1 B1 C1 A2 B2 C2 A3 B3 C3"));
}

#[test]
fn options_replace_the_marks() {
    let text = sgf_of(19, &CORNER, 0, 0, "MA[cs]");
    let options = InputOptions {
        region: Some("A1-B2".into()),
        targets: Some("a3, B3".into()),
        player: Some(Colour::White),
    };
    let problem = input::from_sgf(&text, &options).unwrap();
    assert_eq!(*problem.target_source(), TargetSource::Option);
    assert_eq!(target_names(&problem), names("A3 B3"));
    assert_eq!(problem.region().len(), 9);
    assert_eq!(problem.problem().to_move(), Colour::White);
}

#[test]
fn the_comment_tells_the_attacker_when_the_walls_do_not() {
    assert_eq!(comment_hint("Black to kill."), Some(Colour::Black));
    assert_eq!(comment_hint("black to play and live"), Some(Colour::White));
    assert_eq!(
        comment_hint("Problem 12: WHITE TO LIVE"),
        Some(Colour::Black)
    );
    assert_eq!(comment_hint("Black to play. Can White live?"), None);
    // A whole small board: no safe stone, so no wall tells; White's
    // stones are the only ones, so they are the targets.
    let problem = input::from_diagram("OOOO/...O", &InputOptions::default()).unwrap();
    assert_eq!(*problem.target_source(), TargetSource::RegionStones);
    assert_eq!(problem.problem().defender(), Colour::White);
    // With a stone of each colour, nothing but the comment tells.
    let diagram = "OOOO/.X.O";
    let error = input::from_diagram(diagram, &InputOptions::default()).unwrap_err();
    assert!(matches!(error, InputError::Targets(_)), "{error}");
    assert!(error.to_string().contains("MA or TR"), "{error}");
    let mut setup = input::setup_from_diagram(diagram).unwrap();
    setup.comment = Some("White to live".into());
    let problem = input::locate(setup, &InputOptions::default()).unwrap();
    assert_eq!(*problem.target_source(), TargetSource::Comment);
    assert_eq!(problem.problem().defender(), Colour::White);
    assert_eq!(problem.region().len(), 8);
}

#[test]
fn faults_are_named() {
    let check = |text: &str, options: &InputOptions, want: &[&str]| {
        let error = input::from_sgf(text, options).unwrap_err().to_string();
        for w in want {
            assert!(error.contains(w), "{text}: {error} (wanted {w})");
        }
    };
    let none = InputOptions::default();
    check("(;SZ[26])", &none, &["SZ", "26"]);
    check("(;SZ[0])", &none, &["SZ"]);
    check("(;GM[2])", &none, &["GM"]);
    check("(;SZ[9]AB[jj])", &none, &["AB", "jj", "9x9"]);
    check("(;SZ[9]AB[])", &none, &["AB", "not a point"]);
    check("(;SZ[9]PL[X]AB[aa])", &none, &["PL"]);
    check("(;SZ[9]AB[aa", &none, &["not a readable SGF"]);
    check("(;SZ[9])", &none, &["no stones"]);
    // A string without liberty.
    check("(;SZ[9]AB[aa]AW[ba][ab])", &none, &["A9", "no liberty"]);
    // Targets: an empty point, a safe stone, both colours.
    let corner = sgf_of(19, &CORNER, 0, 0, "");
    let targets = |t: &str| InputOptions {
        targets: Some(t.into()),
        ..InputOptions::default()
    };
    check(&corner, &targets("A1"), &["A1", "no stone"]);
    check(&corner, &targets("D1"), &["D1", "outside the region"]);
    check(&corner, &targets("B1-C3"), &["no stone"]);
    check(&corner, &targets("Z1"), &["--targets", "Z1"]);
    let region = |r: &str| InputOptions {
        region: Some(r.into()),
        ..InputOptions::default()
    };
    check(&corner, &region("A1-X"), &["--region", "X"]);
    check(&corner, &region(","), &["--region", "no point"]);
    // The whole board as the region: too many points.
    check(&corner, &region("A1-T19"), &["region", "361 points"]);
    // An open group: nothing is enclosed.
    check(
        &sgf_of(19, &["X . O", ". . ."], 5, 5, ""),
        &none,
        &["none found"],
    );
    let error = input::read_file(std::path::Path::new("/nonexistent/p.sgf"), &none).unwrap_err();
    assert!(error.to_string().contains("/nonexistent/p.sgf"), "{error}");
}

/// The diagram of a board's cells, `.` points and `#` walls, as the brute
/// force reads it.
fn cells(board: &Board) -> String {
    (0..board.rows())
        .rev()
        .map(|row| {
            (0..board.columns())
                .map(|column| {
                    if board.point_at(row, column).is_some() {
                        '.'
                    } else {
                        '#'
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Problems read from SGF, in a corner, on an edge and in the centre,
/// solved by the solver and by the brute force: every state agrees, under
/// each ko assumption and with either side to move.
#[test]
fn problems_from_files_agree_with_the_brute_force() {
    let cases: [(&[&str], usize, usize); 7] = [
        (&CORNER, 0, 0),
        (
            &[". . . . . .", "X X X X X .", "O O O O X .", ". . . O X ."],
            0,
            0,
        ),
        (&[". X X X X X .", "X X O O O X X", "X O . . . O X"], 8, 0),
        (&OPEN_CORNER, 0, 16),
        (&SECOND_LINE, 0, 1),
        (&OPEN_CORNER_BOTH_WALLS, 0, 15),
        (
            &[
                ". X X X .",
                "X O O O X",
                "X O . . X",
                "X O O O X",
                ". X X X .",
            ],
            7,
            9,
        ),
    ];
    for (rows, column, row) in cases {
        let problem = read(&sgf_of(19, rows, column, row, ""));
        let empty = problem.problem().board().points()
            - problem.problem().stones(Colour::Black).len()
            - problem.problem().stones(Colour::White).len();
        assert!(empty <= 10, "{rows:?}");
        let diagram = cells(problem.problem().board());
        for ko in KoAssumption::ALL {
            for first in [
                problem.problem().clone(),
                problem.problem().with_other_to_move(),
            ] {
                let first = first.with_ko(ko);
                compare(&diagram, &first);
                Solution::new(&first);
            }
        }
    }
}

/// The problem set of gtp-tests/problems, read from its files, solved by
/// the solver and by the brute force where the region has at most ten
/// empty points: every state agrees, under each ko assumption and with
/// either side to move.
#[test]
fn the_problem_set_agrees_with_the_brute_force() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-tests/problems");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .collect();
    files.sort();
    let mut checked = 0;
    for file in &files {
        let problem =
            input::read_file(file, &InputOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let problem = problem.problem();
        let empty = problem.board().points()
            - problem.stones(Colour::Black).len()
            - problem.stones(Colour::White).len();
        if empty > 10 {
            continue;
        }
        let diagram = cells(problem.board());
        for ko in KoAssumption::ALL {
            for first in [problem.clone(), problem.with_other_to_move()] {
                compare(&diagram, &first.with_ko(ko));
            }
        }
        checked += 1;
    }
    assert_eq!(checked, files.len(), "every problem of the set is small");
}

/// The seki test (`seki::seki_at`) on two problems of the set: the seki
/// in the corner is seki with either side to move; in the bulky five,
/// after the defender's living first moves and any placement of the
/// attacker's in reply, the defender lives with attacker stones in its
/// eye space that it can capture: life, not seki.
#[test]
fn seki_is_told_from_life_on_the_problem_set() {
    use crate::problem::seki::{seki_at, SekiTests};
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-tests/problems");
    let read = |name: &str| {
        input::read_file(
            &folder.join(format!("{name}.sgf")),
            &InputOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"))
        .problem()
        .clone()
    };
    let mut tests = SekiTests::default();
    let corner = read("seki-corner");
    for problem in [corner.clone(), corner.with_other_to_move()] {
        let solution = Solution::new(&problem);
        assert!(!solution.start().attacker_wins());
        assert!(seki_at(&problem, solution.key(0), &mut tests));
    }
    let five = read("bulky-five").with_other_to_move();
    assert_eq!(five.to_move(), five.defender());
    let solution = Solution::new(&five);
    let mut lives_with_attackers = 0;
    for (mv, status) in solution.first_moves() {
        if status.attacker_wins() {
            continue;
        }
        let Some(Some(after)) = solution.child(0, mv) else {
            continue;
        };
        for (reply, status) in solution.moves_of(after) {
            let Some(Some(state)) = solution.child(after, reply) else {
                continue;
            };
            let key = solution.key(state);
            if status.attacker_wins() || key.attacker == 0 || key.is_capture() {
                continue;
            }
            assert!(!seki_at(&five, key, &mut tests), "{mv:?} {reply:?}");
            lives_with_attackers += 1;
        }
    }
    assert!(lives_with_attackers > 0);
    assert_eq!(tests.skipped(), 0);
}
