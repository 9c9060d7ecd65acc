//! The value of a board: the points it is expected to end the game with.
//!
//! A board's final points are its filled cells plus the area of its largest
//! filled square. With `r` rounds still to play, the estimate is
//!
//! - the cells filled now, plus the cells the coming blocks are expected to
//!   add: the empty cells that can still take a block (cells in small closed
//!   regions count only in part, as only one or two of the 21 blocks fit
//!   them), capped smoothly by what `r` blocks bring;
//! - the expected area of the largest square, `sum_k (2k - 1) P(side >= k)`,
//!   where `P(side >= k)` falls with the difficulty of the easiest k-by-k
//!   square to complete (its empty cells, the ones in small regions counted
//!   as harder) measured against what `r` rounds can fill;
//! - a small penalty for ragged empty space (the sides of empty cells that
//!   touch a filled cell or the edge), as in Tetris evaluations: a compact
//!   empty region takes more of the blocks to come.

use crate::rules::{Block, BlockSet, Params};

/// Column 0 and column 7 of every row of the 8-bit-stride bitboard.
const FIRST_COLUMN: u64 = 0x0101_0101_0101_0101;
const LAST_COLUMN: u64 = 0x8080_8080_8080_8080;

/// The board's cells, squares and every placement of every block, computed
/// once per game.
#[derive(Clone, Debug)]
pub struct Geometry {
    size: u8,
    cells: u64,
    /// `squares[k - 1]`: the masks of every k-by-k square.
    squares: Vec<Vec<u64>>,
    /// Per block index: the masks of every placement on an empty board.
    placements: Vec<Vec<u64>>,
    blocks: BlockSet,
}

impl Geometry {
    /// The geometry of a game of `params` (valid).
    #[must_use]
    pub fn new(params: &Params) -> Geometry {
        let size = u32::from(params.size);
        let board = crate::rules::Board::empty(params.size);
        let square = |k: u32, row: u32, col: u32| {
            (0..k).fold(0u64, |mask, r| mask | ((1u64 << k) - 1) << ((row + r) * 8 + col))
        };
        let squares = (1..=size)
            .map(|k| {
                (0..=size - k)
                    .flat_map(|row| (0..=size - k).map(move |col| square(k, row, col)))
                    .collect()
            })
            .collect();
        let placements =
            Block::ALL
                .iter()
                .map(|&b| {
                    if params.blocks.contains(b) {
                        board.placements(b).collect()
                    } else {
                        Vec::new()
                    }
                })
                .collect();
        Geometry {
            size: params.size,
            cells: square(size, 0, 0),
            squares,
            placements,
            blocks: params.blocks,
        }
    }

    /// Every cell of the board.
    #[must_use]
    pub fn cells(&self) -> u64 {
        self.cells
    }

    /// The blocks of the game.
    #[must_use]
    pub fn blocks(&self) -> BlockSet {
        self.blocks
    }

    /// The placements of `block` on the empty cells of `filled`.
    pub fn placements(&self, filled: u64, block: Block) -> impl Iterator<Item = u64> + '_ {
        self.placements[block.index()].iter().copied().filter(move |m| m & filled == 0)
    }

    /// The cells of `mask` and their four neighbours.
    fn grow(mask: u64) -> u64 {
        mask | (mask << 1 & !FIRST_COLUMN) | (mask >> 1 & !LAST_COLUMN) | mask << 8 | mask >> 8
    }

    /// Filled cells plus the largest filled square's area.
    #[must_use]
    pub fn points(&self, filled: u64) -> u32 {
        crate::rules::Board::empty(self.size).with(filled).points()
    }
}

/// The tunable numbers of the value function.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// How much harder than an open cell it is to fill, inside a square, an
    /// empty cell of a closed region of 1, 2, or 3 to 5 cells.
    pub hole: [f64; 3],
    /// The share of the cells of such regions counted as lost.
    pub dead: [f64; 3],
    /// The cells a round is expected to add (for the total).
    pub cells_per_round: f64,
    /// The cells a round is expected to add to one square.
    pub square_per_round: f64,
    /// Cells of difficulty a square needs beyond the rounds' capacity.
    pub square_margin: f64,
    /// The spread of the logistic giving a square's chance.
    pub square_spread: f64,
    /// The spread of the smooth minimum of fillable cells and capacity.
    pub cap_spread: f64,
    /// Points per exposed side of an empty cell.
    pub edge: f64,
}

impl Weights {
    pub const DEFAULT: Weights = Weights {
        hole: [3.6, 2.0, 1.0],
        dead: [0.8, 0.6, 0.3],
        cells_per_round: 4.2,
        square_per_round: 2.62,
        square_margin: 1.0,
        square_spread: 1.64,
        cap_spread: 3.0,
        edge: 0.29,
    };
}

/// The terms of the value function, each a feature of the fitted one:
/// a constant, the filled cells, the cells still expected, the expected
/// square area, the exposed sides of empty cells, and the area of the
/// largest square filled now.
pub const FEATURES: usize = 6;

/// Per rounds left (index 0 unused: the last round is exact), the weights
/// of the [`FEATURES`] in a value fitted to final scores.
pub type Fit = Vec<[f64; FEATURES]>;

