//! A program's view of the machine: bubblewrap's namespaces and mounts,
//! the cgroup it runs in, its CPU and its file-size limit.

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Once;

use crate::cgroup::{self, Cage, CageLimits};
use crate::host::{CgroupMode, Host};

/// Where the program starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Workdir {
    /// `/box`, a private writable folder in memory of bounded size.
    Private,
    /// A host folder, shown read-only at its own path (a command line
    /// written for that folder keeps working).
    Host(PathBuf),
    /// A host folder shown read-write at its own path (a compiler's build
    /// folder, which the sandbox owns).
    HostWritable(PathBuf),
}

/// How to isolate one program. Plain data: the same value isolates any
/// number of runs, each in a cage of its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Isolation {
    /// Memory of all the program's processes together, page cache and
    /// in-memory files included (the contests: 1024 MB).
    pub memory_bytes: u64,
    /// Processes and threads at once, the program's first included.
    pub max_processes: u64,
    /// The private `/tmp`, and the private working folder.
    pub tmp_bytes: u64,
    pub work_bytes: u64,
    /// The largest file the program may write.
    pub file_bytes: u64,
    /// Pin the program to this CPU (an index into [`Host::cpus`], wrapped).
    pub cpu: Option<usize>,
    /// Shown read-only at `/prog`: what a build made.
    pub program_dir: Option<PathBuf>,
    /// More host folders shown read-only at their own paths (a toolchain
    /// that lives outside `/usr`).
    pub read_only: Vec<PathBuf>,
    pub workdir: Workdir,
    /// A file shown read-only as `data.bin` in the private working folder
    /// (NYPC's data file: there at run time, never at compile time).
    pub data_file: Option<PathBuf>,
    /// The program's environment, on top of a minimal one (`PATH`, `HOME`,
    /// `LANG`); nothing of the judge's own environment passes.
    pub env: Vec<(String, String)>,
}

impl Default for Isolation {
    fn default() -> Self {
        Isolation {
            memory_bytes: 1024 * 1024 * 1024,
            max_processes: 64,
            tmp_bytes: 64 * 1024 * 1024,
            work_bytes: 64 * 1024 * 1024,
            // Above the folders' caps, so that filling one is a refused
            // write (ENOSPC) the program can handle, not a SIGXFSZ.
            file_bytes: 128 * 1024 * 1024,
            cpu: None,
            program_dir: None,
            read_only: Vec::new(),
            workdir: Workdir::Private,
            data_file: None,
            env: Vec::new(),
        }
    }
}

/// A command ready to spawn, and the cage it will enter (when the host has
/// cgroups). The caller spawns the command and keeps the cage until every
/// process is gone; dropping the cage kills what is left.
#[derive(Debug)]
pub struct Prepared {
    pub command: Command,
    pub cage: Option<Cage>,
    /// The CPU the program is pinned to, by the cage or by affinity.
    pub cpu: Option<usize>,
    /// One line for the record: what isolates the program.
    pub summary: String,
}

/// Folders of the host a program's runtime needs, shown read-only. Others
/// (home folders, the store, other submissions, the judge's files) do not
/// exist inside.
const SYSTEM_DIRS: [&str; 1] = ["/usr"];
/// The merged-`/usr` links of Debian and most distributions, or folders
/// where a host still has them.
const ROOT_LINKS: [&str; 6] = ["/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"];
/// The few configuration files runtimes read: the dynamic linker's cache,
/// the alternatives that name `java`, the JDK's and Mono's own configuration.
const ETC_FILES: [&str; 6] = [
    "/etc/ld.so.cache",
    "/etc/mono",
    "/etc/alternatives",
    "/etc/java-17-openjdk",
    "/etc/localtime",
    "/etc/mime.types",
];

