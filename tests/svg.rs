//! The SVG pictures of `analyze position --svg` and of the examples of
//! `analyze seki` and `analyze cycles` (`--svg-dir`), rendered to pixels by
//! resvg and looked at where each stone, disc and shaded cell is drawn: a
//! black stone's centre is dark and a white one's light, each move's disc
//! has the colour of its outcome (green, yellow, red), each point's cell in
//! the perfect-play panel is shaded as its owner at the end, and the line's
//! first stone is the engine's move in the mover's colour. What the
//! pictures should show comes from the same command's `--json` and from
//! the GTP engine's `smallgo-ownership`, not from figures written here.
//! Then the files: one a seki or cycle example, named predictably, and bad
//! arguments failing with the file named and nothing written.

use std::collections::HashMap;
use std::path::Path;

use regex::Regex;
use resvg::{tiny_skia, usvg};
use serde_json::Value as Json;

use crate::json::object;
use crate::support::command::{gtp_answers, smallgo};

/// A panel of a picture: where it is drawn, and its elements' attributes.
struct Panel {
    x: f64,
    y: f64,
    shapes: Vec<HashMap<String, String>>,
}

/// A picture rendered, and its panels.
struct Picture {
    pixels: tiny_skia::Pixmap,
    panels: Vec<Panel>,
}

fn render(svg: &str) -> Picture {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())
        .unwrap_or_else(|error| panic!("not an SVG resvg reads: {error}\n{svg}"));
    let size = tree.size().to_int_size();
    let mut pixels = tiny_skia::Pixmap::new(size.width(), size.height()).expect("a size");
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixels.as_mut());
    let group =
        Regex::new(r#"(?s)<g transform="translate\(([0-9.]+) ([0-9.]+)\)">(.*?)</g>"#).unwrap();
    let tag = Regex::new(r"<(?:circle|rect) ([^>]*)/>").unwrap();
    let attribute = Regex::new(r#"([a-z-]+)="([^"]*)""#).unwrap();
    let panels = group
        .captures_iter(svg)
        .map(|panel| Panel {
            x: panel[1].parse().unwrap(),
            y: panel[2].parse().unwrap(),
            shapes: tag
                .captures_iter(&panel[3])
                .map(|shape| {
                    attribute
                        .captures_iter(&shape[1])
                        .map(|a| (a[1].to_string(), a[2].to_string()))
                        .collect()
                })
                .collect(),
        })
        .collect();
    Picture { pixels, panels }
}

/// What a pixel looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Look {
    /// A black stone, or a cell shaded as Black's.
    Dark,
    /// A white stone, or a cell shaded as White's.
    Light,
    /// The bare board.
    Board,
    Green,
    Yellow,
    Red,
    Other,
}

fn look(picture: &Picture, x: f64, y: f64) -> Look {
    let pixel = picture
        .pixels
        .pixel(x as u32, y as u32)
        .unwrap_or_else(|| panic!("({x}, {y}) is off the picture"));
    let (r, g, b) = (
        pixel.red() as i32,
        pixel.green() as i32,
        pixel.blue() as i32,
    );
    let luminance = (299 * r + 587 * g + 114 * b) / 1000;
    if g > r + 50 && g > b + 50 {
        Look::Green
    } else if r > 200 && g > 150 && b < 60 {
        Look::Yellow
    } else if r > 180 && g < 100 && b < 100 {
        Look::Red
    } else if luminance < 130 {
        Look::Dark
    } else if luminance > 225 {
        Look::Light
    } else if (150..=215).contains(&luminance) && r > b + 60 {
        Look::Board
    } else {
        Look::Other
    }
}

fn number(shape: &HashMap<String, String>, name: &str) -> f64 {
    shape[name].parse().unwrap()
}

/// The shapes of `panel` drawn on `point` that have attribute `marking`.
fn shapes_at<'a>(panel: &'a Panel, point: &str, marking: &str) -> Vec<&'a HashMap<String, String>> {
    panel
        .shapes
        .iter()
        .filter(|s| s.get("data-point").map(String::as_str) == Some(point))
        .filter(|s| s.contains_key(marking))
        .collect()
}

