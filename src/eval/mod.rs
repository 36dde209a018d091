//! Static evaluation. Two live side by side, and [`evaluator`] picks one per search
//! (`--eval auto|classical|net|policy`):
//!
//! - the learned one, [`net`]: a line-pattern network trained on Quinto's self-play games
//!   by `quinto-train` (tournaments/), giving a value and a move policy; built in for
//!   freestyle (standard and caro play it too) and for renju;
//! - the classical one, in this module: a linear function of what the board keeps
//!   incrementally — how many (empty point, direction) pairs hold each line pattern and how
//!   many empty points hold each shape, for the side to move and for its opponent — plus a
//!   table indexed by who holds which threats (the initiative: a sum of lines cannot see
//!   that an open three of the side to move is worth far more than the opponent's). Its
//!   weights are fitted by `quinto-tune` (tournaments/tuning/) and live in [`weights`].
//!
//! By default (`auto`) the network gives the value and the policy on freestyle and standard
//! 15×15; renju 15×15 keeps the classical value with the network's policy ordering the
//! moves; every other rule and board, 20×20 included, plays the classical evaluation alone
//! (`net::embedded::PROVEN` lists where the network has won its match). Where the network
//! gives the value, the classical one still stands in for it far from the search's window.

pub mod evaluator;
pub mod net;
pub mod weights;

use crate::game::{Board, Color, Pattern, Rule, Shape, PATTERN_KINDS, SHAPE_KINDS};

/// Number of count features: line patterns and shapes, for the side to move and the other.
pub const COUNT_FEATURES: usize = 2 * PATTERN_KINDS + 2 * SHAPE_KINDS;
/// Bits of the threat mask (see [`threat_mask`]).
pub const THREAT_BITS: usize = 10;
/// Entries of a threat table.
pub const THREAT_MASKS: usize = 1 << THREAT_BITS;
/// Weight tables: per rule family — freestyle (and caro), standard (and exact caro), renju —
/// and per side to move (black's first-move edge, renju's asymmetry).
pub const TABLES: usize = 6;

/// No static value reaches past this: beyond are proven wins and losses.
pub const EVAL_LIMIT: i32 = 20_000;

/// SWAP2: how far from even (in evaluation units, white to move) a position may be and still
/// count as balanced.
pub const SWAP2_BALANCE_MARGIN: i32 = 60;

/// Weights are stored in 1/`WEIGHT_SCALE` evaluation units, so that the many small weights of
/// frequent line patterns keep their precision.
pub const WEIGHT_SCALE: i32 = 32;

/// One weight table, in 1/`WEIGHT_SCALE` evaluation units.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Per count feature (see [`Features::counts`]).
    pub counts: [i32; COUNT_FEATURES],
    /// Per threat mask.
    pub threat: [i32; THREAT_MASKS],
}

/// What the evaluation is a function of: the tuner fits weights to these.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// Which weight table applies.
    pub table: usize,
    /// Pattern counts of the side to move, then of the opponent (by `Pattern as usize`),
    /// then shape counts likewise (by `Shape as usize`).
    pub counts: [i32; COUNT_FEATURES],
    pub threat_mask: usize,
}

/// The weight table for `rule` with `to_move` to move.
pub fn table_index(rule: Rule, to_move: Color) -> usize {
    let family = match rule {
        Rule::Freestyle | Rule::Caro => 0,
        Rule::Standard | Rule::CaroExact => 1,
        Rule::Renju => 2,
    };
    2 * family + to_move.index()
}

