//! `smallgo solve PROBLEM.sgf [--region ...] [--targets ...] [--json] [-o
//! SOLVED.sgf]`: a life-and-death problem read from an SGF file (or a
//! diagram), its region and targets found (`problem::input`), solved exactly
//! for each side to play first under the three ko assumptions (within
//! `--memory`, or refused with the solver's figures) by the full solver or,
//! past a bound of states or with `--solver search`, by the proof search
//! (`problem::search`, within `--max-nodes`), and reported: the region drawn,
//! the status (dead, alive, seki, or a ko and who must win it), every first
//! move with its result, the main line; as text or one `solve` JSON object
//! (`docs/json.md`). `-o` writes the solution tree as problem collections
//! have it: every first move of the side to play, the correct ones continued
//! with perfect replies to the end, the wrong ones with their refutation
//! (with the search: the main line after each first move), with comments
//! saying why, on the whole board's coordinates with the original setup. The
//! rules, the definition of seki and the file conventions are those of
//! docs/life-and-death.md.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, ValueEnum};

use crate::common::units::human_bytes;
use crate::problem::input::{self, InputOptions, RegionProblem, RegionSource, TargetSource};
use crate::problem::search::{main_line, verdict_of, Search, SearchLimits, SearchTooLarge};
use crate::problem::seki::{free_points, seki_at, state_bound, SekiTests};
use crate::problem::solve::{Limits, Solution, StateKey, Status};
use crate::problem::{KoAssumption, KoReport, KoSearch, Problem, Verdict};
use crate::rules::colour::Colour;
use crate::rules::moves::Move;
use crate::sgf;

use super::json::{self, Json};
use super::EXIT_FAILURE;

/// `smallgo solve`'s arguments.
#[derive(Args, Debug)]
pub(crate) struct SolveArguments {
    /// The problem: an SGF file (its root's setup; see
    /// docs/life-and-death.md for the marks it may carry).
    #[arg(
        value_name = "PROBLEM.sgf",
        required_unless_present = "diagram",
        conflicts_with = "diagram"
    )]
    problem: Option<PathBuf>,

    /// The problem as a diagram of a whole board instead of a file: rows
    /// from the top separated by '/', X Black, O White, '.' empty.
    #[arg(long, value_name = "ROWS")]
    diagram: Option<String>,

    /// The region, in the whole board's coordinates: points and
    /// rectangles separated by commas (A1-E5,F1); replaces the file's SQ
    /// and the inferred region.
    #[arg(long, value_name = "POINTS")]
    region: Option<String>,

    /// The target stones (the attacked side's keystones), in the whole
    /// board's coordinates; replaces the file's MA/TR and the inferred
    /// targets.
    #[arg(long, value_name = "POINTS")]
    targets: Option<String>,

    /// The player to move in the problem (B or W); replaces the file's PL
    /// (default Black). Both sides to play first are solved either way;
    /// this is the side whose moves the -o tree starts with.
    #[arg(long, value_name = "B|W", value_parser = parse_colour)]
    player: Option<Colour>,

    /// Print the report as one JSON document.
    #[arg(long)]
    json: bool,

    /// Write the solution tree to this SGF file.
    #[arg(short = 'o', long = "output", value_name = "SOLVED.sgf")]
    output: Option<PathBuf>,

    /// The memory the solve may use (for example 8G or 512M): with the
    /// full solver, the six solutions held together (each solve counting
    /// what those before it keep, and those to come at its size); a
    /// problem that needs more is refused with the solver's figures. By
    /// default, the memory available.
    #[arg(long, value_name = "SIZE", value_parser = crate::common::units::parse_size)]
    memory: Option<u64>,

    /// The solver: `full` enumerates every reachable state (its tree
    /// shows every perfect reply); `search` proves the status, every
    /// first move and the main line by a proof search, for problems too
    /// large to enumerate; `auto` takes the full solver up to a bound of
    /// 4e7 states, the search beyond.
    #[arg(long, value_enum, default_value = "auto")]
    solver: SolverChoice,

    /// The most states each of the six proof searches may expand before
    /// it stops with its figures (default 1e9).
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
}

/// The solver `smallgo solve` uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum SolverChoice {
    /// The full solver up to a bound of 4e7 states, the search beyond.
    Auto,
    /// Every reachable state enumerated and solved.
    Full,
    /// A proof search of the states a proof needs.
    Search,
}

/// The largest state bound (`state_bound`) `--solver auto` gives to the
/// full solver (about a second's solve), the GTP problem game's too.
const AUTO_FULL_BOUND: f64 = crate::game::problem::FULL_SOLVER_BOUND;

/// The states each proof search may expand by default.
const DEFAULT_MAX_NODES: u64 = 1_000_000_000;

/// The states a proof search telling seki from life may expand.
const SEKI_MAX_NODES: u64 = 2_000_000;

fn parse_colour(text: &str) -> Result<Colour, String> {
    Colour::parse(text).ok_or_else(|| format!("'{text}' is neither B nor W"))
}

/// The result of a position of a problem, for the defender's targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The attacker captures them even if the defender has unlimited ko
    /// threats.
    Dead,
    /// The defender lives even if the attacker has unlimited ko threats,
    /// and can capture every attacker stone left in the region at the end
    /// of the main line.
    Alive,
    /// The defender lives so, but cannot capture the attacker's stones
    /// left in the region at the end of the main line: they live together.
    Seki,
    /// A ko: the attacker wins it with no threats outside.
    KoDefenderMustWin,
    /// A ko: the defender wins it with no threats outside.
    KoAttackerMustWin,
    /// A first move the proof search did not prove within its budget
    /// (`KoSearch::FIRST_MOVE_BUDGET`): its result is not known.
    Unproved,
}

impl Outcome {
    fn of(verdict: Verdict, seki: bool) -> Outcome {
        match verdict {
            Verdict::Dead => Outcome::Dead,
            Verdict::Alive if seki => Outcome::Seki,
            Verdict::Alive => Outcome::Alive,
            Verdict::KoDefenderMustWin => Outcome::KoDefenderMustWin,
            Verdict::KoAttackerMustWin => Outcome::KoAttackerMustWin,
        }
    }

    /// The JSON word.
    fn key(self) -> &'static str {
        match self {
            Outcome::Dead => "dead",
            Outcome::Alive => "alive",
            Outcome::Seki => "seki",
            Outcome::KoDefenderMustWin => "ko_defender_must_win",
            Outcome::KoAttackerMustWin => "ko_attacker_must_win",
            Outcome::Unproved => "unproved",
        }
    }

    /// The words for people.
    fn text(self) -> &'static str {
        match self {
            Outcome::Dead => "dead",
            Outcome::Alive => "alive",
            Outcome::Seki => "seki",
            Outcome::KoDefenderMustWin => "ko, the defender must win it to live",
            Outcome::KoAttackerMustWin => "ko, the attacker must win it to kill",
            Outcome::Unproved => "not proved (the search's budget for a first move ran out)",
        }
    }

    /// How good the result is for the attacker (for the defender, the
    /// other way round).
    fn for_attacker(self) -> u8 {
        match self {
            Outcome::Dead => 4,
            Outcome::KoDefenderMustWin => 3,
            Outcome::KoAttackerMustWin => 2,
            Outcome::Seki => 1,
            Outcome::Alive => 0,
            // Never ranked: `judge` and the main line's choice leave it out.
            Outcome::Unproved => 0,
        }
    }
}

