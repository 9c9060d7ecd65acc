//! The league store: schema, round trips, slots, and surviving SIGKILL.

use std::collections::hash_map::RandomState;
use std::collections::HashSet;
use std::hash::BuildHasher;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use versus_core::{BySide, Fault, GameConfig, Header, Outcome, RecordLine, Side};
use versus_judge::{run_game, AgentSpec, Limits};
use versus_league::store::{
    agent_hash, reply_times_us, AgentId, JudgeLag, NewAgent, NewGame, NewRun, RunId, RunKind,
    Store, StoreError, SCHEMA_VERSION,
};
use versus_sql::scratch::ScratchCluster;
use versus_sql::Backend;

/// A fresh directory under the target's temporary directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
            "store-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn random_u64() -> u64 {
    RandomState::new().hash_one(Instant::now())
}

const GAME: &str = "domineering";

fn new_run(kind: RunKind) -> NewRun {
    NewRun {
        kind,
        game: GAME.into(),
        settings: serde_json::json!({"games": 100, "elo0": 0, "elo1": 5, "concurrency": 4}),
        agents: ["random", "greedy"]
            .iter()
            .map(|name| {
                let spec = format!("builtin:{name}");
                NewAgent {
                    name: (*name).into(),
                    hash: agent_hash(&spec, None, "0.1.0").unwrap(),
                    spec,
                }
            })
            .collect(),
    }
}

/// A made-up but complete record: header, a few exchanges, footer.
fn record(specs: BySide<&str>, seed: u64, outcome: Outcome) -> Vec<RecordLine> {
    let mut lines = vec![RecordLine::Header(Header {
        game: GAME.into(),
        rules_version: "1".into(),
        config: GameConfig::seeded(seed),
        agents: specs.map(str::to_owned),
    })];
    for (turn, side) in [Side::First, Side::Second, Side::First].into_iter().enumerate() {
        lines.push(RecordLine::Send { side, line: format!("TURN {turn}") });
        lines.push(RecordLine::Recv {
            side,
            line: format!("MOVE {turn}"),
            elapsed_ns: 1_500_000 * (turn as u64 + 1),
            lag_us: 10 * turn as u64,
        });
    }
    lines.push(RecordLine::Footer { outcome });
    lines
}

/// A store with one run of two builtins; the agents' ids and specs.
fn store_with_run(store: &Store) -> (RunId, BySide<AgentId>) {
    let run = store.create_run(&new_run(RunKind::Sprt)).unwrap();
    let agents = store.agents(run).unwrap();
    (run, BySide::new(agents[0].id, agents[1].id))
}

fn game(slot: &str, agents: BySide<AgentId>, seed: u64, flag: Option<&str>) -> NewGame {
    NewGame {
        slot: slot.into(),
        agents,
        record: record(
            BySide::new("builtin:random", "builtin:greedy"),
            seed,
            Outcome::from_scores(BySide::new(1.0, 0.0)),
        ),
        judge_lag: None,
        harness_flag: flag.map(str::to_owned),
    }
}

/// Runs `test` on a fresh store of each backend: a SQLite file, and a
/// database on a throw-away PostgreSQL cluster when the server is installed
/// (else a visible skip line).
fn on_each_backend(name: &str, test: fn(&Store)) {
    let dir = TempDir::new();
    let store = Store::open(dir.join("league.sqlite")).unwrap();
    test(&store);
    match ScratchCluster::start(false).expect("PostgreSQL is installed but did not start") {
        Some(cluster) => {
            let store = Store::open(cluster.url()).unwrap();
            assert_eq!(store.backend(), Backend::Postgres);
            test(&store);
        }
        None => eprintln!("SKIPPED: PostgreSQL is not installed; {name} ran on SQLite only"),
    }
}

fn raw(path: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(path).unwrap()
}

