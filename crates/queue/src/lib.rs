//! The PostgreSQL work queue: a league's games as rows that workers on any
//! host lease, play and commit, each result counted once.
//!
//! - A run's schedule is stored whole when it is scheduled: one `slots` row
//!   per game, keyed by `(run, slot)` with the league runner's slot names, so
//!   seeds and seats are the same as on SQLite.
//! - A worker *leases* the first open slot (`SELECT … FOR UPDATE SKIP
//!   LOCKED`: workers never wait on each other), which stamps it with a new
//!   lease token and an expiry. A heartbeat pushes the expiry of the worker's
//!   leases on; a worker that dies stops beating, and its slots are handed to
//!   the next worker that asks once their leases expire.
//! - A result is committed in one transaction that first checks the slot is
//!   still leased under the same token, then stores the game and closes the
//!   slot. A result whose lease was handed on is refused, and a unique index
//!   on `(run, slot)` over counted games makes a second count impossible even
//!   for a bug in this code.
//!
//! The queue lives in the league store's PostgreSQL database
//! ([`versus_league::store::Store`]): a run is the store's run (its plan as
//! the settings), its agents the store's agents (each with the artifact a
//! worker builds it from), and a committed game the store's game (with the
//! worker and lease that played it). So the league's reports, `--resume`,
//! the web page and the store's own tests see a run on PostgreSQL exactly as
//! they see one in a SQLite file. The queue adds its own tables (artifacts,
//! workers, slots), versioned apart in `queue_schema`.
//!
//! [`Queue`] is one connection: a worker keeps one per thread.

pub mod artifact;
pub use versus_sql::scratch;
pub mod worker;

use std::collections::HashMap;
use std::time::Duration;

use thiserror::Error;
use versus_core::{BySide, Outcome, RecordLine};
use versus_league::runner::{
    standing_from_store, Entrant, Plan, Schedule, Slot, Standing, MAX_REPLAYS,
};
use versus_league::store::{
    insert_remote_game, AgentId, JudgeLag, NewAgent, NewGame, NewRun, RunKind, Store, StoreError,
};
use versus_sql::{args, Conn, Migration, SqlError};

pub use artifact::Artifact;
pub use versus_league::store::RunId;

/// The queue's tables beside the store's, one migration per version
/// (PostgreSQL only: the queue is for many machines; one machine runs its
/// leagues on SQLite without it). Append only.
const MIGRATIONS: &[Migration] = &[
    // 1: artifacts, workers and slots; the agent's artifact and the game's
    // worker and lease on the store's tables.
    Migration {
        sqlite: "SELECT 1",
        postgres: "
        CREATE TABLE artifacts (
            hash        TEXT PRIMARY KEY,
            kind        TEXT NOT NULL CHECK (kind IN ('builtin', 'source', 'command')),
            -- builtin: its spec; source: its file name; command: the command line.
            spec        TEXT NOT NULL,
            -- builtin: the versus version; source: the language when named.
            version     TEXT,
            language    TEXT,
            source      BYTEA,
            -- A source's data file (NYPC's data.bin).
            data        BYTEA,
            cwd         TEXT,
            created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
        );
        ALTER TABLE agents ADD COLUMN artifact TEXT REFERENCES artifacts (hash);
        CREATE TABLE workers (
            id             BIGSERIAL PRIMARY KEY,
            name           TEXT NOT NULL,
            host           TEXT NOT NULL,
            cores          INTEGER NOT NULL,
            jobs           INTEGER NOT NULL,
            version        TEXT NOT NULL,
            started_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
            last_heartbeat TIMESTAMPTZ NOT NULL DEFAULT now(),
            stopped_at     TIMESTAMPTZ
        );
        CREATE SEQUENCE lease_tokens;
        CREATE TABLE slots (
            run_id        BIGINT NOT NULL REFERENCES runs (id),
            slot          TEXT NOT NULL,
            -- Schedule order: slots are handed out in it.
            seq           BIGINT NOT NULL,
            -- cancelled: an SPRT decided before the slot was needed.
            state         TEXT NOT NULL DEFAULT 'pending'
                          CHECK (state IN ('pending', 'leased', 'done', 'failed', 'cancelled')),
            -- The current (or last) lease: its token, holder and expiry.
            lease         BIGINT,
            worker_id     BIGINT REFERENCES workers (id),
            lease_expires TIMESTAMPTZ,
            -- How often the slot was handed out, and replayed for the harness.
            leases        INTEGER NOT NULL DEFAULT 0,
            replays       INTEGER NOT NULL DEFAULT 0,
            -- Why a failed slot could not be played.
            error         TEXT,
            PRIMARY KEY (run_id, slot)
        );
        CREATE INDEX slots_open ON slots (run_id, seq) WHERE state IN ('pending', 'leased');
        CREATE INDEX slots_by_worker ON slots (worker_id) WHERE state = 'leased';
        ALTER TABLE games ADD COLUMN worker_id BIGINT REFERENCES workers (id);
        ALTER TABLE games ADD COLUMN lease BIGINT;
        CREATE INDEX games_by_worker ON games (worker_id);
        ",
    },
];

