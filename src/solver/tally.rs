//! The lean solve's working record of one state: a byte, eight to a 64-bit
//! word. While a threshold is solved a state needs only whether it is won,
//! whether it is lost, and how many of its children are not yet won; A, B
//! and their depths are written out the moment they are decided (see
//! `lean`), so they take no memory here.
//!
//! ```text
//!  bits 0..5  children not yet won (1..=MAX_CHILDREN), or LOST once lost,
//!             or LOST_PENDING + p while lost in a layer of parity p whose
//!             updates are not yet sent
//!  bit  5     won
//!  bit  6     won in a layer whose updates are not yet sent
//!  bit  7     that layer's parity
//! ```
//!
//! A layer at depth `d` is told from the next (`d + 1`, being decided while
//! `d` is read) by the parity of the depth; once a state's updates are sent
//! its marks are cleared (`settle`), so that the layer after next, of the
//! same parity, never sees them. Every change is an atomic operation on the
//! whole word, so two threads may work on neighbouring states at once.

use std::sync::atomic::{AtomicU64, Ordering};

/// The most children a tally counts: boards of up to 28 points.
pub const MAX_CHILDREN: u32 = 29;
const COUNT_MASK: u8 = 0x1f;
#[cfg(test)]
const LOST: u8 = 0;
const LOST_PENDING: u8 = 30;
const WON: u8 = 0x20;
const WON_PENDING: u8 = 0x40;
const PARITY: u8 = 0x80;
const WON_MASK: u8 = WON | WON_PENDING | PARITY;

/// States per word.
pub const PER_WORD: usize = 8;

/// A fresh tally: nothing known, `children` children to win.
#[inline]
pub fn fresh(children: u32) -> u8 {
    debug_assert!((1..=MAX_CHILDREN).contains(&children));
    children as u8
}

/// The tally of state `number` in `words`.
#[inline]
pub fn get(words: &[AtomicU64], number: u64) -> u8 {
    let word = words[(number / PER_WORD as u64) as usize].load(Ordering::Relaxed);
    (word >> (8 * (number % PER_WORD as u64))) as u8
}

#[inline]
fn locate(words: &[AtomicU64], number: u64) -> (&AtomicU64, u32) {
    (
        &words[(number / PER_WORD as u64) as usize],
        8 * (number % PER_WORD as u64) as u32,
    )
}

/// Whether the state is won.
#[inline]
#[cfg(test)]
pub fn is_won(tally: u8) -> bool {
    tally & WON != 0
}

/// Whether the state is lost.
#[inline]
#[cfg(test)]
pub fn is_lost(tally: u8) -> bool {
    let count = tally & COUNT_MASK;
    count == LOST || count >= LOST_PENDING
}

/// The children not yet won, while the state is not lost.
#[inline]
#[cfg(test)]
pub fn children_left(tally: u8) -> u32 {
    debug_assert!(!is_lost(tally));
    (tally & COUNT_MASK) as u32
}

/// Whether the state was won in the layer of parity `parity`, its updates
/// not yet sent.
#[inline]
pub fn won_in(tally: u8, parity: u32) -> bool {
    tally & WON_MASK == WON | WON_PENDING | (parity as u8) << 7
}

/// Whether the state was lost in the layer of parity `parity`, its updates
/// not yet sent.
#[inline]
pub fn lost_in(tally: u8, parity: u32) -> bool {
    tally & COUNT_MASK == LOST_PENDING + parity as u8
}

/// Makes the state won in the layer of parity `parity`, if it is not won
/// yet; true if this call made it so.
#[inline]
pub fn set_won(words: &[AtomicU64], number: u64, parity: u32) -> bool {
    let (word, shift) = locate(words, number);
    let marks = ((WON | WON_PENDING | (parity as u8) << 7) as u64) << shift;
    let mut old = word.load(Ordering::Relaxed);
    loop {
        if old >> shift & WON as u64 != 0 {
            return false;
        }
        match word.compare_exchange_weak(old, old | marks, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return true,
            Err(current) => old = current,
        }
    }
}

/// One more child of the state is won; if it was the last, the state
/// becomes lost in the layer of parity `parity` and this returns true.
#[inline]
pub fn child_won(words: &[AtomicU64], number: u64, parity: u32) -> bool {
    let (word, shift) = locate(words, number);
    // Counts stay at 1 or more until the last child: no borrow crosses
    // into the next byte.
    let old = word.fetch_sub(1 << shift, Ordering::Relaxed);
    let count = (old >> shift) as u8 & COUNT_MASK;
    debug_assert!(
        (1..=MAX_CHILDREN as u8).contains(&count),
        "state {number}: a child won with {count} left"
    );
    if count == 1 {
        word.fetch_add(
            ((LOST_PENDING + parity as u8) as u64) << shift,
            Ordering::Relaxed,
        );
        true
    } else {
        false
    }
}

