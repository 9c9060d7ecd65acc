//! Fits the evaluation's weights to game results (logistic regression on
//! self-play positions, the method Texel tuning made common).
//!
//! `cargo run --release -p versus-bacteria --example tune_eval -- --games 400`
//! plays that many games of the searcher against itself at a node budget per
//! move (each from a different random opening of 2-4 plies), labels every
//! position with the game's result for the side to move, and fits
//! `sigmoid(w · features)` where the features are the evaluation's terms, each
//! split into an opening and an ending part by the share of empty cells, plus
//! a constant (tempo). Weights are printed scaled so that a piece in the
//! opening is worth 100.

use versus_bacteria::search::{features, Config, Limits, Position, Searcher};
use versus_bacteria::State;
use versus_core::{GameRng, Side};

const TERMS: usize = 3;
const WEIGHTS: usize = 2 * TERMS + 1;

fn inputs(state: &State) -> [f64; WEIGHTS] {
    let position = Position::from_state(state);
    let f = features(&position);
    let opening = f64::from(position.empties()) / 45.0;
    let mut x = [0.0; WEIGHTS];
    for t in 0..TERMS {
        x[t] = f64::from(f[t]) * opening;
        x[TERMS + t] = f64::from(f[t]) * (1.0 - opening);
    }
    x[2 * TERMS] = 1.0;
    x
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str, default: u64| {
        args.iter().position(|a| a == name).map_or(default, |at| args[at + 1].parse().unwrap())
    };
    let games = arg("--games", 400);
    let nodes = arg("--nodes", 20_000);
    let mut rng = GameRng::new(arg("--seed", 1));
    // Futility pruning off, as when the weights were fitted.
    let mut searcher = Searcher::new(Config { nnue: false, futility_margin: 0, ..Config::STRONG });
    let mut data: Vec<([f64; WEIGHTS], f64)> = Vec::new();
    let (mut first_wins, mut draws) = (0, 0);
    for game in 0..games {
        searcher.clear();
        let mut state = State::start();
        let opening = 2 + rng.below(3);
        let mut positions = Vec::new();
        while !state.is_over() {
            let mv = if u64::from(state.turns()) < opening {
                let moves = state.legal_moves();
                moves[rng.below(moves.len() as u64) as usize]
            } else {
                positions.push(state);
                let limits = Limits { nodes, ..Limits::depth(64) };
                searcher.search(&state, limits).best
            };
            state.play(mv).unwrap();
        }
        let counts = state.counts();
        let first_score = match counts.first.cmp(&counts.second) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        };
        if first_score == 1.0 {
            first_wins += 1;
        } else if first_score == 0.5 {
            draws += 1;
        }
        for position in positions {
            let label = if position.side_to_move() == Side::First {
                first_score
            } else {
                1.0 - first_score
            };
            data.push((inputs(&position), label));
        }
        if (game + 1) % 50 == 0 {
            eprintln!("{} games, {} positions", game + 1, data.len());
        }
    }
    eprintln!("first player wins {first_wins}, draws {draws} of {games}");

    // Plain gradient descent with momentum on the mean log loss.
    let mut w = [0.0f64; WEIGHTS];
    w[0] = 0.5;
    w[TERMS] = 0.5;
    let mut velocity = [0.0f64; WEIGHTS];
    let n = data.len() as f64;
    for step in 0..4000 {
        let mut grad = [0.0f64; WEIGHTS];
        let mut loss = 0.0;
        for (x, y) in &data {
            let z: f64 = w.iter().zip(x).map(|(a, b)| a * b).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            loss -= y * p.max(1e-12).ln() + (1.0 - y) * (1.0 - p).max(1e-12).ln();
            for k in 0..WEIGHTS {
                grad[k] += (p - y) * x[k];
            }
        }
        for k in 0..WEIGHTS {
            velocity[k] = 0.9 * velocity[k] - 0.05 * grad[k] / n;
            w[k] += velocity[k];
        }
        if step % 1000 == 0 {
            eprintln!("step {step}: loss {:.5}", loss / n);
        }
    }
    let scale = 100.0 / w[0];
    let names = ["material", "safe", "mobility"];
    for t in 0..TERMS {
        println!(
            "{:>9}: opening {:>6.1} ending {:>6.1}",
            names[t],
            w[t] * scale,
            w[TERMS + t] * scale
        );
    }
    println!("    tempo: {:.1}", w[2 * TERMS] * scale);
}
