//! The judging environment's languages: how each is compiled and run.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::str::FromStr;
use std::sync::{Mutex, OnceLock};

/// A language of the judging environment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    C,
    Cpp,
    Python,
    Rust,
    Java,
}

impl Language {
    pub const ALL: [Language; 5] =
        [Language::C, Language::Cpp, Language::Python, Language::Rust, Language::Java];

    /// The name used on the command line (`--lang`) and in records.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::Python => "python",
            Language::Rust => "rust",
            Language::Java => "java",
        }
    }

    /// From a source file's extension: `.c .cpp .cc .cxx .py .rs .java`.
    #[must_use]
    pub fn from_path(path: &Path) -> Option<Language> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "c" => Some(Language::C),
            "cpp" | "cc" | "cxx" | "c++" => Some(Language::Cpp),
            "py" => Some(Language::Python),
            "rs" => Some(Language::Rust),
            "java" => Some(Language::Java),
            _ => None,
        }
    }

    /// The file name the source gets in its build folder. Java's public
    /// class must be `Main`, as on the contest sites.
    #[must_use]
    pub fn source_name(self) -> &'static str {
        match self {
            Language::C => "main.c",
            Language::Cpp => "main.cpp",
            Language::Python => "main.py",
            Language::Rust => "main.rs",
            Language::Java => "Main.java",
        }
    }

    /// The starter file name `versus new` writes.
    #[must_use]
    pub fn starter_name(self) -> &'static str {
        match self {
            Language::C => "bot.c",
            Language::Cpp => "bot.cpp",
            Language::Python => "bot.py",
            Language::Rust => "bot.rs",
            Language::Java => "Main.java",
        }
    }

    /// The compile command, run in the build folder (`None`: nothing to
    /// compile). Python's step only checks the syntax, so that a source
    /// that cannot run is a compile error before any game.
    #[must_use]
    pub fn compile_argv(self, toolchain: &Toolchain) -> Vec<String> {
        let tool = toolchain.compiler.display().to_string();
        let words: &[&str] = match self {
            Language::C => {
                &["-std=c17", "-O2", "-pipe", "-DONLINE_JUDGE", "-o", "main", "main.c", "-lm"]
            }
            Language::Cpp => {
                &["-std=c++20", "-O2", "-pipe", "-DONLINE_JUDGE", "-o", "main", "main.cpp"]
            }
            Language::Python => &["-m", "py_compile", "main.py"],
            Language::Rust => {
                &["--edition", "2021", "-O", "--cfg", "online_judge", "-o", "main", "main.rs"]
            }
            Language::Java => &["-encoding", "UTF-8", "-d", ".", "Main.java"],
        };
        std::iter::once(tool).chain(words.iter().map(|w| (*w).to_owned())).collect()
    }

    /// The run command of a built program shown at `/prog`.
    #[must_use]
    pub fn run_command(self, toolchain: &Toolchain) -> String {
        match self {
            Language::C | Language::Cpp | Language::Rust => "/prog/main".to_owned(),
            Language::Python => format!("{} /prog/main.py", toolchain.runner.display()),
            // One GC thread and a large main stack (deep recursion is common
            // in game searches); the heap follows the cgroup's memory limit.
            Language::Java => {
                format!("{} -XX:+UseSerialGC -Xss64m -cp /prog Main", toolchain.runner.display())
            }
        }
    }

    /// The toolchain on this host, found once.
    pub fn toolchain(self) -> Result<Toolchain, String> {
        type Found = Vec<(Language, Result<Toolchain, String>)>;
        static FOUND: OnceLock<Mutex<Found>> = OnceLock::new();
        let found = FOUND.get_or_init(|| Mutex::new(Vec::new()));
        let mut found = found.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, toolchain)) = found.iter().find(|(l, _)| *l == self) {
            return toolchain.clone();
        }
        let toolchain = Toolchain::find(self);
        found.push((self, toolchain.clone()));
        toolchain
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Language {
    type Err = String;

    fn from_str(text: &str) -> Result<Language, String> {
        match text.to_ascii_lowercase().as_str() {
            "c" => Ok(Language::C),
            "cpp" | "c++" | "cxx" | "cc" => Ok(Language::Cpp),
            "python" | "python3" | "py" => Ok(Language::Python),
            "rust" | "rs" => Ok(Language::Rust),
            "java" => Ok(Language::Java),
            _ => Err(format!("unknown language {text:?} (known: c, cpp, python, rust, java)")),
        }
    }
}

/// A language's tools on this host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Toolchain {
    /// The compiler (for Python, the interpreter that checks the syntax).
    pub compiler: PathBuf,
    /// What runs the built program, when it is not a native binary.
    pub runner: PathBuf,
    /// The compiler's own first line of `--version`, part of the build's
    /// cache key and of the README's judging environment.
    pub version: String,
    /// Host folders the compiler needs besides `/usr` (Rust's sysroot).
    pub extra_dirs: Vec<PathBuf>,
}

impl Toolchain {
    fn find(language: Language) -> Result<Toolchain, String> {
        match language {
            Language::C => Self::plain("/usr/bin/gcc", "gcc", "--version", "apt-get install gcc"),
            Language::Cpp => Self::plain("/usr/bin/g++", "g++", "--version", "apt-get install g++"),
            Language::Python => {
                Self::plain("/usr/bin/python3", "python3", "--version", "apt-get install python3")
            }
            Language::Java => {
                let mut toolchain = Self::plain(
                    "/usr/bin/javac",
                    "javac",
                    "-version",
                    "apt-get install openjdk-17-jdk-headless",
                )?;
                toolchain.runner = PathBuf::from("/usr/bin/java");
                if !toolchain.version.contains(" 17.") {
                    return Err(format!("javac is {}, not Java 17", toolchain.version));
                }
                Ok(toolchain)
            }
            Language::Rust => {
                // The rustup proxy needs the home folder; the sandbox runs the
                // toolchain's own rustc from its sysroot instead.
                let sysroot = capture("rustc", &["--print", "sysroot"]).map_err(|e| {
                    format!("rustc is not installed ({e}): install a Rust toolchain")
                })?;
                let sysroot = PathBuf::from(sysroot);
                let compiler = sysroot.join("bin/rustc");
                let version = capture(&compiler.display().to_string(), &["--version"])?;
                let extra_dirs =
                    if sysroot.starts_with("/usr") { Vec::new() } else { vec![sysroot.clone()] };
                Ok(Toolchain { runner: compiler.clone(), compiler, version, extra_dirs })
            }
        }
    }

    fn plain(path: &str, name: &str, flag: &str, install: &str) -> Result<Toolchain, String> {
        let version = capture(path, &[flag])
            .map_err(|e| format!("{name} is not installed at {path} ({e}): {install}"))?;
        Ok(Toolchain {
            compiler: PathBuf::from(path),
            runner: PathBuf::from(path),
            version,
            extra_dirs: Vec::new(),
        })
    }
}

/// The first line a command prints (on standard output or error).
fn capture(program: &str, args: &[&str]) -> Result<String, String> {
    let output = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err(format!("{program} {} failed", args.join(" ")));
    }
    let text = if output.stdout.is_empty() { output.stderr } else { output.stdout };
    Ok(String::from_utf8_lossy(&text).lines().next().unwrap_or("").trim().to_owned())
}
