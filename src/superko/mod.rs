//! Go with cycles forbidden: the rules of Weninger and Hayward's *Exploring
//! Positional Linear Go* (Tromp-Taylor area scoring, no suicide, two
//! consecutive passes end the game, and superko: a placement may not
//! recreate a board position that has stood before in the game), on any
//! plain board of at most 25 points, and its exact solver (`solve`).
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

/// The number of classes the items fall into by their hash (`bucket`), and
/// so the number of bits of a wide `Footprint`.
pub const BUCKETS: usize = 4096;

/// The 64-bit words of a footprint's bit set.
pub const WORDS: usize = BUCKETS / 64;

/// The most buckets a footprint keeps as a sorted list; one more turns it
/// into a bit set over all `BUCKETS`.
const LIST: usize = 32;

/// `Footprint::len` when the bit set holds the buckets.
const WIDE: usize = usize::MAX;

/// The class of an item: the top bits of the low half of its hash.
#[inline]
pub fn bucket(item: u64) -> usize {
    (mix(item ^ ITEM_SEED) >> (64 - BUCKETS.trailing_zeros())) as usize
}

/// A set of buckets (`bucket`): the classes of the items whose presence in
/// the seen set a search result depends on, or more (the solver's module
/// paragraph says why such a result holds for every seen set that agrees on
/// those classes). Most are small: while it has at most `LIST` buckets it
/// is a sorted list of them, and only beyond that a bit set over all
/// `BUCKETS`, whose words are not read while the list is in use. The solver
/// keeps one per depth of its search, reused from node to node.
#[derive(Clone, Debug)]
pub struct Footprint {
    /// The number of buckets in `list`, or `WIDE` when `bits` holds them.
    len: usize,
    list: [u16; LIST],
    bits: [u64; WORDS],
}

impl Default for Footprint {
    fn default() -> Footprint {
        Footprint {
            len: 0,
            list: [0; LIST],
            bits: [0; WORDS],
        }
    }
}

impl Footprint {
    /// Makes it empty.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Makes it every bucket.
    pub fn fill(&mut self) {
        self.len = WIDE;
        self.bits = [u64::MAX; WORDS];
    }

    /// The buckets as a sorted list, if it is one.
    #[inline]
    pub fn list(&self) -> Option<&[u16]> {
        (self.len != WIDE).then(|| &self.list[..self.len])
    }

    /// The buckets as a bit set, if it is one.
    #[inline]
    pub fn bits(&self) -> Option<&[u64; WORDS]> {
        (self.len == WIDE).then_some(&self.bits)
    }

    /// Turns the list into the bit set.
    fn widen(&mut self) {
        self.bits = [0; WORDS];
        for &b in &self.list[..self.len] {
            self.bits[usize::from(b) / 64] |= 1 << (b % 64);
        }
        self.len = WIDE;
    }

    /// Adds a bucket.
    #[inline]
    pub fn add_bucket(&mut self, b: usize) {
        if self.len == WIDE {
            self.bits[b / 64] |= 1 << (b % 64);
            return;
        }
        let b16 = b as u16;
        let Err(at) = self.list[..self.len].binary_search(&b16) else {
            return;
        };
        if self.len < LIST {
            self.list.copy_within(at..self.len, at + 1);
            self.list[at] = b16;
            self.len += 1;
        } else {
            self.widen();
            self.bits[b / 64] |= 1 << (b % 64);
        }
    }

    /// Adds the bucket of an item.
    #[inline]
    pub fn add(&mut self, item: u64) {
        self.add_bucket(bucket(item));
    }

