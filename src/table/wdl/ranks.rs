//! The ranks a win/draw/loss table stores (`super` module doc), worked
//! out from every state's result at the komi, for either colour to move,
//! in about one and a half bytes a state and a byte or two per loss a
//! winner follows.
//!
//! `Codes`: four bits a state, sixteen to a word: bits 0-1 the result
//! with Black to move, 2-3 with White to move, a loss a winner follows as
//! a fourth value beside loss, draw and win.
//!
//! `Cells`: four bits a state and colour (a slot), sixteen to a word,
//! for the retrograde pass: nothing yet; a loss's children not yet worked
//! up to `PENDING`, or `MANY` (counted again, from its children's cells,
//! at the end of a layer that worked one of them); a placed distance
//! modulo 3 while the layers on either side of it are worked (`ACTIVE`);
//! then `SETTLED`. The distance of a state, the plies to the end of the
//! game with the winner hurrying and the loser resisting, is the layer
//! that places it; only the losses a winner follows keep theirs
//! (`Followed`: a byte each in slot order, found by counting the followed
//! codes, and a map beside it for longer ones).
//!
//! `distances`: one retrograde pass over predecessors (the solver's
//! un-moves, `solver::gather_origins`), layer by layer: layer 1 holds the
//! wins a pass ends and the losses whose every move ends the game; a state
//! of layer `k` makes each won predecessor not yet placed one of layer
//! `k + 1`, and counts down each lost predecessor's children not yet
//! worked (`solver::count_position`), placing it in layer `k + 1` when
//! none is left. A layer is the slots whose cell is its distance's
//! `ACTIVE`, found by a sweep over the cells of the pieces the layer
//! touched; before layer `k` is worked, layer `k - 2` settles, so that
//! the distances `k - 1` to `k + 1` are told apart. Each state is placed
//! once and sends its predecessors one update each, so the pass visits
//! every edge about once per colour; the layers are worked in parallel.
//!
//! The losing states a winner follows: each won state that no pass ends
//! designates its first losing child, in move order, of the least
//! distance (one less than its own), while its layer is worked; only
//! those store their distance, the others 0. Each layer's designated
//! losses are listed (their slots' steps), and once the pass is over the
//! lists give `Followed` its bytes.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;

use super::Wdl;
use crate::index::StateIndex;
use crate::rules::state::{Child, State};
use crate::solver::{count_position, gather_origins, predecessor_numbers, CountScratch};

/// The largest distance kept.
pub const MAX_DISTANCE: u32 = u16::MAX as u32 - 1;
/// States per piece of work of the sweeps over every state, and per piece
/// a layer marks as touched.
const CHUNK: usize = 1 << 14;
/// Positions per piece of work when counting children.
const POSITIONS_PER_TASK: u64 = 4096;
/// States a word of the codes holds.
const CODES_PER_WORD: usize = 16;
/// A colour's two bits in a code: a loss a winner follows (a loss, 0,
/// with both bits set).
const FOLLOWED_LOSS: u8 = 3;

/// Four bits a state, sixteen to a word, changed bit by bit from any
/// thread: bits 0-1 the result with Black to move, 2-3 with White to move
/// (`Wdl` as a number, or `FOLLOWED_LOSS`).
pub struct Codes {
    words: Vec<AtomicU64>,
    states: usize,
}

impl Codes {
    /// `states` codes, all 0.
    pub fn new(states: usize) -> Codes {
        Codes {
            words: (0..states.div_ceil(CODES_PER_WORD))
                .map(|_| AtomicU64::new(0))
                .collect(),
            states,
        }
    }

    /// Codes holding each state's results (Black's in bits 0-1, White's in
    /// bits 2-3).
    #[cfg(test)]
    pub fn of_results(results: &[u8]) -> Codes {
        let codes = Codes::new(results.len());
        codes.put(0, results);
        codes
    }

    pub fn states(&self) -> usize {
        self.states
    }

    /// The bytes held in memory.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    /// The bit offset of state `number`'s code in its word.
    #[inline]
    fn shift(number: usize) -> usize {
        4 * (number % CODES_PER_WORD)
    }

