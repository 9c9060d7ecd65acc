//! The contest's tables, in the host's SQLite file next to the league's
//! (`--db FILE`). They carry their own schema version (`contest_schema`), so
//! the league store's migrations and these never step on each other.
//!
//! Every game is a row of `contest_matches`: queued, then running (leased by
//! a player thread), then done with its whole record, written in one
//! statement that only a running row accepts — a result is never counted
//! twice. A host that restarts puts its running rows back in the queue.

use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use versus_core::{ClockMode, Fault, GameResult, Outcome, RecordLine, Side, TimeControl};
use versus_sql::{args, Conn, Migration, Row, SqlError};

use crate::auth;
use crate::{now_ms, ContestError};

/// The schema, one migration per version, each in both dialects; append
/// only. PostgreSQL's differ in types only (`BIGINT`, `BIGSERIAL`,
/// `DOUBLE PRECISION`, `BYTEA`) and in a name's case-blind uniqueness (an
/// index on `lower(name)` for SQLite's `COLLATE NOCASE`).
const MIGRATIONS: &[Migration] = &[
    Migration {
        sqlite: "
    CREATE TABLE contest_users (
        id          INTEGER PRIMARY KEY,
        name        TEXT NOT NULL UNIQUE COLLATE NOCASE,
        -- Argon2id PHC string; NULL for an account made by `versus user add`
        -- until it sets a password.
        password    TEXT,
        -- SHA-256 of the API token.
        token_hash  TEXT NOT NULL UNIQUE,
        admin       INTEGER NOT NULL DEFAULT 0,
        created_at  INTEGER NOT NULL
    );
    CREATE TABLE contest_sessions (
        -- SHA-256 of the cookie's value.
        id_hash     TEXT PRIMARY KEY,
        user_id     INTEGER NOT NULL REFERENCES contest_users (id),
        csrf        TEXT NOT NULL,
        expires_at  INTEGER NOT NULL
    );
    CREATE TABLE contest_submissions (
        id          INTEGER PRIMARY KEY,
        user_id     INTEGER NOT NULL REFERENCES contest_users (id),
        game        TEXT NOT NULL,
        language    TEXT NOT NULL,
        source      TEXT NOT NULL,
        sha256      TEXT NOT NULL,
        state       TEXT NOT NULL,
        -- Why it was rejected, or the compiler's one-line summary.
        detail      TEXT,
        compile_log TEXT,
        hidden      INTEGER NOT NULL DEFAULT 0,
        created_at  INTEGER NOT NULL
    );
    CREATE INDEX contest_submissions_by_game ON contest_submissions (game, id);
    -- The submission a participant chose as its entry in a game.
    CREATE TABLE contest_entries (
        user_id       INTEGER NOT NULL REFERENCES contest_users (id),
        game          TEXT NOT NULL,
        submission_id INTEGER NOT NULL REFERENCES contest_submissions (id),
        PRIMARY KEY (user_id, game)
    );
    CREATE TABLE contest_matches (
        id           INTEGER PRIMARY KEY,
        game         TEXT NOT NULL,
        kind         TEXT NOT NULL,
        -- 'sub:ID' or 'builtin:NAME'
        first        TEXT NOT NULL,
        second       TEXT NOT NULL,
        -- A u64 in decimal.
        seed         TEXT NOT NULL,
        status       TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done')),
        -- 0 for games that do not count for ratings (challenges, a reset).
        counted      INTEGER NOT NULL,
        requested_by INTEGER,
        created_at   INTEGER NOT NULL,
        started_at   INTEGER,
        finished_at  INTEGER,
        result       TEXT,
        first_score  REAL,
        second_score REAL,
        first_fault  TEXT,
        second_fault TEXT,
        record       TEXT
    );
    CREATE INDEX contest_matches_by_status ON contest_matches (status, id);
    CREATE INDEX contest_matches_by_game ON contest_matches (game, status);
    -- One row: the contest window (Unix ms; NULL: open).
    CREATE TABLE contest_window (
        id        INTEGER PRIMARY KEY CHECK (id = 1),
        start_at  INTEGER,
        end_at    INTEGER,
        freeze_at INTEGER
    );
    INSERT INTO contest_window (id) VALUES (1);
    ",
        postgres: "
    CREATE TABLE contest_users (
        id          BIGSERIAL PRIMARY KEY,
        name        TEXT NOT NULL,
        -- Argon2id PHC string; NULL for an account made by `versus user add`
        -- until it sets a password.
        password    TEXT,
        -- SHA-256 of the API token.
        token_hash  TEXT NOT NULL UNIQUE,
        admin       BIGINT NOT NULL DEFAULT 0,
        created_at  BIGINT NOT NULL
    );
    -- Names are unique whatever their case, as SQLite's NOCASE.
    CREATE UNIQUE INDEX contest_users_by_name ON contest_users (lower(name));
    CREATE TABLE contest_sessions (
        -- SHA-256 of the cookie's value.
        id_hash     TEXT PRIMARY KEY,
        user_id     BIGINT NOT NULL REFERENCES contest_users (id),
        csrf        TEXT NOT NULL,
        expires_at  BIGINT NOT NULL
    );
    CREATE TABLE contest_submissions (
        id          BIGSERIAL PRIMARY KEY,
        user_id     BIGINT NOT NULL REFERENCES contest_users (id),
        game        TEXT NOT NULL,
        language    TEXT NOT NULL,
        source      TEXT NOT NULL,
        sha256      TEXT NOT NULL,
        state       TEXT NOT NULL,
        -- Why it was rejected, or the compiler's one-line summary.
        detail      TEXT,
        compile_log TEXT,
        hidden      BIGINT NOT NULL DEFAULT 0,
        created_at  BIGINT NOT NULL
    );
    CREATE INDEX contest_submissions_by_game ON contest_submissions (game, id);
    -- The submission a participant chose as its entry in a game.
    CREATE TABLE contest_entries (
        user_id       BIGINT NOT NULL REFERENCES contest_users (id),
        game          TEXT NOT NULL,
        submission_id BIGINT NOT NULL REFERENCES contest_submissions (id),
        PRIMARY KEY (user_id, game)
    );
    CREATE TABLE contest_matches (
        id           BIGSERIAL PRIMARY KEY,
        game         TEXT NOT NULL,
        kind         TEXT NOT NULL,
        -- 'sub:ID' or 'builtin:NAME'
        first        TEXT NOT NULL,
        second       TEXT NOT NULL,
        -- A u64 in decimal.
        seed         TEXT NOT NULL,
        status       TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done')),
        -- 0 for games that do not count for ratings (challenges, a reset).
        counted      BIGINT NOT NULL,
        requested_by BIGINT,
        created_at   BIGINT NOT NULL,
        started_at   BIGINT,
        finished_at  BIGINT,
        result       TEXT,
        first_score  DOUBLE PRECISION,
        second_score DOUBLE PRECISION,
        first_fault  TEXT,
        second_fault TEXT,
        record       TEXT
    );
    CREATE INDEX contest_matches_by_status ON contest_matches (status, id);
    CREATE INDEX contest_matches_by_game ON contest_matches (game, status);
    -- One row: the contest window (Unix ms; NULL: open).
    CREATE TABLE contest_window (
        id        BIGINT PRIMARY KEY CHECK (id = 1),
        start_at  BIGINT,
        end_at    BIGINT,
        freeze_at BIGINT
    );
    INSERT INTO contest_window (id) VALUES (1);
    ",
    },
    Migration {
        sqlite: "
    -- NYPC's evaluations, scheduled by an organiser: a Swiss tournament, a
    -- round robin or the staged finals of the entries at their start.
    CREATE TABLE contest_evaluations (
        id          INTEGER PRIMARY KEY,
        game        TEXT NOT NULL,
        kind        TEXT NOT NULL CHECK (kind IN ('swiss', 'robin', 'finals')),
        -- Swiss: its rounds; otherwise 1.
        rounds      INTEGER NOT NULL,
        -- Games of a Swiss round's pairing, of a round robin's pair, of a
        -- finals cycle's pair.
        games       INTEGER NOT NULL,
        state       TEXT NOT NULL CHECK (state IN ('scheduled', 'running', 'done')),
        start_at    INTEGER NOT NULL,
        -- Scheduled again this long after its start, when it is over.
        repeat_ms   INTEGER,
        -- Only the first seeds take part (the previous evaluation's top).
        top         INTEGER,
        created_at  INTEGER NOT NULL,
        finished_at INTEGER
    );
    CREATE TABLE contest_evaluation_entries (
        evaluation    INTEGER NOT NULL REFERENCES contest_evaluations (id),
        seed          INTEGER NOT NULL,
        submission_id INTEGER NOT NULL REFERENCES contest_submissions (id),
        PRIMARY KEY (evaluation, seed)
    );
    -- Each game of an evaluation (or a bye, with no game): Swiss round or
    -- finals stage, and finals cycle (else 1).
    CREATE TABLE contest_evaluation_games (
        evaluation INTEGER NOT NULL REFERENCES contest_evaluations (id),
        round      INTEGER NOT NULL,
        cycle      INTEGER NOT NULL,
        match_id   INTEGER UNIQUE REFERENCES contest_matches (id),
        bye        INTEGER REFERENCES contest_submissions (id),
        CHECK ((match_id IS NULL) <> (bye IS NULL))
    );
    CREATE INDEX contest_evaluation_games_by_evaluation ON contest_evaluation_games (evaluation);
    ",
        postgres: "
    -- NYPC's evaluations, scheduled by an organiser: a Swiss tournament, a
    -- round robin or the staged finals of the entries at their start.
    CREATE TABLE contest_evaluations (
        id          BIGSERIAL PRIMARY KEY,
        game        TEXT NOT NULL,
        kind        TEXT NOT NULL CHECK (kind IN ('swiss', 'robin', 'finals')),
        -- Swiss: its rounds; otherwise 1.
        rounds      BIGINT NOT NULL,
        -- Games of a Swiss round's pairing, of a round robin's pair, of a
        -- finals cycle's pair.
        games       BIGINT NOT NULL,
        state       TEXT NOT NULL CHECK (state IN ('scheduled', 'running', 'done')),
        start_at    BIGINT NOT NULL,
        -- Scheduled again this long after its start, when it is over.
        repeat_ms   BIGINT,
        -- Only the first seeds take part (the previous evaluation's top).
        top         BIGINT,
        created_at  BIGINT NOT NULL,
        finished_at BIGINT
    );
    CREATE TABLE contest_evaluation_entries (
        evaluation    BIGINT NOT NULL REFERENCES contest_evaluations (id),
        seed          BIGINT NOT NULL,
        submission_id BIGINT NOT NULL REFERENCES contest_submissions (id),
        PRIMARY KEY (evaluation, seed)
    );
    -- Each game of an evaluation (or a bye, with no game): Swiss round or
    -- finals stage, and finals cycle (else 1).
    CREATE TABLE contest_evaluation_games (
        -- SQLite's implicit rowid, the order games were queued in.
        rowid      BIGSERIAL,
        evaluation BIGINT NOT NULL REFERENCES contest_evaluations (id),
        round      BIGINT NOT NULL,
        cycle      BIGINT NOT NULL,
        match_id   BIGINT UNIQUE REFERENCES contest_matches (id),
        bye        BIGINT REFERENCES contest_submissions (id),
        CHECK ((match_id IS NULL) <> (bye IS NULL))
    );
    CREATE INDEX contest_evaluation_games_by_evaluation ON contest_evaluation_games (evaluation);
    ",
    },
    Migration {
        sqlite: "
    -- NYPC's binary file: what the program finds as data.bin when it runs.
    ALTER TABLE contest_submissions ADD COLUMN data BLOB;
    ",
        postgres: "
    -- NYPC's binary file: what the program finds as data.bin when it runs.
    ALTER TABLE contest_submissions ADD COLUMN data BYTEA;
    ",
    },
    Migration {
        // Leases, so that games left by a worker that died go to another.
        sqlite: "
    ALTER TABLE contest_matches ADD COLUMN lease_until INTEGER;
    ALTER TABLE contest_matches ADD COLUMN worker TEXT;
    ",
        postgres: "
    ALTER TABLE contest_matches ADD COLUMN lease_until BIGINT;
    ALTER TABLE contest_matches ADD COLUMN worker TEXT;
    ",
    },
    Migration {
        // How the host plays its games (time control and clock, JSON), so
        // that workers on other machines play them the same way.
        sqlite: "CREATE TABLE contest_host (
            id    INTEGER PRIMARY KEY CHECK (id = 1),
            time  TEXT NOT NULL,
            clock TEXT
        )",
        postgres: "CREATE TABLE contest_host (
            id    BIGINT PRIMARY KEY CHECK (id = 1),
            time  TEXT NOT NULL,
            clock TEXT
        )",
    },
    Migration {
        // A game that could not start (a worker without the toolchain, a
        // full disk) waits before it is handed out again, longer each time,
        // so that it does not hold up the games that can be played.
        sqlite: "
    ALTER TABLE contest_matches ADD COLUMN start_failures INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE contest_matches ADD COLUMN not_before INTEGER;
    ALTER TABLE contest_matches ADD COLUMN start_error TEXT;
    ",
        postgres: "
    ALTER TABLE contest_matches ADD COLUMN start_failures INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE contest_matches ADD COLUMN not_before BIGINT;
    ALTER TABLE contest_matches ADD COLUMN start_error TEXT;
    ",
    },
];

