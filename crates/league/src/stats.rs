//! Statistics for matches and leagues: Elo estimates, the generalized SPRT and
//! Bradley–Terry ratings.
//!
//! Everything here is a pure function of counts; nothing reads a clock, a file
//! or a random number generator.
//!
//! # Samples
//!
//! A match between a *test* agent and a *base* agent is counted from the test
//! agent's view, either per game ([`Trinomial`]: losses, draws, wins) or per
//! *pair* of games played with the same seed and the sides swapped
//! ([`Pentanomial`]: how many pairs scored 0, ½, 1, 1½ and 2 points). Pairs are
//! the right unit when a seed decides much of a game: the two games of a pair
//! are correlated, and only the pair scores are independent samples.
//!
//! Both are handled as one discrete distribution (the [`Sample`] trait): cell
//! `i` of `k` holds the samples whose per-game mean score is `aᵢ = i/(k−1)`
//! (0, ½, 1 for games; 0, ¼, ½, ¾, 1 for pairs). With `n` samples and
//! frequencies `pᵢ = countᵢ/n`,
//!
//! ```text
//! μ  = Σ pᵢ aᵢ                 mean score per game
//! σ² = Σ pᵢ (aᵢ − μ)²           variance of one sample's per-game score
//! se = σ / √n                   standard error of μ
//! ```
//!
//! As fishtest does, a cell with no samples is given 10⁻³ of a sample before
//! anything is computed, so that no estimate divides by a zero variance and no
//! maximum-likelihood distribution puts zero mass where a sample could fall.
//! A sample with no games at all is special-cased (an LLR of 0, an estimate of
//! 0 with an infinite interval).
//!
//! # Elo models
//!
//! *Logistic Elo* is the usual `E = −400·log₁₀(1/μ − 1)`, the inverse of
//! `μ = 1/(1 + 10^(−E/400))`. Its 95% interval maps `μ ± 1.959964·se` through
//! the same function, so it is asymmetric away from 0.
//!
//! *Normalized Elo* (Michel Van den Bergh, used by fishtest) measures a
//! difference in units of the noise of one game, so it predicts how many
//! games a test needs whatever the draw rate:
//!
//! ```text
//! nElo = (800 / ln 10) · (μ − ½) / σ_game        800 / ln 10 = 347.4355855…
//! σ_game = σ                for games
//! σ_game = √2 · σ_pair      for pairs, σ_pair the deviation of a pair's mean score
//! ```
//!
//! `√2·σ_pair` is what the deviation of one game would be if the two games of a
//! pair were independent; the constant makes nElo equal logistic Elo for small
//! differences between agents that never draw (σ_game = ½).
//!
//! # The generalized SPRT
//!
//! [`llr`] is the generalized log-likelihood ratio of fishtest's SPRT: the
//! pentanomial (or trinomial) distribution is left free apart from the tested
//! quantity, and each hypothesis is represented by the maximum-likelihood
//! distribution `q` that satisfies it:
//!
//! ```text
//! LLR = n · Σ pᵢ · ln(q₁ᵢ / q₀ᵢ)
//! ```
//!
//! For the logistic model the constraint is `Σ qᵢ aᵢ = s` with `s` the score of
//! the hypothesised Elo. By Lagrange multipliers the maximizer is
//! `qᵢ = pᵢ / (1 + x·(aᵢ − s))`, where `x` is the one root of
//! `Σ pᵢ (aᵢ − s) / (1 + x (aᵢ − s)) = 0` that keeps every `qᵢ` positive
//! (Van den Bergh, *support_MLE_multinomial*). For the normalized model the
//! constraint is `(μ_q − ½)/σ_q = t`, with `t = nElo·ln 10/800` for games and
//! `√2` times that for pairs; the same form holds with
//! `bᵢ = aᵢ − ½ − t·(σ_q² + (aᵢ − μ_q)²)/(2σ_q)` in place of `aᵢ − s`, and `μ_q`,
//! `σ_q` are found by fixed-point iteration (*normalized_elo_practical*, §4.1),
//! started from the uniform distribution as fishtest does (and from the
//! empirical one if that fails).
//!
//! [`llr_approx`] is the Brownian-motion approximation used as a cross-check:
//! `n·(s₁ − s₀)(2μ − s₀ − s₁)/(2σ²)` (logistic) and
//! `(games/2)·ln((1 + (t̂ − t₀)²)/(1 + (t̂ − t₁)²))` with per-game t-values
//! (normalized). When the iteration cannot reach the constrained maximum,
//! which happens only for hypotheses far outside any practical test (beyond
//! about ±200 nElo on games, e.g. 390 v 90 nElo on a sample of all draws),
//! [`llr`] falls back to this approximation rather than fail.
//!
//! [`Sprt`] stops at Wald's bounds `ln(β/(1−α))` and `ln((1−β)/α)`.
//!
//! # League ratings
//!
//! [`BradleyTerry`] fits `P(i scores against j) = 1/(1 + 10^((rⱼ − rᵢ)/400))` by
//! maximum likelihood, a draw counting as half a win each way (BayesElo
//! without its draw model). To keep an agent that won (or lost) every game
//! finite, each agent also plays [`BradleyTerry::prior_draws`] virtual draws
//! against a virtual opponent rated 0, which is close to the pool's mean (the
//! prior pulls every rating towards it); ratings are then reported relative
//! to the mean. With a few hundred real games per agent the prior moves a
//! rating by at most a few Elo, well inside its interval.

