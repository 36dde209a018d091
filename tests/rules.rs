//! Win detection and the referee's verdicts under every rule, on built positions.

mod common;

use common::{board_with, points, size15};
use quinto::game::{gomocup_stone_limit, judge_move, Board, BoardSize, Color, Foul, Rule, Verdict};

/// Black has `black`, white has `white`; `mover` plays `point`: what does the referee say?
fn plays(rule: Rule, mover: Color, black: &str, white: &str, point: &str) -> Verdict {
    let mut board = board_with(size15(), rule, &points(black), &points(white));
    let pos = size15().parse_human(point).unwrap();
    judge_move(&mut board, pos.x() as i64, pos.y() as i64, mover, None)
}

fn black_plays(rule: Rule, black: &str, white: &str, point: &str) -> Verdict {
    plays(rule, Color::Black, black, white, point)
}

fn white_plays(rule: Rule, black: &str, white: &str, point: &str) -> Verdict {
    plays(rule, Color::White, black, white, point)
}

const FOUR: &str = "d8 e8 f8 g8";
const WHITE_FAR: &str = "a1 a3 a5 a7";

#[test]
fn exact_five_wins_under_every_rule() {
    for rule in Rule::ALL {
        assert_eq!(
            black_plays(rule, FOUR, WHITE_FAR, "h8"),
            Verdict::Win,
            "{rule:?}"
        );
        assert_eq!(
            white_plays(rule, WHITE_FAR, FOUR.replace('8', "10").as_str(), "h10"),
            Verdict::Win,
            "{rule:?}"
        );
    }
}

#[test]
fn overline_under_each_rule() {
    // d8 e8 f8 _ h8 i8: black fills g8 for six in a row.
    let black = "d8 e8 f8 h8 i8";
    let expected = [
        (Rule::Freestyle, Verdict::Win),
        (Rule::Standard, Verdict::Continue),
        (Rule::Renju, Verdict::Forbidden(Foul::Overline)),
        (Rule::Caro, Verdict::Win),
        (Rule::CaroExact, Verdict::Continue),
    ];
    for (rule, verdict) in expected {
        assert_eq!(
            black_plays(rule, black, "a1 a3 a5 a7 a9", "g8"),
            verdict,
            "black {rule:?}"
        );
    }
    // White's overline wins in renju, not in standard.
    let white = "d10 e10 f10 h10 i10";
    assert_eq!(
        white_plays(Rule::Renju, "a1 a3 a5 a7 a9 a11", white, "g10"),
        Verdict::Win
    );
    assert_eq!(
        white_plays(Rule::Standard, "a1 a3 a5 a7 a9 a11", white, "g10"),
        Verdict::Continue
    );
}

#[test]
fn caro_needs_an_unblocked_five_and_the_edge_is_no_block() {
    // White stones at c8 and i8 close both ends of d8..h8.
    for rule in [Rule::Caro, Rule::CaroExact] {
        assert_eq!(
            black_plays(rule, FOUR, "c8 i8 a1 a3", "h8"),
            Verdict::Continue,
            "{rule:?} both ends"
        );
        assert_eq!(
            black_plays(rule, FOUR, "c8 a1 a3 a5", "h8"),
            Verdict::Win,
            "{rule:?} one end"
        );
        // a8..e8 against the left edge, white on f8: the edge is not a block.
        assert_eq!(
            black_plays(rule, "a8 b8 c8 d8", "f8 a1 a3 a5", "e8"),
            Verdict::Win,
            "{rule:?} edge"
        );
    }
    // The same blocked five wins outside caro.
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        assert_eq!(
            black_plays(rule, FOUR, "c8 i8 a1 a3", "h8"),
            Verdict::Win,
            "{rule:?}"
        );
    }
    // Caro (8): a blocked six still wins.
    assert_eq!(
        black_plays(Rule::Caro, "c8 d8 e8 f8 g8", "b8 i8 a1 a3 a5", "h8"),
        Verdict::Win
    );
    assert_eq!(
        black_plays(Rule::CaroExact, "c8 d8 e8 f8 g8", "b8 i8 a1 a3 a5", "h8"),
        Verdict::Continue
    );
}

