//! The contest's engine room: a compiler thread, a scheduler thread and
//! player threads, each with its own connection to the store, all driven by
//! what the store says (so a restarted host carries on where it stopped).

use std::collections::HashSet;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Duration;

use versus_core::{BySide, ClockMode, Game, GameConfig, RecordLine, TimeControl};
use versus_judge::{AgentSpec, Limits};
use versus_sandbox::{BuildError, Builder, Language};

use crate::db::{
    Db, Match, MatchKind, Player, Submission, SubmissionId, SubmissionState, LEASE, LOCAL_PLAYER,
};
use crate::policy::{self, Settings};
use crate::rating::{fit, leaderboard};
use crate::{auth, now_ms, ContestError};

/// How the host runs its contest.
#[derive(Clone, Debug)]
pub struct Config {
    /// The store: a SQLite file's path or a `postgres://` URL.
    pub db: String,
    /// The name this process's players lease games under: the host's own
    /// ([`LOCAL_PLAYER`]), or a worker's on another machine.
    pub worker: String,
    /// How long a game stays this process's without a heartbeat (its
    /// players renew it every quarter of that).
    pub lease: Duration,
    /// Where submissions' sources are written for the judge, by content hash.
    pub sources: PathBuf,
    /// Limits and sandbox of every program.
    pub limits: Limits,
    pub time: TimeControl,
    /// The clock of every game; `None`: each game's contest's own (see
    /// [`preset_clock`]).
    pub clock: Option<ClockMode>,
    /// Games played at once.
    pub players: usize,
    pub settings: Settings,
    /// How often idle threads look at the store again.
    pub poll: Duration,
}

impl Config {
    /// The defaults for a store at `db`: sources next to it, contest
    /// clock, one game at a time (each side of a game has a CPU of its own).
    #[must_use]
    pub fn new(db: &Path) -> Config {
        let mut sources = db.as_os_str().to_owned();
        sources.push(".sources");
        Config::with_sources(&db.display().to_string(), PathBuf::from(sources))
    }

    /// The defaults for the store at `locator` (a path or a `postgres://`
    /// URL), with sources written under `sources`.
    #[must_use]
    pub fn with_sources(locator: &str, sources: PathBuf) -> Config {
        Config {
            db: locator.to_owned(),
            worker: LOCAL_PLAYER.to_owned(),
            lease: LEASE,
            sources,
            limits: Limits::default(),
            time: TimeControl::CONTEST,
            clock: None,
            players: 1,
            settings: Settings::default(),
            poll: Duration::from_millis(200),
        }
    }
}

/// The running threads; [`Runner::stop`] ends them after their current work.
#[derive(Debug)]
pub struct Runner {
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

impl Runner {
    /// Puts back in the queue what a previous host left running, then starts
    /// the threads.
    pub fn start(config: Config) -> Result<Runner, ContestError> {
        let mut db = Db::connect(&config.db)?;
        let requeued = db.requeue_running()?;
        if requeued > 0 {
            eprintln!("versus host: {requeued} unfinished games from before are queued again");
        }
        db.set_play_settings(config.time, config.clock)?;
        Runner::spawn(config, true)
    }

    /// Starts only player threads, for a worker on another machine that
    /// plays the contest's games (the host compiles and schedules), with
    /// the host's time control and clock as it recorded them.
    pub fn start_players(mut config: Config) -> Result<Runner, ContestError> {
        let db = Db::connect(&config.db)?;
        let Some((time, clock)) = db.play_settings()? else {
            return Err(ContestError::NotFound(
                "no contest host has started on this database yet (versus host --db URL)".into(),
            ));
        };
        config.time = time;
        config.clock = clock;
        Runner::spawn(config, false)
    }

    fn spawn(config: Config, host: bool) -> Result<Runner, ContestError> {
        fs::create_dir_all(&config.sources).map_err(|e| ContestError::Open {
            path: config.sources.display().to_string(),
            message: e.to_string(),
        })?;
        let stop = Arc::new(AtomicBool::new(false));
        let config = Arc::new(config);
        let mut threads = Vec::new();
        let spawn =
            |name: &str, work: fn(&Config, &mut Db, &AtomicBool) -> Result<bool, ContestError>| {
                let config = Arc::clone(&config);
                let stop = Arc::clone(&stop);
                thread::Builder::new()
                    .name(name.to_owned())
                    .spawn(move || run_loop(&config, &stop, work))
            };
        let io = |e: std::io::Error| ContestError::Invalid(format!("cannot start a thread: {e}"));
        if host {
            threads.push(spawn("contest-compiler", compile_next).map_err(io)?);
            threads.push(spawn("contest-scheduler", schedule).map_err(io)?);
        }
        for k in 0..config.players.max(1) {
            threads.push(spawn(&format!("contest-player-{k}"), play_next).map_err(io)?);
        }
        Ok(Runner { stop, threads })
    }

