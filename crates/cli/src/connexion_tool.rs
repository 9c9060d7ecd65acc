//! `versus connexion-tool`: one game of Connexion with the command line of
//! the contest's public testing tool, writing the tool's log.
//!
//! Decisions where the tool's behaviour is not known exactly:
//!
//! - The config file: `KEY=VALUE` lines with the keys `INPUT`, `LOG`,
//!   `EXEC1`, `EXEC2`, `CWD1`, `CWD2`. Key and value are trimmed, the value
//!   is taken as it is (no quotes, no trailing comments, since a command line
//!   may hold `#`); a blank value leaves the key unset; a later line for the
//!   same key wins. Blank lines and lines starting with `#` are skipped; an
//!   unknown key or a line without `=` is an error naming the line. Paths are
//!   relative to the current directory, not to the config file.
//! - Flags override the config file.
//! - `-l` and `-s` combine: the same log goes to the file and to standard
//!   output. With neither, only the log's result lines (`[RESULT ...]`,
//!   `SCOREFIRST`, `SCORESECOND`, `ABORT ...`) are printed, so a run is never
//!   silent.
//! - Without an input file the bags are drawn from `--seed`; the seed also
//!   drives built-in agents. A seed chosen at random is printed on standard
//!   error (`versus: seed N`) when it matters (no input, or a built-in agent
//!   plays), keeping the log exactly in the tool's format.
//! - The log file is created before the game starts, so that a bad path fails
//!   at once, and written when the game is over.
//! - An agent's fault is part of the game (an `ABORT` line), not an error of
//!   the command: the exit status is 0 whenever the game was played.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use versus_core::{BySide, GameConfig, Side, TimeControl};
use versus_judge::AgentSpec;

/// The command line of `versus connexion-tool`.
#[derive(Debug, Args)]
pub struct ConnexionToolArgs {
    /// A file of KEY=VALUE lines (keys INPUT, LOG, EXEC1, EXEC2, CWD1, CWD2);
    /// flags override it.
    #[arg(short = 'c', long = "config", value_name = "CONFIG")]
    pub config: Option<PathBuf>,
    /// The input file: two lines of 32 tiles, the first and the second
    /// player's draw orders (seeded draws without it).
    #[arg(short = 'i', long = "input", value_name = "INPUT")]
    pub input: Option<PathBuf>,
    /// Write the testing tool's log to this file.
    #[arg(short = 'l', long = "log", value_name = "LOG")]
    pub log: Option<PathBuf>,
    /// Write the testing tool's log to standard output (also with -l).
    #[arg(short = 's', long = "stdio")]
    pub stdio: bool,
    /// The first player: a shell command line or `builtin:NAME`.
    #[arg(short = 'a', long = "exec1", value_name = "EXEC1")]
    pub exec1: Option<String>,
    /// The second player: a shell command line or `builtin:NAME`.
    #[arg(short = 'b', long = "exec2", value_name = "EXEC2")]
    pub exec2: Option<String>,
    /// The working directory of the first player's program.
    #[arg(long, value_name = "DIR")]
    pub cwd1: Option<PathBuf>,
    /// The working directory of the second player's program.
    #[arg(long, value_name = "DIR")]
    pub cwd2: Option<PathBuf>,
    /// The seed of the draws when there is no input file, and of built-in
    /// agents (random by default, printed on standard error).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Each player's time for the whole game, in ms.
    #[arg(long, default_value_t = TimeControl::CONTEST.game_ms)]
    pub time_ms: u64,
    /// The time to answer READY, in ms (not taken from the game time).
    #[arg(long, default_value_t = TimeControl::CONTEST.ready_ms)]
    pub ready_ms: u64,
    /// Also write the game record (JSON lines, for `versus replay`) to this file.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
}

/// What the config file and the flags name.
#[derive(Debug, Default, PartialEq, Eq)]
struct Settings {
    input: Option<PathBuf>,
    log: Option<PathBuf>,
    exec: BySide<Option<String>>,
    cwd: BySide<Option<PathBuf>>,
}

const KEYS: &str = "INPUT, LOG, EXEC1, EXEC2, CWD1, CWD2";

/// Reads a config file's text; errors name the line (1-based).
fn parse_config(text: &str) -> Result<Settings> {
    let mut settings = Settings::default();
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            bail!("line {number}: expected KEY=VALUE, found {line:?}");
        };
        let value = value.trim();
        let text = (!value.is_empty()).then(|| value.to_owned());
        let path = text.clone().map(PathBuf::from);
        match key.trim() {
            "INPUT" => settings.input = path,
            "LOG" => settings.log = path,
            "EXEC1" => settings.exec.first = text,
            "EXEC2" => settings.exec.second = text,
            "CWD1" => settings.cwd.first = path,
            "CWD2" => settings.cwd.second = path,
            other => bail!("line {number}: unknown key {other:?} (the keys are {KEYS})"),
        }
    }
    Ok(settings)
}

impl Settings {
    /// The config file's settings with the flags laid over them.
    fn from_args(args: &ConnexionToolArgs) -> Result<Settings> {
        let mut settings = match &args.config {
            Some(path) => {
                let text = fs::read_to_string(path)
                    .with_context(|| format!("cannot read the config file {}", path.display()))?;
                parse_config(&text)
                    .with_context(|| format!("the config file {}", path.display()))?
            }
            None => Settings::default(),
        };
        fn lay<T: Clone>(setting: &mut Option<T>, flag: &Option<T>) {
            if flag.is_some() {
                setting.clone_from(flag);
            }
        }
        lay(&mut settings.input, &args.input);
        lay(&mut settings.log, &args.log);
        lay(&mut settings.exec.first, &args.exec1);
        lay(&mut settings.exec.second, &args.exec2);
        lay(&mut settings.cwd.first, &args.cwd1);
        lay(&mut settings.cwd.second, &args.cwd2);
        Ok(settings)
    }
}

