//! NYPC's Rust crates (bitvec, itertools, num, rand at its versions), built
//! once per host and toolchain with cargo, and handed to every Rust
//! submission's `rustc` as `--extern`s: a submission compiles in the time
//! of its own code, against the same builds each time.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use sha2::{Digest, Sha256};

/// The crates and versions of NYPC's Rust (2025).
pub const RUST_CRATES: [(&str, &str); 4] =
    [("bitvec", "1.0.1"), ("itertools", "0.14.0"), ("num", "0.4.3"), ("rand", "0.9.0")];

/// A built crate set.
#[derive(Clone, Debug)]
pub(crate) struct CrateSet {
    /// The folder of the built libraries (shown read-only to the compiler).
    pub dir: PathBuf,
    /// `bitvec 1.0.1, ...`, for the toolchain's version.
    pub summary: String,
    /// `--extern NAME=PATH` for each crate and `-L dependency=DIR`.
    pub rustc_args: Vec<String>,
}

/// Where crate sets live: `$VERSUS_RUST_CRATES`, else
/// `$XDG_CACHE_HOME/versus/rust-crates`, else `~/.cache/versus/rust-crates`.
/// Not under `$VERSUS_CACHE`: a test's fresh build cache need not rebuild
/// the crates.
fn root() -> PathBuf {
    std::env::var_os("VERSUS_RUST_CRATES")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("versus/rust-crates"))
        })
        .or_else(|| {
            std::env::var_os("HOME").map(|d| PathBuf::from(d).join(".cache/versus/rust-crates"))
        })
        .unwrap_or_else(|| std::env::temp_dir().join("versus-rust-crates"))
}

impl CrateSet {
    /// The crate set of this toolchain, built now if it is not yet (the
    /// first time needs crates.io; a lock file keeps one build at a time).
    pub(crate) fn get(sysroot: &Path, rustc: &Path, version: &str) -> Result<CrateSet, String> {
        let mut hasher = Sha256::new();
        hasher.update(version.as_bytes());
        for (name, v) in RUST_CRATES {
            hasher.update(format!("{name}={v};").as_bytes());
        }
        let key: String = hasher.finalize().iter().take(8).map(|b| format!("{b:02x}")).collect();
        let dir = root().join(key);
        let io = |what: &str| {
            let what = what.to_owned();
            move |e: io::Error| format!("{what}: {e}")
        };
        fs::create_dir_all(&dir).map_err(io(&dir.display().to_string()))?;
        let lock = fs::File::create(dir.join("lock")).map_err(io("lock"))?;
        rustix::fs::flock(&lock, rustix::fs::FlockOperation::LockExclusive)
            .map_err(|e| format!("lock {}: {e}", dir.display()))?;
        let deps = dir.join("target/release/deps");
        if !dir.join("ready").exists() {
            build(sysroot, rustc, &dir)?;
            fs::write(dir.join("ready"), b"").map_err(io("ready"))?;
        }
        let mut rustc_args = Vec::new();
        for (name, _) in RUST_CRATES {
            let rlib = newest_rlib(&deps, name)?;
            rustc_args.push("--extern".to_owned());
            rustc_args.push(format!("{name}={}", rlib.display()));
        }
        rustc_args.push("-L".to_owned());
        rustc_args.push(format!("dependency={}", deps.display()));
        let summary: Vec<String> = RUST_CRATES.iter().map(|(n, v)| format!("{n} {v}")).collect();
        Ok(CrateSet { dir: deps, summary: summary.join(", "), rustc_args })
    }
}

fn build(sysroot: &Path, rustc: &Path, dir: &Path) -> Result<(), String> {
    let mut manifest = String::from(
        "[package]\nname = \"versus-crate-set\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
         publish = false\n\n[workspace]\n\n[dependencies]\n",
    );
    for (name, version) in RUST_CRATES {
        manifest.push_str(&format!("{name} = \"={version}\"\n"));
    }
    manifest.push_str("\n[profile.release]\nopt-level = 3\n");
    let write = |path: PathBuf, text: &str| {
        fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
    };
    fs::create_dir_all(dir.join("src")).map_err(|e| e.to_string())?;
    write(dir.join("Cargo.toml"), &manifest)?;
    write(dir.join("src/main.rs"), "fn main() {}\n")?;
    let cargo = sysroot.join("bin/cargo");
    let cargo = if cargo.exists() { cargo } else { PathBuf::from("cargo") };
    let run = |offline: bool| {
        let mut command = Command::new(&cargo);
        command
            .args(["build", "--release", "--quiet"])
            .current_dir(dir)
            .env("RUSTC", rustc)
            .env("CARGO_TARGET_DIR", dir.join("target"))
            .env_remove("RUSTFLAGS")
            .env_remove("CARGO_BUILD_RUSTFLAGS")
            .stdin(Stdio::null());
        if offline {
            command.arg("--offline");
        }
        command.output()
    };
    eprintln!("versus: building the Rust crate set once ({})", dir.display());
    // Offline first: the registry cache may have them already.
    let output = match run(true) {
        Ok(output) if output.status.success() => output,
        _ => run(false).map_err(|e| format!("cannot run cargo: {e}"))?,
    };
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr);
        let said: String =
            said.lines().filter(|l| !l.trim().is_empty()).take(3).collect::<Vec<_>>().join("; ");
        return Err(format!("cargo could not build them (crates.io unreachable?): {said}"));
    }
    Ok(())
}

/// `lib{name}-{hash}.rlib` in `deps`, the newest if a rebuild left two.
fn newest_rlib(deps: &Path, name: &str) -> Result<PathBuf, String> {
    let prefix = format!("lib{name}-");
    let entries = fs::read_dir(deps).map_err(|e| format!("{}: {e}", deps.display()))?;
    entries
        .filter_map(Result::ok)
        .filter(|e| {
            let file = e.file_name();
            let file = file.to_string_lossy();
            file.starts_with(&prefix) && file.ends_with(".rlib")
        })
        .max_by_key(|e| e.metadata().and_then(|m| m.modified()).ok())
        .map(|e| e.path())
        .ok_or_else(|| format!("no built {name} in {}", deps.display()))
}
