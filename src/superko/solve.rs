//! The exact solver of Go under superko (`super::Superko`): the minimax
//! value of a game's current state, the final area margin for the side to
//! move with no komi, by alpha-beta over the whole game tree (every game
//! ends, so no depth cut-off ever stands in for a value, and every value is
//! exact), driven by MTD(f) (null-window searches that close in on the
//! value) or by one full-window search, each deepened iteratively
//! (`Options::deepening`: moves past a horizon of turns are not searched,
//! and a result that needs them is *unknown*, no bound, until a deeper
//! horizon proves it; so lines that go on for hundreds of turns are not
//! searched where a short proof exists). A null window that the deepening
//! has not proven by a given horizon can be decided instead by a
//! proof-number search with no horizon (`proof`, `Options::proof_numbers`),
//! whose decisions go into the same table under the same footprints.
//!
//! The transposition table shares results between histories, soundly.
//! Write V(p, S) for the value of a state whose stones, mover and pass
//! flag are p and whose seen set is S. A search of p under S looks at S
//! only through its superko checks: for each placement it generates, the
//! item c it would add, and whether c is in S (or on the search's own line
//! below p). Each search returns with its value a *footprint* F
//! (`super::Footprint`): items that must be seen (M) and items that must
//! not be (N), with M in S and N outside it, and the claim, proven below by
//! induction on the search: for every seen set S' that holds M and nothing
//! of N, V(p, S') satisfies the bound the search returned for V(p, S) (at
//! most the value when it fails low, at least when it fails high, equal in
//! between). A child c (its item added, under S' too, when new) searched
//! under S + c returned (M_c, N_c); what S' must satisfy for S' + c to
//! satisfy them is M_c less c itself (in S' + c whatever S' is) and N_c
//! (which does not hold c, since c is in S + c). So
//! - a lower bound v >= beta, found by a move m to child c whose upper
//!   bound -v the child proved, takes M = M_c - c and N = N_c, plus c in N
//!   when m is a placement (it stays legal: c not in S'); a pass is always
//!   legal, and the pass that ends the game has the board's value and
//!   depends on nothing;
//! - an upper bound v <= alpha takes every child's (M_c - c, N_c) (each
//!   proved a lower bound -v or more for its child) and the placements
//!   refused into M: under S' every placement refused under S is refused
//!   again, a move legal under S is either refused (one fewer to choose
//!   from) or reaches a child whose bound holds, so the maximum is at most
//!   v. Nothing requires the legal moves to stay legal;
//! - an exact value takes both footprints;
//! - a value equal to the board's points is exact on its lower bound
//!   alone, since no margin exceeds it;
//! - a table hit returns the entry's own bound and footprint, which hold
//!   by the same claim for the search that stored it.
//!
//! Since M only holds items of S, the footprint at p names no item of the
//! line below p: as the search climbs back, each level's item leaves M.
//! An entry is found by the state p (stones, mover, pass flag, exact) and
//! accepted when the seen set holds its M and none of its N
//! (`super::holds`): exact, with no hash, at one test of a bit per item
//! (an item's key is its bit in the seen set's bit map,
//! `super::Seen::key`). A footprint of more than `Options::list_keys` keys
//! keeps its N in a summary instead (`super::Footprint`: a Bloom filter
//! of every item of N), and is accepted when no item of the seen set falls
//! on the summary's bits; each item of N does, so the summary demands at
//! least N, and the claim holds for the fewer seen sets it admits. An
//! entry is one cache line, with up to six keys inside it and a longer
//! footprint (or a summary) in an arena that is compacted when replaced
//! entries' runs fill half of it. A footprint is as long as the
//! proof it covers needs: the moves of the bound's proof tree and the
//! refusals of the history above that it met. Each state has a group of
//! `WAYS` entries, the one of least work replaced; the arena has a cap
//! (`Options::arena_keys`), kept by dropping the arena entries of least
//! work and by not storing footprints too long for it. Forgetting an entry
//! never makes a value wrong. Before a state's moves are searched, a child
//! whose admitted entry already proves the cut-off goes first (enhanced
//! transposition cut-offs, `Options::etc`): only the order changes. With `share` off every
//! footprint is the whole seen set (an entry then serves the one seen set
//! whose 128-bit hash it holds), which is the paper's table. A table keyed
//! on the position alone, with no footprint, is unsound (a move refused in
//! one history is legal in another); such a table serves move ordering
//! only (`order`), where a wrong entry costs time, never a value.
//!
//! A search can be stopped after a number of states or at a time
//! (`with_budget`, `set_deadline`: the engine's time limit under superko);
//! a stopped search's values mean nothing, and the caller is told
//! (`stopped`). `best_move` gives a move of the current state's exact
//! value, proven by a null-window search once the value is known.
//!
//! Pruning used, each proven here and switchable for the benchmark:
//! - the end by a pass: after the opponent's pass the mover can end the
//!   game at once, so that ending is searched first and the state's value is
//!   at least the margin on the board;
//! - the ceiling: no margin exceeds the board's points, so a move that
//!   reaches it ends the search of its siblings;
//! - on the empty board (Weninger and Hayward's Theorems 1 and 3: the first
//!   player's value is at least 0, and a pass from the empty board negates
//!   it), the value is the larger of 0 and the best opening placement, so
//!   the pass from the empty board is not searched (`empty_board_value`;
//!   the tests check it against the brute force);
//! - total positions (`Options::total`, the paper's Theorem 4 in a form
//!   proven there): stones of one colour only, no two empty points side by
//!   side, every string of two liberties or more, are worth the whole board
//!   to that colour, whatever the history; the search stops there with an
//!   empty footprint;
//! - the points each side keeps (`Options::alive`, off by default:
//!   `super::alive` proves the bounds), a bound for every history, so with
//!   an empty footprint.

use std::ops::Not;
use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};
use std::time::Instant;

use crate::rules::board::{Board, Point, PointSet};
use crate::rules::moves::Move;
use crate::superko::{
    alive, holds, mix, must_see, Footprint, Game, Node, Seen, Superko, BLOOM_WORDS,
};

mod proof;

/// The placements superko allows from `node`, in the board's order: each
/// as its move, child, child's key in `seen` and whether it captures, to
/// `visit`. A placement that would repeat a position seen is refused: its
/// "must have been seen" item goes into `refusals` (cleared first), the
/// footprint of any upper bound of `node`, which a refusal caps. Returns
/// the refusals.
fn allowed_placements(
    board: &Board,
    (rule, points): (Superko, usize),
    seen: &Seen,
    node: &Node,
    refusals: &mut Footprint,
    mut visit: impl FnMut(u8, Node, u64, bool),
) -> u64 {
    let mut refused = 0;
    refusals.clear();
    node.position.placements(board, |point, placement| {
        let next = Node {
            position: placement.position.swapped(),
            black_to_move: !node.black_to_move,
            passed: false,
        };
        let key = seen.key(next.item(rule, points));
        if seen.contains_key(key) {
            refused += 1;
            refusals.push(must_see(key));
            return;
        }
        visit(
            point.index() as u8,
            next,
            key,
            !placement.captured.is_empty(),
        );
    });
    if refused > 1 {
        refusals.normalize();
    }
    refused
}

