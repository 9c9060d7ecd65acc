//! Search on the future score difference: exact where the position allows it,
//! heuristic where it does not.
//!
//! Every value here is what the side to move will still earn minus what its
//! opponent will still earn, in [`SCALE`] units per point. The past does not
//! matter to it, so a position is only the empty cells, the side to move and
//! whether the last move was a pass (two passes in a row end the game).
//!
//! Cells only one player can still cover are not searched domino by domino:
//! a horizontal run of empty cells none of which has an empty cell above or
//! below can only ever hold horizontal dominoes (columns likewise for the
//! second player). Its best packing is known exactly from per-line tables.
//! Simply adding it to the value of the rest would be wrong with these
//! rules: two passes in a row end the game, and a player with a private
//! domino left can hand the move over without letting the opponent end it,
//! which a pass cannot. So each side gets one private move, the most
//! valuable domino of its best packing (among those, one with the most
//! dominoes), and the solver stays exact (tested against brute force).

use std::time::Instant;

use versus_core::Param;

use crate::rules::{Cell, Move, State, Values, NOT_LAST_COLUMN};

/// Values are points times this, so that the evaluation has fractions.
pub const SCALE: i32 = 4;
/// Every cell but those of column 1: where a cell's left neighbour lands.
const NOT_FIRST_COLUMN: u64 = !0x0101_0101_0101_0101;
/// The depth of a search that never evaluates: it ends only at game ends.
pub const EXACT: u8 = u8::MAX;
/// Larger than any score difference.
const INFINITY: i32 = 10_000;

/// The first player (horizontal dominoes) is 0, the second (vertical) 1.
type Player = usize;

/// The anchors of `player`'s dominoes that fit in `empty`.
#[inline]
fn anchors(player: Player, empty: u64) -> u64 {
    if player == 0 {
        empty & (empty >> 1) & NOT_LAST_COLUMN
    } else {
        empty & (empty >> 8)
    }
}

/// The two cells of `player`'s domino at `anchor`.
#[inline]
fn domino(player: Player, anchor: u32) -> u64 {
    if player == 0 {
        3 << anchor
    } else {
        0x101 << anchor
    }
}

/// Row and column swapped: bit `8r + c` goes to bit `8c + r`.
#[must_use]
pub fn transpose(mut x: u64) -> u64 {
    let t = 0x0f0f_0f0f_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

/// The cells of `seed` and every empty cell joined to them by a chain of
/// horizontally adjacent empty cells.
#[inline]
fn fill_rows(mut seed: u64, empty: u64) -> u64 {
    loop {
        let next =
            seed | (((seed << 1) & NOT_FIRST_COLUMN) | ((seed >> 1) & NOT_LAST_COLUMN)) & empty;
        if next == seed {
            return seed;
        }
        seed = next;
    }
}

/// The same, along columns.
#[inline]
fn fill_columns(mut seed: u64, empty: u64) -> u64 {
    loop {
        let next = seed | ((seed << 8) | (seed >> 8)) & empty;
        if next == seed {
            return seed;
        }
        seed = next;
    }
}

/// The best packings of dominoes along a line of 8 cells, for every set of
/// empty cells of the line (bit `i` = cell `i`).
#[derive(Clone, Debug)]
struct LinePackings {
    /// The most points a packing earns.
    value: [u8; 256],
    /// Of the domino most worth of such a packing with the most dominoes: its
    /// first cell, and what it earns ([`NO_DOMINO`] when nothing fits).
    best_domino: [(u8, u8); 256],
}

const NO_DOMINO: (u8, u8) = (u8::MAX, 0);

impl LinePackings {
    fn new(cells: [u8; 8]) -> LinePackings {
        // (value, dominoes) of the best packing, and whether it covers the
        // lowest cell with a domino.
        let mut best = [((0u8, 0u8), false); 256];
        for mask in 1..256usize {
            let low = mask.trailing_zeros() as usize;
            let without = mask & (mask - 1);
            best[mask] = (best[without].0, false);
            if low < 7 && mask >> (low + 1) & 1 == 1 {
                let ((value, count), _) = best[without & !(1 << (low + 1))];
                let taken = (value + cells[low] + cells[low + 1], count + 1);
                if taken > best[mask].0 {
                    best[mask] = (taken, true);
                }
            }
        }
        let mut packings = LinePackings { value: [0; 256], best_domino: [NO_DOMINO; 256] };
        for mask in 0..256usize {
            packings.value[mask] = best[mask].0 .0;
            let mut rest = mask;
            while rest != 0 {
                let low = rest.trailing_zeros() as usize;
                if best[rest].1 {
                    let worth = cells[low] + cells[low + 1];
                    if packings.best_domino[mask] == NO_DOMINO
                        || worth > packings.best_domino[mask].1
                    {
                        packings.best_domino[mask] = (low as u8, worth);
                    }
                    rest &= !(3 << low);
                } else {
                    rest &= rest - 1;
                }
            }
        }
        packings
    }
}

/// A position split into what only one player can still use and the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    /// The empty cells both players may still fight over.
    pub contested: u64,
    /// The empty cells only the first (second) player can ever cover.
    pub private_cells: [u64; 2],
    /// Their best packings, in points.
    pub private: [i32; 2],
}

/// The cell values of one game, with the tables the search needs.
#[derive(Clone, Debug)]
pub struct Board {
    /// The value of each player's domino at each anchor (meaningless where it
    /// leaves the board).
    domino_values: [[u8; 64]; 2],
    /// Row `r`'s best horizontal packings (bit `c` = column `c`).
    row_packings: [LinePackings; 8],
    /// Column `c`'s best vertical packings (bit `r` = row `r`).
    column_packings: [LinePackings; 8],
}

impl Board {
    #[must_use]
    pub fn new(values: &Values) -> Board {
        let cell = |index: usize| values.get(Cell::new(index as u8).expect("below 64"));
        let domino_values = [
            std::array::from_fn(|i| cell(i) + if i % 8 < 7 { cell(i + 1) } else { 0 }),
            std::array::from_fn(|i| cell(i) + if i < 56 { cell(i + 8) } else { 0 }),
        ];
        Board {
            domino_values,
            row_packings: std::array::from_fn(|r| {
                LinePackings::new(std::array::from_fn(|c| cell(8 * r + c)))
            }),
            column_packings: std::array::from_fn(|c| {
                LinePackings::new(std::array::from_fn(|r| cell(8 * r + c)))
            }),
        }
    }

