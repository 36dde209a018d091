//! How much memory an engine uses: `/proc/PID/status` (`VmSize`, `VmRSS`) of the engine
//! process and of every process it started, summed, as GomocupJudge sums psutil's
//! `memory_info()` over `children(recursive=True)`. Linux only; elsewhere nothing is measured.

use quinto::memory::status_field;
use std::collections::HashMap;
use std::fs;

/// One measurement, in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// Virtual size (`VmSize`): what GomocupJudge compares with `max_memory`.
    pub vms: u64,
    /// Resident size (`VmRSS`).
    pub rss: u64,
}

impl Memory {
    /// The larger of each field.
    pub fn max(self, other: Memory) -> Memory {
        Memory {
            vms: self.vms.max(other.vms),
            rss: self.rss.max(other.rss),
        }
    }
}

/// Which figure `--max-memory` is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryKind {
    Vms,
    Rss,
}

impl MemoryKind {
    pub fn of(self, memory: Memory) -> u64 {
        match self {
            MemoryKind::Vms => memory.vms,
            MemoryKind::Rss => memory.rss,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            MemoryKind::Vms => "VmSize",
            MemoryKind::Rss => "VmRSS",
        }
    }
}

/// The memory of `pid` and all its descendants, or `None` when `/proc` does not know the
/// process (gone, or not Linux).
pub fn tree_memory(pid: u32) -> Option<Memory> {
    let mut total = process_memory(pid)?;
    for child in descendants(pid) {
        if let Some(m) = process_memory(child) {
            total.vms += m.vms;
            total.rss += m.rss;
        }
    }
    Some(total)
}

/// One process's `VmSize` and `VmRSS` (a zombie has neither: zero).
pub fn process_memory(pid: u32) -> Option<Memory> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    Some(Memory {
        vms: status_field(&status, "VmSize:").unwrap_or(0),
        rss: status_field(&status, "VmRSS:").unwrap_or(0),
    })
}

/// Every process below `pid` (children, grandchildren, …). Uses the kernel's
/// `/proc/PID/task/TID/children` lists when they exist, else scans `/proc/*/stat`.
pub fn descendants(pid: u32) -> Vec<u32> {
    let mut found = Vec::new();
    match children_from_tasks(pid) {
        Some(direct) => {
            let mut queue = direct;
            while let Some(p) = queue.pop() {
                if found.contains(&p) {
                    continue;
                }
                found.push(p);
                if let Some(more) = children_from_tasks(p) {
                    queue.extend(more);
                }
            }
        }
        None => {
            let parents = parent_map();
            let mut queue = vec![pid];
            while let Some(p) = queue.pop() {
                if let Some(kids) = parents.get(&p) {
                    for &k in kids {
                        if !found.contains(&k) && k != pid {
                            found.push(k);
                            queue.push(k);
                        }
                    }
                }
            }
        }
    }
    found.sort_unstable();
    found
}

/// Direct children of `pid` from the per-thread `children` files, or `None` when the kernel
/// does not provide them (built without `CONFIG_PROC_CHILDREN`).
fn children_from_tasks(pid: u32) -> Option<Vec<u32>> {
    let tasks = fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    let mut kids = Vec::new();
    let mut any = false;
    for task in tasks.flatten() {
        let path = task.path().join("children");
        if let Ok(text) = fs::read_to_string(&path) {
            any = true;
            kids.extend(
                text.split_whitespace()
                    .filter_map(|t| t.parse::<u32>().ok()),
            );
        }
    }
    if any {
        Some(kids)
    } else {
        None
    }
}

/// Parent → children over every process in `/proc`.
fn parent_map() -> HashMap<u32, Vec<u32>> {
    let mut map: HashMap<u32, Vec<u32>> = HashMap::new();
    let entries = match fs::read_dir("/proc") {
        Ok(e) => e,
        Err(_) => return map,
    };
    for entry in entries.flatten() {
        let pid: u32 = match entry.file_name().to_str().and_then(|n| n.parse().ok()) {
            Some(p) => p,
            None => continue,
        };
        if let Ok(stat) = fs::read_to_string(entry.path().join("stat")) {
            if let Some(ppid) = parent_of(&stat) {
                map.entry(ppid).or_default().push(pid);
            }
        }
    }
    map
}

/// The parent pid in a `/proc/PID/stat` line: `pid (comm) state ppid …`, where `comm` may
/// hold spaces and parentheses, so the fields are counted from the last `)`.
fn parent_of(stat: &str) -> Option<u32> {
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// Parses `350000000`, `350M`, `350MiB`, `2G`, `512k` (binary multiples) into bytes.
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = t.split_at(split);
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("'{text}' is not a byte count (like 367001600 or 350M)"))?;
    let shift = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => return Err(format!("'{text}': unknown unit '{unit}' (use K, M or G)")),
    };
    n.checked_mul(1u64 << shift)
        .ok_or_else(|| format!("'{text}' is too large"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_parent_survives_odd_command_names() {
        assert_eq!(parent_of("12 (a) b) c) S 7 12 12 0"), Some(7));
        assert_eq!(parent_of("1 (init) S 0 1 1"), Some(0));
        assert_eq!(parent_of("garbage"), None);
    }

    #[test]
    fn byte_counts_with_units() {
        assert_eq!(parse_bytes("367001600"), Ok(367_001_600));
        assert_eq!(parse_bytes("350M"), Ok(350 << 20));
        assert_eq!(parse_bytes("350MiB"), Ok(350 << 20));
        assert_eq!(parse_bytes("2g"), Ok(2 << 30));
        assert!(parse_bytes("12x").is_err());
        assert!(parse_bytes("").is_err());
        assert!(parse_bytes("-5").is_err());
    }

    #[test]
    fn this_process_is_measured() {
        if cfg!(target_os = "linux") {
            let m = tree_memory(std::process::id()).expect("own /proc entry");
            assert!(m.vms >= m.rss && m.rss > 0, "{m:?}");
        }
    }
}
