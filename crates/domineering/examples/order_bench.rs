//! Nodes and time `strong`'s search needs to complete fixed depths, with and
//! without a feature setting, on the same positions (greedy play with one
//! random move in four): a quick check of move ordering.
//!
//! `cargo run --release -p versus-domineering --example order_bench -- [positions] [depth] "history=1"`
//! (depth 255: win/loss proofs at the komi from 44, 40 and 36 empty cells;
//! a fourth argument such as "48,44" sets the sizes).

use std::time::{Duration, Instant};

use versus_core::GameRng;
use versus_domineering::agents::{choose, Policy};
use versus_domineering::rules::{Move, State, Values};
use versus_domineering::search::{Engine, Features, Limits, EXACT, STRONG_PARAMS};

/// `strong`'s features with `settings` (`NAME=VALUE&...`), read as the agent's spec is.
fn features(settings: &str) -> Features {
    let values = versus_core::params::values("strong", &STRONG_PARAMS, Some(settings))
        .unwrap_or_else(|error| panic!("{error}"));
    Features::from_params(&values)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let positions: usize = args.first().map_or(8, |a| a.parse().expect("a number"));
    let depth: u8 = args.get(1).map_or(7, |a| a.parse().expect("a number"));
    let variant = features(args.get(2).map_or("", String::as_str));
    let base = Features::default();
    println!("| empty | base nodes | base ms | variant nodes | variant ms | same move |");
    println!("|---:|---:|---:|---:|---:|---:|");
    // Argument 4 (optional): the sizes, e.g. "48,44".
    let sizes: Vec<u32> = match args.get(3) {
        Some(list) => list.split(',').map(|n| n.parse().expect("a number")).collect(),
        None if depth == EXACT => vec![44, 40, 36],
        None => vec![60, 54, 48],
    };
    for empties in sizes {
        let mut rng = GameRng::new(31);
        let mut totals = [(0u64, 0.0f64); 2];
        let mut same = 0;
        for _ in 0..positions {
            let mut state = State::new(Values::random(&mut rng));
            while state.empty().count_ones() > empties {
                let policy = if rng.below(4) == 0 { Policy::Random } else { Policy::Greedy };
                match choose(policy, &state, &mut rng) {
                    Move::Pass => break,
                    mv => state.play_unchecked(mv),
                }
            }
            let mut moves = Vec::new();
            for (i, features) in [base, variant].into_iter().enumerate() {
                let mut engine = Engine::new(state.values(), 22, features);
                let far = Instant::now() + Duration::from_secs(600);
                let limits = Limits {
                    try_solve: false,
                    solve_deadline: far,
                    soft: far,
                    hard: far,
                    max_depth: depth,
                };
                let start = Instant::now();
                let mut nodes = 0;
                let choice = if depth == EXACT {
                    let limits = Limits { try_solve: true, max_depth: 64, ..limits };
                    engine.choose(&state, &limits)
                } else {
                    engine.choose(&state, &limits)
                };
                nodes += engine.stats.nodes;
                totals[i].0 += nodes;
                totals[i].1 += start.elapsed().as_secs_f64() * 1e3;
                moves.push(choice.mv);
            }
            same += usize::from(moves[0] == moves[1]);
        }
        let n = positions as f64;
        println!(
            "| {empties} | {:.0} | {:.0} | {:.0} | {:.0} | {same}/{positions} |",
            totals[0].0 as f64 / n,
            totals[0].1 / n,
            totals[1].0 as f64 / n,
            totals[1].1 / n
        );
    }
}
