//! The `strong` agent: a value function of the board, a one-round
//! expectimax over the next offer, sampled futures of the coming rounds for
//! the best candidates, and bets from the equilibrium of each round's
//! auction. `strong-v1` ([`crate::strong_v1`]) is this agent before the
//! sampled futures and the clock by round weight.
//!
//! - [`eval`]: the value of a board, its expected final points.
//! - [`Planner`]: every placement of a block (and the pass) ranked by that
//!   value, then by the expectation over the next offer of the best reply to
//!   it ([`Planner::lookahead`]), then, best first, by the mean over sampled
//!   futures (the same for every candidate) of a few rounds played greedily
//!   with the value function at the leaf ([`Planner::deepen`]); time left in
//!   the placement phase re-values the best few by fresh futures
//!   ([`Planner::refine`]).
//! - [`matrix`]: an exact solver of zero-sum matrix games; each auction is
//!   one (a block and a bet for each player), with payoffs from both boards'
//!   values and the chips paid, and the agent samples its mixed strategy
//!   with its own seeded generator. The opponent's board (followed from the
//!   `OPP` lines) is valued like its own, its best few placements by the
//!   lookahead and the same futures; its bets are assumed to stay within
//!   what it has been seen to pay (one chip more once it has paid any).
//!
//! Time: each request that searches (both phases of every round but the
//! last, whose placement is exact) gets its round's weight's share of 90%
//! of the clock left less 150 ms (`request_share`), as work counted in
//! boards evaluated (so the game depends on the seeds and the clock readings
//! only) with a wall-clock deadline at the share as a guard.
//! Each feature was kept after an SPRT against the agent without it (see
//! [`Features`]).

pub mod eval;
pub mod matrix;

use std::time::{Duration, Instant};

use versus_core::{GameRng, Param, ProtocolAgent};

use crate::agents::{player, Strategy, Tracker};
use crate::rules::{Bet, Block, Offer, Params};
use eval::{Evaluator, Weights};

/// The chance, in the lookahead, of getting the better block of an offer.
const PREFERRED_SHARE: f64 = 0.8;
/// The opponent's placements per block valued by the lookahead.
const OPPONENT_CANDIDATES: usize = 3;
/// What a chip is worth at the end.
const CHIP_POINTS: f64 = 0.5;

/// The symmetries of the square board, as cell permutations.
#[derive(Clone, Debug)]
struct Symmetries {
    /// For each of the 7 non-identity symmetries, the image of each bit.
    maps: Vec<[u8; 64]>,
}

impl Symmetries {
    fn new(size: u8) -> Symmetries {
        let n = u32::from(size);
        let maps = (1..8u32)
            .map(|symmetry| {
                let mut map = [0u8; 64];
                for r in 0..n {
                    for c in 0..n {
                        let (r2, c2) = if symmetry & 4 != 0 { (c, r) } else { (r, c) };
                        let r2 = if symmetry & 1 != 0 { n - 1 - r2 } else { r2 };
                        let c2 = if symmetry & 2 != 0 { n - 1 - c2 } else { c2 };
                        map[(r * 8 + c) as usize] = (r2 * 8 + c2) as u8;
                    }
                }
                map
            })
            .collect();
        Symmetries { maps }
    }

    fn apply(map: &[u8; 64], mut mask: u64) -> u64 {
        let mut image = 0;
        while mask != 0 {
            let bit = mask.trailing_zeros();
            image |= 1 << map[bit as usize];
            mask &= mask - 1;
        }
        image
    }

    /// The symmetries that leave `filled` unchanged.
    fn of(&self, filled: u64) -> Vec<&[u8; 64]> {
        self.maps.iter().filter(|m| Self::apply(m, filled) == filled).collect()
    }
}

/// Placement choice by the value function and a one-round lookahead.
#[derive(Clone, Debug)]
pub struct Planner {
    pub evaluator: Evaluator,
    symmetries: Symmetries,
}

/// The placements of one block on one board, ranked: first by the value
/// of the board they leave, then, as time allows, by the lookahead.
#[derive(Clone, Debug)]
pub struct Ranking {
    pub block: Block,
    pub filled: u64,
    /// Rounds still to play after this placement.
    pub rounds_after: u32,
    /// Every distinct placement (0 for the pass) with its static value, best first.
    pub candidates: Vec<(f64, u64)>,
    /// How many candidates have their lookahead value.
    pub searched: usize,
    /// The best searched candidate and its value (the static best before any search).
    pub best: (f64, u64),
    /// The lookahead value of each searched candidate, in candidate order.
    pub shallow: Vec<(f64, u64)>,
    /// The candidates valued by sampled futures (best lookahead first) and
    /// those values.
    pub deep: Vec<(f64, u64)>,
    /// The best few of `deep`, each with its total over every batch of
    /// further futures (the same for all), and the batches done.
    pub refined: Vec<(f64, u64)>,
    pub batches: u32,
}

impl Ranking {
    /// Whether every candidate that matters has been searched.
    #[must_use]
    pub fn done(&self) -> bool {
        self.searched >= self.candidates.len()
    }