    /// Colour `c`'s two bits of state `number`.
    #[inline]
    fn symbol(&self, number: usize, c: usize) -> u8 {
        let word = self.words[number / CODES_PER_WORD].load(Ordering::Relaxed);
        (word >> (Codes::shift(number) + 2 * c)) as u8 & 3
    }

    /// Adds the results `bytes` (each a code's four bits: Black's result
    /// in bits 0-1, White's in bits 2-3, neither above `Wdl::Win`) to the
    /// codes of the states from `first` on, a word at a time.
    pub fn put(&self, first: usize, bytes: &[u8]) {
        let mut at = 0;
        while at < bytes.len() {
            let number = first + at;
            let take = (CODES_PER_WORD - number % CODES_PER_WORD).min(bytes.len() - at);
            let mut word = 0u64;
            for (i, &byte) in bytes[at..at + take].iter().enumerate() {
                debug_assert!(byte & 3 <= Wdl::Win as u8 && byte >> 2 <= Wdl::Win as u8);
                word |= (byte as u64 & 0xf) << Codes::shift(number + i);
            }
            self.words[number / CODES_PER_WORD].fetch_or(word, Ordering::Relaxed);
            at += take;
        }
    }

    /// The result of state `number` for colour `c` (0 Black) to move.
    #[inline]
    pub fn result(&self, number: usize, c: usize) -> Wdl {
        match self.symbol(number, c) {
            FOLLOWED_LOSS => Wdl::Loss,
            symbol => Wdl::from_symbol(symbol),
        }
    }

    /// Whether a winner follows state `number`, colour `c` to move.
    #[inline]
    pub fn followed(&self, number: usize, c: usize) -> bool {
        self.symbol(number, c) == FOLLOWED_LOSS
    }

    /// Marks state `number`, a loss for colour `c` to move, as one a
    /// winner follows; whether it was not marked yet.
    #[inline]
    pub fn follow(&self, number: usize, c: usize) -> bool {
        debug_assert_eq!(self.result(number, c), Wdl::Loss);
        let bits = (FOLLOWED_LOSS as u64) << (Codes::shift(number) + 2 * c);
        self.words[number / CODES_PER_WORD].fetch_or(bits, Ordering::Relaxed) & bits == 0
    }

    /// The followed losses among slots `2 * first` to `slot` (slot `2 *
    /// number + colour`), `first` a multiple of the states a word holds.
    #[inline]
    fn followed_between(&self, first: usize, slot: usize) -> u64 {
        let (word, pair) = (slot / 32, slot % 32);
        let count = |w: usize| {
            let bits = self.words[w].load(Ordering::Relaxed);
            bits & (bits >> 1) & PAIRS
        };
        let mut total = 0;
        for w in first / CODES_PER_WORD..word {
            total += count(w).count_ones() as u64;
        }
        if pair > 0 {
            total += (count(word) & ((1u64 << (2 * pair)) - 1)).count_ones() as u64;
        }
        total
    }
}

/// Each state's place in the retrograde for either colour to move (slot
/// `2 * number + colour`, Black 0), four bits a slot, sixteen to a word.
pub struct Cells {
    words: Vec<AtomicU64>,
}

/// Cells: 0 nothing placed; 1 to `PENDING` the children not yet worked of
/// a loss not yet placed; `MANY` more of them (counted again when one is
/// worked: `MANY_HIT`); `ACTIVE + d % 3` placed at distance `d` while the
/// layers `d - 1` to `d + 1` are worked; `SETTLED` placed earlier.
const PENDING: u8 = 9;
const MANY: u8 = 10;
const MANY_HIT: u8 = 11;
const ACTIVE: u8 = 12;
const SETTLED: u8 = 15;
/// Slots a word of the cells holds.
const CELLS_PER_WORD: usize = 16;
/// The low bit of each four-bit cell.
const NIBBLES: u64 = 0x1111_1111_1111_1111;
/// The low bit of each two-bit colour of a code.
const PAIRS: u64 = 0x5555_5555_5555_5555;

/// The cell of a distance placed while its layer or a neighbour is worked.
#[inline]
fn active(distance: u32) -> u8 {
    ACTIVE + (distance % 3) as u8
}

