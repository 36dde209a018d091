//! Which evaluation a search uses: the classical linear one, the network where the rule has
//! one (with its incremental state, one per search thread), or the classical value with the
//! network's policy ordering the moves.

use super::net::{embedded, NetState, NetUse, Network, StandIn};
use super::{evaluate, EVAL_LIMIT};
use crate::game::{Board, BoardSize, Color, Pos, Rule};

/// The evaluation asked for (`--eval`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    /// The network where it has won its match at time against the classical evaluation
    /// (`embedded::proven`), the classical evaluation elsewhere.
    #[default]
    Auto,
    Classical,
    /// The rule's network wherever its built-in file reads (every rule has one), the
    /// classical evaluation where it does not.
    Net,
    /// The classical value, with the rule's network ordering the moves (its policy) where
    /// its built-in file reads: the policy's better order at the cost of the network's
    /// updates, without its value's cost.
    Policy,
}

impl EvalKind {
    /// The names `parse` takes, for error messages.
    pub const CHOICES: &'static str = "auto, classical, net or policy";

    pub fn parse(text: &str) -> Option<EvalKind> {
        match text {
            "auto" => Some(EvalKind::Auto),
            "classical" => Some(EvalKind::Classical),
            "net" => Some(EvalKind::Net),
            "policy" => Some(EvalKind::Policy),
            _ => None,
        }
    }

    /// The network this evaluation plays with on this rule and board, and what for, if any.
    pub fn network(self, rule: Rule, size: BoardSize) -> Option<(&'static Network, NetUse)> {
        match self {
            EvalKind::Classical => None,
            EvalKind::Net => embedded::for_rule(rule).map(|net| (net, NetUse::ValueAndPolicy)),
            EvalKind::Policy => embedded::for_rule(rule).map(|net| (net, NetUse::PolicyOnly)),
            EvalKind::Auto => embedded::proven(rule, size),
        }
    }
}

/// A search thread's evaluation.
#[derive(Clone, Debug)]
pub enum Evaluator {
    Classical,
    Net {
        state: Box<NetState>,
        /// The network's values of recent positions: iterative deepening meets the same
        /// positions again and again, and a value found there needs neither the network nor
        /// bringing its state to the position.
        cache: Vec<u64>,
        /// The classical value on the network's scale, for the nodes it is not asked at.
        stand_in: StandIn,
    },
    /// The classical value; the network's state serves only its policy.
    Policy {
        state: Box<NetState>,
    },
}

/// Entries of the network's value cache (8 bytes each).
const CACHE_ENTRIES: usize = 1 << 14;
/// A cache entry: the position's key above these bits, its value (as u16) below.
const VALUE_BITS: u32 = 16;

impl Evaluator {
    /// The evaluation of `kind` for `board`'s rule and size.
    pub fn new(kind: EvalKind, board: &Board) -> Evaluator {
        match kind.network(board.rule(), board.size()) {
            Some((net, NetUse::ValueAndPolicy)) => Evaluator::Net {
                state: Box::new(NetState::new(net, board.size())),
                cache: vec![0; CACHE_ENTRIES],
                stand_in: StandIn::for_board(board.rule(), board.size()),
            },
            Some((net, NetUse::PolicyOnly)) => Evaluator::Policy {
                state: Box::new(NetState::new(net, board.size())),
            },
            None => Evaluator::Classical,
        }
    }

