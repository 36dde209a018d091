//! The match: a check that every engine starts, the schedule (round robin or gauntlet, each
//! opening twice with colours swapped), worker threads playing games, and the results
//! written as they come in.

use crate::matches::engine::{EngineProcess, EngineSpec, Received};
use crate::matches::game::{play_game, EngineLogs, GameConfig, GameRecord};
use crate::matches::openings::Opening;
use crate::matches::report::{self, Settings, Tally};
use crate::matches::stats::{Sprt, SprtVerdict};
use quinto::game::Color;
use std::collections::VecDeque;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// A whole match's settings.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    /// First engine against each of the others (else every pair).
    pub gauntlet: bool,
    pub game: GameConfig,
    /// The openings (empty: every game starts from the empty board).
    pub openings: Vec<Opening>,
    /// Where they came from, for the summary.
    pub openings_source: String,
    pub random_openings: bool,
    pub seed: u64,
    /// Games per pair, even.
    pub games_per_pair: usize,
    pub concurrency: usize,
    pub sprt: Option<Sprt>,
    pub out: PathBuf,
    /// Keep a transcript of every conversation (`logs/*.io`).
    pub transcripts: bool,
    /// The command line, for the summary.
    pub command_line: String,
}

/// One game to play.
#[derive(Clone, Debug)]
pub struct Scheduled {
    /// 1-based game number.
    pub number: usize,
    /// 1-based round: games of one round share an opening.
    pub round: usize,
    pub pair: usize,
    pub black: usize,
    pub white: usize,
    /// Index into the openings, or `None` for the empty board.
    pub opening: Option<usize>,
}

/// The engine pairs: `(0,1), (0,2), …, (1,2), …` or, for a gauntlet, `(0,1), (0,2), …`.
pub fn pairs(engines: usize, gauntlet: bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for a in 0..engines {
        for b in a + 1..engines {
            if !gauntlet || a == 0 {
                out.push((a, b));
            }
        }
    }
    out
}

/// Every game in playing order: round by round (one opening per round, taken in `order`),
/// each pair playing it twice with colours swapped.
pub fn schedule(
    pairs: &[(usize, usize)],
    games_per_pair: usize,
    openings: usize,
    order: &[usize],
) -> Vec<Scheduled> {
    let mut games = Vec::new();
    for round in 0..games_per_pair / 2 {
        let opening = (openings > 0).then(|| order[round % openings]);
        for (pair, &(a, b)) in pairs.iter().enumerate() {
            for (black, white) in [(a, b), (b, a)] {
                games.push(Scheduled {
                    number: games.len() + 1,
                    round: round + 1,
                    pair,
                    black,
                    white,
                    opening,
                });
            }
        }
    }
    games
}

/// The result of [`run`].
#[derive(Debug)]
pub struct MatchResult {
    pub tally: Tally,
    pub summary: String,
}

