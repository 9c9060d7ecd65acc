//! `versus host`, `versus user`, `versus submit` and `versus leaderboard`:
//! the open contest from the command line.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand};
use serde_json::{json, Value};
use versus_contest::runner::Config;
use versus_contest::Db;
use versus_core::TimeControl;
use versus_judge::Language;

#[derive(Debug, Args)]
pub struct HostArgs {
    /// The store: one SQLite file (the contest's tables and the league's),
    /// or a PostgreSQL database (postgres://USER@HOST/DB) that workers on
    /// other machines play from (`versus worker --contest --db URL`).
    #[arg(long, default_value = "versus.sqlite")]
    db: String,
    /// Where submissions' sources are written for the judge (default: next
    /// to the SQLite file; `versus.sources` for PostgreSQL).
    #[arg(long, value_name = "DIR")]
    sources: Option<PathBuf>,
    /// The port to listen on.
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on (only this machine by default).
    #[arg(long, default_value = "127.0.0.1")]
    host: std::net::IpAddr,
    /// Games played at once (each game pins its two sides to a CPU each).
    #[arg(short = 'j', long = "jobs", default_value_t = 1)]
    jobs: usize,
    /// Each player's clock for a whole game, ms.
    #[arg(long, default_value_t = TimeControl::CONTEST.game_ms)]
    time_ms: u64,
    /// Submissions a participant may make within `--submit-window` (NYPC: 2).
    #[arg(long, default_value_t = 2)]
    submit_burst: usize,
    /// The window of `--submit-burst`, in seconds (NYPC: 300): after that
    /// many submissions within it, the next waits until the window after the
    /// first of them has passed.
    #[arg(long, default_value_t = 300)]
    submit_window: u64,
    /// The clock of every game: `cpu` (NYPC's rule) or `wall` (the ALPHANO
    /// pages'). By default each game's own contest: Connexion (NYPC) on the
    /// CPU clock, the ALPHANO games on the wall clock.
    #[arg(long, value_enum)]
    clock: Option<crate::clock_args::ClockArg>,
    /// The score against the sample AIs (gate and placement games: win 1,
    /// draw 1/2) that makes a submission eligible as an entry.
    #[arg(long, default_value_t = 1.0)]
    eligible_score: f64,
    /// Seconds a participant waits between two challenges.
    #[arg(long, default_value_t = 60)]
    challenge_interval: u64,
}

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Create an account on the host's store and print its API token.
    Add {
        /// 1 to 32 letters, digits, '-', '_' or '.'.
        name: String,
        /// May hide and rejudge submissions, reset ratings, set the contest window.
        #[arg(long)]
        admin: bool,
        /// The host's store: a SQLite file or a postgres:// URL.
        #[arg(long, default_value = "versus.sqlite")]
        db: String,
        /// Read the password from standard input (else one is made and printed).
        #[arg(long)]
        password_stdin: bool,
    },
}

#[derive(Debug, Args)]
pub struct SubmitArgs {
    /// The contest's address, e.g. http://127.0.0.1:8080.
    #[arg(long)]
    server: String,
    /// Your API token (or set VERSUS_TOKEN).
    #[arg(long, env = "VERSUS_TOKEN", hide_env_values = true)]
    token: String,
    /// The game, e.g. domineering.
    game: String,
    /// The source file.
    file: PathBuf,
    /// The language, when the extension does not say it.
    #[arg(long, value_name = "LANG")]
    lang: Option<Language>,
    /// A data file (at most 10 MiB) the program finds as `data.bin` in its
    /// working folder when it runs (NYPC's binary file).
    #[arg(long, value_name = "FILE")]
    data: Option<PathBuf>,
    /// Wait until the submission is compiled and through its gate game, and say how it went.
    #[arg(long)]
    wait: bool,
}

#[derive(Debug, Args)]
pub struct LeaderboardArgs {
    /// The contest's address, e.g. http://127.0.0.1:8080.
    #[arg(long)]
    server: String,
    /// The game, e.g. domineering.
    game: String,
}

