//! `versus league` and `versus sprt` as processes: output, bad input, and
//! resuming after a real SIGKILL.

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use versus_league::store::{RunId, Store};

const VERSUS: &str = env!("CARGO_BIN_EXE_versus");

fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("versus-runs-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

fn versus(args: &[&str]) -> Output {
    Command::new(VERSUS).args(args).output().expect("versus runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_league_prints_ratings_a_crosstable_and_writes_csv_and_json() {
    let db = temp_db("league.sqlite");
    let csv = db.with_extension("csv");
    let json = db.with_extension("json");
    let output = versus(&[
        "league",
        "bacteria-war",
        "builtin:random",
        "builtin:greedy",
        "--games",
        "10",
        "--db",
        db.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    assert!(out.contains("crosstable"), "{out}");
    let first_row = out.lines().nth(1).unwrap();
    assert!(first_row.contains("greedy"), "{out}");
    assert_eq!(std::fs::read_to_string(&csv).unwrap().lines().count(), 3);
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(value["games"], 10);
}

#[test]
fn an_sprt_prints_its_decision() {
    let db = temp_db("sprt.sqlite");
    let output = versus(&[
        "sprt",
        "domineering",
        "builtin:greedy",
        "builtin:random",
        "--elo0",
        "0",
        "--elo1",
        "10",
        "--db",
        db.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    assert!(out.contains("H1 accepted"), "{out}");
    assert!(out.contains("LLR"), "{out}");
}

#[test]
fn bad_run_arguments_are_clear_errors() {
    let db = temp_db("bad.sqlite");
    let db = db.to_str().unwrap();
    let cases: [(&[&str], &str); 6] = [
        (&["league", "chess", "builtin:random", "builtin:greedy", "--db", db], "unknown game"),
        (&["league", "domineering", "builtin:random", "--db", db], "at least two agents"),
        (
            &["league", "domineering", "builtin:random", "builtin:random", "--db", db],
            "two agents are named",
        ),
        (&["league", "--resume", "99", "--db", db], "no run 99"),
        (&["sprt", "domineering", "builtin:greedy", "--db", db], "give the game"),
        (
            &[
                "league",
                "domineering",
                "a=builtin:random",
                "b=builtin:greedy",
                "--db",
                "/nonexistent/x.sqlite",
            ],
            "does not exist",
        ),
    ];
    for (args, message) in cases {
        let output = versus(args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert!(text(&output.stderr).contains(message), "{args:?}: {}", text(&output.stderr));
    }
}

/// Kills a league of child-process agents with SIGKILL while it runs, then
/// resumes it: every slot is played exactly once, and every game stored before
/// the kill is still there.
#[test]
fn a_league_killed_with_sigkill_resumes_without_losing_or_repeating_games() {
    let db = temp_db("killed.sqlite");
    let agent = |name: &str| format!("{name}={VERSUS} agent domineering {name}");
    let args = ["league".to_owned(), "domineering".to_owned(), agent("random"), agent("greedy")];
    let total = 400;
    let mut child = Command::new(VERSUS)
        .args(&args)
        .args(["--games", &total.to_string(), "--db", db.to_str().unwrap(), "-j", "2"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill as soon as the store holds 10 games: mid-run whatever the
    // machine's speed (delays chosen in advance missed on a fast one).
    let stored =
        || Store::open(&db).ok().and_then(|s| s.results(RunId(1)).ok()).map_or(0, |r| r.len());
    let start = Instant::now();
    while stored() < 10 {
        assert!(start.elapsed() < Duration::from_secs(60), "the league stored nothing");
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before_kill = stored();
    assert!((10..total).contains(&before_kill), "killed after {before_kill} games");
    let store = Store::open(&db).unwrap();
    let ids_before: HashSet<i64> =
        store.results(RunId(1)).unwrap().iter().map(|g| g.id.0).collect();
    drop(store);

    let output = versus(&["league", "--resume", "1", "--db", db.to_str().unwrap()]);
    assert!(output.status.success(), "{}", text(&output.stderr));

    let store = Store::open(&db).unwrap();
    let results = store.results(RunId(1)).unwrap();
    assert_eq!(results.len(), total, "killed after {before_kill} games");
    let slots: HashSet<&str> = results.iter().map(|g| g.slot.as_str()).collect();
    assert_eq!(slots.len(), total, "a slot was counted twice");
    let ids_after: HashSet<i64> = results.iter().map(|g| g.id.0).collect();
    assert!(ids_before.is_subset(&ids_after), "a game stored before the kill was lost");
    for pair in 0..total / 2 {
        for leg in 0..2 {
            assert!(
                slots.contains(format!("0-1/{pair}/{leg}").as_str()),
                "slot 0-1/{pair}/{leg} missing"
            );
        }
    }
    assert!(store.run(RunId(1)).unwrap().finished_at_ms.is_some());
}
