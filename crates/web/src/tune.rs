//! The tuning page's API: the store's tuning runs (`versus tune`) and each
//! run's history, from which the page draws every parameter's trajectory
//! (with the layout of [`versus_league::tune::chart`], which writes the same
//! chart as SVG for `versus tune --show N --svg`).

use std::sync::Arc;

use axum::extract::{Path as UrlPath, State};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};
use versus_league::tune::{self, chart, TuneError};

use crate::{with_store, ApiError, ApiResult, AppState};

/// The routes of the tuning page.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new().route("/api/tune", get(runs)).route("/api/tune/{id}", get(run))
}

impl From<TuneError> for ApiError {
    fn from(error: TuneError) -> ApiError {
        match error {
            TuneError::NoSuchRun(_) => ApiError::missing(error.to_string()),
            other => ApiError::internal(other.to_string()),
        }
    }
}

async fn runs(State(state): State<Arc<AppState>>) -> ApiResult {
    let runs = with_store(&state, |store| {
        let mut runs = Vec::new();
        for run in tune::runs(store)? {
            let done = tune::iterations(store, run.id)?.len();
            runs.push((run, done));
        }
        Ok(runs)
    })
    .await?;
    let mut out = Vec::with_capacity(runs.len());
    for (run, done) in runs {
        out.push(json!({
            "id": run.id,
            "game": run.plan.game,
            "agent": run.plan.agent,
            "params": run.plan.params.iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
            "iterations": run.plan.iterations,
            "done": done,
            "conclusion": run.conclusion,
        }));
    }
    Ok(Json(Value::Array(out)))
}

/// A run: its plan, θ after each iteration and each pair's result, the
/// current spec, and the chart's layout.
async fn run(State(state): State<Arc<AppState>>, UrlPath(id): UrlPath<i64>) -> ApiResult {
    let (run, iterations) = with_store(&state, move |store| {
        Ok((tune::load_run(store, id)?, tune::iterations(store, id)?))
    })
    .await?;
    let theta = iterations.last().map_or_else(|| run.plan.start(), |it| it.theta.clone());
    Ok(Json(json!({
        "id": id,
        "plan": run.plan,
        "done": iterations.len(),
        "conclusion": run.conclusion,
        "theta": iterations.iter().map(|it| &it.theta).collect::<Vec<_>>(),
        "results": iterations.iter().map(|it| it.result).collect::<Vec<_>>(),
        "now": theta,
        "used": run.plan.used(&theta),
        "spec": run.plan.spec(&theta),
        "layout": {
            "width": chart::WIDTH, "panel": chart::PANEL, "left": chart::LEFT,
            "right": chart::RIGHT, "top": chart::TOP, "bottom": chart::BOTTOM,
        },
    })))
}
