//! `ref-ab`: an independent alpha-beta reference level, written apart from
//! [`crate::search`] (no shared tables, evaluation or search code) so that
//! `strong` can be measured against an engine of the kind issue 17 describes:
//!
//! - negamax on the score still to be earned (side to move minus opponent),
//!   passes included;
//! - a transposition table keyed on the empty cells, the side to move and the
//!   pass flag;
//! - an evaluation that counts exactly the best packing of the dominoes only
//!   one side can ever place ("safe" dominoes: neither of their cells can be
//!   reached by the other side any more) and half of the contested rest,
//!   with cut-offs on the sound bounds `[safe_me - all_opp, all_me - safe_opp]`;
//! - exact solving (a null window at the komi) from [`SOLVE_FROM`] empty
//!   cells, iterative deepening before that, about 5-7 s of a 10 s clock.

use std::time::{Duration, Instant};

use crate::rules::{Cell, Move, State, Values};

/// Evaluation units per point (the contested rest counts half).
const UNIT: i32 = 2;
const INF: i32 = 1 << 20;
/// From this many empty cells on, the root tries an exact proof first.
pub const SOLVE_FROM: u32 = 30;
/// Stored depth of an exact result.
const EXACT_DEPTH: u8 = 255;
const COLUMN_A: u64 = 0x0101_0101_0101_0101;
const COLUMN_H: u64 = COLUMN_A << 7;

/// Best packing of dominoes along one line, for each subset of its 8 cells.
fn line_table(values: [u8; 8]) -> [u8; 256] {
    let mut best = [0u8; 256];
    for mask in 1..256usize {
        let low = mask.trailing_zeros() as usize;
        // Either the lowest cell stays empty, or it is covered with the next one.
        let mut value = best[mask & !(1 << low)];
        if low < 7 && mask & (2 << low) != 0 {
            value = value.max(values[low] + values[low + 1] + best[mask & !(3 << low)]);
        }
        best[mask] = value;
    }
    best
}

/// The 8 cells of column `c` gathered into a byte (row `r` at bit `r`).
#[inline]
fn column_byte(cells: u64, c: u32) -> usize {
    let column = (cells >> c) & COLUMN_A;
    // Each row's bit moves to bit 56 + r; no two partial products collide.
    (column.wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize
}

/// What one game's cell values allow the search to look up.
#[derive(Clone, Debug)]
struct Tables {
    /// Value of the horizontal (vertical) domino at each anchor.
    gain: [[i32; 64]; 2],
    /// Per row: best horizontal packing of each set of the row's cells.
    rows: [[u8; 256]; 8],
    /// Per column: best vertical packing, indexed by [`column_byte`].
    columns: [[u8; 256]; 8],
}

impl Tables {
    fn new(values: &Values) -> Tables {
        let at = |r: usize, c: usize| values.get(Cell::new((8 * r + c) as u8).expect("on board"));
        let mut gain = [[0; 64]; 2];
        for r in 0..8 {
            for c in 0..8 {
                if c < 7 {
                    gain[0][8 * r + c] = i32::from(at(r, c) + at(r, c + 1));
                }
                if r < 7 {
                    gain[1][8 * r + c] = i32::from(at(r, c) + at(r + 1, c));
                }
            }
        }
        let rows = std::array::from_fn(|r| line_table(std::array::from_fn(|c| at(r, c))));
        let columns = std::array::from_fn(|c| {
            let by_row = line_table(std::array::from_fn(|r| at(r, c)));
            let mut table = [0u8; 256];
            for (rows_mask, &value) in by_row.iter().enumerate() {
                let mut cells = 0u64;
                for r in 0..8 {
                    if rows_mask >> r & 1 == 1 {
                        cells |= 1 << (8 * r + c);
                    }
                }
                table[column_byte(cells, c as u32)] = value;
            }
            table
        });
        Tables { gain, rows, columns }
    }

    /// Best packing of `side`'s dominoes into `cells`, in points.
    #[inline]
    fn packing(&self, side: usize, cells: u64) -> i32 {
        let mut total = 0;
        if side == 0 {
            for r in 0..8 {
                total += i32::from(self.rows[r][(cells >> (8 * r)) as usize & 0xff]);
            }
        } else {
            for c in 0..8 {
                total += i32::from(self.columns[c][column_byte(cells, c as u32)]);
            }
        }
        total
    }
}

/// Anchors of `side`'s dominoes that fit into `empty`.
#[inline]
fn placements(side: usize, empty: u64) -> u64 {
    if side == 0 {
        empty & (empty >> 1) & !COLUMN_H
    } else {
        empty & (empty >> 8)
    }
}

#[inline]
fn cells_of(side: usize, anchor: u32) -> u64 {
    if side == 0 {
        0b11 << anchor
    } else {
        0x101 << anchor
    }
}

/// Empty cells the opponent of `side` can never cover again: for the first
/// player, no empty cell above or below; for the second, none beside.
#[inline]
fn safe_cells(side: usize, empty: u64) -> u64 {
    if side == 0 {
        empty & !(empty << 8) & !(empty >> 8)
    } else {
        empty & !((empty << 1) & !COLUMN_A) & !((empty >> 1) & !COLUMN_H)
    }
}

/// Sound bounds on the future score difference for `side` to move, and the
/// evaluation between them, all in points times [`UNIT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub lower: i32,
    pub upper: i32,
    pub guess: i32,
}

