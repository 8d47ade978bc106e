//! Ternary position codes and the canonical form of a state.
//!
//! A position's code is `sum(digit(p) * 3^p)` with digit 0 for empty, 1 for
//! the mover's stone and 2 for the opponent's. Codes order the positions, and
//! the canonical representative of a class of symmetric positions is the one
//! with the smallest code; among symmetries that give that code, the ko point
//! is mapped to its smallest image. Both directions are table-driven (a byte of
//! points at a time, a base-3^8 digit group at a time) because the solver
//! canonicalizes every predecessor it visits.
//!
//! The tables weigh eight symmetries side by side (a bank), which serves
//! every plain board (at most eight symmetries) in one row read. A circular
//! board's group is larger (up to 64 symmetries): it takes several banks,
//! the last one padded with copies of the identity, which change no
//! minimum and whose reaching bits are dropped.

// A probe-only build (no feature `solver`) leaves the parts that only the solver and the index use unused.
#![cfg_attr(not(feature = "solver"), allow(dead_code, unused_imports))]

use crate::rules::board::{Board, Point, PointSet};
use crate::rules::position::Position;
use crate::symmetry::{symmetries, Symmetry};

/// The largest board the codes serve: four bytes of points (and `3^32`
/// fits in a `u64`).
pub const MAX_CODE_POINTS: usize = 8 * BYTE_GROUPS;
/// Points are weighed a byte at a time.
const BYTE_GROUPS: usize = 4;

const DIGITS_PER_GROUP: usize = 8;
const GROUP_SIZE: usize = 6561; // 3^8

/// Enumerating codes in order, the lowest `LOW_POINTS` points change from
/// code to code and the others once every `LOW_SIZE` codes: their images
/// are added from a table (15.5 KiB) to images of the rest worked out once.
const LOW_POINTS: usize = 5;
const LOW_SIZE: u64 = 243; // 3^5

/// A position code: `sum(digit(p) * 3^p)`.
pub type PositionCode = u64;

/// The canonical form of a position: its smallest code over the board's
/// symmetries, and which symmetries reach it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Canonical {
    pub code: PositionCode,
    /// Bit `i` set when symmetry `i` maps the position to `code`: a coset
    /// of the position's own symmetries, so as many bits as it has.
    pub reaching: u64,
}

/// The smallest of the codes of a position's images under its `S`
/// symmetries (a power of two), and which symmetries give it. Branch-free:
/// a tree of pairwise minimums, then one comparison per lane, which
/// compile to a few vector instructions. Codes are below `3^32 < 2^63`, so
/// they compare alike as signed numbers, which vectors compare directly.
#[inline(always)]
fn smallest_image<const S: usize>(codes: &[u64; S]) -> Canonical {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        // One or two vectors of four lanes: the generic tree below compiles
        // to scalar extractions for the mask of reaching symmetries.
        // SAFETY: the build enables AVX2 for every function (the `cfg`
        // above), so the CPU that runs this code has it.
        if S == 8 {
            return unsafe {
                vector::smallest_of_eight(codes[..].try_into().expect("eight codes"))
            };
        }
        if S == 4 {
            return unsafe { vector::smallest_of_four(codes[..].try_into().expect("four codes")) };
        }
    }
    smallest_image_by_lanes(codes)
}

/// `smallest_image` without vector instructions (and the reference the
/// vector version is tested against).
#[inline(always)]
fn smallest_image_by_lanes<const S: usize>(codes: &[u64; S]) -> Canonical {
    let mut lanes = [0i64; S];
    for (lane, &code) in lanes.iter_mut().zip(codes) {
        *lane = code as i64;
    }
    let mut width = S;
    while width > 1 {
        width /= 2;
        for g in 0..width {
            lanes[g] = lanes[g].min(lanes[g + width]);
        }
    }
    let best = lanes[0] as u64;
    let reaching = codes.iter().enumerate().fold(0u64, |reaching, (g, &code)| {
        reaching | ((code == best) as u64) << g
    });
    Canonical {
        code: best,
        reaching,
    }
}

