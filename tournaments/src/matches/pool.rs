//! `quinto-match pool DIR...`: several runs of one match (other seeds, a run stopped and
//! another started) counted together from their `games.csv` files, as one run's summary
//! counts its games: by game, by opening pair, by colour, with the faults and, when asked,
//! the SPRT's log-likelihood ratio. A round pairs the two games of one opening within one
//! run only: the same round number in another run is another pair. Games that repeat an
//! earlier one move for move are counted and named: node-limited engines replay a game from
//! the same opening, so node-limited runs of one suite hold the same games whatever their
//! seeds, and pooling them adds games but no information.

use crate::matches::report::{pair_lines, sprt_line, PairTally, METHOD, SPRT_METHOD};
use crate::matches::stats::Sprt;
use quinto::game::Pos;
use quinto::record::Record;
use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

pub const USAGE: &str = "\
usage: quinto-match pool [--sprt elo0=E0,elo1=E1,alpha=A,beta=B] DIR...

Counts the games of several quinto-match output directories together (their games.csv)
and prints the pooled results of each pair of engines: W/D/L, Elo by game and by opening
pair (the two games of one round of one run), by colour, the games lost on faults, and
with --sprt the test's LLR over all the opening pairs. Games that repeat an earlier game
move for move (their .psq records compared) are counted and named: node-limited runs of
the same openings replay the same games whatever their seeds.";

/// One game as `games.csv` records it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Game {
    /// The game's number in its run: game 1 has the match's first engine as black.
    number: usize,
    round: usize,
    black: String,
    white: String,
    /// Black's half points: 2 a win, 1 a draw, 0 a loss.
    black_points: u8,
    /// The engine that lost on a fault (time, illegal move, crash…), if one did.
    fault_loser: Option<String>,
    /// The game's record, relative to the run's directory (older files have none).
    psq: Option<String>,
}

