//! The league store: every run, agent and finished game, in one SQLite file
//! or one PostgreSQL database.
//!
//! A run (an SPRT test or a league) keeps its full parameters, so that
//! `--resume` needs only the file and the run's id. Each game is written once,
//! when it is over, in one transaction with everything about it: a killed
//! process or a power cut leaves either the whole game or nothing, never half
//! a game. The runner gives every game of a run a `slot` (its place in the
//! schedule, e.g. `pair 12 leg 1`); a slot holds at most one counted game, so
//! a resumed run plays exactly the slots [`Store::finished_slots`] lacks and
//! no game is counted twice.
//!
//! A game whose time-out the harness caused (the machine stalled, not the
//! agent) is stored with a [`NewGame::harness_flag`] saying why: it is kept
//! for the log but not counted, and its slot stays open to be played again.
//!
//! The same code runs on both databases through [`versus_sql::Conn`]
//! ([`Store::open`] takes a file's path or a `postgres://` URL), and the
//! store's tests run on both. A SQLite file uses write-ahead logging with
//! `synchronous = FULL`, so a game is on disk when [`Store::insert_game`]
//! returns, and readers (the web page) do not block the writer. The schema
//! is upgraded in place by numbered migrations written once per dialect,
//! tracked in `PRAGMA user_version` in a file and in the `league_schema`
//! table on PostgreSQL; a store written by a newer versus is refused rather
//! than misread. On PostgreSQL the work queue (`versus-queue`) adds its
//! tables beside these and stores its games in the same `games` table.
//!
//! A [`Store`] is one connection: `Send` but not `Sync`. A runner playing games
//! on several threads sends finished games to one thread that writes them, or
//! keeps the store behind a mutex.

use std::collections::HashSet;
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::ErrorCode;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use thiserror::Error;
use versus_core::{BySide, Fault, GameResult, Outcome, RecordLine, Side};
use versus_sql::{args, Backend, Conn, Migration, Row, SqlError};

/// Tells a versus store from any other SQLite file (`PRAGMA application_id`).
const APPLICATION_ID: i32 = 0x7665_7273; // "vers"

