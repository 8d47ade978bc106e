//! A life-and-death problem played as a live game: the whole board (the
//! region's points placed on it, and the safe stones outside), the solver
//! that serves it, the ko assumption the game is played under (basic
//! unless set), the current state, and the states before each move, for
//! undo. A move is legal exactly when the problem's game allows it; the
//! game ends when every target is captured (the attacker has won) or at
//! two passes in a row (the defender has). Vertices are the whole board's
//! (`B18` on 19x19).
//!
//! Two solvers serve, by the rule `smallgo solve --solver auto` follows
//! (`FULL_SOLVER_BOUND`): a problem whose bound of states fits is solved
//! whole under the three ko assumptions when it is loaded (every state
//! reachable kept); a larger one is answered by three proof searches
//! (`problem::search`, one per assumption), asked about the current state
//! and its children as the game goes, their tables kept between questions.
//! Only the basic search works when such a problem is loaded; the other
//! two start when a question first needs them (a status, or a choice
//! between moves that their fates decide), so that a game's first move
//! costs no more than the search under its own assumption.
//! Either gives the exact value of a state, which depends on the state
//! alone (stones, side to move, ko point, passes, targets left): the
//! problem's game has basic ko and no superko, so the positions played
//! before do not change it, and the search's rule that a repetition on its
//! own path is the defender's is a proof device that its results do not
//! depend on.
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

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::problem::input::{RegionProblem, Vertex};
use crate::problem::search::{verdict_of, Search, SearchLimits, SearchTooLarge};
use crate::problem::seki::{state_bound, SekiTests};
use crate::problem::solve::{successor_moves, Limits, StateKey, Status};
use crate::problem::{KoAssumption, KoReport, Problem, Verdict};
use crate::rules::board::{Board, Point, PointSet};
use crate::rules::colour::Colour;
use crate::rules::moves::Move;

/// The largest bound of states (`problem::seki::state_bound`) of a problem
/// the full solver takes on by default, in the game and in `smallgo solve
/// --solver auto` (about a second's solve); past it, the proof search.
pub(crate) const FULL_SOLVER_BOUND: f64 = 4e7;

/// The states a proof search telling seki from life may expand.
const SEKI_MAX_NODES: u64 = 200_000;

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

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Place {
    /// The state.
    key: StateKey,
    /// Two passes in a row have ended the game (after `key`).
    ended: bool,
}

/// The solver that serves a game.
enum Solver {
    /// Every state reachable, solved under each assumption (in the order
    /// of `KoAssumption::ALL`).
    Full(KoReport),
    /// A proof search under each assumption, and the seki tests made so
    /// far.
    Search(RefCell<Searches>),
}

/// The proof searches that serve a game (`Solver::Search`).
struct Searches {
    /// A search under each assumption, in the order of `KoAssumption::ALL`.
    searches: Vec<Search>,
    /// Whether each search has been asked a question yet. Before its
    /// first, a search takes what the basic search has proved that holds
    /// under its own assumption (`Search::import`).
    asked: [bool; 3],
    seki: SekiTests,
}

impl Searches {
    /// The search under the assumption in slot `k`, ready to be asked.
    fn search(&mut self, k: usize) -> &mut Search {
        if !self.asked[k] {
            self.asked[k] = true;
            let (basic, rest) = self.searches.split_at_mut(1);
            let taken = rest[k - 1].import(&basic[0]);
            log::debug!(
                "problem: the search with {} starts from {taken} entries of the basic search's",
                ko_name(KoAssumption::ALL[k])
            );
        }
        &mut self.searches[k]
    }
}

/// A problem as a live game (see the module's paragraph).
pub struct ProblemGame {
    region: RegionProblem,
    solver: Solver,
    /// The problem's status from its start, once known: the full
    /// solver's at once, the searches' when first asked.
    verdict: Cell<Option<Verdict>>,
    /// The problem's start.
    start: StateKey,
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

/// The words for a proof search that stopped (or refused a problem).
fn search_failed(ko: KoAssumption, error: SearchTooLarge) -> String {
    format!(
        "the proof search of the problem (ko assumption {}) stopped: {error}",
        ko_name(ko)
    )
}

/// How the start's basic value is found: by the proof search and the
/// search by depths (`Search::distance`) on two threads, the first to
/// answer calling the other off (`Together`); the tests also ask for the
/// search by depths to finish first (`DepthsFirst`), so that the path
/// where it answers is taken whatever the threads do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Race {
    Together,
    #[cfg(test)]
    DepthsFirst,
}

