//! The exact solver of a problem: every state reachable from the problem
//! is enumerated forward, then one retrograde pass finds the states the
//! attacker wins and in how many plies.
//!
//! Enumeration numbers the states in the order a breadth-first search
//! meets them (the problem's start is state 0). A state is stored once, as
//! a 128-bit key (`Codec`): the colours of the board's points in base 3,
//! the side to move, the passes, the ko point and which of the problem's
//! target strings are still on the board (target stones that start in one
//! string are captured together, so one bit a string says which targets
//! remain), kept in 64 bits when the board's keys fit (the digits, then
//! the flags: up to 34 points with one target string). An open-addressing
//! table of state numbers finds a key's state; once every state is known
//! it is built again at 4/3 slots a state.
//! No edge is stored: the first pass counts each state's moves and each
//! state's parents (the moves of a batch of states generated on every
//! core, their children numbered in order, so the numbering does not
//! depend on the thread count); the second generates every state's moves
//! again and fills the parents' lists (on every core); `moves_of` and
//! `child` generate the moves of one state when asked.
//!
//! A state whose targets are all captured is terminal. With pruning (the
//! default of `Limits`), so is a state where some remaining target stone
//! is unconditionally alive (`benson`): the attacker can never capture it,
//! whatever either side plays, so the state is the defender's under every
//! ko assumption, and its moves are not searched. Pruning changes no value
//! of the states it keeps: a pruned state is one the attacker never wins.
//! A pass that ends the game (the second in a row) leads to no state and
//! is never won.
//!
//! The retrograde pass works through a queue from the capture states, in
//! order of depth: a state where the attacker moves is won as soon as one
//! child is, a state where the defender moves once all its children are
//! (each keeps a count of its moves not yet won). A state left unmarked is
//! the defender's: alive, seki, or an endless game. Since the queue holds
//! states in order of depth, the attacker's first winning child is a
//! shortest one and the defender's last is a longest one.
//!
//! `Solution::with_limit` stops the enumeration the moment the memory the
//! solve would need passes the caller's limit, frees what it holds and
//! returns the figures reached (`TooLarge`). The memory counted is what is
//! held at once: the solve's own, what the solutions made before it hold,
//! and, for the solutions the caller will make after it while it is kept
//! (`Limits::to_follow`), as many kept at its size with the last at its
//! peak; so a solve that would leave too little room for those stops
//! before they begin.

use std::collections::VecDeque;
use std::fmt;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use rayon::prelude::*;

use crate::problem::benson::{unconditionally_alive, Adjacency};
use crate::problem::{KoAssumption, Objective, Problem};
use crate::rules::board::{Board, Point, PointSet};
use crate::rules::moves::Move;
use crate::rules::position::Position;

/// No ko point.
pub(crate) const NO_KO: u8 = u8::MAX;

/// A state of a problem's game, by the roles of the players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct StateKey {
    /// The attacker's stones.
    pub(crate) attacker: u64,
    /// The defender's stones.
    pub(crate) defender: u64,
    /// The target stones still on the board (a subset of `defender`).
    pub(crate) targets: u64,
    /// Whether the attacker moves.
    pub(crate) attacker_to_move: bool,
    /// The point the mover may not take back at once (a point's number),
    /// or `u8::MAX`.
    pub(crate) ko: u8,
    /// Consecutive passes before this state, 0 or 1.
    pub(crate) passes: u8,
}

impl StateKey {
    /// The state a problem starts in: no ko point, no pass.
    pub(crate) fn start(problem: &Problem) -> StateKey {
        let attacker_colour = problem.defender().opposite();
        StateKey {
            attacker: problem.stones(attacker_colour).bits(),
            defender: problem.stones(problem.defender()).bits(),
            targets: problem.targets().bits(),
            attacker_to_move: problem.to_move() == attacker_colour,
            ko: NO_KO,
            passes: 0,
        }
    }

    /// Whether every target has been captured: the attacker has won.
    pub(crate) fn is_capture(&self) -> bool {
        self.targets == 0
    }
}

/// The value of a state: `Some(plies)` when the attacker can force the
/// capture of every target (in that many plies, the attacker playing
/// shortest and the defender longest), `None` when the defender lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Status(pub(crate) Option<u32>);

impl Status {
    pub(crate) fn attacker_wins(self) -> bool {
        self.0.is_some()
    }
}

/// What a solve may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub(crate) struct Limits {
    /// The most memory the solve may count at once, in bytes: its own
    /// (as `Solution::peak_bytes` counts it), `held_bytes`, and the
    /// solutions to follow (`to_follow`).
    pub(crate) max_bytes: u64,
    /// The memory other solutions hold while this one is solved (their
    /// `kept_bytes`).
    pub(crate) held_bytes: u64,
    /// How many solutions will be solved after this one while it is kept:
    /// counted as the same size as this one, each kept (`kept_bytes`) but
    /// the last, which is counted at its peak in place of this one's.
    pub(crate) to_follow: u32,
    /// Whether a state where a target is unconditionally alive is
    /// terminal (its moves not searched).
    pub(crate) prune: bool,
    /// Whether the states' keys are kept in 64 bits when the board's keys
    /// fit (`Codec::narrow`); else in 128.
    pub(crate) narrow_keys: bool,
}

impl Limits {
    /// At most `max_bytes`, with pruning.
    pub(crate) fn new(max_bytes: u64) -> Limits {
        Limits {
            max_bytes,
            held_bytes: 0,
            to_follow: 0,
            prune: true,
            narrow_keys: true,
        }
    }

    /// The same limits for a solve made while other solutions hold
    /// `held_bytes`, with `to_follow` more to be solved after it while it
    /// is kept.
    pub(crate) fn sharing(self, held_bytes: u64, to_follow: u32) -> Limits {
        Limits {
            held_bytes,
            to_follow,
            ..self
        }
    }

    /// No limit on memory, with pruning.
    pub(crate) fn unlimited() -> Limits {
        Limits::new(u64::MAX)
    }

    /// The same limits, with pruning on or off.
    pub(crate) fn with_prune(self, prune: bool) -> Limits {
        Limits { prune, ..self }
    }

