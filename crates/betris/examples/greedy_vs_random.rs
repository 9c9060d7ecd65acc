//! Greedy against random, both seats, seeds 0..N (default 500):
//! `cargo run --release -p versus-betris --example greedy_vs_random -- 500`.

use versus_betris::GAME;
use versus_core::conformance::{config, play_builtin};
use versus_core::{BySide, Side};

fn main() {
    let games: u64 = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(500);
    let mut points = 0.0;
    let mut score_sum = BySide::new(0.0, 0.0);
    for seed in 0..games {
        for greedy_seat in Side::BOTH {
            let mut seats = BySide::new(("random", seed), ("random", seed));
            seats[greedy_seat] = ("greedy", seed);
            let (outcome, _) = play_builtin(&GAME, &config(seed), seats);
            points += outcome.result.points(greedy_seat);
            score_sum.first += outcome.scores[greedy_seat];
            score_sum.second += outcome.scores[greedy_seat.opponent()];
        }
    }
    let played = (2 * games) as f64;
    println!(
        "greedy vs random, {} games: greedy scored {:.1}% of the points; mean score {:.2} vs {:.2}",
        2 * games,
        100.0 * points / played,
        score_sum.first / played,
        score_sum.second / played
    );
}
