//! Alpha-beta over placements with the draws as chance events.
//!
//! A side that placed a tile with its bag not empty holds one unknown tile
//! (a pending draw). At the last ply the value is the exact expectation
//! over that draw: for each kind the bag may give, the best placement with
//! the visible tiles or the drawn one, weighted by the kind's count. At
//! inner plies a pending tile is left out (the side plays from its visible
//! tiles), which can only undervalue its options. Values are margins for
//! the side to move in 1/`SCALE` points.
//!
//! The leaves may add the difference of the two sides' *frontier
//! potential* ([`potential`]): for each empty cell next to tiles, the most
//! a side could gain there with an attribute it still has tiles of in its
//! hand and bag — open group frontiers valued by the matching tiles to come.

use std::time::Instant;

use crate::position::{attribute, Position};
use crate::reference::ordered_moves;
use crate::rules::Cell;

/// Fixed-point scale of values.
pub const SCALE: i32 = 256;

/// The search's limits and counters.
#[derive(Debug)]
pub struct Search {
    /// Moves tried at inner plies below the root (0: all).
    pub width: usize,
    /// Weight (in 1/16ths) of the frontier potential difference added at
    /// the leaves (0: none).
    pub potential_weight: i32,
    pub deadline: Instant,
    pub nodes: u64,
    pub aborted: bool,
}

impl Search {
    #[must_use]
    pub fn new(width: usize, deadline: Instant) -> Self {
        Search { width, potential_weight: 0, deadline, nodes: 0, aborted: false }
    }

