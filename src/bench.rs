//! Benchmarks that print figures (never timed tests): the search's node-count signature and
//! speed, and the rules layer's speed on crowded middle-game positions.

use crate::eval::evaluator::EvalKind;
use crate::game::{Board, BoardSize, Color, Pos, Rule};
use crate::rng::Rng;
use crate::search::params::WIN_THRESHOLD;
use crate::search::time::TimeBudget;
use crate::search::tree_stats::TreeStats;
use crate::search::tt::Table;
use crate::search::{search, Limits, Silent, Stop};
pub use crate::tactics_suite::Tactic;
use std::borrow::Cow;
use std::time::{Duration, Instant};

pub mod hash;

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

/// The tactics bench: positions where the side to move has a long forced win, each the first
/// position of a ladder game lost by Quinto (stop 71, 1 s a move against Rapfi with its
/// classical evaluation) where Rapfi, searching it afresh for a second, proved the win
/// (its mate length and nodes with each). Searched to a node limit, fresh table each:
/// how many wins the search proves, and how many nodes it takes, is the figure.
pub const TACTICS_POSITIONS: [Tactic; 21] = [
    Tactic {
        rule: Rule::Freestyle,
        side: 15,
        moves: Cow::Borrowed(
            "h8 h9 j10 i9 g9 i7 i10 h10 g11 k7 j8 i8 j7 j9 k10 i6 i5 g6 h7 h6 f6 f7 g10 g8 h12 k9 \
         l9 e8 d9",
        ),
        rapfi_mate_plies: 27,
        rapfi_nodes: 465_000,
        defensible: false,
    },
    Tactic {
        rule: Rule::Freestyle,
        side: 15,
        moves: Cow::Borrowed(
            "h8 h9 i8 i7 g8 f8 h7 g6 k10 k8 j10 i9 j9 l11 j11 j12 i11 g11 f9 e10 h10 i10 h5 h12 \
         i12 l9 i13 h6 h13 g14 i6 j5 h11 g10 g13 f13 j8 j7 j13 k13 e9 j4 k14 l15 l14",
        ),
        rapfi_mate_plies: 19,
        rapfi_nodes: 401_000,
        defensible: false,
    },
    Tactic {
        rule: Rule::Freestyle,
        side: 15,
        moves: Cow::Borrowed(
            "h8 h9 j6 g9 f9 g8 g10 i10 j11 e8 f7 f8 e7 g7 h6 j9 k9 i7 i8 h11 k8 h12 h13 i12 j12",
        ),
        rapfi_mate_plies: 19,
        rapfi_nodes: 327_000,
        defensible: false,
    },
    Tactic {
        rule: Rule::Renju,
        side: 15,
        moves: Cow::Borrowed(
            "h8 h9 i7 g9 i9 g7 i8 i6 i11 i10 g8 f8 j8 k8 h6 k9 j9 k10 k7 h10 j10 k11 k12 j7 h5 h4 \
         g5 f4 f5 e5 d6 e6 e7 i4 j4 j5 l6 m5 k5 i3 k3 i5 i2 h3 g2 g3 j6 l4 e3 k4 h7 g6 l9 j12 \
         m6 e9 e10",
        ),
        rapfi_mate_plies: 15,
        rapfi_nodes: 70_000,
        defensible: false,
    },
    Tactic {
        rule: Rule::Renju,
        side: 15,
        moves: Cow::Borrowed(
            "h8 i9 j6 g9 h6 g8 h9 h10 g10 i11 j12 i6 j8 g5 i8 j7 k8 l8 k9 f8 e7 h7 i7 l10 j5 h5 \
         i4 l7 k5 l4 k7 k6 l6 l5 j4 i3 k3 g4 f3 i5 f5 k10 l9 f11 f9 h11 g11 g12 j10",
        ),
        rapfi_mate_plies: 25,
        rapfi_nodes: 585_000,
        defensible: false,
    },
    Tactic {
        rule: Rule::Renju,
        side: 15,
        moves: Cow::Borrowed(
            "h8 i9 g7 h9 g9 i7 g8 g6 i8 f8 e11 f10 g11 g10 e10 d11 e12 e13 d10 j8 f12 c9 g12 h12 \
         f11 d9 f14 h11 h13 i14 c12 d12 c14 g14 d13 b15 e14 b11 g13 h14 j13 i13 f13 f15 b14 \
         d14 c11",
        ),
        rapfi_mate_plies: 17,
        rapfi_nodes: 116_000,
        defensible: false,
    },
    Tactic {
        rule: Rule::Freestyle,
        side: 20,
        moves: Cow::Borrowed(
            "i10 g8 k8 i12 g12 h11 g10 h10 h9 i8 g9 f9 h8 g11 i7 j6 f11 h13 i9 j11 k10 k9 h12 j10 \
         h7 l8 i11 k7 m9 e12 j7 h6 g7 f7 f6 e5 f14 e11 e13 d12 g14",
        ),
        rapfi_mate_plies: 51,
        rapfi_nodes: 446_000,
        defensible: false,
    },
    Tactic {
        rule: Rule::Freestyle,
        side: 20,
        moves: Cow::Borrowed("i10 j10 g10 i12 j8 j12 k12"),
        rapfi_mate_plies: 23,
        rapfi_nodes: 489_000,
        defensible: false,
    },
    Tactic {
        rule: Rule::Freestyle,
        side: 20,
        moves: Cow::Borrowed("k10 l11 i8 m11 k11 k12 k8 l12 l8"),
        rapfi_mate_plies: 29,
        rapfi_nodes: 532_000,
        defensible: false,
    },
    Tactic {
        rule: Rule::Freestyle,
        side: 20,
        moves: Cow::Borrowed(
            "k12 m12 k13 k14 m10 l13 j15 l11 l12 k10 j9 j14 l14 m15 o10 m16 n10 p10 o12",
        ),
        rapfi_mate_plies: 29,
        rapfi_nodes: 554_000,
        defensible: false,
    },
    Tactic {
        rule: Rule::Freestyle,
        side: 20,
        moves: Cow::Borrowed(
            "i12 j14 k10 h13 h12 i14 k12 g12 j15 k13 k14 l12 i15 l13 l15 j13 i13 h15 m14 g14 m15 \
         k15 m13 m16 f13",
        ),
        rapfi_mate_plies: 23,
        rapfi_nodes: 147_000,
        defensible: false,
    },
    Tactic {
        rule: Rule::Freestyle,
        side: 20,
        moves: Cow::Borrowed(
            "k11 m9 m13 j11 k8 j10 j9 l8 k10 k9 m7 l7 l9 m10 m12 l11 k12 n10 o11 o10 p10 n12 n8 \
         o9 m11 k13 p11 p9 n13 m15 p13 o13 m14 q10 q9 o8 q11 n11 r11 s11 p7 j6 k7 l4 o7 n7 m6 \
         k5 m3 k6 l15 o12 m5 m4 l6",
        ),
        rapfi_mate_plies: 27,
        rapfi_nodes: 520_000,
        defensible: false,
    },
    Tactic {
        rule: Rule::Freestyle,
        side: 20,
        moves: Cow::Borrowed(
            "i11 g11 i13 g12 k9 h13 h14 j12 i14 i12 h12 g13 g14 j14 g10 j10 j11 l12 k12 k11 i9 \
         m13 n14 m11 k13 m10 m9 i10 m14 f13 h11 e13 d13 f12 h10 l9 l10 n11 h9 h8 o12 f11 f10",
        ),
        rapfi_mate_plies: 21,
        rapfi_nodes: 77_000,
        defensible: false,
    },
    Tactic {
        rule: Rule::Freestyle,
        side: 20,
        moves: Cow::Borrowed(
            "j10 i8 l8 k9 j8 j7 k7 i9 h9 i6 i7 h5 g4 j6 g5 g6 h6 f4 h7 f7 i4 e8 d9 f8 f6 e7 c7 \
         h10 g9 f9 g10 l5 l6 l9 k8 m8 j9 n7 j11 j12 o6",
        ),
        rapfi_mate_plies: 31,
        rapfi_nodes: 441_000,
        defensible: false,
    },
    Tactic {
        rule: Rule::Freestyle,
        side: 20,
        moves: Cow::Borrowed("i10 k10 k11 j13 h12 l11 j9 k12 m10 h11 i12 l13 m13"),
        rapfi_mate_plies: 45,
        rapfi_nodes: 410_000,
        defensible: false,
    },
    Tactic {
        rule: Rule::Freestyle,
        side: 20,
        moves: Cow::Borrowed("j10 j12 k9 i10 l14 i11 i9 k11 j11"),
        rapfi_mate_plies: 23,
        rapfi_nodes: 345_000,
        defensible: false,
    },
    Tactic {
        rule: Rule::Freestyle,
        side: 20,
        moves: Cow::Borrowed("k12 l14 m10 i10 g12 j13 j14 i12 k14 i11 i13 k13 j12 k11 i9 l11 j11"),
        rapfi_mate_plies: 23,
        rapfi_nodes: 91_000,
        defensible: false,
    },
    Tactic {
        rule: Rule::Freestyle,
        side: 20,
        moves: Cow::Borrowed(
            "i11 k13 m14 i12 j11 k12 l12 k11 k14 l14 m12 l13 m13 m15 n16 m10 k9 h12 j13 g11 j12 \
         j14 f10 h10 j9 j10 f12 f11 h9 i9 l15 h13 i14 g10 j16 n17 k16 j17 g8 l16 k17 k15 i13 \
         e10 g13 i15 h14 e11 h11 g12 d9 g15 n13 o12 g14",
        ),
        rapfi_mate_plies: 23,
        rapfi_nodes: 120_000,
        defensible: false,
    },
    Tactic {
        rule: Rule::Freestyle,
        side: 20,
        moves: Cow::Borrowed(
            "j12 h12 j14 k13 j10 j13 i13 k11 k12 m12 l13 m14 j11 h9 i12 i14 k10 l9 l16 k15 j8 j9 \
         k9 m15 m11 l10 l8 m7 k7 k8 j6 i5 l6 i9 l15 m16 m13 l17 h13 g14 l14 l12 m17",
        ),
        rapfi_mate_plies: 55,
        rapfi_nodes: 690_000,
        defensible: false,
    },
    Tactic {
        rule: Rule::Freestyle,
        side: 20,
        moves: Cow::Borrowed(
            "k12 i11 h9 j11 k10 j10 j9 k9 h12 i8 h11 h10 j12 i12 j8 i10 i9 f10 g10 f8 f11 f9 e7 \
         g7 g11 h6 e9 e11 g8",
        ),
        rapfi_mate_plies: 29,
        rapfi_nodes: 209_000,
        defensible: false,
    },
    Tactic {
        rule: Rule::Freestyle,
        side: 20,
        moves: Cow::Borrowed(
            "i10 k9 i9 k8 l11 i8 k10 j8 l8 l10 i7 m9 n9 j7 m10 k12 j6 k6 l5 j12 k11",
        ),
        rapfi_mate_plies: 23,
        rapfi_nodes: 453_000,
        defensible: false,
    },
];
/// The tactics bench's node limit a position: about a second's search here.
pub const TACTICS_NODES: u64 = 1_000_000;
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
    /// Where the nodes went (the tactics bench's `--tree`).
    pub tree: Option<Box<TreeStats>>,
    /// The nodes searched when the win was proven (the search may go on for a shorter mate).
    pub proof_nodes: Option<u64>,
}

