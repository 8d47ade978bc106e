//! Seki told from life: a defender living in a position of a problem
//! lives in seki when it cannot drive the attacker's fighting stones out
//! of the region, which the same position solved with the roles swapped
//! says (the attacker's stones as the targets, basic ko, the objective
//! `Objective::Clear`: a target string that runs out to a safe stone
//! leaves the fight as a captured one does, and a capture of the
//! defender's targets ends the test). The tests are remembered by
//! position and left out, counted, when the swapped problem's bound of
//! states (`state_bound`, also the bound `smallgo solve` refuses a
//! problem by before any work) is too large or its solve passes the
//! memory the tests are given, or, where the problem itself is searched
//! (`search`), when the swapped problem's proof search passes its limits.
//! The definition is that of docs/life-and-death.md.

use std::collections::{HashMap, HashSet};

use crate::problem::search::{Search, SearchLimits, SearchTooLarge};
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
/// those left out as too large; with `by_search`, each test is a
/// proof search within its limits instead of a full solve, and a full
/// solve is made within `max_bytes` (`set_max_bytes`; no limit by
/// default).
pub(crate) struct SekiTests {
    done: HashMap<StateKey, bool>,
    skipped: HashSet<StateKey>,
    /// Whether a search of a test left out reached its memory limit.
    stopped_by_memory: bool,
    search: Option<SearchLimits>,
    max_bytes: u64,
}