use std::f64::consts::LN_10;
use std::ops::{Add, AddAssign};

use serde::{Deserialize, Serialize};
use versus_core::{GameResult, Side};

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Normalized Elo per unit of per-game t-value, `800 / ln 10`.
pub const NELO_PER_T: f64 = 800.0 / LN_10;

/// Pseudo-count given to an empty cell of a sample (fishtest's regularization).
const EMPTY_CELL: f64 = 1e-3;

/// One game's result from one agent's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Wdl {
    Loss,
    Draw,
    Win,
}

impl Wdl {
    /// The result of a game for the agent that played `side`.
    #[must_use]
    pub fn for_side(result: GameResult, side: Side) -> Wdl {
        match result.winner() {
            None => Wdl::Draw,
            Some(winner) if winner == side => Wdl::Win,
            Some(_) => Wdl::Loss,
        }
    }

    /// 0, 1 or 2 half-points.
    #[must_use]
    pub fn half_points(self) -> usize {
        match self {
            Wdl::Loss => 0,
            Wdl::Draw => 1,
            Wdl::Win => 2,
        }
    }

    /// 0, ½ or 1.
    #[must_use]
    pub fn points(self) -> f64 {
        self.half_points() as f64 / 2.0
    }
}

/// Game counts from the test agent's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Trinomial {
    pub losses: u64,
    pub draws: u64,
    pub wins: u64,
}

impl Trinomial {
    #[must_use]
    pub fn new(losses: u64, draws: u64, wins: u64) -> Trinomial {
        Trinomial { losses, draws, wins }
    }

    /// Counts one game.
    pub fn add(&mut self, result: Wdl) {
        match result {
            Wdl::Loss => self.losses += 1,
            Wdl::Draw => self.draws += 1,
            Wdl::Win => self.wins += 1,
        }
    }

    #[must_use]
    pub fn games(&self) -> u64 {
        self.losses + self.draws + self.wins
    }

    /// Points scored by the test agent: a win is 1, a draw ½.
    #[must_use]
    pub fn score(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Points per game, or `None` before the first game.
    #[must_use]
    pub fn mean_score(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| self.score() / games as f64)
    }

    /// The same games from the base agent's view.
    #[must_use]
    pub fn reversed(&self) -> Trinomial {
        Trinomial::new(self.wins, self.draws, self.losses)
    }
}

impl Add for Trinomial {
    type Output = Trinomial;
    fn add(self, other: Trinomial) -> Trinomial {
        Trinomial::new(self.losses + other.losses, self.draws + other.draws, self.wins + other.wins)
    }
}

impl AddAssign for Trinomial {
    fn add_assign(&mut self, other: Trinomial) {
        *self = *self + other;
    }
}

