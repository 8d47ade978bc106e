//! A small seeded generator (SplitMix64), the one the crate uses wherever it
//! draws at random: the count's samples of codes, the engine's choice among
//! equally good moves under `--random-seed`, and the tests' random states.
//! The same seed gives the same numbers on every machine.

// A probe-only build (no feature `solver`) draws nothing.
#![cfg_attr(not(feature = "solver"), allow(dead_code))]

/// SplitMix64: tiny, seeded, good enough to sample states and moves.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound > 0`), each as likely.
    pub fn below(&mut self, bound: u64) -> u64 {
        ((self.next_u64() as u128 * bound as u128) >> 64) as u64
    }
}
