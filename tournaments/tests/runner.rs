//! The match runner against tiny misbehaving engines (`fake-engine`): every failure is
//! adjudicated against the side at fault, the match goes on, and the files are written.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const RUNNER: &str = env!("CARGO_BIN_EXE_quinto-match");
const FAKE: &str = env!("CARGO_BIN_EXE_fake-engine");

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quinto-match-test-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn engine(name: &str, behaviour: &str) -> String {
    format!("name={name},cmd={FAKE},arg={behaviour}")
}

struct Run {
    out: PathBuf,
    output: Output,
}

/// The scratch directory goes when the test passes; a failing test leaves it to look at.
impl Drop for Run {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            if let Some(dir) = self.out.parent() {
                let _ = fs::remove_dir_all(dir);
            }
        }
    }
}

impl Run {
    fn summary(&self) -> String {
        fs::read_to_string(self.out.join("summary.txt")).unwrap_or_default()
    }

    /// games.csv as rows of fields (a field with a quoted comma is not split).
    fn games(&self) -> Vec<Vec<String>> {
        let text = fs::read_to_string(self.out.join("games.csv")).unwrap_or_default();
        text.lines().skip(1).map(split_csv).collect()
    }

    fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }

    fn code(&self) -> Option<i32> {
        self.output.status.code()
    }

    /// The column `name` of every game.
    fn column(&self, name: &str) -> Vec<String> {
        let header = fs::read_to_string(self.out.join("games.csv")).unwrap();
        let i = header
            .lines()
            .next()
            .unwrap()
            .split(',')
            .position(|c| c == name)
            .unwrap_or_else(|| panic!("no column {name}"));
        self.games().into_iter().map(|row| row[i].clone()).collect()
    }
}

fn split_csv(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().unwrap().push('"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(String::new()),
            _ => fields.last_mut().unwrap().push(c),
        }
    }
    fields
}

/// Runs a match of the given engines (`--engine` specs) with extra options.
fn run_match(test: &str, engines: &[String], extra: &[&str]) -> Run {
    let dir = scratch(test);
    let out = dir.join("out");
    let mut cmd = Command::new(RUNNER);
    for e in engines {
        cmd.arg("--engine").arg(e);
    }
    cmd.args(extra).arg("--out").arg(&out);
    let output = cmd.output().expect("runs quinto-match");
    Run { out, output }
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, text).unwrap();
    path
}

#[test]
fn legal_engines_play_out_and_every_record_is_written() {
    let run = run_match(
        "legal",
        &[engine("first", "legal"), engine("second", "message")],
        &["--games", "2", "--turn-ms", "2000"],
    );
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    // First-empty-point players fill the board row by row: on 15×15 that is a
    // checkerboard, and black completes an anti-diagonal five at (0,4), move 61.
    assert_eq!(run.column("result"), vec!["1-0", "1-0"]);
    assert_eq!(run.column("ending"), vec!["five", "five"]);
    assert_eq!(run.column("moves"), vec!["61", "61"]);
    let summary = run.summary();
    assert!(
        summary.contains("first vs second: 2 games, +1 =0 -1"),
        "{summary}"
    );
    assert!(summary.contains("total failures: 0"), "{summary}");
    assert!(summary.contains("Elo +0.0"), "{summary}");
    // stdout carries the same summary.
    assert_eq!(String::from_utf8_lossy(&run.output.stdout), summary);

    let psq = fs::read_to_string(run.out.join("games/game-0001.psq")).unwrap();
    let lines: Vec<&str> = psq.lines().collect();
    assert_eq!(lines[0], "Piskvorky 15x15, 11:11, 0");
    assert!(lines[1].starts_with("1,1,"), "{psq}");
    assert!(lines[2].starts_with("2,1,"), "{psq}");
    assert_eq!(lines.len(), 1 + 61 + 4);
    assert_eq!(lines[62], "first");
    assert_eq!(lines[63], "second");
    assert_eq!(lines[64], "1-0 five: black made five with a11 (0,4)");
    assert_eq!(lines[65], "rule freestyle");
    // The conversation of game 1, as the engine with black saw it.
    let io = fs::read_to_string(run.out.join("logs/game-0001-black-first.io")).unwrap();
    for expected in [
        "> START 15",
        "< OK",
        "> INFO timeout_turn 2000",
        "> INFO timeout_match 0",
        "> INFO max_memory 0",
        "> INFO rule 0",
        "> INFO time_left 2147483647",
        "> BEGIN",
        "< 0,0",
        "> TURN 1,0",
        "> END",
    ] {
        assert!(io.contains(expected), "missing {expected:?} in\n{io}");
    }
    let white = fs::read_to_string(run.out.join("logs/game-0001-white-second.io")).unwrap();
    assert!(white.contains("> TURN 0,0"), "{white}");
    assert!(!white.contains("BEGIN"), "{white}");
}

