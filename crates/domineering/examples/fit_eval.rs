//! How well `strong`'s evaluation predicts exact values: positions of
//! greedy play with random moves mixed in, solved exactly, and the
//! evaluation's terms fitted to them by least squares.
//!
//! `cargo run --release -p versus-domineering --example fit_eval -- [positions per size] [sizes...]`
//!
//! Terms, all for the side to move, in points: `safe` (safe packings,
//! mine minus theirs), `rest` (what each could add beyond them, mine minus
//! theirs), `tempo` (the best placement now) and a constant. `strong` uses
//! 1, 1/2, 1/2, 0.

use versus_core::GameRng;
use versus_domineering::agents::{choose, Policy};
use versus_domineering::rules::{Cell, Move, State, Values};
use versus_domineering::search::{Engine, Features};

fn position(rng: &mut GameRng, empties: u32) -> Option<State> {
    let mut state = State::new(Values::random(rng));
    while state.empty().count_ones() > empties {
        let policy = if rng.below(4) == 0 { Policy::Random } else { Policy::Greedy };
        match choose(policy, &state, rng) {
            Move::Pass => return None,
            mv => state.play_unchecked(mv),
        }
    }
    (!state.is_over()).then_some(state)
}

/// The number of terms fitted.
const TERMS: usize = 6;

/// Solves `a x = b` by Gaussian elimination.
fn solve(mut a: [[f64; TERMS]; TERMS], mut b: [f64; TERMS]) -> [f64; TERMS] {
    for col in 0..TERMS {
        let pivot =
            (col..TERMS).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs())).unwrap();
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in 0..TERMS {
            if row != col {
                let f = a[row][col] / a[col][col];
                let pivot_row = a[col];
                for (x, p) in a[row].iter_mut().zip(pivot_row) {
                    *x -= f * p;
                }
                b[row] -= f * b[col];
            }
        }
    }
    std::array::from_fn(|i| b[i] / a[i][i])
}

fn main() {
    let args: Vec<u32> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let per_size = args.first().copied().unwrap_or(200);
    let sizes: Vec<u32> = if args.len() > 1 { args[1..].to_vec() } else { vec![26, 28, 30, 32] };
    let mut rng = GameRng::new(77);
    let mut engine = Engine::new(&Values::ZERO, 20, Features::default());
    println!("| empty cells | positions | rms error, strong's weights | rms error, fitted (4 terms) | fitted safe | rest | tempo | constant | rms error, 6 terms | their best move | mobility |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for &size in &sizes {
        let mut rows: Vec<([f64; TERMS], f64)> = Vec::new();
        while rows.len() < per_size as usize {
            let Some(state) = position(&mut rng, size) else { continue };
            engine.reset(state.values());
            let exact = engine.solve(&state, -1000, 1000, None).expect("no deadline");
            let me = state.side_to_move();
            let (p, o) = (me.index(), me.opponent().index());
            let (safe, all) = engine.board().packings(state.empty());
            let tempo = Cell::iter(state.placements(me))
                .map(|c| state.placement_value(me, c))
                .max()
                .unwrap_or(0);
            let their_best = Cell::iter(state.placements(me.opponent()))
                .map(|c| state.placement_value(me.opponent(), c))
                .max()
                .unwrap_or(0);
            let mobility = i64::from(state.placements(me).count_ones())
                - i64::from(state.placements(me.opponent()).count_ones());
            let terms = [
                f64::from(safe[p] - safe[o]),
                f64::from((all[p] - safe[p]) - (all[o] - safe[o])),
                f64::from(tempo),
                1.0,
                f64::from(their_best),
                mobility as f64,
            ];
            rows.push((terms, f64::from(exact)));
        }
        let fit = |used: usize| {
            let mut a = [[0.0; TERMS]; TERMS];
            let mut b = [0.0; TERMS];
            for (i, row) in a.iter_mut().enumerate().skip(used) {
                row[i] = 1.0;
            }
            for (x, y) in &rows {
                for i in 0..used {
                    for j in 0..used {
                        a[i][j] += x[i] * x[j];
                    }
                    b[i] += x[i] * y;
                }
            }
            solve(a, b)
        };
        let rms = |w: [f64; TERMS]| {
            let sum: f64 = rows
                .iter()
                .map(|(x, y)| (x.iter().zip(w).map(|(x, w)| x * w).sum::<f64>() - y).powi(2))
                .sum();
            (sum / rows.len() as f64).sqrt()
        };
        let (w, w6) = (fit(4), fit(TERMS));
        println!(
            "| {size} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
            rows.len(),
            rms([1.0, 0.5, 0.5, 0.0, 0.0, 0.0]),
            rms(w),
            w[0],
            w[1],
            w[2],
            w[3],
            rms(w6),
            w6[4],
            w6[5],
        );
    }
}
