//! `versus worker`, `versus workers` and `versus league|sprt --db postgres://...`:
//! the PostgreSQL work queue (crate `versus-queue`) from the command line.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Args;
use versus_league::runner::{Plan, Schedule, Standing};
use versus_league::stats::SprtStatus;
use versus_queue::worker::{self, WorkerOptions};
use versus_queue::{NewWorker, Progress, Queue, RunId};

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
    let stop = stop_on_signals()?;
    let name = options.name.clone();
    let over = AtomicBool::new(false);
    let report = thread::scope(|scope| {
        scope.spawn(|| announce_stop(&stop, &over, &name));
        let report = worker::run(&options, &stop, &|line| eprintln!("{name}: {line}"));
        over.store(true, Ordering::Relaxed);
        report
    })
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
    let stop = stop_on_signals()?;
    let runner = Runner::start_players(config).context("cannot play the contest's games")?;
    // Registered with the queue's workers, so `versus workers` lists it.
    let mut queue = Queue::connect(&args.db).context("cannot open the queue")?;
    let id = queue.register_worker(&NewWorker {
        name: options.name.clone(),
        host: options.host.clone(),
        cores: thread::available_parallelism().map_or(1, usize::from) as i32,
        jobs: options.jobs as i32,
    })?;
    eprintln!(
        "worker {} ({} jobs) on {}: playing the contest's games",
        options.name, options.jobs, options.host
    );
    // The players run until a signal.
    let mut beat = Instant::now();
    while !stop.load(Ordering::Relaxed) {
        thread::sleep(Duration::from_millis(100));
        if runner.finished() {
            bail!("the contest's player threads stopped");
        }
        if beat.elapsed() >= options.heartbeat {
            beat = Instant::now();
            // A failed beat (the server restarting) is retried at the next;
            // the games' own leases are renewed by the players.
            if let Err(error) = queue.heartbeat(id, options.lease, &[]) {
                eprintln!("{}: heartbeat: {error}", options.name);
                if let Ok(again) = Queue::connect(&args.db) {
                    queue = again;
                }
            }
        }
    }
    announce_stop(&stop, &AtomicBool::new(false), &options.name);
    runner.stop();
    if let Err(error) = queue.worker_stopped(id) {
        eprintln!("{}: cannot mark the worker stopped: {error}", options.name);
    }
    eprintln!("{}: stopped", options.name);
    Ok(())
}

/// Contest games by the worker name that plays them: (in flight, done);
/// empty where no contest was ever hosted on the database.
fn contest_games(db: &str) -> std::collections::HashMap<String, (i64, i64)> {
    let Ok(conn) = versus_sql::Conn::open(db) else { return Default::default() };
    let rows = conn.query(
        "SELECT worker, sum(CASE WHEN status = 'running' THEN 1 ELSE 0 END),
                sum(CASE WHEN status = 'done' THEN 1 ELSE 0 END)
         FROM contest_matches WHERE worker IS NOT NULL GROUP BY worker",
        &[],
    );
    rows.unwrap_or_default()
        .iter()
        .filter_map(|row| Some((row.get(0).ok()?, (row.get(1).ok()?, row.get(2).ok()?))))
        .collect()
}

/// A flag that the first Ctrl-C or SIGTERM sets (stop after the games in
/// flight, which are committed); the second ends the process at once, as a
/// `kill -9` would (its leases expire and other workers replay the games).
fn stop_on_signals() -> Result<Arc<AtomicBool>> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [SIGINT, SIGTERM] {
        // Registered first, so it sees the flag as the earlier signal left it.
        signal_hook::flag::register_conditional_shutdown(signal, 130, Arc::clone(&stop))
            .and_then(|_| signal_hook::flag::register(signal, Arc::clone(&stop)))
            .context("cannot handle signals")?;
    }
    Ok(stop)
}

/// Says, once a signal sets `stop`, that the worker is finishing its games
/// (nothing once the worker is `over` by itself).
fn announce_stop(stop: &AtomicBool, over: &AtomicBool, name: &str) {
    while !stop.load(Ordering::Relaxed) {
        if over.load(Ordering::Relaxed) {
            return;
        }
        thread::sleep(Duration::from_millis(50));
    }
    eprintln!("{name}: stopping after the games in flight (Ctrl-C again to quit at once)");
}

pub fn list_workers(args: &WorkersArgs) -> Result<()> {
    check_url(&args.db)?;
    let within = seconds(args.within_s, "--within-s")?;
    let mut queue = Queue::connect(&args.db).context("cannot open the queue")?;
    let rows = queue.live_workers(within)?;
    let contest = contest_games(&args.db);
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{:>5}  {:<24} {:<20} {:>5} {:>4} {:>9} {:>8} {:>10}",
        "id", "name", "host", "cores", "jobs", "in flight", "games", "heartbeat"
    )?;
    for row in &rows {
        // League and SPRT games, and the contest's played under its name.
        let (contest_in_flight, contest_done) = contest.get(&row.name).copied().unwrap_or((0, 0));
        writeln!(
            out,
            "{:>5}  {:<24} {:<20} {:>5} {:>4} {:>9} {:>8} {:>8.1} s",
            row.id.0,
            row.name,
            row.host,
            row.cores,
            row.jobs,
            row.in_flight + contest_in_flight,
            row.games + contest_done,
            row.heartbeat_age_s
        )?;
    }
    if rows.is_empty() {
        writeln!(out, "(no live workers)")?;
    }
    Ok(())
}

