//! Self-play training data for the learned evaluation (issue 16).
//!
//! ```sh
//! cargo run --release -p versus-bacteria --example datagen -- \
//!     --positions 2000000 --out /tmp/bw.data [--nodes 6000] [--threads 2] [--seed 1] [--random 4-9]
//! ```
//!
//! Each game starts with a uniformly random number (`--random LOW-HIGH`) of
//! uniformly random moves, then `strong`'s search (classic evaluation) plays
//! both sides at `--nodes` nodes a move. Every searched position is written
//! with its search score and the game's final result, in the 24-byte records
//! of `versus_bacteria::data` (appended to `--out`). Game `k` of the run is
//! played from seed `seed * 1_000_003 + k`, so a run's games are reproducible
//! (the order of the records depends on the threads). A progress line shows
//! positions, games, positions per second and the time left.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use versus_bacteria::data::{self_play_game, SelfPlay};
use versus_bacteria::search::{Config, Searcher};

fn arg<T: std::str::FromStr>(args: &[String], name: &str, default: Option<T>) -> T {
    match args.iter().position(|a| a == name) {
        Some(at) => args
            .get(at + 1)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{name} takes a value")),
        None => default.unwrap_or_else(|| panic!("{name} is required")),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let target: u64 = arg(&args, "--positions", None);
    let out: String = arg(&args, "--out", None);
    let nodes: u64 = arg(&args, "--nodes", Some(6000));
    let threads: usize = arg(&args, "--threads", Some(2));
    let seed: u64 = arg(&args, "--seed", Some(1));
    let random: String = arg(&args, "--random", Some("4-9".to_owned()));
    let (low, high) = random.split_once('-').expect("--random LOW-HIGH");
    let settings =
        SelfPlay { nodes, random_plies: (low.parse().expect("LOW"), high.parse().expect("HIGH")) };

    let file = std::fs::OpenOptions::new().create(true).append(true).open(&out).expect("--out");
    let writer = Mutex::new(std::io::BufWriter::new(file));
    let positions = AtomicU64::new(0);
    let games = AtomicU64::new(0);
    let next_game = AtomicU64::new(0);
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                // The search the embedded network's data was made with
                // (before futility pruning was switched on in `strong`).
                let mut searcher = Searcher::new(Config {
                    table_mb: 8,
                    nnue: false,
                    futility_margin: 0,
                    ..Config::STRONG
                });
                while positions.load(Ordering::Relaxed) < target {
                    let k = next_game.fetch_add(1, Ordering::Relaxed);
                    let samples = self_play_game(&mut searcher, &settings, seed * 1_000_003 + k);
                    let mut bytes = Vec::with_capacity(samples.len() * 24);
                    samples.iter().for_each(|s| bytes.extend_from_slice(&s.to_bytes()));
                    writer.lock().expect("writer").write_all(&bytes).expect("write");
                    positions.fetch_add(samples.len() as u64, Ordering::Relaxed);
                    games.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
        loop {
            std::thread::sleep(Duration::from_millis(500));
            let done = positions.load(Ordering::Relaxed);
            let seconds = start.elapsed().as_secs_f64();
            let rate = done as f64 / seconds.max(1e-9);
            let eta = target.saturating_sub(done) as f64 / rate.max(1e-9);
            eprint!(
                "\r{done}/{target} positions, {} games, {rate:.0} positions/s, {seconds:.0} s, ETA {eta:.0} s   ",
                games.load(Ordering::Relaxed)
            );
            if done >= target {
                break;
            }
        }
    });
    writer.lock().expect("writer").flush().expect("flush");
    let done = positions.load(Ordering::Relaxed);
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "\n{done} positions of {} games in {seconds:.1} s ({:.0} positions/s) appended to {out}",
        games.load(Ordering::Relaxed),
        done as f64 / seconds
    );
}
