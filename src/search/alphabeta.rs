//! Principal variation search. At each node, in order (constants in `params`):
//! 1. a five to play wins; an opponent's five is blocked, searched on without using depth
//!    (and every few blocks a ply deeper: `BLOCK_EXTENSION`);
//! 2. a win that needs no search (an open four, a four-three or double three against no four:
//!    `quick_win`) is scored at once, and a window beyond the shortest mate from here is
//!    decided (mate distance pruning); at the horizon, the quiescence (`quiesce`): fours
//!    while they gain — unless the opponent has an open three or a quick win, whose
//!    stopping moves get one more ply;
//! 3. the transposition table: its bound ends non-PV nodes, its move is searched first;
//! 4. with no threat of the opponent's to answer: razoring (shallow nodes far below alpha
//!    are settled by the quiescence) and reverse futility (shallow nodes far above beta
//!    return their static value);
//! 5. internal iterative reduction: deep nodes without a table move search one ply less, and
//!    PV nodes whose table move comes from a much shallower search (a line new to the
//!    principal variation) search a few plies less;
//! 6. the moves (`movegen`), with late move pruning and futility pruning of quiet moves at
//!    shallow depth, and late move reductions from a table that grows with depth and move
//!    number (more for moves that make no shape, and for moves far from both sides' last
//!    stones); the table's move is extended a ply when it is singular (every other move
//!    fails low against a bound just below its score, in a shallower search without it).

use super::movegen::{append_moves, is_illegal, move_order, ordered_moves, Hints, Move, Scratch};
use super::params::*;
use super::quick_win::quick_win;
use super::tree_stats::{Extension, MoveKind, NodeKind, Pruning, TreeStats};
use super::tt::{Bound, Table};
use super::{Reporter, RootEvent, Stop};
use crate::eval::evaluator::{EvalKind, Evaluator};
use crate::eval::net::network::POLICY_ONE;
use crate::game::{Board, Color, Pos, Shape, POS_COUNT};
use once_cell::sync::Lazy;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// When to give up: any of these ends the search at once.
#[derive(Clone, Copy, Debug)]
pub struct Cutoff {
    pub deadline: Option<Duration>,
    pub max_nodes: Option<u64>,
}

/// Late move reductions by depth and move number, in plies.
static REDUCTIONS: Lazy<Vec<[i32; 64]>> = Lazy::new(|| {
    (0..64)
        .map(|depth| {
            let mut row = [0; 64];
            for (moves, r) in row.iter_mut().enumerate().skip(1) {
                if depth > 0 {
                    let ln = (depth as f64).ln() * (moves as f64).ln();
                    *r = (LMR_BASE + ln / LMR_DIVISOR) as i32;
                }
            }
            row
        })
        .collect()
});

/// A forced block's share of a ply added to its line's `credit`: the credit after it, and
/// the extension it makes (a ply once the credit holds one, where the line may extend).
fn block_credit_after(credit: i32, may_extend: bool) -> (i32, i32) {
    let credit = credit + BLOCK_EXTENSION;
    if may_extend && credit >= BLOCK_EXTENSION_UNITS {
        (credit - BLOCK_EXTENSION_UNITS, 1)
    } else {
        (credit, 0)
    }
}

/// Move-count pruning: how many moves a non-PV node searches before it keeps only fours.
fn move_count_limit(depth: i32, improving: bool) -> usize {
    let limit = MOVE_COUNT_BIAS + MOVE_COUNT_SCALE * (depth.max(1) as f64).sqrt();
    let limit = if improving {
        limit
    } else {
        limit * MOVE_COUNT_NOT_IMPROVING
    };
    (limit.round() as usize).clamp(1, MOVE_COUNT_MAX)
}

