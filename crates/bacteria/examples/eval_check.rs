//! How well each static evaluation predicts game results on a file of
//! `examples/datagen.rs` records (use positions the network was not trained
//! on, e.g. `datagen --seed 99`).
//!
//! ```sh
//! cargo run --release -p versus-bacteria --example eval_check -- --data /tmp/check.data [--net FILE]
//! ```
//!
//! For the hand-written evaluation (`Weights::TUNED`), the network (the
//! embedded one, or `--net`) and the records' search scores: the mean squared
//! error of `sigmoid(eval / K)` against the result (1, 1/2, 0) with the best
//! `K`, and the mean absolute value of the evaluation.

use versus_bacteria::data::parse_all;
use versus_bacteria::nnue::{embedded, Network};
use versus_bacteria::search::{evaluate, Position, Weights};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |name: &str| args.iter().position(|a| a == name).map(|at| args[at + 1].clone());
    let data = value("--data").expect("--data FILE");
    let samples = parse_all(&std::fs::read(&data).expect("--data")).expect("a valid data file");
    let owned;
    let net: &Network = match value("--net") {
        Some(path) => {
            owned = Network::from_bytes(&std::fs::read(path).expect("--net")).expect("a network");
            &owned
        }
        None => embedded(),
    };
    let mut rows: [(&str, Vec<f64>); 3] =
        [("hand-written", vec![]), ("network", vec![]), ("search score", vec![])];
    let mut results = vec![];
    for s in &samples {
        let state = s.state().expect("valid");
        let pos = Position::from_state(&state);
        rows[0].1.push(f64::from(evaluate(&pos, &Weights::TUNED)));
        let acc = net.refresh(s.pieces);
        rows[1].1.push(f64::from(net.evaluate(&acc, usize::from(s.stm))));
        rows[2].1.push(f64::from(s.score.clamp(-3000, 3000)));
        results.push((f64::from(s.result) + 1.0) / 2.0);
    }
    println!("{} positions from {data}", samples.len());
    for (name, evals) in &rows {
        let loss = |k: f64| {
            evals
                .iter()
                .zip(&results)
                .map(|(e, r)| (1.0 / (1.0 + (-e / k).exp()) - r).powi(2))
                .sum::<f64>()
                / evals.len() as f64
        };
        let (k, best) = (1..=100)
            .map(|i| f64::from(i) * 50.0)
            .map(|k| (k, loss(k)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .expect("some K");
        let mean_abs = evals.iter().map(|e| e.abs()).sum::<f64>() / evals.len() as f64;
        println!("{name:>14}: loss {best:.5} at K {k:.0}, mean |eval| {mean_abs:.0}");
    }
}