/// How the solver searches: what the benchmark switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Log2 of the transposition table's entries (64 bytes each, and 8
    /// bytes a key in the arena for an entry whose footprint has more than
    /// `INLINE` keys); 0 for no table.
    pub table_bits: u32,
    /// Share the table's results between histories by their footprints;
    /// otherwise every footprint is the whole seen set, and an entry
    /// serves only the history it was found in.
    pub share: bool,
    /// MTD(f) null-window searches; otherwise one full-window search.
    pub mtdf: bool,
    /// Move ordering: the table's best move, then the position-keyed
    /// ordering table's, then captures, then the rest in point order.
    pub ordering: bool,
    /// Search the end by a pass first, so that it bounds the rest.
    pub pass_first: bool,
    /// Stop at a move that reaches the largest margin there is.
    pub ceiling: bool,
    /// The history heuristic: after the hinted move, the moves that cut
    /// off most often (per player and point) first. Off by default: it is
    /// erratic (a quarter of the states on 1x7, one and a half to twice as
    /// many on 1x6, 2x3 and 2x4; `smallgo bench superko --pruning`
    /// measures it).
    pub history: bool,
    /// Weninger and Hayward's Theorem 4 in a form proven here: a *total*
    /// position (stones of one colour C only, no two empty points side by
    /// side, every string of two liberties or more) is worth its area score,
    /// all the board to C, whatever the history and the pass flag, and the
    /// search stops there. Proof: every placement of the other side is on
    /// a point whose neighbours are all C's and takes no string's last
    /// liberty, so it is suicide; the other side can only pass. C to move
    /// passes and the other side must pass too, which ends the game with
    /// the whole board C's, the most there is; the other side to move must
    /// pass, which ends the game or leaves C to move after a pass, and C
    /// ends it. (The paper's total positions take in more, with strings of
    /// one liberty at the ends of a line, where its claim needs more than
    /// this argument: on 1x2 a lone stone beside an empty point is lost.)
    pub total: bool,
    /// Iterative deepening: each null-window (or full-window) search from
    /// the root runs first with a horizon of this many turns, then of
    /// `deepening_step` more (or twice as many), and so on, until it returns a proven bound; 0 for none
    /// (one search without a horizon). A move past the horizon is not
    /// searched, and its node's result is *unknown* unless another move
    /// proves the cut-off: a cut-off by a proven child is proven, a fail
    /// low is proven only when every move was searched and proven; an
    /// unknown result is no bound and is not stored (but the lower bound of
    /// a proven best move is). So every bound stored or returned as proven
    /// rests on lines that end or on proven entries, exactly as without a
    /// horizon, and the last iteration, whose horizon may be passed by no
    /// line, is proven at the latest when the horizon exceeds the longest
    /// game.
    pub deepening: u32,
    /// The horizon's growth from one iteration to the next: this many
    /// turns more, or twice as many for 0. Each iteration runs only while
    /// the last one's result is unknown, so any growth reaches a horizon
    /// past the longest game.
    pub deepening_step: u32,
    /// Recall unknown results within an iteration of the deepening: a
    /// state whose search met the horizon and proved nothing is noted
    /// (stones, mover, pass flag and window, with the turns left before the
    /// horizon), and met again in the same search from the root, with the
    /// same window and no more turns left, returns unknown at once instead
    /// of being searched again. An unknown result is no bound, so this
    /// changes no value: it can only leave an iteration unproven that
    /// would have proven (the state met again under another history), and
    /// then a deeper one runs; past the longest game no horizon is met and
    /// nothing is noted.
    pub recall_unknown: bool,
    /// Proven bounds from the points each side keeps whatever the history
    /// (`super::alive`: unconditionally alive strings and their one-point
    /// eyes): the mover's value is at least 2 A_us - n and at most
    /// n - 2 A_them, for every seen set, so a state whose window one of
    /// them settles returns it with an empty footprint, at the horizon too.
    pub alive: bool,
    /// Enhanced transposition cut-offs: before the moves are searched, a
    /// child whose table entry (admitted under the child's seen set)
    /// already proves the cut-off is moved to the front. Only the order
    /// changes.
    pub etc: bool,
    /// The most tagged keys the arena of long footprints holds (8 bytes
    /// each; it is compacted before it passes this, and while compacting
    /// holds at most twice as many). When the live entries' keys pass half
    /// of it, the entries of least work that keep keys there are dropped
    /// (`Solver::compact`), and a footprint longer than an eighth of it is
    /// not stored: forgetting an entry costs time, never a value.
    pub arena_keys: u64,
    /// The most keys a footprint lists: past them, its items that must not
    /// be seen go into a summary of `super::BLOOM_WORDS` words
    /// (`super::Footprint`), whose union is a union of words and whose check
    /// looks up each item of the seen set, where the list's check looks up
    /// each key. A summary demands at least what its items did, so it can
    /// only leave an entry unused; `u32::MAX` for never.
    pub list_keys: u32,
    /// Decide a null window by the proof-number search (`proof`: df-pn
    /// over the states with their whole history, no horizon, its decisions
    /// stored in the table with their footprints) once the deepening has
    /// reached a horizon of this many turns without proving it (at once
    /// without deepening); 0 for never. Only with a table and MTD(f).
    pub proof_numbers: u32,
}

/// The bytes of a table entry.
pub const ENTRY_BYTES: u64 = 64;

/// The bytes of a table slot: its entry and its tag (`Solver::tags`).
pub const SLOT_BYTES: u64 = ENTRY_BYTES + 8;

impl Options {
    /// The table and the arena sized to use at most `bytes` between them
    /// (and at least one group of entries): the table a power of two of
    /// entries within a sixteenth of it (a footprint stored in the arena
    /// averages 100 to 300 keys, 1 to 2 KiB, against an entry's 64 bytes),
    /// with a tag of 8 bytes each, the arena's two copies during a
    /// compaction within the rest.
    pub fn with_memory(self, bytes: u64) -> Options {
        let entries = (bytes / 16 / ENTRY_BYTES).max(WAYS as u64);
        let table_bits = 63 - entries.leading_zeros();
        let table = (1u64 << table_bits) * SLOT_BYTES;
        Options {
            table_bits,
            arena_keys: (bytes.saturating_sub(table) / 16).max(1 << 10),
            ..self
        }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            table_bits: 16,
            share: true,
            mtdf: true,
            ordering: true,
            pass_first: true,
            ceiling: true,
            history: false,
            total: true,
            deepening: 24,
            deepening_step: 4,
            recall_unknown: true,
            alive: false,
            etc: true,
            arena_keys: 1 << 24,
            list_keys: 256,
            proof_numbers: 0,
        }
    }
}

/// What a search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// States searched (each call of the search, table hits included).
    pub nodes: u64,
    /// Table lookups that found the state.
    pub table_hits: u64,
    /// Table hits whose bound settled the state at once.
    pub table_cutoffs: u64,
    /// Table hits on an entry stored under another seen set (another
    /// history), which the footprint admitted.
    pub table_shared: u64,
    /// Bounds stored.
    pub table_stores: u64,
    /// Placements refused by superko.
    pub refusals: u64,
    /// Null-window (or full-window) searches from the root.
    pub searches: u64,
    /// The longest line searched, in turns.
    pub max_depth: u64,
    /// The tagged keys of the footprints stored, in all (whole-set
    /// footprints not counted).
    pub footprint_keys: u64,
    /// Compactions of the arena of long footprints.
    pub compactions: u64,
    /// States settled as total (`Options::total`).
    pub total: u64,
    /// States settled by the bounds of the points each side keeps
    /// (`Options::alive`).
    pub alive: u64,
    /// Children moved to the front by an enhanced transposition cut-off
    /// (`Options::etc`).
    pub etc: u64,
    /// Entries dropped to keep the arena within `Options::arena_keys`.
    pub evicted: u64,
    /// Footprints not stored, being longer than an eighth of the arena.
    pub too_long: u64,
    /// States returned unknown at once, met again in the same search from
    /// the root (`Options::recall_unknown`).
    pub recalled: u64,
}

