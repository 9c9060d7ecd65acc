//! Agents as artifacts: what a worker on another host needs to play an
//! entrant, named by the SHA-256 of its contents.
//!
//! A built-in agent travels as its spec (`builtin:NAME?SETTINGS`) and the
//! versus version that decides what it does; a source agent (`src:FILE`) as
//! its file name, language and text, which every worker writes into its own
//! cache and builds there (the sandbox caches builds by content). A command
//! line names files on the scheduler's host: it travels only when
//! `--shared-path` says every worker has the same paths.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use versus_league::runner::Entrant;

use crate::QueueError;

/// The versus version that built-in agents' artifacts carry.
pub const VERSUS_VERSION: &str = env!("CARGO_PKG_VERSION");

/// One agent, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Artifact {
    /// `builtin:NAME?SETTINGS`, played in the worker's process.
    Builtin { spec: String, version: String },
    /// A source file: its name (which gives the language unless `language`
    /// does), its bytes and those of its data file (NYPC's `data.bin`).
    Source { file_name: String, language: Option<String>, text: Vec<u8>, data: Option<Vec<u8>> },
    /// A command line whose paths exist on every worker (`--shared-path`).
    Command { command: String, cwd: Option<String> },
}

impl Artifact {
    /// The artifact of a scheduled entrant. A command line is refused unless
    /// `shared_path`: remote workers do not have the scheduler's files.
    pub fn from_entrant(entrant: &Entrant, shared_path: bool) -> Result<Artifact, QueueError> {
        let spec = entrant.spec.trim();
        if spec.starts_with("builtin:") {
            return Ok(Artifact::Builtin { spec: spec.to_owned(), version: VERSUS_VERSION.into() });
        }
        if let Some(rest) = spec.strip_prefix("src:") {
            let (path, language) = match rest.rsplit_once("?lang=") {
                Some((path, language)) => (path, Some(language.to_owned())),
                None => (rest, None),
            };
            let path = match &entrant.cwd {
                Some(cwd) => cwd.join(path),
                None => PathBuf::from(path),
            };
            let (path, data_path) = versus_judge::split_data(&path);
            let read = |path: &Path, what: &str| {
                fs::read(path).map_err(|e| QueueError::Agent {
                    name: entrant.name.clone(),
                    message: format!("cannot read its {what} {}: {e}", path.display()),
                })
            };
            let text = read(&path, "source")?;
            // Checked before it is read: a refused data file is not sent.
            let data = data_path
                .map(|p| {
                    versus_sandbox::check_data_file(&p).map_err(|e| QueueError::Agent {
                        name: entrant.name.clone(),
                        message: e.to_string(),
                    })?;
                    read(&p, "data file")
                })
                .transpose()?;
            let file_name = path
                .file_name()
                .and_then(|n| n.to_str())
                .filter(|n| !n.is_empty())
                .ok_or_else(|| QueueError::Agent {
                    name: entrant.name.clone(),
                    message: format!("{} has no file name", path.display()),
                })?
                .to_owned();
            return Ok(Artifact::Source { file_name, language, text, data });
        }
        if !shared_path {
            return Err(QueueError::Agent {
                name: entrant.name.clone(),
                message: format!(
                    "{spec:?} is a command on this host, which workers on other hosts cannot \
                     run; give its source as src:FILE, or pass --shared-path if the same \
                     command and files exist on every worker"
                ),
            });
        }
        Ok(Artifact::Command {
            command: spec.to_owned(),
            cwd: entrant.cwd.as_ref().map(|c| c.to_string_lossy().into_owned()),
        })
    }

    /// The stored kind: `builtin`, `source` or `command`.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Artifact::Builtin { .. } => "builtin",
            Artifact::Source { .. } => "source",
            Artifact::Command { .. } => "command",
        }
    }

    /// The SHA-256 (hex) of everything that decides what the agent does,
    /// each field preceded by its length so no two artifacts run together.
    #[must_use]
    pub fn hash(&self) -> String {
        let mut hasher = Sha256::new();
        let mut field = |bytes: &[u8]| {
            hasher.update((bytes.len() as u64).to_le_bytes());
            hasher.update(bytes);
        };
        field(self.kind().as_bytes());
        match self {
            Artifact::Builtin { spec, version } => {
                field(spec.as_bytes());
                field(version.as_bytes());
            }
            Artifact::Source { file_name, language, text, data } => {
                field(file_name.as_bytes());
                field(language.as_deref().unwrap_or("").as_bytes());
                field(text);
                // Absent for a source without one, so that its hash is the
                // one it had before data files travelled.
                if let Some(data) = data {
                    field(data);
                }
            }
            Artifact::Command { command, cwd } => {
                field(command.as_bytes());
                field(cwd.as_deref().unwrap_or("").as_bytes());
            }
        }
        hasher.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The spec and working directory a worker plays this artifact with; a
    /// source is written once into `cache/HASH/FILE_NAME`.
    pub fn local_spec(&self, cache: &Path) -> io::Result<(String, Option<PathBuf>)> {
        match self {
            Artifact::Builtin { spec, .. } => Ok((spec.clone(), None)),
            Artifact::Command { command, cwd } => {
                Ok((command.clone(), cwd.as_ref().map(PathBuf::from)))
            }
            Artifact::Source { file_name, language, text, data } => {
                let dir = cache.join(self.hash());
                let path = dir.join(file_name);
                write_once(&dir, file_name, text)?;
                let mut spec = format!("src:{}", path.display());
                if let Some(data) = data {
                    // Its own name: the program sees it as data.bin anyway.
                    let name = if file_name == DATA_NAME { "data-file" } else { DATA_NAME };
                    write_once(&dir, name, data)?;
                    spec.push_str("?data=");
                    spec.push_str(name);
                }
                if let Some(language) = language {
                    spec.push_str("?lang=");
                    spec.push_str(language);
                }
                Ok((spec, None))
            }
        }
    }
}

