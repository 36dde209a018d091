//! The search on built positions: it never misses a win in one or a forced block under any
//! rule, it is deterministic, it answers at once when there is no time, and thousands of
//! self-play games at tiny node limits contain no illegal or forbidden move.

mod common;

use common::{board_with, points, size15};
use quinto::eval::evaluator::EvalKind;
use quinto::game::{judge_move, Board, BoardSize, Color, Rule, Verdict};
use quinto::rng::Rng;
use quinto::search::time::TimeBudget;
use quinto::search::tt::Table;
use quinto::search::{search, Limits, SearchResult, Silent, Stop};
use std::time::Duration;

fn think(board: &mut Board, limits: &Limits) -> SearchResult {
    let mut table = Table::with_bytes(1 << 20);
    search(board, &mut table, limits, &Stop::new(), &mut Silent)
}

fn tiny(depth: u32, nodes: u64) -> Limits {
    Limits {
        max_depth: Some(depth),
        max_nodes: Some(nodes),
        multipv: 1,
        time: None,
        started: None,
        plain: false,
        threads: 1,
        eval: EvalKind::Classical,
        blocked: Vec::new(),
        tree_stats: false,
    }
}

/// Black to move with d8-g8: c8 or h8 wins (white has an open three elsewhere).
fn black_to_win_in_one(rule: Rule) -> Board {
    board_with(
        size15(),
        rule,
        &points("d8 e8 f8 g8"),
        &points("d11 e11 f11 a1"),
    )
}

#[test]
fn never_misses_a_win_in_one_under_any_rule_or_limit() {
    for rule in Rule::ALL {
        for (depth, nodes) in [(1, 1), (1, 50), (3, 500), (6, 20_000)] {
            let mut board = black_to_win_in_one(rule);
            let best = think(&mut board, &tiny(depth, nodes)).best.expect("a move");
            assert!(
                points("c8 h8").contains(&best),
                "{rule:?} depth {depth} nodes {nodes}: {best:?}"
            );
        }
    }
}

#[test]
fn blocked_points_are_never_the_answer_unless_every_point_is_blocked() {
    for threads in [1, 2] {
        // One winning point blocked: the other; both: another move.
        for blocked in ["c8", "c8 h8"] {
            let mut board = black_to_win_in_one(Rule::Freestyle);
            let limits = Limits {
                threads,
                multipv: 3,
                blocked: points(blocked),
                ..tiny(4, 20_000)
            };
            let result = think(&mut board, &limits);
            let best = result.best.expect("a move");
            for pos in result.ranked.iter().map(|r| r.0).chain([best]) {
                assert!(!points(blocked).contains(&pos), "{blocked}: {pos:?}");
            }
        }
    }
    // Every empty point blocked: a legal move all the same.
    let mut board = black_to_win_in_one(Rule::Freestyle);
    let every: Vec<_> = board.size().points().collect();
    let limits = Limits {
        blocked: every,
        ..tiny(4, 20_000)
    };
    let best = think(&mut board, &limits).best.expect("a move");
    assert!(board.is_empty(best));
}

#[test]
fn never_misses_a_forced_block_under_any_rule_or_limit() {
    for rule in Rule::ALL {
        for (depth, nodes) in [(1, 1), (1, 50), (3, 500), (6, 20_000)] {
            // White's c10 blocks nothing: white threatens h10 (d10-g10, c10 black).
            let mut board = board_with(
                size15(),
                rule,
                &points("c10 a1 a3 a5"),
                &points("d10 e10 f10 g10"),
            );
            let best = think(&mut board, &tiny(depth, nodes)).best.expect("a move");
            assert_eq!(
                best,
                size15().parse_human("h10").unwrap(),
                "{rule:?} depth {depth} nodes {nodes}"
            );
        }
    }
}

#[test]
fn renju_black_never_plays_a_forbidden_point_even_to_block() {
    // White threatens five at h8; h8 is a double four for black: black cannot block, and
    // must not play there (any other move loses too, but a foul is not a move).
    let mut board = board_with(
        size15(),
        Rule::Renju,
        &points("e8 f8 g8 h5 h6 h7 a1"),
        &points("h9 h10 h11 h12 b2 b4 b6"),
    );
    let h8 = size15().parse_human("h8").unwrap();
    assert!(board.is_forbidden(h8, Color::Black));
    for (depth, nodes) in [(1, 1), (4, 5_000)] {
        let result = think(&mut board, &tiny(depth, nodes));
        let best = result.best.expect("a legal move exists");
        assert_ne!(best, h8);
        assert!(!board.is_forbidden(best, Color::Black));
        // A 1-node search proves nothing; a real one sees the loss.
        if nodes > 1 {
            assert!(result.score < 0, "black is lost: {}", result.score);
        }
    }
}

