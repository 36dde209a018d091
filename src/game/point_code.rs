//! A point's four line patterns for one side as one number: which patterns it holds and how
//! many of each, whatever their directions (a multiset of four of the 11 patterns). The move
//! ordering values a point by its code, so that "three, two, two" can be worth more or less
//! than its parts.

use super::board::Board;
use super::color::Color;
use super::coord::Pos;
use super::pattern::PATTERN_KINDS;
use once_cell::sync::Lazy;
use std::collections::HashMap;

/// How many codes there are: the multisets of four of the 11 patterns, C(14, 4).
pub const POINT_CODES: usize = 1001;

/// Four patterns in direction order, as a number in base 11.
const ORDERED_KEYS: usize = PATTERN_KINDS * PATTERN_KINDS * PATTERN_KINDS * PATTERN_KINDS;

/// The code of every ordered key: codes numbered in the order their smallest key comes.
static CODE_BY_KEY: Lazy<Vec<u16>> = Lazy::new(|| {
    let mut code_of = HashMap::with_capacity(POINT_CODES);
    (0..ORDERED_KEYS)
        .map(|key| {
            let next = code_of.len() as u16;
            *code_of.entry(sorted_digits(key)).or_insert(next)
        })
        .collect()
});

fn sorted_digits(key: usize) -> [usize; 4] {
    let mut digits = [
        key / (PATTERN_KINDS * PATTERN_KINDS * PATTERN_KINDS),
        key / (PATTERN_KINDS * PATTERN_KINDS) % PATTERN_KINDS,
        key / PATTERN_KINDS % PATTERN_KINDS,
        key % PATTERN_KINDS,
    ];
    digits.sort_unstable();
    digits
}

/// The code of every four pattern values packed a nibble each (first direction lowest): what
/// [`point_code`] reads, so that it needs no arithmetic per direction. Nibbles that are no
/// pattern never occur.
static CODE_BY_NIBBLES: Lazy<Vec<u16>> = Lazy::new(|| {
    (0..1 << 16)
        .map(|nibbles: usize| {
            let digits = [
                nibbles & 15,
                nibbles >> 4 & 15,
                nibbles >> 8 & 15,
                nibbles >> 12,
            ];
            if digits.iter().any(|&d| d >= PATTERN_KINDS) {
                return 0;
            }
            CODE_BY_KEY[digits.iter().fold(0, |key, &d| key * PATTERN_KINDS + d)]
        })
        .collect()
});

/// The code of the empty point `pos` for `color`: below [`POINT_CODES`].
#[inline]
pub fn point_code(board: &Board, pos: Pos, color: Color) -> usize {
    // One colour's four nibbles of the entries, gathered into 16 bits.
    let nibbles = board.pattern_entries(pos) >> (4 * color.index()) & 0x0F0F_0F0F;
    let nibbles = (nibbles | nibbles >> 4) & 0x00FF_00FF;
    let nibbles = (nibbles | nibbles >> 8) & 0xFFFF;
    usize::from(CODE_BY_NIBBLES[nibbles as usize])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{BoardSize, Direction, Rule};

    #[test]
    fn a_points_code_is_the_code_of_its_four_patterns() {
        let mut board = Board::new(BoardSize::square(15).unwrap(), Rule::Renju);
        let moves = [
            (7, 7),
            (8, 7),
            (8, 8),
            (6, 6),
            (9, 9),
            (7, 9),
            (6, 8),
            (9, 6),
            (5, 9),
        ];
        for (i, &(x, y)) in moves.iter().enumerate() {
            let color = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            board.play(Pos::new(x, y), color);
        }
        for pos in board.candidates() {
            for color in [Color::Black, Color::White] {
                let key = Direction::ALL.into_iter().fold(0, |key, dir| {
                    key * PATTERN_KINDS + board.pattern(pos, dir, color) as usize
                });
                assert_eq!(
                    point_code(&board, pos, color),
                    usize::from(CODE_BY_KEY[key])
                );
            }
        }
    }

    #[test]
    fn every_multiset_has_one_code_and_back() {
        let code_by_key = &*CODE_BY_KEY;
        assert_eq!(code_by_key.len(), ORDERED_KEYS);
        // Each code stands for one multiset, and each multiset has one code.
        let mut patterns_by_code: Vec<Option<[usize; 4]>> = vec![None; POINT_CODES];
        for (key, &code) in code_by_key.iter().enumerate() {
            let code = usize::from(code);
            assert!(code < POINT_CODES);
            let patterns = *patterns_by_code[code].get_or_insert(sorted_digits(key));
            assert_eq!(patterns, sorted_digits(key), "key {key}");
        }
        assert!(patterns_by_code.iter().all(Option::is_some));
        // The same patterns in another order: the same code.
        let key = |d: [usize; 4]| d.iter().fold(0, |k, &p| k * PATTERN_KINDS + p);
        assert_eq!(
            code_by_key[key([7, 2, 5, 2])],
            code_by_key[key([2, 2, 7, 5])]
        );
        assert_ne!(
            code_by_key[key([7, 2, 5, 2])],
            code_by_key[key([7, 2, 5, 3])]
        );
    }
}
