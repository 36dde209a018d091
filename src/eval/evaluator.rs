//! Which evaluation a search uses: the classical linear one, or the network where the rule
//! has one (with its incremental state, one per search thread).

use super::evaluate;
use super::net::{embedded, NetState};
use crate::game::{Board, Color};

/// The evaluation asked for (`--eval`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    #[default]
    Classical,
    /// The network where the rule has one, the classical evaluation elsewhere.
    Net,
}

impl EvalKind {
    pub fn parse(text: &str) -> Option<EvalKind> {
        match text {
            "classical" => Some(EvalKind::Classical),
            "net" => Some(EvalKind::Net),
            _ => None,
        }
    }
}

/// A search thread's evaluation.
#[derive(Clone, Debug)]
pub enum Evaluator {
    Classical,
    Net(Box<NetState>),
}

impl Evaluator {
    /// The evaluation of `kind` for `board`'s rule and size.
    pub fn new(kind: EvalKind, board: &Board) -> Evaluator {
        match (kind, embedded::for_rule(board.rule())) {
            (EvalKind::Net, Some(net)) => {
                Evaluator::Net(Box::new(NetState::new(net, board.size())))
            }
            _ => Evaluator::Classical,
        }
    }

    /// The position's value for `to_move` (positive is good for it).
    #[inline]
    pub fn evaluate(&mut self, board: &Board, to_move: Color) -> i32 {
        match self {
            Evaluator::Classical => evaluate(board, to_move),
            Evaluator::Net(state) => state.evaluate(board, to_move),
        }
    }
}
