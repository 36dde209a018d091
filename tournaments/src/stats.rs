//! Match statistics: score, Elo difference with a 95 % interval, likelihood of superiority,
//! and the sequential probability ratio test.
//!
//! Method (the usual one, as cutechess-cli and fishtest's trinomial model do it):
//! - score `s = (W + D/2) / N`; Elo difference `-400 log10(1/s − 1)` (logistic model);
//! - per-game variance `σ² = (W(1−s)² + D(½−s)² + L s²) / N`, standard error of the mean
//!   score `σ/√N`; the 95 % interval is the Elo of `s ± 1.95996 σ/√N`;
//! - LOS `= ½ (1 + erf((W − L) / √(2(W + L))))` (draws carry no information);
//! - SPRT: the generalised SPRT on the logistic model with the trinomial normal
//!   approximation, `LLR = N (s₁ − s₀)(2s − s₀ − s₁) / (2σ²)` where `sᵢ` is the score of
//!   `eloᵢ`; stop when LLR ≥ ln((1−β)/α) (H1: elo ≥ elo1) or ≤ ln(β/(1−α)) (H0: elo ≤ elo0).

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

    /// Per-game variance of the score.
    pub fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        let n = self.games() as f64;
        let (w, d, l) = (self.wins as f64, self.draws as f64, self.losses as f64);
        Some((w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n)
    }

    /// Elo difference (±∞ for a perfect or a null score).
    pub fn elo(&self) -> Option<f64> {
        self.score().map(elo_of_score)
    }

    /// The 95 % interval of the Elo difference.
    pub fn elo_interval(&self) -> Option<(f64, f64)> {
        let s = self.score()?;
        let se = (self.variance()? / self.games() as f64).sqrt();
        let lo = (s - Z95 * se).max(0.0);
        let hi = (s + Z95 * se).min(1.0);
        Some((elo_of_score(lo), elo_of_score(hi)))
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
pub fn describe_elo(wdl: &Wdl) -> String {
    match (wdl.elo(), wdl.elo_interval()) {
        (Some(e), Some((lo, hi))) => {
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

    /// The log-likelihood ratio of H1 against H0 (0 while the variance is zero: no game, or
    /// every game with the same result, says nothing about the spread).
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        let (s, var) = match (wdl.score(), wdl.variance()) {
            (Some(s), Some(v)) if v > 1e-12 => (s, v),
            _ => return 0.0,
        };
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        wdl.games() as f64 * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    pub fn verdict(&self, wdl: &Wdl) -> SprtVerdict {
        let llr = self.llr(wdl);
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
        assert!(close(wdl.variance().unwrap(), 0.16, 1e-12));
        let (lo, hi) = wdl.elo_interval().unwrap();
        assert!(close(lo, elo_of_score(0.7 - Z95 * 0.04), 1e-9));
        assert!(close(hi, elo_of_score(0.7 + Z95 * 0.04), 1e-9));
        assert!(close(wdl.elo().unwrap(), 147.19, 0.01));
        // LOS: (60-20)/sqrt(160) = 3.162 → 0.5(1 + erf(3.162)) ≈ 0.99999...
        assert!(wdl.los().unwrap() > 0.9999);
        assert!(close(Wdl::new(10, 5, 10).los().unwrap(), 0.5, 1e-6));
        assert_eq!(Wdl::new(0, 7, 0).los(), None);
        assert_eq!(Wdl::default().elo(), None);
    }

    #[test]
    fn sprt_bounds_and_decisions() {
        let sprt = Sprt::parse("elo0=0,elo1=10,alpha=0.05,beta=0.05").unwrap();
        assert!(close(sprt.lower(), -2.944_438_979, 1e-9));
        assert!(close(sprt.upper(), 2.944_438_979, 1e-9));
        assert_eq!(sprt.verdict(&Wdl::new(3, 2, 1)), SprtVerdict::Continue);
        // A clearly stronger engine: H1; an even one over many games: H0.
        assert_eq!(sprt.verdict(&Wdl::new(300, 100, 100)), SprtVerdict::H1);
        assert_eq!(sprt.verdict(&Wdl::new(3000, 3000, 3000)), SprtVerdict::H0);
        // LLR by hand: s = 0.7, var = 0.16, s0 = 0.5, s1 = score_of_elo(10).
        let wdl = Wdl::new(60, 20, 20);
        let s1 = score_of_elo(10.0);
        let want = 100.0 * (s1 - 0.5) * (1.4 - 0.5 - s1) / 0.32;
        assert!(close(sprt.llr(&wdl), want, 1e-9));
        assert_eq!(sprt.llr(&Wdl::new(5, 0, 0)), 0.0);
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