    /// What `player`'s domino at `anchor` earns, in points.
    #[inline]
    #[must_use]
    pub fn domino_value(&self, player: Player, anchor: u32) -> i32 {
        i32::from(self.domino_values[player][anchor as usize])
    }

    /// The best packing of horizontal dominoes into `cells`, in points.
    #[inline]
    #[must_use]
    pub fn row_packing(&self, cells: u64) -> i32 {
        line_packing(&self.row_packings, cells)
    }

    /// The best packing of vertical dominoes into `cells`, in points.
    #[inline]
    #[must_use]
    pub fn column_packing(&self, cells: u64) -> i32 {
        line_packing(&self.column_packings, transpose(cells))
    }

    /// Splits `empty` into the private cells of each player and the rest.
    #[inline]
    #[must_use]
    pub fn split(&self, empty: u64) -> Split {
        let vertical_access = empty & ((empty >> 8) | (empty << 8));
        let horizontal_access =
            empty & (((empty >> 1) & NOT_LAST_COLUMN) | ((empty << 1) & NOT_FIRST_COLUMN));
        // Runs touching a cell the other player can reach stay contested.
        let row_contested = fill_rows(vertical_access, empty);
        let column_contested = fill_columns(horizontal_access, empty);
        let first_private = empty & !row_contested;
        let second_private = empty & !column_contested;
        Split {
            contested: empty & row_contested & column_contested,
            private_cells: [first_private, second_private],
            private: [self.row_packing(first_private), self.column_packing(second_private)],
        }
    }

    /// Each side's best packing of its safe cells (see [`Board::bounds`]) and
    /// of all empty cells, in points.
    #[inline]
    #[must_use]
    pub fn packings(&self, empty: u64) -> ([i32; 2], [i32; 2]) {
        let row_safe = empty & !(empty << 8) & !(empty >> 8);
        // Transposed, the cells with no empty cell beside are those with none
        // above or below: one transpose serves both vertical packings.
        let columns = transpose(empty);
        let column_safe = columns & !(columns << 8) & !(columns >> 8);
        let safe = [self.row_packing(row_safe), line_packing(&self.column_packings, column_safe)];
        let all = [self.row_packing(empty), line_packing(&self.column_packings, columns)];
        (safe, all)
    }

    /// Sound bounds on the future score difference for `player` to move, in
    /// points: each side surely gets the best packing of its *safe* cells
    /// (empty cells the other side can no longer reach: for the first player
    /// no empty cell above or below, for the second none beside; it plays
    /// them before it would pass), and gets at most the best packing of all
    /// empty cells for its direction. After a pass the mover may end the game
    /// at 0, so then neither bound is below 0 (the opponent's safe cells are
    /// not certain: the brute-force test found it).
    #[inline]
    #[must_use]
    pub fn bounds(&self, empty: u64, player: Player, passed: bool) -> (i32, i32) {
        let (safe, all) = self.packings(empty);
        bounds_of(safe, all, player, passed)
    }

    /// The anchor of `player`'s private move in `cells` (its private cells):
    /// the domino most worth of the best packing, `None` if nothing fits.
    #[must_use]
    pub fn private_move(&self, player: Player, cells: u64) -> Option<u32> {
        if cells == 0 {
            return None;
        }
        let (lines, tables) = if player == 0 {
            (cells, &self.row_packings)
        } else {
            (transpose(cells), &self.column_packings)
        };
        let mut best: Option<(u32, u8)> = None;
        for (line, table) in tables.iter().enumerate() {
            let (start, worth) = table.best_domino[(lines >> (8 * line)) as usize & 0xff];
            if start != u8::MAX && best.is_none_or(|(_, w)| worth > w) {
                let (row, column) = if player == 0 {
                    (line, usize::from(start))
                } else {
                    (usize::from(start), line)
                };
                best = Some(((8 * row + column) as u32, worth));
            }
        }
        best.map(|(anchor, _)| anchor)
    }
}

/// [`Board::bounds`] from the packings of [`Board::packings`].
#[inline]
fn bounds_of(safe: [i32; 2], all: [i32; 2], player: Player, passed: bool) -> (i32, i32) {
    let (lower, upper) = (safe[player] - all[1 - player], all[player] - safe[1 - player]);
    if passed {
        (lower.max(0), upper.max(0))
    } else {
        (lower, upper)
    }
}

/// The sum of each line's best packing, line `i` being byte `i` of `lines`.
#[inline]
fn line_packing(tables: &[LinePackings; 8], lines: u64) -> i32 {
    let mut total = 0;
    for (i, table) in tables.iter().enumerate() {
        total += i32::from(table.value[(lines >> (8 * i)) as usize & 0xff]);
    }
    total
}

/// A remembered search result: bounds on the value (`-INFINITY` and
/// `INFINITY` where a side is unknown), both from a search of `depth`.
#[derive(Clone, Copy, Debug)]
struct Entry {
    lower: i32,
    upper: i32,
    depth: u8,
    /// The anchor of the best move, [`PASS_CODE`] for a pass, [`NO_MOVE`] for none.
    best: u8,
}

const PASS_CODE: u8 = 64;
const NO_MOVE: u8 = 255;

/// The transposition table: two `u64` per slot, the contested cells (never 0
/// in a stored position, so a zeroed slot is empty) and the packed entry
/// (side and pass flag, depth, lower bound, best move, upper bound).
#[derive(Clone, Debug)]
struct Table {
    slots: Vec<u64>,
    shift: u32,
}

impl Table {
    fn new(bits: u32) -> Table {
        let mut slots = vec![0; 2 << bits];
        // Touch every page now (at READY, off the clock) rather than take a
        // page fault at each new slot during the first searches; `black_box`
        // keeps the compiler from knowing the memory is zero already.
        std::hint::black_box(&mut slots).fill(0);
        Table { slots, shift: 64 - bits }
    }

    #[inline]
    fn index(&self, empty: u64, flags: u64) -> usize {
        let key =
            (empty ^ flags.wrapping_mul(0x9e37_79b9_7f4a_7c15)).wrapping_mul(0xd6e8_feb8_6659_fd93);
        2 * (key >> self.shift) as usize
    }