/// One iteration of the deepening of a search from the root (one horizon
/// of one null-window or full-window search), as it ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// The window.
    pub alpha: i32,
    pub beta: i32,
    /// The horizon in turns (the root's children at 1); `None` for none.
    pub horizon: Option<u64>,
    /// The fail-soft value or bound returned (nothing when not proven).
    pub value: i32,
    /// Whether the result is proven (otherwise a deeper iteration follows).
    pub proven: bool,
    /// The states this iteration took.
    pub states: u64,
    /// The unknown results it recalled (`Options::recall_unknown`).
    pub recalled: u64,
    /// The bounds it stored, and the tagged keys of their footprints.
    pub stores: u64,
    pub footprint_keys: u64,
}

/// What `solve_openings` reports as it goes, from the thread that did it:
/// an iteration of the deepening ended in the search of an opening, or an
/// opening was solved (its index among the openings, in point order).
#[derive(Clone, Copy, Debug)]
pub enum Progress<'a> {
    Iteration {
        opening: usize,
        iteration: &'a Iteration,
    },
    Solved {
        opening: usize,
        value: i32,
        states: u64,
    },
}

/// A receiver of `Progress`, shared between the search threads.
pub type Reporter = std::sync::Arc<dyn Fn(Progress<'_>) + Send + Sync>;

/// A solver's receiver of each iteration as it ends (`Solver::set_trace`).
type Trace = Box<dyn FnMut(&Iteration) + Send>;

/// The most moves of a state: a placement on each point, and the pass.
const MOVES: usize = crate::superko::MAX_POINTS + 1;

/// No move stored.
const NO_MOVE: u8 = u8::MAX;
/// A pass, as stored.
const PASS: u8 = u8::MAX - 1;

/// Entries per slot group of the table: a state has at most this many
/// entries (each under its own footprint).
const WAYS: usize = 8;

/// The most tagged keys an entry's footprint holds in the entry itself; a
/// longer one is in `Solver::arena`.
const INLINE: usize = 6;

/// The tag of an empty slot: no state key has every bit set (a state has at
/// most 2 * 25 + 1 bits of stones and mover, and the pass flag at bit 63).
const EMPTY_TAG: u64 = u64::MAX;

/// `Entry::len` for an entry that holds for one whole seen set, whose hash
/// is in `Entry::inline`'s first two words.
const WHOLE_ENTRY: u32 = u32::MAX;

/// An entry of the table, one cache line.
#[derive(Clone, Copy, Default)]
struct Entry {
    /// The low bits of the whole seen set's hash, to count the hits from
    /// another history.
    whole: u32,
    lower: i8,
    upper: i8,
    best: u8,
    /// Log2 of the states searched to find these bounds, plus 1; 0 for
    /// an empty slot.
    work: u8,
    /// The number of tagged keys of the footprint, with `SUMMARY` set when
    /// a summary of `BLOOM_WORDS` words follows them in the arena; or
    /// `WHOLE_ENTRY`.
    len: u32,
    /// Where the keys start in `Solver::arena`, when more than `INLINE` or
    /// with a summary.
    at: u32,
    /// The footprint's tagged keys (`super::Footprint`), sorted, when at
    /// most `INLINE`.
    inline: [u64; INLINE],
}

const _: () = assert!(std::mem::size_of::<Entry>() == 64);

/// The bit of `Entry::len` that says a summary follows the keys.
const SUMMARY: u32 = 1 << 31;

impl Entry {
    /// The tagged keys listed (not for a whole-set entry).
    #[inline]
    fn listed(&self) -> usize {
        (self.len & !SUMMARY) as usize
    }

    /// Whether its footprint has a summary.
    #[inline]
    fn summarised(&self) -> bool {
        self.len != WHOLE_ENTRY && self.len & SUMMARY != 0
    }

    /// The tagged keys its footprint lists (not a whole-set entry): inline,
    /// or its run in `arena` (the solver's).
    #[inline]
    fn keys<'a>(&'a self, arena: &'a [u64]) -> &'a [u64] {
        let len = self.listed();
        if len <= INLINE && !self.summarised() {
            &self.inline[..len]
        } else {
            let at = self.at as usize;
            &arena[at..at + len]
        }
    }

    /// The summary of its footprint in `arena`, if it has one.
    #[inline]
    fn bloom<'a>(&self, arena: &'a [u64]) -> Option<&'a [u64]> {
        self.summarised().then(|| {
            let at = self.at as usize + self.listed();
            &arena[at..at + BLOOM_WORDS]
        })
    }

    /// The words it keeps in the arena.
    #[inline]
    fn arena_words(&self) -> usize {
        if self.work == 0 || self.len == WHOLE_ENTRY {
            0
        } else if self.summarised() {
            self.listed() + BLOOM_WORDS
        } else if self.listed() > INLINE {
            self.listed()
        } else {
            0
        }
    }
}

/// A note of an unknown result (`Options::recall_unknown`): the state,
/// the search from the root it was found in, the turns that were left
/// before the horizon, and the window.
#[derive(Clone, Copy, Default)]
struct Unknown {
    state: u64,
    /// `Solver::generation` when noted; 0 for an empty slot.
    generation: u32,
    left: u32,
    alpha: i8,
    beta: i8,
}

/// A depth's footprints in the search, kept from node to node so that no
/// node allocates: what the search at this depth returns, and what its
/// upper and lower bounds depend on while it runs.
struct Frame {
    result: Footprint,
    upper: Footprint,
    lower: Footprint,
    scratch: Vec<u64>,
    /// Whether the search at this depth met its horizon on a line its
    /// result needs: the value it returned is then no bound at all.
    unknown: bool,
    /// The proof-number search's bound of a decided state (`proof`).
    bound: i32,
}

impl Frame {
    /// A frame whose footprints list at most `limit` keys.
    fn new(limit: usize) -> Frame {
        Frame {
            result: Footprint::with_limit(limit),
            upper: Footprint::with_limit(limit),
            lower: Footprint::with_limit(limit),
            scratch: Vec::new(),
            unknown: false,
            bound: 0,
        }
    }
}

fn halves(hash: u128) -> [u64; 2] {
    [hash as u64, (hash >> 64) as u64]
}

