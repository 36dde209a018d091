//! Training the evaluation network (shape in `quinto::eval::net::network`) in f32: Adam on
//! the value's cross-entropy plus a share of the policy's, and the int16 network it becomes.
//!
//! Reproducible: a batch is cut into a fixed number of slices whatever the thread count,
//! each slice's gradient summed in order, the slices summed in order; the shuffle comes from
//! the seed. The same data, seed and options give the same weights, bit for bit.

use crate::training::netdata::Position;
use crate::training::tuning::{cross_entropy, sigmoid};
use quinto::eval::net::features::LineFeatures;
use quinto::eval::net::network::{
    Row, ACT_MAX, DIM, EMBED_LIMIT, HIDDEN, POLICY_SCALE, POOL_DIVISOR,
};
use quinto::eval::net::Network;
use quinto::rng::Rng;

/// Slices of a batch, each one gradient buffer: the unit of parallel work.
const SLICES: usize = 8;

/// Training options.
#[derive(Clone, Copy, Debug)]
pub struct TrainOptions {
    pub epochs: usize,
    pub batch: usize,
    pub learning_rate: f32,
    /// The policy's cross-entropy counts this much beside the value's.
    pub policy_weight: f32,
    pub seed: u64,
    pub threads: usize,
}

/// Feature tables: 1 shared by both sides, 2 where white has its own (renju).
fn table_count(p: &Params) -> usize {
    p.embedding.len() / (p.features.ids() * DIM)
}

/// The parameters (and, with the same layout, their gradients and Adam moments).
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// How the network reads lines (not a parameter: it sizes `embedding`).
    pub features: LineFeatures,
    pub embedding: Vec<f32>,
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub black1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
    pub w3: Vec<f32>,
    pub b3: Vec<f32>,
    pub policy: Vec<f32>,
}

impl Params {
    fn zeros(features: LineFeatures, tables: usize) -> Params {
        Params {
            features,
            embedding: vec![0.0; features.ids() * tables * DIM],
            w1: vec![0.0; DIM * HIDDEN],
            b1: vec![0.0; HIDDEN],
            black1: vec![0.0; HIDDEN],
            w2: vec![0.0; HIDDEN * HIDDEN],
            b2: vec![0.0; HIDDEN],
            w3: vec![0.0; HIDDEN],
            b3: vec![0.0; 1],
            policy: vec![0.0; DIM],
        }
    }

    /// Small random weights (reading `features`, with `tables` feature tables): line
    /// vectors mostly positive so that the clip starts open.
    pub fn initial(seed: u64, features: LineFeatures, tables: usize) -> Params {
        let mut rng = Rng::new(seed);
        let mut uniform = |low: f32, high: f32| {
            low + (high - low) * (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32
        };
        let mut p = Params::zeros(features, tables);
        for (i, v) in p.embedding.iter_mut().enumerate() {
            if i / DIM % features.ids() != 0 {
                *v = uniform(-0.05, 0.2);
            }
        }
        let fan = |n: usize| (1.0 / n as f32).sqrt();
        for v in p.w1.iter_mut() {
            *v = uniform(-fan(DIM), fan(DIM));
        }
        for v in p.w2.iter_mut() {
            *v = uniform(-fan(HIDDEN), fan(HIDDEN));
        }
        for v in p.w3.iter_mut() {
            *v = uniform(-fan(HIDDEN), fan(HIDDEN));
        }
        for v in p.policy.iter_mut() {
            *v = uniform(-0.1, 0.1);
        }
        p
    }

    /// The parameters of an int16 network (to train it further): exactly what
    /// `quantize` turns back into the same network.
    pub fn from_network(net: &Network) -> Params {
        let flat = |rows: &[[f32; HIDDEN]]| rows.iter().flatten().copied().collect::<Vec<f32>>();
        Params {
            features: net.features,
            embedding: net
                .embedding
                .iter()
                .flat_map(|row| row.iter())
                .map(|&v| f32::from(v) / ACT_MAX as f32)
                .collect(),
            w1: flat(&net.w1),
            b1: net.b1.to_vec(),
            black1: net.black1.to_vec(),
            w2: flat(&net.w2),
            b2: net.b2.to_vec(),
            w3: net.w3.to_vec(),
            b3: vec![net.b3],
            policy: net
                .policy
                .iter()
                .map(|&v| f32::from(v) / POLICY_SCALE)
                .collect(),
        }
    }

    fn slices_mut(&mut self) -> [&mut Vec<f32>; 9] {
        [
            &mut self.embedding,
            &mut self.w1,
            &mut self.b1,
            &mut self.black1,
            &mut self.w2,
            &mut self.b2,
            &mut self.w3,
            &mut self.b3,
            &mut self.policy,
        ]
    }

    fn slices(&self) -> [&Vec<f32>; 9] {
        [
            &self.embedding,
            &self.w1,
            &self.b1,
            &self.black1,
            &self.w2,
            &self.b2,
            &self.w3,
            &self.b3,
            &self.policy,
        ]
    }

    fn add(&mut self, other: &Params) {
        for (a, b) in self.slices_mut().into_iter().zip(other.slices()) {
            for (x, y) in a.iter_mut().zip(b.iter()) {
                *x += y;
            }
        }
    }

    fn clear(&mut self) {
        for a in self.slices_mut() {
            a.iter_mut().for_each(|x| *x = 0.0);
        }
    }

    /// The int16 network the engine runs.
    pub fn quantize(&self) -> Network {
        let row = |v: &[f32]| {
            let mut r = [0.0f32; HIDDEN];
            r.copy_from_slice(v);
            r
        };
        let tables = table_count(self);
        let mut embedding = vec![Row::ZERO; self.features.ids() * tables];
        for (id, out) in embedding.iter_mut().enumerate() {
            for (k, o) in out.iter_mut().enumerate() {
                let v = (self.embedding[id * DIM + k] * ACT_MAX as f32).round();
                *o = v.clamp(-(EMBED_LIMIT as f32), EMBED_LIMIT as f32) as i16;
            }
        }
        let mut policy = [0i16; DIM];
        for (o, &v) in policy.iter_mut().zip(&self.policy) {
            *o = (v * POLICY_SCALE).round().clamp(-32_767.0, 32_767.0) as i16;
        }
        Network {
            features: self.features,
            embedding,
            tables,
            w1: self.w1.chunks(HIDDEN).map(row).collect(),
            b1: row(&self.b1),
            black1: row(&self.black1),
            w2: self.w2.chunks(HIDDEN).map(row).collect(),
            b2: row(&self.b2),
            w3: row(&self.w3),
            b3: self.b3[0],
            policy,
        }
    }
}

/// The losses of one position: value cross-entropy (against the soft target, as the linear
/// fit measures it) and policy cross-entropy.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Losses {
    pub value: f64,
    pub policy: f64,
}

