//! How the `MESSAGE` lines a person reads (the search line's `pv`, `nbest`) name points and
//! scores: as the GUI driving the engine labels its board. Yixin-Board (which asks for the
//! INFO blocks, `show_detail` bit 2) draws `x,y` at column `y`, row `x`, labelled in
//! renju-book letters and numbers; Piskvork, which sends no `show_detail`, names points
//! `[x,y]` in its log; anything else gets renju-book notation. Mates read `+M n` / `-M n`
//! (plies, both sides' moves), as Yixin-Board and Rapfi write them.

use crate::game::{BoardSize, Pos};
use crate::search::params::{WIN, WIN_THRESHOLD};

/// The GUI's way of naming points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Notation {
    /// `[x,y]`, as Piskvork's log names moves (its game.cpp, origin 0 by default, as in
    /// the protocol): no `show_detail` bits sent.
    #[default]
    Piskvork,
    /// Renju-book notation of the transposed point (`show_detail` bit 2).
    YixinBoard,
    /// Renju-book notation (`h8` the centre of 15x15): any other `show_detail`.
    Book,
}

impl Notation {
    /// The GUI that sends this `INFO show_detail` value.
    pub fn for_show_detail(level: i64) -> Notation {
        if level <= 0 {
            Notation::Piskvork
        } else if level & 2 != 0 {
            Notation::YixinBoard
        } else {
            Notation::Book
        }
    }

    /// `pos` as the GUI labels it.
    pub fn point(self, size: BoardSize, pos: Pos) -> String {
        match self {
            Notation::Piskvork => format!("[{},{}]", pos.x(), pos.y()),
            Notation::YixinBoard => size.to_human(transpose(size, pos)),
            Notation::Book => size.to_human(pos),
        }
    }
}

/// Where Yixin-Board draws `pos` (`x,y` at column `y`, row `x`). Its boards are square; a
/// point off a rectangular transpose stays where it is.
pub fn transpose(size: BoardSize, pos: Pos) -> Pos {
    size.pos(pos.y() as i64, pos.x() as i64).unwrap_or(pos)
}

/// A score as the GUIs show it: the evaluation, or `+M n` / `-M n` for a proven win or loss
/// in `n` plies.
pub fn score_text(score: i32) -> String {
    if score > WIN_THRESHOLD {
        format!("+M{}", WIN - score)
    } else if score < -WIN_THRESHOLD {
        format!("-M{}", WIN + score)
    } else {
        score.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_gui_gets_its_own_labels() {
        let size = BoardSize::square(15).unwrap();
        let pos = size.pos(3, 9).unwrap();
        assert_eq!(Notation::default().point(size, pos), "[3,9]");
        assert_eq!(Notation::for_show_detail(0).point(size, pos), "[3,9]");
        assert_eq!(Notation::for_show_detail(1).point(size, pos), "d6");
        // Yixin-Board draws 3,9 at row 3 (15 - 3 = 12 from the bottom), column j.
        assert_eq!(Notation::for_show_detail(3).point(size, pos), "j12");
    }

    #[test]
    fn mates_count_plies() {
        assert_eq!(score_text(WIN - 3), "+M3");
        assert_eq!(score_text(-WIN + 4), "-M4");
        assert_eq!(score_text(-17), "-17");
        assert_eq!(score_text(WIN_THRESHOLD), WIN_THRESHOLD.to_string());
    }
}