impl BenchLine {
    /// Whether the search ended with a proven win or loss: it stops there, whatever the
    /// time left, so its depth says when the proof was found, not how deep it could go.
    pub fn proven(&self) -> bool {
        self.score.abs() > WIN_THRESHOLD
    }

    /// Whether the search proved a win for the side to move (the tactics bench's figure: a
    /// proved loss there would be a wrong proof, not a solved position).
    pub fn won(&self) -> bool {
        self.score > WIN_THRESHOLD
    }

    /// The nodes the search needed to prove its win, if it proved one.
    pub fn nodes_to_win(&self) -> Option<u64> {
        self.proof_nodes.filter(|_| self.won())
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
    run_bench(
        BENCH_POSITIONS.iter().copied(),
        &Limits {
            max_depth: Some(depth.unwrap_or(BENCH_DEPTH)),
            multipv: 1,
            eval,
            ..Limits::default()
        },
    )
}

/// The bench positions searched for `millis` each by `threads` threads (not deterministic:
/// a speed figure).
pub fn timed_bench(millis: u64, threads: usize, eval: EvalKind) -> SearchFigures {
    let time = Duration::from_millis(millis);
    run_bench(
        BENCH_POSITIONS.iter().copied(),
        &Limits {
            time: Some(TimeBudget {
                optimum: time,
                maximum: time,
                clock: false,
            }),
            multipv: 1,
            threads,
            eval,
            ..Limits::default()
        },
    )
}

/// The tactics bench: each position searched to `nodes` nodes with `eval`; with `tree`, the
/// lines say where the nodes went.
pub fn tactics_bench(tactics: &[Tactic], nodes: u64, eval: EvalKind, tree: bool) -> SearchFigures {
    run_bench(
        tactics.iter().map(|t| (t.rule, t.side, &*t.moves)),
        &Limits {
            max_nodes: Some(nodes),
            multipv: 1,
            eval,
            tree_stats: tree,
            ..Limits::default()
        },
    )
}

/// The defence score of a suite: in how many of the defender's positions (one move before
/// each win, where Rapfi held them not lost) a search of `nodes` answers otherwise than the
/// move that let the win in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DefenceFigures {
    pub positions: usize,
    pub avoided: usize,
}

