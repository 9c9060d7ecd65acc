//! The leaderboard: NYPC's Bradley–Terry performance computation (the
//! `nypc-perf` crate: Newton–Raphson with a normal prior, fixed anchors) over
//! every counted game, with the built-in levels fixed at their ratings.
//!
//! The crate works in natural units (`P(i beats j) = σ(βᵢ − βⱼ)`) with a
//! standard normal prior on each free β. We report logistic Elo
//! (`elo = β·400/ln 10`) and centre the prior on the middle of the anchors
//! (a shift of every β, which the likelihood does not see), so that an
//! entry with few games is drawn towards an average level, not towards
//! `random`. The 95% interval of an entry is `±1.96/√(1 + Σⱼ nᵢⱼ pᵢⱼ(1 − pᵢⱼ))`
//! in natural units: the precision of its β given the others — the very
//! denominator of the crate's Newton step.

use std::collections::{BTreeMap, HashSet};
use std::f64::consts::LN_10;

use nypc_perf::{BattleResult, PerfCalc, Rating};
use serde::Serialize;
use versus_core::{Game, GameResult};

use crate::db::{Played, Player, Submission, SubmissionId};
use crate::levels::levels;

const ELO_PER_NATURAL: f64 = 400.0 / LN_10;
const Z95: f64 = 1.959_963_984_540_054;

/// One line of the leaderboard: an entry or a built-in level.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    pub rank: usize,
    /// The participant's name, or `builtin:NAME`.
    pub name: String,
    pub builtin: bool,
    pub submission: Option<SubmissionId>,
    pub language: Option<String>,
    pub elo: f64,
    /// The 95% interval; a level's is its rating (it is fixed).
    pub low: f64,
    pub high: f64,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// Ratings of every player that appears in `results` (and of the anchors).
#[derive(Clone, Debug, Default)]
pub struct Fit {
    pub players: Vec<Player>,
    pub elo: Vec<f64>,
    /// Half the 95% interval, Elo (0 for anchors).
    pub margin: Vec<f64>,
    /// Win, draw, loss counts.
    pub record: Vec<[u64; 3]>,
}

impl Fit {
    #[must_use]
    pub fn of(&self, player: &Player) -> Option<usize> {
        self.players.iter().position(|p| p == player)
    }
}