/// Forward pass, and with `grad` the backward pass added into it.
fn run(p: &Params, pos: &Position, policy_weight: f32, grad: Option<&mut Params>) -> Losses {
    let n = pos.points.len();
    let mut sums = vec![[0.0f32; DIM]; n];
    let mut x = [0.0f32; DIM];
    let pool_scale = 1.0 / POOL_DIVISOR;
    for (sum, ids) in sums.iter_mut().zip(&pos.points) {
        for &id in ids {
            let v = &p.embedding[id as usize * DIM..][..DIM];
            for (s, w) in sum.iter_mut().zip(v) {
                *s += w;
            }
        }
        for (xk, s) in x.iter_mut().zip(sum.iter()) {
            *xk += s.clamp(0.0, 1.0) * pool_scale;
        }
    }
    let mut h1 = [0.0f32; HIDDEN];
    h1.copy_from_slice(&p.b1);
    if pos.black_to_move {
        for (h, b) in h1.iter_mut().zip(&p.black1) {
            *h += b;
        }
    }
    for (row, &xk) in p.w1.chunks(HIDDEN).zip(&x) {
        for (h, w) in h1.iter_mut().zip(row) {
            *h += w * xk;
        }
    }
    let r1: Vec<f32> = h1.iter().map(|h| h.max(0.0)).collect();
    let mut h2 = [0.0f32; HIDDEN];
    h2.copy_from_slice(&p.b2);
    for (row, &r) in p.w2.chunks(HIDDEN).zip(&r1) {
        for (h, w) in h2.iter_mut().zip(row) {
            *h += w * r;
        }
    }
    let r2: Vec<f32> = h2.iter().map(|h| h.max(0.0)).collect();
    let z = p.b3[0] + p.w3.iter().zip(&r2).map(|(w, r)| w * r).sum::<f32>();
    // Policy: a softmax over the empty points.
    let logits: Vec<f32> = sums
        .iter()
        .map(|s| {
            s.iter()
                .zip(&p.policy)
                .map(|(v, w)| v.clamp(0.0, 1.0) * w)
                .sum()
        })
        .collect();
    let top = logits.iter().cloned().fold(f32::MIN, f32::max);
    let exp: Vec<f32> = logits.iter().map(|l| (l - top).exp()).collect();
    let total: f32 = exp.iter().sum();
    let t = pos.target;
    let prob = sigmoid(f64::from(z)).clamp(1e-9, 1.0 - 1e-9);
    let losses = Losses {
        value: cross_entropy(t, prob),
        policy: -f64::from((exp[pos.best] / total).max(1e-30).ln()),
    };
    let g = match grad {
        Some(g) => g,
        None => return losses,
    };
    let dz = (prob - t) as f32;
    g.b3[0] += dz;
    let mut dh2 = [0.0f32; HIDDEN];
    for i in 0..HIDDEN {
        g.w3[i] += dz * r2[i];
        dh2[i] = if h2[i] > 0.0 { dz * p.w3[i] } else { 0.0 };
        g.b2[i] += dh2[i];
    }
    let mut dh1 = [0.0f32; HIDDEN];
    for i in 0..HIDDEN {
        let row = &p.w2[i * HIDDEN..][..HIDDEN];
        let grow = &mut g.w2[i * HIDDEN..][..HIDDEN];
        let mut dr = 0.0;
        for o in 0..HIDDEN {
            grow[o] += r1[i] * dh2[o];
            dr += row[o] * dh2[o];
        }
        dh1[i] = if h1[i] > 0.0 { dr } else { 0.0 };
        g.b1[i] += dh1[i];
        if pos.black_to_move {
            g.black1[i] += dh1[i];
        }
    }
    let mut dx = [0.0f32; DIM];
    for k in 0..DIM {
        let row = &p.w1[k * HIDDEN..][..HIDDEN];
        let grow = &mut g.w1[k * HIDDEN..][..HIDDEN];
        let mut d = 0.0;
        for o in 0..HIDDEN {
            grow[o] += x[k] * dh1[o];
            d += row[o] * dh1[o];
        }
        dx[k] = d * pool_scale;
    }
    for (i, (sum, ids)) in sums.iter().zip(&pos.points).enumerate() {
        let dlogit = policy_weight * (exp[i] / total - if i == pos.best { 1.0 } else { 0.0 });
        let mut ds = [0.0f32; DIM];
        for k in 0..DIM {
            let inside = sum[k] > 0.0 && sum[k] < 1.0;
            g.policy[k] += dlogit * sum[k].clamp(0.0, 1.0);
            ds[k] = if inside {
                dx[k] + dlogit * p.policy[k]
            } else {
                0.0
            };
        }
        for &id in ids {
            let gv = &mut g.embedding[id as usize * DIM..][..DIM];
            for (a, d) in gv.iter_mut().zip(&ds) {
                *a += d;
            }
        }
    }
    losses
}

