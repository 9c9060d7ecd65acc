//! Who plays whom, decided from the store's state alone (no clock, no
//! threads), so every rule is unit-tested.
//!
//! - A submission that compiled plays one **gate** game against `random`.
//! - Then **placement**: a colour-swapped pair on one seed against each
//!   built-in level.
//! - Then **rated** games: idle capacity goes to the entry with the fewest
//!   counted games (not the most uncertain: uncertainty-driven seeding gives
//!   most games to bots that keep crashing, as Halite's organisers found),
//!   against an entry or level of nearby rating, as a colour-swapped pair;
//!   no player has more than [`Settings::in_flight`] games queued or running.
//! - After the contest's end, **finals**: the top entries whose 95% intervals
//!   still overlap their neighbour's play on, pair by pair, until separated
//!   or the budget is spent.

use std::collections::HashMap;

use versus_core::{Game, Side};

use crate::db::{Match, MatchKind, NewMatch, Player, SubmissionId};
use crate::levels::levels;
use crate::rating::{Fit, Row};

/// The knobs of matchmaking.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The score against the sample AIs (the gate and placement games, win 1,
    /// draw ½) a submission needs to be eligible as an entry.
    pub eligible_score: f64,
    /// Games (queued or running) any player may have at once.
    pub in_flight: usize,
    /// Rated games kept queued while there is anything to play.
    pub queued: usize,
    /// How many of the top entries play finals.
    pub final_top: usize,
    /// Final games at most, per contest.
    pub final_games: usize,
    /// Games an entry alone in its game plays against the levels, at most
    /// (with nobody to meet, more games only burn the host's CPU).
    pub solo_games: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            eligible_score: 1.0,
            in_flight: 4,
            queued: 4,
            final_top: 8,
            final_games: 200,
            solo_games: 200,
        }
    }
}

/// The gate: one game against `random`, the submission first.
#[must_use]
pub fn gate(game: &dyn Game, submission: SubmissionId, seed: u64) -> NewMatch {
    NewMatch {
        game: game.name().to_owned(),
        kind: MatchKind::Gate,
        first: Player::Submission(submission),
        second: Player::Builtin(levels(game)[0].name.to_owned()),
        seed,
        counted: true,
        requested_by: None,
    }
}

/// The gate's verdict on `submission`: why it is not entered, if it is not.
/// Losing is fine; a fault (crash, time-out, wrong reply, limits) is not.
#[must_use]
pub fn gate_failure(game: &Match, submission: SubmissionId) -> Option<String> {
    let side = game.side_of(submission)?;
    let outcome = game.outcome.as_ref()?;
    outcome.faults[side].as_ref().map(|fault| {
        format!(
            "at the gate against {}: {} ({fault})",
            label(game.player(side.opponent())),
            fault.code()
        )
    })
}

fn label(player: &Player) -> String {
    match player {
        Player::Builtin(name) => format!("builtin:{name}"),
        Player::Submission(id) => format!("submission {}", id.0),
    }
}

/// A colour-swapped pair on one seed.
#[must_use]
pub fn pair(game: &dyn Game, kind: MatchKind, a: &Player, b: &Player, seed: u64) -> [NewMatch; 2] {
    let one = |first: &Player, second: &Player| NewMatch {
        game: game.name().to_owned(),
        kind,
        first: first.clone(),
        second: second.clone(),
        seed,
        counted: kind != MatchKind::Challenge,
        requested_by: None,
    };
    [one(a, b), one(b, a)]
}

/// The seed of the sample-AI games: always the same inputs, as NYPC's.
pub const SAMPLE_SEED: u64 = 2025;

/// NYPC's name for a fault: `TLE`, `WTLE`, `RE`, `WA` (wrong output: a
/// reply that does not parse or breaks the rules), `CE`.
#[must_use]
pub fn nypc_verdict(fault: &versus_core::Fault) -> &'static str {
    use versus_core::Fault;
    match fault {
        Fault::TimeLimit | Fault::Stall => "TLE",
        Fault::WallTimeLimit => "WTLE",
        Fault::Runtime { .. } => "WA",
        Fault::Compile { .. } => "CE",
        Fault::Crash { .. }
        | Fault::OutputFlood { .. }
        | Fault::MemoryLimit
        | Fault::ProcessLimit => "RE",
    }
}

/// A submission's games against the sample AIs (its gate and placement),
/// scored as NYPC's `VS: sample AI`: win 1, draw ½, loss 0, both seats
/// summed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SampleResult {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// The first fault of the submission's, as NYPC names it.
    pub verdict: Option<&'static str>,
}

