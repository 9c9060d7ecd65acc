//! Builds a source once, in the sandbox, and keeps the result by the
//! content hash of the source, its language and the toolchain's version.

use std::fs;
use std::io::{self, Read};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};
use thiserror::Error;

use crate::isolation::{Isolation, Workdir};
use crate::lang::{Language, Toolchain};

/// The largest source accepted, as on the contest sites.
pub const MAX_SOURCE_BYTES: u64 = 1024 * 1024;
/// The largest data file (`data.bin`) accepted, as on NYPC.
pub const MAX_DATA_BYTES: u64 = 10 * 1024 * 1024;

static NEXT: AtomicUsize = AtomicUsize::new(0);

/// A source that could not be built. Only [`BuildError::Compile`] is the
/// submission's fault; the rest are this host's or the caller's.
#[derive(Debug, Error)]
pub enum BuildError {
    /// CE: the compiler refused the source, or ran out of time, memory or
    /// output. `log` is the compiler's output, bounded.
    #[error("compile error: {summary}")]
    Compile { summary: String, log: String },
    // Named `error`, not `source`: the message says it already, and a
    // caller printing the chain of causes would say it twice.
    #[error("cannot read the source {path}: {error}")]
    Source { path: PathBuf, error: io::Error },
    #[error("the source {path} is {bytes} bytes; the limit is {MAX_SOURCE_BYTES} bytes (1 MiB)")]
    TooLarge { path: PathBuf, bytes: u64 },
    #[error("cannot read the data file {path}: {error}")]
    Data { path: PathBuf, error: io::Error },
    #[error("the data file {path} is {bytes} bytes; the limit is {MAX_DATA_BYTES} bytes (10 MiB)")]
    DataTooLarge { path: PathBuf, bytes: u64 },
    #[error("cannot tell the language of {0} from its extension ({exts}); give --lang", exts = Language::EXTENSIONS)]
    UnknownLanguage(PathBuf),
    #[error("the {language} toolchain is missing: {why}")]
    Toolchain { language: Language, why: String },
    #[error("build cache {path}: {error}")]
    Cache { path: PathBuf, error: io::Error },
    /// The sandbox could not be set up for the compiler: this host's fault.
    #[error("the sandbox failed to run the compiler: {0}")]
    Sandbox(String),
}

/// A built program: its folder (shown at `/prog` when it runs) and how to
/// run it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Artifact {
    pub dir: PathBuf,
    pub language: Language,
    /// The cache key, a hex SHA-256 prefix.
    pub hash: String,
    pub run_command: String,
    /// How long the compile took (zero when it came from the cache).
    pub compile_time: Duration,
}

impl Artifact {
    /// The isolation that runs this program: `base`'s limits, the build at
    /// `/prog`, a private working folder.
    #[must_use]
    pub fn isolation(&self, base: &Isolation) -> Isolation {
        Isolation { program_dir: Some(self.dir.clone()), workdir: Workdir::Private, ..base.clone() }
    }
}

/// Checks a data file (a regular file of at most [`MAX_DATA_BYTES`]) and
/// gives its absolute path, to put in [`Isolation::data_file`].
pub fn check_data_file(path: &Path) -> Result<PathBuf, BuildError> {
    let error = |error| BuildError::Data { path: path.to_owned(), error };
    let meta = fs::metadata(path).map_err(error)?;
    if !meta.is_file() {
        return Err(error(io::Error::new(io::ErrorKind::InvalidInput, "not a regular file")));
    }
    if meta.len() > MAX_DATA_BYTES {
        return Err(BuildError::DataTooLarge { path: path.to_owned(), bytes: meta.len() });
    }
    path.canonicalize().map_err(error)
}

/// Compiles sources into a cache folder.
#[derive(Clone, Debug)]
pub struct Builder {
    pub cache: PathBuf,
    /// The compile's wall-clock limit.
    pub time_limit: Duration,
    /// The compiler's isolation (memory, processes, temporary space).
    pub isolation: Isolation,
    /// Compiler output kept in the log, and the output at which a compiler
    /// is stopped as flooding.
    pub log_bytes: usize,
    pub flood_bytes: usize,
}

impl Builder {
    /// A builder with the judging environment's compile limits: 30 s, 1 GB,
    /// 256 processes, 64 KB of log.
    #[must_use]
    pub fn new(cache: PathBuf) -> Builder {
        Builder {
            cache,
            time_limit: Duration::from_secs(30),
            isolation: Isolation {
                max_processes: 256,
                tmp_bytes: 512 * 1024 * 1024,
                file_bytes: 256 * 1024 * 1024,
                ..Isolation::default()
            },
            log_bytes: 64 * 1024,
            flood_bytes: 4 * 1024 * 1024,
        }
    }

