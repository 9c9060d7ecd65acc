//! One game between two endpoints, driven by a referee.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use crate::agent::ProtocolAgent;
use crate::record::RecordLine;
use crate::referee::{Action, Fault, Outcome, Referee, Reply};
use crate::side::{BySide, Side};

/// Something that takes protocol lines and gives replies: a child process,
/// an in-process agent, a human in a browser.
pub trait Endpoint {
    /// Writes one line (the newline is the endpoint's business). A failed
    /// write is not reported here: the next `receive` reports the dead
    /// conversation.
    fn send(&mut self, line: &str);
    /// The next line, waiting until `limit` after the end of the last `send`.
    fn receive(&mut self, limit: Duration) -> Reply;
    /// How late the judge was on the last `receive`: from a line's arrival
    /// (or, if it arrived earlier, from the start of the `receive` call) to
    /// its taking, or from the deadline to the wake-up that saw none. A line
    /// that waited while the judge was reading the other side of a
    /// simultaneous request is not lag. Large values mean the machine, not
    /// the agent, was slow.
    fn lag(&self) -> Duration {
        Duration::ZERO
    }
    /// The standard-error lines collected since the last call.
    fn debug_lines(&mut self) -> Vec<String> {
        Vec::new()
    }
    /// The game is over and `FINISH` was sent: let the agent go.
    fn close(&mut self) {}
    /// After `close`: how the agent's ending broke the rules, where the rules
    /// say how a program must end (NYPC's: exit status 0, in real time).
    fn exit_fault(&self) -> Option<Fault> {
        None
    }
}

/// Runs the game to its end. Every line sent and received is passed to
/// `record` as it happens, then the footer.
pub fn play(
    referee: &mut dyn Referee,
    mut endpoints: BySide<&mut dyn Endpoint>,
    record: &mut dyn FnMut(RecordLine),
) -> Outcome {
    let outcome = loop {
        match referee.next() {
            Action::Tell(lines) => {
                for (side, line) in lines {
                    endpoints[side].send(&line);
                    record(RecordLine::Send { side, line });
                }
            }
            Action::Ask(requests) => {
                for request in &requests {
                    endpoints[request.side].send(&request.line);
                    record(RecordLine::Send { side: request.side, line: request.line.clone() });
                }
                for request in requests {
                    let side = request.side;
                    let reply = endpoints[side].receive(request.limit);
                    for line in endpoints[side].debug_lines() {
                        record(RecordLine::Debug { side, line });
                    }
                    let lag = endpoints[side].lag();
                    record(RecordLine::from_reply(side, &reply, lag));
                    referee.answer(side, reply);
                }
            }
            Action::Over(outcome) => break outcome,
        }
    };
    let mut exit_faults = BySide::<Option<Fault>>::default();
    for side in Side::BOTH {
        endpoints[side].close();
        for line in endpoints[side].debug_lines() {
            record(RecordLine::Debug { side, line });
        }
        exit_faults[side] = endpoints[side].exit_fault();
    }
    let outcome = with_exit_faults(outcome, exit_faults);
    record(RecordLine::Footer { outcome: outcome.clone() });
    outcome
}

/// The outcome once the players' endings are judged. In a game played to
/// its end, a side that then ended badly is charged with that fault, as if
/// it had happened during the game (both: a draw). A game already ended by
/// a fault stands as it was.
fn with_exit_faults(outcome: Outcome, exit_faults: BySide<Option<Fault>>) -> Outcome {
    let faulted = |faults: &BySide<Option<Fault>>| Side::BOTH.iter().any(|&s| faults[s].is_some());
    if faulted(&outcome.faults) || !faulted(&exit_faults) {
        return outcome;
    }
    Outcome::from_faults(exit_faults, outcome.scores)
}

/// A built-in agent run in this process. Its reply is computed when the
/// request is sent and timed there; a line it gives unasked is queued and read
/// as its next reply, as the contest judges do with a program's output.
pub struct LocalEndpoint {
    agent: Box<dyn ProtocolAgent>,
    pending: VecDeque<(String, Duration)>,
    failure: Option<String>,
    /// What a reply is charged: real time, or (under the CPU clock) a count
    /// of the CPU time of the calling thread.
    meter: Option<fn() -> Duration>,
}

impl std::fmt::Debug for LocalEndpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalEndpoint").field("pending", &self.pending).finish_non_exhaustive()
    }
}

impl LocalEndpoint {
    pub fn new(agent: Box<dyn ProtocolAgent>) -> Self {
        LocalEndpoint { agent, pending: VecDeque::new(), failure: None, meter: None }
    }

    /// An agent charged by `meter`, a clock of the thread that runs it (its
    /// CPU time), instead of real time.
    pub fn metered(agent: Box<dyn ProtocolAgent>, meter: fn() -> Duration) -> Self {
        LocalEndpoint { meter: Some(meter), ..LocalEndpoint::new(agent) }
    }
}

impl Endpoint for LocalEndpoint {
    fn send(&mut self, line: &str) {
        if self.failure.is_some() {
            return;
        }
        let (start, cpu) = (Instant::now(), self.meter.map(|meter| meter()));
        let result = self.agent.respond(line);
        let elapsed = match (cpu, self.meter) {
            (Some(before), Some(meter)) => meter().saturating_sub(before),
            _ => start.elapsed(),
        };
        match result {
            Ok(Some(reply)) => self.pending.push_back((reply, elapsed)),
            Ok(None) => {}
            Err(error) => self.failure = Some(error.to_string()),
        }
    }

    fn receive(&mut self, _limit: Duration) -> Reply {
        match (self.pending.pop_front(), &self.failure) {
            (Some((text, elapsed)), _) => Reply::Line { text, elapsed },
            (None, Some(error)) => {
                Reply::Gone(Fault::Crash { detail: format!("agent failed: {error}") })
            }
            // An in-process agent that gives nothing would never answer.
            (None, None) => Reply::Timeout,
        }
    }
}
