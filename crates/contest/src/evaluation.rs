//! Evaluations an organiser schedules, as NYPC runs them: a Swiss
//! tournament of N rounds (its mid-contest evaluations, e.g. 20 rounds twice
//! a day), a round robin (its final round of the online stage), or the
//! staged finals. The entries at the start are the participants (each
//! participant's final submission), seeded by the previous evaluation's rank
//! of the same game, new participants after them by submission time.
//!
//! Everything is derived from the store: the scheduler thread calls
//! [`advance`], which starts due evaluations and queues the next round (or
//! finals cycle) once the last one is played; the results pages read
//! [`view`]. A host that restarts carries on.

use std::collections::{HashMap, HashSet};

use serde::Serialize;
use versus_core::GameResult;
use versus_sql::{args, Conn, Row, SqlError};

use crate::db::{Db, MatchKind, MatchStatus, NewMatch, Played, Player, SubmissionId};
use crate::rating::fit;
use crate::tournament::{
    finals_stage, next_stage_size, robin_standings, round_robin, swiss_round, swiss_standings,
    Result4, Seeded, StageStep, SwissRound,
};
use crate::{auth, ContestError};

/// The kinds of evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Swiss,
    Robin,
    Finals,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Swiss => "swiss",
            Kind::Robin => "robin",
            Kind::Finals => "finals",
        }
    }

    /// # Errors
    /// A kind that is not `swiss`, `robin` or `finals`.
    pub fn parse(text: &str) -> Result<Kind, ContestError> {
        match text {
            "swiss" => Ok(Kind::Swiss),
            "robin" => Ok(Kind::Robin),
            "finals" => Ok(Kind::Finals),
            other => Err(ContestError::Invalid(format!(
                "unknown evaluation {other:?} (swiss, robin or finals)"
            ))),
        }
    }
}

/// An evaluation to schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub game: String,
    pub kind: Kind,
    /// Swiss rounds (1 for the others).
    pub rounds: u32,
    /// Games per pairing: a Swiss round's, a round robin pair's, a finals
    /// cycle pair's (NYPC's finals: at least 5).
    pub games: u32,
    pub start_at: i64,
    /// Scheduled again this long after its start, once over.
    pub repeat_ms: Option<i64>,
    /// Only the first `top` seeds take part: NYPC's final round robin of the
    /// top 100 of its final Swiss.
    pub top: Option<u32>,
}

/// Finals cycles per stage at most (the extra play of close cuts ends there).
pub const MAX_FINAL_CYCLES: usize = 10;

/// Limits that keep an organiser's typo from queueing a million games.
const MAX_ROUNDS: u32 = 200;
const MAX_GAMES: u32 = 100;

/// One evaluation, as listed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub id: i64,
    pub game: String,
    pub kind: Kind,
    pub rounds: u32,
    pub games: u32,
    pub state: String,
    pub start_at_ms: i64,
    pub repeat_ms: Option<i64>,
    pub top: Option<u32>,
    pub finished_at_ms: Option<i64>,
    pub participants: usize,
}

/// Schedules an evaluation.
///
/// # Errors
/// Out-of-range rounds or games, an unknown game, or the store.
pub fn schedule(db: &mut Db, plan: &Plan) -> Result<i64, ContestError> {
    if versus_games::find(&plan.game).is_none() {
        return Err(ContestError::NotFound(format!("no game {:?}", plan.game)));
    }
    if !(1..=MAX_ROUNDS).contains(&plan.rounds) {
        return Err(ContestError::Invalid(format!("rounds must be 1 to {MAX_ROUNDS}")));
    }
    if !(1..=MAX_GAMES).contains(&plan.games) {
        return Err(ContestError::Invalid(format!("games must be 1 to {MAX_GAMES}")));
    }
    if plan.top.is_some_and(|t| t < 2) {
        return Err(ContestError::Invalid("top must be at least 2".into()));
    }
    if plan.repeat_ms.is_some_and(|r| r < 60_000) {
        return Err(ContestError::Invalid("an evaluation repeats at most once a minute".into()));
    }
    insert(db.sql(), plan)
}

/// Stores `plan` as a scheduled evaluation; its id.
fn insert(conn: &Conn, plan: &Plan) -> Result<i64, ContestError> {
    let rounds = if plan.kind == Kind::Swiss { plan.rounds } else { 1 };
    let row = conn.query_one(
        "INSERT INTO contest_evaluations (game, kind, rounds, games, state, start_at, repeat_ms,
             top, created_at)
         VALUES (?1, ?2, ?3, ?4, 'scheduled', ?5, ?6, ?7, ?8) RETURNING id",
        args![
            &plan.game,
            plan.kind.as_str(),
            rounds,
            plan.games,
            plan.start_at,
            plan.repeat_ms,
            plan.top,
            crate::now_ms()
        ],
    )?;
    Ok(row.get(0)?)
}