/// File names are made of the engine name's safe characters.
fn safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.+".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Starts each engine once: `START`, `OK` within the start allowance, `ABOUT`, `END`.
/// An engine that does not get that far stops the match before it starts. Returns each
/// engine's `ABOUT` line (empty if none).
pub fn preflight(config: &MatchConfig, logs: &Path) -> Result<Vec<String>, String> {
    let mut abouts = Vec::new();
    let size = config.game.size;
    for spec in &config.engines {
        let stderr = logs.join(format!("preflight-{}.stderr", safe(&spec.name)));
        let transcript = logs.join(format!("preflight-{}.io", safe(&spec.name)));
        let mut p = EngineProcess::spawn(spec, &stderr, Some(&transcript), config.game.crlf)
            .map_err(|e| format!("engine {}: {e}", spec.name))?;
        let start = if size.width() == size.height() {
            format!("START {}", size.width())
        } else {
            format!("RECTSTART {},{}", size.width(), size.height())
        };
        let wait_ms = config.game.limits.start_ms;
        let fail = |why: String| {
            format!(
                "engine {} ({}) {why}; see {} and {}",
                spec.name,
                spec.command_line(),
                transcript.display(),
                stderr.display()
            )
        };
        p.send(&start)
            .map_err(|e| fail(format!("cannot be talked to: {e}")))?;
        let deadline = Instant::now() + Duration::from_millis(wait_ms);
        loop {
            match p.recv(deadline) {
                Received::Line(l, _) if l == "OK" => break,
                Received::Line(l, _) if l.starts_with("ERROR") => {
                    return Err(fail(format!("refuses '{start}': {l}")))
                }
                Received::Line(_, _) => {}
                Received::Eof => {
                    let status = p.wait_exit(Duration::from_millis(200));
                    return Err(fail(format!(
                        "exited before answering '{start}' ({})",
                        status.unwrap_or_else(|| "output closed".into())
                    )));
                }
                Received::Timeout => {
                    return Err(fail(format!(
                        "did not answer '{start}' with OK within {wait_ms} ms"
                    )))
                }
            }
        }
        let mut about = String::new();
        if p.send("ABOUT").is_ok() {
            let deadline = Instant::now() + Duration::from_millis(1000);
            while let Received::Line(l, _) = p.recv(deadline) {
                if l.contains('=') {
                    about = l;
                    break;
                }
                if l.starts_with("UNKNOWN") || l.starts_with("ERROR") {
                    break;
                }
            }
        }
        p.finish(Duration::from_millis(500));
        abouts.push(about);
    }
    Ok(abouts)
}

/// Is stderr a terminal? (Linux: where fd 2 points; elsewhere assume not.)
fn stderr_is_terminal() -> bool {
    fs::read_link("/proc/self/fd/2")
        .map(|p| {
            let p = p.to_string_lossy().into_owned();
            p.starts_with("/dev/pts/") || p.starts_with("/dev/tty")
        })
        .unwrap_or(false)
}

/// Plays the match and writes its files; the summary is also returned.
pub fn run(config: &MatchConfig) -> Result<MatchResult, String> {
    let games_dir = config.out.join("games");
    let logs_dir = config.out.join("logs");
    for d in [&config.out, &games_dir, &logs_dir] {
        fs::create_dir_all(d).map_err(|e| format!("cannot create {}: {e}", d.display()))?;
    }
    let abouts = preflight(config, &logs_dir)?;

    let pairs = pairs(config.engines.len(), config.gauntlet);
    let order =
        crate::matches::openings::order(config.openings.len(), config.random_openings, config.seed);
    let games = schedule(&pairs, config.games_per_pair, config.openings.len(), &order);
    let planned = games.len();
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let mut tally = Tally::new(names.clone(), &pairs);
    let settings = settings(config, &abouts);

    let csv_path = config.out.join("games.csv");
    let mut csv = File::create(&csv_path)
        .map_err(|e| format!("cannot create {}: {e}", csv_path.display()))?;
    writeln!(csv, "{}", report::CSV_HEADER).map_err(|e| e.to_string())?;
    let summary_path = config.out.join("summary.txt");

    let queue = Arc::new(Mutex::new(games.into_iter().collect::<VecDeque<_>>()));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<(Scheduled, GameRecord)>();
    let shared = Arc::new(config.clone());
    let mut workers = Vec::new();
    for w in 0..config.concurrency.max(1) {
        let (queue, stop, tx, config) = (queue.clone(), stop.clone(), tx.clone(), shared.clone());
        let logs_dir = logs_dir.clone();
        let handle = thread::Builder::new()
            .name(format!("game-worker-{w}"))
            .spawn(move || loop {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let next = queue.lock().map(|mut q| q.pop_front()).unwrap_or(None);
                let game = match next {
                    Some(g) => g,
                    None => break,
                };
                let record = play_scheduled(&config, &game, &logs_dir);
                if tx.send((game, record)).is_err() {
                    break;
                }
            })
            .map_err(|e| format!("cannot start a worker thread: {e}"))?;
        workers.push(handle);
    }
    drop(tx);

    let started = Instant::now();
    let terminal = stderr_is_terminal();
    let mut progress_shown = false;
    for (game, record) in rx {
        let black = &names[game.black];
        let white = &names[game.white];
        let psq_name = format!("games/game-{:04}.psq", game.number);
        let psq_path = config.out.join(&psq_name);
        fs::write(
            &psq_path,
            report::psq(&record, black, white, config.game.rule),
        )
        .map_err(|e| format!("cannot write {}: {e}", psq_path.display()))?;
        let (line_no, opening_text) = match game.opening {
            Some(i) => (
                config.openings[i].line,
                config.openings[i].describe(config.game.size),
            ),
            None => (0, "-".to_string()),
        };
        let line = report::csv_line(
            game.number,
            game.round,
            line_no,
            &opening_text,
            black,
            white,
            &record,
            &psq_name,
        );
        writeln!(csv, "{line}").map_err(|e| format!("cannot write games.csv: {e}"))?;
        tally.add(game.pair, game.round, game.black, game.white, &record);

        if let Some(sprt) = &config.sprt {
            let p = &mut tally.pairs[0];
            if p.sprt_stop.is_none() {
                let sample = p.penta.sprt_sample();
                let verdict = sprt.verdict(sample);
                if verdict != SprtVerdict::Continue {
                    p.sprt_stop = Some((sprt.llr(sample), verdict, p.all.games()));
                    stop.store(true, Ordering::SeqCst);
                }
            }
        }
        let elapsed = started.elapsed().as_secs();
        let text = report::summary(&settings, &tally, planned, elapsed, config.sprt.as_ref());
        fs::write(&summary_path, &text)
            .map_err(|e| format!("cannot write {}: {e}", summary_path.display()))?;

        let status = progress(&tally, planned, elapsed, &game, &record, &names);
        if terminal {
            eprint!("\r\x1b[2K{status}");
            progress_shown = true;
        } else {
            eprintln!("{status}");
        }
    }
    if progress_shown {
        eprintln!();
    }
    for w in workers {
        let _ = w.join();
    }
    let elapsed = started.elapsed().as_secs();
    let text = report::summary(&settings, &tally, planned, elapsed, config.sprt.as_ref());
    fs::write(&summary_path, &text)
        .map_err(|e| format!("cannot write {}: {e}", summary_path.display()))?;
    Ok(MatchResult {
        tally,
        summary: text,
    })
}

