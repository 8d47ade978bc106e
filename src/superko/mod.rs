//! Go with cycles forbidden: the rules of Weninger and Hayward's *Exploring
//! Positional Linear Go* (Tromp-Taylor area scoring, no suicide, two
//! consecutive passes end the game, and superko: a placement may not
//! recreate a board position that has stood before in the game), on any
//! plain board of at most 25 points, its exact solver (`solve`), and the
//! points a side keeps whatever the history (`alive`), which bound values.
//! [docs/superko.md](../../docs/superko.md) states the rules in our words.
//!
//! This is a rule set beside the one the tables solve (basic ko, a loop is
//! a draw): here a state is a position together with the set of positions
//! seen, so nothing of the retrograde tables applies, and the value of a
//! state is the final area margin under minimax, an exact whole number
//! (every game ends, because each placement makes a position never seen
//! before and there are finitely many).
//!
//! What counts as seen: the position the game starts from, and the position
//! after every placement. A pass changes no stones, so under positional
//! superko it adds nothing and resets nothing. Under situational superko a
//! seen item is a position together with the player to move, so the game's
//! start and every turn, a pass too, add one; a placement may not bring back
//! a position with the same player to move. Passes are always legal.

// Without the command line (the library as the Python module builds it)
// nothing calls the superko solver yet.
#![cfg_attr(not(feature = "cli"), allow(dead_code))]

pub mod alive;
pub mod solve;
#[cfg(test)]
mod tests;

use std::collections::HashSet;
use std::fmt;

use crate::rules::board::{Board, Point, PointSet};
use crate::rules::moves::Move;
use crate::rules::position::Position;

/// The most points a board may have here: a seen item packs both colours'
/// stones and the player to move into 64 bits.
pub const MAX_POINTS: usize = 25;

/// Which repetitions the rule forbids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Superko {
    /// A placement may not recreate any earlier board position.
    Positional,
    /// A placement may not recreate an earlier board position with the same
    /// player to move.
    Situational,
}

impl Superko {
    /// The rule's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Superko::Positional => "positional-superko",
            Superko::Situational => "situational-superko",
        }
    }
}

impl fmt::Display for Superko {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a board cannot be played under superko here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardTooLarge {
    /// More points than `MAX_POINTS`, or not a plain rectangle.
    Unsupported,
}

/// The stones, the player to move and whether the last turn was a pass.
/// The position is kept from the mover's view, as the rules layer wants it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    /// The stones, `us` being the mover's.
    pub position: Position,
    /// Whether Black is to move.
    pub black_to_move: bool,
    /// Whether the last turn was a pass (a second one ends the game).
    pub passed: bool,
}

impl Node {
    /// The empty board, Black to move.
    pub fn start() -> Node {
        Node {
            position: Position::new(PointSet::EMPTY, PointSet::EMPTY),
            black_to_move: true,
            passed: false,
        }
    }

    /// Black's and White's stones.
    pub fn black_white(&self) -> (u64, u64) {
        let (us, them) = (self.position.us().0, self.position.them().0);
        if self.black_to_move {
            (us, them)
        } else {
            (them, us)
        }
    }

    /// The item this node adds to the seen set under `rule`: the stones,
    /// and under situational superko the player to move too.
    #[inline]
    pub fn item(&self, rule: Superko, points: usize) -> u64 {
        let (black, white) = self.black_white();
        let mover = match rule {
            Superko::Positional => 0,
            Superko::Situational => u64::from(self.black_to_move) << (2 * points),
        };
        black | (white << points) | mover
    }
}

/// The items a search result depends on, each with whether the seen set
/// held it: a sorted list of *keys* (`Seen::key`), each shifted left by one
/// with the low bit set for an item that must be seen and clear for one
/// that must not. Or *whole*: the result holds for this very seen set only.
/// The solver's module paragraph says why such a result holds for every
/// seen set that agrees with it on these items (`Footprint::holds`). The
/// solver keeps one per depth of its search, reused from node to node.
///
/// Past `limit` keys (`Footprint::with_limit`; never by default) the items
/// that must not be seen go into a *summary* (`Bloom`) and only those that
/// must be seen stay listed: the summary demands that no item of the seen
/// set fall on all the bits of its hash, which every item it took in does,
/// so it demands at least what the list did (more when another item's bits
/// happen to be set too: a result then serves fewer seen sets, never more).
#[derive(Clone, Debug)]
pub struct Footprint {
    whole: bool,
    keys: Vec<u64>,
    /// Whether the items that must not be seen are in `bloom` (and none of
    /// them in `keys`).
    summary: bool,
    bloom: Vec<u64>,
    /// The most keys listed before the summary takes over.
    limit: usize,
}

