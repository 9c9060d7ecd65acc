//! A search position: the board with both scorings kept by union-find
//! (undone exactly in reverse order), and both hands and bags as counts of
//! each tile kind — the bags' order is not known to an agent and never
//! enters a search.
//!
//! Each side has its own grouping attribute, as in the scoring: the first
//! player groups by pattern, the second by colour. Attribute values are
//! `0..4` (pattern − 1, or the colour's index), so `attribute(side, tile)`
//! picks one of the four masks of that side.

use versus_core::{BySide, Side};

use crate::rules::{Cell, Move, State, Tile, CELLS};

const EMPTY: u8 = u8::MAX;

/// The grouping attribute of `tile` for `side`'s score.
#[must_use]
pub fn attribute(side: usize, tile: u8) -> usize {
    if side == 0 {
        usize::from(tile % 4)
    } else {
        usize::from(tile / 4)
    }
}

/// Up to three neighbours of each cell, padded with `EMPTY`.
fn neighbour_lists() -> [[u8; 3]; CELLS] {
    let mut lists = [[EMPTY; 3]; CELLS];
    for cell in Cell::all() {
        for (slot, n) in lists[cell.index()].iter_mut().zip(cell.neighbours()) {
            *slot = n.index() as u8;
        }
    }
    lists
}

static NEIGHBOURS: std::sync::LazyLock<[[u8; 3]; CELLS]> =
    std::sync::LazyLock::new(neighbour_lists);

/// The neighbours of cell `index`.
#[must_use]
pub fn neighbours(index: usize) -> &'static [u8; 3] {
    &NEIGHBOURS[index]
}

/// What a placement changed, to undo it.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    cell: u8,
    /// Per side, the roots that were linked under another root, in order.
    linked: [[u8; 3]; 2],
    count: [u8; 2],
    gain: [u32; 2],
}

/// The groups around an empty cell: per side, the distinct neighbouring
/// groups as (attribute value, size).
#[derive(Clone, Copy, Debug, Default)]
pub struct Surroundings {
    groups: [[(u8, u8); 3]; 2],
    count: [u8; 2],
}

impl Surroundings {
    /// The score gains of placing `tile` here: (first, second).
    #[must_use]
    pub fn gain(&self, tile: u8) -> [u32; 2] {
        let mut gains = [0; 2];
        for (side, gain) in gains.iter_mut().enumerate() {
            let value = attribute(side, tile) as u8;
            let mut merged = 1u32;
            let mut squares = 0u32;
            for &(v, size) in &self.groups[side][..usize::from(self.count[side])] {
                if v == value {
                    merged += u32::from(size);
                    squares += u32::from(size) * u32::from(size);
                }
            }
            *gain = merged * merged - squares;
        }
        gains
    }
}

/// The board with union-find groups per side.
#[derive(Clone, Debug)]
pub struct FastBoard {
    tiles: [u8; CELLS],
    occupied: u64,
    parent: [[u8; CELLS]; 2],
    size: [[u8; CELLS]; 2],
    scores: [u32; 2],
}

impl Default for FastBoard {
    fn default() -> Self {
        let identity = std::array::from_fn(|i| i as u8);
        FastBoard {
            tiles: [EMPTY; CELLS],
            occupied: 0,
            parent: [identity; 2],
            size: [[1; CELLS]; 2],
            scores: [0; 2],
        }
    }
}

impl FastBoard {
    #[must_use]
    pub fn tile(&self, cell: usize) -> Option<u8> {
        (self.tiles[cell] != EMPTY).then_some(self.tiles[cell])
    }

    #[must_use]
    pub fn occupied(&self) -> u64 {
        self.occupied
    }

    #[must_use]
    pub fn empty(&self) -> u64 {
        !self.occupied
    }

    #[must_use]
    pub fn count(&self) -> usize {
        self.occupied.count_ones() as usize
    }

    /// (first, second).
    #[must_use]
    pub fn scores(&self) -> [u32; 2] {
        self.scores
    }

    fn root(&self, side: usize, mut cell: u8) -> u8 {
        while self.parent[side][usize::from(cell)] != cell {
            cell = self.parent[side][usize::from(cell)];
        }
        cell
    }

