//! Wins that need no search, read off the board at a node (neither side has a five to
//! play or to block there: the caller settles those first):
//! - an open four (two five points) to play wins in 3 plies: the opponent, without a five of
//!   its own, blocks one point and loses on the other;
//! - a four-three or a double three wins in 5 when the opponent cannot make a single four:
//!   the block of the four (or of one three) makes no four either, so nothing interrupts the
//!   open four that follows and the five after it.
//!
//! In renju black's moves must be legal: its open-four points are checked one by one, and
//! its four-threes and double threes are left to the search (the open four that follows
//! may be forbidden).

use crate::game::{Board, Color, Pattern, Shape};

/// Plies to the win of the side to move, `me`, when the board shows one without search.
pub fn quick_win(board: &Board, me: Color) -> Option<i32> {
    let restricted = board.rule().has_forbidden(me);
    let open_four = if restricted {
        board
            .open_four_lines(me)
            .any(|(pos, _)| !board.is_forbidden(pos, me))
    } else {
        board.has_open_four_point(me) || board.shape_count(me, Shape::OpenFour) > 0
    };
    if open_four {
        return Some(3);
    }
    let opponent = me.opponent();
    let opponent_has_fours = board.pattern_count(opponent, Pattern::B4) > 0
        || board.pattern_count(opponent, Pattern::F4) > 0;
    if !restricted
        && !opponent_has_fours
        && (board.shape_count(me, Shape::FourThree) > 0
            || board.shape_count(me, Shape::DoubleThree) > 0)
    {
        return Some(5);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{BoardSize, Rule};

    fn board(rule: Rule, moves: &str) -> Board {
        let size = BoardSize::square(15).expect("15 is a size");
        let mut board = Board::new(size, rule);
        for text in moves.split_whitespace() {
            let pos = size.parse_human(text).expect("test moves are valid");
            board.play(pos, board.side_to_move());
        }
        board
    }

    #[test]
    fn an_open_three_to_make_an_open_four_wins_in_three() {
        // Black h8 i8 j8 with both ends free; white's stones far away; black to move.
        let b = board(Rule::Freestyle, "h8 a1 i8 a3 j8 a5");
        assert_eq!(quick_win(&b, Color::Black), Some(3));
    }

    #[test]
    fn a_four_three_wins_in_five_only_when_the_opponent_has_no_four() {
        // Black h8 i8 j8 (blocked by white's g8) and k9 k10: k8 makes a four along row 8
        // and an open three along column k. White's other stones sit in the corners.
        let b = board(Rule::Freestyle, "h8 g8 i8 a1 j8 o1 k9 a15 k10 o15");
        assert_eq!(b.side_to_move(), Color::Black);
        assert!(b.shape_count(Color::Black, Shape::FourThree) > 0);
        assert_eq!(quick_win(&b, Color::Black), Some(5));
        // White's a1 a2 a3 (a four at a4) spoil it.
        let b = board(Rule::Freestyle, "h8 g8 i8 a1 j8 a2 k9 a3 k10 o15");
        assert_eq!(b.side_to_move(), Color::Black);
        assert_eq!(quick_win(&b, Color::Black), None);
    }

    #[test]
    fn nothing_to_see_on_a_quiet_board() {
        let b = board(Rule::Freestyle, "h8 i9 h9");
        assert_eq!(quick_win(&b, Color::White), None);
    }

    /// Every quick win claimed in random games is a real one: the threat solver, an
    /// independent search, finds a win within the claimed number of attacker moves.
    #[test]
    fn every_quick_win_is_confirmed_by_the_threat_solver() {
        use crate::rng::Rng;
        use crate::search::threats::{solve, Budget};
        use crate::search::Stop;
        let stop = Stop::new();
        let mut rng = Rng::new(97);
        let mut claims = 0;
        for game in 0..400 {
            let rule = [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro][game % 4];
            let side = if game % 3 == 0 { 20 } else { 15 };
            let size = BoardSize::square(side).expect("a size");
            let mut board = Board::new(size, rule);
            board.play(size.center(), Color::Black);
            while board.stone_count() < 60 {
                let me = board.side_to_move();
                if board.has_five_point(me) || board.has_five_point(me.opponent()) {
                    break;
                }
                if let Some(plies) = quick_win(&board, me) {
                    claims += 1;
                    let budget = Budget {
                        moves: (plies as u32 + 1) / 2,
                        threat_depth: 1,
                        nodes: 1_000_000,
                        deadline: None,
                    };
                    let mut nodes = 0;
                    let line = solve(&mut board, me, budget, &stop, &mut nodes);
                    assert!(line.is_some(), "{rule:?} {side}: {:?}", board.history());
                }
                let moves: Vec<_> = board
                    .candidates()
                    .filter(|&p| !board.is_forbidden(p, me))
                    .collect();
                if moves.is_empty() {
                    break;
                }
                board.play(moves[rng.below(moves.len())], me);
            }
        }
        assert!(claims > 100, "only {claims} claims");
    }

    #[test]
    fn renju_black_gets_no_quick_four_three() {
        let b = board(Rule::Renju, "h8 g8 i8 a1 j8 o1 k9 a15 k10 o15");
        assert!(b.shape_count(Color::Black, Shape::FourThree) > 0);
        assert_eq!(quick_win(&b, Color::Black), None);
    }
}
