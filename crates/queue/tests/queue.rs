//! The queue against a real PostgreSQL server that each test starts itself
//! (a throw-away cluster on a private socket). Skipped, saying so, only when
//! PostgreSQL is not installed.

use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::AtomicBool;
use std::sync::Barrier;
use std::thread;
use std::time::Duration;

use versus_core::{RecordLine, TimeControl};
use versus_judge::read_record;
use versus_league::runner::{self, Entrant, Plan, Schedule};
use versus_league::store::{NewAgent, NewRun, RunKind, Store};
use versus_queue::scratch::ScratchCluster;
use versus_queue::worker::{self, WorkerOptions};
use versus_queue::{Committed, NewWorker, PlayedGame, Queue, RunId};

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

fn league(game: &str, agents: &[&str], pairs: u64, time_ms: u64) -> Plan {
    Plan {
        game: game.into(),
        time: TimeControl { game_ms: time_ms, ready_ms: 3000, ..TimeControl::CONTEST },
        seed: 7,
        entrants: agents
            .iter()
            .enumerate()
            .map(|(i, spec)| Entrant { name: format!("a{i}"), spec: (*spec).into(), cwd: None })
            .collect(),
        schedule: Schedule::League { pairs, gauntlet: None },
        sandbox: false,
    }
}

fn options(url: &str, name: &str, jobs: usize) -> WorkerOptions {
    WorkerOptions {
        name: name.into(),
        jobs,
        lease: Duration::from_secs(5),
        heartbeat: Duration::from_millis(500),
        poll: Duration::from_millis(20),
        exit_when_idle: true,
        reconnect_for: Duration::from_secs(60),
        ..WorkerOptions::new(url)
    }
}

/// Counted games by slot, each slot's count checked to be one.
fn counted_once(
    queue: &mut Queue,
    run: RunId,
    plan: &Plan,
) -> BTreeMap<String, versus_queue::StoredGame> {
    let mut by_slot = BTreeMap::new();
    for game in queue.games(run).unwrap() {
        if game.harness_flag.is_none() {
            let slot = game.slot.clone();
            assert!(by_slot.insert(slot.clone(), game).is_none(), "slot {slot} counted twice");
        }
    }
    // The truth: the schedule itself.
    let scheduled: Vec<String> = plan.slots().iter().map(runner::Slot::key).collect();
    assert_eq!(
        by_slot.keys().cloned().collect::<HashSet<_>>(),
        scheduled.iter().cloned().collect()
    );
    assert_eq!(by_slot.len(), scheduled.len());
    by_slot
}

/// What a game said, without its timings: every line sent and received.
fn moves(record: &[RecordLine]) -> Vec<String> {
    record
        .iter()
        .filter_map(|line| match line {
            RecordLine::Send { side, line } => Some(format!("> {side:?} {line}")),
            RecordLine::Recv { side, line, .. } => Some(format!("< {side:?} {line}")),
            RecordLine::Footer { outcome } => Some(format!("= {outcome:?}")),
            _ => None,
        })
        .collect()
}

