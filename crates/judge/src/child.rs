//! An agent program as a child process: pipes, deadlines, limits, cleanup.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use rustix::process::Signal;
use versus_core::{ClockMode, Endpoint, Fault, Reply, TimeControl};
use versus_sandbox::{Cage, Isolation};

use crate::monitor::{self, Monitor};

/// Numbers the agents this process starts, for their `VERSUS_AGENT` marker.
static NEXT_AGENT: AtomicUsize = AtomicUsize::new(0);

/// A plain command line (words only) is started directly, so the agent is
/// the judge's own child and its exit status is its own; anything with shell
/// syntax goes through `sh -c`.
pub(crate) fn argv_for(line: &str) -> io::Result<Vec<String>> {
    let needs_shell = line.chars().any(|c| "|&;<>()$`\\\"'*?[]#~={}\n".contains(c));
    if needs_shell {
        return Ok(vec!["/bin/sh".to_owned(), "-c".to_owned(), line.to_owned()]);
    }
    let words: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
    if words.is_empty() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "the command line is empty"));
    }
    Ok(words)
}

/// What one agent program may use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Resident memory of the agent's whole process tree (the contests: 1024 MB).
    pub memory_bytes: u64,
    /// Processes in the agent's tree at once, the agent included.
    pub max_processes: usize,
    /// The longest reply line.
    pub max_line_bytes: usize,
    /// Output written but not yet asked for, beyond which the agent floods.
    pub max_pending_bytes: usize,
    /// Standard-error lines kept per read of `debug_lines`, and the longest one.
    pub max_debug_lines: usize,
    pub max_debug_line_bytes: usize,
    /// After `FINISH`: how long the agent may take to exit, and then how long
    /// it has between SIGTERM and SIGKILL.
    pub grace: Duration,
    /// How programs are isolated and sources built.
    pub sandbox: SandboxSettings,
    /// `Some(budget)`: the CPU clock (NYPC's), with this budget of real time
    /// for the whole game; `None`: the wall clock. Set from the game's
    /// [`TimeControl`] by [`Limits::for_time`].
    pub cpu_clock: Option<Duration>,
}

impl Limits {
    /// These limits for a game under `time`: its clock mode and, under the
    /// CPU clock, commands isolated too where the host can, so that their CPU
    /// time is the kernel's count for their cgroup.
    #[must_use]
    pub fn for_time(&self, time: &TimeControl) -> Limits {
        let mut limits = self.clone();
        limits.cpu_clock = match time.clock {
            ClockMode::Wall => None,
            ClockMode::Cpu => Some(Duration::from_millis(time.default_wall_ms())),
        };
        if limits.cpu_clock.is_some() && versus_sandbox::Host::get().can_isolate() {
            limits.sandbox.commands = true;
        }
        limits
    }
}

/// The sandbox's part of the limits: which programs it isolates, where
/// builds are kept, how long a compile may take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SandboxSettings {
    /// Also isolate plain command-line agents (sources always are).
    pub commands: bool,
    /// Pin each side of a game to a CPU of its own, when there are two.
    pub pin_cpus: bool,
    /// The build cache.
    pub builds: PathBuf,
    pub compile_time: Duration,
}

impl Default for SandboxSettings {
    fn default() -> Self {
        SandboxSettings {
            commands: false,
            pin_cpus: true,
            builds: versus_sandbox::Builder::default_cache(),
            compile_time: Duration::from_secs(30),
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory_bytes: 1024 * 1024 * 1024,
            max_processes: 64,
            max_line_bytes: 64 * 1024,
            max_pending_bytes: 1024 * 1024,
            max_debug_lines: 1000,
            max_debug_line_bytes: 4096,
            grace: Duration::from_millis(500),
            sandbox: SandboxSettings::default(),
            cpu_clock: None,
        }
    }
}

/// How to start an agent program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChildSpec {
    /// A command line: words, or anything else run with `sh -c`.
    pub command: String,
    pub cwd: Option<PathBuf>,
    /// Run inside the sandbox, so isolated.
    pub isolation: Option<Isolation>,
}

