//! `pbrain-quinto play` flags. Scripts depend on these names; a bad flag is an error with a
//! one-line reason (the binary exits with code 2).

use super::game::Game;
use super::level::{Level, LEVELS};
use crate::game::{BoardSize, Color, Pos, Rule};
use crate::record::rule_by_name;
use crate::search::params::MAX_THREADS;
use std::path::PathBuf;

/// Who moves for a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Human,
    Engine,
}

impl Player {
    fn parse(flag: &str, text: &str) -> Result<Player, String> {
        match text.to_ascii_lowercase().as_str() {
            "human" => Ok(Player::Human),
            "engine" => Ok(Player::Engine),
            _ => Err(format!("{flag} takes human or engine, not '{text}'")),
        }
    }

    fn other(self) -> Player {
        match self {
            Player::Human => Player::Engine,
            Player::Engine => Player::Human,
        }
    }
}

/// Everything the flags choose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub rule: Rule,
    /// Whether `--rule` was given (a replay uses the record's rule unless told).
    pub rule_given: bool,
    pub size: BoardSize,
    /// Per colour, index [`Color::index`].
    pub players: [Player; 2],
    pub level: Level,
    /// The engine's time per move.
    pub move_ms: u64,
    /// Each player's clock for the whole game.
    pub clock_ms: Option<u64>,
    /// The engine's search threads.
    pub threads: usize,
    /// Stones to start from, black first.
    pub opening: Vec<Pos>,
    pub ascii: bool,
    pub replay: Option<PathBuf>,
    /// Where finished games go; `None` for the default (see [`default_records_dir`]).
    pub records: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Options {
        let level = Level::strongest();
        Options {
            rule: Rule::Renju,
            rule_given: false,
            size: BoardSize::square(15).expect("15 is a board size"),
            players: [Player::Human, Player::Engine],
            level,
            move_ms: level.move_ms,
            clock_ms: None,
            threads: 1,
            opening: Vec::new(),
            ascii: false,
            replay: None,
            records: None,
        }
    }
}

impl Options {
    pub fn player(&self, color: Color) -> Player {
        self.players[color.index()]
    }
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Parsed {
    Play(Options),
    Help,
}

/// The flags after `play`.
pub fn parse(args: &[String]) -> Result<Parsed, String> {
    let mut options = Options::default();
    let mut seen: Vec<String> = Vec::new();
    let mut black = None;
    let mut white = None;
    let mut time = None;
    let mut size = None;
    let mut opening = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg == "--help" || arg == "-h" || arg == "help" {
            return Ok(Parsed::Help);
        }
        if !arg.starts_with("--") {
            return Err(format!("unexpected argument '{arg}' (flags start with --)"));
        }
        // `--flag value` or `--flag=value`.
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) => (flag.to_string(), Some(value.to_string())),
            None => (arg.clone(), None),
        };
        if seen.contains(&flag) {
            return Err(format!("{flag} is given twice"));
        }
        seen.push(flag.clone());
        if flag == "--ascii" {
            if inline.is_some() {
                return Err("--ascii takes no value".into());
            }
            options.ascii = true;
            continue;
        }
        if !FLAGS_WITH_VALUE.contains(&flag.as_str()) {
            return Err(format!("unknown option '{flag}'"));
        }
        let value = match inline.or_else(|| args.next().cloned()) {
            Some(value) => value,
            None => return Err(format!("{flag} needs a value")),
        };
        match flag.as_str() {
            "--rule" => {
                options.rule = rule_by_name(&value).ok_or_else(|| {
                    format!("--rule takes freestyle, standard, renju or caro, not '{value}'")
                })?;
                options.rule_given = true;
            }
            "--size" => {
                let side: usize = value
                    .parse()
                    .map_err(|_| format!("--size takes a number (5 to 32), not '{value}'"))?;
                size = Some(BoardSize::square(side).map_err(|why| format!("--size: {why}"))?);
            }
            "--black" => black = Some(Player::parse("--black", &value)?),
            "--white" => white = Some(Player::parse("--white", &value)?),
            "--level" => {
                options.level = Level::by_name(&value).ok_or_else(|| {
                    format!("--level takes one of {}, not '{value}'", Level::names())
                })?
            }
            "--time" => {
                time =
                    Some(seconds_to_ms(&value).ok_or_else(|| {
                        format!("--time takes seconds (0 to 3600), not '{value}'")
                    })?)
            }
            "--clock" => {
                let ms = minutes_to_ms(&value).ok_or_else(|| {
                    format!("--clock takes minutes (more than 0, at most 600), not '{value}'")
                })?;
                options.clock_ms = Some(ms);
            }
            "--threads" => {
                options.threads = value
                    .parse()
                    .ok()
                    .filter(|n| (1..=MAX_THREADS).contains(n))
                    .ok_or_else(|| {
                        format!("--threads takes a number from 1 to {MAX_THREADS}, not '{value}'")
                    })?
            }
            "--opening" => opening = Some(value),
            "--replay" => options.replay = Some(PathBuf::from(value)),
            "--records" => options.records = Some(PathBuf::from(value)),
            _ => unreachable!("every flag with a value is matched"),
        }
    }
    if let Some(size) = size {
        options.size = size;
    }
    options.players = match (black, white) {
        (Some(b), Some(w)) => [b, w],
        (Some(b), None) => [b, b.other()],
        (None, Some(w)) => [w.other(), w],
        (None, None) => options.players,
    };
    options.move_ms = time.unwrap_or(options.level.move_ms);
    if let Some(text) = opening {
        options.opening = parse_opening(&text, options.size, options.rule)?;
    }
    if options.replay.is_some() {
        let allowed = ["--replay", "--rule", "--ascii"];
        if let Some(other) = seen.iter().find(|f| !allowed.contains(&f.as_str())) {
            return Err(format!(
                "{other} does not go with --replay (only --rule and --ascii do)"
            ));
        }
    }
    Ok(Parsed::Play(options))
}

