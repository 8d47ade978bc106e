//! Life-and-death problems on a region of a board, solved exactly.
//!
//! A `Problem` is a board (any shape: its walls stand for the edge of the
//! whole board and for what lies outside the region), the stones in the
//! region, the safe stones beside it (stones outside the region, taken
//! into the board as points with an open side: never captured, and a
//! stone of their colour played beside one joins it and is safe too;
//! to the other colour they are no liberty), the player to move, the
//! target stones (all of one colour, the defender's; the attacker is the
//! other colour), a `KoAssumption`, and the attacker's `Objective`
//! (capture every target, in every problem a user asks; or clear them
//! from the fight, in the problem that tells seki).
//!
//! The game of a problem: the players alternate placing a stone or passing
//! under the project's rules (captures, no suicide, basic ko), except that
//! the side the assumption gives unlimited ko threats may ignore the ko
//! ban and retake at once. A target stone is captured once it is removed;
//! a stone the defender later plays on the same point is no target. The
//! attacker wins as soon as every target stone has been captured. Two
//! passes in a row end the game and the defender wins; a game that never
//! ends is the defender's too, so the attacker must force the capture in
//! finitely many moves. The defender's win covers life and seki alike.
//! (Under `Objective::Clear`, the objective of the seki test, a target
//! is also gone once its string runs out to a safe stone, and a capture
//! of a stone the attacker keeps ends the game, the defender's.)
//! Each state of this game (stones, side to move, ko point, passes, target
//! stones left) is either won by the attacker, in a number of plies (the
//! attacker playing shortest, the defender longest), or not.
//!
//! `solve` holds the solver: every state reachable from the problem is
//! enumerated, then solved by one retrograde pass, within a memory limit
//! if asked; `search` proves the value of a state by a depth-first proof
//! search with a transposition table, visiting only what the proof needs,
//! for problems too large to enumerate; `benson` finds the
//! unconditionally alive stones that let both stop searching where the
//! defender has won; `baseline` is the first
//! solver, kept for the benchmark; `seki` tells seki from life.
//! `KoReport` solves a problem under the three ko assumptions and says
//! whether its status is a ko, and who must win it; `KoSearch` does the
//! same by proof searches held one at a time, each asked only what the
//! others leave open. `input` (feature `cli`) reads problems as
//! players write them, an SGF file or a diagram of a whole board, and
//! finds their region and targets.

// Parts of the API (diagrams, the solver's figures, moves read in the
// whole board's coordinates) serve only the tests so far.
#![cfg_attr(not(test), allow(dead_code))]

pub(crate) mod baseline;
mod benson;
#[cfg(feature = "cli")]
pub(crate) mod input;
#[cfg(all(test, feature = "cli"))]
mod input_tests;
pub(crate) mod search;
#[cfg(test)]
mod search_tests;
pub(crate) mod seki;
pub(crate) mod solve;
#[cfg(test)]
mod tests;

use std::fmt;

use crate::rules::board::{Board, PointSet};
use crate::rules::colour::Colour;

/// Who may ignore the basic-ko ban, standing for unlimited ko threats
/// outside the region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum KoAssumption {
    /// Neither side: basic ko with no threats outside.
    Basic,
    /// The attacker may retake a ko at once.
    AttackerIgnoresKo,
    /// The defender may retake a ko at once.
    DefenderIgnoresKo,
}

impl KoAssumption {
    pub(crate) const ALL: [KoAssumption; 3] = [
        KoAssumption::Basic,
        KoAssumption::AttackerIgnoresKo,
        KoAssumption::DefenderIgnoresKo,
    ];
}

