//! The judge against real misbehaving processes: each behaviour of
//! `versus-testkit` must end the game within its deadline plus 2 s, with the
//! right verdict, and leave no process behind.

use std::time::{Duration, Instant};

mod common;

use versus_core::{BySide, Fault, GameConfig, GameResult, Outcome, RecordLine, Side, TimeControl};
use versus_judge::{run_game, AgentSpec, ChildSpec, Limits};

const TESTKIT: &str = env!("CARGO_BIN_EXE_versus-testkit");

/// A short clock keeps the tests quick; the rules of time are the same.
const TIME: TimeControl = TimeControl::new(2_000, 1_000);

fn program(args: &str) -> AgentSpec {
    AgentSpec::Program(ChildSpec::new(format!("{TESTKIT} {args}"), None))
}

struct Played {
    outcome: Outcome,
    lines: Vec<RecordLine>,
    took: Duration,
}

/// Plays the testkit behaviour as the first player against the built-in
/// greedy Domineering agent.
fn play(args: &str) -> Played {
    play_timed(args, TIME)
}

fn play_timed(args: &str, time: TimeControl) -> Played {
    let config = GameConfig { seed: 5, time, input: None };
    let agents = BySide::new(program(args), AgentSpec::Builtin { name: "greedy".into(), seed: 1 });
    let mut lines = Vec::new();
    let start = Instant::now();
    let outcome =
        run_game(&versus_domineering::GAME, &config, &agents, &Limits::default(), &mut |l| {
            lines.push(l)
        })
        .expect("the game starts");
    let took = start.elapsed();
    assert_no_survivors(args);
    Played { outcome, lines, took }
}

/// No process whose command line names this testkit behaviour is left.
fn assert_no_survivors(args: &str) {
    let needle = format!("{TESTKIT} {args}");
    let survivors = common::alive(|cmdline| cmdline == needle);
    assert!(survivors.is_empty(), "processes left behind: {survivors:?}");
}

fn fault(played: &Played) -> Fault {
    played.outcome.faults.first.clone().unwrap_or_else(|| panic!("no fault: {:?}", played.outcome))
}

fn assert_lost(played: &Played) {
    assert_eq!(played.outcome.result, GameResult::SecondWins, "{:?}", played.outcome);
    assert!(played.outcome.faults.second.is_none());
}

fn assert_within(played: &Played, limit_ms: u64) {
    let limit = Duration::from_millis(limit_ms + 2_000);
    assert!(played.took <= limit, "the judge took {:?}, more than {limit:?}", played.took);
}

#[test]
fn a_well_behaved_program_plays_to_the_end() {
    let played = play("pass");
    assert!(played.outcome.faults.first.is_none() && played.outcome.faults.second.is_none());
    assert!(matches!(played.lines.last(), Some(RecordLine::Footer { .. })));
    assert_within(&played, 0);
}

#[test]
fn never_answering_ready_is_a_stall() {
    let played = play("silent");
    assert_eq!(fault(&played), Fault::Stall);
    assert_lost(&played);
    assert_within(&played, TIME.ready_ms);
}

#[test]
fn hanging_mid_game_is_a_tle() {
    let played = play("hang 3");
    assert_eq!(fault(&played), Fault::TimeLimit);
    assert_lost(&played);
    assert_within(&played, TIME.ready_ms + TIME.game_ms);
}

#[test]
fn answering_one_ms_late_is_a_tle() {
    let played = play("late");
    assert_eq!(fault(&played), Fault::TimeLimit);
    assert_lost(&played);
    assert_within(&played, TIME.game_ms);
}

#[test]
fn exiting_early_is_a_crash_with_its_status() {
    let played = play("exit 2 7");
    assert_eq!(fault(&played), Fault::Crash { detail: "exited with status 7".into() });
    assert_lost(&played);
    assert_within(&played, 0);
}

#[test]
fn dying_by_signal_is_a_crash_naming_it() {
    let played = play("abort");
    assert_eq!(fault(&played), Fault::Crash { detail: "killed by signal 6 (SIGABRT)".into() });
    assert_lost(&played);
}

#[test]
fn garbage_is_a_runtime_error_with_the_line() {
    let played = play("garbage");
    match fault(&played) {
        Fault::Runtime { line, .. } => assert_eq!(line, "hello judge"),
        other => panic!("{other:?}"),
    }
    assert_lost(&played);
}

#[test]
fn an_illegal_move_is_a_runtime_error() {
    let played = play("illegal");
    match fault(&played) {
        Fault::Runtime { line, .. } => assert_eq!(line, "MOVE 9 9"),
        other => panic!("{other:?}"),
    }
    assert_lost(&played);
}

#[test]
fn an_endless_line_is_an_output_flood() {
    let played = play("endless-line");
    assert!(matches!(fault(&played), Fault::OutputFlood { .. }), "{:?}", played.outcome);
    assert_lost(&played);
    assert_within(&played, 0);
}

#[test]
fn endless_unasked_lines_are_read_as_replies_and_bounded() {
    let played = play("chatty");
    // Its passes are legal replies; the game ends either because the opponent
    // runs out of moves or because the unread output passes the bound.
    if let Some(fault) = &played.outcome.faults.first {
        assert!(matches!(fault, Fault::OutputFlood { .. }), "{fault:?}");
    }
    assert_within(&played, TIME.game_ms);
}

#[test]
fn a_stderr_flood_does_not_stall_the_judge_and_is_kept_as_debug_lines() {
    let played = play("stderr-flood");
    assert!(played.outcome.faults.first.is_none(), "{:?}", played.outcome);
    let debug = played
        .lines
        .iter()
        .filter(|l| matches!(l, RecordLine::Debug { side: Side::First, .. }))
        .count();
    assert!(debug > 0);
    assert_within(&played, 0);
}