#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    empty: u64,
    /// bit 0: side, bit 1: pass flag, bit 2: used.
    flags: u8,
    depth: u8,
    best: u8,
    age: u8,
    lower: i32,
    upper: i32,
}

/// The reference engine of one game.
#[derive(Debug)]
pub struct RefEngine {
    tables: Tables,
    slots: Vec<Slot>,
    mask: usize,
    deadline: Instant,
    stopped: bool,
    nodes: u64,
    /// Bumped at each root search, so that old deep entries can go.
    age: u8,
    /// Leaves evaluated heuristically (none: the iteration was exact).
    guesses: u64,
    /// The last root iteration completed by [`RefEngine::choose`] (for
    /// comparing searches; it does not change the play).
    depth_done: u8,
}

/// The table's size: 2^21 slots of 24 bytes, 48 MiB.
const TABLE_BITS: u32 = 21;
const NO_BEST: u8 = 255;
const PASS: u8 = 64;

impl RefEngine {
    #[must_use]
    pub fn new(values: &Values) -> RefEngine {
        RefEngine::with_table(values, TABLE_BITS)
    }

    #[must_use]
    pub fn with_table(values: &Values, bits: u32) -> RefEngine {
        let mut slots = vec![Slot::default(); 1 << bits];
        // Touch the pages now (READY is off the clock).
        std::hint::black_box(&mut slots).fill(Slot::default());
        RefEngine {
            tables: Tables::new(values),
            slots,
            mask: (1 << bits) - 1,
            deadline: Instant::now() + Duration::from_secs(3600),
            stopped: false,
            nodes: 0,
            age: 0,
            guesses: 0,
            depth_done: 0,
        }
    }

    /// The bounds and evaluation of `empty` for `side` to move. After a pass
    /// the mover can end the game at 0, so the opponent's safe dominoes are
    /// not certain then: both bounds are at least 0 (the brute-force test
    /// found that).
    #[must_use]
    pub fn bounds(&self, empty: u64, side: usize, passed: bool) -> Bounds {
        let other = 1 - side;
        let safe_me = self.tables.packing(side, safe_cells(side, empty));
        let safe_them = self.tables.packing(other, safe_cells(other, empty));
        let all_me = self.tables.packing(side, empty);
        let all_them = self.tables.packing(other, empty);
        let floor = if passed { 0 } else { -INF };
        let lower = ((safe_me - all_them) * UNIT).max(floor);
        let upper = ((all_me - safe_them) * UNIT).max(floor);
        let guess = (safe_me - safe_them) * UNIT + (all_me - safe_me) - (all_them - safe_them);
        Bounds { lower, upper, guess: guess.clamp(lower, upper) }
    }

