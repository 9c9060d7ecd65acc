//! `versus tune` (SPSA through real games, kept in the store) and
//! `versus games --params` (the built-in agents' tunable parameters).

use std::fs;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;
use versus_core::TimeControl;
use versus_league::store::Store;
use versus_league::tune::{self, chart, parse_params, Iteration, TunePlan};

#[derive(Debug, Args)]
pub struct TuneArgs {
    /// The game (see `versus games`).
    game: Option<String>,
    /// The agent: `builtin:NAME` (its parameters: `versus games --params`) or
    /// a command line with a `{NAME}` placeholder for each parameter.
    #[arg(long, value_name = "SPEC")]
    agent: Option<String>,
    /// The parameters, one a line: `NAME, int|float, START, MIN, MAX, C_END, R_END`.
    #[arg(long, value_name = "FILE")]
    params: Option<PathBuf>,
    /// Games to play (two per iteration).
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Each player's time for the whole game, in ms.
    #[arg(long, default_value_t = TimeControl::CONTEST.game_ms)]
    time_ms: u64,
    /// The time to answer READY, in ms.
    #[arg(long, default_value_t = TimeControl::CONTEST.ready_ms)]
    ready_ms: u64,
    /// Iterations played at once (default: the number of CPUs).
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
    /// Iteration K plays on seed SEED + K and draws its signs from it.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The program's working directory.
    #[arg(long)]
    cwd: Option<PathBuf>,
    /// Run the command-line agent in the sandbox.
    #[arg(long)]
    sandbox: bool,
    /// The SQLite store of runs (created if missing).
    #[arg(long, default_value = "versus.sqlite")]
    db: PathBuf,
    /// Continue tuning run N of the store where it stopped.
    #[arg(long, value_name = "N", conflicts_with_all = ["game", "agent", "params", "show"])]
    resume: Option<i64>,
    /// Print tuning run N of the store (and write its chart with --svg).
    #[arg(long, value_name = "N", conflicts_with_all = ["game", "agent", "params"])]
    show: Option<i64>,
    /// With --show: write the chart of every parameter's trajectory to this file.
    #[arg(long, value_name = "OUT", requires = "show")]
    svg: Option<PathBuf>,
}

pub fn run(args: &TuneArgs) -> Result<()> {
    if let Some(id) = args.show {
        return show(args, id);
    }
    let (store, id, plan) = match args.resume {
        Some(id) => {
            let store = open_existing(args)?;
            let plan = tune::load_run(&store, id)?.plan;
            (store, id, plan)
        }
        None => {
            let plan = new_plan(args)?;
            // Everything is checked before the store is touched.
            plan.check(crate::find_game(&plan.game)?)?;
            let store = Store::open(&args.db)?;
            let id = tune::create_run(&store, &plan)?;
            (store, id, plan)
        }
    };
    let game = crate::find_game(&plan.game)?;
    let verb = if args.resume.is_some() { "resuming" } else { "tuning run" };
    eprintln!(
        "{verb} {id} in {} (continue it with --resume {id} --db {}): {} iterations, {} games",
        args.db.display(),
        args.db.display(),
        plan.iterations,
        2 * plan.iterations
    );
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .max(1);
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let mut session = 0u64;
    let mut line = crate::runs::ProgressLine::new();
    let theta = tune::run(&store, id, game, jobs, &stop, &mut |it: &Iteration| {
        session += 1;
        let rate = session as f64 / started.elapsed().as_secs_f64().max(1e-9);
        line.show(&format!(
            "iteration {}/{}  games {}  θ {}  ({rate:.2} iterations/s)",
            it.k + 1,
            plan.iterations,
            2 * (it.k + 1),
            values_text(&plan, &it.theta)
        ));
    })?;
    line.done();
    let done = tune::iterations(&store, id)?.len() as u64;
    let spec = plan.spec(&theta);
    if done == plan.iterations {
        tune::finish_run(&store, id, &spec)?;
    }
    print_result(&plan, id, done, &theta, &mut io::stdout().lock())?;
    Ok(())
}

