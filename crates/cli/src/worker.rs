//! `versus worker`, `versus workers` and `versus league --db postgres://...`:
//! the PostgreSQL work queue (crate `versus-queue`) from the command line.

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Args;
use versus_league::report::{harness_line, league_table};
use versus_league::runner::Plan;
use versus_queue::worker::{self, WorkerOptions};
use versus_queue::{Queue, RunId};

/// Whether `--db` names a PostgreSQL database rather than a SQLite file.
pub fn is_postgres(db: &str) -> bool {
    versus_sql::is_postgres(db)
}

#[derive(Debug, Args)]
pub struct WorkerArgs {
    /// The queue: postgres://USER@HOST/DB (a password is best kept in
    /// ~/.pgpass or PGPASSWORD rather than in the URL).
    #[arg(long)]
    db: String,
    /// Games played at once (default: the number of CPUs).
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
    /// The worker's name in `versus workers` and reports (default HOST-PID).
    #[arg(long)]
    name: Option<String>,
    /// Seconds a lease lasts without a heartbeat: a dead worker's games go
    /// to others this long after it died. Heartbeats come every sixth of it.
    #[arg(long, default_value_t = 30.0)]
    lease_s: f64,
    /// Stop once no game of any run is waiting or being played.
    #[arg(long, conflicts_with = "contest")]
    exit_when_idle: bool,
    /// Play the games of the contest hosted on this database (`versus host
    /// --db URL`), with the host's time control and clock, instead of
    /// league and SPRT games.
    #[arg(long)]
    contest: bool,
    /// With --contest: where submissions' sources are written for the judge.
    #[arg(long, value_name = "DIR", default_value = "versus.sources", requires = "contest")]
    sources: std::path::PathBuf,
}

#[derive(Debug, Args)]
pub struct WorkersArgs {
    /// The queue: postgres://USER@HOST/DB.
    #[arg(long)]
    db: String,
    /// Live means a heartbeat within this many seconds.
    #[arg(long, default_value_t = 60.0)]
    within_s: f64,
}

fn seconds(value: f64, flag: &str) -> Result<Duration> {
    if !(value.is_finite() && value > 0.0 && value <= 86_400.0) {
        bail!("{flag} must be a number of seconds above 0 (and at most a day)");
    }
    Ok(Duration::from_secs_f64(value))
}

fn check_url(db: &str) -> Result<()> {
    if !is_postgres(db) {
        bail!("--db must be a PostgreSQL URL (postgres://USER@HOST/DB), not {db:?}");
    }
    Ok(())
}

pub fn run_worker(args: &WorkerArgs) -> Result<()> {
    check_url(&args.db)?;
    let lease = seconds(args.lease_s, "--lease-s")?;
    let mut options = WorkerOptions::new(&args.db);
    if let Some(jobs) = args.jobs {
        if jobs == 0 {
            bail!("-j must be at least 1 for a worker");
        }
        options.jobs = jobs;
    }
    if let Some(name) = &args.name {
        options.name = name.clone();
    }
    options.lease = lease;
    options.heartbeat = lease / 6;
    options.exit_when_idle = args.exit_when_idle;
    if args.contest {
        return contest_worker(args, &options);
    }
    eprintln!("worker {} ({} jobs) on {}", options.name, options.jobs, options.host);
    let stop = AtomicBool::new(false);
    let name = options.name.clone();
    let report = worker::run(&options, &stop, &|line| eprintln!("{name}: {line}"))
        .context("the worker stopped")?;
    eprintln!(
        "{name}: {} games counted, {} flagged for the harness, {} dropped (lease lost), \
         {} unplayable, {} reconnections",
        report.counted, report.flagged, report.lost, report.failed, report.reconnects
    );
    Ok(())
}

/// `versus worker --contest`: player threads that lease the contest's games
/// from its database, until stopped (Ctrl-C or a signal; their leases then
/// run out and the games go to other players).
fn contest_worker(args: &WorkerArgs, options: &WorkerOptions) -> Result<()> {
    use versus_contest::runner::{Config, Runner};
    let mut config = Config::with_sources(&args.db, args.sources.clone());
    config.players = options.jobs;
    config.worker.clone_from(&options.name);
    config.lease = options.lease;
    if let Some(missing) = versus_sandbox::Host::get().shortcomings() {
        eprintln!("versus: warning: the sandbox is incomplete on this host: {missing}");
    }
    let runner = Runner::start_players(config).context("cannot play the contest's games")?;
    eprintln!(
        "worker {} ({} jobs) on {}: playing the contest's games",
        options.name, options.jobs, options.host
    );
    // The players run until the process ends.
    loop {
        thread::sleep(Duration::from_secs(2));
        if runner.finished() {
            bail!("the contest's player threads stopped");
        }
    }
}

