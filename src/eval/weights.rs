//! Every evaluation constant, in one place.

use crate::game::{Pattern, Threat};

/// What one line pattern at an empty point is worth to the side that could play there, for
/// the side to move (index 0) and for the side that just moved (index 1): a threat one is
/// about to use is worth more than one the opponent can still answer.
pub fn pattern_value(pattern: Pattern, to_move: bool) -> i32 {
    let (mine, theirs) = match pattern {
        Pattern::Dead | Pattern::Overline => (0, 0),
        Pattern::B1 => (1, 1),
        Pattern::F1 => (2, 2),
        Pattern::B2 => (4, 3),
        Pattern::F2 => (12, 10),
        Pattern::B3 => (14, 12),
        Pattern::F3 => (40, 30),
        Pattern::B4 => (30, 25),
        // An open-four point is an open three on the board.
        Pattern::F4 => (200, 100),
        Pattern::F5 => (2_000, 500),
    };
    if to_move {
        mine
    } else {
        theirs
    }
}

/// A bonus for having the move.
pub const TEMPO: i32 = 20;

/// Move ordering: the value of the threat a move makes for the mover, and of the threat it
/// takes from the opponent (blocking).
pub fn threat_order(threat: Threat, own: bool) -> i32 {
    let (attack, defence) = match threat {
        Threat::Forbidden | Threat::None => (0, 0),
        Threat::Three => (400, 300),
        Threat::DoubleThree => (3_000, 1_500),
        Threat::Four => (1_000, 400),
        Threat::FourThree => (8_000, 3_000),
        Threat::OpenFour => (20_000, 6_000),
        Threat::Five => (100_000, 50_000),
    };
    if own {
        attack
    } else {
        defence
    }
}

/// What one line pattern is worth when ordering moves (attack and defence alike).
pub fn order_value(pattern: Pattern) -> i32 {
    match pattern {
        Pattern::Dead | Pattern::Overline => 0,
        Pattern::B1 => 1,
        Pattern::F1 => 3,
        Pattern::B2 => 6,
        Pattern::F2 => 20,
        Pattern::B3 => 25,
        Pattern::F3 => 60,
        Pattern::B4 => 80,
        Pattern::F4 => 150,
        Pattern::F5 => 300,
    }
}

/// SWAP2: how far from even (in evaluation units, white to move) a position may be and still
/// count as balanced.
pub const SWAP2_BALANCE_MARGIN: i32 = 60;
