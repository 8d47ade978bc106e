//! The ko directory: for every canonical position, how many ko states it
//! has and how many ko states come before its first, found with one read.
//!
//! Ko states are rare (about one position in 23 has any) and are numbered
//! after every plain and passed state, grouped by position. A sorted list of
//! the positions that have them needed a search, several dependent reads
//! deep, for each lookup, and the solver asks for one on most edges into a
//! position with ko points. Here each run of 64 positions has one aligned
//! 32-byte word: the ko states before the run, and each position's count
//! (0 to 7) spread over three bit planes, so a position's first ko state is
//! that number plus the counts below it, a few popcounts. Half a byte per
//! position.
//!
//! A directory may cover only a run of the positions (one process's share
//! of a board split among several): it is then numbered from the run's
//! first position and from the ko states of every position before it.

use rayon::prelude::*;

/// Bit planes per word: a position has at most `2^PLANES - 1` ko states.
const PLANES: usize = 3;

/// The most ko states a position may have here.
pub const MAX_KO_STATES: u32 = (1 << PLANES) - 1;

/// Positions per word.
const POSITIONS_PER_WORD: u64 = 64;

/// The ko states of 64 consecutive positions.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(32))]
struct KoWord {
    /// Bit `i` of plane `b` is bit `b` of the count of the word's `i`-th
    /// position.
    planes: [u64; PLANES],
    /// The ko states of every position before the word's first.
    before: u64,
}

impl KoWord {
    /// The ko states of the word's positions whose bits `mask` has.
    #[inline]
    fn within(&self, mask: u64) -> u32 {
        (0..PLANES)
            .map(|b| (self.planes[b] & mask).count_ones() << b)
            .sum()
    }

    /// The ko states of the word's positions below the `i`-th.
    #[inline]
    fn below(&self, i: u32) -> u32 {
        self.within((1u64 << i) - 1)
    }

    /// The ko states of the word's `i`-th position.
    #[inline]
    fn count(&self, i: u32) -> u32 {
        self.within(1u64 << i)
    }

    /// The word's positions that have ko states.
    #[inline]
    fn with_ko(&self) -> u64 {
        self.planes.iter().fold(0, |all, plane| all | plane)
    }
}

/// How many ko states each position has, and where they start.
pub struct KoDirectory {
    /// One word per 64 positions from `first`, then one more, past every
    /// position, whose `before` is the total.
    words: Vec<KoWord>,
    /// The first position it covers.
    first: u64,
    /// The ko states of every position before `first`.
    base: u64,
}

impl KoDirectory {
    /// The directory of positions with `counts[p]` ko states each; `None`
    /// if a position has more than `MAX_KO_STATES`.
    #[cfg(test)]
    pub fn build(counts: &[u8]) -> Option<KoDirectory> {
        KoDirectory::build_run(counts, 0, 0)
    }

    /// The directory of positions `first..` with `counts[p - first]` ko
    /// states each, after `base` ko states of the positions before them.
    pub fn build_run(counts: &[u8], first: u64, base: u64) -> Option<KoDirectory> {
        if counts.par_iter().any(|&c| c as u32 > MAX_KO_STATES) {
            return None;
        }
        let mut words: Vec<KoWord> = counts
            .par_chunks(POSITIONS_PER_WORD as usize)
            .map(|run| {
                let mut word = KoWord::default();
                for (i, &count) in run.iter().enumerate() {
                    for b in 0..PLANES {
                        word.planes[b] |= ((count as u64 >> b) & 1) << i;
                    }
                }
                word
            })
            .collect();
        words.push(KoWord::default());
        let mut total = base;
        for word in &mut words {
            word.before = total;
            total += word.within(u64::MAX) as u64;
        }
        Some(KoDirectory { words, first, base })
    }

    /// The ko states of the positions it covers.
    pub fn total(&self) -> u64 {
        self.words.last().map_or(0, |word| word.before) - self.base
    }

    /// The ko states of position `position`.
    #[inline]
    pub fn count(&self, position: u64) -> u32 {
        let local = position - self.first;
        let word = &self.words[(local / POSITIONS_PER_WORD) as usize];
        word.count((local % POSITIONS_PER_WORD) as u32)
    }

    /// The ko states of every position before `position` (which may be the
    /// end of the positions covered: then the base plus the total).
    #[inline]
    pub fn before(&self, position: u64) -> u64 {
        let local = position - self.first;
        let word = &self.words[(local / POSITIONS_PER_WORD) as usize];
        word.before + word.below((local % POSITIONS_PER_WORD) as u32) as u64
    }

