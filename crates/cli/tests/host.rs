//! `versus host` as a process: a starter bot sent with `versus submit` is
//! compiled, gated, placed and rated; the host killed with SIGKILL in the
//! middle of the placement games loses nothing when it starts again.

use std::collections::HashMap;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use versus_contest::db::{MatchKind, MatchStatus};
use versus_contest::{Db, SubmissionId, SubmissionState};

const VERSUS: &str = env!("CARGO_BIN_EXE_versus");

/// The tests of this file one at a time: each host plays games with both
/// CPUs pinned, and the hostile bot's verdict depends on when its memory runs
/// out, which a second host's games would shift.
static ONE_HOST: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("versus-host-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn versus(dir: &Path, args: &[&str]) -> Output {
    Command::new(VERSUS)
        .current_dir(dir)
        .env("VERSUS_CACHE", dir.join("cache"))
        .args(args)
        .output()
        .expect("versus runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `versus user add NAME --db DB`: the API token it prints.
fn add_user(dir: &Path, name: &str, db: &str) -> String {
    let added = versus(dir, &["user", "add", name, "--db", db]);
    assert!(added.status.success(), "{}", text(&added.stderr));
    text(&added.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("token ").map(str::to_owned))
        .expect("a token is printed")
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A host on `port`, killed (SIGKILL, no goodbye) when dropped.
struct Host(Child);

impl Host {
    fn start(dir: &Path, port: u16) -> Host {
        Host::start_on(dir, port, "contest.sqlite")
    }

    fn start_on(dir: &Path, port: u16, db: &str) -> Host {
        let child = Command::new(VERSUS)
            .current_dir(dir)
            .env("VERSUS_CACHE", dir.join("cache"))
            .args(["host", "--db", db, "--port", &port.to_string()])
            .args(["--time-ms", "1500", "--submit-window", "0"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("versus host starts");
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "the host does not listen");
            std::thread::sleep(Duration::from_millis(50));
        }
        Host(child)
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn wait_for(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// (kind, first, second, seed) → (id, finished at) of every finished game.
type Finished = HashMap<String, (i64, Option<i64>)>;

fn finished(db: &Db) -> Finished {
    let mut seen = HashMap::new();
    for game in db.matches("domineering", None, usize::MAX).unwrap() {
        if game.status == MatchStatus::Done {
            let key = format!("{:?} {:?} {:?} {}", game.kind, game.first, game.second, game.seed);
            let previous = seen.insert(key.clone(), (game.id.0, game.finished_at_ms));
            assert!(previous.is_none(), "{key} was played and kept twice");
        }
    }
    seen
}

#[test]
fn a_submitted_starter_is_placed_and_rated_and_a_killed_host_loses_nothing() {
    let _one = ONE_HOST.lock().unwrap_or_else(|e| e.into_inner());
    let dir = folder("restart");
    let made = versus(&dir, &["new", "domineering", "--lang", "cpp", "bot"]);
    assert!(made.status.success(), "{}", text(&made.stderr));
    let token = add_user(&dir, "alice", "contest.sqlite");
    let again = versus(&dir, &["user", "add", "ALICE", "--db", "contest.sqlite"]);
    assert!(!again.status.success() && text(&again.stderr).contains("taken"));

    let port = free_port();
    let server = format!("http://127.0.0.1:{port}");
    let host = Host::start(&dir, port);
    let bad = versus(
        &dir,
        &["submit", "--server", &server, "--token", "nope", "domineering", "bot/bot.cpp"],
    );
    assert!(!bad.status.success() && text(&bad.stderr).contains("401"), "{}", text(&bad.stderr));
    let missing = versus(
        &dir,
        &["submit", "--server", &server, "--token", &token, "domineering", "bot/none.cpp"],
    );
    assert!(!missing.status.success() && text(&missing.stderr).contains("cannot read"));
    let sent = versus(
        &dir,
        &["submit", "--server", &server, "--token", &token, "domineering", "bot/bot.cpp"],
    );
    assert!(sent.status.success(), "{}", text(&sent.stderr));

    // Kill the host once some placement games are done and some are not.
    let db = Db::open(&dir.join("contest.sqlite")).unwrap();
    let id = SubmissionId(1);
    let placements = |db: &Db| {
        let games = db.matches("domineering", Some(id), usize::MAX).unwrap();
        let placed: Vec<_> = games.iter().filter(|m| m.kind == MatchKind::Placement).collect();
        (placed.len(), placed.iter().filter(|m| m.status == MatchStatus::Done).count())
    };
    wait_for("two placement games", Duration::from_secs(120), || {
        let (all, done) = placements(&db);
        all == 8 && done >= 2
    });
    drop(host);
    let before = finished(&db);
    let (_, done_before) = placements(&db);
    assert!(done_before < 8, "the host was killed too late to test anything");
    assert_eq!(db.submission(id).unwrap().unwrap().state, SubmissionState::Placement);

    let host = Host::start(&dir, port);
    wait_for("the rating", Duration::from_secs(180), || {
        db.submission(id).unwrap().unwrap().state == SubmissionState::Rated
    });
    let after = finished(&db);
    for (key, kept) in &before {
        assert_eq!(after.get(key), Some(kept), "{key} changed after the restart");
    }
    assert_eq!(placements(&db), (8, 8), "every placement game is played once");

    // Rated games follow; the leaderboard shows alice between the levels.
    wait_for("a rated game", Duration::from_secs(60), || {
        db.matches("domineering", Some(id), usize::MAX)
            .unwrap()
            .iter()
            .any(|m| m.kind == MatchKind::Rated && m.status == MatchStatus::Done)
    });
    let board = versus(&dir, &["leaderboard", "--server", &server, "domineering"]);
    let table = text(&board.stdout);
    assert!(board.status.success(), "{}", text(&board.stderr));
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].contains("rank") && lines[0].contains("W/D/L"), "{table}");
    let alice = lines.iter().position(|l| l.contains("alice")).expect("alice is ranked");
    assert!(lines[alice].contains("cpp"), "{table}");
    let random = lines.iter().position(|l| l.contains("builtin:random")).unwrap();
    let strong = lines.iter().position(|l| l.contains("builtin:strong")).unwrap();
    assert!(
        strong < alice && alice < random,
        "a greedy starter ranks between strong and random:\n{table}"
    );
    let unknown = versus(&dir, &["leaderboard", "--server", &server, "chess"]);
    assert!(!unknown.status.success() && text(&unknown.stderr).contains("404"));
    drop(host);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The contest on PostgreSQL: `versus user add` and `versus host` on a
/// postgres:// URL, a starter sent with `versus submit` is placed and
/// rated, with a `versus worker --contest` on "another machine" playing
/// some of its games beside the host's own player.
#[test]
fn a_host_on_postgres_rates_a_submission_with_a_worker_beside_it() {
    let _one = ONE_HOST.lock().unwrap_or_else(|e| e.into_inner());
    let cluster = match versus_sql::scratch::ScratchCluster::start(false) {
        Ok(Some(cluster)) => cluster,
        Ok(None) => {
            eprintln!("SKIPPED: PostgreSQL is not installed (apt-get install postgresql)");
            return;
        }
        Err(error) => panic!("PostgreSQL is installed but a cluster cannot start: {error}"),
    };
    let url = cluster.url();
    let dir = folder("postgres");
    let made = versus(&dir, &["new", "domineering", "--lang", "python", "bot"]);
    assert!(made.status.success(), "{}", text(&made.stderr));
    let token = add_user(&dir, "dana", &url);
    let port = free_port();
    let server = format!("http://127.0.0.1:{port}");
    let host = Host::start_on(&dir, port, &url);
    let remote = Command::new(VERSUS)
        .current_dir(&dir)
        .env("VERSUS_CACHE", dir.join("remote-cache"))
        .args(["worker", "--contest", "--db", &url, "-j", "1", "--name", "remote"])
        .args(["--sources", "remote-sources"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let remote = Host(remote);
    let sent = versus(
        &dir,
        &["submit", "--server", &server, "--token", &token, "domineering", "bot/bot.py"],
    );
    assert!(sent.status.success(), "{}", text(&sent.stderr));
    let db = Db::connect(&url).unwrap();
    wait_for("the rating", Duration::from_secs(180), || {
        db.submission(SubmissionId(1)).unwrap().unwrap().state == SubmissionState::Rated
    });
    let board = versus(&dir, &["leaderboard", "--server", &server, "domineering"]);
    assert!(text(&board.stdout).contains("dana"), "{}", text(&board.stdout));
    let holders: Vec<String> = versus_sql::Conn::open(&url)
        .unwrap()
        .query("SELECT DISTINCT worker FROM contest_matches WHERE status = 'done'", &[])
        .unwrap()
        .iter()
        .map(|r| r.get(0).unwrap())
        .collect();
    assert!(holders.iter().any(|w| w == "remote"), "the worker played: {holders:?}");
    drop((host, remote));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A hostile submission (it grabs 2 GB while it should answer READY, then
/// forks without end) loses its
/// gate game with its verdict (MLE) and is not entered; the host answers pages
/// while it runs.
#[test]
fn a_hostile_submission_is_rejected_with_its_verdict_and_pages_keep_coming() {
    let _one = ONE_HOST.lock().unwrap_or_else(|e| e.into_inner());
    let dir = folder("hostile");
    std::fs::write(
        dir.join("hog.cpp"),
        "#include <cstdlib>\n#include <cstring>\n#include <iostream>\n#include <string>\n#include <unistd.h>\n\
         int main() {\n  std::string line;\n\
           while (std::getline(std::cin, line) && line.rfind(\"READY\", 0) != 0) {}\n\
           for (int i = 0; i < 64; i++) { char *p = (char *)malloc(32 << 20); if (p) memset(p, 1, 32 << 20); }\n\
           std::cout << \"OK\" << std::endl;\n\
           while (true) fork();\n}\n",
    )
    .unwrap();
    let token = add_user(&dir, "mallory", "contest.sqlite");
    let port = free_port();
    let server = format!("http://127.0.0.1:{port}");
    let host = Host::start(&dir, port);
    let submitter = Command::new(VERSUS)
        .current_dir(&dir)
        .args(["submit", "--server", &server, "--wait", "domineering", "hog.cpp"])
        .env("VERSUS_TOKEN", &token)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Pages answer at once while the hog is built and plays.
    let mut slowest = Duration::ZERO;
    for _ in 0..20 {
        let start = Instant::now();
        let board = versus(&dir, &["leaderboard", "--server", &server, "domineering"]);
        assert!(board.status.success(), "{}", text(&board.stderr));
        slowest = slowest.max(start.elapsed());
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(slowest < Duration::from_secs(5), "a page took {slowest:?}");
    let waited = submitter.wait_with_output().unwrap();
    let said = text(&waited.stderr);
    assert!(!waited.status.success(), "{said}");
    assert!(said.contains("not entered") && said.contains("MLE"), "{said}");
    let db = Db::open(&dir.join("contest.sqlite")).unwrap();
    let hog = db.submission(SubmissionId(1)).unwrap().unwrap();
    assert_eq!(hog.state, SubmissionState::Rejected);
    assert!(db.entries("domineering").unwrap().is_empty());
    // Nothing of it is left running.
    let ps = Command::new("ps").args(["-eo", "args"]).output().unwrap();
    assert!(!text(&ps.stdout).lines().any(|l| l.starts_with("/prog/main")), "{}", text(&ps.stdout));
    drop(host);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `versus submit --data`: a missing or oversized data file is refused with
/// a clear message before anything is sent (the server named does not exist).
#[test]
fn submit_refuses_a_bad_data_file_before_sending() {
    let dir = folder("data");
    std::fs::write(dir.join("bot.cpp"), "int main() {}\n").unwrap();
    let big = std::fs::File::create(dir.join("big.bin")).unwrap();
    big.set_len(10 * 1024 * 1024 + 1).unwrap();
    let server = "http://127.0.0.1:1";
    for (data, expected) in [("missing.bin", "missing.bin"), ("big.bin", "10 MiB")] {
        let out = versus(
            &dir,
            &[
                "submit",
                "--server",
                server,
                "--token",
                "t",
                "domineering",
                "bot.cpp",
                "--data",
                data,
            ],
        );
        assert!(!out.status.success());
        let err = text(&out.stderr);
        assert!(err.contains(expected) && !err.contains("connect"), "{err}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