/// The flag and the config key that name `side`'s program and directory.
fn names(side: Side) -> (&'static str, &'static str, &'static str, &'static str) {
    match side {
        Side::First => ("-a", "EXEC1", "--cwd1", "CWD1"),
        Side::Second => ("-b", "EXEC2", "--cwd2", "CWD2"),
    }
}

fn agent_spec(settings: &Settings, side: Side, seed: u64) -> Result<AgentSpec> {
    let (exec_flag, exec_key, cwd_flag, cwd_key) = names(side);
    let Some(exec) = &settings.exec[side] else {
        bail!("no program for the {side} player: give {exec_flag} {exec_key} or {exec_key}= in the config file");
    };
    let cwd = settings.cwd[side].clone();
    let agent_seed = seed.wrapping_mul(2).wrapping_add(1 + side.index() as u64);
    let spec = AgentSpec::parse(exec, cwd.clone(), agent_seed);
    if let Some(dir) = &cwd {
        if matches!(spec, AgentSpec::Builtin { .. }) {
            bail!("{cwd_flag} ({cwd_key}) is for a program; the {side} player is a built-in agent");
        }
        if !dir.is_dir() {
            bail!(
                "the working directory {} of the {side} player ({cwd_key}) is not a directory",
                dir.display()
            );
        }
    }
    Ok(spec)
}

fn read_input(path: &Path) -> Result<String> {
    let text = fs::read_to_string(path)
        .with_context(|| format!("cannot read the input file {}", path.display()))?;
    versus_connexion::referee::parse_input(&text)
        .map_err(|e| anyhow!("the input file {}: {}", path.display(), e.0))?;
    Ok(text)
}

/// Plays one game as the testing tool would and writes its log.
pub fn run(args: &ConnexionToolArgs) -> Result<()> {
    let settings = Settings::from_args(args)?;
    let seed = args.seed.unwrap_or_else(|| {
        let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
        // The low bits of the clock are enough to vary games run by hand.
        (now.as_nanos() % 1_000_000_000) as u64
    });
    let agents = BySide::new(
        agent_spec(&settings, Side::First, seed)?,
        agent_spec(&settings, Side::Second, seed)?,
    );
    let input = settings.input.as_deref().map(read_input).transpose()?;
    let config = GameConfig { seed, time: TimeControl::new(args.time_ms, args.ready_ms), input };
    let mut log_file = match &settings.log {
        Some(path) => Some(
            File::create(path)
                .with_context(|| format!("cannot create the log file {}", path.display()))?,
        ),
        None => None,
    };
    let writer = crate::create_record(args.record.as_deref())?;
    let builtin = |spec: &AgentSpec| matches!(spec, AgentSpec::Builtin { .. });
    let seed_matters = config.input.is_none() || builtin(&agents.first) || builtin(&agents.second);
    if args.seed.is_none() && seed_matters {
        eprintln!("versus: seed {seed}");
    }
    let (_, lines) = crate::play_recorded(
        &versus_connexion::GAME,
        &config,
        &agents,
        &versus_judge::Limits::default(),
        writer,
    )?;
    let labels = agents.as_ref().map(AgentSpec::label);
    let log = versus_connexion::log::testing_tool_log(labels.as_ref().map(String::as_str), &lines)
        .context("cannot write the log")?;
    if let (Some(file), Some(path)) = (&mut log_file, &settings.log) {
        file.write_all(log.as_bytes())
            .and_then(|()| file.flush())
            .with_context(|| format!("cannot write the log file {}", path.display()))?;
    }
    let mut out = io::stdout().lock();
    if args.stdio {
        out.write_all(log.as_bytes())?;
    } else if settings.log.is_none() {
        for line in log.lines().filter(|line| {
            ["[RESULT ", "SCOREFIRST ", "SCORESECOND ", "ABORT "]
                .iter()
                .any(|start| line.starts_with(start))
        }) {
            writeln!(out, "{line}")?;
        }
    }
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_lines_set_keys_and_skip_comments() {
        let text =
            "# a comment\n\n INPUT = in.txt \nLOG=log.txt\r\nEXEC1=./a.out --x=1 # not a comment\n\
                    EXEC2=builtin:greedy\nCWD1=/tmp\nCWD2=\nEXEC2=python3 b.py\n";
        let settings = parse_config(text).unwrap();
        assert_eq!(settings.input, Some(PathBuf::from("in.txt")));
        assert_eq!(settings.log, Some(PathBuf::from("log.txt")));
        assert_eq!(
            settings.exec,
            BySide::new(
                Some("./a.out --x=1 # not a comment".to_owned()),
                Some("python3 b.py".to_owned())
            )
        );
        assert_eq!(settings.cwd, BySide::new(Some(PathBuf::from("/tmp")), None));
    }

    #[test]
    fn config_errors_name_the_line() {
        let error = |text: &str| format!("{:#}", parse_config(text).unwrap_err());
        assert_eq!(
            error("LOG=x\nEXEC3=y\n"),
            "line 2: unknown key \"EXEC3\" (the keys are INPUT, LOG, EXEC1, EXEC2, CWD1, CWD2)"
        );
        assert_eq!(
            error("\n\n  EXEC1 ./a.out\n"),
            "line 3: expected KEY=VALUE, found \"EXEC1 ./a.out\""
        );
        assert!(error("exec1=x").contains("unknown key \"exec1\""));
    }
}
