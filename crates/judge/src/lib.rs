//! The judge: runs a game's referee against two agents, child processes or
//! built-in agents in this process, and writes the game record.
//!
//! It knows nothing of any game's rules: the referee decides what is said
//! and what the replies mean; the judge moves lines, measures time and
//! enforces limits (see [`ChildEndpoint`]).

mod child;
mod monitor;

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;
use versus_core::{
    play, BySide, ConfigError, Endpoint, Game, GameConfig, Header, LocalEndpoint, Outcome,
    RecordLine,
};

pub use child::{ChildEndpoint, ChildSpec, Limits};

/// One player of a game: a built-in agent or a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentSpec {
    /// `builtin:NAME`, run in this process.
    Builtin { name: String, seed: u64 },
    /// Any other text: a shell command line.
    Program(ChildSpec),
}

impl AgentSpec {
    /// Reads `builtin:NAME` or a command line; `seed` drives a built-in agent's randomness.
    #[must_use]
    pub fn parse(text: &str, cwd: Option<PathBuf>, seed: u64) -> AgentSpec {
        match text.strip_prefix("builtin:") {
            Some(name) => AgentSpec::Builtin { name: name.to_owned(), seed },
            None => AgentSpec::Program(ChildSpec { command: text.to_owned(), cwd }),
        }
    }

    /// How the record names the agent.
    #[must_use]
    pub fn label(&self) -> String {
        match self {
            AgentSpec::Builtin { name, .. } => format!("builtin:{name}"),
            AgentSpec::Program(spec) => spec.command.clone(),
        }
    }
}

/// A game that could not be started. Agents that misbehave do not cause
/// these: they lose the game with a verdict.
#[derive(Debug, Error)]
pub enum JudgeError {
    #[error("{game} has no built-in agent {name:?} (it has: {known})")]
    UnknownAgent { game: String, name: String, known: String },
    #[error("cannot start {command:?}: {source}")]
    Spawn { command: String, source: io::Error },
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("cannot write the record: {0}")]
    Record(#[from] io::Error),
}

fn endpoint(
    game: &dyn Game,
    spec: &AgentSpec,
    limits: &Limits,
) -> Result<Box<dyn Endpoint>, JudgeError> {
    match spec {
        AgentSpec::Builtin { name, seed } => match game.agent(name, *seed) {
            Some(agent) => Ok(Box::new(LocalEndpoint::new(agent))),
            None => Err(JudgeError::UnknownAgent {
                game: game.name().to_owned(),
                name: name.clone(),
                known: game.agent_names().join(", "),
            }),
        },
        AgentSpec::Program(child) => match ChildEndpoint::spawn(child, limits) {
            Ok(endpoint) => Ok(Box::new(endpoint)),
            Err(source) => Err(JudgeError::Spawn { command: child.command.clone(), source }),
        },
    }
}

/// The header of a game's record.
#[must_use]
pub fn header(game: &dyn Game, config: &GameConfig, agents: &BySide<AgentSpec>) -> Header {
    Header {
        game: game.name().to_owned(),
        rules_version: game.rules_version().to_owned(),
        config: config.clone(),
        agents: agents.as_ref().map(AgentSpec::label),
    }
}

/// Plays one game. `record` receives the header, then every line as it
/// happens, then the footer.
pub fn run_game(
    game: &dyn Game,
    config: &GameConfig,
    agents: &BySide<AgentSpec>,
    limits: &Limits,
    record: &mut dyn FnMut(RecordLine),
) -> Result<Outcome, JudgeError> {
    let mut referee = game.referee(config)?;
    let mut first = endpoint(game, &agents.first, limits)?;
    let mut second = endpoint(game, &agents.second, limits)?;
    record(RecordLine::Header(header(game, config, agents)));
    Ok(play(referee.as_mut(), BySide::new(first.as_mut(), second.as_mut()), record))
}

/// Writes a record as JSON lines, each flushed as it is written, so that a
/// judge killed mid-game leaves every line it had.
#[derive(Debug)]
pub struct RecordWriter {
    out: BufWriter<File>,
    error: Option<io::Error>,
}

impl RecordWriter {
    pub fn create(path: &Path) -> io::Result<RecordWriter> {
        Ok(RecordWriter { out: BufWriter::new(File::create(path)?), error: None })
    }

    /// Writes one line; the first failure is kept for [`RecordWriter::finish`].
    pub fn write(&mut self, line: &RecordLine) {
        if self.error.is_some() {
            return;
        }
        let result = serde_json::to_writer(&mut self.out, line)
            .map_err(io::Error::from)
            .and_then(|()| self.out.write_all(b"\n"))
            .and_then(|()| self.out.flush());
        if let Err(error) = result {
            self.error = Some(error);
        }
    }

    pub fn finish(mut self) -> io::Result<()> {
        match self.error.take() {
            Some(error) => Err(error),
            None => self.out.flush(),
        }
    }
}

/// Reads a record written by [`RecordWriter`]; the error names the bad line.
pub fn read_record(text: &str) -> Result<Vec<RecordLine>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| {
            serde_json::from_str(line).map_err(|e| format!("record line {}: {e}", index + 1))
        })
        .collect()
}
