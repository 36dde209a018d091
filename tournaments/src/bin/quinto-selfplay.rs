//! `quinto-selfplay`: Quinto plays itself in-process and writes the games as training data
//! (format in `tournaments/src/training/selfplay.rs`); `quinto-selfplay merge` joins shards.

use quinto::eval::evaluator::EvalKind;
use quinto::game::{BoardSize, Rule};
use quinto::record::Record;
use quinto::replace_file::replace_file;
use quinto_match::engine::EngineSpec;
use quinto_match::labels::{is_quiet, RAPFI_SCALE};
use quinto_match::selfplay::{merge, play, read, replay, replay_with, teacher_score, Config, Game};
use quinto_match::suite::{search_limits, Evaluator, MATE_EV};
use quinto_match::tool::{self, flag_pairs};
use quinto_match::tuning::record_files;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

const USAGE: &str = "\
usage: quinto-selfplay --out FILE [options]
       quinto-selfplay merge --out FILE SHARD...

Plays games of Quinto against itself, one game a thread, at a fixed node count a move, from
random openings (a few stones near the centre, redrawn until a quick search finds them
balanced), the first moves after the opening sometimes drawn among the near-best. Each game
is appended to FILE as one line when it ends; games 0..N of a seed are always the same games,
so a run that stopped resumes where it was (the games already in FILE are skipped), and runs
with other seeds (on other machines) make shards that `merge` joins, each game once.

With --replay, the games are recorded ones instead (other engines' games from quinto-match,
say): each record of the rule and size is followed move by move, every position searched as
in self-play, so the data holds those players' positions with Quinto's scores and best moves
and the recorded result. Record i (in path order) is game i of the seed; --games is then
ignored. With --teacher as well, another engine judges the positions instead of Quinto's
search: every --every-th quiet position (no five point either side) is sent to it as a
BOARD with INFO max_node --nodes (from the fourth stone on), and its last
`MESSAGE depth … ev …` line and its move become the position's score (put on Quinto's scale
by --teacher-scale) and best move; the other positions are left unsearched. One teacher
process a thread.

  --rule N           protocol rule number: 0 freestyle, 1 standard, 4 renju, 8/9 caro (0)
  --size N           board width and height (15)
  --games N          games of this seed to have in FILE (1000)
  --nodes N          search nodes a move (5000)
  --threads N        games played at once (1)
  --seed S           the seed that names the games (1)
  --opening-stones A-B   random stones of the opening (2-4)
  --random-moves N   moves after the opening that may be drawn among the near-best (8)
  --random-margin E  how far below the best score such a pick may be (60)
  --eval E           the evaluation the games are played with: classical (the
                     default), net, or auto (pbrain-quinto's default)
  --replay DIR       replay the .psq records under DIR (searched recursively; repeatable)
  --teacher SPEC     with --replay: the engine that judges the positions, as an engine
                     for quinto-match (name=NAME,cmd=PATH[,arg=A]...)
  --teacher-scale S  the teacher's evaluation units a logistic unit (200: Rapfi's, as
                     quinto-tune reads them)
  --every N          with --teacher: one quiet position in N is judged (1)";

fn main() -> ExitCode {
    tool::main("quinto-selfplay", USAGE, run)
}