impl Default for Footprint {
    fn default() -> Footprint {
        Footprint::with_limit(usize::MAX)
    }
}

/// The words of a footprint's summary of the items that must not be seen:
/// 4 KiB, a word per item with `BLOOM_BITS` bits set in it.
pub const BLOOM_WORDS: usize = 512;

/// The bits an item sets in its word of a summary.
pub(crate) const BLOOM_BITS: u32 = 6;

/// The word of a summary an item's key falls in, and its bits there.
#[inline]
pub fn bloom_probe(key: u64) -> (usize, u64) {
    let h = mix(key ^ 0x5851_f42d_4c95_7f2d);
    let word = (h as usize) & (BLOOM_WORDS - 1);
    let mut bits = 0u64;
    for i in 0..BLOOM_BITS {
        bits |= 1 << ((h >> (9 + 6 * i)) & 63);
    }
    (word, bits)
}

/// The tagged key of an item that must be seen.
#[inline]
pub fn must_see(key: u64) -> u64 {
    (key << 1) | 1
}

/// The tagged key of an item that must not be seen.
#[inline]
pub fn must_not_see(key: u64) -> u64 {
    key << 1
}

impl Footprint {
    /// An empty footprint that keeps at most `limit` keys listed, the items
    /// that must not be seen going into a summary past it.
    pub fn with_limit(limit: usize) -> Footprint {
        Footprint {
            whole: false,
            keys: Vec::new(),
            summary: false,
            bloom: Vec::new(),
            limit,
        }
    }

    /// Makes it depend on nothing.
    #[inline]
    pub fn clear(&mut self) {
        self.whole = false;
        self.summary = false;
        self.keys.clear();
    }

    /// Makes it the whole seen set.
    pub fn fill(&mut self) {
        self.whole = true;
        self.summary = false;
        self.keys.clear();
    }

    /// Whether it stands for the whole seen set.
    #[inline]
    pub fn is_whole(&self) -> bool {
        self.whole
    }

    /// The tagged keys listed, sorted (empty when whole; with a summary,
    /// only items that must be seen).
    #[inline]
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// The summary of the items that must not be seen, if they are in one.
    #[inline]
    pub fn bloom(&self) -> Option<&[u64]> {
        self.summary.then_some(&self.bloom[..])
    }

    /// Adds a tagged key at the end, unsorted: `normalize` follows. (On a
    /// footprint without a summary.)
    #[inline]
    pub fn push(&mut self, tagged: u64) {
        debug_assert!(!self.summary);
        self.keys.push(tagged);
    }

    /// Becomes the sorted tagged keys and the summary, if any, of a stored
    /// footprint.
    pub fn set(&mut self, tagged: &[u64], bloom: Option<&[u64]>) {
        self.whole = false;
        self.keys.clear();
        self.keys.extend_from_slice(tagged);
        self.summary = bloom.is_some();
        if let Some(bloom) = bloom {
            self.bloom.clear();
            self.bloom.extend_from_slice(bloom);
        }
    }

    /// Sorts the keys and drops repeats.
    pub fn normalize(&mut self) {
        self.keys.sort_unstable();
        self.keys.dedup();
        self.check_limit();
    }

    /// Moves the items that must not be seen into a summary once the keys
    /// pass the limit.
    #[inline]
    fn check_limit(&mut self) {
        if !self.summary && self.keys.len() > self.limit {
            self.start_summary();
        }
    }

    /// Moves the items that must not be seen into a fresh summary.
    fn start_summary(&mut self) {
        self.bloom.clear();
        self.bloom.resize(BLOOM_WORDS, 0);
        self.summary = true;
        let bloom = &mut self.bloom;
        self.keys.retain(|&k| {
            if k & 1 == 1 {
                return true;
            }
            let (word, bits) = bloom_probe(k >> 1);
            bloom[word] |= bits;
            false
        });
    }

    /// Adds an item that must not be seen, by its key.
    #[inline]
    fn add_unseen(&mut self, key: u64) {
        if self.summary {
            let (word, bits) = bloom_probe(key);
            self.bloom[word] |= bits;
        } else {
            let key = must_not_see(key);
            if let Err(at) = self.keys.binary_search(&key) {
                self.keys.insert(at, key);
            }
        }
    }