const FLAGS_WITH_VALUE: [&str; 11] = [
    "--rule",
    "--size",
    "--black",
    "--white",
    "--level",
    "--time",
    "--clock",
    "--threads",
    "--opening",
    "--replay",
    "--records",
];

/// The opening's points, each checked as a move (taken points, renju fouls and an opening
/// that already wins are refused).
fn parse_opening(text: &str, size: BoardSize, rule: Rule) -> Result<Vec<Pos>, String> {
    let mut game = Game::new(size, rule);
    let words = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty());
    for (i, word) in words.enumerate() {
        let pos = size
            .parse_human(word)
            .map_err(|why| format!("--opening move {}: {why}", i + 1))?;
        game.play(pos, 0)
            .map_err(|why| format!("--opening move {}: {why}", i + 1))?;
        if game.result().is_some() {
            return Err(format!(
                "--opening move {} ({word}) ends the game: an opening must leave it open",
                i + 1
            ));
        }
    }
    Ok(game.board().history().to_vec())
}

/// Whole or decimal seconds, 0 to an hour (0: the engine answers at once, one ply deep).
fn seconds_to_ms(text: &str) -> Option<u64> {
    let seconds: f64 = text.trim().parse().ok()?;
    (seconds.is_finite() && (0.0..=3600.0).contains(&seconds))
        .then(|| (seconds * 1000.0).round() as u64)
}

fn minutes_to_ms(text: &str) -> Option<u64> {
    let minutes: f64 = text.trim().parse().ok()?;
    (minutes.is_finite() && minutes > 0.0 && minutes <= 600.0)
        .then(|| (minutes * 60_000.0).round().max(1.0) as u64)
}

/// Where finished games go unless `--records` says: `./quinto-games` if that directory
/// exists, else `quinto-games` in the home directory (`HOME`, `USERPROFILE` on Windows),
/// else `./quinto-games`.
pub fn default_records_dir() -> PathBuf {
    let here = PathBuf::from("quinto-games");
    if here.is_dir() {
        return here;
    }
    std::env::var_os("HOME")
        .or_else(|| std::env::var_os("USERPROFILE"))
        .filter(|home| !home.is_empty())
        .map_or(here, |home| PathBuf::from(home).join("quinto-games"))
}

