//! An exact proof search for the value of a problem's states: a
//! depth-first AND/OR search with a transposition table, which visits only
//! the states it needs to prove a value, where `solve` enumerates them all.
//!
//! The game (see the parent module) is a reachability game: the attacker
//! wins a state iff he can force a capture state in finitely many moves;
//! play that goes on forever is the defender's. The search takes a
//! state's moves depth first (the attacker's: one won child is enough;
//! the defender's: one child not won is enough). A state already on the
//! current path counts as not won (a repetition): the attacker must make
//! progress. The table is keyed on the whole state (stones, side to move,
//! ko point, passes, target strings left; `Codec`'s 128 bits). Wins rest
//! only on captures and on other wins, whatever the path: they are always
//! stored and used (a loss taken wrongly can only make more losses, never
//! a win, as the value is monotone in the children's). Losses that rest
//! on a repetition are the graph-history interaction: write `G_R` for the
//! game in which reaching any state of the set `R` is the defender's win.
//! More forbidden states only help the defender, and a state's value in
//! `G_R` does not change when the state itself is added to `R` (a winning
//! strategy of the attacker's that never revisits a state exists: his
//! distance to the capture falls at each of his moves). A loss that met
//! no repetition but of its own state is therefore a loss of the real
//! game, and stored as one. The others are treated as `Options` says:
//!
//! - `Repetitions::Closure` (the default, `prove_closure`): the loss is
//!   stored as provisional and used as a loss from any path, and a result
//!   that used one is itself provisional. When the start's loss is
//!   provisional, `close` takes the table's provisional losses and keeps
//!   the greatest set of them in which every attacker move leads into the
//!   set, to a proved loss or to the game's end, and some defender move
//!   does: the defender can keep to that set forever, so each of its
//!   states is a loss of the real game, and is stored as one. The rest are
//!   unmarked, and the start searched again. A round that leaves the start
//!   out has stored a new win (a provisional loss leaves the set only
//!   through a win its search took for a repetition), so the rounds end.
//! - `Repetitions::OnPath` (`prove`): each call returns, with its value,
//!   the set `R` of the path's states whose repetition it met, the state
//!   itself left out; a loss returned with `R` is a loss in `G_R` (by
//!   induction: a repetition of `s` is a loss in `G_{s}`; the attacker's
//!   loss holds in the union of his children's sets, the defender's in the
//!   set of the child he plays). A loss with `R` not empty is kept apart
//!   with `R` and used again only while every state of `R` is on the
//!   current path; at the root every result is true. It searches the same
//!   losses again from every path that does not hold `R`.
//!
//! Order (`Order`, with `Repetitions::Closure`): by default the first round
//! is a depth-first proof-number search (`mid`, df-pn): it always works on
//! the state that looks cheapest to prove or disprove, by proof and
//! disproof numbers kept in the table, and stores wins, losses and
//! provisional losses as the depth-first search does (a repetition of a
//! state on the path has the numbers of a loss). A state not yet expanded
//! has disproof number 1 and as proof number the cube of its targets'
//! liberties, so that the search tries first where they are short. On
//! cycles of states off the path the numbers can grow by one a visit
//! without end, so a state left unsolved `MAX_VISITS` times by visits that
//! gained nothing (no state new to the table, none solved) is then searched
//! depth first (`prove_closure`), which solves it. Visits that gained
//! something are not counted: df-pn enters the states near the start again
//! and again as its thresholds rise, and a depth-first search of one of
//! those is a search of most of the problem without proof numbers. A visit
//! either gains something, which can happen only finitely often, or counts
//! towards its state's limit, so the round ends. A df-pn round may leave
//! states of its path unsolved, and the provisional losses that rested on
//! them fall out of the closure; the rounds after a closure are therefore
//! depth first, each of which solves every state it enters, so that the
//! rounds end as above. `Order::DepthFirst` searches depth first from the
//! start.
//!
//! Pruning: the attacker never passes (after his pass the defender passes
//! and the game ends, or his pass is the second and ends it: either way
//! the defender wins); a state where a target is unconditionally alive
//! (`benson`) is a loss, as in `solve`. Moves are ordered: the move the
//! table remembers as best for the state, the two killer moves of the
//! ply, the liberties of the targets, then the history of cut-offs.
//!
//! `within` answers "does the attacker win within `d` plies?", which does
//! not depend on the path (no repetition can help within a bound), with a
//! bound of the state's distance (the attacker playing shortest, the
//! defender longest, as `solve` counts it) that is stored in the table:
//! at most the plies of the capture it found, or at least the least
//! bound over the attacker's moves (the defender's refutation's), of the
//! distance's parity (odd where the attacker moves). Before it searches a
//! state's moves, it looks for a child whose stored bounds decide the
//! state already (an enhanced transposition cut-off: a child where the
//! attacker captures within `d - 1` plies, or one where the defender holds
//! out longer), as the child's own search would return them at once.
//! `distance` finds the exact distance between its bounds:
//! searches at depths growing from the least bound until one captures
//! (`Gallop`), then halving; `status` proves the win first.
//! `SearchReport` and the main line use it, so that the line never
//! wanders. Asked of a state not yet proved, `distance` is a prover of
//! its own, often cheaper than the proof search where the attacker wins,
//! endless where he does not: the GTP game races the two.
//!
//! The search holds its table within a memory limit and expands at most a
//! number of nodes; past either it stops with its figures
//! (`SearchTooLarge`), as it does when another thread calls it off
//! (`call_off_when`).

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::common::huge_pages;
use crate::common::prefetch::prefetch_element;
use crate::common::units::human_bytes;
use crate::problem::benson::{unconditionally_alive, Adjacency};
use crate::problem::solve::{
    hash, successor_moves, successors, Codec, StateKey, Status, TooLarge, PASS,
};
use crate::problem::{KoAssumption, Objective, Problem, Verdict};
use crate::rules::board::{Board, PointSet};
use crate::rules::moves::Move;

/// What a search may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SearchLimits {
    /// The most memory its table may hold, in bytes (while it grows, the
    /// old and the new table together).
    pub(crate) max_bytes: u64,
    /// The most states it may expand.
    pub(crate) max_nodes: u64,
}

impl SearchLimits {
    pub(crate) fn unlimited() -> SearchLimits {
        SearchLimits {
            max_bytes: u64::MAX,
            max_nodes: u64::MAX,
        }
    }
}

/// How a search treats a loss that rests on a repetition of a state on
/// the path (see the module's paragraph).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Repetitions {
    /// Stored as provisional and used again from any path; when the
    /// start's loss rests on one, the provisional losses are proved
    /// together as a closed set, and those not in it searched again.
    #[default]
    Closure,
    /// Kept apart with the repeated states, used again only while every
    /// one of them is on the path.
    OnPath,
}

/// In what order a search (`Repetitions::Closure`) takes the states.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Order {
    /// Depth-first proof-number search (df-pn): always the state that
    /// looks cheapest to prove or disprove, by proof and disproof numbers
    /// kept in the table (8 bytes more a slot).
    #[default]
    ProofNumbers,
    /// Depth first, each state's moves in turn until one decides it.
    DepthFirst,
}

/// How a search works (its limits apart).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Options {
    pub(crate) repetitions: Repetitions,
    /// Used with `Repetitions::Closure` only.
    pub(crate) order: Order,
}

/// A search that stopped, or a problem it does not take on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SearchTooLarge {
    /// Refused before any work: the key does not hold the problem.
    Key(TooLarge),
    /// The table reached the memory limit.
    Memory {
        nodes: u64,
        entries: u64,
        bytes: u64,
        limit: u64,
    },
    /// The search expanded as many states as it may.
    Nodes { nodes: u64, entries: u64 },
    /// Called off (`Search::call_off_when`): another search answered
    /// first.
    CalledOff { nodes: u64 },
}

impl fmt::Display for SearchTooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchTooLarge::Key(error) => write!(f, "{error}"),
            SearchTooLarge::Memory {
                nodes,
                entries,
                bytes,
                limit,
            } => write!(
                f,
                "the search's table reached {} of its {} limit: stopped after {nodes} states \
                 expanded, {entries} kept, the value not yet proven",
                human_bytes(*bytes as f64),
                human_bytes(*limit as f64)
            ),
            SearchTooLarge::Nodes { nodes, entries } => write!(
                f,
                "the search expanded {nodes} states, its limit, {entries} kept, \
                 the value not yet proven"
            ),
            SearchTooLarge::CalledOff { nodes } => write!(
                f,
                "the search was called off after {nodes} states expanded: another search \
                 answered first"
            ),
        }
    }
}

impl std::error::Error for SearchTooLarge {}