/// The schema, one migration per version, written once per dialect:
/// migration `i` takes the store from version `i` to `i + 1`. Append only:
/// never edit a migration that has shipped.
const MIGRATIONS: &[Migration] = &[
    // 1: runs, their agents and their finished games.
    Migration {
        sqlite: "
        CREATE TABLE runs (
            id          INTEGER PRIMARY KEY,
            kind        TEXT NOT NULL CHECK (kind IN ('sprt', 'league')),
            game        TEXT NOT NULL,
            -- The runner's parameters as JSON: all --resume needs.
            settings    TEXT NOT NULL,
            -- Unix time in ms; finished_at is NULL while the run goes on.
            created_at  INTEGER NOT NULL,
            finished_at INTEGER,
            conclusion  TEXT
        );
        CREATE TABLE agents (
            id     INTEGER PRIMARY KEY,
            run_id INTEGER NOT NULL REFERENCES runs (id),
            name   TEXT NOT NULL,
            -- builtin:NAME or a shell command line, as the record's header names it.
            spec   TEXT NOT NULL,
            -- SHA-256 (hex) of what ran: see agent_hash.
            hash   TEXT NOT NULL,
            UNIQUE (run_id, name),
            UNIQUE (run_id, id)
        );
        CREATE TABLE games (
            id           INTEGER PRIMARY KEY,
            run_id       INTEGER NOT NULL REFERENCES runs (id),
            slot         TEXT NOT NULL,
            -- A u64 in decimal (an INTEGER would show large seeds as negative).
            seed         TEXT NOT NULL,
            first_agent  INTEGER NOT NULL,
            second_agent INTEGER NOT NULL,
            result       TEXT NOT NULL CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
            first_score  REAL NOT NULL,
            second_score REAL NOT NULL,
            -- A fault as JSON ({\"kind\": \"time_limit\"}, ...), NULL for none.
            first_fault  TEXT,
            second_fault TEXT,
            -- {\"first\": [µs, ...], \"second\": [...]}: every reply, in order.
            move_times   TEXT NOT NULL,
            -- {\"samples\": n, \"mean_us\": µs, \"max_us\": µs} (JudgeLag), or NULL.
            judge_lag    TEXT,
            -- NULL for a counted game; else why the harness is to blame.
            harness_flag TEXT,
            -- The whole game record, JSON lines.
            record       TEXT NOT NULL,
            finished_at  INTEGER NOT NULL,
            FOREIGN KEY (run_id, first_agent) REFERENCES agents (run_id, id),
            FOREIGN KEY (run_id, second_agent) REFERENCES agents (run_id, id)
        );
        -- At most one counted game per slot; flagged ones are not limited.
        CREATE UNIQUE INDEX games_counted_slot ON games (run_id, slot)
            WHERE harness_flag IS NULL;
        CREATE INDEX games_by_run ON games (run_id, id);
        ",
        postgres: "
        CREATE TABLE runs (
            id          BIGSERIAL PRIMARY KEY,
            kind        TEXT NOT NULL CHECK (kind IN ('sprt', 'league')),
            game        TEXT NOT NULL,
            settings    TEXT NOT NULL,
            created_at  BIGINT NOT NULL,
            finished_at BIGINT,
            conclusion  TEXT
        );
        CREATE TABLE agents (
            id     BIGSERIAL PRIMARY KEY,
            run_id BIGINT NOT NULL REFERENCES runs (id),
            name   TEXT NOT NULL,
            spec   TEXT NOT NULL,
            hash   TEXT NOT NULL,
            UNIQUE (run_id, name),
            UNIQUE (run_id, id)
        );
        CREATE TABLE games (
            id           BIGSERIAL PRIMARY KEY,
            run_id       BIGINT NOT NULL REFERENCES runs (id),
            slot         TEXT NOT NULL,
            seed         TEXT NOT NULL,
            first_agent  BIGINT NOT NULL,
            second_agent BIGINT NOT NULL,
            result       TEXT NOT NULL CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
            first_score  DOUBLE PRECISION NOT NULL,
            second_score DOUBLE PRECISION NOT NULL,
            first_fault  TEXT,
            second_fault TEXT,
            move_times   TEXT NOT NULL,
            judge_lag    TEXT,
            harness_flag TEXT,
            record       TEXT NOT NULL,
            finished_at  BIGINT NOT NULL,
            FOREIGN KEY (run_id, first_agent) REFERENCES agents (run_id, id),
            FOREIGN KEY (run_id, second_agent) REFERENCES agents (run_id, id)
        );
        CREATE UNIQUE INDEX games_counted_slot ON games (run_id, slot)
            WHERE harness_flag IS NULL;
        CREATE INDEX games_by_run ON games (run_id, id);
        ",
    },
    // 2: tuning runs (versus tune) and their applied iterations.
    Migration {
        sqlite: "
        CREATE TABLE tune_runs (
            id          INTEGER PRIMARY KEY,
            game        TEXT NOT NULL,
            -- The tuning plan as JSON: all --resume needs.
            settings    TEXT NOT NULL,
            created_at  INTEGER NOT NULL,
            finished_at INTEGER,
            -- The agent's spec with the final values.
            conclusion  TEXT
        );
        CREATE TABLE tune_iterations (
            run_id      INTEGER NOT NULL REFERENCES tune_runs (id),
            -- From 0; a run's iterations are stored in order, each once.
            k           INTEGER NOT NULL,
            -- Wins minus losses of theta + c_k delta in the pair.
            result      INTEGER NOT NULL CHECK (result BETWEEN -2 AND 2),
            -- The iteration as JSON: theta before and after, signs, both
            -- perturbed vectors and both games' outcomes.
            data        TEXT NOT NULL,
            finished_at INTEGER NOT NULL,
            PRIMARY KEY (run_id, k)
        );
        ",
        postgres: "
        CREATE TABLE tune_runs (
            id          BIGSERIAL PRIMARY KEY,
            game        TEXT NOT NULL,
            settings    TEXT NOT NULL,
            created_at  BIGINT NOT NULL,
            finished_at BIGINT,
            conclusion  TEXT
        );
        CREATE TABLE tune_iterations (
            run_id      BIGINT NOT NULL REFERENCES tune_runs (id),
            k           BIGINT NOT NULL,
            result      BIGINT NOT NULL CHECK (result BETWEEN -2 AND 2),
            data        TEXT NOT NULL,
            finished_at BIGINT NOT NULL,
            PRIMARY KEY (run_id, k)
        );
        ",
    },
];

/// Where PostgreSQL keeps the store's schema version.
const PG_VERSION_TABLE: &str = "league_schema";

/// The schema version this versus writes.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// What went wrong with the store.
#[derive(Debug, Error)]
pub enum StoreError {
    #[error("cannot create the store {path}: directory {dir} does not exist")]
    MissingDirectory { path: PathBuf, dir: PathBuf },
    #[error("cannot open the store {path}: {source}")]
    Open { path: PathBuf, source: SqlError },
    #[error("{path} is not a versus store")]
    NotAStore { path: PathBuf },
    #[error(
        "the store {path} has schema version {found}, but this versus only knows \
         versions up to {supported}: it was written by a newer versus, use that one"
    )]
    TooNew { path: PathBuf, found: u32, supported: u32 },
    #[error("there is no run {0}")]
    NoSuchRun(RunId),
    #[error("run {run} has two agents named {name:?}")]
    DuplicateAgent { run: RunId, name: String },
    #[error("agent {agent} does not play in run {run}")]
    ForeignAgent { run: RunId, agent: AgentId },
    #[error("slot {slot:?} of run {run} already has a counted game")]
    DuplicateSlot { run: RunId, slot: String },
    #[error("cannot store the game of slot {slot:?}: {reason}")]
    InvalidGame { slot: String, reason: String },
    #[error(
        "{url} holds the work queue of an earlier development version of versus \
         (its schema {version}), which this versus cannot read: use a new database"
    )]
    OldQueue { url: String, version: i64 },
    #[error("corrupt value in the store: {0}")]
    Corrupt(String),
    #[error("{0}")]
    Sql(#[from] SqlError),
}

impl StoreError {
    /// Whether the connection, not the request, failed (PostgreSQL went away
    /// or is restarting): worth retrying.
    #[must_use]
    pub fn is_connection(&self) -> bool {
        match self {
            StoreError::Sql(error) | StoreError::Open { source: error, .. } => {
                error.is_connection()
            }
            _ => false,
        }
    }
}

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

id_type!(
    /// A run's id, unique in its store.
    RunId
);
id_type!(
    /// An agent of a run, unique in its store (the same program in two runs
    /// has two ids and, if unchanged, one hash).
    AgentId
);
id_type!(
    /// A stored game, unique in its store.
    GameId
);

/// What a run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunKind {
    Sprt,
    League,
}

