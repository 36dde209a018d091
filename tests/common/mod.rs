//! Helpers shared by the integration tests.
#![allow(dead_code)]

use quinto::game::reference::NaiveBoard;
use quinto::game::{Board, BoardSize, Color, Pos, Rule};
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// A path under tests/data, the test data from outside the project (its README names the
/// source of every record).
pub fn testdata(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(relative)
}

/// A board with the given stones (placed black, white, black, … while both lists last).
pub fn board_with(size: BoardSize, rule: Rule, black: &[Pos], white: &[Pos]) -> Board {
    let mut board = Board::new(size, rule);
    let longest = black.len().max(white.len());
    for i in 0..longest {
        if let Some(&pos) = black.get(i) {
            board.play(pos, Color::Black);
        }
        if let Some(&pos) = white.get(i) {
            board.play(pos, Color::White);
        }
    }
    board
}

/// The naive twin of a board.
pub fn naive_of(board: &Board) -> NaiveBoard {
    let mut naive = NaiveBoard::new(board.size());
    for pos in board.size().points() {
        naive.set(pos.x() as i32, pos.y() as i32, board.stone(pos));
    }
    naive
}

/// The 15×15 board most built positions use.
pub fn size15() -> BoardSize {
    BoardSize::square(15).unwrap()
}

/// Points in renju notation, space-separated, on 15×15.
pub fn points(list: &str) -> Vec<Pos> {
    list.split_whitespace()
        .map(|p| size15().parse_human(p).unwrap())
        .collect()
}

/// A JSON list of points in renju notation.
pub fn json_points(size: BoardSize, list: &Value) -> Vec<Pos> {
    list.as_array()
        .expect("a list of points")
        .iter()
        .map(|p| {
            size.parse_human(p.as_str().expect("a point"))
                .expect("a valid point")
        })
        .collect()
}

/// The renju position of a test-data record (`size`, `black`, `white`).
pub fn record_board(case: &Value) -> Board {
    let size = BoardSize::square(case["size"].as_u64().expect("size") as usize).expect("size");
    board_with(
        size,
        Rule::Renju,
        &json_points(size, &case["black"]),
        &json_points(size, &case["white"]),
    )
}

/// Runs `command` with `input` on its stdin: its exit code (−1 when a signal ended it),
/// stdout and stderr.
pub fn run_with_input(command: &mut Command, input: &str) -> (i32, String, String) {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}