    /// Whether every thread has ended (they end only when stopped).
    #[must_use]
    pub fn finished(&self) -> bool {
        self.threads.iter().all(JoinHandle::is_finished)
    }

    /// Stops the threads once their current compile or game is over.
    pub fn stop(self) {
        self.stop.store(true, Ordering::SeqCst);
        for thread in self.threads {
            let _ = thread.join();
        }
    }
}

/// Calls `work` until stopped; sleeps when it found nothing to do. Errors
/// are printed and the loop goes on (a busy store, a full disk that frees).
fn run_loop(
    config: &Config,
    stop: &AtomicBool,
    work: fn(&Config, &mut Db, &AtomicBool) -> Result<bool, ContestError>,
) {
    let name = thread::current().name().unwrap_or("contest").to_owned();
    let mut db = loop {
        match Db::connect(&config.db) {
            Ok(db) => break db,
            Err(error) => {
                eprintln!("versus host: {name}: {error}");
                if stop.load(Ordering::SeqCst) {
                    return;
                }
                thread::sleep(config.poll * 5);
            }
        }
    };
    while !stop.load(Ordering::SeqCst) {
        match work(config, &mut db, stop) {
            Ok(true) => {}
            Ok(false) => thread::sleep(config.poll),
            Err(error) => {
                eprintln!("versus host: {name}: {error}");
                thread::sleep(config.poll * 5);
            }
        }
    }
}

/// The language of a stored submission.
pub fn language(submission: &Submission) -> Result<Language, ContestError> {
    submission.language.parse::<Language>().map_err(ContestError::Corrupt)
}

/// Writes a submission's source where the judge reads it (once per content).
fn source_path(
    config: &Config,
    db: &Db,
    id: SubmissionId,
) -> Result<(PathBuf, Language), ContestError> {
    let submission = db
        .submission(id)?
        .ok_or_else(|| ContestError::NotFound(format!("no submission {}", id.0)))?;
    let language = language(&submission)?;
    let dir = config.sources.join(&submission.sha256);
    let path = dir.join(language.source_name());
    if !path.exists() {
        let io = |e: std::io::Error| ContestError::Open {
            path: dir.display().to_string(),
            message: e.to_string(),
        };
        fs::create_dir_all(&dir).map_err(io)?;
        // Written aside and renamed: a judge never reads half a file.
        let aside = dir.join(format!(".{}.{}", language.source_name(), std::process::id()));
        let mut file = fs::File::create(&aside).map_err(io)?;
        file.write_all(submission.source.unwrap_or_default().as_bytes()).map_err(io)?;
        file.sync_all().map_err(io)?;
        fs::rename(&aside, &path).map_err(io)?;
    }
    Ok((path, language))
}

/// Writes a submission's data file where the sandbox reads it (once), if it
/// has one: `<sources>/data/<id>.bin`.
fn data_path(config: &Config, db: &Db, id: SubmissionId) -> Result<Option<PathBuf>, ContestError> {
    let path = config.sources.join("data").join(format!("{}.bin", id.0));
    if path.exists() {
        return Ok(Some(path));
    }
    let Some(data) = db.submission_data(id)? else { return Ok(None) };
    let dir = config.sources.join("data");
    let io = |e: std::io::Error| ContestError::Open {
        path: dir.display().to_string(),
        message: e.to_string(),
    };
    fs::create_dir_all(&dir).map_err(io)?;
    let aside = dir.join(format!(".{}.{}", id.0, std::process::id()));
    let mut file = fs::File::create(&aside).map_err(io)?;
    file.write_all(&data).map_err(io)?;
    file.sync_all().map_err(io)?;
    fs::rename(&aside, &path).map_err(io)?;
    Ok(Some(path))
}

/// Compiles the oldest queued submission; it then waits for its gate game.
fn compile_next(config: &Config, db: &mut Db, _stop: &AtomicBool) -> Result<bool, ContestError> {
    let Some(submission) = db.submissions_in(SubmissionState::Queued)?.into_iter().next() else {
        return Ok(false);
    };
    if !db.move_submission(
        submission.id,
        SubmissionState::Queued,
        SubmissionState::Compiling,
        None,
    )? {
        return Ok(true);
    }
    let game = find_game(&submission.game)?;
    let (path, language) = source_path(config, db, submission.id)?;
    let mut builder = Builder::new(config.limits.sandbox.builds.clone());
    builder.time_limit = config.limits.sandbox.compile_time;
    match builder.build(&path, Some(language)) {
        Ok(_) => {
            db.move_submission(
                submission.id,
                SubmissionState::Compiling,
                SubmissionState::Gate,
                None,
            )?;
            db.queue_match(&policy::gate(game, submission.id, policy::SAMPLE_SEED))?;
        }
        Err(BuildError::Compile { summary, log }) => {
            db.compile_failed(submission.id, &summary, &log)?
        }
        // Not the participant's fault, but the submission cannot play here:
        // say so to its owner rather than retry for ever.
        Err(other) => {
            db.compile_failed(submission.id, &format!("this host cannot build it: {other}"), "")?
        }
    }
    Ok(true)
}

fn find_game(name: &str) -> Result<&'static dyn Game, ContestError> {
    versus_games::find(name).ok_or_else(|| ContestError::Corrupt(format!("unknown game {name:?}")))
}

