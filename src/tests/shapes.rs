//! Boards of any shape against a plain model written here: a grid of cells
//! (point, wall, open), each point's neighbours listed one by one, strings
//! and regions found by search. Random shapes and random positions on them:
//! adjacency, legality, placements (captures, suicide, ko), the ko points
//! a position can have, un-moves both ways and area score with open sides.
//! Then names, symmetry groups, and the solver against the reference
//! solver on small shapes.

use std::collections::HashSet;

use crate::rules::board::{Board, Point, PointSet};
use crate::rules::position::Position;
use crate::rules::state::{Child, State};
use crate::rules::unmove::{for_each_predecessor, leads_to};
use crate::symmetry::symmetries;
use crate::tests::support::Rng;

/// A shape as the test sees it: the grid's cells, row 0 at the bottom.
struct Model {
    rows: usize,
    columns: usize,
    /// `.` point, `#` wall, `+` open.
    cells: Vec<u8>,
    /// The cell of each point, points numbered row by row from the bottom.
    points: Vec<usize>,
}

impl Model {
    fn new(rows: usize, columns: usize, cells: Vec<u8>) -> Model {
        let points = (0..cells.len()).filter(|&at| cells[at] == b'.').collect();
        Model {
            rows,
            columns,
            cells,
            points,
        }
    }

    /// A random grid of up to 5x5 cells, about half of them points.
    fn random(rng: &mut Rng) -> Model {
        let rows = 1 + rng.below(5) as usize;
        let columns = 1 + rng.below(5) as usize;
        let cells = (0..rows * columns)
            .map(|_| match rng.below(10) {
                0..=5 => b'.',
                6..=7 => b'#',
                _ => b'+',
            })
            .collect();
        Model::new(rows, columns, cells)
    }