/// The solver of one board under one rule: its tables live across
/// searches, which is sound since they key on whole states.
pub struct Solver {
    board: Board,
    rule: Superko,
    points: usize,
    options: Options,
    table: Vec<Entry>,
    /// Each slot's state (stones, mover and pass flag, `state_key`), or
    /// `EMPTY_TAG` for an empty slot: a look-up reads its group's eight
    /// tags, one cache line, and then only the entries of its state.
    tags: Vec<u64>,
    /// The tagged keys of the entries' footprints longer than `INLINE`,
    /// each entry's in one run; runs of replaced entries stay until the
    /// arena is compacted (`compact`).
    arena: Vec<u64>,
    /// The keys of the live entries in the arena.
    arena_live: usize,
    /// The arena's other copy, kept from one compaction to the next so
    /// that a compaction writes into memory already mapped (the two copies
    /// are within `Options::arena_keys`' budget).
    spare: Vec<u64>,
    /// Per depth of the search (the root's children at 2), its footprints.
    frames: Vec<Frame>,
    /// Position and mover to a move that was best there once.
    order: Vec<u8>,
    stats: Stats,
    depth: u64,
    /// Per player (Black first) and move (points, then the pass): the
    /// cut-offs that move made.
    cutoffs: [[u32; MOVES + 1]; 2],
    /// Stop after this many states (0: never); once stopped, every search
    /// returns at once, stores nothing, and its values mean nothing.
    budget: u64,
    /// Stop at this time (checked every `CLOCK_STATES` states); once
    /// stopped, as with the budget.
    deadline: Option<Instant>,
    stopped: bool,
    /// The depth (the root at 1) at which moves are no longer searched
    /// (`Options::deepening`).
    horizon: u64,
    /// The unknown results of the current search from the root
    /// (`Options::recall_unknown`), one a slot, the last one kept.
    unknowns: Vec<Unknown>,
    /// Counts the searches from the root (each iteration of the deepening
    /// one), so that a note serves only the search it was made in.
    generation: u32,
    /// Per depth of the search (the root at 1): states, table hits that
    /// settled the state, stores, and the keys of the footprints stored.
    profile: Vec<[u64; 4]>,
    /// Per search from the root: the window's beta, the value returned and
    /// the states it took.
    searches: Vec<(i32, i32, u64)>,
    /// Told of each iteration of the deepening as it ends.
    trace: Option<Trace>,
    /// The proof and disproof numbers of the proof-number search's
    /// undecided states (`proof`), allocated at its first use.
    numbers: Vec<proof::Numbers>,
}

/// The states searched between two looks at the clock.
const CLOCK_STATES: u64 = 1 << 12;

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("board", &self.board)
            .field("rule", &self.rule)
            .field("options", &self.options)
            .field("stats", &self.stats)
            .finish()
    }
}

impl Solver {
    /// A solver for `board` under `rule`.
    pub fn new(board: Board, rule: Superko, options: Options) -> Solver {
        let table = if options.table_bits == 0 {
            Vec::new()
        } else {
            // At least one group of `WAYS` entries.
            vec![Entry::default(); 1 << options.table_bits.max(WAYS.trailing_zeros())]
        };
        let order = if options.ordering {
            vec![NO_MOVE; 1 << 20]
        } else {
            Vec::new()
        };
        Solver {
            board,
            rule,
            points: board.points(),
            options,
            tags: vec![EMPTY_TAG; table.len()],
            table,
            arena: Vec::new(),
            arena_live: 0,
            spare: Vec::new(),
            frames: Vec::new(),
            order,
            stats: Stats::default(),
            depth: 0,
            cutoffs: [[0; MOVES + 1]; 2],
            budget: 0,
            deadline: None,
            stopped: false,
            horizon: u64::MAX,
            unknowns: if options.recall_unknown && options.deepening != 0 {
                vec![Unknown::default(); 1 << options.table_bits.clamp(12, 20)]
            } else {
                Vec::new()
            },
            generation: 0,
            profile: Vec::new(),
            searches: Vec::new(),
            trace: None,
            numbers: Vec::new(),
        }
    }

