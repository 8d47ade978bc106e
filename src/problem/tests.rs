//! The problem solver against a brute force written here, on random
//! problems under every ko assumption, and on classic problems whose
//! status every Go player knows.
//!
//! The brute force shares nothing with the solver but the board's
//! numbering of points: its own board (a list of neighbours per point,
//! read from the shape's diagram), its own captures, suicide and ko, a
//! depth-first enumeration, and the attacker's winning states found by
//! plain iteration until nothing changes.

use std::collections::HashMap;

use crate::problem::solve::{Solution, StateKey, Status};
use crate::problem::{KoAssumption, KoReport, Objective, Problem, ProblemError, Verdict};
use crate::rules::board::{Board, Point, PointSet};
use crate::rules::colour::Colour;
use crate::rules::moves::Move;
use crate::tests::support::Rng;

const EMPTY: u8 = 0;
const ATTACKER: u8 = 1;
const DEFENDER: u8 = 2;

/// A board as a list of neighbours per point; points numbered row by row
/// from the bottom row of the diagram, left to right.
struct PlainBoard {
    neighbours: Vec<Vec<usize>>,
    /// The (row from the bottom, column) of each point.
    cells: Vec<(usize, usize)>,
    /// The points of safe stones: a string with one always has a liberty.
    safe: Vec<bool>,
    /// Whether target stones whose string holds a safe stone are no
    /// longer targets, and the attacker's stones whose capture ends the
    /// game (`Objective::Clear`).
    leaving: bool,
    keep: Vec<bool>,
}

impl PlainBoard {
    /// Reads a diagram of `.` (points) and `#` (walls), rows from the top
    /// separated by `/`.
    fn new(diagram: &str) -> PlainBoard {
        let rows: Vec<Vec<char>> = diagram.split('/').map(|r| r.chars().collect()).collect();
        let height = rows.len();
        let mut number = HashMap::new();
        let mut cells = Vec::new();
        for row in 0..height {
            for (column, &cell) in rows[height - 1 - row].iter().enumerate() {
                if cell == '.' {
                    number.insert((row, column), cells.len());
                    cells.push((row, column));
                }
            }
        }
        let neighbours = cells
            .iter()
            .map(|&(row, column)| {
                let mut around = Vec::new();
                for (dr, dc) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
                    let r = row as i64 + dr;
                    let c = column as i64 + dc;
                    if r >= 0 && c >= 0 {
                        if let Some(&n) = number.get(&(r as usize, c as usize)) {
                            around.push(n);
                        }
                    }
                }
                around
            })
            .collect();
        let safe = vec![false; cells.len()];
        PlainBoard {
            neighbours,
            cells,
            keep: vec![false; safe.len()],
            safe,
            leaving: false,
        }
    }

    /// Takes from `targets` those whose string holds a safe stone, if
    /// such stones leave the fight.
    fn drop_joined(&self, colours: &[u8], targets: &mut [bool]) {
        if !self.leaving {
            return;
        }
        for (point, target) in targets.iter_mut().enumerate() {
            if *target {
                let (string, _) = self.string(colours, point);
                if string.iter().any(|&stone| self.safe[stone]) {
                    *target = false;
                }
            }
        }
    }

    /// The string through `point` and whether it has a liberty.
    fn string(&self, colours: &[u8], point: usize) -> (Vec<usize>, bool) {
        let colour = colours[point];
        let mut string = vec![point];
        let mut seen = vec![false; colours.len()];
        seen[point] = true;
        let mut liberty = false;
        let mut i = 0;
        while i < string.len() {
            for &n in &self.neighbours[string[i]] {
                if colours[n] == EMPTY {
                    liberty = true;
                } else if colours[n] == colour && !seen[n] {
                    seen[n] = true;
                    string.push(n);
                }
            }
            i += 1;
        }
        liberty |= string.iter().any(|&stone| self.safe[stone]);
        (string, liberty)
    }

    fn is_legal(&self, colours: &[u8]) -> bool {
        (0..colours.len()).all(|p| colours[p] == EMPTY || self.string(colours, p).1)
    }
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct PlainState {
    colours: Vec<u8>,
    targets: Vec<bool>,
    attacker_to_move: bool,
    ko: Option<usize>,
    passes: u8,
}

