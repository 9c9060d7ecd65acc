//! The searching levels `strong` and the reference level `ab4` (played by
//! [`crate::agents::BuiltinAgent`]), with the time management that turns the
//! protocol's clock into search limits.

use std::time::Duration;

use versus_core::GameRng;

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

/// Makes the tables of a searching level ready for a new game: allocated
/// once, cleared for each later game.
pub(crate) fn prepare(level: Level, searcher: &mut Option<Box<Searcher>>) {
    if let Level::Strong(config) = level {
        match searcher {
            Some(searcher) => searcher.clear(),
            None => *searcher = Some(Box::new(Searcher::new(config))),
        }
    }
}

/// The move a searching level plays among the legal `moves` of `state`. The
/// first two turns play a division drawn from `rng` (any is sound; it varies
/// games between equal opponents).
pub(crate) fn choose(
    level: Level,
    searcher: &mut Option<Box<Searcher>>,
    rng: &mut GameRng,
    state: &State,
    moves: Vec<Move>,
    my_time_ms: u64,
) -> Move {
    if moves.len() == 1 {
        return moves[0];
    }
    match level {
        Level::FixedDepth(depth) => fixed_depth_best(state, depth).0,
        Level::Strong(config) => {
            if state.turns() < 2 {
                let divisions: Vec<Move> =
                    moves.into_iter().filter(|m| matches!(m, Move::Division { .. })).collect();
                return divisions[rng.below(divisions.len() as u64) as usize];
            }
            let searcher = searcher.get_or_insert_with(|| Box::new(Searcher::new(config)));
            searcher.search(state, move_limits(my_time_ms, state)).best
        }
    }
}
