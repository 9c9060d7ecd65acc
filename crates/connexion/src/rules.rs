//! The rules of Connexion: cells, tiles, the board with its scores, hands,
//! bags and the whole game state. Pure: no I/O, no clocks, no evaluation.
//!
//! # Cell order
//!
//! The 64 cells are indexed `0..64` column by column (`a` to `f`), within a
//! column row by row (`1` to `6`), within a row `-` before `+`, skipping the 8
//! cells that do not exist (`a1- a4- c3+ c6+ d1- d4- f3+ f6+`). So `a1+` is 0,
//! `a2-` is 1, `a2+` is 2 and `f6-` is 63. Bit `i` of a `u64` mask is cell `i`.
//!
//! # Tiles
//!
//! Colour `R G B Y` × pattern `1 2 3 4`; [`Tile::index`] is
//! `4 × colour + pattern − 1` with the colours in that order, so `R1` is 0 and
//! `Y4` is 15.
//!
//! # Hands and bags
//!
//! A hand keeps its tiles in the order they entered it: the five initial
//! tiles in draw order, then each drawn tile appended at the end; a placed
//! tile is removed and the others keep their order. A [`Bag`] is the
//! remaining draw order. The referee knows it; an agent knows only the
//! remaining multiset, so its bags hold that multiset in an arbitrary order
//! and it records each draw it is told of with [`State::play_drawing`].

use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use thiserror::Error;
use versus_core::{BySide, Side};

/// The number of cells, and of turns in a game.
pub const CELLS: usize = 64;
/// Tiles each player can see and place from.
pub const HAND_SIZE: usize = 5;
/// Tiles in each player's bag at the start, two of each of the 16 kinds.
pub const BAG_SIZE: usize = 32;
/// Every kind appears this many times in each bag.
pub const COPIES: u8 = 2;

const COLUMNS: u8 = 6;
const ROWS: u8 = 6;
const COLUMN_LETTERS: &[u8; 6] = b"abcdef";

/// Whether `(column, row, plus)` (0-based) is one of the 64 cells.
const fn exists(column: u8, row: u8, plus: bool) -> bool {
    if column >= COLUMNS || row >= ROWS {
        return false;
    }
    // a1- a4- d1- d4- and c3+ c6+ f3+ f6+.
    let missing_minus = !plus && (column == 0 || column == 3) && (row == 0 || row == 3);
    let missing_plus = plus && (column == 2 || column == 5) && (row == 2 || row == 5);
    !(missing_minus || missing_plus)
}

/// Position of `(column, row, plus)` in the 72 combinations, cells or not.
const fn slot(column: u8, row: u8, plus: bool) -> usize {
    (column as usize * ROWS as usize + row as usize) * 2 + plus as usize
}

const NO_CELL: u8 = u8::MAX;

/// Slot → cell index (or `NO_CELL`), and cell index → slot.
const LAYOUT: ([u8; 72], [u8; CELLS]) = {
    let mut index_of_slot = [NO_CELL; 72];
    let mut slot_of_index = [0u8; CELLS];
    let mut next = 0;
    let mut s = 0;
    while s < 72 {
        let plus = s % 2 == 1;
        let row = (s / 2 % ROWS as usize) as u8;
        let column = (s / 2 / ROWS as usize) as u8;
        if exists(column, row, plus) {
            index_of_slot[s] = next as u8;
            slot_of_index[next] = s as u8;
            next += 1;
        }
        s += 1;
    }
    assert!(next == CELLS);
    (index_of_slot, slot_of_index)
};

const fn cell_at(column: i32, row: i32, plus: bool) -> u8 {
    if column < 0 || row < 0 || !exists(column as u8, row as u8, plus) {
        return NO_CELL;
    }
    LAYOUT.0[slot(column as u8, row as u8, plus)]
}