    /// Becomes what the parent's seen set must satisfy for a child's result
    /// with footprint `child` to hold, the child's seen set being the
    /// parent's plus the item of key `added`: the child's keys but the
    /// requirement that `added` be seen (it is, in the child's set), and if
    /// `placed`, the requirement that `added` not be seen in the parent's
    /// (the placement is legal).
    pub fn set_from_child(&mut self, child: &Footprint, added: u64, placed: bool) {
        self.whole = child.whole;
        self.summary = child.summary;
        self.keys.clear();
        if child.whole {
            self.summary = false;
            return;
        }
        let skip = must_see(added);
        self.keys
            .extend(child.keys.iter().copied().filter(|&k| k != skip));
        if child.summary {
            self.bloom.clear();
            self.bloom.extend_from_slice(&child.bloom);
        }
        if placed {
            self.add_unseen(added);
        }
        self.check_limit();
    }

    /// Adds what the parent's seen set must satisfy for a child's result
    /// with footprint `child` to hold (`set_from_child` without the
    /// placement's legality), merging the sorted lists through `scratch`
    /// and the summaries by their union.
    pub fn absorb(&mut self, child: &Footprint, added: u64, scratch: &mut Vec<u64>) {
        if self.whole {
            return;
        }
        if child.whole {
            self.fill();
            return;
        }
        if child.summary && !self.summary {
            self.start_summary();
        }
        let skip = must_see(added);
        if self.summary {
            // Only the items that must be seen stay listed; the child's
            // others join the summary.
            if child.summary {
                for (word, &other) in self.bloom.iter_mut().zip(&child.bloom) {
                    *word |= other;
                }
            } else {
                for &k in child.keys.iter().filter(|&&k| k & 1 == 0) {
                    let (word, bits) = bloom_probe(k >> 1);
                    self.bloom[word] |= bits;
                }
            }
        }
        let summary = self.summary;
        let wanted = |k: u64| k != skip && (!summary || k & 1 == 1);
        let (a, b) = (&self.keys, &child.keys);
        if !b.iter().any(|&k| wanted(k)) {
            return;
        }
        scratch.clear();
        scratch.reserve(a.len() + b.len());
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            let (x, y) = (a[i], b[j]);
            if !wanted(y) {
                j += 1;
                continue;
            }
            scratch.push(x.min(y));
            i += usize::from(x <= y);
            j += usize::from(y <= x);
        }
        scratch.extend_from_slice(&a[i..]);
        scratch.extend(b[j..].iter().copied().filter(|&k| wanted(k)));
        std::mem::swap(&mut self.keys, scratch);
        self.check_limit();
    }

    /// Adds every key of another footprint.
    pub fn union(&mut self, other: &Footprint, scratch: &mut Vec<u64>) {
        // No key is `u64::MAX`, so the skip never applies.
        self.absorb(other, u64::MAX >> 1, scratch);
    }

    /// Whether a seen set satisfies it (not whole): each listed key's item
    /// seen exactly when its tag says it must be, and no seen item on the
    /// summary's bits.
    #[cfg(test)]
    pub fn holds(&self, seen: &Seen) -> bool {
        debug_assert!(!self.whole);
        holds(seen, &self.keys) && self.bloom().is_none_or(|bloom| seen.avoids(bloom))
    }
}

/// Whether the seen set satisfies tagged keys: each key's item seen exactly
/// when its tag says it must be.
#[inline]
pub fn holds(seen: &Seen, keys: &[u64]) -> bool {
    keys.iter()
        .all(|&k| seen.contains_key(k >> 1) == (k & 1 == 1))
}

/// The items seen in a game: a set with insertion and removal, a bit map
/// over base-3 numbers of positions on boards of at most 16 points, a hash
/// set above; and a 128-bit hash of the whole set (the exclusive or of one
/// hash per item). An item's *key* is its bit in the bit map, or the item
/// itself above 16 points: the footprints keep keys, so that checking one
/// costs a single test of a bit.
#[derive(Clone, Debug)]
pub struct Seen {
    points: usize,
    bits: Vec<u64>,
    set: HashSet<u64>,
    hash: u128,
    /// Base-3 weight of each 8-bit run of points, by run.
    weights: Vec<[u64; 256]>,
    /// The keys in the set, in the order added, and each one's place in a
    /// footprint's summary (`bloom_probe`), for `avoids`.
    listed: Vec<u64>,
    probes: Vec<(usize, u64)>,
}

