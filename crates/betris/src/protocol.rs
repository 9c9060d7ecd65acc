//! The lines of the Betris protocol, both ways, as typed values.
//!
//! Fields are separated by ASCII whitespace (runs of it count as one, and
//! leading or trailing whitespace is ignored, as a `scanf`-reading judge
//! would); keywords and block names are case-sensitive.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::rules::{Bet, Block, MoveParseError, Offer, Placement};

/// `PHASE1 A B my_time opp_time`: the offer and both clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Phase1 {
    pub offer: Offer,
    pub my_time: u64,
    pub opp_time: u64,
}

/// `PHASE2 C my_chip opp_chip my_time opp_time`: the block won, the chips
/// after payment and both clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Phase2 {
    pub block: Block,
    pub my_chips: u32,
    pub opp_chips: u32,
    pub my_time: u64,
    pub opp_time: u64,
}

/// A line the judge writes to an agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JudgeLine {
    Ready,
    Phase1(Phase1),
    Phase2(Phase2),
    /// The opponent's placement, as it gave it.
    Opp(Placement),
    Finish,
}

/// A line an agent writes to the judge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentLine {
    Ok,
    Bet(Bet),
    Place(Placement),
}

/// A line that does not parse; its text is the RE reason.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ProtocolError {
    #[error("empty line")]
    Empty,
    #[error("unknown command `{0}`")]
    UnknownCommand(String),
    #[error("expected {expected}, found `{found}`")]
    Unexpected { expected: &'static str, found: String },
    #[error("{command} takes {expected} fields, found {found}")]
    FieldCount { command: &'static str, expected: usize, found: usize },
    #[error("{what} `{text}` is not a whole number")]
    BadNumber { what: &'static str, text: String },
    #[error("{0}")]
    Move(#[from] MoveParseError),
}

/// The keyword and the rest of the line.
fn split_command(line: &str) -> Result<(&str, &str), ProtocolError> {
    let line = line.trim_matches(|c: char| c.is_ascii_whitespace());
    if line.is_empty() {
        return Err(ProtocolError::Empty);
    }
    Ok(line.split_once(|c: char| c.is_ascii_whitespace()).unwrap_or((line, "")))
}

fn fields<'a>(
    command: &'static str,
    rest: &'a str,
    expected: usize,
) -> Result<Vec<&'a str>, ProtocolError> {
    let words: Vec<&str> = rest.split_ascii_whitespace().collect();
    if words.len() != expected {
        return Err(ProtocolError::FieldCount { command, expected, found: words.len() });
    }
    Ok(words)
}

fn number<T: FromStr>(what: &'static str, text: &str) -> Result<T, ProtocolError> {
    text.parse().map_err(|_| ProtocolError::BadNumber { what, text: text.to_owned() })
}

fn block(text: &str) -> Result<Block, ProtocolError> {
    text.parse().map_err(|e| ProtocolError::Move(MoveParseError::UnknownBlock(e)))
}

/// The reply to `PHASE1`: `BET C x`.
pub fn parse_bet(line: &str) -> Result<Bet, ProtocolError> {
    match split_command(line)? {
        ("BET", rest) => Ok(rest.parse()?),
        (found, _) => Err(ProtocolError::Unexpected { expected: "BET", found: found.to_owned() }),
    }
}

/// The reply to `PHASE2`: `PLACE k x1 y1 ... xk yk` or `PLACE 0`.
pub fn parse_place(line: &str) -> Result<Placement, ProtocolError> {
    match split_command(line)? {
        ("PLACE", rest) => Ok(rest.parse()?),
        (found, _) => Err(ProtocolError::Unexpected { expected: "PLACE", found: found.to_owned() }),
    }
}

impl FromStr for AgentLine {
    type Err = ProtocolError;
    fn from_str(line: &str) -> Result<AgentLine, ProtocolError> {
        match split_command(line)? {
            ("OK", rest) => fields("OK", rest, 0).map(|_| AgentLine::Ok),
            ("BET", rest) => Ok(AgentLine::Bet(rest.parse()?)),
            ("PLACE", rest) => Ok(AgentLine::Place(rest.parse()?)),
            (other, _) => Err(ProtocolError::UnknownCommand(other.to_owned())),
        }
    }
}

impl fmt::Display for AgentLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentLine::Ok => f.write_str("OK"),
            AgentLine::Bet(bet) => write!(f, "BET {bet}"),
            AgentLine::Place(placement) => write!(f, "PLACE {placement}"),
        }
    }
}