    /// The default cache: `$VERSUS_CACHE`, else `$XDG_CACHE_HOME/versus`,
    /// else `~/.cache/versus`, each with `builds/` inside.
    #[must_use]
    pub fn default_cache() -> PathBuf {
        let base = std::env::var_os("VERSUS_CACHE")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("versus")))
            .or_else(|| std::env::var_os("HOME").map(|d| PathBuf::from(d).join(".cache/versus")))
            .unwrap_or_else(|| std::env::temp_dir().join("versus-cache"));
        base.join("builds")
    }

    /// Builds `source` (language from its extension unless given), or
    /// finds the build in the cache.
    pub fn build(&self, source: &Path, language: Option<Language>) -> Result<Artifact, BuildError> {
        let language = match language {
            Some(language) => language,
            None => Language::from_path(source)
                .ok_or_else(|| BuildError::UnknownLanguage(source.to_owned()))?,
        };
        let read_error = |error| BuildError::Source { path: source.to_owned(), error };
        let bytes = fs::metadata(source).map_err(read_error)?.len();
        if bytes > MAX_SOURCE_BYTES {
            return Err(BuildError::TooLarge { path: source.to_owned(), bytes });
        }
        let text = fs::read(source).map_err(read_error)?;
        let toolchain =
            language.toolchain().map_err(|why| BuildError::Toolchain { language, why })?;
        let hash = cache_key(language, &toolchain, &text);
        let dir = self.cache.join(&hash);
        let cache_error = |path: &Path| {
            let path = path.to_owned();
            move |error| BuildError::Cache { path, error }
        };
        let artifact = |compile_time| Artifact {
            dir: dir.clone(),
            language,
            hash: hash.clone(),
            run_command: language.run_command(&toolchain),
            compile_time,
        };
        if dir.join("ok").exists() {
            return Ok(artifact(Duration::ZERO));
        }
        if let Ok(log) = fs::read_to_string(dir.join("ce")) {
            return Err(compile_error(&log));
        }
        fs::create_dir_all(&self.cache).map_err(cache_error(&self.cache))?;
        // Built aside and renamed into place, so that two judges building the
        // same source at once never see half a build.
        let work = self.cache.join(format!(
            "{hash}.tmp-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&work);
        fs::create_dir_all(&work).map_err(cache_error(&work))?;
        fs::write(work.join(language.source_name()), &text).map_err(cache_error(&work))?;
        let started = Instant::now();
        let result = self.compile(language, &toolchain, &work);
        let compile_time = started.elapsed();
        let outcome = match result {
            Ok(()) => fs::write(work.join("ok"), b"").map(|()| Ok(artifact(compile_time))),
            Err(Failure { log, cache: true }) => {
                fs::write(work.join("ce"), &log).map(|()| Err(compile_error(&log)))
            }
            Err(Failure { log, cache: false }) => {
                let _ = fs::remove_dir_all(&work);
                if log.contains(SETUP_FAILED) {
                    return Err(BuildError::Sandbox(log));
                }
                return Err(compile_error(&log));
            }
        }
        .map_err(cache_error(&work))?;
        if fs::rename(&work, &dir).is_err() {
            // Another judge finished the same build first: theirs is as good.
            let _ = fs::remove_dir_all(&work);
        }
        outcome
    }

    fn compile(
        &self,
        language: Language,
        toolchain: &Toolchain,
        work: &Path,
    ) -> Result<(), Failure> {
        let argv = language.compile_argv(toolchain);
        let isolation = Isolation {
            read_only: toolchain.extra_dirs.clone(),
            workdir: Workdir::HostWritable(work.to_owned()),
            env: language.compile_env(),
            // The data file is the program's, at run time only.
            data_file: None,
            ..self.isolation.clone()
        };
        let fail = |log: String| Failure { log, cache: false };
        let mut prepared = isolation.prepare(&argv).map_err(|e| fail(format!("sandbox: {e}")))?;
        let (reader, writer) = io::pipe().map_err(|e| fail(format!("pipe: {e}")))?;
        let writer2 = writer.try_clone().map_err(|e| fail(format!("pipe: {e}")))?;
        prepared
            .command
            .stdin(Stdio::null())
            .stdout(Stdio::from(writer))
            .stderr(Stdio::from(writer2))
            .process_group(0);
        let mut child = prepared.command.spawn().map_err(|e| fail(format!("cannot start: {e}")))?;
        // The command holds the pipe's writing ends: without dropping it the
        // reader would never see the end of the output.
        drop(prepared.command);
        let limit = self.log_bytes;
        let flood = self.flood_bytes;
        let stopped = Arc::new(AtomicBool::new(false));
        let stopped_by_collector = Arc::clone(&stopped);
        let collector = thread::spawn(move || {
            let collected = collect(reader, limit, flood);
            stopped_by_collector.store(collected.flooded, Ordering::Release);
            collected
        });
        let deadline = Instant::now() + self.time_limit;
        let mut timed_out = false;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() >= deadline => {
                    timed_out = true;
                    break None;
                }
                // Not merely a finished collector: the output ends before the
                // sandbox's own processes do, and a fast compiler that had
                // succeeded would be taken for a flood.
                Ok(None) if stopped.load(Ordering::Acquire) => {
                    // Output flooded (the collector stopped reading) and the
                    // compiler may be blocked on a full pipe.
                    break None;
                }
                Ok(None) => thread::sleep(Duration::from_millis(5)),
                Err(e) => return Err(fail(format!("wait: {e}"))),
            }
        };
        let oom = prepared.cage.as_ref().is_some_and(|c| c.oom_kills() > 0);
        if status.is_none() {
            kill_tree(&mut child, prepared.cage.as_ref());
        }
        let collected = collector.join().unwrap_or_default();
        drop(prepared.cage);
        let mut log = collected.text;
        if collected.total > log.len() {
            log.push_str(&format!(
                "\n[versus: {} more bytes of compiler output cut]",
                collected.total - log.len()
            ));
        }
        if timed_out {
            log.push_str(&format!(
                "\n[versus: the compiler was stopped after {} s]",
                self.time_limit.as_secs_f64()
            ));
            // A slow machine may finish next time: not cached.
            return Err(fail(log));
        }
        if collected.flooded {
            log.push_str(&format!(
                "\n[versus: the compiler was stopped after {flood} bytes of output]"
            ));
            return Err(Failure { log, cache: true });
        }
        if oom {
            log.push_str(&format!(
                "\n[versus: the compiler ran out of memory ({} MB)]",
                self.isolation.memory_bytes / (1024 * 1024)
            ));
            return Err(Failure { log, cache: true });
        }
        match status {
            Some(status) if status.success() => Ok(()),
            Some(_) if log.contains(SETUP_FAILED) => Err(fail(log)),
            Some(status) => {
                log.push_str(&format!("\n[versus: the compiler {}]", describe(status)));
                Err(Failure { log, cache: true })
            }
            None => Err(fail(log)),
        }
    }
}

