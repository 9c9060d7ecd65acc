//! The rules of Betris: blocks, boards, the auction and the score.
//!
//! Pure: no I/O, no clocks, no randomness (the one random choice of the rules,
//! an auction tie, is passed in by the caller).
//!
//! Boards are bitboards with a fixed stride of 8 bits per row, so every board
//! side up to 8 fits a `u64` and moving a shape is one shift: cell (row, col),
//! 0-based, is bit `row * 8 + col`.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use thiserror::Error;
use versus_core::{BySide, Side};

const STRIDE: u32 = 8;
/// Column 7 of every row: the bits a right shift would carry into the row above.
const LAST_COLUMN: u64 = 0x8080_8080_8080_8080;

/// The largest board side that fits the bitboard.
pub const MAX_SIZE: u8 = 8;

/// One of the 21 free polyominoes of 1 to 5 cells, in the statement's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Block {
    I1,
    I2,
    I3,
    L3,
    I4,
    L4,
    S4,
    T4,
    O4,
    I5,
    L5,
    F5,
    N5,
    P5,
    T5,
    U5,
    V5,
    W5,
    X5,
    Y5,
    Z5,
}

impl Block {
    /// All blocks, in the statement's order (the order of every block set).
    pub const ALL: [Block; 21] = [
        Block::I1,
        Block::I2,
        Block::I3,
        Block::L3,
        Block::I4,
        Block::L4,
        Block::S4,
        Block::T4,
        Block::O4,
        Block::I5,
        Block::L5,
        Block::F5,
        Block::N5,
        Block::P5,
        Block::T5,
        Block::U5,
        Block::V5,
        Block::W5,
        Block::X5,
        Block::Y5,
        Block::Z5,
    ];

    /// The position in [`Block::ALL`].
    #[must_use]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The name used on the wire, e.g. `L3`.
    #[must_use]
    pub fn name(self) -> &'static str {
        const NAMES: [&str; 21] = [
            "I1", "I2", "I3", "L3", "I4", "L4", "S4", "T4", "O4", "I5", "L5", "F5", "N5", "P5",
            "T5", "U5", "V5", "W5", "X5", "Y5", "Z5",
        ];
        NAMES[self.index()]
    }

    /// The number of cells.
    #[must_use]
    pub fn size(self) -> usize {
        self.picture().iter().map(|row| row.matches('#').count()).sum()
    }

    /// One standard drawing of the shape; the others follow by rotation and
    /// reflection.
    fn picture(self) -> &'static [&'static str] {
        match self {
            Block::I1 => &["#"],
            Block::I2 => &["##"],
            Block::I3 => &["###"],
            Block::L3 => &["##", "#."],
            Block::I4 => &["####"],
            Block::L4 => &["###", "#.."],
            Block::S4 => &[".##", "##."],
            Block::T4 => &["###", ".#."],
            Block::O4 => &["##", "##"],
            Block::I5 => &["#####"],
            Block::L5 => &["####", "#..."],
            Block::F5 => &[".##", "##.", ".#."],
            Block::N5 => &["##..", ".###"],
            Block::P5 => &["##", "##", "#."],
            Block::T5 => &["###", ".#.", ".#."],
            Block::U5 => &["#.#", "###"],
            Block::V5 => &["#..", "#..", "###"],
            Block::W5 => &["#..", "##.", ".##"],
            Block::X5 => &[".#.", "###", ".#."],
            Block::Y5 => &["####", ".#.."],
            Block::Z5 => &["##.", ".#.", ".##"],
        }
    }

    /// The distinct orientations (rotations by 90° and reflections), each
    /// moved to the top-left corner, in a fixed order.
    #[must_use]
    pub fn orientations(self) -> &'static [Shape] {
        static TABLE: OnceLock<Vec<Vec<Shape>>> = OnceLock::new();
        let table =
            TABLE.get_or_init(|| Block::ALL.iter().map(|b| b.build_orientations()).collect());
        &table[self.index()]
    }

    fn build_orientations(self) -> Vec<Shape> {
        let cells: Vec<(i32, i32)> = self
            .picture()
            .iter()
            .zip(0..)
            .flat_map(|(row, r)| {
                row.chars().zip(0..).filter(|&(ch, _)| ch == '#').map(move |(_, c)| (r, c))
            })
            .collect();
        let mut shapes: Vec<Shape> = Vec::new();
        // The eight symmetries of the square: an optional transpose, then
        // optional flips of each axis.
        for symmetry in 0..8 {
            let moved: Vec<(i32, i32)> = cells
                .iter()
                .map(|&(r, c)| {
                    let (r, c) = if symmetry & 4 != 0 { (c, r) } else { (r, c) };
                    let r = if symmetry & 1 != 0 { -r } else { r };
                    let c = if symmetry & 2 != 0 { -c } else { c };
                    (r, c)
                })
                .collect();
            let shape = Shape::normalized(&moved);
            if !shapes.contains(&shape) {
                shapes.push(shape);
            }
        }
        shapes
    }
}