impl FromStr for JudgeLine {
    type Err = ProtocolError;
    fn from_str(line: &str) -> Result<JudgeLine, ProtocolError> {
        match split_command(line)? {
            ("READY", rest) => fields("READY", rest, 0).map(|_| JudgeLine::Ready),
            ("FINISH", rest) => fields("FINISH", rest, 0).map(|_| JudgeLine::Finish),
            ("PHASE1", rest) => {
                let w = fields("PHASE1", rest, 4)?;
                Ok(JudgeLine::Phase1(Phase1 {
                    offer: Offer { a: block(w[0])?, b: block(w[1])? },
                    my_time: number("my_time", w[2])?,
                    opp_time: number("opp_time", w[3])?,
                }))
            }
            ("PHASE2", rest) => {
                let w = fields("PHASE2", rest, 5)?;
                Ok(JudgeLine::Phase2(Phase2 {
                    block: block(w[0])?,
                    my_chips: number("my_chip", w[1])?,
                    opp_chips: number("opp_chip", w[2])?,
                    my_time: number("my_time", w[3])?,
                    opp_time: number("opp_time", w[4])?,
                }))
            }
            ("OPP", rest) => Ok(JudgeLine::Opp(rest.parse()?)),
            (other, _) => Err(ProtocolError::UnknownCommand(other.to_owned())),
        }
    }
}

impl fmt::Display for JudgeLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgeLine::Ready => f.write_str("READY"),
            JudgeLine::Phase1(p) => {
                write!(f, "PHASE1 {} {} {} {}", p.offer.a, p.offer.b, p.my_time, p.opp_time)
            }
            JudgeLine::Phase2(p) => write!(
                f,
                "PHASE2 {} {} {} {} {}",
                p.block, p.my_chips, p.opp_chips, p.my_time, p.opp_time
            ),
            JudgeLine::Opp(placement) => write!(f, "OPP {placement}"),
            JudgeLine::Finish => f.write_str("FINISH"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_statement_lines() {
        assert_eq!(
            "PHASE1 L3 X5 10000 9999".parse::<JudgeLine>(),
            Ok(JudgeLine::Phase1(Phase1 {
                offer: Offer { a: Block::L3, b: Block::X5 },
                my_time: 10000,
                opp_time: 9999
            }))
        );
        assert_eq!(parse_bet("BET X5 3"), Ok(Bet { block: Block::X5, chips: 3 }));
        assert_eq!(parse_place("PLACE 2 1 1 1 2").map(|p| p.cells), Ok(vec![(1, 1), (1, 2)]));
        assert_eq!(parse_place(" PLACE  0 "), Ok(Placement::PASS));
    }

    #[test]
    fn names_what_is_wrong() {
        let reason = |r: Result<_, ProtocolError>| r.map(|_: Bet| ()).unwrap_err().to_string();
        assert_eq!(reason(parse_bet("")), "empty line");
        assert_eq!(reason(parse_bet("OK")), "expected BET, found `OK`");
        assert_eq!(
            reason(parse_bet("BET L3")),
            "a bet is a block and a number of chips, found 1 fields"
        );
        assert_eq!(reason(parse_bet("BET Q7 1")), "`Q7` is not a block name");
        assert_eq!(reason(parse_bet("BET L3 -1")), "bet `-1` is not a whole number of chips");
        let place = |line| parse_place(line).unwrap_err().to_string();
        assert_eq!(place("PLACE"), "missing cell count");
        assert_eq!(place("PLACE two"), "cell count `two` is not a whole number");
        assert_eq!(place("PLACE 2 1 1 1"), "2 cells need 4 coordinates, found 3");
        assert_eq!(place("PLACE 1 a 1"), "coordinate `a` is not an integer");
        assert_eq!(
            "PHASE1 L3 X5 10".parse::<JudgeLine>().unwrap_err().to_string(),
            "PHASE1 takes 4 fields, found 3"
        );
        assert_eq!(
            "OK 1".parse::<AgentLine>().unwrap_err().to_string(),
            "OK takes 0 fields, found 1"
        );
    }
}