/// The children of a state with targets left: `None` for a pass that ends
/// the game.
fn plain_children(
    board: &PlainBoard,
    ko: KoAssumption,
    state: &PlainState,
) -> Vec<Option<PlainState>> {
    let (mover, other) = if state.attacker_to_move {
        (ATTACKER, DEFENDER)
    } else {
        (DEFENDER, ATTACKER)
    };
    let ignores = match ko {
        KoAssumption::Basic => false,
        KoAssumption::AttackerIgnoresKo => state.attacker_to_move,
        KoAssumption::DefenderIgnoresKo => !state.attacker_to_move,
    };
    let mut children = Vec::new();
    for point in 0..state.colours.len() {
        if state.colours[point] != EMPTY || (state.ko == Some(point) && !ignores) {
            continue;
        }
        let mut colours = state.colours.clone();
        colours[point] = mover;
        let mut captured = Vec::new();
        for &n in &board.neighbours[point] {
            if colours[n] == other {
                let (string, liberty) = board.string(&colours, n);
                if !liberty {
                    for stone in string {
                        colours[stone] = EMPTY;
                        captured.push(stone);
                    }
                }
            }
        }
        let (own, liberty) = board.string(&colours, point);
        if !liberty {
            continue;
        }
        if captured.iter().any(|&stone| board.keep[stone]) {
            children.push(None);
            continue;
        }
        let liberties: Vec<usize> = board.neighbours[point]
            .iter()
            .copied()
            .filter(|&n| colours[n] == EMPTY)
            .collect();
        let ko =
            (captured.len() == 1 && own.len() == 1 && liberties == captured).then(|| captured[0]);
        let mut targets = state.targets.clone();
        for &stone in &captured {
            targets[stone] = false;
        }
        if mover == DEFENDER {
            board.drop_joined(&colours, &mut targets);
        }
        children.push(Some(PlainState {
            colours,
            targets,
            attacker_to_move: !state.attacker_to_move,
            ko,
            passes: 0,
        }));
    }
    children.push((state.passes == 0).then(|| PlainState {
        attacker_to_move: !state.attacker_to_move,
        ko: None,
        passes: 1,
        ..state.clone()
    }));
    children
}

/// Every state reachable from `start`, each with the attacker's depth of
/// win (`None`: not won).
fn brute_force(
    board: &PlainBoard,
    ko: KoAssumption,
    start: PlainState,
) -> Vec<(PlainState, Option<u32>)> {
    let mut number: HashMap<PlainState, usize> = HashMap::new();
    let mut states = vec![start.clone()];
    number.insert(start, 0);
    let mut children: Vec<Vec<Option<usize>>> = vec![Vec::new()];
    let mut stack = vec![0];
    while let Some(i) = stack.pop() {
        if !states[i].targets.contains(&true) {
            continue;
        }
        let mut list = Vec::new();
        for child in plain_children(board, ko, &states[i]) {
            list.push(child.map(|child| {
                *number.entry(child.clone()).or_insert_with(|| {
                    states.push(child);
                    children.push(Vec::new());
                    stack.push(states.len() - 1);
                    states.len() - 1
                })
            }));
        }
        children[i] = list;
    }
    let mut depth: Vec<Option<u32>> = states
        .iter()
        .map(|s| (!s.targets.contains(&true)).then_some(0))
        .collect();
    let mut round = 0;
    loop {
        round += 1;
        let won = |c: &Option<usize>| c.is_some_and(|c| depth[c].is_some());
        let new: Vec<usize> = (0..states.len())
            .filter(|&i| {
                depth[i].is_none()
                    && if states[i].attacker_to_move {
                        children[i].iter().any(won)
                    } else {
                        children[i].iter().all(won)
                    }
            })
            .collect();
        if new.is_empty() {
            break;
        }
        for i in new {
            depth[i] = Some(round);
        }
    }
    states.into_iter().zip(depth).collect()
}

fn bits(values: &[u8], want: u8) -> u64 {
    values
        .iter()
        .enumerate()
        .filter(|&(_, &v)| v == want)
        .fold(0, |b, (i, _)| b | 1 << i)
}

/// The solver's key of a brute-force state.
fn key_of(state: &PlainState) -> StateKey {
    StateKey {
        attacker: bits(&state.colours, ATTACKER),
        defender: bits(&state.colours, DEFENDER),
        targets: bits(
            &state
                .targets
                .iter()
                .map(|&t| u8::from(t))
                .collect::<Vec<_>>(),
            1,
        ),
        attacker_to_move: state.attacker_to_move,
        ko: state.ko.map_or(u8::MAX, |k| k as u8),
        passes: state.passes,
    }
}

/// The brute force's start state of `problem` on `plain`, its board.
fn plain_start(problem: &Problem, plain: &PlainBoard) -> PlainState {
    let defender = problem.defender();
    let colours: Vec<u8> = (0..plain.cells.len())
        .map(|p| {
            let point = Point::new(p);
            if problem.stones(defender).contains(point) {
                DEFENDER
            } else if problem.stones(defender.opposite()).contains(point) {
                ATTACKER
            } else {
                EMPTY
            }
        })
        .collect();
    PlainState {
        targets: (0..colours.len())
            .map(|p| problem.targets().contains(Point::new(p)))
            .collect(),
        colours,
        attacker_to_move: problem.to_move() != defender,
        ko: None,
        passes: 0,
    }
}

