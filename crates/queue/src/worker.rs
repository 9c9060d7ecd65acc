//! `versus worker`: leases games from the queue, plays them with the judge
//! and commits each result once.
//!
//! Each of the `jobs` threads holds its own connection and plays one game at
//! a time: lease, play, commit. One more thread beats the heart: it marks the
//! worker alive and pushes on the expiry of exactly the leases the threads
//! hold, so a lease whose reply was lost with a dropped connection (held by
//! this worker in the database, unknown to it) expires and goes to another.
//!
//! A connection that fails (the server restarts, the network drops) is made
//! again, with backoff, for up to [`WorkerOptions::reconnect_for`]; the
//! operation is then retried. Retrying is safe: a lease is a new one, and a
//! commit that did land the first time finds its slot closed and is
//! dropped, never stored twice.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use versus_core::Game;
use versus_judge::{run_game, Limits, SandboxSettings};
use versus_league::runner::{harness_fault, judge_lag, load_centi, Plan, Slot};
use versus_league::store::JudgeLag;

use crate::{Committed, Lease, NewWorker, PlayedGame, Queue, QueueError, RunId, WorkerId};

/// How a worker runs.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    pub url: String,
    pub name: String,
    pub host: String,
    /// Games played at once.
    pub jobs: usize,
    /// How long a lease lasts without a heartbeat.
    pub lease: Duration,
    pub heartbeat: Duration,
    /// How long to wait before asking again when no slot is open.
    pub poll: Duration,
    /// Stop once no slot of any run is pending or leased (by anyone).
    pub exit_when_idle: bool,
    /// Where source agents are written (and so built once per content).
    pub cache: PathBuf,
    /// How long to keep trying to reconnect before giving up.
    pub reconnect_for: Duration,
}

impl WorkerOptions {
    /// The defaults for `url`: one job per core, 30 s leases beaten every 5 s.
    #[must_use]
    pub fn new(url: &str) -> WorkerOptions {
        let host = host_name();
        WorkerOptions {
            url: url.to_owned(),
            name: format!("{host}-{}", std::process::id()),
            host,
            jobs: thread::available_parallelism().map_or(1, usize::from),
            lease: Duration::from_secs(30),
            heartbeat: Duration::from_secs(5),
            poll: Duration::from_secs(1),
            exit_when_idle: false,
            cache: default_cache(),
            reconnect_for: Duration::from_secs(600),
        }
    }
}

/// This machine's host name, or `unknown`.
#[must_use]
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_owned())
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".into())
}

fn default_cache() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("versus").join("artifacts")
}

/// What a worker did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorkerReport {
    pub worker: Option<WorkerId>,
    /// Results stored and counted; stored but flagged for the harness.
    pub counted: u64,
    pub flagged: u64,
    /// Results dropped because the lease had been handed on.
    pub lost: u64,
    /// Slots closed as unplayable.
    pub failed: u64,
    pub reconnects: u64,
}

impl WorkerReport {
    fn add(&mut self, other: &WorkerReport) {
        self.counted += other.counted;
        self.flagged += other.flagged;
        self.lost += other.lost;
        self.failed += other.failed;
        self.reconnects += other.reconnects;
    }
}

/// A connection that is made again when it fails.
struct Conn<'a> {
    options: &'a WorkerOptions,
    queue: Option<Queue>,
    stop: &'a AtomicBool,
    log: &'a (dyn Fn(&str) + Sync),
    reconnects: u64,
}

