//! One program's cgroups: the kernel enforces its memory and process
//! limits and its CPU, counts what it used, and finds every process it
//! made, wherever it went.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use rustix::process::{kill_process, Pid, Signal};

use crate::host::{CgroupMode, PARENT};

static NEXT: AtomicUsize = AtomicUsize::new(0);

/// The cgroups of one running program, removed when dropped (after killing
/// whatever is still in them).
#[derive(Debug)]
pub struct Cage {
    /// One folder per hierarchy (v1), or the one folder (v2).
    dirs: Vec<PathBuf>,
    version: u8,
    cpu: Option<usize>,
}

/// What the kernel is asked to enforce.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CageLimits {
    pub memory_bytes: u64,
    pub max_processes: u64,
    pub cpu: Option<usize>,
}

impl Cage {
    pub(crate) fn create(mode: &CgroupMode, limits: CageLimits) -> io::Result<Cage> {
        let name = format!("{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
        let mut cage = match mode {
            CgroupMode::V1 { memory, pids, cpuset, cpuacct } => {
                let mut dirs = vec![memory.join(&name)];
                dirs.extend([pids, cpuacct].into_iter().flatten().map(|p| p.join(&name)));
                if limits.cpu.is_some() {
                    dirs.extend(cpuset.iter().map(|p| p.join(&name)));
                }
                Cage { dirs, version: 1, cpu: None }
            }
            CgroupMode::V2 { root } => Cage { dirs: vec![root.join(&name)], version: 2, cpu: None },
            CgroupMode::Unavailable { why } => return Err(io::Error::other(why.clone())),
        };
        for dir in &cage.dirs {
            // A folder left by a judge that was killed is reused.
            fs::create_dir_all(dir)?;
        }
        cage.limit(limits)?;
        Ok(cage)
    }

    fn limit(&mut self, limits: CageLimits) -> io::Result<()> {
        let memory = limits.memory_bytes.to_string();
        let pids = limits.max_processes.to_string();
        if self.version == 1 {
            for dir in &self.dirs {
                if dir.join("memory.limit_in_bytes").exists() {
                    write(dir, "memory.limit_in_bytes", &memory)?;
                    // No swap either, where the kernel accounts it.
                    if dir.join("memory.memsw.limit_in_bytes").exists() {
                        let _ = write(dir, "memory.memsw.limit_in_bytes", &memory);
                    }
                }
                if dir.join("pids.max").exists() {
                    write(dir, "pids.max", &pids)?;
                }
                if let (Some(cpu), true) = (limits.cpu, dir.join("cpuset.cpus").exists()) {
                    let mems = fs::read_to_string(dir.with_file_name("cpuset.mems"))?;
                    write(dir, "cpuset.cpus", &cpu.to_string())?;
                    write(dir, "cpuset.mems", mems.trim())?;
                    self.cpu = Some(cpu);
                }
            }
        } else {
            let dir = &self.dirs[0];
            write(dir, "memory.max", &memory)?;
            let _ = write(dir, "memory.swap.max", "0");
            if dir.join("pids.max").exists() {
                write(dir, "pids.max", &pids)?;
            }
            if let (Some(cpu), true) = (limits.cpu, dir.join("cpuset.cpus").exists()) {
                write(dir, "cpuset.cpus", &cpu.to_string())?;
                self.cpu = Some(cpu);
            }
        }
        Ok(())
    }

    /// The CPU the kernel pins the program to, if the cage pins it.
    #[must_use]
    pub fn cpu(&self) -> Option<usize> {
        self.cpu
    }

    /// The files a process writes its pid to, to enter the cage.
    pub(crate) fn procs_files(&self) -> Vec<PathBuf> {
        self.dirs.iter().map(|d| d.join("cgroup.procs")).collect()
    }

    /// How many times the kernel killed a process of the cage for memory.
    #[must_use]
    pub fn oom_kills(&self) -> u64 {
        let (file, key) = if self.version == 1 {
            ("memory.oom_control", "oom_kill")
        } else {
            ("memory.events", "oom_kill")
        };
        self.dirs.iter().find_map(|d| counter(&d.join(file), key)).unwrap_or(0)
    }

    /// How many times the kernel refused a fork or a thread for the
    /// process cap.
    #[must_use]
    pub fn processes_refused(&self) -> u64 {
        self.dirs.iter().find_map(|d| counter(&d.join("pids.events"), "max")).unwrap_or(0)
    }

    /// The CPU time used by every process of the cage, all threads summed.
    #[must_use]
    pub fn cpu_time(&self) -> Option<Duration> {
        if self.version == 1 {
            self.dirs.iter().find_map(|d| {
                let ns = fs::read_to_string(d.join("cpuacct.usage")).ok()?;
                Some(Duration::from_nanos(ns.trim().parse().ok()?))
            })
        } else {
            counter(&self.dirs[0].join("cpu.stat"), "usage_usec").map(Duration::from_micros)
        }
    }

    /// The processes in the cage now.
    #[must_use]
    pub fn members(&self) -> Vec<i32> {
        let Ok(list) = fs::read_to_string(self.dirs[0].join("cgroup.procs")) else {
            return Vec::new();
        };
        list.split_whitespace().filter_map(|p| p.parse().ok()).collect()
    }

    /// SIGKILLs every process in the cage until none is left (a fork bomb
    /// may be forking while it is killed), for at most `patience`.
    pub fn kill_all(&self, patience: Duration) -> bool {
        let deadline = Instant::now() + patience;
        if self.version == 2 {
            let _ = write(&self.dirs[0], "cgroup.kill", "1");
        }
        loop {
            let members = self.members();
            if members.is_empty() {
                return true;
            }
            for pid in members {
                kill(pid);
            }
            if Instant::now() >= deadline {
                return false;
            }
            thread::sleep(Duration::from_millis(1));
        }
    }
}

impl Drop for Cage {
    fn drop(&mut self) {
        self.kill_all(Duration::from_secs(2));
        for dir in &self.dirs {
            // A killed process leaves its cgroup a moment after it dies.
            let deadline = Instant::now() + Duration::from_secs(1);
            while fs::remove_dir(dir).is_err() && dir.exists() && Instant::now() < deadline {
                thread::sleep(Duration::from_millis(2));
            }
        }
    }
}

fn kill(pid: i32) {
    if let Some(pid) = Pid::from_raw(pid) {
        let _ = kill_process(pid, Signal::KILL);
    }
}

fn write(dir: &Path, file: &str, value: &str) -> io::Result<()> {
    fs::write(dir.join(file), value).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("cannot write {value} to {}: {e}", dir.join(file).display()),
        )
    })
}

