//! Board geometry: sizes, points, the four line directions and renju notation (`h8`).
//!
//! Protocol coordinates are 0-based, `x` the column from the left and `y` the row from the
//! top. Human notation names the column with a letter (`a` = x 0; past `z` come `aa`..`af`)
//! and counts rows from the **bottom**, so on 15×15 `h8` is `7,7`.

use std::fmt;

/// The smallest board side supported.
pub const MIN_SIZE: usize = 5;
/// The largest board side supported: a line of 32 cells fits one 64-bit lane of 2-bit cells.
pub const MAX_SIZE: usize = 32;
/// Row stride of a [`Pos`] index; fixed so that every array can be sized once.
pub const STRIDE: usize = MAX_SIZE;
/// Number of distinct point indices.
pub const POS_COUNT: usize = MAX_SIZE * MAX_SIZE;

/// A point on the board, stored as `y * 32 + x`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos(u16);

impl Pos {
    /// The point at column `x`, row `y` (both `< 32`; the board decides whether it is on it).
    pub fn new(x: usize, y: usize) -> Pos {
        debug_assert!(x < MAX_SIZE && y < MAX_SIZE);
        Pos((y * STRIDE + x) as u16)
    }

    pub fn x(self) -> usize {
        self.0 as usize % STRIDE
    }

    pub fn y(self) -> usize {
        self.0 as usize / STRIDE
    }

    /// The point of an array index (the inverse of [`Pos::index`]).
    pub fn from_index(index: usize) -> Pos {
        debug_assert!(index < POS_COUNT);
        Pos(index as u16)
    }

    /// The array index of this point, `< POS_COUNT` (masked, so that arrays of `POS_COUNT`
    /// need no bounds check).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize & (POS_COUNT - 1)
    }

    /// The index of the point `offset` steps from this one along a line whose index step is
    /// `step` ([`Direction::index_step`]; the caller keeps the point on the board).
    #[inline]
    pub fn index_along(self, step: isize, offset: i32) -> usize {
        (self.index() as isize + offset as isize * step) as usize % POS_COUNT
    }

    /// How many king steps apart two points are (the larger of the two coordinate gaps).
    pub fn distance(self, other: Pos) -> usize {
        self.x()
            .abs_diff(other.x())
            .max(self.y().abs_diff(other.y()))
    }

    /// The point `steps` cells away along `dir`, if it is on a board of `size`.
    pub fn step(self, dir: Direction, steps: i32, size: BoardSize) -> Option<Pos> {
        let (dx, dy) = dir.delta();
        let x = self.x() as i32 + dx * steps;
        let y = self.y() as i32 + dy * steps;
        if size.contains(x, y) {
            Some(Pos::new(x as usize, y as usize))
        } else {
            None
        }
    }
}

impl fmt::Debug for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x(), self.y())
    }
}

