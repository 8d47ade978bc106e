//! Files written whole or not at all, below every layer that writes them
//! (tables, checkpoints, manifests): the temporary name a file is written
//! under, its atomic rename into place, the clean-up of temporaries that a
//! killed process left behind, and the test for a regular file; and the
//! two ends of a user's own files: `open_for_reading`, the one way smallgo
//! opens a file it reads as input (never blocking on a FIFO or a device),
//! and `write_output`, the one way it writes a file a user named.
//!
//! Temporary files are named `.NAME.tmp.PID`. The ones this process has
//! open are listed, so that a second Ctrl-C can remove them before it exits
//! (`remove_live_temporaries`). A process that dies unasked (`kill -9`, a
//! folder that turned read-only) leaves its own; the next build in the
//! folder removes those of processes that are gone
//! (`remove_stale_temporaries`), and never those of a live process.
//!
//! Without the feature `solver` nothing in the crate writes files, and the
//! writing half (`replace_atomically`) goes unused.

// A probe-only build (no feature `solver`) leaves the temporaries and checks that only builds use unused.
#![cfg_attr(not(feature = "solver"), allow(dead_code, unused_imports))]

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Read};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// How a table's file name ends (`table::format::EXTENSION`, checked in
/// the tests): the temporaries of tables are recognised by it.
const TABLE_SUFFIX: &str = ".sgtb";
/// What temporary names end with before the process id.
const TEMPORARY_MARK: &str = ".tmp.";
/// The probe file `build::check_folder` writes, before the process id.
const WRITE_TEST_PREFIX: &str = ".smallgo-write-test.";

/// The temporary name a file is written under before it is renamed: hidden,
/// in the same folder, unique to this process.
#[cfg_attr(not(feature = "solver"), allow(dead_code))]
pub(crate) fn temporary_path(path: &Path) -> PathBuf {
    let folder = path.parent().unwrap_or(Path::new(""));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    folder.join(format!(".{name}{TEMPORARY_MARK}{}", std::process::id()))
}

/// The name of the file that shows whether a folder takes new files.
pub fn write_test_path(folder: &Path) -> PathBuf {
    folder.join(format!("{WRITE_TEST_PREFIX}{}", std::process::id()))
}

/// The temporary files this process has created and not yet renamed or
/// removed.
static LIVE_TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn live_temporaries() -> MutexGuard<'static, Vec<PathBuf>> {
    LIVE_TEMPORARIES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Removes this process's temporary files now, for a process about to exit
/// on the spot. While the returned guard is held no new temporary file is
/// created, so a caller that exits holding it leaves none behind.
pub fn remove_live_temporaries() -> MutexGuard<'static, Vec<PathBuf>> {
    let mut live = live_temporaries();
    for path in live.drain(..) {
        let _ = fs::remove_file(path);
    }
    live
}

/// The process id in a temporary name smallgo writes in a table folder or
/// a build's working folder: `.RxC.sgtb.tmp.PID` (tables),
/// `.checkpoint.tmp.PID`, `.manifest.tsv.tmp.PID`,
/// `.smallgo-write-test.PID`.
fn temporary_owner(name: &str) -> Option<u32> {
    let digits = |text: &str| {
        (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
            .then(|| text.parse().ok())
            .flatten()
    };
    if let Some(pid) = name.strip_prefix(WRITE_TEST_PREFIX) {
        return digits(pid);
    }
    let (base, pid) = name.strip_prefix('.')?.rsplit_once(TEMPORARY_MARK)?;
    let ours = base == "manifest.tsv" || base == "checkpoint" || base.ends_with(TABLE_SUFFIX);
    ours.then(|| digits(pid)).flatten()
}

/// Removes the temporary files that processes now gone left in `folder`
/// (see `temporary_owner` for the names), logging each. A process is gone
/// when `/proc` has no entry for it; where there is no `/proc` nothing is
/// removed. This process's own names are left alone. Returns the files
/// removed.
pub fn remove_stale_temporaries(folder: &Path) -> Vec<PathBuf> {
    let processes = Path::new("/proc");
    if !processes.join("self").exists() {
        return Vec::new();
    }
    let Ok(entries) = fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(temporary_owner) else {
            continue;
        };
        if pid == std::process::id() || processes.join(pid.to_string()).exists() {
            continue;
        }
        let path = entry.path();
        match fs::remove_file(&path) {
            Ok(()) => {
                log::warn!(
                    "removed stale temporary {} (process {pid} is gone)",
                    path.display()
                );
                removed.push(path);
            }
            Err(error) => log::warn!(
                "cannot remove stale temporary {} (process {pid} is gone): {error}",
                path.display()
            ),
        }
    }
    removed
}

/// Makes a rename durable.
#[cfg_attr(not(feature = "solver"), allow(dead_code))]
fn sync_folder(path: &Path) {
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if let Ok(dir) = File::open(folder) {
        let _ = dir.sync_all();
    }
}

