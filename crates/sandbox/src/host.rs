//! What this host offers for isolation, found out once.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// Where the cgroup controllers this sandbox uses are mounted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CgroupMode {
    /// Version 1: one hierarchy per controller. `memory` is required; the
    /// others are used when present.
    V1 { memory: PathBuf, pids: Option<PathBuf>, cpuset: Option<PathBuf>, cpuacct: Option<PathBuf> },
    /// Version 2: one unified hierarchy, the sandbox's cgroups under `root`.
    V2 { root: PathBuf },
    /// No cgroup the sandbox may write: limits fall back to the judge's
    /// sampling of `/proc`.
    Unavailable { why: String },
}

/// The isolation features of this machine.
#[derive(Clone, Debug)]
pub struct Host {
    /// `bwrap --version`, when bubblewrap is installed and works here.
    pub bwrap: Result<String, String>,
    /// Whether bubblewrap may create a user namespace (then the program runs
    /// as an unprivileged user inside it).
    pub user_namespaces: bool,
    pub cgroups: CgroupMode,
    /// The CPUs this process may run on, in order.
    pub cpus: Vec<usize>,
}

/// The folder, inside each hierarchy, that holds the sandbox's cgroups.
pub(crate) const PARENT: &str = "versus";

impl Host {
    /// The host as found the first time this is called. `VERSUS_CGROUPS=off`
    /// pretends the cgroups are missing, to exercise the fallback.
    pub fn get() -> &'static Host {
        static HOST: OnceLock<Host> = OnceLock::new();
        HOST.get_or_init(Host::detect)
    }

    fn detect() -> Host {
        let bwrap = bwrap_version();
        let user_namespaces = bwrap.is_ok() && bwrap_runs(&["--unshare-user", "--uid", "1000"]);
        let cgroups = if std::env::var("VERSUS_CGROUPS").as_deref() == Ok("off") {
            CgroupMode::Unavailable { why: "turned off by VERSUS_CGROUPS=off".to_owned() }
        } else {
            detect_cgroups()
        };
        Host { bwrap, user_namespaces, cgroups, cpus: allowed_cpus() }
    }

    /// Whether programs can be isolated at all.
    #[must_use]
    pub fn can_isolate(&self) -> bool {
        self.bwrap.is_ok()
    }

    /// What is missing, in one paragraph meant for a person; `None` when
    /// everything is there.
    #[must_use]
    pub fn shortcomings(&self) -> Option<String> {
        let mut missing = Vec::new();
        if let Err(why) = &self.bwrap {
            missing.push(format!(
                "no isolation: {why}; programs run with no namespaces (install Debian's bubblewrap)"
            ));
        }
        if let CgroupMode::Unavailable { why } = &self.cgroups {
            missing.push(format!(
                "no cgroups ({why}): memory and process limits are sampled from /proc every 5 ms, \
                 CPU pinning uses affinity"
            ));
        }
        (!missing.is_empty()).then(|| missing.join("; "))
    }
}

impl fmt::Display for Host {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.bwrap {
            Ok(version) => writeln!(f, "bubblewrap:       {version}")?,
            Err(why) => writeln!(f, "bubblewrap:       missing ({why})")?,
        }
        writeln!(
            f,
            "user namespaces:  {}",
            if self.user_namespaces {
                "yes"
            } else {
                "no (programs run as root, capabilities dropped)"
            }
        )?;
        match &self.cgroups {
            CgroupMode::V1 { memory, pids, cpuset, cpuacct } => {
                let show = |p: &Option<PathBuf>| {
                    p.as_ref().map_or("missing".to_owned(), |p| p.display().to_string())
                };
                writeln!(f, "cgroups:          version 1")?;
                writeln!(f, "  memory:         {}", memory.display())?;
                writeln!(f, "  pids:           {}", show(pids))?;
                writeln!(f, "  cpuset:         {}", show(cpuset))?;
                writeln!(f, "  cpuacct:        {}", show(cpuacct))?;
            }
            CgroupMode::V2 { root } => {
                writeln!(f, "cgroups:          version 2 at {}", root.display())?
            }
            CgroupMode::Unavailable { why } => writeln!(f, "cgroups:          none ({why})")?,
        }
        let cpus: Vec<String> = self.cpus.iter().map(ToString::to_string).collect();
        write!(f, "CPUs:             {}", cpus.join(" "))
    }
}

fn bwrap_version() -> Result<String, String> {
    let output = Command::new("bwrap")
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("bwrap cannot be run: {e}"))?;
    let version = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    if !output.status.success() || version.is_empty() {
        return Err("bwrap --version failed".to_owned());
    }
    if !bwrap_runs(&[]) {
        return Err(format!("{version} is installed but cannot create namespaces here"));
    }
    Ok(version)
}

