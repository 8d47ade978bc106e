//! Pictures of positions as SVG, written as text (no drawing library): a
//! position drawn in two panels side by side, and a third when a line of
//! moves of its own is given (an example cycle).
//!
//! - **Move values**: the stones, and on every point where the side to move
//!   may play a disc with the move's exact result for that side at the
//!   komi, as the engine rates it (`perfect::rate`: `+9` wins by 9, `=0`
//!   draws, `-3` loses by 3), coloured green, yellow or red; the move the
//!   engine plays ringed; the pass's disc below the board.
//! - **Perfect play**: the line the engine plays from the position to the
//!   end of the game (`ownership::final_ownership`'s line), its moves
//!   numbered on stones of their colour (a move on a point that already
//!   has a number or a stone, and a pass, listed below the board as `7 at
//!   3`, `8 pass`), over the exact ownership at its end: a point shaded
//!   dark is Black's, light White's, unshaded neither's; points in seki
//!   get a dashed square.
//! - **A line** given by the caller (the moves of an example cycle), drawn
//!   as the perfect line is, without shading.
//!
//! Every stone and disc carries its point and what it shows as `data-`
//! attributes (`data-point`, `data-colour`, `data-outcome`, `data-owner`,
//! `data-move`), so that a test can find where it is drawn. A shape's walls
//! are drawn as grey cells and its open sides as pale ones; a circular
//! board has a `~` at both ends of each row, and a note naming the columns
//! that meet.

use crate::rules::board::{Board, Point};
use crate::rules::colour::Colour;
use crate::rules::moves::Move;
use crate::rules::value::{points_text, score_text, Outcome};
use crate::table::library::BoardValues;
use crate::table::values::rating::{preference_order, Rating};

use super::ownership::{final_ownership, End, Owner, Ownership};
use super::{perfect, FullState, Game};

/// The side of a cell, in pixels.
const CELL: f64 = 48.0;
/// The room left of and above a board for its coordinates.
const MARGIN: f64 = 22.0;
/// The space between panels and around the picture.
const GAP: f64 = 18.0;
/// The narrowest a panel is drawn, so that its notes have room.
const MIN_PANEL: f64 = 220.0;
/// The height of the title's lines.
const TITLE_LINE: f64 = 18.0;
/// The height of a note's line.
const NOTE_LINE: f64 = 14.0;
/// The most moves of a line numbered on the board; the rest are counted.
const MAX_NUMBERED: usize = 99;

/// A stone's radius, a value disc's, and the ring around the engine's move.
const STONE: f64 = 0.46 * CELL;
const DISC: f64 = 0.40 * CELL;
const RING: f64 = 0.46 * CELL;

const BOARD_COLOUR: &str = "#dcb35c";
const GRID_COLOUR: &str = "#5a4526";
const BLACK_STONE: &str = "#161616";
const WHITE_STONE: &str = "#f6f6f6";
const WIN_COLOUR: &str = "#2f9e44";
const DRAW_COLOUR: &str = "#f2c21b";
const LOSS_COLOUR: &str = "#e03131";
const RING_COLOUR: &str = "#1c56d6";
const SEKI_COLOUR: &str = "#1c56d6";
const WALL_COLOUR: &str = "#8a8a8a";
const OPEN_COLOUR: &str = "#efe6cf";

/// A line of moves to draw as a panel of its own: its caption and its
/// moves, the first by `first`, colours alternating.
pub struct Line<'a> {
    pub caption: &'a str,
    pub first: Colour,
    pub moves: &'a [Move],
}