impl Cells {
    /// `slots` cells, all 0.
    pub fn new(slots: usize) -> Cells {
        Cells {
            words: (0..slots.div_ceil(CELLS_PER_WORD))
                .map(|_| AtomicU64::new(0))
                .collect(),
        }
    }

    /// The bytes held in memory.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    #[inline]
    pub fn get(&self, slot: usize) -> u8 {
        let word = self.words[slot / CELLS_PER_WORD].load(Ordering::Relaxed);
        (word >> (4 * (slot % CELLS_PER_WORD))) as u8 & 0xf
    }

    /// Changes cell `slot` to what `change` makes of it, if anything;
    /// returns what it held.
    #[inline]
    pub fn update(&self, slot: usize, change: impl Fn(u8) -> Option<u8>) -> u8 {
        let shift = 4 * (slot % CELLS_PER_WORD);
        let old = self.words[slot / CELLS_PER_WORD].fetch_update(
            Ordering::Relaxed,
            Ordering::Relaxed,
            |word| {
                let new = change((word >> shift) as u8 & 0xf)?;
                debug_assert!(new <= 0xf);
                Some(word & !(0xf << shift) | (new as u64) << shift)
            },
        );
        let (Ok(word) | Err(word)) = old;
        (word >> shift) as u8 & 0xf
    }

    /// Sets cell `slot` to `cell`.
    #[inline]
    pub fn set(&self, slot: usize, cell: u8) {
        self.update(slot, |_| Some(cell));
    }

    /// The cells of word `w` equal to `cell`, as the low bit of each.
    #[inline]
    fn equal(&self, w: usize, cell: u8) -> u64 {
        let x = self.words[w].load(Ordering::Relaxed) ^ (cell as u64 * NIBBLES);
        !(x | x >> 1 | x >> 2 | x >> 3) & NIBBLES
    }

    /// Whether slot `slot` is placed.
    #[inline]
    fn placed(&self, slot: usize) -> bool {
        self.get(slot) >= ACTIVE
    }

    /// The words of the states of piece `piece`.
    fn piece_words(&self, piece: usize) -> std::ops::Range<usize> {
        let per = 2 * CHUNK / CELLS_PER_WORD;
        piece * per..((piece + 1) * per).min(self.words.len())
    }
}

/// The distances of the losses a winner follows, the only ones a table
/// stores, a byte each in slot order (0 for one above `near`, kept in a
/// map beside them).
pub struct Followed {
    /// The followed losses before each group of `GROUP` states.
    before: Vec<u64>,
    near: Vec<AtomicU8>,
    far: Mutex<HashMap<usize, u32>>,
}

/// States per entry of `Followed::before`.
const GROUP: usize = 256;
/// Followed losses per piece of a layer's list.
const SEGMENT: usize = 1 << 12;
/// The greatest distance a followed loss keeps in its byte.
pub const NEAR: u32 = u8::MAX as u32;

/// One layer's followed losses, their slots ascending in pieces of
/// `SEGMENT`: each piece's first slot, then the steps between them as
/// variable-length numbers.
struct FollowedList {
    distance: u32,
    segments: Vec<(usize, Vec<u8>)>,
}

impl FollowedList {
    fn new(distance: u32, mut slots: Vec<usize>) -> FollowedList {
        slots.sort_unstable();
        let segments = slots
            .chunks(SEGMENT)
            .map(|chunk| {
                let mut steps = Vec::new();
                for pair in chunk.windows(2) {
                    super::format::push_varint(&mut steps, (pair[1] - pair[0]) as u64);
                }
                steps.shrink_to_fit();
                (chunk[0], steps)
            })
            .collect();
        FollowedList { distance, segments }
    }

    fn bytes(&self) -> usize {
        self.segments
            .iter()
            .map(|(_, steps)| 16 + steps.len())
            .sum()
    }
}

/// Reads a variable-length number written by `format::push_varint`.
fn read_varint(bytes: &[u8], at: &mut usize) -> u64 {
    let mut value = 0u64;
    let mut shift = 0;
    loop {
        let byte = bytes[*at];
        *at += 1;
        value |= ((byte & 0x7f) as u64) << shift;
        if byte < 0x80 {
            return value;
        }
        shift += 7;
    }
}