/// An entry of the table: the best move (bits 0 to 7: a point, `PASS`, or
/// `NO_MOVE`), whether the attacker wins (bit 8) or not (bit 9), and
/// bounds of the distance: at least bits 16 to 31, at most bits 32 to 47
/// (`UNKNOWN`: none); bit 10: a provisional loss; bits 48 to 63: the
/// proof-number search's visits (`visits`).
type Entry = u64;

const NO_MOVE: u8 = 0xfe;
const WON: u64 = 1 << 8;
const LOST: u64 = 1 << 9;
/// A loss that rests on a repetition or on other provisional losses, not
/// yet proved (`Repetitions::Closure`).
const PROVISIONAL: u64 = 1 << 10;
const UNKNOWN: u64 = 0xffff;
const EMPTY_ENTRY: Entry = NO_MOVE as u64 | UNKNOWN << 32;

fn best_of(entry: Entry) -> u8 {
    entry as u8
}
fn lower(entry: Entry) -> u32 {
    ((entry >> 16) & 0xffff) as u32
}
fn upper(entry: Entry) -> u32 {
    ((entry >> 32) & 0xffff) as u32
}
fn with_best(entry: Entry, mv: u8) -> Entry {
    (entry & !0xff) | mv as u64
}
fn with_lower(entry: Entry, d: u32) -> Entry {
    let d = (d as u64).min(UNKNOWN);
    if d as u32 > lower(entry) {
        (entry & !(0xffff << 16)) | d << 16
    } else {
        entry
    }
}
fn with_upper(entry: Entry, d: u32) -> Entry {
    let d = (d as u64).min(UNKNOWN - 1);
    if (d as u32) < upper(entry) {
        (entry & !(0xffff << 32)) | d << 32
    } else {
        entry
    }
}

/// The times the proof-number search left a state unsolved by a visit
/// that gained nothing: no state new to the table, none solved (bits 48
/// to 63 of its entry).
fn visits(entry: Entry) -> u64 {
    entry >> 48
}
fn with_visits(entry: Entry, visits: u64) -> Entry {
    (entry & !(0xffff << 48)) | visits.min(0xffff) << 48
}

/// The times the proof-number search may leave a state unsolved by a
/// visit that gained nothing; the next time, it is searched depth first
/// (`prove_closure`), which solves it. On cycles of states off the path,
/// proof and disproof numbers can grow by one at each visit without end.
const MAX_VISITS: u64 = 256;

/// The key of an empty slot: the packed key of a capture state, which is
/// never stored.
const FREE: u128 = 0;

/// The table: open addressing with linear probing, at most 3/4 full while
/// it may grow, at most 15/16 once the memory limit stops its growth.
/// A slot holds its key, entry and numbers together, two slots to a
/// cache line, so that a look-up costs one line; `prefetch` asks for a
/// key's first slot ahead of the look-up.
struct Table {
    slots: Vec<Slot>,
    len: usize,
    shift: u32,
    peak_bytes: usize,
}

/// A slot of the table: the packed key (`FREE`: none), its entry, and
/// the proof number (low half) and disproof number (high half) of a
/// state not yet solved (0: none stored; only the proof-number search,
/// `Order::ProofNumbers`, stores them).
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Slot {
    key: u128,
    value: Entry,
    numbers: u64,
}

const FREE_SLOT: Slot = Slot {
    key: FREE,
    value: 0,
    numbers: 0,
};

impl Table {
    fn with_slots(slots: usize) -> Table {
        // Huge pages where the system gives them on request: the look-ups
        // land at random over the whole table.
        let mut memory = Vec::with_capacity(slots);
        huge_pages::advise(memory.spare_capacity_mut());
        memory.resize(slots, FREE_SLOT);
        let mut table = Table {
            slots: memory,
            len: 0,
            shift: 64 - slots.trailing_zeros(),
            peak_bytes: 0,
        };
        table.peak_bytes = table.bytes();
        table
    }

    fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }

    #[inline]
    fn slot(&self, key: u128) -> (usize, bool) {
        let mask = self.slots.len() - 1;
        let mut slot = (hash(key) >> self.shift) as usize;
        loop {
            let k = self.slots[slot].key;
            if k == key {
                return (slot, true);
            }
            if k == FREE {
                return (slot, false);
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Asks for the cache lines of `key`'s first slot and the one after
    /// it: a key not in the table is found missing only at a free slot,
    /// often past the first line at three quarters full.
    #[inline]
    fn prefetch(&self, key: u128) {
        let slot = (hash(key) >> self.shift) as usize;
        prefetch_element(&self.slots, slot);
        prefetch_element(&self.slots, (slot + 2) & (self.slots.len() - 1));
    }

    #[inline]
    fn get(&self, key: u128) -> Entry {
        match self.slot(key) {
            (slot, true) => self.slots[slot].value,
            _ => EMPTY_ENTRY,
        }
    }

    /// The entry of `key` and its proof and disproof numbers (0: none).
    #[inline]
    fn get_with_numbers(&self, key: u128) -> (Entry, u64) {
        match self.slot(key) {
            (slot, true) => (self.slots[slot].value, self.slots[slot].numbers),
            _ => (EMPTY_ENTRY, 0),
        }
    }

    /// Stores `value` for `key` (and no numbers); false if the table is
    /// full and may not grow within `limit` bytes.
    fn set(&mut self, key: u128, value: Entry, limit: usize) -> bool {
        self.set_with_numbers(key, value, 0, limit)
    }

    /// Stores `value` and `numbers` for `key`; false if the table is full
    /// and may not grow within `limit` bytes.
    fn set_with_numbers(&mut self, key: u128, value: Entry, numbers: u64, limit: usize) -> bool {
        let (slot, found) = self.slot(key);
        if found {
            self.slots[slot].value = value;
            self.slots[slot].numbers = numbers;
            return true;
        }
        let slots = self.slots.len();
        if (self.len + 1) * 4 > slots * 3 {
            if self.bytes() * 3 <= limit {
                self.grow();
                return self.set_with_numbers(key, value, numbers, limit);
            }
            if (self.len + 1) * 16 > slots * 15 {
                return false;
            }
        }
        self.slots[slot] = Slot {
            key,
            value,
            numbers,
        };
        self.len += 1;
        true
    }

    /// Grows the table, while its old and new copies fit `limit` bytes,
    /// until it holds `more` entries besides its own below 3/4 full.
    fn reserve(&mut self, more: usize, limit: usize) {
        while !self.holds(more) && self.bytes() * 3 <= limit {
            self.grow();
        }
    }

    /// Whether `more` entries besides its own keep the table within 3/4
    /// full.
    fn holds(&self, more: usize) -> bool {
        (self.len + more) * 4 <= self.slots.len() * 3
    }

    fn grow(&mut self) {
        let mut grown = Table::with_slots(self.slots.len() * 2);
        grown.peak_bytes = self.peak_bytes.max(self.bytes() + grown.bytes());
        for slot in &self.slots {
            if slot.key != FREE {
                let (i, _) = grown.slot(slot.key);
                grown.slots[i] = *slot;
            }
        }
        grown.len = self.len;
        *self = grown;
    }
}

/// An odd multiplier: slot `i * SCATTER` (modulo a power of two) visits
/// every slot once, in an order unrelated to the keys' hashes.
const SCATTER: usize = 0x9e37_79b9_7f4a_7c15_u64 as usize;

/// A hasher for packed keys (already well mixed by `hash`).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u128(&mut self, key: u128) {
        self.0 = hash(key);
    }
}

/// What a result of `Repetitions::Closure`'s search rests on: nothing
/// (`CERTAIN`), a provisional loss of the table (0), or `1 + i`: a
/// repetition of the path's state at ply `i` at the earliest.
const CERTAIN: u32 = u32::MAX;

/// The power of its targets' liberties that is the proof number of a
/// state not yet expanded (`Search::first_proof_number`).
const FIRST_PROOF_POWER: u32 = 3;

/// The proof or disproof number of a state proved the other way.
const INFINITE: u64 = 1 << 31;

/// A sum of proof or disproof numbers, at most `INFINITE - 1` unless one
/// of them is `INFINITE`.
fn add(a: u64, b: u64) -> u64 {
    if a >= INFINITE || b >= INFINITE {
        INFINITE
    } else {
        (a + b).min(INFINITE - 1)
    }
}

/// The history index of a move: its point, or 64 for the pass.
fn history_index(mv: u8) -> usize {
    if mv == PASS {
        64
    } else {
        mv as usize
    }
}

