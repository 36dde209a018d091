//! The network's running sums, kept up to date with the board lazily: a search plays and
//! takes back many moves (the threat solver's above all) that are never evaluated, so the
//! state follows the board only when asked for a value, by taking back its own moves down to
//! the moves it shares with the board and playing the board's newer ones.
//!
//! One view per side as "own" (the side to move of the positions it is asked about), each
//! synced only when its side's value is asked for: the search asks for one side at a run of
//! sibling leaves, so the other view's catching up is often saved (the bench's positions: 44 %
//! fewer vector updates than when both sides follow every move). A view keeps, for each
//! empty point, the sum of its four line vectors, and the sum over the empty points of those
//! sums clipped to `0..=ACT_MAX`. A stone changes one line of each of the (up to) 32 points
//! within four cells of it (40 within five, for renju's features), so a move costs up to 32
//! (40) vector updates per view (none for the neighbours that are stones: a stone's sums are
//! left as they were when it was placed; none where the line's id stays, as renju's five
//! cells away mostly do), in int16 and int32: exact, so that any order of
//! moves gives the same sums as counting from scratch. The update runs in AVX2 where the
//! processor has it (the same code compiled for it, chosen at run time) and portably
//! elsewhere, with bit-identical results.
//!
//! A takeback costs no vector arithmetic: a move saves the sums it changes and the pool, and
//! its takeback puts them back. Moves are taken back last first, so when a stone goes, every
//! point around it is as it was when it came, the stone's own point included (a stone's sums
//! are never updated while it stands).

use super::features::{table_offset, LineFeatures};
use super::network::{add_into, clip, pool, Network, Row, DIM};
use super::VALUE_SCALE;
use crate::eval::EVAL_LIMIT;
use crate::game::{
    cell_code, stone_key, Board, BoardSize, Color, Direction, Lines, Pos, POS_COUNT,
};

/// The network's state for one board: a view for each side to move.
#[derive(Clone)]
pub struct NetState {
    views: [View; 2],
}

impl std::fmt::Debug for NetState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let view = &self.views[0];
        f.debug_struct("NetState")
            .field("size", &view.size)
            .field("avx2", &view.avx2)
            .finish_non_exhaustive()
    }
}

impl NetState {
    /// The state of an empty board of `size`, with the fastest update this processor has.
    pub fn new(net: &'static Network, size: BoardSize) -> NetState {
        NetState::with_simd(net, size, simd_available())
    }

    /// The same, choosing the update: `false` forces the portable one (for tests).
    pub fn with_simd(net: &'static Network, size: BoardSize, avx2: bool) -> NetState {
        NetState {
            views: [Color::Black, Color::White].map(|mover| View::new(net, size, mover, avx2)),
        }
    }

    /// The value of `board` for `to_move`, in evaluation units.
    pub fn evaluate(&mut self, board: &Board, to_move: Color) -> i32 {
        self.views[to_move.index()].evaluate(board)
    }

    /// The policy at `board` for `to_move`: each empty point's logit
    /// ([`Network::policy_logit`]), the state brought to the position once.
    pub fn policy<'a>(&'a mut self, board: &Board, to_move: Color) -> impl Fn(Pos) -> i32 + 'a {
        let view = &mut self.views[to_move.index()];
        view.sync(board);
        let view: &View = view;
        move |pos| view.net.policy_logit(&view.sums[pos.index()])
    }
}

/// A move the sums include.
#[derive(Clone)]
struct Applied {
    pos: Pos,
    /// The view's position hash after it: a sync finds the last position it shares with the
    /// board by walking both back until the hashes agree (a few steps, where comparing the
    /// moves from the first took one per stone).
    hash: u64,
    /// Where this move's saved sums begin in `View::saved`.
    saved_from: usize,
    /// The pool before the move.
    pooled: [i32; DIM],
}

/// The sums seen from one side as the side to move.
#[derive(Clone)]
struct View {
    net: &'static Network,
    /// How the net reads lines, and the ids this side looks them up in.
    features: LineFeatures,
    ids: &'static [u16],
    mover: Color,
    /// Where this side's feature vectors start (see `features::table_offset`).
    offset: usize,
    size: BoardSize,
    lines: Lines,
    /// The moves the sums include, in order, each with what taking it back restores.
    applied: Vec<Applied>,
    /// The sums the applied moves changed, as they were before, in order (`Applied::saved_from`
    /// says where each move's begin): a point's index and its sums, unaligned (66 bytes where a
    /// `Row` would take 128).
    saved: Vec<(u16, [i16; DIM])>,
    /// Per empty point (by `Pos::index`): the sum of the four line vectors (a stone's are
    /// its point's from before it came, right again when it goes).
    sums: Vec<Row>,
    /// The clipped point sums added over the empty points.
    pooled: [i32; DIM],
    avx2: bool,
}