/// Fits the ratings of `game` from `results`, leaving out games with a
/// submission of `excluded` (hidden ones).
#[must_use]
pub fn fit(game: &dyn Game, results: &[Played], excluded: &HashSet<SubmissionId>) -> Fit {
    let anchors = levels(game);
    let mut index: BTreeMap<Player, usize> = BTreeMap::new();
    let mut players: Vec<Player> = Vec::new();
    for level in anchors {
        index.insert(Player::Builtin(level.name.to_owned()), players.len());
        players.push(Player::Builtin(level.name.to_owned()));
    }
    let mut record: Vec<[u64; 3]> = vec![[0; 3]; players.len()];
    // Points of i against j, by unordered pair (i < j): (wij, wji).
    let mut pairs: BTreeMap<(usize, usize), (f64, f64)> = BTreeMap::new();
    for played in results {
        let both = [&played.first, &played.second];
        if both.iter().any(|p| p.submission().is_some_and(|id| excluded.contains(&id))) {
            continue;
        }
        let mut ids = [0; 2];
        for (k, player) in both.into_iter().enumerate() {
            ids[k] = *index.entry(player.clone()).or_insert_with(|| {
                players.push(player.clone());
                record.push([0; 3]);
                players.len() - 1
            });
        }
        let [i, j] = ids;
        if i == j {
            continue;
        }
        let first_points = match played.result {
            GameResult::FirstWins => 1.0,
            GameResult::Draw => 0.5,
            GameResult::SecondWins => 0.0,
        };
        let (a, b) = if i < j { (i, j) } else { (j, i) };
        let points_a = if a == i { first_points } else { 1.0 - first_points };
        let entry = pairs.entry((a, b)).or_insert((0.0, 0.0));
        entry.0 += points_a;
        entry.1 += 1.0 - points_a;
        let (wi, wj) = match played.result {
            GameResult::FirstWins => (0, 2),
            GameResult::Draw => (1, 1),
            GameResult::SecondWins => (2, 0),
        };
        record[i][wi] += 1;
        record[j][wj] += 1;
    }

    let centre = anchors.iter().map(|l| l.elo).sum::<f64>() / anchors.len() as f64;
    let mut perf: Vec<Rating> = (0..players.len())
        .map(|k| match anchors.get(k) {
            Some(level) => Rating::new_fixed((level.elo - centre) / ELO_PER_NATURAL),
            None => Rating::new(0.0),
        })
        .collect();
    let battles: Vec<BattleResult> =
        pairs.iter().map(|(&(i, j), &(wij, wji))| BattleResult { i, j, wij, wji }).collect();
    // Not converging within the crate's 100 steps leaves the last iterate,
    // which is what NYPC publishes in that case too.
    let _ = PerfCalc::new().max_iters(200).epsilon(1e-9).run(&mut perf, &battles);

    let mut information = vec![1.0; players.len()];
    for battle in &battles {
        let p = 1.0 / (1.0 + (perf[battle.j].value - perf[battle.i].value).exp());
        let n = battle.wij + battle.wji;
        information[battle.i] += n * p * (1.0 - p);
        information[battle.j] += n * p * (1.0 - p);
    }
    let elo = perf.iter().map(|r| r.value * ELO_PER_NATURAL + centre).collect();
    let margin = (0..players.len())
        .map(|k| if perf[k].fixed { 0.0 } else { Z95 / information[k].sqrt() * ELO_PER_NATURAL })
        .collect();
    Fit { players, elo, margin, record }
}

