//! The built-in agents: they read the judge's lines and follow the game with
//! the rules. `random` and `greedy` pass only when they have no placement;
//! `ab4` and `strong` search (see [`crate::search`]) and pass when it pays.

use std::time::{Duration, Instant};

use versus_core::{AgentError, GameRng, ProtocolAgent, Side};

use crate::protocol::{AgentLine, JudgeLine};
use crate::ref_ab::RefEngine;
use crate::rules::{Cell, Move, State, Values};
use crate::search::{fixed_depth_move, Engine, Features, Limits};
use crate::strong_v1;

/// How a built-in agent picks its placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Uniform over the legal placements.
    Random,
    /// The placement worth the most now; ties uniform.
    Greedy,
}

/// The `nth` (from 0) set bit of `mask`, which must have more than `nth`.
fn nth_cell(mask: u64, nth: u64) -> Cell {
    Cell::iter(mask).nth(nth as usize).expect("nth is below the count")
}

/// A uniform pick among the cells of `mask`, `None` if it is empty.
fn pick(mask: u64, rng: &mut GameRng) -> Option<Cell> {
    let count = u64::from(mask.count_ones());
    (count > 0).then(|| nth_cell(mask, rng.below(count)))
}

/// `policy`'s move for the side to move of `state` (a game not over).
pub fn choose(policy: Policy, state: &State, rng: &mut GameRng) -> Move {
    let side = state.side_to_move();
    let anchors = match policy {
        Policy::Random => state.placements(side),
        Policy::Greedy => {
            state.placements_by_value(side).into_iter().rev().find(|mask| *mask != 0).unwrap_or(0)
        }
    };
    pick(anchors, rng).map_or(Move::Pass, Move::Place)
}

/// How a built-in agent thinks.
#[derive(Debug)]
enum Brain {
    Policy(Policy),
    /// Alpha-beta to this many plies on the points earned.
    FixedDepth(u8),
    /// The full engine, made at READY once the values are known.
    Strong {
        features: Features,
        engine: Option<Box<Engine>>,
    },
    /// `strong` as it was before issue 17 (frozen in [`crate::strong_v1`]).
    StrongV1 {
        engine: Option<Box<strong_v1::Engine>>,
    },
    /// The independent alpha-beta reference ([`crate::ref_ab`]).
    RefAb {
        engine: Option<Box<RefEngine>>,
        /// The percentage of its clock it plans with (time odds; 100 in play).
        clock_percent: u64,
    },
}

/// The transposition table of `strong`: 2^22 slots of 16 bytes, 64 MiB.
const TABLE_BITS: u32 = 22;

/// A built-in agent.
#[derive(Debug)]
pub struct BuiltinAgent {
    brain: Brain,
    rng: GameRng,
    rows: Vec<[u8; 8]>,
    game: Option<(Side, State)>,
}

impl BuiltinAgent {
    /// An agent playing by `policy`.
    #[must_use]
    pub fn new(policy: Policy, seed: u64) -> Self {
        BuiltinAgent::with_brain(Brain::Policy(policy), seed)
    }

    /// The `ab4` reference: alpha-beta to `depth` plies on points earned.
    #[must_use]
    pub fn fixed_depth(depth: u8, seed: u64) -> Self {
        BuiltinAgent::with_brain(Brain::FixedDepth(depth.max(1)), seed)
    }

    /// The `strong` agent with these engine features.
    #[must_use]
    pub fn strong(features: Features, seed: u64) -> Self {
        BuiltinAgent::with_brain(Brain::Strong { features, engine: None }, seed)
    }

    /// The frozen `strong-v1` reference level.
    #[must_use]
    pub fn strong_v1(seed: u64) -> Self {
        BuiltinAgent::with_brain(Brain::StrongV1 { engine: None }, seed)
    }

    /// The independent alpha-beta reference level `ref-ab`.
    #[must_use]
    pub fn ref_ab(seed: u64) -> Self {
        BuiltinAgent::ref_ab_with_clock(100, seed)
    }

    /// `ref-ab` planning with `clock_percent` of the time it has left, so
    /// that a longer game gives the other player time odds against it
    /// (`builtin:ref-ab?clock=25` at 40 s thinks as at 10 s).
    #[must_use]
    pub fn ref_ab_with_clock(clock_percent: u64, seed: u64) -> Self {
        let clock_percent = clock_percent.clamp(1, 100);
        BuiltinAgent::with_brain(Brain::RefAb { engine: None, clock_percent }, seed)
    }

