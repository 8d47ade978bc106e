//! `smallgo-pieces [COLOR]`, gfx: Bouzy's board pieces read on a large
//! board (docs/pieces.md). The setup board (7 to 25 points a side, no
//! table) is cut into regions along its edges: one at each corner, the
//! size of the largest corner piece with values, and between the corners
//! along each side, windows of the largest edge piece with values, laid
//! side by side from the corner on (what is left over before the next
//! corner is no region). A region is the piece exactly: its points'
//! stones are the piece's position, and what lies beyond it is taken as
//! open, so that a stone at its inner side has a liberty there. Every
//! legal position of the board is a legal position of each region.
//!
//! The pieces with values are those the library serves
//! (`Tablebase::values`: a table of `--tables DIR` or built in, such as
//! `smallgo build 4x4-corner`'s, or a solve on the spot of a small piece,
//! which 3x3-corner and 3x3-edge always are). Each region's pair `{l|r}`
//! and the best local moves are read through the values' probes
//! (`analyses::piece::piece_value` over `BoardValues`), area scoring.
//!
//! The gfx labels each region's best local move for COLOR (the side to
//! play if none is given) with the region's `{l|r}`, colours the regions
//! in turn so that they can be told apart, marks the move of the hottest
//! region (the highest temperature, Bouzy's heuristic player's choice),
//! and says it all in a line of text.

use crate::analyses::piece::{piece_value, PieceValue, Scoring, TableMargins};
use crate::problem::input::{Setup, Vertex};
use crate::rules::board::{Board, PieceKind, Point, PointSet};
use crate::rules::colour::Colour;
use crate::rules::moves::Move;
use crate::table::library::{BoardValues, Tablebase};

use super::{failure, reply, Engine, Reply, IN_PROBLEM, SYNTAX_ERROR};

impl Engine {
    /// `smallgo-pieces [COLOR]`: the gfx of the setup board's regions, for
    /// COLOR to play (the colour after the last `play` if none).
    pub(super) fn pieces(&self, arguments: &[&str]) -> Reply {
        if self.problem.is_some() {
            return failure(IN_PROBLEM);
        }
        let Some(board) = &self.setup else {
            return failure(
                "smallgo-pieces reads a large board: boardsize 7 to 25 (a size without a table), \
                 then play its stones",
            );
        };
        let side = match arguments {
            [] => board.next_colour(),
            [side] => match Colour::parse(side) {
                Some(side) => side,
                None => return failure(SYNTAX_ERROR),
            },
            _ => return failure(SYNTAX_ERROR),
        };
        reply(gfx(&self.library, &board.setup(side), side))
    }
}

/// The pieces always tried, solved on the spot when no table has them.
const SMALL_PIECES: [(usize, usize); 1] = [(3, 3)];

/// The colours the regions are shaded with: the first two in turn around
/// the board, the third for the last region when their number is odd, so
/// that no two regions side by side look alike.
const SHADES: [&str; 3] = ["#cfe8cf", "#cfdcf0", "#f0e4c8"];

/// A piece with values, and where each of its points is in the piece: its
/// distance from the piece's edge side (rows) and along it (columns).
struct Piece {
    board: Board,
    rows: usize,
    columns: usize,
    values: BoardValues,
    /// Each point with its (row, column) from the piece's closed corner.
    places: Vec<(Point, usize, usize)>,
}

impl Piece {
    fn new(board: Board, rows: usize, columns: usize, values: BoardValues) -> Piece {
        let points: Vec<Point> = board.all().iter().collect();
        let low_row = points.iter().map(|&p| board.row(p)).min().unwrap_or(0);
        let low_column = points.iter().map(|&p| board.column(p)).min().unwrap_or(0);
        let places = points
            .iter()
            .map(|&p| (p, board.row(p) - low_row, board.column(p) - low_column))
            .collect();
        Piece {
            board,
            rows,
            columns,
            values,
            places,
        }
    }
}