    /// The chosen placement and its value: the best by sampled futures once
    /// two or more candidates have them, else the best by the lookahead.
    #[must_use]
    pub fn choice(&self) -> (f64, u64) {
        if self.batches > 0 {
            let n = f64::from(self.batches);
            let (total, mask) =
                self.refined
                    .iter()
                    .copied()
                    .fold(self.refined[0], |a, b| if b.0 > a.0 { b } else { a });
            (total / n, mask)
        } else if self.deep.len() >= 2 {
            self.deep.iter().copied().fold(self.deep[0], |a, b| if b.0 > a.0 { b } else { a })
        } else {
            self.best
        }
    }
}

/// One sampled future of the coming rounds: each round's offer and whether
/// the better of its blocks is had.
#[derive(Clone, Debug)]
pub struct Future {
    pub rounds: Vec<(Block, Block, bool)>,
}

/// `count` futures of `rounds` rounds: offers drawn as the judge draws them,
/// the better block had with `PREFERRED_SHARE` (0.8).
#[must_use]
pub fn sample_futures(
    params: &Params,
    rounds: u32,
    count: usize,
    rng: &mut GameRng,
) -> Vec<Future> {
    (0..count)
        .map(|_| Future {
            rounds: (0..rounds)
                .map(|_| {
                    let offer = crate::referee::draw_offer(params.blocks, rng);
                    let lucky = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                    (offer.a, offer.b, lucky < PREFERRED_SHARE)
                })
                .collect(),
        })
        .collect()
}

impl Planner {
    #[must_use]
    pub fn new(params: &Params, weights: Weights) -> Planner {
        Planner {
            evaluator: Evaluator::new(params, weights),
            symmetries: Symmetries::new(params.size),
        }
    }

    /// The placements of `block` on `filled` (one per class of placements
    /// the board's symmetries make equivalent, and the pass), by static value.
    #[must_use]
    pub fn rank(&self, filled: u64, block: Block, rounds_after: u32) -> Ranking {
        let geometry = &self.evaluator.geometry;
        let symmetries = self.symmetries.of(filled);
        let mut candidates: Vec<(f64, u64)> = geometry
            .placements(filled, block)
            .filter(|&mask| symmetries.iter().all(|m| Symmetries::apply(m, mask) >= mask))
            .map(|mask| (self.evaluator.value(filled | mask, rounds_after), mask))
            .collect();
        candidates.push((self.evaluator.value(filled, rounds_after), 0));
        // Stable: equal values keep the placements' fixed order.
        candidates.sort_by(|a, b| b.0.total_cmp(&a.0));
        let best = candidates[0];
        let searched = if rounds_after == 0 { candidates.len() } else { 0 };
        Ranking {
            block,
            filled,
            rounds_after,
            candidates,
            searched,
            best,
            shallow: Vec::new(),
            deep: Vec::new(),
            refined: Vec::new(),
            batches: 0,
        }
    }

    /// The expected final points of `filled` with `rounds` rounds to play,
    /// looking one offer ahead: each possible next offer, its better block
    /// (most of the time) placed where the value function likes it best.
    /// Also returns the boards evaluated, the measure of work.
    #[must_use]
    pub fn lookahead(&self, filled: u64, rounds: u32) -> (f64, u64) {
        let evaluator = &self.evaluator;
        if rounds == 0 {
            return (evaluator.value(filled, 0), 1);
        }
        let pass = evaluator.value(filled, rounds - 1);
        let mut evaluated = 1;
        let mut best: Vec<f64> = evaluator
            .geometry
            .blocks()
            .iter()
            .map(|block| {
                evaluator
                    .geometry
                    .placements(filled, block)
                    .map(|mask| {
                        evaluated += 1;
                        evaluator.value(filled | mask, rounds - 1)
                    })
                    .fold(pass, f64::max)
            })
            .collect();
        best.sort_by(f64::total_cmp);
        (offer_expectation(&best), evaluated)
    }

    /// Searches more of `ranking`'s candidates while `work` (boards to
    /// evaluate) lasts, and never past `deadline`.
    pub fn improve(&self, ranking: &mut Ranking, work: &mut u64, deadline: Instant) {
        while !ranking.done() && *work > 0 && Instant::now() < deadline {
            let (_, mask) = ranking.candidates[ranking.searched];
            let (value, evaluated) = self.lookahead(ranking.filled | mask, ranking.rounds_after);
            *work = work.saturating_sub(evaluated);
            if ranking.searched == 0 || value > ranking.best.0 {
                ranking.best = (value, mask);
            }
            ranking.shallow.push((value, mask));
            ranking.searched += 1;
        }
    }

    /// The best placement of `block` on `filled` by the value function with
    /// `rounds_after` rounds after it (the pass when nothing is better), its
    /// value, and the boards evaluated.
    #[must_use]
    pub fn greedy(&self, filled: u64, block: Block, rounds_after: u32) -> (f64, u64, u64) {
        let evaluator = &self.evaluator;
        let mut best = (evaluator.value(filled, rounds_after), 0);
        let mut evaluated = 1;
        for mask in evaluator.geometry.placements(filled, block) {
            evaluated += 1;
            let value = evaluator.value(filled | mask, rounds_after);
            if value > best.0 {
                best = (value, mask);
            }
        }
        (best.0, best.1, evaluated)
    }

