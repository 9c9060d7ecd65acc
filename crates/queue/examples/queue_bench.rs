//! Throughput of the queue on a throw-away cluster (fsync on, as a real
//! server): `queue_bench GAME SPEC_A SPEC_B GAMES WORKERS JOBS [TIME_MS]`
//! schedules a league of GAMES games, runs WORKERS workers of JOBS threads
//! in this process and prints games (leases + commits) per second.

use std::sync::atomic::AtomicBool;
use std::thread;
use std::time::{Duration, Instant};

use versus_core::TimeControl;
use versus_league::runner::{Entrant, Plan, Schedule};
use versus_queue::scratch::ScratchCluster;
use versus_queue::worker::{self, WorkerOptions};
use versus_queue::Queue;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [game, a, b, games, workers, jobs, rest @ ..] = args.as_slice() else {
        return Err("usage: queue_bench GAME SPEC_A SPEC_B GAMES WORKERS JOBS [TIME_MS]".into());
    };
    let number = |text: &str| text.parse::<u64>().map_err(|e| format!("{text:?}: {e}"));
    let (games, workers, jobs) = (number(games)?, number(workers)?, number(jobs)?);
    let time_ms = rest.first().map_or(Ok(1000), |t| number(t))?;
    let cluster = ScratchCluster::start(true)?.ok_or("PostgreSQL is not installed")?;
    let url = cluster.url();
    let plan = Plan {
        game: game.clone(),
        time: TimeControl { game_ms: time_ms, ..TimeControl::CONTEST },
        seed: 1,
        entrants: [a, b]
            .iter()
            .enumerate()
            .map(|(i, spec)| Entrant { name: format!("e{i}"), spec: (*spec).clone(), cwd: None })
            .collect(),
        schedule: Schedule::League { pairs: games.div_ceil(2), gauntlet: None },
        sandbox: false,
    };
    let mut queue = Queue::connect(&url).map_err(|e| e.to_string())?;
    let run = queue.schedule(&plan, false).map_err(|e| e.to_string())?;
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    thread::scope(|scope| {
        for i in 0..workers {
            let options = WorkerOptions {
                name: format!("bench{i}"),
                jobs: jobs as usize,
                poll: Duration::from_millis(20),
                exit_when_idle: true,
                ..WorkerOptions::new(&url)
            };
            let stop = &stop;
            scope.spawn(move || worker::run(&options, stop, &|line| eprintln!("{line}")));
        }
    });
    let seconds = start.elapsed().as_secs_f64();
    let done = queue.progress(run).map_err(|e| e.to_string())?.done;
    println!(
        "{game} {a} vs {b}: {done} games by {workers} worker(s) x {jobs} job(s) in {seconds:.2} s: {:.1} games/s",
        done as f64 / seconds
    );
    Ok(())
}
