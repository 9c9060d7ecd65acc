//! Benchmarks of the judge, printed as Markdown for the README.
//!
//! 1. Request/reply overhead: an echo child (`cat`) driven over raw pipes,
//!    then the same child driven through [`ChildEndpoint`], in alternating
//!    batches so that both see the same machine load.
//! 2. Games per second between two `random` agents, in-process and as child
//!    processes (`versus agent GAME random`), for every game of the registry.
//!
//! Run: `cargo build --release -p versus-cli && cargo run --release -p
//! versus-judge --example judge_bench -- [--quick] [--versus PATH]`.
//! Single-threaded: one game or one exchange at a time.

use std::fmt::Write as _;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use versus_core::{BySide, Endpoint, Game, GameConfig, RecordLine, Reply};
use versus_judge::{run_game, AgentSpec, ChildEndpoint, ChildSpec, Limits};

/// A line of the length of a typical request (`TURN` with a clock and a move).
const LINE: &str = "TURN 1234 MOVE 3 4";
/// Far beyond any echo: a timeout here means the benchmark is broken.
const ECHO_LIMIT: Duration = Duration::from_secs(10);

struct Settings {
    /// Round trips per ping-pong batch.
    round_trips: usize,
    /// Batches of each kind, alternated.
    batches: usize,
    /// Minimum wall time of each games-per-second measurement.
    game_time: Duration,
    versus: Option<PathBuf>,
}

