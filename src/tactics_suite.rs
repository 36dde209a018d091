//! Forced-win suites for `pbrain-quinto bench tactics --suite FILE`: positions from real
//! games where the side to move has a win that Rapfi proved, with Rapfi's mate length and
//! nodes. One position a line (`#` starts a comment):
//!
//! `RULE SIZE MATE_PLIES RAPFI_NODES SOURCE MOVES`
//!
//! RULE is the protocol's number (0 freestyle, 1 standard, 4 renju, 8 and 9 caro), SIZE the
//! board's side, SOURCE a word naming the game, MOVES every move from black's first in renju
//! notation, separated by commas. The last move is the defender's that let the win in: the
//! position before it is where the defence is measured, when it was not lost already. A
//! `def=E` part of SOURCE (parts separated by colons) gives Rapfi's evaluation of that
//! position for the defender: a number, or `-Mn` when Rapfi proved it lost too.

use crate::game::{judge_move, Board, BoardSize, Rule, Verdict};
use std::borrow::Cow;

/// A position where the side to move has a forced win, with what Rapfi (classical
/// evaluation) needed to prove it.
#[derive(Clone, Debug)]
pub struct Tactic {
    pub rule: Rule,
    pub side: usize,
    /// The moves in renju notation, separated by spaces.
    pub moves: Cow<'static, str>,
    pub rapfi_mate_plies: u32,
    pub rapfi_nodes: u64,
    /// Whether Rapfi held the defender's position one move earlier to be not lost (its
    /// `def=` evaluation a number): where the defence score counts.
    pub defensible: bool,
}

impl Tactic {
    /// The moves before the last one: the defender's position, and the move it played there.
    pub fn defence(&self) -> Option<(&str, &str)> {
        let moves = self.moves.trim_end();
        let cut = moves.rfind(' ')?;
        Some((&moves[..cut], moves[cut + 1..].trim()))
    }
}

/// The positions of a suite file's text; the first bad line's number and fault otherwise.
pub fn parse_suite(text: &str) -> Result<Vec<Tactic>, String> {
    let mut tactics = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let tactic = parse_line(line).map_err(|why| format!("line {}: {why}", number + 1))?;
        tactics.push(tactic);
    }
    if tactics.is_empty() {
        return Err("no positions".into());
    }
    Ok(tactics)
}

fn parse_line(line: &str) -> Result<Tactic, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() != 6 {
        return Err(format!(
            "{} fields, expected 6 (RULE SIZE MATE_PLIES RAPFI_NODES SOURCE MOVES)",
            fields.len()
        ));
    }
    let number = |text: &str, what: &str| {
        text.parse::<u64>()
            .map_err(|_| format!("{what} '{text}' is not a number"))
    };
    let rule = number(fields[0], "RULE")
        .ok()
        .and_then(|n| u32::try_from(n).ok())
        .and_then(Rule::from_protocol)
        .ok_or_else(|| format!("RULE '{}' is not 0, 1, 4, 8 or 9", fields[0]))?;
    let side = number(fields[1], "SIZE")?;
    let size = usize::try_from(side)
        .ok()
        .and_then(|s| BoardSize::square(s).ok())
        .ok_or_else(|| format!("SIZE {side} is not a board size"))?;
    let rapfi_mate_plies = u32::try_from(number(fields[2], "MATE_PLIES")?)
        .map_err(|_| "MATE_PLIES is too large".to_string())?;
    let rapfi_nodes = number(fields[3], "RAPFI_NODES")?;
    let mut board = Board::new(size, rule);
    let mut moves = Vec::new();
    for text in fields[5].split(',').filter(|t| !t.is_empty()) {
        let pos = size.parse_human(text)?;
        let color = board.side_to_move();
        match judge_move(&mut board, pos.x() as i64, pos.y() as i64, color, None) {
            Verdict::Continue => moves.push(size.to_human(pos)),
            verdict => return Err(format!("move {text}: {verdict:?}, not a game going on")),
        }
    }
    if moves.len() < 2 {
        return Err("fewer than two moves".into());
    }
    let defensible = fields[4]
        .split(':')
        .filter_map(|part| part.strip_prefix("def="))
        .any(|eval| eval.parse::<i64>().is_ok());
    Ok(Tactic {
        rule,
        side: side as usize,
        moves: Cow::Owned(moves.join(" ")),
        rapfi_mate_plies,
        rapfi_nodes,
        defensible,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_suite_line_gives_the_position_and_the_defenders_one() {
        let text = "# a comment\n0 15 19 401000 game1:ply5:def=-35 h8,h9,i8,i7,g8\n\n\
                    0 15 19 401000 game2:def=-M12 h8,h9,i8,i7,g8\n";
        let suite = parse_suite(text).expect("a good suite");
        assert_eq!(suite.len(), 2);
        assert!(suite[0].defensible && !suite[1].defensible);
        let t = &suite[0];
        assert_eq!(
            (t.rule, t.side, t.rapfi_mate_plies, t.rapfi_nodes),
            (Rule::Freestyle, 15, 19, 401_000)
        );
        assert_eq!(t.moves, "h8 h9 i8 i7 g8");
        assert_eq!(t.defence(), Some(("h8 h9 i8 i7", "g8")));
    }

    #[test]
    fn the_committed_suites_parse() {
        for (text, count) in [
            (
                include_str!("../tournaments/suites/forced-wins-dev.txt"),
                157,
            ),
            (
                include_str!("../tournaments/suites/forced-wins-validation.txt"),
                155,
            ),
        ] {
            let suite = parse_suite(text).expect("the committed suites are valid");
            assert_eq!(suite.len(), count);
            assert!(suite.iter().filter(|t| t.defensible).count() > count / 3);
        }
    }

    #[test]
    fn bad_lines_are_named_not_crashed_on() {
        for (text, fault) in [
            ("0 15 19 401000 g h8,h9 extra", "7 fields"),
            ("3 15 19 401000 g h8,h9", "RULE '3'"),
            ("0 99 19 401000 g h8,h9", "SIZE 99"),
            ("0 15 x 401000 g h8,h9", "MATE_PLIES 'x'"),
            ("0 15 19 401000 g h8,h8", "Occupied"),
            ("0 15 19 401000 g h8,z99", "off the 15x15 board"),
            ("0 15 19 401000 g h8,99", "not a point"),
            ("0 15 19 401000 g h8", "fewer than two"),
            ("# nothing\n", "no positions"),
        ] {
            let why = parse_suite(text).expect_err(text);
            assert!(why.contains(fault), "{text}: {why}");
        }
    }
}
