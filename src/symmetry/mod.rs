//! The board's own symmetries: 8 on a square board, 4 on a rectangle, 2 on a
//! line, 1 on a single point; on a circular board, the cylinder's own: the
//! turns along the rows times the mirror of the columns times the flip of
//! the rows, up to `4 * C` of them (`2 * C` on one row); on a shape, those
//! of its grid's that keep its points, walls and open cells (often only the
//! identity).
//!
//! A `Symmetry` is a permutation of the points that maps the board onto itself.
//! The tables store one representative per class of states that symmetries
//! relate (`docs/rules.md#states`); which representative is chosen is the
//! index's business (`index::code`), which uses these permutations.

// A probe-only build (no feature `solver`) leaves what only the solver and the analyses use unused.
#![cfg_attr(not(feature = "solver"), allow(dead_code, unused_imports))]

use crate::rules::board::{Board, Point, PointSet, Topology, MAX_POINTS};

/// A permutation of a board's points that maps the board onto itself.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Symmetry {
    image: [u8; MAX_POINTS],
    points: u8,
}

impl std::fmt::Debug for Symmetry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(&self.image[..self.points as usize])
            .finish()
    }
}

impl Symmetry {
    /// The image of a point.
    #[inline]
    pub fn apply(&self, point: Point) -> Point {
        Point::new(self.image[point.index()] as usize)
    }

    /// The image of a set of points.
    pub fn apply_set(&self, set: PointSet) -> PointSet {
        set.iter().fold(PointSet::EMPTY, |acc, p| {
            acc | PointSet::single(self.apply(p))
        })
    }

    #[cfg(test)]
    pub fn is_identity(&self) -> bool {
        (0..self.points as usize).all(|p| self.image[p] as usize == p)
    }

    #[cfg(test)]
    pub fn inverse(&self) -> Symmetry {
        let mut image = [0u8; MAX_POINTS];
        for p in 0..self.points as usize {
            image[self.image[p] as usize] = p as u8;
        }
        Symmetry {
            image,
            points: self.points,
        }
    }
}

/// The symmetries of a board, identity first, without repeats, in a fixed
/// order.
pub fn symmetries(board: &Board) -> Vec<Symmetry> {
    match board.topology() {
        Topology::Plain => plain_symmetries(board),
        Topology::Circular => circular_symmetries(board),
        Topology::Shape => shape_symmetries(board),
    }
}

/// A shape's symmetries: the maps of its grid's own group (the
/// rectangle's, and the transpositions of a square grid, in the order of
/// `plain_symmetries`) that take every cell to a cell of the same kind:
/// points to points, walls to walls, open cells to open cells. Any
/// symmetry of the shape maps the grid, which is the smallest around its
/// points and open cells, onto itself, so no other map can be one.
fn shape_symmetries(board: &Board) -> Vec<Symmetry> {
    let Some(shape) = board.shape_geometry() else {
        return plain_symmetries(board);
    };
    let (rows, columns) = (board.rows(), board.columns());
    let mut group: Vec<Symmetry> = Vec::new();
    for map in grid_maps(rows, columns) {
        let keeps_cells = (0..rows).all(|r| {
            (0..columns).all(|c| {
                let (to_row, to_column) = map(r, c, rows, columns);
                shape.cell(r, c) == shape.cell(to_row, to_column)
            })
        });
        if !keeps_cells {
            continue;
        }
        let mut image = [0u8; MAX_POINTS];
        for point in board.all().iter() {
            let (to_row, to_column) = map(board.row(point), board.column(point), rows, columns);
            image[point.index()] = board.point(to_row, to_column).index() as u8;
        }
        let symmetry = Symmetry {
            image,
            points: board.points() as u8,
        };
        if !group.contains(&symmetry) {
            group.push(symmetry);
        }
    }
    group
}

/// A map of a grid's group: (row, column, rows, columns) to the image
/// (row, column).
type Map = fn(usize, usize, usize, usize) -> (usize, usize);

