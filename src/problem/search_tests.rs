//! The proof search against the full solver (`solve`, itself checked
//! against a brute force in `tests`): on random problems under every ko
//! assumption, the value and distance of the start, of every first move
//! and of every state the solver enumerates; the verdicts; the main line;
//! the limits. A search that stores the losses resting on a repetition of
//! an ancestor is shown to give wrong values on the same problems, so the
//! comparison can fail.

use crate::problem::search::{
    main_line, Options, Order, Repetitions, Search, SearchLimits, SearchReport, SearchTooLarge,
};
use crate::problem::solve::{Solution, StateKey, Status};
use crate::problem::tests::{assert_killed_as_the_full_solver, random_problem, random_shape};
use crate::problem::{KoAssumption, KoReport, Problem};
use crate::rules::colour::Colour;
use crate::rules::moves::Move;
use crate::tests::support::Rng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Random problems on random shapes of up to ten points.
fn problems(seed: u64, count: usize) -> Vec<(String, Problem)> {
    let mut rng = Rng::new(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let diagram = match found.len() % 3 {
            0 => random_shape(&mut rng, 4, 4, 10),
            1 => random_shape(&mut rng, 3, 4, 10),
            _ => random_shape(&mut rng, 3, 4, 8),
        };
        if let Some(problem) = random_problem(&mut rng, &diagram, KoAssumption::Basic) {
            found.push((diagram, problem));
        }
    }
    found
}

/// What the searches of `differences` did, summed: the rounds of search,
/// the calls that needed more than one, and the provisional losses the
/// closures left out.
#[derive(Default)]
struct Work {
    nodes: u64,
    rounds: u64,
    reopened: u64,
    fallbacks: u64,
}

/// The states of `problem` where the search's value (won or not, and
/// with `distances` the distance) differs from the full solver's: the
/// start and every first move first, then every state the solver
/// enumerates, all asked of one search in turn.
fn differences(
    problem: &Problem,
    options: Options,
    store_dependent: bool,
    distances: bool,
    work: &mut Work,
) -> usize {
    let full = Solution::new(problem);
    let mut search = Search::with_options(problem, SearchLimits::unlimited(), options).unwrap();
    if store_dependent {
        search.store_dependent_losses();
    }
    let wrong = search.deep(|search| compare(&full, search, distances));
    work.nodes += search.nodes();
    work.rounds += search.rounds();
    work.reopened += search.reopened();
    work.fallbacks += search.fallbacks();
    wrong
}

fn compare(full: &Solution, search: &mut Search, distances: bool) -> usize {
    let mut wrong = 0;
    let start = search.start();
    assert_eq!(start, full.key(0));
    let value = |search: &mut Search, i: usize| -> Status {
        let key = full.key(i);
        if distances {
            search.status(&key).unwrap()
        } else {
            Status(search.wins(&key).unwrap().then_some(0))
        }
    };
    let same = |a: Status, b: Status| {
        if distances {
            a == b
        } else {
            a.attacker_wins() == b.attacker_wins()
        }
    };
    wrong += usize::from(!same(value(search, 0), full.start()));
    // Where a target is unconditionally alive at the start, the search
    // has no move (the unpruned solver searches them, all lost).
    let firsts = if search.is_settled(&start) {
        assert!(!full.start().attacker_wins());
        Vec::new()
    } else {
        full.first_moves()
    };
    let moves = search.moves(&start);
    assert_eq!(
        moves.iter().map(|m| m.0).collect::<Vec<Move>>(),
        firsts.iter().map(|m| m.0).collect::<Vec<Move>>()
    );
    for ((_, child), (_, status)) in moves.iter().zip(&firsts) {
        let value = match child {
            None => Status(None),
            Some(child) if distances => search.status(child).unwrap(),
            Some(child) => Status(search.wins(child).unwrap().then_some(0)),
        };
        wrong += usize::from(!same(value, *status));
    }
    for i in 0..full.len() {
        wrong += usize::from(!same(value(search, i), full.status(i)));
    }
    wrong
}

/// The closure's two orders: proof numbers (the default) and depth first.
const CLOSURE: [Options; 2] = [
    Options {
        repetitions: Repetitions::Closure,
        order: Order::ProofNumbers,
    },
    Options {
        repetitions: Repetitions::Closure,
        order: Order::DepthFirst,
    },
];

