//! Runs the games of a league or an SPRT: a schedule of slots, workers that
//! play them, and a tally that the store can always rebuild.
//!
//! A *slot* is one game of the schedule, named `A-B/K/L`: the pairing of
//! entrants `A < B`, its pair `K` (seed `seed + K`, the same for every
//! pairing) and the leg `L` (0: `A` plays first; 1: `B` does). The runner
//! plays every slot the store lacks, in schedule order, so a run stopped at
//! any moment continues with `--resume` where it was, and a slot is counted
//! at most once.
//!
//! A game that ended by a time-out while the judge itself was late (its
//! measured lag over [`HARNESS_LAG_US`]) is the machine's fault, not the
//! agent's: it is stored with a flag, not counted, and its slot is played
//! again.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Mutex;
use std::thread;

use serde::{Deserialize, Serialize};
use thiserror::Error;
use versus_core::{BySide, Fault, Game, GameConfig, Outcome, RecordLine, Side, TimeControl};
use versus_judge::{run_game, AgentSpec, JudgeError, Limits, SandboxSettings};

use crate::stats::{HeadToHead, Pentanomial, Sprt, SprtStatus, Trinomial, Wdl};
use crate::store::{
    reply_times_us, AgentId, GameSummary, JudgeLag, NewGame, RunId, Store, StoreError,
};

/// A judge lag beyond which a time-out is blamed on the harness, in µs.
pub const HARNESS_LAG_US: u64 = 5_000;

/// How often one slot may be replayed for the harness's fault before the
/// run stops: a machine that loaded cannot run fair games.
pub const MAX_REPLAYS: u32 = 3;

/// One agent of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// The name reports use; unique in the run.
    pub name: String,
    /// `builtin:NAME` or a shell command line.
    pub spec: String,
    /// The program's working directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<PathBuf>,
}

/// What games a run plays.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "snake_case")]
pub enum Schedule {
    /// Entrant 0 (the test) against entrant 1 (the base), pair after pair,
    /// until the test decides or `max_pairs` pairs are played.
    Sprt { sprt: Sprt, max_pairs: u64 },
    /// `pairs` pairs for every pairing of entrants, or only for those of the
    /// `gauntlet` entrant.
    League { pairs: u64, gauntlet: Option<usize> },
}

/// Everything that decides a run; stored with it, so `--resume` needs only
/// the run's id.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub game: String,
    pub time: TimeControl,
    /// Pair `K` of every pairing is played with seed `seed + K`.
    pub seed: u64,
    pub entrants: Vec<Entrant>,
    pub schedule: Schedule,
    /// Command-line agents run in the sandbox too (sources always do).
    #[serde(default)]
    pub sandbox: bool,
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slot {
    /// The entrants of the pairing, `a < b`.
    pub a: usize,
    pub b: usize,
    pub pair: u64,
    /// 0: `a` plays first; 1: `b` does.
    pub leg: u8,
}

impl Slot {
    /// The slot's name in the store.
    #[must_use]
    pub fn key(&self) -> String {
        format!("{}-{}/{}/{}", self.a, self.b, self.pair, self.leg)
    }

    /// Reads a name written by [`Slot::key`].
    #[must_use]
    pub fn parse(key: &str) -> Option<Slot> {
        let (pairing, rest) = key.split_once('/')?;
        let (pair, leg) = rest.split_once('/')?;
        let (a, b) = pairing.split_once('-')?;
        let slot = Slot {
            a: a.parse().ok()?,
            b: b.parse().ok()?,
            pair: pair.parse().ok()?,
            leg: leg.parse().ok()?,
        };
        (slot.a < slot.b && slot.leg < 2).then_some(slot)
    }

    /// The entrants in seat order.
    #[must_use]
    pub fn seats(&self) -> BySide<usize> {
        if self.leg == 0 {
            BySide::new(self.a, self.b)
        } else {
            BySide::new(self.b, self.a)
        }
    }
}

