//! Agents the sandbox runs: sources it builds, and command lines it
//! isolates. The languages are the sandbox's business; the judge only asks
//! for a built program and hands its command to a child endpoint.

use std::path::{Path, PathBuf};
use std::time::Duration;

use versus_core::{Endpoint, Fault, Reply, Side};
use versus_sandbox::{check_data_file, BuildError, Builder, Isolation, Language, Workdir};

use crate::child::{ChildSpec, Limits};

/// The sandbox's cgroup also holds bubblewrap's two processes (outside, and
/// as the namespace's init).
const SANDBOX_PROCESSES: usize = 2;

/// The isolation of an agent program under `limits`, on `side`'s CPU.
fn isolation(limits: &Limits, side: Side) -> Isolation {
    Isolation {
        memory_bytes: limits.memory_bytes,
        max_processes: (limits.max_processes + SANDBOX_PROCESSES) as u64,
        cpu: limits.sandbox.pin_cpus.then_some(side.index()),
        ..Isolation::default()
    }
}

/// `src:PATH?data=FILE`: a source and the data file its program finds as
/// `data.bin` in its working folder at run time (NYPC's binary file). A
/// relative `FILE` is in the source's folder, where it usually sits.
pub fn split_data(path: &Path) -> (PathBuf, Option<PathBuf>) {
    let Some((source, data)) = path.to_str().and_then(|p| p.rsplit_once("?data=")) else {
        return (path.to_owned(), None);
    };
    let source = PathBuf::from(source);
    let data = Path::new(data);
    let data = match source.parent() {
        Some(dir) if data.is_relative() => dir.join(data),
        _ => data.to_owned(),
    };
    (source, Some(data))
}

/// Builds `path` (or finds its build) and gives the command that runs it
/// isolated, with its data file when the path names one.
pub(crate) fn prepare(
    path: &Path,
    language: Option<Language>,
    limits: &Limits,
    side: Side,
) -> Result<ChildSpec, BuildError> {
    let (path, data) = split_data(path);
    // The data file is checked first: a refused one costs no compile.
    let data_file = data.as_deref().map(check_data_file).transpose()?;
    let mut builder = Builder::new(limits.sandbox.builds.clone());
    builder.time_limit = limits.sandbox.compile_time;
    let artifact = builder.build(&path, language)?;
    Ok(ChildSpec {
        command: artifact.run_command.clone(),
        cwd: None,
        isolation: Some(Isolation { data_file, ..artifact.isolation(&isolation(limits, side)) }),
    })
}

/// A command-line agent put in the sandbox: its working folder (and the
/// folder of its program, when named by path) shown read-only where they
/// are, so that the command line means what it meant outside.
pub(crate) fn isolate_command(child: &ChildSpec, limits: &Limits, side: Side) -> ChildSpec {
    let cwd = child
        .cwd
        .clone()
        .or_else(|| std::env::current_dir().ok())
        .map(|dir| dir.canonicalize().unwrap_or(dir));
    let mut read_only = Vec::new();
    if let Some(program) = child.command.split_whitespace().next() {
        let program = Path::new(program);
        if program.is_absolute() {
            if let Some(dir) = program.parent().filter(|d| !d.starts_with("/usr")) {
                read_only.push(dir.to_owned());
            }
        }
    }
    let workdir = match cwd {
        Some(dir) => Workdir::Host(dir),
        None => Workdir::Private,
    };
    ChildSpec {
        command: child.command.clone(),
        cwd: None,
        isolation: Some(Isolation { read_only, workdir, ..isolation(limits, side) }),
    }
}

/// An agent that cannot play: its source did not compile. It loses at the
/// first request with `CE`, and the compiler's output is its debug lines.
#[derive(Debug)]
pub struct FailedEndpoint {
    fault: Fault,
    log: Vec<String>,
}

impl FailedEndpoint {
    #[must_use]
    pub fn compile_error(summary: String, log: &str, limits: &Limits) -> FailedEndpoint {
        let mut lines: Vec<String> = log
            .lines()
            .map(|line| line.chars().take(limits.max_debug_line_bytes).collect())
            .collect();
        // The head has the first errors, the tail the sandbox's word on how
        // the compile ended: the middle goes.
        let keep = limits.max_debug_lines.max(8);
        if lines.len() > keep {
            let tail = lines.split_off(lines.len() - 3);
            let dropped = lines.len() - (keep - 4);
            lines.truncate(keep - 4);
            lines.push(format!("[versus: {dropped} lines of compiler output dropped]"));
            lines.extend(tail);
        }
        FailedEndpoint { fault: Fault::Compile { detail: summary }, log: lines }
    }
}

impl Endpoint for FailedEndpoint {
    fn send(&mut self, _line: &str) {}

    fn receive(&mut self, _limit: Duration) -> Reply {
        Reply::Gone(self.fault.clone())
    }

    fn debug_lines(&mut self) -> Vec<String> {
        std::mem::take(&mut self.log)
    }
}