/// The proof search of one problem under one ko assumption.
pub(crate) struct Search {
    board: Board,
    ko: KoAssumption,
    objective: Objective,
    codec: Codec,
    adjacency: Adjacency,
    table: Table,
    limits: SearchLimits,
    path: Vec<u128>,
    buffers: Vec<Vec<(u8, Option<StateKey>)>>,
    packed_buffers: Vec<Vec<u128>>,
    killers: Vec<[u8; 2]>,
    history: [[u32; 65]; 2],
    nodes: u64,
    stopped: Option<SearchTooLarge>,
    start: StateKey,
    options: Options,
    /// The plies of the states on the path (`Repetitions::Closure`).
    on_path: HashMap<u128, u32, BuildHasherDefault<KeyHasher>>,
    /// The rounds of search and closure of `Repetitions::Closure`, and the
    /// provisional losses it checked.
    rounds: u64,
    closed: u64,
    reopened: u64,
    closure_peak: usize,
    store_dependent: bool,
    deep_stack: bool,
    /// The losses that rest on repetitions of other states, with those
    /// states, and a count of the memory they hold.
    dependent: HashMap<u128, Box<[u128]>>,
    dependent_bytes: usize,
    dependent_peak: usize,
    /// The results stored (won, lost or provisional), which with the
    /// table's length tells whether a proof-number visit gained anything.
    solved: u64,
    /// The states the proof-number search handed to the depth-first
    /// search at `MAX_VISITS`.
    fallbacks: u64,
    /// A flag that, once set, stops the search (`call_off_when`).
    call_off: Option<Arc<AtomicBool>>,
}

impl Drop for Search {
    /// Logs the search's work (`RUST_LOG=smallgo=trace`): every search of
    /// a solve, a game or a seki test, with its ko assumption and
    /// objective.
    fn drop(&mut self) {
        log::trace!(
            "proof search ({:?}, {}): {} states expanded, {} in the table",
            self.ko,
            match self.objective {
                Objective::Capture => "capture",
                Objective::Clear { .. } => "seki test",
            },
            self.nodes,
            self.table.len
        );
    }
}

/// The memory counted for a dependent loss besides its states: its key
/// and the map's slot.
const DEPENDENT_BYTES: usize = 48;

/// The stack the search runs on: its recursion is as deep as the longest
/// line it follows.
const STACK_BYTES: usize = 1 << 30;

impl Search {
    /// A search of `problem`'s states, within `limits`; refused before any
    /// work when the key does not hold the problem's target strings.
    pub(crate) fn new(problem: &Problem, limits: SearchLimits) -> Result<Search, SearchTooLarge> {
        Search::with_options(problem, limits, Options::default())
    }

    /// A search of `problem`'s states, within `limits`, working as
    /// `options` say.
    pub(crate) fn with_options(
        problem: &Problem,
        limits: SearchLimits,
        options: Options,
    ) -> Result<Search, SearchTooLarge> {
        let board = *problem.board();
        let codec = Codec::new(&board, problem).map_err(SearchTooLarge::Key)?;
        Ok(Search {
            board,
            ko: problem.ko(),
            objective: problem.objective(),
            codec,
            adjacency: Adjacency::new(&board),
            table: Table::with_slots(1 << 10),
            limits,
            path: Vec::new(),
            buffers: Vec::new(),
            packed_buffers: Vec::new(),
            killers: Vec::new(),
            history: [[0; 65]; 2],
            nodes: 0,
            stopped: None,
            start: StateKey::start(problem),
            options,
            on_path: HashMap::default(),
            rounds: 0,
            closed: 0,
            reopened: 0,
            closure_peak: 0,
            store_dependent: false,
            deep_stack: false,
            dependent: HashMap::new(),
            dependent_bytes: 0,
            dependent_peak: 0,
            solved: 0,
            fallbacks: 0,
            call_off: None,
        })
    }

    /// The problem's start.
    pub(crate) fn start(&self) -> StateKey {
        self.start
    }

    /// The states expanded so far.
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The states the table holds.
    pub(crate) fn entries(&self) -> usize {
        self.table.len
    }

    /// The most memory the table held at once, in bytes.
    pub(crate) fn peak_bytes(&self) -> usize {
        self.table.peak_bytes + self.dependent_peak.max(self.closure_peak)
    }

    /// The rounds of search (`Repetitions::Closure`: one, and one more
    /// after each closure that left the start unproved).
    pub(crate) fn rounds(&self) -> u64 {
        self.rounds
    }

    /// The provisional losses the closures checked (`Repetitions::Closure`).
    pub(crate) fn closed(&self) -> u64 {
        self.closed
    }

    /// The provisional losses the closures left out, to be searched again.
    pub(crate) fn reopened(&self) -> u64 {
        self.reopened
    }

    /// The states the proof-number search left to the depth-first search
    /// after `MAX_VISITS` visits that gained nothing.
    pub(crate) fn fallbacks(&self) -> u64 {
        self.fallbacks
    }

    /// For the tests only: stores losses that rest on a repetition of an
    /// ancestor too, which is unsound.
    #[cfg(test)]
    pub(crate) fn store_dependent_losses(&mut self) {
        self.store_dependent = true;
    }

