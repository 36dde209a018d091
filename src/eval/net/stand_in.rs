//! Where the search does not ask the network, the classical value stands in for it: put on
//! the network's scale first where a fit has proven itself.

use crate::game::{BoardSize, Rule};

/// The classical value put on the network's scale, to stand in for the network's where the
/// search does not ask it (far from the window): `classical × percent / 100 + offset`, for the
/// side to move. Unmapped, the two disagree by a systematic amount — at the search nodes of
/// 20×20 match games the network's value is about 0.68 × the classical one − 75 — and a
/// search mixing them unmapped played no better on 20×20 than the classical evaluation, where
/// one asking the network everywhere did (stop 69, tournaments/results.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StandIn {
    pub percent: i32,
    pub offset: i32,
}

impl StandIn {
    /// The classical value as it is: where no mapping has won its match (15×15, whose
    /// fit of 0.74 × − 64 was not proven at 100,000 nodes; renju, whose 0.57 × − 73 was
    /// not either; and the other rules).
    pub const IDENTITY: StandIn = StandIn {
        percent: 100,
        offset: 0,
    };

    /// The mapping for the network of `rule` on a board of `size`.
    pub fn for_board(rule: Rule, size: BoardSize) -> StandIn {
        if rule == Rule::Freestyle && size.width().max(size.height()) >= LARGE_BOARD {
            FREESTYLE_LARGE_STAND_IN
        } else {
            StandIn::IDENTITY
        }
    }

    #[inline]
    pub fn apply(self, classical: i32) -> i32 {
        classical * self.percent / 100 + self.offset
    }
}

/// Boards this wide or more take [`FREESTYLE_LARGE_STAND_IN`].
const LARGE_BOARD: usize = 18;
/// Fitted on 20×20 search nodes.
const FREESTYLE_LARGE_STAND_IN: StandIn = StandIn {
    percent: 68,
    offset: -75,
};