pub fn host(args: &HostArgs) -> Result<()> {
    check_store(&args.db)?;
    if args.jobs == 0 {
        bail!("-j must be at least 1");
    }
    let mut config = if versus_sql::is_postgres(&args.db) {
        let sources = args.sources.clone().unwrap_or_else(|| PathBuf::from("versus.sources"));
        Config::with_sources(&args.db, sources)
    } else {
        let mut config = Config::new(std::path::Path::new(&args.db));
        if let Some(sources) = &args.sources {
            config.sources.clone_from(sources);
        }
        config
    };
    config.players = args.jobs;
    config.time = TimeControl { game_ms: args.time_ms, ..TimeControl::CONTEST };
    if args.submit_burst == 0 {
        bail!("--submit-burst must be at least 1");
    }
    if !args.eligible_score.is_finite() || args.eligible_score < 0.0 {
        bail!("--eligible-score must be a number of points, 0 or more");
    }
    config.settings.eligible_score = args.eligible_score;
    config.clock = args.clock.map(crate::clock_args::ClockArg::mode);
    let rules = versus_web::contest::Rules {
        pacing: versus_contest::Pacing {
            count: args.submit_burst,
            window: Duration::from_secs(args.submit_window),
        },
        challenge_interval: Duration::from_secs(args.challenge_interval),
        ..versus_web::contest::Rules::default()
    };
    if let Some(missing) = versus_sandbox::Host::get().shortcomings() {
        eprintln!("versus: warning: the sandbox is incomplete on this host: {missing}");
    }
    let addr = SocketAddr::new(args.host, args.port);
    let runtime = tokio::runtime::Runtime::new().context("cannot start the server's runtime")?;
    eprintln!(
        "versus: hosting the contest of {} on http://{addr}/#/contest",
        versus_sql::redact(&args.db)
    );
    runtime
        .block_on(versus_web::host(addr, config, rules))
        .with_context(|| format!("cannot host on {addr}"))
}

/// A SQLite store's folder must exist (the file is made in it).
fn check_store(db: &str) -> Result<()> {
    if versus_sql::is_postgres(db) {
        return Ok(());
    }
    let path = std::path::Path::new(db);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.is_dir() {
            bail!("the folder of {} does not exist", path.display());
        }
    }
    Ok(())
}

pub fn user(command: &UserCommand) -> Result<()> {
    match command {
        UserCommand::Add { name, admin, db, password_stdin } => {
            let password = if *password_stdin {
                let mut text = String::new();
                std::io::stdin().read_to_string(&mut text).context("cannot read the password")?;
                text.trim_end_matches(['\n', '\r']).to_owned()
            } else {
                versus_contest::auth::random_token()?[..20].to_owned()
            };
            check_store(db)?;
            let mut store = Db::connect(db)?;
            let (user, token) = store.add_user(name, Some(&password), *admin)?;
            println!("user {} ({}){}", user.name, user.id.0, if *admin { ", admin" } else { "" });
            if !password_stdin {
                println!("password {password}");
            }
            println!("token {token}");
            Ok(())
        }
    }
}

pub fn submit(args: &SubmitArgs) -> Result<()> {
    let bytes = std::fs::read(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let source = String::from_utf8(bytes)
        .map_err(|_| anyhow!("{} is not a text file (UTF-8)", args.file.display()))?;
    let filename = args
        .file
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| anyhow!("{} has no file name", args.file.display()))?;
    let language = match args.lang {
        Some(language) => language,
        None => Language::from_path(&args.file).ok_or_else(|| {
            anyhow!(
                "cannot tell the language of {} from its extension; give --lang",
                args.file.display()
            )
        })?,
    };
    let source_limit = versus_sandbox::MAX_SOURCE_BYTES;
    if source.len() as u64 > source_limit {
        bail!(
            "{} is {} bytes; the limit is {source_limit} (1 MiB)",
            args.file.display(),
            source.len()
        );
    }
    let server = Server::parse(&args.server)?;
    let mut body = json!({ "filename": filename, "language": language.name(), "source": source });
    if let Some(path) = &args.data {
        use base64::Engine as _;
        let checked = versus_sandbox::check_data_file(path).map_err(|e| anyhow!("{e}"))?;
        let bytes = std::fs::read(&checked)
            .with_context(|| format!("cannot read the data file {}", path.display()))?;
        body["data"] = json!(base64::engine::general_purpose::STANDARD.encode(bytes));
    }
    let answer = server.call(
        "POST",
        &format!("/api/contest/games/{}/submissions", args.game),
        Some(&args.token),
        Some(&body),
    )?;
    let id = answer["id"].as_i64().ok_or_else(|| anyhow!("the server gave no id: {answer}"))?;
    println!(
        "submission {id} ({}) queued: {}/#/contest/submission/{id}",
        language.name(),
        server.base
    );
    if !args.wait {
        return Ok(());
    }
    loop {
        std::thread::sleep(Duration::from_millis(500));
        let found = server.call(
            "GET",
            &format!("/api/contest/submissions/{id}"),
            Some(&args.token),
            None,
        )?;
        let state = found["submission"]["state"].as_str().unwrap_or("?").to_owned();
        match state.as_str() {
            "queued" | "compiling" | "gate" => continue,
            "ce" => {
                let private = server.call(
                    "GET",
                    &format!("/api/contest/submissions/{id}/source"),
                    Some(&args.token),
                    None,
                )?;
                eprintln!("{}", private["compile_log"].as_str().unwrap_or(""));
                bail!(
                    "submission {id} did not compile: {}",
                    private["detail"].as_str().unwrap_or("")
                );
            }
            "rejected" => bail!(
                "submission {id} is not entered: {}",
                found["submission"]["detail"].as_str().unwrap_or("")
            ),
            other => {
                println!("submission {id}: {other}");
                return Ok(());
            }
        }
    }
}