/// Solves `problem` with the solver and the brute force and compares every
/// state's value; returns the number of states.
pub(super) fn compare(diagram: &str, problem: &Problem) -> usize {
    let mut plain = PlainBoard::new(diagram);
    plain.safe = (0..plain.cells.len())
        .map(|p| problem.safe().contains(Point::new(p)))
        .collect();
    if let Objective::Clear { keep } = problem.objective() {
        plain.leaving = true;
        plain.keep = (0..plain.cells.len())
            .map(|p| keep.contains(Point::new(p)))
            .collect();
    }
    let board = problem.board();
    assert_eq!(board.points(), plain.cells.len(), "{diagram}");
    for (k, &(row, column)) in plain.cells.iter().enumerate() {
        assert_eq!(
            board.point_at(row, column),
            Some(Point::new(k)),
            "{diagram}"
        );
    }
    let mut start = plain_start(problem, &plain);
    plain.drop_joined(&start.colours, &mut start.targets);
    let expected = brute_force(&plain, problem.ko(), start);
    let solution = Solution::new(problem);
    assert_eq!(solution.len(), expected.len(), "{diagram} {problem:?}");
    let index: HashMap<StateKey, usize> =
        (0..solution.len()).map(|i| (solution.key(i), i)).collect();
    for (state, depth) in &expected {
        let key = key_of(state);
        let i = *index
            .get(&key)
            .unwrap_or_else(|| panic!("{diagram}: {key:?} not found"));
        assert_eq!(
            solution.status(i),
            Status(*depth),
            "{diagram} {problem:?}: {key:?}"
        );
    }
    solution.len()
}

/// A random shape on a grid of at most `rows` x `columns` cells, with a
/// point in its top and bottom rows and first and last columns (so the
/// board keeps the grid), and at most `max_points` points.
pub(super) fn random_shape(
    rng: &mut Rng,
    rows: usize,
    columns: usize,
    max_points: usize,
) -> String {
    loop {
        let height = 1 + rng.below(rows as u64) as usize;
        let width = 1 + rng.below(columns as u64) as usize;
        let cells: Vec<Vec<char>> = (0..height)
            .map(|_| {
                (0..width)
                    .map(|_| if rng.below(4) == 0 { '#' } else { '.' })
                    .collect()
            })
            .collect();
        let count = cells.iter().flatten().filter(|&&c| c == '.').count();
        let has = |f: &dyn Fn(usize, usize) -> bool| {
            (0..height).any(|r| (0..width).any(|c| f(r, c) && cells[r][c] == '.'))
        };
        if (2..=max_points).contains(&count)
            && has(&|r, _| r == 0)
            && has(&|r, _| r == height - 1)
            && has(&|_, c| c == 0)
            && has(&|_, c| c == width - 1)
        {
            return cells
                .iter()
                .map(|row| row.iter().collect::<String>())
                .collect::<Vec<_>>()
                .join("/");
        }
    }
}

/// A random legal problem on `diagram`, if the stones drawn give one.
pub(super) fn random_problem(rng: &mut Rng, diagram: &str, ko: KoAssumption) -> Option<Problem> {
    let plain = PlainBoard::new(diagram);
    let board = Board::shape(diagram).unwrap();
    let colours: Vec<u8> = (0..plain.cells.len())
        .map(|_| match rng.below(5) {
            0 | 1 => EMPTY,
            2 | 3 => DEFENDER,
            _ => ATTACKER,
        })
        .collect();
    let set = |want: u8| PointSet(bits(&colours, want));
    let defenders: Vec<usize> = (0..colours.len())
        .filter(|&p| colours[p] == DEFENDER)
        .collect();
    if defenders.is_empty() {
        return None;
    }
    let first = defenders[rng.below(defenders.len() as u64) as usize];
    let mut targets = PointSet::single(Point::new(first));
    for &p in &defenders {
        if rng.below(3) == 0 {
            targets.insert(Point::new(p));
        }
    }
    let defender = if rng.below(2) == 0 {
        Colour::Black
    } else {
        Colour::White
    };
    let (black, white) = match defender {
        Colour::Black => (set(DEFENDER), set(ATTACKER)),
        Colour::White => (set(ATTACKER), set(DEFENDER)),
    };
    let to_move = if rng.below(2) == 0 {
        Colour::Black
    } else {
        Colour::White
    };
    let problem = Problem::new(board, black, white, to_move, targets, ko);
    // The brute force's own legality and the problem's validation agree.
    assert_eq!(
        problem.is_ok(),
        plain.is_legal(&colours),
        "{diagram}: {colours:?}"
    );
    problem.ok()
}

/// The solver agrees with the brute force on every reachable state of
/// random problems on random shapes of up to nine points, under each ko
/// assumption: won or not, and the depth.
#[test]
fn the_solver_agrees_with_a_brute_force_on_random_problems() {
    let mut rng = Rng::new(0x11fe_de47);
    let (mut problems, mut states, mut won, mut largest) = (0, 0, 0, 0);
    let mut differing = 0;
    while problems < 400 {
        let diagram = match problems % 4 {
            0 => random_shape(&mut rng, 4, 4, 10),
            1 => random_shape(&mut rng, 3, 4, 10),
            _ => random_shape(&mut rng, 3, 4, 8),
        };
        let Some(problem) = random_problem(&mut rng, &diagram, KoAssumption::Basic) else {
            continue;
        };
        let mut results = Vec::new();
        for ko in KoAssumption::ALL {
            let problem = problem.with_ko(ko);
            let count = compare(&diagram, &problem);
            states += count;
            largest = largest.max(count);
            let start = Solution::new(&problem).start();
            won += start.attacker_wins() as usize;
            results.push(start.attacker_wins());
        }
        // Threats help the side that has them.
        assert!(
            results[2] <= results[0] && results[0] <= results[1],
            "{diagram}"
        );
        differing += (results[1] != results[2]) as usize;
        problems += 1;
    }
    // The problems are not all alike: some are won, some lost, some kos.
    assert!(won > 200 && won < 1000, "{won}");
    assert!(differing > 0, "no ko among the problems");
    eprintln!("{problems} problems, {states} states, largest {largest}, {differing} kos");
}

