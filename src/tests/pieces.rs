//! Board pieces (after Bouzy, docs/pieces.md): their symmetry groups keep
//! exactly the maps that keep the piece's kind, checked against the
//! grid's maps written here; the classes of their positions as Bouzy
//! counts them, against a brute force written here.

use std::collections::HashSet;

use crate::analyses::count::{classes, count_board, Classes};
use crate::index::code::Codec;
use crate::rules::board::{Board, PieceKind, Point, PointSet};
use crate::symmetry::symmetries;

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