const ON_PATH: Options = Options {
    repetitions: Repetitions::OnPath,
    order: Order::DepthFirst,
};

/// On 300 random problems under each ko assumption, the search (by proof
/// numbers and depth first) gives every state the full solver's value
/// and distance: the start, each first move, and every state the solver
/// enumerates. Some of its closures leave provisional losses out (they
/// rested on a repetition that a later win undid), so that path is taken
/// too.
#[test]
fn the_search_agrees_with_the_full_solver_on_random_problems() {
    let (mut states, mut won, mut kos) = (0, 0, 0);
    let mut work = [Work::default(), Work::default()];
    for (diagram, problem) in problems(0x5ea2_c401, 300) {
        let mut killed = [false; 3];
        for (k, ko) in KoAssumption::ALL.into_iter().enumerate() {
            let problem = problem.with_ko(ko);
            for (options, work) in CLOSURE.iter().zip(&mut work) {
                assert_eq!(
                    differences(&problem, *options, false, true, work),
                    0,
                    "{options:?} {diagram} {problem:?}"
                );
            }
            let full = Solution::new(&problem);
            states += full.len();
            killed[k] = full.start().attacker_wins();
            won += usize::from(killed[k]);
        }
        kos += usize::from(killed[1] != killed[2]);
    }
    assert!(won > 100 && won < 800, "{won}");
    assert!(kos > 0, "no ko among the problems");
    eprintln!("{states} states compared, {won} starts won, {kos} kos");
    for (options, work) in CLOSURE.iter().zip(&work) {
        assert!(work.reopened > 0, "{options:?}: no closure left a loss out");
        if options.order == Order::ProofNumbers {
            assert!(
                work.fallbacks > 0,
                "no state left to the depth-first search"
            );
        }
        eprintln!(
            "{:?}: {} states expanded, {} rounds, {} provisional losses searched again, \
             {} states left to the depth-first search",
            options.order, work.nodes, work.rounds, work.reopened, work.fallbacks
        );
    }
}

/// The numbers `0..len` in a random order.
fn shuffled(rng: &mut Rng, len: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    for i in (1..len).rev() {
        order.swap(i, rng.below(i as u64 + 1) as usize);
    }
    order
}

/// The bounds `within` stores (the fail-soft bounds of each search to a
/// depth, kept in the table and used by later searches to other depths)
/// answer "does the attacker capture within `d` plies?" as the full
/// solver's distances do: on 40 random problems under each ko
/// assumption, every state the solver enumerates is asked at a random
/// depth around its distance, in a random order, of one search, without
/// its value proved first; then its exact distance (`status`).
#[test]
fn the_bounds_of_the_distances_agree_with_the_full_solver_at_every_depth() {
    let mut rng = Rng::new(0x0d15_7a9c);
    let (mut asked, mut captured) = (0, 0);
    for (diagram, problem) in problems(0x00b0_d5e7, 40) {
        for ko in KoAssumption::ALL {
            let problem = problem.with_ko(ko);
            let full = Solution::new(&problem);
            let mut search = Search::new(&problem, SearchLimits::unlimited()).unwrap();
            let order = shuffled(&mut rng, full.len());
            for &i in &order {
                let key = full.key(i);
                let distance = full.status(i).0;
                let d = match distance {
                    Some(d) => (d + 4).saturating_sub(rng.below(9) as u32),
                    None => rng.below(12) as u32,
                };
                let within = search.wins_within(&key, d).unwrap();
                assert_eq!(
                    within,
                    distance.is_some_and(|distance| distance <= d),
                    "{diagram} {ko:?} {key:?} within {d}: distance {distance:?}"
                );
                asked += 1;
                captured += usize::from(within);
            }
            for &i in order.iter().rev() {
                let key = full.key(i);
                assert_eq!(
                    search.status(&key).unwrap(),
                    full.status(i),
                    "{diagram} {ko:?} {key:?}"
                );
            }
        }
    }
    assert!(
        captured > 1000 && asked - captured > 1000,
        "{captured} of {asked}"
    );
    eprintln!("{asked} states asked at a depth, {captured} captured within it");
}

