//! `strong` and `ref-ab` on the same positions, each with its own time
//! rule for the same clock: time spent, depth of the last completed
//! iteration (255 = proved) and whether they chose the same move.
//! Positions come from greedy play with one random move in four.
//!
//! `cargo run --release -p versus-domineering --example compare -- [clock ms] [positions]`

use std::time::Instant;

use versus_core::GameRng;
use versus_domineering::agents::{choose, limits, Policy};
use versus_domineering::ref_ab::RefEngine;
use versus_domineering::rules::{Move, State, Values};
use versus_domineering::search::{Engine, Features};

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).map(|a| a.parse().expect("a number")).collect();
    let clock = args.first().copied().unwrap_or(6000);
    let positions = args.get(1).copied().unwrap_or(6);
    let features = Features::default();
    println!("| empty | strong ms | strong depth | ref-ab ms | ref-ab depth | same move |");
    println!("|---:|---:|---:|---:|---:|---:|");
    for empties in [62, 56, 52, 48, 44, 40] {
        let mut rng = GameRng::new(21);
        let (mut s_ms, mut s_depth, mut r_ms, mut r_depth, mut same) = (0.0, 0.0, 0.0, 0.0, 0);
        for _ in 0..positions {
            let mut state = State::new(Values::random(&mut rng));
            while state.empty().count_ones() > empties {
                let policy = if rng.below(4) == 0 { Policy::Random } else { Policy::Greedy };
                match choose(policy, &state, &mut rng) {
                    Move::Pass => break,
                    mv => state.play_unchecked(mv),
                }
            }
            let mut strong = Engine::new(state.values(), 22, features);
            let start = Instant::now();
            let choice = strong.choose(&state, &limits(&state, clock, start, &features));
            s_ms += start.elapsed().as_secs_f64() * 1e3;
            s_depth += f64::from(choice.depth);
            let mut reference = RefEngine::new(state.values());
            let start = Instant::now();
            let mv = reference.choose(&state, clock, start);
            r_ms += start.elapsed().as_secs_f64() * 1e3;
            r_depth += f64::from(reference.stats().1);
            same += u32::from(mv == choice.mv);
        }
        let n = positions as f64;
        println!(
            "| {empties} | {:.0} | {:.1} | {:.0} | {:.1} | {same}/{positions} |",
            s_ms / n,
            s_depth / n,
            r_ms / n,
            r_depth / n
        );
    }
}
