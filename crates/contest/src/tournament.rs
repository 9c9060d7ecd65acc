//! NYPC's evaluations, as its rules page states them: Swiss tournaments,
//! round robins ("full leagues") and the staged finals. Pure functions of
//! the participants (with their seeds) and the games played so far; the
//! runner turns their pairings into games and feeds the results back.
//!
//! Where the rules are silent, the choices are ours and stated here:
//! - A Swiss round between two participants is `games` games (default 2),
//!   the seats alternating from game to game; the round's score of each is
//!   its points in those games (win 1, draw ½, loss or fault 0).
//! - A bye (odd number of participants) scores the round as won: the full
//!   `games` points, a round won, and no opponent (nothing added to the
//!   opponents' sums).
//! - "Opponent's score" in the weighted tie-breaker is the opponent's total
//!   score, as in the unweighted one.
//! - Finals: a stage's cut (its last place that goes on against the first
//!   that does not, or the final's two places) is separated when a one-sided
//!   z-test of the two participants' mean points per game rejects equality at
//!   the 5% level (z ≥ 1.645); otherwise the whole stage plays one more cycle
//!   of its round robin, up to a cap.

use std::cmp::Ordering;
use std::collections::HashMap;

/// A participant of an evaluation: an id of the caller's and its seed (1 is
/// the smallest seed: the best rank of the previous evaluation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seeded {
    pub id: i64,
    pub seed: usize,
}

/// One pairing of a Swiss round: `a` plays first in the round's first game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub a: i64,
    pub b: i64,
}

/// A Swiss round as it was played: its pairings with each side's points,
/// and its bye.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SwissRound {
    /// `(a, b, a's points, b's points)`.
    pub games: Vec<(i64, i64, f64, f64)>,
    pub bye: Option<i64>,
}

/// The pairings of the next Swiss round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoundPlan {
    pub pairings: Vec<Pairing>,
    pub bye: Option<i64>,
}

/// Each participant's total score over `rounds`; `bye_points` for a bye.
fn totals(players: &[Seeded], rounds: &[SwissRound], bye_points: f64) -> HashMap<i64, f64> {
    let mut total: HashMap<i64, f64> = players.iter().map(|p| (p.id, 0.0)).collect();
    for round in rounds {
        for &(a, b, pa, pb) in &round.games {
            *total.entry(a).or_default() += pa;
            *total.entry(b).or_default() += pb;
        }
        if let Some(bye) = round.bye {
            *total.entry(bye).or_default() += bye_points;
        }
    }
    total
}

/// The next round of a Swiss tournament, by NYPC's rules:
///
/// 1. With an odd number of participants, the bye goes to one who has not
///    had one, the lowest score first, then the smallest seed.
/// 2. The others are taken from the highest score down, and within a score
///    the largest seed first; each is matched, where possible, with an
///    opponent it has not met, preferring the highest score, then the
///    largest seed. When everyone left has been met, the same preference
///    picks among them.
#[must_use]
pub fn swiss_round(players: &[Seeded], rounds: &[SwissRound], games: usize) -> RoundPlan {
    let total = totals(players, rounds, games as f64);
    let score = |id: i64| total.get(&id).copied().unwrap_or(0.0);
    let mut plan = RoundPlan::default();
    let mut pool: Vec<Seeded> = players.to_vec();
    if pool.len() % 2 == 1 {
        let had_bye = |id: i64| rounds.iter().any(|r| r.bye == Some(id));
        let fresh: Vec<&Seeded> = pool.iter().filter(|p| !had_bye(p.id)).collect();
        let candidates = if fresh.is_empty() { pool.iter().collect() } else { fresh };
        let bye = candidates
            .into_iter()
            .min_by(|x, y| by_score(score(x.id), score(y.id)).then(x.seed.cmp(&y.seed)))
            .map(|p| p.id);
        plan.bye = bye;
        pool.retain(|p| Some(p.id) != bye);
    }
    let met = |x: i64, y: i64| {
        rounds.iter().flat_map(|r| &r.games).any(|&(a, b, ..)| (a, b) == (x, y) || (a, b) == (y, x))
    };
    // Highest score first, then the largest seed.
    let preference =
        |x: &Seeded, y: &Seeded| by_score(score(y.id), score(x.id)).then(y.seed.cmp(&x.seed));
    pool.sort_by(preference);
    while !pool.is_empty() {
        let p = pool.remove(0);
        let fresh = pool.iter().position(|q| !met(p.id, q.id));
        let index = fresh.unwrap_or(0);
        if index >= pool.len() {
            break; // p alone: cannot happen with an even pool
        }
        let q = pool.remove(index);
        plan.pairings.push(Pairing { a: p.id, b: q.id });
    }
    plan
}