/// The evaluations of `game`, newest first.
///
/// # Errors
/// The store.
pub fn list(db: &Db, game: &str) -> Result<Vec<Summary>, ContestError> {
    let rows = db
        .sql()
        .query(&format!("{SUMMARY_SELECT} WHERE e.game = ?1 ORDER BY e.id DESC"), args![game])?;
    rows.iter().map(summary_row).collect()
}

/// The columns [`summary_row`] reads, each evaluation with its count of
/// participants.
const SUMMARY_SELECT: &str = "SELECT e.id, e.game, e.kind, e.rounds, e.games, e.state, e.start_at,
        e.repeat_ms, e.finished_at, e.top,
        (SELECT count(*) FROM contest_evaluation_entries x WHERE x.evaluation = e.id)
    FROM contest_evaluations e";

fn summary_row(r: &Row) -> Result<Summary, ContestError> {
    let kind: String = r.get(2)?;
    Ok(Summary {
        id: r.get(0)?,
        game: r.get(1)?,
        kind: Kind::parse(&kind)
            .map_err(|_| ContestError::Corrupt(format!("evaluation kind {kind:?}")))?,
        rounds: r.get(3)?,
        games: r.get(4)?,
        state: r.get(5)?,
        start_at_ms: r.get(6)?,
        repeat_ms: r.get(7)?,
        finished_at_ms: r.get(8)?,
        top: r.get(9)?,
        participants: r.get(10)?,
    })
}

fn summary(db: &Db, id: i64) -> Result<Option<Summary>, ContestError> {
    let row = db.sql().query_opt(&format!("{SUMMARY_SELECT} WHERE e.id = ?1"), args![id])?;
    row.as_ref().map(summary_row).transpose()
}

/// The participants of an evaluation with their seeds.
fn participants(db: &Db, id: i64) -> Result<Vec<Seeded>, ContestError> {
    let rows = db.sql().query(
        "SELECT submission_id, seed FROM contest_evaluation_entries WHERE evaluation = ?1
         ORDER BY seed",
        args![id],
    )?;
    Ok(rows
        .iter()
        .map(|r| Ok(Seeded { id: r.get(0)?, seed: r.get(1)? }))
        .collect::<Result<_, SqlError>>()?)
}

/// One game of an evaluation as stored.
#[derive(Clone, Debug)]
struct EvalGame {
    round: u32,
    cycle: u32,
    /// `None` for a bye.
    game: Option<(i64, MatchStatus, Option<Result4>)>,
    bye: Option<i64>,
}

fn eval_games(db: &Db, id: i64) -> Result<Vec<EvalGame>, ContestError> {
    let rows = db
        .sql()
        .query(
            "SELECT g.round, g.cycle, g.match_id, g.bye, m.status, m.first, m.second, m.result
             FROM contest_evaluation_games g LEFT JOIN contest_matches m ON m.id = g.match_id
             WHERE g.evaluation = ?1 ORDER BY g.rowid",
            args![id],
        )?
        .iter()
        .map(|r| {
            Ok((
                r.get::<u32>(0)?,
                r.get::<u32>(1)?,
                r.get::<Option<i64>>(2)?,
                r.get::<Option<i64>>(3)?,
                r.get::<Option<String>>(4)?,
                r.get::<Option<String>>(5)?,
                r.get::<Option<String>>(6)?,
                r.get::<Option<String>>(7)?,
            ))
        })
        .collect::<Result<Vec<_>, SqlError>>()?;
    let mut games = Vec::with_capacity(rows.len());
    for (round, cycle, match_id, bye, status, first, second, result) in rows {
        let game = match (match_id, status, first, second) {
            (Some(match_id), Some(status), Some(first), Some(second)) => {
                let status = match status.as_str() {
                    "done" => MatchStatus::Done,
                    "running" => MatchStatus::Running,
                    _ => MatchStatus::Queued,
                };
                let result = match result.as_deref() {
                    Some(text) if status == MatchStatus::Done => {
                        let id = |p: &str| match Player::parse(p) {
                            Ok(Player::Submission(s)) => Ok(s.0),
                            _ => Err(ContestError::Corrupt(format!("evaluation player {p:?}"))),
                        };
                        let (a, b) = (id(&first)?, id(&second)?);
                        let points = match text {
                            "1-0" => 1.0,
                            "0-1" => 0.0,
                            _ => 0.5,
                        };
                        Some((a, b, points, 1.0 - points))
                    }
                    _ => None,
                };
                Some((match_id, status, result))
            }
            _ => None,
        };
        games.push(EvalGame { round, cycle, game, bye });
    }
    Ok(games)
}

