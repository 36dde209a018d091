//! `quinto-tune`: fits Quinto's evaluation weights to the results of recorded games and
//! writes `src/eval/weights.rs` (tournaments/tuning/README.md has the recipe).

use quinto::eval::weights;
use quinto_match::labels;
use quinto_match::tool::{self, flag_pairs};
use quinto_match::tuning::{
    fit_all, label_samples, merge_duplicates, record_files, samples, weights_source, FitOptions, K,
    TABLE_NAMES,
};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "\
usage: quinto-tune (--games DIR | --labels FILE)... --out FILE [options]

Reads every .psq record under the DIRs (quinto-match output: the records name their rule),
takes each quiet position (no five point for either side) from the --min-stones-th stone on
with the game's result for the side to move, and the positions of label FILEs (quinto-label
output) with a teacher engine's evaluation; fits the evaluation's weights per table
(freestyle, standard, renju, each with black or white to move) by a logistic fit starting
from the weights compiled in, and writes them as Rust source to FILE (src/eval/weights.rs).
A position met more than once (repeated games, overlapping label files) is one sample with
the mean of their targets, so that held-out games never repeat fitted positions.

  --games DIR        a directory of records, searched recursively (repeatable)
  --labels FILE      labelled positions (repeatable): the target for the side to move is
                     W x sigmoid(teacher's ev / S) + (1 - W) x the game's result
  --teacher-scale S  the teacher's evaluation units per logistic unit (default 200, Rapfi's)
  --teacher-weight W (default 1: the teacher alone)
  --out FILE         the weights file to write
  --iterations N     full-batch Adam steps (default 3000)
  --learning-rate R  Adam step size in evaluation units (default 2)
  --l2 L             pull of every weight towards zero (default 1e-7)
  --min-stones N     the first stone count to take positions from (default 4)
  --step T           write start + T x (fit - start) (default 1, the fit; -1 steps as far
                     the other way: the freestyle weights of 2026-11-26, see results.md)
  --note TEXT        a line for the file's header (repeatable)";

/// The largest `--step` either way: far beyond any useful step, and small enough that no
/// weight can overflow.
const MAX_STEP: f64 = 16.0;

fn main() -> ExitCode {
    tool::main("quinto-tune", USAGE, run)
}

fn run(args: Vec<String>) -> Result<(), String> {
    let mut dirs = Vec::new();
    let mut out = None;
    let mut notes = Vec::new();
    let mut options = FitOptions {
        iterations: 3000,
        learning_rate: 2.0,
        l2: 1e-7,
        step: 1.0,
    };
    let mut min_stones = 4;
    let mut label_files = Vec::new();
    let mut teacher_scale = labels::RAPFI_SCALE;
    let mut teacher_weight = 1.0;
    for (flag, value) in flag_pairs(args, USAGE)? {
        let number = |v: &str| {
            v.parse::<f64>()
                .map_err(|_| format!("{flag}: not a number: {v}"))
        };
        match flag.as_str() {
            "--games" => dirs.push(PathBuf::from(value)),
            "--labels" => label_files.push(PathBuf::from(value)),
            "--teacher-scale" => teacher_scale = number(&value)?.max(1.0),
            "--teacher-weight" => teacher_weight = number(&value)?.clamp(0.0, 1.0),
            "--out" => out = Some(PathBuf::from(value)),
            "--iterations" => options.iterations = number(&value)? as usize,
            "--learning-rate" => options.learning_rate = number(&value)?,
            "--l2" => options.l2 = number(&value)?,
            "--step" => {
                options.step = number(&value)?;
                if !(-MAX_STEP..=MAX_STEP).contains(&options.step) {
                    return Err(format!(
                        "--step: not between -{MAX_STEP} and {MAX_STEP}: {value}"
                    ));
                }
            }
            "--min-stones" => min_stones = number(&value)? as usize,
            "--note" => notes.push(value),
            _ => return Err(format!("unknown option {flag}\n{USAGE}")),
        }
    }
    let out = out.ok_or_else(|| format!("--out is required\n{USAGE}"))?;
    if dirs.is_empty() && label_files.is_empty() {
        return Err(format!(
            "at least one --games DIR or --labels FILE is required\n{USAGE}"
        ));
    }
    let started = Instant::now();
    let files = record_files(&dirs)?;
    let (mut samples, summary) = samples(&files, min_stones)?;
    println!(
        "{} records: {} games used, {} left out (no rule, or decided by a fault), {} positions",
        summary.files, summary.games, summary.skipped_games, summary.positions
    );
    let mut labelled = 0;
    for path in &label_files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let labels = labels::read(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut more = label_samples(&labels, teacher_scale, teacher_weight)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        println!("{}: {} labelled positions", path.display(), more.len());
        labelled += more.len();
        samples.append(&mut more);
    }
    let (samples, merged) = merge_duplicates(samples);
    println!(
        "{} distinct positions ({merged} repeats merged into them)",
        samples.len()
    );
    let (tables, reports) = fit_all(&samples, &weights::TABLES, options);
    let mut source = notes;
    let inputs = dirs
        .iter()
        .map(|d| format!("--games {}", d.display()))
        .chain(
            label_files
                .iter()
                .map(|f| format!("--labels {}", f.display())),
        );
    let teacher = if label_files.is_empty() {
        String::new()
    } else {
        format!(" --teacher-scale {teacher_scale} --teacher-weight {teacher_weight}")
    };
    source.push(format!(
        "Fitted by: quinto-tune {}{teacher} --iterations {} --learning-rate {} --l2 {} --min-stones {} --step {}",
        inputs.collect::<Vec<_>>().join(" "),
        options.iterations,
        options.learning_rate,
        options.l2,
        min_stones,
        options.step
    ));
    source.push(format!(
        "Data: {} games, {} quiet positions, {labelled} labelled positions, {} distinct (repeats merged, their targets averaged); K = {K} (an evaluation of K is a 73 % expectation).",
        summary.games, summary.positions, samples.len()
    ));
    for r in &reports {
        let line = format!(
            "{}: {} positions, cross-entropy {:.4} -> {:.4}; {} held out: {:.4} -> {:.4}",
            TABLE_NAMES[r.table],
            r.positions,
            r.loss_before,
            r.loss_after,
            r.held_out,
            r.held_out_before,
            r.held_out_after
        );
        println!("{line}");
        source.push(line);
    }
    std::fs::write(&out, weights_source(&tables, &source))
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    println!(
        "wrote {} in {:.1} s",
        out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
