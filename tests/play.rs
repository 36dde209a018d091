//! The terminal game driven by scripted input (no terminal): whole games under every rule,
//! the engine answering, undo/redo, every refusal, clocks, save/load and replay.

use quinto::game::{BoardSize, Rule};
use quinto::play::game::Game;
use quinto::play::{parse, play, replay, Parsed, Record, Screen, Summary};
use std::collections::VecDeque;
use std::io::{BufReader, Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A fresh directory for one test's records, removed when the test passes (kept for a look
/// when it fails).
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn records_dir() -> Scratch {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "play-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

fn options(flags: &[&str]) -> quinto::play::Options {
    let args: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
    match parse(&args) {
        Ok(Parsed::Play(options)) => options,
        other => panic!("{flags:?}: {other:?}"),
    }
}

const SCREEN: Screen = Screen {
    colour: false,
    interactive: false,
    pace: Duration::from_millis(0),
};

/// Plays `script` (one line per input line) with these flags; returns the transcript, what
/// the session left, and the records directory (alive as long as the caller keeps it).
fn run(flags: &[&str], script: &str) -> (String, Summary, Scratch) {
    run_with(flags, Box::new(Cursor::new(script.as_bytes().to_vec())))
}

fn run_with(flags: &[&str], input: Box<dyn std::io::BufRead + Send>) -> (String, Summary, Scratch) {
    let options = options(flags);
    let dir = records_dir();
    let records = options.records.clone().unwrap_or_else(|| dir.to_path_buf());
    let mut out = Vec::new();
    let summary = play(&options, &records, input, &mut out, SCREEN).unwrap();
    (String::from_utf8(out).unwrap(), summary, dir)
}

/// The moves of a record in renju notation.
fn moves(record: &Record) -> Vec<String> {
    record
        .moves
        .iter()
        .map(|&(p, _)| record.size.to_human(p))
        .collect()
}

fn lines(moves: &str) -> String {
    moves.split_whitespace().map(|m| format!("{m}\n")).collect()
}

/// Black makes five h8-l8 while white plays far away.
const BLACK_FIVE: &str = "h8 a1 i8 a3 j8 a5 k8 a7 l8";

#[test]
fn a_whole_game_to_a_win_under_every_rule() {
    for rule in ["freestyle", "standard", "renju", "caro", "caro-exact"] {
        let (out, summary, _dir) = run(
            &["--rule", rule, "--black", "human", "--white", "human"],
            &lines(BLACK_FIVE),
        );
        assert!(
            out.contains("game over, black wins: black made five h8-l8"),
            "{rule}:\n{out}"
        );
        // The winning line is drawn with stars, the last move in parentheses.
        assert!(
            out.contains(" 8 . . . . . . . * * * *(*). . .  8"),
            "{rule}:\n{out}"
        );
        assert_eq!(summary.saved.len(), 1, "{rule}");
        let saved = Record::read(&summary.saved[0]).unwrap();
        assert_eq!(moves(&saved).join(" "), BLACK_FIVE);
        assert_eq!(saved.result, "1-0 five: black made five h8-l8");
        assert_eq!(saved.rule.map(Rule::name), Some(rule));
        assert_eq!(
            (saved.black.as_str(), saved.white.as_str()),
            ("human", "human")
        );
        assert_eq!(summary.last, saved);
    }
}

#[test]
fn each_rule_judges_its_own_lines() {
    // Standard: six in a row is no win, the game goes on.
    let six = "h8 a1 i8 a3 j8 a5 k8 a7 m8 a9 l8";
    let (out, summary, _dir) = run(
        &["--rule", "standard", "--white", "human", "--black", "human"],
        &lines(six),
    );
    assert!(!out.contains("wins"), "{out}");
    assert_eq!(summary.last.moves.len(), 11);
    // Freestyle: six wins.
    let (out, _, _dir) = run(
        &[
            "--rule",
            "freestyle",
            "--white",
            "human",
            "--black",
            "human",
        ],
        &lines(six),
    );
    assert!(
        out.contains("black wins: black made a winning line h8-m8"),
        "{out}"
    );
    // Caro: a five blocked at both ends does not count; white makes one, then an open one.
    let caro = "g8 h8 m8 i8 a1 j8 a3 k8 a5 l8";
    let (out, _, _dir) = run(
        &["--rule", "caro", "--white", "human", "--black", "human"],
        &lines(caro),
    );
    assert!(!out.contains("wins"), "{out}");
    // White wins in renju with an overline (only black's is forbidden).
    let white_six = "a1 h8 a3 i8 a5 j8 a7 k8 a9 m8 a11 l8";
    let (out, _, _dir) = run(&["--black", "human", "--white", "human"], &lines(white_six));
    assert!(
        out.contains("white wins: white made a winning line h8-m8"),
        "{out}"
    );
}

/// Every point of a 15×15 board, spiralling out from the centre.
fn spiral() -> Vec<String> {
    let size = BoardSize::square(15).unwrap();
    let mut points: Vec<(i32, i32)> = (0..15).flat_map(|x| (0..15).map(move |y| (x, y))).collect();
    points.sort_by_key(|&(x, y)| ((x - 7).abs().max((y - 7).abs()), x, y));
    points
        .into_iter()
        .map(|(x, y)| size.to_human(quinto::game::Pos::new(x as usize, y as usize)))
        .collect()
}

#[test]
fn the_engine_answers_every_move_legally_until_the_end() {
    // The engine plays black in renju (it must avoid its forbidden points); the person's
    // script tries every point in turn, refusals included.
    let script = spiral().join("\n") + "\n";
    let (out, summary, _dir) = run(&["--black", "engine", "--level", "beginner"], &script);
    assert!(out.contains("black (quinto) plays "), "{out}");
    assert!(out.contains("game over, "), "{out}");
    assert!(out.contains("h8 is taken: choose an empty point"), "{out}");
    let record = Record::read(&summary.saved[0]).unwrap();
    // Replayed through the referee: every move legal, and the game over at the end.
    let game = Game::from_record(&record, Rule::Renju).unwrap();
    assert!(game.is_over(), "{out}");
    assert_eq!(record.black, "quinto-beginner");
    assert_eq!(record.white, "human");
}

#[test]
fn engine_against_engine_plays_a_whole_game() {
    let (out, summary, _dir) = run(
        &[
            "--black",
            "engine",
            "--white",
            "engine",
            "--level",
            "beginner",
            "--rule",
            "freestyle",
        ],
        "",
    );
    assert!(out.contains("black (quinto) plays"), "{out}");
    assert!(out.contains("white (quinto) plays"), "{out}");
    assert!(out.contains("game over, "), "{out}");
    let record = Record::read(&summary.saved[0]).unwrap();
    assert!(Game::from_record(&record, Rule::Freestyle)
        .unwrap()
        .is_over());
    // Commands that need a person say so.
    let (out, _, _dir) = run(
        &[
            "--black", "engine", "--white", "engine", "--level", "beginner",
        ],
        "undo\nswap\nresign\n",
    );
    assert!(out.contains("undo takes back a person's move"), "{out}");
    assert!(out.contains("swap changes sides with the engine"), "{out}");
}

#[test]
fn undo_and_redo() {
    let people = ["--black", "human", "--white", "human"];
    let (out, summary, _dir) = run(&people, "h8\nh9\ni9\nundo\nundo\nredo\n");
    assert!(out.contains("took back i9"), "{out}");
    assert!(out.contains("played again h9"), "{out}");
    assert_eq!(moves(&summary.last), ["h8", "h9"]);
    let (out, _, _dir) = run(&people, "undo\nredo\n");
    assert!(out.contains("nothing to undo"), "{out}");
    assert!(out.contains("nothing to redo"), "{out}");
    // Against the engine, undo takes back the reply too, and redo plays both again.
    let engine = ["--level", "beginner"];
    let (out, summary, _dir) = run(&engine, "h8\nundo\n");
    assert!(out.contains("took back"), "{out}");
    assert!(summary.last.moves.is_empty(), "{out}");
    let (_, summary, _dir) = run(&engine, "h8\nundo\nredo\n");
    assert_eq!(summary.last.moves.len(), 2);
    // A five can be taken back; a resignation cannot.
    let (out, summary, _dir) = run(&people, &(lines(BLACK_FIVE) + "undo\nl7\nresign\nundo\n"));
    assert!(out.contains("took back l8"), "{out}");
    assert!(
        out.contains("game over, black wins: white resigned"),
        "{out}"
    );
    assert!(
        out.contains("the game is over (black wins: white resigned): type new"),
        "{out}"
    );
    assert_eq!(summary.saved.len(), 2, "the five, then the resignation");
}

/// Black to move in renju with a double three at j8, a double four at k8 after other
/// stones, and so on: each set-up ends with black to move.
const DOUBLE_THREE: &str = "h8 a1 i8 c1 j9 e1 j10 g1";
const DOUBLE_FOUR: &str = "h8 a1 i8 c1 j8 e1 k9 g1 k10 a15 k11 c15";
const OVERLINE: &str = "h8 a1 i8 c1 j8 e1 l8 g1 m8 a15";

#[test]
fn every_refusal_is_one_line_and_changes_nothing() {
    let people = ["--black", "human", "--white", "human"];
    let cases: [(&str, &str, &str); 14] = [
        ("", "h99", "'h99' is off the 15x15 board"),
        ("", "h100", "'h100' is not a point like h8"),
        ("", "8h8", "'8h8' is not a point like h8"),
        ("", "p1", "'p1' is off the 15x15 board"),
        ("", "a16", "'a16' is off the 15x15 board"),
        ("", "castle", "'castle' is not a move or a command"),
        ("", "h8 h9", "one move at a time"),
        ("", "undo please", "undo takes nothing after it"),
        ("h8", "h8", "h8 is taken: choose an empty point"),
        (
            DOUBLE_THREE,
            "j8",
            "j8 is forbidden for black in renju: double three",
        ),
        (
            DOUBLE_FOUR,
            "k8",
            "k8 is forbidden for black in renju: double four",
        ),
        (
            OVERLINE,
            "k8",
            "k8 is forbidden for black in renju: overline",
        ),
        ("", "load", "load needs a file: load FILE"),
        ("", "swap", "swap changes sides with the engine"),
    ];
    for (setup, bad, wanted) in cases {
        let (out, summary, _dir) = run(&people, &(lines(setup) + bad + "\n"));
        let marker = format!("> {bad}\n");
        let at = out.rfind(&marker).unwrap_or_else(|| panic!("{out}"));
        let after = &out[at + marker.len()..];
        let mut reply = after.lines();
        let first = reply.next().unwrap();
        assert!(first.contains(wanted), "{bad}: {first}");
        // Then the prompt again, nothing else.
        assert!(
            reply.next().map_or(true, |l| l.ends_with("> ")),
            "{bad}: {after}"
        );
        assert_eq!(moves(&summary.last).join(" "), setup, "{bad}");
    }
    // The forbidden points are marked on the board while black is to move.
    let (out, _, _dir) = run(&people, &lines(DOUBLE_THREE));
    assert!(out.contains("# forbidden for black"), "{out}");
    assert!(out.contains(" 8 . . . . . . . X X # . . . . .  8"), "{out}");
    // After the end, moves are refused.
    let (out, _, _dir) = run(&people, &(lines(BLACK_FIVE) + "a9\n"));
    assert!(
        out.contains(
            "the game is over (black wins: black made five h8-l8): type undo, new, save or quit"
        ),
        "{out}"
    );
}

#[test]
fn save_then_load_gives_the_same_position() {
    let dir = records_dir();
    let file = dir.join("saved.psq");
    let file = file.to_str().unwrap();
    let people = ["--black", "human", "--white", "human", "--rule", "caro"];
    let (out, summary, _dir) = run(
        &people,
        &format!("h8\nh9\ni9\nsave {file}\nnew\nload {file}\n"),
    );
    assert!(out.contains(&format!("saved to {file}")), "{out}");
    assert!(
        out.contains(&format!("loaded {file}: 3 moves on 15x15")),
        "{out}"
    );
    assert_eq!(moves(&summary.last), ["h8", "h9", "i9"]);
    assert_eq!(summary.last.rule, Some(Rule::Caro));
    // A record names its rule; loading it into a renju session switches rule.
    let (out, summary, _dir) = run(
        &["--black", "human", "--white", "human"],
        &format!("load {file}\nj10\n"),
    );
    assert!(
        out.contains("the rule is now caro (from the record)"),
        "{out}"
    );
    assert_eq!(moves(&summary.last), ["h8", "h9", "i9", "j10"]);
    // `save` with no file writes a new record in the records directory.
    let records = dir.join("records");
    let (out, summary, _dir) = run(
        &[
            "--black",
            "human",
            "--white",
            "human",
            "--records",
            records.to_str().unwrap(),
        ],
        "h8\nsave\n",
    );
    assert!(out.contains("saved to "), "{out}");
    assert!(summary.saved[0].starts_with(&records));
    assert_eq!(
        Record::read(&summary.saved[0]).unwrap().result,
        "* unfinished: white to move"
    );
}

#[test]
fn damaged_or_foreign_files_are_refused_with_a_reason() {
    let dir = records_dir();
    let cases = [
        ("garbage.psq", b"\x00\x01\xfe\xff binary".to_vec(), "it is not text"),
        ("notes.psq", b"shopping list\neggs\n".to_vec(), "Piskvork header"),
        ("off.psq", b"Piskvorky 15x15, 11:11, 0\n8,8,0\n99,1,0\n".to_vec(), "off the 15x15 board"),
        ("twice.psq", b"Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,0\n".to_vec(), "already taken"),
        // A legal record on its own, but not under renju: black's double three.
        (
            "foul.psq",
            b"Piskvorky 15x15, 11:11, 0\n8,8,0\n1,1,0\n9,8,0\n3,1,0\n10,7,0\n5,1,0\n10,6,0\n7,1,0\n10,8,0\n".to_vec(),
            "move 9 (j8): j8 is forbidden for black in renju: double three",
        ),
    ];
    for (name, bytes, wanted) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let (out, summary, _dir) = run(
            &["--black", "human", "--white", "human"],
            &format!("h8\nload {}\n", path.display()),
        );
        assert!(out.contains(wanted), "{name}: {out}");
        assert_eq!(moves(&summary.last), ["h8"], "{name}");
    }
    let (out, _, _dir) = run(
        &["--black", "human", "--white", "human"],
        "load /no/such/file.psq\n",
    );
    assert!(out.contains("cannot read /no/such/file.psq"), "{out}");
}

#[test]
fn replay_steps_forwards_and_backwards() {
    let (_, summary, _dir) = run(
        &["--black", "human", "--white", "human"],
        &lines(BLACK_FIVE),
    );
    let record = Record::read(&summary.saved[0]).unwrap();
    let mut out = Vec::new();
    let mut input = Cursor::new(
        b"n\n\nb\nend\nstart\n3\nb\nback\nback\nback\n99\nnumbers\nend\nn\nfly\nquit\nn\n".to_vec(),
    );
    replay(&record, None, &mut input, &mut out, false, true).unwrap();
    let out = String::from_utf8(out).unwrap();
    let statuses: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("move ") || l.starts_with("start") || l.starts_with("end of"))
        .collect();
    assert_eq!(
        statuses,
        [
            "start: the empty board (9 moves follow)",
            "move 1 of 9: black h8 (0.0 s)",
            "move 2 of 9: white a1 (0.0 s)",
            "move 1 of 9: black h8 (0.0 s)",
            "move 9 of 9: black l8 (0.0 s)",
            "end of the game: 1-0 five: black made five h8-l8",
            "start: the empty board (9 moves follow)",
            "move 3 of 9: black i8 (0.0 s)",
            "move 2 of 9: white a1 (0.0 s)",
            "move 1 of 9: black h8 (0.0 s)",
            "start: the empty board (9 moves follow)",
            "start: the empty board (9 moves follow)",
            "start: the empty board (9 moves follow)",
            "start: the empty board (9 moves follow)",
            "move 9 of 9: black l8 (0.0 s)",
            "end of the game: 1-0 five: black made five h8-l8",
            "move 9 of 9: black l8 (0.0 s)",
            "end of the game: 1-0 five: black made five h8-l8",
            "move 9 of 9: black l8 (0.0 s)",
            "end of the game: 1-0 five: black made five h8-l8",
        ]
    );
    assert!(
        out.contains("this is the start: next, end or quit"),
        "{out}"
    );
    assert!(out.contains("the record has 9 moves"), "{out}");
    assert!(out.contains("that was the last move"), "{out}");
    assert!(out.contains("'fly' is not a replay command"), "{out}");
    // The final position shows the winning line, with numbers when asked.
    assert!(out.contains(" 8 . . . . . . . 1 3 5 7(9). . .  8"), "{out}");
}

