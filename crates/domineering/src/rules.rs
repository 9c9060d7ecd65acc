//! The rules of Domineering on 8x8 with cell values, on bitboards.
//!
//! Cell `(x, y)` (row `x`, column `y`, both 1-based as on the wire) is bit
//! `(x - 1) * 8 + (y - 1)` of a `u64`. A placement is named by its *anchor*,
//! the covered cell with the smaller row and column: the first player's
//! horizontal domino covers the anchor and the bit above it (`+1`, the next
//! column), the second player's vertical domino the anchor and the bit eight
//! above it (`+8`, the next row).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;
use versus_core::{BySide, GameRng, Outcome, Side};

/// The side of the board.
pub const SIZE: u8 = 8;
/// Every cell but those of column 8: a horizontal domino cannot start there.
pub const NOT_LAST_COLUMN: u64 = !0x8080_8080_8080_8080;
/// The second player's head start, in half-points (2.5 points).
pub const KOMI_HALF_POINTS: u32 = 5;
/// The largest value of a cell.
pub const MAX_VALUE: u8 = 3;

/// One of the 64 cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell of bit `index`, if `index < 64`.
    #[must_use]
    pub fn new(index: u8) -> Option<Cell> {
        (index < 64).then_some(Cell(index))
    }

    /// The cell at row `x`, column `y` (1-based), if both are in `1..=8`.
    #[must_use]
    pub fn from_xy(x: u8, y: u8) -> Option<Cell> {
        let on_board = |v: u8| (1..=SIZE).contains(&v);
        (on_board(x) && on_board(y)).then(|| Cell((x - 1) * SIZE + (y - 1)))
    }

    /// The row, 1-based.
    #[must_use]
    pub fn x(self) -> u8 {
        self.0 / SIZE + 1
    }

    /// The column, 1-based.
    #[must_use]
    pub fn y(self) -> u8 {
        self.0 % SIZE + 1
    }

    #[must_use]
    pub fn index(self) -> u8 {
        self.0
    }

    #[must_use]
    pub fn bit(self) -> u64 {
        1 << self.0
    }

    /// The cells of `mask`, lowest bit first.
    pub fn iter(mut mask: u64) -> impl Iterator<Item = Cell> {
        std::iter::from_fn(move || {
            if mask == 0 {
                return None;
            }
            let index = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            Some(Cell(index))
        })
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.x(), self.y())
    }
}

/// How far the second cell of `side`'s domino is from its anchor, in bits.
#[must_use]
pub fn shift(side: Side) -> u32 {
    match side {
        Side::First => 1,
        Side::Second => u32::from(SIZE),
    }
}

/// The two cells `side` covers by a placement at `anchor`. Only meaningful
/// for an anchor whose domino stays on the board.
#[must_use]
pub fn domino(side: Side, anchor: Cell) -> u64 {
    (1 | 1 << shift(side)) << anchor.0
}

/// The anchors of `side`'s dominoes that fit in `empty`.
#[must_use]
pub fn anchors_in(side: Side, empty: u64) -> u64 {
    match side {
        Side::First => empty & (empty >> 1) & NOT_LAST_COLUMN,
        Side::Second => empty & (empty >> SIZE),
    }
}

/// A move: a domino named by its anchor (its orientation is the mover's), or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Place(Cell),
    Pass,
}

impl Move {
    /// The move of wire coordinates `x y`: a cell, or `-1 -1` for a pass.
    #[must_use]
    pub fn from_coords(x: i64, y: i64) -> Option<Move> {
        if (x, y) == (-1, -1) {
            return Some(Move::Pass);
        }
        let x = u8::try_from(x).ok()?;
        let y = u8::try_from(y).ok()?;
        Cell::from_xy(x, y).map(Move::Place)
    }

    /// The wire coordinates: the anchor's row and column, `(-1, -1)` for a pass.
    #[must_use]
    pub fn coords(self) -> (i8, i8) {
        match self {
            Move::Place(cell) => (cell.x() as i8, cell.y() as i8),
            Move::Pass => (-1, -1),
        }
    }
}