    /// Adds every bucket of another footprint.
    pub fn union(&mut self, other: &Footprint) {
        match (self.len == WIDE, other.len == WIDE) {
            (_, false) if other.len == 0 => {}
            (false, false) => {
                // Merge the two sorted lists.
                let (a, b) = (&self.list[..self.len], &other.list[..other.len]);
                let mut merged = [0u16; 2 * LIST];
                let (mut i, mut j, mut k) = (0, 0, 0);
                while i < a.len() && j < b.len() {
                    let (x, y) = (a[i], b[j]);
                    merged[k] = x.min(y);
                    i += usize::from(x <= y);
                    j += usize::from(y <= x);
                    k += 1;
                }
                let rest = if i < a.len() { &a[i..] } else { &b[j..] };
                merged[k..k + rest.len()].copy_from_slice(rest);
                k += rest.len();
                if k <= LIST {
                    self.list[..k].copy_from_slice(&merged[..k]);
                    self.len = k;
                } else {
                    self.bits = [0; WORDS];
                    for &b in &merged[..k] {
                        self.bits[usize::from(b) / 64] |= 1 << (b % 64);
                    }
                    self.len = WIDE;
                }
            }
            (true, false) => {
                for &b in &other.list[..other.len] {
                    self.bits[usize::from(b) / 64] |= 1 << (b % 64);
                }
            }
            (wide, true) => {
                if !wide {
                    self.widen();
                }
                for (word, other) in self.bits.iter_mut().zip(&other.bits) {
                    *word |= other;
                }
            }
        }
    }

    /// Becomes a copy of another footprint (only the part in use is read).
    #[inline]
    pub fn copy_from(&mut self, other: &Footprint) {
        self.len = other.len;
        if other.len == WIDE {
            self.bits = other.bits;
        } else {
            self.list[..other.len].copy_from_slice(&other.list[..other.len]);
        }
    }

    /// Becomes the sorted list `list` (at most `LIST` buckets).
    #[inline]
    pub fn set_list(&mut self, list: &[u16]) {
        self.list[..list.len()].copy_from_slice(list);
        self.len = list.len();
    }

    /// Becomes the bit set `bits`.
    #[inline]
    pub fn set_bits(&mut self, bits: &[u64; WORDS]) {
        self.bits = *bits;
        self.len = WIDE;
    }

    /// Writes the buckets as a bit set.
    pub fn write_bits(&self, out: &mut [u64; WORDS]) {
        match self.bits() {
            Some(bits) => *out = *bits,
            None => {
                *out = [0; WORDS];
                for &b in &self.list[..self.len] {
                    out[usize::from(b) / 64] |= 1 << (b % 64);
                }
            }
        }
    }

    /// The number of buckets.
    #[inline]
    pub fn count(&self) -> usize {
        match self.bits() {
            Some(bits) => bits.iter().map(|w| w.count_ones() as usize).sum(),
            None => self.len,
        }
    }

    /// Whether it holds exactly the buckets of the sorted list `list`.
    pub fn equals_list(&self, list: &[u16]) -> bool {
        match self.bits() {
            None => &self.list[..self.len] == list,
            Some(bits) => {
                self.count() == list.len()
                    && list
                        .iter()
                        .all(|&b| bits[usize::from(b) / 64] & (1 << (b % 64)) != 0)
            }
        }
    }

    /// Whether it holds exactly the buckets of the bit set `bits`.
    pub fn equals_bits(&self, bits: &[u64; WORDS]) -> bool {
        match self.bits() {
            Some(own) => own == bits,
            None => {
                bits.iter().map(|w| w.count_ones() as usize).sum::<usize>() == self.len
                    && self.list[..self.len]
                        .iter()
                        .all(|&b| bits[usize::from(b) / 64] & (1 << (b % 64)) != 0)
            }
        }
    }
}

