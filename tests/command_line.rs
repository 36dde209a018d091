//! `pbrain-quinto`'s command line outside the protocol: the subcommands refuse what they do
//! not know (engine mode ignores it: protocol-tests/cases/gui_arguments*.txt).

mod common;

use common::run_with_input;
use std::process::Command;

const BINARY: &str = env!("CARGO_BIN_EXE_pbrain-quinto");

/// Exit code, stdout and stderr of `pbrain-quinto ARGS` with empty input.
fn run(args: &[&str]) -> (i32, String, String) {
    run_with_input(Command::new(BINARY).args(args), "")
}

#[test]
fn subcommands_keep_strict_flags() {
    for (args, wanted) in [
        (&["bench", "--bogus"][..], "unknown option '--bogus'"),
        (&["--bogus", "bench", "rules"], "unknown option '--bogus'"),
        (
            &["bench", "tactics", "0"],
            "NODES must be a positive number",
        ),
        (
            &["bench", "hash", "many"],
            "bench hash: NODES must be a positive number",
        ),
        (&["--depth", "0"], "--depth takes 1 to 64"),
        (&["--force-utf8", "--threads", "x"], "--threads takes 1 to"),
        (&["--depth", "3", "play"], "`play` comes first"),
    ] {
        let (code, stdout, stderr) = run(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(wanted), "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
    }
}

#[test]
fn engine_mode_ignores_unknown_arguments_and_force_utf8_is_known_everywhere() {
    let (code, stdout, stderr) = run(&["--force-utf8", "--gui-thing", "value"]);
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "", ""));
    let (code, stdout, stderr) = run(&["--force-utf8", "help"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("--force-utf8"), "{stdout}");
}

/// The engine copied into a fresh directory beside a settings file with `text`, run on
/// `input` with logging to a file there: its stdout, stderr and log.
fn run_beside_settings(name: &str, text: Option<&str>, input: &str) -> (String, String, String) {
    // Beside the built binary, so that a hard link can stand for a copy: a copy is written
    // through a file descriptor that a test spawning another process at that moment
    // inherits until its exec, and running the copy then fails ("text file busy").
    let binary = std::path::Path::new(BINARY);
    let dir = binary
        .parent()
        .unwrap()
        .join(format!("quinto-ini-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let exe = dir.join(format!("pbrain-quinto{}", std::env::consts::EXE_SUFFIX));
    std::fs::hard_link(binary, &exe).unwrap();
    if let Some(text) = text {
        std::fs::write(dir.join("pbrain-quinto.ini"), text).unwrap();
    }
    let log = dir.join("log.txt");
    let (_, stdout, stderr) = run_with_input(Command::new(&exe).env("QUINTO_LOG", &log), input);
    let log = std::fs::read_to_string(&log).unwrap_or_default();
    std::fs::remove_dir_all(&dir).unwrap();
    (stdout, stderr, log)
}

#[test]
fn the_settings_file_beside_the_executable_sets_threads_hash_and_detail() {
    let input = "START 15\nBEGIN\nTURN 3,3\nYXSHOWHASHUSAGE\n";
    let ini = "threads = 2\nhash = 2 ; MiB\ndetail = full\nthreads: 3\n";
    let (stdout, stderr, log) = run_beside_settings("set", Some(ini), input);
    assert_eq!(stderr, "");
    assert!(stdout.contains("\nMESSAGE depth "), "{stdout}");
    assert!(stdout.contains(" pv "), "the full line: {stdout}");
    assert!(stdout.contains("MESSAGE hash table 2 MiB"), "{stdout}");
    assert!(log.contains("threads: Some(2)"), "{log}");
    assert!(log.contains("line 4 ignored"), "{log}");
    // INFO still overrides the file.
    let input = "INFO show_detail 0\nINFO hash_size 4096\nINFO timeout_turn 50\nSTART 15\nBEGIN\nYXSHOWHASHUSAGE\n";
    let (stdout, _, _) = run_beside_settings("override", Some(ini), input);
    assert!(!stdout.contains("MESSAGE depth"), "{stdout}");
    assert!(stdout.contains("MESSAGE hash table 4 MiB"), "{stdout}");
    // No file: the defaults, silently.
    let (stdout, stderr, log) = run_beside_settings("none", None, input);
    assert_eq!(stderr, "");
    assert!(stdout.contains("MESSAGE hash table 4 MiB"), "{stdout}");
    assert!(!log.contains("pbrain-quinto.ini"), "{log}");
}

/// `bench tactics --replies` on a one-position suite: the defender's node after the chosen
/// move, then its dearest replies.
#[test]
fn bench_tactics_replies_takes_a_position_apart() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let suite = dir.join(format!("replies-{}.txt", std::process::id()));
    std::fs::write(
        &suite,
        "0 15 21 85000 test g9,g10,g8,i9,h6,i10,h8,h10,f10\n",
    )
    .unwrap();
    let path = suite.to_str().unwrap();
    let (code, stdout, stderr) = run(&["bench", "tactics", "300", "--replies", "--suite", path]);
    std::fs::remove_file(&suite).unwrap();
    assert_eq!(code, 0, "{stderr}");
    let first = stdout.lines().next().unwrap_or_default();
    assert!(first.starts_with("position  1: after "), "{stdout}");
    assert!(first.contains("the defender's node"), "{stdout}");
}
