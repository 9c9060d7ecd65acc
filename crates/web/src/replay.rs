//! A record as a viewer sees it: the record's lines, and the moments of the
//! game drawn from the referee's own state.

use serde::Serialize;
use versus_core::{
    replay_steps, Action, Game, Header, Outcome, RecordLine, Referee, ReplayError, Reply, Side,
};

/// One moment of a game: the view after the replies up to record line `index`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Frame {
    pub index: usize,
    pub view: serde_json::Value,
}

/// A game ready to be shown.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Replay {
    pub header: Header,
    pub title: String,
    pub lines: Vec<RecordLine>,
    pub frames: Vec<Frame>,
    /// `None` while the game goes on (or if the record stops early).
    pub outcome: Option<Outcome>,
    /// Why the record could not be followed to its end, if it could not
    /// (also for a game still in progress).
    pub problem: Option<String>,
}

/// Why a record cannot be shown at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    #[error("the record is empty")]
    Empty,
    #[error("the record does not start with a header line")]
    NoHeader,
    #[error("unknown game {0:?}")]
    UnknownGame(String),
    #[error("the record is of {game} rules version {found}; this versus has version {supported}")]
    RulesVersion { game: String, found: String, supported: String },
    #[error("{0}")]
    Config(String),
}

/// The game and header of a record.
pub fn game_of(lines: &[RecordLine]) -> Result<(&'static dyn Game, &Header), ViewError> {
    let Some(first) = lines.first() else {
        return Err(ViewError::Empty);
    };
    let RecordLine::Header(header) = first else {
        return Err(ViewError::NoHeader);
    };
    let game = versus_games::find(&header.game)
        .ok_or_else(|| ViewError::UnknownGame(header.game.clone()))?;
    if header.rules_version != game.rules_version() {
        return Err(ViewError::RulesVersion {
            game: game.name().to_owned(),
            found: header.rules_version.clone(),
            supported: game.rules_version().to_owned(),
        });
    }
    Ok((game, header))
}

/// Follows a record through a fresh referee, keeping a frame at each moment.
/// A record that stops early (a game in progress) gives the frames so far.
pub fn replay(lines: Vec<RecordLine>) -> Result<Replay, ViewError> {
    let (game, header) = game_of(&lines)?;
    let header = header.clone();
    let mut referee = game.referee(&header.config).map_err(|e| ViewError::Config(e.to_string()))?;
    let mut frames = Vec::new();
    let result = replay_steps(referee.as_mut(), &lines, &mut |index, referee| {
        frames.push(Frame { index, view: referee.view() });
    });
    let (outcome, problem) = match result {
        Ok(outcome) => (Some(outcome), None),
        Err(ReplayError::Truncated) => (
            None,
            Some(
                "the record ends before the game does (a game in progress, or a file cut short)"
                    .into(),
            ),
        ),
        Err(error) => (None, Some(error.to_string())),
    };
    Ok(Replay { header, title: game.title().to_owned(), lines, frames, outcome, problem })
}

/// Whether `candidate`, sent by `side` as its reply to the request the record
/// ends with, would be accepted: `Err` with the referee's reason if it would
/// lose the game on the spot. The record must stop at a request to `side`.
pub fn check_reply(lines: &[RecordLine], side: Side, candidate: &str) -> Result<(), String> {
    let (game, header) = game_of(lines).map_err(|e| e.to_string())?;
    let mut referee = game.referee(&header.config).map_err(|e| e.to_string())?;
    let pending = position_at_end(referee.as_mut(), lines)?;
    if !pending.contains(&side) {
        return Err(format!("the {side} player is not being asked anything now"));
    }
    let reply = Reply::Line { text: candidate.to_owned(), elapsed: std::time::Duration::ZERO };
    referee.answer(side, reply);
    // A side asked at the same moment that has not answered yet is left
    // out of the verdict: only `side`'s own fault matters here.
    for other in pending.into_iter().filter(|s| *s != side) {
        referee.answer(other, Reply::Timeout);
    }
    loop {
        match referee.next() {
            Action::Tell(_) => {}
            Action::Ask(_) => return Ok(()),
            Action::Over(outcome) => {
                return match &outcome.faults[side] {
                    Some(fault) => Err(fault.to_string()),
                    None => Ok(()),
                }
            }
        }
    }
}

/// Drives `referee` through all of `lines` and returns the sides it is
/// still waiting for at the end.
fn position_at_end(referee: &mut dyn Referee, lines: &[RecordLine]) -> Result<Vec<Side>, String> {
    let mut replies = lines.iter().filter_map(RecordLine::reply).peekable();
    loop {
        match referee.next() {
            Action::Tell(_) => {}
            Action::Ask(requests) => {
                let mut waiting: Vec<Side> = requests.iter().map(|r| r.side).collect();
                while let Some((side, _)) = replies.peek() {
                    if !waiting.contains(side) {
                        return Err("the record does not follow the game".into());
                    }
                    let (side, reply) = replies.next().expect("peeked");
                    waiting.retain(|s| *s != side);
                    referee.answer(side, reply);
                    if waiting.is_empty() {
                        break;
                    }
                }
                if !waiting.is_empty() {
                    return Ok(waiting);
                }
            }
            Action::Over(_) => return Err("the game is over".into()),
        }
    }
}
