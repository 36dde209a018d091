//! Which moves a node searches, and in what order.
//!
//! A five is played and an opponent's five blocked before any of this (`alphabeta::forced`).
//! When the opponent has an open three (a point that makes an open four), only the moves
//! that stop it — every point of its line whose stone leaves the opponent without an
//! open-four point, the far points of split threes included — and the mover's own fours can
//! hold; otherwise every candidate near the stones. Moves are ordered by a cheap policy: the
//! shape a stone makes for the mover (attack) and the shape it takes from the opponent
//! (defence), then the line patterns, killers and history; ties by position.

use std::cmp::Ordering;

use super::params::*;
use crate::game::{point_code, Board, Color, Direction, Pattern, Pos, Rule, Shape, POS_COUNT};

/// How far along a line a stone can spoil a three's open-four point.
const REACH: i32 = 5;

/// A move with what ordering and pruning need to know of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub pos: Pos,
    pub score: i32,
    /// The shape it makes for the mover, and the opponent's shape it occupies.
    pub attack: Shape,
    pub defence: Shape,
}

impl Move {
    /// Neither a threat of the mover's nor an answer to one of the opponent's: the moves
    /// that pruning and reductions may cut.
    pub fn is_quiet(&self) -> bool {
        self.attack < Shape::Three && self.defence < Shape::Three
    }
}

impl OrderingTables {
    /// The tables the search orders by under `rule`.
    pub fn for_rule(rule: Rule) -> &'static OrderingTables {
        match rule {
            Rule::Renju => &RENJU_ORDERING,
            _ => &ORDERING,
        }
    }

    /// A move's policy score without killers and history: the pair of its `attack` and
    /// `defence` shapes, the point's codes for both sides and its distance from the last
    /// stones of both sides (what `quinto-policy` fits).
    pub fn score(&self, board: &Board, pos: Pos, me: Color, attack: Shape, defence: Shape) -> i32 {
        let [from_opponent, from_own] = Self::nearness(board, pos);
        self.shapes[attack as usize][defence as usize]
            + self.code_attack[point_code(board, pos, me)]
            + self.code_defence[point_code(board, pos, me.opponent())]
            + from_opponent.map_or(0, |i| self.near_opponent[i])
            + from_own.map_or(0, |i| self.near_own[i])
    }

    /// The `near_opponent` and `near_own` indices of `pos`: its distance from the last stone
    /// and from the one before (none before the first stones).
    pub fn nearness(board: &Board, pos: Pos) -> [Option<usize>; 2] {
        let played = board.history();
        let index = |back: usize| {
            played
                .len()
                .checked_sub(back)
                .map(|i| pos.distance(played[i]).clamp(1, NEAR_DISTANCES) - 1)
        };
        [index(1), index(2)]
    }
}

/// The move order: the higher score first, then the lower point. A total order, so that
/// sorting and picking the best one at a time give the same sequence.
pub(super) fn move_order(a: &Move, b: &Move) -> Ordering {
    b.score.cmp(&a.score).then(a.pos.cmp(&b.pos))
}

/// What ordering learns as the search goes, and what the root may play: move generation's
/// inputs besides the board.
#[derive(Clone, Copy, Debug)]
pub struct Hints<'a> {
    /// The ply's killer moves.
    pub killers: [Option<Pos>; 2],
    /// The mover's history scores, by point.
    pub history: &'a [i32; POS_COUNT],
    /// At the root, when the opponent threatens a VCF: the only moves that may stop it.
    pub allowed: Option<&'a [Pos]>,
    /// At the root: the points the user blocked (Yixin-Board's `yxblock`), never generated.
    pub blocked: &'a [Pos],
}

/// Move generation's working space, kept by the searcher so that nodes allocate nothing.
#[derive(Debug, Default)]
pub struct Scratch {
    /// (point, threat) pairs: which of the opponent's threes each point stops.
    stops: Vec<(Pos, usize)>,
    /// The points that the moves must be chosen from (see [`find_defences`]).
    defences: Vec<Pos>,
    /// Fours with their shapes, before sorting.
    fours: Vec<(Shape, Pos)>,
}