    /// Stops the searches at `deadline` (`None`: never), and forgets an
    /// earlier stop, so that the next search runs to its end or to the
    /// deadline. The tables kept from a stopped search hold only what
    /// finished searches stored, so they stay sound.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.stopped = false;
    }

    /// Stops the searches after `nodes` states in all (for the benchmark's
    /// runs without some pruning, which can take too long).
    pub fn with_budget(mut self, nodes: u64) -> Solver {
        self.budget = nodes;
        self
    }

    /// Calls `trace` with each iteration of the deepening (each search
    /// from the root without it) as it ends.
    pub fn set_trace(&mut self, trace: impl FnMut(&Iteration) + Send + 'static) {
        self.trace = Some(Box::new(trace));
    }

    /// Whether the budget or the time ran out: the values given since mean
    /// nothing.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// The figures of every search so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Per depth of the search (the root at 1, so index 0 stays zero):
    /// states, table hits that settled the state, bounds stored, and the
    /// keys of the footprints stored.
    pub fn depth_profile(&self) -> &[[u64; 4]] {
        &self.profile
    }

    /// Per search from the root, in order: the window's beta (the full
    /// window's upper end), the value (bound) returned and the states it
    /// took.
    pub fn root_searches(&self) -> &[(i32, i32, u64)] {
        &self.searches
    }

    /// The number of table slots in use.
    pub fn table_used(&self) -> usize {
        self.table.iter().filter(|e| e.work != 0).count()
    }

    /// Whether every slot's tag is `EMPTY_TAG` exactly when the slot is
    /// empty (for the tests).
    #[cfg(test)]
    pub(crate) fn tags_agree(&self) -> bool {
        self.table
            .iter()
            .zip(&self.tags)
            .all(|(entry, &tag)| (tag == EMPTY_TAG) == (entry.work == 0))
    }

    /// The number of table slots.
    pub fn table_size(&self) -> usize {
        self.table.len()
    }

    /// The exact value of the game's current state for the side to move (its
    /// final area margin under minimax), or `None` once the game is over.
    pub fn value(&mut self, game: &mut Game) -> Option<i32> {
        if game.is_over() {
            return None;
        }
        assert_eq!(
            (game.board, game.rule),
            (self.board, self.rule),
            "a solver serves one board and rule"
        );
        let node = game.node;
        let seen = &mut game.seen;
        let n = self.points as i32;
        let value = if self.options.mtdf {
            let (mut lower, mut upper) = (-n, n);
            let mut guess = 0;
            while lower < upper && !self.stopped {
                let beta = if guess == lower { guess + 1 } else { guess };
                self.stats.searches += 1;
                let before = self.stats.nodes;
                guess = self.probe(seen, node, beta - 1, beta);
                self.searches.push((beta, guess, self.stats.nodes - before));
                if guess < beta {
                    upper = guess;
                } else {
                    lower = guess;
                }
            }
            guess
        } else {
            self.stats.searches += 1;
            let before = self.stats.nodes;
            let value = self.probe(seen, node, -n - 1, n + 1);
            self.searches
                .push((n + 1, value, self.stats.nodes - before));
            value
        };
        Some(value)
    }

    /// A best move of the game's current state with its exact value for
    /// the side to move, or `None` once the game is over (or when the
    /// search stopped: `stopped`). The value comes first (`value`); then
    /// the moves, the one the search found best first, are tested with a
    /// null-window search each until one is proven to reach it: no move
    /// reaches more, so that one is exactly best.
    pub fn best_move(&mut self, game: &mut Game) -> Option<(Move, i32)> {
        let value = self.value(game)?;
        if self.stopped {
            return None;
        }
        let mut moves = game.legal_moves();
        if self.options.ordering {
            let hint = match self.order[self.order_slot(&game.node)] {
                NO_MOVE => None,
                PASS => Some(Move::Pass),
                point => Some(Move::Place(Point::new(usize::from(point)))),
            };
            if let Some(at) = moves.iter().position(|&mv| Some(mv) == hint) {
                moves[..=at].rotate_right(1);
            }
        }
        for mv in moves {
            let reached = if mv == Move::Pass && game.node.passed {
                game.node.position.area_score(&self.board)
            } else {
                game.play(mv).expect("a legal move");
                let child = game.node;
                let bound = self.probe(&mut game.seen, child, -value, 1 - value);
                game.undo();
                -bound
            };
            if self.stopped {
                return None;
            }
            if reached >= value {
                return Some((mv, value));
            }
        }
        unreachable!("some move reaches the state's value")
    }

    /// A search from the root with its horizon deepened until its result is
    /// proven (`Options::deepening`): the fail-soft value or bound of
    /// `search`.
    fn probe(&mut self, seen: &mut Seen, node: Node, alpha: i32, beta: i32) -> i32 {
        let step = u64::from(self.options.deepening);
        self.horizon = if step == 0 { u64::MAX } else { step };
        loop {
            self.generation = self.generation.wrapping_add(1).max(1);
            let before = self.stats;
            let proof_numbers = u64::from(self.options.proof_numbers);
            if proof_numbers != 0
                && beta == alpha + 1
                && !self.table.is_empty()
                && self.horizon >= proof_numbers
            {
                let value = self.prove(seen, node, beta);
                if let Some(trace) = &mut self.trace {
                    trace(&Iteration {
                        alpha,
                        beta,
                        horizon: None,
                        value,
                        proven: !self.stopped,
                        states: self.stats.nodes - before.nodes,
                        recalled: 0,
                        stores: self.stats.table_stores - before.table_stores,
                        footprint_keys: self.stats.footprint_keys - before.footprint_keys,
                    });
                }
                self.horizon = u64::MAX;
                return value;
            }
            let value = self.search(seen, node, alpha, beta);
            if let Some(trace) = &mut self.trace {
                trace(&Iteration {
                    alpha,
                    beta,
                    horizon: (self.horizon != u64::MAX).then_some(self.horizon),
                    value,
                    proven: !self.stopped && !self.frames[1].unknown,
                    states: self.stats.nodes - before.nodes,
                    recalled: self.stats.recalled - before.recalled,
                    stores: self.stats.table_stores - before.table_stores,
                    footprint_keys: self.stats.footprint_keys - before.footprint_keys,
                });
            }
            if self.stopped || self.frames[1].unknown.not() {
                self.horizon = u64::MAX;
                return value;
            }
            self.horizon = match self.options.deepening_step {
                0 => self.horizon.saturating_mul(2),
                step => self.horizon.saturating_add(u64::from(step)),
            };
        }
    }

    /// The value for Black of each first placement on the empty board, one
    /// point per class under the board's symmetries, in point order.
    pub fn opening_values(&mut self) -> Vec<(Point, i32)> {
        let mut game = Game::new(self.board, self.rule).expect("a supported board");
        opening_points(&self.board)
            .into_iter()
            .filter_map(|point| {
                game.play(Move::Place(point)).ok()?;
                let value = -self.value(&mut game).expect("the game goes on");
                game.undo();
                Some((point, value))
            })
            .collect()
    }

    /// The first slot of a state's group in the table.
    #[inline]
    fn slot(&self, state: u64) -> usize {
        (mix(state ^ 0x2545_f491_4f6c_dd1d) as usize) & (self.table.len() - 1) & !(WAYS - 1)
    }

    /// The slot of a state's note of an unknown result under a window.
    #[inline]
    fn unknown_slot(&self, state: u64, alpha: i32, beta: i32) -> usize {
        let window = ((alpha as u64 & 0xff) << 8) | (beta as u64 & 0xff);
        (mix(state ^ window.wrapping_mul(0x9e37_79b9_7f4a_7c15)) as usize)
            & (self.unknowns.len() - 1)
    }

    /// The state without its history: stones, mover and pass flag.
    #[inline]
    fn state_key(&self, node: &Node) -> u64 {
        node.item(Superko::Situational, self.points) | (u64::from(node.passed) << 63)
    }

    /// A move's slot in the cut-off counts: its point, or `MOVES` for the
    /// pass.
    #[inline]
    fn move_slot(mv: u8) -> usize {
        if mv == PASS {
            MOVES
        } else {
            usize::from(mv)
        }
    }

    #[inline]
    fn order_slot(&self, node: &Node) -> usize {
        (mix(node.item(Superko::Situational, self.points)) as usize) & (self.order.len() - 1)
    }

    /// Fail-soft alpha-beta: the value if it lies strictly between `alpha`
    /// and `beta`, else a bound on the same side. The footprint that bound
    /// (or value) depends on (the module paragraph) is left in the
    /// `result` of the frame one deeper than the caller's.
    fn search(&mut self, seen: &mut Seen, node: Node, alpha: i32, beta: i32) -> i32 {
        // This search's frame.
        let d = self.depth as usize + 1;
        if self.frames.len() <= d + 1 {
            let limit = self.options.list_keys as usize;
            self.frames.resize_with(d + 2, || Frame::new(limit));
        }
        self.frames[d].unknown = false;
        if self.stopped {
            self.frames[d].result.clear();
            return 0;
        }
        self.stats.nodes += 1;
        if (self.budget != 0 && self.stats.nodes >= self.budget)
            || (self.stats.nodes.is_multiple_of(CLOCK_STATES)
                && self
                    .deadline
                    .is_some_and(|deadline| Instant::now() >= deadline))
        {
            self.stopped = true;
            self.frames[d].result.clear();
            return 0;
        }
        self.depth += 1;
        self.stats.max_depth = self.stats.max_depth.max(self.depth);
        if self.profile.len() <= d {
            self.profile.resize(d + 1, [0; 4]);
        }
        self.profile[d][0] += 1;
        let start = self.stats.nodes;
        let n = self.points as i32;
        if self.options.total && self.is_total(&node) {
            self.stats.total += 1;
            self.frames[d].result.clear();
            self.depth -= 1;
            return node.position.area_score(&self.board);
        }
        if self.options.alive {
            // Each side keeps at most the points that are not the other's:
            // a bound that cannot settle the window is not computed.
            let (us, them) = (node.position.us(), node.position.them());
            let mut settled = None;
            if 2 * (self.points - them.len()) as i32 - n >= beta {
                let lower = 2 * alive::safe_points(&self.board, us, them).len() as i32 - n;
                if lower >= beta {
                    settled = Some(lower);
                }
            }
            if settled.is_none() && n - 2 * (self.points - us.len()) as i32 <= alpha {
                let upper = n - 2 * alive::safe_points(&self.board, them, us).len() as i32;
                if upper <= alpha {
                    settled = Some(upper);
                }
            }
            if let Some(bound) = settled {
                self.stats.alive += 1;
                self.frames[d].result.clear();
                self.depth -= 1;
                return bound;
            }
        }
        let state = self.state_key(&node);
        let mut hint = NO_MOVE;
        if !self.table.is_empty() {
            let slot = self.slot(state);
            for at in slot..slot + WAYS {
                if self.tags[at] != state {
                    continue;
                }
                let entry = &self.table[at];
                let (lower, upper) = (i32::from(entry.lower), i32::from(entry.upper));
                let settles = lower >= beta || upper <= alpha || lower == upper;
                if !settles && hint != NO_MOVE {
                    continue;
                }
                if !self.admits(seen, entry) {
                    continue;
                }
                self.stats.table_hits += 1;
                if !settles {
                    // Bounds that do not settle the state: its move leads.
                    hint = entry.best;
                    continue;
                }
                self.stats.table_cutoffs += 1;
                self.profile[d][1] += 1;
                if entry.whole != seen.hash() as u32 {
                    self.stats.table_shared += 1;
                }
                let entry = *entry;
                let result = &mut self.frames[d].result;
                if entry.len == WHOLE_ENTRY {
                    result.fill();
                } else {
                    result.set(entry.keys(&self.arena), entry.bloom(&self.arena));
                }
                self.depth -= 1;
                return if lower >= beta { lower } else { upper };
            }
        }
        let recall = self.horizon != u64::MAX && !self.unknowns.is_empty();
        let left = self
            .horizon
            .saturating_sub(self.depth)
            .min(u64::from(u32::MAX)) as u32;
        if recall && (node.passed || self.depth < self.horizon) {
            let note = self.unknowns[self.unknown_slot(state, alpha, beta)];
            if note.state == state
                && note.generation == self.generation
                && note.left >= left
                && (i32::from(note.alpha), i32::from(note.beta)) == (alpha, beta)
            {
                // The same search met this state with as many turns left
                // and the same window, and proved nothing: unknown again.
                self.stats.recalled += 1;
                self.frames[d].result.clear();
                self.frames[d].unknown = true;
                self.depth -= 1;
                return alpha;
            }
        }
        if self.depth >= self.horizon && !node.passed {
            // No move is searched here and no pass ends the game: unknown.
            self.frames[d].result.clear();
            self.frames[d].unknown = true;
            self.depth -= 1;
            return alpha;
        }
        if hint == NO_MOVE && self.options.ordering {
            hint = self.order[self.order_slot(&node)];
        }

        // The moves: placements allowed by superko, captures first when
        // ordering, the hinted move at the front; then the pass. The
        // refused placements go into the footprint of an upper bound, which
        // starts with them.
        let mut moves: [(u8, Node, u64); MOVES] = [(NO_MOVE, node, 0); MOVES];
        let mut count = 0;
        let mut captures = 0;
        let ordering = self.options.ordering;
        let refused = allowed_placements(
            &self.board,
            (self.rule, self.points),
            seen,
            &node,
            &mut self.frames[d].upper,
            |mv, next, key, captured| {
                moves[count] = (mv, next, key);
                if ordering && captured {
                    moves.swap(captures, count);
                    captures += 1;
                }
                count += 1;
            },
        );
        let (rule, points) = (self.rule, self.points);
        self.stats.refusals += refused;
        let pass = Node {
            position: node.position.swapped(),
            black_to_move: !node.black_to_move,
            passed: true,
        };
        let pass_key = seen.key(pass.item(rule, points));
        if node.passed && self.options.pass_first {
            moves.copy_within(0..count, 1);
            moves[0] = (PASS, pass, pass_key);
        } else {
            moves[count] = (PASS, pass, pass_key);
        }
        count += 1;
        let side = usize::from(!node.black_to_move);
        if self.options.history {
            // After the ending pass, if it leads: the moves by their
            // cut-offs, most first (a stable sort keeps captures ahead among
            // equals).
            let from = usize::from(node.passed && self.options.pass_first);
            let cutoffs = &self.cutoffs[side];
            moves[from..count].sort_by_key(|m| std::cmp::Reverse(cutoffs[Self::move_slot(m.0)]));
        }
        if hint != NO_MOVE {
            if let Some(at) = moves[..count].iter().position(|m| m.0 == hint) {
                moves[..=at].rotate_right(1);
            }
        }
        if self.options.etc && !self.table.is_empty() && self.depth < self.horizon {
            // A child whose entry already proves the cut-off goes first: its
            // search is then one table hit.
            for at in 0..count {
                let (mv, child, key) = moves[at];
                if mv == PASS && node.passed {
                    continue;
                }
                let item = child.item(rule, points);
                let added = seen.insert_key(item, key);
                let cuts = self.entry_proves_at_most(seen, self.state_key(&child), -beta);
                if added {
                    seen.remove_key(item, key);
                }
                if cuts {
                    self.stats.etc += 1;
                    moves[..=at].rotate_right(1);
                    break;
                }
            }
        }

        let mut best = i32::MIN;
        let mut best_move = NO_MOVE;
        // What an upper bound depends on: the refusals, and every child's
        // lower bound. What a lower bound depends on: the best move's
        // legality and its child's upper bound.
        self.frames[d].lower.clear();
        // Whether a move went unsearched past the horizon or returned an
        // unknown result (`Options::deepening`).
        let mut unknown = false;
        let at_horizon = self.depth >= self.horizon;
        for &(mv, child, key) in &moves[..count] {
            let value = if mv == PASS && node.passed {
                let value = node.position.area_score(&self.board);
                if value > best {
                    self.frames[d].lower.clear();
                }
                value
            } else if at_horizon {
                unknown = true;
                continue;
            } else {
                let item = child.item(rule, points);
                let added = seen.insert_key(item, key);
                let value = -self.search(seen, child, -beta, -alpha.max(best));
                if added {
                    seen.remove_key(item, key);
                }
                let (here, below) = self.frames.split_at_mut(d + 1);
                if below[0].unknown {
                    unknown = true;
                    continue;
                }
                let (frame, child_footprint) = (&mut here[d], &below[0].result);
                frame.upper.absorb(child_footprint, key, &mut frame.scratch);
                if value > best {
                    frame.lower.set_from_child(child_footprint, key, mv != PASS);
                }
                value
            };
            if value > best {
                best = value;
                best_move = mv;
                if best >= beta || (self.options.ceiling && best >= n) {
                    if self.options.history {
                        let slot = &mut self.cutoffs[side][Self::move_slot(mv)];
                        *slot = slot.saturating_add(1);
                    }
                    break;
                }
            }
        }

        if self.stopped {
            self.depth -= 1;
            self.frames[d].result.clear();
            return 0;
        }
        if self.options.ordering && best_move != NO_MOVE {
            let slot = self.order_slot(&node);
            self.order[slot] = best_move;
        }
        if unknown && best < beta && !(self.options.ceiling && best >= n) {
            // No bound, but for a proven best move's lower bound, when its
            // child proved an upper bound (a value above `alpha`).
            let frame = &mut self.frames[d];
            if best > alpha && self.options.share && !self.table.is_empty() {
                std::mem::swap(&mut frame.result, &mut frame.lower);
                self.store(seen, state, d, best, n, best_move, start);
            }
            self.frames[d].unknown = true;
            if recall {
                let slot = self.unknown_slot(state, alpha, beta);
                self.unknowns[slot] = Unknown {
                    state,
                    generation: self.generation,
                    left,
                    alpha: alpha as i8,
                    beta: beta as i8,
                };
            }
            self.depth -= 1;
            return alpha.max(best);
        }
        // No margin exceeds the board's points, so a value of `n` is exact
        // on its lower bound alone.
        let frame = &mut self.frames[d];
        let (lower, upper) = if !self.options.share {
            frame.result.fill();
            if best >= beta || best >= n {
                (best, n)
            } else if best <= alpha {
                (-n, best)
            } else {
                (best, best)
            }
        } else if best >= beta || best >= n {
            std::mem::swap(&mut frame.result, &mut frame.lower);
            (best, n)
        } else if best <= alpha {
            std::mem::swap(&mut frame.result, &mut frame.upper);
            (-n, best)
        } else {
            std::mem::swap(&mut frame.result, &mut frame.upper);
            frame.result.union(&frame.lower, &mut frame.scratch);
            (best, best)
        };
        if !self.table.is_empty() {
            self.store(seen, state, d, lower, upper, best_move, start);
        }
        self.depth -= 1;
        best
    }

    /// Whether the position is total (`Options::total`): stones of one
    /// colour only, no two empty points side by side, and every string with
    /// two liberties or more.
    fn is_total(&self, node: &Node) -> bool {
        let (us, them) = (node.position.us(), node.position.them());
        if us.is_empty() == them.is_empty() {
            return false;
        }
        let stones = us | them;
        let empty = self.board.all() - stones;
        if !(self.board.adjacent(empty) & empty).is_empty() {
            return false;
        }
        let mut rest = stones;
        while let Some(point) = rest.first() {
            let string = self.board.flood(PointSet::single(point), stones);
            if (self.board.adjacent(string) & empty).len() < 2 {
                return false;
            }
            rest = rest - string;
        }
        true
    }

    /// Whether the table holds, for the state `state` under the seen set
    /// `seen`, an admitted entry whose upper bound is at most `bound`.
    fn entry_proves_at_most(&self, seen: &Seen, state: u64, bound: i32) -> bool {
        let slot = self.slot(state);
        (slot..slot + WAYS).any(|at| {
            let entry = &self.table[at];
            self.tags[at] == state && i32::from(entry.upper) <= bound && self.admits(seen, entry)
        })
    }

    /// Whether an entry holds for the seen set: its seen set's hash for a
    /// whole-set entry, else its footprint.
    #[inline]
    fn admits(&self, seen: &Seen, entry: &Entry) -> bool {
        if entry.len == WHOLE_ENTRY {
            entry.inline[..2] == halves(seen.hash())
        } else {
            holds(seen, entry.keys(&self.arena))
                && entry
                    .bloom(&self.arena)
                    .is_none_or(|bloom| seen.avoids(bloom))
        }
    }

    /// Stores bounds found under the footprint of frame `d`'s result
    /// (`search`): on an entry of the same state and footprint (and for a
    /// whole-set footprint, the same seen set), tightening its bounds; else
    /// on an empty slot or the one of least work in the state's group.
    #[allow(clippy::too_many_arguments)]
    fn store(
        &mut self,
        seen: &Seen,
        state: u64,
        d: usize,
        lower: i32,
        upper: i32,
        best: u8,
        start: u64,
    ) {
        let footprint = &self.frames[d].result;
        let summary = footprint.bloom();
        let words = footprint.keys().len() + summary.map_or(0, <[u64]>::len);
        if words as u64 > self.options.arena_keys / 8 {
            self.stats.too_long += 1;
            return;
        }
        let whole_hash = halves(seen.hash());
        let work = (64 - (self.stats.nodes - start + 1).leading_zeros()) as u8;
        let slot = self.slot(state);
        let same = (slot..slot + WAYS).find(|&at| {
            let e = &self.table[at];
            self.tags[at] == state
                && if footprint.is_whole() {
                    e.len == WHOLE_ENTRY && e.inline[..2] == whole_hash
                } else {
                    e.len != WHOLE_ENTRY
                        && e.keys(&self.arena) == footprint.keys()
                        && e.bloom(&self.arena) == summary
                }
        });
        // The keys a footprint stands for: those listed, and for a summary
        // its bits set over the bits an item sets (an estimate).
        let keys = footprint.keys().len() as u64
            + summary.map_or(0, |bloom| {
                bloom.iter().map(|w| u64::from(w.count_ones())).sum::<u64>()
                    / u64::from(crate::superko::BLOOM_BITS)
            });
        self.stats.table_stores += 1;
        self.profile[d][2] += 1;
        if !footprint.is_whole() {
            self.profile[d][3] += keys;
        }
        if let Some(at) = same {
            // Both bounds hold for every seen set the footprint admits.
            let entry = &mut self.table[at];
            entry.lower = entry.lower.max(lower as i8);
            entry.upper = entry.upper.min(upper as i8);
            entry.work = entry.work.max(work);
            entry.best = best;
            return;
        }
        let at = (slot..slot + WAYS)
            .min_by_key(|&at| self.table[at].work)
            .expect("a group has slots");
        self.arena_live -= self.table[at].arena_words();
        let mut entry = Entry {
            whole: seen.hash() as u32,
            lower: lower as i8,
            upper: upper as i8,
            best,
            work,
            len: WHOLE_ENTRY,
            at: 0,
            inline: [0; INLINE],
        };
        let footprint = &self.frames[d].result;
        if footprint.is_whole() {
            entry.inline[..2].copy_from_slice(&whole_hash);
        } else {
            self.stats.footprint_keys += keys;
            let listed = footprint.keys();
            let summarised = footprint.bloom().is_some();
            entry.len = listed.len() as u32 | if summarised { SUMMARY } else { 0 };
            if listed.len() <= INLINE && !summarised {
                entry.inline[..listed.len()].copy_from_slice(listed);
            } else {
                // Mark the slot empty first, so that compaction drops it.
                self.table[at].work = 0;
                self.tags[at] = EMPTY_TAG;
                if self.arena.len() + words > self.arena_limit() {
                    self.compact();
                }
                let wanted = self.arena.len() + words;
                if wanted > self.arena.capacity() {
                    // Grow by doubling, never past the cap.
                    let cap = self.options.arena_keys as usize;
                    let to = (2 * self.arena.capacity()).max(wanted).min(cap.max(wanted));
                    self.arena.reserve_exact(to - self.arena.len());
                }
                entry.at = self.arena.len() as u32;
                let footprint = &self.frames[d].result;
                self.arena.extend_from_slice(footprint.keys());
                if let Some(bloom) = footprint.bloom() {
                    self.arena.extend_from_slice(bloom);
                }
                self.arena_live += words;
            }
        }
        self.table[at] = entry;
        self.tags[at] = state;
    }

    /// The arena's length past which it is compacted: twice its live keys,
    /// at least 2^22, and at most `Options::arena_keys`.
    fn arena_limit(&self) -> usize {
        (2 * self.arena_live)
            .max(1 << 22)
            .min(self.options.arena_keys as usize)
    }

    /// Copies the live entries' keys into a fresh arena, dropping the runs of
    /// replaced entries; when they pass half of `Options::arena_keys`, first
    /// drops the entries of least work that keep keys in the arena until
    /// they do not (the slots become empty: a table forgets, it never
    /// claims).
    fn compact(&mut self) {
        let half = (self.options.arena_keys / 2) as usize;
        if self.arena_live > half {
            // Keys by work; keep the entries of most work that fit in half.
            let mut by_work = [0usize; 66];
            for entry in &self.table {
                by_work[usize::from(entry.work).min(65)] += entry.arena_words();
            }
            let mut kept = 0;
            let mut threshold = 66;
            while threshold > 1 && kept + by_work[threshold - 1] <= half {
                threshold -= 1;
                kept += by_work[threshold];
            }
            for (entry, tag) in self.table.iter_mut().zip(&mut self.tags) {
                if entry.arena_words() != 0 && usize::from(entry.work) < threshold {
                    entry.work = 0;
                    *tag = EMPTY_TAG;
                    self.stats.evicted += 1;
                }
            }
        }
        let live: usize = self.table.iter().map(Entry::arena_words).sum();
        let capacity = (2 * live + (1 << 20)).min(self.options.arena_keys as usize);
        let mut fresh = std::mem::take(&mut self.spare);
        fresh.clear();
        fresh.reserve(capacity.max(live));
        for entry in &mut self.table {
            let words = entry.arena_words();
            if words != 0 {
                let at = entry.at as usize;
                entry.at = fresh.len() as u32;
                fresh.extend_from_slice(&self.arena[at..at + words]);
            }
        }
        self.arena_live = fresh.len();
        self.spare = std::mem::replace(&mut self.arena, fresh);
        self.stats.compactions += 1;
    }
}

