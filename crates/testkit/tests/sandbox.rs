//! Hostile programs in the sandbox, in C++ and Python: each does one harmful
//! thing and then plays Domineering by passing, against the built-in greedy
//! agent. Each test asserts what the program could observe (it reports on
//! standard error, which the record keeps), the verdict, and that nothing
//! is left running.
//!
//! These need what CI installs: bubblewrap, root for the cgroups, g++ and
//! python3. The games run one at a time (a lock), because one test measures
//! reply times and the others would disturb it.

use std::fs;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

mod common;

use versus_core::{BySide, Fault, GameConfig, Outcome, RecordLine, Side, TimeControl};
use versus_judge::{run_game, AgentSpec, ChildSpec, JudgeError, Limits, SandboxSettings};

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

const TIME: TimeControl = TimeControl::new(5_000, 3_000);

/// A C++ agent that passes every turn; `prelude` is top-level code, and
/// `at_ready`, `at_turn`, `at_finish` run when those lines arrive.
fn cpp(prelude: &str, at_ready: &str, at_turn: &str, at_finish: &str) -> String {
    format!(
        r#"#include <bits/stdc++.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
using namespace std;
{prelude}
int main() {{
    string line;
    while (getline(cin, line)) {{
        if (line.rfind("READY", 0) == 0) {{ {at_ready} cout << "OK" << endl; }}
        else if (line.rfind("TURN", 0) == 0) {{ {at_turn} cout << "MOVE -1 -1" << endl; }}
        else if (line == "FINISH") {{ {at_finish} return 0; }}
    }}
}}
"#
    )
}

/// The same in Python (each hook is a block at the indentation of the
/// branch, so written with four spaces).
fn python(prelude: &str, at_ready: &str, at_turn: &str, at_finish: &str) -> String {
    let indent = |code: &str| {
        let body: String = code.lines().map(|l| format!("        {l}\n")).collect();
        if body.trim().is_empty() {
            "        pass\n".to_owned()
        } else {
            body
        }
    };
    format!(
        "import os, sys, socket, threading, time\n{prelude}\nfor line in sys.stdin:\n    line = line.strip()\n    if line.startswith('READY'):\n{}        print('OK', flush=True)\n    elif line.startswith('TURN'):\n{}        print('MOVE -1 -1', flush=True)\n    elif line == 'FINISH':\n{}        break\n",
        indent(at_ready),
        indent(at_turn),
        indent(at_finish)
    )
}

struct Lab {
    dir: PathBuf,
    cache: PathBuf,
}

