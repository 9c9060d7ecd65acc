//! Search speed of the strong agent: nodes per second and the depth reached
//! over the positions of a few self-play games at a fixed time per move.
//!
//! `cargo run --release -p versus-connexion --example connexion_speed -- [ms per move] [games] [width]`

use std::time::{Duration, Instant};

use versus_connexion::position::{self, Position};
use versus_connexion::rules::{State, Tile};
use versus_connexion::strong::{Params, StrongPolicy};
use versus_core::{BySide, GameRng};

fn main() {
    let mut args = std::env::args().skip(1);
    let ms: u64 = args.next().map_or(300, |a| a.parse().expect("ms per move"));
    let games: u64 = args.next().map_or(2, |a| a.parse().expect("games"));
    let width: usize = args.next().map_or(10, |a| a.parse().expect("width"));
    let mut policy = StrongPolicy::new(Params { width, ..Params::default() });
    let mut rng = GameRng::new(7);
    let (mut nodes, mut thinking, mut moves) = (0u64, Duration::ZERO, 0u64);
    let mut slowest = Duration::ZERO;
    // Per quarter of the game: moves, summed depth.
    let mut by_quarter = [(0u64, 0u64); 4];
    for _ in 0..games {
        let orders = BySide::from_fn(|_| {
            let mut order: [Tile; 32] = std::array::from_fn(|i| Tile::ALL[i % 16]);
            rng.shuffle(&mut order);
            order
        });
        let mut state = State::new(orders);
        while !state.is_over() {
            let pos = Position::from_state(&state);
            let turn = pos.board.count();
            let start = Instant::now();
            let (cell, tile) = policy.search(&pos, start, Duration::from_millis(ms));
            slowest = slowest.max(start.elapsed());
            let stats = policy.last;
            thinking += stats.elapsed;
            nodes += stats.nodes;
            moves += 1;
            by_quarter[turn / 16].0 += 1;
            by_quarter[turn / 16].1 += u64::from(stats.depth);
            state.play(position::to_move(cell, tile)).expect("a legal move");
        }
    }
    let secs = thinking.as_secs_f64();
    println!(
        "{moves} moves, {:.1} ms/move (slowest {:.1} ms), {nodes} nodes, {:.0} nodes/s",
        1000.0 * secs / moves as f64,
        slowest.as_secs_f64() * 1000.0,
        nodes as f64 / secs
    );
    for (i, (m, depth)) in by_quarter.iter().enumerate() {
        println!(
            "turns {:2}-{:2}: mean depth {:.1}",
            16 * i,
            16 * i + 15,
            *depth as f64 / (*m).max(1) as f64
        );
    }
}
