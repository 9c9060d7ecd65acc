//! `versus tune` and `versus games --params` as processes: bad parameters
//! refused before any game, a run killed with SIGKILL and resumed, the chart.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use versus_league::store::Store;
use versus_league::tune;

const VERSUS: &str = env!("CARGO_BIN_EXE_versus");

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("versus-tune-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(name: &str, text: &str) -> PathBuf {
    let path = temp_dir().join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn versus(args: &[&str]) -> Output {
    Command::new(VERSUS).args(args).output().expect("versus runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `versus tune` that must fail before playing: exit 1, the message, and
/// no store created.
fn refused(agent: &str, params: &Path, db_name: &str) -> String {
    let db = temp_dir().join(db_name);
    let _ = std::fs::remove_file(&db);
    let output = versus(&[
        "tune",
        "bacteria-war",
        "--agent",
        agent,
        "--params",
        params.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    assert!(!db.exists(), "nothing is stored for a refused run");
    assert!(output.stdout.is_empty());
    text(&output.stderr)
}

#[test]
fn bad_parameters_are_refused_before_any_game() {
    let seed = write("seed.txt", "seed, int, 5, 0, 100, 2, 0.01\n");
    let agent = format!("{VERSUS} agent bacteria-war greedy");
    assert_eq!(
        refused(&agent, &seed, "a.sqlite"),
        format!("versus: parameter seed has no placeholder {{seed}} in the command \"{agent}\"\n")
    );
    let unknown = format!("{VERSUS} agent bacteria-war greedy --seed {{seed}} {{depth}}");
    assert_eq!(
        refused(&unknown, &seed, "b.sqlite"),
        "versus: the command has a placeholder {depth} that the parameter file does not name \
         (it names: seed)\n"
    );
    let outside = write("outside.txt", "# the tempo\ntempo, int, 1200, 0, 1000, 20, 0.002\n");
    assert_eq!(
        refused("builtin:strong", &outside, "c.sqlite"),
        format!("versus: {}: line 2: tempo: START 1200 is outside [0, 1000]\n", outside.display())
    );
    let wide = write("wide.txt", "tempo, int, 485, 0, 5000, 20, 0.002\n");
    assert_eq!(
        refused("builtin:strong", &wide, "d.sqlite"),
        "versus: tempo: the range [0, 5000] goes outside strong's [0, 1000]\n"
    );
    assert_eq!(
        refused("builtin:greedy", &seed, "e.sqlite"),
        "versus: built-in agent \"greedy\" has no parameter \"seed\" (it has none)\n"
    );
    let fine = write("fine.txt", "tempo, int, 485, 0, 1000, 20, 0.002\n");
    assert!(refused("builtin:strong?tempx=4", &fine, "f.sqlite")
        .starts_with("versus: built-in agent \"strong\" has no parameter \"tempx\""));
}

#[test]
fn games_params_lists_strongs_parameters() {
    let output = versus(&["games", "--params"]);
    assert!(output.status.success());
    let out = text(&output.stdout);
    assert!(out.contains("bacteria-war builtin:strong\n"), "{out}");
    let tempo = out.lines().find(|l| l.trim_start().starts_with("tempo ")).unwrap();
    let fields: Vec<&str> = tempo.split_whitespace().take(5).collect();
    assert_eq!(fields, ["tempo", "485", "0", "1000", "int"]);
    // A built-in agent takes the settings the list shows, as `versus agent` too.
    let output = versus(&["agent", "bacteria-war", "strong?tempo=1001"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        text(&output.stderr),
        "versus: parameter \"tempo\" of \"strong\" is 1001, outside its range [0, 1000]\n"
    );
}

#[test]
fn a_killed_run_resumes_from_its_stored_theta_and_iteration() {
    let db = temp_dir().join("killed.sqlite");
    let _ = std::fs::remove_file(&db);
    // Greedy as a child process, its seed the parameter: real games,
    // placeholders, a few ms each.
    let params = write("greedy-seed.txt", "seed, int, 50, 0, 100, 10, 0.5\n");
    let agent = format!("{VERSUS} agent bacteria-war greedy --seed {{seed}}");
    let args = [
        "tune",
        "bacteria-war",
        "--agent",
        &agent,
        "--params",
        params.to_str().unwrap(),
        "--games",
        "240",
        "-j",
        "1",
        "--db",
        db.to_str().unwrap(),
    ];
    let mut child = Command::new(VERSUS)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let stored = loop {
        std::thread::sleep(Duration::from_millis(20));
        let count = Store::open(&db)
            .ok()
            .and_then(|store| tune::iterations(&store, 1).ok())
            .map_or(0, |its| its.len());
        if count >= 5 {
            break count;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "no progress");
    };
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let store = Store::open(&db).unwrap();
    let before = tune::iterations(&store, 1).unwrap();
    assert!(before.len() >= stored && before.len() < 120, "killed mid-run: {}", before.len());
    assert_eq!(tune::load_run(&store, 1).unwrap().conclusion, None);
    drop(store);

    let output = versus(&["tune", "--resume", "1", "--db", db.to_str().unwrap()]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let store = Store::open(&db).unwrap();
    let after = tune::iterations(&store, 1).unwrap();
    assert_eq!(after.len(), 120, "every iteration once, in order");
    assert_eq!(after[..before.len()], before[..], "stored iterations are kept");
    let resumed = &after[before.len()];
    assert_eq!(resumed.theta_before, before.last().unwrap().theta);
    let last = after.last().unwrap();
    let spec = format!("{VERSUS} agent bacteria-war greedy --seed {}", last.theta[0].round());
    assert_eq!(tune::load_run(&store, 1).unwrap().conclusion, Some(spec.clone()));
    let out = text(&output.stdout);
    assert!(out.contains("finished after 120 of 120 iterations (240 games)"), "{out}");
    assert!(out.ends_with(&format!("the agent with these values:\n{spec}\n")), "{out}");

    let svg = temp_dir().join("killed.svg");
    let output = versus(&[
        "tune",
        "--show",
        "1",
        "--db",
        db.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let chart = std::fs::read_to_string(&svg).unwrap();
    // 121 points: the start and one after each iteration.
    let points = chart.split("points=\"").nth(1).unwrap().split('"').next().unwrap();
    assert_eq!(points.split(' ').count(), 121);
    assert!(points.starts_with("70.0,59.0 "), "50 of [0, 100] is halfway down: {points}");
}

#[test]
fn a_built_in_spec_with_settings_is_one_agent_in_leagues() {
    let db = temp_dir().join("league.sqlite");
    let _ = std::fs::remove_file(&db);
    let db = db.to_str().unwrap();
    // Named after itself, its settings kept: the unknown one is named.
    let output =
        versus(&["league", "bacteria-war", "builtin:greedy?depth=2", "builtin:random", "--db", db]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr)
            .contains("built-in agent \"greedy\" has no parameter \"depth\" (it has none)"),
        "{}",
        text(&output.stderr)
    );
    let output = versus(&[
        "league",
        "bacteria-war",
        "builtin:strong?tempo=400&soft_percent=50",
        "builtin:random",
        "--games",
        "2",
        "--time-ms",
        "100",
        "--db",
        db,
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains("strong?tempo=400&soft_percent=50"));
}