/// Plays one scheduled game with its log files.
fn play_scheduled(config: &MatchConfig, game: &Scheduled, logs_dir: &Path) -> GameRecord {
    let specs = [&config.engines[game.black], &config.engines[game.white]];
    let logs: Vec<EngineLogs> = [Color::Black, Color::White]
        .iter()
        .zip(specs.iter())
        .map(|(color, spec)| {
            let colour = if *color == Color::Black {
                "black"
            } else {
                "white"
            };
            let stem = format!("game-{:04}-{colour}-{}", game.number, safe(&spec.name));
            EngineLogs {
                stderr: logs_dir.join(format!("{stem}.stderr")),
                transcript: config
                    .transcripts
                    .then(|| logs_dir.join(format!("{stem}.io"))),
            }
        })
        .collect();
    let opening: &[_] = match game.opening {
        Some(i) => &config.openings[i].moves,
        None => &[],
    };
    let record = play_game(specs, opening, &config.game, [&logs[0], &logs[1]]);
    // Empty stderr logs are clutter: drop them.
    for l in &logs {
        if fs::metadata(&l.stderr)
            .map(|m| m.len() == 0)
            .unwrap_or(false)
        {
            let _ = fs::remove_file(&l.stderr);
        }
    }
    record
}

/// The one-line status after a game.
fn progress(
    tally: &Tally,
    planned: usize,
    elapsed: u64,
    game: &Scheduled,
    record: &GameRecord,
    names: &[String],
) -> String {
    let head = format!("[{}/{}] {}", tally.games, planned, report::clock(elapsed));
    let standing = if tally.pairs.len() == 1 {
        let p = &tally.pairs[0];
        format!(
            "{} vs {}: {}",
            names[p.a],
            names[p.b],
            report::short_result(&p.all, p.penta.sample())
        )
    } else {
        format!(
            "{}: {}",
            names[0],
            report::short_result(&tally.engines[0].all, tally.engines[0].all.sample())
        )
    };
    let failures = tally.failures();
    let fail = if failures > 0 {
        format!(", failures {failures}")
    } else {
        String::new()
    };
    format!(
        "{head} {standing}{fail} | game {} {} - {} {} {}",
        game.number,
        names[game.black],
        names[game.white],
        record.score_text(),
        record.ending.name()
    )
}

