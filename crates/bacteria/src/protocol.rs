//! The lines of the Bacteria War protocol, both directions, as typed values.
//!
//! Judge to agent: `READY FIRST|SECOND`, `TURN my_time opp_time`,
//! `OPP x1 y1 x2 y2 time`, `FINISH`. Agent to judge: `OK`, `MOVE x1 y1 x2 y2`.
//! Coordinates are (row, column), 1-based; a pass is `-1 -1 -1 -1`. Fields are
//! separated by ASCII whitespace (a run of it counts as one separator).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;
use versus_core::Side;

use crate::rules::Square;

/// A move as written on the wire: a division names a source too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WireMove {
    /// `-1 -1 -1 -1`.
    Pass,
    /// From `from` to `to`; whether that is legal is the rules' business.
    Cells { from: Square, to: Square },
}

impl fmt::Display for WireMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireMove::Pass => f.write_str("-1 -1 -1 -1"),
            WireMove::Cells { from, to } => {
                write!(f, "{} {} {} {}", from.row(), from.col(), to.row(), to.col())
            }
        }
    }
}

/// A line from the judge to an agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JudgeLine {
    Ready(Side),
    Turn { my_time: u64, opp_time: u64 },
    Opp { mv: WireMove, time: u64 },
    Finish,
}

/// A line from an agent to the judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AgentLine {
    Ok,
    Move(WireMove),
}

/// What is wrong with a line; its text is the RE reason in logs.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ProtocolError {
    #[error("empty line")]
    Empty,
    #[error("unknown command {0:?}")]
    UnknownCommand(String),
    #[error("{command} takes {expected} fields, found {found}")]
    FieldCount { command: &'static str, expected: usize, found: usize },
    #[error("not an integer: {0:?}")]
    NotANumber(String),
    #[error("coordinate {0} is off the board (expected 1..7, or -1 -1 -1 -1 to pass)")]
    OffBoard(i64),
    #[error("a pass is -1 -1 -1 -1, found {0}")]
    PartialPass(String),
    #[error("unknown side {0:?} (expected FIRST or SECOND)")]
    UnknownSide(String),
}

fn fields(command: &'static str, args: &[&str], expected: usize) -> Result<(), ProtocolError> {
    if args.len() == expected {
        Ok(())
    } else {
        Err(ProtocolError::FieldCount { command, expected, found: args.len() })
    }
}

fn integer(text: &str) -> Result<i64, ProtocolError> {
    // Only an optional minus and digits: `+1` or `1.0` are not what the judge sends.
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ProtocolError::NotANumber(text.to_owned()));
    }
    text.parse().map_err(|_| ProtocolError::NotANumber(text.to_owned()))
}

fn milliseconds(text: &str) -> Result<u64, ProtocolError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ProtocolError::NotANumber(text.to_owned()));
    }
    text.parse().map_err(|_| ProtocolError::NotANumber(text.to_owned()))
}

/// The four coordinates of a move.
fn wire_move(args: &[&str]) -> Result<WireMove, ProtocolError> {
    let numbers = args.iter().map(|a| integer(a)).collect::<Result<Vec<i64>, _>>()?;
    if numbers == [-1; 4] {
        return Ok(WireMove::Pass);
    }
    if numbers.contains(&-1) {
        return Err(ProtocolError::PartialPass(args.join(" ")));
    }
    let coordinate = |n: i64| {
        u8::try_from(n).ok().filter(|c| (1..=7).contains(c)).ok_or(ProtocolError::OffBoard(n))
    };
    let square = |row: i64, col: i64| -> Result<Square, ProtocolError> {
        let (row, col) = (coordinate(row)?, coordinate(col)?);
        Ok(Square::new(row, col).expect("both coordinates are in 1..7"))
    };
    Ok(WireMove::Cells {
        from: square(numbers[0], numbers[1])?,
        to: square(numbers[2], numbers[3])?,
    })
}

fn split(line: &str) -> Result<(&str, Vec<&str>), ProtocolError> {
    let mut words = line.split_ascii_whitespace();
    let command = words.next().ok_or(ProtocolError::Empty)?;
    Ok((command, words.collect()))
}

impl FromStr for JudgeLine {
    type Err = ProtocolError;