/// The four line directions. Each also fixes how a line is numbered and how a point's position
/// along it is counted; the orientation matches the Gomocup referee's line arrays so that the
/// referee's scans can be reproduced exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Along a row: position = x.
    Row,
    /// Along a column: position = y.
    Column,
    /// `x + y` constant: position = y.
    AntiDiagonal,
    /// `x - y` constant: position = 31 - y (it grows as x and y shrink).
    Diagonal,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::Row,
        Direction::Column,
        Direction::AntiDiagonal,
        Direction::Diagonal,
    ];

    /// Index into per-direction arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The (dx, dy) of one step in the direction of growing line position.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Direction::Row => (1, 0),
            Direction::Column => (0, 1),
            Direction::AntiDiagonal => (-1, 1),
            Direction::Diagonal => (-1, -1),
        }
    }

    /// How far apart, in [`Pos::index`] units, two neighbours along the direction are.
    pub fn index_step(self) -> isize {
        let (dx, dy) = self.delta();
        (dy * STRIDE as i32 + dx) as isize
    }

    /// How many lines of this direction there are (for the largest board).
    pub fn line_count(self) -> usize {
        match self {
            Direction::Row | Direction::Column => MAX_SIZE,
            Direction::AntiDiagonal | Direction::Diagonal => 2 * MAX_SIZE - 1,
        }
    }

    /// The line through `pos` and the position of `pos` along it.
    #[inline]
    pub fn locate(self, pos: Pos) -> (usize, usize) {
        let (x, y) = (pos.x(), pos.y());
        match self {
            Direction::Row => (y, x),
            Direction::Column => (x, y),
            Direction::AntiDiagonal => (x + y, y),
            Direction::Diagonal => (x + MAX_SIZE - 1 - y, MAX_SIZE - 1 - y),
        }
    }

    /// The point at `position` along `line` (the inverse of [`Direction::locate`]); it may lie
    /// off the board, which the caller checks.
    pub fn point(self, line: usize, position: usize) -> Option<(usize, usize)> {
        let (x, y) = match self {
            Direction::Row => (position as i64, line as i64),
            Direction::Column => (line as i64, position as i64),
            Direction::AntiDiagonal => (line as i64 - position as i64, position as i64),
            Direction::Diagonal => {
                let y = (MAX_SIZE - 1) as i64 - position as i64;
                (line as i64 - (MAX_SIZE - 1) as i64 + y, y)
            }
        };
        if (0..MAX_SIZE as i64).contains(&x) && (0..MAX_SIZE as i64).contains(&y) {
            Some((x as usize, y as usize))
        } else {
            None
        }
    }
}

/// A board's width and height, each in `MIN_SIZE..=MAX_SIZE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardSize {
    width: u8,
    height: u8,
}

impl BoardSize {
    /// A `width` × `height` board, or an error naming the supported range.
    pub fn new(width: usize, height: usize) -> Result<BoardSize, String> {
        let ok = |n: usize| (MIN_SIZE..=MAX_SIZE).contains(&n);
        if ok(width) && ok(height) {
            Ok(BoardSize {
                width: width as u8,
                height: height as u8,
            })
        } else {
            Err(format!(
                "unsupported board size {width}x{height}: sides must be {MIN_SIZE} to {MAX_SIZE}"
            ))
        }
    }

    /// A square board.
    pub fn square(side: usize) -> Result<BoardSize, String> {
        BoardSize::new(side, side)
    }

    pub fn width(self) -> usize {
        self.width as usize
    }

    pub fn height(self) -> usize {
        self.height as usize
    }

    /// Number of points.
    pub fn area(self) -> usize {
        self.width() * self.height()
    }

    /// Whether signed coordinates lie on the board.
    pub fn contains(self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.width() && (y as usize) < self.height()
    }

    /// The point at protocol coordinates, if on the board.
    pub fn pos(self, x: i64, y: i64) -> Option<Pos> {
        if x >= 0 && y >= 0 && (x as u64) < self.width as u64 && (y as u64) < self.height as u64 {
            Some(Pos::new(x as usize, y as usize))
        } else {
            None
        }
    }

    /// Every point, row by row from the top.
    pub fn points(self) -> Points {
        Points {
            size: self,
            next: 0,
        }
    }

    /// The centre point (towards the top-left on even sides).
    pub fn center(self) -> Pos {
        Pos::new((self.width() - 1) / 2, (self.height() - 1) / 2)
    }

    /// Renju notation of a point: column letters, then the row counted from the bottom.
    pub fn to_human(self, pos: Pos) -> String {
        format!("{}{}", column_name(pos.x()), self.height() - pos.y())
    }

    /// Parses `h8` or `8h` (any case) into a point on this board.
    pub fn parse_human(self, text: &str) -> Result<Pos, String> {
        let text = text.trim().to_ascii_lowercase();
        let letters: String = text.chars().filter(|c| c.is_ascii_alphabetic()).collect();
        let digits: String = text.chars().filter(|c| c.is_ascii_digit()).collect();
        let well_formed = !letters.is_empty()
            && !digits.is_empty()
            && letters.len() + digits.len() == text.len()
            && (text.starts_with(&letters) || text.starts_with(&digits));
        if !well_formed || letters.len() > 2 || digits.len() > 2 {
            return Err(format!("'{text}' is not a point like h8"));
        }
        let column = column_index(&letters);
        let row: usize = digits.parse().unwrap_or(0);
        match column {
            Some(x) if x < self.width() && row >= 1 && row <= self.height() => {
                Ok(Pos::new(x, self.height() - row))
            }
            _ => Err(format!(
                "'{text}' is off the {}x{} board",
                self.width(),
                self.height()
            )),
        }
    }
}

