//! The setup board: a board without a whole-board table, at least
//! `MIN_SIDE` and at most 25 points a side, on which a controller that
//! opens a problem file (GoGui, Sabaki) sends the stones as `play`
//! commands. It keeps the stones (any order of colours; a stone that takes
//! the last liberty of a string of the other colour captures it, a stone
//! without a liberty is refused), draws them for `showboard` and gives
//! them back, with the side to move, as the `Setup` that
//! `smallgo-problem-here` makes a problem of (`problem::input::locate`).
//! It plays no game: `genmove` there is refused by the engine.

use crate::problem::input::{Setup, Vertex};
use crate::rules::board::Board;
use crate::rules::colour::Colour;

/// The smallest side of a setup board. Smaller boards are the ones games
/// are played on: a size among them without a table stays refused, so
/// that a controller that asks for a game there learns at once that none
/// can be played; problems come on larger boards (9x9, 13x13, 19x19).
pub(super) const MIN_SIDE: usize = 7;

/// Whether `rows` x `columns` makes a setup board.
pub(super) fn fits(rows: usize, columns: usize) -> bool {
    let sides = MIN_SIDE..=crate::rules::board::MAX_SIDE;
    sides.contains(&rows) && sides.contains(&columns)
}

/// The stones set up so far, and what `undo` goes back to.
#[derive(Clone, Debug)]
pub(super) struct SetupBoard {
    stones: Setup,
    /// The colour of the last `play`, pass included.
    last: Option<Colour>,
    /// The stones and last colour before each `play`.
    history: Vec<(Setup, Option<Colour>)>,
}

impl SetupBoard {
    /// An empty board of `rows` x `columns`, which `fits`.
    pub(super) fn new(rows: usize, columns: usize) -> SetupBoard {
        SetupBoard {
            stones: Setup::empty(rows, columns),
            last: None,
            history: Vec::new(),
        }
    }

    /// The same board, empty.
    pub(super) fn cleared(&self) -> SetupBoard {
        SetupBoard::new(self.stones.rows, self.stones.columns)
    }

    /// The colour after the last `play`'s (black if none).
    pub(super) fn next_colour(&self) -> Colour {
        self.last.map_or(Colour::Black, Colour::opposite)
    }

    /// Puts a stone of `colour` on `vertex` (or passes), capturing the
    /// strings of the other colour it leaves without a liberty. `Err(None)`
    /// for a vertex that names no point of the board, `Err(Some(message))`
    /// for an occupied point or a stone left without a liberty; the board
    /// is unchanged then.
    pub(super) fn play(&mut self, colour: Colour, vertex: &str) -> Result<(), Option<String>> {
        if vertex.eq_ignore_ascii_case("pass") {
            self.history.push((self.stones.clone(), self.last));
            self.last = Some(colour);
            return Ok(());
        }
        let at = self.stones.parse_vertex(vertex).ok_or(None)?;
        if self.stones.stone(at).is_some() {
            return Err(Some("illegal move".to_string()));
        }
        let mut next = self.stones.clone();
        next.set(at, Some(colour));
        for n in neighbours(&next, at) {
            if next.stone(n) == Some(colour.opposite()) {
                let (string, liberties) = string_at(&next, n);
                if liberties == 0 {
                    for stone in string {
                        next.set(stone, None);
                    }
                }
            }
        }
        if string_at(&next, at).1 == 0 {
            return Err(Some("illegal move".to_string()));
        }
        self.history
            .push((std::mem::replace(&mut self.stones, next), self.last));
        self.last = Some(colour);
        Ok(())
    }

