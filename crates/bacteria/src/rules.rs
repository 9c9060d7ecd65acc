//! The rules of Bacteria War (7x7 Ataxx without blockers) on bitboards.
//!
//! A side's pieces are a `u64` over the 49 cells, bit `(row - 1) * 7 + (col - 1)`,
//! rows 1..7 from top to bottom. A division is one move per target square (every
//! own piece next to the target gives the same position); a jump is one move per
//! (source, target). Passing is legal only when no other move exists, and a pass
//! is a turn. The game ends when a side has no pieces, no empty cell is left, or
//! [`MAX_TURNS`] turns have been played.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;
use versus_core::{BySide, GameResult, Side};

/// Cells on a side of the board.
pub const SIZE: u8 = 7;
/// Cells on the board.
pub const CELLS: usize = 49;
/// Turns after which the game ends (200 per player; a pass is a turn).
pub const MAX_TURNS: u16 = 400;

pub(crate) const FULL: u64 = (1 << CELLS) - 1;

const fn column(col: u32) -> u64 {
    let mut mask = 0;
    let mut row = 0;
    while row < 7 {
        mask |= 1 << (row * 7 + col - 1);
        row += 1;
    }
    mask
}

/// Cells from which a shift by `+1`/`+2`/`-1`/`-2` columns stays on the same row.
const COLS_TO_1: u64 = FULL & !column(7);
const COLS_TO_2: u64 = FULL & !column(6) & !column(7);
const COLS_FROM_1: u64 = FULL & !column(1);
const COLS_FROM_2: u64 = FULL & !column(1) & !column(2);

const fn ring(index: usize, distance: i32) -> u64 {
    let row = (index / 7) as i32;
    let col = (index % 7) as i32;
    let mut mask = 0;
    let mut r = 0;
    while r < 7 {
        let mut c = 0;
        while c < 7 {
            let dr = if r > row { r - row } else { row - r };
            let dc = if c > col { c - col } else { col - c };
            let d = if dr > dc { dr } else { dc };
            if d == distance {
                mask |= 1 << (r * 7 + c);
            }
            c += 1;
        }
        r += 1;
    }
    mask
}

const fn rings(distance: i32) -> [u64; CELLS] {
    let mut table = [0; CELLS];
    let mut i = 0;
    while i < CELLS {
        table[i] = ring(i, distance);
        i += 1;
    }
    table
}

/// The (up to) 8 cells at distance 1 of each cell.
pub static NEIGHBOURS: [u64; CELLS] = rings(1);
/// The (up to) 16 cells at distance 2 of each cell.
pub static JUMPS: [u64; CELLS] = rings(2);

/// Every cell at distance 1 of a piece of `b` (and `b` itself).
#[inline(always)]
pub(crate) fn dilate(b: u64) -> u64 {
    let row = b | ((b & COLS_TO_1) << 1) | ((b & COLS_FROM_1) >> 1);
    (row | (row << 7) | (row >> 7)) & FULL
}

/// A cell of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The cell at 1-based `row` and `col`, if it is on the board.
    #[must_use]
    pub fn new(row: u8, col: u8) -> Option<Square> {
        ((1..=SIZE).contains(&row) && (1..=SIZE).contains(&col))
            .then(|| Square((row - 1) * SIZE + col - 1))
    }

    /// The cell of bit `index`, if `index < 49`.
    #[must_use]
    pub fn from_index(index: usize) -> Option<Square> {
        (index < CELLS).then_some(Square(index as u8))
    }

    /// Every cell, in bit order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..CELLS as u8).map(Square)
    }

    #[must_use]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// 1-based, top to bottom.
    #[must_use]
    pub fn row(self) -> u8 {
        self.0 / SIZE + 1
    }

    /// 1-based, left to right.
    #[must_use]
    pub fn col(self) -> u8 {
        self.0 % SIZE + 1
    }

    #[must_use]
    pub fn bit(self) -> u64 {
        1 << self.0
    }

    /// Chebyshev distance.
    #[must_use]
    pub fn distance(self, other: Square) -> u8 {
        self.row().abs_diff(other.row()).max(self.col().abs_diff(other.col()))
    }
}

/// Written as row then column, e.g. `17` for (1, 7).
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.row(), self.col())
    }
}