    /// The position's value for `to_move` (positive is good for it).
    #[inline]
    pub fn evaluate(&mut self, board: &Board, to_move: Color) -> i32 {
        self.evaluate_within(board, to_move, -EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The same, where the network asks the classical value first (put on its own scale,
    /// [`StandIn`]) and answers itself only if that lies within `low..=high`: far from the
    /// search's window a rough value decides as well, and the network's cost (bringing its
    /// state to the position) is saved.
    #[inline]
    pub fn evaluate_within(&mut self, board: &Board, to_move: Color, low: i32, high: i32) -> i32 {
        match self {
            Evaluator::Classical | Evaluator::Policy { .. } => evaluate(board, to_move),
            Evaluator::Net {
                state,
                cache,
                stand_in,
            } => {
                let key =
                    board.hash() ^ (to_move.index() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                let slot = &mut cache[key as usize % CACHE_ENTRIES];
                if *slot >> VALUE_BITS == key >> VALUE_BITS && *slot != 0 {
                    return *slot as u16 as i16 as i32;
                }
                let stand_in_value = stand_in.apply(evaluate(board, to_move));
                if stand_in_value < low || stand_in_value > high {
                    return stand_in_value;
                }
                let value = state.evaluate(board, to_move);
                *slot = key >> VALUE_BITS << VALUE_BITS | value as i16 as u16 as u64;
                value
            }
        }
    }

    /// The network's move policy at `board` for `to_move` (a logit per empty point, in
    /// `POLICY_ONE` units a logistic unit); none with the classical evaluation.
    pub fn policy<'a>(
        &'a mut self,
        board: &Board,
        to_move: Color,
    ) -> Option<impl Fn(Pos) -> i32 + 'a> {
        match self {
            Evaluator::Classical => None,
            Evaluator::Net { state, .. } | Evaluator::Policy { state } => {
                Some(state.policy(board, to_move))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{BoardSize, Rule};

    #[test]
    fn the_network_answers_near_the_window_and_the_classical_value_on_its_scale_far_from_it() {
        for (width, stones, mapped_here) in [
            (15, ["h8", "h9", "i8", "j10", "g7", "g8"], false),
            (20, ["k10", "k11", "l10", "m12", "j9", "j10"], true),
        ] {
            let size = BoardSize::square(width).unwrap();
            let mut board = Board::new(size, Rule::Freestyle);
            for text in stones {
                board.play(size.parse_human(text).unwrap(), board.side_to_move());
            }
            let me = board.side_to_move();
            let stand_in = StandIn::for_board(Rule::Freestyle, size);
            assert_eq!(stand_in != StandIn::IDENTITY, mapped_here, "{width}");
            let mapped = stand_in.apply(evaluate(&board, me));
            let mut far = Evaluator::new(EvalKind::Net, &board);
            assert_eq!(
                far.evaluate_within(&board, me, mapped + 1, mapped + 9),
                mapped
            );
            assert_eq!(
                far.evaluate_within(&board, me, mapped - 9, mapped - 1),
                mapped
            );
            let mut near = Evaluator::new(EvalKind::Net, &board);
            let net = near.evaluate_within(&board, me, mapped, mapped);
            assert_eq!(net, near.evaluate(&board, me));
            assert_ne!(net, mapped, "{width}: this position's two values differ");
        }
        let renju = StandIn::for_board(Rule::Renju, BoardSize::square(15).unwrap());
        assert_eq!(renju, StandIn::IDENTITY);
    }

    #[test]
    fn the_policy_evaluation_gives_the_classical_value_and_the_networks_policy() {
        for rule in [Rule::Freestyle, Rule::Renju] {
            let size = BoardSize::square(15).unwrap();
            let mut board = Board::new(size, rule);
            for text in ["h8", "h9", "i8", "j10", "g7", "g8"] {
                board.play(size.parse_human(text).unwrap(), board.side_to_move());
            }
            let me = board.side_to_move();
            let mut policy_only = Evaluator::new(EvalKind::Policy, &board);
            assert!(matches!(policy_only, Evaluator::Policy { .. }), "{rule:?}");
            assert_eq!(policy_only.evaluate(&board, me), evaluate(&board, me));
            let mut net = Evaluator::new(EvalKind::Net, &board);
            let logits = |evaluator: &mut Evaluator| {
                let logit = evaluator.policy(&board, me).expect("a policy");
                size.points()
                    .filter(|&pos| board.is_empty(pos))
                    .map(logit)
                    .collect::<Vec<_>>()
            };
            assert_eq!(logits(&mut policy_only), logits(&mut net), "{rule:?}");
        }
    }

    #[test]
    fn only_the_network_has_a_policy() {
        let size = BoardSize::square(15).unwrap();
        let mut board = Board::new(size, Rule::Freestyle);
        board.play(size.parse_human("h8").unwrap(), Color::Black);
        let me = board.side_to_move();
        assert!(Evaluator::new(EvalKind::Classical, &board)
            .policy(&board, me)
            .is_none());
        let mut net = Evaluator::new(EvalKind::Net, &board);
        let policy = net.policy(&board, me).expect("freestyle has a network");
        let near = policy(size.parse_human("h9").unwrap());
        let far = policy(size.parse_human("a1").unwrap());
        assert!(
            near > far,
            "the trained policy prefers h9 ({near}) to a1 ({far})"
        );
    }
}
