//! `strong-v1`: the `strong` agent as it was before issue 20, frozen as a
//! reference level (its own value function, planner, time rule and bets;
//! only the exact matrix-game solver is shared). Do not tune this copy: the
//! current `strong` is measured against it.
//!
//! The agent: a value function of the board, a one-round
//! expectimax over the next offer, and bets from the equilibrium of each
//! round's auction.
//!
//! - [`eval`]: the value of a board, its expected final points.
//! - [`Planner`]: every placement of a block (and the pass) ranked by that
//!   value, the best ones then by the expectation over the next offer of the
//!   best reply to it ([`Planner::lookahead`]).
//! - [`matrix`]: an exact solver of zero-sum matrix games; each auction is
//!   one (a block and a bet for each player), with payoffs from both boards'
//!   values and the chips paid, and the agent samples its mixed strategy
//!   with its own seeded generator. The opponent's board (followed from the
//!   `OPP` lines) is valued like its own, its best few placements by the
//!   lookahead; its bets are assumed to stay within what it has been seen
//!   to pay (one chip more once it has paid any).
//!
//! Time: each request that searches (both phases of every round but the
//! last, whose placement is exact) gets an equal share of 75% of the clock
//! left, as work counted in boards evaluated (so the game depends on the
//! seeds and the clock readings only) with a wall-clock deadline as a guard.
//! Each feature was kept after an SPRT against the agent without it (see
//! [`Features`]).

pub mod eval;

use crate::strong::matrix;

use std::time::{Duration, Instant};

use versus_core::{GameRng, ProtocolAgent};

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
}

impl Ranking {
    /// Whether every candidate that matters has been searched.
    #[must_use]
    pub fn done(&self) -> bool {
        self.searched >= self.candidates.len()
    }
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
        Ranking { block, filled, rounds_after, candidates, searched, best }
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
            ranking.searched += 1;
        }
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

/// What a request may spend: an equal share of the clock, less a reserve,
/// for every request left that searches. Gives the work (boards to
/// evaluate) and a deadline at one and a half times the share, and never
/// past a third of what is left, so that a loaded machine, which makes every
/// request run to its deadline, still leaves time for the rest.
fn allowance(tracker: &Tracker, start: Instant, requests_left: u32) -> (u64, Instant) {
    let usable = (tracker.my_time as f64 * 0.75 - 20.0).max(0.0);
    let share_ms = usable / f64::from(requests_left.max(1));
    let work = (share_ms * BOARDS_PER_MS) as u64;
    let deadline_ms = (1.5 * share_ms).min(0.35 * usable);
    (work, start + Duration::from_secs_f64(deadline_ms / 1000.0))
}

/// The features of a strong agent, so versions can be played against
/// each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Rank placements by the lookahead (else by the value function alone).
    pub lookahead: bool,
    /// Bid by the auction's equilibrium (else take the better block for free).
    pub equilibrium_bets: bool,
    /// Limit the opponent's bets in the auction to what it has been seen to pay.
    pub opponent_model: bool,
    /// Value the opponent's blocks by the lookahead of its best few placements.
    pub opponent_lookahead: bool,
}

impl Features {
    pub const ALL: Features = Features {
        lookahead: true,
        equilibrium_bets: true,
        opponent_model: true,
        opponent_lookahead: true,
    };
}

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
}

impl Strong {
    /// Requests still to answer, this one included, that search: both
    /// phases of every round before the last.
    fn requests_left(tracker: &Tracker, phase: u32) -> u32 {
        let searching_rounds =
            tracker.params.rounds.saturating_sub(1).saturating_sub(tracker.round);
        (2 * searching_rounds).saturating_sub(phase)
    }

    /// The value of each block of `offer` on the opponent's board: its best
    /// few placements by the value function, searched by the lookahead
    /// (a few milliseconds at most, so not charged to the request's work).
    fn their_values(&self, tracker: &Tracker, offer: Offer, rounds_after: u32) -> [f64; 2] {
        [offer.a, offer.b].map(|block| {
            let mut ranking = self.planner.rank(tracker.theirs.filled(), block, rounds_after);
            if self.features.opponent_lookahead {
                // The few best placements by the value function, on the
                // scale of this player's own values.
                ranking.candidates.truncate(OPPONENT_CANDIDATES);
                let mut work = u64::MAX;
                let deadline = Instant::now() + Duration::from_secs(1);
                self.planner.improve(&mut ranking, &mut work, deadline);
            }
            ranking.best.0
        })
    }
}

/// The auction as a matrix game: rows are this player's (block, bet), columns
/// the opponent's, entries this player's expected lead in points.
fn auction_payoffs(
    offer: Offer,
    mine: [f64; 2],
    theirs: [f64; 2],
    my_bets: u32,
    their_bets: u32,
) -> (Vec<(Block, u32)>, Vec<Vec<f64>>) {
    let choices = |most: u32| -> Vec<(usize, u32)> {
        (0..2).flat_map(|c| (0..=most).map(move |x| (c, x))).collect()
    };
    let rows = choices(my_bets);
    let columns = choices(their_bets);
    let lead = |my_block: usize, my_paid: u32, their_block: usize, their_paid: u32| {
        mine[my_block]
            - theirs[their_block]
            - CHIP_POINTS * (f64::from(my_paid) - f64::from(their_paid))
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
        let (mut work, deadline) = allowance(tracker, start, Self::requests_left(tracker, 0));
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
        let my_values = [rankings[0].best.0, rankings[1].best.0];
        if !self.features.equilibrium_bets {
            self.pending = rankings;
            let block = if my_values[0] >= my_values[1] { offer.a } else { offer.b };
            return Bet { block, chips: 0 };
        }
        let their_values = self.their_values(tracker, offer, rounds_after);
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
            Some(top) => top + 1,
        };
        let (rows, payoff) = auction_payoffs(
            offer,
            my_values,
            their_values,
            max_bet.min(tracker.chips),
            max_bet.min(tracker.their_chips).min(their_limit),
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
        let (mut work, deadline) = allowance(tracker, start, Self::requests_left(tracker, 1));
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
        let mask = ranking.best.1;
        (mask != 0).then_some(mask)
    }
}

/// The `strong-v1` agent for a game of `params`.
#[must_use]
pub fn strong_v1(params: Params, seed: u64) -> Box<dyn ProtocolAgent> {
    with_features(params, seed, Features::ALL)
}

/// A strong agent with only some of its features.
#[must_use]
pub fn with_features(params: Params, seed: u64, features: Features) -> Box<dyn ProtocolAgent> {
    player(
        params,
        Strong {
            features,
            planner: Planner::new(&params, Weights::DEFAULT),
            rng: GameRng::new(seed),
            pending: Vec::new(),
            their_chips_before: params.chips,
            their_top_bet: None,
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
        let (rows, payoff) = auction_payoffs(offer, mine, theirs, 3, 5);
        let (columns, _) = auction_payoffs(offer, theirs, mine, 5, 3);
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
}