/// `pbrain-quinto play --help`.
pub fn help() -> String {
    let levels: String = LEVELS
        .iter()
        .map(|l| format!("                      {:<9} {}\n", l.name, l.about))
        .collect();
    format!(
        "usage: pbrain-quinto play [OPTIONS]

Play gomoku or renju in the terminal against Quinto, against another person at the same
keyboard, or watch Quinto play itself. With no options: renju on 15x15, you play black,
Quinto plays white at full strength, 3 seconds a move.

  --rule NAME         freestyle  five or more in a row wins
                      standard   exactly five wins
                      renju      (default) black needs exactly five and may not play a double
                                 three, double four or overline; white wins with five or more
                      caro       five or more, but not a five blocked at both ends
                                 (caro-exact: exactly five, not blocked at both ends)
  --size N            board side, 5 to 32 (default 15)
  --black human|engine
  --white human|engine
                      who plays each colour (default: black human, white engine); naming
                      one colour gives the other to the other player, so --white human
                      means you play white against Quinto
  --level NAME        the engine's strength:
{levels}  --time SECONDS      the engine's time per move, e.g. 0.5 (default: the level's)
  --clock MINUTES     a clock for each player, e.g. 5 or 0.5; whoever runs out loses
  --threads N         the engine's search threads (default 1; one per core helps)
  --opening MOVES     stones to start from, black first, as one argument: \"h8 h9 i9\"
  --ascii             plain ASCII, no colours (automatic when the output is not a
                      terminal, or when NO_COLOR is set)
  --records DIR       where finished games are saved as Piskvork .psq files (default:
                      ./quinto-games if that directory exists, else ~/quinto-games)
  --replay FILE       step through a saved .psq game instead of playing (with --rule for
                      records that do not name their rule, --ascii)
  --help              this text

Moves are typed as h8 or 8h: column letter, row number counted from the bottom. Type help
at the prompt for the commands (undo, redo, hint, think, swap, resign, save, load, quit, ...).
Bad flags exit with code 2."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    fn options(text: &str) -> Options {
        match parse(&args(text)) {
            Ok(Parsed::Play(options)) => options,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn no_flags_is_renju_15_human_black_against_the_full_engine() {
        let o = options("");
        assert_eq!(o.rule, Rule::Renju);
        assert_eq!(o.size.width(), 15);
        assert_eq!(o.players, [Player::Human, Player::Engine]);
        assert!(o.level.is_full_strength());
        assert_eq!(o.move_ms, 3_000);
        assert_eq!(o.clock_ms, None);
        assert_eq!(o.threads, 1);
    }

    #[test]
    fn every_flag_is_read() {
        let o = options(
            "--rule caro --size 19 --black engine --white human --level club --time 0.5 \
             --clock 2.5 --threads 2 --ascii --records /tmp/x --opening=j10,k10",
        );
        assert_eq!(o.threads, 2);
        assert_eq!(o.rule, Rule::Caro);
        assert_eq!(o.size.height(), 19);
        assert_eq!(o.players, [Player::Engine, Player::Human]);
        assert_eq!(o.level.name, "club");
        assert_eq!(o.move_ms, 500);
        assert_eq!(o.clock_ms, Some(150_000));
        assert!(o.ascii);
        assert_eq!(o.records, Some(PathBuf::from("/tmp/x")));
        let size = o.size;
        assert_eq!(
            o.opening,
            vec![
                size.parse_human("j10").unwrap(),
                size.parse_human("k10").unwrap()
            ]
        );
        assert_eq!(
            options("--white human").players,
            [Player::Engine, Player::Human]
        );
        assert_eq!(
            options("--black engine").players,
            [Player::Engine, Player::Human]
        );
        assert_eq!(
            options("--black human --white human").players,
            [Player::Human; 2]
        );
        assert_eq!(options("--level beginner").move_ms, 200);
        assert_eq!(parse(&args("--rule renju --help")), Ok(Parsed::Help));
    }

    #[test]
    fn bad_flags_say_why() {
        let cases = [
            ("--rule chess", "--rule takes freestyle"),
            ("--size 40", "--size: unsupported board size"),
            ("--size big", "--size takes a number"),
            ("--black robot", "--black takes human or engine"),
            ("--level god", "--level takes one of beginner"),
            ("--time -1", "--time takes seconds"),
            ("--clock 0", "--clock takes minutes"),
            ("--threads 0", "--threads takes a number from 1 to 256"),
            ("--threads many", "--threads takes a number"),
            ("--size", "--size needs a value"),
            ("--frobnicate", "unknown option '--frobnicate'"),
            ("--size 15 --size 19", "--size is given twice"),
            ("stray", "unexpected argument 'stray'"),
            ("--opening h8,h8", "--opening move 2: h8 is taken"),
            ("--opening h8,zz", "--opening move 2: 'zz' is not a point"),
            (
                "--replay game.psq --size 19",
                "--size does not go with --replay",
            ),
        ];
        for (text, wanted) in cases {
            let why = parse(&args(text)).unwrap_err();
            assert!(why.contains(wanted), "{text}: {why}");
        }
        let why = parse(&args("--rule freestyle --opening")).unwrap_err();
        assert!(why.contains("needs a value"), "{why}");
        let five = vec![
            "--rule".into(),
            "freestyle".into(),
            "--opening".into(),
            "a1 b1 a2 b2 a3 b3 a4 b4 a5".into(),
        ];
        let why = parse(&five).unwrap_err();
        assert!(why.contains("move 9 (a5) ends the game"), "{why}");
    }
}