    /// The size of the group holding the occupied `cell` for `side`.
    #[must_use]
    pub fn group_size(&self, side: usize, cell: usize) -> u32 {
        u32::from(self.size[side][usize::from(self.root(side, cell as u8))])
    }

    /// The distinct groups around the empty `cell`.
    #[must_use]
    pub fn surroundings(&self, cell: usize) -> Surroundings {
        let mut s = Surroundings::default();
        let mut roots = [[EMPTY; 3]; 2];
        for &n in neighbours(cell) {
            if n == EMPTY || self.tiles[usize::from(n)] == EMPTY {
                continue;
            }
            let tile = self.tiles[usize::from(n)];
            for (side, seen) in roots.iter_mut().enumerate() {
                let root = self.root(side, n);
                let count = usize::from(s.count[side]);
                if seen[..count].contains(&root) {
                    continue;
                }
                seen[count] = root;
                s.groups[side][count] =
                    (attribute(side, tile) as u8, self.size[side][usize::from(root)]);
                s.count[side] += 1;
            }
        }
        s
    }

    /// The score gains of placing `tile` on the empty `cell`.
    #[must_use]
    pub fn gain(&self, cell: usize, tile: u8) -> [u32; 2] {
        self.surroundings(cell).gain(tile)
    }

    /// Places `tile` on the empty `cell`.
    pub fn place(&mut self, cell: usize, tile: u8) -> Undo {
        debug_assert_eq!(self.tiles[cell], EMPTY, "cell {cell} is occupied");
        let mut undo =
            Undo { cell: cell as u8, linked: [[EMPTY; 3]; 2], count: [0; 2], gain: [0; 2] };
        for side in 0..2 {
            let value = attribute(side, tile);
            let mut root = cell as u8;
            let mut squares = 0u32;
            for &n in neighbours(cell) {
                if n == EMPTY {
                    continue;
                }
                let other = self.tiles[usize::from(n)];
                if other == EMPTY || attribute(side, other) != value {
                    continue;
                }
                let r = self.root(side, n);
                if r == root {
                    continue;
                }
                let (r_size, root_size) =
                    (self.size[side][usize::from(r)], self.size[side][usize::from(root)]);
                squares += u32::from(r_size).pow(2);
                let (small, big) = if r_size > root_size { (root, r) } else { (r, root) };
                self.parent[side][usize::from(small)] = big;
                self.size[side][usize::from(big)] += self.size[side][usize::from(small)];
                undo.linked[side][usize::from(undo.count[side])] = small;
                undo.count[side] += 1;
                root = big;
            }
            let merged = u32::from(self.size[side][usize::from(root)]);
            undo.gain[side] = merged * merged - squares;
            self.scores[side] += undo.gain[side];
        }
        self.tiles[cell] = tile;
        self.occupied |= 1 << cell;
        undo
    }

    /// Undoes the last placement not yet undone.
    pub fn remove(&mut self, undo: &Undo) {
        let cell = usize::from(undo.cell);
        for side in 0..2 {
            for &small in undo.linked[side][..usize::from(undo.count[side])].iter().rev() {
                let big = self.parent[side][usize::from(small)];
                self.size[side][usize::from(big)] -= self.size[side][usize::from(small)];
                self.parent[side][usize::from(small)] = small;
            }
            self.scores[side] -= undo.gain[side];
        }
        self.tiles[cell] = EMPTY;
        self.occupied &= !(1 << cell);
    }
}

/// Tile counts by kind.
pub type Counts = [u8; 16];

/// Everything a searcher may know: the board, both hands, and what remains
/// in each bag (as counts, in no order).
#[derive(Clone, Debug)]
pub struct Position {
    pub board: FastBoard,
    pub hands: [Counts; 2],
    pub bags: [Counts; 2],
    pub bag_len: [u8; 2],
}

fn side_index(side: Side) -> usize {
    match side {
        Side::First => 0,
        Side::Second => 1,
    }
}

