//! Fuzzing the protocol front end through the binary: thousands of random and damaged
//! command streams (seeded, reproducible), many streams per process. After each stream (in
//! "line by line" mode after every line) the harness sends ABOUT and reads up to its answer,
//! so every reply is matched to its request: the brain must stay alive, answer every request
//! as the protocol says (a legal move or one ERROR for every move request), print no line
//! of another kind and nothing on stderr.
//!
//! `QUINTO_FUZZ_SEED=S` changes the seeds (batch `i` uses `S + i`); `QUINTO_FUZZ_BATCHES=N`
//! runs N batches (a failure report names its batch seed: rerun it alone with
//! `QUINTO_FUZZ_SEED=<that seed> QUINTO_FUZZ_BATCHES=1`). With `QUINTO_FUZZ_KEEP=DIR` a
//! failing batch leaves everything it sent in `DIR/fuzz-<seed>.in`, for
//! `pbrain-quinto < DIR/fuzz-<seed>.in`.

mod fuzzing;
mod harness;

use fuzzing::{chance, show};
use harness::conversation::{once_more_if_silent_exit, Conversation, Tally};
use harness::parallel::run_parallel;
use quinto::rng::Rng;
use std::time::{Duration, Instant};

const DEFAULT_SEED: u64 = 0x51_5e_ed;
const DEFAULT_BATCHES: usize = 12;
/// Streams sent to one process.
const STREAMS_PER_BATCH: usize = 150;
/// Processes at once (the machine has two cores).
const PARALLEL: usize = 2;
/// The longest wait for one reply (moves are limited to 20 ms: see fuzzing/tame.rs).
const REPLY_TIMEOUT: Duration = Duration::from_secs(5);
/// Sent first to every process: short thinking, a small table (see fuzzing/tame.rs).
const PRELUDE: &[u8] = b"INFO timeout_turn 10\nINFO max_memory 40000000\n";

/// Engine bugs already reported, as (a piece of the failure message, the report). A batch
/// that fails with one of them is listed, not counted (its remaining streams are skipped);
/// an entry goes when its bug is fixed. Each has a transcript case marked `! xfail` too.
const KNOWN_ISSUES: &[(&str, &str)] = &[];

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

#[test]
fn random_and_mutated_command_streams() {
    let seed = setting("QUINTO_FUZZ_SEED", DEFAULT_SEED);
    let batches = setting("QUINTO_FUZZ_BATCHES", DEFAULT_BATCHES as u64) as usize;
    let start = Instant::now();
    let results = run_parallel(batches, PARALLEL, |batch| {
        let seed = seed + batch as u64;
        once_more_if_silent_exit(&format!("batch seed {seed}"), || run_batch(seed))
    });
    let mut failures = Vec::new();
    let (mut streams, mut total) = (0, Tally::default());
    for result in results {
        match result {
            Ok((count, tally)) => {
                streams += count;
                total.add(&tally);
            }
            Err(why) => match KNOWN_ISSUES.iter().find(|(text, _)| why.contains(text)) {
                Some((_, issue)) => println!("known issue ({issue}):\n{why}\n"),
                None => failures.push(why),
            },
        }
    }
    println!(
        "{batches} processes, {streams} streams, {} requests, {} engine moves checked, {} ms",
        total.requests,
        total.moves_checked,
        start.elapsed().as_millis()
    );
    println!("replies: {:?}", total.replies);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// One process, many streams.
fn run_batch(seed: u64) -> Result<(usize, Tally), String> {
    let mut rng = Rng::new(seed);
    let mut talk = Conversation::start(&[]);
    let keep = std::env::var_os("QUINTO_FUZZ_KEEP");
    if keep.is_some() {
        talk.keep_input();
    }
    talk.send(PRELUDE, "the prelude")
        .map_err(|why| format!("seed {seed}: {why}"))?;
    for index in 0..STREAMS_PER_BATCH {
        let lines = fuzzing::stream(&mut rng);
        let line_by_line = chance(&mut rng, 40);
        if let Err(why) = run_stream(&mut talk, &lines, line_by_line) {
            if let (Some(dir), Some(input)) = (&keep, talk.input()) {
                let path = std::path::Path::new(dir).join(format!("fuzz-{seed}.in"));
                let _ = std::fs::write(path, input);
            }
            let mode = if line_by_line {
                "line by line"
            } else {
                "all at once"
            };
            let listing: Vec<String> = lines
                .iter()
                .enumerate()
                .map(|(k, l)| format!("    {k:3} {}", show(l)))
                .collect();
            return Err(format!(
                "batch seed {seed}, stream {index} (sent {mode}): {why}\n  the stream:\n{}",
                listing.join("\n")
            ));
        }
    }
    let tally = talk
        .finish()
        .map_err(|why| format!("batch seed {seed}, at the end: {why}"))?;
    Ok((STREAMS_PER_BATCH, tally))
}

/// Sends one stream, closes a block left open, and syncs.
fn run_stream(
    talk: &mut Conversation,
    lines: &[Vec<u8>],
    line_by_line: bool,
) -> Result<(), String> {
    if line_by_line {
        for (k, line) in lines.iter().enumerate() {
            let origin = format!("line {k}");
            talk.send(&with_newline(line), &origin)?;
            if !talk.mirror.in_block() {
                talk.sync(REPLY_TIMEOUT, &origin)?;
            }
        }
    } else {
        let bytes: Vec<u8> = lines.iter().flat_map(|l| with_newline(l)).collect();
        talk.send(&bytes, "the stream")?;
    }
    if talk.mirror.in_block() {
        talk.send(b"DONE\n", "the closing DONE")?;
    }
    talk.sync(REPLY_TIMEOUT, "the end of the stream")?;
    Ok(())
}

fn with_newline(line: &[u8]) -> Vec<u8> {
    let mut bytes = line.to_vec();
    bytes.push(b'\n');
    bytes
}