/// The points of a board in index order (a plain loop: this runs in the search's inner
/// loops, where a nested iterator costs).
#[derive(Clone, Debug)]
pub struct Points {
    size: BoardSize,
    next: usize,
}

impl Iterator for Points {
    type Item = Pos;

    #[inline]
    fn next(&mut self) -> Option<Pos> {
        let width = self.size.width();
        if self.next % STRIDE >= width {
            self.next += STRIDE - width;
        }
        if self.next / STRIDE >= self.size.height() {
            return None;
        }
        let pos = Pos::from_index(self.next);
        self.next += 1;
        Some(pos)
    }
}

/// `a`..`z`, then `aa`..`af` for the columns past the alphabet.
fn column_name(x: usize) -> String {
    if x < 26 {
        ((b'a' + x as u8) as char).to_string()
    } else {
        format!("a{}", (b'a' + (x - 26) as u8) as char)
    }
}

fn column_index(letters: &str) -> Option<usize> {
    let bytes = letters.as_bytes();
    match bytes {
        [c] => Some((c - b'a') as usize),
        [b'a', c] => Some(26 + (c - b'a') as usize),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_notation_round_trips_on_every_size() {
        for (w, h) in [(5, 5), (15, 15), (20, 20), (32, 32), (7, 31)] {
            let size = BoardSize::new(w, h).unwrap();
            for pos in size.points() {
                let text = size.to_human(pos);
                assert_eq!(size.parse_human(&text), Ok(pos), "{text}");
            }
        }
    }

    #[test]
    fn distance_counts_king_steps() {
        let centre = Pos::new(7, 7);
        assert_eq!(centre.distance(centre), 0);
        assert_eq!(centre.distance(Pos::new(11, 8)), 4);
        assert_eq!(Pos::new(12, 3).distance(centre), 5);
        assert_eq!(Pos::new(0, 31).distance(Pos::new(31, 0)), 31);
    }

    #[test]
    fn h8_is_the_centre_of_15_and_accepts_reversed_form() {
        let size = BoardSize::square(15).unwrap();
        assert_eq!(size.parse_human("h8"), Ok(Pos::new(7, 7)));
        assert_eq!(size.parse_human("8H"), Ok(Pos::new(7, 7)));
        assert_eq!(size.parse_human("a1"), Ok(Pos::new(0, 14)));
        assert_eq!(size.parse_human("o15"), Ok(Pos::new(14, 0)));
        let big = BoardSize::square(32).unwrap();
        assert_eq!(big.to_human(Pos::new(31, 0)), "af32");
        assert_eq!(big.to_human(Pos::new(26, 31)), "aa1");
        for bad in [
            "", "h", "8", "p1", "a0", "a16", "h8h", "hh8", "8h8", "-1a", "zz9",
        ] {
            assert!(size.parse_human(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn sizes_outside_5_to_32_are_refused() {
        assert!(BoardSize::new(4, 15).is_err());
        assert!(BoardSize::new(15, 33).is_err());
        assert!(BoardSize::new(32, 5).is_ok());
    }

    #[test]
    fn locate_and_point_are_inverse_for_every_direction() {
        for y in 0..MAX_SIZE {
            for x in 0..MAX_SIZE {
                let pos = Pos::new(x, y);
                for dir in Direction::ALL {
                    let (line, at) = dir.locate(pos);
                    assert!(line < dir.line_count() && at < MAX_SIZE);
                    assert_eq!(dir.point(line, at), Some((x, y)));
                    let (dx, dy) = dir.delta();
                    if let Some(next) = dir.point(line, at + 1) {
                        assert_eq!(next, ((x as i32 + dx) as usize, (y as i32 + dy) as usize));
                    }
                }
            }
        }
    }
}