/// The cells of a bitboard, lowest bit first.
fn squares(mut b: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        (b != 0).then(|| {
            let index = b.trailing_zeros();
            b &= b - 1;
            Square(index as u8)
        })
    })
}

/// A move as the rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// A new piece on `to`, next to an own piece.
    Division { to: Square },
    /// The piece on `from` moves to `to`, at distance 2.
    Jump { from: Square, to: Square },
    /// Only when no other move exists.
    Pass,
}

impl Move {
    /// The cell the move fills.
    #[must_use]
    pub fn target(self) -> Option<Square> {
        match self {
            Move::Division { to } | Move::Jump { to, .. } => Some(to),
            Move::Pass => None,
        }
    }
}

/// `23` (division onto (2,3)), `1133` (jump from (1,1) to (3,3)) or `0000` (pass),
/// in the spirit of the UAI notation of Ataxx engines.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Division { to } => write!(f, "{to}"),
            Move::Jump { from, to } => write!(f, "{from}{to}"),
            Move::Pass => f.write_str("0000"),
        }
    }
}

/// A move in the notation of [`Move`]'s `Display` that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("invalid move {0:?}: expected `rc`, `rcrc` or `0000` with rows and columns 1..7")]
pub struct MoveParseError(pub String);

impl FromStr for Move {
    type Err = MoveParseError;

    fn from_str(s: &str) -> Result<Move, MoveParseError> {
        let error = || MoveParseError(s.to_owned());
        if s == "0000" {
            return Ok(Move::Pass);
        }
        let digits: Vec<u8> = s.bytes().map(|b| b.wrapping_sub(b'0')).collect::<Vec<_>>();
        let square = |pair: &[u8]| Square::new(pair[0], pair[1]).ok_or_else(error);
        match digits.len() {
            2 => Ok(Move::Division { to: square(&digits)? }),
            4 => Ok(Move::Jump { from: square(&digits[..2])?, to: square(&digits[2..])? }),
            _ => Err(error()),
        }
    }
}

/// A move the rules do not allow in this position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("illegal move {0}")]
pub struct IllegalMove(pub Move);

/// Why a position could not be read or built.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    #[error("expected `board side [turns]`, found {0} fields")]
    FieldCount(usize),
    #[error("expected 7 rows separated by `/`, found {0}")]
    RowCount(usize),
    #[error("row {row} has {len} cells instead of 7")]
    RowLength { row: usize, len: usize },
    #[error("unknown cell {0:?} (expected `.`, `O` or `X`)")]
    Cell(char),
    #[error("unknown side to move {0:?} (expected `O` or `X`)")]
    SideToMove(String),
    #[error("invalid turn count {0:?} (expected 0..=400)")]
    Turns(String),
    #[error("a cell holds pieces of both sides")]
    Overlap,
    #[error("a piece lies outside the 49 cells")]
    OffBoard,
}

/// A position: both sides' pieces, the side to move and the turns played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pieces: [u64; 2],
    to_move: Side,
    turns: u16,
}

impl Default for State {
    fn default() -> Self {
        State::start()
    }
}

fn piece_char(side: Side) -> char {
    match side {
        Side::First => 'O',
        Side::Second => 'X',
    }
}

impl State {
    /// `O` on (1,1) and (7,7), `X` on (1,7) and (7,1), `O` to move.
    #[must_use]
    pub fn start() -> State {
        let at = |row, col| Square::new(row, col).map_or(0, Square::bit);
        State { pieces: [at(1, 1) | at(7, 7), at(1, 7) | at(7, 1)], to_move: Side::First, turns: 0 }
    }

    /// A position from bitboards; they must not overlap or leave the board,
    /// and `turns` must not exceed [`MAX_TURNS`].
    pub fn from_parts(
        pieces: BySide<u64>,
        to_move: Side,
        turns: u16,
    ) -> Result<State, PositionError> {
        if pieces.first & pieces.second != 0 {
            return Err(PositionError::Overlap);
        }
        if (pieces.first | pieces.second) & !FULL != 0 {
            return Err(PositionError::OffBoard);
        }
        if turns > MAX_TURNS {
            return Err(PositionError::Turns(turns.to_string()));
        }
        Ok(State { pieces: [pieces.first, pieces.second], to_move, turns })
    }

    #[must_use]
    pub fn pieces(&self, side: Side) -> u64 {
        self.pieces[side.index()]
    }

