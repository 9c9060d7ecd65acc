//! The league store: every run, agent and finished game in one SQLite file.
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
//! The file uses write-ahead logging with `synchronous = FULL`, so a game is
//! on disk when [`Store::insert_game`] returns, and readers (the web page) do
//! not block the writer. The schema is upgraded in place by numbered
//! migrations, tracked in `PRAGMA user_version`; a file written by a newer
//! versus is refused rather than misread.
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

use rusqlite::{
    params, Connection, ErrorCode, OptionalExtension, Transaction, TransactionBehavior,
};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use thiserror::Error;
use versus_core::{BySide, Fault, GameResult, Outcome, RecordLine, Side};

/// Tells a versus store from any other SQLite file (`PRAGMA application_id`).
const APPLICATION_ID: i32 = 0x7665_7273; // "vers"

/// How long a write waits for another connection's write before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// The schema, one migration per version: migration `i` takes the file from
/// version `i` to `i + 1`. Append only: never edit a migration that has
/// shipped.
const MIGRATIONS: &[&str] = &[
    // 1: runs, their agents and their finished games.
    "
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
    // 2: tuning runs (versus tune) and their applied iterations.
    "
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
];

/// The schema version this versus writes.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// What went wrong with the store.
#[derive(Debug, Error)]
pub enum StoreError {
    #[error("cannot create the store {path}: directory {dir} does not exist")]
    MissingDirectory { path: PathBuf, dir: PathBuf },
    #[error("cannot open the store {path}: {source}")]
    Open { path: PathBuf, source: rusqlite::Error },
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
    #[error("corrupt value in the store: {0}")]
    Corrupt(String),
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
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
    /// What ran, from [`agent_hash`].
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

/// The SQLite store of runs and games.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
}

const GAME_COLUMNS: &str = "id, run_id, slot, seed, first_agent, second_agent, result, \
     first_score, second_score, first_fault, second_fault, move_times, judge_lag, \
     harness_flag, finished_at";