    #[inline]
    fn probe(&self, empty: u64, flags: u64) -> Option<Entry> {
        let slot = self.index(empty, flags);
        let data = self.slots[slot + 1];
        if self.slots[slot] != empty || data & 3 != flags {
            return None;
        }
        Some(Entry {
            lower: i32::from((data >> 16) as u16 as i16),
            upper: i32::from((data >> 40) as u16 as i16),
            depth: (data >> 8) as u8,
            best: (data >> 32) as u8,
        })
    }

    /// Stores `entry`; with `merge`, bounds already known for the same
    /// position from a search as deep are kept where they are tighter (a
    /// two-bound table), else the entry replaces them.
    #[inline]
    fn store(&mut self, empty: u64, flags: u64, mut entry: Entry, merge: bool) {
        let slot = self.index(empty, flags);
        let old = self.slots[slot + 1];
        // Keep a deeper result of another position; a shallow one goes.
        if self.slots[slot] != 0 && self.slots[slot] != empty && (old >> 8) as u8 > entry.depth {
            return;
        }
        if merge && self.slots[slot] == empty && old & 3 == flags && (old >> 8) as u8 == entry.depth
        {
            let lower = i32::from((old >> 16) as u16 as i16).max(entry.lower);
            let upper = i32::from((old >> 40) as u16 as i16).min(entry.upper);
            // Heuristic results can disagree; then the newer one stands.
            if lower <= upper {
                if entry.lower == -INFINITY {
                    // A failed-low search has no best move to teach.
                    let best = (old >> 32) as u8;
                    if best != NO_MOVE {
                        entry.best = best;
                    }
                }
                entry.lower = lower;
                entry.upper = upper;
            }
        }
        self.slots[slot] = empty;
        self.slots[slot + 1] = flags
            | u64::from(entry.depth) << 8
            | u64::from(entry.lower as i16 as u16) << 16
            | u64::from(entry.best) << 32
            | u64::from(entry.upper as i16 as u16) << 40;
    }

    fn clear(&mut self) {
        self.slots.fill(0);
    }
}

/// Which of the engine's ideas are switched on (for measuring each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Take private cells out of the search.
    pub split: bool,
    /// Try to prove the result before searching heuristically.
    pub solve: bool,
    /// Evaluate the contested area (packings and tempo), not only the private cells.
    pub evaluation: bool,
    /// Cut off on the sound bounds of [`Board::bounds`].
    pub bounds: bool,
    /// Evaluate by safe packings (exact) and half the contested rest.
    pub safe_eval: bool,
    /// The weight of the tempo (best move now), in eighths.
    pub tempo_eighths: i32,
    /// The weight of the contested rest (what each could add beyond its
    /// safe packing), in eighths.
    pub rest_eighths: i32,
    /// The weight of mobility (own placements minus the opponent's), in
    /// sixteenths of a point per placement.
    pub mobility_sixteenths: i32,
    /// Order moves by gain, then by the opposing placements they take away
    /// (as `ref-ab` does), rather than by gain alone.
    pub order_blocks: bool,
    /// The agent's time plan: the clock is shared among the own moves
    /// expected until this many empty cells are left.
    pub plan_to: u64,
    /// No new iteration after this part of a move's budget, in eighths.
    pub soft_eighths: u64,
    /// Search the opening position during READY (the agent's choice).
    pub ready_thinking: bool,
    /// Try a proof only with at most this many empty cells (64: always, as
    /// `strong-v1` did, which spent half of every opening move on a proof
    /// that could not finish).
    pub solve_from: u32,
    /// Break ties of the order key by a history of cut-offs (moves that
    /// refuted other positions, by side and anchor, weighted by the square
    /// of the depth left). A killer move (the last refutation with as many
    /// empty cells, tried after the table move) was tried with it and
    /// needed 1.5-3 times the nodes.
    pub history: bool,
    /// Search late placements shallower first: 0 never; 1 the fourth on,
    /// at 3 plies or more left, one ply shallower; 2 also the ninth on, at
    /// 6 plies or more left, two plies shallower.
    pub late_reduction: u8,
    /// Order the placements of exact-search nodes with at least this many
    /// empty cells by what they earn minus the evaluation of the position
    /// they leave (0: never), rather than by what they earn alone.
    pub sort_exact: u32,
    /// The same at heuristic nodes with at least this many plies left (0: never).
    pub sort_depth: u8,
    /// Keep a lower and an upper bound per position in the table, merged
    /// from searches of the same depth (rather than the last result only).
    pub two_bounds: bool,
    /// After a proved loss, try to prove losing by 1, 2, ... this many
    /// points less than needed, and play the move that loses by least.
    pub rescue: i32,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            split: true,
            solve: true,
            evaluation: true,
            bounds: true,
            safe_eval: true,
            tempo_eighths: 4,
            rest_eighths: 4,
            mobility_sixteenths: 0,
            order_blocks: false,
            plan_to: 30,
            soft_eighths: 6,
            ready_thinking: false,
            solve_from: 64,
            history: false,
            late_reduction: 0,
            sort_exact: 24,
            sort_depth: 0,
            two_bounds: false,
            rescue: 0,
        }
    }
}

/// An integer parameter of a built-in agent.
pub(crate) const fn param(
    name: &'static str,
    default: f64,
    min: f64,
    max: f64,
    about: &'static str,
) -> Param {
    Param { name, default, min, max, integer: true, about }
}