#[test]
fn a_silent_engine_loses_on_time() {
    let run = run_match(
        "timeout",
        &[engine("sleeper", "timeout:1"), engine("legal", "legal")],
        &["--games", "2", "--turn-ms", "100", "--tolerance-ms", "150"],
    );
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    assert_eq!(run.column("ending"), vec!["timeout", "timeout"]);
    assert_eq!(run.column("result"), vec!["0-1", "1-0"]);
    assert_eq!(run.column("fault_side"), vec!["black", "white"]);
    let detail = run.column("detail");
    assert!(detail[0].contains("no move within 250 ms"), "{detail:?}");
    assert!(run
        .summary()
        .contains("sleeper vs legal: 2 games, +0 =0 -2"));
}

#[test]
fn time_left_runs_out_over_a_game() {
    // 300 ms a move against a 700 ms game: the third move at the latest is too late.
    let run = run_match(
        "match-time",
        &[engine("slow", "slow:300"), engine("legal", "legal")],
        &[
            "--games",
            "2",
            "--turn-ms",
            "1000",
            "--match-ms",
            "700",
            "--tolerance-ms",
            "100",
        ],
    );
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    assert_eq!(run.column("ending"), vec!["timeout", "timeout"]);
    assert_eq!(run.column("result"), vec!["0-1", "1-0"]);
    let io = fs::read_to_string(run.out.join("logs/game-0001-black-slow.io")).unwrap();
    assert!(io.contains("> INFO timeout_match 700"), "{io}");
    assert!(io.contains("> INFO time_left 700"), "{io}");
}

#[test]
fn a_crash_loses_and_the_match_goes_on() {
    let run = run_match(
        "crash",
        &[engine("crasher", "crash:2"), engine("legal", "legal")],
        &["--games", "4", "--concurrency", "2"],
    );
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    assert_eq!(run.games().len(), 4);
    assert!(run.column("ending").iter().all(|e| e == "crash"));
    assert!(run
        .column("detail")
        .iter()
        .all(|d| d.contains("exit code 3")));
    let summary = run.summary();
    assert!(
        summary.contains("crasher vs legal: 4 games, +0 =0 -4"),
        "{summary}"
    );
    assert!(summary.contains("total failures: 4"), "{summary}");
    for n in 1..=4 {
        assert!(run.out.join(format!("games/game-000{n}.psq")).exists());
    }
}

#[test]
fn occupied_and_off_board_moves_are_illegal() {
    for (behaviour, why) in [
        ("occupied", "point occupied"),
        ("offboard", "off the board"),
    ] {
        let run = run_match(
            behaviour,
            &[engine("bad", behaviour), engine("legal", "legal")],
            &["--games", "2"],
        );
        assert_eq!(run.code(), Some(0), "{}", run.stderr());
        assert_eq!(
            run.column("ending"),
            vec!["illegal", "illegal"],
            "{behaviour}"
        );
        assert_eq!(run.column("result"), vec!["0-1", "1-0"], "{behaviour}");
        assert!(
            run.column("detail").iter().all(|d| d.contains(why)),
            "{behaviour}"
        );
        assert!(run.summary().contains("total failures: 2"));
    }
}