/// Each cell's neighbours (`NO_CELL` pads cells of degree 2) and their mask.
const ADJACENCY: ([[u8; 3]; CELLS], [u64; CELLS]) = {
    let mut lists = [[NO_CELL; 3]; CELLS];
    let mut masks = [0u64; CELLS];
    let mut i = 0;
    while i < CELLS {
        let s = LAYOUT.1[i] as i32;
        let plus = s % 2 == 1;
        let row = s / 2 % ROWS as i32;
        let column = s / 2 / ROWS as i32;
        // (c, r, -) touches (c, r, +), (c-1, r, +), (c, r-1, +); a `+` cell
        // touches the mirror images.
        let candidates = if plus {
            [
                cell_at(column, row, false),
                cell_at(column + 1, row, false),
                cell_at(column, row + 1, false),
            ]
        } else {
            [
                cell_at(column, row, true),
                cell_at(column - 1, row, true),
                cell_at(column, row - 1, true),
            ]
        };
        let mut filled = 0;
        let mut k = 0;
        while k < 3 {
            if candidates[k] != NO_CELL {
                lists[i][filled] = candidates[k];
                masks[i] |= 1 << candidates[k];
                filled += 1;
            }
            k += 1;
        }
        i += 1;
    }
    (lists, masks)
};

/// One of the 64 triangular cells, named like `a1+` on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell with index `index` (see the module docs for the order).
    #[must_use]
    pub fn new(index: usize) -> Option<Cell> {
        (index < CELLS).then_some(Cell(index as u8))
    }

    /// The cell at 0-based `column` (a = 0), `row` (1 = 0) and sign.
    #[must_use]
    pub fn from_coords(column: u8, row: u8, plus: bool) -> Option<Cell> {
        exists(column, row, plus).then(|| Cell(LAYOUT.0[slot(column, row, plus)]))
    }

    /// All cells in index order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS as u8).map(Cell)
    }

    #[must_use]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// This cell's bit in a cell mask.
    #[must_use]
    pub fn bit(self) -> u64 {
        1 << self.0
    }

    /// 0-based column: `a` is 0.
    #[must_use]
    pub fn column(self) -> u8 {
        LAYOUT.1[self.index()] / 2 / ROWS
    }

    /// 0-based row: `1` is 0.
    #[must_use]
    pub fn row(self) -> u8 {
        LAYOUT.1[self.index()] / 2 % ROWS
    }

    /// Whether the sign is `+`.
    #[must_use]
    pub fn is_plus(self) -> bool {
        LAYOUT.1[self.index()] % 2 == 1
    }

    /// The two or three cells sharing an edge with this one.
    pub fn neighbours(self) -> impl Iterator<Item = Cell> {
        ADJACENCY.0[self.index()].into_iter().filter(|&n| n != NO_CELL).map(Cell)
    }

    /// The neighbours as a cell mask.
    #[must_use]
    pub fn neighbour_mask(self) -> u64 {
        ADJACENCY.1[self.index()]
    }

    /// The cells of `mask`, in index order.
    pub fn in_mask(mut mask: u64) -> impl Iterator<Item = Cell> {
        std::iter::from_fn(move || {
            (mask != 0).then(|| {
                let cell = Cell(mask.trailing_zeros() as u8);
                mask &= mask - 1;
                cell
            })
        })
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let column = char::from(COLUMN_LETTERS[usize::from(self.column())]);
        let sign = if self.is_plus() { '+' } else { '-' };
        write!(f, "{column}{}{sign}", self.row() + 1)
    }
}

/// A string that names no cell.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("not a cell: {0:?}")]
pub struct ParseCellError(pub String);

impl FromStr for Cell {
    type Err = ParseCellError;

    fn from_str(s: &str) -> Result<Cell, ParseCellError> {
        let error = || ParseCellError(s.to_owned());
        let &[column, row, sign] = s.as_bytes() else {
            return Err(error());
        };
        let column = COLUMN_LETTERS.iter().position(|&c| c == column).ok_or_else(error)?;
        let row = match row {
            b'1'..=b'6' => row - b'1',
            _ => return Err(error()),
        };
        let plus = match sign {
            b'+' => true,
            b'-' => false,
            _ => return Err(error()),
        };
        Cell::from_coords(column as u8, row, plus).ok_or_else(error)
    }
}

/// A tile's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    Red,
    Green,
    Blue,
    Yellow,
}