/// `strong`'s tunable parameters (`builtin:strong?rest=5&tempo=5`), in the
/// order [`Features::from_params`] reads them; the defaults are `strong`'s.
pub const STRONG_PARAMS: [Param; 14] = [
    param("tempo", 4.0, 0.0, 16.0, "weight of the best move now, in eighths of a point"),
    param("rest", 4.0, 0.0, 16.0, "weight of the contested rest beyond safe packings, in eighths"),
    param(
        "order_blocks",
        0.0,
        0.0,
        1.0,
        "order moves by gain, then opposing placements taken away",
    ),
    param(
        "plan_to",
        30.0,
        10.0,
        50.0,
        "the clock is shared among own moves until this many empty cells",
    ),
    param(
        "soft",
        6.0,
        2.0,
        12.0,
        "no new iteration after this part of a move's budget, in eighths",
    ),
    param(
        "solve_from",
        64.0,
        0.0,
        64.0,
        "try a proof at the komi only with at most this many empty cells",
    ),
    param("ready", 0.0, 0.0, 1.0, "search the opening position during READY (off the clock)"),
    param(
        "mobility",
        0.0,
        0.0,
        8.0,
        "weight of own minus opposing placements, in 16ths of a point",
    ),
    param("history", 0.0, 0.0, 1.0, "order moves of equal gain by a history of cut-offs"),
    param(
        "lmr",
        0.0,
        0.0,
        2.0,
        "search late placements shallower first (0 off, 1 one ply, 2 up to two)",
    ),
    param(
        "sort_exact",
        24.0,
        0.0,
        64.0,
        "order exact-search moves by gain minus the evaluation after them from this many empties (0 off)",
    ),
    param(
        "sort_depth",
        0.0,
        0.0,
        64.0,
        "order heuristic-search moves the same way with this many plies left or more (0 off)",
    ),
    param("tt2", 0.0, 0.0, 1.0, "keep both a lower and an upper bound per position in the table"),
    param(
        "rescue",
        0.0,
        0.0,
        16.0,
        "after a proved loss, prove losing by 1..N points and play the least loss",
    ),
];

impl Features {
    /// `strong`'s features with the values of [`STRONG_PARAMS`], in order.
    #[must_use]
    pub fn from_params(values: &[f64]) -> Features {
        let at = |i: usize| values.get(i).copied().unwrap_or(STRONG_PARAMS[i].default);
        Features {
            tempo_eighths: at(0) as i32,
            rest_eighths: at(1) as i32,
            order_blocks: at(2) != 0.0,
            plan_to: at(3) as u64,
            soft_eighths: at(4) as u64,
            solve_from: at(5) as u32,
            ready_thinking: at(6) != 0.0,
            mobility_sixteenths: at(7) as i32,
            history: at(8) != 0.0,
            late_reduction: at(9) as u8,
            sort_exact: at(10) as u32,
            sort_depth: at(11) as u8,
            two_bounds: at(12) != 0.0,
            rescue: at(13) as i32,
            ..Features::default()
        }
    }
}

/// Search counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub nodes: u64,
    pub evaluations: u64,
    /// The depth of the last completed iteration ([`EXACT`] when proved).
    pub depth: u8,
}

/// A search that ran out of time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfTime;

/// The searcher of one game: the board tables and the transposition table,
/// which stays valid from move to move.
#[derive(Debug)]
pub struct Engine {
    board: Board,
    table: Table,
    features: Features,
    deadline: Option<Instant>,
    aborted: bool,
    pub stats: Stats,
    /// Cut-offs made by each side's move at each anchor, weighted by depth
    /// (see [`Features::history`]).
    history: Box<[[u32; 64]; 2]>,
}

/// The key bits of the side to move and the pass flag.
#[inline]
fn flags(player: Player, passed: bool) -> u64 {
    player as u64 | u64::from(passed) << 1
}

impl Engine {
    /// An engine whose table has `2^table_bits` slots (16 bytes each).
    #[must_use]
    pub fn new(values: &Values, table_bits: u32, features: Features) -> Engine {
        Engine {
            board: Board::new(values),
            table: Table::new(table_bits),
            features,
            deadline: None,
            aborted: false,
            stats: Stats::default(),
            history: Box::new([[0; 64]; 2]),
        }
    }

    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Forgets every position.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Ready for a game with these values, the table emptied.
    pub fn reset(&mut self, values: &Values) {
        self.board = Board::new(values);
        self.table.clear();
        *self.history = [[0; 64]; 2];
    }

    fn split(&self, empty: u64) -> Split {
        if self.features.split {
            self.board.split(empty)
        } else {
            Split { contested: empty, private_cells: [0, 0], private: [0, 0] }
        }
    }

    /// A guess of the whole position's value for `player` to move: the safe
    /// packings (see [`Board::bounds`]) exactly, half the difference of what
    /// each could add beyond them, plus a part of the best move now (tempo).
    fn evaluate_safe(
        &self,
        (safe, all): ([i32; 2], [i32; 2]),
        empty: u64,
        player: Player,
        mine: u64,
    ) -> i32 {
        let opponent = 1 - player;
        let mobility = if self.features.mobility_sixteenths == 0 {
            0
        } else {
            let count = |p: Player| anchors(p, empty).count_ones() as i32;
            (count(player) - count(opponent)) * SCALE * self.features.mobility_sixteenths / 16
        };
        let mut best_now = 0;
        for anchor in Cell::iter(mine) {
            best_now = best_now.max(self.board.domino_value(player, u32::from(anchor.index())));
        }
        (safe[player] - safe[opponent]) * SCALE
            + ((all[player] - safe[player]) - (all[opponent] - safe[opponent]))
                * SCALE
                * self.features.rest_eighths
                / 8
            + best_now * SCALE * self.features.tempo_eighths / 8
            + mobility
    }

    /// A guess of the contested area's value for `player` to move: half the
    /// difference of what each could pack into it alone, as both will get
    /// some of it, plus half the best move now, the tempo.
    fn evaluate(&self, contested: u64, player: Player, mine: u64) -> i32 {
        if !self.features.evaluation {
            return 0;
        }
        let packings = [self.board.row_packing(contested), self.board.column_packing(contested)];
        let mut best_now = 0;
        for anchor in Cell::iter(mine) {
            best_now = best_now.max(self.board.domino_value(player, u32::from(anchor.index())));
        }
        (packings[player] - packings[1 - player]) * SCALE / 2 + best_now * SCALE / 2
    }

    /// The order key of `player`'s move at `anchor`: what it earns. (Adding
    /// the best opposing domino it takes away, the swing, lost Elo.)
    #[inline]
    fn order_key(&self, player: Player, anchor: u32, theirs: u64) -> i32 {
        let gain = self.board.domino_value(player, anchor);
        if self.features.history {
            // Gain first (0-6), the history of cut-offs among equal gains.
            let history = self.history[player][anchor as usize].min((1 << 20) - 1) as i32;
            return (gain << 20) | history;
        }
        if self.features.order_blocks {
            let cells = domino(player, anchor);
            // The opponent's anchors that would cover one of these cells.
            let blocked = if player == 0 {
                cells | cells >> 8
            } else {
                cells | (cells >> 1) & NOT_LAST_COLUMN
            };
            gain * 16 + (theirs & blocked).count_ones() as i32
        } else {
            gain
        }
    }