impl fmt::Display for Block {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of the 21 blocks.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("`{0}` is not a block name")]
pub struct UnknownBlock(pub String);

impl FromStr for Block {
    type Err = UnknownBlock;
    fn from_str(s: &str) -> Result<Block, UnknownBlock> {
        Block::ALL.into_iter().find(|b| b.name() == s).ok_or_else(|| UnknownBlock(s.to_owned()))
    }
}

/// One orientation of a block, touching the top and left edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// The cells, bit `row * 8 + col`.
    pub mask: u64,
    pub height: u8,
    pub width: u8,
}

impl Shape {
    fn normalized(cells: &[(i32, i32)]) -> Shape {
        let min_r = cells.iter().map(|c| c.0).min().unwrap_or(0);
        let min_c = cells.iter().map(|c| c.1).min().unwrap_or(0);
        let max_r = cells.iter().map(|c| c.0).max().unwrap_or(-1);
        let max_c = cells.iter().map(|c| c.1).max().unwrap_or(-1);
        let mask = cells.iter().fold(0u64, |mask, &(r, c)| {
            mask | 1 << ((r - min_r) as u32 * STRIDE + (c - min_c) as u32)
        });
        Shape { mask, height: (max_r - min_r + 1) as u8, width: (max_c - min_c + 1) as u8 }
    }
}

/// A set of blocks; iteration and indexing follow [`Block::ALL`]'s order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockSet(u32);

impl BlockSet {
    pub const ALL: BlockSet = BlockSet((1 << 21) - 1);
    pub const EMPTY: BlockSet = BlockSet(0);

    /// The set of `blocks`.
    #[must_use]
    pub const fn of(blocks: &[Block]) -> BlockSet {
        let mut bits = 0;
        let mut i = 0;
        while i < blocks.len() {
            bits |= 1 << blocks[i] as u32;
            i += 1;
        }
        BlockSet(bits)
    }

    #[must_use]
    pub fn contains(self, block: Block) -> bool {
        self.0 >> block.index() & 1 == 1
    }

    #[must_use]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    #[must_use]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[must_use]
    pub fn without(self, block: Block) -> BlockSet {
        BlockSet(self.0 & !(1 << block.index()))
    }

    /// The blocks in [`Block::ALL`]'s order.
    pub fn iter(self) -> impl Iterator<Item = Block> {
        Block::ALL.into_iter().filter(move |b| self.contains(*b))
    }

    /// The `n`-th block in [`Block::ALL`]'s order.
    #[must_use]
    pub fn nth(self, n: usize) -> Option<Block> {
        self.iter().nth(n)
    }
}

impl fmt::Display for BlockSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == BlockSet::ALL {
            return f.write_str("all");
        }
        let names: Vec<&str> = self.iter().map(Block::name).collect();
        f.write_str(&names.join(","))
    }
}

impl FromStr for BlockSet {
    type Err = UnknownBlock;
    fn from_str(s: &str) -> Result<BlockSet, UnknownBlock> {
        if s == "all" {
            return Ok(BlockSet::ALL);
        }
        s.split(',').filter(|name| !name.is_empty()).try_fold(BlockSet::EMPTY, |set, name| {
            Ok(BlockSet(set.0 | 1 << name.parse::<Block>()?.index()))
        })
    }
}

