//! The agents a server offers: each game's built-ins, and the agents its
//! operator registered when starting it (`versus serve --agent NAME=SPEC`).
//!
//! A request names an agent; it never gives a spec, a command or a path.
//! Only the server's own command line does, so whoever can reach the page
//! can run no program the operator did not list.

use std::fmt;
use std::path::{Path, PathBuf};

use thiserror::Error;
use versus_core::Game;
use versus_judge::{AgentSpec, ChildSpec, Language};

/// An agent registered when the server starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Registered {
    pub name: String,
    /// The one game it is offered in; every game when `None`.
    pub game: Option<String>,
    program: Program,
}

/// What a registered agent runs.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Program {
    /// Another name for a built-in agent.
    Builtin(String),
    /// A source file (its path absolute), built and run in the sandbox.
    Source { path: PathBuf, language: Option<String> },
    /// A command line, run from the server's working directory.
    Command(String),
}

/// Why the server cannot offer an agent it was given.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum RosterError {
    #[error("--agent {0:?} is not NAME=SPEC or GAME:NAME=SPEC")]
    Syntax(String),
    #[error(
        "agent name {0:?} may only have letters, digits, '-', '_' and '.' (at most 64 of them)"
    )]
    BadName(String),
    #[error("agent {name}: unknown game {game:?} (see `versus games`)")]
    UnknownGame { name: String, game: String },
    #[error("agent {name}: {game} already has an agent of that name")]
    Taken { name: String, game: String },
    #[error("agent {name}: the source {} does not exist or is not a file", path.display())]
    Missing { name: String, path: PathBuf },
    #[error(
        "agent {name}: cannot tell the language of {} from its extension \
         (write src:PATH?lang=LANG)", path.display()
    )]
    NoLanguage { name: String, path: PathBuf },
    #[error("agent {name}: {message}")]
    Language { name: String, message: String },
    #[error("agent {name}: no game has a built-in agent {builtin:?}")]
    NoBuiltin { name: String, builtin: String },
}

/// A request that names no agent of the game.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum NameError {
    #[error(
        "{0:?} is not an agent name: pick one of the server's agents \
         (programs are registered with `versus serve --agent NAME=SPEC`, never by a request)"
    )]
    NotAName(String),
    #[error("{game} has no agent {name:?} (it has: {known})")]
    Unknown { game: String, name: String, known: String },
    #[error(
        "{0} is a program: the page plays people against built-in agents only \
         (watch it play under Watch)"
    )]
    NotPlayable(String),
}

/// Whether `name` can name an agent: short, and nothing a spec or a path
/// needs (no `:`, `/`, space or `=`).
fn is_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && name != "."
        && name != ".."
}

impl Registered {
    /// Reads `NAME=SPEC` or `GAME:NAME=SPEC`; a relative `src:` path is
    /// taken from `cwd`. Checks the name and that a source exists.
    pub fn parse(text: &str, cwd: &Path) -> Result<Registered, RosterError> {
        let (left, spec) = text
            .split_once('=')
            .filter(|(_, spec)| !spec.trim().is_empty())
            .ok_or_else(|| RosterError::Syntax(text.to_owned()))?;
        let (game, name) = match left.split_once(':') {
            Some((game, name)) => (Some(game), name),
            None => (None, left),
        };
        if !is_name(name) {
            return Err(RosterError::BadName(name.to_owned()));
        }
        let name = name.to_owned();
        if let Some(game) = game {
            if versus_games::find(game).is_none() {
                return Err(RosterError::UnknownGame { name, game: game.to_owned() });
            }
        }
        let program = match AgentSpec::parse(spec.trim(), None, 0) {
            AgentSpec::Builtin { name: builtin, .. } => Program::Builtin(builtin),
            AgentSpec::Program(child) => Program::Command(child.command),
            AgentSpec::Source { path, language } => {
                let path = cwd.join(path);
                if !path.is_file() {
                    return Err(RosterError::Missing { name, path });
                }
                match &language {
                    Some(lang) => {
                        lang.parse::<Language>().map_err(|message| RosterError::Language {
                            name: name.clone(),
                            message,
                        })?;
                    }
                    None => {
                        if Language::from_path(&path).is_none() {
                            return Err(RosterError::NoLanguage { name, path });
                        }
                    }
                }
                Program::Source { path, language }
            }
        };
        Ok(Registered { name, game: game.map(str::to_owned), program })
    }

