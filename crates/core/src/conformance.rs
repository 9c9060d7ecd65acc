//! One test suite every game must pass, as OpenSpiel runs its basic tests on
//! all of its games. Each game crate calls [`check_game`] from its tests.
//!
//! It needs the game's `random` built-in agent, plays many seeded games
//! between two of them, and checks that games end, that records replay to the
//! same outcome, that the same seeds give the same game, and that each kind of
//! failure on any reply ends the game against the side that failed.

use std::time::Duration;

use crate::clock::TimeControl;
use crate::game::{Game, GameConfig};
use crate::play::{play, Endpoint, LocalEndpoint};
use crate::rebuild::Moments;
use crate::record::{replay_steps, Header, RecordLine};
use crate::referee::{Fault, GameResult, Outcome, Reply};
use crate::side::{BySide, Side};

/// A clock so long that in-process agents never run out of it, whatever the
/// machine's load: the suite tests rules and protocol, not speed.
pub const RELAXED: TimeControl = TimeControl::new(1_000_000, 100_000);

/// The config of suite game `seed`.
#[must_use]
pub fn config(seed: u64) -> GameConfig {
    GameConfig { seed, time: RELAXED, input: None }
}

/// Plays one game between two built-in agents in-process and returns its record.
pub fn play_builtin(
    game: &dyn Game,
    config: &GameConfig,
    agents: BySide<(&str, u64)>,
) -> (Outcome, Vec<RecordLine>) {
    let make = |(name, seed): (&str, u64)| {
        let agent =
            game.agent(name, seed).unwrap_or_else(|| panic!("{} has no agent {name}", game.name()));
        SteadyClock(LocalEndpoint::new(agent))
    };
    let mut endpoints = agents.map(make);
    play_endpoints(game, config, BySide::new(&mut endpoints.first, &mut endpoints.second))
}

/// One game between two built-in agents in-process, timed by the wall clock
/// with `game_ms` each (not the suite's steady 1 ms), so that a slow reply is
/// a real TLE: what the searching agents' time-management tests use. The
/// agents' seeds are `2 seed + 1` and `2 seed + 2`.
pub fn play_timed(game: &dyn Game, first: &str, second: &str, seed: u64, game_ms: u64) -> Outcome {
    let config = GameConfig { seed, time: TimeControl::new(game_ms, 3_000), input: None };
    let make = |name: &str, side: u64| {
        let agent = game
            .agent(name, seed * 2 + side)
            .unwrap_or_else(|| panic!("{} has no agent {name}", game.name()));
        LocalEndpoint::new(agent)
    };
    let (mut a, mut b) = (make(first, 1), make(second, 2));
    play_endpoints(game, &config, BySide::new(&mut a, &mut b)).0
}

/// For each seed, plays `agent` first against `as_first_against` and second
/// against `as_second_against` on the wall clock with `game_ms` each, and
/// panics if `agent` faults (a searching agent's time management under a
/// small clock).
pub fn assert_keeps_its_clock(
    game: &dyn Game,
    agent: &str,
    as_first_against: &str,
    as_second_against: &str,
    seeds: std::ops::Range<u64>,
    game_ms: u64,
) {
    for seed in seeds {
        let outcome = play_timed(game, agent, as_first_against, seed, game_ms);
        assert_eq!(outcome.faults.first, None, "seed {seed}: {outcome:?}");
        let outcome = play_timed(game, as_second_against, agent, seed, game_ms);
        assert_eq!(outcome.faults.second, None, "seed {seed}: {outcome:?}");
    }
}

/// Plays one game between two endpoints and returns its outcome and record.
pub fn play_endpoints(
    game: &dyn Game,
    config: &GameConfig,
    endpoints: BySide<&mut dyn Endpoint>,
) -> (Outcome, Vec<RecordLine>) {
    let mut referee = game.referee(config).expect("the suite's config is valid");
    let mut lines = Vec::new();
    let outcome = play(referee.as_mut(), endpoints, &mut |line| lines.push(line));
    (outcome, lines)
}

/// An in-process agent whose every reply is timed at exactly 1 ms, so that
/// the clocks, and with them every line, are the same run to run however
/// loaded the machine is.
struct SteadyClock(LocalEndpoint);

