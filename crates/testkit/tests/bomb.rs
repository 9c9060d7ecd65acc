//! Fork bombs against the judge, in a test binary of their own: this process
//! is the judge (a child subreaper), and no other test's agents may be its
//! children while it counts what the bombs left behind.

mod common;

use versus_core::{BySide, Fault, GameConfig, GameResult, Side, TimeControl};
use versus_judge::{run_game, AgentSpec, ChildSpec, Limits};

const TESTKIT: &str = env!("CARGO_BIN_EXE_versus-testkit");

/// The children of this process, each with its state letter and command name.
fn children() -> Vec<(String, String)> {
    let me = std::process::id().to_string();
    let mut found = Vec::new();
    for task in std::fs::read_dir("/proc/self/task").unwrap().flatten() {
        let list = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        for pid in list.split_whitespace() {
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue;
            };
            let Some((name, rest)) = stat.split_once(" (").and_then(|(_, r)| r.rsplit_once(')'))
            else {
                continue;
            };
            let fields: Vec<&str> = rest.split_whitespace().collect();
            if fields.get(1) == Some(&me.as_str()) {
                found.push((fields[0].to_owned(), name.to_owned()));
            }
        }
    }
    found
}

#[test]
fn fork_bombs_are_killed_and_every_process_of_them_reaped() {
    // A 1,023-process tree; then one whose every process starts a process
    // group of its own, out of reach of a signal to the agent's group.
    for args in ["bomb 9", "bomb 9 escape"] {
        let config = GameConfig { seed: 5, time: TimeControl::new(2_000, 1_000), input: None };
        let program = AgentSpec::Program(ChildSpec::new(format!("{TESTKIT} {args}"), None));
        let agents = BySide::new(program, AgentSpec::Builtin { name: "greedy".into(), seed: 1 });
        let outcome =
            run_game(&versus_domineering::GAME, &config, &agents, &Limits::default(), &mut |_| {})
                .expect("the game starts");
        assert_eq!(outcome.faults.first, Some(Fault::ProcessLimit), "{args}: {outcome:?}");
        assert_eq!(outcome.result, GameResult::SecondWins);
        assert_eq!(outcome.faults[Side::Second], None);
        // Zombies the judge adopted and never waited for would hold their pids
        // for as long as it runs: a long league would run the machine out.
        let left = children();
        assert!(left.is_empty(), "{args}: {} processes left: {left:?}", left.len());
        let alive = common::alive(|cmdline| cmdline.contains("bomb-node"));
        assert!(alive.is_empty(), "{args}: bomb processes alive: {alive:?}");
    }
}
