//! Nodes per second and depth reached by `strong`'s search on positions of
//! greedy play, for a fixed time per move:
//! `cargo run --release -p versus-domineering --example search_speed [ms per move] [positions]`.

use std::time::{Duration, Instant};

use versus_core::GameRng;
use versus_domineering::agents::{choose, Policy};
use versus_domineering::rules::{Move, State, Values};
use versus_domineering::search::{Engine, Features, Limits, EXACT};

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).map(|a| a.parse().expect("a number")).collect();
    let ms = args.first().copied().unwrap_or(100);
    let positions = args.get(1).copied().unwrap_or(10);
    let mut engine = Engine::new(&Values::ZERO, 22, Features::default());
    println!("| empty cells | positions | depth (mean) | proved | nodes/s | longest ms |");
    println!("|---:|---:|---:|---:|---:|---:|");
    for empties in [64, 56, 48, 40, 36, 32] {
        let mut rng = GameRng::new(7);
        let (mut depth, mut proved, mut won, mut nodes, mut seconds) = (0.0, 0, 0, 0, 0.0);
        let mut longest: f64 = 0.0;
        for _ in 0..positions {
            let mut state = State::new(Values::random(&mut rng));
            while state.empty().count_ones() > empties {
                match choose(Policy::Greedy, &state, &mut rng) {
                    Move::Pass => break,
                    mv => state.play_unchecked(mv),
                }
            }
            engine.reset(state.values());
            let start = Instant::now();
            let end = start + Duration::from_millis(ms);
            let limits = Limits {
                try_solve: empties <= 40,
                solve_deadline: start + Duration::from_millis(ms / 2),
                soft: end,
                hard: end,
                max_depth: 64,
            };
            let choice = engine.choose(&state, &limits);
            seconds += start.elapsed().as_secs_f64();
            longest = longest.max(start.elapsed().as_secs_f64() * 1e3);
            nodes += engine.stats.nodes;
            if choice.proved.is_some() {
                proved += 1;
            }
            if choice.depth == EXACT {
                won += 1;
            } else {
                depth += f64::from(choice.depth);
            }
        }
        let searched = (positions - won).max(1) as f64;
        println!(
            "| {empties} | {positions} | {:.1} | {proved} | {:.2} M | {longest:.1} |",
            depth / searched,
            nodes as f64 / seconds / 1e6
        );
    }
}