/// The items seen in a game: a set with insertion and removal, a bit map
/// over base-3 numbers of positions on boards of at most 16 points, a hash
/// set above; a 128-bit hash of the whole set (the exclusive or of one
/// hash per item), and the same hash of the items of each bucket
/// (`restricted_hash`), which the solver's table keys on.
#[derive(Clone, Debug)]
pub struct Seen {
    points: usize,
    bits: Vec<u64>,
    set: HashSet<u64>,
    hash: u128,
    /// Per bucket, the exclusive or of the hashes of its items in the set.
    buckets: Vec<u128>,
    /// Base-3 weight of each 8-bit run of points, by run.
    weights: Vec<[u64; 256]>,
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
            buckets: vec![0; BUCKETS],
            weights,
        }
    }

    /// The bit of an item in the bit map.
    #[inline]
    fn bit(&self, item: u64) -> usize {
        let mask = (1u64 << self.points) - 1;
        let (black, white) = (item & mask, (item >> self.points) & mask);
        let mover = (item >> (2 * self.points)) & 1;
        let mut index = 0u64;
        for (run, table) in self.weights.iter().enumerate() {
            index += table[((black >> (8 * run)) & 0xff) as usize]
                + 2 * table[((white >> (8 * run)) & 0xff) as usize];
        }
        (2 * index + mover) as usize
    }

    /// Whether the item has been seen.
    #[inline]
    pub fn contains(&self, item: u64) -> bool {
        if self.bits.is_empty() {
            self.set.contains(&item)
        } else {
            let bit = self.bit(item);
            self.bits[bit / 64] & (1 << (bit % 64)) != 0
        }
    }

    /// Adds the item; whether it was new.
    #[inline]
    pub fn insert(&mut self, item: u64) -> bool {
        let new = if self.bits.is_empty() {
            self.set.insert(item)
        } else {
            let bit = self.bit(item);
            let word = &mut self.bits[bit / 64];
            let new = *word & (1 << (bit % 64)) == 0;
            *word |= 1 << (bit % 64);
            new
        };
        if new {
            let hash = item_hash(item);
            self.hash ^= hash;
            self.buckets[bucket(item)] ^= hash;
        }
        new
    }

    /// Removes an item that `insert` added.
    #[inline]
    pub fn remove(&mut self, item: u64) {
        if self.bits.is_empty() {
            self.set.remove(&item);
        } else {
            let bit = self.bit(item);
            self.bits[bit / 64] &= !(1 << (bit % 64));
        }
        let hash = item_hash(item);
        self.hash ^= hash;
        self.buckets[bucket(item)] ^= hash;
    }

    /// The 128-bit hash of the set.
    #[inline]
    pub fn hash(&self) -> u128 {
        self.hash
    }

    /// The 128-bit hash of the set's items whose bucket is in `footprint`:
    /// two sets have the same one when they hold the same items of those
    /// buckets (but for a collision of 128-bit hashes). The full footprint
    /// gives `hash`. It costs one look-up per bucket of the footprint (or
    /// per bucket left out, when it has more than half of them), each
    /// bucket's hash being kept as the set changes.
    #[inline]
    pub fn restricted_hash(&self, footprint: &Footprint) -> u128 {
        match footprint.list() {
            Some(list) => self.list_hash(list),
            None => self.bits_hash(footprint.bits().expect("a bit set")),
        }
    }

    /// `restricted_hash` over the buckets of a sorted list.
    #[inline]
    pub fn list_hash(&self, list: &[u16]) -> u128 {
        list.iter()
            .fold(0, |hash, &b| hash ^ self.buckets[usize::from(b)])
    }

    /// `restricted_hash` over the buckets of a bit set.
    pub fn bits_hash(&self, bits: &[u64; WORDS]) -> u128 {
        // With more than half the buckets, the hash of the whole set less
        // the buckets left out.
        let count: u32 = bits.iter().map(|w| w.count_ones()).sum();
        let invert = 2 * count as usize > BUCKETS;
        let mut hash = if invert { self.hash } else { 0 };
        for (w, &word) in bits.iter().enumerate() {
            let mut bits = if invert { !word } else { word };
            while bits != 0 {
                hash ^= self.buckets[64 * w + bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
        }
        hash
    }
}

/// The seed of the low half of an item's hash, whose top bits are its
/// bucket.
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