impl RunKind {
    fn as_str(self) -> &'static str {
        match self {
            RunKind::Sprt => "sprt",
            RunKind::League => "league",
        }
    }

    fn parse(text: &str) -> Result<RunKind, StoreError> {
        match text {
            "sprt" => Ok(RunKind::Sprt),
            "league" => Ok(RunKind::League),
            other => Err(StoreError::Corrupt(format!("run kind {other:?}"))),
        }
    }
}

/// An agent to enter in a new run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewAgent {
    /// The name reports use; unique in the run.
    pub name: String,
    /// `builtin:NAME` or the command line, exactly as the game records'
    /// headers name the agent ([`versus_judge::AgentSpec::label`]).
    pub spec: String,
    /// What ran, from [`agent_hash`] (for a run on the work queue, the hash
    /// of the artifact its workers build the agent from).
    pub hash: String,
}

/// A run to create.
#[derive(Clone, Debug, PartialEq)]
pub struct NewRun {
    pub kind: RunKind,
    /// The game's registry name, e.g. `bacteria-war`.
    pub game: String,
    /// Everything the runner needs to resume the run (its own struct, as JSON).
    pub settings: serde_json::Value,
    /// The agents, in the order [`Store::agents`] gives them back.
    pub agents: Vec<NewAgent>,
}

/// A stored run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    pub id: RunId,
    pub kind: RunKind,
    pub game: String,
    pub settings: serde_json::Value,
    /// Unix time, ms.
    pub created_at_ms: i64,
    /// Unix time, ms; `None` while the run goes on.
    pub finished_at_ms: Option<i64>,
    /// What the run concluded, given to [`Store::finish_run`].
    pub conclusion: Option<String>,
}

/// A stored agent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Agent {
    pub id: AgentId,
    pub run: RunId,
    pub name: String,
    pub spec: String,
    pub hash: String,
}

/// How late the judge itself was in taking the replies of a game (the
/// `lag_us` of its record's replies and time-outs): a loaded machine, not a
/// slow agent, shows here. The runner decides from it whether a time-out was
/// the harness's fault.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct JudgeLag {
    /// How many replies and time-outs were measured.
    pub samples: u64,
    pub mean_us: u64,
    pub max_us: u64,
    /// The machine's load average over the last minute when the game ended,
    /// in hundredths (`/proc/loadavg`; 0 where it cannot be read).
    pub load_centi: u64,
}

/// A finished game, to store.
///
/// The seed, the outcome and the reply times are read from the record, which
/// must be complete: a header first and a footer last.
#[derive(Clone, Debug, PartialEq)]
pub struct NewGame {
    /// The game's place in the run's schedule, assigned by the runner.
    pub slot: String,
    /// Who sat where; the record's header must name the same agents.
    pub agents: BySide<AgentId>,
    /// The whole record, header to footer.
    pub record: Vec<RecordLine>,
    /// The judge's lag over the game, if measured.
    pub judge_lag: Option<JudgeLag>,
    /// `Some(why)` when the harness, not an agent, is to blame for how the
    /// game ended: stored for the log, never counted, and the slot is to be
    /// played again.
    pub harness_flag: Option<String>,
}

