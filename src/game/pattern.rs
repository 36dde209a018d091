//! What one line makes for one player at one empty point, and the tables that answer it for
//! every neighbourhood at once.
//!
//! A point's neighbourhood along a line is its [`Lines::key`](super::line::Lines::key): five
//! cells on each side. For every rule, a table built once maps each of the 2^20 keys to the
//! pattern black and white would make there. Building classifies each *canonical* line only
//! once (cells past the first blocking cell on a side cannot matter), about 9,000 lines, so a
//! table costs a few milliseconds.

use super::color::Color;
use super::line::{key_shift, BLACK, EMPTY, KEY_BITS, REACH, WALL, WHITE};
use super::rule::Rule;
use once_cell::sync::Lazy;
use std::collections::HashMap;

/// The line pattern a stone of one colour would make at a point, weakest first.
/// `F` = free (open), `B` = blocked; the digit is how many stones short of five it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// No five can ever pass through the point along this line.
    Dead,
    /// Renju black only: an overline or two fours on this one line — a forbidden shape.
    Overline,
    B1,
    F1,
    B2,
    F2,
    /// One move from a four.
    B3,
    /// One move from an open four (in renju, the referee's "three" for black is decided
    /// separately, recursively: see `forbidden`).
    F3,
    /// A four: one point left that makes five.
    B4,
    /// An open four (or, outside renju black, two fours on one line): two points make five.
    F4,
    /// Five: a win.
    F5,
}

/// Number of [`Pattern`] values.
pub const PATTERN_KINDS: usize = 11;

/// `values` padded with `filler` to the 16 values of a nibble, so that a lookup by a 4-bit
/// code needs a mask, not a bounds test or a division.
pub(super) const fn by_nibble<T: Copy, const N: usize>(values: [T; N], filler: T) -> [T; 16] {
    let mut table = [filler; 16];
    let mut i = 0;
    while i < N {
        table[i] = values[i];
        i += 1;
    }
    table
}

impl Pattern {
    pub const ALL: [Pattern; PATTERN_KINDS] = [
        Pattern::Dead,
        Pattern::Overline,
        Pattern::B1,
        Pattern::F1,
        Pattern::B2,
        Pattern::F2,
        Pattern::B3,
        Pattern::F3,
        Pattern::B4,
        Pattern::F4,
        Pattern::F5,
    ];

    /// The pattern of a 4-bit code (`Pattern as u8`; the five codes past the last pattern,
    /// which no table holds, read as `Dead`).
    #[inline]
    pub fn from_code(value: u8) -> Pattern {
        const BY_CODE: [Pattern; 16] = by_nibble(Pattern::ALL, Pattern::Dead);
        BY_CODE[value as usize & 15]
    }

    /// What a point one move earlier along the same line would be: the next weaker level.
    fn one_move_earlier(self) -> Pattern {
        match self {
            Pattern::F4 => Pattern::F3,
            Pattern::B4 => Pattern::B3,
            Pattern::F3 => Pattern::F2,
            Pattern::B3 => Pattern::B2,
            Pattern::F2 => Pattern::F1,
            Pattern::B2 => Pattern::B1,
            _ => Pattern::Dead,
        }
    }
}

/// For each key, the pattern for black (low nibble) and for white (high nibble): one byte,
/// so the 2^20-entry table takes 1 MiB. Where the cells at the ends never matter, only the
/// inner eight cells index it: 64 KiB, which stays in the first-level cache far better (the
/// lookup is the board update's costliest load).
pub struct PatternTable {
    entries: Vec<u8>,
    /// How far from its point a stone can change an entry: `REACH`, or one less where the
    /// cells at the ends never matter (freestyle, where no line of six differs from a five).
    reach: i32,
    /// A key's index is `key >> shift & mask`: the whole key, or the inner cells alone.
    shift: u32,
    mask: u32,
}