/// Writes `path` atomically. `fill` writes the contents into a temporary
/// file in the same folder; the file is flushed to disk and renamed over
/// `path`, unless `fill` gives `None` or `cancelled` says stop by then. On
/// an error or a stop the temporary file is removed and `path` is left as
/// it was.
#[cfg_attr(not(feature = "solver"), allow(dead_code))]
pub(crate) fn replace_atomically<T>(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<Option<T>>,
    cancelled: &dyn Fn() -> bool,
) -> std::io::Result<Option<T>> {
    let temporary = temporary_path(path);
    let result = (|| {
        let file = {
            let mut live = live_temporaries();
            let file = OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .open(&temporary)?;
            live.push(temporary.clone());
            file
        };
        let mut out = BufWriter::new(file);
        let Some(made) = fill(&mut out)? else {
            return Ok(None);
        };
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        if cancelled() {
            return Ok(None);
        }
        fs::rename(&temporary, path)?;
        sync_folder(path);
        Ok(Some(made))
    })();
    let mut live = live_temporaries();
    if let Some(at) = live.iter().position(|p| *p == temporary) {
        live.swap_remove(at);
        if !matches!(result, Ok(Some(_))) {
            if let Err(error) = fs::remove_file(&temporary) {
                log::warn!(
                    "cannot remove temporary {}: {error}; the next build in that folder removes it",
                    temporary.display()
                );
            }
        }
    }
    result
}

/// Opens `path` for reading, if it is a regular file (symbolic links
/// followed); anything else is refused with an error that says what it is
/// (`a FIFO, not a regular file`), the caller naming the path. Every file
/// smallgo reads as input (a game, a count's progress) is opened here, so
/// that none can block: the file is opened with `O_NONBLOCK` (opening a
/// FIFO that has no writer would wait for one), its type is checked on the
/// open file (so it cannot change in between), and only then is
/// `O_NONBLOCK` cleared again for the reads.
pub(crate) fn open_for_reading(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let file_type = file.metadata()?.file_type();
    if !file_type.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}, not a regular file", kind_of(file_type)),
        ));
    }
    #[cfg(unix)]
    set_blocking(&file)?;
    Ok(file)
}

/// Clears `O_NONBLOCK` on an open file.
#[cfg(unix)]
fn set_blocking(file: &File) -> io::Result<()> {
    use std::os::unix::io::AsRawFd;
    let fd = file.as_raw_fd();
    // SAFETY: fcntl on a descriptor this process owns, with flags only.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Reads the whole of `path`, opened by `open_for_reading`, if it holds at
/// most `limit` bytes; a larger file is refused without being read, and a
/// file that grows while it is read is cut off at `limit + 1` bytes and
/// refused, so memory stays bounded whatever the file.
pub(crate) fn read_bounded(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = open_for_reading(path)?;
    let too_large = || {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than the {limit} bytes allowed"),
        )
    };
    let length = file.metadata()?.len();
    if length > limit {
        return Err(too_large());
    }
    let mut bytes = Vec::with_capacity(length as usize);
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// Writes `bytes` to the output file `path` that a user named (a game, a
/// review), as the user means it:
///
/// - a new name, or a regular file (through any symbolic links), is
///   written whole or not at all: a temporary file beside the file the
///   links lead to, flushed, then renamed over it, so that a symbolic link
///   stays a link and its target gets the new text (a link to a name that
///   does not exist yet creates that name);
/// - a character device (`/dev/null`, a terminal) or a FIFO with a reader
///   is written in place, as a shell's `>` would: there is nothing to
///   replace, and replacing `/dev/null` with a plain file would break the
///   system;
/// - a name in `/dev` or `/proc` that leads to a regular file
///   (`/dev/stdout` redirected to a file, `/dev/fd/N`) names a file some
///   process has open, not one to replace: the file this process's
///   standard output or error is gets the text through that stream, in
///   order with the rest of it; another is appended to;
/// - a FIFO without a reader (it would block), a block device, a socket or
///   a folder is refused, with an error that says what it is.
///
/// On an error a regular file is left as it was.
#[cfg_attr(not(feature = "solver"), allow(dead_code))]
pub(crate) fn write_output(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let target = match fs::metadata(path) {
        Ok(metadata) if !metadata.is_file() || names_an_open_file(path) => {
            return write_in_place(path, metadata.file_type(), bytes)
        }
        _ => replaced_path(path)?,
    };
    replace_atomically(
        &target,
        |out| {
            use std::io::Write;
            out.write_all(bytes).map(Some)
        },
        &|| false,
    )
    .map(|_| ())
}

/// The file that writing `path` whole should rename over, symbolic links
/// followed so that they stay links: the regular file they lead to, or the
/// new name the last one gives (`path` itself when it is a new name and no
/// link); anything else is refused with what it is.
#[cfg_attr(not(feature = "solver"), allow(dead_code))]
pub(crate) fn replaced_path(path: &Path) -> io::Result<PathBuf> {
    match fs::metadata(path) {
        Ok(metadata) if metadata.is_file() => fs::canonicalize(path),
        Ok(metadata) => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}, not a regular file", kind_of(metadata.file_type())),
        )),
        Err(error) if error.kind() == io::ErrorKind::NotFound => link_destination(path),
        Err(error) => Err(error),
    }
}

