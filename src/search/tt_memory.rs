//! The transposition table's memory: the largest zeroed allocation that can be had up to the
//! size asked for, and a background thread that faults its pages in before a search needs
//! them.
//!
//! Why in the background: the first write to a fresh page costs the kernel a zeroed page,
//! and in a virtual machine the host's page behind it too. Measured on a 2-core VM (issue
//! 98; transparent huge pages on `madvise`): memory never touched since the VM started
//! took 1.1–1.7 s of system time per GiB, 4 KiB or 2 MiB pages alike (memory freed and
//! faulted in again: 0.1 s); with 2 MiB pages every probe into a fresh part of the table
//! pays for a whole 2 MiB page (2–3 ms), so a first search with a 1 GiB table ran at 1–2
//! nodes a millisecond instead of 1,000. Faulted in beforehand, the search never waits for
//! it; a search bounded by the clock alone that starts before the warm-up is done leaves
//! the pages it has not reached alone (probes miss, stores are dropped there) instead of
//! faulting them itself: with a 2 GiB table set just before a move it searched at depth 4
//! and 1 node a millisecond, now at full speed.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Entries per memory page (4 KiB pages: faulting one word of each faults all of them, huge
/// pages or not).
pub const PAGE_ENTRIES: usize = 4096 / std::mem::size_of::<u64>();

/// The table's words and, per page, whether a search has written there since it was last
/// cleared (pages never written hold only zeros: probes, clears and dumps skip them).
#[derive(Debug)]
pub struct Slots {
    pub entries: Vec<AtomicU64>,
    pub written: Vec<AtomicBool>,
    /// While a warm-up runs: how many pages (from the first) it has faulted in so far.
    warm_pages: AtomicUsize,
    warming: AtomicBool,
}

impl Slots {
    /// `len` zeroed entries, or as many of the halves of `len` as the system grants (at
    /// least `min_len`, which must succeed): the operating system provides a zeroed
    /// allocation untouched, so it costs nothing until its pages are faulted in.
    pub fn largest(len: usize, min_len: usize) -> Slots {
        let mut len = len.max(min_len);
        loop {
            if let Some(slots) = Slots::try_new(len) {
                return slots;
            }
            if len <= min_len {
                // The smallest table failed: out of memory, as any allocation may be.
                return Slots::try_new(min_len)
                    .unwrap_or_else(|| std::alloc::handle_alloc_error(layout(min_len)));
            }
            len = (len / 2).max(min_len);
        }
    }

    fn try_new(len: usize) -> Option<Slots> {
        let entries: Vec<AtomicU64> = bytemuck::try_zeroed_vec(len).ok()?;
        let pages = (len + PAGE_ENTRIES - 1) / PAGE_ENTRIES;
        let mut written = Vec::new();
        written.try_reserve_exact(pages).ok()?;
        written.resize_with(pages, || AtomicBool::new(false));
        crate::platform::advise_huge_pages(&entries);
        Some(Slots {
            entries,
            written,
            warm_pages: AtomicUsize::new(0),
            warming: AtomicBool::new(false),
        })
    }

    /// Marks the page of `index` written (a probe or a store is about to use it), making
    /// the first touch of a page the warm-up has not reached a write. A first read would
    /// map the system's shared zero page, and the write after it would have to replace that
    /// mapping and flush the page from every core's TLB: an interrupt to each core that
    /// runs a search thread. Measured with two threads on a 2-core VM, those flushes took
    /// half the time of a search on a fresh table; with one, page faults alone took 10 %.
    #[inline]
    pub fn first_touch(&self, index: usize) {
        let page = &self.written[index / PAGE_ENTRIES];
        if !page.load(Ordering::Relaxed) {
            fault_in(&self.entries[index]);
            page.store(true, Ordering::Relaxed);
        }
    }

    /// Whether the entry at `index` lies on a page that a running warm-up has not faulted in
    /// yet and no search has written: touching it would make the search wait for the
    /// kernel (a timed search leaves such pages alone until the warm-up reaches them).
    #[inline]
    pub fn is_cold(&self, index: usize) -> bool {
        let page = index / PAGE_ENTRIES;
        self.warming.load(Ordering::Relaxed)
            && page >= self.warm_pages.load(Ordering::Relaxed)
            && !self.written[page].load(Ordering::Relaxed)
    }

    /// Empties every entry (only the written pages hold any), keeping the pages faulted in:
    /// no search after a clear pays for fresh pages again.
    pub fn clear(&self) {
        for (page, written) in self.written.iter().enumerate() {
            if written.swap(false, Ordering::Relaxed) {
                let end = ((page + 1) * PAGE_ENTRIES).min(self.entries.len());
                for entry in &self.entries[page * PAGE_ENTRIES..end] {
                    entry.store(0, Ordering::Relaxed);
                }
            }
        }
    }