/// Whether a minimal sandbox with `extra` options starts and runs `true`.
fn bwrap_runs(extra: &[&str]) -> bool {
    Command::new("bwrap")
        .args(["--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "--proc", "/proc"])
        .args(extra)
        .args(["--", "true"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn detect_cgroups() -> CgroupMode {
    let base = Path::new("/sys/fs/cgroup");
    // Version 2 is in charge when the unified hierarchy is mounted at the
    // base and offers the memory controller there.
    if let Ok(controllers) = fs::read_to_string(base.join("cgroup.controllers")) {
        if controllers.split_whitespace().any(|c| c == "memory") {
            return match prepare_v2(base, &controllers) {
                Ok(root) => CgroupMode::V2 { root },
                Err(why) => CgroupMode::Unavailable { why },
            };
        }
    }
    let memory = base.join("memory");
    if !memory.join("cgroup.procs").exists() {
        return CgroupMode::Unavailable {
            why: "neither a cgroup v2 hierarchy with the memory controller nor a v1 memory hierarchy \
                  at /sys/fs/cgroup"
                .to_owned(),
        };
    }
    let memory = match prepare_v1(&memory, "memory") {
        Ok(dir) => dir,
        Err(why) => return CgroupMode::Unavailable { why },
    };
    let optional = |name: &str| {
        let mount = base.join(name);
        mount.join("cgroup.procs").exists().then(|| prepare_v1(&mount, name).ok()).flatten()
    };
    CgroupMode::V1 {
        memory,
        pids: optional("pids"),
        cpuset: optional("cpuset"),
        cpuacct: optional("cpuacct"),
    }
}

/// Makes the sandbox's parent cgroup in one v1 hierarchy.
fn prepare_v1(mount: &Path, controller: &str) -> Result<PathBuf, String> {
    let dir = mount.join(PARENT);
    fs::create_dir_all(&dir)
        .map_err(|e| format!("cannot create {}: {e} (not root?)", dir.display()))?;
    if controller == "cpuset" {
        // A v1 cpuset cgroup starts with no CPUs and no memory nodes, and a
        // task cannot join it until both are set: inherit the mount's.
        for file in ["cpuset.cpus", "cpuset.mems"] {
            let current = fs::read_to_string(dir.join(file)).unwrap_or_default();
            if current.trim().is_empty() {
                let parent = fs::read_to_string(mount.join(file)).map_err(|e| e.to_string())?;
                fs::write(dir.join(file), parent.trim()).map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(dir)
}

/// Makes the sandbox's parent cgroup in the v2 hierarchy and hands it the
/// controllers it needs.
fn prepare_v2(base: &Path, controllers: &str) -> Result<PathBuf, String> {
    let wanted: Vec<&str> = ["memory", "pids", "cpuset", "cpu"]
        .into_iter()
        .filter(|c| controllers.split_whitespace().any(|have| have == *c))
        .collect();
    let enable = wanted.iter().map(|c| format!("+{c}")).collect::<Vec<_>>().join(" ");
    let dir = base.join(PARENT);
    fs::create_dir_all(&dir).map_err(|e| {
        format!("cannot create {}: {e} (not root, or not delegated?)", dir.display())
    })?;
    for at in [base, dir.as_path()] {
        fs::write(at.join("cgroup.subtree_control"), &enable).map_err(|e| {
            format!(
                "cannot enable {enable} in {}: {e}",
                at.join("cgroup.subtree_control").display()
            )
        })?;
    }
    Ok(dir)
}

/// The CPUs in this process's affinity mask (`Cpus_allowed_list`).
fn allowed_cpus() -> Vec<usize> {
    let status = fs::read_to_string("/proc/self/status").unwrap_or_default();
    let list = status
        .lines()
        .find_map(|line| line.strip_prefix("Cpus_allowed_list:"))
        .unwrap_or("")
        .trim();
    let cpus = parse_cpu_list(list);
    if cpus.is_empty() {
        (0..std::thread::available_parallelism().map_or(1, std::num::NonZero::get)).collect()
    } else {
        cpus
    }
}

/// `0-3,6,8-9` → 0 1 2 3 6 8 9.
pub(crate) fn parse_cpu_list(list: &str) -> Vec<usize> {
    let mut cpus = Vec::new();
    for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let range = match part.split_once('-') {
            Some((a, b)) => a.parse::<usize>().ok().zip(b.parse::<usize>().ok()),
            None => part.parse::<usize>().ok().map(|a| (a, a)),
        };
        if let Some((a, b)) = range {
            cpus.extend(a..=b);
        }
    }
    cpus
}

#[cfg(test)]
mod tests {
    use super::parse_cpu_list;

    #[test]
    fn cpu_lists_as_the_kernel_writes_them() {
        assert_eq!(parse_cpu_list("0-3,6,8-9\n"), vec![0, 1, 2, 3, 6, 8, 9]);
        assert_eq!(parse_cpu_list("1"), vec![1]);
        assert_eq!(parse_cpu_list(""), Vec::<usize>::new());
        assert_eq!(parse_cpu_list("x,2"), vec![2]);
    }
}