#[test]
fn a_forbidden_renju_move_loses_for_black() {
    let dir = scratch("forbidden-openings");
    // Black f8 g8 and h6 h7, white far away, black to move: h8 is a double three.
    let openings = write(&dir, "o.txt", "# one opening\nf8 a1 g8 a3 h6 a5 h7 o15\n");
    let run = run_match(
        "forbidden",
        &[engine("fouler", "forbidden"), engine("legal", "legal")],
        &[
            "--rule",
            "4",
            "--games",
            "2",
            "--openings",
            openings.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    let endings = run.column("ending");
    assert_eq!(endings[0], "forbidden");
    assert_eq!(run.column("fault_side")[0], "black");
    assert!(
        run.column("detail")[0].contains("double three"),
        "{:?}",
        run.column("detail")
    );
    // With colours swapped the fouler is white, which has no forbidden points.
    assert_ne!(endings[1], "forbidden");
    assert_eq!(run.column("opening")[0], "f8 a1 g8 a3 h6 a5 h7 o15");
    assert_eq!(run.column("opening_line")[0], "2");
    // The engine to move got the position with BOARD, in move order, 1 = own stones.
    let io = fs::read_to_string(run.out.join("logs/game-0001-black-fouler.io")).unwrap();
    assert!(
        io.contains("> BOARD") && io.contains("> 5,7,1") && io.contains("> 0,14,2"),
        "{io}"
    );
    let psq = fs::read_to_string(run.out.join("games/game-0001.psq")).unwrap();
    assert!(
        psq.starts_with("Piskvorky 15x15, 11:11, 0\n6,8,0\n1,15,0\n"),
        "{psq}"
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn output_a_strict_manager_rejects_loses() {
    for (behaviour, what) in [
        ("garbage", "'hello there' instead of a move"),
        ("error", "'ERROR cannot move' instead of a move"),
        ("stray-ok", "'OK' instead of a move"),
    ] {
        let run = run_match(
            behaviour,
            &[engine("chatty", behaviour), engine("legal", "legal")],
            &["--games", "2"],
        );
        assert_eq!(run.code(), Some(0), "{}", run.stderr());
        assert_eq!(
            run.column("ending"),
            vec!["bad-output", "bad-output"],
            "{behaviour}"
        );
        assert!(
            run.column("detail").iter().all(|d| d.contains(what)),
            "{behaviour}: {:?}",
            run.column("detail")
        );
    }
}

#[test]
fn lenient_mode_ignores_stray_lines() {
    let run = run_match(
        "lenient",
        &[engine("chatty", "stray-ok"), engine("legal", "legal")],
        &["--games", "2", "--lenient"],
    );
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    assert_eq!(run.column("ending"), vec!["five", "five"]);
    assert!(
        run.summary().contains("stray lines ignored"),
        "{}",
        run.summary()
    );
}

#[test]
fn memory_over_the_limit_loses() {
    let run = run_match(
        "memory",
        &[engine("hog", "memory:96"), engine("legal", "legal")],
        &[
            "--games",
            "2",
            "--max-memory",
            "48M",
            "--memory-kind",
            "rss",
        ],
    );
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    if cfg!(target_os = "linux") {
        assert_eq!(run.column("ending"), vec!["memory", "memory"]);
        assert_eq!(run.column("fault_side"), vec!["black", "white"]);
        let rss: u64 = run.column("black_peak_rss")[0].parse().unwrap();
        assert!(rss > 96 << 20, "{rss}");
        let io = fs::read_to_string(run.out.join("logs/game-0001-black-hog.io")).unwrap();
        assert!(io.contains("> INFO max_memory 50331648"), "{io}");
    }
}

#[test]
fn a_gauntlet_pairs_the_first_engine_with_each_other() {
    let run = run_match(
        "gauntlet",
        &[
            engine("head", "legal"),
            engine("crasher", "crash"),
            engine("liar", "garbage"),
        ],
        &["--gauntlet", "--games", "2"],
    );
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    assert_eq!(run.games().len(), 4);
    let summary = run.summary();
    assert!(
        summary.contains("head vs crasher: 2 games, +2 =0 -0"),
        "{summary}"
    );
    assert!(
        summary.contains("head vs liar: 2 games, +2 =0 -0"),
        "{summary}"
    );
    assert!(!summary.contains("crasher vs liar"), "{summary}");
}

#[test]
fn sprt_stops_the_match_when_decided() {
    // Two equal engines (each wins with black) against H0 = +200 Elo: rejected quickly.
    let run = run_match(
        "sprt",
        &[engine("a", "legal"), engine("b", "legal")],
        &[
            "--games",
            "60",
            "--sprt",
            "elo0=200,elo1=400,alpha=0.2,beta=0.2",
        ],
    );
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    let games = run.games().len();
    assert!(games < 20, "{games} games");
    let summary = run.summary();
    assert!(summary.contains("H0 accepted"), "{summary}");
    assert!(summary.contains("bounds [-1.39, 1.39]"), "{summary}");
}

#[test]
fn an_engine_that_never_answers_start_stops_the_match() {
    let run = run_match(
        "no-start",
        &[engine("mute", "no-start"), engine("legal", "legal")],
        &["--start-ms", "300"],
    );
    assert_eq!(run.code(), Some(1));
    let err = run.stderr();
    assert!(
        err.contains("engine mute")
            && err.contains("did not answer 'START 15' with OK within 300 ms"),
        "{err}"
    );
    let run = run_match(
        "start-exit",
        &[engine("quitter", "start-exit"), engine("legal", "legal")],
        &[],
    );
    assert_eq!(run.code(), Some(1));
    assert!(
        run.stderr().contains("exited before answering"),
        "{}",
        run.stderr()
    );
}

#[test]
fn usage_errors_exit_with_2() {
    let dir = scratch("usage");
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec![], "usage: quinto-match"),
        (
            vec![
                "--engine".into(),
                "name=a,cmd=/no/such/pbrain".into(),
                "--out".into(),
                out.into(),
            ],
            "no such file",
        ),
        (
            vec![
                "--engine".into(),
                engine("a", "legal"),
                "--engine".into(),
                engine("b", "legal"),
                "--rule".into(),
                "2".into(),
                "--out".into(),
                out.into(),
            ],
            "--rule 2",
        ),
        (
            vec![
                "--engine".into(),
                engine("a", "legal"),
                "--engine".into(),
                engine("b", "legal"),
                "--openings".into(),
                "/no/such/openings.txt".into(),
                "--out".into(),
                out.into(),
            ],
            "cannot read openings",
        ),
    ];
    for (args, want) in cases {
        let output = Command::new(RUNNER).args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    let help = Command::new(RUNNER).arg("--help").output().unwrap();
    assert_eq!(help.status.code(), Some(0));
    let text = String::from_utf8_lossy(&help.stdout);
    for option in [
        "--engine",
        "--gauntlet",
        "--rule",
        "--size",
        "--openings",
        "--games",
        "--turn-ms",
        "--match-ms",
        "--tolerance-ms",
        "--max-memory",
        "--max-nodes",
        "--max-depth",
        "--concurrency",
        "--sprt",
        "--seed",
        "--random-openings",
        "--out",
    ] {
        assert!(text.contains(option), "--help lacks {option}");
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn an_old_match_directory_is_not_overwritten() {
    let first = run_match(
        "reuse",
        &[engine("a", "legal"), engine("b", "legal")],
        &["--games", "2"],
    );
    assert_eq!(first.code(), Some(0), "{}", first.stderr());
    let again = Command::new(RUNNER)
        .args([
            "--engine",
            &engine("a", "legal"),
            "--engine",
            &engine("b", "legal"),
        ])
        .arg("--out")
        .arg(&first.out)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("already holds a match"));
}

#[test]
fn the_opening_suites_are_legal_and_large_enough() {
    use quinto::game::{BoardSize, Rule};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings");
    for (file, rule, size) in [
        ("freestyle-15.txt", Rule::Freestyle, 15),
        ("freestyle-20.txt", Rule::Freestyle, 20),
        ("standard-15.txt", Rule::Standard, 15),
        ("renju-15.txt", Rule::Renju, 15),
        ("caro-15.txt", Rule::Caro, 15),
        ("freestyle-15-1000.txt", Rule::Freestyle, 15),
        ("freestyle-20-941.txt", Rule::Freestyle, 20),
        ("freestyle-15-341.txt", Rule::Freestyle, 15),
        ("freestyle-20-407.txt", Rule::Freestyle, 20),
        ("renju-15-1000.txt", Rule::Renju, 15),
    ] {
        let size = BoardSize::square(size).unwrap();
        let openings = quinto_match::openings::read_file(&dir.join(file), size, rule)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(openings.len() >= 30, "{file}: {} openings", openings.len());
        // No two openings are mirror images of each other.
        let mut keys: Vec<_> = openings
            .iter()
            .map(|o| quinto_match::suite::canonical_key(&o.moves, size))
            .collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), openings.len(), "{file}: duplicates");
    }
}

/// The even freestyle suites keep only openings their brain judged within ±30 for the side
/// to move (the older ones kept up to ±150, and black won most of their games on 20×20).
#[test]
fn the_even_suites_hold_only_openings_judged_near_zero() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings");
    for file in ["freestyle-15-341.txt", "freestyle-20-407.txt"] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let scores: Vec<i32> = text
            .lines()
            .filter(|line| !line.starts_with('#'))
            .filter_map(|line| line.split("# ev ").nth(1))
            .map(|rest| rest.split_whitespace().next().unwrap().parse().unwrap())
            .collect();
        assert!(scores.len() >= 300, "{file}: {} openings", scores.len());
        assert!(scores.iter().all(|s| s.abs() <= 30), "{file}: beyond ±30");
        let mean = scores.iter().sum::<i32>() as f64 / scores.len() as f64;
        assert!(mean.abs() < 10.0, "{file}: mean {mean}");
    }
}