impl Colour {
    pub const ALL: [Colour; 4] = [Colour::Red, Colour::Green, Colour::Blue, Colour::Yellow];

    /// `R`, `G`, `B` or `Y`.
    #[must_use]
    pub fn letter(self) -> char {
        match self {
            Colour::Red => 'R',
            Colour::Green => 'G',
            Colour::Blue => 'B',
            Colour::Yellow => 'Y',
        }
    }
}

/// One of the 16 tile kinds, named like `R1` on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(u8);

impl Tile {
    /// The kinds in index order: `R1 R2 R3 R4 G1 … Y4`.
    pub const ALL: [Tile; 16] = {
        let mut all = [Tile(0); 16];
        let mut i = 0;
        while i < 16 {
            all[i] = Tile(i as u8);
            i += 1;
        }
        all
    };

    /// The tile of `colour` and `pattern` (1 to 4).
    #[must_use]
    pub fn new(colour: Colour, pattern: u8) -> Option<Tile> {
        (1..=4).contains(&pattern).then(|| Tile(colour as u8 * 4 + pattern - 1))
    }

    #[must_use]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    #[must_use]
    pub fn colour(self) -> Colour {
        Colour::ALL[usize::from(self.0 / 4)]
    }

    /// 1 to 4.
    #[must_use]
    pub fn pattern(self) -> u8 {
        self.0 % 4 + 1
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.colour().letter(), self.pattern())
    }
}

/// A string that names no tile.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("not a tile: {0:?}")]
pub struct ParseTileError(pub String);

impl FromStr for Tile {
    type Err = ParseTileError;

    fn from_str(s: &str) -> Result<Tile, ParseTileError> {
        let error = || ParseTileError(s.to_owned());
        let &[colour, pattern] = s.as_bytes() else {
            return Err(error());
        };
        let colour = Colour::ALL
            .into_iter()
            .find(|c| c.letter() as u32 == u32::from(colour))
            .ok_or_else(error)?;
        match pattern {
            b'1'..=b'4' => Tile::new(colour, pattern - b'0').ok_or_else(error),
            _ => Err(error()),
        }
    }
}

/// Placing `tile` on `cell`; written `a1+ R1` (the arguments of `PUT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub cell: Cell,
    pub tile: Tile,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.cell, self.tile)
    }
}

/// A string that is not `<cell> <tile>`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseMoveError {
    #[error("a move is a cell and a tile, found {0:?}")]
    Shape(String),
    #[error(transparent)]
    Cell(#[from] ParseCellError),
    #[error(transparent)]
    Tile(#[from] ParseTileError),
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let words: Vec<&str> = s.split_ascii_whitespace().collect();
        let [cell, tile] = words[..] else {
            return Err(ParseMoveError::Shape(s.to_owned()));
        };
        Ok(Move { cell: cell.parse()?, tile: tile.parse()? })
    }
}

/// The cells of `within` connected to `seed` through `within`.
fn flood(within: u64, seed: u64) -> u64 {
    let mut group = seed;
    let mut frontier = seed;
    while frontier != 0 {
        let mut reach = 0;
        for cell in Cell::in_mask(frontier) {
            reach |= cell.neighbour_mask();
        }
        frontier = reach & within & !group;
        group |= frontier;
    }
    group
}

/// How much the sum of squared group sizes grows when the empty `cell`
/// joins the cells of `same` (those sharing its attribute): the groups it
/// touches merge with it into one.
fn group_gain(same: u64, cell: Cell) -> u32 {
    let mut counted = 0u64;
    let mut merged = 1u32;
    let mut old_squares = 0u32;
    for neighbour in Cell::in_mask(cell.neighbour_mask() & same) {
        if counted & neighbour.bit() == 0 {
            let group = flood(same, neighbour.bit());
            counted |= group;
            let size = group.count_ones();
            merged += size;
            old_squares += size * size;
        }
    }
    merged * merged - old_squares
}

/// The 64 cells, with masks per pattern and colour and both scores kept up
/// to date on every placement and removal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    cells: [Option<Tile>; CELLS],
    occupied: u64,
    by_pattern: [u64; 4],
    by_colour: [u64; 4],
    scores: BySide<u32>,
}