impl Store {
    /// Opens the store at `path`, creating it if needed, and brings its schema
    /// up to [`SCHEMA_VERSION`].
    pub fn open(path: impl AsRef<Path>) -> Result<Store, StoreError> {
        let path = path.as_ref();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            if !dir.is_dir() {
                return Err(StoreError::MissingDirectory {
                    path: path.to_owned(),
                    dir: dir.to_owned(),
                });
            }
        }
        let conn = Connection::open(path)
            .map_err(|source| StoreError::Open { path: path.to_owned(), source })?;
        Store::setup(conn, path)
    }

    /// A store in memory, gone when dropped (for tests).
    pub fn open_in_memory() -> Result<Store, StoreError> {
        Store::setup(Connection::open_in_memory()?, Path::new(":memory:"))
    }

    fn setup(conn: Connection, path: &Path) -> Result<Store, StoreError> {
        let not_a_store = |error: rusqlite::Error| match error.sqlite_error_code() {
            Some(ErrorCode::NotADatabase) => StoreError::NotAStore { path: path.to_owned() },
            _ => StoreError::Open { path: path.to_owned(), source: error },
        };
        conn.busy_timeout(BUSY_TIMEOUT).map_err(not_a_store)?;
        // Look before changing anything: a foreign file is left as it was.
        // The first statement that reads the file tells a non-SQLite one.
        let application_id: i32 = conn
            .pragma_query_value(None, "application_id", |row| row.get(0))
            .map_err(not_a_store)?;
        let version = user_version(&conn)?;
        let tables: i64 =
            conn.query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get(0))?;
        let empty = application_id == 0 && version == 0 && tables == 0;
        if application_id != APPLICATION_ID && !empty {
            return Err(StoreError::NotAStore { path: path.to_owned() });
        }
        // WAL: readers do not block the writer, and a commit is one append.
        // FULL: the WAL is synced at every commit, so a stored game survives a
        // power cut (NORMAL would only keep the file consistent).
        conn.pragma_update_and_check(None, "journal_mode", "WAL", |_| Ok(()))?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", true)?;
        let mut conn = conn;
        migrate(&mut conn, MIGRATIONS).map_err(|error| match error {
            MigrateError::TooNew(found) => {
                StoreError::TooNew { path: path.to_owned(), found, supported: SCHEMA_VERSION }
            }
            MigrateError::Sqlite(error) => StoreError::Sqlite(error),
        })?;
        Ok(Store { conn })
    }

    /// The connection, for the tables of other modules of this crate (tuning).
    pub(crate) fn connection(&self) -> &Connection {
        &self.conn
    }

    /// The schema version of the open file (always [`SCHEMA_VERSION`]).
    pub fn schema_version(&self) -> Result<u32, StoreError> {
        Ok(user_version(&self.conn)?)
    }

    /// Creates a run with its agents, all at once.
    pub fn create_run(&mut self, run: &NewRun) -> Result<RunId, StoreError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute(
            "INSERT INTO runs (kind, game, settings, created_at) VALUES (?1, ?2, ?3, ?4)",
            params![run.kind.as_str(), run.game, run.settings.to_string(), now_ms()],
        )?;
        let id = RunId(tx.last_insert_rowid());
        let mut names = HashSet::new();
        for agent in &run.agents {
            if !names.insert(agent.name.as_str()) {
                return Err(StoreError::DuplicateAgent { run: id, name: agent.name.clone() });
            }
            tx.execute(
                "INSERT INTO agents (run_id, name, spec, hash) VALUES (?1, ?2, ?3, ?4)",
                params![id.0, agent.name, agent.spec, agent.hash],
            )?;
        }
        tx.commit()?;
        Ok(id)
    }

    /// One run, with the settings it was created with.
    pub fn run(&self, id: RunId) -> Result<Run, StoreError> {
        self.conn
            .query_row(
                "SELECT id, kind, game, settings, created_at, finished_at, conclusion
                 FROM runs WHERE id = ?1",
                [id.0],
                run_row,
            )
            .optional()?
            .ok_or(StoreError::NoSuchRun(id))?
    }

    /// Every run, oldest first.
    pub fn runs(&self) -> Result<Vec<Run>, StoreError> {
        let mut statement = self.conn.prepare(
            "SELECT id, kind, game, settings, created_at, finished_at, conclusion
             FROM runs ORDER BY id",
        )?;
        let rows = statement.query_map([], run_row)?;
        rows.map(|row| row?).collect()
    }

    /// Records that a run is over and what it concluded (e.g. `H1 accepted`).
    pub fn finish_run(&mut self, id: RunId, conclusion: &str) -> Result<(), StoreError> {
        let changed = self.conn.execute(
            "UPDATE runs SET finished_at = ?2, conclusion = ?3 WHERE id = ?1",
            params![id.0, now_ms(), conclusion],
        )?;
        if changed == 0 {
            return Err(StoreError::NoSuchRun(id));
        }
        Ok(())
    }

    /// The agents of a run, in the order they were given to [`Store::create_run`].
    pub fn agents(&self, run: RunId) -> Result<Vec<Agent>, StoreError> {
        self.run(run)?;
        let mut statement = self.conn.prepare(
            "SELECT id, run_id, name, spec, hash FROM agents WHERE run_id = ?1 ORDER BY id",
        )?;
        let rows = statement.query_map([run.0], |row| {
            Ok(Agent {
                id: AgentId(row.get(0)?),
                run: RunId(row.get(1)?),
                name: row.get(2)?,
                spec: row.get(3)?,
                hash: row.get(4)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Stores a finished game, all of it or nothing.
    ///
    /// A counted game (no harness flag) for a slot that already has one is
    /// refused with [`StoreError::DuplicateSlot`] and changes nothing: the
    /// runner plays only the slots [`Store::finished_slots`] lacks, so this
    /// means a bug or two processes running the same run. A flagged game is
    /// always stored.
    pub fn insert_game(&mut self, run: RunId, game: &NewGame) -> Result<GameId, StoreError> {
        let ids = self.insert_games(run, std::slice::from_ref(game))?;
        Ok(ids[0])
    }

    /// Stores several finished games in one transaction: all of them or none
    /// (one commit, one sync to disk, for runners that finish games faster
    /// than a disk syncs). The same checks as [`Store::insert_game`] apply to
    /// each.
    pub fn insert_games(
        &mut self,
        run: RunId,
        games: &[NewGame],
    ) -> Result<Vec<GameId>, StoreError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let ids =
            games.iter().map(|game| insert_in(&tx, run, game)).collect::<Result<Vec<_>, _>>()?;
        tx.commit()?;
        Ok(ids)
    }

    /// The slots of a run that hold a counted game: those a resumed run skips.
    pub fn finished_slots(&self, run: RunId) -> Result<HashSet<String>, StoreError> {
        self.run(run)?;
        let mut statement = self
            .conn
            .prepare("SELECT slot FROM games WHERE run_id = ?1 AND harness_flag IS NULL")?;
        let rows = statement.query_map([run.0], |row| row.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
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
        let mut statement = self.conn.prepare(&format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE run_id = ?1 {filter} ORDER BY id"
        ))?;
        let rows = statement.query_map([run.0], game_row)?;
        rows.map(|row| row?).collect()
    }

    /// One game, without its record; `None` if there is no such game.
    pub fn game(&self, id: GameId) -> Result<Option<GameSummary>, StoreError> {
        self.conn
            .query_row(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"), [id.0], game_row)
            .optional()?
            .transpose()
    }

    /// A game's record as JSON lines (one line each, newline-terminated), as
    /// `versus_judge::read_record` reads it; `None` if there is no such game.
    pub fn game_record(&self, id: GameId) -> Result<Option<String>, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT record FROM games WHERE id = ?1", [id.0], |row| row.get(0))
            .optional()?)
    }
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

type RowResult<T> = rusqlite::Result<Result<T, StoreError>>;

fn run_row(row: &rusqlite::Row<'_>) -> RowResult<Run> {
    let kind: String = row.get(1)?;
    let settings: String = row.get(3)?;
    let (created_at_ms, finished_at_ms, conclusion) = (row.get(4)?, row.get(5)?, row.get(6)?);
    let (id, game) = (RunId(row.get(0)?), row.get(2)?);
    Ok((|| {
        Ok(Run {
            id,
            kind: RunKind::parse(&kind)?,
            game,
            settings: json_column(&settings, "run settings")?,
            created_at_ms,
            finished_at_ms,
            conclusion,
        })
    })())
}

fn game_row(row: &rusqlite::Row<'_>) -> RowResult<GameSummary> {
    let id = GameId(row.get(0)?);
    let run = RunId(row.get(1)?);
    let slot: String = row.get(2)?;
    let seed: String = row.get(3)?;
    let agents = BySide::new(AgentId(row.get(4)?), AgentId(row.get(5)?));
    let result: String = row.get(6)?;
    let scores = BySide::new(row.get::<_, f64>(7)?, row.get::<_, f64>(8)?);
    let faults: BySide<Option<String>> = BySide::new(row.get(9)?, row.get(10)?);
    let move_times: String = row.get(11)?;
    let judge_lag: Option<String> = row.get(12)?;
    let harness_flag: Option<String> = row.get(13)?;
    let finished_at_ms: i64 = row.get(14)?;
    Ok((|| {
        let result = match result.as_str() {
            "1-0" => GameResult::FirstWins,
            "0-1" => GameResult::SecondWins,
            "1/2-1/2" => GameResult::Draw,
            other => return Err(StoreError::Corrupt(format!("game {id} result {other:?}"))),
        };
        let mut fault_pair = BySide::<Option<Fault>>::default();
        for side in Side::BOTH {
            if let Some(text) = &faults[side] {
                fault_pair[side] = Some(json_column(text, "fault")?);
            }
        }
        Ok(GameSummary {
            id,
            run,
            seed: seed
                .parse()
                .map_err(|_| StoreError::Corrupt(format!("game {id} seed {seed:?}")))?,
            slot,
            agents,
            outcome: Outcome { result, scores, faults: fault_pair },
            move_times_us: json_column(&move_times, "move times")?,
            judge_lag: judge_lag
                .as_deref()
                .map(|text| json_column(text, "judge lag"))
                .transpose()?,
            harness_flag,
            finished_at_ms,
        })
    })())
}

fn user_version(conn: &Connection) -> rusqlite::Result<u32> {
    conn.pragma_query_value(None, "user_version", |row| row.get(0))
}

#[derive(Debug)]
enum MigrateError {
    TooNew(u32),
    Sqlite(rusqlite::Error),
}

impl From<rusqlite::Error> for MigrateError {
    fn from(error: rusqlite::Error) -> Self {
        MigrateError::Sqlite(error)
    }
}

/// Applies the migrations the file lacks, each in its own transaction with
/// the version bump, so a crash mid-migration leaves the previous version.
fn migrate(conn: &mut Connection, migrations: &[&str]) -> Result<(), MigrateError> {
    let target = u32::try_from(migrations.len()).expect("few migrations");
    // Checked without a lock first, so that opening an up-to-date store never
    // waits for a writer.
    let mut version = user_version(conn)?;
    while version != target {
        if version > target {
            return Err(MigrateError::TooNew(version));
        }
        // IMMEDIATE, and the version read again inside: two processes opening
        // a new file at once apply each migration once.
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        version = user_version(&tx)?;
        if version >= target {
            continue;
        }
        tx.execute_batch(migrations[version as usize])?;
        if version == 0 {
            tx.pragma_update(None, "application_id", APPLICATION_ID)?;
        }
        version += 1;
        tx.pragma_update(None, "user_version", version)?;
        tx.commit()?;
    }
    Ok(())
}

/// Checks and inserts one game inside `tx`.
fn insert_in(tx: &Transaction<'_>, run: RunId, game: &NewGame) -> Result<GameId, StoreError> {
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

    // Cached statements: a league stores thousands of games a second, and
    // parsing the SQL each time was a tenth of the store's work.
    let run_game: String = tx
        .prepare_cached("SELECT game FROM runs WHERE id = ?1")?
        .query_row([run.0], |row| row.get(0))
        .optional()?
        .ok_or(StoreError::NoSuchRun(run))?;
    if header.game != run_game {
        return Err(invalid(format!(
            "the record is a game of {}, the run plays {run_game}",
            header.game
        )));
    }
    for side in Side::BOTH {
        let agent = game.agents[side];
        let spec: String = tx
            .prepare_cached("SELECT spec FROM agents WHERE id = ?1 AND run_id = ?2")?
            .query_row(params![agent.0, run.0], |row| row.get(0))
            .optional()?
            .ok_or(StoreError::ForeignAgent { run, agent })?;
        if header.agents[side] != spec {
            return Err(invalid(format!(
                "the record's {side} agent is {:?}, but agent {agent} is {spec:?}",
                header.agents[side]
            )));
        }
    }
    if game.harness_flag.is_none() {
        let taken: bool = tx
            .prepare_cached(
                "SELECT EXISTS (SELECT 1 FROM games
                 WHERE run_id = ?1 AND slot = ?2 AND harness_flag IS NULL)",
            )?
            .query_row(params![run.0, game.slot], |row| row.get(0))?;
        if taken {
            return Err(StoreError::DuplicateSlot { run, slot: game.slot.clone() });
        }
    }
    tx.prepare_cached(
        "INSERT INTO games (run_id, slot, seed, first_agent, second_agent, result,
             first_score, second_score, first_fault, second_fault, move_times,
             judge_lag, harness_flag, record, finished_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
    )?
    .execute(params![
        run.0,
        game.slot,
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
        game.harness_flag,
        record,
        now_ms(),
    ])?;
    Ok(GameId(tx.last_insert_rowid()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_apply_in_order_and_a_failed_one_rolls_back() {
        let mut conn = Connection::open_in_memory().unwrap();
        let first = ["CREATE TABLE a (x)"];
        migrate(&mut conn, &first).unwrap();
        assert_eq!(user_version(&conn).unwrap(), 1);
        let second = ["CREATE TABLE a (x)", "ALTER TABLE a ADD COLUMN y"];
        migrate(&mut conn, &second).unwrap();
        assert_eq!(user_version(&conn).unwrap(), 2);
        conn.execute("INSERT INTO a (x, y) VALUES (1, 2)", []).unwrap();
        let broken = [
            "CREATE TABLE a (x)",
            "ALTER TABLE a ADD COLUMN y",
            "CREATE TABLE b (z); SELECT no_such_function()",
        ];
        assert!(migrate(&mut conn, &broken).is_err());
        assert_eq!(user_version(&conn).unwrap(), 2);
        let b_exists: bool = conn
            .query_row("SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = 'b')", [], |row| {
                row.get(0)
            })
            .unwrap();
        assert!(!b_exists, "the failed migration's table was rolled back");
        assert!(matches!(migrate(&mut conn, &first), Err(MigrateError::TooNew(2))));
    }

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
