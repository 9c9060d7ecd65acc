//! The runner playing real games into a store.

use std::sync::atomic::AtomicBool;

use versus_core::TimeControl;
use versus_league::report::{league_csv, league_json, league_rows, sprt_report};
use versus_league::runner::{run, standing_from_store, Entrant, Plan, Schedule, Standing};
use versus_league::stats::{EloModel, Sprt, SprtStatus};
use versus_league::store::{NewAgent, NewRun, RunId, RunKind, Store};

fn builtin(name: &str) -> Entrant {
    Entrant { name: name.into(), spec: format!("builtin:{name}"), cwd: None }
}

fn create(store: &Store, plan: &Plan, kind: RunKind) -> RunId {
    let agents = plan
        .entrants
        .iter()
        .map(|e| NewAgent { name: e.name.clone(), spec: e.spec.clone(), hash: "test".into() })
        .collect();
    let settings = serde_json::to_value(plan).unwrap();
    store.create_run(&NewRun { kind, game: plan.game.clone(), settings, agents }).unwrap()
}

fn league(game: &str, entrants: Vec<Entrant>, pairs: u64) -> Plan {
    Plan {
        game: game.into(),
        time: TimeControl::new(60_000, 10_000),
        seed: 7,
        entrants,
        schedule: Schedule::League { pairs, gauntlet: None },
        sandbox: false,
    }
}

fn play(plan: &Plan, kind: RunKind, jobs: usize) -> (Store, RunId, Standing) {
    let store = Store::open_in_memory().unwrap();
    let id = create(&store, plan, kind);
    let standing = run(&store, id, plan, jobs, &AtomicBool::new(false), &mut |_| {}).unwrap();
    (store, id, standing)
}

#[test]
fn a_league_of_builtins_ranks_greedy_above_random_in_every_game() {
    for game in ["bacteria-war", "domineering", "connexion", "betris-large"] {
        let plan = league(game, vec![builtin("random"), builtin("greedy")], 10);
        let (_, _, standing) = play(&plan, RunKind::League, 2);
        assert_eq!(standing.games(), 20, "{game}");
        let rows = league_rows(&standing);
        assert_eq!(rows[0].name, "greedy", "{game}: {rows:?}");
        assert!(rows[0].elo > rows[1].elo);
        assert!(rows[0].score_pct > 75.0, "{game}: {rows:?}");
    }
}

#[test]
fn the_same_seeds_give_the_same_league_whatever_the_concurrency() {
    let twin = Entrant { name: "greedy2".into(), spec: "builtin:greedy".into(), cwd: None };
    let plan = league("connexion", vec![builtin("random"), builtin("greedy"), twin], 3);
    let (_, _, one) = play(&plan, RunKind::League, 1);
    let (_, _, two) = play(&plan, RunKind::League, 2);
    assert_eq!(one.results, two.results);
    assert_eq!(one.games(), 18);
    // Two copies of the same deterministic agent with the same seeds split their games.
    assert_eq!(one.results[1][2].score(), 3.0, "{:?}", one.results[1][2]);
}

#[test]
fn a_resumed_league_plays_only_the_missing_slots_and_rebuilds_the_same_standing() {
    let plan = league("domineering", vec![builtin("random"), builtin("greedy")], 6);
    let (store, id, full) = play(&plan, RunKind::League, 2);
    // Running again finds nothing to do and counts nothing twice.
    let again = run(&store, id, &plan, 2, &AtomicBool::new(false), &mut |_| {}).unwrap();
    assert_eq!(again.results, full.results);
    assert_eq!(store.results(id).unwrap().len(), 12);
    let rebuilt = standing_from_store(&store, id, &plan).unwrap();
    assert_eq!(rebuilt.results, full.results);
    assert_eq!(rebuilt.pentanomial, full.pentanomial);
}

#[test]
fn an_sprt_stops_when_it_decides() {
    let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05, EloModel::Normalized);
    let plan = Plan {
        game: "domineering".into(),
        time: TimeControl::new(60_000, 10_000),
        seed: 1,
        entrants: vec![builtin("greedy"), builtin("random")],
        schedule: Schedule::Sprt { sprt, max_pairs: 10_000 },
        sandbox: false,
    };
    let (store, id, standing) = play(&plan, RunKind::Sprt, 2);
    let report = sprt_report(&standing, &sprt);
    assert_eq!(report.status, SprtStatus::AcceptH1, "{report:?}");
    // It stops within a few games of the decision: replay the stored games
    // in order and find where the test first decided. Past it, at most the
    // rest of that batch (2), the channel (2) and a game in each of the 2
    // workers' hands are stored.
    let mut replayed = Standing::new(vec!["greedy".into(), "random".into()]);
    let mut decided_at = None;
    for game in store.results(id).unwrap() {
        let slot = versus_league::runner::Slot::parse(&game.slot).unwrap();
        replayed.add(&slot, &game.outcome, &game.move_times_us);
        if decided_at.is_none() && sprt_report(&replayed, &sprt).status != SprtStatus::Continue {
            decided_at = Some(replayed.games());
        }
    }
    let decided_at = decided_at.expect("the stored games decide the test");
    assert!(
        standing.games() <= decided_at + 6,
        "decided after {decided_at} games, stopped after {}",
        standing.games()
    );
    assert_eq!(store.results(id).unwrap().len() as u64, standing.games());
}

#[test]
fn reports_have_every_agent() {
    let plan = league("betris-large", vec![builtin("random"), builtin("greedy")], 2);
    let (_, _, standing) = play(&plan, RunKind::League, 1);
    let csv = league_csv(&standing);
    assert_eq!(csv.lines().count(), 3);
    assert!(csv.starts_with("rank,agent,elo"));
    let json = league_json(&standing);
    assert_eq!(json["ratings"].as_array().unwrap().len(), 2);
    assert_eq!(json["games"], 4);
}

#[test]
fn a_league_ranks_random_below_greedy_below_strong() {
    let mut plan =
        league("betris-large", vec![builtin("random"), builtin("greedy"), builtin("strong")], 3);
    // A short clock: strong manages it, and the test stays quick.
    plan.time = TimeControl::new(1_000, 3_000);
    let (_, _, standing) = play(&plan, RunKind::League, 2);
    assert_eq!(standing.games(), 18);
    let order: Vec<String> = league_rows(&standing).into_iter().map(|r| r.name).collect();
    assert_eq!(order, ["strong", "greedy", "random"], "{:?}", standing.results);
    assert!(standing.tallies.iter().all(|t| t.faults.is_empty()), "{:?}", standing.tallies);
}
