//! Embeds the shipped tables (`tablebases/*.sgtb`) into the binary, so that
//! `smallgo` plays from any folder. Generates a list of `include_bytes!` for
//! the files present; no files is fine (an engine without built-in tables).

use std::env;
use std::fs;
use std::path::PathBuf;

fn main() {
    let manifest_dir =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let folder = manifest_dir.join("tablebases");
    println!("cargo:rerun-if-changed={}", folder.display());
    let mut tables: Vec<(String, PathBuf)> = fs::read_dir(&folder)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|path| path.extension().is_some_and(|e| e == "sgtb"))
                .filter_map(|path| {
                    let board = path.file_stem()?.to_str()?.to_string();
                    Some((board, path))
                })
                .collect()
        })
        .unwrap_or_default();
    tables.sort();
    let mut code =
        String::from("/// The tables built into the binary: (board name, file bytes).\n");
    code.push_str("pub static BUILT_IN_TABLES: &[(&str, &[u8])] = &[\n");
    for (board, path) in &tables {
        code.push_str(&format!(
            "    ({board:?}, include_bytes!({:?})),\n",
            path.display().to_string()
        ));
    }
    code.push_str("];\n");
    let out =
        PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("built_in_tables.rs");
    fs::write(out, code).expect("writing to OUT_DIR");
}