pub fn list_workers(args: &WorkersArgs) -> Result<()> {
    check_url(&args.db)?;
    let within = seconds(args.within_s, "--within-s")?;
    let mut queue = Queue::connect(&args.db).context("cannot open the queue")?;
    let rows = queue.live_workers(within)?;
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{:>5}  {:<24} {:<20} {:>5} {:>4} {:>9} {:>8} {:>10}",
        "id", "name", "host", "cores", "jobs", "in flight", "games", "heartbeat"
    )?;
    for row in &rows {
        writeln!(
            out,
            "{:>5}  {:<24} {:<20} {:>5} {:>4} {:>9} {:>8} {:>8.1} s",
            row.id.0,
            row.name,
            row.host,
            row.cores,
            row.jobs,
            row.in_flight,
            row.games,
            row.heartbeat_age_s
        )?;
    }
    if rows.is_empty() {
        writeln!(out, "(no live workers)")?;
    }
    Ok(())
}

/// `versus league --db postgres://...`: schedules the league (or follows run
/// `resume`), plays with `jobs` local threads as one more worker (none for
/// 0), and reports as results arrive until every game is in.
pub fn league(
    db: &str,
    plan: Option<Plan>,
    resume: Option<i64>,
    jobs: usize,
    shared_path: bool,
) -> Result<versus_league::runner::Standing> {
    let mut queue = Queue::connect(db).context("cannot open the queue")?;
    let run = match (plan, resume) {
        (Some(plan), None) => queue.schedule(&plan, shared_path)?,
        (None, Some(id)) => {
            queue.plan(RunId(id))?;
            RunId(id)
        }
        _ => bail!("give a league to schedule or --resume N, not both"),
    };
    let total = queue.plan(run)?.slots().len();
    eprintln!(
        "run {} on PostgreSQL: {total} games for the workers (follow it again with --resume {})",
        run.0, run.0
    );
    let stop = AtomicBool::new(false);
    let local = (jobs > 0).then(|| WorkerOptions {
        jobs,
        name: format!("{}-league-{}", worker::host_name(), std::process::id()),
        ..WorkerOptions::new(db)
    });
    let terminal = io::stderr().is_terminal();
    let started = Instant::now();
    let standing = thread::scope(|scope| -> Result<_> {
        let local = local.as_ref().map(|options| {
            let stop = &stop;
            scope.spawn(move || {
                worker::run(options, stop, &|line| eprintln!("local worker: {line}"))
            })
        });
        let mut last_shown = None::<Instant>;
        let result: Result<()> = loop {
            let progress = match queue.progress(run) {
                Ok(progress) => progress,
                Err(error) => break Err(error.into()),
            };
            let rate = progress.done as f64 / started.elapsed().as_secs_f64().max(1e-9);
            let text = format!(
                "games {}/{total}, {} being played, {} failed ({rate:.1} games/s)",
                progress.done, progress.leased, progress.failed
            );
            if terminal {
                eprint!("\r\x1b[2K{text}");
            } else if last_shown.is_none_or(|t| t.elapsed() >= Duration::from_secs(5))
                || progress.finished()
            {
                eprintln!("{text}");
                last_shown = Some(Instant::now());
            }
            if progress.finished() {
                if terminal {
                    eprintln!();
                }
                break Ok(());
            }
            if local.as_ref().is_some_and(|h| h.is_finished()) {
                break Ok(());
            }
            thread::sleep(Duration::from_millis(250));
        };
        stop.store(true, Ordering::Relaxed);
        if let Some(handle) = local {
            match handle.join() {
                Ok(Ok(_)) => {}
                Ok(Err(error)) => {
                    return Err(anyhow::Error::new(error).context("the local worker stopped"))
                }
                Err(_) => bail!("the local worker panicked"),
            }
        }
        result?;
        Ok(queue.standing(run)?)
    })?;
    let failures = queue.failures(run)?;
    print!("{}", league_table(&standing));
    println!("{}", harness_line(&standing));
    println!(
        "\nworker                     host                  games flagged faults  max lag ms  load"
    );
    for share in queue.shares(run)? {
        println!(
            "{:<26} {:<20} {:>6} {:>7} {:>6} {:>11.1} {:>5.2}",
            share.name,
            share.host,
            share.games,
            share.flagged,
            share.faults,
            share.max_lag_us as f64 / 1000.0,
            share.mean_load
        );
    }
    for (slot, error) in &failures {
        println!("slot {slot} could not be played: {error}");
    }
    let progress = queue.progress(run)?;
    if progress.finished() {
        queue.finish_run(run, &format!("{} games", standing.games()))?;
    }
    if !failures.is_empty() {
        bail!("{} games of run {} could not be played", failures.len(), run.0);
    }
    Ok(standing)
}