/// Whether the attacker wins `start` with basic ko, by the basic search
/// `basic` and `depths`, a second search under basic ko.
///
/// Two searches race for it (`Race`): the basic proof search, and
/// `depths` asking the start's distance by searches to a depth alone
/// (`Search::distance`), which answers only a capture, but where it does
/// often sooner than the proof search and the distance after it. The
/// first answer calls the other search off. After a win, proved by
/// either, the basic search takes what the search by depths found (all of
/// it sound): the distance itself where it answered first, else bounds
/// that help find it. A game under basic ko, whose first question is that
/// distance (`distance_wanted`), then has it found here.
fn prove_start(
    basic: &mut Search,
    mut depths: Search,
    start: &StateKey,
    distance_wanted: bool,
    race: Race,
) -> Result<bool, String> {
    let failed = |error| search_failed(KoAssumption::Basic, error);
    let start = *start;
    // Set when the search by depths finds the distance, and to call it off.
    let found = Arc::new(AtomicBool::new(false));
    let called_off = Arc::new(AtomicBool::new(false));
    depths.call_off_when(Some(called_off.clone()));
    std::thread::scope(|scope| {
        let distance_found = found.clone();
        let find_distance = move || {
            let distance = depths.distance(&start);
            if matches!(distance, Ok(Some(_))) {
                distance_found.store(true, Ordering::Relaxed);
            }
            (depths, distance)
        };
        let by_depths = match race {
            Race::Together => ByDepths::Running(scope.spawn(find_distance)),
            #[cfg(test)]
            Race::DepthsFirst => {
                let (depths, distance) = find_distance();
                ByDepths::Done(Box::new(depths), distance)
            }
        };
        basic.call_off_when(Some(found));
        let proved = basic.wins(&start);
        basic.call_off_when(None);
        // Either answer ends the race: the search by depths is called off
        // if it still runs (after a win proved first, it may take far
        // longer than the distance found in the proof search's table).
        called_off.store(true, Ordering::Relaxed);
        let (depths, distance) = by_depths.finish();
        log_depths(&depths, &depths_outcome(&distance));
        let basic_wins = match proved {
            Ok(false) => false,
            // After a win, by either search, the basic search takes what
            // the search by depths found (sound, as any search's results
            // are): where it found the distance, the start's win and its
            // distance, and else bounds that help find it.
            Ok(true) | Err(SearchTooLarge::CalledOff { .. }) => {
                basic.import(&depths);
                basic.wins(&start).map_err(failed)?
            }
            Err(error) => return Err(failed(error)),
        };
        drop(depths);
        if basic_wins && distance_wanted {
            basic.status(&start).map_err(failed)?;
        }
        log::debug!(
            "problem: the start searched with basic ko: {} states expanded, {} in the table",
            basic.nodes(),
            basic.entries(),
        );
        Ok(basic_wins)
    })
}

/// The search by depths of `prove_start`: running on its thread, or done
/// (in turn, for the tests).
enum ByDepths<'scope> {
    Running(std::thread::ScopedJoinHandle<'scope, (Search, DistanceResult)>),
    #[cfg(test)]
    Done(Box<Search>, DistanceResult),
}

type DistanceResult = Result<Option<u32>, SearchTooLarge>;

impl ByDepths<'_> {
    /// The search and its answer, once it has given one.
    fn finish(self) -> (Search, DistanceResult) {
        match self {
            ByDepths::Running(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            #[cfg(test)]
            ByDepths::Done(depths, distance) => (*depths, distance),
        }
    }
}

/// How the search by depths of `prove_start` ended, in words.
fn depths_outcome(distance: &DistanceResult) -> String {
    match distance {
        Ok(Some(d)) => format!("the distance {d}"),
        Ok(None) => "no capture".to_string(),
        Err(error) => format!("stopped ({error})"),
    }
}