/// Legal moves for `me`, best first.
pub(super) fn ordered_moves(
    board: &Board,
    me: Color,
    hints: &Hints,
    scratch: &mut Scratch,
) -> Vec<Move> {
    let mut moves = Vec::new();
    append_moves(board, me, hints, scratch, &mut moves);
    moves.sort_unstable_by(move_order);
    moves
}

/// The moves of [`ordered_moves`] appended to `moves` (a buffer the search reuses, so that
/// nodes allocate nothing), in no particular order: the search picks them best first itself,
/// as far as it gets (most cut nodes need one or two).
pub(super) fn append_moves(
    board: &Board,
    me: Color,
    hints: &Hints,
    scratch: &mut Scratch,
    moves: &mut Vec<Move>,
) {
    let start = moves.len();
    if board.stone_count() == 0 {
        moves.extend(opening_moves(board));
    } else {
        let defended =
            board.has_open_four_point(me.opponent()) && find_defences(board, me, scratch);
        let defences = defended.then(|| &scratch.defences[..]);
        scored_moves(board, me, hints, defences, moves);
        if moves.len() == start && defended {
            // Every stopping point is a foul for renju black: any legal move, then.
            scored_moves(board, me, hints, None, moves);
        }
    }
    // Before the VCF filter: the defences it keeps must be ones the user left open.
    if !hints.blocked.is_empty() {
        let mut fresh = moves.split_off(start);
        fresh.retain(|m| !hints.blocked.contains(&m.pos));
        moves.append(&mut fresh);
    }
    if let Some(allowed) = hints.allowed {
        let mut fresh = moves.split_off(start);
        if fresh.iter().any(|m| allowed.contains(&m.pos)) {
            fresh.retain(|m| allowed.contains(&m.pos));
        }
        moves.append(&mut fresh);
    }
}

/// Appends the legal candidates (only `defences` and fours, when given) with their policy
/// scores.
fn scored_moves(
    board: &Board,
    me: Color,
    hints: &Hints,
    defences: Option<&[Pos]>,
    moves: &mut Vec<Move>,
) {
    let opponent = me.opponent();
    let tables = OrderingTables::for_rule(board.rule());
    for pos in board.candidates() {
        let attack = board.shape(pos, me);
        if let Some(defences) = defences {
            if !attack.is_four() && !defences.contains(&pos) {
                continue;
            }
        }
        if is_illegal(board, pos, me, attack) {
            continue;
        }
        let defence = board.shape(pos, opponent);
        let killer = if hints.killers.contains(&Some(pos)) {
            KILLER_BONUS
        } else {
            0
        };
        let score = tables.score(board, pos, me, attack, defence)
            + killer
            + hints.history[pos.index()] / HISTORY_DIVISOR;
        moves.push(Move {
            pos,
            score,
            attack,
            defence,
        });
    }
}