/// While the generated moves (from `unsorted_from`) are not all in order, puts the best of
/// `moves[next..]` at `next`: one at a time for the first `PICKED_ONE_BY_ONE` of them, then
/// all the rest sorted at once, after which `unsorted_from` is cleared. Once the node searches
/// only four-threes and better (`only_strong_fours`), the others are dropped before sorting.
fn pick_next(
    moves: &mut Vec<Move>,
    next: usize,
    only_strong_fours: bool,
    unsorted_from: &mut Option<usize>,
) {
    let start = match *unsorted_from {
        Some(start) if next < moves.len() => start,
        _ => return,
    };
    if only_strong_fours {
        let mut kept = next;
        for i in next..moves.len() {
            if moves[i].attack >= Shape::FourThree {
                moves.swap(kept, i);
                kept += 1;
            }
        }
        moves.truncate(kept);
    } else if next - start < PICKED_ONE_BY_ONE {
        let best = (next..moves.len())
            .min_by(|&a, &b| move_order(&moves[a], &moves[b]))
            .unwrap_or(next);
        moves.swap(next, best);
        return;
    }
    moves[next..].sort_unstable_by(move_order);
    *unsorted_from = None;
}

fn reduction(depth: i32, moves: usize) -> i32 {
    REDUCTIONS[depth.clamp(0, 63) as usize][moves.min(63)]
}

pub struct Searcher<'a> {
    pub board: &'a mut Board,
    /// This thread's evaluation (a network's state is per thread).
    pub(super) eval: Evaluator,
    pub(super) tt: &'a Table,
    stop: &'a Stop,
    cutoff: Cutoff,
    start: Instant,
    pub nodes: u64,
    pub aborted: bool,
    /// The root move that last raised alpha in the running iteration (in any of its
    /// windows), with its score: a move that beat the previous best, usable even if the
    /// iteration is cut short in a wider window's re-search.
    pub root_best: Option<(Pos, i32)>,
    /// The nodes searched when a root search first returned a proven win.
    pub first_proof_nodes: Option<u64>,
    /// When the opponent threatens a VCF: the only root moves that may stop it.
    pub root_allowed: Option<Vec<Pos>>,
    /// Points the root must not play (Yixin-Board's `yxblock`).
    pub root_blocked: Vec<Pos>,
    /// The running iteration's depth (extensions stop at twice it: `may_extend`).
    root_depth: i32,
    /// Told each root move as it is searched (the main thread's search for a move).
    pub reporter: Option<&'a mut dyn Reporter>,
    /// At each ply, the move a singular-extension test search leaves out.
    excluded: Vec<Option<Pos>>,
    killers: Vec<[Option<Pos>; 2]>,
    history: Vec<[i32; POS_COUNT]>,
    /// The static value at each ply of the current line (for "improving").
    statics: Vec<i32>,
    /// At each ply of the current line, the forced blocks' extension not yet taken as a
    /// whole ply (in `BLOCK_EXTENSION_UNITS`).
    block_credit: Vec<i32>,
    /// The quiet moves tried so far at each ply (their history suffers when another cuts).
    tried: Vec<Vec<Pos>>,
    /// Each ply's move list, kept between nodes so that its memory is reused; a
    /// singular-extension test runs at its node's ply, while that node's list is in use, so
    /// it has lists of its own.
    move_lists: Vec<Vec<Move>>,
    singular_move_lists: Vec<Vec<Move>>,
    /// Move generation's working space, reused for the same reason.
    pub(super) scratch: Scratch,
    pv: Vec<Vec<Pos>>,
    /// Where the nodes go, when asked (`Limits::tree_stats`).
    pub stats: Option<Box<TreeStats>>,
    /// Where a helper thread publishes its node count as it searches (the main thread's
    /// reports count every thread's nodes).
    pub published_nodes: Option<&'a AtomicU64>,
}

impl std::fmt::Debug for Searcher<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Searcher({} nodes)", self.nodes)
    }
}

