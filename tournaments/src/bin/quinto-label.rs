//! `quinto-label`: has a teacher engine evaluate quiet positions of recorded games, for
//! `quinto-tune --labels` (tournaments/tuning/README.md has the recipe).

use quinto::game::{BoardSize, Rule};
use quinto::record::Record;
use quinto_match::engine::EngineSpec;
use quinto_match::labels::{self, Label, Position};
use quinto_match::suite::{search_limits, Evaluator};
use quinto_match::tool::{self, flag_pairs};
use quinto_match::tuning::record_files;
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Instant;

const USAGE: &str = "\
usage: quinto-label --games DIR [--games DIR]... --teacher name=NAME,cmd=PATH --out FILE
                    [options]

Takes every --every-th quiet position (no five point for either side, from the
--min-stones-th stone on) of the games under the DIRs that were decided on the board, has
the teacher brain search each for --think-ms (INFO show_detail 1; its last progress line
gives the evaluation: Quinto's `MESSAGE depth D ev S`, Rapfi's `MESSAGE … | Depth D-S |
Eval S | …`), and appends one line per position to FILE (the format is in
tournaments/src/training/labels.rs). Positions already in FILE are skipped, so a stopped
run goes on where it left off when started again with the same DIRs.

  --games DIR        a directory of records, searched recursively (repeatable)
  --teacher SPEC     the teacher, as an engine for quinto-match
  --out FILE         the label file (appended to)
  --think-ms N       the teacher's time a position (default 100)
  --think-nodes N    the teacher's nodes a position instead (INFO max_node N; the time
                     limit is then --think-ms or 30000): labels that do not depend on the
                     machine's speed or load
  --every N          one quiet position in N (default 3)
  --min-stones N     the first stone count to take positions from (default 4)
  --rule N           only the games of this rule (protocol number; default all)
  --concurrency N    teacher processes at a time (default 1)";

struct Options {
    dirs: Vec<PathBuf>,
    teacher: EngineSpec,
    out: PathBuf,
    think_ms: u64,
    think_nodes: Option<u64>,
    every: usize,
    min_stones: usize,
    rule: Option<Rule>,
    concurrency: usize,
}

fn main() -> ExitCode {
    tool::main("quinto-label", USAGE, |args| {
        parse(args).and_then(|o| run(&o))
    })
}

fn parse(args: Vec<String>) -> Result<Options, String> {
    let mut dirs = Vec::new();
    let (mut teacher, mut out, mut rule) = (None, None, None);
    let (mut think_ms, mut think_nodes, mut every, mut min_stones, mut concurrency) =
        (None, None, 3, 4, 1);
    for (flag, value) in flag_pairs(args, USAGE)? {
        let number = |v: &str| {
            v.parse::<u64>()
                .map_err(|_| format!("{flag}: not a whole number: {v}"))
        };
        match flag.as_str() {
            "--games" => dirs.push(PathBuf::from(value)),
            "--teacher" => teacher = Some(EngineSpec::parse(&value)?),
            "--out" => out = Some(PathBuf::from(value)),
            "--think-ms" => think_ms = Some(number(&value)?.max(1)),
            "--think-nodes" => think_nodes = Some(number(&value)?.max(1)),
            "--every" => every = number(&value)?.max(1) as usize,
            "--min-stones" => min_stones = number(&value)? as usize,
            "--rule" => {
                rule = Some(
                    u32::try_from(number(&value)?)
                        .ok()
                        .and_then(Rule::from_protocol)
                        .ok_or_else(|| format!("--rule: no such rule: {value}"))?,
                )
            }
            "--concurrency" => concurrency = number(&value)?.clamp(1, 64) as usize,
            _ => return Err(format!("unknown option {flag}\n{USAGE}")),
        }
    }
    if dirs.is_empty() {
        return Err(format!("at least one --games DIR is required\n{USAGE}"));
    }
    Ok(Options {
        dirs,
        teacher: teacher.ok_or_else(|| format!("--teacher is required\n{USAGE}"))?,
        out: out.ok_or_else(|| format!("--out is required\n{USAGE}"))?,
        think_ms: think_ms.unwrap_or(if think_nodes.is_some() { 30_000 } else { 100 }),
        think_nodes,
        every,
        min_stones,
        rule,
        concurrency,
    })
}

