//! Stepping through a saved game: forwards, backwards, to the start, the end or a move.

use super::game::{color_name, forbidden_points, winning_line};
use super::input::{parse_step, Step, REPLAY_HELP};
use super::render::{draw, Marks, Style};
use crate::game::{Board, Color, Rule};
use crate::record::Record;
use std::io::{self, BufRead, Write};

/// Shows `record` one move at a time as `input` asks, until `quit` or the end of input.
/// `rule` is the rule to show it under when the record does not name one.
pub fn replay(
    record: &Record,
    rule: Option<Rule>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    colour: bool,
    echo: bool,
) -> io::Result<()> {
    let (rule, guessed) = match (record.rule, rule) {
        (Some(rule), _) | (None, Some(rule)) => (rule, false),
        (None, None) => (Rule::Freestyle, true),
    };
    let mut view = View {
        record,
        rule,
        at: 0,
        numbers: false,
        colour,
    };
    let total = record.moves.len();
    let mut notes = vec![format!(
        "replay: {} moves on {}x{}, {}{}; black {}, white {}. Enter or n: next, b: back, help.",
        total,
        record.size.width(),
        record.size.height(),
        rule.name(),
        if guessed {
            " (the record names no rule: --rule chooses one)"
        } else {
            ""
        },
        or_unknown(&record.black),
        or_unknown(&record.white)
    )];
    let mut line = String::new();
    loop {
        view.show(out, &notes)?;
        notes.clear();
        write!(out, "replay> ")?;
        out.flush()?;
        line.clear();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(());
        }
        if echo {
            writeln!(out, "{}", line.trim_end())?;
        }
        let step = match parse_step(&line) {
            Ok(step) => step,
            Err(why) => {
                notes.push(why);
                continue;
            }
        };
        match step {
            Step::Next if view.at == total => {
                notes.push("that was the last move: back, start or quit".into())
            }
            Step::Next => view.at += 1,
            Step::Back if view.at == 0 => notes.push("this is the start: next, end or quit".into()),
            Step::Back => view.at -= 1,
            Step::Start => view.at = 0,
            Step::End => view.at = total,
            Step::To(n) if n > total => notes.push(format!("the record has {total} moves")),
            Step::To(n) => view.at = n,
            Step::Numbers => view.numbers = !view.numbers,
            Step::Help => notes.push(REPLAY_HELP.into()),
            Step::Quit => return Ok(()),
        }
    }
}

fn or_unknown(name: &str) -> &str {
    if name.is_empty() {
        "unnamed"
    } else {
        name
    }
}

struct View<'a> {
    record: &'a Record,
    rule: Rule,
    /// Moves shown.
    at: usize,
    numbers: bool,
    colour: bool,
}

impl View<'_> {
    fn show(&self, out: &mut dyn Write, notes: &[String]) -> io::Result<()> {
        let record = self.record;
        let mut board = Board::new(record.size, self.rule);
        for (i, &(pos, _)) in record.moves[..self.at].iter().enumerate() {
            board.play(pos, Color::to_move_after(i));
        }
        let end = self.at == record.moves.len();
        let marks = Marks {
            last: board.history().last().copied(),
            forbidden: if end {
                Vec::new()
            } else {
                forbidden_points(&board)
                    .into_iter()
                    .map(|(p, _)| p)
                    .collect()
            },
            winning: winning_line(&board),
        };
        let style = Style {
            colour: self.colour,
            numbers: self.numbers,
        };
        let mut text = String::new();
        if self.colour {
            text.push_str("\x1b[H\x1b[2J");
        }
        text.push_str(&draw(&board, &marks, style));
        for note in notes {
            text.push_str(note);
            text.push('\n');
        }
        let status = match self.at {
            0 => format!(
                "start: the empty board ({} moves follow)",
                record.moves.len()
            ),
            n => {
                let (pos, ms) = record.moves[n - 1];
                format!(
                    "move {n} of {}: {} {} ({:.1} s)",
                    record.moves.len(),
                    color_name(Color::to_move_after(n - 1)),
                    record.size.to_human(pos),
                    ms as f64 / 1000.0
                )
            }
        };
        text.push_str(&status);
        text.push('\n');
        if end && !record.result.is_empty() {
            text.push_str(&format!("end of the game: {}\n", record.result));
        }
        out.write_all(text.as_bytes())
    }
}
