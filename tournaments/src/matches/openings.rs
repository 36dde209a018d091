//! Opening files: one position per line as a move list, black first — `h8 i9 j10` (renju
//! notation: column letter from the left, row counted from the bottom) or protocol
//! coordinates `7,7 8,6 9,5` (0-based, y from the top). Blank lines are skipped and `#`
//! starts a comment (to the end of the line).

use quinto::game::{judge_move, Board, BoardSize, Color, Pos, Rule, Verdict};
use quinto::rng::Rng;
use std::path::Path;

/// One opening position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// 1-based line number in its file (0 for the empty board).
    pub line: usize,
    /// The stones in move order: black, white, black, …
    pub moves: Vec<Pos>,
}

impl Opening {
    /// The empty board.
    pub fn empty() -> Opening {
        Opening {
            line: 0,
            moves: Vec::new(),
        }
    }

    /// The moves in renju notation, `-` for the empty board.
    pub fn describe(&self, size: BoardSize) -> String {
        if self.moves.is_empty() {
            return "-".into();
        }
        self.moves
            .iter()
            .map(|&p| size.to_human(p))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Reads and checks an opening file: every move on the board, on an empty point, not a
/// forbidden point for black (renju), and none ending the game.
pub fn read_file(path: &Path, size: BoardSize, rule: Rule) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read openings {}: {e}", path.display()))?;
    let openings = parse(&text, size, rule).map_err(|e| format!("{}: {e}", path.display()))?;
    if openings.is_empty() {
        return Err(format!("{}: no openings in the file", path.display()));
    }
    Ok(openings)
}

/// Parses opening lines (see the module notes).
pub fn parse(text: &str, size: BoardSize, rule: Rule) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let moves = parse_moves(content, size).map_err(|e| format!("line {}: {e}", i + 1))?;
        check_position(&moves, size, rule).map_err(|e| format!("line {}: {e}", i + 1))?;
        openings.push(Opening { line: i + 1, moves });
    }
    Ok(openings)
}

/// A move list: `h8 i9` or `7,7 8,6` (space separated; the two styles may be mixed).
pub fn parse_moves(text: &str, size: BoardSize) -> Result<Vec<Pos>, String> {
    text.split_whitespace()
        .map(|token| {
            if let Some((x, y)) = token.split_once(',') {
                let x: i64 = x
                    .parse()
                    .map_err(|_| format!("'{token}' is not a point like 7,7"))?;
                let y: i64 = y
                    .parse()
                    .map_err(|_| format!("'{token}' is not a point like 7,7"))?;
                size.pos(x, y).ok_or_else(|| {
                    format!(
                        "'{token}' is off the {}x{} board",
                        size.width(),
                        size.height()
                    )
                })
            } else {
                size.parse_human(token)
            }
        })
        .collect()
}

/// Plays the moves through the referee; every one must leave the game going.
pub fn check_position(moves: &[Pos], size: BoardSize, rule: Rule) -> Result<Board, String> {
    let mut board = Board::new(size, rule);
    for (i, &pos) in moves.iter().enumerate() {
        let color = Color::to_move_after(i);
        let verdict = judge_move(&mut board, pos.x() as i64, pos.y() as i64, color, None);
        let what = match verdict {
            Verdict::Continue => continue,
            Verdict::Occupied => "is on an occupied point".to_string(),
            Verdict::OffBoard => "is off the board".to_string(),
            Verdict::Forbidden(foul) => format!("is forbidden for black ({})", foul.describe()),
            Verdict::Win => "wins the game".to_string(),
            Verdict::Draw => "ends the game in a draw".to_string(),
        };
        return Err(format!("move {} ({}) {what}", i + 1, size.to_human(pos)));
    }
    Ok(board)
}

/// The order in which openings are used: file order, or shuffled with `seed`.
pub fn order(count: usize, random: bool, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..count).collect();
    if random {
        let mut rng = Rng::new(seed);
        for i in (1..order.len()).rev() {
            let j = rng.below(i + 1);
            order.swap(i, j);
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s15() -> BoardSize {
        BoardSize::square(15).unwrap()
    }

    #[test]
    fn both_notations_comments_and_blank_lines() {
        let text = "# a suite\n\nh8 i9 j10\n7,7 8,8   # protocol style\n  \nh8 8,6 # mixed\n";
        let o = parse(text, s15(), Rule::Freestyle).unwrap();
        assert_eq!(o.len(), 3);
        assert_eq!(o[0].line, 3);
        assert_eq!(
            o[0].moves,
            vec![Pos::new(7, 7), Pos::new(8, 6), Pos::new(9, 5)]
        );
        assert_eq!(o[1].moves, vec![Pos::new(7, 7), Pos::new(8, 8)]);
        assert_eq!(o[2].moves, vec![Pos::new(7, 7), Pos::new(8, 6)]);
        assert_eq!(o[0].describe(s15()), "h8 i9 j10");
    }

    #[test]
    fn bad_openings_name_the_line_and_move() {
        let e = parse("h8\nh8 h8\n", s15(), Rule::Freestyle).unwrap_err();
        assert!(
            e.starts_with("line 2: move 2 (h8) is on an occupied"),
            "{e}"
        );
        let e = parse("h8 zz\n", s15(), Rule::Freestyle).unwrap_err();
        assert!(e.starts_with("line 1:"), "{e}");
        let e = parse("15,3\n", s15(), Rule::Freestyle).unwrap_err();
        assert!(e.contains("off the 15x15 board"), "{e}");
        // Five black stones in a row: the opening would already be over.
        let e = parse("a1 o1 b1 o2 c1 o3 d1 o5 e1\n", s15(), Rule::Freestyle).unwrap_err();
        assert!(e.contains("move 9 (e1) wins the game"), "{e}");
    }

    #[test]
    fn renju_openings_may_not_hold_a_forbidden_black_stone() {
        // Black f8 g8 and h6 h7 (white far off): h8 would be a double three.
        let e = parse("f8 a1 g8 a3 h6 a5 h7 o15 h8\n", s15(), Rule::Renju).unwrap_err();
        assert!(e.contains("move 9 (h8) is forbidden for black"), "{e}");
        assert!(parse("f8 a1 g8 a3 h6 a5 h7 o15 h8\n", s15(), Rule::Freestyle).is_ok());
    }

    #[test]
    fn shuffled_order_is_a_permutation_fixed_by_the_seed() {
        let a = order(30, true, 7);
        let b = order(30, true, 7);
        let c = order(30, true, 8);
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..30).collect::<Vec<_>>());
        assert_eq!(order(5, false, 1), vec![0, 1, 2, 3, 4]);
    }
}
