//! `versus sprt` and `versus league`: runs kept in a SQLite store.

use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, ValueEnum};
use serde::Deserialize;
use versus_core::TimeControl;
use versus_judge::Language;
use versus_league::report::{
    harness_line, league_csv, league_json, league_table, sprt_line, sprt_report, sprt_summary,
};
use versus_league::runner::{run, Entrant, Plan, Schedule, Standing};
use versus_league::stats::{EloModel, Sprt};
use versus_league::store::{agent_hash, NewAgent, NewRun, RunId, RunKind, Store};

/// The options every run shares.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The store of runs and games: a SQLite file (created if missing), or
    /// a PostgreSQL database (postgres://USER@HOST/DB) whose games workers
    /// on any host play (`versus worker`).
    #[arg(long, default_value = "versus.sqlite")]
    db: PathBuf,
    /// Continue run N of the store where it stopped (its settings are stored;
    /// the game and agents given on the command line must be left out).
    #[arg(long, value_name = "N")]
    resume: Option<i64>,
    /// Games played at once (default: the number of CPUs).
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
    /// Each player's time for the whole game, in ms.
    #[arg(long, default_value_t = TimeControl::CONTEST.game_ms)]
    time_ms: u64,
    /// The time to answer READY, in ms.
    #[arg(long, default_value_t = TimeControl::CONTEST.ready_ms)]
    ready_ms: u64,
    #[command(flatten)]
    clock: crate::clock_args::ClockArgs,
    /// Pair K of every pairing is played with seed SEED + K.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Run command-line agents in the sandbox too (`src:` agents always are).
    #[arg(long)]
    sandbox: bool,
    /// The language of every `src:PATH` agent whose extension does not say it.
    #[arg(long, value_name = "LANG")]
    lang: Option<Language>,
    /// With --db postgres://...: command-line agents name paths that exist
    /// on every worker's host (otherwise they are refused; send sources as
    /// src:FILE instead).
    #[arg(long)]
    shared_path: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Model {
    Normalized,
    Logistic,
}

#[derive(Debug, Args)]
pub struct SprtArgs {
    /// The game (see `versus games`).
    game: Option<String>,
    /// The agent under test: `NAME=SPEC` or `SPEC` (`builtin:NAME` or a command line).
    test: Option<String>,
    /// The agent it is measured against.
    base: Option<String>,
    /// The Elo difference of H0.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    elo0: f64,
    /// The Elo difference of H1.
    #[arg(long, default_value_t = 5.0, allow_negative_numbers = true)]
    elo1: f64,
    /// The probability of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// The probability of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// The Elo model of elo0 and elo1.
    #[arg(long, value_enum, default_value_t = Model::Normalized)]
    model: Model,
    /// Stop after this many games without a decision.
    #[arg(long, default_value_t = 20_000)]
    max_games: u64,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Debug, Args)]
pub struct LeagueArgs {
    /// The game (see `versus games`).
    game: Option<String>,
    /// The agents: `NAME=SPEC` or `SPEC` (`builtin:NAME` or a command line).
    agents: Vec<String>,
    /// Agents from a TOML file: `[[agent]]` tables with `name`, `command` and
    /// optionally `cwd`.
    #[arg(long, value_name = "FILE")]
    agents_file: Option<PathBuf>,
    /// Play only the games of this agent (its name) against each other one.
    #[arg(long, value_name = "NAME")]
    gauntlet: Option<String>,
    /// Games per pairing (rounded up to whole pairs: each seed is played
    /// with both colours).
    #[arg(long, default_value_t = 20)]
    games: u64,
    /// Also write the table as CSV to this file.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Also write the table and crosstable as JSON to this file.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    #[command(flatten)]
    run: RunArgs,
}

/// `NAME=SPEC` or `SPEC`; a built-in agent is named after itself.
fn entrant(text: &str) -> Entrant {
    // A name has no `:` or `?`: `builtin:strong?tempo=400` is a spec whose
    // `=` sets a parameter.
    let is_name = |name: &str| {
        !name.is_empty() && !name.contains(|c: char| c.is_whitespace() || c == ':' || c == '?')
    };
    let (name, spec) = match text.split_once('=') {
        Some((name, spec)) if is_name(name) => (name.to_owned(), spec.to_owned()),
        _ => (text.strip_prefix("builtin:").unwrap_or(text).to_owned(), text.to_owned()),
    };
    Entrant { name, spec, cwd: None }
}