/// The wait before a game that could not start is handed out again: 5 s,
/// doubling with each failure, at most 10 minutes.
#[must_use]
pub fn start_backoff(failures: u32) -> Duration {
    Duration::from_secs(5u64.saturating_mul(1 << failures.saturating_sub(1).min(7)).min(600))
}

/// How often a participant may submit: at most `count` submissions within
/// any `window`. NYPC's online round: two within 5 minutes (after two, the
/// next waits for 5 minutes after the first of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pacing {
    pub count: usize,
    pub window: Duration,
}

impl Pacing {
    pub const NYPC: Pacing = Pacing { count: 2, window: Duration::from_secs(300) };
    pub const NONE: Pacing = Pacing { count: 1, window: Duration::ZERO };

    /// When the next submission may come, given the participant's latest
    /// submission times (Unix ms, newest first): `count` after the oldest
    /// of its last `count` submissions; `None`: now.
    #[must_use]
    pub fn next_at(&self, newest_first: &[i64]) -> Option<i64> {
        let oldest = *newest_first.get(self.count.max(1) - 1)?;
        Some(oldest + self.window.as_millis() as i64)
    }

    fn describe(&self) -> String {
        match self.count {
            0 | 1 => format!("one submission per {} s", self.window.as_secs()),
            n => format!("{n} submissions within {} s", self.window.as_secs()),
        }
    }
}

/// Queues a game on `conn` (a connection or a transaction).
pub(crate) fn insert_match(
    conn: &Conn,
    new: &NewMatch,
) -> std::result::Result<MatchId, ContestError> {
    let row = conn.query_one(
        "INSERT INTO contest_matches (game, kind, first, second, seed, status, counted,
             requested_by, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, 'queued', ?6, ?7, ?8) RETURNING id",
        args![
            &new.game,
            new.kind.as_str(),
            new.first.key(),
            new.second.key(),
            new.seed.to_string(),
            new.counted,
            new.requested_by.map(|u| u.0),
            now_ms()
        ],
    )?;
    Ok(MatchId(row.get(0)?))
}

/// A participant's latest `count` submission times, newest first.
fn recent_submissions(
    conn: &Conn,
    user: UserId,
    count: usize,
) -> std::result::Result<Vec<i64>, ContestError> {
    let rows = conn.query(
        "SELECT created_at FROM contest_submissions WHERE user_id = ?1
         ORDER BY created_at DESC, id DESC LIMIT ?2",
        args![user.0, count.max(1)],
    )?;
    Ok(rows.iter().map(|r| r.get(0)).collect::<Result<_, _>>()?)
}

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub i64);
    };
}

id_type!(
    /// A participant.
    UserId
);
id_type!(
    /// A submission.
    SubmissionId
);
id_type!(
    /// A contest game.
    MatchId
);

/// A participant, without secrets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct User {
    pub id: UserId,
    pub name: String,
    pub admin: bool,
    pub created_at_ms: i64,
}

/// Where a submission is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SubmissionState {
    Queued,
    Compiling,
    /// Did not compile.
    Ce,
    /// Playing its game against `random`.
    Gate,
    /// Crashed, timed out or misbehaved at the gate: not entered.
    Rejected,
    Placement,
    Rated,
    /// Played the sample AIs, below the score that makes it eligible.
    Ineligible,
}

impl SubmissionState {
    fn as_str(self) -> &'static str {
        match self {
            SubmissionState::Queued => "queued",
            SubmissionState::Compiling => "compiling",
            SubmissionState::Ce => "ce",
            SubmissionState::Gate => "gate",
            SubmissionState::Rejected => "rejected",
            SubmissionState::Placement => "placement",
            SubmissionState::Rated => "rated",
            SubmissionState::Ineligible => "ineligible",
        }
    }

    fn parse(text: &str) -> Result<SubmissionState, ContestError> {
        Ok(match text {
            "queued" => SubmissionState::Queued,
            "compiling" => SubmissionState::Compiling,
            "ce" => SubmissionState::Ce,
            "gate" => SubmissionState::Gate,
            "rejected" => SubmissionState::Rejected,
            "placement" => SubmissionState::Placement,
            "rated" => SubmissionState::Rated,
            "ineligible" => SubmissionState::Ineligible,
            other => return Err(ContestError::Corrupt(format!("submission state {other:?}"))),
        })
    }

    /// Whether it compiled and passed the gate (it can be an entry).
    #[must_use]
    pub fn playing(self) -> bool {
        matches!(self, SubmissionState::Placement | SubmissionState::Rated)
    }

    /// Whether it compiled (it may still fail the gate).
    #[must_use]
    pub fn compiled(self) -> bool {
        matches!(self, SubmissionState::Gate | SubmissionState::Placement | SubmissionState::Rated)
    }
}