impl Lab {
    fn new(name: &str) -> Lab {
        let dir =
            std::env::temp_dir().join(format!("versus-sandbox-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let cache = dir.join("builds");
        Lab { dir, cache }
    }

    fn source(&self, name: &str, text: &str) -> AgentSpec {
        let path = self.dir.join(name);
        fs::write(&path, text).unwrap();
        AgentSpec::Source { path, language: None }
    }

    fn limits(&self) -> Limits {
        Limits {
            sandbox: SandboxSettings {
                builds: self.cache.clone(),
                compile_time: Duration::from_secs(20),
                ..SandboxSettings::default()
            },
            ..Limits::default()
        }
    }
}

impl Drop for Lab {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

struct Played {
    outcome: Outcome,
    lines: Vec<RecordLine>,
}

impl Played {
    fn debug(&self, side: Side) -> Vec<String> {
        self.lines
            .iter()
            .filter_map(|l| match l {
                RecordLine::Debug { side: s, line } if *s == side => Some(line.clone()),
                _ => None,
            })
            .collect()
    }

    /// The reply times of `side` to `TURN`, in ms.
    fn turn_times(&self, side: Side) -> Vec<f64> {
        let mut asked_turn = false;
        let mut times = Vec::new();
        for line in &self.lines {
            match line {
                RecordLine::Send { side: s, line } if *s == side => {
                    asked_turn = line.starts_with("TURN");
                }
                RecordLine::Recv { side: s, elapsed_ns, .. } if *s == side && asked_turn => {
                    times.push(*elapsed_ns as f64 / 1e6);
                }
                _ => {}
            }
        }
        times
    }
}

fn play_with(agents: BySide<AgentSpec>, limits: &Limits) -> Result<Played, JudgeError> {
    let config = GameConfig { seed: 11, time: TIME, input: None };
    let mut lines = Vec::new();
    let outcome =
        run_game(&versus_domineering::GAME, &config, &agents, limits, &mut |l| lines.push(l))?;
    assert_nothing_left();
    Ok(Played { outcome, lines })
}

/// Plays `hostile` first against the built-in greedy agent.
fn play(lab: &Lab, hostile: AgentSpec) -> Played {
    let greedy = AgentSpec::Builtin { name: "greedy".into(), seed: 1 };
    play_with(BySide::new(hostile, greedy), &lab.limits()).expect("the game starts")
}

/// No sandboxed program (they all run as /prog/...) and no cgroup of this
/// test process is left.
fn assert_nothing_left() {
    let survivors = common::alive(|cmdline| cmdline.contains("/prog/main"));
    assert!(survivors.is_empty(), "processes left behind: {survivors:?}");
    let prefix = format!("{}-", std::process::id());
    for hierarchy in ["memory", "pids", "cpuset", "cpuacct"] {
        let parent = Path::new("/sys/fs/cgroup").join(hierarchy).join("versus");
        let Ok(entries) = fs::read_dir(&parent) else { continue };
        let left: Vec<String> = entries
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| name.starts_with(&prefix))
            .collect();
        assert!(left.is_empty(), "cgroups left in {}: {left:?}", parent.display());
    }
}

fn lock() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

#[test]
fn no_network_the_listener_sees_no_connection() {
    let _one = lock();
    let lab = Lab::new("net");
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let connect_cpp = format!(
        r#"int s = socket(AF_INET, SOCK_STREAM, 0); sockaddr_in a{{}}; a.sin_family = AF_INET;
           a.sin_port = htons({port}); a.sin_addr.s_addr = inet_addr("127.0.0.1");
           cerr << (connect(s, (sockaddr*)&a, sizeof a) == 0 ? "connected" : "no connection") << endl;"#
    );
    let connect_py = format!(
        "try:\n    socket.create_connection(('127.0.0.1', {port}), timeout=1)\n    print('connected', file=sys.stderr)\nexcept OSError as e:\n    print('no connection', e, file=sys.stderr)"
    );
    for hostile in [
        lab.source("net.cpp", &cpp("", &connect_cpp, "", "")),
        lab.source("net.py", &python("", &connect_py, "", "")),
    ] {
        let played = play(&lab, hostile);
        let debug = played.debug(Side::First);
        assert!(debug.iter().any(|l| l.starts_with("no connection")), "{debug:?}");
        assert!(!debug.iter().any(|l| l == "connected"), "{debug:?}");
        assert!(played.outcome.faults.first.is_none(), "{:?}", played.outcome);
    }
    assert!(listener.accept().is_err(), "a sandboxed program reached the listener");
}

#[test]
fn other_submissions_the_store_and_the_home_folder_are_not_visible() {
    let _one = lock();
    let lab = Lab::new("secrets");
    // Another submission, built first so that its build is in the cache.
    let other = lab.source("other.cpp", &cpp("// the other contestant's secret", "", "", ""));
    play(&lab, other);
    let other_build = fs::read_dir(&lab.cache)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.join("main.cpp").exists())
        .expect("the other submission's build");
    let store = lab.dir.join("store.sqlite");
    fs::write(&store, "the store").unwrap();
    let targets = [
        other_build.join("main.cpp"),
        lab.dir.join("other.cpp"),
        store,
        PathBuf::from("/root/.bash_history"),
        PathBuf::from("/etc/shadow"),
        PathBuf::from("/etc/passwd"),
        lab.cache.clone(),
    ];
    let list_cpp: String = targets
        .iter()
        .map(|t| {
            format!(
                r#"{{ int fd = open("{0}", O_RDONLY); cerr << (fd >= 0 ? "visible " : "hidden ") << "{0}" << endl; }}"#,
                t.display()
            )
        })
        .collect();
    let list_py: String = targets
        .iter()
        .map(|t| {
            format!(
                "print('visible' if os.path.exists('{0}') else 'hidden', '{0}', file=sys.stderr)\n",
                t.display()
            )
        })
        .collect();
    for hostile in [
        lab.source("peek.cpp", &cpp("", &list_cpp, "", "")),
        lab.source("peek.py", &python("", &list_py, "", "")),
    ] {
        let played = play(&lab, hostile);
        let debug = played.debug(Side::First);
        let reports: Vec<&String> =
            debug.iter().filter(|l| l.starts_with("visible") || l.starts_with("hidden")).collect();
        assert_eq!(reports.len(), targets.len(), "{debug:?}");
        assert!(reports.iter().all(|l| l.starts_with("hidden")), "{reports:?}");
    }
}

#[test]
fn writes_outside_the_private_folders_fail() {
    let _one = lock();
    let lab = Lab::new("write");
    let outside = lab.dir.join("planted");
    let places =
        ["/usr/planted", "/prog/planted", "/etc/planted", "/planted", "/box/ok", "/tmp/ok"];
    let all: Vec<String> =
        places.iter().map(|p| (*p).to_owned()).chain([outside.display().to_string()]).collect();
    let write_cpp: String = all
        .iter()
        .map(|p| {
            format!(
                r#"{{ FILE* f = fopen("{p}", "w"); cerr << (f ? "wrote " : "refused ") << "{p}" << endl; if (f) fclose(f); }}"#
            )
        })
        .collect();
    let write_py: String = all
        .iter()
        .map(|p| {
            format!(
                "try:\n    open('{p}', 'w').close()\n    print('wrote {p}', file=sys.stderr)\nexcept OSError:\n    print('refused {p}', file=sys.stderr)\n"
            )
        })
        .collect();
    for hostile in [
        lab.source("write.cpp", &cpp("", &write_cpp, "", "")),
        lab.source("write.py", &python("", &write_py, "", "")),
    ] {
        let played = play(&lab, hostile);
        let debug = played.debug(Side::First);
        for place in &all {
            let expected =
                if place == "/box/ok" || place == "/tmp/ok" { "wrote" } else { "refused" };
            assert!(debug.contains(&format!("{expected} {place}")), "{place}: {debug:?}");
        }
        assert!(!outside.exists());
        assert!(!Path::new("/planted").exists() && !Path::new("/usr/planted").exists());
    }
}

#[test]
fn filling_tmp_stops_at_its_cap() {
    let _one = lock();
    let lab = Lab::new("fill");
    let fill_cpp = r#"FILE* f = fopen("/tmp/fill", "w"); static char block[1 << 20]; long total = 0;
        while (f && fwrite(block, 1, sizeof block, f) == sizeof block && fflush(f) == 0) total += sizeof block;
        cerr << "filled " << (total >> 20) << endl;"#;
    let fill_py = "total = 0\ntry:\n    with open('/tmp/fill', 'wb') as f:\n        while True:\n            f.write(bytes(1 << 20)); f.flush(); total += 1 << 20\nexcept OSError:\n    pass\nprint('filled', total >> 20, file=sys.stderr)";
    for hostile in [
        lab.source("fill.cpp", &cpp("", fill_cpp, "", "")),
        lab.source("fill.py", &python("", fill_py, "", "")),
    ] {
        let played = play(&lab, hostile);
        let debug = played.debug(Side::First);
        let filled: u64 = debug
            .iter()
            .find_map(|l| l.strip_prefix("filled ")?.trim().parse().ok())
            .unwrap_or_else(|| panic!("no report: {debug:?}"));
        // The cap is 64 MiB; the program saw its writes refused there and
        // played on.
        assert!((32..=64).contains(&filled), "wrote {filled} MiB: {debug:?}");
        assert!(played.outcome.faults.first.is_none(), "{:?}", played.outcome);
    }
}

#[test]
fn fork_and_thread_bombs_are_contained_and_the_opponent_is_unharmed() {
    let _one = lock();
    let lab = Lab::new("bombs");
    let fork_cpp = "if (fork() == 0) { for (;;) fork(); }";
    let thread_cpp = "for (int i = 0; i < 100000; i++) { try { thread([] { for (;;) pause(); }).detach(); } catch (...) { cerr << \"threads refused at \" << i << endl; break; } }";
    let fork_py = "if os.fork() == 0:\n    while True:\n        try:\n            os.fork()\n        except OSError:\n            pass";
    let thread_py = "try:\n    for i in range(100000):\n        threading.Thread(target=time.sleep, args=(1000,), daemon=True).start()\nexcept RuntimeError:\n    print('threads refused at', i, file=sys.stderr)";
    for hostile in [
        lab.source("fork.cpp", &cpp("", fork_cpp, "", "")),
        lab.source("thread.cpp", &cpp("", thread_cpp, "", "")),
        lab.source("fork.py", &python("", fork_py, "", "")),
        lab.source("thread.py", &python("", thread_py, "", "")),
    ] {
        let label = hostile.label();
        let played = play(&lab, hostile);
        // Contained (played on) or stopped with PLE; never another verdict.
        let fault = &played.outcome.faults.first;
        assert!(
            fault.is_none() || fault == &Some(Fault::ProcessLimit),
            "{label}: {:?}",
            played.outcome
        );
        assert!(played.outcome.faults.second.is_none(), "{label}: {:?}", played.outcome);
    }
}

#[test]
fn two_gigabytes_is_a_memory_limit_verdict_from_the_kernel() {
    let _one = lock();
    let lab = Lab::new("mle");
    let grab_cpp = "size_t n = size_t(2) << 30; char* p = (char*)malloc(n); for (size_t i = 0; i < n; i += 4096) p[i] = 1; cerr << \"survived\" << endl;";
    let grab_py = "hoard = b'x' * (2 << 30)\nprint('survived', file=sys.stderr)";
    for hostile in [
        lab.source("grab.cpp", &cpp("", "", grab_cpp, "")),
        lab.source("grab.py", &python("", "", grab_py, "")),
    ] {
        let played = play(&lab, hostile);
        assert_eq!(played.outcome.faults.first, Some(Fault::MemoryLimit), "{:?}", played.outcome);
        assert!(!played.debug(Side::First).contains(&"survived".to_owned()));
    }
}

#[test]
fn a_daemon_started_after_finish_is_killed() {
    let _one = lock();
    let lab = Lab::new("daemon");
    let daemon_cpp =
        "if (fork() == 0) { setsid(); if (fork() == 0) { for (;;) sleep(1000); } _exit(0); }";
    let daemon_py = "if os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        time.sleep(1000)\n    os._exit(0)";
    for hostile in [
        lab.source("daemon.cpp", &cpp("", "", "", daemon_cpp)),
        lab.source("daemon.py", &python("", "", "", daemon_py)),
    ] {
        // `play` asserts that no /prog/main process is left.
        let played = play(&lab, hostile);
        assert!(played.outcome.faults.first.is_none(), "{:?}", played.outcome);
    }
}

#[test]
fn a_compile_that_never_ends_and_one_that_floods_are_compile_errors() {
    let _one = lock();
    let lab = Lab::new("compile");
    let mut limits = lab.limits();
    limits.sandbox.compile_time = Duration::from_secs(3);
    let endless = "template <int N, unsigned long long M> struct Grow {\n  static constexpr unsigned long long value = Grow<N - 1, 2 * M>::value + Grow<N - 1, 2 * M + 1>::value;\n};\ntemplate <unsigned long long M> struct Grow<0, M> { static constexpr unsigned long long value = M; };\nunsigned long long total = Grow<60, 1>::value;\nint main() {}\n";
    let flood: String = std::iter::once("int main() {\n".to_owned())
        .chain((0..40_000).map(|i| format!("  undefined_{i}();\n")))
        .chain(std::iter::once("}\n".to_owned()))
        .collect();
    let greedy = AgentSpec::Builtin { name: "greedy".into(), seed: 1 };
    for (source, expected) in [
        (lab.source("endless.cpp", endless), "stopped after 3 s"),
        (lab.source("flood.cpp", &flood), "more bytes of compiler output cut"),
    ] {
        let played = play_with(BySide::new(source, greedy.clone()), &limits).unwrap();
        assert!(
            matches!(played.outcome.faults.first, Some(Fault::Compile { .. })),
            "{:?}",
            played.outcome
        );
        let debug = played.debug(Side::First);
        let bytes: usize = debug.iter().map(String::len).sum();
        assert!(bytes < 70 * 1024, "{bytes} bytes of compiler output kept");
        assert!(debug.iter().any(|l| l.contains(expected)), "{:?}", debug.last());
    }
}

#[test]
fn a_busy_opponent_does_not_slow_the_other_side() {
    let _one = lock();
    let lab = Lab::new("busy");
    // The measured side does the same fixed work for every move.
    let work = "volatile unsigned long long x = 1; for (long i = 0; i < 40000000; i++) x = x * 6364136223846793005ULL + 1442695040888963407ULL;";
    let spin = "for (int i = 0; i < 3; i++) thread([] { volatile unsigned long long y = 0; for (;;) y++; }).detach();";
    let worker = lab.source("worker.cpp", &cpp("", "", work, ""));
    let quiet = lab.source("quiet.cpp", &cpp("", "", "", ""));
    let spinner = lab.source("spinner.cpp", &cpp("", spin, "", ""));
    let mean = |v: Vec<f64>| v.iter().sum::<f64>() / v.len().max(1) as f64;
    let limits = lab.limits();
    // Alternated and the best of each kept, so that load from outside the
    // test (another job on the machine) weighs on both sides alike.
    let (mut alone, mut beside) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..3 {
        let game = play_with(BySide::new(quiet.clone(), worker.clone()), &limits).unwrap();
        alone = alone.min(mean(game.turn_times(Side::Second)));
        let game = play_with(BySide::new(spinner.clone(), worker.clone()), &limits).unwrap();
        beside = beside.min(mean(game.turn_times(Side::Second)));
    }
    eprintln!("worker's mean reply: {alone:.1} ms alone, {beside:.1} ms beside three busy threads");
    assert!(alone > 5.0, "the work should take measurable time ({alone} ms)");
    assert!(beside < alone * 1.5, "{alone:.1} ms alone, {beside:.1} ms beside a spinner");
}

#[test]
fn the_same_game_inside_and_outside_the_sandbox() {
    let _one = lock();
    let lab = Lab::new("same");
    let starter = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cli/starters/connexion/bot.c");
    let text = fs::read_to_string(&starter).unwrap();
    let source = lab.source("bot.c", &text);
    let binary = lab.dir.join("bot");
    let status = std::process::Command::new("gcc")
        .args(["-std=c17", "-O2", "-o"])
        .arg(&binary)
        .arg(lab.dir.join("bot.c"))
        .arg("-lm")
        .status()
        .unwrap();
    assert!(status.success());
    let outside = AgentSpec::Program(ChildSpec::new(binary.display().to_string(), None));
    let greedy = AgentSpec::Builtin { name: "greedy".into(), seed: 3 };
    let config = GameConfig { seed: 4, time: TIME, input: None };
    let play_connexion = |first: AgentSpec, limits: &Limits| {
        let mut lines = Vec::new();
        let outcome = run_game(
            &versus_connexion::GAME,
            &config,
            &BySide::new(first, greedy.clone()),
            limits,
            &mut |l| lines.push(l),
        )
        .unwrap();
        let replies: Vec<String> = lines
            .iter()
            .filter_map(|l| match l {
                RecordLine::Recv { line, .. } => Some(line.clone()),
                _ => None,
            })
            .collect();
        (outcome, replies)
    };
    let plain = play_connexion(outside.clone(), &Limits::default());
    let built = play_connexion(source, &lab.limits());
    let mut isolated_command = lab.limits();
    isolated_command.sandbox.commands = true;
    let wrapped = play_connexion(outside, &isolated_command);
    assert!(plain.1.len() > 60, "{:?}", plain.0);
    assert_eq!(plain.0.scores, built.0.scores);
    assert_eq!(plain.1, built.1);
    assert_eq!(plain.0.scores, wrapped.0.scores);
    assert_eq!(plain.1, wrapped.1);
    assert_nothing_left();
}
