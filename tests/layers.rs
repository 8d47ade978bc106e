//! The layers of the source tree: every `crate::` path in `src/` must name a
//! module that docs/architecture.md's "may import" column allows for the
//! file's own folder or file, so that the table stays true and dependencies
//! keep flowing one way.
//!
//! The table is read from the doc itself: each row's first column names its
//! modules (`src/rules/`, `src/symmetry.rs`), its last one what they may
//! import, as module names or the doc's phrases (`nothing else`, `the memory
//! helpers`, `everything below`: every row above, `everything`). A module
//! always imports from itself. Test code is exempt: `src/tests/`, a file
//! its folder declares for tests only (`#[cfg(test)] mod tests;`), and in
//! any file a `#[cfg(test)]` module or item. Comments are not read, so a doc
//! comment may name any path.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A module of the crate's root: `rules` for `src/rules/` and every file in
/// it, `sgf` for `src/sgf.rs`; the files of `src/common/` are modules of
/// their own, `files` for `src/common/files.rs`.
type Module = String;

/// The folder whose files are each a module of the table (`COMMON/files.rs`
/// is `files`, imported as `crate::common::files`), since what they may
/// import differs from one to the next.
const COMMON: &str = "common";

/// The modules of one row of the table, what they may import, in table order.
struct Row {
    modules: Vec<Module>,
    may_import: BTreeSet<Module>,
}

/// Reads the "may import" table of docs/architecture.md: the first table of
/// the doc, whose header's last column is `may import`.
fn read_table(doc: &str) -> Vec<Row> {
    let mut lines = doc
        .lines()
        .skip_while(|line| !line.ends_with("| may import |"));
    assert!(
        lines.next().is_some(),
        "docs/architecture.md has no 'may import' table"
    );
    let mut rows: Vec<Row> = Vec::new();
    for line in lines.skip(1).take_while(|line| line.starts_with('|')) {
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
        assert!(
            cells.len() >= 3,
            "docs/architecture.md: a row without three columns: {line}"
        );
        // `src/main.rs` is the binary, which reaches the library as `smallgo::`.
        let modules = modules_named(cells[0]);
        if modules.is_empty() {
            continue;
        }
        let earlier: BTreeSet<Module> = rows
            .iter()
            .flat_map(|row| row.modules.iter().cloned())
            .collect();
        let mut may_import = BTreeSet::new();
        for item in cells[cells.len() - 1].split(", ") {
            match item {
                "nothing else" => {}
                "everything" => {
                    may_import.insert("*".to_string());
                }
                "everything below" => may_import.extend(earlier.iter().cloned()),
                "the memory helpers" => {
                    may_import.extend(["prefetch".to_string(), "huge_pages".to_string()])
                }
                "the table format's rules name" => {
                    may_import.insert("table".to_string());
                }
                name if name.chars().all(|c| c.is_ascii_lowercase() || c == '_') => {
                    may_import.insert(name.to_string());
                }
                other => {
                    panic!("docs/architecture.md: '{other}' in a 'may import' cell names no module")
                }
            }
        }
        rows.push(Row {
            modules,
            may_import,
        });
    }
    let known: BTreeSet<&str> = rows
        .iter()
        .flat_map(|row| &row.modules)
        .map(String::as_str)
        .collect();
    for row in &rows {
        for name in &row.may_import {
            assert!(
                name == "*" || known.contains(name.as_str()),
                "docs/architecture.md: '{name}' in a 'may import' cell is no row's module"
            );
        }
    }
    rows
}

/// The modules a first cell names: `src/rules/` is `rules`, `src/sgf.rs` is
/// `sgf`; `src/lib.rs` and `src/main.rs` are not modules of the crate.
fn modules_named(cell: &str) -> Vec<Module> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|path| path.strip_prefix("src/"))
        .map(|path| {
            let path = path
                .strip_prefix(COMMON)
                .and_then(|rest| rest.strip_prefix('/'))
                .unwrap_or(path);
            path.trim_end_matches('/')
                .trim_end_matches(".rs")
                .to_string()
        })
        .filter(|name| name != "lib" && name != "main")
        .collect()
}

/// Every `.rs` file under `folder`.
fn rust_files(folder: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            found.push(path);
        }
    }
}

/// The code lines of a file outside its test code, with their line numbers:
/// comments dropped, and a `#[cfg(test)]` or `#[cfg(all(test, ...))]` item
/// skipped whole (a module up to its closing brace at its own indentation, or
/// one line).
fn code_lines(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut code = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let trimmed = lines[i].trim_start();
        if trimmed.starts_with("#[cfg(test)]") || trimmed.starts_with("#[cfg(all(test") {
            let mut j = i + 1;
            while j < lines.len() && lines[j].trim_start().starts_with("#[") {
                j += 1;
            }
            if j < lines.len() && lines[j].trim_end().ends_with('{') {
                let indent = &lines[j][..lines[j].len() - lines[j].trim_start().len()];
                let close = format!("{indent}}}");
                while j < lines.len() && lines[j].trim_end() != close {
                    j += 1;
                }
            }
            i = j + 1;
            continue;
        }
        let without_comment = match lines[i].find("//") {
            Some(at) => &lines[i][..at],
            None => lines[i],
        };
        code.push((i + 1, without_comment.to_string()));
        i += 1;
    }
    code
}