/// The largest board whose seen set is a bit map (3^16 * 2 bits, 10.8 MB).
const BITMAP_POINTS: usize = 16;

impl Seen {
    /// An empty set for a board of `points` points.
    pub fn new(points: usize) -> Seen {
        let bitmap = points <= BITMAP_POINTS;
        let runs = points.div_ceil(8);
        let mut weights = vec![[0u64; 256]; runs];
        for (run, table) in weights.iter_mut().enumerate() {
            for (byte, weight) in table.iter_mut().enumerate() {
                let mut w = 0u64;
                let mut power = 3u64.pow(8 * run as u32);
                for bit in 0..8 {
                    if 8 * run + bit < points && byte & (1 << bit) != 0 {
                        w += power;
                    }
                    power *= 3;
                }
                *weight = w;
            }
        }
        let bits = if bitmap {
            vec![0u64; (2 * 3usize.pow(points as u32)).div_ceil(64)]
        } else {
            Vec::new()
        };
        Seen {
            points,
            bits,
            set: HashSet::new(),
            hash: 0,
            weights,
            listed: Vec::new(),
            probes: Vec::new(),
        }
    }

    /// An item's key: its bit in the bit map, or the item itself when the
    /// set is a hash set. Keys are below 2^63.
    #[inline]
    pub fn key(&self, item: u64) -> u64 {
        if self.bits.is_empty() {
            return item;
        }
        let mask = (1u64 << self.points) - 1;
        let (black, white) = (item & mask, (item >> self.points) & mask);
        let mover = (item >> (2 * self.points)) & 1;
        let mut index = 0u64;
        for (run, table) in self.weights.iter().enumerate() {
            index += table[((black >> (8 * run)) & 0xff) as usize]
                + 2 * table[((white >> (8 * run)) & 0xff) as usize];
        }
        2 * index + mover
    }

    /// Whether the item of a key has been seen.
    #[inline]
    pub fn contains_key(&self, key: u64) -> bool {
        if self.bits.is_empty() {
            self.set.contains(&key)
        } else {
            self.bits[(key / 64) as usize] & (1 << (key % 64)) != 0
        }
    }

    /// Whether the item has been seen.
    #[inline]
    pub fn contains(&self, item: u64) -> bool {
        self.contains_key(self.key(item))
    }

    /// Adds the item of a key (`item` itself for the hash); whether it was
    /// new.
    #[inline]
    pub fn insert_key(&mut self, item: u64, key: u64) -> bool {
        let new = if self.bits.is_empty() {
            self.set.insert(key)
        } else {
            let word = &mut self.bits[(key / 64) as usize];
            let new = *word & (1 << (key % 64)) == 0;
            *word |= 1 << (key % 64);
            new
        };
        if new {
            self.hash ^= item_hash(item);
            self.listed.push(key);
            self.probes.push(bloom_probe(key));
        }
        new
    }

    /// Adds the item; whether it was new.
    #[inline]
    pub fn insert(&mut self, item: u64) -> bool {
        self.insert_key(item, self.key(item))
    }

    /// Removes an item that `insert_key` added under `key`.
    #[inline]
    pub fn remove_key(&mut self, item: u64, key: u64) {
        if self.bits.is_empty() {
            self.set.remove(&key);
        } else {
            self.bits[(key / 64) as usize] &= !(1 << (key % 64));
        }
        self.hash ^= item_hash(item);
        // Removals come last added first in a search, so this looks once.
        if let Some(at) = self.listed.iter().rposition(|&k| k == key) {
            self.listed.swap_remove(at);
            self.probes.swap_remove(at);
        }
    }

    /// Whether no item of the set falls on all its bits of a footprint's
    /// summary (`Footprint`): then none of the items the summary took in
    /// is in the set.
    #[inline]
    pub fn avoids(&self, bloom: &[u64]) -> bool {
        self.probes
            .iter()
            .all(|&(word, bits)| bloom[word] & bits != bits)
    }

    /// Removes an item that `insert` added.
    #[inline]
    pub fn remove(&mut self, item: u64) {
        self.remove_key(item, self.key(item))
    }

    /// The 128-bit hash of the set.
    #[inline]
    pub fn hash(&self) -> u128 {
        self.hash
    }
}

