//! `quinto-match`: the match runner's command line (see `--help` and README.md).

use quinto_match::args::{self, Parsed, USAGE};
use quinto_match::{pool, runner};
use std::process::ExitCode;

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if argv.is_empty() {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    }
    if argv[0] == "pool" {
        return match pool::run(&argv[1..]) {
            Ok(report) => {
                print!("{report}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("quinto-match pool: {e}");
                eprintln!("(quinto-match pool --help for the options)");
                ExitCode::from(2)
            }
        };
    }
    let config = match args::parse(&argv) {
        Ok(Parsed::Help) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Ok(Parsed::Run(config)) => config,
        Err(e) => {
            eprintln!("quinto-match: {e}");
            eprintln!("(quinto-match --help for the options)");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = runner::check_out_dir(&config.out) {
        eprintln!("quinto-match: {e}");
        return ExitCode::from(2);
    }
    match runner::run(&config) {
        Ok(result) => {
            print!("{}", result.summary);
            eprintln!("results in {}", config.out.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("quinto-match: {e}");
            ExitCode::from(1)
        }
    }
}
