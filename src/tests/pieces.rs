//! Board pieces (after Bouzy, docs/pieces.md): their symmetry groups keep
//! exactly the maps that keep the piece's kind, checked against the
//! grid's maps written here; the classes of their positions as Bouzy
//! counts them, and every 3x3 piece's values under both scorings, against
//! brute forces written here; and the pieces' solve against the tables'
//! solver (area scoring).

use std::collections::{HashMap, HashSet};

use crate::analyses::count::{classes, count_board, Classes};
use crate::analyses::piece::{
    for_each_class, load_table, piece_value, solve, solve_indexed, PieceMargins, Scoring,
};
use crate::index::code::Codec;
use crate::rules::board::{Board, PieceKind, Point, PointSet};
use crate::rules::position::Position;
use crate::rules::state::{Child, State};
use crate::symmetry::symmetries;
use crate::table::Table;

/// A point's place in the piece: row and column from the lower left, from 0
/// (the grid's row and column less the open side below and to the left).
fn place(board: &Board, kind: PieceKind, point: Point) -> (usize, usize) {
    let (below, left) = match kind {
        PieceKind::Open => (1, 1),
        PieceKind::Edge => (0, 1),
        PieceKind::Corner | PieceKind::Closed => (0, 0),
    };
    (board.row(point) - below, board.column(point) - left)
}

/// The maps of a rows x columns rectangle that keep a piece of `kind`:
/// the mirrors and turns of the rectangle that take its closed sides to
/// closed sides, listed from the kind.
fn kind_maps(rows: usize, columns: usize, kind: PieceKind) -> usize {
    let rectangle = if rows == columns { 8 } else { 4 };
    match kind {
        PieceKind::Open | PieceKind::Closed => rectangle,
        // The mirror of the columns keeps the bottom edge; so does the
        // identity.
        PieceKind::Edge => 2,
        // The transpose keeps the corner at A1 on a square piece only.
        PieceKind::Corner if rows == columns => 2,
        PieceKind::Corner => 1,
    }
}

#[test]
fn symmetries_of_pieces_keep_their_kind() {
    for rows in 1..=4 {
        for columns in 1..=4 {
            for kind in PieceKind::ALL {
                let board = Board::piece(rows, columns, kind).unwrap();
                let group = symmetries(&board);
                let expected = if rows * columns == 1 {
                    1
                } else if rows == 1 || columns == 1 {
                    // A line of points: its maps are those of the line.
                    match kind {
                        PieceKind::Open | PieceKind::Closed => 2,
                        PieceKind::Edge if rows == 1 => 2,
                        PieceKind::Edge => 1,
                        PieceKind::Corner => 1,
                    }
                } else {
                    kind_maps(rows, columns, kind)
                };
                assert_eq!(group.len(), expected, "{rows}x{columns}-{}", kind.word());
                for symmetry in &group {
                    for point in board.all().iter() {
                        let image = symmetry.apply(point);
                        let (row, column) = place(&board, kind, point);
                        let (to_row, to_column) = place(&board, kind, image);
                        // An open side stays open.
                        assert_eq!(board.open().contains(point), board.open().contains(image));
                        match kind {
                            PieceKind::Edge => {
                                assert_eq!(row == 0, to_row == 0, "the edge stays the edge")
                            }
                            PieceKind::Corner => assert_eq!(
                                (row, column) == (0, 0),
                                (to_row, to_column) == (0, 0),
                                "the corner stays the corner"
                            ),
                            _ => {}
                        }
                    }
                }
            }
        }
    }
}

/// Every placement of stones on `board`, as (black, white) sets: the
/// digits of `0..3^N` in base 3, one a point.
fn placements(board: &Board) -> impl Iterator<Item = (PointSet, PointSet)> + '_ {
    let points: Vec<Point> = board.all().iter().collect();
    (0..3u64.pow(points.len() as u32)).map(move |code| {
        let (mut black, mut white) = (PointSet::EMPTY, PointSet::EMPTY);
        let mut digits = code;
        for &point in &points {
            match digits % 3 {
                1 => black.insert(point),
                2 => white.insert(point),
                _ => {}
            }
            digits /= 3;
        }
        (black, white)
    })
}

