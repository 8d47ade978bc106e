//! Facts about the machine and this process, read from the system (Linux):
//! the memory available, the room this process's limits (`ulimit -v`,
//! `ulimit -d`) leave, its peak resident memory, the CPU time it has used,
//! and the free disk of a folder. Each is `None` (or 0) where unknown.

use std::path::Path;

/// Bytes of memory this machine has available now (Linux), if known.
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The peak resident memory of this process so far (Linux), in bytes.
pub fn peak_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = text.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Resets the peak resident memory figure to the current one (Linux), so
/// that several measurements can run in one process.
pub fn reset_peak_memory() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// CPU seconds this process has used (user and system, Linux); 0 if
/// unknown.
pub fn cpu_seconds() -> f64 {
    let Ok(text) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // The command name (field 2) may hold spaces; fields after it are plain.
    let Some(after_name) = text.rsplit_once(')').map(|(_, rest)| rest) else {
        return 0.0;
    };
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // utime and stime are fields 14 and 15, that is 11 and 12 after the name.
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // Linux reports these in clock ticks of 1/100 s.
    (ticks(11) + ticks(12)) / 100.0
}

/// Address space each thread of the solve may take besides the data of the
/// plan: its stack (2 MiB) and the malloc arena glibc reserves for a thread
/// (64 MiB on 64-bit machines), which count against `ulimit -v` although
/// little of them is used.
const THREAD_ADDRESS_SPACE: u64 = 66 << 20;

/// The memory left for a solve or a verification under this process's
/// limits on its address space (`RLIMIT_AS`, `ulimit -v`) and its data
/// (`RLIMIT_DATA`, `ulimit -d`): each limit less what the process already
/// uses of it and the room its threads take (`THREAD_ADDRESS_SPACE` for
/// each core's thread and the main one); `None` without limits.
pub fn limit_room() -> Option<u64> {
    let limit = |resource| {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: `getrlimit` fills the struct it is given.
        let read = unsafe { libc::getrlimit(resource, &mut limit) } == 0;
        (read && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur)
    };
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let used = |field: &str| -> u64 {
        status
            .lines()
            .find_map(|line| line.strip_prefix(field))
            .and_then(|rest| rest.split_whitespace().next()?.parse::<u64>().ok())
            .map_or(0, |kib| kib * 1024)
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64 + 1;
    let overhead = threads * THREAD_ADDRESS_SPACE;
    let address_space =
        limit(libc::RLIMIT_AS).map(|l| l.saturating_sub(used("VmSize:") + overhead));
    let data = limit(libc::RLIMIT_DATA).map(|l| l.saturating_sub(used("VmData:") + overhead));
    address_space.into_iter().chain(data).min()
}

/// Bytes free for this user on the file system of `folder` (or of its
/// nearest existing ancestor), if known.
pub fn free_disk(folder: &Path) -> Option<u64> {
    let existing = folder.ancestors().find(|p| p.exists())?;
    let path = std::ffi::CString::new(existing.as_os_str().as_encoded_bytes()).ok()?;
    let mut stats = std::mem::MaybeUninit::<libc::statvfs>::uninit();
    // SAFETY: `path` is a NUL-terminated string and `stats` a buffer of the
    // size `statvfs` fills; it is read only if the call succeeds.
    let stats = unsafe {
        if libc::statvfs(path.as_ptr(), stats.as_mut_ptr()) != 0 {
            return None;
        }
        stats.assume_init()
    };
    Some(stats.f_bavail as u64 * stats.f_frsize as u64)
}