impl<'a> Searcher<'a> {
    pub fn new(
        board: &'a mut Board,
        tt: &'a Table,
        stop: &'a Stop,
        cutoff: Cutoff,
        start: Instant,
        eval: EvalKind,
    ) -> Searcher<'a> {
        Searcher {
            eval: Evaluator::new(eval, board),
            board,
            tt,
            stop,
            cutoff,
            start,
            nodes: 0,
            aborted: false,
            root_best: None,
            first_proof_nodes: None,
            root_allowed: None,
            root_blocked: Vec::new(),
            root_depth: 0,
            reporter: None,
            excluded: vec![None; MAX_PLY + 1],
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![[0; POS_COUNT]; 2],
            statics: vec![0; MAX_PLY + 2],
            block_credit: vec![0; MAX_PLY + 2],
            tried: vec![Vec::new(); MAX_PLY + 1],
            move_lists: vec![Vec::new(); MAX_PLY + 1],
            singular_move_lists: vec![Vec::new(); MAX_PLY + 1],
            scratch: Scratch::default(),
            pv: vec![Vec::new(); MAX_PLY + 1],
            stats: None,
            published_nodes: None,
        }
    }

    /// Counts something in the tree statistics, when they are kept.
    #[inline]
    pub(super) fn count(&mut self, record: impl FnOnce(&mut TreeStats)) {
        if let Some(stats) = self.stats.as_deref_mut() {
            record(stats);
        }
    }

    /// The principal variation of the last completed root search.
    pub fn principal_variation(&self) -> &[Pos] {
        &self.pv[0]
    }

    /// Searches the root to `depth` within (alpha, beta).
    pub fn root(&mut self, alpha: i32, beta: i32, depth: i32) -> i32 {
        self.root_depth = depth;
        self.block_credit[0] = 0;
        self.negamax(alpha, beta, depth, 0, false)
    }

    fn tell_root(&mut self, event: RootEvent) {
        let depth = self.root_depth.max(0) as u32;
        if let Some(reporter) = self.reporter.as_mut() {
            reporter.root_move(depth, event);
        }
    }

    /// The root's legal moves, best-looking first.
    pub fn root_moves(&mut self) -> Vec<Pos> {
        let me = self.board.side_to_move();
        let hints = Hints {
            killers: self.killers[0],
            history: &self.history[me.index()],
            allowed: self.root_allowed.as_deref(),
            blocked: &self.root_blocked,
        };
        ordered_moves(self.board, me, &hints, &mut self.scratch)
            .into_iter()
            .map(|m| m.pos)
            .collect()
    }

    /// Counts a node. The node limit holds exactly; the stop signal is read at every node,
    /// the clock every `CHECK_EVERY_NODES` nodes.
    pub(super) fn enter_node(&mut self) -> bool {
        // Once stopped, nothing more is counted (a re-search after a cut-off child must not
        // pass the node limit).
        if self.aborted {
            return false;
        }
        self.nodes += 1;
        if let Some(count) = self.published_nodes {
            count.store(self.nodes, Ordering::Relaxed);
        }
        if self.cutoff.max_nodes.map_or(false, |n| self.nodes >= n) {
            self.aborted = true;
        }
        // The stop signal is one relaxed load: read it always; the clock now and then.
        if self.stop.is_set() {
            self.aborted = true;
        }
        if self.nodes % CHECK_EVERY_NODES == 0
            && self
                .cutoff
                .deadline
                .map_or(false, |d| self.start.elapsed() >= d)
        {
            self.aborted = true;
        }
        !self.aborted
    }

    fn negamax(&mut self, mut alpha: i32, beta: i32, depth: i32, ply: usize, cut: bool) -> i32 {
        self.pv[ply].clear();
        if !self.enter_node() {
            return 0;
        }
        self.count(|s| s.node(ply, false));
        if let Some(score) = self.forced(alpha, beta, depth, ply, cut) {
            return score;
        }
        let me = self.board.side_to_move();
        if ply > 0 {
            if let Some(plies) = quick_win(self.board, me) {
                return WIN - ply as i32 - plies;
            }
        }
        let opponent = me.opponent();
        let threatened = self.board.has_open_four_point(opponent);
        // At the horizon an opponent's open three, or a win it could read off the board (a
        // four-three, a double three), is no place to stand pat: the stopping moves get one
        // more ply.
        let mut depth = depth;
        if depth <= 0
            && (threatened || quick_win(self.board, opponent).is_some())
            && self.may_extend(ply)
        {
            depth = 1;
            self.count(|s| s.extended(Extension::ThreatAtHorizon));
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiesce(alpha, beta, ply, QUIESCENCE_FOURS, None);
        }
        let pv_node = beta - alpha > 1;
        // Mate distance pruning: no line from here ends sooner than a five next move, or
        // later than a loss in two; a window outside that range is already decided.
        let beta = beta.min(WIN - ply as i32 - 1);
        alpha = alpha.max(-(WIN - ply as i32 - 2));
        if alpha >= beta {
            return alpha;
        }
        let hash = self.board.hash();
        // A singular-extension test: the same node without one move, neither read from nor
        // written to the table, and not pruned on its static value.
        let excluded = self.excluded[ply];

        // 3. The transposition table.
        let mut tt_move = None;
        let mut tt_depth = 0;
        let mut singular_from = None;
        let tt_hit = self.tt.probe(hash, ply).filter(|_| excluded.is_none());
        self.count(|s| {
            s.probed(
                tt_hit.is_some(),
                tt_hit.map_or(false, |h| h.score.abs() > WIN_THRESHOLD),
            )
        });
        if let Some(hit) = tt_hit {
            tt_move = hit.best.filter(|&p| self.board.is_empty(p));
            tt_depth = hit.depth;
            if ply > 0
                && depth >= SINGULAR_MIN_DEPTH
                && hit.depth >= depth - SINGULAR_TABLE_DEPTH
                && hit.bound != Bound::Upper
                && hit.score.abs() < WIN_THRESHOLD
                && self.may_extend(ply)
            {
                singular_from = Some(hit.score);
            }
            if !pv_node && hit.depth >= depth && hit.decides(alpha, beta) {
                self.count(|s| s.pruned(Pruning::Table));
                return hit.score;
            }
        }

        // 4. Shallow pruning on the static value, when the opponent threatens nothing.
        let stand = self.static_value(me, alpha, beta);
        self.statics[ply] = stand;
        let improving = ply < 2 || stand > self.statics[ply - 2];
        if !pv_node && !threatened && beta.abs() < WIN_THRESHOLD && excluded.is_none() {
            if depth <= RAZOR_MAX_DEPTH && stand + RAZOR_MARGIN * depth < alpha {
                let score = self.quiesce(alpha, alpha + 1, ply, QUIESCENCE_FOURS, None);
                if score <= alpha {
                    self.count(|s| s.pruned(Pruning::Razor));
                    return score;
                }
            }
            let margin = FUTILITY_MARGIN * (depth - i32::from(improving));
            if depth <= FUTILITY_MAX_DEPTH && stand - margin >= beta {
                self.count(|s| s.pruned(Pruning::ReverseFutility));
                return stand;
            }
        }

        // 4b. ProbCut: a threat that beats beta by a margin in a much shallower search is
        // taken to beat beta at full depth too.
        if !pv_node
            && !threatened
            && depth >= PROBCUT_MIN_DEPTH
            && excluded.is_none()
            && beta.abs() < WIN_THRESHOLD
        {
            let probcut_beta = beta + PROBCUT_MARGIN;
            let table_says_below = tt_hit.map_or(false, |hit| {
                hit.depth >= depth - PROBCUT_REDUCTION
                    && hit.bound != Bound::Lower
                    && hit.score < probcut_beta
            });
            if !table_says_below {
                if let Some(score) = self.probcut(probcut_beta, depth, ply, cut) {
                    self.count(|s| s.pruned(Pruning::ProbCut));
                    return score;
                }
            }
        }

        // 5. Internal iterative reduction; and a PV node whose table move comes from a much
        // shallower search (a line that was not the principal one lately) searches less deep.
        if tt_move.is_none() && depth >= IIR_MIN_DEPTH && excluded.is_none() {
            depth -= 1;
        }
        if pv_node && depth > 1 && tt_move.is_some() {
            depth -= ((depth - tt_depth) / PV_STALE_TT_DIVISOR).clamp(0, PV_STALE_TT_MAX);
        }

        // The children carry on the line's block credit (a forced block sets its own).
        self.block_credit[ply + 1] = self.block_credit[ply];
        let node_kind = match (pv_node, cut) {
            (true, _) => NodeKind::Pv,
            (false, true) => NodeKind::Cut,
            (false, false) => NodeKind::All,
        };
        self.count(|s| s.node_kind(node_kind));
        if threatened {
            self.count(|s| s.threatened_nodes += 1);
        }

        // 6. The moves: the table's move first, the others generated only if it does not
        // cut off (most cut nodes then never generate or sort anything).
        let tt_first = tt_move.and_then(|pos| {
            let attack = self.board.shape(pos, me);
            let allowed = ply > 0
                || (self
                    .root_allowed
                    .as_ref()
                    .map_or(true, |a| a.contains(&pos))
                    && !self.root_blocked.contains(&pos));
            (allowed && !is_illegal(self.board, pos, me, attack)).then(|| Move {
                pos,
                score: i32::MAX,
                attack,
                defence: self.board.shape(pos, opponent),
            })
        });
        let mut moves = std::mem::take(self.move_list(ply));
        moves.clear();
        moves.extend(tt_first);
        let mut generated = false;
        let original_alpha = alpha;
        let mut best_score = -WIN;
        let mut best_move = None;
        let mut searched = 0usize;
        self.tried[ply].clear();
        let killers = self.killers[ply.min(MAX_PLY)];
        let move_limit = move_count_limit(depth, improving);
        // The last move of each side: a move far from both answers neither and goes on with
        // nothing.
        let played = self.board.history();
        let recent = [
            played.last().copied(),
            played.len().checked_sub(2).map(|i| played[i]),
        ];
        let mut next = 0;
        // Where the generated moves start, while they are not all in order yet.
        let mut unsorted_from = None;
        loop {
            if next == moves.len() && !generated {
                generated = true;
                let start = moves.len();
                let hints = Hints {
                    killers: self.killers[ply.min(MAX_PLY)],
                    history: &self.history[me.index()],
                    allowed: self.root_allowed.as_deref().filter(|_| ply == 0),
                    blocked: if ply == 0 { &self.root_blocked } else { &[] },
                };
                append_moves(self.board, me, &hints, &mut self.scratch, &mut moves);
                if depth >= POLICY_MIN_DEPTH {
                    self.add_policy(me, &mut moves[start..]);
                }
                if let Some(i) = moves[start..].iter().position(|m| Some(m.pos) == tt_move) {
                    moves.swap_remove(start + i);
                }
                unsorted_from = Some(start);
            }
            // Move-count pruning: past the limit, only four-threes and better.
            let only_strong_fours =
                !pv_node && searched >= move_limit && best_score > -WIN_THRESHOLD;
            pick_next(&mut moves, next, only_strong_fours, &mut unsorted_from);
            let m = match moves.get(next) {
                Some(&m) => m,
                None => break,
            };
            next += 1;
            if Some(m.pos) == excluded {
                continue;
            }
            let quiet = m.is_quiet() && Some(m.pos) != tt_move;
            if only_strong_fours && m.attack < Shape::FourThree {
                self.count(|s| s.pruned(Pruning::MoveCount));
                continue;
            }
            let prunable = !pv_node && quiet && best_score > -WIN_THRESHOLD && !threatened;
            if prunable
                && depth <= FUTILITY_MAX_DEPTH
                && stand + FUTILITY_MARGIN * (depth + 1) <= alpha
            {
                self.count(|s| s.pruned(Pruning::FutileMove));
                continue;
            }
            let mut extension = 0;
            if let Some(tt_score) = singular_from.filter(|_| Some(m.pos) == tt_move) {
                let singular_beta = tt_score - SINGULAR_MARGIN * depth;
                self.excluded[ply] = Some(m.pos);
                let others = self.negamax(singular_beta - 1, singular_beta, depth / 2, ply, cut);
                self.excluded[ply] = None;
                // The test search used this ply's list of tried moves.
                self.tried[ply].clear();
                if self.aborted {
                    *self.move_list(ply) = moves;
                    return 0;
                }
                if others < singular_beta {
                    extension = 1;
                    self.count(|s| s.extended(Extension::Singular));
                } else if singular_beta >= beta {
                    // Another move also beats beta, even searched shallower: cut (multi-cut).
                    self.count(|s| s.pruned(Pruning::MultiCut));
                    *self.move_list(ply) = moves;
                    return singular_beta;
                }
            }
            self.tt.prefetch(self.board.hash_after(m.pos, me));
            if ply == 0 {
                self.tell_root(RootEvent::Enter(m.pos));
            }
            self.board.play(m.pos, me);
            searched += 1;
            self.count(|s| s.searched(MoveKind::of(&m)));
            if threatened {
                self.count(|s| s.threatened_move(m.attack.is_four()));
            }
            let score = if searched == 1 {
                -self.negamax(
                    -beta,
                    -alpha,
                    depth - 1 + extension,
                    ply + 1,
                    !pv_node && !cut,
                )
            } else {
                let mut r = 0;
                if depth >= LMR_MIN_DEPTH && searched > LMR_MIN_MOVES {
                    r = reduction(depth, searched) - i32::from(!quiet);
                    r -= i32::from(pv_node);
                    r -= i32::from(killers.contains(&Some(m.pos)));
                    r += i32::from(cut);
                    r += i32::from(!improving);
                    if m.attack == Shape::None && m.defence == Shape::None {
                        r += LMR_TRIVIAL;
                    }
                    if recent
                        .iter()
                        .flatten()
                        .all(|p| p.distance(m.pos) > DISTANT_MOVE)
                    {
                        r += LMR_DISTANT;
                    }
                    r = r.clamp(0, depth - 1);
                    self.count(|s| s.reduced(r));
                }
                let mut score = -self.negamax(-alpha - 1, -alpha, depth - 1 - r, ply + 1, true);
                if score > alpha && r > 0 {
                    self.count(|s| s.re_searches += 1);
                    score = -self.negamax(-alpha - 1, -alpha, depth - 1, ply + 1, !cut);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(-beta, -alpha, depth - 1, ply + 1, false);
                }
                score
            };
            self.board.undo();
            if self.aborted {
                *self.move_list(ply) = moves;
                return 0;
            }
            if ply == 0 {
                let new_best = score > best_score && score > alpha;
                self.tell_root(RootEvent::Leave {
                    pos: m.pos,
                    score,
                    new_best,
                });
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m.pos);
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, m.pos);
                    if ply == 0 {
                        self.root_best = Some((m.pos, score));
                    }
                    if score >= beta {
                        self.count(|s| s.failed_high(searched));
                        self.reward(me, &m, depth, ply);
                        break;
                    }
                }
            }
            if m.is_quiet() {
                self.tried[ply].push(m.pos);
            }
        }
        let no_moves = moves.is_empty();
        *self.move_list(ply) = moves;
        if searched == 0 {
            // No move (a full board) or everything was pruned: the static value stands.
            return if no_moves { 0 } else { stand.min(beta) };
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if excluded.is_none() {
            self.tt
                .store(hash, ply, depth, best_score, bound, best_move);
        }
        best_score
    }

    /// ProbCut's try at a non-PV node: its best few threat moves, each first in the
    /// quiescence, then searched `PROBCUT_REDUCTION` plies shallower against `probcut_beta`.
    /// The score of the first that beats it (stored as a lower bound), if one does.
    fn probcut(&mut self, probcut_beta: i32, depth: i32, ply: usize, cut: bool) -> Option<i32> {
        let me = self.board.side_to_move();
        let mut moves = std::mem::take(self.move_list(ply));
        moves.clear();
        let hints = Hints {
            killers: self.killers[ply.min(MAX_PLY)],
            history: &self.history[me.index()],
            allowed: None,
            blocked: &[],
        };
        append_moves(self.board, me, &hints, &mut self.scratch, &mut moves);
        moves.retain(|m| m.attack >= Shape::Three);
        moves.sort_unstable_by(move_order);
        moves.truncate(PROBCUT_MOVES);
        let mut result = None;
        for m in moves.iter() {
            self.board.play(m.pos, me);
            let mut score = -self.quiesce(
                -probcut_beta,
                -probcut_beta + 1,
                ply + 1,
                QUIESCENCE_FOURS,
                None,
            );
            if score >= probcut_beta {
                let reduced = depth - 1 - PROBCUT_REDUCTION;
                score = -self.negamax(-probcut_beta, -probcut_beta + 1, reduced, ply + 1, !cut);
            }
            self.board.undo();
            if self.aborted {
                result = Some(0);
                break;
            }
            if score >= probcut_beta {
                let hash = self.board.hash();
                self.tt.store(
                    hash,
                    ply,
                    depth - PROBCUT_REDUCTION,
                    score,
                    Bound::Lower,
                    Some(m.pos),
                );
                result = Some(score);
                break;
            }
        }
        *self.move_list(ply) = moves;
        result
    }

    /// The move list buffer of the node at `ply` (or of its singular test search).
    fn move_list(&mut self, ply: usize) -> &mut Vec<Move> {
        let lists = if self.excluded[ply].is_some() {
            &mut self.singular_move_lists
        } else {
            &mut self.move_lists
        };
        &mut lists[ply]
    }

    /// Whether a node at `ply` may search deeper than its depth: not past twice the running
    /// iteration's depth, so that extensions cannot lengthen a line without end.
    fn may_extend(&self, ply: usize) -> bool {
        (ply as i32) < 2 * self.root_depth
    }

    /// Wins and forced answers that need no search: a five to play, or the opponent's five
    /// to block (searched on without using up depth, and a little deeper: every block adds
    /// `BLOCK_EXTENSION` units to the line's credit, and a whole ply of credit is taken as
    /// a ply of extension).
    fn forced(&mut self, alpha: i32, beta: i32, depth: i32, ply: usize, cut: bool) -> Option<i32> {
        let me = self.board.side_to_move();
        let opponent = me.opponent();
        if self.board.has_five_point(me) {
            let five = self
                .board
                .five_points(me)
                .iter()
                .copied()
                .find(|&p| !self.blocked_at(ply, p));
            // Fives the user blocked at the root are not played: the other moves are searched.
            if five.is_some() || ply > 0 || self.root_blocked.is_empty() {
                if let Some(five) = five {
                    self.set_pv(ply, five);
                }
                return Some(WIN - ply as i32 - 1);
            }
        }
        if !self.board.has_five_point(opponent) {
            return None;
        }
        let fives = self.board.five_points(opponent);
        let lost = -(WIN - ply as i32 - 2);
        let unplayable = |p: Pos| self.board.is_forbidden(p, me) || self.blocked_at(ply, p);
        if fives.len() != 1 || unplayable(fives[0]) || ply >= MAX_PLY - 1 {
            // Lost: still name a legal move (a block where one is allowed).
            if let Some(&block) = fives.iter().find(|&&p| !unplayable(p)) {
                self.set_pv(ply, block);
            }
            return Some(lost);
        }
        let block = fives[0];
        let (credit, extension) = block_credit_after(self.block_credit[ply], self.may_extend(ply));
        self.block_credit[ply + 1] = credit;
        self.count(|s| {
            s.searched(MoveKind::BlockFour);
            if extension > 0 {
                s.extended(Extension::Blocks);
            }
        });
        self.board.play(block, me);
        let score = -self.negamax(-beta, -alpha, depth + extension, ply + 1, !cut);
        self.board.undo();
        if !self.aborted {
            self.set_pv(ply, block);
        }
        Some(score)
    }

    /// The node's static value for `me`: the network's where the classical value (on the
    /// network's scale, `StandIn`) lies near the window (`NET_LAZY_MARGIN`), else that value.
    pub(super) fn static_value(&mut self, me: Color, alpha: i32, beta: i32) -> i32 {
        self.eval.evaluate_within(
            self.board,
            me,
            alpha - NET_LAZY_MARGIN,
            beta + NET_LAZY_MARGIN,
        )
    }

    /// Adds the network's policy to the moves' ordering scores (nothing with the classical
    /// evaluation): asked only at deep nodes, where bringing its state to the position is
    /// paid for by the subtree that the better order saves.
    fn add_policy(&mut self, me: Color, moves: &mut [Move]) {
        if let Some(logit) = self.eval.policy(self.board, me) {
            for m in moves {
                let bonus = i64::from(logit(m.pos)) * i64::from(POLICY_ORDER_WEIGHT)
                    / i64::from(POLICY_ONE);
                m.score = m.score.saturating_add(bonus as i32);
            }
        }
    }

    /// Whether the user blocked this point at this ply (only the root has blocks).
    fn blocked_at(&self, ply: usize, pos: Pos) -> bool {
        ply == 0 && self.root_blocked.contains(&pos)
    }

    pub(super) fn set_pv(&mut self, ply: usize, pos: Pos) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(pos);
        if let Some(rest) = tail.first() {
            line.extend_from_slice(rest);
        }
    }

    /// A quiet move cut off: it becomes a killer and gains history; the quiet moves tried
    /// before it lose some.
    fn reward(&mut self, me: Color, best: &Move, depth: i32, ply: usize) {
        if !best.is_quiet() {
            return;
        }
        let killers = &mut self.killers[ply.min(MAX_PLY)];
        if killers[0] != Some(best.pos) {
            killers[1] = killers[0];
            killers[0] = Some(best.pos);
        }
        let bonus = depth * depth;
        let history = &mut self.history[me.index()];
        let entry = &mut history[best.pos.index()];
        *entry = (*entry + bonus).clamp(-HISTORY_MAX, HISTORY_MAX);
        for pos in &self.tried[ply] {
            let entry = &mut history[pos.index()];
            *entry = (*entry - bonus).clamp(-HISTORY_MAX, HISTORY_MAX);
        }
    }
}