/// Pair counts from the test agent's view: element `i` counts the pairs of
/// games (same seed, sides swapped) in which it scored `i/2` points, so
/// `[LL, LD+DL, LW+WL+DD, DW+WD, WW]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Counts one pair from the results of its two games.
    pub fn add_pair(&mut self, first: Wdl, second: Wdl) {
        self.0[first.half_points() + second.half_points()] += 1;
    }

    #[must_use]
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    #[must_use]
    pub fn games(&self) -> u64 {
        2 * self.pairs()
    }

    /// Points scored by the test agent over all games.
    #[must_use]
    pub fn score(&self) -> f64 {
        self.0
            .iter()
            .enumerate()
            .map(|(half_points, &count)| half_points as f64 / 2.0 * count as f64)
            .sum()
    }

    /// Points per game, or `None` before the first pair.
    #[must_use]
    pub fn mean_score(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| self.score() / games as f64)
    }

    /// The same pairs from the base agent's view.
    #[must_use]
    pub fn reversed(&self) -> Pentanomial {
        let mut counts = self.0;
        counts.reverse();
        Pentanomial(counts)
    }
}

impl Add for Pentanomial {
    type Output = Pentanomial;
    fn add(self, other: Pentanomial) -> Pentanomial {
        Pentanomial(std::array::from_fn(|i| self.0[i] + other.0[i]))
    }
}

impl AddAssign for Pentanomial {
    fn add_assign(&mut self, other: Pentanomial) {
        *self = *self + other;
    }
}

/// Counts of independent samples whose per-game mean score is spread evenly
/// from 0 to 1: games ([`Trinomial`]) or pairs of games ([`Pentanomial`]).
pub trait Sample {
    /// Sample counts by score, lowest first; cell `i` of `k` scores `i/(k−1)`
    /// per game. `k` is odd and at least 3.
    fn cells(&self) -> Vec<u64>;

    /// Games in one sample: `(k − 1)/2`.
    fn games_per_sample(&self) -> usize {
        (self.cells().len() - 1) / 2
    }
}

impl Sample for Trinomial {
    fn cells(&self) -> Vec<u64> {
        vec![self.losses, self.draws, self.wins]
    }
}

impl Sample for Pentanomial {
    fn cells(&self) -> Vec<u64> {
        self.0.to_vec()
    }
}

/// A sample as a regularized discrete distribution.
struct Distribution {
    /// Samples, including the pseudo-counts of empty cells.
    n: f64,
    /// Per-game score of each cell.
    values: Vec<f64>,
    /// Frequency of each cell, all positive.
    probs: Vec<f64>,
    games_per_sample: f64,
}

impl Distribution {
    /// `None` for a sample without games.
    fn of(sample: &impl Sample) -> Option<Distribution> {
        let cells = sample.cells();
        if cells.iter().all(|&count| count == 0) {
            return None;
        }
        let counts: Vec<f64> =
            cells.iter().map(|&count| if count == 0 { EMPTY_CELL } else { count as f64 }).collect();
        let n: f64 = counts.iter().sum();
        let last = (cells.len() - 1) as f64;
        Some(Distribution {
            n,
            values: (0..cells.len()).map(|i| i as f64 / last).collect(),
            probs: counts.iter().map(|count| count / n).collect(),
            games_per_sample: last / 2.0,
        })
    }

    fn moments(&self) -> (f64, f64) {
        moments(&self.values, &self.probs)
    }
}

/// Mean and variance of `values` under `probs`.
fn moments(values: &[f64], probs: &[f64]) -> (f64, f64) {
    let mean: f64 = values.iter().zip(probs).map(|(a, p)| a * p).sum();
    let variance = values.iter().zip(probs).map(|(a, p)| p * (a - mean) * (a - mean)).sum();
    (mean, variance)
}

/// A point estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

impl Estimate {
    fn unknown() -> Estimate {
        Estimate { value: 0.0, low: f64::NEG_INFINITY, high: f64::INFINITY }
    }
}

/// The expected score per game of an agent `elo` logistic Elo stronger:
/// `1/(1 + 10^(−elo/400))`.
#[must_use]
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Logistic Elo of a score per game, `−400·log₁₀(1/s − 1)`: −∞ at or below 0,
/// +∞ at or above 1.
#[must_use]
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Logistic Elo of the test agent over the base agent, with the interval
/// `elo(μ ± 1.959964·σ/√n)` (see the module notes).
#[must_use]
pub fn logistic_elo(sample: &impl Sample) -> Estimate {
    let Some(dist) = Distribution::of(sample) else {
        return Estimate::unknown();
    };
    let (mean, variance) = dist.moments();
    let margin = Z95 * (variance / dist.n).sqrt();
    Estimate {
        value: elo_from_score(mean),
        low: elo_from_score(mean - margin),
        high: elo_from_score(mean + margin),
    }
}