/// A stored game, without its record ([`Store::game_record`] reads that).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    pub id: GameId,
    pub run: RunId,
    pub slot: String,
    pub seed: u64,
    pub agents: BySide<AgentId>,
    /// Result, scores and faults, as in the record's footer.
    pub outcome: Outcome,
    /// Each side's reply times in µs, in order (including the answer to `READY`).
    pub move_times_us: BySide<Vec<u64>>,
    pub judge_lag: Option<JudgeLag>,
    pub harness_flag: Option<String>,
    /// Unix time, ms.
    pub finished_at_ms: i64,
}

/// The store of runs and games: a SQLite file or a PostgreSQL database.
#[derive(Debug)]
pub struct Store {
    conn: Conn,
}

const GAME_COLUMNS: &str = "id, run_id, slot, seed, first_agent, second_agent, result, \
     first_score, second_score, first_fault, second_fault, move_times, judge_lag, \
     harness_flag, finished_at";

impl Store {
    /// Opens the store at `locator`, creating it if needed, and brings its
    /// schema up to [`SCHEMA_VERSION`]: a SQLite file's path, or a
    /// `postgres://` URL (the database must exist).
    pub fn open(locator: impl AsRef<Path>) -> Result<Store, StoreError> {
        let path = locator.as_ref();
        if let Some(url) = path.to_str().filter(|l| versus_sql::is_postgres(l)) {
            return Store::postgres(url);
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            if !dir.is_dir() {
                return Err(StoreError::MissingDirectory {
                    path: path.to_owned(),
                    dir: dir.to_owned(),
                });
            }
        }
        probe_sqlite(path)?;
        let conn = Conn::sqlite(path)
            .map_err(|source| StoreError::Open { path: path.to_owned(), source })?;
        Store::setup_sqlite(conn, path)
    }

    /// A store in memory, gone when dropped (for tests).
    pub fn open_in_memory() -> Result<Store, StoreError> {
        let path = Path::new(":memory:");
        Store::setup_sqlite(Conn::sqlite(path)?, path)
    }

    fn postgres(url: &str) -> Result<Store, StoreError> {
        let shown = PathBuf::from(versus_sql::redact(url));
        let conn = Conn::postgres(url)
            .map_err(|source| StoreError::Open { path: shown.clone(), source })?;
        // The work queue of the first development versions had tables of
        // the same names in another layout.
        let old = conn
            .query_one("SELECT to_regclass('versus_schema') IS NOT NULL", &[])?
            .get::<bool>(0)?;
        if old {
            let version = conn
                .query_one("SELECT coalesce(max(version), 0) FROM versus_schema", &[])?
                .get::<i64>(0)?;
            return Err(StoreError::OldQueue { url: shown.display().to_string(), version });
        }
        conn.migrate(PG_VERSION_TABLE, MIGRATIONS).map_err(|error| match error {
            SqlError::TooNew { found, .. } => StoreError::TooNew {
                path: shown,
                found: u32::try_from(found).unwrap_or(u32::MAX),
                supported: SCHEMA_VERSION,
            },
            other => StoreError::Sql(other),
        })?;
        Ok(Store { conn })
    }

    fn setup_sqlite(conn: Conn, path: &Path) -> Result<Store, StoreError> {
        // Each migration in its own transaction with the version bump, so a
        // crash mid-migration leaves the previous version. The version is
        // checked without a lock first, so that opening an up-to-date store
        // never waits for a writer, and read again inside: two processes
        // opening a new file at once apply each migration once.
        let target = SCHEMA_VERSION;
        loop {
            let version = sqlite_user_version(&conn)?;
            if version == target {
                return Ok(Store { conn });
            }
            if version > target {
                return Err(StoreError::TooNew {
                    path: path.to_owned(),
                    found: version,
                    supported: target,
                });
            }
            conn.write(|conn| -> Result<(), StoreError> {
                let version = sqlite_user_version(conn)?;
                if version >= target {
                    return Ok(());
                }
                conn.batch(MIGRATIONS[version as usize].sqlite)?;
                if version == 0 {
                    conn.batch(&format!("PRAGMA application_id = {APPLICATION_ID}"))?;
                }
                conn.batch(&format!("PRAGMA user_version = {}", version + 1))?;
                Ok(())
            })?;
        }
    }