/// Runs `test` with a searcher (classical evaluation, a 1 MiB table, no limits; publishing
/// its node count to `published`, if given) over a freestyle 15×15 board with `moves`
/// (renju notation) played.
#[cfg(test)]
pub(super) fn with_searcher<R>(
    moves: &str,
    published: Option<&AtomicU64>,
    test: impl FnOnce(&mut Searcher) -> R,
) -> R {
    use crate::game::{BoardSize, Rule};
    let size = BoardSize::square(15).expect("a size");
    let mut board = Board::new(size, Rule::Freestyle);
    for text in moves.split_whitespace() {
        let pos = size.parse_human(text).expect("a point");
        board.play(pos, board.side_to_move());
    }
    let (table, stop) = (Table::with_bytes(1 << 20), Stop::new());
    let cutoff = Cutoff {
        deadline: None,
        max_nodes: None,
    };
    let mut searcher = Searcher::new(
        &mut board,
        &table,
        &stop,
        cutoff,
        Instant::now(),
        EvalKind::Classical,
    );
    searcher.published_nodes = published;
    test(&mut searcher)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_helper_publishes_every_node_it_counts() {
        let count = AtomicU64::new(0);
        with_searcher("h8 i9 j8 i8 i7 j6 g9 h10 k9", Some(&count), |searcher| {
            searcher.root(-WIN, WIN, 5);
            assert!(searcher.nodes > 100);
            assert_eq!(count.load(Ordering::Relaxed), searcher.nodes);
        });
    }

    #[test]
    fn blocks_extend_a_line_by_their_share_of_a_ply() {
        let (mut credit, mut plies) = (0, 0);
        for _ in 0..BLOCK_EXTENSION_UNITS {
            let (after, extension) = block_credit_after(credit, true);
            assert!((0..BLOCK_EXTENSION_UNITS).contains(&after));
            credit = after;
            plies += extension;
        }
        assert_eq!((credit, plies), (0, BLOCK_EXTENSION));
        // Where the line may not extend, the credit waits.
        let (after, extension) = block_credit_after(BLOCK_EXTENSION_UNITS - 1, false);
        assert_eq!(
            (after, extension),
            (BLOCK_EXTENSION_UNITS - 1 + BLOCK_EXTENSION, 0)
        );
    }
}