/// The schema version of the queue's tables.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Slots inserted per statement when a run is scheduled.
const SLOTS_PER_INSERT: usize = 500;

/// What went wrong with the queue.
#[derive(Debug, Error)]
pub enum QueueError {
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("agent {name}: {message}")]
    Agent { name: String, message: String },
    #[error("{0}")]
    Plan(String),
    #[error("the queue is inconsistent: {0}")]
    Corrupt(String),
    #[error("cannot write an agent's source into the cache: {0}")]
    Cache(#[from] std::io::Error),
}

impl From<SqlError> for QueueError {
    fn from(error: SqlError) -> QueueError {
        QueueError::Store(StoreError::Sql(error))
    }
}

impl QueueError {
    /// Whether the connection, not the request, failed: the server went
    /// away or is restarting. Such an operation is worth retrying on a new
    /// connection.
    #[must_use]
    pub fn is_connection(&self) -> bool {
        matches!(self, QueueError::Store(error) if error.is_connection())
    }
}

/// A worker's id in the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WorkerId(pub i64);

/// A worker as it registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewWorker {
    pub name: String,
    pub host: String,
    pub cores: i32,
    pub jobs: i32,
}

/// A slot handed to a worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    pub run: RunId,
    pub slot: String,
    /// The lease's token: only it can commit the slot's result.
    pub token: i64,
    /// How often the slot has been handed out, this time included.
    pub leases: i32,
}

/// What became of a committed result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Committed {
    /// Stored and counted.
    Counted,
    /// Stored, not counted (the harness was to blame); the slot is open again
    /// unless it was replayed [`MAX_REPLAYS`] times, when it failed.
    Flagged(String),
    /// Not stored: the lease had been handed on (it expired) or the slot is
    /// closed. The result is dropped.
    LeaseLost,
}

/// A worker as `versus workers` lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkerRow {
    pub id: WorkerId,
    pub name: String,
    pub host: String,
    pub cores: i32,
    pub jobs: i32,
    /// Slots it holds now.
    pub in_flight: i64,
    /// Games it committed, counted or flagged.
    pub games: i64,
    /// Seconds since its last heartbeat.
    pub heartbeat_age_s: f64,
}

/// Each worker's share of a run, as fishtest shows per-worker residuals.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkerShare {
    pub name: String,
    pub host: String,
    /// Counted games, games flagged for the harness, and games with a fault
    /// verdict against either side.
    pub games: i64,
    pub flagged: i64,
    pub faults: i64,
    pub max_lag_us: u64,
    pub mean_load: f64,
}

/// How far a run is: slots by state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub pending: i64,
    pub leased: i64,
    pub done: i64,
    pub failed: i64,
    /// Not played: the run (an SPRT) was closed before they were needed.
    pub cancelled: i64,
}

impl Progress {
    /// Every slot is done, failed or cancelled.
    #[must_use]
    pub fn finished(&self) -> bool {
        self.pending == 0 && self.leased == 0
    }
}

/// A stored game of a run, for reports and tests.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredGame {
    pub slot: String,
    pub worker: WorkerId,
    pub lease: i64,
    pub seed: u64,
    pub outcome: Outcome,
    pub harness_flag: Option<String>,
    pub record: String,
}

/// A game a worker played, to commit.
#[derive(Clone, Copy, Debug)]
pub struct PlayedGame<'a> {
    /// The entrants in seat order.
    pub seats: BySide<usize>,
    pub outcome: &'a Outcome,
    /// The whole record, header to footer.
    pub record: &'a [RecordLine],
    pub lag: &'a JudgeLag,
    /// Why the harness is to blame for how the game ended, if it is.
    pub harness_flag: Option<&'a str>,
}

