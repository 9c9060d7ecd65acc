//! Shared types of the versus arena.
//!
//! A game crate implements [`Referee`] (what to say to whom, what the replies
//! mean), [`ProtocolAgent`]s (its built-in players) and [`Game`] (its registry
//! entry). The judge implements [`Endpoint`] for child processes and drives a
//! referee with [`play`]; everything downstream reads [`RecordLine`]s.

pub mod agent;
pub mod clock;
pub mod conformance;
pub mod game;
pub mod params;
pub mod play;
pub mod rebuild;
pub mod record;
pub mod referee;
pub mod rng;
pub mod side;
pub mod transcript;

pub use agent::{run_stdio, AgentError, ProtocolAgent};
pub use clock::{Clock, ClockMode, Rounding, TimeControl};
pub use game::{ConfigError, Game, GameConfig};
pub use params::{builtin_agent, Param, ParamError};
pub use play::{play, Endpoint, LocalEndpoint};
pub use rebuild::{Moments, RebuildError};
pub use record::{replay, replay_steps, Header, RecordLine, ReplayError};
pub use referee::{
    ready_reply, timed_reply, Action, Fault, GameResult, Outcome, Referee, Reply, Request,
    INVALID_READY,
};
pub use rng::GameRng;
pub use side::{BySide, Side};
