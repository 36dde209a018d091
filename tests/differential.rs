//! The fast rules (incremental patterns, table-driven fouls) against the naive reference on
//! random positions of every density, on square and rectangular boards.

mod common;

use common::naive_of;
use quinto::game::{Board, BoardSize, Color, Direction, Pattern, Pos, Rule};
use quinto::rng::Rng;

/// How stones are scattered.
#[derive(Clone, Copy, Debug)]
enum Layout {
    /// Anywhere.
    Uniform,
    /// In a small window, often touching an edge or a corner: many threes and fours.
    Cluster,
    /// Alternate moves near earlier stones, black never on a foul point, nobody making five.
    LegalPlay,
}

fn random_size(rng: &mut Rng) -> BoardSize {
    match rng.below(6) {
        0 => BoardSize::new(5 + rng.below(28), 5 + rng.below(28)).unwrap(),
        1 => BoardSize::square(20).unwrap(),
        2 => BoardSize::square(5 + rng.below(10)).unwrap(),
        _ => BoardSize::square(15).unwrap(),
    }
}

fn random_position(rng: &mut Rng, rule: Rule, layout: Layout) -> Board {
    let size = random_size(rng);
    let mut board = Board::new(size, rule);
    let target = 1 + rng.below(size.area() * 3 / 4);
    let (w, h) = (size.width(), size.height());
    let (cw, ch) = (5 + rng.below(w - 4), 5 + rng.below(h - 4));
    let (cw, ch) = (cw.min(w), ch.min(h));
    let (ox, oy) = (rng.below(w - cw + 1), rng.below(h - ch + 1));
    let mut attempts = 0;
    while board.stone_count() < target && attempts < 20 * target {
        attempts += 1;
        let pos = match layout {
            Layout::Uniform => Pos::new(rng.below(w), rng.below(h)),
            Layout::Cluster => Pos::new(ox + rng.below(cw), oy + rng.below(ch)),
            Layout::LegalPlay => near_a_stone(rng, &board),
        };
        if !board.is_empty(pos) {
            continue;
        }
        let color = board.side_to_move();
        if matches!(layout, Layout::LegalPlay)
            && (board.makes_five(pos, color) || board.is_forbidden(pos, color))
        {
            continue;
        }
        board.play(pos, color);
    }
    board
}

fn near_a_stone(rng: &mut Rng, board: &Board) -> Pos {
    let size = board.size();
    let history = board.history();
    if history.is_empty() || rng.below(10) == 0 {
        return Pos::new(rng.below(size.width()), rng.below(size.height()));
    }
    let anchor = history[rng.below(history.len())];
    let dx = rng.below(5) as i32 - 2;
    let dy = rng.below(5) as i32 - 2;
    let x = (anchor.x() as i32 + dx).clamp(0, size.width() as i32 - 1);
    let y = (anchor.y() as i32 + dy).clamp(0, size.height() as i32 - 1);
    Pos::new(x as usize, y as usize)
}

const LAYOUTS: [Layout; 3] = [Layout::Uniform, Layout::Cluster, Layout::LegalPlay];

#[test]
fn fast_fouls_equal_naive_fouls_on_random_positions() {
    let mut rng = Rng::new(2026);
    let (mut verdicts, mut fouls) = (0, 0);
    for round in 0..1500 {
        let layout = LAYOUTS[round % LAYOUTS.len()];
        let board = random_position(&mut rng, Rule::Renju, layout);
        let mut naive = naive_of(&board);
        for pos in board.size().points().filter(|&p| board.is_empty(p)) {
            let fast = board.foul(pos);
            let slow = naive.foul(pos.x() as i32, pos.y() as i32);
            assert_eq!(
                fast,
                slow,
                "{layout:?} at {}\n{board:?}",
                board.size().to_human(pos)
            );
            verdicts += 1;
            fouls += usize::from(fast.is_some());
        }
    }
    assert!(
        verdicts > 150_000 && fouls > 2_000,
        "{verdicts} verdicts, {fouls} fouls"
    );
}

#[test]
fn fives_and_five_patterns_equal_the_naive_win_scan_under_every_rule() {
    let mut rng = Rng::new(7);
    let mut wins = 0;
    for round in 0..600 {
        let rule = Rule::ALL[round % Rule::ALL.len()];
        let layout = LAYOUTS[(round / 5) % 2];
        let board = random_position(&mut rng, rule, layout);
        let mut naive = naive_of(&board);
        for pos in board.size().points().filter(|&p| board.is_empty(p)) {
            for color in [Color::Black, Color::White] {
                let fast = board.makes_five(pos, color);
                let slow = naive.wins(rule, pos.x() as i32, pos.y() as i32, color);
                let by_pattern = Direction::ALL
                    .into_iter()
                    .any(|dir| board.pattern(pos, dir, color) == Pattern::F5);
                let at = board.size().to_human(pos);
                assert_eq!(fast, slow, "{rule:?} {color:?} at {at}\n{board:?}");
                assert_eq!(
                    by_pattern, slow,
                    "{rule:?} {color:?} pattern at {at}\n{board:?}"
                );
                wins += usize::from(fast);
            }
        }
    }
    assert!(wins > 1_000, "only {wins} winning points seen");
}

#[test]
fn undo_restores_the_exact_state() {
    let mut rng = Rng::new(99);
    for round in 0..200 {
        let rule = Rule::ALL[round % Rule::ALL.len()];
        let mut board = random_position(&mut rng, rule, Layout::Uniform);
        let before = format!("{board:?}");
        let hash = board.hash();
        let patterns: Vec<Pattern> = patterns_of(&board);
        let extra: Vec<Pos> = board
            .size()
            .points()
            .filter(|&p| board.is_empty(p))
            .take(7)
            .collect();
        for &pos in &extra {
            board.play(pos, board.side_to_move());
        }
        for _ in &extra {
            board.undo();
        }
        assert_eq!(format!("{board:?}"), before);
        assert_eq!(board.hash(), hash);
        assert_eq!(patterns_of(&board), patterns);
    }
}

fn patterns_of(board: &Board) -> Vec<Pattern> {
    let mut all = Vec::new();
    for pos in board.size().points().filter(|&p| board.is_empty(p)) {
        for dir in Direction::ALL {
            all.push(board.pattern(pos, dir, Color::Black));
            all.push(board.pattern(pos, dir, Color::White));
        }
    }
    all
}