/// The parameters of one variant of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    /// The side of each player's square board (1 to 8).
    pub size: u8,
    /// Each player's chips at the start.
    pub chips: u32,
    /// The number of rounds.
    pub rounds: u32,
    /// The largest bet allowed in one auction.
    pub max_bet: u32,
    /// The blocks the judge draws from (at least two).
    pub blocks: BlockSet,
}

/// Parameters that make no game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParamsError {
    #[error("board size {0} is not between 1 and {MAX_SIZE}")]
    Size(u8),
    #[error("the block set has {0} blocks, an offer needs two")]
    TooFewBlocks(usize),
}

impl Params {
    /// Betris (Large): 7x7, 24 chips, 12 rounds, bets up to 5, all 21 blocks.
    pub const LARGE: Params =
        Params { size: 7, chips: 24, rounds: 12, max_bet: 5, blocks: BlockSet::ALL };

    pub fn validate(&self) -> Result<(), ParamsError> {
        if !(1..=MAX_SIZE).contains(&self.size) {
            return Err(ParamsError::Size(self.size));
        }
        if self.blocks.len() < 2 {
            return Err(ParamsError::TooFewBlocks(self.blocks.len()));
        }
        Ok(())
    }
}

impl fmt::Display for Params {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "size={} chips={} rounds={} max_bet={} blocks={}",
            self.size, self.chips, self.rounds, self.max_bet, self.blocks
        )
    }
}

/// A state, board or parameter text that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid notation: {0}")]
pub struct NotationError(String);

impl FromStr for Params {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Params, NotationError> {
        let words: Vec<&str> = s.split_ascii_whitespace().collect();
        let [size, chips, rounds, max_bet, blocks] = words[..] else {
            return Err(NotationError(format!("expected 5 parameters in {s:?}")));
        };
        fn value<'a>(word: &'a str, key: &str) -> Result<&'a str, NotationError> {
            word.strip_prefix(key)
                .and_then(|rest| rest.strip_prefix('='))
                .ok_or_else(|| NotationError(format!("expected `{key}=...`, found {word:?}")))
        }
        fn number<T: FromStr>(word: &str, key: &str) -> Result<T, NotationError> {
            let text = value(word, key)?;
            text.parse().map_err(|_| NotationError(format!("{key} {text:?} is not a number")))
        }
        let params = Params {
            size: number(size, "size")?,
            chips: number(chips, "chips")?,
            rounds: number(rounds, "rounds")?,
            max_bet: number(max_bet, "max_bet")?,
            blocks: value(blocks, "blocks")?
                .parse()
                .map_err(|e: UnknownBlock| NotationError(e.to_string()))?,
        };
        params.validate().map_err(|e| NotationError(e.to_string()))?;
        Ok(params)
    }
}

/// One player's board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    size: u8,
    filled: u64,
}

impl Board {
    /// An empty board of side `size` (at most [`MAX_SIZE`]).
    #[must_use]
    pub fn empty(size: u8) -> Board {
        assert!((1..=MAX_SIZE).contains(&size), "board size {size} does not fit");
        Board { size, filled: 0 }
    }

    #[must_use]
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The filled cells, bit `row * 8 + col` (0-based).
    #[must_use]
    pub fn filled(&self) -> u64 {
        self.filled
    }

    /// Whether the 0-based cell (row, col) is filled.
    #[must_use]
    pub fn is_filled(&self, row: u8, col: u8) -> bool {
        self.filled >> (u32::from(row) * STRIDE + u32::from(col)) & 1 == 1
    }

    #[must_use]
    pub fn filled_count(&self) -> u32 {
        self.filled.count_ones()
    }

    /// The side of the largest square made only of filled cells (0 if none).
    #[must_use]
    pub fn largest_square(&self) -> u32 {
        // `corners` holds the top-left cells of the filled k-by-k squares; a
        // (k+1)-square is a k-square whose right, lower and diagonal
        // neighbours also start k-squares.
        let mut corners = self.filled;
        let mut side = 0;
        while corners != 0 {
            side += 1;
            corners &= (corners >> 1 & !LAST_COLUMN)
                & corners >> STRIDE
                & (corners >> (STRIDE + 1) & !LAST_COLUMN);
        }
        side
    }