/// A submission. `source` and `compile_log` are its owner's business:
/// [`Submission::public`] drops them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Submission {
    pub id: SubmissionId,
    pub user: UserId,
    pub user_name: String,
    pub game: String,
    pub language: String,
    pub sha256: String,
    pub bytes: usize,
    pub state: SubmissionState,
    pub detail: Option<String>,
    pub hidden: bool,
    pub created_at_ms: i64,
    /// The size of its data file (`data.bin`), if it has one.
    pub data_bytes: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compile_log: Option<String>,
}

impl Submission {
    /// What anybody may see.
    #[must_use]
    pub fn public(mut self) -> Submission {
        self.source = None;
        self.compile_log = None;
        // A compiler's summary can quote the source.
        if self.state == SubmissionState::Ce {
            self.detail = None;
        }
        self
    }
}

/// What a game is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MatchKind {
    Gate,
    Placement,
    Rated,
    Challenge,
    Final,
    /// A game of an organiser's evaluation (Swiss, round robin, finals).
    Evaluation,
}

impl MatchKind {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            MatchKind::Gate => "gate",
            MatchKind::Placement => "placement",
            MatchKind::Rated => "rated",
            MatchKind::Challenge => "challenge",
            MatchKind::Final => "final",
            MatchKind::Evaluation => "evaluation",
        }
    }

    fn parse(text: &str) -> Result<MatchKind, ContestError> {
        Ok(match text {
            "gate" => MatchKind::Gate,
            "placement" => MatchKind::Placement,
            "rated" => MatchKind::Rated,
            "challenge" => MatchKind::Challenge,
            "final" => MatchKind::Final,
            "evaluation" => MatchKind::Evaluation,
            other => return Err(ContestError::Corrupt(format!("match kind {other:?}"))),
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MatchStatus {
    Queued,
    Running,
    Done,
}

/// A player of a contest game: a submission or a built-in level.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    Submission(SubmissionId),
    Builtin(String),
}

impl Player {
    fn key(&self) -> String {
        match self {
            Player::Submission(id) => format!("sub:{}", id.0),
            Player::Builtin(name) => format!("builtin:{name}"),
        }
    }

    pub(crate) fn parse(text: &str) -> Result<Player, ContestError> {
        if let Some(name) = text.strip_prefix("builtin:") {
            return Ok(Player::Builtin(name.to_owned()));
        }
        text.strip_prefix("sub:")
            .and_then(|id| id.parse().ok())
            .map(|id| Player::Submission(SubmissionId(id)))
            .ok_or_else(|| ContestError::Corrupt(format!("player {text:?}")))
    }

    #[must_use]
    pub fn submission(&self) -> Option<SubmissionId> {
        match self {
            Player::Submission(id) => Some(*id),
            Player::Builtin(_) => None,
        }
    }
}

/// A contest game. `outcome` is set once it is done; the record is read
/// apart ([`Db::match_record`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Match {
    pub id: MatchId,
    pub game: String,
    pub kind: MatchKind,
    pub first: Player,
    pub second: Player,
    pub seed: u64,
    pub status: MatchStatus,
    pub counted: bool,
    pub requested_by: Option<UserId>,
    pub created_at_ms: i64,
    pub finished_at_ms: Option<i64>,
    pub outcome: Option<Outcome>,
}

impl Match {
    /// The player on `side`.
    #[must_use]
    pub fn player(&self, side: Side) -> &Player {
        match side {
            Side::First => &self.first,
            Side::Second => &self.second,
        }
    }

    /// The side `submission` played, if it played.
    #[must_use]
    pub fn side_of(&self, submission: SubmissionId) -> Option<Side> {
        Side::BOTH.into_iter().find(|&side| self.player(side).submission() == Some(submission))
    }
}

/// A game to queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMatch {
    pub game: String,
    pub kind: MatchKind,
    pub first: Player,
    pub second: Player,
    pub seed: u64,
    pub counted: bool,
    pub requested_by: Option<UserId>,
}

/// The contest window, Unix ms (`None`: no bound).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Window {
    pub start_at: Option<i64>,
    pub end_at: Option<i64>,
    /// From here the public leaderboard shows the games finished before it.
    pub freeze_at: Option<i64>,
}

impl Window {
    /// Whether submissions are taken at `now`.
    pub fn open(&self, now: i64) -> Result<(), ContestError> {
        if self.start_at.is_some_and(|start| now < start) {
            return Err(ContestError::Forbidden("the contest has not started".into()));
        }
        if self.ended(now) {
            return Err(ContestError::Forbidden("the contest has ended".into()));
        }
        Ok(())
    }

    #[must_use]
    pub fn ended(&self, now: i64) -> bool {
        self.end_at.is_some_and(|end| now >= end)
    }

    /// The time before which games count on the public leaderboard at `now`.
    #[must_use]
    pub fn frozen_at(&self, now: i64) -> Option<i64> {
        let freeze = match (self.freeze_at, self.end_at) {
            (Some(freeze), Some(end)) => Some(freeze.min(end)),
            (freeze, end) => freeze.or(end),
        };
        freeze.filter(|&at| now >= at)
    }
}

/// A finished, counted game, for ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    pub first: Player,
    pub second: Player,
    pub result: GameResult,
    pub faults: [bool; 2],
    pub finished_at_ms: i64,
    pub kind: MatchKind,
}

/// How long a game stays leased to its player without a heartbeat.
pub const LEASE: Duration = Duration::from_secs(60);

/// The worker name of the host's own player threads.
pub const LOCAL_PLAYER: &str = "host";

/// Standard-error lines kept per side and game: a chatty bot does not fill the store.
pub const MAX_DEBUG_LINES: usize = 200;

type Outcome2 = std::result::Result<(), ContestError>;

/// The contest's tables over one connection, to the host's SQLite file or
/// to a PostgreSQL database shared with workers on other machines.
#[derive(Debug)]
pub struct Db {
    conn: Conn,
}

const SUBMISSION_COLUMNS: &str = "s.id, s.user_id, u.name, s.game, s.language, s.sha256, \
    octet_length(s.source), s.state, s.detail, s.hidden, s.created_at, octet_length(s.data)";

const MATCH_COLUMNS: &str = "id, game, kind, first, second, seed, status, counted, \
    requested_by, created_at, finished_at, result, first_score, second_score, first_fault, \
    second_fault";

impl Db {
    /// Opens the contest tables of the SQLite file at `path` (creating the
    /// file and the tables as needed).
    pub fn open(path: &Path) -> std::result::Result<Db, ContestError> {
        let open_error =
            |message: String| ContestError::Open { path: path.display().to_string(), message };
        // The league store checks that the file is a versus store (or makes
        // it one): the contest's tables never go into a foreign file.
        versus_league::store::Store::open(path).map_err(|e| open_error(e.to_string()))?;
        Db::setup(Conn::sqlite(path).map_err(|e| open_error(e.to_string()))?)
    }

    /// Opens the contest tables at `locator`: a `postgres://` URL or the
    /// path of a SQLite file.
    pub fn connect(locator: &str) -> std::result::Result<Db, ContestError> {
        if !versus_sql::is_postgres(locator) {
            return Db::open(Path::new(locator));
        }
        let conn = Conn::postgres(locator).map_err(|e| ContestError::Open {
            path: versus_sql::redact(locator),
            message: e.to_string(),
        })?;
        Db::setup(conn)
    }

    /// The connection, for the evaluations' own tables.
    pub(crate) fn sql(&self) -> &Conn {
        &self.conn
    }

    fn setup(conn: Conn) -> std::result::Result<Db, ContestError> {
        conn.migrate("contest_schema", MIGRATIONS)?;
        Ok(Db { conn })
    }

    // ------------------------------------------------------------ participants

    /// Creates an account; gives it and its API token (shown once).
    pub fn add_user(
        &mut self,
        name: &str,
        password: Option<&str>,
        admin: bool,
    ) -> std::result::Result<(User, String), ContestError> {
        check_name(name)?;
        let hash = match password {
            Some(password) => Some(check_and_hash(password)?),
            None => None,
        };
        let token = auth::random_token()?;
        let now = now_ms();
        // Any conflict is the name's (a token's hash is 256 random bits).
        let inserted = self.conn.query_opt(
            "INSERT INTO contest_users (name, password, token_hash, admin, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING RETURNING id",
            args![name, hash, auth::digest(&token), admin, now],
        )?;
        let Some(row) = inserted else {
            return Err(ContestError::NameTaken(name.to_owned()));
        };
        let id = UserId(row.get(0)?);
        Ok((User { id, name: name.to_owned(), admin, created_at_ms: now }, token))
    }

