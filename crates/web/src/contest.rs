//! The contest's routes (`versus host`): participants, submissions, the
//! leaderboard, games, challenges and play against entries, over
//! [`versus_contest`].
//!
//! Who is asking: a session cookie (`versus_session`, HttpOnly,
//! SameSite=Strict, expiring) or an API token (`Authorization: Bearer T`).
//! Every state-changing request made with the cookie carries the session's
//! CSRF token in `X-CSRF-Token`; a token request needs none (a browser never
//! sends it by itself). Sources, compiler output and standard error are
//! served to their owner and admins only.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Path as UrlPath, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use versus_contest::db::{Player, Window};
use versus_contest::levels::{levels, summary};
use versus_contest::runner::{self, Config};
use versus_contest::{
    auth, leaderboard, now_ms, ContestError, Db, MatchId, Pacing, Submission, SubmissionId, User,
};
use versus_core::{Game, RecordLine, Side};
use versus_judge::Language;

use crate::play::{NewPlay, Opponent};
use crate::{ApiError, AppState};

/// The cookie that holds a session.
pub const SESSION_COOKIE: &str = "versus_session";

/// The largest request body of a contest route: a source at its limit
/// (1 MiB, escaped as JSON) and a data file at its limit (10 MiB, in base64)
/// fit.
pub const MAX_BODY: usize = 18 * 1024 * 1024;

/// The contest part of the server.
#[derive(Debug)]
pub struct Contest {
    db: Mutex<Db>,
    /// The runner's configuration: where sources are, limits, clock.
    pub config: Config,
    pub rules: Rules,
}

/// What a participant may do, and how often.
#[derive(Clone, Debug)]
pub struct Rules {
    /// The largest source accepted.
    pub max_source_bytes: usize,
    /// How often a participant may submit (NYPC's: two within 5 minutes).
    pub pacing: Pacing,
    pub challenge_interval: Duration,
    pub session_ttl: Duration,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            max_source_bytes: versus_sandbox::MAX_SOURCE_BYTES as usize,
            pacing: Pacing::NYPC,
            challenge_interval: Duration::from_secs(60),
            session_ttl: Duration::from_secs(7 * 24 * 3600),
        }
    }
}

impl Contest {
    /// The contest over the store the runner `config` names.
    pub fn open(config: Config, rules: Rules) -> Result<Contest, ContestError> {
        Ok(Contest { db: Mutex::new(Db::connect(&config.db)?), config, rules })
    }
}

impl From<ContestError> for ApiError {
    fn from(error: ContestError) -> ApiError {
        let status = match &error {
            ContestError::Invalid(_) => StatusCode::BAD_REQUEST,
            ContestError::NameTaken(_) => StatusCode::CONFLICT,
            ContestError::BadCredentials => StatusCode::UNAUTHORIZED,
            ContestError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ContestError::Forbidden(_) => StatusCode::FORBIDDEN,
            ContestError::NotFound(_) => StatusCode::NOT_FOUND,
            ContestError::Store(_) | ContestError::Open { .. } | ContestError::Corrupt(_) => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
        };
        ApiError { status, message: error.to_string() }
    }
}

fn status(status: StatusCode, message: impl Into<String>) -> ApiError {
    ApiError { status, message: message.into() }
}

type ApiResult = Result<Response, ApiError>;

/// The contest's routes.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/api/contest", get(overview))
        .route("/api/contest/signup", post(sign_up))
        .route("/api/contest/signin", post(sign_in))
        .route("/api/contest/signout", post(sign_out))
        .route("/api/contest/me", get(me))
        .route("/api/contest/token", post(new_token))
        .route("/api/contest/games/{game}/leaderboard", get(top_player))
        .route("/api/contest/games/{game}/participants", get(participants))
        .route("/api/contest/games/{game}/submissions", get(submissions).post(submit))
        .route("/api/contest/games/{game}/matches", get(game_matches))
        .route("/api/contest/games/{game}/challenge", post(challenge))
        .route("/api/contest/submissions/{id}", get(submission))
        .route("/api/contest/submissions/{id}/source", get(submission_source))
        .route("/api/contest/submissions/{id}/entry", post(choose_entry))
        .route("/api/contest/matches/{id}", get(game_match))
        .route("/api/contest/play", post(play))
        .route("/api/contest/admin/submissions/{id}/hide", post(hide))
        .route("/api/contest/admin/submissions/{id}/rejudge", post(rejudge))
        .route("/api/contest/admin/games/{game}/reset", post(reset))
        .route("/api/contest/admin/window", post(set_window))
        .route("/api/contest/games/{game}/evaluations", get(evaluations))
        .route("/api/contest/evaluations/{id}", get(evaluation))
        .route("/api/contest/admin/games/{game}/evaluations", post(schedule_evaluation))
}