    /// Filled cells plus the area of the largest filled square: the score
    /// without the chips.
    #[must_use]
    pub fn points(&self) -> u32 {
        self.filled_count() + self.largest_square().pow(2)
    }

    /// The board with the cells of `mask` filled.
    #[must_use]
    pub fn with(&self, mask: u64) -> Board {
        Board { size: self.size, filled: self.filled | mask }
    }

    /// Every placement of `block` on empty cells, as a cell mask: the
    /// orientations in [`Block::orientations`] order, each moved row by row,
    /// then column by column.
    pub fn placements(&self, block: Block) -> impl Iterator<Item = u64> + '_ {
        let size = u32::from(self.size);
        block
            .orientations()
            .iter()
            .filter(move |s| u32::from(s.height) <= size && u32::from(s.width) <= size)
            .flat_map(move |shape| {
                (0..=size - u32::from(shape.height)).flat_map(move |row| {
                    (0..=size - u32::from(shape.width))
                        .map(move |col| shape.mask << (row * STRIDE + col))
                })
            })
            .filter(move |mask| mask & self.filled == 0)
    }

    /// The mask of the cells of `placement` if they all lie on the board, are
    /// all different and all empty (their shape is not checked).
    pub fn cells_mask(&self, placement: &Placement) -> Result<u64, PlacementError> {
        let size = i64::from(self.size);
        let mut mask = 0u64;
        for &(x, y) in &placement.cells {
            if !(1..=size).contains(&x) || !(1..=size).contains(&y) {
                return Err(PlacementError::OffBoard { x, y, size: self.size });
            }
            let bit = 1u64 << ((x - 1) as u32 * STRIDE + (y - 1) as u32);
            if mask & bit != 0 {
                return Err(PlacementError::Repeated { x, y });
            }
            mask |= bit;
        }
        if let Some(&(x, y)) =
            placement.cells.iter().find(|&&(x, y)| self.is_filled((x - 1) as u8, (y - 1) as u8))
        {
            return Err(PlacementError::Filled { x, y });
        }
        Ok(mask)
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..self.size {
            if row > 0 {
                f.write_str("/")?;
            }
            for col in 0..self.size {
                f.write_str(if self.is_filled(row, col) { "#" } else { "." })?;
            }
        }
        Ok(())
    }
}

impl FromStr for Board {
    type Err = NotationError;
    /// Rows of `#` (filled) and `.` (empty) joined by `/`, as many rows as columns.
    fn from_str(s: &str) -> Result<Board, NotationError> {
        let rows: Vec<&str> = s.split('/').collect();
        let size = u8::try_from(rows.len())
            .ok()
            .filter(|n| (1..=MAX_SIZE).contains(n))
            .ok_or_else(|| NotationError(format!("{} rows make no board", rows.len())))?;
        let mut board = Board::empty(size);
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != rows.len() {
                return Err(NotationError(format!("row {row:?} is not {size} cells long")));
            }
            for (c, ch) in row.chars().enumerate() {
                match ch {
                    '#' => board.filled |= 1 << (r as u32 * STRIDE + c as u32),
                    '.' => {}
                    _ => return Err(NotationError(format!("unexpected {ch:?} in row {row:?}"))),
                }
            }
        }
        Ok(board)
    }
}

/// A placement as written on the wire: the cells' 1-based (row, column)
/// pairs in the order given. No cells is a pass, which is always legal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Placement {
    pub cells: Vec<(i64, i64)>,
}

impl Placement {
    pub const PASS: Placement = Placement { cells: Vec::new() };

    #[must_use]
    pub fn is_pass(&self) -> bool {
        self.cells.is_empty()
    }

    /// The cells of `mask` in row-major order.
    #[must_use]
    pub fn from_mask(mask: u64) -> Placement {
        let cells = (0..64)
            .filter(|bit| mask >> bit & 1 == 1)
            .map(|bit| (i64::from(bit / STRIDE) + 1, i64::from(bit % STRIDE) + 1))
            .collect();
        Placement { cells }
    }
}

