//! Built-in agents speak the same protocol lines as external programs.

use std::io::{self, BufRead, Write};

use thiserror::Error;

/// An agent that cannot go on: the judge's line made no sense to it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct AgentError(pub String);

impl AgentError {
    pub fn new(message: impl Into<String>) -> Self {
        AgentError(message.into())
    }
}

/// An agent as a function from judge lines to reply lines.
///
/// `respond` is called with every line the judge writes; it returns the reply
/// when the line is a request, and `None` otherwise (including for `FINISH`).
/// The same value runs in-process under the judge and as a stdin/stdout
/// program through [`run_stdio`].
pub trait ProtocolAgent: Send {
    fn respond(&mut self, line: &str) -> Result<Option<String>, AgentError>;
}

/// Runs `agent` on `input`/`output` until `FINISH` or end of input, flushing
/// each reply. Returns an error for a line the agent rejects or a failed write.
pub fn run_stdio(
    agent: &mut dyn ProtocolAgent,
    input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    for line in input.lines() {
        let line = line?;
        let line = line.trim_end_matches('\r');
        let reply =
            agent.respond(line).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        if let Some(reply) = reply {
            writeln!(output, "{reply}")?;
            output.flush()?;
        }
        if line == "FINISH" {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Echo;
    impl ProtocolAgent for Echo {
        fn respond(&mut self, line: &str) -> Result<Option<String>, AgentError> {
            match line {
                "FINISH" => Ok(None),
                "BAD" => Err(AgentError::new("bad line")),
                _ => Ok(Some(format!("ECHO {line}"))),
            }
        }
    }

    #[test]
    fn stdio_loop_stops_at_finish() {
        let mut out = Vec::new();
        run_stdio(&mut Echo, &b"A\r\nB\nFINISH\nC\n"[..], &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "ECHO A\nECHO B\n");
    }

    #[test]
    fn stdio_loop_reports_rejected_lines() {
        let err = run_stdio(&mut Echo, &b"BAD\n"[..], Vec::new()).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    }
}