impl Plan {
    /// The pairings, in the order each pair of the schedule visits them.
    #[must_use]
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.entrants.len();
        match self.schedule {
            Schedule::Sprt { .. } => vec![(0, 1)],
            Schedule::League { gauntlet: Some(g), .. } => {
                (0..n).filter(|&o| o != g).map(|o| (g.min(o), g.max(o))).collect()
            }
            Schedule::League { gauntlet: None, .. } => {
                (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).collect()
            }
        }
    }

    /// Every slot of the schedule, in the order they are played.
    #[must_use]
    pub fn slots(&self) -> Vec<Slot> {
        let pairs = match self.schedule {
            Schedule::Sprt { max_pairs, .. } => max_pairs,
            Schedule::League { pairs, .. } => pairs,
        };
        let pairings = self.pairings();
        let mut slots = Vec::new();
        for pair in 0..pairs {
            for &(a, b) in &pairings {
                for leg in 0..2 {
                    slots.push(Slot { a, b, pair, leg });
                }
            }
        }
        slots
    }

    /// The config of a slot's game.
    #[must_use]
    pub fn config(&self, slot: &Slot) -> GameConfig {
        GameConfig { seed: self.seed.wrapping_add(slot.pair), time: self.time, input: None }
    }

    /// The agents of a slot's game; built-in agents get seeds from the game's.
    #[must_use]
    pub fn agents(&self, slot: &Slot) -> BySide<AgentSpec> {
        let seed = self.config(slot).seed;
        let seats = slot.seats();
        BySide::from_fn(|side| {
            let entrant = &self.entrants[seats[side]];
            let agent_seed = seed.wrapping_mul(2).wrapping_add(1 + side.index() as u64);
            AgentSpec::parse(&entrant.spec, entrant.cwd.clone(), agent_seed)
        })
    }
}

/// How each entrant fared.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EntrantTally {
    pub games: u64,
    /// Verdicts against this entrant, by code (`TLE`, `RE`, `CRASH`, ...).
    pub faults: HashMap<String, u64>,
    /// Its replies and their total time, READY answers excluded.
    pub moves: u64,
    pub move_time_us: u64,
    /// The longest single reply, in µs.
    pub max_move_us: u64,
}

/// The results of a run so far.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    pub names: Vec<String>,
    /// `results[i][j]`: entrant `i`'s games against `j`, from `i`'s view.
    pub results: Vec<Vec<Trinomial>>,
    pub tallies: Vec<EntrantTally>,
    /// Pairs of the SPRT pairing whose both legs are counted, from entrant
    /// 0's view (the test's).
    pub pentanomial: Pentanomial,
    /// Games stored but not counted because the harness was at fault.
    pub flagged: u64,
    /// The harness over the counted games: the judge's largest lag, and the
    /// machine's load summed (in hundredths) to give its mean.
    pub max_judge_lag_us: u64,
    pub load_centi_sum: u64,
    /// First legs waiting for their second, by pairing and pair.
    #[serde(skip)]
    open_pairs: HashMap<(usize, usize, u64), Wdl>,
}

impl Standing {
    #[must_use]
    pub fn new(names: Vec<String>) -> Standing {
        let n = names.len();
        Standing {
            names,
            results: vec![vec![Trinomial::default(); n]; n],
            tallies: vec![EntrantTally::default(); n],
            pentanomial: Pentanomial::default(),
            flagged: 0,
            max_judge_lag_us: 0,
            load_centi_sum: 0,
            open_pairs: HashMap::new(),
        }
    }

