//! Match statistics: win/draw/loss tally, score, Elo difference with a 95 % interval, likelihood of
//! superiority, and a sequential probability ratio test (SPRT) on the Elo difference.
//!
//! Elo here is the logistic scale: a score `s` means a difference of `-400 log10(1/s - 1)`. Both
//! the interval and the log-likelihood ratio use the normal approximation (the generalised SPRT of
//! chess testing frameworks), `LLR = n (s1 - s0) (2 s - s0 - s1) / (2 var)`, over one of two
//! units: single games with the trinomial (win/draw/loss) variance ([`Tally`]), or pairs of games
//! on the same opening with colours swapped, with the pentanomial variance of a pair's score
//! ([`Pentanomial`]). A match plays its openings in pairs, so its SPRT runs on pairs: the two games
//! of a pair are not independent (a lopsided opening wins one and loses the other), and counting
//! them as independent games overstates the spread and slows the test.

use std::fmt;

/// Games won, drawn and lost, from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

/// An Elo difference with the bounds of its 95 % confidence interval, once there is one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The point estimate (may be infinite when every game was won or lost).
    pub elo: f64,
    /// The 95 % interval, lower and upper bound. `None` while the results cannot give one: fewer
    /// than two games (or pairs), or all of them alike, when the spread they show is no measure of
    /// the spread to come.
    pub interval: Option<(f64, f64)>,
}

impl EloEstimate {
    /// Half the width of the interval, the usual "±" figure, if there is an interval.
    pub fn margin(&self) -> Option<f64> {
        self.interval.map(|(low, high)| (high - low) / 2.0)
    }
}

impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.interval, self.margin()) {
            (Some((low, high)), Some(margin)) if self.elo.is_finite() && margin.is_finite() => {
                write!(
                    f,
                    "{:+.1} +/- {margin:.1} (95 % interval {low:+.1} .. {high:+.1})",
                    self.elo
                )
            }
            (Some((low, high)), _) => {
                write!(
                    f,
                    "{:+.1} (95 % interval {low:+.1} .. {high:+.1})",
                    self.elo
                )
            }
            (None, _) => write!(
                f,
                "{:+.1} (no 95 % interval yet: too few results, or all alike)",
                self.elo
            ),
        }
    }
}

/// 1.96: the two-sided 95 % quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

impl Tally {
    /// Adds one game's result, seen from the first engine: 1.0 win, 0.5 draw, 0.0 loss.
    pub fn add(&mut self, points: Points) {
        match points {
            Points::Win => self.wins += 1,
            Points::Draw => self.draws += 1,
            Points::Loss => self.losses += 1,
        }
    }

    /// Number of games.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Mean score per game in [0, 1]; 0.5 with no games.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// Variance of one game's score around the mean.
    fn variance(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        let s = self.score();
        let n = n as f64;
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n
    }

    /// The Elo difference with its 95 % interval.
    pub fn elo(&self) -> EloEstimate {
        estimate(self.games(), self.score(), self.variance())
    }

    /// Likelihood of superiority: the probability that the first engine is the stronger, from the
    /// decisive games (draws carry no information here).
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 + 0.5 * erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt())
    }

    /// The log-likelihood ratio of H1 (difference `elo1`) against H0 (difference `elo0`). Zero
    /// while the results carry no spread (no games, or all of one kind).
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        gsprt_llr(self.games(), self.score(), self.variance(), elo0, elo1)
    }
}

/// Pairs of games on the same opening, one with each colour, counted by the first engine's points
/// in the pair: `counts[k]` pairs scored `k / 2` points (0, ½, 1, 1½, 2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs by points scored, in half points.
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Adds a finished pair.
    pub fn add(&mut self, first: Points, second: Points) {
        self.counts[(first.half_points() + second.half_points()) as usize] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Mean score per game in [0, 1]; 0.5 with no pairs.
    pub fn score(&self) -> f64 {
        let n = self.pairs();
        if n == 0 {
            return 0.5;
        }
        let half_points: u32 = self
            .counts
            .iter()
            .enumerate()
            .map(|(k, &c)| k as u32 * c)
            .sum();
        half_points as f64 / (4.0 * n as f64)
    }

    /// Variance of one pair's mean score (points / 2) around the mean.
    fn variance(&self) -> f64 {
        let n = self.pairs();
        if n == 0 {
            return 0.0;
        }
        let s = self.score();
        self.counts
            .iter()
            .enumerate()
            .map(|(k, &c)| c as f64 * (k as f64 / 4.0 - s).powi(2))
            .sum::<f64>()
            / n as f64
    }

    /// The Elo difference with its 95 % interval, from the spread between pairs.
    pub fn elo(&self) -> EloEstimate {
        estimate(self.pairs(), self.score(), self.variance())
    }

    /// The log-likelihood ratio of H1 (difference `elo1`) against H0 (`elo0`) over the pairs.
    /// Zero while the pairs carry no spread.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        gsprt_llr(self.pairs(), self.score(), self.variance(), elo0, elo1)
    }
}

