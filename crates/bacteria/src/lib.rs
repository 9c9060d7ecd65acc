//! Bacteria War (ALPHANO problem 1): 7x7 Ataxx without blockers, for the versus arena.
//!
//! - [`rules`]: the game on bitboards, with [`perft`].
//! - [`protocol`]: every line of the conversation as a typed value.
//! - [`referee`]: the judge's side of one game (clocks rounded up, as ALPHANO does).
//! - [`agents`]: the built-in `random` and `greedy` players.
//! - [`search`]: the game-tree search (principal variation search with a
//!   transposition table, reductions and pruning; a fixed-depth reference).
//! - [`strong`]: the searching agents `strong` and `ab4` and their time management.
//!
//! A game config's `input`, when given, is the start position in the format of
//! [`State`]'s `Display` (`O.....X/......./.../X.....O O`, optionally followed
//! by the turns already played). The built-in agents always assume the
//! standard start. `ab4` is the reference level (alpha-beta to 4 plies,
//! material only); `strong` is the contest-level searcher; `strong-v1` is
//! `strong` as it was when issue 16 opened, frozen in [`v1`] as the level
//! every later gain is measured against.

pub mod agents;
pub mod data;
pub mod nnue;
pub mod protocol;
pub mod rebuild;
pub mod referee;
pub mod rules;
pub mod search;
pub mod strong;
pub mod v1;

pub use rules::{perft, perft_divide, Move, Square, State};

use versus_core::{ConfigError, Game, GameConfig, Param, ProtocolAgent, Referee};

use crate::agents::{BuiltinAgent, Policy};
use crate::referee::BacteriaReferee;
use crate::search::Config;
use crate::strong::{Level, TimeRules};

/// Bacteria War in the game registry.
#[derive(Clone, Copy, Debug, Default)]
pub struct BacteriaGame;

/// The registry entry.
pub static GAME: BacteriaGame = BacteriaGame;

impl Game for BacteriaGame {
    fn name(&self) -> &'static str {
        "bacteria-war"
    }

    fn title(&self) -> &'static str {
        "Bacteria War"
    }

    fn rules_version(&self) -> &'static str {
        "1"
    }

    fn referee(&self, config: &GameConfig) -> Result<Box<dyn Referee>, ConfigError> {
        let start = match &config.input {
            None => State::start(),
            Some(text) => {
                text.trim().parse().map_err(|e| ConfigError(format!("start position: {e}")))?
            }
        };
        Ok(Box::new(BacteriaReferee::new(start, config.time)))
    }

    fn agent_names(&self) -> &'static [&'static str] {
        &["random", "greedy", "ab4", "strong", "strong-v1"]
    }

    fn agent(&self, name: &str, seed: u64) -> Option<Box<dyn ProtocolAgent>> {
        let policy = match name {
            "random" => Policy::Random,
            "greedy" => Policy::Greedy,
            "ab4" => Policy::Search(Level::FixedDepth(4)),
            "strong" => Policy::Search(Level::Strong(Config::STRONG, TimeRules::STRONG)),
            "strong-v1" => Policy::StrongV1,
            _ => return None,
        };
        Some(Box::new(BuiltinAgent::new(policy, seed)))
    }

    fn params(&self, name: &str) -> &'static [Param] {
        match name {
            "strong" => &strong::STRONG_PARAMS,
            _ => &[],
        }
    }

    fn agent_with(&self, name: &str, seed: u64, values: &[f64]) -> Option<Box<dyn ProtocolAgent>> {
        match name {
            "strong" => Some(Box::new(BuiltinAgent::new(
                Policy::Search(strong::strong_level(values)),
                seed,
            ))),
            _ => self.agent(name, seed),
        }
    }
}
