//! The judge's side of a game, as GAMES.md section 2 has it.
//!
//! The conversation: the 8 value lines to the first player, then to the
//! second; `READY FIRST` and `READY SECOND` at once; then `TURN` to the side
//! to move (also when it has no placement left: it must pass), and after each
//! legal reply `OPP` with the charged ms to the other side; `FINISH` to both
//! at the end. The only randomness is the cell values: when no explicit input
//! is given they are [`Values::random`] on stream [`VALUES_STREAM`] of the seed.

use std::mem;
use std::time::Duration;

use thiserror::Error;
use versus_core::{
    ready_reply, timed_reply, Action, BySide, Clock, Fault, GameConfig, GameRng, Outcome, Referee,
    Reply, Request, Rounding, Side,
};

use crate::protocol::{parse_values, AgentLine, JudgeLine, ProtocolError};
use crate::rules::{State, Values, SIZE};

/// The `GameRng` stream of the seed the cell values are drawn from.
pub const VALUES_STREAM: u64 = 0;

/// An explicit game input that is not 8 lines of 8 values in `0..=3`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InputError {
    #[error("line {line}: {error}")]
    Line { line: usize, error: ProtocolError },
    #[error("line {0}: missing (8 lines of values are needed)")]
    Missing(usize),
    #[error("line {0}: more than 8 lines of values")]
    Extra(usize),
}

/// Reads an explicit input: exactly 8 lines of 8 integers in `0..=3`, row 1
/// first (a final newline is optional; a blank line is a line).
pub fn parse_input(text: &str) -> Result<Values, InputError> {
    let mut lines = text.lines();
    let mut rows = [[0; 8]; 8];
    for (index, row) in rows.iter_mut().enumerate() {
        let line = lines.next().ok_or(InputError::Missing(index + 1))?;
        *row = parse_values(line).map_err(|error| InputError::Line { line: index + 1, error })?;
    }
    if lines.next().is_some() {
        return Err(InputError::Extra(usize::from(SIZE) + 1));
    }
    Ok(Values::from_rows(rows).expect("each value was checked"))
}

/// The values of a game: the explicit input if there is one, else the seeded draw.
pub fn game_values(config: &GameConfig) -> Result<Values, InputError> {
    match &config.input {
        Some(text) => parse_input(text),
        None => Ok(Values::random(&mut GameRng::stream(config.seed, VALUES_STREAM))),
    }
}

#[derive(Clone, Debug)]
enum Phase {
    /// The value lines are still to be sent.
    Start,
    /// READY goes out next.
    Ready,
    /// READY was asked; the replies so far.
    AwaitReady {
        answered: BySide<bool>,
        faults: BySide<Option<Fault>>,
    },
    /// The side to move is asked next, unless the game is over.
    Play,
    /// TURN was asked of this side.
    AwaitMove(Side),
    Over(Outcome),
}

/// The referee of one game.
#[derive(Clone, Debug)]
pub struct DomineeringReferee {
    state: State,
    clocks: BySide<Clock>,
    ready_limit: Duration,
    phase: Phase,
    /// Lines to write before anything else happens.
    pending: Vec<(Side, String)>,
}

impl DomineeringReferee {
    /// A referee for the given values and the clocks of `config.time`.
    #[must_use]
    pub fn new(values: Values, config: &GameConfig) -> Self {
        DomineeringReferee {
            state: State::new(values),
            clocks: BySide::from_fn(|_| Clock::new(config.time.game_ms, Rounding::Up)),
            ready_limit: config.time.ready_limit(),
            phase: Phase::Start,
            pending: Vec::new(),
        }
    }

    /// The position so far.
    #[must_use]
    pub fn state(&self) -> &State {
        &self.state
    }

    fn finish(&mut self, outcome: Outcome) {
        for side in Side::BOTH {
            self.pending.push((side, JudgeLine::Finish.to_string()));
        }
        self.phase = Phase::Over(outcome);
    }

    fn forfeit(&mut self, side: Side, fault: Fault) {
        self.finish(Outcome::forfeit(side, fault, self.state.scores()));
    }

    fn turn_request(&self, side: Side) -> Request {
        let line = JudgeLine::Turn {
            my_time: self.clocks[side].remaining_ms(),
            opp_time: self.clocks[side.opponent()].remaining_ms(),
        };
        Request { side, line: line.to_string(), limit: self.clocks[side].limit() }
    }

    fn ready_requests(&self) -> Vec<Request> {
        Side::BOTH
            .map(|side| Request {
                side,
                line: JudgeLine::Ready(side).to_string(),
                limit: self.ready_limit,
            })
            .to_vec()
    }

    fn answer_move(&mut self, side: Side, reply: Reply) {
        let (text, charged) = match timed_reply(&mut self.clocks[side], reply) {
            Ok(answer) => answer,
            Err(fault) => return self.forfeit(side, fault),
        };
        let mv = match text.parse::<AgentLine>() {
            Ok(AgentLine::Move(mv)) => mv,
            Ok(AgentLine::Ok) => {
                return self.forfeit(side, Fault::runtime("expected MOVE x y, found OK", text))
            }
            Err(error) => return self.forfeit(side, Fault::runtime(error.to_string(), text)),
        };
        if let Err(error) = self.state.play(mv) {
            return self.forfeit(side, Fault::runtime(error.to_string(), text));
        }
        let opp = JudgeLine::Opp { mv, time: charged };
        self.pending.push((side.opponent(), opp.to_string()));
        self.phase = Phase::Play;
    }
}