/// The entrant with `--lang` written into its spec, where it is a source.
fn with_lang(mut entrant: Entrant, lang: Option<Language>) -> Entrant {
    entrant.spec = crate::source_spec(&entrant.spec, lang);
    entrant
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AgentsFile {
    agent: Vec<AgentEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AgentEntry {
    name: String,
    command: String,
    cwd: Option<PathBuf>,
}

fn read_agents_file(path: &Path) -> Result<Vec<Entrant>> {
    let text =
        fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let file: AgentsFile = toml::from_str(&text)
        .with_context(|| format!("{} is not a valid agents file", path.display()))?;
    Ok(file
        .agent
        .into_iter()
        .map(|a| Entrant { name: a.name, spec: a.command, cwd: a.cwd })
        .collect())
}

fn check_entrants(entrants: &[Entrant]) -> Result<()> {
    for (i, entrant) in entrants.iter().enumerate() {
        if entrants[..i].iter().any(|e| e.name == entrant.name) {
            bail!("two agents are named {:?}: name them with NAME=SPEC", entrant.name);
        }
        if let Some(cwd) = &entrant.cwd {
            if !cwd.is_dir() {
                bail!("the working directory {} of {} does not exist", cwd.display(), entrant.name);
            }
        }
    }
    Ok(())
}

/// Schedules `plan` on the PostgreSQL queue (or follows `--resume`), plays
/// with `-j` local jobs (0: only schedules and reports; the workers play),
/// and shows `progress` until every game is in.
fn on_queue(
    args: &RunArgs,
    plan: Option<Plan>,
    sprt: bool,
    mut progress: impl FnMut(&crate::worker::Followed) -> String,
) -> Result<crate::worker::Followed> {
    if let Some(plan) = &plan {
        check_plan(plan)?;
    }
    let db = args.db.to_string_lossy();
    let jobs = args.jobs.unwrap_or_else(|| jobs(args));
    let mut line = ProgressLine::new();
    let followed =
        crate::worker::follow(&db, plan, args.resume, sprt, jobs, args.shared_path, &mut |f| {
            line.show(&progress(f));
        })?;
    line.done();
    Ok(followed)
}

/// A plan for the queue names a known game and sound entrants.
fn check_plan(plan: &Plan) -> Result<()> {
    if versus_games::find(&plan.game).is_none() {
        bail!("unknown game {:?} (the games are: {})", plan.game, versus_games::names());
    }
    check_entrants(&plan.entrants)
}

fn jobs(args: &RunArgs) -> usize {
    args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)).max(1)
}

/// Creates the run in the store, or loads the run to resume.
fn open_run(args: &RunArgs, kind: RunKind, plan: Option<Plan>) -> Result<(Store, RunId, Plan)> {
    if crate::worker::is_postgres(&args.db.to_string_lossy()) {
        bail!("internal: a PostgreSQL run reached the SQLite store");
    }
    let store = Store::open(&args.db)?;
    if let Some(id) = args.resume {
        let stored = store
            .run(RunId(id))
            .with_context(|| format!("no run {id} in {}", args.db.display()))?;
        if stored.kind != kind {
            bail!("run {id} is not a {} run", kind_name(kind));
        }
        let plan: Plan = serde_json::from_value(stored.settings)
            .with_context(|| format!("run {id} has settings this version cannot read"))?;
        return Ok((store, RunId(id), plan));
    }
    let plan = plan.expect("a new run has a plan");
    if versus_games::find(&plan.game).is_none() {
        bail!("unknown game {:?} (the games are: {})", plan.game, versus_games::names());
    }
    check_entrants(&plan.entrants)?;
    let version = env!("CARGO_PKG_VERSION");
    let agents = plan
        .entrants
        .iter()
        .map(|e| {
            let hash = agent_hash(&e.spec, e.cwd.as_deref(), version)
                .with_context(|| format!("cannot hash {}", e.spec))?;
            Ok(NewAgent { name: e.name.clone(), spec: e.spec.clone(), hash })
        })
        .collect::<Result<Vec<_>>>()?;
    let settings = serde_json::to_value(&plan)?;
    let id = store.create_run(&NewRun { kind, game: plan.game.clone(), settings, agents })?;
    Ok((store, id, plan))
}

