//! Benson's fixed point, the part of his test of unconditional life that
//! needs no board: strings and the regions around them as bit masks of
//! string numbers. Callers find the strings, the regions, which strings each
//! region borders and for which it is healthy (every empty point of it a
//! liberty of the string); this keeps the strings with two healthy regions
//! among the regions whose bordering strings are all kept, until nothing
//! changes.

/// The strings (bit `s` for string `s`) unconditionally alive, of
/// `string_count` strings and `region_count` regions: `healthy[r]` the
/// strings region `r` is healthy for, `borders[r]` the strings it touches.
pub fn alive_strings(
    string_count: usize,
    region_count: usize,
    healthy: &[u64],
    borders: &[u64],
) -> u64 {
    let all = |count: usize| {
        if count >= 64 {
            u64::MAX
        } else {
            (1u64 << count) - 1
        }
    };
    let mut alive = all(string_count);
    let mut live_regions = all(region_count);
    loop {
        // Each string's healthy regions among the regions left.
        let (mut once, mut twice) = (0u64, 0u64);
        let mut left = live_regions;
        while left != 0 {
            let r = left.trailing_zeros() as usize;
            left &= left - 1;
            twice |= once & healthy[r];
            once |= healthy[r];
        }
        let kept = alive & twice;
        let mut regions_kept = live_regions;
        let mut left = live_regions;
        while left != 0 {
            let r = left.trailing_zeros() as usize;
            left &= left - 1;
            if borders[r] & !kept != 0 {
                regions_kept &= !(1 << r);
            }
        }
        if kept == alive && regions_kept == live_regions {
            return alive;
        }
        alive = kept;
        live_regions = regions_kept;
    }
}
