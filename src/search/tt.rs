//! The transposition table: 32-byte buckets of four 8-byte entries, sized from the memory
//! the manager allows, replaced by depth and age. Shared by every search thread: each entry
//! is one atomic word, so a read never sees half of two writes, and a probe checks the key
//! stored in the word itself (a move read from it is still checked by the caller).

use super::params::WIN_THRESHOLD;
use super::tt_memory::{Slots, Warmer, PAGE_ENTRIES};
use crate::checksum::Fnv1a;
use crate::game::{Pos, POS_COUNT};
use std::io::{self, Read, Write};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Whether a stored score is exact or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (no move reached alpha).
    Upper = 1,
    /// The true score is at least this (a move reached beta).
    Lower = 2,
    Exact = 3,
}

/// One stored search result, packed in a `u64` (all zero is an empty slot):
/// bits  0-15  the hash's top 16 bits (the bucket index uses the low bits): the identity check;
/// bits 16-31  the best move's point index + 1, 0 for none;
/// bits 32-47  the score (i16), mate scores made relative to this node (see `to_stored`);
/// bits 48-55  the remaining depth of the search that stored it;
/// bits 56-57  the bound (0 = empty slot), bits 58-63 the table generation when stored.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u16,
    best: u16,
    score: i16,
    depth: u8,
    meta: u8,
}

impl Entry {
    fn unpack(bits: u64) -> Entry {
        Entry {
            key: bits as u16,
            best: (bits >> 16) as u16,
            score: (bits >> 32) as u16 as i16,
            depth: (bits >> 48) as u8,
            meta: (bits >> 56) as u8,
        }
    }

    /// Whether the slot holds a result (its bound is set).
    fn is_used(self) -> bool {
        self.meta & 3 != 0
    }

    fn pack(self) -> u64 {
        self.key as u64
            | (self.best as u64) << 16
            | (self.score as u16 as u64) << 32
            | (self.depth as u64) << 48
            | (self.meta as u64) << 56
    }
}

/// Entries per bucket: 4 × 8 bytes.
const BUCKET: usize = 4;
const BUCKET_BYTES: u64 = (BUCKET * std::mem::size_of::<u64>()) as u64;
const _: () = assert!(BUCKET_BYTES == 32);

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub best: Option<Pos>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

impl Hit {
    /// Whether the stored score settles a search of the window (`alpha`, `beta`): exact, or a
    /// bound on the side of the window it proves.
    #[inline]
    pub fn decides(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

pub struct Table {
    /// `BUCKET` entries per bucket, a power-of-two number of buckets.
    slots: Arc<Slots>,
    /// Faulting the pages in, from [`Table::warm_up`] until it is done or the table goes.
    warmer: Option<Warmer>,
    generation: u8,
    /// The running search leaves pages the warm-up has not reached alone (`new_search`).
    skip_cold: bool,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({} bytes)", self.bytes())
    }
}

impl Table {
    /// The largest power-of-two table within `bytes` (at least one bucket), or, when the
    /// system cannot give that much, the largest it can (see [`Table::fitting_bytes`]).
    pub fn with_bytes(bytes: u64) -> Table {
        let len = (Table::fitting_bytes(bytes) / BUCKET_BYTES) as usize * BUCKET;
        Table {
            slots: Arc::new(Slots::largest(len, BUCKET)),
            warmer: None,
            generation: 0,
            skip_cold: false,
        }
    }

    /// The size of the table [`Table::with_bytes`] makes of `bytes` when the memory is there.
    pub fn fitting_bytes(bytes: u64) -> u64 {
        let wanted = (bytes / BUCKET_BYTES).clamp(1, usize::MAX as u64 / BUCKET_BYTES);
        (1 << (63 - wanted.leading_zeros())) * BUCKET_BYTES
    }

    /// Faults the table's pages in on a thread of its own, so that no search waits for
    /// fresh memory (see `tt_memory`).
    pub fn warm_up(&mut self) {
        self.warmer = Warmer::start(&self.slots);
    }

    /// Waits until [`Table::warm_up`] is done.
    pub fn wait_warm(&mut self) {
        if let Some(warmer) = self.warmer.as_mut() {
            warmer.wait();
        }
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.entries.len() * std::mem::size_of::<u64>()
    }

    fn buckets(&self) -> usize {
        self.slots.entries.len() / BUCKET
    }

    /// Forgets everything (a new game), keeping the memory: only pages written to hold
    /// anything, and zeroing them is far cheaper than faulting fresh ones in again.
    pub fn clear(&mut self) {
        self.slots.clear();
        self.generation = 0;
    }