    /// Plays at most `depth` rounds of `future` from `filled` (with `rounds`
    /// rounds to play), each block placed by [`Planner::greedy`] and the
    /// better of each offer had when the future says so; the value of the
    /// board reached (its exact points when the game is over), and the boards
    /// evaluated.
    #[must_use]
    pub fn rollout(&self, mut filled: u64, rounds: u32, future: &Future, depth: u32) -> (f64, u64) {
        let steps = depth.min(rounds).min(future.rounds.len() as u32);
        let mut evaluated = 0;
        for (step, &(a, b, lucky)) in future.rounds.iter().take(steps as usize).enumerate() {
            let rounds_after = rounds - step as u32 - 1;
            let (va, ma, ea) = self.greedy(filled, a, rounds_after);
            let (vb, mb, eb) = self.greedy(filled, b, rounds_after);
            evaluated += ea + eb;
            let (better, worse) = if va >= vb { (ma, mb) } else { (mb, ma) };
            filled |= if lucky { better } else { worse };
        }
        (self.evaluator.value(filled, rounds - steps), evaluated + 1)
    }

    /// The mean of [`Planner::rollout`] over `futures`, and the boards
    /// evaluated; `None` once `deadline` passes (checked every few futures,
    /// so a slow machine never overruns by more than a few rollouts).
    #[must_use]
    pub fn rollouts(
        &self,
        filled: u64,
        rounds: u32,
        futures: &[Future],
        depth: u32,
        deadline: Instant,
    ) -> Option<(f64, u64)> {
        let mut total = 0.0;
        let mut evaluated = 0;
        for (i, future) in futures.iter().enumerate() {
            if i % 4 == 0 && Instant::now() >= deadline {
                return None;
            }
            let (value, e) = self.rollout(filled, rounds, future, depth);
            total += value;
            evaluated += e;
        }
        Some((total / futures.len().max(1) as f64, evaluated))
    }

    /// Once every candidate has its lookahead value, values the candidates
    /// by `futures` (the same for all, so they are compared on the same
    /// luck), best lookahead first, while `work` lasts and before `deadline`.
    pub fn deepen(
        &self,
        ranking: &mut Ranking,
        futures: &[Future],
        depth: u32,
        work: &mut u64,
        deadline: Instant,
    ) {
        while *work > 0 && Instant::now() < deadline {
            match self.deepen_one(ranking, futures, depth, deadline) {
                Some(evaluated) => *work = work.saturating_sub(evaluated),
                None => break,
            }
        }
    }

    /// Once every candidate has its value by the futures, values the best
    /// `keep` of them by one more batch of `futures` (all of them, or, out
    /// of work or time, none). Returns whether the batch was done.
    pub fn refine(
        &self,
        ranking: &mut Ranking,
        keep: usize,
        futures: &[Future],
        depth: u32,
        work: &mut u64,
        deadline: Instant,
    ) -> bool {
        if ranking.deep.len() < 2
            || ranking.deep.len() < ranking.shallow.len()
            || futures.is_empty()
        {
            return false;
        }
        if ranking.batches == 0 {
            let mut best = ranking.deep.clone();
            best.sort_by(|a, b| b.0.total_cmp(&a.0));
            best.truncate(keep);
            ranking.refined = best.iter().map(|&(_, mask)| (0.0, mask)).collect();
        }
        let mut values = Vec::with_capacity(ranking.refined.len());
        for &(_, mask) in &ranking.refined {
            if *work == 0 || Instant::now() >= deadline {
                return false;
            }
            let Some((value, evaluated)) = self.rollouts(
                ranking.filled | mask,
                ranking.rounds_after,
                futures,
                depth,
                deadline,
            ) else {
                return false;
            };
            *work = work.saturating_sub(evaluated);
            values.push(value);
        }
        for (entry, value) in ranking.refined.iter_mut().zip(values) {
            entry.0 += value;
        }
        ranking.batches += 1;
        true
    }

    /// Values the next candidate of [`Planner::deepen`]'s order by
    /// `futures`; the boards evaluated, or `None` when there is none to value
    /// or `deadline` passed first.
    pub fn deepen_one(
        &self,
        ranking: &mut Ranking,
        futures: &[Future],
        depth: u32,
        deadline: Instant,
    ) -> Option<u64> {
        if !ranking.done()
            || ranking.rounds_after < 2
            || futures.is_empty()
            || ranking.deep.len() >= ranking.shallow.len()
        {
            return None;
        }
        if ranking.deep.is_empty() {
            // Stable: ties keep the candidates' order.
            ranking.shallow.sort_by(|a, b| b.0.total_cmp(&a.0));
        }
        let (_, mask) = ranking.shallow[ranking.deep.len()];
        let (value, evaluated) =
            self.rollouts(ranking.filled | mask, ranking.rounds_after, futures, depth, deadline)?;
        ranking.deep.push((value, mask));
        Some(evaluated)
    }
}

/// The expected value of the next offer given each block's value (sorted
/// ascending): over the n(n-1)/2 equally likely offers, the j-th smallest
/// value is the larger of its pair j times and the smaller n-1-j times; the
/// larger is had with [`PREFERRED_SHARE`].
fn offer_expectation(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n < 2 {
        return sorted.first().copied().unwrap_or(0.0);
    }
    let total: f64 = sorted
        .iter()
        .enumerate()
        .map(|(j, v)| {
            v * (PREFERRED_SHARE * j as f64 + (1.0 - PREFERRED_SHARE) * (n - 1 - j) as f64)
        })
        .sum();
    total / (n * (n - 1) / 2) as f64
}

