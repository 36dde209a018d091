//! The two players.

/// A player's colour. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// The other player.
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white: the index into per-colour arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour that moves when `stones` stones are on the board (black first).
    pub fn to_move_after(stones: usize) -> Color {
        if stones % 2 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }
}