    /// Counted games in all.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.tallies.iter().map(|t| t.games).sum::<u64>() / 2
    }

    /// Counts one game of `slot`.
    pub fn add(&mut self, slot: &Slot, outcome: &Outcome, move_times_us: &BySide<Vec<u64>>) {
        let seats = slot.seats();
        for side in Side::BOTH {
            let (me, other) = (seats[side], seats[side.opponent()]);
            self.results[me][other].add(Wdl::for_side(outcome.result, side));
            let tally = &mut self.tallies[me];
            tally.games += 1;
            if let Some(fault) = &outcome.faults[side] {
                *tally.faults.entry(fault.code().to_owned()).or_default() += 1;
            }
            // The first reply answers READY, which is not thinking time.
            let moves = move_times_us[side].iter().skip(1);
            for &us in moves {
                tally.moves += 1;
                tally.move_time_us += us;
                tally.max_move_us = tally.max_move_us.max(us);
            }
        }
        if (slot.a, slot.b) == (0, 1) {
            let first_leg = (slot.a, slot.b, slot.pair);
            let mine = Wdl::for_side(
                outcome.result,
                if slot.leg == 0 { Side::First } else { Side::Second },
            );
            match self.open_pairs.remove(&first_leg) {
                Some(other) => self.pentanomial.add_pair(other, mine),
                None => {
                    self.open_pairs.insert(first_leg, mine);
                }
            }
        }
    }

    /// Counts what the harness measured during a counted game.
    pub fn note_harness(&mut self, lag: &JudgeLag) {
        self.max_judge_lag_us = self.max_judge_lag_us.max(lag.max_us);
        self.load_centi_sum += lag.load_centi;
    }

    /// The machine's mean load average over the counted games.
    #[must_use]
    pub fn mean_load(&self) -> f64 {
        let games = self.games();
        if games == 0 {
            0.0
        } else {
            self.load_centi_sum as f64 / 100.0 / games as f64
        }
    }

    /// The head-to-head results, for ratings.
    #[must_use]
    pub fn head_to_head(&self) -> Vec<HeadToHead> {
        let n = self.names.len();
        let mut all = Vec::new();
        for agent in 0..n {
            for opponent in agent + 1..n {
                let record = self.results[agent][opponent];
                if record.games() > 0 {
                    all.push(HeadToHead { agent, opponent, record });
                }
            }
        }
        all
    }
}

/// Why a run stopped before its end.
#[derive(Debug, Error)]
pub enum RunError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Judge(#[from] JudgeError),
    #[error("unknown game {0:?}")]
    UnknownGame(String),
    #[error("the store's run {run} has {stored} agents but its plan names {planned}")]
    AgentsMismatch { run: i64, stored: usize, planned: usize },
    #[error(
        "slot {slot} was replayed {replays} times because the judge itself was late \
         ({reason}); the machine is too loaded for fair games"
    )]
    Overloaded { slot: String, replays: u32, reason: String },
    #[error("a worker thread panicked")]
    WorkerPanic,
}

/// Why the harness, not an agent, is to blame for how a game ended, if it is.
#[must_use]
pub fn harness_fault(outcome: &Outcome, lag: &JudgeLag) -> Option<String> {
    let timed_out = Side::BOTH
        .into_iter()
        .any(|side| matches!(outcome.faults[side], Some(Fault::TimeLimit | Fault::Stall)));
    (timed_out && lag.max_us > HARNESS_LAG_US)
        .then(|| format!("a time-out while the judge was up to {} ms late", lag.max_us / 1000))
}

/// The judge's lag over a game, from its record.
#[must_use]
pub fn judge_lag(record: &[RecordLine]) -> JudgeLag {
    let lags: Vec<u64> = record
        .iter()
        .filter_map(|line| match line {
            RecordLine::Recv { lag_us, .. } | RecordLine::Timeout { lag_us, .. } => Some(*lag_us),
            _ => None,
        })
        .collect();
    let samples = lags.len() as u64;
    JudgeLag {
        samples,
        mean_us: lags.iter().sum::<u64>().checked_div(samples).unwrap_or(0),
        max_us: lags.iter().copied().max().unwrap_or(0),
        load_centi: 0,
    }
}

/// The one-minute load average, in hundredths, or 0 where unknown.
#[must_use]
pub fn load_centi() -> u64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|text| text.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0, |load| (load * 100.0).round() as u64)
}

