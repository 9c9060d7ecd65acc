//! `versus worker`, `versus workers` and `versus league --db postgres://...`
//! as processes against a real PostgreSQL server that the test starts (a
//! throw-away cluster). Skipped, saying so, only when PostgreSQL is not
//! installed.

mod serve;

use std::collections::BTreeMap;
use std::process::{Child, Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use versus_core::TimeControl;
use versus_league::runner::{Entrant, Plan, Schedule, Slot};
use versus_queue::scratch::ScratchCluster;
use versus_queue::{Queue, RunId, WorkerId};

const VERSUS: &str = env!("CARGO_BIN_EXE_versus");

fn cluster() -> Option<ScratchCluster> {
    match ScratchCluster::start(false) {
        Ok(Some(cluster)) => Some(cluster),
        Ok(None) => {
            eprintln!("SKIPPED: PostgreSQL is not installed (apt-get install postgresql)");
            None
        }
        Err(error) => panic!("PostgreSQL is installed but a cluster cannot start: {error}"),
    }
}

fn worker(url: &str, name: &str, lease_s: &str) -> Child {
    Command::new(VERSUS)
        .args(["worker", "--db", url, "-j", "1", "--name", name, "--lease-s", lease_s])
        .arg("--exit-when-idle")
        .stdin(Stdio::null())
        .spawn()
        .unwrap()
}

fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < Duration::from_secs(60), "timed out waiting for {what}");
        thread::sleep(Duration::from_millis(10));
    }
}

fn worker_id(queue: &mut Queue, name: &str) -> Option<WorkerId> {
    let live = queue.live_workers(Duration::from_secs(60)).unwrap();
    live.iter().find(|w| w.name == name).map(|w| w.id)
}

/// Games that think for most of a 400 ms clock: a worker is nearly always
/// in the middle of one.
fn thinking_league(seed: u64, pairs: u64) -> Plan {
    Plan {
        game: "domineering".into(),
        time: TimeControl { game_ms: 400, ready_ms: 3000, ..TimeControl::CONTEST },
        seed,
        entrants: ["builtin:strong", "builtin:greedy"]
            .iter()
            .map(|s| Entrant { name: s[8..].into(), spec: (*s).into(), cwd: None })
            .collect(),
        schedule: Schedule::League { pairs, gauntlet: None },
        sandbox: false,
    }
}

#[test]
fn a_worker_killed_mid_game_has_its_game_played_by_another_and_counted_once() {
    let Some(cluster) = cluster() else { return };
    let url = cluster.url();
    let mut queue = Queue::connect(&url).unwrap();
    let plan = thinking_league(11, 4);
    let run = queue.schedule(&plan, false).unwrap();
    let mut doomed = worker(&url, "doomed", "1.5");
    let id = {
        let mut id = None;
        wait_until("the worker to register", || {
            id = worker_id(&mut queue, "doomed");
            id.is_some()
        });
        id.unwrap()
    };
    // Once it has committed a game and holds the next: kill -9.
    let mut held = Vec::new();
    wait_until("a game in progress after a committed one", || {
        let played = queue.games(run).unwrap().iter().any(|g| g.worker == id);
        held = queue.held_by(id).unwrap();
        played && !held.is_empty()
    });
    doomed.kill().unwrap();
    doomed.wait().unwrap();
    assert_eq!(held.len(), 1);
    let (held_run, held_slot) = held[0].clone();
    assert_eq!(held_run, run);

    let survivors = [worker(&url, "second", "1.5"), worker(&url, "third", "1.5")];
    for mut survivor in survivors {
        assert!(survivor.wait().unwrap().success());
    }
    // Every scheduled game counted once; the killed game by someone else.
    let mut counted: BTreeMap<String, WorkerId> = BTreeMap::new();
    for game in queue.games(run).unwrap() {
        assert!(game.harness_flag.is_none());
        assert!(counted.insert(game.slot.clone(), game.worker).is_none(), "{} twice", game.slot);
    }
    let scheduled: Vec<String> = plan.slots().iter().map(Slot::key).collect();
    assert_eq!(counted.keys().cloned().collect::<Vec<_>>(), {
        let mut s = scheduled.clone();
        s.sort();
        s
    });
    assert_ne!(counted[&held_slot], id, "the killed worker's game was played again by another");
    assert!(queue.progress(run).unwrap().finished());
}

