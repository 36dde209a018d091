//! The horizon: a win read off the board (`quick_win`) first; else stand pat on the static
//! value (always in a null window whose alpha is a proven win already), or keep making
//! fours (the opponent's answers are forced) while they gain — a bounded VCF. After the
//! first four, only fours on the lines of the side's previous four are tried (a VCF goes on
//! where the last four left off), at most `QUIESCENCE_BRANCHES` of them, `QUIESCENCE_FOURS`
//! deep; results go into the transposition table at depth 0, so crowded boards full of
//! fours do not search the same sequences again and again.

use super::alphabeta::Searcher;
use super::movegen::fours;
use super::params::*;
use super::quick_win::quick_win;
use super::tree_stats::Pruning;
use super::tt::Bound;
use crate::game::Pos;

impl Searcher<'_> {
    pub(super) fn quiesce(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        fours_left: i32,
        last_four: Option<Pos>,
    ) -> i32 {
        if !self.enter_node() {
            return 0;
        }
        self.count(|s| s.node(ply, true));
        let me = self.board.side_to_move();
        if self.board.has_five_point(me) {
            return WIN - ply as i32 - 1;
        }
        if self.board.has_five_point(me.opponent()) {
            // The block is forced; the attacker's next four goes on from its last one.
            let fives = self.board.five_points(me.opponent());
            if fives.len() != 1 || self.board.is_forbidden(fives[0], me) || ply >= MAX_PLY - 1 {
                return -(WIN - ply as i32 - 2);
            }
            self.board.play(fives[0], me);
            let score = -self.quiesce(-beta, -alpha, ply + 1, fours_left, last_four);
            self.board.undo();
            return score;
        }
        if let Some(plies) = quick_win(self.board, me) {
            return WIN - ply as i32 - plies;
        }
        let stand = self.static_value(me, alpha, beta);
        if stand >= beta || fours_left <= 0 || ply >= MAX_PLY - 2 {
            return stand;
        }
        // Alpha a proven win already: only a faster win beats it, and chasing one through
        // the fours costs the proof of the first. A null window stands pat (the side facing
        // the win, whose alpha is a loss, still tries every four).
        if beta - alpha == 1 && alpha > WIN_THRESHOLD {
            self.count(|s| s.pruned(Pruning::ShorterMate));
            return stand;
        }
        let hash = self.board.hash();
        let hit = self.tt.probe(hash, ply);
        self.count(|s| {
            s.probed(
                hit.is_some(),
                hit.map_or(false, |h| h.score.abs() > WIN_THRESHOLD),
            )
        });
        if let Some(hit) = hit {
            if hit.decides(alpha, beta) {
                return hit.score;
            }
        }
        let original_alpha = alpha;
        alpha = alpha.max(stand);
        let mut best = stand;
        let mut best_move = None;
        let fours = fours(self.board, me, last_four, &mut self.scratch);
        for pos in fours.into_iter().flatten() {
            self.tt.prefetch(self.board.hash_after(pos, me));
            self.board.play(pos, me);
            let score = -self.quiesce(-beta, -alpha, ply + 1, fours_left - 1, Some(pos));
            self.board.undo();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(pos);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(hash, ply, 0, best, bound, best_move);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::alphabeta::with_searcher;

    /// A side whose null window asks for a faster win than one already proven stands pat at
    /// once; below a quiet alpha it tries its fours.
    #[test]
    fn a_null_window_above_a_proven_win_is_not_searched() {
        // Black h8 i8 j8, blocked by white's g8: black, to move, has fours at k8 and l8.
        with_searcher("h8 g8 i8 a1 j8 o1", None, |searcher| {
            let me = searcher.board.side_to_move();
            let stand = searcher.static_value(me, -WIN, WIN);
            let alpha = WIN_THRESHOLD + 1;
            let score = searcher.quiesce(alpha, alpha + 1, 1, QUIESCENCE_FOURS, None);
            assert_eq!((score, searcher.nodes), (stand, 1));
            let alpha = stand + 1;
            searcher.quiesce(alpha, alpha + 1, 1, QUIESCENCE_FOURS, None);
            assert!(searcher.nodes > 2, "{} nodes", searcher.nodes);
        });
    }
}