impl ChildSpec {
    /// A command line run as it is, in `cwd` (or the judge's folder).
    #[must_use]
    pub fn new(command: impl Into<String>, cwd: Option<PathBuf>) -> ChildSpec {
        ChildSpec { command: command.into(), cwd, isolation: None }
    }
}

#[derive(Debug)]
enum Event {
    Line(String, Instant),
    Flood(String),
    Closed,
}

/// Standard-error lines not yet collected, and how many were dropped.
#[derive(Debug, Default)]
struct DebugTail {
    lines: VecDeque<String>,
    dropped: usize,
    /// Standard error reached its end.
    ended: bool,
}

/// A running agent program.
#[derive(Debug)]
pub struct ChildEndpoint {
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    pending_bytes: Arc<AtomicUsize>,
    debug: Arc<Mutex<DebugTail>>,
    monitor: Arc<Monitor>,
    sent_at: Instant,
    /// The judge's own lateness on the last receive.
    lag: Duration,
    gone: Option<Fault>,
    grace: Duration,
    closed: bool,
    /// The agent's cgroups, when it runs isolated on a host that has them.
    cage: Option<Cage>,
    /// The sandbox reports the program's exit as its own status, a signal
    /// as 128 + its number.
    isolated: bool,
    /// The CPU clock's state, when the game is on it.
    cpu: Option<CpuClock>,
    /// How the program ended, judged by [`Endpoint::exit_fault`] under the
    /// CPU clock.
    ending: Option<Fault>,
}

/// A player's CPU clock: the CPU time already charged, and its real time.
#[derive(Debug)]
struct CpuClock {
    /// The CPU time counted at the last reply; the next reply is charged
    /// what the program used since (thinking on the opponent's time too).
    charged: Duration,
    wall_budget: Duration,
    wall_used: Duration,
}

/// How often, at most, the CPU time of a program that thinks is read.
const CPU_POLL: Duration = Duration::from_millis(2);

impl ChildEndpoint {
    /// Starts `spec` in its own process group with piped standard streams.
    pub fn spawn(spec: &ChildSpec, limits: &Limits) -> io::Result<ChildEndpoint> {
        monitor::adopt_orphans();
        let marker =
            format!("{}-{}", std::process::id(), NEXT_AGENT.fetch_add(1, Ordering::Relaxed));
        if let Some(cwd) = &spec.cwd {
            if !cwd.is_dir() {
                return Err(io::Error::new(
                    io::ErrorKind::NotFound,
                    format!("working directory {} does not exist", cwd.display()),
                ));
            }
        }
        let argv = argv_for(&spec.command)?;
        let (mut command, cage, summary) = match &spec.isolation {
            Some(isolation) => {
                let prepared = isolation.prepare(&argv)?;
                (prepared.command, prepared.cage, Some(prepared.summary))
            }
            None => {
                let mut command = Command::new(&argv[0]);
                command.args(&argv[1..]);
                if let Some(cwd) = &spec.cwd {
                    command.current_dir(cwd);
                }
                (command, None, None)
            }
        };
        command
            .env("VERSUS_AGENT", &marker)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let mut child = command.spawn()?;
        let root = i32::try_from(child.id()).map_err(io::Error::other)?;
        // With cgroups the kernel enforces memory and processes; the sampler
        // only keeps track of the tree for cleanup. The sandbox's own two
        // processes (bubblewrap outside and as the namespace's init) count
        // in the cgroup, so the cap leaves the program its full number.
        let (memory, processes) = match &cage {
            Some(_) => (u64::MAX, usize::MAX),
            None => (limits.memory_bytes, limits.max_processes),
        };
        let monitor = Monitor::start(root, marker, memory, processes);
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (sender, events) = mpsc::channel();
        let pending_bytes = Arc::new(AtomicUsize::new(0));
        let mut tail = DebugTail::default();
        if let Some(summary) = summary {
            tail.lines.push_back(format!("[versus: sandbox: {summary}]"));
        }
        let debug = Arc::new(Mutex::new(tail));
        {
            let pending = Arc::clone(&pending_bytes);
            let limits = limits.clone();
            thread::spawn(move || read_replies(stdout, &sender, &pending, &limits));
        }
        {
            let debug = Arc::clone(&debug);
            let limits = limits.clone();
            thread::spawn(move || read_debug(stderr, &debug, &limits));
        }
        Ok(ChildEndpoint {
            stdin: child.stdin.take(),
            child,
            events,
            pending_bytes,
            debug,
            monitor,
            sent_at: Instant::now(),
            lag: Duration::ZERO,
            gone: None,
            grace: limits.grace,
            closed: false,
            isolated: spec.isolation.is_some(),
            cage,
            cpu: limits.cpu_clock.map(|wall_budget| CpuClock {
                charged: Duration::ZERO,
                wall_budget,
                wall_used: Duration::ZERO,
            }),
            ending: None,
        })
    }