impl Position {
    /// The position of `state` as an agent knows it: the bags' remaining
    /// multisets only.
    #[must_use]
    pub fn from_state(state: &State) -> Self {
        let mut board = FastBoard::default();
        for cell in Cell::all() {
            if let Some(tile) = state.board().get(cell) {
                board.place(cell.index(), tile.index() as u8);
            }
        }
        let hands = BySide::from_fn(|side| {
            let mut counts = [0; 16];
            for tile in state.hand(side).tiles() {
                counts[tile.index()] += 1;
            }
            counts
        });
        let bags = BySide::from_fn(|side| state.bag(side).counts());
        Position {
            board,
            hands: [hands.first, hands.second],
            bags: [bags.first, bags.second],
            bag_len: [state.bag(Side::First).len() as u8, state.bag(Side::Second).len() as u8],
        }
    }

    /// 0 for the first player, 1 for the second; meaningless once full.
    #[must_use]
    pub fn to_move(&self) -> usize {
        self.board.count() % 2
    }

    #[must_use]
    pub fn is_over(&self) -> bool {
        self.board.count() == CELLS
    }

    /// The distinct tile kinds in `side`'s hand.
    pub fn hand_kinds(&self, side: usize) -> impl Iterator<Item = u8> + '_ {
        (0..16u8).filter(move |&t| self.hands[side][usize::from(t)] > 0)
    }

    /// Score margin for `side`: its score minus the other's.
    #[must_use]
    pub fn margin(&self, side: usize) -> i32 {
        let s = self.board.scores();
        s[side] as i32 - s[1 - side] as i32
    }

    /// Places a tile from the mover's hand, without a draw.
    pub fn place(&mut self, cell: usize, tile: u8) -> Undo {
        let side = self.to_move();
        debug_assert!(self.hands[side][usize::from(tile)] > 0);
        self.hands[side][usize::from(tile)] -= 1;
        self.board.place(cell, tile)
    }

    /// Undoes [`Position::place`] (of the side that moved).
    pub fn unplace(&mut self, undo: &Undo) {
        let tile = self.board.tiles[usize::from(undo.cell)];
        self.board.remove(undo);
        let side = self.to_move();
        self.hands[side][usize::from(tile)] += 1;
    }

    /// Moves `tile` from `side`'s bag to its hand.
    pub fn draw(&mut self, side: usize, tile: u8) {
        debug_assert!(self.bags[side][usize::from(tile)] > 0);
        self.bags[side][usize::from(tile)] -= 1;
        self.bag_len[side] -= 1;
        self.hands[side][usize::from(tile)] += 1;
    }
}

/// A move as the rules write it.
#[must_use]
pub fn to_move(cell: usize, tile: u8) -> Move {
    Move { cell: Cell::new(cell).expect("a cell index"), tile: Tile::ALL[usize::from(tile)] }
}

/// The index of `side` used by this module.
#[must_use]
pub fn index(side: Side) -> usize {
    side_index(side)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::scores_from_scratch;
    use versus_core::GameRng;

    #[test]
    fn union_find_scores_match_the_rules_and_undo_exactly() {
        let mut rng = GameRng::new(3);
        for _ in 0..50 {
            let mut order: Vec<(usize, u8)> = Vec::new();
            let mut cells: Vec<usize> = (0..CELLS).collect();
            rng.shuffle(&mut cells);
            let mut board = FastBoard::default();
            let mut reference = [None; CELLS];
            let mut undos = Vec::new();
            let mut snapshots = Vec::new();
            for &cell in &cells {
                let tile = rng.below(16) as u8;
                let predicted = board.gain(cell, tile);
                snapshots.push(board.clone());
                let undo = board.place(cell, tile);
                undos.push(undo);
                order.push((cell, tile));
                reference[cell] = Some(Tile::ALL[usize::from(tile)]);
                let expected = scores_from_scratch(&reference);
                assert_eq!(board.scores(), [expected.first, expected.second]);
                let before = snapshots.last().unwrap().scores();
                assert_eq!([before[0] + predicted[0], before[1] + predicted[1]], board.scores());
            }
            while let Some(undo) = undos.pop() {
                board.remove(&undo);
                let snapshot = snapshots.pop().unwrap();
                assert_eq!(board.scores(), snapshot.scores());
                assert_eq!(board.tiles, snapshot.tiles);
                for side in 0..2 {
                    for cell in 0..CELLS {
                        if board.tiles[cell] != EMPTY {
                            assert_eq!(
                                board.group_size(side, cell),
                                snapshot.group_size(side, cell)
                            );
                        }
                    }
                }
            }
        }
    }
}