impl Followed {
    /// The distances of `lists` (every followed loss of `codes` once),
    /// those above `near` in the map.
    fn new(codes: &Codes, lists: &[FollowedList], near: u32) -> Followed {
        let states = codes.states();
        let groups = states.div_ceil(GROUP);
        let counts: Vec<u64> = (0..groups)
            .into_par_iter()
            .map(|g| {
                let last = ((g + 1) * GROUP).min(states);
                codes.followed_between(g * GROUP, 2 * last)
            })
            .collect();
        let mut before = Vec::with_capacity(groups);
        let mut total = 0;
        for count in counts {
            before.push(total);
            total += count;
        }
        let followed = Followed {
            before,
            near: (0..total).map(|_| AtomicU8::new(0)).collect(),
            far: Mutex::new(HashMap::new()),
        };
        let near = near.min(NEAR);
        lists
            .par_iter()
            .flat_map(|list| list.segments.par_iter().map(move |s| (list.distance, s)))
            .for_each(|(distance, (first, steps))| {
                let (mut slot, mut at) = (*first, 0);
                loop {
                    let i = followed.position(codes, slot);
                    if distance <= near {
                        followed.near[i].store(distance as u8, Ordering::Relaxed);
                    } else if let Ok(mut far) = followed.far.lock() {
                        far.insert(slot, distance);
                    }
                    if at == steps.len() {
                        break;
                    }
                    slot += read_varint(steps, &mut at) as usize;
                }
            });
        followed
    }

    /// The place of followed slot `slot` among them.
    #[inline]
    fn position(&self, codes: &Codes, slot: usize) -> usize {
        let group = slot / 2 / GROUP;
        (self.before[group] + codes.followed_between(group * GROUP, slot)) as usize
    }

    /// The distance of slot `slot`, a loss a winner follows in `codes`.
    #[inline]
    pub fn get(&self, codes: &Codes, slot: usize) -> u32 {
        match self.near[self.position(codes, slot)].load(Ordering::Relaxed) {
            0 => self
                .far
                .lock()
                .map_or(0, |far| far.get(&slot).copied().unwrap_or(0)),
            distance => distance as u32,
        }
    }

    /// How many losses a winner follows.
    pub fn count(&self) -> usize {
        self.near.len()
    }

    /// How many distances the map holds.
    pub fn far_count(&self) -> usize {
        self.far.lock().map_or(0, |far| far.len())
    }

    /// The bytes held in memory, the map's entries at about 32 bytes.
    pub fn bytes(&self) -> usize {
        8 * self.before.len() + self.near.len() + 32 * self.far_count()
    }
}

/// What the retrograde pass found.
pub struct Retrograde {
    pub followed: Followed,
    /// The greatest distance.
    pub longest: u32,
    /// The most bytes the pass held: the cells, the layers' lists of
    /// followed losses, and then those lists and `followed` (the codes
    /// apart).
    pub held_bytes: usize,
}

/// Marks the piece of state `number` as holding a state of layer `depth`.
fn touch(touched: &[Vec<AtomicBool>; 2], number: usize, depth: u32) {
    touched[(depth % 2) as usize][number / CHUNK].store(true, Ordering::Relaxed);
}

/// How many distinct states `state`'s moves lead to that `worked` does
/// not hold (each by number), counted up to `CAP + 1`.
fn unworked_children<const CAP: u8>(
    index: &StateIndex,
    state: &State,
    worked: impl Fn(usize) -> bool,
    numbers: &mut Vec<usize>,
) -> Result<usize, String> {
    let board = *index.board();
    numbers.clear();
    for mv in state.legal_moves(&board) {
        if let Some(Child::State(child)) = state.play(&board, mv) {
            let m = index
                .rank(&child)
                .ok_or("a child the index does not number")? as usize;
            if !worked(m) && !numbers.contains(&m) {
                numbers.push(m);
                if numbers.len() > CAP as usize {
                    break;
                }
            }
        }
    }
    Ok(numbers.len())
}