    fn with_brain(brain: Brain, seed: u64) -> Self {
        BuiltinAgent { brain, rng: GameRng::new(seed), rows: Vec::new(), game: None }
    }
}

/// How long to think about a move, given `my_time` ms left on the clock:
/// the budget is shared among the moves expected before the end of the game
/// becomes provable (about 4 cells go per own move, and the end is proved
/// from about 30 empty cells), with a reserve for the judge's rounding and
/// the pipes. `strong-v1` (see [`strong_v1::limits`]) counted moves to 26
/// empty cells and stopped iterating at 0.6 of the budget: it left about a
/// third of a 10 s clock unused.
pub fn limits(state: &State, my_time_ms: u64, start: Instant, features: &Features) -> Limits {
    // Generous: on a loaded machine a process can stall for hundreds of ms.
    let reserve = 20 + my_time_ms / 12;
    let usable = my_time_ms.saturating_sub(reserve);
    let empties = u64::from(state.empty().count_ones());
    let moves_left = (empties.saturating_sub(features.plan_to) / 4).max(2);
    let budget = usable / moves_left;
    let at = |ms: u64| start + Duration::from_millis(ms);
    let hard = (2 * budget).min(usable / 4);
    Limits {
        try_solve: true,
        // Half of the hard limit at most: with two moves left the budget's
        // half was the hard limit itself, and a proof that ran out of time
        // left the search nothing (a depth-1 move).
        solve_deadline: at((budget / 2).min(hard / 2)),
        soft: at(budget * features.soft_eighths / 8),
        hard: at(hard),
        max_depth: 64,
    }
}

/// How long `strong` thinks at READY (off the clock, 3 s allowed) about the
/// opening position: its table keeps what it found for both colours.
pub const READY_THINKING: Duration = Duration::from_millis(1800);

/// The game an agent follows, once READY has started it.
fn tracked<'a>(
    game: &'a mut Option<(Side, State)>,
    line: &str,
) -> Result<(Side, &'a mut State), AgentError> {
    match game {
        Some((side, state)) => Ok((*side, state)),
        None => Err(AgentError::new(format!("{line:?} before READY"))),
    }
}