/// One connection to the queue.
pub struct Queue {
    store: Store,
    /// Each run's agent ids in entrant order, read once.
    agent_ids: HashMap<RunId, Vec<AgentId>>,
}

impl std::fmt::Debug for Queue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Queue").finish_non_exhaustive()
    }
}

fn secs(duration: Duration) -> f64 {
    duration.as_secs_f64()
}

impl Queue {
    /// Connects to `url` (`postgres://user@host/db`) and brings the store's
    /// and the queue's tables up to date.
    pub fn connect(url: &str) -> Result<Queue, QueueError> {
        if !versus_sql::is_postgres(url) {
            return Err(QueueError::Plan(format!(
                "the work queue needs a PostgreSQL database (postgres://…), not {url}"
            )));
        }
        let store = Store::open(url)?;
        store.conn().migrate("queue_schema", MIGRATIONS).map_err(|error| match error {
            SqlError::TooNew { found, known, .. } => QueueError::Plan(format!(
                "the queue's tables are at version {found}, newer than this versus ({known}): \
                 upgrade versus"
            )),
            other => other.into(),
        })?;
        Ok(Queue { store, agent_ids: HashMap::new() })
    }

    /// The league store the queue lives in.
    #[must_use]
    pub fn store(&self) -> &Store {
        &self.store
    }

    fn conn(&self) -> &Conn {
        self.store.conn()
    }

    /// The schema version of the queue's tables.
    pub fn schema_version(&mut self) -> Result<i64, QueueError> {
        Ok(self.conn().query_one("SELECT version FROM queue_schema", &[])?.get(0)?)
    }

    /// Stores a league's or an SPRT's plan as a run of the store, its agents
    /// with their artifacts and one open slot per game of its schedule, in
    /// one transaction. Command lines are refused unless `shared_path`.
    pub fn schedule(&mut self, plan: &Plan, shared_path: bool) -> Result<RunId, QueueError> {
        if versus_games::find(&plan.game).is_none() {
            return Err(QueueError::Plan(format!("unknown game {:?}", plan.game)));
        }
        let artifacts = plan
            .entrants
            .iter()
            .map(|e| Artifact::from_entrant(e, shared_path))
            .collect::<Result<Vec<_>, _>>()?;
        let settings = serde_json::to_value(plan).map_err(|e| QueueError::Plan(e.to_string()))?;
        let agents = plan
            .entrants
            .iter()
            .zip(&artifacts)
            .map(|(entrant, artifact)| NewAgent {
                name: entrant.name.clone(),
                spec: entrant.spec.clone(),
                hash: artifact.hash(),
            })
            .collect();
        let new = NewRun { kind: plan_kind(plan), game: plan.game.clone(), settings, agents };
        let store = &self.store;
        store.conn().write(|conn| -> Result<RunId, QueueError> {
            let run = store.create_run(&new)?;
            for (agent, artifact) in store.agents(run)?.iter().zip(&artifacts) {
                insert_artifact(conn, &agent.hash, artifact)?;
                conn.execute(
                    "UPDATE agents SET artifact = ?1 WHERE id = ?2",
                    args![&agent.hash, agent.id.0],
                )?;
            }
            let slots: Vec<String> = plan.slots().iter().map(Slot::key).collect();
            for (chunk_index, chunk) in slots.chunks(SLOTS_PER_INSERT).enumerate() {
                let mut sql = String::from("INSERT INTO slots (run_id, slot, seq) VALUES ");
                let mut values = vec![versus_sql::Value::from(run.0)];
                for (i, slot) in chunk.iter().enumerate() {
                    if i > 0 {
                        sql.push_str(", ");
                    }
                    sql.push_str(&format!("(?1, ?{}, ?{})", 2 * i + 2, 2 * i + 3));
                    values.push(slot.into());
                    values.push(((chunk_index * SLOTS_PER_INSERT + i) as i64).into());
                }
                conn.execute(&sql, &values)?;
            }
            Ok(run)
        })
    }