impl View {
    fn new(net: &'static Network, size: BoardSize, mover: Color, avx2: bool) -> View {
        let mut view = View {
            net,
            features: net.features,
            ids: net.features.table(mover),
            mover,
            offset: table_offset(net.features, net.tables, mover),
            size,
            lines: Lines::new(size),
            // Room for every point; the saved sums grow with the deepest position synced.
            applied: Vec::with_capacity(POS_COUNT),
            saved: Vec::new(),
            sums: vec![Row::ZERO; POS_COUNT],
            pooled: [0; DIM],
            avx2: avx2 && simd_available(),
        };
        for pos in size.points() {
            let sum = view.sum_at(pos);
            view.sums[pos.index()] = Row(sum);
            pool(&mut view.pooled, &sum);
        }
        view
    }

    /// Brings the sums to `board`'s position (a board of another size starts afresh).
    fn sync(&mut self, board: &Board) {
        if board.size() != self.size {
            *self = View::new(self.net, board.size(), self.mover, self.avx2);
        }
        let history = board.history();
        // The board's hash after its first `shared` moves, walked back from its position to
        // no more moves than applied, then until it is the hash after as many applied ones.
        let mut shared = history.len();
        let mut hash = board.hash();
        while shared > 0 && (shared > self.applied.len() || self.applied[shared - 1].hash != hash) {
            shared -= 1;
            let pos = history[shared];
            if let Some(color) = board.stone(pos) {
                hash ^= stone_key(pos, color);
            }
        }
        while self.applied.len() > shared {
            self.take_back();
        }
        for &pos in &history[shared..] {
            if let Some(color) = board.stone(pos) {
                self.place(pos, color);
            }
        }
    }