impl fmt::Display for Placement {
    /// `k x1 y1 ... xk yk`, the tail of `PLACE` and `OPP`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.cells.len())?;
        for (x, y) in &self.cells {
            write!(f, " {x} {y}")?;
        }
        Ok(())
    }
}

/// Text that is not a placement or a bet.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveParseError {
    #[error("missing cell count")]
    MissingCount,
    #[error("cell count `{0}` is not a whole number")]
    BadCount(String),
    #[error("{count} cells need {expected} coordinates, found {found}")]
    CoordinateCount { count: usize, expected: usize, found: usize },
    #[error("coordinate `{0}` is not an integer")]
    BadCoordinate(String),
    #[error("a bet is a block and a number of chips, found {0} fields")]
    BetFields(usize),
    #[error(transparent)]
    UnknownBlock(#[from] UnknownBlock),
    #[error("bet `{0}` is not a whole number of chips")]
    BadChips(String),
}

impl FromStr for Placement {
    type Err = MoveParseError;
    fn from_str(s: &str) -> Result<Placement, MoveParseError> {
        let mut words = s.split_ascii_whitespace();
        let count_word = words.next().ok_or(MoveParseError::MissingCount)?;
        let count: usize =
            count_word.parse().map_err(|_| MoveParseError::BadCount(count_word.to_owned()))?;
        let numbers: Vec<&str> = words.collect();
        if Some(numbers.len()) != count.checked_mul(2) {
            return Err(MoveParseError::CoordinateCount {
                count,
                expected: count.saturating_mul(2),
                found: numbers.len(),
            });
        }
        let numbers = numbers
            .iter()
            .map(|w| w.parse::<i64>().map_err(|_| MoveParseError::BadCoordinate((*w).to_owned())))
            .collect::<Result<Vec<i64>, _>>()?;
        let cells = numbers.chunks_exact(2).map(|p| (p[0], p[1])).collect();
        Ok(Placement { cells })
    }
}

/// A placement the rules forbid.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlacementError {
    #[error("block {block} has {expected} cells, the placement gives {found}")]
    WrongCount { block: Block, expected: usize, found: usize },
    #[error("cell ({x}, {y}) is off the {size}x{size} board")]
    OffBoard { x: i64, y: i64, size: u8 },
    #[error("cell ({x}, {y}) is given twice")]
    Repeated { x: i64, y: i64 },
    #[error("cell ({x}, {y}) is already filled")]
    Filled { x: i64, y: i64 },
    #[error("the cells do not form block {block} in any rotation or reflection")]
    WrongShape { block: Block },
}

/// The two blocks put up for auction in a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Offer {
    pub a: Block,
    pub b: Block,
}

impl Offer {
    #[must_use]
    pub fn contains(self, block: Block) -> bool {
        block == self.a || block == self.b
    }

    /// The block of the offer that is not `block`.
    #[must_use]
    pub fn other(self, block: Block) -> Block {
        if block == self.a {
            self.b
        } else {
            self.a
        }
    }
}

/// A player's answer to an offer: the block it wants and the chips it bets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bet {
    pub block: Block,
    pub chips: u32,
}

impl fmt::Display for Bet {
    /// `C x`, the tail of `BET`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.block, self.chips)
    }
}

impl FromStr for Bet {
    type Err = MoveParseError;
    fn from_str(s: &str) -> Result<Bet, MoveParseError> {
        let words: Vec<&str> = s.split_ascii_whitespace().collect();
        let [block, chips] = words[..] else {
            return Err(MoveParseError::BetFields(words.len()));
        };
        Ok(Bet {
            block: block.parse()?,
            chips: chips.parse().map_err(|_| MoveParseError::BadChips(chips.to_owned()))?,
        })
    }
}

/// A bet the rules forbid.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BetError {
    #[error("block {block} is not offered (the offer is {} and {})", offer.a, offer.b)]
    NotOffered { block: Block, offer: Offer },
    #[error("bet {bet} is over the limit of {max}")]
    OverLimit { bet: u32, max: u32 },
    #[error("bet {bet} is more than the {chips} chips left")]
    OverChips { bet: u32, chips: u32 },
}

/// What the auction gives one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Award {
    pub block: Block,
    pub paid: u32,
}

