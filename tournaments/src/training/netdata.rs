//! Training positions for the network from self-play games (`selfplay`): every quiet
//! position (no five point for either side; a proven score left out, or standing as a set
//! score) with the search's best move, and a target that mixes the search's score with the
//! game's result.

use crate::training::labels::is_quiet;
use crate::training::selfplay::Game;
use crate::training::tuning::{sigmoid, Sample, K};
use quinto::eval::features;
use quinto::eval::net::features::{board_features, LineFeatures};
use quinto::game::{Board, Color, Pos};
use quinto::search::params::WIN_THRESHOLD;

/// One position as the network sees it.
#[derive(Clone, Debug)]
pub struct Position {
    /// The four line feature ids of each empty point.
    pub points: Vec<[u16; 4]>,
    /// Which of `points` the search played (the policy's target).
    pub best: usize,
    pub black_to_move: bool,
    /// The value target for the side to move, in 0..=1.
    pub target: f64,
    /// The linear evaluation's view of the same position (its refit is the baseline), with
    /// the game it came from.
    pub linear: Sample,
}

impl Position {
    /// Held-out positions: the linear fit's, every tenth game.
    pub fn held_out(&self) -> bool {
        self.linear.held_out()
    }
}

/// The quiet positions of `games` (numbered in order: `game` indexes the slice), with
/// feature ids for a network reading `features` with `tables` feature tables.
/// `score_weight` is the share of the search's score in the target (the rest is the result).
/// A proven score (a forced win found) leaves its position out, or with `proven` stands as
/// that score (its sign the proof's): a teacher that proves long wins says which positions
/// are lost before the loss can be seen.
pub fn positions(
    games: &[Game],
    score_weight: f64,
    proven: Option<i32>,
    features: LineFeatures,
    tables: usize,
) -> Vec<Position> {
    let mut out = Vec::new();
    for (number, game) in games.iter().enumerate() {
        let mut board = Board::new(game.size, game.rule);
        for m in &game.moves {
            let mover = board.side_to_move();
            if let (true, Some((score, best))) = (is_quiet(&board), m.searched) {
                let score = match proven {
                    Some(stand_in) if score.abs() >= WIN_THRESHOLD => stand_in * score.signum(),
                    _ => score,
                };
                if score.abs() < WIN_THRESHOLD {
                    let result = game.result_for_mover(board.stone_count());
                    let target = score_weight * sigmoid(f64::from(score) / K)
                        + (1.0 - score_weight) * result;
                    out.push(position(
                        &board, mover, best, target, number, features, tables,
                    ));
                }
            }
            board.play(m.pos, mover);
        }
    }
    out
}

fn position(
    board: &Board,
    mover: Color,
    best: Pos,
    target: f64,
    game: usize,
    line_features: LineFeatures,
    tables: usize,
) -> Position {
    let points = board_features(board, mover, line_features, tables);
    let best = points.iter().position(|&(p, _)| p == best).unwrap_or(0);
    let size = board.size();
    Position {
        points: points.into_iter().map(|(_, ids)| ids).collect(),
        best,
        black_to_move: mover == Color::Black,
        target,
        linear: Sample {
            features: features(board, mover),
            result: target,
            game,
            position: (board.hash(), size.width(), size.height()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::training::selfplay::Game;

    #[test]
    fn positions_are_quiet_and_point_at_the_move_searched() {
        let game = Game::parse("1\t0\t0\t15\t1\t7,7\t8,8/20\t7,8/30\t9,9/-10/8,9\t7,9/400")
            .expect("a game");
        let found = positions(
            std::slice::from_ref(&game),
            0.5,
            None,
            LineFeatures::Window,
            1,
        );
        assert_eq!(found.len(), 4);
        let first = &found[0];
        assert!(!first.black_to_move);
        assert_eq!(first.points.len(), 224);
        // White to move after one stone: the search's 20 and white's loss, mixed.
        let expected = 0.5 * sigmoid(20.0 / K);
        assert!((first.target - expected).abs() < 1e-12);
        assert_eq!(
            found[2].points.len(),
            225 - 3,
            "the third position has 3 stones"
        );
        assert_ne!(found[2].best, 0);
        // The last position's proven score (400 is not one) and another's, standing in.
        let mut proven = game;
        proven.moves[4].searched = Some((-29_990, proven.moves[4].pos));
        assert_eq!(
            positions(
                std::slice::from_ref(&proven),
                0.5,
                None,
                LineFeatures::Window,
                1
            )
            .len(),
            3
        );
        let standing = positions(&[proven], 1.0, Some(600), LineFeatures::Window, 1);
        assert_eq!(standing.len(), 4);
        assert!((standing[3].target - sigmoid(-600.0 / K)).abs() < 1e-12);
    }
}