/// A run followed on the queue to its end, with what its report needs.
pub struct Followed {
    pub queue: Queue,
    pub run: RunId,
    pub plan: Plan,
    pub standing: Standing,
    pub progress: Progress,
    /// Games per second since the follower started.
    pub rate: f64,
}

/// The progress line of a run on the queue.
pub fn progress_text(f: &Followed) -> String {
    let p = &f.progress;
    let total = p.pending + p.leased + p.done + p.failed + p.cancelled;
    let mut text = format!(
        "games {}/{total}, {} being played, {} failed ({:.1} games/s)",
        p.done, p.leased, p.failed, f.rate
    );
    if p.cancelled > 0 {
        text.push_str(&format!(", {} not needed", p.cancelled));
    }
    text
}

/// `versus league|sprt --db postgres://...`: schedules the run (or follows
/// run `resume`, which must be an SPRT exactly when `sprt`), plays with `jobs` local threads as one more worker (none
/// for 0), and calls `show` as results arrive until every game is in. An
/// SPRT that has decided is closed: its games not yet handed out are
/// cancelled, and the ones being played are awaited.
pub fn follow(
    db: &str,
    plan: Option<Plan>,
    resume: Option<i64>,
    sprt: bool,
    jobs: usize,
    shared_path: bool,
    show: &mut dyn FnMut(&Followed),
) -> Result<Followed> {
    let mut queue = Queue::connect(db).context("cannot open the queue")?;
    let run = match (plan, resume) {
        (Some(plan), None) => queue.schedule(&plan, shared_path)?,
        (None, Some(id)) => {
            queue.plan(RunId(id))?;
            RunId(id)
        }
        _ => bail!("give a run to schedule or --resume N, not both"),
    };
    let plan = queue.plan(run)?;
    if matches!(plan.schedule, Schedule::Sprt { .. }) != sprt {
        bail!("run {} is not {}", run.0, if sprt { "an SPRT" } else { "a league" });
    }
    let total = plan.slots().len();
    let what = match plan.schedule {
        Schedule::League { .. } => "games",
        Schedule::Sprt { .. } => "games at most (an SPRT stops when it decides)",
    };
    eprintln!(
        "run {} on PostgreSQL: {total} {what} for the workers (follow it again with --resume {})",
        run.0, run.0
    );
    let stop = AtomicBool::new(false);
    let local = (jobs > 0).then(|| WorkerOptions {
        jobs,
        name: format!("{}-run-{}-{}", worker::host_name(), run.0, std::process::id()),
        ..WorkerOptions::new(db)
    });
    let started = Instant::now();
    let mut followed = Followed {
        standing: queue.standing(run)?,
        progress: queue.progress(run)?,
        queue,
        run,
        plan,
        rate: 0.0,
    };
    thread::scope(|scope| -> Result<()> {
        let local = local.as_ref().map(|options| {
            let stop = &stop;
            scope.spawn(move || {
                worker::run(options, stop, &|line| eprintln!("local worker: {line}"))
            })
        });
        let mut seen = None;
        let result: Result<()> = (|| loop {
            let f = &mut followed;
            f.progress = f.queue.progress(run)?;
            if seen != Some(f.progress) {
                // Only new results change the standing.
                f.standing = f.queue.standing(run)?;
                seen = Some(f.progress);
            }
            f.rate = f.progress.done as f64 / started.elapsed().as_secs_f64().max(1e-9);
            if let Schedule::Sprt { sprt, .. } = &f.plan.schedule {
                let open = f.progress.pending > 0 || f.progress.leased > 0;
                if open && sprt.status(&f.standing.pentanomial) != SprtStatus::Continue {
                    f.queue.close_run(run)?;
                    f.progress = f.queue.progress(run)?;
                }
            }
            show(f);
            if f.progress.finished() {
                return Ok(());
            }
            if local.as_ref().is_some_and(|h| h.is_finished()) {
                return Ok(());
            }
            thread::sleep(Duration::from_millis(250));
        })();
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
        result
    })?;
    Ok(followed)
}

/// The end of a run's report: a line per worker (so a bad host shows), the
/// games that could not be played; the run is marked finished with
/// `conclusion` once every game is in.
pub fn conclude(mut followed: Followed, conclusion: &str) -> Result<()> {
    let (queue, run) = (&mut followed.queue, followed.run);
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
    let failures = queue.failures(run)?;
    for (slot, error) in &failures {
        println!("slot {slot} could not be played: {error}");
    }
    if queue.progress(run)?.finished() {
        queue.finish_run(run, conclusion)?;
    }
    if !failures.is_empty() {
        bail!("{} games of run {} could not be played", failures.len(), run.0);
    }
    Ok(())
}