/// `smallest_image` for four and eight symmetries in AVX2 vectors: a tree
/// of signed 64-bit minimums (compare, then blend), and the reaching
/// symmetries as the sign masks of one comparison per vector.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod vector {
    use super::Canonical;
    use std::arch::x86_64::*;

    #[inline]
    #[target_feature(enable = "avx2")]
    fn load(codes: &[u64]) -> __m256i {
        _mm256_set_epi64x(
            codes[3] as i64,
            codes[2] as i64,
            codes[1] as i64,
            codes[0] as i64,
        )
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn min(a: __m256i, b: __m256i) -> __m256i {
        _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(a, b))
    }

    /// The smallest lane of `v`, in every lane.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn smallest_everywhere(v: __m256i) -> __m256i {
        let halves = min(v, _mm256_permute4x64_epi64::<0b0100_1110>(v));
        min(halves, _mm256_shuffle_epi32::<0b0100_1110>(halves))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn reaching(v: __m256i, best: __m256i) -> u8 {
        _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(v, best))) as u8
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn canonical(best: __m256i, reaching: u8) -> Canonical {
        Canonical {
            code: _mm_cvtsi128_si64(_mm256_castsi256_si128(best)) as u64,
            reaching: reaching as u64,
        }
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn smallest_of_four(codes: &[u64; 4]) -> Canonical {
        let v = load(codes);
        let best = smallest_everywhere(v);
        canonical(best, reaching(v, best))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn smallest_of_eight(codes: &[u64; 8]) -> Canonical {
        let (low, high) = (load(&codes[..4]), load(&codes[4..]));
        let best = smallest_everywhere(min(low, high));
        canonical(best, reaching(low, best) | reaching(high, best) << 4)
    }
}

/// Symmetries weighed side by side in one row of the tables: a bank, as
/// many as a square board has.
const LANES: usize = 8;

/// The most symmetries a board of at most `MAX_CODE_POINTS` points has:
/// a circular board of two rows and 16 columns has 64 (a ring has twice
/// as many as its points, at most 50).
pub const MAX_SYMMETRIES: usize = 64;
const MAX_BANKS: usize = MAX_SYMMETRIES / LANES;

/// A position's stones weighed under every symmetry, seen from the other
/// side: `turned[g]` is the code under symmetry `g` of the position with
/// the colours swapped (the opponent's stones weigh 1, the mover's 2), as
/// the next mover sees it. The positions one move or un-move away differ
/// by a few stones, so their codes follow from these by adding and
/// subtracting the weights of those points (`Codec::canonical_turned`),
/// without weighing every stone again.
///
/// A board of more than one bank of symmetries keeps the swapped
/// position's stones in `turned[0]` (the next mover's) and `turned[1]`
/// instead, and `canonical_turned` weighs that position again: so that
/// boards of one bank, every plain board, carry nothing more.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    turned: [u64; LANES],
}

/// Codes for one board.
pub struct Codec {
    board: Board,
    symmetries: Vec<Symmetry>,
    /// Banks of `LANES` symmetries the board's take (1 to `MAX_BANKS`).
    banks: usize,
    /// Bits of `Canonical::reaching` that stand for symmetries of the
    /// board: the lanes past them, in the last bank, copy the identity.
    reaching_mask: u64,
    /// `stone_weights[bank * BYTE_GROUPS + group][byte][lane]`: the code of
    /// the mover's stones `byte` of points `8 * group ..` after symmetry
    /// `bank * LANES + lane`, a bank of symmetries side by side so that one
    /// row weighs a byte under all of them. Groups past the board are all
    /// zero; lanes past the board's symmetries weigh as the identity.
    stone_weights: Vec<[[u64; LANES]; 256]>,
    /// The byte groups the board's points take (1 to 4): weighing reads
    /// only these.
    groups: usize,
    /// `point_weights[p][g]`: `3^(g(p))`, the weight of a mover's stone at
    /// `p` after symmetry `g` of the first bank (zero past the board's
    /// points). A fixed size, so that a point's row needs no bounds check.
    point_weights: Box<[[u64; LANES]; MAX_CODE_POINTS]>,
    /// Base-3^8 digit group to (mover bits, opponent bits).
    digits: Vec<(u8, u8)>,
    /// `low_images[bank * LOW_SIZE + low][lane]`: the code under symmetry
    /// `bank * LANES + lane` of the stones of code `low` (below
    /// `LOW_SIZE`) on the first `LOW_POINTS` points.
    low_images: Vec<[u64; LANES]>,
    code_count: u64,
}

