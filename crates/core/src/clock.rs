//! Chess clocks as the contests keep them.
//!
//! Each player has one budget for the whole game. The deadline of a request
//! is the remaining budget at full precision; what is deducted afterwards is
//! whole milliseconds, rounded down for Connexion (as its public testing tool
//! does) and up for the ALPHANO games (whose example charges 1 ms for an
//! instant reply).

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// How a reply's elapsed time becomes whole milliseconds on the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rounding {
    /// Rounded down (Connexion).
    Down,
    /// Rounded up, at least 1 ms (the ALPHANO games).
    Up,
}

impl Rounding {
    /// The whole milliseconds charged for `elapsed`.
    #[must_use]
    pub fn charge_ms(self, elapsed: Duration) -> u64 {
        let nanos = elapsed.as_nanos();
        let ms = match self {
            Rounding::Down => nanos / 1_000_000,
            Rounding::Up => nanos.div_ceil(1_000_000).max(1),
        };
        u64::try_from(ms).unwrap_or(u64::MAX)
    }
}

/// What a player's clock measures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClockMode {
    /// Real time from the end of the request's write to the reply (the
    /// ALPHANO pages' rule).
    #[default]
    Wall,
    /// The CPU time of the player's processes, all threads summed, since its
    /// last reply (NYPC's rule). A separate budget of real time, `wall_ms`,
    /// ends a player that waits without computing (`WTLE`), and the program
    /// must exit with status 0 after `FINISH`.
    Cpu,
}

impl ClockMode {
    #[must_use]
    pub fn is_wall(&self) -> bool {
        *self == ClockMode::Wall
    }
}

impl std::str::FromStr for ClockMode {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "wall" => Ok(ClockMode::Wall),
            "cpu" => Ok(ClockMode::Cpu),
            _ => Err(format!("unknown clock {text:?} (expected wall or cpu)")),
        }
    }
}

/// The time limits of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    /// Each player's budget for the whole game, in ms (the contests: 10,000).
    pub game_ms: u64,
    /// The limit for answering `READY`, in ms, not deducted (the contests: 3,000).
    pub ready_ms: u64,
    /// What the budget measures. Absent from records of wall-clock games,
    /// which keeps their headers as they were.
    #[serde(default, skip_serializing_if = "ClockMode::is_wall")]
    pub clock: ClockMode,
    /// Under the CPU clock, each player's budget of real time for the whole
    /// game (`READY` included); `None`: [`TimeControl::default_wall_ms`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wall_ms: Option<u64>,
}

impl TimeControl {
    /// The contests' clock: 10,000 ms a game, 3,000 ms for `READY`.
    pub const CONTEST: TimeControl = TimeControl::new(10_000, 3_000);

    /// A wall clock of `game_ms` a game and `ready_ms` for `READY`.
    #[must_use]
    pub const fn new(game_ms: u64, ready_ms: u64) -> TimeControl {
        TimeControl { game_ms, ready_ms, clock: ClockMode::Wall, wall_ms: None }
    }

    /// The same limits on the CPU clock.
    #[must_use]
    pub const fn cpu(self) -> TimeControl {
        TimeControl { clock: ClockMode::Cpu, ..self }
    }

    /// The real-time budget of a CPU-clock game: the whole CPU budget and
    /// `READY`'s, plus 5 s for a machine that is busy with other games.
    #[must_use]
    pub fn default_wall_ms(&self) -> u64 {
        self.wall_ms.unwrap_or(self.game_ms + self.ready_ms + 5_000)
    }

    #[must_use]
    pub fn ready_limit(&self) -> Duration {
        Duration::from_millis(self.ready_ms)
    }
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl::CONTEST
    }
}

/// One player's remaining budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    remaining_ms: u64,
    rounding: Rounding,
}

/// A reply that arrived after its deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overtime;

impl Clock {
    #[must_use]
    pub fn new(budget_ms: u64, rounding: Rounding) -> Self {
        Clock { remaining_ms: budget_ms, rounding }
    }

    /// What is left, in whole ms (shown to the agents as `my_time`/`opp_time`).
    #[must_use]
    pub fn remaining_ms(&self) -> u64 {
        self.remaining_ms
    }

    /// The deadline of the next request, measured from the end of its write.
    #[must_use]
    pub fn limit(&self) -> Duration {
        Duration::from_millis(self.remaining_ms)
    }

    /// Deducts a reply that took `elapsed`; returns the ms charged, or
    /// `Overtime` (and charges nothing) if the reply came after the deadline.
    pub fn charge(&mut self, elapsed: Duration) -> Result<u64, Overtime> {
        if elapsed > self.limit() {
            return Err(Overtime);
        }
        let charged = self.rounding.charge_ms(elapsed);
        self.remaining_ms = self.remaining_ms.saturating_sub(charged);
        Ok(charged)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_rules() {
        let us = Duration::from_micros;
        assert_eq!(Rounding::Up.charge_ms(Duration::ZERO), 1);
        assert_eq!(Rounding::Up.charge_ms(us(1)), 1);
        assert_eq!(Rounding::Up.charge_ms(us(1000)), 1);
        assert_eq!(Rounding::Up.charge_ms(us(1001)), 2);
        assert_eq!(Rounding::Down.charge_ms(us(999)), 0);
        assert_eq!(Rounding::Down.charge_ms(us(70_900)), 70);
    }

    #[test]
    fn deadline_is_exact_and_charge_is_whole_ms() {
        let mut clock = Clock::new(100, Rounding::Up);
        assert_eq!(clock.charge(Duration::from_micros(40_200)), Ok(41));
        assert_eq!(clock.remaining_ms(), 59);
        assert_eq!(clock.charge(Duration::from_micros(59_001)), Err(Overtime));
        assert_eq!(clock.remaining_ms(), 59);
        assert_eq!(clock.charge(Duration::from_millis(59)), Ok(59));
        assert_eq!(clock.remaining_ms(), 0);
    }
}
