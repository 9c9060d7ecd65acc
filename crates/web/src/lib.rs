//! The versus web page: watch any game move by move, follow leagues and
//! SPRT runs from the store, play the built-in agents, and watch the agents
//! the server was started with (see [`agents`]).
//!
//! The page is static (served from the binary); everything it draws comes
//! from the JSON API, and every board comes from a referee's
//! [`view`](versus_core::Referee::view), so the rules live only in Rust.

pub mod agents;
pub mod connexion_log;
pub mod contest;
pub mod play;
pub mod replay;
pub mod tune;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, Mutex};

use axum::extract::{DefaultBodyLimit, Path as UrlPath, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::Semaphore;
use versus_judge::{AgentSpec, JudgeError, Limits};
use versus_league::report::{league_rows, sprt_report};
use versus_league::runner::{standing_from_store, Plan, Schedule};
use versus_league::store::{GameId, RunId, Store};

pub use crate::agents::{Registered, Roster, RosterError};
use crate::play::{NewPlay, Sessions};

/// What the handlers share.
#[derive(Debug)]
pub struct AppState {
    store: Option<Mutex<Store>>,
    sessions: Sessions,
    roster: Roster,
    /// The limits of program agents, and how they are sandboxed.
    limits: Limits,
    /// Games with programs are played one at a time: each side is pinned to
    /// a CPU of its own, and two games at once would share them.
    programs: Arc<Semaphore>,
    /// The contest, when the server is `versus host`.
    contest: Option<contest::Contest>,
}

impl AppState {
    /// A server over the store at `db`, if given, offering the built-in agents.
    pub fn new(store: Option<Store>) -> Arc<AppState> {
        AppState::with_agents(store, Roster::default(), Limits::default())
    }

    /// A server that also offers the agents of `roster`, run under `limits`.
    pub fn with_agents(store: Option<Store>, roster: Roster, limits: Limits) -> Arc<AppState> {
        AppState::build(store, roster, limits, None)
    }

    /// A contest host over `store` (the league's tables of the same file);
    /// programs run under the contest's limits.
    pub fn with_contest(store: Option<Store>, contest: contest::Contest) -> Arc<AppState> {
        let limits = contest.config.limits.clone();
        AppState::build(store, Roster::default(), limits, Some(contest))
    }

    fn build(
        store: Option<Store>,
        roster: Roster,
        limits: Limits,
        contest: Option<contest::Contest>,
    ) -> Arc<AppState> {
        Arc::new(AppState {
            store: store.map(Mutex::new),
            sessions: Sessions::default(),
            roster,
            limits,
            programs: Arc::new(Semaphore::new(1)),
            contest,
        })
    }
}

/// An error the API answers with: a status and a message as JSON.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn bad(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::BAD_REQUEST, message: message.into() }
    }
    fn missing(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::NOT_FOUND, message: message.into() }
    }
    fn internal(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::INTERNAL_SERVER_ERROR, message: message.into() }
    }
}

impl From<agents::NameError> for ApiError {
    fn from(error: agents::NameError) -> ApiError {
        ApiError::bad(error.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

impl From<versus_league::store::StoreError> for ApiError {
    fn from(error: versus_league::store::StoreError) -> ApiError {
        use versus_league::store::StoreError;
        match error {
            StoreError::NoSuchRun(_) => ApiError::missing(error.to_string()),
            other => {
                ApiError { status: StatusCode::INTERNAL_SERVER_ERROR, message: other.to_string() }
            }
        }
    }
}

type ApiResult = Result<Json<Value>, ApiError>;

/// The largest upload: a record of a long game is well under this.
const MAX_UPLOAD: usize = 16 * 1024 * 1024;

/// The router, without a socket (tests drive it with `oneshot`).
pub fn app(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(|| async { Html(include_str!("../assets/index.html")) }))
        .route(
            "/app.js",
            get(|| async { asset("text/javascript", include_str!("../assets/app.js")) }),
        )
        .route(
            "/style.css",
            get(|| async { asset("text/css", include_str!("../assets/style.css")) }),
        )
        .route(
            "/contest.js",
            get(|| async { asset("text/javascript", include_str!("../assets/contest.js")) }),
        )
        .route(
            "/tune.js",
            get(|| async { asset("text/javascript", include_str!("../assets/tune.js")) }),
        )
        .route("/api/kinds", get(kinds))
        .route("/api/runs", get(runs))
        .route("/api/runs/{id}", get(run))
        .route("/api/runs/{id}/games", get(run_games))
        .route("/api/records/{id}", get(record))
        .route("/api/replay", post(upload))
        .route("/api/match", post(watch_match))
        .route("/api/play", post(start_play))
        .route("/api/play/{id}", get(play_state))
        .route("/api/play/{id}/reply", post(play_reply))
        .merge(tune::routes())
        .merge(contest::routes().layer(DefaultBodyLimit::max(contest::MAX_BODY)))
        .layer(DefaultBodyLimit::max(MAX_UPLOAD))
        .with_state(state)
}

fn asset(kind: &'static str, text: &'static str) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, kind)], text)
}

