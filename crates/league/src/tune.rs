//! Tuning an agent's parameters by SPSA through real games (`versus tune`).
//!
//! The method is the one engine developers run in fishtest and OpenBench,
//! after Spall's simultaneous perturbation stochastic approximation. With
//! `N` iterations planned, each parameter has its own final perturbation
//! `c_end` and final learning rate `r_end` (from the parameter file), and
//!
//! ```text
//! A   = 0.1 N,  alpha = 0.602,  gamma = 0.101
//! c   = c_end N^gamma                  c_k = c / (k + 1)^gamma
//! a   = r_end c_end^2 (A + N)^alpha    a_k = a / (A + k + 1)^alpha
//! ```
//!
//! so that the last iteration (`k = N - 1`) perturbs by exactly `c_end` and
//! has `a_k / c_k^2 = r_end`. Iteration `k` draws a sign `Δ_i = ±1` for
//! every parameter, plays `θ + c_k Δ` against `θ - c_k Δ` (each clamped to
//! its range) in two games on one seed with colours swapped, and moves
//! `θ_i += a_k r / (c_k Δ_i)`, where `r` is the wins minus losses of
//! `θ + c_k Δ` in the pair (-2 to 2); θ is clamped to the ranges again.
//! θ is kept as real numbers; an integer parameter is rounded only where a
//! value is handed to the agent.
//!
//! With `-j J`, iterations overlap: iteration `k` starts from θ as it was
//! after iteration `k - J` was applied (the first `J` from the starting θ),
//! and steps are applied in order of `k`. The run is therefore the same for
//! the same seed and `J`, whatever order the games finish in.
//!
//! Every applied iteration is stored with the run (the store's
//! `tune_iterations` table), so a run stopped at any moment continues from
//! its stored θ and iteration.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::thread;

use serde::{Deserialize, Serialize};
use thiserror::Error;
use versus_core::params::{split_spec, values as param_values};
use versus_core::{BySide, Game, GameConfig, GameRng, Outcome, Side, TimeControl};
use versus_judge::{run_game, AgentSpec, JudgeError, Limits, SandboxSettings};
use versus_sql::args;

use crate::store::{Store, StoreError};

/// Spall's exponent of `a_k`.
pub const ALPHA: f64 = 0.602;
/// Spall's exponent of `c_k`.
pub const GAMMA: f64 = 0.101;
/// `A` as a share of the planned iterations.
pub const A_RATIO: f64 = 0.1;

/// What went wrong with a tuning run.
#[derive(Debug, Error)]
pub enum TuneError {
    #[error("{file}: line {line}: {message}")]
    ParamFile { file: String, line: usize, message: String },
    #[error("{0}")]
    Params(String),
    #[error("the agent: {0}")]
    Agent(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("a game could not be played: {0}")]
    Judge(#[from] JudgeError),
    #[error("there is no tuning run {0}")]
    NoSuchRun(i64),
    #[error("corrupt tuning data in the store: {0}")]
    Corrupt(String),
}

/// One parameter to tune, a line of the parameter file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneParam {
    pub name: String,
    /// Rounded to a whole number where it is handed to the agent.
    pub integer: bool,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    /// The perturbation of the last iteration.
    pub c_end: f64,
    /// The learning rate `a_k / c_k^2` of the last iteration.
    pub r_end: f64,
}

impl TuneParam {
    /// The value handed to the agent for `value`: rounded if an integer.
    #[must_use]
    pub fn used(&self, value: f64) -> f64 {
        if self.integer {
            value.round()
        } else {
            value
        }
    }

    fn text(&self, value: f64) -> String {
        // `{}` of an f64 is the shortest text that reads back to it.
        format!("{}", self.used(value))
    }
}

/// Reads a parameter file: one parameter a line,
/// `NAME, int|float, START, MIN, MAX, C_END, R_END` (OpenBench's order);
/// `#` starts a comment. `file` names it in errors.
pub fn parse_params(text: &str, file: &str) -> Result<Vec<TuneParam>, TuneError> {
    let mut params: Vec<TuneParam> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = |message: String| TuneError::ParamFile {
            file: file.to_owned(),
            line: index + 1,
            message,
        };
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if fields.len() != 7 {
            return Err(bad(format!(
                "{} fields, expected 7: NAME, int|float, START, MIN, MAX, C_END, R_END",
                fields.len()
            )));
        }
        let name = fields[0];
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(bad(format!("{name:?} is not a name (letters, digits and _)")));
        }
        if params.iter().any(|p| p.name == name) {
            return Err(bad(format!("{name} is given twice")));
        }
        let integer = match fields[1] {
            "int" => true,
            "float" => false,
            other => return Err(bad(format!("type {other:?}: write int or float"))),
        };
        let mut numbers = [0.0; 5];
        for (slot, (text, what)) in numbers
            .iter_mut()
            .zip(fields[2..].iter().zip(["START", "MIN", "MAX", "C_END", "R_END"]))
        {
            *slot = text
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| bad(format!("{what} of {name}: {text:?} is not a number")))?;
        }
        let [start, min, max, c_end, r_end] = numbers;
        if min >= max {
            return Err(bad(format!("{name}: MIN {min} is not below MAX {max}")));
        }
        if !(min..=max).contains(&start) {
            return Err(bad(format!("{name}: START {start} is outside [{min}, {max}]")));
        }
        if integer && [start, min, max].iter().any(|v| v.fract() != 0.0) {
            return Err(bad(format!("{name} is an int: START, MIN and MAX must be whole")));
        }
        if c_end <= 0.0 || r_end <= 0.0 {
            return Err(bad(format!("{name}: C_END and R_END must be above 0")));
        }
        params.push(TuneParam { name: name.to_owned(), integer, start, min, max, c_end, r_end });
    }
    if params.is_empty() {
        return Err(TuneError::Params(format!("{file} names no parameter to tune")));
    }
    Ok(params)
}