/// A first move and what it leads to.
struct FirstMove {
    mv: Move,
    outcome: Outcome,
    /// Captured under each ko assumption, and in how many plies after the
    /// move with no threats.
    killed: [bool; 3],
    plies: Option<u32>,
    correct: bool,
}

/// The problem with one side to play first.
struct Side {
    first: Colour,
    engine: Engine,
    outcome: Outcome,
    line: Vec<Move>,
    moves: Vec<FirstMove>,
}

/// How a side was solved: every state enumerated, or a proof search.
enum Engine {
    Full(KoReport),
    Search(SearchSide),
}

impl Engine {
    /// The start's value under each ko assumption.
    fn starts(&self) -> [Status; 3] {
        match self {
            Engine::Full(report) => [0, 1, 2].map(|k| report.solutions[k].start()),
            Engine::Search(side) => side.start,
        }
    }

    /// The states solved (full) or expanded (search) under ko assumption
    /// `k`.
    fn states(&self, k: usize) -> u64 {
        match self {
            Engine::Full(report) => report.solutions[k].len() as u64,
            Engine::Search(side) => side.nodes[k],
        }
    }

    /// The size of the solve, in words.
    fn size_words(&self) -> String {
        match self {
            Engine::Full(report) => format!("{} states", report.solutions[0].len()),
            Engine::Search(side) => format!(
                "proof search: {} states expanded, {} kept, {} of tables",
                side.nodes.iter().sum::<u64>(),
                side.entries,
                human_bytes(side.peak_bytes as f64)
            ),
        }
    }

    /// Whether a target is unconditionally alive at the start.
    fn settled(&self) -> bool {
        match self {
            Engine::Full(report) => report.solutions[0].is_settled(0),
            Engine::Search(side) => side.settled,
        }
    }
}

/// A solved problem.
struct Solved {
    located: RegionProblem,
    name: String,
    /// The problem's player to move first, then the other.
    sides: Vec<Side>,
    /// Positions where seki was not told from life (`MAX_SEKI_BOUND`).
    seki_untested: usize,
    seconds: f64,
}

/// The solutions `solve` holds at once with the full solver: three ko
/// assumptions, two sides to play first.
const SOLUTIONS_HELD: u64 = 6;

/// The share of the memory each proof search may hold: `solve` runs a
/// side's one at a time (`solve_side_search`), and the two sides' beside
/// each other within half of it each, a side stopped there solved again
/// alone (`search_sides`); the rest is the program's own.
const SEARCH_SHARE: (u64, u64) = (7, 8);

/// The three solutions of a problem (in the order of `KoAssumption::ALL`)
/// walked together: the same moves lead to the same state in each, by its
/// own number.
struct Walk<'a> {
    solutions: &'a [Solution],
}

/// A state's number in each of the three solutions.
type At = [usize; 3];

impl Walk<'_> {
    fn killed(&self, at: At) -> [bool; 3] {
        [0, 1, 2].map(|k| self.solutions[k].status(at[k]).attacker_wins())
    }

    fn attacker_moves(&self, at: At) -> bool {
        self.solutions[0].key(at[0]).attacker_to_move
    }

    /// The state a move leads to in each solution: `Some(None)` after a
    /// pass that ends the game, `None` if it is no move.
    fn step(&self, at: At, mv: Move) -> Option<Option<At>> {
        let mut next = [0; 3];
        for k in 0..3 {
            match self.solutions[k].child(at[k], mv)? {
                None => return Some(None),
                Some(child) => next[k] = child,
            }
        }
        Some(Some(next))
    }

    /// The outcome after a move (the seki test aside).
    fn verdict_after(&self, next: Option<At>) -> Verdict {
        next.map_or(Verdict::Alive, |next| verdict_of(self.killed(next)))
    }

    /// The best moves of a state for its mover, best first: those that
    /// are best with no threats (the basic-ko solution's best moves: the
    /// attacker's shortest capture, the defender's longest resistance, or
    /// its moves that live), and among them those whose outcome over the
    /// three ko assumptions is best for the mover (a kill without ko
    /// before a ko, life without ko before a ko); the pass first, then
    /// point order. Following them plays perfectly under basic ko: a line
    /// the attacker wins ends in the capture after as many plies as the
    /// basic-ko solution counts.
    fn ranked(&self, at: At) -> Vec<Move> {
        let attacker = self.attacker_moves(at);
        let basic_best = self.solutions[0].best_moves(at[0]);
        let mut scored: Vec<(u8, usize, Move)> = self.solutions[0]
            .moves_of(at[0])
            .into_iter()
            .enumerate()
            .filter(|(_, (mv, _))| basic_best.contains(mv))
            .filter_map(|(order, (mv, _))| {
                let next = self.step(at, mv)?;
                let outcome = Outcome::of(self.verdict_after(next), false);
                let score = if attacker {
                    outcome.for_attacker()
                } else {
                    4 - outcome.for_attacker()
                };
                Some((score, order, mv))
            })
            .collect();
        // Among equals a pass comes first: a living defender keeps its
        // eyes, an attacker that cannot kill gives no stones away.
        scored
            .sort_by_key(|&(score, order, mv)| (std::cmp::Reverse(score), mv != Move::Pass, order));
        let top = scored.first().map(|&(score, _, _)| score);
        scored
            .into_iter()
            .take_while(|&(score, _, _)| Some(score) == top)
            .map(|(_, _, mv)| mv)
            .collect()
    }

    /// Whether the game is over at `at` with no move: the targets
    /// captured, or a target unconditionally alive (a state the solver
    /// pruned, the same in the three solutions: the defender has won).
    fn end_at(&self, at: At) -> Option<End> {
        let solution = &self.solutions[0];
        if solution.key(at[0]).is_capture() {
            Some(End::Capture)
        } else if solution.is_settled(at[0]) {
            Some(End::Settled)
        } else {
            None
        }
    }

    /// Follows the first ranked move of each state from `at`: the moves,
    /// the last state with stones on the board (before a game-ending
    /// pass, the state it was played in), and why the line ends.
    fn line(&self, at: At, limit: usize) -> (Vec<Move>, At, End) {
        let mut moves = Vec::new();
        let mut seen = vec![at];
        let mut at = at;
        loop {
            if let Some(end) = self.end_at(at) {
                return (moves, at, end);
            }
            if moves.len() >= limit {
                return (moves, at, End::Cut);
            }
            let Some(&mv) = self.ranked(at).first() else {
                return (moves, at, End::Settled);
            };
            moves.push(mv);
            match self.step(at, mv).expect("a ranked move is a move") {
                None => return (moves, at, End::Passes),
                Some(next) => {
                    if seen.contains(&next) {
                        return (moves, next, End::Repeats);
                    }
                    seen.push(next);
                    at = next;
                }
            }
        }
    }
}

