//! What the fuzz streams must not do, whatever the damage: end the brain before the stream
//! is over (END, or a block closed by END), run the rules benchmark (BENCH takes seconds),
//! or let it think long (a big `INFO timeout_turn`) or allocate a big table for every START
//! (`INFO max_memory 0` or large), or write a database beside the executable (`INFO
//! usedatabase 1`). Such lines are changed as the brain would read them.

use crate::harness::request::{number, split_word};

/// The largest move time the fuzz allows, in milliseconds.
pub const MAX_TURN_MS: i64 = 20;
/// The memory the fuzz allows (the transposition table is sized from it).
pub const MEMORY: i64 = 40_000_000;

pub fn lines(lines: &mut Vec<Vec<u8>>) {
    lines.retain(|line| {
        let word = first_word(line);
        word != "END" && word != "BENCH"
    });
    // A database file only where the fuzz keeps it: the line after yxsetdatabase names it.
    let mut i = 0;
    while i < lines.len() {
        if first_word(&lines[i]) == "YXSETDATABASE" {
            let safe = database_file().into_bytes();
            match lines.get_mut(i + 1) {
                Some(next) => *next = safe,
                None => lines.push(safe),
            }
            i += 1;
        }
        i += 1;
    }
    for line in lines.iter_mut() {
        if let Some(tamed) = tame_info(line) {
            *line = tamed;
        }
    }
}

/// The database file the fuzz streams may write (in the system's temporary directory).
fn database_file() -> String {
    std::env::temp_dir()
        .join("quinto-fuzz.db")
        .to_string_lossy()
        .into_owned()
}

fn first_word(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line);
    split_word(text.trim()).0.to_ascii_uppercase()
}

/// An `INFO timeout_turn` or `INFO max_memory` line with a number out of bounds, bounded;
/// `INFO usedatabase` off.
fn tame_info(line: &[u8]) -> Option<Vec<u8>> {
    let text = String::from_utf8_lossy(line);
    let (word, rest) = split_word(text.trim());
    if !word.eq_ignore_ascii_case("INFO") {
        return None;
    }
    let (key, value) = split_word(rest);
    let value = number(value)?;
    match key.to_ascii_lowercase().as_str() {
        "timeout_turn" if value > MAX_TURN_MS => {
            Some(format!("INFO timeout_turn {}", value.rem_euclid(MAX_TURN_MS + 1)).into_bytes())
        }
        "max_memory" if value == 0 || value > MEMORY * 2 => {
            Some(format!("INFO max_memory {MEMORY}").into_bytes())
        }
        // The default database lies beside the executable: the fuzz writes none there.
        "usedatabase" if value != 0 => Some(b"INFO usedatabase 0".to_vec()),
        _ => None,
    }
}