fn open_existing(args: &TuneArgs) -> Result<Store> {
    if !args.db.exists() {
        bail!("the store {} does not exist", args.db.display());
    }
    Ok(Store::open(&args.db)?)
}

fn new_plan(args: &TuneArgs) -> Result<TunePlan> {
    let (Some(game), Some(agent), Some(file)) = (&args.game, &args.agent, &args.params) else {
        bail!("give the game, --agent SPEC and --params FILE (or --resume N, or --show N)");
    };
    if args.games < 2 {
        bail!("--games must be at least 2 (one iteration is a pair of games)");
    }
    if let Some(cwd) = &args.cwd {
        if !cwd.is_dir() {
            bail!("the working directory {} does not exist", cwd.display());
        }
    }
    let text =
        fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let params = parse_params(&text, &file.display().to_string())?;
    Ok(TunePlan {
        game: game.clone(),
        agent: agent.clone(),
        cwd: args.cwd.clone(),
        params,
        iterations: args.games / 2,
        time: TimeControl {
            game_ms: args.time_ms,
            ready_ms: args.ready_ms,
            ..TimeControl::CONTEST
        },
        seed: args.seed,
        sandbox: args.sandbox,
    })
}

fn values_text(plan: &TunePlan, theta: &[f64]) -> String {
    plan.params
        .iter()
        .zip(theta)
        .map(
            |(p, v)| {
                if p.integer {
                    format!("{}={v:.1}", p.name)
                } else {
                    format!("{}={v:.4}", p.name)
                }
            },
        )
        .collect::<Vec<_>>()
        .join(" ")
}

fn print_result(
    plan: &TunePlan,
    id: i64,
    done: u64,
    theta: &[f64],
    out: &mut dyn Write,
) -> Result<()> {
    let state = if done == plan.iterations { "finished" } else { "stopped" };
    writeln!(
        out,
        "tuning run {id} ({}, {}): {state} after {done} of {} iterations ({} games)",
        plan.game,
        plan.agent,
        plan.iterations,
        2 * done
    )?;
    writeln!(out, "{:<24} {:>12} {:>12} {:>12}  range", "parameter", "start", "now", "used")?;
    for (param, value) in plan.params.iter().zip(theta) {
        writeln!(
            out,
            "{:<24} {:>12} {:>12.4} {:>12}  [{}, {}]",
            param.name,
            param.start,
            value,
            param.used(*value),
            param.min,
            param.max
        )?;
    }
    writeln!(out, "the agent with these values:\n{}", plan.spec(theta))?;
    Ok(())
}

fn show(args: &TuneArgs, id: i64) -> Result<()> {
    let store = open_existing(args)?;
    let run = tune::load_run(&store, id)?;
    let iterations = tune::iterations(&store, id)?;
    let theta = iterations.last().map_or_else(|| run.plan.start(), |it| it.theta.clone());
    print_result(&run.plan, id, iterations.len() as u64, &theta, &mut io::stdout().lock())?;
    if let Some(path) = &args.svg {
        fs::write(path, chart::svg(&run.plan, &iterations))
            .with_context(|| format!("cannot write {}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// `versus games --params`: every built-in agent's tunable parameters.
pub fn print_params(out: &mut dyn Write) -> Result<()> {
    for game in versus_games::all() {
        for name in game.agent_names() {
            let params = game.params(name);
            if params.is_empty() {
                continue;
            }
            writeln!(out, "{} builtin:{name}", game.name())?;
            writeln!(
                out,
                "  {:<24} {:>8} {:>8} {:>8}  type   what",
                "parameter", "default", "min", "max"
            )?;
            for p in params {
                writeln!(
                    out,
                    "  {:<24} {:>8} {:>8} {:>8}  {:<5}  {}",
                    p.name,
                    p.default,
                    p.min,
                    p.max,
                    if p.integer { "int" } else { "float" },
                    p.about
                )?;
            }
        }
    }
    Ok(())
}