#[test]
fn problems_are_validated() {
    let board = Board::shape("..../....").unwrap();
    let at = |name: &str| PointSet::single(board.parse_point(name).unwrap());
    let new = |black, white, targets| {
        Problem::new(
            board,
            black,
            white,
            Colour::Black,
            targets,
            KoAssumption::Basic,
        )
    };
    assert_eq!(
        new(at("A1"), at("A1"), at("A1")),
        Err(ProblemError::Overlap("A1".into()))
    );
    assert_eq!(
        new(at("A1"), at("B1"), PointSet::EMPTY),
        Err(ProblemError::NoTarget)
    );
    assert_eq!(
        new(at("A1"), at("B1"), at("C1")),
        Err(ProblemError::EmptyTarget("C1".into()))
    );
    assert_eq!(
        new(at("A1"), at("B1"), at("A1") | at("B1")),
        Err(ProblemError::MixedTargets)
    );
    // White's A1 has no liberty.
    assert_eq!(
        new(at("A2") | at("B1"), at("A1"), at("A2")),
        Err(ProblemError::NoLiberty("A1".into()))
    );
    assert!(new(at("A2") | at("B1"), at("C1"), at("C1")).is_ok());
    let open = Board::shape("..+/...").unwrap();
    let problem = Problem::new(
        open,
        PointSet::single(Point::new(0)),
        PointSet::EMPTY,
        Colour::White,
        PointSet::single(Point::new(0)),
        KoAssumption::Basic,
    );
    assert_eq!(problem, Err(ProblemError::OpenSides));
    assert!(ProblemError::EmptyTarget("C1".into())
        .to_string()
        .contains("C1"));
}

/// Safe stones beside a region: a stone joined to one is never captured,
/// and never suicide. The solver, the solver with its pruning (Benson's
/// test sees a region holding the attacker's safe stone as healthy for
/// nobody), the first solver and the proof search agree with the brute
/// force, whose strings with a safe stone always have a liberty, on
/// random problems where some stones that are no targets are safe.
#[test]
fn safe_stones_join_what_is_played_beside_them() {
    use crate::problem::baseline::Baseline;
    use crate::problem::search::{Search, SearchLimits};
    use crate::problem::solve::Limits;
    let mut rng = Rng::new(0x5afe_57e5);
    let (mut problems, mut won, mut differing) = (0, 0, 0);
    while problems < 250 {
        let diagram = random_shape(&mut rng, 4, 4, 10);
        let Some(problem) = random_problem_with_safe_stones(&mut rng, &diagram) else {
            continue;
        };
        // The same stones, none safe.
        let mut in_play = problem.clone();
        in_play.board = Board::shape(&diagram).unwrap();
        for ko in KoAssumption::ALL {
            let problem = problem.with_ko(ko);
            compare(&diagram, &problem);
            let full = Solution::new(&problem);
            let pruned = Solution::with_limit(&problem, Limits::unlimited()).unwrap();
            assert_eq!(pruned.start(), full.start(), "{diagram} {ko:?}");
            for i in 0..pruned.len() {
                let j = full
                    .find(&pruned.key(i))
                    .expect("a state of the full solve");
                assert_eq!(pruned.status(i), full.status(j), "{diagram} {ko:?}");
            }
            let baseline = Baseline::new(&problem);
            assert_eq!(baseline.len(), full.len());
            let mut search = Search::new(&problem, SearchLimits::unlimited()).unwrap();
            let start = search.start();
            assert_eq!(
                search.wins(&start).unwrap(),
                full.start().attacker_wins(),
                "{diagram} {ko:?}"
            );
            won += full.start().attacker_wins() as usize;
            let plain = Solution::new(&in_play.with_ko(ko)).start().attacker_wins();
            differing += (plain != full.start().attacker_wins()) as usize;
        }
        problems += 1;
    }
    assert!(won > 100 && won < 650, "{won}");
    // Safe stones change some results from those of the same stones in
    // play.
    assert!(differing > 0);
    eprintln!("{problems} problems, {won} won, {differing} differ with the stones in play");
}

/// A random legal problem on `diagram` (under basic ko) where some stones
/// that are no targets, at least one, are safe, if the stones drawn give
/// one.
pub(super) fn random_problem_with_safe_stones(rng: &mut Rng, diagram: &str) -> Option<Problem> {
    let problem = random_problem(rng, diagram, KoAssumption::Basic)?;
    let stones = problem.stones(Colour::Black) | problem.stones(Colour::White);
    let mut safe = PointSet::EMPTY;
    for point in (stones - problem.targets()).iter() {
        if rng.below(2) == 0 {
            safe.insert(point);
        }
    }
    if safe.is_empty() {
        return None;
    }
    let problem = Problem::new(
        problem.board().with_open_points(safe),
        problem.stones(Colour::Black),
        problem.stones(Colour::White),
        problem.to_move(),
        problem.targets(),
        KoAssumption::Basic,
    )
    .expect("safe stones keep a legal problem legal");
    Some(problem)
}