pub fn defence_bench(tactics: &[Tactic], nodes: u64, eval: EvalKind) -> DefenceFigures {
    let defences: Vec<(&Tactic, &str, &str)> = tactics
        .iter()
        .filter(|t| t.defensible)
        .filter_map(|t| t.defence().map(|(before, lost)| (t, before, lost)))
        .collect();
    let figures = run_bench(
        defences
            .iter()
            .map(|&(t, before, _)| (t.rule, t.side, before)),
        &Limits {
            max_nodes: Some(nodes),
            multipv: 1,
            eval,
            ..Limits::default()
        },
    );
    let avoided = figures
        .lines
        .iter()
        .zip(&defences)
        .filter(|(line, (_, _, lost))| {
            line.best.map(|b| line.size.to_human(b)).as_deref() != Some(*lost)
        })
        .count();
    DefenceFigures {
        positions: defences.len(),
        avoided,
    }
}

/// Where a proof's nodes go, reply by reply: after the move a search chose, the defender's
/// node searched whole, and each of its replies searched alone (`bench tactics --replies`).
#[derive(Clone, Debug)]
pub struct Replies {
    /// The move the search chose, whose replies these are.
    pub after: Pos,
    /// The defender's node, searched whole.
    pub node: BenchLine,
    /// Each legal reply near the stones with its own search, the dearest first.
    pub replies: Vec<(Pos, BenchLine)>,
}