    /// The same limits, with the keys kept in 64 bits where they fit or
    /// always in 128.
    pub(crate) fn with_narrow_keys(self, narrow_keys: bool) -> Limits {
        Limits {
            narrow_keys,
            ..self
        }
    }
}

/// A problem the solver does not take on.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub(crate) enum TooLarge {
    /// The targets start in more strings than a state's key holds;
    /// refused before any work.
    TargetStrings { strings: usize, most: usize },
    /// The enumeration passed the memory limit and was stopped: the
    /// states and moves found so far (of the whole, not yet known), and
    /// the memory counted for them (`bytes`, the most held at once while
    /// this solve and those to follow are made): a solve's own at its
    /// peak (`solve`), what the solutions made before it hold (`held`),
    /// and `to_follow` more solutions of this size kept (`later`: this
    /// one and those after it but the last, while the last is at its
    /// peak).
    Memory {
        states: u64,
        edges: u64,
        bytes: u64,
        solve: u64,
        held: u64,
        to_follow: u32,
        later: u64,
        limit: u64,
    },
    /// More moves than the parents' lists can number (2^32).
    Edges { edges: u64 },
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TooLarge::TargetStrings { strings, most } => write!(
                f,
                "the targets are {strings} strings; the solver takes at most {most}"
            ),
            TooLarge::Memory {
                states,
                edges,
                bytes,
                solve,
                held,
                to_follow,
                later,
                limit,
            } => {
                let size = |bytes: &u64| crate::common::units::human_bytes(*bytes as f64);
                write!(
                    f,
                    "the problem needs more than {} of memory, the limit: stopped after \
                     {states} states and {edges} moves (needing {}",
                    size(limit),
                    size(bytes),
                )?;
                if *held > 0 || *to_follow > 0 {
                    write!(
                        f,
                        ": {} at the peak of a solve of this size, {} held by the solutions \
                         made before, {} for {to_follow} more solutions of this size kept",
                        size(solve),
                        size(held),
                        size(later),
                    )?;
                }
                write!(f, "), the whole not yet found")
            }
            TooLarge::Edges { edges } => write!(
                f,
                "the problem has more than {edges} moves; the solver numbers at most 2^32"
            ),
        }
    }
}

impl std::error::Error for TooLarge {}

/// The depth of a state the attacker does not win.
const NOT_WON: u32 = u32::MAX;
/// The depth of a state where a target is unconditionally alive: not won
/// and terminal.
const SETTLED: u32 = u32::MAX - 1;

/// The most target strings a key holds.
const MAX_TARGET_STRINGS: usize = 16;

/// States' keys, packed into 128 bits: the low word holds the colours of
/// points 0 to 39 in base 3 (3^40 < 2^64), the high word those of points
/// 40 to 63 in its low 39 bits (3^24 < 2^39), then the side to move (bit
/// 39), the passes (bit 40), the ko point (bits 41 to 47, 127 for none)
/// and a bit a target string (from bit 48). A point's digit is 0 empty, 1
/// the attacker's, 2 the defender's; eight points at a time go through a
/// table.
pub(crate) struct Codec {
    /// The target stones of each target string at the start.
    groups: Vec<u64>,
    /// The number of groups of eight points the board has.
    chunks: usize,
    /// The bits the points' digits take when a key fits in 64 bits
    /// (`narrow`): at most 40 points, their digits then the flags.
    narrow_digits: Option<u32>,
}

/// The base-3 value of eight points by (attacker byte | defender byte <<
/// 8), and the bytes of each value.
struct Tables {
    encode: Vec<u16>,
    decode: Vec<u16>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut encode = vec![u16::MAX; 1 << 16];
        let mut decode = vec![0u16; 6561];
        for value in 0..6561u32 {
            let (mut attacker, mut defender, mut rest) = (0u16, 0u16, value);
            for bit in 0..8 {
                match rest % 3 {
                    1 => attacker |= 1 << bit,
                    2 => defender |= 1 << bit,
                    _ => {}
                }
                rest /= 3;
            }
            let bytes = attacker | defender << 8;
            encode[bytes as usize] = value as u16;
            decode[value as usize] = bytes;
        }
        Tables { encode, decode }
    })
}

const CHUNK: u64 = 6561;
const FLAG_TO_MOVE: u64 = 1 << 39;
const FLAG_PASS: u64 = 1 << 40;
const KO_SHIFT: u32 = 41;
const KO_NONE: u64 = 127;
const GROUP_SHIFT: u32 = 48;

impl Codec {
    pub(crate) fn new(board: &Board, problem: &Problem) -> Result<Codec, TooLarge> {
        let defender = problem.stones(problem.defender());
        let mut groups = Vec::new();
        let mut pending = problem.targets();
        while let Some(point) = pending.first() {
            let string = board.flood(PointSet::single(point), defender);
            groups.push((string & problem.targets()).bits());
            pending = pending - string;
        }
        if groups.len() > MAX_TARGET_STRINGS {
            return Err(TooLarge::TargetStrings {
                strings: groups.len(),
                most: MAX_TARGET_STRINGS,
            });
        }
        let chunks = board.points().div_ceil(8);
        let narrow_digits = Codec::narrow_layout(board.points(), groups.len());
        Ok(Codec {
            groups,
            chunks,
            narrow_digits,
        })
    }

    /// The bits of a narrow key's digits on a board of `points` points
    /// with `groups` target strings, if its digits (below 3^points) and
    /// flags (side to move, passes, ko point, a bit a string) fit in 64
    /// bits: the least `d` with 3^points <= 2^d.
    fn narrow_layout(points: usize, groups: usize) -> Option<u32> {
        if points > 40 {
            return None;
        }
        let digits = 128 - (3u128.pow(points as u32) - 1).leading_zeros();
        (digits + (GROUP_SHIFT - 39) + groups as u32 <= 64).then_some(digits)
    }

    /// The bits of the target strings in `targets`, or `None` when
    /// `targets` is no union of them.
    fn group_bits(&self, targets: u64) -> Option<u64> {
        let mut bits = 0;
        let mut covered = 0;
        for (g, &group) in self.groups.iter().enumerate() {
            if targets & group == group {
                bits |= 1 << g;
                covered |= group;
            }
        }
        (covered == targets).then_some(bits)
    }

