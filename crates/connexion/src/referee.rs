//! The Connexion referee.
//!
//! The conversation: `READY FIRST` and `READY SECOND` at once; `INIT` to
//! both; then for each of the 64 turns `TIME` to the mover, whose `PUT` is
//! checked, then `GET` to the mover and `OPP` to the other; `FINISH` to both.
//! A reply is checked in this order: the clock (TLE), the shape of the line
//! (`PUT PARSE FAILED`, `CELL PARSE FAILED`, `TILE PARSE FAILED`), the tile
//! (`NO TILE`: not in the mover's hand), the cell (`NOT EMPTY`).
//!
//! # Randomness
//!
//! The bags' draw orders come from [`GameRng`] streams of the seed: stream
//! [`FIRST_BAG_STREAM`] shuffles the first player's bag, stream
//! [`SECOND_BAG_STREAM`] the second's, each starting from [`Bag::full`]'s
//! order (`R1 … Y4 R1 … Y4`). An explicit input (the public testing tool's
//! file: the first and the second player's draw order, 32 tiles a line)
//! replaces both.

use std::collections::VecDeque;

use versus_core::{
    ready_reply, timed_reply, Action, BySide, Clock, ConfigError, Fault, GameConfig, GameRng,
    Outcome, Referee, Reply, Request, Rounding, Side,
};

use crate::protocol::{parse_put, JudgeLine};
use crate::rules::{Bag, IllegalMove, State, Tile, BAG_SIZE, COPIES, HAND_SIZE};

/// The stream of the seed that orders the first player's bag.
pub const FIRST_BAG_STREAM: u64 = 0;
/// The stream of the seed that orders the second player's bag.
pub const SECOND_BAG_STREAM: u64 = 1;

/// The RE reason for a tile the mover does not hold.
pub const NO_TILE: &str = "NO TILE";
/// The RE reason for a cell that already holds a tile.
pub const NOT_EMPTY: &str = "NOT EMPTY";

/// The bags' draw orders for `config`: its input if it has one, else
/// shuffled from its seed.
pub fn draw_orders(config: &GameConfig) -> Result<BySide<[Tile; BAG_SIZE]>, ConfigError> {
    match &config.input {
        Some(input) => parse_input(input),
        None => Ok(BySide::from_fn(|side| {
            let stream = match side {
                Side::First => FIRST_BAG_STREAM,
                Side::Second => SECOND_BAG_STREAM,
            };
            let mut order = [Tile::ALL[0]; BAG_SIZE];
            order.copy_from_slice(Bag::full().remaining());
            GameRng::stream(config.seed, stream).shuffle(&mut order);
            order
        })),
    }
}

/// Reads the testing tool's input: two non-blank lines of 32 tiles, each
/// with exactly two of every kind (blank lines are ignored).
pub fn parse_input(input: &str) -> Result<BySide<[Tile; BAG_SIZE]>, ConfigError> {
    let lines: Vec<&str> = input.lines().filter(|l| !l.trim().is_empty()).collect();
    let [first, second] = lines[..] else {
        return Err(ConfigError(format!("expected 2 lines of tiles, found {}", lines.len())));
    };
    let bag = |side: Side, line: &str| -> Result<[Tile; BAG_SIZE], ConfigError> {
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        if words.len() != BAG_SIZE {
            return Err(ConfigError(format!(
                "the {side} player's line has {} tiles, expected {BAG_SIZE}",
                words.len()
            )));
        }
        let mut order = [Tile::ALL[0]; BAG_SIZE];
        for (slot, word) in order.iter_mut().zip(&words) {
            *slot = word.parse().map_err(|_| {
                ConfigError(format!("the {side} player's line: {word:?} is not a tile"))
            })?;
        }
        let counts = Bag::from_order(order).counts();
        if let Some(kind) = (0..16).find(|&k| counts[k] != COPIES) {
            return Err(ConfigError(format!(
                "the {side} player's line has {} {}, expected {COPIES}",
                counts[kind],
                Tile::ALL[kind]
            )));
        }
        Ok(order)
    };
    Ok(BySide::new(bag(Side::First, first)?, bag(Side::Second, second)?))
}

