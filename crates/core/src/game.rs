//! A game as the rest of the system sees it: a registry entry.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::agent::ProtocolAgent;
use crate::clock::TimeControl;
use crate::params::Param;
use crate::referee::Referee;

/// Everything that decides a game before the agents speak.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameConfig {
    /// The seed of all the judge's random choices.
    pub seed: u64,
    pub time: TimeControl,
    /// Explicit game input replacing the seeded draws, in the game's own text
    /// format (Connexion: the testing tool's two lines of 32 tiles;
    /// Domineering: 8 lines of 8 cell values).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
}

impl GameConfig {
    /// The contest clock with the given seed and no explicit input.
    #[must_use]
    pub fn seeded(seed: u64) -> Self {
        GameConfig { seed, time: TimeControl::CONTEST, input: None }
    }
}

/// A game input that could not be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid game input: {0}")]
pub struct ConfigError(pub String);

/// One game of the registry.
pub trait Game: Sync {
    /// The name used on the command line, e.g. `bacteria-war`.
    fn name(&self) -> &'static str;
    /// The name people use, e.g. `Bacteria War`.
    fn title(&self) -> &'static str;
    /// Changes whenever the same config could give a different game.
    fn rules_version(&self) -> &'static str;
    /// A referee for one game.
    fn referee(&self, config: &GameConfig) -> Result<Box<dyn Referee>, ConfigError>;
    /// The names of the built-in agents.
    fn agent_names(&self) -> &'static [&'static str];
    /// A built-in agent; `seed` drives its own randomness, if it has any.
    fn agent(&self, name: &str, seed: u64) -> Option<Box<dyn ProtocolAgent>>;
    /// The tunable parameters of built-in agent `name` (none by default).
    fn params(&self, _name: &str) -> &'static [Param] {
        &[]
    }
    /// A built-in agent with its parameters set: `values` holds one value
    /// per [`Game::params`], in that order, each in its range (whole where
    /// the parameter is an integer). [`crate::params::builtin_agent`] checks them.
    fn agent_with(&self, name: &str, seed: u64, _values: &[f64]) -> Option<Box<dyn ProtocolAgent>> {
        self.agent(name, seed)
    }
}