/// How a line ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Capture,
    /// A target unconditionally alive.
    Settled,
    Passes,
    Repeats,
    Cut,
}

/// The longest line followed, in plies.
const MAX_LINE: usize = 80;

/// Solves a problem with its player to move first under the three ko
/// assumptions, the three within `limits` (`KoReport::with_limit`); a
/// solve too large is refused with the solver's figures. The seki tests
/// then solve within what `limits` leaves beside the three solutions.
fn solve_side(problem: &Problem, limits: Limits, tests: &mut SekiTests) -> Result<Side, String> {
    let report = KoReport::with_limit(problem, limits).map_err(|(ko, error)| {
        format!(
            "with {} first, {}: {error}",
            colour_word(problem.to_move()),
            ko_words(ko)
        )
    })?;
    tests.set_max_bytes(
        limits
            .max_bytes
            .saturating_sub(limits.held_bytes.saturating_add(report.kept_bytes())),
    );
    let walk = Walk {
        solutions: &report.solutions,
    };
    let basic = &report.solutions[0];
    let mover_is_attacker = problem.to_move() != problem.defender();
    let mut moves: Vec<FirstMove> = basic
        .first_moves()
        .into_iter()
        .map(|(mv, status)| {
            let next = walk.step([0; 3], mv).expect("a first move");
            let killed = next.map_or([false; 3], |next| walk.killed(next));
            let verdict = verdict_of(killed);
            // After a game-ending pass the stones are the start's.
            let seki = verdict == Verdict::Alive
                && seki_at(problem, basic.key(next.map_or(0, |next| next[0])), tests);
            FirstMove {
                mv,
                outcome: Outcome::of(verdict, seki),
                killed,
                plies: status.0,
                correct: false,
            }
        })
        .collect();
    let outcome = judge(&mut moves, report.verdict, mover_is_attacker);
    let line = walk.line([0; 3], MAX_LINE).0;
    Ok(Side {
        first: problem.to_move(),
        line,
        engine: Engine::Full(report),
        outcome,
        moves,
    })
}

/// The outcome of a side from its first moves and verdict, and each first
/// move marked correct or not.
fn judge(moves: &mut [FirstMove], verdict: Verdict, mover_is_attacker: bool) -> Outcome {
    // A living defender is in seki when the best the attacker can get by
    // its first move is seki, or the best the defender can get by its own.
    let living = moves
        .iter()
        .filter(|m| matches!(m.outcome, Outcome::Alive | Outcome::Seki));
    let seki = if mover_is_attacker {
        living.clone().any(|m| m.outcome == Outcome::Seki)
    } else {
        living.clone().count() > 0 && living.clone().all(|m| m.outcome == Outcome::Seki)
    };
    let outcome = Outcome::of(verdict, verdict == Verdict::Alive && seki);
    let score = |outcome: Outcome| {
        if outcome == Outcome::Unproved {
            // Below every proved outcome: never correct, never the best.
            0
        } else if mover_is_attacker {
            outcome.for_attacker()
        } else {
            4 - outcome.for_attacker()
        }
    };
    // A move is correct when it gives the best outcome for its player, if
    // that outcome is at least a ko: when every move fails, none is.
    let best = moves.iter().map(|m| score(m.outcome)).max().unwrap_or(0);
    let fails = if mover_is_attacker {
        Outcome::Seki
    } else {
        Outcome::KoDefenderMustWin
    };
    for m in moves.iter_mut() {
        m.correct = score(m.outcome) == best && best > score(fails);
    }
    outcome
}

fn search_error(problem: &Problem, ko: KoAssumption, error: SearchTooLarge) -> SideStopped {
    SideStopped::new(
        format!(
            "with {} first, {}: {error}",
            colour_word(problem.to_move()),
            ko_words(ko)
        ),
        &error,
    )
}

/// Why a side's proof searches stopped: the words for the user, and
/// whether a search's table reached its memory limit (a side solved
/// beside the other, within half the memory, is then solved again alone:
/// `search_sides`).
struct SideStopped {
    message: String,
    memory: bool,
}

impl SideStopped {
    fn new(message: String, error: &SearchTooLarge) -> SideStopped {
        SideStopped {
            message,
            memory: matches!(error, SearchTooLarge::Memory { .. }),
        }
    }
}

/// What the proof searches of one side found besides its first moves:
/// the start's value under the three ko assumptions, the figures of each
/// search, and the tree's lines.
struct SearchSide {
    start: [Status; 3],
    /// Whether a target is unconditionally alive at the start: no move is
    /// searched.
    settled: bool,
    /// The states each search expanded, in the order of
    /// `KoAssumption::ALL` (0 for a search the others made needless).
    nodes: [u64; 3],
    /// The states the searches' tables kept, together.
    entries: usize,
    /// The most memory one search held (they are held one at a time).
    peak_bytes: usize,
    /// With the tree asked for: each first move's line after it (the
    /// basic-ko main line) and how it ends; `None` after a game-ending
    /// pass.
    lines: Vec<Option<SearchLine>>,
}

/// Solves a problem with its player to move first under the three ko
/// assumptions by proof searches (`KoSearch`: one held at a time), each
/// within `limits`: the status, every first move's result and distance,
/// and the main line (its first move chosen among the first moves as the
/// full solver's `Walk::ranked` does, then `search::main_line`, basic
/// ko); with `tree`, each first move's line for the solution tree. The
/// basic search is dropped before the seki tests run theirs.
fn solve_side_search(
    problem: &Problem,
    limits: SearchLimits,
    tests: &mut SekiTests,
    tree: bool,
) -> Result<Side, SideStopped> {
    let failed = |error| search_error(problem, KoAssumption::Basic, error);
    let mut found =
        KoSearch::new(problem, limits).map_err(|(ko, error)| search_error(problem, ko, error))?;
    let start = found.start;
    let mover_is_attacker = problem.to_move() != problem.defender();
    // The first move of the line: among the best under basic ko (the
    // shortest capture, the longest resistance, or a move that lives),
    // the best outcome over the three assumptions for the mover, the pass
    // first among equals, then point order.
    let moves = &found.moves;
    let mut candidates: Vec<(u8, usize)> = moves
        .iter()
        .enumerate()
        .filter(|(_, m)| !m.unproved)
        .filter(|(_, m)| match start[0].0 {
            Some(d) => m.plies == Some(d - 1),
            None => mover_is_attacker || !m.killed[0],
        })
        .map(|(order, m)| {
            let outcome = Outcome::of(verdict_of(m.killed), false);
            let score = if mover_is_attacker {
                outcome.for_attacker()
            } else {
                4 - outcome.for_attacker()
            };
            (score, order)
        })
        .collect();
    candidates.sort_by_key(|&(score, order)| {
        (
            std::cmp::Reverse(score),
            moves[order].mv != Move::Pass,
            order,
        )
    });
    let mut line = Vec::new();
    if let Some(&(_, i)) = candidates.first() {
        line.push(found.moves[i].mv);
        if let Some(child) = found.moves[i].child {
            let rest = main_line(&mut found.basic, &child, MAX_LINE - 1).map_err(failed)?;
            line.extend(rest);
        }
    }
    let mut lines = Vec::new();
    if tree {
        for i in 0..found.moves.len() {
            lines.push(match found.moves[i].child {
                None => None,
                Some(_) if found.moves[i].unproved => Some((Vec::new(), End::Cut)),
                Some(child) => Some(search_line(&mut found.basic, child, MAX_LINE).map_err(
                    |error| SideStopped::new(format!("the solution tree: {error}"), &error),
                )?),
            });
        }
    }
    let figures = SearchSide {
        start,
        settled: found.settled,
        nodes: found.nodes(),
        entries: found.entries(),
        peak_bytes: found.peak_bytes(),
        lines,
    };
    let KoSearch { moves, verdict, .. } = found;
    let start_key = StateKey::start(problem);
    let mut firsts: Vec<FirstMove> = moves
        .iter()
        .map(|m| {
            let verdict = verdict_of(m.killed);
            let seki = !m.unproved
                && verdict == Verdict::Alive
                && seki_at(problem, m.child.unwrap_or(start_key), tests);
            FirstMove {
                mv: m.mv,
                outcome: if m.unproved {
                    Outcome::Unproved
                } else {
                    Outcome::of(verdict, seki)
                },
                killed: m.killed,
                plies: m.plies,
                correct: false,
            }
        })
        .collect();
    let outcome = judge(&mut firsts, verdict, mover_is_attacker);
    Ok(Side {
        first: problem.to_move(),
        line,
        engine: Engine::Search(figures),
        outcome,
        moves: firsts,
    })
}

