//! Protocol transcripts: a conversation written out by hand (from a
//! statement's example) and checked line by line against a referee.
//!
//! The format, one item a line, `#` starting a comment:
//!
//! ```text
//! > first READY FIRST          the judge writes "READY FIRST" to the first player
//! < first 0.4 OK               the first player replies "OK" 0.4 ms after the request
//! < second timeout             the second player gives no reply before the deadline
//! = 1-0 25 24.5                the game ends 1-0 with these scores
//! ! second TLE                 ... and the second player's verdict is TLE
//! ```
//!
//! Every judge line is compared with what the referee says, in order; every
//! reply is fed to it with its elapsed time. A side without a `!` line must
//! end without a fault.

use std::time::Duration;

use crate::record::{replay, RecordLine};
use crate::referee::{Outcome, Referee};
use crate::side::{BySide, Side};

/// A transcript read from text.
#[derive(Clone, Debug, PartialEq)]
pub struct Transcript {
    pub lines: Vec<RecordLine>,
    pub result: String,
    pub scores: Option<BySide<f64>>,
    pub faults: BySide<Option<String>>,
}

fn side(word: &str, number: usize) -> Result<Side, String> {
    match word {
        "first" => Ok(Side::First),
        "second" => Ok(Side::Second),
        _ => Err(format!("line {number}: expected `first` or `second`, found {word:?}")),
    }
}

impl Transcript {
    /// Reads a transcript; the error names the line that is wrong.
    pub fn parse(text: &str) -> Result<Transcript, String> {
        let mut lines = Vec::new();
        let mut result = None;
        let mut scores = None;
        let mut faults = BySide::default();
        for (index, raw) in text.lines().enumerate() {
            let number = index + 1;
            let raw = raw.trim_end();
            if raw.trim().is_empty() || raw.trim_start().starts_with('#') {
                continue;
            }
            let (mark, rest) = raw.split_at(1);
            let rest = rest.strip_prefix(' ').unwrap_or(rest);
            let (who, tail) = rest.split_once(' ').unwrap_or((rest, ""));
            match mark {
                ">" => lines.push(RecordLine::Send { side: side(who, number)?, line: tail.into() }),
                "<" => {
                    let side = side(who, number)?;
                    if tail == "timeout" {
                        lines.push(RecordLine::Timeout { side, lag_us: 0 });
                        continue;
                    }
                    let (ms, line) = tail.split_once(' ').unwrap_or((tail, ""));
                    let ms: f64 =
                        ms.parse().map_err(|_| format!("line {number}: bad elapsed ms {ms:?}"))?;
                    let elapsed_ns = Duration::from_secs_f64(ms / 1000.0).as_nanos() as u64;
                    lines.push(RecordLine::Recv { side, line: line.into(), elapsed_ns, lag_us: 0 });
                }
                "=" => {
                    let words: Vec<&str> = rest.split_whitespace().collect();
                    result = Some(words.first().copied().unwrap_or_default().to_owned());
                    if let [_, first, second] = words[..] {
                        let parse = |w: &str| {
                            w.parse::<f64>().map_err(|_| format!("line {number}: bad score {w:?}"))
                        };
                        scores = Some(BySide::new(parse(first)?, parse(second)?));
                    }
                }
                "!" => faults[side(who, number)?] = Some(tail.trim().to_owned()),
                _ => return Err(format!("line {number}: unknown mark {mark:?}")),
            }
        }
        let result = result.ok_or("the transcript has no `=` result line")?;
        Ok(Transcript { lines, result, scores, faults })
    }

    /// Replays the transcript through `referee`, panicking with the first
    /// difference.
    pub fn check(&self, referee: &mut dyn Referee) -> Outcome {
        let outcome = replay(referee, &self.lines).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(outcome.result.notation(), self.result, "result of {outcome:?}");
        if let Some(scores) = self.scores {
            assert_eq!(outcome.scores, scores, "scores");
        }
        for side in Side::BOTH {
            let code = outcome.faults[side].as_ref().map(|f| f.code().to_owned());
            assert_eq!(code, self.faults[side], "verdict of {side}: {:?}", outcome.faults[side]);
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_mark() {
        let t = Transcript::parse(
            "# a comment\n> first READY FIRST\n< first 0.5 OK\n< second timeout\n= 0-1 1 2.5\n! first TLE\n",
        )
        .unwrap();
        assert_eq!(t.lines.len(), 3);
        assert_eq!(
            t.lines[1],
            RecordLine::Recv {
                side: Side::First,
                line: "OK".into(),
                elapsed_ns: 500_000,
                lag_us: 0,
            }
        );
        assert_eq!(t.result, "0-1");
        assert_eq!(t.scores, Some(BySide::new(1.0, 2.5)));
        assert_eq!(t.faults.first.as_deref(), Some("TLE"));
    }

    #[test]
    fn rejects_bad_lines() {
        assert!(Transcript::parse("> third X\n= 1-0").unwrap_err().contains("line 1"));
        assert!(Transcript::parse("< first soon OK\n= 1-0").unwrap_err().contains("elapsed"));
        assert!(Transcript::parse("> first X").is_err());
    }
}