    /// The connection, for the tables of other modules and crates that
    /// live beside the store's (tuning, the work queue).
    #[must_use]
    pub fn conn(&self) -> &Conn {
        &self.conn
    }

    /// Which database holds the store.
    #[must_use]
    pub fn backend(&self) -> Backend {
        self.conn.backend()
    }

    /// The schema version of the open store (always [`SCHEMA_VERSION`]).
    pub fn schema_version(&self) -> Result<u32, StoreError> {
        match self.conn.backend() {
            Backend::Sqlite => sqlite_user_version(&self.conn),
            Backend::Postgres => {
                let row =
                    self.conn.query_one(&format!("SELECT version FROM {PG_VERSION_TABLE}"), &[])?;
                Ok(row.get::<u32>(0)?)
            }
        }
    }

    /// Creates a run with its agents, all at once.
    pub fn create_run(&self, run: &NewRun) -> Result<RunId, StoreError> {
        self.conn.write(|conn| {
            let id = RunId(
                conn.query_one(
                    "INSERT INTO runs (kind, game, settings, created_at)
                     VALUES (?1, ?2, ?3, ?4) RETURNING id",
                    args![run.kind.as_str(), &run.game, run.settings.to_string(), now_ms()],
                )?
                .get(0)?,
            );
            let mut names = HashSet::new();
            for agent in &run.agents {
                if !names.insert(agent.name.as_str()) {
                    return Err(StoreError::DuplicateAgent { run: id, name: agent.name.clone() });
                }
                conn.execute(
                    "INSERT INTO agents (run_id, name, spec, hash) VALUES (?1, ?2, ?3, ?4)",
                    args![id.0, &agent.name, &agent.spec, &agent.hash],
                )?;
            }
            Ok(id)
        })
    }

    /// One run, with the settings it was created with.
    pub fn run(&self, id: RunId) -> Result<Run, StoreError> {
        let row = self
            .conn
            .query_opt(
                "SELECT id, kind, game, settings, created_at, finished_at, conclusion
                 FROM runs WHERE id = ?1",
                args![id.0],
            )?
            .ok_or(StoreError::NoSuchRun(id))?;
        run_row(&row)
    }

    /// Every run, oldest first.
    pub fn runs(&self) -> Result<Vec<Run>, StoreError> {
        self.conn
            .query(
                "SELECT id, kind, game, settings, created_at, finished_at, conclusion
                 FROM runs ORDER BY id",
                &[],
            )?
            .iter()
            .map(run_row)
            .collect()
    }

    /// Records that a run is over and what it concluded (e.g. `H1 accepted`).
    pub fn finish_run(&self, id: RunId, conclusion: &str) -> Result<(), StoreError> {
        let changed = self.conn.execute(
            "UPDATE runs SET finished_at = ?2, conclusion = ?3 WHERE id = ?1",
            args![id.0, now_ms(), conclusion],
        )?;
        if changed == 0 {
            return Err(StoreError::NoSuchRun(id));
        }
        Ok(())
    }

    /// The agents of a run, in the order they were given to [`Store::create_run`].
    pub fn agents(&self, run: RunId) -> Result<Vec<Agent>, StoreError> {
        self.run(run)?;
        self.conn
            .query(
                "SELECT id, run_id, name, spec, hash FROM agents WHERE run_id = ?1 ORDER BY id",
                args![run.0],
            )?
            .iter()
            .map(|row| {
                Ok(Agent {
                    id: AgentId(row.get(0)?),
                    run: RunId(row.get(1)?),
                    name: row.get(2)?,
                    spec: row.get(3)?,
                    hash: row.get(4)?,
                })
            })
            .collect()
    }

    /// Stores a finished game, all of it or nothing.
    ///
    /// A counted game (no harness flag) for a slot that already has one is
    /// refused with [`StoreError::DuplicateSlot`] and changes nothing: the
    /// runner plays only the slots [`Store::finished_slots`] lacks, so this
    /// means a bug or two processes running the same run. A flagged game is
    /// always stored.
    pub fn insert_game(&self, run: RunId, game: &NewGame) -> Result<GameId, StoreError> {
        let ids = self.insert_games(run, std::slice::from_ref(game))?;
        Ok(ids[0])
    }

    /// Stores several finished games in one transaction: all of them or none
    /// (one commit, one sync to disk, for runners that finish games faster
    /// than a disk syncs). The same checks as [`Store::insert_game`] apply to
    /// each.
    pub fn insert_games(&self, run: RunId, games: &[NewGame]) -> Result<Vec<GameId>, StoreError> {
        self.conn.write(|conn| games.iter().map(|game| insert_in(conn, run, game, true)).collect())
    }

