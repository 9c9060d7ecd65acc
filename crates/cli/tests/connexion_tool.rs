//! `versus connexion-tool`: the public testing tool's command line and log.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const VERSUS: &str = env!("CARGO_BIN_EXE_versus");

const KINDS: [&str; 16] = [
    "R1", "R2", "R3", "R4", "G1", "G2", "G3", "G4", "B1", "B2", "B3", "B4", "Y1", "Y2", "Y3", "Y4",
];

fn tool(args: &[&str]) -> Output {
    Command::new(VERSUS).arg("connexion-tool").args(args).output().expect("versus runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A fresh directory for one test.
fn dir(test: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("versus-connexion-tool-{}-{test}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Two draw orders: every kind twice, in different orders per player.
fn draw_orders() -> [Vec<String>; 2] {
    let first: Vec<String> = KINDS.iter().chain(KINDS.iter()).map(|t| t.to_string()).collect();
    let second: Vec<String> =
        KINDS.iter().rev().chain(KINDS.iter()).map(|t| t.to_string()).collect();
    [first, second]
}

fn write_input(path: &Path) -> [Vec<String>; 2] {
    let orders = draw_orders();
    fs::write(path, format!("{}\n{}\n", orders[0].join(" "), orders[1].join(" "))).unwrap();
    orders
}

fn program(name: &str) -> String {
    format!("{VERSUS} agent connexion {name}")
}

fn is_cell(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() == 3
        && (b'a'..=b'f').contains(&b[0])
        && (b'1'..=b'6').contains(&b[1])
        && (b[2] == b'-' || b[2] == b'+')
}

fn is_tile(word: &str) -> bool {
    KINDS.contains(&word)
}

/// Checks that `log` is a complete game in the tool's format with the
/// draws of `orders` and these commands; returns the result notation.
fn check_log(log: &str, commands: [&str; 2], orders: Option<&[Vec<String>; 2]>) -> String {
    let lines: Vec<&str> = log.lines().filter(|l| !l.starts_with("# Debug ")).collect();
    assert_eq!(lines.len(), 3 + 1 + 64 + 3, "{log}");
    assert_eq!(lines[0], format!("[FIRST \"COMMAND: {}\"]", commands[0]));
    assert_eq!(lines[1], format!("[SECOND \"COMMAND: {}\"]", commands[1]));
    let result = lines[2]
        .strip_prefix("[RESULT \"")
        .and_then(|rest| rest.strip_suffix("\"]"))
        .unwrap_or_else(|| panic!("bad result line {:?}", lines[2]));
    assert!(["1-0", "0-1", "1/2-1/2"].contains(&result), "{result}");
    let init: Vec<&str> = lines[3].split(' ').collect();
    assert_eq!(init.len(), 11, "{}", lines[3]);
    assert_eq!(init[0], "INIT");
    assert!(init[1..].iter().all(|w| is_tile(w)), "{}", lines[3]);
    if let Some(orders) = orders {
        assert_eq!(init[1..6], orders[0][..5]);
        assert_eq!(init[6..], orders[1][..5]);
    }
    let mut cells = std::collections::HashSet::new();
    for (turn, line) in lines[4..68].iter().enumerate() {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words.len(), 5, "{line}");
        let mover = if turn % 2 == 0 { "FIRST" } else { "SECOND" };
        assert_eq!(words[0], mover, "{line}");
        assert!(is_cell(words[1]) && cells.insert(words[1]), "{line}");
        assert!(is_tile(words[2]), "{line}");
        assert!(words[4].parse::<u64>().is_ok(), "{line}");
        let draw = turn / 2 + 5;
        if let Some(orders) = orders {
            let expected = orders[turn % 2].get(draw).map_or("X0", String::as_str);
            assert_eq!(words[3], expected, "turn {turn}: {line}");
        } else {
            assert!(is_tile(words[3]) || words[3] == "X0", "{line}");
        }
    }
    assert_eq!(lines[68], "FINISH");
    let score = |line: &str, key: &str| -> i64 {
        line.strip_prefix(key)
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("bad score line {line:?}"))
    };
    let first = score(lines[69], "SCOREFIRST ");
    let second = score(lines[70], "SCORESECOND ");
    let expected = match first.cmp(&second) {
        std::cmp::Ordering::Greater => "1-0",
        std::cmp::Ordering::Less => "0-1",
        std::cmp::Ordering::Equal => "1/2-1/2",
    };
    assert_eq!(result, expected);
    result.to_owned()
}

#[test]
fn a_config_file_game_between_programs_writes_the_tools_log() {
    let dir = dir("config");
    let input = dir.join("input.txt");
    let log = dir.join("log.txt");
    let orders = write_input(&input);
    let config = dir.join("config.txt");
    let (greedy, random) = (program("greedy"), program("random --seed 5"));
    fs::write(
        &config,
        format!(
            "# a game between two programs\n\nINPUT={}\nLOG = {}\nEXEC1={greedy}\nEXEC2={random}\n\
             CWD1={}\nCWD2={}\n",
            s(&input),
            s(&log),
            s(&dir),
            s(&dir),
        ),
    )
    .unwrap();
    let output = tool(&["-c", s(&config)]);
    assert!(output.status.success(), "{}", stderr(&output));
    // With a log file and no -s, nothing is printed; a given input needs no seed.
    assert_eq!(stdout(&output), "");
    assert_eq!(stderr(&output), "");
    let text = fs::read_to_string(&log).unwrap();
    check_log(&text, [&greedy, &random], Some(&orders));
}

#[test]
fn flags_override_the_config_file() {
    let dir = dir("override");
    let input = dir.join("input.txt");
    let orders = write_input(&input);
    let config_log = dir.join("config-log.txt");
    let flag_log = dir.join("flag-log.txt");
    let config = dir.join("config.txt");
    fs::write(
        &config,
        format!(
            "INPUT={}\nLOG={}\nEXEC1=/nonexistent/program\nEXEC2=builtin:random\nCWD1=/nonexistent\n",
            s(&dir.join("missing-input.txt")),
            s(&config_log)
        ),
    )
    .unwrap();
    let greedy = program("greedy");
    let output = tool(&[
        "-c",
        s(&config),
        "-i",
        s(&input),
        "-l",
        s(&flag_log),
        "-a",
        &greedy,
        "--cwd1",
        s(&dir),
        "-b",
        "builtin:greedy",
        "-s",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!config_log.exists());
    let text = fs::read_to_string(&flag_log).unwrap();
    check_log(&text, [&greedy, "builtin:greedy"], Some(&orders));
    // -s and -l combine: the same log in both places.
    assert_eq!(stdout(&output), text);
}

#[test]
fn the_strong_agent_plays_whole_games_under_the_tool() {
    // Child processes with a short clock, both colours, the tool's own log:
    // the agent speaks the public protocol, not only our in-process one.
    let (strong, greedy) = (program("strong"), program("greedy"));
    for (a, b, winner) in [(&strong, &greedy, "1-0"), (&greedy, &strong, "0-1")] {
        let output = tool(&["-a", a, "-b", b, "-s", "--seed", "3", "--time-ms", "2000"]);
        assert!(output.status.success(), "{}", stderr(&output));
        let log = stdout(&output);
        assert_eq!(check_log(&log, [a, b], None), winner, "{log}");
    }
}

#[test]
fn without_an_input_the_draws_follow_the_seed() {
    let run = |seed: &str| {
        let output = tool(&["-a", "builtin:greedy", "-b", "builtin:random", "-s", "--seed", seed]);
        assert!(output.status.success(), "{}", stderr(&output));
        assert_eq!(stderr(&output), "");
        stdout(&output)
    };
    let log = run("11");
    check_log(&log, ["builtin:greedy", "builtin:random"], None);
    // The charged ms may differ between runs; everything else may not.
    let moves = |log: &str| -> Vec<String> {
        log.lines()
            .map(|line| match line.rsplit_once(' ') {
                Some((moved, ms)) if ms.parse::<u64>().is_ok() => moved.to_owned(),
                _ => line.to_owned(),
            })
            .collect()
    };
    assert_eq!(moves(&log), moves(&run("11")), "the same seed plays the same game");
    let other = run("12");
    assert_ne!(log.lines().nth(3), other.lines().nth(3));

    // A seed chosen at random is printed on standard error.
    let output = tool(&["-a", "builtin:random", "-b", "builtin:random"]);
    assert!(output.status.success());
    let seed = stderr(&output);
    assert!(
        seed.starts_with("versus: seed ") && seed.trim_end()[13..].parse::<u64>().is_ok(),
        "{seed}"
    );
    // Neither -l nor -s: the result lines only.
    let printed = stdout(&output);
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(lines.len(), 3, "{printed}");
    assert!(lines[0].starts_with("[RESULT \""));
    assert!(lines[1].starts_with("SCOREFIRST "));
    assert!(lines[2].starts_with("SCORESECOND "));
}

#[test]
fn the_game_record_replays() {
    let record = dir("record").join("game.jsonl");
    let output = tool(&[
        "-a",
        "builtin:greedy",
        "-b",
        "builtin:random",
        "--seed",
        "9",
        "--record",
        s(&record),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let replayed = Command::new(VERSUS).args(["replay", s(&record)]).output().unwrap();
    assert!(replayed.status.success(), "{}", stderr(&replayed));
}

#[test]
fn the_time_control_can_be_changed() {
    let output = tool(&[
        "-a",
        "builtin:greedy",
        "-b",
        "builtin:greedy",
        "-s",
        "--seed",
        "1",
        "--time-ms",
        "0",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let log = stdout(&output);
    assert!(log.contains("[RESULT \"0-1\"]"), "{log}");
    assert!(log.ends_with("ABORT FIRST TLE\n"), "{log}");
}

#[test]
fn bad_invocations_exit_1_with_a_message() {
    let dir = dir("errors");
    let input = dir.join("input.txt");
    write_input(&input);
    let short = dir.join("short.txt");
    let orders = draw_orders();
    fs::write(&short, format!("{}\n{}\n", orders[0][1..].join(" "), orders[1].join(" "))).unwrap();
    let one_line = dir.join("one-line.txt");
    fs::write(&one_line, orders[0].join(" ")).unwrap();
    let not_a_tile = dir.join("not-a-tile.txt");
    fs::write(&not_a_tile, format!("{} Q9\n{}\n", orders[0][1..].join(" "), orders[1].join(" ")))
        .unwrap();
    let unknown_key = dir.join("unknown-key.txt");
    fs::write(&unknown_key, "EXEC1=builtin:greedy\nEXEC3=builtin:greedy\n").unwrap();
    let no_equals = dir.join("no-equals.txt");
    fs::write(&no_equals, "# fine\nEXEC1 builtin:greedy\n").unwrap();
    let missing = dir.join("missing.txt");
    let bad_log = dir.join("no-such-dir").join("log.txt");
    let (a, b) = ("builtin:greedy", "builtin:random");

    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["-b", b], "no program for the first player"),
        (vec!["-a", a], "no program for the second player"),
        (vec!["-c", s(&missing), "-a", a, "-b", b], "cannot read the config file"),
        (vec!["-c", s(&unknown_key), "-b", b], "line 2: unknown key \"EXEC3\""),
        (vec!["-c", s(&no_equals), "-b", b], "line 2: expected KEY=VALUE"),
        (vec!["-i", s(&missing), "-a", a, "-b", b], "cannot read the input file"),
        (vec!["-i", s(&short), "-a", a, "-b", b], "31 tiles, expected 32"),
        (vec!["-i", s(&one_line), "-a", a, "-b", b], "expected 2 lines of tiles, found 1"),
        (vec!["-i", s(&not_a_tile), "-a", a, "-b", b], "\"Q9\" is not a tile"),
        (vec!["-l", s(&bad_log), "-a", a, "-b", b], "cannot create the log file"),
        (vec!["-a", "builtin:nobody", "-b", b], "no built-in agent \"nobody\""),
        (vec!["-a", a, "-b", b, "--cwd2", s(&dir)], "the second player is a built-in agent"),
        (vec!["-a", "./agent", "--cwd1", s(&missing), "-b", b], "(CWD1) is not a directory"),
        (vec!["-a", "/nonexistent/agent", "-b", b], "cannot start \"/nonexistent/agent\""),
    ];
    for (args, message) in cases {
        let output = tool(&args);
        let error = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {error}");
        assert!(error.starts_with("versus: "), "{args:?}: {error}");
        assert!(error.contains(message), "{args:?}: expected {message:?} in {error}");
        assert!(!error.contains("panicked"), "{args:?}: {error}");
        assert_eq!(stdout(&output), "", "{args:?}");
    }
    // A usage error is clap's: exit status 2.
    for args in [&["-z"][..], &["-a"][..], &["--seed", "x"][..]] {
        let output = tool(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", stderr(&output));
    }
}
