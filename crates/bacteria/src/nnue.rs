//! The learned evaluation: an efficiently updatable network over the board's
//! 2x2 windows.
//!
//! **Inputs.** Each of the 36 2x2 windows of the 7x7 board holds one of 81
//! patterns (each cell empty, own or the opponent's), from one side's point
//! of view; window `w` with pattern `p` is input `w * 81 + p` (2,916 inputs,
//! 36 of them active). **Hidden layer.** Each side has an accumulator: the
//! hidden biases plus the weight rows of its 36 active inputs
//! ([`HIDDEN`] units, `i16`). A move changes few cells, so only the windows
//! around them are subtracted and added again ([`Network::update`]).
//! **Output.** Clipped ReLU (`[0, 1]`, integer `[0, QA]`) of the side to
//! move's accumulator, then the other side's, dotted with the output weights,
//! plus a bias: the logit of the side to move's expected result. Times the
//! network's scale it is in the search's units (hundredths of a piece).
//!
//! **Quantisation.** Hidden weights and biases are `round(w * QA)` (`QA` =
//! 127 is an activation of 1), output weights `round(w * QB)` (`QB` = 64),
//! the output bias `round(b * QA * QB)` (`i32`). Arithmetic wraps, so an
//! accumulator updated move by move is bit for bit the one computed afresh.
//! The loops are over fixed-size arrays, which the compiler turns into SIMD
//! instructions of the baseline target (SSE2 on x86-64) with no `unsafe`.
//!
//! **File format** (`nets/*.bin`, little-endian): `BWN1`, `u32` hidden
//! units, `u32` inputs, `i32` scale, then the hidden weights (`i16`, input
//! by input, each row of [`HIDDEN`]), the hidden biases (`i16`), the output
//! weights (`i16`, the side to move's [`HIDDEN`] then the other's) and the
//! output bias (`i32`). The network played by `strong` is embedded in the
//! binary ([`embedded`]).

use std::sync::OnceLock;

/// 2x2 windows on the 7x7 board.
pub const WINDOWS: usize = 36;
/// Contents of one window: 3^4.
pub const PATTERNS: usize = 81;
/// Inputs per point of view.
pub const FEATURES: usize = WINDOWS * PATTERNS;
/// Hidden units per point of view.
pub const HIDDEN: usize = 64;
/// An activation of 1.
pub const QA: i32 = 127;
/// An output weight of 1.
pub const QB: i32 = 64;

/// The cell at the top left of window `w`.
#[inline(always)]
const fn window_cell(w: usize) -> usize {
    (w / 6) * 7 + w % 6
}

/// `TERNARY[b]`: the 4 bits of `b` as base-3 digits.
const TERNARY: [usize; 16] = {
    let mut t = [0; 16];
    let mut b = 0;
    while b < 16 {
        t[b] = (b & 1) + 3 * ((b >> 1) & 1) + 9 * ((b >> 2) & 1) + 27 * ((b >> 3) & 1);
        b += 1;
    }
    t
};

/// The windows each cell belongs to, as a mask over the 36 windows.
static CELL_WINDOWS: [u64; 49] = {
    let mut masks = [0u64; 49];
    let mut w = 0;
    while w < WINDOWS {
        let c = window_cell(w);
        masks[c] |= 1 << w;
        masks[c + 1] |= 1 << w;
        masks[c + 7] |= 1 << w;
        masks[c + 8] |= 1 << w;
        w += 1;
    }
    masks
};

/// The 4 cells of window `w` in `bits`: bit 0 its top left, 1 top right,
/// 2 bottom left, 3 bottom right.
#[inline(always)]
fn window_bits(bits: u64, w: usize) -> usize {
    let c = window_cell(w);
    ((bits >> c) & 3 | ((bits >> (c + 7)) & 3) << 2) as usize
}

/// The input of window `w` from the point of view of the side owning `own`.
#[inline(always)]
#[must_use]
pub fn feature(own: u64, opp: u64, w: usize) -> usize {
    w * PATTERNS + TERNARY[window_bits(own, w)] + 2 * TERNARY[window_bits(opp, w)]
}

/// The 36 active inputs of `pieces` (first, second player) from the point of
/// view of side `view` (0 or 1).
#[must_use]
pub fn active_features(pieces: [u64; 2], view: usize) -> [u16; WINDOWS] {
    let mut out = [0; WINDOWS];
    for (w, slot) in out.iter_mut().enumerate() {
        *slot = feature(pieces[view], pieces[view ^ 1], w) as u16;
    }
    out
}

