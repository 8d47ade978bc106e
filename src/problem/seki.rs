//! Seki told from life: a defender living in a position of a problem
//! lives in seki when the attacker has stones in the region that the
//! defender cannot capture either, which the same position solved with
//! the roles swapped (the attacker's stones as the targets, basic ko)
//! says. The tests are remembered by position and left out, counted, when
//! the swapped problem's bound of states (`state_bound`, also the bound
//! `smallgo solve` refuses a problem by before any work) is too large or
//! its solve passes the memory the tests are given, or, where the problem
//! itself is searched (`search`), when the swapped problem's proof search
//! passes its limits.
//! The definition is that of docs/life-and-death.md.

use std::collections::HashMap;

use crate::problem::search::{Search, SearchLimits};
use crate::problem::solve::{Limits, Solution, StateKey};
use crate::problem::{KoAssumption, Problem};
use crate::rules::board::PointSet;
use crate::rules::colour::Colour;

/// An upper bound of a problem's states, before any work. While a target
/// string stands, its points hold it; so with `f` points outside the
/// target strings, the stones are at most `3^f` times, for each target
/// string but the last to go, its points standing or `3^k` ways refilled;
/// either side to move, after a pass or not, with one of at most `f`
/// ko points or none (`4 (f + 1)`), plus the captures (`f + 1`, the
/// attacker having moved).
pub(crate) fn state_bound(problem: &Problem) -> f64 {
    let board = problem.board();
    let defender = problem.stones(problem.defender());
    let mut pending = problem.targets();
    let mut covered = PointSet::EMPTY;
    let mut sizes = Vec::new();
    while let Some(point) = pending.first() {
        let string = board.flood(PointSet::single(point), defender);
        pending = pending - string;
        covered |= string;
        sizes.push(string.len() as i32);
    }
    sizes.sort_unstable();
    sizes.pop();
    let free = (board.points() - covered.len() - problem.safe().len()) as i32;
    let refills: f64 = sizes.iter().map(|&k| 1.0 + 3f64.powi(k)).product();
    5.0 * (free as f64 + 1.0) * 3f64.powi(free) * refills
}

/// The points of the region outside the target strings (safe stones are
/// not in the region).
pub(crate) fn free_points(problem: &Problem) -> usize {
    let board = problem.board();
    let strings = board.flood(problem.targets(), problem.stones(problem.defender()));
    board.points() - strings.len() - problem.safe().len()
}

/// The seki tests made so far (by the position, with no ko or pass), and
/// how many were left out as too large; with `by_search`, each test is a
/// proof search within its limits instead of a full solve, and a full
/// solve is made within `max_bytes` (`set_max_bytes`; no limit by
/// default).
pub(crate) struct SekiTests {
    done: HashMap<StateKey, bool>,
    skipped: usize,
    search: Option<SearchLimits>,
    max_bytes: u64,
}

impl Default for SekiTests {
    fn default() -> SekiTests {
        SekiTests {
            done: HashMap::new(),
            skipped: 0,
            search: None,
            max_bytes: u64::MAX,
        }
    }
}

impl SekiTests {
    /// Tests made by the proof search, each within `limits`; one past
    /// them is left out and counted.
    pub(crate) fn by_search(limits: SearchLimits) -> SekiTests {
        SekiTests {
            search: Some(limits),
            ..SekiTests::default()
        }
    }

    /// The memory each full solve of a test may hold from now on; one that
    /// needs more is left out and counted.
    pub(crate) fn set_max_bytes(&mut self, max_bytes: u64) {
        self.max_bytes = max_bytes;
    }

    /// How many tests were left out as too large (`MAX_SEKI_BOUND`).
    pub(crate) fn skipped(&self) -> usize {
        self.skipped
    }
}

/// The largest state bound (`state_bound`) of a problem solved with the
/// roles swapped to tell seki from life; a larger one is left out, and
/// the life stays "alive", with a note.
const MAX_SEKI_BOUND: f64 = 2e7;

/// Whether the defender of `problem`, living in the state `key` (of a
/// solution of `problem`; its ko and passes do not count), lives there in
/// seki: the attacker has stones in the region that the
/// defender cannot capture either (the same position solved with the
/// roles swapped: the attacker's stones as the targets, the same player
/// to move, basic ko). Without attacker stones in the region it is life;
/// the attacker's stones joined to a safe stone of theirs are not in the
/// region's fight (they are the living wall), so they do not count.
pub(crate) fn seki_at(problem: &Problem, key: StateKey, tests: &mut SekiTests) -> bool {
    let attacker = PointSet(key.attacker);
    let fighting = attacker - problem.safe() - problem.joined_to_safe(attacker);
    if fighting.is_empty() {
        return false;
    }
    let key = StateKey {
        passes: 0,
        ko: u8::MAX,
        ..key
    };
    if let Some(&seki) = tests.done.get(&key) {
        return seki;
    }
    let defender = problem.defender();
    let (black, white) = match defender {
        Colour::Black => (key.defender, key.attacker),
        Colour::White => (key.attacker, key.defender),
    };
    let to_move = if key.attacker_to_move {
        defender.opposite()
    } else {
        defender
    };
    let swapped = Problem::new(
        *problem.board(),
        PointSet(black),
        PointSet(white),
        to_move,
        fighting,
        KoAssumption::Basic,
    );
    let seki = match swapped {
        Ok(swapped) if tests.search.is_some() => {
            let limits = tests.search.expect("search limits");
            let won = Search::new(&swapped, limits).and_then(|mut search| {
                let start = search.start();
                search.wins(&start)
            });
            match won {
                Ok(won) => !won,
                Err(_) => {
                    tests.skipped += 1;
                    false
                }
            }
        }
        Ok(swapped) if state_bound(&swapped) <= MAX_SEKI_BOUND => {
            let limits = Limits::new(tests.max_bytes).with_prune(false);
            match Solution::with_limit(&swapped, limits) {
                Ok(solution) => !solution.start().attacker_wins(),
                Err(_) => {
                    tests.skipped += 1;
                    false
                }
            }
        }
        Ok(_) => {
            tests.skipped += 1;
            false
        }
        Err(_) => false,
    };
    tests.done.insert(key, seki);
    seki
}
