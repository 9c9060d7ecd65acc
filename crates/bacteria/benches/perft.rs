//! Perft speed. `cargo bench -p versus-bacteria --bench perft` runs the divan
//! benchmarks; with `-- --depth N` it instead times one perft(N) from the start
//! position and prints nodes, seconds and nodes/s.

use std::time::Instant;

use versus_bacteria::{perft, State};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--depth") {
        let depth: u32 =
            args.get(at + 1).and_then(|d| d.parse().ok()).expect("--depth takes a number");
        let state: State = match args.iter().position(|a| a == "--position") {
            Some(at) => args[at + 1].parse().expect("--position takes a position"),
            None => State::start(),
        };
        let start = Instant::now();
        let nodes = perft(&state, depth);
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "{state}: perft({depth}) = {nodes} in {seconds:.3} s: {:.0} M nodes/s",
            nodes as f64 / seconds / 1e6
        );
        return;
    }
    divan::main();
}

#[divan::bench(args = [4, 5])]
fn start_position(bencher: divan::Bencher, depth: u32) {
    let state = State::start();
    bencher
        .counter(divan::counter::ItemsCount::new(perft(&state, depth)))
        .bench(|| perft(divan::black_box(&state), depth));
}
