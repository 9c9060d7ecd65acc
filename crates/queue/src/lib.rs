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
//! [`Queue`] is one connection (a `postgres::Client`): a worker keeps one per
//! thread.

pub mod artifact;
pub use versus_sql::scratch;
pub mod worker;

use std::collections::HashMap;
use std::time::Duration;

use postgres::{Client, NoTls, Transaction};
use thiserror::Error;
use versus_core::{BySide, Outcome, RecordLine};
use versus_league::runner::{Entrant, Plan, Schedule, Slot, Standing, MAX_REPLAYS};
use versus_league::store::{reply_times_us, JudgeLag};

pub use artifact::Artifact;

/// The migrations, one per schema version: migration `i` takes the database
/// from version `i` to `i + 1`. Append only.
const MIGRATIONS: &[&str] = &[
    // 1: artifacts, runs, workers, the slots of the queue and played games.
    "
    CREATE TABLE artifacts (
        hash        TEXT PRIMARY KEY,
        kind        TEXT NOT NULL CHECK (kind IN ('builtin', 'source', 'command')),
        -- builtin: its spec; source: its file name; command: the command line.
        spec        TEXT NOT NULL,
        -- builtin: the versus version; source: the language when named.
        version     TEXT,
        language    TEXT,
        source      BYTEA,
        cwd         TEXT,
        created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
    );
    CREATE TABLE runs (
        id          BIGSERIAL PRIMARY KEY,
        kind        TEXT NOT NULL CHECK (kind IN ('sprt', 'league')),
        game        TEXT NOT NULL,
        -- The league runner's plan as JSON (entrants as scheduled).
        plan        TEXT NOT NULL,
        created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
        finished_at TIMESTAMPTZ,
        conclusion  TEXT
    );
    CREATE TABLE run_agents (
        run_id   BIGINT NOT NULL REFERENCES runs (id),
        idx      INTEGER NOT NULL,
        name     TEXT NOT NULL,
        artifact TEXT NOT NULL REFERENCES artifacts (hash),
        PRIMARY KEY (run_id, idx),
        UNIQUE (run_id, name)
    );
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
        state         TEXT NOT NULL DEFAULT 'pending'
                      CHECK (state IN ('pending', 'leased', 'done', 'failed')),
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
    CREATE TABLE games (
        id           BIGSERIAL PRIMARY KEY,
        run_id       BIGINT NOT NULL,
        slot         TEXT NOT NULL,
        worker_id    BIGINT NOT NULL REFERENCES workers (id),
        lease        BIGINT NOT NULL,
        -- A u64 in decimal.
        seed         TEXT NOT NULL,
        first_agent  INTEGER NOT NULL,
        second_agent INTEGER NOT NULL,
        -- The record's footer outcome, reply times (µs) and judge lag, as JSON.
        outcome      TEXT NOT NULL,
        move_times   TEXT NOT NULL,
        judge_lag    TEXT NOT NULL,
        -- NULL for a counted game; else why the harness is to blame.
        harness_flag TEXT,
        record       TEXT NOT NULL,
        finished_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
        FOREIGN KEY (run_id, slot) REFERENCES slots (run_id, slot)
    );
    -- The guarantee: at most one counted game per slot.
    CREATE UNIQUE INDEX games_counted_slot ON games (run_id, slot) WHERE harness_flag IS NULL;
    CREATE INDEX games_by_worker ON games (worker_id);
    ",
    // 2: a slot an SPRT no longer needs once it has decided is 'cancelled'.
    "
    ALTER TABLE slots DROP CONSTRAINT slots_state_check;
    ALTER TABLE slots ADD CONSTRAINT slots_state_check
        CHECK (state IN ('pending', 'leased', 'done', 'failed', 'cancelled'));
    ",
    // 3: a source's data file (NYPC's data.bin) travels with it.
    "ALTER TABLE artifacts ADD COLUMN data BYTEA;",
];

/// The schema version this versus writes.
pub const SCHEMA_VERSION: i32 = MIGRATIONS.len() as i32;

/// Serialises migrations between processes (`pg_advisory_xact_lock`).
const MIGRATION_LOCK: i64 = 0x7665_7273_0001;

