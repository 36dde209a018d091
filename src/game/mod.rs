//! The rules: boards, coordinates, win conditions, renju forbidden points and the incremental
//! pattern state a search needs. Nothing here knows about search or text protocols.

mod board;
mod color;
mod coord;
mod forbidden;
mod line;
mod outcome;
mod pattern;
mod point_code;
mod point_set;
pub mod reference;
mod rule;
mod shape;
mod threat;
mod zobrist;

pub use board::Board;
pub use color::Color;
pub use coord::{BoardSize, Direction, Pos, MAX_SIZE, MIN_SIZE, POS_COUNT};
pub use forbidden::Foul;
pub use line::{cell_code, Lines, KEY_BITS, REACH};
pub use outcome::{gomocup_stone_limit, judge_move, Verdict};
pub use pattern::{line_patterns, Pattern, PATTERN_KINDS};
pub use point_code::{point_code, POINT_CODES};
pub use rule::Rule;
pub use shape::{Shape, SHAPE_KINDS};
pub use threat::Threat;
pub use zobrist::key as stone_key;