    /// Whether it runs in the sandbox (`commands`: command lines are isolated too).
    #[must_use]
    pub fn sandboxed(&self, commands: bool) -> bool {
        match self.program {
            Program::Builtin(_) => false,
            Program::Source { .. } => true,
            Program::Command(_) => commands,
        }
    }

    /// Whether it is offered in `game`.
    fn plays(&self, game: &dyn Game) -> bool {
        let scoped = self.game.as_deref().is_none_or(|g| g == game.name());
        let has = match &self.program {
            Program::Builtin(builtin) => game.agent_names().contains(&builtin.as_str()),
            _ => true,
        };
        scoped && has
    }

    /// The agent for one game, `seed` driving a built-in's randomness.
    fn spec(&self, seed: u64) -> AgentSpec {
        match &self.program {
            Program::Builtin(name) => AgentSpec::Builtin { name: name.clone(), seed },
            Program::Source { path, language } => {
                AgentSpec::Source { path: path.clone(), language: language.clone() }
            }
            Program::Command(command) => AgentSpec::Program(ChildSpec::new(command.clone(), None)),
        }
    }
}

impl fmt::Display for Registered {
    /// `NAME = SPEC (where)`, for the server's log.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let spec = self.spec(0).label();
        match &self.game {
            Some(game) => write!(f, "{} = {spec} (in {game})", self.name),
            None => write!(f, "{} = {spec} (in every game it can play)", self.name),
        }
    }
}

/// The server's agents beyond the built-ins.
#[derive(Clone, Debug, Default)]
pub struct Roster {
    registered: Vec<Registered>,
}

/// A name the page may pick, as `/api/kinds` lists it.
#[derive(Clone, Debug, serde::Serialize, PartialEq, Eq)]
pub struct Listed {
    pub name: String,
    /// Whether a person can play it in the browser (a built-in under
    /// another name); programs are only watched.
    pub playable: bool,
}

impl Roster {
    /// The roster of `--agent` arguments; see [`Registered::parse`]. Names
    /// must differ from each other and from the built-ins of every game
    /// they are offered in.
    pub fn parse<S: AsRef<str>>(texts: &[S], cwd: &Path) -> Result<Roster, RosterError> {
        let mut roster = Roster::default();
        for text in texts {
            let agent = Registered::parse(text.as_ref(), cwd)?;
            let games: Vec<&dyn Game> =
                versus_games::all().into_iter().filter(|g| agent.plays(*g)).collect();
            if let (Program::Builtin(builtin), true) = (&agent.program, games.is_empty()) {
                return Err(RosterError::NoBuiltin {
                    name: agent.name.clone(),
                    builtin: builtin.clone(),
                });
            }
            for game in games {
                let taken = game.agent_names().contains(&agent.name.as_str())
                    || roster.registered.iter().any(|r| r.name == agent.name && r.plays(game));
                if taken {
                    return Err(RosterError::Taken {
                        name: agent.name.clone(),
                        game: game.name().to_owned(),
                    });
                }
            }
            roster.registered.push(agent);
        }
        Ok(roster)
    }

    pub fn registered(&self) -> &[Registered] {
        &self.registered
    }

    /// The registered agents offered in `game`.
    pub fn listed(&self, game: &dyn Game) -> Vec<Listed> {
        self.registered
            .iter()
            .filter(|r| r.plays(game))
            .map(|r| Listed {
                name: r.name.clone(),
                playable: matches!(r.program, Program::Builtin(_)),
            })
            .collect()
    }

    /// The agent `name` names in `game`: a built-in, or a registered agent.
    pub fn spec(&self, game: &dyn Game, name: &str, seed: u64) -> Result<AgentSpec, NameError> {
        if !is_name(name) {
            return Err(NameError::NotAName(name.to_owned()));
        }
        if game.agent_names().contains(&name) {
            return Ok(AgentSpec::Builtin { name: name.to_owned(), seed });
        }
        match self.registered.iter().find(|r| r.name == name && r.plays(game)) {
            Some(agent) => Ok(agent.spec(seed)),
            None => {
                let mut known: Vec<String> =
                    game.agent_names().iter().map(|n| (*n).to_owned()).collect();
                known.extend(self.listed(game).into_iter().map(|l| l.name));
                Err(NameError::Unknown {
                    game: game.name().to_owned(),
                    name: name.to_owned(),
                    known: known.join(", "),
                })
            }
        }
    }

