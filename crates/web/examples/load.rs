//! A bounded load test of a running host: N clients, each sending GET
//! requests one after another (a new connection each) for S seconds over
//! the contest's pages and API; prints latency percentiles and every
//! non-2xx answer.
//!
//! `cargo run --release -p versus-web --example load -- http://127.0.0.1:8080 50 60 domineering`

use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: load http://HOST:PORT CLIENTS SECONDS GAME";
    let [base, clients, seconds, game] = args.as_slice() else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let Some(authority) = base.strip_prefix("http://").map(|a| a.trim_end_matches('/').to_owned())
    else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let (Ok(clients), Ok(seconds)) = (clients.parse::<usize>(), seconds.parse::<u64>()) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let paths: Vec<String> = vec![
        "/".into(),
        "/contest.js".into(),
        "/api/contest".into(),
        format!("/api/contest/games/{game}/leaderboard"),
        format!("/api/contest/games/{game}/submissions"),
        format!("/api/contest/games/{game}/participants"),
        format!("/api/contest/games/{game}/matches"),
        "/api/contest/matches/1".into(),
    ];
    let end = Instant::now() + Duration::from_secs(seconds);
    let mut tasks = Vec::new();
    for client in 0..clients {
        let (authority, paths) = (authority.clone(), paths.clone());
        tasks.push(tokio::spawn(async move {
            let mut times = Vec::new();
            let mut failures = Vec::new();
            let mut k = client;
            while Instant::now() < end {
                let path = &paths[k % paths.len()];
                k += 1;
                let start = Instant::now();
                match get(&authority, path).await {
                    Ok(200..=299) => times.push(start.elapsed()),
                    Ok(code) => failures.push(format!("{path}: {code}")),
                    Err(error) => failures.push(format!("{path}: {error}")),
                }
            }
            (times, failures)
        }));
    }
    let mut times = Vec::new();
    let mut failures = Vec::new();
    for task in tasks {
        let (t, f) = task.await.expect("a client panicked");
        times.extend(t);
        failures.extend(f);
    }
    times.sort();
    let at = |q: f64| {
        times.get(((times.len() as f64 * q) as usize).min(times.len().saturating_sub(1))).copied()
    };
    let ms = |d: Option<Duration>| d.map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0);
    println!(
        "{} clients, {seconds} s: {} answers ({:.0}/s), p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms, {} errors",
        clients,
        times.len(),
        times.len() as f64 / seconds as f64,
        ms(at(0.5)),
        ms(at(0.9)),
        ms(at(0.99)),
        ms(times.last().copied()),
        failures.len()
    );
    for failure in failures.iter().take(20) {
        println!("  {failure}");
    }
    if !failures.is_empty() {
        std::process::exit(1);
    }
}

/// One GET on a fresh connection; the status code.
async fn get(authority: &str, path: &str) -> std::io::Result<u16> {
    let mut stream = TcpStream::connect(authority).await?;
    let request = format!("GET {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await?;
    let text = String::from_utf8_lossy(&answer[..answer.len().min(64)]).into_owned();
    text.split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("a malformed answer: {text:?}")))
}
