//! Exact ownership: which points end as Black's, White's or neither's when
//! both sides play perfectly from a position, and which are in seki, read
//! from the end of the line the engine itself plays (`perfect::choose` at
//! every ply, its ties broken by the engine's own order, so the map is as
//! stable as `genmove`: the same position, komi and history give the same
//! map).
//!
//! - The line ends with two passes: the points are owned as area scoring
//!   counts them in the final position, a colour's stones and the empty
//!   regions that touch only that colour; the rest (empty regions touching
//!   both colours, or none, or an open side) are neither's.
//! - The line ends with a repetition (a draw by endless play): the end is
//!   the loop, every position from the first time the repeated state stood
//!   to the move before it came back. A point is Black's (White's) when it
//!   is Black's (White's) in every position of the loop; a point that
//!   changes hands in the loop, a ko's for example, is neither's.
//! - Seki, in a final position: an empty region that touches stones of both
//!   colours (and no open side), none of whose points either player can
//!   fill without losing the stone at once (the placement is illegal, or
//!   it captures nothing and leaves its string one liberty), with the
//!   strings of both colours that touch it. Its empty points are neither's
//!   and its stones their colour's, as area scoring counts them. In a loop
//!   a point is in seki when it is in every position of the loop.
//! - A stone now on the board is dead when no position of the end has a
//!   stone of its colour on its point (it is captured for good), in seki
//!   when its point is a stone of its colour in seki at the end, and alive
//!   otherwise.
//!
//! The line is followed for at most `LINE_LIMIT` plies: perfect play ends
//! a won game in the plies the table counts, and a drawn one passes or
//! repeats, so a line that does not end by then is refused with an error.

use crate::rules::board::{Board, Point, PointSet};
use crate::rules::colour::Colour;
use crate::rules::position::Position;
use crate::table::library::BoardValues;

use super::{perfect, FullState, Game};

/// The most plies a line is followed to find its end.
pub const LINE_LIMIT: usize = 4000;

/// Who a point ends as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    Black,
    White,
    Neither,
}

/// What a stone now on the board comes to (`final_status_list`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Alive,
    Dead,
    Seki,
}

impl Status {
    /// The word GTP's `final_status_list` takes.
    pub fn parse(word: &str) -> Option<Status> {
        match word.to_ascii_lowercase().as_str() {
            "alive" => Some(Status::Alive),
            "dead" => Some(Status::Dead),
            "seki" => Some(Status::Seki),
            _ => None,
        }
    }
}

/// How the line ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Two passes: Black's area margin, komi aside.
    Scored { black_margin: i32 },
    /// A repetition: a loop of this many positions.
    Loop { positions: usize },
}

/// The ownership of every point when perfect play ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ownership {
    board: Board,
    black: PointSet,
    white: PointSet,
    /// Stones of each colour in seki (Black's, White's) and the empty
    /// points they share.
    seki_stones: [PointSet; 2],
    seki_empty: PointSet,
    /// The points where a stone of each colour stands in some position of
    /// the end.
    standing: [PointSet; 2],
    end: End,
    /// The moves played from the position to the end (none if the game
    /// had already ended).
    line: Vec<crate::rules::moves::Move>,
}

fn slot(colour: Colour) -> usize {
    match colour {
        Colour::Black => 0,
        Colour::White => 1,
    }
}

/// What one final position gives: its areas, its seki stones and empty
/// points.
struct Settled {
    black: PointSet,
    white: PointSet,
    seki_stones: [PointSet; 2],
    seki_empty: PointSet,
}

fn settle(board: &Board, state: &FullState) -> Settled {
    let position = Position::new(state.black, state.white);
    let (black, white) = position.areas(board);
    let mut seki_stones = [PointSet::EMPTY; 2];
    let mut seki_empty = PointSet::EMPTY;
    let mut neutral = board.all() - black - white;
    while let Some(seed) = neutral.first() {
        let region = board.flood(PointSet::single(seed), neutral);
        neutral = neutral - region;
        let around = board.adjacent(region);
        let (touch_black, touch_white) = (around & state.black, around & state.white);
        if touch_black.is_empty() || touch_white.is_empty() || !(region & board.open()).is_empty() {
            continue;
        }
        let fillable = region.iter().any(|point| {
            position.fills_safely(board, point) || position.swapped().fills_safely(board, point)
        });
        if fillable {
            continue;
        }
        seki_empty |= region;
        seki_stones[0] |= board.flood(touch_black, state.black);
        seki_stones[1] |= board.flood(touch_white, state.white);
    }
    Settled {
        black,
        white,
        seki_stones,
        seki_empty,
    }
}