impl Referee for DomineeringReferee {
    fn next(&mut self) -> Action {
        if !self.pending.is_empty() {
            return Action::Tell(mem::take(&mut self.pending));
        }
        match &self.phase {
            Phase::Start => {
                let values = *self.state.values();
                for side in Side::BOTH {
                    for x in 1..=SIZE {
                        let line = JudgeLine::Values(values.row(x));
                        self.pending.push((side, line.to_string()));
                    }
                }
                self.phase = Phase::Ready;
                Action::Tell(mem::take(&mut self.pending))
            }
            Phase::Ready => {
                self.phase =
                    Phase::AwaitReady { answered: BySide::default(), faults: BySide::default() };
                Action::Ask(self.ready_requests())
            }
            // `next` before every asked side was answered: ask again rather
            // than invent a reply.
            Phase::AwaitReady { .. } => Action::Ask(self.ready_requests()),
            Phase::AwaitMove(side) => Action::Ask(vec![self.turn_request(*side)]),
            Phase::Play => {
                if let Some(outcome) = self.state.outcome() {
                    self.finish(outcome);
                    return Action::Tell(mem::take(&mut self.pending));
                }
                let side = self.state.side_to_move();
                self.phase = Phase::AwaitMove(side);
                Action::Ask(vec![self.turn_request(side)])
            }
            Phase::Over(outcome) => Action::Over(outcome.clone()),
        }
    }

    fn view(&self) -> serde_json::Value {
        use crate::rules::Cell;
        let owner = |x: u8, y: u8| {
            let bit = Cell::from_xy(x, y).map_or(0, Cell::bit);
            if self.state.covered(Side::First) & bit != 0 {
                'h'
            } else if self.state.covered(Side::Second) & bit != 0 {
                'v'
            } else {
                '.'
            }
        };
        let cells: Vec<String> =
            (1..=SIZE).map(|x| (1..=SIZE).map(|y| owner(x, y)).collect()).collect();
        let values: Vec<[u8; 8]> = (1..=SIZE).map(|x| self.state.values().row(x)).collect();
        // A run of a side's cells along its direction is a row of whole
        // dominoes, so pairing it from its start finds them.
        let mut dominoes = Vec::new();
        for (side, mark) in [(Side::First, 'h'), (Side::Second, 'v')] {
            for line in 1..=SIZE {
                let mut along = 1;
                while along < SIZE {
                    let (x, y, x2, y2) = match side {
                        Side::First => (line, along, line, along + 1),
                        Side::Second => (along, line, along + 1, line),
                    };
                    if owner(x, y) == mark && owner(x2, y2) == mark {
                        dominoes.push(serde_json::json!({ "x": x, "y": y, "side": side }));
                        along += 2;
                    } else {
                        along += 1;
                    }
                }
            }
        }
        serde_json::json!({
            "values": values,
            "cells": cells,
            "dominoes": dominoes,
            "to_move": self.state.side_to_move(),
            "scores": self.state.scores(),
            "clocks": self.clocks.as_ref().map(|c| c.remaining_ms()),
        })
    }

    fn answer(&mut self, side: Side, reply: Reply) {
        match &mut self.phase {
            Phase::AwaitReady { answered, faults } if !answered[side] => {
                answered[side] = true;
                faults[side] = ready_reply(reply, self.ready_limit).err();
                if answered.first && answered.second {
                    let faults = mem::take(faults);
                    if faults.first.is_some() || faults.second.is_some() {
                        let outcome = Outcome::from_faults(faults, self.state.scores());
                        self.finish(outcome);
                    } else {
                        self.phase = Phase::Play;
                    }
                }
            }
            Phase::AwaitMove(asked) if *asked == side => self.answer_move(side, reply),
            // A reply nobody asked for changes nothing.
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ZEROS: &str = "0 0 0 0 0 0 0 0\n";

    #[test]
    fn input_errors_name_the_line() {
        let good = ZEROS.repeat(8);
        assert_eq!(parse_input(&good), Ok(Values::ZERO));
        let bad_value = ZEROS.repeat(2) + "0 0 0 0 0 0 0 4\n" + &ZEROS.repeat(5);
        assert_eq!(
            parse_input(&bad_value).unwrap_err().to_string(),
            "line 3: a cell value is out of range: 4"
        );
        let short_line = ZEROS.repeat(7) + "0 0 0\n";
        assert_eq!(
            parse_input(&short_line).unwrap_err().to_string(),
            "line 8: a value line takes 8 arguments, found 3"
        );
        assert_eq!(
            parse_input(&ZEROS.repeat(9)).unwrap_err().to_string(),
            "line 9: more than 8 lines of values"
        );
        assert_eq!(parse_input(""), Err(InputError::Missing(1)));
        assert_eq!(parse_input(&ZEROS.repeat(7)), Err(InputError::Missing(8)));
        assert_eq!(parse_input(&ZEROS.repeat(8).replace('\n', "\r\n")), Ok(Values::ZERO));
    }

    #[test]
    fn seeded_values_follow_the_documented_draw() {
        let values = game_values(&GameConfig::seeded(42)).unwrap();
        let mut rng = GameRng::stream(42, VALUES_STREAM);
        for x in 1..=8 {
            for y in 1..=8 {
                let cell = crate::rules::Cell::from_xy(x, y).unwrap();
                assert_eq!(u64::from(values.get(cell)), rng.below(4));
            }
        }
        assert_ne!(values, game_values(&GameConfig::seeded(43)).unwrap());
    }
}