/// The root modules a line of code names through `crate::`: `crate::rules::board`
/// names `rules`, `crate::{files, index::code}` names `files` and `index`.
fn crate_paths(line: &str) -> Vec<Module> {
    let mut names = Vec::new();
    for (at, _) in line.match_indices("crate::") {
        if line[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &line[at + "crate::".len()..];
        let rest = rest
            .strip_prefix(COMMON)
            .and_then(|rest| rest.strip_prefix("::"))
            .unwrap_or(rest);
        if let Some(group) = rest.strip_prefix('{') {
            let group = group.split('}').next().unwrap_or("");
            names.extend(group.split(',').map(|item| first_segment(item.trim())));
        } else {
            names.push(first_segment(rest));
        }
    }
    names.retain(|name| !name.is_empty());
    names
}

fn first_segment(path: &str) -> Module {
    path.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// Every import in `src/` (its tests aside) that the table does not allow,
/// as `file:line: crate::module`.
fn violations(root: &Path, rows: &[Row]) -> Vec<String> {
    let mut allowed: BTreeMap<&str, &BTreeSet<Module>> = BTreeMap::new();
    for row in rows {
        for module in &row.modules {
            allowed.insert(module, &row.may_import);
        }
    }
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    files.sort();
    let mut found = Vec::new();
    for file in files {
        let relative = file
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let inside = relative.strip_prefix("src/").unwrap();
        let inside = match inside.strip_prefix(COMMON) {
            Some("/mod.rs") => continue,
            Some(rest) => rest.trim_start_matches('/'),
            None => inside,
        };
        let module = first_segment(inside.trim_end_matches(".rs"));
        if module == "lib" || module == "main" || module == "tests" {
            continue;
        }
        let Some(may_import) = allowed.get(module.as_str()) else {
            found.push(format!(
                "{relative}: its module '{module}' has no row in docs/architecture.md"
            ));
            continue;
        };
        if declared_for_tests(&file) {
            continue;
        }
        let text = fs::read_to_string(&file).unwrap();
        for (number, line) in code_lines(&text) {
            for imported in crate_paths(&line) {
                if imported != module
                    && !may_import.contains(&imported)
                    && !may_import.contains("*")
                {
                    found.push(format!("{relative}:{number}: imports crate::{imported}"));
                }
            }
        }
    }
    found
}

/// Whether `file` is a module that its folder's `mod.rs` declares for
/// tests only (`#[cfg(test)] mod tests;`): all of it is test code.
fn declared_for_tests(file: &Path) -> bool {
    let (Some(folder), Some(name)) = (file.parent(), file.file_stem()) else {
        return false;
    };
    let Ok(parent) = fs::read_to_string(folder.join("mod.rs")) else {
        return false;
    };
    let declaration = format!("mod {};", name.to_string_lossy());
    let lines: Vec<&str> = parent.lines().map(str::trim).collect();
    lines.iter().enumerate().any(|(i, line)| {
        line.ends_with(&declaration)
            && i > 0
            && (lines[i - 1].starts_with("#[cfg(test)]")
                || lines[i - 1].starts_with("#[cfg(all(test"))
    })
}

#[test]
fn every_import_in_src_keeps_to_the_layers_of_docs_architecture() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = fs::read_to_string(root.join("docs/architecture.md")).unwrap();
    let rows = read_table(&doc);
    let found = violations(root, &rows);
    assert!(
        found.is_empty(),
        "imports that docs/architecture.md's 'may import' column does not allow:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_sees_an_import_against_the_table() {
    let doc = "| folder or file | owns | may import |\n|---|---|---|\n\
               | `src/rules/` | the rules | nothing else |\n\
               | `src/prefetch.rs`, `src/huge_pages.rs` | memory | nothing else |\n\
               | `src/index/` | numbering | rules, the memory helpers |\n\
               | `src/gtp/` | the engine | everything below |\n";
    let rows = read_table(doc);
    let allowed = |module: &str, imported: &str| {
        rows.iter()
            .find(|row| row.modules.iter().any(|m| m == module))
            .is_some_and(|row| row.may_import.contains(imported))
    };
    assert!(allowed("index", "rules"));
    assert!(allowed("index", "huge_pages"));
    assert!(!allowed("rules", "index"));
    assert!(!allowed("index", "gtp"));
    assert!(allowed("gtp", "index") && allowed("gtp", "prefetch"));
    let line = "use crate::{files, index::code::Code}; let x = crate::rules::board::MAX;";
    assert_eq!(crate_paths(line), ["files", "index", "rules"]);
    assert!(crate_paths("use smallgo_crate::x;").is_empty());
    let text = "use crate::rules::board::Board; // crate::gtp\n\
                #[cfg(test)]\nmod tests {\n    use crate::gtp::Engine;\n}\n\
                #[cfg(test)]\nuse crate::testing::random_state;\n\
                fn f() { crate::index::code::canonical(); }\n";
    let lines = code_lines(text);
    let named: Vec<Module> = lines
        .iter()
        .flat_map(|(_, line)| crate_paths(line))
        .collect();
    assert_eq!(named, ["rules", "index"]);
    assert_eq!(lines.last().unwrap().0, 8);
}