/// One replay as a single HTML file that works offline: the page's style
/// and script inline, and the replay's frames as data.
pub fn export_html(replay: &replay::Replay) -> String {
    // `</` would end the inline script early.
    let data = serde_json::to_string(replay).unwrap_or_default().replace("</", "<\\/");
    let page = include_str!("../assets/index.html");
    page.replace(
        "<link rel=\"stylesheet\" href=\"/style.css\">",
        &format!("<style>\n{}</style>", include_str!("../assets/style.css")),
    )
    .replace("<script src=\"/contest.js\"></script>", "")
    .replace("<script src=\"/tune.js\"></script>", "")
    .replace(
        "<script src=\"/app.js\"></script>",
        &format!(
            "<script>window.VERSUS_REPLAY = {data};</script>\n<script>\n{}</script>",
            include_str!("../assets/app.js").replace("</", "<\\/")
        ),
    )
}

/// Serves the page on `addr` until the process is stopped, offering the
/// agents of `roster` besides the built-ins, run under `limits`.
pub async fn serve(
    db: Option<&Path>,
    addr: SocketAddr,
    roster: Roster,
    limits: Limits,
) -> std::io::Result<()> {
    // Off the async runtime: PostgreSQL's client blocks on a runtime of its own.
    let store = match db.map(Path::to_owned) {
        Some(path) => Some(
            tokio::task::spawn_blocking(move || Store::open(path))
                .await
                .map_err(std::io::Error::other)?
                .map_err(std::io::Error::other)?,
        ),
        None => None,
    };
    let listener = tokio::net::TcpListener::bind(addr).await?;
    axum::serve(listener, app(AppState::with_agents(store, roster, limits))).await
}

/// Serves the contest on `addr` (pages, API and the runner's threads)
/// until the process is stopped.
pub async fn host(
    addr: SocketAddr,
    config: versus_contest::runner::Config,
    rules: contest::Rules,
) -> std::io::Result<()> {
    // The league's store lives beside the contest's tables, in the same
    // SQLite file or PostgreSQL database. Off the async runtime:
    // PostgreSQL's client blocks on a runtime of its own.
    let (store, contest, runner) = tokio::task::spawn_blocking(move || {
        let store = Store::open(std::path::Path::new(&config.db)).map_err(|e| {
            versus_contest::ContestError::Open {
                path: versus_sql::redact(&config.db),
                message: e.to_string(),
            }
        })?;
        let contest = contest::Contest::open(config.clone(), rules)?;
        let runner = versus_contest::runner::Runner::start(config)?;
        Ok::<_, versus_contest::ContestError>((Some(store), contest, runner))
    })
    .await
    .map_err(std::io::Error::other)?
    .map_err(std::io::Error::other)?;
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let served = axum::serve(listener, app(AppState::with_contest(store, contest))).await;
    runner.stop();
    served
}

