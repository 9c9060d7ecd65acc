//! Leagues and sequential tests between agents, kept in a SQLite store that
//! survives being killed at any moment.

pub mod report;
pub mod runner;
pub mod stats;
pub mod store;
pub mod tune;