fn describe(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(signal)) => format!("was killed by signal {signal}"),
        _ => "failed".to_owned(),
    }
}

/// What the sandbox's wrapper says when it cannot enter the cage.
const SETUP_FAILED: &str = "versus: sandbox: cannot set up";

struct Failure {
    log: String,
    /// Whether the same source would fail the same way again.
    cache: bool,
}

fn compile_error(log: &str) -> BuildError {
    let summary = log
        .lines()
        .find(|l| l.contains("error") || l.starts_with("[versus:"))
        .or_else(|| log.lines().find(|l| !l.trim().is_empty()))
        .unwrap_or("the compiler failed")
        .trim()
        .chars()
        .take(200)
        .collect();
    BuildError::Compile { summary, log: log.to_owned() }
}

fn cache_key(language: Language, toolchain: &Toolchain, source: &[u8]) -> String {
    let mut hasher = Sha256::new();
    for part in [language.name().as_bytes(), toolchain.version.as_bytes()] {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    // The commands are part of the key: a change of flags rebuilds.
    let commands = format!(
        "{:?} {:?} {}",
        language.compile_argv(toolchain),
        language.compile_env(),
        language.run_command(toolchain)
    );
    hasher.update((commands.len() as u64).to_le_bytes());
    hasher.update(commands.as_bytes());
    hasher.update(source);
    hasher.finalize().iter().take(12).map(|b| format!("{b:02x}")).collect()
}

#[derive(Default)]
struct Collected {
    text: String,
    total: usize,
    flooded: bool,
}

/// Keeps the first `limit` bytes of the compiler's output and counts the
/// rest; stops reading past `flood` bytes.
fn collect(mut reader: impl Read, limit: usize, flood: usize) -> Collected {
    let mut kept = Vec::new();
    let mut total = 0;
    let mut buffer = [0u8; 16 * 1024];
    loop {
        match reader.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = limit.saturating_sub(kept.len());
                kept.extend_from_slice(&buffer[..n.min(room)]);
                total += n;
                if total > flood {
                    return Collected {
                        text: String::from_utf8_lossy(&kept).into_owned(),
                        total,
                        flooded: true,
                    };
                }
            }
        }
    }
    Collected { text: String::from_utf8_lossy(&kept).into_owned(), total, flooded: false }
}

fn kill_tree(child: &mut Child, cage: Option<&crate::Cage>) {
    if let Some(group) = rustix::process::Pid::from_raw(i32::try_from(child.id()).unwrap_or(0)) {
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    }
    if let Some(cage) = cage {
        cage.kill_all(Duration::from_secs(2));
    }
    let _ = child.kill();
    let _ = child.wait();
}