impl PatternTable {
    /// The table of `rule`, built on first use.
    pub fn of(rule: Rule) -> &'static PatternTable {
        static TABLES: [Lazy<PatternTable>; 5] = [
            Lazy::new(|| PatternTable::build(Rule::Freestyle)),
            Lazy::new(|| PatternTable::build(Rule::Standard)),
            Lazy::new(|| PatternTable::build(Rule::Renju)),
            Lazy::new(|| PatternTable::build(Rule::Caro)),
            Lazy::new(|| PatternTable::build(Rule::CaroExact)),
        ];
        let index = Rule::ALL.iter().position(|&r| r == rule).unwrap_or(0);
        &TABLES[index]
    }

    /// The packed black/white entry of a key.
    #[inline]
    pub fn entry(&self, key: u32) -> u8 {
        self.entries[(key >> self.shift & self.mask) as usize]
    }

    /// How far along a line a stone can change another point's entry.
    pub fn reach(&self) -> i32 {
        self.reach
    }

    /// Unpacks one colour's pattern from an entry.
    #[inline]
    pub fn pattern(entry: u8, color: Color) -> Pattern {
        Pattern::from_code((entry >> (4 * color.index())) & 15)
    }

    fn build(rule: Rule) -> PatternTable {
        let black = Classifier::new(rule, Color::Black).table();
        let white = Classifier::new(rule, Color::White).table();
        let entries: Vec<u8> = black
            .iter()
            .zip(&white)
            .map(|(&b, &w)| b | w << 4)
            .collect();
        let ends = 3 << key_shift(-REACH) | 3 << key_shift(REACH);
        let ends_matter = (0..entries.len()).any(|key| entries[key] != entries[key & !ends]);
        if ends_matter {
            return PatternTable {
                entries,
                reach: REACH,
                shift: 0,
                mask: (1 << KEY_BITS) - 1,
            };
        }
        // The cell at -REACH takes the key's lowest bits and the one at +REACH its highest,
        // so the inner cells are one shift and mask away.
        let shift = key_shift(-REACH + 1);
        let inner_bits = key_shift(REACH) - shift;
        PatternTable {
            entries: (0..1usize << inner_bits)
                .map(|inner| entries[inner << shift])
                .collect(),
            reach: REACH - 1,
            shift,
            mask: (1 << inner_bits) - 1,
        }
    }
}

/// The patterns black and white (by [`Color::index`]) would make at a point whose line key
/// ([`Lines::key`](super::line::Lines::key)) is `key`, under `rule`.
pub fn line_patterns(rule: Rule, key: u32) -> [Pattern; 2] {
    let entry = PatternTable::of(rule).entry(key);
    [Color::Black, Color::White].map(|color| PatternTable::pattern(entry, color))
}

/// A cell seen from one player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Cell {
    Empty,
    Own,
    Opponent,
    Wall,
}

/// Eleven cells, the point itself in the middle.
type Window = [Cell; 11];
const CENTER: usize = 5;

/// Classifies windows for one rule and colour, remembering every canonical window seen.
struct Classifier {
    rule: Rule,
    color: Color,
    memo: HashMap<Window, Pattern>,
}

impl Classifier {
    fn new(rule: Rule, color: Color) -> Classifier {
        Classifier {
            rule,
            color,
            memo: HashMap::new(),
        }
    }

    /// The pattern byte of every key.
    fn table(mut self) -> Vec<u8> {
        // Each half of a key (5 cells, 10 bits) canonicalises on its own; classify each pair of
        // distinct canonical halves once.
        let mut ids: HashMap<[Cell; 5], usize> = HashMap::new();
        let mut half_ids = |lower: bool| -> Vec<usize> {
            (0..1u32 << 10)
                .map(|bits| {
                    let next = ids.len();
                    *ids.entry(self.half(bits, lower)).or_insert(next)
                })
                .collect()
        };
        let left_id = half_ids(true);
        let right_id = half_ids(false);
        let mut distinct = vec![[Cell::Wall; 5]; ids.len()];
        for (half, &id) in &ids {
            distinct[id] = *half;
        }
        let n = distinct.len();
        let mut by_pair = vec![Pattern::Dead; n * n];
        for (left, left_half) in distinct.iter().enumerate() {
            for (right, right_half) in distinct.iter().enumerate() {
                let mut window = [Cell::Own; 11];
                for i in 0..5 {
                    window[CENTER - 1 - i] = left_half[i];
                    window[CENTER + 1 + i] = right_half[i];
                }
                by_pair[left * n + right] = self.classify(window);
            }
        }
        (0..1u32 << KEY_BITS)
            .map(|key| {
                let left = left_id[(key & 0x3FF) as usize];
                let right = right_id[(key >> 10) as usize];
                by_pair[left * n + right] as u8
            })
            .collect()
    }

