//! The sans-IO referee: what to say to whom, and what the replies mean.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::clock::Clock;
use crate::side::{BySide, Side};

/// Why an agent lost the game outright. Every way to fail has its own variant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Fault {
    /// No complete reply line before the deadline of a timed request.
    TimeLimit,
    /// No reply to `READY` within its limit.
    Stall,
    /// A reply that does not parse, or an illegal move, bet or placement.
    Runtime { reason: String, line: String },
    /// The conversation died: the process exited, closed its output or was
    /// killed by a signal.
    Crash { detail: String },
    /// A reply line over the size limit, or unbounded output.
    OutputFlood { detail: String },
    /// The agent exceeded its memory limit.
    MemoryLimit,
    /// The agent exceeded its cap on processes.
    ProcessLimit,
    /// Under the CPU clock, the player's real time ran out while its CPU
    /// budget had not: it waited without computing, or never flushed its
    /// reply, or did not exit after `FINISH` (NYPC's `WTLE`).
    WallTimeLimit,
    /// The agent's source did not compile (or its compiler ran out of time,
    /// memory or output); `detail` is the compiler's first error. The whole
    /// (bounded) compiler output is in the record as the agent's debug lines.
    Compile { detail: String },
}

impl Fault {
    /// An RE with its reason and the offending line.
    pub fn runtime(reason: impl Into<String>, line: impl Into<String>) -> Fault {
        Fault::Runtime { reason: reason.into(), line: line.into() }
    }

    /// The verdict's short name: `TLE`, `RE`, `CRASH`, `STALL`, `FLOOD`, `MLE`, `PLE`, `CE`, `WTLE`.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Fault::TimeLimit => "TLE",
            Fault::Stall => "STALL",
            Fault::Runtime { .. } => "RE",
            Fault::Crash { .. } => "CRASH",
            Fault::OutputFlood { .. } => "FLOOD",
            Fault::MemoryLimit => "MLE",
            Fault::ProcessLimit => "PLE",
            Fault::Compile { .. } => "CE",
            Fault::WallTimeLimit => "WTLE",
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::TimeLimit => f.write_str("TLE: no reply before the deadline"),
            Fault::Stall => f.write_str("stall: no OK to READY in time"),
            Fault::Runtime { reason, line } => write!(f, "RE: {reason}: {line:?}"),
            Fault::Crash { detail } => write!(f, "crash: {detail}"),
            Fault::OutputFlood { detail } => write!(f, "output flood: {detail}"),
            Fault::MemoryLimit => f.write_str("memory limit exceeded"),
            Fault::ProcessLimit => f.write_str("process limit exceeded"),
            Fault::Compile { detail } => write!(f, "CE: {detail}"),
            Fault::WallTimeLimit => f.write_str("WTLE: out of real time with CPU time left"),
        }
    }
}

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    #[serde(rename = "1-0")]
    FirstWins,
    #[serde(rename = "0-1")]
    SecondWins,
    #[serde(rename = "1/2-1/2")]
    Draw,
}

impl GameResult {
    /// `1-0`, `0-1` or `1/2-1/2`.
    #[must_use]
    pub fn notation(self) -> &'static str {
        match self {
            GameResult::FirstWins => "1-0",
            GameResult::SecondWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The winner, if any.
    #[must_use]
    pub fn winner(self) -> Option<Side> {
        match self {
            GameResult::FirstWins => Some(Side::First),
            GameResult::SecondWins => Some(Side::Second),
            GameResult::Draw => None,
        }
    }

    /// The result with `side` winning.
    #[must_use]
    pub fn win_for(side: Side) -> GameResult {
        match side {
            Side::First => GameResult::FirstWins,
            Side::Second => GameResult::SecondWins,
        }
    }

    /// 1, ½ or 0 for `side`.
    #[must_use]
    pub fn points(self, side: Side) -> f64 {
        match self.winner() {
            Some(winner) if winner == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.notation())
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub result: GameResult,
    /// The scores by the game's rules at the end (also when a fault ended it).
    pub scores: BySide<f64>,
    /// The fault of each side, if any.
    pub faults: BySide<Option<Fault>>,
}

impl Outcome {
    /// A game played to its end: the higher score wins, equal is a draw.
    #[must_use]
    pub fn from_scores(scores: BySide<f64>) -> Outcome {
        let result = if scores.first > scores.second {
            GameResult::FirstWins
        } else if scores.second > scores.first {
            GameResult::SecondWins
        } else {
            GameResult::Draw
        };
        Outcome { result, scores, faults: BySide::default() }
    }

    /// A game ended by faults: the opponent of a faulting side wins, and a
    /// game in which both sides faulted on the same request is a draw.
    #[must_use]
    pub fn from_faults(faults: BySide<Option<Fault>>, scores: BySide<f64>) -> Outcome {
        let result = match (&faults.first, &faults.second) {
            (Some(_), None) => GameResult::SecondWins,
            (None, Some(_)) => GameResult::FirstWins,
            _ => GameResult::Draw,
        };
        Outcome { result, scores, faults }
    }

    /// A game ended by one side's fault.
    #[must_use]
    pub fn forfeit(side: Side, fault: Fault, scores: BySide<f64>) -> Outcome {
        let mut faults = BySide::default();
        faults[side] = Some(fault);
        Outcome::from_faults(faults, scores)
    }
}

/// One line to write to a side, whose reply the judge waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub side: Side,
    pub line: String,
    /// The deadline, measured from the end of the write.
    pub limit: Duration,
}

/// What the judge does next.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Write these lines; no reply is expected.
    Tell(Vec<(Side, String)>),
    /// Write each request and wait for each side's reply (both at once when
    /// two sides are asked). Every asked side must then be answered.
    Ask(Vec<Request>),
    /// The game is over (the referee has already said `FINISH`).
    Over(Outcome),
}

