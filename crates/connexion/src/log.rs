//! A game record written as the public testing tool's log.
//!
//! The layout, one item a line:
//!
//! ```text
//! [FIRST "COMMAND: <first agent's command>"]
//! [SECOND "COMMAND: <second agent's command>"]
//! [RESULT "1-0"]                       1-0, 0-1 or 1/2-1/2
//! INIT R1 G2 B3 Y4 R2 G1 B1 Y1 R3 G3   as sent to the first player: its five, then the second's
//! FIRST a1+ R1 B3 70                   a turn: mover, cell, tile, drawn tile (X0: none), charged ms
//! # Debug SECOND: <stderr line>        where it occurs among the turns
//! FINISH
//! SCOREFIRST 314
//! SCORESECOND 270
//! ABORT FIRST TLE                      only for a side that faulted
//! ```
//!
//! Decisions where the tool's layout is not known exactly: the `INIT` line
//! is the first player's view; turn lines come from the `OPP` lines the
//! judge sent (they carry everything a turn line needs), so a move that
//! faulted has none; debug lines appear in record order, including those
//! before `INIT` or after the last turn; `FINISH` and the scores are written
//! also when a fault ended the game, and `ABORT` lines come last, first
//! player first. The abort reason is the RE reason, `TLE` for a timeout on
//! a move and for no answer to `READY` in time, and the verdict's code
//! (`CRASH`, `FLOOD`, …) otherwise.

use std::fmt::Write as _;

use thiserror::Error;
use versus_core::{BySide, Fault, RecordLine, Side};

use crate::protocol::{Drawn, JudgeLine};

/// A record the log cannot be written from.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LogError {
    #[error("the record has no footer")]
    NoFooter,
    #[error("the judge line {0:?} sent to {1} does not parse")]
    BadLine(String, Side),
}

/// The abort reason the testing tool would print for `fault`.
#[must_use]
pub fn abort_reason(fault: &Fault) -> String {
    match fault {
        Fault::TimeLimit | Fault::Stall => "TLE".to_owned(),
        Fault::Runtime { reason, .. } => reason.clone(),
        other => other.code().to_owned(),
    }
}

/// The testing tool's log of the game in `record`, whose agents were run
/// with `commands`.
pub fn testing_tool_log(commands: BySide<&str>, record: &[RecordLine]) -> Result<String, LogError> {
    let outcome = record
        .iter()
        .rev()
        .find_map(|line| match line {
            RecordLine::Footer { outcome } => Some(outcome),
            _ => None,
        })
        .ok_or(LogError::NoFooter)?;
    let mut log = String::new();
    for side in Side::BOTH {
        let _ = writeln!(log, "[{} \"COMMAND: {}\"]", side.upper(), commands[side]);
    }
    let _ = writeln!(log, "[RESULT \"{}\"]", outcome.result.notation());
    for line in record {
        match line {
            RecordLine::Send { side, line } => {
                let judge_line = || {
                    line.parse::<JudgeLine>().map_err(|_| LogError::BadLine(line.clone(), *side))
                };
                if line.starts_with("INIT") && *side == Side::First {
                    let _ = writeln!(log, "{}", judge_line()?);
                } else if line.starts_with("OPP") {
                    if let JudgeLine::Opp { put, drawn, ms } = judge_line()? {
                        let mover = side.opponent().upper();
                        let _ = writeln!(log, "{mover} {put} {} {ms}", Drawn(drawn));
                    }
                }
            }
            RecordLine::Debug { side, line } => {
                let _ = writeln!(log, "# Debug {}: {line}", side.upper());
            }
            _ => {}
        }
    }
    log.push_str("FINISH\n");
    let _ = writeln!(log, "SCOREFIRST {}", outcome.scores.first as i64);
    let _ = writeln!(log, "SCORESECOND {}", outcome.scores.second as i64);
    for side in Side::BOTH {
        if let Some(fault) = &outcome.faults[side] {
            let _ = writeln!(log, "ABORT {} {}", side.upper(), abort_reason(fault));
        }
    }
    Ok(log)
}