fn kind_name(kind: RunKind) -> &'static str {
    match kind {
        RunKind::Sprt => "sprt",
        RunKind::League => "league",
    }
}

/// Progress on standard error: rewritten in place on a terminal, a line
/// every few seconds otherwise.
pub(crate) struct ProgressLine {
    terminal: bool,
    last: Option<Instant>,
    /// The latest text not yet written (off a terminal).
    unshown: Option<String>,
}

impl ProgressLine {
    pub(crate) fn new() -> Self {
        ProgressLine { terminal: io::stderr().is_terminal(), last: None, unshown: None }
    }

    pub(crate) fn show(&mut self, text: &str) {
        let mut err = io::stderr().lock();
        if self.terminal {
            let _ = write!(err, "\r\x1b[2K{text}");
        } else if self.last.is_none_or(|t| t.elapsed().as_secs() >= 5) {
            let _ = writeln!(err, "{text}");
            self.last = Some(Instant::now());
            self.unshown = None;
        } else {
            self.unshown = Some(text.to_owned());
        }
        let _ = err.flush();
    }

    pub(crate) fn done(&mut self) {
        if self.terminal {
            let _ = writeln!(io::stderr());
        } else if let Some(text) = self.unshown.take() {
            let _ = writeln!(io::stderr(), "{text}");
        }
    }
}

fn announce(id: RunId, args: &RunArgs, resumed: bool) {
    let verb = if resumed { "resuming" } else { "run" };
    eprintln!(
        "{verb} {} in {} (continue it with --resume {} --db {})",
        id.0,
        args.db.display(),
        id.0,
        args.db.display()
    );
}

pub fn sprt(args: &SprtArgs) -> Result<()> {
    let plan = match (&args.game, &args.test, &args.base, args.run.resume) {
        (Some(game), Some(test), Some(base), None) => {
            if !(args.alpha > 0.0 && args.alpha < 1.0 && args.beta > 0.0 && args.beta < 1.0) {
                bail!("--alpha and --beta must be between 0 and 1");
            }
            let model = match args.model {
                Model::Normalized => EloModel::Normalized,
                Model::Logistic => EloModel::Logistic,
            };
            Some(Plan {
                game: game.clone(),
                time: args
                    .run
                    .clock
                    .time(args.run.time_ms, args.run.ready_ms)
                    .map_err(|e| anyhow!(e))?,
                seed: args.run.seed,
                entrants: vec![
                    with_lang(entrant(test), args.run.lang),
                    with_lang(entrant(base), args.run.lang),
                ],
                schedule: Schedule::Sprt {
                    sprt: Sprt::new(args.elo0, args.elo1, args.alpha, args.beta, model),
                    max_pairs: args.max_games.div_ceil(2),
                },
                sandbox: args.run.sandbox,
            })
        }
        (None, None, None, Some(_)) => None,
        (_, _, _, Some(_)) => {
            bail!("--resume takes the game and agents from the store: leave them out")
        }
        _ => bail!("give the game, the agent under test and the base agent (or --resume N)"),
    };
    if crate::worker::is_postgres(&args.run.db.to_string_lossy()) {
        let followed = on_queue(&args.run, plan, true, |f| match &f.plan.schedule {
            Schedule::Sprt { sprt, .. } => sprt_line(&sprt_report(&f.standing, sprt), sprt),
            Schedule::League { .. } => crate::worker::progress_text(f),
        })?;
        let Schedule::Sprt { sprt, .. } = &followed.plan.schedule else {
            bail!("run {} is not an SPRT", followed.run.0);
        };
        let report = sprt_report(&followed.standing, sprt);
        let summary = sprt_summary(
            &report,
            sprt,
            &followed.standing.names,
            &harness_line(&followed.standing),
        );
        print!("{summary}");
        return crate::worker::conclude(followed, summary.lines().last().unwrap_or_default());
    }
    let (store, id, plan) = open_run(&args.run, RunKind::Sprt, plan)?;
    let Schedule::Sprt { sprt, .. } = plan.schedule else {
        bail!("run {} is not an SPRT", id.0);
    };
    announce(id, &args.run, args.run.resume.is_some());
    let mut line = ProgressLine::new();
    let stop = AtomicBool::new(false);
    let standing = run(&store, id, &plan, jobs(&args.run), &stop, &mut |standing| {
        line.show(&sprt_line(&sprt_report(standing, &sprt), &sprt));
    })?;
    line.done();
    let report = sprt_report(&standing, &sprt);
    let summary = sprt_summary(&report, &sprt, &standing.names, &harness_line(&standing));
    store.finish_run(id, summary.lines().last().unwrap_or_default())?;
    print!("{summary}");
    Ok(())
}

