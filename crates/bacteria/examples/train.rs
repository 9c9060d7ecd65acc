//! Trains the learned evaluation ([`versus_bacteria::nnue`]) on the CPU from
//! the records of `examples/datagen.rs`, reproducibly (fixed seed, one
//! thread).
//!
//! ```sh
//! cargo run --release -p versus-bacteria --example train -- \
//!     --data /tmp/bw.data --out crates/bacteria/nets/bw-2x2-64.bin \
//!     [--epochs 8] [--lambda 0.5] [--lr 0.002] [--batch 4096] [--seed 1]
//! ```
//!
//! Hand-written (no crate): the network is one sparse layer and one dot
//! product, so forward and backward passes are a few loops over rows of 64
//! floats. The target of a position is `lambda * result + (1 - lambda) *
//! sigmoid(score / scale)` (result 1, 1/2, 0 for the side to move), where
//! `scale` is fitted first so that `sigmoid(score / scale)` predicts the
//! results best; the loss is the squared error of `sigmoid(logit)`. Adam,
//! mini-batches, the learning rate divided by 10 for the last fifth of the
//! epochs; each position is seen in a random one of the board's 8 symmetries
//! each epoch. 1% of the positions (after a seeded shuffle) are held out and
//! their loss printed after each epoch, with the quantised network's at the
//! end.

use std::time::Instant;

use versus_bacteria::data::{parse_all, Sample};
use versus_bacteria::nnue::{active_features, FloatNet, FEATURES, HIDDEN, QA, WINDOWS};
use versus_core::GameRng;