    #[must_use]
    pub fn empty(&self) -> u64 {
        FULL & !(self.pieces[0] | self.pieces[1])
    }

    #[must_use]
    pub fn piece_at(&self, square: Square) -> Option<Side> {
        Side::BOTH.into_iter().find(|&side| self.pieces(side) & square.bit() != 0)
    }

    #[must_use]
    pub fn side_to_move(&self) -> Side {
        self.to_move
    }

    /// Turns played so far, passes included.
    #[must_use]
    pub fn turns(&self) -> u16 {
        self.turns
    }

    /// Pieces per side (the scores).
    #[must_use]
    pub fn counts(&self) -> BySide<u32> {
        BySide::new(self.pieces[0].count_ones(), self.pieces[1].count_ones())
    }

    /// A side has no pieces, no cell is empty, or the turns are used up.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.pieces[0] == 0 || self.pieces[1] == 0 || self.empty() == 0 || self.turns >= MAX_TURNS
    }

    /// The result once the game is over: more pieces wins, equal is a draw.
    #[must_use]
    pub fn result(&self) -> Option<GameResult> {
        if !self.is_over() {
            return None;
        }
        let counts = self.counts();
        Some(match counts.first.cmp(&counts.second) {
            std::cmp::Ordering::Greater => GameResult::FirstWins,
            std::cmp::Ordering::Less => GameResult::SecondWins,
            std::cmp::Ordering::Equal => GameResult::Draw,
        })
    }

    fn own(&self) -> u64 {
        self.pieces[self.to_move.index()]
    }

    fn opp(&self) -> u64 {
        self.pieces[self.to_move.opponent().index()]
    }

    /// Whether the side to move has a move other than a pass (false once over).
    #[must_use]
    pub fn can_move(&self) -> bool {
        !self.is_over() && dilate(dilate(self.own())) & self.empty() != 0
    }

    /// Every legal move: divisions by target, then jumps by source and target;
    /// a lone `Pass` when the side to move has no other move; nothing once the
    /// game is over.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.is_over() {
            return Vec::new();
        }
        let own = self.own();
        let empty = self.empty();
        let mut moves: Vec<Move> =
            squares(dilate(own) & empty).map(|to| Move::Division { to }).collect();
        for from in squares(own) {
            moves.extend(squares(JUMPS[from.index()] & empty).map(|to| Move::Jump { from, to }));
        }
        if moves.is_empty() {
            moves.push(Move::Pass);
        }
        moves
    }

    #[must_use]
    pub fn is_legal(&self, mv: Move) -> bool {
        if self.is_over() {
            return false;
        }
        let empty = self.empty();
        match mv {
            Move::Division { to } => {
                empty & to.bit() != 0 && NEIGHBOURS[to.index()] & self.own() != 0
            }
            Move::Jump { from, to } => {
                empty & to.bit() != 0
                    && self.own() & from.bit() != 0
                    && JUMPS[from.index()] & to.bit() != 0
            }
            Move::Pass => !self.can_move(),
        }
    }

    /// Plays `mv` if it is legal.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if !self.is_legal(mv) {
            return Err(IllegalMove(mv));
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays `mv`, which must be legal (an illegal move gives a meaningless state).
    pub fn play_unchecked(&mut self, mv: Move) {
        let me = self.to_move.index();
        let them = 1 - me;
        let (placed, removed, to) = match mv {
            Move::Division { to } => (to.bit(), 0, to),
            Move::Jump { from, to } => (to.bit(), from.bit(), to),
            Move::Pass => {
                self.finish_turn();
                return;
            }
        };
        let captured = NEIGHBOURS[to.index()] & self.pieces[them];
        self.pieces[me] = (self.pieces[me] | placed | captured) & !removed;
        self.pieces[them] ^= captured;
        self.finish_turn();
    }

    fn finish_turn(&mut self) {
        self.to_move = self.to_move.opponent();
        self.turns += 1;
    }

    /// The opponent pieces `mv` would capture.
    #[must_use]
    pub fn captures(&self, mv: Move) -> u32 {
        mv.target().map_or(0, |to| (NEIGHBOURS[to.index()] & self.opp()).count_ones())
    }

    /// The move a wire message `(from, to)` names: a division at distance 1
    /// (any own neighbour of the target), a jump at distance 2. Checked.
    pub fn move_between(&self, from: Square, to: Square) -> Result<Move, IllegalMove> {
        let mv = match from.distance(to) {
            1 => Move::Division { to },
            _ => Move::Jump { from, to },
        };
        let named_source_is_own = self.own() & from.bit() != 0;
        if named_source_is_own && self.is_legal(mv) {
            Ok(mv)
        } else {
            Err(IllegalMove(mv))
        }
    }

    /// The source a division onto `to` names on the wire: the lowest-index own
    /// neighbour of `to`.
    #[must_use]
    pub fn division_source(&self, to: Square) -> Option<Square> {
        squares(NEIGHBOURS[to.index()] & self.own()).next()
    }
}

