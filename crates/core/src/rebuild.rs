//! A game read back from its record's lines alone, without its referee.
//!
//! Each game crate's `rebuild` module applies the moves, bets and placements
//! a record shows on the wire to the rules' state. That is the independent
//! account of the game a viewer is tested against: a frame drawn from a
//! referee's view must show exactly that game (see
//! [`crate::conformance::check_views`]), so a view that misreads the
//! referee's state cannot agree with itself and pass.

use thiserror::Error;

use crate::record::RecordLine;
use crate::side::{BySide, Side};

/// A record line that does not say what the rebuild needs, or says
/// something the rules do not allow although no fault was recorded for it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("record line {index}: {reason}: {line:?}")]
pub struct RebuildError {
    pub index: usize,
    pub reason: String,
    pub line: String,
}

impl RebuildError {
    pub fn new(index: usize, reason: impl Into<String>, line: impl Into<String>) -> RebuildError {
        RebuildError { index, reason: reason.into(), line: line.into() }
    }
}

/// The game at each moment of a record: the start, then once per reply
/// line, the game with that reply and everything before it applied.
#[derive(Clone, Debug)]
pub struct Moments<T> {
    /// Sorted by record index; the first is the start, at index 0.
    moments: Vec<(usize, T)>,
}

impl<T> Moments<T> {
    #[must_use]
    pub fn new(start: T) -> Moments<T> {
        Moments { moments: vec![(0, start)] }
    }

    /// The game once record line `index` (after every earlier one) is applied.
    pub fn push(&mut self, index: usize, moment: T) {
        debug_assert!(self.moments.last().is_some_and(|(last, _)| *last <= index));
        self.moments.push((index, moment));
    }

    /// What a viewer's frame after record line `index` must show: the
    /// last moment at or before that line.
    #[must_use]
    pub fn at(&self, index: usize) -> &T {
        let after = self.moments.partition_point(|(at, _)| *at <= index);
        &self.moments[after.saturating_sub(1)].1
    }

    /// The game at the end of the record.
    #[must_use]
    pub fn last(&self) -> &T {
        &self.moments.last().expect("there is always the start").1
    }

    /// The same moments, each turned into something else.
    #[must_use]
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> Moments<U> {
        Moments { moments: self.moments.into_iter().map(|(at, t)| (at, f(t))).collect() }
    }

    /// Every moment with its record index.
    pub fn iter(&self) -> impl Iterator<Item = &(usize, T)> {
        self.moments.iter()
    }
}

/// For each side the footer says faulted, the index of its last reply: the
/// one that ended the game (a verdict ends it at once), which the rules
/// must not apply even when its text is a legal move (a late reply is).
#[must_use]
pub fn faulty_replies(lines: &[RecordLine]) -> BySide<Option<usize>> {
    let Some(RecordLine::Footer { outcome }) = lines.last() else {
        return BySide::default();
    };
    BySide::from_fn(|side: Side| {
        outcome.faults[side].as_ref()?;
        lines.iter().rposition(|l| l.reply().is_some_and(|(s, _)| s == side))
    })
}

/// Each side's clock at the moment after record line `index`, in whole ms,
/// as the next request to that side states it (`my_time` picks it out of a
/// judge line, if the line carries it); `None` when no later request says.
/// Nothing changes a clock between a moment and the next request.
pub fn clocks_after(
    lines: &[RecordLine],
    index: usize,
    my_time: impl Fn(&str) -> Option<u64>,
) -> BySide<Option<u64>> {
    BySide::from_fn(|side: Side| {
        lines.iter().skip(index + 1).find_map(|l| match l {
            RecordLine::Send { side: s, line } if *s == side => my_time(line),
            _ => None,
        })
    })
}

/// The whitespace-separated integers after `keyword` at the start of
/// `line`, if the line starts with it and all the rest are integers.
#[must_use]
pub fn numbers_after(line: &str, keyword: &str) -> Option<Vec<i64>> {
    let mut words = line.split_ascii_whitespace();
    if words.next() != Some(keyword) {
        return None;
    }
    words.map(|w| w.parse().ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::{Fault, Outcome};

    #[test]
    fn a_frame_shows_the_last_moment_at_or_before_its_line() {
        let mut moments = Moments::new("start");
        moments.push(4, "a");
        moments.push(9, "b");
        assert_eq!(*moments.at(0), "start");
        assert_eq!(*moments.at(3), "start");
        assert_eq!(*moments.at(4), "a");
        assert_eq!(*moments.at(8), "a");
        assert_eq!(*moments.at(20), "b");
        assert_eq!(*moments.last(), "b");
    }

    #[test]
    fn the_faulty_reply_is_the_last_of_the_side_that_faulted() {
        let recv = |side, line: &str| RecordLine::Recv {
            side,
            line: line.into(),
            elapsed_ns: 1,
            lag_us: 0,
        };
        let send = |side, line: &str| RecordLine::Send { side, line: line.into() };
        let outcome = Outcome::forfeit(Side::Second, Fault::TimeLimit, BySide::new(1.0, 2.0));
        let lines = vec![
            send(Side::First, "TURN 10 10"),
            recv(Side::First, "MOVE 1 1 2 2"),
            send(Side::Second, "TURN 9 10"),
            recv(Side::Second, "MOVE 1 7 2 6"),
            RecordLine::Footer { outcome },
        ];
        assert_eq!(faulty_replies(&lines), BySide::new(None, Some(3)));
        let time = |line: &str| numbers_after(line, "TURN").map(|n| n[0] as u64);
        assert_eq!(clocks_after(&lines, 1, time), BySide::new(None, Some(9)));
        assert_eq!(clocks_after(&lines, 0, time), BySide::new(None, Some(9)));
        assert_eq!(numbers_after("MOVE -1 2", "MOVE"), Some(vec![-1, 2]));
        assert_eq!(numbers_after("MOVE x", "MOVE"), None);
        assert_eq!(numbers_after("BET 1", "MOVE"), None);
    }
}