/// `set_won` for states `number` and `number + 1` at once (`number` even,
/// so that both are in one word): one atomic operation for the two.
/// Returns how many of them became won.
#[inline]
pub fn set_won_pair(words: &[AtomicU64], number: u64, parity: u32) -> u32 {
    debug_assert!(number.is_multiple_of(2), "a pair starts at an even state");
    let (word, shift) = locate(words, number);
    let marks = (WON | WON_PENDING | (parity as u8) << 7) as u64;
    let mut old = word.load(Ordering::Relaxed);
    loop {
        let first = old >> shift & WON as u64 == 0;
        let second = old >> (shift + 8) & WON as u64 == 0;
        if !first && !second {
            return 0;
        }
        let new = old
            | if first { marks << shift } else { 0 }
            | if second { marks << (shift + 8) } else { 0 };
        match word.compare_exchange_weak(old, new, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return first as u32 + second as u32,
            Err(current) => old = current,
        }
    }
}

/// `child_won` for states `number` and `number + 1` at once (`number`
/// even, so that both are in one word): one atomic operation for the two,
/// a second only if one of them became lost. Returns how many of them
/// became lost.
#[inline]
pub fn child_won_pair(words: &[AtomicU64], number: u64, parity: u32) -> u32 {
    debug_assert!(number.is_multiple_of(2), "a pair starts at an even state");
    let (word, shift) = locate(words, number);
    // Both counts are 1 or more until their last child: no borrow crosses
    // from one byte into the next.
    let old = word.fetch_sub(1 << shift | 1 << (shift + 8), Ordering::Relaxed);
    let first = (old >> shift) as u8 & COUNT_MASK;
    let second = (old >> (shift + 8)) as u8 & COUNT_MASK;
    debug_assert!(
        (1..=MAX_CHILDREN as u8).contains(&first) && (1..=MAX_CHILDREN as u8).contains(&second),
        "states {number}, {}: a child won with {first}, {second} left",
        number + 1
    );
    let lost = (LOST_PENDING + parity as u8) as u64;
    let marks = if first == 1 { lost << shift } else { 0 }
        | if second == 1 { lost << (shift + 8) } else { 0 };
    if marks != 0 {
        word.fetch_add(marks, Ordering::Relaxed);
    }
    (first == 1) as u32 + (second == 1) as u32
}

/// Clears the marks of a state whose updates are sent: won (if `won`) and
/// lost (if `lost`) in the current layer.
#[inline]
pub fn settle(words: &[AtomicU64], number: u64, won: bool, lost: bool) {
    let (word, shift) = locate(words, number);
    let clear = if won { WON_PENDING | PARITY } else { 0 } | if lost { COUNT_MASK } else { 0 };
    word.fetch_and(!((clear as u64) << shift), Ordering::Relaxed);
}

/// Which of the states of a run of `words` (at most 8, so 64 states) were
/// decided in the layer of parity `parity` and not yet sent: bit `i` for
/// the run's `i`-th state. Words past the slice count as no states.
#[inline]
pub fn pending(words: &[AtomicU64], parity: u32) -> u64 {
    debug_assert!(words.len() <= 8);
    let won = WON | WON_PENDING | (parity as u8) << 7;
    let lost = LOST_PENDING + parity as u8;
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    if words.len() == 8 {
        let load = |i: usize| words[i].load(Ordering::Relaxed);
        // SAFETY: the build enables AVX2 for every function (the `cfg`
        // above), so the CPU that runs this code has it.
        return unsafe {
            vector::matching(
                [
                    load(0),
                    load(1),
                    load(2),
                    load(3),
                    load(4),
                    load(5),
                    load(6),
                    load(7),
                ],
                won,
                lost,
            )
        };
    }
    let mut bits = 0u64;
    for (w, word) in words.iter().enumerate() {
        let word = word.load(Ordering::Relaxed);
        for k in 0..PER_WORD {
            let tally = (word >> (8 * k)) as u8;
            let hit = (tally & WON_MASK == won) | (tally & COUNT_MASK == lost);
            bits |= (hit as u64) << (8 * w + k);
        }
    }
    bits
}

