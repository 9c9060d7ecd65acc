//! A person playing a built-in agent in the browser (under its own name, or
//! one the server registered for it). The person is one more
//! endpoint behind the same referee and clocks; each game runs on its own
//! thread, and the page reads its record and posts the person's lines.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use versus_core::{
    play, BySide, Endpoint, Fault, Game, GameConfig, LocalEndpoint, RecordLine, Reply, Side,
    TimeControl,
};
use versus_judge::{header, AgentSpec};

use crate::replay::check_reply;

/// What the page asks for to start a game.
#[derive(Clone, Debug, Deserialize)]
pub struct NewPlay {
    pub game: String,
    /// The agent to play against, by name (see [`crate::agents::Roster::playable`]).
    pub agent: String,
    /// The person's seat: `first` or `second`.
    pub side: Side,
    /// Whether the person plays on a clock like the agent (default: no).
    #[serde(default)]
    pub clock: bool,
    pub seed: Option<u64>,
}

/// A game being played.
#[derive(Debug)]
pub struct Session {
    pub side: Side,
    pub clock: bool,
    lines: Mutex<Vec<RecordLine>>,
    /// The person's replies, to the game's thread.
    replies: Mutex<Sender<String>>,
    /// A reply was handed to the game and is not in the record yet.
    in_flight: AtomicBool,
}

/// The state of a session for the page.
#[derive(Clone, Debug, Serialize)]
pub struct PlayState {
    pub side: Side,
    pub clock: bool,
    /// Whether the game waits for the person's reply.
    pub your_turn: bool,
    pub over: bool,
}

impl Session {
    /// The record so far.
    pub fn lines(&self) -> Vec<RecordLine> {
        self.lines.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub fn state(&self) -> PlayState {
        let lines = self.lines();
        let over = matches!(lines.last(), Some(RecordLine::Footer { .. }));
        let your_turn =
            !over && !self.in_flight.load(Ordering::SeqCst) && awaits(&lines, self.side);
        PlayState { side: self.side, clock: self.clock, your_turn, over }
    }

    /// Hands the person's line to the game if the referee would accept it;
    /// otherwise says why and sends nothing.
    pub fn submit(&self, line: &str) -> Result<(), String> {
        let line = line.trim();
        let lines = self.lines();
        if matches!(lines.last(), Some(RecordLine::Footer { .. })) {
            return Err("the game is over".into());
        }
        if self.in_flight.load(Ordering::SeqCst) || !awaits(&lines, self.side) {
            return Err("it is not your turn".into());
        }
        check_reply(&lines, self.side, line)?;
        self.in_flight.store(true, Ordering::SeqCst);
        let sent = self.replies.lock().unwrap_or_else(|e| e.into_inner()).send(line.to_owned());
        if sent.is_err() {
            self.in_flight.store(false, Ordering::SeqCst);
            return Err("the game has ended".into());
        }
        Ok(())
    }
}

/// Whether the record ends with a request to `side` not yet answered.
fn awaits(lines: &[RecordLine], side: Side) -> bool {
    for line in lines.iter().rev() {
        match line {
            RecordLine::Send { side: s, .. } if *s == side => return true,
            RecordLine::Recv { side: s, .. }
            | RecordLine::Timeout { side: s, .. }
            | RecordLine::Gone { side: s, .. }
                if *s == side =>
            {
                return false
            }
            _ => {}
        }
    }
    false
}

/// The person's end of the conversation.
struct Person {
    replies: Receiver<String>,
    clock: bool,
    sent_at: Instant,
}

impl Endpoint for Person {
    fn send(&mut self, _line: &str) {
        self.sent_at = Instant::now();
    }