/// The distance found by searches to a depth alone (`Search::distance`,
/// no proof search first) is the full solver's, and none where the
/// attacker never captures: on 40 random problems under each ko
/// assumption, every state the solver enumerates is asked of one search,
/// in a random order; and the start alone of a new search, with nothing
/// stored to help it.
#[test]
fn the_distance_by_depths_alone_agrees_with_the_full_solver() {
    let mut rng = Rng::new(0x0d15_7a9c_e5ed);
    let (mut asked, mut captured) = (0, 0);
    for (diagram, problem) in problems(0x0de9_7a15, 40) {
        for ko in KoAssumption::ALL {
            let problem = problem.with_ko(ko);
            let full = Solution::new(&problem);
            let mut fresh = Search::new(&problem, SearchLimits::unlimited()).unwrap();
            let start = fresh.start();
            let index = (0..full.len())
                .find(|&i| full.key(i) == start)
                .expect("the start is enumerated");
            assert_eq!(
                fresh.distance(&start).unwrap(),
                full.status(index).0,
                "{diagram} {ko:?} start"
            );
            let mut search = Search::new(&problem, SearchLimits::unlimited()).unwrap();
            let order = shuffled(&mut rng, full.len());
            for &i in &order {
                let key = full.key(i);
                let distance = search.distance(&key).unwrap();
                assert_eq!(distance, full.status(i).0, "{diagram} {ko:?} {key:?}");
                asked += 1;
                captured += usize::from(distance.is_some());
            }
        }
    }
    assert!(
        captured > 1000 && asked - captured > 1000,
        "{captured} of {asked}"
    );
    eprintln!("{asked} states asked, {captured} captured");
}

/// A search called off (`Search::call_off_when`, the flag set) stops at
/// once with `CalledOff`; what it stored is sound, and once the flag is
/// cleared the same search gives every state the full solver's value and
/// distance (on 20 random problems under basic ko, the flag set again
/// before every other state).
#[test]
fn a_search_called_off_stops_and_stays_sound() {
    let flag = Arc::new(AtomicBool::new(false));
    let mut called_off = 0;
    for (diagram, problem) in problems(0x0ca1_10ff, 20) {
        let full = Solution::new(&problem);
        let mut search = Search::new(&problem, SearchLimits::unlimited()).unwrap();
        search.call_off_when(Some(flag.clone()));
        for i in 0..full.len() {
            let key = full.key(i);
            if i % 2 == 0 && !key.is_capture() {
                flag.store(true, Ordering::Relaxed);
                let error = search.status(&key);
                // A state the table has settled is answered with no search.
                if let Err(error) = error {
                    assert!(
                        matches!(error, SearchTooLarge::CalledOff { .. }),
                        "{diagram}: {error}"
                    );
                    called_off += 1;
                }
                flag.store(false, Ordering::Relaxed);
            }
            assert_eq!(
                search.status(&key).unwrap(),
                full.status(i),
                "{diagram} {key:?}"
            );
        }
    }
    assert!(called_off > 100, "{called_off} called off");
}

/// The earlier treatment of repetitions (`Repetitions::OnPath`) gives the
/// same values on the first 100 of those problems, with more states
/// expanded than the closure's.
#[test]
fn the_search_on_path_agrees_with_the_full_solver() {
    let (mut on_path, mut closure) = (Work::default(), Work::default());
    for (diagram, problem) in problems(0x5ea2_c401, 300).into_iter().take(100) {
        for ko in KoAssumption::ALL {
            let problem = problem.with_ko(ko);
            let wrong = differences(&problem, ON_PATH, false, true, &mut on_path);
            assert_eq!(wrong, 0, "{diagram} {problem:?}");
            differences(&problem, CLOSURE[1], false, true, &mut closure);
        }
    }
    assert!(on_path.nodes > closure.nodes);
    eprintln!(
        "states expanded: on the path {}, closure {}",
        on_path.nodes, closure.nodes
    );
}

/// The report of the three searches gives the same verdict, the same
/// status under each assumption and the same result of every first move
/// as the full solver's three solutions.
#[test]
fn the_search_report_agrees_with_the_ko_report() {
    for (diagram, problem) in problems(0x7e90_12ab, 200) {
        let full = KoReport::new(&problem);
        let report = SearchReport::new(&problem, SearchLimits::unlimited(), true).unwrap();
        assert_eq!(report.verdict, full.verdict, "{diagram}");
        for k in 0..3 {
            assert_eq!(report.start[k], full.solutions[k].start(), "{diagram} {k}");
        }
        if report.settled {
            assert!(report.moves.is_empty());
            continue;
        }
        let firsts = full.solutions[0].first_moves();
        assert_eq!(report.moves.len(), firsts.len(), "{diagram}");
        for (searched, (mv, status)) in report.moves.iter().zip(firsts) {
            assert_eq!(searched.mv, mv);
            assert_eq!(searched.plies, status.0, "{diagram} {mv:?}");
            assert_killed_as_the_full_solver(&full, mv, searched.killed, &diagram);
        }
    }
}

