//! The network's running sums, kept up to date with the board lazily: a search plays and
//! takes back many moves (the threat solver's above all) that are never evaluated, so the
//! state follows the board only when asked for a value, by taking back its own moves down to
//! the moves it shares with the board and playing the board's newer ones.
//!
//! For each empty point and each side as "own", the sum of its four line vectors; and for
//! each side, the sum over the empty points of those sums clipped to `0..=ACT_MAX`. A stone
//! changes one line of each of the (up to) 32 points within four cells of it, so a move
//! costs up to 64 vector updates (none for the neighbours that are stones: a stone's sums
//! are counted afresh when it is taken back), in int16 and int32: exact, so that any order
//! of moves and takebacks gives the same sums as counting from scratch. The update runs in AVX2 where the processor
//! has it (the same code compiled for it, chosen at run time) and portably elsewhere, with
//! bit-identical results.

use super::features::{id_table, line_feature, table_offset, window_key, WINDOW};
use super::network::{add_into, clip, pool, Network, DIM};
use super::VALUE_SCALE;
use crate::eval::EVAL_LIMIT;
use crate::game::{cell_code, Board, BoardSize, Color, Direction, Lines, Pos, POS_COUNT};

/// The network's state for one board.
#[derive(Clone)]
pub struct NetState {
    net: &'static Network,
    ids: &'static [u16],
    /// Where each side's feature vectors start (see `features::table_offset`).
    offsets: [usize; 2],
    size: BoardSize,
    lines: Lines,
    /// The moves the sums include, in order.
    applied: Vec<(Pos, Color)>,
    empty: Vec<bool>,
    /// Per empty point (by `Pos::index`), per side as own: the sum of the four line vectors
    /// (a stone's are stale until it is taken back).
    sums: Vec<[[i16; DIM]; 2]>,
    /// Per side as own: the clipped point sums added over the empty points.
    pooled: [[i32; DIM]; 2],
    avx2: bool,
}