    /// The value of `board` for this view's side, in evaluation units.
    fn evaluate(&mut self, board: &Board) -> i32 {
        self.sync(board);
        let black = self.mover == Color::Black;
        #[cfg(target_arch = "x86_64")]
        let z = if self.avx2 {
            #[allow(unsafe_code)]
            // SAFETY: `avx2` is set only where the processor has AVX2.
            unsafe {
                self.net.value_avx2(&self.pooled, black)
            }
        } else {
            self.net.value(&self.pooled, black)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let z = self.net.value(&self.pooled, black);
        ((z * VALUE_SCALE).round() as i32).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The sum of `pos`'s four line vectors, counted from the lines.
    fn sum_at(&self, pos: Pos) -> [i16; DIM] {
        let mut sum = [0i16; DIM];
        for dir in Direction::ALL {
            let id = self.offset + self.features.id(self.lines.key(dir, pos), self.mover);
            add_into(&mut sum, &self.net.embedding[id]);
        }
        sum
    }

    /// Takes back the last applied move: its saved sums and pool come back.
    fn take_back(&mut self) {
        if let Some(last) = self.applied.pop() {
            self.lines.clear(last.pos);
            for (q, sum) in self.saved.drain(last.saved_from..) {
                self.sums[q as usize] = Row(sum);
            }
            self.pooled = last.pooled;
        }
    }

    /// Puts a stone, updating the sums and saving what its takeback restores.
    fn place(&mut self, pos: Pos, color: Color) {
        let before = self.applied.last().map_or(0, |a| a.hash);
        self.applied.push(Applied {
            pos,
            hash: before ^ stone_key(pos, color),
            saved_from: self.saved.len(),
            pooled: self.pooled,
        });
        if self.avx2 {
            #[allow(unsafe_code)]
            // SAFETY: `avx2` is set only where the processor has AVX2.
            unsafe {
                self.place_avx2(pos, color)
            }
        } else {
            self.place_body(pos, color)
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[allow(unsafe_code)]
    unsafe fn place_avx2(&mut self, pos: Pos, color: Color) {
        self.place_body(pos, color)
    }

    #[cfg(not(target_arch = "x86_64"))]
    #[allow(unsafe_code)]
    unsafe fn place_avx2(&mut self, pos: Pos, color: Color) {
        self.place_body(pos, color)
    }

    #[inline(always)]
    fn place_body(&mut self, pos: Pos, color: Color) {
        // The change to the pool, gathered in int16 (at most 41 points change by at most
        // ACT_MAX each) and added to the int32 pool once.
        let mut delta = [0i16; DIM];
        for (x, s) in delta.iter_mut().zip(self.sums[pos.index()].iter()) {
            *x -= clip(*s);
        }
        // Each line through the point before the change; after it, each neighbour's key is
        // read off the same line at its offset.
        let before = Direction::ALL.map(|dir| self.lines.view(dir, pos));
        self.lines.put(pos, cell_code(color));
        let (features, ids, offset, mover, embedding) = (
            self.features,
            self.ids,
            self.offset,
            self.mover,
            &self.net.embedding,
        );
        for (dir, line_before) in Direction::ALL.into_iter().zip(before) {
            let line_after = self.lines.view(dir, pos);
            let index_step = dir.index_step();
            // The empty neighbours, as the line shows them (the point itself aside): walls
            // past the edge are never empty, and a stone's sums are never read while it
            // stands.
            for step in line_before.empty_offsets(features.reach()) {
                if step == 0 {
                    continue;
                }
                let q = pos.index_along(index_step, step);
                let (old_key, new_key) = (line_before.key(step), line_after.key(step));
                let old = offset + ids[features.index(old_key, mover)] as usize;
                let new = offset + ids[features.index(new_key, mover)] as usize;
                // Renju's ids five cells away change only when a pattern does.
                if old == new {
                    continue;
                }
                self.saved.push((q as u16, self.sums[q].0));
                update(
                    &mut self.sums[q],
                    &embedding[old],
                    &embedding[new],
                    &mut delta,
                );
            }
        }
        for (p, x) in self.pooled.iter_mut().zip(delta.iter()) {
            *p += *x as i32;
        }
    }
}

/// An empty neighbour's line changed from `old` to `new`: its sum, and the pool's change.
#[inline(always)]
fn update(sum: &mut [i16; DIM], old: &[i16; DIM], new: &[i16; DIM], pool_delta: &mut [i16; DIM]) {
    for k in 0..DIM {
        let before = sum[k];
        let after = before.wrapping_sub(old[k]).wrapping_add(new[k]);
        sum[k] = after;
        pool_delta[k] += clip(after) - clip(before);
    }
}

/// Whether this processor runs the AVX2 update.
pub fn simd_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::net::network::tests::random_network;
    use crate::game::Rule;
    use crate::rng::Rng;

    fn leaked(seed: u64) -> &'static Network {
        Box::leak(Box::new(random_network(seed)))
    }

    /// A view of `board` counted from scratch.
    fn from_scratch(net: &'static Network, board: &Board, mover: Color) -> View {
        let mut view = View::new(net, board.size(), mover, false);
        for &pos in board.history() {
            if let Some(color) = board.stone(pos) {
                view.lines.put(pos, cell_code(color));
            }
        }
        view.pooled = [0; DIM];
        for pos in board.size().points() {
            let sum = view.sum_at(pos);
            view.sums[pos.index()] = Row(sum);
            if board.is_empty(pos) {
                pool(&mut view.pooled, &sum);
            }
        }
        view
    }

    fn assert_same(a: &View, b: &View, board: &Board, what: &str) {
        assert_eq!(a.pooled, b.pooled, "{what}: pooled");
        for pos in board.size().points().filter(|&p| board.is_empty(p)) {
            assert_eq!(a.sums[pos.index()], b.sums[pos.index()], "{what}: {pos:?}");
        }
    }

    #[test]
    fn incremental_equals_from_scratch_and_simd_equals_portable_over_random_walks() {
        // Seed 11 reads renju's features, 13 the window (`random_network`).
        for seed in [11, 13] {
            random_walks(leaked(seed));
        }
    }

    fn random_walks(net: &'static Network) {
        let mut rng = Rng::new(5);
        for side in [7, 15, 20] {
            let size = BoardSize::square(side).unwrap();
            let mut board = Board::new(size, Rule::Freestyle);
            let mut fast = NetState::new(net, size);
            let mut portable = NetState::with_simd(net, size, false);
            for step in 0..400 {
                // Mostly moves, sometimes a run of takebacks, evaluated only now and then
                // and for either side (each view's lazy catch-up spans several moves and
                // takebacks).
                if board.stone_count() > 0 && (rng.below(3) == 0 || board.is_full()) {
                    for _ in 0..=rng.below(4) {
                        board.undo();
                    }
                } else {
                    let empties: Vec<Pos> = size.points().filter(|&p| board.is_empty(p)).collect();
                    let pos = empties[rng.below(empties.len())];
                    board.play(pos, board.side_to_move());
                }
                if step % 3 == 0 {
                    let mover = if rng.below(2) == 0 {
                        board.side_to_move()
                    } else {
                        board.side_to_move().opponent()
                    };
                    let value = fast.evaluate(&board, mover);
                    assert_eq!(value, portable.evaluate(&board, mover));
                    let scratch = from_scratch(net, &board, mover);
                    let i = mover.index();
                    assert_same(&fast.views[i], &scratch, &board, "incremental");
                    assert_same(&portable.views[i], &scratch, &board, "portable");
                }
            }
        }
    }

    /// A random net (`seed`), an empty 15×15 board under `rule` and the net's state for it.
    fn fifteen(seed: u64, rule: Rule) -> (&'static Network, BoardSize, Board, NetState) {
        let net = leaked(seed);
        let size = BoardSize::square(15).unwrap();
        (net, size, Board::new(size, rule), NetState::new(net, size))
    }

    #[test]
    fn a_sync_keeps_the_same_stones_reached_in_another_order() {
        let (net, size, mut board, mut state) = fifteen(11, Rule::Renju);
        let play = |board: &mut Board, moves: &[&str]| {
            for text in moves {
                board.play(size.parse_human(text).unwrap(), board.side_to_move());
            }
        };
        play(&mut board, &["h8", "h9", "i8", "i9"]);
        state.evaluate(&board, Color::Black);
        while board.undo().is_some() {}
        play(&mut board, &["i8", "i9", "h8", "h9", "j8"]);
        state.evaluate(&board, Color::Black);
        let view = &state.views[Color::Black.index()];
        let first: Vec<Pos> = view.applied.iter().map(|a| a.pos).collect();
        let expected: Vec<Pos> = ["h8", "h9", "i8", "i9", "j8"]
            .iter()
            .map(|t| size.parse_human(t).unwrap())
            .collect();
        assert_eq!(
            first, expected,
            "the first four moves were kept, not replayed"
        );
        assert_same(
            view,
            &from_scratch(net, &board, Color::Black),
            &board,
            "sums",
        );
    }

    #[test]
    fn the_state_gives_the_value_counted_at_once() {
        let (net, size, mut board, mut state) = fifteen(13, Rule::Renju);
        for text in ["h8", "h9", "i8", "j10", "g7"] {
            board.play(size.parse_human(text).unwrap(), board.side_to_move());
            for mover in [Color::Black, Color::White] {
                let points: Vec<[u16; 4]> = crate::eval::net::features::board_features(
                    &board,
                    mover,
                    net.features,
                    net.tables,
                )
                .into_iter()
                .map(|(_, ids)| ids)
                .collect();
                let z = net.value_of_points(&points, mover == Color::Black);
                let expected = ((z * VALUE_SCALE).round() as i32).clamp(-EVAL_LIMIT, EVAL_LIMIT);
                assert_eq!(state.evaluate(&board, mover), expected);
            }
        }
    }

    #[test]
    fn the_policy_reads_each_point_as_counted_from_scratch() {
        let (net, size, mut board, mut state) = fifteen(14, Rule::Freestyle);
        for text in ["h8", "h9", "i8", "j10", "g7", "g9"] {
            board.play(size.parse_human(text).unwrap(), board.side_to_move());
        }
        for mover in [Color::Black, Color::White] {
            let scratch = from_scratch(net, &board, mover);
            let policy = state.policy(&board, mover);
            let corner = policy(size.parse_human("a1").unwrap());
            let mut differ = false;
            for pos in size.points().filter(|&p| board.is_empty(p)) {
                let expected = net.policy_logit(&scratch.sums[pos.index()]);
                assert_eq!(policy(pos), expected, "{pos:?}");
                differ |= expected != corner;
            }
            assert!(differ, "a random net tells the points apart");
        }
    }

    #[test]
    fn the_sides_are_seen_each_from_its_own_view() {
        let net = leaked(12);
        let size = BoardSize::square(15).unwrap();
        let stones = ["h8", "h9", "i8"];
        let mut board = Board::new(size, Rule::Freestyle);
        let mut swapped = Board::new(size, Rule::Freestyle);
        for (i, text) in stones.iter().enumerate() {
            let pos = size.parse_human(text).unwrap();
            let color = Color::to_move_after(i);
            board.play(pos, color);
            swapped.play(pos, color.opponent());
        }
        let (mut state, mut other) = (NetState::new(net, size), NetState::new(net, size));
        assert_ne!(
            state.evaluate(&board, Color::Black),
            state.evaluate(&board, Color::White)
        );
        other.evaluate(&swapped, Color::Black);
        other.evaluate(&swapped, Color::White);
        assert_eq!(state.views[0].pooled, other.views[1].pooled);
        assert_eq!(state.views[1].pooled, other.views[0].pooled);
    }
}