static TURN: AtomicU64 = AtomicU64::new(0);

/// Moves submissions along (gate → placement → rated) and keeps rated games
/// and finals queued. True when it queued or moved anything.
fn schedule(config: &Config, db: &mut Db, _stop: &AtomicBool) -> Result<bool, ContestError> {
    let mut busy = false;
    for submission in db.submissions_in(SubmissionState::Gate)? {
        let games = db.matches(&submission.game, Some(submission.id), usize::MAX)?;
        let Some(gate) = games.iter().find(|m| m.kind == MatchKind::Gate && m.outcome.is_some())
        else {
            continue;
        };
        busy = true;
        let game = find_game(&submission.game)?;
        match policy::gate_failure(gate, submission.id) {
            Some(why) => {
                db.move_submission(
                    submission.id,
                    SubmissionState::Gate,
                    SubmissionState::Rejected,
                    Some(&why),
                )?;
            }
            None => {
                if db.move_submission(
                    submission.id,
                    SubmissionState::Gate,
                    SubmissionState::Placement,
                    None,
                )? {
                    for new in policy::placement(game, submission.id, policy::SAMPLE_SEED + 1) {
                        db.queue_match(&new)?;
                    }
                }
            }
        }
    }
    for submission in db.submissions_in(SubmissionState::Placement)? {
        let games = db.matches(&submission.game, Some(submission.id), usize::MAX)?;
        let placed =
            games.iter().filter(|m| m.kind == MatchKind::Placement).all(|m| m.outcome.is_some());
        if placed {
            // NYPC's `VS: sample AI`: eligible from a score on.
            let sample = policy::SampleResult::of(&games, submission.id);
            let (to, detail) = if sample.score() >= config.settings.eligible_score {
                (SubmissionState::Rated, format!("VS sample AI: {sample}"))
            } else {
                let bar = config.settings.eligible_score;
                (SubmissionState::Ineligible, format!("VS sample AI: {sample}, below {bar}"))
            };
            busy |=
                db.move_submission(submission.id, SubmissionState::Placement, to, Some(&detail))?;
        }
    }
    busy |= crate::evaluation::advance(db, now_ms())?;
    let now = now_ms();
    let window = db.window()?;
    for game in versus_games::all() {
        // An idle tick reads only the pending games; the rest is read when
        // there is room to queue.
        let pending = db.pending(game.name())?;
        if window.ended(now) {
            busy |= queue_finals(config, db, game, &pending)?;
            continue;
        }
        let mut queued = pending.iter().filter(|m| m.kind == MatchKind::Rated).count();
        if queued >= config.settings.queued {
            continue;
        }
        let rated: Vec<SubmissionId> = db
            .entries(game.name())?
            .iter()
            .filter(|s| s.state == SubmissionState::Rated)
            .map(|s| s.id)
            .collect();
        if rated.is_empty() {
            continue;
        }
        let fitted = fit(game, &db.results(game.name())?, &hidden(db, game.name())?);
        let mut in_flight = policy::in_flight(&pending);
        while queued < config.settings.queued {
            let turn = TURN.fetch_add(1, Ordering::Relaxed);
            let Some((a, b)) =
                policy::next_pairing(&rated, &fitted, &in_flight, &config.settings, turn)
            else {
                break;
            };
            for new in policy::pair(game, MatchKind::Rated, &a, &b, auth::random_u64() >> 1) {
                db.queue_match(&new)?;
            }
            *in_flight.entry(a).or_insert(0) += 2;
            *in_flight.entry(b).or_insert(0) += 2;
            queued += 2;
            busy = true;
        }
    }
    Ok(busy)
}