fn by_score(x: f64, y: f64) -> Ordering {
    x.partial_cmp(&y).unwrap_or(Ordering::Equal)
}

/// A participant's line in a Swiss tournament's standings.
#[derive(Clone, Debug, PartialEq)]
pub struct SwissStanding {
    pub id: i64,
    pub seed: usize,
    pub score: f64,
    /// Rounds in which it scored more than its opponent (a bye counts).
    pub rounds_won: usize,
    /// The sum of its opponents' total scores.
    pub opponents: f64,
    /// Σ its score in round i × (R − i + 1), rounds numbered from 1.
    pub weighted: f64,
    /// Σ its round-i opponent's total score × (R − i + 1).
    pub weighted_opponents: f64,
}

/// The standings of a Swiss tournament, ranked by NYPC's rules: total
/// score, then rounds won, the opponents' scores, the round-weighted own
/// score, the round-weighted opponents' scores, and then the smaller seed.
#[must_use]
pub fn swiss_standings(
    players: &[Seeded],
    rounds: &[SwissRound],
    games: usize,
) -> Vec<SwissStanding> {
    let total = totals(players, rounds, games as f64);
    let count = rounds.len();
    let mut rows: Vec<SwissStanding> = players
        .iter()
        .map(|p| {
            let mut row = SwissStanding {
                id: p.id,
                seed: p.seed,
                score: total[&p.id],
                rounds_won: 0,
                opponents: 0.0,
                weighted: 0.0,
                weighted_opponents: 0.0,
            };
            for (i, round) in rounds.iter().enumerate() {
                let weight = (count - i) as f64;
                if round.bye == Some(p.id) {
                    row.rounds_won += 1;
                    row.weighted += games as f64 * weight;
                    continue;
                }
                for &(a, b, pa, pb) in &round.games {
                    let (mine, theirs, opponent) = match p.id {
                        id if id == a => (pa, pb, b),
                        id if id == b => (pb, pa, a),
                        _ => continue,
                    };
                    if mine > theirs {
                        row.rounds_won += 1;
                    }
                    let opponent_total = total.get(&opponent).copied().unwrap_or(0.0);
                    row.opponents += opponent_total;
                    row.weighted += mine * weight;
                    row.weighted_opponents += opponent_total * weight;
                }
            }
            row
        })
        .collect();
    rows.sort_by(|x, y| {
        by_score(y.score, x.score)
            .then(y.rounds_won.cmp(&x.rounds_won))
            .then(by_score(y.opponents, x.opponents))
            .then(by_score(y.weighted, x.weighted))
            .then(by_score(y.weighted_opponents, x.weighted_opponents))
            .then(x.seed.cmp(&y.seed))
    });
    rows
}

/// One game of a round robin: `first` plays first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixture {
    pub first: i64,
    pub second: i64,
}