fn run(args: Vec<String>) -> Result<(), String> {
    if args.first().map(String::as_str) == Some("merge") {
        return run_merge(&args[1..]);
    }
    let mut config = Config {
        rule: Rule::Freestyle,
        size: BoardSize::square(15)?,
        nodes: 5000,
        opening_stones: (2, 4),
        opening_radius: 3,
        balance_margin: 150,
        random_moves: 8,
        random_margin: 60,
        table_bytes: 8 << 20,
        eval: EvalKind::Classical,
    };
    let (mut games, mut threads, mut seed, mut out) = (1000u64, 1usize, 1u64, None);
    let mut replay_dirs = Vec::new();
    let (mut teacher_spec, mut teacher_scale, mut every) = (None, None, None);
    for (flag, value) in flag_pairs(args, USAGE)? {
        let number = |v: &str| {
            v.parse::<u64>()
                .map_err(|_| format!("{flag}: not a whole number: {v}"))
        };
        match flag.as_str() {
            "--rule" => {
                config.rule = u32::try_from(number(&value)?)
                    .ok()
                    .and_then(Rule::from_protocol)
                    .ok_or_else(|| format!("--rule: unknown rule {value}"))?
            }
            "--size" => config.size = BoardSize::square(number(&value)? as usize)?,
            "--games" => games = number(&value)?,
            "--nodes" => config.nodes = number(&value)?.max(1),
            "--threads" => threads = (number(&value)? as usize).clamp(1, 256),
            "--seed" => seed = number(&value)?,
            "--opening-stones" => {
                let (a, b) = value
                    .split_once('-')
                    .ok_or_else(|| format!("--opening-stones: not A-B: {value}"))?;
                let (a, b) = (number(a)? as usize, number(b)? as usize);
                if a > b || b > config.size.area() / 4 {
                    return Err(format!("--opening-stones: not a sensible range: {value}"));
                }
                config.opening_stones = (a, b);
            }
            "--random-moves" => config.random_moves = number(&value)? as usize,
            "--random-margin" => config.random_margin = number(&value)?.min(10_000) as i32,
            "--eval" => {
                config.eval =
                    EvalKind::parse(&value).ok_or(format!("--eval is {}", EvalKind::CHOICES))?
            }
            "--out" => out = Some(PathBuf::from(value)),
            "--replay" => replay_dirs.push(PathBuf::from(value)),
            "--teacher" => teacher_spec = Some(EngineSpec::parse(&value)?),
            "--teacher-scale" => {
                teacher_scale = Some(
                    value
                        .parse::<f64>()
                        .ok()
                        .filter(|s| s.is_finite() && *s > 0.0)
                        .ok_or_else(|| {
                            format!("--teacher-scale: not a positive number: {value}")
                        })?,
                )
            }
            "--every" => every = Some(number(&value)?.max(1) as usize),
            _ => return Err(format!("unknown option {flag}\n{USAGE}")),
        }
    }
    let out = out.ok_or_else(|| format!("--out is required\n{USAGE}"))?;
    let teacher = match teacher_spec {
        None if every.is_some() || teacher_scale.is_some() => {
            return Err("--every and --teacher-scale need --teacher".into())
        }
        Some(_) if replay_dirs.is_empty() => return Err("--teacher needs --replay".into()),
        spec => spec.map(|spec| Teacher {
            spec,
            scale: teacher_scale.unwrap_or(RAPFI_SCALE),
            every: every.unwrap_or(1),
        }),
    };
    config.opening_radius = config.opening_radius.min(config.size.width() / 2);
    let records = if replay_dirs.is_empty() {
        None
    } else {
        let files = record_files(&replay_dirs)?;
        let records = files
            .iter()
            .map(|path| Record::read(path))
            .collect::<Result<Vec<Record>, String>>()?;
        games = records.len() as u64;
        Some(records)
    };
    let done = existing_games(&out, seed, &config)?;
    let todo: Vec<u64> = (0..games).filter(|i| !done.contains(i)).collect();
    println!(
        "{}: {} games of seed {seed} already there, {} to {} ({} {}x{}, {} nodes a move, {threads} threads)",
        out.display(),
        done.len(),
        todo.len(),
        if records.is_some() { "replay" } else { "play" },
        config.rule.name(),
        config.size.width(),
        config.size.width(),
        config.nodes
    );
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&out)
        .map_err(|e| format!("cannot open {}: {e}", out.display()))?;
    let file = Mutex::new(file);
    let next = AtomicU64::new(0);
    let positions = AtomicU64::new(0);
    let skipped = AtomicU64::new(0);
    let started = Instant::now();
    let failure: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for thread in 0..threads {
            let (config, teacher, records) = (&config, &teacher, &records);
            let (next, todo, skipped, failure) = (&next, &todo, &skipped, &failure);
            let (positions, file, out, started) = (&positions, &file, &out, started);
            scope.spawn(move || {
                let mut judge = teacher.as_ref().map(|t| TeacherJudge::new(t, thread));
                let fail = |why: String| {
                    *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(why);
                    next.store(u64::MAX / 2, Ordering::SeqCst);
                };
                loop {
                    let at = next.fetch_add(1, Ordering::SeqCst) as usize;
                    let index = match todo.get(at) {
                        Some(&index) => index,
                        None => break,
                    };
                    let replayed = match (records, judge.as_mut()) {
                        (None, _) => Some(play(config, seed, index)),
                        (Some(records), None) => {
                            replay(config, &records[index as usize], seed, index)
                        }
                        (Some(records), Some(judge)) => {
                            match judge.replay(config, &records[index as usize], seed, index) {
                                Ok(game) => game,
                                Err(why) => {
                                    fail(format!("the teacher, on record {index}: {why}"));
                                    break;
                                }
                            }
                        }
                    };
                    let game = match replayed {
                        Some(game) => game,
                        None => {
                            skipped.fetch_add(1, Ordering::SeqCst);
                            continue;
                        }
                    };
                    let searched = game.moves.iter().filter(|m| m.searched.is_some()).count();
                    let total =
                        positions.fetch_add(searched as u64, Ordering::SeqCst) + searched as u64;
                    let line = game.to_line() + "\n";
                    let written = file
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .write_all(line.as_bytes());
                    if let Err(e) = written {
                        fail(format!("cannot write {}: {e}", out.display()));
                        break;
                    }
                    if (at + 1) % 50 == 0 || at + 1 == todo.len() {
                        let seconds = started.elapsed().as_secs_f64();
                        println!(
                            "{} games, {total} positions in {seconds:.0} s: {:.0} positions/s",
                            at + 1,
                            total as f64 / seconds
                        );
                    }
                }
                if let Some(judge) = judge {
                    judge.finish();
                }
            });
        }
    });
    if let Some(why) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(why);
    }
    let seconds = started.elapsed().as_secs_f64();
    let total = positions.load(Ordering::SeqCst);
    let skipped = skipped.load(Ordering::SeqCst);
    if skipped > 0 {
        println!(
            "{skipped} records left out: another rule or size, no result on the board, or a move on a taken point"
        );
    }
    println!(
        "done: {} games, {total} searched positions in {seconds:.1} s ({:.0} positions/s on {threads} threads)",
        todo.len() as u64 - skipped,
        total as f64 / seconds.max(1e-9)
    );
    Ok(())
}

