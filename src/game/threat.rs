//! What a stone at a point would threaten, all four lines together.

use super::board::Board;
use super::color::Color;
use super::coord::{Direction, Pos};
use super::pattern::Pattern;

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
    /// What a `color` stone at the empty point `pos` would threaten.
    pub fn threat(&self, pos: Pos, color: Color) -> Threat {
        let (mut fives, mut open_fours, mut fours, mut threes, mut overlines) = (0, 0, 0, 0, 0);
        for dir in Direction::ALL {
            match self.pattern(pos, dir, color) {
                Pattern::F5 => fives += 1,
                Pattern::F4 => open_fours += 1,
                Pattern::B4 => fours += 1,
                Pattern::F3 => threes += 1,
                Pattern::Overline => overlines += 1,
                _ => {}
            }
        }
        if fives > 0 {
            return Threat::Five;
        }
        // Any two lines of three or more may be a foul by the referee's count (it can count a
        // three on a line that also holds a four), so all of them get the exact check.
        let suspicious = overlines > 0 || open_fours + fours + threes >= 2;
        if suspicious && self.is_forbidden(pos, color) {
            return Threat::Forbidden;
        }
        if open_fours > 0 || fours >= 2 {
            Threat::OpenFour
        } else if fours == 1 && threes > 0 {
            Threat::FourThree
        } else if fours == 1 {
            Threat::Four
        } else if threes >= 2 {
            Threat::DoubleThree
        } else if threes == 1 {
            Threat::Three
        } else {
            Threat::None
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

    /// The points where one more `color` stone wins, in index order.
    pub fn five_points(&self, color: Color) -> Vec<Pos> {
        if !self.has_five_point(color) {
            return Vec::new();
        }
        self.size()
            .points()
            .filter(|&p| {
                self.is_empty(p)
                    && self.is_candidate(p)
                    && Direction::ALL
                        .into_iter()
                        .any(|d| self.pattern(p, d, color) == Pattern::F5)
            })
            .collect()
    }
}