/// For each position: its search to `nodes`, then the defender's node after the chosen move
/// and every reply there, each searched alone to `nodes` from an empty table. None where
/// the search chose no move or the chosen move ends the game.
pub fn replies_bench(tactics: &[Tactic], nodes: u64, eval: EvalKind) -> Vec<Option<Replies>> {
    let limits = Limits {
        max_nodes: Some(nodes),
        multipv: 1,
        eval,
        ..Limits::default()
    };
    let mut table = Table::with_bytes(BENCH_TABLE_BYTES);
    let stop = Stop::new();
    tactics
        .iter()
        .map(|t| {
            let mut board = bench_board(t.rule, t.side, &t.moves);
            let after = search_line(&mut board, &mut table, &limits, &stop).best?;
            let me = board.side_to_move();
            if board.has_five_point(me) {
                return None;
            }
            board.play(after, me);
            let node = search_line(&mut board, &mut table, &limits, &stop);
            let defender = board.side_to_move();
            let points: Vec<Pos> = board
                .candidates()
                .filter(|&p| !board.is_forbidden(p, defender))
                .collect();
            let mut replies: Vec<(Pos, BenchLine)> = points
                .into_iter()
                .map(|reply| {
                    board.play(reply, defender);
                    let line = search_line(&mut board, &mut table, &limits, &stop);
                    board.undo();
                    (reply, line)
                })
                .collect();
            replies.sort_by_key(|(reply, line)| (std::cmp::Reverse(line.nodes), *reply));
            Some(Replies {
                after,
                node,
                replies,
            })
        })
        .collect()
}

