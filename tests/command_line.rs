//! `pbrain-quinto`'s command line outside the protocol: the subcommands refuse what they do
//! not know (engine mode ignores it: protocol-tests/cases/gui_arguments*.txt).

use std::process::{Command, Stdio};

const BINARY: &str = env!("CARGO_BIN_EXE_pbrain-quinto");

/// Exit code, stdout and stderr of `pbrain-quinto ARGS` with empty input.
fn run(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(BINARY)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn subcommands_keep_strict_flags() {
    for (args, wanted) in [
        (&["bench", "--bogus"][..], "unknown option '--bogus'"),
        (&["--bogus", "bench", "rules"], "unknown option '--bogus'"),
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