#[test]
fn a_new_file_is_migrated_and_reopens_as_it_was() {
    let dir = TempDir::new();
    let path = dir.join("league.sqlite");
    let run = {
        let store = Store::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        store.create_run(&new_run(RunKind::League)).unwrap()
    };
    let store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    let runs = store.runs().unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].id, run);
    assert_eq!(runs[0].kind, RunKind::League);
    assert_eq!(runs[0].settings, new_run(RunKind::League).settings);
    assert_eq!(runs[0].finished_at_ms, None);
    let agents = store.agents(run).unwrap();
    let names: Vec<_> = agents.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["random", "greedy"]);

    let conn = raw(&path);
    let mode: String = conn.query_row("PRAGMA journal_mode", [], |row| row.get(0)).unwrap();
    assert_eq!(mode, "wal");
    let version: u32 = conn.query_row("PRAGMA user_version", [], |row| row.get(0)).unwrap();
    assert_eq!(version, SCHEMA_VERSION);
}

#[test]
fn a_real_game_round_trips_with_all_its_fields() {
    on_each_backend(
        "a_real_game_round_trips_with_all_its_fields",
        a_real_game_round_trips_with_all_its_fields_on,
    );
}

fn a_real_game_round_trips_with_all_its_fields_on(store: &Store) {
    let game_def = versus_games::find(GAME).unwrap();
    let specs = BySide::new(
        AgentSpec::parse("builtin:random", None, 7),
        AgentSpec::parse("builtin:greedy", None, 8),
    );
    let config = GameConfig::seeded(u64::MAX - 3);
    let mut lines = Vec::new();
    let outcome = run_game(game_def, &config, &specs, &Limits::default(), &mut |line| {
        lines.push(line);
    })
    .unwrap();

    let (run, agents) = store_with_run(store);
    let lag = JudgeLag { samples: 40, mean_us: 12, max_us: 900, load_centi: 150 };
    let new = NewGame {
        slot: "pair 0 leg 0".into(),
        agents,
        record: lines.clone(),
        judge_lag: Some(lag),
        harness_flag: None,
    };
    let id = store.insert_game(run, &new).unwrap();

    let results = store.results(run).unwrap();
    assert_eq!(results.len(), 1);
    let stored = &results[0];
    assert_eq!(stored.id, id);
    assert_eq!(stored.run, run);
    assert_eq!(stored.slot, "pair 0 leg 0");
    assert_eq!(stored.seed, u64::MAX - 3);
    assert_eq!(stored.agents, agents);
    assert_eq!(stored.outcome, outcome);
    assert_eq!(stored.move_times_us, reply_times_us(&lines));
    assert!(!stored.move_times_us.first.is_empty());
    assert_eq!(stored.judge_lag, Some(lag));
    assert_eq!(stored.harness_flag, None);
    assert!(stored.finished_at_ms > 0);
    assert_eq!(store.game(id).unwrap().as_ref(), Some(stored));
    assert_eq!(store.games(run).unwrap(), results);

    let text = store.game_record(id).unwrap().unwrap();
    assert_eq!(versus_judge::read_record(&text).unwrap(), lines);
    assert_eq!(store.game_record(versus_league::store::GameId(id.0 + 1)).unwrap(), None);

    store.finish_run(run, "H1 accepted").unwrap();
    let finished = store.run(run).unwrap();
    assert!(finished.finished_at_ms.is_some());
    assert_eq!(finished.conclusion.as_deref(), Some("H1 accepted"));
}

#[test]
fn faults_round_trip() {
    on_each_backend("faults_round_trip", faults_round_trip_on);
}

fn faults_round_trip_on(store: &Store) {
    let (run, agents) = store_with_run(store);
    let faults = BySide::new(None, Some(Fault::runtime("illegal move", "MOVE 9 9")));
    let outcome = Outcome::from_faults(faults, BySide::new(3.0, 4.0));
    let mut new = game("g", agents, 5, None);
    new.record = record(BySide::new("builtin:random", "builtin:greedy"), 5, outcome.clone());
    store.insert_game(run, &new).unwrap();
    let stored = &store.results(run).unwrap()[0];
    assert_eq!(stored.outcome, outcome);
    assert_eq!(stored.judge_lag, None);
    assert_eq!(stored.move_times_us, BySide::new(vec![1500, 4500], vec![3000]));
}