/// A line of moves and how it ends.
type SearchLine = (Vec<Move>, End);

/// The main line from `key` under basic ko (`search::main_line`) and how
/// it ends.
fn search_line(
    search: &mut Search,
    key: StateKey,
    limit: usize,
) -> Result<SearchLine, SearchTooLarge> {
    let line = main_line(search, &key, limit)?;
    let mut at = key;
    let mut seen = vec![key];
    for mv in &line {
        match search.moves(&at).into_iter().find(|(m, _)| m == mv) {
            Some((_, Some(child))) => {
                if seen.contains(&child) {
                    return Ok((line, End::Repeats));
                }
                seen.push(child);
                at = child;
            }
            _ => return Ok((line, End::Passes)),
        }
    }
    let end = if at.is_capture() {
        End::Capture
    } else if search.is_settled(&at) {
        End::Settled
    } else {
        End::Cut
    };
    Ok((line, end))
}

/// The limits of a solve: the full solver's, or the proof search's.
#[derive(Clone, Copy, Debug)]
enum SolveLimits {
    Full(Limits),
    Search(SearchLimits),
}

/// Solves a located problem for both sides to play first; with `tree`,
/// the proof search finds the lines of the solution tree too (the full
/// solver's tree is read from its solutions when written).
fn solve(
    located: RegionProblem,
    name: String,
    limits: SolveLimits,
    tree: bool,
) -> Result<Solved, String> {
    let started = Instant::now();
    let problem = located.problem().clone();
    let (tests, sides) = match limits {
        SolveLimits::Full(limits) => {
            // The first side's three solutions are kept while the
            // second's are made.
            let mut tests = SekiTests::default();
            let first = solve_side(&problem, limits.sharing(0, 3), &mut tests)?;
            let held = match &first.engine {
                Engine::Full(report) => report.kept_bytes(),
                Engine::Search(_) => 0,
            };
            let second = solve_side(
                &problem.with_other_to_move(),
                limits.sharing(held, 0),
                &mut tests,
            )?;
            (tests, vec![first, second])
        }
        SolveLimits::Search(limits) => {
            let together = std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2);
            let (tests, sides, _) = search_sides(&problem, limits, tree, together)?;
            (tests, sides)
        }
    };
    Ok(Solved {
        located,
        name,
        sides,
        seki_untested: tests.skipped(),
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// Both sides to play first solved by the proof search, each within
/// `limits` (its seki tests within `SEKI_MAX_NODES` too), the tree's lines
/// for the problem's own player to move. With `together`, the two sides
/// are solved at once on two threads, each within half of `limits`'
/// memory, and a side stopped there by the memory (in its searches or in
/// a seki test's) is solved again alone, within the whole of it, with
/// seki tests of its own: the same answers as one side after the other,
/// in about the time of the longer side. The seki tests made are kept
/// together. Returns them, the sides, and how many sides were solved
/// again alone.
fn search_sides(
    problem: &Problem,
    limits: SearchLimits,
    tree: bool,
    together: bool,
) -> Result<(SekiTests, Vec<Side>, usize), String> {
    let seki_limits = |limits: SearchLimits| {
        SekiTests::by_search(SearchLimits {
            max_nodes: limits.max_nodes.min(SEKI_MAX_NODES),
            ..limits
        })
    };
    let other = problem.with_other_to_move();
    let mut tests = seki_limits(limits);
    if !together {
        let first = solve_side_search(problem, limits, &mut tests, tree).map_err(|e| e.message)?;
        let second = solve_side_search(&other, limits, &mut tests, false).map_err(|e| e.message)?;
        return Ok((tests, vec![first, second], 0));
    }
    let half = SearchLimits {
        max_bytes: limits.max_bytes / 2,
        ..limits
    };
    let (mut first_tests, mut second_tests) = (seki_limits(half), seki_limits(half));
    let (first, second) = std::thread::scope(|scope| {
        let second = std::thread::Builder::new()
            .stack_size(SIDE_STACK_BYTES)
            .spawn_scoped(scope, || {
                solve_side_search(&other, half, &mut second_tests, false)
            })
            .map_err(|error| format!("cannot start a thread for the second side: {error}"))?;
        let first = solve_side_search(problem, half, &mut first_tests, tree);
        let second = second
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        Ok::<_, String>((first, second))
    })?;
    // A side stopped by its half of the memory, in its searches or in a
    // seki test's, is solved again alone; the tests of the others are kept.
    let stopped = |result: &Result<Side, SideStopped>, tests: &SekiTests| match result {
        Ok(_) => tests.stopped_by_memory(),
        Err(stopped) => stopped.memory,
    };
    let again_first = stopped(&first, &first_tests);
    let again_second = stopped(&second, &second_tests);
    for (again, side_tests) in [(again_first, first_tests), (again_second, second_tests)] {
        if !again {
            tests.merge(side_tests);
        }
    }
    let mut alone = |side: &Problem, tree: bool, result: Result<Side, SideStopped>, again: bool| {
        if !again {
            return result.map_err(|e| e.message);
        }
        log::info!(
            "solve: with {} first, stopped within half the memory beside the other side; \
             solved again alone",
            colour_word(side.to_move())
        );
        solve_side_search(side, limits, &mut tests, tree).map_err(|e| e.message)
    };
    let first = alone(problem, tree, first, again_first)?;
    let second = alone(&other, false, second, again_second)?;
    let again = usize::from(again_first) + usize::from(again_second);
    Ok((tests, vec![first, second], again))
}

/// The stack of the thread that solves the second side beside the first
/// (the searches' own recursion runs on threads of their own:
/// `Search::deep`).
const SIDE_STACK_BYTES: usize = 8 << 20;

fn colour_word(colour: Colour) -> &'static str {
    match colour {
        Colour::Black => "Black",
        Colour::White => "White",
    }
}

impl Solved {
    fn problem(&self) -> &Problem {
        self.located.problem()
    }

    fn attacker(&self) -> Colour {
        self.problem().defender().opposite()
    }

    fn names(&self, moves: &[Move]) -> Vec<String> {
        moves.iter().map(|&m| self.located.move_name(m)).collect()
    }

    /// A line as `B B2, W A1, ...`, from `first`.
    fn line_text(&self, first: Colour, moves: &[Move]) -> String {
        let mut colour = first;
        let mut parts = Vec::new();
        for &mv in moves {
            parts.push(format!(
                "{} {}",
                colour.letter(),
                self.located.move_name(mv)
            ));
            colour = colour.opposite();
        }
        if parts.is_empty() {
            "(none)".into()
        } else {
            parts.join(", ")
        }
    }

    fn region_words(&self) -> String {
        match self.located.region_source() {
            RegionSource::Option => "given by --region".into(),
            RegionSource::Marked => "marked in the file (SQ)".into(),
            RegionSource::Inferred {
                frame,
                view,
                closed,
            } => format!(
                "inferred in the frame {}-{} ({}{})",
                frame.0.name(),
                frame.1.name(),
                if *view {
                    "the file's VW"
                } else {
                    "around the stones"
                },
                if *closed {
                    "; its sides close the region"
                } else {
                    ""
                }
            ),
        }
    }

    fn targets_words(&self) -> &'static str {
        match self.located.target_source() {
            TargetSource::Option => "given by --targets",
            TargetSource::Marked => "marked in the file (MA/TR)",
            TargetSource::Walls => {
                "inferred: the safe stones around the region are all the attacker's"
            }
            TargetSource::Comment => "inferred from the file's comment",
            TargetSource::RegionStones => "inferred: the region's stones are all the defender's",
            TargetSource::OpenSides => {
                "inferred: most stones on the frame's sides that face the open board are the \
                 attacker's"
            }
        }
    }

    fn target_names(&self) -> Vec<String> {
        self.problem()
            .targets()
            .iter()
            .map(|p| self.located.vertex(p).name())
            .collect()
    }

    fn empty_points(&self) -> usize {
        let problem = self.problem();
        problem.board().points()
            - problem.stones(Colour::Black).len()
            - problem.stones(Colour::White).len()
    }

    fn text(&self) -> String {
        let located = &self.located;
        let setup = located.setup();
        let attacker = self.attacker();
        let mut out = format!(
            "problem {}: {}x{} board\n",
            self.name, setup.rows, setup.columns
        );
        out.push_str(&format!(
            "region: {} points, {} empty, {}: {}\n",
            located.region().len(),
            self.empty_points(),
            self.region_words(),
            located.region_text()
        ));
        out.push_str(&located.drawing());
        out.push_str(&format!(
            "  @ target, X O stones in play, x o safe stones (alive; a stone played beside one joins it), . empty in play, - outside the region\n\
             attacker {}, defender {}; targets {} ({})\n",
            colour_word(attacker),
            colour_word(attacker.opposite()),
            self.target_names().join(" "),
            self.targets_words()
        ));
        for side in &self.sides {
            let role = if side.first == attacker {
                "attacker"
            } else {
                "defender"
            };
            out.push_str(&format!(
                "\n{} ({role}) first: {}\n",
                colour_word(side.first),
                side.outcome.text()
            ));
            let ko: Vec<String> = KoAssumption::ALL
                .iter()
                .zip(side.engine.starts())
                .map(|(ko, start)| {
                    format!(
                        "{}: {}",
                        ko_words(*ko),
                        match start.0 {
                            Some(plies) => format!("captured in {plies} plies"),
                            None => "not captured".into(),
                        }
                    )
                })
                .collect();
            out.push_str(&format!(
                "  {}; {}\n",
                ko.join("; "),
                side.engine.size_words()
            ));
            out.push_str(&format!(
                "  main line: {}\n",
                self.line_text(side.first, &side.line)
            ));
            out.push_str("  first moves:\n");
            if side.engine.settled() {
                out.push_str("    none searched: a target is unconditionally alive\n");
            }
            let mut order: Vec<&FirstMove> = side.moves.iter().collect();
            order.sort_by_key(|m| !m.correct);
            for m in order {
                let plies = match m.plies {
                    Some(p) => format!(" (captured {p} plies later)"),
                    None => String::new(),
                };
                out.push_str(&format!(
                    "    {:<5} {}{}{}\n",
                    located.move_name(m.mv),
                    m.outcome.text(),
                    plies,
                    if m.correct { "  correct" } else { "" }
                ));
            }
        }
        if self.seki_untested > 0 {
            out.push_str(&format!(
                "\nnote: in {} positions seki was not told from life (too large to solve with the roles swapped): \"alive\" there may be seki\n",
                self.seki_untested
            ));
        }
        out.push_str(&format!(
            "\nsolved in {:.3} s ({})\n",
            self.seconds,
            match self.sides[0].engine {
                Engine::Full(_) => "the full solver: every reachable state",
                Engine::Search(_) => "the proof search",
            }
        ));
        out
    }

    /// The report as a `solve` object (`docs/json.md`).
    fn json(&self) -> Json {
        let located = &self.located;
        let setup = located.setup();
        let (frame, from, closed) = match located.region_source() {
            RegionSource::Option => (None, "option", false),
            RegionSource::Marked => (None, "marked", false),
            RegionSource::Inferred {
                frame,
                view,
                closed,
            } => (
                Some(format!("{}-{}", frame.0.name(), frame.1.name())),
                if *view { "inferred_view" } else { "inferred" },
                *closed,
            ),
        };
        let (safe_black, safe_white) = located.safe_stones();
        let names = |v: &[input::Vertex]| Json::list(v.iter().map(|v| v.name()));
        let region = Json::object()
            .with("from", from)
            .with("frame", frame)
            .with("frame_closed", closed)
            .with("points", located.region_text())
            .with("size", located.region().len())
            .with("empty", self.empty_points());
        let sides = self.sides.iter().map(|side| {
            let starts = side.engine.starts();
            let mut ko = Json::object();
            for (k, assumption) in KoAssumption::ALL.iter().enumerate() {
                ko = ko.with(
                    ko_key(*assumption),
                    Json::object()
                        .with("captured", starts[k].attacker_wins())
                        .with("plies", starts[k].0)
                        .with("states", side.engine.states(k)),
                );
            }
            let moves = side.moves.iter().map(|m| {
                Json::object()
                    .with("point", located.move_name(m.mv))
                    .with("status", m.outcome.key())
                    .with("correct", m.correct)
                    .with(
                        "captured",
                        if m.outcome == Outcome::Unproved {
                            Json::Null
                        } else {
                            Json::list(m.killed)
                        },
                    )
                    .with("plies", m.plies)
            });
            Json::object()
                .with("to_move", json::colour(side.first))
                .with(
                    "role",
                    if side.first == self.attacker() {
                        "attacker"
                    } else {
                        "defender"
                    },
                )
                .with("status", side.outcome.key())
                .with("ko_assumptions", ko)
                .with("main_line", Json::list(self.names(&side.line)))
                .with("moves", Json::list(moves))
        });
        Json::kind("solve")
            .with("problem", self.name.as_str())
            .with("board", format!("{}x{}", setup.rows, setup.columns))
            .with("region", region)
            .with("attacker", json::colour(self.attacker()))
            .with("defender", json::colour(self.attacker().opposite()))
            .with("targets", Json::list(self.target_names()))
            .with(
                "targets_from",
                match located.target_source() {
                    TargetSource::Option => "option",
                    TargetSource::Marked => "marked",
                    TargetSource::Walls => "walls",
                    TargetSource::Comment => "comment",
                    TargetSource::RegionStones => "region_stones",
                    TargetSource::OpenSides => "open_sides",
                },
            )
            .with(
                "safe_stones",
                Json::object()
                    .with("black", names(&safe_black))
                    .with("white", names(&safe_white)),
            )
            .with("seki_untested", self.seki_untested)
            .with("sides", Json::list(sides))
    }
}

