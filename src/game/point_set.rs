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
    #[inline]
    pub fn iter(&self) -> Members<'_> {
        Members {
            words: &self.0,
            word: 0,
            rest: self.0[0],
        }
    }
}

/// The walk of [`PointSet::iter`]: the bits left of the current word, then the next words.
#[derive(Clone, Debug)]
pub struct Members<'a> {
    words: &'a [u64; WORDS],
    word: usize,
    rest: u64,
}

impl Iterator for Members<'_> {
    type Item = Pos;

    #[inline]
    fn next(&mut self) -> Option<Pos> {
        while self.rest == 0 {
            self.word += 1;
            self.rest = *self.words.get(self.word)?;
        }
        let bit = self.rest.trailing_zeros() as usize;
        self.rest &= self.rest - 1;
        Some(Pos::from_index(self.word * 64 + bit))
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