/// One point of each class of the board's points under its symmetries, in
/// point order.
pub fn opening_points(board: &Board) -> Vec<Point> {
    let symmetries = crate::symmetry::symmetries(board);
    (0..board.points())
        .map(Point::new)
        .filter(|&point| symmetries.iter().all(|s| s.apply(point) >= point))
        .collect()
}

/// The value of the empty board for Black, from its opening values: the
/// larger of 0 and the best of them (Weninger and Hayward, Theorems 1 and
/// 3: the first player's value is at least 0, and passing first gives them
/// minus that value, which is not more than it).
pub fn empty_board_value(openings: &[(Point, i32)]) -> i32 {
    openings.iter().map(|&(_, v)| v).max().unwrap_or(0).max(0)
}

/// The openings of a board solved by `solve_openings`: each one's value and
/// states, and the solvers that found them, one a thread, with their tables
/// and figures.
#[derive(Debug)]
pub struct Openings {
    /// The value for Black of each first placement, one point per class
    /// under the board's symmetries, in point order (as `opening_values`).
    pub values: Vec<(Point, i32)>,
    /// The states each opening's search took, in the order of `values`.
    pub states: Vec<u64>,
    /// The solver of each thread.
    pub solvers: Vec<Solver>,
}

impl Openings {
    /// Whether a solver's budget ran out: the values then mean nothing.
    pub fn stopped(&self) -> bool {
        self.solvers.iter().any(Solver::stopped)
    }