#[test]
fn a_slot_is_counted_once() {
    on_each_backend("a_slot_is_counted_once", a_slot_is_counted_once_on);
}

fn a_slot_is_counted_once_on(store: &Store) {
    let (run, agents) = store_with_run(store);
    store.insert_game(run, &game("s1", agents, 1, None)).unwrap();
    let error = store.insert_game(run, &game("s1", agents, 2, None)).unwrap_err();
    assert!(
        matches!(&error, StoreError::DuplicateSlot { run: r, slot } if *r == run && slot == "s1"),
        "{error:?}"
    );
    assert_eq!(error.to_string(), format!("slot \"s1\" of run {run} already has a counted game"));
    let results = store.results(run).unwrap();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0].seed, 1, "the first game stays");
    assert_eq!(store.games(run).unwrap().len(), 1);

    // The same slot name in another run is another slot.
    let (other, other_agents) = store_with_run(store);
    store.insert_game(other, &game("s1", other_agents, 3, None)).unwrap();
    assert_eq!(store.finished_slots(other).unwrap(), HashSet::from(["s1".into()]));
}

#[test]
fn a_batch_is_stored_whole_or_not_at_all() {
    on_each_backend(
        "a_batch_is_stored_whole_or_not_at_all",
        a_batch_is_stored_whole_or_not_at_all_on,
    );
}

fn a_batch_is_stored_whole_or_not_at_all_on(store: &Store) {
    let (run, agents) = store_with_run(store);
    let ids = store
        .insert_games(run, &[game("b1", agents, 1, None), game("b2", agents, 2, None)])
        .unwrap();
    assert_eq!(ids.len(), 2);
    // The second game repeats a slot: the batch is refused, "b3" included.
    let error = store
        .insert_games(run, &[game("b3", agents, 3, None), game("b1", agents, 4, None)])
        .unwrap_err();
    assert!(matches!(error, StoreError::DuplicateSlot { .. }), "{error:?}");
    assert_eq!(store.finished_slots(run).unwrap(), HashSet::from(["b1".into(), "b2".into()]));
    // Two games of the same slot in one batch are refused as well.
    assert!(store
        .insert_games(run, &[game("b4", agents, 5, None), game("b4", agents, 6, None)])
        .is_err());
    assert_eq!(store.games(run).unwrap().len(), 2);
}

#[test]
fn a_flagged_game_is_kept_but_not_counted_and_its_slot_is_played_again() {
    on_each_backend(
        "a_flagged_game_is_kept_but_not_counted_and_its_slot_is_played_again",
        a_flagged_game_is_kept_but_not_counted_and_its_slot_is_played_again_on,
    );
}

fn a_flagged_game_is_kept_but_not_counted_and_its_slot_is_played_again_on(store: &Store) {
    let (run, agents) = store_with_run(store);
    let flag = Some("judge lag 250 ms at the time-out");
    store.insert_game(run, &game("s1", agents, 1, flag)).unwrap();
    store.insert_game(run, &game("s1", agents, 1, flag)).unwrap();
    assert!(store.finished_slots(run).unwrap().is_empty());
    assert!(store.results(run).unwrap().is_empty());
    assert_eq!(store.games(run).unwrap().len(), 2);

    let counted = store.insert_game(run, &game("s1", agents, 1, None)).unwrap();
    assert_eq!(store.finished_slots(run).unwrap(), HashSet::from(["s1".into()]));
    let results = store.results(run).unwrap();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0].id, counted);
    assert!(matches!(
        store.insert_game(run, &game("s1", agents, 1, None)),
        Err(StoreError::DuplicateSlot { .. })
    ));
    let games = store.games(run).unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].harness_flag.as_deref(), flag);
}

