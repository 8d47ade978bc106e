//! The set of canonical legal position codes, with rank (how many come
//! before a code) and select (the code with a given number).
//!
//! A set may cover only a range of the codes (one process's share of a
//! board split among several): it then holds the lines of that range only,
//! and numbers its codes after those of every code before the range, so
//! that ranks and selects are the whole board's.
//!
//! Codes are kept in 64-byte lines: seven words of presence bits (448 codes)
//! and the number of positions before the line. A rank reads one cache line,
//! which matters because the solver ranks every predecessor it visits, and
//! the lines take 1.14 bits per code.

use std::ops::Range;

use rayon::prelude::*;

/// Codes per line: seven 64-bit words.
const WORDS_PER_LINE: usize = 7;
const CODES_PER_LINE: u64 = 64 * WORDS_PER_LINE as u64;

#[repr(C, align(64))]
#[derive(Clone, Copy, Default)]
struct Line {
    words: [u64; WORDS_PER_LINE],
    /// Present codes in all earlier lines.
    before: u64,
}

/// Present codes between two samples of `Presence::samples`: about two
/// lines' worth on the boards the solver builds, so that a select reads the
/// sample and one or two neighbouring lines. (Every 1,024 codes, a select
/// searched some 17 lines, one cache miss after another; the solver selects
/// at every group of a sparse layer.)
const SAMPLE: u64 = 128;

/// A set of codes within a range, with rank and select.
pub struct Presence {
    /// The lines that hold the range, from line `first_line` of the board.
    lines: Vec<Line>,
    /// The line (of `lines`) holding the code numbered `base + k * SAMPLE`,
    /// for every `k`: a select searches only the few lines between two
    /// samples.
    samples: Vec<u64>,
    /// The codes the set covers.
    codes: Range<u64>,
    /// The board's line that `lines[0]` is.
    first_line: u64,
    /// The number of the first present code: how many come before the
    /// range.
    base: u64,
    /// Present codes in the range.
    count: u64,
}

impl Presence {
    /// The codes below `codes` given a word at a time: `word(notes, first,
    /// count)` has bit `i` set when code `first + i` is present (`count` is
    /// at most 64). The words are asked for in parallel, and in order within
    /// a line, so that a caller can share work between neighbouring codes.
    /// `word` may also note what it finds in a value of its own for each run
    /// of lines (`start` makes one), handed to `take` in code order. The
    /// runs are worked on a batch at a time, so that what `take` keeps can
    /// go in one large array: small blocks of memory, freed in their
    /// thousands, stay with the process.
    #[cfg(test)]
    pub fn build<T: Send>(
        codes: u64,
        start: impl Fn() -> T + Sync,
        word: impl Fn(&mut T, u64, u32) -> u64 + Sync,
        take: impl FnMut(T),
    ) -> Presence {
        Presence::build_range(0..codes, 0, start, word, take)
    }

    /// `build` for the codes of `codes` only, numbered from `base`: `word`
    /// is asked only for codes in the range.
    pub fn build_range<T: Send>(
        codes: Range<u64>,
        base: u64,
        start: impl Fn() -> T + Sync,
        word: impl Fn(&mut T, u64, u32) -> u64 + Sync,
        mut take: impl FnMut(T),
    ) -> Presence {
        const LINES_PER_RUN: usize = 256;
        const RUNS_PER_BATCH: usize = 64;
        let codes = codes.start..codes.end.max(codes.start);
        let first_line = codes.start / CODES_PER_LINE;
        let count = (codes.end.div_ceil(CODES_PER_LINE) - first_line) as usize;
        let mut lines = Vec::with_capacity(count);
        crate::common::huge_pages::advise(lines.spare_capacity_mut());
        lines.resize(count, Line::default());
        for (batch, batch_lines) in lines.chunks_mut(LINES_PER_RUN * RUNS_PER_BATCH).enumerate() {
            let noted: Vec<T> = batch_lines
                .par_chunks_mut(LINES_PER_RUN)
                .enumerate()
                .map(|(run, slice)| {
                    let mut noted = start();
                    let run_line =
                        first_line + ((batch * RUNS_PER_BATCH + run) * LINES_PER_RUN) as u64;
                    for (offset, line) in slice.iter_mut().enumerate() {
                        let first_code = (run_line + offset as u64) * CODES_PER_LINE;
                        for (w, bits) in line.words.iter_mut().enumerate() {
                            let word_first = first_code + 64 * w as u64;
                            let first = word_first.max(codes.start);
                            let last = (word_first + 64).min(codes.end);
                            *bits = if first < last {
                                word(&mut noted, first, (last - first) as u32)
                                    << (first - word_first)
                            } else {
                                0
                            };
                        }
                    }
                    noted
                })
                .collect();
            noted.into_iter().for_each(&mut take);
        }
        let mut count = 0u64;
        let mut samples = Vec::new();
        for (l, line) in lines.iter_mut().enumerate() {
            line.before = base + count;
            count += line
                .words
                .iter()
                .map(|w| w.count_ones() as u64)
                .sum::<u64>();
            // The lines holding the codes numbered `base + (line.before..count)`.
            while (samples.len() as u64) * SAMPLE < count {
                samples.push(l as u64);
            }
        }
        Presence {
            lines,
            samples,
            codes,
            first_line,
            base,
            count,
        }
    }