/// The testdata format: 7 rows top to bottom separated by `/` (`.` empty, `O`
/// first player, `X` second), a space, the side to move, and the turns played
/// when there were any, e.g. `O.....X/......./......./......./......./......./X.....O O`.
impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for square in Square::all() {
            if square.col() == 1 && square.row() > 1 {
                f.write_str("/")?;
            }
            let c = self.piece_at(square).map_or('.', piece_char);
            write!(f, "{c}")?;
        }
        write!(f, " {}", piece_char(self.to_move))?;
        if self.turns > 0 {
            write!(f, " {}", self.turns)?;
        }
        Ok(())
    }
}

impl FromStr for State {
    type Err = PositionError;

    fn from_str(s: &str) -> Result<State, PositionError> {
        let fields: Vec<&str> = s.split_ascii_whitespace().collect();
        let (board, side, turns) = match fields[..] {
            [board, side] => (board, side, None),
            [board, side, turns] => (board, side, Some(turns)),
            _ => return Err(PositionError::FieldCount(fields.len())),
        };
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != usize::from(SIZE) {
            return Err(PositionError::RowCount(rows.len()));
        }
        let mut pieces = BySide::new(0u64, 0u64);
        for (r, row) in rows.iter().enumerate() {
            let len = row.chars().count();
            if len != usize::from(SIZE) {
                return Err(PositionError::RowLength { row: r + 1, len });
            }
            for (c, cell) in row.chars().enumerate() {
                let bit = 1u64 << (r * 7 + c);
                match cell {
                    '.' => {}
                    'O' => pieces.first |= bit,
                    'X' => pieces.second |= bit,
                    other => return Err(PositionError::Cell(other)),
                }
            }
        }
        let to_move = match side {
            "O" => Side::First,
            "X" => Side::Second,
            other => return Err(PositionError::SideToMove(other.to_owned())),
        };
        let turns = match turns {
            None => 0,
            Some(text) => text
                .parse::<u16>()
                .ok()
                .filter(|&t| t <= MAX_TURNS)
                .ok_or_else(|| PositionError::Turns(text.to_owned()))?,
        };
        State::from_parts(pieces, to_move, turns)
    }
}

// ---------------------------------------------------------------------------
// Perft

/// The number of move sequences of exactly `depth` turns from `state`, with a
/// division counted once per target, a pass counted only when it is the sole
/// move, and a finished game having no moves. No transposition table: every
/// node is visited (the last ply is counted without being played).
#[must_use]
pub fn perft(state: &State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    // Every line of more turns than remain runs into the turn cap, which ends
    // the game before `depth`; shorter lines never reach it.
    if u32::from(state.turns) + depth > u32::from(MAX_TURNS) {
        return 0;
    }
    perft_bits(state.own(), state.opp(), depth)
}

/// The perft of each legal move's position (`depth - 1` further turns), in
/// the order of [`State::legal_moves`]. Empty for `depth == 0`.
#[must_use]
pub fn perft_divide(state: &State, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    state
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = *state;
            child.play_unchecked(mv);
            (mv, perft(&child, depth - 1))
        })
        .collect()
}

