//! The protocol transcript suite: every `protocol-tests/cases/*.txt` runs against its own
//! `pbrain-quinto` process (format: protocol-tests/README.md). Several cases run at once;
//! a failure names the file and line.
//!
//! `QUINTO_CASE=word cargo test --test protocol` runs only the cases whose name contains it.

mod harness;

use harness::conversation::Tally;
use harness::parallel::run_parallel;
use harness::transcript::{run_file, Verdict};
use std::path::PathBuf;
use std::time::Instant;

/// Cases run at once (most of their time is spent waiting on the brain).
const PARALLEL: usize = 3;

fn case_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("protocol-tests/cases");
    let filter = std::env::var("QUINTO_CASE").unwrap_or_default();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|p| p.extension().map_or(false, |e| e == "txt"))
        .filter(|p| {
            p.file_name()
                .map_or(false, |n| n.to_string_lossy().contains(&filter))
        })
        .collect();
    files.sort();
    files
}

#[test]
fn transcript_cases() {
    let files = case_files();
    assert!(!files.is_empty(), "no case files");
    let start = Instant::now();
    let results = run_parallel(files.len(), PARALLEL, |i| {
        let started = Instant::now();
        let result = run_file(&files[i]);
        (files[i].clone(), result, started.elapsed())
    });
    let mut failures = Vec::new();
    let (mut requests, mut moves, mut skipped) = (0, 0, 0);
    for (file, result, took) in &results {
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        let ms = took.as_millis();
        let mut count = |tally: &Tally| {
            requests += tally.requests;
            moves += tally.moves_checked;
            format!(
                "{} requests, {} moves checked, {ms} ms",
                tally.requests, tally.moves_checked
            )
        };
        match result {
            Ok(Verdict::Passed(tally)) => println!("ok    {name}: {}", count(tally)),
            Ok(Verdict::UnexpectedPass(tally)) => println!(
                "XPASS {name}: {} -- it passed: once it passes reliably, remove its `! xfail` line",
                count(tally)
            ),
            Ok(Verdict::KnownFailure { why, failure }) => {
                println!("xfail {name}: known failure ({why}): {failure}")
            }
            Ok(Verdict::Skipped(why)) => {
                skipped += 1;
                println!("SKIP  {name}: not run, QUINTO_SKIP_CASES says: {why}")
            }
            Err(why) => {
                println!("FAIL  {why}");
                failures.push(why.clone());
            }
        }
    }
    let skipped = match skipped {
        0 => String::new(),
        n => format!(" ({n} skipped)"),
    };
    println!(
        "{} cases{skipped}, {requests} requests, {moves} engine moves checked, {} ms",
        results.len(),
        start.elapsed().as_millis()
    );
    assert!(
        failures.is_empty(),
        "{} case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