impl Default for Board {
    fn default() -> Self {
        Board {
            cells: [None; CELLS],
            occupied: 0,
            by_pattern: [0; 4],
            by_colour: [0; 4],
            scores: BySide::default(),
        }
    }
}

impl Board {
    #[must_use]
    pub fn new() -> Self {
        Board::default()
    }

    #[must_use]
    pub fn get(&self, cell: Cell) -> Option<Tile> {
        self.cells[cell.index()]
    }

    /// All cells in index order.
    #[must_use]
    pub fn cells(&self) -> &[Option<Tile>; CELLS] {
        &self.cells
    }

    /// The mask of occupied cells.
    #[must_use]
    pub fn occupied(&self) -> u64 {
        self.occupied
    }

    /// The mask of empty cells.
    #[must_use]
    pub fn empty(&self) -> u64 {
        !self.occupied
    }

    /// The number of tiles on the board.
    #[must_use]
    pub fn count(&self) -> usize {
        self.occupied.count_ones() as usize
    }

    /// The scores now: the first player's by pattern, the second's by colour.
    #[must_use]
    pub fn scores(&self) -> BySide<u32> {
        self.scores
    }

    fn masks(&self, tile: Tile) -> BySide<u64> {
        BySide::new(
            self.by_pattern[usize::from(tile.pattern() - 1)],
            self.by_colour[tile.colour() as usize],
        )
    }

    /// What each score would gain if `tile` were placed on the empty `cell`.
    #[must_use]
    pub fn score_gain(&self, cell: Cell, tile: Tile) -> BySide<u32> {
        debug_assert!(self.get(cell).is_none(), "{cell} is occupied");
        self.masks(tile).map(|same| group_gain(same, cell))
    }

    /// Places `tile` on the empty `cell`.
    pub fn place(&mut self, cell: Cell, tile: Tile) {
        assert!(self.get(cell).is_none(), "{cell} is occupied");
        let gain = self.score_gain(cell, tile);
        self.scores.first += gain.first;
        self.scores.second += gain.second;
        self.cells[cell.index()] = Some(tile);
        self.occupied |= cell.bit();
        self.by_pattern[usize::from(tile.pattern() - 1)] |= cell.bit();
        self.by_colour[tile.colour() as usize] |= cell.bit();
    }

    /// Takes the tile off `cell`, undoing its placement exactly.
    pub fn remove(&mut self, cell: Cell) -> Option<Tile> {
        let tile = self.cells[cell.index()].take()?;
        self.occupied &= !cell.bit();
        self.by_pattern[usize::from(tile.pattern() - 1)] &= !cell.bit();
        self.by_colour[tile.colour() as usize] &= !cell.bit();
        let gain = self.score_gain(cell, tile);
        self.scores.first -= gain.first;
        self.scores.second -= gain.second;
        Some(tile)
    }
}

/// Both scores of `cells` computed from nothing, by a depth-first search per
/// group over the neighbour lists: the reference for [`Board::scores`].
#[must_use]
pub fn scores_from_scratch(cells: &[Option<Tile>; CELLS]) -> BySide<u32> {
    let by_pattern = |a: Tile, b: Tile| a.pattern() == b.pattern();
    let by_colour = |a: Tile, b: Tile| a.colour() == b.colour();
    BySide::new(squared_groups(cells, by_pattern), squared_groups(cells, by_colour))
}

fn squared_groups(cells: &[Option<Tile>; CELLS], same: impl Fn(Tile, Tile) -> bool) -> u32 {
    let mut visited = [false; CELLS];
    let mut total = 0;
    for start in Cell::all() {
        let Some(tile) = cells[start.index()] else {
            continue;
        };
        if visited[start.index()] {
            continue;
        }
        visited[start.index()] = true;
        let mut stack = vec![start];
        let mut size = 0;
        while let Some(cell) = stack.pop() {
            size += 1;
            for next in cell.neighbours() {
                let joins = cells[next.index()].is_some_and(|other| same(tile, other));
                if joins && !visited[next.index()] {
                    visited[next.index()] = true;
                    stack.push(next);
                }
            }
        }
        total += size * size;
    }
    total
}

