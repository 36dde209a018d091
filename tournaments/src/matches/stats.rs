//! Match statistics: score, Elo difference with a 95 % interval, likelihood of superiority,
//! and the sequential probability ratio test.
//!
//! Method (the usual one, as cutechess-cli and fishtest do it):
//! - score `s = (W + D/2) / N`; Elo difference `-400 log10(1/s − 1)` (logistic model);
//! - a [`Sample`] is N scored items with their mean `s` and per-item variance `σ²`: games
//!   (trinomial: `σ² = (W(1−s)² + D(½−s)² + L s²) / N`) or game pairs (pentanomial: each
//!   opening played twice with colours swapped, the pair's mean score is one item). The 95 %
//!   interval is the Elo of `s ± 1.95996 σ/√N`;
//! - pairs are the honest unit when openings favour one colour: a pair split by the colours
//!   (one win each) is one item near ½, not two opposite games, so the interval narrows to
//!   what the games show about the engines rather than the openings;
//! - LOS `= ½ (1 + erf((W − L) / √(2(W + L))))` (draws carry no information);
//! - SPRT: the generalised SPRT on the logistic model with the normal approximation,
//!   `LLR = N (s₁ − s₀)(2s − s₀ − s₁) / (2σ²)` over the game pairs (with a prior of one pair
//!   lost and one won, see [`Penta::sprt_sample`]), where `sᵢ` is the score of `eloᵢ`; stop
//!   when LLR ≥ ln((1−β)/α) (H1: elo ≥ elo1) or ≤ ln(β/(1−α)) (H0: elo ≤ elo0).