/// Perft with the side to move's pieces `own`, for `depth >= 1` turns that
/// stay under the turn cap.
fn perft_bits(own: u64, opp: u64, depth: u32) -> u64 {
    if opp == 0 {
        return 0;
    }
    let empty = FULL & !(own | opp);
    if depth == 1 {
        let moves = count_moves(own, empty);
        // No move: a pass, unless the game is over (`own` empty or board full).
        return if moves == 0 { u64::from(own != 0 && empty != 0) } else { moves };
    }
    let mut nodes = 0;
    let mut divisions = dilate(own) & empty;
    let mut any_move = divisions != 0;
    while divisions != 0 {
        let to = divisions.trailing_zeros() as usize;
        divisions &= divisions - 1;
        let captured = NEIGHBOURS[to] & opp;
        nodes += perft_bits(opp ^ captured, own | (1 << to) | captured, depth - 1);
    }
    let mut sources = own;
    while sources != 0 {
        let from = sources.trailing_zeros() as usize;
        sources &= sources - 1;
        let mut targets = JUMPS[from] & empty;
        any_move |= targets != 0;
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            let captured = NEIGHBOURS[to] & opp;
            let moved = (own ^ (1 << from)) | (1 << to) | captured;
            nodes += perft_bits(opp ^ captured, moved, depth - 1);
        }
    }
    if !any_move && own != 0 && empty != 0 {
        nodes = perft_bits(opp, own, depth - 1);
    }
    nodes
}

const M1: u64 = 0x5555_5555_5555_5555;
const M2: u64 = 0x3333_3333_3333_3333;
const M4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
const M8: u64 = 0x00ff_00ff_00ff_00ff;

/// Each byte holds the number of set bits of the same byte of `x`.
#[inline(always)]
fn byte_counts(x: u64) -> u64 {
    let pairs = x - ((x >> 1) & M1);
    let nibbles = (pairs & M2) + ((pairs >> 2) & M2);
    (nibbles + (nibbles >> 4)) & M4
}

/// A full adder on 64 lanes: (carry, sum).
#[inline(always)]
fn add3(a: u64, b: u64, c: u64) -> (u64, u64) {
    let partial = a ^ b;
    ((a & b) | (partial & c), partial ^ c)
}

/// Up to this many pieces, popcounting each source's jump targets beats the
/// adder tree of [`count_moves_sliced`] (measured with `benches/perft.rs` on
/// the start position and on mid-game positions).
const FEW_PIECES: u32 = 6;

/// The number of moves (divisions by target, jumps by source and target) of
/// the side with pieces `own`, not counting a pass.
#[inline(always)]
fn count_moves(own: u64, empty: u64) -> u64 {
    let mut rest = own;
    for _ in 0..FEW_PIECES {
        rest &= rest.wrapping_sub(1);
    }
    if rest == 0 {
        count_moves_per_source(own, empty)
    } else {
        count_moves_sliced(own, empty)
    }
}

#[inline(always)]
fn count_moves_per_source(own: u64, empty: u64) -> u64 {
    let mut moves = (dilate(own) & empty).count_ones();
    let mut sources = own;
    while sources != 0 {
        let from = sources.trailing_zeros() as usize;
        sources &= sources - 1;
        moves += (JUMPS[from] & empty).count_ones();
    }
    u64::from(moves)
}