impl fmt::Display for Pentanomial {
    /// The counts from 0 to 2 points, as chess testers print them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c, d, e] = self.counts;
        write!(f, "[{a}, {b}, {c}, {d}, {e}]")
    }
}

/// A match's results so far: games one by one, and pairs as both their games finish (games `2k`
/// and `2k + 1`, 0-based, share an opening with colours swapped; they may finish in either order).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standing {
    /// Every finished game.
    pub tally: Tally,
    /// Every finished pair.
    pub pairs: Pentanomial,
    /// Games whose partner has not finished yet, by pair index.
    waiting: std::collections::BTreeMap<u32, Points>,
}

impl Standing {
    /// Adds game `index` (0-based, in schedule order).
    pub fn add(&mut self, index: u32, points: Points) {
        self.tally.add(points);
        let pair = index / 2;
        match self.waiting.remove(&pair) {
            Some(partner) => self.pairs.add(partner, points),
            None => {
                self.waiting.insert(pair, points);
            }
        }
    }

    /// The log-likelihood ratio the match's SPRT uses: over pairs.
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        self.pairs.llr(sprt.elo0, sprt.elo1)
    }
}

/// One game's result from the first engine's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Points {
    /// The first engine won.
    Win,
    /// Draw.
    Draw,
    /// The first engine lost.
    Loss,
}

impl Points {
    /// The first engine's points, in half points (2 for a win).
    pub fn half_points(self) -> u32 {
        match self {
            Points::Win => 2,
            Points::Draw => 1,
            Points::Loss => 0,
        }
    }
}

/// The Elo estimate from `n` units with mean score `s` and variance `var` per unit: an interval
/// only from two units with some spread between them.
fn estimate(n: u32, s: f64, var: f64) -> EloEstimate {
    let se = (var / f64::from(n.max(1))).sqrt();
    EloEstimate {
        elo: elo_from_score(s),
        interval: (n >= 2 && var > 0.0)
            .then(|| (elo_from_score(s - Z95 * se), elo_from_score(s + Z95 * se))),
    }
}

/// The normal approximation of the log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`) after
/// `n` units with mean score `s` and variance `var` per unit; zero with no units or no spread.
fn gsprt_llr(n: u32, s: f64, var: f64, elo0: f64, elo1: f64) -> f64 {
    if n == 0 || var <= 0.0 {
        return 0.0;
    }
    let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
    n as f64 * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
}

/// The Elo difference that gives expected score `s` (infinite at 0 and 1).
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        // Adding 0.0 turns -0.0 (an even score) into 0.0.
        -400.0 * (1.0 / s - 1.0).log10() + 0.0
    }
}

/// The expected score for an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, to about 1e-7 (Abramowitz and Stegun 7.1.26).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x < 0.0 { -y } else { y }
}

/// A sequential probability ratio test of H0 "the difference is `elo0`" against H1 "it is `elo1`".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference under H0.
    pub elo0: f64,
    /// Elo difference under H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtStatus {
    /// Neither bound crossed yet.
    Continue,
    /// The lower bound was crossed: H0 accepted.
    AcceptH0,
    /// The upper bound was crossed: H1 accepted.
    AcceptH1,
}

/// Why SPRT parameters could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SprtError(pub String);

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad SPRT parameters {:?}: expected elo0,elo1[,alpha[,beta]] with elo0 < elo1 and 0 < alpha, beta < 0.5",
            self.0
        )
    }
}

impl std::error::Error for SprtError {}