/// A player's visible tiles, in the order they entered the hand.
#[derive(Clone, Copy, Debug)]
pub struct Hand {
    tiles: [Tile; HAND_SIZE],
    len: u8,
}

impl Default for Hand {
    fn default() -> Self {
        Hand { tiles: [Tile(0); HAND_SIZE], len: 0 }
    }
}

// Slots past `len` hold stale tiles: only the visible ones count.
impl PartialEq for Hand {
    fn eq(&self, other: &Self) -> bool {
        self.tiles() == other.tiles()
    }
}

impl Eq for Hand {}

impl Hash for Hand {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.tiles().hash(state);
    }
}

impl Hand {
    #[must_use]
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles[..usize::from(self.len)]
    }

    #[must_use]
    pub fn contains(&self, tile: Tile) -> bool {
        self.tiles().contains(&tile)
    }

    fn push(&mut self, tile: Tile) {
        assert!(usize::from(self.len) < HAND_SIZE, "the hand is full");
        self.tiles[usize::from(self.len)] = tile;
        self.len += 1;
    }

    /// Removes the first copy of `tile`; false if there is none.
    fn remove(&mut self, tile: Tile) -> bool {
        let Some(at) = self.tiles().iter().position(|&t| t == tile) else {
            return false;
        };
        self.tiles.copy_within(at + 1..usize::from(self.len), at);
        self.len -= 1;
        true
    }
}

/// A player's bag: the tiles still to be drawn, in draw order.
#[derive(Clone, Copy, Debug)]
pub struct Bag {
    order: [Tile; BAG_SIZE],
    drawn: u8,
}

// Tiles already drawn are history: only the remaining order counts.
impl PartialEq for Bag {
    fn eq(&self, other: &Self) -> bool {
        self.remaining() == other.remaining()
    }
}

impl Eq for Bag {}

impl Hash for Bag {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.remaining().hash(state);
    }
}

impl Bag {
    /// A bag drawn in `order`.
    #[must_use]
    pub fn from_order(order: [Tile; BAG_SIZE]) -> Self {
        Bag { order, drawn: 0 }
    }

    /// Two of each kind, in the order `R1 R2 … Y4 R1 R2 … Y4`: the order the
    /// referee shuffles, and the order an agent assumes for the unknown rest.
    #[must_use]
    pub fn full() -> Self {
        Bag::from_order(std::array::from_fn(|i| Tile::ALL[i % 16]))
    }

    /// The tiles still to be drawn, in order.
    #[must_use]
    pub fn remaining(&self) -> &[Tile] {
        &self.order[usize::from(self.drawn)..]
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.remaining().len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The remaining tiles by kind (indexed by [`Tile::index`]).
    #[must_use]
    pub fn counts(&self) -> [u8; 16] {
        let mut counts = [0; 16];
        for tile in self.remaining() {
            counts[tile.index()] += 1;
        }
        counts
    }

    /// Draws the next tile, if any.
    pub fn draw(&mut self) -> Option<Tile> {
        let tile = self.remaining().first().copied()?;
        self.drawn += 1;
        Some(tile)
    }

    /// Draws a given tile: it is moved to the front of the remaining order
    /// first. False (and nothing changes) if the bag holds no such tile.
    pub fn draw_tile(&mut self, tile: Tile) -> bool {
        let start = usize::from(self.drawn);
        let Some(at) = self.remaining().iter().position(|&t| t == tile) else {
            return false;
        };
        self.order.swap(start, start + at);
        self.drawn += 1;
        true
    }
}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum IllegalMove {
    #[error("the game is over")]
    GameOver,
    #[error("{0} is not in the hand")]
    NoTile(Tile),
    #[error("{0} is not empty")]
    NotEmpty(Cell),
}

/// Why a move with a given draw cannot be recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum DrawError {
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
    #[error("{0} cannot be drawn: the bag holds none")]
    NotInBag(Tile),
    #[error("no tile was drawn but the bag is not empty")]
    BagNotEmpty,
}

