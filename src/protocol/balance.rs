//! Yixin-Board's balance menus (`yxbalanceone S`, `yxbalancetwo S`): the move, or the pair
//! of moves (the side to move's, then the opponent's), after which the position is worth
//! closest to S (0: even) to the side that played last, within the move's time and node
//! limit. Every sequence is sorted by the static evaluation first; the closest few are then
//! searched, the time and the nodes shared among them.

use crate::engine::{Engine, Settings};
use crate::eval::evaluate;
use crate::game::{Board, Pos};
use crate::search::{Silent, Stop};

/// How many of the statically closest sequences a search checks.
const SEARCHED: usize = 8;

/// The balancing `plies` moves (1 or 2) for the side to move, none `blocked`, and what the
/// position after them is worth to the side that played last (searched, or the static
/// evaluation once STOP came); `None` when there is no such sequence.
pub fn balance(
    engine: &mut Engine,
    plies: usize,
    bias: i32,
    blocked: &[Pos],
    stop: &Stop,
) -> Option<(Vec<Pos>, i32)> {
    let mut board = engine.board().clone();
    let mut lines = Vec::new();
    collect(
        &mut board,
        plies,
        &mut Vec::new(),
        false,
        blocked,
        bias,
        &mut lines,
    );
    // Stable: among equals, the first in board order.
    lines.sort_by_key(|(distance, _, _)| *distance);
    lines.truncate(SEARCHED);
    let settings = engine.settings().clone();
    let share = lines.len().max(1);
    let clock = settings.time_left_ms < i64::from(i32::MAX);
    engine.set_settings(Settings {
        turn_ms: settings.turn_ms / share as u64,
        max_nodes: settings.max_nodes.map(|n| (n / share as u64).max(1)),
        time_left_ms: if clock {
            settings.time_left_ms / share as i64
        } else {
            settings.time_left_ms
        },
        ..settings.clone()
    });
    let mut best: Option<(i32, Vec<Pos>, i32)> = None;
    let mut stopped = false;
    for (static_distance, line, static_value) in lines {
        // After STOP, the static evaluation decides the rest.
        let (distance, value) = if stopped {
            (static_distance, static_value)
        } else {
            for &pos in &line {
                engine.play(pos);
            }
            stop.begin();
            let result = engine.think_with(1, &[], stop, &mut Silent);
            stop.end();
            stopped = stop.is_set();
            for &pos in line.iter().rev() {
                engine.remove(pos);
            }
            // The score is the side to move's: the last player's is its negation.
            let value = -result.score;
            ((value - bias).abs(), value)
        };
        if best.as_ref().map_or(true, |(d, _, _)| distance < *d) {
            best = Some((distance, line, value));
        }
    }
    engine.set_settings(settings);
    best.map(|(_, line, value)| (line, value))
}

/// Every legal sequence of `plies` moves with its static distance from `bias` (and its
/// static value to the side that played last): the farthest
/// possible for one that makes a five (`won` on the way) or leaves one to play, as a
/// balance should not decide the game but must answer while any sequence is legal.
fn collect(
    board: &mut Board,
    plies: usize,
    line: &mut Vec<Pos>,
    won: bool,
    blocked: &[Pos],
    bias: i32,
    out: &mut Vec<(i32, Vec<Pos>, i32)>,
) {
    let me = board.side_to_move();
    let mut moves: Vec<Pos> = board.candidates().collect();
    if moves.is_empty() {
        // The empty board has no candidates near stones: any point.
        moves = board
            .size()
            .points()
            .filter(|&p| board.is_empty(p))
            .collect();
    }
    moves.retain(|&p| !board.is_forbidden(p, me) && !blocked.contains(&p));
    for pos in moves {
        let won = won || board.makes_five(pos, me);
        board.play(pos, me);
        line.push(pos);
        if line.len() >= plies {
            let value = -evaluate(board, board.side_to_move());
            // A five made, or one left to the side to move: decided, not balanced.
            let decided = won || board.has_five_point(board.side_to_move());
            let distance = if decided {
                i32::MAX
            } else {
                (value - bias).abs()
            };
            out.push((distance, line.clone(), value));
        } else {
            collect(board, plies, line, won, blocked, bias, out);
        }
        line.pop();
        board.undo();
    }
}