/// Boards the value function is assumed to evaluate per millisecond, on
/// the slow side, so that the work a request may do follows from the clock
/// the judge reports; a game then depends only on the seeds and the clock
/// readings, unless the machine is so slow that the deadline cuts in.
const BOARDS_PER_MS: f64 = 3000.0;

/// What is never spent: the judge's margin (100 ms) and a little more for
/// the pipes and a loaded machine.
const RESERVE_MS: f64 = 150.0;
/// The share of the rest of the clock the searching requests divide.
const SPEND: f64 = 0.9;

/// The share of what is usable that the current request may spend: its
/// weight over the weights of every request left (this one included). A
/// request of a round with `r` rounds after it weighs `(r + 1)²` (the boards
/// are emptier and the futures longer early on, and a late round rarely uses
/// its share); the last round, whose placement is exact, weighs nothing.
/// `round` is the current round's index, `phase` 0 for the bet, 1 for the
/// placement.
fn request_share(rounds: u32, round: u32, phase: u32) -> f64 {
    let weight = |round: u32| {
        let after = rounds.saturating_sub(round + 1);
        if after == 0 {
            0.0
        } else {
            f64::from(after + 1).powi(2)
        }
    };
    let this = weight(round);
    let left: f64 = (round..rounds)
        .map(|r| if r == round { (2 - phase) as f64 } else { 2.0 } * weight(r))
        .sum();
    if left > 0.0 {
        this / left
    } else {
        1.0
    }
}

/// What a request may spend: its [`request_share`] of what is usable (the
/// clock left, less [`RESERVE_MS`], times [`SPEND`]). Gives the work (boards
/// to evaluate) and a deadline at the share itself (checked between
/// candidates and every few futures), so that even on a loaded machine,
/// where every request runs to its deadline, [`RESERVE_MS`] is never spent.
fn allowance(tracker: &Tracker, start: Instant, phase: u32) -> (u64, Instant) {
    let usable = ((tracker.my_time as f64 - RESERVE_MS) * SPEND).max(0.0);
    let share_ms = usable * request_share(tracker.params.rounds, tracker.round, phase);
    let work = (share_ms * BOARDS_PER_MS) as u64;
    let deadline_ms = share_ms.min(0.25 * usable);
    (work, start + Duration::from_secs_f64(deadline_ms / 1000.0))
}

/// The features of a strong agent, so versions can be played against
/// each other.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features {
    /// Rank placements by the lookahead (else by the value function alone).
    pub lookahead: bool,
    /// Bid by the auction's equilibrium (else take the better block for free).
    pub equilibrium_bets: bool,
    /// Limit the opponent's bets in the auction to what it has been seen to pay.
    pub opponent_model: bool,
    /// Value the opponent's blocks by the lookahead of its best few placements.
    pub opponent_lookahead: bool,
    /// After the lookahead, value the best candidates by sampled futures.
    pub futures: bool,
    /// Bid for the chance of winning rather than the expected lead (off:
    /// an SPRT against the agent without it found no gain, +8 ± 40 Elo
    /// after 293 games at 4 s).
    pub win_chance: bool,
    /// Value boards by the value fitted to final scores ([`eval::FITTED`],
    /// Betris (Large) only) instead of the hand-set sum of its terms (on:
    /// an SPRT against the hand-set value found +89 ± 45 Elo, H1 after 242
    /// games at 2 s).
    pub fitted: bool,
    /// Sampled futures per round, and how many rounds each is played before
    /// the value function takes over.
    pub futures_count: usize,
    pub future_depth: u32,
    /// The candidates valued by further batches of futures when time is left.
    pub refined: usize,
    /// The chips the opponent is assumed to bet at most beyond the most it
    /// has been seen to pay (once it has paid any).
    pub opponent_slack: u32,
    /// The values' differences in the auction are multiplied by this.
    pub bid_scale: f64,
}

impl Features {
    pub const ALL: Features = Features {
        lookahead: true,
        equilibrium_bets: true,
        opponent_model: true,
        opponent_lookahead: true,
        futures: true,
        win_chance: false,
        fitted: true,
        futures_count: 64,
        future_depth: 3,
        refined: 6,
        opponent_slack: 1,
        bid_scale: 1.0,
    };

    /// `strong`'s features with the values of [`STRONG_PARAMS`], in order.
    #[must_use]
    pub fn from_params(values: &[f64]) -> Features {
        let at = |i: usize| values.get(i).copied().unwrap_or(STRONG_PARAMS[i].default);
        Features {
            fitted: at(0) != 0.0,
            futures_count: at(1) as usize,
            future_depth: at(2) as u32,
            refined: at(3) as usize,
            opponent_slack: at(4) as u32,
            bid_scale: at(5) / 100.0,
            win_chance: at(6) != 0.0,
            ..Features::ALL
        }
    }
}

const fn param(name: &'static str, default: f64, min: f64, max: f64, about: &'static str) -> Param {
    Param { name, default, min, max, integer: true, about }
}