/// Hands that no pair of bags could have dealt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("the {side} player's hand holds more than two {tile}")]
pub struct ImpossibleHand {
    pub side: Side,
    pub tile: Tile,
}

/// A whole game position: the board, both hands and both bags. The number
/// of turns played is the number of tiles on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    board: Board,
    hands: BySide<Hand>,
    bags: BySide<Bag>,
}

impl State {
    /// The start of a game whose bags are drawn in `orders`: each hand is the
    /// first five tiles of its bag.
    #[must_use]
    pub fn new(orders: BySide<[Tile; BAG_SIZE]>) -> Self {
        let mut bags = orders.map(Bag::from_order);
        let hands = BySide::from_fn(|side| {
            let mut hand = Hand::default();
            for _ in 0..HAND_SIZE {
                hand.push(bags[side].draw().expect("a full bag"));
            }
            hand
        });
        State { board: Board::new(), hands, bags }
    }

    /// The start of a game as an agent sees it after `INIT`: the hands, and
    /// bags holding the other 27 tiles of each side in an arbitrary order.
    pub fn from_hands(hands: BySide<[Tile; HAND_SIZE]>) -> Result<Self, ImpossibleHand> {
        let mut state = State {
            board: Board::new(),
            hands: BySide::default(),
            bags: BySide::new(Bag::full(), Bag::full()),
        };
        for side in Side::BOTH {
            for tile in hands[side] {
                if !state.bags[side].draw_tile(tile) {
                    return Err(ImpossibleHand { side, tile });
                }
                state.hands[side].push(tile);
            }
        }
        Ok(state)
    }

    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    #[must_use]
    pub fn hand(&self, side: Side) -> &Hand {
        &self.hands[side]
    }

    #[must_use]
    pub fn bag(&self, side: Side) -> &Bag {
        &self.bags[side]
    }

    /// Turns played so far, 0 to 64.
    #[must_use]
    pub fn turn(&self) -> usize {
        self.board.count()
    }

    #[must_use]
    pub fn is_over(&self) -> bool {
        self.turn() == CELLS
    }

    /// Whose turn it is; `None` once all 64 turns are played.
    #[must_use]
    pub fn side_to_move(&self) -> Option<Side> {
        match self.turn() {
            CELLS.. => None,
            t if t % 2 == 0 => Some(Side::First),
            _ => Some(Side::Second),
        }
    }

    /// The scores now: the first player's by pattern, the second's by colour.
    #[must_use]
    pub fn scores(&self) -> BySide<u32> {
        self.board.scores()
    }

    /// Every distinct move of the side to move: hand order (a second copy of
    /// a tile adds nothing), then cell index.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        let Some(side) = self.side_to_move() else {
            return Vec::new();
        };
        let tiles = self.hands[side].tiles();
        let mut moves = Vec::with_capacity(tiles.len() * (CELLS - self.turn()));
        for (i, &tile) in tiles.iter().enumerate() {
            if tiles[..i].contains(&tile) {
                continue;
            }
            for cell in Cell::in_mask(self.board.empty()) {
                moves.push(Move { cell, tile });
            }
        }
        moves
    }

    /// Whether `mv` can be played now; the tile is checked before the cell.
    pub fn check(&self, mv: Move) -> Result<Side, IllegalMove> {
        let side = self.side_to_move().ok_or(IllegalMove::GameOver)?;
        if !self.hands[side].contains(mv.tile) {
            return Err(IllegalMove::NoTile(mv.tile));
        }
        if self.board.get(mv.cell).is_some() {
            return Err(IllegalMove::NotEmpty(mv.cell));
        }
        Ok(side)
    }

    /// Plays `mv` and draws the mover's next tile, which is returned.
    pub fn play(&mut self, mv: Move) -> Result<Option<Tile>, IllegalMove> {
        self.check(mv)?;
        Ok(self.play_unchecked(mv))
    }

    /// [`State::play`] for a move known to be legal.
    pub fn play_unchecked(&mut self, mv: Move) -> Option<Tile> {
        let side = self.place(mv);
        let drawn = self.bags[side].draw();
        if let Some(tile) = drawn {
            self.hands[side].push(tile);
        }
        drawn
    }

    /// Plays `mv` and records that the mover drew `drawn` (`None`: its bag
    /// was empty), as an agent learns from `GET` and `OPP`.
    pub fn play_drawing(&mut self, mv: Move, drawn: Option<Tile>) -> Result<(), DrawError> {
        let side = self.check(mv)?;
        match drawn {
            Some(tile) if !self.bags[side].remaining().contains(&tile) => {
                return Err(DrawError::NotInBag(tile))
            }
            None if !self.bags[side].is_empty() => return Err(DrawError::BagNotEmpty),
            _ => {}
        }
        self.place(mv);
        if let Some(tile) = drawn {
            self.bags[side].draw_tile(tile);
            self.hands[side].push(tile);
        }
        Ok(())
    }

    fn place(&mut self, mv: Move) -> Side {
        let side = self.side_to_move().expect("the game is not over");
        let removed = self.hands[side].remove(mv.tile);
        debug_assert!(removed, "{} is not in the hand", mv.tile);
        self.board.place(mv.cell, mv.tile);
        side
    }
}