    /// The figures of every thread together: counts summed, the longest
    /// line the longest of any.
    pub fn stats(&self) -> Stats {
        let mut all = Stats::default();
        for s in self.solvers.iter().map(Solver::stats) {
            all.nodes += s.nodes;
            all.table_hits += s.table_hits;
            all.table_cutoffs += s.table_cutoffs;
            all.table_shared += s.table_shared;
            all.table_stores += s.table_stores;
            all.refusals += s.refusals;
            all.searches += s.searches;
            all.max_depth = all.max_depth.max(s.max_depth);
            all.footprint_keys += s.footprint_keys;
            all.compactions += s.compactions;
            all.total += s.total;
            all.alive += s.alive;
            all.etc += s.etc;
            all.evicted += s.evicted;
            all.too_long += s.too_long;
            all.recalled += s.recalled;
        }
        all
    }

    /// The table slots in use, of every thread's table.
    pub fn table_used(&self) -> usize {
        self.solvers.iter().map(Solver::table_used).sum()
    }

    /// The table slots of every thread's table.
    pub fn table_size(&self) -> usize {
        self.solvers.iter().map(Solver::table_size).sum()
    }
}

/// An opening a thread solved: its index among the openings, its value for
/// Black and the states its search took.
type Solved = (usize, i32, u64);