/// `strong`'s tunable parameters (`builtin:strong?fitted=0&futures=32`), in
/// the order [`Features::from_params`] reads them; the defaults are `strong`'s.
pub const STRONG_PARAMS: [Param; 7] = [
    param("fitted", 1.0, 0.0, 1.0, "value boards by the value fitted to final scores"),
    param("futures", 64.0, 8.0, 256.0, "sampled futures per round"),
    param("depth", 3.0, 1.0, 6.0, "rounds each future is played before the value function"),
    param("refined", 6.0, 2.0, 16.0, "candidates re-valued by fresh futures with time left"),
    param("slack", 1.0, 0.0, 5.0, "chips the opponent may bet beyond the most it has paid"),
    param("bid_scale", 100.0, 25.0, 200.0, "the values' differences in auctions, in percent"),
    param("win_chance", 0.0, 0.0, 1.0, "bid for the chance of winning, not the expected lead"),
];

/// The strong strategy.
#[derive(Debug)]
struct Strong {
    features: Features,
    planner: Planner,
    rng: GameRng,
    /// The rankings made for the current offer on this agent's board.
    pending: Vec<Ranking>,
    /// The opponent's chips when the current auction began.
    their_chips_before: u32,
    /// The largest bet the opponent has been seen to pay.
    their_top_bet: Option<u32>,
    /// The futures sampled for the current round.
    futures: Vec<Future>,
}

impl Strong {
    /// The value of each block of `offer` on the opponent's board: its best
    /// few placements by the value function, searched by the lookahead
    /// (a few milliseconds at most, so not charged to the request's work).
    fn their_values(
        &self,
        tracker: &Tracker,
        offer: Offer,
        rounds_after: u32,
        work: &mut u64,
        deadline: Instant,
    ) -> [f64; 2] {
        let mut rankings = [offer.a, offer.b].map(|block| {
            let mut ranking = self.planner.rank(tracker.theirs.filled(), block, rounds_after);
            if self.features.opponent_lookahead {
                // The few best placements by the value function, on the
                // scale of this player's own values.
                ranking.candidates.truncate(OPPONENT_CANDIDATES);
                let mut unlimited = u64::MAX;
                self.planner.improve(&mut ranking, &mut unlimited, deadline);
            }
            ranking
        });
        if self.features.opponent_lookahead {
            for ranking in &mut rankings {
                self.planner.deepen(
                    ranking,
                    &self.futures,
                    self.features.future_depth,
                    work,
                    deadline,
                );
            }
        }
        same_scale(&rankings)
    }
}

/// The values of the two blocks of an offer on one board, on the same
/// scale: by the sampled futures when both have them, else by the lookahead.
fn same_scale(rankings: &[Ranking]) -> [f64; 2] {
    if rankings.iter().all(|r| r.deep.len() >= 2) {
        [rankings[0].choice().0, rankings[1].choice().0]
    } else {
        [rankings[0].best.0, rankings[1].best.0]
    }
}

/// The standard normal distribution function (Abramowitz and Stegun
/// 7.1.26 for erf, absolute error below 1.5e-7).
fn normal_cdf(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-z * z).exp();
    if x >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}

/// The spread of the final lead around its expectation: a floor for the
/// value function's error, and what each round's luck adds (both boards).
const LEAD_SPREAD_FLOOR: f64 = 1.0;
const LEAD_SPREAD_PER_ROUND: f64 = 2.5;

/// The chance of winning (a draw counting half) with an expected final
/// lead of `lead` points and `rounds_after` rounds to play: exact when none
/// is left, else normal around the expectation.
fn win_chance(lead: f64, rounds_after: u32) -> f64 {
    if rounds_after == 0 {
        return if lead > 1e-9 {
            1.0
        } else if lead < -1e-9 {
            0.0
        } else {
            0.5
        };
    }
    let spread = (LEAD_SPREAD_FLOOR.powi(2)
        + LEAD_SPREAD_PER_ROUND.powi(2) * f64::from(rounds_after))
    .sqrt();
    normal_cdf(lead / spread)
}

/// The auction as a matrix game: rows are this player's (block, bet), columns
/// the opponent's, entries `outcome` of this player's expected lead in
/// points (`mine` and `theirs` are both boards' expected points with each
/// block, `lead` what the chips already add to the lead).
fn auction_payoffs(
    offer: Offer,
    mine: [f64; 2],
    theirs: [f64; 2],
    my_bets: u32,
    their_bets: u32,
    outcome: impl Fn(f64) -> f64,
) -> (Vec<(Block, u32)>, Vec<Vec<f64>>) {
    let choices = |most: u32| -> Vec<(usize, u32)> {
        (0..2).flat_map(|c| (0..=most).map(move |x| (c, x))).collect()
    };
    let rows = choices(my_bets);
    let columns = choices(their_bets);
    let lead = |my_block: usize, my_paid: u32, their_block: usize, their_paid: u32| {
        outcome(
            mine[my_block]
                - theirs[their_block]
                - CHIP_POINTS * (f64::from(my_paid) - f64::from(their_paid)),
        )
    };
    let payoff = rows
        .iter()
        .map(|&(c, x)| {
            columns
                .iter()
                .map(|&(d, y)| {
                    if c != d {
                        lead(c, x, d, y)
                    } else if x > y {
                        lead(c, x, 1 - c, 0)
                    } else if x < y {
                        lead(1 - c, 0, c, y)
                    } else {
                        0.5 * (lead(c, x, 1 - c, 0) + lead(1 - c, 0, c, y))
                    }
                })
                .collect()
        })
        .collect();
    let blocks = [offer.a, offer.b];
    (rows.into_iter().map(|(c, x)| (blocks[c], x)).collect(), payoff)
}