/// Rebuilds the standing of a run from its counted games.
pub fn standing_from_store(store: &Store, run: RunId, plan: &Plan) -> Result<Standing, RunError> {
    let ids = entrant_ids(store, run, plan)?;
    let mut standing = Standing::new(plan.entrants.iter().map(|e| e.name.clone()).collect());
    for game in store.results(run)? {
        if let Some(slot) = Slot::parse(&game.slot) {
            check_seats(&game, &slot, &ids)?;
            standing.add(&slot, &game.outcome, &game.move_times_us);
            standing.note_harness(&game.judge_lag.unwrap_or_default());
        }
    }
    standing.flagged = store.games(run)?.iter().filter(|g| g.harness_flag.is_some()).count() as u64;
    Ok(standing)
}

fn check_seats(game: &GameSummary, slot: &Slot, ids: &[AgentId]) -> Result<(), RunError> {
    let seats = slot.seats();
    if game.agents != BySide::new(ids[seats.first], ids[seats.second]) {
        return Err(RunError::Store(StoreError::Corrupt(format!(
            "game {} of slot {} does not seat the slot's agents",
            game.id.0, game.slot
        ))));
    }
    Ok(())
}

/// The store's agent ids of the plan's entrants, in order.
fn entrant_ids(store: &Store, run: RunId, plan: &Plan) -> Result<Vec<AgentId>, RunError> {
    let agents = store.agents(run)?;
    if agents.len() != plan.entrants.len() {
        return Err(RunError::AgentsMismatch {
            run: run.0,
            stored: agents.len(),
            planned: plan.entrants.len(),
        });
    }
    Ok(agents.into_iter().map(|a| a.id).collect())
}

/// Whether the schedule is complete (an SPRT also ends when it decides).
fn decided(plan: &Plan, standing: &Standing) -> bool {
    match &plan.schedule {
        Schedule::Sprt { sprt, .. } => sprt.status(&standing.pentanomial) != SprtStatus::Continue,
        Schedule::League { .. } => false,
    }
}

struct Played {
    slot: Slot,
    result: Result<(Outcome, Vec<RecordLine>), JudgeError>,
}

/// Plays every slot of `plan` that `run` lacks, with `jobs` games at once,
/// storing each game as it finishes and calling `progress` after each.
/// Returns the final standing. `stop` (set by the caller, e.g. on Ctrl-C)
/// lets the games in progress finish and schedules no more.
pub fn run(
    store: &Store,
    run: RunId,
    plan: &Plan,
    jobs: usize,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Standing),
) -> Result<Standing, RunError> {
    let game: &'static dyn Game =
        versus_games::find(&plan.game).ok_or_else(|| RunError::UnknownGame(plan.game.clone()))?;
    let ids = entrant_ids(store, run, plan)?;
    let mut standing = standing_from_store(store, run, plan)?;
    let finished = store.finished_slots(run)?;
    let queue: VecDeque<Slot> =
        plan.slots().into_iter().filter(|s| !finished.contains(&s.key())).collect();
    if decided(plan, &standing) || queue.is_empty() {
        return Ok(standing);
    }
    let queue = Mutex::new(queue);
    let halt = AtomicBool::new(false);
    let mut replays: HashMap<Slot, u32> = HashMap::new();
    let limits = Limits {
        sandbox: SandboxSettings { commands: plan.sandbox, ..SandboxSettings::default() },
        ..Limits::default()
    };
    // A bounded channel: a worker waits while `waiting` games wait to be
    // stored. Every commit syncs the disk, so a league lets up to 16 games
    // per worker pile up and go into one transaction (games of microseconds
    // would otherwise each wait on a sync); an SPRT keeps one per worker, so
    // that it stops within a few games of its decision.
    let waiting = match plan.schedule {
        Schedule::Sprt { .. } => jobs.max(1),
        Schedule::League { .. } => 16 * jobs.max(1),
    };
    let (sender, receiver) = mpsc::sync_channel::<Played>(waiting);

    let outcome = thread::scope(|scope| -> Result<(), RunError> {
        for _ in 0..jobs.max(1) {
            let sender = sender.clone();
            let (queue, halt, limits) = (&queue, &halt, &limits);
            scope.spawn(move || loop {
                if halt.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed) {
                    return;
                }
                let Some(slot) = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front() else {
                    return;
                };
                let mut lines = Vec::new();
                let result =
                    run_game(game, &plan.config(&slot), &plan.agents(&slot), limits, &mut |l| {
                        lines.push(l);
                    })
                    .map(|outcome| (outcome, lines));
                if sender.send(Played { slot, result }).is_err() {
                    return;
                }
            });
        }
        drop(sender);
        let mut failure = None;
        while let Ok(first) = receiver.recv() {
            // The games already waiting (at most a channel's worth, as workers
            // refill it while it drains) are stored in the same transaction:
            // one sync to disk for all of them.
            let mut batch = vec![first];
            batch.extend(receiver.try_iter().take(waiting));
            if failure.is_some() {
                continue;
            }
            match store_games(store, run, &ids, batch, &mut standing, &mut replays, &queue) {
                Ok(()) => {
                    progress(&standing);
                    if decided(plan, &standing) {
                        halt.store(true, Ordering::Relaxed);
                    }
                }
                Err(error) => {
                    halt.store(true, Ordering::Relaxed);
                    failure = Some(error);
                }
            }
        }
        failure.map_or(Ok(()), Err)
    });
    outcome?;
    Ok(standing)
}