    /// A run's plan with every entrant as this host plays it (sources
    /// written into `cache`).
    pub fn local_plan(&mut self, run: RunId, cache: &std::path::Path) -> Result<Plan, QueueError> {
        let mut plan = self.plan(run)?;
        let rows = self.conn().query(
            "SELECT a.name, f.kind, f.spec, f.version, f.language, f.source, f.cwd, f.data
             FROM agents a JOIN artifacts f ON f.hash = a.artifact
             WHERE a.run_id = ?1 ORDER BY a.id",
            args![run.0],
        )?;
        if rows.len() != plan.entrants.len() {
            return Err(QueueError::Corrupt(format!(
                "run {} has {} agents with artifacts but its plan names {}",
                run.0,
                rows.len(),
                plan.entrants.len()
            )));
        }
        let mut entrants = Vec::with_capacity(rows.len());
        for row in rows {
            let kind: String = row.get(1)?;
            let spec: String = row.get(2)?;
            let artifact = match kind.as_str() {
                "builtin" => Artifact::Builtin {
                    spec,
                    version: row.get::<Option<String>>(3)?.unwrap_or_default(),
                },
                "source" => Artifact::Source {
                    file_name: spec,
                    language: row.get(4)?,
                    text: row.get::<Option<Vec<u8>>>(5)?.unwrap_or_default(),
                    data: row.get(7)?,
                },
                _ => Artifact::Command { command: spec, cwd: row.get(6)? },
            };
            let (spec, cwd) = artifact.local_spec(cache)?;
            entrants.push(Entrant { name: row.get(0)?, spec, cwd });
        }
        plan.entrants = entrants;
        Ok(plan)
    }

    /// A run's plan as scheduled.
    pub fn plan(&mut self, run: RunId) -> Result<Plan, QueueError> {
        let stored = self.store.run(run).map_err(|error| match error {
            StoreError::NoSuchRun(_) => QueueError::Plan(format!("there is no run {}", run.0)),
            other => other.into(),
        })?;
        serde_json::from_value(stored.settings)
            .map_err(|e| QueueError::Corrupt(format!("run {}'s plan: {e}", run.0)))
    }

    /// Adds a worker; it is live while it beats.
    pub fn register_worker(&mut self, worker: &NewWorker) -> Result<WorkerId, QueueError> {
        let row = self.conn().query_one(
            "INSERT INTO workers (name, host, cores, jobs, version) VALUES (?1, ?2, ?3, ?4, ?5)
             RETURNING id",
            args![&worker.name, &worker.host, worker.cores, worker.jobs, artifact::VERSUS_VERSION],
        )?;
        Ok(WorkerId(row.get(0)?))
    }

    /// The worker is alive: its heartbeat is now and the leases it holds
    /// (`tokens`: those it knows it holds) run for `lease` more.
    pub fn heartbeat(
        &mut self,
        worker: WorkerId,
        lease: Duration,
        tokens: &[i64],
    ) -> Result<(), QueueError> {
        self.conn().transaction(|conn| -> Result<(), QueueError> {
            conn.execute(
                "UPDATE workers SET last_heartbeat = now() WHERE id = ?1",
                args![worker.0],
            )?;
            for token in tokens {
                conn.execute(
                    "UPDATE slots SET lease_expires = now() + make_interval(secs => ?2)
                     WHERE worker_id = ?1 AND state = 'leased' AND lease = ?3",
                    args![worker.0, secs(lease), *token],
                )?;
            }
            Ok(())
        })
    }

    /// The worker stopped cleanly.
    pub fn worker_stopped(&mut self, worker: WorkerId) -> Result<(), QueueError> {
        self.conn()
            .execute("UPDATE workers SET stopped_at = now() WHERE id = ?1", args![worker.0])?;
        Ok(())
    }

    /// Hands the first open slot (in run, then schedule order) to `worker`
    /// for `lease`: a pending slot, or one whose lease expired.
    pub fn lease(
        &mut self,
        worker: WorkerId,
        lease: Duration,
    ) -> Result<Option<Lease>, QueueError> {
        let row = self.conn().query_opt(
            "UPDATE slots s SET state = 'leased', worker_id = ?1, lease = nextval('lease_tokens'),
                 lease_expires = now() + make_interval(secs => ?2), leases = s.leases + 1
             FROM (SELECT run_id, slot FROM slots
                   WHERE state = 'pending' OR (state = 'leased' AND lease_expires < now())
                   ORDER BY run_id, seq LIMIT 1 FOR UPDATE SKIP LOCKED) next
             WHERE s.run_id = next.run_id AND s.slot = next.slot
             RETURNING s.run_id, s.slot, s.lease, s.leases",
            args![worker.0, secs(lease)],
        )?;
        row.map(|row| {
            Ok(Lease {
                run: RunId(row.get(0)?),
                slot: row.get(1)?,
                token: row.get(2)?,
                leases: row.get(3)?,
            })
        })
        .transpose()
    }