/// The summary's head lines.
fn settings(config: &MatchConfig, abouts: &[String]) -> Settings {
    let g = &config.game;
    let l = &g.limits;
    let mut lines = vec![format!("command: {}", config.command_line)];
    lines.push(format!(
        "rule {} ({}), board {}",
        g.rule.protocol_value(),
        g.rule.name(),
        report::size_text(g.size)
    ));
    let game_time = if l.match_ms == 0 {
        "unlimited".to_string()
    } else {
        format!("{} ms", l.match_ms)
    };
    let mut tc = format!(
        "time: {} ms per move, {game_time} per game, tolerance {} ms",
        l.turn_ms, l.tolerance_ms
    );
    if let Some(n) = l.max_nodes {
        tc.push_str(&format!(", max_node {n}"));
    }
    if let Some(d) = l.max_depth {
        tc.push_str(&format!(", max_depth {d}"));
    }
    lines.push(tc);
    if l.max_memory > 0 {
        lines.push(format!(
            "memory: max_memory {} bytes, judged on {}",
            l.max_memory,
            l.memory_kind.name()
        ));
    }
    lines.push(format!(
        "openings: {} ({} positions, {} order, seed {})",
        config.openings_source,
        config.openings.len(),
        if config.random_openings {
            "random"
        } else {
            "file"
        },
        config.seed
    ));
    lines.push(format!(
        "format: {}, {} games per pair, concurrency {}{}",
        if config.gauntlet {
            "gauntlet"
        } else {
            "round robin"
        },
        config.games_per_pair,
        config.concurrency,
        if g.lenient { ", lenient output" } else { "" }
    ));
    for (spec, about) in config.engines.iter().zip(abouts) {
        let about = if about.is_empty() {
            String::new()
        } else {
            format!("  [{about}]")
        };
        lines.push(format!(
            "engine {}: {}{about}",
            spec.name,
            spec.command_line()
        ));
    }
    Settings { lines }
}

/// Refuses to mix a new match into an old one's directory.
pub fn check_out_dir(out: &Path) -> Result<(), String> {
    let csv = out.join("games.csv");
    if csv.exists() {
        return Err(format!(
            "{} already holds a match ({}); choose another --out or delete it",
            out.display(),
            csv.display()
        ));
    }
    if out.exists() && !out.is_dir() {
        return Err(format!("--out {}: not a directory", out.display()));
    }
    // Can we write there at all?
    fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let probe = out.join(".quinto-match-probe");
    File::create(&probe).map_err(|e| format!("cannot write in {}: {e}", out.display()))?;
    let _ = fs::remove_file(probe);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_and_gauntlet_pairs() {
        assert_eq!(pairs(3, false), vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(pairs(4, true), vec![(0, 1), (0, 2), (0, 3)]);
        assert_eq!(pairs(2, true), vec![(0, 1)]);
    }

    #[test]
    fn every_opening_is_played_twice_with_colours_swapped() {
        let p = pairs(3, false);
        let order = vec![2, 0, 1];
        let games = schedule(&p, 4, 3, &order);
        assert_eq!(games.len(), 3 * 4);
        assert_eq!(games[0].opening, Some(2));
        assert_eq!((games[0].black, games[0].white), (0, 1));
        assert_eq!((games[1].black, games[1].white), (1, 0));
        assert_eq!(games[1].opening, Some(2));
        assert_eq!((games[2].black, games[2].white), (0, 2));
        assert_eq!(games[6].opening, Some(0));
        assert_eq!(games[6].round, 2);
        assert_eq!(games.last().unwrap().number, 12);
        let empty = schedule(&p, 2, 0, &[]);
        assert!(empty.iter().all(|g| g.opening.is_none()));
    }

    #[test]
    fn names_are_made_safe_for_files() {
        assert_eq!(safe("quinto --depth 2"), "quinto_--depth_2");
        assert_eq!(safe("a/b"), "a_b");
    }
}