/// Seeds for a new evaluation of `game`: the previous finished evaluation's
/// ranking, then the rest by the time of their entry's submission.
fn seed_entries(db: &Db, game: &str) -> Result<Vec<SubmissionId>, ContestError> {
    let entries = db.entries(game)?;
    let previous: Option<i64> = db
        .sql()
        .query_opt(
            "SELECT id FROM contest_evaluations WHERE game = ?1 AND state = 'done'
             ORDER BY finished_at DESC, id DESC LIMIT 1",
            args![game],
        )?
        .map(|r| r.get(0))
        .transpose()?;
    // The previous ranking, by participant (a new submission keeps its
    // owner's place).
    let mut place: HashMap<i64, usize> = HashMap::new();
    if let Some(previous) = previous {
        let owners: HashMap<i64, i64> =
            db.submissions(game, None)?.into_iter().map(|s| (s.id.0, s.user.0)).collect();
        for (rank, id) in ranking(db, previous)?.into_iter().enumerate() {
            if let Some(owner) = owners.get(&id) {
                place.entry(*owner).or_insert(rank);
            }
        }
    }
    let mut seeded: Vec<(usize, i64, SubmissionId)> = entries
        .iter()
        .map(|s| (place.get(&s.user.0).copied().unwrap_or(usize::MAX), s.created_at_ms, s.id))
        .collect();
    seeded.sort();
    Ok(seeded.into_iter().map(|(.., id)| id).collect())
}