#[derive(Debug)]
enum Phase {
    /// READY not yet sent.
    Start,
    /// READY sent; the answers so far.
    Ready {
        answered: BySide<bool>,
        faults: BySide<Option<Fault>>,
    },
    /// INIT not yet sent.
    Init,
    /// Between turns.
    Play,
    /// TIME sent to this side.
    Asked(Side),
    /// FINISH not yet sent.
    Finish(Outcome),
    Over(Outcome),
}

/// A referee for one game of Connexion.
#[derive(Debug)]
pub struct ConnexionReferee {
    state: State,
    clocks: BySide<Clock>,
    ready_limit: std::time::Duration,
    phase: Phase,
    /// Lines to tell before anything else.
    pending: VecDeque<(Side, String)>,
}

impl ConnexionReferee {
    pub fn new(config: &GameConfig) -> Result<Self, ConfigError> {
        let orders = draw_orders(config)?;
        Ok(ConnexionReferee {
            state: State::new(orders),
            clocks: BySide::from_fn(|_| Clock::new(config.time.game_ms, Rounding::Down)),
            ready_limit: config.time.ready_limit(),
            phase: Phase::Start,
            pending: VecDeque::new(),
        })
    }

    /// The game as it stands.
    #[must_use]
    pub fn state(&self) -> &State {
        &self.state
    }

    fn scores(&self) -> BySide<f64> {
        self.state.scores().map(f64::from)
    }

    fn end(&mut self, outcome: Outcome) {
        self.phase = Phase::Finish(outcome);
    }

    fn init_line(&self, side: Side) -> String {
        let hand = |s: Side| -> [Tile; HAND_SIZE] {
            let tiles = self.state.hand(s).tiles();
            std::array::from_fn(|i| tiles[i])
        };
        JudgeLine::Init { own: hand(side), opponent: hand(side.opponent()) }.to_string()
    }

    fn turn(&mut self, side: Side, reply: Reply) {
        let (line, ms) = match timed_reply(&mut self.clocks[side], reply) {
            Ok(answer) => answer,
            Err(fault) => return self.end(Outcome::forfeit(side, fault, self.scores())),
        };
        let played = parse_put(&line).map_err(|error| error.to_string()).and_then(|mv| {
            self.state.play(mv).map(|drawn| (mv, drawn)).map_err(|e| {
                match e {
                    IllegalMove::NoTile(_) => NO_TILE,
                    IllegalMove::NotEmpty(_) => NOT_EMPTY,
                    IllegalMove::GameOver => unreachable!("asked only while the game is on"),
                }
                .to_owned()
            })
        });
        match played {
            Ok((put, drawn)) => {
                self.pending.push_back((side, JudgeLine::Get(drawn).to_string()));
                let opp = JudgeLine::Opp { put, drawn, ms };
                self.pending.push_back((side.opponent(), opp.to_string()));
                self.phase = Phase::Play;
            }
            Err(reason) => {
                let fault = Fault::runtime(reason, line);
                self.end(Outcome::forfeit(side, fault, self.scores()));
            }
        }
    }
}

