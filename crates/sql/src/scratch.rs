//! A throw-away PostgreSQL cluster for tests and measurements: `initdb` into
//! a fresh temporary directory, a server that listens only on a Unix socket
//! in that directory (no TCP port, so clusters of parallel tests never meet),
//! stopped and deleted on drop.
//!
//! PostgreSQL refuses to run as root; as root (CI) every server command runs
//! as the `postgres` user that Debian's package creates, through `runuser`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};

/// The role and database the cluster is created with.
const USER: &str = "versus";

/// A running throw-away cluster.
#[derive(Debug)]
pub struct ScratchCluster {
    /// Holds `data/`, the server's log and its socket.
    dir: PathBuf,
    bin: PathBuf,
    /// Who runs the server: `None` for this process's own user.
    run_as: Option<String>,
}

/// Where the server programs are: Debian's newest `/usr/lib/postgresql/N/bin`
/// that has `initdb`, else the `PATH`'s. `None` when PostgreSQL is not
/// installed.
#[must_use]
pub fn server_bin_dir() -> Option<PathBuf> {
    let mut versions: Vec<(u32, PathBuf)> = fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").is_file().then_some((version, bin))
        })
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return Some(bin);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .find(|dir| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file())
}

fn is_root() -> bool {
    // The effective uid, without libc: /proc/self/status's `Uid:` line.
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("Uid:"))?;
            line.split_whitespace().nth(2).map(|euid| euid == "0")
        })
        .unwrap_or(false)
}

impl ScratchCluster {
    /// Creates and starts a cluster. `Ok(None)` when PostgreSQL is not
    /// installed; an error when it is but the cluster cannot start.
    /// `fsync` off makes tests faster; measurements keep it on.
    pub fn start(fsync: bool) -> Result<Option<ScratchCluster>, String> {
        let Some(bin) = server_bin_dir() else { return Ok(None) };
        static COUNT: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "versus-pg-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let run_as = is_root().then(|| "postgres".to_owned());
        let cluster = ScratchCluster { dir, bin, run_as };
        if let Some(user) = &cluster.run_as {
            // The server's user must own its directory and reach it.
            run(Command::new("chown").arg(format!("{user}:")).arg(&cluster.dir))?;
            let mut parent = cluster.dir.parent();
            while let Some(dir) = parent {
                // Only a sticky or world-searchable parent works; say so if not.
                if let Ok(meta) = fs::metadata(dir) {
                    use std::os::unix::fs::PermissionsExt;
                    if meta.permissions().mode() & 0o001 == 0 {
                        return Err(format!(
                            "{} is not searchable by {user}; set TMPDIR to a directory that is",
                            dir.display()
                        ));
                    }
                }
                parent = dir.parent();
            }
        }
        let data = cluster.dir.join("data");
        cluster.server(
            "initdb",
            &[
                "-D".as_ref(),
                data.as_os_str(),
                "-U".as_ref(),
                USER.as_ref(),
                "-A".as_ref(),
                "trust".as_ref(),
                "-E".as_ref(),
                "UTF8".as_ref(),
                "--locale=C".as_ref(),
                "--no-sync".as_ref(),
            ],
        )?;
        let settings = format!(
            "\nlisten_addresses = ''\nunix_socket_directories = '{}'\nfsync = {}\n\
             max_connections = 200\n",
            cluster.dir.display(),
            if fsync { "on" } else { "off" }
        );
        let conf = data.join("postgresql.conf");
        let mut text = fs::read_to_string(&conf)
            .map_err(|e| format!("cannot read {}: {e}", conf.display()))?;
        text.push_str(&settings);
        fs::write(&conf, text).map_err(|e| format!("cannot write {}: {e}", conf.display()))?;
        cluster.start_server()?;
        cluster.psql(&format!("CREATE DATABASE {USER}"))?;
        Ok(Some(cluster))
    }

    /// The connection URL: the socket's directory as the host.
    #[must_use]
    pub fn url(&self) -> String {
        let host: String = self
            .dir
            .to_string_lossy()
            .bytes()
            .map(|b| if b == b'/' { "%2F".to_owned() } else { (b as char).to_string() })
            .collect();
        format!("postgresql://{USER}@{host}/{USER}")
    }

    /// The directory of the cluster (socket, `data/`, `server.log`).
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Stops the server, dropping every connection (`pg_ctl stop -m fast`).
    pub fn stop_server(&self) -> Result<(), String> {
        let data = self.dir.join("data");
        self.server(
            "pg_ctl",
            &[
                "-D".as_ref(),
                data.as_os_str(),
                "-m".as_ref(),
                "fast".as_ref(),
                "-w".as_ref(),
                "stop".as_ref(),
            ],
        )
    }

    /// Starts the server again after [`ScratchCluster::stop_server`].
    pub fn start_server(&self) -> Result<(), String> {
        let data = self.dir.join("data");
        let log = self.dir.join("server.log");
        self.server(
            "pg_ctl",
            &[
                "-D".as_ref(),
                data.as_os_str(),
                "-l".as_ref(),
                log.as_os_str(),
                "-w".as_ref(),
                "start".as_ref(),
            ],
        )
    }

    fn psql(&self, sql: &str) -> Result<(), String> {
        let dir = self.dir.to_string_lossy().into_owned();
        let psql = self.bin.join("psql");
        let psql = if psql.is_file() { psql } else { PathBuf::from("psql") };
        run(Command::new(psql)
            .args(["-X", "-q", "-h", &dir, "-U", USER, "-d", "postgres", "-c", sql]))
    }

    fn server(&self, program: &str, args: &[&std::ffi::OsStr]) -> Result<(), String> {
        let program = self.bin.join(program);
        let mut command = match &self.run_as {
            Some(user) => {
                let mut command = Command::new("runuser");
                command.args(["-u", user, "--"]).arg(program);
                command
            }
            None => Command::new(program),
        };
        // The server's user may not be allowed into this process's directory.
        command.args(args).current_dir(&self.dir);
        run(&mut command)
    }
}

fn run(command: &mut Command) -> Result<(), String> {
    let shown = format!("{command:?}");
    let output: Output = command
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {shown}: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{shown} failed ({}): {}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

impl Drop for ScratchCluster {
    fn drop(&mut self) {
        let data = self.dir.join("data");
        let _ = self.server(
            "pg_ctl",
            &[
                "-D".as_ref(),
                data.as_os_str(),
                "-m".as_ref(),
                "immediate".as_ref(),
                "-w".as_ref(),
                "stop".as_ref(),
            ],
        );
        let _ = fs::remove_dir_all(&self.dir);
    }
}
