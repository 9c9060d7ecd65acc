//! SPSA through real games: a synthetic agent whose strength peaks at known
//! parameter values is tuned from far away, in process, on Bacteria War's
//! rules and referee.

use std::sync::atomic::AtomicBool;

use versus_bacteria::protocol::{AgentLine, JudgeLine, WireMove};
use versus_bacteria::{Move, State};
use versus_core::{
    AgentError, ConfigError, Game, GameConfig, GameRng, Param, ProtocolAgent, Referee, TimeControl,
};
use versus_league::store::Store;
use versus_league::tune::{self, parse_params, TunePlan};

/// Where the synthetic agent is strongest.
const OPTIMUM: [f64; 2] = [70.0, 30.0];

const PARAMS: [Param; 2] = [
    Param { name: "x", default: 50.0, min: 0.0, max: 100.0, integer: false, about: "" },
    Param { name: "y", default: 50.0, min: 0.0, max: 100.0, integer: true, about: "" },
];

/// Bacteria War with one built-in agent, `synthetic`, that plays the greedy
/// move with probability `1 - d / 100` (d: the distance of its parameters
/// from [`OPTIMUM`]) and a uniformly random move otherwise.
struct Synthetic;

impl Game for Synthetic {
    fn name(&self) -> &'static str {
        "synthetic"
    }
    fn title(&self) -> &'static str {
        "Synthetic"
    }
    fn rules_version(&self) -> &'static str {
        "1"
    }
    fn referee(&self, config: &GameConfig) -> Result<Box<dyn Referee>, ConfigError> {
        versus_bacteria::GAME.referee(config)
    }
    fn agent_names(&self) -> &'static [&'static str] {
        &["synthetic"]
    }
    fn agent(&self, name: &str, seed: u64) -> Option<Box<dyn ProtocolAgent>> {
        self.agent_with(name, seed, &[50.0, 50.0])
    }
    fn params(&self, _name: &str) -> &'static [Param] {
        &PARAMS
    }
    fn agent_with(&self, _name: &str, seed: u64, v: &[f64]) -> Option<Box<dyn ProtocolAgent>> {
        let distance = ((v[0] - OPTIMUM[0]).powi(2) + (v[1] - OPTIMUM[1]).powi(2)).sqrt();
        let skill = (1.0 - distance / 100.0).max(0.0);
        Some(Box::new(Noisy { skill, seed, rng: GameRng::new(seed), state: State::start() }))
    }
}

struct Noisy {
    skill: f64,
    seed: u64,
    rng: GameRng,
    state: State,
}

impl ProtocolAgent for Noisy {
    fn respond(&mut self, line: &str) -> Result<Option<String>, AgentError> {
        let parsed: JudgeLine = line.parse().map_err(|e| AgentError::new(format!("{e}")))?;
        let error = |e: versus_bacteria::rules::IllegalMove| AgentError::new(e.to_string());
        match parsed {
            JudgeLine::Ready(_) => {
                self.state = State::start();
                self.rng = GameRng::new(self.seed);
                Ok(Some(AgentLine::Ok.to_string()))
            }
            JudgeLine::Turn { .. } => {
                let mut moves = self.state.legal_moves();
                if (self.rng.below(1_000_000) as f64) < self.skill * 1e6 {
                    let gain = |mv: Move| {
                        2 * self.state.captures(mv) + u32::from(matches!(mv, Move::Division { .. }))
                    };
                    let best = moves.iter().map(|&mv| gain(mv)).max().unwrap_or(0);
                    moves.retain(|&mv| gain(mv) == best);
                }
                let mv = moves[self.rng.below(moves.len() as u64) as usize];
                let wire = match mv {
                    Move::Pass => WireMove::Pass,
                    Move::Jump { from, to } => WireMove::Cells { from, to },
                    Move::Division { to } => {
                        WireMove::Cells { from: self.state.division_source(to).unwrap(), to }
                    }
                };
                self.state.play(mv).map_err(error)?;
                Ok(Some(AgentLine::Move(wire).to_string()))
            }
            JudgeLine::Opp { mv, .. } => {
                let mv = match mv {
                    WireMove::Pass => Move::Pass,
                    WireMove::Cells { from, to } => {
                        self.state.move_between(from, to).map_err(error)?
                    }
                };
                self.state.play(mv).map_err(error)?;
                Ok(None)
            }
            JudgeLine::Finish => Ok(None),
        }
    }
}