    /// The entries of the written pages, with their indices.
    pub fn written_entries(&self) -> impl Iterator<Item = (usize, &AtomicU64)> {
        self.written
            .iter()
            .enumerate()
            .filter(|(_, written)| written.load(Ordering::Relaxed))
            .flat_map(move |(page, _)| {
                let end = ((page + 1) * PAGE_ENTRIES).min(self.entries.len());
                (page * PAGE_ENTRIES..end).map(move |index| (index, &self.entries[index]))
            })
    }
}

fn layout(len: usize) -> std::alloc::Layout {
    std::alloc::Layout::array::<AtomicU64>(len).unwrap_or_else(|_| std::alloc::Layout::new::<u64>())
}

/// A write that changes nothing (a compare-and-swap of zero for zero: never lost against a
/// search's store, and not turned into a read as an idempotent `fetch_or(0)` may be).
#[inline]
fn fault_in(word: &AtomicU64) {
    let _ = word.compare_exchange(0, 0, Ordering::Relaxed, Ordering::Relaxed);
}

/// The thread that faults a table's pages in, first to last, while the engine waits for
/// its next command (or searches: its writes change nothing). Dropped, it stops at the next
/// page and is joined, so the table's memory is freed with the table.
#[derive(Debug)]
pub struct Warmer {
    cancel: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Warmer {
    /// Starts faulting in `slots`; `None` when no thread can be had (the search then faults
    /// the pages itself, as it goes).
    pub fn start(slots: &Arc<Slots>) -> Option<Warmer> {
        let cancel = Arc::new(AtomicBool::new(false));
        let (warmed, stop) = (Arc::clone(slots), Arc::clone(&cancel));
        slots.warm_pages.store(0, Ordering::Relaxed);
        slots.warming.store(true, Ordering::Relaxed);
        let thread = std::thread::Builder::new()
            .name("table warm-up".into())
            .stack_size(WARMER_STACK)
            .spawn(move || {
                for (done, page) in warmed.entries.chunks(PAGE_ENTRIES).enumerate() {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    fault_in(&page[0]);
                    warmed.warm_pages.store(done + 1, Ordering::Relaxed);
                }
                warmed.warming.store(false, Ordering::Relaxed);
            });
        let thread = match thread {
            Ok(thread) => thread,
            Err(_) => {
                slots.warming.store(false, Ordering::Relaxed);
                return None;
            }
        };
        Some(Warmer {
            cancel,
            thread: Some(thread),
        })
    }

    /// Waits until every page is faulted in (benchmarks: the first search after it).
    pub fn wait(&mut self) {
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Warmer {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        self.wait();
    }
}

/// The warm-up thread only loops over the pages.
const WARMER_STACK: usize = 64 << 10;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_impossible_size_falls_back_to_one_that_can_be_had() {
        // 2^63 bytes: more than any machine has.
        let slots = Slots::largest(1 << 60, 4);
        assert!(slots.entries.len() >= 4 && slots.entries.len() < 1 << 60);
        assert!(slots.entries.len().is_power_of_two());
    }

    #[test]
    fn only_pages_a_running_warm_up_has_not_reached_and_no_search_wrote_are_cold() {
        let slots = Slots::largest(4 * PAGE_ENTRIES, 4);
        assert!(!slots.is_cold(3 * PAGE_ENTRIES), "no warm-up, nothing cold");
        slots.warming.store(true, Ordering::Relaxed);
        slots.warm_pages.store(2, Ordering::Relaxed);
        assert!(!slots.is_cold(PAGE_ENTRIES + 5));
        assert!(slots.is_cold(2 * PAGE_ENTRIES));
        slots.first_touch(3 * PAGE_ENTRIES + 1);
        assert!(!slots.is_cold(3 * PAGE_ENTRIES));
        slots.warming.store(false, Ordering::Relaxed);
        assert!(!slots.is_cold(2 * PAGE_ENTRIES));
    }

    #[test]
    fn a_finished_warm_up_leaves_nothing_cold() {
        let slots = Arc::new(Slots::largest(8 * PAGE_ENTRIES, 4));
        let mut warmer = Warmer::start(&slots).expect("a thread");
        warmer.wait();
        assert!((0..8).all(|page| !slots.is_cold(page * PAGE_ENTRIES)));
    }

    #[test]
    fn a_clear_empties_the_written_pages_and_the_warmer_changes_nothing() {
        let slots = Arc::new(Slots::largest(4 * PAGE_ENTRIES, 4));
        slots.first_touch(PAGE_ENTRIES + 3);
        slots.entries[PAGE_ENTRIES + 3].store(7, Ordering::Relaxed);
        let mut warmer = Warmer::start(&slots).expect("a thread");
        warmer.wait();
        assert_eq!(slots.entries[PAGE_ENTRIES + 3].load(Ordering::Relaxed), 7);
        assert_eq!(slots.written_entries().count(), PAGE_ENTRIES);
        slots.clear();
        assert_eq!(slots.entries[PAGE_ENTRIES + 3].load(Ordering::Relaxed), 0);
        assert_eq!(slots.written_entries().count(), 0);
    }
}