    /// Sets a participant's password.
    pub fn set_password(&mut self, user: UserId, password: &str) -> Outcome2 {
        let hash = check_and_hash(password)?;
        self.conn
            .execute("UPDATE contest_users SET password = ?1 WHERE id = ?2", args![hash, user.0])?;
        Ok(())
    }

    /// A new API token for `user` (the old one stops working).
    pub fn new_token(&mut self, user: UserId) -> std::result::Result<String, ContestError> {
        let token = auth::random_token()?;
        self.conn.execute(
            "UPDATE contest_users SET token_hash = ?1 WHERE id = ?2",
            args![auth::digest(&token), user.0],
        )?;
        Ok(token)
    }

    pub fn user(&self, id: UserId) -> std::result::Result<Option<User>, ContestError> {
        let row = self.conn.query_opt(
            "SELECT id, name, admin, created_at FROM contest_users WHERE id = ?1",
            args![id.0],
        )?;
        Ok(row.as_ref().map(user_row).transpose()?)
    }

    /// The participant of this name, whatever its case.
    pub fn user_by_name(&self, name: &str) -> std::result::Result<Option<User>, ContestError> {
        let row = self.conn.query_opt(
            "SELECT id, name, admin, created_at FROM contest_users WHERE lower(name) = lower(?1)",
            args![name],
        )?;
        Ok(row.as_ref().map(user_row).transpose()?)
    }

    /// Every participant, in the order they signed up.
    pub fn users(&self) -> std::result::Result<Vec<User>, ContestError> {
        let rows = self
            .conn
            .query("SELECT id, name, admin, created_at FROM contest_users ORDER BY id", &[])?;
        Ok(rows.iter().map(user_row).collect::<Result<_, _>>()?)
    }

    /// The participant whose API token this is.
    pub fn token_user(&self, token: &str) -> std::result::Result<Option<User>, ContestError> {
        let row = self.conn.query_opt(
            "SELECT id, name, admin, created_at FROM contest_users WHERE token_hash = ?1",
            args![auth::digest(token)],
        )?;
        Ok(row.as_ref().map(user_row).transpose()?)
    }

    /// Checks a name and password; opens a session that lasts `ttl`. Gives
    /// the session's cookie value and its CSRF token.
    pub fn sign_in(
        &mut self,
        name: &str,
        password: &str,
        ttl: Duration,
    ) -> std::result::Result<(User, String, String), ContestError> {
        let stored: Option<(i64, Option<String>)> = self
            .conn
            .query_opt(
                "SELECT id, password FROM contest_users WHERE lower(name) = lower(?1)",
                args![name],
            )?
            .map(|r| Ok::<_, SqlError>((r.get(0)?, r.get(1)?)))
            .transpose()?;
        let Some((id, Some(hash))) = stored else {
            // The same work as a wrong password: the answer's time does not
            // tell which names exist.
            let _ = auth::verify_password(password, DUMMY_HASH);
            return Err(ContestError::BadCredentials);
        };
        if password.len() > auth::MAX_PASSWORD || !auth::verify_password(password, &hash) {
            return Err(ContestError::BadCredentials);
        }
        let user = self.user(UserId(id))?.ok_or(ContestError::BadCredentials)?;
        let (session, csrf) = self.open_session(user.id, ttl)?;
        Ok((user, session, csrf))
    }

    /// A new session for `user`: its cookie value and CSRF token.
    pub fn open_session(
        &mut self,
        user: UserId,
        ttl: Duration,
    ) -> std::result::Result<(String, String), ContestError> {
        let session = auth::random_token()?;
        let csrf = auth::random_token()?;
        let now = now_ms();
        self.conn.execute("DELETE FROM contest_sessions WHERE expires_at <= ?1", args![now])?;
        self.conn.execute(
            "INSERT INTO contest_sessions (id_hash, user_id, csrf, expires_at) VALUES (?1, ?2, ?3, ?4)",
            args![auth::digest(&session), user.0, &csrf, now + ttl.as_millis() as i64],
        )?;
        Ok((session, csrf))
    }

    /// The participant and CSRF token of a live session.
    pub fn session(
        &self,
        session: &str,
    ) -> std::result::Result<Option<(User, String)>, ContestError> {
        let row: Option<(i64, String)> = self
            .conn
            .query_opt(
                "SELECT user_id, csrf FROM contest_sessions WHERE id_hash = ?1 AND expires_at > ?2",
                args![auth::digest(session), now_ms()],
            )?
            .map(|r| Ok::<_, SqlError>((r.get(0)?, r.get(1)?)))
            .transpose()?;
        match row {
            Some((id, csrf)) => Ok(self.user(UserId(id))?.map(|user| (user, csrf))),
            None => Ok(None),
        }
    }

    pub fn sign_out(&mut self, session: &str) -> Outcome2 {
        self.conn.execute(
            "DELETE FROM contest_sessions WHERE id_hash = ?1",
            args![auth::digest(session)],
        )?;
        Ok(())
    }

    // ------------------------------------------------------------- submissions

    /// Stores a submission, queued for compiling, if `pacing` allows it.
    pub fn submit(
        &mut self,
        user: UserId,
        game: &str,
        language: &str,
        source: &str,
        pacing: Pacing,
    ) -> std::result::Result<SubmissionId, ContestError> {
        self.submit_with_data(user, game, language, source, None, pacing)
    }

