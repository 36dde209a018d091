//! The network's weights, their file format, and the value head.
//!
//! Shape: every (point, direction) line has a feature vector (`DIM` int16, looked up by
//! [`features`](super::features) in one of its [`LineFeatures`] ways); a point's four are
//! summed and clipped to `0..=ACT_MAX` (1.0); the clipped vectors of the empty points are
//! summed over the board and scaled by `1/POOL_DIVISOR`; two hidden layers of `HIDDEN` with
//! ReLU (the first also told whether black is to move) give the value in logistic units. The
//! policy is a dot product of a point's clipped vector with one weight vector.
//!
//! File (little-endian): `QNET`, version, `DIM`, `HIDDEN`, the [`LineFeatures`] code, its
//! number of ids, the number of feature tables (1, or 2 where black and white have their
//! own) (u32 each), the feature vectors (i16), `w1` (`DIM`×`HIDDEN`, input-major), `b1`,
//! `black1`, `w2` (`HIDDEN`×`HIDDEN`), `b2`, `w3`, `b3` (f32), the policy vector (i16), and
//! an FNV-1a 64-bit hash of everything before it: a damaged file is refused, never
//! half-used.

use super::features::{table_offset, LineFeatures};
use crate::checksum::fnv1a;
use crate::game::Color;

/// Feature vector width.
pub const DIM: usize = 32;
/// Hidden layer width.
pub const HIDDEN: usize = 32;
/// The int16 value of 1.0 in feature vectors, and the clip of a point's sum.
pub const ACT_MAX: i16 = 256;
/// No feature vector entry may exceed this, so that four of them never overflow int16.
pub const EMBED_LIMIT: i16 = 8_191;
/// The pooled sum is divided by this (and `ACT_MAX`): a sum, not a mean over the board, so
/// that a few stones move the value as much on 20×20 as on 15×15.
pub const POOL_DIVISOR: f32 = 32.0;
/// The int16 value of 1.0 in the policy vector.
pub const POLICY_SCALE: f32 = 64.0;
/// A policy logit of 1.0 in [`Network::policy_logit`]'s units.
pub const POLICY_ONE: i32 = ACT_MAX as i32 * POLICY_SCALE as i32;

/// A vector of `DIM` int16, aligned to a cache line: its 64 bytes are read from one line,
/// not two, where the accumulator's updates read some eighty of them a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Row(pub [i16; DIM]);

impl Row {
    pub const ZERO: Row = Row([0; DIM]);
}

impl std::ops::Deref for Row {
    type Target = [i16; DIM];
    fn deref(&self) -> &[i16; DIM] {
        &self.0
    }
}

impl std::ops::DerefMut for Row {
    fn deref_mut(&mut self) -> &mut [i16; DIM] {
        &mut self.0
    }
}

const MAGIC: &[u8; 4] = b"QNET";
const VERSION: u32 = 3;

/// Weights of one network.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// How it reads a line.
    pub features: LineFeatures,
    /// One vector per feature id and table.
    pub embedding: Vec<Row>,
    /// 1: both sides read one table; 2: white reads its own (renju).
    pub tables: usize,
    pub w1: Vec<[f32; HIDDEN]>,
    pub b1: [f32; HIDDEN],
    /// Added to the first layer when black is to move.
    pub black1: [f32; HIDDEN],
    pub w2: Vec<[f32; HIDDEN]>,
    pub b2: [f32; HIDDEN],
    pub w3: [f32; HIDDEN],
    pub b3: f32,
    pub policy: [i16; DIM],
}

impl Network {
    /// The value in logistic units from the board's pooled clipped vectors.
    pub fn value(&self, pooled: &[i32; DIM], black_to_move: bool) -> f32 {
        self.value_by(pooled, black_to_move, dense)
    }

