//! `versus`: play games between agent programs and built-in agents.

use std::fs;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use versus_core::{replay, BySide, Game, GameConfig, Outcome, RecordLine, Side, TimeControl};
use versus_judge::{
    read_record, run_game, AgentSpec, Language, Limits, RecordWriter, SandboxSettings,
};

mod clock_args;
mod connexion_tool;
mod contest;
mod doctor;
mod runs;
mod starters;
mod tune;
mod worker;

#[derive(Debug, Parser)]
#[command(name = "versus", version, about = "An arena for two-player game AIs")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the games and their built-in agents.
    Games {
        /// List the built-in agents' tunable parameters instead.
        #[arg(long)]
        params: bool,
    },
    /// Play one game; the first agent named plays first.
    Match(MatchArgs),
    /// Run a built-in agent on standard input and output, for any judge.
    Agent {
        /// The game, e.g. bacteria-war.
        game: String,
        /// The built-in agent, e.g. greedy, with any parameters set after
        /// `?` (`strong?tempo=400`; see `versus games --params`).
        name: String,
        /// The seed of the agent's own randomness.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Count Bacteria War move paths from a position (perft).
    Perft {
        /// Count up to this depth, printing every depth on the way.
        #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=12))]
        depth: u32,
        /// The position as rows 1..7 separated by `/` (`.` empty, `O` first,
        /// `X` second) and the side to move; the start position by default.
        #[arg(long)]
        position: Option<String>,
        /// Also print the count below each move at the last depth.
        #[arg(long)]
        divide: bool,
    },
    /// Test an agent against another with a sequential probability ratio test.
    Sprt(runs::SprtArgs),
    /// Play a round robin (or a gauntlet) and rate the agents.
    League(runs::LeagueArgs),
    /// Tune an agent's parameters by SPSA through games against itself.
    Tune(tune::TuneArgs),
    /// Re-simulate a game record and check that it reaches its recorded outcome.
    Replay {
        /// A record written by `versus match --record`.
        file: PathBuf,
        /// Also write the game as one HTML page that shows it move by move, offline.
        #[arg(long, value_name = "OUT")]
        html: Option<PathBuf>,
    },
    /// Serve the web page: replays, leagues, playing the built-in agents and
    /// watching the agents given with --agent.
    Serve {
        /// The store of leagues and SPRT runs to show: a SQLite file, or a
        /// PostgreSQL database (postgres://USER@HOST/DB) that workers fill.
        #[arg(long)]
        db: Option<PathBuf>,
        /// The port to listen on.
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The address to listen on (only this machine by default).
        #[arg(long, default_value = "127.0.0.1")]
        host: std::net::IpAddr,
        /// Offer one more agent on the page, next to the built-ins: `NAME=SPEC`
        /// in every game, `GAME:NAME=SPEC` in one; SPEC is `src:PATH`,
        /// `builtin:NAME` or a command line. Repeatable.
        #[arg(long = "agent", value_name = "[GAME:]NAME=SPEC")]
        agents: Vec<String>,
        /// Run command-line agents in the sandbox too (`src:` agents always are).
        #[arg(long)]
        sandbox: bool,
    },
    /// Play one game of Connexion with the public testing tool's flags and log.
    ConnexionTool(connexion_tool::ConnexionToolArgs),
    /// Write a starter bot for a game in a language of the judging environment.
    New {
        /// The game, e.g. domineering.
        game: String,
        /// c, cpp, python, pypy, rust, java, kotlin, go, javascript, typescript, lua,
        /// luajit or csharp (`versus doctor` lists them).
        #[arg(long, value_name = "LANG")]
        lang: Language,
        /// The folder to write it in (created; default: GAME-LANG).
        dir: Option<PathBuf>,
        /// Replace a starter file that is already there.
        #[arg(long)]
        force: bool,
    },
    /// Host an open contest: the web page with sign-up, submissions, Top
    /// Player and play, and the threads that compile and play the games.
    Host(contest::HostArgs),
    /// Manage the accounts of a contest's store.
    User {
        #[command(subcommand)]
        command: contest::UserCommand,
    },
    /// Send a source to a contest (`versus host`) with your API token.
    Submit(contest::SubmitArgs),
    /// Print a contest's leaderboard (Top Player) for a game.
    Leaderboard(contest::LeaderboardArgs),
    /// Show what this host offers the sandbox and the judging environment's toolchains.
    Doctor,
    /// Play games from a PostgreSQL queue (leagues scheduled with
    /// `versus league --db postgres://...`), on any host.
    Worker(worker::WorkerArgs),
    /// List the live workers of a PostgreSQL queue.
    Workers(worker::WorkersArgs),
}