/// The points that stop every open three of the opponent's, left in
/// `scratch.defences`: each three is an open-four point along a line, and a stone stops
/// it by taking that point or by spoiling the line there (tested on the line's key,
/// without playing); the points that stop all of them, or, when no point does, every
/// point that stops one. False when the opponent's open-four points are all forbidden
/// to it (renju black).
fn find_defences(board: &Board, me: Color, scratch: &mut Scratch) -> bool {
    let opponent = me.opponent();
    let size = board.size();
    let fouls = board.rule().has_forbidden(opponent);
    // (point, the threat it stops), one entry per stopping point and threat.
    let stops = &mut scratch.stops;
    stops.clear();
    let mut threats = 0;
    let mut forbidden: Option<Pos> = None;
    for (pos, dir) in board.open_four_lines(opponent) {
        if forbidden == Some(pos) || (fouls && board.is_forbidden(pos, opponent)) {
            forbidden = Some(pos);
            continue;
        }
        stops.push((pos, threats));
        for offset in (-REACH..=REACH).filter(|&o| o != 0) {
            let spoils = pos.step(dir, offset, size).filter(|&p| {
                board.is_empty(p)
                    && board.pattern_if_blocked(pos, dir, opponent, offset) < Pattern::F4
            });
            if let Some(p) = spoils {
                stops.push((p, threats));
            }
        }
        threats += 1;
    }
    if threats == 0 {
        return false;
    }
    stops.sort_unstable();
    stops.dedup();
    // Sorted by point, each point's entries are the threats it stops.
    let defences = &mut scratch.defences;
    defences.clear();
    let mut from = 0;
    while from < stops.len() {
        let pos = stops[from].0;
        let until = stops[from..]
            .iter()
            .position(|&(p, _)| p != pos)
            .map_or(stops.len(), |n| from + n);
        if until - from == threats {
            defences.push(pos);
        }
        from = until;
    }
    if defences.is_empty() {
        defences.extend(stops.iter().map(|&(p, _)| p));
        defences.dedup();
    }
    true
}

/// `me`'s strongest `QUIESCENCE_BRANCHES` legal fours (and better), strongest first;
/// with `near`, only those on the lines through `near` within `QUIESCENCE_REACH`.
pub(super) fn fours(
    board: &Board,
    me: Color,
    near: Option<Pos>,
    scratch: &mut Scratch,
) -> [Option<Pos>; QUIESCENCE_BRANCHES] {
    let mut strongest = [None; QUIESCENCE_BRANCHES];
    let any = [
        Shape::Four,
        Shape::FourTwo,
        Shape::FourThree,
        Shape::OpenFour,
    ]
    .iter()
    .any(|&s| board.shape_count(me, s) > 0);
    if !any {
        return strongest;
    }
    let fours = &mut scratch.fours;
    fours.clear();
    match near {
        // Along the lines through the last four.
        Some(near) => {
            let size = board.size();
            fours.extend(
                Direction::ALL
                    .into_iter()
                    .flat_map(|dir| {
                        (-(QUIESCENCE_REACH as i32)..=QUIESCENCE_REACH as i32)
                            .filter_map(move |o| near.step(dir, o, size))
                    })
                    .filter(|&p| board.is_empty(p))
                    .map(|p| (board.shape(p, me), p)),
            )
        }
        None => fours.extend(
            board
                .candidates()
                .map(|p| (board.shape(p, me), p))
                .filter(|&(s, _)| s.is_four()),
        ),
    };
    let legal = |&(s, p): &(Shape, Pos)| s.is_four() && !is_illegal(board, p, me, s);
    fours.retain(legal);
    fours.sort_unstable_by_key(|f| f.1);
    fours.dedup_by_key(|f| f.1);
    fours.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for (slot, &(_, pos)) in strongest.iter_mut().zip(fours.iter()) {
        *slot = Some(pos);
    }
    strongest
}

/// The empty board: the centre first, then its neighbours (for YXNBEST).
fn opening_moves(board: &Board) -> Vec<Move> {
    let size = board.size();
    let center = size.center();
    let mut moves: Vec<Pos> = size.points().filter(|p| p.distance(center) <= 1).collect();
    moves.sort_by_key(|&p| (p != center, p));
    moves
        .into_iter()
        .enumerate()
        .map(|(i, pos)| Move {
            pos,
            score: -(i as i32),
            attack: Shape::None,
            defence: Shape::None,
        })
        .collect()
}

/// Whether `me` may not play `pos` (a renju foul for black). Only shapes that can be a foul
/// get the referee's exact check.
pub(super) fn is_illegal(board: &Board, pos: Pos, me: Color, attack: Shape) -> bool {
    match attack {
        Shape::Forbidden => true,
        Shape::DoubleThree | Shape::FourThree | Shape::OpenFour => board.is_forbidden(pos, me),
        _ => false,
    }
}