    /// [`Network::value`] with the layers in AVX2: the same operations in the same order
    /// (each output's sum runs over the inputs in turn, a product then a sum, never fused),
    /// so the same result.
    ///
    /// # Safety
    /// Only where the processor has AVX2 (`accumulator::simd_available`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    // Rust 1.63 counts the closure's unsafe block as already inside this unsafe fn.
    #[allow(unsafe_code, unused_unsafe)]
    pub unsafe fn value_avx2(&self, pooled: &[i32; DIM], black_to_move: bool) -> f32 {
        self.value_by(pooled, black_to_move, |acc, rows, x| {
            // SAFETY: the caller has checked for AVX2.
            unsafe { dense_avx2(acc, rows, x) }
        })
    }

    #[inline(always)]
    fn value_by<F>(&self, pooled: &[i32; DIM], black_to_move: bool, mut layer: F) -> f32
    where
        F: FnMut(&mut [f32; HIDDEN], &[[f32; HIDDEN]], &[f32]),
    {
        let scale = 1.0 / (ACT_MAX as f32 * POOL_DIVISOR);
        let mut h1 = self.b1;
        if black_to_move {
            for (h, b) in h1.iter_mut().zip(self.black1.iter()) {
                *h += b;
            }
        }
        layer(&mut h1, &self.w1, &pooled.map(|p| p as f32 * scale));
        let mut h2 = self.b2;
        layer(&mut h2, &self.w2, &h1.map(|x| x.max(0.0)));
        self.b3
            + self
                .w3
                .iter()
                .zip(h2.iter())
                .map(|(w, h)| w * h.max(0.0))
                .sum::<f32>()
    }

    /// A point's policy logit from its sum of line vectors, in `1/POLICY_ONE` logistic
    /// units: its clipped vector's product with the policy vector (exact integers).
    pub fn policy_logit(&self, sum: &[i16; DIM]) -> i32 {
        sum.iter()
            .zip(self.policy.iter())
            .map(|(&s, &w)| clip(s) as i32 * w as i32)
            .sum()
    }

    /// The value (logistic units) of a position from its empty points' four feature ids
    /// each: what [`NetState`](super::NetState) keeps incrementally, counted at once.
    pub fn value_of_points(&self, points: &[[u16; 4]], black_to_move: bool) -> f32 {
        let mut pooled = [0i32; DIM];
        for ids in points {
            let mut sum = [0i16; DIM];
            for &id in ids {
                add_into(&mut sum, &self.embedding[id as usize]);
            }
            pool(&mut pooled, &sum);
        }
        self.value(&pooled, black_to_move)
    }

    /// A network reading `features` with `tables` feature tables, every weight zero.
    pub fn zeroed(features: LineFeatures, tables: usize) -> Network {
        Network {
            features,
            embedding: vec![Row::ZERO; features.ids() * tables],
            tables,
            w1: vec![[0.0; HIDDEN]; DIM],
            b1: [0.0; HIDDEN],
            black1: [0.0; HIDDEN],
            w2: vec![[0.0; HIDDEN]; HIDDEN],
            b2: [0.0; HIDDEN],
            w3: [0.0; HIDDEN],
            b3: 0.0,
            policy: [0; DIM],
        }
    }

