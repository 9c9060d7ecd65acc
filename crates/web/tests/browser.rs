//! The page in a real headless Chromium, driven through chromedriver's
//! WebDriver protocol: replays of every game step by step, checked against
//! the rules' own state, and a whole game played by clicking.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them
//! and sets `VERSUS_BROWSER_TESTS=1`, which makes their absence a failure;
//! elsewhere the test is skipped with a message when they are missing).

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use versus_core::{BySide, RecordLine, Side};
use versus_league::store::{GameId, NewAgent, NewGame, NewRun, RunKind, Store};

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";

fn browsers_available() -> bool {
    let present = Path::new(CHROMEDRIVER).exists() && Path::new(CHROMIUM).exists();
    if !present {
        assert!(
            std::env::var_os("VERSUS_BROWSER_TESTS").is_none(),
            "VERSUS_BROWSER_TESTS is set but chromium/chromedriver are not installed"
        );
        eprintln!("skipped: install chromium and chromium-driver to run the browser tests");
    }
    present
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A minimal HTTP/1.1 JSON call (chromedriver answers with a Content-Length).
fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> Value {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut reader = BufReader::new(stream);
    let mut length = 0;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().unwrap();
            }
        }
    }
    let mut bytes = vec![0; length];
    reader.read_exact(&mut bytes).unwrap();
    serde_json::from_slice(&bytes).unwrap_or(Value::Null)
}

/// A chromedriver process and one browser session, ended on drop.
struct Browser {
    driver: Child,
    port: u16,
    session: String,
}

impl Browser {
    fn start() -> Browser {
        let port = free_port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(start.elapsed() < Duration::from_secs(20), "chromedriver did not listen");
            std::thread::sleep(Duration::from_millis(50));
        }
        let profile = std::env::temp_dir().join(format!("versus-chromium-{port}"));
        let capabilities = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": CHROMIUM, "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1300,900",
                format!("--user-data-dir={}", profile.display()),
            ]}
        }}});
        let answer = http(port, "POST", "/session", Some(&capabilities));
        let session = answer["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {answer}"))
            .to_owned();
        Browser { driver, port, session }
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let answer =
            http(self.port, method, &format!("/session/{}{path}", self.session), body.as_ref());
        assert!(answer["value"].get("error").is_none(), "{method} {path}: {answer}");
        answer["value"].clone()
    }

    fn open(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
    }

    fn script(&self, script: &str) -> Value {
        self.call("POST", "/execute/sync", Some(json!({ "script": script, "args": [] })))
    }

    /// Waits until `script` returns something truthy, and returns it.
    fn wait(&self, script: &str) -> Value {
        let start = Instant::now();
        loop {
            let value = self.script(script);
            if !(value.is_null() || value == false || value == "") {
                return value;
            }
            assert!(start.elapsed() < Duration::from_secs(20), "timed out waiting for: {script}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The WebDriver id of the element `css` selects.
    fn element(&self, css: &str) -> String {
        let found =
            self.call("POST", "/element", Some(json!({ "using": "css selector", "value": css })));
        found
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}: {found}"))
            .to_owned()
    }

    /// A real click on the element `css` selects.
    fn click(&self, css: &str) {
        let id = self.element(css);
        self.call("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    fn screenshot(&self, path: &Path) {
        let data = self.call("GET", "/screenshot", None);
        let bytes = decode_base64(data.as_str().unwrap());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = http(self.port, "DELETE", &format!("/session/{}", self.session), None);
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let clean: Vec<u8> = text.bytes().filter(|c| !matches!(c, b'=' | b'\n' | b'\r')).collect();
    let mut out = Vec::with_capacity(clean.len() * 3 / 4);
    for chunk in clean.chunks(4) {
        let mut acc = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            acc |= u32::from(value(c)) << (18 - 6 * i);
        }
        let bytes = acc.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}

/// Serves the page over `store` on a free port, on its own thread.
fn serve(store: Option<Store>) -> SocketAddr {
    serve_state(versus_web::AppState::new(store))
}

fn serve_state(state: std::sync::Arc<versus_web::AppState>) -> SocketAddr {
    let addr = SocketAddr::from(([127, 0, 0, 1], free_port()));
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind(addr).await.unwrap();
            axum::serve(listener, versus_web::app(state)).await.unwrap();
        });
    });
    let start = Instant::now();
    while TcpStream::connect(addr).is_err() {
        assert!(start.elapsed() < Duration::from_secs(10), "the server did not listen");
        std::thread::sleep(Duration::from_millis(20));
    }
    addr
}