/// One search of `board` from an empty table.
fn search_line(board: &mut Board, table: &mut Table, limits: &Limits, stop: &Stop) -> BenchLine {
    table.clear();
    let result = search(board, table, limits, stop, &mut Silent);
    BenchLine {
        rule: board.rule(),
        size: board.size(),
        best: result.best,
        score: result.score,
        nodes: result.nodes,
        depth: result.depth,
        tree: result.tree,
        proof_nodes: result.proof_nodes,
    }
}

fn run_bench<'a>(
    positions: impl Iterator<Item = (Rule, usize, &'a str)>,
    limits: &Limits,
) -> SearchFigures {
    let mut table = Table::with_bytes(BENCH_TABLE_BYTES);
    let stop = Stop::new();
    let start = Instant::now();
    let lines = positions
        .map(|(rule, side, moves)| {
            let mut board = bench_board(rule, side, moves);
            search_line(&mut board, &mut table, limits, &stop)
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
            tree: None,
            proof_nodes: None,
        }
    }

    #[test]
    fn the_tactics_positions_are_games_going_on_and_a_short_search_answers_each() {
        use crate::game::{judge_move, Verdict};
        for Tactic {
            rule, side, moves, ..
        } in &TACTICS_POSITIONS
        {
            let (rule, side) = (*rule, *side);
            let size = BoardSize::square(side).expect("tactics sizes are valid");
            let mut board = Board::new(size, rule);
            for text in moves.split_whitespace() {
                let pos = size.parse_human(text).expect("tactics moves are valid");
                let color = board.side_to_move();
                let verdict = judge_move(&mut board, pos.x() as i64, pos.y() as i64, color, None);
                assert_eq!(verdict, Verdict::Continue, "{moves}: {text}");
            }
        }
        let figures = tactics_bench(&TACTICS_POSITIONS, 300, EvalKind::Classical, false);
        assert_eq!(figures.lines.len(), TACTICS_POSITIONS.len());
        for line in &figures.lines {
            assert!(line.best.is_some() && line.nodes <= 300, "{line:?}");
        }
    }

    /// The tree statistics account for every node of the main search and its quiescence:
    /// by ply, and again by iteration; the windows that failed are a part of them.
    #[test]
    fn the_tree_statistics_count_each_node_once_by_ply_and_by_iteration() {
        let limit = 20_000;
        let figures = tactics_bench(&TACTICS_POSITIONS[..3], limit, EvalKind::Classical, true);
        for line in &figures.lines {
            let tree = line.tree.as_ref().expect("asked for");
            let by_ply: u64 = tree.main_by_ply.iter().chain(&tree.quiesce_by_ply).sum();
            let by_iteration: u64 = tree.iteration_nodes.iter().sum();
            // The node that reaches the limit is counted, but not searched (no ply).
            let stopped_at_limit = u64::from(line.nodes == limit);
            assert_eq!(by_ply + stopped_at_limit, by_iteration, "{line:?}");
            assert_eq!(by_iteration + tree.solver_nodes, line.nodes, "{line:?}");
            // One count per iteration, the one the limit cut short included.
            let iterations = u64::from(line.depth) + stopped_at_limit;
            assert_eq!(tree.iteration_nodes.len() as u64, iterations, "{line:?}");
            assert!(
                tree.windows >= tree.iteration_nodes.len() as u64,
                "{line:?}"
            );
            assert!(tree.failed_window_nodes <= by_ply, "{line:?}");
        }
    }

    /// A win proven above an aspiration window is kept when the limit cuts short the
    /// re-search for the shortest mate (positions 2 and 5 prove theirs so): the same move and
    /// a proven win, with the nodes the proof took. (Both limits leave the root threat solver
    /// its whole budget, so that the searches are the same up to the cut.)
    #[test]
    fn a_proven_win_survives_a_limit_that_cuts_its_re_search() {
        use crate::search::params::{ROOT_VCF_NODES, ROOT_VCT_NODES};
        for tactic in [&TACTICS_POSITIONS[1], &TACTICS_POSITIONS[4]] {
            let tactics = [tactic.clone()];
            let full = &tactics_bench(&tactics, 1_000_000, EvalKind::Classical, false).lines[0];
            let proof = full.nodes_to_win().expect("proven");
            assert!(proof < full.nodes, "{full:?}");
            let limit = (proof + full.nodes) / 2;
            assert!(limit > 4 * ROOT_VCF_NODES.max(ROOT_VCT_NODES), "{full:?}");
            let cut = &tactics_bench(&tactics, limit, EvalKind::Classical, false).lines[0];
            assert_eq!(cut.nodes, limit, "{cut:?}");
            assert!(cut.won() && cut.best == full.best, "{cut:?} {full:?}");
            assert_eq!(cut.nodes_to_win(), Some(proof), "{cut:?}");
        }
    }

    /// A five to play is a win proven with no search: counted at 0 nodes.
    #[test]
    fn a_five_to_play_is_proven_at_no_nodes() {
        let five = Tactic {
            moves: Cow::Borrowed("h8 a1 i8 a2 j8 a3 k8 a4"),
            ..TACTICS_POSITIONS[0].clone()
        };
        let line = &tactics_bench(&[five], 1_000, EvalKind::Classical, false).lines[0];
        assert!(line.won(), "{line:?}");
        assert_eq!(line.nodes_to_win(), Some(0), "{line:?}");
    }

    /// After the chosen move, every legal point near the stones is a reply, searched once,
    /// the dearest first; a position whose chosen move makes five has none.
    #[test]
    fn the_replies_are_every_point_near_the_stones_dearest_first() {
        let mut tactics = TACTICS_POSITIONS[..1].to_vec();
        let five = Tactic {
            moves: Cow::Borrowed("h8 a1 i8 a2 j8 a3 k8 a4"),
            ..tactics[0].clone()
        };
        tactics.push(five);
        let all = replies_bench(&tactics, 500, EvalKind::Classical);
        let r = all[0].as_ref().expect("a move was chosen");
        let mut board = bench_board(tactics[0].rule, tactics[0].side, &tactics[0].moves);
        board.play(r.after, board.side_to_move());
        let expected: Vec<Pos> = board.candidates().collect();
        let mut replies: Vec<Pos> = r.replies.iter().map(|(p, _)| *p).collect();
        replies.sort();
        assert_eq!(replies, expected);
        assert!(r.replies.windows(2).all(|w| w[0].1.nodes >= w[1].1.nodes));
        assert!(r.node.nodes > 0 && r.node.nodes <= 500);
        assert!(all[1].is_none(), "{:?}", all[1]);
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
        assert!(line(WIN_THRESHOLD + 1, 9).won() && !line(-WIN_THRESHOLD - 1, 4).won());
    }
}
