//! Reference levels to measure the strong agent against.
//!
//! - `margin`: one ply, the move after which its own score minus the
//!   opponent's is highest; among equals the first in hand order, then cell
//!   index (the greedy agent's order).
//! - `minimax3`: three plies (own move, the opponent's reply, own next move)
//!   of alpha-beta on the score margin over the visible hands: the tile the
//!   agent draws after its move is unknown, so its next move is chosen from
//!   the four tiles it keeps. Moves are ordered by their immediate margin.

use versus_core::Side;

use crate::agents::{Clock, Policy};
use crate::position::{self, Position};
use crate::rules::{Cell, Move, State};

/// One-ply margin.
#[derive(Debug, Default)]
pub struct MarginPolicy;

impl Policy for MarginPolicy {
    fn choose(&mut self, state: &State, side: Side, _clock: Clock) -> Move {
        let board = state.board();
        let mut best: Option<(i64, Move)> = None;
        for &tile in state.hand(side).tiles() {
            for cell in Cell::in_mask(board.empty()) {
                let gain = board.score_gain(cell, tile);
                let margin = i64::from(gain[side]) - i64::from(gain[side.opponent()]);
                if best.is_none_or(|(top, _)| margin > top) {
                    best = Some((margin, Move { cell, tile }));
                }
            }
        }
        best.expect("asked to move with a tile and an empty cell").1
    }
}

/// Every distinct move of the side to move with its immediate margin for
/// the mover, best first (ties in tile kind, then cell order).
#[must_use]
pub fn ordered_moves(pos: &Position) -> Vec<(usize, u8, i32)> {
    let side = pos.to_move();
    let kinds: Vec<u8> = pos.hand_kinds(side).collect();
    let mut moves = Vec::with_capacity(kinds.len() * 64);
    for cell in Cell::in_mask(pos.board.empty()) {
        let around = pos.board.surroundings(cell.index());
        for &tile in &kinds {
            let gain = around.gain(tile);
            moves.push((cell.index(), tile, gain[side] as i32 - gain[1 - side] as i32));
        }
    }
    moves.sort_by_key(|&(cell, tile, margin)| (-margin, tile, cell));
    moves
}

/// The best margin the side to move reaches with one more placement.
fn best_placement(pos: &Position, beta: i32) -> i32 {
    let side = pos.to_move();
    let base = pos.margin(side);
    let mut best = i32::MIN;
    let mut kinds = [0u8; 5];
    let mut n = 0;
    for tile in pos.hand_kinds(side) {
        kinds[n] = tile;
        n += 1;
    }
    if n == 0 {
        return base;
    }
    for cell in Cell::in_mask(pos.board.empty()) {
        let around = pos.board.surroundings(cell.index());
        for &tile in &kinds[..n] {
            let gain = around.gain(tile);
            best = best.max(base + gain[side] as i32 - gain[1 - side] as i32);
        }
        if best >= beta {
            break;
        }
    }
    best
}

/// Negamax with alpha-beta on the margin of the side to move, `depth`
/// placements ahead with no draws.
pub fn negamax(pos: &mut Position, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    let side = pos.to_move();
    if depth == 0 || pos.is_over() || pos.hand_kinds(side).next().is_none() {
        return pos.margin(side);
    }
    if depth == 1 {
        return best_placement(pos, beta);
    }
    let mut best = i32::MIN;
    for (cell, tile, _) in ordered_moves(pos) {
        let undo = pos.place(cell, tile);
        let value = -negamax(pos, depth - 1, -beta, -alpha);
        pos.unplace(&undo);
        best = best.max(value);
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// Depth-3 alpha-beta on the margin.
#[derive(Debug, Default)]
pub struct Minimax3Policy;

impl Policy for Minimax3Policy {
    fn choose(&mut self, state: &State, _side: Side, clock: Clock) -> Move {
        let mut pos = Position::from_state(state);
        let moves = ordered_moves(&pos);
        // A reference level must never lose on time: with a tight clock it
        // keeps the best move found so far (the first is the 1-ply best).
        let own_moves_left = (64 - pos.board.count()).div_ceil(2) as u64;
        let budget = std::time::Duration::from_millis(clock.remaining_ms / (own_moves_left + 2));
        let (mut best_move, mut best) = ((moves[0].0, moves[0].1), i32::MIN);
        for (cell, tile, _) in moves {
            if clock.asked.elapsed() > budget {
                break;
            }
            let undo = pos.place(cell, tile);
            let value = -negamax(&mut pos, 2, i32::MIN + 1, -best.max(i32::MIN + 1));
            pos.unplace(&undo);
            if value > best {
                best = value;
                best_move = (cell, tile);
            }
        }
        position::to_move(best_move.0, best_move.1)
    }
}