fn store(state: &AppState) -> Result<std::sync::MutexGuard<'_, Store>, ApiError> {
    state
        .store
        .as_ref()
        .map(|s| s.lock().unwrap_or_else(|e| e.into_inner()))
        .ok_or_else(|| ApiError::missing("this server has no store (start it with --db FILE)"))
}

/// The games, each with its built-in agents (`agents`) and the agents
/// registered on this server that it offers (`registered`).
async fn kinds(State(state): State<Arc<AppState>>) -> Json<Value> {
    let games: Vec<Value> = versus_games::all()
        .iter()
        .map(|g| {
            json!({
                "name": g.name(),
                "title": g.title(),
                "agents": g.agent_names(),
                "registered": state.roster.listed(*g),
            })
        })
        .collect();
    Json(json!(games))
}

/// Runs `f` on the store off the async runtime: a PostgreSQL store's client
/// blocks (and may not block a runtime's thread), a SQLite one syncs a disk.
pub(crate) async fn with_store<T: Send + 'static>(
    state: &Arc<AppState>,
    f: impl FnOnce(&Store) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let state = Arc::clone(state);
    tokio::task::spawn_blocking(move || {
        let store = store(&state)?;
        f(&store)
    })
    .await
    .map_err(|e| ApiError::internal(format!("the store's task failed: {e}")))?
}

async fn runs(State(state): State<Arc<AppState>>) -> ApiResult {
    let runs = with_store(&state, |store| Ok(store.runs()?)).await?;
    Ok(Json(json!(runs)))
}

fn parse_id(text: &str) -> Result<i64, ApiError> {
    text.parse().map_err(|_| ApiError::bad(format!("{text:?} is not an id")))
}

async fn run(State(state): State<Arc<AppState>>, UrlPath(id): UrlPath<String>) -> ApiResult {
    let id = RunId(parse_id(&id)?);
    let (run, agents, plan, standing) = with_store(&state, move |store| {
        let run = store.run(id)?;
        let agents = store.agents(id)?;
        let plan: Plan = serde_json::from_value(run.settings.clone()).map_err(|e| {
            ApiError::bad(format!("run {} has settings this version cannot read: {e}", id.0))
        })?;
        let standing =
            standing_from_store(store, id, &plan).map_err(|e| ApiError::bad(e.to_string()))?;
        Ok((run, agents, plan, standing))
    })
    .await?;
    let sprt = match &plan.schedule {
        Schedule::Sprt { sprt, .. } => Some(sprt_report(&standing, sprt)),
        Schedule::League { .. } => None,
    };
    Ok(Json(json!({
        "run": run,
        "agents": agents,
        "ratings": league_rows(&standing),
        "crosstable": standing.results,
        "names": standing.names,
        "games": standing.games(),
        "flagged": standing.flagged,
        "sprt": sprt,
    })))
}

async fn run_games(State(state): State<Arc<AppState>>, UrlPath(id): UrlPath<String>) -> ApiResult {
    let id = RunId(parse_id(&id)?);
    let games = with_store(&state, move |store| {
        store.run(id)?;
        Ok(store.games(id)?)
    })
    .await?;
    Ok(Json(json!(games)))
}

async fn record(State(state): State<Arc<AppState>>, UrlPath(id): UrlPath<String>) -> ApiResult {
    let id = GameId(parse_id(&id)?);
    let text = with_store(&state, move |store| {
        store.game_record(id)?.ok_or_else(|| ApiError::missing(format!("no game {}", id.0)))
    })
    .await?;
    replay_text(&text)
}

fn replay_text(text: &str) -> ApiResult {
    let lines = parse_upload(text).map_err(ApiError::bad)?;
    let replay = replay::replay(lines).map_err(|e| ApiError::bad(e.to_string()))?;
    Ok(Json(json!(replay)))
}

/// Reads an uploaded game: a record (JSON lines) or a Connexion testing-tool log.
pub fn parse_upload(text: &str) -> Result<Vec<versus_core::RecordLine>, String> {
    let start = text.trim_start();
    if start.is_empty() {
        return Err("the file is empty".into());
    }
    if start.starts_with('{') {
        return versus_judge::read_record(text)
            .map_err(|e| format!("not a valid game record: {e}"));
    }
    if connexion_log::is_log(text) {
        return connexion_log::record_from_log(text);
    }
    Err("not a game record (JSON lines written by `versus match --record` or kept by a league) \
         nor a Connexion testing-tool log"
        .into())
}