    /// [`Db::submit`] with a data file, which the program finds as
    /// `data.bin` in its working folder when it runs.
    pub fn submit_with_data(
        &mut self,
        user: UserId,
        game: &str,
        language: &str,
        source: &str,
        data: Option<&[u8]>,
        pacing: Pacing,
    ) -> std::result::Result<SubmissionId, ContestError> {
        let now = now_ms();
        self.conn.write(|tx| {
            if let Some(ready) = pacing.next_at(&recent_submissions(tx, user, pacing.count)?) {
                if now < ready {
                    return Err(ContestError::RateLimited {
                        what: pacing.describe(),
                        wait_s: ((ready - now) as u64).div_ceil(1000),
                    });
                }
            }
            let row = tx.query_one(
                "INSERT INTO contest_submissions (user_id, game, language, source, sha256, state,
                 created_at, data)
             VALUES (?1, ?2, ?3, ?4, ?5, 'queued', ?6, ?7) RETURNING id",
                args![
                    user.0,
                    game,
                    language,
                    source,
                    auth::hex(&<sha2::Sha256 as sha2::Digest>::digest(source.as_bytes())),
                    now,
                    data
                ],
            )?;
            Ok(SubmissionId(row.get(0)?))
        })
    }

    /// A submission with its source and compiler output.
    pub fn submission(
        &self,
        id: SubmissionId,
    ) -> std::result::Result<Option<Submission>, ContestError> {
        let row = self.conn.query_opt(
            &format!(
                "SELECT {SUBMISSION_COLUMNS}, s.source, s.compile_log FROM contest_submissions s
                 JOIN contest_users u ON u.id = s.user_id WHERE s.id = ?1"
            ),
            args![id.0],
        )?;
        let Some(r) = row else { return Ok(None) };
        let mut submission = submission_row(&r)?;
        submission.0.source = r.get(12)?;
        submission.0.compile_log = r.get(13)?;
        check_submission(submission).map(Some)
    }

    /// Who made a submission (without reading its source).
    pub fn submission_owner(
        &self,
        id: SubmissionId,
    ) -> std::result::Result<Option<UserId>, ContestError> {
        let row = self
            .conn
            .query_opt("SELECT user_id FROM contest_submissions WHERE id = ?1", args![id.0])?;
        Ok(row.map(|r| r.get(0).map(UserId)).transpose()?)
    }

    /// A submission's data file, if it has one.
    pub fn submission_data(
        &self,
        id: SubmissionId,
    ) -> std::result::Result<Option<Vec<u8>>, ContestError> {
        let row = self
            .conn
            .query_opt("SELECT data FROM contest_submissions WHERE id = ?1", args![id.0])?;
        Ok(row.map(|r| r.get::<Option<Vec<u8>>>(0)).transpose()?.flatten())
    }

    /// The submissions of `game` (newest first), of one participant if given,
    /// without sources.
    pub fn submissions(
        &self,
        game: &str,
        user: Option<UserId>,
    ) -> std::result::Result<Vec<Submission>, ContestError> {
        let rows = self.conn.query(
            &format!(
                "SELECT {SUBMISSION_COLUMNS} FROM contest_submissions s
                 JOIN contest_users u ON u.id = s.user_id
                 WHERE s.game = ?1 AND (CAST(?2 AS BIGINT) IS NULL OR s.user_id = ?2)
                 ORDER BY s.id DESC"
            ),
            args![game, user.map(|u| u.0)],
        )?;
        rows.iter().map(|r| check_submission(submission_row(r)?)).collect()
    }

    /// Submissions in `state`, oldest first.
    pub fn submissions_in(
        &self,
        state: SubmissionState,
    ) -> std::result::Result<Vec<Submission>, ContestError> {
        let rows = self.conn.query(
            &format!(
                "SELECT {SUBMISSION_COLUMNS} FROM contest_submissions s
                 JOIN contest_users u ON u.id = s.user_id WHERE s.state = ?1 ORDER BY s.id"
            ),
            args![state.as_str()],
        )?;
        rows.iter().map(|r| check_submission(submission_row(r)?)).collect()
    }

    /// Moves a submission from `from` to `to`; false if it was not in `from`
    /// (another thread moved it first).
    pub fn move_submission(
        &mut self,
        id: SubmissionId,
        from: SubmissionState,
        to: SubmissionState,
        detail: Option<&str>,
    ) -> std::result::Result<bool, ContestError> {
        Ok(self.conn.execute(
            "UPDATE contest_submissions SET state = ?1, detail = coalesce(?2, detail)
             WHERE id = ?3 AND state = ?4",
            args![to.as_str(), detail, id.0, from.as_str()],
        )? == 1)
    }

    /// Records a failed compile.
    pub fn compile_failed(&mut self, id: SubmissionId, summary: &str, log: &str) -> Outcome2 {
        self.conn.execute(
            "UPDATE contest_submissions SET state = 'ce', detail = ?1, compile_log = ?2
             WHERE id = ?3 AND state = 'compiling'",
            args![summary, log, id.0],
        )?;
        Ok(())
    }

    /// Hides (or shows again) a submission: a hidden one is off the
    /// leaderboard and plays no more rated games.
    pub fn set_hidden(&mut self, id: SubmissionId, hidden: bool) -> Outcome2 {
        let changed = self.conn.execute(
            "UPDATE contest_submissions SET hidden = ?1 WHERE id = ?2",
            args![hidden, id.0],
        )?;
        if changed == 0 {
            return Err(ContestError::NotFound(format!("no submission {}", id.0)));
        }
        Ok(())
    }

    /// Judges a submission again from the start: its games stop counting,
    /// unplayed ones are dropped, and it is compiled again.
    pub fn rejudge(&mut self, id: SubmissionId) -> Outcome2 {
        let key = Player::Submission(id).key();
        self.conn.write(|tx| {
            let changed = tx.execute(
                "UPDATE contest_submissions SET state = 'queued', detail = NULL, compile_log = NULL
             WHERE id = ?1",
                args![id.0],
            )?;
            if changed == 0 {
                return Err(ContestError::NotFound(format!("no submission {}", id.0)));
            }
            tx.execute(
            "DELETE FROM contest_matches WHERE status = 'queued' AND (first = ?1 OR second = ?1)",
            args![&key],
        )?;
            tx.execute(
                "UPDATE contest_matches SET counted = 0 WHERE first = ?1 OR second = ?1",
                args![&key],
            )?;
            Ok(())
        })
    }

    /// Makes `submission` its owner's entry in its game.
    pub fn choose_entry(&mut self, user: UserId, submission: SubmissionId) -> Outcome2 {
        let found = self.submission(submission)?;
        let Some(found) = found.filter(|s| s.user == user) else {
            return Err(ContestError::NotFound(format!("you have no submission {}", submission.0)));
        };
        if !found.state.compiled() && found.state != SubmissionState::Queued {
            return Err(ContestError::Invalid(format!(
                "submission {} cannot play ({})",
                submission.0,
                found.state.as_str()
            )));
        }
        self.conn.execute(
            "INSERT INTO contest_entries (user_id, game, submission_id) VALUES (?1, ?2, ?3)
             ON CONFLICT (user_id, game) DO UPDATE SET submission_id = excluded.submission_id",
            args![user.0, found.game, submission.0],
        )?;
        Ok(())
    }

    /// Each participant's entry in `game` (NYPC's final submission): the
    /// submission they chose if it is eligible (rated: it passed the sample
    /// AIs), else their latest eligible one; hidden ones never.
    pub fn entries(&self, game: &str) -> std::result::Result<Vec<Submission>, ContestError> {
        let all = self.submissions(game, None)?;
        let mut chosen = std::collections::HashMap::new();
        let rows = self.conn.query(
            "SELECT user_id, submission_id FROM contest_entries WHERE game = ?1",
            args![game],
        )?;
        for row in rows {
            chosen.insert(row.get::<i64>(0)?, row.get::<i64>(1)?);
        }
        let mut entries: Vec<Submission> = Vec::new();
        let eligible = |s: &Submission| s.state == SubmissionState::Rated && !s.hidden;
        // Newest first, so the first eligible one of a participant is the latest.
        for submission in &all {
            if entries.iter().any(|e| e.user == submission.user) || !eligible(submission) {
                continue;
            }
            let pick = chosen
                .get(&submission.user.0)
                .and_then(|id| all.iter().find(|s| s.id.0 == *id && eligible(s)))
                .unwrap_or(submission);
            entries.push(pick.clone());
        }
        entries.sort_by_key(|s| s.id);
        Ok(entries)
    }

    /// The submission a participant chose explicitly, if any.
    pub fn chosen_entry(
        &self,
        user: UserId,
        game: &str,
    ) -> std::result::Result<Option<SubmissionId>, ContestError> {
        let row = self.conn.query_opt(
            "SELECT submission_id FROM contest_entries WHERE user_id = ?1 AND game = ?2",
            args![user.0, game],
        )?;
        Ok(row.map(|r| r.get(0).map(SubmissionId)).transpose()?)
    }

    // ----------------------------------------------------------------- games

    pub fn queue_match(&mut self, new: &NewMatch) -> std::result::Result<MatchId, ContestError> {
        insert_match(&self.conn, new)
    }

    /// [`Db::lease_match_as`] for the host's own players.
    pub fn lease_match(&mut self) -> std::result::Result<Option<Match>, ContestError> {
        self.lease_match_as(LOCAL_PLAYER, LEASE)
    }

    /// Takes the next game to play (gates first, then placements,
    /// challenges, finals, evaluations and rated games, each oldest first):
    /// a queued one, or a running one whose lease ran out (its player died)
    /// — and marks it running, leased to `worker` for `ttl`.
    pub fn lease_match_as(
        &mut self,
        worker: &str,
        ttl: Duration,
    ) -> std::result::Result<Option<Match>, ContestError> {
        let now = now_ms();
        let id = self.conn.write(|tx| {
            let Some(row) = tx.query_opt(
                "SELECT id FROM contest_matches
                 WHERE (status = 'queued' AND coalesce(not_before, 0) <= ?1)
                    OR (status = 'running' AND lease_until < ?1)
                 ORDER BY CASE kind WHEN 'gate' THEN 0 WHEN 'placement' THEN 1
                     WHEN 'challenge' THEN 2 WHEN 'final' THEN 3 WHEN 'evaluation' THEN 4
                     ELSE 5 END, id LIMIT 1",
                args![now],
            )?
            else {
                return Ok::<_, SqlError>(None);
            };
            let id: i64 = row.get(0)?;
            tx.execute(
                "UPDATE contest_matches SET status = 'running', started_at = ?1, lease_until = ?2,
                     worker = ?3
                 WHERE id = ?4",
                args![now, now + ttl.as_millis() as i64, worker, id],
            )?;
            Ok(Some(id))
        })?;
        match id {
            Some(id) => self.game_match(MatchId(id)),
            None => Ok(None),
        }
    }

    /// Keeps a game leased to `worker` for `ttl` more; false if it is no
    /// longer its (done, or handed to another after the lease ran out).
    pub fn extend_lease(
        &mut self,
        id: MatchId,
        worker: &str,
        ttl: Duration,
    ) -> std::result::Result<bool, ContestError> {
        Ok(self.conn.execute(
            "UPDATE contest_matches SET lease_until = ?1
             WHERE id = ?2 AND status = 'running' AND worker = ?3",
            args![now_ms() + ttl.as_millis() as i64, id.0, worker],
        )? == 1)
    }

    /// Writes a played game: its outcome and whole record (standard-error
    /// lines capped per side). Only a running game takes a result, so a
    /// result is never written twice; false if it was not running.
    pub fn finish_match(
        &mut self,
        id: MatchId,
        record: &[RecordLine],
    ) -> std::result::Result<bool, ContestError> {
        let Some(RecordLine::Footer { outcome }) = record.last() else {
            return Err(ContestError::Invalid(format!("the record of game {} has no end", id.0)));
        };
        let mut kept = [0usize; 2];
        let mut text = String::new();
        for line in record {
            if let RecordLine::Debug { side, .. } = line {
                kept[side.index()] += 1;
                if kept[side.index()] > MAX_DEBUG_LINES {
                    continue;
                }
            }
            let json = serde_json::to_string(line)
                .map_err(|e| ContestError::Invalid(format!("cannot write a record line: {e}")))?;
            text.push_str(&json);
            text.push('\n');
        }
        let fault = |f: &Option<Fault>| f.as_ref().and_then(|f| serde_json::to_string(f).ok());
        Ok(self.conn.execute(
            "UPDATE contest_matches SET status = 'done', finished_at = ?1, result = ?2,
                 first_score = ?3, second_score = ?4, first_fault = ?5, second_fault = ?6,
                 record = ?7
             WHERE id = ?8 AND status = 'running'",
            args![
                now_ms(),
                result_text(outcome.result),
                outcome.scores.first,
                outcome.scores.second,
                fault(&outcome.faults.first),
                fault(&outcome.faults.second),
                text,
                id.0
            ],
        )? == 1)
    }

    /// Puts back in the queue what a host that restarts left unfinished:
    /// the compile in progress, and the games its own players were playing
    /// (those of workers on other machines go on, or expire). Gives how
    /// many games.
    pub fn requeue_running(&mut self) -> std::result::Result<usize, ContestError> {
        let games = self.conn.execute(
            "UPDATE contest_matches SET status = 'queued', started_at = NULL, lease_until = NULL
             WHERE status = 'running' AND coalesce(worker, ?1) = ?1",
            args![LOCAL_PLAYER],
        )?;
        self.conn.execute(
            "UPDATE contest_submissions SET state = 'queued' WHERE state = 'compiling'",
            &[],
        )?;
        Ok(games as usize)
    }

    /// Puts a running game that could not start back in the queue, not to
    /// be handed out before [`start_backoff`] of its failures has passed
    /// (other games are played meanwhile); `error` says why, for the admin.
    /// Gives how many times it has failed to start.
    pub fn requeue_failed_start(
        &mut self,
        id: MatchId,
        error: &str,
    ) -> std::result::Result<u32, ContestError> {
        self.conn.write(|tx| {
            let Some(row) = tx.query_opt(
                "SELECT start_failures FROM contest_matches WHERE id = ?1 AND status = 'running'",
                args![id.0],
            )?
            else {
                return Ok(0);
            };
            let failures = row.get::<u32>(0)?.saturating_add(1);
            let not_before = now_ms() + start_backoff(failures).as_millis() as i64;
            tx.execute(
                "UPDATE contest_matches SET status = 'queued', started_at = NULL,
                     lease_until = NULL, start_failures = ?2, not_before = ?3, start_error = ?4
                 WHERE id = ?1",
                args![id.0, failures, not_before, error],
            )?;
            Ok(failures)
        })
    }

    pub fn game_match(&self, id: MatchId) -> std::result::Result<Option<Match>, ContestError> {
        let row = self.conn.query_opt(
            &format!("SELECT {MATCH_COLUMNS} FROM contest_matches WHERE id = ?1"),
            args![id.0],
        )?;
        row.map(|r| check_match(match_row(&r)?)).transpose()
    }

    /// The stored record of a finished game, JSON lines.
    pub fn match_record(&self, id: MatchId) -> std::result::Result<Option<String>, ContestError> {
        let row = self.conn.query_opt(
            "SELECT record FROM contest_matches WHERE id = ?1 AND status = 'done'",
            args![id.0],
        )?;
        Ok(row.map(|r| r.get::<Option<String>>(0)).transpose()?.flatten())
    }

    /// The games of `game` (newest first, at most `limit`), of one
    /// submission if given.
    pub fn matches(
        &self,
        game: &str,
        submission: Option<SubmissionId>,
        limit: usize,
    ) -> std::result::Result<Vec<Match>, ContestError> {
        let key = submission.map(|s| Player::Submission(s).key());
        let rows = self.conn.query(
            &format!(
                "SELECT {MATCH_COLUMNS} FROM contest_matches
                 WHERE game = ?1 AND (CAST(?2 AS TEXT) IS NULL OR first = ?2 OR second = ?2)
                 ORDER BY id DESC LIMIT ?3"
            ),
            args![game, key, limit],
        )?;
        rows.iter().map(|r| check_match(match_row(r)?)).collect()
    }

    /// Games not yet done of `game`, by kind.
    pub fn pending(&self, game: &str) -> std::result::Result<Vec<Match>, ContestError> {
        let rows = self.conn.query(
            &format!(
                "SELECT {MATCH_COLUMNS} FROM contest_matches WHERE game = ?1 AND status != 'done'"
            ),
            args![game],
        )?;
        rows.iter().map(|r| check_match(match_row(r)?)).collect()
    }

    /// The counted, finished games of `game`.
    pub fn results(&self, game: &str) -> std::result::Result<Vec<Played>, ContestError> {
        let rows = self.conn.query(
            "SELECT first, second, result, first_fault IS NOT NULL, second_fault IS NOT NULL,
                 finished_at, kind
             FROM contest_matches WHERE game = ?1 AND status = 'done' AND counted = 1 ORDER BY id",
            args![game],
        )?;
        rows.iter()
            .map(|r| {
                Ok(Played {
                    first: Player::parse(&r.get::<String>(0)?)?,
                    second: Player::parse(&r.get::<String>(1)?)?,
                    result: parse_result(&r.get::<String>(2)?)?,
                    faults: [r.get(3)?, r.get(4)?],
                    finished_at_ms: r.get(5)?,
                    kind: MatchKind::parse(&r.get::<String>(6)?)?,
                })
            })
            .collect()
    }

    /// Games of `game` stop counting (an admin's reset): ratings start again
    /// from the games played after it.
    pub fn reset_ratings(&mut self, game: &str) -> std::result::Result<usize, ContestError> {
        Ok(self.conn.execute(
            "UPDATE contest_matches SET counted = 0 WHERE game = ?1 AND status = 'done'",
            args![game],
        )? as usize)
    }

    /// The last challenge `user` asked for, Unix ms.
    pub fn last_challenge(&self, user: UserId) -> std::result::Result<Option<i64>, ContestError> {
        Ok(self
            .conn
            .query_one(
                "SELECT max(created_at) FROM contest_matches
                 WHERE kind = 'challenge' AND requested_by = ?1",
                args![user.0],
            )?
            .get(0)?)
    }

    // ------------------------------------------------------------------ host

    /// Records how the host plays its games: `time`, and the clock of every
    /// game (`None`: each game's own contest's).
    pub fn set_play_settings(&mut self, time: TimeControl, clock: Option<ClockMode>) -> Outcome2 {
        let json = |v: serde_json::Result<String>| {
            v.map_err(|e| ContestError::Invalid(format!("cannot write the settings: {e}")))
        };
        self.conn.execute(
            "INSERT INTO contest_host (id, time, clock) VALUES (1, ?1, ?2)
             ON CONFLICT (id) DO UPDATE SET time = excluded.time, clock = excluded.clock",
            args![
                json(serde_json::to_string(&time))?,
                clock.map(|c| json(serde_json::to_string(&c))).transpose()?
            ],
        )?;
        Ok(())
    }

    /// How the host plays its games, once a host has started on this store.
    pub fn play_settings(
        &self,
    ) -> std::result::Result<Option<(TimeControl, Option<ClockMode>)>, ContestError> {
        let Some(row) = self.conn.query_opt("SELECT time, clock FROM contest_host", &[])? else {
            return Ok(None);
        };
        let corrupt = |e: serde_json::Error| ContestError::Corrupt(format!("host settings: {e}"));
        let time = serde_json::from_str(&row.get::<String>(0)?).map_err(corrupt)?;
        let clock = match row.get::<Option<String>>(1)? {
            Some(text) => Some(serde_json::from_str(&text).map_err(corrupt)?),
            None => None,
        };
        Ok(Some((time, clock)))
    }

    // ---------------------------------------------------------------- window

    pub fn window(&self) -> std::result::Result<Window, ContestError> {
        let r = self.conn.query_one(
            "SELECT start_at, end_at, freeze_at FROM contest_window WHERE id = 1",
            &[],
        )?;
        Ok(Window { start_at: r.get(0)?, end_at: r.get(1)?, freeze_at: r.get(2)? })
    }

    pub fn set_window(&mut self, window: Window) -> Outcome2 {
        if let (Some(start), Some(end)) = (window.start_at, window.end_at) {
            if end <= start {
                return Err(ContestError::Invalid("the end must come after the start".into()));
            }
        }
        self.conn.execute(
            "UPDATE contest_window SET start_at = ?1, end_at = ?2, freeze_at = ?3 WHERE id = 1",
            args![window.start_at, window.end_at, window.freeze_at],
        )?;
        Ok(())
    }
}

