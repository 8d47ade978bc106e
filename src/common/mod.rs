//! What every layer may stand on and none owns: files written whole or not
//! at all and a user's files read safely (`files`), facts about the machine
//! and this process (`host`), figures for people (`units`), the seeded
//! generator (`random`), and the memory helpers of the solver's large
//! arrays (`prefetch`, `huge_pages`). Each file is a module of its own in
//! the layers of docs/architecture.md; none imports another part of the
//! crate.

pub(crate) mod files;
#[cfg(feature = "solver")]
pub(crate) mod host;
#[cfg(feature = "solver")]
pub(crate) mod huge_pages;
#[cfg(feature = "solver")]
pub(crate) mod prefetch;
pub(crate) mod random;
#[cfg(feature = "solver")]
pub(crate) mod units;