    fn from_str(line: &str) -> Result<JudgeLine, ProtocolError> {
        let (command, args) = split(line)?;
        match command {
            "READY" => {
                fields("READY", &args, 1)?;
                match args[0] {
                    "FIRST" => Ok(JudgeLine::Ready(Side::First)),
                    "SECOND" => Ok(JudgeLine::Ready(Side::Second)),
                    other => Err(ProtocolError::UnknownSide(other.to_owned())),
                }
            }
            "TURN" => {
                fields("TURN", &args, 2)?;
                Ok(JudgeLine::Turn {
                    my_time: milliseconds(args[0])?,
                    opp_time: milliseconds(args[1])?,
                })
            }
            "OPP" => {
                fields("OPP", &args, 5)?;
                Ok(JudgeLine::Opp { mv: wire_move(&args[..4])?, time: milliseconds(args[4])? })
            }
            "FINISH" => {
                fields("FINISH", &args, 0)?;
                Ok(JudgeLine::Finish)
            }
            other => Err(ProtocolError::UnknownCommand(other.to_owned())),
        }
    }
}

impl fmt::Display for JudgeLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgeLine::Ready(side) => write!(f, "READY {}", side.upper()),
            JudgeLine::Turn { my_time, opp_time } => write!(f, "TURN {my_time} {opp_time}"),
            JudgeLine::Opp { mv, time } => write!(f, "OPP {mv} {time}"),
            JudgeLine::Finish => f.write_str("FINISH"),
        }
    }
}

impl FromStr for AgentLine {
    type Err = ProtocolError;

    fn from_str(line: &str) -> Result<AgentLine, ProtocolError> {
        let (command, args) = split(line)?;
        match command {
            "OK" => {
                fields("OK", &args, 0)?;
                Ok(AgentLine::Ok)
            }
            "MOVE" => {
                fields("MOVE", &args, 4)?;
                Ok(AgentLine::Move(wire_move(&args)?))
            }
            other => Err(ProtocolError::UnknownCommand(other.to_owned())),
        }
    }
}

impl fmt::Display for AgentLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentLine::Ok => f.write_str("OK"),
            AgentLine::Move(mv) => write!(f, "MOVE {mv}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(row: u8, col: u8) -> Square {
        Square::new(row, col).unwrap()
    }

    #[test]
    fn parses_the_statement_lines() {
        assert_eq!("READY FIRST".parse(), Ok(JudgeLine::Ready(Side::First)));
        assert_eq!(
            "TURN 10000 9999".parse(),
            Ok(JudgeLine::Turn { my_time: 10_000, opp_time: 9_999 })
        );
        assert_eq!(
            "OPP 1 1 2 2 1".parse(),
            Ok(JudgeLine::Opp { mv: WireMove::Cells { from: sq(1, 1), to: sq(2, 2) }, time: 1 })
        );
        assert_eq!("OPP -1 -1 -1 -1 3".parse(), Ok(JudgeLine::Opp { mv: WireMove::Pass, time: 3 }));
        assert_eq!("FINISH".parse(), Ok(JudgeLine::Finish));
        assert_eq!(
            "MOVE 7 7 5 6".parse(),
            Ok(AgentLine::Move(WireMove::Cells { from: sq(7, 7), to: sq(5, 6) }))
        );
        assert_eq!("MOVE -1 -1 -1 -1".parse(), Ok(AgentLine::Move(WireMove::Pass)));
        assert_eq!("OK".parse(), Ok(AgentLine::Ok));
    }

    #[test]
    fn names_what_is_wrong() {
        let err = |line: &str| line.parse::<AgentLine>().unwrap_err().to_string();
        assert_eq!(err(""), "empty line");
        assert_eq!(err("PASS"), "unknown command \"PASS\"");
        assert_eq!(err("MOVE 1 1 2"), "MOVE takes 4 fields, found 3");
        assert_eq!(err("MOVE 1 1 2 x"), "not an integer: \"x\"");
        assert_eq!(err("MOVE 1 1 2 +2"), "not an integer: \"+2\"");
        assert_eq!(
            err("MOVE 1 1 2 8"),
            "coordinate 8 is off the board (expected 1..7, or -1 -1 -1 -1 to pass)"
        );
        assert_eq!(err("MOVE -1 -1 2 2"), "a pass is -1 -1 -1 -1, found -1 -1 2 2");
        assert_eq!(err("OK now"), "OK takes 0 fields, found 1");
        assert_eq!(
            "READY THIRD".parse::<JudgeLine>().unwrap_err().to_string(),
            "unknown side \"THIRD\" (expected FIRST or SECOND)"
        );
        assert!("TURN -5 10".parse::<JudgeLine>().is_err());
    }
}