/// The value function.
#[derive(Clone, Debug)]
pub struct Evaluator {
    pub geometry: Geometry,
    pub weights: Weights,
    /// When set, the value is this linear function of the terms instead of
    /// their hand-set sum.
    pub fit: Option<Fit>,
}

impl Evaluator {
    #[must_use]
    pub fn new(params: &Params, weights: Weights) -> Evaluator {
        Evaluator { geometry: Geometry::new(params), weights, fit: None }
    }

    /// The expected final points (without chips) of a board whose filled
    /// cells are `filled`, with `rounds` rounds still to play; exact when
    /// `rounds` is 0.
    #[must_use]
    pub fn value(&self, filled: u64, rounds: u32) -> f64 {
        if rounds == 0 {
            return f64::from(self.geometry.points(filled));
        }
        let terms = self.terms(filled, rounds);
        match &self.fit {
            Some(fit) if (rounds as usize) < fit.len() => {
                fit[rounds as usize].iter().zip(terms).map(|(w, t)| w * t).sum()
            }
            _ => terms[1] + terms[2] + terms[3] - self.weights.edge * terms[4],
        }
    }

    /// The [`FEATURES`] of a board with `rounds` (at least 1) rounds to play.
    #[must_use]
    pub fn terms(&self, filled: u64, rounds: u32) -> [f64; FEATURES] {
        let w = &self.weights;
        let empty = self.geometry.cells & !filled;
        // Empty cells by the size class of their closed region.
        let mut small = [0u64; 3];
        let mut rest = empty;
        while rest != 0 {
            let mut region = rest & rest.wrapping_neg();
            loop {
                let grown = Geometry::grow(region) & empty;
                if grown == region {
                    break;
                }
                region = grown;
            }
            rest &= !region;
            match region.count_ones() {
                1 => small[0] |= region,
                2 => small[1] |= region,
                3..=5 => small[2] |= region,
                _ => {}
            }
        }
        let count = |m: u64| f64::from(m.count_ones());
        let rounds_f = f64::from(rounds);
        let lost: f64 = (0..3).map(|i| w.dead[i] * count(small[i])).sum();
        let fillable = count(empty) - lost;
        let capacity = w.cells_per_round * rounds_f;
        let future = 0.5
            * (fillable + capacity
                - ((fillable - capacity).powi(2) + w.cap_spread * w.cap_spread).sqrt());

        let square_capacity = w.square_per_round * rounds_f - w.square_margin;
        let mut square = 0.0;
        let mut chance = 1.0f64;
        let mut side_now = 0.0;
        for (k, masks) in self.geometry.squares.iter().enumerate() {
            let mut easiest = f64::INFINITY;
            for &mask in masks {
                let open = mask & empty;
                if open == 0 {
                    easiest = 0.0;
                    break;
                }
                let difficulty = count(open)
                    + w.hole[0] * count(mask & small[0])
                    + w.hole[1] * count(mask & small[1])
                    + w.hole[2] * count(mask & small[2]);
                easiest = easiest.min(difficulty);
            }
            if easiest > 0.0 {
                let p = 1.0 / (1.0 + ((easiest - square_capacity) / w.square_spread).exp());
                chance = chance.min(p);
            } else {
                side_now = (k + 1) as f64;
            }
            square += (2 * k + 1) as f64 * chance;
            if chance < 1e-3 {
                break;
            }
        }

        let right_pairs = (empty & empty >> 1 & !LAST_COLUMN).count_ones();
        let down_pairs = (empty & empty >> 8).count_ones();
        let edges = 4 * empty.count_ones() - 2 * (right_pairs + down_pairs);

        [1.0, count(filled), future, square, f64::from(edges), side_now * side_now]
    }
}

/// The value fitted to final scores: `cargo run --release -p versus-betris
/// --example solo -- 20000 fit:4` (block sequences 0 to 19,999, the static
/// policy played four times, each time with the previous fit, the samples
/// of all four pooled; this is the fourth fit, reproduced exactly).
pub const FITTED: [[f64; FEATURES]; 12] = [
    [0.0; FEATURES],
    [45.6747, 0.1005, 0.3088, 0.7757, -0.3817, 0.2079], // 1
    [61.2116, -0.2458, 0.2109, 0.7378, -0.4976, 0.2911], // 2
    [60.8285, -0.1992, 0.3458, 0.6352, -0.5084, 0.3238], // 3
    [60.3456, -0.2501, 0.3661, 0.7896, -0.5460, 0.1967], // 4
    [55.8042, -0.2601, 0.3341, 0.9606, -0.5400, 0.1266], // 5
    [47.5459, 0.1341, 0.5279, 0.7163, -0.4668, 0.0768], // 6
    [37.8158, 0.5293, 0.8060, 0.4749, -0.4028, 0.0416], // 7
    [26.6539, 0.8815, 1.0764, 0.2961, -0.3303, 0.0497], // 8
    [9.3758, 1.2168, 1.4557, 0.2085, -0.2509, 0.0298],  // 9
    [11.5595, 1.3133, 1.3660, 0.0915, -0.1471, 0.0720], // 10
    [-8.0731, 1.4137, 1.6211, 0.3152, -0.0663, 0.0637], // 11
];