    /// The value layers' weights in file order.
    fn layers_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.w1
            .iter_mut()
            .flatten()
            .chain(self.b1.iter_mut())
            .chain(self.black1.iter_mut())
            .chain(self.w2.iter_mut().flatten())
            .chain(self.b2.iter_mut())
            .chain(self.w3.iter_mut())
            .chain(std::iter::once(&mut self.b3))
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        let header = [
            VERSION,
            DIM as u32,
            HIDDEN as u32,
            self.features.code(),
            self.features.ids() as u32,
            self.tables as u32,
        ];
        for v in header {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in self.embedding.iter().flat_map(|row| row.iter()) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in self.clone().layers_mut() {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in &self.policy {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let hash = fnv1a(&out);
        out.extend_from_slice(&hash.to_le_bytes());
        out
    }

    /// Reads a file's bytes, refusing anything damaged, of another shape or out of range.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let body_len = bytes
            .len()
            .checked_sub(8)
            .ok_or("shorter than its header")?;
        let (body, hash) = bytes.split_at(body_len);
        let mut hash_bytes = [0u8; 8];
        hash_bytes.copy_from_slice(hash);
        if body.len() < 4 || &body[..4] != MAGIC {
            return Err("not a Quinto network (no QNET header)".into());
        }
        if fnv1a(body) != u64::from_le_bytes(hash_bytes) {
            return Err("damaged: its check hash does not match".into());
        }
        let mut reader = Reader { bytes: body, at: 4 };
        let header = [reader.u32()?, reader.u32()?, reader.u32()?];
        let expected = [VERSION, DIM as u32, HIDDEN as u32];
        if header != expected {
            return Err(format!(
                "version/shape {header:?}, this build reads {expected:?}"
            ));
        }
        let code = reader.u32()?;
        let features = LineFeatures::from_code(code)
            .ok_or_else(|| format!("line features {code}, unknown to this build"))?;
        let ids = reader.u32()? as usize;
        if ids != features.ids() {
            return Err(format!(
                "{ids} feature ids for {features:?}, this build has {}",
                features.ids()
            ));
        }
        let tables = reader.u32()? as usize;
        if !(1..=2).contains(&tables) {
            return Err(format!("{tables} feature tables, not 1 or 2"));
        }
        let mut embedding = vec![Row::ZERO; ids * tables];
        for v in embedding.iter_mut().flat_map(|row| row.iter_mut()) {
            *v = reader.i16()?;
            if v.abs() > EMBED_LIMIT {
                return Err(format!("a feature weight {v} is beyond ±{EMBED_LIMIT}"));
            }
        }
        let mut net = Network {
            embedding,
            ..Network::zeroed(features, tables)
        };
        for v in net.layers_mut() {
            *v = reader.f32()?;
            if !v.is_finite() || v.abs() > 1e6 {
                return Err(format!("a layer weight {v} is not a sensible number"));
            }
        }
        for v in net.policy.iter_mut() {
            *v = reader.i16()?;
        }
        if reader.at != body.len() {
            return Err(format!("{} bytes too many", body.len() - reader.at));
        }
        // The unused id's vectors must stay zero: lines no board holds add nothing.
        for mover in [Color::Black, Color::White] {
            net.embedding[table_offset(features, tables, mover)] = Row::ZERO;
        }
        Ok(net)
    }
}

/// A layer: `acc[k] += rows[j][k] * x[j]` for each input `j` in turn.
#[inline(always)]
fn dense(acc: &mut [f32; HIDDEN], rows: &[[f32; HIDDEN]], x: &[f32]) {
    for (row, &xj) in rows.iter().zip(x.iter()) {
        for (a, w) in acc.iter_mut().zip(row.iter()) {
            *a += w * xj;
        }
    }
}

/// [`dense`] eight outputs at a time.
///
/// # Safety
/// Only where the processor has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn dense_avx2(acc: &mut [f32; HIDDEN], rows: &[[f32; HIDDEN]], x: &[f32]) {
    use std::arch::x86_64::{_mm256_add_ps, _mm256_loadu_ps, _mm256_mul_ps, _mm256_set1_ps};
    use std::arch::x86_64::{_mm256_setzero_ps, _mm256_storeu_ps};
    const LANES: usize = 8;
    let mut sums = [_mm256_setzero_ps(); HIDDEN / LANES];
    for (i, s) in sums.iter_mut().enumerate() {
        *s = _mm256_loadu_ps(acc.as_ptr().add(i * LANES));
    }
    for (row, &xj) in rows.iter().zip(x.iter()) {
        let xs = _mm256_set1_ps(xj);
        for (i, s) in sums.iter_mut().enumerate() {
            let w = _mm256_loadu_ps(row.as_ptr().add(i * LANES));
            *s = _mm256_add_ps(*s, _mm256_mul_ps(w, xs));
        }
    }
    for (i, s) in sums.iter().enumerate() {
        _mm256_storeu_ps(acc.as_mut_ptr().add(i * LANES), *s);
    }
}