/// Mean losses over `positions`.
pub fn evaluate(p: &Params, positions: &[&Position]) -> Losses {
    let mut total = Losses::default();
    for pos in positions {
        let l = run(p, pos, 0.0, None);
        total.value += l.value;
        total.policy += l.policy;
    }
    let n = positions.len().max(1) as f64;
    Losses {
        value: total.value / n,
        policy: total.policy / n,
    }
}

/// Adam state.
struct Adam {
    m: Params,
    v: Params,
    step: i32,
}

impl Adam {
    fn update(&mut self, p: &mut Params, g: &Params, lr: f32, scale: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.step += 1;
        let c1 = 1.0 - B1.powi(self.step);
        let c2 = 1.0 - B2.powi(self.step);
        let params = p.slices_mut();
        let moments = self.m.slices_mut().into_iter().zip(self.v.slices_mut());
        for ((w, gr), (m, v)) in params.into_iter().zip(g.slices()).zip(moments) {
            for i in 0..w.len() {
                let gi = gr[i] * scale;
                m[i] = B1 * m[i] + (1.0 - B1) * gi;
                v[i] = B2 * v[i] + (1.0 - B2) * gi * gi;
                w[i] -= lr * (m[i] / c1) / ((v[i] / c2).sqrt() + 1e-8);
            }
        }
        // The unused id's vectors stay zero.
        for table in 0..table_count(p) {
            let at = table * p.features.ids() * DIM;
            p.embedding[at..at + DIM].iter_mut().for_each(|x| *x = 0.0);
        }
    }
}

