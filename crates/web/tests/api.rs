//! The JSON API without a socket: the router driven with `oneshot`.

mod common;

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;
use versus_core::{BySide, RecordLine};
use versus_judge::{Limits, SandboxSettings};
use versus_league::store::{NewAgent, NewGame, NewRun, RunKind, Store};
use versus_web::{app, AppState, Roster};

const GAMES: [&str; 4] = ["bacteria-war", "domineering", "connexion", "betris-large"];

async fn call(router: &Router, method: &str, uri: &str, body: Body) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(body)
        .unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
    (status, value)
}

fn jsonl(lines: &[RecordLine]) -> String {
    lines.iter().map(|l| serde_json::to_string(l).unwrap() + "\n").collect()
}

#[tokio::test]
async fn the_page_and_its_assets_are_served() {
    let router = app(AppState::new(None));
    for path in ["/", "/app.js", "/style.css"] {
        let response =
            router.clone().oneshot(Request::get(path).body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
    }
    let (status, kinds) = call(&router, "GET", "/api/kinds", Body::empty()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kinds.as_array().unwrap().len(), 4);
}

#[tokio::test]
async fn an_uploaded_record_of_each_game_replays_frame_by_frame() {
    let router = app(AppState::new(None));
    for game in GAMES {
        let lines = common::played(game, 5);
        let (status, replay) =
            call(&router, "POST", "/api/replay", Body::from(jsonl(&lines))).await;
        assert_eq!(status, StatusCode::OK, "{game}: {replay}");
        let frames = replay["frames"].as_array().unwrap();
        assert!(frames.len() > 2, "{game}");
        assert_eq!(replay["outcome"]["result"], json!(format!("{}", footer_result(&lines))));
        // The last frame's scores are the outcome's.
        let last = &frames.last().unwrap()["view"];
        assert_eq!(
            last["scores"]["first"].as_f64(),
            replay["outcome"]["scores"]["first"].as_f64(),
            "{game}"
        );
        assert_eq!(replay["lines"].as_array().unwrap().len(), lines.len());
    }
}

/// The frames the server sends draw the game the record's own lines make
/// (each game's `rebuild`), at every frame, the last included.
#[tokio::test]
async fn every_frame_served_is_the_game_the_record_plays() {
    let router = app(AppState::new(None));
    for game in GAMES {
        for seed in [1, 6] {
            let lines = common::played(game, seed);
            let truth = common::truth(game, &lines);
            let (status, replay) =
                call(&router, "POST", "/api/replay", Body::from(jsonl(&lines))).await;
            assert_eq!(status, StatusCode::OK, "{game}: {replay}");
            let frames = replay["frames"].as_array().unwrap();
            for (n, frame) in frames.iter().enumerate() {
                let index = frame["index"].as_u64().unwrap() as usize;
                let expected = truth.at(index);
                let view = &frame["view"];
                let context = format!("{game} seed {seed}, frame {n} of {}", frames.len());
                assert_eq!(common::drawn_from_view(game, view), expected.cells, "{context}");
                for side in ["first", "second"] {
                    let shown = view["scores"][side].as_f64();
                    let scores = serde_json::to_value(expected.scores).unwrap();
                    assert_eq!(shown, scores[side].as_f64(), "{context}: {side}'s score");
                }
                if game == "betris-large" {
                    let pieces = serde_json::to_value(&expected.pieces).unwrap();
                    for side in ["first", "second"] {
                        let mut shown: Vec<String> = view["pieces"][side]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|p| {
                                let mut cells: Vec<String> = p["cells"]
                                    .as_array()
                                    .unwrap()
                                    .iter()
                                    .map(|c| format!("{} {}", c[0], c[1]))
                                    .collect();
                                cells.sort();
                                cells.join(",")
                            })
                            .collect();
                        shown.sort();
                        assert_eq!(json!(shown), pieces[side], "{context}: {side}'s pieces");
                    }
                }
            }
        }
    }
}

fn footer_result(lines: &[RecordLine]) -> String {
    match lines.last() {
        Some(RecordLine::Footer { outcome }) => outcome.result.notation().to_owned(),
        _ => panic!("no footer"),
    }
}