    /// The position of ko state `k` (counted among ko states, below the
    /// total), and which of its ko states it is.
    pub fn locate(&self, k: u64) -> (u64, u32) {
        self.locate_in(self.word_holding(k), k)
    }

    /// The word whose positions hold ko state `k`, by a search.
    #[inline]
    fn word_holding(&self, k: u64) -> usize {
        self.words.partition_point(|word| word.before <= k) - 1
    }

    /// As `locate`, starting from the word `hint` holds and stepping
    /// forward a little before searching; `hint` becomes the word found.
    /// For ko states asked for in ascending order.
    #[inline]
    pub fn locate_near(&self, hint: &mut usize, k: u64) -> (u64, u32) {
        let holds = |w: usize| {
            w + 1 < self.words.len() && self.words[w].before <= k && k < self.words[w + 1].before
        };
        if !holds(*hint) {
            let mut steps = 0;
            while *hint + 2 < self.words.len() && self.words[*hint + 1].before <= k && steps < 64 {
                *hint += 1;
                steps += 1;
            }
            if !holds(*hint) {
                *hint = self.word_holding(k);
            }
        }
        self.locate_in(*hint, k)
    }

    /// Ko state `k` within word `w`, which holds it.
    #[inline]
    fn locate_in(&self, w: usize, k: u64) -> (u64, u32) {
        let word = &self.words[w];
        let mut left = k - word.before;
        let mut positions = word.with_ko();
        loop {
            let i = positions.trailing_zeros();
            let count = word.count(i) as u64;
            if left < count {
                return (
                    self.first + w as u64 * POSITIONS_PER_WORD + i as u64,
                    left as u32,
                );
            }
            left -= count;
            positions &= positions - 1;
            debug_assert!(positions != 0, "ko state {k} is within word {w}");
        }
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.words.len() * std::mem::size_of::<KoWord>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts, firsts and locations against a plain running sum.
    #[test]
    fn directory_agrees_with_a_running_sum() {
        let mut rng = crate::tests::support::Rng::new(7);
        for positions in [0usize, 1, 63, 64, 65, 200, 1000, 5000] {
            for density in [0, 3, 30, 100] {
                let counts: Vec<u8> = (0..positions)
                    .map(|_| {
                        if rng.below(100) < density {
                            1 + rng.below(MAX_KO_STATES as u64) as u8
                        } else {
                            0
                        }
                    })
                    .collect();
                let directory = KoDirectory::build(&counts).unwrap();
                let mut before = 0u64;
                let mut owners = Vec::new();
                for (p, &count) in counts.iter().enumerate() {
                    assert_eq!(directory.count(p as u64), count as u32);
                    assert_eq!(directory.before(p as u64), before);
                    for j in 0..count as u32 {
                        owners.push((p as u64, j));
                    }
                    before += count as u64;
                }
                assert_eq!(directory.before(positions as u64), before);
                assert_eq!(directory.total(), before);
                let mut hint = 0;
                for (k, &owner) in owners.iter().enumerate() {
                    assert_eq!(directory.locate(k as u64), owner);
                    assert_eq!(directory.locate_near(&mut hint, k as u64), owner);
                }
                // Out of order too.
                for (k, &owner) in owners.iter().enumerate().rev().step_by(7) {
                    assert_eq!(directory.locate_near(&mut hint, k as u64), owner);
                }
                // A run of the positions, numbered as in the whole.
                for (first, end) in [(0, positions), (positions / 3, positions), (7, 7)] {
                    let first = first.min(positions);
                    let end = end.clamp(first, positions);
                    let base = directory.before(first as u64);
                    let run =
                        KoDirectory::build_run(&counts[first..end], first as u64, base).unwrap();
                    assert_eq!(run.total(), directory.before(end as u64) - base);
                    for p in first as u64..end as u64 {
                        assert_eq!(run.count(p), directory.count(p));
                        assert_eq!(run.before(p), directory.before(p));
                    }
                    assert_eq!(run.before(end as u64), directory.before(end as u64));
                    let mut hint = 0;
                    for k in base..base + run.total() {
                        assert_eq!(run.locate(k), directory.locate(k));
                        assert_eq!(run.locate_near(&mut hint, k), directory.locate(k));
                    }
                }
            }
        }
        assert!(KoDirectory::build(&[0, 8]).is_none());
    }
}