/// The hidden layer's values from both points of view (index: the side
/// whose view it is, 0 first player).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    pub v: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator { v: [[0; HIDDEN]; 2] }
    }
}

#[inline(always)]
fn add_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, r) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(*r);
    }
}

#[inline(always)]
fn sub_add_row(acc: &mut [i16; HIDDEN], sub: &[i16; HIDDEN], add: &[i16; HIDDEN]) {
    for ((a, s), d) in acc.iter_mut().zip(sub).zip(add) {
        *a = a.wrapping_sub(*s).wrapping_add(*d);
    }
}

/// A quantised network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    w1: Vec<[i16; HIDDEN]>,
    b1: [i16; HIDDEN],
    w2: [i16; 2 * HIDDEN],
    b2: i32,
    /// Search units per unit of logit.
    scale: i32,
}

/// Why a network file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    #[error("not a network file (no BWN1 at the start)")]
    Magic,
    #[error(
        "the file has {0} hidden units and {1} inputs; this build expects {HIDDEN} and {FEATURES}"
    )]
    Shape(u32, u32),
    #[error("the file has {0} bytes; {1} expected")]
    Length(usize, usize),
}

const HEADER: usize = 16;
const BYTES: usize = HEADER + 2 * (FEATURES * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

impl Network {
    /// Reads a network file (see the module's documentation).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.get(..4) != Some(b"BWN1") {
            return Err(NetError::Magic);
        }
        let u32_at = |i: usize| {
            u32::from_le_bytes(
                bytes.get(i..i + 4).and_then(|b| b.try_into().ok()).unwrap_or([0; 4]),
            )
        };
        let (hidden, inputs) = (u32_at(4), u32_at(8));
        if hidden as usize != HIDDEN || inputs as usize != FEATURES {
            return Err(NetError::Shape(hidden, inputs));
        }
        if bytes.len() != BYTES {
            return Err(NetError::Length(bytes.len(), BYTES));
        }
        let scale = u32_at(12) as i32;
        let mut words =
            bytes[HEADER..BYTES - 4].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut next = || words.next().expect("the length was checked");
        let mut w1 = vec![[0; HIDDEN]; FEATURES];
        for row in &mut w1 {
            row.iter_mut().for_each(|x| *x = next());
        }
        let mut b1 = [0; HIDDEN];
        b1.iter_mut().for_each(|x| *x = next());
        let mut w2 = [0; 2 * HIDDEN];
        w2.iter_mut().for_each(|x| *x = next());
        let b2 = u32_at(BYTES - 4) as i32;
        Ok(Network { w1, b1, w2, b2, scale })
    }

    /// The file's bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(BYTES);
        out.extend_from_slice(b"BWN1");
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        out.extend_from_slice(&(FEATURES as u32).to_le_bytes());
        out.extend_from_slice(&self.scale.to_le_bytes());
        for x in self.w1.iter().flatten().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        out
    }

    /// Search units per unit of logit.
    #[must_use]
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// The accumulators of `pieces` (first, second player), from scratch.
    #[must_use]
    pub fn refresh(&self, pieces: [u64; 2]) -> Accumulator {
        let mut acc = Accumulator { v: [self.b1; 2] };
        for (view, values) in acc.v.iter_mut().enumerate() {
            for w in 0..WINDOWS {
                add_row(values, &self.w1[feature(pieces[view], pieces[view ^ 1], w)]);
            }
        }
        acc
    }

    /// The accumulators of `after` from those of `before`: only the windows
    /// of cells that changed are recomputed.
    #[inline]
    #[must_use]
    pub fn update(&self, acc: &Accumulator, before: [u64; 2], after: [u64; 2]) -> Accumulator {
        let mut next = *acc;
        let mut changed = (before[0] ^ after[0]) | (before[1] ^ after[1]);
        let mut windows = 0u64;
        while changed != 0 {
            windows |= CELL_WINDOWS[changed.trailing_zeros() as usize];
            changed &= changed - 1;
        }
        while windows != 0 {
            let w = windows.trailing_zeros() as usize;
            windows &= windows - 1;
            let (o0, o1) = (window_bits(before[0], w), window_bits(before[1], w));
            let (n0, n1) = (window_bits(after[0], w), window_bits(after[1], w));
            let base = w * PATTERNS;
            let old = [base + TERNARY[o0] + 2 * TERNARY[o1], base + TERNARY[o1] + 2 * TERNARY[o0]];
            let new = [base + TERNARY[n0] + 2 * TERNARY[n1], base + TERNARY[n1] + 2 * TERNARY[n0]];
            for view in 0..2 {
                sub_add_row(&mut next.v[view], &self.w1[old[view]], &self.w1[new[view]]);
            }
        }
        next
    }

    /// The evaluation for side `stm` (0 or 1), in search units.
    #[inline]
    #[must_use]
    pub fn evaluate(&self, acc: &Accumulator, stm: usize) -> i32 {
        let dot = |values: &[i16; HIDDEN], weights: &[i16]| -> i32 {
            values
                .iter()
                .zip(weights)
                .map(|(&v, &w)| i32::from(v.clamp(0, QA as i16)) * i32::from(w))
                .sum()
        };
        let raw = self.b2
            + dot(&acc.v[stm], &self.w2[..HIDDEN])
            + dot(&acc.v[stm ^ 1], &self.w2[HIDDEN..]);
        (i64::from(raw) * i64::from(self.scale) / i64::from(QA * QB)) as i32
    }
}

