//! `versus doctor`'s judging environment: each language with the version
//! of its toolchain here and NYPC Code Battle's.

use std::io::{self, Write};

use versus_judge::Language;

/// One line per language: its name, this host's toolchain (or why it is
/// missing) and NYPC's.
pub(crate) fn languages(out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "judging environment (here | NYPC):")?;
    for language in Language::ALL {
        let here = match language.toolchain() {
            Ok(toolchain) => toolchain.version,
            Err(why) => format!("missing: {why}"),
        };
        writeln!(out, "  {:<10} {here} | {}", language.name(), language.nypc_version())?;
    }
    let crates: Vec<String> =
        versus_sandbox::RUST_CRATES.iter().map(|(name, v)| format!("{name} {v}")).collect();
    writeln!(out, "  rust crates (NYPC's): {}", crates.join(", "))?;
    Ok(())
}