#[test]
fn white_wins_by_forcing_black_onto_a_forbidden_point() {
    // h8 is forbidden for black (double four); white's f10-g9 line makes a four whose only
    // block is h8.
    let mut board = board_with(
        size15(),
        Rule::Renju,
        &points("e8 f8 g8 h5 h6 h7 a1 a15"),
        &points("j12 i11 b2 b4 b6 b8 b10"),
    );
    let result = think(&mut board, &tiny(4, 20_000));
    assert!(
        result.mate_in().map_or(false, |n| n > 0),
        "white should see the win: {result:?}"
    );
}

/// Positions full of threats for both sides: open and split threes, fours in waiting.
fn threat_positions(rule: Rule) -> Vec<Board> {
    vec![
        board_with(
            size15(),
            rule,
            &points("i8 j9 k10 l11 l12"),
            &points("h8 h7 g6 f5 g9"),
        ),
        board_with(
            size15(),
            rule,
            &points("d12 e12 f12 d10 d9 d8 j6 l6 m6 a15"),
            &points("k12 k11 k10 m3 l3 n3 h3 i4 g2 b14"),
        ),
    ]
}

/// On every threat position of `rule`, `threads` threads at a limit of `nodes` count no more
/// than that and still name a legal move.
fn assert_node_limit_bounds_all_the_work(rule: Rule, threads: usize, nodes: u64) {
    for (i, mut board) in threat_positions(rule).into_iter().enumerate() {
        let limits = Limits {
            max_nodes: Some(nodes),
            multipv: 1,
            threads,
            ..Limits::default()
        };
        let result = think(&mut board, &limits);
        assert!(
            result.nodes <= nodes,
            "{rule:?} position {i}, {threads} threads: {} nodes at a limit of {nodes}",
            result.nodes
        );
        let best = result.best.expect("a move");
        assert!(board.is_empty(best) && !board.is_forbidden(best, board.side_to_move()));
    }
}

#[test]
fn a_node_limit_bounds_all_the_work_under_every_rule() {
    for rule in Rule::ALL {
        for nodes in [1, 37, 100, 1_000, 20_000] {
            assert_node_limit_bounds_all_the_work(rule, 1, nodes);
        }
    }
}

#[test]
fn two_threads_share_the_node_limit_and_still_see_every_win_and_block() {
    for rule in Rule::ALL {
        for threads in [2, 3] {
            for nodes in [1, 100, 20_000] {
                assert_node_limit_bounds_all_the_work(rule, threads, nodes);
            }
            let mut win = black_to_win_in_one(rule);
            let limits = Limits {
                threads,
                ..tiny(6, 20_000)
            };
            let best = think(&mut win, &limits).best;
            assert!(points("c8 h8").contains(&best.expect("a move")), "{rule:?}");
        }
    }
}

#[test]
fn a_quit_signal_stops_every_thread_of_an_unlimited_search() {
    // No clock, no depth or node limit: only the stop signal can end this search, and the
    // helpers only through the main thread. A helper left running would hang the test.
    let stop = Stop::new();
    stop.quit();
    unlimited_search_until(&stop);
}

/// A two-thread search with no limit of its own, which only `stop` can end: it must still
/// give a legal move.
fn unlimited_search_until(stop: &Stop) {
    let mut board = threat_positions(Rule::Freestyle).remove(0);
    let limits = Limits {
        multipv: 1,
        threads: 2,
        ..Limits::default()
    };
    let mut table = Table::with_bytes(1 << 20);
    let result = search(&mut board, &mut table, &limits, stop, &mut Silent);
    let best = result.best.expect("a move even when stopped at once");
    assert!(board.is_empty(best));
}

#[test]
fn the_largest_depth_limit_a_manager_can_send_is_no_overflow() {
    // INFO max_depth 4294967295 and no clock, as a ponder search runs (found by fuzzing).
    let mut board = threat_positions(Rule::Freestyle).remove(0);
    let limits = Limits {
        max_depth: Some(u32::MAX),
        max_nodes: Some(20_000),
        multipv: 1,
        ..Limits::default()
    };
    let mut table = Table::with_bytes(1 << 20);
    let result = search(&mut board, &mut table, &limits, &Stop::new(), &mut Silent);
    assert!(result.best.is_some());
}

