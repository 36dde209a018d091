//! Whole lines as bit strings: 2 bits a cell, walls around the board, so the neighbourhood of
//! any point in any direction is one shift and one mask away.

use super::color::Color;
use super::coord::{BoardSize, Direction, Pos, MAX_SIZE};

/// Cell codes as stored in a line.
pub const EMPTY: u32 = 0;
pub const BLACK: u32 = 1;
pub const WHITE: u32 = 2;
pub const WALL: u32 = 3;

/// The cell code of a stone of `color`.
#[inline]
pub fn cell_code(color: Color) -> u32 {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// Wall cells kept before position 0 of every line, so a view never shifts out of range.
const PAD: usize = 16;
/// How far back from its point a [`LineView`] starts.
const VIEW_BACK: i32 = 10;
/// Lines per direction (diagonals of a 32×32 board).
const LINES: usize = 2 * MAX_SIZE - 1;

/// How far each side of a point its pattern key reaches.
pub const REACH: i32 = 5;
/// Number of bits of a [`Lines::key`]: 2 bits for each of the 10 neighbours.
pub const KEY_BITS: u32 = 20;

/// The four families of lines of one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lines {
    bits: [[u128; LINES]; 4],
}

impl Lines {
    /// Lines of an empty board of `size`: every on-board cell empty, everything else wall.
    pub fn new(size: BoardSize) -> Lines {
        let mut bits = [[u128::MAX; LINES]; 4];
        for pos in size.points() {
            for dir in Direction::ALL {
                let (line, at) = dir.locate(pos);
                bits[dir.index()][line] &= !(3u128 << shift(at));
            }
        }
        Lines { bits }
    }

    /// Puts a stone code on an empty cell.
    #[inline]
    pub fn put(&mut self, pos: Pos, code: u32) {
        for dir in Direction::ALL {
            let (line, at) = dir.locate(pos);
            self.bits[dir.index()][line] |= (code as u128) << shift(at);
        }
    }

    /// Empties a cell.
    #[inline]
    pub fn clear(&mut self, pos: Pos) {
        for dir in Direction::ALL {
            let (line, at) = dir.locate(pos);
            self.bits[dir.index()][line] &= !(3u128 << shift(at));
        }
    }

    /// The pattern key of `pos` along `dir`: the codes of the five cells on each side,
    /// p-5..p-1 in bits 0..10 and p+1..p+5 in bits 10..20.
    #[inline]
    pub fn key(&self, dir: Direction, pos: Pos) -> u32 {
        self.view(dir, pos).key(0)
    }

    /// The line through `pos` along `dir`, seen from `pos`.
    #[inline]
    pub fn view(&self, dir: Direction, pos: Pos) -> LineView {
        let (line, at) = dir.locate(pos);
        LineView {
            cells: (self.bits[dir.index()][line] >> shift_by(at, -VIEW_BACK)) as u64,
        }
    }
}

/// The 32 cells of a line from 10 before a point on, in one word: every read around the point
/// is then a constant shift.
#[derive(Clone, Copy, Debug)]
pub struct LineView {
    cells: u64,
}

impl LineView {
    /// The code of the cell `offset` (-10..=10) steps along the line.
    #[inline]
    pub fn cell(self, offset: i32) -> u32 {
        debug_assert!(offset.abs() <= VIEW_BACK);
        (self.cells >> (2 * (offset + VIEW_BACK))) as u32 & 3
    }

    /// The empty cells from `-reach` to `reach` (at most `REACH`) steps along the line, as
    /// the low bit of one 2-bit pair per cell (offset `o` at bit `2·(o + REACH)`); walls and
    /// stones are not.
    #[inline]
    pub fn empty_cells(self, reach: i32) -> u32 {
        const LOW_BITS: u32 = 0x15_5555; // the low bit of each of 11 pairs
        let short = 2 * (REACH - reach);
        let within = LOW_BITS >> short & LOW_BITS << short;
        let window = (self.cells >> (2 * (VIEW_BACK - REACH))) as u32;
        !(window | window >> 1) & within
    }

    /// The offsets (-`reach`..=`reach`, in increasing order) of the empty cells within
    /// `reach` steps along the line (see [`LineView::empty_cells`]).
    #[inline]
    pub fn empty_offsets(self, reach: i32) -> impl Iterator<Item = i32> {
        let mut empty = self.empty_cells(reach);
        std::iter::from_fn(move || {
            if empty == 0 {
                return None;
            }
            let offset = empty.trailing_zeros() as i32 / 2 - REACH;
            empty &= empty - 1;
            Some(offset)
        })
    }

    /// The pattern key (see [`Lines::key`]) of the cell `offset` (-5..=5) steps along the line.
    #[inline]
    pub fn key(self, offset: i32) -> u32 {
        debug_assert!(offset.abs() <= REACH);
        let window = (self.cells >> (2 * (offset - REACH + VIEW_BACK))) as u32 & 0x3F_FFFF;
        (window & 0x3FF) | ((window >> 12) << 10)
    }
}

/// Bit offset of line position `at`.
#[inline]
fn shift(at: usize) -> u32 {
    2 * (at + PAD) as u32
}

#[inline]
fn shift_by(at: usize, offset: i32) -> u32 {
    (2 * (at as i32 + PAD as i32 + offset)) as u32
}

/// Where, inside a key, the cell at `offset` (±1..=±5) from the centre sits.
#[inline]
pub fn key_shift(offset: i32) -> u32 {
    if offset < 0 {
        2 * (offset + REACH) as u32
    } else {
        2 * (offset + REACH - 1) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_see_walls_past_the_edge_and_stones_inside() {
        let size = BoardSize::new(7, 5).unwrap();
        let mut lines = Lines::new(size);
        let corner = Pos::new(0, 0);
        lines.put(Pos::new(1, 0), BLACK);
        lines.put(Pos::new(0, 1), WHITE);
        // Row: p-5..p-1 are off the board, p+1 is black, p+2..p+5 are empty but p+7 would be wall.
        let row = lines.key(Direction::Row, corner);
        assert_eq!(row & 0x3FF, 0x3FF);
        assert_eq!((row >> key_shift(1)) & 3, BLACK);
        assert_eq!((row >> key_shift(5)) & 3, EMPTY);
        let column = lines.key(Direction::Column, corner);
        assert_eq!((column >> key_shift(1)) & 3, WHITE);
        assert_eq!(
            (column >> key_shift(5)) & 3,
            WALL,
            "row 5 of a 5-high board"
        );
        lines.clear(Pos::new(1, 0));
        assert_eq!(lines.view(Direction::Row, corner).cell(1), EMPTY);
        assert_eq!(lines.view(Direction::Diagonal, corner).cell(1), WALL);
    }
}
