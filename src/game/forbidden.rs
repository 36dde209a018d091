//! Renju forbidden points for black, judged exactly as the Gomocup referee judges them.
//!
//! The referee (Piskvork's `renju.cpp`, GomocupJudge's `check_forbid.py`, the PyPI `renju`
//! package) scans the four lines through the point with four small functions — exact five,
//! overline, fours, three — and decides a three recursively: it is real only if a point that
//! turns it into a straight four is neither forbidden nor a five (the referee's one deviation
//! from the RIF text, docs/protocol.md §6). Every one of those scans reads at most five
//! cells on each side of the point, so this module runs them once, at start-up, over every
//! neighbourhood (3^10 of them: empty, black, or blocked) and keeps the answers in a table.
//! A verdict is then four table look-ups, plus the recursion for lines that hold a three.
//!
//! The scans below keep the referee's exact windows and tests, first match wins, so that
//! even its quirks are reproduced; `reference` holds an independent implementation written
//! from the rule text, and the tests hold both against the `renju` package.

use super::coord::{Direction, Pos};
use super::line::{key_shift, Lines, BLACK, EMPTY, REACH};
use once_cell::sync::Lazy;

/// Why a black move is forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Foul {
    DoubleThree,
    DoubleFour,
    Overline,
}

impl Foul {
    /// The referee's code: 1 double three, 2 double four, 3 overline.
    pub fn referee_code(self) -> u8 {
        match self {
            Foul::DoubleThree => 1,
            Foul::DoubleFour => 2,
            Foul::Overline => 3,
        }
    }

    pub fn from_referee_code(code: u8) -> Option<Foul> {
        match code {
            1 => Some(Foul::DoubleThree),
            2 => Some(Foul::DoubleFour),
            3 => Some(Foul::Overline),
            _ => None,
        }
    }

    /// Human wording.
    pub fn describe(self) -> &'static str {
        match self {
            Foul::DoubleThree => "double three",
            Foul::DoubleFour => "double four",
            Foul::Overline => "overline",
        }
    }
}

/// The referee's verdict for a black stone at the empty point `pos`.
pub fn foul(lines: &Lines, pos: Pos) -> Option<Foul> {
    Foul::from_referee_code(referee_foul(lines, pos, 0, &mut Placed::new()))
}

/// How many recursion levels keep their stones on the call stack.
const PLACED_INLINE: usize = 16;

/// The black stones the recursion has put on the board: on the call stack up to
/// `PLACED_INLINE` of them (the search asks for verdicts at its nodes, which must not
/// allocate, and real positions nest a few levels), on the heap beyond. Each level takes an
/// empty point that no level before it took, so the recursion ends.
struct Placed {
    inline: [Pos; PLACED_INLINE],
    len: usize,
    overflow: Vec<Pos>,
}

impl Placed {
    fn new() -> Placed {
        Placed {
            inline: [Pos::from_index(0); PLACED_INLINE],
            len: 0,
            overflow: Vec::new(),
        }
    }

    fn push(&mut self, pos: Pos) {
        match self.inline.get_mut(self.len) {
            Some(slot) => *slot = pos,
            None => self.overflow.push(pos),
        }
        self.len += 1;
    }

    fn pop(&mut self) {
        self.len -= 1;
        if self.len >= PLACED_INLINE {
            self.overflow.pop();
        }
    }

    fn stones(&self) -> impl Iterator<Item = Pos> + '_ {
        let inline = &self.inline[..self.len.min(PLACED_INLINE)];
        inline.iter().chain(&self.overflow).copied()
    }
}

