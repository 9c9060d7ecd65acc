//! Every protocol line of Connexion, both directions, as typed values.
//!
//! Words are separated by ASCII whitespace (runs of it count as one
//! separator). A drawn tile is written `X0` when the bag was empty.
//!
//! The errors for agent lines are the public testing tool's abort reasons,
//! word for word (so they are upper case): `PUT PARSE FAILED` when the line
//! is not `PUT` followed by exactly two words, `CELL PARSE FAILED` when the
//! first names no existing cell, `TILE PARSE FAILED` when the second names no
//! tile.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;
use versus_core::Side;

use crate::rules::{Cell, Move, Tile, HAND_SIZE};

/// The word for "no tile was drawn".
pub const NO_DRAW: &str = "X0";

/// A drawn tile as written on the wire: the tile, or `X0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Drawn(pub Option<Tile>);

impl fmt::Display for Drawn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(tile) => write!(f, "{tile}"),
            None => f.write_str(NO_DRAW),
        }
    }
}

/// A line the judge writes to an agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JudgeLine {
    /// `READY FIRST|SECOND`, answered with `OK`.
    Ready(Side),
    /// `INIT A1..A5 B1..B5`: the agent's five tiles, then the opponent's.
    Init { own: [Tile; HAND_SIZE], opponent: [Tile; HAND_SIZE] },
    /// `TIME t_mine t_opp`: the remaining budgets; answered with `PUT`.
    Time { mine: u64, opponent: u64 },
    /// `GET T`: the tile the agent drew after its placement.
    Get(Option<Tile>),
    /// `OPP p T1 T2 t`: the opponent placed `T1` on `p`, drew `T2`, was
    /// charged `t` ms.
    Opp { put: Move, drawn: Option<Tile>, ms: u64 },
    /// `FINISH`: the game is over.
    Finish,
}

impl fmt::Display for JudgeLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgeLine::Ready(side) => write!(f, "READY {}", side.upper()),
            JudgeLine::Init { own, opponent } => {
                f.write_str("INIT")?;
                own.iter().chain(opponent).try_for_each(|tile| write!(f, " {tile}"))
            }
            JudgeLine::Time { mine, opponent } => write!(f, "TIME {mine} {opponent}"),
            JudgeLine::Get(drawn) => write!(f, "GET {}", Drawn(*drawn)),
            JudgeLine::Opp { put, drawn, ms } => {
                write!(f, "OPP {put} {} {ms}", Drawn(*drawn))
            }
            JudgeLine::Finish => f.write_str("FINISH"),
        }
    }
}

/// A judge line an agent cannot read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum JudgeLineError {
    #[error("unknown command in {0:?}")]
    Unknown(String),
    #[error("{command} takes {expected} words, found {found}")]
    Arity { command: &'static str, expected: usize, found: usize },
    #[error("not a side: {0:?}")]
    Side(String),
    #[error("not a cell: {0:?}")]
    Cell(String),
    #[error("not a tile: {0:?}")]
    Tile(String),
    #[error("not a number of ms: {0:?}")]
    Number(String),
}

fn tile(word: &str) -> Result<Tile, JudgeLineError> {
    word.parse().map_err(|_| JudgeLineError::Tile(word.to_owned()))
}

fn drawn(word: &str) -> Result<Option<Tile>, JudgeLineError> {
    if word == NO_DRAW {
        Ok(None)
    } else {
        tile(word).map(Some)
    }
}

fn number(word: &str) -> Result<u64, JudgeLineError> {
    // `u64::from_str` accepts a leading `+`, which no judge writes.
    if !word.bytes().all(|b| b.is_ascii_digit()) {
        return Err(JudgeLineError::Number(word.to_owned()));
    }
    word.parse().map_err(|_| JudgeLineError::Number(word.to_owned()))
}

impl FromStr for JudgeLine {
    type Err = JudgeLineError;

    fn from_str(line: &str) -> Result<JudgeLine, JudgeLineError> {
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return Err(JudgeLineError::Unknown(line.to_owned()));
        };
        let (command, expected): (&'static str, usize) = match command {
            "READY" => ("READY", 1),
            "INIT" => ("INIT", 2 * HAND_SIZE),
            "TIME" => ("TIME", 2),
            "GET" => ("GET", 1),
            "OPP" => ("OPP", 4),
            "FINISH" => ("FINISH", 0),
            _ => return Err(JudgeLineError::Unknown(line.to_owned())),
        };
        if args.len() != expected {
            return Err(JudgeLineError::Arity { command, expected, found: args.len() });
        }
        Ok(match command {
            "READY" => JudgeLine::Ready(match args[0] {
                "FIRST" => Side::First,
                "SECOND" => Side::Second,
                other => return Err(JudgeLineError::Side(other.to_owned())),
            }),
            "INIT" => {
                let mut tiles = [None; 2 * HAND_SIZE];
                for (slot, word) in tiles.iter_mut().zip(args) {
                    *slot = Some(tile(word)?);
                }
                let tiles = tiles.map(|t| t.expect("every slot filled"));
                JudgeLine::Init {
                    own: std::array::from_fn(|i| tiles[i]),
                    opponent: std::array::from_fn(|i| tiles[HAND_SIZE + i]),
                }
            }
            "TIME" => JudgeLine::Time { mine: number(args[0])?, opponent: number(args[1])? },
            "GET" => JudgeLine::Get(drawn(args[0])?),
            "OPP" => JudgeLine::Opp {
                put: Move {
                    cell: args[0]
                        .parse::<Cell>()
                        .map_err(|_| JudgeLineError::Cell(args[0].to_owned()))?,
                    tile: tile(args[1])?,
                },
                drawn: drawn(args[2])?,
                ms: number(args[3])?,
            },
            _ => JudgeLine::Finish,
        })
    }
}