impl Default for SekiTests {
    fn default() -> SekiTests {
        SekiTests {
            done: HashMap::new(),
            skipped: HashSet::new(),
            stopped_by_memory: false,
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
        self.skipped.len()
    }

    /// Whether a test by the proof search was left out at its memory
    /// limit (one left out at its limit of states would be left out with
    /// any memory).
    pub(crate) fn stopped_by_memory(&self) -> bool {
        self.stopped_by_memory
    }

    /// Takes in the tests `other` made (another side's, solved beside
    /// this one), a position left out by one and made by the other
    /// counted as made.
    pub(crate) fn merge(&mut self, other: SekiTests) {
        self.stopped_by_memory |= other.stopped_by_memory;
        for (key, seki) in other.done {
            let left_out = other.skipped.contains(&key);
            let made_here = self.done.contains_key(&key) && !self.skipped.contains(&key);
            if made_here || (left_out && self.done.contains_key(&key)) {
                continue;
            }
            self.done.insert(key, seki);
            if left_out {
                self.skipped.insert(key);
            } else {
                self.skipped.remove(&key);
            }
        }
    }
}

/// The largest state bound (`state_bound`) of a problem solved with the
/// roles swapped to tell seki from life; a larger one is left out, and
/// the life stays "alive", with a note.
const MAX_SEKI_BOUND: f64 = 2e7;

/// Whether the defender of `problem`, living in the state `key` (of a
/// solution of `problem`; its ko and passes do not count), lives there in
/// seki: the attacker has stones in the region that the defender cannot
/// drive out (the same position solved with the roles swapped: the
/// attacker's stones as the targets, the same player to move, basic ko).
/// Without attacker stones in the region it is life; the attacker's
/// stones joined to a safe stone of theirs are not in the region's fight
/// (they are the living wall), so they do not count. In the swapped
/// problem a fighting string that runs out to a safe stone leaves the
/// fight as a captured one does, while a capture of the defender's
/// targets ends it as the attacker's (`Objective::Clear`): the defender
/// must drive the attacker's stones out and live.
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
    )
    .and_then(|swapped| swapped.to_clear(PointSet(key.targets)));
    let seki = match swapped {
        Ok(swapped) if tests.search.is_some() => {
            let limits = tests.search.expect("search limits");
            let won = Search::new(&swapped, limits).and_then(|mut search| {
                let start = search.start();
                search.wins(&start)
            });
            match won {
                Ok(won) => !won,
                Err(error) => {
                    tests.skipped.insert(key);
                    tests.stopped_by_memory |= matches!(error, SearchTooLarge::Memory { .. });
                    false
                }
            }
        }
        Ok(swapped) if state_bound(&swapped) <= MAX_SEKI_BOUND => {
            let limits = Limits::new(tests.max_bytes).with_prune(false);
            match Solution::with_limit(&swapped, limits) {
                Ok(solution) => !solution.start().attacker_wins(),
                Err(_) => {
                    tests.skipped.insert(key);
                    false
                }
            }
        }
        Ok(_) => {
            tests.skipped.insert(key);
            false
        }
        Err(_) => false,
    };
    tests.done.insert(key, seki);
    seki
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::tests::{random_problem_with_safe_stones, random_shape};
    use crate::tests::support::Rng;

    /// White lives with two eyes under Black's living wall (the safe
    /// stones on top); Black's stone on B3 is one step from the wall.
    /// White cannot capture it, since Black connects when threatened, but
    /// it is no stone living in seki: the swapped problem (Black's stone
    /// the target) is White's where a stone that runs out leaves the
    /// fight, and Black's where it stands for good. So White lives, not in
    /// seki, whoever moves first, by the full solve and the proof search
    /// alike.
    #[test]
    fn a_stone_that_can_run_to_its_wall_makes_no_seki() {
        let diagram = "xxx\n...\n.X.\nOOO\n.O.";
        for to_move in [Colour::Black, Colour::White] {
            let problem =
                Problem::from_diagram(diagram, to_move, &["B2"], KoAssumption::Basic).unwrap();
            let solution = Solution::new(&problem);
            assert!(!solution.start().attacker_wins(), "{to_move:?}");
            let start = solution.key(0);
            assert!(!seki_at(&problem, start, &mut SekiTests::default()));
            let mut by_search = SekiTests::by_search(SearchLimits::unlimited());
            assert!(!seki_at(&problem, start, &mut by_search));
            let swapped =
                Problem::from_diagram(diagram, to_move, &["B3"], KoAssumption::Basic).unwrap();
            let stays = Solution::new(&swapped).start().attacker_wins();
            let keep = problem.stones(Colour::White);
            let clearing = swapped.to_clear(keep).unwrap();
            let leaves = Solution::new(&clearing).start().attacker_wins();
            assert!(!stays && leaves, "{to_move:?}");
        }
    }

    /// Merging two sides' tests: a position made on either side keeps
    /// that result, one left out on both stays left out and is counted
    /// once.
    #[test]
    fn merged_tests_keep_what_either_side_made() {
        let problem = Problem::from_diagram(
            "xxx\n...\n.X.\nOOO\n.O.",
            Colour::Black,
            &["B2"],
            KoAssumption::Basic,
        )
        .unwrap();
        let key = |passes: u8| StateKey {
            passes,
            ..StateKey::start(&problem)
        };
        let (made_here, made_there, left_out_both, only_there) = (key(0), key(1), key(2), key(3));
        let mut here = SekiTests::default();
        here.done.insert(made_here, true);
        here.done.insert(made_there, false);
        here.skipped.insert(made_there);
        here.done.insert(left_out_both, false);
        here.skipped.insert(left_out_both);
        let mut there = SekiTests::default();
        there.done.insert(made_here, false);
        there.skipped.insert(made_here);
        there.done.insert(made_there, true);
        there.done.insert(left_out_both, false);
        there.skipped.insert(left_out_both);
        there.done.insert(only_there, true);
        here.merge(there);
        assert!(here.done[&made_here]);
        assert!(here.done[&made_there]);
        assert!(here.done[&only_there]);
        assert_eq!(here.skipped(), 1);
        assert!(here.skipped.contains(&left_out_both));
    }

    /// On 150 random problems with safe stones, every state where the
    /// defender lives under basic ko is told seki or life alike by the
    /// seki test's proof search and by the full solve of the swapped
    /// problem; both answers occur, and no test is left out.
    #[test]
    fn seki_by_the_search_agrees_with_seki_by_the_full_solver() {
        let mut rng = Rng::new(0x5e61_a9ee);
        let (mut problems, mut asked, mut seki) = (0, 0, 0);
        while problems < 150 {
            let diagram = random_shape(&mut rng, 4, 4, 10);
            let Some(problem) = random_problem_with_safe_stones(&mut rng, &diagram) else {
                continue;
            };
            let solution = Solution::new(&problem);
            let mut by_search = SekiTests::by_search(SearchLimits::unlimited());
            let mut by_full = SekiTests::default();
            for i in 0..solution.len() {
                if solution.status(i).attacker_wins() {
                    continue;
                }
                let key = solution.key(i);
                let searched = seki_at(&problem, key, &mut by_search);
                let solved = seki_at(&problem, key, &mut by_full);
                assert_eq!(searched, solved, "{diagram} {problem:?} {key:?}");
                asked += 1;
                seki += usize::from(solved);
            }
            assert_eq!(by_search.skipped() + by_full.skipped(), 0, "{diagram}");
            problems += 1;
        }
        assert!(seki > 0 && seki < asked, "{seki} of {asked}");
        eprintln!("{asked} living states told, {seki} of them seki");
    }
}
