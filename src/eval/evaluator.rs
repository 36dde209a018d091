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
    /// The network's state, and its values of recent positions: iterative deepening meets
    /// the same positions again and again, and a value found there needs neither the
    /// network nor bringing its state to the position.
    Net(Box<NetState>, Vec<u64>),
}

/// Entries of the network's value cache (8 bytes each).
const CACHE_ENTRIES: usize = 1 << 14;
/// A cache entry: the position's key above these bits, its value (as u16) below.
const VALUE_BITS: u32 = 16;

impl Evaluator {
    /// The evaluation of `kind` for `board`'s rule and size.
    pub fn new(kind: EvalKind, board: &Board) -> Evaluator {
        match (kind, embedded::for_rule(board.rule())) {
            (EvalKind::Net, Some(net)) => Evaluator::Net(
                Box::new(NetState::new(net, board.size())),
                vec![0; CACHE_ENTRIES],
            ),
            _ => Evaluator::Classical,
        }
    }

    /// The position's value for `to_move` (positive is good for it).
    #[inline]
    pub fn evaluate(&mut self, board: &Board, to_move: Color) -> i32 {
        match self {
            Evaluator::Classical => evaluate(board, to_move),
            Evaluator::Net(state, cache) => {
                let key =
                    board.hash() ^ (to_move.index() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                let slot = &mut cache[key as usize % CACHE_ENTRIES];
                if *slot >> VALUE_BITS == key >> VALUE_BITS && *slot != 0 {
                    return *slot as u16 as i16 as i32;
                }
                let value = state.evaluate(board, to_move);
                *slot = key >> VALUE_BITS << VALUE_BITS | value as i16 as u16 as u64;
                value
            }
        }
    }
}
