//! The position: stones, whole-line bit strings, per-point line patterns for both players and
//! a Zobrist hash, all kept up to date move by move (and checked against a recomputation
//! after every move and undo in debug builds).

use super::color::Color;
use super::coord::{BoardSize, Direction, Pos, MAX_SIZE, POS_COUNT};
use super::forbidden::{self, Foul};
use super::line::{cell_code, key_shift, Lines, REACH};
use super::pattern::{Pattern, PatternTable};
use super::point_set::PointSet;
use super::rule::Rule;
use super::shape::{shape_of, with_entry, Shape, SHAPES_FOULS, SHAPES_PLAIN, SHAPE_KEY_BITS};
use super::zobrist;

/// How far along a line a stone makes its neighbours move-generation candidates.
const NEAR: i32 = 2;

/// Rows padded with `NEAR` empty rows above and below, so that a row's neighbours are
/// always there to read.
const ROW_SLOTS: usize = MAX_SIZE + 2 * NEAR as usize;

/// A pattern or shape count: at most four entries for each of 1,024 points, so 16 bits hold
/// it, and undo's copy of all the counts stays small.
type Count = u16;

/// A board under one rule, with the incremental state a search needs.
#[derive(Clone)]
pub struct Board {
    size: BoardSize,
    rule: Rule,
    table: &'static PatternTable,
    stones: [Option<Color>; POS_COUNT],
    lines: Lines,
    /// For each point and direction, the pattern table entry (black and white) of its key.
    /// Kept for empty points only; an occupied point's entry is stale.
    patterns: Box<[[u8; 4]; POS_COUNT]>,
    /// For each colour and pattern, how many (empty point, direction) pairs have it: the
    /// evaluation's inputs, and "does anyone have a five or an open-four point" in O(1).
    pattern_counts: [[Count; 16]; 2],
    /// Per colour, the table that combines a point's four patterns into its [`Shape`].
    shape_tables: [&'static [u8; 1 << SHAPE_KEY_BITS]; 2],
    /// For each point, its shape key (the four patterns' categories) for black and for
    /// white (empty points only, like `patterns`).
    shape_keys: Box<[[u16; 2]; POS_COUNT]>,
    /// For each colour and shape, how many empty points have it.
    shape_counts: [[Count; 16]; 2],
    /// `pattern_counts` and `shape_counts` before each move: undo copies them back (128
    /// bytes) instead of recounting every entry the move changed.
    counts_before: Vec<[[[Count; 16]; 2]; 2]>,
    /// For each colour, the empty points with an open-four (`F4`) and with a five (`F5`)
    /// pattern on some line: the threats a search asks for at every node.
    four_points: [PointSet; 2],
    five_points: [PointSet; 2],
    /// Each row's stones as a bit mask (bit x), at `NEAR` + y: the move-generation
    /// candidates of a row come from it and its neighbours' by a few shifts.
    rows: [u32; ROW_SLOTS],
    /// The on-board columns of a row as a bit mask.
    columns: u32,
    hash: u64,
    history: Vec<Pos>,
    /// What each move changed (pattern entries and shape keys as they were before), so that
    /// undo restores them without looking anything up; `change_marks` holds where each
    /// move's changes start.
    changes: Vec<Change>,
    change_marks: Vec<u32>,
    /// The first and last rows holding a stone, after each move: the candidates lie within
    /// `NEAR` rows of them.
    row_spans: Vec<[u8; 2]>,
}

/// The iterator of [`Board::candidates`]: row by row, each row's candidates as a bit mask.
#[derive(Clone, Debug)]
pub struct Candidates<'a> {
    board: &'a Board,
    /// The row of `mask`, and the last row to look at.
    y: usize,
    y1: usize,
    /// The row's candidates not yet returned.
    mask: u32,
}

impl Iterator for Candidates<'_> {
    type Item = Pos;

    #[inline]
    fn next(&mut self) -> Option<Pos> {
        while self.mask == 0 {
            if self.y >= self.y1 {
                return None;
            }
            self.y += 1;
            self.mask = self.board.candidate_row(self.y);
        }
        let x = self.mask.trailing_zeros() as usize;
        self.mask &= self.mask - 1;
        Some(Pos::new(x, self.y))
    }
}