#[derive(Debug, Args)]
struct MatchArgs {
    /// The game, e.g. bacteria-war (see `versus games`).
    game: String,
    /// The first player: `builtin:NAME`, `src:PATH` (a source, built and run
    /// in the sandbox) or a shell command line.
    first: String,
    /// The second player, as the first.
    second: String,
    /// The seed of every random choice of the judge (random by default; printed).
    #[arg(long)]
    seed: Option<u64>,
    /// Each player's time for the whole game, in ms.
    #[arg(long, default_value_t = TimeControl::CONTEST.game_ms)]
    time_ms: u64,
    /// The time to answer READY, in ms (not taken from the game time).
    #[arg(long, default_value_t = TimeControl::CONTEST.ready_ms)]
    ready_ms: u64,
    #[command(flatten)]
    clock: clock_args::ClockArgs,
    /// An explicit game input instead of seeded draws (Connexion: two lines of
    /// 32 tiles; Domineering: 8 lines of 8 cell values).
    #[arg(long)]
    input: Option<PathBuf>,
    /// Write the game record (JSON lines) to this file as the game goes.
    #[arg(long)]
    record: Option<PathBuf>,
    /// The working directory of the first player's program.
    #[arg(long)]
    cwd1: Option<PathBuf>,
    /// The working directory of the second player's program.
    #[arg(long)]
    cwd2: Option<PathBuf>,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
    /// The language of a `src:PATH` agent whose extension does not say it.
    #[arg(long, value_name = "LANG")]
    lang: Option<Language>,
    /// Run command-line agents in the sandbox too (`src:` agents always are).
    #[arg(long)]
    sandbox: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Games { params: false } => games(),
        Command::Games { params: true } => tune::print_params(&mut io::stdout().lock()),
        Command::Tune(args) => tune::run(&args),
        Command::Match(args) => play_match(&args),
        Command::Agent { game, name, seed } => agent(&game, &name, seed),
        Command::Perft { depth, position, divide } => perft(depth, position.as_deref(), divide),
        Command::Replay { file, html } => replay_file(&file, html.as_deref()),
        Command::Serve { db, port, host, agents, sandbox } => {
            serve(db.as_deref(), std::net::SocketAddr::new(host, port), &agents, sandbox)
        }
        Command::Sprt(args) => runs::sprt(&args),
        Command::League(args) => runs::league(&args),
        Command::ConnexionTool(args) => connexion_tool::run(&args),
        Command::New { game, lang, dir, force } => starters::write(&game, lang, dir, force),
        Command::Doctor => doctor(),
        Command::Host(args) => contest::host(&args),
        Command::User { command } => contest::user(&command),
        Command::Submit(args) => contest::submit(&args),
        Command::Leaderboard(args) => contest::leaderboard(&args),
        Command::Worker(args) => worker::run_worker(&args),
        Command::Workers(args) => worker::list_workers(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("versus: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// `src:PATH` with `?lang=LANG` added when a language is given and the
/// spec names none; any other spec as it is.
pub(crate) fn source_spec(spec: &str, lang: Option<Language>) -> String {
    match lang {
        Some(lang) if spec.starts_with("src:") && !spec.contains("?lang=") => {
            format!("{spec}?lang={}", lang.name())
        }
        _ => spec.to_owned(),
    }
}

fn doctor() -> Result<()> {
    let mut out = io::stdout().lock();
    let host = versus_sandbox::Host::get();
    writeln!(out, "{host}")?;
    if let Some(missing) = host.shortcomings() {
        writeln!(out, "missing:          {missing}")?;
    }
    writeln!(out, "build cache:      {}", versus_sandbox::Builder::default_cache().display())?;
    doctor::languages(&mut out)?;
    Ok(())
}

fn find_game(name: &str) -> Result<&'static dyn Game> {
    versus_games::find(name)
        .ok_or_else(|| anyhow!("unknown game {name:?} (the games are: {})", versus_games::names()))
}

fn games() -> Result<()> {
    let mut out = io::stdout().lock();
    for game in versus_games::all() {
        writeln!(
            out,
            "{:<14} {:<16} agents: {}",
            game.name(),
            game.title(),
            game.agent_names().join(", ")
        )?;
    }
    Ok(())
}

fn play_match(args: &MatchArgs) -> Result<()> {
    let game = find_game(&args.game)?;
    let seed = args.seed.unwrap_or_else(|| {
        let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
        // The low bits of the clock are enough to vary games run by hand.
        (now.as_nanos() as u64) % 1_000_000_000
    });
    let input = match &args.input {
        Some(path) => Some(
            fs::read_to_string(path)
                .with_context(|| format!("cannot read the input file {}", path.display()))?,
        ),
        None => None,
    };
    let config = GameConfig {
        seed,
        time: args.clock.time(args.time_ms, args.ready_ms).map_err(|e| anyhow!(e))?,
        input,
    };
    let agents = BySide::new(
        AgentSpec::parse(
            &source_spec(&args.first, args.lang),
            args.cwd1.clone(),
            seed.wrapping_mul(2).wrapping_add(1),
        ),
        AgentSpec::parse(
            &source_spec(&args.second, args.lang),
            args.cwd2.clone(),
            seed.wrapping_mul(2).wrapping_add(2),
        ),
    );
    let cwds = [(&agents.first, &args.cwd1, "--cwd1"), (&agents.second, &args.cwd2, "--cwd2")];
    for (spec, cwd, flag) in cwds {
        if matches!(spec, AgentSpec::Builtin { .. }) && cwd.is_some() {
            bail!("{flag} is for a program; a built-in agent has no working directory");
        }
    }
    let writer = create_record(args.record.as_deref())?;
    let limits = Limits {
        sandbox: SandboxSettings { commands: args.sandbox, ..SandboxSettings::default() },
        ..Limits::default()
    };
    let (outcome, lines) = play_recorded(game, &config, &agents, &limits, writer)?;
    let used = time_used(&lines);
    if args.json {
        let summary = serde_json::json!({
            "game": game.name(),
            "seed": seed,
            "agents": agents.as_ref().map(AgentSpec::label),
            "time_used_ms": used,
            "outcome": outcome,
        });
        println!("{summary}");
    } else {
        print_summary(game, seed, &config, &agents, &outcome, used)?;
    }
    Ok(())
}

/// Creates the record file, if one is asked for, before the game starts,
/// so that a bad path fails at once.
pub(crate) fn create_record(path: Option<&std::path::Path>) -> Result<Option<RecordWriter>> {
    path.map(|path| {
        RecordWriter::create(path)
            .with_context(|| format!("cannot create the record {}", path.display()))
    })
    .transpose()
}

/// Plays one game, writing each record line to `writer` as it happens, and
/// returns the outcome and the whole record.
pub(crate) fn play_recorded(
    game: &dyn Game,
    config: &GameConfig,
    agents: &BySide<AgentSpec>,
    limits: &Limits,
    mut writer: Option<RecordWriter>,
) -> Result<(Outcome, Vec<RecordLine>)> {
    let mut lines = Vec::new();
    let outcome = run_game(game, config, agents, limits, &mut |line| {
        if let Some(writer) = &mut writer {
            writer.write(&line);
        }
        lines.push(line);
    })?;
    if let Some(writer) = writer {
        writer.finish().context("cannot write the record")?;
    }
    Ok((outcome, lines))
}

/// The thinking time of each side: the sum of its reply times, in ms.
fn time_used(lines: &[RecordLine]) -> BySide<f64> {
    let mut used = BySide::new(0u64, 0u64);
    for line in lines {
        if let RecordLine::Recv { side, elapsed_ns, .. } = line {
            used[*side] += elapsed_ns;
        }
    }
    used.map(|ns| ns as f64 / 1e6)
}

fn print_summary(
    game: &dyn Game,
    seed: u64,
    config: &GameConfig,
    agents: &BySide<AgentSpec>,
    outcome: &Outcome,
    used: BySide<f64>,
) -> Result<()> {
    let mut out = io::stdout().lock();
    writeln!(out, "{}, seed {seed}, {} ms per player", game.title(), config.time.game_ms)?;
    for side in Side::BOTH {
        let verdict =
            outcome.faults[side].as_ref().map_or_else(|| "-".to_owned(), ToString::to_string);
        writeln!(
            out,
            "  {:<6}  {:<28}  score {:>6}  time {:>9.1} ms  {verdict}",
            side,
            agents[side].label(),
            outcome.scores[side],
            used[side],
        )?;
    }
    let winner = match outcome.result.winner() {
        Some(side) => format!("{side} player wins ({})", agents[side].label()),
        None => "draw".to_owned(),
    };
    writeln!(out, "result {}: {winner}", outcome.result)?;
    Ok(())
}

fn agent(game: &str, name: &str, seed: u64) -> Result<()> {
    let game = find_game(game)?;
    let mut agent = versus_core::builtin_agent(game, name, seed)?;
    versus_core::run_stdio(agent.as_mut(), io::stdin().lock(), io::stdout().lock())
        .context("the agent stopped")
}

fn perft(depth: u32, position: Option<&str>, divide: bool) -> Result<()> {
    use versus_bacteria::State;
    let state: State = match position {
        Some(text) => text.parse().map_err(|e| anyhow!("bad position {text:?}: {e}"))?,
        None => State::start(),
    };
    let mut out = io::stdout().lock();
    writeln!(out, "{:>5} {:>16} {:>10} {:>14}", "depth", "nodes", "seconds", "nodes/s")?;
    for d in 1..=depth {
        let start = Instant::now();
        let nodes = versus_bacteria::perft(&state, d);
        let seconds = start.elapsed().as_secs_f64();
        let rate = if seconds > 0.0 { nodes as f64 / seconds } else { f64::NAN };
        writeln!(out, "{d:>5} {nodes:>16} {seconds:>10.3} {rate:>14.0}")?;
        out.flush()?;
    }
    if divide {
        for (mv, nodes) in versus_bacteria::perft_divide(&state, depth) {
            writeln!(out, "{mv} {nodes}")?;
        }
    }
    Ok(())
}

fn serve(
    db: Option<&std::path::Path>,
    addr: std::net::SocketAddr,
    agents: &[String],
    sandbox: bool,
) -> Result<()> {
    if let Some(db) = db {
        // A PostgreSQL URL names a database the server checks; a path, a
        // file that should already hold a store.
        if !versus_sql::is_postgres(&db.to_string_lossy()) && !db.exists() {
            bail!(
                "the store {} does not exist (run a league or an SPRT with --db first)",
                db.display()
            );
        }
    }
    let cwd = std::env::current_dir().context("cannot read the working directory")?;
    let roster = versus_web::Roster::parse(agents, &cwd)?;
    let limits = Limits {
        sandbox: SandboxSettings { commands: sandbox, ..SandboxSettings::default() },
        ..Limits::default()
    };
    let runtime = tokio::runtime::Runtime::new().context("cannot start the server's runtime")?;
    for agent in roster.registered() {
        eprintln!("versus: offering {agent}");
    }
    if roster.registered().iter().any(|agent| agent.sandboxed(sandbox)) {
        if let Some(missing) = versus_sandbox::Host::get().shortcomings() {
            eprintln!("versus: warning: the sandbox is incomplete on this host: {missing}");
        }
    }
    eprintln!("versus: serving on http://{addr}/");
    runtime
        .block_on(versus_web::serve(db, addr, roster, limits))
        .with_context(|| format!("cannot serve on {addr}"))
}

fn replay_file(path: &PathBuf, html: Option<&std::path::Path>) -> Result<()> {
    let text =
        fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let lines = read_record(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let Some(RecordLine::Header(header)) = lines.first() else {
        bail!("{}: the record does not start with a header", path.display());
    };
    let game = find_game(&header.game)?;
    if header.rules_version != game.rules_version() {
        bail!(
            "the record is of {} rules version {}, this build has version {}",
            game.name(),
            header.rules_version,
            game.rules_version()
        );
    }
    let mut referee = game.referee(&header.config)?;
    let outcome =
        replay(referee.as_mut(), &lines).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    match lines.iter().rev().find_map(|l| match l {
        RecordLine::Footer { outcome } => Some(outcome),
        _ => None,
    }) {
        Some(recorded) if *recorded == outcome => {
            println!("{}: replays to the recorded outcome {}", path.display(), outcome.result);
            if let Some(out) = html {
                let replay = versus_web::replay::replay(lines).map_err(|e| anyhow!("{e}"))?;
                fs::write(out, versus_web::export_html(&replay))
                    .with_context(|| format!("cannot write {}", out.display()))?;
                println!("wrote {}", out.display());
            }
            Ok(())
        }
        Some(recorded) => bail!(
            "{}: replays to {} but the record says {}",
            path.display(),
            outcome.result,
            recorded.result
        ),
        None => bail!("{}: the record has no footer (the game did not finish)", path.display()),
    }
}