#[tokio::test]
async fn bad_uploads_are_clear_client_errors() {
    let router = app(AppState::new(None));
    let good = jsonl(&common::played("domineering", 3));
    let truncated: String = good.lines().take(20).map(|l| format!("{l}\n")).collect();
    let wrong_game = good.replacen("\"game\":\"domineering\"", "\"game\":\"chess\"", 1);
    let cases = [
        ("", "empty"),
        ("hello, this is not json", "not a game record"),
        ("{\"type\":\"send\",\"side\":\"first\",\"line\":\"x\"}\n", "header"),
        ("{not json", "not a valid game record"),
        (wrong_game.as_str(), "unknown game"),
    ];
    for (body, message) in cases {
        let (status, value) =
            call(&router, "POST", "/api/replay", Body::from(body.to_owned())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body:.40}: {value}");
        let error = value["error"].as_str().unwrap();
        assert!(error.contains(message), "{error}");
    }
    // A truncated record is a game in progress: shown as far as it goes.
    let (status, value) = call(&router, "POST", "/api/replay", Body::from(truncated)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(value["outcome"].is_null());
    assert!(value["problem"].as_str().unwrap().contains("ends before the game does"), "{value}");
}

#[tokio::test]
async fn runs_and_their_games_come_from_the_store() {
    runs_and_games_served_from(Store::open_in_memory().unwrap()).await;
}

/// The same pages from a PostgreSQL store (the one a league on many
/// machines writes), opened and closed off the runtime as the server does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn runs_and_their_games_come_from_a_postgres_store() {
    let cluster = tokio::task::spawn_blocking(|| {
        versus_sql::scratch::ScratchCluster::start(false).expect("PostgreSQL did not start")
    })
    .await
    .unwrap();
    let Some(cluster) = cluster else {
        eprintln!("SKIPPED: PostgreSQL is not installed");
        return;
    };
    let url = cluster.url();
    let store = tokio::task::spawn_blocking(move || Store::open(url).unwrap()).await.unwrap();
    runs_and_games_served_from(store).await;
}

