//! A live game: the stones of both colours, whose turn it is, the ko point, the
//! count of consecutive passes, and the history of full states for undo and for
//! the draw by repetition (`docs/rules.md#the-game`: in a live game the first
//! repetition of a full state ends the game as a draw). Perfect play in such a
//! game is `perfect`, who owns each point at its end `ownership`, and
//! both drawn as an SVG picture `drawing`; a
//! life-and-death problem played as a game is
//! `problem`. The GTP engine and the commands of `smallgo` both play
//! through this module; it builds on the rules, the values and their
//! ratings, and the problems' solver.
//!
//! GTP lets a controller play either colour at any time (setup stones, or a
//! colour playing twice). A move by colour X is judged from X's view: the ko
//! point only binds the side whose turn it is.
//!
//! The game ends at two consecutive passes (scored as the stones stand) or
//! at the first repetition (a draw), and its result is fixed from then on.
//! Moves a controller sends after the end are still played and recorded, as
//! GNU Go and KataGo accept them (a controller may send them while scoring),
//! but they change neither the result nor whether the game is over; undo
//! back past the end reopens the game.

pub mod drawing;
pub mod katago;
pub mod ownership;
pub mod perfect;
pub mod problem;

use crate::rules::board::{Board, Point, PointSet};
use crate::rules::colour::Colour;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::state::State;

/// Everything that makes a game state: stones, side to move, ko, passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FullState {
    pub black: PointSet,
    pub white: PointSet,
    pub to_move: Colour,
    /// The point the side to move may not take back at once.
    pub ko: Option<Point>,
    /// Consecutive passes just played (0, 1, or 2 when the game is over).
    pub passes: u8,
}

impl FullState {
    fn start() -> FullState {
        FullState {
            black: PointSet::EMPTY,
            white: PointSet::EMPTY,
            to_move: Colour::Black,
            ko: None,
            passes: 0,
        }
    }

    pub fn stones(&self, colour: Colour) -> PointSet {
        match colour {
            Colour::Black => self.black,
            Colour::White => self.white,
        }
    }
}

/// A move that the rules do not allow here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove;

#[derive(Clone, Debug)]
struct Record {
    before: FullState,
    colour: Colour,
    mv: Move,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Two consecutive passes: Black's area margin, komi aside, as the
    /// stones stood.
    Scored { black_margin: i32 },
    /// A full state repeated.
    Drawn,
}

/// A game on one board.
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    /// Where the game began: the empty board, or setup stones.
    start: FullState,
    current: FullState,
    history: Vec<Record>,
    /// How the game ended, and after how many moves.
    end: Option<(usize, Ending)>,
}

impl Game {
    pub fn new(board: Board) -> Game {
        Game {
            board,
            start: FullState::start(),
            current: FullState::start(),
            history: Vec::new(),
            end: None,
        }
    }

    /// A game that begins from setup stones with `to_move` to play; `None`
    /// if a string of stones has no liberty.
    pub fn from_setup(
        board: Board,
        black: PointSet,
        white: PointSet,
        to_move: Colour,
    ) -> Option<Game> {
        if !(black & white).is_empty() || !Position::new(black, white).is_legal(&board) {
            return None;
        }
        let start = FullState {
            black,
            white,
            to_move,
            ko: None,
            passes: 0,
        };
        Some(Game {
            board,
            start,
            current: start,
            history: Vec::new(),
            end: None,
        })
    }

    /// A game that begins from `state` (stones, side to move, ko point,
    /// passes just played, as an analysis's example state has them);
    /// `None` if its stones overlap or a string has no liberty.
    pub fn from_state(board: Board, state: FullState) -> Option<Game> {
        let mut game = Game::from_setup(board, state.black, state.white, state.to_move)?;
        game.start = FullState {
            passes: state.passes.min(1),
            ..state
        };
        game.current = game.start;
        Some(game)
    }