impl<'a> Conn<'a> {
    fn call<T>(
        &mut self,
        mut op: impl FnMut(&mut Queue) -> Result<T, QueueError>,
    ) -> Result<T, QueueError> {
        let mut failing_since: Option<Instant> = None;
        let mut wait = Duration::from_millis(50);
        loop {
            let result = match &mut self.queue {
                Some(queue) => op(queue),
                None => Queue::connect(&self.options.url)
                    .map(|queue| {
                        self.queue = Some(queue);
                        // A thread's first connection is not a reconnection.
                        if failing_since.is_some() {
                            self.reconnects += 1;
                            (self.log)("reconnected");
                        }
                    })
                    .and_then(|()| op(self.queue.as_mut().expect("just connected"))),
            };
            match result {
                Ok(value) => return Ok(value),
                Err(error) if error.is_connection() => {
                    if failing_since.is_none() {
                        (self.log)(&format!("lost the database ({error}); reconnecting"));
                    }
                    self.queue = None;
                    let since = *failing_since.get_or_insert_with(Instant::now);
                    if since.elapsed() > self.options.reconnect_for
                        || self.stop.load(Ordering::Relaxed)
                    {
                        return Err(error);
                    }
                    thread::sleep(wait);
                    wait = (wait * 2).min(Duration::from_secs(2));
                }
                Err(error) => return Err(error),
            }
        }
    }
}

/// A run as this host plays it.
struct Context {
    game: &'static dyn Game,
    plan: Plan,
    limits: Limits,
}

/// Registers a worker and plays leased games until `stop` is set (the games
/// under way finish and are committed) or, with
/// [`WorkerOptions::exit_when_idle`], until no slot is open. `log` gets a
/// line for each event worth telling (reconnections, dropped results).
pub fn run(
    options: &WorkerOptions,
    stop: &AtomicBool,
    log: &(dyn Fn(&str) + Sync),
) -> Result<WorkerReport, QueueError> {
    // The first connection is not retried: a wrong URL or password is
    // reported at once.
    let mut first = Queue::connect(&options.url)?;
    let jobs = options.jobs.max(1);
    let worker = first.register_worker(&NewWorker {
        name: options.name.clone(),
        host: options.host.clone(),
        cores: thread::available_parallelism().map_or(1, usize::from) as i32,
        jobs: jobs as i32,
    })?;
    let held: Mutex<HashSet<i64>> = Mutex::new(HashSet::new());
    let halt = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    let outcome = thread::scope(|scope| {
        let beat = scope.spawn(|| {
            let mut conn = Conn { options, queue: Some(first), stop: &done, log, reconnects: 0 };
            while !done.load(Ordering::Relaxed) {
                let tokens: Vec<i64> =
                    held.lock().unwrap_or_else(|e| e.into_inner()).iter().copied().collect();
                if let Err(error) = conn.call(|q| q.heartbeat(worker, options.lease, &tokens)) {
                    log(&format!("heartbeat failed: {error}"));
                }
                sleep_unless(&done, options.heartbeat);
            }
            if let Err(error) = conn.call(|q| q.worker_stopped(worker)) {
                log(&format!("cannot mark the worker stopped: {error}"));
            }
        });
        let threads: Vec<_> = (0..jobs)
            .map(|_| {
                let (held, halt) = (&held, &halt);
                scope.spawn(move || {
                    let result = play_loop(options, worker, stop, halt, held, log);
                    if result.is_err() {
                        halt.store(true, Ordering::Relaxed);
                    }
                    result
                })
            })
            .collect();
        let mut report = WorkerReport { worker: Some(worker), ..WorkerReport::default() };
        let mut failure = None;
        for thread in threads {
            match thread.join() {
                Ok(Ok(part)) => report.add(&part),
                Ok(Err(error)) => failure = failure.or(Some(error)),
                Err(_) => {
                    failure =
                        failure.or(Some(QueueError::Corrupt("a worker thread panicked".into())))
                }
            }
        }
        done.store(true, Ordering::Relaxed);
        let _ = beat.join();
        failure.map_or(Ok(report), Err)
    });
    outcome
}

fn sleep_unless(flag: &AtomicBool, total: Duration) {
    let end = Instant::now() + total;
    while !flag.load(Ordering::Relaxed) {
        let left = end.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return;
        }
        thread::sleep(left.min(Duration::from_millis(20)));
    }
}

