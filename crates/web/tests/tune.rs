//! The tuning page's API without a socket: a real tuning run in the store,
//! served with its history and the chart's layout.

use std::sync::atomic::AtomicBool;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;
use versus_core::TimeControl;
use versus_league::store::Store;
use versus_league::tune::{self, chart, parse_params, TunePlan};
use versus_web::{app, AppState};

async fn get(router: &axum::Router, uri: &str) -> (StatusCode, String) {
    let response =
        router.clone().oneshot(Request::get(uri).body(Body::empty()).unwrap()).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

#[tokio::test]
async fn a_tuning_run_is_served_with_its_history() {
    let store = Store::open_in_memory().unwrap();
    // `strong` at 40 ms a game: three quick iterations of two parameters.
    let plan = TunePlan {
        game: "bacteria-war".into(),
        agent: "builtin:strong".into(),
        cwd: None,
        params: parse_params(
            "tempo, int, 485, 0, 1000, 50, 0.05\nsoft_percent, int, 60, 10, 100, 5, 0.05",
            "p",
        )
        .unwrap(),
        iterations: 5,
        time: TimeControl { game_ms: 40, ..TimeControl::CONTEST },
        seed: 3,
        sandbox: false,
    };
    let id = tune::create_run(&store, &plan).unwrap();
    let game = versus_games::find("bacteria-war").unwrap();
    let stop = AtomicBool::new(false);
    tune::run(&store, id, game, 1, &stop, &mut |it| {
        if it.k == 2 {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    })
    .unwrap();
    let stored = tune::iterations(&store, id).unwrap();
    assert_eq!(stored.len(), 3);
    let router = app(AppState::new(Some(store)));

    let (status, body) = get(&router, "/api/tune").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let runs: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(runs[0]["id"], id);
    assert_eq!(runs[0]["agent"], "builtin:strong");
    assert_eq!(runs[0]["params"], serde_json::json!(["tempo", "soft_percent"]));
    assert_eq!((runs[0]["done"].as_u64(), runs[0]["iterations"].as_u64()), (Some(3), Some(5)));
    assert!(runs[0]["conclusion"].is_null(), "stopped, not finished");

    let (status, body) = get(&router, &format!("/api/tune/{id}")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let run: Value = serde_json::from_str(&body).unwrap();
    let theta: Vec<Vec<f64>> = serde_json::from_value(run["theta"].clone()).unwrap();
    assert_eq!(theta, stored.iter().map(|it| it.theta.clone()).collect::<Vec<_>>());
    let now = &stored[2].theta;
    let spec = format!("builtin:strong?tempo={}&soft_percent={}", now[0].round(), now[1].round());
    assert_eq!(run["spec"], spec);
    assert_eq!(run["layout"]["width"], chart::WIDTH);
    assert_eq!(run["layout"]["left"], chart::LEFT);

    let (status, _) = get(&router, "/api/tune/99").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, script) = get(&router, "/tune.js").await;
    assert_eq!(status, StatusCode::OK);
    assert!(script.contains("window.tuneRoute"));
    let (_, page) = get(&router, "/").await;
    assert!(page.contains("<script src=\"/tune.js\"></script>") && page.contains("#/tune"));
}