impl SampleResult {
    #[must_use]
    pub fn score(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// From the finished sample games of `submission` among `games`.
    #[must_use]
    pub fn of(games: &[Match], submission: SubmissionId) -> SampleResult {
        let mut result = SampleResult::default();
        let sample = |m: &&Match| matches!(m.kind, MatchKind::Gate | MatchKind::Placement);
        for game in games.iter().filter(sample) {
            let (Some(side), Some(outcome)) = (game.side_of(submission), &game.outcome) else {
                continue;
            };
            match outcome.result.points(side) {
                p if p > 0.75 => result.wins += 1,
                p if p > 0.25 => result.draws += 1,
                _ => result.losses += 1,
            }
            if result.verdict.is_none() {
                result.verdict = outcome.faults[side].as_ref().map(nypc_verdict);
            }
        }
        result
    }
}

impl std::fmt::Display for SampleResult {
    /// `5.5 wins (5/1/2)`, then the verdict if there was a fault.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} wins ({}/{}/{})", self.score(), self.wins, self.draws, self.losses)?;
        if let Some(verdict) = self.verdict {
            write!(f, ", {verdict}")?;
        }
        Ok(())
    }
}

/// Placement: a pair against each level, seeds `seed`, `seed + 1`, ...
#[must_use]
pub fn placement(game: &dyn Game, submission: SubmissionId, seed: u64) -> Vec<NewMatch> {
    let me = Player::Submission(submission);
    levels(game)
        .iter()
        .enumerate()
        .flat_map(|(k, level)| {
            pair(
                game,
                MatchKind::Placement,
                &me,
                &Player::Builtin(level.name.to_owned()),
                seed.wrapping_add(k as u64),
            )
        })
        .collect()
}

/// Games queued or running, by player.
#[must_use]
pub fn in_flight(pending: &[Match]) -> HashMap<Player, usize> {
    let mut count = HashMap::new();
    for game in pending {
        for side in Side::BOTH {
            *count.entry(game.player(side).clone()).or_insert(0) += 1;
        }
    }
    count
}

/// The next rated pairing among `entries`: the entry with the fewest games
/// that has room, against the nearest-rated entry or level with room (the
/// nearest two, alternating by `turn`, so the same two do not always meet).
#[must_use]
pub fn next_pairing(
    entries: &[SubmissionId],
    fit: &Fit,
    busy: &HashMap<Player, usize>,
    settings: &Settings,
    turn: u64,
) -> Option<(Player, Player)> {
    // Built-in levels run in the judge's process: they are never busy.
    let room = |p: &Player| {
        p.submission().is_none() || busy.get(p).copied().unwrap_or(0) + 2 <= settings.in_flight
    };
    let games = |p: &Player| {
        fit.of(p).map_or(0, |k| fit.record[k].iter().sum::<u64>())
            + busy.get(p).copied().unwrap_or(0) as u64
    };
    let rating = |p: &Player| fit.of(p).map_or(0.0, |k| fit.elo[k]);
    let me = entries
        .iter()
        .map(|&id| Player::Submission(id))
        .filter(|p| room(p))
        .min_by_key(|p| (games(p), p.submission()))?;
    let mut others: Vec<Player> = if entries.len() == 1 {
        // Alone in the contest: the levels are its opponents, for a while.
        if games(&me) >= settings.solo_games {
            return None;
        }
        fit.players.iter().filter(|p| p.submission().is_none()).cloned().collect()
    } else {
        // Others busy: wait for them rather than fill the queue with levels.
        entries.iter().map(|&id| Player::Submission(id)).filter(|p| *p != me && room(p)).collect()
    };
    let mine = rating(&me);
    others.sort_by(|a, b| {
        (rating(a) - mine).abs().total_cmp(&(rating(b) - mine).abs()).then(a.cmp(b))
    });
    let pick = others.get((turn % 2) as usize).or_else(|| others.first())?.clone();
    Some((me, pick))
}