/// Settles an auction between two legal bets. `first_wins_tie` is called
/// only when both players bet the same chips on the same block.
pub fn resolve_auction(
    offer: Offer,
    bets: BySide<Bet>,
    first_wins_tie: impl FnOnce() -> bool,
) -> BySide<Award> {
    let won = |bet: Bet| Award { block: bet.block, paid: bet.chips };
    if bets.first.block != bets.second.block {
        return bets.map(won);
    }
    let winner = match bets.first.chips.cmp(&bets.second.chips) {
        Ordering::Greater => Side::First,
        Ordering::Less => Side::Second,
        Ordering::Equal if first_wins_tie() => Side::First,
        Ordering::Equal => Side::Second,
    };
    BySide::from_fn(|side| {
        if side == winner {
            won(bets[side])
        } else {
            Award { block: offer.other(bets[side].block), paid: 0 }
        }
    })
}

/// Both players' boards and chips after some rounds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    params: Params,
    round: u32,
    boards: BySide<Board>,
    chips: BySide<u32>,
}

impl State {
    /// The start of a game; `params` must be valid.
    #[must_use]
    pub fn new(params: Params) -> State {
        State {
            params,
            round: 0,
            boards: BySide::new(Board::empty(params.size), Board::empty(params.size)),
            chips: BySide::new(params.chips, params.chips),
        }
    }

    #[must_use]
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The rounds completed.
    #[must_use]
    pub fn round(&self) -> u32 {
        self.round
    }

    #[must_use]
    pub fn board(&self, side: Side) -> &Board {
        &self.boards[side]
    }

    #[must_use]
    pub fn chips(&self, side: Side) -> u32 {
        self.chips[side]
    }

    /// All rounds are played.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.round >= self.params.rounds
    }

    /// Whether `side` may answer `offer` with `bet`.
    pub fn check_bet(&self, side: Side, offer: Offer, bet: Bet) -> Result<(), BetError> {
        if !offer.contains(bet.block) {
            return Err(BetError::NotOffered { block: bet.block, offer });
        }
        if bet.chips > self.params.max_bet {
            return Err(BetError::OverLimit { bet: bet.chips, max: self.params.max_bet });
        }
        if bet.chips > self.chips[side] {
            return Err(BetError::OverChips { bet: bet.chips, chips: self.chips[side] });
        }
        Ok(())
    }

    /// Takes the auction's payments.
    pub fn pay(&mut self, awards: BySide<Award>) {
        for side in Side::BOTH {
            self.chips[side] = self.chips[side].saturating_sub(awards[side].paid);
        }
    }

    /// Every legal placement of `block` for `side`, the pass last.
    #[must_use]
    pub fn legal_moves(&self, side: Side, block: Block) -> Vec<Placement> {
        let mut moves: Vec<Placement> =
            self.boards[side].placements(block).map(Placement::from_mask).collect();
        moves.push(Placement::PASS);
        moves
    }

    /// The cells `placement` would fill for `side` with `block` (0 for a pass).
    pub fn check_placement(
        &self,
        side: Side,
        block: Block,
        placement: &Placement,
    ) -> Result<u64, PlacementError> {
        if placement.is_pass() {
            return Ok(0);
        }
        if placement.cells.len() != block.size() {
            return Err(PlacementError::WrongCount {
                block,
                expected: block.size(),
                found: placement.cells.len(),
            });
        }
        let mask = self.boards[side].cells_mask(placement)?;
        let top = mask.trailing_zeros() / STRIDE;
        let left = placement.cells.iter().map(|c| c.1).min().unwrap_or(1) as u32 - 1;
        let normalized = mask >> (top * STRIDE + left);
        if block.orientations().iter().all(|s| s.mask != normalized) {
            return Err(PlacementError::WrongShape { block });
        }
        Ok(mask)
    }

    /// Places `block` for `side` if the rules allow it.
    pub fn play(
        &mut self,
        side: Side,
        block: Block,
        placement: &Placement,
    ) -> Result<(), PlacementError> {
        let mask = self.check_placement(side, block, placement)?;
        self.play_unchecked(side, mask);
        Ok(())
    }

    /// Fills the cells of `mask` on `side`'s board without any check.
    pub fn play_unchecked(&mut self, side: Side, mask: u64) {
        self.boards[side].filled |= mask;
    }

    /// Both players have placed: the round is over.
    pub fn end_round(&mut self) {
        self.round += 1;
    }

    /// The score in half points: 2 × (filled cells + largest square's area) + chips.
    #[must_use]
    pub fn score_halves(&self, side: Side) -> u64 {
        2 * u64::from(self.boards[side].points()) + u64::from(self.chips[side])
    }

    /// Both scores in points (exact: halves are representable).
    #[must_use]
    pub fn scores(&self) -> BySide<f64> {
        BySide::from_fn(|side| self.score_halves(side) as f64 / 2.0)
    }
}