async fn runs_and_games_served_from(store: Store) {
    let store = tokio::task::spawn_blocking(move || {
        populate(&store);
        store
    })
    .await
    .unwrap();
    let (run, game_id) = (versus_league::store::RunId(1), versus_league::store::GameId(1));
    let router = app(AppState::new(Some(store)));

    let (status, runs) = call(&router, "GET", "/api/runs", Body::empty()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(runs.as_array().unwrap().len(), 1);
    let (status, detail) =
        call(&router, "GET", &format!("/api/runs/{}", run.0), Body::empty()).await;
    assert_eq!(status, StatusCode::OK, "{detail}");
    assert_eq!(detail["ratings"].as_array().unwrap().len(), 2);
    assert_eq!(detail["games"], 1);
    let (_, games) =
        call(&router, "GET", &format!("/api/runs/{}/games", run.0), Body::empty()).await;
    assert_eq!(games.as_array().unwrap().len(), 1);
    let (status, replay) =
        call(&router, "GET", &format!("/api/records/{}", game_id.0), Body::empty()).await;
    assert_eq!(status, StatusCode::OK);
    assert!(replay["frames"].as_array().unwrap().len() > 2);

    for missing in ["/api/runs/99", "/api/records/99"] {
        let (status, value) = call(&router, "GET", missing, Body::empty()).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{missing}: {value}");
    }
    let (status, _) = call(&router, "GET", "/api/runs/abc", Body::empty()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // A PostgreSQL client closes by blocking: not on the runtime.
    tokio::task::spawn_blocking(move || drop(router)).await.unwrap();
}

/// One league run of domineering with one game: run 1, game 1.
fn populate(store: &Store) {
    let agents = vec![
        NewAgent { name: "greedy".into(), spec: "builtin:greedy".into(), hash: "h".into() },
        NewAgent { name: "random".into(), spec: "builtin:random".into(), hash: "h".into() },
    ];
    let plan = json!({
        "game": "domineering", "time": {"game_ms": 10000, "ready_ms": 3000}, "seed": 3,
        "entrants": [{"name": "greedy", "spec": "builtin:greedy"}, {"name": "random", "spec": "builtin:random"}],
        "schedule": {"mode": "league", "pairs": 1, "gauntlet": null}
    });
    let run = store
        .create_run(&NewRun {
            kind: RunKind::League,
            game: "domineering".into(),
            settings: plan,
            agents,
        })
        .unwrap();
    let ids = store.agents(run).unwrap();
    let game = NewGame {
        slot: "0-1/0/0".into(),
        agents: BySide::new(ids[0].id, ids[1].id),
        record: common::played("domineering", 3),
        judge_lag: None,
        harness_flag: None,
    };
    let game_id = store.insert_game(run, &game).unwrap();
    assert_eq!((run.0, game_id.0), (1, 1));
}

#[tokio::test]
async fn without_a_store_the_store_pages_say_so() {
    let router = app(AppState::new(None));
    let (status, value) = call(&router, "GET", "/api/runs", Body::empty()).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(value["error"].as_str().unwrap().contains("--db"));
}

/// Polls the play session until `done` holds of its state.
async fn wait_for(router: &Router, id: u64, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let (status, value) = call(router, "GET", &format!("/api/play/{id}"), Body::empty()).await;
        assert_eq!(status, StatusCode::OK, "{value}");
        if done(&value) {
            return value;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "the game did not move: {value}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test]
async fn a_person_plays_a_whole_game_and_illegal_input_is_refused_not_sent() {
    let router = app(AppState::new(None));
    let body = json!({ "game": "domineering", "agent": "random", "side": "first", "seed": 4 });
    let (status, started) = call(&router, "POST", "/api/play", Body::from(body.to_string())).await;
    assert_eq!(status, StatusCode::OK, "{started}");
    let id = started["id"].as_u64().unwrap();
    let reply = |line: &str| Body::from(json!({ "line": line }).to_string());
    let uri = format!("/api/play/{id}/reply");

    let _ = wait_for(&router, id, |v| v["state"]["your_turn"] == true).await;
    let (status, _) = call(&router, "POST", &uri, reply("OK")).await;
    assert_eq!(status, StatusCode::OK);
    let _ = wait_for(&router, id, |v| v["state"]["your_turn"] == true).await;
    // A placement off the board is refused with the referee's reason, and the game goes on.
    let (status, refused) = call(&router, "POST", &uri, reply("MOVE 8 8")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(refused["error"].as_str().unwrap().starts_with("RE"), "{refused}");
    let (status, _) = call(&router, "POST", &uri, reply("gibberish")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // Then the person passes until the game ends (two passes in a row, or the agent runs out).
    let mut turns = 0;
    loop {
        let state = wait_for(&router, id, |v| {
            v["state"]["your_turn"] == true || v["state"]["over"] == true
        })
        .await;
        if state["state"]["over"] == true {
            let outcome = &state["replay"]["outcome"];
            assert!(outcome["faults"]["first"].is_null(), "{outcome}");
            break;
        }
        let (status, value) = call(&router, "POST", &uri, reply("MOVE -1 -1")).await;
        assert_eq!(status, StatusCode::OK, "{value}");
        turns += 1;
        assert!(turns < 64, "the game does not end");
    }
    let (status, _) = call(&router, "POST", &uri, reply("MOVE -1 -1")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "no reply is taken after the end");
}

#[tokio::test]
async fn a_game_between_builtins_is_played_for_watching() {
    let router = app(AppState::new(None));
    let body = json!({ "game": "connexion", "first": "greedy", "second": "random", "seed": 2 });
    let (status, replay) = call(&router, "POST", "/api/match", Body::from(body.to_string())).await;
    assert_eq!(status, StatusCode::OK, "{replay}");
    assert_eq!(replay["header"]["seed"], 2);
    assert!(replay["frames"].as_array().unwrap().len() > 60, "a Connexion game has 64 moves");
    for (body, message) in [
        (json!({ "game": "chess", "first": "greedy", "second": "random" }), "unknown game"),
        (
            json!({ "game": "connexion", "first": "nobody", "second": "random" }),
            "connexion has no agent \"nobody\" (it has: ",
        ),
    ] {
        let (status, value) =
            call(&router, "POST", "/api/match", Body::from(body.to_string())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{value}");
        assert!(value["error"].as_str().unwrap().contains(message), "{value}");
    }
}

#[tokio::test]
async fn a_connexion_testing_tool_log_replays_to_the_same_game() {
    let router = app(AppState::new(None));
    let lines = common::played("connexion", 8);
    let log = versus_connexion::log::testing_tool_log(BySide::new("./a", "./b"), &lines).unwrap();
    let (status, replay) = call(&router, "POST", "/api/replay", Body::from(log.clone())).await;
    assert_eq!(status, StatusCode::OK, "{replay}");
    let Some(RecordLine::Footer { outcome }) = lines.last() else { panic!() };
    assert_eq!(replay["outcome"]["result"], json!(outcome.result.notation()));
    assert_eq!(replay["outcome"]["scores"]["first"].as_f64(), Some(outcome.scores.first));
    let puts = |value: &Value| -> Vec<String> {
        value["lines"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["type"] == "recv" && l["line"].as_str().unwrap().starts_with("PUT"))
            .map(|l| l["line"].as_str().unwrap().to_owned())
            .collect()
    };
    let original: Vec<String> = lines
        .iter()
        .filter_map(|l| match l {
            RecordLine::Recv { line, .. } if line.starts_with("PUT") => Some(line.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(puts(&replay), original);
    assert_eq!(replay["header"]["agents"]["first"], "./a");

    // A log cut short by a time-out: the game ends there, against that side.
    let turns: Vec<&str> =
        log.lines().filter(|l| l.starts_with("FIRST ") || l.starts_with("SECOND ")).collect();
    let head: Vec<&str> = log.lines().take_while(|l| !l.starts_with("FIRST ")).collect();
    let cut = format!("{}\n{}\nFINISH\nABORT SECOND TLE\n", head.join("\n"), turns[..9].join("\n"));
    let (status, replay) = call(&router, "POST", "/api/replay", Body::from(cut)).await;
    assert_eq!(status, StatusCode::OK, "{replay}");
    assert_eq!(replay["outcome"]["result"], "1-0");
    assert_eq!(replay["outcome"]["faults"]["second"]["kind"], "time_limit");

    let broken = log.replacen("INIT", "INIT Q9", 1);
    let (status, value) = call(&router, "POST", "/api/replay", Body::from(broken)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(value["error"].as_str().unwrap().contains("log line"), "{value}");
}

/// A folder of agent sources and a build cache of its own, removed at the end.
struct Bots {
    dir: std::path::PathBuf,
}

impl Bots {
    fn new(name: &str) -> Bots {
        let dir = std::env::temp_dir().join(format!("versus-web-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Bots { dir }
    }

    fn write(&self, name: &str, text: &str) -> std::path::PathBuf {
        let path = self.dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    /// A server offering `agents` (`--agent` arguments, paths relative to the folder).
    fn server(&self, agents: &[&str]) -> Router {
        let roster = Roster::parse(agents, &self.dir).unwrap();
        let limits = Limits {
            sandbox: SandboxSettings {
                builds: self.dir.join("builds"),
                compile_time: Duration::from_secs(30),
                ..SandboxSettings::default()
            },
            ..Limits::default()
        };
        app(AppState::with_agents(None, roster, limits))
    }
}

impl Drop for Bots {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A Domineering agent that is ready and then passes every turn.
const PASSER: &str = r"import sys
for line in sys.stdin:
    line = line.strip()
    if line.startswith('READY'):
        print('OK', flush=True)
    elif line.startswith('TURN'):
        print('MOVE -1 -1', flush=True)
    elif line == 'FINISH':
        break
";

fn registered_names(kinds: &Value, game: &str) -> Vec<String> {
    let kind = kinds.as_array().unwrap().iter().find(|k| k["name"] == game).unwrap();
    kind["registered"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap().into())
        .collect()
}

#[tokio::test]
async fn a_registered_source_agent_is_listed_and_plays_a_watched_game() {
    let bots = Bots::new("passer");
    let source = bots.write("passer.py", PASSER);
    let router = bots.server(&["domineering:passer=src:passer.py", "lazy=builtin:random"]);

    let (status, kinds) = call(&router, "GET", "/api/kinds", Body::empty()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(registered_names(&kinds, "domineering"), ["passer", "lazy"]);
    assert_eq!(registered_names(&kinds, "connexion"), ["lazy"], "passer plays Domineering only");
    let domineering =
        kinds.as_array().unwrap().iter().find(|k| k["name"] == "domineering").unwrap();
    assert_eq!(domineering["registered"][0]["playable"], false);
    assert_eq!(domineering["registered"][1]["playable"], true);
    assert!(!kinds.to_string().contains("passer.py"), "the list names agents, not their files");

    let body = json!({ "game": "domineering", "first": "passer", "second": "greedy", "seed": 3 });
    let (status, replay) = call(&router, "POST", "/api/match", Body::from(body.to_string())).await;
    assert_eq!(status, StatusCode::OK, "{replay}");
    assert_eq!(replay["header"]["agents"]["first"], json!(format!("src:{}", source.display())));
    assert_eq!(replay["header"]["agents"]["second"], "builtin:greedy");
    let replies: Vec<&str> = replay["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["type"] == "recv" && l["side"] == "first")
        .map(|l| l["line"].as_str().unwrap())
        .collect();
    assert_eq!(replies.first(), Some(&"OK"), "{}", replay["lines"]);
    assert!(replies.len() > 2 && replies[1..].iter().all(|r| *r == "MOVE -1 -1"), "{replies:?}");
    let outcome = &replay["outcome"];
    assert!(outcome["faults"]["first"].is_null(), "the passer plays legally: {outcome}");
    assert_eq!(outcome["result"], "0-1", "passing loses to greedy: {outcome}");

    // The same agent, on the other side of the list's games: not offered.
    let body = json!({ "game": "connexion", "first": "passer", "second": "greedy" });
    let (status, value) = call(&router, "POST", "/api/match", Body::from(body.to_string())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{value}");
}

#[tokio::test]
async fn a_registered_source_that_does_not_compile_loses_with_ce_and_its_compiler_output() {
    let bots = Bots::new("broken");
    bots.write("broken.c", "int main(void) { return undeclared_thing; }\n");
    let router = bots.server(&["broken=src:broken.c"]);
    let body = json!({ "game": "domineering", "first": "greedy", "second": "broken", "seed": 1 });
    let (status, replay) = call(&router, "POST", "/api/match", Body::from(body.to_string())).await;
    assert_eq!(status, StatusCode::OK, "{replay}");
    let outcome = &replay["outcome"];
    assert_eq!(outcome["faults"]["second"]["kind"], "compile", "{outcome}");
    assert_eq!(outcome["result"], "1-0", "{outcome}");
    let debug: Vec<&str> = replay["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["type"] == "debug" && l["side"] == "second")
        .map(|l| l["line"].as_str().unwrap())
        .collect();
    assert!(debug.iter().any(|l| l.contains("undeclared_thing")), "{debug:?}");
}

#[tokio::test]
async fn requests_name_agents_and_never_give_specs_or_paths() {
    let bots = Bots::new("names");
    bots.write("passer.py", PASSER);
    let router = bots.server(&["passer=src:passer.py"]);
    let unknown = [
        ("nobody", "domineering has no agent \"nobody\" (it has: "),
        ("src:/etc/passwd", "is not an agent name"),
        ("src:passer.py", "is not an agent name"),
        ("builtin:greedy", "is not an agent name"),
        ("cat /etc/passwd", "is not an agent name"),
        ("/bin/sh", "is not an agent name"),
    ];
    for (name, message) in unknown {
        let body = json!({ "game": "domineering", "first": name, "second": "greedy" });
        let (status, value) =
            call(&router, "POST", "/api/match", Body::from(body.to_string())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name}: {value}");
        assert!(value["error"].as_str().unwrap().contains(message), "{name}: {value}");

        let body = json!({ "game": "domineering", "agent": name, "side": "first" });
        let (status, value) =
            call(&router, "POST", "/api/play", Body::from(body.to_string())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name}: {value}");
        assert!(value["error"].as_str().unwrap().contains(message), "{name}: {value}");
    }
    // The list says so: a program is watched, not played in the browser.
    let body = json!({ "game": "domineering", "agent": "passer", "side": "first" });
    let (status, value) = call(&router, "POST", "/api/play", Body::from(body.to_string())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{value}");
    assert!(value["error"].as_str().unwrap().contains("is a program"), "{value}");
}

#[tokio::test]
async fn a_person_plays_a_built_in_registered_under_another_name() {
    let router = Bots::new("alias").server(&["lazy=builtin:random"]);
    let body = json!({ "game": "domineering", "agent": "lazy", "side": "second", "seed": 5 });
    let (status, started) = call(&router, "POST", "/api/play", Body::from(body.to_string())).await;
    assert_eq!(status, StatusCode::OK, "{started}");
    let id = started["id"].as_u64().unwrap();
    let state = wait_for(&router, id, |v| v["state"]["your_turn"] == true).await;
    assert_eq!(state["replay"]["header"]["agents"]["first"], "builtin:random");
}