#[test]
fn closing_stdout_while_running_is_a_crash() {
    let played = play("close-stdout");
    assert_eq!(fault(&played), Fault::Crash { detail: "closed its standard output".into() });
    assert_lost(&played);
    assert_within(&played, 0);
}

#[test]
fn ignoring_sigterm_gets_sigkill() {
    let played = play("ignore-term");
    assert!(played.outcome.faults.first.is_none(), "{:?}", played.outcome);
    // Two grace periods (exit, then TERM) before the KILL.
    assert_within(&played, 1_000);
    // It re-executes itself with SIGTERM ignored, under another command line.
    assert_none_alive(&format!("{TESTKIT} linger ignoring-term"));
}

#[test]
fn a_program_that_lingers_after_finish_is_stopped() {
    let played = play("linger");
    assert!(played.outcome.faults.first.is_none());
    assert_within(&played, 1_000);
}

#[test]
fn a_grandchild_holding_the_pipes_is_killed() {
    let played = play("grandchild");
    assert!(played.outcome.faults.first.is_none(), "{:?}", played.outcome);
    assert_within(&played, 1_000);
    assert_none_alive("sleep 601");
}

#[test]
fn a_grandchild_in_its_own_session_is_killed() {
    let played = play("escape");
    assert!(played.outcome.faults.first.is_none(), "{:?}", played.outcome);
    assert_within(&played, 1_000);
    assert_none_alive("sleep 602");
}

/// No process with this exact command line is alive (zombies aside). Each
/// testkit behaviour that starts processes gives them its own argument.
fn assert_none_alive(command: &str) {
    // Give the kernel a moment to finish the kills and update /proc.
    std::thread::sleep(Duration::from_millis(50));
    let alive = common::alive(|cmdline| cmdline == command);
    assert!(alive.is_empty(), "{command:?} survives: {alive:?}");
}

#[test]
fn allocating_past_the_memory_limit_is_its_own_verdict() {
    // Touching 2 GiB takes seconds on a small machine: the contest clock
    // leaves it time to pass the limit before its deadline.
    let played = play_timed("memory", TimeControl::CONTEST);
    assert_eq!(fault(&played), Fault::MemoryLimit);
    assert_lost(&played);
    assert_within(&played, TimeControl::CONTEST.game_ms);
}

#[test]
fn too_many_processes_is_its_own_verdict() {
    let played = play("fork");
    assert_eq!(fault(&played), Fault::ProcessLimit);
    assert_lost(&played);
    assert_within(&played, TIME.game_ms);
    assert_none_alive("sleep 603");
}

#[test]
fn waiting_n_ms_is_charged_n_ms() {
    let played = play("slow 40");
    assert!(played.outcome.faults.first.is_none(), "{:?}", played.outcome);
    let elapsed: Vec<u64> = played
        .lines
        .iter()
        .filter_map(|l| match l {
            RecordLine::Recv { side: Side::First, line, elapsed_ns, .. }
                if line.starts_with("MOVE") =>
            {
                Some(elapsed_ns / 1_000_000)
            }
            _ => None,
        })
        .collect();
    assert!(!elapsed.is_empty());
    for ms in elapsed {
        assert!((40..60).contains(&ms), "a 40 ms wait was measured as {ms} ms");
    }
}

#[test]
fn a_missing_working_directory_is_an_error_not_a_verdict() {
    let config = GameConfig { seed: 1, time: TIME, input: None };
    let agents = BySide::new(
        AgentSpec::Program(ChildSpec::new("true", Some("/nonexistent/dir".into()))),
        AgentSpec::Builtin { name: "greedy".into(), seed: 1 },
    );
    let error =
        run_game(&versus_domineering::GAME, &config, &agents, &Limits::default(), &mut |_| {})
            .expect_err("must not start");
    assert!(error.to_string().contains("/nonexistent/dir"), "{error}");
}

#[test]
fn a_reply_waiting_for_the_judge_to_read_the_other_side_is_not_lag() {
    // READY goes to both at once; the judge waits out the silent first
    // player before it reads the second's OK, which came at once. That wait
    // is the protocol's, not a late judge's: counting it would flag every
    // time-out on a simultaneous request as the harness's fault.
    let config = GameConfig { seed: 5, time: TIME, input: None };
    // The extra word keeps the survivor checks of tests running alongside
    // with the same behaviours apart from these processes.
    let (silent, pass) = ("silent lag", "pass lag");
    let agents = BySide::new(program(silent), program(pass));
    let mut lines = Vec::new();
    let outcome =
        run_game(&versus_domineering::GAME, &config, &agents, &Limits::default(), &mut |l| {
            lines.push(l)
        })
        .expect("the game starts");
    assert_no_survivors(silent);
    assert_no_survivors(pass);
    assert_eq!(outcome.faults.first, Some(Fault::Stall), "{outcome:?}");
    let ok = lines.iter().find_map(|line| match line {
        RecordLine::Recv { side: Side::Second, elapsed_ns, lag_us, .. } => {
            Some((*elapsed_ns, *lag_us))
        }
        _ => None,
    });
    let (elapsed_ns, lag_us) = ok.expect("the second player answered READY");
    assert!(elapsed_ns < 500_000_000, "the OK came at once, not {elapsed_ns} ns");
    assert!(lag_us < 5_000, "{lag_us} us of lag for a line read as soon as it could be");
}