fn ko_key(ko: KoAssumption) -> &'static str {
    match ko {
        KoAssumption::Basic => "basic",
        KoAssumption::AttackerIgnoresKo => "attacker_ignores_ko",
        KoAssumption::DefenderIgnoresKo => "defender_ignores_ko",
    }
}

fn ko_words(ko: KoAssumption) -> &'static str {
    match ko {
        KoAssumption::Basic => "basic ko",
        KoAssumption::AttackerIgnoresKo => "attacker ignores ko",
        KoAssumption::DefenderIgnoresKo => "defender ignores ko",
    }
}

/// The most lines (leaves) a solution tree has.
pub(crate) const MAX_TREE_LINES: usize = 64;
/// The most replies of the losing side shown at a node of a correct line.
const MAX_REPLIES: usize = 3;

/// A node of the solution tree: a move, its comment and marks.
struct Node {
    colour: Colour,
    mv: Move,
    comments: Vec<String>,
    marks: &'static str,
    children: Vec<Node>,
}

impl Node {
    fn new(colour: Colour, mv: Move) -> Node {
        Node {
            colour,
            mv,
            comments: Vec::new(),
            marks: "",
            children: Vec::new(),
        }
    }
}

/// The solution tree's builder: the three solutions with the problem's
/// side to play first, and the lines left to use.
struct Tree<'a> {
    solved: &'a Solved,
    walk: Walk<'a>,
    lines_left: usize,
}