    /// The process id of the agent (its shell).
    #[must_use]
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    fn end(&mut self, fault: Fault) -> Reply {
        self.signal_all(Signal::KILL);
        self.gone = Some(fault.clone());
        Reply::Gone(fault)
    }

    /// Why the conversation ended: a broken limit, an exit, a signal, or a
    /// closed output on a process that lives on.
    fn death(&mut self) -> Fault {
        let deadline = Instant::now() + Duration::from_millis(200);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(2)),
                _ => break None,
            }
        };
        if let Some(fault) = self.limit_fault() {
            return fault;
        }
        let detail = match status {
            Some(status) if self.isolated => describe_sandboxed(status),
            Some(status) => describe(status),
            None => "closed its standard output".to_owned(),
        };
        Fault::Crash { detail }
    }

    /// The limit the agent broke, if it broke one: the kernel's word (its
    /// cgroup) first, then the sampler's.
    fn limit_fault(&self) -> Option<Fault> {
        if let Some(cage) = &self.cage {
            if cage.oom_kills() > 0 {
                return Some(Fault::MemoryLimit);
            }
            if cage.processes_refused() > 0 {
                return Some(Fault::ProcessLimit);
            }
        }
        self.monitor.fault()
    }

    /// The CPU time of the program's processes, all threads summed: its
    /// cgroup's count when it has one, else its live process tree's.
    fn cpu_time(&self) -> Duration {
        self.cage.as_ref().and_then(Cage::cpu_time).unwrap_or_else(|| self.monitor.cpu_time())
    }

    /// `receive` under the CPU clock: waits for a line while the program's
    /// CPU time since its last reply stays within `limit` (else TLE) and its
    /// real time within the game's budget (else WTLE).
    fn receive_cpu(&mut self, limit: Duration) -> Reply {
        let Some(clock) = &self.cpu else { unreachable!("only called under the CPU clock") };
        let (charged, wall_left) =
            (clock.charged, clock.wall_budget.saturating_sub(clock.wall_used));
        let wall_deadline = self.sent_at + wall_left;
        let asked = Instant::now();
        loop {
            let now = Instant::now();
            let wait = wall_deadline.saturating_duration_since(now).min(CPU_POLL);
            match self.events.recv_timeout(wait) {
                Ok(Event::Line(text, at)) => {
                    let used = self.cpu_time();
                    self.lag = Instant::now().saturating_duration_since(at.max(asked));
                    let clock = self.cpu.as_mut().expect("under the CPU clock");
                    clock.charged = used;
                    clock.wall_used += at.saturating_duration_since(self.sent_at);
                    self.pending_bytes.fetch_sub(text.len() + 1, Ordering::Relaxed);
                    return Reply::Line { text, elapsed: used.saturating_sub(charged) };
                }
                Ok(Event::Flood(detail)) => return self.end(Fault::OutputFlood { detail }),
                Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    let fault = self.death();
                    return self.end(fault);
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Some(fault) = self.limit_fault() {
                        return self.end(fault);
                    }
                    let now = Instant::now();
                    if self.cpu_time().saturating_sub(charged) > limit {
                        self.lag = Duration::ZERO;
                        return Reply::Timeout;
                    }
                    if now >= wall_deadline {
                        self.lag = now.saturating_duration_since(wall_deadline);
                        return self.end(Fault::WallTimeLimit);
                    }
                }
            }
        }
    }

    fn signal_all(&self, signal: Signal) {
        self.monitor.signal_all(signal);
        if signal == Signal::KILL {
            if let Some(cage) = &self.cage {
                cage.kill_all(self.grace);
            }
        }
    }

    /// Waits up to `limit` for the agent and everything it started to exit.
    fn wait_all(&mut self, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        // Most agents exit within a fraction of a millisecond of FINISH:
        // poll often at first, then back off.
        let mut pause = Duration::from_micros(50);
        loop {
            let root_done = !matches!(self.child.try_wait(), Ok(None));
            if root_done && !self.monitor.any_alive() {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(2));
        }
    }
}