async fn upload(body: String) -> ApiResult {
    replay_text(&body)
}

#[derive(Debug, Deserialize)]
struct MatchBody {
    game: String,
    first: String,
    second: String,
    seed: Option<u64>,
}

/// Plays a game between two of the server's agents and returns its replay.
async fn watch_match(State(state): State<Arc<AppState>>, Json(body): Json<MatchBody>) -> ApiResult {
    let game = versus_games::find(&body.game)
        .ok_or_else(|| ApiError::bad(format!("unknown game {:?}", body.game)))?;
    let seed = body.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
            % 1_000_000_000
    });
    let config = versus_core::GameConfig::seeded(seed);
    let agents = versus_core::BySide::new(
        state.roster.spec(game, &body.first, seed.wrapping_mul(2).wrapping_add(1))?,
        state.roster.spec(game, &body.second, seed.wrapping_mul(2).wrapping_add(2))?,
    );
    let builtin = |spec: &AgentSpec| matches!(spec, AgentSpec::Builtin { .. });
    let permit = if !(builtin(&agents.first) && builtin(&agents.second)) {
        let permit = Arc::clone(&state.programs).acquire_owned().await;
        Some(permit.map_err(|e| ApiError::internal(e.to_string()))?)
    } else {
        None
    };
    let limits = state.limits.clone();
    // Built-in agents think on this thread, and the judge waits on programs
    // here: keep the runtime's workers free.
    let lines = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let mut lines = Vec::new();
        versus_judge::run_game(game, &config, &agents, &limits, &mut |l| lines.push(l))
            .map(|_| lines)
    })
    .await
    .map_err(|e| ApiError::internal(e.to_string()))?
    .map_err(judge_error)?;
    let replay = replay::replay(lines).map_err(|e| ApiError::bad(e.to_string()))?;
    Ok(Json(json!(replay)))
}

/// A game that could not be started: the request's fault when it names
/// what does not exist, the server's when a registered program cannot run.
fn judge_error(error: JudgeError) -> ApiError {
    match error {
        JudgeError::UnknownAgent { .. } | JudgeError::Config(_) => ApiError::bad(error.to_string()),
        other => ApiError::internal(other.to_string()),
    }
}

async fn start_play(State(state): State<Arc<AppState>>, Json(request): Json<NewPlay>) -> ApiResult {
    let game = versus_games::find(&request.game)
        .ok_or_else(|| ApiError::bad(format!("unknown game {:?}", request.game)))?;
    let builtin = state.roster.playable(game, &request.agent)?;
    let id = state.sessions.start(&request, &builtin).map_err(ApiError::bad)?;
    Ok(Json(json!({ "id": id })))
}

async fn play_state(State(state): State<Arc<AppState>>, UrlPath(id): UrlPath<String>) -> ApiResult {
    let id = parse_id(&id)?;
    let session = state
        .sessions
        .get(id as u64)
        .ok_or_else(|| ApiError::missing(format!("no game {id} is being played")))?;
    let replay = replay::replay(session.lines()).map_err(|e| ApiError::bad(e.to_string()))?;
    Ok(Json(json!({ "state": session.state(), "replay": replay })))
}

#[derive(Debug, Deserialize)]
struct ReplyBody {
    line: String,
}

async fn play_reply(
    State(state): State<Arc<AppState>>,
    UrlPath(id): UrlPath<String>,
    Json(body): Json<ReplyBody>,
) -> ApiResult {
    let id = parse_id(&id)?;
    let session = state
        .sessions
        .get(id as u64)
        .ok_or_else(|| ApiError::missing(format!("no game {id} is being played")))?;
    session.submit(&body.line).map_err(ApiError::bad)?;
    Ok(Json(json!({ "ok": true })))
}
