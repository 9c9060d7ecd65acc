//! Every line of the conversation, in both directions, as typed values.
//!
//! Judge to agent: 8 value lines (`a1 .. a8`, row 1 first), `READY FIRST` or
//! `READY SECOND`, `TURN my_time opp_time`, `OPP x y time`, `FINISH`.
//! Agent to judge: `OK`, `MOVE x y` (`MOVE -1 -1` passes). Words are
//! separated by any ASCII whitespace, as a `scanf` reader would accept.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;
use versus_core::Side;

use crate::rules::{parse_int, Move, MAX_VALUE};

/// A line the judge writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JudgeLine {
    /// One row of cell values, column 1 first.
    Values([u8; 8]),
    Ready(Side),
    Turn {
        my_time: u64,
        opp_time: u64,
    },
    Opp {
        mv: Move,
        time: u64,
    },
    Finish,
}

/// A line an agent writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentLine {
    Ok,
    Move(Move),
}

/// A line that does not parse; its text is the RE reason in logs.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ProtocolError {
    #[error("empty line")]
    Empty,
    #[error("unknown command {0:?}")]
    UnknownCommand(String),
    #[error("{command} takes {expected} arguments, found {found}")]
    ArgumentCount { command: &'static str, expected: usize, found: usize },
    #[error("{what} is not an integer: {text:?}")]
    NotAnInteger { what: &'static str, text: String },
    #[error("{what} is out of range: {value}")]
    OutOfRange { what: &'static str, value: i64 },
    #[error("({x}, {y}) is neither a cell nor -1 -1")]
    NotACell { x: i64, y: i64 },
    #[error("READY takes FIRST or SECOND, found {0:?}")]
    ReadySide(String),
}

/// The command word and its arguments.
fn words(line: &str) -> Result<(&str, Vec<&str>), ProtocolError> {
    let mut words = line.split_ascii_whitespace();
    let command = words.next().ok_or(ProtocolError::Empty)?;
    Ok((command, words.collect()))
}

fn arguments<'a, const N: usize>(
    command: &'static str,
    args: &[&'a str],
) -> Result<[&'a str; N], ProtocolError> {
    args.try_into().map_err(|_| ProtocolError::ArgumentCount {
        command,
        expected: N,
        found: args.len(),
    })
}

fn integer(what: &'static str, text: &str) -> Result<i64, ProtocolError> {
    parse_int(text).ok_or_else(|| ProtocolError::NotAnInteger { what, text: text.to_owned() })
}

fn milliseconds(what: &'static str, text: &str) -> Result<u64, ProtocolError> {
    let value = integer(what, text)?;
    u64::try_from(value).map_err(|_| ProtocolError::OutOfRange { what, value })
}

fn coordinates(x: &str, y: &str) -> Result<Move, ProtocolError> {
    let x = integer("x", x)?;
    let y = integer("y", y)?;
    Move::from_coords(x, y).ok_or(ProtocolError::NotACell { x, y })
}

/// One value line: 8 integers in `0..=3`.
pub fn parse_values(line: &str) -> Result<[u8; 8], ProtocolError> {
    let cells: Vec<&str> = line.split_ascii_whitespace().collect();
    let cells: [&str; 8] = arguments("a value line", &cells)?;
    let mut row = [0; 8];
    for (value, text) in row.iter_mut().zip(cells) {
        let number = integer("a cell value", text)?;
        *value = u8::try_from(number)
            .ok()
            .filter(|v| *v <= MAX_VALUE)
            .ok_or(ProtocolError::OutOfRange { what: "a cell value", value: number })?;
    }
    Ok(row)
}

impl FromStr for JudgeLine {
    type Err = ProtocolError;

    fn from_str(line: &str) -> Result<JudgeLine, ProtocolError> {
        let (command, args) = words(line)?;
        match command {
            "READY" => match arguments("READY", &args)? {
                ["FIRST"] => Ok(JudgeLine::Ready(Side::First)),
                ["SECOND"] => Ok(JudgeLine::Ready(Side::Second)),
                [other] => Err(ProtocolError::ReadySide(other.to_owned())),
            },
            "TURN" => {
                let [mine, theirs] = arguments("TURN", &args)?;
                Ok(JudgeLine::Turn {
                    my_time: milliseconds("my_time", mine)?,
                    opp_time: milliseconds("opp_time", theirs)?,
                })
            }
            "OPP" => {
                let [x, y, time] = arguments("OPP", &args)?;
                Ok(JudgeLine::Opp { mv: coordinates(x, y)?, time: milliseconds("time", time)? })
            }
            "FINISH" => {
                arguments::<0>("FINISH", &args)?;
                Ok(JudgeLine::Finish)
            }
            _ if command.starts_with(|c: char| c.is_ascii_digit() || c == '-') => {
                parse_values(line).map(JudgeLine::Values)
            }
            _ => Err(ProtocolError::UnknownCommand(command.to_owned())),
        }
    }
}

impl fmt::Display for JudgeLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgeLine::Values(row) => {
                for (index, value) in row.iter().enumerate() {
                    let gap = if index == 0 { "" } else { " " };
                    write!(f, "{gap}{value}")?;
                }
                Ok(())
            }
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
        let (command, args) = words(line)?;
        match command {
            "OK" => {
                arguments::<0>("OK", &args)?;
                Ok(AgentLine::Ok)
            }
            "MOVE" => {
                let [x, y] = arguments("MOVE", &args)?;
                coordinates(x, y).map(AgentLine::Move)
            }
            _ => Err(ProtocolError::UnknownCommand(command.to_owned())),
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
    use crate::rules::Cell;

    #[test]
    fn judge_lines() {
        let cases = [
            ("0 1 2 3 3 2 1 0", JudgeLine::Values([0, 1, 2, 3, 3, 2, 1, 0])),
            ("READY FIRST", JudgeLine::Ready(Side::First)),
            ("READY SECOND", JudgeLine::Ready(Side::Second)),
            ("TURN 10000 9999", JudgeLine::Turn { my_time: 10_000, opp_time: 9_999 }),
            (
                "OPP 3 4 12",
                JudgeLine::Opp { mv: Move::Place(Cell::from_xy(3, 4).unwrap()), time: 12 },
            ),
            ("OPP -1 -1 1", JudgeLine::Opp { mv: Move::Pass, time: 1 }),
            ("FINISH", JudgeLine::Finish),
        ];
        for (text, line) in cases {
            assert_eq!(text.parse::<JudgeLine>(), Ok(line), "{text}");
            assert_eq!(line.to_string(), text);
        }
    }

    #[test]
    fn agent_lines() {
        assert_eq!("OK".parse::<AgentLine>(), Ok(AgentLine::Ok));
        assert_eq!(
            "MOVE 8 1\r".parse::<AgentLine>(),
            Ok(AgentLine::Move(Move::Place(Cell::from_xy(8, 1).unwrap())))
        );
        assert_eq!("MOVE -1 -1".parse::<AgentLine>(), Ok(AgentLine::Move(Move::Pass)));
    }

    #[test]
    fn errors_name_what_is_wrong() {
        let error = |line: &str| line.parse::<AgentLine>().unwrap_err().to_string();
        assert_eq!(error(""), "empty line");
        assert_eq!(error("PASS"), "unknown command \"PASS\"");
        assert_eq!(error("MOVE 1"), "MOVE takes 2 arguments, found 1");
        assert_eq!(error("MOVE 1 a"), "y is not an integer: \"a\"");
        assert_eq!(error("MOVE 0 3"), "(0, 3) is neither a cell nor -1 -1");
        assert_eq!(error("MOVE -1 3"), "(-1, 3) is neither a cell nor -1 -1");
        assert_eq!(error("OK 1"), "OK takes 0 arguments, found 1");
        let judge = |line: &str| line.parse::<JudgeLine>().unwrap_err().to_string();
        assert_eq!(judge("0 1 2 3 4 0 0 0"), "a cell value is out of range: 4");
        assert_eq!(judge("0 1 2"), "a value line takes 8 arguments, found 3");
        assert_eq!(judge("READY THIRD"), "READY takes FIRST or SECOND, found \"THIRD\"");
        assert_eq!(judge("TURN -5 3"), "my_time is out of range: -5");
    }
}