/// Runs `quinto-match pool` with its arguments (after `pool`): the report, or why not.
pub fn run(args: &[String]) -> Result<String, String> {
    let mut sprt = None;
    let mut dirs = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        i += 1;
        match arg {
            "-h" | "--help" => return Ok(format!("{USAGE}\n")),
            _ if arg.starts_with("--sprt=") => {
                sprt = Some(Sprt::parse(&arg["--sprt=".len()..])?);
            }
            "--sprt" => {
                let spec = args.get(i).ok_or("--sprt needs a value")?;
                i += 1;
                sprt = Some(Sprt::parse(spec)?);
            }
            _ if arg.starts_with('-') => return Err(format!("unknown option {arg}")),
            _ => dirs.push(PathBuf::from(arg)),
        }
    }
    if dirs.is_empty() {
        return Err("no match directory given".into());
    }
    let runs = dirs
        .iter()
        .map(|dir| read_games(dir).map(|games| (dir, games)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut s = String::from("quinto-match pool\n");
    for (dir, games) in &runs {
        s.push_str(&format!("  {}: {} games\n", dir.display(), games.len()));
    }
    let repeated = repeats(&runs);
    if repeated > 0 {
        s.push_str(&format!(
            "  WARNING: {repeated} games repeat an earlier game move for move, with the same \
             engines and colours: node-limited runs of the same openings replay their games, \
             so the results below count them again but learn nothing new from them; pool \
             node-limited runs only where their openings differ\n"
        ));
    }
    let runs: Vec<Vec<Game>> = runs.into_iter().map(|(_, games)| games).collect();
    let (names, pairs) = tally(&runs);
    s.push_str("\nPairs (W/D/L, score and Elo from the first engine's side):\n");
    for p in &pairs {
        s.push_str(&pair_lines(&names, p));
    }
    s.push_str("\nGames lost on a fault:");
    for name in &names {
        let faults = runs
            .iter()
            .flatten()
            .filter(|g| g.fault_loser.as_ref() == Some(name))
            .count();
        s.push_str(&format!(" {name} {faults}"));
    }
    s.push('\n');
    if let (Some(sprt), Some(p)) = (&sprt, pairs.first()) {
        s.push_str(&sprt_line(sprt, &names, p));
    }
    s.push_str(METHOD);
    if sprt.is_some() {
        s.push_str(SPRT_METHOD);
    }
    s.push('\n');
    Ok(s)
}

/// The engines in the order first met, and each pair's results pooled over the runs (a pair
/// from the side of the engine met first).
fn tally(runs: &[Vec<Game>]) -> (Vec<String>, Vec<PairTally>) {
    let mut names: Vec<String> = Vec::new();
    let mut pooled: Vec<PairTally> = Vec::new();
    for games in runs {
        let mut this_run: Vec<PairTally> = Vec::new();
        for g in games {
            let black = index_of(&mut names, &g.black);
            let white = index_of(&mut names, &g.white);
            let (a, b) = (black.min(white), black.max(white));
            let at = match this_run.iter().position(|p| (p.a, p.b) == (a, b)) {
                Some(at) => at,
                None => {
                    this_run.push(PairTally {
                        a,
                        b,
                        ..PairTally::default()
                    });
                    this_run.len() - 1
                }
            };
            this_run[at].record(g.round, black, g.black_points);
        }
        for p in this_run {
            match pooled.iter_mut().find(|q| (q.a, q.b) == (p.a, p.b)) {
                Some(q) => q.merge(&p),
                None => pooled.push(PairTally {
                    unpaired: Vec::new(),
                    ..p
                }),
            }
        }
    }
    (names, pooled)
}

/// How many games repeat an earlier one of any run move for move with the same engines and
/// colours (games whose record is missing or unreadable are not compared).
fn repeats(runs: &[(&PathBuf, Vec<Game>)]) -> usize {
    let mut seen: HashSet<(&str, &str, Vec<Pos>)> = HashSet::new();
    let mut repeated = 0;
    for (dir, games) in runs {
        for g in games {
            let record = g
                .psq
                .as_ref()
                .and_then(|psq| Record::read(&dir.join(psq)).ok());
            if let Some(record) = record {
                let moves = record.moves.iter().map(|&(pos, _)| pos).collect();
                if !seen.insert((g.black.as_str(), g.white.as_str(), moves)) {
                    repeated += 1;
                }
            }
        }
    }
    repeated
}

fn index_of(names: &mut Vec<String>, name: &str) -> usize {
    match names.iter().position(|n| n == name) {
        Some(i) => i,
        None => {
            names.push(name.to_string());
            names.len() - 1
        }
    }
}

/// The games of one run's `DIR/games.csv`.
fn read_games(dir: &Path) -> Result<Vec<Game>, String> {
    let path = dir.join("games.csv");
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_games(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn parse_games(text: &str) -> Result<Vec<Game>, String> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header = csv_fields(lines.next().ok_or("empty file")?);
    let column = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .ok_or(format!("no column '{name}'"))
    };
    let (number, round, black, white, result, fault_side) = (
        column("game")?,
        column("round")?,
        column("black")?,
        column("white")?,
        column("result")?,
        column("fault_side")?,
    );
    let psq = column("psq").ok();
    let mut games = lines
        .enumerate()
        .map(|(n, line)| {
            let fields = csv_fields(line);
            let field = |at: usize| {
                fields
                    .get(at)
                    .map(String::as_str)
                    .ok_or(format!("line {}: too few fields", n + 2))
            };
            let black_points = match field(result)? {
                "1-0" => 2,
                "0-1" => 0,
                "1/2-1/2" => 1,
                other => return Err(format!("line {}: result '{other}'", n + 2)),
            };
            let fault_loser = match field(fault_side)? {
                "black" => Some(field(black)?.to_string()),
                "white" => Some(field(white)?.to_string()),
                _ => None,
            };
            let number_at = |at: usize, what: &str| {
                field(at)?
                    .parse::<usize>()
                    .map_err(|_| format!("line {}: {what} is not a number", n + 2))
            };
            Ok(Game {
                number: number_at(number, "game")?,
                round: number_at(round, "round")?,
                black: field(black)?.to_string(),
                white: field(white)?.to_string(),
                black_points,
                fault_loser,
                psq: psq
                    .and_then(|at| fields.get(at))
                    .filter(|path| !path.is_empty())
                    .cloned(),
            })
        })
        .collect::<Result<Vec<Game>, String>>()?;
    // The file lists games as they ended; in the order they were played the engines are
    // met as the match named them, so a pair reads from its first engine's side.
    games.sort_by_key(|g| g.number);
    Ok(games)
}

/// The fields of one CSV line, `"…"` quoting (with `""` for a quote) undone.
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                if let Some(f) = fields.last_mut() {
                    f.push('"');
                }
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(String::new()),
            _ => {
                if let Some(f) = fields.last_mut() {
                    f.push(c);
                }
            }
        }
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str =
        "game,round,opening_line,opening,black,white,result,ending,fault_side,detail";

    fn csv(rows: &[&str]) -> String {
        let mut s = format!("{HEADER}\n");
        for r in rows {
            s.push_str(r);
            s.push('\n');
        }
        s
    }

    #[test]
    fn quoted_fields_keep_their_commas_and_quotes() {
        assert_eq!(
            csv_fields(r#"1,"a, b","say ""hi""",,x"#),
            vec!["1", "a, b", "say \"hi\"", "", "x"]
        );
    }

    #[test]
    fn rounds_pair_within_a_run_and_runs_add_up() {
        let one = parse_games(&csv(&[
            r#"1,1,3,h8,new,old,1-0,five,,"black made five with h9 (7,6)""#,
            "2,1,3,h8,old,new,1-0,five,,",
            "3,2,5,h8 i9,new,old,1/2-1/2,full,,",
        ]))
        .unwrap();
        let two = parse_games(&csv(&[
            "1,1,7,j10,new,old,0-1,five,,",
            "2,1,7,j10,old,new,0-1,time,black,\"old too slow\"",
        ]))
        .unwrap();
        assert_eq!(two[1].fault_loser.as_deref(), Some("old"));
        // Game 2 ended first, yet the pair reads from game 1's black: the match's first
        // engine.
        let late = parse_games(&csv(&[
            "2,1,3,h8,old,new,1-0,five,,",
            "1,1,3,h8,new,old,1-0,five,,",
        ]))
        .unwrap();
        assert_eq!(tally(&[late]).0, vec!["new", "old"]);
        let (names, pairs) = tally(&[one, two]);
        assert_eq!(names, vec!["new", "old"]);
        assert_eq!(pairs.len(), 1);
        let p = &pairs[0];
        assert_eq!((p.all.wins, p.all.draws, p.all.losses), (2, 1, 2));
        // Round 1 of each run is its own pair (1 point, then 1); round 2 of run one has
        // no partner and counts only by game.
        assert_eq!(p.penta.counts, [0, 0, 2, 0, 0]);
        assert_eq!((p.a_black.wins, p.a_white.wins), (1, 1));
    }

    #[test]
    fn the_sprt_line_gives_the_verdict_the_pooled_games_reach() {
        let won = "1,1,3,h8,new,old,1-0,five,,\n2,1,3,h8,old,new,0-1,five,,";
        let runs: Vec<Vec<Game>> = (0..40)
            .map(|_| parse_games(&csv(&[won])).unwrap())
            .collect();
        let (names, pairs) = tally(&runs);
        let sprt = Sprt::parse("elo0=0,elo1=20").unwrap();
        let line = sprt_line(&sprt, &names, &pairs[0]);
        assert!(line.contains("H1 accepted (new is stronger"), "{line}");
    }

    #[test]
    fn games_replayed_move_for_move_in_another_run_are_named() {
        let root = std::env::temp_dir().join(format!("quinto-pool-{}", std::process::id()));
        let psq = |moves: &str| format!("Piskvorky 15x15, 11:11, 0\n{moves}new\nold\n1-0\n");
        let write_run = |name: &str, second: &str| {
            let dir = root.join(name);
            fs::create_dir_all(dir.join("games")).unwrap();
            let rows = [
                "1,1,3,h8,new,old,1-0,five,,,games/1.psq",
                "2,1,3,h8,old,new,1-0,five,,,games/2.psq",
            ];
            let text = format!("{HEADER},psq\n{}\n", rows.join("\n"));
            fs::write(dir.join("games.csv"), text).unwrap();
            fs::write(dir.join("games/1.psq"), psq("8,8,0\n9,9,5\n")).unwrap();
            fs::write(dir.join("games/2.psq"), psq(second)).unwrap();
            dir
        };
        let first = write_run("a", "8,8,0\n7,7,5\n");
        // The same first game again (another seed, the same opening), another second game.
        let again = write_run("b", "8,8,0\n7,9,5\n");
        let arg = |dir: &PathBuf| dir.display().to_string();
        let report = run(&[arg(&first), arg(&again)]).unwrap();
        assert!(report.contains("WARNING: 1 games repeat"), "{report}");
        assert!(!run(&[arg(&first)]).unwrap().contains("WARNING"));
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        assert!(parse_games("").is_err());
        assert!(parse_games("game,round,black,white,result\n")
            .unwrap_err()
            .contains("fault_side"));
        let bad = parse_games(&csv(&["1,1,3,h8,a,b,2-0,five,,"])).unwrap_err();
        assert!(bad.contains("line 2"), "{bad}");
        assert!(read_games(Path::new("/nonexistent/quinto")).is_err());
    }

    #[test]
    fn the_command_line_is_checked() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(run(&args(&[])).is_err());
        assert!(run(&args(&["--bogus", "x"])).is_err());
        assert!(run(&args(&["--sprt"])).is_err());
        assert!(run(&args(&["--help"])).unwrap().starts_with("usage"));
    }
}
