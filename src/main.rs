//! `pbrain-quinto`: the Gomocup brain (no arguments) and its subcommands.

use quinto::bench::rules_bench;
use std::process::ExitCode;

const USAGE: &str = "usage: pbrain-quinto [bench [ROUNDS]]
  (no arguments)  speak the Gomocup/Piskvork brain protocol on stdin/stdout
  bench [ROUNDS]  print the rules-layer speed figures (default 200 rounds)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("bench") => {
            let rounds = match args.get(1).map(|r| r.parse::<usize>()) {
                None => 200,
                Some(Ok(n)) if n > 0 => n,
                Some(_) => {
                    eprintln!("bench: ROUNDS must be a positive number\n{USAGE}");
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
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("unknown command '{other}'\n{USAGE}");
            ExitCode::from(2)
        }
        None => {
            eprintln!("the protocol loop is not built yet\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