impl Endpoint for SteadyClock {
    fn send(&mut self, line: &str) {
        self.0.send(line);
    }
    fn receive(&mut self, limit: Duration) -> Reply {
        match self.0.receive(limit) {
            Reply::Line { text, .. } => Reply::Line { text, elapsed: Duration::from_millis(1) },
            other => other,
        }
    }
}

/// An endpoint that behaves like `inner` until its `nth` reply (counting
/// from 0), which is replaced by `fault_reply`.
struct Sabotaged<E> {
    inner: E,
    replies: usize,
    nth: usize,
    fault_reply: Reply,
}

impl<E: Endpoint> Endpoint for Sabotaged<E> {
    fn send(&mut self, line: &str) {
        self.inner.send(line);
    }
    fn receive(&mut self, limit: Duration) -> Reply {
        let reply = self.inner.receive(limit);
        self.replies += 1;
        if self.replies == self.nth + 1 {
            self.fault_reply.clone()
        } else {
            reply
        }
    }
}

/// An endpoint that behaves like `inner`, except that its `nth` reply (from
/// 0) comes too late to count, its text unchanged: a legal move that the
/// judge must not play.
struct Late<E> {
    inner: E,
    replies: usize,
    nth: usize,
}

impl<E: Endpoint> Endpoint for Late<E> {
    fn send(&mut self, line: &str) {
        self.inner.send(line);
    }
    fn receive(&mut self, limit: Duration) -> Reply {
        let reply = self.inner.receive(limit);
        self.replies += 1;
        match reply {
            Reply::Line { text, .. } if self.replies == self.nth + 1 => {
                Reply::Line { text, elapsed: Duration::from_millis(RELAXED.game_ms * 2) }
            }
            other => other,
        }
    }
}

/// One moment a viewer shows: the index of the last record line it takes
/// in, and the referee's view there.
pub type Frame = (usize, serde_json::Value);

/// Compares a record (header first) with its frames: `Err` says where they differ.
pub type FrameCheck<'a> = dyn Fn(&[RecordLine], &[Frame]) -> Result<(), String> + 'a;

/// The frames a viewer shows of a record, as [`replay_steps`] gives them.
pub fn frames(game: &dyn Game, lines: &[RecordLine]) -> Vec<Frame> {
    let Some(RecordLine::Header(header)) = lines.first() else {
        panic!("{}: a record starts with its header", game.name());
    };
    let mut referee = game.referee(&header.config).expect("the record's config is valid");
    let mut frames = Vec::new();
    replay_steps(referee.as_mut(), lines, &mut |index, referee| {
        frames.push((index, referee.view()));
    })
    .unwrap_or_else(|e| panic!("{}: {e}", game.name()));
    frames
}

/// The record of a game, with the header a judge writes first.
fn recorded(
    game: &dyn Game,
    config: &GameConfig,
    agents: BySide<&str>,
    endpoints: BySide<&mut dyn Endpoint>,
) -> Vec<RecordLine> {
    let header = RecordLine::Header(Header {
        game: game.name().to_owned(),
        rules_version: game.rules_version().to_owned(),
        config: config.clone(),
        agents: agents.map(|name| format!("builtin:{name}")),
    });
    let (_, lines) = play_endpoints(game, config, endpoints);
    std::iter::once(header).chain(lines).collect()
}