/// How a circle's centre, or a point `up` radii above it, looks.
fn look_of_circle(
    picture: &Picture,
    panel: &Panel,
    circle: &HashMap<String, String>,
    up: f64,
) -> Look {
    let (x, y, r) = (
        number(circle, "cx"),
        number(circle, "cy"),
        number(circle, "r"),
    );
    look(picture, panel.x + x, panel.y + y - up * r)
}

fn names(list: &Json) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect()
}

/// The stones of a panel: a dark centre on each of `black`, a light one
/// on each of `white`, and no other stone but the numbered ones.
fn check_stones(picture: &Picture, panel: usize, black: &[String], white: &[String]) {
    let drawn = &picture.panels[panel];
    for (points, wanted) in [(black, Look::Dark), (white, Look::Light)] {
        for point in points {
            let stones = shapes_at(drawn, point, "data-colour");
            assert!(!stones.is_empty(), "no stone on {point}");
            assert_eq!(
                look_of_circle(picture, drawn, stones[0], 0.0),
                wanted,
                "the stone on {point}"
            );
        }
    }
    let unnumbered = drawn
        .shapes
        .iter()
        .filter(|s| s.contains_key("data-colour") && !s.contains_key("data-move"))
        .count();
    assert_eq!(unnumbered, black.len() + white.len());
}

/// Each rated move's disc has its outcome's colour (for the side to move).
fn check_discs(picture: &Picture, position: &Json) {
    let mover = position["to_move"].as_str().unwrap();
    let drawn = &picture.panels[0];
    let moves = position["moves"].as_array().unwrap();
    for rated in moves {
        let point = rated["point"].as_str().unwrap();
        let wanted = match rated["outcome"]["winner"].as_str() {
            None => Look::Yellow,
            Some(winner) if winner == mover => Look::Green,
            Some(_) => Look::Red,
        };
        let discs = shapes_at(drawn, point, "data-outcome");
        assert_eq!(discs.len(), 1, "one disc on {point}");
        assert_eq!(
            look_of_circle(picture, drawn, discs[0], 0.75),
            wanted,
            "the disc of {point}: {rated}"
        );
    }
    let discs = drawn
        .shapes
        .iter()
        .filter(|s| s.contains_key("data-outcome"))
        .count();
    assert_eq!(discs, moves.len(), "a disc for every move and no more");
}