/// Each state's distance for either colour to move (none for a draw): a
/// won state's is one more than the least of its children lost for the
/// opponent (0 for ending the game with the win); a lost state's is one
/// more than the greatest of its children (all won for the opponent; the
/// end of the game 0). `codes` holds the results; the losses a winner
/// follows are marked in it (`Codes::followed`): each won state that no
/// pass ends designates its first losing child, in move order, whose
/// distance is one less than its own, found while the won state's layer
/// is worked (its children one ply nearer the end are then all placed
/// and still `ACTIVE`, none further than one ply more). Only their
/// distances are kept, those above `near` in a map.
pub fn distances(
    index: &StateIndex,
    codes: &Codes,
    komi2: i32,
    near: u32,
) -> Result<Retrograde, String> {
    distances_counting::<PENDING>(index, codes, komi2, near)
}

/// `distances`, with a loss's children not yet worked counted in its cell
/// up to `CAP` (at most `PENDING`), and more counted again from its
/// children's cells; the tests lower `CAP` so that most losses take that
/// path.
pub(super) fn distances_counting<const CAP: u8>(
    index: &StateIndex,
    codes: &Codes,
    komi2: i32,
    near: u32,
) -> Result<Retrograde, String> {
    const { assert!(CAP >= 1 && CAP <= PENDING) };
    let states = codes.states();
    let cells = Cells::new(2 * states);
    let pieces = states.div_ceil(CHUNK);
    let flags = || (0..pieces).map(|_| AtomicBool::new(false)).collect();
    let touched: [Vec<AtomicBool>; 2] = [flags(), flags()];
    let recount: Vec<AtomicBool> = flags();

    // Layer 1, and the losses' counts of children.
    let positions = index.counts().positions;
    let tasks = positions.div_ceil(POSITIONS_PER_TASK);
    (0..tasks)
        .into_par_iter()
        .for_each_init(CountScratch::default, |scratch, task| {
            let first = task * POSITIONS_PER_TASK;
            let last = (first + POSITIONS_PER_TASK).min(positions);
            for entry in index.positions(first).take((last - first) as usize) {
                count_position(index, &entry, scratch, |number, children, margin| {
                    let n = number as usize;
                    // A second pass is a child of the state after a pass,
                    // but no state.
                    let states = children - margin.is_some() as u32;
                    for c in 0..2 {
                        let cell = match codes.result(n, c) {
                            Wdl::Win => margin
                                .is_some_and(|margin| {
                                    Wdl::of_margin(margin, c == 0, komi2) == Wdl::Win
                                })
                                .then_some(active(1)),
                            Wdl::Loss => Some(match states {
                                0 => active(1),
                                s if s <= CAP as u32 => s as u8,
                                _ => MANY,
                            }),
                            Wdl::Draw => None,
                        };
                        if let Some(cell) = cell {
                            cells.set(2 * n + c, cell);
                            if cell == active(1) {
                                touch(&touched, n, 1);
                            }
                        }
                    }
                });
            }
        });

    let mut depth: u32 = 1;
    let mut lists: Vec<FollowedList> = Vec::new();
    // The pieces of the two layers before this one.
    let mut earlier: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
    loop {
        let this = (depth % 2) as usize;
        let layer: Vec<usize> = (0..pieces)
            .filter(|&piece| touched[this][piece].swap(false, Ordering::Relaxed))
            .collect();
        if layer.is_empty() {
            break;
        }
        if depth >= MAX_DISTANCE {
            return Err(format!(
                "a forced line longer than {MAX_DISTANCE} plies at this komi"
            ));
        }
        // The cells of layer `depth - 2` settle before layer `depth + 1`,
        // of the same cell, is placed.
        let settling = std::mem::take(&mut earlier[1]);
        if depth >= 3 {
            let old = active(depth - 2) as u64 * NIBBLES;
            let settled = SETTLED as u64 * NIBBLES;
            settling.par_iter().for_each(|&piece| {
                for w in cells.piece_words(piece) {
                    let hits = cells.equal(w, active(depth - 2)) * 0xf;
                    if hits != 0 {
                        let word = cells.words[w].load(Ordering::Relaxed);
                        debug_assert_eq!(word & hits, old & hits);
                        cells.words[w].store(word & !hits | settled & hits, Ordering::Relaxed);
                    }
                }
            });
        }
        let next = depth + 1;
        // A predecessor `p` (colour `pc` to move) of a state placed in this
        // layer, whose mover's result there is `own`.
        let update = |own: Wdl, p: usize, pc: usize| -> Result<(), String> {
            let slot = 2 * p + pc;
            match (own, codes.result(p, pc)) {
                (Wdl::Loss, Wdl::Win)
                    if cells.update(slot, |cell| (cell == 0).then_some(active(next))) == 0 =>
                {
                    touch(&touched, p, next);
                }
                (Wdl::Win, Wdl::Loss) => {
                    let old = cells.update(slot, |cell| match cell {
                        1 => Some(active(next)),
                        2..=PENDING => Some(cell - 1),
                        MANY => Some(MANY_HIT),
                        _ => None,
                    });
                    match old {
                        1 => touch(&touched, p, next),
                        2..=PENDING | MANY_HIT => {}
                        MANY => recount[p / CHUNK].store(true, Ordering::Relaxed),
                        _ => {
                            return Err(format!(
                                "state {p}: a loss with more children won than it has"
                            ))
                        }
                    }
                }
                _ => {}
            }
            Ok(())
        };
        let found = Mutex::new(Vec::new());
        let board = *index.board();
        layer.par_iter().try_for_each_init(
            || (Vec::new(), Vec::new(), Vec::new()),
            |(origins, numbers, designated), &piece| -> Result<(), String> {
                let mut cursor = index.state_cursor();
                designated.clear();
                for w in cells.piece_words(piece) {
                    let hits = cells.equal(w, active(depth));
                    if hits == 0 {
                        continue;
                    }
                    for pair in 0..CELLS_PER_WORD / 2 {
                        let colours = [0, 1].map(|c| hits >> (4 * (2 * pair + c)) & 1 != 0);
                        if colours == [false; 2] {
                            continue;
                        }
                        let number = w * CELLS_PER_WORD / 2 + pair;
                        let state = cursor.state(number as u64);
                        origins.clear();
                        numbers.clear();
                        let maybe_shared = gather_origins(index, &state, origins);
                        predecessor_numbers::<false>(
                            index,
                            origins,
                            maybe_shared,
                            0,
                            numbers,
                            |_| {},
                        );
                        for &p in numbers.iter() {
                            for (c, _) in colours.iter().enumerate().filter(|(_, &on)| on) {
                                update(codes.result(number, c), p as usize, 1 - c)?;
                            }
                        }
                        // The colours that designate a child: won, and no
                        // pass ends the game.
                        let mut wanted = [0, 1].map(|c| {
                            colours[c] && depth > 1 && codes.result(number, c) == Wdl::Win
                        });
                        if wanted == [false; 2] {
                            continue;
                        }
                        for mv in state.legal_moves(&board) {
                            let Some(Child::State(child)) = state.play(&board, mv) else {
                                continue;
                            };
                            let m = index
                                .rank(&child)
                                .ok_or("a child the index does not number")?
                                as usize;
                            for (c, wanted) in wanted.iter_mut().enumerate() {
                                if *wanted
                                    && codes.result(m, 1 - c) == Wdl::Loss
                                    && cells.get(2 * m + 1 - c) == active(depth - 1)
                                {
                                    if codes.follow(m, 1 - c) {
                                        designated.push(2 * m + 1 - c);
                                    }
                                    *wanted = false;
                                }
                            }
                            if wanted == [false; 2] {
                                break;
                            }
                        }
                        if wanted != [false; 2] {
                            return Err(format!(
                                "state {number}: a win with no losing child one ply nearer \
                                 the end"
                            ));
                        }
                    }
                }
                if !designated.is_empty() {
                    if let Ok(mut found) = found.lock() {
                        found.extend_from_slice(designated);
                    }
                }
                Ok(())
            },
        )?;
        let found = found.into_inner().map_err(|_| "a thread failed")?;
        if !found.is_empty() {
            lists.push(FollowedList::new(depth - 1, found));
        }
        // The losses with many children, one of which was worked in this
        // layer, counted again: their children not yet worked (placed in
        // an earlier layer, settled, or in this one or the one before).
        let worked =
            |cell: u8| cell == SETTLED || cell == active(depth) || cell == active(depth - 1);
        (0..pieces)
            .into_par_iter()
            .filter(|&piece| recount[piece].swap(false, Ordering::Relaxed))
            .try_for_each_init(Vec::new, |numbers, piece| -> Result<(), String> {
                let mut cursor = index.state_cursor();
                for w in cells.piece_words(piece) {
                    let mut hits = cells.equal(w, MANY_HIT);
                    while hits != 0 {
                        let slot = w * CELLS_PER_WORD + hits.trailing_zeros() as usize / 4;
                        hits &= hits - 1;
                        let (p, pc) = (slot / 2, slot % 2);
                        let left = unworked_children::<CAP>(
                            index,
                            &cursor.state(p as u64),
                            |m| worked(cells.get(2 * m + 1 - pc)),
                            numbers,
                        )?;
                        cells.set(
                            slot,
                            match left {
                                0 => active(next),
                                l if l <= CAP as usize => l as u8,
                                _ => MANY,
                            },
                        );
                        if left == 0 {
                            touch(&touched, p, next);
                        }
                    }
                }
                Ok(())
            })?;
        earlier = [layer, std::mem::take(&mut earlier[0])];
        depth = next;
    }
    (0..states)
        .into_par_iter()
        .try_for_each(|n| -> Result<(), String> {
            for c in 0..2 {
                let own = codes.result(n, c);
                if own != Wdl::Draw && !cells.placed(2 * n + c) {
                    return Err(format!(
                        "state {n}: a {} the game never reaches the end of",
                        own.word()
                    ));
                }
            }
            Ok(())
        })?;
    let list_bytes: usize = lists.iter().map(FollowedList::bytes).sum();
    let cell_bytes = cells.bytes();
    drop(cells);
    let followed = Followed::new(codes, &lists, near);
    Ok(Retrograde {
        held_bytes: list_bytes + cell_bytes.max(followed.bytes()),
        followed,
        longest: depth - 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::random::SplitMix;

    /// The cells, four bits a slot and sixteen to a word, read back what a
    /// byte a slot holds: set and counted down from many threads at once,
    /// and found by value a word at a time.
    #[test]
    fn packed_cells_read_back_a_byte_a_slot() {
        for slots in [1usize, 15, 16, 17, 999, 2 * CHUNK + 5] {
            let mut rng = SplitMix::new(slots as u64);
            let plain: Vec<u8> = (0..slots).map(|_| rng.below(16) as u8).collect();
            let cells = Cells::new(slots);
            (0..slots)
                .into_par_iter()
                .for_each(|slot| cells.set(slot, plain[slot]));
            // Count down every cell from 2 to `PENDING` once, as a loss's
            // worked child does, the others left alone.
            let olds: Vec<u8> = (0..slots)
                .into_par_iter()
                .map(|slot| {
                    cells.update(slot, |cell| (2..=PENDING).contains(&cell).then(|| cell - 1))
                })
                .collect();
            let expected: Vec<u8> = plain
                .iter()
                .map(|&cell| cell - (2..=PENDING).contains(&cell) as u8)
                .collect();
            assert_eq!(olds, plain, "{slots} slots");
            for (slot, &cell) in expected.iter().enumerate() {
                assert_eq!(cells.get(slot), cell, "{slots} slots, slot {slot}");
                assert_eq!(cells.placed(slot), cell >= ACTIVE);
            }
            for w in 0..slots.div_ceil(CELLS_PER_WORD) {
                for value in 0..16u8 {
                    let found = cells.equal(w, value);
                    for i in 0..CELLS_PER_WORD {
                        let slot = w * CELLS_PER_WORD + i;
                        let cell = expected.get(slot).copied().unwrap_or(0);
                        assert_eq!(found >> (4 * i) & 1 == 1, cell == value, "slot {slot}");
                    }
                    assert_eq!(found & !NIBBLES, 0);
                }
            }
            assert_eq!(cells.bytes(), slots.div_ceil(16) * 8);
        }
    }
}