/// Every pair plays `games` games, the seats alternating (the smaller seed
/// plays first in the pair's first game).
#[must_use]
pub fn round_robin(players: &[Seeded], games: usize) -> Vec<Fixture> {
    let mut sorted = players.to_vec();
    sorted.sort_by_key(|p| p.seed);
    let mut fixtures = Vec::new();
    for (i, x) in sorted.iter().enumerate() {
        for y in &sorted[i + 1..] {
            for k in 0..games {
                let (first, second) = if k % 2 == 0 { (x.id, y.id) } else { (y.id, x.id) };
                fixtures.push(Fixture { first, second });
            }
        }
    }
    fixtures
}

/// A participant's line in a round robin's standings.
#[derive(Clone, Debug, PartialEq)]
pub struct RobinStanding {
    pub id: i64,
    pub seed: usize,
    pub points: f64,
    pub games: usize,
    /// Sonneborn–Berger: Σ over its games of its points × the opponent's total.
    pub sonneborn_berger: f64,
}

/// A played game: `(first, second, first's points, second's points)`.
pub type Result4 = (i64, i64, f64, f64);

/// The standings of a round robin: points, then Sonneborn–Berger, then the
/// smaller seed.
#[must_use]
pub fn robin_standings(players: &[Seeded], games: &[Result4]) -> Vec<RobinStanding> {
    let mut points: HashMap<i64, f64> = players.iter().map(|p| (p.id, 0.0)).collect();
    for &(a, b, pa, pb) in games {
        *points.entry(a).or_default() += pa;
        *points.entry(b).or_default() += pb;
    }
    let mut rows: Vec<RobinStanding> = players
        .iter()
        .map(|p| {
            let mut row = RobinStanding {
                id: p.id,
                seed: p.seed,
                points: points[&p.id],
                games: 0,
                sonneborn_berger: 0.0,
            };
            for &(a, b, pa, pb) in games {
                let (mine, opponent) = match p.id {
                    id if id == a => (pa, b),
                    id if id == b => (pb, a),
                    _ => continue,
                };
                row.games += 1;
                row.sonneborn_berger += mine * points.get(&opponent).copied().unwrap_or(0.0);
            }
            row
        })
        .collect();
    rows.sort_by(|x, y| {
        by_score(y.points, x.points)
            .then(by_score(y.sonneborn_berger, x.sonneborn_berger))
            .then(x.seed.cmp(&y.seed))
    });
    rows
}

/// The one-sided z-statistic of "`a` scores more per game than `b`" from
/// their points in each of their games (`None`: too few games to tell).
#[must_use]
pub fn separation_z(a: &[f64], b: &[f64]) -> Option<f64> {
    if a.len() < 2 || b.len() < 2 {
        return None;
    }
    let stats = |x: &[f64]| {
        let n = x.len() as f64;
        let mean = x.iter().sum::<f64>() / n;
        let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
        (mean, var / n)
    };
    let ((ma, va), (mb, vb)) = (stats(a), stats(b));
    let se = (va + vb).sqrt();
    if se == 0.0 {
        return Some(match by_score(ma, mb) {
            Ordering::Greater => f64::INFINITY,
            Ordering::Less => f64::NEG_INFINITY,
            Ordering::Equal => 0.0,
        });
    }
    Some((ma - mb) / se)
}

/// z at which a one-sided test rejects equality at the 5% level.
pub const Z_5_PERCENT: f64 = 1.644_853_626_951_472_2;

/// Whether the places on either side of a cut are separated: the last
/// participant that goes on (`above`) against the first that does not.
#[must_use]
pub fn separated(above: &[f64], below: &[f64]) -> bool {
    separation_z(above, below).is_some_and(|z| z >= Z_5_PERCENT)
}

/// Each participant's points in each of its games, in game order.
#[must_use]
pub fn points_per_game(games: &[Result4]) -> HashMap<i64, Vec<f64>> {
    let mut per: HashMap<i64, Vec<f64>> = HashMap::new();
    for &(a, b, pa, pb) in games {
        per.entry(a).or_default().push(pa);
        per.entry(b).or_default().push(pb);
    }
    per
}