/// Whether every string has a liberty, found by search: a string's
/// stones reached from one, neighbour by neighbour, and its liberties are
/// its empty neighbours and its open sides.
fn every_string_breathes(board: &Board, black: PointSet, white: PointSet) -> bool {
    let empty = board.all() - black - white;
    [black, white].into_iter().all(|stones| {
        stones.iter().all(|start| {
            let mut string = PointSet::single(start);
            let mut frontier = vec![start];
            let mut breathes = false;
            while let Some(point) = frontier.pop() {
                breathes |= board.open().contains(point);
                for next in board.neighbours(point).iter() {
                    breathes |= empty.contains(next);
                    if stones.contains(next) && !string.contains(next) {
                        string.insert(next);
                        frontier.push(next);
                    }
                }
            }
            breathes
        })
    })
}

/// The classes Bouzy counts, by brute force: every placement's images
/// under each symmetry (and with the colours exchanged), the smallest
/// taken as its class, the classes gathered in sets.
fn brute_classes(board: &Board) -> Classes {
    let group = symmetries(board);
    let mut sets: [HashSet<(u64, u64)>; 4] = Default::default();
    let (mut positions, mut legal_positions) = (0, 0);
    for (black, white) in placements(board) {
        let images: Vec<(u64, u64)> = group
            .iter()
            .map(|s| (s.apply_set(black).0, s.apply_set(white).0))
            .collect();
        let plain = *images.iter().min().unwrap();
        let inverted = images
            .iter()
            .flat_map(|&(b, w)| [(b, w), (w, b)])
            .min()
            .unwrap();
        positions += 1;
        sets[0].insert(plain);
        sets[1].insert(inverted);
        if every_string_breathes(board, black, white) {
            legal_positions += 1;
            sets[2].insert(plain);
            sets[3].insert(inverted);
        }
    }
    Classes {
        symmetries: group.len() as u64,
        positions,
        classes: sets[0].len() as u64,
        classes_inverted: sets[1].len() as u64,
        legal_positions,
        legal_classes: sets[2].len() as u64,
        legal_classes_inverted: sets[3].len() as u64,
    }
}

/// `for_each_class` gives, one at a time, what a brute force gets by
/// listing every legal placement, keeping the least of each class (its
/// bits compared as (black, white) under every symmetry) and sorting by
/// stones, then Black's bits, then White's.
#[test]
fn classes_are_enumerated_in_order_once_each() {
    for name in [
        "1x1-open",
        "2x2-corner",
        "2x3-edge",
        "3x3-open",
        "3x3-corner",
        "2x3",
    ] {
        let board: Board = name.parse().unwrap();
        let group = symmetries(&board);
        let mut brute: Vec<(PointSet, PointSet)> = placements(&board)
            .filter(|&(black, white)| every_string_breathes(&board, black, white))
            .filter(|&(black, white)| {
                group
                    .iter()
                    .all(|s| (black.0, white.0) <= (s.apply_set(black).0, s.apply_set(white).0))
            })
            .collect();
        brute.sort_by_key(|&(black, white)| ((black | white).len(), black.0, white.0));
        let mut enumerated = Vec::new();
        for_each_class(&board, |black, white| {
            enumerated.push((black, white));
            Ok::<(), ()>(())
        })
        .unwrap();
        assert!(brute.len() > 1, "{name}");
        assert_eq!(enumerated, brute, "{name}");
    }
}

#[test]
fn classes_of_pieces_match_a_brute_force() {
    let mut boards = Vec::new();
    for (rows, columns) in [(1, 1), (1, 3), (2, 2), (2, 3), (3, 2), (3, 3)] {
        for kind in PieceKind::ALL {
            boards.push(Board::piece(rows, columns, kind).unwrap());
        }
    }
    for name in ["2x3c", "#.#/.../#.#", ".../.+./...", "..+/..."] {
        boards.push(name.parse().unwrap());
    }
    for board in boards {
        let codec = Codec::new(board);
        let counted = classes(&codec, &count_board(board));
        assert_eq!(counted, brute_classes(&board), "{}", board.piece_name());
    }
}

