//! NYPC's clock (`--clock cpu`) against real programs: a program is charged
//! the CPU time of all its threads, as the kernel counts it, not the real
//! time it takes; real time has its own budget, whose end is `WTLE`; and
//! the program must exit with status 0 after `FINISH`.
//!
//! The games run one at a time (a lock): the figures compared are CPU times
//! and real times of the same program.

use std::sync::Mutex;
use std::time::{Duration, Instant};

mod common;

use versus_core::{
    BySide, ClockMode, Fault, GameConfig, GameResult, Outcome, RecordLine, Side, TimeControl,
};
use versus_judge::{run_game, AgentSpec, ChildSpec, Limits};

const TESTKIT: &str = env!("CARGO_BIN_EXE_versus-testkit");

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

struct Played {
    outcome: Outcome,
    lines: Vec<RecordLine>,
    took: Duration,
}

/// Plays the testkit behaviour `args` as the first player of Domineering
/// against the built-in greedy agent, under `time`.
fn play(args: &str, time: TimeControl) -> Played {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let config = GameConfig { seed: 5, time, input: None };
    let program = AgentSpec::Program(ChildSpec::new(format!("{TESTKIT} {args}"), None));
    let agents = BySide::new(program, AgentSpec::Builtin { name: "greedy".into(), seed: 1 });
    let mut lines = Vec::new();
    let start = Instant::now();
    let outcome =
        run_game(&versus_domineering::GAME, &config, &agents, &Limits::default(), &mut |l| {
            lines.push(l);
        })
        .expect("the game starts");
    let took = start.elapsed();
    let needle = format!("{TESTKIT} {args}");
    let survivors = common::alive(|cmdline| cmdline == needle);
    assert!(survivors.is_empty(), "processes left behind: {survivors:?}");
    Played { outcome, lines, took }
}

/// The first player's replies to `TURN`, as the ms the clock charged.
fn charged_ms(played: &Played) -> Vec<u64> {
    let mut asked_turn = false;
    let mut charged = Vec::new();
    for line in &played.lines {
        match line {
            RecordLine::Send { side: Side::First, line } => asked_turn = line.starts_with("TURN"),
            RecordLine::Recv { side: Side::First, elapsed_ns, .. } if asked_turn => {
                charged.push(elapsed_ns / 1_000_000);
            }
            _ => {}
        }
    }
    charged
}

fn debug_lines(played: &Played) -> Vec<&str> {
    played
        .lines
        .iter()
        .filter_map(|l| match l {
            RecordLine::Debug { side: Side::First, line } => Some(line.as_str()),
            _ => None,
        })
        .collect()
}

#[test]
fn the_header_records_the_cpu_clock() {
    let time = TimeControl::new(2_000, 1_000).cpu();
    let played = play("pass", time);
    let Some(RecordLine::Header(header)) = played.lines.first() else { panic!("no header") };
    assert_eq!(header.config.time.clock, ClockMode::Cpu);
    assert!(played.outcome.faults.first.is_none(), "{:?}", played.outcome);
    // And in the record's own bytes, as another reader would see it.
    let json = serde_json::to_string(&played.lines[0]).expect("the header serialises");
    assert!(json.contains(r#""clock":"cpu""#), "{json}");
    let wall = play("pass", TimeControl::new(2_000, 1_000));
    let json = serde_json::to_string(&wall.lines[0]).expect("the header serialises");
    assert!(!json.contains("clock"), "a wall-clock header stays as it was: {json}");
}

#[test]
fn sleeping_is_charged_almost_nothing_until_the_real_time_budget_ends() {
    // 5 s of sleep before each reply, with 2 s of CPU: on the wall clock
    // that is a TLE at the first turn; on the CPU clock two replies are
    // charged a few ms each, and the third runs into the 12 s of real time.
    let time = TimeControl { wall_ms: Some(12_000), ..TimeControl::new(2_000, 1_000).cpu() };
    let played = play("slow 5000", time);
    let charged = charged_ms(&played);
    assert_eq!(charged.len(), 2, "{charged:?}");
    assert!(charged.iter().all(|&ms| ms < 100), "sleep was charged: {charged:?}");
    assert_eq!(played.outcome.faults.first, Some(Fault::WallTimeLimit), "{:?}", played.outcome);
    assert_eq!(played.outcome.result, GameResult::SecondWins);
    assert!(played.took >= Duration::from_secs(12), "WTLE before the budget: {:?}", played.took);
    assert!(played.took < Duration::from_secs(16), "WTLE late: {:?}", played.took);

    let wall = play("slow 5000", TimeControl::new(2_000, 1_000));
    assert_eq!(wall.outcome.faults.first, Some(Fault::TimeLimit), "{:?}", wall.outcome);
}

#[test]
fn every_thread_is_charged_as_the_kernel_counts_it() {
    // Two threads each use 300 ms of CPU at each of the first three turns:
    // 600 ms a turn is charged, though the program is pinned to one CPU.
    // Real time is not what this test is about: a generous budget keeps a
    // busy machine (the program gets its CPU time late) from ending it in WTLE.
    let time = TimeControl { wall_ms: Some(120_000), ..TimeControl::new(5_000, 3_000).cpu() };
    let played = play("burn 300 2 3", time);
    assert!(played.outcome.faults.first.is_none(), "{:?}", played.outcome);
    let charged = charged_ms(&played);
    assert!(charged.len() > 3, "{charged:?}");
    for &ms in &charged[..3] {
        assert!((590..=700).contains(&ms), "a turn of 2 × 300 ms charged {ms} ms: {charged:?}");
    }
    // The program's own count, from the kernel, at FINISH: everything it
    // used (READY and the passes included) against everything charged.
    let own: u64 = debug_lines(&played)
        .iter()
        .find_map(|l| l.strip_prefix("cpu-ms "))
        .and_then(|n| n.parse().ok())
        .expect("the program reports its CPU time");
    let total: u64 = charged.iter().sum();
    assert!(own.abs_diff(total) <= 60, "charged {total} ms, the kernel counts {own} ms");
}

#[test]
fn a_reply_never_flushed_is_a_wtle() {
    let time = TimeControl { wall_ms: Some(3_000), ..TimeControl::new(2_000, 1_000).cpu() };
    let played = play("unflushed", time);
    assert_eq!(played.outcome.faults.first, Some(Fault::WallTimeLimit), "{:?}", played.outcome);
    assert!(played.took < Duration::from_secs(6), "{:?}", played.took);
}

#[test]
fn exiting_non_zero_after_finish_loses_on_the_cpu_clock_only() {
    let played = play("exit-after-finish 3", TimeControl::new(2_000, 1_000).cpu());
    assert_eq!(
        played.outcome.faults.first,
        Some(Fault::Crash { detail: "exited with status 3 after FINISH".into() }),
        "{:?}",
        played.outcome
    );
    assert_eq!(played.outcome.result, GameResult::SecondWins);
    let Some(RecordLine::Footer { outcome }) = played.lines.last() else { panic!("no footer") };
    assert_eq!(outcome, &played.outcome);

    let wall = play("exit-after-finish 3", TimeControl::new(2_000, 1_000));
    assert!(wall.outcome.faults.first.is_none(), "{:?}", wall.outcome);
}

#[test]
fn not_exiting_after_finish_is_a_wtle_on_the_cpu_clock() {
    let played = play("linger", TimeControl::new(2_000, 1_000).cpu());
    assert_eq!(played.outcome.faults.first, Some(Fault::WallTimeLimit), "{:?}", played.outcome);
}