/// Written as on the wire: `x y`, or `-1 -1` for a pass.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (x, y) = self.coords();
        write!(f, "{x} {y}")
    }
}

/// A move or state text that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    #[error("expected two coordinates, found {0:?}")]
    MoveShape(String),
    #[error("{0:?} is neither a cell nor -1 -1")]
    NotACell(String),
    #[error("expected `values cells side passes`, found {0} fields")]
    StateShape(usize),
    #[error("expected 8 rows of 8 {what} separated by `/`, found {text:?}")]
    Rows { what: &'static str, text: String },
    #[error("{0:?} is not a cell value in 0..=3")]
    Value(char),
    #[error("{0:?} is not a cell (`.`, `h` or `v`)")]
    CellChar(char),
    #[error("the {0} player's cells do not form whole dominoes")]
    Broken(Side),
    #[error("expected `first` or `second` to move, found {0:?}")]
    Side(String),
    #[error("expected 0, 1 or 2 consecutive passes, found {0:?}")]
    Passes(String),
}

impl FromStr for Move {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Move, ParseError> {
        let words: Vec<&str> = text.split_ascii_whitespace().collect();
        let [x, y] = words[..] else {
            return Err(ParseError::MoveShape(text.to_owned()));
        };
        let not_a_cell = || ParseError::NotACell(text.to_owned());
        let x = parse_int(x).ok_or_else(not_a_cell)?;
        let y = parse_int(y).ok_or_else(not_a_cell)?;
        Move::from_coords(x, y).ok_or_else(not_a_cell)
    }
}

/// A decimal integer: an optional `-`, then at most 18 digits (no `+`, no
/// spaces), so that it always fits an `i64`.
#[must_use]
pub fn parse_int(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let plain =
        !digits.is_empty() && digits.len() <= 18 && digits.bytes().all(|b| b.is_ascii_digit());
    plain.then(|| text.parse().ok()).flatten()
}

/// The 64 cell values, as two bit planes: value = low bit + 2 × high bit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Values {
    low: u64,
    high: u64,
}

impl Values {
    /// Every cell worth 0.
    pub const ZERO: Values = Values { low: 0, high: 0 };

    /// The values of cells 0..64 (row by row), if each is in `0..=3`.
    #[must_use]
    pub fn from_array(cells: [u8; 64]) -> Option<Values> {
        let mut values = Values::ZERO;
        for (index, value) in cells.into_iter().enumerate() {
            if value > MAX_VALUE {
                return None;
            }
            values.low |= u64::from(value & 1) << index;
            values.high |= u64::from(value >> 1) << index;
        }
        Some(values)
    }

    /// The values of rows 1..=8, each from column 1 to 8, if each is in `0..=3`.
    #[must_use]
    pub fn from_rows(rows: [[u8; 8]; 8]) -> Option<Values> {
        Values::from_array(std::array::from_fn(|index| rows[index / 8][index % 8]))
    }

    /// The judge's draw: 64 values `rng.below(4)`, row 1 to row 8, each row
    /// from column 1 to column 8.
    pub fn random(rng: &mut GameRng) -> Values {
        let mut cells = [0; 64];
        for cell in &mut cells {
            *cell = rng.below(u64::from(MAX_VALUE) + 1) as u8;
        }
        Values::from_array(cells).expect("below(4) is in 0..=3")
    }

    #[must_use]
    pub fn get(&self, cell: Cell) -> u8 {
        ((self.low >> cell.0) & 1 | ((self.high >> cell.0) & 1) << 1) as u8
    }

    /// Row `x` (1-based), column 1 first.
    #[must_use]
    pub fn row(&self, x: u8) -> [u8; 8] {
        std::array::from_fn(|column| self.get(Cell((x - 1) * SIZE + column as u8)))
    }

    /// The total value of the cells of `mask`.
    #[must_use]
    pub fn sum(&self, mask: u64) -> u32 {
        (mask & self.low).count_ones() + 2 * (mask & self.high).count_ones()
    }

