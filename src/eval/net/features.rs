//! The network's input: for a point and a direction, the line around the point as a feature
//! id, in one of two ways ([`LineFeatures`]).
//!
//! The window: four cells on each side, each empty, the mover's ("own"), the opponent's or
//! wall. Only lines a board can hold have ids (walls run unbroken from the first one outwards:
//! 121 sides of four cells), and a line and its mirror image share one (a pattern is worth the
//! same read either way): 7,381 ids, and id 0 for anything else, whose vector stays zero.
//!
//! Renju's: the window together with the renju patterns the mover and the opponent would make
//! at the point, read on five cells a side. Black's overlines, and the fours and threes a
//! sixth stone spoils, lie partly beyond the window and differ between the sides: the window
//! alone cannot tell them.

use crate::game::{line_patterns, Board, Color, Direction, Pattern, Pos, Rule, KEY_BITS, REACH};
use once_cell::sync::Lazy;
use std::collections::HashMap;

/// Cells on each side of the point.
pub const WINDOW: u32 = 4;
/// Bits of a window key: 2 bits for each of the 8 cells.
pub const WINDOW_BITS: u32 = 4 * WINDOW;
/// Window feature ids, the unused id 0 included.
pub const FEATURE_IDS: usize = 7_382;

/// How a network reads a line (its weight file says which).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineFeatures {
    /// The window of four cells a side.
    Window,
    /// The window with the renju patterns of both sides at the point.
    RenjuWindow,
}

impl LineFeatures {
    pub const ALL: [LineFeatures; 2] = [LineFeatures::Window, LineFeatures::RenjuWindow];

    /// The code in a weight file.
    pub fn code(self) -> u32 {
        self as u32
    }

    pub fn from_code(code: u32) -> Option<LineFeatures> {
        LineFeatures::ALL.get(code as usize).copied()
    }

    /// Feature ids of one table, the unused id 0 included.
    pub fn ids(self) -> usize {
        match self {
            LineFeatures::Window => FEATURE_IDS,
            LineFeatures::RenjuWindow => RENJU.count,
        }
    }

    /// How far along a line a stone can change a point's feature.
    pub fn reach(self) -> i32 {
        match self {
            LineFeatures::Window => WINDOW as i32,
            LineFeatures::RenjuWindow => REACH,
        }
    }

    /// The ids `mover` reads, looked up at [`LineFeatures::index`].
    pub fn table(self, mover: Color) -> &'static [u16] {
        match self {
            LineFeatures::Window => &IDS,
            LineFeatures::RenjuWindow => &RENJU.by_key[mover.index()],
        }
    }

    /// Where a line key ([`Lines::key`](crate::game::Lines::key)) is looked up in
    /// [`LineFeatures::table`].
    #[inline(always)]
    pub fn index(self, line_key: u32, mover: Color) -> usize {
        match self {
            LineFeatures::Window => window_key(line_key, mover) as usize,
            LineFeatures::RenjuWindow => line_key as usize & ((1 << KEY_BITS) - 1),
        }
    }

    /// The feature id of a line key for `mover`.
    #[inline]
    pub fn id(self, line_key: u32, mover: Color) -> usize {
        self.table(mover)[self.index(line_key, mover)] as usize
    }
}

/// Renju's ids: one for each (window id, mover's pattern, opponent's pattern) that a line
/// key makes, numbered as first met (black's keys, then white's, in order).
struct RenjuIds {
    by_key: [Vec<u16>; 2],
    count: usize,
}

static RENJU: Lazy<RenjuIds> = Lazy::new(|| {
    let mut ids: HashMap<(usize, Pattern, Pattern), u16> = HashMap::new();
    let by_key = [Color::Black, Color::White].map(|mover| {
        let mut table = vec![0u16; 1 << KEY_BITS];
        for key in (0..1u32 << KEY_BITS).filter(|&key| is_possible_line(key)) {
            let window = feature_id(window_key(key, mover));
            let patterns = line_patterns(Rule::Renju, key);
            let combo = (
                window,
                patterns[mover.index()],
                patterns[mover.opponent().index()],
            );
            let next = ids.len() as u16 + 1;
            table[key as usize] = *ids.entry(combo).or_insert(next);
        }
        table
    });
    RenjuIds {
        count: ids.len() + 1,
        by_key,
    }
});

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

/// Whether `cells` cells read outwards from the point (`cell(0)` nearest) are what a board
/// can hold: no cell past a wall but wall.
fn walls_unbroken(cells: u32, cell: impl Fn(u32) -> u32) -> bool {
    let mut walled = false;
    (0..cells).all(|i| {
        let c = cell(i);
        let ok = !walled || c == WALL;
        walled |= c == WALL;
        ok
    })
}