/// Checks every frame a viewer would show of many games against an
/// independent account of each game: `check` is given a whole record (header
/// first) and its frames, and must rebuild the game from the record's lines
/// without the view (each game crate's `rebuild` module) and compare.
///
/// For each seed, every ordered pair of `agents` plays, and then the first
/// against the last with one reply in the middle of the game arriving late
/// (its text a legal move, which must not be shown as played). Returns the
/// number of frames checked.
pub fn check_views(
    game: &dyn Game,
    agents: &[&str],
    seeds: std::ops::Range<u64>,
    check: &FrameCheck<'_>,
) -> usize {
    let mut checked = 0;
    let mut verify = |what: String, lines: Vec<RecordLine>| {
        let frames = frames(game, &lines);
        if let Err(message) = check(&lines, &frames) {
            panic!("{} {what}: {message}", game.name());
        }
        checked += frames.len();
    };
    let local = |name: &str, seed: u64| {
        let agent =
            game.agent(name, seed).unwrap_or_else(|| panic!("{} has no agent {name}", game.name()));
        SteadyClock(LocalEndpoint::new(agent))
    };
    for seed in seeds {
        let config = config(seed);
        for &first in agents {
            for &second in agents {
                let (mut a, mut b) = (local(first, seed * 2 + 1), local(second, seed * 2 + 2));
                let lines = recorded(
                    game,
                    &config,
                    BySide::new(first, second),
                    BySide::new(&mut a, &mut b),
                );
                verify(format!("{first} vs {second}, seed {seed}"), lines);
            }
        }
        let (first, second) = (agents[0], agents[agents.len() - 1]);
        let late_side = if seed % 2 == 0 { Side::First } else { Side::Second };
        let (mut a, mut b) = (local(first, seed * 2 + 1), local(second, seed * 2 + 2));
        let clean =
            recorded(game, &config, BySide::new(first, second), BySide::new(&mut a, &mut b));
        let nth = reply_count(&clean, late_side) * (1 + seed as usize % 3) / 4;
        let (mut a, mut b) = (local(first, seed * 2 + 1), local(second, seed * 2 + 2));
        let lines = match late_side {
            Side::First => {
                let mut late = Late { inner: a, replies: 0, nth };
                recorded(game, &config, BySide::new(first, second), BySide::new(&mut late, &mut b))
            }
            Side::Second => {
                let mut late = Late { inner: b, replies: 0, nth };
                recorded(game, &config, BySide::new(first, second), BySide::new(&mut a, &mut late))
            }
        };
        verify(format!("{first} vs {second}, seed {seed}, {late_side} reply #{nth} late"), lines);
    }
    checked
}

/// `Ok` if a view shows `expected` as `shown`; else a message naming `what`.
pub fn same(
    what: &str,
    shown: &serde_json::Value,
    expected: serde_json::Value,
) -> Result<(), String> {
    if *shown == expected {
        Ok(())
    } else {
        Err(format!("{what}: the view shows {shown}, the record gives {expected}"))
    }
}

/// The view's `clocks` agree with each clock the record states.
pub fn same_clocks(view: &serde_json::Value, clocks: BySide<Option<u64>>) -> Result<(), String> {
    for side in Side::BOTH {
        if let Some(ms) = clocks[side] {
            let shown = &view["clocks"][side.to_string()];
            same(&format!("{side}'s clock"), shown, serde_json::json!(ms))?;
        }
    }
    Ok(())
}

/// Compares each frame with the moment it shows, and names the first frame
/// that differs.
pub fn compare_frames<T>(
    frames: &[Frame],
    moments: &Moments<T>,
    compare: impl Fn(&T, &serde_json::Value) -> Result<(), String>,
) -> Result<(), String> {
    for (n, (index, view)) in frames.iter().enumerate() {
        let last = if n + 1 == frames.len() { ", the last" } else { "" };
        compare(moments.at(*index), view)
            .map_err(|e| format!("frame {n} (after record line {index}{last}): {e}"))?;
    }
    Ok(())
}

/// The replies that each `side` gave in a record.
fn reply_count(lines: &[RecordLine], side: Side) -> usize {
    lines.iter().filter(|l| l.reply().is_some_and(|(s, _)| s == side)).count()
}

/// The whole suite, over `games` seeds.
pub fn check_game(game: &dyn Game, games: u64) {
    assert!(
        game.agent_names().contains(&"random"),
        "{}: the suite needs a built-in `random` agent",
        game.name()
    );
    for seed in 0..games {
        let config = config(seed);
        let seats = BySide::new(("random", seed * 2 + 1), ("random", seed * 2 + 2));
        let (outcome, lines) = play_builtin(game, &config, seats);
        assert!(
            outcome.faults.first.is_none() && outcome.faults.second.is_none(),
            "{} seed {seed}: a random agent faulted: {:?}",
            game.name(),
            outcome.faults
        );
        check_record(game, &config, &lines, &outcome);

        // Same seeds, same game: the lines said and replied are identical.
        let (again, lines_again) = play_builtin(game, &config, seats);
        assert_eq!(again, outcome, "{} seed {seed}: a replay changed the outcome", game.name());
        assert_eq!(
            texts(&lines),
            texts(&lines_again),
            "{} seed {seed}: the same seeds gave another game",
            game.name()
        );
    }
    check_faults(game);
}

/// The lines of a record without timings.
fn texts(lines: &[RecordLine]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| match l {
            RecordLine::Send { side, line } => Some(format!("> {side} {line}")),
            RecordLine::Recv { side, line, .. } => Some(format!("< {side} {line}")),
            _ => None,
        })
        .collect()
}

