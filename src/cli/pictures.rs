//! Pictures an analysis writes into the folder of its `--svg-dir`: the
//! folder made if missing, then each picture written whole or not at all
//! (`common::files::write_output`), after every one of them is drawn, so
//! that a drawing that fails writes nothing.

use std::path::{Path, PathBuf};

/// Writes each `(name, svg)` of `pictures` as `folder/name`; the paths
/// written, or an error naming the folder or file at fault.
pub(crate) fn write_all(
    folder: &Path,
    pictures: &[(String, String)],
) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(folder)
        .map_err(|error| format!("--svg-dir {}: {error}", folder.display()))?;
    let mut written = Vec::with_capacity(pictures.len());
    for (name, svg) in pictures {
        let path = folder.join(name);
        crate::common::files::write_output(&path, svg.as_bytes())
            .map_err(|error| format!("cannot write {}: {error}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}