impl Codec {
    pub fn new(board: Board) -> Codec {
        assert!(
            board.points() <= MAX_CODE_POINTS,
            "position codes serve boards of at most {MAX_CODE_POINTS} points"
        );
        let symmetries = symmetries(&board);
        assert!(
            symmetries.len() <= MAX_SYMMETRIES,
            "position codes serve boards of at most {MAX_SYMMETRIES} symmetries"
        );
        let banks = symmetries.len().div_ceil(LANES);
        // The board's symmetries, then copies of the identity (first) to
        // fill the last bank.
        let lanes: Vec<Symmetry> = (0..banks * LANES)
            .map(|g| symmetries.get(g).copied().unwrap_or(symmetries[0]))
            .collect();
        let points = board.points();
        let power = |p: usize| 3u64.pow(p as u32);
        let mut stone_weights = vec![[[0u64; LANES]; 256]; banks * BYTE_GROUPS];
        for (at, rows) in stone_weights.iter_mut().enumerate() {
            let (bank, group) = (at / BYTE_GROUPS, at % BYTE_GROUPS);
            for (byte, row) in rows.iter_mut().enumerate() {
                for (entry, symmetry) in row.iter_mut().zip(&lanes[bank * LANES..]) {
                    for bit in 0..8 {
                        let p = group * 8 + bit;
                        if byte >> bit & 1 == 1 && p < points {
                            *entry += power(symmetry.apply(Point::new(p)).index());
                        }
                    }
                }
            }
        }
        let mut digits = vec![(0u8, 0u8); GROUP_SIZE];
        for (group, entry) in digits.iter_mut().enumerate() {
            let mut rest = group;
            for bit in 0..DIGITS_PER_GROUP {
                match rest % 3 {
                    1 => entry.0 |= 1 << bit,
                    2 => entry.1 |= 1 << bit,
                    _ => {}
                }
                rest /= 3;
            }
        }
        let mut point_weights = Box::new([[0u64; LANES]; MAX_CODE_POINTS]);
        for (p, row) in point_weights.iter_mut().enumerate().take(points) {
            for (weight, symmetry) in row.iter_mut().zip(&lanes) {
                *weight = power(symmetry.apply(Point::new(p)).index());
            }
        }
        let reaching_mask = u64::MAX >> (MAX_SYMMETRIES - symmetries.len());
        let mut codec = Codec {
            board,
            symmetries,
            banks,
            reaching_mask,
            stone_weights,
            point_weights,
            groups: points.div_ceil(8).max(1),
            digits,
            low_images: Vec::new(),
            code_count: power(points),
        };
        // Codes of boards under five points stay below `LOW_SIZE`, and the
        // weights of points past the board are zero.
        codec.low_images = (0..banks)
            .flat_map(|bank| (0..LOW_SIZE).map(move |low| (bank, low)))
            .map(|(bank, low)| {
                let position = codec.decode(low);
                let mut images = [0u64; LANES];
                for (lane, image) in images.iter_mut().enumerate() {
                    *image = codec.code_under(bank * LANES + lane, &position);
                }
                images
            })
            .collect();
        codec
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn symmetries(&self) -> &[Symmetry] {
        &self.symmetries
    }

    /// `3^N`: every code is below it.
    pub fn code_count(&self) -> u64 {
        self.code_count
    }

    /// The code of the stones `set` after symmetry `g` (of any bank),
    /// reading the first `GROUPS` byte groups (the rest are empty).
    #[inline(always)]
    fn weigh<const GROUPS: usize>(&self, g: usize, set: u64) -> u64 {
        let (bank, lane) = (g / LANES, g % LANES);
        let mut code = 0;
        for (group, rows) in self.stone_weights[bank * BYTE_GROUPS..]
            .iter()
            .enumerate()
            .take(GROUPS)
        {
            code += rows[(set >> (8 * group)) as u8 as usize][lane];
        }
        code
    }

    /// The codes of the stones `set` under the first `S` symmetries at
    /// once (of the first bank), reading the first `GROUPS` byte groups.
    #[inline(always)]
    fn weigh_all<const GROUPS: usize, const S: usize>(&self, set: u64) -> [u64; S] {
        self.weigh_bank::<GROUPS, S>(0, set)
    }

    /// `weigh_all` for the first `S` symmetries of bank `bank`.
    #[inline(always)]
    fn weigh_bank<const GROUPS: usize, const S: usize>(&self, bank: usize, set: u64) -> [u64; S] {
        let mut codes = [0u64; S];
        for (group, rows) in self.stone_weights[bank * BYTE_GROUPS..]
            .iter()
            .enumerate()
            .take(GROUPS)
        {
            let row = &rows[(set >> (8 * group)) as u8 as usize];
            for g in 0..S {
                codes[g] += row[g];
            }
        }
        codes
    }

    /// The codes of a position under the symmetries of bank `bank`, its
    /// own stones weighing `1` and the other side's `2`.
    #[inline(always)]
    fn bank_images<const GROUPS: usize>(&self, bank: usize, own: u64, other: u64) -> [u64; LANES] {
        let own = self.weigh_bank::<GROUPS, LANES>(bank, own);
        let other = self.weigh_bank::<GROUPS, LANES>(bank, other);
        let mut codes = [0u64; LANES];
        for g in 0..LANES {
            codes[g] = own[g] + 2 * other[g];
        }
        codes
    }

    /// Whether a symmetry other than the identity maps `stones` onto
    /// themselves. The code of one side's stones under each symmetry is the
    /// code of their image, so an image equal to the stones has their code.
    #[inline]
    pub fn has_symmetry(&self, stones: PointSet) -> bool {
        match self.symmetries.len() {
            8 => self.has_symmetry_in::<8>(stones),
            4 => self.has_symmetry_in::<4>(stones),
            2 => self.has_symmetry_in::<2>(stones),
            1 => false,
            _ => self.has_symmetry_wide(stones),
        }
    }

    /// `has_symmetry` for any number of symmetries, a bank at a time.
    fn has_symmetry_wide(&self, stones: PointSet) -> bool {
        let bits = stones.bits();
        let own = self.weigh::<BYTE_GROUPS>(0, bits);
        (0..self.banks).any(|bank| {
            let images = self.weigh_bank::<BYTE_GROUPS, LANES>(bank, bits);
            (0..LANES).any(|lane| {
                let g = bank * LANES + lane;
                g != 0 && g < self.symmetries.len() && images[lane] == own
            })
        })
    }

    #[inline(always)]
    fn has_symmetry_in<const S: usize>(&self, stones: PointSet) -> bool {
        let bits = stones.bits();
        let images = match self.groups {
            1 => self.weigh_all::<1, S>(bits),
            2 => self.weigh_all::<2, S>(bits),
            3 => self.weigh_all::<3, S>(bits),
            _ => self.weigh_all::<BYTE_GROUPS, S>(bits),
        };
        images[1..].contains(&images[0])
    }

    /// The codes of a position under the first `S` symmetries, its own
    /// stones weighing `1` and the other side's `2`.
    #[inline(always)]
    fn images<const GROUPS: usize, const S: usize>(&self, own: u64, other: u64) -> [u64; S] {
        let own = self.weigh_all::<GROUPS, S>(own);
        let other = self.weigh_all::<GROUPS, S>(other);
        let mut codes = [0u64; S];
        for g in 0..S {
            codes[g] = own[g] + 2 * other[g];
        }
        codes
    }

    #[inline(always)]
    fn code_in<const GROUPS: usize>(&self, g: usize, position: &Position) -> PositionCode {
        self.weigh::<GROUPS>(g, position.us().bits())
            + 2 * self.weigh::<GROUPS>(g, position.them().bits())
    }

    /// The code of the position after symmetry `g`.
    #[inline]
    pub fn code_under(&self, g: usize, position: &Position) -> PositionCode {
        self.code_in::<BYTE_GROUPS>(g, position)
    }

    /// The position's own code.
    #[inline]
    #[cfg(test)]
    pub fn code(&self, position: &Position) -> PositionCode {
        self.code_under(0, position)
    }

    /// The position of a code; the code must be below `3^N`.
    #[inline]
    pub fn decode(&self, mut code: PositionCode) -> Position {
        let mut us = 0u64;
        let mut them = 0u64;
        let mut shift = 0;
        while code != 0 {
            let (u, t) = self.digits[(code % GROUP_SIZE as u64) as usize];
            us |= (u as u64) << shift;
            them |= (t as u64) << shift;
            code /= GROUP_SIZE as u64;
            shift += DIGITS_PER_GROUP;
        }
        Position::new(PointSet(us), PointSet(them))
    }

    /// The canonical code of a position and the symmetries that reach it.
    #[inline]
    pub fn canonical(&self, position: &Position) -> Canonical {
        match self.symmetries.len() {
            8 => self.canonical_for::<8>(position),
            4 => self.canonical_for::<4>(position),
            2 => self.canonical_for::<2>(position),
            1 => self.canonical_for::<1>(position),
            _ => self.canonical_wide(position),
        }
    }

    /// `canonical` for any number of symmetries: the smallest image of
    /// each bank, the smallest of those, and the lanes that reach it, less
    /// the identity's copies.
    #[inline(never)]
    fn canonical_wide(&self, position: &Position) -> Canonical {
        let (us, them) = (position.us().bits(), position.them().bits());
        let mut best = Canonical {
            code: u64::MAX,
            reaching: 0,
        };
        for bank in 0..self.banks {
            let images = match self.groups {
                1 => self.bank_images::<1>(bank, us, them),
                2 => self.bank_images::<2>(bank, us, them),
                3 => self.bank_images::<3>(bank, us, them),
                _ => self.bank_images::<BYTE_GROUPS>(bank, us, them),
            };
            let smallest = smallest_image(&images);
            let reaching = smallest.reaching << (bank * LANES);
            if smallest.code < best.code {
                best = Canonical {
                    code: smallest.code,
                    reaching,
                };
            } else if smallest.code == best.code {
                best.reaching |= reaching;
            }
        }
        best.reaching &= self.reaching_mask;
        best
    }

    /// `canonical` of many positions: `found(item, canonical)` for the
    /// position `position(item)` of each item, in order. The board's count
    /// of symmetries and of byte groups are matched once, not once a
    /// position, and the positions are weighed in one loop with no call
    /// between them, so that one position's table reads and tree of
    /// minimums overlap the next one's.
    #[inline]
    pub fn canonical_each<T>(
        &self,
        items: &mut [T],
        position: impl Fn(&T) -> Position,
        found: impl FnMut(&mut T, Canonical),
    ) {
        match self.symmetries.len() {
            8 => self.canonical_each_for::<8, T>(items, position, found),
            4 => self.canonical_each_for::<4, T>(items, position, found),
            2 => self.canonical_each_for::<2, T>(items, position, found),
            1 => self.canonical_each_for::<1, T>(items, position, found),
            _ => {
                let mut found = found;
                for item in items.iter_mut() {
                    let canonical = self.canonical_wide(&position(item));
                    found(item, canonical);
                }
            }
        }
    }

    #[inline(always)]
    fn canonical_each_for<const S: usize, T>(
        &self,
        items: &mut [T],
        position: impl Fn(&T) -> Position,
        found: impl FnMut(&mut T, Canonical),
    ) {
        match self.groups {
            1 => self.canonical_each_in::<1, S, T>(items, position, found),
            2 => self.canonical_each_in::<2, S, T>(items, position, found),
            3 => self.canonical_each_in::<3, S, T>(items, position, found),
            _ => self.canonical_each_in::<BYTE_GROUPS, S, T>(items, position, found),
        }
    }

    #[inline(always)]
    fn canonical_each_in<const GROUPS: usize, const S: usize, T>(
        &self,
        items: &mut [T],
        position: impl Fn(&T) -> Position,
        mut found: impl FnMut(&mut T, Canonical),
    ) {
        for item in items.iter_mut() {
            let position = position(item);
            let (us, them) = (position.us().bits(), position.them().bits());
            let canonical = smallest_image(&self.images::<GROUPS, S>(us, them));
            found(item, canonical);
        }
    }

    #[inline(always)]
    fn canonical_for<const S: usize>(&self, position: &Position) -> Canonical {
        let (us, them) = (position.us().bits(), position.them().bits());
        smallest_image(&match self.groups {
            1 => self.images::<1, S>(us, them),
            2 => self.images::<2, S>(us, them),
            3 => self.images::<3, S>(us, them),
            _ => self.images::<BYTE_GROUPS, S>(us, them),
        })
    }

    /// The position's stones weighed under every symmetry.
    #[inline]
    pub fn weights(&self, position: &Position) -> Weights {
        match self.symmetries.len() {
            8 => self.weights_for::<8>(position),
            4 => self.weights_for::<4>(position),
            2 => self.weights_for::<2>(position),
            1 => self.weights_for::<1>(position),
            _ => {
                let mut turned = [0; LANES];
                turned[0] = position.them().bits();
                turned[1] = position.us().bits();
                Weights { turned }
            }
        }
    }

    #[inline(always)]
    fn weights_for<const SYMMETRIES: usize>(&self, position: &Position) -> Weights {
        match self.groups {
            1 => self.weights_in::<1, SYMMETRIES>(position),
            2 => self.weights_in::<2, SYMMETRIES>(position),
            3 => self.weights_in::<3, SYMMETRIES>(position),
            _ => self.weights_in::<BYTE_GROUPS, SYMMETRIES>(position),
        }
    }

    #[inline(always)]
    fn weights_in<const GROUPS: usize, const SYMMETRIES: usize>(
        &self,
        position: &Position,
    ) -> Weights {
        let mut weights = Weights { turned: [0; LANES] };
        weights.turned[..SYMMETRIES].copy_from_slice(
            &self.images::<GROUPS, SYMMETRIES>(position.them().bits(), position.us().bits()),
        );
        weights
    }

    /// The canonical form of the position, seen from the other side, whose
    /// stones are those of `weights` with `taken` removed from the
    /// opponent's (who moves next) and `added` to the mover's: after a move
    /// that placed `added` and captured `taken`, or before an un-move that
    /// takes away `taken` and restores the captured `added`. Equal to
    /// `canonical` of that position, in a few additions.
    #[inline]
    pub fn canonical_turned(
        &self,
        weights: &Weights,
        taken: PointSet,
        added: PointSet,
    ) -> Canonical {
        match self.symmetries.len() {
            8 => self.turned_in::<8>(weights, taken, added),
            4 => self.turned_in::<4>(weights, taken, added),
            2 => self.turned_in::<2>(weights, taken, added),
            1 => self.turned_in::<1>(weights, taken, added),
            _ => {
                let (next_mover, other) =
                    (PointSet(weights.turned[0]), PointSet(weights.turned[1]));
                self.canonical_wide(&Position::new(next_mover - taken, other | added))
            }
        }
    }

    #[inline(always)]
    fn turned_in<const SYMMETRIES: usize>(
        &self,
        weights: &Weights,
        taken: PointSet,
        added: PointSet,
    ) -> Canonical {
        let mut codes = [0u64; SYMMETRIES];
        codes.copy_from_slice(&weights.turned[..SYMMETRIES]);
        // The next mover's stones weigh 1, the other side's 2.
        for point in taken.iter() {
            let row = &self.point_weights[point.index() % MAX_CODE_POINTS];
            for g in 0..SYMMETRIES {
                codes[g] -= row[g];
            }
        }
        for point in added.iter() {
            let row = &self.point_weights[point.index() % MAX_CODE_POINTS];
            for g in 0..SYMMETRIES {
                codes[g] += 2 * row[g];
            }
        }
        smallest_image(&codes)
    }

    /// Whether `position`, whose code is `code`, is its own canonical
    /// representative. The identity comes first among the symmetries, so
    /// `code` is its image; stops at the first other symmetry that gives a
    /// smaller code.
    #[inline]
    pub fn is_canonical(&self, code: PositionCode, position: &Position) -> bool {
        match self.groups {
            1 => self.is_canonical_in::<1>(code, position),
            2 => self.is_canonical_in::<2>(code, position),
            3 => self.is_canonical_in::<3>(code, position),
            _ => self.is_canonical_in::<BYTE_GROUPS>(code, position),
        }
    }

    #[inline(always)]
    fn is_canonical_in<const GROUPS: usize>(&self, own: PositionCode, position: &Position) -> bool {
        (1..self.symmetries.len()).all(|g| self.code_in::<GROUPS>(g, position) >= own)
    }

    /// Whether a code marks a canonical legal position: the positions the
    /// index numbers.
    #[inline]
    pub fn is_canonical_legal(&self, code: PositionCode) -> bool {
        let position = self.decode(code);
        self.is_canonical(code, &position) && position.is_legal(&self.board)
    }

    /// Which codes of `first..first + count` (`count` at most 64) mark
    /// canonical legal positions: bit `i` for code `first + i`. The same
    /// answers as `is_canonical_legal`, from images of the higher points
    /// worked out once per `LOW_SIZE` codes.
    #[cfg(test)]
    pub fn canonical_legal_bits(&self, first: PositionCode, count: u32) -> u64 {
        self.canonical_legal_positions(first, count, |_, _| {})
    }

    /// `canonical_legal_bits`, calling `found(position, canonical)` for each
    /// canonical legal position on the way, in code order: what the index
    /// needs of every position, without decoding it again.
    pub fn canonical_legal_positions(
        &self,
        first: PositionCode,
        count: u32,
        found: impl FnMut(&Position, Canonical),
    ) -> u64 {
        match self.symmetries.len() {
            8 => self.canonical_legal_bits_in::<8>(first, count, found),
            4 => self.canonical_legal_bits_in::<4>(first, count, found),
            2 => self.canonical_legal_bits_in::<2>(first, count, found),
            1 => self.canonical_legal_bits_in::<1>(first, count, found),
            _ => self.canonical_legal_bits_wide(first, count, found),
        }
    }

    /// `canonical_legal_bits_in` for any number of symmetries, a symmetry
    /// at a time, stopping at the first that gives a smaller code.
    fn canonical_legal_bits_wide(
        &self,
        first: PositionCode,
        count: u32,
        mut found: impl FnMut(&Position, Canonical),
    ) -> u64 {
        debug_assert!(count <= 64 && first + count as u64 <= self.code_count);
        let symmetries = self.symmetries.len();
        let end = first + count as u64;
        let mut bits = 0u64;
        let mut code = first;
        let mut high_images = [[0u64; LANES]; MAX_BANKS];
        while code < end {
            let high = code / LOW_SIZE;
            let high_first = high * LOW_SIZE;
            let stop = end.min(high_first + LOW_SIZE);
            let rest = self.decode(high);
            let (us, them) = (
                rest.us().bits() << LOW_POINTS,
                rest.them().bits() << LOW_POINTS,
            );
            for (bank, images) in high_images.iter_mut().enumerate().take(self.banks) {
                *images = self.bank_images::<BYTE_GROUPS>(bank, us, them);
            }
            for c in code..stop {
                let low = (c - high_first) as usize;
                let image = |g: usize| {
                    let (bank, lane) = (g / LANES, g % LANES);
                    high_images[bank][lane] + self.low_images[bank * LOW_SIZE as usize + low][lane]
                };
                // The identity comes first: `c` is its image.
                if (1..symmetries).all(|g| image(g) >= c) {
                    let (u, t) = self.digits[low];
                    let position =
                        Position::new(PointSet(us | u as u64), PointSet(them | t as u64));
                    if position.is_legal(&self.board) {
                        bits |= 1 << (c - first);
                        let reaching = (1..symmetries)
                            .filter(|&g| image(g) == c)
                            .fold(1u64, |reaching, g| reaching | 1 << g);
                        found(&position, Canonical { code: c, reaching });
                    }
                }
            }
            code = stop;
        }
        bits
    }

    #[inline(always)]
    fn canonical_legal_bits_in<const SYMMETRIES: usize>(
        &self,
        first: PositionCode,
        count: u32,
        mut found: impl FnMut(&Position, Canonical),
    ) -> u64 {
        debug_assert!(count <= 64 && first + count as u64 <= self.code_count);
        let end = first + count as u64;
        let mut bits = 0u64;
        let mut code = first;
        while code < end {
            let high = code / LOW_SIZE;
            let high_first = high * LOW_SIZE;
            let stop = end.min(high_first + LOW_SIZE);
            let rest = self.decode(high);
            let (us, them) = (
                rest.us().bits() << LOW_POINTS,
                rest.them().bits() << LOW_POINTS,
            );
            let high_images = self.images::<BYTE_GROUPS, SYMMETRIES>(us, them);
            for c in code..stop {
                let low = (c - high_first) as usize;
                let images = &self.low_images[low];
                // The identity comes first: `c` is its image.
                if (1..SYMMETRIES).all(|g| high_images[g] + images[g] >= c) {
                    let (u, t) = self.digits[low];
                    let position =
                        Position::new(PointSet(us | u as u64), PointSet(them | t as u64));
                    if position.is_legal(&self.board) {
                        bits |= 1 << (c - first);
                        let reaching = (1..SYMMETRIES)
                            .filter(|&g| high_images[g] + images[g] == c)
                            .fold(1u64, |reaching, g| reaching | 1 << g);
                        found(&position, Canonical { code: c, reaching });
                    }
                }
            }
            code = stop;
        }
        bits
    }

    /// The image of a ko point in the canonical form: the smallest image over
    /// the symmetries that reach the canonical code.
    #[inline]
    pub fn canonical_point(&self, canonical: &Canonical, point: Point) -> Point {
        let mut best = u8::MAX as usize;
        let mut reaching = canonical.reaching;
        while reaching != 0 {
            let g = reaching.trailing_zeros() as usize;
            reaching &= reaching - 1;
            best = best.min(self.symmetries[g].apply(point).index());
        }
        Point::new(best)
    }

    /// How many canonical ko points come before the image of `ko`: `ko_points`
    /// are the position's legal ko points in the orientation `canonical` was
    /// computed from. This orders the ko states of a position.
    #[inline]
    pub fn ko_rank(&self, canonical: &Canonical, ko_points: PointSet, ko: Point) -> u32 {
        if canonical.reaching == 1 {
            return (ko_points.bits() & ((1u64 << ko.index()) - 1)).count_ones();
        }
        let target = self.canonical_point(canonical, ko);
        let mut images = PointSet::EMPTY;
        for point in ko_points.iter() {
            let image = self.canonical_point(canonical, point);
            if image < target {
                images.insert(image);
            }
        }
        images.len() as u32
    }

    /// The ko points of a canonical position that are their own canonical
    /// images: one per class of ko points the position's own symmetries
    /// relate.
    pub fn canonical_ko_points(&self, canonical: &Canonical, ko_points: PointSet) -> PointSet {
        if canonical.reaching == 1 {
            return ko_points;
        }
        let mut result = PointSet::EMPTY;
        for point in ko_points.iter() {
            if self.canonical_point(canonical, point) == point {
                result.insert(point);
            }
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The vector form of `smallest_image` (when the build has one) against
    /// the plain tree of lanes: random codes below `3^32`, many of them
    /// equal, so that several symmetries reach the smallest.
    #[test]
    fn smallest_image_agrees_with_the_plain_tree() {
        fn check<const S: usize>(rng: &mut crate::tests::support::Rng) {
            let limit = 3u64.pow(32);
            let mut codes = [0u64; S];
            for _ in 0..20_000 {
                let pool = [rng.below(limit), rng.below(limit), rng.below(8), limit - 1];
                for code in codes.iter_mut() {
                    *code = pool[rng.below(4) as usize];
                }
                assert_eq!(
                    smallest_image(&codes),
                    smallest_image_by_lanes(&codes),
                    "{codes:?}"
                );
            }
        }
        let mut rng = crate::tests::support::Rng::new(0x5ea1_1e57);
        check::<8>(&mut rng);
        check::<4>(&mut rng);
        check::<2>(&mut rng);
        check::<1>(&mut rng);
    }

    #[test]
    fn codes_round_trip_and_follow_the_definition() {
        let board: Board = "3x3".parse().unwrap();
        let codec = Codec::new(board);
        for code in 0..codec.code_count() {
            let position = codec.decode(code);
            assert_eq!(codec.code(&position), code);
            let mut expected = 0;
            for p in board.all().iter() {
                let digit = if position.us().contains(p) {
                    1
                } else if position.them().contains(p) {
                    2
                } else {
                    0
                };
                expected += digit * 3u64.pow(p.index() as u32);
            }
            assert_eq!(expected, code);
        }
    }

    #[test]
    fn code_words_agree_with_codes_one_by_one() {
        for name in [
            "1x1", "1x4", "1x5", "1x7", "2x2", "2x3", "3x3", "2x4", "3x4", "1x3c", "1x4c", "1x5c",
            "1x8c", "2x2c", "2x3c", "2x4c", "2x5c", "3x3c",
        ] {
            let board: Board = name.parse().unwrap();
            let codec = Codec::new(board);
            let codes = codec.code_count();
            // Words of 64 from 0, as the index asks, and of other lengths
            // from other starts, across the steps of `LOW_SIZE`.
            for (start, step) in [(0, 64), (5, 37), (200, 64), (1, 1)] {
                let mut first = start.min(codes);
                while first < codes {
                    let count = step.min(codes - first) as u32;
                    let mut found = Vec::new();
                    let bits =
                        codec.canonical_legal_positions(first, count, |position, canonical| {
                            found.push((*position, canonical))
                        });
                    assert_eq!(bits, codec.canonical_legal_bits(first, count));
                    // The positions it visits are those of its bits, in
                    // order, each with its canonical form.
                    let expected: Vec<(Position, Canonical)> = (0..count as u64)
                        .filter(|i| bits >> i & 1 == 1)
                        .map(|i| {
                            let position = codec.decode(first + i);
                            (position, codec.canonical(&position))
                        })
                        .collect();
                    assert_eq!(found, expected, "{name}: from code {first}");
                    for i in 0..count as u64 {
                        assert_eq!(
                            bits >> i & 1 == 1,
                            codec.is_canonical_legal(first + i),
                            "{name}: code {}",
                            first + i
                        );
                    }
                    if count < 64 {
                        assert_eq!(bits >> count, 0, "{name}: bits past {count}");
                    }
                    first += count as u64;
                }
            }
        }
    }

    #[test]
    fn turned_codes_follow_moves_and_unmoves() {
        for name in [
            "1x5", "2x3", "3x3", "3x4", "4x4", "1x5c", "1x4c", "2x3c", "2x4c", "3x4c", "2x8c",
            "1x25c", "2x16c",
        ] {
            let board: Board = name.parse().unwrap();
            let codec = Codec::new(board);
            let mut rng = crate::tests::support::Rng::new(0x7e57_c0de);
            for _ in 0..20_000 {
                let position = codec.decode(rng.below(codec.code_count()));
                let weights = codec.weights(&position);
                let turned = codec.canonical_turned(&weights, PointSet::EMPTY, PointSet::EMPTY);
                assert_eq!(turned, codec.canonical(&position.swapped()), "{name}");
                for point in position.empty_points(&board).iter() {
                    if let Some(placed) = position.place(&board, point) {
                        let child = placed.position.swapped();
                        let turned = codec.canonical_turned(
                            &weights,
                            placed.captured,
                            PointSet::single(point),
                        );
                        assert_eq!(turned, codec.canonical(&child), "{name}: {position:?}");
                        // And back: the un-move from the child.
                        let back = codec.canonical_turned(
                            &codec.weights(&child),
                            PointSet::single(point),
                            placed.captured,
                        );
                        assert_eq!(back, codec.canonical(&position), "{name}: {child:?}");
                    }
                }
            }
        }
    }

    /// `canonical_each` against `canonical` one position at a time: every
    /// code of small boards (legal or not), then random codes and sparse
    /// positions of larger ones, plain and circular (groups of one bank and
    /// of several), in runs of every length up to a few dozen.
    #[test]
    fn canonical_each_agrees_with_canonical() {
        let check = |codec: &Codec, positions: &[Position]| {
            let name = codec.board().name();
            let mut items: Vec<(usize, Option<Canonical>)> =
                (0..positions.len()).map(|i| (i, None)).collect();
            codec.canonical_each(
                &mut items,
                |&(i, _)| positions[i],
                |(_, slot), canonical| {
                    assert!(slot.is_none(), "{name}: each item found once");
                    *slot = Some(canonical);
                },
            );
            for (i, canonical) in items {
                assert_eq!(
                    canonical,
                    Some(codec.canonical(&positions[i])),
                    "{name}: {:?}",
                    positions[i]
                );
            }
        };
        let mut rng = crate::tests::support::Rng::new(0xeac4_ca40);
        for name in [
            "1x1", "1x5", "2x3", "3x3", "2x4", "1x3c", "1x4c", "1x6c", "2x2c", "2x3c", "3x3c",
        ] {
            let codec = Codec::new(name.parse().unwrap());
            let all: Vec<Position> = (0..codec.code_count()).map(|c| codec.decode(c)).collect();
            let mut start = 0;
            while start < all.len() {
                let length = (1 + rng.below(40) as usize).min(all.len() - start);
                check(&codec, &all[start..start + length]);
                start += length;
            }
        }
        for name in [
            "3x6", "4x4", "4x5", "3x7", "2x11", "5x5", "2x8c", "4x4c", "1x25c", "2x16c", "4x8c",
        ] {
            let codec = Codec::new(name.parse().unwrap());
            let all = codec.board().all().bits();
            for _ in 0..400 {
                let length = rng.below(40) as usize;
                let positions: Vec<Position> = (0..length)
                    .map(|_| {
                        if rng.below(2) == 0 {
                            codec.decode(rng.below(codec.code_count()))
                        } else {
                            // Sparse positions too, so that some have
                            // symmetries and several reach the smallest.
                            let us = rng.next_u64() & rng.next_u64() & all;
                            let them = rng.next_u64() & rng.next_u64() & all & !us;
                            Position::new(PointSet(us), PointSet(them))
                        }
                    })
                    .collect();
                check(&codec, &positions);
            }
        }
    }

    /// `canonical`, `is_canonical` and `has_symmetry` against the images
    /// of a position under each symmetry, worked out point by point: every
    /// seventh code of small boards, random codes of larger ones, plain and
    /// circular (groups of one bank and of several).
    #[test]
    fn canonical_form_is_the_smallest_symmetric_code() {
        let check = |codec: &Codec, code: u64| {
            let position = codec.decode(code);
            let canonical = codec.canonical(&position);
            let images: Vec<u64> = codec
                .symmetries()
                .iter()
                .map(|g| {
                    codec.code(&Position::new(
                        g.apply_set(position.us()),
                        g.apply_set(position.them()),
                    ))
                })
                .collect();
            let name = codec.board().name();
            assert_eq!(canonical.code, *images.iter().min().unwrap(), "{name}");
            for (g, image) in images.iter().enumerate() {
                assert_eq!(
                    canonical.reaching >> g & 1 == 1,
                    *image == canonical.code,
                    "{name}: code {code}, symmetry {g}"
                );
            }
            assert_eq!(
                canonical
                    .reaching
                    .checked_shr(images.len() as u32)
                    .unwrap_or(0),
                0,
                "{name}: no bits past the group"
            );
            assert_eq!(codec.is_canonical(code, &position), canonical.code == code);
            for stones in [position.us(), position.them()] {
                let fixed = codec.symmetries()[1..]
                    .iter()
                    .any(|g| g.apply_set(stones) == stones);
                assert_eq!(codec.has_symmetry(stones), fixed, "{name}: {stones:?}");
            }
        };
        for name in ["3x3", "1x3c", "1x4c", "1x6c", "2x2c", "2x3c", "3x3c"] {
            let codec = Codec::new(name.parse().unwrap());
            for code in (0..codec.code_count()).step_by(7) {
                check(&codec, code);
            }
        }
        let mut rng = crate::tests::support::Rng::new(0xca_9091);
        for name in ["4x4", "2x8c", "4x4c", "1x25c", "2x16c", "4x8c"] {
            let codec = Codec::new(name.parse().unwrap());
            for _ in 0..5_000 {
                // Sparse positions too, so that some have symmetries.
                let code = codec.code(&Position::new(
                    PointSet(rng.next_u64() & rng.next_u64() & codec.board().all().bits()),
                    PointSet::EMPTY,
                ));
                check(&codec, code);
                check(&codec, rng.below(codec.code_count()));
            }
        }
    }
}