/// The staged finals' stages: everyone, then the top 10, 5 and 2.
pub const FINAL_STAGES: [usize; 3] = [10, 5, 2];

/// What a finals stage needs next, given its games so far.
#[derive(Clone, Debug, PartialEq)]
pub enum StageStep {
    /// Play one (more) cycle of the stage's round robin.
    Cycle,
    /// The stage is decided: its standings, and who goes on (the top `cut`).
    Done { standings: Vec<RobinStanding>, advancing: Vec<i64> },
}

/// Decides a finals stage of `players` whose games so far are `games`
/// (`cycles` complete cycles of `per_pair` games per pair), `cut` going on
/// (the last stage: 1, the winner). The cut is tested for separation after
/// every cycle; `max_cycles` ends the extra play, the order then standing.
#[must_use]
pub fn finals_stage(
    players: &[Seeded],
    games: &[Result4],
    cycles: usize,
    cut: usize,
    max_cycles: usize,
) -> StageStep {
    if cycles == 0 {
        return StageStep::Cycle;
    }
    let standings = robin_standings(players, games);
    if cut < standings.len() && cycles < max_cycles {
        let per = points_per_game(games);
        let empty = Vec::new();
        let above = per.get(&standings[cut - 1].id).unwrap_or(&empty);
        let below = per.get(&standings[cut].id).unwrap_or(&empty);
        if !separated(above, below) {
            return StageStep::Cycle;
        }
    }
    let advancing = standings.iter().take(cut).map(|s| s.id).collect();
    StageStep::Done { standings, advancing }
}