impl Ownership {
    /// The ownership of the end of `states` (one position after two
    /// passes, or the positions of a loop), reached by `line`.
    fn of_end(
        board: Board,
        states: &[FullState],
        end: End,
        line: Vec<crate::rules::moves::Move>,
    ) -> Ownership {
        let all = board.all();
        let mut map = Ownership {
            board,
            black: all,
            white: all,
            seki_stones: [all; 2],
            seki_empty: all,
            standing: [PointSet::EMPTY; 2],
            end,
            line,
        };
        for state in states {
            let settled = settle(&board, state);
            map.black &= settled.black;
            map.white &= settled.white;
            for colour in [0, 1] {
                map.seki_stones[colour] &= settled.seki_stones[colour];
            }
            map.seki_empty &= settled.seki_empty;
            map.standing[0] |= state.black;
            map.standing[1] |= state.white;
        }
        map
    }

    /// Who `point` ends as.
    pub fn owner(&self, point: Point) -> Owner {
        if self.black.contains(point) {
            Owner::Black
        } else if self.white.contains(point) {
            Owner::White
        } else {
            Owner::Neither
        }
    }

    /// The points that end as `colour`'s.
    pub fn area(&self, colour: Colour) -> PointSet {
        match colour {
            Colour::Black => self.black,
            Colour::White => self.white,
        }
    }

    /// The points in seki: the stones of both colours and the empty points
    /// they share.
    pub fn seki(&self) -> PointSet {
        self.seki_stones[0] | self.seki_stones[1] | self.seki_empty
    }

    /// How the line ended.
    pub fn end(&self) -> End {
        self.end
    }

    /// The moves from the position to the end.
    pub fn line(&self) -> &[crate::rules::moves::Move] {
        &self.line
    }

    /// What a stone of `colour` on `point` comes to.
    pub fn status(&self, colour: Colour, point: Point) -> Status {
        if !self.standing[slot(colour)].contains(point) {
            Status::Dead
        } else if self.seki_stones[slot(colour)].contains(point) {
            Status::Seki
        } else {
            Status::Alive
        }
    }

    /// The stones of `black` and `white` (a position's) with `status`.
    pub fn stones_with(&self, black: PointSet, white: PointSet, status: Status) -> PointSet {
        let mut found = PointSet::EMPTY;
        for (colour, stones) in [(Colour::Black, black), (Colour::White, white)] {
            for point in stones.iter() {
                if self.status(colour, point) == status {
                    found.insert(point);
                }
            }
        }
        found
    }

    /// Every point's owner from `side`'s view as KataGo writes ownership:
    /// 1 `side`'s, -1 the opponent's, 0 neither's; rows from the top,
    /// each left to right; a cell of the grid that is not a point of the
    /// board is 0.
    pub fn values_for(&self, side: Colour) -> Vec<i8> {
        let board = &self.board;
        let mut values = Vec::with_capacity(board.rows() * board.columns());
        for row in (0..board.rows()).rev() {
            for column in 0..board.columns() {
                values.push(match board.point_at(row, column).map(|p| self.owner(p)) {
                    Some(Owner::Black) if side == Colour::Black => 1,
                    Some(Owner::White) if side == Colour::White => 1,
                    Some(Owner::Black | Owner::White) => -1,
                    _ => 0,
                });
            }
        }
        values
    }
}

/// The ownership when `side` moves first from `game` and both sides play
/// the engine's perfect moves to the end; the game's own end if it is
/// over.
pub fn final_ownership(
    oracle: &BoardValues,
    komi: f64,
    game: &Game,
    side: Colour,
) -> Result<Ownership, String> {
    let (line, end_game) = if game.is_over() {
        (Vec::new(), game.clone())
    } else {
        let first = perfect::choose(oracle, komi, game, side)?.mv;
        perfect::line_within(oracle, komi, game, side, first, LINE_LIMIT)?
    };
    of_game(&end_game, line)
}

