//! The engine's strength levels for people: a depth and node cap (the engine's
//! [`Handicap`]) and a default thinking time, from a beginner to full strength.

use crate::engine::Handicap;
use crate::eval::evaluator::EvalKind;

/// A named strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub name: &'static str,
    pub handicap: Handicap,
    /// Thinking time per move unless `--time` says otherwise.
    pub move_ms: u64,
    /// One line for `--help`.
    pub about: &'static str,
}

/// Weakest first; the last is full strength, the default.
pub const LEVELS: [Level; 5] = [
    Level {
        name: "beginner",
        handicap: Handicap {
            max_depth: Some(1),
            max_nodes: Some(2_000),
            plain: false,
            eval: EvalKind::Classical,
        },
        move_ms: 200,
        about: "looks one move ahead (and sees forced wins by fours)",
    },
    Level {
        name: "casual",
        handicap: Handicap {
            max_depth: Some(3),
            max_nodes: Some(20_000),
            plain: false,
            eval: EvalKind::Classical,
        },
        move_ms: 500,
        about: "three moves ahead, 20 thousand positions a move",
    },
    Level {
        name: "club",
        handicap: Handicap {
            max_depth: Some(6),
            max_nodes: Some(200_000),
            plain: false,
            eval: EvalKind::Classical,
        },
        move_ms: 1_000,
        about: "six moves ahead, 200 thousand positions a move",
    },
    Level {
        name: "expert",
        handicap: Handicap {
            max_depth: Some(10),
            max_nodes: None,
            plain: false,
            eval: EvalKind::Auto,
        },
        move_ms: 2_000,
        about: "ten moves ahead, 2 s a move",
    },
    Level {
        name: "master",
        handicap: Handicap {
            max_depth: None,
            max_nodes: None,
            plain: false,
            eval: EvalKind::Auto,
        },
        move_ms: 3_000,
        about: "full strength, 3 s a move (the default)",
    },
];

impl Level {
    /// Full strength.
    pub fn strongest() -> Level {
        LEVELS[LEVELS.len() - 1]
    }

    pub fn by_name(name: &str) -> Option<Level> {
        LEVELS
            .iter()
            .copied()
            .find(|level| level.name.eq_ignore_ascii_case(name))
    }

    /// The names, comma-separated, weakest first.
    pub fn names() -> String {
        LEVELS.iter().map(|l| l.name).collect::<Vec<_>>().join(", ")
    }

    /// Whether the engine plays at full strength at this level.
    pub fn is_full_strength(&self) -> bool {
        self.handicap == Handicap::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow_stronger_and_end_at_full_strength() {
        for pair in LEVELS.windows(2) {
            let depth = |l: &Level| l.handicap.max_depth.unwrap_or(u32::MAX);
            let nodes = |l: &Level| l.handicap.max_nodes.unwrap_or(u64::MAX);
            assert!(depth(&pair[0]) < depth(&pair[1]), "{}", pair[1].name);
            assert!(nodes(&pair[0]) <= nodes(&pair[1]), "{}", pair[1].name);
            assert!(pair[0].move_ms <= pair[1].move_ms, "{}", pair[1].name);
        }
        assert!(Level::strongest().is_full_strength());
        assert_eq!(Level::by_name("Beginner"), Some(LEVELS[0]));
        assert_eq!(Level::by_name("grandmaster"), None);
    }
}