/// Normalized Elo of the test agent over the base agent (see the module
/// notes), with a delta-method interval.
///
/// With `t = (μ − ½)/σ` for one sample, skewness `γ = m₃/σ³` and kurtosis
/// `κ = m₄/σ⁴`, the estimate of `t` from `n` samples has variance
/// `(1 − t·γ + t²·(κ − 1)/4)/n` to first order; nElo is
/// `800/ln 10 · t/√(games per sample)`, and so is its interval.
#[must_use]
pub fn normalized_elo(sample: &impl Sample) -> Estimate {
    let Some(dist) = Distribution::of(sample) else {
        return Estimate::unknown();
    };
    let (mean, variance) = dist.moments();
    let sd = variance.sqrt();
    let central = |power: i32| -> f64 {
        dist.values.iter().zip(&dist.probs).map(|(a, p)| p * (a - mean).powi(power)).sum()
    };
    let t = (mean - 0.5) / sd;
    let skewness = central(3) / (sd * variance);
    let kurtosis = central(4) / (variance * variance);
    let t_variance = ((1.0 - t * skewness + t * t * (kurtosis - 1.0) / 4.0) / dist.n).max(0.0);
    let margin = Z95 * t_variance.sqrt();
    let scale = NELO_PER_T / dist.games_per_sample.sqrt();
    Estimate { value: scale * t, low: scale * (t - margin), high: scale * (t + margin) }
}

/// How the hypotheses of an SPRT are measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EloModel {
    /// Logistic Elo: a hypothesis fixes the expected score.
    Logistic,
    /// Normalized Elo: a hypothesis fixes `(μ − ½)/σ_game`.
    Normalized,
}

/// The generalized log-likelihood ratio of `elo1` against `elo0` (in
/// `model`'s units) for `sample`, as fishtest computes it (see the module
/// notes). 0 for a sample without games.
#[must_use]
pub fn llr(sample: &impl Sample, elo0: f64, elo1: f64, model: EloModel) -> f64 {
    let Some(dist) = Distribution::of(sample) else {
        return 0.0;
    };
    let fitted = |elo: f64| match model {
        EloModel::Logistic => mle_with_mean(&dist, score_from_elo(elo)),
        EloModel::Normalized => mle_with_t_value(&dist, 0.5, sample_t_value(&dist, elo)),
    };
    match (fitted(elo0), fitted(elo1)) {
        (Some(q0), Some(q1)) => {
            dist.n
                * dist
                    .probs
                    .iter()
                    .zip(q0.iter().zip(&q1))
                    .map(|(p, (q0, q1))| p * (q1.ln() - q0.ln()))
                    .sum::<f64>()
        }
        _ => approx_from(&dist, elo0, elo1, model),
    }
}

/// The normal (Brownian-motion) approximation of [`llr`] (see the module
/// notes). 0 for a sample without games.
#[must_use]
pub fn llr_approx(sample: &impl Sample, elo0: f64, elo1: f64, model: EloModel) -> f64 {
    match Distribution::of(sample) {
        Some(dist) => approx_from(&dist, elo0, elo1, model),
        None => 0.0,
    }
}

fn approx_from(dist: &Distribution, elo0: f64, elo1: f64, model: EloModel) -> f64 {
    let (mean, variance) = dist.moments();
    match model {
        EloModel::Logistic => {
            let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
            dist.n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
        }
        EloModel::Normalized => {
            let games = dist.n * dist.games_per_sample;
            let per_game_sd = (variance * dist.games_per_sample).sqrt();
            let t = (mean - 0.5) / per_game_sd;
            let (t0, t1) = (elo0 / NELO_PER_T, elo1 / NELO_PER_T);
            games / 2.0 * ((1.0 + (t - t0).powi(2)) / (1.0 + (t - t1).powi(2))).ln()
        }
    }
}