/// A hash that no password matches, to spend the same time on unknown names.
const DUMMY_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$2eOjRgGyz8CnwdKM4/8mfpWhbMdfVA2eYQzh2c3szvs";

/// Names: 1 to 32 letters, digits, `-`, `_` or `.`, not starting with `.`.
pub fn check_name(name: &str) -> Outcome2 {
    let ok = (1..=32).contains(&name.len())
        && !name.starts_with('.')
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if ok {
        Ok(())
    } else {
        Err(ContestError::Invalid(
            "a name is 1 to 32 letters, digits, '-', '_' or '.', not starting with '.'".into(),
        ))
    }
}

fn check_and_hash(password: &str) -> std::result::Result<String, ContestError> {
    let chars = password.chars().count();
    if chars < auth::MIN_PASSWORD || password.len() > auth::MAX_PASSWORD {
        return Err(ContestError::Invalid(format!(
            "a password is {} to {} characters",
            auth::MIN_PASSWORD,
            auth::MAX_PASSWORD
        )));
    }
    auth::hash_password(password)
}

fn user_row(r: &Row) -> Result<User, SqlError> {
    Ok(User { id: UserId(r.get(0)?), name: r.get(1)?, admin: r.get(2)?, created_at_ms: r.get(3)? })
}

/// A submission row with its state still as text (checked by [`check_submission`]).
fn submission_row(r: &Row) -> Result<(Submission, String), SqlError> {
    Ok((
        Submission {
            id: SubmissionId(r.get(0)?),
            user: UserId(r.get(1)?),
            user_name: r.get(2)?,
            game: r.get(3)?,
            language: r.get(4)?,
            sha256: r.get(5)?,
            bytes: r.get::<usize>(6)?,
            state: SubmissionState::Queued,
            detail: r.get(8)?,
            hidden: r.get(9)?,
            created_at_ms: r.get(10)?,
            data_bytes: r.get::<Option<usize>>(11)?,
            source: None,
            compile_log: None,
        },
        r.get(7)?,
    ))
}