/// Storing a loss that rests on a repetition of an ancestor as a loss is
/// unsound: such a search (the closure's provisional losses taken as
/// proved, with no closure; or the earlier treatment's kept apart stored
/// as losses) gives some states of the same random problems a wrong
/// value, which the comparison above would catch.
#[test]
fn storing_losses_that_rest_on_a_repetition_is_caught() {
    for options in [CLOSURE[0], CLOSURE[1], ON_PATH] {
        let mut wrong = 0;
        let mut work = Work::default();
        for (_, problem) in problems(0x5ea2_c401, 300) {
            for ko in KoAssumption::ALL {
                wrong += differences(&problem.with_ko(ko), options, true, false, &mut work);
            }
        }
        assert!(wrong > 0, "{options:?}: no wrong value");
        eprintln!("{options:?}: {wrong} wrong values");
    }
}

/// The main line of a won start captures the targets in as many plies as
/// the distance; that of a lost start ends without a capture, by two
/// passes or a settled state.
#[test]
fn the_main_line_is_a_shortest_win_or_ends_in_life() {
    for (diagram, problem) in problems(0x11e5_0001, 150) {
        let mut search = Search::new(&problem, SearchLimits::unlimited()).unwrap();
        let start = search.start();
        let status = search.status(&start).unwrap();
        let line = main_line(&mut search, &start, 200).unwrap();
        let mut key = start;
        let mut ended = false;
        for (i, &mv) in line.iter().enumerate() {
            let next = search
                .moves(&key)
                .into_iter()
                .find(|&(m, _)| m == mv)
                .unwrap_or_else(|| panic!("{diagram}: {mv:?} is no move"));
            match next.1 {
                Some(child) => key = child,
                None => {
                    assert_eq!(i + 1, line.len());
                    ended = true;
                }
            }
        }
        match status.0 {
            Some(d) => {
                assert_eq!(line.len(), d as usize, "{diagram}");
                assert!(key.is_capture(), "{diagram}");
            }
            None => {
                assert!(!key.is_capture(), "{diagram}");
                assert!(
                    ended || search.is_settled(&key) || line.len() < 200,
                    "{diagram}"
                );
            }
        }
    }
}

/// A search past its node or memory limit stops with its figures (on a
/// capturing race of 24 empty points that neither fits), and a search
/// within room enough proves the value (of a smaller problem).
#[test]
fn a_search_past_its_limits_stops_with_figures() {
    let race = |diagram: &str| {
        Problem::from_diagram(diagram, Colour::Black, &["A2"], KoAssumption::Basic).unwrap()
    };
    let problem = race(".......#\n.......#\n.......#\nOOOOOOO#\n...OOOO#");
    let limits = SearchLimits {
        max_nodes: 50,
        ..SearchLimits::unlimited()
    };
    let mut search = Search::new(&problem, limits).unwrap();
    let start = search.start();
    let error = search.wins(&start).unwrap_err();
    assert!(
        matches!(error, SearchTooLarge::Nodes { nodes: 51, .. }),
        "{error}"
    );
    assert!(error.to_string().contains("51"), "{error}");
    let limits = SearchLimits {
        max_bytes: 1 << 16,
        ..SearchLimits::unlimited()
    };
    let mut search = Search::new(&problem, limits).unwrap();
    let error = search.wins(&start).unwrap_err();
    let SearchTooLarge::Memory { bytes, limit, .. } = error else {
        panic!("{error}");
    };
    assert!(bytes <= limit && limit == 1 << 16);
    assert!(error.to_string().contains("KiB"), "{error}");
    let problem = race("....##\n....##\nOOOOOO\n.X...O");
    let mut search = Search::new(&problem, SearchLimits::unlimited()).unwrap();
    let start = search.start();
    let won = search.wins(&start).unwrap();
    assert_eq!(won, Solution::new(&problem).start().attacker_wins());
}