    /// Where the game began.
    pub fn start(&self) -> &FullState {
        &self.start
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn current(&self) -> &FullState {
        &self.current
    }

    pub fn to_move(&self) -> Colour {
        self.current.to_move
    }

    /// The moves played so far, in order.
    pub fn moves(&self) -> impl Iterator<Item = (Colour, Move)> + '_ {
        self.history.iter().map(|r| (r.colour, r.mv))
    }

    /// Two consecutive passes or a repetition ended the game.
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// How the game ended, if it has.
    pub fn ending(&self) -> Option<Ending> {
        self.end.map(|(_, ending)| ending)
    }

    /// The full states the game ended on, once it has: the state after the
    /// two passes; or, after a repetition, every state of the loop, from
    /// the first time the repeated state stood to the move before it came
    /// back (moves played after the end aside).
    pub fn end_states(&self) -> Option<Vec<FullState>> {
        let (after, ending) = self.end?;
        let states: Vec<FullState> = self
            .history
            .iter()
            .map(|r| r.before)
            .chain(std::iter::once(self.current))
            .take(after + 1)
            .collect();
        let last = *states.last().expect("the state after the end's move");
        Some(match ending {
            Ending::Scored { .. } => vec![last],
            Ending::Drawn => {
                let first = states
                    .iter()
                    .position(|s| *s == last)
                    .expect("a repeated state stood before");
                states[first..after].to_vec()
            }
        })
    }

    /// The state `colour` would move from, from `colour`'s view, as the
    /// tables see it.
    pub fn state_for(&self, colour: Colour) -> State {
        let position = Position::new(
            self.current.stones(colour),
            self.current.stones(colour.opposite()),
        );
        let ko = if colour == self.current.to_move {
            self.current.ko
        } else {
            None
        };
        State::from_parts(position, ko, self.current.passes >= 1)
    }

    /// The full state after `colour` plays `mv`, without playing it.
    pub fn after(&self, colour: Colour, mv: Move) -> Result<FullState, IllegalMove> {
        let passes = self.current.passes.saturating_add(1).min(2);
        match mv {
            Move::Pass => Ok(FullState {
                to_move: colour.opposite(),
                ko: None,
                passes,
                ..self.current
            }),
            Move::Place(point) => {
                if point.index() >= self.board.points() {
                    return Err(IllegalMove);
                }
                let child = self
                    .state_for(colour)
                    .place(&self.board, point)
                    .ok_or(IllegalMove)?;
                // The child is seen from the opponent: `them` are `colour`'s.
                let (mine, theirs) = (child.position().them(), child.position().us());
                let (black, white) = match colour {
                    Colour::Black => (mine, theirs),
                    Colour::White => (theirs, mine),
                };
                Ok(FullState {
                    black,
                    white,
                    to_move: colour.opposite(),
                    ko: child.ko(),
                    passes: 0,
                })
            }
        }
    }

    /// Whether a full state has stood in this game (now or before).
    pub fn has_stood(&self, state: &FullState) -> bool {
        self.current == *state || self.history.iter().any(|r| r.before == *state)
    }

    /// Plays a move for `colour`.
    pub fn play(&mut self, colour: Colour, mv: Move) -> Result<(), IllegalMove> {
        let next = self.after(colour, mv)?;
        let repeated = self.has_stood(&next);
        self.history.push(Record {
            before: self.current,
            colour,
            mv,
        });
        self.current = next;
        if self.end.is_none() {
            let ending = if repeated {
                Some(Ending::Drawn)
            } else if next.passes >= 2 {
                Some(Ending::Scored {
                    black_margin: self.black_area_margin(),
                })
            } else {
                None
            };
            self.end = ending.map(|ending| (self.history.len(), ending));
        }
        Ok(())
    }

    /// Takes back the last move; false if there is none.
    pub fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some(record) => {
                self.current = record.before;
                if self
                    .end
                    .is_some_and(|(after, _)| self.history.len() < after)
                {
                    self.end = None;
                }
                true
            }
            None => false,
        }
    }

    /// Area margin for Black, komi aside: stones plus empty regions touching
    /// only one colour.
    pub fn black_area_margin(&self) -> i32 {
        Position::new(self.current.black, self.current.white).area_score(&self.board)
    }

    /// The board as text, top row first, with coordinates: `X` black, `O`
    /// white.
    pub fn diagram(&self) -> String {
        diagram(&self.board, self.current.black, self.current.white)
    }
}