fn write_tiles(f: &mut fmt::Formatter<'_>, tiles: &[Tile]) -> fmt::Result {
    if tiles.is_empty() {
        return f.write_str("-");
    }
    tiles.iter().try_for_each(|tile| write!(f, "{tile}"))
}

/// One line: the 64 cells in index order (`..` for an empty one), then the
/// first and the second player's hand, then their bags in draw order, tiles
/// written without spaces and `-` for none. For example the start of a game
/// begins with 128 dots.
impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for cell in self.board.cells() {
            match cell {
                Some(tile) => write!(f, "{tile}")?,
                None => f.write_str("..")?,
            }
        }
        for side in Side::BOTH {
            f.write_str(" ")?;
            write_tiles(f, self.hands[side].tiles())?;
        }
        for side in Side::BOTH {
            f.write_str(" ")?;
            write_tiles(f, self.bags[side].remaining())?;
        }
        Ok(())
    }
}

/// A string that is not a consistent [`State`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseStateError {
    #[error("expected 5 fields (board, two hands, two bags), found {0}")]
    Fields(usize),
    #[error("the board must be 128 characters, found {0}")]
    BoardLength(usize),
    #[error(transparent)]
    Tile(#[from] ParseTileError),
    #[error("the {0} player's hand and bag do not fit the turn")]
    Counts(Side),
    #[error("{0} appears {1} times, expected 4")]
    Kind(Tile, usize),
}

fn parse_tiles(text: &str) -> Result<Vec<Tile>, ParseTileError> {
    if text == "-" {
        return Ok(Vec::new());
    }
    let chars: Vec<char> = text.chars().collect();
    chars.chunks(2).map(|pair| pair.iter().collect::<String>().parse()).collect()
}

impl FromStr for State {
    type Err = ParseStateError;