/// Everything that decides a tuning run; stored with it, so that `--resume`
/// needs only the run's id.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TunePlan {
    pub game: String,
    /// `builtin:NAME` (optionally `?` and fixed settings) or a command line
    /// with a `{NAME}` placeholder for every parameter.
    pub agent: String,
    /// The program's working directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<PathBuf>,
    pub params: Vec<TuneParam>,
    /// Iterations planned (two games each).
    pub iterations: u64,
    pub time: TimeControl,
    /// Iteration `k` plays on seed `seed + k` and draws its signs from it.
    pub seed: u64,
    /// Command-line agents run in the sandbox.
    #[serde(default)]
    pub sandbox: bool,
}

/// A spec's text split at its `{NAME}` placeholders.
enum Piece<'a> {
    Text(String),
    Placeholder(&'a str),
}

fn pieces(template: &str) -> Result<Vec<Piece<'_>>, String> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut rest = template;
    while let Some(i) = rest.find(['{', '}']) {
        text.push_str(&rest[..i]);
        let tail = &rest[i..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            text.push_str(&tail[..1]);
            rest = &tail[2..];
        } else if tail.starts_with('}') {
            return Err(format!("a lone }} in {template:?} (write }}}} for a brace)"));
        } else {
            let Some(end) = tail.find('}') else {
                return Err(format!("an unclosed {{ in {template:?} (write {{{{ for a brace)"));
            };
            out.push(Piece::Text(std::mem::take(&mut text)));
            out.push(Piece::Placeholder(&tail[1..end]));
            rest = &tail[end + 1..];
        }
    }
    text.push_str(rest);
    out.push(Piece::Text(text));
    Ok(out)
}