/// The referee's `foulr`: 0 legal, 1/2/3 a foul, or `five` when the point makes an exact five.
/// `placed` holds the black stones the recursion has put on the board so far.
fn referee_foul(lines: &Lines, pos: Pos, five: u8, placed: &mut Placed) -> u8 {
    let facts =
        Direction::ALL.map(|dir| LineFacts(LINE_FACTS[base3_index(key(lines, dir, pos, placed))]));
    if facts.iter().any(|f| f.five()) {
        return five;
    }
    if facts.iter().any(|f| f.overline()) {
        return 3;
    }
    if facts.iter().map(|f| f.fours()).sum::<u16>() >= 2 {
        return 2;
    }
    placed.push(pos);
    let mut threes = 0;
    for (dir, fact) in Direction::ALL.into_iter().zip(facts) {
        let mut real = |offset: Option<i32>| match offset {
            Some(offset) => {
                let point = along(dir, pos, offset);
                referee_foul(lines, point, 1, placed) == 0
            }
            None => false,
        };
        if real(fact.completion(0)) || real(fact.completion(1)) {
            threes += 1;
            if threes >= 2 {
                break;
            }
        }
    }
    placed.pop();
    u8::from(threes >= 2)
}

/// The key of `pos` along `dir` with the recursion's stones added.
fn key(lines: &Lines, dir: Direction, pos: Pos, placed: &Placed) -> u32 {
    let mut key = lines.key(dir, pos);
    let (line, at) = dir.locate(pos);
    for stone in placed.stones() {
        let (stone_line, stone_at) = dir.locate(stone);
        let offset = stone_at as i32 - at as i32;
        if stone_line == line && offset != 0 && offset.abs() <= REACH {
            key |= BLACK << key_shift(offset);
        }
    }
    key
}

fn along(dir: Direction, pos: Pos, offset: i32) -> Pos {
    let (line, at) = dir.locate(pos);
    let (x, y) = dir
        .point(line, (at as i32 + offset) as usize)
        .expect("a completion point is an empty cell on the board");
    Pos::new(x, y)
}

/// What the referee's four scans say about one line, packed:
/// bit 0 exact five, bit 1 overline, bits 2-3 fours (0-2), bits 4-7 and 8-11 the two points
/// (offset + 8, 0 for none) that would turn the line's three into a straight four, in the
/// order the referee tries them.
#[derive(Clone, Copy)]
struct LineFacts(u16);

impl LineFacts {
    fn five(self) -> bool {
        self.0 & 1 != 0
    }
    fn overline(self) -> bool {
        self.0 & 2 != 0
    }
    fn fours(self) -> u16 {
        (self.0 >> 2) & 3
    }
    fn completion(self, which: u32) -> Option<i32> {
        let code = (self.0 >> (4 + 4 * which)) & 15;
        (code != 0).then(|| code as i32 - 8)
    }
}

/// 3^10 neighbourhoods: each cell empty (0), black (1) or blocked (2), nearest digit last on
/// the left half and first on the right half.
const NEIGHBOURHOODS: usize = 59_049;

/// For each half-key (5 cells of 2 bits), its base-3 value as seen by black.
static BASE3: Lazy<Vec<u16>> = Lazy::new(|| {
    (0..1u32 << 10)
        .map(|bits| {
            (0..5).fold(0u16, |acc, i| {
                let digit = match (bits >> (2 * i)) & 3 {
                    EMPTY => 0,
                    BLACK => 1,
                    _ => 2,
                };
                acc * 3 + digit
            })
        })
        .collect()
});

fn base3_index(key: u32) -> usize {
    BASE3[(key & 0x3FF) as usize] as usize * 243 + BASE3[(key >> 10) as usize] as usize
}

static LINE_FACTS: Lazy<Vec<u16>> = Lazy::new(|| {
    (0..NEIGHBOURHOODS)
        .map(|index| referee_scans(&decode(index)))
        .collect()
});

/// The cells p-5..p+5 of a base-3 index, in the referee's values (1 black, 0 empty, 20 for
/// white or wall — the referee's scans cannot tell those apart), with black at p.
fn decode(index: usize) -> [i32; 11] {
    let mut cells = [0; 11];
    let (mut left, mut right) = (index / 243, index % 243);
    for i in (0..5).rev() {
        cells[i] = value(left % 3);
        left /= 3;
        cells[6 + i] = value(right % 3);
        right /= 3;
    }
    cells[5] = 1;
    cells
}

fn value(digit: usize) -> i32 {
    [0, 1, 20][digit]
}