    /// Packs a key whose targets are a union of target strings (every key
    /// the game reaches: a string's targets are captured together).
    #[inline]
    pub(crate) fn pack(&self, key: &StateKey) -> u128 {
        let encode = &tables().encode;
        let digits = |k: usize| {
            let a = (key.attacker >> (8 * k)) & 0xff;
            let d = (key.defender >> (8 * k)) & 0xff;
            encode[(a | d << 8) as usize] as u64
        };
        let mut low = 0u64;
        for k in (0..self.chunks.min(5)).rev() {
            low = low * CHUNK + digits(k);
        }
        let mut high = 0u64;
        for k in (5..self.chunks).rev() {
            high = high * CHUNK + digits(k);
        }
        let mut groups = 0u64;
        for (g, &group) in self.groups.iter().enumerate() {
            if key.targets & group != 0 {
                groups |= 1 << g;
            }
        }
        let ko = if key.ko == NO_KO {
            KO_NONE
        } else {
            key.ko as u64
        };
        high |= if key.attacker_to_move {
            FLAG_TO_MOVE
        } else {
            0
        } | if key.passes != 0 { FLAG_PASS } else { 0 }
            | ko << KO_SHIFT
            | groups << GROUP_SHIFT;
        (high as u128) << 64 | low as u128
    }

    #[inline]
    pub(crate) fn unpack(&self, packed: u128) -> StateKey {
        let decode = &tables().decode;
        let (mut attacker, mut defender) = (0u64, 0u64);
        let mut low = packed as u64;
        let high = (packed >> 64) as u64;
        let mut digits = high & (FLAG_TO_MOVE - 1);
        for k in 0..self.chunks {
            let word = if k < 5 { &mut low } else { &mut digits };
            let bytes = decode[(*word % CHUNK) as usize] as u64;
            *word /= CHUNK;
            attacker |= (bytes & 0xff) << (8 * k);
            defender |= (bytes >> 8) << (8 * k);
        }
        let groups = high >> GROUP_SHIFT;
        let mut targets = 0;
        for (g, &group) in self.groups.iter().enumerate() {
            if groups & 1 << g != 0 {
                targets |= group;
            }
        }
        let ko = (high >> KO_SHIFT) & 127;
        StateKey {
            attacker,
            defender,
            targets,
            attacker_to_move: high & FLAG_TO_MOVE != 0,
            ko: if ko == KO_NONE { NO_KO } else { ko as u8 },
            passes: (high & FLAG_PASS != 0) as u8,
        }
    }

    /// Whether every target of a packed key has been captured.
    #[inline]
    fn is_capture(packed: u128) -> bool {
        (packed >> (64 + GROUP_SHIFT)) == 0
    }

    /// A packed key in 64 bits, when the board's keys fit (`narrow_digits`):
    /// the low word's digits, then the high word's flags.
    #[inline]
    fn narrow(digits: u32, packed: u128) -> u64 {
        packed as u64 | ((packed >> 64) as u64 >> 39) << digits
    }

    /// The packed key of a narrow one.
    #[inline]
    fn widen(digits: u32, narrow: u64) -> u128 {
        let low = narrow & ((1u64 << digits) - 1);
        let flags = narrow >> digits;
        ((flags << 39) as u128) << 64 | low as u128
    }
}

/// A state's key as the solution keeps it: the packed key (`u128`), or,
/// when the board's keys fit, the same in 64 bits (`u64`, half the bytes).
trait Stored: Copy + Eq + Send + Sync + 'static {
    /// The stored form of a packed key.
    fn store(packed: u128, digits: u32) -> Self;
    /// The packed key of a stored one.
    fn packed(self, digits: u32) -> u128;
    /// The hash the table files it by.
    fn hash(self) -> u64;
}

impl Stored for u128 {
    #[inline]
    fn store(packed: u128, _: u32) -> u128 {
        packed
    }
    #[inline]
    fn packed(self, _: u32) -> u128 {
        self
    }
    #[inline]
    fn hash(self) -> u64 {
        hash(self)
    }
}

impl Stored for u64 {
    #[inline]
    fn store(packed: u128, digits: u32) -> u64 {
        Codec::narrow(digits, packed)
    }
    #[inline]
    fn packed(self, digits: u32) -> u128 {
        Codec::widen(digits, self)
    }
    #[inline]
    fn hash(self) -> u64 {
        let mut x = self ^ (self >> 30);
        x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x ^= x >> 27;
        x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ (x >> 31)
    }
}

/// An empty slot of the table.
const FREE: u64 = u64::MAX;

/// The numbering of the states: an open-addressing table (linear probing),
/// at most 3/4 full, hashed by the states' keys. A slot holds a state's
/// number in its low 32 bits and 32 bits of its key's hash above them, so
/// that a probe reads a key only when the hashes agree. A key's first slot
/// is its hash scaled to the slots' number, which need not be a power of
/// two: the enumeration doubles the slots as the states grow, and once
/// every state is known the table is built again at 4/3 slots a state.
struct Table {
    slots: Vec<u64>,
}

#[inline]
pub(crate) fn hash(key: u128) -> u64 {
    let low = key as u64;
    let high = (key >> 64) as u64;
    let x = low.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ high.rotate_left(29).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    x ^ (x >> 31)
}

impl Table {
    /// The slots that hold `states` states at most 3/4 full.
    fn slots_for(states: usize) -> usize {
        (states + states.div_ceil(3)).max(1024)
    }

    /// The numbering of `keys` in `slots` slots.
    fn of<K: Stored>(keys: &[K], slots: usize) -> Table {
        let mut table = Table {
            slots: vec![FREE; slots],
        };
        for (state, &key) in keys.iter().enumerate() {
            let hash = key.hash();
            let mut slot = table.home(hash);
            while table.slots[slot] != FREE {
                slot = table.next(slot);
            }
            table.slots[slot] = hash << 32 | state as u64;
        }
        table
    }

    fn bytes(&self) -> usize {
        self.slots.capacity() * size_of::<u64>()
    }