    /// The value for the side to move, `depth` plies ahead (`depth` ≥ 1).
    pub fn value(
        &mut self,
        pos: &mut Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        pending: [bool; 2],
    ) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(256) && Instant::now() >= self.deadline {
            self.aborted = true;
        }
        let side = pos.to_move();
        if self.aborted || pos.is_over() || pos.hand_kinds(side).next().is_none() {
            return pos.margin(side) * SCALE;
        }
        if depth <= 1 {
            let mut value = leaf(pos, pending[side]);
            if self.potential_weight != 0 {
                let p = potential(pos, &supply(pos));
                value += self.potential_weight * (p[side] - p[1 - side]) * SCALE / 16;
            }
            return value;
        }
        let mut best = i32::MIN + 1;
        let moves = ordered_moves(pos);
        let width = if self.width == 0 { moves.len() } else { self.width.min(moves.len()) };
        for &(cell, tile, _) in &moves[..width] {
            let undo = pos.place(cell, tile);
            let mut next = pending;
            next[side] = pos.bag_len[side] > 0;
            let value = -self.value(pos, depth - 1, -beta, -alpha, next);
            pos.unplace(&undo);
            best = best.max(value);
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// Each side's tiles still to place, by its attribute value.
pub fn supply(pos: &Position) -> [[u8; 4]; 2] {
    let mut supply = [[0; 4]; 2];
    for (side, row) in supply.iter_mut().enumerate() {
        for tile in 0..16u8 {
            let n = pos.hands[side][usize::from(tile)] + pos.bags[side][usize::from(tile)];
            row[attribute(side, tile)] += n;
        }
    }
    supply
}

/// For each side, the sum over empty cells touching tiles of the best
/// extra gain it could make there (beyond the 1 of a lone tile) with an
/// attribute it still has tiles of.
pub fn potential(pos: &Position, supply: &[[u8; 4]; 2]) -> [i32; 2] {
    let mut total = [0; 2];
    let occupied = pos.board.occupied();
    let mut frontier = 0u64;
    for cell in Cell::in_mask(occupied) {
        frontier |= cell.neighbour_mask();
    }
    for cell in Cell::in_mask(frontier & !occupied) {
        let around = pos.board.surroundings(cell.index());
        for (side, sum) in total.iter_mut().enumerate() {
            let mut best = 0;
            for value in 0..4u8 {
                if supply[side][usize::from(value)] == 0 {
                    continue;
                }
                // A tile whose `side` attribute is `value`.
                let tile = if side == 0 { value } else { value * 4 };
                best = best.max(around.gain(tile)[side] as i32 - 1);
            }
            *sum += best;
        }
    }
    total
}

/// The expected margin after the best placement of the side to move,
/// counting a pending draw exactly.
#[must_use]
pub fn leaf(pos: &Position, pending: bool) -> i32 {
    let side = pos.to_move();
    let base = pos.margin(side);
    let in_hand = pos.hands[side];
    let bag = pos.bags[side];
    let drawing = pending && pos.bag_len[side] > 0;
    let mut best_known = i32::MIN;
    let mut best_kind = [i32::MIN; 16];
    for cell in Cell::in_mask(pos.board.empty()) {
        let around = pos.board.surroundings(cell.index());
        for tile in 0..16u8 {
            let t = usize::from(tile);
            let held = in_hand[t] > 0;
            if !(held || drawing && bag[t] > 0) {
                continue;
            }
            let gain = around.gain(tile);
            let margin = gain[side] as i32 - gain[1 - side] as i32;
            if held {
                best_known = best_known.max(margin);
            }
            best_kind[t] = best_kind[t].max(margin);
        }
    }
    if !drawing {
        return (base + best_known) * SCALE;
    }
    let mut sum = 0i64;
    for t in 0..16 {
        if bag[t] > 0 {
            sum += i64::from(bag[t]) * i64::from(best_known.max(best_kind[t]));
        }
    }
    let expected = sum * i64::from(SCALE) / i64::from(pos.bag_len[side]);
    base * SCALE + expected as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{State, Tile};
    use versus_core::{BySide, GameRng};

    /// A position after `turns` random moves, as an agent knows it.
    fn random_position(rng: &mut GameRng, turns: usize) -> Position {
        let orders = BySide::from_fn(|_| {
            let mut order: [Tile; 32] = std::array::from_fn(|i| Tile::ALL[i % 16]);
            rng.shuffle(&mut order);
            order
        });
        let mut state = State::new(orders);
        for _ in 0..turns {
            let moves = state.legal_moves();
            state.play(moves[rng.below(moves.len() as u64) as usize]).unwrap();
        }
        Position::from_state(&state)
    }

    /// The leaf value by enumeration: draw each kind, place every tile of
    /// the hand on every cell, keep the best margin, weight by the count.
    fn leaf_by_brute_force(pos: &Position) -> f64 {
        let side = pos.to_move();
        let best_with = |pos: &Position| {
            let mut best = i32::MIN;
            for tile in pos.hand_kinds(side) {
                for cell in Cell::in_mask(pos.board.empty()) {
                    let mut after = pos.clone();
                    after.place(cell.index(), tile);
                    best = best.max(after.margin(side));
                }
            }
            f64::from(best)
        };
        let mut sum = 0.0;
        for tile in 0..16u8 {
            let count = pos.bags[side][usize::from(tile)];
            if count > 0 {
                let mut drawn = pos.clone();
                drawn.draw(side, tile);
                sum += f64::from(count) * best_with(&drawn);
            }
        }
        sum / f64::from(pos.bag_len[side])
    }

    #[test]
    fn leaf_is_the_exact_expectation_over_the_draw() {
        let mut rng = GameRng::new(11);
        for game in 0..40 {
            let mut pos = random_position(&mut rng, 1 + game % 50);
            // Take one tile out of the mover's hand: it is the pending draw.
            let side = pos.to_move();
            let tile = pos.hand_kinds(side).next().unwrap();
            pos.hands[side][usize::from(tile)] -= 1;
            pos.bags[side][usize::from(tile)] += 1;
            pos.bag_len[side] += 1;
            let exact = leaf_by_brute_force(&pos);
            let value = f64::from(leaf(&pos, true)) / f64::from(SCALE);
            assert!((value - exact).abs() <= 1.0 / f64::from(SCALE), "{value} vs {exact}");
        }
    }

    /// Plain minimax on the margin over visible hands, no pruning.
    fn minimax(pos: &mut Position, depth: u32) -> i32 {
        let side = pos.to_move();
        if depth == 0 || pos.is_over() || pos.hand_kinds(side).next().is_none() {
            return pos.margin(side) * SCALE;
        }
        let mut best = i32::MIN;
        let kinds: Vec<u8> = pos.hand_kinds(side).collect();
        for tile in kinds {
            for cell in Cell::in_mask(pos.board.empty()) {
                let undo = pos.place(cell.index(), tile);
                best = best.max(-minimax(pos, depth - 1));
                pos.unplace(&undo);
            }
        }
        best
    }

    #[test]
    fn full_width_alpha_beta_without_draws_is_minimax() {
        let mut rng = GameRng::new(5);
        for game in 0..12 {
            // Late positions keep the brute force small.
            let mut pos = random_position(&mut rng, 56 + game % 5);
            let far = std::time::Instant::now() + std::time::Duration::from_secs(600);
            for depth in 1..=3 {
                let expected = minimax(&mut pos, depth);
                let value =
                    Search::new(0, far).value(&mut pos, depth, i32::MIN + 1, i32::MAX, [false; 2]);
                assert_eq!(value, expected, "depth {depth}");
            }
        }
    }
}
