//! The tables shipped in `tablebases/` and built into the binary (see
//! `build.rs`), so that `smallgo` works from any folder.

include!(concat!(env!("OUT_DIR"), "/built_in_tables.rs"));

/// The built-in tables: board name (`RxC`) and file bytes.
pub fn tables() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    BUILT_IN_TABLES.iter().copied()
}