/// The picture of `game`'s position with `komi`: its move values and the
/// perfect line over the ownership at its end, and `extra` as a third
/// panel; `title` heads it.
pub fn position_svg(
    oracle: &BoardValues,
    komi: f64,
    game: &Game,
    title: &str,
    extra: Option<Line>,
) -> Result<String, String> {
    let board = *game.board();
    let side = game.to_move();
    let ratings = if game.is_over() {
        Vec::new()
    } else {
        let ratings = perfect::rate(oracle, komi, game, side)?;
        preference_order(&ratings)
            .into_iter()
            .map(|i| ratings[i])
            .collect()
    };
    let ownership = final_ownership(oracle, komi, game, side)?;
    let result = match ownership.end() {
        End::Scored { black_margin } => score_text(black_margin as f64 - komi),
        End::Loop { .. } => "0".to_string(),
    };
    let drawing = Drawing {
        board,
        start: *game.current(),
    };
    let name = |colour: Colour| if colour.is_black() { "Black" } else { "White" };
    let mut title_lines = vec![title.to_string()];
    title_lines.push(if game.is_over() {
        format!("the game is over: {result} at komi {}", points_text(komi))
    } else {
        format!(
            "{} to move, komi {}: perfect play gives {result}",
            name(side),
            points_text(komi)
        )
    });
    if board.is_circular() {
        title_lines.push(format!(
            "circular: columns {} and A are neighbours (~)",
            Board::column_letter(board.columns() - 1)
        ));
    }

    let mut panels = vec![drawing.values_panel(side, &ratings)];
    let line_end = match ownership.end() {
        End::Scored { .. } => format!("ends with two passes: {result}"),
        End::Loop { .. } => "ends with a repetition: a draw".to_string(),
    };
    let caption = if game.is_over() {
        "the end of the game".to_string()
    } else {
        format!("perfect play: {} moves", ownership.line().len())
    };
    panels.push(drawing.line_panel(
        &caption,
        side,
        ownership.line(),
        Some(&ownership),
        &line_end,
    ));
    if let Some(line) = extra {
        panels.push(drawing.line_panel(line.caption, line.first, line.moves, None, ""));
    }
    Ok(assemble(&title_lines, &panels))
}

/// What a panel needs drawn: its width, and its elements drawn with their
/// top left at (0, 0).
struct Panel {
    width: f64,
    height: f64,
    body: String,
}

/// A board and the position at the start of what is drawn.
struct Drawing {
    board: Board,
    start: FullState,
}

impl Drawing {
    fn board_width(&self) -> f64 {
        self.board.columns() as f64 * CELL
    }

    fn board_height(&self) -> f64 {
        self.board.rows() as f64 * CELL
    }

    fn panel_width(&self) -> f64 {
        (MARGIN + self.board_width() + GAP).max(MIN_PANEL)
    }

    /// The centre of `point` in a panel: row 1 at the bottom.
    fn centre(&self, point: Point) -> (f64, f64) {
        let (row, column) = (self.board.row(point), self.board.column(point));
        self.cell_centre(row, column)
    }

    fn cell_centre(&self, row: usize, column: usize) -> (f64, f64) {
        let top = MARGIN + 2.0 * NOTE_LINE;
        (
            MARGIN + (column as f64 + 0.5) * CELL,
            top + (self.board.rows() - 1 - row) as f64 * CELL + 0.5 * CELL,
        )
    }

    /// The y just below the board.
    fn below_board(&self) -> f64 {
        MARGIN + 2.0 * NOTE_LINE + self.board_height()
    }

    /// The board: its cells, grid, coordinates and seam marks.
    fn grid(&self, svg: &mut String, caption: &str) {
        let board = &self.board;
        text(svg, 0.0, NOTE_LINE, 12.0, "start", "bold", caption);
        let top = MARGIN + 2.0 * NOTE_LINE;
        rect(
            svg,
            MARGIN,
            top,
            self.board_width(),
            self.board_height(),
            BOARD_COLOUR,
            "",
        );
        let geometry = board.shape_geometry();
        for row in 0..board.rows() {
            for column in 0..board.columns() {
                if board.point_at(row, column).is_some() {
                    continue;
                }
                let open = geometry.is_some_and(|g| {
                    matches!(g.cell(row, column), crate::rules::board::Cell::Open)
                });
                let (x, y) = self.cell_centre(row, column);
                rect(
                    svg,
                    x - CELL / 2.0,
                    y - CELL / 2.0,
                    CELL,
                    CELL,
                    if open { OPEN_COLOUR } else { WALL_COLOUR },
                    "",
                );
            }
        }
        for point in board.all().iter() {
            let (row, column) = (board.row(point), board.column(point));
            let (x, y) = self.centre(point);
            for next in board.neighbours(point).iter() {
                let (r, c) = (board.row(next), board.column(next));
                let next_to = (r == row && c == column + 1) || (c == column && r == row + 1);
                if next_to {
                    let (x2, y2) = self.centre(next);
                    svg.push_str(&format!(
                        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{GRID_COLOUR}\" stroke-width=\"1.5\"/>\n",
                        n(x), n(y), n(x2), n(y2)
                    ));
                }
            }
            // An open side: a short line out to the open cell.
            for (dr, dc) in [(0i64, 1i64), (0, -1), (1, 0), (-1, 0)] {
                let (r, c) = (row as i64 + dr, column as i64 + dc);
                let open = r >= 0
                    && c >= 0
                    && geometry.is_some_and(|g| {
                        (r as usize) < board.rows()
                            && (c as usize) < board.columns()
                            && matches!(
                                g.cell(r as usize, c as usize),
                                crate::rules::board::Cell::Open
                            )
                    });
                if open {
                    let (x2, y2) = (x + dc as f64 * CELL / 2.0, y - dr as f64 * CELL / 2.0);
                    svg.push_str(&format!(
                        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{GRID_COLOUR}\" stroke-width=\"1.5\" stroke-dasharray=\"3 3\"/>\n",
                        n(x), n(y), n(x2), n(y2)
                    ));
                }
            }
        }
        for column in 0..board.columns() {
            let (x, _) = self.cell_centre(0, column);
            let letter = Board::column_letter(column).to_string();
            text(svg, x, top - 6.0, 11.0, "middle", "normal", &letter);
        }
        for row in 0..board.rows() {
            let (_, y) = self.cell_centre(row, 0);
            let number = (row + 1).to_string();
            text(svg, MARGIN - 6.0, y + 4.0, 11.0, "end", "normal", &number);
            if board.is_circular() {
                let right = MARGIN + self.board_width() + 3.0;
                text(svg, right, y + 4.0, 12.0, "start", "normal", "~");
            }
        }
    }

