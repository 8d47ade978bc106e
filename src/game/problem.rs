//! A life-and-death problem played as a live game: the whole board (the
//! region's points placed on it, and the safe stones outside), the problem
//! solved under the three ko assumptions, the ko assumption the game is
//! played under (basic unless set), the current state's number in that
//! solution, and the moves played, for undo. Moves are the solution's
//! edges, so a move is legal exactly when the problem's game allows it;
//! the game ends when every target is captured (the attacker has won) or
//! at two passes in a row (the defender has). Vertices are the whole
//! board's (`B18` on 19x19).
//!
//! Each move is judged under all three assumptions: the target stones are
//! `Dead` after it when the attacker captures them even if the defender
//! has unlimited ko threats, `Alive` when the attacker cannot even with
//! unlimited threats of its own, and a `Ko` otherwise. The engine's choice
//! (`choose`) plays perfectly under the game's assumption: the attacker's
//! fastest kill, the defender's longest resistance, or, when the mover's
//! result does not depend on it, a move that keeps it (a pass first, so
//! that a settled problem ends); among equals, the move whose result holds
//! whatever the ko threats.

use crate::problem::input::{RegionProblem, Vertex};
use crate::problem::solve::{Limits, Solution, StateKey, Status};
use crate::problem::{KoAssumption, KoReport, Problem, Verdict};
use crate::rules::board::{Board, Point, PointSet};
use crate::rules::colour::Colour;
use crate::rules::moves::Move;

/// What the target stones come to after a move (or in a state), judged
/// under the three ko assumptions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Captured even if the defender has unlimited ko threats.
    Dead,
    /// Not captured even if the attacker has unlimited ko threats.
    Alive,
    /// A ko: whoever has the threats wins it. `attacker_wins` says who
    /// wins under the game's assumption.
    Ko { attacker_wins: bool },
}

/// A move of the side to move with what it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveResult {
    pub mv: Move,
    /// The state it leads to under the game's assumption (a pass that ends
    /// the game: the defender's win).
    pub status: Status,
    pub fate: Fate,
    /// Whether the mover wins under the game's assumption.
    pub mover_wins: bool,
}

/// Why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The problem has ended.
    Over,
    /// The other colour is to play.
    NotYourTurn(Colour),
    /// The point is not in the region.
    Outside(String),
    /// The rules of the problem do not allow the move here.
    Illegal,
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::Over => write!(f, "the problem is over"),
            PlayError::NotYourTurn(colour) => write!(f, "it is {colour}'s turn in the problem"),
            PlayError::Outside(vertex) => write!(f, "{vertex} is outside the problem's region"),
            PlayError::Illegal => write!(f, "illegal move"),
        }
    }
}

/// Where the game stands in the solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Place {
    /// The state's number in the solution of the game's assumption.
    state: usize,
    /// Two passes in a row have ended the game (after `state`).
    ended: bool,
}

/// A problem as a live game (see the module's paragraph).
pub struct ProblemGame {
    region: RegionProblem,
    report: KoReport,
    ko: KoAssumption,
    /// The places before each move played, and the move.
    history: Vec<(Place, Colour, Move)>,
    current: Place,
}

/// The position of `KoAssumption::ALL` that `ko` has.
fn slot(ko: KoAssumption) -> usize {
    KoAssumption::ALL
        .iter()
        .position(|&k| k == ko)
        .expect("every assumption is in ALL")
}

/// The assumption's name in commands and replies.
pub fn ko_name(ko: KoAssumption) -> &'static str {
    match ko {
        KoAssumption::Basic => "basic",
        KoAssumption::AttackerIgnoresKo => "attacker",
        KoAssumption::DefenderIgnoresKo => "defender",
    }
}

/// Reads a ko assumption's name (`basic`, `attacker`, `defender`).
pub fn parse_ko(text: &str) -> Option<KoAssumption> {
    KoAssumption::ALL
        .into_iter()
        .find(|&ko| ko_name(ko) == text.to_ascii_lowercase())
}

impl ProblemGame {
    /// Solves the problem under the three ko assumptions and starts its
    /// game, played under `ko`.
    ///
    /// The three solves share the memory available here; a problem too
    /// large for it is refused with the solver's figures, before the
    /// memory runs out.
    pub fn new(region: RegionProblem, ko: KoAssumption) -> Result<ProblemGame, String> {
        let max_bytes = crate::common::host::available_memory().map_or(u64::MAX, |bytes| bytes / 3);
        ProblemGame::within(region, ko, max_bytes)
    }