/// Bouzy's evaluation, written out from its definition: each colour's
/// stones, and each empty point with no open side whose neighbours (listed
/// one by one) are all that colour's stones; from the mover's view.
fn bouzy_margin(board: &Board, position: &Position) -> i32 {
    let (us, them) = (position.us(), position.them());
    let mut margin = us.len() as i32 - them.len() as i32;
    for point in board.all().iter() {
        if us.contains(point) || them.contains(point) || board.open().contains(point) {
            continue;
        }
        let around: Vec<Point> = board.neighbours(point).iter().collect();
        if around.is_empty() {
            continue;
        }
        if around.iter().all(|&p| us.contains(p)) {
            margin += 1;
        } else if around.iter().all(|&p| them.contains(p)) {
            margin -= 1;
        }
    }
    margin
}

/// What each side can force from every state reached from the empty
/// board, by brute force: the graph by forward search, then the forced
/// margins by iteration to the least fixed point (a state no one can
/// force the end from stays `None`). `(mover, opponent)` per state.
fn brute_margins(
    board: &Board,
    margin: &dyn Fn(&Position) -> i32,
) -> HashMap<State, (Option<i32>, Option<i32>)> {
    let start = State::from_parts(Position::default(), None, false);
    let mut order = vec![start];
    let mut seen: HashSet<State> = HashSet::from([start]);
    let mut moves: Vec<Vec<Result<i32, State>>> = Vec::new();
    let mut next = 0;
    while next < order.len() {
        let state = order[next];
        let mut out = Vec::new();
        for mv in state.legal_moves(board) {
            match state.play(board, mv).unwrap() {
                Child::End { .. } => out.push(Ok(margin(&state.position()))),
                Child::State(child) => {
                    if seen.insert(child) {
                        order.push(child);
                    }
                    out.push(Err(child));
                }
            }
        }
        moves.push(out);
        next += 1;
    }
    let mut forced: HashMap<State, (Option<i32>, Option<i32>)> =
        order.iter().map(|&s| (s, (None, None))).collect();
    loop {
        let mut changed = false;
        for (state, out) in order.iter().zip(&moves) {
            // The mover: the best of its moves it can force.
            let mover = out
                .iter()
                .filter_map(|m| match m {
                    Ok(end) => Some(*end),
                    Err(child) => forced[child].1,
                })
                .max();
            // The opponent: forced only if every move of the mover leaves
            // it something forced; the least of those.
            let opponent = out
                .iter()
                .map(|m| match m {
                    Ok(end) => Some(-end),
                    Err(child) => forced[child].0,
                })
                .collect::<Option<Vec<i32>>>()
                .and_then(|all| all.into_iter().min());
            if forced[state] != (mover, opponent) {
                forced.insert(*state, (mover, opponent));
                changed = true;
            }
        }
        if !changed {
            return forced;
        }
    }
}

#[test]
fn values_of_every_3x3_piece_match_a_brute_force() {
    for kind in PieceKind::ALL {
        let board = Board::piece(3, 3, kind).unwrap();
        for scoring in [Scoring::Area, Scoring::Bouzy] {
            let solved = solve(board, scoring).unwrap();
            let margin = |position: &Position| match scoring {
                Scoring::Area => position.area_score(&board),
                Scoring::Bouzy => bouzy_margin(&board, position),
            };
            let brute = brute_margins(&board, &margin);
            assert!(brute.len() > 1000, "{}", board.piece_name());
            for (state, &(mover, opponent)) in &brute {
                let margins = solved.margins(state).expect("every reached state solved");
                assert_eq!(
                    (margins.mover, margins.opponent),
                    (mover, opponent),
                    "{} {scoring:?} {state:?}",
                    board.piece_name()
                );
            }
            // The paper's values of the empty pieces: {+1|-1} on the open,
            // edge and corner pieces, {+9|-9} on the closed one.
            let value = piece_value(&board, scoring, &solved, PointSet::EMPTY, PointSet::EMPTY)
                .unwrap()
                .unwrap();
            let first = if kind == PieceKind::Closed { 9 } else { 1 };
            assert_eq!(
                (value.black_first.exact(), value.white_first.exact()),
                (Some(first), Some(-first)),
                "{}",
                board.piece_name()
            );
        }
    }
}