/// What the attacker must do to win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Objective {
    /// Capture every target. A target string that a defender's move
    /// joins to a safe stone of theirs stands for good (it is never
    /// captured). The objective of every problem a user asks.
    Capture,
    /// Clear the targets from the fight without losing a stone of `keep`
    /// (attacker's stones): a target is gone once captured or once a
    /// defender's move joins its string to a safe stone (it is then part
    /// of the living wall, no longer in the fight), and a defender's move
    /// that captures a stone of `keep` ends the game, the defender's. The
    /// objective of the problem, roles swapped, that tells seki from life
    /// (`seki`): can the living defender of a problem, keeping its
    /// targets, drive the attacker's stones from the region?
    Clear { keep: PointSet },
}

/// Why stones, targets and a board make no problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ProblemError {
    /// A point with an open side holds no stone: a problem's board has
    /// open sides only on the safe stones it takes in beside its region.
    OpenSides,
    /// A target is a safe stone (a point with an open side).
    SafeTarget(String),
    /// A point holds stones of both colours.
    Overlap(String),
    /// No target was given.
    NoTarget,
    /// A target point holds no stone.
    EmptyTarget(String),
    /// The targets hold stones of both colours.
    MixedTargets,
    /// A string has no liberty: the stones are no position of the game.
    NoLiberty(String),
}

impl fmt::Display for ProblemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProblemError::OpenSides => {
                write!(
                    f,
                    "the board has an open side on an empty point; a problem's board has \
                     open sides only on safe stones"
                )
            }
            ProblemError::SafeTarget(point) => {
                write!(
                    f,
                    "the target {point} is a safe stone, which is never captured"
                )
            }
            ProblemError::Overlap(point) => write!(f, "{point} holds stones of both colours"),
            ProblemError::NoTarget => write!(f, "the problem has no target stone"),
            ProblemError::EmptyTarget(point) => write!(f, "the target {point} holds no stone"),
            ProblemError::MixedTargets => write!(f, "the targets are stones of both colours"),
            ProblemError::NoLiberty(point) => {
                write!(f, "the string at {point} has no liberty")
            }
        }
    }
}

impl std::error::Error for ProblemError {}

/// A validated life-and-death problem (see the module's paragraph).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Problem {
    board: Board,
    black: PointSet,
    white: PointSet,
    to_move: Colour,
    targets: PointSet,
    ko: KoAssumption,
    objective: Objective,
}

impl Problem {
    /// Checks and builds a problem: the stones of each colour, the player to
    /// move, the target points (stones of one colour) and the ko
    /// assumption.
    pub(crate) fn new(
        board: Board,
        black: PointSet,
        white: PointSet,
        to_move: Colour,
        targets: PointSet,
        ko: KoAssumption,
    ) -> Result<Problem, ProblemError> {
        if let Some(point) = (black & white).first() {
            return Err(ProblemError::Overlap(board.point_name(point)));
        }
        if !board.open().is_subset_of(black | white) {
            return Err(ProblemError::OpenSides);
        }
        if targets.is_empty() {
            return Err(ProblemError::NoTarget);
        }
        if let Some(point) = (targets - black - white).first() {
            return Err(ProblemError::EmptyTarget(board.point_name(point)));
        }
        if !targets.is_subset_of(black) && !targets.is_subset_of(white) {
            return Err(ProblemError::MixedTargets);
        }
        if let Some(point) = (targets & board.open()).first() {
            return Err(ProblemError::SafeTarget(board.point_name(point)));
        }
        let empty = board.all() - black - white;
        for stones in [black, white] {
            let mut pending = stones;
            while let Some(point) = pending.first() {
                let string = board.flood(PointSet::single(point), stones);
                pending = pending - string;
                if (board.adjacent(string) & empty).is_empty() && (string & board.open()).is_empty()
                {
                    return Err(ProblemError::NoLiberty(board.point_name(point)));
                }
            }
        }
        Ok(Problem {
            board,
            black,
            white,
            to_move,
            targets,
            ko,
            objective: Objective::Capture,
        })
    }

