//! Watches an agent's whole process tree: memory, process count, and every
//! pid it ever had, so that cleanup finds the grandchildren too.
//!
//! The tree is read from `/proc/<pid>/task/<tid>/children`, which costs time
//! in proportion to the agent's own tree rather than to the whole machine.
//! A process that leaves the tree by double-forking or `setsid` would be
//! adopted by init and lost; so the judge makes itself a child subreaper,
//! orphans are adopted by the judge instead, and each is told apart by the
//! `VERSUS_AGENT` marker in the environment it inherited from its agent.

use std::collections::BTreeSet;
use std::fs;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use std::sync::Once;

use rustix::process::{
    getpid, kill_process, kill_process_group, set_child_subreaper, waitpid, Pid, Signal,
    WaitOptions,
};
use versus_core::Fault;

/// The kernel's `USER_HZ`, the unit of `/proc/<pid>/stat`'s times (100 on
/// every Linux architecture the project builds for).
const TICKS_PER_SECOND: u64 = 100;

/// User and system time of `pid` and of its waited-for children, in ticks.
fn cpu_ticks(pid: i32) -> u64 {
    let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else { return 0 };
    // The command name may hold spaces; the fields after it are numbers.
    let Some((_, rest)) = stat.rsplit_once(')') else { return 0 };
    // After the name: state is field 3; utime..cstime are fields 14..=17.
    rest.split_whitespace().skip(11).take(4).filter_map(|f| f.parse::<u64>().ok()).sum()
}

/// How often the tree is sampled.
const TICK: Duration = Duration::from_millis(5);

#[derive(Debug, Default)]
struct Seen {
    pids: BTreeSet<i32>,
    fault: Option<Fault>,
}

/// A background sampler of one agent's process tree.
#[derive(Debug)]
pub struct Monitor {
    root: i32,
    marker: String,
    seen: Mutex<Seen>,
    stop: AtomicBool,
}

impl Monitor {
    /// Starts sampling the tree under `root` (also the process group id).
    /// `marker` is the value of `VERSUS_AGENT` in the agent's environment.
    pub fn start(
        root: i32,
        marker: String,
        memory_bytes: u64,
        max_processes: usize,
    ) -> Arc<Monitor> {
        let monitor = Arc::new(Monitor {
            root,
            marker,
            seen: Mutex::new(Seen { pids: BTreeSet::from([root]), fault: None }),
            stop: AtomicBool::new(false),
        });
        let watcher = Arc::clone(&monitor);
        thread::spawn(move || {
            while !watcher.stop.load(Ordering::Relaxed) {
                let tree = watcher.tree();
                if tree.is_empty() {
                    break;
                }
                let fault = if tree.len() > max_processes {
                    Some(Fault::ProcessLimit)
                } else if tree.iter().map(|&pid| resident_bytes(pid)).sum::<u64>() > memory_bytes {
                    Some(Fault::MemoryLimit)
                } else {
                    None
                };
                let mut seen = watcher.seen.lock().unwrap_or_else(|e| e.into_inner());
                seen.pids.extend(&tree);
                if fault.is_some() {
                    seen.fault = fault;
                    drop(seen);
                    watcher.signal_all(Signal::KILL);
                    break;
                }
                drop(seen);
                thread::sleep(TICK);
            }
        });
        monitor
    }

    /// The limit the agent broke, if it broke one.
    pub fn fault(&self) -> Option<Fault> {
        self.seen.lock().unwrap_or_else(|e| e.into_inner()).fault.clone()
    }

    /// Sends `signal` to the process group and to every process of the tree
    /// seen so far or found now (a grandchild may have left the group). The
    /// ones found now are remembered, so that their orphans are reaped.
    pub fn signal_all(&self, signal: Signal) {
        if let Some(group) = Pid::from_raw(self.root) {
            let _ = kill_process_group(group, signal);
        }
        let tree = self.tree();
        let pids = {
            let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
            seen.pids.extend(tree);
            seen.pids.clone()
        };
        for pid in pids {
            if let Some(pid) = Pid::from_raw(pid) {
                let _ = kill_process(pid, signal);
            }
        }
    }