    fn receive(&mut self, limit: Duration) -> Reply {
        // Without a clock the person may think as long as they like, and is
        // charged nothing; a day bounds an abandoned game's thread.
        let wait = if self.clock { limit } else { Duration::from_secs(24 * 3600) };
        match self.replies.recv_timeout(wait) {
            Ok(text) => {
                let elapsed = if self.clock { self.sent_at.elapsed() } else { Duration::ZERO };
                Reply::Line { text, elapsed }
            }
            Err(RecvTimeoutError::Timeout) => Reply::Timeout,
            Err(RecvTimeoutError::Disconnected) => {
                Reply::Gone(Fault::Crash { detail: "the player left".into() })
            }
        }
    }
}

/// Whom the person plays.
#[derive(Debug)]
pub enum Opponent {
    /// A built-in agent, by name.
    Builtin(String),
    /// A program (a contest entry), run under `limits`; `label` names it in
    /// the record.
    Program { spec: Box<AgentSpec>, limits: Box<versus_judge::Limits>, label: String },
}

/// All sessions of the server.
#[derive(Debug, Default)]
pub struct Sessions {
    next: AtomicU64,
    map: Mutex<HashMap<u64, Arc<Session>>>,
}

impl Sessions {
    /// Starts a game against the built-in agent `builtin` on its own
    /// thread; returns its id.
    pub fn start(&self, request: &NewPlay, builtin: &str) -> Result<u64, String> {
        self.start_against(request, Opponent::Builtin(builtin.to_owned()))
    }

    /// Starts a game against `opponent` on its own thread; returns its id.
    pub fn start_against(&self, request: &NewPlay, opponent: Opponent) -> Result<u64, String> {
        let game: &'static dyn Game = versus_games::find(&request.game)
            .ok_or_else(|| format!("unknown game {:?}", request.game))?;
        let seed = request.seed.unwrap_or_else(|| {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos());
            u64::from(nanos)
        });
        let human = request.side;
        let config = GameConfig { seed, time: TimeControl::CONTEST, input: None };
        let mut referee = game.referee(&config).map_err(|e| e.to_string())?;
        let label = match &opponent {
            Opponent::Builtin(name) => AgentSpec::Builtin { name: name.clone(), seed },
            Opponent::Program { label, .. } => {
                AgentSpec::Program(versus_judge::ChildSpec::new(label, None))
            }
        };
        let mut specs = BySide::new(label.clone(), label);
        specs[human] = AgentSpec::Program(versus_judge::ChildSpec::new("human (browser)", None));
        let (sender, receiver) = mpsc::channel();
        let session = Arc::new(Session {
            side: human,
            clock: request.clock,
            lines: Mutex::new(vec![RecordLine::Header(header(game, &config, &specs))]),
            replies: Mutex::new(sender),
            in_flight: AtomicBool::new(false),
        });
        let id = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        self.map.lock().unwrap_or_else(|e| e.into_inner()).insert(id, Arc::clone(&session));
        let clock = request.clock;
        // The machine's endpoint is made on the game's thread (endpoints stay
        // on one thread), and the request waits for it, so that a program
        // that cannot start is the request's error, not a dead game.
        let (started, ready) = mpsc::channel::<Result<(), String>>();
        thread::spawn(move || {
            let machine: Result<Box<dyn Endpoint>, String> = match opponent {
                Opponent::Builtin(name) => game
                    .agent(&name, seed)
                    .map(|agent| Box::new(LocalEndpoint::new(agent)) as Box<dyn Endpoint>)
                    .ok_or_else(|| format!("{} has no built-in agent {name:?}", game.name())),
                Opponent::Program { spec, limits, .. } => {
                    versus_judge::endpoint(game, &spec, &limits, human.opponent())
                        .map_err(|e| e.to_string())
                }
            };
            let mut machine = match machine {
                Ok(machine) => {
                    let _ = started.send(Ok(()));
                    machine
                }
                Err(why) => {
                    let _ = started.send(Err(why));
                    return;
                }
            };
            let mut person = Person { replies: receiver, clock, sent_at: Instant::now() };
            let endpoints: BySide<&mut dyn Endpoint> = match human {
                Side::First => BySide::new(&mut person, machine.as_mut()),
                Side::Second => BySide::new(machine.as_mut(), &mut person),
            };
            play(referee.as_mut(), endpoints, &mut |line| {
                let answered = line.reply().is_some_and(|(side, _)| side == human);
                session.lines.lock().unwrap_or_else(|e| e.into_inner()).push(line);
                if answered {
                    session.in_flight.store(false, Ordering::SeqCst);
                }
            });
        });
        match ready.recv() {
            Ok(Ok(())) => Ok(id),
            Ok(Err(why)) => {
                self.map.lock().unwrap_or_else(|e| e.into_inner()).remove(&id);
                Err(why)
            }
            Err(_) => Err("the game could not start".into()),
        }
    }

    pub fn get(&self, id: u64) -> Option<Arc<Session>> {
        self.map.lock().unwrap_or_else(|e| e.into_inner()).get(&id).cloned()
    }
}
