//! `pbrain-quinto play` as a program: under a pseudo-terminal (util-linux `script`), its
//! flags and exit codes, and `--replay`.

mod common;

use common::run_with_input;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const BINARY: &str = env!("CARGO_BIN_EXE_pbrain-quinto");

/// A fresh directory, removed when the test passes (kept for a look when it fails).
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("play-terminal-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// Waits until `screen` holds `wanted` (or fails after a minute, showing the screen).
fn wait_for(screen: &Arc<Mutex<Vec<u8>>>, wanted: &str) {
    let started = Instant::now();
    loop {
        let text = String::from_utf8_lossy(&screen.lock().unwrap()).into_owned();
        if text.contains(wanted) {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no {wanted:?} on the screen:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn plays_under_a_pseudo_terminal() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: util-linux `script` is not installed");
        return;
    }
    let scratch_dir = scratch("pty");
    let records = &scratch_dir.0;
    let command_line = format!(
        "{BINARY} play --level beginner --records {}",
        records.display()
    );
    let mut child = Command::new("script")
        .args(["-qfec", &command_line, "/dev/null"])
        .env("TERM", "xterm")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let screen = Arc::new(Mutex::new(Vec::new()));
    let mut stdout = child.stdout.take().unwrap();
    let sink = Arc::clone(&screen);
    let reader = std::thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buffer) {
            if n == 0 {
                break;
            }
            sink.lock().unwrap().extend_from_slice(&buffer[..n]);
        }
    });
    let mut stdin = child.stdin.take().unwrap();
    // Where no pseudo-terminal can be made (some containers), `script` gives up at once.
    let started = Instant::now();
    while !String::from_utf8_lossy(&screen.lock().unwrap()).contains("black> ") {
        if let Some(status) = child.try_wait().unwrap() {
            let mut why = String::new();
            let _ = child.stderr.take().unwrap().read_to_string(&mut why);
            let shown = String::from_utf8_lossy(&screen.lock().unwrap()).into_owned();
            if !shown.contains("a b c d e") {
                eprintln!("skipped: `script` could not run the game ({status:?}): {why}{shown}");
                return;
            }
            panic!("the game ended before its prompt ({status:?}): {why}{shown}");
        }
        assert!(started.elapsed() < Duration::from_secs(60), "no prompt");
        std::thread::sleep(Duration::from_millis(50));
    }
    stdin.write_all(b"h8\n").unwrap();
    wait_for(&screen, "white (quinto) plays");
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("the game did not quit");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    reader.join().unwrap();
    assert!(status.success(), "{status:?}");
    let text = String::from_utf8_lossy(&screen.lock().unwrap()).into_owned();
    // A terminal gets colours and a cleared screen; the board has its coordinates.
    assert!(text.contains("\x1b[H\x1b[2J"), "{text}");
    assert!(text.contains("   a b c d e f g h i j k l m n o"), "{text}");
    assert!(text.contains("15 ") && text.contains(" 1 "), "{text}");
    // The move was taken: black's stone (yellow X) at h8, marked as the last move once.
    assert!(text.contains("\x1b[1;33m\x1b[7mX\x1b[0m"), "{text}");
    assert!(
        text.contains("renju 15x15, move 3: black (you) to move"),
        "{text}"
    );
}

fn play(args: &[&str], stdin: &str) -> (i32, String, String) {
    run_with_input(Command::new(BINARY).arg("play").args(args), stdin)
}

#[test]
fn bad_flags_exit_2_with_a_reason() {
    for (args, wanted) in [
        (
            &["--rule", "chess"][..],
            "--rule takes freestyle, standard, renju or caro",
        ),
        (&["--size", "99"], "--size: unsupported board size 99x99"),
        (&["--level"], "--level needs a value"),
        (&["--bogus"], "unknown option '--bogus'"),
        (&["--opening", "h8 h8"], "--opening move 2: h8 is taken"),
    ] {
        let (code, stdout, stderr) = play(args, "");
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(wanted), "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
    }
    let (code, stdout, _) = play(&["--help"], "");
    assert_eq!(code, 0);
    for flag in [
        "--rule",
        "--size",
        "--black",
        "--white",
        "--level",
        "--time",
        "--clock",
        "--opening",
        "--ascii",
        "--replay",
        "--records",
    ] {
        assert!(stdout.contains(flag), "{flag} missing from --help");
    }
    // The main usage names the subcommand.
    let usage = Command::new(BINARY).arg("--help").output().unwrap();
    assert!(String::from_utf8_lossy(&usage.stdout).contains("play [OPTIONS]"));
}

#[test]
fn a_piped_game_is_plain_ascii_and_saves_its_record() {
    let scratch_dir = scratch("piped");
    let records = &scratch_dir.0;
    let dir = records.to_str().unwrap();
    let script = "h8\na1\ni8\na3\nj8\na5\nk8\na7\nl8\n";
    let (code, stdout, stderr) = play(
        &["--black", "human", "--white", "human", "--records", dir],
        script,
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(!stdout.contains('\x1b'), "{stdout}");
    assert!(
        stdout.contains("game over, black wins: black made five h8-l8"),
        "{stdout}"
    );
    let saved: Vec<PathBuf> = std::fs::read_dir(records)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let text = std::fs::read_to_string(&saved[0]).unwrap();
    assert!(
        text.starts_with("Piskvorky 15x15, 11:11, 0\n8,8,"),
        "{text}"
    );
    assert!(
        text.ends_with("human\nhuman\n1-0 five: black made five h8-l8\nrule renju\n"),
        "{text}"
    );

    // --replay steps through it; a damaged file is an error, exit code 1.
    let file = saved[0].to_str().unwrap();
    let (code, stdout, _) = play(&["--replay", file], "n\nend\nquit\n");
    assert_eq!(code, 0);
    assert!(stdout.contains("move 1 of 9: black h8"), "{stdout}");
    assert!(stdout.contains("end of the game: 1-0 five"), "{stdout}");
    let damaged = records.join("damaged.psq");
    std::fs::write(&damaged, text[..text.len() / 3].replace(',', ";")).unwrap();
    let (code, stdout, stderr) = play(&["--replay", damaged.to_str().unwrap()], "");
    assert_eq!(code, 1, "{stdout}");
    assert!(stderr.contains("is not a usable record"), "{stderr}");
    let (code, _, stderr) = play(&["--replay", "/no/such.psq"], "");
    assert_eq!(code, 1);
    assert!(stderr.contains("cannot read /no/such.psq"), "{stderr}");
}