/// A side's five points, without a heap allocation (the search asks at every node): a slice
/// of at most [`FivePoints::KEPT`] points.
#[derive(Clone, Copy, Debug)]
pub struct FivePoints {
    points: [Pos; FivePoints::KEPT],
    len: usize,
}

impl FivePoints {
    pub const KEPT: usize = 4;
}

impl std::ops::Deref for FivePoints {
    type Target = [Pos];

    fn deref(&self) -> &[Pos] {
        &self.points[..self.len]
    }
}

/// One (empty point, direction) refreshed by a move: its entry and shape keys before.
#[derive(Clone, Copy, Debug)]
struct Change {
    at: u16,
    dir: u8,
    entry: u8,
    keys: [u16; 2],
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{}x{} {}",
            self.size.width(),
            self.size.height(),
            self.rule.name()
        )?;
        for y in 0..self.size.height() {
            let row: String = (0..self.size.width())
                .map(|x| match self.stone(Pos::new(x, y)) {
                    Some(Color::Black) => 'x',
                    Some(Color::White) => 'o',
                    None => '.',
                })
                .collect();
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

impl Board {
    /// An empty board.
    pub fn new(size: BoardSize, rule: Rule) -> Board {
        let mut board = Board {
            size,
            rule,
            table: PatternTable::of(rule),
            stones: [None; POS_COUNT],
            lines: Lines::new(size),
            patterns: Box::new([[0; 4]; POS_COUNT]),
            pattern_counts: [[0; 16]; 2],
            shape_tables: [
                if rule.has_forbidden(Color::Black) {
                    &SHAPES_FOULS
                } else {
                    &SHAPES_PLAIN
                },
                &SHAPES_PLAIN,
            ],
            shape_keys: Box::new([[0; 2]; POS_COUNT]),
            shape_counts: [[0; 16]; 2],
            counts_before: Vec::with_capacity(size.area()),
            four_points: [PointSet::EMPTY; 2],
            five_points: [PointSet::EMPTY; 2],
            rows: [0; ROW_SLOTS],
            columns: u32::MAX >> (MAX_SIZE - size.width()),
            hash: 0,
            history: Vec::with_capacity(size.area()),
            changes: Vec::with_capacity(16 * size.area()),
            change_marks: Vec::with_capacity(size.area()),
            row_spans: Vec::with_capacity(size.area()),
        };
        board.patterns = board.recomputed_patterns();
        board.pattern_counts = board.recomputed_counts();
        board.shape_keys = board.recomputed_shape_keys();
        board.shape_counts = board.recomputed_shape_counts();
        for pos in size.points() {
            board.mark_threats(pos);
        }
        board
    }

    pub fn size(&self) -> BoardSize {
        self.size
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The Zobrist hash of the stones.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash after `color` plays `pos`.
    #[inline]
    pub fn hash_after(&self, pos: Pos, color: Color) -> u64 {
        self.hash ^ zobrist::key(pos, color)
    }

    /// The moves played, oldest first.
    pub fn history(&self) -> &[Pos] {
        &self.history
    }

    pub fn stone_count(&self) -> usize {
        self.history.len()
    }

    pub fn is_full(&self) -> bool {
        self.history.len() == self.size.area()
    }

    pub fn stone(&self, pos: Pos) -> Option<Color> {
        self.stones[pos.index()]
    }

    pub fn is_empty(&self, pos: Pos) -> bool {
        self.stones[pos.index()].is_none()
    }

    /// Whether any stone lies within `distance` (king moves) of `pos`.
    pub fn has_stone_near(&self, pos: Pos, distance: i64) -> bool {
        (-distance..=distance).any(|dy| {
            (-distance..=distance).any(|dx| {
                self.size
                    .pos(pos.x() as i64 + dx, pos.y() as i64 + dy)
                    .map_or(false, |p| !self.is_empty(p))
            })
        })
    }

    /// Black moves when the stone count is even.
    pub fn side_to_move(&self) -> Color {
        Color::to_move_after(self.history.len())
    }

    /// Puts a `color` stone on the empty point `pos` (the caller checks legality).
    pub fn play(&mut self, pos: Pos, color: Color) {
        debug_assert!(self.is_empty(pos), "play on occupied {pos:?}");
        self.counts_before
            .push([self.pattern_counts, self.shape_counts]);
        for entry in self.patterns[pos.index()] {
            self.count(entry, -1);
        }
        self.count_shapes(self.shape_keys[pos.index()], -1);
        self.stones[pos.index()] = Some(color);
        self.mark_threats(pos);
        self.lines.put(pos, cell_code(color));
        self.hash ^= zobrist::key(pos, color);
        self.history.push(pos);
        self.rows[row_slot(pos.y())] |= 1 << pos.x();
        let y = pos.y() as u8;
        let span = match self.row_spans.last() {
            Some(&[y0, y1]) => [y0.min(y), y1.max(y)],
            None => [y, y],
        };
        self.row_spans.push(span);
        self.change_marks.push(self.changes.len() as u32);
        self.refresh_around(pos);
        #[cfg(debug_assertions)]
        self.assert_consistent();
    }

    /// Takes back the last move, if any, and returns it.
    pub fn undo(&mut self) -> Option<Pos> {
        let pos = self.history.pop()?;
        self.row_spans.pop();
        self.rows[row_slot(pos.y())] &= !(1 << pos.x());
        let color = self.stones[pos.index()].take()?;
        self.lines.clear(pos);
        self.hash ^= zobrist::key(pos, color);
        self.restore_around(pos);
        #[cfg(debug_assertions)]
        self.assert_consistent();
        Some(pos)
    }

    /// The line key of `pos` along `dir` (see [`Lines::key`]): the evaluation network's input.
    #[inline]
    pub fn line_key(&self, dir: Direction, pos: Pos) -> u32 {
        self.lines.key(dir, pos)
    }

    /// The pattern a `color` stone at the empty point `pos` would make along `dir`.
    #[inline]
    pub fn pattern(&self, pos: Pos, dir: Direction, color: Color) -> Pattern {
        PatternTable::pattern(self.patterns[pos.index()][dir.index()], color)
    }

    /// The empty point `pos`'s four pattern entries as one word, a byte per direction (black's
    /// pattern in each low nibble, white's in each high one).
    #[inline]
    pub fn pattern_entries(&self, pos: Pos) -> u32 {
        u32::from_le_bytes(self.patterns[pos.index()])
    }

    /// The pattern a `color` stone at the empty point `pos` would make along `dir` if the
    /// empty cell `offset` (±1..=±5) steps along the line held an opponent's stone: whether
    /// that stone would spoil the line for `color`, without playing it.
    #[inline]
    pub fn pattern_if_blocked(
        &self,
        pos: Pos,
        dir: Direction,
        color: Color,
        offset: i32,
    ) -> Pattern {
        debug_assert!(offset != 0 && offset.abs() <= REACH);
        let key = self.lines.key(dir, pos) | cell_code(color.opponent()) << key_shift(offset);
        PatternTable::pattern(self.table.entry(key), color)
    }

    /// How many (empty point, direction) pairs hold `pattern` for `color`.
    #[inline]
    pub fn pattern_count(&self, color: Color, pattern: Pattern) -> u32 {
        self.pattern_counts[color.index()][pattern as usize] as u32
    }

    /// The class of the empty point `pos` for `color`: its four lines together.
    #[inline]
    pub fn shape(&self, pos: Pos, color: Color) -> Shape {
        let key = self.shape_keys[pos.index()][color.index()];
        Shape::from_u8(shape_of(self.shape_tables[color.index()], key))
    }

    /// How many empty points have `shape` for `color`.
    #[inline]
    pub fn shape_count(&self, color: Color, shape: Shape) -> u32 {
        self.shape_counts[color.index()][shape as usize] as u32
    }

    /// The empty points with a stone within two cells along one of their lines (the moves
    /// worth a look), in index order.
    pub fn candidates(&self) -> Candidates<'_> {
        let near = NEAR as usize;
        let (y0, y1) = match self.row_spans.last() {
            Some(&[y0, y1]) => (
                (y0 as usize).saturating_sub(near),
                (y1 as usize + near).min(self.size.height() - 1),
            ),
            None => (0, 0),
        };
        // No stones: every row's mask is empty, so the walk ends at once.
        Candidates {
            board: self,
            y: y0,
            y1,
            mask: self.candidate_row(y0),
        }
    }

    /// The empty points of row `y` with a stone within `NEAR` cells along one of their
    /// lines: the stones of the row itself and of the rows `d` above and below it, shifted by
    /// 0 and ±`d` columns, are the neighbours along the four lines.
    #[inline]
    fn candidate_row(&self, y: usize) -> u32 {
        let slot = row_slot(y);
        let own = self.rows[slot];
        let mut near = 0;
        for d in 1..=NEAR as usize {
            let (above, below) = (self.rows[slot - d], self.rows[slot + d]);
            near |= own << d | own >> d;
            near |= above | above << d | above >> d | below | below << d | below >> d;
        }
        near & !own & self.columns
    }

    /// Every (empty point, direction) where `color` has an open-four pattern (the point makes
    /// an open four along that line), in index order.
    pub fn open_four_lines(&self, color: Color) -> impl Iterator<Item = (Pos, Direction)> + '_ {
        self.four_points[color.index()]
            .iter()
            .flat_map(|p| Direction::ALL.into_iter().map(move |d| (p, d)))
            .filter(move |&(p, d)| self.pattern(p, d, color) == Pattern::F4)
    }

    /// The points where one more `color` stone wins, in index order: the first
    /// `FivePoints::KEPT` of them (more than one already means no single block stops them).
    pub fn five_points(&self, color: Color) -> FivePoints {
        let mut fives = FivePoints {
            points: [Pos::from_index(0); FivePoints::KEPT],
            len: 0,
        };
        for (slot, pos) in fives
            .points
            .iter_mut()
            .zip(self.five_points[color.index()].iter())
        {
            *slot = pos;
            fives.len += 1;
        }
        fives
    }

    /// The referee's verdict on a black stone at the empty point `pos` (whatever the rule).
    pub fn foul(&self, pos: Pos) -> Option<Foul> {
        if self.is_empty(pos) {
            forbidden::foul(&self.lines, pos)
        } else {
            None
        }
    }

    /// Whether `color` may not play at `pos` because of a renju foul.
    pub fn is_forbidden(&self, pos: Pos, color: Color) -> bool {
        self.rule.has_forbidden(color) && self.foul(pos).is_some()
    }

    /// Whether a `color` stone at `pos` makes (or, on a stone of that colour, is part of) a
    /// winning line under the rule.
    pub fn makes_five(&self, pos: Pos, color: Color) -> bool {
        Direction::ALL
            .into_iter()
            .any(|dir| self.winning_run(pos, dir, color).is_some())
    }

    /// The winning run through `pos` along `dir` for `color`, as (first offset, length).
    pub fn winning_run(&self, pos: Pos, dir: Direction, color: Color) -> Option<(i32, usize)> {
        let view = self.lines.view(dir, pos);
        let own = cell_code(color);
        let opponent = cell_code(color.opponent());
        // Past five stones on a side the run is an overline whatever follows.
        let mut back = 0;
        while back < 5 && view.cell(-back - 1) == own {
            back += 1;
        }
        let mut ahead = 0;
        while ahead < 5 && view.cell(ahead + 1) == own {
            ahead += 1;
        }
        let length = (back + ahead + 1) as usize;
        let blocked = view.cell(-back - 1) == opponent && view.cell(ahead + 1) == opponent;
        self.rule
            .is_win(color, length, blocked)
            .then_some((-back, length))
    }

    /// After a stone was put on `pos`: recomputes the patterns and shapes of the empty
    /// points within the table's reach on its four lines, logging what changed; counts
    /// change only where a pattern did.
    fn refresh_around(&mut self, pos: Pos) {
        let reach = self.table.reach();
        for dir in Direction::ALL {
            let view = self.lines.view(dir, pos);
            let step = dir.index_step();
            // Only empty cells keep entries (walls and stones count as taken). An occupied
            // point's entries stay as they were when it was played: they are right again when
            // the moves since are undone and it is emptied.
            for offset in view.empty_offsets(reach) {
                let at = pos.index_along(step, offset);
                let entry = self.table.entry(view.key(offset));
                let old = self.patterns[at][dir.index()];
                if old == entry {
                    continue;
                }
                let old_keys = self.shape_keys[at];
                self.changes.push(Change {
                    at: at as u16,
                    dir: dir.index() as u8,
                    entry: old,
                    keys: old_keys,
                });
                self.patterns[at][dir.index()] = entry;
                self.count(old, -1);
                self.count(entry, 1);
                if is_threat_entry(old) || is_threat_entry(entry) {
                    self.mark_threats(Pos::from_index(at));
                }
                let keys = with_entry(old_keys, dir.index(), entry);
                if keys != old_keys {
                    self.shape_keys[at] = keys;
                    self.recount_shapes(old_keys, keys);
                }
            }
        }
    }

    /// After the stone on `pos` was taken off: undoes its move's changes from the log, and
    /// counts the emptied point again with the entries it had when it was played.
    fn restore_around(&mut self, pos: Pos) {
        let mark = self.change_marks.pop().unwrap_or(0) as usize;
        while self.changes.len() > mark {
            let change = match self.changes.pop() {
                Some(change) => change,
                None => break,
            };
            let at = change.at as usize;
            let current = self.patterns[at][change.dir as usize];
            self.patterns[at][change.dir as usize] = change.entry;
            if is_threat_entry(current) || is_threat_entry(change.entry) {
                self.mark_threats(Pos::from_index(at));
            }
            self.shape_keys[at] = change.keys;
        }
        if let Some([patterns, shapes]) = self.counts_before.pop() {
            self.pattern_counts = patterns;
            self.shape_counts = shapes;
        }
        self.mark_threats(pos);
    }

    /// Puts `pos` in or out of the open-four and five point sets of both colours, from its
    /// pattern entries (out, when it is occupied).
    fn mark_threats(&mut self, pos: Pos) {
        for color in [Color::Black, Color::White] {
            let (four, five) = self.threat_membership(pos, color);
            self.four_points[color.index()].set(pos, four);
            self.five_points[color.index()].set(pos, five);
        }
    }

    /// Whether `pos` belongs in `color`'s open-four and five point sets: empty, with an
    /// `F4` (`F5`) pattern on one of its lines (one pass over its four entries: this runs for
    /// every threat a move makes or unmakes).
    fn threat_membership(&self, pos: Pos, color: Color) -> (bool, bool) {
        if !self.is_empty(pos) {
            return (false, false);
        }
        let (mut four, mut five) = (false, false);
        for entry in self.patterns[pos.index()] {
            let pattern = PatternTable::pattern(entry, color);
            four |= pattern == Pattern::F4;
            five |= pattern == Pattern::F5;
        }
        (four, five)
    }

    /// Moves a point from the shapes of its old keys to those of its new ones.
    #[inline]
    fn recount_shapes(&mut self, old: [u16; 2], new: [u16; 2]) {
        for color in 0..2 {
            let table = self.shape_tables[color];
            let (before, after) = (shape_of(table, old[color]), shape_of(table, new[color]));
            if before != after {
                self.count_shape(color, before, -1);
                self.count_shape(color, after, 1);
            }
        }
    }

    /// Takes a point with `keys` out of (`change` −1) or into (+1) the shape counts.
    #[inline]
    fn count_shapes(&mut self, keys: [u16; 2], change: i16) {
        for (color, &key) in keys.iter().enumerate() {
            self.count_shape(color, shape_of(self.shape_tables[color], key), change);
        }
    }

    #[inline]
    fn count_shape(&mut self, color: usize, shape: u8, change: i16) {
        let count = &mut self.shape_counts[color][shape as usize & 15];
        *count = count.wrapping_add(change as Count);
    }

    #[inline]
    fn count(&mut self, entry: u8, change: i16) {
        let black = (entry & 15) as usize;
        let white = (entry >> 4) as usize & 15;
        self.pattern_counts[0][black] = self.pattern_counts[0][black].wrapping_add(change as Count);
        self.pattern_counts[1][white] = self.pattern_counts[1][white].wrapping_add(change as Count);
    }

    fn recomputed_counts(&self) -> [[Count; 16]; 2] {
        let mut counts = [[0; 16]; 2];
        for pos in self.size.points().filter(|&p| self.is_empty(p)) {
            for entry in self.patterns[pos.index()] {
                counts[0][(entry & 15) as usize] += 1;
                counts[1][(entry >> 4) as usize] += 1;
            }
        }
        counts
    }

    fn recomputed_shape_keys(&self) -> Box<[[u16; 2]; POS_COUNT]> {
        let mut keys = Box::new([[0; 2]; POS_COUNT]);
        for pos in self.size.points().filter(|&p| self.is_empty(p)) {
            keys[pos.index()] = shape_keys_of(&self.patterns[pos.index()]);
        }
        keys
    }

    fn recomputed_shape_counts(&self) -> [[Count; 16]; 2] {
        let mut counts = [[0; 16]; 2];
        for pos in self.size.points().filter(|&p| self.is_empty(p)) {
            for color in [Color::Black, Color::White] {
                counts[color.index()][self.shape(pos, color) as usize] += 1;
            }
        }
        counts
    }

    #[cfg(debug_assertions)]
    fn recomputed_near(&self) -> Box<[u8; POS_COUNT]> {
        use super::line::{BLACK, WHITE};
        let mut near = Box::new([0; POS_COUNT]);
        for pos in self.size.points() {
            for dir in Direction::ALL {
                let view = self.lines.view(dir, pos);
                near[pos.index()] += (-NEAR..=NEAR)
                    .filter(|&o| o != 0 && matches!(view.cell(o), BLACK | WHITE))
                    .count() as u8;
            }
        }
        near
    }

    fn recomputed_patterns(&self) -> Box<[[u8; 4]; POS_COUNT]> {
        let mut patterns = Box::new([[0; 4]; POS_COUNT]);
        for pos in self.size.points().filter(|&p| self.is_empty(p)) {
            for dir in Direction::ALL {
                patterns[pos.index()][dir.index()] = self.table.entry(self.lines.key(dir, pos));
            }
        }
        patterns
    }

    /// Panics unless the incremental state equals a recomputation from the stones.
    #[cfg(debug_assertions)]
    fn assert_consistent(&self) {
        let mut lines = Lines::new(self.size);
        let mut hash = 0;
        for pos in self.size.points() {
            if let Some(color) = self.stone(pos) {
                lines.put(pos, cell_code(color));
                hash ^= zobrist::key(pos, color);
            }
        }
        assert!(lines == self.lines, "line bits drifted");
        assert_eq!(hash, self.hash, "hash drifted");
        let fresh = self.recomputed_patterns();
        for pos in self.size.points().filter(|&p| self.is_empty(p)) {
            assert_eq!(
                fresh[pos.index()],
                self.patterns[pos.index()],
                "patterns drifted at {pos:?}"
            );
        }
        assert_eq!(
            self.recomputed_counts(),
            self.pattern_counts,
            "pattern counts drifted"
        );
        let keys = self.recomputed_shape_keys();
        for pos in self.size.points().filter(|&p| self.is_empty(p)) {
            assert_eq!(
                keys[pos.index()],
                self.shape_keys[pos.index()],
                "shape keys drifted at {pos:?}"
            );
        }
        assert_eq!(
            self.recomputed_shape_counts(),
            self.shape_counts,
            "shape counts drifted"
        );
        for pos in self.size.points() {
            for color in [Color::Black, Color::White] {
                let kept = (
                    self.four_points[color.index()].contains(pos),
                    self.five_points[color.index()].contains(pos),
                );
                assert_eq!(
                    kept,
                    self.threat_membership(pos, color),
                    "threat point sets drifted at {pos:?}"
                );
            }
        }
        let near = self.recomputed_near();
        let candidates: Vec<Pos> = self.candidates().collect();
        let expected: Vec<Pos> = self
            .size
            .points()
            .filter(|&p| near[p.index()] > 0 && self.is_empty(p))
            .collect();
        assert_eq!(candidates, expected, "candidates drifted");
    }
}

/// Where row `y` is kept in `Board::rows`.
#[inline]
fn row_slot(y: usize) -> usize {
    y + NEAR as usize
}

/// Whether an entry gives either colour an open-four or a five pattern (a table: this runs
/// for every pattern a move changes, and again at its undo).
#[inline]
fn is_threat_entry(entry: u8) -> bool {
    THREAT_ENTRIES[entry as usize]
}

static THREAT_ENTRIES: [bool; 256] = {
    let mut threats = [false; 256];
    let mut entry = 0;
    while entry < 256 {
        threats[entry] = entry & 15 >= Pattern::F4 as usize || entry >> 4 >= Pattern::F4 as usize;
        entry += 1;
    }
    threats
};

/// The black and white shape keys of a point's four pattern entries.
fn shape_keys_of(entries: &[u8; 4]) -> [u16; 2] {
    let mut keys = [0u16; 2];
    for (dir, &entry) in entries.iter().enumerate() {
        keys = with_entry(keys, dir, entry);
    }
    keys
}