/// A scheduling `versus league|sprt` process whose report is read at its end.
fn scheduler(args: &[&str]) -> Child {
    Command::new(VERSUS)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn versus(args: &[&str]) -> Output {
    Command::new(VERSUS).args(args).stdin(Stdio::null()).output().unwrap()
}

#[test]
fn a_league_on_postgres_is_played_by_workers_and_reported() {
    let Some(cluster) = cluster() else { return };
    let url = cluster.url();
    // A command on this host is refused for remote workers, clearly.
    let refused = versus(&["league", "--db", &url, "domineering", "builtin:random", "mine=./bot"]);
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("--shared-path") && stderr.contains("mine"), "{stderr}");
    assert!(!stderr.contains("panicked"));

    // -j 0 only schedules and reports; a worker process plays.
    let scheduler = scheduler(&[
        "league",
        "--db",
        &url,
        "domineering",
        "builtin:random",
        "builtin:greedy",
        "--games",
        "10",
        "-j",
        "0",
    ]);
    let mut queue = Queue::connect(&url).unwrap();
    wait_until("the league to be scheduled", || queue.plan(RunId(1)).is_ok());
    let listed = versus(&["workers", "--db", &url]);
    assert!(String::from_utf8_lossy(&listed.stdout).contains("(no live workers)"));
    let mut player = worker(&url, "player", "30");
    assert!(player.wait().unwrap().success());
    let report = scheduler.wait_with_output().unwrap();
    assert!(report.status.success(), "{}", String::from_utf8_lossy(&report.stderr));
    let table = String::from_utf8_lossy(&report.stdout);
    // The independent truth: greedy beats random at Domineering every time.
    assert!(table.contains("greedy") && table.contains("10/10"), "{table}");
    assert!(table.lines().any(|l| l.starts_with("player") && l.contains(" 10 ")), "{table}");
    assert_eq!(queue.progress(RunId(1)).unwrap().done, 10);

    // The run is the league store's: `versus serve` on the same database
    // shows its standing and replays its games as it does a SQLite file's.
    let run = serve_get(&url, "/api/runs/1");
    assert_eq!(run["games"], 10, "{run}");
    assert_eq!(run["run"]["kind"], "league");
    let names = run["names"].as_array().unwrap();
    let greedy = names.iter().position(|n| n == "greedy").unwrap();
    let random = names.iter().position(|n| n == "random").unwrap();
    assert_eq!(run["crosstable"][greedy][random]["wins"], 10, "{run}");
    let games = serve_get(&url, "/api/runs/1/games");
    assert_eq!(games.as_array().unwrap().len(), 10);
    let id = games[0]["id"].as_i64().unwrap();
    let replay = serve_get(&url, &format!("/api/records/{id}"));
    assert!(replay["frames"].as_array().unwrap().len() > 2, "{replay}");

    // A bad URL and a SQLite path are errors, not panics.
    for db in ["postgres://nobody@%2Fnonexistent/x", "versus.sqlite"] {
        let out = versus(&["worker", "--db", db]);
        assert!(!out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("versus: ") && !stderr.contains("panicked"), "{stderr}");
    }
}