/// The maps of a grid of `rows x columns` onto itself, identity first:
/// the rectangle's four, and the four transpositions of a square.
fn grid_maps(rows: usize, columns: usize) -> Vec<Map> {
    let mut maps: Vec<Map> = vec![
        |r, c, _, _| (r, c),
        |r, c, rs, cs| (rs - 1 - r, cs - 1 - c),
        |r, c, _, cs| (r, cs - 1 - c),
        |r, c, rs, _| (rs - 1 - r, c),
    ];
    if rows == columns {
        maps.extend_from_slice(&[
            (|r, c, _, _| (c, r)) as Map,
            |r, c, rs, _| (rs - 1 - c, rs - 1 - r),
            |r, c, rs, _| (c, rs - 1 - r),
            |r, c, rs, _| (rs - 1 - c, r),
        ]);
    }
    maps
}

/// The permutation of `board`'s points that `map` gives, from (row,
/// column) to (row, column).
fn permutation(board: &Board, map: impl Fn(usize, usize) -> (usize, usize)) -> Symmetry {
    let mut image = [0u8; MAX_POINTS];
    for row in 0..board.rows() {
        for column in 0..board.columns() {
            let (r, c) = map(row, column);
            image[board.point(row, column).index()] = board.point(r, c).index() as u8;
        }
    }
    Symmetry {
        image,
        points: board.points() as u8,
    }
}

/// A cylinder's symmetries: each turn of the rings by 0 to `C - 1`
/// columns, after the columns are mirrored or not, after the rows are
/// flipped or not. No transposition, even when the board is square: it
/// would make the columns wrap instead of the rows. On boards of one or two
/// columns some of these coincide, and appear once.
fn circular_symmetries(board: &Board) -> Vec<Symmetry> {
    let (rows, columns) = (board.rows(), board.columns());
    let mut group: Vec<Symmetry> = Vec::new();
    for flip in [false, true] {
        for mirror in [false, true] {
            for turn in 0..columns {
                let symmetry = permutation(board, |r, c| {
                    let r = if flip { rows - 1 - r } else { r };
                    let c = if mirror { columns - 1 - c } else { c };
                    (r, (c + turn) % columns)
                });
                if !group.contains(&symmetry) {
                    group.push(symmetry);
                }
            }
        }
    }
    group
}

/// A plain board's symmetries: those of its rectangle, and the
/// transpositions of a square.
fn plain_symmetries(board: &Board) -> Vec<Symmetry> {
    let rows = board.rows();
    let columns = board.columns();
    let mut group: Vec<Symmetry> = Vec::new();
    for map in grid_maps(rows, columns) {
        let symmetry = permutation(board, |row, column| map(row, column, rows, columns));
        if !group.contains(&symmetry) {
            group.push(symmetry);
        }
    }
    group
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_sizes() {
        for (name, size) in [
            ("1x1", 1),
            ("1x5", 2),
            ("5x1", 2),
            ("2x2", 8),
            ("3x3", 8),
            ("2x3", 4),
            ("3x5", 4),
            ("4x4", 8),
            // Circular: turns, mirror and flip, without transpositions;
            // those that coincide on one or two columns count once.
            ("1x1c", 1),
            ("1x2c", 2),
            ("1x3c", 6),
            ("1x7c", 14),
            ("1x25c", 50),
            ("2x1c", 2),
            ("2x2c", 4),
            ("3x2c", 4),
            ("2x3c", 12),
            ("3x3c", 12),
            ("4x4c", 16),
            ("2x7c", 28),
            ("2x16c", 64),
            ("5x5c", 20),
        ] {
            let board: Board = name.parse().unwrap();
            assert_eq!(symmetries(&board).len(), size, "{name}");
        }
    }

    #[test]
    fn symmetries_preserve_adjacency_and_form_a_group() {
        for name in [
            "3x3", "2x4", "1x6", "4x4", "1x1c", "1x2c", "1x3c", "1x6c", "2x2c", "2x3c", "2x4c",
            "3x3c", "4x4c", "3x5c", "2x16c",
        ] {
            let board: Board = name.parse().unwrap();
            let group = symmetries(&board);
            assert!(group[0].is_identity());
            for g in &group {
                for p in board.all().iter() {
                    let image = g.apply_set(board.neighbours(p));
                    assert_eq!(image, board.neighbours(g.apply(p)), "{name}");
                }
                assert!(group.contains(&g.inverse()));
                for h in &group {
                    let mut image = [0u8; MAX_POINTS];
                    for p in board.all().iter() {
                        image[p.index()] = g.apply(h.apply(p)).index() as u8;
                    }
                    let composed = Symmetry {
                        image,
                        points: board.points() as u8,
                    };
                    assert!(group.contains(&composed), "{name} is closed");
                }
            }
        }
    }
}