    /// The stones of the start, those of `skip` left out.
    fn stones(&self, svg: &mut String, skip: &[Point]) {
        for colour in [Colour::Black, Colour::White] {
            for point in self.start.stones(colour).iter() {
                if !skip.contains(&point) {
                    let (x, y) = self.centre(point);
                    stone(svg, x, y, colour, &self.board.point_name(point), None);
                }
            }
        }
    }

    /// The panel of every legal move's value for `side`.
    fn values_panel(&self, side: Colour, ratings: &[Rating]) -> Panel {
        let board = &self.board;
        let width = self.panel_width();
        let mut svg = String::new();
        let name = if side.is_black() { "Black" } else { "White" };
        let caption = if ratings.is_empty() {
            "no moves: the game is over".to_string()
        } else {
            format!("each move's result for {name}")
        };
        self.grid(&mut svg, &caption);
        self.stones(&mut svg, &[]);
        let pass_y = self.below_board() + 0.6 * CELL;
        for (rank, rating) in ratings.iter().enumerate() {
            let (x, y, point) = match rating.mv {
                Move::Place(point) => {
                    let (x, y) = self.centre(point);
                    (x, y, board.point_name(point))
                }
                Move::Pass => (MARGIN + 0.5 * CELL, pass_y, "pass".to_string()),
            };
            disc(&mut svg, x, y, &rating.outcome, &point, rank == 0);
            if rating.mv == Move::Pass {
                let after = x + 0.5 * CELL + 4.0;
                text(&mut svg, after, y + 4.0, 12.0, "start", "normal", "pass");
            }
        }
        let y = if ratings.iter().any(|r| r.mv == Move::Pass) {
            pass_y + 0.6 * CELL
        } else {
            self.below_board() + 4.0
        };
        let mut notes = Vec::new();
        if !ratings.is_empty() {
            notes.push(format!(
                "{name}'s margin at the komi: green wins, yellow draws, red loses; ringed: the move the engine plays"
            ));
        }
        let height = notes_at(&mut svg, y + NOTE_LINE, width, &notes);
        Panel {
            width,
            height,
            body: svg,
        }
    }

