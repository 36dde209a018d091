//! Zobrist keys from a fixed seed, so hashes (and so searches) repeat across runs and machines.

use super::color::Color;
use super::coord::{Pos, POS_COUNT};
use once_cell::sync::Lazy;

static KEYS: Lazy<Vec<[u64; 2]>> = Lazy::new(|| {
    let mut state = 0x5157_494e_544f_2021_u64; // "QWINTO !": any fixed value will do
    (0..POS_COUNT)
        .map(|_| [splitmix64(&mut state), splitmix64(&mut state)])
        .collect()
});

/// The key of a `color` stone on `pos`.
#[inline]
pub fn key(pos: Pos, color: Color) -> u64 {
    KEYS[pos.index()][color.index()]
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