    /// Takes back the last `play`; false if there is none.
    pub(super) fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some((stones, last)) => {
                self.stones = stones;
                self.last = last;
                true
            }
            None => false,
        }
    }

    /// The stones as a problem's setup, `to_move` to play.
    pub(super) fn setup(&self, to_move: Colour) -> Setup {
        let mut setup = self.stones.clone();
        setup.player = Some(to_move);
        setup
    }

    /// The board as `showboard` draws it (`X` black, `O` white, `.`
    /// empty, top row first, with coordinates), then what it is for.
    pub(super) fn diagram(&self) -> String {
        let (rows, columns) = (self.stones.rows, self.stones.columns);
        let letters: String = (0..columns)
            .map(|c| format!(" {}", Board::column_letter(c)))
            .collect();
        let width = rows.to_string().len();
        let mut out = format!("{:width$} {letters}\n", "");
        for row in (0..rows).rev() {
            out.push_str(&format!("{:>width$}", row + 1));
            for column in 0..columns {
                out.push(' ');
                out.push(match self.stones.stone(Vertex::new(column, row)) {
                    Some(Colour::Black) => 'X',
                    Some(Colour::White) => 'O',
                    None => '.',
                });
            }
            out.push_str(&format!(" {}\n", row + 1));
        }
        out.push_str(&format!("{:width$} {letters}\n", ""));
        out.push_str(&format!(
            "setup board {rows}x{columns} (no table): smallgo-problem-here makes a problem of its \
             stones, {} to play",
            self.next_colour()
        ));
        out
    }
}

/// The points next to `at` on the board.
fn neighbours(setup: &Setup, at: Vertex) -> Vec<Vertex> {
    let mut around = vec![
        Vertex::new(at.column + 1, at.row),
        Vertex::new(at.column, at.row + 1),
    ];
    if at.column > 0 {
        around.push(Vertex::new(at.column - 1, at.row));
    }
    if at.row > 0 {
        around.push(Vertex::new(at.column, at.row - 1));
    }
    around.retain(|&v| setup.contains(v));
    around
}

/// The string of the stone on `at` and how many liberties it has.
fn string_at(setup: &Setup, at: Vertex) -> (Vec<Vertex>, usize) {
    let colour = setup.stone(at);
    let mut string = vec![at];
    let mut liberties: Vec<Vertex> = Vec::new();
    let mut next = 0;
    while next < string.len() {
        let stone = string[next];
        next += 1;
        for n in neighbours(setup, stone) {
            let stone = setup.stone(n);
            if stone.is_none() && !liberties.contains(&n) {
                liberties.push(n);
            } else if stone.is_some() && stone == colour && !string.contains(&n) {
                string.push(n);
            }
        }
    }
    (string, liberties.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stones_capture_and_undo_restores() {
        let mut board = SetupBoard::new(9, 9);
        // Any order of colours, as setup.
        for (colour, vertex) in [
            (Colour::White, "A1"),
            (Colour::Black, "B1"),
            (Colour::Black, "C1"),
        ] {
            board.play(colour, vertex).unwrap();
        }
        assert_eq!(board.next_colour(), Colour::White);
        // A2 takes A1's last liberty.
        board.play(Colour::Black, "A2").unwrap();
        assert_eq!(board.stones.stone(Vertex::new(0, 0)), None);
        // A1 is now a point without a liberty for White.
        assert_eq!(
            board.play(Colour::White, "A1"),
            Err(Some("illegal move".into()))
        );
        assert_eq!(
            board.play(Colour::White, "B1"),
            Err(Some("illegal move".into()))
        );
        assert_eq!(board.play(Colour::White, "J10"), Err(None));
        assert_eq!(board.play(Colour::White, "I1"), Err(None));
        assert!(board.undo());
        assert_eq!(board.stones.stone(Vertex::new(0, 0)), Some(Colour::White));
        board.play(Colour::White, "pass").unwrap();
        assert_eq!(board.next_colour(), Colour::Black);
        assert!(board.undo() && board.undo() && board.undo() && board.undo());
        assert!(!board.undo());
        assert_eq!(board.next_colour(), Colour::Black);
    }

    #[test]
    fn setup_boards_are_the_large_sizes() {
        assert!(fits(19, 19) && fits(7, 25) && fits(9, 13));
        assert!(!fits(6, 6) && !fits(19, 1) && !fits(26, 26) && !fits(0, 9));
    }
}