    /// Runs `f` on a thread with a stack deep enough for the recursion
    /// (at once if already on one): a caller that asks many values runs
    /// them all so, on one thread.
    pub(crate) fn deep<T: Send>(&mut self, f: impl FnOnce(&mut Search) -> T + Send) -> T {
        if self.deep_stack {
            return f(self);
        }
        std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(STACK_BYTES)
                .spawn_scoped(scope, || {
                    self.deep_stack = true;
                    let result = f(self);
                    self.deep_stack = false;
                    result
                })
                .expect("a thread for the search")
                .join()
                .expect("the search's thread")
        })
    }

    /// Stops the searches to come, with `SearchTooLarge::CalledOff`, once
    /// `flag` is set (by another thread); `None`: never. What a search
    /// called off has stored stays, all of it sound, as after any stop.
    pub(crate) fn call_off_when(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.call_off = flag;
    }

    fn stopped(&mut self) -> Result<(), SearchTooLarge> {
        match self.stopped.take() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    /// Whether the attacker wins `key` (a state of the problem's game).
    pub(crate) fn wins(&mut self, key: &StateKey) -> Result<bool, SearchTooLarge> {
        let key = *key;
        let won = self.deep(move |search| {
            let packed = search.codec.pack(&key);
            match search.options.repetitions {
                Repetitions::OnPath => {
                    search.path.clear();
                    search.rounds += 1;
                    search.prove(&key, packed).0
                }
                Repetitions::Closure => search.wins_closure(&key, packed),
            }
        });
        self.stopped()?;
        Ok(won)
    }

    /// Whether the attacker wins `key`, if a search of at most `budget`
    /// more states proves it (`None`: the budget ran out first; what the
    /// search stored stays, all of it sound).
    pub(crate) fn wins_budgeted(
        &mut self,
        key: &StateKey,
        budget: u64,
    ) -> Result<Option<bool>, SearchTooLarge> {
        let limit = self.limits.max_nodes;
        let budgeted = self.nodes.saturating_add(budget);
        if budgeted >= limit {
            return self.wins(key).map(Some);
        }
        self.limits.max_nodes = budgeted;
        let result = self.wins(key);
        self.limits.max_nodes = limit;
        match result {
            Err(SearchTooLarge::Nodes { .. }) => Ok(None),
            other => other.map(Some),
        }
    }

    /// Takes into this search's table the results of `other`, a search
    /// of the same problem under another ko assumption, that hold here
    /// too: the attacker's proved losses and the lower bounds of the
    /// distances when `other`'s assumption gives him at least the moves
    /// this one does, his wins and the upper bounds of the distances when
    /// it gives him at most those (`attacker_moves`). Unlimited threats
    /// only add moves for the side that has them, and the game is a
    /// reachability game: moves added for the attacker can only turn
    /// losses into wins and shorten his distance (a capture within `d`
    /// plies stays one), moves added for the defender only turn wins into
    /// losses and lengthen it. So a loss, or "no capture within `d`
    /// plies", with the attacker ignoring ko is one with basic ko and with
    /// the defender ignoring ko, and a win, or "a capture within `d`
    /// plies", with the defender ignoring ko is one with basic ko and with
    /// the attacker ignoring ko. (The states are the same: a state's key
    /// holds its ko point whatever the assumption; only the moves from it
    /// differ.) From a search under the same assumption, all of these
    /// are taken. Provisional losses are not taken. The table first grows
    /// to hold what is taken, within a quarter of the memory limit (taken
    /// in `other`'s slot order, the keys of a table too small would pile
    /// up in one run of slots: past it, they are taken in a scattered
    /// order); the imports stop when the table would pass that quarter.
    /// Returns how many entries were taken or tightened.
    pub(crate) fn import(&mut self, other: &Search) -> usize {
        debug_assert!(self.start == other.start && self.board == other.board);
        let (mine, theirs) = (attacker_moves(self.ko), attacker_moves(other.ko));
        // Whether `other`'s losses and lower bounds hold here (it gives
        // the attacker at least the moves this one does), and whether its
        // wins and upper bounds do (at most those).
        let (losses, wins) = (theirs >= mine, theirs <= mine);
        let holds = |value: Entry| {
            (losses && (value & LOST != 0 || lower(value) > 0)) || (wins && value & WON != 0)
        };
        let limit = usize::try_from(self.limits.max_bytes / 4).unwrap_or(usize::MAX);
        let wanted = other
            .table
            .slots
            .iter()
            .filter(|slot| slot.key != FREE && holds(slot.value))
            .count();
        self.table.reserve(wanted, limit);
        let scattered = !self.table.holds(wanted);
        let mask = other.table.slots.len() - 1;
        let mut taken = 0;
        for i in 0..other.table.slots.len() {
            let slot = if scattered {
                i.wrapping_mul(SCATTER) & mask
            } else {
                i
            };
            let Slot { key, value, .. } = other.table.slots[slot];
            if key == FREE || !holds(value) {
                continue;
            }
            let entry = self.table.get(key);
            if entry & LOST != 0 {
                continue;
            }
            let mut updated = entry;
            if losses {
                if value & LOST != 0 {
                    if entry & WON != 0 {
                        continue;
                    }
                    updated = with_lower((updated & !PROVISIONAL) | LOST, u32::MAX);
                } else {
                    updated = with_lower(updated, lower(value));
                }
            }
            if wins && value & WON != 0 {
                updated = (updated & !PROVISIONAL) | WON;
                if upper(value) < UNKNOWN as u32 {
                    updated = with_upper(updated, upper(value));
                }
            }
            if updated == entry {
                continue;
            }
            let full = (self.table.len + 1) * 4 > self.table.slots.len() * 3;
            if full && self.table.bytes() * 3 > limit {
                break;
            }
            if !self.table.set(key, updated, limit) {
                break;
            }
            taken += 1;
        }
        taken
    }

    /// The memory the table holds now, in bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Whether the table holds `key` as a loss of the attacker's (proved,
    /// not provisional).
    pub(crate) fn is_proved_loss(&self, key: &StateKey) -> bool {
        !key.is_capture() && self.table.get(self.codec.pack(key)) & LOST != 0
    }

    /// Whether the attacker wins `key` within `plies` plies.
    pub(crate) fn wins_within(
        &mut self,
        key: &StateKey,
        plies: u32,
    ) -> Result<bool, SearchTooLarge> {
        let key = *key;
        let won = self.deep(move |search| {
            let packed = search.codec.pack(&key);
            search.within(&key, packed, plies) <= plies
        });
        self.stopped()?;
        Ok(won)
    }

    /// The value of `key` as `solve` gives it: the attacker's distance to
    /// the capture (shortest for him, longest for the defender), or none:
    /// the proof search first, then `distance` for a win.
    pub(crate) fn status(&mut self, key: &StateKey) -> Result<Status, SearchTooLarge> {
        if !self.wins(key)? {
            return Ok(Status(None));
        }
        self.distance_by(key, Gallop::Doubling).map(Status)
    }

    /// The attacker's distance to the capture at `key`, found by searches
    /// to a depth alone (no proof search first), between its bounds
    /// (`within` stores one at each search): from the least, searches at
    /// depths growing by 2, 4, 6, ... (`Gallop::Steady`) until one
    /// captures, then halving until the two bounds meet; `None` if a
    /// search finds he never captures. Where he wins, this is often
    /// cheaper than the proof search and the distance after it; where he
    /// does not, it may search deeper and deeper until stopped
    /// (`call_off_when`, or the limits).
    pub(crate) fn distance(&mut self, key: &StateKey) -> Result<Option<u32>, SearchTooLarge> {
        self.distance_by(key, Gallop::Steady)
    }

    /// `distance`, the depths growing as `gallop` says.
    fn distance_by(
        &mut self,
        key: &StateKey,
        gallop: Gallop,
    ) -> Result<Option<u32>, SearchTooLarge> {
        if key.is_capture() {
            return Ok(Some(0));
        }
        let key = *key;
        let distance = self.deep(move |search| {
            let packed = search.codec.pack(&key);
            let entry = search.table.get(packed);
            // Bounds of the distance: `lo <= distance <= hi`.
            let mut lo = at_parity(&key, lower(entry).max(1));
            let mut hi = upper(entry);
            let mut step = 2;
            let mut d = lo;
            while lo < hi {
                let bound = search.within(&key, packed, d);
                if search.stopped.is_some() {
                    return d;
                }
                if bound <= d {
                    hi = bound;
                } else {
                    // `NEVER` (the attacker never captures) ends the loop.
                    lo = bound;
                }
                d = if hi < NEVER {
                    // Halving: a depth of the distance's parity in
                    // `lo..hi`.
                    lo + 2 * ((hi - lo) / 4)
                } else {
                    // Galloping: the failed searches below the distance
                    // cost least far below it. Depths stay below `NEVER`,
                    // the greatest bound stored.
                    let next = (lo + step).min(NEVER - 1);
                    step = match gallop {
                        Gallop::Doubling => step * 2,
                        Gallop::Steady => step + 2,
                    };
                    next
                };
            }
            hi
        });
        self.stopped()?;
        Ok((distance < NEVER).then_some(distance))
    }

    /// Whether a target of `key` is unconditionally alive: the defender
    /// has won, and the state has no move.
    pub(crate) fn is_settled(&self, key: &StateKey) -> bool {
        !key.is_capture()
            && unconditionally_alive(&self.adjacency, key.defender, key.attacker) & key.targets != 0
    }

    /// The moves of `key`, each with the state it leads to (`None`: the
    /// game ends): placements in point order, then the pass; none for a
    /// capture or a settled state.
    pub(crate) fn moves(&self, key: &StateKey) -> Vec<(Move, Option<StateKey>)> {
        if key.is_capture() || self.is_settled(key) {
            return Vec::new();
        }
        successor_moves(&self.board, self.ko, self.objective, key)
    }

    /// Counts a state expanded; false (the search stopped) past the node
    /// limit.
    fn expand(&mut self) -> bool {
        if self.stopped.is_some() {
            return false;
        }
        if self
            .call_off
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
        {
            self.stopped = Some(SearchTooLarge::CalledOff { nodes: self.nodes });
            return false;
        }
        self.nodes += 1;
        if self.nodes > self.limits.max_nodes {
            self.stopped = Some(SearchTooLarge::Nodes {
                nodes: self.nodes,
                entries: self.table.len as u64,
            });
            return false;
        }
        true
    }

    fn store(&mut self, packed: u128, entry: Entry) {
        if self.stopped.is_some() {
            return;
        }
        self.solved += 1;
        let limit = usize::try_from(self.limits.max_bytes).unwrap_or(usize::MAX);
        if !self.table.set(packed, entry, limit) {
            self.stopped = Some(SearchTooLarge::Memory {
                nodes: self.nodes,
                entries: self.table.len as u64,
                bytes: self.table.peak_bytes as u64,
                limit: self.limits.max_bytes,
            });
        }
    }

    /// The children of `key` in the order to search them, into the
    /// buffer of `ply` (the attacker's pass left out).
    fn ordered(&mut self, key: &StateKey, best: u8, ply: usize) -> Vec<(u8, Option<StateKey>)> {
        while self.buffers.len() <= ply {
            self.buffers.push(Vec::new());
            self.killers.push([NO_MOVE; 2]);
        }
        let mut children = std::mem::take(&mut self.buffers[ply]);
        children.clear();
        successors(&self.board, self.ko, self.objective, key, &mut children);
        if key.attacker_to_move {
            children.retain(|&(mv, _)| mv != PASS);
        }
        let liberties = self.target_liberties(key);
        let killers = self.killers[ply];
        let history = &self.history[usize::from(key.attacker_to_move)];
        let score = |mv: u8| -> u64 {
            if mv == best {
                return u64::MAX;
            }
            if mv == killers[0] {
                return u64::MAX - 1;
            }
            if mv == killers[1] {
                return u64::MAX - 2;
            }
            let on_liberty = mv != PASS && liberties >> mv & 1 != 0;
            (u64::from(on_liberty) << 40) + u64::from(history[history_index(mv)])
        };
        children.sort_by_key(|&(mv, _)| std::cmp::Reverse(score(mv)));
        children
    }

    /// The packed keys of `children` (`FREE` for a move that ends the
    /// game), in the buffer of `ply`, which the caller gives back.
    fn packed(&mut self, children: &[(u8, Option<StateKey>)], ply: usize) -> Vec<u128> {
        while self.packed_buffers.len() <= ply {
            self.packed_buffers.push(Vec::new());
        }
        let mut packed = std::mem::take(&mut self.packed_buffers[ply]);
        packed.clear();
        packed.extend(
            children
                .iter()
                .map(|(_, child)| child.as_ref().map_or(FREE, |c| self.codec.pack(c))),
        );
        packed
    }

    /// Records a move that decided a state.
    fn cut(&mut self, attacker: bool, mv: u8, ply: usize) {
        let slot = &mut self.history[usize::from(attacker)][history_index(mv)];
        *slot = slot.saturating_add(1);
        let killers = &mut self.killers[ply];
        if killers[0] != mv {
            killers[1] = killers[0];
            killers[0] = mv;
        }
    }

    /// The value of `key` (packed as `packed`) on the current path: whether
    /// the attacker wins, and the ancestors (packed keys) whose repetition
    /// a loss rests on (none: a loss of the real game).
    fn prove(&mut self, key: &StateKey, packed: u128) -> (bool, Vec<u128>) {
        if key.is_capture() {
            return (true, Vec::new());
        }
        let entry = self.table.get(packed);
        if entry & WON != 0 {
            return (true, Vec::new());
        }
        if entry & LOST != 0 {
            return (false, Vec::new());
        }
        let ply = self.path.len();
        // States alternate their mover along the path: only those of the
        // same parity can repeat this one.
        if (ply % 2..ply).step_by(2).any(|i| self.path[i] == packed) {
            return (false, vec![packed]);
        }
        // A loss that rests on repetitions of states all on the path now
        // holds here too.
        if let Some(rests) = self.dependent.get(&packed) {
            if rests.iter().all(|r| self.path.contains(r)) {
                return (false, rests.to_vec());
            }
        }
        if !self.expand() {
            return (false, Vec::new());
        }
        if unconditionally_alive(&self.adjacency, key.defender, key.attacker) & key.targets != 0 {
            self.store(packed, with_lower(entry | LOST, u32::MAX));
            return (false, Vec::new());
        }
        let children = self.ordered(key, best_of(entry), ply);
        self.path.push(packed);
        let attacker = key.attacker_to_move;
        let mut won = !attacker;
        let mut rests: Vec<u128> = Vec::new();
        let mut best = NO_MOVE;
        for &(mv, child) in &children {
            let (child_won, child_rests) = match child {
                None => (false, Vec::new()),
                Some(child) => {
                    let packed = self.codec.pack(&child);
                    self.prove(&child, packed)
                }
            };
            if self.stopped.is_some() {
                break;
            }
            if attacker {
                if child_won {
                    won = true;
                    best = mv;
                    break;
                }
                for r in child_rests {
                    if !rests.contains(&r) {
                        rests.push(r);
                    }
                }
            } else if !child_won {
                won = false;
                rests = child_rests;
                best = mv;
                break;
            }
        }
        self.path.pop();
        self.buffers[ply] = children;
        if self.stopped.is_some() {
            return (false, Vec::new());
        }
        if best != NO_MOVE {
            self.cut(attacker, best, ply);
        }
        // The state itself forbidden does not change its value.
        rests.retain(|&r| r != packed);
        if won {
            self.store(packed, with_best(entry | WON, best));
            (true, Vec::new())
        } else if rests.is_empty() || self.store_dependent {
            if let Some(old) = self.dependent.remove(&packed) {
                self.dependent_bytes -= DEPENDENT_BYTES + 16 * old.len();
            }
            self.store(packed, with_best(with_lower(entry | LOST, u32::MAX), best));
            (false, Vec::new())
        } else {
            if best != NO_MOVE {
                self.store(packed, with_best(entry, best));
            }
            self.dependent_bytes += DEPENDENT_BYTES + 16 * rests.len();
            if let Some(old) = self
                .dependent
                .insert(packed, rests.clone().into_boxed_slice())
            {
                self.dependent_bytes -= DEPENDENT_BYTES + 16 * old.len();
            }
            self.dependent_peak = self.dependent_peak.max(self.dependent_bytes);
            if (self.table.bytes() + self.dependent_bytes) as u64 > self.limits.max_bytes {
                self.stopped = Some(SearchTooLarge::Memory {
                    nodes: self.nodes,
                    entries: self.table.len as u64,
                    bytes: (self.table.bytes() + self.dependent_bytes) as u64,
                    limit: self.limits.max_bytes,
                });
            }
            (false, rests)
        }
    }

    /// Whether the attacker wins `key` (packed as `packed`), by
    /// `Repetitions::Closure`: a search; if the start's loss rests on
    /// provisional losses, their closure, and the search again while the
    /// start is not proved.
    fn wins_closure(&mut self, key: &StateKey, packed: u128) -> bool {
        let mut order = self.options.order;
        loop {
            self.path.clear();
            self.on_path.clear();
            self.rounds += 1;
            let (won, rests) = match order {
                Order::DepthFirst => self.prove_closure(key, packed),
                Order::ProofNumbers => {
                    let (pn, _) = self.mid(key, packed, INFINITE, INFINITE);
                    let rests = if pn == 0 || self.table.get(packed) & LOST != 0 {
                        CERTAIN
                    } else {
                        0
                    };
                    (pn == 0, rests)
                }
            };
            // After a closure, depth first: a proof-number round may leave
            // a state of its path unsolved, and the provisional losses
            // that rested on it out of every closure; a depth-first round
            // solves each state it enters, so each round that leaves the
            // start out has stored a new win, and the rounds end.
            order = Order::DepthFirst;
            if self.stopped.is_some() {
                return false;
            }
            if won || rests != 0 || self.store_dependent {
                return won;
            }
            self.close();
            if self.stopped.is_some() {
                return false;
            }
            if self.table.get(packed) & LOST != 0 {
                return false;
            }
        }
    }

    /// The value of `key` (packed as `packed`) on the current path, and
    /// what it rests on (`CERTAIN`, 0 or `1 + i`: see `CERTAIN`). A loss
    /// that rests on nothing but repetitions of the state itself is a loss
    /// of the real game (the module's paragraph) and stored as one; a loss
    /// that rests on more is stored as provisional, to be proved by
    /// `close`.
    fn prove_closure(&mut self, key: &StateKey, packed: u128) -> (bool, u32) {
        if key.is_capture() {
            return (true, CERTAIN);
        }
        let entry = self.table.get(packed);
        if entry & WON != 0 {
            return (true, CERTAIN);
        }
        if entry & LOST != 0 {
            return (false, CERTAIN);
        }
        if entry & PROVISIONAL != 0 {
            return (false, 0);
        }
        if let Some(&ply) = self.on_path.get(&packed) {
            return (false, ply + 1);
        }
        if !self.expand() {
            return (false, CERTAIN);
        }
        if unconditionally_alive(&self.adjacency, key.defender, key.attacker) & key.targets != 0 {
            self.store(packed, with_lower(entry | LOST, u32::MAX));
            return (false, CERTAIN);
        }
        let ply = self.path.len();
        let children = self.ordered(key, best_of(entry), ply);
        self.path.push(packed);
        self.on_path.insert(packed, ply as u32);
        let attacker = key.attacker_to_move;
        let mut won = !attacker;
        let mut rests = CERTAIN;
        let mut best = NO_MOVE;
        for &(mv, child) in &children {
            let (child_won, child_rests) = match child {
                None => (false, CERTAIN),
                Some(child) => {
                    let packed = self.codec.pack(&child);
                    self.prove_closure(&child, packed)
                }
            };
            if self.stopped.is_some() {
                break;
            }
            if attacker {
                if child_won {
                    won = true;
                    best = mv;
                    break;
                }
                rests = rests.min(child_rests);
            } else if !child_won {
                won = false;
                rests = child_rests;
                best = mv;
                break;
            }
        }
        self.path.pop();
        self.on_path.remove(&packed);
        self.buffers[ply] = children;
        if self.stopped.is_some() {
            return (false, CERTAIN);
        }
        if best != NO_MOVE {
            self.cut(attacker, best, ply);
        }
        if won {
            self.store(packed, with_best(entry | WON, best));
            (true, CERTAIN)
        } else if rests > ply as u32 {
            self.store(packed, with_best(with_lower(entry | LOST, u32::MAX), best));
            (false, CERTAIN)
        } else {
            self.store(packed, with_best(entry | PROVISIONAL, best));
            (false, rests)
        }
    }

    /// The proof and disproof numbers of a child (`None`: the game ends),
    /// and what a loss rests on (as `prove_closure` returns it).
    #[inline]
    fn look(&self, child: Option<&StateKey>, packed: u128) -> (u64, u64, u32) {
        let Some(child) = child else {
            return (INFINITE, 0, CERTAIN);
        };
        if child.is_capture() {
            return (0, INFINITE, CERTAIN);
        }
        let (entry, numbers) = self.table.get_with_numbers(packed);
        if entry & WON != 0 {
            return (0, INFINITE, CERTAIN);
        }
        if entry & LOST != 0 {
            return (INFINITE, 0, CERTAIN);
        }
        if entry & PROVISIONAL != 0 {
            return (INFINITE, 0, 0);
        }
        if let Some(&ply) = self.on_path.get(&packed) {
            return (INFINITE, 0, ply + 1);
        }
        if numbers == 0 {
            return (self.first_proof_number(child), 1, CERTAIN);
        }
        (numbers & 0xffff_ffff, numbers >> 32, CERTAIN)
    }

    /// The proof number of a state the search has not expanded, where its
    /// disproof number is 1: the cube of its targets' liberties (at least
    /// 1), the stones the attacker has at least to play to capture them.
    /// Any positive estimate keeps the search exact; this one sends it
    /// first where the targets are short of liberties, and the cube ranks
    /// one liberty less above a branch or two more to search.
    #[inline]
    fn first_proof_number(&self, key: &StateKey) -> u64 {
        u64::from(self.target_liberties(key).count_ones())
            .max(1)
            .pow(FIRST_PROOF_POWER)
    }

    /// The empty points next to `key`'s targets.
    #[inline]
    fn target_liberties(&self, key: &StateKey) -> u64 {
        let empty = self.board.all().bits() & !key.attacker & !key.defender;
        self.board.adjacent(PointSet(key.targets)).bits() & empty
    }

    /// Depth-first proof-number search of `key` (packed as `packed`) on
    /// the current path, until it is solved or its proof number reaches
    /// `th_pn` or its disproof number `th_dn`: its numbers then (0 and
    /// `INFINITE`: won; `INFINITE` and 0: lost, stored as a loss or a
    /// provisional loss as by `prove_closure`). A repetition of a state on
    /// the path has the numbers of a loss.
    fn mid(&mut self, key: &StateKey, packed: u128, th_pn: u64, th_dn: u64) -> (u64, u64) {
        let (pn, dn, _) = self.look(Some(key), packed);
        if pn == 0 || dn == 0 {
            return (pn, dn);
        }
        let (entry, numbers) = self.table.get_with_numbers(packed);
        if visits(entry) >= MAX_VISITS {
            self.fallbacks += 1;
            return match self.prove_closure(key, packed) {
                (true, _) => (0, INFINITE),
                (false, _) => (INFINITE, 0),
            };
        }
        if !self.expand() {
            return (INFINITE, 0);
        }
        // A state with numbers stored was expanded before, and its
        // targets were not unconditionally alive then.
        if numbers == 0
            && unconditionally_alive(&self.adjacency, key.defender, key.attacker) & key.targets != 0
        {
            self.store(packed, with_lower(entry | LOST, u32::MAX));
            return (INFINITE, 0);
        }
        let gained = self.solved + self.table.len as u64;
        let ply = self.path.len();
        let children = self.ordered(key, best_of(entry), ply);
        let packed_children = self.packed(&children, ply);
        self.path.push(packed);
        self.on_path.insert(packed, ply as u32);
        let attacker = key.attacker_to_move;
        let (mut pn, mut dn);
        let mut best;
        loop {
            // The children's slots, asked for together: the search below
            // the last child has likely pushed them out of the cache.
            for &child in &packed_children {
                self.table.prefetch(child);
            }
            // The attacker's state is proved by one child, disproved by
            // all; the defender's the other way round.
            pn = if attacker { INFINITE } else { 0 };
            dn = if attacker { 0 } else { INFINITE };
            best = usize::MAX;
            let mut second = INFINITE;
            let mut best_other = 0;
            for (i, (_, child)) in children.iter().enumerate() {
                let (cpn, cdn, _) = self.look(child.as_ref(), packed_children[i]);
                let (mine, other) = if attacker { (cpn, cdn) } else { (cdn, cpn) };
                let (low, sum) = if attacker {
                    (&mut pn, &mut dn)
                } else {
                    (&mut dn, &mut pn)
                };
                if mine < *low {
                    second = *low;
                    *low = mine;
                    best = i;
                    best_other = other;
                } else if mine < second {
                    second = mine;
                }
                *sum = add(*sum, other);
            }
            if pn == 0 || dn == 0 || pn >= th_pn || dn >= th_dn {
                break;
            }
            let (child_pn, child_dn) = if attacker {
                (th_pn.min(second + 1), add(th_dn - dn, best_other))
            } else {
                (add(th_pn - pn, best_other), th_dn.min(second + 1))
            };
            let child = children[best].1.expect("a child with numbers is a state");
            self.mid(&child, packed_children[best], child_pn, child_dn);
            if self.stopped.is_some() {
                break;
            }
        }
        self.path.pop();
        self.on_path.remove(&packed);
        if self.stopped.is_some() {
            self.buffers[ply] = children;
            self.packed_buffers[ply] = packed_children;
            return (INFINITE, 0);
        }
        if pn == 0 {
            // The attacker's winning move; the defender's state is won
            // through all its children, with no move of its own.
            let best_move = if attacker { children[best].0 } else { NO_MOVE };
            if attacker {
                self.cut(attacker, best_move, ply);
            }
            self.store(packed, with_best(entry | WON, best_move));
        } else if dn == 0 {
            // What the loss rests on: all the attacker's children, or the
            // defender's lost child that rests on least.
            let mut rests = CERTAIN;
            let mut best_move = NO_MOVE;
            if attacker {
                for (i, (_, child)) in children.iter().enumerate() {
                    rests = rests.min(self.look(child.as_ref(), packed_children[i]).2);
                }
            } else {
                let mut chosen: Option<(u32, usize)> = None;
                for (i, (_, child)) in children.iter().enumerate() {
                    let (_, cdn, child_rests) = self.look(child.as_ref(), packed_children[i]);
                    if cdn == 0 && chosen.is_none_or(|(r, _)| child_rests > r) {
                        chosen = Some((child_rests, i));
                    }
                }
                let (child_rests, i) = chosen.expect("a lost child");
                rests = child_rests;
                best_move = children[i].0;
                self.cut(attacker, best_move, ply);
            }
            if rests > ply as u32 {
                self.store(
                    packed,
                    with_best(with_lower(entry | LOST, u32::MAX), best_move),
                );
            } else {
                self.store(packed, with_best(entry | PROVISIONAL, best_move));
            }
        } else {
            let best_move = if best == usize::MAX {
                NO_MOVE
            } else {
                children[best].0
            };
            let idle = self.solved + self.table.len as u64 == gained;
            let entry = with_visits(with_best(entry, best_move), visits(entry) + u64::from(idle));
            self.store_numbers(packed, entry, pn | dn << 32);
        }
        self.buffers[ply] = children;
        self.packed_buffers[ply] = packed_children;
        (pn, dn)
    }

    fn store_numbers(&mut self, packed: u128, entry: Entry, numbers: u64) {
        if self.stopped.is_some() {
            return;
        }
        let limit = usize::try_from(self.limits.max_bytes).unwrap_or(usize::MAX);
        if !self.table.set_with_numbers(packed, entry, numbers, limit) {
            self.stopped = Some(SearchTooLarge::Memory {
                nodes: self.nodes,
                entries: self.table.len as u64,
                bytes: self.table.peak_bytes as u64,
                limit: self.limits.max_bytes,
            });
        }
    }

    /// Proves the table's provisional losses that form a closed set: the
    /// greatest set of them in which every move of the attacker's leads
    /// into the set, to a proved loss or to the end of the game, and some
    /// move of the defender's does. The defender keeps to the set forever
    /// or ends the game, and the targets are never captured: each is a
    /// loss of the real game, and stored as one. The others are not known:
    /// their marks are removed, for the next round to search them again.
    fn close(&mut self) {
        let slots: Vec<usize> = (0..self.table.slots.len())
            .filter(|&s| {
                let slot = &self.table.slots[s];
                slot.key != FREE && slot.value & (PROVISIONAL | WON | LOST) == PROVISIONAL
            })
            .collect();
        let n = slots.len();
        self.closed += n as u64;
        // Per provisional loss: whether the attacker moves, whether it is
        // out of the set, and how many of its children in the set it
        // still has (the attacker needs them all, the defender one).
        let mut attacker = vec![false; n];
        let mut out = vec![false; n];
        let mut needs = vec![0u32; n];
        // (child, parent) for each move from one provisional loss to
        // another that the parent needs.
        let mut edges: Vec<(u32, u32)> = Vec::new();
        let mut children = Vec::new();
        for (i, &slot) in slots.iter().enumerate() {
            let key = self.codec.unpack(self.table.slots[slot].key);
            attacker[i] = key.attacker_to_move;
            children.clear();
            successors(&self.board, self.ko, self.objective, &key, &mut children);
            let first_edge = edges.len();
            let mut escapes = false;
            let mut held = false;
            for &(mv, child) in &children {
                if attacker[i] && mv == PASS {
                    continue;
                }
                let inside = match child {
                    None => Some(true),
                    Some(child) if child.is_capture() => Some(false),
                    Some(child) => match self.table.slot(self.codec.pack(&child)) {
                        (slot, true) => {
                            let value = self.table.slots[slot].value;
                            if value & WON != 0 {
                                Some(false)
                            } else if value & LOST != 0 {
                                Some(true)
                            } else if value & PROVISIONAL != 0 {
                                let j = slots.binary_search(&slot).expect("a provisional loss");
                                edges.push((j as u32, i as u32));
                                None
                            } else {
                                Some(false)
                            }
                        }
                        _ => Some(false),
                    },
                };
                match inside {
                    Some(true) => held = true,
                    Some(false) => escapes = true,
                    None => {}
                }
            }
            let linked = (edges.len() - first_edge) as u32;
            if attacker[i] {
                out[i] = escapes;
                needs[i] = linked;
            } else if held {
                edges.truncate(first_edge);
            } else {
                needs[i] = linked;
                out[i] = linked == 0;
            }
        }
        let bytes = n * (8 + 1 + 1 + 4 + 4 + 4) + edges.len() * (8 + 4);
        self.closure_peak = self.closure_peak.max(bytes);
        if (self.table.bytes() + bytes) as u64 > self.limits.max_bytes {
            self.stopped = Some(SearchTooLarge::Memory {
                nodes: self.nodes,
                entries: self.table.len as u64,
                bytes: (self.table.bytes() + bytes) as u64,
                limit: self.limits.max_bytes,
            });
            return;
        }
        // The parents of each provisional loss, grouped by child.
        let mut first = vec![0u32; n + 1];
        for &(child, _) in &edges {
            first[child as usize + 1] += 1;
        }
        for i in 0..n {
            first[i + 1] += first[i];
        }
        let mut parents = vec![0u32; edges.len()];
        let mut fill = first.clone();
        for &(child, parent) in &edges {
            parents[fill[child as usize] as usize] = parent;
            fill[child as usize] += 1;
        }
        drop(edges);
        drop(fill);
        let mut queue: Vec<u32> = (0..n as u32).filter(|&i| out[i as usize]).collect();
        while let Some(child) = queue.pop() {
            let child = child as usize;
            for &parent in &parents[first[child] as usize..first[child + 1] as usize] {
                let parent = parent as usize;
                if out[parent] {
                    continue;
                }
                needs[parent] -= 1;
                if attacker[parent] || needs[parent] == 0 {
                    out[parent] = true;
                    queue.push(parent as u32);
                }
            }
        }
        self.reopened += out.iter().filter(|&&o| o).count() as u64;
        for (i, &slot) in slots.iter().enumerate() {
            let value = self.table.slots[slot].value & !PROVISIONAL;
            self.table.slots[slot].value = if out[i] {
                value
            } else {
                with_lower(value | LOST, u32::MAX)
            };
        }
    }

    /// The bound `within(child, packed, d)` would return without
    /// searching, from what the table holds (`None` if it would search;
    /// a child that ends the game is the defender's).
    #[inline]
    fn known_within(&self, child: Option<&StateKey>, packed: u128, d: u32) -> Option<u32> {
        let Some(child) = child else {
            return Some(NEVER);
        };
        if child.is_capture() {
            return Some(0);
        }
        decided_within(child, self.table.get(packed), d)
    }

    /// A bound of the attacker's distance at `key` found by a search to
    /// `d` plies (fail-soft): a value `v <= d` means he captures within
    /// `v` plies (the distance is at most `v`), one above `d` that he
    /// does not capture within `v - 1` (the distance is at least `v`;
    /// `NEVER`: he never captures). Both are stored as the state's bounds.
    fn within(&mut self, key: &StateKey, packed: u128, d: u32) -> u32 {
        if key.is_capture() {
            return 0;
        }
        let entry = self.table.get(packed);
        if let Some(bound) = decided_within(key, entry, d) {
            return bound;
        }
        if !self.expand() {
            return d + 1;
        }
        // A won state, or one with a bound stored, has been found not
        // settled.
        if entry & WON == 0
            && lower(entry) == 0
            && unconditionally_alive(&self.adjacency, key.defender, key.attacker) & key.targets != 0
        {
            self.store(packed, with_lower(entry | LOST, u32::MAX));
            return NEVER;
        }
        let ply = d as usize;
        let children = self.ordered(key, best_of(entry), ply);
        let packed_children = self.packed(&children, ply);
        for &child in &packed_children {
            self.table.prefetch(child);
        }
        let attacker = key.attacker_to_move;
        // The attacker's least bound over his moves so far, or the
        // defender's greatest.
        let mut bound = if attacker { NEVER } else { 0 };
        let mut best = NO_MOVE;
        // First the children whose bounds the table holds already decide
        // the state (enhanced transposition cut-offs): the bound such a
        // child's search would return at once.
        for (i, &(mv, child)) in children.iter().enumerate() {
            let Some(child_bound) = self.known_within(child.as_ref(), packed_children[i], d - 1)
            else {
                continue;
            };
            let child_bound = child_bound.saturating_add(1).min(NEVER);
            let decides = if attacker {
                child_bound <= d && child_bound < bound
            } else {
                child_bound > d && child_bound > bound
            };
            if decides {
                bound = child_bound;
                best = mv;
            }
        }
        if best == NO_MOVE {
            for (i, &(mv, child)) in children.iter().enumerate() {
                let child_bound = match child {
                    None => NEVER,
                    Some(child) => self.within(&child, packed_children[i], d - 1),
                };
                if self.stopped.is_some() {
                    break;
                }
                let child_bound = child_bound.saturating_add(1).min(NEVER);
                if attacker {
                    bound = bound.min(child_bound);
                    if child_bound <= d {
                        best = mv;
                        break;
                    }
                } else {
                    bound = bound.max(child_bound);
                    if child_bound > d {
                        best = mv;
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = children;
        self.packed_buffers[ply] = packed_children;
        if self.stopped.is_some() {
            return d + 1;
        }
        if best != NO_MOVE {
            self.cut(attacker, best, ply);
        }
        let entry = if best != NO_MOVE {
            with_best(entry, best)
        } else {
            entry
        };
        if bound <= d {
            let bound = at_parity_below(key, bound);
            self.store(packed, with_upper(entry | WON, bound));
            bound
        } else if bound >= NEVER {
            self.store(packed, with_lower(entry | LOST, u32::MAX));
            NEVER
        } else {
            let bound = at_parity(key, bound);
            self.store(packed, with_lower(entry, bound));
            bound
        }
    }
}

/// How the depths of `Search::distance_by` grow past the least bound
/// until a search captures: by 2, 4, 8, ... (`Doubling`), or by 2, 4,
/// 6, ... (`Steady`). With the proof search's table (after `wins`), its
/// best moves and the bounds of earlier questions, doubling expands the
/// fewest states; from an empty table, steady growth overshoots the
/// distance less, and a search past it costs more there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Gallop {
    Doubling,
    Steady,
}

/// How many moves an assumption gives the attacker, in order: the
/// defender ignoring ko (the defender has more moves), basic ko, the
/// attacker ignoring ko (the attacker has more).
fn attacker_moves(ko: KoAssumption) -> u8 {
    match ko {
        KoAssumption::DefenderIgnoresKo => 0,
        KoAssumption::Basic => 1,
        KoAssumption::AttackerIgnoresKo => 2,
    }
}

/// The bound `within(key, _, d)` returns at once from the state's stored
/// `entry`, when its bounds decide the search to `d` plies: its upper
/// bound when the attacker captures within `d`, its lower bound (of the
/// distance's parity) when he cannot.
fn decided_within(key: &StateKey, entry: Entry, d: u32) -> Option<u32> {
    let upper_bound = upper(entry);
    if upper_bound <= d {
        return Some(upper_bound);
    }
    let lower_bound = at_parity(key, lower(entry).max(1));
    (lower_bound > d).then_some(lower_bound)
}

/// The bound `within` gives a state the attacker never captures.
const NEVER: u32 = UNKNOWN as u32;

/// The least distance of `key`'s parity at least `d`: odd where the
/// attacker moves (his move makes the capture), even where the defender
/// does (he can always pass rather than lose his stones sooner).
fn at_parity(key: &StateKey, d: u32) -> u32 {
    if d >= NEVER || d % 2 == u32::from(key.attacker_to_move) {
        d
    } else {
        d + 1
    }
}

/// The greatest distance of `key`'s parity at most `d` (at least 1).
fn at_parity_below(key: &StateKey, d: u32) -> u32 {
    if d % 2 == u32::from(key.attacker_to_move) {
        d
    } else {
        d - 1
    }
}

/// A first move and its result under each ko assumption.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SearchedMove {
    pub(crate) mv: Move,
    /// The state it leads to (`None`: the game ends).
    pub(crate) child: Option<StateKey>,
    /// Whether the attacker wins after it, in the order of
    /// `KoAssumption::ALL`.
    pub(crate) killed: [bool; 3],
    /// The distance after it with no threats (basic ko), if asked for.
    pub(crate) plies: Option<u32>,
    /// Whether a search ran out of its budget on it (`KoSearch`): its
    /// result is not known, and `killed` and `plies` say nothing.
    pub(crate) unproved: bool,
}

/// A problem searched under the three ko assumptions: the status of its
/// start under each, its verdict, every first move's results, and a main
/// line (basic ko).
pub(crate) struct SearchReport {
    /// The searches, in the order of `KoAssumption::ALL`.
    pub(crate) searches: Vec<Search>,
    pub(crate) start: [Status; 3],
    pub(crate) verdict: Verdict,
    /// Whether a target is unconditionally alive at the start: no move is
    /// searched.
    pub(crate) settled: bool,
    pub(crate) moves: Vec<SearchedMove>,
}

/// The verdict from whether the attacker wins under each ko assumption.
pub(crate) fn verdict_of(killed: [bool; 3]) -> Verdict {
    match killed {
        [_, _, true] => Verdict::Dead,
        [_, false, _] => Verdict::Alive,
        [true, _, _] => Verdict::KoDefenderMustWin,
        [false, _, _] => Verdict::KoAttackerMustWin,
    }
}

impl SearchReport {
    /// Searches `problem` under the three ko assumptions, each search
    /// within `limits`: the start's status with its distance, and every
    /// first move's result, with its distance under basic ko if
    /// `distances`.
    pub(crate) fn new(
        problem: &Problem,
        limits: SearchLimits,
        distances: bool,
    ) -> Result<SearchReport, (KoAssumption, SearchTooLarge)> {
        let mut searches = Vec::new();
        for ko in KoAssumption::ALL {
            searches.push(Search::new(&problem.with_ko(ko), limits).map_err(|e| (ko, e))?);
        }
        let start_key = searches[0].start();
        let mut start = [Status(None); 3];
        for (k, search) in searches.iter_mut().enumerate() {
            let ko = KoAssumption::ALL[k];
            start[k] = search.status(&start_key).map_err(|e| (ko, e))?;
        }
        let settled = searches[0].is_settled(&start_key);
        let mut moves = Vec::new();
        for (mv, child) in searches[0].moves(&start_key) {
            let mut killed = [false; 3];
            let mut plies = None;
            if let Some(child) = child {
                for (k, search) in searches.iter_mut().enumerate() {
                    let ko = KoAssumption::ALL[k];
                    killed[k] = search.wins(&child).map_err(|e| (ko, e))?;
                }
                if distances && killed[0] {
                    plies = searches[0]
                        .status(&child)
                        .map_err(|e| (KoAssumption::Basic, e))?
                        .0;
                }
            }
            moves.push(SearchedMove {
                mv,
                child,
                killed,
                plies,
                unproved: false,
            });
        }
        let verdict = verdict_of(start.map(|s| s.attacker_wins()));
        Ok(SearchReport {
            searches,
            start,
            verdict,
            settled,
            moves,
        })
    }

    /// The states expanded by the three searches.
    pub(crate) fn nodes(&self) -> u64 {
        self.searches.iter().map(Search::nodes).sum()
    }

    /// The states the three tables hold.
    pub(crate) fn entries(&self) -> usize {
        self.searches.iter().map(Search::entries).sum()
    }

    /// The three tables' peaks, together.
    pub(crate) fn peak_bytes(&self) -> usize {
        self.searches.iter().map(Search::peak_bytes).sum()
    }
}

/// A line of best play under basic ko from `key`, at most `limit` plies:
/// where the attacker wins, his shortest win against the longest defence
/// (the first such move in point order); where he does not, the defender
/// answers with a move that lives (the pass first, then point order, each
/// proved within a budget of states; past it, a move the table already
/// holds as living: see `defence`) and
/// the attacker, with nothing to gain, passes. The line ends at a capture,
/// a settled state, two passes, or a repetition.
pub(crate) fn main_line(
    search: &mut Search,
    key: &StateKey,
    limit: usize,
) -> Result<Vec<Move>, SearchTooLarge> {
    let key = *key;
    search.deep(move |search| line_from(search, &key, limit))
}

fn line_from(
    search: &mut Search,
    key: &StateKey,
    limit: usize,
) -> Result<Vec<Move>, SearchTooLarge> {
    let mut line = Vec::new();
    let mut seen = vec![*key];
    let mut key = *key;
    while line.len() < limit {
        let moves = search.moves(&key);
        if moves.is_empty() {
            break;
        }
        let status = search.status(&key)?;
        let chosen = match status.0 {
            Some(d) if key.attacker_to_move => {
                let mut chosen = None;
                for &(mv, child) in &moves {
                    if let Some(child) = child {
                        if mv != Move::Pass && search.wins_within(&child, d - 1)? {
                            chosen = Some((mv, Some(child)));
                            break;
                        }
                    }
                }
                chosen
            }
            Some(d) => {
                // The pass first among the longest defences, as `solve`'s
                // callers rank them.
                let mut order = moves.clone();
                order.sort_by_key(|(mv, _)| *mv != Move::Pass);
                let mut chosen = None;
                for &(mv, child) in &order {
                    if let Some(child) = child {
                        if d < 2 || !search.wins_within(&child, d - 2)? {
                            chosen = Some((mv, Some(child)));
                            break;
                        }
                    }
                }
                chosen
            }
            None if key.attacker_to_move => moves.iter().copied().find(|(mv, _)| *mv == Move::Pass),
            None => {
                let mut order: Vec<(Move, Option<StateKey>)> = moves.clone();
                order.sort_by_key(|(mv, _)| *mv != Move::Pass);
                defence(search, &order)?
            }
        };
        let Some((mv, child)) = chosen else { break };
        line.push(mv);
        let Some(child) = child else { break };
        if seen.contains(&child) {
            break;
        }
        seen.push(child);
        key = child;
    }
    Ok(line)
}

/// The states a line may spend on proving one defender's move before it
/// takes a move the table already holds as a loss of the attacker's.
const LINE_BUDGET: u64 = 200_000;

/// A defender's move that lives, from `order` (the pass first, then point
/// order): the first whose child is a loss of the attacker's, each proved
/// within `LINE_BUDGET` states. When one proof runs past it (a pass that
/// gives the attacker two moves in a row can be far harder to refute than
/// the defender's good reply), the first move from there whose child the
/// table already holds as a loss, and only if none does the proofs again
/// without the budget.
fn defence(
    search: &mut Search,
    order: &[(Move, Option<StateKey>)],
) -> Result<Option<(Move, Option<StateKey>)>, SearchTooLarge> {
    let mut from = order.len();
    for (i, &(mv, child)) in order.iter().enumerate() {
        let lives = match child {
            None => Some(true),
            Some(child) if search.is_proved_loss(&child) => Some(true),
            Some(child) => search.wins_budgeted(&child, LINE_BUDGET)?.map(|won| !won),
        };
        match lives {
            Some(true) => return Ok(Some((mv, child))),
            Some(false) => {}
            None => {
                from = i;
                break;
            }
        }
    }
    let rest = &order[from.min(order.len())..];
    if let Some(&known) = rest
        .iter()
        .find(|(_, child)| child.is_some_and(|c| search.is_proved_loss(&c)))
    {
        return Ok(Some(known));
    }
    for &(mv, child) in rest {
        let lives = match child {
            None => true,
            Some(child) => !search.wins(&child)?,
        };
        if lives {
            return Ok(Some((mv, child)));
        }
    }
    Ok(None)
}
