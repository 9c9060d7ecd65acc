//! The built-in agents. They follow the game from the standard start position
//! with the same rules as the referee, so their moves are always legal there.

use versus_core::{AgentError, GameRng, ProtocolAgent, Side};

use crate::protocol::{AgentLine, JudgeLine, WireMove};
use crate::rules::{Move, State};
use crate::search::Searcher;
use crate::strong::{self, Level};

/// How a built-in agent picks its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Uniform over the legal moves.
    Random,
    /// The most own pieces minus opponent pieces after the move; ties broken
    /// uniformly by the agent's generator.
    Greedy,
    /// A search ([`crate::strong`]).
    Search(Level),
    /// The frozen reference level `strong-v1` ([`crate::v1`]).
    StrongV1,
}

/// A built-in agent: a policy, its generator, its search tables if it
/// searches, and the game as it has seen it.
#[derive(Debug)]
pub struct BuiltinAgent {
    policy: Policy,
    seed: u64,
    rng: GameRng,
    searcher: Option<Box<Searcher>>,
    searcher_v1: Option<Box<crate::v1::search::Searcher>>,
    state: State,
    side: Option<Side>,
}

impl BuiltinAgent {
    /// An agent whose random choices come from `GameRng::new(seed)`, anew
    /// for each game.
    #[must_use]
    pub fn new(policy: Policy, seed: u64) -> Self {
        BuiltinAgent {
            policy,
            seed,
            rng: GameRng::new(seed),
            searcher: None,
            searcher_v1: None,
            state: State::start(),
            side: None,
        }
    }

    fn choose(&mut self, my_time_ms: u64) -> Move {
        let moves = self.state.legal_moves();
        let candidates = match self.policy {
            Policy::Search(level) => {
                return strong::choose(
                    level,
                    &mut self.searcher,
                    &mut self.rng,
                    &self.state,
                    moves,
                    my_time_ms,
                );
            }
            Policy::StrongV1 => {
                return crate::v1::strong::choose(
                    &mut self.searcher_v1,
                    &mut self.rng,
                    &self.state,
                    moves,
                    my_time_ms,
                );
            }
            Policy::Random => moves,
            Policy::Greedy => {
                // Own minus opponent pieces grows by 2 per capture, and by 1
                // more for a division (its source stays).
                let gain = |mv: Move| {
                    let captures = 2 * self.state.captures(mv);
                    match mv {
                        Move::Division { .. } => captures + 1,
                        _ => captures,
                    }
                };
                let best = moves.iter().map(|&mv| gain(mv)).max().unwrap_or(0);
                moves.into_iter().filter(|&mv| gain(mv) == best).collect()
            }
        };
        let pick = self.rng.below(candidates.len() as u64) as usize;
        candidates[pick]
    }

    /// How `mv` is written: a division names the lowest-index own neighbour.
    fn wire(&self, mv: Move) -> WireMove {
        match mv {
            Move::Pass => WireMove::Pass,
            Move::Jump { from, to } => WireMove::Cells { from, to },
            Move::Division { to } => WireMove::Cells {
                from: self
                    .state
                    .division_source(to)
                    .expect("a legal division has an own neighbour"),
                to,
            },
        }
    }

    fn turn(&mut self, my_time_ms: u64) -> Result<String, AgentError> {
        let me = self.side.ok_or_else(|| AgentError::new("TURN before READY"))?;
        if self.state.side_to_move() != me || self.state.is_over() {
            return Err(AgentError::new(format!(
                "TURN when this agent cannot move in {}",
                self.state
            )));
        }
        let mv = self.choose(my_time_ms);
        let wire = self.wire(mv);
        self.state
            .play(mv)
            .map_err(|e| AgentError::new(format!("the agent chose {e} in {}", self.state)))?;
        Ok(AgentLine::Move(wire).to_string())
    }

    fn opponent_moved(&mut self, wire: WireMove) -> Result<(), AgentError> {
        let mv = match wire {
            WireMove::Pass => Ok(Move::Pass),
            WireMove::Cells { from, to } => self.state.move_between(from, to),
        };
        mv.and_then(|mv| self.state.play(mv))
            .map_err(|e| AgentError::new(format!("OPP {wire}: {e} in {}", self.state)))
    }
}

impl ProtocolAgent for BuiltinAgent {
    fn respond(&mut self, line: &str) -> Result<Option<String>, AgentError> {
        let parsed: JudgeLine =
            line.parse().map_err(|e| AgentError::new(format!("{line:?}: {e}")))?;
        match parsed {
            JudgeLine::Ready(side) => {
                self.side = Some(side);
                self.state = State::start();
                self.rng = GameRng::new(self.seed);
                // The tables are allocated while READY's generous limit runs.
                if let Policy::Search(level) = self.policy {
                    strong::prepare(level, &mut self.searcher);
                }
                if self.policy == Policy::StrongV1 {
                    crate::v1::strong::prepare(&mut self.searcher_v1);
                }
                Ok(Some(AgentLine::Ok.to_string()))
            }
            JudgeLine::Turn { my_time, .. } => self.turn(my_time).map(Some),
            JudgeLine::Opp { mv, .. } => self.opponent_moved(mv).map(|()| None),
            JudgeLine::Finish => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(agent: &mut BuiltinAgent, line: &str) -> Option<String> {
        agent.respond(line).unwrap()
    }

    #[test]
    fn greedy_takes_the_biggest_capture() {
        let mut agent = BuiltinAgent::new(Policy::Greedy, 1);
        agent.side = Some(Side::First);
        agent.state = "O.X..../XX...../......./......./......./......./....... O".parse().unwrap();
        // Division onto (1,2) captures all three X pieces: +7.
        assert_eq!(run(&mut agent, "TURN 100 100").as_deref(), Some("MOVE 1 1 1 2"));
    }

    #[test]
    fn agents_follow_a_game_and_pass_when_they_must() {
        let mut agent = BuiltinAgent::new(Policy::Random, 5);
        assert_eq!(run(&mut agent, "READY SECOND").as_deref(), Some("OK"));
        assert_eq!(run(&mut agent, "OPP 1 1 3 3 1"), None);
        let reply = run(&mut agent, "TURN 9000 9999").unwrap();
        assert!(reply.starts_with("MOVE "), "{reply}");
        assert!(agent.respond("OPP 1 1 1 2 1").is_err(), "(1,1) is empty now");

        let mut stuck = BuiltinAgent::new(Policy::Greedy, 5);
        stuck.side = Some(Side::First);
        stuck.state = "OXXX.../XXXX.../XXXX.../XXXX.../......./......./....... O".parse().unwrap();
        assert_eq!(run(&mut stuck, "TURN 10 10").as_deref(), Some("MOVE -1 -1 -1 -1"));
        assert!(stuck.respond("TURN 10 10").is_err(), "not its turn");
        assert_eq!(run(&mut stuck, "FINISH"), None);
    }

    #[test]
    fn same_seed_same_moves() {
        let moves = |seed| {
            let mut agent = BuiltinAgent::new(Policy::Random, seed);
            agent.respond("READY FIRST").unwrap();
            agent.respond("TURN 1 1").unwrap()
        };
        assert_eq!(moves(3), moves(3));
        let distinct: std::collections::HashSet<_> = (0..20).map(moves).collect();
        assert!(distinct.len() > 5, "{distinct:?}");
    }
}
