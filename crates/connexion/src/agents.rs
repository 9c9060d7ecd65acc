//! The built-in agents. Both follow the game from the judge's lines with
//! [`State::play_drawing`] and never place illegally.
//!
//! - `random`: a uniform choice among the distinct legal moves
//!   ([`State::legal_moves`]), from `GameRng::new(seed)`.
//! - `greedy`: the official sample's rule: the move after which its own
//!   score (pattern groups for the first player, colour groups for the
//!   second) is highest; among equals, the first in hand order (the order
//!   the tiles entered the hand, see [`crate::rules`]), then cell index. It
//!   uses no randomness.

use std::time::Instant;

use versus_core::{AgentError, GameRng, ProtocolAgent, Side};

use crate::protocol::{AgentLine, JudgeLine};
use crate::rules::{Cell, Move, State};

/// The clock when a move is asked for: the budget the `TIME` line gave and
/// the moment the line was read.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub remaining_ms: u64,
    pub asked: Instant,
}

impl Clock {
    /// `remaining_ms` left, counted from now.
    #[must_use]
    pub fn starting_now(remaining_ms: u64) -> Self {
        Clock { remaining_ms, asked: Instant::now() }
    }
}

/// How an agent picks its move; called only when it has one.
pub trait Policy: Send {
    fn choose(&mut self, state: &State, side: Side, clock: Clock) -> Move;
}

/// Uniform over the legal moves.
#[derive(Debug)]
pub struct RandomPolicy {
    rng: GameRng,
}

impl RandomPolicy {
    #[must_use]
    pub fn new(seed: u64) -> Self {
        RandomPolicy { rng: GameRng::new(seed) }
    }
}

impl Policy for RandomPolicy {
    fn choose(&mut self, state: &State, _side: Side, _clock: Clock) -> Move {
        let moves = state.legal_moves();
        moves[self.rng.below(moves.len() as u64) as usize]
    }
}

/// The highest own score after the move; the first such move in hand
/// order, then cell index.
#[derive(Debug, Default)]
pub struct GreedyPolicy;

impl Policy for GreedyPolicy {
    fn choose(&mut self, state: &State, side: Side, _clock: Clock) -> Move {
        let board = state.board();
        let mut best: Option<(u32, Move)> = None;
        for &tile in state.hand(side).tiles() {
            for cell in Cell::in_mask(board.empty()) {
                let gain = board.score_gain(cell, tile)[side];
                let better = match best {
                    Some((top, _)) => gain > top,
                    None => true,
                };
                if better {
                    best = Some((gain, Move { cell, tile }));
                }
            }
        }
        best.expect("asked to move with a tile and an empty cell").1
    }
}

/// A protocol agent that follows the game and asks `policy` for moves.
#[derive(Debug)]
pub struct Agent<P> {
    policy: P,
    side: Option<Side>,
    state: Option<State>,
    /// The own move sent, waiting for its `GET`.
    sent: Option<Move>,
}

impl<P: Policy> Agent<P> {
    pub fn new(policy: P) -> Self {
        Agent { policy, side: None, state: None, sent: None }
    }

    fn game(&mut self) -> Result<(Side, &mut State), AgentError> {
        match (self.side, self.state.as_mut()) {
            (Some(side), Some(state)) => Ok((side, state)),
            _ => Err(AgentError::new("a game line before READY and INIT")),
        }
    }
}

/// The built-in `random` agent.
#[must_use]
pub fn random(seed: u64) -> Agent<RandomPolicy> {
    Agent::new(RandomPolicy::new(seed))
}

/// The built-in `greedy` agent.
#[must_use]
pub fn greedy() -> Agent<GreedyPolicy> {
    Agent::new(GreedyPolicy)
}

impl<P: Policy> ProtocolAgent for Agent<P> {
    fn respond(&mut self, line: &str) -> Result<Option<String>, AgentError> {
        let asked = Instant::now();
        let parsed: JudgeLine =
            line.parse().map_err(|e| AgentError::new(format!("{line:?}: {e}")))?;
        let problem = |e: &dyn std::fmt::Display| AgentError::new(format!("{line:?}: {e}"));
        match parsed {
            JudgeLine::Ready(side) => {
                self.side = Some(side);
                Ok(Some(AgentLine::Ok.to_string()))
            }
            JudgeLine::Init { own, opponent } => {
                let side = self.side.ok_or_else(|| problem(&"INIT before READY"))?;
                let hands = match side {
                    Side::First => versus_core::BySide::new(own, opponent),
                    Side::Second => versus_core::BySide::new(opponent, own),
                };
                self.state = Some(State::from_hands(hands).map_err(|e| problem(&e))?);
                Ok(None)
            }
            JudgeLine::Time { mine, .. } => {
                let (side, state) = match (self.side, &self.state) {
                    (Some(side), Some(state)) => (side, state),
                    _ => return Err(problem(&"TIME before READY and INIT")),
                };
                if state.side_to_move() != Some(side) {
                    return Err(problem(&"not this agent's turn"));
                }
                let mv = self.policy.choose(state, side, Clock { remaining_ms: mine, asked });
                self.sent = Some(mv);
                Ok(Some(AgentLine::Put(mv).to_string()))
            }
            JudgeLine::Get(drawn) => {
                let mv = self.sent.take().ok_or_else(|| problem(&"GET without PUT"))?;
                let (_, state) = self.game()?;
                state.play_drawing(mv, drawn).map_err(|e| problem(&e))?;
                Ok(None)
            }
            JudgeLine::Opp { put, drawn, .. } => {
                let (side, state) = self.game()?;
                if state.side_to_move() != Some(side.opponent()) {
                    return Err(problem(&"OPP out of turn"));
                }
                state.play_drawing(put, drawn).map_err(|e| problem(&e))?;
                Ok(None)
            }
            JudgeLine::Finish => Ok(None),
        }
    }
}