    /// The slots of a run that hold a counted game: those a resumed run skips.
    pub fn finished_slots(&self, run: RunId) -> Result<HashSet<String>, StoreError> {
        self.run(run)?;
        self.conn
            .query(
                "SELECT slot FROM games WHERE run_id = ?1 AND harness_flag IS NULL",
                args![run.0],
            )?
            .iter()
            .map(|row| Ok(row.get(0)?))
            .collect()
    }

    /// The counted games of a run (flagged ones left out), in the order they
    /// were stored: what ratings, pairs, crosstables and fault counts use.
    pub fn results(&self, run: RunId) -> Result<Vec<GameSummary>, StoreError> {
        self.summaries(run, "AND harness_flag IS NULL")
    }

    /// Every game of a run, flagged ones too, in the order they were stored.
    pub fn games(&self, run: RunId) -> Result<Vec<GameSummary>, StoreError> {
        self.summaries(run, "")
    }

    fn summaries(&self, run: RunId, filter: &str) -> Result<Vec<GameSummary>, StoreError> {
        self.run(run)?;
        self.conn
            .query(
                &format!("SELECT {GAME_COLUMNS} FROM games WHERE run_id = ?1 {filter} ORDER BY id"),
                args![run.0],
            )?
            .iter()
            .map(game_row)
            .collect()
    }

    /// One game, without its record; `None` if there is no such game.
    pub fn game(&self, id: GameId) -> Result<Option<GameSummary>, StoreError> {
        self.conn
            .query_opt(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"), args![id.0])?
            .as_ref()
            .map(game_row)
            .transpose()
    }

    /// A game's record as JSON lines (one line each, newline-terminated), as
    /// `versus_judge::read_record` reads it; `None` if there is no such game.
    pub fn game_record(&self, id: GameId) -> Result<Option<String>, StoreError> {
        self.conn
            .query_opt("SELECT record FROM games WHERE id = ?1", args![id.0])?
            .map(|row| Ok(row.get(0)?))
            .transpose()
    }
}

/// Stores a game played on another host inside the caller's transaction on
/// `conn` (the work queue's commit), with the checks of
/// [`Store::insert_game`] but one: the record names the agents as that host
/// ran them (a source agent from its cache, say), so its header's specs are
/// not compared with the run's.
pub fn insert_remote_game(conn: &Conn, run: RunId, game: &NewGame) -> Result<GameId, StoreError> {
    insert_in(conn, run, game, false)
}

/// Looks at a SQLite file before anything changes it: a foreign file (not
/// SQLite, or another program's database) is refused and left as it was.
fn probe_sqlite(path: &Path) -> Result<(), StoreError> {
    let open_error = |source: rusqlite::Error| StoreError::Open {
        path: path.to_owned(),
        source: SqlError::Sqlite(source),
    };
    let not_a_store = |error: rusqlite::Error| match error.sqlite_error_code() {
        Some(ErrorCode::NotADatabase) => StoreError::NotAStore { path: path.to_owned() },
        _ => open_error(error),
    };
    let conn = rusqlite::Connection::open(path).map_err(open_error)?;
    conn.busy_timeout(Duration::from_secs(10)).map_err(not_a_store)?;
    // The first statement that reads the file tells a non-SQLite one.
    let application_id: i32 =
        conn.pragma_query_value(None, "application_id", |row| row.get(0)).map_err(not_a_store)?;
    let version: u32 =
        conn.pragma_query_value(None, "user_version", |row| row.get(0)).map_err(not_a_store)?;
    let tables: i64 = conn
        .query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get(0))
        .map_err(not_a_store)?;
    let empty = application_id == 0 && version == 0 && tables == 0;
    if application_id != APPLICATION_ID && !empty {
        return Err(StoreError::NotAStore { path: path.to_owned() });
    }
    Ok(())
}

fn sqlite_user_version(conn: &Conn) -> Result<u32, StoreError> {
    Ok(conn.query_one("PRAGMA user_version", &[])?.get::<u32>(0)?)
}

/// Each side's reply times in µs, in the order of the record.
#[must_use]
pub fn reply_times_us(record: &[RecordLine]) -> BySide<Vec<u64>> {
    let mut times = BySide::<Vec<u64>>::default();
    for line in record {
        if let RecordLine::Recv { side, elapsed_ns, .. } = line {
            times[*side].push(elapsed_ns / 1000);
        }
    }
    times
}