impl fmt::Display for State {
    /// Four lines: the parameters, the rounds played, then each side's
    /// chips and board.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.params)?;
        writeln!(f, "round {}", self.round)?;
        writeln!(f, "first {} {}", self.chips.first, self.boards.first)?;
        write!(f, "second {} {}", self.chips.second, self.boards.second)
    }
}

impl FromStr for State {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<State, NotationError> {
        let lines: Vec<&str> = s.lines().collect();
        let [params, round, first, second] = lines[..] else {
            return Err(NotationError(format!("a state has 4 lines, found {}", lines.len())));
        };
        let params: Params = params.parse()?;
        let round = round
            .strip_prefix("round ")
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| NotationError(format!("expected `round N`, found {round:?}")))?;
        let mut state = State::new(params);
        state.round = round;
        for (side, line) in [(Side::First, first), (Side::Second, second)] {
            let words: Vec<&str> = line.split(' ').collect();
            let [name, chips, board] = words[..] else {
                return Err(NotationError(format!(
                    "expected `{side} CHIPS BOARD`, found {line:?}"
                )));
            };
            if name != side.to_string() {
                return Err(NotationError(format!("expected `{side}`, found {name:?}")));
            }
            state.chips[side] = chips
                .parse()
                .map_err(|_| NotationError(format!("chips {chips:?} is not a number")))?;
            let board: Board = board.parse()?;
            if board.size != params.size {
                return Err(NotationError(format!(
                    "a {}x{} board in a game of size {}",
                    board.size, board.size, params.size
                )));
            }
            state.boards[side] = board;
        }
        Ok(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Board {
        rows.join("/").parse().unwrap()
    }

    #[test]
    fn ninety_one_orientations() {
        let total: usize = Block::ALL.iter().map(|b| b.orientations().len()).sum();
        assert_eq!(total, 91);
        assert_eq!(Block::L3.orientations().len(), 4);
        assert_eq!(Block::X5.orientations().len(), 1);
    }

    #[test]
    fn names_round_trip() {
        for block in Block::ALL {
            assert_eq!(block.name().parse::<Block>(), Ok(block));
        }
        assert!("l3".parse::<Block>().is_err());
    }

    #[test]
    fn statement_score_example() {
        // 42 filled cells: everything but row 6, so the largest square is 5x5.
        let filled =
            board(&["#######", "#######", "#######", "#######", "#######", ".......", "#######"]);
        assert_eq!(filled.filled_count(), 42);
        assert_eq!(filled.largest_square(), 5);
        let mut state = State::new(Params::LARGE);
        state.boards.first = filled;
        state.chips.first = 3;
        assert_eq!(state.score_halves(Side::First), 137);
        assert_eq!(state.scores().first, 68.5);
    }

    #[test]
    fn largest_square_does_not_wrap_rows() {
        // On an 8x8 board the last column and the next row's first column
        // are adjacent bits; they must not make a square.
        let mut wrap = Board::empty(8);
        wrap.filled = 1 << 7 | 1 << 8 | 1 << 15 | 1 << 16;
        assert_eq!(wrap.largest_square(), 1);
        let full8 = Board { size: 8, filled: u64::MAX };
        assert_eq!(full8.largest_square(), 8);
        assert_eq!(Board::empty(7).largest_square(), 0);
        let diagonal = board(&["#..", ".#.", "..#"]);
        assert_eq!(diagonal.largest_square(), 1);
        assert_eq!(board(&["##.", "##.", "..."]).largest_square(), 2);
    }

    #[test]
    fn placement_shape_checks() {
        let state = State::new(Params::LARGE);
        let corner = Placement { cells: vec![(2, 2), (1, 1), (2, 1)] };
        assert_eq!(state.check_placement(Side::First, Block::L3, &corner), Ok(1 | 1 << 8 | 1 << 9));
        let line = Placement { cells: vec![(1, 1), (1, 2), (1, 3)] };
        assert_eq!(
            state.check_placement(Side::First, Block::L3, &line),
            Err(PlacementError::WrongShape { block: Block::L3 })
        );
        // Cells at the right edge: the shift that normalises must not lose any.
        let edge = Placement { cells: vec![(7, 7), (6, 7), (7, 6)] };
        assert!(state.check_placement(Side::First, Block::L3, &edge).is_ok());
    }

    #[test]
    fn auction_table() {
        let offer = Offer { a: Block::I1, b: Block::X5 };
        let bet = |block, chips| Bet { block, chips };
        let award = |block, paid| Award { block, paid };
        let never = || -> bool { panic!("no tie to break") };
        // Different blocks: both get theirs and pay.
        let r = resolve_auction(offer, BySide::new(bet(Block::I1, 2), bet(Block::X5, 3)), never);
        assert_eq!(r, BySide::new(award(Block::I1, 2), award(Block::X5, 3)));
        // Same block, higher bet wins; the other pays nothing.
        let r = resolve_auction(offer, BySide::new(bet(Block::X5, 1), bet(Block::X5, 4)), never);
        assert_eq!(r, BySide::new(award(Block::I1, 0), award(Block::X5, 4)));
        let r = resolve_auction(offer, BySide::new(bet(Block::I1, 5), bet(Block::I1, 0)), never);
        assert_eq!(r, BySide::new(award(Block::I1, 5), award(Block::X5, 0)));
        // Same block, same bet: the tie decides.
        let same = BySide::new(bet(Block::X5, 2), bet(Block::X5, 2));
        let r = resolve_auction(offer, same, || true);
        assert_eq!(r, BySide::new(award(Block::X5, 2), award(Block::I1, 0)));
        let r = resolve_auction(offer, same, || false);
        assert_eq!(r, BySide::new(award(Block::I1, 0), award(Block::X5, 2)));
    }

    #[test]
    fn bet_checks() {
        let mut state = State::new(Params::LARGE);
        state.chips.second = 2;
        let offer = Offer { a: Block::T4, b: Block::O4 };
        let bet = |block, chips| Bet { block, chips };
        assert_eq!(state.check_bet(Side::First, offer, bet(Block::O4, 5)), Ok(()));
        assert_eq!(
            state.check_bet(Side::First, offer, bet(Block::I1, 0)),
            Err(BetError::NotOffered { block: Block::I1, offer })
        );
        assert_eq!(
            state.check_bet(Side::First, offer, bet(Block::T4, 6)),
            Err(BetError::OverLimit { bet: 6, max: 5 })
        );
        assert_eq!(
            state.check_bet(Side::Second, offer, bet(Block::T4, 3)),
            Err(BetError::OverChips { bet: 3, chips: 2 })
        );
        assert_eq!(state.check_bet(Side::Second, offer, bet(Block::T4, 2)), Ok(()));
    }

    #[test]
    fn state_notation_round_trips() {
        let mut state = State::new(Params {
            size: 5,
            chips: 10,
            rounds: 8,
            max_bet: 3,
            blocks: BlockSet::of(&[Block::I1, Block::L3, Block::O4]),
        });
        state
            .play(
                Side::Second,
                Block::O4,
                &Placement { cells: vec![(4, 4), (4, 5), (5, 4), (5, 5)] },
            )
            .unwrap();
        state.chips.first = 7;
        state.end_round();
        let text = state.to_string();
        assert_eq!(text.parse::<State>(), Ok(state.clone()));
        assert!(text.contains("blocks=I1,L3,O4"));
        assert_eq!(
            State::new(Params::LARGE).to_string().parse::<State>(),
            Ok(State::new(Params::LARGE))
        );
        assert!("size=7".parse::<State>().is_err());
    }
}