/// The position's value for `to_move` (positive is good for it).
pub fn evaluate(board: &Board, to_move: Color) -> i32 {
    let weights = &weights::TABLES[table_index(board.rule(), to_move)];
    let opponent = to_move.opponent();
    let mut score = weights.threat[threat_mask(board, to_move)];
    for (i, &pattern) in Pattern::ALL.iter().enumerate() {
        score += weights.counts[i] * board.pattern_count(to_move, pattern) as i32;
        score += weights.counts[PATTERN_KINDS + i] * board.pattern_count(opponent, pattern) as i32;
    }
    let shapes = 2 * PATTERN_KINDS;
    for (i, &shape) in Shape::ALL.iter().enumerate() {
        score += weights.counts[shapes + i] * board.shape_count(to_move, shape) as i32;
        score +=
            weights.counts[shapes + SHAPE_KINDS + i] * board.shape_count(opponent, shape) as i32;
    }
    (score / WEIGHT_SCALE).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The features [`evaluate`] weighs, for the tuner.
pub fn features(board: &Board, to_move: Color) -> Features {
    let opponent = to_move.opponent();
    let mut counts = [0; COUNT_FEATURES];
    for (i, &pattern) in Pattern::ALL.iter().enumerate() {
        counts[i] = board.pattern_count(to_move, pattern) as i32;
        counts[PATTERN_KINDS + i] = board.pattern_count(opponent, pattern) as i32;
    }
    let shapes = 2 * PATTERN_KINDS;
    for (i, &shape) in Shape::ALL.iter().enumerate() {
        counts[shapes + i] = board.shape_count(to_move, shape) as i32;
        counts[shapes + SHAPE_KINDS + i] = board.shape_count(opponent, shape) as i32;
    }
    Features {
        table: table_index(board.rule(), to_move),
        counts,
        threat_mask: threat_mask(board, to_move),
    }
}

/// Who holds which threats, as bits: for the side to move (bits 0-4) and then for the
/// opponent (bits 5-9), whether it has a point that makes an open four (or two fours), a
/// four-three, another four, a double three (or three and two), an open three.
pub fn threat_mask(board: &Board, to_move: Color) -> usize {
    let side = |color: Color| {
        let has = |shapes: &[Shape]| shapes.iter().any(|&s| board.shape_count(color, s) > 0);
        usize::from(has(&[Shape::OpenFour]))
            | usize::from(has(&[Shape::FourThree])) << 1
            | usize::from(has(&[Shape::Four, Shape::FourTwo])) << 2
            | usize::from(has(&[Shape::DoubleThree, Shape::ThreeTwo])) << 3
            | usize::from(has(&[Shape::Three])) << 4
    };
    side(to_move) | side(to_move.opponent()) << 5
}

/// The value of each count feature and threat mask under the weights, for the tuner: the
/// evaluation is `Σ counts·weights + threat[mask]`.
pub fn evaluate_features(features: &Features, weights: &Weights) -> i32 {
    let linear: i32 = features
        .counts
        .iter()
        .zip(weights.counts.iter())
        .map(|(c, w)| c * w)
        .sum();
    ((linear + weights.threat[features.threat_mask]) / WEIGHT_SCALE).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::BoardSize;

    #[test]
    fn the_features_give_the_evaluation() {
        let size = BoardSize::square(15).unwrap();
        for rule in Rule::ALL {
            let mut board = Board::new(size, rule);
            for text in ["h8", "i9", "j8", "i8", "i7", "j6", "g9", "h10", "k9"] {
                let pos = size.parse_human(text).unwrap();
                board.play(pos, board.side_to_move());
                for color in [Color::Black, Color::White] {
                    let f = features(&board, color);
                    assert_eq!(
                        evaluate_features(&f, &weights::TABLES[f.table]),
                        evaluate(&board, color)
                    );
                }
            }
        }
    }

    #[test]
    fn an_open_three_to_move_beats_one_to_answer() {
        let size = BoardSize::square(15).unwrap();
        let mut board = Board::new(size, Rule::Freestyle);
        for (i, text) in ["h8", "a1", "i8", "a3", "j8", "o15"].iter().enumerate() {
            let pos = size.parse_human(text).unwrap();
            board.play(pos, Color::to_move_after(i));
        }
        // Black has an open three; black to move is winning, white to move must block.
        assert!(evaluate(&board, Color::Black) > 0);
        assert!(
            threat_mask(&board, Color::Black) & 1 != 0,
            "black can make an open four"
        );
    }
}