impl TunePlan {
    /// Checks everything that can be checked before a game is played: the
    /// agent's placeholders or built-in parameters against the parameter
    /// file, and the ranges. Every later spec differs only in values within
    /// the ranges checked here.
    pub fn check(&self, game: &dyn Game) -> Result<(), TuneError> {
        if self.iterations == 0 {
            return Err(TuneError::Params("a tuning run needs at least one iteration".into()));
        }
        if let Some(spec) = self.agent.strip_prefix("builtin:") {
            let (name, fixed) = split_spec(spec);
            if !game.agent_names().contains(&name) {
                return Err(TuneError::Agent(format!(
                    "{} has no built-in agent {name:?} (it has: {})",
                    game.name(),
                    game.agent_names().join(", ")
                )));
            }
            let declared = game.params(name);
            let known = || {
                let names: Vec<&str> = declared.iter().map(|p| p.name).collect();
                if names.is_empty() {
                    "it has none".to_owned()
                } else {
                    format!("it has: {}", names.join(", "))
                }
            };
            for param in &self.params {
                let Some(decl) = declared.iter().find(|d| d.name == param.name) else {
                    return Err(TuneError::Params(format!(
                        "built-in agent {name:?} has no parameter {:?} ({})",
                        param.name,
                        known()
                    )));
                };
                if param.min < decl.min || param.max > decl.max {
                    return Err(TuneError::Params(format!(
                        "{}: the range [{}, {}] goes outside {name}'s [{}, {}]",
                        param.name, param.min, param.max, decl.min, decl.max
                    )));
                }
                if decl.integer && !param.integer {
                    return Err(TuneError::Params(format!(
                        "{}: {name} takes whole numbers, so tune it as an int",
                        param.name
                    )));
                }
                let fixed_here = fixed.unwrap_or("").split('&').any(|setting| {
                    setting.split_once('=').map_or(setting, |(key, _)| key) == param.name
                });
                if fixed_here {
                    return Err(TuneError::Params(format!(
                        "{} is both set in the agent's spec and tuned: leave it out of one",
                        param.name
                    )));
                }
            }
            // The fixed settings, and every tuned value at both ends of its range.
            for end in [0, 1, 2] {
                let values: Vec<f64> =
                    self.params.iter().map(|p| [p.start, p.min, p.max][end]).collect();
                let spec = self.spec(&values);
                let (name, query) = split_spec(&spec["builtin:".len()..]);
                param_values(name, declared, query)
                    .map_err(|e| TuneError::Params(e.to_string()))?;
            }
            return Ok(());
        }
        if self.agent.starts_with("src:") {
            return Err(TuneError::Agent(
                "a src: agent has no command line to put parameters in: build it, and give \
                 its command line with {NAME} placeholders"
                    .into(),
            ));
        }
        let pieces = pieces(&self.agent).map_err(TuneError::Agent)?;
        let placeholders: Vec<&str> = pieces
            .iter()
            .filter_map(|p| match p {
                Piece::Placeholder(name) => Some(*name),
                Piece::Text(_) => None,
            })
            .collect();
        for name in &placeholders {
            if !self.params.iter().any(|p| p.name == *name) {
                return Err(TuneError::Params(format!(
                    "the command has a placeholder {{{name}}} that the parameter file does \
                     not name (it names: {})",
                    self.params.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", ")
                )));
            }
        }
        for param in &self.params {
            if !placeholders.contains(&param.name.as_str()) {
                return Err(TuneError::Params(format!(
                    "parameter {} has no placeholder {{{}}} in the command {:?}",
                    param.name, param.name, self.agent
                )));
            }
        }
        Ok(())
    }

    /// The agent's spec with the parameters at `values` (one per parameter,
    /// in the file's order; integers rounded). Call [`TunePlan::check`] first.
    #[must_use]
    pub fn spec(&self, values: &[f64]) -> String {
        if let Some(spec) = self.agent.strip_prefix("builtin:") {
            let mut out = format!("builtin:{spec}");
            let mut separator = if spec.contains('?') { '&' } else { '?' };
            if spec.ends_with('?') || spec.ends_with('&') {
                out.pop();
                separator = if spec.ends_with('?') { '?' } else { '&' };
            }
            for (param, &value) in self.params.iter().zip(values) {
                let _ = write!(out, "{separator}{}={}", param.name, param.text(value));
                separator = '&';
            }
            return out;
        }
        let mut out = String::new();
        for piece in pieces(&self.agent).unwrap_or_default() {
            match piece {
                Piece::Text(text) => out.push_str(&text),
                Piece::Placeholder(name) => {
                    if let Some((param, &value)) =
                        self.params.iter().zip(values).find(|(p, _)| p.name == name)
                    {
                        out.push_str(&param.text(value));
                    }
                }
            }
        }
        out
    }

    /// The starting θ.
    #[must_use]
    pub fn start(&self) -> Vec<f64> {
        self.params.iter().map(|p| p.start).collect()
    }

    /// `(a_k, c_k)` of each parameter at iteration `k` (from 0).
    #[must_use]
    pub fn gains(&self, k: u64) -> Vec<(f64, f64)> {
        let n = self.iterations as f64;
        let big_a = A_RATIO * n;
        let k = k as f64;
        self.params
            .iter()
            .map(|p| {
                let c = p.c_end * n.powf(GAMMA);
                let a = p.r_end * p.c_end * p.c_end * (big_a + n).powf(ALPHA);
                (a / (big_a + k + 1.0).powf(ALPHA), c / (k + 1.0).powf(GAMMA))
            })
            .collect()
    }

    /// The signs of iteration `k`: drawn from stream `k` of the seed, so
    /// they do not depend on what ran before.
    #[must_use]
    pub fn signs(&self, k: u64) -> Vec<i8> {
        let mut rng = GameRng::stream(self.seed, k);
        self.params.iter().map(|_| if rng.coin() { 1 } else { -1 }).collect()
    }

    fn clamp(&self, values: impl Iterator<Item = f64>) -> Vec<f64> {
        values.zip(&self.params).map(|(v, p)| v.clamp(p.min, p.max)).collect()
    }

    /// θ + c_k Δ and θ - c_k Δ, clamped, for iteration `k`.
    #[must_use]
    pub fn perturbed(&self, theta: &[f64], k: u64, signs: &[i8]) -> (Vec<f64>, Vec<f64>) {
        let gains = self.gains(k);
        let shift = |sign: f64| {
            self.clamp(
                theta
                    .iter()
                    .zip(&gains)
                    .zip(signs)
                    .map(|((t, (_, c)), d)| t + sign * c * f64::from(*d)),
            )
        };
        (shift(1.0), shift(-1.0))
    }

    /// θ after iteration `k` with signs `signs` and pair result `result`
    /// (wins minus losses of θ + c_k Δ), clamped.
    #[must_use]
    pub fn step(&self, theta: &[f64], k: u64, signs: &[i8], result: i32) -> Vec<f64> {
        let gains = self.gains(k);
        self.clamp(
            theta
                .iter()
                .zip(&gains)
                .zip(signs)
                .map(|((t, (a, c)), d)| t + a * f64::from(result) / (c * f64::from(*d))),
        )
    }

    /// The two games of iteration `k`: `plus` first in game 0, second in
    /// game 1, both on seed `seed + k`.
    #[must_use]
    pub fn game_config(&self, k: u64) -> GameConfig {
        GameConfig { seed: self.seed.wrapping_add(k), time: self.time, input: None }
    }

    /// The values handed to the agent for `theta` (integers rounded).
    #[must_use]
    pub fn used(&self, theta: &[f64]) -> Vec<f64> {
        theta.iter().zip(&self.params).map(|(v, p)| p.used(*v)).collect()
    }
}

