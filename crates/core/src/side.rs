//! The two seats of a game and a pair of values, one per seat.

use std::fmt;
use std::ops::{Index, IndexMut};

use serde::{Deserialize, Serialize};

/// A seat at the table. `First` moves first (Bacteria War's `O`, Domineering's
/// horizontal player); in Betris, where the players are symmetric, it only
/// names them in logs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    #[must_use]
    pub fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for `First`, 1 for `Second`.
    #[must_use]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The word the protocols use: `FIRST` or `SECOND`.
    #[must_use]
    pub fn upper(self) -> &'static str {
        match self {
            Side::First => "FIRST",
            Side::Second => "SECOND",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            Side::First => "first",
            Side::Second => "second",
        })
    }
}

/// One value per side, indexable by [`Side`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BySide<T> {
    pub first: T,
    pub second: T,
}

impl<T> BySide<T> {
    pub fn new(first: T, second: T) -> Self {
        BySide { first, second }
    }

    /// Builds both values from a function of the side.
    pub fn from_fn(mut f: impl FnMut(Side) -> T) -> Self {
        BySide { first: f(Side::First), second: f(Side::Second) }
    }

    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> BySide<U> {
        BySide { first: f(self.first), second: f(self.second) }
    }

    pub fn as_ref(&self) -> BySide<&T> {
        BySide { first: &self.first, second: &self.second }
    }

    pub fn as_mut(&mut self) -> BySide<&mut T> {
        BySide { first: &mut self.first, second: &mut self.second }
    }

    /// The same values with the seats exchanged.
    pub fn swap(self) -> Self {
        BySide { first: self.second, second: self.first }
    }
}

impl<T> Index<Side> for BySide<T> {
    type Output = T;
    fn index(&self, side: Side) -> &T {
        match side {
            Side::First => &self.first,
            Side::Second => &self.second,
        }
    }
}

impl<T> IndexMut<Side> for BySide<T> {
    fn index_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::First => &mut self.first,
            Side::Second => &mut self.second,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_and_index() {
        assert_eq!(Side::First.opponent(), Side::Second);
        assert_eq!(Side::Second.opponent(), Side::First);
        assert_eq!(Side::First.index(), 0);
        assert_eq!(Side::Second.index(), 1);
    }

    #[test]
    fn by_side_indexing_and_swap() {
        let mut pair = BySide::new(1, 2);
        pair[Side::Second] += 10;
        assert_eq!(pair[Side::First], 1);
        assert_eq!(pair[Side::Second], 12);
        assert_eq!(pair.swap(), BySide::new(12, 1));
    }
}
