//! Benchmarks that print figures (never timed tests): the search's node-count signature and
//! speed, and the rules layer's speed on crowded middle-game positions.

use crate::eval::evaluator::EvalKind;
use crate::game::{Board, BoardSize, Color, Pos, Rule};
use crate::rng::Rng;
use crate::search::params::WIN_THRESHOLD;
use crate::search::time::TimeBudget;
use crate::search::tt::Table;
use crate::search::{search, Limits, Silent, Stop};
use std::time::{Duration, Instant};

/// The search bench: positions of every rule, searched to a fixed depth with a fixed-size
/// table cleared before each, one thread. The node total is the code's fingerprint.
pub const BENCH_POSITIONS: [(Rule, usize, &str); 9] = [
    (Rule::Freestyle, 20, "k10 l11 l10 j10 k11 k9 m12 j9"),
    (Rule::Freestyle, 20, "k10 k11 l11 j9 m12 n13 l10 l12 j11"),
    (Rule::Standard, 15, "h8 i9 j8 i8 i7 j6 g9 h10 k9"),
    (Rule::Standard, 15, "h8 h9 h10 i9 g9 j9 k9 i10 i8"),
    (Rule::Renju, 15, "h8 h9 j8 i9 j9 j10 k8"),
    (Rule::Renju, 15, "h8 i9 j10 i8 i10 h10 g9 j7"),
    (Rule::Caro, 15, "h8 i9 g10 i7 h10 h9 g9 f8"),
    (Rule::CaroExact, 15, "h8 i9 g9 g8 i7 f10 h7 h9"),
    // A crowded late middle game (100 stones, fours on both sides): from a Rapfi–PentaZen
    // game where the quiescence once could not finish depth 1 in half a second.
    (
        Rule::Freestyle,
        15,
        "i9 g7 h8 h10 g9 i7 f7 h9 f10 g5 f8 f9 e8 g8 g6 d9 e10 e9 d6 f6 e7 c5 e5 f4 e4 e6 h6 \
         h5 f5 h7 j5 j7 k7 k8 i6 k6 l5 i10 j9 g10 i8 i12 j11 h12 h11 j12 k12 i11 j10 k11 i13 \
         e11 f12 l6 m6 k5 m7 m9 k4 j3 b7 d7 n7 o8 m4 m5 l3 m2 l4 n4 b9 j4 b8 b10 i3 d11 f11 \
         d12 d10 f14 g13 m10 m12 k13 l14 l11 n11 e3 b6 b5 h13 e13 c11 d2 c1 k14 n8 k2 c8 d8",
    ),
];
const BENCH_DEPTH: u32 = 8;
const BENCH_TABLE_BYTES: u64 = 16 << 20;

/// One bench position's outcome.
#[derive(Clone, Debug)]
pub struct BenchLine {
    pub rule: Rule,
    pub size: BoardSize,
    pub best: Option<Pos>,
    pub score: i32,
    pub nodes: u64,
    pub depth: u32,
}

impl BenchLine {
    /// Whether the search ended with a proven win or loss: it stops there, whatever the
    /// time left, so its depth says when the proof was found, not how deep it could go.
    pub fn proven(&self) -> bool {
        self.score.abs() > WIN_THRESHOLD
    }
}

/// The search bench's figures.
#[derive(Clone, Debug)]
pub struct SearchFigures {
    pub lines: Vec<BenchLine>,
    pub nodes: u64,
    pub elapsed: Duration,
}

impl SearchFigures {
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The mean depth the positions reached.
    pub fn mean_depth(&self) -> f64 {
        mean_depth(self.lines.iter()).0
    }

    /// The mean depth of the positions the search did not end with a proof, and how many
    /// they are.
    pub fn mean_depth_unproven(&self) -> (f64, usize) {
        mean_depth(self.lines.iter().filter(|l| !l.proven()))
    }
}

/// The mean depth of `lines`, and how many they are.
fn mean_depth<'a>(lines: impl Iterator<Item = &'a BenchLine>) -> (f64, usize) {
    let (total, count) = lines.fold((0u32, 0usize), |(t, n), l| (t + l.depth, n + 1));
    (total as f64 / count.max(1) as f64, count)
}

/// A bench position: moves in renju notation, alternately black and white.
pub fn bench_board(rule: Rule, side: usize, moves: &str) -> Board {
    let size = BoardSize::square(side).expect("bench sizes are valid");
    let mut board = Board::new(size, rule);
    for text in moves.split_whitespace() {
        let pos = size.parse_human(text).expect("bench moves are valid");
        board.play(pos, board.side_to_move());
    }
    board
}

/// Runs the search bench to `depth` (the signature uses [`BENCH_DEPTH`]) with the
/// evaluation `eval` (each evaluation has its own signature).
pub fn search_bench(depth: Option<u32>, eval: EvalKind) -> SearchFigures {
    run_bench(&Limits {
        max_depth: Some(depth.unwrap_or(BENCH_DEPTH)),
        multipv: 1,
        eval,
        ..Limits::default()
    })
}

/// The bench positions searched for `millis` each by `threads` threads (not deterministic:
/// a speed figure).
pub fn timed_bench(millis: u64, threads: usize, eval: EvalKind) -> SearchFigures {
    let time = Duration::from_millis(millis);
    run_bench(&Limits {
        time: Some(TimeBudget {
            optimum: time,
            maximum: time,
            clock: false,
        }),
        multipv: 1,
        threads,
        eval,
        ..Limits::default()
    })
}

fn run_bench(limits: &Limits) -> SearchFigures {
    let mut table = Table::with_bytes(BENCH_TABLE_BYTES);
    let stop = Stop::new();
    let start = Instant::now();
    let lines = BENCH_POSITIONS
        .iter()
        .map(|&(rule, side, moves)| {
            let mut board = bench_board(rule, side, moves);
            table.clear();
            let result = search(&mut board, &mut table, limits, &stop, &mut Silent);
            BenchLine {
                rule,
                size: board.size(),
                best: result.best,
                score: result.score,
                nodes: result.nodes,
                depth: result.depth,
            }
        })
        .collect::<Vec<_>>();
    SearchFigures {
        nodes: lines.iter().map(|l| l.nodes).sum(),
        lines,
        elapsed: start.elapsed(),
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn line(score: i32, depth: u32) -> BenchLine {
        BenchLine {
            rule: Rule::Freestyle,
            size: BoardSize::square(15).expect("15 is a valid size"),
            best: None,
            score,
            nodes: 1,
            depth,
        }
    }

    #[test]
    fn proven_positions_are_left_out_of_the_second_mean() {
        let figures = SearchFigures {
            lines: vec![
                line(12, 14),
                line(WIN_THRESHOLD + 1, 9),
                line(-12, 12),
                line(-WIN_THRESHOLD - 1, 4),
            ],
            nodes: 4,
            elapsed: Duration::from_secs(1),
        };
        assert_eq!(figures.mean_depth(), 9.75);
        assert_eq!(figures.mean_depth_unproven(), (13.0, 2));
        assert!(!line(WIN_THRESHOLD, 3).proven());
    }
}