impl Tree<'_> {
    /// The comment at the end of a line.
    fn ending(&self, end: End) -> String {
        self.solved.ending(end)
    }

    /// The play from `at` (`colour` to move): the solver's side answers
    /// with its first ranked move, the other side tries up to
    /// `MAX_REPLIES` of its ranked moves while lines are left; each line
    /// ends with a comment saying how.
    fn continuation(
        &mut self,
        at: At,
        colour: Colour,
        solver: Colour,
        path: &mut Vec<At>,
    ) -> Vec<Node> {
        let ranked = self.walk.ranked(at);
        let count = if colour == solver {
            1
        } else {
            let placements = ranked.iter().filter(|m| **m != Move::Pass).count().max(1);
            let extra = placements
                .min(MAX_REPLIES)
                .saturating_sub(1)
                .min(self.lines_left);
            self.lines_left -= extra;
            1 + extra
        };
        let mut nodes = Vec::new();
        for &mv in ranked.iter().take(count) {
            let mut node = Node::new(colour, mv);
            match self.walk.step(at, mv).expect("a ranked move is a move") {
                None => node.comments.push(self.ending(End::Passes)),
                Some(next) if path.contains(&next) => node.comments.push(self.ending(End::Repeats)),
                Some(next) if self.walk.end_at(next).is_some() => {
                    let end = self.walk.end_at(next).expect("an end");
                    node.comments.push(self.ending(end))
                }
                Some(_) if path.len() >= MAX_LINE => node.comments.push(self.ending(End::Cut)),
                Some(next) => {
                    path.push(next);
                    node.children = self.continuation(next, colour.opposite(), solver, path);
                    path.pop();
                }
            }
            nodes.push(node);
        }
        nodes
    }
}

impl Solved {
    /// The comment at the end of a line.
    fn ending(&self, end: End) -> String {
        let attacker = colour_word(self.attacker());
        let defender = colour_word(self.attacker().opposite());
        match end {
            End::Capture => format!("{attacker} has captured the targets."),
            End::Settled => {
                format!("{defender}'s targets are unconditionally alive: they live.")
            }
            End::Passes => format!("Two passes end the game: {defender}'s targets live."),
            End::Repeats => format!(
                "The position repeats: an endless game, which {defender} (the defender) wins."
            ),
            End::Cut => format!("The line stops here, after {MAX_LINE} moves."),
        }
    }
}

fn comment(text: &str) -> String {
    format!("C[{}]", sgf::escape(text))
}