/// [`count_moves`] as a sum of 17 popcounts: the division targets and the
/// jump targets of each of the 16 distance-2 offsets. Baseline x86-64 has no
/// popcnt instruction, so rather than 17 software popcounts the 17 boards are
/// added per cell in bit-sliced binary (a carry-save adder tree) and only the
/// five bit planes of the sums are popcounted, folded together in byte lanes.
#[inline(always)]
fn count_moves_sliced(own: u64, empty: u64) -> u64 {
    let right2 = own & COLS_TO_2;
    let right1 = own & COLS_TO_1;
    let left1 = own & COLS_FROM_1;
    let left2 = own & COLS_FROM_2;
    let row = own | (right1 << 1) | (left1 >> 1);
    let divisions = (row | (row << 7) | (row >> 7)) & empty;
    // The jump targets per offset (rows up or down 2, any column shift; or
    // columns 2 away and rows up to 1 away). Bits shifted past cell 48 are
    // cleared by `empty`.
    let j = [
        (right2 >> 12) & empty,
        (right1 >> 13) & empty,
        (own >> 14) & empty,
        (left1 >> 15) & empty,
        (left2 >> 16) & empty,
        (right2 << 16) & empty,
        (right1 << 15) & empty,
        (own << 14) & empty,
        (left1 << 13) & empty,
        (left2 << 12) & empty,
        (right2 >> 5) & empty,
        (right2 << 2) & empty,
        (right2 << 9) & empty,
        (left2 >> 9) & empty,
        (left2 >> 2) & empty,
        (left2 << 5) & empty,
    ];
    let (c1, s1) = add3(j[0], j[1], j[2]);
    let (c2, s2) = add3(j[3], j[4], j[5]);
    let (c3, s3) = add3(j[6], j[7], j[8]);
    let (c4, s4) = add3(j[9], j[10], j[11]);
    let (c5, s5) = add3(j[12], j[13], j[14]);
    let (c6, s6) = add3(s1, s2, s3);
    let (c7, s7) = add3(s4, s5, j[15]);
    let (c8, ones) = add3(s6, s7, divisions);
    let (d1, t1) = add3(c1, c2, c3);
    let (d2, t2) = add3(c4, c5, c6);
    let (d3, t3) = add3(c7, c8, t1);
    let (twos, d4) = (t2 ^ t3, t2 & t3);
    let (e1, u1) = add3(d1, d2, d3);
    let (fours, e2) = (u1 ^ d4, u1 & d4);
    let (eights, sixteens) = (e1 ^ e2, e1 & e2);
    // A byte's weighted count is at most 8 cells * 17 moves = 136 < 256.
    let bytes = byte_counts(ones)
        + (byte_counts(twos) << 1)
        + (byte_counts(fours) << 2)
        + (byte_counts(eights) << 3)
        + (byte_counts(sixteens) << 4);
    let halves = (bytes & M8) + ((bytes >> 8) & M8);
    halves.wrapping_mul(0x0001_0001_0001_0001) >> 48
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(row: u8, col: u8) -> Square {
        Square::new(row, col).unwrap()
    }

    #[test]
    fn masks_have_the_expected_sizes() {
        let corner = sq(1, 1).index();
        let centre = sq(4, 4).index();
        assert_eq!(NEIGHBOURS[corner].count_ones(), 3);
        assert_eq!(NEIGHBOURS[centre].count_ones(), 8);
        assert_eq!(JUMPS[corner].count_ones(), 5);
        assert_eq!(JUMPS[centre].count_ones(), 16);
        assert_eq!(JUMPS[sq(2, 2).index()].count_ones(), 7);
        assert!(NEIGHBOURS.iter().chain(&JUMPS).all(|&m| m & !FULL == 0));
    }

    #[test]
    fn squares_are_row_major_and_one_based() {
        assert_eq!(sq(1, 1).index(), 0);
        assert_eq!(sq(1, 7).index(), 6);
        assert_eq!(sq(2, 1).index(), 7);
        assert_eq!(sq(7, 7).index(), 48);
        assert_eq!(Square::new(0, 1), None);
        assert_eq!(Square::new(1, 8), None);
        assert_eq!(sq(3, 5).to_string(), "35");
        assert_eq!(sq(1, 1).distance(sq(3, 2)), 2);
    }

    #[test]
    fn count_moves_agrees_with_the_move_list() {
        // Pseudo-random boards of every density.
        let mut x = 0x1234_5678_9abc_def0u64;
        for round in 0..4000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let y = x.rotate_left(29) ^ 0x9e37_79b9_7f4a_7c15;
            let (own, opp) = match round % 4 {
                0 => (x & FULL, y & FULL & !x),
                1 => (x & y & FULL, (x | y) & FULL & !(x & y)),
                2 => (x & !y & (x >> 3) & FULL, 0),
                _ => (x & FULL, 0),
            };
            let empty = FULL & !(own | opp);
            let state = State::from_parts(BySide::new(own, opp), Side::First, 0).unwrap();
            let divisions = squares(empty).filter(|t| NEIGHBOURS[t.index()] & own != 0);
            let jumps = squares(own).map(|s| (JUMPS[s.index()] & empty).count_ones() as usize);
            let listed = (divisions.count() + jumps.sum::<usize>()) as u64;
            if opp != 0 && empty != 0 && own != 0 && listed > 0 {
                assert_eq!(state.legal_moves().len() as u64, listed, "{state}");
            }
            assert_eq!(count_moves(own, empty), listed, "{state}");
            assert_eq!(count_moves_sliced(own, empty), listed, "{state}");
            assert_eq!(count_moves_per_source(own, empty), listed, "{state}");
        }
    }

    #[test]
    fn count_moves_handles_dense_boards() {
        // The centre empty with all 16 distance-2 cells and all 8 neighbours own.
        let empty = sq(4, 4).bit();
        assert_eq!(count_moves_sliced(FULL & !empty, empty), 17);
        // Every other cell own: 8 jumps per inner source and one division per empty cell.
        let checker: u64 =
            Square::all().filter(|s| (s.row() + s.col()) % 2 == 0).fold(0, |b, s| b | s.bit());
        let jumps: u32 =
            squares(checker).map(|from| (JUMPS[from.index()] & !checker).count_ones()).sum();
        assert_eq!(count_moves_sliced(checker, FULL & !checker), u64::from(jumps + 24));
    }

    #[test]
    fn moves_and_positions_round_trip_through_text() {
        let start = State::start();
        assert_eq!(start.to_string(), "O.....X/......./......./......./......./......./X.....O O");
        assert_eq!(start.to_string().parse::<State>(), Ok(start));
        let mut later = start;
        later.play(Move::Division { to: sq(2, 2) }).unwrap();
        assert_eq!(later.to_string().parse::<State>(), Ok(later));
        assert!(later.to_string().ends_with(" X 1"));
        for mv in later.legal_moves() {
            assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
        }
        assert_eq!("0000".parse::<Move>(), Ok(Move::Pass));
        assert!("08".parse::<Move>().is_err());
        assert!("123".parse::<Move>().is_err());
    }

    #[test]
    fn bad_positions_are_rejected() {
        let row = "......./";
        let board = format!("{}.......", row.repeat(6));
        assert!(format!("{board} O").parse::<State>().is_ok());
        assert_eq!(
            format!("{board} O 401").parse::<State>(),
            Err(PositionError::Turns("401".into()))
        );
        assert_eq!(
            format!("{board} Z").parse::<State>(),
            Err(PositionError::SideToMove("Z".into()))
        );
        assert_eq!(board.parse::<State>(), Err(PositionError::FieldCount(1)));
        assert_eq!(
            format!("{}o...... O", row.repeat(6)).parse::<State>(),
            Err(PositionError::Cell('o'))
        );
        assert_eq!(
            format!("{}...... O", row.repeat(6)).parse::<State>(),
            Err(PositionError::RowLength { row: 7, len: 6 })
        );
        assert_eq!(
            format!("{}....... O", row.repeat(5)).parse::<State>(),
            Err(PositionError::RowCount(6))
        );
    }

    #[test]
    fn a_jump_moves_and_a_division_copies() {
        let mut state = State::start();
        state.play(Move::Jump { from: sq(1, 1), to: sq(3, 3) }).unwrap();
        assert_eq!(state.counts(), BySide::new(2, 2));
        assert_eq!(state.piece_at(sq(1, 1)), None);
        assert_eq!(state.piece_at(sq(3, 3)), Some(Side::First));
        state.play(Move::Division { to: sq(2, 6) }).unwrap();
        assert_eq!(state.counts(), BySide::new(2, 3));
        assert_eq!(state.side_to_move(), Side::First);
        assert_eq!(state.turns(), 2);
    }

    #[test]
    fn captures_turn_every_adjacent_opponent_piece() {
        let mut state: State =
            "OX...../XX...../......./......./......./......./....... O".parse().unwrap();
        assert_eq!(
            state.play(Move::Division { to: sq(2, 2) }),
            Err(IllegalMove(Move::Division { to: sq(2, 2) }))
        );
        let mv = Move::Jump { from: sq(1, 1), to: sq(3, 2) };
        assert_eq!(state.captures(mv), 2);
        state.play(mv).unwrap();
        assert_eq!(
            state.to_string(),
            ".X...../OO...../.O...../......./......./......./....... X 1"
        );
    }

    #[test]
    fn wire_moves_name_a_source() {
        let state = State::start();
        let to = sq(2, 2);
        assert_eq!(state.move_between(sq(1, 1), to), Ok(Move::Division { to }));
        assert!(state.move_between(sq(1, 2), to).is_err());
        assert!(state.move_between(sq(1, 7), sq(2, 6)).is_err());
        assert!(state.move_between(sq(1, 1), sq(1, 4)).is_err());
        assert!(state.move_between(sq(1, 1), sq(1, 1)).is_err());
        assert_eq!(state.division_source(to), Some(sq(1, 1)));
        assert_eq!(state.division_source(sq(4, 4)), None);
    }
}