/// The t-value of one sample (not one game) for a normalized Elo.
fn sample_t_value(dist: &Distribution, nelo: f64) -> f64 {
    nelo / NELO_PER_T * dist.games_per_sample.sqrt()
}

/// The distribution `qᵢ = pᵢ / (1 + x bᵢ)` at the root `x` of the secular
/// equation `Σ pᵢ bᵢ / (1 + x bᵢ) = 0` that keeps every `qᵢ` positive, or
/// `None` when the `bᵢ` do not take both signs (there is no such root).
///
/// With every `pᵢ > 0` the left side falls from +∞ to −∞ across
/// `(−1/max b, −1/min b)`, so bisection finds the root. A cell with a tiny
/// `pᵢ` can still get a large `qᵢ`, when the root lies close to an end of the
/// interval and `1 + x bᵢ` is tiny; to keep that factor's relative precision,
/// the root is sought as a distance `ε` from the nearer end `x_c = −1/c`
/// (`c` the extreme `b` of that end), where `1 + x bᵢ = (1 − bᵢ/c) ± ε bᵢ`.
fn reweighted(b: &[f64], p: &[f64]) -> Option<Vec<f64>> {
    let max = b.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = b.iter().copied().fold(f64::INFINITY, f64::min);
    if !(max > 0.0 && min < 0.0 && max.is_finite() && min.is_finite()) {
        return None;
    }
    // `from_low`: x = −1/max + ε, the left side is positive near that end;
    // otherwise x = −1/min − ε, where it is negative.
    let factors = |from_low: bool, eps: f64| -> Vec<f64> {
        let (end, direction) = if from_low { (max, 1.0) } else { (min, -1.0) };
        b.iter().map(|b| (1.0 - b / end) + direction * eps * b).collect()
    };
    let secular = |factors: &[f64]| -> f64 {
        b.iter().zip(p).zip(factors).map(|((b, p), d)| p * b / d).sum()
    };
    let half_width = 0.5 * (1.0 / max - 1.0 / min);
    let from_low = secular(&factors(true, half_width)) <= 0.0;
    let sign_near_end = if from_low { 1.0 } else { -1.0 };
    let (mut lo, mut hi) = (0.0, half_width);
    for _ in 0..1100 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        let value = secular(&factors(from_low, mid)) * sign_near_end;
        if value > 0.0 {
            lo = mid;
        } else if value < 0.0 {
            hi = mid;
        } else {
            lo = mid;
            hi = mid;
        }
    }
    let q: Vec<f64> =
        p.iter().zip(factors(from_low, 0.5 * (lo + hi))).map(|(p, d)| p / d).collect();
    q.iter().all(|&q| q > 0.0 && q.is_finite()).then_some(q)
}

/// The most likely distribution on `dist`'s cells with mean `score`.
fn mle_with_mean(dist: &Distribution, score: f64) -> Option<Vec<f64>> {
    let b: Vec<f64> = dist.values.iter().map(|a| a - score).collect();
    reweighted(&b, &dist.probs)
}

/// The most likely distribution on `dist`'s cells with `(μ − reference)/σ = t`,
/// or `None` if the fixed-point iteration fails from both starting points
/// tried: the uniform distribution (as fishtest does; the robust choice when
/// the sample is far from the hypothesis) and the empirical one.
fn mle_with_t_value(dist: &Distribution, reference: f64, t: f64) -> Option<Vec<f64>> {
    let uniform = vec![1.0 / dist.probs.len() as f64; dist.probs.len()];
    t_value_iteration(dist, reference, t, uniform)
        .or_else(|| t_value_iteration(dist, reference, t, dist.probs.clone()))
}

/// Repeats `q ← MLE with Σ qᵢ bᵢ(q) = 0`, the `bᵢ` of the module notes taken
/// at the previous `q`, until `q` settles; `None` if a step leaves the feasible
/// region or the result misses the constraint.
fn t_value_iteration(
    dist: &Distribution,
    reference: f64,
    t: f64,
    start: Vec<f64>,
) -> Option<Vec<f64>> {
    let mut q = start;
    for _ in 0..1000 {
        let (mean, variance) = moments(&dist.values, &q);
        let sd = variance.sqrt();
        let b: Vec<f64> = dist
            .values
            .iter()
            .map(|a| a - reference - t * (variance + (a - mean) * (a - mean)) / (2.0 * sd))
            .collect();
        let next = reweighted(&b, &dist.probs)?;
        let change = next.iter().zip(&q).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
        q = next;
        if change < 1e-13 {
            break;
        }
    }
    let (mean, variance) = moments(&dist.values, &q);
    (((mean - reference) / variance.sqrt() - t).abs() < 1e-7).then_some(q)
}

