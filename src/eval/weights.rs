//! Every evaluation constant, in one place.

use crate::game::Pattern;

/// What one line pattern at a point is worth to the player who would play there.
pub fn attack(pattern: Pattern) -> i32 {
    match pattern {
        Pattern::Dead | Pattern::Overline => 0,
        Pattern::B1 => 1,
        Pattern::F1 => 3,
        Pattern::B2 => 6,
        Pattern::F2 => 20,
        Pattern::B3 => 25,
        Pattern::F3 => 120,
        Pattern::B4 => 150,
        Pattern::F4 => 2_000,
        Pattern::F5 => 20_000,
    }
}

/// Spoiling the opponent's pattern is worth this share of making one's own.
pub const DEFENCE_PERCENT: i32 = 80;

/// SWAP2: how far from even (in evaluation units, white to move) a position may be and still
/// count as balanced.
pub const SWAP2_BALANCE_MARGIN: i32 = 60;
