//! Betris (ALPHANO) for the versus arena.
//!
//! Each player fills its own square board with polyominoes won in a
//! simultaneous auction of chips; the score is the filled cells, plus the
//! area of the largest filled square, plus half a point per chip left.
//! Board size, chips, rounds, the bet limit and the block set are
//! [`rules::Params`]; [`GAME`] is Betris (Large), `betris-large`: 7x7, 24
//! chips, 12 rounds, bets up to 5, all 21 blocks. Other variants are other
//! [`BetrisGame`] values, without code changes.
//!
//! - [`rules`]: blocks and their 91 orientations, bitboards, the auction, the score.
//! - [`protocol`]: every line of the conversation as a typed value.
//! - [`referee`]: the judge (its random draws are documented there).
//! - [`rebuild`]: a game read back from its record without the referee.
//! - [`agents`]: the built-in `random`, `greedy` and `fair` players.
//! - [`strong`]: the `strong` player.
//! - [`strong_v1`]: `strong-v1`, the `strong` player before issue 20, frozen as a reference.
//!
//! An explicit game input (`GameConfig::input`) lists the offers: one line
//! per round with two different block names of the set, e.g. `L3 X5`.

pub mod agents;
pub mod protocol;
pub mod rebuild;
pub mod referee;
pub mod rules;
pub mod strong;
pub mod strong_v1;

use versus_core::{ConfigError, Game, GameConfig, Param, ProtocolAgent, Referee};

use crate::referee::BetrisReferee;
use crate::rules::{Offer, Params};

/// One variant of Betris as a registry entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BetrisGame {
    name: &'static str,
    title: &'static str,
    params: Params,
}

impl BetrisGame {
    /// A variant named `name` (command line) and `title` (people), played
    /// with `params`, which must be valid.
    #[must_use]
    pub const fn new(name: &'static str, title: &'static str, params: Params) -> Self {
        BetrisGame { name, title, params }
    }

    #[must_use]
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Reads the explicit offers of `input`: one line per round, `A B`.
    pub fn parse_offers(&self, input: &str) -> Result<Vec<Offer>, ConfigError> {
        let lines: Vec<&str> = input.lines().filter(|l| !l.trim().is_empty()).collect();
        if lines.len() != self.params.rounds as usize {
            return Err(ConfigError(format!(
                "expected {} lines of two blocks (one per round), found {}",
                self.params.rounds,
                lines.len()
            )));
        }
        lines
            .iter()
            .enumerate()
            .map(|(index, line)| {
                let error = |what: String| ConfigError(format!("line {}: {what}", index + 1));
                let words: Vec<&str> = line.split_ascii_whitespace().collect();
                let [a, b] = words[..] else {
                    return Err(error(format!("expected two block names, found {line:?}")));
                };
                let offer = Offer {
                    a: a.parse().map_err(|e| error(format!("{e}")))?,
                    b: b.parse().map_err(|e| error(format!("{e}")))?,
                };
                for block in [offer.a, offer.b] {
                    if !self.params.blocks.contains(block) {
                        return Err(error(format!("block {block} is not in this game's set")));
                    }
                }
                if offer.a == offer.b {
                    return Err(error(format!("the two blocks are both {}", offer.a)));
                }
                Ok(offer)
            })
            .collect()
    }
}

/// Betris (Large).
pub static GAME: BetrisGame = BetrisGame::new("betris-large", "Betris (Large)", Params::LARGE);

impl Game for BetrisGame {
    fn name(&self) -> &'static str {
        self.name
    }

    fn title(&self) -> &'static str {
        self.title
    }

    fn rules_version(&self) -> &'static str {
        "1"
    }

    fn referee(&self, config: &GameConfig) -> Result<Box<dyn Referee>, ConfigError> {
        self.params.validate().map_err(|e| ConfigError(e.to_string()))?;
        let referee = match &config.input {
            Some(input) => BetrisReferee::with_listed_offers(
                self.params,
                config.seed,
                config.time,
                self.parse_offers(input)?,
            ),
            None => BetrisReferee::new(self.params, config.seed, config.time),
        };
        Ok(Box::new(referee))
    }

    fn agent_names(&self) -> &'static [&'static str] {
        &["random", "greedy", "fair", "strong", "strong-v1"]
    }

    fn agent(&self, name: &str, seed: u64) -> Option<Box<dyn ProtocolAgent>> {
        match name {
            "random" => Some(agents::random(self.params, seed)),
            "greedy" => Some(agents::greedy(self.params, seed)),
            "fair" => Some(agents::fair(self.params, seed)),
            "strong" => Some(strong::strong(self.params, seed)),
            "strong-v1" => Some(strong_v1::strong_v1(self.params, seed)),
            _ => None,
        }
    }

    fn params(&self, name: &str) -> &'static [Param] {
        match name {
            "strong" => &strong::STRONG_PARAMS,
            _ => &[],
        }
    }

    fn agent_with(&self, name: &str, seed: u64, values: &[f64]) -> Option<Box<dyn ProtocolAgent>> {
        match name {
            "strong" => Some(strong::with_features(
                self.params,
                seed,
                strong::Features::from_params(values),
            )),
            _ => self.agent(name, seed),
        }
    }
}