/// What went wrong with the queue.
#[derive(Debug, Error)]
pub enum QueueError {
    // Not a `source`: the message already includes the driver's own chain,
    // which a caller printing causes would otherwise repeat.
    #[error("PostgreSQL: {0}")]
    Db(postgres::Error),
    #[error(
        "the database has schema version {found}, newer than this versus ({known}): upgrade versus"
    )]
    TooNew { found: i32, known: i32 },
    #[error("agent {name}: {message}")]
    Agent { name: String, message: String },
    #[error("{0}")]
    Plan(String),
    #[error("the queue is inconsistent: {0}")]
    Corrupt(String),
    #[error("cannot write an agent's source into the cache: {0}")]
    Cache(#[from] std::io::Error),
}

impl From<postgres::Error> for QueueError {
    fn from(error: postgres::Error) -> QueueError {
        QueueError::Db(error)
    }
}

impl QueueError {
    /// Whether the connection, not the request, failed: the server went
    /// away or is restarting. Such an operation is worth retrying on a new
    /// connection.
    #[must_use]
    pub fn is_connection(&self) -> bool {
        match self {
            QueueError::Db(error) => {
                error.is_closed()
                    || match error.code() {
                        // Class 08: connection exception; 57P0x: the server
                        // is shutting down or cannot take connections yet.
                        Some(code) => {
                            let code = code.code();
                            code.starts_with("08") || code.starts_with("57P")
                        }
                        // No SQLSTATE: an I/O error on the socket.
                        None => error.as_db_error().is_none(),
                    }
            }
            _ => false,
        }
    }
}

