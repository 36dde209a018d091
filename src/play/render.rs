//! Drawing the board as text: renju coordinates on both axes (column letters, rows counted
//! from the bottom), the last move in parentheses, optional move numbers, black's forbidden
//! points, the winning line; ANSI colours or plain ASCII.
//!
//! ```text
//!      a b c d e f g
//!   7  . . . . . . .  7
//!   6  . . O . . . .  6
//!   5  . . X(X). . .  5
//! ```

use crate::game::{Board, BoardSize, Color, Pos, POS_COUNT};

/// How to draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// ANSI colours (a terminal); otherwise plain ASCII.
    pub colour: bool,
    /// Move numbers instead of X and O (odd black, even white).
    pub numbers: bool,
}

/// What to point out on the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    pub last: Option<Pos>,
    /// Empty points black may not play (renju, black to move).
    pub forbidden: Vec<Pos>,
    /// The stones of the winning line.
    pub winning: Vec<Pos>,
}

const RESET: &str = "\x1b[0m";
const BLACK_STONE: &str = "\x1b[1;33m";
const WHITE_STONE: &str = "\x1b[1;36m";
const LAST_MOVE: &str = "\x1b[7m";
const WINNING: &str = "\x1b[1;97;42m";
const FORBIDDEN: &str = "\x1b[31m";
const EMPTY: &str = "\x1b[2m";

/// The board, the column letters above and below it, and a legend line.
pub fn draw(board: &Board, marks: &Marks, style: Style) -> String {
    let size = board.size();
    let mut number = vec![0usize; POS_COUNT];
    for (i, &pos) in board.history().iter().enumerate() {
        number[pos.index()] = i + 1;
    }
    let mut forbidden = vec![false; POS_COUNT];
    for &pos in &marks.forbidden {
        forbidden[pos.index()] = true;
    }
    let mut winning = vec![false; POS_COUNT];
    for &pos in &marks.winning {
        winning[pos.index()] = true;
    }
    let glyph_width = if style.numbers {
        board.stone_count().max(1).to_string().len()
    } else {
        1
    }
    .max(column_label(size, size.width() - 1).len());
    let cell = glyph_width + 1;
    let label = size.height().to_string().len();

    let mut header = " ".repeat(label);
    for x in 0..size.width() {
        header.push_str(&format!("{:>cell$}", column_label(size, x)));
    }
    let mut out = format!("{header}\n");
    for y in 0..size.height() {
        let row = size.height() - y;
        out.push_str(&format!("{row:>label$}"));
        let is_last = |x: usize| marks.last == Some(Pos::new(x, y));
        for x in 0..size.width() {
            let pos = Pos::new(x, y);
            let (glyph, colour) = match board.stone(pos) {
                Some(color) => {
                    let text = if style.numbers {
                        number[pos.index()].to_string()
                    } else if winning[pos.index()] && !style.colour {
                        "*".to_string()
                    } else {
                        stone_letter(color).to_string()
                    };
                    let colour = if winning[pos.index()] {
                        WINNING
                    } else if color == Color::Black {
                        BLACK_STONE
                    } else {
                        WHITE_STONE
                    };
                    (text, colour)
                }
                None if forbidden[pos.index()] => ("#".to_string(), FORBIDDEN),
                None => (".".to_string(), EMPTY),
            };
            let mut lead = vec![' '; cell - glyph.len()];
            if x > 0 && is_last(x - 1) {
                lead[0] = ')';
            }
            if is_last(x) {
                let at = lead.len() - 1;
                lead[at] = '(';
            }
            out.extend(lead);
            if style.colour {
                let extra = if is_last(x) { LAST_MOVE } else { "" };
                out.push_str(&format!("{colour}{extra}{glyph}{RESET}"));
            } else {
                out.push_str(&glyph);
            }
        }
        out.push(if is_last(size.width() - 1) { ')' } else { ' ' });
        out.push_str(&format!(" {row}\n"));
    }
    out.push_str(&format!("{header}\n"));
    out.push_str(&legend(marks, style));
    out.push('\n');
    out
}

/// `X black  O white  (X) last move …`, naming only what is on the board.
fn legend(marks: &Marks, style: Style) -> String {
    let mut parts = vec![if style.numbers {
        "odd numbers black, even numbers white".to_string()
    } else {
        "X black  O white".to_string()
    }];
    if marks.last.is_some() {
        parts.push("( ) last move".into());
    }
    if !marks.forbidden.is_empty() {
        parts.push("# forbidden for black".into());
    }
    if !marks.winning.is_empty() {
        parts.push(
            if style.colour {
                "green: the winning line"
            } else if style.numbers {
                "the winning line is named below"
            } else {
                "* the winning line"
            }
            .into(),
        );
    }
    parts.join("   ")
}

fn stone_letter(color: Color) -> char {
    match color {
        Color::Black => 'X',
        Color::White => 'O',
    }
}

/// The column's letters (`a`…`z`, `aa`…`af`).
fn column_label(size: BoardSize, x: usize) -> String {
    size.to_human(Pos::new(x, 0))
        .trim_end_matches(|c: char| c.is_ascii_digit())
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rule;

    fn board(side: usize, moves: &[&str]) -> Board {
        let size = BoardSize::square(side).unwrap();
        let mut board = Board::new(size, Rule::Freestyle);
        for m in moves {
            let pos = size.parse_human(m).unwrap();
            board.play(pos, board.side_to_move());
        }
        board
    }

    #[test]
    fn ascii_board_has_coordinates_and_marks_the_last_move() {
        let b = board(7, &["c3", "d3", "e3"]);
        let marks = Marks {
            last: b.history().last().copied(),
            ..Marks::default()
        };
        let text = draw(&b, &marks, Style::default());
        let expected = "  a b c d e f g
7 . . . . . . .  7
6 . . . . . . .  6
5 . . . . . . .  5
4 . . . . . . .  4
3 . . X O(X). .  3
2 . . . . . . .  2
1 . . . . . . .  1
  a b c d e f g
X black  O white   ( ) last move
";
        assert_eq!(text, expected);
    }

    #[test]
    fn numbers_forbidden_points_and_the_winning_line() {
        let b = board(7, &["a1", "b2", "b1", "c3", "c1"]);
        let marks = Marks {
            last: Some(Pos::new(6, 6)),
            forbidden: vec![Pos::new(3, 3)],
            winning: vec![Pos::new(0, 6), Pos::new(1, 6)],
        };
        let text = draw(
            &b,
            &marks,
            Style {
                colour: false,
                numbers: false,
            },
        );
        assert!(text.contains("1 * * X . . .(.) 1"), "{text}");
        assert!(text.contains("4 . . . # . . .  4"), "{text}");
        let text = draw(
            &b,
            &marks,
            Style {
                colour: false,
                numbers: true,
            },
        );
        assert!(text.contains("1 1 3 5 . . .(.) 1"), "{text}");
        let text = draw(
            &b,
            &marks,
            Style {
                colour: true,
                numbers: false,
            },
        );
        assert!(text.contains("\x1b[1;97;42mX\x1b[0m"), "{text}");
    }

    #[test]
    fn wide_boards_get_two_letter_columns() {
        let b = board(28, &["ab28"]);
        let text = draw(&b, &Marks::default(), Style::default());
        let first = text.lines().next().unwrap();
        assert!(first.ends_with(" z aa ab"), "{first}");
        let top = text.lines().nth(1).unwrap();
        assert!(
            top.starts_with("28  .  .") && top.ends_with("  X  28"),
            "{top}"
        );
    }
}