/// What the page draws: for each probe point (board, fractions across and
/// down its cells), the `data-` value of the cell element under that point
/// (found by hit-testing, so a cell drawn in the wrong place is read as
/// what is there); each player's score; Betris's outlined pieces (side and
/// cells) and the text of its auction panel.
const DRAWN_JS: &str = "
  const key = { 'bacteria-war': 'piece', 'domineering': 'owner', 'connexion': 'tile', 'betris-large': 'filled' }[GAME];
  const boards = document.querySelectorAll('#board svg.board');
  const cells = PROBES.map(([i, fx, fy]) => {
    const board = boards[i];
    if (!board) return null;
    const box = board.getBoundingClientRect();
    const width = board.width.baseVal.value, height = board.height.baseVal.value;
    // The cells start 1 px inside the drawing, which sits inside its CSS border.
    const left = box.left + (box.width - width) / 2 + 1, top = box.top + (box.height - height) / 2 + 1;
    const hit = document.elementFromPoint(left + fx * (width - 2), top + fy * (height - 2));
    const cell = hit && hit.closest('[data-' + key + ']');
    return cell ? cell.dataset[key] : null;
  });
  const scores = Array.from(document.querySelectorAll('.players tr[data-side] .score')).map(e => e.textContent);
  const pieces = Array.from(document.querySelectorAll('#board [data-piece]'))
    .map(p => [p.dataset.piece.split(' ')[0], p.dataset.cells]);
  const auction = document.querySelector('#auction');
  return { cells, scores, pieces, auction: auction ? auction.textContent : '' };";

fn screenshots() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots")
}

#[test]
fn replays_of_every_game_draw_the_rules_state_at_each_step() {
    if !browsers_available() {
        return;
    }
    let games = ["bacteria-war", "domineering", "connexion", "betris-large"];
    let store = Store::open_in_memory().unwrap();
    let mut ids: Vec<(&str, GameId, Vec<RecordLine>)> = Vec::new();
    for game in games {
        let agents = vec![
            NewAgent { name: "greedy".into(), spec: "builtin:greedy".into(), hash: "h".into() },
            NewAgent { name: "random".into(), spec: "builtin:random".into(), hash: "h".into() },
        ];
        let run = store
            .create_run(&NewRun {
                kind: RunKind::League,
                game: game.into(),
                settings: json!({}),
                agents,
            })
            .unwrap();
        let agent_ids = store.agents(run).unwrap();
        let lines = common::played(game, 9);
        let new = NewGame {
            slot: "0-1/0/0".into(),
            agents: BySide::new(agent_ids[0].id, agent_ids[1].id),
            record: lines.clone(),
            judge_lag: None,
            harness_flag: None,
        };
        ids.push((game, store.insert_game(run, &new).unwrap(), lines));
    }
    let addr = serve(Some(store));
    let browser = Browser::start();
    for (game, id, lines) in ids {
        // What each frame must show, from the record's own lines: the
        // frames' record indices come from replaying it, their content
        // from each game's rebuild, never from a view.
        let engine = versus_games::find(game).unwrap();
        let indices: Vec<usize> =
            versus_core::conformance::frames(engine, &lines).into_iter().map(|f| f.0).collect();
        let truth = common::truth(game, &lines);
        let probes: Vec<[f64; 3]> =
            common::probes(game).into_iter().map(|(i, x, y)| [i as f64, x, y]).collect();

        browser.open(&format!("http://{addr}/#/game/{}", id.0));
        browser.wait("return document.querySelector('#board svg') !== null");
        let script = DRAWN_JS
            .replace("GAME", &format!("{game:?}"))
            .replace("PROBES", &serde_json::to_string(&probes).unwrap());
        let steps = indices.len();
        let mut checked = 0;
        for (step, index) in indices.iter().enumerate() {
            if step > 0 {
                browser.click("#next");
            }
            if step % 3 != 0 && step != steps - 1 {
                continue;
            }
            let expected = truth.at(*index);
            let drawn = browser.wait(&format!(
                "return document.querySelector('#position').textContent.startsWith('{step} /') && (() => {{ {script} }})()"
            ));
            let context = format!("{game}: step {step} (after record line {index})");
            let cells: Vec<Option<String>> =
                serde_json::from_value(drawn["cells"].clone()).unwrap();
            let wanted: Vec<Option<String>> = expected.cells.iter().cloned().map(Some).collect();
            assert_eq!(cells, wanted, "{context}: the cells drawn");
            let scores: Vec<f64> = drawn["scores"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().parse().unwrap())
                .collect();
            assert_eq!(scores, [expected.scores.first, expected.scores.second], "{context}");
            if game == "betris-large" {
                let mut pieces: BySide<Vec<String>> = BySide::default();
                for piece in drawn["pieces"].as_array().unwrap() {
                    let side = if piece[0] == "first" { Side::First } else { Side::Second };
                    pieces[side].push(piece[1].as_str().unwrap().to_owned());
                }
                pieces.first.sort();
                pieces.second.sort();
                assert_eq!(pieces, expected.pieces, "{context}: the outlined pieces");
                let auction = drawn["auction"].as_str().unwrap();
                for said in &expected.auction {
                    assert!(
                        auction.contains(said.as_str()),
                        "{context}: {said:?} not in {auction:?}"
                    );
                }
            }
            checked += 1;
        }
        assert!(checked >= 3, "{game}: only {checked} steps checked");
        // Arrow keys step too: Home then ArrowRight shows step 1.
        browser.script("document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Home' }));");
        browser
            .script("document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' }));");
        browser.wait("return document.querySelector('#position').textContent.startsWith('1 /')");
        browser.click("#last");
        let verdict = browser.wait("return document.querySelector('#verdict').textContent");
        assert!(
            verdict.as_str().unwrap().contains("1-0")
                || verdict.as_str().unwrap().contains("0-1")
                || verdict.as_str().unwrap().contains("1/2"),
            "{game}: {verdict}"
        );
        browser.screenshot(&screenshots().join(format!("{game}.png")));
    }
}