    /// The diagram: rows from the top, separated by `/`.
    fn diagram(&self) -> String {
        (0..self.rows)
            .rev()
            .map(|row| {
                String::from_utf8(self.cells[row * self.columns..(row + 1) * self.columns].to_vec())
                    .unwrap()
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    /// The cells beside `at`: up, down, left, right, within the grid.
    fn sides(&self, at: usize) -> Vec<usize> {
        let (row, column) = (at / self.columns, at % self.columns);
        let mut sides = Vec::new();
        if row + 1 < self.rows {
            sides.push(at + self.columns);
        }
        if row > 0 {
            sides.push(at - self.columns);
        }
        if column > 0 {
            sides.push(at - 1);
        }
        if column + 1 < self.columns {
            sides.push(at + 1);
        }
        sides
    }

    fn neighbours(&self, point: usize) -> Vec<usize> {
        self.sides(self.points[point])
            .into_iter()
            .filter_map(|cell| self.points.iter().position(|&c| c == cell))
            .collect()
    }

    fn has_open_side(&self, point: usize) -> bool {
        self.sides(self.points[point])
            .into_iter()
            .any(|cell| self.cells[cell] == b'+')
    }

    /// The points connected to `start` through points of `within`.
    fn component(&self, start: usize, within: &[bool]) -> Vec<usize> {
        let mut seen = vec![start];
        let mut next = 0;
        while next < seen.len() {
            for n in self.neighbours(seen[next]) {
                if within[n] && !seen.contains(&n) {
                    seen.push(n);
                }
            }
            next += 1;
        }
        seen
    }

    /// Whether the string of colour `colour` through `point` has a liberty:
    /// an empty neighbour or an open side.
    fn breathes(&self, board: &[u8], point: usize) -> bool {
        let same: Vec<bool> = board.iter().map(|&c| c == board[point]).collect();
        self.component(point, &same)
            .into_iter()
            .any(|p| self.has_open_side(p) || self.neighbours(p).iter().any(|&n| board[n] == 0))
    }

    fn is_legal(&self, board: &[u8]) -> bool {
        (0..board.len()).all(|p| board[p] == 0 || self.breathes(board, p))
    }

    /// The mover (1) places at `point`: the board after, the stones
    /// captured and the ko point, or `None` if occupied or suicide.
    fn place(&self, board: &[u8], point: usize) -> Option<(Vec<u8>, Vec<usize>, Option<usize>)> {
        if board[point] != 0 {
            return None;
        }
        let mut after = board.to_vec();
        after[point] = 1;
        let mut captured = Vec::new();
        for n in self.neighbours(point) {
            if after[n] == 2 && !self.breathes(&after, n) {
                let theirs: Vec<bool> = after.iter().map(|&c| c == 2).collect();
                for p in self.component(n, &theirs) {
                    captured.push(p);
                }
                for &p in &captured {
                    after[p] = 0;
                }
            }
        }
        if !self.breathes(&after, point) {
            return None;
        }
        captured.sort();
        captured.dedup();
        let alone = self.neighbours(point).iter().all(|&n| after[n] != 1);
        let liberties: Vec<usize> = self
            .neighbours(point)
            .into_iter()
            .filter(|&n| after[n] == 0)
            .collect();
        let ko =
            (alone && !self.has_open_side(point) && captured.len() == 1 && liberties == captured)
                .then(|| captured[0]);
        Some((after, captured, ko))
    }

    /// The points the opponent's last move could have left as the ko point
    /// of `board` (mover 1): an earlier position, legal, with their stone
    /// at `s` missing and ours at `k`, from which their stone at `s`
    /// captures just `k` and leaves the ko at `k`.
    fn ko_points(&self, board: &[u8]) -> Vec<usize> {
        let mut points = Vec::new();
        for k in 0..board.len() {
            if board[k] != 0 {
                continue;
            }
            let possible = self.neighbours(k).into_iter().any(|s| {
                if board[s] != 2 {
                    return false;
                }
                // The earlier position from their view: theirs 1, ours 2.
                let mut earlier: Vec<u8> = board.iter().map(|&c| [0, 2, 1][c as usize]).collect();
                earlier[s] = 0;
                earlier[k] = 2;
                if !self.is_legal(&earlier) {
                    return false;
                }
                let Some((after, _, ko)) = self.place(&earlier, s) else {
                    return false;
                };
                let seen: Vec<u8> = after.iter().map(|&c| [0, 2, 1][c as usize]).collect();
                ko == Some(k) && seen == board
            });
            if possible {
                points.push(k);
            }
        }
        points
    }

    /// Area score from the mover's view: stones, and empty regions that
    /// touch only one colour and no open side.
    fn score(&self, board: &[u8]) -> i32 {
        let mut score = 0;
        let empty: Vec<bool> = board.iter().map(|&c| c == 0).collect();
        let mut done = vec![false; board.len()];
        for p in 0..board.len() {
            match board[p] {
                1 => score += 1,
                2 => score -= 1,
                _ if !done[p] => {
                    let region = self.component(p, &empty);
                    let mut touches = [false; 3];
                    let mut open = false;
                    for &q in &region {
                        done[q] = true;
                        open |= self.has_open_side(q);
                        for n in self.neighbours(q) {
                            touches[board[n] as usize] = true;
                        }
                    }
                    if !open && touches[1] != touches[2] {
                        score += if touches[1] { 1 } else { -1 } * region.len() as i32;
                    }
                }
                _ => {}
            }
        }
        score
    }
}

fn set_of(points: impl IntoIterator<Item = usize>) -> PointSet {
    points.into_iter().fold(PointSet::EMPTY, |set, p| {
        set | PointSet::single(Point::new(p))
    })
}

fn position_of(board: &[u8]) -> Position {
    Position::new(
        set_of((0..board.len()).filter(|&p| board[p] == 1)),
        set_of((0..board.len()).filter(|&p| board[p] == 2)),
    )
}

/// Random shapes that are shapes (not a whole rectangle, with a point).
fn random_shapes(seed: u64, count: usize) -> Vec<(Model, Board)> {
    let mut rng = Rng::new(seed);
    let mut shapes = Vec::new();
    while shapes.len() < count {
        let model = Model::random(&mut rng);
        let Ok(board) = Board::shape(&model.diagram()) else {
            assert!(model.points.is_empty(), "{} refused", model.diagram());
            continue;
        };
        if model.points.len() == model.cells.len() {
            assert_eq!(board, Board::new(model.rows, model.columns).unwrap());
            continue;
        }
        shapes.push((model, board));
    }
    shapes
}

/// Adjacency, the sets touching exactly one, legality, placements,
/// ko points and score of random positions of random shapes against the
/// model.
#[test]
fn shapes_follow_the_rules_of_the_model() {
    let mut rng = Rng::new(0x5a_4e5);
    for (model, board) in random_shapes(0x5a_4e50, 300) {
        let n = model.points.len();
        assert_eq!(board.points(), n, "{board}");
        // The board's grid starts at the first row and column with a point
        // or an open cell beside a point.
        let used: Vec<usize> = (0..model.cells.len())
            .filter(|&at| {
                model.cells[at] == b'.'
                    || model.cells[at] == b'+'
                        && model
                            .sides(at)
                            .iter()
                            .any(|&side| model.cells[side] == b'.')
            })
            .collect();
        let first_row = used.iter().map(|at| at / model.columns).min().unwrap();
        let first_column = used.iter().map(|at| at % model.columns).min().unwrap();
        for p in 0..n {
            let point = Point::new(p);
            assert_eq!(
                board.neighbours(point),
                set_of(model.neighbours(p)),
                "{board}: {p}"
            );
            assert_eq!(board.open().contains(point), model.has_open_side(p));
            let cell = model.points[p];
            assert_eq!(
                (board.row(point), board.column(point)),
                (
                    cell / model.columns - first_row,
                    cell % model.columns - first_column
                ),
                "{board}: {p}"
            );
        }
        for _ in 0..50 {
            let set = rng.next_u64() & board.all().bits();
            let (mut adjacent, mut once) = (Vec::new(), Vec::new());
            for p in 0..n {
                let touching = model
                    .neighbours(p)
                    .iter()
                    .filter(|&&q| set >> q & 1 == 1)
                    .count();
                if touching >= 1 {
                    adjacent.push(p);
                }
                if touching == 1 {
                    once.push(p);
                }
            }
            assert_eq!(board.adjacent(PointSet(set)), set_of(adjacent));
            assert_eq!(board.touching_exactly_one(PointSet(set)), set_of(once));
        }
        for _ in 0..40 {
            let cells: Vec<u8> = (0..n).map(|_| rng.below(3) as u8).collect();
            let position = position_of(&cells);
            let legal = model.is_legal(&cells);
            assert_eq!(position.is_legal(&board), legal, "{board}: {cells:?}");
            if !legal {
                continue;
            }
            assert_eq!(
                position.area_score(&board),
                model.score(&cells),
                "{board}: {cells:?}"
            );
            let mut placements = Vec::new();
            position.placements(&board, |point, placement| {
                placements.push((point, placement))
            });
            let mut expected = Vec::new();
            for p in 0..n {
                let placed = position.place(&board, Point::new(p));
                match model.place(&cells, p) {
                    None => assert_eq!(placed, None, "{board}: {cells:?} at {p}"),
                    Some((after, captured, ko)) => {
                        let placed = placed.unwrap_or_else(|| panic!("{board}: {cells:?} at {p}"));
                        assert_eq!(placed.position, position_of(&after), "{board}: {cells:?}");
                        assert_eq!(placed.captured, set_of(captured), "{board}: {cells:?}");
                        assert_eq!(placed.ko, ko.map(Point::new), "{board}: {cells:?} at {p}");
                        expected.push((Point::new(p), placed));
                    }
                }
            }
            assert_eq!(placements, expected, "{board}: {cells:?}");
            let mut capturing = Vec::new();
            let quiet = position.quiet_placements(&board, |p, placed| capturing.push((p, placed)));
            let (captures, quiets): (Vec<_>, Vec<_>) = expected
                .into_iter()
                .partition(|(_, placed)| !placed.captured.is_empty());
            assert_eq!(capturing, captures, "{board}: {cells:?}");
            assert_eq!(quiet, set_of(quiets.iter().map(|(p, _)| p.index())));
            let ko_points = set_of(model.ko_points(&cells));
            assert_eq!(position.ko_points(&board), ko_points, "{board}: {cells:?}");
            for p in 0..n {
                assert_eq!(
                    position.is_ko_point(&board, Point::new(p)),
                    ko_points.contains(Point::new(p)),
                    "{board}: {cells:?} at {p}"
                );
            }
        }
    }
}

/// Un-moves are the exact inverse of moves on random states of random
/// shapes: every predecessor is legal and leads to the state, none is
/// listed twice, and every child lists the state among its predecessors.
#[test]
fn unmoves_invert_moves_on_shapes() {
    let mut rng = Rng::new(0x0b_5e55);
    for (model, board) in random_shapes(0x0b_5e56, 200) {
        let n = model.points.len();
        let mut checked = 0;
        for _ in 0..400 {
            if checked == 20 {
                break;
            }
            let cells: Vec<u8> = (0..n).map(|_| rng.below(3) as u8).collect();
            let position = position_of(&cells);
            if !position.is_legal(&board) {
                continue;
            }
            let kos = position.ko_points(&board);
            let ko = kos.iter().nth(rng.below(kos.len() as u64 + 1) as usize);
            let passed = ko.is_none() && rng.below(3) == 0;
            let state = State::new(&board, position, ko, passed).unwrap();
            checked += 1;
            let mut predecessors = Vec::new();
            for_each_predecessor(&board, &state, |p| predecessors.push(p));
            for pred in &predecessors {
                assert!(
                    State::new(&board, pred.position(), pred.ko(), pred.passed()).is_ok(),
                    "{board}: {pred:?} of {state:?} is not legal"
                );
                assert!(
                    leads_to(&board, pred, &state),
                    "{board}: {pred:?} {state:?}"
                );
            }
            let distinct: HashSet<State> = predecessors.iter().copied().collect();
            assert_eq!(distinct.len(), predecessors.len(), "{board}: {state:?}");
            for mv in state.legal_moves(&board) {
                if let Some(Child::State(child)) = state.play(&board, mv) {
                    let mut found = false;
                    for_each_predecessor(&board, &child, |p| found |= p == state);
                    assert!(
                        found,
                        "{board}: {state:?} --{mv:?}--> {child:?} is not undone"
                    );
                }
            }
        }
    }
}

/// Names: a diagram reads back as itself once canonical (walls around
/// removed, open cells next to no point written as walls), a whole
/// rectangle of points is the plain board, faults are refused with a
/// reason, and points are named by their cells.
#[test]
fn shape_names_are_canonical() {
    let board: Board = "#.#/.../#.#".parse().unwrap();
    assert_eq!(board.to_string(), "#.#/.../#.#");
    assert_eq!(board.points(), 5);
    assert_eq!("###/#.#/.../#.#/###".parse::<Board>(), Ok(board));
    assert_eq!(
        "+###/#.#+/..../#.##".parse::<Board>().unwrap().to_string(),
        "#.#+/..../#.##"
    );
    assert_eq!("##../##..".parse::<Board>(), Ok(Board::new(2, 2).unwrap()));
    assert_eq!("..../....".parse::<Board>(), Ok(Board::new(2, 4).unwrap()));
    for (text, why) in [
        ("###/###", "no point"),
        ("../...", "cells"),
        ("", "not a board"),
        ("+/#", "no point"),
    ] {
        let error = text.parse::<Board>().unwrap_err().to_string();
        assert!(error.contains(why), "{text}: {error}");
    }
    let large = format!("#........{}", ["/........."; 7].concat());
    let error = large.parse::<Board>().unwrap_err().to_string();
    assert!(error.contains("71 points"), "{error}");
    let wide = format!("#{}/{}", ["."; 25].concat(), ["."; 26].concat());
    let error = wide.parse::<Board>().unwrap_err().to_string();
    assert!(error.contains("2x26"), "{error}");
    // Points are named by their cells: the plus has no A1, its centre is B2.
    assert_eq!(board.parse_point("A1"), None);
    assert_eq!(board.parse_vertex("A1"), Some(None));
    assert_eq!(board.parse_point("B1"), Some(Point::new(0)));
    assert_eq!(board.parse_point("B2"), Some(Point::new(2)));
    assert_eq!(board.point_name(Point::new(4)), "B3");
    // The table file's stem, and the stem read back as the board.
    let stem = board.file_stem();
    assert!(stem.starts_with("shape-") && stem.len() == 22, "{stem}");
    assert_eq!(stem.parse::<Board>(), Ok(board));
    assert_eq!(Board::new(2, 7).unwrap().file_stem(), "2x7");
    // Shapes are distinct from rectangles and order after them.
    assert!(Board::new(3, 3).unwrap() < board);
    assert_eq!(board.turned(), None);
    let position = Position::from_diagram(&board, "#X#\n.O.\n#.#").unwrap();
    assert_eq!(position.us(), PointSet::single(Point::new(4)));
    assert!(Position::from_diagram(&board, "X..\n...\n#.#").is_err());
}

/// The group of a shape: the grid's maps that keep its cells, each a
/// permutation that keeps adjacency and open sides; rectangles and
/// circular boards keep theirs.
#[test]
fn shape_symmetries_are_computed() {
    for (diagram, order) in [
        ("#.#/.../#.#", 8), // plus
        (".../.#./...", 8), // ring around a hole
        ("..#/...", 1),     // nothing but the identity
        (".##/.##/...", 2), // an L on a square grid: its diagonal
        ("+../...", 1),     // an open cell breaks every map
        ("+..+/....", 2),
        (".#./.+./...", 2), // the open cell in the hole
        ("..#/#..", 2),     // a turn by half
        ("...#/#...", 2),
        (".#/..", 2),
        ("#../.../..#", 4),
        (".+/.#/..", 1),
        ("+../#..", 1), // the flip keeps the points, not the open cell
    ] {
        let board: Board = diagram.parse().unwrap();
        let group = symmetries(&board);
        assert_eq!(group.len(), order, "{diagram}");
        for symmetry in &group {
            for point in board.all().iter() {
                let image = symmetry.apply(point);
                assert_eq!(
                    symmetry.apply_set(board.neighbours(point)),
                    board.neighbours(image),
                    "{diagram}"
                );
                assert_eq!(board.open().contains(point), board.open().contains(image));
            }
        }
    }
    for (name, order) in [("3x3", 8), ("2x4", 4), ("1x5", 2), ("1x1", 1), ("2x5c", 20)] {
        assert_eq!(symmetries(&name.parse().unwrap()).len(), order, "{name}");
    }
}

/// A shape's table: built through the public API, named by the hash of
/// its diagram, holding the diagram after its header (format version 3),
/// verified, probed back state by state, served by a `Tablebase`; damaged
/// or false diagrams are refused with a message.
#[test]
fn shape_tables_are_written_verified_and_probed() {
    use crate::index::StateNumber;
    use crate::rules::value::Outcome;
    use crate::solver::{solve, Silent};
    use crate::table::format::{file_checksum, Header, CHECKSUM_OFFSET, HEADER_SIZE};
    use crate::table::verify::verify_file;
    use crate::table::Table;

    let folder = tempfile::tempdir().unwrap();
    let diagram = "#.+/.../..#";
    let board: Board = diagram.parse().unwrap();
    let path = crate::build_table(board, folder.path()).unwrap();
    assert_eq!(
        path.file_name().unwrap().to_string_lossy(),
        format!("{}.sgtb", board.file_stem())
    );
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(bytes[8..12], 3u32.to_le_bytes());
    assert_eq!((bytes[16], bytes[17], bytes[18]), (3, 3, 2));
    assert_eq!(bytes[124..128], (diagram.len() as u32).to_le_bytes());
    assert_eq!(
        &bytes[HEADER_SIZE..HEADER_SIZE + diagram.len()],
        diagram.as_bytes()
    );
    assert_eq!(Header::peek_board(&bytes), Ok(board));

    let report = verify_file(&path).unwrap();
    let solution = solve(board, &Silent).unwrap();
    let index = solution.index();
    assert_eq!(report.states, index.counts().states);
    let table = Table::open(&path).unwrap();
    assert_eq!(table.board(), board);
    for number in 0..index.counts().states as StateNumber {
        let state = index.unrank(number);
        assert_eq!(
            table.probe(&state).unwrap(),
            solution.value(number).unwrap()
        );
    }

    // A tablebase with the folder serves the shape.
    let mut tablebase = crate::Tablebase::new();
    assert!(tablebase.add_directory(folder.path()).unwrap().is_empty());
    let values = tablebase.values(board).unwrap();
    assert!(
        values.description().contains(&board.file_stem()),
        "{}",
        values.description()
    );
    for number in (0..index.counts().states as StateNumber).step_by(5) {
        let state = index.unrank(number);
        let value = solution.value(number).unwrap();
        for komi in [-1.5, 0.0, 2.0] {
            let state = crate::BoardState::new(board, state.position(), state.ko(), state.passed())
                .unwrap();
            let outcome: Outcome = values.outcome(&state, komi, crate::Colour::Black).unwrap();
            assert_eq!(
                outcome,
                value.outcome(komi, true),
                "{state:?} at komi {komi}"
            );
        }
    }

    // False or damaged diagrams, resealed so that the checksum passes.
    let reseal = |bytes: &mut Vec<u8>| {
        let checksum = file_checksum(bytes);
        bytes[CHECKSUM_OFFSET..CHECKSUM_OFFSET + 4].copy_from_slice(&checksum.to_le_bytes());
    };
    let shape_at = HEADER_SIZE;
    for (at, replaced, fault) in [
        (shape_at, &b"x"[..], "not a board shape"),
        (shape_at, b".../.../...", "not written as smallgo writes it"),
        (shape_at, b"###/#.+/...", "not written as smallgo writes it"),
        (shape_at, b"..........+", "on a grid of 3x3"),
        (124, &[0][..], "a shape of 0 bytes"),
        (125, &[0x40][..], "a shape of"),
        (17, &[4][..], "on a grid of 3x4"),
        (18, &[1][..], "topology 1 in a version 3 header"),
    ] {
        let mut damaged = bytes.clone();
        damaged[at..at + replaced.len()].copy_from_slice(replaced);
        reseal(&mut damaged);
        let message = Header::read(&damaged).unwrap_err().to_string();
        assert!(message.contains(fault), "byte {at}: {message}");
        let damaged_path = folder.path().join("damaged.sgtb");
        std::fs::write(&damaged_path, &damaged).unwrap();
        let message = Table::open(&damaged_path).unwrap_err().to_string();
        assert!(message.contains("damaged.sgtb"), "{message}");
        assert!(verify_file(&damaged_path).is_err());
    }
    // Truncated anywhere, the header alone included: refused, no panic.
    for length in (0..bytes.len()).step_by(3) {
        assert!(Header::read(&bytes[..length]).is_err(), "{length} bytes");
        let peeked = Header::peek_board(&bytes[..length]);
        assert!(
            peeked.is_err() || length >= HEADER_SIZE + diagram.len(),
            "{length}"
        );
    }
    // A file named for another shape is refused by name.
    let other: Board = "#.+/.../.##".parse().unwrap();
    let misnamed = folder.path().join(format!("{}.sgtb", other.file_stem()));
    std::fs::write(&misnamed, &bytes).unwrap();
    let message = Table::open_for(&misnamed, other).unwrap_err().to_string();
    assert!(
        message.contains(&format!("holds board {board}")),
        "{message}"
    );
}

/// A build's estimate of a shape follows its points, not its grid: a
/// diagonal band of twelve points on a grid of 42 cells is small.
#[test]
fn a_shape_is_estimated_by_its_points() {
    let band: Board = "..######/#..#####/##..####/###..###/####..##/#####..#"
        .parse()
        .unwrap();
    assert_eq!((band.points(), band.rows() * band.columns()), (12, 42));
    let estimate = crate::solver::plan::estimate(&band);
    assert!(estimate.legal_positions <= 3f64.powi(12), "{estimate:?}");
    let square = crate::solver::plan::estimate(&Board::new(4, 4).unwrap());
    assert!(square.legal_positions > 1e7, "{square:?}");
}

/// Rectangles and circular boards keep their geometry: every one of at
/// most 64 points numbers its points row by row over the whole grid and
/// gives each point the grid's neighbours (across the seam on a circular
/// board of three columns or more), with no open side; a diagram of the
/// whole rectangle is the plain board.
#[test]
fn rectangles_and_circular_boards_keep_their_geometry() {
    for rows in 1..=25 {
        for columns in 1..=25 {
            if rows * columns > 64 {
                continue;
            }
            let diagram = vec![".".repeat(columns); rows].join("/");
            assert_eq!(Board::shape(&diagram), Board::new(rows, columns));
            for board in [
                Board::new(rows, columns).unwrap(),
                Board::circular(rows, columns).unwrap(),
            ] {
                assert_eq!(board.points(), rows * columns, "{board}");
                assert!(board.open().is_empty(), "{board}");
                assert_eq!(board.file_stem(), board.name());
                for row in 0..rows {
                    for column in 0..columns {
                        let point = board.point(row, column);
                        assert_eq!(point.index(), row * columns + column);
                        assert_eq!((board.row(point), board.column(point)), (row, column));
                        let mut expected = Vec::new();
                        if row > 0 {
                            expected.push((row - 1) * columns + column);
                        }
                        if row + 1 < rows {
                            expected.push((row + 1) * columns + column);
                        }
                        if column > 0 {
                            expected.push(row * columns + column - 1);
                        }
                        if column + 1 < columns {
                            expected.push(row * columns + column + 1);
                        }
                        if board.is_circular() && columns >= 3 {
                            if column == 0 {
                                expected.push(row * columns + columns - 1);
                            }
                            if column + 1 == columns {
                                expected.push(row * columns);
                            }
                        }
                        assert_eq!(board.neighbours(point), set_of(expected), "{board}");
                    }
                }
            }
        }
    }
}