    /// How many codes of the range are present.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The number of the range's first present code.
    #[cfg(test)]
    pub fn base(&self) -> u64 {
        self.base
    }

    /// The codes the set covers.
    pub fn codes(&self) -> Range<u64> {
        self.codes.clone()
    }

    pub fn memory_bytes(&self) -> usize {
        self.lines.len() * std::mem::size_of::<Line>() + self.samples.len() * 8
    }

    /// How many present codes come before `code`, if `code` is present.
    #[inline]
    pub fn rank(&self, code: u64) -> Option<u64> {
        if !self.codes.contains(&code) {
            return None;
        }
        let line = &self.lines[(code / CODES_PER_LINE - self.first_line) as usize];
        let offset = code % CODES_PER_LINE;
        let (word, bit) = ((offset / 64) as usize, offset % 64);
        let bits = line.words[word];
        if bits >> bit & 1 == 0 {
            return None;
        }
        // The words before the code's are counted through masks, all six
        // that can be: a loop over a varying number of them ended on a
        // branch the predictor could not guess (codes land anywhere in a
        // line).
        let mut rank = line.before + (bits & ((1u64 << bit) - 1)).count_ones() as u64;
        let mut earlier = 0;
        for (i, bits) in line.words[..WORDS_PER_LINE - 1].iter().enumerate() {
            let mask = ((i < word) as u64).wrapping_neg();
            earlier += (bits & mask).count_ones();
        }
        rank += earlier as u64;
        Some(rank)
    }

    /// Asks for the line that holds `code`, so that it is cached when
    /// ranked.
    #[inline]
    pub fn prefetch(&self, code: u64) {
        crate::common::prefetch::prefetch_element(
            &self.lines,
            (code / CODES_PER_LINE).wrapping_sub(self.first_line) as usize,
        );
    }

    /// The board's 64-code word that the range's first word is.
    pub fn first_word(&self) -> u64 {
        self.first_line * WORDS_PER_LINE as u64
    }

    /// The number of 64-code words the range spans.
    pub fn word_count(&self) -> usize {
        (self.codes.end.div_ceil(64) - self.first_word()) as usize
    }

    /// The presence bits, 64 codes a word, in code order, from the board's
    /// word `first_word()` on (codes outside the range are absent).
    pub fn words(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.word_count()).map(|w| self.lines[w / WORDS_PER_LINE].words[w % WORDS_PER_LINE])
    }

    /// The present codes in order, from the one numbered `first` on (a
    /// number of the range's).
    pub fn walk_from(&self, first: u64) -> PresenceWalker<'_> {
        let Some(local) = first.checked_sub(self.base).filter(|&l| l < self.count) else {
            return PresenceWalker {
                presence: self,
                word: self.word_count(),
                bits: 0,
            };
        };
        // The line holding code number `first` is the last one with no more
        // codes before it: at or after the sample's, and a line or two on.
        let mut line = self.samples[(local / SAMPLE) as usize] as usize;
        while line + 1 < self.lines.len() && self.lines[line + 1].before <= first {
            line += 1;
        }
        let word = line * WORDS_PER_LINE;
        let mut walker = PresenceWalker {
            presence: self,
            word,
            bits: self.lines[line].words[0],
        };
        walker.skip(first - self.lines[line].before);
        walker
    }

    /// Asks for the line that holds the code numbered `number`, so that a
    /// walk from it (`walk_from`) finds it cached.
    #[inline]
    pub fn prefetch_numbered(&self, number: u64) {
        let local = number.wrapping_sub(self.base);
        if let Some(&line) = self.samples.get((local / SAMPLE) as usize) {
            crate::common::prefetch::prefetch(&self.lines[line as usize]);
        }
    }

    /// The code numbered `number` (which must be below `count`).
    pub fn select(&self, number: u64) -> u64 {
        self.walk_from(number)
            .next_code()
            .expect("a number below the count")
    }
}

