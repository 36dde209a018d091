//! What a stone at a point would threaten, all four lines together.

use super::board::Board;
use super::color::Color;
use super::coord::{Direction, Pos};
use super::pattern::Pattern;
use super::shape::Shape;

/// The strongest threat a move makes, weakest first. A renju black move that the referee
/// forbids is `Forbidden`, below everything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Threat {
    Forbidden,
    None,
    /// One open three: an open four next.
    Three,
    /// Two open threes (for renju black, only where the referee allows it).
    DoubleThree,
    /// One four: the opponent must block its five point.
    Four,
    /// A four and an open three: wins unless the block also defends.
    FourThree,
    /// An open four or two fours: two five points, a win unless the opponent fives first.
    OpenFour,
    Five,
}

impl Threat {
    /// Whether the move forces an answer at once (a four or better).
    pub fn is_four(self) -> bool {
        self >= Threat::Four
    }
}

impl Board {
    /// What a `color` stone at the empty point `pos` would threaten: its shape, with the
    /// referee's exact check on the renju black shapes that may be fouls (two lines of three
    /// or more: the referee may count a three on a line that also holds a four).
    pub fn threat(&self, pos: Pos, color: Color) -> Threat {
        let threat = match self.shape(pos, color) {
            Shape::Five => return Threat::Five,
            Shape::Forbidden => return Threat::Forbidden,
            Shape::OpenFour => Threat::OpenFour,
            Shape::FourThree => Threat::FourThree,
            Shape::FourTwo | Shape::Four => return Threat::Four,
            Shape::DoubleThree => Threat::DoubleThree,
            Shape::ThreeTwo | Shape::Three => return Threat::Three,
            Shape::DoubleTwo | Shape::Two | Shape::None => return Threat::None,
        };
        if self.is_forbidden(pos, color) {
            Threat::Forbidden
        } else {
            threat
        }
    }

    /// Whether a `color` stone at `pos` makes a four or an open four on some line.
    #[inline]
    pub fn makes_four(&self, pos: Pos, color: Color) -> bool {
        Direction::ALL
            .into_iter()
            .any(|dir| matches!(self.pattern(pos, dir, color), Pattern::B4 | Pattern::F4))
    }

    /// Whether `color` has a point where one more stone wins.
    #[inline]
    pub fn has_five_point(&self, color: Color) -> bool {
        self.pattern_count(color, Pattern::F5) > 0
    }

    /// Whether `color` has a point where one more stone makes an open four (an open three on
    /// the board, or a four-in-waiting).
    #[inline]
    pub fn has_open_four_point(&self, color: Color) -> bool {
        self.pattern_count(color, Pattern::F4) > 0
    }
}
