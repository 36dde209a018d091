//! Static evaluation from the incremental line patterns.
//!
//! For now one score per point: what a stone there would make for each side. The weights
//! are the only tunables of the evaluation and live in [`weights`].

pub mod weights;

use crate::game::{Board, Color, Direction, Pos};

/// How good a `color` stone at the empty point `pos` looks: its own patterns (attack) plus
/// the opponent's patterns it would spoil (defence).
pub fn point_score(board: &Board, pos: Pos, color: Color) -> i32 {
    let mut attack = 0;
    let mut defence = 0;
    for dir in Direction::ALL {
        attack += weights::attack(board.pattern(pos, dir, color));
        defence += weights::attack(board.pattern(pos, dir, color.opponent()));
    }
    attack + defence * weights::DEFENCE_PERCENT / 100
}

/// A rough static evaluation of the whole position for `to_move`: the patterns its stones
/// could make next to the existing stones, minus the opponent's.
pub fn evaluate(board: &Board, to_move: Color) -> i32 {
    let mut balance = 0;
    for pos in board.size().points() {
        if !board.is_empty(pos) || !board.has_stone_near(pos, 2) {
            continue;
        }
        for dir in Direction::ALL {
            balance += weights::attack(board.pattern(pos, dir, to_move));
            balance -= weights::attack(board.pattern(pos, dir, to_move.opponent()));
        }
    }
    balance
}