/// Trains from `start`, calling `report(epoch, params)` after each epoch.
pub fn train(
    start: Params,
    positions: &[&Position],
    options: TrainOptions,
    mut report: impl FnMut(usize, &Params),
) -> Params {
    let (features, tables) = (start.features, table_count(&start));
    let mut p = start;
    let mut adam = Adam {
        m: Params::zeros(features, tables),
        v: Params::zeros(features, tables),
        step: 0,
    };
    let mut order: Vec<usize> = (0..positions.len()).collect();
    let mut rng = Rng::new(options.seed ^ 0x5eed);
    let mut grads: Vec<Params> = (0..SLICES)
        .map(|_| Params::zeros(features, tables))
        .collect();
    let threads = options.threads.clamp(1, SLICES);
    let batches_per_epoch = (positions.len() + options.batch - 1) / options.batch.max(1);
    let total_steps = (batches_per_epoch * options.epochs).max(1);
    for epoch in 1..=options.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        for batch in order.chunks(options.batch.max(1)) {
            // Cosine decay of the learning rate to a tenth over the whole run.
            let progress = adam.step as f32 / total_steps as f32;
            let lr = options.learning_rate
                * (0.1 + 0.9 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
            let per_slice = (batch.len() + SLICES - 1) / SLICES;
            let params = &p;
            std::thread::scope(|scope| {
                let mut work: Vec<Vec<(&[usize], &mut Params)>> =
                    (0..threads).map(|_| Vec::new()).collect();
                for (i, (slice, g)) in batch
                    .chunks(per_slice.max(1))
                    .zip(grads.iter_mut())
                    .enumerate()
                {
                    g.clear();
                    work[i % threads].push((slice, g));
                }
                for jobs in work {
                    scope.spawn(move || {
                        for (slice, g) in jobs {
                            for &i in slice {
                                run(params, positions[i], options.policy_weight, Some(g));
                            }
                        }
                    });
                }
            });
            let (first, rest) = grads.split_at_mut(1);
            for g in rest.iter() {
                first[0].add(g);
            }
            adam.update(&mut p, &first[0], lr, 1.0 / batch.len() as f32);
        }
        report(epoch, &p);
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::training::netdata::positions;
    use crate::training::selfplay::{play, Config};
    use quinto::game::{BoardSize, Rule};

    fn some_positions(features: LineFeatures) -> Vec<Position> {
        let config = Config {
            rule: Rule::Freestyle,
            size: BoardSize::square(9).unwrap(),
            nodes: 200,
            opening_stones: (2, 3),
            opening_radius: 2,
            balance_margin: 300,
            random_moves: 4,
            random_margin: 80,
            table_bytes: 1 << 20,
            eval: quinto::eval::evaluator::EvalKind::Net,
        };
        let games: Vec<_> = (0..6).map(|i| play(&config, 9, i)).collect();
        positions(&games, 0.5, None, features, 2)
    }

    #[test]
    fn a_network_read_back_into_parameters_quantizes_to_itself() {
        let net = Params::initial(5, LineFeatures::RenjuWindow, 2).quantize();
        assert_eq!(Params::from_network(&net).quantize(), net);
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let renju = LineFeatures::RenjuWindow;
        let data = some_positions(renju);
        let pos = &data[data.len() / 2];
        let p = Params::initial(3, renju, 2);
        let mut g = Params::zeros(renju, 2);
        run(&p, pos, 0.5, Some(&mut g));
        let total = |p: &Params| {
            let l = run(p, pos, 0.5, None);
            l.value + 0.5 * l.policy
        };
        let id = pos.points[0][0] as usize;
        let probes: [(usize, usize, f32); 4] = [
            (0, id * DIM + 3, g.embedding[id * DIM + 3]),
            (1, 5, g.w1[5]),
            (4, 7, g.w2[7]),
            (8, 2, g.policy[2]),
        ];
        for (which, at, analytic) in probes {
            let eps = 1e-2;
            let mut plus = p.clone();
            plus.slices_mut()[which][at] += eps;
            let mut minus = p.clone();
            minus.slices_mut()[which][at] -= eps;
            let numeric = ((total(&plus) - total(&minus)) / (2.0 * eps as f64)) as f32;
            assert!(
                (numeric - analytic).abs() < 2e-3 + 0.05 * analytic.abs(),
                "param {which}[{at}]: numeric {numeric}, analytic {analytic}"
            );
        }
    }

    #[test]
    fn training_is_reproducible_whatever_the_threads_and_lowers_the_loss() {
        let window = LineFeatures::Window;
        let data = some_positions(window);
        let refs: Vec<&Position> = data.iter().collect();
        let options = |threads| TrainOptions {
            epochs: 3,
            batch: 16,
            learning_rate: 3e-3,
            policy_weight: 0.1,
            seed: 1,
            threads,
        };
        let one = train(Params::initial(1, window, 2), &refs, options(1), |_, _| {});
        let two = train(Params::initial(1, window, 2), &refs, options(2), |_, _| {});
        assert_eq!(one, two);
        let before = evaluate(&Params::initial(1, window, 2), &refs);
        let after = evaluate(&one, &refs);
        assert!(after.value < before.value, "{before:?} -> {after:?}");
        let bytes = one.quantize().to_bytes();
        assert_eq!(Network::from_bytes(&bytes), Ok(one.quantize()));
    }
}