#[test]
fn incomplete_or_mismatched_games_are_refused() {
    on_each_backend(
        "incomplete_or_mismatched_games_are_refused",
        incomplete_or_mismatched_games_are_refused_on,
    );
}

fn incomplete_or_mismatched_games_are_refused_on(store: &Store) {
    let (run, agents) = store_with_run(store);

    let mut truncated = game("t", agents, 1, None);
    truncated.record.pop();
    let error = store.insert_game(run, &truncated).unwrap_err();
    assert!(matches!(error, StoreError::InvalidGame { .. }), "{error:?}");
    assert!(error.to_string().contains("no footer"), "{error}");

    let mut headless = game("h", agents, 1, None);
    headless.record.remove(0);
    assert!(matches!(store.insert_game(run, &headless), Err(StoreError::InvalidGame { .. })));

    // Seats swapped relative to the record: the results would be wrong.
    let swapped = game("w", agents.swap(), 1, None);
    let error = store.insert_game(run, &swapped).unwrap_err();
    assert!(error.to_string().contains("first agent"), "{error}");

    let (other, other_agents) = store_with_run(store);
    assert!(matches!(
        store.insert_game(run, &game("f", other_agents, 1, None)),
        Err(StoreError::ForeignAgent { .. })
    ));
    assert!(matches!(
        store.insert_game(RunId(999), &game("f", agents, 1, None)),
        Err(StoreError::NoSuchRun(RunId(999)))
    ));
    assert!(store.games(run).unwrap().is_empty());
    assert!(store.games(other).unwrap().is_empty());
    assert!(matches!(store.run(RunId(999)), Err(StoreError::NoSuchRun(_))));
    assert!(matches!(store.finished_slots(RunId(999)), Err(StoreError::NoSuchRun(_))));

    let mut twins = new_run(RunKind::League);
    twins.agents[1].name = twins.agents[0].name.clone();
    assert!(matches!(store.create_run(&twins), Err(StoreError::DuplicateAgent { .. })));
    assert_eq!(store.runs().unwrap().len(), 2, "the refused run left nothing");
}

#[test]
fn a_store_from_a_newer_versus_is_refused() {
    let dir = TempDir::new();
    let path = dir.join("league.sqlite");
    drop(Store::open(&path).unwrap());
    raw(&path).pragma_update(None, "user_version", SCHEMA_VERSION + 1).unwrap();
    let error = Store::open(&path).unwrap_err();
    assert!(
        matches!(error, StoreError::TooNew { found, supported, .. }
            if found == SCHEMA_VERSION + 1 && supported == SCHEMA_VERSION),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(message.contains("written by a newer versus"), "{message}");
    assert!(message.contains(&path.display().to_string()), "{message}");
}

#[test]
fn a_postgres_store_is_migrated_once_and_refuses_a_newer_or_an_old_schema() {
    let Some(cluster) = ScratchCluster::start(false).unwrap() else {
        eprintln!("SKIPPED: PostgreSQL is not installed");
        return;
    };
    let url = cluster.url();
    let run = {
        let store = Store::open(&url).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        store.create_run(&new_run(RunKind::League)).unwrap()
    };
    // Opened again: nothing applied twice, the run is there as it was.
    let store = Store::open(&url).unwrap();
    let runs = store.runs().unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].id, run);
    assert_eq!(runs[0].settings, new_run(RunKind::League).settings);
    let names: Vec<String> = store.agents(run).unwrap().into_iter().map(|a| a.name).collect();
    assert_eq!(names, ["random", "greedy"]);

    store
        .conn()
        .execute("UPDATE league_schema SET version = ?1", versus_sql::args![SCHEMA_VERSION + 1])
        .unwrap();
    let error = Store::open(&url).unwrap_err();
    assert!(
        matches!(error, StoreError::TooNew { found, supported, .. }
            if found == SCHEMA_VERSION + 1 && supported == SCHEMA_VERSION),
        "{error:?}"
    );
    assert!(error.to_string().contains("written by a newer versus"), "{error}");

    // A database holding the first development queue's tables is named,
    // not half-migrated.
    store.conn().batch("CREATE DATABASE old_queue").unwrap();
    let old_url = url.rsplit_once('/').map(|(base, _)| format!("{base}/old_queue")).unwrap();
    let old = versus_sql::Conn::open(&old_url).unwrap();
    old.batch(
        "CREATE TABLE versus_schema (version INTEGER NOT NULL);
         INSERT INTO versus_schema VALUES (3); CREATE TABLE runs (id BIGINT)",
    )
    .unwrap();
    let error = Store::open(&old_url).unwrap_err();
    assert!(matches!(error, StoreError::OldQueue { version: 3, .. }), "{error:?}");
    assert!(error.to_string().contains("use a new database"), "{error}");
    let tables: i64 = old
        .query_one("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", &[])
        .unwrap()
        .get(0)
        .unwrap();
    assert_eq!(tables, 2, "nothing was created beside the old tables");
}

