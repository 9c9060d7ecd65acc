//! The single-player game, for tuning the value function: each round the
//! player sees an offer, gets the block it values more (80% of the time,
//! else the other) and places it; no chips.
//!
//! `cargo run --release -p versus-betris --example solo -- GAMES SEARCH [key=value...]`
//! where SEARCH is how many placements get the lookahead (0: static only,
//! `greedy`: immediate points, `roll:N:M:D`: every placement gets the
//! lookahead, then the best N by it are valued by M sampled futures of D
//! rounds, the same futures for both blocks of an offer) and the keys are
//! fields of `Weights`.

use std::time::Instant;

use versus_betris::referee::draw_offer;
use versus_betris::rules::{Block, Params};
use versus_betris::strong::eval::{Fit, Weights, FEATURES};
use versus_betris::strong::{sample_futures, Planner};
use versus_core::GameRng;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(200);
    let search = args.get(1).cloned().unwrap_or_else(|| "0".into());
    let mut w = Weights::DEFAULT;
    for arg in args.iter().skip(2) {
        let (key, value) = arg.split_once('=').expect("key=value");
        let v: f64 = value.parse().expect("a number");
        match key {
            "hole0" => w.hole[0] = v,
            "hole1" => w.hole[1] = v,
            "hole2" => w.hole[2] = v,
            "dead0" => w.dead[0] = v,
            "dead1" => w.dead[1] = v,
            "dead2" => w.dead[2] = v,
            "cells" => w.cells_per_round = v,
            "sqrate" => w.square_per_round = v,
            "sqmargin" => w.square_margin = v,
            "sqspread" => w.square_spread = v,
            "capspread" => w.cap_spread = v,
            "edge" => w.edge = v,
            _ => panic!("unknown key {key}"),
        }
    }
    let params = Params::LARGE;
    let mut planner = Planner::new(&params, w);
    if std::env::var("SOLO_FITTED").is_ok() {
        planner.evaluator.fit = Some(versus_betris::strong::eval::FITTED.to_vec());
    }
    // `fit:N`: N rounds of play with the static policy, each followed by a
    // least-squares fit of the final points on the value's terms, the next
    // round played with the fitted value.
    let (search, iterations) = match search.strip_prefix("fit:") {
        Some(n) => ("0".to_string(), n.parse().expect("fit:N")),
        None => (search, 1),
    };
    // Pooled over the iterations, so the fit sees the boards of every
    // policy tried and does not swing between two.
    let mut samples: Vec<Vec<([f64; FEATURES], f64)>> = vec![Vec::new(); params.rounds as usize];
    for iteration in 0..iterations {
        let geometry = &planner.evaluator.geometry;
        let start = Instant::now();
        let mut kept_terms = Vec::new();
        let (mut cells, mut squares, mut points) = (0u64, 0u64, 0u64);
        let mut histogram = [0u32; 8];
        // Per rounds-after: (value of the board kept, final points) pairs, to
        // see how well the value function predicts the final score.
        let mut predictions: Vec<Vec<(f64, f64)>> = vec![Vec::new(); params.rounds as usize];
        let mut kept = Vec::new();
        // The same boards valued by the other value (fitted if the policy
        // plays the hand-set one, else hand-set), to compare the two.
        let mut other = planner.evaluator.clone();
        other.fit = match other.fit {
            Some(_) => None,
            None => Some(versus_betris::strong::eval::FITTED.to_vec()),
        };
        let mut other_predictions: Vec<Vec<(f64, f64)>> = vec![Vec::new(); params.rounds as usize];
        let mut other_kept = Vec::new();
        // SOLO_SEED0: the first block sequence, e.g. past the ones fitted on.
        let seed0: u64 = std::env::var("SOLO_SEED0").map_or(0, |s| s.parse().expect("a number"));
        for seed in seed0..seed0 + games {
            let mut offers = GameRng::stream(seed, 0);
            let mut luck = GameRng::stream(seed, 7);
            let mut filled = 0u64;
            for round in 0..params.rounds {
                let offer = draw_offer(params.blocks, &mut offers);
                let rounds_after = params.rounds - round - 1;
                let roll: Option<(usize, usize, u32)> = search.strip_prefix("roll:").map(|spec| {
                    let parts: Vec<&str> = spec.split(':').collect();
                    (
                        parts[0].parse().unwrap(),
                        parts[1].parse().unwrap(),
                        parts[2].parse().unwrap(),
                    )
                });
                let futures = roll.map(|(_, m, _)| {
                    let mut rng = GameRng::stream(seed, 100 + u64::from(round));
                    sample_futures(&params, rounds_after, m, &mut rng)
                });
                let choose = |block: Block| -> (f64, u64) {
                    if search == "greedy" {
                        let best = geometry
                            .placements(filled, block)
                            .map(|m| (f64::from(geometry.points(filled | m)), m))
                            .fold((f64::from(geometry.points(filled)), 0), |a, b| {
                                if b.0 > a.0 {
                                    b
                                } else {
                                    a
                                }
                            });
                        return best;
                    }
                    let mut ranking = planner.rank(filled, block, rounds_after);
                    let mut unlimited = u64::MAX;
                    let far = Instant::now() + std::time::Duration::from_secs(100);
                    if let (Some((n, _, depth)), Some(futures)) = (roll, &futures) {
                        planner.improve(&mut ranking, &mut unlimited, far);
                        ranking.shallow.sort_by(|a, b| b.0.total_cmp(&a.0));
                        ranking.shallow.truncate(n);
                        planner.deepen(&mut ranking, futures, depth, &mut unlimited, far);
                        return ranking.choice();
                    }
                    let n: usize = search.parse().expect("a number");
                    if n > 0 {
                        ranking.candidates.truncate(n);
                        planner.improve(
                            &mut ranking,
                            &mut unlimited,
                            Instant::now() + std::time::Duration::from_secs(10),
                        );
                    }
                    ranking.best
                };
                let a = choose(offer.a);
                let b = choose(offer.b);
                let (better, worse) = if a.0 >= b.0 { (a, b) } else { (b, a) };
                let got = if luck.below(10) < 8 { better } else { worse };
                filled |= got.1;
                kept.push((rounds_after, planner.evaluator.value(filled, rounds_after)));
                other_kept.push((rounds_after, other.value(filled, rounds_after)));
                if rounds_after > 0 {
                    kept_terms.push((rounds_after, planner.evaluator.terms(filled, rounds_after)));
                }
            }
            let board = versus_betris::rules::Board::empty(7).with(filled);
            for (after, value) in kept.drain(..) {
                predictions[after as usize].push((value, f64::from(board.points())));
            }
            for (after, value) in other_kept.drain(..) {
                other_predictions[after as usize].push((value, f64::from(board.points())));
            }
            for (after, terms) in kept_terms.drain(..) {
                samples[after as usize].push((terms, f64::from(board.points())));
            }
            cells += u64::from(board.filled_count());
            squares += u64::from(board.largest_square().pow(2));
            points += u64::from(board.points());
            histogram[board.largest_square() as usize] += 1;
        }
        let g = games as f64;
        println!(
            "games {games} points {:.2} cells {:.2} square {:.2} sides {:?} ({:.1} ms/game)",
            points as f64 / g,
            cells as f64 / g,
            squares as f64 / g,
            histogram,
            start.elapsed().as_secs_f64() * 1000.0 / g
        );
        // Least squares final = a + b * value per rounds-after, and the error
        // of the value itself; R² of the value as it is (1 − SSE/SST).
        let label =
            if planner.evaluator.fit.is_some() { ("fitted", "hand") } else { ("hand", "fitted") };
        for (name, predictions) in [(label.0, &predictions), (label.1, &other_predictions)] {
            println!("value {name}:");
            for (after, pairs) in predictions.iter().enumerate().skip(1) {
                let n = pairs.len() as f64;
                let (mx, my) =
                    pairs.iter().fold((0.0, 0.0), |(x, y), p| (x + p.0 / n, y + p.1 / n));
                let sxx: f64 = pairs.iter().map(|p| (p.0 - mx).powi(2)).sum();
                let sxy: f64 = pairs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
                let syy: f64 = pairs.iter().map(|p| (p.1 - my).powi(2)).sum();
                let sse: f64 = pairs.iter().map(|p| (p.1 - p.0).powi(2)).sum();
                let b = sxy / sxx;
                println!(
                    "rounds after {after:2}: bias {:+.2} rmse {:.2} r2 {:.3} | linear final = {:.2} + {b:.3} v, r2 {:.3}",
                    my - mx,
                    (sse / n).sqrt(),
                    1.0 - sse / syy,
                    my - b * mx,
                    sxy * sxy / (sxx * syy)
                );
            }
        }
        if iterations > 1 {
            let fit = fit_terms(&samples);
            println!("iteration {iteration}: fitted");
            for (after, weights) in fit.iter().enumerate().skip(1) {
                println!("    [{}], // {after}", weights.map(|w| format!("{w:.4}")).join(", "));
            }
            planner.evaluator.fit = Some(fit);
        }
    }
}