fn contest(state: &AppState) -> Result<&Contest, ApiError> {
    state
        .contest
        .as_ref()
        .ok_or_else(|| ApiError::missing("this server runs no contest (start it with versus host)"))
}

/// Runs `work` on the contest's store off the async runtime (password
/// hashing and the judge's builds take milliseconds to seconds).
async fn with_db<T: Send + 'static>(
    state: &Arc<AppState>,
    work: impl FnOnce(&mut Db, &Contest) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    contest(state)?;
    let state = Arc::clone(state);
    tokio::task::spawn_blocking(move || {
        let contest = contest(&state)?;
        let mut db = contest.db.lock().unwrap_or_else(|e| e.into_inner());
        work(&mut db, contest)
    })
    .await
    .map_err(|e| ApiError::internal(e.to_string()))?
}

/// Parses a JSON body into `T`, or says what is wrong with it (400).
fn parse<T: DeserializeOwned>(body: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::bad(format!("malformed request: {e}")))
}

fn find_game(name: &str) -> Result<&'static dyn Game, ApiError> {
    versus_games::find(name).ok_or_else(|| {
        ApiError::missing(format!("no game {name:?} (games: {})", versus_games::names()))
    })
}

fn parse_id(text: &str) -> Result<i64, ApiError> {
    text.parse().map_err(|_| ApiError::bad(format!("{text:?} is not an id")))
}

// ------------------------------------------------------------------ callers

/// Who makes a request, and how.
#[derive(Clone, Debug)]
struct Caller {
    user: User,
    /// The session's CSRF token; `None` for a token request.
    csrf: Option<String>,
}

fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers.get_all(header::COOKIE).iter().filter_map(|v| v.to_str().ok()).find_map(|all| {
        all.split(';').find_map(|pair| {
            let (key, value) = pair.trim().split_once('=')?;
            (key == name).then(|| value.to_owned())
        })
    })
}

fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    value.strip_prefix("Bearer ").map(|t| t.trim().to_owned())
}

/// The caller, if signed in (a token that is given must be valid: 401).
fn caller(db: &Db, headers: &HeaderMap) -> Result<Option<Caller>, ApiError> {
    if let Some(token) = bearer(headers) {
        return match db.token_user(&token)? {
            Some(user) => Ok(Some(Caller { user, csrf: None })),
            None => Err(status(StatusCode::UNAUTHORIZED, "the API token is not valid")),
        };
    }
    match cookie(headers, SESSION_COOKIE) {
        Some(session) => {
            Ok(db.session(&session)?.map(|(user, csrf)| Caller { user, csrf: Some(csrf) }))
        }
        None => Ok(None),
    }
}

/// The caller of a read, who must be signed in.
fn signed_in(db: &Db, headers: &HeaderMap) -> Result<Caller, ApiError> {
    caller(db, headers)?.ok_or_else(|| status(StatusCode::UNAUTHORIZED, "sign in first"))
}

/// The caller of a state-changing request: signed in, and with the CSRF
/// token when signed in by cookie.
fn acting(db: &Db, headers: &HeaderMap) -> Result<Caller, ApiError> {
    let caller = signed_in(db, headers)?;
    if let Some(expected) = &caller.csrf {
        let given = headers.get("x-csrf-token").and_then(|v| v.to_str().ok()).unwrap_or("");
        if !auth::same_secret(given, expected) {
            return Err(status(StatusCode::FORBIDDEN, "missing or wrong CSRF token"));
        }
    }
    Ok(caller)
}

fn admin(db: &Db, headers: &HeaderMap) -> Result<Caller, ApiError> {
    let caller = acting(db, headers)?;
    if !caller.user.admin {
        return Err(status(StatusCode::FORBIDDEN, "admins only"));
    }
    Ok(caller)
}