    /// Thousandths of the entries in use, from a sample spread over the table (pages never
    /// written hold none and are not read).
    pub fn usage_permille(&self) -> u32 {
        let Slots {
            entries, written, ..
        } = &*self.slots;
        let sample = entries.len().min(1000);
        let used = (0..sample)
            .map(|i| i * (entries.len() / sample))
            .filter(|&index| written[index / PAGE_ENTRIES].load(Ordering::Relaxed))
            .filter(|&index| Entry::unpack(entries[index].load(Ordering::Relaxed)).is_used())
            .count();
        (used * 1000 / sample) as u32
    }

    /// Marks later entries as newer than earlier ones (a new search). A search bounded by the
    /// clock alone (`clock_only`) leaves alone the pages a running warm-up has not reached
    /// (see `Slots::is_cold`): it probes and stores less at first rather than wait for the
    /// kernel; one with a node or depth limit uses them all, so that its result does not
    /// depend on the warm-up's progress.
    pub fn new_search(&mut self, clock_only: bool) {
        self.generation = (self.generation + 1) & 63;
        self.skip_cold = clock_only;
    }

    /// Asks the processor to start loading the bucket of `hash`, so that its probe, a move
    /// later, finds it in the cache (the table is far larger than the caches).
    #[inline]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, hash: u64) {
        let first = (hash as usize & (self.buckets() - 1)) * BUCKET;
        let bucket = self.slots.entries[first..].as_ptr();
        // SAFETY: a prefetch is a hint with no effect on memory or program state and never
        // faults; the pointer is in bounds anyway (from a slice of the table).
        #[cfg(target_arch = "x86_64")]
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch(bucket as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = bucket;
    }

    pub fn probe(&self, hash: u64, ply: usize) -> Option<Hit> {
        let key = (hash >> 48) as u16;
        let first = (hash as usize & (self.buckets() - 1)) * BUCKET;
        if self.skip_cold && self.slots.is_cold(first) {
            return None;
        }
        self.slots.first_touch(first);
        self.slots.entries[first..first + BUCKET]
            .iter()
            .map(|bits| Entry::unpack(bits.load(Ordering::Relaxed)))
            .find(|e| e.key == key && e.is_used())
            .map(|e| Hit {
                best: match e.best {
                    0 => None,
                    b => Some(Pos::from_index((b as usize - 1) % POS_COUNT)),
                },
                score: from_stored(e.score as i32, ply),
                depth: e.depth as i32,
                bound: match e.meta & 3 {
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    _ => Bound::Exact,
                },
            })
    }

    pub fn store(
        &self,
        hash: u64,
        ply: usize,
        depth: i32,
        score: i32,
        bound: Bound,
        best: Option<Pos>,
    ) {
        let key = (hash >> 48) as u16;
        let generation = self.generation;
        let first = (hash as usize & (self.buckets() - 1)) * BUCKET;
        if self.skip_cold && self.slots.is_cold(first) {
            return;
        }
        self.slots.first_touch(first);
        let slots = &self.slots.entries[first..first + BUCKET];
        let mut bucket = [0u64; BUCKET];
        for (word, slot) in bucket.iter_mut().zip(slots) {
            *word = slot.load(Ordering::Relaxed);
        }
        // Same position first; otherwise the entry worth least: shallow and old.
        let worth =
            |e: Entry| e.depth as i32 - 4 * ((generation.wrapping_sub(e.meta >> 2)) & 63) as i32;
        let slot = match bucket.iter().position(|&b| Entry::unpack(b).key == key) {
            Some(same) => same,
            None => (0..BUCKET)
                .min_by_key(|&i| worth(Entry::unpack(bucket[i])))
                .unwrap_or(0),
        };
        let old = Entry::unpack(bucket[slot]);
        // Keep a deeper exact result of the same position over a shallower bound.
        let same = old.key == key && old.is_used();
        if same
            && old.meta & 3 == Bound::Exact as u8
            && bound != Bound::Exact
            && old.depth as i32 > depth
        {
            return;
        }
        let kept_best = if same { old.best } else { 0 };
        let entry = Entry {
            key,
            best: best.map_or(kept_best, |p| p.index() as u16 + 1),
            score: to_stored(score, ply) as i16,
            depth: depth.clamp(0, 255) as u8,
            meta: bound as u8 | generation << 2,
        };
        slots[slot].store(entry.pack(), Ordering::Relaxed);
    }
}

/// A dump's first bytes (then the version).
const DUMP_MAGIC: &[u8; 4] = b"QTT\0";
const DUMP_VERSION: u64 = 1;

impl Table {
    /// Writes the used entries (Yixin-Board's `yxhashdump`): `QTT\0`, the version, the
    /// table's bucket count, then each used entry's index and word, an index of `u64::MAX`
    /// to end, and the FNV-1a hash of all that (each number a little-endian u64). Returns
    /// the entries written.
    pub fn dump(&self, out: &mut dyn Write) -> io::Result<u64> {
        let mut hash = Fnv1a::default();
        let mut put = |out: &mut dyn Write, bytes: &[u8]| {
            hash.update(bytes);
            out.write_all(bytes)
        };
        put(out, DUMP_MAGIC)?;
        put(out, &DUMP_VERSION.to_le_bytes())?;
        put(out, &(self.buckets() as u64).to_le_bytes())?;
        let mut written = 0;
        for (index, entry) in self.slots.written_entries() {
            let word = entry.load(Ordering::Relaxed);
            if Entry::unpack(word).is_used() {
                put(out, &(index as u64).to_le_bytes())?;
                put(out, &word.to_le_bytes())?;
                written += 1;
            }
        }
        put(out, &u64::MAX.to_le_bytes())?;
        let check = hash.finish();
        out.write_all(&check.to_le_bytes())?;
        Ok(written)
    }