/// A board as `showboard` draws it, top row first, with coordinates: `X`
/// black, `O` white, `.` empty.
///
/// A circular board marks its seam: a `~` at both ends of every row (the
/// row runs on from its last point to its first) and a last line that
/// names the columns that meet, `circular: columns E and A are
/// neighbours`. Plain boards are drawn without either. A shape's cells
/// that are not points are drawn as its diagram writes them: `#` a wall,
/// `+` an open side.
pub fn diagram(board: &Board, black: PointSet, white: PointSet) -> String {
    let circular = board.is_circular();
    let letter = |column: usize| Board::column_letter(column).to_string();
    let letters: String = (0..board.columns())
        .map(|c| format!(" {}", letter(c)))
        .collect();
    let width = board.rows().to_string().len();
    // The seam marks take two more characters on each side.
    let margin = if circular { "  " } else { "" };
    let mut out = format!("{:width$} {margin}{letters}\n", "");
    for row in (0..board.rows()).rev() {
        out.push_str(&format!("{:>width$}", row + 1));
        if circular {
            out.push_str(" ~");
        }
        for column in 0..board.columns() {
            let cell = match board.point_at(row, column) {
                Some(point) if black.contains(point) => 'X',
                Some(point) if white.contains(point) => 'O',
                Some(_) => '.',
                None => match board.shape_geometry().map(|s| s.cell(row, column)) {
                    Some(crate::rules::board::Cell::Open) => '+',
                    _ => '#',
                },
            };
            out.push(' ');
            out.push(cell);
        }
        if circular {
            out.push_str(" ~");
        }
        out.push_str(&format!(" {}\n", row + 1));
    }
    out.push_str(&format!("{:width$} {margin}{letters}", ""));
    if circular {
        let last = board.columns() - 1;
        out.push('\n');
        out.push_str(&match last {
            0 => "circular: one column, the seam joins nothing".to_string(),
            _ => format!(
                "circular: columns {} and {} are neighbours",
                letter(last),
                letter(0)
            ),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(game: &Game, name: &str) -> Move {
        Move::Place(game.board().parse_point(name).unwrap())
    }

    #[test]
    fn either_colour_may_play_and_ko_binds_the_side_to_move() {
        let mut game = Game::new("3x4".parse().unwrap());
        // Build the ko shape: X = Black, O = White.
        for (colour, point) in [
            (Colour::Black, "B3"),
            (Colour::Black, "A2"),
            (Colour::Black, "B1"),
            (Colour::White, "C3"),
            (Colour::White, "B2"),
            (Colour::White, "D2"),
            (Colour::White, "C1"),
        ] {
            game.play(colour, mv(&game, point)).unwrap();
        }
        // Black captures at C2; White may not retake at B2 at once.
        game.play(Colour::Black, mv(&game, "C2")).unwrap();
        assert_eq!(game.current().ko, game.board().parse_point("B2"));
        assert_eq!(game.play(Colour::White, mv(&game, "B2")), Err(IllegalMove));
        // Black playing twice is allowed, and clears the ko.
        game.play(Colour::Black, mv(&game, "A3")).unwrap();
        assert_eq!(game.current().ko, None);
        game.play(Colour::White, mv(&game, "B2")).unwrap();
        assert!(game.undo());
        assert_eq!(game.current().to_move, Colour::White);
        assert!(!game.is_over());
    }

    #[test]
    fn two_passes_end_the_game() {
        let mut game = Game::new("2x2".parse().unwrap());
        game.play(Colour::Black, Move::Pass).unwrap();
        assert!(!game.is_over());
        assert!(game.state_for(Colour::White).passed());
        game.play(Colour::White, Move::Pass).unwrap();
        assert!(game.is_over());
        assert!(game.undo());
        assert!(!game.is_over());
    }

    #[test]
    fn the_first_repeated_full_state_draws() {
        let mut game = Game::new("1x3".parse().unwrap());
        let line = [
            (Colour::Black, "A1"),
            (Colour::White, "C1"),
            (Colour::Black, "B1"), // takes C1
            (Colour::White, "C1"), // takes A1 and B1
            (Colour::Black, "A1"),
            (Colour::White, "B1"), // takes A1
        ];
        for (colour, point) in line {
            game.play(colour, mv(&game, point)).unwrap();
            assert!(!game.is_over(), "{point}");
        }
        let after_first = Game::new("1x3".parse().unwrap());
        let mut replay = after_first.clone();
        replay.play(Colour::Black, mv(&replay, "A1")).unwrap();
        // Black takes B1 and C1: "X.." with White to move, as after move 1.
        game.play(Colour::Black, mv(&game, "A1")).unwrap();
        assert_eq!(game.current(), replay.current());
        assert_eq!(game.ending(), Some(Ending::Drawn));
        assert!(game.undo());
        assert!(!game.is_over(), "undo takes the repetition back");
        // The same stones with the other side to move are another state.
        let mut other = Game::new("1x3".parse().unwrap());
        other.play(Colour::Black, mv(&other, "A1")).unwrap();
        other.play(Colour::White, Move::Pass).unwrap();
        assert!(!other.is_over());
    }

    #[test]
    fn a_finished_game_stays_finished() {
        let mut game = Game::new("3x3".parse().unwrap());
        game.play(Colour::Black, mv(&game, "B2")).unwrap();
        game.play(Colour::White, Move::Pass).unwrap();
        game.play(Colour::Black, Move::Pass).unwrap();
        let ending = Some(Ending::Scored { black_margin: 9 });
        assert_eq!(game.ending(), ending);
        // Passes that bring back an earlier state, and stones, after the end.
        for (colour, name) in [
            (Colour::White, "pass"),
            (Colour::Black, "pass"),
            (Colour::White, "pass"),
            (Colour::White, "A1"),
            (Colour::Black, "pass"),
        ] {
            let played = if name == "pass" {
                Move::Pass
            } else {
                mv(&game, name)
            };
            game.play(colour, played).unwrap();
            assert_eq!(game.ending(), ending, "after {colour:?} {name}");
        }
        for _ in 0..5 {
            assert!(game.undo());
            assert_eq!(game.ending(), ending);
        }
        assert!(game.undo());
        assert_eq!(game.ending(), None, "undo past the end reopens the game");
        game.play(Colour::Black, mv(&game, "A1")).unwrap();
        assert_eq!(game.ending(), None);
    }

    /// Plain boards as they always were; circular ones with the seam
    /// marked at both ends of each row and named on a last line.
    #[test]
    fn diagrams_mark_the_seam_of_circular_boards() {
        let draw = |name: &str, moves: &[(Colour, &str)]| {
            let mut game = Game::new(name.parse().unwrap());
            for &(colour, point) in moves {
                game.play(colour, mv(&game, point)).unwrap();
            }
            game.diagram()
        };
        let moves = [(Colour::Black, "A1"), (Colour::White, "E2")];
        assert_eq!(
            draw("2x5", &moves),
            "   A B C D E\n2 . . . . O 2\n1 X . . . . 1\n   A B C D E"
        );
        assert_eq!(
            draw("2x5c", &moves),
            "     A B C D E\n2 ~ . . . . O ~ 2\n1 ~ X . . . . ~ 1\n     A B C D E\n\
             circular: columns E and A are neighbours"
        );
        assert_eq!(
            draw("10x1c", &[(Colour::Black, "A10")]),
            concat!(
                "      A\n10 ~ X ~ 10\n 9 ~ . ~ 9\n 8 ~ . ~ 8\n 7 ~ . ~ 7\n 6 ~ . ~ 6\n",
                " 5 ~ . ~ 5\n 4 ~ . ~ 4\n 3 ~ . ~ 3\n 2 ~ . ~ 2\n 1 ~ . ~ 1\n      A\n",
                "circular: one column, the seam joins nothing"
            )
        );
    }
}