fn check_submission(
    (mut submission, state): (Submission, String),
) -> std::result::Result<Submission, ContestError> {
    submission.state = SubmissionState::parse(&state)?;
    Ok(submission)
}

type MatchRow =
    (Match, String, String, String, String, String, Option<String>, [Option<String>; 2]);

fn match_row(r: &Row) -> Result<MatchRow, SqlError> {
    let scores: (Option<f64>, Option<f64>) = (r.get(12)?, r.get(13)?);
    Ok((
        Match {
            id: MatchId(r.get(0)?),
            game: r.get(1)?,
            kind: MatchKind::Gate,
            first: Player::Builtin(String::new()),
            second: Player::Builtin(String::new()),
            seed: 0,
            status: MatchStatus::Queued,
            counted: r.get(7)?,
            requested_by: r.get::<Option<i64>>(8)?.map(UserId),
            created_at_ms: r.get(9)?,
            finished_at_ms: r.get(10)?,
            outcome: scores.0.zip(scores.1).map(|(first, second)| Outcome {
                result: GameResult::Draw,
                scores: versus_core::BySide::new(first, second),
                faults: versus_core::BySide::default(),
            }),
        },
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
        r.get(6)?,
        r.get(11)?,
        [r.get(14)?, r.get(15)?],
    ))
}

fn check_match(
    (mut game, kind, first, second, seed, status, result, faults): MatchRow,
) -> std::result::Result<Match, ContestError> {
    game.kind = MatchKind::parse(&kind)?;
    game.first = Player::parse(&first)?;
    game.second = Player::parse(&second)?;
    game.seed = seed.parse().map_err(|_| ContestError::Corrupt(format!("seed {seed:?}")))?;
    game.status = match status.as_str() {
        "queued" => MatchStatus::Queued,
        "running" => MatchStatus::Running,
        "done" => MatchStatus::Done,
        other => return Err(ContestError::Corrupt(format!("match status {other:?}"))),
    };
    if let (Some(outcome), Some(result)) = (game.outcome.as_mut(), result) {
        outcome.result = parse_result(&result)?;
        for (side, fault) in Side::BOTH.into_iter().zip(faults) {
            outcome.faults[side] = match fault {
                Some(text) => Some(
                    serde_json::from_str(&text)
                        .map_err(|e| ContestError::Corrupt(format!("fault {text:?}: {e}")))?,
                ),
                None => None,
            };
        }
    }
    Ok(game)
}

fn result_text(result: GameResult) -> &'static str {
    match result {
        GameResult::FirstWins => "1-0",
        GameResult::SecondWins => "0-1",
        GameResult::Draw => "1/2-1/2",
    }
}