pub fn league(args: &LeagueArgs) -> Result<()> {
    let plan = if args.run.resume.is_some() {
        if args.game.is_some()
            || !args.agents.is_empty()
            || args.agents_file.is_some()
            || args.gauntlet.is_some()
        {
            bail!("--resume takes the game and agents from the store: leave them out");
        }
        None
    } else {
        let game = args
            .game
            .clone()
            .ok_or_else(|| anyhow!("give the game and its agents (or --resume N)"))?;
        let mut entrants: Vec<Entrant> = args.agents.iter().map(|a| entrant(a)).collect();
        if let Some(path) = &args.agents_file {
            entrants.extend(read_agents_file(path)?);
        }
        let entrants: Vec<Entrant> =
            entrants.into_iter().map(|e| with_lang(e, args.run.lang)).collect();
        if entrants.len() < 2 {
            bail!("a league needs at least two agents");
        }
        let gauntlet = match &args.gauntlet {
            Some(name) => Some(
                entrants
                    .iter()
                    .position(|e| e.name == *name)
                    .ok_or_else(|| anyhow!("--gauntlet {name:?} names no agent of the league"))?,
            ),
            None => None,
        };
        if args.games == 0 {
            bail!("--games must be at least 1");
        }
        Some(Plan {
            game,
            time: args
                .run
                .clock
                .time(args.run.time_ms, args.run.ready_ms)
                .map_err(|e| anyhow!(e))?,
            seed: args.run.seed,
            entrants,
            schedule: Schedule::League { pairs: args.games.div_ceil(2), gauntlet },
            sandbox: args.run.sandbox,
        })
    };
    if crate::worker::is_postgres(&args.run.db.to_string_lossy()) {
        let followed = on_queue(&args.run, plan, false, crate::worker::progress_text)?;
        let standing = followed.standing.clone();
        print!("{}", league_table(&standing));
        println!("{}", harness_line(&standing));
        crate::worker::conclude(followed, &format!("{} games", standing.games()))?;
        return write_outputs(args, &standing);
    }
    let (store, id, plan) = open_run(&args.run, RunKind::League, plan)?;
    announce(id, &args.run, args.run.resume.is_some());
    let total = plan.slots().len();
    let mut line = ProgressLine::new();
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let standing = run(&store, id, &plan, jobs(&args.run), &stop, &mut |standing: &Standing| {
        let rate = standing.games() as f64 / started.elapsed().as_secs_f64().max(1e-9);
        line.show(&format!("games {}/{total}  ({rate:.1} games/s this session)", standing.games()));
    })?;
    line.done();
    store.finish_run(id, &format!("{} games", standing.games()))?;
    print!("{}", league_table(&standing));
    write_outputs(args, &standing)
}

/// The --csv and --json files of a league.
fn write_outputs(args: &LeagueArgs, standing: &Standing) -> Result<()> {
    if let Some(path) = &args.csv {
        fs::write(path, league_csv(standing))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&league_json(standing))?;
        fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}
