//! Static evaluation from the incremental pattern counts: for each side, what its possible
//! moves would make, weighted by [`weights`].

pub mod weights;

use crate::game::{Board, Color, Direction, Pattern, Pos};

/// The position's value for `to_move` (positive is good for it).
pub fn evaluate(board: &Board, to_move: Color) -> i32 {
    let mut score = weights::TEMPO;
    for pattern in Pattern::ALL {
        score +=
            board.pattern_count(to_move, pattern) as i32 * weights::pattern_value(pattern, true);
        score -= board.pattern_count(to_move.opponent(), pattern) as i32
            * weights::pattern_value(pattern, false);
    }
    score
}

/// How promising a `color` move at the empty point `pos` looks, for move ordering: its own
/// line patterns plus the opponent's it would spoil.
pub fn point_value(board: &Board, pos: Pos, color: Color) -> i32 {
    Direction::ALL
        .into_iter()
        .map(|dir| {
            weights::order_value(board.pattern(pos, dir, color))
                + weights::order_value(board.pattern(pos, dir, color.opponent())) * 4 / 5
        })
        .sum()
}
