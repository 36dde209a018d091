//! `pbrain-quinto`: the Gomocup brain (no arguments) and its subcommands.

mod terminal;

use quinto::bench::rules_bench;
use std::process::ExitCode;

const USAGE: &str = "usage: pbrain-quinto [COMMAND]
  (no command)    speak the Gomocup/Piskvork brain protocol on stdin/stdout
  bench [ROUNDS]  print the rules-layer speed figures (default 200 rounds)
  help            this text

Logging is off unless QUINTO_LOG names a file to append to (level from QUINTO_LOG_LEVEL,
default info); nothing is ever written to stderr in protocol mode.";

fn main() -> ExitCode {
    init_logging();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => {
            quinto::protocol::run(terminal::stdin_is_terminal());
            ExitCode::SUCCESS
        }
        Some("bench") => bench(args.get(1)),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("pbrain-quinto: unknown command '{other}'\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn bench(rounds: Option<&String>) -> ExitCode {
    let rounds = match rounds.map(|r| r.parse::<usize>()) {
        None => 200,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("pbrain-quinto bench: ROUNDS must be a positive number\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let f = rules_bench(rounds);
    println!(
        "move+undo: {} pairs in {} crowded renju positions, {:.0} pairs/s",
        f.move_undo_pairs, f.positions, f.move_undo_per_second
    );
    println!(
        "renju fouls: {} verdicts ({} forbidden points per pass), {:.0} verdicts/s",
        f.foul_verdicts, f.fouls_found, f.foul_verdicts_per_second
    );
    ExitCode::SUCCESS
}

/// Logging goes to the file named by QUINTO_LOG, and only then.
fn init_logging() {
    let path = match std::env::var_os("QUINTO_LOG") {
        Some(path) => path,
        None => return,
    };
    let file = match std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        Ok(file) => file,
        Err(_) => return,
    };
    let level = std::env::var("QUINTO_LOG_LEVEL").unwrap_or_else(|_| "info".into());
    let _ = env_logger::Builder::new()
        .parse_filters(&level)
        .target(env_logger::Target::Pipe(Box::new(file)))
        .try_init();
}