/// Input that arrives over time, like a person typing.
struct Typist {
    lines: VecDeque<(Duration, String)>,
    pending: Vec<u8>,
}

impl Read for Typist {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() {
            match self.lines.pop_front() {
                Some((delay, line)) => {
                    std::thread::sleep(delay);
                    self.pending = format!("{line}\n").into_bytes();
                }
                None => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

fn typist(lines: &[(u64, &str)]) -> Box<dyn std::io::BufRead + Send> {
    Box::new(BufReader::new(Typist {
        lines: lines
            .iter()
            .map(|&(ms, l)| (Duration::from_millis(ms), l.to_string()))
            .collect(),
        pending: Vec::new(),
    }))
}

#[test]
fn a_player_who_runs_out_of_time_loses() {
    // 0.01 minutes each: white is still thinking after 2 s.
    let (out, summary, _dir) = run_with(
        &["--black", "human", "--white", "human", "--clock", "0.01"],
        typist(&[(0, "h8"), (2_000, "h9")]),
    );
    assert!(
        out.contains("game over, black wins: white ran out of time"),
        "{out}"
    );
    assert!(
        out.contains("the game is over (black wins: white ran out of time)"),
        "{out}"
    );
    assert_eq!(moves(&summary.last), ["h8"]);
    assert_eq!(summary.last.result, "1-0 timeout: white ran out of time");
    assert!(out.contains("clocks black 0:00."), "{out}");
}

#[test]
fn quit_stops_a_long_search_at_once() {
    // At a terminal, quit acts while the engine thinks (from a script it would wait).
    let started = Instant::now();
    let options = options(&["--time", "60"]);
    let input = Box::new(Cursor::new(b"h8\nquit\n".to_vec()));
    let mut out = Vec::new();
    let screen = Screen {
        interactive: true,
        ..SCREEN
    };
    let summary = play(&options, &records_dir(), input, &mut out, screen).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    assert!(out.contains("white (quinto) is thinking..."), "{out}");
    assert!(!out.contains("white (quinto) plays"), "{out}");
    assert_eq!(moves(&summary.last), ["h8"]);
}

#[test]
fn hint_think_swap_numbers_and_the_opening() {
    let (out, summary, _dir) = run(
        &["--level", "beginner", "--opening", "h8 h9 i9"],
        "think\nswap\nthink\nhint\nnumbers\n",
    );
    // The opening leaves white to move: the person (black by default) waits, then swaps.
    assert!(
        out.contains("renju 15x15, move 4: white (quinto) to move"),
        "{out}"
    );
    assert!(
        out.contains("black (quinto) plays") || out.contains("white (quinto) plays"),
        "{out}"
    );
    assert!(out.contains("you now play"), "{out}");
    assert!(out.contains("quinto's search for"), "{out}");
    assert!(out.contains("hint for "), "{out}");
    assert!(
        out.contains("odd numbers black, even numbers white"),
        "{out}"
    );
    assert!(out.contains(" 9 . . . . . . . 2 3"), "{out}");
    assert_eq!(moves(&summary.last)[..3], ["h8", "h9", "i9"]);
    // Before any search there is nothing to show.
    let (out, _, _dir) = run(
        &["--black", "human", "--white", "human"],
        "think\nhint\nthink\nhelp\n",
    );
    assert!(out.contains("no analysis yet"), "{out}");
    assert!(out.contains("hint for black: "), "{out}");
    assert!(
        out.contains("hint search for black (finished): depth"),
        "{out}"
    );
    assert!(
        out.contains("Commands:\n  h8 or 8h     play there"),
        "{out}"
    );
}