    /// The order key of `player`'s move at `anchor` by the evaluation: what
    /// it earns minus the opponent's evaluation of the position it leaves
    /// (kept within that position's sound bounds), in [`SCALE`] units.
    fn child_key(&self, empty: u64, player: Player, anchor: u32) -> i32 {
        let child = empty & !domino(player, anchor);
        let opponent = 1 - player;
        let packings = self.board.packings(child);
        let (lower, upper) = bounds_of(packings.0, packings.1, opponent, false);
        let guess = self
            .evaluate_safe(packings, child, opponent, anchors(opponent, child))
            .clamp(lower * SCALE, upper * SCALE);
        self.board.domino_value(player, anchor) * SCALE - guess
    }

    #[inline]
    fn out_of_time(&mut self) -> bool {
        if !self.aborted && self.stats.nodes & 255 == 0 {
            if let Some(deadline) = self.deadline {
                self.aborted = Instant::now() >= deadline;
            }
        }
        self.aborted
    }

    /// The value of the position for `player` to move, fail-soft within
    /// `(alpha, beta)`. Meaningless once `self.aborted` is set.
    ///
    /// Private cells are not searched domino by domino: each side has one
    /// private move, the most valuable domino of its best packing (with the
    /// most dominoes among the best), which both earns points and, like a
    /// pass, hands the move over without letting the opponent end the game.
    fn search(
        &mut self,
        empty: u64,
        player: Player,
        passed: bool,
        depth: u8,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.stats.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        let opponent = 1 - player;
        // The packings give sound bounds (cut-offs before anything else) and
        // the evaluation; computed once.
        let packings = self.board.packings(empty);
        let (lower, upper) = if self.features.bounds {
            let (lower, upper) = bounds_of(packings.0, packings.1, player, passed);
            let (lower, upper) = (lower * SCALE, upper * SCALE);
            if lower >= beta || lower == upper {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            (lower, upper)
        } else {
            (-INFINITY, INFINITY)
        };
        let split = self.split(empty);
        let mine = anchors(player, split.contested);
        let theirs = anchors(opponent, split.contested);
        let private_move = self.board.private_move(player, split.private_cells[player]);
        if mine == 0 && private_move.is_none() {
            // Only the pass, which ends the game after a pass.
            if passed || (theirs == 0 && split.private_cells[opponent] == 0) {
                return 0;
            }
            return -self.search(empty, opponent, true, depth, -beta, -alpha);
        }
        if depth == 0 {
            self.stats.evaluations += 1;
            if self.features.safe_eval {
                return self.evaluate_safe(packings, empty, player, mine).clamp(lower, upper);
            }
            let private = (split.private[player] - split.private[opponent]) * SCALE;
            return (private + self.evaluate(split.contested, player, mine)).clamp(lower, upper);
        }
        let key = flags(player, passed);
        let mut hint = NO_MOVE;
        if let Some(entry) = self.table.probe(empty, key) {
            if entry.depth >= depth {
                if entry.lower >= beta || entry.lower == entry.upper {
                    return entry.lower;
                }
                if entry.upper <= alpha {
                    return entry.upper;
                }
            }
            hint = entry.best;
        }
        let child_depth = if depth == EXACT { EXACT } else { depth - 1 };
        let alpha_in = alpha;
        let mut best = -INFINITY;
        let mut best_code = NO_MOVE;
        if passed {
            // Passing back ends the game with nothing more for anyone.
            best = 0;
            best_code = PASS_CODE;
            alpha = alpha.max(0);
            if alpha >= beta {
                return best;
            }
        }

        // Contested placements by order key, then the private move, then the pass.
        let mut moves = [(0i32, 0u8); 66];
        let mut count = 0;
        let by_evaluation = if depth == EXACT {
            self.features.sort_exact > 0 && empty.count_ones() >= self.features.sort_exact
        } else {
            self.features.sort_depth > 0 && depth >= self.features.sort_depth
        };
        for anchor in Cell::iter(mine) {
            let anchor = u32::from(anchor.index());
            let key = if anchor as u8 == hint {
                i32::MAX
            } else if by_evaluation {
                self.child_key(empty, player, anchor)
            } else {
                self.order_key(player, anchor, theirs)
            };
            moves[count] = (key, anchor as u8);
            count += 1;
        }
        if let Some(anchor) = private_move {
            let key = if anchor as u8 == hint { i32::MAX } else { i32::MIN + 1 };
            moves[count] = (key, anchor as u8);
            count += 1;
        }
        if !passed {
            let key = if hint == PASS_CODE { i32::MAX } else { i32::MIN };
            moves[count] = (key, PASS_CODE);
            count += 1;
        }
        let ordered = &mut moves[..count];
        ordered.sort_unstable_by_key(|m| std::cmp::Reverse(m.0));

        for (index, &(_, code)) in ordered.iter().enumerate() {
            let (child, gain, child_passed) = if code == PASS_CODE {
                (empty, 0, true)
            } else {
                let anchor = u32::from(code);
                (
                    empty & !domino(player, anchor),
                    self.board.domino_value(player, anchor) * SCALE,
                    false,
                )
            };
            let value = if index == 0 {
                gain - self.search(
                    child,
                    opponent,
                    child_passed,
                    child_depth,
                    gain - beta,
                    gain - alpha,
                )
            } else {
                // Late placements first get a null window one ply shallower;
                // only those that beat alpha there are searched to full depth.
                let reduction = if self.features.late_reduction == 0
                    || depth == EXACT
                    || depth < 3
                    || index < 3
                    || code == PASS_CODE
                    || private_move == Some(u32::from(code))
                {
                    0
                } else if self.features.late_reduction >= 2 && depth >= 6 && index >= 8 {
                    2
                } else {
                    1
                };
                let mut probe = alpha + 1;
                if reduction > 0 {
                    probe = gain
                        - self.search(
                            child,
                            opponent,
                            child_passed,
                            child_depth - reduction,
                            gain - alpha - 1,
                            gain - alpha,
                        );
                }
                if probe > alpha && !self.aborted {
                    probe = gain
                        - self.search(
                            child,
                            opponent,
                            child_passed,
                            child_depth,
                            gain - alpha - 1,
                            gain - alpha,
                        );
                }
                if probe > alpha && probe < beta && !self.aborted {
                    gain - self.search(
                        child,
                        opponent,
                        child_passed,
                        child_depth,
                        gain - beta,
                        gain - alpha,
                    )
                } else {
                    probe
                }
            };
            if self.aborted {
                return 0;
            }
            if value > best {
                best = value;
                best_code = code;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        if self.features.history && code < PASS_CODE {
                            let weight = if depth == EXACT { 64 } else { u32::from(depth).pow(2) };
                            let slot = &mut self.history[player][usize::from(code)];
                            *slot = slot.saturating_add(weight);
                        }
                        break;
                    }
                }
            }
        }
        // Fail-soft: at most `best` after a fail low, at least after a fail high.
        let lower = if best <= alpha_in { -INFINITY } else { best };
        let upper = if best >= beta { INFINITY } else { best };
        let entry = Entry { lower, upper, depth, best: best_code };
        self.table.store(empty, key, entry, self.features.two_bounds);
        best
    }

    /// The exact future score difference for the side to move, in points,
    /// clamped to `[alpha, beta]` bounds as alpha-beta gives them: a result
    /// `<= alpha` is an upper bound, `>= beta` a lower bound. `None` when
    /// `deadline` passes first.
    pub fn solve(
        &mut self,
        state: &State,
        alpha: i32,
        beta: i32,
        deadline: Option<Instant>,
    ) -> Option<i32> {
        self.deadline = deadline;
        self.aborted = false;
        self.stats = Stats::default();
        let player = state.side_to_move().index();
        let passed = state.consecutive_passes() > 0;
        if state.is_over() {
            return Some(0);
        }
        let value = self.search(state.empty(), player, passed, EXACT, alpha * SCALE, beta * SCALE);
        (!self.aborted).then_some(value / SCALE)
    }

    /// The moves of the root, best first by the table and the order key.
    fn root_moves(&self, state: &State) -> Vec<Move> {
        let player = state.side_to_move().index();
        let empty = state.empty();
        let theirs = anchors(1 - player, empty);
        let mut keyed: Vec<(i32, Move)> = Cell::iter(anchors(player, empty))
            .map(|cell| {
                (self.order_key(player, u32::from(cell.index()), theirs), Move::Place(cell))
            })
            .collect();
        keyed.sort_by_key(|m| std::cmp::Reverse(m.0));
        keyed.push((-INFINITY, Move::Pass));
        keyed.into_iter().map(|(_, mv)| mv).collect()
    }

    /// One root iteration: every move with a window, the principal one first.
    /// Returns the best move and value (scaled), or `None` if time ran out
    /// before the first move was searched.
    fn search_root(
        &mut self,
        state: &State,
        moves: &mut [Move],
        depth: u8,
        mut alpha: i32,
        beta: i32,
    ) -> Option<(Move, i32)> {
        let player = state.side_to_move().index();
        let passed = state.consecutive_passes() > 0;
        let empty = state.empty();
        let mut best: Option<(Move, i32)> = None;
        let child_depth = if depth == EXACT { EXACT } else { depth - 1 };
        for index in 0..moves.len() {
            let mv = moves[index];
            let (child, gain, child_passed) = match mv {
                Move::Place(cell) => {
                    let anchor = u32::from(cell.index());
                    (
                        empty & !domino(player, anchor),
                        self.board.domino_value(player, anchor) * SCALE,
                        false,
                    )
                }
                Move::Pass => (empty, 0, true),
            };
            let full = |engine: &mut Engine, alpha: i32| {
                if mv == Move::Pass && passed {
                    0
                } else {
                    gain - engine.search(
                        child,
                        1 - player,
                        child_passed,
                        child_depth,
                        gain - beta,
                        gain - alpha,
                    )
                }
            };
            let value = if best.is_none() {
                full(self, alpha)
            } else {
                let probe = if mv == Move::Pass && passed {
                    0
                } else {
                    gain - self.search(
                        child,
                        1 - player,
                        child_passed,
                        child_depth,
                        gain - alpha - 1,
                        gain - alpha,
                    )
                };
                if probe > alpha && probe < beta && !self.aborted {
                    full(self, alpha)
                } else {
                    probe
                }
            };
            if self.aborted {
                break;
            }
            if best.is_none_or(|(_, b)| value > b) {
                best = Some((mv, value));
                // The principal move goes first next time.
                moves[..=index].rotate_right(1);
                if value > alpha {
                    alpha = value;
                }
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The move to play: a proof of a win when one is found within
    /// `solve_deadline`, else the best move of iterative deepening stopped
    /// at `soft` (no new iteration) or `hard` (abandoned).
    pub fn choose(&mut self, state: &State, limits: &Limits) -> Choice {
        self.stats = Stats::default();
        // Old cut-offs count less than this move's.
        for slot in self.history.iter_mut().flatten() {
            *slot /= 4;
        }
        let mut moves = self.root_moves(state);
        if moves.len() == 1 {
            return Choice { mv: Move::Pass, value: None, proved: None, depth: 0 };
        }
        let player = state.side_to_move();
        let lead = state.points(player) as i32 - state.points(player.opponent()) as i32;
        // The first player wins by 3 points or more (2.5 komi).
        let needed = match player {
            versus_core::Side::First => 3 - lead,
            versus_core::Side::Second => -2 - lead,
        };
        let empties = state.empty().count_ones();
        if limits.try_solve && self.features.solve && empties <= self.features.solve_from {
            self.deadline = Some(limits.solve_deadline);
            self.aborted = false;
            let target = needed * SCALE;
            let result = self.search_root(state, &mut moves, EXACT, target - 1, target);
            if let Some((mv, _)) = result.filter(|&(_, value)| value >= target) {
                self.stats.depth = EXACT;
                return Choice { mv, value: None, proved: Some(true), depth: EXACT };
            }
            if !self.aborted {
                // Proved lost: lose by as little as can be proved, so that
                // any slip of the opponent's turns the game, else the best
                // practical move is searched below.
                for short in 1..=self.features.rescue {
                    let target = target - short * SCALE;
                    let result = self.search_root(state, &mut moves, EXACT, target - 1, target);
                    if self.aborted {
                        break;
                    }
                    if let Some((mv, _)) = result.filter(|&(_, value)| value >= target) {
                        self.stats.depth = EXACT;
                        return Choice {
                            mv,
                            value: Some(target / SCALE),
                            proved: Some(false),
                            depth: EXACT,
                        };
                    }
                }
                return self.deepen(state, &mut moves, limits, Some(false));
            }
        }
        self.deepen(state, &mut moves, limits, None)
    }

    fn deepen(
        &mut self,
        state: &State,
        moves: &mut [Move],
        limits: &Limits,
        proved: Option<bool>,
    ) -> Choice {
        self.deadline = Some(limits.hard);
        self.aborted = false;
        let mut choice = Choice { mv: moves[0], value: None, proved, depth: 0 };
        for depth in 1..=limits.max_depth {
            let evaluations = self.stats.evaluations;
            let result = self.search_root(state, moves, depth, -INFINITY, INFINITY);
            if let Some((mv, value)) = result {
                choice.mv = mv;
                choice.value = Some(value / SCALE);
            }
            if self.aborted {
                break;
            }
            choice.depth = depth;
            self.stats.depth = depth;
            // Without a single evaluation the iteration reached every game end.
            if Instant::now() >= limits.soft || self.stats.evaluations == evaluations {
                break;
            }
        }
        choice
    }
}

/// When to stop thinking about one move.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Whether to try an exact proof first.
    pub try_solve: bool,
    pub solve_deadline: Instant,
    /// No new iteration after this.
    pub soft: Instant,
    /// Abandon the search at this instant.
    pub hard: Instant,
    pub max_depth: u8,
}

/// The engine's decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    pub mv: Move,
    /// The value found for the move (points), if any iteration completed.
    pub value: Option<i32>,
    /// `Some(true)` for a proved win, `Some(false)` for a proved loss.
    pub proved: Option<bool>,
    pub depth: u8,
}

