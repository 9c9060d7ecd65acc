//! Connexion, the game of the NYPC Code Battle final round: two players
//! place coloured, patterned tiles on 64 triangular cells; the first scores
//! groups of equal pattern, the second groups of equal colour, each group
//! worth its size squared.
//!
//! - [`rules`]: cells, tiles, the board with incremental and from-scratch
//!   scoring, hands, bags, the game state.
//! - [`protocol`]: every line of the conversation, typed.
//! - [`referee`]: the judge's logic (clocks round down, as the public testing
//!   tool does; RE reasons are the tool's words).
//! - [`agents`]: the built-in `random` and `greedy` players.
//! - [`log`]: a game record written as the public testing tool's log.

pub mod agents;
pub mod log;
pub mod position;
pub mod protocol;
pub mod rebuild;
pub mod referee;
pub mod reference;
pub mod rules;
pub mod strong;
pub mod tree;

use versus_core::{ConfigError, Game, GameConfig, ProtocolAgent, Referee};

/// The registry entry of Connexion.
#[derive(Debug, Clone, Copy, Default)]
pub struct ConnexionGame;

/// The game, for the registry.
pub static GAME: ConnexionGame = ConnexionGame;

impl Game for ConnexionGame {
    fn name(&self) -> &'static str {
        "connexion"
    }

    fn title(&self) -> &'static str {
        "Connexion"
    }

    fn rules_version(&self) -> &'static str {
        "1"
    }

    fn referee(&self, config: &GameConfig) -> Result<Box<dyn Referee>, ConfigError> {
        Ok(Box::new(referee::ConnexionReferee::new(config)?))
    }

    fn agent_names(&self) -> &'static [&'static str] {
        &["random", "greedy", "margin", "minimax3", "strong"]
    }

    fn agent(&self, name: &str, seed: u64) -> Option<Box<dyn ProtocolAgent>> {
        match name {
            "random" => Some(Box::new(agents::random(seed))),
            "greedy" => Some(Box::new(agents::greedy())),
            "margin" => Some(Box::new(agents::Agent::new(reference::MarginPolicy))),
            "minimax3" => Some(Box::new(agents::Agent::new(reference::Minimax3Policy))),
            "strong" => Some(Box::new(agents::Agent::new(strong::StrongPolicy::new(
                strong::Params::default(),
            )))),
            _ => None,
        }
    }
}