/// Least squares of the final points on the terms, per rounds left
/// (normal equations, Gaussian elimination with partial pivoting, a tiny
/// ridge for the terms that never vary, e.g. the square area early).
fn fit_terms(samples: &[Vec<([f64; FEATURES], f64)>]) -> Fit {
    let mut fit = vec![[0.0; FEATURES]; samples.len()];
    for (after, pairs) in samples.iter().enumerate().skip(1) {
        let mut a = [[0.0; FEATURES]; FEATURES];
        let mut b = [0.0; FEATURES];
        for (x, y) in pairs {
            for i in 0..FEATURES {
                b[i] += x[i] * y;
                for j in 0..FEATURES {
                    a[i][j] += x[i] * x[j];
                }
            }
        }
        for (i, row) in a.iter_mut().enumerate() {
            row[i] += 1e-6 * pairs.len() as f64;
        }
        fit[after] = solve(a, b);
        let n = pairs.len() as f64;
        let my = pairs.iter().map(|p| p.1).sum::<f64>() / n;
        let predict =
            |x: &[f64; FEATURES]| x.iter().zip(&fit[after]).map(|(a, b)| a * b).sum::<f64>();
        let sse: f64 = pairs.iter().map(|(x, y)| (y - predict(x)).powi(2)).sum();
        let sst: f64 = pairs.iter().map(|(_, y)| (y - my).powi(2)).sum();
        println!(
            "rounds after {after:2}: fitted r2 {:.3} rmse {:.2}",
            1.0 - sse / sst,
            (sse / n).sqrt()
        );
    }
    fit
}

fn solve(mut a: [[f64; FEATURES]; FEATURES], mut b: [f64; FEATURES]) -> [f64; FEATURES] {
    for col in 0..FEATURES {
        let pivot =
            (col..FEATURES).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs())).unwrap();
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in 0..FEATURES {
            if row != col {
                let f = a[row][col] / a[col][col];
                let pivot_row = a[col];
                for (x, p) in a[row].iter_mut().zip(pivot_row).skip(col) {
                    *x -= f * p;
                }
                b[row] -= f * b[col];
            }
        }
    }
    std::array::from_fn(|i| b[i] / a[i][i])
}