fn log_depths(depths: &Search, outcome: &str) {
    log::debug!(
        "problem: the start's distance searched by depths: {} states expanded, {} in the \
         table; {outcome}",
        depths.nodes(),
        depths.entries(),
    );
}

/// Whether the full solver takes on `problem` (`FULL_SOLVER_BOUND`).
pub(crate) fn fits_full_solver(problem: &Problem) -> bool {
    state_bound(problem) <= FULL_SOLVER_BOUND
}

impl ProblemGame {
    /// Starts the problem's game, played under `ko`, served by the full
    /// solver when its bound of states fits (`fits_full_solver`), else by
    /// the proof search.
    ///
    /// The three solves (or searches) share the memory available here: the
    /// full solver's three solutions are counted together as they are held
    /// (`KoReport::with_limit`), the three searches have a third each. A
    /// problem too large for the full solver is refused with its figures,
    /// before the memory runs out, and a search that passes its third
    /// stops the command that asked it with its figures.
    pub fn new(region: RegionProblem, ko: KoAssumption) -> Result<ProblemGame, String> {
        let available = crate::common::host::available_memory().unwrap_or(u64::MAX);
        if fits_full_solver(region.problem()) {
            ProblemGame::within(region, ko, available)
        } else {
            ProblemGame::searched(region, ko, available / 3, Race::Together)
        }
    }