fn plan(iterations: u64, seed: u64) -> TunePlan {
    TunePlan {
        game: "synthetic".into(),
        agent: "builtin:synthetic".into(),
        cwd: None,
        params: parse_params("x, float, 20, 0, 100, 8, 0.05\ny, int, 80, 0, 100, 8, 0.05", "p")
            .unwrap(),
        iterations,
        time: TimeControl::CONTEST,
        seed,
        sandbox: false,
    }
}

/// Runs a new tuning run to its end; θ and the stored iterations.
fn tune_run(plan: &TunePlan, jobs: usize) -> (Vec<f64>, Vec<tune::Iteration>) {
    let store = Store::open_in_memory().unwrap();
    let id = tune::create_run(&store, plan).unwrap();
    let stop = AtomicBool::new(false);
    let theta = tune::run(&store, id, &Synthetic, jobs, &stop, &mut |_| {}).unwrap();
    (theta, tune::iterations(&store, id).unwrap())
}

fn distance(theta: &[f64]) -> f64 {
    ((theta[0] - OPTIMUM[0]).powi(2) + (theta[1] - OPTIMUM[1]).powi(2)).sqrt()
}

#[test]
fn tuning_from_far_away_ends_near_the_hidden_optimum() {
    for (seed, jobs) in [(1, 1), (2, 2), (3, 2)] {
        let plan = plan(300, seed);
        let start = distance(&plan.start());
        let (theta, iterations) = tune_run(&plan, jobs);
        assert_eq!(iterations.len(), 300, "600 games, no more");
        eprintln!("seed {seed} -j {jobs}: {theta:?}, {:.1} from the optimum", distance(&theta));
        assert!(start > 70.0 && distance(&theta) < 10.0, "seed {seed}: ended at {theta:?}");
        // Iteration k starts from θ as it was after iteration k - jobs.
        for (k, it) in iterations.iter().enumerate() {
            let from = if k < jobs { plan.start() } else { iterations[k - jobs].theta.clone() };
            assert_eq!(it.theta_before, from, "iteration {k}");
            assert_eq!(it.result, tune::pair_result(&it.outcomes));
        }
    }
}

#[test]
fn the_same_seed_and_jobs_give_the_same_run() {
    let plan = plan(60, 5);
    for jobs in [1, 2, 3] {
        let (theta, iterations) = tune_run(&plan, jobs);
        assert_eq!(tune_run(&plan, jobs), (theta, iterations), "-j {jobs}");
    }
    let other = TunePlan { seed: 6, ..plan.clone() };
    assert_ne!(tune_run(&plan, 1).0, tune_run(&other, 1).0);
}

#[test]
fn a_stopped_run_resumes_from_its_stored_theta_and_iteration() {
    let plan = plan(40, 9);
    let (uninterrupted, _) = tune_run(&plan, 1);

    let dir = std::env::temp_dir().join(format!("versus-tune-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tune.sqlite");
    let _ = std::fs::remove_file(&path);
    let id = {
        let store = Store::open(&path).unwrap();
        let id = tune::create_run(&store, &plan).unwrap();
        let stop = AtomicBool::new(false);
        tune::run(&store, id, &Synthetic, 1, &stop, &mut |it| {
            if it.k == 14 {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        })
        .unwrap();
        id
    };
    // The store alone (a new connection) carries the run on.
    let store = Store::open(&path).unwrap();
    let stored = tune::iterations(&store, id).unwrap();
    assert_eq!(stored.len(), 15, "stopped after iteration 14");
    let stop = AtomicBool::new(false);
    let mut first = None;
    let theta = tune::run(&store, id, &Synthetic, 1, &stop, &mut |it| {
        first.get_or_insert(it.clone());
    })
    .unwrap();
    let first = first.unwrap();
    assert_eq!((first.k, &first.theta_before), (15, &stored[14].theta));
    // With -j 1 a resumed run is exactly the run that was not stopped.
    assert_eq!(theta, uninterrupted);
    assert_eq!(tune::iterations(&store, id).unwrap().len(), 40);
    let _ = std::fs::remove_dir_all(&dir);
}