#[test]
fn piece_values_match_the_tables_solver_on_every_3x3_piece() {
    for kind in PieceKind::ALL {
        let board = Board::piece(3, 3, kind).unwrap();
        let table = crate::solver::solve(board, &crate::solver::Silent).unwrap();
        let solved = solve(board, Scoring::Area).unwrap();
        let start = State::from_parts(Position::default(), None, false);
        // Every state reached from the empty piece, both solves' A and B.
        let mut frontier = vec![start];
        let mut seen: HashSet<State> = HashSet::from([start]);
        while let Some(state) = frontier.pop() {
            let value = table.probe(&state).unwrap().unwrap();
            let margins = solved.margins(&state).unwrap();
            assert_eq!(
                (margins.mover, margins.opponent),
                (
                    value.mover_margin.map(i32::from),
                    value.opponent_margin.map(i32::from)
                ),
                "{} {state:?}",
                board.piece_name()
            );
            for mv in state.legal_moves(&board) {
                if let Some(Child::State(child)) = state.play(&board, mv) {
                    if seen.insert(child) {
                        frontier.push(child);
                    }
                }
            }
        }
        assert!(seen.len() > 1000, "{}", board.piece_name());
    }
}

#[test]
fn the_indexed_solve_matches_the_solve_in_memory_on_every_state() {
    let mut boards: Vec<Board> = PieceKind::ALL
        .iter()
        .map(|&kind| Board::piece(3, 3, kind).unwrap())
        .collect();
    boards.push(Board::piece(2, 2, PieceKind::Closed).unwrap());
    boards.push(Board::piece(2, 3, PieceKind::Corner).unwrap());
    for board in boards {
        for scoring in [Scoring::Area, Scoring::Bouzy] {
            let solved = solve(board, scoring).unwrap();
            let (indexed, figures) = solve_indexed(board, scoring, u64::MAX).unwrap();
            assert!(figures.edges > figures.states, "{}", board.piece_name());
            // Every legal state, in every orientation: the solve in memory
            // lists them all without symmetry, the indexed one ranks them.
            let group = symmetries(&board);
            let mut checked = 0;
            for_each_class(&board, |black, white| {
                let mut states = Vec::new();
                for symmetry in &group {
                    let (black, white) = (symmetry.apply_set(black), symmetry.apply_set(white));
                    for position in [Position::new(black, white), Position::new(white, black)] {
                        states.push(State::from_parts(position, None, false));
                        states.push(State::from_parts(position, None, true));
                        for ko in position.ko_points(&board).iter() {
                            states.push(State::from_parts(position, Some(ko), false));
                        }
                    }
                }
                for state in states {
                    assert_eq!(
                        indexed.margins_of(&state).unwrap(),
                        solved.margins(&state),
                        "{} {scoring:?} {state:?}",
                        board.piece_name()
                    );
                    checked += 1;
                }
                Ok::<(), ()>(())
            })
            .unwrap();
            assert!(checked as u64 >= figures.states, "{}", board.piece_name());
        }
    }
}

#[test]
fn the_indexed_solve_is_refused_past_its_memory_and_reads_a_table_whole() {
    let board = Board::piece(3, 3, PieceKind::Edge).unwrap();
    let (_, figures) = solve_indexed(board, Scoring::Area, u64::MAX).unwrap();
    let refused = solve_indexed(board, Scoring::Area, figures.bytes - 1)
        .err()
        .unwrap();
    assert!(refused.contains("edges"), "{refused}");
    assert!(solve_indexed(board, Scoring::Area, figures.bytes).is_ok());
    // The table's values read in one walk of its blocks are the prober's.
    let solution = crate::solver::solve(board, &crate::solver::Silent).unwrap();
    let (bytes, _) = crate::table::writer::encode(&solution);
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join(crate::table::file_name(&board));
    std::fs::write(&path, bytes).unwrap();
    let table = Table::open(&path).unwrap();
    assert!(load_table(&table, 1000).unwrap().is_none());
    let loaded = load_table(&table, u64::MAX).unwrap().unwrap();
    assert_eq!(loaded.states(), figures.states);
    let (indexed, _) = solve_indexed(board, Scoring::Area, u64::MAX).unwrap();
    for_each_class(&board, |black, white| {
        for position in [Position::new(black, white), Position::new(white, black)] {
            for passed in [false, true] {
                let state = State::from_parts(position, None, passed);
                let value = table.probe(&state).unwrap();
                let margins = loaded.margins_of(&state).unwrap().unwrap();
                assert_eq!(
                    (margins.mover, margins.opponent),
                    (
                        value.mover_margin.map(i32::from),
                        value.opponent_margin.map(i32::from)
                    ),
                    "{state:?}"
                );
                assert_eq!(indexed.margins_of(&state).unwrap(), Some(margins));
            }
        }
        Ok::<(), ()>(())
    })
    .unwrap();
}