/// A point's sum clipped to `0..=ACT_MAX`: the activation.
#[inline(always)]
pub(super) fn clip(v: i16) -> i16 {
    v.clamp(0, ACT_MAX)
}

/// Adds a line vector into a point's sum (wrapping, as AVX2 does: the weights' limit keeps
/// four of them in range).
#[inline(always)]
pub(super) fn add_into(sum: &mut [i16; DIM], v: &[i16; DIM]) {
    for (s, x) in sum.iter_mut().zip(v.iter()) {
        *s = s.wrapping_add(*x);
    }
}

/// Adds a point's clipped sum to the pool.
#[inline(always)]
pub(super) fn pool(pooled: &mut [i32; DIM], sum: &[i16; DIM]) {
    for (p, s) in pooled.iter_mut().zip(sum.iter()) {
        *p += clip(*s) as i32;
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let slice = self
            .bytes
            .get(self.at..self.at + N)
            .ok_or("truncated: fewer weights than its shape needs")?;
        self.at += N;
        let mut out = [0u8; N];
        out.copy_from_slice(slice);
        Ok(out)
    }
    fn u32(&mut self) -> Result<u32, String> {
        self.take::<4>().map(u32::from_le_bytes)
    }
    fn i16(&mut self) -> Result<i16, String> {
        self.take::<2>().map(i16::from_le_bytes)
    }
    fn f32(&mut self) -> Result<f32, String> {
        self.take::<4>().map(f32::from_le_bytes)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rng::Rng;

    /// A network with random weights of a sensible size.
    pub(crate) fn random_network(seed: u64) -> Network {
        let mut rng = Rng::new(seed);
        let mut small = |range: i64| (rng.below(2 * range as usize + 1) as i64 - range) as i16;
        let features = LineFeatures::ALL[seed as usize / 2 % 2];
        let tables = 1 + seed as usize % 2;
        let mut net = Network::zeroed(features, tables);
        for (i, row) in net.embedding.iter_mut().enumerate() {
            if i % features.ids() != 0 {
                row.iter_mut().for_each(|v| *v = small(200));
            }
        }
        for v in net.policy.iter_mut() {
            *v = small(64);
        }
        for v in net.layers_mut() {
            *v = small(100) as f32 / 100.0;
        }
        net
    }

    #[test]
    fn a_network_reads_back_from_its_bytes() {
        let net = random_network(3);
        assert_eq!(Network::from_bytes(&net.to_bytes()), Ok(net));
    }

    #[test]
    fn damaged_files_are_refused_with_a_reason() {
        let bytes = random_network(4).to_bytes();
        let mut flipped = bytes.clone();
        flipped[100] ^= 1;
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (Vec::new(), "shorter"),
            (b"not a network at all".to_vec(), "QNET"),
            (flipped, "damaged"),
            (bytes[..bytes.len() - 9].to_vec(), "damaged"),
        ];
        for (bad, why) in cases {
            let err = Network::from_bytes(&bad).unwrap_err();
            assert!(err.contains(why), "{why}: {err}");
        }
        // Files of another shape, or reading lines another way, with a correct hash.
        for (at, value, why) in [(8, 16, "shape"), (16, 7, "unknown"), (20, 9, "feature ids")] {
            let mut other = bytes[..bytes.len() - 8].to_vec();
            other[at] = value;
            let hash = fnv1a(&other);
            other.extend_from_slice(&hash.to_le_bytes());
            let err = Network::from_bytes(&other).unwrap_err();
            assert!(err.contains(why), "{why}: {err}");
        }
    }
}
