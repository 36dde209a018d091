//! What a stone at an empty point would make on its four lines together: one class per point
//! and colour (a "four-three point", a "double-three point", …), kept incrementally by the
//! board like the line patterns. The evaluation counts them and the move ordering values them:
//! a sum of lines cannot tell a four-three point from two unrelated lines.

use super::pattern::{by_nibble, Pattern};

/// The class of an empty point for one colour, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Shape {
    /// Nothing better than a blocked two or an open one.
    None,
    /// Renju black only: an overline, or two fours, would be made here (a foul unless it also
    /// makes five). Double threes are judged only by the exact check (see `forbidden`).
    Forbidden,
    /// One line would make an open two or a blocked three.
    Two,
    /// Two lines or more would.
    DoubleTwo,
    /// An open three.
    Three,
    /// An open three and a two (or blocked three) on another line.
    ThreeTwo,
    /// Two open threes or more (for renju black, possibly a foul: the exact check decides).
    DoubleThree,
    /// A four alone.
    Four,
    /// A four and a two (or blocked three) on another line.
    FourTwo,
    /// A four and an open three: wins unless the block also defends.
    FourThree,
    /// An open four, or two fours: two five points.
    OpenFour,
    /// Five.
    Five,
}

/// Number of [`Shape`] values.
pub const SHAPE_KINDS: usize = 12;

/// [`Shape::ALL`] by value (values past it never occur).
const BY_VALUE: [Shape; 16] = by_nibble(Shape::ALL, Shape::None);

impl Shape {
    pub const ALL: [Shape; SHAPE_KINDS] = [
        Shape::None,
        Shape::Forbidden,
        Shape::Two,
        Shape::DoubleTwo,
        Shape::Three,
        Shape::ThreeTwo,
        Shape::DoubleThree,
        Shape::Four,
        Shape::FourTwo,
        Shape::FourThree,
        Shape::OpenFour,
        Shape::Five,
    ];

    #[inline]
    pub fn from_u8(value: u8) -> Shape {
        BY_VALUE[value as usize & 15]
    }

    /// Whether a stone here makes a four or better (a move the opponent must answer).
    #[inline]
    pub fn is_four(self) -> bool {
        self >= Shape::Four
    }
}

/// Bits of one direction's category in a shape key.
const CATEGORY_BITS: u32 = 3;
/// Bits of a whole shape key: four directions.
pub const SHAPE_KEY_BITS: u32 = 4 * CATEGORY_BITS;

/// What of a line pattern matters to the point's shape: a category of 3 bits, so that the
/// four directions make a 12-bit key and the table (4 KiB) stays in the first-level cache.
const fn category(pattern: u8) -> u16 {
    match pattern {
        p if p == Pattern::F5 as u8 => 1,
        p if p == Pattern::F4 as u8 => 2,
        p if p == Pattern::B4 as u8 => 3,
        p if p == Pattern::F3 as u8 => 4,
        p if p == Pattern::F2 as u8 || p == Pattern::B3 as u8 => 5,
        p if p == Pattern::Overline as u8 => 6,
        _ => 0,
    }
}

/// Both colours' shape keys of a point after `dir`'s pattern entry (black's pattern in the low
/// nibble, white's in the high) became `entry`: one word's update for the two.
#[inline]
pub fn with_entry(keys: [u16; 2], dir: usize, entry: u8) -> [u16; 2] {
    let shift = CATEGORY_BITS as usize * dir;
    let both = u32::from(keys[0]) | u32::from(keys[1]) << 16;
    let both = (both & !(0x0007_0007 << shift)) | ENTRY_CATEGORIES[entry as usize] << shift;
    [both as u16, (both >> 16) as u16]
}

/// The categories of both colours' patterns of every entry, black's in the low half.
static ENTRY_CATEGORIES: [u32; 256] = {
    let mut table = [0; 256];
    let mut entry = 0;
    while entry < 256 {
        table[entry] =
            category((entry & 15) as u8) as u32 | (category((entry >> 4) as u8) as u32) << 16;
        entry += 1;
    }
    table
};

