//! Scoring speed: incremental updates (place, undo, gain of a candidate)
//! against scoring the board from scratch.
//!
//! `cargo bench -p versus-connexion --bench scoring`

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use versus_connexion::rules::{scores_from_scratch, Board, Cell, Move, State, Tile};
use versus_core::{BySide, GameRng};

fn main() {
    divan::main();
}

const GAMES: usize = 64;

/// The moves of `GAMES` random complete games.
fn random_games() -> Vec<Vec<Move>> {
    let mut rng = GameRng::new(1);
    (0..GAMES)
        .map(|_| {
            let orders = BySide::from_fn(|_| {
                let mut order: [Tile; 32] = std::array::from_fn(|i| Tile::ALL[i % 16]);
                rng.shuffle(&mut order);
                order
            });
            let mut state = State::new(orders);
            let mut moves = Vec::new();
            while state.side_to_move().is_some() {
                let legal = state.legal_moves();
                let mv = legal[rng.below(legal.len() as u64) as usize];
                state.play(mv).unwrap();
                moves.push(mv);
            }
            moves
        })
        .collect()
}

/// Placing a tile with both scores updated.
#[divan::bench]
fn incremental_place(bencher: Bencher) {
    let games = random_games();
    bencher.counter(ItemsCount::new(GAMES * 64)).bench(|| {
        let mut total = 0;
        for moves in &games {
            let mut board = Board::new();
            for mv in moves {
                board.place(mv.cell, mv.tile);
            }
            total += board.scores().first;
        }
        black_box(total)
    });
}

/// Placing and then removing every tile: two updates a tile.
#[divan::bench]
fn incremental_place_and_undo(bencher: Bencher) {
    let games = random_games();
    bencher.counter(ItemsCount::new(GAMES * 64 * 2)).bench(|| {
        let mut total = 0;
        for moves in &games {
            let mut board = Board::new();
            for mv in moves {
                board.place(mv.cell, mv.tile);
            }
            for mv in moves.iter().rev() {
                board.remove(mv.cell);
            }
            total += board.scores().second;
        }
        black_box(total)
    });
}

/// The gain of every (tile, empty cell) candidate, as greedy evaluates them,
/// on the board after each turn of the games.
#[divan::bench]
fn gain_of_candidates(bencher: Bencher) {
    let games = random_games();
    let boards: Vec<Board> = games
        .iter()
        .flat_map(|moves| {
            let mut board = Board::new();
            moves.iter().map(move |mv| {
                board.place(mv.cell, mv.tile);
                board.clone()
            })
        })
        .filter(|b| b.count() < 64)
        .collect();
    let candidates: usize = boards.iter().map(|b| 16 * (64 - b.count())).sum();
    bencher.counter(ItemsCount::new(candidates)).bench(|| {
        let mut total = 0;
        for board in &boards {
            for tile in Tile::ALL {
                for cell in Cell::in_mask(board.empty()) {
                    total += board.score_gain(cell, tile).first;
                }
            }
        }
        black_box(total)
    });
}

/// Both scores from scratch after each placement, for comparison.
#[divan::bench]
fn from_scratch(bencher: Bencher) {
    let games = random_games();
    bencher.counter(ItemsCount::new(GAMES * 64)).bench(|| {
        let mut total = 0;
        for moves in &games {
            let mut cells = [None; 64];
            for mv in moves {
                cells[mv.cell.index()] = Some(mv.tile);
                total += scores_from_scratch(black_box(&cells)).first;
            }
        }
        black_box(total)
    });
}
