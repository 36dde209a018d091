//! How much memory the process uses, so tables can be sized to keep the whole process under
//! the manager's `max_memory`.

/// The process's current virtual size in bytes (Linux `/proc`), or a conservative guess
/// elsewhere. Virtual, not resident: GomocupJudge measures the virtual size.
pub fn process_bytes() -> u64 {
    read_status_field("VmSize:").unwrap_or(FALLBACK_FOOTPRINT)
}

/// The process's peak resident size in bytes, when the platform tells.
pub fn peak_resident_bytes() -> Option<u64> {
    read_status_field("VmHWM:")
}

/// The machine's memory in bytes (Linux `/proc/meminfo`), when the platform tells.
pub fn physical_bytes() -> Option<u64> {
    status_field(&std::fs::read_to_string("/proc/meminfo").ok()?, "MemTotal:")
}

/// Assumed footprint where `/proc` is missing (Windows): binary, stacks and heap.
const FALLBACK_FOOTPRINT: u64 = 24 << 20;

fn read_status_field(name: &str) -> Option<u64> {
    status_field(&std::fs::read_to_string("/proc/self/status").ok()?, name)
}

/// A size field (`VmSize:`, `VmRSS:`, …) of a `/proc/PID/status` text, in bytes.
pub fn status_field(status: &str, name: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line[name.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}