pub fn leaderboard(args: &LeaderboardArgs) -> Result<()> {
    let server = Server::parse(&args.server)?;
    let board =
        server.call("GET", &format!("/api/contest/games/{}/leaderboard", args.game), None, None)?;
    let rows =
        board["rows"].as_array().ok_or_else(|| anyhow!("the server gave no table: {board}"))?;
    if let Some(at) = board["frozen_at"].as_i64() {
        println!("frozen: games finished before {at} (Unix ms)");
    }
    println!(
        "{:>4}  {:<24} {:>8} {:>17} {:>6} {:>14}  language",
        "rank", "participant", "rating", "95%", "games", "W/D/L"
    );
    for row in rows {
        let number = |key: &str| row[key].as_f64().unwrap_or(f64::NAN);
        let count = |key: &str| row[key].as_u64().unwrap_or(0);
        println!(
            "{:>4}  {:<24} {:>8.1} {:>17} {:>6} {:>14}  {}",
            count("rank"),
            row["name"].as_str().unwrap_or("?"),
            number("elo"),
            format!("[{:.0}, {:.0}]", number("low"), number("high")),
            count("games"),
            format!("{}/{}/{}", count("wins"), count("draws"), count("losses")),
            row["language"].as_str().unwrap_or("-"),
        );
    }
    Ok(())
}

/// A contest server over plain HTTP/1.1 (put TLS in front with a proxy).
struct Server {
    base: String,
    host: String,
    addr: Vec<SocketAddr>,
    prefix: String,
}

impl Server {
    fn parse(url: &str) -> Result<Server> {
        let rest = match url.strip_prefix("http://") {
            Some(rest) => rest,
            None if url.starts_with("https://") => {
                bail!(
                    "{url}: versus speaks plain HTTP; reach an HTTPS contest through a local proxy"
                )
            }
            None => bail!("{url}: the server's address starts with http://"),
        };
        let (authority, prefix) = match rest.find('/') {
            Some(k) => (&rest[..k], rest[k..].trim_end_matches('/')),
            None => (rest, ""),
        };
        if authority.is_empty() {
            bail!("{url}: no host");
        }
        let with_port = if authority.rsplit_once(':').is_some_and(|(_, p)| p.parse::<u16>().is_ok())
        {
            authority.to_owned()
        } else {
            format!("{authority}:80")
        };
        let addr: Vec<SocketAddr> = with_port
            .to_socket_addrs()
            .with_context(|| format!("cannot resolve {authority}"))?
            .collect();
        Ok(Server {
            base: url.trim_end_matches('/').to_owned(),
            host: authority.to_owned(),
            addr,
            prefix: prefix.to_owned(),
        })
    }

    /// One request; the answer's JSON, or the server's error message.
    fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Result<Value> {
        let mut stream = TcpStream::connect(&self.addr[..])
            .with_context(|| format!("cannot connect to {}", self.base))?;
        stream.set_read_timeout(Some(Duration::from_secs(60)))?;
        let body = body.map(Value::to_string).unwrap_or_default();
        let mut request = format!(
            "{method} {}{path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nAccept: application/json\r\n",
            self.prefix, self.host
        );
        if let Some(token) = token {
            request.push_str(&format!("Authorization: Bearer {token}\r\n"));
        }
        if method != "GET" {
            request.push_str(&format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                body.len()
            ));
        }
        request.push_str("\r\n");
        stream.write_all(request.as_bytes())?;
        stream.write_all(body.as_bytes())?;
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).with_context(|| format!("no answer from {}", self.base))?;
        let text = String::from_utf8_lossy(&answer);
        let (head, body) = text
            .split_once("\r\n\r\n")
            .ok_or_else(|| anyhow!("a malformed answer from {}", self.base))?;
        let code: u16 = head
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .ok_or_else(|| anyhow!("a malformed answer from {}", self.base))?;
        let chunked = head.lines().any(|l| {
            let l = l.to_ascii_lowercase();
            l.starts_with("transfer-encoding:") && l.contains("chunked")
        });
        let body = if chunked { dechunk(body) } else { body.to_owned() };
        let value: Value = serde_json::from_str(&body).unwrap_or(Value::String(body.clone()));
        if !(200..300).contains(&code) {
            let message =
                value["error"].as_str().map_or_else(|| body.trim().to_owned(), str::to_owned);
            bail!("{} answered {code}: {message}", self.base);
        }
        Ok(value)
    }
}

/// The body of a chunked answer.
fn dechunk(mut text: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = text.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else { break };
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        text = rest[size..].trim_start_matches("\r\n");
    }
    out
}