    /// One side of a key as cells ordered outwards from the centre, made canonical: past the
    /// first opponent stone or wall nothing matters, and outside caro an opponent stone blocks
    /// exactly like the edge.
    fn half(&self, bits: u32, lower: bool) -> [Cell; 5] {
        // The lower half runs p-5..p-1, the upper p+1..p+5: read the lower one backwards so
        // both go outwards from the point.
        let code = |i: u32| (bits >> (2 * i)) & 3;
        let codes: Vec<u32> = (0..5)
            .map(|i| if lower { code(4 - i) } else { code(i) })
            .collect();
        let mut cells = [Cell::Wall; 5];
        let mut blocked = false;
        for (i, cell) in cells.iter_mut().enumerate() {
            if blocked {
                break;
            }
            *cell = self.cell(codes[i]);
            blocked = matches!(*cell, Cell::Opponent | Cell::Wall);
        }
        cells
    }

    fn cell(&self, code: u32) -> Cell {
        let own = if self.color == Color::Black {
            BLACK
        } else {
            WHITE
        };
        let is_caro = matches!(self.rule, Rule::Caro | Rule::CaroExact);
        match code {
            EMPTY => Cell::Empty,
            WALL => Cell::Wall,
            c if c == own => Cell::Own,
            _ if is_caro => Cell::Opponent,
            _ => Cell::Wall,
        }
    }

    fn classify(&mut self, window: Window) -> Pattern {
        if let Some(&known) = self.memo.get(&window) {
            return known;
        }
        let pattern = self.classify_uncached(&window);
        self.memo.insert(window, pattern);
        pattern
    }

    fn classify_uncached(&mut self, window: &Window) -> Pattern {
        let renju_black = self.rule.has_forbidden(self.color);
        if self.is_five(window) {
            return Pattern::F5;
        }
        if renju_black && run(window).1 >= 6 {
            return Pattern::Overline;
        }
        let five_points: Vec<usize> = empties(window)
            .filter(|&q| self.is_five(&with_own(window, q)))
            .collect();
        match five_points.len() {
            0 => {}
            1 => return Pattern::B4,
            // In renju two fours on one line (B_BBB_B and the like) are forbidden for black;
            // an open four's two five points are exactly five cells apart.
            _ if renju_black && five_points[1] - five_points[0] != 5 => return Pattern::Overline,
            _ => return Pattern::F4,
        }
        let mut best = Pattern::Dead;
        for q in empties(window).collect::<Vec<_>>() {
            let after = self.classify(with_own(window, q)).one_move_earlier();
            best = best.max(after);
        }
        best
    }

    /// Whether the run through the centre wins under the rule.
    fn is_five(&self, window: &Window) -> bool {
        let (start, length) = run(window);
        let end = start + length - 1;
        let blocked = start > 0
            && end < window.len() - 1
            && window[start - 1] == Cell::Opponent
            && window[end + 1] == Cell::Opponent;
        self.rule.is_win(self.color, length, blocked)
    }
}

/// Start and length of the run of own stones through the centre.
fn run(window: &Window) -> (usize, usize) {
    let mut start = CENTER;
    while start > 0 && window[start - 1] == Cell::Own {
        start -= 1;
    }
    let mut end = CENTER;
    while end + 1 < window.len() && window[end + 1] == Cell::Own {
        end += 1;
    }
    (start, end - start + 1)
}

fn empties(window: &Window) -> impl Iterator<Item = usize> + '_ {
    (0..window.len()).filter(move |&i| window[i] == Cell::Empty)
}

