//! Two pieces of work at once: `both` runs one on a scoped thread beside
//! the caller's, and hands a panic on either side on to the caller.

/// Runs `beside` on a new scoped thread while this one runs `here`, and
/// returns both results once both are done; a panic on the other thread
/// is resumed here.
pub(crate) fn both<A: Send, B>(
    beside: impl FnOnce() -> A + Send,
    here: impl FnOnce() -> B,
) -> (A, B) {
    std::thread::scope(|scope| {
        let handle = scope.spawn(beside);
        let mine = here();
        let theirs = handle
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (theirs, mine)
    })
}
