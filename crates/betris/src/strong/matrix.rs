//! Zero-sum matrix games solved exactly by linear programming.
//!
//! For a payoff matrix `M` (the row player's gain), shifted so every entry
//! is at least 1, the column player's program "maximise `sum y` subject to
//! `M y <= 1`, `y >= 0`" starts feasible at `y = 0`, so the plain tableau
//! simplex needs no first phase. At the optimum `sum y = 1 / value`; the
//! column strategy is `y * value` and the row strategy is the dual solution
//! (the objective row under the slack columns) times `value`. Bland's rule
//! keeps the simplex from cycling on the degenerate programs auctions give.

/// An optimal strategy for each player and the game's value.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The row player's probabilities.
    pub rows: Vec<f64>,
    /// The column player's probabilities.
    pub columns: Vec<f64>,
    /// What the row player gains on average under optimal play.
    pub value: f64,
}

const EPSILON: f64 = 1e-12;

/// Solves the game whose row player gains `payoff[i][j]` when it plays row
/// `i` and the column player column `j`. `payoff` must be a non-empty
/// rectangle with finite entries.
#[must_use]
pub fn solve(payoff: &[Vec<f64>]) -> Solution {
    let m = payoff.len();
    let n = payoff[0].len();
    let low = payoff.iter().flatten().copied().fold(f64::INFINITY, f64::min);
    let shift = 1.0 - low;
    // Tableau: m constraint rows of [y (n) | slack (m) | rhs], then the
    // objective row.
    let width = n + m + 1;
    let mut t = vec![0.0; (m + 1) * width];
    for i in 0..m {
        for j in 0..n {
            t[i * width + j] = payoff[i][j] + shift;
        }
        t[i * width + n + i] = 1.0;
        t[i * width + width - 1] = 1.0;
    }
    for j in 0..n {
        t[m * width + j] = -1.0;
    }
    let mut basis: Vec<usize> = (n..n + m).collect();
    // Bland: the first column with a negative reduced cost enters...
    while let Some(enter) = (0..n + m).find(|&j| t[m * width + j] < -EPSILON) {
        // ...and among the rows of the smallest ratio, the one whose basic
        // variable has the lowest index leaves.
        let mut leave: Option<(usize, f64)> = None;
        for i in 0..m {
            let a = t[i * width + enter];
            if a > EPSILON {
                let ratio = t[i * width + width - 1] / a;
                let better = match leave {
                    None => true,
                    Some((l, best)) => {
                        ratio < best - EPSILON || (ratio <= best + EPSILON && basis[i] < basis[l])
                    }
                };
                if better {
                    leave = Some((i, ratio));
                }
            }
        }
        // The program is bounded (every entry of M is positive), so a
        // leaving row always exists.
        let (row, _) = leave.expect("a bounded program");
        let pivot = t[row * width + enter];
        for x in &mut t[row * width..(row + 1) * width] {
            *x /= pivot;
        }
        for i in 0..=m {
            if i != row {
                let factor = t[i * width + enter];
                if factor != 0.0 {
                    for j in 0..width {
                        t[i * width + j] -= factor * t[row * width + j];
                    }
                }
            }
        }
        basis[row] = enter;
    }
    let total = t[m * width + width - 1];
    let shifted_value = 1.0 / total;
    let mut columns = vec![0.0; n];
    for (i, &b) in basis.iter().enumerate() {
        if b < n {
            columns[b] = t[i * width + width - 1] * shifted_value;
        }
    }
    let rows = (0..m).map(|i| (t[m * width + n + i] * shifted_value).max(0.0)).collect();
    Solution { rows, columns, value: shifted_value - shift }
}

#[cfg(test)]
mod tests {
    use super::*;
    use versus_core::GameRng;

