//! Helpers shared by the integration tests.
#![allow(dead_code)]

use quinto::game::reference::NaiveBoard;
use quinto::game::{Board, BoardSize, Color, Pos, Rule};
use std::path::PathBuf;

/// A path under ../shared/testdata (the shared folder sits beside the repository).
pub fn testdata(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/testdata")
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
