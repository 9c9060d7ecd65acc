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
//! - [`agents`]: the built-in players: `random`, `greedy`, `ab4` (a
//!   fixed-depth reference), `strong`, and the reference levels `strong-v1`
//!   ([`strong_v1`], frozen) and `ref-ab` ([`ref_ab`], independent).
//! - [`search`]: the engine of `strong` (an exact end-game solver and
//!   iterative deepening) and the search of `ab4`.

pub mod agents;
pub mod protocol;
pub mod rebuild;
pub mod ref_ab;
pub mod referee;
pub mod rules;
pub mod search;
pub mod strong_v1;
#[cfg(test)]
mod test_support;

use versus_core::{ConfigError, Game, GameConfig, Param, ProtocolAgent, Referee};

use crate::agents::{BuiltinAgent, Policy};
use crate::referee::{game_values, DomineeringReferee};
use crate::search::{param, Features, STRONG_PARAMS};

/// The registry entry of Domineering.
#[derive(Clone, Copy, Debug, Default)]
pub struct DomineeringGame;

/// The one value of [`DomineeringGame`].
pub static GAME: DomineeringGame = DomineeringGame;

/// `ref-ab`'s one parameter: time odds for experiments, never in play.
const REF_AB_PARAMS: [Param; 1] = [param(
    "clock",
    100.0,
    1.0,
    100.0,
    "percent of its clock left that it plans with (time odds against it)",
)];

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
        &["random", "greedy", "ab4", "strong", "strong-v1", "ref-ab"]
    }

    fn agent(&self, name: &str, seed: u64) -> Option<Box<dyn ProtocolAgent>> {
        let agent = match name {
            "random" => BuiltinAgent::new(Policy::Random, seed),
            "greedy" => BuiltinAgent::new(Policy::Greedy, seed),
            "ab4" => BuiltinAgent::fixed_depth(4, seed),
            "strong" => BuiltinAgent::strong(Features::default(), seed),
            "strong-v1" => BuiltinAgent::strong_v1(seed),
            "ref-ab" => BuiltinAgent::ref_ab(seed),
            _ => return None,
        };
        Some(Box::new(agent))
    }

    fn params(&self, name: &str) -> &'static [Param] {
        match name {
            "strong" => &STRONG_PARAMS,
            "ref-ab" => &REF_AB_PARAMS,
            _ => &[],
        }
    }

    fn agent_with(&self, name: &str, seed: u64, values: &[f64]) -> Option<Box<dyn ProtocolAgent>> {
        match name {
            "strong" => Some(Box::new(BuiltinAgent::strong(Features::from_params(values), seed))),
            "ref-ab" => {
                let clock = values.first().copied().unwrap_or(REF_AB_PARAMS[0].default);
                Some(Box::new(BuiltinAgent::ref_ab_with_clock(clock as u64, seed)))
            }
            _ => self.agent(name, seed),
        }
    }
}