/// The search of a race of 24 empty points (a straight three with three
/// open rows, which lives, Black to kill, basic ko) within `max_nodes`
/// states, and its start.
fn race_of_24_empty_points(max_nodes: u64) -> (Search, StateKey) {
    let problem = Problem::from_diagram(
        ".......#\n.......#\n.......#\nOOOOOOO#\n...OOOO#",
        Colour::Black,
        &["A2"],
        KoAssumption::Basic,
    )
    .unwrap();
    let limits = SearchLimits {
        max_nodes,
        ..SearchLimits::unlimited()
    };
    let search = Search::new(&problem, limits).unwrap();
    let start = search.start();
    (search, start)
}

/// The proof-number search proves the race of 24 empty points above (a
/// straight three with three open rows) in a few hundred thousand
/// states: the states near the start, which it enters again at every
/// rise of its thresholds, are not handed to the depth-first search,
/// which did not prove one of them in 60 M states.
#[test]
fn the_proof_numbers_prove_a_race_of_24_empty_points() {
    let (mut search, start) = race_of_24_empty_points(1_000_000);
    assert_eq!(search.wins(&start), Ok(false), "{} states", search.nodes());
    eprintln!(
        "{} states expanded, {} kept",
        search.nodes(),
        search.entries()
    );
}

/// The line after each first move of a race of 24 empty points (a
/// straight three with three open rows, which lives): the defender's pass,
/// which a line tries first, gives the attacker two moves in a row, and
/// proving that the group still lives then takes far more states than the
/// defender's reply the first move's proof found; the line takes that
/// reply once the pass's proof runs past its budget (1.24 M states in all;
/// 1.76 M when each defender move is proved in full). Each defender move
/// of each line leaves a position the attacker does not win.
#[test]
fn the_lines_of_a_race_of_24_empty_points_take_the_proved_defence() {
    let (mut search, start) = race_of_24_empty_points(1_500_000);
    assert_eq!(search.wins(&start), Ok(false));
    for (mv, child) in search.moves(&start) {
        let Some(child) = child else { continue };
        let line = main_line(&mut search, &child, 60)
            .unwrap_or_else(|error| panic!("after {mv:?}: {error}"));
        let mut at = child;
        for (i, &reply) in line.iter().enumerate() {
            let Some((_, Some(next))) = search.moves(&at).into_iter().find(|&(m, _)| m == reply)
            else {
                break;
            };
            if i % 2 == 0 {
                assert_eq!(search.wins(&next), Ok(false), "after {mv:?}, {line:?}");
            }
            at = next;
        }
    }
    eprintln!(
        "{} states expanded, {} kept",
        search.nodes(),
        search.entries()
    );
}

/// `KoSearch` with a small budget for each first move: a move whose
/// proof runs past it is reported as unproved, with no result, and the
/// solve goes on; every other move, and the start, get the full solver's
/// results (captured under each assumption, distance with basic ko).
#[test]
fn a_first_move_past_its_budget_is_unproved_and_the_others_exact() {
    use crate::problem::KoSearch;
    let (mut unproved, mut proved) = (0, 0);
    for (diagram, problem) in problems(0xb0d6_e7a1, 150) {
        let full = KoReport::new(&problem);
        let found = KoSearch::with_budget(&problem, SearchLimits::unlimited(), 40).unwrap();
        assert_eq!(found.verdict, full.verdict, "{diagram}");
        for k in 0..3 {
            assert_eq!(found.start[k], full.solutions[k].start(), "{diagram} {k}");
        }
        if found.settled {
            continue;
        }
        let firsts = full.solutions[0].first_moves();
        assert_eq!(found.moves.len(), firsts.len(), "{diagram}");
        for (searched, (mv, status)) in found.moves.iter().zip(firsts) {
            assert_eq!(searched.mv, mv);
            if searched.unproved {
                assert_eq!(searched.killed, [false; 3], "{diagram} {mv:?}");
                assert_eq!(searched.plies, None, "{diagram} {mv:?}");
                unproved += 1;
                continue;
            }
            proved += 1;
            assert_eq!(searched.plies, status.0, "{diagram} {mv:?}");
            assert_killed_as_the_full_solver(&full, mv, searched.killed, &diagram);
        }
    }
    assert!(
        unproved > 0 && proved > 0,
        "{unproved} unproved, {proved} proved"
    );
    eprintln!("{unproved} first moves unproved within the budget, {proved} proved");
}

