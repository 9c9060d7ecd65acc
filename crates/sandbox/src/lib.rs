//! The sandbox: the judging environment's languages and the isolation of
//! the programs that contestants submit.
//!
//! It knows languages (how to compile a source, how to run what was built)
//! and isolation (bubblewrap namespaces, the kernel's cgroups), and nothing
//! of any game. The judge asks it for a ready command and a [`Cage`] to
//! read verdicts from and to kill through.

mod build;
mod cgroup;
mod crates;
mod host;
mod isolation;
mod lang;

pub use build::{check_data_file, Artifact, BuildError, Builder, MAX_DATA_BYTES, MAX_SOURCE_BYTES};
pub use cgroup::Cage;
pub use crates::RUST_CRATES;
pub use host::{CgroupMode, Host};
pub use isolation::{Isolation, Prepared, Workdir};
pub use lang::{Language, Toolchain};