/// Where the attacker must clear the targets from the fight keeping some
/// of its stones (`Objective::Clear`, the objective of the problem that
/// tells seki: a target string that runs out to a safe stone leaves the
/// fight, a capture of a kept stone ends the game), the solver with and
/// without its pruning, the first solver and the proof search (asked
/// every state) agree with the brute force, which follows both rules by
/// its own strings, on random problems with safe stones under each ko
/// assumption; the objective changes the result of some of them, and both
/// rules end some games.
#[test]
fn the_objective_of_clearing_the_targets_is_solved_as_the_brute_force_plays_it() {
    use crate::problem::baseline::Baseline;
    use crate::problem::search::{Search, SearchLimits};
    use crate::problem::solve::{successors, Limits, PASS};
    let mut rng = Rng::new(0x1ea7_e5f1);
    let (mut problems, mut states, mut differing) = (0, 0, 0);
    let (mut joined_ends, mut kept_ends) = (0, 0);
    while problems < 250 {
        let diagram = random_shape(&mut rng, 4, 4, 10);
        let Some(staying) = random_problem_with_safe_stones(&mut rng, &diagram) else {
            continue;
        };
        let attackers = staying.stones(staying.defender().opposite()) - staying.safe();
        let keep = PointSet(rng.below(u64::MAX) & attackers.bits());
        let Ok(clearing) = staying.to_clear(keep) else {
            continue;
        };
        assert_eq!(clearing.objective(), Objective::Clear { keep });
        for ko in KoAssumption::ALL {
            let problem = clearing.with_ko(ko);
            states += compare(&diagram, &problem);
            let full = Solution::new(&problem);
            let pruned = Solution::with_limit(&problem, Limits::unlimited()).unwrap();
            for i in 0..pruned.len() {
                let j = full
                    .find(&pruned.key(i))
                    .expect("a state of the full solve");
                assert_eq!(pruned.status(i), full.status(j), "{diagram} {ko:?}");
            }
            assert_eq!(Baseline::new(&problem).len(), full.len());
            let mut search = Search::new(&problem, SearchLimits::unlimited()).unwrap();
            search.deep(|search| {
                for i in 0..full.len() {
                    let key = full.key(i);
                    assert_eq!(
                        search.wins(&key).unwrap(),
                        full.status(i).attacker_wins(),
                        "{diagram} {ko:?} {key:?}"
                    );
                }
            });
            // Games the attacker won with a target stone still standing
            // (its string left the fight), and the defender's placements
            // that end the game (a kept stone captured).
            let mut found = Vec::new();
            for i in 0..full.len() {
                let key = full.key(i);
                joined_ends +=
                    usize::from(key.is_capture() && key.defender & staying.targets().bits() != 0);
                if !key.is_capture() && !key.attacker_to_move {
                    found.clear();
                    successors(problem.board(), ko, problem.objective(), &key, &mut found);
                    kept_ends += found
                        .iter()
                        .filter(|&&(mv, child)| mv != PASS && child.is_none())
                        .count();
                }
            }
            let stays = Solution::new(&staying.with_ko(ko)).start().attacker_wins();
            differing += usize::from(stays != full.start().attacker_wins());
        }
        problems += 1;
    }
    assert!(joined_ends > 0 && kept_ends > 0);
    assert!(differing > 0, "the objective changed no result");
    eprintln!(
        "{problems} problems, {states} states, {joined_ends} ended by a join, \
         {kept_ends} moves capturing a kept stone, {differing} results changed"
    );
}

/// Solves a problem (Black attacks White's `target`) under the three ko
/// assumptions, and prints its figures.
fn classic(name: &str, diagram: &str, to_move: Colour, target: &str) -> KoReport {
    let problem = Problem::from_diagram(diagram, to_move, &[target], KoAssumption::Basic).unwrap();
    assert_eq!(problem.defender(), Colour::White);
    let started = std::time::Instant::now();
    let report = KoReport::new(&problem);
    let board = problem.board();
    for (ko, solution) in KoAssumption::ALL.iter().zip(&report.solutions) {
        // The principal line ends as its value says: in a capture after as
        // many plies as the value's depth, or without one.
        let line = solution.principal_line();
        if let Status(Some(depth)) = solution.start() {
            assert_eq!(line.len(), depth as usize, "{name} {ko:?}");
        }
        let names: Vec<String> = line.iter().map(|mv| mv.name(board)).collect();
        eprintln!(
            "{name}, {to_move} to move, {ko:?}: {:?}, {} states, {} edges, {} KiB; line {}",
            solution.start(),
            solution.len(),
            solution.edges(),
            solution.peak_bytes() / 1024,
            names.join(" ")
        );
    }
    eprintln!("{name}: {} in {:?}", report.verdict, started.elapsed());
    report
}

