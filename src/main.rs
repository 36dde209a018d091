//! `pbrain-quinto`: the Gomocup brain (no arguments) and its subcommands.

use quinto::bench::hash::{hash_bench, hash_bench_sizes, HASH_BENCH_NODES};
use quinto::bench::{
    defence_bench, replies_bench, rules_bench, search_bench, tactics_bench, timed_bench, Replies,
    SearchFigures, Tactic, TACTICS_NODES, TACTICS_POSITIONS,
};
use quinto::engine::Handicap;
use quinto::eval::evaluator::EvalKind;
use quinto::platform;
use quinto::search::params::MAX_THREADS;
use quinto::tactics_suite::parse_suite;
use std::ops::RangeInclusive;
use std::process::ExitCode;

const USAGE: &str = "usage: pbrain-quinto [--depth N] [--nodes N] [--player full|simple] [COMMAND]
  (no command)    speak the Gomocup/Piskvork brain protocol on stdin/stdout
  play [OPTIONS]  play in the terminal (renju on 15x15 against the engine by default;
                  `pbrain-quinto play --help` lists the options)
  --depth N       cap every search at depth N (a weaker sparring partner)
  --nodes N       cap every search at N nodes
  --player simple play the best-looking move without searching
  --threads N     search threads until the manager sends INFO thread_num (default 1)
  --eval auto|classical|net|policy
                  the evaluation: auto (the default) plays the network where it has proven
                  itself at time (freestyle and standard 15x15; renju 15x15 its policy
                  only) and the classical linear one elsewhere; net plays the network on
                  every rule (freestyle's on freestyle, standard and caro, renju's on
                  renju), classical never;
                  policy takes the classical value and lets the rule's network order the
                  moves; bench runs with it too
  --force-utf8    accepted for Yixin-Board (the output is plain ASCII anyway)
  bench [DEPTH]   search the bench positions: nodes and best move each, then
                  `Bench: <nodes>` (the code's fingerprint at the default depth) and nodes/s
  bench time MS   search each bench position for MS milliseconds: depth reached, nodes/s
  bench threads [N] [MS]
                  the timed bench with 1, 2, ... N search threads (default: the cores,
                  1000 ms): nodes/s and mean depth per thread count
  bench tactics [NODES] [--tree] [--replies] [--suite FILE]
                  search each tactics position (long forced wins Rapfi proved within a
                  second in games Quinto lost) to NODES nodes (default 1000000): the wins
                  proven and the nodes each took; --tree: where the nodes went (by ply,
                  move and node kind, reductions, extensions, prunings, table), beside
                  Rapfi's mate length and nodes; --suite: the positions of a forced-win
                  suite (tournaments/suites/), and the defence score: how often the
                  defender's position one move earlier, where Rapfi held it not lost,
                  gets another move than the one that let the win in; --replies: after
                  each position's chosen move, the defender's node and each of its replies
                  searched alone to NODES (fresh table each), the dearest first
  bench hash [NODES]
                  the first search with a transposition table of 16, 256, 512, 1024 and
                  4096 MiB (those the machine's memory allows), 1 and 2 threads, each
                  NODES nodes (default 300000): nodes/s on a table just allocated, on one
                  faulted in beforehand (as the engine does when the size is set) and on a
                  warm one, the best of 3 tables
  bench rules [ROUNDS]
                  move+undo and renju foul-check speed (default 200 rounds)
  help            this text

With no command, arguments it does not know are ignored (GUIs pass their own); the
commands above refuse them.

Logging is off unless QUINTO_LOG names a file to append to (level from QUINTO_LOG_LEVEL,
default info); nothing is ever written to stderr in protocol mode.";

fn main() -> ExitCode {
    platform::limit_malloc_arenas();
    init_logging();
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("play") {
        let terminal = quinto::play::Terminal {
            stdin_is_terminal: platform::stdin_is_terminal(),
            stdout_is_terminal: platform::stdout_is_terminal(),
            ansi: platform::ansi_colours(),
        };
        return ExitCode::from(quinto::play::command(&args[1..], terminal));
    }
    let tactics = match take_tactics_options(&mut args) {
        Ok(options) => options,
        Err(why) => return usage_error(&format!("pbrain-quinto bench tactics: {why}")),
    };
    let flags = match take_flags(&mut args) {
        Ok(flags) => flags,
        Err(why) => return usage_error(&format!("pbrain-quinto: {why}")),
    };
    let command = args.first().map(String::as_str);
    if !is_command(command) {
        // The engine: GUIs start it with arguments of their own (Yixin-Board on Windows:
        // `--force-utf8`); refusing them would leave the GUI without an engine.
        let ignored: Vec<String> = flags.unknown.into_iter().chain(args).collect();
        for arg in &ignored {
            log::info!("ignored the command-line argument {arg:?}");
        }
        let interactive = platform::stdin_is_terminal();
        if interactive && !ignored.is_empty() {
            println!("MESSAGE ignored arguments: {}", ignored.join(" "));
        }
        quinto::protocol::run(interactive, flags.handicap, flags.threads, flags.eval);
        return ExitCode::SUCCESS;
    }
    if let Some(unknown) = flags.unknown.first() {
        return usage_error(&format!("pbrain-quinto: unknown option '{unknown}'"));
    }
    match command {
        Some("bench") => match args.get(1).map(String::as_str) {
            Some("rules") => bench_rules(args.get(2).map(String::as_str)),
            Some("hash") => bench_hash(args.get(2).map(String::as_str)),
            Some("tactics") => bench_tactics(
                args.get(2).map(String::as_str),
                flags.eval.unwrap_or_default(),
                &tactics,
            ),
            Some("time") => bench_time(
                args.get(2).map(String::as_str),
                flags.eval.unwrap_or_default(),
            ),
            Some("threads") => bench_threads(
                args.get(2).map(String::as_str),
                args.get(3).map(String::as_str),
                flags.eval.unwrap_or_default(),
            ),
            depth => bench_search(depth, flags.eval.unwrap_or_default()),
        },
        Some("play") => usage_error("pbrain-quinto: `play` comes first, then its own options"),
        _ => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
    }
}

/// Whether the first argument left after the engine flags names a subcommand (with strict
/// arguments) rather than leaving the engine to run.
fn is_command(first: Option<&str>) -> bool {
    matches!(first, Some("bench" | "play" | "help" | "-h" | "--help"))
}

/// A bench command's number argument: `None` when it is absent, the number when it is within
/// `valid`, else the complaint and the usage on stderr (exit code 2).
fn bench_argument(
    text: Option<&str>,
    valid: RangeInclusive<u64>,
    complaint: &str,
) -> Result<Option<u64>, ExitCode> {
    match text.map(str::parse::<u64>) {
        None => Ok(None),
        Some(Ok(n)) if valid.contains(&n) => Ok(Some(n)),
        Some(_) => Err(usage_error(complaint)),
    }
}

/// The complaint and the usage on stderr; exit code 2.
fn usage_error(complaint: &str) -> ExitCode {
    eprintln!("{complaint}\n{USAGE}");
    ExitCode::from(2)
}

fn bench_time(millis: Option<&str>, eval: EvalKind) -> ExitCode {
    let complaint = "pbrain-quinto bench time: MS must be a positive number";
    let millis = match bench_argument(millis, 1..=u64::MAX, complaint) {
        Ok(Some(ms)) => ms,
        // MS is required.
        Ok(None) => return usage_error(complaint),
        Err(code) => return code,
    };
    let figures = timed_bench(millis, 1, eval);
    print_lines(&figures);
    let depths: Vec<u32> = figures.lines.iter().map(|l| l.depth).collect();
    println!(
        "depth per position {depths:?}, average {:.1} in {millis} ms each",
        figures.mean_depth()
    );
    let (unproven, count) = figures.mean_depth_unproven();
    if count < figures.lines.len() {
        println!(
            "average {unproven:.1} over the {count} positions not ended by a proven win or loss \
             (the search stops at a proof)"
        );
    }
    println!("nodes/s: {:.0}", figures.nodes_per_second());
    ExitCode::SUCCESS
}

fn bench_threads(threads: Option<&str>, millis: Option<&str>, eval: EvalKind) -> ExitCode {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = match bench_argument(
        threads,
        1..=MAX_THREADS as u64,
        &format!("pbrain-quinto bench threads: N must be 1 to {MAX_THREADS}"),
    ) {
        Ok(threads) => threads.map_or(cores, |n| n as usize),
        Err(code) => return code,
    };
    let millis = match bench_argument(
        millis,
        1..=u64::MAX,
        "pbrain-quinto bench threads: MS must be a positive number",
    ) {
        Ok(millis) => millis.unwrap_or(1000),
        Err(code) => return code,
    };
    let mut one_thread = None;
    for count in 1..=threads {
        let figures = timed_bench(millis, count, eval);
        let speed = figures.nodes_per_second();
        let base = *one_thread.get_or_insert(speed);
        println!(
            "threads {count}: nodes/s {speed:.0} ({:.2} x one thread), mean depth {:.1} in {millis} ms a position",
            speed / base.max(1.0),
            figures.mean_depth()
        );
    }
    ExitCode::SUCCESS
}

/// Each tactics position's tree statistics, beside what Rapfi needed for its proof.
fn print_trees(figures: &SearchFigures, suite: &[Tactic]) {
    for (i, (line, tactic)) in figures.lines.iter().zip(suite).enumerate() {
        println!(
            "position {:>2}: Quinto {} nodes to depth {}{}; Rapfi mate in {} plies, {} nodes",
            i + 1,
            line.nodes,
            line.depth,
            if line.won() { " (proven)" } else { "" },
            tactic.rapfi_mate_plies,
            tactic.rapfi_nodes
        );
        if let Some(tree) = &line.tree {
            print!("{tree}");
        }
    }
}

/// Replies searched in fewer nodes than this are counted, not listed.
const REPLY_SHOWN_NODES: u64 = 1_000;

/// Each position's defender's node after the chosen move, and its replies searched alone,
/// the dearest first (a reply whose line is marked proven is refuted).
fn print_replies(all: &[Option<Replies>]) {
    for (i, replies) in all.iter().enumerate() {
        let r = match replies {
            Some(r) => r,
            None => {
                println!(
                    "position {:>2}: no replies (no move chosen, or a five)",
                    i + 1
                );
                continue;
            }
        };
        let size = r.node.size;
        let alone: u64 = r.replies.iter().map(|(_, line)| line.nodes).sum();
        let (shown, cheap): (Vec<_>, Vec<_>) = r
            .replies
            .iter()
            .partition(|(_, line)| line.nodes > REPLY_SHOWN_NODES);
        println!(
            "position {:>2}: after {}, the defender's node {} nodes (score {}, depth {}); its {} replies alone {} nodes, {} of them within {} each",
            i + 1,
            size.to_human(r.after),
            r.node.nodes,
            r.node.score,
            r.node.depth,
            r.replies.len(),
            alone,
            cheap.len(),
            REPLY_SHOWN_NODES
        );
        for (reply, line) in shown {
            println!(
                "  {:<4} {:>9} nodes  score {:>6}  depth {:>2}{}",
                size.to_human(*reply),
                line.nodes,
                line.score,
                line.depth,
                if line.won() { "  refuted" } else { "" }
            );
        }
    }
}

fn print_lines(figures: &SearchFigures) {
    for (i, line) in figures.lines.iter().enumerate() {
        println!(
            "position {:>2} {:<10} {}x{}  best {:<4} score {:>6}  depth {:>2}  nodes {}{}",
            i + 1,
            line.rule.name(),
            line.size.width(),
            line.size.height(),
            line.best
                .map_or("none".to_string(), |p| line.size.to_human(p)),
            line.score,
            line.depth,
            line.nodes,
            line.nodes_to_win()
                .map_or(String::new(), |n| format!(" (won at {n})"))
        );
    }
}

fn bench_search(depth: Option<&str>, eval: EvalKind) -> ExitCode {
    let depth = match bench_argument(depth, 1..=64, "pbrain-quinto bench: DEPTH must be 1 to 64") {
        Ok(depth) => depth.map(|d| d as u32),
        Err(code) => return code,
    };
    let figures = search_bench(depth, eval);
    print_lines(&figures);
    println!("Bench: {}", figures.nodes);
    println!(
        "nodes/s: {:.0} ({} ms)",
        figures.nodes_per_second(),
        figures.elapsed.as_millis()
    );
    ExitCode::SUCCESS
}

/// `bench tactics`' own options.
#[derive(Debug, Default)]
struct TacticsOptions {
    /// Print where the nodes went.
    tree: bool,
    /// A suite file instead of the built-in positions.
    suite: Option<String>,
    /// Each position's defender's node and replies, searched one by one.
    replies: bool,
}

/// Removes `--tree`, `--replies` and `--suite FILE` from the arguments of `bench tactics`
/// (nothing from other commands' arguments).
fn take_tactics_options(args: &mut Vec<String>) -> Result<TacticsOptions, String> {
    let mut options = TacticsOptions::default();
    if args.len() < 2 || args[0] != "bench" || args[1] != "tactics" {
        return Ok(options);
    }
    if let Some(at) = args.iter().position(|a| a == "--tree") {
        args.remove(at);
        options.tree = true;
    }
    if let Some(at) = args.iter().position(|a| a == "--replies") {
        args.remove(at);
        options.replies = true;
    }
    if let Some(at) = args.iter().position(|a| a == "--suite") {
        args.remove(at);
        if at >= args.len() {
            return Err("--suite takes a file".into());
        }
        options.suite = Some(args.remove(at));
    }
    Ok(options)
}

fn bench_tactics(nodes: Option<&str>, eval: EvalKind, options: &TacticsOptions) -> ExitCode {
    let nodes = match bench_argument(
        nodes,
        1..=u64::MAX,
        "pbrain-quinto bench tactics: NODES must be a positive number",
    ) {
        Ok(nodes) => nodes.unwrap_or(TACTICS_NODES),
        Err(code) => return code,
    };
    let suite = match &options.suite {
        None => TACTICS_POSITIONS.to_vec(),
        Some(path) => match std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| parse_suite(&text))
        {
            Ok(suite) => suite,
            Err(why) => {
                eprintln!("pbrain-quinto bench tactics: {path}: {why}");
                return ExitCode::from(2);
            }
        },
    };
    if options.replies {
        print_replies(&replies_bench(&suite, nodes, eval));
        return ExitCode::SUCCESS;
    }
    let figures = tactics_bench(&suite, nodes, eval, options.tree);
    print_lines(&figures);
    if options.tree {
        print_trees(&figures, &suite);
    }
    let proven: Vec<_> = figures.lines.iter().filter(|l| l.won()).collect();
    println!(
        "Tactics: {} of {} wins proven within {nodes} nodes ({} nodes in all for them)",
        proven.len(),
        figures.lines.len(),
        proven.iter().filter_map(|l| l.nodes_to_win()).sum::<u64>()
    );
    let ratio = median_proof_ratio(&figures, &suite);
    match ratio {
        Some(ratio) => println!("Median nodes to a proof: {ratio:.2} times Rapfi's"),
        None => println!("Median nodes to a proof: half the positions or more unproven"),
    }
    if options.suite.is_some() {
        let defence = defence_bench(&suite, nodes, eval);
        println!(
            "Defence: {} of {} defender's positions (not lost for Rapfi) answered otherwise than the move that let the win in",
            defence.avoided, defence.positions
        );
    }
    ExitCode::SUCCESS
}

/// The median over the positions of Quinto's nodes to a proof over Rapfi's, an unproven
/// position counting as infinitely many; `None` when that median is infinite.
fn median_proof_ratio(figures: &SearchFigures, suite: &[Tactic]) -> Option<f64> {
    let mut ratios: Vec<f64> = figures
        .lines
        .iter()
        .zip(suite)
        .map(|(line, tactic)| match line.nodes_to_win() {
            Some(nodes) => nodes as f64 / tactic.rapfi_nodes.max(1) as f64,
            None => f64::INFINITY,
        })
        .collect();
    ratios.sort_by(|a, b| a.total_cmp(b));
    let middle = ratios.get(ratios.len() / 2).copied()?;
    middle.is_finite().then_some(middle)
}

fn bench_hash(nodes: Option<&str>) -> ExitCode {
    let nodes = match bench_argument(
        nodes,
        1..=u64::MAX,
        "pbrain-quinto bench hash: NODES must be a positive number",
    ) {
        Ok(nodes) => nodes.unwrap_or(HASH_BENCH_NODES),
        Err(code) => return code,
    };
    let (sizes, left_out) = hash_bench_sizes();
    if !left_out.is_empty() {
        println!(
            "left out (more than the engine takes of this machine's memory): {left_out:?} MiB"
        );
    }
    hash_bench(&sizes, nodes, &mut |f| {
        println!(
            "hash {:>4} MiB threads {}: nodes/s just allocated {:>8.0}, faulted in ({:>5} ms) \
             first {:>8.0}, cleared ({:>3} ms) warm {:>8.0}: first {:.0} % of warm",
            f.mib,
            f.threads,
            f.cold,
            f.warm_up.as_millis(),
            f.first,
            f.clear.as_millis(),
            f.warm,
            100.0 * f.first_to_warm()
        )
    });
    ExitCode::SUCCESS
}

fn bench_rules(rounds: Option<&str>) -> ExitCode {
    let rounds = match bench_argument(
        rounds,
        1..=u64::MAX,
        "pbrain-quinto bench rules: ROUNDS must be a positive number",
    ) {
        Ok(rounds) => rounds.map_or(200, |n| n as usize),
        Err(code) => return code,
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

/// The engine flags on the command line.
struct Flags {
    handicap: Handicap,
    /// `--threads` and `--eval`, which outrank the settings file.
    threads: Option<usize>,
    eval: Option<EvalKind>,
    /// Options that are not ours (`--something`), in order.
    unknown: Vec<String>,
}

/// Removes the engine flags from `args`: the handicap, the search threads, and options that
/// are not ours (kept in `unknown`; their values, if any, stay in `args`).
fn take_flags(args: &mut Vec<String>) -> Result<Flags, String> {
    let mut flags = Flags {
        handicap: Handicap::default(),
        threads: None,
        eval: None,
        unknown: Vec::new(),
    };
    let handicap = &mut flags.handicap;
    while let Some(at) = args
        .iter()
        .position(|a| a.starts_with("--") && a != "--help")
    {
        let flag = args.remove(at);
        match flag.as_str() {
            "--depth" | "--nodes" | "--threads" | "--player" | "--eval" => {}
            // Yixin-Board's `--force-utf8` asks for what we print anyway.
            "--force-utf8" => continue,
            _ => {
                flags.unknown.push(flag);
                continue;
            }
        }
        let value = if at < args.len() {
            args.remove(at)
        } else {
            String::new()
        };
        let number = |text: &str| text.parse::<u64>().ok().filter(|&n| n > 0);
        match flag.as_str() {
            "--depth" => {
                let depth = number(&value)
                    .filter(|&d| d <= 64)
                    .ok_or("--depth takes 1 to 64")?;
                handicap.max_depth = Some(depth as u32);
            }
            "--nodes" => {
                handicap.max_nodes = Some(number(&value).ok_or("--nodes takes a positive number")?)
            }
            "--threads" => {
                let threads = number(&value)
                    .filter(|&n| n <= MAX_THREADS as u64)
                    .ok_or_else(|| format!("--threads takes 1 to {MAX_THREADS}"))?;
                flags.threads = Some(threads as usize)
            }
            "--eval" => {
                flags.eval = Some(
                    EvalKind::parse(&value)
                        .ok_or_else(|| format!("--eval is {}", EvalKind::CHOICES))?,
                )
            }
            // --player
            _ => match value.as_str() {
                "simple" => handicap.plain = true,
                "full" => handicap.plain = false,
                _ => return Err("--player is full or simple".into()),
            },
        }
    }
    Ok(flags)
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