impl Strategy for Strong {
    fn bet(&mut self, tracker: &Tracker, offer: Offer) -> Bet {
        let start = Instant::now();
        let rounds_after = tracker.rounds_after();
        let (mut work, deadline) = allowance(tracker, start, 0);
        if !self.features.lookahead {
            work = 0;
        }
        let mine = tracker.mine.filled();
        let mut rankings = vec![
            self.planner.rank(mine, offer.a, rounds_after),
            self.planner.rank(mine, offer.b, rounds_after),
        ];
        // Alternate between the two blocks so both get searched.
        while work > 0 && Instant::now() < deadline && rankings.iter().any(|r| !r.done()) {
            for ranking in &mut rankings {
                let mut step = work.min(1000);
                work -= step;
                self.planner.improve(ranking, &mut step, deadline);
                work += step;
            }
        }
        self.futures = if self.features.futures && rounds_after >= 2 {
            sample_futures(
                &tracker.params,
                rounds_after,
                self.features.futures_count,
                &mut self.rng,
            )
        } else {
            Vec::new()
        };
        // The opponent's blocks, by the same futures, are valued first (they
        // are few); then this player's candidates, alternating.
        let their_values = self.their_values(tracker, offer, rounds_after, &mut work, deadline);
        let mut progress = true;
        while progress && work > 0 && Instant::now() < deadline {
            progress = false;
            for ranking in &mut rankings {
                if let Some(evaluated) = self.planner.deepen_one(
                    ranking,
                    &self.futures,
                    self.features.future_depth,
                    deadline,
                ) {
                    work = work.saturating_sub(evaluated);
                    progress = true;
                }
            }
        }
        let my_values = same_scale(&rankings);
        if !self.features.equilibrium_bets {
            self.pending = rankings;
            let block = if my_values[0] >= my_values[1] { offer.a } else { offer.b };
            return Bet { block, chips: 0 };
        }
        self.pending = rankings;
        self.their_chips_before = tracker.their_chips;
        let max_bet = tracker.params.max_bet;
        // The opponent is assumed never to bet more than it has been seen to
        // pay, or one chip more once it has paid any: an opponent that never
        // bets is not met with the bets an equilibrium keeps for one that
        // might.
        let their_limit = match self.their_top_bet {
            _ if !self.features.opponent_model => max_bet,
            None => 1,
            Some(0) => 0,
            Some(top) => top + self.features.opponent_slack,
        };
        let chips_lead = CHIP_POINTS * (f64::from(tracker.chips) - f64::from(tracker.their_chips));
        let win_chances = self.features.win_chance;
        let scale = self.features.bid_scale;
        let (rows, payoff) = auction_payoffs(
            offer,
            my_values.map(|v| v * scale),
            their_values.map(|v| v * scale),
            max_bet.min(tracker.chips),
            max_bet.min(tracker.their_chips).min(their_limit),
            |lead| {
                if win_chances {
                    win_chance(lead + chips_lead, rounds_after)
                } else {
                    lead
                }
            },
        );
        let solution = matrix::solve(&payoff);
        let mut draw = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let mut chosen = rows[rows.len() - 1];
        for (row, p) in rows.iter().zip(&solution.rows) {
            if draw < *p {
                chosen = *row;
                break;
            }
            draw -= p;
        }
        Bet { block: chosen.0, chips: chosen.1 }
    }

    fn place(&mut self, tracker: &Tracker, block: Block) -> Option<u64> {
        let start = Instant::now();
        let paid = self.their_chips_before.saturating_sub(tracker.their_chips);
        self.their_top_bet = Some(self.their_top_bet.unwrap_or(0).max(paid));
        let (mut work, deadline) = allowance(tracker, start, 1);
        if !self.features.lookahead {
            work = 0;
        }
        let mine = tracker.mine.filled();
        let rounds_after = tracker.rounds_after();
        let position = self.pending.iter().position(|r| r.block == block && r.filled == mine);
        let mut ranking = match position {
            Some(index) => self.pending.swap_remove(index),
            None => self.planner.rank(mine, block, rounds_after),
        };
        self.pending.clear();
        self.planner.improve(&mut ranking, &mut work, deadline);
        if self.features.futures {
            self.planner.deepen(
                &mut ranking,
                &self.futures,
                self.features.future_depth,
                &mut work,
                deadline,
            );
            // What is left of the share: the best few by more futures.
            while work > 0 && Instant::now() < deadline && ranking.rounds_after >= 2 {
                let batch = sample_futures(
                    &tracker.params,
                    ranking.rounds_after,
                    self.features.futures_count,
                    &mut self.rng,
                );
                if !self.planner.refine(
                    &mut ranking,
                    self.features.refined,
                    &batch,
                    self.features.future_depth,
                    &mut work,
                    deadline,
                ) {
                    break;
                }
            }
        }
        let mask = ranking.choice().1;
        (mask != 0).then_some(mask)
    }
}