/// One applied iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Iteration {
    pub k: u64,
    /// θ the iteration started from, and θ after its step.
    pub theta_before: Vec<f64>,
    pub theta: Vec<f64>,
    pub signs: Vec<i8>,
    /// θ ± c_k Δ, clamped (integers not yet rounded).
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
    /// Wins minus losses of `plus` in the pair.
    pub result: i32,
    /// Game 0 (`plus` first) and game 1 (`minus` first).
    pub outcomes: [Outcome; 2],
}

/// Wins minus losses of the agent that played first in game 0 and second
/// in game 1.
#[must_use]
pub fn pair_result(outcomes: &[Outcome; 2]) -> i32 {
    let score = |outcome: &Outcome, side: Side| match outcome.result.winner() {
        Some(winner) if winner == side => 1,
        Some(_) => -1,
        None => 0,
    };
    score(&outcomes[0], Side::First) + score(&outcomes[1], Side::Second)
}

/// A stored tuning run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneRun {
    pub id: i64,
    pub plan: TunePlan,
    pub created_at_ms: i64,
    pub finished_at_ms: Option<i64>,
    /// The spec with the final values, once finished.
    pub conclusion: Option<String>,
}

/// Creates a tuning run, after [`TunePlan::check`].
pub fn create_run(store: &Store, plan: &TunePlan) -> Result<i64, TuneError> {
    let row = store
        .conn()
        .query_one(
            "INSERT INTO tune_runs (game, settings, created_at) VALUES (?1, ?2, ?3) RETURNING id",
            args![&plan.game, json(plan), crate::store::now_ms()],
        )
        .map_err(StoreError::from)?;
    Ok(row.get(0).map_err(StoreError::from)?)
}