/// Starts due evaluations and queues the next games of running ones whose
/// games are all played; finishes those that are over. True when anything
/// changed.
///
/// # Errors
/// The store.
pub fn advance(db: &mut Db, now: i64) -> Result<bool, ContestError> {
    let mut busy = false;
    let due: Vec<(i64, String, Option<u32>)> = db
        .sql()
        .query(
            "SELECT id, game, top FROM contest_evaluations
             WHERE state = 'scheduled' AND start_at <= ?1",
            args![now],
        )?
        .iter()
        .map(|r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .collect::<Result<_, SqlError>>()?;
    for (id, game, top) in due {
        let mut seeds = seed_entries(db, &game)?;
        if let Some(top) = top {
            seeds.truncate(top as usize);
        }
        db.sql().write(|tx| {
            if tx.execute(
                "UPDATE contest_evaluations SET state = 'running'
                 WHERE id = ?1 AND state = 'scheduled'",
                args![id],
            )? == 1
            {
                for (k, submission) in seeds.iter().enumerate() {
                    tx.execute(
                        "INSERT INTO contest_evaluation_entries (evaluation, seed, submission_id)
                         VALUES (?1, ?2, ?3)",
                        args![id, k + 1, submission.0],
                    )?;
                }
            }
            Ok::<_, SqlError>(())
        })?;
        busy = true;
    }
    let running: Vec<i64> = db
        .sql()
        .query("SELECT id FROM contest_evaluations WHERE state = 'running'", &[])?
        .iter()
        .map(|r| r.get(0))
        .collect::<Result<_, SqlError>>()?;
    for id in running {
        busy |= step(db, id, now)?;
    }
    Ok(busy)
}

/// What an evaluation does next once its queued games are played.
enum Next {
    /// Queue these games (`round`, `cycle`, first, second, seed) and byes.
    Queue {
        games: Vec<(u32, u32, i64, i64, u64)>,
        byes: Vec<(u32, i64)>,
    },
    Over,
}

fn step(db: &mut Db, id: i64, now: i64) -> Result<bool, ContestError> {
    let Some(summary) = summary(db, id)? else { return Ok(false) };
    let games = eval_games(db, id)?;
    if games
        .iter()
        .any(|g| g.game.as_ref().is_some_and(|(_, status, _)| *status != MatchStatus::Done))
    {
        return Ok(false);
    }
    let players = participants(db, id)?;
    let next = if players.len() < 2 {
        Next::Over
    } else {
        match summary.kind {
            Kind::Swiss => next_swiss(&summary, &players, &games),
            Kind::Robin => next_robin(&summary, &players, &games),
            Kind::Finals => next_finals(&summary, &players, &games),
        }
    };
    db.sql().write(|tx| write_next(tx, id, now, &summary, next))?;
    Ok(true)
}

/// Stores what [`step`] decided, in its write transaction.
fn write_next(
    tx: &Conn,
    id: i64,
    now: i64,
    summary: &Summary,
    next: Next,
) -> Result<(), ContestError> {
    match next {
        Next::Queue { games, byes } => {
            for (round, cycle, first, second, seed) in games {
                let new = NewMatch {
                    game: summary.game.clone(),
                    kind: MatchKind::Evaluation,
                    first: Player::Submission(SubmissionId(first)),
                    second: Player::Submission(SubmissionId(second)),
                    seed,
                    counted: false,
                    requested_by: None,
                };
                let match_id = crate::db::insert_match(tx, &new)?;
                tx.execute(
                    "INSERT INTO contest_evaluation_games (evaluation, round, cycle, match_id)
                     VALUES (?1, ?2, ?3, ?4)",
                    args![id, round, cycle, match_id.0],
                )?;
            }
            for (round, bye) in byes {
                tx.execute(
                    "INSERT INTO contest_evaluation_games (evaluation, round, cycle, bye)
                     VALUES (?1, ?2, 1, ?3)",
                    args![id, round, bye],
                )?;
            }
        }
        Next::Over => {
            tx.execute(
                "UPDATE contest_evaluations SET state = 'done', finished_at = ?2 WHERE id = ?1",
                args![id, now],
            )?;
            if let Some(repeat) = summary.repeat_ms {
                // The next one at the first multiple of the period after now.
                let mut start = summary.start_at_ms + repeat;
                if start <= now {
                    start += (now - start) / repeat * repeat + repeat;
                }
                let next = Plan {
                    game: summary.game.clone(),
                    kind: summary.kind,
                    rounds: summary.rounds,
                    games: summary.games,
                    start_at: start,
                    repeat_ms: Some(repeat),
                    top: summary.top,
                };
                insert(tx, &next)?;
            }
        }
    }
    Ok(())
}

/// A pairing's games with the seats alternating, two by two on one seed.
fn alternating(
    round: u32,
    cycle: u32,
    a: i64,
    b: i64,
    games: u32,
) -> Vec<(u32, u32, i64, i64, u64)> {
    let mut seed = 0;
    (0..games)
        .map(|k| {
            if k % 2 == 0 {
                seed = auth::random_u64() >> 1;
            }
            let (first, second) = if k % 2 == 0 { (a, b) } else { (b, a) };
            (round, cycle, first, second, seed)
        })
        .collect()
}

/// The Swiss rounds played so far, from the stored games.
fn swiss_rounds(games: &[EvalGame]) -> Vec<SwissRound> {
    let count = games.iter().map(|g| g.round).max().unwrap_or(0) as usize;
    let mut rounds = vec![SwissRound::default(); count];
    // Points of each pairing of a round, summed over its games.
    let mut by_pair: Vec<HashMap<(i64, i64), (f64, f64)>> = vec![HashMap::new(); count];
    let mut order: Vec<Vec<(i64, i64)>> = vec![Vec::new(); count];
    for game in games {
        let r = game.round as usize - 1;
        if let Some(bye) = game.bye {
            rounds[r].bye = Some(bye);
        }
        if let Some((_, _, Some((a, b, pa, pb)))) = game.game {
            let (key, points) = if a < b { ((a, b), (pa, pb)) } else { ((b, a), (pb, pa)) };
            let entry = by_pair[r].entry(key).or_insert_with(|| {
                order[r].push(key);
                (0.0, 0.0)
            });
            entry.0 += points.0;
            entry.1 += points.1;
        }
    }
    for (r, round) in rounds.iter_mut().enumerate() {
        for key in &order[r] {
            let (pa, pb) = by_pair[r][key];
            round.games.push((key.0, key.1, pa, pb));
        }
    }
    rounds
}

fn next_swiss(summary: &Summary, players: &[Seeded], games: &[EvalGame]) -> Next {
    let rounds = swiss_rounds(games);
    if rounds.len() >= summary.rounds as usize {
        return Next::Over;
    }
    let round = rounds.len() as u32 + 1;
    let plan = swiss_round(players, &rounds, summary.games as usize);
    let games =
        plan.pairings.iter().flat_map(|p| alternating(round, 1, p.a, p.b, summary.games)).collect();
    Next::Queue { games, byes: plan.bye.map(|b| vec![(round, b)]).unwrap_or_default() }
}

fn next_robin(summary: &Summary, players: &[Seeded], games: &[EvalGame]) -> Next {
    if !games.is_empty() {
        return Next::Over;
    }
    let fixtures = round_robin(players, summary.games as usize);
    let mut seed = 0;
    let games = fixtures
        .iter()
        .enumerate()
        .map(|(k, f)| {
            if k % 2 == 0 {
                seed = auth::random_u64() >> 1;
            }
            (1, 1, f.first, f.second, seed)
        })
        .collect();
    Next::Queue { games, byes: Vec::new() }
}

/// The finals' stages so far: each stage's players and its decision.
fn finals_stages(
    players: &[Seeded],
    games: &[EvalGame],
) -> Vec<(Vec<Seeded>, usize, Vec<Result4>, StageStep)> {
    let mut stages = Vec::new();
    let mut current: Vec<Seeded> = players.to_vec();
    for stage in 1.. {
        let of_stage: Vec<&EvalGame> = games.iter().filter(|g| g.round == stage).collect();
        let cycles = of_stage.iter().map(|g| g.cycle).max().unwrap_or(0) as usize;
        let results: Vec<Result4> =
            of_stage.iter().filter_map(|g| g.game.and_then(|(.., r)| r)).collect();
        let cut = next_stage_size(current.len());
        let decision = finals_stage(&current, &results, cycles, cut, MAX_FINAL_CYCLES);
        let done = match &decision {
            StageStep::Done { advancing, .. } if cut > 1 => {
                let advancing: HashSet<i64> = advancing.iter().copied().collect();
                Some(current.iter().filter(|p| advancing.contains(&p.id)).copied().collect())
            }
            _ => None,
        };
        let more = done.is_some();
        stages.push((current.clone(), cycles, results, decision));
        match done {
            Some(next) if more => current = next,
            _ => break,
        }
    }
    stages
}

fn next_finals(summary: &Summary, players: &[Seeded], games: &[EvalGame]) -> Next {
    let stages = finals_stages(players, games);
    let (stage_players, cycles, _, decision) = stages.last().expect("at least one stage");
    match decision {
        StageStep::Cycle => {
            let stage = stages.len() as u32;
            let cycle = *cycles as u32 + 1;
            let mut sorted = stage_players.clone();
            sorted.sort_by_key(|p| p.seed);
            let mut games = Vec::new();
            for (i, x) in sorted.iter().enumerate() {
                for y in &sorted[i + 1..] {
                    games.extend(alternating(stage, cycle, x.id, y.id, summary.games));
                }
            }
            Next::Queue { games, byes: Vec::new() }
        }
        StageStep::Done { .. } => Next::Over,
    }
}

/// The final order of an evaluation's participants (submission ids).
///
/// # Errors
/// The store.
pub fn ranking(db: &Db, id: i64) -> Result<Vec<i64>, ContestError> {
    let Some(summary) = summary(db, id)? else { return Ok(Vec::new()) };
    let players = participants(db, id)?;
    let games = eval_games(db, id)?;
    Ok(match summary.kind {
        Kind::Swiss => swiss_standings(&players, &swiss_rounds(&games), summary.games as usize)
            .into_iter()
            .map(|s| s.id)
            .collect(),
        Kind::Robin => {
            robin_standings(&players, &results(&games)).into_iter().map(|s| s.id).collect()
        }
        Kind::Finals => finals_order(&players, &games),
    })
}

fn results(games: &[EvalGame]) -> Vec<Result4> {
    games.iter().filter_map(|g| g.game.and_then(|(.., r)| r)).collect()
}

/// The finals' order: the last stage's standings, then each earlier stage's
/// remaining participants in that stage's order.
fn finals_order(players: &[Seeded], games: &[EvalGame]) -> Vec<i64> {
    let stages = finals_stages(players, games);
    let mut order: Vec<i64> = Vec::new();
    for (stage_players, _, results, _) in stages.iter().rev() {
        for row in robin_standings(stage_players, results) {
            if !order.contains(&row.id) {
                order.push(row.id);
            }
        }
    }
    order
}

/// An evaluation's results page.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    #[serde(flatten)]
    pub summary: Summary,
    pub participants: Vec<ViewParticipant>,
    /// Swiss: one per round; round robin: one; finals: one per stage.
    pub rounds: Vec<ViewRound>,
    pub standings: Vec<ViewStanding>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ViewParticipant {
    pub submission: i64,
    pub seed: usize,
    pub name: String,
    /// NYPC's performance from this evaluation's games (Bradley–Terry,
    /// `nypc-perf`, on the levels' scale).
    pub performance: Option<f64>,
    /// The performance its sample-AI games alone predict.
    pub expected: Option<f64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ViewRound {
    pub round: u32,
    pub bye: Option<i64>,
    pub games: Vec<ViewGame>,
    /// Finals: who went on from this stage.
    pub advancing: Vec<i64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ViewGame {
    pub id: i64,
    pub cycle: u32,
    pub first: i64,
    pub second: i64,
    pub status: MatchStatus,
    /// The first player's points once played.
    pub first_points: Option<f64>,
}

/// A line of the standings, with the tie-breaks of the evaluation's kind.
#[derive(Clone, Debug, Serialize)]
pub struct ViewStanding {
    pub rank: usize,
    pub submission: i64,
    pub seed: usize,
    pub score: f64,
    /// Swiss: rounds won, opponents' scores, weighted own, weighted
    /// opponents'; round robin and finals: Sonneborn–Berger.
    pub tie_breaks: Vec<f64>,
}

/// The results page of evaluation `id`.
///
/// # Errors
/// The store; `NotFound` for an unknown id.
pub fn view(db: &Db, id: i64) -> Result<View, ContestError> {
    let summary =
        summary(db, id)?.ok_or_else(|| ContestError::NotFound(format!("no evaluation {id}")))?;
    let players = participants(db, id)?;
    let games = eval_games(db, id)?;
    let names: HashMap<i64, String> =
        db.submissions(&summary.game, None)?.into_iter().map(|s| (s.id.0, s.user_name)).collect();
    let game = versus_games::find(&summary.game)
        .ok_or_else(|| ContestError::Corrupt(format!("unknown game {:?}", summary.game)))?;
    let ids: HashSet<i64> = players.iter().map(|p| p.id).collect();
    let played: Vec<Played> = results(&games)
        .into_iter()
        .map(|(a, b, pa, _)| Played {
            first: Player::Submission(SubmissionId(a)),
            second: Player::Submission(SubmissionId(b)),
            result: match pa {
                p if p > 0.75 => GameResult::FirstWins,
                p if p < 0.25 => GameResult::SecondWins,
                _ => GameResult::Draw,
            },
            faults: [false; 2],
            finished_at_ms: 0,
            kind: MatchKind::Evaluation,
        })
        .collect();
    let performance = fit(game, &played, &HashSet::new());
    let sample: Vec<Played> = db
        .results(&summary.game)?
        .into_iter()
        .filter(|p| matches!(p.kind, MatchKind::Gate | MatchKind::Placement))
        .filter(|p| {
            [&p.first, &p.second].iter().any(|q| q.submission().is_some_and(|s| ids.contains(&s.0)))
        })
        .collect();
    let expected = fit(game, &sample, &HashSet::new());
    let rating = |fitted: &crate::rating::Fit, id: i64| {
        fitted.of(&Player::Submission(SubmissionId(id))).map(|k| fitted.elo[k].round())
    };
    let participants = players
        .iter()
        .map(|p| ViewParticipant {
            submission: p.id,
            seed: p.seed,
            name: names.get(&p.id).cloned().unwrap_or_default(),
            performance: rating(&performance, p.id),
            expected: rating(&expected, p.id),
        })
        .collect();

    let mut rounds: Vec<ViewRound> = Vec::new();
    for game in &games {
        let index = game.round as usize;
        while rounds.len() < index {
            rounds.push(ViewRound {
                round: rounds.len() as u32 + 1,
                bye: None,
                games: Vec::new(),
                advancing: Vec::new(),
            });
        }
        let round = &mut rounds[index - 1];
        if game.bye.is_some() {
            round.bye = game.bye;
        }
        if let Some((match_id, status, result)) = game.game {
            let (first, second) = match result {
                Some((a, b, ..)) => (a, b),
                None => match_players(db, match_id)?,
            };
            round.games.push(ViewGame {
                id: match_id,
                cycle: game.cycle,
                first,
                second,
                status,
                first_points: result.map(|(_, _, pa, _)| pa),
            });
        }
    }
    let standings = match summary.kind {
        Kind::Swiss => swiss_standings(&players, &swiss_rounds(&games), summary.games as usize)
            .into_iter()
            .enumerate()
            .map(|(k, s)| ViewStanding {
                rank: k + 1,
                submission: s.id,
                seed: s.seed,
                score: s.score,
                tie_breaks: vec![
                    s.rounds_won as f64,
                    s.opponents,
                    s.weighted,
                    s.weighted_opponents,
                ],
            })
            .collect(),
        Kind::Robin => robin_view(&robin_standings(&players, &results(&games))),
        Kind::Finals => {
            let stages = finals_stages(&players, &games);
            for (k, (_, _, _, decision)) in stages.iter().enumerate() {
                if let (Some(round), StageStep::Done { advancing, .. }) =
                    (rounds.get_mut(k), decision)
                {
                    round.advancing.clone_from(advancing);
                }
            }
            let order = finals_order(&players, &games);
            let last = stages.last().map(|(p, _, r, _)| robin_standings(p, r)).unwrap_or_default();
            order
                .iter()
                .enumerate()
                .map(|(k, &id)| {
                    let row = last.iter().find(|r| r.id == id);
                    ViewStanding {
                        rank: k + 1,
                        submission: id,
                        seed: players.iter().find(|p| p.id == id).map_or(0, |p| p.seed),
                        score: row.map_or(0.0, |r| r.points),
                        tie_breaks: row.map(|r| vec![r.sonneborn_berger]).unwrap_or_default(),
                    }
                })
                .collect()
        }
    };
    Ok(View { summary, participants, rounds, standings })
}

fn robin_view(rows: &[crate::tournament::RobinStanding]) -> Vec<ViewStanding> {
    rows.iter()
        .enumerate()
        .map(|(k, s)| ViewStanding {
            rank: k + 1,
            submission: s.id,
            seed: s.seed,
            score: s.points,
            tie_breaks: vec![s.sonneborn_berger],
        })
        .collect()
}

fn match_players(db: &Db, id: i64) -> Result<(i64, i64), ContestError> {
    let game = db
        .game_match(crate::db::MatchId(id))?
        .ok_or_else(|| ContestError::Corrupt(format!("evaluation game {id} is gone")))?;
    let id_of = |p: &Player| p.submission().map_or(0, |s| s.0);
    Ok((id_of(&game.first), id_of(&game.second)))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use versus_core::{BySide, Outcome, RecordLine};

    use super::*;
    use crate::db::{Pacing, SubmissionState};

    /// A store with `n` rated entries of Domineering, ids in submission order.
    fn store(db: &mut Db, n: usize) -> Vec<i64> {
        let mut ids = Vec::new();
        for k in 0..n {
            let (user, _) = db.add_user(&format!("p{k}"), None, false).unwrap();
            let id = db.submit(user.id, "domineering", "cpp", "// bot\n", Pacing::NONE).unwrap();
            for (from, to) in [
                (SubmissionState::Queued, SubmissionState::Compiling),
                (SubmissionState::Compiling, SubmissionState::Gate),
                (SubmissionState::Gate, SubmissionState::Rated),
            ] {
                assert!(db.move_submission(id, from, to, None).unwrap());
            }
            ids.push(id.0);
            std::thread::sleep(Duration::from_millis(2));
        }
        ids
    }

    /// Plays every queued game: the smaller submission id always wins.
    fn play_all(db: &mut Db) -> usize {
        let mut played = 0;
        while let Some(game) = db.lease_match().unwrap() {
            let id = |p: &Player| p.submission().unwrap().0;
            let scores = if id(&game.first) < id(&game.second) {
                BySide::new(2.0, 1.0)
            } else {
                BySide::new(1.0, 2.0)
            };
            let outcome = Outcome::from_scores(scores);
            assert!(db.finish_match(game.id, &[RecordLine::Footer { outcome }]).unwrap());
            played += 1;
        }
        played
    }

    fn run(db: &mut Db, id: i64) -> usize {
        let mut games = 0;
        for _ in 0..100 {
            advance(db, crate::now_ms()).unwrap();
            games += play_all(db);
            if summary(db, id).unwrap().unwrap().state == "done" {
                return games;
            }
        }
        panic!("evaluation {id} never ended");
    }

    #[test]
    fn a_swiss_of_five_plays_its_rounds_with_one_bye_each_and_ranks_the_strongest_first() {
        let stores = crate::testing::stores("swiss");
        for (mut db, _) in stores.each() {
            let ids = store(&mut db, 5);
            let plan = Plan {
                game: "domineering".into(),
                kind: Kind::Swiss,
                rounds: 3,
                games: 2,
                start_at: 0,
                repeat_ms: Some(12 * 3600 * 1000),
                top: None,
            };
            let id = schedule(&mut db, &plan).unwrap();
            // 3 rounds × 2 pairings × 2 games.
            assert_eq!(run(&mut db, id), 12);
            let view = view(&db, id).unwrap();
            assert_eq!(view.rounds.len(), 3);
            let byes: HashSet<i64> = view.rounds.iter().filter_map(|r| r.bye).collect();
            assert_eq!(byes.len(), 3, "no participant has two byes");
            // Seeds by submission time: the first submission is seed 1.
            assert_eq!(view.participants[0].seed, 1);
            assert_eq!(view.participants[0].submission, ids[0]);
            // Round 1's bye: seed 1 (all on 0). It wins every game it plays.
            assert_eq!(view.rounds[0].bye, Some(ids[0]));
            assert_eq!(view.standings[0].submission, ids[0]);
            assert_eq!(view.standings[0].score, 6.0);
            for round in &view.rounds {
                for pair in round.games.chunks(2) {
                    assert_eq!((pair[0].first, pair[0].second), (pair[1].second, pair[1].first));
                }
            }
            // Performance: the strongest is rated highest.
            let best = view.participants.iter().find(|p| p.submission == ids[0]).unwrap();
            let worst = view.participants.iter().find(|p| p.submission == ids[4]).unwrap();
            assert!(
                best.performance.unwrap() > worst.performance.unwrap(),
                "{:?}",
                view.participants
            );
            // It repeats: the next one is scheduled 12 h after this one's start.
            let all = list(&db, "domineering").unwrap();
            assert_eq!(all.len(), 2);
            assert_eq!(all[0].state, "scheduled");
            assert!(all[0].start_at_ms > crate::now_ms());
            // And the next one seeds by this one's ranking.
            let seeds = seed_entries(&db, "domineering").unwrap();
            let swiss_ranking = ranking(&db, id).unwrap();
            assert_eq!(seeds.iter().map(|s| s.0).collect::<Vec<_>>(), swiss_ranking);
            // NYPC's online round ends with a round robin of the Swiss's top.
            let robin = Plan { kind: Kind::Robin, top: Some(3), repeat_ms: None, ..plan };
            let robin = schedule(&mut db, &robin).unwrap();
            assert_eq!(run(&mut db, robin), 3 * 2);
            let view = super::view(&db, robin).unwrap();
            let seeded: Vec<(i64, usize)> =
                view.participants.iter().map(|p| (p.submission, p.seed)).collect();
            assert_eq!(
                seeded,
                vec![(swiss_ranking[0], 1), (swiss_ranking[1], 2), (swiss_ranking[2], 3)]
            );
        }
    }

    #[test]
    fn staged_finals_narrow_down_to_a_winner() {
        let stores = crate::testing::stores("finals");
        for (mut db, _) in stores.each() {
            let ids = store(&mut db, 3);
            let plan = Plan {
                game: "domineering".into(),
                kind: Kind::Finals,
                rounds: 1,
                games: 2,
                start_at: 0,
                repeat_ms: None,
                top: None,
            };
            let id = schedule(&mut db, &plan).unwrap();
            // Stage 1: 3 pairs × 2 games; 102's [0,0,1,1] against 103's zeros
            // gives z = 0.5/√(1/12) = 1.73: separated. Stage 2: 1 pair × 2.
            assert_eq!(run(&mut db, id), 8);
            let view = view(&db, id).unwrap();
            assert_eq!(view.rounds.len(), 2);
            assert_eq!(view.rounds[0].advancing, vec![ids[0], ids[1]]);
            assert_eq!(view.rounds[1].advancing, vec![ids[0]]);
            let order: Vec<i64> = view.standings.iter().map(|s| s.submission).collect();
            assert_eq!(order, ids);
        }
    }

    #[test]
    fn a_round_robin_plays_every_pair_once_and_bad_plans_are_refused() {
        let stores = crate::testing::stores("robin");
        for (mut db, _) in stores.each() {
            let ids = store(&mut db, 4);
            let mut plan = Plan {
                game: "domineering".into(),
                kind: Kind::Robin,
                rounds: 1,
                games: 2,
                start_at: 0,
                repeat_ms: None,
                top: None,
            };
            let id = schedule(&mut db, &plan).unwrap();
            assert_eq!(run(&mut db, id), 12);
            let view = view(&db, id).unwrap();
            let order: Vec<i64> = view.standings.iter().map(|s| s.submission).collect();
            assert_eq!(order, ids);
            assert_eq!(view.standings[0].score, 6.0);
            plan.games = 0;
            assert!(matches!(schedule(&mut db, &plan), Err(ContestError::Invalid(_))));
            plan.games = 2;
            plan.game = "chess".into();
            assert!(matches!(schedule(&mut db, &plan), Err(ContestError::NotFound(_))));
        }
    }
}