impl Solved {
    /// The solution tree as SGF (see the module's paragraph): every first
    /// move of the side to play; the correct ones continued with at most
    /// `MAX_TREE_LINES` lines in all (the defending or attacking side's
    /// replies, up to `MAX_REPLIES` at a node), each wrong one with one
    /// refutation; each line at most `MAX_LINE` moves.
    fn sgf(&mut self) -> Result<String, String> {
        let located = &self.located;
        let setup = located.setup();
        let side = &self.sides[0];
        let solver = side.first;
        let attacker = self.attacker();
        let aim = if solver == attacker { "kill" } else { "live" };
        let mut root = format!(
            "(;FF[4]CA[UTF-8]GM[1]AP[smallgo:{}]SZ[{}]",
            env!("CARGO_PKG_VERSION"),
            if setup.rows == setup.columns {
                setup.rows.to_string()
            } else {
                format!("{}:{}", setup.columns, setup.rows)
            }
        );
        for property in &setup.info {
            root.push_str(&property.name);
            for value in &property.values {
                root.push_str(&format!("[{}]", sgf::escape(value)));
            }
        }
        for (name, colour) in [("AB", Colour::Black), ("AW", Colour::White)] {
            let stones = setup.stones(colour);
            if !stones.is_empty() {
                root.push_str(name);
                for v in stones {
                    root.push_str(&format!("[{}]", v.sgf(setup.rows)));
                }
            }
        }
        root.push_str(&format!("PL[{}]", solver.letter()));
        root.push_str("SQ");
        for &v in located.region() {
            root.push_str(&format!("[{}]", v.sgf(setup.rows)));
        }
        root.push_str("MA");
        for point in self.problem().targets().iter() {
            root.push_str(&format!("[{}]", located.vertex(point).sgf(setup.rows)));
        }
        let other = &self.sides[1];
        let note = format!(
            "{} to {aim}. Solved exactly by smallgo: with {} first, {}; with {} first, {}. \
             The region is marked SQ, the targets MA. TE marks a correct first move, BM a wrong one.",
            colour_word(solver),
            colour_word(solver),
            side.outcome.text(),
            colour_word(other.first),
            other.outcome.text()
        );
        let text = match &setup.comment {
            Some(own) if !own.trim().is_empty() => format!("{}\n\n{note}", own.trim_end()),
            _ => note,
        };
        root.push_str(&comment(&text));
        let mut firsts: Vec<(usize, &FirstMove)> = side.moves.iter().enumerate().collect();
        firsts.sort_by_key(|(_, m)| !m.correct);
        let mut nodes = Vec::new();
        let report = match &side.engine {
            Engine::Full(report) => report,
            Engine::Search(search) => {
                let lines = &search.lines;
                for (i, m) in firsts {
                    let mut node = first_node(located, solver, m);
                    match &lines[i] {
                        _ if m.outcome == Outcome::Unproved => {}
                        None => node.comments.push(self.ending(End::Passes)),
                        Some((line, end)) if line.is_empty() => {
                            node.comments.push(self.ending(*end))
                        }
                        Some((line, end)) => {
                            node.children = line_nodes(solver.opposite(), line, &self.ending(*end));
                        }
                    }
                    nodes.push(node);
                }
                let mut out = root;
                write_children(&mut out, &nodes, located);
                out.push_str(")\n");
                return Ok(out);
            }
        };
        let mut tree = Tree {
            solved: self,
            walk: Walk {
                solutions: &report.solutions,
            },
            lines_left: MAX_TREE_LINES,
        };
        for (_, m) in firsts {
            let mut node = first_node(located, solver, m);
            let next = tree.walk.step([0; 3], m.mv).expect("a first move");
            match next {
                None => node.comments.push(tree.ending(End::Passes)),
                Some(next) if tree.walk.end_at(next).is_some() => {
                    let end = tree.walk.end_at(next).expect("an end");
                    node.comments.push(tree.ending(end))
                }
                Some(next) if m.correct => {
                    let mut path = vec![[0; 3], next];
                    node.children = tree.continuation(next, solver.opposite(), solver, &mut path);
                }
                Some(next) => {
                    let (line, _, end) = tree.walk.line(next, MAX_LINE);
                    node.children = line_nodes(solver.opposite(), &line, &tree.ending(end));
                }
            }
            nodes.push(node);
        }
        let mut out = root;
        write_children(&mut out, &nodes, located);
        out.push_str(")\n");
        Ok(out)
    }
}

/// A first move's node, marked and commented correct or wrong.
fn first_node(located: &RegionProblem, solver: Colour, m: &FirstMove) -> Node {
    let name = located.move_name(m.mv);
    let result = m.outcome.text();
    let mut node = Node::new(solver, m.mv);
    if m.outcome == Outcome::Unproved {
        node.comments.push(format!(
            "{name}: not proved (the search's budget for a first move ran out)."
        ));
    } else if m.correct {
        node.comments
            .push(format!("Correct: {name} gives {result}."));
        node.marks = "TE[1]";
    } else {
        node.comments.push(format!(
            "Wrong: {name} gives {result}; the refutation follows."
        ));
        node.marks = "BM[1]";
    }
    node
}

/// A single line of nodes, the last with `ending`.
fn line_nodes(first: Colour, line: &[Move], ending: &str) -> Vec<Node> {
    let mut nodes: Vec<Node> = Vec::new();
    for (i, &mv) in line.iter().enumerate().rev() {
        let colour = if i % 2 == 0 { first } else { first.opposite() };
        let mut node = Node::new(colour, mv);
        if i + 1 == line.len() {
            node.comments.push(ending.to_string());
        }
        node.children = nodes;
        nodes = vec![node];
    }
    nodes
}

/// Writes `nodes` as the variations (or the continuation, if one) after
/// a node.
fn write_children(out: &mut String, nodes: &[Node], located: &RegionProblem) {
    let write_node = |out: &mut String, node: &Node| {
        out.push_str(&format!(
            "\n;{}[{}]",
            node.colour.letter(),
            located.move_sgf(node.mv)
        ));
        if !node.comments.is_empty() {
            out.push_str(&comment(&node.comments.join(" ")));
        }
        out.push_str(node.marks);
    };
    match nodes {
        [] => {}
        [only] => {
            write_node(out, only);
            write_children(out, &only.children, located);
        }
        many => {
            for node in many {
                out.push_str("\n(");
                write_node(out, node);
                write_children(out, &node.children, located);
                out.push(')');
            }
        }
    }
}

/// Runs `smallgo solve`.
pub(crate) fn run(arguments: &SolveArguments) -> ExitCode {
    let fail = |message: String| {
        eprintln!("smallgo: solve: {message}");
        ExitCode::from(EXIT_FAILURE)
    };
    let options = InputOptions {
        region: arguments.region.clone(),
        targets: arguments.targets.clone(),
        player: arguments.player,
    };
    let (located, name) = match (&arguments.problem, &arguments.diagram) {
        (Some(path), _) => match input::read_file(path, &options) {
            Ok(located) => (located, path.display().to_string()),
            Err(error) => return fail(error.to_string()),
        },
        (None, Some(diagram)) => match input::from_diagram(diagram, &options) {
            Ok(located) => (located, diagram.clone()),
            Err(error) => return fail(error.to_string()),
        },
        (None, None) => return fail("no problem given".into()),
    };
    let limits = match limits(
        located.problem(),
        arguments.memory,
        arguments.solver,
        arguments.max_nodes,
    ) {
        Ok(limits) => limits,
        Err(message) => return fail(format!("{name}: {message}")),
    };
    let mut solved = match solve(located, name.clone(), limits, arguments.output.is_some()) {
        Ok(solved) => solved,
        Err(message) => {
            let memory = match arguments.memory {
                Some(memory) => format!("the {} of --memory", human_bytes(memory as f64)),
                None => format!(
                    "the {} available",
                    human_bytes(crate::common::host::available_memory().unwrap_or(u64::MAX) as f64)
                ),
            };
            return fail(format!(
                "{name}: {message} ({}); \
                 give a smaller region (--region) or more memory (--memory){}",
                match limits {
                    SolveLimits::Full(_) =>
                        format!("{SOLUTIONS_HELD} solutions are held together within {memory}"),
                    SolveLimits::Search(_) => format!(
                        "the search that stopped ran alone, within {}/{} of {memory}",
                        SEARCH_SHARE.0, SEARCH_SHARE.1
                    ),
                },
                match limits {
                    SolveLimits::Full(_) => ", or try the proof search (--solver search)",
                    SolveLimits::Search(_) => ", or let it expand more states (--max-nodes)",
                }
            ));
        }
    };
    if let Some(output) = &arguments.output {
        if let Err(message) = write_tree(&mut solved, output) {
            return fail(message);
        }
    }
    let written = if arguments.json {
        outln!("{}", solved.json())
    } else {
        outln!("{}", solved.text().trim_end())
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => super::output_failed(&error),
    }
}