fn play_loop(
    options: &WorkerOptions,
    worker: WorkerId,
    stop: &AtomicBool,
    halt: &AtomicBool,
    held: &Mutex<HashSet<i64>>,
    log: &(dyn Fn(&str) + Sync),
) -> Result<WorkerReport, QueueError> {
    let mut conn = Conn { options, queue: None, stop, log, reconnects: 0 };
    let mut report = WorkerReport::default();
    let mut contexts: HashMap<RunId, Context> = HashMap::new();
    let held_set = |f: &mut dyn FnMut(&mut HashSet<i64>)| {
        f(&mut held.lock().unwrap_or_else(|e| e.into_inner()))
    };
    while !stop.load(Ordering::Relaxed) && !halt.load(Ordering::Relaxed) {
        let Some(lease) = conn.call(|q| q.lease(worker, options.lease))? else {
            if options.exit_when_idle && !conn.call(Queue::has_open_slots)? {
                break;
            }
            sleep_unless(stop, options.poll);
            continue;
        };
        held_set(&mut |h| {
            h.insert(lease.token);
        });
        let result = play_one(options, worker, &lease, &mut conn, &mut contexts);
        held_set(&mut |h| {
            h.remove(&lease.token);
        });
        match result? {
            Played::Committed(Committed::Counted) => report.counted += 1,
            Played::Committed(Committed::Flagged(reason)) => {
                log(&format!(
                    "run {} slot {}: not counted, to be replayed: {reason}",
                    lease.run.0, lease.slot
                ));
                report.flagged += 1;
            }
            Played::Committed(Committed::LeaseLost) => {
                log(&format!(
                    "run {} slot {}: the lease had passed to another worker; result dropped",
                    lease.run.0, lease.slot
                ));
                report.lost += 1;
            }
            Played::Failed(error) => {
                log(&format!("run {} slot {}: cannot be played: {error}", lease.run.0, lease.slot));
                report.failed += 1;
            }
        }
    }
    report.reconnects = conn.reconnects;
    Ok(report)
}

enum Played {
    Committed(Committed),
    Failed(String),
}

fn play_one(
    options: &WorkerOptions,
    worker: WorkerId,
    lease: &Lease,
    conn: &mut Conn<'_>,
    contexts: &mut HashMap<RunId, Context>,
) -> Result<Played, QueueError> {
    if let std::collections::hash_map::Entry::Vacant(entry) = contexts.entry(lease.run) {
        let plan = conn.call(|q| q.local_plan(lease.run, &options.cache))?;
        let Some(game) = versus_games::find(&plan.game) else {
            let error = format!("unknown game {:?}", plan.game);
            conn.call(|q| q.fail(lease, &error))?;
            return Ok(Played::Failed(error));
        };
        let limits = Limits {
            sandbox: SandboxSettings { commands: plan.sandbox, ..SandboxSettings::default() },
            ..Limits::default()
        };
        entry.insert(Context { game, plan, limits });
    }
    let context = &contexts[&lease.run];
    let Some(slot) = Slot::parse(&lease.slot).filter(|s| s.b < context.plan.entrants.len()) else {
        let error = format!("slot {:?} is not a slot of this run", lease.slot);
        conn.call(|q| q.fail(lease, &error))?;
        return Ok(Played::Failed(error));
    };
    let mut record = Vec::new();
    let played = run_game(
        context.game,
        &context.plan.config(&slot),
        &context.plan.agents(&slot),
        &context.limits,
        &mut |line| record.push(line),
    );
    let outcome = match played {
        Ok(outcome) => outcome,
        Err(error) => {
            let error = error.to_string();
            conn.call(|q| q.fail(lease, &error))?;
            return Ok(Played::Failed(error));
        }
    };
    let lag = JudgeLag { load_centi: load_centi(), ..judge_lag(&record) };
    let flag = harness_fault(&outcome, &lag);
    let seats = slot.seats();
    let game = PlayedGame {
        seats,
        outcome: &outcome,
        record: &record,
        lag: &lag,
        harness_flag: flag.as_deref(),
    };
    let committed = conn.call(|q| q.commit(lease, worker, &game))?;
    Ok(Played::Committed(committed))
}
