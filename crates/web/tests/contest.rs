//! The contest's API without a socket: every route authorised,
//! unauthorised, by the wrong owner and without its CSRF token; bad input
//! answered with a 4xx and nothing written.

use std::path::PathBuf;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;
use versus_contest::db::{MatchKind, NewMatch, Player, Window};
use versus_contest::runner::Config;
use versus_contest::{now_ms, Db, SubmissionId, SubmissionState};
use versus_core::{BySide, GameConfig, Outcome, RecordLine, Side, TimeControl};
use versus_web::contest::{Contest, Rules};
use versus_web::{app, AppState};

/// A folder removed when dropped.
struct Dir(PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn folder(name: &str) -> Dir {
    let dir =
        std::env::temp_dir().join(format!("versus-contest-api-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Dir(dir)
}

struct Host {
    router: Router,
    db: PathBuf,
    _dir: Dir,
}

fn host(name: &str, rules: Rules) -> Host {
    let dir = folder(name);
    let db = dir.0.join("contest.sqlite");
    let contest = Contest::open(Config::new(&db), rules).unwrap();
    Host { router: app(AppState::with_contest(None, contest)), db, _dir: dir }
}

fn quick() -> Rules {
    Rules {
        pacing: versus_contest::Pacing::NONE,
        challenge_interval: Duration::ZERO,
        ..Rules::default()
    }
}

/// How a request says who makes it.
#[derive(Clone, Copy)]
enum As<'a> {
    Nobody,
    /// The session cookie with its CSRF token.
    Session(&'a Person),
    /// The session cookie without the CSRF token.
    NoCsrf(&'a Person),
    Token(&'a Person),
}

#[derive(Clone, Debug)]
struct Person {
    cookie: String,
    csrf: String,
    token: String,
}

async fn call(
    host: &Host,
    method: &str,
    uri: &str,
    who: As<'_>,
    body: Body,
) -> (StatusCode, Value, Vec<String>) {
    let mut request =
        Request::builder().method(method).uri(uri).header("content-type", "application/json");
    match who {
        As::Nobody => {}
        As::Session(p) => {
            request = request.header("cookie", &p.cookie).header("x-csrf-token", &p.csrf)
        }
        As::NoCsrf(p) => request = request.header("cookie", &p.cookie),
        As::Token(p) => request = request.header("authorization", format!("Bearer {}", p.token)),
    }
    let response = host.router.clone().oneshot(request.body(body).unwrap()).await.unwrap();
    let status = response.status();
    let cookies = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .collect();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
    (status, value, cookies)
}

async fn get(host: &Host, uri: &str, who: As<'_>) -> (StatusCode, Value) {
    let (status, value, _) = call(host, "GET", uri, who, Body::empty()).await;
    (status, value)
}

async fn post(host: &Host, uri: &str, who: As<'_>, body: Value) -> (StatusCode, Value) {
    let (status, value, _) = call(host, "POST", uri, who, Body::from(body.to_string())).await;
    (status, value)
}

async fn sign_up(host: &Host, name: &str) -> Person {
    let body = json!({ "name": name, "password": format!("{name}-secret-pw") });
    let (status, value, cookies) =
        call(host, "POST", "/api/contest/signup", As::Nobody, Body::from(body.to_string())).await;
    assert_eq!(status, StatusCode::CREATED.min(StatusCode::OK), "{value}");
    let cookie = cookies[0].split(';').next().unwrap().to_owned();
    Person {
        cookie,
        csrf: value["csrf"].as_str().unwrap().into(),
        token: value["token"].as_str().unwrap().into(),
    }
}

fn admin(host: &Host) -> Person {
    let mut db = Db::open(&host.db).unwrap();
    let (user, token) = db.add_user("root", Some("root-password"), true).unwrap();
    let (session, csrf) = db.open_session(user.id, Duration::from_secs(60)).unwrap();
    Person { cookie: format!("versus_session={session}"), csrf, token }
}

fn submissions(host: &Host) -> usize {
    Db::open(&host.db).unwrap().submissions("domineering", None).unwrap().len()
}

const SOURCE: &str = "int main() { return 0; }\n";

#[tokio::test]
async fn sign_up_in_and_out_with_hashed_passwords_and_strict_cookies() {
    let host = host("accounts", quick());
    let body = json!({ "name": "alice", "password": "alice-secret-pw" });
    let (status, value, cookies) =
        call(&host, "POST", "/api/contest/signup", As::Nobody, Body::from(body.to_string())).await;
    assert_eq!(status, StatusCode::OK, "{value}");
    let cookie = &cookies[0];
    for part in ["versus_session=", "HttpOnly", "SameSite=Strict", "Max-Age=604800", "Path=/"] {
        assert!(cookie.contains(part), "{cookie} lacks {part}");
    }
    let alice = Person {
        cookie: cookie.split(';').next().unwrap().into(),
        csrf: value["csrf"].as_str().unwrap().into(),
        token: value["token"].as_str().unwrap().into(),
    };
    // The store has neither the password nor the token nor the session in clear.
    let bytes = std::fs::read(&host.db).unwrap();
    let wal = std::fs::read(host.db.with_extension("sqlite-wal")).unwrap_or_default();
    for secret in [
        "alice-secret-pw",
        alice.token.as_str(),
        alice.cookie.trim_start_matches("versus_session="),
    ] {
        let found = |hay: &[u8]| hay.windows(secret.len()).any(|w| w == secret.as_bytes());
        assert!(!found(&bytes) && !found(&wal), "{secret} is stored in clear");
    }

    assert_eq!(get(&host, "/api/contest/me", As::Session(&alice)).await.1["user"]["name"], "alice");
    assert_eq!(get(&host, "/api/contest/me", As::Token(&alice)).await.1["user"]["name"], "alice");
    assert_eq!(get(&host, "/api/contest/me", As::Nobody).await.0, StatusCode::UNAUTHORIZED);
    let forged = Person { token: "0".repeat(64), ..alice.clone() };
    assert_eq!(get(&host, "/api/contest/me", As::Token(&forged)).await.0, StatusCode::UNAUTHORIZED);

    // Names and passwords.
    let again = post(
        &host,
        "/api/contest/signup",
        As::Nobody,
        json!({"name": "ALICE", "password": "another-pw"}),
    )
    .await;
    assert_eq!(again.0, StatusCode::CONFLICT, "{}", again.1);
    for (name, password) in
        [("a/b", "long-enough"), ("", "long-enough"), ("..", "long-enough"), ("bob", "short")]
    {
        let (status, value) = post(
            &host,
            "/api/contest/signup",
            As::Nobody,
            json!({"name": name, "password": password}),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name:?}: {value}");
    }
    for body in
        ["{", "[]", "{\"name\": 3}", "{\"name\":\"x\",\"password\":\"yyyyyyyy\",\"admin\":true}"]
    {
        let (status, value, _) =
            call(&host, "POST", "/api/contest/signup", As::Nobody, Body::from(body)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {value}");
        assert!(value["error"].as_str().unwrap().contains("malformed"), "{value}");
    }
    let wrong = post(
        &host,
        "/api/contest/signin",
        As::Nobody,
        json!({"name": "alice", "password": "alice-secret-px"}),
    )
    .await;
    assert_eq!(wrong.0, StatusCode::UNAUTHORIZED);
    let nobody = post(
        &host,
        "/api/contest/signin",
        As::Nobody,
        json!({"name": "zed", "password": "alice-secret-pw"}),
    )
    .await;
    assert_eq!((nobody.0, nobody.1["error"].clone()), (wrong.0, wrong.1["error"].clone()));
    let (status, value, cookies) = call(
        &host,
        "POST",
        "/api/contest/signin",
        As::Nobody,
        Body::from(json!({"name": "alice", "password": "alice-secret-pw"}).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{value}");
    assert!(cookies[0].contains("HttpOnly"));

    // A new token replaces the old one; it needs the CSRF token by cookie.
    assert_eq!(
        post(&host, "/api/contest/token", As::NoCsrf(&alice), json!({})).await.0,
        StatusCode::FORBIDDEN
    );
    let (status, value) = post(&host, "/api/contest/token", As::Session(&alice), json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(get(&host, "/api/contest/me", As::Token(&alice)).await.0, StatusCode::UNAUTHORIZED);
    let renewed = Person { token: value["token"].as_str().unwrap().into(), ..alice.clone() };
    assert_eq!(get(&host, "/api/contest/me", As::Token(&renewed)).await.0, StatusCode::OK);

    // Signing out needs the CSRF token too, and ends the session.
    assert_eq!(
        post(&host, "/api/contest/signout", As::NoCsrf(&alice), json!({})).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        post(&host, "/api/contest/signout", As::Session(&alice), json!({})).await.0,
        StatusCode::OK
    );
    assert_eq!(
        get(&host, "/api/contest/me", As::Session(&alice)).await.0,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn submissions_are_checked_and_bad_ones_write_nothing() {
    let host = host("uploads", quick());
    let alice = sign_up(&host, "alice").await;
    let url = "/api/contest/games/domineering/submissions";
    let good = json!({ "filename": "bot.cpp", "source": SOURCE });
    assert_eq!(post(&host, url, As::Nobody, good.clone()).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(post(&host, url, As::NoCsrf(&alice), good.clone()).await.0, StatusCode::FORBIDDEN);
    let wrong_csrf = Person { csrf: "1".repeat(64), ..alice.clone() };
    assert_eq!(
        post(&host, url, As::Session(&wrong_csrf), good.clone()).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(submissions(&host), 0);

    let big = "x".repeat(1024 * 1024 + 1);
    let cases = [
        (json!({ "filename": "bot.cpp", "source": big }), StatusCode::PAYLOAD_TOO_LARGE),
        (json!({ "language": "cobol", "source": SOURCE }), StatusCode::BAD_REQUEST),
        (json!({ "filename": "bot.txt", "source": SOURCE }), StatusCode::BAD_REQUEST),
        (json!({ "source": SOURCE }), StatusCode::BAD_REQUEST),
        (json!({ "filename": "bot.cpp", "source": " \n\t" }), StatusCode::BAD_REQUEST),
        (
            json!({ "filename": "bot.cpp", "source": "\u{7f}ELF\u{2}\u{1}\u{1}\0\0\0" }),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        (json!({ "filename": "../../etc/bot.cpp", "source": SOURCE }), StatusCode::BAD_REQUEST),
        (json!({ "filename": "dir\\bot.cpp", "source": SOURCE }), StatusCode::BAD_REQUEST),
        (json!({ "filename": "bot.cpp", "source": SOURCE, "extra": 1 }), StatusCode::BAD_REQUEST),
        (json!({ "filename": "bot.cpp" }), StatusCode::BAD_REQUEST),
        (json!("just a string"), StatusCode::BAD_REQUEST),
    ];
    for (body, expected) in cases {
        let (status, value) = post(&host, url, As::Token(&alice), body.clone()).await;
        assert_eq!(
            status,
            expected,
            "{}: {value}",
            body.to_string().chars().take(200).collect::<String>()
        );
        assert!(value["error"].is_string(), "{value}");
    }
    let (status, _, _) =
        call(&host, "POST", url, As::Token(&alice), Body::from("{\"source\": ")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, value) =
        post(&host, "/api/contest/games/chess/submissions", As::Token(&alice), good.clone()).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{value}");
    // A body far over the limit is refused before it is read whole.
    let huge = json!({ "filename": "bot.cpp", "source": "y".repeat(3 * 1024 * 1024) });
    assert_eq!(post(&host, url, As::Token(&alice), huge).await.0, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(submissions(&host), 0, "a refused upload wrote something");

    // A token needs no CSRF token; the cookie with it works as well.
    let (status, value) = post(&host, url, As::Token(&alice), good.clone()).await;
    assert_eq!(status, StatusCode::CREATED, "{value}");
    assert_eq!(value["language"], "cpp");
    let (status, value) = post(
        &host,
        url,
        As::Session(&alice),
        json!({ "language": "python", "source": "print(1)\n" }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{value}");
    assert_eq!(submissions(&host), 2);
    let (status, list) = get(&host, url, As::Nobody).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list.as_array().unwrap().len(), 2);
    assert!(list[0].get("source").is_none(), "{list}");
}

#[tokio::test]
async fn submissions_are_rate_limited_per_participant() {
    let host = host(
        "rate",
        Rules {
            pacing: versus_contest::Pacing { count: 1, window: Duration::from_secs(60) },
            ..quick()
        },
    );
    let (alice, bob) = (sign_up(&host, "alice").await, sign_up(&host, "bob").await);
    let url = "/api/contest/games/domineering/submissions";
    let good = json!({ "filename": "bot.cpp", "source": SOURCE });
    assert_eq!(post(&host, url, As::Token(&alice), good.clone()).await.0, StatusCode::CREATED);
    let (status, value) = post(&host, url, As::Token(&alice), good.clone()).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{value}");
    assert!(value["error"].as_str().unwrap().contains("wait"), "{value}");
    assert_eq!(post(&host, url, As::Token(&bob), good).await.0, StatusCode::CREATED);
    assert_eq!(submissions(&host), 2);
}

/// Makes a submission of `person` playing, as the runner would after its gate.
fn playing(host: &Host, id: i64) {
    let mut db = Db::open(&host.db).unwrap();
    let id = SubmissionId(id);
    for (from, to) in [
        (SubmissionState::Queued, SubmissionState::Compiling),
        (SubmissionState::Compiling, SubmissionState::Gate),
        (SubmissionState::Gate, SubmissionState::Rated),
    ] {
        assert!(db.move_submission(id, from, to, None).unwrap());
    }
}

async fn submit(host: &Host, person: &Person) -> i64 {
    let (status, value) = post(
        host,
        "/api/contest/games/domineering/submissions",
        As::Token(person),
        json!({ "filename": "bot.cpp", "source": SOURCE }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{value}");
    value["id"].as_i64().unwrap()
}

#[tokio::test]
async fn sources_compile_output_and_stderr_are_their_owners_only() {
    let host = host("privacy", quick());
    let (alice, bob) = (sign_up(&host, "alice").await, sign_up(&host, "bob").await);
    let root = admin(&host);
    let a = submit(&host, &alice).await;
    let b = submit(&host, &bob).await;
    {
        let mut db = Db::open(&host.db).unwrap();
        db.move_submission(
            SubmissionId(a),
            SubmissionState::Queued,
            SubmissionState::Compiling,
            None,
        )
        .unwrap();
        db.compile_failed(
            SubmissionId(a),
            "main.cpp:1: error: SECRET-SUMMARY",
            "SECRET-LOG of alice",
        )
        .unwrap();
    }
    playing(&host, b);
    let source = |id: i64| format!("/api/contest/submissions/{id}/source");
    let (status, value) = get(&host, &source(a), As::Session(&alice)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(value["source"], SOURCE);
    assert_eq!(value["compile_log"], "SECRET-LOG of alice");
    assert_eq!(get(&host, &source(a), As::Token(&bob)).await.0, StatusCode::FORBIDDEN);
    assert_eq!(get(&host, &source(a), As::Nobody).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(get(&host, &source(a), As::Session(&root)).await.0, StatusCode::OK);
    assert_eq!(get(&host, &source(999), As::Session(&alice)).await.0, StatusCode::NOT_FOUND);
    assert_eq!(
        get(&host, "/api/contest/submissions/x/source", As::Session(&alice)).await.0,
        StatusCode::BAD_REQUEST
    );
    // The public view of a CE shows no compiler output, no source.
    for who in [As::Nobody, As::Token(&bob)] {
        let (status, value) = get(&host, &format!("/api/contest/submissions/{a}"), who).await;
        assert_eq!(status, StatusCode::OK);
        let text = value.to_string();
        assert!(!text.contains("SECRET") && !text.contains("int main"), "{text}");
        assert_eq!(value["submission"]["state"], "ce");
    }
    // Choosing an entry is the owner's.
    let entry = |id: i64| format!("/api/contest/submissions/{id}/entry");
    assert_eq!(post(&host, &entry(b), As::Token(&alice), json!({})).await.0, StatusCode::FORBIDDEN);
    assert_eq!(post(&host, &entry(b), As::NoCsrf(&bob), json!({})).await.0, StatusCode::FORBIDDEN);
    assert_eq!(post(&host, &entry(b), As::Session(&bob), json!({})).await.0, StatusCode::OK);

    // A game between bob's entry and a level: bob's standard error is bob's.
    let game_id = {
        let mut db = Db::open(&host.db).unwrap();
        let id = db
            .queue_match(&NewMatch {
                game: "domineering".into(),
                kind: MatchKind::Rated,
                first: Player::Submission(SubmissionId(b)),
                second: Player::Builtin("greedy".into()),
                seed: 3,
                counted: true,
                requested_by: None,
            })
            .unwrap();
        let leased = db.lease_match().unwrap().unwrap();
        assert_eq!(leased.id, id);
        let mut lines = record(3);
        lines.insert(1, RecordLine::Debug { side: Side::First, line: "BOB-STDERR".into() });
        lines.insert(1, RecordLine::Debug { side: Side::Second, line: "LEVEL-STDERR".into() });
        assert!(db.finish_match(id, &lines).unwrap());
        assert!(!db.finish_match(id, &lines).unwrap(), "a result was written twice");
        id.0
    };
    let url = format!("/api/contest/matches/{game_id}");
    let shown = |value: &Value| value["replay"].to_string();
    let (status, mine) = get(&host, &url, As::Token(&bob)).await;
    assert_eq!(status, StatusCode::OK, "{mine}");
    assert!(shown(&mine).contains("BOB-STDERR") && !shown(&mine).contains("LEVEL-STDERR"));
    for who in [As::Nobody, As::Token(&alice)] {
        let (status, theirs) = get(&host, &url, who).await;
        assert_eq!(status, StatusCode::OK);
        assert!(!shown(&theirs).contains("BOB-STDERR"), "{theirs}");
        assert!(theirs["replay"]["frames"].as_array().unwrap().len() > 10);
    }
    assert_eq!(get(&host, "/api/contest/matches/4242", As::Nobody).await.0, StatusCode::NOT_FOUND);
}

/// A finished Domineering game (greedy v random) to store as a contest game.
fn record(seed: u64) -> Vec<RecordLine> {
    let game = versus_games::find("domineering").unwrap();
    let config = GameConfig { seed, time: TimeControl::CONTEST, input: None };
    let agents = BySide::new(
        versus_judge::AgentSpec::Builtin { name: "greedy".into(), seed: 1 },
        versus_judge::AgentSpec::Builtin { name: "random".into(), seed: 2 },
    );
    let mut lines = Vec::new();
    versus_judge::run_game(game, &config, &agents, &versus_judge::Limits::default(), &mut |l| {
        lines.push(l)
    })
    .unwrap();
    lines
}

/// Queues and finishes a game with `outcome` (the record is any game's).
fn finished(db: &mut Db, first: Player, second: Player, outcome: Outcome) {
    let id = db
        .queue_match(&NewMatch {
            game: "domineering".into(),
            kind: MatchKind::Rated,
            first,
            second,
            seed: 1,
            counted: true,
            requested_by: None,
        })
        .unwrap();
    assert_eq!(db.lease_match().unwrap().unwrap().id, id);
    let mut lines = record(1);
    lines.pop();
    lines.push(RecordLine::Footer { outcome });
    assert!(db.finish_match(id, &lines).unwrap());
}

#[tokio::test]
async fn admins_hide_rejudge_reset_and_set_the_window_and_nobody_else_can() {
    let host = host("admin", quick());
    let alice = sign_up(&host, "alice").await;
    let root = admin(&host);
    let a = submit(&host, &alice).await;
    playing(&host, a);
    {
        let mut db = Db::open(&host.db).unwrap();
        for _ in 0..6 {
            let win = Outcome::from_scores(BySide::new(10.0, 2.5));
            finished(
                &mut db,
                Player::Submission(SubmissionId(a)),
                Player::Builtin("greedy".into()),
                win,
            );
        }
    }
    let board =
        || async { get(&host, "/api/contest/games/domineering/leaderboard", As::Nobody).await.1 };
    let rows = board().await["rows"].clone();
    let alice_row = rows.as_array().unwrap().iter().find(|r| r["name"] == "alice").unwrap().clone();
    assert_eq!((alice_row["games"].as_u64(), alice_row["wins"].as_u64()), (Some(6), Some(6)));
    let game = versus_games::find("domineering").unwrap();
    let greedy = versus_contest::levels::level(game, "greedy").unwrap().elo;
    assert!(alice_row["elo"].as_f64().unwrap() > greedy, "6 of 6 against greedy: {alice_row}");
    assert_eq!(rows.as_array().unwrap().len(), 5, "four levels and alice: {rows}");

    let hide = format!("/api/contest/admin/submissions/{a}/hide");
    let rejudge = format!("/api/contest/admin/submissions/{a}/rejudge");
    let reset = "/api/contest/admin/games/domineering/reset";
    let window = "/api/contest/admin/window";
    for (url, body) in [
        (hide.as_str(), json!({"hidden": true})),
        (rejudge.as_str(), json!({})),
        (reset, json!({})),
        (window, json!({})),
    ] {
        assert_eq!(
            post(&host, url, As::Nobody, body.clone()).await.0,
            StatusCode::UNAUTHORIZED,
            "{url}"
        );
        assert_eq!(
            post(&host, url, As::Token(&alice), body.clone()).await.0,
            StatusCode::FORBIDDEN,
            "{url}"
        );
        assert_eq!(
            post(&host, url, As::NoCsrf(&root), body.clone()).await.0,
            StatusCode::FORBIDDEN,
            "{url}"
        );
    }
    assert_eq!(
        post(&host, &hide, As::Session(&root), json!({"hidden": "yes"})).await.0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        post(
            &host,
            "/api/contest/admin/submissions/999/hide",
            As::Session(&root),
            json!({"hidden": true})
        )
        .await
        .0,
        StatusCode::NOT_FOUND
    );

    assert_eq!(
        post(&host, &hide, As::Session(&root), json!({"hidden": true})).await.0,
        StatusCode::OK
    );
    assert!(board().await["rows"].as_array().unwrap().iter().all(|r| r["name"] != "alice"));
    assert_eq!(
        post(&host, &hide, As::Token(&root), json!({"hidden": false})).await.0,
        StatusCode::OK
    );
    assert!(board().await["rows"].as_array().unwrap().iter().any(|r| r["name"] == "alice"));

    // The window: submissions only inside it; the board frozen for all but admins.
    let now = now_ms();
    let bad = post(
        &host,
        window,
        As::Session(&root),
        json!({"start_at": now, "end_at": now - 1, "freeze_at": null}),
    )
    .await;
    assert_eq!(bad.0, StatusCode::BAD_REQUEST, "{}", bad.1);
    let frozen_window = Window {
        start_at: Some(now - 10_000),
        end_at: Some(now + 600_000),
        freeze_at: Some(now - 5_000),
    };
    assert_eq!(
        post(&host, window, As::Session(&root), serde_json::to_value(frozen_window).unwrap())
            .await
            .0,
        StatusCode::OK
    );
    let frozen = board().await;
    assert!(frozen["frozen_at"].is_i64(), "{frozen}");
    assert!(
        frozen["rows"].as_array().unwrap().iter().all(|r| r["name"] != "alice"),
        "games after the freeze show: {frozen}"
    );
    let live = get(&host, "/api/contest/games/domineering/leaderboard", As::Token(&root)).await.1;
    assert!(
        live["frozen_at"].is_null()
            && live["rows"].as_array().unwrap().iter().any(|r| r["name"] == "alice")
    );
    // Ended: no more submissions; with nobody to play finals against, the
    // final board is shown to all.
    let ended = Window { end_at: Some(now - 1), ..frozen_window };
    assert_eq!(
        post(&host, window, As::Session(&root), serde_json::to_value(ended).unwrap()).await.0,
        StatusCode::OK
    );
    let late = post(
        &host,
        "/api/contest/games/domineering/submissions",
        As::Token(&alice),
        json!({"filename": "bot.cpp", "source": SOURCE}),
    )
    .await;
    assert_eq!(late.0, StatusCode::FORBIDDEN, "{}", late.1);
    let done = board().await;
    assert_eq!(
        (done["ended"].as_bool(), done["finals_over"].as_bool()),
        (Some(true), Some(true)),
        "{done}"
    );
    assert!(done["rows"].as_array().unwrap().iter().any(|r| r["name"] == "alice"));
    let open = Window::default();
    assert_eq!(
        post(&host, window, As::Session(&root), serde_json::to_value(open).unwrap()).await.0,
        StatusCode::OK
    );

    // A reset uncounts every game; a rejudge queues the submission again.
    let (status, value) = post(&host, reset, As::Session(&root), json!({})).await;
    assert_eq!((status, value["uncounted"].as_u64()), (StatusCode::OK, Some(6)));
    assert!(board().await["rows"].as_array().unwrap().iter().all(|r| r["name"] != "alice"));
    assert_eq!(post(&host, &rejudge, As::Session(&root), json!({})).await.0, StatusCode::OK);
    let state = get(&host, &format!("/api/contest/submissions/{a}"), As::Nobody).await.1;
    assert_eq!(state["submission"]["state"], "queued");
}

#[tokio::test]
async fn challenges_and_play_need_a_signed_in_participant_and_an_entry() {
    let host = host("challenge", Rules { challenge_interval: Duration::from_secs(60), ..quick() });
    let (alice, bob) = (sign_up(&host, "alice").await, sign_up(&host, "bob").await);
    let url = "/api/contest/games/domineering/challenge";
    assert_eq!(
        post(&host, url, As::Nobody, json!({"opponent": "bob"})).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        post(&host, url, As::NoCsrf(&alice), json!({"opponent": "bob"})).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        post(&host, url, As::Session(&alice), json!({"opponent": "bob"})).await.0,
        StatusCode::BAD_REQUEST
    );
    let a = submit(&host, &alice).await;
    playing(&host, a);
    let (status, value) = post(&host, url, As::Session(&alice), json!({"opponent": "bob"})).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "bob has no entry: {value}");
    assert_eq!(
        post(&host, url, As::Session(&alice), json!({"opponent": "nobody"})).await.0,
        StatusCode::NOT_FOUND
    );
    let b = submit(&host, &bob).await;
    playing(&host, b);
    let (status, value) = post(&host, url, As::Session(&alice), json!({"opponent": "bob"})).await;
    assert_eq!(status, StatusCode::CREATED, "{value}");
    let game = get(&host, &format!("/api/contest/matches/{}", value["id"]), As::Nobody).await.1;
    assert_eq!(
        (game["match"]["kind"].as_str(), game["match"]["counted"].as_bool()),
        (Some("challenge"), Some(false))
    );
    assert!(game["replay"].is_null());
    assert_eq!(
        post(&host, url, As::Session(&alice), json!({"opponent": "bob"})).await.0,
        StatusCode::TOO_MANY_REQUESTS
    );

    let play = "/api/contest/play";
    let body = json!({"game": "domineering", "opponent": "builtin:greedy", "side": "first"});
    assert_eq!(post(&host, play, As::Nobody, body.clone()).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(post(&host, play, As::NoCsrf(&alice), body.clone()).await.0, StatusCode::FORBIDDEN);
    assert_eq!(
        post(
            &host,
            play,
            As::Session(&alice),
            json!({"game": "domineering", "opponent": "builtin:nope", "side": "first"})
        )
        .await
        .0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        post(
            &host,
            play,
            As::Session(&alice),
            json!({"game": "domineering", "opponent": "carol", "side": "first"})
        )
        .await
        .0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        post(
            &host,
            play,
            As::Session(&alice),
            json!({"game": "domineering", "opponent": "bob", "side": "third"})
        )
        .await
        .0,
        StatusCode::BAD_REQUEST
    );
    let (status, value) = post(&host, play, As::Session(&alice), body).await;
    assert_eq!(status, StatusCode::OK, "{value}");
    let state = your_turn(&host, &format!("/api/play/{}", value["id"])).await;
    assert_eq!(state["state"]["your_turn"], true, "{state}");
}

/// The state of a play session once it waits for the person (or after 10 s).
async fn your_turn(host: &Host, url: &str) -> Value {
    let mut state = Value::Null;
    for _ in 0..100 {
        let (status, value) = get(host, url, As::Nobody).await;
        assert_eq!(status, StatusCode::OK, "{value}");
        state = value;
        if state["state"]["your_turn"] == true {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    state
}

#[tokio::test]
async fn a_person_plays_an_entry_built_and_run_in_the_sandbox() {
    let dir = folder("play-entry");
    let db = dir.0.join("contest.sqlite");
    let mut config = Config::new(&db);
    config.limits.sandbox.builds = dir.0.join("cache");
    let contest = Contest::open(config, quick()).unwrap();
    let host = Host { router: app(AppState::with_contest(None, contest)), db, _dir: dir };
    let (alice, bob) = (sign_up(&host, "alice").await, sign_up(&host, "bob").await);
    let starter = include_str!("../../cli/starters/domineering/bot.cpp");
    let (status, value) = post(
        &host,
        "/api/contest/games/domineering/submissions",
        As::Token(&bob),
        json!({ "filename": "bot.cpp", "source": starter }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{value}");
    playing(&host, value["id"].as_i64().unwrap());
    let body = json!({"game": "domineering", "opponent": "bob", "side": "second"});
    let (status, value) = post(&host, "/api/contest/play", As::Session(&alice), body).await;
    assert_eq!(status, StatusCode::OK, "{value}");
    let url = format!("/api/play/{}", value["id"]);
    // bob's program moves first; then it is the person's turn.
    let state = your_turn(&host, &url).await;
    assert_eq!(state["state"]["your_turn"], true, "{state}");
    let replay = state["replay"].to_string();
    assert!(replay.contains("bob (submission"), "{replay}");
    assert!(!replay.contains("\"fault\""), "{replay}");
}

#[tokio::test]
async fn public_pages_answer_without_sign_in_and_unknown_games_are_404() {
    let host = host("public", quick());
    let (status, info) = get(&host, "/api/contest", As::Nobody).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(info["games"].as_array().unwrap().len(), 4);
    for tab in ["leaderboard", "participants", "submissions", "matches"] {
        assert_eq!(
            get(&host, &format!("/api/contest/games/domineering/{tab}"), As::Nobody).await.0,
            StatusCode::OK,
            "{tab}"
        );
        assert_eq!(
            get(&host, &format!("/api/contest/games/chess/{tab}"), As::Nobody).await.0,
            StatusCode::NOT_FOUND,
            "{tab}"
        );
    }
    let board = get(&host, "/api/contest/games/domineering/leaderboard", As::Nobody).await.1;
    let names: Vec<&str> =
        board["rows"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["builtin:strong", "builtin:ab4", "builtin:greedy", "builtin:random"]);
    // A server without a contest says so.
    let plain =
        Host { router: app(AppState::new(None)), db: PathBuf::new(), _dir: folder("plain") };
    let (status, value) = get(&plain, "/api/contest", As::Nobody).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(value["error"].as_str().unwrap().contains("no contest"));
}

#[tokio::test]
async fn admins_schedule_evaluations_and_anybody_reads_their_rounds_and_standings() {
    let host = host("evaluations", quick());
    let (alice, bob, carol) =
        (sign_up(&host, "alice").await, sign_up(&host, "bob").await, sign_up(&host, "carol").await);
    let root = admin(&host);
    let mut ids = Vec::new();
    for person in [&alice, &bob, &carol] {
        let id = submit(&host, person).await;
        playing(&host, id);
        ids.push(id);
    }
    let url = "/api/contest/admin/games/domineering/evaluations";
    let swiss = json!({ "kind": "swiss", "rounds": 2, "games": 2 });
    assert_eq!(post(&host, url, As::Token(&alice), swiss.clone()).await.0, StatusCode::FORBIDDEN);
    assert_eq!(post(&host, url, As::Nobody, swiss.clone()).await.0, StatusCode::UNAUTHORIZED);
    for bad in [
        json!({ "kind": "knockout" }),
        json!({ "kind": "swiss", "rounds": 0 }),
        json!({ "kind": "swiss", "games": 1000 }),
        json!({ "kind": "swiss", "repeat_hours": -1 }),
        json!({ "kind": "swiss", "colour": "blue" }),
    ] {
        let (status, value) = post(&host, url, As::Token(&root), bad.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {value}");
    }
    let missing = "/api/contest/admin/games/chess/evaluations";
    assert_eq!(
        post(&host, missing, As::Token(&root), swiss.clone()).await.0,
        StatusCode::NOT_FOUND
    );
    let (status, value) = post(&host, url, As::Token(&root), swiss).await;
    assert_eq!(status, StatusCode::CREATED, "{value}");
    let id = value["id"].as_i64().unwrap();

    // The scheduler's step, as the runner takes it: it starts, seeds the
    // three entries by submission time, and queues round 1 with a bye.
    {
        let mut db = Db::open(&host.db).unwrap();
        assert!(versus_contest::evaluation::advance(&mut db, versus_contest::now_ms()).unwrap());
    }
    let (status, list) = get(&host, "/api/contest/games/domineering/evaluations", As::Nobody).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list[0]["id"], id);
    assert_eq!(list[0]["state"], "running");
    assert_eq!(list[0]["participants"], 3);
    let (status, view) = get(&host, &format!("/api/contest/evaluations/{id}"), As::Nobody).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["kind"], "swiss");
    // Round 1: everyone on 0: the bye to seed 1 (alice's), then bob's and
    // carol's two games, seats alternating.
    assert_eq!(view["rounds"][0]["bye"], ids[0]);
    let games = view["rounds"][0]["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(
        (games[0]["first"].clone(), games[0]["second"].clone()),
        (json!(ids[2]), json!(ids[1]))
    );
    assert_eq!(
        (games[1]["first"].clone(), games[1]["second"].clone()),
        (json!(ids[1]), json!(ids[2]))
    );
    assert_eq!(view["participants"][0]["name"], "alice");
    assert_eq!(view["standings"][0]["submission"], ids[0], "the bye's points: {view}");
    assert_eq!(
        get(&host, "/api/contest/evaluations/999", As::Nobody).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(get(&host, "/api/contest/evaluations/x", As::Nobody).await.0, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_data_file_travels_with_its_submission_within_nypcs_limits() {
    let host = host("data", quick());
    let alice = sign_up(&host, "alice").await;
    let url = "/api/contest/games/domineering/submissions";
    // "AAEC/w==" is the bytes 0, 1, 2, 255, written out by hand.
    let good = json!({ "filename": "bot.cpp", "source": SOURCE, "data": "AAEC/w==" });
    let (status, value) = post(&host, url, As::Token(&alice), good).await;
    assert_eq!(status, StatusCode::CREATED, "{value}");
    let id = value["id"].as_i64().unwrap();
    let db = Db::open(&host.db).unwrap();
    assert_eq!(db.submission_data(SubmissionId(id)).unwrap(), Some(vec![0, 1, 2, 255]));
    let (_, page) = get(&host, &format!("/api/contest/submissions/{id}"), As::Nobody).await;
    assert_eq!(page["submission"]["data_bytes"], 4, "{page}");
    assert!(page["submission"].get("data").is_none(), "{page}");

    let not_base64 = json!({ "filename": "bot.cpp", "source": SOURCE, "data": "not base64!" });
    let (status, value) = post(&host, url, As::Token(&alice), not_base64).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{value}");
    assert!(value["error"].as_str().unwrap().contains("base64"), "{value}");
    // 10 MiB + 3 bytes of zeros: 4 base64 characters per 3 bytes.
    let over = "A".repeat((10 * 1024 * 1024 + 3) / 3 * 4);
    let too_big = json!({ "filename": "bot.cpp", "source": SOURCE, "data": over });
    let (status, value) = post(&host, url, As::Token(&alice), too_big).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{value}");
    assert!(value["error"].as_str().unwrap().contains("10 MiB"), "{value}");
    let big_source = format!("// {}\nint main() {{}}\n", "x".repeat(1024 * 1024));
    let (status, _) =
        post(&host, url, As::Token(&alice), json!({ "filename": "bot.cpp", "source": big_source }))
            .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(submissions(&host), 1, "refused uploads write nothing");
}