/// The paper's eight 2x2 closed positions (section 5) under its rule,
/// situational superko, each reached from the empty board along the
/// options of its game expressions (one move an option, a pass between
/// two moves of one side, each pass a turn that the seen set records),
/// solved by the superko solver: every figure of the paper's, `{l|r}` as
/// the value with Black, then White, to move, and D, G and H, which are
/// Black's options, with White to move. G reached through D instead of C
/// has another value: the history is part of the position.
#[test]
fn the_2x2_closed_positions_under_situational_superko_are_the_papers() {
    use crate::rules::moves::Move;
    use crate::superko::solve::{Options, Solver};
    use crate::superko::{Game, Superko};
    let board = Board::new(2, 2).unwrap();
    let value = |path: &[&str]| {
        let mut game = Game::new(board, Superko::Situational).unwrap();
        for &name in path {
            let mv = match name {
                "pass" => Move::Pass,
                name => Move::Place(board.parse_point(name).unwrap()),
            };
            game.play(mv).unwrap();
        }
        let black_moves = game.node().black_to_move;
        let mut solver = Solver::new(board, Superko::Situational, Options::default());
        let value = solver.value(&mut game).unwrap();
        let (black, white) = game.node().black_white();
        let diagram = crate::analyses::piece::diagram(&board, PointSet(black), PointSet(white));
        (diagram, if black_moves { value } else { -value })
    };
    // (position, its path with Black to move, with White to move, the
    // paper's l, r).
    type Figure<'a> = (&'a str, &'a [&'a str], &'a [&'a str], i32, i32);
    let figures: [Figure; 6] = [
        ("A", &[], &["pass"], 1, -1),
        ("B", &["A1", "pass"], &["A1"], 4, 1),
        ("E", &["A1", "B2"], &["A1", "B2", "pass"], 1, -1),
        ("F", &["A1", "B1"], &["A1", "B1", "pass"], 4, -4),
        // C: White has no move but the pass; Black's value as White's.
        (
            "C",
            &["A1", "pass", "B2", "pass"],
            &["A1", "pass", "B2"],
            4,
            4,
        ),
        // D with Black to move (after White's pass) is not the paper's
        // figure; only its r is, below.
        (
            "D",
            &["A1", "pass", "B1", "pass"],
            &["A1", "pass", "B1"],
            4,
            -1,
        ),
    ];
    for (name, black_first, white_first, l, r) in figures {
        let (diagram, got_l) = value(black_first);
        let (other, got_r) = value(white_first);
        assert_eq!(diagram, other, "{name}");
        assert_eq!((got_l, got_r), (l, r), "{name} {diagram}");
    }
    // D = -1, G = -1, H = +1, White to move, along B then D; C then G; E
    // or F then H.
    let white_to_move: [(&str, &str, &[&str], i32); 4] = [
        ("G", ".X/XX", &["A1", "pass", "B2", "pass", "B1"], -1),
        ("H", ".O/XX", &["A1", "B2", "B1"], 1),
        ("H", "X./XO", &["A1", "B1", "A2"], 1),
        (
            "G through D",
            "X./XX",
            &["A1", "pass", "B1", "pass", "A2"],
            -4,
        ),
    ];
    for (name, diagram, path, expected) in white_to_move {
        assert_eq!(value(path), (diagram.to_string(), expected), "{name}");
    }
}