#[test]
fn three_workers_play_every_scheduled_game_once_and_the_same_games_as_sqlite() {
    let Some(cluster) = cluster() else { return };
    let url = cluster.url();
    let mut queue = Queue::connect(&url).unwrap();
    assert_eq!(queue.schema_version().unwrap(), versus_queue::SCHEMA_VERSION);
    let plan =
        league("domineering", &["builtin:random", "builtin:greedy", "builtin:random"], 4, 1000);
    let run = queue.schedule(&plan, false).unwrap();
    assert_eq!(queue.progress(run).unwrap().pending, 24);

    let stop = AtomicBool::new(false);
    let reports: Vec<_> = thread::scope(|scope| {
        let handles: Vec<_> = (0..3)
            .map(|i| {
                let options = options(&url, &format!("w{i}"), 2);
                let stop = &stop;
                scope.spawn(move || worker::run(&options, stop, &|line| eprintln!("w{i}: {line}")))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap().unwrap()).collect()
    });
    assert_eq!(reports.iter().map(|r| r.counted).sum::<u64>(), 24);
    assert_eq!(reports.iter().map(|r| r.lost + r.failed).sum::<u64>(), 0);
    let progress = queue.progress(run).unwrap();
    assert_eq!((progress.done, progress.pending, progress.leased, progress.failed), (24, 0, 0, 0));
    let games = counted_once(&mut queue, run, &plan);

    // The same league on SQLite, played by the league runner: the same games.
    let store = Store::open_in_memory().unwrap();
    let sqlite_run = store
        .create_run(&NewRun {
            kind: RunKind::League,
            game: plan.game.clone(),
            settings: serde_json::to_value(&plan).unwrap(),
            agents: plan
                .entrants
                .iter()
                .map(|e| NewAgent { name: e.name.clone(), spec: e.spec.clone(), hash: "x".into() })
                .collect(),
        })
        .unwrap();
    let standing =
        runner::run(&store, sqlite_run, &plan, 1, &AtomicBool::new(false), &mut |_| {}).unwrap();
    let mut compared = 0;
    for summary in store.results(sqlite_run).unwrap() {
        let on_sqlite = read_record(&store.game_record(summary.id).unwrap().unwrap()).unwrap();
        let on_pg = read_record(&games[&summary.slot].record).unwrap();
        assert_eq!(moves(&on_sqlite), moves(&on_pg), "slot {}", summary.slot);
        assert_eq!(summary.seed, games[&summary.slot].seed);
        compared += 1;
    }
    assert_eq!(compared, 24);
    let pg_standing = queue.standing(run).unwrap();
    assert_eq!(pg_standing.results, standing.results);
    assert_eq!(pg_standing.games(), 24);
    // Every worker's share adds up to the games.
    let shares = queue.shares(run).unwrap();
    assert_eq!(shares.iter().map(|s| s.games).sum::<i64>(), 24);
}

/// Plays a slot's game here, as a worker would.
fn play(
    plan: &Plan,
    key: &str,
) -> (runner::Slot, versus_core::Outcome, Vec<RecordLine>, versus_league::store::JudgeLag) {
    let slot = runner::Slot::parse(key).unwrap();
    let mut record = Vec::new();
    let outcome = versus_judge::run_game(
        versus_games::find(&plan.game).unwrap(),
        &plan.config(&slot),
        &plan.agents(&slot),
        &versus_judge::Limits::default(),
        &mut |l| record.push(l),
    )
    .unwrap();
    let lag = runner::judge_lag(&record);
    (slot, outcome, record, lag)
}

#[test]
fn an_expired_lease_goes_to_another_worker_and_only_the_live_lease_commits() {
    let Some(cluster) = cluster() else { return };
    let mut queue = Queue::connect(&cluster.url()).unwrap();
    let plan = league("domineering", &["builtin:random", "builtin:greedy"], 1, 1000);
    let run = queue.schedule(&plan, false).unwrap();
    let new = |name: &str| NewWorker { name: name.into(), host: "h".into(), cores: 1, jobs: 1 };
    let a = queue.register_worker(&new("a")).unwrap();
    let b = queue.register_worker(&new("b")).unwrap();
    // Long enough that a loaded machine (other matches on the same cores)
    // keeps the order of events: a's heartbeat lands before b's lease ends
    // even half a second late.
    let short = Duration::from_millis(2000);
    let first = queue.lease(a, short).unwrap().unwrap();
    assert_eq!((first.run, first.slot.as_str(), first.leases), (run, "0-1/0/0", 1));
    let second = queue.lease(b, short).unwrap().unwrap();
    assert_eq!(second.slot, "0-1/0/1");
    // Nothing else is open until a lease expires.
    assert_eq!(queue.lease(b, short).unwrap(), None);
    // A beats its heart for its lease; b does not.
    thread::sleep(Duration::from_millis(1000));
    queue.heartbeat(a, short, &[first.token]).unwrap();
    thread::sleep(Duration::from_millis(1500));
    let again = queue.lease(a, Duration::from_secs(5)).unwrap().unwrap();
    assert_eq!((again.slot.as_str(), again.leases), ("0-1/0/1", 2));
    assert_ne!(again.token, second.token);

    // Play the slot's game once; b's stale lease cannot commit it, a's can.
    let (slot, outcome, record, lag) = play(&plan, &again.slot);
    let game = PlayedGame {
        seats: slot.seats(),
        outcome: &outcome,
        record: &record,
        lag: &lag,
        harness_flag: None,
    };
    let commit = |q: &mut Queue, lease, by| q.commit(lease, by, &game);
    assert_eq!(commit(&mut queue, &second, b).unwrap(), Committed::LeaseLost);
    assert_eq!(commit(&mut queue, &again, a).unwrap(), Committed::Counted);
    // A retry of the same commit (a reply lost with the connection) is dropped.
    assert_eq!(commit(&mut queue, &again, a).unwrap(), Committed::LeaseLost);
    let games = queue.games(run).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!((games[0].worker, games[0].lease), (a, again.token));
    // A flagged result reopens the slot.
    let late = PlayedGame { harness_flag: Some("late"), ..game };
    let flagged = queue.commit(&first, a, &late);
    assert_eq!(flagged.unwrap(), Committed::Flagged("late".into()));
    let reopened = queue.lease(b, short).unwrap().unwrap();
    assert_eq!((reopened.slot.as_str(), reopened.leases), ("0-1/0/0", 2));
    assert_eq!(queue.standing(run).unwrap().flagged, 1);
}

#[test]
fn workers_racing_for_many_instant_games_never_count_one_twice() {
    let Some(cluster) = cluster() else { return };
    let url = cluster.url();
    let mut queue = Queue::connect(&url).unwrap();
    // 2 × 300 games of microseconds each: the queue is the only bottleneck.
    let plan = league("bacteria-war", &["builtin:random", "builtin:random"], 300, 1000);
    let run = queue.schedule(&plan, false).unwrap();
    let stop = AtomicBool::new(false);
    let barrier = Barrier::new(2);
    let reports: Vec<_> = thread::scope(|scope| {
        let handles: Vec<_> = (0..2)
            .map(|i| {
                let options = options(&url, &format!("racer{i}"), 4);
                let (stop, barrier) = (&stop, &barrier);
                scope.spawn(move || {
                    barrier.wait();
                    worker::run(&options, stop, &|line| eprintln!("racer{i}: {line}"))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap().unwrap()).collect()
    });
    assert_eq!(reports.iter().map(|r| r.counted).sum::<u64>(), 600);
    assert!(reports.iter().all(|r| r.counted > 0), "both workers played: {reports:?}");
    counted_once(&mut queue, run, &plan);
    // No slot was ever handed out twice: nothing expired, nothing was lost.
    let games = queue.games(run).unwrap();
    assert_eq!(games.len(), 600);
    let tokens: HashSet<i64> = games.iter().map(|g| g.lease).collect();
    assert_eq!(tokens.len(), 600);
}

#[test]
fn a_restarted_server_loses_and_doubles_nothing() {
    let Some(cluster) = cluster() else { return };
    let url = cluster.url();
    let mut queue = Queue::connect(&url).unwrap();
    // Games that think (a 150 ms clock each) so the run spans the restart.
    let plan = league("domineering", &["builtin:strong", "builtin:greedy"], 12, 150);
    let run = queue.schedule(&plan, false).unwrap();
    drop(queue);
    let stop = AtomicBool::new(false);
    let reports: Vec<_> = thread::scope(|scope| {
        let handles: Vec<_> = (0..2)
            .map(|i| {
                let options = options(&url, &format!("w{i}"), 1);
                let stop = &stop;
                scope.spawn(move || worker::run(&options, stop, &|line| eprintln!("w{i}: {line}")))
            })
            .collect();
        // Restart once some games are in.
        let mut watcher = Queue::connect(&url).unwrap();
        while watcher.progress(run).unwrap().done < 4 {
            thread::sleep(Duration::from_millis(20));
        }
        drop(watcher);
        cluster.stop_server().unwrap();
        thread::sleep(Duration::from_millis(700));
        cluster.start_server().unwrap();
        handles.into_iter().map(|h| h.join().unwrap().unwrap()).collect::<Vec<_>>()
    });
    assert!(reports.iter().map(|r| r.reconnects).sum::<u64>() >= 2, "{reports:?}");
    let mut queue = Queue::connect(&url).unwrap();
    let progress = queue.progress(run).unwrap();
    assert_eq!((progress.done, progress.failed), (24, 0));
    counted_once(&mut queue, run, &plan);
}

#[test]
fn a_command_on_the_schedulers_host_is_refused_without_shared_path() {
    let Some(cluster) = cluster() else { return };
    let mut queue = Queue::connect(&cluster.url()).unwrap();
    let plan = league("domineering", &["builtin:random", "./my-bot --fast"], 1, 1000);
    let error = queue.schedule(&plan, false).unwrap_err().to_string();
    assert!(error.contains("agent a1") && error.contains("--shared-path"), "{error}");
    // Nothing was stored.
    let run = queue.schedule(&plan, true).unwrap();
    assert_eq!(run, RunId(1), "the refused run left no row behind");
}

/// An SPRT's slots are scheduled like a league's; once it has decided, its
/// run is closed: no slot of it is handed out again, a game still being
/// played commits, and the run counts as finished once that game is in.
#[test]
fn a_closed_sprt_hands_out_no_more_games_but_takes_the_ones_in_flight() {
    use versus_league::stats::{EloModel, Sprt};
    let Some(cluster) = cluster() else { return };
    let mut queue = Queue::connect(&cluster.url()).unwrap();
    let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, EloModel::Normalized);
    let plan = Plan {
        schedule: Schedule::Sprt { sprt, max_pairs: 10 },
        ..league("domineering", &["builtin:greedy", "builtin:random"], 1, 1000)
    };
    let run = queue.schedule(&plan, false).unwrap();
    let worker = queue
        .register_worker(&NewWorker { name: "w".into(), host: "h".into(), cores: 1, jobs: 1 })
        .unwrap();
    let held = queue.lease(worker, Duration::from_secs(30)).unwrap().unwrap();
    assert_eq!(held.slot, "0-1/0/0");
    let expired = queue.lease(worker, Duration::from_millis(1)).unwrap().unwrap();
    thread::sleep(Duration::from_millis(20));
    let before = queue.progress(run).unwrap();
    assert_eq!((before.pending, before.leased, before.cancelled), (18, 2, 0));

    // 18 pending and the one whose lease expired; not the held one.
    assert_eq!(queue.close_run(run).unwrap(), 19);
    assert_eq!(queue.lease(worker, Duration::from_secs(30)).unwrap(), None);
    assert!(!queue.progress(run).unwrap().finished(), "a game is still being played");
    let (slot, outcome, record, lag) = play(&plan, &held.slot);
    let game = PlayedGame {
        seats: slot.seats(),
        outcome: &outcome,
        record: &record,
        lag: &lag,
        harness_flag: None,
    };
    assert_eq!(queue.commit(&held, worker, &game).unwrap(), Committed::Counted);
    assert_eq!(queue.commit(&expired, worker, &game).unwrap(), Committed::LeaseLost);
    let after = queue.progress(run).unwrap();
    assert_eq!((after.done, after.cancelled, after.pending, after.leased), (1, 19, 0, 0));
    assert!(after.finished());
    assert_eq!(queue.standing(run).unwrap().games(), 1);
}

/// A Python bot that passes at Domineering, but only if `data.bin` in its
/// folder holds the bytes the test gave; otherwise it exits with 3.
const NEEDS_DATA: &str = "import sys, os
data = open('data.bin', 'rb').read() if os.path.exists('data.bin') else b''
if data != bytes(range(256)) * 4:
    sys.exit(3)
for line in sys.stdin:
    if line.startswith('READY'):
        print('OK', flush=True)
    elif line.startswith('TURN'):
        print('MOVE -1 -1', flush=True)
    elif line.startswith('FINISH'):
        break
";

/// A source's data file reaches a worker with the source: the same bot
/// with it plays, without it exits at once (the judge's CRASH), in games a
/// worker plays from the queue's copies.
#[test]
fn a_sources_data_file_travels_to_the_worker() {
    if !versus_sandbox::Host::get().can_isolate() {
        eprintln!("SKIPPED: this host cannot isolate (bubblewrap, cgroups)");
        return;
    }
    let Some(cluster) = cluster() else { return };
    let url = cluster.url();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bot.py"), NEEDS_DATA).unwrap();
    let data: Vec<u8> = (0..=255u8).cycle().take(1024).collect();
    std::fs::write(dir.path().join("w.bin"), &data).unwrap();
    let mut plan = league("domineering", &["src:bot.py?data=w.bin", "src:bot.py"], 1, 2000);
    for entrant in &mut plan.entrants {
        entrant.cwd = Some(dir.path().to_owned());
    }
    let mut queue = Queue::connect(&url).unwrap();
    let run = queue.schedule(&plan, false).unwrap();
    // The scheduler's files are gone before any worker plays.
    drop(dir);
    let home = tempfile::tempdir().unwrap();
    let options = WorkerOptions { cache: home.path().join("cache"), ..options(&url, "w", 1) };
    worker::run(&options, &AtomicBool::new(false), &|_| {}).unwrap();
    let games = queue.games(run).unwrap();
    assert_eq!(games.len(), 2);
    for game in games {
        let seats = runner::Slot::parse(&game.slot).unwrap().seats();
        let faults = &game.outcome.faults;
        let (with, without) = if seats.first == 0 {
            (&faults.first, &faults.second)
        } else {
            (&faults.second, &faults.first)
        };
        assert!(with.is_none(), "data.bin was there: {:?}", game.outcome);
        assert!(
            matches!(without, Some(versus_core::Fault::Crash { detail }) if detail.contains('3')),
            "{:?}",
            game.outcome
        );
    }
}
