//! Search speed and depth. `cargo run --release -p versus-bacteria --example
//! search_bench` prints, for the start position, the depth reached in 200 ms,
//! and for a set of middle-game positions (reached by a fixed sequence of
//! moves of the `strong` searcher) the nodes per second of 1 s searches.
//! `-- --ms N` changes the middle-game search time; `-- --position P --ms N`
//! searches one position for N ms. `-- --classic` uses the hand-written
//! evaluation instead of the network;
//! `-- --start-ms N` sets the start position's budget (200 ms); `-- --v1`
//! prints the start position's figures of the frozen `strong-v1` instead;
//! `-- --multicut` and `-- --singular` switch those techniques on.

use std::time::Duration;

use versus_bacteria::search::{Config, Limits, Searcher};
use versus_bacteria::State;

/// Middle-game positions from self-play at a fixed depth.
fn middle_games() -> Vec<State> {
    let mut searcher = Searcher::new(Config { nnue: false, ..Config::STRONG });
    let mut positions = Vec::new();
    let openings = ["22", "12", "21", "66", "67", "76"];
    for (i, first) in openings.iter().enumerate() {
        let mut state = State::start();
        if state.play(first.parse().unwrap()).is_err() {
            continue;
        }
        for ply in 0..(16 + 2 * i) {
            if state.is_over() {
                break;
            }
            let mv = searcher.search(&state, Limits::depth(3 + (ply % 2) as u32)).best;
            state.play(mv).unwrap();
        }
        if !state.is_over() {
            positions.push(state);
        }
    }
    positions
}

/// This process's CPU time in seconds (user + system, from `/proc/self/stat`
/// in ticks of 1/100 s), so that a loaded machine does not read as a slow
/// search; `None` off Linux.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are 14 and 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let ms: u64 = args
        .iter()
        .position(|a| a == "--ms")
        .map_or(1000, |at| args[at + 1].parse().expect("--ms takes a number"));

    let has = |flag: &str| args.iter().any(|a| a == flag);
    let config = Config {
        nnue: !has("--classic"),
        multicut: Config::STRONG.multicut || has("--multicut"),
        singular: Config::STRONG.singular || has("--singular"),
        ..Config::STRONG
    };
    let start_ms: u64 = args
        .iter()
        .position(|a| a == "--start-ms")
        .map_or(200, |at| args[at + 1].parse().expect("--start-ms takes a number"));
    if args.iter().any(|a| a == "--v1") {
        use versus_bacteria::v1::search as v1;
        let mut searcher = v1::Searcher::new(v1::Config::STRONG);
        let budget = Duration::from_millis(start_ms);
        let result = searcher.search(&State::start(), v1::Limits::time(budget, budget));
        println!(
            "strong-v1, start: depth {} in {:.0} ms ({} nodes, {:.2} M nodes/s)",
            result.depth,
            result.elapsed.as_secs_f64() * 1e3,
            result.nodes,
            result.nodes as f64 / result.elapsed.as_secs_f64() / 1e6
        );
        return;
    }
    if let Some(at) = args.iter().position(|a| a == "--position") {
        let position: State = args[at + 1].parse().expect("--position takes a position");
        let mut searcher = Searcher::new(config);
        let budget = Duration::from_millis(ms);
        let result = searcher.search(&position, Limits::time(budget / 2, budget));
        println!("{position}: {result:?}");
        return;
    }

    let mut searcher = Searcher::new(config);
    let mut state = State::start();
    state.play("22".parse().unwrap()).unwrap();
    for (name, position) in [("start", State::start()), ("after 22", state)] {
        searcher.clear();
        let budget = Duration::from_millis(start_ms);
        let result = searcher.search(&position, Limits::time(budget, budget));
        println!(
            "{name}: depth {} in {:.0} ms ({} nodes, {:.2} M nodes/s, best {}, score {})",
            result.depth,
            result.elapsed.as_secs_f64() * 1e3,
            result.nodes,
            result.nodes as f64 / result.elapsed.as_secs_f64() / 1e6,
            result.best,
            result.score
        );
    }

    let (mut nodes, mut seconds) = (0u64, 0f64);
    let cpu_before = cpu_seconds();
    for position in middle_games() {
        searcher.clear();
        let budget = Duration::from_millis(ms);
        let result = searcher.search(&position, Limits::time(budget, budget));
        let rate = result.nodes as f64 / result.elapsed.as_secs_f64();
        println!(
            "{position}: depth {} {} nodes {:.2} M nodes/s best {} score {}",
            result.depth,
            result.nodes,
            rate / 1e6,
            result.best,
            result.score
        );
        nodes += result.nodes;
        seconds += result.elapsed.as_secs_f64();
    }
    println!("middle game: {:.2} M nodes/s over {nodes} nodes", nodes as f64 / seconds / 1e6);
    if let (Some(before), Some(after)) = (cpu_before, cpu_seconds()) {
        let cpu = after - before;
        println!(
            "middle game: {:.2} M nodes per CPU second ({cpu:.2} s of CPU in {seconds:.2} s)",
            nodes as f64 / cpu / 1e6
        );
    }
}
