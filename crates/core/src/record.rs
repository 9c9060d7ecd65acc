//! The game record: JSON lines written as the game goes, enough to replay it.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::game::GameConfig;
use crate::referee::{Action, Fault, Outcome, Referee, Reply};
use crate::side::{BySide, Side};

/// The first line of a record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub game: String,
    pub rules_version: String,
    #[serde(flatten)]
    pub config: GameConfig,
    /// How each agent was named or started (`builtin:greedy`, a command line).
    pub agents: BySide<String>,
}

/// One line of a record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RecordLine {
    Header(Header),
    /// A line the judge wrote to `side`.
    Send {
        side: Side,
        line: String,
    },
    /// A line `side` wrote, `elapsed_ns` after the request before it was
    /// written; `lag_us`: how long the judge took to take it once it arrived.
    Recv {
        side: Side,
        line: String,
        elapsed_ns: u64,
        #[serde(default, skip_serializing_if = "is_zero")]
        lag_us: u64,
    },
    /// No reply before the deadline; `lag_us`: how late after the deadline
    /// the judge woke to see it (a loaded machine shows here).
    Timeout {
        side: Side,
        #[serde(default, skip_serializing_if = "is_zero")]
        lag_us: u64,
    },
    /// The conversation with `side` died.
    Gone {
        side: Side,
        fault: Fault,
    },
    /// A line `side` wrote to its standard error.
    Debug {
        side: Side,
        line: String,
    },
    /// The last line.
    Footer {
        outcome: Outcome,
    },
}

impl RecordLine {
    /// The reply this line records, if it is one.
    #[must_use]
    pub fn reply(&self) -> Option<(Side, Reply)> {
        match self {
            RecordLine::Recv { side, line, elapsed_ns, .. } => Some((
                *side,
                Reply::Line { text: line.clone(), elapsed: Duration::from_nanos(*elapsed_ns) },
            )),
            RecordLine::Timeout { side, .. } => Some((*side, Reply::Timeout)),
            RecordLine::Gone { side, fault } => Some((*side, Reply::Gone(fault.clone()))),
            _ => None,
        }
    }

    /// The record line for `reply` from `side`, taken by the judge `lag` late.
    #[must_use]
    pub fn from_reply(side: Side, reply: &Reply, lag: Duration) -> RecordLine {
        let lag_us = u64::try_from(lag.as_micros()).unwrap_or(u64::MAX);
        match reply {
            Reply::Line { text, elapsed } => RecordLine::Recv {
                side,
                line: text.clone(),
                elapsed_ns: u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX),
                lag_us,
            },
            Reply::Timeout => RecordLine::Timeout { side, lag_us },
            Reply::Gone(fault) => RecordLine::Gone { side, fault: fault.clone() },
        }
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde passes fields by reference
fn is_zero(value: &u64) -> bool {
    *value == 0
}

/// Why a record could not be replayed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReplayError {
    #[error(
        "record line {index}: expected the judge to send {expected:?} to {side}, found {found}"
    )]
    SendMismatch { index: usize, side: Side, expected: String, found: String },
    #[error("record line {index}: expected a reply from {expected}, found {found}")]
    ReplyMismatch { index: usize, expected: String, found: String },
    #[error("the record ends before the game does")]
    Truncated,
}

/// Feeds the replies of `lines` to `referee` and checks that it says exactly
/// the recorded lines; returns the outcome the referee reaches.
pub fn replay(referee: &mut dyn Referee, lines: &[RecordLine]) -> Result<Outcome, ReplayError> {
    replay_steps(referee, lines, &mut |_, _| {})
}

/// [`replay`], calling `step` with the referee at the start (record index 0),
/// each time it has been given all the replies it asked for (with the index
/// of the last of them in `lines`), and once more at the end (with the last
/// index): the moments a viewer shows.
pub fn replay_steps(
    referee: &mut dyn Referee,
    lines: &[RecordLine],
    step: &mut dyn FnMut(usize, &dyn Referee),
) -> Result<Outcome, ReplayError> {
    step(0, referee);
    let mut rest = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| !matches!(l, RecordLine::Header(_) | RecordLine::Debug { .. }));
    fn expect_send(
        side: Side,
        text: &str,
        rest: &mut dyn Iterator<Item = (usize, &RecordLine)>,
    ) -> Result<(), ReplayError> {
        match rest.next() {
            Some((_, RecordLine::Send { side: s, line })) if *s == side && line == text => Ok(()),
            Some((index, other)) => Err(ReplayError::SendMismatch {
                index,
                side,
                expected: text.to_owned(),
                found: format!("{other:?}"),
            }),
            None => Err(ReplayError::Truncated),
        }
    }
    loop {
        match referee.next() {
            Action::Tell(told) => {
                for (side, text) in &told {
                    expect_send(*side, text, &mut rest)?;
                }
            }
            Action::Ask(requests) => {
                for request in &requests {
                    expect_send(request.side, &request.line, &mut rest)?;
                }
                let mut waiting: Vec<Side> = requests.iter().map(|r| r.side).collect();
                let mut last = 0;
                while !waiting.is_empty() {
                    let (index, line) = rest.next().ok_or(ReplayError::Truncated)?;
                    last = index;
                    let found = line.reply().filter(|(side, _)| waiting.contains(side));
                    let Some((side, reply)) = found else {
                        return Err(ReplayError::ReplyMismatch {
                            index,
                            expected: format!("{waiting:?}"),
                            found: format!("{line:?}"),
                        });
                    };
                    waiting.retain(|s| *s != side);
                    referee.answer(side, reply);
                }
                step(last, referee);
            }
            Action::Over(outcome) => {
                // The final position, with everything the last replies did.
                step(lines.len().saturating_sub(1), referee);
                return Ok(outcome);
            }
        }
    }
}