/// One tuning run.
pub fn load_run(store: &Store, id: i64) -> Result<TuneRun, TuneError> {
    let row = store
        .conn()
        .query_opt(
            "SELECT settings, created_at, finished_at, conclusion FROM tune_runs WHERE id = ?1",
            args![id],
        )
        .map_err(StoreError::from)?
        .ok_or(TuneError::NoSuchRun(id))?;
    let read = || -> Result<_, versus_sql::SqlError> {
        Ok((row.get::<String>(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
    };
    let (settings, created_at_ms, finished_at_ms, conclusion) = read().map_err(StoreError::from)?;
    Ok(TuneRun {
        id,
        plan: serde_json::from_str(&settings)
            .map_err(|e| TuneError::Corrupt(format!("run {id} settings: {e}")))?,
        created_at_ms,
        finished_at_ms,
        conclusion,
    })
}

/// Every tuning run, oldest first.
pub fn runs(store: &Store) -> Result<Vec<TuneRun>, TuneError> {
    let rows = store
        .conn()
        .query("SELECT id FROM tune_runs ORDER BY id", &[])
        .map_err(StoreError::from)?;
    rows.iter().map(|row| load_run(store, row.get(0).map_err(StoreError::from)?)).collect()
}

/// The applied iterations of a run, in order.
pub fn iterations(store: &Store, id: i64) -> Result<Vec<Iteration>, TuneError> {
    load_run(store, id)?;
    let rows = store
        .conn()
        .query("SELECT k, data FROM tune_iterations WHERE run_id = ?1 ORDER BY k", args![id])
        .map_err(StoreError::from)?;
    let mut out = Vec::new();
    for row in rows {
        let k: i64 = row.get(0).map_err(StoreError::from)?;
        let data: String = row.get(1).map_err(StoreError::from)?;
        let iteration: Iteration = serde_json::from_str(&data)
            .map_err(|e| TuneError::Corrupt(format!("run {id} iteration {k}: {e}")))?;
        if iteration.k != out.len() as u64 || k as u64 != iteration.k {
            return Err(TuneError::Corrupt(format!("run {id} lacks iteration {}", out.len())));
        }
        out.push(iteration);
    }
    Ok(out)
}

fn store_iteration(store: &Store, id: i64, iteration: &Iteration) -> Result<(), TuneError> {
    store
        .conn()
        .execute(
            "INSERT INTO tune_iterations (run_id, k, result, data, finished_at)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            args![
                id,
                iteration.k as i64,
                i64::from(iteration.result),
                json(iteration),
                crate::store::now_ms()
            ],
        )
        .map_err(StoreError::from)?;
    Ok(())
}

/// Records that a run is over, with the spec of its final values.
pub fn finish_run(store: &Store, id: i64, conclusion: &str) -> Result<(), TuneError> {
    store
        .conn()
        .execute(
            "UPDATE tune_runs SET finished_at = ?2, conclusion = ?3 WHERE id = ?1",
            args![id, crate::store::now_ms(), conclusion],
        )
        .map_err(StoreError::from)?;
    Ok(())
}

fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("tuning values serialize to JSON")
}

/// An iteration under way: where it started and what it plays.
struct Started {
    theta_before: Vec<f64>,
    signs: Vec<i8>,
    plus: Vec<f64>,
    minus: Vec<f64>,
}

struct Job {
    k: u64,
    plus: Vec<f64>,
    minus: Vec<f64>,
}

/// Plays the two games of an iteration.
fn play_pair(
    game: &dyn Game,
    plan: &TunePlan,
    limits: &Limits,
    job: &Job,
) -> Result<[Outcome; 2], TuneError> {
    let config = plan.game_config(job.k);
    let specs = [plan.spec(&job.plus), plan.spec(&job.minus)];
    let cwd = plan.cwd.clone();
    let play = |first: &str, second: &str| -> Result<Outcome, TuneError> {
        let seed = config.seed;
        let agents = BySide::from_fn(|side| {
            let text = if side == Side::First { first } else { second };
            let agent_seed = seed.wrapping_mul(2).wrapping_add(1 + side.index() as u64);
            AgentSpec::parse(text, cwd.clone(), agent_seed)
        });
        Ok(run_game(game, &config, &agents, limits, &mut |_| {})?)
    };
    Ok([play(&specs[0], &specs[1])?, play(&specs[1], &specs[0])?])
}

/// Runs (or continues) tuning run `id` of `store` with `jobs` iterations at
/// once, calling `progress` after each applied iteration, until the planned
/// iterations are done or `stop` is set (the iterations under way are
/// finished and stored). Returns θ as it is then.
pub fn run(
    store: &Store,
    id: i64,
    game: &dyn Game,
    jobs: usize,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Iteration),
) -> Result<Vec<f64>, TuneError> {
    let plan = load_run(store, id)?.plan;
    plan.check(game)?;
    let done = iterations(store, id)?;
    let mut theta = done.last().map_or_else(|| plan.start(), |it| it.theta.clone());
    let mut next_apply = done.len() as u64;
    let total = plan.iterations;
    if next_apply >= total {
        return Ok(theta);
    }
    let limits = Limits {
        sandbox: SandboxSettings { commands: plan.sandbox, ..SandboxSettings::default() },
        ..Limits::default()
    };
    let jobs = jobs.max(1) as u64;
    let (job_tx, job_rx) = mpsc::channel::<Job>();
    let job_rx = Mutex::new(job_rx);
    let (result_tx, result_rx) = mpsc::channel::<(u64, Result<[Outcome; 2], TuneError>)>();
    let plan_ref = &plan;
    let limits_ref = &limits;
    thread::scope(|scope| -> Result<Vec<f64>, TuneError> {
        // Owned here, so that the workers see the channel close however this returns.
        let job_tx = job_tx;
        for _ in 0..jobs.min(total - next_apply) {
            let result_tx = result_tx.clone();
            let job_rx = &job_rx;
            scope.spawn(move || loop {
                let job = match job_rx.lock() {
                    Ok(rx) => rx.recv(),
                    Err(_) => return,
                };
                let Ok(job) = job else { return };
                let played = play_pair(game, plan_ref, limits_ref, &job);
                if result_tx.send((job.k, played)).is_err() {
                    return;
                }
            });
        }
        drop(result_tx);
        // Iteration k starts from θ after iteration k - jobs (see the module docs).
        let mut in_flight: BTreeMap<u64, Started> = BTreeMap::new();
        let dispatch = |k: u64, theta: &[f64], in_flight: &mut BTreeMap<_, _>| {
            let signs = plan.signs(k);
            let (plus, minus) = plan.perturbed(theta, k, &signs);
            in_flight.insert(
                k,
                Started {
                    theta_before: theta.to_vec(),
                    signs,
                    plus: plus.clone(),
                    minus: minus.clone(),
                },
            );
            let _ = job_tx.send(Job { k, plus, minus });
        };
        let first_end = (next_apply + jobs).min(total);
        for k in next_apply..first_end {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            dispatch(k, &theta, &mut in_flight);
        }
        let mut finished: BTreeMap<u64, [Outcome; 2]> = BTreeMap::new();
        while !in_flight.is_empty() {
            let Ok((k, played)) = result_rx.recv() else { break };
            finished.insert(k, played?);
            while let Some(outcomes) = finished.remove(&next_apply) {
                let Started { theta_before, signs, plus, minus } =
                    in_flight.remove(&next_apply).expect("a finished iteration was dispatched");
                let result = pair_result(&outcomes);
                let after = plan.step(&theta, next_apply, &signs, result);
                let iteration = Iteration {
                    k: next_apply,
                    theta_before,
                    theta: after.clone(),
                    signs,
                    plus,
                    minus,
                    result,
                    outcomes,
                };
                store_iteration(store, id, &iteration)?;
                theta = after;
                progress(&iteration);
                let next = next_apply + jobs;
                next_apply += 1;
                if next < total && !stop.load(Ordering::Relaxed) {
                    dispatch(next, &theta, &mut in_flight);
                }
            }
        }
        drop(job_tx);
        Ok(theta.clone())
    })
}

/// The chart of a run: one panel per parameter, θ (after each iteration,
/// from the start) against the iteration, on the parameter's range.
pub mod chart {
    use super::{Iteration, TunePlan};
    use std::fmt::Write as _;

    /// The chart's width and each panel's height, in pixels.
    pub const WIDTH: f64 = 640.0;
    pub const PANEL: f64 = 110.0;
    /// Margins: left (labels), right, above and below each plot.
    pub const LEFT: f64 = 70.0;
    pub const RIGHT: f64 = 20.0;
    pub const TOP: f64 = 22.0;
    pub const BOTTOM: f64 = 14.0;