impl Isolation {
    /// The command that runs `argv` isolated as described. Without
    /// bubblewrap it runs `argv` as it is (with the limits the judge samples)
    /// after saying so once on standard error.
    pub fn prepare(&self, argv: &[String]) -> io::Result<Prepared> {
        let host = Host::get();
        warn_once(host);
        if argv.is_empty() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "the command line is empty"));
        }
        if self.data_file.is_some() && !(host.can_isolate() && self.workdir == Workdir::Private) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a data file is shown only in bubblewrap's private working folder \
                 (install Debian's bubblewrap)",
            ));
        }
        let cpu = self.cpu.filter(|_| host.cpus.len() > 1).map(|i| host.cpus[i % host.cpus.len()]);
        let cage = match &host.cgroups {
            CgroupMode::Unavailable { .. } => None,
            mode => {
                static SWEPT: Once = Once::new();
                SWEPT.call_once(|| cgroup::sweep(mode));
                let limits = CageLimits {
                    memory_bytes: self.memory_bytes,
                    max_processes: self.max_processes,
                    cpu,
                };
                Some(Cage::create(mode, limits)?)
            }
        };
        let pinned_by_cage = cage.as_ref().and_then(Cage::cpu);
        // A shell enters the cage and sets the file-size limit, then becomes
        // bubblewrap: everything the program starts is inside from its
        // first instruction, and the judge keeps one process to wait for.
        // The build recognises this line (a host failure, not a compile error).
        let fail = "{ echo 'versus: sandbox: cannot set up' >&2; exit 125; }";
        let mut script = format!("ulimit -f {} || {fail}", self.file_bytes.div_ceil(512));
        for file in cage.iter().flat_map(Cage::procs_files) {
            script.push_str(&format!("; echo $$ > '{}' || {fail}", file.display()));
        }
        if let (Some(cpu), None) = (cpu, pinned_by_cage) {
            script.push_str(&format!("; exec taskset -c {cpu} \"$@\""));
        } else {
            script.push_str("; exec \"$@\"");
        }
        let mut command = Command::new("/bin/sh");
        command.arg("-c").arg(script).arg("sh");
        let summary;
        if host.can_isolate() {
            command.args(self.bwrap_args(host));
            command.arg("--");
            summary = self.summary(cage.as_ref(), cpu, true);
        } else {
            summary = self.summary(cage.as_ref(), cpu, false);
            if let Workdir::Host(dir) | Workdir::HostWritable(dir) = &self.workdir {
                command.current_dir(dir);
            }
        }
        command.args(argv);
        Ok(Prepared { command, cage, cpu, summary })
    }

    fn bwrap_args(&self, host: &Host) -> Vec<OsString> {
        let mut args: Vec<OsString> = Vec::new();
        let mut push = |items: &[&dyn AsRef<std::ffi::OsStr>]| {
            args.extend(items.iter().map(|i| i.as_ref().to_owned()));
        };
        push(&[&"bwrap", &"--unshare-all", &"--die-with-parent", &"--cap-drop", &"ALL"]);
        if host.user_namespaces {
            push(&[&"--unshare-user", &"--uid", &"1000", &"--gid", &"1000"]);
        }
        for dir in SYSTEM_DIRS {
            push(&[&"--ro-bind", &dir, &dir]);
        }
        for link in ROOT_LINKS {
            let path = Path::new(link);
            match path.read_link() {
                Ok(target) => push(&[&"--symlink", &target, &link]),
                Err(_) if path.is_dir() => push(&[&"--ro-bind", &link, &link]),
                Err(_) => {}
            }
        }
        for file in ETC_FILES {
            push(&[&"--ro-bind-try", &file, &file]);
        }
        push(&[&"--proc", &"/proc", &"--dev", &"/dev"]);
        push(&[&"--size", &self.tmp_bytes.to_string(), &"--tmpfs", &"/tmp"]);
        for dir in &self.read_only {
            push(&[&"--ro-bind", dir, dir]);
        }
        if let Some(dir) = &self.program_dir {
            push(&[&"--ro-bind", dir, &"/prog"]);
        }
        let home = match &self.workdir {
            Workdir::Private => {
                push(&[&"--size", &self.work_bytes.to_string(), &"--tmpfs", &"/box"]);
                if let Some(data) = &self.data_file {
                    push(&[&"--ro-bind", data, &"/box/data.bin"]);
                }
                push(&[&"--chdir", &"/box"]);
                PathBuf::from("/box")
            }
            Workdir::Host(dir) => {
                push(&[&"--ro-bind", dir, dir, &"--chdir", dir]);
                PathBuf::from("/tmp")
            }
            Workdir::HostWritable(dir) => {
                push(&[&"--bind", dir, dir, &"--chdir", dir]);
                dir.clone()
            }
        };
        // Everything not mounted writable above is read-only, the root too.
        push(&[&"--remount-ro", &"/"]);
        push(&[&"--clearenv", &"--setenv", &"PATH", &"/usr/local/bin:/usr/bin:/bin"]);
        push(&[&"--setenv", &"HOME", &home, &"--setenv", &"LANG", &"C.UTF-8"]);
        push(&[&"--setenv", &"TMPDIR", &"/tmp"]);
        for (key, value) in &self.env {
            push(&[&"--setenv", key, value]);
        }
        args
    }

    fn summary(&self, cage: Option<&Cage>, cpu: Option<usize>, namespaces: bool) -> String {
        let mb = |b: u64| b / (1024 * 1024);
        let mut parts = Vec::new();
        parts.push(if namespaces {
            "bubblewrap (no network, own pid/mount namespaces)".to_owned()
        } else {
            "no namespaces (bubblewrap missing)".to_owned()
        });
        parts.push(match cage {
            Some(_) => format!(
                "cgroup: memory {} MB, {} processes",
                mb(self.memory_bytes),
                self.max_processes
            ),
            None => "no cgroup: limits sampled from /proc".to_owned(),
        });
        parts.push(match cpu {
            Some(cpu) => format!("cpu {cpu}"),
            None => "any cpu".to_owned(),
        });
        parts.join("; ")
    }
}

fn warn_once(host: &Host) {
    static WARNED: Once = Once::new();
    WARNED.call_once(|| {
        if let Some(missing) = host.shortcomings() {
            eprintln!("versus: sandbox: {missing} (see `versus doctor`)");
        }
    });
}