#[test]
fn a_person_plays_a_whole_game_of_domineering_by_clicking() {
    if !browsers_available() {
        return;
    }
    let addr = serve(None);
    let browser = Browser::start();
    browser.open(&format!("http://{addr}/#/play"));
    browser.wait("return document.querySelector('#play-game') !== null");
    browser.script("const s = document.querySelector('#play-game'); s.value = 'domineering'; s.dispatchEvent(new Event('change'));");
    browser.script("document.querySelector('#play-agent').value = 'random';");
    browser.click("#play-start");
    browser.wait("return location.hash.startsWith('#/play/') && document.querySelector('#board svg') !== null");
    let mut moves = 0;
    loop {
        let status = browser.wait(
            "const t = document.querySelector('#play-status').textContent; return (t.startsWith('Your turn') || t.includes('over')) && t",
        );
        if status.as_str().unwrap().contains("over") {
            break;
        }
        // The first empty horizontal pair, read from the drawn board.
        let anchor = browser.script(
            "const cells = {}; for (const e of document.querySelectorAll('#board [data-owner]')) cells[e.dataset.cell] = e.dataset.owner;
             for (let x = 1; x <= 8; x++) for (let y = 1; y < 8; y++)
               if (cells[`${x} ${y}`] === '.' && cells[`${x} ${y + 1}`] === '.') return `${x} ${y}`;
             return null;",
        );
        let before = browser.script("return document.querySelector('#play-status').dataset.lines");
        match anchor.as_str() {
            Some(cell) => browser.click(&format!("#board [data-cell='{cell}']")),
            None => browser.click("#pass"),
        }
        browser.wait(&format!(
            "return document.querySelector('#play-status').dataset.lines !== {before}"
        ));
        moves += 1;
        assert!(moves < 64, "the game does not end");
    }
    let verdict = browser.wait("return document.querySelector('#verdict') && document.querySelector('#verdict').textContent");
    assert!(!verdict.as_str().unwrap().contains("RE"), "{verdict}");
    assert!(moves >= 5, "only {moves} moves were played");
    browser.screenshot(&screenshots().join("play-domineering.png"));
}