/// The size of the stage after one of `size` participants: the next of
/// 10, 5, 2 below it, then 1 (the winner).
#[must_use]
pub fn next_stage_size(size: usize) -> usize {
    FINAL_STAGES.into_iter().find(|&s| s < size).unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seeded(n: usize) -> Vec<Seeded> {
        // Ids 101.. with seeds 1..
        (1..=n).map(|seed| Seeded { id: 100 + seed as i64, seed }).collect()
    }

    fn pairs(plan: &RoundPlan) -> Vec<(i64, i64)> {
        plan.pairings.iter().map(|p| (p.a, p.b)).collect()
    }

    /// Round 1, four participants, all on 0: taken largest seed first (104),
    /// whose opponent is the highest score then the largest seed among the
    /// rest (103); then 102 with 101.
    #[test]
    fn first_round_pairs_the_largest_seeds_together() {
        let plan = swiss_round(&seeded(4), &[], 2);
        assert_eq!(plan.bye, None);
        assert_eq!(pairs(&plan), vec![(104, 103), (102, 101)]);
    }

    /// Five participants: the bye goes to the lowest score among those
    /// without one, then the smallest seed: round 1, everyone on 0 → seed 1
    /// (101). Round 2: 101 had it; lowest scores are 0 (the losers 104 and
    /// 102 of round 1) → the smaller seed, 102.
    #[test]
    fn byes_go_to_the_lowest_score_then_the_smallest_seed_and_never_twice() {
        let players = seeded(5);
        let plan = swiss_round(&players, &[], 2);
        assert_eq!(plan.bye, Some(101));
        // 105, 104, 103, 102 on 0: 105–104, 103–102.
        assert_eq!(pairs(&plan), vec![(105, 104), (103, 102)]);
        // 105 beats 104 2–0; 103 beats 102 2–0. Scores: 101 2 (bye), 105 2,
        // 103 2, 104 0, 102 0.
        let round1 =
            SwissRound { games: vec![(105, 104, 2.0, 0.0), (103, 102, 2.0, 0.0)], bye: Some(101) };
        let plan = swiss_round(&players, &[round1], 2);
        assert_eq!(plan.bye, Some(102));
        // On 2: 105, 103, 101 (largest seed first). 105 takes the highest
        // score it has not met: 103 (on 2, larger seed than 101). Then 101
        // on 2 with 104 on 0, the only one left.
        assert_eq!(pairs(&plan), vec![(105, 103), (101, 104)]);
    }

    /// Four participants after three rounds in which everyone met 3 others:
    /// a rematch is forced, and the preference (highest score, then largest
    /// seed) picks among those met.
    #[test]
    fn forced_rematches_follow_the_same_preference() {
        let players = seeded(4);
        let rounds = vec![
            SwissRound { games: vec![(104, 103, 2.0, 0.0), (102, 101, 1.0, 1.0)], bye: None },
            SwissRound { games: vec![(104, 102, 2.0, 0.0), (101, 103, 2.0, 0.0)], bye: None },
            SwissRound { games: vec![(104, 101, 0.0, 2.0), (102, 103, 1.0, 1.0)], bye: None },
        ];
        // Totals: 104 4, 101 5, 102 2, 103 1.
        let plan = swiss_round(&players, &rounds, 2);
        // Order: 101 (5), 104 (4), 102 (2), 103 (1). 101 has met all: it
        // takes the highest score, 104. Then 102 and 103.
        assert_eq!(pairs(&plan), vec![(101, 104), (102, 103)]);
    }

    /// Avoiding a rematch beats preferring the highest score.
    #[test]
    fn an_opponent_not_met_is_preferred_to_a_higher_score() {
        let players = seeded(4);
        let rounds =
            vec![SwissRound { games: vec![(104, 103, 2.0, 0.0), (102, 101, 2.0, 0.0)], bye: None }];
        // Totals 104 2, 102 2, 103 0, 101 0. Order: 104, 102 (on 2, larger
        // seed first), 103, 101. 104 meets 102 (not met, highest score);
        // then 103 meets 101.
        assert_eq!(pairs(&swiss_round(&players, &rounds, 2)), vec![(104, 102), (103, 101)]);
        // After a second round in which 104 met 102: 101 is the one left
        // that 104 has not met, though 102 has the higher score.
        let rounds = vec![
            SwissRound { games: vec![(104, 103, 2.0, 0.0), (102, 101, 2.0, 0.0)], bye: None },
            SwissRound { games: vec![(104, 102, 1.0, 1.0), (103, 101, 1.0, 1.0)], bye: None },
        ];
        // Totals 104 3, 102 3, 103 1, 101 1. 104 has met 103 and 102: it
        // takes 101. Then 102 and 103 (met in no round: fresh).
        assert_eq!(pairs(&swiss_round(&players, &rounds, 2)), vec![(104, 101), (102, 103)]);
    }

    /// Tie-breaks worked by hand, with equal scores at every level:
    /// four players, two rounds of 2 games.
    #[test]
    fn swiss_tie_breaks_in_nypcs_order() {
        let players = seeded(4);
        let rounds = vec![
            // Round 1: 101 beats 102 1.5–0.5; 103 and 104 draw 1–1.
            SwissRound { games: vec![(101, 102, 1.5, 0.5), (103, 104, 1.0, 1.0)], bye: None },
            // Round 2: 102 beats 103 2–0; 104 beats 101 1.5–0.5.
            SwissRound { games: vec![(102, 103, 2.0, 0.0), (104, 101, 1.5, 0.5)], bye: None },
        ];
        // Totals: 101 2.0, 102 2.5, 103 1.0, 104 2.5.
        // Rounds won: 102 1 (round 2), 104 1 (round 2); 101 1; 103 0.
        // Opponents' sums: 102: 101 + 103 = 3.0; 104: 103 + 101 = 3.0.
        // Weighted own (R = 2; weights 2, 1): 102: 0.5·2 + 2·1 = 3.0;
        // 104: 1·2 + 1.5·1 = 3.5 → 104 above 102.
        let rows = swiss_standings(&players, &rounds, 2);
        let order: Vec<i64> = rows.iter().map(|r| r.id).collect();
        assert_eq!(order, vec![104, 102, 101, 103]);
        let r104 = &rows[0];
        assert_eq!((r104.score, r104.rounds_won, r104.opponents), (2.5, 1, 3.0));
        assert_eq!(r104.weighted, 3.5);
        // Weighted opponents of 104: 103 (1.0)·2 + 101 (2.0)·1 = 4.0.
        assert_eq!(r104.weighted_opponents, 4.0);
        let r101 = &rows[2];
        // 101: opponents 102 (2.5) + 104 (2.5) = 5.0; weighted 1.5·2 + 0.5 = 3.5.
        assert_eq!(
            (r101.score, r101.rounds_won, r101.opponents, r101.weighted),
            (2.0, 1, 5.0, 3.5)
        );
    }

    /// Everything equal down to the seed: the smaller seed ranks first; a
    /// bye is a round won with full points and no opponent.
    #[test]
    fn equal_in_everything_the_smaller_seed_ranks_first() {
        let players = seeded(3);
        let rounds = vec![SwissRound { games: vec![(103, 102, 1.0, 1.0)], bye: Some(101) }];
        let rows = swiss_standings(&players, &rounds, 2);
        assert_eq!(rows[0].id, 101);
        assert_eq!((rows[0].score, rows[0].rounds_won, rows[0].opponents), (2.0, 1, 0.0));
        // 102 and 103: 1.0 each, no round won, opponents 1.0 each, weighted
        // 1.0 each, weighted opponents 1.0 each: seed 2 before seed 3.
        assert_eq!(rows[1].id, 102);
        assert_eq!(rows[2].id, 103);
    }

    #[test]
    fn a_round_robin_plays_every_pair_with_alternating_seats() {
        let fixtures = round_robin(&seeded(3), 2);
        let got: Vec<(i64, i64)> = fixtures.iter().map(|f| (f.first, f.second)).collect();
        assert_eq!(
            got,
            vec![(101, 102), (102, 101), (101, 103), (103, 101), (102, 103), (103, 102)]
        );
    }

    /// Sonneborn–Berger by hand. Three players, one game per pair:
    /// 101 beats 102, 102 beats 103, 103 beats 101: 1 point each; a fourth
    /// game, 101–103 drawn, makes 101 1.5, 103 1.5, 102 1.
    #[test]
    fn sonneborn_berger_breaks_equal_points() {
        let players = seeded(3);
        let games = [
            (101, 102, 1.0, 0.0),
            (102, 103, 1.0, 0.0),
            (103, 101, 1.0, 0.0),
            (101, 103, 0.5, 0.5),
        ];
        let rows = robin_standings(&players, &games);
        // SB 101: beat 102 (1·1) + drew 103 (0.5·1.5) = 1.75.
        // SB 103: beat 101 (1·1.5) + drew 101 (0.5·1.5) = 2.25.
        assert_eq!(rows[0].id, 103);
        assert_eq!(rows[0].sonneborn_berger, 2.25);
        assert_eq!(rows[1].id, 101);
        assert_eq!(rows[1].sonneborn_berger, 1.75);
        // SB 102: beat 103 (1·1.5) = 1.5.
        assert_eq!((rows[2].id, rows[2].points, rows[2].sonneborn_berger), (102, 1.0, 1.5));
    }

    /// The z-test by hand: a scores 1,1,1,0 (mean 0.75, var 0.25, /4 =
    /// 0.0625); b scores 0,0,1,0 (mean 0.25, same variance): z = 0.5 /
    /// √0.125 = 1.414 < 1.645: not separated. With a 1,1,1,1,1,1,1,0 (mean
    /// 0.875, var 0.125, /8) and b 0,0,0,0,0,0,0,1 (the same): z = 0.75 /
    /// √(0.03125) = 4.24: separated.
    #[test]
    fn the_significance_rule_by_hand() {
        let z = separation_z(&[1.0, 1.0, 1.0, 0.0], &[0.0, 0.0, 1.0, 0.0]).unwrap();
        assert!((z - 0.5 / 0.125f64.sqrt()).abs() < 1e-12, "{z}");
        assert!(!separated(&[1.0, 1.0, 1.0, 0.0], &[0.0, 0.0, 1.0, 0.0]));
        let a = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0];
        let b = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0];
        let z = separation_z(&a, &b).unwrap();
        assert!((z - 0.75 / 0.03125f64.sqrt()).abs() < 1e-12, "{z}");
        assert!(separated(&a, &b));
        // Around the threshold: mean 0.6 against 0.4 over n games each, z =
        // 0.2 / √(2 · 0.24 · n/(n−1) / n) = 0.2 · √((n−1)/0.48): n = 30 gives
        // 1.555 (not separated), n = 35 gives 1.683 (separated).
        let game = |wins: usize, n: usize| -> Vec<f64> {
            (0..n).map(|i| if i < wins { 1.0 } else { 0.0 }).collect()
        };
        let z = separation_z(&game(18, 30), &game(12, 30)).unwrap();
        assert!((z - 0.2 * (29.0f64 / 0.48).sqrt()).abs() < 1e-12 && z < Z_5_PERCENT, "{z}");
        let z = separation_z(&game(21, 35), &game(14, 35)).unwrap();
        assert!((z - 0.2 * (34.0f64 / 0.48).sqrt()).abs() < 1e-12 && z >= Z_5_PERCENT, "{z}");
    }

    /// A stage whose cut is not separated plays another cycle, exactly
    /// then; one whose cut is separated (or that reached its cap) is done.
    #[test]
    fn finals_stages_play_more_exactly_when_the_cut_is_close() {
        let players = seeded(3);
        assert_eq!(finals_stage(&players, &[], 0, 2, 10), StageStep::Cycle);
        // One cycle of 4 games per pair; cut 2: second place against third.
        let mut games = Vec::new();
        for _ in 0..2 {
            games.push((101, 102, 1.0, 0.0));
            games.push((102, 101, 0.0, 1.0));
            games.push((101, 103, 1.0, 0.0));
            games.push((103, 101, 0.0, 1.0));
            // 102–103: 102 wins 1 of 2, draws 1.
            games.push((102, 103, 1.0, 0.0));
            games.push((103, 102, 0.5, 0.5));
        }
        // 102's points [0,0,1,½,0,0,1,½] (mean 3/8, sample variance 11/56),
        // 103's [0,0,0,½,0,0,0,½] (mean 1/8, variance 3/56): z = (1/4) /
        // √((11/56 + 3/56)/8) = (1/4)/√(1/32) = 1.414 < 1.645.
        let per = points_per_game(&games);
        let z = separation_z(&per[&102], &per[&103]).unwrap();
        assert!((z - 0.25 / (1.0f64 / 32.0).sqrt()).abs() < 1e-12, "{z}");
        assert_eq!(finals_stage(&players, &games, 1, 2, 10), StageStep::Cycle);
        // The cap ends it with the order as it stands.
        match finals_stage(&players, &games, 10, 2, 10) {
            StageStep::Done { advancing, .. } => assert_eq!(advancing, vec![101, 102]),
            other => panic!("{other:?}"),
        }
        // The winner's stage (cut 1): 101 scored 1 in every game, 102 at
        // most 1 in half: separated at once.
        match finals_stage(&players, &games, 1, 1, 10) {
            StageStep::Done { advancing, standings } => {
                assert_eq!(advancing, vec![101]);
                assert_eq!(standings[0].points, 8.0);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn stages_go_ten_five_two_one() {
        assert_eq!(next_stage_size(37), 10);
        assert_eq!(next_stage_size(10), 5);
        assert_eq!(next_stage_size(7), 5);
        assert_eq!(next_stage_size(5), 2);
        assert_eq!(next_stage_size(2), 1);
        assert_eq!(next_stage_size(4), 2);
    }
}