/// A line an agent writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentLine {
    /// `OK`, the answer to `READY`.
    Ok,
    /// `PUT p T`, the answer to `TIME`.
    Put(Move),
}

impl fmt::Display for AgentLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentLine::Ok => f.write_str("OK"),
            AgentLine::Put(mv) => write!(f, "PUT {mv}"),
        }
    }
}

/// A reply to `TIME` that is not a placement; the text is the public
/// testing tool's abort reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum PutError {
    #[error("PUT PARSE FAILED")]
    Shape,
    #[error("CELL PARSE FAILED")]
    Cell,
    #[error("TILE PARSE FAILED")]
    Tile,
}

/// Reads `PUT <cell> <tile>`.
pub fn parse_put(line: &str) -> Result<Move, PutError> {
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    let ["PUT", cell, tile] = words[..] else {
        return Err(PutError::Shape);
    };
    Ok(Move {
        cell: cell.parse().map_err(|_| PutError::Cell)?,
        tile: tile.parse().map_err(|_| PutError::Tile)?,
    })
}

/// Exactly `OK` (as the referee requires), or a `PUT` line; anything else
/// is a [`PutError`].
impl FromStr for AgentLine {
    type Err = PutError;

    fn from_str(line: &str) -> Result<AgentLine, PutError> {
        if line == "OK" {
            return Ok(AgentLine::Ok);
        }
        parse_put(line).map(AgentLine::Put)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judge_lines_of_the_statement() {
        let line: JudgeLine = "OPP a1+ R1 X0 70".parse().unwrap();
        assert_eq!(line, JudgeLine::Opp { put: "a1+ R1".parse().unwrap(), drawn: None, ms: 70 });
        assert_eq!(line.to_string(), "OPP a1+ R1 X0 70");
        let init = "INIT R1 R2 R3 R4 G1 Y1 Y2 Y3 Y4 B1";
        assert_eq!(init.parse::<JudgeLine>().unwrap().to_string(), init);
        assert_eq!(
            "TIME 10000 9930".parse(),
            Ok(JudgeLine::Time { mine: 10_000, opponent: 9_930 })
        );
    }

    #[test]
    fn bad_judge_lines() {
        assert!(matches!(
            "TIME 1".parse::<JudgeLine>(),
            Err(JudgeLineError::Arity { found: 1, .. })
        ));
        assert!(matches!("TIME +1 2".parse::<JudgeLine>(), Err(JudgeLineError::Number(_))));
        assert!(matches!("GET Z9".parse::<JudgeLine>(), Err(JudgeLineError::Tile(_))));
        assert!(matches!("READY THIRD".parse::<JudgeLine>(), Err(JudgeLineError::Side(_))));
        assert!(matches!("OPP a1- R1 R2 3".parse::<JudgeLine>(), Err(JudgeLineError::Cell(_))));
        assert!(matches!("".parse::<JudgeLine>(), Err(JudgeLineError::Unknown(_))));
    }

    #[test]
    fn put_errors_are_the_testing_tool_reasons() {
        assert_eq!(parse_put("PUT a1+ R1"), Ok("a1+ R1".parse::<Move>().unwrap()));
        let reason = |line: &str| parse_put(line).unwrap_err().to_string();
        assert_eq!(reason("PUT a1+"), "PUT PARSE FAILED");
        assert_eq!(reason("PUT a1+ R1 R2"), "PUT PARSE FAILED");
        assert_eq!(reason("put a1+ R1"), "PUT PARSE FAILED");
        assert_eq!(reason(""), "PUT PARSE FAILED");
        assert_eq!(reason("PUT a1- R1"), "CELL PARSE FAILED");
        assert_eq!(reason("PUT a1+ R5"), "TILE PARSE FAILED");
        assert_eq!(reason("PUT z9 X0"), "CELL PARSE FAILED");
        assert_eq!(reason("PUT a1+ X0"), "TILE PARSE FAILED");
    }
}