    /// Whether any slot of any run is still pending or leased.
    pub fn has_open_slots(&mut self) -> Result<bool, QueueError> {
        let row = self.conn().query_one(
            "SELECT EXISTS (SELECT 1 FROM slots WHERE state IN ('pending', 'leased'))",
            &[],
        )?;
        Ok(row.get(0)?)
    }

    /// The store's ids of a run's entrants, in order.
    fn agent_ids(&mut self, run: RunId) -> Result<Vec<AgentId>, QueueError> {
        if let Some(ids) = self.agent_ids.get(&run) {
            return Ok(ids.clone());
        }
        let ids: Vec<AgentId> = self.store.agents(run)?.into_iter().map(|a| a.id).collect();
        self.agent_ids.insert(run, ids.clone());
        Ok(ids)
    }

    /// Stores a played game of `lease` in the store and closes its slot, in
    /// one transaction, if the lease is still the slot's.
    pub fn commit(
        &mut self,
        lease: &Lease,
        worker: WorkerId,
        game: &PlayedGame<'_>,
    ) -> Result<Committed, QueueError> {
        let PlayedGame { seats, outcome: _, record, lag, harness_flag } = *game;
        let ids = self.agent_ids(lease.run)?;
        let seat = |index: usize| {
            ids.get(index).copied().ok_or_else(|| {
                QueueError::Corrupt(format!("run {} has no entrant {index}", lease.run.0))
            })
        };
        let new = NewGame {
            slot: lease.slot.clone(),
            agents: BySide::new(seat(seats.first)?, seat(seats.second)?),
            record: record.to_vec(),
            judge_lag: Some(*lag),
            harness_flag: harness_flag.map(str::to_owned),
        };
        // Not exclusive: workers commit side by side; the slot's row lock
        // (taken by `holds`) orders the commits of one slot.
        self.conn().transaction(|conn| -> Result<Committed, QueueError> {
            if !holds(conn, lease)? {
                return Ok(Committed::LeaseLost);
            }
            let id = insert_remote_game(conn, lease.run, &new)?;
            conn.execute(
                "UPDATE games SET worker_id = ?1, lease = ?2 WHERE id = ?3",
                args![worker.0, lease.token, id.0],
            )?;
            Ok(match harness_flag {
                None => {
                    conn.execute(
                        "UPDATE slots SET state = 'done', lease_expires = NULL
                         WHERE run_id = ?1 AND slot = ?2",
                        args![lease.run.0, &lease.slot],
                    )?;
                    Committed::Counted
                }
                Some(reason) => {
                    // Played again, by whoever asks next, unless replayed enough.
                    let error = format!(
                        "replayed {MAX_REPLAYS} times because the judge itself was late \
                         ({reason}); the machine is too loaded for fair games"
                    );
                    conn.execute(
                        "UPDATE slots SET replays = replays + 1, lease_expires = NULL,
                             state = CASE WHEN replays + 1 > ?3 THEN 'failed' ELSE 'pending' END,
                             error = CASE WHEN replays + 1 > ?3 THEN ?4 END
                         WHERE run_id = ?1 AND slot = ?2",
                        args![lease.run.0, &lease.slot, MAX_REPLAYS, error],
                    )?;
                    Committed::Flagged(reason.to_owned())
                }
            })
        })
    }

    /// Closes a slot that cannot be played (an agent that cannot start, an
    /// unknown game): the run's report shows why.
    pub fn fail(&mut self, lease: &Lease, error: &str) -> Result<Committed, QueueError> {
        self.conn().transaction(|conn| -> Result<Committed, QueueError> {
            if !holds(conn, lease)? {
                return Ok(Committed::LeaseLost);
            }
            conn.execute(
                "UPDATE slots SET state = 'failed', error = ?3, lease_expires = NULL
                 WHERE run_id = ?1 AND slot = ?2",
                args![lease.run.0, &lease.slot, error],
            )?;
            Ok(Committed::Counted)
        })
    }