/// Where a sequential test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SprtStatus {
    Continue,
    AcceptH0,
    AcceptH1,
}

/// A sequential probability ratio test of `H0: elo = elo0` against
/// `H1: elo = elo1`, with type I error `alpha` (accepting H1 when H0 holds)
/// and type II error `beta`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: EloModel,
}

impl Sprt {
    #[must_use]
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64, model: EloModel) -> Sprt {
        Sprt { elo0, elo1, alpha, beta, model }
    }

    /// Wald's stopping bounds on the LLR: `(ln(β/(1−α)), ln((1−β)/α))`.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The LLR of `sample` for this test.
    #[must_use]
    pub fn llr(&self, sample: &impl Sample) -> f64 {
        llr(sample, self.elo0, self.elo1, self.model)
    }

    /// Accept H1 once the LLR reaches the upper bound, H0 once it reaches the
    /// lower bound.
    #[must_use]
    pub fn status(&self, sample: &impl Sample) -> SprtStatus {
        let (lower, upper) = self.bounds();
        let llr = self.llr(sample);
        if llr >= upper {
            SprtStatus::AcceptH1
        } else if llr <= lower {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }
}

/// Games between two agents of a league, from `agent`'s view. Several
/// entries for the same two agents add up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct HeadToHead {
    pub agent: usize,
    pub opponent: usize,
    pub record: Trinomial,
}

/// An agent's rating in a league: Elo relative to the league's mean, with
/// its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

/// Maximum-likelihood Bradley–Terry ratings (see the module notes).
///
/// The log-likelihood, in natural units `θ = elo·ln 10/400` and with
/// `σ(x) = 1/(1 + e⁻ˣ)`, `Sᵢⱼ` the points of `i` against `j` and `Nᵢⱼ` their
/// games, is
///
/// ```text
/// ℓ(θ) = Σ_{i<j} [Sᵢⱼ ln σ(θᵢ − θⱼ) + (Nᵢⱼ − Sᵢⱼ) ln σ(θⱼ − θᵢ)]
///      + Σᵢ (k/2) [ln σ(θᵢ) + ln σ(−θᵢ)]          k = prior_draws
/// ```
///
/// which the prior makes strictly concave, so Newton's method with a
/// backtracking line search finds its one maximum. The covariance of the
/// estimate is the inverse of the observed information `−∇²ℓ`; ratings and
/// intervals are reported relative to the mean rating, i.e. for `rᵢ − r̄`
/// with variance `(C Σ C)ᵢᵢ`, `C = I − 11ᵀ/N`. An agent with fewer games has
/// less information and so a wider interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BradleyTerry {
    /// Virtual draws of every agent against a virtual opponent rated at 0;
    /// values below 10⁻⁶ (or not a number) count as 10⁻⁶, above 10⁹ as 10⁹.
    pub prior_draws: f64,
    /// Newton steps at most.
    pub max_iterations: usize,
    /// Stop when no rating moved more than this many Elo in a step.
    pub tolerance: f64,
}

impl Default for BradleyTerry {
    /// Two virtual draws (as strong a prior as BayesElo's default), at most
    /// 100 steps, to 10⁻⁹ Elo.
    fn default() -> BradleyTerry {
        BradleyTerry { prior_draws: 2.0, max_iterations: 100, tolerance: 1e-9 }
    }
}

const ELO_PER_NATURAL: f64 = 400.0 / LN_10;

/// `ln σ(x) = −ln(1 + e⁻ˣ)`, without overflow.
fn ln_sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        -(-x).exp().ln_1p()
    } else {
        x - x.exp().ln_1p()
    }
}

fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// Points and games between each two agents.
struct Tally {
    points: Vec<Vec<f64>>,
    games: Vec<Vec<f64>>,
}