    /// Whether holding `states` states needs more slots.
    fn is_full(&self, states: usize) -> bool {
        states * 4 > self.slots.len() * 3
    }

    /// A hash's first slot.
    #[inline]
    fn home(&self, hash: u64) -> usize {
        ((hash as u128 * self.slots.len() as u128) >> 64) as usize
    }

    #[inline]
    fn next(&self, slot: usize) -> usize {
        if slot + 1 == self.slots.len() {
            0
        } else {
            slot + 1
        }
    }

    #[inline]
    fn find<K: Stored>(&self, keys: &[K], key: K) -> Option<usize> {
        let hash = key.hash();
        let tag = hash << 32;
        let mut slot = self.home(hash);
        loop {
            let entry = self.slots[slot];
            if entry == FREE {
                return None;
            }
            let state = (entry & 0xffff_ffff) as usize;
            if entry & !0xffff_ffff == tag && keys[state] == key {
                return Some(state);
            }
            slot = self.next(slot);
        }
    }

    /// The state of `key`, numbered `keys.len()` and pushed if new; true
    /// if new.
    #[inline]
    fn insert<K: Stored>(&mut self, keys: &mut Vec<K>, key: K) -> (u32, bool) {
        let hash = key.hash();
        let tag = hash << 32;
        let mut slot = self.home(hash);
        loop {
            let entry = self.slots[slot];
            if entry == FREE {
                let state = keys.len() as u32;
                self.slots[slot] = tag | state as u64;
                keys.push(key);
                return (state, true);
            }
            let state = (entry & 0xffff_ffff) as u32;
            if entry & !0xffff_ffff == tag && keys[state as usize] == key {
                return (state, false);
            }
            slot = self.next(slot);
        }
    }
}

/// Room in `vec` for `more` elements, its capacity grown by an eighth at
/// least (not doubled), so that it stays within 9/8 of its length.
fn reserve<T>(vec: &mut Vec<T>, more: usize) {
    if vec.capacity() - vec.len() < more {
        vec.reserve_exact(more.max(vec.capacity() / 8));
    }
}

/// The edge's move in `successors`: a point's number, or `PASS`.
pub(crate) const PASS: u8 = u8::MAX;

/// A state's moves are at most 65 (64 points and the pass): the low seven
/// bits of a state's byte count them (or its moves not yet won), the high
/// bit says the attacker moves.
const ATTACKER_MOVES: u8 = 0x80;

/// Every state reachable from a problem, with its value.
pub(crate) struct Solution {
    board: Board,
    ko: KoAssumption,
    objective: Objective,
    codec: Codec,
    keys: Keys,
    table: Table,
    /// The depth of each state the attacker wins; `NOT_WON` for the
    /// others, `SETTLED` for the states pruning made terminal.
    depth: Vec<u32>,
    edges: usize,
    peak_bytes: usize,
}

/// The states' keys in the order of their numbers: in 64 bits when the
/// board's keys fit (`Codec::narrow`, with the bits of the digits), else
/// packed.
enum Keys {
    Narrow(Vec<u64>, u32),
    Wide(Vec<u128>),
}

/// The memory of the solve's arrays at their peak, from the states'
/// number and the parents' edges: the keys and the table, each state's
/// parent offset, move count, depth and (at most) place in the queue, and
/// an edge's parent.
fn retrograde_bytes(key_bytes: usize, table_bytes: usize, states: usize, edges: usize) -> usize {
    key_bytes + table_bytes + states * (4 + 1 + 4 + 4) + 4 + edges * 4
}

/// The memory a solution of `states` states keeps after its solve: its
/// keys (`key_size` bytes each), its table (4/3 slots a state) and its
/// depths.
fn kept_bytes(key_size: usize, states: usize) -> usize {
    states * key_size + Table::slots_for(states) * size_of::<u64>() + states * 4
}

/// The memory counted against `limits` for a solve whose own peak is
/// `peak` with `states` states so far (`key_size` bytes a key): its
/// peak, with what other solutions hold and the solutions to follow, as
/// many of its size kept (`Limits::to_follow`). As a `TooLarge::Memory`
/// with the figures when it passes the limit.
fn check_memory(
    limits: &Limits,
    peak: usize,
    states: usize,
    edges: usize,
    key_size: usize,
) -> Result<(), TooLarge> {
    let later = (limits.to_follow as u64).saturating_mul(kept_bytes(key_size, states) as u64);
    let bytes = limits
        .held_bytes
        .saturating_add(peak as u64)
        .saturating_add(later);
    if bytes <= limits.max_bytes {
        return Ok(());
    }
    Err(TooLarge::Memory {
        states: states as u64,
        edges: edges as u64,
        bytes,
        solve: peak as u64,
        held: limits.held_bytes,
        to_follow: limits.to_follow,
        later,
        limit: limits.max_bytes,
    })
}

/// The states the first pass expands at once, and in one task.
const BATCH: usize = 1 << 16;
const PART: usize = 1 << 11;

/// The expansion of consecutive states: each one's byte (its moves, and
/// whether the attacker moves), its children's count, and its children
/// (the states its moves lead to, in order) one after another.
struct Expanded<K> {
    moves: Vec<u8>,
    counts: Vec<u8>,
    children: Vec<K>,
}

/// What the enumeration and the retrograde pass give, in keys of either
/// form.
struct Solved<K> {
    keys: Vec<K>,
    table: Table,
    depth: Vec<u32>,
    edges: usize,
    peak_bytes: usize,
}

/// What a solve is of: the board, the ko assumption, the objective, the
/// keys' codec and the bits of a narrow key's digits, pruning.
struct Game<'a> {
    board: &'a Board,
    ko: KoAssumption,
    objective: Objective,
    codec: &'a Codec,
    digits: u32,
    adjacency: &'a Adjacency,
    prune: bool,
}