impl ProtocolAgent for BuiltinAgent {
    fn respond(&mut self, line: &str) -> Result<Option<String>, AgentError> {
        let parsed: JudgeLine =
            line.parse().map_err(|e| AgentError::new(format!("{e}: {line:?}")))?;
        match parsed {
            JudgeLine::Values(row) => {
                if self.game.is_some() || self.rows.len() == 8 {
                    return Err(AgentError::new(format!("unexpected value line {line:?}")));
                }
                self.rows.push(row);
                Ok(None)
            }
            JudgeLine::Ready(side) => {
                let ready_start = Instant::now();
                let rows: [[u8; 8]; 8] = self.rows.as_slice().try_into().map_err(|_| {
                    AgentError::new(format!("READY after {} value lines", self.rows.len()))
                })?;
                let values = Values::from_rows(rows).expect("the protocol checked each value");
                match &mut self.brain {
                    Brain::Strong { features, engine } => {
                        let mut made = Box::new(Engine::new(&values, TABLE_BITS, *features));
                        if features.ready_thinking {
                            let until = ready_start + READY_THINKING;
                            let limits = Limits {
                                try_solve: false,
                                solve_deadline: until,
                                soft: until,
                                hard: until,
                                max_depth: 64,
                            };
                            made.choose(&State::new(values), &limits);
                        }
                        *engine = Some(made);
                    }
                    Brain::StrongV1 { engine } => {
                        *engine = Some(Box::new(strong_v1::Engine::new(
                            &values,
                            TABLE_BITS,
                            strong_v1::Features::default(),
                        )));
                    }
                    Brain::RefAb { engine, .. } => {
                        *engine = Some(Box::new(RefEngine::new(&values)));
                    }
                    Brain::Policy(_) | Brain::FixedDepth(_) => {}
                }
                self.game = Some((side, State::new(values)));
                Ok(Some(AgentLine::Ok.to_string()))
            }
            JudgeLine::Turn { my_time, .. } => {
                let start = Instant::now();
                let (me, state) = tracked(&mut self.game, line)?;
                if state.side_to_move() != me || state.is_over() {
                    return Err(AgentError::new(format!("{line:?} out of turn")));
                }
                let mv = match &mut self.brain {
                    Brain::Policy(policy) => choose(*policy, state, &mut self.rng),
                    Brain::FixedDepth(depth) => fixed_depth_move(state, *depth, &mut self.rng),
                    Brain::Strong { engine, features } => {
                        let engine = engine.as_mut().expect("made at READY");
                        engine.choose(state, &limits(state, my_time, start, features)).mv
                    }
                    Brain::StrongV1 { engine } => {
                        let engine = engine.as_mut().expect("made at READY");
                        engine.choose(state, &strong_v1::limits(state, my_time, start)).mv
                    }
                    Brain::RefAb { engine, clock_percent } => {
                        let planned = my_time * *clock_percent / 100;
                        engine.as_mut().expect("made at READY").choose(state, planned, start)
                    }
                };
                state.play_unchecked(mv);
                Ok(Some(AgentLine::Move(mv).to_string()))
            }
            JudgeLine::Opp { mv, .. } => {
                let (me, state) = tracked(&mut self.game, line)?;
                if state.side_to_move() == me {
                    return Err(AgentError::new(format!("{line:?} out of turn")));
                }
                state.play(mv).map_err(|e| AgentError::new(format!("{e}: {line:?}")))?;
                Ok(None)
            }
            JudgeLine::Finish => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(agent: &mut BuiltinAgent, side: Side, row: &str) {
        for _ in 0..8 {
            assert_eq!(agent.respond(row).unwrap(), None);
        }
        let ready = JudgeLine::Ready(side).to_string();
        assert_eq!(agent.respond(&ready).unwrap().as_deref(), Some("OK"));
    }

    #[test]
    fn greedy_takes_the_richest_domino() {
        let mut agent = BuiltinAgent::new(Policy::Greedy, 3);
        for x in 1..=8 {
            let row = if x == 5 { "0 0 0 2 3 1 0 0" } else { "0 0 0 0 0 0 0 0" };
            agent.respond(row).unwrap();
        }
        agent.respond("READY FIRST").unwrap();
        // 2 + 3 at (5,4)-(5,5) beats 3 + 1 at (5,5)-(5,6).
        assert_eq!(agent.respond("TURN 10000 10000").unwrap().as_deref(), Some("MOVE 5 4"));
    }

    #[test]
    fn agents_pass_only_without_placements() {
        let rows = ["hh.hh.hh"; 8].join("/");
        let position =
            |side: &str| -> State { format!("{} {rows} {side} 0", Values::ZERO).parse().unwrap() };
        let stuck = position("first");
        assert_eq!(stuck.placements(Side::First), 0);
        assert!(!stuck.is_over());
        let free = position("second");
        for policy in [Policy::Random, Policy::Greedy] {
            let mut rng = GameRng::new(9);
            assert_eq!(choose(policy, &stuck, &mut rng), Move::Pass);
            for _ in 0..50 {
                let Move::Place(anchor) = choose(policy, &free, &mut rng) else {
                    panic!("{policy:?} passed with placements left");
                };
                assert!([3, 6].contains(&anchor.y()), "{anchor}");
            }
        }
    }

    #[test]
    fn random_covers_every_placement() {
        let state = State::new(Values::ZERO);
        let mut rng = GameRng::new(4);
        let mut seen = 0u64;
        for _ in 0..2000 {
            if let Move::Place(anchor) = choose(Policy::Random, &state, &mut rng) {
                seen |= anchor.bit();
            }
        }
        assert_eq!(seen, state.placements(Side::First));
    }

    #[test]
    fn agents_reject_lines_out_of_order() {
        let mut agent = BuiltinAgent::new(Policy::Random, 1);
        assert!(agent.respond("TURN 1 1").is_err());
        let mut agent = BuiltinAgent::new(Policy::Random, 1);
        assert!(agent.respond("READY FIRST").is_err());
        let mut agent = BuiltinAgent::new(Policy::Random, 1);
        start(&mut agent, Side::First, "0 0 0 0 0 0 0 0");
        assert!(agent.respond("OPP 1 1 1").is_err());
        assert!(agent.respond("bogus").is_err());
    }

    #[test]
    fn ref_ab_plans_with_its_share_of_the_clock() {
        // With 1,000 s left `ref-ab` would plan about 90 s for the opening
        // move and stop iterating after half of that at the earliest; at
        // `clock=1` it plans with 10 s, so about 1 s.
        let mut agent = BuiltinAgent::ref_ab_with_clock(1, 5);
        start(&mut agent, Side::First, "1 2 3 0 1 2 3 0");
        let asked = Instant::now();
        let reply = agent.respond("TURN 1000000 1000000").unwrap().unwrap();
        assert!(reply.starts_with("MOVE "), "{reply}");
        let took = asked.elapsed();
        assert!(took < Duration::from_secs(20), "{took:?}");
    }
}
