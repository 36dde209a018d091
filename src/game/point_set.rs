//! A set of points as a bit per point index: O(1) insert and remove, and an ascending walk
//! that skips empty words, for the few points of a kind a board keeps track of.

use super::coord::{Pos, POS_COUNT};

const WORDS: usize = POS_COUNT / 64;

#[derive(Clone, Copy, Debug)]
pub struct PointSet([u64; WORDS]);

impl PointSet {
    pub const EMPTY: PointSet = PointSet([0; WORDS]);

    #[inline]
    pub fn set(&mut self, pos: Pos, member: bool) {
        let (word, bit) = (pos.index() / 64, pos.index() % 64);
        if member {
            self.0[word] |= 1 << bit;
        } else {
            self.0[word] &= !(1 << bit);
        }
    }

    /// (The board's self-check uses it.)
    #[cfg(any(test, debug_assertions))]
    pub fn contains(&self, pos: Pos) -> bool {
        self.0[pos.index() / 64] >> (pos.index() % 64) & 1 != 0
    }

    /// The members in index order.
    pub fn iter(&self) -> impl Iterator<Item = Pos> + '_ {
        self.0.iter().enumerate().flat_map(|(word, &bits)| {
            let mut rest = bits;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(Pos::from_index(word * 64 + bit))
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_come_back_in_index_order_and_leave_when_removed() {
        let mut set = PointSet::EMPTY;
        for index in [1023, 0, 64, 63, 500] {
            set.set(Pos::from_index(index), true);
        }
        set.set(Pos::from_index(64), false);
        assert!(set.contains(Pos::from_index(500)) && !set.contains(Pos::from_index(64)));
        let members: Vec<usize> = set.iter().map(Pos::index).collect();
        assert_eq!(members, vec![0, 63, 500, 1023]);
    }
}