    fn from_str(s: &str) -> Result<State, ParseStateError> {
        let fields: Vec<&str> = s.split_ascii_whitespace().collect();
        let [board_text, hand_first, hand_second, bag_first, bag_second] = fields[..] else {
            return Err(ParseStateError::Fields(fields.len()));
        };
        if board_text.len() != 2 * CELLS || !board_text.is_ascii() {
            return Err(ParseStateError::BoardLength(board_text.chars().count()));
        }
        let mut board = Board::new();
        for (cell, pair) in Cell::all().zip(board_text.as_bytes().chunks(2)) {
            if pair != b".." {
                let text = std::str::from_utf8(pair).unwrap_or_default();
                board.place(cell, text.parse()?);
            }
        }
        let turn = board.count();
        let hands = BySide::new(parse_tiles(hand_first)?, parse_tiles(hand_second)?);
        let bag_tiles = BySide::new(parse_tiles(bag_first)?, parse_tiles(bag_second)?);
        let mut kinds = [0usize; 16];
        for tile in board.cells().iter().flatten() {
            kinds[tile.index()] += 1;
        }
        let mut state =
            State { board, hands: BySide::default(), bags: BySide::new(Bag::full(), Bag::full()) };
        for side in Side::BOTH {
            let placed = match side {
                Side::First => turn.div_ceil(2),
                Side::Second => turn / 2,
            };
            let unplaced = BAG_SIZE - placed;
            let (hand, bag) = (&hands[side], &bag_tiles[side]);
            if hand.len() != unplaced.min(HAND_SIZE) || hand.len() + bag.len() != unplaced {
                return Err(ParseStateError::Counts(side));
            }
            for &tile in hand.iter().chain(bag) {
                kinds[tile.index()] += 1;
            }
            for &tile in hand {
                state.hands[side].push(tile);
            }
            let mut order = [Tile(0); BAG_SIZE];
            let start = BAG_SIZE - bag.len();
            order[start..].copy_from_slice(bag);
            state.bags[side] = Bag { order, drawn: start as u8 };
        }
        if let Some(kind) = (0..16).find(|&k| kinds[k] != 4) {
            return Err(ParseStateError::Kind(Tile::ALL[kind], kinds[kind]));
        }
        Ok(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(name: &str) -> Cell {
        name.parse().unwrap()
    }

    #[test]
    fn cell_names_and_order() {
        assert_eq!(cell("a1+").index(), 0);
        assert_eq!(cell("a2-").index(), 1);
        assert_eq!(cell("f6-").index(), 63);
        for c in Cell::all() {
            assert_eq!(c.to_string().parse::<Cell>(), Ok(c));
        }
        for missing in ["a1-", "a4-", "c3+", "c6+", "d1-", "d4-", "f3+", "f6+"] {
            assert!(missing.parse::<Cell>().is_err(), "{missing}");
        }
        for bad in ["", "a1", "g1+", "a7+", "a0+", "A1+", "a1+ ", "a1*"] {
            assert!(bad.parse::<Cell>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn statement_neighbours() {
        let around = |name: &str| {
            let mut names: Vec<String> = cell(name).neighbours().map(|c| c.to_string()).collect();
            names.sort();
            names
        };
        assert_eq!(around("c5-"), ["b5+", "c4+", "c5+"]);
        assert_eq!(around("f4+"), ["f4-", "f5-"]);
    }

    #[test]
    fn tile_names() {
        assert_eq!(Tile::ALL[0].to_string(), "R1");
        assert_eq!(Tile::ALL[15].to_string(), "Y4");
        for tile in Tile::ALL {
            assert_eq!(tile.to_string().parse::<Tile>(), Ok(tile));
        }
        for bad in ["", "X0", "R0", "R5", "r1", "R", "R12", "Ḡ1"] {
            assert!(bad.parse::<Tile>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn hand_keeps_order() {
        let mut hand = Hand::default();
        for name in ["R1", "G2", "R1", "B3"] {
            hand.push(name.parse().unwrap());
        }
        assert!(hand.remove("R1".parse().unwrap()));
        assert!(!hand.remove("Y4".parse().unwrap()));
        let names: Vec<String> = hand.tiles().iter().map(Tile::to_string).collect();
        assert_eq!(names, ["G2", "R1", "B3"]);
    }

    #[test]
    fn bag_draws_a_given_tile() {
        let mut bag = Bag::full();
        assert_eq!(bag.draw(), Some(Tile::ALL[0]));
        assert!(bag.draw_tile(Tile::ALL[0]));
        assert!(!bag.draw_tile(Tile::ALL[0]));
        assert_eq!(bag.len(), 30);
        assert_eq!(bag.counts()[0], 0);
        assert_eq!(bag.counts()[1], 2);
    }

    #[test]
    fn removal_undoes_placement() {
        let mut board = Board::new();
        let moves = [("a4+", "G2"), ("b4-", "B2"), ("b4+", "Y2"), ("a5-", "G1")];
        let mut history = vec![board.clone()];
        for (c, t) in moves {
            board.place(cell(c), t.parse().unwrap());
            history.push(board.clone());
        }
        for (c, _) in moves.iter().rev() {
            history.pop();
            board.remove(cell(c));
            assert_eq!(&board, history.last().unwrap());
        }
    }
}