/// The piece of `kind` with the most points whose values the library
/// serves and that fits `fits(rows, columns)`.
fn largest_piece(
    library: &Tablebase,
    kind: PieceKind,
    fits: impl Fn(usize, usize) -> bool,
) -> Option<Piece> {
    let mut sizes: Vec<(usize, usize)> = library
        .boards()
        .iter()
        .filter_map(|board| board.as_piece())
        .filter(|&(_, _, k)| k == kind)
        .map(|(rows, columns, _)| (rows, columns))
        .chain(SMALL_PIECES)
        .filter(|&(rows, columns)| fits(rows, columns))
        .collect();
    sizes.sort_by_key(|&(rows, columns)| std::cmp::Reverse((rows * columns, rows)));
    sizes.dedup();
    sizes.into_iter().find_map(|(rows, columns)| {
        let board = Board::piece(rows, columns, kind).ok()?;
        let values = library.values(board).ok()?;
        Some(Piece::new(board, rows, columns, values))
    })
}

/// One region: a piece laid on the board, each piece point's vertex.
struct Region {
    piece: usize,
    vertices: Vec<(Point, Vertex)>,
}

impl Region {
    /// Its extent, `A1-C3`.
    fn name(&self) -> String {
        let columns = self.vertices.iter().map(|(_, v)| v.column);
        let rows = self.vertices.iter().map(|(_, v)| v.row);
        let low = Vertex::new(
            columns.clone().min().unwrap_or(0),
            rows.clone().min().unwrap_or(0),
        );
        let high = Vertex::new(columns.max().unwrap_or(0), rows.max().unwrap_or(0));
        format!("{}-{}", low.name(), high.name())
    }

    fn vertex(&self, point: Point) -> Option<Vertex> {
        self.vertices
            .iter()
            .find(|&&(p, _)| p == point)
            .map(|&(_, v)| v)
    }
}

/// The regions of a `rows` x `columns` board: its four corners with
/// `corner`, and its sides with `edge`, as the module says, in order
/// around the board: the lower left corner, the bottom side from left to
/// right, the lower right corner, the right side upwards, and so on.
fn regions(rows: usize, columns: usize, corner: &Piece, edge: Option<&Piece>) -> Vec<Region> {
    // Corners: the piece's rows counted from the bottom or top side, its
    // columns from the left or right side; lower left, lower right, upper
    // right, upper left.
    let corners =
        [(false, false), (false, true), (true, true), (true, false)].map(|(top, right)| {
            let vertices = corner
                .places
                .iter()
                .map(|&(p, r, c)| {
                    let row = if top { rows - 1 - r } else { r };
                    let column = if right { columns - 1 - c } else { c };
                    (p, Vertex::new(column, row))
                })
                .collect();
            Region { piece: 0, vertices }
        });
    // Sides: the piece's rows counted from the side, its columns along it,
    // past the corner region and the other sides' depth, so that no two
    // regions meet: bottom, right, top, left, each in order around.
    let mut sides: [Vec<Region>; 4] = Default::default();
    if let Some(edge) = edge {
        for (side, windows) in sides.iter_mut().enumerate() {
            let (length, corner_size) = if side % 2 == 0 {
                (columns, corner.columns)
            } else {
                (rows, corner.rows)
            };
            let skip = corner_size.max(edge.rows);
            let place = |depth: usize, along: usize| match side {
                0 => Vertex::new(along, depth),
                1 => Vertex::new(columns - 1 - depth, along),
                2 => Vertex::new(along, rows - 1 - depth),
                _ => Vertex::new(depth, along),
            };
            let mut start = skip;
            while start + edge.columns + skip <= length {
                let vertices = edge
                    .places
                    .iter()
                    .map(|&(p, r, c)| (p, place(r, start + c)))
                    .collect();
                windows.push(Region { piece: 1, vertices });
                start += edge.columns;
            }
            // The top side goes from right to left, the left side down.
            if side >= 2 {
                windows.reverse();
            }
        }
    }
    corners
        .into_iter()
        .zip(sides)
        .flat_map(|(corner, side)| std::iter::once(corner).chain(side))
        .collect()
}