/// The ownership of a game that has ended, reached by `line`.
pub fn of_game(game: &Game, line: Vec<crate::rules::moves::Move>) -> Result<Ownership, String> {
    let states = game
        .end_states()
        .ok_or_else(|| format!("the principal line did not end within {LINE_LIMIT} plies"))?;
    let end = match game.ending() {
        Some(super::Ending::Scored { black_margin }) => End::Scored { black_margin },
        _ => End::Loop {
            positions: states.len(),
        },
    };
    Ok(Ownership::of_end(*game.board(), &states, end, line))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::moves::Move;
    use crate::table::library::Tablebase;

    fn game_of(board: &str, moves: &[&str]) -> Game {
        let board: Board = board.parse().unwrap();
        let mut game = Game::new(board);
        for name in moves {
            let mv = match *name {
                "pass" => Move::Pass,
                name => Move::Place(board.parse_point(name).unwrap()),
            };
            game.play(game.to_move(), mv).unwrap();
        }
        game
    }

    fn points(board: &Board, names: &[&str]) -> PointSet {
        names.iter().fold(PointSet::EMPTY, |set, name| {
            set | PointSet::single(board.parse_point(name).unwrap())
        })
    }

    fn oracle(board: &Board) -> BoardValues {
        Tablebase::with_sources(None, false)
            .open(*board)
            .expect("a built-in table")
    }

    /// Plays the line out by hand, each ply the engine's choice, and scores
    /// the final stones as area scoring does: the map must agree point by
    /// point, and its values from each side's view add up to that side's
    /// margin.
    #[test]
    fn the_map_is_the_area_of_the_end_of_the_engines_line() {
        for (board, moves, komi) in [
            ("3x3", &[][..], 0.0),
            ("4x4", &[][..], 0.0),
            ("4x4", &["B2", "C3"][..], 0.5),
            ("2x4", &["A1"][..], 0.0),
            ("3x4", &["B2", "C2", "pass"][..], 2.5),
            ("2x5c", &["A1"][..], 0.0),
        ] {
            let game = game_of(board, moves);
            let oracle = oracle(game.board());
            let side = game.to_move();
            let map = final_ownership(&oracle, komi, &game, side).unwrap();
            let mut played = game.clone();
            let mut line = Vec::new();
            while !played.is_over() {
                let mover = if line.is_empty() {
                    side
                } else {
                    played.to_move()
                };
                let mv = perfect::choose(&oracle, komi, &played, mover).unwrap().mv;
                played.play(mover, mv).unwrap();
                line.push(mv);
            }
            assert_eq!(map.line(), line, "{board} {moves:?}");
            let current = played.current();
            let (black, white) = Position::new(current.black, current.white).areas(played.board());
            let b = played.board();
            for point in b.all().iter() {
                let expected = if black.contains(point) {
                    Owner::Black
                } else if white.contains(point) {
                    Owner::White
                } else {
                    Owner::Neither
                };
                assert_eq!(map.owner(point), expected, "{board} {moves:?} {point:?}");
            }
            let margin = black.len() as i32 - white.len() as i32;
            assert_eq!(
                map.end(),
                End::Scored {
                    black_margin: margin
                }
            );
            let sum = |side| map.values_for(side).iter().map(|&v| v as i32).sum::<i32>();
            assert_eq!(sum(Colour::Black), margin);
            assert_eq!(sum(Colour::White), -margin);
        }
    }

    /// A draw by endless play (1x7 at komi 0.5, 1x5 at komi 0.5): the line
    /// played out by hand until a position comes back, the map is the
    /// points a colour owns in every position from its first time to the
    /// repeat.
    #[test]
    fn a_loop_owns_what_every_position_of_it_owns() {
        for board in ["1x7", "1x5"] {
            let game = game_of(board, &[]);
            let oracle = oracle(game.board());
            let map = final_ownership(&oracle, 0.5, &game, Colour::Black).unwrap();
            let mut played = game.clone();
            let mut seen = vec![*played.current()];
            while !played.is_over() {
                let mover = played.to_move();
                let mv = perfect::choose(&oracle, 0.5, &played, mover).unwrap().mv;
                played.play(mover, mv).unwrap();
                seen.push(*played.current());
            }
            let last = *seen.last().unwrap();
            let first = seen.iter().position(|s| *s == last).unwrap();
            assert!(first + 1 < seen.len(), "{board}: the line ends in a loop");
            let b = *played.board();
            let (mut black, mut white) = (b.all(), b.all());
            for state in &seen[first..seen.len() - 1] {
                let (areas_black, areas_white) = Position::new(state.black, state.white).areas(&b);
                black &= areas_black;
                white &= areas_white;
            }
            assert_eq!(map.area(Colour::Black), black, "{board}");
            assert_eq!(map.area(Colour::White), white, "{board}");
            assert_eq!(
                map.end(),
                End::Loop {
                    positions: seen.len() - 1 - first
                }
            );
        }
    }

    /// A plain seki on 2x3: Black A1 A2, White C1 C2, B1 and B2 empty.
    /// A stone on either leaves its string one liberty, to be taken at
    /// once: the shared points and both strings are in seki, the shared
    /// points nobody's.
    #[test]
    fn seki_is_marked_on_its_stones_and_shared_liberties() {
        let board: Board = "2x3".parse().unwrap();
        let state = FullState {
            black: points(&board, &["A1", "A2"]),
            white: points(&board, &["C1", "C2"]),
            to_move: Colour::Black,
            ko: None,
            passes: 2,
        };
        let settled = settle(&board, &state);
        assert_eq!(settled.seki_empty, points(&board, &["B1", "B2"]));
        // A stone on B1 leaves Black A1 A2 B1 one liberty (B2), which White
        // takes: neither fills, so it is seki.
        assert_eq!(settled.seki_stones[0], points(&board, &["A1", "A2"]));
        assert_eq!(settled.seki_stones[1], points(&board, &["C1", "C2"]));
    }
}