/// The move of a plain fixed-depth alpha-beta on the score difference
/// (the `ab4` reference level): no evaluation beyond the points earned
/// within `depth` plies, no table, ties broken by `rng`.
pub fn fixed_depth_move(state: &State, depth: u8, rng: &mut versus_core::GameRng) -> Move {
    let board = Board::new(state.values());
    let player = state.side_to_move().index();
    let passed = state.consecutive_passes() > 0;
    let empty = state.empty();
    let mut moves: Vec<Move> = Cell::iter(anchors(player, empty)).map(Move::Place).collect();
    rng.shuffle(&mut moves);
    let gain = |mv: &Move| match mv {
        Move::Place(cell) => board.domino_value(player, u32::from(cell.index())),
        Move::Pass => 0,
    };
    moves.sort_by_key(|mv| -gain(mv));
    moves.push(Move::Pass);
    let mut best = (Move::Pass, -INFINITY);
    for mv in moves {
        let value = match mv {
            Move::Place(cell) => {
                let anchor = u32::from(cell.index());
                let g = board.domino_value(player, anchor);
                g - plain_search(
                    &board,
                    empty & !domino(player, anchor),
                    1 - player,
                    false,
                    depth - 1,
                    g - INFINITY,
                    g - best.1,
                )
            }
            Move::Pass if passed => 0,
            Move::Pass => {
                -plain_search(&board, empty, 1 - player, true, depth - 1, -INFINITY, -best.1)
            }
        };
        if value > best.1 {
            best = (mv, value);
        }
    }
    best.0
}