fn run(o: &Options) -> Result<(), String> {
    let files = record_files(&o.dirs)?;
    let records = files
        .iter()
        .map(|f| Record::read(f))
        .collect::<Result<Vec<Record>, String>>()?;
    let done: HashSet<(usize, usize)> = match std::fs::read_to_string(&o.out) {
        Ok(text) => labels::read(&text)
            .map_err(|e| format!("{}: {e}", o.out.display()))?
            .iter()
            .map(|l| (l.position.game, l.position.moves.len()))
            .collect(),
        Err(_) => HashSet::new(),
    };
    let mut todo = labels::positions(&records, o.min_stones, o.every);
    // Filtered after numbering, so game numbers (and what a resumed run skips) do not
    // depend on the filter.
    todo.retain(|p| o.rule.map_or(true, |rule| p.rule == rule));
    let total = todo.len();
    todo.retain(|p| !done.contains(&(p.game, p.moves.len())));
    eprintln!(
        "{} records, {total} positions, {} labelled before, {} to go",
        records.len(),
        total - todo.len(),
        todo.len()
    );
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&o.out)
        .map_err(|e| format!("cannot open {}: {e}", o.out.display()))?;
    if done.is_empty() {
        let header = format!(
            "# quinto-label --teacher {} --think-ms {}{} --every {} --min-stones {}{}; {} records\n",
            o.teacher.command_line(),
            o.think_ms,
            o.think_nodes
                .map_or(String::new(), |n| format!(" --think-nodes {n}")),
            o.every,
            o.min_stones,
            o.rule
                .map_or(String::new(), |r| format!(" --rule {}", r.protocol_value())),
            records.len()
        );
        file.write_all(header.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", o.out.display()))?;
    }
    let count = todo.len();
    let queue = Arc::new(Mutex::new(todo));
    let (tx, rx) = mpsc::channel();
    for worker in 0..o.concurrency {
        let (queue, tx, teacher) = (queue.clone(), tx.clone(), o.teacher.clone());
        let (think_ms, settings) = (o.think_ms, search_limits(None, o.think_nodes));
        thread::spawn(move || label_positions(worker, &queue, &teacher, think_ms, settings, &tx));
    }
    drop(tx);
    let started = Instant::now();
    let mut written = 0;
    for label in rx {
        let label = label?;
        writeln!(file, "{}", label.to_line())
            .map_err(|e| format!("cannot write {}: {e}", o.out.display()))?;
        written += 1;
        if written % 500 == 0 || written == count {
            eprintln!(
                "{written}/{count} labelled, {:.0} s",
                started.elapsed().as_secs_f64()
            );
        }
    }
    Ok(())
}

/// One teacher process per rule and board size, fed positions until the queue is empty.
fn label_positions(
    worker: usize,
    queue: &Mutex<Vec<Position>>,
    teacher: &EngineSpec,
    think_ms: u64,
    settings: Vec<String>,
    tx: &mpsc::Sender<Result<Label, String>>,
) {
    let mut evaluators: HashMap<(Rule, BoardSize), Evaluator> = HashMap::new();
    let log = std::env::temp_dir().join(format!(
        "quinto-label-{}-{worker}.stderr",
        std::process::id()
    ));
    while let Some(position) = queue.lock().ok().and_then(|mut q| q.pop()) {
        let key = (position.rule, position.size);
        let evaluator = match evaluators.entry(key) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                match Evaluator::start(teacher, key.1, key.0, settings.clone(), think_ms, &log) {
                    Ok(evaluator) => e.insert(evaluator),
                    Err(why) => {
                        let _ = tx.send(Err(why));
                        return;
                    }
                }
            }
        };
        let label = match evaluator.evaluate(&position.moves) {
            Ok(eval) => Ok(Label {
                position,
                ev: eval.ev,
            }),
            Err(why) => Err(format!(
                "the teacher, on game {} after {} moves: {why}",
                position.game,
                position.moves.len()
            )),
        };
        let failed = label.is_err();
        if tx.send(label).is_err() || failed {
            break;
        }
    }
    for (_, evaluator) in evaluators {
        evaluator.finish();
    }
    let _ = std::fs::remove_file(&log);
}
