//! The answers to the debugging commands of Rapfi's toolbar buttons in Yixin-Board (dhbloo's
//! fork): `traceboard` draws the position, `tracesearch` repeats the last search's line,
//! `reloadconfig` says that Quinto has no such file. Each a `MESSAGE` the GUI shows in its
//! log, where an `UNKNOWN` would say nothing useful.

use super::notation::transpose;
use crate::game::{Board, Color};
use crate::play::render::{draw, Marks, Style};

/// The board as `MESSAGE` lines, drawn as the GUI shows it (`transposed`: Yixin-Board
/// labels a point `x,y` at column `y`, row `x`), black's forbidden points as `#`.
pub fn board_lines(board: &Board, transposed: bool) -> Vec<String> {
    let size = board.size();
    let shown = if transposed && size.width() == size.height() {
        let mut mirrored = Board::new(size, board.rule());
        for &pos in board.history() {
            let color = board.stone(pos).unwrap_or(Color::Black);
            mirrored.play(transpose(size, pos), color);
        }
        mirrored
    } else {
        board.clone()
    };
    let forbidden = if shown.side_to_move() == Color::Black {
        size.points()
            .filter(|&p| shown.is_forbidden(p, Color::Black))
            .collect()
    } else {
        Vec::new()
    };
    let marks = Marks {
        last: shown.history().last().copied(),
        forbidden,
        winning: Vec::new(),
    };
    let mut lines: Vec<String> = draw(&shown, &marks, Style::default())
        .lines()
        .map(|line| format!("MESSAGE {line}"))
        .collect();
    lines.push(format!(
        "MESSAGE {:?} {}x{}, {} stones, {:?} to move",
        board.rule(),
        size.width(),
        size.height(),
        board.stone_count(),
        board.side_to_move()
    ));
    lines
}

/// `tracesearch`: the last search's line, or that there was none.
pub fn search_line(last: Option<&str>) -> String {
    match last {
        Some(line) => format!("MESSAGE last search: {line}"),
        None => "MESSAGE no search yet".to_string(),
    }
}

/// `reloadconfig FILE` (Rapfi's evaluator switch).
pub const NO_CONFIG: &str = "MESSAGE Quinto reads no config file: its settings come from the \
     INFO commands and pbrain-quinto.ini beside the executable (eval = auto, classical, net or policy)";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{BoardSize, Rule};

    #[test]
    fn the_board_is_drawn_as_the_gui_shows_it() {
        let size = BoardSize::square(15).unwrap();
        let mut board = Board::new(size, Rule::Renju);
        board.play(size.pos(7, 7).unwrap(), Color::Black);
        board.play(size.pos(8, 7).unwrap(), Color::White);
        let plain = board_lines(&board, false);
        let transposed = board_lines(&board, true);
        assert!(plain.iter().all(|l| l.starts_with("MESSAGE ")));
        // 8,7 is i8 on Quinto's own board, h7 as Yixin-Board draws it.
        let row = |lines: &[String], label: &str| {
            lines
                .iter()
                .find(|l| {
                    l.trim_start_matches("MESSAGE ")
                        .trim_start()
                        .starts_with(label)
                })
                .cloned()
                .unwrap_or_default()
        };
        assert!(row(&plain, "8 ").contains("X(O)"), "{plain:?}");
        assert!(row(&transposed, "7 ").contains("(O)"), "{transposed:?}");
        assert!(plain.last().unwrap().contains("Black to move"));
    }
}