fn expand<K: Stored>(game: &Game, keys: &[K]) -> Expanded<K> {
    let mut expanded = Expanded {
        moves: Vec::with_capacity(keys.len()),
        counts: Vec::with_capacity(keys.len()),
        children: Vec::new(),
    };
    let mut found = Vec::new();
    for &stored in keys {
        let key = game.codec.unpack(stored.packed(game.digits));
        let mover = if key.attacker_to_move {
            ATTACKER_MOVES
        } else {
            0
        };
        let terminal = key.is_capture()
            || (game.prune
                && unconditionally_alive(game.adjacency, key.defender, key.attacker) & key.targets
                    != 0);
        if terminal {
            expanded.moves.push(mover);
            expanded.counts.push(0);
            continue;
        }
        found.clear();
        successors(game.board, game.ko, game.objective, &key, &mut found);
        expanded.moves.push(mover | found.len() as u8);
        let before = expanded.children.len();
        expanded
            .children
            .extend(found.iter().filter_map(|(_, child)| {
                child
                    .as_ref()
                    .map(|child| K::store(game.codec.pack(child), game.digits))
            }));
        expanded
            .counts
            .push((expanded.children.len() - before) as u8);
    }
    expanded
}

/// Every state reachable from `start`, solved (`Solution::with_limit`).
fn solve_states<K: Stored>(
    game: &Game,
    start: u128,
    limits: Limits,
) -> Result<Solved<K>, TooLarge> {
    let (board, ko, objective) = (game.board, game.ko, game.objective);
    let (codec, digits) = (game.codec, game.digits);

    // First pass: every state, its moves counted, its parents counted.
    let mut keys: Vec<K> = Vec::with_capacity(1024);
    let mut table = Table::of(&keys, Table::slots_for(0));
    table.insert(&mut keys, K::store(start, digits));
    let mut parent_counts: Vec<AtomicU32> = vec![AtomicU32::new(0)];
    let mut moves: Vec<u8> = Vec::with_capacity(1024);
    let mut edges = 0usize;
    let mut parent_edges = 0usize;
    let mut enumeration_peak = 0usize;
    let mut next = 0;
    while next < keys.len() {
        // A batch of states in the order of the search: their moves
        // generated on every core, their children numbered in order.
        let end = keys.len().min(next + BATCH);
        let parts: Vec<Expanded<K>> = (next..end)
            .step_by(PART)
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|from| expand(game, &keys[from..end.min(from + PART)]))
            .collect();
        next = end;
        for part in parts {
            reserve(&mut moves, part.moves.len());
            reserve(&mut keys, part.children.len());
            reserve(&mut parent_counts, part.children.len());
            let mut children = part.children.iter();
            for (&byte, &count) in part.moves.iter().zip(&part.counts) {
                moves.push(byte);
                edges += (byte & !ATTACKER_MOVES) as usize;
                for &child in children.by_ref().take(count as usize) {
                    let (state, new) = table.insert(&mut keys, child);
                    if new {
                        parent_counts.push(AtomicU32::new(1));
                    } else {
                        *parent_counts[state as usize].get_mut() += 1;
                    }
                    parent_edges += 1;
                }
                if parent_edges >= u32::MAX as usize {
                    // States and parents are numbered in 32 bits.
                    return Err(TooLarge::Edges {
                        edges: parent_edges as u64,
                    });
                }
                let counts_bytes = parent_counts.capacity() * 4 + moves.capacity();
                let key_bytes = keys.capacity() * size_of::<K>();
                if table.is_full(keys.len() + 65) {
                    // The table is built again from the keys in twice the
                    // slots, the old one dropped first.
                    let slots = table.slots.len() * 2;
                    enumeration_peak =
                        enumeration_peak.max(key_bytes + counts_bytes + slots * size_of::<u64>());
                    check_memory(&limits, enumeration_peak, keys.len(), edges, size_of::<K>())?;
                    drop(table);
                    table = Table::of(&keys, slots);
                }
                let needed = retrograde_bytes(
                    key_bytes,
                    Table::slots_for(keys.len()) * size_of::<u64>(),
                    keys.len(),
                    parent_edges,
                )
                .max(enumeration_peak);
                check_memory(&limits, needed, keys.len(), edges, size_of::<K>())?;
            }
        }
    }
    let n = keys.len();
    // Every state known: the keys in as many places, the table in 4/3
    // slots a state (built again from the keys, the old one dropped first).
    keys.shrink_to_fit();
    moves.shrink_to_fit();
    if table.slots.len() > Table::slots_for(n) {
        drop(table);
        table = Table::of(&keys, Table::slots_for(n));
    }

    // Second pass: the parents' lists. Offsets are first each list's
    // end, then taken down by one an edge to its start.
    let mut offsets = parent_counts;
    offsets.push(AtomicU32::new(0));
    let mut total = 0u32;
    for offset in offsets.iter_mut() {
        total += *offset.get_mut();
        *offset.get_mut() = total;
    }
    let parents: Vec<AtomicU32> = (0..parent_edges).map(|_| AtomicU32::new(0)).collect();
    (0..n).into_par_iter().with_min_len(4096).for_each_init(
        Vec::new,
        |found: &mut Vec<(u8, Option<StateKey>)>, parent| {
            if moves[parent] & !ATTACKER_MOVES == 0 {
                return;
            }
            found.clear();
            let parent_key = codec.unpack(keys[parent].packed(digits));
            successors(board, ko, objective, &parent_key, found);
            for &(_, child) in found.iter() {
                let Some(child) = child else { continue };
                let child = table
                    .find(&keys, K::store(codec.pack(&child), digits))
                    .expect("the second pass meets the states of the first");
                let place = offsets[child].fetch_sub(1, Ordering::Relaxed) - 1;
                parents[place as usize].store(parent as u32, Ordering::Relaxed);
            }
        },
    );
    let offsets: Vec<u32> = offsets.into_iter().map(AtomicU32::into_inner).collect();
    let parents: Vec<u32> = parents.into_iter().map(AtomicU32::into_inner).collect();

    // The retrograde pass.
    let mut unresolved = moves;
    let mut depth = vec![NOT_WON; n];
    let mut queue = VecDeque::new();
    for i in 0..n {
        if unresolved[i] & !ATTACKER_MOVES == 0 {
            if Codec::is_capture(keys[i].packed(digits)) {
                depth[i] = 0;
                queue.push_back(i as u32);
            } else {
                depth[i] = SETTLED;
            }
        }
    }
    let mut queue_capacity = queue.capacity();
    while let Some(child) = queue.pop_front() {
        let next = depth[child as usize] + 1;
        let range = offsets[child as usize] as usize..offsets[child as usize + 1] as usize;
        for &parent in &parents[range] {
            let parent = parent as usize;
            if depth[parent] != NOT_WON {
                continue;
            }
            let won = if unresolved[parent] & ATTACKER_MOVES != 0 {
                true
            } else {
                unresolved[parent] -= 1;
                unresolved[parent] == 0
            };
            if won {
                depth[parent] = next;
                queue.push_back(parent as u32);
            }
        }
        queue_capacity = queue_capacity.max(queue.capacity());
    }
    let retrograde_peak = keys.capacity() * size_of::<K>()
        + table.bytes()
        + (offsets.capacity() + parents.capacity() + depth.capacity() + queue_capacity) * 4
        + unresolved.capacity();
    Ok(Solved {
        keys,
        table,
        depth,
        edges,
        peak_bytes: enumeration_peak.max(retrograde_peak),
    })
}