/// A network in floating point, as the trainer holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// `w1[input * HIDDEN + unit]`.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// The side to move's [`HIDDEN`] weights, then the other side's.
    pub w2: Vec<f32>,
    pub b2: f32,
    /// Search units per unit of logit.
    pub scale: f32,
}

impl FloatNet {
    /// All weights zero.
    #[must_use]
    pub fn zeros(scale: f32) -> FloatNet {
        FloatNet {
            w1: vec![0.0; FEATURES * HIDDEN],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; 2 * HIDDEN],
            b2: 0.0,
            scale,
        }
    }

    /// The hidden layer's activations (clipped ReLU) from side `view`'s point of view.
    #[must_use]
    pub fn hidden(&self, pieces: [u64; 2], view: usize) -> Vec<f32> {
        let mut a = self.b1.clone();
        for f in active_features(pieces, view) {
            let row = &self.w1[usize::from(f) * HIDDEN..][..HIDDEN];
            a.iter_mut().zip(row).for_each(|(x, w)| *x += w);
        }
        a.iter().map(|x| x.clamp(0.0, 1.0)).collect()
    }

    /// The logit of the side to move's expected result.
    #[must_use]
    pub fn logit(&self, pieces: [u64; 2], stm: usize) -> f32 {
        let own = self.hidden(pieces, stm);
        let other = self.hidden(pieces, stm ^ 1);
        let dot = |h: &[f32], w: &[f32]| h.iter().zip(w).map(|(a, b)| a * b).sum::<f32>();
        self.b2 + dot(&own, &self.w2[..HIDDEN]) + dot(&other, &self.w2[HIDDEN..])
    }

    /// The quantised network.
    #[must_use]
    pub fn quantise(&self) -> Network {
        let q16 = |x: f32, k: i32| (x * k as f32).round().clamp(-32_767.0, 32_767.0) as i16;
        let mut w1 = vec![[0; HIDDEN]; FEATURES];
        for (f, row) in w1.iter_mut().enumerate() {
            for (u, x) in row.iter_mut().enumerate() {
                *x = q16(self.w1[f * HIDDEN + u], QA);
            }
        }
        let mut b1 = [0; HIDDEN];
        b1.iter_mut().zip(&self.b1).for_each(|(q, &x)| *q = q16(x, QA));
        let mut w2 = [0; 2 * HIDDEN];
        w2.iter_mut().zip(&self.w2).for_each(|(q, &x)| *q = q16(x, QB));
        Network {
            w1,
            b1,
            w2,
            b2: (self.b2 * (QA * QB) as f32).round() as i32,
            scale: self.scale.round() as i32,
        }
    }
}

static EMBEDDED_BYTES: &[u8] = include_bytes!("../nets/bw-2x2-64.bin");

