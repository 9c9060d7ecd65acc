//! `strong-v1`: the `strong` level as it was when issue 16 opened, frozen
//! (search in [`super::search`], time rules here), so that every change to
//! `strong` is measured against a level that does not move. Do not change it.

use std::time::Duration;

use versus_core::GameRng;

use super::search::{Config, Limits, Position, Searcher};
use crate::rules::{Move, State, MAX_TURNS};

/// The time rules of `strong-v1`: soft limit 60% of a move's share, hard stop
/// at 3 shares or a fifth of the usable clock; `0.6 * empties + 4` own moves
/// expected.
fn move_limits(my_time_ms: u64, state: &State) -> Limits {
    let own_moves_cap = u64::from(MAX_TURNS.saturating_sub(state.turns()) + 1) / 2;
    let reserve = 5 + own_moves_cap + my_time_ms / 20;
    let usable = my_time_ms.saturating_sub(reserve);
    let empties = u64::from(Position::from_state(state).empties());
    let expected_moves = (empties * 60 / 100 + 4).min(own_moves_cap).max(1);
    let target = usable / expected_moves;
    let hard = (target * 30 / 10).min(usable / 5).saturating_sub(1);
    Limits::time(Duration::from_millis(target) * 60 / 100, Duration::from_millis(hard))
}

/// Makes the tables ready for a new game: allocated once, cleared later.
pub(crate) fn prepare(searcher: &mut Option<Box<Searcher>>) {
    match searcher {
        Some(searcher) => searcher.clear(),
        None => *searcher = Some(Box::new(Searcher::new(Config::STRONG))),
    }
}

/// The move `strong-v1` plays among the legal `moves` of `state`.
pub(crate) fn choose(
    searcher: &mut Option<Box<Searcher>>,
    rng: &mut GameRng,
    state: &State,
    moves: Vec<Move>,
    my_time_ms: u64,
) -> Move {
    if moves.len() == 1 {
        return moves[0];
    }
    if state.turns() < 2 {
        let divisions: Vec<Move> =
            moves.into_iter().filter(|m| matches!(m, Move::Division { .. })).collect();
        return divisions[rng.below(divisions.len() as u64) as usize];
    }
    let searcher = searcher.get_or_insert_with(|| Box::new(Searcher::new(Config::STRONG)));
    searcher.search(state, move_limits(my_time_ms, state)).best
}