    /// The value of `side`'s domino at every anchor at once, as three bit
    /// planes (bit 0, 1, 2 of the sum of the two cells). Anchors whose domino
    /// leaves the board get meaningless bits; mask them with the placements.
    #[must_use]
    pub fn domino_value_planes(&self, side: Side) -> [u64; 3] {
        let s = shift(side);
        let (low1, high1) = (self.low, self.high);
        let (low2, high2) = (self.low >> s, self.high >> s);
        let carry0 = low1 & low2;
        let half = high1 ^ high2;
        [low1 ^ low2, half ^ carry0, (high1 & high2) | (carry0 & half)]
    }
}

/// Rows separated by `/`, each the 8 digits of its cells.
impl fmt::Display for Values {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for x in 1..=SIZE {
            if x > 1 {
                f.write_str("/")?;
            }
            for value in self.row(x) {
                write!(f, "{value}")?;
            }
        }
        Ok(())
    }
}

impl FromStr for Values {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Values, ParseError> {
        let chars = grid(text, "digits")?;
        let mut cells = [0; 64];
        for (cell, c) in cells.iter_mut().zip(chars) {
            *cell =
                c.to_digit(10).filter(|&v| v <= u32::from(MAX_VALUE)).ok_or(ParseError::Value(c))?
                    as u8;
        }
        Ok(Values::from_array(cells).expect("checked above"))
    }
}

/// The 64 characters of 8 `/`-separated rows of 8.
fn grid(text: &str, what: &'static str) -> Result<Vec<char>, ParseError> {
    let bad = || ParseError::Rows { what, text: text.to_owned() };
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != usize::from(SIZE) || rows.iter().any(|r| r.chars().count() != 8) {
        return Err(bad());
    }
    Ok(rows.iter().flat_map(|r| r.chars()).collect())
}

/// Why a move cannot be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum IllegalMove {
    #[error("the game is over")]
    GameOver,
    #[error("the {} domino at {cell} leaves the board", orientation(*.side))]
    OffBoard { side: Side, cell: Cell },
    #[error("cell {0} is already covered")]
    Occupied(Cell),
}

fn orientation(side: Side) -> &'static str {
    match side {
        Side::First => "horizontal",
        Side::Second => "vertical",
    }
}

/// A position: the values, the cells each player covers, who moves, and how
/// many passes were just made in a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    values: Values,
    covered: BySide<u64>,
    to_move: Side,
    passes: u8,
}

impl State {
    /// The empty board with these values; the first player moves.
    #[must_use]
    pub fn new(values: Values) -> State {
        State { values, covered: BySide::default(), to_move: Side::First, passes: 0 }
    }

    #[must_use]
    pub fn values(&self) -> &Values {
        &self.values
    }

    #[must_use]
    pub fn side_to_move(&self) -> Side {
        self.to_move
    }

    /// The cells covered by `side`'s dominoes.
    #[must_use]
    pub fn covered(&self, side: Side) -> u64 {
        self.covered[side]
    }

    #[must_use]
    pub fn empty(&self) -> u64 {
        !(self.covered.first | self.covered.second)
    }

    /// How many passes were just made in a row (0, 1 or 2).
    #[must_use]
    pub fn consecutive_passes(&self) -> u8 {
        self.passes
    }

    /// The anchors of `side`'s legal placements, whoever is to move.
    #[must_use]
    pub fn placements(&self, side: Side) -> u64 {
        anchors_in(side, self.empty())
    }

    /// `side`'s placements by value: entry `v` holds the anchors whose two
    /// cells are worth `v` in all (0..=6).
    #[must_use]
    pub fn placements_by_value(&self, side: Side) -> [u64; 7] {
        let anchors = self.placements(side);
        let [bit0, bit1, bit2] = self.values.domino_value_planes(side);
        std::array::from_fn(|value| {
            let pick = |plane: u64, bit: usize| if value >> bit & 1 == 1 { plane } else { !plane };
            anchors & pick(bit0, 0) & pick(bit1, 1) & pick(bit2, 2)
        })
    }

    /// What `side`'s domino at `anchor` earns.
    #[must_use]
    pub fn placement_value(&self, side: Side, anchor: Cell) -> u32 {
        self.values.sum(domino(side, anchor))
    }

