//! `quinto-match`'s command line, parsed by hand.

use crate::matches::engine::EngineSpec;
use crate::matches::game::{GameConfig, Limits};
use crate::matches::openings;
use crate::matches::procmem::{parse_bytes, MemoryKind};
use crate::matches::runner::MatchConfig;
use crate::matches::stats::Sprt;
use quinto::game::{BoardSize, Rule};
use std::path::PathBuf;

pub const USAGE: &str = "\
usage: quinto-match --engine name=NAME,cmd=PATH[,arg=ARG]...[,dir=DIR] --engine ... --out DIR
                    [options]
       quinto-match pool [--sprt ...] DIR...   (several runs' results counted together)

Plays Gomocup/Piskvork protocol engines (pbrain-*) against each other, one process per
engine per game, refereed by Quinto's rules core. Writes DIR/games/*.psq, DIR/games.csv,
DIR/summary.txt (also printed) and DIR/logs/ (each engine's stderr and the conversation).

Engines and pairing:
  --engine SPEC          name=NAME,cmd=PATH: a name for the results and the executable
                         (a path, or a name found on PATH); arg=ARG once per argument, in
                         order; dir=DIR the working directory. A comma inside a value is
                         written \\, . At least two engines; names must differ.
  --gauntlet             the first engine plays each of the others (default: round robin)
  --games G              games per pair, rounded up to even: each opening is played twice,
                         colours swapped (default 2)

Rules and openings:
  --rule R               0 freestyle, 1 standard (exactly five), 4 renju, 8 caro,
                         9 caro with exactly five (default 0)
  --size N | WxH         board size, 5 to 32 (default 15; WxH sends RECTSTART)
  --openings FILE        one opening per line, black first: `h8 i9 j10` or `7,7 8,6 9,5`;
                         blank lines and # comments ignored (default: empty board)
  --random-openings      use the openings in a random order (default: file order)
  --seed S               seed for --random-openings (default 1)

Time and resources (sent as INFO, and adjudicated):
  --turn-ms T            INFO timeout_turn, ms per move (default 5000; 0 = move at once)
  --match-ms M           INFO timeout_match, ms per game (default 0 = unlimited); INFO
                         time_left is sent before every move
  --tolerance-ms MS      a reply later than min(turn, time_left) + MS loses on time
                         (default 1000, as Piskvork and GomocupJudge)
  --start-ms MS          time allowed to answer START with OK, not counted as game time
                         (default 5000)
  --max-memory BYTES     INFO max_memory; an engine whose process tree uses more loses
                         (350M style units allowed; default 0 = no limit)
  --memory-kind vms|rss  what --max-memory is compared with: VmSize, as GomocupJudge, or
                         VmRSS (default vms); both peaks are always recorded
  --memory-poll-ms MS    also sample memory every MS while an engine thinks (default 0:
                         after each move only)
  --max-nodes N          INFO max_node N
  --max-depth N          INFO max_depth N. With either limit engines replay a game move
                         for move from the same opening and colours, so --games may not
                         exceed twice the openings (2 from the empty board)

Match:
  --concurrency N        games played at once, with std threads (default 1). In a game
                         only one engine thinks at a time, so N games keep about N cores
                         busy: on our 2-core machines use 1 for timing-sensitive matches,
                         at most 2, and only with single-threaded engines
  --sprt elo0=E0,elo1=E1,alpha=A,beta=B
                         stop when the sequential test decides (two engines only; defaults
                         elo0=0, elo1=10, alpha=0.05, beta=0.05)
  --out DIR              output directory (must not hold an earlier match)

Conversation:
  --lenient              ignore stray output lines (GomocupJudge) instead of losing the game
                         on them (Piskvork, the default)
  --crlf                 send CR LF line ends (as Piskvork does) instead of LF
  --no-transcripts       do not write DIR/logs/*.io conversation transcripts

  -h, --help             this text

Exit status: 0 match played; 1 an engine failed the start-up check or the output could not
be written; 2 bad command line (including a missing engine executable).";

/// What the command line asks for.
#[derive(Debug)]
pub enum Parsed {
    Help,
    Run(Box<MatchConfig>),
}

/// Parses the arguments (without the program name).
pub fn parse(args: &[String]) -> Result<Parsed, String> {
    let mut engines: Vec<EngineSpec> = Vec::new();
    let mut gauntlet = false;
    let mut games = 2usize;
    let mut rule = Rule::Freestyle;
    let mut size = BoardSize::square(15).expect("15 is supported");
    let mut openings_file: Option<PathBuf> = None;
    let mut random_openings = false;
    let mut seed = 1u64;
    let mut limits = Limits::default();
    let mut concurrency = 1usize;
    let mut sprt = None;
    let mut out: Option<PathBuf> = None;
    let mut lenient = false;
    let mut crlf = false;
    let mut transcripts = true;

    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        i += 1;
        // `--key=value` or `--key value`.
        let (key, inline) = match arg.split_once('=') {
            Some((k, v)) if k.starts_with("--") => (k, Some(v.to_string())),
            _ => (arg, None),
        };
        let mut value = |name: &str| -> Result<String, String> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            match args.get(i) {
                Some(v) => {
                    i += 1;
                    Ok(v.clone())
                }
                None => Err(format!("{name} needs a value")),
            }
        };
        match key {
            "-h" | "--help" | "help" => return Ok(Parsed::Help),
            "--engine" => engines.push(EngineSpec::parse(&value(key)?)?),
            "--gauntlet" => gauntlet = true,
            "--games" => {
                games = number(key, &value(key)?)? as usize;
                if games == 0 {
                    return Err("--games must be at least 1".into());
                }
            }
            "--rule" => {
                let v = value(key)?;
                rule = v
                    .parse::<u32>()
                    .ok()
                    .and_then(Rule::from_protocol)
                    .ok_or_else(|| {
                        format!(
                            "--rule {v}: use 0 (freestyle), 1 (standard), 4 (renju), 8 or 9 (caro)"
                        )
                    })?;
            }
            "--size" => size = parse_size(&value(key)?)?,
            "--openings" => openings_file = Some(PathBuf::from(value(key)?)),
            "--random-openings" => random_openings = true,
            "--seed" => seed = number(key, &value(key)?)?,
            "--turn-ms" => limits.turn_ms = number(key, &value(key)?)?,
            "--match-ms" => limits.match_ms = number(key, &value(key)?)?,
            "--tolerance-ms" => limits.tolerance_ms = number(key, &value(key)?)?,
            "--start-ms" => limits.start_ms = number(key, &value(key)?)?,
            "--max-memory" => {
                limits.max_memory =
                    parse_bytes(&value(key)?).map_err(|e| format!("--max-memory: {e}"))?
            }
            "--memory-kind" => {
                limits.memory_kind = match value(key)?.as_str() {
                    "vms" | "vmsize" => MemoryKind::Vms,
                    "rss" | "vmrss" => MemoryKind::Rss,
                    other => return Err(format!("--memory-kind {other}: use vms or rss")),
                }
            }
            "--memory-poll-ms" => limits.memory_poll_ms = number(key, &value(key)?)?,
            "--max-nodes" => limits.max_nodes = Some(positive(key, &value(key)?)?),
            "--max-depth" => limits.max_depth = Some(positive(key, &value(key)?)?),
            "--concurrency" => {
                concurrency = positive(key, &value(key)?)? as usize;
                if concurrency > 64 {
                    return Err("--concurrency: at most 64".into());
                }
            }
            "--sprt" => sprt = Some(Sprt::parse(&value(key)?)?),
            "--out" => out = Some(PathBuf::from(value(key)?)),
            "--lenient" => lenient = true,
            "--crlf" => crlf = true,
            "--no-transcripts" => transcripts = false,
            other if other.starts_with('-') => {
                return Err(format!("unknown option {other} (see --help)"))
            }
            other => return Err(format!("unexpected argument '{other}' (see --help)")),
        }
        if inline.is_some() && FLAGS.contains(&key) {
            return Err(format!("{key} takes no value"));
        }
    }

    if engines.len() < 2 {
        return Err("at least two --engine are needed".into());
    }
    for (k, e) in engines.iter().enumerate() {
        if engines[..k].iter().any(|o| o.name == e.name) {
            return Err(format!(
                "two engines are named '{}': give each a distinct name=",
                e.name
            ));
        }
    }
    let out = out.ok_or("--out DIR is required")?;
    if sprt.is_some() && engines.len() != 2 {
        return Err("--sprt needs exactly two engines".into());
    }
    let (openings, openings_source) = match &openings_file {
        Some(path) => (
            openings::read_file(path, size, rule)?,
            path.display().to_string(),
        ),
        None => (Vec::new(), "empty board".to_string()),
    };
    let games_per_pair = games + games % 2;
    // A node- or depth-limited engine plays the same game again from the same opening and colours,
    // so games past each opening's two would only repeat earlier ones and be counted again.
    let distinct_games = 2 * openings.len().max(1);
    if (limits.max_nodes.is_some() || limits.max_depth.is_some()) && games_per_pair > distinct_games
    {
        return Err(format!(
            "--games {games} with a node or depth limit: such engines replay a game move for move \
             from the same opening and colours, so the {} opening(s) give {distinct_games} \
             distinct games a pair and the rest would be counted again without telling \
             anything new; play at most --games {distinct_games}, or use a larger opening suite",
            openings.len()
        ));
    }
    let command_line = std::iter::once("quinto-match".to_string())
        .chain(args.iter().map(|a| quote(a)))
        .collect::<Vec<_>>()
        .join(" ");
    Ok(Parsed::Run(Box::new(MatchConfig {
        engines,
        gauntlet,
        game: GameConfig {
            size,
            rule,
            limits,
            lenient,
            crlf,
        },
        openings,
        openings_source,
        random_openings,
        seed,
        games_per_pair,
        concurrency,
        sprt,
        out,
        transcripts,
        command_line,
    })))
}

/// Options that take no value.
const FLAGS: [&str; 5] = [
    "--gauntlet",
    "--random-openings",
    "--lenient",
    "--crlf",
    "--no-transcripts",
];

fn number(key: &str, v: &str) -> Result<u64, String> {
    v.trim()
        .parse::<u64>()
        .map_err(|_| format!("{key} {v}: not a non-negative whole number"))
}

fn positive(key: &str, v: &str) -> Result<u64, String> {
    match number(key, v)? {
        0 => Err(format!("{key} must be at least 1")),
        n => Ok(n),
    }
}

/// `15` or `15x20`.
pub fn parse_size(v: &str) -> Result<BoardSize, String> {
    let bad = || format!("--size {v}: use N or WxH (5 to 32)");
    let (w, h) = match v.split_once(['x', 'X']) {
        Some((w, h)) => (w, h),
        None => (v, v),
    };
    let w: usize = w.trim().parse().map_err(|_| bad())?;
    let h: usize = h.trim().parse().map_err(|_| bad())?;
    BoardSize::new(w, h).map_err(|e| format!("--size {v}: {e}"))
}

/// Shell-quotes an argument for the summary when it needs it.
fn quote(a: &str) -> String {
    if !a.is_empty()
        && a.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_=.,/:+@%".contains(c))
    {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn run(list: &[&str]) -> Result<MatchConfig, String> {
        match parse(&args(list))? {
            Parsed::Run(c) => Ok(*c),
            Parsed::Help => Err("help".into()),
        }
    }

    #[test]
    fn a_full_command_line() {
        let c = run(&[
            "--engine",
            "name=a,cmd=/bin/sh",
            "--engine=name=b,cmd=/bin/sh,arg=-x",
            "--rule",
            "4",
            "--size",
            "15",
            "--games",
            "1",
            "--turn-ms",
            "200",
            "--match-ms=9000",
            "--max-memory",
            "350M",
            "--max-nodes",
            "2000",
            "--concurrency",
            "2",
            "--sprt",
            "elo0=0,elo1=5",
            "--seed",
            "9",
            "--random-openings",
            "--out",
            "/tmp/x",
        ])
        .unwrap();
        assert_eq!(c.engines.len(), 2);
        assert_eq!(c.engines[1].args, vec!["-x".to_string()]);
        assert_eq!(c.game.rule, Rule::Renju);
        assert_eq!(c.games_per_pair, 2);
        assert_eq!(c.game.limits.turn_ms, 200);
        assert_eq!(c.game.limits.match_ms, 9000);
        assert_eq!(c.game.limits.max_memory, 350 << 20);
        assert_eq!(c.game.limits.max_nodes, Some(2000));
        assert_eq!(c.concurrency, 2);
        assert_eq!(c.sprt.unwrap().elo1, 5.0);
        assert_eq!(c.seed, 9);
        assert!(c.random_openings);
        assert!(c.openings.is_empty());
        assert_eq!(c.game.limits.tolerance_ms, 1000);
    }

    #[test]
    fn usage_errors_are_explained() {
        let cases: &[(&[&str], &str)] = &[
            (
                &["--engine", "name=a,cmd=/bin/sh", "--out", "x"],
                "at least two",
            ),
            (
                &[
                    "--engine",
                    "name=a,cmd=/bin/sh",
                    "--engine",
                    "name=a,cmd=/bin/sh",
                    "--out",
                    "x",
                ],
                "two engines are named 'a'",
            ),
            (
                &[
                    "--engine",
                    "name=a,cmd=/bin/sh",
                    "--engine",
                    "name=b,cmd=/bin/sh",
                ],
                "--out DIR is required",
            ),
            (&["--rule", "3"], "--rule 3"),
            (&["--size", "40"], "unsupported board size"),
            (&["--games"], "--games needs a value"),
            (&["--games", "-2"], "not a non-negative"),
            (&["--bogus"], "unknown option --bogus"),
            (&["--gauntlet=yes"], "--gauntlet takes no value"),
            (&["--engine", "name=a,cmd=/no/such/thing"], "no such file"),
            (&["--concurrency", "0"], "at least 1"),
            (&["stray"], "unexpected argument"),
            (
                &[
                    "--engine",
                    "name=a,cmd=/bin/sh",
                    "--engine",
                    "name=b,cmd=/bin/sh",
                    "--engine",
                    "name=c,cmd=/bin/sh",
                    "--sprt",
                    "elo1=5",
                    "--out",
                    "x",
                ],
                "--sprt needs exactly two engines",
            ),
            (
                &[
                    "--engine",
                    "name=a,cmd=/bin/sh",
                    "--engine",
                    "name=b,cmd=/bin/sh",
                    "--max-nodes",
                    "1000",
                    "--games",
                    "4",
                    "--out",
                    "x",
                ],
                "give 2 distinct games a pair",
            ),
        ];
        for (list, want) in cases {
            let e = run(list).unwrap_err();
            assert!(e.contains(want), "{list:?}: {e}");
        }
        assert!(matches!(parse(&args(&["--help"])), Ok(Parsed::Help)));
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("20").unwrap(), BoardSize::square(20).unwrap());
        assert_eq!(
            parse_size("15x20").unwrap(),
            BoardSize::new(15, 20).unwrap()
        );
        assert!(parse_size("x").is_err());
    }
}