/// The best first moves of the basic-ko solution, by name.
fn best_first(report: &KoReport, board: &Board) -> Vec<String> {
    report.solutions[0]
        .best_moves(0)
        .iter()
        .map(|mv| mv.name(board))
        .collect()
}

/// A straight three-point eye in the corner: the one who plays its middle
/// point first decides, so White to move lives and Black to move kills.
#[test]
fn a_straight_three_in_the_corner_lives_or_dies_by_its_middle() {
    let diagram = "OOOO\n...O";
    let board = *Problem::from_diagram(diagram, Colour::White, &["A2"], KoAssumption::Basic)
        .unwrap()
        .board();
    let white = classic("straight three", diagram, Colour::White, "A2");
    assert_eq!(white.verdict, Verdict::Alive);
    assert_eq!(best_first(&white, &board), ["B1"]);
    let black = classic("straight three", diagram, Colour::Black, "A2");
    assert_eq!(black.verdict, Verdict::Dead);
    assert_eq!(best_first(&black, &board), ["B1"]);
    // Every other first move of Black's lets White live.
    for (mv, status) in black.solutions[0].first_moves() {
        assert_eq!(
            status.attacker_wins(),
            mv == Move::Place(board.parse_point("B1").unwrap())
        );
    }
}

/// A bent four-point eye space bending at the corner point: White to
/// move lives; Black to move plays B1, and when White answers at A1 Black
/// takes it from A2 in a ko, so White lives only by winning that ko (the
/// corner's bent four). A square four dies whoever moves first.
#[test]
fn a_bent_four_in_the_corner_is_a_ko_and_a_square_four_dies() {
    let bent = "OO##\n.OOO\n...O";
    let white = classic("bent four", bent, Colour::White, "A3");
    assert_eq!(white.verdict, Verdict::Alive);
    let black = classic("bent four", bent, Colour::Black, "A3");
    assert_eq!(black.verdict, Verdict::KoDefenderMustWin);
    let board = *Problem::from_diagram(bent, Colour::Black, &["A3"], KoAssumption::Basic)
        .unwrap()
        .board();
    assert_eq!(best_first(&black, &board), ["B1"]);
    // With no threats Black kills; with the ban lifted for White, White
    // lives; with it lifted for Black, Black kills sooner.
    let depths: Vec<Status> = black.solutions.iter().map(|s| s.start()).collect();
    assert!(depths[0].attacker_wins() && !depths[2].attacker_wins());
    assert!(depths[1].0 < depths[0].0, "{depths:?}");
    let square = "OOO\n..O\n..O";
    for to_move in [Colour::Black, Colour::White] {
        let report = classic("square four", square, to_move, "A3");
        assert_eq!(report.verdict, Verdict::Dead, "{to_move}");
    }
}

/// A group with two separate eyes is alive whoever moves, even when the
/// attacker may ignore every ko ban; its eyes are the defender's own
/// points, never filled in its best lines.
#[test]
fn two_separate_eyes_live_whoever_moves() {
    let diagram = "OOOO\n.O.O";
    for to_move in [Colour::Black, Colour::White] {
        let report = classic("two eyes", diagram, to_move, "A2");
        assert_eq!(report.verdict, Verdict::Alive, "{to_move}");
        assert!(report.solutions.iter().all(|s| !s.start().attacker_wins()));
    }
}

/// A diagram's rows and columns of walls at its rim are dropped with the
/// board's, and the stones stay on their points; a target off the board
/// is refused.
#[test]
fn problems_are_read_from_diagrams() {
    let read = |diagram: &str, target: &str| {
        Problem::from_diagram(diagram, Colour::Black, &[target], KoAssumption::Basic)
    };
    let plain = read("OOOO\n...O", "A2").unwrap();
    let walled = read("######\n#OOOO#\n#...O#\n######", "A2").unwrap();
    assert_eq!(walled, plain);
    let white = Problem::from_diagram("OOOO\n...O", Colour::White, &["A2"], KoAssumption::Basic);
    assert_eq!(plain.with_other_to_move(), white.unwrap());
    let shaped = read("##O#\nOOO#\n...O", "C3").unwrap();
    assert_eq!(shaped.board().name(), "##.#/...#/....");
    let c3 = shaped.board().parse_point("C3").unwrap();
    assert!(shaped.stones(Colour::White).contains(c3));
    assert_eq!(shaped.stones(Colour::White).len(), 5);
    let error = read("OOOO\n...O", "E2").unwrap_err();
    assert!(error.to_string().contains("E2"), "{error}");
    let error = read("OOOO\n...O", "B1").unwrap_err();
    assert!(error.to_string().contains("B1"), "{error}");
}