/// The hidden submissions of `game`.
pub fn hidden(db: &Db, game: &str) -> Result<HashSet<SubmissionId>, ContestError> {
    Ok(db.submissions(game, None)?.into_iter().filter(|s| s.hidden).map(|s| s.id).collect())
}

/// After the end: one more pair for each adjacent couple of top entries
/// whose intervals overlap, until the budget is spent.
fn queue_finals(
    config: &Config,
    db: &mut Db,
    game: &dyn Game,
    pending: &[Match],
) -> Result<bool, ContestError> {
    if pending.iter().any(|m| m.kind == MatchKind::Final) {
        return Ok(false);
    }
    let played = finals_played(db, game)?;
    let rows = current_board(db, game)?;
    let mut queued = false;
    let mut budget = config.settings.final_games.saturating_sub(played);
    for (a, b) in policy::final_pairs(&rows, config.settings.final_top) {
        if budget < 2 {
            break;
        }
        let pair = policy::pair(
            game,
            MatchKind::Final,
            &Player::Submission(a),
            &Player::Submission(b),
            auth::random_u64() >> 1,
        );
        for new in pair {
            db.queue_match(&new)?;
        }
        budget -= 2;
        queued = true;
    }
    Ok(queued)
}

/// How many final games of `game` there are (any state).
fn finals_played(db: &Db, game: &dyn Game) -> Result<usize, ContestError> {
    Ok(db
        .matches(game.name(), None, usize::MAX)?
        .iter()
        .filter(|m| m.kind == MatchKind::Final)
        .count())
}

/// Whether finals are over for `game`: none queued or running and none to
/// queue (the top entries separated, or the budget spent). Only meaningful
/// after the end.
pub fn finals_over(db: &Db, game: &dyn Game, settings: &Settings) -> Result<bool, ContestError> {
    let pending = db.pending(game.name())?;
    if pending.iter().any(|m| m.kind == MatchKind::Final) {
        return Ok(false);
    }
    let played = finals_played(db, game)?;
    if played + 2 > settings.final_games {
        return Ok(true);
    }
    Ok(policy::final_pairs(&current_board(db, game)?, settings.final_top).is_empty())
}

/// The live leaderboard of `game` (no freeze).
fn current_board(db: &Db, game: &dyn Game) -> Result<Vec<crate::rating::Row>, ContestError> {
    let entries = db.entries(game.name())?;
    Ok(leaderboard(game, &entries, &db.results(game.name())?, &hidden(db, game.name())?, None))
}

/// The agent that plays `player`.
pub fn agent_spec(
    config: &Config,
    db: &Db,
    player: &Player,
    seed: u64,
) -> Result<AgentSpec, ContestError> {
    Ok(match player {
        Player::Builtin(name) => AgentSpec::Builtin { name: name.clone(), seed },
        Player::Submission(id) => {
            let (path, language) = source_path(config, db, *id)?;
            // The data file rides on the path (`src:PATH?data=FILE`): the
            // sandbox shows it as data.bin at run time, never to the compiler.
            let path = match data_path(config, db, *id)? {
                Some(data) => PathBuf::from(format!("{}?data={}", path.display(), data.display())),
                None => path,
            };
            AgentSpec::Source { path, language: Some(language.name().to_owned()) }
        }
    })
}

/// The clock of `game`'s own contest: NYPC's CPU clock for Connexion (an
/// NYPC Code Battle problem), the wall clock for the ALPHANO games.
#[must_use]
pub fn preset_clock(game: &dyn Game) -> ClockMode {
    if game.name() == "connexion" {
        ClockMode::Cpu
    } else {
        ClockMode::Wall
    }
}