fn with_own(window: &Window, at: usize) -> Window {
    let mut next = *window;
    next[at] = Cell::Own;
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_freestyle_entries_ignore_the_cells_five_away() {
        for rule in Rule::ALL {
            let table = PatternTable::of(rule);
            let expected = if rule == Rule::Freestyle { 4 } else { 5 };
            assert_eq!(table.reach(), expected, "{rule:?}");
        }
        // Standard: a black stone five away makes the five a six.
        let table = PatternTable::of(Rule::Standard);
        let five = table.entry(key(".xxxx_....."));
        assert_ne!(five, table.entry(key("xxxxx_.....")));
    }

    /// A key from a picture of the 10 neighbours: `x` black, `o` white, `.` empty, `#` wall,
    /// written p-5..p-1 then p+1..p+5 with `_` for the point itself.
    fn key(picture: &str) -> u32 {
        let cells: Vec<char> = picture.chars().collect();
        assert_eq!(cells.len(), 11);
        let mut key = 0;
        for (i, &c) in cells.iter().enumerate() {
            let offset = i as i32 - 5;
            if offset == 0 {
                continue;
            }
            let code = match c {
                'x' => BLACK,
                'o' => WHITE,
                '#' => WALL,
                _ => EMPTY,
            };
            key |= code << key_shift(offset);
        }
        key
    }

    fn black(rule: Rule, picture: &str) -> Pattern {
        PatternTable::pattern(PatternTable::of(rule).entry(key(picture)), Color::Black)
    }

    fn white(rule: Rule, picture: &str) -> Pattern {
        PatternTable::pattern(PatternTable::of(rule).entry(key(picture)), Color::White)
    }

    #[test]
    fn named_line_shapes() {
        use Pattern::*;
        let cases = [
            (Rule::Freestyle, "...xx_xx...", F5),
            (Rule::Freestyle, "..xxx_xx...", F5),
            (Rule::Standard, "..xxx_xx...", Dead),
            (Rule::Renju, "..xxx_xx...", Overline),
            (Rule::Renju, "....x_xxx..", F5),
            (Rule::Renju, "....x_xxxx.", Overline),
            (Rule::Renju, "....._xxx..", F4),
            (Rule::Renju, "..x.x_x.x..", Overline),
            (Rule::Freestyle, "..x.x_x.x..", F4),
            (Rule::Standard, "..x.x_x.x..", F4),
            (Rule::Freestyle, "....._xxxo.", B4),
            (Rule::Freestyle, "....._xx...", F3),
            (Rule::Freestyle, "....o_xx...", B3),
            (Rule::Renju, "....x_x....", F3),
            (Rule::Renju, "....o_xx...", B3),
            (Rule::Freestyle, "....._x....", F2),
            (Rule::Freestyle, "....._.....", F1),
            (Rule::Freestyle, "###o._.o###", Dead),
            (Rule::Freestyle, "####._...o#", B1),
            (Rule::Caro, "...ox_xxxo.", Dead),
            (Rule::Caro, "...ox_xxx#.", F5),
            (Rule::Caro, "..oxx_xxxo.", F5),
            (Rule::CaroExact, "..oxx_xxxo.", Dead),
            (Rule::CaroExact, "...#x_xxxo.", F5),
            (Rule::Caro, "....o_xxx..", B4),
        ];
        for (rule, picture, expected) in cases {
            assert_eq!(black(rule, picture), expected, "{rule:?} {picture}");
        }
        assert_eq!(
            white(Rule::Renju, "..ooo_ooo.."),
            F5,
            "white overline wins in renju"
        );
        assert_eq!(white(Rule::Standard, "..ooo_ooo.."), Dead);
        assert_eq!(
            white(Rule::Renju, "..o.o_o.o.."),
            F4,
            "white may make two fours"
        );
    }

    #[test]
    fn white_sees_black_as_blocking() {
        assert_eq!(white(Rule::Freestyle, "...xx_xx..."), Pattern::Dead);
        assert_eq!(white(Rule::Freestyle, "....._....."), Pattern::F1);
    }
}
