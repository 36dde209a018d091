//! The network's input: for a point and a direction, the line around the point — four cells
//! on each side, each empty, the mover's ("own"), the opponent's or wall — as a feature id.
//!
//! Only lines a board can hold have ids (walls run unbroken from the first one outwards: 121
//! sides of four cells), and a line and its mirror image share one (a pattern is worth the
//! same read either way): 7,381 ids, and id 0 for anything else, whose vector stays zero.

use crate::game::{Board, Color, Direction, Lines, Pos};
use once_cell::sync::Lazy;

/// Cells on each side of the point.
pub const WINDOW: u32 = 4;
/// Bits of a window key: 2 bits for each of the 8 cells.
pub const WINDOW_BITS: u32 = 4 * WINDOW;
/// Feature ids, the unused id 0 included.
pub const FEATURE_IDS: usize = 7_382;

/// The wall's cell code in a window key.
const WALL: u32 = 3;

/// Each window key's feature id (0 for keys no board holds).
static IDS: Lazy<Vec<u16>> = Lazy::new(|| {
    let mut ids = vec![0u16; 1 << WINDOW_BITS];
    let mut next = 1u16;
    for key in 0..1u32 << WINDOW_BITS {
        if !is_possible(key) {
            continue;
        }
        let mirror = mirrored(key);
        ids[key as usize] = if mirror < key {
            ids[mirror as usize]
        } else {
            next += 1;
            next - 1
        };
    }
    debug_assert_eq!(next as usize, FEATURE_IDS);
    ids
});

/// Whether four cells read outwards from the point (`cell(0)` nearest) are what a board can
/// hold: no cell past a wall but wall.
fn walls_unbroken(cell: impl Fn(u32) -> u32) -> bool {
    let mut walled = false;
    (0..WINDOW).all(|i| {
        let c = cell(i);
        let ok = !walled || c == WALL;
        walled |= c == WALL;
        ok
    })
}

/// Whether a window key is one a board can hold.
fn is_possible(key: u32) -> bool {
    // Left side: p-1 at bits 6-7 outwards to p-4 at bits 0-1; right side: p+1 at bits 8-9.
    walls_unbroken(|i| key >> (6 - 2 * i) & 3) && walls_unbroken(|i| key >> (8 + 2 * i) & 3)
}

/// The key read from the other end of the line.
fn mirrored(key: u32) -> u32 {
    let mut mirror = 0;
    for i in 0..2 * WINDOW {
        let cell = key >> (2 * i) & 3;
        mirror |= cell << (2 * (2 * WINDOW - 1 - i));
    }
    mirror
}

/// The window key of a line key ([`Lines::key`]: five cells a side, black 1 and white 2):
/// cells p-4..p-1 in bits 0..8 (p-4 lowest), p+1..p+4 in bits 8..16, with `mover`'s stones 1.
#[inline]
pub fn window_key(line_key: u32, mover: Color) -> u32 {
    let key = line_key >> 2 & 0xFFFF;
    match mover {
        Color::Black => key,
        // Swap the two stone codes; empty (0) and wall (3) stay.
        Color::White => key ^ (((key ^ (key >> 1)) & 0x5555) * 3),
    }
}

/// Every window key's feature id, for lookups in a loop.
pub fn id_table() -> &'static [u16] {
    &IDS
}

/// The feature id of a window key.
#[inline]
pub fn feature_id(window_key: u32) -> usize {
    IDS[window_key as usize & 0xFFFF] as usize
}

/// The feature id of `pos` along `dir` in `lines`, for `mover`.
#[inline]
pub fn line_feature(lines: &Lines, dir: Direction, pos: Pos, mover: Color) -> usize {
    feature_id(window_key(lines.key(dir, pos), mover))
}

/// Where `mover`'s feature vectors start in a network with `tables` tables (1: both sides
/// share them; 2: white's follow black's, for renju's unequal sides).
#[inline]
pub fn table_offset(tables: usize, mover: Color) -> usize {
    if tables == 2 && mover == Color::White {
        FEATURE_IDS
    } else {
        0
    }
}

/// The four feature ids of every empty point, for `mover`, in a network with `tables`
/// tables: the trainer's input.
pub fn board_features(board: &Board, mover: Color, tables: usize) -> Vec<(Pos, [u16; 4])> {
    let offset = table_offset(tables, mover);
    board
        .size()
        .points()
        .filter(|&p| board.is_empty(p))
        .map(|p| {
            let mut ids = [0u16; 4];
            for (id, dir) in ids.iter_mut().zip(Direction::ALL) {
                *id = (offset + feature_id(window_key(board.line_key(dir, p), mover))) as u16;
            }
            (p, ids)
        })
        .collect()
}

/// Whether a window key has a stone of the mover right beside the point (for tests).
#[cfg(test)]
const OWN: u32 = 1;

#[cfg(test)]
fn touches_own(key: u32) -> bool {
    key >> 6 & 3 == OWN || key >> 8 & 3 == OWN
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::BoardSize;

    #[test]
    fn every_possible_line_has_an_id_shared_with_its_mirror_only() {
        let ids = &*IDS;
        let used: std::collections::HashSet<u16> = ids.iter().copied().collect();
        assert_eq!(used.len(), FEATURE_IDS);
        // The empty line, and a stone on one side and its mirror.
        let one_left = OWN << 6;
        let one_right = OWN << 8;
        assert!(touches_own(one_left) && touches_own(one_right));
        assert_eq!(feature_id(one_left), feature_id(one_right));
        assert_ne!(feature_id(one_left), feature_id(0));
        assert_ne!(feature_id(0), 0);
        // A wall with an empty cell beyond it is impossible.
        assert_eq!(feature_id(WALL << 6), 0);
        assert_ne!(feature_id(WALL), 0);
    }

    #[test]
    fn every_point_of_real_boards_has_real_ids() {
        for side in [5, 15, 20] {
            let size = BoardSize::square(side).unwrap();
            let mut board = Board::new(size, crate::game::Rule::Freestyle);
            board.play(size.center(), Color::Black);
            for mover in [Color::Black, Color::White] {
                for (p, ids) in board_features(&board, mover, 1) {
                    assert!(ids.iter().all(|&id| id != 0), "{side}: {p:?} {ids:?}");
                }
            }
        }
    }

    #[test]
    fn the_white_view_swaps_the_stones() {
        let black_key = 1u32 << 2 | 2 << 12 | 3 << 20;
        let key = window_key(black_key, Color::White);
        assert_eq!(key & 3, 2);
        assert_eq!(key >> 10 & 3, 1);
        assert_eq!(window_key(black_key, Color::Black) >> 10 & 3, 2);
    }
}