fn settings() -> Result<Settings, String> {
    let mut quick = false;
    let mut versus = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" => quick = true,
            "--versus" => {
                versus = Some(PathBuf::from(
                    args.next().ok_or("--versus needs the path of the versus binary")?,
                ));
            }
            "-h" | "--help" => {
                return Err("usage: judge_bench [--quick] [--versus PATH]".to_owned());
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    Ok(if quick {
        Settings { round_trips: 2_000, batches: 3, game_time: Duration::from_millis(300), versus }
    } else {
        Settings { round_trips: 20_000, batches: 5, game_time: Duration::from_secs(4), versus }
    })
}

fn main() -> ExitCode {
    let settings = match settings() {
        Ok(settings) => settings,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    match run(&settings) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("judge_bench: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(settings: &Settings) -> Result<(), String> {
    let load_before = load_average();
    let started = Instant::now();
    let mut report = String::new();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut command = "cargo run --release -p versus-judge --example judge_bench".to_owned();
    if !args.is_empty() {
        let _ = write!(command, " -- {}", args.join(" "));
    }
    let _ = writeln!(report, "Measured with `{command}`");
    let _ = writeln!(
        report,
        "on {} ({} logical CPUs), single-threaded; load average before: {load_before}.\n",
        cpu_model(),
        std::thread::available_parallelism().map_or(0, usize::from),
    );

    let allowed = rustix::thread::sched_getaffinity(None)
        .map_err(|e| format!("cannot read the CPU affinity: {e}"))?;
    eprintln!(
        "ping-pong on the CPUs given: {} batches of {} round trips each way...",
        settings.batches, settings.round_trips
    );
    let free = ping_pong(settings).map_err(|e| format!("ping-pong with cat: {e}"))?;
    eprintln!("ping-pong pinned to one CPU...");
    let one_cpu = pinned(&allowed, || ping_pong(settings))
        .map_err(|e| format!("ping-pong with cat on one CPU: {e}"))?;
    let _ = writeln!(
        report,
        "| Request/reply with an echo child (`cat`) | Raw pipes, µs | Judge, µs | Judge / raw (target ≤ 2) |"
    );
    let _ = writeln!(report, "|---|---:|---:|---:|");
    ping_row(&mut report, &format!("On the {} CPUs given", allowed.count()), &free);
    ping_row(&mut report, "Pinned to one CPU (judge, its threads and `cat`)", &one_cpu);
    let _ = writeln!(
        report,
        "\nµs per round trip of a {}-byte line: medians of {} batches of {}, raw and judge \
         batches alternated. Raw: `write_all` to `cat`'s stdin, `BufReader::read_line` from its \
         stdout. Judge: `ChildEndpoint::send` then `Endpoint::receive`, monitor and stderr \
         threads running as in a match. The first row depends on where the scheduler puts \
         the threads and `cat` (waking an idle CPU can cost more than the exchange); the \
         pinned row counts the CPU work alone and is the stable one.\n",
        LINE.len() + 1,
        settings.batches,
        settings.round_trips,
    );

    let versus = versus_binary(settings);
    if versus.is_none() {
        eprintln!(
            "note: the versus binary was not found (looked for {}); build it with \
             `cargo build --release -p versus-cli` or pass --versus PATH. \
             Child-process games are skipped.",
            default_versus_path().display()
        );
    }
    let _ = writeln!(
        report,
        "| Game (`random` vs `random`) | Exchanges per game | In-process games/s | Child-process games/s | Child ms/game |"
    );
    let _ = writeln!(report, "|---|---:|---:|---:|---:|");
    for game in versus_games::all() {
        eprintln!("{}: in-process...", game.name());
        let local = games_per_second(game, settings.game_time, |seed| {
            BySide::new(
                AgentSpec::Builtin { name: "random".to_owned(), seed: 2 * seed + 1 },
                AgentSpec::Builtin { name: "random".to_owned(), seed: 2 * seed + 2 },
            )
        })?;
        let child = match &versus {
            Some(path) => {
                eprintln!("{}: child processes...", game.name());
                let program = |seed: u64| {
                    AgentSpec::Program(ChildSpec::new(
                        format!("{} agent {} random --seed {seed}", path.display(), game.name()),
                        None,
                    ))
                };
                Some(games_per_second(game, settings.game_time, |seed| {
                    BySide::new(program(2 * seed + 1), program(2 * seed + 2))
                })?)
            }
            None => None,
        };
        let (child_rate, child_ms) = match &child {
            Some(run) => {
                (format!("{:.1}", run.per_second()), format!("{:.2}", 1000.0 / run.per_second()))
            }
            None => ("skipped".to_owned(), "–".to_owned()),
        };
        let _ = writeln!(
            report,
            "| {} | {:.0} | {:.0} | {child_rate} | {child_ms} |",
            game.name(),
            local.exchanges_per_game(),
            local.per_second(),
        );
    }
    let _ = writeln!(
        report,
        "\nEach figure: as many games as fit in {:.1} s (at least 3), one at a time, \
         seeds 0, 1, 2...; an exchange is one request and its reply. \
         Child processes: `{} agent GAME random --seed N`, two per game, started and \
         stopped by the judge as in a match. Load average after: {}; total {:.0} s.",
        settings.game_time.as_secs_f64(),
        versus.as_deref().map_or_else(|| "versus".to_owned(), |p| p.display().to_string()),
        load_average(),
        started.elapsed().as_secs_f64(),
    );
    print!("{report}");
    Ok(())
}

fn ping_row(report: &mut String, label: &str, ping: &PingPong) {
    let _ = writeln!(
        report,
        "| {label} | {:.1} | {:.1} | **{:.2}** |",
        ping.raw_us,
        ping.judge_us,
        ping.judge_us / ping.raw_us
    );
}

struct PingPong {
    raw_us: f64,
    judge_us: f64,
}

/// Alternates raw and judge batches against one `cat` each, so that both
/// see the same load; returns the median µs per round trip of each.
fn ping_pong(settings: &Settings) -> io::Result<PingPong> {
    let mut raw = RawEcho::start()?;
    let spec = ChildSpec::new("cat".to_owned(), None);
    let mut judged = ChildEndpoint::spawn(&spec, &Limits::default())?;
    // Warm up both: page cache, scheduler, allocator.
    raw.batch(settings.round_trips / 10)?;
    judge_batch(&mut judged, settings.round_trips / 10)?;
    let mut raw_us = Vec::new();
    let mut judge_us = Vec::new();
    for _ in 0..settings.batches {
        raw_us.push(per_round_trip(raw.batch(settings.round_trips)?, settings));
        judge_us.push(per_round_trip(judge_batch(&mut judged, settings.round_trips)?, settings));
    }
    raw.stop();
    judged.close();
    eprintln!("  raw µs per batch:   {}", list(&raw_us));
    eprintln!("  judge µs per batch: {}", list(&judge_us));
    Ok(PingPong { raw_us: median(raw_us), judge_us: median(judge_us) })
}

fn per_round_trip(time: Duration, settings: &Settings) -> f64 {
    time.as_secs_f64() * 1e6 / settings.round_trips as f64
}

/// Runs `work` with this thread (and so every thread and child it starts)
/// on the first CPU of `allowed` only, then restores `allowed`.
fn pinned<T>(
    allowed: &rustix::thread::CpuSet,
    work: impl FnOnce() -> io::Result<T>,
) -> io::Result<T> {
    let first = (0..rustix::thread::CpuSet::MAX_CPU)
        .find(|&cpu| allowed.is_set(cpu))
        .ok_or_else(|| io::Error::other("no CPU is allowed"))?;
    let mut one = rustix::thread::CpuSet::new();
    one.set(first);
    rustix::thread::sched_setaffinity(None, &one)?;
    let result = work();
    rustix::thread::sched_setaffinity(None, allowed)?;
    result
}

/// `cat` on plain pipes: the floor any judge pays for a round trip.
struct RawEcho {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    line: String,
}

impl RawEcho {
    fn start() -> io::Result<RawEcho> {
        let mut child = Command::new("cat").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn()?;
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
        Ok(RawEcho { child, stdin, stdout, line: String::new() })
    }

    fn batch(&mut self, round_trips: usize) -> io::Result<Duration> {
        let stdin = self.stdin.as_mut().expect("running");
        let request = format!("{LINE}\n");
        let start = Instant::now();
        for _ in 0..round_trips {
            stdin.write_all(request.as_bytes())?;
            stdin.flush()?;
            self.line.clear();
            self.stdout.read_line(&mut self.line)?;
            if self.line.trim_end() != LINE {
                return Err(io::Error::other(format!("cat echoed {:?}", self.line)));
            }
        }
        Ok(start.elapsed())
    }

    fn stop(mut self) {
        self.stdin = None;
        let _ = self.child.wait();
    }
}

fn judge_batch(endpoint: &mut ChildEndpoint, round_trips: usize) -> io::Result<Duration> {
    let start = Instant::now();
    for _ in 0..round_trips {
        endpoint.send(LINE);
        match endpoint.receive(ECHO_LIMIT) {
            Reply::Line { text, .. } if text == LINE => {}
            other => return Err(io::Error::other(format!("cat answered {other:?}"))),
        }
    }
    Ok(start.elapsed())
}

struct GameRun {
    games: u64,
    exchanges: u64,
    time: Duration,
}

impl GameRun {
    fn per_second(&self) -> f64 {
        self.games as f64 / self.time.as_secs_f64()
    }

    fn exchanges_per_game(&self) -> f64 {
        self.exchanges as f64 / self.games as f64
    }
}

/// Plays games with seeds 0, 1, 2... until `time` has passed (at least 3
/// games); every game must end without a fault, or the figure means nothing.
fn games_per_second(
    game: &dyn Game,
    time: Duration,
    agents: impl Fn(u64) -> BySide<AgentSpec>,
) -> Result<GameRun, String> {
    let limits = Limits::default();
    let mut run = GameRun { games: 0, exchanges: 0, time: Duration::ZERO };
    let start = Instant::now();
    while run.games < 3 || start.elapsed() < time {
        let seed = run.games;
        let config = GameConfig::seeded(seed);
        let agents = agents(seed);
        let mut exchanges = 0;
        let outcome = run_game(game, &config, &agents, &limits, &mut |line| {
            if matches!(line, RecordLine::Recv { .. }) {
                exchanges += 1;
            }
        })
        .map_err(|e| format!("{} seed {seed}: {e}", game.name()))?;
        if let Some(fault) = outcome.faults.first.as_ref().or(outcome.faults.second.as_ref()) {
            return Err(format!(
                "{} seed {seed} ({} vs {}): a fault spoils the benchmark: {fault:?}",
                game.name(),
                agents.first.label(),
                agents.second.label()
            ));
        }
        run.games += 1;
        run.exchanges += exchanges;
    }
    run.time = start.elapsed();
    Ok(run)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    if values.len() % 2 == 1 {
        values[middle]
    } else {
        (values[middle - 1] + values[middle]) / 2.0
    }
}

fn list(values: &[f64]) -> String {
    values.iter().map(|v| format!("{v:.1}")).collect::<Vec<_>>().join(", ")
}

/// `target/release/versus`, next to the directory of this example.
fn default_versus_path() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.join("versus")))
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/release/versus")
        })
}

fn versus_binary(settings: &Settings) -> Option<PathBuf> {
    let path = settings.versus.clone().unwrap_or_else(default_versus_path);
    path.is_file().then(|| path.canonicalize().unwrap_or(path))
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg").map_or_else(
        |_| "unknown".to_owned(),
        |text| text.split_whitespace().take(3).collect::<Vec<_>>().join(" "),
    )
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|line| line.starts_with("model name"))
                .and_then(|line| line.split_once(':'))
                .map(|(_, name)| name.trim().to_owned())
        })
        .unwrap_or_else(|| "an unknown CPU".to_owned())
}