    /// Reads a problem from a diagram of the board (`X` Black, `O` White,
    /// `x` and `o` their safe stones, `.` empty, `#` a wall cell; rows
    /// from the top, one a line) whose cells that are not walls make the
    /// board; `targets` names the target points (`C3`).
    pub(crate) fn from_diagram(
        diagram: &str,
        to_move: Colour,
        targets: &[&str],
        ko: KoAssumption,
    ) -> Result<Problem, Box<dyn std::error::Error>> {
        let rows: Vec<String> = diagram
            .lines()
            .map(|line| line.chars().filter(|c| !c.is_whitespace()).collect())
            .filter(|row: &String| !row.is_empty())
            .collect();
        let shape: Vec<String> = rows
            .iter()
            .map(|row| row.replace(['X', 'O', 'x', 'o'], "."))
            .collect();
        let mut board = Board::shape(&shape.join("/"))?;
        // The board drops wall rows and columns at the rim: read the stones
        // by the grid's cells, bottom row 0, each cell at its point's place.
        let height = rows.len();
        let mut black = PointSet::EMPTY;
        let mut white = PointSet::EMPTY;
        let mut safe = PointSet::EMPTY;
        let (top, left) = grid_offset(&rows);
        for (i, row) in rows.iter().enumerate() {
            for (column, cell) in row.chars().enumerate() {
                if !matches!(cell, 'X' | 'O' | 'x' | 'o') {
                    continue;
                }
                let grid_row = height - 1 - i;
                let point = grid_row
                    .checked_sub(top)
                    .and_then(|r| column.checked_sub(left).and_then(|c| board.point_at(r, c)))
                    .ok_or("a stone off the board")?;
                if cell.eq_ignore_ascii_case(&'X') {
                    black.insert(point);
                } else {
                    white.insert(point);
                }
                if cell.is_ascii_lowercase() {
                    safe.insert(point);
                }
            }
        }
        board = board.with_open_points(safe);
        let mut target_set = PointSet::EMPTY;
        for name in targets {
            let point = board
                .parse_point(name)
                .ok_or_else(|| format!("the target {name} is no point of the board"))?;
            target_set.insert(point);
        }
        Ok(Problem::new(board, black, white, to_move, target_set, ko)?)
    }

    pub(crate) fn board(&self) -> &Board {
        &self.board
    }

    pub(crate) fn to_move(&self) -> Colour {
        self.to_move
    }

    /// The safe stones on the board: stones outside the region beside it,
    /// each with an open side, so that a string holding one is never
    /// captured. Never targets; no move is played on them.
    pub(crate) fn safe(&self) -> PointSet {
        self.board.open()
    }

    /// Of `stones` (one colour's, safe ones included), those in the
    /// region joined to a safe stone: safe too, part of the wall.
    pub(crate) fn joined_to_safe(&self, stones: PointSet) -> PointSet {
        self.board.flood(stones & self.safe(), stones) - self.safe()
    }

    pub(crate) fn targets(&self) -> PointSet {
        self.targets
    }

    pub(crate) fn ko(&self) -> KoAssumption {
        self.ko
    }

    /// The same problem under another ko assumption.
    pub(crate) fn with_ko(&self, ko: KoAssumption) -> Problem {
        Problem { ko, ..self.clone() }
    }

    pub(crate) fn objective(&self) -> Objective {
        self.objective
    }

    /// The same problem where the attacker must clear the targets from
    /// the fight keeping the stones `keep` (`Objective::Clear`; those of
    /// `keep` that are no attacker's stones are left out); the targets
    /// joined to a safe stone at the start are no targets. `NoTarget` if
    /// none is left.
    pub(crate) fn to_clear(&self, keep: PointSet) -> Result<Problem, ProblemError> {
        let targets = self.targets - self.joined_to_safe(self.stones(self.defender()));
        if targets.is_empty() {
            return Err(ProblemError::NoTarget);
        }
        let keep = keep & self.stones(self.defender().opposite());
        Ok(Problem {
            targets,
            objective: Objective::Clear { keep },
            ..self.clone()
        })
    }