/// 97.5 % quantile of the standard normal distribution (two-sided 95 %).
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn new(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The same games from the other side.
    pub fn flipped(&self) -> Wdl {
        Wdl::new(self.losses, self.draws, self.wins)
    }

    pub fn add(&mut self, other: Wdl) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }

    /// Records one game scored 1, ½ or 0.
    pub fn record(&mut self, points_twice: u8) {
        match points_twice {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
    }

    /// Points scored (a draw is half a point).
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Mean score per game, `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }

    /// The games as a sample (trinomial), `None` before the first game.
    pub fn sample(&self) -> Option<Sample> {
        Sample::of(&[(0.0, self.losses), (0.5, self.draws), (1.0, self.wins)])
    }

    /// Likelihood of superiority, `None` when every game was drawn (or none played).
    pub fn los(&self) -> Option<f64> {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return None;
        }
        let diff = self.wins as f64 - self.losses as f64;
        Some(0.5 * (1.0 + erf(diff / (2.0 * decisive).sqrt())))
    }

    /// `+W =D -L`.
    pub fn short(&self) -> String {
        format!("+{} ={} -{}", self.wins, self.draws, self.losses)
    }
}

/// The results of game pairs (one opening, colours swapped), from one side: how many pairs
/// it scored 0, ½, 1, 1½ and 2 points in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta {
    pub counts: [u32; 5],
}

impl Penta {
    /// Records one pair scored `half_points` (0 to 4) half points.
    pub fn record(&mut self, half_points: u8) {
        self.counts[usize::from(half_points.min(4))] += 1;
    }

    /// Adds another tally's pairs.
    pub fn add(&mut self, other: Penta) {
        for (mine, theirs) in self.counts.iter_mut().zip(other.counts) {
            *mine += theirs;
        }
    }

    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The pairs as a sample (pentanomial), `None` before the first pair.
    pub fn sample(&self) -> Option<Sample> {
        Sample::of(&std::array::from_fn::<_, 5, _>(|k| {
            (k as f64 / 4.0, self.counts[k])
        }))
    }

    /// The sample the SPRT weighs: the pairs and a prior of one pair lost and one won, so
    /// that pairs that all score alike (two deterministic engines, each winning with black)
    /// still decide, and a few first pairs alike do not look certain. `None` before the
    /// first pair.
    pub fn sprt_sample(&self) -> Option<Sample> {
        if self.pairs() == 0 {
            return None;
        }
        let mut with_prior = *self;
        with_prior.counts[0] += 1;
        with_prior.counts[4] += 1;
        with_prior.sample()
    }

    /// `0/½/1/1½/2: 7 2 51 6 2`.
    pub fn short(&self) -> String {
        let c = self.counts;
        format!("0/½/1/1½/2: {} {} {} {} {}", c[0], c[1], c[2], c[3], c[4])
    }
}

/// Scored items (games or game pairs): how many, their mean score and per-item variance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub count: f64,
    pub mean: f64,
    pub variance: f64,
}

impl Sample {
    /// From `(score, how many items scored it)`; `None` when there is no item.
    pub fn of(items: &[(f64, u32)]) -> Option<Sample> {
        let count: f64 = items.iter().map(|&(_, n)| f64::from(n)).sum();
        if count == 0.0 {
            return None;
        }
        let mean = items.iter().map(|&(x, n)| x * f64::from(n)).sum::<f64>() / count;
        let variance = items
            .iter()
            .map(|&(x, n)| (x - mean).powi(2) * f64::from(n))
            .sum::<f64>()
            / count;
        Some(Sample {
            count,
            mean,
            variance,
        })
    }

    /// Elo difference (±∞ for a perfect or a null score).
    pub fn elo(&self) -> f64 {
        elo_of_score(self.mean)
    }

    /// The 95 % interval of the Elo difference.
    pub fn elo_interval(&self) -> (f64, f64) {
        let se = (self.variance / self.count).sqrt();
        let lo = (self.mean - Z95 * se).max(0.0);
        let hi = (self.mean + Z95 * se).min(1.0);
        (elo_of_score(lo), elo_of_score(hi))
    }
}

/// Elo difference of a mean score under the logistic model.
pub fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Expected score of an Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Formats an Elo figure: `+35.2`, `-7.0`, `+inf`.
pub fn fmt_elo(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // Round first and add 0.0 so that a tiny negative figure prints as +0.0, not -0.0.
        let rounded = (elo * 10.0).round() / 10.0 + 0.0;
        format!("{rounded:+.1}")
    }
}

/// `Elo +35.2 ± 40.1 [-4.9, +75.3]`, or `Elo n/a` before any game.
pub fn describe_elo(sample: Option<Sample>) -> String {
    match sample.map(|s| (s.elo(), s.elo_interval())) {
        Some((e, (lo, hi))) => {
            let half = if lo.is_finite() && hi.is_finite() {
                format!("{:.1}", (hi - lo) / 2.0)
            } else {
                "inf".to_string()
            };
            format!(
                "Elo {} ± {} [{}, {}]",
                fmt_elo(e),
                half,
                fmt_elo(lo),
                fmt_elo(hi)
            )
        }
        _ => "Elo n/a".into(),
    }
}

/// The error function (Numerical Recipes' `erfcc`: fractional error below 1.2e-7).
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 {
        1.0 - erfc
    } else {
        erfc - 1.0
    }
}

/// SPRT settings: H0 elo ≤ elo0 against H1 elo ≥ elo1, error rates alpha and beta.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// The test's state after some games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// Keep playing.
    Continue,
    /// LLR at or below the lower bound: H0 (elo ≤ elo0) accepted.
    H0,
    /// LLR at or above the upper bound: H1 (elo ≥ elo1) accepted.
    H1,
}

impl Sprt {
    /// Parses `elo0=0,elo1=10,alpha=0.05,beta=0.05` (missing keys keep these defaults).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        for field in text.split(',').map(str::trim).filter(|f| !f.is_empty()) {
            let (key, value) = field
                .split_once('=')
                .ok_or_else(|| format!("--sprt: '{field}' is not key=value"))?;
            let v: f64 = value
                .trim()
                .parse()
                .map_err(|_| format!("--sprt: '{value}' is not a number"))?;
            match key.trim() {
                "elo0" => sprt.elo0 = v,
                "elo1" => sprt.elo1 = v,
                "alpha" => sprt.alpha = v,
                "beta" => sprt.beta = v,
                other => {
                    return Err(format!(
                        "--sprt: unknown key '{other}' (elo0, elo1, alpha, beta)"
                    ))
                }
            }
        }
        if sprt.elo0.is_nan() || sprt.elo1.is_nan() || sprt.elo1 <= sprt.elo0 {
            return Err("--sprt: elo1 must be larger than elo0".into());
        }
        for (name, p) in [("alpha", sprt.alpha), ("beta", sprt.beta)] {
            if p.is_nan() || p <= 0.0 || p >= 0.5 {
                return Err(format!("--sprt: {name} must be between 0 and 0.5"));
            }
        }
        Ok(sprt)
    }

    /// ln(β/(1−α)): accept H0 at or below.
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// ln((1−β)/α): accept H1 at or above.
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of H1 against H0 (0 while the variance is zero: no item, or
    /// every item with the same score, says nothing about the spread).
    pub fn llr(&self, sample: Option<Sample>) -> f64 {
        let sample = match sample {
            Some(s) if s.variance > 1e-12 => s,
            _ => return 0.0,
        };
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        sample.count * (s1 - s0) * (2.0 * sample.mean - s0 - s1) / (2.0 * sample.variance)
    }

    pub fn verdict(&self, sample: Option<Sample>) -> SprtVerdict {
        let llr = self.llr(sample);
        if llr >= self.upper() {
            SprtVerdict::H1
        } else if llr <= self.lower() {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }

    pub fn describe(&self) -> String {
        format!(
            "elo0={} elo1={} alpha={} beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn erf_matches_known_values() {
        for (x, want) in [
            (0.0, 0.0),
            (0.5, 0.520_499_877_8),
            (1.0, 0.842_700_792_9),
            (2.0, 0.995_322_265_0),
            (-1.0, -0.842_700_792_9),
            (3.5, 0.999_999_256_9),
        ] {
            assert!(close(erf(x), want, 2e-7), "erf({x}) = {}", erf(x));
        }
    }

    #[test]
    fn elo_of_simple_scores() {
        assert!(close(elo_of_score(0.5), 0.0, 1e-12));
        assert!(close(elo_of_score(0.75), 190.848, 1e-3));
        assert!(close(elo_of_score(0.25), -190.848, 1e-3));
        assert!(close(score_of_elo(elo_of_score(0.64)), 0.64, 1e-12));
        assert_eq!(elo_of_score(1.0), f64::INFINITY);
        assert_eq!(fmt_elo(f64::NEG_INFINITY), "-inf");
        assert_eq!(fmt_elo(-0.0), "+0.0");
        assert_eq!(fmt_elo(-0.04), "+0.0");
        assert_eq!(fmt_elo(-12.345), "-12.3");
    }

    #[test]
    fn interval_and_los_of_a_worked_example() {
        // 60 wins, 20 draws, 20 losses: s = 0.7, var = (60·0.09 + 20·0.04 + 20·0.49)/100 = 0.16,
        // se = 0.04, interval on s = 0.7 ± 0.0784.
        let wdl = Wdl::new(60, 20, 20);
        assert!(close(wdl.score().unwrap(), 0.7, 1e-12));
        let sample = wdl.sample().unwrap();
        assert!(close(sample.variance, 0.16, 1e-12));
        let (lo, hi) = sample.elo_interval();
        assert!(close(lo, elo_of_score(0.7 - Z95 * 0.04), 1e-9));
        assert!(close(hi, elo_of_score(0.7 + Z95 * 0.04), 1e-9));
        assert!(close(sample.elo(), 147.19, 0.01));
        // LOS: (60-20)/sqrt(160) = 3.162 → 0.5(1 + erf(3.162)) ≈ 0.99999...
        assert!(wdl.los().unwrap() > 0.9999);
        assert!(close(Wdl::new(10, 5, 10).los().unwrap(), 0.5, 1e-6));
        assert_eq!(Wdl::new(0, 7, 0).los(), None);
        assert_eq!(Wdl::default().sample(), None);
    }

    #[test]
    fn pairs_split_by_the_colours_narrow_the_interval() {
        // 40 games, each engine winning with black: 20 pairs at ½ each. As games they look
        // like a coin toss (σ² = ¼); as pairs they show two engines of equal strength exactly.
        let games = Wdl::new(20, 0, 20).sample().unwrap();
        let mut split = Penta::default();
        for _ in 0..20 {
            split.record(2);
        }
        let pairs = split.sample().unwrap();
        assert!(close(games.variance, 0.25, 1e-12));
        assert!(close(pairs.mean, 0.5, 1e-12) && pairs.variance == 0.0);
        assert_eq!(split.pairs(), 20);
        // Pentanomial worked example: pairs 0, 1, 1, 2 (in points) → items 0, ½, ½, 1:
        // mean ½, variance (¼ + 0 + 0 + ¼)/4 = ⅛.
        let mut p = Penta::default();
        for half_points in [0, 2, 2, 4] {
            p.record(half_points);
        }
        let s = p.sample().unwrap();
        assert!(close(s.mean, 0.5, 1e-12) && close(s.variance, 0.125, 1e-12));
        assert_eq!(p.short(), "0/½/1/1½/2: 1 0 2 0 1");
        assert_eq!(Penta::default().sample(), None);
        assert_eq!(Penta::default().sprt_sample(), None);
        // The SPRT's prior: 20 split pairs and one pair lost, one won: mean ½, σ² = ½/22.
        let prior = split.sprt_sample().unwrap();
        assert!(close(prior.mean, 0.5, 1e-12) && close(prior.variance, 0.5 / 22.0, 1e-12));
    }

    #[test]
    fn sprt_bounds_and_decisions() {
        let sprt = Sprt::parse("elo0=0,elo1=10,alpha=0.05,beta=0.05").unwrap();
        assert!(close(sprt.lower(), -2.944_438_979, 1e-9));
        assert!(close(sprt.upper(), 2.944_438_979, 1e-9));
        let verdict = |w, d, l| sprt.verdict(Wdl::new(w, d, l).sample());
        assert_eq!(verdict(3, 2, 1), SprtVerdict::Continue);
        // A clearly stronger engine: H1; an even one over many games: H0.
        assert_eq!(verdict(300, 100, 100), SprtVerdict::H1);
        assert_eq!(verdict(3000, 3000, 3000), SprtVerdict::H0);
        // LLR by hand: s = 0.7, var = 0.16, s0 = 0.5, s1 = score_of_elo(10).
        let wdl = Wdl::new(60, 20, 20);
        let s1 = score_of_elo(10.0);
        let want = 100.0 * (s1 - 0.5) * (1.4 - 0.5 - s1) / 0.32;
        assert!(close(sprt.llr(wdl.sample()), want, 1e-9));
        assert_eq!(sprt.llr(Wdl::new(5, 0, 0).sample()), 0.0);
        assert_eq!(sprt.llr(None), 0.0);
    }

    #[test]
    fn sprt_parsing_errors_and_defaults() {
        let d = Sprt::parse("").unwrap();
        assert_eq!((d.elo0, d.elo1, d.alpha, d.beta), (0.0, 10.0, 0.05, 0.05));
        assert_eq!(Sprt::parse("elo1=5").unwrap().elo1, 5.0);
        assert!(Sprt::parse("elo0=10,elo1=0").is_err());
        assert!(Sprt::parse("alpha=0.7").is_err());
        assert!(Sprt::parse("gamma=1").is_err());
        assert!(Sprt::parse("elo0").is_err());
    }
}