impl Referee for ConnexionReferee {
    fn next(&mut self) -> Action {
        if !self.pending.is_empty() {
            return Action::Tell(self.pending.drain(..).collect());
        }
        match &self.phase {
            Phase::Start => {
                self.phase =
                    Phase::Ready { answered: BySide::default(), faults: BySide::default() };
                Action::Ask(
                    Side::BOTH
                        .map(|side| Request {
                            side,
                            line: JudgeLine::Ready(side).to_string(),
                            limit: self.ready_limit,
                        })
                        .to_vec(),
                )
            }
            Phase::Ready { .. } | Phase::Asked(_) => {
                panic!("next() called before every asked side was answered")
            }
            Phase::Init => {
                self.phase = Phase::Play;
                Action::Tell(Side::BOTH.map(|side| (side, self.init_line(side))).to_vec())
            }
            Phase::Play => match self.state.side_to_move() {
                Some(side) => {
                    self.phase = Phase::Asked(side);
                    let clocks = &self.clocks;
                    let line = JudgeLine::Time {
                        mine: clocks[side].remaining_ms(),
                        opponent: clocks[side.opponent()].remaining_ms(),
                    };
                    Action::Ask(vec![Request {
                        side,
                        line: line.to_string(),
                        limit: clocks[side].limit(),
                    }])
                }
                None => {
                    self.end(Outcome::from_scores(self.scores()));
                    self.next()
                }
            },
            Phase::Finish(outcome) => {
                self.phase = Phase::Over(outcome.clone());
                let finish = JudgeLine::Finish.to_string();
                Action::Tell(Side::BOTH.map(|side| (side, finish.clone())).to_vec())
            }
            Phase::Over(outcome) => Action::Over(outcome.clone()),
        }
    }

    fn view(&self) -> serde_json::Value {
        use crate::rules::Cell;
        let board = self.state.board();
        let cells: Vec<serde_json::Value> = Cell::all()
            .map(|cell| {
                serde_json::json!({
                    "name": cell.to_string(),
                    "tile": board.get(cell).map(|tile| tile.to_string()),
                })
            })
            .collect();
        let hands = BySide::from_fn(|side| {
            self.state.hand(side).tiles().iter().map(ToString::to_string).collect::<Vec<_>>()
        });
        serde_json::json!({
            "cells": cells,
            "hands": hands,
            "bags": BySide::from_fn(|side| self.state.bag(side).len()),
            "turn": self.state.turn(),
            "to_move": self.state.side_to_move(),
            "scores": self.state.scores(),
            "clocks": self.clocks.as_ref().map(|c| c.remaining_ms()),
        })
    }

    fn answer(&mut self, side: Side, reply: Reply) {
        match &mut self.phase {
            Phase::Ready { answered, faults } => {
                assert!(!answered[side], "{side} answered READY twice");
                answered[side] = true;
                faults[side] = ready_reply(reply, self.ready_limit).err();
                if answered.first && answered.second {
                    let faults = std::mem::take(faults);
                    if faults.first.is_none() && faults.second.is_none() {
                        self.phase = Phase::Init;
                    } else {
                        let outcome = Outcome::from_faults(faults, self.scores());
                        self.end(outcome);
                    }
                }
            }
            Phase::Asked(asked) if *asked == side => self.turn(side, reply),
            _ => panic!("{side} answered without being asked"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input_with(first: &str) -> String {
        let full: Vec<String> = Bag::full().remaining().iter().map(Tile::to_string).collect();
        format!("{first}\n{}\n", full.join(" "))
    }

    #[test]
    fn input_is_validated() {
        let full =
            Bag::full().remaining().iter().map(Tile::to_string).collect::<Vec<_>>().join(" ");
        assert!(parse_input(&input_with(&full)).is_ok());
        let error = |input: &str| parse_input(input).unwrap_err().to_string();
        assert!(error(&full).contains("found 1"));
        let short = full.replacen("R1 ", "", 1);
        assert!(error(&input_with(&short)).contains("31 tiles"));
        let bad = full.replacen("R1", "Q1", 1);
        assert!(error(&input_with(&bad)).contains("\"Q1\" is not a tile"));
        let triple = full.replacen("R2", "R1", 1);
        assert!(error(&input_with(&triple)).contains("has 3 R1"));
    }

    #[test]
    fn seeded_bags_are_shuffled_full_bags() {
        let orders = draw_orders(&GameConfig::seeded(5)).unwrap();
        assert_ne!(orders.first, orders.second);
        for order in [orders.first, orders.second] {
            assert_eq!(Bag::from_order(order).counts(), [COPIES; 16]);
        }
        assert_eq!(orders, draw_orders(&GameConfig::seeded(5)).unwrap());
        assert_ne!(orders, draw_orders(&GameConfig::seeded(6)).unwrap());
    }
}