    /// The same problem with the other player to move.
    pub(crate) fn with_other_to_move(&self) -> Problem {
        Problem {
            to_move: self.to_move.opposite(),
            ..self.clone()
        }
    }

    /// The defender's colour: the targets'.
    pub(crate) fn defender(&self) -> Colour {
        if self.targets.is_subset_of(self.black) {
            Colour::Black
        } else {
            Colour::White
        }
    }

    /// The stones of one colour.
    pub(crate) fn stones(&self, colour: Colour) -> PointSet {
        match colour {
            Colour::Black => self.black,
            Colour::White => self.white,
        }
    }
}

/// The rows of walls at the bottom and the columns of walls at the left of
/// a diagram's grid, which the board drops.
fn grid_offset(rows: &[String]) -> (usize, usize) {
    let is_cell = |c: char| c != '#';
    let bottom = rows
        .iter()
        .rev()
        .take_while(|row| !row.chars().any(is_cell))
        .count();
    let left = rows
        .iter()
        .map(|row| row.chars().take_while(|&c| !is_cell(c)).count())
        .min()
        .unwrap_or(0);
    (bottom, left)
}

/// The status of a problem under the three ko assumptions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The attacker captures the targets even if the defender has
    /// unlimited ko threats.
    Dead,
    /// The attacker cannot capture them even with unlimited ko threats.
    Alive,
    /// A ko: the attacker wins it with no threats outside, so the defender
    /// must win it (find threats) to live.
    KoDefenderMustWin,
    /// A ko: the defender wins it with no threats outside, so the attacker
    /// must win it to kill.
    KoAttackerMustWin,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Dead => "dead",
            Verdict::Alive => "alive (or seki)",
            Verdict::KoDefenderMustWin => "ko: the defender must win it to live",
            Verdict::KoAttackerMustWin => "ko: the attacker must win it to kill",
        })
    }
}

/// A problem solved under each ko assumption.
pub(crate) struct KoReport {
    /// The solutions, in the order of `KoAssumption::ALL`.
    pub(crate) solutions: Vec<solve::Solution>,
    pub(crate) verdict: Verdict,
}

impl KoReport {
    pub(crate) fn new(problem: &Problem) -> KoReport {
        let solutions: Vec<solve::Solution> = KoAssumption::ALL
            .iter()
            .map(|&ko| solve::Solution::new(&problem.with_ko(ko)))
            .collect();
        KoReport::of(solutions)
    }

    /// The problem solved under each ko assumption with
    /// `Solution::with_limit`, the three held together within `limits`:
    /// each solve counts what the solutions before it keep
    /// (`Solution::kept_bytes`, added to `limits.held_bytes`) and those
    /// still to come (added to `limits.to_follow`); the first that is too
    /// large is returned with its assumption.
    pub(crate) fn with_limit(
        problem: &Problem,
        limits: solve::Limits,
    ) -> Result<KoReport, (KoAssumption, solve::TooLarge)> {
        let mut solutions: Vec<solve::Solution> = Vec::new();
        for (k, ko) in KoAssumption::ALL.into_iter().enumerate() {
            let held = solutions.iter().map(|s| s.kept_bytes() as u64).sum::<u64>();
            let to_come = (KoAssumption::ALL.len() - 1 - k) as u32;
            let limits = limits.sharing(limits.held_bytes + held, limits.to_follow + to_come);
            solutions.push(
                solve::Solution::with_limit(&problem.with_ko(ko), limits)
                    .map_err(|error| (ko, error))?,
            );
        }
        Ok(KoReport::of(solutions))
    }

    /// The memory the three solutions hold (`Solution::kept_bytes`).
    pub(crate) fn kept_bytes(&self) -> u64 {
        self.solutions.iter().map(|s| s.kept_bytes() as u64).sum()
    }