/// Stores played games and counts them, or puts a slot back in the queue
/// when the harness was at fault.
fn store_games(
    store: &Store,
    run: RunId,
    ids: &[AgentId],
    batch: Vec<Played>,
    standing: &mut Standing,
    replays: &mut HashMap<Slot, u32>,
    queue: &Mutex<VecDeque<Slot>>,
) -> Result<(), RunError> {
    let mut games = Vec::with_capacity(batch.len());
    let mut counted = Vec::with_capacity(batch.len());
    // The load average moves every few seconds: once a batch is enough.
    let load = load_centi();
    for played in batch {
        let slot = played.slot;
        let (outcome, record) = played.result?;
        let lag = JudgeLag { load_centi: load, ..judge_lag(&record) };
        let flag = harness_fault(&outcome, &lag);
        let seats = slot.seats();
        counted.push((slot, outcome, reply_times_us(&record), flag.clone(), lag));
        games.push(NewGame {
            slot: slot.key(),
            agents: BySide::new(ids[seats.first], ids[seats.second]),
            record,
            judge_lag: Some(lag),
            harness_flag: flag,
        });
    }
    store.insert_games(run, &games)?;
    for (slot, outcome, move_times, flag, lag) in counted {
        match flag {
            Some(reason) => {
                standing.flagged += 1;
                let count = replays.entry(slot).or_default();
                *count += 1;
                if *count > MAX_REPLAYS {
                    return Err(RunError::Overloaded {
                        slot: slot.key(),
                        replays: *count - 1,
                        reason,
                    });
                }
                queue.lock().unwrap_or_else(|e| e.into_inner()).push_front(slot);
            }
            None => {
                standing.add(&slot, &outcome, &move_times);
                standing.note_harness(&lag);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::EloModel;

    fn plan(schedule: Schedule, n: usize) -> Plan {
        Plan {
            game: "domineering".into(),
            time: TimeControl::CONTEST,
            seed: 100,
            entrants: (0..n)
                .map(|i| Entrant {
                    name: format!("e{i}"),
                    spec: "builtin:random".into(),
                    cwd: None,
                })
                .collect(),
            schedule,
            sandbox: false,
        }
    }

    #[test]
    fn slot_keys_round_trip_and_reject_nonsense() {
        let slot = Slot { a: 1, b: 3, pair: 42, leg: 1 };
        assert_eq!(slot.key(), "1-3/42/1");
        assert_eq!(Slot::parse(&slot.key()), Some(slot));
        for bad in ["", "1-3/42", "3-1/0/0", "1-3/0/2", "a-b/c/d", "1-3/0/0/0"] {
            assert_eq!(Slot::parse(bad), None, "{bad}");
        }
        assert_eq!(slot.seats(), BySide::new(3, 1));
    }

    #[test]
    fn schedules_visit_every_pairing_with_both_colours_per_pair() {
        let league = plan(Schedule::League { pairs: 2, gauntlet: None }, 3);
        assert_eq!(league.pairings(), [(0, 1), (0, 2), (1, 2)]);
        let slots = league.slots();
        assert_eq!(slots.len(), 2 * 3 * 2);
        assert_eq!(slots[0].key(), "0-1/0/0");
        assert_eq!(slots[1].key(), "0-1/0/1");
        assert_eq!(slots[6].key(), "0-1/1/0");
        // Both legs of a pair share the seed; the next pair has the next.
        assert_eq!(league.config(&slots[0]).seed, league.config(&slots[1]).seed);
        assert_eq!(league.config(&slots[6]).seed, 101);

        let gauntlet = plan(Schedule::League { pairs: 1, gauntlet: Some(2) }, 4);
        assert_eq!(gauntlet.pairings(), [(0, 2), (1, 2), (2, 3)]);

        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, EloModel::Normalized);
        let sprt = plan(Schedule::Sprt { sprt, max_pairs: 3 }, 2);
        assert_eq!(sprt.slots().len(), 6);
    }

    #[test]
    fn a_pair_counts_in_the_pentanomial_once_both_legs_are_in() {
        let mut standing = Standing::new(vec!["test".into(), "base".into()]);
        let times = BySide::new(vec![5, 1000, 3000], vec![5, 2000]);
        let win_first = Outcome::from_scores(BySide::new(2.0, 1.0));
        standing.add(&Slot { a: 0, b: 1, pair: 0, leg: 0 }, &win_first, &times);
        assert_eq!(standing.pentanomial.pairs(), 0);
        // Leg 1: the base sits first and wins, so the test lost: one win, one loss.
        standing.add(&Slot { a: 0, b: 1, pair: 0, leg: 1 }, &win_first, &times);
        assert_eq!(standing.pentanomial.0, [0, 0, 1, 0, 0]);
        assert_eq!(standing.games(), 2);
        assert_eq!(standing.results[0][1], Trinomial::new(1, 0, 1));
        // Reply times skip the READY answer.
        assert_eq!(standing.tallies[0].moves, 3);
        assert_eq!(standing.tallies[0].move_time_us, 1000 + 3000 + 2000);
        assert_eq!(standing.tallies[0].max_move_us, 3000);
    }

    #[test]
    fn only_a_time_out_with_a_late_judge_is_the_harness_fault() {
        let scores = BySide::new(0.0, 0.0);
        let tle = Outcome::forfeit(Side::First, Fault::TimeLimit, scores);
        let re = Outcome::forfeit(Side::First, Fault::runtime("bad", "x"), scores);
        let late = JudgeLag { samples: 3, mean_us: 2_000, max_us: 6_000, load_centi: 0 };
        let prompt = JudgeLag { samples: 3, mean_us: 20, max_us: 60, load_centi: 0 };
        assert!(harness_fault(&tle, &late).is_some());
        assert!(harness_fault(&tle, &prompt).is_none());
        assert!(harness_fault(&re, &late).is_none());
    }

    #[test]
    fn judge_lag_summarises_the_record() {
        let record = vec![
            RecordLine::Recv { side: Side::First, line: "OK".into(), elapsed_ns: 1, lag_us: 10 },
            RecordLine::Timeout { side: Side::Second, lag_us: 30 },
            RecordLine::Send { side: Side::First, line: "X".into() },
        ];
        assert_eq!(
            judge_lag(&record),
            JudgeLag { samples: 2, mean_us: 20, max_us: 30, load_centi: 0 }
        );
    }
}