    /// Both players have passed in a row, or neither can place a domino.
    #[must_use]
    pub fn is_over(&self) -> bool {
        let empty = self.empty();
        self.passes >= 2 || anchors_in(Side::First, empty) | anchors_in(Side::Second, empty) == 0
    }

    /// The legal moves of the side to move: its placements by anchor, then
    /// the pass (always legal); none once the game is over.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.is_over() {
            return Vec::new();
        }
        Cell::iter(self.placements(self.to_move)).map(Move::Place).chain([Move::Pass]).collect()
    }

    /// Why `mv` is illegal for the side to move, if it is.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        let Move::Place(cell) = mv else {
            return Ok(());
        };
        let side = self.to_move;
        let off_board = match side {
            Side::First => cell.y() == SIZE,
            Side::Second => cell.x() == SIZE,
        };
        if off_board {
            return Err(IllegalMove::OffBoard { side, cell });
        }
        let taken = domino(side, cell) & !self.empty();
        match Cell::iter(taken).next() {
            Some(occupied) => Err(IllegalMove::Occupied(occupied)),
            None => Ok(()),
        }
    }

    /// Plays `mv` if it is legal.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.check(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays `mv`, which must be legal.
    pub fn play_unchecked(&mut self, mv: Move) {
        debug_assert_eq!(self.check(mv), Ok(()), "{mv} in {self}");
        match mv {
            Move::Place(cell) => {
                self.covered[self.to_move] |= domino(self.to_move, cell);
                self.passes = 0;
            }
            Move::Pass => self.passes = (self.passes + 1).min(2),
        }
        self.to_move = self.to_move.opponent();
    }

    /// The points `side`'s placements earned (without the komi).
    #[must_use]
    pub fn points(&self, side: Side) -> u32 {
        self.values.sum(self.covered[side])
    }

    /// `side`'s score in half-points, the komi included: exact, and never
    /// equal for the two sides (the first's is even, the second's odd).
    #[must_use]
    pub fn half_points(&self, side: Side) -> u32 {
        let komi = match side {
            Side::First => 0,
            Side::Second => KOMI_HALF_POINTS,
        };
        2 * self.points(side) + komi
    }

    /// The scores as reported: the first's points, the second's plus 2.5.
    #[must_use]
    pub fn scores(&self) -> BySide<f64> {
        BySide::from_fn(|side| f64::from(self.half_points(side)) / 2.0)
    }

    /// The result by the scores, once the game is over.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.is_over().then(|| Outcome::from_scores(self.scores()))
    }

    /// The side with the higher score (there is no draw).
    #[must_use]
    pub fn leader(&self) -> Side {
        if self.half_points(Side::First) > self.half_points(Side::Second) {
            Side::First
        } else {
            Side::Second
        }
    }
}

/// One line: `values cells side passes`, e.g. the start of an all-zero board
/// is `00000000/.../00000000 ......../.../........ first 0`; in `cells`, `h`
/// and `v` mark the first and second player's dominoes.
impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.values)?;
        for index in 0..64u8 {
            if index > 0 && index % SIZE == 0 {
                f.write_str("/")?;
            }
            let bit = 1 << index;
            let c = if self.covered.first & bit != 0 {
                'h'
            } else if self.covered.second & bit != 0 {
                'v'
            } else {
                '.'
            };
            write!(f, "{c}")?;
        }
        write!(f, " {} {}", self.to_move, self.passes)
    }
}

impl FromStr for State {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<State, ParseError> {
        let fields: Vec<&str> = text.split_ascii_whitespace().collect();
        let [values, cells, side, passes] = fields[..] else {
            return Err(ParseError::StateShape(fields.len()));
        };
        let values: Values = values.parse()?;
        let mut covered = BySide::<u64>::default();
        for (index, c) in grid(cells, "cells")?.into_iter().enumerate() {
            match c {
                'h' => covered.first |= 1 << index,
                'v' => covered.second |= 1 << index,
                '.' => {}
                _ => return Err(ParseError::CellChar(c)),
            }
        }
        for side in Side::BOTH {
            if !tiles(side, covered[side]) {
                return Err(ParseError::Broken(side));
            }
        }
        let to_move = match side {
            "first" => Side::First,
            "second" => Side::Second,
            _ => return Err(ParseError::Side(side.to_owned())),
        };
        let passes = match passes {
            "0" => 0,
            "1" => 1,
            "2" => 2,
            _ => return Err(ParseError::Passes(passes.to_owned())),
        };
        Ok(State { values, covered, to_move, passes })
    }
}