    fn of(solutions: Vec<solve::Solution>) -> KoReport {
        let killed = |i: usize| solutions[i].start().attacker_wins();
        let verdict = match (killed(0), killed(1), killed(2)) {
            (_, _, true) => Verdict::Dead,
            (_, false, _) => Verdict::Alive,
            (true, _, _) => Verdict::KoDefenderMustWin,
            (false, _, _) => Verdict::KoAttackerMustWin,
        };
        KoReport { solutions, verdict }
    }
}

/// A problem searched under the three ko assumptions with one proof
/// search held at a time: the start's status under each, its verdict,
/// every first move's results (with its distance under basic ko when
/// captured), the figures of each search, and the basic-ko search kept
/// for the main line and the tree's lines. The values are those of
/// `search::SearchReport`, which holds the three searches at once and
/// asks each of them everything.
///
/// A capture that holds when the defender ignores ko holds with basic ko,
/// and one with basic ko holds when the attacker ignores ko (unlimited
/// threats only add moves for the side that has them, and the game's
/// value is monotone in a side's moves). So the attacker-ignores-ko
/// search runs first, over the start and every first move, and is
/// dropped; the defender-ignores-ko search runs only on the positions
/// that one captured, and is dropped; the basic search only where the two
/// disagree, and for the distances of its captures. What each proved
/// that holds under the next is handed on (`Search::import`, within a
/// quarter of the memory limit): the attacker-ignores-ko search's losses
/// and lower bounds of the distances to the basic search and the
/// defender-ignores-ko one, the defender-ignores-ko search's wins and
/// upper bounds of the distances to the basic one, whose lines then do
/// not prove again what the first search proved, and whose distances
/// start from the bounds the first search found (where the attacker
/// ignoring ko captures in as many plies as with basic ko, the basic
/// search's distance of the start is one search to that depth).
///
/// The start is proved whatever it costs; each first move's child within
/// a budget of states a search (`KoSearch::FIRST_MOVE_BUDGET`): a wrong
/// first move of the defender's can need a proof of the attacker's kill
/// against every defence, far larger than the start's. A first move
/// whose budget runs out is reported as unproved (`SearchedMove::unproved`)
/// and asked no more, and the other searches go on.
pub(crate) struct KoSearch {
    pub(crate) start: [solve::Status; 3],
    pub(crate) verdict: Verdict,
    /// Whether a target is unconditionally alive at the start: no move is
    /// searched.
    pub(crate) settled: bool,
    pub(crate) moves: Vec<search::SearchedMove>,
    /// The basic-ko search, kept for the lines.
    pub(crate) basic: search::Search,
    /// The states the dropped searches expanded (0 for one the others
    /// made needless), and the entries they kept and their largest
    /// memory with the basic search's table held beside them, in the
    /// order of `KoAssumption::ALL` (the basic search's are read from
    /// it).
    dropped: [(u64, usize, usize); 3],
}

impl KoSearch {
    /// The states a search may expand on one first move's child before
    /// the move is reported as unproved.
    pub(crate) const FIRST_MOVE_BUDGET: u64 = 1_000_000;

    /// Searches `problem` so, each search within `limits`, each first
    /// move within `FIRST_MOVE_BUDGET` states a search; the first search
    /// past `limits` is returned with its assumption.
    pub(crate) fn new(
        problem: &Problem,
        limits: search::SearchLimits,
    ) -> Result<KoSearch, (KoAssumption, search::SearchTooLarge)> {
        KoSearch::with_budget(problem, limits, KoSearch::FIRST_MOVE_BUDGET)
    }