/// The `strong` agent for a game of `params`.
#[must_use]
pub fn strong(params: Params, seed: u64) -> Box<dyn ProtocolAgent> {
    with_features(params, seed, Features::ALL)
}

/// A strong agent with only some of its features.
#[must_use]
pub fn with_features(params: Params, seed: u64, features: Features) -> Box<dyn ProtocolAgent> {
    player(
        params,
        Strong {
            features,
            planner: {
                let mut planner = Planner::new(&params, Weights::DEFAULT);
                if features.fitted && params == Params::LARGE {
                    planner.evaluator.fit = Some(eval::FITTED.to_vec());
                }
                planner
            },
            rng: GameRng::new(seed),
            pending: Vec::new(),
            their_chips_before: params.chips,
            their_top_bet: None,
            futures: Vec::new(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::resolve_auction;
    use versus_core::{BySide, Side};

    #[test]
    fn offer_expectation_matches_every_ordered_offer() {
        let mut rng = GameRng::new(3);
        for n in 2..22 {
            let mut values: Vec<f64> = (0..n).map(|_| rng.below(1000) as f64 / 10.0).collect();
            let mut total = 0.0;
            for a in 0..n {
                for b in (0..n).filter(|&b| b != a) {
                    let (high, low) = (values[a].max(values[b]), values[a].min(values[b]));
                    total += PREFERRED_SHARE * high + (1.0 - PREFERRED_SHARE) * low;
                }
            }
            let brute = total / (n * (n - 1)) as f64;
            values.sort_by(f64::total_cmp);
            assert!((offer_expectation(&values) - brute).abs() < 1e-9, "{n}");
        }
    }

    #[test]
    fn auction_payoffs_follow_the_rules() {
        let offer = Offer { a: Block::L4, b: Block::X5 };
        let mine = [30.0, 34.5];
        let theirs = [41.0, 40.0];
        let (rows, payoff) = auction_payoffs(offer, mine, theirs, 3, 5, |lead| lead);
        let (columns, _) = auction_payoffs(offer, theirs, mine, 5, 3, |lead| lead);
        assert_eq!((rows.len(), columns.len()), (8, 12));
        let value =
            |values: [f64; 2], block: Block| if block == offer.a { values[0] } else { values[1] };
        for (i, &(my_block, my_bet)) in rows.iter().enumerate() {
            for (j, &(their_block, their_bet)) in columns.iter().enumerate() {
                let bets = BySide::new(
                    Bet { block: my_block, chips: my_bet },
                    Bet { block: their_block, chips: their_bet },
                );
                let lead = |first_wins: bool| {
                    let awards = resolve_auction(offer, bets, || first_wins);
                    value(mine, awards.first.block)
                        - value(theirs, awards.second.block)
                        - CHIP_POINTS * f64::from(awards.first.paid)
                        + CHIP_POINTS * f64::from(awards.second.paid)
                };
                let expected = 0.5 * (lead(true) + lead(false));
                assert!(
                    (payoff[i][j] - expected).abs() < 1e-12,
                    "{:?} {:?}",
                    bets.first,
                    bets[Side::Second]
                );
            }
        }
    }

    #[test]
    fn sampled_futures_draw_as_the_judge() {
        let mut rng = GameRng::new(11);
        let futures = sample_futures(&Params::LARGE, 10, 2000, &mut rng);
        let mut seen = [0u32; 21];
        let mut lucky = 0;
        for future in &futures {
            assert_eq!(future.rounds.len(), 10);
            for &(a, b, l) in &future.rounds {
                assert_ne!(a, b);
                seen[a.index()] += 1;
                seen[b.index()] += 1;
                lucky += u32::from(l);
            }
        }
        // 20,000 offers: each block in 2/21 of them, the better had 80%.
        for count in seen {
            assert!((count as f64 - 40_000.0 / 21.0).abs() < 150.0, "{seen:?}");
        }
        assert!((f64::from(lucky) / 20_000.0 - PREFERRED_SHARE).abs() < 0.01);
    }

    #[test]
    fn rollouts_play_the_future_greedily_to_the_exact_score() {
        // The same rollout replayed with the rules' own placements and
        // scoring: each block of the offer put where the value function
        // likes it best, the better or the worse one had as the future says.
        let planner = Planner::new(&Params::LARGE, Weights::DEFAULT);
        let evaluator = &planner.evaluator;
        let mut rng = GameRng::new(5);
        let start: crate::rules::Board =
            "##..#../##..#../....###/##...../##..##./....##./#......".parse().unwrap();
        for future in sample_futures(&Params::LARGE, 4, 20, &mut rng) {
            let mut board = start;
            for (step, &(a, b, lucky)) in future.rounds.iter().enumerate() {
                let after = 4 - step as u32 - 1;
                let best = |block: Block| {
                    let mut best = (evaluator.value(board.filled(), after), 0u64);
                    for mask in board.placements(block) {
                        let v = evaluator.value(board.filled() | mask, after);
                        if v > best.0 {
                            best = (v, mask);
                        }
                    }
                    best
                };
                let (va, vb) = (best(a), best(b));
                let (better, worse) = if va.0 >= vb.0 { (va, vb) } else { (vb, va) };
                board = board.with(if lucky { better.1 } else { worse.1 });
            }
            let (value, _) = planner.rollout(start.filled(), 4, &future, 4);
            assert_eq!(value, f64::from(board.points()));
            // Cut before any round is played: the value function alone.
            let (cut, _) = planner.rollout(start.filled(), 4, &future, 0);
            assert_eq!(cut, evaluator.value(start.filled(), 4));
        }
    }

    #[test]
    fn normal_cdf_matches_the_tables() {
        // Standard normal table values.
        let table = [
            (0.0, 0.5),
            (0.5, 0.691_462_461),
            (1.0, 0.841_344_746),
            (1.96, 0.975_002_105),
            (-1.0, 0.158_655_254),
            (-2.5, 0.006_209_665),
            (3.0, 0.998_650_102),
        ];
        for (x, p) in table {
            assert!((normal_cdf(x) - p).abs() < 2e-7, "{x}: {} vs {p}", normal_cdf(x));
        }
        // The last round is decided exactly, a draw counting half.
        assert_eq!(win_chance(0.5, 0), 1.0);
        assert_eq!(win_chance(0.0, 0), 0.5);
        assert_eq!(win_chance(-0.5, 0), 0.0);
        assert!(win_chance(3.0, 1) > 0.5 && win_chance(3.0, 5) < win_chance(3.0, 1));
    }

    #[test]
    fn request_shares_spend_the_clock_by_weight() {
        // Spending each request's share of what is left spends everything
        // by the last searching request, each request in proportion to
        // (rounds after + 1)^2.
        let rounds = 12;
        let mut left = 1.0;
        let mut spent = Vec::new();
        for round in 0..rounds {
            for phase in 0..2 {
                let spend = left * request_share(rounds, round, phase);
                spent.push(spend);
                left -= spend;
            }
        }
        assert!(left.abs() < 1e-12, "{left}");
        let total: f64 = (1..rounds).map(|after| 2.0 * f64::from(after + 1).powi(2)).sum();
        for (i, spend) in spent.iter().enumerate() {
            let after = rounds - (i as u32 / 2) - 1;
            let expected = if after == 0 { 0.0 } else { f64::from(after + 1).powi(2) / total };
            assert!((spend - expected).abs() < 1e-12, "request {i}: {spend} vs {expected}");
        }
    }

    #[test]
    fn symmetric_placements_are_ranked_once() {
        let planner = Planner::new(&Params::LARGE, Weights::DEFAULT);
        // The 49 cells of the empty board fall in 10 classes under the
        // square's 8 symmetries; the pass is the 11th candidate.
        assert_eq!(planner.rank(0, Block::I1, 5).candidates.len(), 11);
        // A corner filled leaves the diagonal reflection: 28 classes of
        // cells, the corner one of them.
        assert_eq!(planner.rank(1, Block::I1, 5).candidates.len(), 27 + 1);
        // No symmetry: every placement is its own class.
        let lopsided = 0b11 | 1 << (8 * 3);
        let all = planner.evaluator.geometry.placements(lopsided, Block::L4).count();
        assert_eq!(planner.rank(lopsided, Block::L4, 5).candidates.len(), all + 1);
    }

    #[test]
    fn the_last_round_takes_the_most_points() {
        let planner = Planner::new(&Params::LARGE, Weights::DEFAULT);
        // A 6x6 square short of its last cell: the I1 there gives 13 more
        // points than anywhere else.
        let board: crate::rules::Board =
            "######./######./######./######./######./#####../.......".parse().unwrap();
        let ranking = planner.rank(board.filled(), Block::I1, 0);
        assert_eq!(ranking.best.1, 1 << (5 * 8 + 5));
        assert_eq!(ranking.best.0, f64::from(board.filled_count() + 1 + 36));
    }

    #[test]
    fn the_declared_defaults_are_strong() {
        assert_eq!(Features::from_params(&[]), Features::ALL);
        let defaults: Vec<f64> = STRONG_PARAMS.iter().map(|p| p.default).collect();
        assert_eq!(Features::from_params(&defaults), Features::ALL);
        let hand = Features::from_params(&[0.0, 32.0]);
        assert!(!hand.fitted && hand.futures_count == 32 && hand.refined == 6);
    }

    #[test]
    fn the_value_is_its_terms_hand_set_or_fitted() {
        let mut evaluator = eval::Evaluator::new(&Params::LARGE, Weights::DEFAULT);
        let board: crate::rules::Board =
            "###..../###..../###..../......./......./......./.......".parse().unwrap();
        for rounds in 1..12 {
            let t = evaluator.terms(board.filled(), rounds);
            assert_eq!(t[0], 1.0);
            assert_eq!(t[1], 9.0);
            // The 3x3 square filled now.
            assert_eq!(t[5], 9.0);
            let hand = t[1] + t[2] + t[3] - Weights::DEFAULT.edge * t[4];
            assert!((evaluator.value(board.filled(), rounds) - hand).abs() < 1e-9);
        }
        evaluator.fit = Some(eval::FITTED.to_vec());
        for rounds in 1..12 {
            let t = evaluator.terms(board.filled(), rounds);
            let fitted: f64 = eval::FITTED[rounds as usize].iter().zip(t).map(|(w, x)| w * x).sum();
            assert!((evaluator.value(board.filled(), rounds) - fitted).abs() < 1e-9);
        }
        assert_eq!(evaluator.value(board.filled(), 0), 9.0 + 9.0);
    }
}