    /// Where iteration count `i` (0: the start) and `value` of parameter
    /// `p` are drawn.
    #[must_use]
    pub fn point(plan: &TunePlan, p: usize, i: u64, value: f64) -> (f64, f64) {
        let param = &plan.params[p];
        let plot_w = WIDTH - LEFT - RIGHT;
        let plot_h = PANEL - TOP - BOTTOM;
        let x = LEFT + plot_w * i as f64 / plan.iterations as f64;
        let y = p as f64 * PANEL + TOP + plot_h * (param.max - value) / (param.max - param.min);
        (x, y)
    }

    fn escape(text: &str) -> String {
        text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
    }

    /// The chart as an SVG document.
    #[must_use]
    pub fn svg(plan: &TunePlan, iterations: &[Iteration]) -> String {
        let height = PANEL * plan.params.len() as f64;
        let mut out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" \
             viewBox=\"0 0 {WIDTH} {height}\" font-family=\"sans-serif\" font-size=\"11\">\n"
        );
        for (p, param) in plan.params.iter().enumerate() {
            let (x0, y_top) = point(plan, p, 0, param.max);
            let (x1, y_bottom) = point(plan, p, plan.iterations, param.min);
            let last = iterations.last().map_or(param.start, |it| it.theta[p]);
            let _ = writeln!(
                out,
                "<text x=\"{x0}\" y=\"{}\" font-weight=\"bold\">{} {} → {}</text>",
                y_top - 6.0,
                escape(&param.name),
                param.used(param.start),
                param.used(last)
            );
            let _ = writeln!(
                out,
                "<rect x=\"{x0}\" y=\"{y_top}\" width=\"{}\" height=\"{}\" fill=\"none\" \
                 stroke=\"#bbb\"/>",
                x1 - x0,
                y_bottom - y_top
            );
            for (value, y) in [(param.max, y_top), (param.min, y_bottom)] {
                let _ = writeln!(
                    out,
                    "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{value}</text>",
                    x0 - 4.0,
                    y + 4.0
                );
            }
            let (_, y_start) = point(plan, p, 0, param.start);
            let _ = writeln!(
                out,
                "<line x1=\"{x0}\" y1=\"{y_start}\" x2=\"{x1}\" y2=\"{y_start}\" \
                 stroke=\"#ccc\" stroke-dasharray=\"4 3\"/>"
            );
            let mut points = Vec::with_capacity(iterations.len() + 1);
            let (x, y) = point(plan, p, 0, param.start);
            points.push(format!("{x:.1},{y:.1}"));
            for it in iterations {
                let (x, y) = point(plan, p, it.k + 1, it.theta[p]);
                points.push(format!("{x:.1},{y:.1}"));
            }
            let _ = writeln!(
                out,
                "<polyline fill=\"none\" stroke=\"#1f5fbf\" stroke-width=\"1.5\" points=\"{}\"/>",
                points.join(" ")
            );
        }
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#666\">{} of {} iterations</text>",
            WIDTH - RIGHT,
            height - 2.0,
            iterations.len(),
            plan.iterations
        );
        out.push_str("</svg>\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use versus_core::{GameResult, TimeControl};

    fn plan(agent: &str, file: &str) -> TunePlan {
        TunePlan {
            game: "bacteria-war".into(),
            agent: agent.into(),
            cwd: None,
            params: parse_params(file, "p.txt").unwrap(),
            iterations: 100,
            time: TimeControl::CONTEST,
            seed: 1,
            sandbox: false,
        }
    }

    fn bacteria() -> &'static dyn Game {
        versus_games::find("bacteria-war").unwrap()
    }

    #[test]
    fn gains_follow_the_schedule_computed_by_hand() {
        let plan = plan("./bot {x}", "x, float, 50, 0, 100, 2, 0.01");
        // N = 100, A = 10: c = 2 * 100^0.101 = 3.18442, a = 0.01 * 4 * 110^0.602
        // = 0.677594, a_0 = a / 11^0.602 = 0.159978.
        let [(a0, c0)] = plan.gains(0)[..] else { panic!() };
        assert!((c0 - 3.184_417).abs() < 1e-6, "{c0}");
        assert!((a0 - 0.159_978).abs() < 1e-6, "{a0}");
        // The last iteration perturbs by c_end, with a_k / c_k^2 = r_end.
        let [(a99, c99)] = plan.gains(99)[..] else { panic!() };
        assert!((c99 - 2.0).abs() < 1e-12 && (a99 / (c99 * c99) - 0.01).abs() < 1e-12);
        // A won pair (+2) at k = 0 with Δ = +1 moves 50 by 2 a_0 / c_0 = 0.100475.
        let after = plan.step(&[50.0], 0, &[1], 2);
        assert!((after[0] - 50.100_475).abs() < 1e-6, "{after:?}");
        // With Δ = -1 the same result moves the other way; a drawn pair not at all.
        assert!((plan.step(&[50.0], 0, &[-1], 2)[0] - 49.899_525).abs() < 1e-6);
        assert_eq!(plan.step(&[50.0], 0, &[1], 0), [50.0]);
        // Clamped to the range, both the step and the perturbation.
        assert_eq!(plan.step(&[99.99], 0, &[1], 2), [100.0]);
        let (plus, minus) = plan.perturbed(&[1.0], 0, &[1]);
        assert!((plus[0] - 4.184_417).abs() < 1e-6 && minus == [0.0], "{plus:?} {minus:?}");
    }

    #[test]
    fn signs_are_fixed_by_seed_and_iteration_and_both_occur() {
        let plan = plan("./bot {x} {y}", "x, int, 5, 0, 10, 1, 0.1\ny, int, 5, 0, 10, 1, 0.1");
        assert_eq!(plan.signs(7), plan.signs(7));
        let plus: usize =
            (0..1000).map(|k| plan.signs(k).iter().filter(|&&s| s == 1).count()).sum();
        assert!((900..1100).contains(&plus), "{plus} of 2000 signs are +1");
        assert!((0..1000).all(|k| plan.signs(k).iter().all(|s| s.abs() == 1)));
    }

    #[test]
    fn pair_results_count_wins_minus_losses_of_the_plus_side() {
        let outcome = |result| Outcome {
            result,
            scores: BySide::new(0.0, 0.0),
            faults: BySide::new(None, None),
        };
        let (first, second, draw) =
            (GameResult::FirstWins, GameResult::SecondWins, GameResult::Draw);
        // Game 0: plus plays first; game 1: plus plays second.
        assert_eq!(pair_result(&[outcome(first), outcome(second)]), 2);
        assert_eq!(pair_result(&[outcome(second), outcome(first)]), -2);
        assert_eq!(pair_result(&[outcome(first), outcome(first)]), 0);
        assert_eq!(pair_result(&[outcome(draw), outcome(second)]), 1);
        assert_eq!(pair_result(&[outcome(draw), outcome(draw)]), 0);
    }

    #[test]
    fn values_go_into_placeholders_and_built_in_specs_rounded_as_used() {
        let file = "tempo, int, 10, 0, 100, 5, 0.002\nk, float, 0.5, 0, 1, 0.1, 0.002";
        let p = plan("./bot --tempo {tempo} --k {k} --json '{{\"a\":1}}'", file);
        p.check(bacteria()).unwrap();
        assert_eq!(p.spec(&[12.5, 0.25]), "./bot --tempo 13 --k 0.25 --json '{\"a\":1}'");
        assert_eq!(p.spec(&[12.49, 0.1]), "./bot --tempo 12 --k 0.1 --json '{\"a\":1}'");

        let file = "tempo, int, 485, 0, 1000, 20, 0.002\nsafe_end, int, 305, 0, 600, 20, 0.002";
        let p = plan("builtin:strong", file);
        p.check(bacteria()).unwrap();
        assert_eq!(p.spec(&[500.6, 3.2]), "builtin:strong?tempo=501&safe_end=3");
        let p = plan("builtin:strong?moves_extra=5", file);
        p.check(bacteria()).unwrap();
        assert_eq!(p.spec(&[1.0, 2.0]), "builtin:strong?moves_extra=5&tempo=1&safe_end=2");
    }

    #[test]
    fn every_substitution_error_is_found_before_a_game() {
        let error =
            |agent: &str, file: &str| plan(agent, file).check(bacteria()).unwrap_err().to_string();
        let two = "tempo, int, 10, 0, 100, 5, 0.002\nk, float, 0.5, 0, 1, 0.1, 0.002";
        assert_eq!(
            error("./bot --tempo {tempo}", two),
            "parameter k has no placeholder {k} in the command \"./bot --tempo {tempo}\""
        );
        assert_eq!(
            error("./bot {tempo} {k} {kk}", two),
            "the command has a placeholder {kk} that the parameter file does not name \
             (it names: tempo, k)"
        );
        assert_eq!(
            error("./bot {tempo} {k", two),
            "the agent: an unclosed { in \"./bot {tempo} {k\" (write {{ for a brace)"
        );
        assert_eq!(
            error("./bot {tempo} k}", two),
            "the agent: a lone } in \"./bot {tempo} k}\" (write }} for a brace)"
        );
        assert!(error("src:bot.py", two).starts_with("the agent: a src: agent has no command line"));
        let one = "tempo, int, 485, 0, 1000, 20, 0.002";
        assert_eq!(
            error("builtin:greedy", one),
            "built-in agent \"greedy\" has no parameter \"tempo\" (it has none)"
        );
        assert!(error("builtin:strong", "tempi, int, 4, 0, 10, 1, 0.1").starts_with(
            "built-in agent \"strong\" has no parameter \"tempi\" (it has: material_open,"
        ));
        assert_eq!(
            error("builtin:strong", "tempo, int, 485, 0, 2000, 20, 0.002"),
            "tempo: the range [0, 2000] goes outside strong's [0, 1000]"
        );
        assert_eq!(
            error("builtin:strong", "tempo, float, 485, 0, 1000, 20, 0.002"),
            "tempo: strong takes whole numbers, so tune it as an int"
        );
        assert_eq!(
            error("builtin:strong?tempo=3", one),
            "tempo is both set in the agent's spec and tuned: leave it out of one"
        );
        assert_eq!(
            error("builtin:strong?tempx=3", one),
            "built-in agent \"strong\" has no parameter \"tempx\" (it has: material_open, \
             material_end, safe_open, safe_end, mobility_open, mobility_end, tempo, \
             soft_percent, hard_tenths, moves_per_empty_percent, moves_extra, killers, iir, \
             futility_margin, rfp_margin, rfp_depth, lmr_base, lmr_divisor, nnue, multicut, \
             singular, singular_margin, singular_multicut)"
        );
        assert!(error("builtin:strongest", one)
            .starts_with("the agent: bacteria-war has no built-in agent \"strongest\""));
    }

    #[test]
    fn parameter_files_are_read_or_refused_with_their_line() {
        let text = "# name, type, start, min, max, c_end, r_end\n\n\
                    tempo, int, 485, 0, 1000, 20, 0.002  # the tempo\n\
                    k,float,0.5,0,1,0.05,0.002\n";
        let params = parse_params(text, "p.txt").unwrap();
        assert_eq!(
            params[0],
            TuneParam {
                name: "tempo".into(),
                integer: true,
                start: 485.0,
                min: 0.0,
                max: 1000.0,
                c_end: 20.0,
                r_end: 0.002
            }
        );
        assert_eq!(
            (params[1].name.as_str(), params[1].integer, params[1].c_end),
            ("k", false, 0.05)
        );
        let error = |text| parse_params(text, "p.txt").unwrap_err().to_string();
        assert_eq!(
            error("\nx, int, 1, 0, 10, 1"),
            "p.txt: line 2: 6 fields, expected 7: NAME, int|float, START, MIN, MAX, C_END, R_END"
        );
        assert_eq!(
            error("x, real, 1, 0, 10, 1, 1"),
            "p.txt: line 1: type \"real\": write int or float"
        );
        assert_eq!(
            error("x, int, 11, 0, 10, 1, 1"),
            "p.txt: line 1: x: START 11 is outside [0, 10]"
        );
        assert_eq!(error("x, int, 1, 10, 0, 1, 1"), "p.txt: line 1: x: MIN 10 is not below MAX 0");
        assert_eq!(
            error("x, int, 1.5, 0, 10, 1, 1"),
            "p.txt: line 1: x is an int: START, MIN and MAX must be whole"
        );
        assert_eq!(
            error("x, int, one, 0, 10, 1, 1"),
            "p.txt: line 1: START of x: \"one\" is not a number"
        );
        assert_eq!(
            error("x, int, 1, 0, 10, 0, 1"),
            "p.txt: line 1: x: C_END and R_END must be above 0"
        );
        assert_eq!(
            error("x, int, 1, 0, 10, 1, 1\nx, int, 1, 0, 10, 1, 1"),
            "p.txt: line 2: x is given twice"
        );
        assert_eq!(
            error("x-y, int, 1, 0, 10, 1, 1"),
            "p.txt: line 1: \"x-y\" is not a name (letters, digits and _)"
        );
        assert_eq!(error("# nothing\n"), "p.txt names no parameter to tune");
    }

    #[test]
    fn chart_points_are_placed_as_computed_by_hand() {
        let mut p = plan("./bot {x} {y}", "x, int, 5, 0, 10, 1, 0.1\ny, float, 50, 0, 100, 1, 0.1");
        p.iterations = 10;
        // Plot width 640 - 70 - 20 = 550; plot height 110 - 22 - 14 = 74.
        // y's panel is the second: its top is 110.
        assert_eq!(chart::point(&p, 1, 5, 25.0), (70.0 + 275.0, 110.0 + 22.0 + 74.0 * 0.75));
        assert_eq!(chart::point(&p, 0, 0, 10.0), (70.0, 22.0));
        assert_eq!(chart::point(&p, 0, 10, 0.0), (620.0, 96.0));
        let outcome = Outcome {
            result: GameResult::Draw,
            scores: BySide::new(0.0, 0.0),
            faults: BySide::new(None, None),
        };
        let it = Iteration {
            k: 0,
            theta_before: vec![5.0, 50.0],
            theta: vec![7.5, 0.0],
            signs: vec![1, -1],
            plus: vec![6.0, 49.0],
            minus: vec![4.0, 51.0],
            result: 2,
            outcomes: [outcome.clone(), outcome],
        };
        let svg = chart::svg(&p, &[it]);
        // x: start at (70, 59.0) (5 of 10), then after iteration 0 at
        // x = 70 + 55 = 125, 7.5 of 10 is y = 22 + 74 / 4 = 40.5.
        assert!(svg.contains("points=\"70.0,59.0 125.0,40.5\""), "{svg}");
        // y: 50 of 100 is y = 110 + 22 + 37 = 169; 0 is the bottom, 206.
        assert!(svg.contains("points=\"70.0,169.0 125.0,206.0\""), "{svg}");
        assert!(svg.contains(">x 5 → 8</text>") && svg.contains(">y 50 → 0</text>"), "{svg}");
    }
}