    /// A panel of `moves` numbered from the start, `first` playing the
    /// first, over `shade`'s ownership if given; `end` says how the line
    /// ends.
    fn line_panel(
        &self,
        caption: &str,
        first: Colour,
        moves: &[Move],
        shade: Option<&Ownership>,
        end: &str,
    ) -> Panel {
        let board = &self.board;
        let width = self.panel_width();
        let mut svg = String::new();
        self.grid(&mut svg, caption);
        if let Some(map) = shade {
            let seki = map.seki();
            for point in board.all().iter() {
                let (x, y) = self.centre(point);
                let owner = map.owner(point);
                let (fill, opacity, word) = match owner {
                    Owner::Black => ("#000000", "0.5", "black"),
                    Owner::White => ("#ffffff", "0.78", "white"),
                    Owner::Neither => ("none", "0", "neither"),
                };
                svg.push_str(&format!(
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\" fill-opacity=\"{opacity}\" data-point=\"{}\" data-owner=\"{word}\"/>\n",
                    n(x - CELL / 2.0), n(y - CELL / 2.0), n(CELL), n(CELL), board.point_name(point)
                ));
                if seki.contains(point) {
                    let side = 0.92 * CELL;
                    svg.push_str(&format!(
                        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{SEKI_COLOUR}\" stroke-width=\"2\" stroke-dasharray=\"5 3\" data-point=\"{}\" data-seki=\"true\"/>\n",
                        n(x - side / 2.0), n(y - side / 2.0), n(side), n(side), board.point_name(point)
                    ));
                }
            }
        }
        // The start's stones, then the line's moves numbered on their
        // points; a move on a point already drawn on is noted.
        self.stones(&mut svg, &[]);
        let mut numbered: Vec<(Point, usize)> = Vec::new();
        let mut notes = Vec::new();
        let mut colour = first;
        for (index, &mv) in moves.iter().enumerate().take(MAX_NUMBERED) {
            let number = index + 1;
            match mv {
                Move::Pass => notes.push(format!("{number} pass")),
                Move::Place(point) => {
                    if let Some(&(_, earlier)) = numbered.iter().find(|(p, _)| *p == point) {
                        notes.push(format!("{number} at {earlier}"));
                    } else if (self.start.black | self.start.white).contains(point) {
                        notes.push(format!("{number} at {}", board.point_name(point)));
                    } else {
                        numbered.push((point, number));
                        let (x, y) = self.centre(point);
                        stone(
                            &mut svg,
                            x,
                            y,
                            colour,
                            &board.point_name(point),
                            Some(number),
                        );
                    }
                }
            }
            colour = colour.opposite();
        }
        let mut lines = Vec::new();
        if !notes.is_empty() {
            lines.push(notes.join(", "));
        }
        if moves.len() > MAX_NUMBERED {
            lines.push(format!("and {} more moves", moves.len() - MAX_NUMBERED));
        }
        if !end.is_empty() {
            lines.push(end.to_string());
        }
        if shade.is_some() {
            lines.push(
                "who owns each point at the end: shaded dark, Black; light, White; unshaded, neither; dashed squares: seki"
                    .to_string(),
            );
        }
        let height = notes_at(
            &mut svg,
            self.below_board() + NOTE_LINE + 4.0,
            width,
            &lines,
        );
        Panel {
            width,
            height,
            body: svg,
        }
    }
}

/// The whole picture: the title, then the panels side by side.
fn assemble(title: &[String], panels: &[Panel]) -> String {
    let top = GAP + title.len() as f64 * TITLE_LINE;
    let width = GAP + panels.iter().map(|p| p.width + GAP).sum::<f64>();
    let height = top + panels.iter().map(|p| p.height).fold(0.0, f64::max) + GAP;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n",
        w = n(width),
        h = n(height)
    );
    rect(&mut svg, 0.0, 0.0, width, height, "#ffffff", "");
    for (i, line) in title.iter().enumerate() {
        let weight = if i == 0 { "bold" } else { "normal" };
        let y = GAP + (i as f64 + 0.7) * TITLE_LINE;
        text(&mut svg, GAP, y, 14.0, "start", weight, line);
    }
    let mut x = GAP;
    for panel in panels {
        svg.push_str(&format!(
            "<g transform=\"translate({} {})\">\n{}</g>\n",
            n(x),
            n(top),
            panel.body
        ));
        x += panel.width + GAP;
    }
    svg.push_str("</svg>\n");
    svg
}

/// Writes `lines` from `y` on, each wrapped to the panel's width; the y
/// below them.
fn notes_at(svg: &mut String, mut y: f64, width: f64, lines: &[String]) -> f64 {
    // About 6.2 pixels a character at 11 pixels.
    let room = ((width / 6.2) as usize).max(20);
    for line in lines {
        for part in wrap(line, room) {
            text(svg, 0.0, y, 11.0, "start", "normal", &part);
            y += NOTE_LINE;
        }
    }
    y
}