    /// The slots `worker` holds now: `(run, slot)`.
    pub fn held_by(&mut self, worker: WorkerId) -> Result<Vec<(RunId, String)>, QueueError> {
        let rows = self.conn().query(
            "SELECT run_id, slot FROM slots WHERE worker_id = ?1 AND state = 'leased'
             ORDER BY run_id, seq",
            args![worker.0],
        )?;
        rows.iter().map(|r| Ok((RunId(r.get(0)?), r.get(1)?))).collect()
    }

    /// Slots of a run by state.
    pub fn progress(&mut self, run: RunId) -> Result<Progress, QueueError> {
        let mut progress = Progress::default();
        for row in self.conn().query(
            "SELECT state, count(*) FROM slots WHERE run_id = ?1 GROUP BY state",
            args![run.0],
        )? {
            let count: i64 = row.get(1)?;
            match row.get::<String>(0)?.as_str() {
                "pending" => progress.pending = count,
                "leased" => progress.leased = count,
                "done" => progress.done = count,
                "cancelled" => progress.cancelled = count,
                _ => progress.failed = count,
            }
        }
        Ok(progress)
    }

    /// Why slots of a run failed: `(slot, error)`.
    pub fn failures(&mut self, run: RunId) -> Result<Vec<(String, String)>, QueueError> {
        let rows = self.conn().query(
            "SELECT slot, coalesce(error, '') FROM slots WHERE run_id = ?1 AND state = 'failed'
             ORDER BY seq",
            args![run.0],
        )?;
        rows.iter().map(|r| Ok((r.get(0)?, r.get(1)?))).collect()
    }

    /// Every stored game of a run, counted or flagged, in commit order.
    pub fn games(&mut self, run: RunId) -> Result<Vec<StoredGame>, QueueError> {
        let summaries = self.store.games(run)?;
        // The queue's columns of the same games, in the same (id) order:
        // none committed since is read (games are never deleted).
        let last = summaries.last().map_or(0, |g| g.id.0);
        let rows = self.conn().query(
            "SELECT coalesce(worker_id, 0), coalesce(lease, 0), record FROM games
             WHERE run_id = ?1 AND id <= ?2 ORDER BY id",
            args![run.0, last],
        )?;
        if rows.len() != summaries.len() {
            return Err(QueueError::Corrupt(format!("run {}'s games cannot be read", run.0)));
        }
        summaries
            .into_iter()
            .zip(rows)
            .map(|(summary, row)| {
                Ok(StoredGame {
                    slot: summary.slot,
                    worker: WorkerId(row.get(0)?),
                    lease: row.get(1)?,
                    seed: summary.seed,
                    outcome: summary.outcome,
                    harness_flag: summary.harness_flag,
                    record: row.get(2)?,
                })
            })
            .collect()
    }

    /// The standing of a run from its counted games, by the same code as the
    /// SQLite runner's.
    pub fn standing(&mut self, run: RunId) -> Result<Standing, QueueError> {
        let plan = self.plan(run)?;
        standing_from_store(&self.store, run, &plan)
            .map_err(|error| QueueError::Corrupt(error.to_string()))
    }

    /// Each worker's games in a run, with its faults and harness figures.
    pub fn shares(&mut self, run: RunId) -> Result<Vec<WorkerShare>, QueueError> {
        let rows = self.conn().query(
            "SELECT w.name, w.host, g.harness_flag IS NOT NULL,
                 g.first_fault IS NOT NULL OR g.second_fault IS NOT NULL, g.judge_lag
             FROM games g JOIN workers w ON w.id = g.worker_id
             WHERE g.run_id = ?1 ORDER BY w.id, g.id",
            args![run.0],
        )?;
        let mut shares: Vec<WorkerShare> = Vec::new();
        let mut index: HashMap<(String, String), usize> = HashMap::new();
        let mut load_sum: Vec<u64> = Vec::new();
        for row in rows {
            let key = (row.get::<String>(0)?, row.get::<String>(1)?);
            let at = *index.entry(key.clone()).or_insert_with(|| {
                shares.push(WorkerShare {
                    name: key.0.clone(),
                    host: key.1.clone(),
                    ..WorkerShare::default()
                });
                load_sum.push(0);
                shares.len() - 1
            });
            let share = &mut shares[at];
            let lag: JudgeLag = row
                .get::<Option<String>>(4)?
                .and_then(|text| serde_json::from_str(&text).ok())
                .unwrap_or_default();
            share.max_lag_us = share.max_lag_us.max(lag.max_us);
            if row.get::<bool>(2)? {
                share.flagged += 1;
                continue;
            }
            share.games += 1;
            load_sum[at] += lag.load_centi;
            if row.get::<bool>(3)? {
                share.faults += 1;
            }
        }
        for (share, sum) in shares.iter_mut().zip(load_sum) {
            if share.games > 0 {
                share.mean_load = sum as f64 / 100.0 / share.games as f64;
            }
        }
        Ok(shares)
    }