#[test]
fn an_input_ends_a_ponder_search_and_only_a_ponder_search() {
    let stop = Stop::new();
    stop.input();
    assert!(
        !stop.is_set(),
        "an input while nothing ponders stops nothing"
    );
    stop.ponder_begin();
    assert!(!stop.is_set());
    // An input that came before the ponder search started still ends it, at once.
    stop.input();
    assert!(stop.is_set());
    unlimited_search_until(&stop);
    stop.ponder_end();
    assert!(!stop.is_set(), "the next search runs");
    stop.input();
    assert!(!stop.is_set());
}

#[test]
fn the_same_search_twice_gives_the_same_nodes_and_move() {
    let limits = tiny(5, 200_000);
    let mut first = board_with(
        size15(),
        Rule::Standard,
        &points("h8 i9 j8 i8"),
        &points("i7 j6 g9 h10"),
    );
    let mut second = first.clone();
    let a = think(&mut first, &limits);
    let b = think(&mut second, &limits);
    assert_eq!((a.best, a.nodes, a.score), (b.best, b.nodes, b.score));
}

#[test]
fn no_time_means_one_ply_and_a_legal_move_at_once() {
    for rule in Rule::ALL {
        let mut board = board_with(size15(), rule, &points("h8 i9 j8"), &points("i7 j6 g9"));
        let limits = Limits {
            time: Some(TimeBudget {
                optimum: Duration::ZERO,
                maximum: Duration::ZERO,
                clock: false,
            }),
            multipv: 1,
            ..Limits::default()
        };
        let result = think(&mut board, &limits);
        assert_eq!(result.depth, 1, "{rule:?}");
        let best = result.best.expect("a move");
        assert!(board.is_empty(best) && !board.is_forbidden(best, board.side_to_move()));
    }
}

