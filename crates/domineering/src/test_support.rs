//! What the engines' unit tests share: the exact value of a position on the
//! rules alone, and random positions to try it on.

use std::collections::HashMap;

use versus_core::GameRng;

use crate::rules::{Move, State, Values};

/// The exact future score difference for the side to move, by trying every
/// move, passes included, straight on the rules.
pub(crate) fn brute_force(state: &State, memo: &mut HashMap<State, i32>) -> i32 {
    if state.is_over() {
        return 0;
    }
    if let Some(&value) = memo.get(state) {
        return value;
    }
    let me = state.side_to_move();
    let mut best = i32::MIN;
    for mv in state.legal_moves() {
        let mut next = *state;
        next.play_unchecked(mv);
        let gain = next.points(me) as i32 - state.points(me) as i32;
        best = best.max(gain - brute_force(&next, memo));
    }
    memo.insert(*state, best);
    best
}

/// Random placements (no passes) until at most `empties` cells are empty,
/// then a random side to move and pass flag.
pub(crate) fn random_position(rng: &mut GameRng, empties: u32) -> State {
    let mut state = State::new(Values::random(rng));
    while state.empty().count_ones() > empties && !state.is_over() {
        let placements: Vec<Move> =
            state.legal_moves().into_iter().filter(|mv| *mv != Move::Pass).collect();
        let mv = if placements.is_empty() {
            Move::Pass
        } else {
            placements[rng.below(placements.len() as u64) as usize]
        };
        state.play_unchecked(mv);
    }
    if rng.coin() && !state.is_over() {
        state.play_unchecked(Move::Pass);
    }
    state
}