/// The gfx of `smallgo-pieces` for the stones of `setup`, `side` to play.
pub(super) fn gfx(library: &Tablebase, setup: &Setup, side: Colour) -> Result<String, String> {
    let (rows, columns) = (setup.rows, setup.columns);
    let corner = largest_piece(library, PieceKind::Corner, |r, c| {
        2 * r <= rows && 2 * c <= columns
    })
    .ok_or("no corner piece has values: smallgo build 3x3-corner")?;
    // An edge piece at least one window of which fits on a side.
    let edge = largest_piece(library, PieceKind::Edge, |r, c| {
        2 * corner.columns.max(r) + c <= columns || 2 * corner.rows.max(r) + c <= rows
    });
    let mut pieces = vec![corner];
    pieces.extend(edge);
    let regions = regions(rows, columns, &pieces[0], pieces.get(1));
    let mut labels = Vec::new();
    let mut shades = [Vec::new(), Vec::new(), Vec::new()];
    let mut texts = Vec::new();
    let mut hottest: Option<(f64, String)> = None;
    for (at, region) in regions.iter().enumerate() {
        let piece = &pieces[region.piece];
        let (mut black, mut white) = (PointSet::EMPTY, PointSet::EMPTY);
        for &(point, vertex) in &region.vertices {
            match setup.stone(vertex) {
                Some(Colour::Black) => black.insert(point),
                Some(Colour::White) => white.insert(point),
                None => {}
            }
        }
        let name = region.name();
        let value: PieceValue = piece_value(
            &piece.board,
            Scoring::Area,
            &TableMargins(&piece.values),
            black,
            white,
        )
        .map_err(|error| format!("{}: {error}", piece.board.piece_name()))?
        .ok_or_else(|| {
            format!(
                "region {name}: not a legal position of {}",
                piece.board.piece_name()
            )
        })?;
        let moves = if side.is_black() {
            &value.black_moves
        } else {
            &value.white_moves
        };
        let best = match moves.first() {
            Some(&Move::Place(point)) => region.vertex(point),
            _ => None,
        };
        let pair = value.pair();
        if let Some(vertex) = best {
            labels.push(format!("{} {pair}", vertex.name()));
        }
        let shade = if regions.len() % 2 == 1 && at + 1 == regions.len() {
            2
        } else {
            at % 2
        };
        shades[shade].extend(region.vertices.iter().map(|(_, v)| v.name()));
        let move_name = best.map_or("pass".to_string(), Vertex::name);
        let temperature = value.temperature();
        texts.push(format!(
            "{name} {} {pair} t={} {move_name}",
            piece.board.piece_name(),
            temperature.map_or("?".to_string(), |t| t.to_string())
        ));
        if let (Some(t), Some(vertex)) = (temperature, best) {
            if hottest.as_ref().is_none_or(|(hot, _)| t > *hot) {
                hottest = Some((t, vertex.name()));
            }
        }
    }
    let mut lines = Vec::new();
    for (shade, vertices) in SHADES.iter().zip(&shades) {
        if !vertices.is_empty() {
            lines.push(format!("COLOR {shade} {}", vertices.join(" ")));
        }
    }
    if !labels.is_empty() {
        lines.push(format!("LABEL {}", labels.join(" ")));
    }
    let choice = match &hottest {
        Some((t, vertex)) => {
            lines.push(format!("MARK {vertex}"));
            format!("hottest {vertex} (t={t})")
        }
        None => "no region is worth a move".to_string(),
    };
    lines.push(format!(
        "TEXT {side} to play, {choice}; {{l|r}} Black first|White first, area scoring: {}",
        texts.join("; ")
    ));
    Ok(lines.join("\n"))
}