/// The referee's four scans of one line through p (at index 5 of `cells`; everything
/// outside is blocked), packed as [`LineFacts`].
fn referee_scans(cells: &[i32; 11]) -> u16 {
    let x = |i: i32| -> i32 {
        if (0..11).contains(&i) {
            cells[i as usize]
        } else {
            20
        }
    };
    let p = 5;
    let sum = |from: i32, count: i32| (from..from + count).map(x).sum::<i32>();
    let five = (p - 4..=p).any(|i| sum(i, 5) == 5 && x(i - 1) != 1 && x(i + 5) != 1);
    let overline = (p - 5..=p).any(|i| sum(i, 6) == 6);
    let fours = referee_fours(&x, p);
    let (first, second) = referee_three(&x, p);
    let code = |offset: Option<i32>| offset.map_or(0, |o| (o - p + 8) as u16);
    u16::from(five) | u16::from(overline) << 1 | fours << 2 | code(first) << 4 | code(second) << 8
}

/// The referee's `B4`: 0 no four, 1 a four, 2 two fours on this one line.
fn referee_fours(x: &dyn Fn(i32) -> i32, p: i32) -> u16 {
    for i in p - 4..=p {
        let sum: i32 = (i..i + 5).map(x).sum();
        if sum != 4 || x(i - 1) == 1 || x(i + 5) == 1 {
            continue;
        }
        let two = if x(i + 4) == 0 {
            false
        } else if x(i + 3) == 0 {
            p == i + 4 && x(i + 5) == 0 && (6..9).all(|k| x(i + k) == 1) && x(i + 9) != 1
        } else if x(i + 2) == 0 {
            (p == i + 4 || p == i + 3)
                && x(i + 5) == 0
                && x(i + 6) == 1
                && x(i + 7) == 1
                && x(i + 8) != 1
        } else if x(i + 1) == 0 {
            x(i + 5) == 0 && x(i + 6) == 1 && x(i + 7) != 1 && (i + 2..=i + 4).contains(&p)
        } else {
            false
        };
        return if two { 2 } else { 1 };
    }
    0
}

/// The referee's `A3`: the point or points that would make the line's three a straight four,
/// first the one the referee tries first. The first window that qualifies decides.
fn referee_three(x: &dyn Fn(i32) -> i32, p: i32) -> (Option<i32>, Option<i32>) {
    let open_after = |k: i32| x(k) == 0 && x(k + 1) != 1;
    for i in p - 3..=p {
        let sum: i32 = (i..i + 4).map(x).sum();
        if sum != 3 || x(i - 1) != 0 || x(i - 2) == 1 {
            continue;
        }
        if x(i + 3) == 0 {
            if x(i + 4) == 1 {
                continue;
            }
            if x(i - 2) == 0 && x(i - 3) != 1 {
                if open_after(i + 4) {
                    return (Some(i + 3), Some(i - 1));
                }
                return (Some(i - 1), None);
            }
            if open_after(i + 4) {
                return (Some(i + 3), None);
            }
        } else if x(i + 2) == 0 {
            if open_after(i + 4) {
                return (Some(i + 2), None);
            }
        } else if x(i + 1) == 0 && open_after(i + 4) {
            return (Some(i + 1), None);
        }
    }
    (None, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placed_stones_keep_their_order_past_the_inline_part() {
        let pos = |i: usize| Pos::new(i % 15, i / 15);
        let mut placed = Placed::new();
        let depth = PLACED_INLINE + 5;
        for i in 0..depth {
            placed.push(pos(i));
        }
        assert_eq!(
            placed.stones().collect::<Vec<_>>(),
            (0..depth).map(pos).collect::<Vec<_>>()
        );
        for _ in 0..7 {
            placed.pop();
        }
        let left = depth - 7;
        assert_eq!(
            placed.stones().collect::<Vec<_>>(),
            (0..left).map(pos).collect::<Vec<_>>()
        );
        placed.push(pos(99));
        assert_eq!(placed.stones().last(), Some(pos(99)));
        assert_eq!(placed.stones().count(), left + 1);
    }
}
