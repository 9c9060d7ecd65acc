//! The `versus` command as a user runs it.

mod serve;

use std::path::PathBuf;
use std::process::{Command, Output};

const VERSUS: &str = env!("CARGO_BIN_EXE_versus");
const GAMES: [&str; 4] = ["bacteria-war", "domineering", "connexion", "betris-large"];

fn versus(args: &[&str]) -> Output {
    Command::new(VERSUS).args(args).output().expect("versus runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("versus-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The replies of a record, without their timing.
fn replies(record: &str) -> Vec<String> {
    record
        .lines()
        .filter(|line| line.contains("\"type\":\"recv\""))
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            format!("{} {}", value["side"], value["line"])
        })
        .collect()
}

#[test]
fn games_lists_every_game_and_its_agents() {
    let output = versus(&["games"]);
    assert!(output.status.success());
    for game in GAMES {
        assert!(stdout(&output).contains(game), "{}", stdout(&output));
    }
    assert!(stdout(&output).contains("greedy"));
}

#[test]
fn a_match_between_builtins_prints_a_summary_and_a_record_that_replays() {
    for game in GAMES {
        let record = temp(&format!("{game}.jsonl"));
        let output = versus(&[
            "match",
            game,
            "builtin:greedy",
            "builtin:random",
            "--seed",
            "3",
            "--record",
            record.to_str().unwrap(),
        ]);
        assert!(output.status.success(), "{game}: {}", stderr(&output));
        let text = stdout(&output);
        assert!(text.contains("result "), "{text}");
        assert!(text.contains("builtin:greedy"), "{text}");
        let replayed = versus(&["replay", record.to_str().unwrap()]);
        assert!(replayed.status.success(), "{game}: {}", stderr(&replayed));
        assert!(stdout(&replayed).contains("replays to the recorded outcome"));
    }
}

#[test]
fn the_child_process_path_plays_the_same_game_as_the_in_process_path() {
    for game in GAMES {
        let seed = 11u64;
        let in_process = temp(&format!("{game}-local.jsonl"));
        let as_child = temp(&format!("{game}-child.jsonl"));
        // `versus match` seeds the built-in agents with 2·seed+1 and 2·seed+2.
        let first = format!("{VERSUS} agent {game} greedy --seed {}", 2 * seed + 1);
        let second = format!("{VERSUS} agent {game} random --seed {}", 2 * seed + 2);
        for (record, a, b) in [
            (&in_process, "builtin:greedy".to_owned(), "builtin:random".to_owned()),
            (&as_child, first, second),
        ] {
            let output = versus(&[
                "match",
                game,
                &a,
                &b,
                "--seed",
                &seed.to_string(),
                "--record",
                record.to_str().unwrap(),
            ]);
            assert!(output.status.success(), "{game}: {}", stderr(&output));
        }
        let local = replies(&std::fs::read_to_string(&in_process).unwrap());
        let child = replies(&std::fs::read_to_string(&as_child).unwrap());
        assert!(local.len() > 4, "{game}: {local:?}");
        assert_eq!(local, child, "{game}: the two paths differ");
    }
}

#[test]
fn json_output_is_one_parsable_object() {
    let output = versus(&[
        "match",
        "domineering",
        "builtin:greedy",
        "builtin:greedy",
        "--seed",
        "1",
        "--json",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let value: serde_json::Value = serde_json::from_str(stdout(&output).trim()).unwrap();
    assert_eq!(value["game"], "domineering");
    assert_eq!(value["seed"], 1);
    assert!(value["outcome"]["result"].is_string());
}

#[test]
fn bad_input_is_a_clear_error_and_a_failure_exit() {
    let cases: [(&[&str], &str); 6] = [
        (&["match", "chess", "builtin:random", "builtin:random"], "unknown game \"chess\""),
        (
            &["match", "domineering", "builtin:nobody", "builtin:random"],
            "no built-in agent \"nobody\"",
        ),
        (
            &[
                "match",
                "domineering",
                "builtin:random",
                "builtin:random",
                "--input",
                "/nonexistent/input",
            ],
            "cannot read the input file",
        ),
        (
            &["match", "domineering", "./no-such-bot", "builtin:random", "--seed", "1"],
            "cannot start",
        ),
        (&["agent", "connexion", "nobody"], "no built-in agent"),
        (&["replay", "/nonexistent/record.jsonl"], "cannot read"),
    ];
    for (args, message) in cases {
        let output = versus(args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert!(stderr(&output).contains(message), "{args:?}: {}", stderr(&output));
    }
    let bad_flag = versus(&["match", "--speed", "9"]);
    assert_eq!(bad_flag.status.code(), Some(2));
}

#[test]
fn a_corrupt_record_is_refused_with_its_line_number() {
    let path = temp("corrupt.jsonl");
    std::fs::write(&path, "{\"type\":\"header\"}\nnot json\n").unwrap();
    let output = versus(&["replay", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("record line 1"), "{}", stderr(&output));
}

#[test]
fn perft_prints_the_known_counts() {
    let output = versus(&["perft", "--depth", "4"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let counts: Vec<String> = stdout(&output)
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().nth(1).unwrap().to_owned())
        .collect();
    assert_eq!(counts, ["16", "256", "6460", "155888"]);
    let bad = versus(&["perft", "--position", "nonsense"]);
    assert_eq!(bad.status.code(), Some(1));
}

#[test]
fn serve_refuses_an_agent_it_cannot_offer_before_it_listens() {
    let cases: [(&[&str], &str); 4] = [
        (&["--agent", "x=src:/nonexistent/bot.py"], "/nonexistent/bot.py does not exist"),
        (&["--agent", "src:bot.py"], "is not NAME=SPEC or GAME:NAME=SPEC"),
        (&["--agent", "greedy=builtin:random"], "already has an agent of that name"),
        (&["--agent", "chess:x=builtin:random"], "unknown game \"chess\""),
    ];
    for (args, message) in cases {
        let output = versus(&[&["serve", "--port", "0"], args].concat());
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert!(stderr(&output).contains(message), "{args:?}: {}", stderr(&output));
    }
}

#[test]
fn serve_offers_its_registered_agents_on_the_page() {
    let bot = temp("serve-passer.py");
    std::fs::write(&bot, "print('OK')\n").unwrap();
    let agent = format!("domineering:passer=src:{}", bot.display());
    let (server, said) = serve::Server::start(&["--agent", &agent]);
    assert!(said.contains("offering passer = src:"), "{said}");
    let (_, body) = server.get("/api/kinds");
    drop(server);
    let kinds: serde_json::Value = serde_json::from_str(&body).unwrap();
    let listed = |game: &str| {
        kinds.as_array().unwrap().iter().find(|k| k["name"] == game).unwrap()["registered"].clone()
    };
    assert_eq!(listed("domineering"), serde_json::json!([{ "name": "passer", "playable": false }]));
    assert_eq!(listed("connexion"), serde_json::json!([]));
}