    /// The built-in agent a person plays when they pick `name` in `game`.
    pub fn playable(&self, game: &dyn Game, name: &str) -> Result<String, NameError> {
        match self.spec(game, name, 0)? {
            AgentSpec::Builtin { name, .. } => Ok(name),
            _ => Err(NameError::NotPlayable(name.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder with two sources, removed when dropped.
    struct Dir(PathBuf);

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn dir(name: &str) -> Dir {
        let dir =
            std::env::temp_dir().join(format!("versus-web-roster-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("bot.py"), "print('OK')\n").unwrap();
        std::fs::write(dir.join("bot.txt"), "").unwrap();
        Dir(dir)
    }

    #[test]
    fn names_scopes_and_specs_are_read() {
        let dir = dir("read");
        let cwd = &dir.0;
        let roster = Roster::parse(
            &[
                "passer=src:bot.py",
                "domineering:echo=cat -",
                "lazy=builtin:random",
                "tool=src:bot.txt?lang=python",
            ],
            cwd,
        )
        .unwrap();
        let domineering = versus_games::find("domineering").unwrap();
        let connexion = versus_games::find("connexion").unwrap();
        let names = |game| -> Vec<String> {
            roster.listed(game).into_iter().map(|l| l.name).collect::<Vec<_>>()
        };
        assert_eq!(names(domineering), ["passer", "echo", "lazy", "tool"]);
        assert_eq!(names(connexion), ["passer", "lazy", "tool"]);
        assert_eq!(
            roster.spec(domineering, "passer", 1).unwrap(),
            AgentSpec::Source { path: cwd.join("bot.py"), language: None }
        );
        assert_eq!(
            roster.spec(domineering, "lazy", 7).unwrap(),
            AgentSpec::Builtin { name: "random".into(), seed: 7 }
        );
        assert_eq!(roster.playable(domineering, "lazy").unwrap(), "random");
        assert_eq!(roster.playable(domineering, "greedy").unwrap(), "greedy");
        assert!(matches!(roster.playable(domineering, "echo"), Err(NameError::NotPlayable(_))));
        assert!(matches!(roster.spec(connexion, "echo", 0), Err(NameError::Unknown { .. })));
    }

    #[test]
    fn what_cannot_be_offered_is_refused_with_the_reason() {
        let dir = dir("refused");
        let cwd = &dir.0;
        let refuse = |texts: &[&str]| Roster::parse(texts, cwd).unwrap_err();
        assert!(matches!(refuse(&["passer"]), RosterError::Syntax(_)));
        assert!(matches!(refuse(&["passer="]), RosterError::Syntax(_)));
        assert!(matches!(refuse(&["my bot=cat"]), RosterError::BadName(_)));
        assert!(matches!(refuse(&["chess:x=cat"]), RosterError::UnknownGame { .. }));
        assert!(matches!(refuse(&["greedy=cat"]), RosterError::Taken { .. }));
        assert!(matches!(refuse(&["x=cat", "domineering:x=cat"]), RosterError::Taken { .. }));
        assert!(matches!(refuse(&["x=src:nowhere.py"]), RosterError::Missing { .. }));
        assert!(matches!(refuse(&["x=src:bot.txt"]), RosterError::NoLanguage { .. }));
        assert!(matches!(refuse(&["x=src:bot.txt?lang=cobol"]), RosterError::Language { .. }));
        assert!(matches!(refuse(&["x=builtin:nobody"]), RosterError::NoBuiltin { .. }));
        // The same name in two different games is fine.
        Roster::parse(&["domineering:x=cat", "connexion:x=cat"], cwd).unwrap();
        let missing = refuse(&["x=src:nowhere.py"]).to_string();
        assert!(missing.contains(&cwd.join("nowhere.py").display().to_string()), "{missing}");
    }

    #[test]
    fn specs_and_paths_are_not_names() {
        let roster = Roster::default();
        let game = versus_games::find("domineering").unwrap();
        for text in ["src:/etc/passwd", "builtin:greedy", "/bin/sh", "cat /etc/passwd", "", ".."] {
            assert!(matches!(roster.spec(game, text, 0), Err(NameError::NotAName(_))), "{text}");
        }
    }
}
