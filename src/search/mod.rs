//! Choosing a move. No stdin/stdout here: the caller passes limits and a stop flag and gets a
//! result back.
//!
//! For now this is the simplest honest player — win if possible, block a five, otherwise the
//! best-looking point next to the stones — until the alpha-beta search replaces it.

use crate::eval::point_score;
use crate::game::{Board, Color, Direction, Pattern, Pos};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::time::{Duration, Instant};

/// How a running search is told to stop: "move now" (a GUI's STOP, `INFO timeout_turn 0`) or
/// "quit" (END, which also cuts every later search short). Shared with the input thread.
#[derive(Debug, Default)]
pub struct Stop {
    state: AtomicU8,
    searching: AtomicBool,
}

const RUN: u8 = 0;
const MOVE_NOW: u8 = 1;
const QUIT: u8 = 2;

impl Stop {
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Called as a search starts: forgets an old "move now", never a "quit".
    pub fn begin(&self) {
        let _ = self
            .state
            .compare_exchange(MOVE_NOW, RUN, Ordering::SeqCst, Ordering::SeqCst);
        self.searching.store(true, Ordering::SeqCst);
    }

    pub fn end(&self) {
        self.searching.store(false, Ordering::SeqCst);
    }

    /// "Move now", if a search is running (otherwise there is nothing to cut short).
    pub fn move_now(&self) {
        if self.searching.load(Ordering::SeqCst) {
            let _ = self
                .state
                .compare_exchange(RUN, MOVE_NOW, Ordering::SeqCst, Ordering::SeqCst);
        }
    }

    /// Stop this search and every later one at once.
    pub fn quit(&self) {
        self.state.store(QUIT, Ordering::SeqCst);
    }

    /// Whether the running search must return now.
    #[inline]
    pub fn is_set(&self) -> bool {
        self.state.load(Ordering::Relaxed) != RUN
    }
}

/// What the caller allows the search.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration (`INFO max_depth`).
    pub max_depth: Option<u32>,
    /// Node budget (`INFO max_node`).
    pub max_nodes: Option<u64>,
    /// How many best moves to rank (`YXNBEST`); at least 1.
    pub multipv: usize,
}

/// A search's answer.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The best move, or `None` when there is no legal move.
    pub best: Option<Pos>,
    /// From the mover's side, in evaluation units.
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Principal variation, starting with `best`.
    pub pv: Vec<Pos>,
    /// The best moves with their scores, best first (`multipv` of them at most).
    pub ranked: Vec<(Pos, i32)>,
}

/// Picks a move for the side to move.
pub fn search(board: &Board, limits: &Limits, _stop: &Stop) -> SearchResult {
    let start = Instant::now();
    let me = board.side_to_move();
    let mut ranked = rank_moves(board, me);
    ranked.truncate(limits.multipv.max(1));
    let best = ranked.first().copied();
    SearchResult {
        best: best.map(|(pos, _)| pos),
        score: best.map_or(0, |(_, score)| score),
        depth: 1,
        nodes: ranked.len() as u64,
        elapsed: start.elapsed(),
        pv: best.map(|(pos, _)| vec![pos]).unwrap_or_default(),
        ranked,
    }
}

/// Every legal move for `me`, best first: fives, then blocks of the opponent's fives, then
/// by point score; ties go to the point nearest the centre, then the lowest index.
fn rank_moves(board: &Board, me: Color) -> Vec<(Pos, i32)> {
    let size = board.size();
    let center = size.center();
    let near = |pos: Pos| board.stone_count() == 0 || board.has_stone_near(pos, 2);
    let mut moves: Vec<(Pos, i32)> = size
        .points()
        .filter(|&p| board.is_empty(p) && near(p) && !board.is_forbidden(p, me))
        .map(|p| {
            let score = if makes_five(board, p, me) {
                1_000_000
            } else if makes_five(board, p, me.opponent()) {
                500_000
            } else {
                point_score(board, p, me)
            };
            (p, score)
        })
        .collect();
    if moves.is_empty() {
        // Nothing next to the stones is legal: any legal point will do.
        moves = size
            .points()
            .filter(|&p| board.is_empty(p) && !board.is_forbidden(p, me))
            .map(|p| (p, 0))
            .collect();
    }
    let distance = |p: Pos| {
        let dx = p.x() as i32 - center.x() as i32;
        let dy = p.y() as i32 - center.y() as i32;
        dx * dx + dy * dy
    };
    moves.sort_by_key(|&(p, score)| (-score, distance(p), p));
    moves
}

fn makes_five(board: &Board, pos: Pos, color: Color) -> bool {
    Direction::ALL
        .into_iter()
        .any(|dir| board.pattern(pos, dir, color) == Pattern::F5)
}