/// Plays the next queued game and writes it. True when there was one.
fn play_next(config: &Config, db: &mut Db, _stop: &AtomicBool) -> Result<bool, ContestError> {
    let Some(game_match) = db.lease_match_as(&config.worker, config.lease)? else {
        return Ok(false);
    };
    let (done, beat) = std::sync::mpsc::channel::<()>();
    thread::scope(|scope| {
        // The heartbeat: the lease is renewed while the game goes on, on a
        // connection of its own, so only a dead player's games expire.
        let id = game_match.id;
        scope.spawn(move || {
            let Ok(mut beats) = Db::connect(&config.db) else { return };
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                beat.recv_timeout(config.lease / 4)
            {
                if let Err(error) = beats.extend_lease(id, &config.worker, config.lease) {
                    eprintln!("versus: game {}: heartbeat: {error}", id.0);
                }
            }
        });
        let played = play_leased(config, db, &game_match);
        drop(done);
        played
    })
}

/// Plays a leased game and writes it; a game that cannot start goes back to
/// the queue.
fn play_leased(config: &Config, db: &mut Db, game_match: &Match) -> Result<bool, ContestError> {
    let game = find_game(&game_match.game)?;
    let clock = config.clock.unwrap_or_else(|| preset_clock(game));
    let time = TimeControl { clock, ..config.time };
    let game_config = GameConfig { seed: game_match.seed, time, input: None };
    let specs = BySide::new(
        agent_spec(config, db, &game_match.first, game_match.seed.wrapping_mul(2).wrapping_add(1))?,
        agent_spec(
            config,
            db,
            &game_match.second,
            game_match.seed.wrapping_mul(2).wrapping_add(2),
        )?,
    );
    let mut lines: Vec<RecordLine> = Vec::new();
    match versus_judge::run_game(game, &game_config, &specs, &config.limits, &mut |line| {
        lines.push(line)
    }) {
        Ok(_) => {
            db.finish_match(game_match.id, &lines)?;
        }
        Err(error) => {
            // This player could not start the game (a build gone from the
            // cache with its toolchain, a full disk): put it back, to wait
            // while the games that can start are played, and say why.
            let failures = db.requeue_failed_start(game_match.id, &error.to_string())?;
            eprintln!(
                "versus host: game {} cannot start ({failures} times): {error}; \
                 tried again in {} s",
                game_match.id.0,
                crate::db::start_backoff(failures).as_secs()
            );
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use versus_core::{BySide, Outcome};

    use super::*;
    use crate::db::{NewMatch, Window};

    fn finish(db: &mut Db, first: Player, second: Player, first_wins: bool) {
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
        let scores = if first_wins { BySide::new(5.0, 2.5) } else { BySide::new(1.0, 2.5) };
        let outcome = Outcome::from_scores(scores);
        assert!(db.finish_match(id, &[RecordLine::Footer { outcome }]).unwrap());
    }

    /// Two rated entries of a game: (config, db, their ids).
    fn contest(locator: &str, dir: &Path) -> (Config, Db, [SubmissionId; 2]) {
        let config = Config::with_sources(locator, dir.join("sources"));
        let mut db = Db::connect(&config.db).unwrap();
        let mut ids = [SubmissionId(0); 2];
        for (k, name) in ["alice", "bob"].into_iter().enumerate() {
            let (user, _) = db.add_user(name, None, false).unwrap();
            let id = db
                .submit(user.id, "domineering", "cpp", "// bot\n", crate::db::Pacing::NONE)
                .unwrap();
            for (from, to) in [
                (SubmissionState::Queued, SubmissionState::Compiling),
                (SubmissionState::Compiling, SubmissionState::Gate),
                (SubmissionState::Gate, SubmissionState::Rated),
            ] {
                assert!(db.move_submission(id, from, to, None).unwrap());
            }
            ids[k] = id;
        }
        (config, db, ids)
    }

    #[test]
    fn rated_games_are_queued_in_colour_swapped_pairs_up_to_the_target() {
        let stores = crate::testing::stores("rated");
        for locator in &stores.locators {
            let (config, mut db, [a, b]) = contest(locator, stores.dir.path());
            let stop = AtomicBool::new(false);
            assert!(schedule(&config, &mut db, &stop).unwrap());
            let pending = db.pending("domineering").unwrap();
            assert_eq!(pending.len(), config.settings.queued);
            for pair in pending.chunks(2) {
                assert_eq!((&pair[0].first, &pair[0].second), (&pair[1].second, &pair[1].first));
                assert_eq!(pair[0].seed, pair[1].seed);
                let players = [&pair[0].first, &pair[0].second];
                assert!(
                    players.contains(&&Player::Submission(a))
                        && players.contains(&&Player::Submission(b))
                );
            }
            assert!(!schedule(&config, &mut db, &stop).unwrap(), "the queue is full");
        }
    }

    #[test]
    fn after_the_end_close_entries_play_finals_until_the_budget_is_spent() {
        let stores = crate::testing::stores("finals");
        for locator in &stores.locators {
            let (mut config, mut db, [a, b]) = contest(locator, stores.dir.path());
            config.settings.final_games = 4;
            for k in 0..6 {
                finish(&mut db, Player::Submission(a), Player::Submission(b), k % 2 == 0);
            }
            let now = now_ms();
            db.set_window(Window { start_at: None, end_at: Some(now - 1), freeze_at: None })
                .unwrap();
            let game = versus_games::find("domineering").unwrap();
            assert!(!finals_over(&db, game, &config.settings).unwrap(), "3-3: not separated");
            let stop = AtomicBool::new(false);
            assert!(schedule(&config, &mut db, &stop).unwrap());
            let finals = |db: &Db| {
                db.matches("domineering", None, usize::MAX)
                    .unwrap()
                    .into_iter()
                    .filter(|m| m.kind == MatchKind::Final)
                    .count()
            };
            assert_eq!(finals(&db), 2);
            assert!(!schedule(&config, &mut db, &stop).unwrap(), "one pair at a time");
            for _ in 0..2 {
                let leased = db.lease_match().unwrap().unwrap();
                assert_eq!(leased.kind, MatchKind::Final);
                let outcome = Outcome::from_scores(BySide::new(1.0, 2.5));
                db.finish_match(leased.id, &[RecordLine::Footer { outcome }]).unwrap();
            }
            assert!(schedule(&config, &mut db, &stop).unwrap());
            assert_eq!(finals(&db), 4);
            while let Some(leased) = db.lease_match().unwrap() {
                let outcome = Outcome::from_scores(BySide::new(1.0, 2.5));
                db.finish_match(leased.id, &[RecordLine::Footer { outcome }]).unwrap();
            }
            assert!(!schedule(&config, &mut db, &stop).unwrap(), "the budget is spent");
            assert!(finals_over(&db, game, &config.settings).unwrap());
        }
    }

    /// A Python bot that passes at Domineering, but only if `data.bin` in
    /// its folder holds the bytes the test gave; otherwise it exits with 3.
    const NEEDS_DATA: &str = "import sys
data = open('data.bin', 'rb').read() if __import__('os').path.exists('data.bin') else b''
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

    #[test]
    fn a_submissions_data_file_is_its_data_bin_when_it_plays() {
        if !versus_sandbox::Host::get().can_isolate() {
            eprintln!("skipped: this host cannot isolate (bubblewrap, cgroups)");
            return;
        }
        let folder = tempfile::tempdir().unwrap();
        let dir = folder.path().to_owned();
        let (mut config, mut db, _) =
            contest(&dir.join("contest.sqlite").display().to_string(), &dir);
        config.limits.sandbox.builds = dir.join("builds");
        let (user, _) = db.add_user("carol", None, false).unwrap();
        let data: Vec<u8> = (0..=255u8).cycle().take(1024).collect();
        let pacing = crate::db::Pacing::NONE;
        let with = db
            .submit_with_data(user.id, "domineering", "python", NEEDS_DATA, Some(&data), pacing)
            .unwrap();
        let without = db.submit(user.id, "domineering", "python", NEEDS_DATA, pacing).unwrap();
        assert_eq!(db.submission(with).unwrap().unwrap().data_bytes, Some(1024));
        assert_eq!(db.submission(without).unwrap().unwrap().data_bytes, None);
        let game = versus_games::find("domineering").unwrap();
        let play = |id: SubmissionId| {
            let specs = BySide::new(
                agent_spec(&config, &db, &Player::Submission(id), 1).unwrap(),
                AgentSpec::Builtin { name: "greedy".into(), seed: 2 },
            );
            let time = TimeControl::new(2_000, 3_000);
            let game_config = GameConfig { seed: 7, time, input: None };
            versus_judge::run_game(game, &game_config, &specs, &config.limits, &mut |_| {}).unwrap()
        };
        let played = play(with);
        assert!(played.faults.first.is_none(), "data.bin was not there: {played:?}");
        let played = play(without);
        assert!(
            matches!(&played.faults.first, Some(versus_core::Fault::Crash { detail }) if detail.contains('3')),
            "{played:?}"
        );
    }
}
