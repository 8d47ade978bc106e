//! Asks Linux to back the largest arrays of the solver and the verifier with
//! 2 MiB pages. The retrograde reads and writes cells and index lines, the
//! verifier its children's halves, at random places of arrays of hundreds of
//! MiB to GiB; with 4 KiB pages nearly each of those accesses also misses
//! the address-translation cache, which huge pages spare
//! (docs/performance.md has the measurement). Systems set to `madvise`
//! (Debian's default) give huge pages only to memory that asks for them, as
//! this module does. Elsewhere, or when the kernel declines, nothing changes
//! but speed.

/// The size of a huge page on x86-64 and most AArch64 Linux systems.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// Advises the kernel that the whole huge pages within `memory` may be huge
/// pages. Call it before the memory is first written, so that it is faulted
/// in that way from the start.
pub fn advise<T>(memory: &[T]) {
    #[cfg(target_os = "linux")]
    {
        let start = memory.as_ptr() as usize;
        let end = start + std::mem::size_of_val(memory);
        let first = start.next_multiple_of(HUGE_PAGE);
        let last = end / HUGE_PAGE * HUGE_PAGE;
        if last > first {
            // SAFETY: MADV_HUGEPAGE changes neither the contents nor the
            // mapping of [first, last), which lies within `memory`: only how
            // the kernel backs it. A failure is only a lost hint.
            let result = unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                )
            };
            if result != 0 {
                log::debug!(
                    "huge pages declined for {} MiB: {}",
                    (last - first) >> 20,
                    std::io::Error::last_os_error()
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = memory;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advice_before_and_after_writing_changes_no_contents() {
        // Three huge pages' worth, not aligned to one: the advice covers the
        // whole pages inside, and every value stays as written.
        let mut cells: Vec<u32> = Vec::with_capacity((6 << 20) / 4 + 17);
        advise(cells.spare_capacity_mut());
        cells.extend((0..(6 << 20) / 4 + 17).map(|i| i as u32 ^ 0x5a5a));
        advise(&cells);
        assert!(cells
            .iter()
            .enumerate()
            .all(|(i, &cell)| cell == i as u32 ^ 0x5a5a));
        advise::<u8>(&[]);
    }
}