/// `text` broken at spaces into lines of at most `room` characters (a word
/// longer than that stands alone).
fn wrap(text: &str, room: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.len() + 1 + word.len() > room {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// A number as SVG writes it: at most two decimals, no trailing zeros.
fn n(value: f64) -> String {
    let text = format!("{value:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

/// `text` with XML's special characters escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

fn rect(svg: &mut String, x: f64, y: f64, width: f64, height: f64, fill: &str, extra: &str) {
    svg.push_str(&format!(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\"{extra}/>\n",
        n(x),
        n(y),
        n(width),
        n(height)
    ));
}

fn text(svg: &mut String, x: f64, y: f64, size: f64, anchor: &str, weight: &str, body: &str) {
    svg.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"{anchor}\" font-weight=\"{weight}\" fill=\"#202020\">{}</text>\n",
        n(x),
        n(y),
        n(size),
        escape(body)
    ));
}

/// A stone of `colour` on `point` at (x, y), with `number` on it if given.
fn stone(svg: &mut String, x: f64, y: f64, colour: Colour, point: &str, number: Option<usize>) {
    let (fill, ink, word) = if colour.is_black() {
        (BLACK_STONE, WHITE_STONE, "black")
    } else {
        (WHITE_STONE, BLACK_STONE, "white")
    };
    let data = match number {
        Some(number) => format!(" data-move=\"{number}\""),
        None => String::new(),
    };
    svg.push_str(&format!(
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" stroke=\"#000000\" stroke-width=\"1\" data-point=\"{point}\" data-colour=\"{word}\"{data}/>\n",
        n(x),
        n(y),
        n(STONE)
    ));
    if let Some(number) = number {
        svg.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"16\" text-anchor=\"middle\" font-weight=\"bold\" fill=\"{ink}\">{number}</text>\n",
            n(x),
            n(y + 5.5)
        ));
    }
}

/// A move's disc: its outcome's colour and label, ringed if it is the
/// engine's move.
fn disc(svg: &mut String, x: f64, y: f64, outcome: &Outcome, point: &str, engine: bool) {
    let (fill, ink, word) = match outcome {
        Outcome::MoverWins { .. } => (WIN_COLOUR, "#ffffff", "win"),
        Outcome::Draw => (DRAW_COLOUR, "#202020", "draw"),
        Outcome::OpponentWins { .. } => (LOSS_COLOUR, "#ffffff", "loss"),
    };
    let label = outcome.label();
    if engine {
        svg.push_str(&format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{RING_COLOUR}\" stroke-width=\"3\" data-point=\"{point}\" data-engine=\"true\"/>\n",
            n(x),
            n(y),
            n(RING)
        ));
    }
    svg.push_str(&format!(
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" data-point=\"{point}\" data-outcome=\"{word}\" data-label=\"{}\"/>\n",
        n(x),
        n(y),
        n(DISC),
        escape(&label)
    ));
    let size = if label.len() > 4 { 11.0 } else { 15.0 };
    svg.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" font-weight=\"bold\" fill=\"{ink}\">{}</text>\n",
        n(x),
        n(y + size / 3.0),
        n(size),
        escape(&label)
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::library::Tablebase;

    fn oracle(board: Board) -> BoardValues {
        Tablebase::with_sources(None, false)
            .open(board)
            .expect("a built-in table")
    }

    /// Every legal move of the side to move has one disc, labelled with
    /// its rating, and the line's first stone is the engine's move.
    #[test]
    fn every_rated_move_has_its_disc_and_the_line_starts_with_the_engines_move() {
        let board: Board = "3x3".parse().unwrap();
        let mut game = Game::new(board);
        game.play(Colour::Black, Move::Place(board.parse_point("B2").unwrap()))
            .unwrap();
        let oracle = oracle(board);
        let svg = position_svg(&oracle, 0.0, &game, "3x3 after B2", None).unwrap();
        let ratings = perfect::rate(&oracle, 0.0, &game, Colour::White).unwrap();
        for rating in &ratings {
            let name = match rating.mv {
                Move::Place(point) => board.point_name(point),
                Move::Pass => "pass".to_string(),
            };
            let wanted = format!(
                "data-point=\"{name}\" data-outcome=\"loss\" data-label=\"{}\"",
                rating.outcome.label()
            );
            assert_eq!(svg.matches(&wanted).count(), 1, "{name}: {svg}");
        }
        let first = perfect::choose(&oracle, 0.0, &game, Colour::White).unwrap();
        let Move::Place(point) = first.mv else {
            panic!("White places a stone first");
        };
        let wanted = format!(
            "data-point=\"{}\" data-colour=\"white\" data-move=\"1\"",
            board.point_name(point)
        );
        assert!(svg.contains(&wanted), "{svg}");
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
    }

    #[test]
    fn text_is_escaped_and_wrapped() {
        assert_eq!(escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
        assert_eq!(wrap("aa bb cc dd", 5), ["aa bb", "cc dd"]);
        assert_eq!(wrap("abcdefgh ij", 5), ["abcdefgh", "ij"]);
        assert_eq!(n(2.0), "2");
        assert_eq!(n(2.50), "2.5");
        assert_eq!(n(-0.001), "0");
    }
}