    /// As `new`, each of the three solves within `max_bytes`. Every state
    /// reachable is kept (no pruning): the game may go on past a point
    /// where a target has become unconditionally alive.
    fn within(
        region: RegionProblem,
        ko: KoAssumption,
        max_bytes: u64,
    ) -> Result<ProblemGame, String> {
        let limits = Limits::new(max_bytes).with_prune(false);
        let report = KoReport::with_limit(region.problem(), limits).map_err(|(ko, error)| {
            format!(
                "the problem is too large to solve here (ko assumption {}): {error}",
                ko_name(ko)
            )
        })?;
        Ok(ProblemGame {
            region,
            report,
            ko,
            history: Vec::new(),
            current: Place {
                state: 0,
                ended: false,
            },
        })
    }

    pub fn problem(&self) -> &Problem {
        self.region.problem()
    }

    /// The problem on the whole board: its region and the map of its
    /// points.
    pub fn region(&self) -> &RegionProblem {
        &self.region
    }

    pub fn ko(&self) -> KoAssumption {
        self.ko
    }

    /// The problem's status from its start, under the three assumptions.
    pub fn verdict(&self) -> Verdict {
        self.report.verdict
    }

    fn solution(&self) -> &Solution {
        &self.report.solutions[slot(self.ko)]
    }

    fn key_at(&self, place: Place) -> StateKey {
        self.solution().key(place.state)
    }

    fn key(&self) -> StateKey {
        self.key_at(self.current)
    }

    /// The attacker's colour.
    pub fn attacker(&self) -> Colour {
        self.problem().defender().opposite()
    }

    /// Whose turn it is; `None` once the game has ended.
    pub fn to_move(&self) -> Option<Colour> {
        if self.is_over() {
            return None;
        }
        Some(self.mover())
    }

    /// The colour whose turn the state gives, ended or not.
    fn mover(&self) -> Colour {
        if self.key().attacker_to_move {
            self.attacker()
        } else {
            self.problem().defender()
        }
    }

    fn is_over_at(&self, place: Place) -> bool {
        place.ended || self.key_at(place).is_capture()
    }

    /// Every target captured, or two passes in a row.
    pub fn is_over(&self) -> bool {
        self.is_over_at(self.current)
    }

    fn status_at(&self, place: Place) -> Status {
        if place.ended {
            return Status(None);
        }
        self.solution().status(place.state)
    }

    /// Whether the attacker wins under the game's assumption (has won, when
    /// every target is captured), and in how many plies.
    pub fn status(&self) -> Status {
        self.status_at(self.current)
    }

    /// The status of the current state under each ko assumption, in the
    /// order of `KoAssumption::ALL`; `None` where that assumption's game
    /// does not reach the state.
    pub fn statuses(&self) -> [Option<Status>; 3] {
        if self.current.ended {
            return [Some(Status(None)); 3];
        }
        self.statuses_of(&self.key())
    }

    /// The stones of each colour in the region now.
    pub fn region_stones(&self, colour: Colour) -> PointSet {
        let key = self.key();
        if colour == self.attacker() {
            PointSet(key.attacker)
        } else {
            PointSet(key.defender)
        }
    }

    /// The target stones still on the board.
    pub fn targets(&self) -> PointSet {
        PointSet(self.key().targets)
    }

    /// Whether the defender, living here under the game's assumption, lives
    /// in seki: the attacker's stones in the region cannot be captured
    /// either (`problem::seki::seki_at`).
    pub fn lives_in_seki(&self) -> bool {
        let mut tests = crate::problem::seki::SekiTests::default();
        !self.status().attacker_wins()
            && crate::problem::seki::seki_at(self.problem(), self.key(), &mut tests)
    }

    /// The whole board's point of a region point.
    pub fn vertex(&self, point: Point) -> Vertex {
        self.region.vertex(point)
    }

    /// A move's vertex on the whole board, or `pass`.
    pub fn move_name(&self, mv: Move) -> String {
        self.region.move_name(mv)
    }

    /// Reads a GTP move on the whole board: `pass`, or a vertex in the
    /// region. `Err(None)` if the text is no vertex of the whole board.
    pub fn parse_move(&self, text: &str) -> Result<Move, Option<PlayError>> {
        if text.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        let vertex = self.region.setup().parse_vertex(text).ok_or(None)?;
        match self.region.point(vertex) {
            Some(point) => Ok(Move::Place(point)),
            None => Err(Some(PlayError::Outside(vertex.name()))),
        }
    }