    /// Reads a dump (`yxhashload`) into this table, whose entries it replaces, and returns
    /// how many it holds. A bucket's index is the low bits of a position's hash, so a dump
    /// fits a table of its size or smaller (where dumped buckets merge, the deeper entries
    /// stay). A larger table or a foreign file is refused, leaving this table as it was; a
    /// damaged one (found by its end) leaves it empty: reading in place needs no second
    /// table's memory.
    pub fn load(&mut self, input: &mut dyn Read) -> Result<u64, String> {
        let mut reader = CheckedReader {
            input,
            hash: Fnv1a::default(),
        };
        let mut magic = [0u8; 4];
        reader.read(&mut magic)?;
        if &magic != DUMP_MAGIC {
            return Err("not a Quinto hash dump".into());
        }
        if reader.word()? != DUMP_VERSION {
            return Err("a hash dump of another version".into());
        }
        let dumped_buckets = reader.word()?;
        if !dumped_buckets.is_power_of_two() || dumped_buckets < self.buckets() as u64 {
            return Err(format!(
                "dumped from a table of {} MiB, smaller than this one ({} MiB): set the \
                 same hash size to load it",
                dumped_buckets.saturating_mul(BUCKET_BYTES) >> 20,
                self.bytes() >> 20
            ));
        }
        self.clear();
        let loaded = self.fill(&mut reader, dumped_buckets);
        if loaded.is_err() {
            self.clear();
        }
        loaded
    }

    /// The entries of a dump and its check hash.
    fn fill(&mut self, reader: &mut CheckedReader, dumped_buckets: u64) -> Result<u64, String> {
        let mut count = 0;
        loop {
            let index = reader.word()?;
            if index == u64::MAX {
                break;
            }
            let bits = reader.word()?;
            let entry = Entry::unpack(bits);
            if index >= dumped_buckets * BUCKET as u64
                || !entry.is_used()
                || entry.best as usize > POS_COUNT
            {
                return Err("damaged: an entry out of range".into());
            }
            let first = (index / BUCKET as u64 % self.buckets() as u64) as usize * BUCKET;
            self.slots.first_touch(first);
            // An empty slot, else the shallowest if this entry is deeper.
            let slot = self.slots.entries[first..first + BUCKET]
                .iter()
                .min_by_key(|w| {
                    let old = w.load(Ordering::Relaxed);
                    (old != 0, Entry::unpack(old).depth)
                })
                .filter(|w| {
                    let old = w.load(Ordering::Relaxed);
                    old == 0 || Entry::unpack(old).depth < entry.depth
                });
            if let Some(slot) = slot {
                count += u64::from(slot.load(Ordering::Relaxed) == 0);
                slot.store(bits, Ordering::Relaxed);
            }
        }
        let expected = reader.hash.finish();
        let mut check = [0u8; 8];
        reader.read(&mut check)?;
        if u64::from_le_bytes(check) != expected {
            return Err("damaged: its check hash does not match".into());
        }
        Ok(count)
    }
}

/// Reads a dump, hashing what it reads.
struct CheckedReader<'a> {
    input: &'a mut dyn Read,
    hash: Fnv1a,
}