/// Whether a window key is one a board can hold.
fn is_possible(key: u32) -> bool {
    // Left side: p-1 at bits 6-7 outwards to p-4 at bits 0-1; right side: p+1 at bits 8-9.
    walls_unbroken(WINDOW, |i| key >> (6 - 2 * i) & 3)
        && walls_unbroken(WINDOW, |i| key >> (8 + 2 * i) & 3)
}

/// Whether a line key ([`Lines::key`](crate::game::Lines::key)) is one a board can hold.
fn is_possible_line(key: u32) -> bool {
    // Left side: p-1 at bits 8-9 outwards to p-5 at bits 0-1; right side: p+1 at bits 10-11.
    let reach = REACH as u32;
    walls_unbroken(reach, |i| key >> (8 - 2 * i) & 3)
        && walls_unbroken(reach, |i| key >> (10 + 2 * i) & 3)
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

/// The feature id of a window key.
#[inline]
pub fn feature_id(window_key: u32) -> usize {
    IDS[window_key as usize & 0xFFFF] as usize
}

/// Where `mover`'s feature vectors start in a network of `features` with `tables` tables
/// (1: both sides share them; 2: white's follow black's, for renju's unequal sides).
#[inline]
pub fn table_offset(features: LineFeatures, tables: usize, mover: Color) -> usize {
    if tables == 2 && mover == Color::White {
        features.ids()
    } else {
        0
    }
}

/// The four feature ids of every empty point, for `mover`, in a network of `features` with
/// `tables` tables: the trainer's input.
pub fn board_features(
    board: &Board,
    mover: Color,
    features: LineFeatures,
    tables: usize,
) -> Vec<(Pos, [u16; 4])> {
    let offset = table_offset(features, tables, mover);
    board
        .size()
        .points()
        .filter(|&p| board.is_empty(p))
        .map(|p| {
            let mut ids = [0u16; 4];
            for (id, dir) in ids.iter_mut().zip(Direction::ALL) {
                *id = (offset + features.id(board.line_key(dir, p), mover)) as u16;
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
            let mut board = Board::new(size, Rule::Freestyle);
            board.play(size.center(), Color::Black);
            for mover in [Color::Black, Color::White] {
                for (p, ids) in board_features(&board, mover, LineFeatures::Window, 1) {
                    assert!(ids.iter().all(|&id| id != 0), "{side}: {p:?} {ids:?}");
                }
            }
        }
    }

    /// A line key (black 1, white 2) from the cells p-5..p-1 and p+1..p+5.
    fn line_key(left: [u32; 5], right: [u32; 5]) -> u32 {
        let cells = left.iter().chain(right.iter());
        cells.enumerate().map(|(i, &c)| c << (2 * i)).sum()
    }

    #[test]
    fn renju_ids_tell_black_overlines_from_fives_and_only_for_black() {
        let renju = LineFeatures::RenjuWindow;
        assert!(
            renju.ids() > FEATURE_IDS && 2 * renju.ids() <= 1 << 16,
            "{}",
            renju.ids()
        );
        // Four stones beyond the point, and a fifth beyond the window or not.
        for (stone, differs) in [(1, true), (2, false)] {
            let five = line_key([0; 5], [stone, stone, stone, stone, 0]);
            let six = line_key([0; 5], [stone, stone, stone, stone, stone]);
            for mover in [Color::Black, Color::White] {
                let window = LineFeatures::Window;
                assert_eq!(window.id(five, mover), window.id(six, mover));
                let (a, b) = (renju.id(five, mover), renju.id(six, mover));
                assert!(a != 0 && b != 0);
                assert_eq!(a != b, differs, "stone {stone}, {mover:?}");
            }
        }
        // Mirror images share an id; impossible ends (empty past a wall) have none.
        let key = line_key([0, 0, 2, 1, 0], [1, 0, 0, 0, 2]);
        let mirror = line_key([2, 0, 0, 0, 1], [0, 1, 2, 0, 0]);
        assert_eq!(renju.id(key, Color::Black), renju.id(mirror, Color::Black));
        assert_eq!(renju.id(line_key([0, 3, 3, 3, 3], [0; 5]), Color::Black), 0);
        assert_ne!(renju.id(line_key([3; 5], [0; 5]), Color::Black), 0);
    }

    #[test]
    fn every_point_of_real_boards_has_real_renju_ids() {
        let size = BoardSize::square(15).unwrap();
        let mut board = Board::new(size, Rule::Renju);
        board.play(size.center(), Color::Black);
        for mover in [Color::Black, Color::White] {
            for (p, ids) in board_features(&board, mover, LineFeatures::RenjuWindow, 2) {
                assert!(ids.iter().all(|&id| id != 0), "{p:?} {ids:?}");
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