/// Self-play at tiny node limits, every move judged by the rules core. Games per rule and
/// size: `QUINTO_SELFPLAY_GAMES` (scripts/test sets thousands in all), else a few.
#[test]
fn self_play_at_tiny_limits_never_makes_an_illegal_move() {
    let games: usize = std::env::var("QUINTO_SELFPLAY_GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 2 } else { 20 });
    let mut rng = Rng::new(77);
    let mut table = Table::with_bytes(1 << 20);
    let stop = Stop::new();
    let mut tally = [0usize; 3]; // black wins, white wins, draws
    for rule in Rule::ALL {
        for side in [15, 20] {
            let size = BoardSize::square(side).unwrap();
            for _ in 0..games {
                let outcome = play_one(size, rule, &mut rng, &mut table, &stop);
                tally[outcome] += 1;
            }
        }
    }
    println!(
        "self-play: {} games, black/white/draw {:?}",
        games * 10,
        tally
    );
}

/// One game; returns 0 black won, 1 white won, 2 draw.
fn play_one(size: BoardSize, rule: Rule, rng: &mut Rng, table: &mut Table, stop: &Stop) -> usize {
    let mut board = Board::new(size, rule);
    let mut referee = Board::new(size, rule);
    let limits = tiny(1 + rng.below(3) as u32, 50 + rng.below(300) as u64);
    let opening = rng.below(4);
    loop {
        let color = board.side_to_move();
        let pos = if board.stone_count() < opening {
            // A random legal opening stone near the centre, for variety.
            let c = size.center();
            let p = size
                .pos(
                    c.x() as i64 + rng.below(5) as i64 - 2,
                    c.y() as i64 + rng.below(5) as i64 - 2,
                )
                .unwrap();
            if !board.is_empty(p) || board.is_forbidden(p, color) {
                continue;
            }
            p
        } else {
            table.clear();
            match search(&mut board, table, &limits, stop, &mut Silent).best {
                Some(pos) => pos,
                None => {
                    // Only when nothing is legal: renju black left with forbidden points.
                    let legal = size
                        .points()
                        .any(|p| board.is_empty(p) && !board.is_forbidden(p, color));
                    assert!(!legal, "no move in {rule:?} {limits:?}\n{board:?}");
                    return 2;
                }
            }
        };
        let verdict = judge_move(&mut referee, pos.x() as i64, pos.y() as i64, color, None);
        board.play(pos, color);
        match verdict {
            Verdict::Continue => {}
            Verdict::Win => return color.index(),
            Verdict::Draw => return 2,
            illegal => {
                panic!("{rule:?} {size:?}: {color:?} played {pos:?}: {illegal:?}\n{board:?}")
            }
        }
    }
}

/// Yixin-Board's "defend" after its "multi-PV": white is lost (black's i7 made a winning
/// threat). The search proves it at once from the table the n-best search left, and the
/// ranking's shallower look at white's other moves (its fours on the a file delay the loss
/// past that horizon) must not present any of them as holding.
#[test]
fn a_proven_loss_bounds_every_ranked_root_move() {
    let mut table = Table::with_bytes(1 << 20);
    let mut board = board_with(
        size15(),
        Rule::Renju,
        &points("h8 j8 i10 i9"),
        &points("h9 a1 a3 a5"),
    );
    let limits = |multipv| Limits {
        multipv,
        ..tiny(12, 200_000)
    };
    let black = search(
        &mut board,
        &mut table,
        &limits(3),
        &Stop::new(),
        &mut Silent,
    );
    let win = black.best.expect("a move");
    assert!(black.mate_in().map_or(false, |n| n > 0), "{black:?}");
    board.play(win, Color::Black);
    let white = search(
        &mut board,
        &mut table,
        &limits(64),
        &Stop::new(),
        &mut Silent,
    );
    assert!(white.mate_in().map_or(false, |n| n < 0), "{white:?}");
    for fours in points("a2 a4") {
        let (_, score) = white.ranked.iter().find(|r| r.0 == fours).expect("ranked");
        assert!(
            *score <= white.score,
            "{fours:?} {score} above {}",
            white.score
        );
    }
}

/// Records every finished iteration.
#[derive(Default)]
struct Iterations(Vec<SearchResult>);

impl quinto::search::Reporter for Iterations {
    fn iteration(&mut self, result: &SearchResult) {
        self.0.push(result.clone());
    }
}

#[test]
fn every_iteration_ranks_its_moves_best_first_in_the_order_of_their_values() {
    for (rule, stones) in [
        (Rule::Freestyle, "h8 i9 j8 i8 i7 j6 g9 h10 k9"),
        (Rule::Renju, "h8 i9 j10 i8 i10 h10 g9 j7"),
        (Rule::Standard, "h8 h9 h10 i9 g9 j9 k9 i10 i8"),
    ] {
        let size = size15();
        let mut board = Board::new(size, rule);
        for text in stones.split_whitespace() {
            let pos = size.parse_human(text).expect("a point");
            board.play(pos, board.side_to_move());
        }
        let mut table = Table::with_bytes(1 << 20);
        let mut iterations = Iterations::default();
        let limits = Limits {
            multipv: 4,
            ..tiny(5, u64::MAX)
        };
        let result = search(
            &mut board,
            &mut table,
            &limits,
            &Stop::new(),
            &mut iterations,
        );
        assert!(!iterations.0.is_empty(), "{stones}");
        for seen in iterations.0.iter().chain([&result]) {
            assert_eq!(seen.ranked.len(), 4, "{stones}: {seen:?}");
            assert_eq!(seen.ranked[0], (seen.best.expect("a move"), seen.score));
            assert!(
                seen.ranked.windows(2).all(|w| w[0].1 >= w[1].1),
                "{stones}: {:?}",
                seen.ranked
            );
        }
        assert_eq!(result.ranked, iterations.0.last().expect("one").ranked);
    }
}

/// A helper's node count is read from its `Stop` while it runs (the live reports count
/// every thread's nodes): the search asks its `Stop` once a node.
#[test]
fn only_a_search_the_clock_alone_can_end_is_clock_only() {
    let second = TimeBudget {
        optimum: Duration::from_millis(700),
        maximum: Duration::from_millis(1000),
        clock: false,
    };
    let timed = |nodes: Option<u64>, depth: Option<u32>| Limits {
        time: Some(second),
        max_nodes: nodes,
        max_depth: depth,
        ..Limits::default()
    };
    assert!(timed(None, None).clock_only());
    // Yixin-Board's "unlimited" node and depth limits cannot bind within a second.
    assert!(timed(Some(1_000_000_000), Some(100)).clock_only());
    assert!(!timed(Some(3000), None).clock_only());
    assert!(!timed(None, Some(3)).clock_only());
    assert!(!Limits::default().clock_only());
}
