//! Teacher labels for the evaluation fit: quiet positions of recorded games, each with the
//! game's result and a stronger engine's evaluation of it (`quinto-label` writes them,
//! `quinto-tune --labels` fits to them). A game's result says little about a position 40
//! moves before the end; a teacher's search says much more.
//!
//! One position per line, tab-separated: the game's index among the records (sorted by
//! path: positions of one game stay together when the fit holds games out), the rule
//! (protocol number), the board width, the result for the side to move (1, 0.5, 0), the
//! teacher's evaluation for the side to move, and the moves as `x,y` words. Lines starting
//! with `#` are comments.

use quinto::game::{Board, BoardSize, Color, Pos, Rule};
use quinto::record::Record;

/// Rapfi's evaluation units a logistic unit: the default teacher scale of `quinto-tune` and
/// `quinto-selfplay --teacher` (its scores fit the games' results best near this:
/// tournaments/results.md, stop 94).
pub const RAPFI_SCALE: f64 = 200.0;

/// A position of a recorded game.
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    pub game: usize,
    pub rule: Rule,
    pub size: BoardSize,
    /// The game's result for the side to move.
    pub result: f64,
    pub moves: Vec<Pos>,
}

/// A position with the teacher's evaluation for the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub position: Position,
    pub ev: i64,
}

impl Position {
    /// The board after the moves.
    pub fn board(&self) -> Result<Board, String> {
        let mut board = Board::new(self.size, self.rule);
        for &pos in &self.moves {
            if pos.x() >= self.size.width() || pos.y() >= self.size.height() {
                return Err(format!("{},{} is off the board", pos.x(), pos.y()));
            }
            if !board.is_empty(pos) {
                return Err(format!("{},{} is taken", pos.x(), pos.y()));
            }
            board.play(pos, board.side_to_move());
        }
        Ok(board)
    }
}

impl Label {
    pub fn to_line(&self) -> String {
        let p = &self.position;
        let moves: Vec<String> = p
            .moves
            .iter()
            .map(|m| format!("{},{}", m.x(), m.y()))
            .collect();
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}",
            p.game,
            p.rule.protocol_value(),
            p.size.width(),
            p.result,
            self.ev,
            moves.join(" ")
        )
    }

    pub fn parse(line: &str) -> Result<Label, String> {
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() != 6 {
            return Err(format!("{} fields, not 6", fields.len()));
        }
        let number = |i: usize, what: &str| {
            fields[i]
                .parse::<i64>()
                .map_err(|_| format!("{what} '{}' is not a number", fields[i]))
        };
        let game = number(0, "game")? as usize;
        let rule = u32::try_from(number(1, "rule")?)
            .ok()
            .and_then(Rule::from_protocol)
            .ok_or_else(|| format!("unknown rule {}", fields[1]))?;
        let size = BoardSize::square(number(2, "size")? as usize)?;
        let result: f64 = fields[3]
            .parse()
            .ok()
            .filter(|r| [0.0, 0.5, 1.0].contains(r))
            .ok_or_else(|| format!("result '{}' is not 1, 0.5 or 0", fields[3]))?;
        let ev = number(4, "evaluation")?;
        let moves = fields[5]
            .split_whitespace()
            .map(|word| {
                let (x, y) = word
                    .split_once(',')
                    .ok_or_else(|| format!("move '{word}' is not x,y"))?;
                let (x, y) = (x.parse().ok(), y.parse().ok());
                x.zip(y)
                    .and_then(|(x, y)| size.pos(x, y))
                    .ok_or_else(|| format!("move '{word}' is off the board"))
            })
            .collect::<Result<Vec<Pos>, String>>()?;
        Ok(Label {
            position: Position {
                game,
                rule,
                size,
                result,
                moves,
            },
            ev,
        })
    }
}