    #[inline]
    fn slot_index(empty: u64, flags: u8) -> u64 {
        (empty ^ u64::from(flags) << 61).wrapping_mul(0x9fb2_1c65_1e98_df25)
    }

    /// Negamax value of `empty` with `side` to move, fail-soft in `(alpha, beta)`.
    fn search(
        &mut self,
        empty: u64,
        side: usize,
        passed: bool,
        depth: u8,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 && Instant::now() >= self.deadline {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        let other = 1 - side;
        let mine = placements(side, empty);
        let theirs = placements(other, empty);
        if mine == 0 {
            if theirs == 0 || passed {
                return 0;
            }
            return -self.search(empty, other, true, depth, -beta, -alpha);
        }
        let bounds = self.bounds(empty, side, passed);
        if bounds.lower >= beta || bounds.lower == bounds.upper {
            return bounds.lower;
        }
        if bounds.upper <= alpha {
            return bounds.upper;
        }
        if depth == 0 {
            self.guesses += 1;
            return bounds.guess;
        }
        let flags = side as u8 | u8::from(passed) << 1 | 4;
        let hash = Self::slot_index(empty, flags);
        let index = (hash >> 40) as usize & self.mask;
        let mut hint = NO_BEST;
        let slot = self.slots[index];
        if slot.flags == flags && slot.empty == empty {
            hint = slot.best;
            if slot.depth >= depth {
                if slot.lower >= beta {
                    return slot.lower;
                }
                if slot.upper <= alpha {
                    return slot.upper;
                }
                if slot.lower == slot.upper {
                    return slot.lower;
                }
                alpha = alpha.max(slot.lower);
                beta = beta.min(slot.upper);
            }
        }
        let (alpha0, beta0) = (alpha, beta);
        let next_depth = if depth == EXACT_DEPTH { EXACT_DEPTH } else { depth - 1 };

        // Moves: the table's first, then by what they earn and how many of
        // the opponent's placements they take away; the pass last.
        let mut list = [(0i32, 0u8); 65];
        let mut n = 0;
        let mut rest = mine;
        while rest != 0 {
            let anchor = rest.trailing_zeros();
            rest &= rest - 1;
            let cells = cells_of(side, anchor);
            let blocked =
                if side == 0 { cells | cells >> 8 } else { cells | (cells >> 1) & !COLUMN_H };
            let key = if anchor as u8 == hint {
                INF
            } else {
                self.tables.gain[side][anchor as usize] * 16
                    + (theirs & blocked).count_ones() as i32
            };
            list[n] = (key, anchor as u8);
            n += 1;
        }
        list[n] = (if hint == PASS { INF } else { -INF }, PASS);
        n += 1;
        list[..n].sort_unstable_by_key(|m| std::cmp::Reverse(m.0));

        let mut best = -INF;
        let mut best_move = NO_BEST;
        for (i, &(_, code)) in list[..n].iter().enumerate() {
            let (child, gain, child_passed) = if code == PASS {
                (empty, 0, true)
            } else {
                let anchor = u32::from(code);
                (
                    empty & !cells_of(side, anchor),
                    self.tables.gain[side][anchor as usize] * UNIT,
                    false,
                )
            };
            let value = if code == PASS && passed {
                0
            } else if i == 0 {
                gain - self.search(
                    child,
                    other,
                    child_passed,
                    next_depth,
                    gain - beta,
                    gain - alpha,
                )
            } else {
                let probe = gain
                    - self.search(
                        child,
                        other,
                        child_passed,
                        next_depth,
                        gain - alpha - 1,
                        gain - alpha,
                    );
                if probe > alpha && probe < beta && !self.stopped {
                    gain - self.search(
                        child,
                        other,
                        child_passed,
                        next_depth,
                        gain - beta,
                        gain - probe,
                    )
                } else {
                    probe
                }
            };
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                best_move = code;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let mut entry =
            Slot { empty, flags, depth, best: best_move, age: self.age, lower: -INF, upper: INF };
        if slot.flags == flags && slot.empty == empty && slot.depth == depth {
            entry.lower = slot.lower;
            entry.upper = slot.upper;
        }
        if best <= alpha0 {
            entry.upper = best;
        } else if best >= beta0 {
            entry.lower = best;
        } else {
            entry.lower = best;
            entry.upper = best;
        }
        // Deeper results stay, unless left by an earlier move's search.
        if slot.depth <= depth || slot.age != self.age {
            self.slots[index] = entry;
        }
        best
    }

    /// The root: every legal move searched, best first; `None` if time ran
    /// out before one was finished.
    fn root(
        &mut self,
        state: &State,
        order: &mut [Move],
        depth: u8,
        alpha: i32,
        beta: i32,
    ) -> Option<(Move, i32)> {
        let side = state.side_to_move().index();
        let passed = state.consecutive_passes() > 0;
        let empty = state.empty();
        let next_depth = if depth == EXACT_DEPTH { EXACT_DEPTH } else { depth - 1 };
        let mut best: Option<(Move, i32)> = None;
        let mut alpha = alpha;
        for i in 0..order.len() {
            let mv = order[i];
            let value = match mv {
                Move::Pass if passed => 0,
                Move::Pass => -self.search(empty, 1 - side, true, next_depth, -beta, -alpha),
                Move::Place(cell) => {
                    let anchor = u32::from(cell.index());
                    let gain = self.tables.gain[side][anchor as usize] * UNIT;
                    gain - self.search(
                        empty & !cells_of(side, anchor),
                        1 - side,
                        false,
                        next_depth,
                        gain - beta,
                        gain - alpha,
                    )
                }
            };
            if self.stopped {
                break;
            }
            if best.is_none_or(|(_, b)| value > b) {
                best = Some((mv, value));
                order[..=i].rotate_right(1);
                alpha = alpha.max(value);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The exact future score difference (points) for the side to move, or
    /// `None` if `deadline` came first.
    pub fn solve(&mut self, state: &State, deadline: Instant) -> Option<i32> {
        if state.is_over() {
            return Some(0);
        }
        self.deadline = deadline;
        self.stopped = false;
        let mut order = self.root_order(state);
        let result = self.root(state, &mut order, EXACT_DEPTH, -INF, INF);
        (!self.stopped).then(|| result.expect("a move when not stopped").1 / UNIT)
    }

    fn root_order(&self, state: &State) -> Vec<Move> {
        let side = state.side_to_move().index();
        let mut keyed: Vec<(i32, Move)> = Cell::iter(placements(side, state.empty()))
            .map(|cell| (self.tables.gain[side][cell.index() as usize], Move::Place(cell)))
            .collect();
        keyed.sort_by_key(|m| std::cmp::Reverse(m.0));
        keyed.push((-INF, Move::Pass));
        keyed.into_iter().map(|(_, mv)| mv).collect()
    }

    /// Nodes searched so far, and the depth of the last iteration completed
    /// by [`RefEngine::choose`] (0 when it proved the result first).
    #[must_use]
    pub fn stats(&self) -> (u64, u8) {
        (self.nodes, self.depth_done)
    }

    /// The move to play with `my_time_ms` left, thinking from `start`.
    pub fn choose(&mut self, state: &State, my_time_ms: u64, start: Instant) -> Move {
        self.age = self.age.wrapping_add(1);
        let mut order = self.root_order(state);
        if order.len() == 1 {
            return Move::Pass;
        }
        self.depth_done = 0;
        let empties = state.empty().count_ones();
        let usable = my_time_ms.saturating_sub(40 + my_time_ms / 16);
        let moves_left = u64::from(empties.saturating_sub(22) / 4).max(2);
        let budget = usable / moves_left;
        let at = |ms: u64| start + Duration::from_millis(ms);
        let hard = at((2 * budget).min(usable / 3));
        let me = state.side_to_move();
        let lead = state.points(me) as i32 - state.points(me.opponent()) as i32;
        // Future points needed to win: 2.5 komi for the second player.
        let needed = if me.index() == 0 { 3 - lead } else { -2 - lead };
        if empties <= SOLVE_FROM {
            self.deadline = at(budget * 2 / 3).min(hard);
            self.stopped = false;
            let target = needed * UNIT;
            if let Some((mv, value)) = self.root(state, &mut order, EXACT_DEPTH, target - 1, target)
            {
                if !self.stopped && value >= target {
                    return mv;
                }
            }
        }
        self.deadline = hard;
        self.stopped = false;
        let mut choice = order[0];
        for depth in 1..=64u8 {
            let guesses = self.guesses;
            if let Some((mv, _)) = self.root(state, &mut order, depth, -INF, INF) {
                choice = mv;
            }
            if !self.stopped {
                self.depth_done = depth;
            }
            if self.stopped || self.guesses == guesses || Instant::now() >= at(budget / 2) {
                break;
            }
        }
        choice
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use versus_core::GameRng;

    use super::*;
    use crate::test_support::{brute_force, random_position};

    #[test]
    fn packings_match_a_slow_count() {
        let mut rng = GameRng::new(5);
        let values = Values::random(&mut rng);
        let tables = Tables::new(&values);
        for _ in 0..300 {
            let cells =
                rng.next_u64() & rng.next_u64().rotate_left(7) | rng.next_u64() & rng.next_u64();
            for side in 0..2 {
                // Slow: best packing by recursion over the lowest free cell.
                fn slow(values: &Values, side: usize, cells: u64) -> i32 {
                    if cells == 0 {
                        return 0;
                    }
                    let low = cells.trailing_zeros();
                    let rest = cells & (cells - 1);
                    let mut best = slow(values, side, rest);
                    let partner = if side == 0 {
                        (low % 8 < 7).then_some(low + 1)
                    } else {
                        (low < 56).then_some(low + 8)
                    };
                    if let Some(p) = partner.filter(|p| cells >> p & 1 == 1) {
                        let v = |i: u32| i32::from(values.get(Cell::new(i as u8).unwrap()));
                        best = best.max(v(low) + v(p) + slow(values, side, rest & !(1 << p)));
                    }
                    best
                }
                assert_eq!(
                    tables.packing(side, cells),
                    slow(&values, side, cells),
                    "{cells:x} {side}"
                );
            }
        }
    }

    #[test]
    fn bounds_contain_the_exact_value_and_the_solver_finds_it() {
        let mut rng = GameRng::new(17);
        let mut memo = HashMap::new();
        for round in 0..250 {
            let state = random_position(&mut rng, 10 + round % 7);
            let truth = brute_force(&state, &mut memo);
            let mut engine = RefEngine::with_table(state.values(), 12);
            if !state.is_over() && !state.legal_moves().is_empty() {
                let b = engine.bounds(
                    state.empty(),
                    state.side_to_move().index(),
                    state.consecutive_passes() > 0,
                );
                assert!(
                    b.lower <= truth * UNIT && truth * UNIT <= b.upper,
                    "{state}: {truth} not in {b:?}"
                );
            }
            let far = Instant::now() + Duration::from_secs(60);
            assert_eq!(engine.solve(&state, far), Some(truth), "{state}");
        }
    }

    #[test]
    fn the_chosen_move_keeps_a_won_game_won() {
        let mut rng = GameRng::new(23);
        let mut memo = HashMap::new();
        let mut wins = 0;
        for _ in 0..60 {
            let state = random_position(&mut rng, 14);
            if state.is_over() || state.legal_moves().len() < 2 {
                continue;
            }
            let me = state.side_to_move();
            let lead = state.points(me) as i32 - state.points(me.opponent()) as i32;
            let needed = if me.index() == 0 { 3 - lead } else { -2 - lead };
            if brute_force(&state, &mut memo) < needed {
                continue;
            }
            wins += 1;
            let mut engine = RefEngine::with_table(state.values(), 12);
            let mv = engine.choose(&state, 10_000, Instant::now());
            let mut next = state;
            next.play(mv).unwrap();
            let gain = next.points(me) as i32 - state.points(me) as i32;
            assert!(gain - brute_force(&next, &mut memo) >= needed, "{state}: {mv}");
        }
        assert!(wins > 10, "{wins}");
    }
}
