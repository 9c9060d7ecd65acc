//! How far the solver reaches in a second: positions of greedy play with
//! one random move in four (like the middle games of real games), each
//! given to a fresh engine for a win/loss proof (a null window at the
//! komi) with a deadline of 1 s.
//!
//! `cargo run --release -p versus-domineering --example reach -- [positions per size] [ms]`

use std::time::{Duration, Instant};

use versus_core::{GameRng, Side};
use versus_domineering::agents::{choose, Policy};
use versus_domineering::rules::{Move, State, Values};
use versus_domineering::search::{Engine, Features};

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let per_size = args.first().copied().unwrap_or(10);
    let ms = args.get(1).copied().unwrap_or(1000);
    let mut engine = Engine::new(&Values::ZERO, 22, Features::default());
    println!("| empty cells | positions | proved within {ms} ms | mean ms of the proved | max ms of the proved |");
    println!("|---:|---:|---:|---:|---:|");
    for size in [40, 42, 44, 46, 48, 50] {
        let mut rng = GameRng::new(1717);
        let (mut positions, mut proved, mut total, mut longest) = (0, 0, 0.0f64, 0.0f64);
        while positions < per_size {
            let mut state = State::new(Values::random(&mut rng));
            while state.empty().count_ones() > size {
                let policy = if rng.below(4) == 0 { Policy::Random } else { Policy::Greedy };
                match choose(policy, &state, &mut rng) {
                    Move::Pass => break,
                    mv => state.play_unchecked(mv),
                }
            }
            if state.is_over() || state.empty().count_ones() != size {
                continue;
            }
            positions += 1;
            let me = state.side_to_move();
            let lead = state.points(me) as i32 - state.points(me.opponent()) as i32;
            let needed = if me == Side::First { 3 - lead } else { -2 - lead };
            engine.reset(state.values());
            let start = Instant::now();
            let deadline = start + Duration::from_millis(ms);
            if engine.solve(&state, needed - 1, needed, Some(deadline)).is_some() {
                let took = start.elapsed().as_secs_f64() * 1e3;
                proved += 1;
                total += took;
                longest = longest.max(took);
            }
        }
        let mean = if proved > 0 { total / f64::from(proved) } else { 0.0 };
        println!("| {size} | {positions} | {proved} | {mean:.0} | {longest:.0} |");
    }
}