impl BradleyTerry {
    /// Ratings of agents `0..agents` from `results`. Entries of an agent
    /// against itself are ignored.
    ///
    /// # Panics
    ///
    /// If an entry names an agent `>= agents`.
    #[must_use]
    pub fn fit(&self, agents: usize, results: &[HeadToHead]) -> Vec<Rating> {
        let n = agents;
        let mut tally = Tally { points: vec![vec![0.0; n]; n], games: vec![vec![0.0; n]; n] };
        for h2h in results {
            let (i, j) = (h2h.agent, h2h.opponent);
            assert!(i < n && j < n, "head-to-head {i} v {j} names an agent outside 0..{n}");
            if i == j {
                continue;
            }
            let games = h2h.record.games() as f64;
            let points = h2h.record.score();
            tally.points[i][j] += points;
            tally.points[j][i] += games - points;
            tally.games[i][j] += games;
            tally.games[j][i] += games;
        }
        let prior = if self.prior_draws >= 1e-6 { self.prior_draws.min(1e9) } else { 1e-6 };

        let mut theta = vec![0.0; n];
        let mut value = log_likelihood(&tally, prior, &theta);
        for _ in 0..self.max_iterations {
            let (gradient, information) = derivatives(&tally, prior, &theta);
            let Some(factor) = cholesky(&information) else {
                break;
            };
            let step = cholesky_solve(&factor, &gradient);
            // Halve the step until the likelihood does not fall: far from the
            // optimum (an agent that won everything) a full step overshoots.
            let mut scale = 1.0;
            let mut accepted = None;
            while scale > 1e-12 {
                let trial: Vec<f64> = theta.iter().zip(&step).map(|(t, s)| t + scale * s).collect();
                let trial_value = log_likelihood(&tally, prior, &trial);
                if trial_value >= value {
                    accepted = Some((trial, trial_value));
                    break;
                }
                scale /= 2.0;
            }
            let Some((trial, trial_value)) = accepted else {
                break;
            };
            let moved =
                step.iter().map(|s| (scale * s).abs()).fold(0.0, f64::max) * ELO_PER_NATURAL;
            theta = trial;
            value = trial_value;
            if moved.is_nan() || moved <= self.tolerance {
                break;
            }
        }

        let (_, information) = derivatives(&tally, prior, &theta);
        let covariance = cholesky(&information).map(|factor| {
            (0..n)
                .map(|k| {
                    let unit: Vec<f64> = (0..n).map(|i| f64::from(u8::from(i == k))).collect();
                    cholesky_solve(&factor, &unit)
                })
                .collect::<Vec<_>>()
        });
        let mean = theta.iter().sum::<f64>() / n.max(1) as f64;
        (0..n)
            .map(|i| {
                let variance = match &covariance {
                    Some(cov) => {
                        let nf = n as f64;
                        let row_mean = cov[i].iter().sum::<f64>() / nf;
                        let grand_mean = cov.iter().flatten().sum::<f64>() / (nf * nf);
                        (cov[i][i] - 2.0 * row_mean + grand_mean).max(0.0)
                    }
                    None => f64::INFINITY,
                };
                let elo = (theta[i] - mean) * ELO_PER_NATURAL;
                let margin = Z95 * variance.sqrt() * ELO_PER_NATURAL;
                Rating { elo, low: elo - margin, high: elo + margin }
            })
            .collect()
    }
}

/// [`BradleyTerry::fit`] with the default settings.
///
/// # Panics
///
/// If an entry names an agent `>= agents`.
#[must_use]
pub fn ratings(agents: usize, results: &[HeadToHead]) -> Vec<Rating> {
    BradleyTerry::default().fit(agents, results)
}

fn log_likelihood(tally: &Tally, prior: f64, theta: &[f64]) -> f64 {
    let n = theta.len();
    let mut total = 0.0;
    for i in 0..n {
        total += prior / 2.0 * (ln_sigmoid(theta[i]) + ln_sigmoid(-theta[i]));
        for j in 0..n {
            if tally.points[i][j] > 0.0 {
                total += tally.points[i][j] * ln_sigmoid(theta[i] - theta[j]);
            }
        }
    }
    total
}