/// The number after `key` in a flat-keyed cgroup file (`oom_kill 3`).
fn counter(path: &Path, key: &str) -> Option<u64> {
    let text = fs::read_to_string(path).ok()?;
    text.lines().find_map(|line| {
        let (name, value) = line.split_once(' ')?;
        (name == key).then(|| value.trim().parse().ok()).flatten()
    })
}

/// Removes the sandbox's own parent folders' leftovers from judges that
/// were killed before they could clean up (empty cgroups only).
pub(crate) fn sweep(mode: &CgroupMode) {
    let parents: Vec<&PathBuf> = match mode {
        CgroupMode::V1 { memory, pids, cpuset, cpuacct } => {
            std::iter::once(memory).chain([pids, cpuset, cpuacct].into_iter().flatten()).collect()
        }
        CgroupMode::V2 { root } => vec![root],
        CgroupMode::Unavailable { .. } => return,
    };
    for parent in parents {
        debug_assert!(parent.ends_with(PARENT));
        let Ok(entries) = fs::read_dir(parent) else { continue };
        for entry in entries.flatten() {
            // Named `<judge pid>-<n>`: only a dead judge's are left over; a
            // live judge's may be empty for a moment before its program
            // enters.
            let name = entry.file_name();
            let owner =
                name.to_string_lossy().split('-').next().and_then(|p| p.parse::<u32>().ok());
            let owner_alive = owner.is_some_and(|pid| Path::new(&format!("/proc/{pid}")).exists());
            let path = entry.path();
            let empty = fs::read_to_string(path.join("cgroup.procs"))
                .is_ok_and(|procs| procs.trim().is_empty());
            if path.is_dir() && !owner_alive && empty {
                let _ = fs::remove_dir(&path);
            }
        }
    }
}
