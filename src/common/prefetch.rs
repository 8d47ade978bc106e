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
    prefetch_address(value as *const T);
}

/// Asks for the cache line of `slice[i]`, with no bounds check: the hot
/// loops ask for thousands of lines per layer, and an index past the end
/// only makes the hint useless, since a prefetch cannot fault.
#[inline(always)]
pub fn prefetch_element<T>(slice: &[T], i: usize) {
    prefetch_address(slice.as_ptr().wrapping_add(i));
}

#[inline(always)]
fn prefetch_address<T>(address: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` is only a hint: it reads no memory the program
    // observes and cannot fault, whatever the address. It needs SSE, which
    // every x86-64 processor has.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(address as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}