impl Solution {
    /// Enumerates and solves every state reachable from `problem`, with no
    /// pruning and no limit on memory: each state keeps its moves.
    ///
    /// Panics if the targets start in more than 16 strings or the moves
    /// are more than 2^32, which `with_limit` reports as errors.
    pub(crate) fn new(problem: &Problem) -> Solution {
        Solution::with_limit(problem, Limits::unlimited().with_prune(false))
            .unwrap_or_else(|error| panic!("{error}"))
    }

    /// Enumerates and solves every state reachable from `problem` (with
    /// pruning if `limits` says so), or stops, freeing what it holds, as
    /// soon as the memory the solve would need passes `limits.max_bytes`.
    pub(crate) fn with_limit(problem: &Problem, limits: Limits) -> Result<Solution, TooLarge> {
        let board = *problem.board();
        let ko = problem.ko();
        let objective = problem.objective();
        let codec = Codec::new(&board, problem)?;
        let start = codec.pack(&StateKey::start(problem));
        let adjacency = Adjacency::new(&board);
        let narrow = codec.narrow_digits.filter(|_| limits.narrow_keys);
        let game = Game {
            board: &board,
            ko,
            objective,
            codec: &codec,
            digits: narrow.unwrap_or(0),
            adjacency: &adjacency,
            prune: limits.prune,
        };
        let (keys, table, depth, edges, peak_bytes) = match narrow {
            Some(digits) => {
                let solved = solve_states::<u64>(&game, start, limits)?;
                let keys = Keys::Narrow(solved.keys, digits);
                (
                    keys,
                    solved.table,
                    solved.depth,
                    solved.edges,
                    solved.peak_bytes,
                )
            }
            None => {
                let solved = solve_states::<u128>(&game, start, limits)?;
                let keys = Keys::Wide(solved.keys);
                (
                    keys,
                    solved.table,
                    solved.depth,
                    solved.edges,
                    solved.peak_bytes,
                )
            }
        };
        Ok(Solution {
            board,
            ko,
            objective,
            codec,
            keys,
            table,
            depth,
            edges,
            peak_bytes,
        })
    }

    /// Whether the states' keys are kept in 64 bits.
    #[cfg(test)]
    pub(crate) fn keys_are_narrow(&self) -> bool {
        matches!(self.keys, Keys::Narrow(..))
    }

    /// The state of a packed key, if the solution has it.
    fn find_packed(&self, packed: u128) -> Option<usize> {
        match &self.keys {
            Keys::Narrow(keys, digits) => self.table.find(keys, u64::store(packed, *digits)),
            Keys::Wide(keys) => self.table.find(keys, packed),
        }
    }

    /// The number of states.
    pub(crate) fn len(&self) -> usize {
        match &self.keys {
            Keys::Narrow(keys, _) => keys.len(),
            Keys::Wide(keys) => keys.len(),
        }
    }

    /// The number of edges (moves), game-ending passes included.
    pub(crate) fn edges(&self) -> usize {
        self.edges
    }

    /// The most memory the solve held at once, in bytes: the states'
    /// keys and table, with either the counts of the first pass (and a
    /// table growing) or the parents' lists, counts, depths and queue of
    /// the retrograde pass.
    pub(crate) fn peak_bytes(&self) -> usize {
        self.peak_bytes
    }

    /// The memory the solution holds: its keys, table and depths (what
    /// `Limits::held_bytes` counts of it, and `kept_bytes` predicts).
    pub(crate) fn kept_bytes(&self) -> usize {
        let keys = match &self.keys {
            Keys::Narrow(keys, _) => keys.capacity() * size_of::<u64>(),
            Keys::Wide(keys) => keys.capacity() * size_of::<u128>(),
        };
        keys + self.table.bytes() + self.depth.capacity() * size_of::<u32>()
    }

    /// State `i`'s key.
    pub(crate) fn key(&self, i: usize) -> StateKey {
        self.codec.unpack(match &self.keys {
            Keys::Narrow(keys, digits) => keys[i].packed(*digits),
            Keys::Wide(keys) => keys[i],
        })
    }

    /// State `i`'s value.
    pub(crate) fn status(&self, i: usize) -> Status {
        Status((self.depth[i] < SETTLED).then_some(self.depth[i]))
    }

    /// The problem's value.
    pub(crate) fn start(&self) -> Status {
        self.status(0)
    }

    /// Whether state `i` is terminal: every target captured, or (with
    /// pruning) a target unconditionally alive. A terminal state has no
    /// moves in the solution.
    pub(crate) fn is_terminal(&self, i: usize) -> bool {
        self.depth[i] == 0 || self.depth[i] == SETTLED
    }

    /// Whether pruning made state `i` terminal: a target stone there is
    /// unconditionally alive, so the defender has won.
    pub(crate) fn is_settled(&self, i: usize) -> bool {
        self.depth[i] == SETTLED
    }

    /// The number of states pruning made terminal.
    pub(crate) fn settled(&self) -> usize {
        self.depth.iter().filter(|&&d| d == SETTLED).count()
    }

