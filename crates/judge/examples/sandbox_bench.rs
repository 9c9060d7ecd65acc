//! What the sandbox costs, printed as Markdown for the README.
//!
//! 1. Compile time per language: the Betris starter built from an empty
//!    cache (median of 3), and a cache hit.
//! 2. Start-up per language: from spawning the built program to its `OK` to
//!    `READY`, sandboxed, and for C and Python also run directly.
//! 3. Request/reply overhead: `cat` as an echo agent through the judge's
//!    child endpoint, plain and sandboxed, in alternating batches.
//!
//! Run: `cargo run --release -p versus-judge --example sandbox_bench`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use versus_core::{Endpoint, Reply};
use versus_judge::{ChildEndpoint, ChildSpec, Limits};
use versus_sandbox::{Builder, Isolation, Language, Workdir};

const ROUND_TRIPS: usize = 5_000;
const BATCHES: usize = 5;

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn starter(language: Language) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../cli/starters/betris-large")
        .join(language.starter_name())
}

/// Milliseconds from spawn to the reply to `READY`.
fn start_up(spec: &ChildSpec) -> f64 {
    let start = Instant::now();
    let mut endpoint = ChildEndpoint::spawn(spec, &Limits::default()).expect("spawns");
    endpoint.send("READY");
    match endpoint.receive(Duration::from_secs(10)) {
        Reply::Line { text, .. } if text == "OK" => {}
        other => panic!("no OK: {other:?}"),
    }
    let took = start.elapsed().as_secs_f64() * 1e3;
    endpoint.send("FINISH");
    endpoint.close();
    took
}

/// Mean microseconds per request/reply with an echo agent.
fn echo(spec: &ChildSpec) -> f64 {
    let mut endpoint = ChildEndpoint::spawn(spec, &Limits::default()).expect("spawns");
    let start = Instant::now();
    for _ in 0..ROUND_TRIPS {
        endpoint.send("TURN 1234 MOVE 3 4");
        assert!(matches!(endpoint.receive(Duration::from_secs(10)), Reply::Line { .. }));
    }
    let took = start.elapsed().as_secs_f64() * 1e6 / ROUND_TRIPS as f64;
    endpoint.close();
    took
}

fn main() {
    let host = versus_sandbox::Host::get();
    println!("Host:\n\n```\n{host}\n```\n");
    let root = std::env::temp_dir().join(format!("versus-sandbox-bench-{}", std::process::id()));
    println!("| language | compile (ms, cold) | cache hit (ms) | start-up sandboxed (ms) | start-up direct (ms) |");
    println!("|---|---:|---:|---:|---:|");
    for language in Language::ALL {
        let mut cold = Vec::new();
        let mut artifact = None;
        for round in 0..3 {
            let builder = Builder::new(root.join(format!("{}-{round}", language.name())));
            let built = builder.build(&starter(language), None).expect("the starter builds");
            cold.push(built.compile_time.as_secs_f64() * 1e3);
            artifact = Some((builder, built));
        }
        let (builder, artifact) = artifact.expect("built");
        let hit = Instant::now();
        builder.build(&starter(language), None).expect("cached");
        let hit = hit.elapsed().as_secs_f64() * 1e3;
        let sandboxed = ChildSpec {
            command: artifact.run_command.clone(),
            cwd: None,
            isolation: Some(artifact.isolation(&Isolation::default())),
        };
        let sandboxed = median((0..7).map(|_| start_up(&sandboxed)).collect());
        // The same program outside: the build folder stands in for /prog.
        let direct = match language {
            Language::C | Language::Python => {
                let command =
                    artifact.run_command.replace("/prog", &artifact.dir.display().to_string());
                let spec = ChildSpec::new(command, None);
                format!("{:.1}", median((0..7).map(|_| start_up(&spec)).collect()))
            }
            _ => "-".to_owned(),
        };
        println!(
            "| {} | {:.0} | {hit:.2} | {sandboxed:.1} | {direct} |",
            language.name(),
            median(cold),
        );
    }
    let plain = ChildSpec::new("cat", None);
    let isolated = ChildSpec {
        command: "/usr/bin/cat".to_owned(),
        cwd: None,
        isolation: Some(Isolation { workdir: Workdir::Private, ..Isolation::default() }),
    };
    let (mut outside, mut inside) = (Vec::new(), Vec::new());
    for _ in 0..BATCHES {
        outside.push(echo(&plain));
        inside.push(echo(&isolated));
    }
    let (outside, inside) = (median(outside), median(inside));
    println!(
        "\nRequest/reply through the judge ({ROUND_TRIPS} round trips x {BATCHES} alternating batches, median): \
         plain {outside:.1} µs, sandboxed {inside:.1} µs, ratio {:.2}",
        inside / outside
    );
    let _ = std::fs::remove_dir_all(&root);
}