#[test]
fn a_missing_directory_is_named() {
    let dir = TempDir::new();
    let path = dir.join("no/such/dir/league.sqlite");
    let error = Store::open(&path).unwrap_err();
    assert!(matches!(error, StoreError::MissingDirectory { .. }), "{error:?}");
    assert_eq!(
        error.to_string(),
        format!(
            "cannot create the store {}: directory {} does not exist",
            path.display(),
            dir.join("no/such/dir").display()
        )
    );
}

#[test]
fn other_files_are_refused_and_left_alone() {
    let dir = TempDir::new();
    let text = dir.join("notes.txt");
    std::fs::write(&text, "this is not a database, it is a long enough text file\n".repeat(20))
        .unwrap();
    let error = Store::open(&text).unwrap_err();
    assert!(matches!(error, StoreError::NotAStore { .. }), "{error:?}");
    assert_eq!(error.to_string(), format!("{} is not a versus store", text.display()));

    let other = dir.join("other.sqlite");
    raw(&other).execute_batch("CREATE TABLE things (x); INSERT INTO things VALUES (1);").unwrap();
    assert!(matches!(Store::open(&other), Err(StoreError::NotAStore { .. })));
    let mode: String = raw(&other).query_row("PRAGMA journal_mode", [], |row| row.get(0)).unwrap();
    assert_eq!(mode, "delete", "the foreign file was not switched to WAL");
}

#[test]
fn a_reader_sees_committed_games_while_the_writer_holds_the_store() {
    let dir = TempDir::new();
    let path = dir.join("league.sqlite");
    let writer = Store::open(&path).unwrap();
    let (run, agents) = store_with_run(&writer);
    writer.insert_game(run, &game("a", agents, 1, None)).unwrap();
    let reader = Store::open(&path).unwrap();
    assert_eq!(reader.results(run).unwrap().len(), 1);
    writer.insert_game(run, &game("b", agents, 2, None)).unwrap();
    assert_eq!(reader.results(run).unwrap().len(), 2);
}

const WRITER_ENV: &str = "VERSUS_STORE_CRASH_WRITER";

