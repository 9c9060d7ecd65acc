//! The open contest: participants, their submissions, the games that place
//! and rate them, and the leaderboard — plain Rust over a SQLite file, with
//! no HTTP (the web crate adds routes and pages on top).
//!
//! A submission's life: `queued` → `compiling` → `ce` (the compiler's output
//! kept for its owner), or `gate` (one game against `builtin:random`; a bot
//! that crashes, times out or answers wrongly there is `rejected`, with the
//! verdict) → `placement` (a colour-swapped pair on one seed against each
//! built-in level) → `rated` (games against entries of nearby rating, the
//! entries with the fewest games first). Every game is a row of
//! `contest_matches`, queued, played by the [`runner`] and written once.
//!
//! Ratings are NYPC's own Bradley–Terry computation (the `nypc-perf`
//! crate) with the built-in levels as fixed anchors (see [`rating`]).

pub mod auth;
pub mod db;
pub mod evaluation;
pub mod levels;
pub mod policy;
pub mod rating;
pub mod runner;
pub mod tournament;

#[cfg(test)]
mod testing;

use std::time::{SystemTime, UNIX_EPOCH};

use thiserror::Error;

pub use crate::db::{
    Db, Match, MatchId, MatchKind, MatchStatus, Pacing, Submission, SubmissionId, SubmissionState,
    User, UserId, Window,
};
pub use crate::rating::{leaderboard, Row};

/// What went wrong, as the participant or the operator is to read it.
#[derive(Debug, Error)]
pub enum ContestError {
    /// The request itself is wrong: a 400 (or 413/415) for the web.
    #[error("{0}")]
    Invalid(String),
    /// The name is taken.
    #[error("the name {0:?} is taken")]
    NameTaken(String),
    /// Name or password wrong (which one is not said).
    #[error("wrong name or password")]
    BadCredentials,
    /// Not yet: a limit on how often a participant may do this.
    #[error("{what}: wait {wait_s} s")]
    RateLimited { what: String, wait_s: u64 },
    /// Not allowed now (the contest window) or not for this participant.
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("the contest store: {0}")]
    Store(#[from] versus_sql::SqlError),
    #[error("the contest store at {path}: {message}")]
    Open { path: String, message: String },
    #[error("a stored value is damaged: {0}")]
    Corrupt(String),
}

/// Unix time in ms.
#[must_use]
pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}