    /// As `new` with the full solver, the three solutions held together
    /// within `max_bytes`. Every state reachable is kept (no pruning): the game
    /// may go on past a point where a target has become unconditionally
    /// alive.
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
        let start = report.solutions[0].key(0);
        log::info!(
            "problem: {} region points, served by the full solver ({} states)",
            region.region().len(),
            report.solutions[slot(ko)].len()
        );
        Ok(ProblemGame {
            verdict: Cell::new(Some(report.verdict)),
            start,
            region,
            solver: Solver::Full(report),
            ko,
            history: Vec::new(),
            current: Place {
                key: start,
                ended: false,
            },
        })
    }

    /// As `new` with the proof search, each of the three searches within
    /// `max_bytes`; the start's basic value is proved here, raced as
    /// `race` says (`prove_start`), and the other assumptions' searches
    /// wait for their first question (`Searches::search`).
    fn searched(
        region: RegionProblem,
        ko: KoAssumption,
        max_bytes: u64,
        race: Race,
    ) -> Result<ProblemGame, String> {
        let limits = SearchLimits {
            max_bytes,
            max_nodes: u64::MAX,
        };
        let mut searches = Vec::new();
        for assumption in KoAssumption::ALL {
            let search = Search::new(&region.problem().with_ko(assumption), limits)
                .map_err(|error| search_failed(assumption, error))?;
            searches.push(search);
        }
        // The search by depths that races the basic proof search holds
        // half a third at most, and is dropped once the start is proved.
        let depths = Search::new(
            &region.problem().with_ko(KoAssumption::Basic),
            SearchLimits {
                max_bytes: max_bytes / 2,
                ..limits
            },
        )
        .map_err(|error| search_failed(KoAssumption::Basic, error))?;
        let start = searches[0].start();
        prove_start(
            &mut searches[0],
            depths,
            &start,
            ko == KoAssumption::Basic,
            race,
        )?;
        let seki = SekiTests::by_search(SearchLimits {
            max_bytes,
            max_nodes: SEKI_MAX_NODES,
        });
        log::info!(
            "problem: {} region points, up to {:.1e} states: served by the proof search",
            region.region().len(),
            state_bound(region.problem())
        );
        Ok(ProblemGame {
            verdict: Cell::new(None),
            start,
            region,
            solver: Solver::Search(RefCell::new(Searches {
                searches,
                asked: [true, false, false],
                seki,
            })),
            ko,
            history: Vec::new(),
            current: Place {
                key: start,
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

    /// The problem's status from its start, under the three assumptions
    /// (with the proof search, found when first asked: the basic value is
    /// known, and one more assumption settles it, as `KoSearch` says).
    pub fn verdict(&self) -> Result<Verdict, String> {
        if let Some(verdict) = self.verdict.get() {
            return Ok(verdict);
        }
        let wins = |ko| -> Result<bool, String> {
            Ok(self
                .wins(slot(ko), &self.start)?
                .expect("the proof search reaches every state"))
        };
        let killed = if wins(KoAssumption::Basic)? {
            [true, true, wins(KoAssumption::DefenderIgnoresKo)?]
        } else {
            [false, wins(KoAssumption::AttackerIgnoresKo)?, false]
        };
        let verdict = verdict_of(killed);
        self.verdict.set(Some(verdict));
        Ok(verdict)
    }

    /// Whether the proof search serves the game (else the full solver).
    pub fn is_searched(&self) -> bool {
        matches!(self.solver, Solver::Search(_))
    }

    /// The solver that serves the game, in words.
    pub fn solver_text(&self) -> String {
        match &self.solver {
            Solver::Full(report) => format!(
                "full solver ({} states)",
                report.solutions[slot(self.ko)].len()
            ),
            Solver::Search(cell) => {
                let searches = &cell.borrow().searches;
                format!(
                    "proof search (up to {:.1e} states, past the full solver's {:.0e}; \
                     {} states searched so far)",
                    state_bound(self.problem()),
                    FULL_SOLVER_BOUND,
                    searches.iter().map(Search::nodes).sum::<u64>()
                )
            }
        }
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
        if self.current.key.attacker_to_move {
            self.attacker()
        } else {
            self.problem().defender()
        }
    }

    fn is_over_at(&self, place: Place) -> bool {
        place.ended || place.key.is_capture()
    }

    /// Every target captured, or two passes in a row.
    pub fn is_over(&self) -> bool {
        self.is_over_at(self.current)
    }

    /// The value of `key` under the assumption in slot `k`: `None` where
    /// the full solver's game of that assumption does not reach it.
    fn value(&self, k: usize, key: &StateKey) -> Result<Option<Status>, String> {
        match &self.solver {
            Solver::Full(report) => {
                let solution = &report.solutions[k];
                Ok(solution.find(key).map(|i| solution.status(i)))
            }
            Solver::Search(cell) => cell
                .borrow_mut()
                .search(k)
                .status(key)
                .map(Some)
                .map_err(|error| search_failed(KoAssumption::ALL[k], error)),
        }
    }

    /// Whether the attacker wins `key` under the assumption in slot `k`
    /// (`None` as for `value`).
    fn wins(&self, k: usize, key: &StateKey) -> Result<Option<bool>, String> {
        match &self.solver {
            Solver::Full(_) => Ok(self.value(k, key)?.map(Status::attacker_wins)),
            Solver::Search(cell) => cell
                .borrow_mut()
                .search(k)
                .wins(key)
                .map(Some)
                .map_err(|error| search_failed(KoAssumption::ALL[k], error)),
        }
    }

    /// Whether the attacker wins `key` within `plies` under the game's
    /// assumption.
    fn wins_within(&self, key: &StateKey, plies: u32) -> Result<bool, String> {
        let k = slot(self.ko);
        match &self.solver {
            Solver::Full(_) => Ok(self
                .value(k, key)?
                .and_then(|status| status.0)
                .is_some_and(|d| d <= plies)),
            Solver::Search(cell) => cell
                .borrow_mut()
                .search(k)
                .wins_within(key, plies)
                .map_err(|error| search_failed(self.ko, error)),
        }
    }

    fn status_at(&self, place: Place) -> Result<Status, String> {
        if place.ended {
            return Ok(Status(None));
        }
        Ok(self
            .value(slot(self.ko), &place.key)?
            .expect("the game's states are its solution's"))
    }

    /// Whether the attacker wins under the game's assumption (has won, when
    /// every target is captured), and in how many plies.
    pub fn status(&self) -> Result<Status, String> {
        self.status_at(self.current)
    }

    /// The status of the current state under each ko assumption, in the
    /// order of `KoAssumption::ALL`; `None` where that assumption's game
    /// does not reach the state (the full solver's games only).
    pub fn statuses(&self) -> Result<[Option<Status>; 3], String> {
        if self.current.ended {
            return Ok([Some(Status(None)); 3]);
        }
        let mut out = [None; 3];
        for (k, status) in out.iter_mut().enumerate() {
            *status = self.value(k, &self.current.key)?;
        }
        Ok(out)
    }

    /// The stones of each colour in the region now (not the safe stones
    /// beside it).
    pub fn region_stones(&self, colour: Colour) -> PointSet {
        let key = self.current.key;
        let stones = if colour == self.attacker() {
            PointSet(key.attacker)
        } else {
            PointSet(key.defender)
        };
        stones - self.problem().safe()
    }

    /// The stones of each colour in the region now that are joined to a
    /// safe stone, and so safe too.
    pub fn joined_to_safe(&self, colour: Colour) -> PointSet {
        let stones =
            self.region_stones(colour) | (self.problem().safe() & self.problem().stones(colour));
        self.problem().joined_to_safe(stones)
    }

    /// The target stones still on the board.
    pub fn targets(&self) -> PointSet {
        PointSet(self.current.key.targets)
    }

    /// Whether the defender, living here under the game's assumption, lives
    /// in seki: it cannot drive the attacker's stones in the region out
    /// (`problem::seki::seki_at`; with the proof search, a test past its
    /// limits says life).
    pub fn lives_in_seki(&self) -> Result<bool, String> {
        if self.status()?.attacker_wins() {
            return Ok(false);
        }
        let key = self.current.key;
        Ok(match &self.solver {
            Solver::Full(_) => {
                let mut tests = SekiTests::default();
                crate::problem::seki::seki_at(self.problem(), key, &mut tests)
            }
            Solver::Search(cell) => {
                let tests = &mut cell.borrow_mut().seki;
                crate::problem::seki::seki_at(self.problem(), key, tests)
            }
        })
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

    /// The moves of `place` under the game's assumption, each with the
    /// state it leads to (`None`: the game ends): placements in point
    /// order, then the pass; none once the game is over.
    fn children(&self, place: Place) -> Vec<(Move, Option<StateKey>)> {
        if self.is_over_at(place) {
            return Vec::new();
        }
        successor_moves(
            self.problem().board(),
            self.ko,
            self.problem().objective(),
            &place.key,
        )
    }

    /// Where `mv` leads from `place`, if the problem's game allows it.
    fn after(&self, place: Place, mv: Move) -> Option<Place> {
        let (_, child) = self.children(place).into_iter().find(|&(m, _)| m == mv)?;
        Some(match child {
            None => Place {
                key: place.key,
                ended: true,
            },
            Some(key) => Place { key, ended: false },
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

    /// Plays the game under another ko assumption from here. With the full
    /// solver every state of the game so far must be one the other
    /// assumption's game reaches; otherwise the game is unchanged. The
    /// proof search takes any state under any assumption.
    pub fn set_ko(&mut self, ko: KoAssumption) -> Result<(), String> {
        if let Solver::Full(report) = &self.solver {
            let target = &report.solutions[slot(ko)];
            let reached = self
                .history
                .iter()
                .map(|&(place, _, _)| place)
                .chain([self.current])
                .all(|place| target.find(&place.key).is_some());
            if !reached {
                return Err(format!(
                    "the game so far is not one the {} ko assumption allows",
                    ko_name(ko)
                ));
            }
        }
        self.ko = ko;
        Ok(())
    }

    /// The fate of a state from whether the attacker wins it under each
    /// assumption; `here`, the game's assumption's, stands in where
    /// another's game does not reach the state.
    fn fate(&self, key: &StateKey, here: bool) -> Result<Fate, String> {
        let under = |ko: KoAssumption| -> Result<bool, String> {
            if ko == self.ko {
                return Ok(here);
            }
            Ok(self.wins(slot(ko), key)?.unwrap_or(here))
        };
        Ok(if under(KoAssumption::DefenderIgnoresKo)? {
            Fate::Dead
        } else if !under(KoAssumption::AttackerIgnoresKo)? {
            Fate::Alive
        } else {
            Fate::Ko {
                attacker_wins: here,
            }
        })
    }

    /// The fate of the targets in the current state.
    pub fn current_fate(&self) -> Result<Fate, String> {
        if self.current.ended {
            return Ok(Fate::Alive);
        }
        self.fate(&self.current.key, self.status()?.attacker_wins())
    }

    /// The result of the move `mv` leading to `child` (`None`: the pass
    /// that ends the game), for a mover who is the attacker or not.
    fn result_of(
        &self,
        mv: Move,
        child: Option<StateKey>,
        attacker_moves: bool,
    ) -> Result<MoveResult, String> {
        let (status, fate) = match child {
            Some(child) => {
                let status = self.status_at(Place {
                    key: child,
                    ended: false,
                })?;
                (status, self.fate(&child, status.attacker_wins())?)
            }
            None => (Status(None), Fate::Alive),
        };
        Ok(MoveResult {
            mv,
            status,
            fate,
            mover_wins: status.attacker_wins() == attacker_moves,
        })
    }

    /// Every move of the side to move with its result, placements in point
    /// order, then the pass; none once the game has ended.
    pub fn move_results(&self) -> Result<Vec<MoveResult>, String> {
        let attacker_moves = self.current.key.attacker_to_move;
        self.children(self.current)
            .into_iter()
            .map(|(mv, child)| self.result_of(mv, child, attacker_moves))
            .collect()
    }

    /// The best moves of `place` for its mover, whose value there is
    /// `here`, in the order of `children`: the attacker's shortest win, the
    /// defender's moves that live, else its longest resistance (as
    /// `Solution::best_moves`).
    fn best_moves(
        &self,
        place: Place,
        here: Status,
    ) -> Result<Vec<(Move, Option<StateKey>)>, String> {
        let attacker_moves = place.key.attacker_to_move;
        let mut best = Vec::new();
        for (mv, child) in self.children(place) {
            let keep = match (child, here.0) {
                // The attacker wins in `d`: a child won within `d - 1`
                // (none is won in fewer). The defender loses in `d`: a
                // child not won within `d - 2` (each is won within
                // `d - 1`).
                (Some(child), Some(d)) if attacker_moves => self.wins_within(&child, d - 1)?,
                (Some(child), Some(d)) => d < 2 || !self.wins_within(&child, d - 2)?,
                (None, Some(_)) => false,
                (_, None) if attacker_moves => true,
                (Some(child), None) => !self
                    .status_at(Place {
                        key: child,
                        ended: false,
                    })?
                    .attacker_wins(),
                (None, None) => true,
            };
            if keep {
                best.push((mv, child));
            }
        }
        Ok(best)
    }

    fn choose_at(&self, place: Place) -> Result<Option<Move>, String> {
        if self.is_over_at(place) {
            return Ok(None);
        }
        let attacker_moves = place.key.attacker_to_move;
        let here = self.status_at(place)?;
        let mover_wins = here.attacker_wins() == attacker_moves;
        if !mover_wins && attacker_moves {
            // Nothing kills: the attacker passes.
            return Ok(Some(Move::Pass));
        }
        // The mover's preference among the best moves: a result that holds
        // whatever the threats first, a ko next.
        let rank = |fate: Fate| -> u8 {
            match (fate, attacker_moves) {
                (Fate::Dead, true) | (Fate::Alive, false) => 0,
                (Fate::Ko { .. }, _) => 1,
                _ => 2,
            }
        };
        // The first best move of the least rank, a defender who lives
        // passing when passing keeps it alive: the pass is ranked first
        // then, and the ranking stops at the first move ranked 0. A single
        // best move needs no fate (nor the searches that tell it).
        let mut best = self.best_moves(place, here)?;
        if best.len() == 1 {
            return Ok(Some(best[0].0));
        }
        if mover_wins && !attacker_moves {
            if let Some(i) = best.iter().position(|&(mv, _)| mv == Move::Pass) {
                let pass = best.remove(i);
                best.insert(0, pass);
            }
        }
        let mut chosen: Option<(u8, Move)> = None;
        for (mv, child) in best {
            let fate = match child {
                Some(child) => {
                    let wins = self
                        .value(slot(self.ko), &child)?
                        .expect("the game's states are its solution's")
                        .attacker_wins();
                    self.fate(&child, wins)?
                }
                None => Fate::Alive,
            };
            let r = rank(fate);
            if chosen.is_none_or(|(least, _)| r < least) {
                chosen = Some((r, mv));
            }
            if r == 0 {
                break;
            }
        }
        Ok(chosen.map(|(_, mv)| mv))
    }

    /// The move perfect play chooses for the side to move (see the module's
    /// paragraph); `None` once the game has ended.
    pub fn choose(&self) -> Result<Option<Move>, String> {
        self.choose_at(self.current)
    }

    /// The line perfect play follows after the side to move plays `first`,
    /// by `choose`, up to the end of the game, a state met again, or
    /// `limit` moves.
    pub fn line_after(&self, first: Move, limit: usize) -> Result<Vec<Move>, String> {
        let mut line = Vec::new();
        let mut place = self.current;
        let mut seen = std::collections::HashSet::from([place.key]);
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
            if !seen.insert(place.key) {
                break;
            }
            next = self.choose_at(place)?;
        }
        Ok(line)
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
            None if self.current.key.is_capture() => "over: the targets are captured".to_string(),
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
            let chosen = game.choose().unwrap().unwrap();
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

    /// A bent four in the corner (`gtp-tests/sgf/problem-ko.sgf`): a ko.
    const KO: &str = "O.OX../.OOX../OXXX../X...../....../......";

    /// The same problem served by the full solver and by the proof search
    /// (its start's basic value raced as `race` says).
    fn both(
        diagram: &str,
        to_move: Colour,
        ko: KoAssumption,
        race: Race,
    ) -> (ProblemGame, ProblemGame) {
        let options = InputOptions {
            player: Some(to_move),
            ..InputOptions::default()
        };
        let region = from_diagram(diagram, &options).unwrap();
        let full = ProblemGame::within(region.clone(), ko, u64::MAX).unwrap();
        let searched = ProblemGame::searched(region, ko, u64::MAX, race).unwrap();
        assert!(!full.is_searched() && searched.is_searched());
        (full, searched)
    }

    /// Walks every line of both games together up to `depth` moves and
    /// checks that they answer alike everywhere; the number of positions.
    fn agree(full: &mut ProblemGame, searched: &mut ProblemGame, depth: usize) -> usize {
        let line: Vec<String> = full.moves().map(|(_, mv)| full.move_name(mv)).collect();
        assert_eq!(full.to_move(), searched.to_move(), "{line:?}");
        assert_eq!(full.status(), searched.status(), "{line:?}");
        let statuses = full.statuses().unwrap();
        let searched_statuses = searched.statuses().unwrap();
        for k in 0..3 {
            if let Some(status) = statuses[k] {
                assert_eq!(Some(status), searched_statuses[k], "{line:?} {k}");
            }
        }
        // The full solver judges a state that another assumption's game
        // does not reach by the game's own value; the search has the other
        // assumption's value there too. Fates (and the choices they rank)
        // are compared where the full solver reaches every state.
        let reached = |key: Option<StateKey>| {
            key.is_none_or(|key| (0..3).all(|k| full.value(k, &key).unwrap().is_some()))
        };
        let here_reached = full.current.ended || reached(Some(full.current.key));
        if here_reached {
            assert_eq!(full.current_fate(), searched.current_fate(), "{line:?}");
        }
        let full_results = full.move_results().unwrap();
        let searched_results = searched.move_results().unwrap();
        assert_eq!(full_results.len(), searched_results.len(), "{line:?}");
        let mut all_reached = here_reached;
        for ((f, s), (_, child)) in full_results
            .iter()
            .zip(&searched_results)
            .zip(full.children(full.current))
        {
            assert_eq!(
                (f.mv, f.status, f.mover_wins),
                (s.mv, s.status, s.mover_wins),
                "{line:?}"
            );
            if reached(child) {
                assert_eq!(f.fate, s.fate, "{line:?}");
            } else {
                all_reached = false;
            }
        }
        assert_eq!(full.lives_in_seki(), searched.lives_in_seki(), "{line:?}");
        if all_reached {
            assert_eq!(full.choose(), searched.choose(), "{line:?}");
        }
        if let (true, Ok(Some(first))) = (all_reached, full.choose()) {
            assert_eq!(
                full.line_after(first, 20),
                searched.line_after(first, 20),
                "{line:?}"
            );
        }
        let mut positions = 1;
        let Some(colour) = full.to_move() else {
            return positions;
        };
        if depth == 0 {
            return positions;
        }
        for result in full.move_results().unwrap() {
            full.play(colour, result.mv).unwrap();
            searched.play(colour, result.mv).unwrap();
            positions += agree(full, searched, depth - 1);
            assert!(full.undo() && searched.undo());
        }
        positions
    }

    /// The proof search serves the game exactly as the full solver does:
    /// the same values, judgements, choices and lines in every position
    /// of every line, under each ko assumption, with either side first,
    /// whichever search answers the start's basic value first (the race,
    /// and the search by depths first).
    #[test]
    fn the_search_serves_the_game_as_the_full_solver_does() {
        let mut positions = 0;
        for (diagram, depth) in [(THREE, 5), (KO, 4)] {
            for to_move in [Colour::Black, Colour::White] {
                for (ko, race) in KoAssumption::ALL
                    .into_iter()
                    .flat_map(|ko| [(ko, Race::Together), (ko, Race::DepthsFirst)])
                {
                    let (mut full, mut searched) = both(diagram, to_move, ko, race);
                    assert_eq!(full.verdict(), searched.verdict());
                    positions += agree(&mut full, &mut searched, depth);
                }
            }
        }
        assert!(positions > 100, "{positions}");
    }

    /// With the proof search, loading a problem and choosing its single
    /// best move ask the basic search alone; the status from the start
    /// then asks the one more assumption that settles it.
    #[test]
    fn the_other_assumptions_are_searched_when_first_needed() {
        let (_, searched) = both(THREE, Colour::Black, KoAssumption::Basic, Race::Together);
        let asked = |game: &ProblemGame| match &game.solver {
            Solver::Search(cell) => cell.borrow().asked,
            Solver::Full(_) => unreachable!("served by the proof search"),
        };
        assert_eq!(asked(&searched), [true, false, false]);
        let chosen = searched.choose().unwrap();
        assert_eq!(chosen.map(|m| searched.move_name(m)), Some("B1".into()));
        assert_eq!(asked(&searched), [true, false, false]);
        assert_eq!(searched.verdict(), Ok(Verdict::Dead));
        assert_eq!(asked(&searched), [true, false, true]);
    }

    /// A problem whose bound of states passes the full solver's is served
    /// by the proof search; a smaller one by the full solver.
    #[test]
    fn the_solver_is_chosen_by_the_bound_of_states() {
        let small = game(THREE, Colour::Black);
        assert!(!small.is_searched());
        assert!(fits_full_solver(small.problem()));
        // Twenty empty points: the bench's corner 20.
        let large = game(
            "............./............./XXXXXX......./......X....../......XXXX.../OOOOOOOOOOX../.X.......OX..",
            Colour::Black,
        );
        assert!(!fits_full_solver(large.problem()));
        assert!(large.is_searched());
        assert!(large.solver_text().starts_with("proof search"));
    }

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
        assert_eq!(attack.verdict(), Ok(Verdict::Dead));
        assert_eq!(
            attack.choose().unwrap().map(|m| attack.move_name(m)),
            Some("B1".to_string())
        );
        let line = play_out(&mut attack);
        assert!(attack.targets().is_empty(), "{line:?}");
        let mut defend = game(THREE, Colour::White);
        assert_eq!(defend.verdict(), Ok(Verdict::Alive));
        assert_eq!(
            defend.choose().unwrap().map(|m| defend.move_name(m)),
            Some("B1".to_string())
        );
        let line = play_out(&mut defend);
        assert!(!defend.targets().is_empty(), "{line:?}");
        assert_eq!(defend.status(), Ok(Status(None)));
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
        let results = g.move_results().unwrap();
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