/// The hash that identifies what an agent was, as hex SHA-256.
///
/// For `builtin:NAME`, the hash of that text and `version` (the versus
/// version, which decides what the built-in agent does). For a command line,
/// the hash of the text and of every file it names: its first word if it is
/// a path or found on `PATH`, and any later word that names an existing file
/// (so `python3 bot.py` covers the script too). Paths are relative to `cwd`
/// (the agent's working directory), or to this process's if `None`. Words are
/// split at whitespace; a quoted path with spaces counts as text only.
pub fn agent_hash(spec: &str, cwd: Option<&Path>, version: &str) -> io::Result<String> {
    let mut hasher = Sha256::new();
    if spec.starts_with("builtin:") {
        hasher.update(spec.as_bytes());
        hasher.update(b"\0versus ");
        hasher.update(version.as_bytes());
        return Ok(hex(&hasher.finalize()));
    }
    hasher.update(spec.as_bytes());
    let base = match cwd {
        Some(dir) => dir.to_owned(),
        None => std::env::current_dir()?,
    };
    // A source agent is its source: a changed file is a new agent.
    if let Some(rest) = spec.strip_prefix("src:") {
        let path = base.join(rest.rsplit_once("?lang=").map_or(rest, |(path, _)| path));
        let contents = fs::read(&path).map_err(|error| {
            io::Error::new(
                error.kind(),
                format!("cannot read {} to hash it: {error}", path.display()),
            )
        })?;
        hasher.update(&contents);
        return Ok(hex(&hasher.finalize()));
    }
    for (index, word) in spec.split_whitespace().enumerate() {
        let file = if index == 0 && !word.contains('/') {
            find_on_path(word)
        } else {
            Some(base.join(word)).filter(|p| p.is_file())
        };
        if let Some(file) = file {
            let contents = fs::read(&file).map_err(|error| {
                io::Error::new(
                    error.kind(),
                    format!("cannot read {} to hash it: {error}", file.display()),
                )
            })?;
            // Length-prefixed, so that no two sets of files hash alike.
            hasher.update(b"\0file ");
            hasher.update((index as u64).to_le_bytes());
            hasher.update((contents.len() as u64).to_le_bytes());
            hasher.update(&contents);
        }
    }
    Ok(hex(&hasher.finalize()))
}

fn find_on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(program)).find(|candidate| candidate.is_file())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

fn json_text<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).expect("store values serialize to JSON")
}

fn record_text(record: &[RecordLine]) -> String {
    let mut text = String::new();
    for line in record {
        text.push_str(&json_text(line));
        text.push('\n');
    }
    text
}

fn json_column<T: for<'de> Deserialize<'de>>(text: &str, what: &str) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|error| StoreError::Corrupt(format!("{what}: {error}")))
}

fn run_row(row: &Row) -> Result<Run, StoreError> {
    let kind: String = row.get(1)?;
    let settings: String = row.get(3)?;
    Ok(Run {
        id: RunId(row.get(0)?),
        kind: RunKind::parse(&kind)?,
        game: row.get(2)?,
        settings: json_column(&settings, "run settings")?,
        created_at_ms: row.get(4)?,
        finished_at_ms: row.get(5)?,
        conclusion: row.get(6)?,
    })
}

fn game_row(row: &Row) -> Result<GameSummary, StoreError> {
    let id = GameId(row.get(0)?);
    let seed: String = row.get(3)?;
    let result: String = row.get(6)?;
    let result = match result.as_str() {
        "1-0" => GameResult::FirstWins,
        "0-1" => GameResult::SecondWins,
        "1/2-1/2" => GameResult::Draw,
        other => return Err(StoreError::Corrupt(format!("game {id} result {other:?}"))),
    };
    let scores = BySide::new(row.get::<f64>(7)?, row.get::<f64>(8)?);
    let mut faults = BySide::<Option<Fault>>::default();
    for (side, column) in [(Side::First, 9), (Side::Second, 10)] {
        if let Some(text) = row.get::<Option<String>>(column)? {
            faults[side] = Some(json_column(&text, "fault")?);
        }
    }
    let move_times: String = row.get(11)?;
    let judge_lag: Option<String> = row.get(12)?;
    Ok(GameSummary {
        id,
        run: RunId(row.get(1)?),
        slot: row.get(2)?,
        seed: seed.parse().map_err(|_| StoreError::Corrupt(format!("game {id} seed {seed:?}")))?,
        agents: BySide::new(AgentId(row.get(4)?), AgentId(row.get(5)?)),
        outcome: Outcome { result, scores, faults },
        move_times_us: json_column(&move_times, "move times")?,
        judge_lag: judge_lag.as_deref().map(|text| json_column(text, "judge lag")).transpose()?,
        harness_flag: row.get(13)?,
        finished_at_ms: row.get(14)?,
    })
}