impl std::fmt::Debug for NetState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetState")
            .field("size", &self.size)
            .field("applied", &self.applied)
            .field("avx2", &self.avx2)
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
        let mut state = NetState {
            net,
            ids: id_table(),
            offsets: [Color::Black, Color::White].map(|c| table_offset(net.tables, c)),
            size,
            lines: Lines::new(size),
            // Room for every point: syncing never allocates.
            applied: Vec::with_capacity(POS_COUNT),
            empty: vec![false; POS_COUNT],
            sums: vec![[[0; DIM]; 2]; POS_COUNT],
            pooled: [[0; DIM]; 2],
            avx2: avx2 && simd_available(),
        };
        for pos in size.points() {
            state.empty[pos.index()] = true;
            for mover in [Color::Black, Color::White] {
                let sum = state.sum_at(pos, mover);
                state.sums[pos.index()][mover.index()] = sum;
                pool(&mut state.pooled[mover.index()], &sum);
            }
        }
        state
    }

    /// Brings the sums to `board`'s position (a board of another size starts afresh).
    pub fn sync(&mut self, board: &Board) {
        if board.size() != self.size {
            *self = NetState::with_simd(self.net, board.size(), self.avx2);
        }
        let history = board.history();
        let shared = self
            .applied
            .iter()
            .zip(history)
            .take_while(|(&(p, c), &h)| p == h && board.stone(h) == Some(c))
            .count();
        while self.applied.len() > shared {
            if let Some((pos, color)) = self.applied.pop() {
                self.change(pos, color, false);
            }
        }
        for &pos in &history[shared..] {
            if let Some(color) = board.stone(pos) {
                self.change(pos, color, true);
                self.applied.push((pos, color));
            }
        }
    }

    /// The value of `board` for `to_move`, in evaluation units.
    pub fn evaluate(&mut self, board: &Board, to_move: Color) -> i32 {
        self.sync(board);
        let (pooled, black) = (&self.pooled[to_move.index()], to_move == Color::Black);
        #[cfg(target_arch = "x86_64")]
        let z = if self.avx2 {
            #[allow(unsafe_code)]
            // SAFETY: `avx2` is set only where the processor has AVX2.
            unsafe {
                self.net.value_avx2(pooled, black)
            }
        } else {
            self.net.value(pooled, black)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let z = self.net.value(pooled, black);
        ((z * VALUE_SCALE).round() as i32).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The sums, for comparing with a state counted from scratch.
    #[cfg(test)]
    fn sums_of(&self, pos: Pos) -> [[i16; DIM]; 2] {
        self.sums[pos.index()]
    }

    #[cfg(test)]
    fn pooled(&self) -> [[i32; DIM]; 2] {
        self.pooled
    }

    /// The sum of `pos`'s four line vectors for `mover`, counted from the lines.
    fn sum_at(&self, pos: Pos, mover: Color) -> [i16; DIM] {
        let mut sum = [0i16; DIM];
        for dir in Direction::ALL {
            let id = self.offsets[mover.index()] + line_feature(&self.lines, dir, pos, mover);
            add_into(&mut sum, &self.net.embedding[id]);
        }
        sum
    }

    /// Puts (`placing`) or takes away a stone, updating the sums.
    fn change(&mut self, pos: Pos, color: Color, placing: bool) {
        if self.avx2 {
            #[allow(unsafe_code)]
            // SAFETY: `avx2` is set only where the processor has AVX2.
            unsafe {
                self.change_avx2(pos, color, placing)
            }
        } else {
            self.change_body(pos, color, placing)
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[allow(unsafe_code)]
    unsafe fn change_avx2(&mut self, pos: Pos, color: Color, placing: bool) {
        self.change_body(pos, color, placing)
    }

    #[cfg(not(target_arch = "x86_64"))]
    #[allow(unsafe_code)]
    unsafe fn change_avx2(&mut self, pos: Pos, color: Color, placing: bool) {
        self.change_body(pos, color, placing)
    }

    #[inline(always)]
    fn change_body(&mut self, pos: Pos, color: Color, placing: bool) {
        let at = pos.index();
        // The change to each side's pool, gathered in int16 (at most 33 points change by at
        // most ACT_MAX each) and added to the int32 pool once.
        let mut delta = [[0i16; DIM]; 2];
        if placing {
            self.empty[at] = false;
            for (d, sum) in delta.iter_mut().zip(self.sums[at].iter()) {
                for (x, s) in d.iter_mut().zip(sum.iter()) {
                    *x -= clip(*s);
                }
            }
        }
        // Each line through the point before the change; after it, each neighbour's key is
        // read off the same line at its offset.
        let before = Direction::ALL.map(|dir| self.lines.view(dir, pos));
        if placing {
            self.lines.put(pos, cell_code(color));
        } else {
            self.lines.clear(pos);
        }
        let (ids, offsets, embedding) = (self.ids, self.offsets, &self.net.embedding);
        for (dir, line_before) in Direction::ALL.into_iter().zip(before) {
            let line_after = self.lines.view(dir, pos);
            let (dx, dy) = dir.delta();
            for offset in NEIGHBOUR_OFFSETS {
                let (x, y) = (pos.x() as i32 + dx * offset, pos.y() as i32 + dy * offset);
                if !self.size.contains(x, y) {
                    continue;
                }
                let q = Pos::new(x as usize, y as usize).index();
                // A stone's sums are never read while it stands: counted afresh when it goes.
                if !self.empty[q] {
                    continue;
                }
                let (old_key, new_key) = (line_before.key(offset), line_after.key(offset));
                for (side, mover) in [Color::Black, Color::White].into_iter().enumerate() {
                    let old = offsets[side] + ids[window_key(old_key, mover) as usize] as usize;
                    let new = offsets[side] + ids[window_key(new_key, mover) as usize] as usize;
                    update(
                        &mut self.sums[q][side],
                        &embedding[old],
                        &embedding[new],
                        &mut delta[side],
                    );
                }
            }
        }
        if !placing {
            self.empty[at] = true;
            for mover in [Color::Black, Color::White] {
                self.sums[at][mover.index()] = self.sum_at(pos, mover);
            }
            for (d, sum) in delta.iter_mut().zip(self.sums[at].iter()) {
                for (x, s) in d.iter_mut().zip(sum.iter()) {
                    *x += clip(*s);
                }
            }
        }
        for (pooled, d) in self.pooled.iter_mut().zip(delta.iter()) {
            for (p, x) in pooled.iter_mut().zip(d.iter()) {
                *p += *x as i32;
            }
        }
    }
}

/// The offsets of the neighbours whose line keys a stone changes.
const NEIGHBOUR_OFFSETS: [i32; 2 * WINDOW as usize] = [-4, -3, -2, -1, 1, 2, 3, 4];

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

    /// A state of `board` counted from scratch.
    fn from_scratch(net: &'static Network, board: &Board) -> NetState {
        let mut state = NetState::with_simd(net, board.size(), false);
        for &pos in board.history() {
            if let Some(color) = board.stone(pos) {
                state.lines.put(pos, cell_code(color));
                state.empty[pos.index()] = false;
            }
        }
        state.pooled = [[0; DIM]; 2];
        for pos in board.size().points() {
            for mover in [Color::Black, Color::White] {
                let sum = state.sum_at(pos, mover);
                state.sums[pos.index()][mover.index()] = sum;
                if state.empty[pos.index()] {
                    pool(&mut state.pooled[mover.index()], &sum);
                }
            }
        }
        state
    }

    fn assert_same(a: &NetState, b: &NetState, board: &Board, what: &str) {
        assert_eq!(a.pooled(), b.pooled(), "{what}: pooled");
        for pos in board.size().points().filter(|&p| board.is_empty(p)) {
            assert_eq!(a.sums_of(pos), b.sums_of(pos), "{what}: {pos:?}");
        }
    }

    #[test]
    fn incremental_equals_from_scratch_and_simd_equals_portable_over_random_walks() {
        let net = leaked(11);
        let mut rng = Rng::new(5);
        for side in [7, 15, 20] {
            let size = BoardSize::square(side).unwrap();
            let mut board = Board::new(size, Rule::Freestyle);
            let mut fast = NetState::new(net, size);
            let mut portable = NetState::with_simd(net, size, false);
            for step in 0..400 {
                // Mostly moves, sometimes a run of takebacks, evaluated only now and then
                // (the lazy catch-up spans several moves and takebacks).
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
                    let mover = board.side_to_move();
                    let value = fast.evaluate(&board, mover);
                    assert_eq!(value, portable.evaluate(&board, mover));
                    let scratch = from_scratch(net, &board);
                    assert_same(&fast, &scratch, &board, "incremental");
                    assert_same(&portable, &scratch, &board, "portable");
                }
            }
        }
    }

    #[test]
    fn the_state_gives_the_value_counted_at_once() {
        let net = leaked(13);
        let size = BoardSize::square(15).unwrap();
        let mut board = Board::new(size, Rule::Renju);
        let mut state = NetState::new(net, size);
        for text in ["h8", "h9", "i8", "j10", "g7"] {
            board.play(size.parse_human(text).unwrap(), board.side_to_move());
            for mover in [Color::Black, Color::White] {
                let points: Vec<[u16; 4]> =
                    crate::eval::net::features::board_features(&board, mover, net.tables)
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
        other.sync(&swapped);
        assert_eq!(state.pooled()[0], other.pooled()[1]);
        assert_eq!(state.pooled()[1], other.pooled()[0]);
    }
}