/// Reads a label file; a bad line is an error naming it.
pub fn read(text: &str) -> Result<Vec<Label>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| Label::parse(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

/// The result for black of a game decided on the board (a five, a full board or the stone
/// limit: not a fault): 1, 0.5 or 0; `None` for any other ending.
pub fn black_result(record: &Record) -> Option<f64> {
    let mut words = record.result.split_whitespace();
    let (score, ending) = (words.next()?, words.next()?.trim_end_matches(':'));
    if !matches!(ending, "five" | "full-board" | "stone-limit") {
        return None;
    }
    match score {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

/// No five point for either side: a position whose value is not decided by the next move or
/// two, the kind the evaluation is fitted to.
pub fn is_quiet(board: &Board) -> bool {
    !board.has_five_point(Color::Black) && !board.has_five_point(Color::White)
}

/// Replays a game decided on the board and calls `visit` with the board, the number of moves
/// played and the result for the side to move, at every quiet position (no five point for
/// either side) from the `min_stones`-th stone on. `false` for a record without a rule, a
/// fault ending or an illegal move.
pub fn quiet_positions(
    record: &Record,
    min_stones: usize,
    mut visit: impl FnMut(&Board, usize, f64),
) -> bool {
    let (rule, black_score) = match (record.rule, black_result(record)) {
        (Some(rule), Some(score)) => (rule, score),
        _ => return false,
    };
    let mut board = Board::new(record.size, rule);
    for (played, &(pos, _)) in record.moves.iter().enumerate() {
        let to_move = board.side_to_move();
        if board.stone_count() >= min_stones && is_quiet(&board) {
            let result = match to_move {
                Color::Black => black_score,
                Color::White => 1.0 - black_score,
            };
            visit(&board, played, result);
        }
        if !board.is_empty(pos) {
            return false;
        }
        board.play(pos, to_move);
    }
    true
}

/// Every `every`-th quiet position of the records (game `i` is `records[i]`), starting at a
/// different offset in each game.
pub fn positions(records: &[Record], min_stones: usize, every: usize) -> Vec<Position> {
    let every = every.max(1);
    let mut out = Vec::new();
    for (game, record) in records.iter().enumerate() {
        let rule = match record.rule {
            Some(rule) => rule,
            None => continue,
        };
        let mut quiet = 0;
        let mut picked = Vec::new();
        let complete = quiet_positions(record, min_stones, |_, played, result| {
            if (quiet + game) % every == 0 {
                picked.push(Position {
                    game,
                    rule,
                    size: record.size,
                    result,
                    moves: record.moves[..played].iter().map(|&(p, _)| p).collect(),
                });
            }
            quiet += 1;
        });
        if complete {
            out.append(&mut picked);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::training::tuning::tests::{record, BLACK_FIVE_IN_A_ROW};

    #[test]
    fn a_label_survives_its_line() {
        let size = BoardSize::square(15).unwrap();
        let label = Label {
            position: Position {
                game: 7,
                rule: Rule::Renju,
                size,
                result: 0.5,
                moves: vec![Pos::new(7, 7), Pos::new(8, 6)],
            },
            ev: -35,
        };
        assert_eq!(label.to_line(), "7\t4\t15\t0.5\t-35\t7,7 8,6");
        assert_eq!(Label::parse(&label.to_line()), Ok(label));
        assert!(Label::parse("7\t4\t15\t0.7\t-35\t7,7").is_err());
        assert!(Label::parse("7\t4\t15\t1\t-35\t7,77").is_err());
        assert!(Label::parse("7\t3\t15\t1\t-35\t7,7").is_err());
        assert!(read("# a comment\n\n1\t0\t15\t0\t12\t7,7\n").unwrap().len() == 1);
    }

    #[test]
    fn every_nth_quiet_position_of_decided_games() {
        let won = record(&BLACK_FIVE_IN_A_ROW, "1-0 five: black made five");
        let fault = record(&BLACK_FIVE_IN_A_ROW, "0-1 timeout: black: no move");
        let all = positions(&[won.clone(), fault], 0, 1);
        // Positions 0-6: black's four after move 6 gives it a five point from then on.
        assert_eq!(all.len(), 7);
        assert!(all.iter().all(|p| p.game == 0));
        assert_eq!(all[0].result, 1.0);
        assert_eq!(all[1].result, 0.0);
        assert_eq!(all[3].moves.len(), 3);
        let half = positions(&[won], 0, 2);
        assert_eq!(half.len(), 4);
        assert_eq!(half[1].moves.len(), 2);
    }
}