/// The record is well formed and replays through a fresh referee to `outcome`.
fn check_record(game: &dyn Game, config: &GameConfig, lines: &[RecordLine], outcome: &Outcome) {
    assert!(
        matches!(lines.last(), Some(RecordLine::Footer { outcome: o }) if o == outcome),
        "{}: the record must end with its footer",
        game.name()
    );
    for side in Side::BOTH {
        let finish = lines.iter().rev().find_map(|l| match l {
            RecordLine::Send { side: s, line } if *s == side => Some(line.as_str()),
            _ => None,
        });
        assert_eq!(
            finish,
            Some("FINISH"),
            "{}: the last line to {side} must be FINISH",
            game.name()
        );
    }
    let mut referee = game.referee(config).expect("valid config");
    // Every moment a viewer shows has a view with the scores and clocks.
    let mut views = 0;
    let replayed = replay_steps(referee.as_mut(), lines, &mut |index, referee| {
        let view = referee.view();
        for key in ["scores", "clocks"] {
            assert!(
                view.get(key).is_some(),
                "{}: the view at record line {index} has no {key:?}: {view}",
                game.name()
            );
        }
        views += 1;
    })
    .unwrap_or_else(|e| panic!("{}: {e}", game.name()));
    assert!(views >= 2, "{}: a game shows at least its start and one move", game.name());
    assert_eq!(&replayed, outcome, "{}: the record replays to another outcome", game.name());
}

/// Every kind of failure, at the first reply (the answer to READY), at a
/// reply in the middle of the game and at the last reply, on each side, ends
/// the game at once with the right verdict against that side.
fn check_faults(game: &dyn Game) {
    let config = config(7);
    let seats = BySide::new(("random", 11), ("random", 12));
    let (_, clean) = play_builtin(game, &config, seats);
    let crash = Fault::Crash { detail: "killed by signal 9".into() };
    for side in Side::BOTH {
        let total = reply_count(&clean, side);
        assert!(total >= 2, "{}: {side} replied only {total} times", game.name());
        for nth in [0, total / 2, total - 1] {
            let ready = nth == 0;
            let cases = [
                (Reply::Timeout, if ready { Fault::Stall } else { Fault::TimeLimit }),
                (Reply::Gone(crash.clone()), crash.clone()),
                (
                    Reply::Line { text: "\u{1}garbage".into(), elapsed: Duration::from_millis(1) },
                    Fault::Runtime { reason: String::new(), line: "\u{1}garbage".into() },
                ),
                (
                    Reply::Line { text: "OK".into(), elapsed: Duration::from_secs(2_000_000) },
                    if ready { Fault::Stall } else { Fault::TimeLimit },
                ),
            ];
            for (fault_reply, expected) in cases {
                let local = |side: Side| {
                    let (name, seed) = seats[side];
                    SteadyClock(LocalEndpoint::new(game.agent(name, seed).expect("checked above")))
                };
                let mut sabotaged = Sabotaged {
                    inner: local(side),
                    replies: 0,
                    nth,
                    fault_reply: fault_reply.clone(),
                };
                let mut other = local(side.opponent());
                let endpoints: BySide<&mut dyn Endpoint> = match side {
                    Side::First => BySide::new(&mut sabotaged, &mut other),
                    Side::Second => BySide::new(&mut other, &mut sabotaged),
                };
                let (outcome, lines) = play_endpoints(game, &config, endpoints);
                let context =
                    format!("{}: {side} reply #{nth} replaced by {fault_reply:?}", game.name());
                let fault = outcome.faults[side]
                    .clone()
                    .unwrap_or_else(|| panic!("{context}: no fault recorded"));
                match (&fault, &expected) {
                    (Fault::Runtime { line, .. }, Fault::Runtime { line: expected_line, .. }) => {
                        assert_eq!(line, expected_line, "{context}")
                    }
                    _ => assert_eq!(fault, expected, "{context}"),
                }
                if outcome.faults[side.opponent()].is_none() {
                    assert_eq!(outcome.result, GameResult::win_for(side.opponent()), "{context}");
                } else {
                    assert_eq!(outcome.result, GameResult::Draw, "{context}");
                }
                assert_eq!(
                    reply_count(&lines, side),
                    nth + 1,
                    "{context}: the game went on after the fault"
                );
                check_record(game, &config, &lines, &outcome);
            }
        }
    }
}
