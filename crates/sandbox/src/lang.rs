//! The judging environment's languages: how each is compiled and run.
//!
//! The commands follow NYPC Code Battle's development-tools page: the same
//! flags where this host's toolchain has them, the `ONLINE_JUDGE` and
//! `NYPC` defines, and the argument `NYPC` on every run. Two differences
//! hold everywhere: no `-march=native` (a build may be cached and run on
//! another machine), and programs are run from `/prog`, their build folder.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::str::FromStr;
use std::sync::{Mutex, OnceLock};

use crate::crates;

/// A language of the judging environment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    C,
    Cpp,
    Python,
    PyPy,
    Rust,
    Java,
    Kotlin,
    Go,
    JavaScript,
    TypeScript,
    Lua,
    LuaJit,
    CSharp,
}

impl Language {
    pub const ALL: [Language; 13] = [
        Language::C,
        Language::Cpp,
        Language::Python,
        Language::PyPy,
        Language::Rust,
        Language::Java,
        Language::Kotlin,
        Language::Go,
        Language::JavaScript,
        Language::TypeScript,
        Language::Lua,
        Language::LuaJit,
        Language::CSharp,
    ];

    /// The name used on the command line (`--lang`) and in records.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::Python => "python",
            Language::PyPy => "pypy",
            Language::Rust => "rust",
            Language::Java => "java",
            Language::Kotlin => "kotlin",
            Language::Go => "go",
            Language::JavaScript => "javascript",
            Language::TypeScript => "typescript",
            Language::Lua => "lua",
            Language::LuaJit => "luajit",
            Language::CSharp => "csharp",
        }
    }

    /// NYPC Code Battle's toolchain for this language (2025), for
    /// `versus doctor` and the README.
    #[must_use]
    pub fn nypc_version(self) -> &'static str {
        match self {
            Language::C | Language::Cpp => "gcc 13.3.0",
            Language::Python => "Python 3.12.3",
            Language::PyPy => "Python 3.9.18 (PyPy 7.3.15)",
            Language::Rust => "rustc 1.88.0 (edition 2024)",
            Language::Java => "openjdk 21.0.7",
            Language::Kotlin => "kotlinc-jvm 2.1.21",
            Language::Go => "go 1.24.2",
            Language::JavaScript => "Node.js v22.13.1",
            Language::TypeScript => "TypeScript 5.8.3 (Node.js v22.13.1)",
            Language::Lua => "Lua 5.4.6",
            Language::LuaJit => "LuaJIT 2.1.1748459687",
            Language::CSharp => "dotnet 9.0.104 (C# 9)",
        }
    }

    /// From a source file's extension. `.py` is CPython and `.lua` is Lua
    /// 5.4: PyPy and LuaJIT are named with `--lang`.
    #[must_use]
    pub fn from_path(path: &Path) -> Option<Language> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "c" => Some(Language::C),
            "cpp" | "cc" | "cxx" | "c++" => Some(Language::Cpp),
            "py" => Some(Language::Python),
            "rs" => Some(Language::Rust),
            "java" => Some(Language::Java),
            "kt" => Some(Language::Kotlin),
            "go" => Some(Language::Go),
            "js" => Some(Language::JavaScript),
            "ts" => Some(Language::TypeScript),
            "lua" => Some(Language::Lua),
            "cs" => Some(Language::CSharp),
            _ => None,
        }
    }

    /// The extensions [`Language::from_path`] knows, for error messages.
    pub const EXTENSIONS: &'static str = ".c .cpp .cc .py .rs .java .kt .go .js .ts .lua .cs";

    /// The file name the source gets in its build folder, as on NYPC
    /// (Java's public class must be `Main`).
    #[must_use]
    pub fn source_name(self) -> &'static str {
        match self {
            Language::C => "main.c",
            Language::Cpp => "main.cpp",
            Language::Python | Language::PyPy => "main.py",
            Language::Rust => "main.rs",
            Language::Java => "Main.java",
            Language::Kotlin => "Main.kt",
            Language::Go => "main.go",
            Language::JavaScript => "main.js",
            Language::TypeScript => "main.ts",
            Language::Lua | Language::LuaJit => "Main.lua",
            Language::CSharp => "main.cs",
        }
    }

    /// The starter file name `versus new` writes.
    #[must_use]
    pub fn starter_name(self) -> &'static str {
        match self {
            Language::C => "bot.c",
            Language::Cpp => "bot.cpp",
            Language::Python | Language::PyPy => "bot.py",
            Language::Rust => "bot.rs",
            Language::Java => "Main.java",
            Language::Kotlin => "Main.kt",
            Language::Go => "bot.go",
            Language::JavaScript => "bot.js",
            Language::TypeScript => "bot.ts",
            Language::Lua | Language::LuaJit => "bot.lua",
            Language::CSharp => "bot.cs",
        }
    }

    /// The compile command, run in the build folder. Python's and
    /// JavaScript's steps only check the syntax, so that a source that
    /// cannot run is a compile error before any game.
    #[must_use]
    pub fn compile_argv(self, toolchain: &Toolchain) -> Vec<String> {
        let tool = toolchain.compiler.display().to_string();
        let mut words: Vec<String> = match self {
            Language::C => {
                words("-std=gnu2x -O2 -pipe -DONLINE_JUDGE -DNYPC -Wall -Wextra -o main main.c -lm")
            }
            Language::Cpp => {
                words("-std=gnu++20 -O2 -pipe -DONLINE_JUDGE -DNYPC -Wall -Wextra -o main main.cpp")
            }
            Language::Python | Language::PyPy => words("-m py_compile main.py"),
            Language::Rust => {
                let mut w = words(
                    "--edition 2024 -C opt-level=3 --cfg online_judge --cfg nypc -o main main.rs",
                );
                w.extend(toolchain.extra_args.iter().cloned());
                w
            }
            Language::Java => words("--release 17 -encoding UTF-8 -d . Main.java"),
            Language::Kotlin => words("-include-runtime -d Main.jar Main.kt"),
            Language::Go => words("build -o main main.go"),
            Language::JavaScript => words("--check main.js"),
            Language::TypeScript => {
                let mut w = words(
                    "main.ts --target ESNext --moduleResolution node --module commonjs --noEmitOnError",
                );
                w.extend(toolchain.extra_args.iter().cloned());
                w
            }
            Language::Lua => words("-o Main.out Main.lua"),
            Language::LuaJit => words("-O3 -b Main.lua Main.out"),
            Language::CSharp => {
                words("-optimize+ -define:ONLINE_JUDGE -define:NYPC -out:Main.exe main.cs")
            }
        };
        words.insert(0, tool);
        words
    }

    /// The compiler's environment besides the sandbox's minimal one.
    #[must_use]
    pub fn compile_env(self) -> Vec<(String, String)> {
        let pairs: &[(&str, &str)] = match self {
            // Go keeps its build cache in memory, and never asks the
            // network for a module.
            Language::Go => &[
                ("GOCACHE", "/tmp/go-cache"),
                ("GOPATH", "/tmp/go"),
                ("GOPROXY", "off"),
                ("GOFLAGS", "-mod=mod"),
                ("CGO_ENABLED", "0"),
            ],
            _ => &[],
        };
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    /// The run command of a built program shown at `/prog`; every program
    /// gets the argument `NYPC`, as NYPC's judge gives it.
    #[must_use]
    pub fn run_command(self, toolchain: &Toolchain) -> String {
        let runner = toolchain.runner.display();
        // One GC thread and a large main stack (deep recursion is common in
        // game searches); the heap follows the cgroup's memory limit.
        let jvm = "-XX:+UseSerialGC -Xss64m -DONLINE_JUDGE=1 -DNYPC=1";
        match self {
            Language::C | Language::Cpp | Language::Rust | Language::Go => {
                "/prog/main NYPC".to_owned()
            }
            Language::Python | Language::PyPy => {
                let tag = toolchain.cache_tag.as_deref().unwrap_or("unknown");
                format!("{runner} /prog/__pycache__/main.{tag}.pyc NYPC")
            }
            Language::Java => format!("{runner} {jvm} -cp /prog Main NYPC"),
            Language::Kotlin => format!("{runner} {jvm} -jar /prog/Main.jar NYPC"),
            Language::JavaScript | Language::TypeScript => format!("{runner} /prog/main.js NYPC"),
            Language::Lua | Language::LuaJit => format!("{runner} /prog/Main.out NYPC"),
            Language::CSharp => format!("{runner} /prog/Main.exe NYPC"),
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

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_owned).collect()
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
            "pypy" | "pypy3" => Ok(Language::PyPy),
            "rust" | "rs" => Ok(Language::Rust),
            "java" => Ok(Language::Java),
            "kotlin" | "kt" => Ok(Language::Kotlin),
            "go" | "golang" => Ok(Language::Go),
            "javascript" | "js" | "node" | "nodejs" => Ok(Language::JavaScript),
            "typescript" | "ts" => Ok(Language::TypeScript),
            "lua" | "lua5.4" | "lua54" => Ok(Language::Lua),
            "luajit" => Ok(Language::LuaJit),
            "csharp" | "c#" | "cs" => Ok(Language::CSharp),
            _ => {
                let known: Vec<&str> = Language::ALL.iter().map(|l| l.name()).collect();
                Err(format!("unknown language {text:?} (known: {})", known.join(", ")))
            }
        }
    }
}