/// The contest's games on PostgreSQL, played by `versus worker --contest`
/// processes on "other machines": the host's recorded clock is used, a
/// worker killed with `kill -9` mid-game loses its lease and another plays
/// the game, and every game ends done exactly once.
#[test]
fn contest_games_are_played_by_workers_and_a_killed_workers_game_by_another() {
    use versus_contest::db::{MatchKind, MatchStatus, NewMatch, Player};
    use versus_contest::Db;
    let Some(cluster) = cluster() else { return };
    let url = cluster.url();
    let dir = std::env::temp_dir().join(format!("versus-contest-worker-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let contest_worker = |name: &str| {
        Command::new(VERSUS)
            .args(["worker", "--contest", "--db", &url, "-j", "1", "--name", name])
            .args(["--lease-s", "1.5", "--sources"])
            .arg(dir.join(name))
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    // Before any host has started, a worker says what is missing.
    let early = contest_worker("early").wait_with_output().unwrap();
    assert!(!early.status.success());
    let said = String::from_utf8_lossy(&early.stderr);
    assert!(said.contains("no contest host has started"), "{said}");
    // What a host records at its start, and six games that think for most
    // of a 600 ms clock (built-in players: no compiler needed).
    let mut db = Db::connect(&url).unwrap();
    db.set_play_settings(
        TimeControl { game_ms: 600, ready_ms: 1000, ..TimeControl::CONTEST },
        None,
    )
    .unwrap();
    let ids: Vec<_> = (0..6)
        .map(|k| {
            db.queue_match(&NewMatch {
                game: "domineering".into(),
                kind: MatchKind::Challenge,
                first: Player::Builtin("strong".into()),
                second: Player::Builtin("strong".into()),
                seed: 100 + k,
                counted: false,
                requested_by: None,
            })
            .unwrap()
        })
        .collect();
    let mut doomed = contest_worker("doomed");
    let mut killed = None;
    wait_until("the doomed worker to hold a game", || {
        let running = db.matches("domineering", None, 10).unwrap();
        killed = running.iter().find(|m| m.status == MatchStatus::Running).map(|m| m.id);
        killed.is_some()
    });
    doomed.kill().unwrap();
    doomed.wait().unwrap();
    let killed = killed.unwrap();
    let mut rescuer = contest_worker("rescuer");
    wait_until("every game to be played", || {
        ids.iter().all(|id| db.game_match(*id).unwrap().unwrap().status == MatchStatus::Done)
    });
    // `versus workers` lists the contest's worker with the games it played.
    let listed = versus(&["workers", "--db", &url]);
    let listed = String::from_utf8_lossy(&listed.stdout);
    let line = listed.lines().find(|l| l.contains("rescuer")).unwrap_or_else(|| panic!("{listed}"));
    let games: i64 = line.split_whitespace().nth(6).unwrap().parse().unwrap();
    assert!(games >= 1, "{listed}");
    rescuer.kill().unwrap();
    rescuer.wait().unwrap();
    let played = db.matches("domineering", None, 100).unwrap();
    assert_eq!(played.len(), 6, "no game doubled or lost");
    let record = db.match_record(killed).unwrap().expect("the killed worker's game was played");
    assert!(record.contains("\"game_ms\":600"), "the host's clock: {record}");
    // The game the doomed worker held was finished by the rescuer.
    let holder: Vec<String> = versus_sql::Conn::open(&url)
        .unwrap()
        .query("SELECT worker FROM contest_matches WHERE id = ?1", versus_sql::args![killed.0])
        .unwrap()
        .iter()
        .map(|r| r.get(0).unwrap())
        .collect();
    assert_eq!(holder, ["rescuer"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// An SPRT on PostgreSQL: scheduled with -j 0, played by two worker
/// processes, decided by the scheduler as results arrive (strong beats
/// random at Domineering every game, so H1 comes within a few dozen games;
/// a 400 ms clock that strong mostly uses keeps the games few per poll);
/// then no further game is handed out, the workers go idle and exit, and
/// the report says H1 with the games actually played.
#[test]
fn an_sprt_on_postgres_stops_handing_out_games_once_it_decides() {
    let Some(cluster) = cluster() else { return };
    let url = cluster.url();
    let scheduler = scheduler(&[
        "sprt",
        "--db",
        &url,
        "domineering",
        "builtin:strong",
        "builtin:random",
        "--elo0",
        "0",
        "--elo1",
        "100",
        "--max-games",
        "400",
        "-j",
        "0",
        "--time-ms",
        "400",
    ]);
    let mut queue = Queue::connect(&url).unwrap();
    wait_until("the SPRT to be scheduled", || queue.plan(RunId(1)).is_ok());
    let players = [worker(&url, "p1", "30"), worker(&url, "p2", "30")];
    let report = scheduler.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&report.stdout);
    assert!(report.status.success(), "{}", String::from_utf8_lossy(&report.stderr));
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    for mut player in players {
        assert!(player.wait().unwrap().success(), "an idle worker exits cleanly");
    }
    let progress = queue.progress(RunId(1)).unwrap();
    assert!(progress.finished(), "{progress:?}");
    assert!(progress.done >= 6 && progress.done <= 100, "{progress:?}");
    assert_eq!(progress.done + progress.cancelled + progress.failed, 400, "{progress:?}");
    let games = queue.games(RunId(1)).unwrap();
    assert_eq!(games.len() as i64, progress.done, "each game counted once");
    let report_games = format!("games {} W {}", progress.done, progress.done);
    assert!(stdout.contains(&report_games), "{report_games:?} in {stdout}");
    // The workers' lines of the report.
    assert!(
        stdout.lines().any(|l| l.starts_with("p1")) || stdout.lines().any(|l| l.starts_with("p2"))
    );
}

/// SIGTERM (as Ctrl-C's SIGINT) stops a worker cleanly: the game it is
/// playing is finished and committed by it, no further game is leased, it
/// exits with success and is no longer listed as live.
#[test]
fn a_signalled_worker_finishes_its_game_and_leaves() {
    let Some(cluster) = cluster() else { return };
    let url = cluster.url();
    let mut queue = Queue::connect(&url).unwrap();
    let plan = thinking_league(5, 10);
    let run = queue.schedule(&plan, false).unwrap();
    let quitter = Command::new(VERSUS)
        .args(["worker", "--db", &url, "-j", "1", "--name", "quitter", "--lease-s", "30"])
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut id = None;
    wait_until("the worker to register", || {
        id = worker_id(&mut queue, "quitter");
        id.is_some()
    });
    let id = id.unwrap();
    let mut held = Vec::new();
    wait_until("a game in progress", || {
        held = queue.held_by(id).unwrap();
        !held.is_empty()
    });
    let signalled = Command::new("kill").args(["-TERM", &quitter.id().to_string()]).status();
    assert!(signalled.unwrap().success());
    let out = quitter.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("stopping after the games in flight"), "{said}");
    let games = queue.games(run).unwrap();
    let (_, held_slot) = &held[0];
    assert!(
        games.iter().any(|g| &g.slot == held_slot && g.worker == id),
        "the game it held was committed by it"
    );
    let progress = queue.progress(run).unwrap();
    assert!(progress.pending > 0 && progress.leased == 0, "{progress:?}");
    assert_eq!(worker_id(&mut queue, "quitter"), None, "no longer live");
}

/// Starts `versus serve --db DB`, asks it for `path` and stops it: the JSON
/// answer.
fn serve_get(db: &str, path: &str) -> serde_json::Value {
    let (server, _) = serve::Server::start(&["--db", db]);
    let (status, body) = server.get(path);
    assert!(status.starts_with("HTTP/1.1 200"), "{status}\n{body}");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"))
}