/// Final pairings: adjacent entries among the top `top` whose intervals
/// still overlap.
#[must_use]
pub fn final_pairs(rows: &[Row], top: usize) -> Vec<(SubmissionId, SubmissionId)> {
    let entries: Vec<&Row> = rows.iter().filter(|r| !r.builtin).take(top).collect();
    entries
        .windows(2)
        .filter(|w| w[0].low <= w[1].high)
        .filter_map(|w| Some((w[0].submission?, w[1].submission?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use versus_core::{BySide, Fault, GameResult, Outcome};

    use crate::db::MatchStatus;

    fn domineering() -> &'static dyn Game {
        versus_games::find("domineering").unwrap()
    }

    #[test]
    fn placement_is_a_colour_swapped_pair_on_one_seed_against_each_level() {
        let games = placement(domineering(), SubmissionId(3), 100);
        assert_eq!(games.len(), 8);
        let names: Vec<String> =
            games.iter().map(|g| format!("{:?} {:?} {}", g.first, g.second, g.seed)).collect();
        assert_eq!(names[0], "Submission(SubmissionId(3)) Builtin(\"random\") 100");
        assert_eq!(names[1], "Builtin(\"random\") Submission(SubmissionId(3)) 100");
        assert_eq!(names[7], "Builtin(\"strong\") Submission(SubmissionId(3)) 103");
        assert!(games.iter().all(|g| g.kind == MatchKind::Placement && g.counted));
    }

    fn finished(first: Player, second: Player, faults: BySide<Option<Fault>>) -> Match {
        Match {
            id: crate::db::MatchId(1),
            game: "domineering".into(),
            kind: MatchKind::Gate,
            first,
            second,
            seed: 1,
            status: MatchStatus::Done,
            counted: true,
            requested_by: None,
            created_at_ms: 0,
            finished_at_ms: Some(1),
            outcome: Some(Outcome {
                result: GameResult::SecondWins,
                scores: BySide::new(0.0, 1.0),
                faults,
            }),
        }
    }

    #[test]
    fn the_gate_fails_a_fault_and_passes_a_loss() {
        let me = SubmissionId(5);
        let lost =
            finished(Player::Submission(me), Player::Builtin("random".into()), BySide::default());
        assert_eq!(gate_failure(&lost, me), None);
        let crashed = finished(
            Player::Submission(me),
            Player::Builtin("random".into()),
            BySide::new(Some(Fault::TimeLimit), None),
        );
        let why = gate_failure(&crashed, me).unwrap();
        assert!(why.contains("TLE") && why.contains("builtin:random"), "{why}");
        // The other side's fault is not ours.
        let theirs = finished(
            Player::Builtin("random".into()),
            Player::Submission(me),
            BySide::new(Some(Fault::TimeLimit), None),
        );
        assert_eq!(gate_failure(&theirs, me), None);
    }

    fn fit_of(players: &[(Player, f64, u64)]) -> Fit {
        Fit {
            players: players.iter().map(|p| p.0.clone()).collect(),
            elo: players.iter().map(|p| p.1).collect(),
            margin: vec![50.0; players.len()],
            record: players.iter().map(|p| [p.2, 0, 0]).collect(),
        }
    }

    #[test]
    fn the_entry_with_fewest_games_plays_the_nearest_rating_within_the_cap() {
        let (a, b, c) = (SubmissionId(1), SubmissionId(2), SubmissionId(3));
        let fit = fit_of(&[
            (Player::Builtin("random".into()), 0.0, 0),
            (Player::Submission(a), 500.0, 30),
            (Player::Submission(b), 900.0, 10),
            (Player::Submission(c), 600.0, 40),
        ]);
        let settings = Settings::default();
        let entries = [a, b, c];
        let busy = HashMap::new();
        // b has the fewest games; c (600) is nearer to it than a (500).
        assert_eq!(
            next_pairing(&entries, &fit, &busy, &settings, 0),
            Some((Player::Submission(b), Player::Submission(c)))
        );
        assert_eq!(
            next_pairing(&entries, &fit, &busy, &settings, 1),
            Some((Player::Submission(b), Player::Submission(a)))
        );
        // b is full: a (30 games) goes next, against c, the nearest with room.
        let busy: HashMap<Player, usize> = [(Player::Submission(b), 4)].into();
        assert_eq!(
            next_pairing(&entries, &fit, &busy, &settings, 0),
            Some((Player::Submission(a), Player::Submission(c)))
        );
        // Everybody full: nothing.
        let busy: HashMap<Player, usize> =
            entries.iter().map(|&id| (Player::Submission(id), 3)).collect();
        assert_eq!(next_pairing(&entries, &fit, &busy, &settings, 0), None);
        // Alone: the nearest level, until it has played enough.
        let alone = next_pairing(&[a], &fit, &HashMap::new(), &settings, 0);
        assert_eq!(alone, Some((Player::Submission(a), Player::Builtin("random".into()))));
        let enough = Settings { solo_games: 30, ..settings };
        assert_eq!(next_pairing(&[a], &fit, &HashMap::new(), &enough, 0), None);
        // The others all busy: nothing, not a level.
        let busy: HashMap<Player, usize> =
            [(Player::Submission(b), 4), (Player::Submission(c), 4)].into();
        assert_eq!(next_pairing(&entries, &fit, &busy, &settings, 0), None);
    }

    #[test]
    fn finals_pair_adjacent_entries_whose_intervals_overlap() {
        let row = |id: i64, elo: f64, margin: f64, builtin: bool| Row {
            rank: 0,
            name: String::new(),
            builtin,
            submission: (!builtin).then_some(SubmissionId(id)),
            language: None,
            elo,
            low: elo - margin,
            high: elo + margin,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
        };
        let rows = [
            row(1, 1000.0, 30.0, false),
            row(0, 990.0, 0.0, true),
            row(2, 950.0, 30.0, false),
            row(3, 800.0, 30.0, false),
            row(4, 790.0, 30.0, false),
        ];
        assert_eq!(
            final_pairs(&rows, 8),
            vec![(SubmissionId(1), SubmissionId(2)), (SubmissionId(3), SubmissionId(4))]
        );
        assert_eq!(final_pairs(&rows, 2), vec![(SubmissionId(1), SubmissionId(2))]);
    }
}
