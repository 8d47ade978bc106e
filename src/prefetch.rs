//! A hint to the processor that a value will be read soon, so that its cache
//! line is on its way while other work goes on. The solver's hot loops read
//! index lines and cells at random places of arrays far larger than the
//! cache; asking for them early lets those misses overlap with computing.
//! This is the crate's one use of a processor intrinsic, and where there is
//! none (outside x86-64) the hint does nothing.

/// Asks for the cache line holding `value`. Never faults and changes
/// nothing the program can observe.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` is only a hint: it reads no memory the program
    // observes and cannot fault, whatever the address (here a valid
    // reference in any case). It needs SSE, which every x86-64 processor has.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            value as *const T as *const i8,
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