/// The shape of every shape key: one table for renju black (`fouls`), one for everyone else.
/// Built at compile time, so that a look-up is one load from a fixed address.
pub static SHAPES_PLAIN: [u8; 1 << SHAPE_KEY_BITS] = shape_table(false);
pub static SHAPES_FOULS: [u8; 1 << SHAPE_KEY_BITS] = shape_table(true);

const fn shape_table(fouls: bool) -> [u8; 1 << SHAPE_KEY_BITS] {
    let mut table = [0; 1 << SHAPE_KEY_BITS];
    let mut key = 0;
    while key < table.len() {
        // Categories: 1 five, 2 open four, 3 four, 4 open three, 5 two, 6 overline.
        let mut counts = [0u8; 8];
        let mut dir = 0;
        while dir < 4 {
            counts[(key >> (CATEGORY_BITS as usize * dir)) & 7] += 1;
            dir += 1;
        }
        let (fives, open_fours, fours, threes, twos, overlines) = (
            counts[1], counts[2], counts[3], counts[4], counts[5], counts[6],
        );
        let shape = if fives > 0 {
            Shape::Five
        } else if fouls && (overlines > 0 || open_fours + fours >= 2) {
            Shape::Forbidden
        } else if open_fours > 0 || fours >= 2 {
            Shape::OpenFour
        } else if fours == 1 && threes > 0 {
            Shape::FourThree
        } else if fours == 1 && twos > 0 {
            Shape::FourTwo
        } else if fours == 1 {
            Shape::Four
        } else if threes >= 2 {
            Shape::DoubleThree
        } else if threes == 1 && twos > 0 {
            Shape::ThreeTwo
        } else if threes == 1 {
            Shape::Three
        } else if twos >= 2 {
            Shape::DoubleTwo
        } else if twos == 1 {
            Shape::Two
        } else {
            Shape::None
        };
        table[key] = shape as u8;
        key += 1;
    }
    table
}

/// The shape of a key in a table.
#[inline]
pub fn shape_of(table: &[u8; 1 << SHAPE_KEY_BITS], key: u16) -> u8 {
    table[key as usize & ((1 << SHAPE_KEY_BITS) - 1)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use Pattern::*;

    fn shape(patterns: [Pattern; 4], fouls: bool) -> Shape {
        let [key, _] = (0..4).fold([0; 2], |k, d| with_entry(k, d, patterns[d] as u8));
        let table = if fouls { &SHAPES_FOULS } else { &SHAPES_PLAIN };
        Shape::from_u8(shape_of(table, key))
    }

    #[test]
    fn classes_of_combined_lines() {
        let cases = [
            ([F5, Dead, Dead, B4], false, Shape::Five),
            ([F5, Overline, Dead, Dead], true, Shape::Five),
            ([Overline, F3, Dead, Dead], true, Shape::Forbidden),
            ([B4, B4, Dead, Dead], true, Shape::Forbidden),
            ([B4, B4, Dead, Dead], false, Shape::OpenFour),
            ([F4, B1, Dead, Dead], false, Shape::OpenFour),
            ([B4, F3, B2, Dead], true, Shape::FourThree),
            ([Dead, B2, F3, B4], true, Shape::FourThree),
            ([B4, B3, B2, Dead], false, Shape::FourTwo),
            ([B4, B2, F1, Dead], false, Shape::Four),
            ([F3, F3, Dead, Dead], true, Shape::DoubleThree),
            ([F3, F2, Dead, Dead], false, Shape::ThreeTwo),
            ([F3, B2, Dead, Dead], false, Shape::Three),
            ([F2, B3, Dead, Dead], false, Shape::DoubleTwo),
            ([B3, B2, B1, F1], false, Shape::Two),
            ([B2, B2, F1, Dead], false, Shape::None),
        ];
        for (patterns, fouls, expected) in cases {
            assert_eq!(shape(patterns, fouls), expected, "{patterns:?}");
        }
    }
}