fn arg<T: std::str::FromStr>(args: &[String], name: &str, default: Option<T>) -> T {
    match args.iter().position(|a| a == name) {
        Some(at) => args
            .get(at + 1)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{name} takes a value")),
        None => default.unwrap_or_else(|| panic!("{name} is required")),
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The cell `(r, c)` maps to under symmetry `s` (0..8) of the 7x7 board.
fn map_cell(s: usize, r: usize, c: usize) -> usize {
    let (r, c) = match s {
        0 => (r, c),
        1 => (c, 6 - r),
        2 => (6 - r, 6 - c),
        3 => (6 - c, r),
        4 => (r, 6 - c),
        5 => (6 - r, c),
        6 => (c, r),
        _ => (6 - c, 6 - r),
    };
    r * 7 + c
}

struct Symmetries([[usize; 49]; 8]);

impl Symmetries {
    fn new() -> Symmetries {
        let mut maps = [[0; 49]; 8];
        for (s, map) in maps.iter_mut().enumerate() {
            for (cell, to) in map.iter_mut().enumerate() {
                *to = map_cell(s, cell / 7, cell % 7);
            }
        }
        Symmetries(maps)
    }

    fn apply(&self, s: usize, mut bits: u64) -> u64 {
        let mut out = 0;
        while bits != 0 {
            out |= 1 << self.0[s][bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        out
    }
}

/// One prepared example: the inputs of both points of view and the target.
struct Example {
    own: [u16; WINDOWS],
    other: [u16; WINDOWS],
    target: f32,
}

fn example(sample: &Sample, pieces: [u64; 2], scale: f32, lambda: f32) -> Example {
    let stm = usize::from(sample.stm);
    let result = (f32::from(sample.result) + 1.0) / 2.0;
    let target = lambda * result + (1.0 - lambda) * sigmoid(f32::from(sample.score) / scale);
    Example { own: active_features(pieces, stm), other: active_features(pieces, stm ^ 1), target }
}

/// The float network's forward pass on one example: hidden pre-activations
/// of both views and the logit.
fn forward(
    net: &FloatNet,
    ex: &Example,
    a_own: &mut [f32; HIDDEN],
    a_other: &mut [f32; HIDDEN],
) -> f32 {
    a_own.copy_from_slice(&net.b1);
    a_other.copy_from_slice(&net.b1);
    for &f in &ex.own {
        let row = &net.w1[usize::from(f) * HIDDEN..][..HIDDEN];
        a_own.iter_mut().zip(row).for_each(|(a, w)| *a += w);
    }
    for &f in &ex.other {
        let row = &net.w1[usize::from(f) * HIDDEN..][..HIDDEN];
        a_other.iter_mut().zip(row).for_each(|(a, w)| *a += w);
    }
    let mut z = net.b2;
    for i in 0..HIDDEN {
        z += a_own[i].clamp(0.0, 1.0) * net.w2[i] + a_other[i].clamp(0.0, 1.0) * net.w2[HIDDEN + i];
    }
    z
}

struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam { m: vec![0.0; n], v: vec![0.0; n] }
    }

    fn step(&mut self, params: &mut [f32], grads: &[f32], lr: f32, t: i32, clip: f32) {
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        let c1 = 1.0 - b1.powi(t);
        let c2 = 1.0 - b2.powi(t);
        for i in 0..params.len() {
            let g = grads[i];
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * g;
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * g * g;
            let update = lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + eps);
            params[i] = (params[i] - update).clamp(-clip, clip);
        }
    }
}

#[allow(clippy::too_many_lines)]
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let data: String = arg(&args, "--data", None);
    let out: String = arg(&args, "--out", None);
    let epochs: usize = arg(&args, "--epochs", Some(8));
    let lambda: f32 = arg(&args, "--lambda", Some(0.5));
    let lr: f32 = arg(&args, "--lr", Some(0.002));
    let batch: usize = arg(&args, "--batch", Some(4096));
    let seed: u64 = arg(&args, "--seed", Some(1));
    let started = Instant::now();

    let mut samples = Vec::new();
    for path in data.split(',') {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        samples.extend(parse_all(&bytes).unwrap_or_else(|i| panic!("{path}: bad record {i}")));
    }
    let mut rng = GameRng::new(seed);
    rng.shuffle(&mut samples);
    let held = (samples.len() / 100).max(1);
    let (valid, train) = samples.split_at(held);
    eprintln!("{} positions ({} held out) from {data}", samples.len(), valid.len());

    // The scale that makes sigmoid(score / scale) the best predictor of the
    // results (coarse, then fine).
    let fit = |scale: f32| -> f32 {
        train
            .iter()
            .step_by(7)
            .map(|s| {
                let r = (f32::from(s.result) + 1.0) / 2.0;
                (sigmoid(f32::from(s.score) / scale) - r).powi(2)
            })
            .sum()
    };
    let mut scale = 100.0f32;
    for step in [100.0f32, 20.0, 5.0] {
        let mut best = (fit(scale), scale);
        let mut s = (scale - 10.0 * step).max(step);
        while s <= scale + 10.0 * step {
            let loss = fit(s);
            if loss < best.0 {
                best = (loss, s);
            }
            s += step;
        }
        scale = best.1;
    }
    if scale < 100.0 {
        // Search by widening from the start if the first pass hit its edge.
        scale = (50..=3000)
            .step_by(25)
            .map(|s| (fit(s as f32), s))
            .fold((f32::MAX, 0), |a, b| if b.0 < a.0 { b } else { a })
            .1 as f32;
    }
    eprintln!("scale {scale} (search units per unit of logit)");

    let symmetries = Symmetries::new();
    let valid: Vec<Example> = valid.iter().map(|s| example(s, s.pieces, scale, lambda)).collect();

    let mut net = FloatNet::zeros(scale);
    let mut uniform = |a: f32| (rng.below(2_000_001) as f32 / 1_000_000.0 - 1.0) * a;
    net.w1.iter_mut().for_each(|x| *x = uniform(0.1));
    net.b1.iter_mut().for_each(|x| *x = 0.25 + uniform(0.1));
    net.w2.iter_mut().for_each(|x| *x = uniform(0.2));
    // An accumulator sums 37 rows; keeping each weight within this bound
    // keeps it within i16 once multiplied by QA.
    let clip1 = 32_000.0 / (QA as f32 * 37.0);
    let (mut g_w1, mut g_b1, mut g_w2) =
        (vec![0.0f32; FEATURES * HIDDEN], vec![0.0f32; HIDDEN], vec![0.0f32; 2 * HIDDEN]);
    let (mut adam_w1, mut adam_b1, mut adam_w2, mut adam_b2) =
        (Adam::new(FEATURES * HIDDEN), Adam::new(HIDDEN), Adam::new(2 * HIDDEN), Adam::new(1));
    let mut t = 0;
    let loss_of = |net: &FloatNet, examples: &[Example]| -> f64 {
        let (mut a, mut b) = ([0.0; HIDDEN], [0.0; HIDDEN]);
        examples
            .iter()
            .map(|ex| f64::from((sigmoid(forward(net, ex, &mut a, &mut b)) - ex.target).powi(2)))
            .sum::<f64>()
            / examples.len() as f64
    };
    eprintln!("epoch 0: held-out loss {:.5}", loss_of(&net, &valid));
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    for epoch in 1..=epochs {
        let epoch_start = Instant::now();
        let rate = if epoch * 5 > epochs * 4 { lr / 10.0 } else { lr };
        rng.shuffle(&mut order);
        let mut train_loss = 0.0f64;
        for chunk in order.chunks(batch) {
            g_w1.iter_mut().for_each(|g| *g = 0.0);
            g_b1.iter_mut().for_each(|g| *g = 0.0);
            g_w2.iter_mut().for_each(|g| *g = 0.0);
            let mut g_b2 = 0.0f32;
            let (mut a_own, mut a_other) = ([0.0f32; HIDDEN], [0.0f32; HIDDEN]);
            for &i in chunk {
                let s = &train[i as usize];
                let sym = rng.below(8) as usize;
                let pieces =
                    [symmetries.apply(sym, s.pieces[0]), symmetries.apply(sym, s.pieces[1])];
                let ex = example(s, pieces, scale, lambda);
                let z = forward(&net, &ex, &mut a_own, &mut a_other);
                let p = sigmoid(z);
                train_loss += f64::from((p - ex.target).powi(2));
                let g = 2.0 * (p - ex.target) * p * (1.0 - p);
                g_b2 += g;
                let mut d_own = [0.0f32; HIDDEN];
                let mut d_other = [0.0f32; HIDDEN];
                for u in 0..HIDDEN {
                    let (ao, at) = (a_own[u], a_other[u]);
                    g_w2[u] += g * ao.clamp(0.0, 1.0);
                    g_w2[HIDDEN + u] += g * at.clamp(0.0, 1.0);
                    if ao > 0.0 && ao < 1.0 {
                        d_own[u] = g * net.w2[u];
                    }
                    if at > 0.0 && at < 1.0 {
                        d_other[u] = g * net.w2[HIDDEN + u];
                    }
                    g_b1[u] += d_own[u] + d_other[u];
                }
                for &f in &ex.own {
                    let row = &mut g_w1[usize::from(f) * HIDDEN..][..HIDDEN];
                    row.iter_mut().zip(&d_own).for_each(|(r, d)| *r += d);
                }
                for &f in &ex.other {
                    let row = &mut g_w1[usize::from(f) * HIDDEN..][..HIDDEN];
                    row.iter_mut().zip(&d_other).for_each(|(r, d)| *r += d);
                }
            }
            let n = chunk.len() as f32;
            g_w1.iter_mut().for_each(|g| *g /= n);
            g_b1.iter_mut().for_each(|g| *g /= n);
            g_w2.iter_mut().for_each(|g| *g /= n);
            t += 1;
            adam_w1.step(&mut net.w1, &g_w1, rate, t, clip1);
            adam_b1.step(&mut net.b1, &g_b1, rate, t, clip1);
            adam_w2.step(&mut net.w2, &g_w2, rate, t, 500.0);
            let mut b2 = [net.b2];
            adam_b2.step(&mut b2, &[g_b2 / n], rate, t, 100.0);
            net.b2 = b2[0];
        }
        eprintln!(
            "epoch {epoch}: train loss {:.5}, held-out loss {:.5}, lr {rate}, {:.1} s ({:.0} positions/s)",
            train_loss / train.len() as f64,
            loss_of(&net, &valid),
            epoch_start.elapsed().as_secs_f64(),
            train.len() as f64 / epoch_start.elapsed().as_secs_f64()
        );
    }
    // The quantised network's loss on the held-out positions.
    let quantised = net.quantise();
    let q_loss = valid
        .iter()
        .zip(samples.iter())
        .map(|(ex, s)| {
            let stm = usize::from(s.stm);
            let acc = quantised.refresh(s.pieces);
            let z = quantised.evaluate(&acc, stm) as f32 / scale;
            f64::from((sigmoid(z) - ex.target).powi(2))
        })
        .sum::<f64>()
        / valid.len() as f64;
    eprintln!("quantised held-out loss {q_loss:.5}");
    std::fs::write(&out, quantised.to_bytes()).unwrap_or_else(|e| panic!("{out}: {e}"));
    eprintln!("wrote {out} in {:.1} s in all", started.elapsed().as_secs_f64());
}
