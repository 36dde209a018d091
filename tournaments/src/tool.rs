//! What the tools' command lines share: `--help`, `--flag value` pairs, and the exit code.

use std::process::ExitCode;

/// A tool's `main`: `--help` (or `-h`) anywhere prints `usage`; otherwise `run` gets the
/// arguments, and an error goes to stderr as `TOOL: error`, with exit code 2.
pub fn main(
    tool: &str,
    usage: &str,
    run: impl FnOnce(Vec<String>) -> Result<(), String>,
) -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{usage}");
        return ExitCode::SUCCESS;
    }
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("{tool}: {why}");
            ExitCode::from(2)
        }
    }
}

/// The arguments as `--flag value` pairs; a flag without its value is an error.
pub fn flag_pairs(args: Vec<String>, usage: &str) -> Result<Vec<(String, String)>, String> {
    let mut pairs = Vec::new();
    let mut args = args.into_iter();
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .ok_or_else(|| format!("{flag} needs a value\n{usage}"))?;
        pairs.push((flag, value));
    }
    Ok(pairs)
}