    /// Workers whose last heartbeat is within `within` and that did not
    /// stop, with the slots they hold and the games they committed.
    pub fn live_workers(&mut self, within: Duration) -> Result<Vec<WorkerRow>, QueueError> {
        let rows = self.conn().query(
            "SELECT w.id, w.name, w.host, w.cores, w.jobs,
                 (SELECT count(*) FROM slots s WHERE s.worker_id = w.id AND s.state = 'leased'),
                 (SELECT count(*) FROM games g WHERE g.worker_id = w.id),
                 extract(epoch FROM now() - w.last_heartbeat)::float8
             FROM workers w
             WHERE w.stopped_at IS NULL AND w.last_heartbeat > now() - make_interval(secs => ?1)
             ORDER BY w.id",
            args![secs(within)],
        )?;
        rows.iter()
            .map(|row| {
                Ok(WorkerRow {
                    id: WorkerId(row.get(0)?),
                    name: row.get(1)?,
                    host: row.get(2)?,
                    cores: row.get(3)?,
                    jobs: row.get(4)?,
                    in_flight: row.get(5)?,
                    games: row.get(6)?,
                    heartbeat_age_s: row.get(7)?,
                })
            })
            .collect()
    }

    /// Stops handing out a run's games (an SPRT that has decided): its
    /// pending slots, and leased ones whose holder is gone (expired lease),
    /// are cancelled; games being played may still be committed. Returns how
    /// many slots were cancelled.
    pub fn close_run(&mut self, run: RunId) -> Result<u64, QueueError> {
        Ok(self.conn().execute(
            "UPDATE slots SET state = 'cancelled', lease_expires = NULL
             WHERE run_id = ?1
               AND (state = 'pending' OR (state = 'leased' AND lease_expires < now()))",
            args![run.0],
        )?)
    }

    /// Marks a run finished with its conclusion.
    pub fn finish_run(&mut self, run: RunId, conclusion: &str) -> Result<(), QueueError> {
        Ok(self.store.finish_run(run, conclusion)?)
    }
}

/// The kind of run a plan schedules.
fn plan_kind(plan: &Plan) -> RunKind {
    match plan.schedule {
        Schedule::League { .. } => RunKind::League,
        Schedule::Sprt { .. } => RunKind::Sprt,
    }
}

/// Whether `lease` still holds its slot, which stays locked until the
/// transaction ends.
fn holds(conn: &Conn, lease: &Lease) -> Result<bool, QueueError> {
    let row = conn.query_opt(
        "SELECT state, lease FROM slots WHERE run_id = ?1 AND slot = ?2 FOR UPDATE",
        args![lease.run.0, &lease.slot],
    )?;
    Ok(match row {
        Some(row) => {
            row.get::<String>(0)? == "leased" && row.get::<Option<i64>>(1)? == Some(lease.token)
        }
        None => false,
    })
}

fn insert_artifact(conn: &Conn, hash: &str, artifact: &Artifact) -> Result<(), QueueError> {
    let (mut version, mut language, mut source, mut cwd, mut data) = (None, None, None, None, None);
    let spec = match artifact {
        Artifact::Builtin { spec, version: v } => {
            version = Some(v.as_str());
            spec
        }
        Artifact::Source { file_name, language: l, text, data: d } => {
            language = l.as_deref();
            source = Some(text.as_slice());
            data = d.as_deref();
            file_name
        }
        Artifact::Command { command, cwd: c } => {
            cwd = c.as_deref();
            command
        }
    };
    // Content-addressed: the same artifact is stored once, whoever sends it.
    conn.execute(
        "INSERT INTO artifacts (hash, kind, spec, version, language, source, cwd, data)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (hash) DO NOTHING",
        args![hash, artifact.kind(), spec.as_str(), version, language, source, cwd, data],
    )?;
    Ok(())
}