/// The agents the server was started with are in the watch page's lists
/// (and a program plays there), and only the playable ones in the play page's.
#[test]
fn registered_agents_are_offered_where_they_can_be_used() {
    if !browsers_available() {
        return;
    }
    struct Dir(PathBuf);
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
    let removed =
        Dir(std::env::temp_dir().join(format!("versus-browser-agents-{}", std::process::id())));
    std::fs::create_dir_all(&removed.0).unwrap();
    let dir = removed.0.clone();
    let passer = dir.join("passer.py");
    std::fs::write(
        &passer,
        "import sys\nfor line in sys.stdin:\n    if line.startswith('READY'): print('OK', flush=True)\n    elif line.startswith('TURN'): print('MOVE -1 -1', flush=True)\n",
    )
    .unwrap();
    let roster = versus_web::Roster::parse(
        &["domineering:passer=src:passer.py", "lazy=builtin:random"],
        &dir,
    )
    .unwrap();
    let limits = versus_judge::Limits {
        sandbox: versus_judge::SandboxSettings {
            builds: dir.join("builds"),
            ..versus_judge::SandboxSettings::default()
        },
        ..versus_judge::Limits::default()
    };
    let addr = serve_state(versus_web::AppState::with_agents(None, roster, limits));
    let browser = Browser::start();
    let options = |select: &str| {
        browser.script(&format!(
            "return [...document.querySelectorAll('{select} optgroup')].map((g) => g.label + ': ' + [...g.querySelectorAll('option')].map((o) => o.value).join(' '))"
        ))
    };
    browser.open(&format!("http://{addr}/#/replay"));
    browser.wait("return document.querySelector('#match-game') !== null");
    browser.script("const s = document.querySelector('#match-game'); s.value = 'domineering'; s.dispatchEvent(new Event('change'));");
    let watch = options("#match-first");
    assert_eq!(watch[1], "registered on this server: passer lazy", "{watch}");
    assert_eq!(browser.script("return document.querySelector('#match-first').value"), "passer");
    browser.script("document.querySelector('#match-second').value = 'greedy';");
    browser.click("#match-start");
    // The viewer's players, or the error the page shows instead.
    let players = browser.wait(
        "const p = document.querySelector('table.players'); return (p && p.textContent) || (document.querySelector('.error') || {}).textContent",
    );
    assert!(players.as_str().unwrap().contains(&passer.display().to_string()), "{players}");

    browser.open(&format!("http://{addr}/#/play"));
    browser.wait("return document.querySelector('#play-game') !== null");
    browser.script("const s = document.querySelector('#play-game'); s.value = 'domineering'; s.dispatchEvent(new Event('change'));");
    let play = options("#play-agent");
    assert_eq!(play[1], "registered on this server: lazy", "a program is not played here: {play}");
}

impl Browser {
    /// Types `text` into the element `css` selects (a file path, for a file input).
    fn type_into(&self, css: &str, text: &str) {
        let id = self.element(css);
        self.call("POST", &format!("/element/{id}/value"), Some(json!({ "text": text })));
    }