    fn uniform(rng: &mut GameRng) -> f64 {
        (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// The row player's guaranteed gain with `rows`.
    fn guaranteed(payoff: &[Vec<f64>], rows: &[f64]) -> f64 {
        (0..payoff[0].len())
            .map(|j| rows.iter().zip(payoff).map(|(p, r)| p * r[j]).sum::<f64>())
            .fold(f64::INFINITY, f64::min)
    }

    /// The most the column player concedes with `columns`.
    fn conceded(payoff: &[Vec<f64>], columns: &[f64]) -> f64 {
        payoff
            .iter()
            .map(|r| r.iter().zip(columns).map(|(a, q)| a * q).sum::<f64>())
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// The game's value by trying every row strategy on a grid of step
    /// 1/`steps` (two or three rows).
    fn brute_force_value(payoff: &[Vec<f64>], steps: usize) -> f64 {
        let mut best = f64::NEG_INFINITY;
        for a in 0..=steps {
            for b in 0..=steps - a {
                let p = [a as f64 / steps as f64, b as f64 / steps as f64];
                let rows: Vec<f64> = match payoff.len() {
                    2 if b == 0 => vec![p[0], 1.0 - p[0]],
                    2 => continue,
                    _ => vec![p[0], p[1], 1.0 - p[0] - p[1]],
                };
                best = best.max(guaranteed(payoff, &rows));
            }
        }
        best
    }

    fn check_optimal(payoff: &[Vec<f64>], solution: &Solution) {
        let tolerance = 1e-9;
        for strategy in [&solution.rows, &solution.columns] {
            assert!((strategy.iter().sum::<f64>() - 1.0).abs() < tolerance, "{solution:?}");
            assert!(strategy.iter().all(|&p| p >= -tolerance));
        }
        assert!(guaranteed(payoff, &solution.rows) >= solution.value - tolerance);
        assert!(conceded(payoff, &solution.columns) <= solution.value + tolerance);
    }

    #[test]
    fn known_games() {
        // Matching pennies: value 0, both mix half and half.
        let pennies = vec![vec![1.0, -1.0], vec![-1.0, 1.0]];
        let s = solve(&pennies);
        assert!(s.value.abs() < 1e-12);
        assert!((s.rows[0] - 0.5).abs() < 1e-12 && (s.columns[0] - 0.5).abs() < 1e-12);
        // A saddle point.
        let saddle = vec![vec![3.0, 1.0], vec![4.0, 2.0]];
        let s = solve(&saddle);
        assert!((s.value - 2.0).abs() < 1e-12);
        assert!((s.rows[1] - 1.0).abs() < 1e-12 && (s.columns[1] - 1.0).abs() < 1e-12);
        // Rock, paper, scissors.
        let rps = vec![vec![0.0, -1.0, 1.0], vec![1.0, 0.0, -1.0], vec![-1.0, 1.0, 0.0]];
        let s = solve(&rps);
        assert!(s.value.abs() < 1e-12);
        assert!(s.rows.iter().all(|p| (p - 1.0 / 3.0).abs() < 1e-12));
    }

    #[test]
    fn small_games_match_brute_force() {
        let mut rng = GameRng::new(11);
        for case in 0..120 {
            let rows = 2 + case % 2;
            let columns = 1 + (case / 2) % 4;
            let payoff: Vec<Vec<f64>> = (0..rows)
                .map(|_| (0..columns).map(|_| (uniform(&mut rng) * 20.0 - 10.0).round()).collect())
                .collect();
            let solution = solve(&payoff);
            check_optimal(&payoff, &solution);
            let brute = brute_force_value(&payoff, if rows == 2 { 4000 } else { 200 });
            // The grid misses the exact optimum by at most a step's worth.
            assert!(brute <= solution.value + 1e-9, "{payoff:?}: {brute} > {}", solution.value);
            assert!(solution.value - brute < 0.25, "{payoff:?}: {brute} vs {}", solution.value);
        }
    }

    #[test]
    fn large_degenerate_games_are_optimal() {
        let mut rng = GameRng::new(5);
        for case in 0..200 {
            let rows = 1 + case % 12;
            let columns = 1 + (case * 7) % 12;
            // Few distinct values make ties and degenerate pivots common.
            let payoff: Vec<Vec<f64>> = (0..rows)
                .map(|_| (0..columns).map(|_| rng.below(4) as f64 - 1.5).collect())
                .collect();
            check_optimal(&payoff, &solve(&payoff));
        }
    }
}