    /// Where `mv` leads from `place`, if the problem's game allows it.
    fn after(&self, place: Place, mv: Move) -> Option<Place> {
        Some(match self.solution().child(place.state, mv)? {
            None => Place {
                state: place.state,
                ended: true,
            },
            Some(child) => Place {
                state: child,
                ended: false,
            },
        })
    }

    /// Plays `mv` for `colour`, if the problem's game allows it; otherwise
    /// the game is unchanged.
    pub fn play(&mut self, colour: Colour, mv: Move) -> Result<(), PlayError> {
        if self.is_over() {
            return Err(PlayError::Over);
        }
        let mover = self.mover();
        if colour != mover {
            return Err(PlayError::NotYourTurn(mover));
        }
        let next = self.after(self.current, mv).ok_or(PlayError::Illegal)?;
        self.history.push((self.current, colour, mv));
        self.current = next;
        Ok(())
    }

    /// Takes back the last move; false if there is none.
    pub fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some((before, _, _)) => {
                self.current = before;
                true
            }
            None => false,
        }
    }

    /// The moves played, in order.
    pub fn moves(&self) -> impl Iterator<Item = (Colour, Move)> + '_ {
        self.history.iter().map(|&(_, colour, mv)| (colour, mv))
    }

    /// Plays the game under another ko assumption from here: every state
    /// of the game so far must be one the other assumption's game reaches;
    /// otherwise the game is unchanged.
    pub fn set_ko(&mut self, ko: KoAssumption) -> Result<(), String> {
        let target = &self.report.solutions[slot(ko)];
        let source = self.solution();
        let map = |place: Place| -> Option<Place> {
            Some(Place {
                state: target.find(&source.key(place.state))?,
                ended: place.ended,
            })
        };
        let unreached = || {
            format!(
                "the game so far is not one the {} ko assumption allows",
                ko_name(ko)
            )
        };
        let mut history = Vec::with_capacity(self.history.len());
        for &(place, colour, mv) in &self.history {
            history.push((map(place).ok_or_else(unreached)?, colour, mv));
        }
        let current = map(self.current).ok_or_else(unreached)?;
        self.history = history;
        self.current = current;
        self.ko = ko;
        Ok(())
    }

    fn statuses_of(&self, key: &StateKey) -> [Option<Status>; 3] {
        let mut out = [None; 3];
        for (i, solution) in self.report.solutions.iter().enumerate() {
            out[i] = solution.find(key).map(|s| solution.status(s));
        }
        out
    }

    /// The fate of a state from its status under each assumption; the
    /// game's assumption's stands in where another's game does not reach
    /// the state.
    fn fate(&self, key: &StateKey, here: Status) -> Fate {
        let statuses = self.statuses_of(key);
        let under = |ko: KoAssumption| statuses[slot(ko)].unwrap_or(here).attacker_wins();
        if under(KoAssumption::DefenderIgnoresKo) {
            Fate::Dead
        } else if !under(KoAssumption::AttackerIgnoresKo) {
            Fate::Alive
        } else {
            Fate::Ko {
                attacker_wins: here.attacker_wins(),
            }
        }
    }

    /// The fate of the targets in the current state.
    pub fn current_fate(&self) -> Fate {
        if self.current.ended {
            return Fate::Alive;
        }
        self.fate(&self.key(), self.status())
    }

    fn move_results_at(&self, place: Place) -> Vec<MoveResult> {
        if self.is_over_at(place) {
            return Vec::new();
        }
        let solution = self.solution();
        let attacker_moves = self.key_at(place).attacker_to_move;
        solution
            .moves_of(place.state)
            .into_iter()
            .map(|(mv, status)| {
                let fate = match solution.child(place.state, mv) {
                    Some(Some(child)) => self.fate(&solution.key(child), status),
                    // The pass that ends the game.
                    _ => Fate::Alive,
                };
                MoveResult {
                    mv,
                    status,
                    fate,
                    mover_wins: status.attacker_wins() == attacker_moves,
                }
            })
            .collect()
    }

    /// Every move of the side to move with its result, placements in point
    /// order, then the pass; none once the game has ended.
    pub fn move_results(&self) -> Vec<MoveResult> {
        self.move_results_at(self.current)
    }

    fn choose_at(&self, place: Place) -> Option<Move> {
        if self.is_over_at(place) {
            return None;
        }
        let attacker_moves = self.key_at(place).attacker_to_move;
        let mover_wins = self.status_at(place).attacker_wins() == attacker_moves;
        if !mover_wins && attacker_moves {
            // Nothing kills: the attacker passes.
            return Some(Move::Pass);
        }
        let best = self.solution().best_moves(place.state);
        let results = self.move_results_at(place);
        // The mover's preference among the best moves: a result that holds
        // whatever the threats first, a ko next.
        let rank = |result: &MoveResult| -> u8 {
            match (result.fate, attacker_moves) {
                (Fate::Dead, true) | (Fate::Alive, false) => 0,
                (Fate::Ko { .. }, _) => 1,
                _ => 2,
            }
        };
        let candidates: Vec<&MoveResult> =
            results.iter().filter(|r| best.contains(&r.mv)).collect();
        let top = candidates.iter().map(|r| rank(r)).min()?;
        let chosen: Vec<&MoveResult> = candidates.into_iter().filter(|r| rank(r) == top).collect();
        // A defender who lives passes when passing keeps it alive.
        if mover_wins && !attacker_moves && chosen.iter().any(|r| r.mv == Move::Pass) {
            return Some(Move::Pass);
        }
        chosen.first().map(|r| r.mv)
    }

    /// The move perfect play chooses for the side to move (see the module's
    /// paragraph); `None` once the game has ended.
    pub fn choose(&self) -> Option<Move> {
        self.choose_at(self.current)
    }

    /// The line perfect play follows after the side to move plays `first`,
    /// by `choose`, up to the end of the game, a state met again, or
    /// `limit` moves.
    pub fn line_after(&self, first: Move, limit: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let mut place = self.current;
        let mut seen = std::collections::HashSet::from([place.state]);
        let mut next = Some(first);
        while let Some(mv) = next {
            if line.len() >= limit {
                break;
            }
            let Some(after) = self.after(place, mv) else {
                break;
            };
            line.push(mv);
            place = after;
            if !seen.insert(place.state) {
                break;
            }
            next = self.choose_at(place);
        }
        line
    }

    /// The stones of `colour` on the whole board: the safe ones and those
    /// in the region, in row order from the bottom.
    pub fn stones(&self, colour: Colour) -> Vec<Vertex> {
        let (black, white) = self.region.safe_stones();
        let mut stones = if colour.is_black() { black } else { white };
        stones.extend(self.region_stones(colour).iter().map(|p| self.vertex(p)));
        stones.sort_by_key(|v| (v.row, v.column));
        stones
    }

    /// The whole board as `showboard` draws it, top row first, with
    /// coordinates: `X` black, `O` white, `.` an empty point of the region,
    /// `-` an empty point outside it; then lines naming the targets and
    /// whose turn it is.
    pub fn diagram(&self) -> String {
        let setup = self.region.setup();
        let letters: String = (0..setup.columns)
            .map(|c| format!(" {}", Board::column_letter(c)))
            .collect();
        let width = setup.rows.to_string().len();
        let mut grid = vec![vec!['-'; setup.columns]; setup.rows];
        for vertex in self.region.region() {
            grid[vertex.row][vertex.column] = '.';
        }
        for (colour, mark) in [(Colour::Black, 'X'), (Colour::White, 'O')] {
            for vertex in self.stones(colour) {
                grid[vertex.row][vertex.column] = mark;
            }
        }
        let mut out = format!("{:width$} {letters}\n", "");
        for row in (0..setup.rows).rev() {
            out.push_str(&format!("{:>width$}", row + 1));
            for &mark in &grid[row] {
                out.push(' ');
                out.push(mark);
            }
            out.push_str(&format!(" {}\n", row + 1));
        }
        out.push_str(&format!("{:width$} {letters}\n", ""));
        let targets: Vec<String> = self
            .targets()
            .iter()
            .map(|p| self.vertex(p).name())
            .collect();
        out.push_str(&format!(
            "problem: {} attacks, {} defends; region {} points ({}); targets {}\n",
            self.attacker(),
            self.problem().defender(),
            self.region.region().len(),
            self.region.region_text(),
            if targets.is_empty() {
                "all captured".to_string()
            } else {
                targets.join(" ")
            }
        ));
        out.push_str(&match self.to_move() {
            Some(colour) => format!("{colour} to play, {} ko", ko_name(self.ko)),
            None if self.key().is_capture() => "over: the targets are captured".to_string(),
            None => "over: two passes, the targets live".to_string(),
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::input::{from_diagram, InputOptions};

    /// The problem of a whole board's diagram, `to_move` to play.
    fn game(diagram: &str, to_move: Colour) -> ProblemGame {
        let options = InputOptions {
            player: Some(to_move),
            ..InputOptions::default()
        };
        ProblemGame::new(
            from_diagram(diagram, &options).unwrap(),
            KoAssumption::Basic,
        )
        .unwrap()
    }

    fn mv(game: &ProblemGame, name: &str) -> Move {
        game.parse_move(name).unwrap()
    }

    /// Plays the game out with `choose` for both sides; the moves.
    fn play_out(game: &mut ProblemGame) -> Vec<String> {
        let mut line = Vec::new();
        while let Some(colour) = game.to_move() {
            let chosen = game.choose().unwrap();
            line.push(game.move_name(chosen));
            game.play(colour, chosen).unwrap();
            assert!(line.len() < 100, "{line:?}");
        }
        line
    }

    // Three empty points in a row along the bottom edge in the corner,
    // White's stones inside Black's safe wall: Black to play kills at B1,
    // White to play lives there.
    const THREE: &str = "\
        ....../
        ....../
        XXXXX./
        OOOOX./
        ...OX.";

    #[test]
    fn a_problem_too_large_for_its_memory_is_refused_with_figures() {
        let options = InputOptions {
            player: Some(Colour::Black),
            ..InputOptions::default()
        };
        let region = from_diagram(THREE, &options).unwrap();
        let error = ProblemGame::within(region.clone(), KoAssumption::Basic, 1_000)
            .err()
            .expect("a solve within 1,000 bytes");
        assert!(error.contains("too large to solve here"), "{error}");
        assert!(error.contains("states"), "{error}");
        assert!(ProblemGame::within(region, KoAssumption::Basic, u64::MAX).is_ok());
    }

    #[test]
    fn the_attacker_kills_and_the_defender_lives() {
        let mut attack = game(THREE, Colour::Black);
        assert_eq!(attack.verdict(), Verdict::Dead);
        assert_eq!(
            attack.choose().map(|m| attack.move_name(m)),
            Some("B1".to_string())
        );
        let line = play_out(&mut attack);
        assert!(attack.targets().is_empty(), "{line:?}");
        let mut defend = game(THREE, Colour::White);
        assert_eq!(defend.verdict(), Verdict::Alive);
        assert_eq!(
            defend.choose().map(|m| defend.move_name(m)),
            Some("B1".to_string())
        );
        let line = play_out(&mut defend);
        assert!(!defend.targets().is_empty(), "{line:?}");
        assert_eq!(defend.status(), Status(None));
    }

    #[test]
    fn refused_moves_leave_the_game_unchanged() {
        let mut g = game(THREE, Colour::Black);
        let before = g.diagram();
        assert_eq!(
            g.parse_move("e2"),
            Err(Some(PlayError::Outside("E2".into())))
        );
        assert_eq!(g.parse_move("Z9"), Err(None));
        let b1 = mv(&g, "b1");
        assert_eq!(
            g.play(Colour::White, b1),
            Err(PlayError::NotYourTurn(Colour::Black))
        );
        // A2 holds a stone.
        let a2 = mv(&g, "A2");
        assert_eq!(g.play(Colour::Black, a2), Err(PlayError::Illegal));
        assert_eq!(g.diagram(), before);
        g.play(Colour::Black, b1).unwrap();
        assert_ne!(g.diagram(), before);
        assert!(g.undo());
        assert_eq!(g.diagram(), before);
        assert!(!g.undo());
    }

    #[test]
    fn every_move_is_judged() {
        let g = game(THREE, Colour::Black);
        let results = g.move_results();
        let named: Vec<(String, bool)> = results
            .iter()
            .map(|r| (g.move_name(r.mv), r.mover_wins))
            .collect();
        assert_eq!(
            named,
            [
                ("A1".to_string(), false),
                ("B1".to_string(), true),
                ("C1".to_string(), false),
                ("pass".to_string(), false)
            ]
        );
        assert!(results.iter().all(|r| r.fate
            != Fate::Ko {
                attacker_wins: true
            }));
    }
}