/// The gradient of ℓ and the observed information `−∇²ℓ`.
fn derivatives(tally: &Tally, prior: f64, theta: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = theta.len();
    let mut gradient = vec![0.0; n];
    let mut information = vec![vec![0.0; n]; n];
    for i in 0..n {
        let p = sigmoid(theta[i]);
        gradient[i] += prior * (0.5 - p);
        information[i][i] += prior * p * (1.0 - p);
        for j in 0..n {
            let games = tally.games[i][j];
            if games == 0.0 {
                continue;
            }
            let p = sigmoid(theta[i] - theta[j]);
            gradient[i] += tally.points[i][j] - games * p;
            let w = games * p * (1.0 - p);
            information[i][i] += w;
            information[i][j] -= w;
        }
    }
    (gradient, information)
}

/// The lower-triangular `L` with `L Lᵀ = a`, or `None` if `a` is not
/// (numerically) positive definite.
fn cholesky(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut l = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let dot: f64 = (0..j).map(|k| l[i][k] * l[j][k]).sum();
            if i == j {
                let d = a[i][i] - dot;
                if !(d > 0.0 && d.is_finite()) {
                    return None;
                }
                l[i][i] = d.sqrt();
            } else {
                l[i][j] = (a[i][j] - dot) / l[j][j];
            }
        }
    }
    Some(l)
}

/// Solves `L Lᵀ x = b`.
fn cholesky_solve(l: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let mut y = vec![0.0; n];
    for i in 0..n {
        let dot: f64 = (0..i).map(|k| l[i][k] * y[k]).sum();
        y[i] = (b[i] - dot) / l[i][i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let dot: f64 = (i + 1..n).map(|k| l[k][i] * x[k]).sum();
        x[i] = (y[i] - dot) / l[i][i];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reweighting_balances_the_weights() {
        let b = [-0.5, -0.25, 0.0, 0.25, 0.5];
        let p = [0.1, 0.2, 0.3, 0.25, 0.15];
        let q = reweighted(&b, &p).unwrap();
        let balance: f64 = b.iter().zip(&q).map(|(b, q)| b * q).sum();
        assert!(balance.abs() < 1e-12, "{balance}");
        assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert_eq!(reweighted(&[0.1, 0.2], &[0.5, 0.5]), None);
    }

    #[test]
    fn reweighting_keeps_tiny_cells_precise() {
        // The root lies within 1e-12 of an end: the last cell's weight grows
        // from 1e-12 to about ½, which needs 1 + x·b to 1e-12 relative.
        let b = [-0.25, 0.75];
        let p = [1.0 - 1e-12, 1e-12];
        let q = reweighted(&b, &p).unwrap();
        // Σ qᵢ bᵢ = 0 and Σ qᵢ = 1 give q = (0.75, 0.25).
        assert!((q[0] - 0.75).abs() < 1e-12 && (q[1] - 0.25).abs() < 1e-12, "{q:?}");
    }

    #[test]
    fn mle_with_mean_meets_the_constraint() {
        let dist = Distribution::of(&Pentanomial([3, 12, 20, 15, 6])).unwrap();
        let q = mle_with_mean(&dist, 0.47).unwrap();
        let (mean, _) = moments(&dist.values, &q);
        assert!((mean - 0.47).abs() < 1e-12);
        assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn the_empirical_distribution_is_its_own_mle() {
        let dist = Distribution::of(&Trinomial::new(120, 300, 180)).unwrap();
        let (mean, variance) = dist.moments();
        let q = mle_with_t_value(&dist, 0.5, (mean - 0.5) / variance.sqrt()).unwrap();
        for (q, p) in q.iter().zip(&dist.probs) {
            assert!((q - p).abs() < 1e-9);
        }
    }

    #[test]
    fn cholesky_inverts_a_small_matrix() {
        let a = vec![vec![4.0, -2.0], vec![-2.0, 3.0]];
        let l = cholesky(&a).unwrap();
        let x = cholesky_solve(&l, &[2.0, 1.0]);
        assert!((4.0 * x[0] - 2.0 * x[1] - 2.0).abs() < 1e-12);
        assert!((-2.0 * x[0] + 3.0 * x[1] - 1.0).abs() < 1e-12);
        assert!(cholesky(&[vec![1.0, 2.0], vec![2.0, 1.0]]).is_none());
    }
}