fn svg_of(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// 4x4 after B2 C3 at komi 0.5: Black's moves win, draw and lose, and
/// perfect play ends in a seki with points of both colours and of neither.
#[test]
fn a_position_is_drawn_with_its_values_line_and_ownership() {
    let folder = tempfile::tempdir().unwrap();
    let file = folder.path().join("position.svg");
    let file_name = file.to_str().unwrap();
    let arguments = [
        "analyze", "position", "4x4", "B2", "C3", "--komi", "0.5", "--json", "--svg", file_name,
    ];
    let position = object(&smallgo(&arguments), "position");
    let picture = render(&svg_of(&file));
    assert_eq!(picture.panels.len(), 2);

    // The test covers each colour of disc.
    let winners: Vec<&Json> = position["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["outcome"]["winner"])
        .collect();
    for kind in [Json::from("black"), Json::from("white"), Json::Null] {
        assert!(winners.contains(&&kind), "{kind} among {winners:?}");
    }
    let (black, white) = (names(&position["black"]), names(&position["white"]));
    check_stones(&picture, 0, &black, &white);
    check_discs(&picture, &position);
    // The pass's disc, under the board.
    assert_eq!(
        shapes_at(&picture.panels[0], "pass", "data-outcome").len(),
        1
    );

    // The engine's move is ringed, and is the line's first stone, in the
    // mover's colour.
    let first = position["moves"][0]["point"].as_str().unwrap();
    assert_eq!(shapes_at(&picture.panels[0], first, "data-engine").len(), 1);
    let line = &picture.panels[1];
    let numbered_first: Vec<_> = line
        .shapes
        .iter()
        .filter(|s| s.get("data-move").map(String::as_str) == Some("1"))
        .collect();
    assert_eq!(numbered_first.len(), 1);
    assert_eq!(numbered_first[0]["data-point"], first);
    assert_eq!(
        look_of_circle(&picture, line, numbered_first[0], 0.7),
        Look::Dark,
        "Black plays first"
    );
    check_stones(&picture, 1, &black, &white);

    // Each cell's shade, near its corner, is its owner's at the end, as
    // the engine's smallgo-ownership has it.
    let answers = gtp_answers(&[
        "boardsize 4".to_string(),
        "komi 0.5".to_string(),
        "play b B2".to_string(),
        "play w C3".to_string(),
        "smallgo-ownership".to_string(),
    ]);
    let influence = answers[4]
        .lines()
        .find_map(|l| l.strip_prefix("INFLUENCE "))
        .unwrap_or_else(|| panic!("{answers:?}"));
    let words: Vec<&str> = influence.split_whitespace().collect();
    let owners: HashMap<&str, &str> = words.chunks(2).map(|w| (w[0], w[1])).collect();
    let mut seen = Vec::new();
    let cells: Vec<_> = line
        .shapes
        .iter()
        .filter(|s| s.contains_key("data-owner"))
        .collect();
    assert_eq!(cells.len(), 16, "a cell for every point");
    for cell in cells {
        let point = cell["data-point"].as_str();
        let wanted = match owners.get(point) {
            Some(&"1") => Look::Dark,
            Some(&"-1") => Look::Light,
            _ => Look::Board,
        };
        let (x, y, side) = (number(cell, "x"), number(cell, "y"), number(cell, "width"));
        let corner = look(&picture, line.x + x + 0.12 * side, line.y + y + 0.12 * side);
        assert_eq!(corner, wanted, "the cell of {point}");
        seen.push(wanted);
    }
    for kind in [Look::Dark, Look::Light, Look::Board] {
        assert!(seen.contains(&kind), "a cell that looks {kind:?}");
    }
    // Seki, on the points the engine's map puts in it.
    let seki = line
        .shapes
        .iter()
        .filter(|s| s.contains_key("data-seki"))
        .count();
    let text = answers[4].lines().find(|l| l.starts_with("TEXT")).unwrap();
    assert!(
        text.contains(&format!("seki {seki}:")),
        "{seki} dashed squares: {text}"
    );
    assert!(seki > 0);
}

/// `--svg-dir`: one picture an example, named after the analysis, the
/// board and the example's place in the JSON list, each showing the
/// example's stones; a cycle's picture also numbers the cycle's moves.
#[test]
fn seki_and_cycle_examples_are_drawn_one_file_each() {
    let folder = tempfile::tempdir().unwrap();
    let dir = folder.path().join("pictures");
    let dir_name = dir.to_str().unwrap();
    let seki = object(
        &smallgo(&["analyze", "seki", "2x3", "--json", "--svg-dir", dir_name]),
        "seki",
    );
    let cycles = object(
        &smallgo(&[
            "analyze",
            "cycles",
            "3x3",
            "--placements-only",
            "--json",
            "--svg-dir",
            dir_name,
        ]),
        "cycles",
    );
    let seki_examples = seki["examples"].as_array().unwrap();
    let cycle_examples = cycles["examples"].as_array().unwrap();
    assert!(!seki_examples.is_empty() && cycle_examples.len() == 2);
    let mut expected: Vec<String> = (1..=seki_examples.len())
        .map(|n| format!("seki-2x3-{n}.svg"))
        .chain((1..=cycle_examples.len()).map(|n| format!("cycles-3x3-{n}.svg")))
        .collect();
    let mut found: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    expected.sort();
    found.sort();
    assert_eq!(found, expected, "one file an example, nothing else");

    for (n, example) in seki_examples.iter().enumerate() {
        let picture = render(&svg_of(&dir.join(format!("seki-2x3-{}.svg", n + 1))));
        let (black, white) = (names(&example["black"]), names(&example["white"]));
        check_stones(&picture, 0, &black, &white);
        check_stones(&picture, 1, &black, &white);
        assert!(picture.panels[1]
            .shapes
            .iter()
            .any(|s| s.contains_key("data-seki")));
    }
    for (n, example) in cycle_examples.iter().enumerate() {
        let picture = render(&svg_of(&dir.join(format!("cycles-3x3-{}.svg", n + 1))));
        assert_eq!(picture.panels.len(), 3, "values, perfect play, the cycle");
        let (black, white) = (names(&example["black"]), names(&example["white"]));
        check_stones(&picture, 0, &black, &white);
        check_stones(&picture, 2, &black, &white);
        // The cycle's first move, Black's, numbered 1 on its point.
        let first = example["cycle"][0].as_str().unwrap();
        let cycle = &picture.panels[2];
        let one: Vec<_> = shapes_at(cycle, first, "data-move");
        assert!(
            one.iter()
                .any(|s| s["data-move"] == "1"
                    && look_of_circle(&picture, cycle, s, 0.7) == Look::Dark),
            "move 1, Black's, on {first}"
        );
    }

    // The text report names the files it wrote.
    let again = smallgo(&["analyze", "seki", "2x3", "--svg-dir", dir_name]);
    assert!(again.status.success(), "{}", again.stderr);
    let named = dir.join("seki-2x3-1.svg");
    assert!(
        again
            .stdout
            .contains(&format!("drawn     {}", named.display())),
        "{}",
        again.stdout
    );
}

/// A file that cannot be written, a folder that is a file, a position that
/// is not one, and --svg with a batch: each fails with the file or
/// argument named, and writes nothing.
#[test]
fn bad_pictures_fail_naming_the_file_and_write_nothing() {
    let folder = tempfile::tempdir().unwrap();
    let plain = folder.path().join("plain.txt");
    std::fs::write(&plain, "keep me").unwrap();
    let inside = plain.join("x.svg");
    let inside_name = inside.to_str().unwrap();
    let failed = smallgo(&["analyze", "position", "3x3", "B2", "--svg", inside_name]);
    assert_eq!(failed.status.code(), Some(1), "{}", failed.stderr);
    assert!(failed.stderr.contains(inside_name), "{}", failed.stderr);
    assert!(failed.stdout.is_empty(), "{}", failed.stdout);

    // --svg-dir naming a file: refused, the file unchanged.
    for analysis in [&["seki", "2x3"][..], &["cycles", "2x2"][..]] {
        let mut arguments = vec!["analyze"];
        arguments.extend_from_slice(analysis);
        arguments.extend(["--svg-dir", plain.to_str().unwrap()]);
        let failed = smallgo(&arguments);
        assert_eq!(
            failed.status.code(),
            Some(1),
            "{analysis:?}: {}",
            failed.stderr
        );
        assert!(
            failed.stderr.contains(plain.to_str().unwrap()),
            "{}",
            failed.stderr
        );
        assert_eq!(std::fs::read_to_string(&plain).unwrap(), "keep me");
    }

    // An illegal move: no picture.
    let file = folder.path().join("never.svg");
    let failed = smallgo(&[
        "analyze",
        "position",
        "3x3",
        "B2",
        "B2",
        "--svg",
        file.to_str().unwrap(),
    ]);
    assert_eq!(failed.status.code(), Some(1), "{}", failed.stderr);
    assert!(!file.exists());

    // A batch has no one picture.
    let failed = smallgo(&[
        "analyze",
        "position",
        "--batch",
        "-",
        "--svg",
        file.to_str().unwrap(),
    ]);
    assert_eq!(failed.status.code(), Some(2), "{}", failed.stderr);
    assert!(!file.exists());

    // Only the file asked for is left: no temporary beside it.
    let left: Vec<_> = std::fs::read_dir(folder.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, vec![std::ffi::OsString::from("plain.txt")]);

    // An existing picture is replaced whole.
    let replaced = folder.path().join("replaced.svg");
    std::fs::write(&replaced, "old").unwrap();
    let done = smallgo(&[
        "analyze",
        "position",
        "3x3",
        "--svg",
        replaced.to_str().unwrap(),
    ]);
    assert!(done.status.success(), "{}", done.stderr);
    let svg = svg_of(&replaced);
    assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
    render(&svg);
}