/// The name of a source's data file in a worker's cache.
const DATA_NAME: &str = "data.bin";

/// Writes `bytes` as `dir/name` unless it already holds them: aside, then
/// renamed, so a worker killed mid-write leaves no half a file behind.
fn write_once(dir: &Path, name: &str, bytes: &[u8]) -> io::Result<()> {
    let path = dir.join(name);
    if fs::read(&path).ok().as_deref() != Some(bytes) {
        fs::create_dir_all(dir)?;
        let partial = dir.join(format!(".{name}.{}", std::process::id()));
        fs::write(&partial, bytes)?;
        fs::rename(&partial, &path)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrant(spec: &str, cwd: Option<&Path>) -> Entrant {
        Entrant { name: "a".into(), spec: spec.into(), cwd: cwd.map(Path::to_owned) }
    }

    #[test]
    fn commands_need_shared_paths_and_sources_travel_by_content() {
        let error = Artifact::from_entrant(&entrant("./bot --fast", None), false).unwrap_err();
        assert!(error.to_string().contains("--shared-path"), "{error}");
        let command = Artifact::from_entrant(&entrant("./bot --fast", None), true).unwrap();
        assert_eq!(command.kind(), "command");

        let dir = std::env::temp_dir().join(format!("versus-artifact-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("bot.py"), "print('READY')\n").unwrap();
        let source = Artifact::from_entrant(&entrant("src:bot.py", Some(&dir)), false).unwrap();
        assert_eq!(
            source,
            Artifact::Source {
                file_name: "bot.py".into(),
                language: None,
                text: b"print('READY')\n".to_vec(),
                data: None,
            }
        );
        // A worker's copy has the same bytes, under the artifact's hash.
        let cache = dir.join("cache");
        let (spec, cwd) = source.local_spec(&cache).unwrap();
        let copy = cache.join(source.hash()).join("bot.py");
        assert_eq!(spec, format!("src:{}", copy.display()));
        assert_eq!(cwd, None);
        assert_eq!(fs::read_to_string(&copy).unwrap(), "print('READY')\n");
        // One changed byte is another artifact.
        fs::write(dir.join("bot.py"), "print('READY') \n").unwrap();
        let changed = Artifact::from_entrant(&entrant("src:bot.py", Some(&dir)), false).unwrap();
        assert_ne!(changed.hash(), source.hash());
        let missing = Artifact::from_entrant(&entrant("src:nope.py", Some(&dir)), false);
        assert!(missing.unwrap_err().to_string().contains("nope.py"));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_data_file_travels_with_its_source_and_is_found_beside_the_copy() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("bot.py"), "print('OK')\n").unwrap();
        fs::write(dir.path().join("w.bin"), [0u8, 1, 2, 255]).unwrap();
        let spec = "src:bot.py?data=w.bin?lang=pypy";
        let source = Artifact::from_entrant(&entrant(spec, Some(dir.path())), false).unwrap();
        assert_eq!(
            source,
            Artifact::Source {
                file_name: "bot.py".into(),
                language: Some("pypy".into()),
                text: b"print('OK')\n".to_vec(),
                data: Some(vec![0, 1, 2, 255]),
            }
        );
        // On a worker: the copy's spec names the copied data file, which the
        // judge resolves beside the copied source.
        let cache = dir.path().join("cache");
        let (local, _) = source.local_spec(&cache).unwrap();
        let folder = cache.join(source.hash());
        assert_eq!(
            local,
            format!("src:{}?data=data.bin?lang=pypy", folder.join("bot.py").display())
        );
        let path = local.strip_prefix("src:").unwrap().strip_suffix("?lang=pypy").unwrap();
        let (copy, data) = versus_judge::split_data(Path::new(path));
        assert_eq!(fs::read(copy).unwrap(), b"print('OK')\n");
        assert_eq!(fs::read(data.unwrap()).unwrap(), [0, 1, 2, 255]);
        // Other data bytes are another artifact; no data is yet another.
        fs::write(dir.path().join("w.bin"), [0u8, 1, 2, 254]).unwrap();
        let other = Artifact::from_entrant(&entrant(spec, Some(dir.path())), false).unwrap();
        assert_ne!(other.hash(), source.hash());
        let plain =
            Artifact::from_entrant(&entrant("src:bot.py?lang=pypy", Some(dir.path())), false);
        assert_ne!(plain.unwrap().hash(), source.hash());
        // A missing or oversized data file is refused when scheduling.
        let missing =
            Artifact::from_entrant(&entrant("src:bot.py?data=no.bin", Some(dir.path())), false);
        assert!(missing.unwrap_err().to_string().contains("no.bin"));
        let big = fs::File::create(dir.path().join("big.bin")).unwrap();
        big.set_len(versus_sandbox::MAX_DATA_BYTES + 1).unwrap();
        let refused =
            Artifact::from_entrant(&entrant("src:bot.py?data=big.bin", Some(dir.path())), false);
        assert!(refused.unwrap_err().to_string().contains("big.bin"));
    }

    #[test]
    fn hashes_are_sha256_of_length_prefixed_fields() {
        let builtin = Artifact::Builtin { spec: "builtin:random".into(), version: "1".into() };
        // Independent: the same bytes hashed by hand.
        let mut bytes = Vec::new();
        for field in [&b"builtin"[..], b"builtin:random", b"1"] {
            bytes.extend((field.len() as u64).to_le_bytes());
            bytes.extend(field);
        }
        let expected: String = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(builtin.hash(), expected);
        assert_eq!(builtin.hash().len(), 64);
    }
}