    /// Like [`Browser::wait`], with a longer limit (games being played).
    fn wait_long(&self, script: &str, limit: Duration) -> Value {
        let start = Instant::now();
        loop {
            let value = self.script(script);
            if !(value.is_null() || value == false || value == "") {
                return value;
            }
            assert!(start.elapsed() < limit, "timed out waiting for: {script}");
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    fn sign(&self, name: &str, button: &str) {
        self.wait("return document.querySelector('#contest-name')");
        self.type_into("#contest-name", name);
        self.type_into("#contest-password", &format!("{name}-password"));
        self.click(button);
        self.wait(&format!(
            "return document.querySelector('#contest-me')?.textContent === '{name}'"
        ));
    }
}

/// The whole contest in a browser, against a real host (its runner
/// compiles and plays): sign up, submit the C++ starter, watch it compile
/// and play its placement games, find it on Top Player between the levels,
/// open one of its replays; a submission that does not compile shows the
/// compiler's error to its owner and nothing to another participant.
#[test]
fn a_participant_signs_up_submits_the_starter_and_finds_it_on_top_player() {
    if !browsers_available() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("versus-contest-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut config = versus_contest::runner::Config::new(&dir.join("contest.sqlite"));
    config.limits.sandbox.builds = dir.join("cache");
    config.time = versus_core::TimeControl::new(1000, 3000);
    let rules = versus_web::contest::Rules {
        pacing: versus_contest::Pacing::NONE,
        ..versus_web::contest::Rules::default()
    };
    let addr = SocketAddr::from(([127, 0, 0, 1], free_port()));
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime.block_on(versus_web::host(addr, config, rules)).unwrap();
    });
    let start = Instant::now();
    while TcpStream::connect(addr).is_err() {
        assert!(start.elapsed() < Duration::from_secs(10), "the host did not listen");
        std::thread::sleep(Duration::from_millis(20));
    }
    let starter = dir.join("bot.cpp");
    std::fs::write(&starter, include_str!("../../cli/starters/domineering/bot.cpp")).unwrap();
    let broken = dir.join("broken.cpp");
    std::fs::write(&broken, "int main() { return SECRET_UNDECLARED_NAME; }\n").unwrap();

    let browser = Browser::start();
    browser.open(&format!("http://{addr}/#/contest/domineering/top"));
    browser.wait("return document.querySelector('#leaderboard')");
    browser.sign("alice", "#contest-signup");
    browser.wait("return document.querySelector('#contest-token')?.textContent.includes('token')");

    browser.click("#tab-submit");
    browser.wait("return document.querySelector('#submit-file')");
    browser.type_into("#submit-file", starter.to_str().unwrap());
    browser.click("#submit-send");
    browser.wait("return location.hash.startsWith('#/contest/submission/')");
    // Watched live: the state moves on by itself, and placement games show up.
    let seen = browser.wait_long(
        "return document.querySelectorAll('#contest-matches tr[data-id]').length >= 8 && document.querySelector('#submission-state').textContent",
        Duration::from_secs(120),
    );
    assert!(seen.as_str().unwrap().contains("State"), "{seen}");
    browser.wait_long(
        "return document.querySelector('#submission-state')?.textContent.includes('rated')",
        Duration::from_secs(240),
    );
    let kinds = browser.script(
        "return Array.from(document.querySelectorAll('#contest-matches tr[data-id] td:nth-child(2)')).map(e => e.textContent)",
    );
    let kinds: Vec<&str> = kinds.as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert_eq!(kinds.iter().filter(|k| **k == "placement").count(), 8, "{kinds:?}");
    assert!(kinds.contains(&"gate"), "{kinds:?}");

    browser.click("a[href='#/contest/domineering/top']");
    let order = browser.wait(
        "const rows = Array.from(document.querySelectorAll('#leaderboard tr[data-name]')).map(r => r.dataset.name);
         return rows.includes('alice') && rows;",
    );
    let order: Vec<&str> = order.as_array().unwrap().iter().filter_map(Value::as_str).collect();
    let at = |name: &str| {
        order.iter().position(|n| *n == name).unwrap_or_else(|| panic!("{name} not in {order:?}"))
    };
    assert!(at("builtin:strong") < at("alice") && at("alice") < at("builtin:random"), "{order:?}");

    // One of its replays.
    browser.click("#leaderboard tr[data-name='alice'] a");
    browser.wait("return document.querySelector('#contest-matches tr[data-id] a')");
    browser.click("#contest-matches tr[data-id] a");
    browser.wait("return location.hash.startsWith('#/contest/match/') && document.querySelector('#board svg.board') && document.querySelector('#slider')");
    browser.screenshot(&screenshots().join("contest-replay.png"));

    // bob's submission does not compile: he sees why, alice does not.
    browser.open(&format!("http://{addr}/#/contest/domineering/top"));
    browser.wait("return document.querySelector('#contest-signout')");
    browser.click("#contest-signout");
    browser.sign("bob", "#contest-signup");
    browser.click("#tab-submit");
    browser.wait("return document.querySelector('#submit-file')");
    browser.type_into("#submit-file", broken.to_str().unwrap());
    browser.click("#submit-send");
    let log = browser.wait_long(
        "return document.querySelector('#compile-log')?.textContent",
        Duration::from_secs(120),
    );
    assert!(log.as_str().unwrap().contains("SECRET_UNDECLARED_NAME"), "{log}");
    let url = browser.script("return location.hash").as_str().unwrap().to_owned();
    browser.wait("return document.querySelector('#submission-state').textContent.includes('CE')");
    browser.screenshot(&screenshots().join("contest-ce.png"));
    browser.open(&format!("http://{addr}/#/contest/domineering/top"));
    browser.wait("return document.querySelector('#contest-signout')");
    browser.click("#contest-signout");
    browser.wait("return document.querySelector('#contest-name')");
    browser.type_into("#contest-name", "alice");
    browser.type_into("#contest-password", "alice-password");
    browser.click("#contest-signin");
    browser.wait("return document.querySelector('#contest-me')?.textContent === 'alice'");
    browser.open(&format!("http://{addr}/{url}"));
    browser.wait("return document.querySelector('#submission-state')?.textContent.includes('CE')");
    let page = browser.script("return document.body.textContent");
    assert!(
        !page.as_str().unwrap().contains("SECRET_UNDECLARED_NAME"),
        "alice sees bob's compiler output"
    );
    assert_eq!(browser.script("return document.querySelector('#compile-log')"), Value::Null);
    let id = url.rsplit('/').next().unwrap();
    let forbidden = browser.call(
        "POST",
        "/execute/async",
        Some(json!({
            "script": format!("const done = arguments[0]; fetch('/api/contest/submissions/{id}/source').then(r => done(r.status));"),
            "args": []
        })),
    );
    assert_eq!(forbidden, json!(403));

    // bob submits the starter too, and an organiser schedules a round robin
    // of the two entries from the admin box; its page shows the standings
    // with Sonneborn-Berger and performances, and links the games.
    browser.open(&format!("http://{addr}/#/contest/domineering/top"));
    browser.wait("return document.querySelector('#contest-signout')");
    browser.click("#contest-signout");
    browser.sign("bob", "#contest-signin");
    browser.click("#tab-submit");
    browser.wait("return document.querySelector('#submit-file')");
    browser.type_into("#submit-file", starter.to_str().unwrap());
    browser.click("#submit-send");
    browser.wait_long(
        "return document.querySelector('#submission-state')?.textContent.includes('rated')",
        Duration::from_secs(240),
    );
    versus_contest::Db::open(&dir.join("contest.sqlite"))
        .unwrap()
        .add_user("root", Some("root-password"), true)
        .unwrap();
    browser.open(&format!("http://{addr}/#/contest/domineering/top"));
    browser.wait("return document.querySelector('#contest-signout')");
    browser.click("#contest-signout");
    browser.sign("root", "#contest-signin");
    browser.wait("return document.querySelector('#eval-form')");
    browser.script(
        "document.querySelector('#admin').open = true;
         document.querySelector('#eval-kind').value = 'robin';
         document.querySelector('#eval-games').value = '2';",
    );
    browser.click("#eval-schedule");
    browser
        .wait("return document.querySelector('#admin-message')?.textContent.includes('scheduled')");
    browser.click("#tab-evaluations");
    browser.wait("return document.querySelector('#evaluations a')");
    browser.click("#evaluations a");
    let standings = browser.wait_long(
        "const rows = Array.from(document.querySelectorAll('#evaluation-standings tr')).slice(1);
         const done = document.querySelectorAll('.evaluation-round a[href^=\"#/contest/match/\"]').length === 2;
         if (!done) { dispatchEvent(new HashChangeEvent('hashchange')); return false; }
         return rows.map(r => r.textContent);",
        Duration::from_secs(120),
    );
    let rows: Vec<&str> = standings.as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(rows.iter().any(|r| r.contains("alice")) && rows.iter().any(|r| r.contains("bob")));
    let header =
        browser.script("return document.querySelector('#evaluation-standings tr').textContent");
    assert!(header.as_str().unwrap().contains("Sonneborn"), "{header}");
    browser.screenshot(&screenshots().join("contest-evaluation.png"));
    drop(browser);
    let _ = std::fs::remove_dir_all(&dir);
}