/// With pruning, every state the solver keeps has the brute force's
/// value, and so do the start and every first move; the states it drops
/// are only those behind terminal states where a target is
/// unconditionally alive, which the brute force never sees won. Without
/// pruning the first solver (`baseline`) gives the same value to every
/// state.
#[test]
fn the_pruned_solver_agrees_with_a_brute_force_on_the_states_it_keeps() {
    use crate::problem::baseline::Baseline;
    use crate::problem::solve::Limits;
    let mut rng = Rng::new(0x5ca1_ab1e);
    let (mut problems, mut settled, mut dropped) = (0, 0, 0);
    while problems < 300 {
        let diagram = random_shape(&mut rng, 4, 4, 10);
        let Some(problem) = random_problem(&mut rng, &diagram, KoAssumption::Basic) else {
            continue;
        };
        for ko in KoAssumption::ALL {
            let problem = problem.with_ko(ko);
            let plain = PlainBoard::new(&diagram);
            let start = plain_start(&problem, &plain);
            let expected: HashMap<StateKey, Option<u32>> = brute_force(&plain, ko, start)
                .into_iter()
                .map(|(state, depth)| {
                    let key = key_of(&state);
                    (key, depth)
                })
                .collect();
            let pruned = Solution::with_limit(&problem, Limits::unlimited()).unwrap();
            assert!(pruned.len() <= expected.len());
            for i in 0..pruned.len() {
                let key = pruned.key(i);
                assert_eq!(pruned.find(&key), Some(i));
                let depth = expected.get(&key).unwrap_or_else(|| panic!("{key:?}"));
                assert_eq!(pruned.status(i), Status(*depth), "{diagram} {ko:?} {key:?}");
                if pruned.is_settled(i) {
                    assert_eq!(*depth, None);
                }
                for (mv, status) in pruned.moves_of(i) {
                    let child = pruned.child(i, mv).expect("a move of the state");
                    assert_eq!(child.map_or(Status(None), |c| pruned.status(c)), status);
                }
            }
            settled += pruned.settled();
            dropped += expected.len() - pruned.len();
            let full = Solution::new(&problem);
            assert_eq!(pruned.start(), full.start());
            if !pruned.is_terminal(0) {
                assert_eq!(pruned.first_moves(), full.first_moves());
            }
            let baseline = Baseline::new(&problem);
            assert_eq!(baseline.len(), full.len());
            for i in 0..baseline.len() {
                let j = full.find(&baseline.key(i)).expect("the same states");
                assert_eq!(full.status(j), baseline.status(i));
            }
        }
        problems += 1;
    }
    // Pruning happens, and drops states.
    assert!(settled > 100 && dropped > 1000, "{settled} {dropped}");
    eprintln!("{problems} problems: {settled} settled states, {dropped} states dropped");
}

/// The states' keys kept in 64 bits (every board of these problems fits)
/// give the solution of the keys kept in 128: the same states in the same
/// order, the same values, the same moves.
#[test]
fn narrow_and_wide_keys_give_the_same_solution() {
    use crate::problem::solve::Limits;
    let mut rng = Rng::new(0x6e61_7277);
    let mut problems = 0;
    while problems < 100 {
        let diagram = random_shape(&mut rng, 4, 5, 12);
        let Some(problem) = random_problem(&mut rng, &diagram, KoAssumption::Basic) else {
            continue;
        };
        for ko in KoAssumption::ALL {
            let problem = problem.with_ko(ko);
            for prune in [false, true] {
                let limits = Limits::unlimited().with_prune(prune);
                let narrow = Solution::with_limit(&problem, limits).unwrap();
                let wide = Solution::with_limit(&problem, limits.with_narrow_keys(false)).unwrap();
                assert!(narrow.keys_are_narrow() && !wide.keys_are_narrow());
                assert_eq!(narrow.len(), wide.len(), "{diagram}");
                assert_eq!(narrow.edges(), wide.edges(), "{diagram}");
                for i in 0..narrow.len() {
                    let key = narrow.key(i);
                    assert_eq!(key, wide.key(i), "{diagram}");
                    assert_eq!(narrow.find(&key), Some(i));
                    assert_eq!(narrow.status(i), wide.status(i), "{diagram} {key:?}");
                    assert_eq!(narrow.is_terminal(i), wide.is_terminal(i));
                    assert_eq!(narrow.moves_of(i), wide.moves_of(i), "{diagram} {key:?}");
                }
            }
        }
        problems += 1;
    }
}

/// Benson's test: a group with two separate eyes is unconditionally
/// alive, with or without an attacker's stone in an eye; one with a
/// single eye space, or eyes the attacker can still fill, is not.
#[test]
fn unconditional_life_needs_two_healthy_regions() {
    use crate::problem::benson::{unconditionally_alive, Adjacency};
    let alive = |diagram: &str| {
        let problem =
            Problem::from_diagram(diagram, Colour::Black, &["B2"], KoAssumption::Basic).unwrap();
        let board = *problem.board();
        let white = problem.stones(Colour::White).bits();
        let black = problem.stones(Colour::Black).bits();
        unconditionally_alive(&Adjacency::new(&board), white, black) == white
    };
    assert!(alive("OOOO\n.O.O"));
    assert!(alive("OOOOO\n.OX.O"));
    assert!(!alive("OOOO\n...O"));
    // The second eye's empty point is no liberty of the group: not alive.
    assert!(!alive("OOOO#\n.O..O"));
    // An eye of two points, one a liberty only of an attacker's stone.
    assert!(!alive("OOOOO\n.OX.O\n###.#"));
}