#[test]
fn renju_exact_five_wins_even_inside_a_double_four_or_overline_shape() {
    // h8 makes d8..h8 five and also a four on the column h: five first.
    assert_eq!(
        black_plays(
            Rule::Renju,
            "d8 e8 f8 g8 h5 h6 h7",
            "a1 a3 a5 a7 a9 a11",
            "h8"
        ),
        Verdict::Win
    );
    // h8 makes a five on row 8 and an overline on column h: the five wins.
    assert_eq!(
        black_plays(
            Rule::Renju,
            "d8 e8 f8 g8 h3 h4 h5 h6 h7",
            "a1 a3 a5 a7 a9 a11 a13 b1",
            "h8"
        ),
        Verdict::Win
    );
    // Without the five, the same column is an overline foul.
    assert_eq!(
        black_plays(
            Rule::Renju,
            "d8 e8 f8 h3 h4 h5 h6 h7",
            "a1 a3 a5 a7 a9 a11 a13",
            "h8"
        ),
        Verdict::Forbidden(Foul::Overline)
    );
    // Two fours through h8 and no five: double four; white may do the same freely.
    assert_eq!(
        black_plays(Rule::Renju, "e8 f8 g8 h5 h6 h7", "a1 a3 a5 a7 a9 a11", "h8"),
        Verdict::Forbidden(Foul::DoubleFour)
    );
    assert_eq!(
        white_plays(
            Rule::Renju,
            "a1 a3 a5 a7 a9 a11 a13",
            "e8 f8 g8 h5 h6 h7",
            "h8"
        ),
        Verdict::Continue
    );
}

#[test]
fn illegal_points_change_nothing() {
    let mut board = board_with(size15(), Rule::Freestyle, &points("h8"), &[]);
    let before = format!("{board:?}");
    assert_eq!(
        judge_move(&mut board, 7, 7, Color::White, None),
        Verdict::Occupied
    );
    assert_eq!(
        judge_move(&mut board, 15, 0, Color::White, None),
        Verdict::OffBoard
    );
    assert_eq!(
        judge_move(&mut board, -1, 3, Color::White, None),
        Verdict::OffBoard
    );
    assert_eq!(
        judge_move(&mut board, i64::MAX, i64::MIN, Color::White, None),
        Verdict::OffBoard
    );
    assert_eq!(format!("{board:?}"), before);
}

#[test]
fn full_board_and_gomocup_stone_limit_draw() {
    // 5x5 filled in a pattern with no five for either side: the last stone draws.
    let size = BoardSize::square(5).unwrap();
    let mut board = Board::new(size, Rule::Freestyle);
    let order: Vec<(usize, usize)> = (0..5).flat_map(|y| (0..5).map(move |x| (x, y))).collect();
    let mut last = Verdict::Continue;
    for (i, &(x, y)) in order.iter().enumerate() {
        // Colour by (x + 2y) mod 4 < 2: no line of five holds one colour.
        let color = if (x + 2 * y) % 4 < 2 {
            Color::Black
        } else {
            Color::White
        };
        last = judge_move(&mut board, x as i64, y as i64, color, None);
        if i + 1 < order.len() {
            assert_eq!(last, Verdict::Continue, "move {i}");
        }
    }
    assert_eq!(last, Verdict::Draw);
    assert_eq!(gomocup_stone_limit(Rule::Renju, size15()), Some(200));
    assert_eq!(gomocup_stone_limit(Rule::Freestyle, size15()), None);
    let mut board = Board::new(size, Rule::Renju);
    assert_eq!(
        judge_move(&mut board, 0, 0, Color::Black, Some(2)),
        Verdict::Continue
    );
    assert_eq!(
        judge_move(&mut board, 4, 4, Color::White, Some(2)),
        Verdict::Draw
    );
}