/// Visits present codes in order.
pub struct PresenceWalker<'a> {
    presence: &'a Presence,
    /// The word `bits` came from.
    word: usize,
    bits: u64,
}

impl PresenceWalker<'_> {
    /// The next present code.
    #[inline]
    pub fn next_code(&mut self) -> Option<u64> {
        while self.bits == 0 {
            self.word += 1;
            if self.word >= self.presence.word_count() {
                return None;
            }
            self.bits =
                self.presence.lines[self.word / WORDS_PER_LINE].words[self.word % WORDS_PER_LINE];
        }
        let bit = self.bits.trailing_zeros() as u64;
        self.bits &= self.bits - 1;
        Some((self.presence.first_word() + self.word as u64) * 64 + bit)
    }

    /// Skips `skipped` present codes: whole words at a time by their counts,
    /// then bit by bit.
    #[inline]
    fn skip(&mut self, mut skipped: u64) {
        loop {
            let here = self.bits.count_ones() as u64;
            if skipped < here {
                for _ in 0..skipped {
                    self.bits &= self.bits - 1;
                }
                return;
            }
            skipped -= here;
            self.word += 1;
            if self.word >= self.presence.word_count() {
                self.bits = 0;
                return;
            }
            self.bits =
                self.presence.lines[self.word / WORDS_PER_LINE].words[self.word % WORDS_PER_LINE];
        }
    }

    /// Skips `skipped` present codes and gives the one after them.
    #[inline]
    pub fn skip_then_next(&mut self, skipped: u64) -> Option<u64> {
        self.skip(skipped);
        self.next_code()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_without_notes(codes: u64, word: impl Fn(u64, u32) -> u64 + Sync) -> Presence {
        Presence::build(codes, || (), |_, first, count| word(first, count), |_| {})
    }

    impl Presence {
        /// How many present codes come before `code`.
        fn rank_or_next(&self, code: u64) -> u64 {
            (0..code).filter(|&c| self.rank(c).is_some()).count() as u64
        }
    }

    #[test]
    fn rank_select_and_walks_agree_with_a_plain_set() {
        for codes in [0u64, 1, 63, 64, 447, 448, 449, 5000, 20000] {
            let present = |code: u64| {
                code % 7 == 3 || code.is_multiple_of(11) || (1000..1500).contains(&code)
            };
            let presence = build_without_notes(codes, |first, count| {
                (0..count as u64).fold(0, |bits, i| bits | (present(first + i) as u64) << i)
            });
            let plain: Vec<u64> = (0..codes).filter(|&c| present(c)).collect();
            assert_eq!(presence.count(), plain.len() as u64);
            for code in 0..codes {
                let expected = plain.binary_search(&code).ok().map(|i| i as u64);
                assert_eq!(presence.rank(code), expected, "{codes}: rank of {code}");
            }
            for (number, &code) in plain.iter().enumerate() {
                assert_eq!(presence.select(number as u64), code);
                let mut walker = presence.walk_from(number as u64);
                let rest: Vec<u64> = std::iter::from_fn(|| walker.next_code()).collect();
                assert_eq!(rest, plain[number..]);
                for skipped in [0usize, 1, 5, 63, 64, 200] {
                    let mut walker = presence.walk_from(number as u64);
                    assert_eq!(
                        walker.skip_then_next(skipped as u64),
                        plain.get(number + skipped).copied(),
                        "{codes}: {skipped} after number {number}"
                    );
                }
            }
            let words: Vec<u64> = presence.words().collect();
            assert_eq!(words.len(), codes.div_ceil(64) as usize);
            let from_words: Vec<u64> = words
                .iter()
                .enumerate()
                .flat_map(|(w, &bits)| {
                    (0..64)
                        .filter(move |b| bits >> b & 1 == 1)
                        .map(move |b| w as u64 * 64 + b)
                })
                .collect();
            assert_eq!(from_words, plain);
        }
    }

    /// A set over a range of the codes, numbered after a base: ranks,
    /// selects, walks and words as the whole set's (the codes outside the
    /// range absent), whatever the range's ends.
    #[test]
    fn a_range_of_the_codes_numbers_as_the_whole() {
        let codes = 3 * 448 * 256 + 333;
        let present = |code: u64| code % 5 == 1 || (9000..9400).contains(&code);
        let word = |first: u64, count: u32| {
            (0..count as u64).fold(0, |bits, i| bits | (present(first + i) as u64) << i)
        };
        let whole = build_without_notes(codes, word);
        for range in [
            0..codes,
            0..0,
            5..5,
            448..896,
            1..codes - 1,
            100..9010,
            9010..9300,
            64 * 3 + 7..448 * 600 + 63,
            codes / 2..codes,
        ] {
            let base = whole.rank_or_next(range.start);
            let part = Presence::build_range(
                range.clone(),
                base,
                || (),
                |_, first, count| {
                    assert!(range.contains(&first) && first + count as u64 <= range.end);
                    word(first, count)
                },
                |_| {},
            );
            let inside: Vec<u64> = range.clone().filter(|&c| present(c)).collect();
            assert_eq!(part.count(), inside.len() as u64, "{range:?}");
            assert_eq!(part.base(), base);
            for code in range.start.saturating_sub(500)..(range.end + 500).min(codes) {
                let expected = whole.rank(code).filter(|_| range.contains(&code));
                assert_eq!(part.rank(code), expected, "{range:?}: rank of {code}");
            }
            for (i, &code) in inside.iter().enumerate() {
                let number = base + i as u64;
                assert_eq!(part.select(number), code, "{range:?}: select {number}");
                let mut walker = part.walk_from(number);
                let rest: Vec<u64> = std::iter::from_fn(|| walker.next_code()).collect();
                assert_eq!(rest, inside[i..], "{range:?}: walk from {number}");
            }
            assert!(part
                .walk_from(base + inside.len() as u64)
                .next_code()
                .is_none());
            let first = part.first_word() as usize;
            for (w, bits) in part.words().enumerate() {
                let whole_bits = whole.words().nth(first + w).unwrap();
                let mask = (0..64)
                    .filter(|b| range.contains(&(64 * (first + w) as u64 + b)))
                    .fold(0u64, |m, b| m | 1 << b);
                assert_eq!(bits, whole_bits & mask, "{range:?}: word {}", first + w);
            }
            assert!(64 * (first + part.word_count()) as u64 >= range.end);
        }
    }

    /// `build` over codes of many runs and batches: the same set with notes
    /// as without, and each run's notes handed on in code order.
    #[test]
    fn notes_come_back_in_code_order() {
        let codes = 3 * 64 * 256 * 448 + 1000;
        let present = |code: u64| code.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 61 == 0;
        let word = |first: u64, count: u32| {
            (0..count as u64).fold(0, |bits, i| bits | (present(first + i) as u64) << i)
        };
        let mut noted = Vec::new();
        let presence = Presence::build(
            codes,
            Vec::new,
            |codes: &mut Vec<u64>, first, count| {
                let bits = word(first, count);
                codes.extend((0..64).filter(|i| bits >> i & 1 == 1).map(|i| first + i));
                bits
            },
            |codes| noted.extend(codes),
        );
        let plain: Vec<u64> = (0..codes).filter(|&c| present(c)).collect();
        assert_eq!(noted, plain);
        assert_eq!(presence.count(), plain.len() as u64);
        assert!(presence
            .words()
            .eq(build_without_notes(codes, word).words()));
    }
}