/// A solve that would pass its memory limit stops with the figures it
/// reached, and the same problem with room enough is solved within it.
#[test]
fn a_solve_past_its_memory_limit_stops_with_figures() {
    use crate::problem::solve::{Limits, TooLarge};
    let problem = Problem::from_diagram(
        "...##\n...##\nOOOOO\n.X..O",
        Colour::Black,
        &["A2"],
        KoAssumption::Basic,
    )
    .unwrap();
    let error = Solution::with_limit(&problem, Limits::new(1 << 20))
        .err()
        .unwrap();
    let TooLarge::Memory {
        states,
        bytes,
        limit,
        ..
    } = error
    else {
        panic!("{error}");
    };
    assert!(states > 0 && bytes > limit && limit == 1 << 20);
    let message = error.to_string();
    assert!(
        message.contains("1.0 MiB") || message.contains("MiB"),
        "{message}"
    );
    let solution = Solution::with_limit(&problem, Limits::new(1 << 30)).unwrap();
    assert!(solution.peak_bytes() <= 1 << 30);
    assert!(solution.len() as u64 > states);
}

/// That first move `mv`'s capture under each ko assumption, `killed`, is
/// what the full solver's three solutions say of it.
pub(crate) fn assert_killed_as_the_full_solver(
    full: &KoReport,
    mv: Move,
    killed: [bool; 3],
    diagram: &str,
) {
    for (k, killed) in killed.into_iter().enumerate() {
        let expected = full.solutions[k]
            .child(0, mv)
            .unwrap()
            .is_some_and(|c| full.solutions[k].status(c).attacker_wins());
        assert_eq!(killed, expected, "{diagram} {mv:?} {k}");
    }
}

/// `KoSearch` (one proof search at a time, each asked only what the
/// others leave open) gives every random problem the full solver's status
/// under each ko assumption, verdict and first moves (captured under each
/// assumption, distance with basic ko), and the values of
/// `SearchReport` (the three searches held at once, each asked
/// everything), and it expands fewer states in all.
#[test]
fn the_ko_search_agrees_with_the_full_solver_and_the_search_report() {
    use crate::problem::search::{SearchLimits, SearchReport};
    use crate::problem::KoSearch;
    let mut rng = Rng::new(0x5eed_4b0c);
    let (mut count, mut skipped, mut nodes, mut report_nodes) = (0, 0, 0, 0);
    let (mut memory, mut report_memory, mut entries, mut report_entries) = (0, 0, 0, 0);
    while count < 200 {
        let diagram = match count % 3 {
            0 => random_shape(&mut rng, 4, 4, 10),
            1 => random_shape(&mut rng, 3, 4, 10),
            _ => random_shape(&mut rng, 3, 4, 8),
        };
        let Some(problem) = random_problem(&mut rng, &diagram, KoAssumption::Basic) else {
            continue;
        };
        count += 1;
        let full = KoReport::new(&problem);
        let found = KoSearch::new(&problem, SearchLimits::unlimited()).unwrap();
        let report = SearchReport::new(&problem, SearchLimits::unlimited(), true).unwrap();
        assert_eq!(found.verdict, full.verdict, "{diagram}");
        assert_eq!(found.verdict, report.verdict, "{diagram}");
        assert_eq!(found.settled, report.settled, "{diagram}");
        for k in 0..3 {
            assert_eq!(found.start[k], full.solutions[k].start(), "{diagram} {k}");
            assert_eq!(found.start[k], report.start[k], "{diagram} {k}");
        }
        assert_eq!(found.moves.len(), report.moves.len(), "{diagram}");
        // A settled start has no first moves searched (the full solver
        // lists its game-ending pass).
        let firsts = full.solutions[0].first_moves();
        if !found.settled {
            assert_eq!(found.moves.len(), firsts.len(), "{diagram}");
        }
        for ((searched, (mv, status)), reported) in
            found.moves.iter().zip(firsts).zip(&report.moves)
        {
            assert_eq!(searched.mv, mv);
            assert_eq!(searched.plies, status.0, "{diagram} {mv:?}");
            assert_eq!(searched.killed, reported.killed, "{diagram} {mv:?}");
            assert_eq!(searched.child, reported.child, "{diagram} {mv:?}");
            assert_killed_as_the_full_solver(&full, mv, searched.killed, &diagram);
        }
        memory += found.peak_bytes();
        report_memory += report.peak_bytes();
        entries += found.entries();
        report_entries += report.entries();
        skipped += found.nodes().iter().filter(|&&n| n == 0).count();
        nodes += found.nodes().iter().sum::<u64>();
        assert_eq!(report.searches.len(), 3);
        report_nodes += report.nodes();
    }
    assert!(skipped > 0);
    assert!(
        nodes < report_nodes,
        "states expanded: {nodes} against {report_nodes}; kept: {entries} against \
         {report_entries}; memory: {memory} against {report_memory}"
    );
}
