//! How long the exact solver takes, by number of empty cells:
//! `cargo run --release -p versus-domineering --example solver_bench [positions per size] [largest size] [nosplit] [nobounds]`.
//!
//! Positions come from random placements (no passes) on random values, the
//! way the issue asks, and from greedy play (random tie-breaks), whose end
//! games keep more cells contested. Each is solved twice from an empty
//! table: for the exact final score difference (full window) and for the
//! result alone (a null window at the komi).

use std::time::{Duration, Instant};

use versus_core::{GameRng, Side};
use versus_domineering::agents::{choose, Policy};
use versus_domineering::rules::{Move, State, Values};
use versus_domineering::search::{Engine, Features};

fn position(rng: &mut GameRng, empties: u32, policy: Policy) -> Option<State> {
    let mut state = State::new(Values::random(rng));
    while state.empty().count_ones() > empties {
        match choose(policy, &state, rng) {
            Move::Pass => return None,
            mv => state.play_unchecked(mv),
        }
    }
    (!state.is_over()).then_some(state)
}

fn main() {
    let words: Vec<String> = std::env::args().skip(1).collect();
    let split = !words.iter().any(|w| w == "nosplit");
    let bounds = !words.iter().any(|w| w == "nobounds");
    let args: Vec<u32> = words.iter().filter_map(|a| a.parse().ok()).collect();
    let per_size = args.first().copied().unwrap_or(50);
    let largest = args.get(1).copied().unwrap_or(28);
    let features = Features { split, bounds, ..Features::default() };
    println!("| play | empty cells | positions | exact: mean ms | max ms | mean nodes | win/loss: mean ms | max ms |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (name, policy) in [("random", Policy::Random), ("greedy", Policy::Greedy)] {
        let mut rng = GameRng::new(2024);
        let mut engine = Engine::new(&Values::ZERO, 22, features);
        for empties in (16..=largest).step_by(2) {
            let mut exact = Vec::new();
            let mut nodes = 0;
            let mut result = Vec::new();
            while exact.len() < per_size as usize {
                let Some(state) = position(&mut rng, empties, policy) else { continue };
                engine.reset(state.values());
                let start = Instant::now();
                engine.solve(&state, -1000, 1000, None).expect("no deadline");
                exact.push(start.elapsed());
                nodes += engine.stats.nodes;
                engine.clear();
                let me = state.side_to_move();
                let lead = state.points(me) as i32 - state.points(me.opponent()) as i32;
                let needed = if me == Side::First { 3 - lead } else { -2 - lead };
                let start = Instant::now();
                engine.solve(&state, needed - 1, needed, None).expect("no deadline");
                result.push(start.elapsed());
            }
            let ms = |d: &Duration| d.as_secs_f64() * 1e3;
            let mean = |v: &[Duration]| v.iter().map(ms).sum::<f64>() / v.len() as f64;
            let max = |v: &[Duration]| v.iter().map(ms).fold(0.0, f64::max);
            println!(
                "| {name} | {empties} | {} | {:.2} | {:.1} | {} | {:.2} | {:.1} |",
                exact.len(),
                mean(&exact),
                max(&exact),
                nodes / exact.len() as u64,
                mean(&result),
                max(&result),
            );
        }
    }
}