/// The network built into the binary (`nets/bw-2x2-64.bin`).
#[must_use]
pub fn embedded() -> &'static Network {
    static NET: OnceLock<Network> = OnceLock::new();
    NET.get_or_init(|| Network::from_bytes(EMBEDDED_BYTES).expect("the embedded network is valid"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::State;
    use versus_core::{GameRng, Side};

    fn random_net(seed: u64) -> FloatNet {
        let mut rng = GameRng::new(seed);
        let mut uniform = |a: f32| (rng.below(2_000_001) as f32 / 1_000_000.0 - 1.0) * a;
        let mut net = FloatNet::zeros(300.0);
        net.w1.iter_mut().for_each(|x| *x = uniform(0.3));
        net.b1.iter_mut().for_each(|x| *x = uniform(0.5));
        net.w2.iter_mut().for_each(|x| *x = uniform(1.0));
        net.b2 = uniform(0.2);
        net
    }

    fn pieces(state: &State) -> [u64; 2] {
        [state.pieces(Side::First), state.pieces(Side::Second)]
    }

    #[test]
    fn windows_and_patterns_by_hand() {
        // Window 0 holds cells 0, 1, 7, 8; window 35 cells 40, 41, 47, 48.
        assert_eq!(CELL_WINDOWS[0], 1);
        assert_eq!(CELL_WINDOWS[48], 1 << 35);
        assert_eq!(CELL_WINDOWS[8].count_ones(), 4);
        // Own on cell 1 (digit 1 at 3^1), opponent on cell 7 (digit 2 at 3^2).
        assert_eq!(feature(1 << 1, 1 << 7, 0), 3 + 18);
        assert_eq!(feature(1 << 7, 1 << 1, 0), 9 + 6);
        assert_eq!(feature(1 << 48, 0, 35), 35 * 81 + 27);
    }

    #[test]
    fn incremental_accumulators_equal_fresh_ones_over_random_games() {
        let net = random_net(1).quantise();
        let mut rng = GameRng::new(2);
        for _ in 0..20 {
            let mut state = State::start();
            let mut acc = net.refresh(pieces(&state));
            while !state.is_over() {
                let moves = state.legal_moves();
                let before = pieces(&state);
                state.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
                acc = net.update(&acc, before, pieces(&state));
                assert_eq!(acc, net.refresh(pieces(&state)), "{state}");
            }
        }
    }

    #[test]
    fn quantised_inference_follows_the_float_network() {
        let float = random_net(3);
        let net = float.quantise();
        let mut rng = GameRng::new(4);
        let mut state = State::start();
        let mut checked = 0;
        let mut total_error = 0.0;
        while checked < 200 {
            if state.is_over() {
                state = State::start();
            }
            let moves = state.legal_moves();
            state.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
            let stm = state.side_to_move().index();
            let p = pieces(&state);
            let expected = float.logit(p, stm) * float.scale;
            let got = net.evaluate(&net.refresh(p), stm);
            // The worst case: each of a unit's 37 terms (36 rows and the
            // bias) is off by at most half a step of 1/QA, and clipping does
            // not increase an error; each output weight by half a step of
            // 1/QB, times an activation of at most 1 (a little more for the
            // quantised one); the bias by half of 1/(QA QB); the final
            // division truncates (one unit).
            let hidden_error = 37.0 * 0.5 / QA as f32;
            let activations = [float.hidden(p, stm), float.hidden(p, stm ^ 1)].concat();
            let bound = float
                .w2
                .iter()
                .zip(&activations)
                .map(|(w, a)| {
                    (w.abs() + 0.5 / QB as f32) * hidden_error
                        + (a + hidden_error) * 0.5 / QB as f32
                })
                .sum::<f32>()
                + 0.5 / (QA * QB) as f32;
            let error = (got as f32 - expected).abs();
            assert!(error <= bound * float.scale + 1.0, "{state}: {got} vs {expected}");
            total_error += error / float.scale;
            checked += 1;
        }
        // Errors are of random signs: on average far below the worst case.
        assert!(total_error / 200.0 < 0.05, "mean error {} logit", total_error / 200.0);
    }

    #[test]
    fn a_network_file_reads_back_and_the_embedded_one_is_valid() {
        let net = random_net(5).quantise();
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes), Ok(net));
        assert_eq!(Network::from_bytes(&bytes[1..]), Err(NetError::Magic));
        assert_eq!(
            Network::from_bytes(&bytes[..bytes.len() - 1]),
            Err(NetError::Length(BYTES - 1, BYTES))
        );
        let _ = embedded();
    }
}