/// `pending` on a full run, thirty-two tallies to a vector.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod vector {
    use super::{COUNT_MASK, WON_MASK};
    use std::arch::x86_64::*;

    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn matching(words: [u64; 8], won: u8, lost: u8) -> u64 {
        let splat = |x: u8| _mm256_set1_epi8(x as i8);
        let (mask_won, mask_lost) = (splat(WON_MASK), splat(COUNT_MASK));
        let (want_won, want_lost) = (splat(won), splat(lost));
        let half = |w: &[u64]| {
            let v = _mm256_setr_epi64x(w[0] as i64, w[1] as i64, w[2] as i64, w[3] as i64);
            let a = _mm256_cmpeq_epi8(_mm256_and_si256(v, mask_won), want_won);
            let b = _mm256_cmpeq_epi8(_mm256_and_si256(v, mask_lost), want_lost);
            _mm256_movemask_epi8(_mm256_or_si256(a, b)) as u32 as u64
        };
        half(&words[..4]) | half(&words[4..]) << 32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(tallies: &[u8]) -> Vec<AtomicU64> {
        tallies
            .chunks(PER_WORD)
            .map(|c| {
                let mut bytes = [0u8; 8];
                bytes[..c.len()].copy_from_slice(c);
                AtomicU64::new(u64::from_le_bytes(bytes))
            })
            .collect()
    }

    #[test]
    fn marks_come_and_go_without_disturbing_neighbours() {
        let cells = words(&[3, 1, 2, 29, 5, 1, 1, 7, 2]);
        let before: Vec<u8> = (0..9).map(|n| get(&cells, n)).collect();
        // State 1: won in an odd layer, then its last child won in the even
        // one after.
        assert!(set_won(&cells, 1, 1));
        assert!(!set_won(&cells, 1, 0));
        let t = get(&cells, 1);
        assert!(is_won(t) && won_in(t, 1) && !won_in(t, 0) && !is_lost(t));
        assert!(child_won(&cells, 1, 0));
        let t = get(&cells, 1);
        assert!(is_lost(t) && lost_in(t, 0) && won_in(t, 1));
        assert_eq!(pending(&cells[..1], 1), 1 << 1);
        assert_eq!(pending(&cells[..1], 0), 1 << 1);
        settle(&cells, 1, true, false);
        let t = get(&cells, 1);
        assert!(is_won(t) && !won_in(t, 1) && lost_in(t, 0));
        settle(&cells, 1, false, true);
        let t = get(&cells, 1);
        assert!(is_won(t) && is_lost(t) && !lost_in(t, 0) && !lost_in(t, 1));
        assert_eq!(pending(&cells, 0) | pending(&cells, 1), 0);
        // State 8, in the second word, counts down from 2.
        assert!(!child_won(&cells, 8, 1));
        assert_eq!(children_left(get(&cells, 8)), 1);
        assert!(child_won(&cells, 8, 1));
        assert!(lost_in(get(&cells, 8), 1));
        // The others are as they were.
        for n in [0, 2, 3, 4, 5, 6, 7] {
            assert_eq!(get(&cells, n), before[n as usize], "state {n}");
        }
    }

    /// A pair's operations against the same two on one state at a time,
    /// on every even state of a word, with counts of 1 and more.
    #[test]
    fn pairs_agree_with_one_state_at_a_time() {
        let mut rng = crate::tests::support::Rng::new(0x9a12);
        for _ in 0..2_000 {
            let tallies: Vec<u8> = (0..8)
                .map(|_| {
                    let count = 1 + rng.below(MAX_CHILDREN as u64) as u8;
                    let won = if rng.below(2) == 0 { WON } else { 0 };
                    count | won
                })
                .collect();
            for number in [0, 2, 4, 6] {
                for parity in [0, 1] {
                    let (pairs, singles) = (words(&tallies), words(&tallies));
                    let won = set_won_pair(&pairs, number, parity);
                    let want = set_won(&singles, number, parity) as u32
                        + set_won(&singles, number + 1, parity) as u32;
                    assert_eq!(won, want, "{tallies:?} {number}");
                    let lost = child_won_pair(&pairs, number, parity);
                    let want = child_won(&singles, number, parity) as u32
                        + child_won(&singles, number + 1, parity) as u32;
                    assert_eq!(lost, want, "{tallies:?} {number}");
                    for n in 0..8 {
                        assert_eq!(get(&pairs, n), get(&singles, n), "{tallies:?} {number}");
                    }
                }
            }
        }
    }

    /// The vector test against one tally at a time, on arbitrary bytes.
    #[test]
    fn runs_agree_with_one_tally_at_a_time() {
        let mut rng = crate::tests::support::Rng::new(0x7a11);
        for _ in 0..5_000 {
            let tallies: Vec<u8> = (0..64).map(|_| rng.below(256) as u8).collect();
            let cells = words(&tallies);
            for parity in [0, 1] {
                for len in [8, 7, 1, 0] {
                    let bits = pending(&cells[..len], parity);
                    for (i, &t) in tallies[..8 * len].iter().enumerate() {
                        let want = won_in(t, parity) || lost_in(t, parity);
                        assert_eq!(bits >> i & 1 == 1, want, "tally {t:#x} at {i}");
                    }
                    if len < 8 {
                        assert_eq!(bits >> (8 * len), 0);
                    }
                }
            }
        }
    }
}