    /// The moves of state `i`, each with the state it leads to (`None`:
    /// the game ends), generated again: placements in point order, then
    /// the pass; none for a terminal state.
    fn children(&self, i: usize) -> Vec<(Move, Option<usize>)> {
        if self.is_terminal(i) {
            return Vec::new();
        }
        let mut found = Vec::new();
        successors(
            &self.board,
            self.ko,
            self.objective,
            &self.key(i),
            &mut found,
        );
        found
            .into_iter()
            .map(|(mv, child)| {
                let mv = match mv {
                    PASS => Move::Pass,
                    point => Move::Place(Point::new(point as usize)),
                };
                let child = child.map(|child| {
                    self.find_packed(self.codec.pack(&child))
                        .expect("a state's children are states")
                });
                (mv, child)
            })
            .collect()
    }

    /// The moves of state `i` with the value of the state each leads to,
    /// placements in point order, then the pass; none for a terminal
    /// state.
    pub(crate) fn moves_of(&self, i: usize) -> Vec<(Move, Status)> {
        self.children(i)
            .into_iter()
            .map(|(mv, child)| (mv, child.map_or(Status(None), |c| self.status(c))))
            .collect()
    }

    /// The best moves of state `i` for its mover, in the order of
    /// `moves_of`: the attacker's shortest win, else any move (none wins);
    /// the defender's moves that live, else the longest resistance.
    pub(crate) fn best_moves(&self, i: usize) -> Vec<Move> {
        let moves = self.moves_of(i);
        let keep: Box<dyn Fn(Status) -> bool> = match (self.key(i).attacker_to_move, self.status(i))
        {
            (_, Status(Some(0))) => return Vec::new(),
            (true, Status(Some(d))) | (false, Status(Some(d))) => {
                Box::new(move |s: Status| s == Status(Some(d - 1)))
            }
            (true, Status(None)) => Box::new(|_| true),
            (false, Status(None)) => Box::new(|s: Status| !s.attacker_wins()),
        };
        moves
            .into_iter()
            .filter(|&(_, status)| keep(status))
            .map(|(mv, _)| mv)
            .collect()
    }

    /// The problem's first moves, each with its value.
    pub(crate) fn first_moves(&self) -> Vec<(Move, Status)> {
        self.moves_of(0)
    }

    /// A line of best play from the start: each side plays its first best
    /// move, until the state is terminal (every target captured, or with
    /// pruning a target unconditionally alive), two passes end the game,
    /// or a state comes again (an endless game, the defender's).
    pub(crate) fn principal_line(&self) -> Vec<Move> {
        let mut line = Vec::new();
        let mut seen = vec![false; self.len()];
        let mut state = 0usize;
        loop {
            if self.is_terminal(state) || seen[state] {
                return line;
            }
            seen[state] = true;
            let Some(&mv) = self.best_moves(state).first() else {
                return line;
            };
            line.push(mv);
            match self.child(state, mv) {
                Some(Some(child)) => state = child,
                _ => return line,
            }
        }
    }

    /// The state with this key, if the solution has it.
    pub(crate) fn find(&self, key: &StateKey) -> Option<usize> {
        let all = self.board.all().bits();
        if (key.attacker | key.defender) & !all != 0
            || key.attacker & key.defender != 0
            || key.targets & !key.defender != 0
            || key.passes > 1
            || (key.ko != NO_KO && key.ko as usize >= self.board.points())
        {
            return None;
        }
        self.codec.group_bits(key.targets)?;
        self.find_packed(self.codec.pack(key))
    }

    /// The state move `mv` of state `i` leads to: `None` if `mv` is no move
    /// of the state (occupied, suicide, the ko ban, or any move of a
    /// terminal state), `Some(None)` if it ends the game (the second pass
    /// in a row).
    pub(crate) fn child(&self, i: usize, mv: Move) -> Option<Option<usize>> {
        self.children(i)
            .into_iter()
            .find(|&(m, _)| m == mv)
            .map(|(_, child)| child)
    }
}

/// The moves of `key` under `ko`, each with the state it leads to
/// (`None`: the game ends): placements in point order, then the pass (see
/// `successors`).
pub(crate) fn successor_moves(
    board: &Board,
    ko: KoAssumption,
    objective: Objective,
    key: &StateKey,
) -> Vec<(Move, Option<StateKey>)> {
    let mut found = Vec::new();
    successors(board, ko, objective, key, &mut found);
    found
        .into_iter()
        .map(|(mv, child)| {
            let mv = if mv == PASS {
                Move::Pass
            } else {
                Move::Place(Point::new(mv as usize))
            };
            (mv, child)
        })
        .collect()
}

