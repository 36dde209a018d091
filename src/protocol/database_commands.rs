//! Yixin-Board's database commands answered from a [`Database`]: the `MESSAGE DATABASE …`
//! lines its main.c reads (no other reply: the GUI waits for none). With no database in use,
//! queries get nothing, as from an empty one; with `INFO database_readonly 1`, edits are
//! refused.

use super::command::{DatabaseOp, Point};
use super::database::{Canonical, Database, Record};
use super::output::Sink;
use super::startup::executable_dir;
use crate::game::{BoardSize, Pos, Rule};
use std::path::Path;

/// Carries out `op` on the position after `moves` (black first), refusing edits when
/// `readonly`; `game` is the rule and the board of the game in progress, if any.
pub fn answer(
    database: &mut Option<Database>,
    readonly: bool,
    op: DatabaseOp,
    moves: &[Point],
    game: Option<(Rule, BoardSize)>,
    out: &mut dyn Sink,
) {
    let message = |out: &mut dyn Sink, text: &str| out.line(&format!("MESSAGE {text}"));
    let open = match op {
        DatabaseOp::Set(path) => {
            let path = path.trim();
            if path.is_empty() {
                return message(out, "yxsetdatabase: no file name");
            }
            save(database, out);
            let (opened, note) = Database::open(Path::new(path));
            *database = Some(opened);
            return message(out, &note);
        }
        DatabaseOp::Invalid(why) => return message(out, &format!("analysis database: {why}")),
        _ => match database.as_mut() {
            Some(open) => open,
            None if is_query(&op) => return,
            None => return message(out, "no database: choose one first (yxsetdatabase)"),
        },
    };
    if op == DatabaseOp::Save {
        return save(database, out);
    }
    if readonly && !is_query(&op) {
        return message(
            out,
            "analysis database is read-only (INFO database_readonly 1): not changed",
        );
    }
    let (rule, size) = match game {
        Some(game) => game,
        None => return message(out, "analysis database: no game (START first)"),
    };
    let position = match positions(size, moves) {
        Ok(position) => position,
        Err(why) => return message(out, &format!("analysis database: {why}")),
    };
    let here = Canonical::new(rule, size, &position);
    let record = open.get(&here.key).cloned().unwrap_or_default();
    match op {
        DatabaseOp::QueryAll { text } => {
            out.line("MESSAGE DATABASE REFRESH");
            for pos in size.points().filter(|p| !position.contains(p)) {
                let mut child = position.clone();
                child.push(pos);
                let child = open.get(&Canonical::new(rule, size, &child).key);
                let label = record.labels.get(&here.point(pos));
                if child.is_none() && label.is_none() {
                    continue;
                }
                let child = child.cloned().unwrap_or_default();
                out.line(&format!(
                    "MESSAGE DATABASE {} {} {} {} {} {} {} {}",
                    pos.x(),
                    pos.y(),
                    if child.tag > 0 { child.tag } else { -1 },
                    child.value,
                    child.depth,
                    child.bound,
                    i32::from(!child.text.is_empty()),
                    label.map_or("", String::as_str)
                ));
            }
            out.line("MESSAGE DATABASE DONE");
            if text {
                for line in text_lines(&record) {
                    out.line(&line);
                }
            }
        }
        DatabaseOp::QueryOne => out.line(&one_line(open.get(&here.key))),
        DatabaseOp::QueryText => {
            for line in text_lines(&record) {
                out.line(&line);
            }
        }
        DatabaseOp::EditTvd {
            mask,
            tag,
            value,
            depth,
        } => {
            let clamp = |n: i64| n.clamp(i32::MIN.into(), i32::MAX.into()) as i32;
            open.edit(&here.key, |r| {
                if mask & 1 != 0 {
                    r.tag = clamp(tag).max(0);
                }
                if mask & 2 != 0 {
                    r.value = clamp(value);
                }
                if mask & 4 != 0 {
                    r.depth = clamp(depth);
                    r.bound = EXACT;
                }
            });
            out.line(&one_line(open.get(&here.key)));
        }
        DatabaseOp::EditText(text) => open.edit(&here.key, |r| r.text = text),
        DatabaseOp::EditLabel { point, label } => match size.pos(point.x, point.y) {
            Some(pos) => open.edit(&here.key, |r| {
                let at = here.point(pos);
                if label.is_empty() {
                    r.labels.remove(&at);
                } else {
                    r.labels.insert(at, label);
                }
            }),
            None => {
                return message(
                    out,
                    &format!(
                        "analysis database: label point {},{} is off the board",
                        point.x, point.y
                    ),
                )
            }
        },
        DatabaseOp::DeleteOne => open.delete(&here.key, false),
        DatabaseOp::DeleteAll => open.delete(&here.key, true),
        DatabaseOp::Set(_) | DatabaseOp::Save | DatabaseOp::Invalid(_) => {}
    }
    save(database, out);
}

/// `INFO usedatabase`: on, the default database (`DEFAULT_FILE` beside the executable) when
/// none is in use; off, the one in use saved and closed.
pub fn use_default(database: &mut Option<Database>, on: bool, out: &mut dyn Sink) {
    if !on {
        save(database, out);
        *database = None;
    } else if database.is_none() {
        let path = executable_dir().unwrap_or_default().join(DEFAULT_FILE);
        let (opened, note) = Database::open(&path);
        *database = Some(opened);
        out.line(&format!("MESSAGE {note}"));
    }
}

/// The database `INFO usedatabase 1` opens when none was chosen.
pub const DEFAULT_FILE: &str = "pbrain-quinto-database.txt";

/// Saves what changed; a failure is said, never fatal.
pub fn save(database: &mut Option<Database>, out: &mut dyn Sink) {
    if let Some(Err(why)) = database.as_mut().map(Database::save) {
        out.line(&format!("MESSAGE {why}"));
    }
}

/// Yixin-Board's bound for a depth the user set.
const EXACT: i32 = 3;

fn is_query(op: &DatabaseOp) -> bool {
    matches!(
        op,
        DatabaseOp::QueryAll { .. } | DatabaseOp::QueryOne | DatabaseOp::QueryText
    )
}

/// The moves as points of the board, each on an empty one.
fn positions(size: BoardSize, moves: &[Point]) -> Result<Vec<Pos>, String> {
    let mut position = Vec::with_capacity(moves.len());
    for point in moves {
        match size.pos(point.x, point.y) {
            Some(pos) if !position.contains(&pos) => position.push(pos),
            Some(_) => return Err(format!("{},{} is played twice", point.x, point.y)),
            None => return Err(format!("{},{} is off the board", point.x, point.y)),
        }
    }
    Ok(position)
}

/// `MESSAGE DATABASE ONE TAG VALUE DEPTH BOUND`, zeros for a position not in the database.
fn one_line(record: Option<&Record>) -> String {
    let record = record.cloned().unwrap_or_default();
    format!(
        "MESSAGE DATABASE ONE {} {} {} {}",
        record.tag, record.value, record.depth, record.bound
    )
}

/// `MESSAGE DATABASE TEXT "…"` with `"` and `\` escaped as Yixin-Board reads them: its
/// main.c reads on past a line's end until the closing quote, keeping each line break, so
/// a comment of several lines comes back as it was written (the last line may be just the
/// quote).
fn text_lines(record: &Record) -> Vec<String> {
    let mut quoted = String::from("MESSAGE DATABASE TEXT \"");
    for c in record.text.chars() {
        if c == '"' || c == '\\' {
            quoted.push('\\');
        }
        quoted.push(c);
    }
    quoted.push('"');
    quoted
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line).to_string())
        .collect()
}