fn session_cookie(value: &str, ttl: Duration) -> HeaderValue {
    let text = format!(
        "{SESSION_COOKIE}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age={}",
        ttl.as_secs()
    );
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

fn with_cookie(body: Value, cookie: HeaderValue) -> Response {
    let mut response = Json(body).into_response();
    response.headers_mut().insert(header::SET_COOKIE, cookie);
    response
}

fn ok(body: Value) -> ApiResult {
    Ok(Json(body).into_response())
}

// -------------------------------------------------------------- participants

async fn overview(State(state): State<Arc<AppState>>) -> ApiResult {
    let body = with_db(&state, |db, contest| {
        let games: Vec<Value> = versus_games::all()
            .iter()
            .map(|g| {
                json!({
                    "name": g.name(),
                    "title": g.title(),
                    "summary": summary(*g),
                    "levels": levels(*g).iter().map(|l| json!({"name": l.name, "elo": l.elo})).collect::<Vec<_>>(),
                })
            })
            .collect();
        Ok(json!({
            "games": games,
            "window": db.window()?,
            "now": now_ms(),
            "languages": Language::ALL.iter().map(|l| l.name()).collect::<Vec<_>>(),
            "max_source_bytes": contest.rules.max_source_bytes,
            "max_data_bytes": versus_sandbox::MAX_DATA_BYTES,
            "pacing": {
                "count": contest.rules.pacing.count,
                "window_s": contest.rules.pacing.window.as_secs(),
            },
            "time_ms": contest.config.time.game_ms,
        }))
    })
    .await?;
    ok(body)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    password: String,
}

async fn sign_up(State(state): State<Arc<AppState>>, body: Bytes) -> ApiResult {
    let credentials: Credentials = parse(&body)?;
    with_db(&state, move |db, contest| {
        let (user, token) = db.add_user(&credentials.name, Some(&credentials.password), false)?;
        let (session, csrf) = db.open_session(user.id, contest.rules.session_ttl)?;
        Ok(with_cookie(
            json!({ "user": user, "token": token, "csrf": csrf }),
            session_cookie(&session, contest.rules.session_ttl),
        ))
    })
    .await
}

async fn sign_in(State(state): State<Arc<AppState>>, body: Bytes) -> ApiResult {
    let credentials: Credentials = parse(&body)?;
    with_db(&state, move |db, contest| {
        let (user, session, csrf) =
            db.sign_in(&credentials.name, &credentials.password, contest.rules.session_ttl)?;
        Ok(with_cookie(
            json!({ "user": user, "csrf": csrf }),
            session_cookie(&session, contest.rules.session_ttl),
        ))
    })
    .await
}

async fn sign_out(State(state): State<Arc<AppState>>, headers: HeaderMap) -> ApiResult {
    with_db(&state, move |db, _| {
        acting(db, &headers)?;
        if let Some(session) = cookie(&headers, SESSION_COOKIE) {
            db.sign_out(&session)?;
        }
        Ok(with_cookie(json!({ "ok": true }), session_cookie("", Duration::ZERO)))
    })
    .await
}

async fn me(State(state): State<Arc<AppState>>, headers: HeaderMap) -> ApiResult {
    with_db(&state, move |db, _| {
        let caller = signed_in(db, &headers)?;
        ok(json!({ "user": caller.user, "csrf": caller.csrf }))
    })
    .await
}

async fn new_token(State(state): State<Arc<AppState>>, headers: HeaderMap) -> ApiResult {
    with_db(&state, move |db, _| {
        let caller = acting(db, &headers)?;
        ok(json!({ "token": db.new_token(caller.user.id)? }))
    })
    .await
}

async fn participants(
    State(state): State<Arc<AppState>>,
    UrlPath(game): UrlPath<String>,
) -> ApiResult {
    let game = find_game(&game)?;
    with_db(&state, move |db, _| {
        let all = db.submissions(game.name(), None)?;
        let entries = db.entries(game.name())?;
        let rows: Vec<Value> = db
            .users()?
            .into_iter()
            .filter_map(|user| {
                let mine: Vec<&Submission> = all.iter().filter(|s| s.user == user.id).collect();
                let entry = entries.iter().find(|s| s.user == user.id);
                (!mine.is_empty()).then(|| {
                    json!({
                        "name": user.name,
                        "submissions": mine.len(),
                        "entry": entry.map(|s| s.id),
                        "language": entry.map(|s| s.language.clone()),
                        "state": entry.map(|s| s.state),
                        "joined_at_ms": user.created_at_ms,
                    })
                })
            })
            .collect();
        ok(json!(rows))
    })
    .await
}

// ------------------------------------------------------------- leaderboard

async fn top_player(
    State(state): State<Arc<AppState>>,
    UrlPath(game): UrlPath<String>,
    headers: HeaderMap,
) -> ApiResult {
    let game = find_game(&game)?;
    with_db(&state, move |db, contest| {
        let viewer = caller(db, &headers)?;
        let now = now_ms();
        let window = db.window()?;
        let finals_over = window.ended(now)
            && runner::finals_over(db, game, &contest.config.settings).unwrap_or(false);
        // Frozen for everybody but admins until the finals are over.
        let frozen = window.frozen_at(now).filter(|_| !finals_over);
        let before = frozen.filter(|_| !viewer.as_ref().is_some_and(|c| c.user.admin));
        let entries = db.entries(game.name())?;
        let hidden = runner::hidden(db, game.name())?;
        let rows = leaderboard(game, &entries, &db.results(game.name())?, &hidden, before);
        ok(json!({
            "game": game.name(),
            "rows": rows,
            "frozen_at": before,
            "ended": window.ended(now),
            "finals_over": finals_over,
        }))
    })
    .await
}

// -------------------------------------------------------------- submissions

async fn submissions(
    State(state): State<Arc<AppState>>,
    UrlPath(game): UrlPath<String>,
) -> ApiResult {
    let game = find_game(&game)?;
    with_db(&state, move |db, _| {
        let list: Vec<Submission> = db
            .submissions(game.name(), None)?
            .into_iter()
            .map(Submission::public)
            .take(500)
            .collect();
        ok(json!(list))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Upload {
    /// A language name; else the file name's extension says it.
    language: Option<String>,
    filename: Option<String>,
    source: String,
    /// The data file (NYPC's binary file), in base64: the program finds it
    /// as `data.bin` in its working folder when it runs.
    data: Option<String>,
}

/// The data file of an upload, decoded and checked against NYPC's limit.
fn upload_data(upload: &Upload) -> Result<Option<Vec<u8>>, ApiError> {
    use base64::Engine as _;
    let Some(text) = upload.data.as_deref().filter(|t| !t.is_empty()) else { return Ok(None) };
    let max = versus_sandbox::MAX_DATA_BYTES as usize;
    // Base64 is 4 bytes for 3: refuse before decoding what cannot fit.
    if text.len() / 4 * 3 > max + 3 {
        return Err(status(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the data file is over {max} bytes (10 MiB)"),
        ));
    }
    let data = base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|e| ApiError::bad(format!("the data file is not valid base64: {e}")))?;
    if data.len() > max {
        return Err(status(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the data file is {} bytes; the limit is {max} (10 MiB)", data.len()),
        ));
    }
    Ok(Some(data))
}

/// Checks an upload: the language, the size, that it is text.
fn check_upload(upload: &Upload, max_bytes: usize) -> Result<Language, ApiError> {
    if let Some(name) = &upload.filename {
        if name.is_empty()
            || name.len() > 100
            || name.contains(['/', '\\', '\0'])
            || name.starts_with('.')
            || name.contains("..")
        {
            return Err(ApiError::bad(format!(
                "the file name {name:?} is not a plain file name (no folders, no '..')"
            )));
        }
    }
    let language = match (&upload.language, &upload.filename) {
        (Some(name), _) if !name.is_empty() => name.parse::<Language>().map_err(ApiError::bad)?,
        (_, Some(file)) => Language::from_path(std::path::Path::new(file)).ok_or_else(|| {
            ApiError::bad(format!(
                "cannot tell the language of {file:?} ({}); name it",
                Language::EXTENSIONS
            ))
        })?,
        _ => {
            let names: Vec<&str> = Language::ALL.iter().map(|l| l.name()).collect();
            return Err(ApiError::bad(format!("name the language ({})", names.join(", "))));
        }
    };
    if upload.source.len() > max_bytes {
        return Err(status(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the source is {} bytes; the limit is {max_bytes}", upload.source.len()),
        ));
    }
    if upload.source.trim().is_empty() {
        return Err(ApiError::bad("the source is empty"));
    }
    let binary = upload.source.chars().any(|c| {
        c == '\u{fffd}' || (c.is_control() && !matches!(c, '\n' | '\r' | '\t' | '\x0c' | '\x0b'))
    });
    if binary {
        return Err(status(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the file is not text (a binary? upload the source)",
        ));
    }
    Ok(language)
}

async fn submit(
    State(state): State<Arc<AppState>>,
    UrlPath(game): UrlPath<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult {
    let game = find_game(&game)?;
    with_db(&state, move |db, contest| {
        let caller = acting(db, &headers)?;
        let upload: Upload = parse(&body)?;
        let language = check_upload(&upload, contest.rules.max_source_bytes)?;
        let data = upload_data(&upload)?;
        db.window()?.open(now_ms())?;
        let id = db.submit_with_data(
            caller.user.id,
            game.name(),
            language.name(),
            &upload.source,
            data.as_deref(),
            contest.rules.pacing,
        )?;
        Ok((StatusCode::CREATED, Json(json!({ "id": id, "language": language.name() })))
            .into_response())
    })
    .await
}

/// Whether `caller` may see `submission`'s private parts.
fn owns(caller: Option<&Caller>, submission: &Submission) -> bool {
    caller.is_some_and(|c| c.user.admin || c.user.id == submission.user)
}

fn find_submission(db: &Db, id: &str) -> Result<Submission, ApiError> {
    let id = SubmissionId(parse_id(id)?);
    db.submission(id)?.ok_or_else(|| ApiError::missing(format!("no submission {}", id.0)))
}

async fn submission(
    State(state): State<Arc<AppState>>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
) -> ApiResult {
    with_db(&state, move |db, _| {
        let viewer = caller(db, &headers)?;
        let found = find_submission(db, &id)?;
        let mine = owns(viewer.as_ref(), &found);
        let games = db.matches(&found.game, Some(found.id), 200)?;
        let chosen = db.chosen_entry(found.user, &found.game)?;
        let entry =
            db.entries(&found.game)?.into_iter().find(|s| s.user == found.user).map(|s| s.id);
        // The source and compiler output come from `/source`, owners only.
        let shown = found.public();
        ok(json!({
            "submission": shown,
            "mine": mine,
            "entry": entry == Some(shown.id),
            "chosen": chosen == Some(shown.id),
            "games": games,
        }))
    })
    .await
}

async fn submission_source(
    State(state): State<Arc<AppState>>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
) -> ApiResult {
    with_db(&state, move |db, _| {
        let viewer = signed_in(db, &headers)?;
        let found = find_submission(db, &id)?;
        if !owns(Some(&viewer), &found) {
            return Err(status(StatusCode::FORBIDDEN, "only its owner sees a submission's source"));
        }
        ok(json!({
            "source": found.source,
            "compile_log": found.compile_log,
            "detail": found.detail,
        }))
    })
    .await
}

async fn choose_entry(
    State(state): State<Arc<AppState>>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
) -> ApiResult {
    with_db(&state, move |db, _| {
        let caller = acting(db, &headers)?;
        let found = find_submission(db, &id)?;
        if found.user != caller.user.id {
            return Err(status(StatusCode::FORBIDDEN, "not your submission"));
        }
        db.choose_entry(caller.user.id, found.id)?;
        ok(json!({ "ok": true }))
    })
    .await
}

// -------------------------------------------------------------------- games

async fn game_matches(
    State(state): State<Arc<AppState>>,
    UrlPath(game): UrlPath<String>,
) -> ApiResult {
    let game = find_game(&game)?;
    with_db(&state, move |db, _| ok(json!(db.matches(game.name(), None, 200)?))).await
}

/// The owners of the submissions that played `game_match`, by side.
fn owners(db: &Db, players: [&Player; 2]) -> Result<[Option<i64>; 2], ApiError> {
    let mut owners = [None, None];
    for (k, player) in players.into_iter().enumerate() {
        if let Some(id) = player.submission() {
            owners[k] = db.submission_owner(id)?.map(|u| u.0);
        }
    }
    Ok(owners)
}

async fn game_match(
    State(state): State<Arc<AppState>>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
) -> ApiResult {
    with_db(&state, move |db, _| {
        let viewer = caller(db, &headers)?;
        let id = MatchId(parse_id(&id)?);
        let found =
            db.game_match(id)?.ok_or_else(|| ApiError::missing(format!("no game {}", id.0)))?;
        let owners = owners(db, [&found.first, &found.second])?;
        let Some(text) = db.match_record(id)? else {
            return ok(json!({ "match": found, "replay": null }));
        };
        let lines = versus_judge::read_record(&text).map_err(ApiError::internal)?;
        // Standard error (and the compiler's output, which CE records as
        // such) is its owner's: other sides' debug lines are left out.
        let lines: Vec<RecordLine> = lines
            .into_iter()
            .filter(|line| match line {
                RecordLine::Debug { side, .. } => viewer
                    .as_ref()
                    .is_some_and(|c| c.user.admin || owners[side.index()] == Some(c.user.id.0)),
                _ => true,
            })
            .collect();
        let replay = crate::replay::replay(lines).map_err(|e| ApiError::internal(e.to_string()))?;
        ok(json!({ "match": found, "replay": replay, "owners": owners.map(|o| o.is_some()) }))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChallengeBody {
    /// The participant whose entry to challenge.
    opponent: String,
}

/// The current entry of participant `name` in `game`.
fn entry_of(db: &Db, game: &dyn Game, name: &str) -> Result<Submission, ApiError> {
    let user = db
        .user_by_name(name)?
        .ok_or_else(|| ApiError::missing(format!("no participant {name:?}")))?;
    db.entries(game.name())?
        .into_iter()
        .find(|s| s.user == user.id)
        .ok_or_else(|| ApiError::missing(format!("{name} has no entry in {}", game.name())))
}

async fn challenge(
    State(state): State<Arc<AppState>>,
    UrlPath(game): UrlPath<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult {
    let game = find_game(&game)?;
    with_db(&state, move |db, contest| {
        let caller = acting(db, &headers)?;
        let request: ChallengeBody = parse(&body)?;
        let mine = db
            .entries(game.name())?
            .into_iter()
            .find(|s| s.user == caller.user.id)
            .ok_or_else(|| ApiError::bad("you have no entry that plays in this game yet"))?;
        let theirs = entry_of(db, game, &request.opponent)?;
        if let Some(last) = db.last_challenge(caller.user.id)? {
            let ready = last + contest.rules.challenge_interval.as_millis() as i64;
            let now = now_ms();
            if now < ready {
                return Err(ContestError::RateLimited {
                    what: "one challenge at a time".into(),
                    wait_s: ((ready - now) as u64).div_ceil(1000),
                }
                .into());
            }
        }
        let mut new = versus_contest::policy::pair(
            game,
            versus_contest::MatchKind::Challenge,
            &Player::Submission(mine.id),
            &Player::Submission(theirs.id),
            auth::random_u64() >> 1,
        )[0]
        .clone();
        new.requested_by = Some(caller.user.id);
        let id = db.queue_match(&new)?;
        Ok((StatusCode::CREATED, Json(json!({ "id": id }))).into_response())
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayBody {
    game: String,
    /// A participant's name (their entry) or a built-in level.
    opponent: String,
    side: Side,
    #[serde(default)]
    clock: bool,
}

/// A signed-in person plays an entry (sandboxed, behind the same referee
/// and clocks) on the play page.
async fn play(State(state): State<Arc<AppState>>, headers: HeaderMap, body: Bytes) -> ApiResult {
    let request: PlayBody = parse(&body)?;
    let game = find_game(&request.game)?;
    let opponent = with_db(&state, move |db, contest| {
        acting(db, &headers)?;
        if let Some(name) = request.opponent.strip_prefix("builtin:") {
            if !levels(game).iter().any(|l| l.name == name) {
                return Err(ApiError::bad(format!("no level {name:?}")));
            }
            return Ok((Opponent::Builtin(name.to_owned()), request));
        }
        let entry = entry_of(db, game, &request.opponent)?;
        let spec = runner::agent_spec(&contest.config, db, &Player::Submission(entry.id), 0)?;
        let label = format!("{} (submission {})", entry.user_name, entry.id.0);
        Ok((
            Opponent::Program {
                spec: Box::new(spec),
                limits: Box::new(contest.config.limits.clone()),
                label,
            },
            request,
        ))
    })
    .await?;
    let (opponent, request) = opponent;
    let state2 = Arc::clone(&state);
    let id = tokio::task::spawn_blocking(move || {
        let new = NewPlay {
            game: request.game,
            agent: request.opponent,
            side: request.side,
            clock: request.clock,
            seed: None,
        };
        state2.sessions.start_against(&new, opponent)
    })
    .await
    .map_err(|e| ApiError::internal(e.to_string()))?
    .map_err(ApiError::internal)?;
    ok(json!({ "id": id }))
}

// -------------------------------------------------------------------- admin

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HideBody {
    hidden: bool,
}

async fn hide(
    State(state): State<Arc<AppState>>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult {
    with_db(&state, move |db, _| {
        admin(db, &headers)?;
        let request: HideBody = parse(&body)?;
        let id = SubmissionId(parse_id(&id)?);
        db.set_hidden(id, request.hidden)?;
        ok(json!({ "ok": true }))
    })
    .await
}

async fn rejudge(
    State(state): State<Arc<AppState>>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
) -> ApiResult {
    with_db(&state, move |db, _| {
        admin(db, &headers)?;
        db.rejudge(SubmissionId(parse_id(&id)?))?;
        ok(json!({ "ok": true }))
    })
    .await
}

async fn reset(
    State(state): State<Arc<AppState>>,
    UrlPath(game): UrlPath<String>,
    headers: HeaderMap,
) -> ApiResult {
    let game = find_game(&game)?;
    with_db(&state, move |db, _| {
        admin(db, &headers)?;
        ok(json!({ "uncounted": db.reset_ratings(game.name())? }))
    })
    .await
}

/// The evaluations of a game (NYPC's `VS: all participants`), newest first.
async fn evaluations(
    State(state): State<Arc<AppState>>,
    UrlPath(game): UrlPath<String>,
) -> ApiResult {
    let game = find_game(&game)?;
    with_db(&state, move |db, _| ok(json!(versus_contest::evaluation::list(db, game.name())?)))
        .await
}

/// One evaluation's rounds (or stages), games, standings with tie-breaks,
/// and performances.
async fn evaluation(State(state): State<Arc<AppState>>, UrlPath(id): UrlPath<String>) -> ApiResult {
    let id: i64 = id.parse().map_err(|_| ApiError::missing(format!("no evaluation {id:?}")))?;
    with_db(&state, move |db, _| ok(json!(versus_contest::evaluation::view(db, id)?))).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EvaluationRequest {
    kind: String,
    #[serde(default = "one")]
    rounds: u32,
    #[serde(default = "two")]
    games: u32,
    /// Unix ms; now when absent.
    start_at: Option<i64>,
    /// Hours between two runs (e.g. 12: twice a day).
    repeat_hours: Option<f64>,
    /// Only the first seeds (the previous evaluation's top).
    top: Option<u32>,
}

fn one() -> u32 {
    1
}

fn two() -> u32 {
    2
}

/// Schedules an evaluation (admins).
async fn schedule_evaluation(
    State(state): State<Arc<AppState>>,
    UrlPath(game): UrlPath<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult {
    let game = find_game(&game)?;
    with_db(&state, move |db, _| {
        admin(db, &headers)?;
        let request: EvaluationRequest = parse(&body)?;
        let repeat_ms = match request.repeat_hours {
            Some(h) if h.is_finite() && h > 0.0 && h < 24.0 * 366.0 => {
                Some((h * 3_600_000.0) as i64)
            }
            Some(_) => {
                return Err(ContestError::Invalid(
                    "repeat_hours must be between 0 and a year".into(),
                )
                .into())
            }
            None => None,
        };
        let plan = versus_contest::evaluation::Plan {
            game: game.name().to_owned(),
            kind: versus_contest::evaluation::Kind::parse(&request.kind)?,
            rounds: request.rounds,
            games: request.games,
            start_at: request.start_at.unwrap_or_else(now_ms),
            repeat_ms,
            top: request.top,
        };
        let id = versus_contest::evaluation::schedule(db, &plan)?;
        Ok((StatusCode::CREATED, Json(json!({ "id": id }))).into_response())
    })
    .await
}

async fn set_window(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult {
    with_db(&state, move |db, _| {
        admin(db, &headers)?;
        let window: Window = parse(&body)?;
        db.set_window(window)?;
        ok(json!({ "window": db.window()? }))
    })
    .await
}