/// The moves of a state that is no capture, each with the state it leads
/// to (`None`: the game ends): placements in point order, then the pass.
/// Under `Objective::Clear`, a defender's move that joins target stones
/// to a safe stone takes them from the targets, as a capture does, and one
/// that captures a stone the attacker keeps ends the game.
pub(crate) fn successors(
    board: &Board,
    ko: KoAssumption,
    objective: Objective,
    key: &StateKey,
    out: &mut Vec<(u8, Option<StateKey>)>,
) {
    // The safe stones a target string leaves the fight by joining, and
    // the stones whose capture ends the game.
    let (exits, keep) = match objective {
        Objective::Capture => (PointSet::EMPTY, 0),
        Objective::Clear { keep } => (board.open(), keep.bits()),
    };
    let (mover, other) = if key.attacker_to_move {
        (key.attacker, key.defender)
    } else {
        (key.defender, key.attacker)
    };
    let ignores_ko = match ko {
        KoAssumption::Basic => false,
        KoAssumption::AttackerIgnoresKo => key.attacker_to_move,
        KoAssumption::DefenderIgnoresKo => !key.attacker_to_move,
    };
    let position = Position::new(PointSet(mover), PointSet(other));
    position.placements(board, |point, placed| {
        if point.index() as u8 == key.ko && !ignores_ko {
            return;
        }
        let mover = placed.position.us().bits();
        let other = placed.position.them().bits();
        let ko = placed.ko.map_or(NO_KO, |p| p.index() as u8);
        let child = if key.attacker_to_move {
            StateKey {
                attacker: mover,
                defender: other,
                targets: key.targets & !placed.captured.bits(),
                attacker_to_move: false,
                ko,
                passes: 0,
            }
        } else {
            if placed.captured.bits() & keep != 0 {
                out.push((point.index() as u8, None));
                return;
            }
            let mut targets = key.targets;
            if !exits.is_empty() && targets != 0 {
                let string = board.flood(PointSet::single(point), placed.position.us());
                if !(string & exits).is_empty() {
                    targets &= !string.bits();
                }
            }
            StateKey {
                attacker: other,
                defender: mover,
                targets,
                attacker_to_move: true,
                ko,
                passes: 0,
            }
        };
        out.push((point.index() as u8, Some(child)));
    });
    let pass = (key.passes == 0).then_some(StateKey {
        attacker_to_move: !key.attacker_to_move,
        ko: NO_KO,
        passes: 1,
        ..*key
    });
    out.push((PASS, pass));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::support::Rng;

    /// Keys of boards up to 64 points come back from their packing whole:
    /// both words of digits, every flag, every target string.
    #[test]
    fn keys_of_up_to_64_points_pack_and_unpack() {
        let mut rng = Rng::new(0x6b65_7973);
        for points in [1usize, 8, 39, 40, 41, 48, 63, 64] {
            let groups: Vec<u64> = (0..MAX_TARGET_STRINGS as u64)
                .map(|g| 1u64 << (g as usize % points))
                .collect();
            let codec = Codec {
                narrow_digits: Codec::narrow_layout(points, groups.len()),
                groups,
                chunks: points.div_ceil(8),
            };
            let all = if points == 64 {
                u64::MAX
            } else {
                (1u64 << points) - 1
            };
            for _ in 0..2000 {
                let attacker = rng.below(u64::MAX) & all;
                let defender = rng.below(u64::MAX) & all & !attacker;
                let targets = codec
                    .groups
                    .iter()
                    .filter(|&&g| g & defender == g && rng.below(2) == 0)
                    .fold(0, |t, &g| t | g);
                let key = StateKey {
                    attacker,
                    defender,
                    targets,
                    attacker_to_move: rng.below(2) == 0,
                    ko: if rng.below(3) == 0 {
                        NO_KO
                    } else {
                        rng.below(points as u64) as u8
                    },
                    passes: rng.below(2) as u8,
                };
                let packed = codec.pack(&key);
                assert_eq!(codec.unpack(packed), key, "{points} points");
                assert_eq!(Codec::is_capture(packed), targets == 0);
                if let Some(digits) = codec.narrow_digits {
                    let narrow = Codec::narrow(digits, packed);
                    assert_eq!(Codec::widen(digits, narrow), packed, "{points} points");
                }
            }
        }
    }

    /// What a solution keeps is what `kept_bytes` predicts of its states;
    /// a solve counts against its limit what others hold and, for the
    /// solutions to follow, as many of its size kept: the limit that fits
    /// it alone refuses it with either, with those figures.
    #[test]
    fn a_solve_counts_what_is_held_and_what_follows() {
        use crate::rules::colour::Colour;
        let problem = Problem::from_diagram(
            "...##\n...##\nOOOOO\n.X..O",
            Colour::Black,
            &["A2"],
            KoAssumption::Basic,
        )
        .unwrap();
        let alone = Solution::with_limit(&problem, Limits::unlimited()).unwrap();
        let states = alone.len();
        assert_eq!(
            alone.kept_bytes(),
            kept_bytes(size_of::<u64>(), states),
            "{states} states"
        );
        assert!(alone.kept_bytes() < alone.peak_bytes());
        // Room for the solve alone, and for it with a solution held or
        // one to follow.
        let room = 2 * alone.peak_bytes() as u64;
        let kept = alone.kept_bytes() as u64;
        assert!(Solution::with_limit(&problem, Limits::new(room)).is_ok());
        assert!(Solution::with_limit(&problem, Limits::new(room + kept).sharing(kept, 0)).is_ok());
        let followed = Limits::new(room + kept).sharing(0, 1);
        assert!(Solution::with_limit(&problem, followed).is_ok());
        for limits in [
            Limits::new(room).sharing(room - alone.peak_bytes() as u64 / 4, 0),
            Limits::new(room).sharing(0, 4),
        ] {
            let error = Solution::with_limit(&problem, limits).err().unwrap();
            let TooLarge::Memory {
                states: reached,
                bytes,
                solve,
                held,
                to_follow,
                later,
                limit,
                ..
            } = error
            else {
                panic!("{error}");
            };
            assert_eq!(
                (held, to_follow, limit),
                (limits.held_bytes, limits.to_follow, room)
            );
            assert!(bytes > limit && bytes == solve + held + later, "{error}");
            assert_eq!(
                later,
                to_follow as u64 * kept_bytes(size_of::<u64>(), reached as usize) as u64
            );
            assert!(reached as usize <= states);
            let message = error.to_string();
            assert!(
                message.contains(&format!("for {to_follow} more solutions of this size kept")),
                "{message}"
            );
        }
    }

    /// A key fits in 64 bits while its digits, two flags, seven bits of
    /// ko point and a bit a target string do: at most 34 points with one
    /// string (3^34 < 2^54), fewer with more strings, and never past 40.
    #[test]
    fn narrow_keys_fit_in_64_bits() {
        assert_eq!(Codec::narrow_layout(0, 1), Some(0));
        assert_eq!(Codec::narrow_layout(1, 1), Some(2));
        assert_eq!(Codec::narrow_layout(34, 1), Some(54));
        assert_eq!(Codec::narrow_layout(35, 1), None);
        assert_eq!(Codec::narrow_layout(24, 16), Some(39));
        assert_eq!(Codec::narrow_layout(25, 16), None);
        assert_eq!(Codec::narrow_layout(41, 0), None);
        for points in 0..=40usize {
            for groups in [1usize, 4, 16] {
                if let Some(digits) = Codec::narrow_layout(points, groups) {
                    assert!(3u128.pow(points as u32) <= 1 << digits);
                    assert!(digits == 0 || 3u128.pow(points as u32) > 1 << (digits - 1));
                    assert!(digits as usize + 9 + groups <= 64);
                }
            }
        }
    }
}