/// Checks and inserts one game inside the transaction open on `conn`;
/// `same_specs`: the record's header must name the run's agents' specs.
fn insert_in(
    conn: &Conn,
    run: RunId,
    game: &NewGame,
    same_specs: bool,
) -> Result<GameId, StoreError> {
    let invalid = |reason: String| StoreError::InvalidGame { slot: game.slot.clone(), reason };
    let (header, outcome) = match (game.record.first(), game.record.last()) {
        (Some(RecordLine::Header(header)), Some(RecordLine::Footer { outcome }))
            if game.record.len() >= 2 =>
        {
            (header, outcome)
        }
        (Some(RecordLine::Header(_)), _) => return Err(invalid("the record has no footer".into())),
        _ => return Err(invalid("the record does not start with a header".into())),
    };
    let record = record_text(&game.record);
    let times = reply_times_us(&game.record);
    let faults = outcome.faults.as_ref().map(|fault| fault.as_ref().map(json_text));

    // The statements are prepared once per connection (versus-sql caches
    // them): a league stores thousands of games a second, and parsing the
    // SQL each time was a tenth of the store's work.
    let run_game: String = conn
        .query_opt("SELECT game FROM runs WHERE id = ?1", args![run.0])?
        .ok_or(StoreError::NoSuchRun(run))?
        .get(0)?;
    if header.game != run_game {
        return Err(invalid(format!(
            "the record is a game of {}, the run plays {run_game}",
            header.game
        )));
    }
    for side in Side::BOTH {
        let agent = game.agents[side];
        let spec: String = conn
            .query_opt(
                "SELECT spec FROM agents WHERE id = ?1 AND run_id = ?2",
                args![agent.0, run.0],
            )?
            .ok_or(StoreError::ForeignAgent { run, agent })?
            .get(0)?;
        if same_specs && header.agents[side] != spec {
            return Err(invalid(format!(
                "the record's {side} agent is {:?}, but agent {agent} is {spec:?}",
                header.agents[side]
            )));
        }
    }
    if game.harness_flag.is_none() {
        let taken: bool = conn
            .query_one(
                "SELECT EXISTS (SELECT 1 FROM games
                 WHERE run_id = ?1 AND slot = ?2 AND harness_flag IS NULL)",
                args![run.0, &game.slot],
            )?
            .get(0)?;
        if taken {
            return Err(StoreError::DuplicateSlot { run, slot: game.slot.clone() });
        }
    }
    let id = conn
        .query_one(
            "INSERT INTO games (run_id, slot, seed, first_agent, second_agent, result,
                 first_score, second_score, first_fault, second_fault, move_times,
                 judge_lag, harness_flag, record, finished_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
             RETURNING id",
            args![
                run.0,
                &game.slot,
                header.config.seed.to_string(),
                game.agents.first.0,
                game.agents.second.0,
                outcome.result.notation(),
                outcome.scores.first,
                outcome.scores.second,
                faults.first,
                faults.second,
                json_text(&times),
                game.judge_lag.as_ref().map(json_text),
                game.harness_flag.as_deref(),
                record,
                now_ms(),
            ],
        )?
        .get(0)?;
    Ok(GameId(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_hashes_depend_on_the_version() {
        let a = agent_hash("builtin:greedy", None, "0.1.0").unwrap();
        let b = agent_hash("builtin:greedy", None, "0.2.0").unwrap();
        let c = agent_hash("builtin:random", None, "0.1.0").unwrap();
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn command_hashes_cover_the_files_they_name() {
        let dir = std::env::temp_dir().join(format!("versus-hash-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("bot.py"), "print('a')").unwrap();
        let before = agent_hash("python3 bot.py", Some(&dir), "x").unwrap();
        assert_eq!(before, agent_hash("python3 bot.py", Some(&dir), "y").unwrap());
        fs::write(dir.join("bot.py"), "print('b')").unwrap();
        let after = agent_hash("python3 bot.py", Some(&dir), "x").unwrap();
        assert_ne!(before, after);
        fs::write(dir.join("bin"), "v1").unwrap();
        let path = dir.join("bin").display().to_string();
        let v1 = agent_hash(&path, None, "x").unwrap();
        fs::write(dir.join("bin"), "v2").unwrap();
        assert_ne!(v1, agent_hash(&path, None, "x").unwrap());
        // A command naming no file hashes its text.
        assert_ne!(
            agent_hash("no-such-program-xyz --a", None, "x").unwrap(),
            agent_hash("no-such-program-xyz --b", None, "x").unwrap()
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