/// The stack of a search thread: deep enough for the longest games (every
/// line ends, but one may last as many turns as there are positions).
const STACK_BYTES: usize = 1 << 30;

/// Every opening of the board solved on `threads` threads (at least one, at
/// most one an opening), each thread with a solver of its own (`options`
/// each, so its own table: nothing is shared between threads, and each
/// solver is exactly the one-thread solver of the openings it takes). A
/// thread takes the next opening not yet taken, in point order, until none
/// is left; a solver stops after `budget` states (0: never). With one
/// thread this is `Solver::opening_values` on one solver. The values are
/// exact whatever the split (each is a proven minimax value); the states
/// depend on which thread took which opening, so with two threads or more
/// they can differ from run to run. `report`, if given, is told of each
/// iteration of the deepening and each opening solved as they end (not
/// once a budget has stopped the search).
pub fn solve_openings(
    board: Board,
    rule: Superko,
    options: Options,
    threads: usize,
    budget: u64,
    report: Option<Reporter>,
) -> Openings {
    let points = opening_points(&board);
    let threads = threads.clamp(1, points.len().max(1));
    let next = AtomicUsize::new(0);
    let found: Vec<(Solver, Vec<Solved>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                std::thread::Builder::new()
                    .name("superko".to_string())
                    .stack_size(STACK_BYTES)
                    .spawn_scoped(scope, || {
                        let mut solver = Solver::new(board, rule, options).with_budget(budget);
                        // The opening this thread searches, for the reports.
                        let current = std::sync::Arc::new(AtomicUsize::new(0));
                        if let Some(report) = &report {
                            let (report, current) = (report.clone(), current.clone());
                            solver.set_trace(move |iteration| {
                                report(Progress::Iteration {
                                    opening: current.load(AtomicOrdering::Relaxed),
                                    iteration,
                                })
                            });
                        }
                        let mut game = Game::new(board, rule).expect("a supported board");
                        let mut found = Vec::new();
                        while !solver.stopped() {
                            let i = next.fetch_add(1, AtomicOrdering::Relaxed);
                            let Some(&point) = points.get(i) else {
                                break;
                            };
                            if game.play(Move::Place(point)).is_err() {
                                continue;
                            }
                            current.store(i, AtomicOrdering::Relaxed);
                            let before = solver.stats().nodes;
                            let value = -solver.value(&mut game).expect("the game goes on");
                            game.undo();
                            let states = solver.stats().nodes - before;
                            found.push((i, value, states));
                            if let Some(report) = report.as_ref().filter(|_| !solver.stopped()) {
                                report(Progress::Solved {
                                    opening: i,
                                    value,
                                    states,
                                });
                            }
                        }
                        (solver, found)
                    })
                    .expect("a thread for the search")
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    let mut rows: Vec<Solved> = found.iter().flat_map(|f| f.1.clone()).collect();
    rows.sort_unstable_by_key(|r| r.0);
    Openings {
        values: rows.iter().map(|&(i, v, _)| (points[i], v)).collect(),
        states: rows.iter().map(|r| r.2).collect(),
        solvers: found.into_iter().map(|f| f.0).collect(),
    }
}

/// Runs `work` on a thread with a stack deep enough for the longest games
/// (every line ends, but one may last as many turns as there are positions).
pub fn with_deep_stack<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .name("superko".to_string())
        .stack_size(STACK_BYTES)
        .spawn(work)
        .expect("a thread for the search")
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}