/// `exited with status 3`, `killed by signal 11 (SIGSEGV)`.
fn describe(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exited with status {code}");
    }
    signal_name(status.signal().unwrap_or(0))
}

/// Bubblewrap exits with its program's status, and with 128 + N when the
/// program was killed by signal N (as shells report it).
fn describe_sandboxed(status: ExitStatus) -> String {
    match status.code() {
        Some(code @ 129..=192) => signal_name(code - 128),
        _ => describe(status),
    }
}

fn signal_name(signal: i32) -> String {
    let name = match signal {
        1 => " (SIGHUP)",
        2 => " (SIGINT)",
        6 => " (SIGABRT)",
        7 => " (SIGBUS)",
        8 => " (SIGFPE)",
        9 => " (SIGKILL)",
        11 => " (SIGSEGV)",
        13 => " (SIGPIPE)",
        15 => " (SIGTERM)",
        24 => " (SIGXCPU)",
        25 => " (SIGXFSZ: file size limit)",
        _ => "",
    };
    format!("killed by signal {signal}{name}")
}

impl Endpoint for ChildEndpoint {
    fn send(&mut self, line: &str) {
        if let Some(stdin) = &mut self.stdin {
            let mut bytes = Vec::with_capacity(line.len() + 1);
            bytes.extend_from_slice(line.as_bytes());
            bytes.push(b'\n');
            // A dead agent is noticed by the next receive, not here.
            if stdin.write_all(&bytes).and_then(|()| stdin.flush()).is_err() {
                self.stdin = None;
            }
        }
        self.sent_at = Instant::now();
    }

    fn receive(&mut self, limit: Duration) -> Reply {
        if let Some(fault) = &self.gone {
            return Reply::Gone(fault.clone());
        }
        if self.cpu.is_some() {
            return self.receive_cpu(limit);
        }
        let deadline = self.sent_at + limit;
        let asked = Instant::now();
        let event = self.events.recv_timeout(deadline.saturating_duration_since(asked));
        let now = Instant::now();
        self.lag = match &event {
            // A line that came while the judge waited for the other side of a
            // simultaneous request was not the judge's to read yet.
            Ok(Event::Line(_, at)) => now.saturating_duration_since((*at).max(asked)),
            _ => now.saturating_duration_since(deadline),
        };
        match event {
            Ok(Event::Line(text, at)) => {
                self.pending_bytes.fetch_sub(text.len() + 1, Ordering::Relaxed);
                Reply::Line { text, elapsed: at.saturating_duration_since(self.sent_at) }
            }
            Ok(Event::Flood(detail)) => self.end(Fault::OutputFlood { detail }),
            Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                let fault = self.death();
                self.end(fault)
            }
            Err(RecvTimeoutError::Timeout) => match self.limit_fault() {
                Some(fault) => self.end(fault),
                None => Reply::Timeout,
            },
        }
    }

    fn lag(&self) -> Duration {
        self.lag
    }

    fn debug_lines(&mut self) -> Vec<String> {
        let mut tail = self.debug.lock().unwrap_or_else(|e| e.into_inner());
        let mut lines: Vec<String> = tail.lines.drain(..).collect();
        if tail.dropped > 0 {
            lines.insert(0, format!("[versus: {} earlier stderr lines dropped]", tail.dropped));
            tail.dropped = 0;
        }
        lines
    }

    fn exit_fault(&self) -> Option<Fault> {
        self.ending.clone()
    }

    fn close(&mut self) {
        if self.closed {
            return;
        }
        self.closed = true;
        // End of input tells a well-behaved agent that nothing more comes.
        self.stdin = None;
        let exited = self.wait_all(self.grace);
        if !exited {
            self.signal_all(Signal::TERM);
            self.wait_all(self.grace);
        }
        // Whatever is left, the agent's or its descendants', is killed.
        self.signal_all(Signal::KILL);
        let status = self.child.wait().ok();
        if self.cpu.is_some() && self.gone.is_none() {
            self.ending = match status {
                _ if !exited => Some(Fault::WallTimeLimit),
                Some(status) if status.success() => None,
                Some(status) => {
                    let how =
                        if self.isolated { describe_sandboxed(status) } else { describe(status) };
                    Some(Fault::Crash { detail: format!("{how} after FINISH") })
                }
                None => Some(Fault::Crash { detail: "its exit status was lost".to_owned() }),
            };
        }
        self.wait_all(self.grace);
        self.monitor.stop();
        self.monitor.reap_orphans(self.grace);
        // The last words on standard error belong in the record.
        let deadline = Instant::now() + Duration::from_millis(200);
        while !self.debug.lock().unwrap_or_else(|e| e.into_inner()).ended
            && Instant::now() < deadline
        {
            thread::sleep(Duration::from_millis(1));
        }
    }
}