impl std::str::FromStr for Sprt {
    type Err = SprtError;
    /// Reads `elo0,elo1[,alpha[,beta]]`; alpha and beta default to 0.05.
    fn from_str(s: &str) -> Result<Sprt, SprtError> {
        let err = || SprtError(s.to_string());
        let values: Vec<f64> = s
            .split(',')
            .map(|v| v.trim().parse::<f64>().map_err(|_| err()))
            .collect::<Result<_, _>>()?;
        let (elo0, elo1, alpha, beta) = match values[..] {
            [a, b] => (a, b, 0.05, 0.05),
            [a, b, al] => (a, b, al, al),
            [a, b, al, be] => (a, b, al, be),
            _ => return Err(err()),
        };
        let ok = |p: f64| p > 0.0 && p < 0.5;
        if elo0 >= elo1 || !ok(alpha) || !ok(beta) || !elo0.is_finite() || !elo1.is_finite() {
            return Err(err());
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

impl Sprt {
    /// The lower and upper log-likelihood-ratio bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The test's state after the games in `tally`, counted as independent games.
    pub fn status(&self, tally: &Tally) -> SprtStatus {
        self.decide(tally.llr(self.elo0, self.elo1))
    }

    /// The test's state at log-likelihood ratio `llr`.
    pub fn decide(&self, llr: f64) -> SprtStatus {
        let (low, high) = self.bounds();
        if llr >= high {
            SprtStatus::AcceptH1
        } else if llr <= low {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }
}

impl fmt::Display for SprtStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtStatus::Continue => "no decision yet",
            SprtStatus::AcceptH0 => "H0 accepted",
            SprtStatus::AcceptH1 => "H1 accepted",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn elo_and_interval_for_known_results() {
        // 60 wins, 20 draws, 20 losses: score 0.7, variance 0.16 per game.
        let t = tally(60, 20, 20);
        assert!((t.score() - 0.7).abs() < 1e-12);
        let e = t.elo();
        assert!((e.elo - 147.19).abs() < 0.01, "{e:?}");
        // s ± 1.96 · 0.04 = 0.6216 .. 0.7784.
        let (low, high) = e.interval.unwrap();
        assert!((low - 86.23).abs() < 0.01, "{e:?}");
        assert!((high - 218.25).abs() < 0.01, "{e:?}");
        // Even results: zero, symmetric interval.
        let e = tally(10, 30, 10).elo();
        assert!(e.elo.abs() < 1e-9);
        let (low, high) = e.interval.unwrap();
        assert!((low + high).abs() < 1e-9);
        assert!(high > 0.0);
        // All wins: infinite estimate, no panic, still printable.
        assert_eq!(tally(5, 0, 0).elo().elo, f64::INFINITY);
        let _ = tally(5, 0, 0).elo().to_string();
        assert_eq!(tally(0, 0, 0).score(), 0.5);
    }

    #[test]
    fn no_interval_before_the_results_spread() {
        // One game, one pair, or results all alike: an estimate, but no interval.
        for t in [
            tally(1, 0, 0),
            tally(0, 1, 0),
            tally(0, 4, 0),
            tally(0, 0, 0),
        ] {
            let e = t.elo();
            assert_eq!(e.interval, None, "{t:?}");
            assert!(e.to_string().contains("no 95 % interval yet"), "{e}");
        }
        let mut p = Pentanomial::default();
        p.add(Points::Win, Points::Loss);
        assert_eq!(p.elo().interval, None);
        p.add(Points::Loss, Points::Win);
        assert_eq!(p.elo().interval, None, "two pairs alike");
        assert!(!p.elo().to_string().contains("+/- 0.0"));
        p.add(Points::Win, Points::Draw);
        let (low, high) = p.elo().interval.unwrap();
        assert!(low < p.elo().elo && p.elo().elo < high);
        assert!(p.elo().margin().unwrap() > 0.0);
        // Two games that differ give an interval.
        assert!(tally(1, 0, 1).elo().interval.is_some());
    }

    #[test]
    fn round_trip_and_los() {
        for elo in [-300.0, -5.0, 0.0, 42.0, 250.0] {
            assert!((elo_from_score(score_from_elo(elo)) - elo).abs() < 1e-9);
        }
        assert!((tally(10, 5, 10).los() - 0.5).abs() < 1e-6);
        // 30 wins, 10 losses: (20)/sqrt(80) = 2.236 → erf(2.236) ≈ 0.99841, LOS ≈ 0.99921.
        assert!((tally(30, 0, 10).los() - 0.999_21).abs() < 1e-4);
        assert!((erf(0.5) - 0.520_499_878).abs() < 1e-6);
    }

    #[test]
    fn sprt_llr_sign_and_bounds() {
        let sprt: Sprt = "0,10".parse().unwrap();
        assert_eq!(sprt.alpha, 0.05);
        let (low, high) = sprt.bounds();
        assert!((high - 2.944_438_979).abs() < 1e-6 && (low + 2.944_438_979).abs() < 1e-6);
        // Far better than H1: positive LLR (1.73 after 100 games), and 300 games cross the upper
        // bound.
        let good = tally(60, 20, 20);
        assert!(
            (good.llr(0.0, 10.0) - 1.734).abs() < 1e-3,
            "{}",
            good.llr(0.0, 10.0)
        );
        assert_eq!(sprt.status(&good), SprtStatus::Continue);
        let good = tally(180, 60, 60);
        assert!(good.llr(0.0, 10.0) > 0.0);
        assert_eq!(sprt.status(&good), SprtStatus::AcceptH1);
        // Worse than H0: negative LLR.
        let bad = tally(60, 60, 180);
        assert!(bad.llr(0.0, 10.0) < 0.0);
        assert_eq!(sprt.status(&bad), SprtStatus::AcceptH0);
        // Exactly between the hypotheses: LLR 0.
        assert!(tally(10, 10, 10).llr(-10.0, 10.0).abs() < 1e-12);
        // Few games: no decision.
        assert_eq!(sprt.status(&tally(2, 1, 1)), SprtStatus::Continue);
        // No spread: no decision, no division by zero.
        assert_eq!(tally(0, 7, 0).llr(0.0, 10.0), 0.0);
    }

    #[test]
    fn pentanomial_score_interval_and_llr() {
        let mut p = Pentanomial::default();
        // Pairs scoring 0, 0.5, 1, 1.5 and 2 points: 5, 20, 50, 30, 15.
        for (k, n) in [5, 20, 50, 30, 15].into_iter().enumerate() {
            let (a, b) = [
                (Points::Loss, Points::Loss),
                (Points::Draw, Points::Loss),
                (Points::Win, Points::Loss),
                (Points::Draw, Points::Win),
                (Points::Win, Points::Win),
            ][k];
            for _ in 0..n {
                p.add(a, b);
            }
        }
        assert_eq!(p.counts, [5, 20, 50, 30, 15]);
        assert_eq!(p.to_string(), "[5, 20, 50, 30, 15]");
        assert_eq!(p.pairs(), 120);
        assert!((p.score() - 0.5625).abs() < 1e-12);
        // Mean 0.5625, variance 0.063802 per pair: Elo 43.66, interval 12.03 .. 76.02.
        let e = p.elo();
        assert!((e.elo - 43.658).abs() < 1e-3, "{e:?}");
        let (low, high) = e.interval.unwrap();
        assert!((low - 12.031).abs() < 1e-3, "{e:?}");
        assert!((high - 76.024).abs() < 1e-3, "{e:?}");
        assert!(
            (p.llr(0.0, 10.0) - 1.4966).abs() < 1e-3,
            "{}",
            p.llr(0.0, 10.0)
        );
        // Symmetric results: LLR 0 between symmetric hypotheses; no pairs or no spread: 0.
        let even = Pentanomial {
            counts: [3, 10, 20, 10, 3],
        };
        assert!(even.llr(-10.0, 10.0).abs() < 1e-12);
        assert_eq!(Pentanomial::default().llr(0.0, 10.0), 0.0);
        assert_eq!(
            Pentanomial {
                counts: [0, 0, 9, 0, 0]
            }
            .llr(0.0, 10.0),
            0.0
        );
        let sprt: Sprt = "0,10".parse().unwrap();
        assert_eq!(sprt.decide(3.0), SprtStatus::AcceptH1);
        assert_eq!(sprt.decide(-3.0), SprtStatus::AcceptH0);
        assert_eq!(sprt.decide(0.0), SprtStatus::Continue);
    }

    #[test]
    fn pairs_form_in_any_order() {
        let mut st = Standing::default();
        st.add(1, Points::Win);
        st.add(2, Points::Draw);
        assert_eq!(st.pairs.pairs(), 0);
        st.add(0, Points::Loss);
        assert_eq!(st.pairs.counts, [0, 0, 1, 0, 0]);
        st.add(3, Points::Win);
        assert_eq!(st.pairs.counts, [0, 0, 1, 1, 0]);
        assert_eq!(st.tally.games(), 4);
        assert_eq!((st.tally.wins, st.tally.draws, st.tally.losses), (2, 1, 1));
    }

    #[test]
    fn sprt_parameters() {
        let s: Sprt = "-5,5,0.1,0.2".parse().unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-5.0, 5.0, 0.1, 0.2));
        for bad in ["", "5", "10,0", "0,10,0.6", "0,x", "0,10,0.05,0.05,1"] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
    }
}
