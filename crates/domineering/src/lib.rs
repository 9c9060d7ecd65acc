//! Domineering as ALPHANO plays it: 8x8, each cell worth 0 to 3 points.
//!
//! The first player places horizontal dominoes, the second vertical ones; a
//! placement earns the values of its two cells, the second player starts
//! with 2.5 points, either may pass at any time, and the game ends after two
//! passes in a row or when neither can place. See GAMES.md section 2.
//!
//! - [`rules`]: the position on bitboards, legal placements, scores.
//! - [`protocol`]: every line of the conversation as a typed value.
//! - [`referee`]: the judge's logic (values, clocks, verdicts).
//! - [`agents`]: the built-in `random` and `greedy` players.

pub mod agents;
pub mod protocol;
pub mod referee;
pub mod rules;

use versus_core::{ConfigError, Game, GameConfig, ProtocolAgent, Referee};

use crate::agents::{BuiltinAgent, Policy};
use crate::referee::{game_values, DomineeringReferee};

/// The registry entry of Domineering.
#[derive(Clone, Copy, Debug, Default)]
pub struct DomineeringGame;

/// The one value of [`DomineeringGame`].
pub static GAME: DomineeringGame = DomineeringGame;

impl Game for DomineeringGame {
    fn name(&self) -> &'static str {
        "domineering"
    }

    fn title(&self) -> &'static str {
        "Domineering"
    }

    fn rules_version(&self) -> &'static str {
        "1"
    }

    fn referee(&self, config: &GameConfig) -> Result<Box<dyn Referee>, ConfigError> {
        let values = game_values(config).map_err(|e| ConfigError(e.to_string()))?;
        Ok(Box::new(DomineeringReferee::new(values, config)))
    }

    fn agent_names(&self) -> &'static [&'static str] {
        &["random", "greedy"]
    }

    fn agent(&self, name: &str, seed: u64) -> Option<Box<dyn ProtocolAgent>> {
        let policy = match name {
            "random" => Policy::Random,
            "greedy" => Policy::Greedy,
            _ => return None,
        };
        Some(Box::new(BuiltinAgent::new(policy, seed)))
    }
}
