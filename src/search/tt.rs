//! The transposition table: 32-byte buckets of four 8-byte entries, sized from the memory
//! the manager allows, replaced by depth and age.

use super::params::WIN_THRESHOLD;
use crate::game::{Pos, POS_COUNT};

/// Whether a stored score is exact or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (no move reached alpha).
    Upper = 1,
    /// The true score is at least this (a move reached beta).
    Lower = 2,
    Exact = 3,
}

/// One stored search result.
#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    /// The hash's top 16 bits (the bucket index uses the low bits): the identity check.
    key: u16,
    /// The best move's point index + 1; 0 means none.
    best: u16,
    /// The score, mate scores made relative to this node (see `to_stored`).
    score: i16,
    /// The remaining depth of the search that stored it.
    depth: u8,
    /// Bits 0-1: the bound (0 = empty slot); bits 2-7: the table generation when stored.
    meta: u8,
}

#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
struct Bucket([Entry; 4]);

const _: () = assert!(std::mem::size_of::<Entry>() == 8);
const _: () = assert!(std::mem::size_of::<Bucket>() == 32);

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub best: Option<Pos>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

pub struct Table {
    buckets: Vec<Bucket>,
    generation: u8,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({} buckets)", self.buckets.len())
    }
}

impl Table {
    /// The largest power-of-two table within `bytes` (at least one bucket).
    pub fn with_bytes(bytes: u64) -> Table {
        let wanted = (bytes / std::mem::size_of::<Bucket>() as u64).max(1);
        let buckets = 1usize << (63 - wanted.leading_zeros());
        Table {
            buckets: vec![Bucket::default(); buckets],
            generation: 0,
        }
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        for bucket in &mut self.buckets {
            *bucket = Bucket::default();
        }
        self.generation = 0;
    }

    /// Marks later entries as newer than earlier ones (a new search).
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    pub fn probe(&self, hash: u64, ply: usize) -> Option<Hit> {
        let key = (hash >> 48) as u16;
        let bucket = &self.buckets[hash as usize & (self.buckets.len() - 1)];
        bucket
            .0
            .iter()
            .find(|e| e.key == key && e.meta & 3 != 0)
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
        &mut self,
        hash: u64,
        ply: usize,
        depth: i32,
        score: i32,
        bound: Bound,
        best: Option<Pos>,
    ) {
        let key = (hash >> 48) as u16;
        let generation = self.generation;
        let index = hash as usize & (self.buckets.len() - 1);
        let bucket = &mut self.buckets[index];
        // Same position first; otherwise the entry worth least: shallow and old.
        let worth =
            |e: &Entry| e.depth as i32 - 4 * ((generation.wrapping_sub(e.meta >> 2)) & 63) as i32;
        let slot = match bucket.0.iter().position(|e| e.key == key) {
            Some(same) => same,
            None => (0..4).min_by_key(|&i| worth(&bucket.0[i])).unwrap_or(0),
        };
        let entry = &mut bucket.0[slot];
        // Keep a deeper exact result of the same position over a shallower bound.
        if entry.key == key
            && entry.meta & 3 == Bound::Exact as u8
            && bound != Bound::Exact
            && entry.depth as i32 > depth
        {
            return;
        }
        let kept_best = if entry.key == key { entry.best } else { 0 };
        *entry = Entry {
            key,
            best: best.map_or(kept_best, |p| p.index() as u16 + 1),
            score: to_stored(score, ply) as i16,
            depth: depth.clamp(0, 255) as u8,
            meta: bound as u8 | generation << 2,
        };
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
    fn size_is_a_power_of_two_within_the_budget() {
        let table = Table::with_bytes(100 << 20);
        assert_eq!(table.bytes(), 64 << 20);
        assert_eq!(Table::with_bytes(10).bytes(), 32);
    }
}