fn parse_result(text: &str) -> std::result::Result<GameResult, ContestError> {
    match text {
        "1-0" => Ok(GameResult::FirstWins),
        "0-1" => Ok(GameResult::SecondWins),
        "1/2-1/2" => Ok(GameResult::Draw),
        other => Err(ContestError::Corrupt(format!("result {other:?}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// NYPC's rule by hand: submissions at 0:00 and 0:30 (within 5 min): the
    /// next is possible at 5:00 (the first of the two + 5 min), not 5:30.
    /// After 0:00 and 6:00 (not within 5 min) the next may come at once.
    #[test]
    fn nypc_pacing_waits_five_minutes_after_the_first_of_the_last_two() {
        let min = 60_000;
        let p = Pacing::NYPC;
        assert_eq!(p.next_at(&[]), None);
        assert_eq!(p.next_at(&[0]), None, "one submission: the next at once");
        assert_eq!(p.next_at(&[30_000, 0]), Some(5 * min));
        // 0:00 then 6:00: allowed from 5:00, so at once after 6:00.
        assert_eq!(p.next_at(&[6 * min, 0]), Some(5 * min));
        // 0:00, 6:00, 6:10: the last two are 6:00 and 6:10 → 11:00.
        assert_eq!(p.next_at(&[6 * min + 10_000, 6 * min, 0]), Some(11 * min));
        let every_minute = Pacing { count: 1, window: Duration::from_secs(60) };
        assert_eq!(every_minute.next_at(&[7 * min, 0]), Some(8 * min));
    }

    fn temp(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("versus-contest-db-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_foreign_sqlite_file_is_refused_and_left_as_it_was() {
        let dir = temp("foreign");
        let path = dir.join("other.sqlite");
        let other = rusqlite::Connection::open(&path).unwrap();
        other.execute_batch("CREATE TABLE mine (x); INSERT INTO mine VALUES (1);").unwrap();
        drop(other);
        let error = Db::open(&path).unwrap_err().to_string();
        assert!(error.contains("not a versus store"), "{error}");
        let other = rusqlite::Connection::open(&path).unwrap();
        let tables: i64 =
            other.query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get(0)).unwrap();
        assert_eq!(tables, 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The store's promises, on SQLite and on PostgreSQL alike.
    #[test]
    fn the_store_behaves_the_same_on_both_backends() {
        let stores = crate::testing::stores("promises");
        for (mut db, at) in stores.each() {
            promises_on(&mut db, at);
        }
    }

    fn promises_on(db: &mut Db, at: &str) {
        // Names are unique whatever their case; sign-in finds them so.
        let (ann, token) = db.add_user("Ann", Some("correct horse"), true).unwrap();
        assert!(matches!(db.add_user("aNN", None, false), Err(ContestError::NameTaken(_))), "{at}");
        assert_eq!(db.user_by_name("ANN").unwrap().unwrap().id, ann.id);
        assert_eq!(db.token_user(&token).unwrap().unwrap().name, "Ann");
        assert!(db.token_user("nope").unwrap().is_none());
        let (user, session, csrf) =
            db.sign_in("ann", "correct horse", Duration::from_secs(60)).unwrap();
        assert!(user.admin);
        assert_eq!(db.session(&session).unwrap().unwrap().1, csrf);
        assert!(matches!(
            db.sign_in("ann", "wrong horse!", Duration::from_secs(60)),
            Err(ContestError::BadCredentials)
        ));
        db.sign_out(&session).unwrap();
        assert!(db.session(&session).unwrap().is_none());
        // Sizes in bytes (a multi-byte source), a data file, pacing.
        let source = "// é\n";
        let data: &[u8] = &[0, 1, 2, 255];
        let pacing = Pacing { count: 1, window: Duration::from_secs(3600) };
        let first =
            db.submit_with_data(ann.id, "domineering", "cpp", source, Some(data), pacing).unwrap();
        let stored = db.submission(first).unwrap().unwrap();
        assert_eq!((stored.bytes, stored.data_bytes), (source.len(), Some(4)), "{at}");
        assert_eq!(stored.source.as_deref(), Some(source));
        assert_eq!(db.submission_data(first).unwrap().unwrap(), data);
        assert!(matches!(
            db.submit(ann.id, "domineering", "cpp", source, pacing),
            Err(ContestError::RateLimited { .. })
        ));
        assert_eq!(db.submissions("domineering", Some(ann.id)).unwrap().len(), 1);
        assert_eq!(db.submissions("domineering", Some(UserId(999))).unwrap().len(), 0);
        assert_eq!(db.submission_owner(first).unwrap(), Some(ann.id));
        // Games: leased in order of kind, a lease that runs out goes to
        // another player, a result counts once.
        let new = |kind| NewMatch {
            game: "domineering".into(),
            kind,
            first: Player::Submission(first),
            second: Player::Builtin("greedy".into()),
            seed: u64::MAX,
            counted: true,
            requested_by: Some(ann.id),
        };
        let rated = db.queue_match(&new(MatchKind::Rated)).unwrap();
        let gate = db.queue_match(&new(MatchKind::Gate)).unwrap();
        let challenge = db.queue_match(&new(MatchKind::Challenge)).unwrap();
        assert!(db.last_challenge(ann.id).unwrap().is_some());
        let leased = db.lease_match_as("w1", Duration::ZERO).unwrap().unwrap();
        assert_eq!((leased.id, leased.seed), (gate, u64::MAX), "{at}: gates first");
        std::thread::sleep(Duration::from_millis(5));
        let again = db.lease_match_as("w2", Duration::from_secs(60)).unwrap().unwrap();
        assert_eq!(again.id, gate, "{at}: w1's lease ran out");
        assert!(!db.extend_lease(gate, "w1", LEASE).unwrap(), "no longer w1's");
        assert!(db.extend_lease(gate, "w2", LEASE).unwrap());
        let outcome = Outcome::from_scores(versus_core::BySide::new(2.0, 1.0));
        let end = [RecordLine::Footer { outcome }];
        assert!(db.finish_match(gate, &end).unwrap());
        assert!(!db.finish_match(gate, &end).unwrap(), "{at}: counted once");
        assert_eq!(db.lease_match().unwrap().unwrap().id, challenge);
        assert_eq!(db.lease_match_as("w3", LEASE).unwrap().unwrap().id, rated);
        assert!(db.lease_match().unwrap().is_none());
        // A restarting host takes back its own games, not a worker's.
        assert_eq!(db.requeue_running().unwrap(), 1, "{at}");
        assert_eq!(db.game_match(rated).unwrap().unwrap().status, MatchStatus::Running);
        assert_eq!(db.game_match(challenge).unwrap().unwrap().status, MatchStatus::Queued);
        let results = db.results("domineering").unwrap();
        assert_eq!(results.len(), 1);
        assert_eq!((results[0].result, results[0].faults), (GameResult::FirstWins, [false, false]));
        assert!(db.match_record(gate).unwrap().unwrap().contains("footer"), "{at}");
        assert_eq!(db.matches("domineering", Some(first), 2).unwrap().len(), 2);
        assert_eq!(db.reset_ratings("domineering").unwrap(), 1);
        assert!(db.results("domineering").unwrap().is_empty());
        let window = Window { start_at: Some(1), end_at: Some(i64::MAX), freeze_at: None };
        db.set_window(window).unwrap();
        assert_eq!(db.window().unwrap(), window);
        assert_eq!(db.play_settings().unwrap(), None);
        let time = TimeControl::new(2_000, 500).cpu();
        db.set_play_settings(TimeControl::CONTEST, None).unwrap();
        db.set_play_settings(time, Some(ClockMode::Cpu)).unwrap();
        assert_eq!(db.play_settings().unwrap(), Some((time, Some(ClockMode::Cpu))), "{at}");
    }

    #[test]
    fn a_game_that_cannot_start_waits_while_the_others_are_played() {
        let stores = crate::testing::stores("start-failure");
        for (mut db, at) in stores.each() {
            let (ann, _) = db.add_user("ann", None, false).unwrap();
            let first = db.submit(ann.id, "domineering", "cpp", "// a\n", Pacing::NONE).unwrap();
            let new = |seed| NewMatch {
                game: "domineering".into(),
                kind: MatchKind::Rated,
                first: Player::Submission(first),
                second: Player::Builtin("greedy".into()),
                seed,
                counted: true,
                requested_by: None,
            };
            let broken = db.queue_match(&new(1)).unwrap();
            let fine = db.queue_match(&new(2)).unwrap();
            assert_eq!(db.lease_match_as("w1", LEASE).unwrap().unwrap().id, broken);
            assert_eq!(db.requeue_failed_start(broken, "no g++ here").unwrap(), 1, "{at}");
            // The queue's order would give the broken game first: it waits.
            assert_eq!(db.lease_match_as("w2", LEASE).unwrap().unwrap().id, fine, "{at}");
            assert!(db.lease_match_as("w2", LEASE).unwrap().is_none(), "{at}");
            let waiting = db.game_match(broken).unwrap().unwrap();
            assert_eq!(waiting.status, MatchStatus::Queued);
            // Once its wait is over it is handed out again; a second
            // failure counts and waits longer.
            db.conn
                .execute(
                    "UPDATE contest_matches SET not_before = ?1 WHERE id = ?2",
                    args![now_ms() - 1, broken.0],
                )
                .unwrap();
            assert_eq!(db.lease_match_as("w3", LEASE).unwrap().unwrap().id, broken, "{at}");
            assert_eq!(db.requeue_failed_start(broken, "still none").unwrap(), 2, "{at}");
            let row = db
                .conn
                .query_one(
                    "SELECT start_error, not_before - ?1 FROM contest_matches WHERE id = ?2",
                    args![now_ms(), broken.0],
                )
                .unwrap();
            assert_eq!(row.get::<String>(0).unwrap(), "still none");
            let wait_ms = row.get::<i64>(1).unwrap();
            assert!((9_000..=10_000).contains(&wait_ms), "{at}: {wait_ms} ms");
            // A game no longer running (finished by another) is left alone.
            let outcome = Outcome::from_scores(versus_core::BySide::new(2.0, 1.0));
            assert!(db.finish_match(fine, &[RecordLine::Footer { outcome }]).unwrap());
            assert_eq!(db.requeue_failed_start(fine, "late").unwrap(), 0, "{at}");
            assert_eq!(db.game_match(fine).unwrap().unwrap().status, MatchStatus::Done);
            assert_eq!(db.requeue_failed_start(MatchId(999), "none").unwrap(), 0);
        }
        assert_eq!(start_backoff(1), Duration::from_secs(5));
        assert_eq!(start_backoff(2), Duration::from_secs(10));
        assert_eq!(start_backoff(30), Duration::from_secs(600));
    }

    #[test]
    fn entries_default_to_the_latest_eligible_unless_one_is_chosen() {
        let stores = crate::testing::stores("entries");
        for (mut db, _) in stores.each() {
            entries_on(&mut db);
        }
    }

    fn entries_on(db: &mut Db) {
        let (alice, _) = db.add_user("alice", None, false).unwrap();
        let ids: Vec<SubmissionId> = (0..5)
            .map(|k| {
                db.submit(alice.id, "domineering", "cpp", &format!("// {k}\n"), Pacing::NONE)
                    .unwrap()
            })
            .collect();
        let walk = |db: &mut Db, id, path: &[SubmissionState]| {
            let mut from = SubmissionState::Queued;
            for &next in [SubmissionState::Compiling, SubmissionState::Gate].iter().chain(path) {
                assert!(db.move_submission(id, from, next, None).unwrap());
                from = next;
            }
        };
        use SubmissionState::{Ineligible, Placement, Rated, Rejected};
        walk(db, ids[0], &[Placement, Rated]);
        walk(db, ids[1], &[Placement, Rated]);
        walk(db, ids[2], &[Placement]);
        walk(db, ids[3], &[Placement, Ineligible]);
        walk(db, ids[4], &[Rejected]);
        let entry =
            |db: &Db| db.entries("domineering").unwrap().iter().map(|s| s.id).collect::<Vec<_>>();
        assert_eq!(entry(db), [ids[1]], "the latest eligible: not one still at the sample AIs");
        db.choose_entry(alice.id, ids[0]).unwrap();
        assert_eq!(entry(db), [ids[0]]);
        db.set_hidden(ids[0], true).unwrap();
        assert_eq!(entry(db), [ids[1]], "a hidden choice falls back to the latest");
        assert!(db.choose_entry(alice.id, ids[3]).is_err(), "not eligible");
        assert!(db.choose_entry(alice.id, ids[4]).is_err(), "rejected");
        assert!(db.choose_entry(UserId(99), ids[1]).is_err());
    }
}
