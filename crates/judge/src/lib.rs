//! The judge: runs a game's referee against two agents, child processes or
//! built-in agents in this process, and writes the game record.
//!
//! It knows nothing of any game's rules: the referee decides what is said
//! and what the replies mean; the judge moves lines, measures time and
//! enforces limits (see [`ChildEndpoint`]).

mod child;
mod monitor;
mod source;

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;
use versus_core::{
    play, BySide, ConfigError, Endpoint, Game, GameConfig, Header, LocalEndpoint, Outcome,
    ParamError, RecordLine, Side,
};

pub use child::{ChildEndpoint, ChildSpec, Limits, SandboxSettings};
pub use source::{split_data, FailedEndpoint};
pub use versus_sandbox::{BuildError, Language};

/// One player of a game: a built-in agent or a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentSpec {
    /// `builtin:NAME`, run in this process.
    Builtin { name: String, seed: u64 },
    /// Any other text: a shell command line.
    Program(ChildSpec),
    /// `src:PATH`: a source file, built in the sandbox (cached) and run
    /// there. The language comes from the extension unless given.
    Source { path: PathBuf, language: Option<String> },
}

impl AgentSpec {
    /// Reads `builtin:NAME` or a command line; `seed` drives a built-in agent's randomness.
    #[must_use]
    /// `src:PATH` names a source file (relative to `cwd` when given).
    pub fn parse(text: &str, cwd: Option<PathBuf>, seed: u64) -> AgentSpec {
        if let Some(name) = text.strip_prefix("builtin:") {
            return AgentSpec::Builtin { name: name.to_owned(), seed };
        }
        if let Some(rest) = text.strip_prefix("src:") {
            // `src:PATH?lang=LANG` names the language when the extension
            // does not; an unknown name is reported when the agent is built.
            let (path, language) = match rest.rsplit_once("?lang=") {
                Some((path, name)) => (path, Some(name)),
                None => (rest, None),
            };
            let path = match cwd {
                Some(cwd) => cwd.join(path),
                None => PathBuf::from(path),
            };
            return AgentSpec::Source { path, language: language.map(str::to_owned) };
        }
        AgentSpec::Program(ChildSpec::new(text, cwd))
    }

    /// How the record names the agent.
    #[must_use]
    pub fn label(&self) -> String {
        match self {
            AgentSpec::Builtin { name, .. } => format!("builtin:{name}"),
            AgentSpec::Program(spec) => spec.command.clone(),
            AgentSpec::Source { path, language: None } => format!("src:{}", path.display()),
            AgentSpec::Source { path, language: Some(language) } => {
                format!("src:{}?lang={language}", path.display())
            }
        }
    }
}

/// A game that could not be started. Agents that misbehave do not cause
/// these: they lose the game with a verdict.
#[derive(Debug, Error)]
pub enum JudgeError {
    #[error("{game} has no built-in agent {name:?} (it has: {known})")]
    UnknownAgent { game: String, name: String, known: String },
    // The source's message is part of this one: a caller that prints the
    // chain of causes would otherwise say it twice.
    #[error("cannot start {command:?}: {message}")]
    Spawn { command: String, message: String },
    #[error(transparent)]
    Build(#[from] BuildError),
    #[error("{0}")]
    Language(String),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Params(ParamError),
    #[error("cannot write the record: {0}")]
    Record(#[from] io::Error),
}

/// The endpoint that plays `spec` on `side` of `game` under `limits`: a
/// built-in agent in this process, or a program (built and sandboxed when it
/// is a source). The web page uses it to seat a person against a program.
pub fn endpoint(
    game: &dyn Game,
    spec: &AgentSpec,
    limits: &Limits,
    side: Side,
) -> Result<Box<dyn Endpoint>, JudgeError> {
    match spec {
        // `NAME?SETTINGS` sets the agent's declared parameters.
        AgentSpec::Builtin { name, seed } => match versus_core::builtin_agent(game, name, *seed) {
            Ok(agent) if limits.cpu_clock.is_some() => {
                Ok(Box::new(LocalEndpoint::metered(agent, thread_cpu_time)))
            }
            Ok(agent) => Ok(Box::new(LocalEndpoint::new(agent))),
            Err(ParamError::UnknownAgent { game, name, known }) => {
                Err(JudgeError::UnknownAgent { game, name, known })
            }
            Err(error) => Err(JudgeError::Params(error)),
        },
        AgentSpec::Program(child) => {
            let child = match (&child.isolation, limits.sandbox.commands) {
                (None, true) => source::isolate_command(child, limits, side),
                _ => child.clone(),
            };
            spawn(&child, limits)
        }
        AgentSpec::Source { path, language } => {
            let language = match language {
                Some(name) => Some(name.parse::<Language>().map_err(JudgeError::Language)?),
                None => None,
            };
            match source::prepare(path, language, limits, side) {
                Ok(child) => spawn(&child, limits),
                Err(BuildError::Compile { summary, log }) => {
                    Ok(Box::new(FailedEndpoint::compile_error(summary, &log, limits)))
                }
                Err(error) => Err(error.into()),
            }
        }
    }
}

/// The CPU time of the calling thread: what a built-in agent, which thinks
/// in the judge's thread, is charged under the CPU clock.
fn thread_cpu_time() -> std::time::Duration {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    std::time::Duration::new(
        u64::try_from(now.tv_sec).unwrap_or(0),
        u32::try_from(now.tv_nsec).unwrap_or(0),
    )
}

fn spawn(child: &ChildSpec, limits: &Limits) -> Result<Box<dyn Endpoint>, JudgeError> {
    match ChildEndpoint::spawn(child, limits) {
        Ok(endpoint) => Ok(Box::new(endpoint)),
        Err(source) => {
            Err(JudgeError::Spawn { command: child.command.clone(), message: source.to_string() })
        }
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
    let limits = &limits.for_time(&config.time);
    let mut first = endpoint(game, &agents.first, limits, Side::First)?;
    let mut second = endpoint(game, &agents.second, limits, Side::Second)?;
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