/// The engine that judges replayed positions (`--teacher`).
#[derive(Clone, Debug)]
struct Teacher {
    spec: EngineSpec,
    /// Its evaluation units a logistic unit.
    scale: f64,
    /// One quiet position in this many is judged.
    every: usize,
}

/// A thread's teacher process, started at its first position.
struct TeacherJudge<'a> {
    teacher: &'a Teacher,
    log: PathBuf,
    process: Option<Evaluator>,
}

impl<'a> TeacherJudge<'a> {
    fn new(teacher: &'a Teacher, thread: usize) -> TeacherJudge<'a> {
        let log = std::env::temp_dir().join(format!(
            "quinto-selfplay-teacher-{}-{thread}.stderr",
            std::process::id()
        ));
        TeacherJudge {
            teacher,
            log,
            process: None,
        }
    }

    /// The record replayed with every `every`-th quiet position judged by the teacher.
    fn replay(
        &mut self,
        config: &Config,
        record: &Record,
        seed: u64,
        index: u64,
    ) -> Result<Option<Game>, String> {
        let mut quiet = 0usize;
        let every = self.teacher.every;
        replay_with(config, record, seed, index, |board, played| {
            if board.stone_count() < TEACHER_MIN_STONES || !is_quiet(board) {
                return Ok(None);
            }
            quiet += 1;
            if (quiet - 1) % every != 0 {
                return Ok(None);
            }
            let evaluation = self.evaluator(config)?.evaluate(played)?;
            let (x, y) = evaluation.best;
            let best = board
                .size()
                .pos(x, y)
                .filter(|&p| board.is_empty(p))
                .ok_or_else(|| format!("its move {x},{y} is not an empty point"))?;
            let score = teacher_score(evaluation.ev, self.teacher.scale, MATE_EV);
            Ok(Some((score, best)))
        })
    }

    /// The teacher process, started at the first call (`config`'s board, rule and nodes).
    fn evaluator(&mut self, config: &Config) -> Result<&mut Evaluator, String> {
        let process = match self.process.take() {
            Some(process) => process,
            None => Evaluator::start(
                &self.teacher.spec,
                config.size,
                config.rule,
                search_limits(None, Some(config.nodes)),
                TEACHER_MS,
                &self.log,
            )?,
        };
        Ok(self.process.insert(process))
    }

    fn finish(self) {
        if let Some(process) = self.process {
            process.finish();
        }
        let _ = std::fs::remove_file(&self.log);
    }
}

/// Positions with fewer stones are not judged: a brain answers the first moves at once,
/// without a search to report (and self-play's openings are drawn, not searched, too).
const TEACHER_MIN_STONES: usize = 4;

/// The teacher's time limit a position: its node limit decides, this only bounds a hang.
const TEACHER_MS: u64 = 30_000;

/// The indices of this seed's games already in `path` (none when it does not exist yet);
/// games of another rule or size there are an error, not something to mix in silently.
fn existing_games(path: &Path, seed: u64, config: &Config) -> Result<HashSet<u64>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashSet::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    // A run killed mid-write leaves a partial last line: drop it, as its game is replayed.
    let complete = match text.rfind('\n') {
        Some(end) => &text[..=end],
        None => "",
    };
    if complete.len() != text.len() {
        std::fs::write(path, complete)
            .map_err(|e| format!("cannot repair {}: {e}", path.display()))?;
    }
    let games = read(complete).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut done = HashSet::new();
    for game in games {
        if game.rule != config.rule || game.size != config.size {
            return Err(format!(
                "{} holds {} {}x{} games; this run plays {} {}x{}",
                path.display(),
                game.rule.name(),
                game.size.width(),
                game.size.width(),
                config.rule.name(),
                config.size.width(),
                config.size.width()
            ));
        }
        if game.seed == seed {
            done.insert(game.index);
        }
    }
    Ok(done)
}

fn run_merge(args: &[String]) -> Result<(), String> {
    let mut out = None;
    let mut shards = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--out" => out = args.next().map(PathBuf::from),
            flag if flag.starts_with('-') => {
                return Err(format!("merge: unknown option {flag}\n{USAGE}"))
            }
            shard => shards.push(PathBuf::from(shard)),
        }
    }
    let out = out.ok_or_else(|| format!("merge: --out FILE is required\n{USAGE}"))?;
    let mut files = Vec::new();
    for shard in &shards {
        let text = std::fs::read_to_string(shard)
            .map_err(|e| format!("cannot read {}: {e}", shard.display()))?;
        files.push(read(&text).map_err(|e| format!("{}: {e}", shard.display()))?);
    }
    let (games, repeats) = merge(files);
    let text: String = games.iter().map(|g: &Game| g.to_line() + "\n").collect();
    replace_file(&out, |file| file.write_all(text.as_bytes()))
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    println!(
        "{}: {} games from {} shards ({repeats} repeats left out)",
        out.display(),
        games.len(),
        shards.len()
    );
    Ok(())
}