/// Whether `mask` is a union of disjoint dominoes of `side`'s orientation:
/// taking the lowest cell each time, its partner must be there too.
fn tiles(side: Side, mut mask: u64) -> bool {
    while mask != 0 {
        let anchor = Cell(mask.trailing_zeros() as u8);
        if anchors_in(side, mask) & anchor.bit() == 0 {
            return false;
        }
        mask &= !domino(side, anchor);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(x: u8, y: u8) -> Cell {
        Cell::from_xy(x, y).unwrap()
    }

    /// Placements by looking at each cell and its neighbour, as a person would.
    fn naive_placements(state: &State, side: Side) -> u64 {
        let empty = state.empty();
        let mut anchors = 0;
        for x in 1..=8 {
            for y in 1..=8 {
                let (nx, ny) = match side {
                    Side::First => (x, y + 1),
                    Side::Second => (x + 1, y),
                };
                if let (Some(a), Some(b)) = (Cell::from_xy(x, y), Cell::from_xy(nx, ny)) {
                    if empty & a.bit() != 0 && empty & b.bit() != 0 {
                        anchors |= a.bit();
                    }
                }
            }
        }
        anchors
    }

    fn random_state(rng: &mut GameRng) -> State {
        let mut state = State::new(Values::random(rng));
        let plies = rng.below(40);
        for _ in 0..plies {
            let moves = state.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Passes are rare so that boards fill up.
            let mv = moves[rng.below(moves.len() as u64) as usize];
            if mv == Move::Pass && rng.below(8) != 0 {
                continue;
            }
            state.play(mv).unwrap();
        }
        state
    }

    #[test]
    fn cells_and_bits() {
        assert_eq!(cell(1, 1).index(), 0);
        assert_eq!(cell(1, 8).index(), 7);
        assert_eq!(cell(2, 1).index(), 8);
        assert_eq!(cell(8, 8).index(), 63);
        assert_eq!((cell(3, 5).x(), cell(3, 5).y()), (3, 5));
        assert_eq!(Cell::from_xy(0, 1), None);
        assert_eq!(Cell::from_xy(1, 9), None);
        assert_eq!(domino(Side::First, cell(2, 3)), cell(2, 3).bit() | cell(2, 4).bit());
        assert_eq!(domino(Side::Second, cell(2, 3)), cell(2, 3).bit() | cell(3, 3).bit());
    }

    #[test]
    fn empty_board_has_56_placements_each() {
        let state = State::new(Values::ZERO);
        assert_eq!(state.placements(Side::First).count_ones(), 56);
        assert_eq!(state.placements(Side::Second).count_ones(), 56);
        assert_eq!(state.placements(Side::First) & cell(4, 8).bit(), 0);
        assert_eq!(state.placements(Side::Second) & cell(8, 4).bit(), 0);
        assert_eq!(state.legal_moves().len(), 57);
    }

    #[test]
    fn bitboard_placements_match_the_naive_ones() {
        let mut rng = GameRng::new(5);
        for _ in 0..2000 {
            let state = random_state(&mut rng);
            for side in Side::BOTH {
                assert_eq!(state.placements(side), naive_placements(&state, side), "{state}");
            }
        }
    }

    #[test]
    fn placements_by_value_match_each_domino() {
        let mut rng = GameRng::new(6);
        for _ in 0..500 {
            let state = random_state(&mut rng);
            for side in Side::BOTH {
                let by_value = state.placements_by_value(side);
                assert_eq!(by_value.iter().fold(0, |a, m| a | m), state.placements(side));
                for (value, mask) in by_value.into_iter().enumerate() {
                    for anchor in Cell::iter(mask) {
                        assert_eq!(state.placement_value(side, anchor), value as u32);
                    }
                }
            }
        }
    }

    #[test]
    fn values_text_and_rows() {
        let mut rng = GameRng::new(1);
        let values = Values::random(&mut rng);
        assert_eq!(values.to_string().parse::<Values>(), Ok(values));
        let rows: [[u8; 8]; 8] = std::array::from_fn(|x| values.row(x as u8 + 1));
        assert_eq!(Values::from_rows(rows), Some(values));
        let mut cells = [0; 64];
        cells[9] = 3;
        cells[10] = 2;
        let values = Values::from_array(cells).unwrap();
        assert_eq!(values.get(cell(2, 2)), 3);
        assert_eq!(values.sum(domino(Side::First, cell(2, 2))), 5);
        cells[0] = 4;
        assert_eq!(Values::from_array(cells), None);
        assert!("0000000/00000000/00000000/00000000/00000000/00000000/00000000/00000000"
            .parse::<Values>()
            .is_err());
        assert_eq!(
            "40000000/00000000/00000000/00000000/00000000/00000000/00000000/00000000"
                .parse::<Values>(),
            Err(ParseError::Value('4'))
        );
    }

    #[test]
    fn states_round_trip_through_text() {
        let mut rng = GameRng::new(8);
        for _ in 0..500 {
            let state = random_state(&mut rng);
            assert_eq!(state.to_string().parse::<State>(), Ok(state));
        }
    }

    #[test]
    fn state_text_rejects_broken_dominoes() {
        let zeros = Values::ZERO.to_string();
        let board = |first_row: &str| {
            format!("{zeros} {first_row}/......../......../......../......../......../......../........ first 0")
        };
        assert!(board("hh......").parse::<State>().is_ok());
        assert_eq!(board("h.......").parse::<State>(), Err(ParseError::Broken(Side::First)));
        // A pair straddling two rows is not a horizontal domino.
        assert_eq!(board(".......h").parse::<State>(), Err(ParseError::Broken(Side::First)));
        assert_eq!(board("v.......").parse::<State>(), Err(ParseError::Broken(Side::Second)));
        assert_eq!(board("x.......").parse::<State>(), Err(ParseError::CellChar('x')));
    }

    #[test]
    fn moves_text() {
        assert_eq!("3 4".parse::<Move>(), Ok(Move::Place(cell(3, 4))));
        assert_eq!("-1 -1".parse::<Move>(), Ok(Move::Pass));
        assert_eq!(Move::Place(cell(8, 1)).to_string(), "8 1");
        assert_eq!(Move::Pass.to_string(), "-1 -1");
        for bad in ["", "3", "3 4 5", "0 4", "9 1", "-1 2", "+3 4", "3 x"] {
            assert!(bad.parse::<Move>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn illegal_moves_say_why() {
        let mut state = State::new(Values::ZERO);
        assert_eq!(
            state.play(Move::Place(cell(2, 8))),
            Err(IllegalMove::OffBoard { side: Side::First, cell: cell(2, 8) })
        );
        state.play(Move::Place(cell(2, 2))).unwrap();
        assert_eq!(state.play(Move::Place(cell(1, 3))), Err(IllegalMove::Occupied(cell(2, 3))));
        assert_eq!(
            state.play(Move::Place(cell(8, 1))),
            Err(IllegalMove::OffBoard { side: Side::Second, cell: cell(8, 1) })
        );
        assert_eq!(IllegalMove::Occupied(cell(2, 3)).to_string(), "cell 2 3 is already covered");
        state.play(Move::Pass).unwrap();
        state.play(Move::Pass).unwrap();
        assert!(state.is_over());
        assert_eq!(state.play(Move::Pass), Err(IllegalMove::GameOver));
    }

    #[test]
    fn scores_count_half_points_exactly() {
        let mut cells = [0; 64];
        cells[0] = 3;
        cells[1] = 2;
        cells[8] = 1;
        let mut state = State::new(Values::from_array(cells).unwrap());
        state.play(Move::Place(cell(1, 1))).unwrap();
        assert_eq!(state.points(Side::First), 5);
        assert_eq!(state.half_points(Side::Second), 5);
        assert_eq!(state.scores(), BySide::new(5.0, 2.5));
        assert_eq!(state.leader(), Side::First);
    }
}
