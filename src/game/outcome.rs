//! The referee: what a move does to the game.

use super::board::Board;
use super::color::Color;
use super::coord::BoardSize;
use super::forbidden::Foul;
use super::rule::Rule;

/// The result of one move, as a referee rules it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The point is not on the board (nothing was played).
    OffBoard,
    /// The point is taken (nothing was played).
    Occupied,
    /// Renju: black played a forbidden point and loses (nothing was played).
    Forbidden(Foul),
    /// The mover made a winning line.
    Win,
    /// The game is drawn: the board is full or the stone limit is reached.
    Draw,
    /// The game goes on.
    Continue,
}

impl Verdict {
    /// Whether the game is over.
    pub fn ends_game(self) -> bool {
        !matches!(self, Verdict::Continue)
    }
}

/// The stone count at which Gomocup declares a draw: renju games end after 200 stones on
/// 15×15 (GomocupJudge: `size² − 25`); other rules play until the board is full.
pub fn gomocup_stone_limit(rule: Rule, size: BoardSize) -> Option<usize> {
    (rule == Rule::Renju).then(|| size.area().saturating_sub(25))
}

/// Plays `color` at protocol coordinates (`x`, `y`) if that is legal, and rules on it.
/// `stone_limit` is the stone count that ends the game in a draw (see
/// [`gomocup_stone_limit`]); a full board is always a draw.
pub fn judge_move(
    board: &mut Board,
    x: i64,
    y: i64,
    color: Color,
    stone_limit: Option<usize>,
) -> Verdict {
    let pos = match board.size().pos(x, y) {
        Some(pos) => pos,
        None => return Verdict::OffBoard,
    };
    if !board.is_empty(pos) {
        return Verdict::Occupied;
    }
    if board.rule().has_forbidden(color) {
        if let Some(foul) = board.foul(pos) {
            return Verdict::Forbidden(foul);
        }
    }
    board.play(pos, color);
    if board.makes_five(pos, color) {
        Verdict::Win
    } else if board.is_full() || stone_limit.map_or(false, |limit| board.stone_count() >= limit) {
        Verdict::Draw
    } else {
        Verdict::Continue
    }
}