/// Negamax with alpha-beta over all moves, passes included, scoring only
/// the points earned.
fn plain_search(
    board: &Board,
    empty: u64,
    player: Player,
    passed: bool,
    depth: u8,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    let mine = anchors(player, empty);
    let theirs = anchors(1 - player, empty);
    if depth == 0 || mine | theirs == 0 {
        return 0;
    }
    let mut best = -INFINITY;
    if passed {
        best = 0;
        alpha = alpha.max(0);
        if alpha >= beta {
            return best;
        }
    }
    let mut moves = [(0i32, 0u32); 64];
    let mut count = 0;
    for cell in Cell::iter(mine) {
        let anchor = u32::from(cell.index());
        moves[count] = (board.domino_value(player, anchor), anchor);
        count += 1;
    }
    let ordered = &mut moves[..count];
    ordered.sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
    for &(gain, anchor) in ordered.iter() {
        let value = gain
            - plain_search(
                board,
                empty & !domino(player, anchor),
                1 - player,
                false,
                depth - 1,
                gain - beta,
                gain - alpha,
            );
        if value > best {
            best = value;
            alpha = alpha.max(value);
            if alpha >= beta {
                return best;
            }
        }
    }
    if !passed {
        let value = -plain_search(board, empty, 1 - player, true, depth - 1, -beta, -alpha);
        best = best.max(value);
    }
    best
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use versus_core::GameRng;

    use super::*;
    use crate::test_support::{brute_force, random_position};

    #[test]
    fn default_params_are_the_default_features() {
        let defaults: Vec<f64> = STRONG_PARAMS.iter().map(|p| p.default).collect();
        assert_eq!(Features::from_params(&defaults), Features::default());
    }

    #[test]
    fn transpose_swaps_rows_and_columns() {
        let mut rng = GameRng::new(3);
        for _ in 0..100 {
            let x = rng.next_u64();
            let mut naive = 0u64;
            for r in 0..8 {
                for c in 0..8 {
                    naive |= (x >> (8 * r + c) & 1) << (8 * c + r);
                }
            }
            assert_eq!(transpose(x), naive);
        }
    }

    #[test]
    fn line_packings_match_every_choice_of_dominoes() {
        let cells = [3, 1, 0, 2, 3, 3, 1, 2];
        let packings = LinePackings::new(cells);
        for (mask, &value) in packings.value.iter().enumerate() {
            // Every set of disjoint dominoes (by their left cells) inside `mask`.
            let mut best = 0;
            for lefts in 0..128usize {
                let covered = lefts | lefts << 1;
                if lefts & lefts << 1 != 0 || covered & !mask != 0 {
                    continue;
                }
                let value: u8 =
                    (0..7).filter(|c| lefts >> c & 1 == 1).map(|c| cells[c] + cells[c + 1]).sum();
                best = best.max(value);
            }
            assert_eq!(value, best, "{mask:08b}");
            // The private move keeps the rest of a best packing possible.
            let (start, worth) = packings.best_domino[mask];
            if best > 0 {
                let start = usize::from(start);
                assert_eq!(mask >> start & 3, 3, "{mask:08b}");
                assert_eq!(worth, cells[start] + cells[start + 1]);
                assert_eq!(worth + packings.value[mask & !(3 << start)], best, "{mask:08b}");
            }
        }
    }

    #[test]
    fn split_takes_out_only_unreachable_runs() {
        // Row 1: `....` free at columns 1-4 with nothing below (row 2 full):
        // private to the first player. Column 8: rows 4-7 free, cut off sideways.
        let state: State = "33000000/00000000/00000000/00000002/00000001/00000003/00000001/00000000 ....hhhh/hhhhhhhh/hhhhhhhh/hhhhhhv./hhhhhhv./hhhhhhv./hhhhhhv./hhhhhhhh second 0"
            .parse()
            .unwrap();
        let split = Board::new(state.values()).split(state.empty());
        assert_eq!(split.contested, 0);
        assert_eq!(split.private, [6, 7]);
    }

    #[test]
    fn solver_matches_brute_force() {
        let mut rng = GameRng::new(11);
        let mut memo = HashMap::new();
        for round in 0..300 {
            let state = random_position(&mut rng, 10 + (round % 7) as u32);
            let exact = brute_force(&state, &mut memo);
            if !state.is_over() {
                let passed = state.consecutive_passes() > 0;
                let (lower, upper) = Board::new(state.values()).bounds(
                    state.empty(),
                    state.side_to_move().index(),
                    passed,
                );
                assert!(
                    lower <= exact && exact <= upper,
                    "{state}: {exact} not in [{lower}, {upper}]"
                );
            }
            for (split, bounds, history, sort_exact, two_bounds) in [
                (true, true, false, 0, false),
                (false, true, false, 0, false),
                (true, false, false, 0, false),
                (true, true, true, 0, false),
                (true, true, false, 12, false),
                (true, true, false, 12, true),
            ] {
                // Late reductions never apply to the exact search: on here.
                let features = Features {
                    split,
                    bounds,
                    history,
                    sort_exact,
                    two_bounds,
                    late_reduction: 2,
                    ..Features::default()
                };
                let mut engine = Engine::new(state.values(), 12, features);
                assert_eq!(
                    engine.solve(&state, -1000, 1000, None),
                    Some(exact),
                    "{state} {features:?}"
                );
                // A null window answers which side of it the value lies.
                for t in [exact - 1, exact, exact + 1] {
                    let bound = engine.solve(&state, t - 1, t, None).unwrap();
                    assert_eq!(bound >= t, exact >= t, "{state} t {t}");
                }
            }
        }
    }

    #[test]
    fn proved_wins_are_wins() {
        let mut rng = GameRng::new(12);
        let mut memo = HashMap::new();
        let mut proofs = 0;
        for _ in 0..100 {
            let state = random_position(&mut rng, 14);
            // With a single legal move (the pass) there is nothing to prove.
            if state.legal_moves().len() < 2 {
                continue;
            }
            let mut engine = Engine::new(state.values(), 12, Features::default());
            let limits = solve_fully();
            let choice = engine.choose(&state, &limits);
            let me = state.side_to_move();
            let mut next = state;
            next.play(choice.mv).unwrap();
            let gain = next.points(me) as i32 - state.points(me) as i32;
            let future = gain - brute_force(&next, &mut memo);
            let lead = state.points(me) as i32 - state.points(me.opponent()) as i32;
            let needed = if me == versus_core::Side::First { 3 - lead } else { -2 - lead };
            let best = brute_force(&state, &mut memo);
            assert_eq!(choice.proved, Some(best >= needed), "{state}");
            if best >= needed {
                proofs += 1;
                assert!(future >= needed, "{state}: {} does not win", choice.mv);
            }
        }
        assert!(proofs > 10, "only {proofs} wins");
    }

    /// Limits under which a small position is always proved: the solver on,
    /// a minute for everything.
    fn solve_fully() -> Limits {
        let far = Instant::now() + std::time::Duration::from_secs(60);
        Limits { try_solve: true, solve_deadline: far, soft: far, hard: far, max_depth: 64 }
    }

    #[test]
    fn proved_losses_lose_by_least() {
        let mut rng = GameRng::new(13);
        let mut memo = HashMap::new();
        let mut rescued = 0;
        for round in 0..400 {
            let state = random_position(&mut rng, 10 + round % 5);
            if state.legal_moves().len() < 2 {
                continue;
            }
            let features = Features { rescue: 4, sort_exact: 10, ..Features::default() };
            let mut engine = Engine::new(state.values(), 12, features);
            let limits = solve_fully();
            let choice = engine.choose(&state, &limits);
            let me = state.side_to_move();
            let lead = state.points(me) as i32 - state.points(me.opponent()) as i32;
            let needed = if me == versus_core::Side::First { 3 - lead } else { -2 - lead };
            let best = brute_force(&state, &mut memo);
            if best >= needed || best < needed - 4 {
                continue;
            }
            // Lost, but by at most 4 points too few: the move loses by least.
            let mut next = state;
            next.play(choice.mv).unwrap();
            let gain = next.points(me) as i32 - state.points(me) as i32;
            let future = gain - brute_force(&next, &mut memo);
            assert_eq!(choice.proved, Some(false), "{state}");
            assert_eq!(future, best, "{state}: {} is not a best move", choice.mv);
            assert_eq!(choice.value, Some(best), "{state}");
            rescued += 1;
        }
        assert!(rescued > 20, "only {rescued} losses");
    }

    #[test]
    fn fixed_depth_sees_a_blocking_move() {
        // The second player threatens the 3+3 column at (1,1)-(2,1); at depth 2
        // the first player covers (1,1) and (1,2) at once, worth 3 + 3.
        let state: State = "33000000/30000000/00000000/00000000/00000000/00000000/00000000/00000000 ......../......../......../......../......../......../......../........ first 0"
            .parse()
            .unwrap();
        let mut rng = GameRng::new(1);
        let mv = fixed_depth_move(&state, 2, &mut rng);
        assert_eq!(mv, Move::Place(Cell::from_xy(1, 1).unwrap()));
    }
}
