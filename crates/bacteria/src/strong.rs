//! The searching agents: `strong` and the reference level `ab4`, with the
//! time management that turns the protocol's clock into search limits.

use std::time::Duration;

use versus_core::{AgentError, GameRng, ProtocolAgent, Side};

use crate::protocol::{AgentLine, JudgeLine, WireMove};
use crate::rules::{Move, State, MAX_TURNS};
use crate::search::{fixed_depth_best, Config, Limits, Position, Searcher};

/// How a searching agent picks its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Iterative deepening under the clock with the given settings.
    Strong(Config),
    /// Alpha-beta to a fixed depth, material only.
    FixedDepth(u32),
}

/// A searching agent and the game as it has seen it.
#[derive(Debug)]
pub struct SearchAgent {
    level: Level,
    searcher: Option<Box<Searcher>>,
    seed: u64,
    rng: GameRng,
    state: State,
    side: Option<Side>,
}

/// The search limits for one move with `my_time_ms` left on the clock.
///
/// The game is expected to last about `0.6 * empties + 4` more own moves
/// (divisions fill the board, jumps and captures stretch it), at most the turns
/// left before the cap. Each reply is charged at least 1 ms and rounded up, so
/// a millisecond per possible remaining move is never spent, plus a reserve
/// for the pipe and the scheduler (5 ms and a twentieth of the clock). No new
/// iteration starts after 0.6 of the share `usable / expected`; the search
/// stops outright at three shares or a fifth of the usable clock.
#[must_use]
pub fn move_limits(my_time_ms: u64, state: &State) -> Limits {
    let own_moves_cap = u64::from(MAX_TURNS.saturating_sub(state.turns()) + 1) / 2;
    let reserve = 5 + own_moves_cap + my_time_ms / 20;
    let usable = my_time_ms.saturating_sub(reserve);
    let empties = u64::from(Position::from_state(state).empties());
    let expected_moves = (empties * 6 / 10 + 4).min(own_moves_cap).max(1);
    let target = usable / expected_moves;
    let hard = (target * 3).min(usable / 5).saturating_sub(1);
    Limits::time(Duration::from_millis(target) * 6 / 10, Duration::from_millis(hard))
}

impl SearchAgent {
    /// An agent whose first move comes from `GameRng::new(seed)` (any division
    /// from the start is sound; it varies games between equal opponents).
    #[must_use]
    pub fn new(level: Level, seed: u64) -> Self {
        SearchAgent {
            level,
            searcher: None,
            seed,
            rng: GameRng::new(seed),
            state: State::start(),
            side: None,
        }
    }

    fn choose(&mut self, my_time_ms: u64) -> Move {
        let moves = self.state.legal_moves();
        if moves.len() == 1 {
            return moves[0];
        }
        match self.level {
            Level::FixedDepth(depth) => fixed_depth_best(&self.state, depth).0,
            Level::Strong(config) => {
                if self.state.turns() < 2 {
                    let divisions: Vec<Move> =
                        moves.into_iter().filter(|m| matches!(m, Move::Division { .. })).collect();
                    return divisions[self.rng.below(divisions.len() as u64) as usize];
                }
                let searcher = self.searcher.get_or_insert_with(|| Box::new(Searcher::new(config)));
                searcher.search(&self.state, move_limits(my_time_ms, &self.state)).best
            }
        }
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
            .map_err(|e| AgentError::new(format!("the search chose {e} in {}", self.state)))?;
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

impl ProtocolAgent for SearchAgent {
    fn respond(&mut self, line: &str) -> Result<Option<String>, AgentError> {
        let parsed: JudgeLine =
            line.parse().map_err(|e| AgentError::new(format!("{line:?}: {e}")))?;
        match parsed {
            JudgeLine::Ready(side) => {
                self.side = Some(side);
                self.state = State::start();
                self.rng = GameRng::new(self.seed);
                // The tables are allocated while READY's generous limit runs.
                if let Level::Strong(config) = self.level {
                    match &mut self.searcher {
                        Some(searcher) => searcher.clear(),
                        None => self.searcher = Some(Box::new(Searcher::new(config))),
                    }
                }
                Ok(Some(AgentLine::Ok.to_string()))
            }
            JudgeLine::Turn { my_time, .. } => self.turn(my_time).map(Some),
            JudgeLine::Opp { mv, .. } => self.opponent_moved(mv).map(|()| None),
            JudgeLine::Finish => Ok(None),
        }
    }
}
