//! `pbrain-quinto play`: gomoku and renju in a terminal, against the engine, another person
//! or the engine against itself; and `--replay` of saved games.
//!
//! One concept per file: `options` (flags), `level` (strengths), `game` (moves, undo/redo,
//! result), `clock`, `render` (the board as text), `input` (commands), `replay`, `worker`
//! (the engine and input threads), `session` (the loop); `.psq` records are the crate's
//! `record` module, shared with the match runner. The loop reads any `BufRead` and writes
//! any `Write`, so tests drive it with scripted input.

pub mod clock;
pub mod game;
pub mod input;
pub mod level;
pub mod options;
pub mod render;
pub mod replay;
pub mod session;
pub mod worker;

pub use crate::record::Record;
pub use options::{default_records_dir, help, parse, Options, Parsed, Player};
pub use replay::replay;
pub use session::{play, Screen, Summary};

use std::io::{self, BufReader, Write};
use std::time::Duration;

/// Engine against engine on a terminal: at least this long between moves.
const WATCH_PACE: Duration = Duration::from_millis(500);

/// What the binary knows about its terminal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terminal {
    pub stdin_is_terminal: bool,
    pub stdout_is_terminal: bool,
    /// The terminal understands ANSI colours.
    pub ansi: bool,
}

/// Runs `pbrain-quinto play ARGS` on stdin and stdout; returns the exit code (2 for bad
/// flags, 1 for a record that cannot be replayed or a broken output).
pub fn command(args: &[String], terminal: Terminal) -> u8 {
    let options = match parse(args) {
        Ok(Parsed::Play(options)) => options,
        Ok(Parsed::Help) => {
            println!("{}", help());
            return 0;
        }
        Err(why) => {
            eprintln!("pbrain-quinto play: {why}\n(pbrain-quinto play --help lists the options)");
            return 2;
        }
    };
    let colour = !options.ascii
        && terminal.stdout_is_terminal
        && terminal.ansi
        && std::env::var_os("NO_COLOR").map_or(true, |v| v.is_empty());
    let interactive = terminal.stdin_is_terminal;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    if let Some(path) = &options.replay {
        let record = match Record::read(path) {
            Ok(record) => record,
            Err(why) => {
                eprintln!("pbrain-quinto play: {why}");
                return 1;
            }
        };
        let stdin = io::stdin();
        let mut input = stdin.lock();
        let rule = options.rule_given.then_some(options.rule);
        return match replay(&record, rule, &mut input, &mut out, colour, !interactive) {
            Ok(()) => 0,
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
            Err(e) => {
                eprintln!("pbrain-quinto play: {e}");
                1
            }
        };
    }
    let records = options.records.clone().unwrap_or_else(default_records_dir);
    let screen = Screen {
        colour,
        interactive,
        pace: if terminal.stdout_is_terminal {
            WATCH_PACE
        } else {
            Duration::ZERO
        },
    };
    let input = Box::new(BufReader::new(io::stdin()));
    match play(&options, &records, input, &mut out, screen) {
        Ok(_) => {
            let _ = out.flush();
            0
        }
        Err(why) => {
            eprintln!("pbrain-quinto play: {why}");
            1
        }
    }
}
