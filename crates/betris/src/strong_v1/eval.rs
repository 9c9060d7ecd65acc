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

/// The value function.
#[derive(Clone, Debug)]
pub struct Evaluator {
    pub geometry: Geometry,
    pub weights: Weights,
}

impl Evaluator {
    #[must_use]
    pub fn new(params: &Params, weights: Weights) -> Evaluator {
        Evaluator { geometry: Geometry::new(params), weights }
    }

    /// The expected final points (without chips) of a board whose filled
    /// cells are `filled`, with `rounds` rounds still to play; exact when
    /// `rounds` is 0.
    #[must_use]
    pub fn value(&self, filled: u64, rounds: u32) -> f64 {
        if rounds == 0 {
            return f64::from(self.geometry.points(filled));
        }
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
            }
            square += (2 * k + 1) as f64 * chance;
            if chance < 1e-3 {
                break;
            }
        }

        let right_pairs = (empty & empty >> 1 & !LAST_COLUMN).count_ones();
        let down_pairs = (empty & empty >> 8).count_ones();
        let edges = 4 * empty.count_ones() - 2 * (right_pairs + down_pairs);

        count(filled) + future + square - w.edge * f64::from(edges)
    }
}
