//! How far the solver reaches in a second: positions of greedy play with
//! one random move in four (like the middle games of real games), each
//! given to a fresh engine for a win/loss proof (a null window at the
//! komi) with a deadline of 1 s.
//!
//! `cargo run --release -p versus-domineering --example reach -- [positions per size] [ms] [settings] [sizes]`
//! (settings as in `builtin:strong?sort_exact=28`, sizes as "44,48,52").

use std::time::{Duration, Instant};

use versus_core::{GameRng, Side};
use versus_domineering::agents::{choose, Policy};
use versus_domineering::rules::{Move, State, Values};
use versus_domineering::search::{Engine, Features, STRONG_PARAMS};

/// `strong`'s features with `settings` (`NAME=VALUE&...`), read as the agent's spec is.
fn features(settings: &str) -> Features {
    let values = versus_core::params::values("strong", &STRONG_PARAMS, Some(settings))
        .unwrap_or_else(|error| panic!("{error}"));
    Features::from_params(&values)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number =
        |i: usize, default: u64| args.get(i).map_or(default, |a| a.parse().expect("a number"));
    let per_size = number(0, 10);
    let ms = number(1, 1000);
    let settings = features(args.get(2).map_or("", String::as_str));
    let sizes: Vec<u32> = args.get(3).map_or(vec![40, 42, 44, 46, 48, 50], |list| {
        list.split(',').map(|n| n.parse().expect("a number")).collect()
    });
    let mut engine = Engine::new(&Values::ZERO, 22, settings);
    println!("| empty cells | positions | proved within {ms} ms | mean ms of the proved | max ms of the proved |");
    println!("|---:|---:|---:|---:|---:|");
    for size in sizes {
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