#[test]
fn a_teacher_judges_every_nth_quiet_position_of_a_replayed_record() {
    let selfplay = env!("CARGO_BIN_EXE_quinto-selfplay");
    let dir = scratch("teacher");
    fs::create_dir_all(dir.join("games")).unwrap();
    // Black makes five on row 8 (1-based); white builds a four on row 10 meanwhile.
    let moves = "8,8\n8,10\n9,8\n9,10\n10,8\n10,10\n11,8\n11,10\n12,8\n";
    let record = format!("Piskvorky 15x15, 11:11, 0\n{moves}a\nb\n1-0 five\nrule freestyle\n");
    write(&dir.join("games"), "game.psq", &record);
    let out = dir.join("data.txt");
    let output = Command::new(selfplay)
        .args(["--replay"])
        .arg(dir.join("games"))
        .args(["--teacher", &engine("judge", "judge"), "--every", "2"])
        .args(["--seed", "7", "--out"])
        .arg(&out)
        .output()
        .expect("runs quinto-selfplay");
    assert!(output.status.success(), "{output:?}");
    // Quiet positions from the fourth stone: 4, 5 and 6 stones (at 7 and 8 a five point
    // stands). Every second is judged, 4 and 6: the fake's 10 × stones, ×150/200.
    let expected = "7\t0\t0\t15\t1\t7,7\t7,9\t8,7\t8,9\t9,7/30/0,0\t9,9\t10,7/45/0,0\t10,9\t11,7\n";
    assert_eq!(fs::read_to_string(&out).unwrap(), expected);
    // Without --replay a teacher has nothing to judge.
    let refused = Command::new(selfplay)
        .args(["--teacher", &engine("judge", "judge"), "--out"])
        .arg(&out)
        .output()
        .expect("runs quinto-selfplay");
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    fs::remove_dir_all(&dir).unwrap();
}