/// The leaderboard of `game`: its `entries` and built-in levels, best first.
/// `before`, when given, keeps only games finished before it (a frozen board).
#[must_use]
pub fn leaderboard(
    game: &dyn Game,
    entries: &[Submission],
    results: &[Played],
    excluded: &HashSet<SubmissionId>,
    before: Option<i64>,
) -> Vec<Row> {
    let kept: Vec<Played> =
        results.iter().filter(|r| before.is_none_or(|at| r.finished_at_ms < at)).cloned().collect();
    let fit = fit(game, &kept, excluded);
    let row = |k: usize, name: String, builtin: bool, submission: Option<&Submission>| {
        let [wins, draws, losses] = fit.record[k];
        Row {
            rank: 0,
            name,
            builtin,
            submission: submission.map(|s| s.id),
            language: submission.map(|s| s.language.clone()),
            elo: fit.elo[k],
            low: fit.elo[k] - fit.margin[k],
            high: fit.elo[k] + fit.margin[k],
            games: wins + draws + losses,
            wins,
            draws,
            losses,
        }
    };
    let mut rows: Vec<Row> = levels(game)
        .iter()
        .enumerate()
        .map(|(k, level)| row(k, format!("builtin:{}", level.name), true, None))
        .collect();
    for entry in entries {
        // An entry without a counted game yet is not on the board.
        if let Some(k) = fit.of(&Player::Submission(entry.id)) {
            rows.push(row(k, entry.user_name.clone(), false, Some(entry)));
        }
    }
    rows.sort_by(|a, b| b.elo.total_cmp(&a.elo).then(a.name.cmp(&b.name)));
    for (k, row) in rows.iter_mut().enumerate() {
        row.rank = k + 1;
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::MatchKind;

    fn played(first: Player, second: Player, result: GameResult) -> Played {
        Played {
            first,
            second,
            result,
            faults: [false; 2],
            finished_at_ms: 0,
            kind: MatchKind::Rated,
        }
    }

    #[test]
    fn the_crate_gives_nypcs_published_example() {
        // nypc-perf's own example and test values: player 0 beat 1 twice and
        // lost once, beat 2 once; 2 is an anchor at 0.
        let battles = [
            BattleResult { i: 0, j: 1, wij: 2.0, wji: 1.0 },
            BattleResult { i: 0, j: 2, wij: 1.0, wji: 0.0 },
        ];
        let mut perf = [Rating::new(0.0), Rating::new(0.0), Rating::new_fixed(0.0)];
        PerfCalc::new().epsilon(1e-9).run(&mut perf, &battles).unwrap();
        assert!((perf[0].value - 0.473_034_477).abs() < 1e-6, "{}", perf[0].value);
        assert!((perf[1].value + 0.089_136_4).abs() < 1e-6, "{}", perf[1].value);
    }

    #[test]
    fn one_entry_against_one_level_solves_the_hand_equation() {
        // An entry that scores 3 of 4 against `random` (anchored at 0, the
        // prior centred on the anchors' mean c): its β (in the shifted frame)
        // solves β = 3·σ(a−β) − 1·σ(β−a), a = −c/k, by the prior's gradient.
        let game = versus_games::find("domineering").unwrap();
        let me = Player::Submission(SubmissionId(7));
        let random = Player::Builtin("random".into());
        let results = vec![
            played(me.clone(), random.clone(), GameResult::FirstWins),
            played(random.clone(), me.clone(), GameResult::SecondWins),
            played(me.clone(), random.clone(), GameResult::FirstWins),
            played(random.clone(), me.clone(), GameResult::FirstWins),
        ];
        let fit = fit(game, &results, &HashSet::new());
        let k = fit.of(&me).unwrap();
        let centre = levels(game).iter().map(|l| l.elo).sum::<f64>() / 4.0;
        let beta = (fit.elo[k] - centre) / ELO_PER_NATURAL;
        let a = -centre / ELO_PER_NATURAL;
        let sigma = |x: f64| 1.0 / (1.0 + (-x).exp());
        let gradient = 3.0 * sigma(a - beta) - 1.0 * sigma(beta - a) - beta;
        assert!(gradient.abs() < 1e-6, "gradient {gradient} at β {beta}");
        assert_eq!(fit.record[k], [3, 0, 1]);
        // The interval from the hand formula.
        let p = sigma(beta - a);
        let margin = Z95 / (1.0 + 4.0 * p * (1.0 - p)).sqrt() * ELO_PER_NATURAL;
        assert!((fit.margin[k] - margin).abs() < 1e-9);
        // Anchors do not move.
        assert_eq!(fit.elo[0], 0.0);
        assert_eq!(fit.margin[0], 0.0);
    }

    #[test]
    fn a_stronger_record_ranks_higher_and_hidden_games_do_not_count() {
        let game = versus_games::find("bacteria-war").unwrap();
        let a = Player::Submission(SubmissionId(1));
        let b = Player::Submission(SubmissionId(2));
        let greedy = Player::Builtin("greedy".into());
        let mut results = Vec::new();
        for _ in 0..10 {
            results.push(played(a.clone(), greedy.clone(), GameResult::FirstWins));
            results.push(played(greedy.clone(), b.clone(), GameResult::FirstWins));
            results.push(played(a.clone(), b.clone(), GameResult::Draw));
        }
        let none = HashSet::new();
        let fitted = fit(game, &results, &none);
        let (ia, ib) = (fitted.of(&a).unwrap(), fitted.of(&b).unwrap());
        assert!(fitted.elo[ia] > 520.0 && fitted.elo[ib] < 520.0, "{:?}", fitted.elo);
        assert_eq!(fitted.record[ia], [10, 10, 0]);
        let hidden: HashSet<_> = [SubmissionId(2)].into();
        let without = fit(game, &results, &hidden);
        assert!(without.of(&b).is_none());
        assert_eq!(without.record[without.of(&a).unwrap()], [10, 0, 0]);
    }
}