/// Where the symbolic links at `path` lead, when the last one names a file
/// that does not exist; `path` itself when it is not a link.
fn link_destination(path: &Path) -> io::Result<PathBuf> {
    let mut at = path.to_path_buf();
    // As many links as Linux follows.
    for _ in 0..40 {
        match fs::symlink_metadata(&at) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let target = fs::read_link(&at)?;
                at = match at.parent() {
                    Some(folder) => folder.join(target),
                    None => target,
                };
            }
            _ => return Ok(at),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        "too many levels of symbolic links",
    ))
}

/// Whether `path` is in `/dev` or `/proc`, where the names of regular
/// files are links to files that processes have open.
fn names_an_open_file(path: &Path) -> bool {
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    fs::canonicalize(folder)
        .is_ok_and(|folder| folder.starts_with("/dev") || folder.starts_with("/proc"))
}

/// Writes an output in place, if it is one that takes writing so (see
/// `write_output`): a regular file is appended to.
fn write_in_place(path: &Path, file_type: fs::FileType, bytes: &[u8]) -> io::Result<()> {
    let refuse = |file_type: fs::FileType| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{}, not a regular file: smallgo writes only files, character devices and FIFOs being read",
                kind_of(file_type)
            ),
        )
    };
    #[cfg(unix)]
    {
        use std::io::Write;
        use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
        let takes = |file_type: fs::FileType| {
            file_type.is_char_device() || file_type.is_fifo() || file_type.is_file()
        };
        if !takes(file_type) {
            return Err(refuse(file_type));
        }
        // Without blocking: a FIFO nobody reads fails at once (ENXIO).
        let mut file = match OpenOptions::new()
            .append(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)
        {
            Ok(file) => file,
            Err(error) if error.raw_os_error() == Some(libc::ENXIO) => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "a FIFO that nobody reads",
                ))
            }
            Err(error) => return Err(error),
        };
        let file_type = file.metadata()?.file_type();
        if !takes(file_type) {
            return Err(refuse(file_type));
        }
        set_blocking(&file)?;
        if file_type.is_file() {
            use std::os::unix::fs::MetadataExt;
            let opened = file.metadata()?;
            let same = |stream: &dyn std::os::unix::io::AsFd| {
                stream
                    .as_fd()
                    .try_clone_to_owned()
                    .map(File::from)
                    .and_then(|stream| stream.metadata())
                    .is_ok_and(|m| (m.dev(), m.ino()) == (opened.dev(), opened.ino()))
            };
            if same(&io::stdout()) {
                let mut out = io::stdout().lock();
                out.write_all(bytes)?;
                return out.flush();
            }
            if same(&io::stderr()) {
                let mut out = io::stderr().lock();
                out.write_all(bytes)?;
                return out.flush();
            }
        }
        file.write_all(bytes)?;
        file.flush()
    }
    #[cfg(not(unix))]
    {
        let _ = (path, bytes);
        Err(refuse(file_type))
    }
}

/// What kind of file `file_type` is, for messages.
pub(crate) fn kind_of(file_type: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

/// Why `path` is not a regular file (symbolic links followed), as
/// `open_regular` says it: `a FIFO, not a regular file`; `None` for a
/// regular file or one that cannot be looked at.
pub fn not_regular(path: &Path) -> Option<String> {
    let file_type = std::fs::metadata(path).ok()?.file_type();
    (!file_type.is_file()).then(|| format!("{}, not a regular file", kind_of(file_type)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_temporaries_are_known_by_the_table_extension() {
        assert_eq!(
            TABLE_SUFFIX,
            format!(".{}", crate::table::format::EXTENSION)
        );
    }

    #[test]
    fn temporary_names_give_their_owner() {
        for (name, owner) in [
            (".3x4.sgtb.tmp.123", Some(123)),
            (".3x4.v2.sgtb.tmp.7", Some(7)),
            (".checkpoint.tmp.45", Some(45)),
            (".3x4.sgtb.checkpoint.tmp.45", None),
            (".manifest.tsv.tmp.9", Some(9)),
            (".smallgo-write-test.88", Some(88)),
            ("3x4.sgtb.tmp.123", None),
            (".3x4.sgtb.tmp.", None),
            (".3x4.sgtb.tmp.12a", None),
            (".3x4.sgtb.tmp.99999999999", None),
            (".notes.txt.tmp.5", None),
            (".smallgo-write-test.", None),
            ("3x4.sgtb", None),
        ] {
            assert_eq!(temporary_owner(name), owner, "{name}");
        }
        let temporary = temporary_path(Path::new("d/3x4.sgtb.work/checkpoint"));
        let name = temporary.file_name().unwrap().to_str().unwrap();
        assert_eq!(temporary_owner(name), Some(std::process::id()));
        let probe = write_test_path(Path::new("d"));
        let name = probe.file_name().unwrap().to_str().unwrap();
        assert_eq!(temporary_owner(name), Some(std::process::id()));
    }
}