/// What came back for a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A complete line (without its newline), `elapsed` after the request was written.
    Line { text: String, elapsed: Duration },
    /// No complete line before the deadline.
    Timeout,
    /// The conversation died; the judge says how.
    Gone(Fault),
}

/// A game's judge logic as a state machine that performs no I/O.
///
/// The judge calls [`Referee::next`]; after an [`Action::Ask`] it calls
/// [`Referee::answer`] once for each asked side before calling `next` again.
/// After [`Action::Over`], `next` keeps returning the same outcome.
pub trait Referee: Send {
    fn next(&mut self) -> Action;
    fn answer(&mut self, side: Side, reply: Reply);
    /// The game as it stands, for viewers, as JSON in the game's own shape
    /// (documented by each game's referee). Computed from the rules' state,
    /// so that no viewer needs a second implementation of the rules.
    fn view(&self) -> serde_json::Value {
        serde_json::Value::Null
    }
}

/// The reply to a timed request, charged to `clock`: the line and the ms
/// charged, or the fault (TLE for a late or missing line).
pub fn timed_reply(clock: &mut Clock, reply: Reply) -> Result<(String, u64), Fault> {
    match reply {
        Reply::Line { text, elapsed } => match clock.charge(elapsed) {
            Ok(charged) => Ok((text, charged)),
            Err(_) => Err(Fault::TimeLimit),
        },
        Reply::Timeout => Err(Fault::TimeLimit),
        Reply::Gone(fault) => Err(fault),
    }
}

/// The reason given when `READY` is answered with anything but `OK`.
pub const INVALID_READY: &str = "INVALID READY MESSAGE";

/// Checks the reply to `READY`: `OK` within `limit`, else a stall or an RE.
pub fn ready_reply(reply: Reply, limit: Duration) -> Result<(), Fault> {
    match reply {
        Reply::Line { elapsed, .. } if elapsed > limit => Err(Fault::Stall),
        Reply::Line { text, .. } if text == "OK" => Ok(()),
        Reply::Line { text, .. } => Err(Fault::runtime(INVALID_READY, text)),
        Reply::Timeout => Err(Fault::Stall),
        Reply::Gone(fault) => Err(fault),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Rounding;

    fn line(text: &str, ms: u64) -> Reply {
        Reply::Line { text: text.into(), elapsed: Duration::from_millis(ms) }
    }

    #[test]
    fn outcome_from_scores_and_faults() {
        assert_eq!(Outcome::from_scores(BySide::new(3.0, 2.5)).result, GameResult::FirstWins);
        assert_eq!(Outcome::from_scores(BySide::new(2.0, 2.5)).result, GameResult::SecondWins);
        assert_eq!(Outcome::from_scores(BySide::new(2.0, 2.0)).result, GameResult::Draw);
        let scores = BySide::new(10.0, 0.0);
        let lost = Outcome::forfeit(Side::First, Fault::TimeLimit, scores);
        assert_eq!(lost.result, GameResult::SecondWins);
        let both =
            Outcome::from_faults(BySide::new(Some(Fault::Stall), Some(Fault::Stall)), scores);
        assert_eq!(both.result, GameResult::Draw);
    }

    #[test]
    fn timed_replies() {
        let mut clock = Clock::new(50, Rounding::Up);
        assert_eq!(timed_reply(&mut clock, line("MOVE", 20)), Ok(("MOVE".into(), 20)));
        assert_eq!(timed_reply(&mut clock, line("MOVE", 31)), Err(Fault::TimeLimit));
        assert_eq!(timed_reply(&mut clock, Reply::Timeout), Err(Fault::TimeLimit));
        let crash = Fault::Crash { detail: "exit status 1".into() };
        assert_eq!(timed_reply(&mut clock, Reply::Gone(crash.clone())), Err(crash));
    }

    #[test]
    fn ready_replies() {
        let limit = Duration::from_millis(3000);
        assert_eq!(ready_reply(line("OK", 5), limit), Ok(()));
        assert_eq!(ready_reply(line("OK", 3001), limit), Err(Fault::Stall));
        assert_eq!(ready_reply(Reply::Timeout, limit), Err(Fault::Stall));
        assert_eq!(ready_reply(line("ok", 1), limit), Err(Fault::runtime(INVALID_READY, "ok")));
    }

    #[test]
    fn result_serializes_as_notation() {
        let json = serde_json::to_string(&GameResult::Draw).unwrap();
        assert_eq!(json, "\"1/2-1/2\"");
    }
}