/// A language's tools on this host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Toolchain {
    /// The compiler (for Python and JavaScript, the interpreter that checks
    /// the syntax).
    pub compiler: PathBuf,
    /// What runs the built program, when it is not a native binary.
    pub runner: PathBuf,
    /// The toolchain's own words on its version, part of the build's cache
    /// key and of the README's judging environment.
    pub version: String,
    /// Host folders the compiler needs besides `/usr` (Rust's sysroot and
    /// crate set).
    pub extra_dirs: Vec<PathBuf>,
    /// More compiler arguments found on this host (Rust's `--extern`s,
    /// TypeScript's type roots).
    pub extra_args: Vec<String>,
    /// Python's cache tag (`cpython-311`): the name of the compiled file
    /// that is run.
    pub cache_tag: Option<String>,
}

impl Toolchain {
    fn find(language: Language) -> Result<Toolchain, String> {
        match language {
            Language::C => Self::plain("/usr/bin/gcc", "gcc", "--version", "apt-get install gcc"),
            Language::Cpp => Self::plain("/usr/bin/g++", "g++", "--version", "apt-get install g++"),
            Language::Python => Self::python("/usr/bin/python3", "python3"),
            Language::PyPy => Self::python("/usr/bin/pypy3", "pypy3"),
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
            Language::Kotlin => {
                let text = capture_all("/usr/bin/kotlinc", &["-version"]).map_err(|e| {
                    format!("kotlinc is not installed ({e}): apt-get install kotlin")
                })?;
                let version = text
                    .lines()
                    .find(|l| l.contains("kotlinc"))
                    .unwrap_or("kotlinc")
                    .trim_start_matches("info: ")
                    .to_owned();
                Ok(Toolchain {
                    compiler: PathBuf::from("/usr/bin/kotlinc"),
                    runner: PathBuf::from("/usr/bin/java"),
                    version,
                    ..Toolchain::empty()
                })
            }
            Language::Go => {
                Self::plain("/usr/bin/go", "go", "version", "apt-get install golang-go")
            }
            Language::JavaScript => {
                Self::plain("/usr/bin/node", "node", "--version", "apt-get install nodejs")
                    .map(|t| Toolchain { version: format!("Node.js {}", t.version), ..t })
            }
            Language::TypeScript => Self::typescript(),
            Language::Lua => {
                let mut toolchain =
                    Self::plain("/usr/bin/luac5.4", "luac5.4", "-v", "apt-get install lua5.4")?;
                toolchain.runner = PathBuf::from("/usr/bin/lua5.4");
                Ok(toolchain)
            }
            Language::LuaJit => {
                Self::plain("/usr/bin/luajit", "luajit", "-v", "apt-get install luajit")
            }
            Language::CSharp => {
                let mut toolchain = Self::plain(
                    "/usr/bin/mcs",
                    "mcs",
                    "--version",
                    "apt-get install mono-mcs mono-runtime",
                )?;
                toolchain.runner = PathBuf::from("/usr/bin/mono");
                if !toolchain.runner.exists() {
                    return Err("mono is not installed: apt-get install mono-runtime".to_owned());
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
                let mut version = capture(&compiler.display().to_string(), &["--version"])?;
                let mut extra_dirs =
                    if sysroot.starts_with("/usr") { Vec::new() } else { vec![sysroot.clone()] };
                let mut extra_args = Vec::new();
                match crates::CrateSet::get(&sysroot, &compiler, &version) {
                    Ok(set) => {
                        version.push_str(&format!(" + {}", set.summary));
                        extra_dirs.push(set.dir.clone());
                        extra_args = set.rustc_args.clone();
                    }
                    // Without the crates a source that uses none still builds.
                    Err(why) => version.push_str(&format!(" (no crates: {why})")),
                }
                Ok(Toolchain {
                    runner: compiler.clone(),
                    compiler,
                    version,
                    extra_dirs,
                    extra_args,
                    cache_tag: None,
                })
            }
        }
    }

    fn empty() -> Toolchain {
        Toolchain {
            compiler: PathBuf::new(),
            runner: PathBuf::new(),
            version: String::new(),
            extra_dirs: Vec::new(),
            extra_args: Vec::new(),
            cache_tag: None,
        }
    }

    fn plain(path: &str, name: &str, flag: &str, install: &str) -> Result<Toolchain, String> {
        let version = capture(path, &[flag])
            .map_err(|e| format!("{name} is not installed at {path} ({e}): {install}"))?;
        // Lua's banners go on with a copyright: the version is before it.
        let version = version.split("  Copyright").next().unwrap_or("").to_owned();
        let version = version.split(" -- Copyright").next().unwrap_or("").to_owned();
        Ok(Toolchain {
            compiler: PathBuf::from(path),
            runner: PathBuf::from(path),
            version,
            ..Toolchain::empty()
        })
    }

    fn python(path: &str, name: &str) -> Result<Toolchain, String> {
        let mut toolchain =
            Self::plain(path, name, "--version", &format!("apt-get install {name}"))?;
        let tag = capture(path, &["-c", "import sys; print(sys.implementation.cache_tag)"])?;
        toolchain.cache_tag = Some(tag);
        Ok(toolchain)
    }

    /// `tsc` as npm installs it (`npm install -g typescript @types/node`),
    /// with Node's type definitions beside it.
    fn typescript() -> Result<Toolchain, String> {
        let install = "npm install -g typescript@5.8.3 @types/node@22.13.1";
        let node = Self::plain("/usr/bin/node", "node", "--version", "apt-get install nodejs")?;
        let tsc = ["/usr/local/bin/tsc", "/usr/bin/tsc"]
            .iter()
            .find_map(|p| Path::new(p).canonicalize().ok())
            .ok_or_else(|| format!("tsc is not installed: {install}"))?;
        // .../node_modules/typescript/bin/tsc
        let modules = tsc
            .parent()
            .and_then(Path::parent)
            .and_then(Path::parent)
            .filter(|m| m.starts_with("/usr"))
            .ok_or_else(|| format!("tsc at {} is not an npm install under /usr", tsc.display()))?;
        let types = modules.join("@types");
        if !types.join("node/package.json").is_file() {
            return Err(format!("Node's type definitions are not beside tsc: {install}"));
        }
        let version = capture(&tsc.display().to_string(), &["--version"])?;
        Ok(Toolchain {
            compiler: tsc,
            runner: node.runner,
            version: format!(
                "TypeScript {} (Node.js {})",
                version.trim_start_matches("Version "),
                node.version
            ),
            extra_args: vec![
                "--typeRoots".to_owned(),
                types.display().to_string(),
                "--types".to_owned(),
                "node".to_owned(),
            ],
            ..Toolchain::empty()
        })
    }
}

/// The first line a command prints (on standard output or error).
pub(crate) fn capture(program: &str, args: &[&str]) -> Result<String, String> {
    let text = capture_all(program, args)?;
    Ok(text.lines().next().unwrap_or("").trim().to_owned())
}

/// Everything a command prints (standard output, else standard error).
fn capture_all(program: &str, args: &[&str]) -> Result<String, String> {
    let output = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err(format!("{program} {} failed", args.join(" ")));
    }
    let text = if output.stdout.is_empty() { output.stderr } else { output.stdout };
    Ok(String::from_utf8_lossy(&text).into_owned())
}