    /// The CPU time of the live processes of the tree, all threads summed,
    /// from `/proc` (in clock ticks: 10 ms steps). Used only where the host
    /// has no cgroups to count it exactly.
    pub fn cpu_time(&self) -> Duration {
        let ticks: u64 = self.tree().into_iter().map(cpu_ticks).sum();
        Duration::from_millis(ticks * 1000 / TICKS_PER_SECOND)
    }

    /// Whether any process seen in the tree is still alive (zombies excepted).
    pub fn any_alive(&self) -> bool {
        let pids = self.seen.lock().unwrap_or_else(|e| e.into_inner()).pids.clone();
        pids.into_iter().any(is_running)
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Collects the exit status of every orphan of this agent that the judge
    /// adopted, so none is left a zombie: those seen in the tree, and any
    /// other child of the judge in the agent's process group (a fork bomb
    /// makes processes faster than the tree is sampled; as zombies they would
    /// hold their pids for as long as the judge runs). One still alive is
    /// killed first. Gives up after `patience`.
    pub fn reap_orphans(&self, patience: Duration) {
        let me = getpid().as_raw_nonzero().get();
        let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner()).pids.clone();
        let deadline = Instant::now() + patience;
        loop {
            let mut waiting = false;
            for pid in children_of(me) {
                if pid == self.root || !(seen.contains(&pid) || group(pid) == Some(self.root)) {
                    continue;
                }
                let Some(child) = Pid::from_raw(pid) else { continue };
                if is_running(pid) {
                    let _ = kill_process(child, Signal::KILL);
                    waiting = true;
                } else {
                    let _ = waitpid(Some(child), WaitOptions::NOHANG);
                }
            }
            if !waiting || Instant::now() >= deadline {
                return;
            }
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// The agent's processes alive now: the tree under its root and under
    /// each orphan of it that the judge adopted.
    fn tree(&self) -> Vec<i32> {
        let mut tree = descendants(self.root);
        for orphan in adopted_orphans(&self.marker) {
            if !tree.contains(&orphan) {
                tree.extend(descendants(orphan));
            }
        }
        tree
    }
}

/// Makes this process adopt the orphans of its descendants (once).
pub fn adopt_orphans() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _ = set_child_subreaper(Some(getpid()));
    });
}

/// The judge's children whose environment carries `VERSUS_AGENT=marker`.
fn adopted_orphans(marker: &str) -> Vec<i32> {
    let needle = format!("VERSUS_AGENT={marker}");
    children_of(getpid().as_raw_nonzero().get())
        .into_iter()
        .filter(|pid| {
            fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.split(|&b| b == 0).any(|var| var == needle.as_bytes()))
        })
        .collect()
}

fn children_of(pid: i32) -> Vec<i32> {
    let mut children = Vec::new();
    let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else {
        return children;
    };
    for task in tasks.flatten() {
        if let Ok(list) = fs::read_to_string(task.path().join("children")) {
            children.extend(list.split_whitespace().filter_map(|c| c.parse::<i32>().ok()));
        }
    }
    children
}

/// Field `n` of `/proc/<pid>/stat` counted from the state (0), after the
/// parenthesised command name, which may hold spaces.
fn stat_field(pid: i32, n: usize) -> Option<i32> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?.1.split_whitespace().nth(n)?.parse().ok()
}

/// The process group of `pid`.
fn group(pid: i32) -> Option<i32> {
    stat_field(pid, 2)
}

/// `root` and all its descendants that are alive now (empty once `root` is gone).
fn descendants(root: i32) -> Vec<i32> {
    let mut found = Vec::new();
    let mut todo = vec![root];
    while let Some(pid) = todo.pop() {
        if !is_running(pid) {
            continue;
        }
        found.push(pid);
        todo.extend(children_of(pid));
    }
    found
}

/// Alive and not a zombie.
fn is_running(pid: i32) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the parenthesised command name, which may hold spaces.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with(['Z', 'X'])),
        Err(_) => false,
    }
}

fn resident_bytes(pid: i32) -> u64 {
    let pages = fs::read_to_string(format!("/proc/{pid}/statm"))
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .unwrap_or(0);
    pages * rustix::param::page_size() as u64
}