macro_rules! id_type {
    ($name:ident) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub i64);
    };
}
id_type!(RunId);
id_type!(WorkerId);

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
    client: Client,
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
    /// Connects to `url` (`postgres://user@host/db`, or keyword form) and
    /// brings the schema up to [`SCHEMA_VERSION`].
    pub fn connect(url: &str) -> Result<Queue, QueueError> {
        let mut config: postgres::Config = url.parse()?;
        if config.get_application_name().is_none() {
            config.application_name("versus");
        }
        config.connect_timeout(Duration::from_secs(10));
        let client = config.connect(NoTls)?;
        let mut queue = Queue { client };
        queue.migrate()?;
        Ok(queue)
    }

    fn migrate(&mut self) -> Result<(), QueueError> {
        let mut tx = self.client.transaction()?;
        // Workers starting together must not race to create the tables.
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
        tx.batch_execute("CREATE TABLE IF NOT EXISTS versus_schema (version INTEGER NOT NULL)")?;
        let found: Option<i32> =
            tx.query_opt("SELECT max(version) FROM versus_schema", &[])?.and_then(|r| r.get(0));
        let found = found.unwrap_or(0);
        if found > SCHEMA_VERSION {
            return Err(QueueError::TooNew { found, known: SCHEMA_VERSION });
        }
        for (index, migration) in MIGRATIONS.iter().enumerate().skip(found as usize) {
            tx.batch_execute(migration)?;
            tx.execute("INSERT INTO versus_schema (version) VALUES ($1)", &[&(index as i32 + 1)])?;
        }
        tx.commit()?;
        Ok(())
    }

    /// The schema version of the database.
    pub fn schema_version(&mut self) -> Result<i32, QueueError> {
        let row = self.client.query_one("SELECT max(version) FROM versus_schema", &[])?;
        Ok(row.get::<_, Option<i32>>(0).unwrap_or(0))
    }

    /// Stores a league's or an SPRT's plan, its agents as artifacts and one open slot per
    /// game of its schedule, in one transaction. Command lines are refused
    /// unless `shared_path`.
    pub fn schedule(&mut self, plan: &Plan, shared_path: bool) -> Result<RunId, QueueError> {
        if versus_games::find(&plan.game).is_none() {
            return Err(QueueError::Plan(format!("unknown game {:?}", plan.game)));
        }
        let artifacts = plan
            .entrants
            .iter()
            .map(|e| Artifact::from_entrant(e, shared_path))
            .collect::<Result<Vec<_>, _>>()?;
        let plan_json = serde_json::to_string(plan).map_err(|e| QueueError::Plan(e.to_string()))?;
        let mut tx = self.client.transaction()?;
        let run: i64 = tx
            .query_one(
                "INSERT INTO runs (kind, game, plan) VALUES ($1, $2, $3) RETURNING id",
                &[&plan_kind(plan), &plan.game, &plan_json],
            )?
            .get(0);
        for (index, (entrant, artifact)) in plan.entrants.iter().zip(&artifacts).enumerate() {
            let hash = artifact.hash();
            insert_artifact(&mut tx, &hash, artifact)?;
            tx.execute(
                "INSERT INTO run_agents (run_id, idx, name, artifact) VALUES ($1, $2, $3, $4)",
                &[&run, &(index as i32), &entrant.name, &hash],
            )?;
        }
        let slots: Vec<String> = plan.slots().iter().map(Slot::key).collect();
        let seqs: Vec<i64> = (0..slots.len() as i64).collect();
        tx.execute(
            "INSERT INTO slots (run_id, slot, seq) SELECT $1, * FROM unnest($2::text[], $3::bigint[])",
            &[&run, &slots, &seqs],
        )?;
        tx.commit()?;
        Ok(RunId(run))
    }

    /// A run's plan with every entrant as this host plays it (sources
    /// written into `cache`).
    pub fn local_plan(&mut self, run: RunId, cache: &std::path::Path) -> Result<Plan, QueueError> {
        let mut plan = self.plan(run)?;
        let rows = self.client.query(
            "SELECT a.idx, a.name, f.kind, f.spec, f.version, f.language, f.source, f.cwd, f.data
             FROM run_agents a JOIN artifacts f ON f.hash = a.artifact
             WHERE a.run_id = $1 ORDER BY a.idx",
            &[&run.0],
        )?;
        if rows.len() != plan.entrants.len() {
            return Err(QueueError::Corrupt(format!(
                "run {} has {} agents but its plan names {}",
                run.0,
                rows.len(),
                plan.entrants.len()
            )));
        }
        let mut entrants = Vec::with_capacity(rows.len());
        for row in rows {
            let kind: String = row.get(2);
            let spec: String = row.get(3);
            let artifact = match kind.as_str() {
                "builtin" => Artifact::Builtin {
                    spec,
                    version: row.get::<_, Option<String>>(4).unwrap_or_default(),
                },
                "source" => Artifact::Source {
                    file_name: spec,
                    language: row.get(5),
                    text: row.get::<_, Option<Vec<u8>>>(6).unwrap_or_default(),
                    data: row.get(8),
                },
                _ => Artifact::Command { command: spec, cwd: row.get(7) },
            };
            let (spec, cwd) = artifact.local_spec(cache)?;
            entrants.push(Entrant { name: row.get(1), spec, cwd });
        }
        plan.entrants = entrants;
        Ok(plan)
    }

    /// A run's plan as scheduled.
    pub fn plan(&mut self, run: RunId) -> Result<Plan, QueueError> {
        let row = self
            .client
            .query_opt("SELECT plan FROM runs WHERE id = $1", &[&run.0])?
            .ok_or_else(|| QueueError::Plan(format!("there is no run {}", run.0)))?;
        serde_json::from_str(row.get(0))
            .map_err(|e| QueueError::Corrupt(format!("run {}'s plan: {e}", run.0)))
    }

    /// Adds a worker; it is live while it beats.
    pub fn register_worker(&mut self, worker: &NewWorker) -> Result<WorkerId, QueueError> {
        let row = self.client.query_one(
            "INSERT INTO workers (name, host, cores, jobs, version) VALUES ($1, $2, $3, $4, $5)
             RETURNING id",
            &[&worker.name, &worker.host, &worker.cores, &worker.jobs, &artifact::VERSUS_VERSION],
        )?;
        Ok(WorkerId(row.get(0)))
    }

    /// The worker is alive: its heartbeat is now and the leases it holds
    /// (`tokens`: those it knows it holds) run for `lease` more.
    pub fn heartbeat(
        &mut self,
        worker: WorkerId,
        lease: Duration,
        tokens: &[i64],
    ) -> Result<(), QueueError> {
        let mut tx = self.client.transaction()?;
        tx.execute("UPDATE workers SET last_heartbeat = now() WHERE id = $1", &[&worker.0])?;
        tx.execute(
            "UPDATE slots SET lease_expires = now() + make_interval(secs => $2)
             WHERE worker_id = $1 AND state = 'leased' AND lease = ANY ($3)",
            &[&worker.0, &secs(lease), &tokens],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// The worker stopped cleanly.
    pub fn worker_stopped(&mut self, worker: WorkerId) -> Result<(), QueueError> {
        self.client.execute("UPDATE workers SET stopped_at = now() WHERE id = $1", &[&worker.0])?;
        Ok(())
    }

    /// Hands the first open slot (in run, then schedule order) to `worker`
    /// for `lease`: a pending slot, or one whose lease expired.
    pub fn lease(
        &mut self,
        worker: WorkerId,
        lease: Duration,
    ) -> Result<Option<Lease>, QueueError> {
        let row = self.client.query_opt(
            "UPDATE slots s SET state = 'leased', worker_id = $1, lease = nextval('lease_tokens'),
                 lease_expires = now() + make_interval(secs => $2), leases = s.leases + 1
             FROM (SELECT run_id, slot FROM slots
                   WHERE state = 'pending' OR (state = 'leased' AND lease_expires < now())
                   ORDER BY run_id, seq LIMIT 1 FOR UPDATE SKIP LOCKED) next
             WHERE s.run_id = next.run_id AND s.slot = next.slot
             RETURNING s.run_id, s.slot, s.lease, s.leases",
            &[&worker.0, &secs(lease)],
        )?;
        Ok(row.map(|row| Lease {
            run: RunId(row.get(0)),
            slot: row.get(1),
            token: row.get(2),
            leases: row.get(3),
        }))
    }

    /// Whether any slot of any run is still pending or leased.
    pub fn has_open_slots(&mut self) -> Result<bool, QueueError> {
        let row = self.client.query_one(
            "SELECT EXISTS (SELECT 1 FROM slots WHERE state IN ('pending', 'leased'))",
            &[],
        )?;
        Ok(row.get(0))
    }

    /// Stores a played game of `lease` and closes its slot, in one
    /// transaction, if the lease is still the slot's.
    pub fn commit(
        &mut self,
        lease: &Lease,
        worker: WorkerId,
        game: &PlayedGame<'_>,
    ) -> Result<Committed, QueueError> {
        let PlayedGame { seats, outcome, record, lag, harness_flag } = *game;
        let seed = record
            .iter()
            .find_map(|line| match line {
                RecordLine::Header(header) => Some(header.config.seed),
                _ => None,
            })
            .ok_or_else(|| {
                QueueError::Corrupt(format!("slot {}'s record has no header", lease.slot))
            })?;
        let outcome_json = to_json(outcome)?;
        let times_json = to_json(&reply_times_us(record))?;
        let lag_json = to_json(lag)?;
        let mut text = String::new();
        for line in record {
            text.push_str(&to_json(line)?);
            text.push('\n');
        }
        let mut tx = self.client.transaction()?;
        if !holds(&mut tx, lease)? {
            return Ok(Committed::LeaseLost);
        }
        tx.execute(
            "INSERT INTO games (run_id, slot, worker_id, lease, seed, first_agent, second_agent,
                 outcome, move_times, judge_lag, harness_flag, record)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
            &[
                &lease.run.0,
                &lease.slot,
                &worker.0,
                &lease.token,
                &seed.to_string(),
                &(seats.first as i32),
                &(seats.second as i32),
                &outcome_json,
                &times_json,
                &lag_json,
                &harness_flag,
                &text,
            ],
        )?;
        let committed = match harness_flag {
            None => {
                tx.execute(
                    "UPDATE slots SET state = 'done', lease_expires = NULL WHERE run_id = $1 AND slot = $2",
                    &[&lease.run.0, &lease.slot],
                )?;
                Committed::Counted
            }
            Some(reason) => {
                // Played again, by whoever asks next, unless replayed enough.
                let error = format!(
                    "replayed {MAX_REPLAYS} times because the judge itself was late ({reason}); \
                     the machine is too loaded for fair games"
                );
                tx.execute(
                    "UPDATE slots SET replays = replays + 1, lease_expires = NULL,
                         state = CASE WHEN replays + 1 > $3 THEN 'failed' ELSE 'pending' END,
                         error = CASE WHEN replays + 1 > $3 THEN $4 END
                     WHERE run_id = $1 AND slot = $2",
                    &[&lease.run.0, &lease.slot, &(MAX_REPLAYS as i32), &error],
                )?;
                Committed::Flagged(reason.to_owned())
            }
        };
        tx.commit()?;
        Ok(committed)
    }

    /// Closes a slot that cannot be played (an agent that cannot start, an
    /// unknown game): the run's report shows why.
    pub fn fail(&mut self, lease: &Lease, error: &str) -> Result<Committed, QueueError> {
        let mut tx = self.client.transaction()?;
        if !holds(&mut tx, lease)? {
            return Ok(Committed::LeaseLost);
        }
        tx.execute(
            "UPDATE slots SET state = 'failed', error = $3, lease_expires = NULL
             WHERE run_id = $1 AND slot = $2",
            &[&lease.run.0, &lease.slot, &error],
        )?;
        tx.commit()?;
        Ok(Committed::Counted)
    }

    /// The slots `worker` holds now: `(run, slot)`.
    pub fn held_by(&mut self, worker: WorkerId) -> Result<Vec<(RunId, String)>, QueueError> {
        let rows = self.client.query(
            "SELECT run_id, slot FROM slots WHERE worker_id = $1 AND state = 'leased'
             ORDER BY run_id, seq",
            &[&worker.0],
        )?;
        Ok(rows.iter().map(|r| (RunId(r.get(0)), r.get(1))).collect())
    }

    /// Slots of a run by state.
    pub fn progress(&mut self, run: RunId) -> Result<Progress, QueueError> {
        let mut progress = Progress::default();
        for row in self.client.query(
            "SELECT state, count(*) FROM slots WHERE run_id = $1 GROUP BY state",
            &[&run.0],
        )? {
            let count: i64 = row.get(1);
            match row.get::<_, &str>(0) {
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
        let rows = self.client.query(
            "SELECT slot, coalesce(error, '') FROM slots WHERE run_id = $1 AND state = 'failed'
             ORDER BY seq",
            &[&run.0],
        )?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    /// Every stored game of a run, counted or flagged, in commit order.
    pub fn games(&mut self, run: RunId) -> Result<Vec<StoredGame>, QueueError> {
        let rows = self.client.query(
            "SELECT slot, worker_id, lease, seed, outcome, harness_flag, record FROM games
             WHERE run_id = $1 ORDER BY id",
            &[&run.0],
        )?;
        rows.iter()
            .map(|row| {
                let slot: String = row.get(0);
                let seed: String = row.get(3);
                Ok(StoredGame {
                    seed: seed.parse().map_err(|_| corrupt(&slot, "seed"))?,
                    outcome: serde_json::from_str(row.get(4))
                        .map_err(|_| corrupt(&slot, "outcome"))?,
                    worker: WorkerId(row.get(1)),
                    lease: row.get(2),
                    harness_flag: row.get(5),
                    record: row.get(6),
                    slot,
                })
            })
            .collect()
    }

    /// The standing of a run from its counted games, as the SQLite runner
    /// reports it.
    pub fn standing(&mut self, run: RunId) -> Result<Standing, QueueError> {
        let plan = self.plan(run)?;
        let mut standing = Standing::new(plan.entrants.iter().map(|e| e.name.clone()).collect());
        // Schedule order, so an SPRT's pairs would pair up as on SQLite.
        let rows = self.client.query(
            "SELECT g.slot, g.outcome, g.move_times, g.judge_lag, g.first_agent, g.second_agent
             FROM games g JOIN slots s USING (run_id, slot)
             WHERE g.run_id = $1 AND g.harness_flag IS NULL ORDER BY s.seq",
            &[&run.0],
        )?;
        for row in rows {
            let key: String = row.get(0);
            let slot = Slot::parse(&key).ok_or_else(|| corrupt(&key, "slot name"))?;
            let seats = slot.seats();
            let stored = BySide::new(row.get::<_, i32>(4) as usize, row.get::<_, i32>(5) as usize);
            if stored != seats {
                return Err(corrupt(&key, "seats"));
            }
            let outcome: Outcome =
                serde_json::from_str(row.get(1)).map_err(|_| corrupt(&key, "outcome"))?;
            let times: BySide<Vec<u64>> =
                serde_json::from_str(row.get(2)).map_err(|_| corrupt(&key, "move times"))?;
            let lag: JudgeLag =
                serde_json::from_str(row.get(3)).map_err(|_| corrupt(&key, "judge lag"))?;
            standing.add(&slot, &outcome, &times);
            standing.note_harness(&lag);
        }
        let flagged: i64 = self
            .client
            .query_one(
                "SELECT count(*) FROM games WHERE run_id = $1 AND harness_flag IS NOT NULL",
                &[&run.0],
            )?
            .get(0);
        standing.flagged = flagged as u64;
        Ok(standing)
    }

    /// Each worker's games in a run, with its faults and harness figures.
    pub fn shares(&mut self, run: RunId) -> Result<Vec<WorkerShare>, QueueError> {
        let rows = self.client.query(
            "SELECT w.name, w.host, g.harness_flag IS NOT NULL, g.outcome, g.judge_lag
             FROM games g JOIN workers w ON w.id = g.worker_id
             WHERE g.run_id = $1 ORDER BY w.id, g.id",
            &[&run.0],
        )?;
        let mut shares: Vec<WorkerShare> = Vec::new();
        let mut index: HashMap<(String, String), usize> = HashMap::new();
        let mut load_sum: Vec<u64> = Vec::new();
        for row in rows {
            let key = (row.get::<_, String>(0), row.get::<_, String>(1));
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
            let lag: JudgeLag = serde_json::from_str(row.get(4)).unwrap_or_default();
            share.max_lag_us = share.max_lag_us.max(lag.max_us);
            if row.get::<_, bool>(2) {
                share.flagged += 1;
                continue;
            }
            share.games += 1;
            load_sum[at] += lag.load_centi;
            let outcome: Outcome = serde_json::from_str(row.get(3))
                .unwrap_or_else(|_| Outcome::from_scores(BySide::new(0.0, 0.0)));
            if outcome.faults.first.is_some() || outcome.faults.second.is_some() {
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
        let rows = self.client.query(
            "SELECT w.id, w.name, w.host, w.cores, w.jobs,
                 (SELECT count(*) FROM slots s WHERE s.worker_id = w.id AND s.state = 'leased'),
                 (SELECT count(*) FROM games g WHERE g.worker_id = w.id),
                 extract(epoch FROM now() - w.last_heartbeat)::float8
             FROM workers w
             WHERE w.stopped_at IS NULL AND w.last_heartbeat > now() - make_interval(secs => $1)
             ORDER BY w.id",
            &[&secs(within)],
        )?;
        Ok(rows
            .iter()
            .map(|row| WorkerRow {
                id: WorkerId(row.get(0)),
                name: row.get(1),
                host: row.get(2),
                cores: row.get(3),
                jobs: row.get(4),
                in_flight: row.get(5),
                games: row.get(6),
                heartbeat_age_s: row.get(7),
            })
            .collect())
    }

    /// Stops handing out a run's games (an SPRT that has decided): its
    /// pending slots, and leased ones whose holder is gone (expired lease),
    /// are cancelled; games being played may still be committed. Returns how
    /// many slots were cancelled.
    pub fn close_run(&mut self, run: RunId) -> Result<u64, QueueError> {
        Ok(self.client.execute(
            "UPDATE slots SET state = 'cancelled', lease_expires = NULL
             WHERE run_id = $1
               AND (state = 'pending' OR (state = 'leased' AND lease_expires < now()))",
            &[&run.0],
        )?)
    }

    /// Marks a run finished with its conclusion.
    pub fn finish_run(&mut self, run: RunId, conclusion: &str) -> Result<(), QueueError> {
        self.client.execute(
            "UPDATE runs SET finished_at = now(), conclusion = $2 WHERE id = $1",
            &[&run.0, &conclusion],
        )?;
        Ok(())
    }
}

/// The kind of run a plan schedules, as the `runs` table names it.
fn plan_kind(plan: &Plan) -> &'static str {
    match plan.schedule {
        Schedule::League { .. } => "league",
        Schedule::Sprt { .. } => "sprt",
    }
}

fn corrupt(slot: &str, what: &str) -> QueueError {
    QueueError::Corrupt(format!("slot {slot}'s stored {what} cannot be read"))
}

/// Whether `lease` still holds its slot, which stays locked until the
/// transaction ends.
fn holds(tx: &mut Transaction<'_>, lease: &Lease) -> Result<bool, QueueError> {
    let row = tx.query_opt(
        "SELECT state, lease FROM slots WHERE run_id = $1 AND slot = $2 FOR UPDATE",
        &[&lease.run.0, &lease.slot],
    )?;
    Ok(
        matches!(row, Some(row) if row.get::<_, &str>(0) == "leased" && row.get::<_, Option<i64>>(1) == Some(lease.token)),
    )
}

fn insert_artifact(
    tx: &mut Transaction<'_>,
    hash: &str,
    artifact: &Artifact,
) -> Result<(), QueueError> {
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
    tx.execute(
        "INSERT INTO artifacts (hash, kind, spec, version, language, source, cwd, data)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (hash) DO NOTHING",
        &[&hash, &artifact.kind(), &spec, &version, &language, &source, &cwd, &data],
    )?;
    Ok(())
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<String, QueueError> {
    serde_json::to_string(value).map_err(|e| QueueError::Corrupt(format!("cannot write JSON: {e}")))
}