    /// Searches `problem` so, each first move's child within `budget`
    /// states a search.
    pub(crate) fn with_budget(
        problem: &Problem,
        limits: search::SearchLimits,
        budget: u64,
    ) -> Result<KoSearch, (KoAssumption, search::SearchTooLarge)> {
        use search::Search;
        let [basic_ko, attacker_ko, defender_ko] = KoAssumption::ALL;
        let failed = |ko: KoAssumption| move |error| (ko, error);
        let mut basic =
            Search::new(&problem.with_ko(basic_ko), limits).map_err(failed(basic_ko))?;
        let start_key = basic.start();
        let settled = basic.is_settled(&start_key);
        // The positions asked: the start, then each first move's child
        // (`None`: a game-ending pass, which the defender wins).
        let first = basic.moves(&start_key);
        let keys: Vec<Option<solve::StateKey>> = std::iter::once(Some(start_key))
            .chain(first.iter().map(|&(_, child)| child))
            .collect();
        let mut killed = vec![[false; 3]; keys.len()];
        let mut unproved = vec![false; keys.len()];
        // The value of position `i` (0: the start, without a budget), or
        // `None` past the budget.
        let value = |search: &mut Search, i: usize, key: &solve::StateKey| {
            if i == 0 {
                search.wins(key).map(Some)
            } else {
                search.wins_budgeted(key, budget)
            }
        };
        let mut start = [solve::Status(None); 3];
        let mut dropped = [(0, 0, 0); 3];
        for (k, ko) in [(1, attacker_ko), (2, defender_ko)] {
            if k == 2 && !killed.iter().any(|c| c[1]) {
                break;
            }
            let mut search = Search::new(&problem.with_ko(ko), limits).map_err(failed(ko))?;
            // The basic search holds the attacker-ignores-ko search's
            // losses by now: losses here too.
            search.import(&basic);
            for (i, key) in keys.iter().enumerate() {
                if let Some(key) = key {
                    if !unproved[i] && (k == 1 || killed[i][1]) {
                        match value(&mut search, i, key).map_err(failed(ko))? {
                            Some(won) => killed[i][k] = won,
                            None => unproved[i] = true,
                        }
                    }
                }
            }
            if killed[0][k] {
                start[k] = search.status(&start_key).map_err(failed(ko))?;
            }
            // Its losses (attacker ignores ko) or wins (defender ignores
            // ko) hold with basic ko.
            basic.import(&search);
            dropped[k] = (
                search.nodes(),
                search.entries(),
                search.peak_bytes() + basic.bytes(),
            );
        }
        let mut plies = vec![None; keys.len()];
        for (i, key) in keys.iter().enumerate() {
            let Some(key) = key else { continue };
            if unproved[i] {
                continue;
            }
            killed[i][0] = if killed[i][2] {
                true
            } else if !killed[i][1] {
                false
            } else {
                match value(&mut basic, i, key).map_err(failed(basic_ko))? {
                    Some(won) => won,
                    None => {
                        unproved[i] = true;
                        continue;
                    }
                }
            };
            if killed[i][0] {
                plies[i] = basic.status(key).map_err(failed(basic_ko))?.0;
            }
        }
        start[0] = solve::Status(plies[0]);
        let moves = first
            .iter()
            .enumerate()
            .map(|(i, &(mv, child))| search::SearchedMove {
                mv,
                child,
                // An unproved move's partial results are left out.
                killed: if unproved[i + 1] {
                    [false; 3]
                } else {
                    killed[i + 1]
                },
                plies: plies[i + 1],
                unproved: unproved[i + 1],
            })
            .collect();
        Ok(KoSearch {
            start,
            verdict: search::verdict_of(start.map(|s| s.attacker_wins())),
            settled,
            moves,
            basic,
            dropped,
        })
    }

    /// The states each search expanded, in the order of
    /// `KoAssumption::ALL`.
    pub(crate) fn nodes(&self) -> [u64; 3] {
        [self.basic.nodes(), self.dropped[1].0, self.dropped[2].0]
    }

    /// The states the searches' tables kept, together.
    pub(crate) fn entries(&self) -> usize {
        self.basic.entries() + self.dropped[1].1 + self.dropped[2].1
    }

    /// The most memory one search held.
    pub(crate) fn peak_bytes(&self) -> usize {
        self.basic
            .peak_bytes()
            .max(self.dropped[1].2)
            .max(self.dropped[2].2)
    }
}
