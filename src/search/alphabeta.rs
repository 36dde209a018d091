//! Principal variation search: alpha-beta with a transposition table, threat-driven move
//! generation, killer and history ordering, late move reductions, and a VCF-style
//! quiescence (fours and their forced answers) at the horizon.

use super::params::*;
use super::tt::{Bound, Table};
use super::Stop;
use crate::eval::{evaluate, point_value, weights};
use crate::game::{Board, Color, Pos, Threat, POS_COUNT};
use std::time::{Duration, Instant};

/// When to give up: any of these ends the search at once.
#[derive(Clone, Copy, Debug)]
pub struct Cutoff {
    pub deadline: Option<Duration>,
    pub max_nodes: Option<u64>,
}

pub struct Searcher<'a> {
    pub board: &'a mut Board,
    tt: &'a mut Table,
    stop: &'a Stop,
    cutoff: Cutoff,
    start: Instant,
    pub nodes: u64,
    pub aborted: bool,
    killers: Vec<[Option<Pos>; 2]>,
    history: Vec<[i32; POS_COUNT]>,
    pv: Vec<Vec<Pos>>,
}

impl std::fmt::Debug for Searcher<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Searcher({} nodes)", self.nodes)
    }
}

impl<'a> Searcher<'a> {
    pub fn new(
        board: &'a mut Board,
        tt: &'a mut Table,
        stop: &'a Stop,
        cutoff: Cutoff,
        start: Instant,
    ) -> Searcher<'a> {
        Searcher {
            board,
            tt,
            stop,
            cutoff,
            start,
            nodes: 0,
            aborted: false,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![[0; POS_COUNT]; 2],
            pv: vec![Vec::new(); MAX_PLY + 1],
        }
    }

    /// The principal variation of the last completed root search.
    pub fn principal_variation(&self) -> &[Pos] {
        &self.pv[0]
    }

    /// Searches the root to `depth` within (alpha, beta).
    pub fn root(&mut self, alpha: i32, beta: i32, depth: i32) -> i32 {
        self.negamax(alpha, beta, depth, 0)
    }

    /// The root's legal moves, best-looking first.
    pub fn root_moves(&mut self) -> Vec<Pos> {
        let me = self.board.side_to_move();
        self.ordered_moves(me, None, 0)
    }

    /// The node limit holds exactly; the clock and the stop signal are read every
    /// `CHECK_EVERY_NODES` nodes.
    fn check_limits(&mut self) {
        if self.cutoff.max_nodes.map_or(false, |n| self.nodes >= n) {
            self.aborted = true;
        }
        if self.nodes % CHECK_EVERY_NODES != 0 {
            return;
        }
        let over_time = self
            .cutoff
            .deadline
            .map_or(false, |d| self.start.elapsed() >= d);
        if over_time || self.stop.is_set() {
            self.aborted = true;
        }
    }

    fn negamax(&mut self, mut alpha: i32, beta: i32, depth: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        self.nodes += 1;
        self.check_limits();
        if self.aborted {
            return 0;
        }
        if let Some(score) = self.forced(alpha, beta, depth, ply) {
            return score;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiesce(alpha, beta, ply, QUIESCENCE_FOURS);
        }
        let me = self.board.side_to_move();
        let hash = self.board.hash();
        let mut tt_move = None;
        if let Some(hit) = self.tt.probe(hash, ply) {
            tt_move = hit.best.filter(|&p| self.board.is_empty(p));
            if ply > 0 && hit.depth >= depth {
                let usable = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.score >= beta,
                    Bound::Upper => hit.score <= alpha,
                };
                if usable {
                    return hit.score;
                }
            }
        }
        let moves = self.ordered_moves(me, tt_move, ply);
        if moves.is_empty() {
            return 0;
        }
        let original_alpha = alpha;
        let mut best_score = -WIN;
        let mut best_move = moves[0];
        for (i, &pos) in moves.iter().enumerate() {
            let quiet = self.board.threat(pos, me) < Threat::Three;
            self.board.play(pos, me);
            let reduction = i32::from(i >= LMR_MIN_MOVES && depth >= LMR_MIN_DEPTH && quiet);
            let mut score;
            if i == 0 {
                score = -self.negamax(-beta, -alpha, depth - 1, ply + 1);
            } else {
                score = -self.negamax(-alpha - 1, -alpha, depth - 1 - reduction, ply + 1);
                if score > alpha && (reduction > 0 || score < beta) {
                    score = -self.negamax(-beta, -alpha, depth - 1, ply + 1);
                }
            }
            self.board.undo();
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = pos;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, pos);
                    if score >= beta {
                        self.reward(me, pos, depth, ply, quiet);
                        break;
                    }
                }
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(hash, ply, depth, best_score, bound, Some(best_move));
        best_score
    }

    /// Wins and forced answers that need no search: a five to play, or the opponent's five
    /// to block (searched on without using up depth).
    fn forced(&mut self, alpha: i32, beta: i32, depth: i32, ply: usize) -> Option<i32> {
        let me = self.board.side_to_move();
        let opponent = me.opponent();
        if self.board.has_five_point(me) {
            if let Some(&five) = self.board.five_points(me).first() {
                self.set_pv(ply, five);
            }
            return Some(WIN - ply as i32 - 1);
        }
        if !self.board.has_five_point(opponent) {
            return None;
        }
        let fives = self.board.five_points(opponent);
        let lost = -(WIN - ply as i32 - 2);
        if fives.len() != 1 || self.board.is_forbidden(fives[0], me) || ply >= MAX_PLY - 1 {
            // Lost: still name a legal move (a block where one is allowed).
            if let Some(&block) = fives.iter().find(|&&p| !self.board.is_forbidden(p, me)) {
                self.set_pv(ply, block);
            }
            return Some(lost);
        }
        let block = fives[0];
        self.board.play(block, me);
        let score = -self.negamax(-beta, -alpha, depth, ply + 1);
        self.board.undo();
        if !self.aborted {
            self.set_pv(ply, block);
        }
        Some(score)
    }

    /// The horizon: stand pat on the evaluation, or keep making fours (the opponent's
    /// answers are forced) while they gain.
    fn quiesce(&mut self, mut alpha: i32, beta: i32, ply: usize, fours_left: i32) -> i32 {
        self.pv[ply].clear();
        self.nodes += 1;
        self.check_limits();
        if self.aborted {
            return 0;
        }
        let me = self.board.side_to_move();
        if self.board.has_five_point(me) {
            return WIN - ply as i32 - 1;
        }
        if self.board.has_five_point(me.opponent()) {
            let fives = self.board.five_points(me.opponent());
            if fives.len() != 1 || self.board.is_forbidden(fives[0], me) || ply >= MAX_PLY - 1 {
                return -(WIN - ply as i32 - 2);
            }
            self.board.play(fives[0], me);
            let score = -self.quiesce(-beta, -alpha, ply + 1, fours_left);
            self.board.undo();
            return score;
        }
        let stand = evaluate(self.board, me);
        if stand >= beta || fours_left <= 0 || ply >= MAX_PLY - 2 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        for pos in self.fours(me).into_iter().take(QUIESCENCE_BRANCHES) {
            self.board.play(pos, me);
            let score = -self.quiesce(-beta, -alpha, ply + 1, fours_left - 1);
            self.board.undo();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, pos);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// `me`'s legal fours, strongest first.
    fn fours(&self, me: Color) -> Vec<Pos> {
        let mut fours: Vec<(Threat, Pos)> = self
            .candidates()
            .filter(|&p| self.board.makes_four(p, me))
            .map(|p| (self.board.threat(p, me), p))
            .filter(|&(t, _)| t.is_four())
            .collect();
        fours.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        fours.into_iter().map(|(_, p)| p).collect()
    }

    /// Legal moves for `me`, best-looking first. When the opponent threatens an open four,
    /// only its blocks and `me`'s own fours can hold.
    fn ordered_moves(&self, me: Color, tt_move: Option<Pos>, ply: usize) -> Vec<Pos> {
        let opponent = me.opponent();
        if self.board.stone_count() == 0 {
            // The centre first, then its neighbours (for YXNBEST on an empty board).
            let size = self.board.size();
            let center = size.center();
            let mut moves: Vec<Pos> = size
                .points()
                .filter(|p| p.x().abs_diff(center.x()) <= 1 && p.y().abs_diff(center.y()) <= 1)
                .collect();
            moves.sort_by_key(|&p| (p != center, p));
            return moves;
        }
        let defending = self.board.has_open_four_point(opponent);
        let killers = self.killers[ply.min(MAX_PLY)];
        let history = &self.history[me.index()];
        let mut scored: Vec<(i32, Pos)> = Vec::with_capacity(64);
        for pos in self.candidates() {
            let mine = self.board.threat(pos, me);
            if mine == Threat::Forbidden {
                continue;
            }
            // Only the opponent's four points can stop its open four.
            if defending && !mine.is_four() && !self.board.makes_four(pos, opponent) {
                continue;
            }
            let theirs = self.board.threat(pos, opponent);
            let order = if Some(pos) == tt_move {
                i32::MAX
            } else {
                let killer = if killers.contains(&Some(pos)) { 500 } else { 0 };
                weights::threat_order(mine, true)
                    + weights::threat_order(theirs, false)
                    + point_value(self.board, pos, me)
                    + killer
                    + history[pos.index()].min(10_000) / 64
            };
            scored.push((order, pos));
        }
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.into_iter().map(|(_, p)| p).collect()
    }

    fn candidates(&self) -> impl Iterator<Item = Pos> + '_ {
        self.board
            .size()
            .points()
            .filter(move |&p| self.board.is_empty(p) && self.board.is_candidate(p))
    }

    fn set_pv(&mut self, ply: usize, pos: Pos) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(pos);
        if let Some(rest) = tail.first() {
            line.extend_from_slice(rest);
        }
    }

    fn reward(&mut self, me: Color, pos: Pos, depth: i32, ply: usize, quiet: bool) {
        if !quiet {
            return;
        }
        let killers = &mut self.killers[ply.min(MAX_PLY)];
        if killers[0] != Some(pos) {
            killers[1] = killers[0];
            killers[0] = Some(pos);
        }
        let entry = &mut self.history[me.index()][pos.index()];
        *entry = (*entry + depth * depth).min(1 << 20);
    }
}