fn write_tree(solved: &mut Solved, output: &Path) -> Result<(), String> {
    let text = solved.sgf()?;
    crate::common::files::write_output(output, text.as_bytes())
        .map_err(|error| format!("cannot write {}: {error}", output.display()))
}

/// The largest bound of states (`state_bound`) of a problem `solve`
/// takes on: past it, the problem is refused before any work.
const MAX_STATE_BOUND: f64 = (1u64 << 40) as f64;

/// The limits of a solve within `memory` (default: the memory available,
/// or none if unknown): the full solver with pruning, its six solutions
/// (three ko assumptions, two sides to play first) held together within
/// it, or the proof search within `max_nodes` states each and 7/8 of
/// `memory`, as `solver` says (`auto`: by the bound of states). A
/// problem for the full solver whose bound of states is past
/// `MAX_STATE_BOUND` is refused before any work, with the figures.
fn limits(
    problem: &Problem,
    memory: Option<u64>,
    solver: SolverChoice,
    max_nodes: Option<u64>,
) -> Result<SolveLimits, String> {
    let states = state_bound(problem);
    let search = match solver {
        SolverChoice::Auto => states > AUTO_FULL_BOUND,
        SolverChoice::Full => false,
        SolverChoice::Search => true,
    };
    if !search && states > MAX_STATE_BOUND {
        return Err(format!(
            "the region has {} points ({} outside the target strings): up to {states:.1e} states, \
             more than the 2^40 the full solver takes on; give a smaller region (--region) \
             or try the proof search (--solver search)",
            problem.board().points(),
            free_points(problem),
        ));
    }
    let memory = memory.or_else(crate::common::host::available_memory);
    Ok(if search {
        SolveLimits::Search(SearchLimits {
            max_bytes: memory.map_or(u64::MAX, |limit| limit / SEARCH_SHARE.1 * SEARCH_SHARE.0),
            max_nodes: max_nodes.unwrap_or(DEFAULT_MAX_NODES),
        })
    } else {
        SolveLimits::Full(memory.map_or(Limits::unlimited(), Limits::new))
    })
}

/// What one side to play first came to, for `bench problems --solve`.
pub(crate) struct BenchSide {
    pub(crate) first: Colour,
    /// The status's JSON word (`dead`, `alive`, `seki`, `ko_...`).
    pub(crate) status: &'static str,
    /// The plies of the basic-ko capture, if the attacker captures.
    pub(crate) plies: Option<u32>,
    /// The correct first moves, by name.
    pub(crate) correct: Vec<String>,
    pub(crate) main_line: usize,
}

/// What `bench problems --solve` reports of a solve besides its time.
pub(crate) struct BenchSolve {
    /// Whether the proof search solved it (else the full solver).
    pub(crate) search: bool,
    pub(crate) sides: Vec<BenchSide>,
    pub(crate) seki_untested: usize,
    /// The bytes of the solution tree's SGF text.
    pub(crate) tree_bytes: usize,
}

/// The whole of `smallgo solve`'s work on a located problem, as `run`
/// does it with `--memory memory --max-nodes max_nodes -o` (the solver
/// chosen by `--solver auto`, the solution tree made but not written), for
/// `bench problems --solve` to time.
pub(crate) fn bench(
    located: RegionProblem,
    name: String,
    memory: u64,
    max_nodes: u64,
) -> Result<BenchSolve, String> {
    let limits = limits(
        located.problem(),
        Some(memory),
        SolverChoice::Auto,
        Some(max_nodes),
    )?;
    let mut solved = solve(located, name, limits, true)?;
    let tree_bytes = solved.sgf()?.len();
    let sides = solved
        .sides
        .iter()
        .map(|side| BenchSide {
            first: side.first,
            status: side.outcome.key(),
            plies: side.engine.starts()[0].0,
            correct: side
                .moves
                .iter()
                .filter(|m| m.correct)
                .map(|m| solved.located.move_name(m.mv))
                .collect(),
            main_line: side.line.len(),
        })
        .collect();
    Ok(BenchSolve {
        search: matches!(limits, SolveLimits::Search(_)),
        sides,
        seki_untested: solved.seki_untested,
        tree_bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a side's report says: the status, the start under each ko
    /// assumption, the main line and every first move's result.
    fn said(side: &Side) -> String {
        let moves: Vec<_> = side
            .moves
            .iter()
            .map(|m| (m.mv, m.outcome, m.killed, m.plies, m.correct))
            .collect();
        format!(
            "{:?} {:?} {:?} {:?} {:?}",
            side.first,
            side.outcome,
            side.engine.starts(),
            side.line,
            moves
        )
    }

    /// The two sides solved at once, each within half the memory, say
    /// what they say solved one after the other within the whole, at
    /// memory limits from below to above what the searches need: a side
    /// stopped by its half is solved again alone, a limit too small for
    /// one after the other stops both ways with the same words, and one
    /// of twice the need solves both at once.
    #[test]
    fn the_sides_solved_together_say_what_they_say_one_after_the_other() {
        let problem = Problem::from_diagram(
            "xxxxx\n....x\n....x\nOOOOx\n...Ox",
            Colour::Black,
            &["A2"],
            KoAssumption::Basic,
        )
        .unwrap();
        let unlimited = SearchLimits::unlimited();
        let (_, sides, _) = search_sides(&problem, unlimited, true, false).unwrap();
        let peak = sides
            .iter()
            .map(|side| match &side.engine {
                Engine::Search(found) => found.peak_bytes as u64,
                Engine::Full(_) => unreachable!("searched"),
            })
            .max()
            .unwrap();
        let (mut again, mut stopped, mut at_once) = (0, 0, 0);
        for eighths in [4, 6, 8, 12, 20] {
            let limits = SearchLimits {
                max_bytes: peak * eighths / 8,
                ..unlimited
            };
            let apart = search_sides(&problem, limits, true, false);
            let together = search_sides(&problem, limits, true, true);
            match (apart, together) {
                (Ok((_, apart, 0)), Ok((_, together, n))) => {
                    let said_apart: Vec<String> = apart.iter().map(said).collect();
                    let said_together: Vec<String> = together.iter().map(said).collect();
                    assert_eq!(said_apart, said_together, "{eighths}/8 of {peak} bytes");
                    again += n;
                    at_once += usize::from(n == 0);
                }
                (Err(apart), Err(together)) => {
                    assert_eq!(apart, together, "{eighths}/8 of {peak} bytes");
                    stopped += 1;
                }
                (apart, together) => panic!(
                    "{eighths}/8 of {peak} bytes: one after the other {}, together {}",
                    apart.is_ok(),
                    together.is_ok()
                ),
            }
        }
        eprintln!("{again} sides solved again alone, {stopped} limits too small, {at_once} solved at once");
        assert!(
            again > 0 && stopped > 0 && at_once > 0,
            "{again} {stopped} {at_once}"
        );
    }
}