/// The results a search hands to a search of another ko assumption
/// (`Search::import`: the attacker's losses to an assumption that gives
/// him fewer moves, his wins to one that gives him more, both to the same
/// assumption) hold there: on 100 random problems, for every ordered
/// pair of assumptions (a pair of the same one among them), a search
/// that has proved every state the full solver enumerates hands its
/// results to a new search, which then gives every state the full
/// solver's value and distance under its own assumption.
#[test]
fn results_handed_between_ko_assumptions_agree_with_the_full_solver() {
    let (mut taken, mut compared) = (0, 0);
    for (diagram, problem) in problems(0x1e0b_0a27, 100) {
        let fulls: Vec<Solution> = KoAssumption::ALL
            .iter()
            .map(|&ko| Solution::new(&problem.with_ko(ko)))
            .collect();
        for (f, from) in KoAssumption::ALL.into_iter().enumerate() {
            let mut given = Search::new(&problem.with_ko(from), SearchLimits::unlimited()).unwrap();
            given.deep(|search| {
                for i in 0..fulls[f].len() {
                    search.wins(&fulls[f].key(i)).unwrap();
                }
            });
            for (t, to) in KoAssumption::ALL.into_iter().enumerate() {
                let mut search =
                    Search::new(&problem.with_ko(to), SearchLimits::unlimited()).unwrap();
                taken += search.import(&given);
                let wrong = search.deep(|search| compare(&fulls[t], search, true));
                assert_eq!(wrong, 0, "{diagram} {from:?} to {to:?}");
                compared += fulls[t].len();
            }
        }
    }
    assert!(taken > 1000, "{taken} results handed on");
    eprintln!("{taken} results handed on, {compared} states compared");
}

/// The bounds of the distances a search hands on with its results (the
/// lower bounds to an assumption that gives the attacker fewer moves, the
/// upper bounds to one that gives him more, both to the same one) hold
/// there: on 60 random problems, for every ordered pair of assumptions
/// (a pair of the same one among them), a search that has
/// asked every state the full solver enumerates at a random depth around
/// its distance, then its distance, hands its table to a new search,
/// which answers the same questions at other random depths, then each
/// state's distance, as the full solver's distances under its own
/// assumption do.
#[test]
fn distance_bounds_handed_between_ko_assumptions_agree_with_the_full_solver() {
    let mut rng = Rng::new(0x0b0d_5a1e);
    let (mut taken, mut asked) = (0, 0);
    let depth = |rng: &mut Rng, distance: Option<u32>| match distance {
        Some(d) => (d + 4).saturating_sub(rng.below(9) as u32),
        None => rng.below(12) as u32,
    };
    for (diagram, problem) in problems(0x5a1e_b0d5, 30) {
        let fulls: Vec<Solution> = KoAssumption::ALL
            .iter()
            .map(|&ko| Solution::new(&problem.with_ko(ko)))
            .collect();
        for (f, from) in KoAssumption::ALL.into_iter().enumerate() {
            let mut given = Search::new(&problem.with_ko(from), SearchLimits::unlimited()).unwrap();
            for i in 0..fulls[f].len() {
                let d = depth(&mut rng, fulls[f].status(i).0);
                given.wins_within(&fulls[f].key(i), d).unwrap();
            }
            for i in 0..fulls[f].len() {
                given.status(&fulls[f].key(i)).unwrap();
            }
            for (t, to) in KoAssumption::ALL.into_iter().enumerate() {
                let mut search =
                    Search::new(&problem.with_ko(to), SearchLimits::unlimited()).unwrap();
                taken += search.import(&given);
                for i in 0..fulls[t].len() {
                    let key = fulls[t].key(i);
                    let distance = fulls[t].status(i).0;
                    let d = depth(&mut rng, distance);
                    assert_eq!(
                        search.wins_within(&key, d).unwrap(),
                        distance.is_some_and(|distance| distance <= d),
                        "{diagram} {from:?} to {to:?} {key:?} within {d}: distance {distance:?}"
                    );
                    asked += 1;
                }
                for i in 0..fulls[t].len() {
                    assert_eq!(
                        search.status(&fulls[t].key(i)).unwrap(),
                        fulls[t].status(i),
                        "{diagram} {from:?} to {to:?}"
                    );
                }
            }
        }
    }
    assert!(taken > 1000, "{taken} results handed on");
    eprintln!("{taken} results and bounds handed on, {asked} states asked at a depth");
}