impl Drop for ChildEndpoint {
    fn drop(&mut self) {
        if !self.closed {
            self.closed = true;
            self.signal_all(Signal::KILL);
            let _ = self.child.wait();
            self.monitor.stop();
            self.monitor.reap_orphans(self.grace);
        }
    }
}

/// Reads reply lines as they complete, timestamping each, until the output
/// closes or floods.
fn read_replies(stdout: impl Read, sender: &Sender<Event>, pending: &AtomicUsize, limits: &Limits) {
    let mut reader = BufReader::with_capacity(64 * 1024, stdout);
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        let limit = limits.max_line_bytes as u64 + 1;
        match reader.by_ref().take(limit).read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(_) if buffer.last() != Some(&b'\n') => {
                if buffer.len() as u64 >= limit {
                    let detail = format!("a reply line of over {} bytes", limits.max_line_bytes);
                    let _ = sender.send(Event::Flood(detail));
                    return;
                }
                // An unfinished last line is not a reply.
                break;
            }
            Ok(_) => {
                let at = Instant::now();
                buffer.pop();
                if buffer.last() == Some(&b'\r') {
                    buffer.pop();
                }
                let text = String::from_utf8_lossy(&buffer).into_owned();
                let queued = pending.fetch_add(text.len() + 1, Ordering::Relaxed) + text.len() + 1;
                if queued > limits.max_pending_bytes {
                    let detail = format!(
                        "over {} bytes of output nobody asked for",
                        limits.max_pending_bytes
                    );
                    let _ = sender.send(Event::Flood(detail));
                    return;
                }
                if sender.send(Event::Line(text, at)).is_err() {
                    return;
                }
            }
        }
    }
    let _ = sender.send(Event::Closed);
}

/// Drains standard error continuously so a chatty agent never blocks on it,
/// keeping a bounded tail of lines, each cut to a bounded length.
fn read_debug(stderr: impl Read, tail: &Mutex<DebugTail>, limits: &Limits) {
    let mut reader = BufReader::new(stderr);
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match reader
            .by_ref()
            .take(limits.max_debug_line_bytes as u64)
            .read_until(b'\n', &mut buffer)
        {
            Ok(0) | Err(_) => {
                tail.lock().unwrap_or_else(|e| e.into_inner()).ended = true;
                return;
            }
            Ok(_) => {
                if buffer.last() == Some(&b'\n') {
                    buffer.pop();
                }
                let line = String::from_utf8_lossy(&buffer).into_owned();
                let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
                if tail.lines.len() >= limits.max_debug_lines {
                    tail.lines.pop_front();
                    tail.dropped += 1;
                }
                tail.lines.push_back(line);
            }
        }
    }
}