/// Not a test on its own: when `WRITER_ENV` names a store, stores games in a
/// loop, resuming the store's one run, until it is killed.
#[test]
fn crash_writer() {
    let Some(path) = std::env::var_os(WRITER_ENV) else {
        return;
    };
    let store = Store::open(&path).unwrap();
    let runs = store.runs().unwrap();
    let run = match runs.as_slice() {
        [] => store.create_run(&new_run(RunKind::Sprt)).unwrap(),
        [run] => run.id,
        more => panic!("{} runs", more.len()),
    };
    let ids = store.agents(run).unwrap();
    let agents = BySide::new(ids[0].id, ids[1].id);
    let finished = store.finished_slots(run).unwrap();
    let started = Instant::now();
    for index in 0u64..100_000 {
        let slot = format!("{index:06}");
        if finished.contains(&slot) {
            continue;
        }
        if index % 4 == 0 {
            store.insert_game(run, &game(&slot, agents, index, Some("harness"))).unwrap();
        }
        store.insert_game(run, &game(&slot, agents, index, None)).unwrap();
        println!("committed {slot}");
        assert!(started.elapsed() < Duration::from_secs(60), "never killed");
    }
}

/// Runs `crash_writer` in a child process and SIGKILLs it after `commits`
/// reported games and `delay` more; returns the slots it reported.
fn write_and_kill(path: &Path, commits: usize, delay: Duration) -> Vec<String> {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["crash_writer", "--exact", "--nocapture", "--test-threads=1"])
        .env(WRITER_ENV, path)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut committed = Vec::new();
    while committed.len() < commits {
        match lines.next() {
            Some(line) => {
                if let Some(slot) = line.unwrap().strip_prefix("committed ") {
                    committed.push(slot.to_owned());
                }
            }
            None => panic!("the writer ended: {:?}", child.wait()),
        }
    }
    std::thread::sleep(delay);
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success(), "the writer was killed: {status:?}");
    // Whatever it reported before dying was committed too.
    for line in lines {
        if let Some(slot) = line.unwrap().strip_prefix("committed ") {
            committed.push(slot.to_owned());
        }
    }
    committed
}

#[test]
fn a_writer_killed_at_any_moment_loses_and_doubles_nothing() {
    let dir = TempDir::new();
    let path = dir.join("league.sqlite");
    let mut reported = HashSet::new();
    for round in 0..16 {
        let random = random_u64();
        // Sometimes killed while opening or creating the run, mostly mid-game.
        let commits = if round % 4 == 0 { 0 } else { (random % 25) as usize };
        let delay = Duration::from_micros((random >> 32) % 5000);
        reported.extend(write_and_kill(&path, commits, delay));
        eprintln!("round {round}: {} reported", reported.len());

        let conn = raw(&path);
        let integrity: String =
            conn.query_row("PRAGMA integrity_check", [], |row| row.get(0)).unwrap();
        assert_eq!(integrity, "ok");
        drop(conn);
        let store = Store::open(&path).unwrap();
        let runs = store.runs().unwrap();
        assert!(runs.len() <= 1, "one run, created once");
        let Some(run) = runs.first() else {
            assert!(reported.is_empty());
            continue;
        };
        let results = store.results(run.id).unwrap();
        let slots: Vec<String> = results.iter().map(|g| g.slot.clone()).collect();
        let unique: HashSet<String> = slots.iter().cloned().collect();
        assert_eq!(unique.len(), slots.len(), "a slot counted twice");
        assert!(reported.is_subset(&unique), "a reported game was lost");
        // The writer fills slots in order, one transaction each.
        let expected: Vec<String> = (0..slots.len()).map(|i| format!("{i:06}")).collect();
        assert_eq!(slots, expected);
        assert_eq!(store.finished_slots(run.id).unwrap(), unique);
        for game in store.games(run.id).unwrap() {
            let text = store.game_record(game.id).unwrap().unwrap();
            let lines = versus_judge::read_record(&text).unwrap();
            assert!(matches!(lines.first(), Some(RecordLine::Header(_))));
            let Some(RecordLine::Footer { outcome }) = lines.last() else {
                panic!("game {} has no footer", game.id);
            };
            assert_eq!(*outcome, game.outcome);
            assert_eq!(game.move_times_us, reply_times_us(&lines));
            assert_eq!(game.seed, game.slot.parse::<u64>().unwrap());
        }
    }
    assert!(!reported.is_empty(), "some games were written");
}