/// The seed of the low half of an item's hash.
const ITEM_SEED: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64's finaliser.
#[inline]
pub(crate) fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Two independent 64-bit hashes of an item.
#[inline]
fn item_hash(item: u64) -> u128 {
    let low = mix(item ^ ITEM_SEED);
    let high = mix(item.wrapping_add(0x632b_e59b_d9b4_e019) ^ 0xd1b5_4a32_d192_ed03);
    (u128::from(high) << 64) | u128::from(low)
}

/// A game under superko: the node and the seen set, with the moves that
/// led there so that they can be taken back.
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    rule: Superko,
    node: Node,
    seen: Seen,
    /// Per turn played: the node before it and the item it added, if new.
    trail: Vec<(Node, Option<u64>)>,
    /// The game ended with two passes.
    over: bool,
}

/// Why a move is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Not a point of the board, or occupied, or suicide.
    Illegal,
    /// The placement would bring back a position (situation) seen before.
    Superko,
    /// Two passes ended the game.
    Over,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Refusal::Illegal => "not a legal placement (occupied, off the board or suicide)",
            Refusal::Superko => "it would recreate a position seen before (superko)",
            Refusal::Over => "two passes have ended the game",
        })
    }
}

impl Game {
    /// An empty board, Black to move; the empty position counts as seen.
    pub fn new(board: Board, rule: Superko) -> Result<Game, BoardTooLarge> {
        if board.points() > MAX_POINTS || board.is_circular() || board.shape_geometry().is_some() {
            return Err(BoardTooLarge::Unsupported);
        }
        let node = Node::start();
        let mut seen = Seen::new(board.points());
        seen.insert(node.item(rule, board.points()));
        Ok(Game {
            board,
            rule,
            node,
            seen,
            trail: Vec::new(),
            over: false,
        })
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The current node.
    pub fn node(&self) -> Node {
        self.node
    }

    /// The seen set.
    #[cfg(test)]
    pub fn seen(&self) -> &Seen {
        &self.seen
    }

    /// Whether two passes ended the game.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The turns played so far.
    pub fn turns(&self) -> usize {
        self.trail.len()
    }

    /// The node a placement at `point` leads to, before superko: `None` if
    /// occupied or suicide.
    pub fn placed(&self, point: Point) -> Option<Node> {
        let placement = self.node.position.place(&self.board, point)?;
        Some(Node {
            position: placement.position.swapped(),
            black_to_move: !self.node.black_to_move,
            passed: false,
        })
    }

    /// Plays a move for the side to move.
    pub fn play(&mut self, mv: Move) -> Result<(), Refusal> {
        if self.over {
            return Err(Refusal::Over);
        }
        let next = match mv {
            Move::Pass => {
                if self.node.passed {
                    self.trail.push((self.node, None));
                    self.over = true;
                    return Ok(());
                }
                Node {
                    position: self.node.position.swapped(),
                    black_to_move: !self.node.black_to_move,
                    passed: true,
                }
            }
            Move::Place(point) => {
                if point.index() >= self.board.points() {
                    return Err(Refusal::Illegal);
                }
                let next = self.placed(point).ok_or(Refusal::Illegal)?;
                if self
                    .seen
                    .contains(next.item(self.rule, self.board.points()))
                {
                    return Err(Refusal::Superko);
                }
                next
            }
        };
        let item = next.item(self.rule, self.board.points());
        let added = self.seen.insert(item).then_some(item);
        self.trail.push((self.node, added));
        self.node = next;
        Ok(())
    }

    /// Takes back the last turn; false if none was played.
    pub fn undo(&mut self) -> bool {
        let Some((node, added)) = self.trail.pop() else {
            return false;
        };
        if let Some(item) = added {
            self.seen.remove(item);
        }
        self.node = node;
        self.over = false;
        true
    }

    /// The legal moves of the side to move, placements in point order, then
    /// pass; none once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.over {
            return Vec::new();
        }
        let mut moves = Vec::new();
        self.node
            .position
            .placements(&self.board, |point, placement| {
                let next = Node {
                    position: placement.position.swapped(),
                    black_to_move: !self.node.black_to_move,
                    passed: false,
                };
                if !self
                    .seen
                    .contains(next.item(self.rule, self.board.points()))
                {
                    moves.push(Move::Place(point));
                }
            });
        moves.push(Move::Pass);
        moves
    }
}
