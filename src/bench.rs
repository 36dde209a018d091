//! Benchmarks that print figures (never timed tests): the rules layer's speed on crowded
//! middle-game positions.

use crate::game::{Board, BoardSize, Color, Pos, Rule};
use crate::rng::Rng;
use std::time::Instant;

/// Figures of one rules benchmark run.
#[derive(Clone, Debug)]
pub struct RulesFigures {
    pub positions: usize,
    pub move_undo_pairs: u64,
    pub move_undo_per_second: f64,
    pub foul_verdicts: u64,
    pub fouls_found: u64,
    pub foul_verdicts_per_second: f64,
}

/// Crowded renju positions (15×15, 90–130 stones) reached by legal play from a fixed seed:
/// black never on a foul, nobody completing five.
pub fn crowded_renju_positions(count: usize) -> Vec<Board> {
    let mut rng = Rng::new(0x5eed);
    let size = BoardSize::square(15).expect("15 is a valid size");
    (0..count)
        .map(|_| {
            let mut board = Board::new(size, Rule::Renju);
            let target = 90 + rng.below(41);
            let mut attempts = 0;
            while board.stone_count() < target && attempts < 100_000 {
                attempts += 1;
                let pos = near_play(&mut rng, &board);
                let color = board.side_to_move();
                if board.is_empty(pos)
                    && !board.makes_five(pos, color)
                    && !board.is_forbidden(pos, color)
                {
                    board.play(pos, color);
                }
            }
            board
        })
        .collect()
}

fn near_play(rng: &mut Rng, board: &Board) -> Pos {
    let size = board.size();
    match board.history() {
        [] => size.center(),
        history => {
            let anchor = history[rng.below(history.len())];
            let x = (anchor.x() as i64 + rng.below(5) as i64 - 2).clamp(0, size.width() as i64 - 1);
            let y =
                (anchor.y() as i64 + rng.below(5) as i64 - 2).clamp(0, size.height() as i64 - 1);
            Pos::new(x as usize, y as usize)
        }
    }
}

/// Times move+undo over every empty point and renju verdicts on every empty point of
/// crowded positions, `rounds` times over.
pub fn rules_bench(rounds: usize) -> RulesFigures {
    let mut boards = crowded_renju_positions(16);
    let mut checksum = 0u64;

    let start = Instant::now();
    let mut pairs = 0u64;
    for _ in 0..rounds {
        for board in &mut boards {
            let color = board.side_to_move();
            for pos in board.size().points() {
                if board.is_empty(pos) {
                    board.play(pos, color);
                    checksum ^= board.hash();
                    board.undo();
                    pairs += 1;
                }
            }
        }
    }
    let move_seconds = start.elapsed().as_secs_f64();

    let start = Instant::now();
    let (mut verdicts, mut fouls) = (0u64, 0u64);
    for _ in 0..rounds {
        for board in &boards {
            for pos in board.size().points() {
                if board.is_empty(pos) {
                    verdicts += 1;
                    fouls += u64::from(board.is_forbidden(pos, Color::Black));
                }
            }
        }
    }
    let foul_seconds = start.elapsed().as_secs_f64();
    // Keep the work observable so the optimiser cannot drop it.
    if checksum == 1 {
        log::trace!("checksum {checksum}");
    }
    RulesFigures {
        positions: boards.len(),
        move_undo_pairs: pairs,
        move_undo_per_second: pairs as f64 / move_seconds.max(1e-9),
        foul_verdicts: verdicts,
        fouls_found: fouls / rounds.max(1) as u64,
        foul_verdicts_per_second: verdicts as f64 / foul_seconds.max(1e-9),
    }
}