impl CheckedReader<'_> {
    fn read(&mut self, bytes: &mut [u8]) -> Result<(), String> {
        self.input
            .read_exact(bytes)
            .map_err(|_| "the file ends too soon".to_string())?;
        self.hash.update(bytes);
        Ok(())
    }

    fn word(&mut self) -> Result<u64, String> {
        let mut bytes = [0u8; 8];
        self.read(&mut bytes)?;
        Ok(u64::from_le_bytes(bytes))
    }
}

/// Mate scores count plies from the root; stored, they count from the node.
fn to_stored(score: i32, ply: usize) -> i32 {
    if score > WIN_THRESHOLD {
        score + ply as i32
    } else if score < -WIN_THRESHOLD {
        score - ply as i32
    } else {
        score
    }
}

fn from_stored(score: i32, ply: usize) -> i32 {
    if score > WIN_THRESHOLD {
        score - ply as i32
    } else if score < -WIN_THRESHOLD {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::params::WIN;

    #[test]
    fn a_dump_reads_back_into_its_size_or_smaller_and_a_damaged_one_never() {
        let table = Table::with_bytes(1 << 16);
        let hashes: Vec<u64> = (0..300u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        for (i, &hash) in hashes.iter().enumerate() {
            let best = Some(Pos::new(i % 15, i / 15 % 15));
            table.store(hash, 0, (i % 20) as i32, i as i32, Bound::Lower, best);
        }
        let mut dump = Vec::new();
        let written = table.dump(&mut dump).unwrap();
        assert!(written > 250);

        let mut same = Table::with_bytes(1 << 16);
        assert_eq!(same.load(&mut dump.as_slice()), Ok(written));
        for &hash in &hashes {
            let (a, b) = (table.probe(hash, 0), same.probe(hash, 0));
            assert_eq!(
                a.map(|h| (h.best, h.score, h.depth)),
                b.map(|h| (h.best, h.score, h.depth))
            );
        }
        let mut smaller = Table::with_bytes(1 << 12);
        let kept = smaller.load(&mut dump.as_slice()).unwrap();
        assert!(kept > 0 && kept <= (1 << 12) / 8);

        let mut larger = Table::with_bytes(1 << 18);
        larger.store(hashes[0], 0, 3, 1, Bound::Exact, None);
        assert!(larger.load(&mut dump.as_slice()).is_err());
        assert!(
            larger.probe(hashes[0], 0).is_some(),
            "a refused dump changes nothing"
        );

        let mut damaged = dump.clone();
        damaged[100] ^= 1;
        assert!(same.load(&mut damaged.as_slice()).is_err());
        assert_eq!(
            same.usage_permille(),
            0,
            "a damaged dump leaves the table empty"
        );
        assert!(same.load(&mut &dump[..dump.len() - 3]).is_err());
        assert!(same.load(&mut &b"QNET"[..]).is_err());
    }

    #[test]
    fn stores_and_finds_with_mate_scores_relative_to_the_node() {
        let mut table = Table::with_bytes(1 << 16);
        let pos = Pos::new(3, 4);
        table.store(
            0xABCD_0000_0000_0042,
            5,
            7,
            WIN - 9,
            Bound::Exact,
            Some(pos),
        );
        let hit = table.probe(0xABCD_0000_0000_0042, 2).expect("stored");
        assert_eq!(hit.best, Some(pos));
        assert_eq!(
            hit.score,
            WIN - 6,
            "mate 4 plies below the node, seen from ply 2"
        );
        assert_eq!(hit.depth, 7);
        assert!(table.probe(0xABCE_0000_0000_0042, 2).is_none(), "other key");
        table.clear();
        assert!(table.probe(0xABCD_0000_0000_0042, 2).is_none());
    }

    #[test]
    fn usage_counts_stored_entries() {
        let table = Table::with_bytes(1 << 20);
        assert_eq!(table.usage_permille(), 0);
        for i in 0..table.slots.entries.len() as u64 {
            table.store(
                i.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                0,
                1,
                0,
                Bound::Exact,
                None,
            );
        }
        assert!(table.usage_permille() > 500, "{}", table.usage_permille());
    }

    #[test]
    fn size_is_a_power_of_two_within_the_budget() {
        let table = Table::with_bytes(100 << 20);
        assert_eq!(table.bytes(), 64 << 20);
        assert_eq!(Table::with_bytes(10).bytes(), 32);
    }
}
