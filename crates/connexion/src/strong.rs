//! The strong agent: iterative deepening alpha-beta over placements with
//! the draws as chance events ([`crate::tree`]).
//!
//! - The root tries every distinct move, ordered by its immediate margin
//!   (the previous iteration's best first); inner plies try the `width`
//!   best by immediate margin; the last ply is full width with the pending
//!   draw's exact expectation. Depth grows from 3 until the move's time is
//!   spent; the deepest iteration's best move (or a partial iteration's,
//!   once its first move is searched) is played.
//! - The searcher knows each bag's remaining multiset only (from `INIT`,
//!   `GET` and `OPP`), never the referee's order.
//! - Time: the remaining clock, less a reserve kept against stalls of the
//!   machine, spread over the own moves left plus three ([`move_budget`]).

use std::time::{Duration, Instant};

use versus_core::Side;

use crate::agents::{Clock, Policy};
use crate::position::{self, Position};
use crate::reference::ordered_moves;
use crate::rules::{Move, State, CELLS};
use crate::tree;

/// The tunable parts of the strong agent.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    /// Moves tried at inner plies.
    pub width: usize,
    pub max_depth: u32,
    /// Weight (in 1/16ths) of the frontier potential at the leaves.
    pub potential_weight: i32,
}

impl Default for Params {
    fn default() -> Self {
        Params { width: 10, max_depth: 12, potential_weight: 4 }
    }
}

/// Search figures of the last move, for benchmarks and logs.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub nodes: u64,
    /// The depth of the iteration the move came from (0: no search).
    pub depth: u32,
    pub elapsed: Duration,
}

/// The strong policy.
#[derive(Debug)]
pub struct StrongPolicy {
    params: Params,
    /// The clock at this agent's first move.
    initial_ms: Option<u64>,
    pub last: Stats,
}

impl StrongPolicy {
    #[must_use]
    pub fn new(params: Params) -> Self {
        StrongPolicy { params, initial_ms: None, last: Stats::default() }
    }

    /// The move for `pos` within `budget` from `start`.
    pub fn search(&mut self, pos: &Position, start: Instant, budget: Duration) -> (usize, u8) {
        let deadline = start + budget;
        self.last = Stats::default();
        let chosen = deepen(pos, &self.params, deadline, &mut self.last);
        self.last.elapsed = start.elapsed();
        chosen
    }
}

impl Policy for StrongPolicy {
    fn choose(&mut self, state: &State, _side: Side, clock: Clock) -> Move {
        let pos = Position::from_state(state);
        let initial_ms = *self.initial_ms.get_or_insert(clock.remaining_ms);
        let budget = move_budget(&pos, clock.remaining_ms, initial_ms);
        let (cell, tile) = self.search(&pos, clock.asked, budget);
        position::to_move(cell, tile)
    }
}

/// The time for this move. A reserve is set aside from the game's whole
/// clock (`initial_ms`, the first `TIME` line's budget): a shared machine
/// can stall a process for hundreds of ms, so the reserve is mostly an
/// absolute amount. The rest of the clock is spread over the own moves left
/// plus three, so that overruns are absorbed by later moves; once the
/// clock is down to the reserve, moves get no time beyond the smallest
/// search.
#[must_use]
pub fn move_budget(pos: &Position, remaining_ms: u64, initial_ms: u64) -> Duration {
    let own_moves_left = (CELLS - pos.board.count()).div_ceil(2) as u64;
    let reserve = (initial_ms * 35 / 100).min(300 + initial_ms / 20);
    let usable = remaining_ms.saturating_sub(reserve);
    Duration::from_micros(usable * 1000 / (own_moves_left + 3))
}

/// Iterative deepening from depth 3: the best root move of the deepest
/// iteration completed (or of a partial one, when its first move, the
/// previous best, was searched).
fn deepen(pos: &Position, params: &Params, deadline: Instant, stats: &mut Stats) -> (usize, u8) {
    let me = pos.to_move();
    let mut pos = pos.clone();
    let mut order: Vec<(usize, u8)> =
        ordered_moves(&pos).into_iter().map(|(c, t, _)| (c, t)).collect();
    let mut chosen = order[0];
    let mut search = tree::Search::new(params.width, deadline);
    search.potential_weight = params.potential_weight;
    let max_depth = params.max_depth.min((CELLS - pos.board.count()) as u32);
    for depth in 3..=max_depth.max(3) {
        let mut best = i32::MIN + 1;
        let mut best_move = None;
        let mut scored = Vec::with_capacity(order.len());
        for &(cell, tile) in &order {
            let undo = pos.place(cell, tile);
            let mut pending = [false; 2];
            pending[me] = pos.bag_len[me] > 0;
            let value = -search.value(&mut pos, depth - 1, i32::MIN + 1, -best, pending);
            pos.unplace(&undo);
            if search.aborted {
                break;
            }
            scored.push((value, cell, tile));
            if value > best {
                best = value;
                best_move = Some((cell, tile));
            }
        }
        if let Some(mv) = best_move {
            chosen = mv;
            stats.depth = depth;
        }
        if search.aborted {
            break;
        }
        // The best first; the rest keep their order (their values are bounds).
        if let Some(at) = order.iter().position(|&m| m == chosen) {
            let mv = order.remove(at);
            order.insert(0, mv);
        }
        if depth >= max_depth {
            break;
        }
    }
    stats.nodes = search.nodes;
    chosen
}
